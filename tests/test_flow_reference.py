"""What a move does, checked against a second implementation written from the rule texts alone
(``tests/flow_reference.py``, by someone who had not read the engine): every bundled seating, random games,
every action's next position compared field by field (``tests/flow_compare.py``). Legal moves have had
clean-room references for long; what a move then does to the table, the builds, the piles, the sweeps and
the turn had none. ``python benchmarks/flow_compare.py --seeds 150`` runs the long comparison (10,650 hands,
some 600,000 actions, no difference when it was written)."""

from __future__ import annotations

from collections import Counter

import pytest

from cassino.apps.authors.matrix import seatings

import flow_compare
from flow_reference import Reference

SEATINGS = seatings()


@pytest.mark.parametrize("seating", SEATINGS, ids=[f"{s.variant}-{s.players}{'p' if s.partners else ''}"
                                                    for s in SEATINGS])
def test_every_action_agrees_with_the_reference(seating) -> None:  # type: ignore[no-untyped-def]
    tally = flow_compare.compare(seating.variant, seating.players, seating.partners, range(1, 5))
    assert tally.games == 4 and tally.actions >= 4 * 20
    assert not tally.differences, "\n".join(map(str, tally.differences[:5]))


def test_the_slice_goes_through_the_rare_rules() -> None:
    """The rules a comparison is worth most for come up in these games: sweeps, cancelled sweeps, a
    table emptied where no sweep counts, the last capturer's rest, new deals, opposing pile cards, a
    build held for a partner, a turn of several actions ended by the engine."""
    seen: Counter[str] = Counter()
    for variant, players, partners, hands in (("dominican", 2, False, 80), ("scopa", 2, False, 20),
                                              ("finnish-kasino", 2, False, 20), ("south-african-casino", 4, True, 20),
                                              ("hoyle", 4, True, 20)):
        tally = flow_compare.compare(variant, players, partners, range(1, hands + 1))
        assert not tally.differences, "\n".join(map(str, tally.differences[:5]))
        seen += tally.seen
    for kind in ("sweep", "sweeps cancelled", "table emptied, no sweep", "last capturer took the rest", "new deal",
                 "opposing pile card used", "build held by a partner", "turn ended by the engine"):
        assert seen[kind] > 0, (kind, seen)


class _NoCancelling(Reference):
    """A reference that forgets that sweeps cancel (002 Dominican: 'Virados')."""

    def _sweep(self, p, seat, size, residue=False):  # type: ignore[no-untyped-def]
        cancel, self.r.cancel = self.r.cancel, False
        try:
            super()._sweep(p, seat, size, residue)
        finally:
            self.r.cancel = cancel


class _RestStays(Reference):
    """A reference that leaves the cards on the table at the end of a hand where they lie."""

    def _end_hand(self, p):  # type: ignore[no-untyped-def]
        p.over = True


@pytest.mark.parametrize("wrong, variant, field", [(_NoCancelling, "dominican", "sweeps"),
                                                     (_RestStays, "standard", "piles")])
def test_a_wrong_reference_is_caught(wrong: type[Reference], variant: str, field: str) -> None:
    tally = flow_compare.compare(variant, 2, False, range(1, 31), reference=wrong)
    assert any(d.field == field for d in tally.differences), [str(d) for d in tally.differences[:3]]

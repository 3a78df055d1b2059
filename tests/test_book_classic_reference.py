"""The clean-room reference of the classic Casino family written from the generated rulebooks alone
(``book_classic_reference``: ``cassino rules standard|hoyle|draw|face-builds``): (a) its answers on the
rulebooks' own worked examples; (b) a CI slice comparing it with the engine on every seating of each variant
it covers, over random games and over positions built at random, where no undeclared disagreement may
appear; (c) the comparison catches a reference that drops a class of moves.

``benchmarks/reference_compare.py --reference book_classic_reference --seeds N`` runs the large comparison.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import book_classic_reference as br
import reference_positions as rp


def _moves(variant: str, case: dict[str, Any]) -> set[str]:
    return {rp.canonical(m) for m in br.legal_moves(variant, case)}


# ------------------------------------------------------------------ (a) the rulebooks' examples
# (variant, the rulebook's example, position, legal, illegal). Seat 0 to play unless the position says otherwise.
EXAMPLES: list[tuple[str, str, dict[str, Any], list[str], list[str]]] = [
    ("standard", "§5 taking sums", {"table": ["5S", "4H", "6D", "3C"], "hand": ["9S"]},
     ["9S capture 3C 6D", "9S capture 4H 5S", "9S capture 3C 4H 5S 6D"], []),
    ("standard", "§5 several equal cards", {"table": ["7S", "7H", "3D", "4C"], "hand": ["7D"]},
     ["7D capture 7H", "7D capture 7S", "7D capture 3D 4C", "7D capture 7S 7H", "7D capture 3D 4C 7H",
      "7D capture 3D 4C 7S", "7D capture 3D 4C 7S 7H"], []),
    ("hoyle", "§5 several equal cards", {"table": ["7S", "7H", "3D", "4C"], "hand": ["7D"]},
     ["7D capture 3D 4C", "7D capture 7S 7H", "7D capture 3D 4C 7S 7H"],
     ["7D capture 3D 4C 7H", "7D capture 3D 4C 7S", "7D capture 7H", "7D capture 7S"]),
    ("draw", "§5 cards without a value", {"table": ["KS", "KH", "KD"], "hand": ["KC"]},
     ["KC capture KD", "KC capture KH", "KC capture KS"], ["KC capture KH KD", "KC capture KS KH KD"]),
    ("hoyle", "§5 cards without a value", {"table": ["KS", "KH", "KD"], "hand": ["KC"]},
     ["KC capture KS KH KD"], ["KC capture KD", "KC capture KH KD"]),
    ("face-builds", "§5 cards without a value", {"table": ["KS", "KH", "KD"], "hand": ["KC"]},
     ["KC capture KS KH KD"], ["KC capture KD", "KC capture KS KH"]),
    ("standard", "§5 which cards may be trailed", {"table": ["7S", "2H", "4D"], "hand": ["7C", "6S", "10H"]},
     ["6S trail", "7C trail", "10H trail"], []),
    ("standard", "§6 making a build", {"table": ["5S", "2H"], "hand": ["3D", "8C"]},
     ["3D build 8 on 5S"], ["3D build 10 on 2H 5S", "3D build 5 on 2H"]),
    ("draw", "§6 a multiple build", {"table": ["5S", "8H"], "hand": ["3D", "8C"]},
     ["3D build 8 on 5S", "3D build 8 on 5S 8H"], []),
    ("standard", "§6 adding to a build",
     {"table": ["6D"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 1}], "hand": ["2C", "8S"]},
     ["2C build 8 on 6D", "2C build 8 on [3H 5S] 6D"], []),
    ("hoyle", "§6 another side's build, by the hand card alone",
     {"table": ["9D"], "builds": [{"cards": ["3S", "4H"], "value": 7, "owner": 1}], "hand": ["2C", "9S"]},
     ["2C build 9 on [3S 4H]"], ["2C build 9 on [3S 4H] 9D"]),
    ("standard", "§6 raising with table cards",
     {"table": ["9D", "AC"], "builds": [{"cards": ["3S", "4H"], "value": 7, "owner": 1}], "hand": ["2S", "9H", "10D"]},
     ["2S build 9 on [3S 4H]", "2S build 9 on [3S 4H] 9D"], ["2S build 10 on [3S 4H] AC"]),
    ("face-builds", "§6 what a raise takes in",
     {"table": ["9D", "5C", "4S"], "builds": [{"cards": ["3S", "4H"], "value": 7, "owner": 1}], "hand": ["2H", "9C"]},
     ["2H build 9 on [3S 4H]", "2H build 9 on [3S 4H] 9D"],
     ["2H build 9 on [3S 4H] 4S 5C", "2H build 9 on [3S 4H] 4S 5C 9D"]),
    ("standard", "§6 a build in a sum",
     {"table": ["4D"], "builds": [{"cards": ["2S", "3H"], "value": 5, "owner": 1}], "hand": ["9C"]},
     [], ["9C capture [2S 3H] 4D"]),
    ("hoyle", "§6 building for your partner",
     {"players": 4, "partners": True, "table": ["5D"],
      "builds": [{"cards": ["6S", "3H"], "value": 9, "owner": 2}], "hand": ["4C", "2S"]},
     ["4C build 9 on 5D", "4C build 9 on [3H 6S] 5D"], []),
    ("standard", "§6 piling cards without a value", {"table": ["KS"], "hand": ["KH", "KD"]},
     [], ["KH build K on KS"]),
    ("face-builds", "§6 piling cards without a value", {"table": ["KS"], "hand": ["KH", "KD"]},
     ["KH build K on KS"], []),
    ("standard", "§6 owning a build",
     {"table": ["6D"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 0}], "hand": ["8C", "2S", "10H"]},
     ["2S build 8 on 6D", "2S build 10 on [3H 5S]", "2S build 8 on [3H 5S] 6D"], ["10H trail", "2S trail"]),
    ("face-builds", "§6 owning a build",
     {"table": ["6D"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 0}], "hand": ["8C", "2S", "10H"]},
     ["2S build 10 on [3H 5S]"], ["10H trail", "2S build 8 on 6D", "2S build 8 on [3H 5S] 6D", "2S trail"]),
    ("standard", "§6 keeping the card you built for",
     {"table": ["8D"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 0}], "hand": ["8C", "4S"]},
     ["8C capture [3H 5S]", "8C capture [3H 5S] 8D"], ["8C capture 8D"]),
    ("hoyle", "§6 'If you built for your partner's card and can do none of these, you trail.'",
     {"players": 4, "partners": True, "table": ["KH"],
      "builds": [{"cards": ["5C", "3D"], "value": 8, "owner": 0, "holder": 2}], "hand": ["QS", "JD"],
      "hands": {2: ["8C"]}},
     ["QS trail", "JD trail"], []),
]


@pytest.mark.parametrize("variant,source,case,legal,illegal", EXAMPLES, ids=[f"{e[0]} {e[1][:50]}" for e in EXAMPLES])
def test_the_rulebooks_examples(variant: str, source: str, case: dict[str, Any], legal: list[str],
                                illegal: list[str]) -> None:
    got = _moves(variant, case)
    for m in legal:
        assert rp.canonical(m) in got, f"{source}: {m} should be legal; got {sorted(got)}"
    for m in illegal:
        assert rp.canonical(m) not in got, f"{source}: {m} should be illegal"


# ------------------------------------------------------------------ (b) the CI slice
PER_SEATING = 80


@pytest.fixture(scope="module")
def slice_tally() -> rp.Tally:
    """The first PER_SEATING positions of seeds 1 and 2 of every seating (16 seatings)."""
    return rp.run_each(rp.seatings(br.VARIANTS), range(1, 3), br.legal_moves, PER_SEATING)


def test_the_slice_compares_every_seating(slice_tally: rp.Tally) -> None:
    assert set(slice_tally.by_seating) == set(rp.seatings(br.VARIANTS))
    assert min(slice_tally.by_seating.values()) >= 60
    assert slice_tally.positions > 900


def test_no_undeclared_disagreement_in_play(slice_tally: rp.Tally) -> None:
    bad = rp.undeclared(br, slice_tally.found)
    assert not bad, "\n".join(str(d) for d in bad[:5])


def _random_case(rnd: random.Random, variant: str, players: int, partners: bool) -> dict[str, Any] | None:
    """A position built at random: builds single and multiple, partner-held builds (hoyle), court piles
    (face-builds), loose courts; each holder holds a card of his build's value."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    deck = [r + s for r in ranks for s in "SHDC"]
    rnd.shuffle(deck)
    used: set[str] = set()

    def take(pred: Any) -> str | None:
        for c in deck:
            if c not in used and pred(c):
                used.add(c)
                return c
        return None

    def worth(v: Any) -> Any:
        return (lambda c: c[:-1] == v) if isinstance(v, str) else (lambda c: br._value(c) == v)

    builds = []
    for _ in range(rnd.choice([0, 1, 1, 2, 2, 3])):
        v = rnd.randint(2, 10)
        cards: list[str] = []
        for g in range(rnd.choice([1, 1, 2])):
            a = rnd.randint(1, v - 1)
            for p in ([v] if g and rnd.random() < 0.4 else [a, v - a]):
                c = take(worth(p))
                if c is None:
                    return None
                cards.append(c)
        owner = rnd.randrange(players)
        holder = (owner + 2) % 4 if variant == "hoyle" and partners and rnd.random() < 0.4 else owner
        builds.append({"cards": cards, "value": v, "owner": owner, "holder": holder})
    if variant == "face-builds" and rnd.random() < 0.4:
        rank, owner = rnd.choice("JQK"), rnd.randrange(players)
        builds.append({"cards": [take(worth(rank)) for _ in range(rnd.choice([2, 3]))], "value": rank,
                       "owner": owner, "holder": owner})
    table = [take(lambda c: True) for _ in range(rnd.randint(0, 6))]
    if rnd.random() < 0.3:
        rank = rnd.choice("JQK")
        table += [c for c in (take(worth(rank)) for _ in range(rnd.randint(1, 2))) if c]
    hands: dict[int, list[str]] = {s: [] for s in range(players)}
    for b in builds:
        if not any(worth(b["value"])(c) for c in hands[b["holder"]]):
            c = take(worth(b["value"]))
            if c is None:
                return None
            hands[b["holder"]].append(c)
    for s in range(players):
        for _ in range(rnd.randint(1, 4) - len(hands[s])):
            t = rnd.choice(table) if table and rnd.random() < 0.5 else None
            c = take(lambda c: True) if t is None else take(lambda c, t=t: c[:-1] == t[:-1])
            if c is not None:
                hands[s].append(c)
    seat = rnd.randrange(players)
    if not hands[seat] or any(c is None for c in table):
        return None
    return {"players": players, "partners": partners, "to_play": seat, "hand": hands[seat],
            "hands": {s: h for s, h in hands.items() if s != seat and h}, "table": table, "builds": builds}


class _Found:
    """A disagreement on a position built at random, with the fields DECLARED's tests read."""

    def __init__(self, variant: str, engine_says: bool, move: str, case: dict[str, Any]) -> None:
        self.variant, self.engine_says, self.move, self.case = variant, engine_says, move, case

    def __repr__(self) -> str:
        return f"{'engine only' if self.engine_says else 'reference only'}: {self.move} [{self.variant}] {self.case}"


def compare_random(n: int, reference: Any = br.legal_moves,
                   variants: tuple[str, ...] = br.VARIANTS) -> tuple[int, list[_Found]]:
    """Positions built at random (n a variant), compared with the engine: (how many, the disagreements)."""
    seats = [(2, False), (3, False), (4, False), (4, True)]
    compared, found = 0, []
    for variant in variants:
        for i in range(n):
            players, partners = seats[i % 4]
            case = _random_case(random.Random(7 * i + 1), variant, players, partners)
            if case is None:
                continue
            theirs = rp.case_moves(variant, case)
            mine = {rp.canonical(m) for m in reference(variant, case)}
            compared += 1
            found += [_Found(variant, True, m, case) for m in sorted(theirs - mine)]
            found += [_Found(variant, False, m, case) for m in sorted(mine - theirs)]
    return compared, found


def test_no_undeclared_disagreement_on_positions_built_at_random() -> None:
    compared, found = compare_random(250)
    assert compared > 900
    bad = [f for f in found if rp.explained(br, f) is None]     # type: ignore[arg-type]
    assert not bad, "\n".join(map(repr, bad[:5]))


def test_the_gap_the_rulebook_closed_is_read_as_it_now_says() -> None:
    """The one class this reference found: the engine adds a set and a further loose set to a build, where the
    rulebook said "a set"; the rulebook now says "and with it any other loose cards or sets of loose cards worth the
    value", this reference reads that, and such a move is one the old reading's test named."""
    case = {"table": ["6D", "8H"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 1}], "hand": ["2C", "8S"]}
    move = rp.canonical("2C build 8 on [5S 3H] 6D 8H")
    assert move in rp.case_moves("standard", case)
    assert move in _moves("standard", case)
    assert br._adds_several_sets(_Found("standard", True, move, {**case, "to_play": 0}))


# ------------------------------------------------------------------ (c) the comparison can fail
def _is_raise(move: str, case: dict[str, Any]) -> bool:
    card, action, value, named, _loose = br._parse(move)
    if action != "build" or len(named) != 1:
        return False
    target = [b for b in case.get("builds", []) if sorted(b["cards"]) == sorted(named[0])]
    return bool(target) and str(target[0]["value"]) != value


def test_a_reference_without_raises_is_caught() -> None:
    def no_raise(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in br.legal_moves(variant, case) if not _is_raise(m, case)}

    compared, found = compare_random(250, no_raise, ("standard", "hoyle"))
    bad = [f for f in found if rp.explained(br, f) is None]     # type: ignore[arg-type]
    assert bad and all(f.engine_says and _is_raise(f.move, f.case) for f in bad)


def test_a_reference_letting_the_owner_trail_is_caught() -> None:
    def owner_trails(variant: str, case: dict[str, Any]) -> set[str]:
        return br.legal_moves(variant, case) | {f"{c} trail" for c in case["hand"]}

    tally = rp.run([("standard", 2, False)], range(1, 2), owner_trails)
    bad = rp.undeclared(br, tally.found)
    assert bad and all(not d.engine_says and d.move.endswith(" trail") for d in bad)
    assert all(any(b["owner"] == d.case["to_play"] for b in d.case["builds"]) for d in bad)


def test_a_reference_without_court_piles_is_caught() -> None:
    def no_piles(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in br.legal_moves(variant, case) if not any(f"build {r} on" in m for r in br.COURTS)}

    compared, found = compare_random(250, no_piles, ("face-builds",))
    bad = [f for f in found if rp.explained(br, f) is None]     # type: ignore[arg-type]
    assert bad and all(f.variant == "face-builds" and f.engine_says and " build " in f.move for f in bad)


def test_the_reference_refuses_a_variant_it_does_not_cover() -> None:
    with pytest.raises(ValueError):
        br.legal_moves("royal", {"hand": ["5S"]})

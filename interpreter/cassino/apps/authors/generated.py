"""House rules drawn at random: a bundled variant with a few of its settings overridden.

What no bundled file and no hand-written example tries is where combinations break (a Dominican
house rule with turns of several actions, African Casino won by the lowest total, two packs with
pile cards in play). ``benchmarks/soak.py --generated`` plays such rules through every consumer,
and ``tests/test_matrix.py`` draws them with Hypothesis from the same table::

    >>> import random
    >>> rule = draw(random.Random(3), ["standard"])
    >>> rule["extends"], 1 <= sum(len(v) for k, v in rule.items() if isinstance(v, dict)) <= 5
    ('standard', True)

A drawn rule may not validate (a hand size the deck cannot deal out, say): the caller loads it and
draws again (``valid``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Final, Sequence

import yaml

from ...errors import CassinoError
from ...language.variants import load

_ON_OFF: Final = (False, True)

#: Each setting a generated house rule may override (``schema/variant.schema.json``), with the values
#: drawn: every value of a choice, a range of numbers where a number is asked.
SETTINGS: Final[tuple[tuple[str, str, tuple[object, ...]], ...]] = (
    *(("capture", key, _ON_OFF) for key in ("sums", "several_groups", "equal_card_first", "take_all")),
    *(("build", key, _ON_OFF) for key in (
        "allowed", "multiple", "raise_single", "raise_own", "raise_partners", "raise_for_partner", "raise_with_table_cards",
        "add_sets",
        "one_per_value", "one_per_player", "single_build_as_card", "for_partner", "continue_as_begun",
        "keep_capturing_card", "owner_obligation_in_last_deal", "free_actions", "augment_opponents",
        "opponents_hand_only")),
    ("trail", "with_build", _ON_OFF),
    *(("sweeps", key, _ON_OFF) for key in ("cancel", "on_last_play", "residue_is_sweep", "in_last_deal",
                                           "record_when_restricted")),
    *(("deal", key, _ON_OFF) for key in ("draw_after_play", "dealer_takes_total")),
    *(("game", key, _ON_OFF) for key in ("play_out_hand", "claiming")),
    ("capture", "equal_cards", ("any", "all_when_pairing", "all")),
    ("capture", "compulsory", ("never", "equal_loose_card", "when_card_can_capture", "whenever_possible")),
    ("capture", "valueless_cards", ("one", "all", "any", "one_or_three_by_fourth")),
    ("capture", "total", (None, *range(10, 17))),
    ("capture", "hand_cards", tuple({"max": n, "combine": how} for n in (1, 2, 3) for how in ("total", "groups"))),
    # (African Casino's opposing pile cards, drawn into any variant.)
    ("capture", "from_piles", ("none", "opponents_top")),
    ("capture", "pile_cards", ("taken", "augment")),
    ("capture", "pile_reach", (1, 2, 3, 4)),
    ("capture", "pile_base", ("layout_or_played", "layout")),
    ("build", "owner_obligation", ("none", "no_trail", "capture_or_raise")),
    ("build", "raise_takes_in", ("none", "cards", "sets")),
    ("build", "max_value", (None, *range(1, 17))),
    ("build", "valueless", ("never", "always", "when_all_four")),
    ("scoring", "when", ("end_of_hand", "as_won")),
    ("game", "target", (None, *range(1, 61))),
    ("game", "score_mode", ("cumulative", "difference")),
    ("game", "goal", ("highest", "lowest")),
    ("game", "both_reach", ("higher_wins", "count_out", "next_target")),
    ("game", "lurch", tuple({"below": below, "multiplier": m} for below in (None, 5, 10, 20) for m in (1, 2, 3))),
    ("deal", "table_cards", tuple(range(0, 9))),
    ("deal", "hand_size", tuple(range(1, 9))),
    ("deal", "packet", (1, 2, 3, 4)),
    ("deal", "table_order", ("before_dealer", "after_players", "first", "after_hands")),
    ("deal", "redeal", ("when_hands_empty", "never")),
    ("seats", "direction", ("clockwise", "counterclockwise")),
    ("seats", "partnerships", ("never", "optional", "always")),
    ("deck", "packs", (1, 2)),
    # (Session 92: the game's end, the endgame's sweeps and the seats, drawn too; up to eight players and teams of
    # three, as the schema allows.)
    ("deal", "short_stock", ("exact", "split_rest_to_table")),
    ("game", "target_step", (1, 5, 11, 21)),
    ("game", "count_out_sweeps", ("difference", "more_wins")),
    ("endgame", "sweeps_from", (None, *range(1, 31))),
    ("endgame", "sweeps_from_side", ("own", "any")),
    ("endgame", "lifted_after_tie", _ON_OFF),
    ("seats", "min_players", tuple(range(2, 9))),
    ("seats", "max_players", tuple(range(2, 9))),
    ("seats", "team_size", (2, 3)),
    ("seats", "partnership_players", ([4], [6], [4, 6], [8], [6, 8])),
)

#: The most settings one drawn rule overrides.
MOST: Final = 5


def draw(rnd: random.Random, bases: Sequence[str]) -> dict[str, Any]:
    """A house rule as the data of its file: one of ``bases`` extended, 1 to ``MOST`` settings drawn."""
    base = rnd.choice(list(bases))
    data: dict[str, Any] = {"name": "generated", "description": f"{base} with generated settings", "extends": base}
    for section, key, values in rnd.sample(SETTINGS, rnd.randint(1, MOST)):
        data.setdefault(section, {})[key] = rnd.choice(values)
    return data


def write(data: dict[str, Any], path: Path) -> Path:
    """The rule's file (YAML), as a rule author would write it."""
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def valid(rnd: random.Random, bases: Sequence[str], folder: Path, number: int,
          tries: int = 200) -> tuple[Path, dict[str, Any]]:
    """The file (``folder/generated-NUMBER.yaml``) and data of a drawn rule that validates, drawing
    again while one does not; CassinoError when ``tries`` draws in a row do not."""
    path = folder / f"generated-{number}.yaml"
    for _ in range(tries):
        data = draw(rnd, bases)
        write(data, path)
        try:
            load(path)
        except CassinoError:
            continue
        return path, data
    raise CassinoError(f"no valid house rule in {tries} draws from {', '.join(bases)}")


def summary(data: dict[str, Any]) -> str:
    """The rule in one line: ``standard: build.free_actions=true, game.goal=lowest``."""
    changed = [f"{section}.{key}={json.dumps(value)}"
               for section, settings in data.items() if isinstance(settings, dict) for key, value in settings.items()]
    return f"{data['extends']}: {', '.join(changed)}"

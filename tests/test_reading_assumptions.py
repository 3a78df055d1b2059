"""A written reading (a variant file's ``readings:``) is said only while the settings its words assume keep the
file's values (``also``). An audit (session 99) changed, in a house rule, one setting each of 18 readings' words
rest on and found every one still printed, its words then false: Escoba's "every capture takes a 15" under a total
of 11, Finnish Kasino's "shares the 2 points, 1 each" with spades worth 4, Hoyle's count-out example at 21 under a
target of 31, and so on. Each case here is one of those house rules: the reading is dropped from its rulebook."""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.language.rulebook import file_readings
from cassino.language.variants import load_rules

#: (parent, the house rule's overrides as YAML, the reading's setting that no longer holds)
CASES = [
    ("escoba", "capture: {total: 11}", "sweeps.on_last_play"),
    ("escoba", "capture: {total: 14}", "deal.dealer_takes_total"),
    ("escoba", "scoring: {items: {setenta: {card_points: {'7': 10, '6': 18, A: 16, '5': 15, '4': 14, '3': 13, "
               "'2': 12, J: 21, Q: 10, K: 10}}}}", "scoring.items.setenta.count"),
    # (a rule author's Escoba of the most sevens: the setenta given no points, its readings still printed)
    ("escoba", "scoring: {items: {setenta: {points: 0}}}", "scoring.items.setenta.count"),
    ("escoba", "scoring: {items: {setenta: {points: 0}}}", "scoring.items.setenta.all_suits"),
    ("finnish-kasino", "scoring: {items: {spades: {points: 4}}}", "scoring.items.spades.ties"),
    ("finnish-kasino", "endgame: {sweeps_from_side: own}", "endgame.sweeps_from"),
    ("hoyle", "game: {target: 31}", "game.count_out_sweeps"),
    ("krypkasino", "deal: {hand_size: 6, packet: 3}", "deal.table_cards"),
    ("krypkasino", "deal: {hand_size: 6, packet: 3}", "deal.short_stock"),
    ("kasino-misar", "deal: {hand_size: 6, packet: 3}", "deal.short_stock"),
    ("kasino-misar", "deal: {hand_size: 6, packet: 3}", "deal.table_order"),
    ("royal", "build: {for_partner: true}", "scoring.items.sweeps.points"),
    ("scopone", "capture: {sums: false}", "capture.several_groups"),
    ("spade", "scoring: {when: end_of_hand}", "capture.valueless_cards"),
    ("swazi-casino", "build: {for_partner: false}", "build.keep_capturing_card"),
    ("swazi-casino", "build: {for_partner: false}", "build.free_actions"),
    ("south-african-casino", "build: {for_partner: false}", "build.free_actions"),
    ("swazi-casino", "scoring: {items: {spades: {ties: each}}}", "scoring.items.cards.ties"),
    ("hungarian-ulmann", "capture: {hand_cards: {max: 1, combine: total}}", "deal.packet"),
    ("face-builds", "sweeps: {on_last_play: false}", "sweeps.residue_is_sweep"),
]


@pytest.mark.parametrize("parent,overrides,setting", CASES, ids=lambda x: x if isinstance(x, str) and "{" not in x else "")
def test_a_reading_whose_assumed_setting_changed_is_not_said(tmp_path: Path, parent: str, overrides: str,
                                                             setting: str) -> None:
    assert setting in {s for s, _ in file_readings(load_rules(parent))}   # said in the bundled game
    house = tmp_path / "house.yaml"
    house.write_text(f"name: house\nextends: {parent}\n{overrides}\n", encoding="utf-8")
    assert setting not in {s for s, _ in file_readings(load_rules(str(house)))}

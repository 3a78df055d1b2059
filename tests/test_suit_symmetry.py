"""Hands played beside a twin with the suits renamed go the same way (``suit_symmetry``): every bundled variant
at every seating, the shipped house rules and house rules drawn at random. And the check can fail: where a
rule does turn on the suits (the African games stack a capture's cards in the suits' order), a renaming
parts the twins.

The slice is seeds 1-3 of every seating (some 10,000 positions, seconds); ``benchmarks/suit_symmetry.py``
runs as many seeds and drawn rules as asked.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cassino.apps.authors import generated
from cassino.apps.authors.matrix import seatings
from cassino.language.variants import bundled_names, load_rules

import suit_symmetry as sym

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SEEDS = range(1, 4)


@pytest.fixture(scope="module")
def reader() -> sym.Reader:
    return sym.Reader()


def _seatings(names: list[str]) -> list[tuple[str, int, bool]]:
    return [(Path(s.variant).name, s.players, s.partners) for s in seatings(names)]


@pytest.mark.parametrize("variant", bundled_names())
def test_every_seating_of_a_bundled_variant_plays_the_same_with_its_suits_renamed(variant: str,
                                                                                 reader: sym.Reader) -> None:
    tally = sym.run(_seatings([variant]), SEEDS, reader)
    assert not tally.found, "\n".join(map(str, tally.found))
    if sym.renamings(load_rules(variant)):
        assert tally.hands == len(_seatings([variant])) * len(SEEDS) and tally.positions > 20 * tally.hands
    else:   # (the African games: no renaming keeps their piles' order)
        assert tally.hands == 0 and tally.skipped == len(_seatings([variant])) * len(SEEDS)


def test_the_shipped_house_rules_play_the_same_with_their_suits_renamed(reader: sym.Reader) -> None:
    files = sorted(EXAMPLES.glob("*.yaml"))
    tally = sym.run(_seatings([str(f) for f in files]), range(1, 3), reader, EXAMPLES)
    assert not tally.found, "\n".join(map(str, tally.found))
    assert tally.hands > 100


def test_house_rules_drawn_at_random_play_the_same_with_their_suits_renamed(reader: sym.Reader,
                                                                           tmp_path: Path) -> None:
    rnd = random.Random(87)
    tally = sym.Tally()
    for k in range(12):
        path, data = generated.valid(rnd, bundled_names(), tmp_path, k)
        before = len(tally.found)
        sym.run(_seatings([str(path)]), range(k, k + 1), reader, tmp_path, tally)
        assert len(tally.found) == before, f"{generated.summary(data)}: " + "\n".join(map(str, tally.found[before:]))
    assert tally.hands >= 30


def test_the_check_parts_twins_where_a_rule_turns_on_the_suits(reader: sym.Reader) -> None:
    # South African Casino stacks a capture's cards under the capturing card in the suits' order (its
    # `capture.from_piles` reading), so which card an opponent may reach depends on the suits: a renaming
    # makes another pile top, and the twins part.
    tally = sym.Tally()
    for seed in range(1, 6):
        sym.twin_hand(reader, "south-african-casino", 2, False, seed, tally,
                      suits={"S": "H", "H": "D", "D": "C", "C": "S"})
    assert tally.found and all(d.variant == "south-african-casino" for d in tally.found)
    assert any("in the twin only" in d.what for d in tally.found)


def test_only_renamings_that_keep_each_cards_values_are_drawn() -> None:
    standard = sym.renamings(load_rules("standard"))
    assert len(standard) == 23 and all(sorted(r) == sorted(r.values()) == ["C", "D", "H", "S"] for r in standard)
    # Finnish Kasino values the four aces alike, and the 2S and 10D each on its own: hearts and clubs swap.
    assert sym.renamings(load_rules("finnish-kasino")) == [{"S": "S", "H": "C", "D": "D", "C": "H"}]
    assert sym.renamings(load_rules("south-african-casino")) == []


def test_a_move_is_renamed_card_by_card_and_written_in_one_order() -> None:
    suits = {"S": "H", "H": "S", "D": "D", "C": "C"}
    assert sym.rename_move("10S+2H capture [3S 4H] AS", suits) == sym.canonical("10H+2S capture [3H 4S] AH")
    assert sym.rename_move("JS build J on JH", suits) == sym.canonical("JH build J on JS")
    assert sym.rename_move("end", suits) == sym.canonical("end")

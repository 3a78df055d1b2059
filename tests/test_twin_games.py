"""Hands played beside a twin, the suits renamed or the seats moved round the table, go the same way
(``twin_games``): every bundled variant at every seating, the shipped house rules and house rules drawn at
random. And the check can fail: where a rule does turn on the suits (the African games stack a capture's
cards in the suits' order), a renaming parts the twins; a twin whose seats are mapped wrong parts too.

A third twin is of single positions: a turn's start with two builds or more, its builds listed in other orders.
The slice is seeds 1-2 of every bundled seating (seed 1 of the shipped house rules) with the suits renamed, the
seats moved or the builds reordered (some 20,000 positions, seconds); ``benchmarks/twin_games.py`` runs as many
seeds and drawn rules as asked.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cassino.apps.authors import generated
from cassino.apps.authors.matrix import seatings
from cassino.language.variants import bundled_names, load_rules

import twin_games as sym

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SEEDS = range(1, 3)


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


@pytest.mark.parametrize("variant", bundled_names())
def test_every_seating_of_a_bundled_variant_plays_the_same_with_its_seats_moved_round(variant: str,
                                                                                     reader: sym.Reader) -> None:
    tally = sym.run(_seatings([variant]), range(1, 3), reader, kind="seats")
    assert not tally.found, "\n".join(map(str, tally.found))
    assert tally.hands == len(_seatings([variant])) * 2 and tally.positions > 20 * tally.hands


def test_builds_listed_in_another_order_list_the_same_moves(reader: sym.Reader) -> None:
    tally = sym.run(_seatings(bundled_names()), range(1, 3), reader, kind="builds")
    assert not tally.found, "\n".join(map(str, tally.found))
    assert tally.positions > 300 and tally.moves > 5000


@pytest.mark.parametrize("kind", sym.KINDS)
def test_the_shipped_house_rules_play_the_same_in_their_twins(kind: str, reader: sym.Reader) -> None:
    files = sorted(EXAMPLES.glob("*.yaml"))
    tally = sym.run(_seatings([str(f) for f in files]), range(1, 2), reader, EXAMPLES, kind=kind)
    assert not tally.found, "\n".join(map(str, tally.found))
    assert tally.hands > 60


@pytest.mark.parametrize("kind", sym.KINDS)
def test_house_rules_drawn_at_random_play_the_same_in_their_twins(kind: str, reader: sym.Reader,
                                                                  tmp_path: Path) -> None:
    rnd = random.Random(87)
    tally = sym.Tally()
    for k in range(12):
        path, data = generated.valid(rnd, bundled_names(), tmp_path, k)
        before = len(tally.found)
        sym.run(_seatings([str(path)]), range(k, k + 1), reader, tmp_path, tally, kind)
        assert len(tally.found) == before, f"{generated.summary(data)}: " + "\n".join(map(str, tally.found[before:]))
    assert tally.hands >= 30


def test_a_twin_whose_seats_are_mapped_wrong_is_told_apart(reader: sym.Reader,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The position moved one seat on, but its seats read as if moved two: the seat to play differs at once.
    monkeypatch.setattr(sym, "rotated", lambda shift, players: sym.Twin(
        "seats +1 read as +2", lambda case: sym.rotate_case(case, 1), sym.canonical,
        lambda seat: (seat + 2) % players, True))
    tally = sym.run([("standard", 3, False)], range(1, 3), reader, kind="seats")
    assert len(tally.found) == 2 and all("seat to play" in d.what for d in tally.found)


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


def test_a_case_moved_round_the_table_keeps_every_card_where_it_was() -> None:
    case = {"players": 4, "partners": True, "to_play": 3, "dealer": 2, "hand": ["AS"], "hands": {0: ["2S"]},
            "table": ["3S"], "builds": [{"cards": ["4S", "5S"], "value": 9, "owner": 1, "holder": 3}],
            "captured": {2: ["6S"]}, "stock": [], "first_play": False, "last_capture": 0}
    moved = sym.rotate_case(case, 3)
    assert (moved["to_play"], moved["dealer"], moved["hands"], moved["captured"], moved["last_capture"]) == \
        (2, 1, {3: ["2S"]}, {1: ["6S"]}, 3)
    assert moved["builds"] == [{"cards": ["4S", "5S"], "value": 9, "owner": 0, "holder": 2}]
    assert (moved["hand"], moved["table"]) == (["AS"], ["3S"]) and case["to_play"] == 3


def test_a_move_is_renamed_card_by_card_and_written_in_one_order() -> None:
    suits = {"S": "H", "H": "S", "D": "D", "C": "C"}
    assert sym.rename_move("10S+2H capture [3S 4H] AS", suits) == sym.canonical("10H+2S capture [3H 4S] AH")
    assert sym.rename_move("JS build J on JH", suits) == sym.canonical("JH build J on JS")
    assert sym.rename_move("end", suits) == sym.canonical("end")

"""`capture.pile_reach` and `capture.pile_base` (issue 49, 3 and 5): how deep into an opposing pile one move
reaches, and whether the played card alone is a base for a pile card. Both are settings a house rule may change;
the bundled files declare their choice as a reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.engine.notation import parse_move
from cassino.language.rulebook import rulebook
from cassino.language.variants import load, load_rules

from conftest import position_at, validate_refuses

AFRICAN = ("swazi-casino", "south-african-casino")
#: Five cards of the opponent's pile, the ace on top: a 10 takes them one a set, each beside a spade.
TABLE = ["10S", "9S", "8S", "7S", "6S", "5S"]
PILE = {1: ["5C", "4C", "3C", "2C", "AC"]}
FOUR_DEEP = "10C capture 10S 9S AC 8S 2C 7S 3C 6S 4C"
FIVE_DEEP = FOUR_DEEP + " 5S 5C"


def house(tmp_path: Path, parent: str, body: str) -> str:
    path = tmp_path / f"{parent}-{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text(f"name: house\nextends: {parent}\n{body}", encoding="utf-8")
    return str(path)


def legal(name: str, hand: list[str], table: list[str], move: str, **position: object) -> bool:
    engine, state = position_at(name, {0: hand, 1: ["8H"]}, table, **position)  # type: ignore[arg-type]
    return engine.is_legal(state, parse_move(move, engine.deck))


@pytest.mark.parametrize("name", AFRICAN)
def test_the_bundled_files_reach_four_cards_and_declare_it(name: str) -> None:
    loaded = load(name)
    assert loaded.rules.capture.pile_reach == 4
    assert any(r["setting"] == "capture.pile_reach" for r in loaded.resolved.data["readings"])
    assert legal(name, ["10C", "2D"], TABLE, FOUR_DEEP, captured=PILE)
    assert not legal(name, ["10C", "2D"], TABLE, FIVE_DEEP, captured=PILE)


@pytest.mark.parametrize("name", AFRICAN)
def test_a_house_rule_reaches_deeper_or_only_the_top(name: str, tmp_path: Path) -> None:
    five = house(tmp_path, name, "capture:\n  pile_reach: 5\n")
    assert legal(five, ["10C", "2D"], TABLE, FIVE_DEEP, captured=PILE)
    top = house(tmp_path, name, "capture:\n  pile_reach: 1\n")
    assert not legal(top, ["10C", "2D"], TABLE, "10C capture 10S 9S AC 8S 2C", captured=PILE)
    assert legal(top, ["10C", "2D"], TABLE, "10C capture 10S 9S AC", captured=PILE)
    words = {k: c.text for k, c in rulebook(load_rules(top)).clauses().items()}["capture.pile_cards"]
    # (from the turn's next action, where a turn holds several: an African house rule's audit read "a later turn"
    # beside a second build of the same turn using it)
    later = "action" if load_rules(top).build.free_actions else "turn"
    assert f"in play only in a later {later}" in words and "up to" not in words
    words = {k: c.text for k, c in rulebook(load_rules(five)).clauses().items()}["capture.pile_cards"]
    assert "up to five cards of a pile" in words


# Both bundled files read [Kh]'s "The card must be built on the floor first" (Swazi took the played card as
# a base until an audit's second reading of the document); a house rule turns the other reading on.
@pytest.mark.parametrize("name, played_base", [("swazi-casino", False), ("south-african-casino", False)])
def test_the_played_card_as_a_base(name: str, played_base: bool, tmp_path: Path) -> None:
    assert (load_rules(name).capture.pile_base == "layout_or_played") == played_base
    # 9S played to a 9 of the opponent's pile, 9H kept to take the build.
    assert legal(name, ["9S", "9H"], ["3C"], "9S build 9 on 9D", captured={1: ["9D"]}) == played_base
    # A floor card with the played card is a base under either reading ([Kh] 'a 7 on the floor ... add a 3').
    assert legal(name, ["3S", "10H"], ["7C"], "3S build 10 on 7C 10D", captured={1: ["10D"]})
    other = "layout" if played_base else "layout_or_played"
    flipped = house(tmp_path, name, f"capture:\n  pile_base: {other}\n")
    assert legal(flipped, ["9S", "9H"], ["3C"], "9S build 9 on 9D", captured={1: ["9D"]}) != played_base


@pytest.mark.parametrize("body, words", [
    ("capture:\n  pile_reach: 0\n", "pile_reach"),
    ("capture:\n  pile_reach: 13\n", "pile_reach"),
    ("capture:\n  pile_reach: four\n", "pile_reach"),
    ("capture:\n  pile_reach: 2.5\n", "pile_reach"),
    ("capture:\n  pile_reach: [4]\n", "pile_reach"),
    ("capture:\n  pile_base: hand\n", "must be one of layout_or_played, layout"),
    ("capture:\n  pile_base: true\n", "pile_base"),
    ("capture:\n  pile_bas: layout\n", "did you mean `pile_base`"),
])
def test_bad_values_are_refused_at_their_line(cli, tmp_path: Path, body: str, words: str) -> None:  # type: ignore[no-untyped-def]
    said = validate_refuses(cli, tmp_path, body, "swazi-casino", words)
    assert "house.yaml:4:" in said, said

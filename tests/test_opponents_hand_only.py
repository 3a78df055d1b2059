"""`build.opponents_hand_only` (001, Taking In: "An opponent's build may be increased by cards from the hand
only"): another side's build is raised by the hand card alone and added to by a hand card by itself, while
one's own and a partner's builds still take table cards in. An audit reading 001 found hoyle letting a raise
of an opponent's build take a loose card in, and a set of a hand card and a table card join it. Every
consumer reads it: the listing (and the lazy walk over large tables), the reason for a refusal, the rulebook
and its worked example, the in-game `how`, `diff`, the tutorial."""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.apps.game.howto import how_to_play
from cassino.apps.learning.tutorial import Tutorial
from cassino.engine.choices import MoveChoices
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.notation import format_move, parse_move
from cassino.language.rulebook import rulebook
from cassino.language.variants import load_rules

from conftest import every_lesson

OFF = "name: hoyle-table-cards\ndescription: hoyle, table cards into any build\nextends: hoyle\nbuild:\n  opponents_hand_only: false\n"


def _state(engine: Engine, hand: list[str], table: list[str], builds: list[tuple[list[str], int, int]],
           players: int = 2, partners: bool = False, others: dict[int, list[str]] | None = None) -> object:
    d = engine.deck
    hands = {0: [d.parse(c) for c in hand]}
    for seat, cards in (others or {}).items():
        hands[seat] = [d.parse(c) for c in cards]
    return engine.position(Position(players=players, partners=partners, to_play=0, hands=hands,
                                    table=[d.parse(c) for c in table],
                                    builds=[([d.parse(c) for c in cards], v, owner) for cards, v, owner in builds]))


CASES = [
    # (hand, table, builds, move, legal in hoyle, legal with the setting off)
    (["2C", "9C"], ["9D"], [(["3S", "4H"], 7, 1)], "2C build 9 on [3S 4H]", True, True),
    (["2C", "9C"], ["9D"], [(["3S", "4H"], 7, 1)], "2C build 9 on [3S 4H] 9D", False, True),
    (["4H", "9S"], ["5S"], [(["5C", "4D"], 9, 1)], "4H build 9 on [5C 4D] 5S", False, True),
    (["9H", "9S"], ["5S", "4S"], [(["5C", "4D"], 9, 1)], "9H build 9 on [5C 4D]", True, True),
    (["9H", "9S"], ["5S", "4S"], [(["5C", "4D"], 9, 1)], "9H build 9 on [5C 4D] 5S 4S", False, True),
    # one's own build: table cards still go in (001's "Two Nines": a 5 on the table and a 4 from the hand)
    (["4H", "9S"], ["5S"], [(["5C", "4D"], 9, 0)], "4H build 9 on [5C 4D] 5S", True, True),
    (["2C", "9C"], ["9D"], [(["3S", "4H"], 7, 0)], "2C build 9 on [3S 4H] 9D", True, True),
]


@pytest.mark.parametrize("hand, table, builds, move, here, off", CASES, ids=[c[3] + f" owner {c[2][0][2]}" for c in CASES])
def test_another_sides_build_takes_the_hand_card_alone(tmp_path: Path, hand: list[str], table: list[str],
                                                     builds: list[tuple[list[str], int, int]], move: str,
                                                     here: bool, off: bool) -> None:
    house = tmp_path / "off.yaml"
    house.write_text(OFF, encoding="utf-8")
    for rules, expected in ((load_rules("hoyle"), here), (load_rules(str(house)), off)):
        engine = Engine(rules)
        state = _state(engine, hand, table, builds)
        m = parse_move(move, engine.deck)
        listed = engine.legal_moves(state)
        assert (m in listed) == expected, (rules.name, move)
        assert engine.is_legal(state, m) == expected
        # the lazy walk (large tables, the players' step-by-step choice) offers the same moves
        walk = MoveChoices(engine.tables, state)
        assert walk.allows(m) == expected
        assert sorted(format_move(x, engine.deck) for x in walk.sample(10_000)) == \
            sorted(format_move(x, engine.deck) for x in listed)
        if not expected:
            assert "another side's build" in engine.why_illegal(state, m)


def test_a_partners_build_still_takes_table_cards() -> None:
    engine = Engine(load_rules("hoyle"))
    state = _state(engine, ["4H", "9S"], ["5S"], [(["5C", "4D"], 9, 2)], players=4, partners=True,
                   others={1: ["KS"], 2: ["9D"], 3: ["KH"]})
    assert engine.is_legal(state, parse_move("4H build 9 on [5C 4D] 5S", engine.deck))
    opponent = _state(engine, ["4H", "9S"], ["5S"], [(["5C", "4D"], 9, 1)], players=4, partners=True,
                      others={1: ["9D"], 2: ["KS"], 3: ["KH"]})
    assert not engine.is_legal(opponent, parse_move("4H build 9 on [5C 4D] 5S", engine.deck))


def test_every_consumer_says_it() -> None:
    rules = load_rules("hoyle")
    book = " ".join(" ".join(c.text.split()) for s in rulebook(rules).sections for c in s.clauses)
    assert "A build another side owns grows by the card from your hand alone" in book
    assert "another side's build grows by your hand card alone" in how_to_play(rules)
    standard = " ".join(" ".join(c.text.split()) for s in rulebook(load_rules("standard")).sections for c in s.clauses)
    assert "grows by the card from your hand alone" not in standard


def test_diff_finds_a_position_where_it_matters(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("diff", "standard", "hoyle")
    assert code == 0, err
    block = out[out.index("build.opponents_hand_only"):]
    block = block[:block.index("\n\n")]
    assert "Only standard allows:" in block and "Only hoyle allows: none" in block


def test_the_tutorial_says_it_when_a_player_raises_another_sides_build() -> None:
    rules = load_rules("hoyle")
    game = Game.new(rules, 1, 2)
    engine = game.engine
    hand = _state(engine, ["2C", "9C"], ["9D"], [(["3S", "4H"], 7, 1)], others={1: ["KS"]})
    before = game.with_(hand=hand)
    move = parse_move("2C build 9 on [3S 4H]", engine.deck)
    _, lessons = every_lesson(Tutorial.for_rules(rules), before, move, before.play(move))
    assert any(lesson.key == "build.opponents_hand_only" for lesson in lessons), [l.key for l in lessons]


COURT = """name: court-hand-only
description: standard with two packs and court builds, another side's build by the hand card alone
extends: standard
deck:
  packs: 2
deal:
  short_stock: split_rest_to_table
build:
  valueless: always
  opponents_hand_only: true
"""

COURT_CASES = """variant: court.yaml
cases:
  - name: a jack onto another side's jack build takes no loose jack with it
    builds: [{cards: [JS, JC], value: J, owner: 1}]
    table: [JD]
    hand: [JH, JH]
    expect:
      legal: ["JH build J on [JS JC]"]
      illegal: [{move: "JH build J on [JS JC] JD", reason: "another side's build"}]
  - name: one's own jack build takes the loose jack
    builds: [{cards: [JS, JC], value: J, owner: 0}]
    table: [JD]
    hand: [JH, JH]
    expect:
      legal: ["JH build J on [JS JC] JD"]
"""


def test_court_card_builds_too(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Builds of court cards piled by rank (`build.valueless`) are listed apart from number builds: a loose
    jack went onto another side's jack build until the re-reading of this setting's first day."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "court.yaml").write_text(COURT, encoding="utf-8")
    (tmp_path / "cases.yaml").write_text(COURT_CASES, encoding="utf-8")
    code, out, err = cli("check", "cases.yaml")
    assert code == 0, out + err
    assert out.strip().splitlines()[-1] == "2 passed, 0 failed"


ONE_A_VALUE = "name: hoyle-one-a-value\ndescription: hoyle, one build a value\nextends: hoyle\nbuild:\n  one_per_value: true\n"


@pytest.mark.parametrize("owners, move", [
    ((0, 1), "2C build 9 on [3S 4H] [5D 4C]"),   # one's own 7 raised and joined with another side's 9
    ((1, 0), "2C build 9 on [3S 4H] [5D 4C]"),   # another side's 7 raised and joined with one's own 9
])
def test_no_join_brings_table_cards_into_another_sides_build(tmp_path: Path, owners: tuple[int, int], move: str) -> None:
    """Under `build.one_per_value` a build raised to a value already built joins that build: a re-attack found one's
    own raised build (table cards and the hand card) joining another side's build of 9."""
    house = tmp_path / "one.yaml"
    house.write_text(ONE_A_VALUE, encoding="utf-8")
    engine = Engine(load_rules(str(house)))
    state = _state(engine, ["2C", "9S", "7C"], [], [(["3S", "4H"], 7, owners[0]), (["5D", "4C"], 9, owners[1])])
    m = parse_move(move, engine.deck)
    assert not engine.is_legal(state, m)
    assert not MoveChoices(engine.tables, state).allows(m)
    assert "another side's build" in engine.why_illegal(state, m)
    both_mine = _state(engine, ["2C", "9S", "7C"], [], [(["3S", "4H"], 7, 0), (["5D", "4C"], 9, 0)])
    assert engine.is_legal(both_mine, m)

"""Readings a players' audit found missing, and the house rule it asked for.

- Scopone's deal (nine each and four to the table) is a reading that names the ten-card deal of pagat.com's text
  and ludopoli.us's Scopone scientifico; its target reading no longer says a target of 21 alone plays ludopoli's
  scientifico; examples/scopone-scientifico.yaml deals ten each and none to the table, to 21.
- Escoba's target of 15 is a reading that names the sources playing to 21.
- hungarian-ulmann says why Ulmann's third rule (the cut card seen) is not played.
- swedish-kasino says it follows pagat in giving only the ace two values, leaving out the Wikipedia copies'
  2♠ 15 and 10♦ 16.
Each reading is checked as the rulebook (`cassino rules`) prints it, through the command line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cassino import Game, load_rules
from cassino.engine.notation import cards_text

from conftest import ROOT

SCIENTIFICO = ROOT / "examples" / "scopone-scientifico.yaml"


def _book(cli, name: str) -> str:  # type: ignore[no-untyped-def]
    code, out, err = cli("rules", name, "--no-examples")
    assert code == 0, err
    return " ".join(out.split())


@pytest.mark.parametrize("variant, phrase", [
    ("scopone", "Reading: Each player is dealt nine cards and four go face up to the table"),
    ("scopone", "pagat.com's Scopone text and ludopoli.us's Scopone scientifico deal ten cards to each player and "
                "none to the table"),
    ("scopone", "ludopoli.us plays its Scopone scientifico to 21, a game that also deals ten cards to each player"),
    ("escoba", "Reading: The game is played to 15 points, as studylib.es's Escoba de quince"),
    ("escoba", "The current Wikipedia article, playingcards.io and gamerules.com play to 21"),
    ("hungarian-ulmann", "Reading: Ulmann's third rule, the non-dealer looking at the cut card"),
    ("swedish-kasino", "Reading: This file follows pagat.com's Swedish section"),
    ("swedish-kasino", "this file leaves those house values out"),
    ("swedish-kasino", "Finnish Kasino (finnish-kasino) plays the 2♠ as 15 and the 10♦ as 16 from the hand"),
])
def test_the_rulebook_prints_the_new_reading(cli, variant: str, phrase: str) -> None:  # type: ignore[no-untyped-def]
    assert phrase in _book(cli, variant)


def test_scopones_target_reading_no_longer_says_a_target_alone_plays_scientifico(cli) -> None:  # type: ignore[no-untyped-def]
    book = _book(cli, "scopone")
    assert "sets `game.target` to 21 plays that" not in book
    assert "a house rule that sets only `game.target` to 21 keeps this file's deal of nine each and four to the " \
           "table" in book


def test_the_ulmann_reading_is_said_by_explain_too(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("explain", "hungarian-ulmann")
    assert code == 0
    assert "Reading: Ulmann's third rule, the non-dealer looking at the cut card" in out


def test_the_readings_keep_the_settings_they_read() -> None:
    """Readings only: the bundled variants' deals and targets are what they were."""
    scopone = load_rules("scopone")
    assert (scopone.deal.hand_size, scopone.deal.table_cards, scopone.game.target) == (9, 4, 11)
    assert load_rules("escoba").game.target == 15
    game = Game.new(scopone, 3, 4, partners=True)
    deck = game.engine.deck
    assert [len(cards_text(deck, h)) for h in game.hand.hands] == [9, 9, 9, 9]
    assert len(cards_text(deck, game.hand.table)) == 4


def test_the_scientifico_example_validates_and_is_listed(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("validate", "--strict", str(SCIENTIFICO))
    assert code == 0, out + err
    code, out, _ = cli("list")
    assert code == 0
    assert any(line.split()[:1] == ["scopone-scientifico"] for line in out.splitlines())


def test_the_scientifico_example_deals_ten_each_and_none_to_the_table() -> None:
    rules = load_rules(str(SCIENTIFICO))
    assert (rules.deal.hand_size, rules.deal.table_cards, rules.game.target) == (10, 0, 21)
    for seed in (1, 3, 7):
        game = Game.new(rules, seed, 4, partners=True)
        deck = game.engine.deck
        hands = [cards_text(deck, h) for h in game.hand.hands]
        assert [len(h) for h in hands] == [10, 10, 10, 10]
        assert len({card for h in hands for card in h}) == 40     # the whole pack, once
        assert cards_text(deck, game.hand.table) == []
        assert cards_text(deck, game.hand.stock) == []
        assert game.target == 21 and len(game.scores) == 2        # two partnerships


def test_the_scientifico_rulebook_reads_right(cli) -> None:  # type: ignore[no-untyped-def]
    book = _book(cli, str(SCIENTIFICO))
    assert "CHANGED: The dealer gives each player 10 cards." in book
    assert "CHANGED: No cards go to the table at the start of a hand." in book
    assert "A side with 21 points or more once a hand's points are added wins the game." in book
    assert "Reading: The game is played to 21 points, as ludopoli.us's Scopone scientifico sets it" in book
    assert "CHANGED: A sweep made with the last card of the hand counts." in book
    assert "(\"at least according to some players\")" in book
    # Scopone's readings of the nine-card deal and of the table's four are not said of this game.
    assert "REMOVED from scopone: Reading: Each player is dealt nine cards" in book
    assert book.count("Reading: Each player is dealt nine cards") == 1
    assert "REMOVED from scopone: Reading: The table's four cards are dealt after" in book
    # Scopone's reading of its sets still holds, unmarked.
    assert "- Reading: Where a card could take one of several sets adding up to it" in book


def test_a_whole_computer_game_of_scientifico_finishes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "g.json"
    code, out, err = cli("play", str(SCIENTIFICO), "--players", "4", "--partners", "--humans", "0",
                         "--bot", "greedy", "--seed", "3", "--save", str(save))
    assert code == 0, err
    assert "game over" in out
    final = next(line for line in out.splitlines() if line.startswith("final scores"))
    assert "seats 0+2" in final and "seats 1+3" in final
    assert max(int(points) for points in re.findall(r": (\d+)", final)) >= 21


def test_a_whole_game_of_scientifico_through_the_api() -> None:
    game = Game.new(load_rules(str(SCIENTIFICO)), 5, 4, partners=True)
    moves = 0
    while not game.over:
        game = game.play(game.legal_moves()[0])
        moves += 1
        assert moves < 5000
    assert game.winner in (0, 1) and game.scores[game.winner] >= 21
    assert all(result is not None for result in game.results) and len(game.results) >= 1

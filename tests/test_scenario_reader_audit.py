"""What a reader of docs/scenarios.md alone found `cassino check` doing otherwise than the document says (session
91: an outside author wrote 121 cases in 14 files from the document and the rulebooks, and its hostile files), each
now as the document says: a faulty file exits 2 at its place, a failed case exits 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def _check(cli: Any, tmp_path: Path, body: str) -> tuple[int, str]:
    path = tmp_path / "s.yaml"
    path.write_text(body, encoding="utf-8")
    code, out, err = cli("check", str(path))
    assert "Traceback" not in out + err
    return code, out + err


@pytest.mark.parametrize("where", ["moves", "illegal", "legal", "exactly"])
def test_a_build_value_past_thirty_digits_in_a_move_makes_the_file_faulty(cli: Any, tmp_path: Path,
                                                                           where: str) -> None:
    """"no number longer than 30 digits (a build's value in a move too)": it was a failed case, exit 1."""
    move = "3D build 1000000000000000000000000000001 on 5S"
    ask = (f"    moves: [\"{move}\"]\n    expect: {{to_play: 1}}\n" if where == "moves"
           else f"    expect:\n      {where}: [\"{move}\"]\n")
    code, text = _check(cli, tmp_path, f"variant: standard\ncases:\n  - name: a\n    table: [5S]\n"
                                       f"    hand: [3D, 8C]\n    hands: {{1: [2C, 4C]}}\n{ask}")
    assert code == 2, text
    assert "s.yaml:" in text and "a build's value of 31 digits: a number in a file has at most 30 digits" in text


@pytest.mark.parametrize("expect", ["{winner: 0, game_over: true}", "{legal: [\"5D trail\"]}", "{to_play: 0}"])
def test_a_hand_in_play_whose_piles_already_reach_the_target_is_refused_whatever_is_asked(
        cli: Any, tmp_path: Path, expect: str) -> None:
    """Spade: 59 before the hand and an ace pegged is 61, before any move. It passed with no moves, failed a `legal`
    expectation, and was refused only with moves; the document says such a position is refused."""
    code, text = _check(cli, tmp_path, "variant: spade\ncases:\n  - name: a\n    scores: {0: 59}\n"
                                       f"    captured: {{0: [AS]}}\n    hand: [5D]\n    hands: {{1: [6D]}}\n"
                                       f"    expect: {expect}\n")
    assert code == 2, text
    assert "s.yaml:5: case 'a': the cards in `captured`, pegged on top of `scores`, already take seat 0 to the " \
           "target (61): the position comes after the end of the game" in text


def test_a_finished_hand_that_reaches_the_target_is_still_scored(cli: Any, tmp_path: Path) -> None:
    code, text = _check(cli, tmp_path, "variant: spade\ncases:\n  - name: a\n    scores: {0: 52, 1: 40}\n"
                                       "    captured: {0: [AS, AH, AD, AC, 10D, 2S], 1: rest}\n"
                                       "    expect: {winner: 0}\n")
    assert code == 0, text


def test_moves_that_deal_from_a_stock_of_no_whole_deal_make_the_file_faulty(cli: Any, tmp_path: Path) -> None:
    """Standard's two players and a stock of three, played into the next deal: one card each was dealt and the
    third never was, nor counted. A stock no move deals from (a card that says the last deal is to come) is fine."""
    case = ("variant: standard\ncases:\n  - name: a\n    hand: [5H]\n    hands: {1: [6H]}\n"
            "    stock: [2C, 3C, 4C]\n    captured: {0: rest}\n")
    code, text = _check(cli, tmp_path, case + "    moves: [\"5H trail\", \"6H trail\"]\n"
                                              "    expect: {hand_over: false}\n")
    assert code == 2, text
    assert ("s.yaml:6: case 'a': impossible stock: the moves deal from it, and 3 cards cannot be dealt out: each "
            "deal gives 4 cards to each of the 2 players, so a stock holds a multiple of 8") in text
    assert "give 0 or 8 cards to the stock" in text
    code, text = _check(cli, tmp_path, case + "    expect:\n      legal: [\"5H trail\"]\n")
    assert code == 0, text
    code, text = _check(cli, tmp_path, case.replace("[2C, 3C, 4C]", "[2C, 3C, 4C, 7C, 8C, 9C, 10C, JC]")
                        + "    moves: [\"5H trail\", \"6H trail\"]\n    expect: {hand_over: false}\n")
    assert code == 0, text


def test_the_captured_expectation_reads_an_african_pile_in_its_order(cli: Any, tmp_path: Path) -> None:
    """"each listed seat's pile, exactly": in African Casino a pile's order is part of it, as a position gives it
    (last on top); any order passed."""
    case = ("variant: south-african-casino\ncases:\n  - name: a\n    table: [9S, 7H, 4D]\n    hand: [9H, 3C]\n"
            "    hands: {1: [6H, 8H]}\n    captured: {1: [2C, 5S]}\n    moves: [\"9H capture 4D 5S 9S\"]\n")
    code, text = _check(cli, tmp_path, case + "    expect: {captured: {0: [5S, 9S, 4D, 9H]}}\n")
    assert code == 0, text
    code, text = _check(cli, tmp_path, case + "    expect: {captured: {0: [9H, 4D, 9S, 5S]}}\n")
    assert code == 1, text
    assert ("captured[0]: the cards are those, but a pile's order is its own (last on top): expected 9H 4D 9S 5S, "
            "found 5S 9S 4D 9H") in text
    code, text = _check(cli, tmp_path, "variant: standard\ncases:\n  - name: a\n    table: [9S]\n    hand: [9H]\n"
                                       "    hands: {1: [2C]}\n    moves: [\"9H capture 9S\"]\n"
                                       "    expect: {captured: {0: [9S, 9H]}}\n")
    assert code == 0, text   # (where no pile is in play, a pile is its cards)


@pytest.mark.parametrize("body", ["", "# only a comment\n"])
def test_an_empty_file_is_said_at_line_0(cli: Any, tmp_path: Path, body: str) -> None:
    """"`FILE:0:` where the trouble is the whole file": an empty file was said at line 1."""
    code, text = _check(cli, tmp_path, body)
    assert code == 2 and "s.yaml:0: the file is empty: a scenario file is a mapping with `variant` and `cases`" in text


@pytest.mark.parametrize("expect, line, column", [
    ("table: [4D, 5H, 2X]", 9, 23), ("stock: [2X]", 9, 15), ("hands: {1: [3C, 2X]}", 9, 23),
    ("builds: [{cards: [4D, 2X], value: 6}]", 9, 29)])
def test_an_unknown_card_in_an_expectation_is_said_at_the_card(cli: Any, tmp_path: Path, expect: str, line: int,
                                                               column: int) -> None:
    """A validation audit: `table: [4D, 5H, 2X]` was pointed at the list's `[`, where docs/scenarios.md says a place
    is the card's own."""
    code, text = _check(cli, tmp_path, "variant: standard\ncases:\n  - name: a\n    table: [4D, 5H]\n"
                                       "    hand: [9D, 2C]\n    hands: {1: [3C]}\n    moves: [\"2C trail\"]\n"
                                       f"    expect:\n      {expect}\n")
    assert code == 1, text
    assert f"s.yaml:{line}:{column}: " in text and "'2X': no suit X in this deck" in text, text

"""The rulebook changes wherever the play does (``tests/book_follows.py``): over house rules drawn at random, a
setting whose removal leaves the rulebook word for word the same must leave every move and score the same.
Hypothesis draws the seeds (a modest number in CI; ``HYPOTHESIS_PROFILE=thorough`` or
``benchmarks/book_follows_play.py --seeds 3000`` for many); the finds of the long runs are pinned below."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.apps.cli import main
from cassino.language.catalogue import bundled_names

from book_follows import checks


@settings(deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_a_setting_the_book_does_not_word_changes_no_play(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        silent = [(outcome, found) for outcome, found in checks(seed, bundled_names(), 40, Path(folder))
                  if outcome not in ("said", "idle", "invalid")]
    assert not silent, silent


def _rules(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\n{body}", encoding="utf-8")
    return str(path)


def _book(path: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["rules", path]) == 0
    return " ".join(capsys.readouterr().out.split())


def test_a_capture_total_without_sums_says_one_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Escoba played to 12 without sums (seed 189 of the first run): a 3 took nothing but a single 9, where the book
    said a play takes "one such set (one card or several)", and `cassino diff` called capture.sums moot."""
    with_sums = _rules(tmp_path, "twelve", "extends: escoba\ncapture:\n  total: 12\n")
    without = _rules(tmp_path, "twelve-single", "extends: escoba\ncapture:\n  total: 12\n  sums: false\n")
    book = _book(without, capsys)
    assert "never several table cards together" in book
    assert "(one card or several)" not in book.split("(escoba instead")[0]
    assert "(one card or several)" in _book(with_sums, capsys)
    assert main(["diff", with_sums, without]) == 0
    out = capsys.readouterr().out
    assert "1 rule differs" in out and "Only twelve allows: 3♦ capture 3♥ 6♥" in out


@pytest.mark.parametrize("how, words, captures", [
    ("all", "Whenever you capture, you must also take every loose card that alone makes 15", []),
    ("all_when_pairing", "When you take a single loose card that makes 15 with the card you play, you must take "
                         "every loose card that does", ["5♦ capture 4♣ 6♠"]),
])
def test_equal_cards_under_a_total_are_worded_warned_and_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str, words: str, captures: list[str]) -> None:
    """Escoba with `equal_cards` other than `any` (seeds 1015, 1264, 1416, 1607, 2573, 2589 of the first run): a 5
    facing two kings took neither, unworded, and `cassino diff` called the setting moot; `validate` warned of it
    only where no total is played."""
    path = _rules(tmp_path, "pairs", f"extends: escoba\ncapture:\n  equal_cards: {how}\n")
    book = _book(path, capsys)
    assert words in book
    shown = book.split("two cards that each make the total")[1].split("Not allowed")[0]
    assert "Table: K♦ K♥ 6♠ 4♣ Your hand: 5♦" in shown
    assert ("Captures with 5♦: " + (" · ".join(captures) or "none")) in shown
    assert main(["validate", path]) == 0
    err = capsys.readouterr().err
    assert "pairs.yaml:4:16: warning: captures by a total take one set a play" in err
    assert "hint: take such cards as you choose (capture.equal_cards: any)" in err
    assert main(["diff", "escoba", path]) == 0
    assert "1 rule differs" in capsys.readouterr().out


def test_escoba_as_shipped_words_neither(capsys: pytest.CaptureFixture[str]) -> None:
    book = _book("escoba", capsys)
    assert "never several table cards together" not in book and "alone makes 15" not in book
    assert "(one card or several)" in book


@pytest.mark.parametrize("body, hand, table, move, says", [
    ("capture:\n  equal_cards: all\n", "5D", "KD KH 6S 4C", "5D capture 6S 4C",
     "5D capture 4C 6S: 5D must take every loose card that alone makes 15 with it: KD KH"),
    ("capture:\n  equal_cards: all_when_pairing\n", "5D", "KD KH 6S 4C", "5D capture KD",
     "5D capture KD: a capture that takes one card that alone makes 15 with 5D takes every such card: KD KH"),
    ("capture:\n  total: 12\n  sums: false\n", "3D", "3H 6H", "3D capture 3H 6H",
     "3D capture 3H 6H: a card takes a single table card that makes 12 with it, never several together"),
])
def test_a_refusal_under_a_total_says_the_total(tmp_path: Path, body: str, hand: str, table: str, move: str,
                                                 says: str) -> None:
    """The reasons said "every loose card equal to it: KD KH" of a 5, and "only equal cards" where no card is ever
    taken for being equal: the same settings' words in the reasons a player is given for a refused move."""
    from cassino.engine.core import Engine, Position
    from cassino.engine.notation import parse_move
    from cassino.engine.reasons import why_illegal
    from cassino.language.cards import Card
    from cassino.language.variants import load_rules

    def cards(text: str) -> list[Card]:
        return [Card(t[:-1], t[-1]) for t in text.split()]

    engine = Engine(load_rules(_rules(tmp_path, "house", "extends: escoba\n" + body)))
    state = engine.position(Position(players=2, partners=False, to_play=0, hands={0: cards(hand)}, table=cards(table)))
    assert why_illegal(engine, state, parse_move(move, engine.deck)) == says


def test_an_example_that_a_compulsory_capture_empties_says_so(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """(An author's audit, session 92: under `compulsory: whenever_possible` six build examples read "Builds with 3♦:
    none" beneath "You may raise your own builds", with nothing said of why.)"""
    from test_rulebook import check_printed_examples

    path = _rules(tmp_path, "must-capture", "extends: standard\ncapture:\n  compulsory: whenever_possible\n")
    book = _book(path, capsys)
    assert "Builds with 3♦: none (a capture is compulsory here: 6♠ capture [2♠ 4♥])" in book
    assert "Builds with 3♦: none (a capture" not in _book("standard", capsys)
    assert check_printed_examples(path) > 0   # (each capture named is legal there, read back from the text)

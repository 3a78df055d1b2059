"""What an outside author found `cassino check` still saying wrongly of a faulty scenario file, each now as
docs/scenarios.md says: a seat that is not at the table is said at its own key (`FILE:LINE:COL`), a build's value
in words is a mistake in the file (exit 2, at the value, in the words typed), and a misspelt `variant:` is said
once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def _check(cli: Any, tmp_path: Path, body: str) -> tuple[int, str, Path]:
    path = tmp_path / "s.yaml"
    path.write_text(body, encoding="utf-8")
    code, out, err = cli("check", str(path))
    assert "Traceback" not in out + err
    return code, out + err, path


def _caret(text: str, line: str, column: int) -> bool:
    """Whether ``text`` shows the file's ``line`` with a caret under ``column`` (counted from 1)."""
    return f"\n    {line}\n    {' ' * (column - 1)}^" in text


# Each a seat-keyed mapping of a case's position with a seat past a table of two: the line of the case as the user
# types it, and the seat's key's line and column in the file (the position starts on the file's line 4).
SEAT_KEYS = [
    ("standard", "hands: {3: [2C]}", "hands", 3, 4, 13),
    ("standard", "hands:\n  1: [3C]\n  3: [2C]", "hands", 3, 6, 7),
    ("standard", "captured: {0: [AS], 5: [2S]}", "captured", 5, 4, 25),
    ("standard", "captured:\n  0: rest\n  5: [2S]", "captured", 5, 6, 7),
    ("standard", "sweeps: {0: 1, 4: 1}", "sweeps", 4, 4, 20),
    ("standard", "scores: {0: 1, 2: 5}", "scores", 2, 4, 20),
    ("tuxedo", "events: {0: [orange], 3: [orange]}", "events", 3, 4, 27),
]


@pytest.mark.parametrize("variant,given,key,seat,line,column", SEAT_KEYS, ids=[k[1] for k in SEAT_KEYS])
def test_a_seat_not_at_the_table_is_said_at_its_own_key(cli: Any, tmp_path: Path, variant: str, given: str, key: str,
                                                        seat: int, line: int, column: int) -> None:
    """It was said at the mapping's value (`hands: {3: [2C]}` at the `{`, a block mapping at its first seat's list)."""
    hand = "1B" if variant == "tuxedo" else "5H"
    position = "".join(f"    {part}\n" for part in given.splitlines())
    code, text, path = _check(cli, tmp_path, f"variant: {variant}\ncases:\n  - name: a\n{position}"
                                             f"    hand: [{hand}]\n    expect: {{to_play: 0}}\n")
    assert code == 1, text
    assert (f"{path}:{line}:{column}: impossible position: {key}: seat {seat} does not exist with 2 players"
            in text), text
    assert "0 passed, 1 failed" in text


def test_a_score_given_for_a_seat_that_is_not_its_sides_lowest_is_said_at_that_seat(cli: Any, tmp_path: Path) -> None:
    """Four partners: seat 2's score belongs to the side of seat 0. The failure had no place at all."""
    code, text, path = _check(cli, tmp_path, "variant: standard\ncases:\n  - name: a\n    players: 4\n"
                                             "    partners: true\n    hand: [5H]\n    scores: {0: 1, 2: 5}\n"
                                             "    expect: {to_play: 0}\n")
    assert code == 1, text
    assert (f"{path}:7:20: impossible position: scores: seat 2 plays for the side of seat 0; a side's score is "
            "given by its lowest seat") in text, text


def test_an_expected_seat_not_at_the_table_is_said_at_its_own_key(cli: Any, tmp_path: Path) -> None:
    """An expectation's seat-keyed mappings: each seat that is not there at its key (they were said at the value or
    at the expectation's line); an `events` of a seat not at the table passed, whatever it expected."""
    code, text, path = _check(cli, tmp_path, "variant: standard\ncases:\n  - name: a\n    hand: [5H]\n    expect:\n"
                                             "      hands: {0: [5H], 3: [2C]}\n"
                                             "      captured:\n        5: []\n"
                                             "      hand_points: {0: 0, 3: 0}\n"
                                             "      sweeps: {7: 0}\n"
                                             "      events: {6: []}\n")
    assert code == 1, text
    assert f"{path}:6:24: hands[3]: no such seat" in text, text
    assert f"{path}:8:9: captured[5]: no such seat" in text, text
    assert f"{path}:9:27: hand_points[3]: no such side" in text, text
    assert f"{path}:10:16: sweeps[7]: no such seat" in text, text
    assert f"{path}:11:16: events[6]: no such seat" in text, text


def test_an_expected_items_seat_that_names_no_side_is_said_at_its_key(cli: Any, tmp_path: Path) -> None:
    code, text, path = _check(cli, tmp_path, "variant: standard\ncases:\n  - name: a\n    players: 4\n"
                                             "    partners: true\n    captured: {0: [AS], 1: rest}\n"
                                             "    expect:\n      items: {0: {aces: 1}, 2: {aces: 0}}\n")
    assert code == 2, text
    assert f"{path}:8: case 'a': `expect.items`: seat 2 does not name a side" in text, text
    assert _caret(text, "      items: {0: {aces: 1}, 2: {aces: 0}}", 29), text


@pytest.mark.parametrize("word", ["eight", "ZZ", "Eight"])
def test_a_build_value_in_words_is_a_mistake_in_the_file(cli: Any, tmp_path: Path, word: str) -> None:
    """"`value` is a number, or a rank (`J`) for a pile of cards without value": `value: eight` was a failed case,
    "EIGHT is no rank of this deck", in capitals the file never wrote."""
    line = f"    builds: [{{cards: [3C, 5D], value: {word}, owner: 0}}]"
    code, text, path = _check(cli, tmp_path, f"variant: standard\ncases:\n  - name: a\n{line}\n"
                                             "    hand: [8H, KD]\n    expect:\n      legal: [\"8H capture [3C 5D]\"]\n")
    assert code == 2, text
    assert f"{path}:4: case 'a': `builds[0].value`: '{word}' is not a number" in text, text
    assert _caret(text, line, 39), text
    assert "hint: a build's value is a number, such as 8" in text, text
    assert word.upper() not in text.replace(word, ""), text
    assert "passed" not in text or "0 passed, 0 failed" in text   # (nothing of a faulty file is counted)


def test_an_expected_build_value_in_words_is_a_mistake_in_the_file(cli: Any, tmp_path: Path) -> None:
    line = "      builds: [{cards: [3C, 5D, 8H], value: eight}]"
    code, text, path = _check(cli, tmp_path, "variant: standard\ncases:\n  - name: a\n    table: [3C, 5D]\n"
                                             "    hand: [8H, 8D]\n    hands: {1: [KC]}\n"
                                             "    moves: [\"8H build 8 on 3C 5D\"]\n"
                                             f"    expect:\n{line}\n")
    assert code == 2, text
    assert f"{path}:9: case 'a': `expect.builds[0].value`: 'eight' is not a number" in text, text
    assert _caret(text, line, 45), text
    assert "EIGHT" not in text


@pytest.mark.parametrize("value", ["J", "j"])
def test_a_build_value_by_rank_still_reads(cli: Any, tmp_path: Path, value: str) -> None:
    """The document's own spelling, a rank for a pile of cards without value, where the variant builds them."""
    code, text, path = _check(cli, tmp_path, "variant: face-builds\ncases:\n  - name: a\n"
                                             f"    builds: [{{cards: [JC, JD], value: {value}, owner: 1}}]\n"
                                             "    hand: [JH, 5S]\n"
                                             "    expect:\n      legal: [\"JH capture [JC JD]\"]\n"
                                             f"      builds: [{{cards: [JC, JD], value: {value}}}]\n")
    assert code == 0, text


def test_a_misspelt_variant_is_said_once(cli: Any, tmp_path: Path) -> None:
    """`varant: standard` read "unknown key `varant` ... did you mean `variant`?" and then "no `variant`"."""
    code, text, path = _check(cli, tmp_path, "varant: standard\ncases:\n  - name: a\n    hand: [5H]\n"
                                             "    expect:\n      legal: [\"5H trail\"]\n")
    assert code == 2, text
    assert f"{path}:1: unknown key `varant` in a scenario file" in text, text
    assert "hint: did you mean `variant`?" in text
    assert "no `variant`" not in text, text
    assert text.count(f"{path}:") == 1, text


def test_a_misspelt_variant_of_a_case_is_said_once(cli: Any, tmp_path: Path) -> None:
    code, text, path = _check(cli, tmp_path, "cases:\n  - name: a\n    varient: standard\n    hand: [5H]\n"
                                             "    expect:\n      legal: [\"5H trail\"]\n")
    assert code == 2, text
    assert f"{path}:3: unknown key `varient` in `cases[0]`" in text and "did you mean `variant`?" in text, text
    assert "no `variant`" not in text, text
    assert text.count(f"{path}:") == 1, text


def test_a_file_with_no_variant_at_all_still_says_so(cli: Any, tmp_path: Path) -> None:
    code, text, path = _check(cli, tmp_path, "cases:\n  - name: a\n    hand: [5H]\n"
                                             "    expect:\n      legal: [\"5H trail\"]\n")
    assert code == 2, text
    assert f"{path}:1: no `variant`: name a bundled variant or a rule file at the top of the file" in text, text

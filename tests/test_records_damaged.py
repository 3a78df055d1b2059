"""Damaged game records (issue 11): `replay` and `play --resume` answer a clear error, never a traceback,
and never touch the file.

Hypothesis damages one record in the ways files get damaged: cut short, a field given the wrong type,
wrong seat counts, an edited or dropped move, an edited result. Some damage happens to leave a valid
record (a value replaced by itself); then the commands may succeed, and the test only asks that they
never crash. The explicit examples make sure each kind is refused.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any, Callable
from unittest import mock

from hypothesis import example, given, strategies as st

from cassino.apps.cli import main
from cassino.apps.game.records import load_game

from conftest import record_text

# A game into its second hand, so scores are not all zero; seat 0 is a person, so a resumed game
# stops at their first prompt (input ends at once) instead of playing on.
TEXT = record_text(actions=52)
DATA = json.loads(TEXT)

ANY_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 2**70), st.floats(allow_nan=False, allow_infinity=False),
              st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)
SEAT_KINDS = st.sampled_from(["human", "random", "greedy", "search", "search:2", "genius", "", "search:0"])
MOVE_TEXT = st.one_of(st.text(max_size=20), st.sampled_from(
    ["KS capture 2C", "9D trial", "claim 7", "claim 0", "AS trail", "10D build 12 on 2C", "[", "3H+4H capture 7C"]))


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err), \
            mock.patch("builtins.input", side_effect=EOFError):
        code = main(argv)
    return code, err.getvalue()


def check_damaged(text: str) -> None:
    """Both commands on ``text``: exit 0 (the damage left a valid record) or 2 with one clear line."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.json"
        path.write_text(text, encoding="utf-8")
        raw = path.read_bytes()
        for argv in (["replay", str(path)], ["play", "--resume", str(path)]):
            code, err = run(argv)
            assert code in (0, 2), err
            if code == 2:
                first = err.splitlines()[0]
                assert first.startswith(f"cassino: {path}") or first.startswith("cassino: the recorded"), err
                assert "Traceback" not in err and "object is not" not in err and "KeyError" not in err
                lines = err.splitlines()
                assert len(lines) == len(set(lines)), f"a problem said twice:\n{err}"
                assert path.read_bytes() == raw, "a refused record was changed"
            else:
                load_game(path)   # it really is a record that replays and matches its result


def refused(text: str) -> str:
    """The error ``replay`` gives for ``text`` (which must be refused)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.json"
        path.write_text(text, encoding="utf-8")
        code, err = run(["replay", str(path)])
        assert code == 2, err
        return err


def edited(change: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(TEXT)
    change(data)
    return json.dumps(data, indent=1)


@given(st.integers(0, len(TEXT) - 1))
@example(len(TEXT) // 2)
@example(0)
def test_cut_short(cut: int) -> None:
    check_damaged(TEXT[:cut])


@given(st.sampled_from(sorted(DATA)), ANY_JSON)
@example("players", 9)
@example("seats", ["search"])
@example("partners", True)
@example("actions", 5)
@example("seed", "7")
@example("dealer", 2)
@example("result", [1])
@example("variant", {"name": "standard"})
def test_a_field_of_the_wrong_type(key: str, value: Any) -> None:
    check_damaged(edited(lambda d: d.__setitem__(key, value)))


def test_rules_emptied_are_refused_with_each_problem_once() -> None:
    """An audit emptied the recorded rules (`{}`): the missing sections were said ten times over."""
    check_damaged(edited(lambda d: d["variant"].__setitem__("rules", {})))
    err = refused(edited(lambda d: d["variant"].__setitem__("rules", {})))
    assert err.count("missing sections") == 1 and err.count("missing setting `name`") == 1, err
    assert "sections `name`" not in err   # (said by its own line)


@given(st.sampled_from(["deck", "seats", "deal", "capture", "build", "scoring", "game", "endgame"]), ANY_JSON)
@example("deal", {"hand_size": 20})
@example("seats", 5)
def test_damaged_rules(section: str, value: Any) -> None:
    check_damaged(edited(lambda d: d["variant"]["rules"].__setitem__(section, value)))


@given(st.integers(-2, 10), st.lists(SEAT_KINDS, max_size=6), st.booleans())
@example(9, ["human", "random"], False)
@example(2, ["search"], False)
@example(2, ["human", "random"], True)
def test_wrong_seat_counts(players: int, seats: list[str], partners: bool) -> None:
    check_damaged(edited(lambda d: d.update(players=players, seats=seats, partners=partners)))


@given(st.integers(0, len(DATA["actions"]) - 1), st.one_of(MOVE_TEXT, st.none()))
@example(3, "9D trial")
@example(3, None)
@example(3, "claim 7")
def test_an_edited_or_dropped_move(index: int, move: str | None) -> None:
    def change(d: dict[str, Any]) -> None:
        if move is None:
            del d["actions"][index]
        else:
            d["actions"][index] = move
    check_damaged(edited(change))


@given(st.sampled_from(["over", "winner", "scores", "hands", "ended_by"]), ANY_JSON)
@example("scores", [99, 0])
@example("over", True)
def test_an_edited_result(key: str, value: Any) -> None:
    check_damaged(edited(lambda d: d["result"].__setitem__(key, value)))


def test_each_kind_of_damage_is_refused_in_words() -> None:
    inside_a_move = TEXT.index('"', TEXT.index("[", TEXT.index('"actions"'))) + 3
    assert "a text in quotes is not closed" in refused(TEXT[:inside_a_move])
    assert "a value is missing here (the file may be cut short)" in refused(TEXT[: TEXT.index('"actions"') + 14])
    assert "\"players\" 9 is not allowed" in refused(edited(lambda d: d.__setitem__("players", 9)))
    assert "1 seat named for 2 players" in refused(edited(lambda d: d.__setitem__("seats", ["search"])))
    assert "needs four players" in refused(edited(lambda d: d.__setitem__("partners", True)))
    assert "\"actions\" must be a list of moves, not 5" in refused(edited(lambda d: d.__setitem__("actions", 5)))
    assert "the record has no \"actions\"" in refused(edited(lambda d: d.pop("actions")))
    moved = refused(edited(lambda d: d["actions"].__setitem__(3, "9D trial")))
    assert "action 4 ('9D trial') does not replay: `trial` is not an action" in moved
    assert ":" in moved.split("action 4")[0]          # the file and the line of the move
    assert "\"scores\" says [99, 0]" in refused(edited(lambda d: d["result"].__setitem__("scores", [99, 0])))
    dropped = refused(edited(lambda d: d["actions"].pop()))
    assert "the stored result does not match the moves" in dropped


def test_a_key_twice_and_rules_that_extend_are_refused_in_words() -> None:
    """An audit's hand-made records: a key given twice was read (the later value winning) and the error blamed
    action 1; rules naming `extends` read "the deck has 0"."""
    twice = TEXT.replace('"seed": ', '"seed": 99, "seed": ', 1)
    assert twice != TEXT
    check_damaged(twice)
    err = refused(twice)
    assert 'the key "seed" is given twice in one object' in err and "action" not in err, err
    extended = edited(lambda d: d["variant"].__setitem__("rules", {"name": "x", "extends": "standard"}))
    check_damaged(extended)
    err = refused(extended)
    assert "holds rules that name `extends`: a record holds its rules whole" in err and "deck" not in err, err

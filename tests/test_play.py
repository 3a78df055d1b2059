"""`cassino play`, records, replay and simulate, driven through the command line as a player would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.apps.records import load_record, replay

from conftest import ROOT


def run(args: list[str], stdin: str = "", cwd: Path | None = None, timeout: int = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def test_whole_game_against_a_bot_and_the_record_replays(tmp_path: Path) -> None:
    result = run(["play", "standard", "--seed", "5", "--save", "g.json"], stdin="1\n" * 400, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wins" in result.stdout and "final scores" in result.stdout
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["result"]["over"] is True
    assert record["variant"]["rules"]["name"] == "standard"
    rep = run(["replay", "g.json"], cwd=tmp_path)
    assert rep.returncode == 0 and "game over" in rep.stdout


def test_bad_input_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    lines = ["bogus", "99", "0", "ZZ trail", "2C build 99 on 3H", "AS capture", ""]
    result = run(["play", "standard", "--seed", "11", "--save", "g.json"], stdin="\n".join(lines) + "\n", cwd=tmp_path)
    assert result.returncode == 0
    out = result.stdout
    assert "is not a move or a command" in out
    assert "there is no move 99" in out and "there is no move 0" in out
    assert "ends too soon" in out
    assert "Traceback" not in out + result.stderr
    record = json.loads((tmp_path / "g.json").read_text())
    # Only the computer's opening move (seat 1 leads) is recorded: no bad input changed the game.
    assert len(record["actions"]) == 1


def test_end_of_input_saves_and_resume_continues_the_same_game(tmp_path: Path) -> None:
    first = run(["play", "royal", "--seed", "3", "--save", "a.json"], stdin="1\n1\n1\n", cwd=tmp_path)
    assert first.returncode == 0 and "end of input" in first.stdout
    saved = load_record(tmp_path / "a.json")
    assert len(saved.actions) >= 6
    resumed = run(["play", "--resume", "a.json"], stdin="1\n" * 400, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    final = load_record(tmp_path / "a.json")
    assert final.actions[: len(saved.actions)] == saved.actions
    # The same game: playing the same answers in one sitting gives the same record.
    straight = run(["play", "royal", "--seed", "3", "--save", "b.json"], stdin="1\n" * 403, cwd=tmp_path)
    assert straight.returncode == 0
    assert load_record(tmp_path / "b.json").actions == final.actions
    assert replay(final).over


def test_undo_takes_back_a_move(tmp_path: Path) -> None:
    result = run(["play", "standard", "--seed", "8", "--save", "u.json"], stdin="1\nundo\n", cwd=tmp_path)
    assert "took back your last move" in result.stdout
    record = load_record(tmp_path / "u.json")
    assert len(record.actions) == 1          # back to just the computer's opening move


def test_hint_names_a_move_that_can_be_played(tmp_path: Path) -> None:
    asked = run(["play", "standard", "--seed", "6", "--save", "h.json"], stdin="hint\n", cwd=tmp_path)
    hints = [line.split("hint: ", 1)[1] for line in asked.stdout.splitlines() if "hint: " in line]
    assert len(hints) == 1
    assert len(load_record(tmp_path / "h.json").actions) == 1   # asking changed nothing
    played = run(["play", "standard", "--seed", "6", "--save", "p.json"], stdin=hints[0] + "\n", cwd=tmp_path)
    assert played.returncode == 0 and "is not" not in played.stdout
    assert len(load_record(tmp_path / "p.json").actions) >= 2


def test_quit_saves_and_tells_how_to_resume(tmp_path: Path) -> None:
    result = run(["play", "hoyle", "--seed", "2", "--save", "q.json"], stdin="quit\n", cwd=tmp_path)
    assert result.returncode == 0
    assert "cassino play --resume q.json" in result.stdout
    assert (tmp_path / "q.json").exists()


def test_house_rule_file_plays(tmp_path: Path) -> None:
    result = run(["play", str(ROOT / "examples" / "sweeps-score.yaml"), "--seed", "4", "--save", "h.json"],
                 stdin="1\n" * 400, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wins" in result.stdout or "no winner" in result.stdout


def test_play_refuses_bad_options(tmp_path: Path) -> None:
    assert run(["play", "standard", "--players", "7"], cwd=tmp_path).returncode == 2
    assert run(["play", "standard", "--bot", "genius"], cwd=tmp_path).returncode == 2
    r = run(["play", "standard", "--bot", "search:lots"], cwd=tmp_path)
    assert r.returncode == 2 and "bad search budget" in r.stderr and "Traceback" not in r.stderr
    assert run(["play", "nosuchvariant"], cwd=tmp_path).returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = run(["play", "--resume", "bad.json"], cwd=tmp_path)
    assert r.returncode == 2 and "not a game record" in r.stderr


def test_replay_detects_a_tampered_record(tmp_path: Path) -> None:
    assert run(["play", "standard", "--seed", "5", "--save", "t.json"], stdin="1\n" * 10, cwd=tmp_path).returncode == 0
    data = json.loads((tmp_path / "t.json").read_text())
    data["actions"][1] = "KS capture 2C"
    (tmp_path / "t.json").write_text(json.dumps(data))
    r = run(["replay", "t.json"], cwd=tmp_path)
    assert r.returncode == 2 and "does not replay" in r.stderr


@pytest.mark.parametrize("variant", ["dominican", "tuxedo", "hungarian"])
def test_computer_against_computer_in_other_variants(tmp_path: Path, variant: str) -> None:
    r = run(["play", variant, "--humans", "0", "--seed", "9", "--save", "c.json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert load_record(tmp_path / "c.json").to_json()["actions"]
    assert replay(load_record(tmp_path / "c.json")).over


def test_simulate_same_numbers_whatever_the_worker_count() -> None:
    one = run(["simulate", "standard", "--games", "12", "--seed", "3", "--format", "json"])
    two = run(["simulate", "standard", "--games", "12", "--seed", "3", "--format", "json", "--workers", "2"])
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a == b
    assert a["games"] == 12 and a["hands"] >= 12
    per_hand = sum(sum(v) for v in a["points_per_hand"].values())
    assert 8 <= per_hand <= 11          # 11 a hand, less when cards or spades tie
    text = run(["simulate", "tuxedo", "--games", "3", "--players", "3"])
    assert text.returncode == 0 and "first player to lead wins" in text.stdout


def test_a_table_with_tens_of_thousands_of_captures_is_counted_not_listed(tmp_path: Path) -> None:
    """16 low cards on the table: 71,076 legal moves. The screen numbers a few per hand card,
    says how many there are, and any of them can still be typed and is played."""
    from io import StringIO

    from rich.console import Console

    from cassino.apps.play import MAX_LISTED, start_session
    from cassino.apps.records import Record
    from cassino.engine.core import Position
    from cassino.language.variants import load_rules

    record = Record(load_rules("standard"), 5, 2, False, ["human", "greedy"], source="standard")
    typed = iter(["10S capture AC 2C 3C 4C", "quit"])
    out = StringIO()
    session = start_session(record, tmp_path / "g.json", Console(file=out, width=120), read=lambda _: next(typed))
    engine = session.game.engine
    deck = engine.deck
    table = [deck.parse(f"{r}{s}") for r in "A234" for s in "SHDC"]
    hand = engine.position(Position(players=2, hands={0: [deck.parse(c) for c in ("10S", "9H", "8C", "7D")],
                                                      1: [deck.parse(c) for c in ("KS", "KH", "KD", "KC")]},
                                    table=table))
    session.game = session.game.with_(hand=hand)
    moves, total = session.listed_moves()
    assert total == engine.count_moves(hand) == 71076
    assert len(moves) <= MAX_LISTED
    assert {m.played for m in moves} == {1 << deck.index(deck.parse(c)) for c in ("10S", "9H", "8C", "7D")}
    assert all(engine.is_legal(hand, m) for m in moves)
    session.list_moves(moves, total)
    assert f"{total - len(moves)} more legal moves, {total} in all" in out.getvalue()
    # A move not on the numbered list is typed and refused only if illegal: this one is legal.
    assert session.human_turn(0) is True
    assert session.record.actions[-1] == "10S capture AC 2C 3C 4C"

"""`simulate` and `sweep` stop a game that goes on too long (``simulate.MOVE_LIMIT`` moves) and count it as
unfinished, apart from the games that end with no winner, saying why such rules may never end.

The soak found such a house rule (session 73): Hungarian Casino after Ulmann won by the lowest total, where
only sweeps score. Every capture costs there, so the computer players trail every card, no one scores, and
the game runs on until the limit."""

from __future__ import annotations

import json
from pathlib import Path

from cassino.apps.authors import simulate
from cassino.engine.core import Engine
from cassino.language.variants import load_rules


def _never_ending(tmp_path: Path) -> Path:
    rule = tmp_path / "never.yaml"
    rule.write_text("name: never\nextends: hungarian-ulmann\ngame:\n  goal: lowest\n", encoding="utf-8")
    return rule


def test_a_game_still_going_at_the_limit_is_stopped_and_counted_unfinished(tmp_path: Path) -> None:
    engine = Engine(load_rules(_never_ending(tmp_path)))
    stats = simulate.play_game(engine, 1, 2, False, ("greedy",), 0, limit=30)   # (within the first hand)
    assert stats.unfinished and stats.plies == 30 and stats.winner_seat is None
    summary = simulate.summarise("never", 2, ("greedy",), 1, [stats])
    assert summary["unfinished"] == 1 and summary["no_winner"] == 1   # (unfinished games are among those with none)
    text = simulate.format_text(summary)
    assert f"1 of them stopped unfinished (after {simulate.MOVE_LIMIT:,} moves, or a hand with no capture)" in text
    assert "may let a game go on for ever" in text


def test_a_game_that_may_never_end_stops_after_a_hand_in_which_nobody_captured(tmp_path: Path) -> None:
    """Where validate warns that a game may never end, a hand with no capture would only come again, each one
    slower as its table grows (a documentation audit waited two minutes for one game): the game stops there."""
    rule = tmp_path / "lowest.yaml"
    rule.write_text("name: lowest\nextends: standard\ngame:\n  goal: lowest\n", encoding="utf-8")
    stats = simulate.play_game(Engine(load_rules(rule)), 1, 2, False, ("greedy",), 0)
    assert stats.unfinished and stats.hands == 1 and stats.plies == 48 and stats.winner_seat is None


def test_a_finished_game_is_not_unfinished_whatever_its_winner(cli) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(load_rules("standard"))
    stats = simulate.play_game(engine, 1, 2, False, ("greedy",), 0)
    assert not stats.unfinished and stats.plies < simulate.MOVE_LIMIT
    code, out, err = cli("simulate", "standard", "--games", "4", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["unfinished"] == 0
    code, out, err = cli("simulate", "standard", "--games", "4")
    assert code == 0 and "no winner: " in out and "unfinished" not in out


def test_a_sweep_row_says_how_many_games_were_stopped(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("sweep", "standard", "--set", "game.target=11,21", "--games", "4", "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["grid"]
    assert [r["unfinished"] for r in rows] == [0, 0]
    assert all(r["decided"] + r["unfinished"] <= r["games"] for r in rows)

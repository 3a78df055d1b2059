"""`simulate` and `sweep` give the same games on every machine: their computer players have no time cap
(the search's 3-second cap, for people waiting at a table, would make a move depend on the machine's speed)."""

from __future__ import annotations

import itertools

import pytest

from cassino.apps.authors import simulate
from cassino.players import search
from cassino.players.names import make_bot


def test_make_bot_takes_the_cap_or_none() -> None:
    assert make_bot("search", 1).cap == search.MOVE_CAP           # type: ignore[attr-defined]
    assert make_bot("search", 1, cap=None).cap is None            # type: ignore[attr-defined]
    assert make_bot("search:16", 1, cap=None).cap is None         # type: ignore[attr-defined]
    assert make_bot("search:16", 1, cap=2.0).cap == 2.0           # type: ignore[attr-defined]


def test_a_slow_machine_plays_the_same_simulated_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that runs ten seconds a reading (a very slow machine) would cut every capped search short;
    simulate's games are the same with it as without."""
    args = ("standard", 2, 5, 2, False, ("search:8", "greedy"))
    quick = simulate.run(*args)
    ticks = itertools.count()
    monkeypatch.setattr(search.time, "perf_counter", lambda: 10.0 * next(ticks))
    slow = simulate.run(*args)
    assert slow == quick


def moves_of_a_capped_search(seed: int) -> list[str]:
    from cassino.engine.game import Game
    from cassino.engine.notation import format_move
    from cassino.language.variants import load_rules

    game = Game.new(load_rules("standard"), seed, 2)
    bot, out = make_bot("search:8", seed, cap=3.0), []
    while not game.over and len(out) < 12:
        move = bot.choose(game, game.hand.turn)
        out.append(format_move(move, game.engine.deck))
        game = game.play(move)
    return out


def test_the_slow_clock_does_cut_a_capped_search_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: under the same clock a capped player (as at a table) plays other moves."""
    quick = moves_of_a_capped_search(3)
    ticks = itertools.count()
    monkeypatch.setattr(search.time, "perf_counter", lambda: 10.0 * next(ticks))
    assert moves_of_a_capped_search(3) != quick

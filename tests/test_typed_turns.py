"""The whole turns the terminal and socket replays type on one line (``terminal_replay.typed_turn``): every one is a
turn the engine takes as typed, and exactly the game's actions up to its `end`. A soak (seed 9601) typed the last
card of a Swazi hand and the first turn of the next hand, led by the same seat, as one line, which the session
rightly refused."""

from __future__ import annotations

import random

from cassino.apps.authors.terminal_replay import replay_at_the_terminal, typed_turn
from cassino.apps.game.records import Record, apply_action
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.notation import format_move, parse_move
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot


def _played(variant: str, seed: int, players: int, hands: int) -> tuple[list[Game], list[str]]:
    """A game of greedy and random players to the end of hand ``hands``: the game before each action, and the actions."""
    game = Game.new(Engine(load_rules(variant)), seed, players)
    bots = [make_bot("greedy" if (s + seed) % 2 else "random", seed + s) for s in range(players)]
    games, actions = [game], []
    while not game.over and game.hand_no <= hands:
        action = format_move(bots[game.hand.turn].choose(game, game.hand.turn), game.engine.deck)
        game = apply_action(game, action)
        games.append(game)
        actions.append(action)
    return games, actions


def test_every_typed_turn_is_a_turn_the_engine_takes_and_the_games_own() -> None:
    crossings = typed = 0
    for variant, seed, players in (("swazi-casino", 1, 2), ("swazi-casino", 4, 3), ("south-african-casino", 2, 2),
                                   ("examples/swazi-tops-taken.yaml", 3, 2)):
        games, actions = _played(variant, seed, players, 2)
        for k, game in enumerate(games[:-1]):
            following = games[k + 1]
            crossings += (following.hand_no, following.hand.deal_no) != (game.hand_no, game.hand.deal_no) \
                and following.hand.turn == game.hand.turn and not following.over
            turn = typed_turn(game, actions[k:])
            if turn is None:
                continue
            typed += 1
            assert actions[k:k + len(turn) + 1] == turn + ["end"], (variant, k, turn)
            moves = [parse_move(a, game.engine.deck) for a in turn]
            assert game.engine.turn_refusal(game.hand, moves) is None, (variant, k, turn)
            assert all(g.hand.turn == game.hand.turn and g.hand_no == game.hand_no and g.hand.deal_no == game.hand.deal_no
                       for g in games[k:k + len(turn) + 1]), (variant, k, turn)
    assert crossings and typed, (crossings, typed)   # (the seat that ends a hand or deal leads the next: the case seen)


class _Eager(random.Random):
    """A typist's dice that always type a whole turn where there is one (``random()`` 0: every "at random" yes)."""

    def random(self) -> float:
        return 0.0


def test_the_terminal_replay_types_the_turn_after_a_hand_it_ended_as_its_own_line(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Swazi Casino with two, seed 1: the seat that plays the first hand's last card leads the second; typed at the
    terminal with every whole turn on one line, the session takes every line (before, the hand's last card and the
    next hand's turn were typed as one line and refused)."""
    from cassino.apps.authors import terminal_replay

    games, actions = _played("swazi-casino", 1, 2, 2)
    end = next(k for k in range(len(games) - 1) if games[k + 1].hand_no != games[k].hand_no)
    assert games[end + 1].hand.turn == games[end].hand.turn
    upto = actions.index("end", end + 1) + 1    # (the second hand's first turn, ended)
    monkeypatch.setattr(terminal_replay.random, "Random", _Eager)
    rules = load_rules("swazi-casino")
    record = Record(rules, 1, 2, False, ["greedy", "random"], source="swazi-casino")
    assert replay_at_the_terminal(record, actions[:upto], 5, warn=False) == upto

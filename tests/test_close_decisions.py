"""A close decision takes more deals: ``SearchBot(close=..., settle=..., work=...)``.

After ``iterations`` deals the search goes on where more than one candidate is left, up to
``close`` deals, while some candidate's difference from the best is still uncertain by more
than ``settle`` points, and while its playouts have played fewer than ``work`` cards
(``CLOSE_WORK`` unless given).
"""

from __future__ import annotations

import math

import pytest

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.moves import Move
from cassino.engine.state import HandState
from cassino.language.variants import load_rules
from cassino.players.search import CLOSE, CLOSE_WORK, SearchBot


class Counting(SearchBot):
    """The search, counting the deals it draws at each decision."""

    def __init__(self, seed: int, **settings: object) -> None:
        super().__init__(seed, **settings)  # type: ignore[arg-type]
        self.counts: list[int] = []
        self._drawn = 0

    def choose(self, game: Game, seat: int) -> Move:
        self._drawn = 0
        move = super().choose(game, seat)
        self.counts.append(self._drawn)
        return move

    def determinize(self, engine: Engine, state: HandState, seat: int, avoid: tuple[int, ...] = ()) -> HandState:
        self._drawn += 1
        return super().determinize(engine, state, seat, avoid)


def _play(variant: str, seed: int, bot: Counting, plies: int | None = None) -> list[Move]:
    """A hand of ``variant`` between two seats both played by ``bot``; the moves made."""
    game = Game.new(Engine(load_rules(variant)), seed, 2).with_(target=None)
    moves: list[Move] = []
    while not game.hand.over and (plies is None or len(moves) < plies):
        move = bot.choose(game, game.hand.turn)
        assert move in game.legal_moves()
        moves.append(move)
        game = game.play(move)
    return moves


def test_a_close_decision_takes_more_deals_up_to_close() -> None:
    """The default search draws more than ``iterations`` deals for some decisions of a hand and
    never more than ``close``; with ``close=0`` every decision takes ``iterations`` at most."""
    extended, fixed = Counting(3), Counting(3, close=0)
    for seed in range(3):
        _play("standard", seed, extended)
        _play("standard", seed, fixed)
    assert max(extended.counts) > 64 and max(extended.counts) <= CLOSE * 64
    assert max(fixed.counts) <= 64


def test_a_settled_choice_takes_no_more_deals() -> None:
    """Where every difference is known within ``settle`` points, nothing is added: a threshold
    no standard error reaches plays the very game ``close=0`` plays, deal for deal."""
    settled, fixed = Counting(5, settle=1e9), Counting(5, close=0)
    for seed in range(2):
        assert _play("standard", seed, settled) == _play("standard", seed, fixed)
    assert settled.counts == fixed.counts
    # and a threshold of 0 (never settled but by a sure difference) takes at least as many
    eager = Counting(5, settle=0.0)
    _play("standard", 0, eager)
    assert max(eager.counts) >= max(fixed.counts)


def test_the_work_bound_limits_the_extra_deals() -> None:
    """No work allowed plays the very game ``close=0`` plays, deal for deal; more work than the
    default allows at least as many deals, and none beyond ``close``."""
    bare, fixed = Counting(6, work=0), Counting(6, close=0)
    for seed in range(2):
        assert _play("standard", seed, bare) == _play("standard", seed, fixed)
    assert bare.counts == fixed.counts
    default, more = Counting(6, settle=0.0), Counting(6, settle=0.0, work=8 * CLOSE_WORK)
    _play("standard", 2, default, plies=12)
    _play("standard", 2, more, plies=12)
    assert sum(more.counts) > sum(default.counts) and max(more.counts) <= CLOSE * 64
    assert SearchBot().work == CLOSE_WORK and SearchBot(work=100).work == 100


def test_long_deals_take_no_extra_deals_at_their_start() -> None:
    """The playouts' work bounds the extra deals: at the first move of a Swazi Casino deal (12
    cards in each hand) the search never goes past ``iterations``, even with ``settle=0``;
    the same search in a standard hand does, where its playouts are short."""
    for seed in range(2):
        bot = Counting(seed, settle=0.0)
        _play("swazi-casino", seed, bot, plies=1)
        assert bot.counts[0] <= 64
    short = Counting(1, settle=0.0)
    for seed in range(3):
        _play("standard", seed, short, plies=1)
    assert max(short.counts) > 64


def test_close_deals_are_four_times_the_iterations_unless_given() -> None:
    assert SearchBot(iterations=8).close == 32 and SearchBot().close == 256
    assert SearchBot(iterations=8, close=0).close == 0 and SearchBot(close=100).close == 100


@pytest.mark.parametrize("setting, bad", [
    ("close", -1), ("close", 1.5), ("close", True), ("close", "256"), ("close", [256]),
    ("settle", -0.1), ("settle", math.nan), ("settle", math.inf), ("settle", "0.1"), ("settle", False),
    ("z", -1.0), ("z", math.nan), ("z", None), ("z", [2.5]),
    ("work", -1), ("work", 4096.0), ("work", True), ("work", "4096"), ("work", None),
])
def test_bad_close_settings_are_refused_with_their_name(setting: str, bad: object) -> None:
    with pytest.raises(ValueError, match=setting):
        SearchBot(**{setting: bad})  # type: ignore[arg-type]

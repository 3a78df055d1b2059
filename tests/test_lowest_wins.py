"""Games won by the lowest total (``game.goal: lowest``: Kasino misär, Krypkasino): every point
is a penalty, so in the research interfaces fewer points must be the better result
everywhere: a hand's and a whole game's OpenSpiel returns, the winner of a hand, and
PettingZoo's rewards (issue 35: kasino-misar's seed 0 gave penalty points 4 and 17
returns of -13 and +13, so an agent learnt to take penalty points)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import cassino.openspiel  # noqa: F401  (registers python_cassino)
from cassino.apps.research.stepwise import Setup, Step, play_out, table_for
from cassino.pettingzoo import env


def _points(step: Step) -> list[int]:
    """Each side's points this hand (one hand) or in the game (a whole game)."""
    if step.table.setup.whole_game:
        return list(step.game.scores)
    return [a - b for a, b in zip(step.game.scores, step.start_scores)]


def _assert_fewer_is_better(step: Step) -> None:
    """Side by side: fewer points, a higher return; equal points, equal returns; zero-sum."""
    points = _points(step)
    returns = step.returns()
    teams = step.view_hand().teams
    assert sum(returns) == pytest.approx(0)
    for a in range(len(returns)):
        for b in range(len(returns)):
            pa, pb = points[teams[a]], points[teams[b]]
            if pa < pb:
                assert returns[a] > returns[b], (points, returns)
            elif pa == pb:
                assert returns[a] == returns[b], (points, returns)


def test_the_issues_kasino_misar_game_rewards_the_seat_with_fewer_penalty_points() -> None:
    """PettingZoo, seed 0, random legal actions: the seat that took fewer penalty points gets
    the positive reward (it got the negative one)."""
    e = env(variant="kasino-misar")
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    rewards: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            rewards[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = e.unwrapped.state_
    points = _points(state)
    assert points[0] != points[1], "a drawn hand would prove nothing"
    fewer = 0 if points[0] < points[1] else 1
    assert rewards[f"player_{fewer}"] > 0 > rewards[f"player_{1 - fewer}"]
    assert rewards[f"player_{fewer}"] == abs(points[0] - points[1])


@pytest.mark.parametrize("variant, players", [
    ("kasino-misar", 2), ("kasino-misar", 3), ("kasino-misar", 4),
    ("krypkasino", 2), ("krypkasino", 3), ("krypkasino", 5),
])
def test_one_hand_returns_and_winner_favour_the_fewest_points(variant: str, players: int) -> None:
    table = table_for(Setup(variant=variant, players=players))
    decided = 0
    for seed in range(6):
        rng = random.Random(seed)
        step = play_out(table.initial, lambda s: rng.choice(s.legal), rng)
        _assert_fewer_is_better(step)
        points = _points(step)
        fewest = min(points)
        winner = step.winner()
        if points.count(fewest) == 1:
            assert winner == points.index(fewest), (points, winner)
            decided += 1
        else:
            assert winner is None
    assert decided > 0


def test_four_players_as_partners_share_the_better_return() -> None:
    table = table_for(Setup(variant="kasino-misar", players=4, partners=True))
    rng = random.Random(3)
    step = play_out(table.initial, lambda s: rng.choice(s.legal), rng)
    _assert_fewer_is_better(step)
    returns = step.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3]


@pytest.mark.parametrize("variant, players", [("kasino-misar", 2), ("kasino-misar", 3), ("krypkasino", 2)])
def test_whole_games_return_most_to_the_lowest_total(variant: str, players: int) -> None:
    table = table_for(Setup(variant=variant, players=players, whole_game=True, max_hands=12))
    rng = random.Random(1)
    step = play_out(table.initial, lambda s: rng.choice(s.legal), rng)
    _assert_fewer_is_better(step)
    if step.ended == "game":
        assert step.winner() == step.game.winner
        returns = step.returns()
        assert returns[step.game.winner] == max(returns)


@pytest.mark.parametrize("variant", ["kasino-misar", "krypkasino"])
def test_win_payoff_goes_to_the_lowest_total(variant: str) -> None:
    """payoff=win: one hand's +1 to the side with the fewest points; a whole game's to the
    engine's winner (the lowest total at the loss limit), as it already was."""
    for whole_game in (False, True):
        table = table_for(Setup(variant=variant, payoff="win", whole_game=whole_game, max_hands=12))
        for seed in range(3):
            rng = random.Random(seed)
            step = play_out(table.initial, lambda s: rng.choice(s.legal), rng)
            points = _points(step)
            winner = step.winner()
            if winner is None:
                continue
            assert points[winner] == min(points) and points.count(min(points)) == 1
            assert step.returns()[winner] > 0


def test_openspiel_returns_favour_the_fewest_points() -> None:
    game = pyspiel.load_game("python_cassino", {"variant": "krypkasino", "players": 3})
    rng = random.Random(5)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.returns() == state.step.returns()
        _assert_fewer_is_better(state.step)


def test_highest_wins_games_are_unchanged() -> None:
    """A game won by the highest total still returns most to the side with most points."""
    table = table_for(Setup(variant="standard"))
    rng = random.Random(2)
    step = play_out(table.initial, lambda s: rng.choice(s.legal), rng)
    points = _points(step)
    assert step.returns() == [points[0] - points[1], points[1] - points[0]]

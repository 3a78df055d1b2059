"""PettingZoo on African Casino's building (issue 36): random games through the environment, every
legal move of each turn going to actions in the agent's mask and back, the observations in their box
with the cards under each pile top."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from cassino.pettingzoo import env as make_env  # noqa: E402
from pile_reach_helpers import TABLES, TURNS, round_trip  # noqa: E402


@pytest.mark.parametrize("variant, players, partners", TABLES)
def test_random_games_round_trip_every_legal_move(variant: str, players: int, partners: bool) -> None:
    e = make_env(variant=variant, players=players, partners=partners)
    e.reset(seed=7)
    raw = e.unwrapped
    rng = random.Random(f"{variant}-{players}")
    space = e.observation_space(e.agents[0])["observation"]
    turns = under_seen = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        assert space.contains(obs["observation"])
        if terminated or truncated or turns >= TURNS:
            break
        step = raw.state_
        if not step.prefix:
            round_trip(step, rng)
            turns += not step.game.hand.turn_card   # (a turn's start: its ``end`` is no turn of its own)
            assert list(np.flatnonzero(obs["action_mask"])) == sorted(step.legal_actions())
        flat, views = raw.layout.new()
        raw.layout.fill(step, step.to_play, flat, views)
        assert np.array_equal(flat, obs["observation"])
        hand = step.game.hand
        for seat in range(hand.players):
            stack = hand.stacks[hand.teams[seat]]
            under = list(reversed(stack[-hand.pile_reach:-1]))
            under_seen += len(under)
            for d in range(hand.pile_reach - 1):
                assert list(np.flatnonzero(views["pile_under"][d][seat])) == ([under[d]] if d < len(under) else [])
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert turns == TURNS and under_seen > 0

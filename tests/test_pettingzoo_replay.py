"""Seeded PettingZoo games give the same observations, masks, rewards and ends as before the
environment was made faster (issue 52): digests recorded from the tree before that work (commit
51a0f32), the same with the pure-Python engine and the compiled one. Every agent's view is taken at
every turn, not only the one to act, and views are taken twice (a cached view must equal a fresh one)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from cassino.pettingzoo import env  # noqa: E402

#: (variant, env() arguments, games from seed 0, the digest recorded at commit 51a0f32)
CASES = [
    ("standard", {}, 3, "fbbfe490726974f1"),
    ("scopa", {}, 3, "f4d5043e5f703d57"),
    ("royal", {"players": 3, "observation": "information_state"}, 2, "3dd3f23e8b4524be"),
    ("standard", {"players": 4, "partners": True}, 2, "e8d17ced0919b557"),
    ("standard", {"whole_game": True, "max_hands": 2}, 1, "897cc8e54e06326b"),
    ("krypkasino", {}, 1, "5cae5aa113af5bf0"),
    ("south-african-casino", {}, 2, "b584cb8eefc0c94d"),
    ("kasino-misar", {}, 2, "febbc16290316b8d"),
    ("hungarian", {}, 2, "dcc128bd6d4b8d52"),
    ("swazi-casino", {}, 1, "26a662643d2c6571"),
    # Re-recorded when standard's raise took in only loose cards each worth the new value
    # (`build.raise_takes_in: cards`): a house rule of draw with `sets` gives the old 554043ac2aec2cef.
    ("draw", {}, 2, "dd4c0f6949cfbd0b"),
]


def _digest(variant: str, kwargs: dict, games: int, twice: bool = False) -> str:  # type: ignore[type-arg]
    e = env(variant=variant, **kwargs)
    h = hashlib.sha256()
    for seed in range(games):
        e.reset(seed=seed)
        rng = np.random.default_rng(100 + seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            h.update(f"{agent}|{reward!r}|{term}|{trunc}|{sorted(info.items())}".encode())
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            for other in e.agents:   # every seat's view, not only the one to act
                o = e.observe(other)
                if twice:   # (asked again: the same view, and the earlier arrays untouched)
                    again = e.observe(other)
                    assert np.array_equal(again["observation"], o["observation"])
                    assert np.array_equal(again["action_mask"], o["action_mask"])
                h.update(o["observation"].tobytes())
                h.update(o["action_mask"].tobytes())
            h.update(repr(sorted(e.rewards.items())).encode())
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return h.hexdigest()[:16]


@pytest.mark.parametrize("variant, kwargs, games, expected", CASES,
                         ids=[f"{v}-{'-'.join(map(str, k.values())) or 'default'}" for v, k, _, _ in CASES])
def test_seeded_games_see_what_they_saw_before(variant: str, kwargs: dict, games: int,  # type: ignore[type-arg]
                                               expected: str) -> None:
    assert _digest(variant, kwargs, games) == expected
    assert _digest(variant, kwargs, games, twice=True) == expected


def test_views_handed_out_are_the_callers_own() -> None:
    # The environment keeps the last position's tensor and each legal set's mask (issue 52): what it
    # hands out are copies, so changing them, or stepping on, leaves the next views as they were.
    e = env(variant="standard")
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    kept = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        kept.append((obs, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        again = e.observe(agent)
        obs["observation"][:] = 7
        obs["action_mask"][:] = 1
        fresh = e.observe(agent)
        assert fresh["observation"].tobytes() == again["observation"].tobytes() == kept[-1][1]
        assert fresh["action_mask"].tobytes() == again["action_mask"].tobytes() == kept[-1][2]
        obs["observation"][:] = np.frombuffer(kept[-1][1], np.float32)
        obs["action_mask"][:] = np.frombuffer(kept[-1][2], np.int8)
        e.step(int(rng.choice(np.flatnonzero(fresh["action_mask"]))))
    assert all(o["observation"].tobytes() == v and o["action_mask"].tobytes() == m for o, v, m in kept)


@pytest.mark.parametrize("x", [0, 5, 148, 149, -1, 2**70, True, 3.0, np.int64(7), np.int32(148), np.int64(149),
                               np.array(3), np.array([3]), "3", None])
def test_the_action_space_answers_as_gymnasiums_discrete(x: object) -> None:
    from gymnasium.spaces import Discrete
    space = env(variant="standard").action_space("player_0")
    assert isinstance(space, Discrete) and space == Discrete(149)
    assert space.contains(x) == Discrete(149).contains(x)

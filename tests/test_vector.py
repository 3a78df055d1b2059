"""Many games stepped together (``cassino.vector.VectorEnv``): game i plays exactly the PettingZoo
environment's game after ``reset(seed=s + i)`` given the same actions (observations, masks, rewards,
the end and the next game's start), the same seed gives the same batches, and bad batches are refused
whole, with no game moved."""

from __future__ import annotations

import numpy as np
import pytest

from cassino.apps.research.stepwise import IllegalStep, SetupError
from cassino.pettingzoo import raw_env
from cassino.vector import VectorEnv


def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def _aec_view(e: raw_env) -> tuple[int, np.ndarray, np.ndarray]:
    seat = e.state_.game.hand.turn
    obs = e.observe(e.possible_agents[seat])
    return seat, obs["observation"], obs["action_mask"]


@pytest.mark.parametrize("variant, kwargs", [
    ("standard", {}),
    ("scopa", {"observation": "information_state"}),
    ("royal", {"players": 3}),
])
def test_batched_games_are_the_pettingzoo_games_stepped_one_by_one(variant: str,
                                                                   kwargs: dict) -> None:  # type: ignore[type-arg]
    n = 3
    venv = VectorEnv(n, variant=variant, seed=40, **kwargs)
    obs, masks, to_play = venv.reset(seed=40)
    singles = [raw_env(variant=variant, **kwargs) for _ in range(n)]
    for i, e in enumerate(singles):
        e.reset(seed=40 + i)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(130):   # (past each game's end at least once: a 2-player hand is about 70 actions)
        for i, e in enumerate(singles):
            seat, o, m = _aec_view(e)
            assert to_play[i] == seat
            assert np.array_equal(obs[i], o) and np.array_equal(masks[i], m)
        actions = _random_actions(rng, masks)
        obs, masks, rewards, dones, truncated, to_play = venv.step(actions)
        for i, e in enumerate(singles):
            e.step(int(actions[i]))
            if e.state_.ended:
                assert dones[i] and not truncated[i]
                assert rewards[i].tolist() == pytest.approx(e.state_.returns())
                e.reset()   # (no seed: the game's generator goes on, as the batch's auto-reset)
                ended += 1
            else:
                assert not dones[i] and not rewards[i].any()
    assert ended >= n


def test_the_same_seed_gives_the_same_batches_and_a_seed_list_seeds_each_game() -> None:
    def run(seed: object) -> list[bytes]:
        venv = VectorEnv(2, seed=seed)   # type: ignore[arg-type]
        obs, masks, _ = venv.reset(seed=seed)   # type: ignore[arg-type]
        rng = np.random.default_rng(1)
        out = [obs.tobytes()]
        for _ in range(40):
            batch = venv.step(_random_actions(rng, masks))
            masks = batch.masks
            out.append(batch.observations.tobytes() + batch.rewards.tobytes())
        return out

    assert run(7) == run(7) == run([7, 8])
    assert run(7) != run(8)


def test_a_reset_with_no_seed_goes_on_from_each_games_generator_as_pettingzoos() -> None:
    """A reader of the documentation alone ran the module's example, `VectorEnv(64, seed=0)` then `reset()`, and got
    other games on every run: a reset with no seed drew fresh entropy. Now game i's next games are the PettingZoo
    environment's after `reset(seed=s + i)` and `reset()`, as the documentation says."""
    def start(venv: VectorEnv) -> bytes:
        obs, masks, to_play = venv.reset()
        return obs.tobytes() + masks.tobytes() + to_play.tobytes()

    assert start(VectorEnv(3, variant="royal", seed=5)) == start(VectorEnv(3, variant="royal", seed=5))
    venv = VectorEnv(3, variant="royal", seed=5)
    obs, masks, to_play = venv.reset()
    for i in range(3):
        e = raw_env(variant="royal")
        e.reset(seed=5 + i)
        e.reset()
        seat, o, m = _aec_view(e)
        assert to_play[i] == seat and np.array_equal(obs[i], o) and np.array_equal(masks[i], m)


def test_a_whole_game_cut_off_is_truncated() -> None:
    venv = VectorEnv(1, whole_game=True, max_hands=1, seed=3)
    obs, masks, _ = venv.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(200):
        batch = venv.step(_random_actions(rng, masks))
        masks = batch.masks
        if batch.dones[0]:
            break
    assert batch.dones[0] and batch.truncated[0]   # (one hand did not win the game: cut at max_hands)
    assert batch.masks[0].any()                   # (auto-reset: the next game's first turn)


@pytest.mark.parametrize("actions, says", [
    ([0, 0], "one per game, shape (3,)"),
    ([[0, 0, 0]], "shape (3,)"),
    ([0.5, 1.0, 2.0], "whole numbers"),
    (["a", "b", "c"], "whole numbers"),
    ([-1, 0, 0], "game 0: action -1 is out of range 0 to 148"),
    ([0, 0, 149], "out of range 0 to 148"),
    (None, "shape (3,)"),
])
def test_bad_batches_are_refused_whole(actions: object, says: str) -> None:
    venv = VectorEnv(3, seed=1)
    before = list(venv.games)
    with pytest.raises(IllegalStep, match=r"(?s).*" + says.replace("(", r"\(").replace(")", r"\)")):
        venv.step(actions)
    assert venv.games == before


def test_an_illegal_action_names_its_game_and_no_game_moves() -> None:
    venv = VectorEnv(3, seed=1)
    _, masks, _ = venv.reset(seed=1)
    actions = masks.argmax(axis=1)
    illegal = int(np.flatnonzero(masks[2] == 0)[0])
    actions[2] = illegal
    before = list(venv.games)
    with pytest.raises(IllegalStep, match=rf"game 2: action {illegal} \(.*\) is not legal now; legal: .*no game moved"):
        venv.step(actions)
    assert venv.games == before
    venv.step(masks.argmax(axis=1))   # (a legal batch still plays)
    assert venv.games != before


@pytest.mark.parametrize("kwargs, says", [
    ({"num_envs": 0}, "num_envs must be a whole number from 1"),
    ({"num_envs": 2.0}, "num_envs must be a whole number"),
    ({"num_envs": True}, "num_envs must be a whole number"),
    ({"num_envs": 2, "seed": [1]}, "1 seeds given for 2 games"),
    ({"num_envs": 2, "seed": -3}, "seed must be 0 or more"),
    ({"num_envs": 2, "seed": "7"}, "seed must be a whole number"),
    ({"num_envs": 2, "seed": [1, -1]}, "each seed must be a whole number 0 or more"),
    ({"num_envs": 2, "observation": "pixels"}, "observation must be one of"),
    ({"num_envs": 2, "players": 9}, "for 2 to 4 players, not 9"),
])
def test_bad_settings_are_refused(kwargs: dict, says: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(SetupError, match=says):
        VectorEnv(**kwargs)


def test_an_unknown_variant_is_refused_with_the_loaders_error() -> None:
    with pytest.raises(Exception) as info:
        VectorEnv(2, variant="no-such-variant")
    assert "no-such-variant" in str(info.value)


def test_a_vector_env_refuses_a_variant_that_is_no_text_and_a_render_mode_as_env_does() -> None:
    """A reader of the documentation alone: `VectorEnv(2, variant=None)` was told "no bundled variant or file named
    `None`" (env() says the parameter's type), and `render_mode="ansi"`, a PettingZoo parameter, was a bare
    TypeError."""
    from pathlib import Path

    for variant in (None, 3):
        with pytest.raises(SetupError, match="Wrong type for parameter variant. Expected type: str"):
            VectorEnv(2, variant=variant)  # type: ignore[arg-type]
    with pytest.raises(SetupError, match="a VectorEnv draws no table: render_mode must be None"):
        VectorEnv(2, render_mode="ansi")
    assert VectorEnv(2, variant=Path(__file__).parent.parent / "variants" / "royal.yaml").num_players == 2  # type: ignore[arg-type]

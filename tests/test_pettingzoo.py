"""Any rule file as a PettingZoo AEC environment: PettingZoo's API and seed tests for every
bundled variant, seeded resets that replay games, masks over the step-wise actions,
the terminal's drawing, and refused parameters."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cassino.apps.research.stepwise import IllegalStep, SetupError
from cassino.errors import RuleFileError
from cassino.pettingzoo import env, raw_env

from conftest import EXAMPLES, VARIANTS


def _quiet_api_test(e, cycles: int = 300) -> None:  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        # PettingZoo warns that dict observations (observation + action mask) are not plain
        # arrays; its own classic environments get the same warnings.
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=cycles)


@pytest.mark.parametrize("variant", VARIANTS)
def test_api_and_seed_tests_pass_for_every_bundled_variant(variant: str) -> None:
    _quiet_api_test(env(variant=variant))
    seed_test(lambda: env(variant=variant), num_cycles=100)


@pytest.mark.parametrize("kwargs", [
    {"variant": "standard", "players": 4, "partners": True},
    {"variant": "royal", "players": 3, "observation": "information_state"},
    {"variant": "standard", "whole_game": True, "max_hands": 2},
    {"variant": str(next(p for p in EXAMPLES if p.name == "hoyle-claiming.yaml")), "whole_game": True},
], ids=["partners", "three-information-state", "whole-game", "claiming"])
def test_api_test_passes_for_other_tables(kwargs: dict) -> None:  # type: ignore[type-arg]
    _quiet_api_test(env(**kwargs), cycles=2000)


def _play(e, seed: int, choose_seed: int) -> list:  # type: ignore[no-untyped-def,type-arg]
    """A whole episode with seeded random legal actions; what each agent saw."""
    e.reset(seed=seed)
    rng = np.random.default_rng(choose_seed)
    seen = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        seen.append((agent, obs["observation"].tobytes(), reward))
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


def test_observations_stay_in_their_box_where_scores_go_below_zero() -> None:
    # Kasino misär's tabbe takes 5 points from the player before a sweeper: scores fall below 0,
    # and the box must say so (its low bound was 0 everywhere; PettingZoo's own api_test, which
    # plays unseeded random moves, failed now and then on this variant).
    e = env(variant="kasino-misar")
    low = 0.0
    for seed in range(70):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            space = e.observation_space(agent)
            assert space.contains(obs), (seed, agent)
            low = min(low, float(obs["observation"][space["observation"].low < 0].min(initial=0.0)))
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert low < 0   # (some game went below 0: the check above saw a negative score)
    assert env(variant="standard").observation_space("player_0")["observation"].low.min() == 0


def test_seeded_resets_replay_the_game_and_other_seeds_deal_otherwise() -> None:
    e = env(variant="dominican")
    first = _play(e, 3, 0)
    assert _play(e, 3, 0) == first
    assert _play(env(variant="dominican"), 3, 0) == first
    assert _play(e, 4, 0)[0] != first[0]


def test_masks_and_rewards() -> None:
    e = env(variant="standard", players=3)
    e.reset(seed=1)
    agent = e.agent_selection
    obs, *_ = e.last()
    mask = obs["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (e.action_space(agent).n,) and mask.sum() >= 1
    others = [a for a in e.agents if a != agent]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalStep, match="its action mask"):
        e.step(illegal)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert abs(sum(totals.values())) < 1e-9 and any(totals.values())


def test_whole_games_cut_off_at_max_hands_are_truncated() -> None:
    e = env(variant="standard", whole_game=True, max_hands=1)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    ends = set()
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            ends.add((terminated, truncated))
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ends == {(False, True)}


def test_ansi_render_draws_the_table_as_the_terminal_does() -> None:
    e = env(variant="standard", render_mode="ansi")
    e.reset(seed=5)
    text = e.render()
    assert isinstance(text, str) and "standard — hand 1, deal 1" in text and "your hand:" in text
    assert "to play" in text and "\x1b[" in text          # ANSI colours, as a terminal shows them
    _play(e, 5, 0)
    end = e.render()
    assert "hand 1, deal 6" in end and "over; rewards player_0" in end   # the hand played, not the next one
    quiet = env(variant="standard")
    quiet.reset(seed=5)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert quiet.render() is None


@pytest.mark.parametrize("kwargs,error,message", [
    ({"variant": "standard", "players": 9}, SetupError, "standard is for 2 to 4 players, not 9"),
    ({"variant": "standard", "players": "2"}, SetupError, "Wrong type for parameter players"),
    ({"variant": "standard", "render_mode": "human"}, SetupError, "render_mode must be None or 'ansi'"),
    ({"variant": "standard", "observation": "everything"}, SetupError, "observation must be one of"),
    ({"variant": "nosuch"}, RuleFileError, "no bundled variant or file named `nosuch`"),
    ({"variant": "standard", "seats": 2}, TypeError, "seats"),
])
def test_bad_parameters_are_refused(kwargs: dict, error: type, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(error, match=message):
        raw_env(**kwargs)


def _fields(e):  # type: ignore[no-untyped-def]
    return (list(e.agents), e.agent_selection, dict(e.rewards), dict(e._cumulative_rewards),
            dict(e.terminations), dict(e.truncations), e.num_agents)


def test_the_wrappers_read_what_pettingzoos_own_wrappers_read_and_refuse_what_they_refuse() -> None:
    # env() wraps in subclasses of PettingZoo's two wrappers that read the hot fields through properties
    # (the speed of issue 52). Side by side with PettingZoo's own wrappers around the same rules: the same
    # errors before reset, the same fields at every step of a seeded game, the same bounds assertion.
    from pettingzoo.utils import wrappers

    ours = env(variant="standard", players=3)
    theirs = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(variant="standard",
                                                                                      players=3)))
    assert isinstance(ours, wrappers.OrderEnforcingWrapper)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents"):
        messages = []
        for e in (ours, theirs):
            with pytest.raises(AttributeError) as caught:
                getattr(e, name)
            messages.append(str(caught.value))
        assert messages[0] == messages[1] == f"{name} cannot be accessed before reset"
    for e in (ours, theirs):
        with pytest.raises(AttributeError, match="private attribute '_seats' is prohibited"):
            e._seats
        with pytest.raises(AssertionError):
            e.reset(seed=4)
            e.step(10 ** 6)   # out of the action space: PettingZoo's bounds wrapper asserts (ours: an IllegalStep too)
    ours.reset(seed=5)
    theirs.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    for agent, other in zip(ours.agent_iter(), theirs.agent_iter()):
        assert agent == other and _fields(ours) == _fields(theirs)
        obs, reward, terminated, truncated, info = ours.last()
        obs2, reward2, terminated2, truncated2, info2 = theirs.last()
        assert (reward, terminated, truncated, info) == (reward2, terminated2, truncated2, info2)
        assert (obs["observation"] == obs2["observation"]).all() and (obs["action_mask"] == obs2["action_mask"]).all()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        ours.step(action)
        theirs.step(action)
        steps += 1
    assert steps > 20 and not ours.agents and not theirs.agents
    # a second game from the same wrapper (reset again) reads the new game's fields
    ours.reset(seed=6)
    theirs.reset(seed=6)
    assert _fields(ours) == _fields(theirs) and ours.agents


@pytest.mark.parametrize("action", [149, -1, None, 1.0, "3"])
def test_an_action_out_of_the_space_through_env_is_an_illegal_step_naming_the_legal_ones(action: object) -> None:
    """The documentation promises IllegalStep (a ValueError) naming the legal actions; through `env()` an action
    out of the space met PettingZoo's bare "AssertionError: action is not in action space" (a reader of the
    documentation alone). The environment is unchanged, and IllegalStep is imported from where the document
    sends a reader."""
    from cassino.pettingzoo import IllegalStep as public
    from cassino.vector import IllegalStep as batched
    assert public is batched is IllegalStep
    e = env(variant="standard")
    e.reset(seed=3)
    before = e.unwrapped.state_
    legal = list(before.legal)
    with pytest.raises(public, match=rf"cannot play action .*: an action is a whole number from 0 to 148, one of "
                                     rf"the legal ones in its action mask: \[{legal[0]}"):
        e.step(action)   # type: ignore[arg-type]
    assert e.unwrapped.state_ is before
    e.step(legal[0])

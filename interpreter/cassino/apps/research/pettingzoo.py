"""Any rule file as a PettingZoo AEC environment.

    from cassino.pettingzoo import env
    e = env(variant="royal", players=3, render_mode="ansi")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` ... one per seat. Actions are the step-wise encoding of
``cassino.apps.research.stepwise`` (the same as the OpenSpiel game's): a move takes one or
more steps, and the same agent acts until its move is complete. Each observation
is a dict: ``observation``, the seat's view as a float32 vector (``cassino.apps.research.views``:
the position, or with ``observation="information_state"`` also the cards each seat
has played this hand), and ``action_mask`` (int8, ones at the legal actions of the
agent to act; zeros for the others). Chance (the shuffle) is drawn from the
environment's generator, so ``reset(seed=s)`` followed by the same actions replays
the same game. Rewards come at the end: the OpenSpiel game's returns (fewer points
the better where the lowest total wins, as in Kasino misär). A whole game
cut off at ``max_hands`` ends in truncation rather than termination. An illegal
action raises ``IllegalStep`` (a ValueError) naming the legal ones.

``render_mode="ansi"``: ``render()`` returns the table drawn as ``cassino play``
draws it (rich's ANSI colours), from the seat to act.
"""

from __future__ import annotations

import io
from dataclasses import replace
from operator import attrgetter
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.console import Console

from ...engine.core import bits
from ..game.play import Session
from ..game.records import Record
from .stepwise import IllegalStep, PARAMETERS, Setup, SetupError, Step, always_partners, table_for
from .views import Kind, Layout

OBSERVATIONS = ("observation", "information_state")


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order and bounds checks (what most code wants)."""
    return OrderEnforcing(AssertOutOfBounds(raw_env(**kwargs)))


#: The environment's fields an agent loop reads at every step (``agent_iter``, ``last``, the wrappers' own
#: ``step``). PettingZoo's wrappers forward them from ``__getattr__``, which Python calls only after the
#: ordinary lookup has failed and made its ``AttributeError``: some twenty of those a step, as much time as
#: the game's own step. The wrappers below read them through properties instead.
_FORWARDED = ("agents", "agent_selection", "rewards", "_cumulative_rewards", "terminations", "truncations",
              "infos")


def _forwarded(name: str, ordered: bool) -> property:
    """A property reading ``name`` from the wrapped environment (``ordered``: only after ``reset``, as
    PettingZoo's order-enforcing wrapper allows). Where the field is missing (or not yet allowed) it raises
    ``AttributeError``, and Python then asks the wrapper's ``__getattr__``, which says what PettingZoo's own
    wrapper says."""
    doc = f"The wrapped environment's ``{name}``."
    if not ordered:
        return property(attrgetter(f"env.{name}"), doc=doc)

    def get(self: Any) -> Any:
        if not self._has_reset:
            raise AttributeError(name)
        return getattr(self.env, name)
    get.__name__ = name
    return property(get, doc=doc)


class ActionOutOfSpace(IllegalStep, AssertionError):
    """An action out of the action space, refused by :class:`AssertOutOfBounds`: an :class:`IllegalStep` naming the
    legal actions, as the documentation promises, and the ``AssertionError`` PettingZoo's bounds wrapper raises, for
    code that catches that."""


class AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's bounds check, reading the environment's fields without a failed lookup each."""

    def step(self, action: Any) -> None:
        """PettingZoo's check, said as the environment says an illegal action: an action out of the space (a
        number out of range, a float, a string, None for an agent still playing) raises :class:`ActionOutOfSpace`
        naming the legal ones, not a bare ``AssertionError: action is not in action space`` (a reader of the
        documentation alone, which promises IllegalStep, met that one). The environment is unchanged."""
        agent = self.env.agent_selection
        dead = self.env.terminations[agent] or self.env.truncations[agent]
        if not (action is None and dead) and not self.action_space(agent).contains(action):
            legal = list(self.unwrapped.state_.legal)
            raise ActionOutOfSpace(f"{agent} cannot play action {action!r}: an action is a whole number from 0 to "
                              f"{self.action_space(agent).n - 1}, one of the legal ones in its action mask: {legal}")
        self.env.step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The wrapped environment's ``last`` (this wrapper checks actions only: it changes nothing
        ``last`` reads), so each field is read where it lives, not through this wrapper."""
        return self.env.last(observe)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order check (the same errors before ``reset``), reading the environment's fields
    without a failed lookup each. Once reset it stays reset (PettingZoo's wrapper never clears
    ``_has_reset``), so ``reset`` makes it a :class:`_Reset`, whose fields need no check at all."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        self.__class__ = _Reset


class _Reset(OrderEnforcing):
    """An :class:`OrderEnforcing` wrapper that has been reset: the fields are read with no check, and
    ``last`` and ``observe`` are the wrapped environment's (the only check they had is that reset)."""

    def observe(self, agent: str) -> Any:
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return self.env.last(observe)


for _name in _FORWARDED:
    setattr(AssertOutOfBounds, _name, _forwarded(_name, False))
    setattr(OrderEnforcing, _name, _forwarded(_name, True))
    setattr(_Reset, _name, _forwarded(_name, False))


class Actions(spaces.Discrete):
    """``Discrete(n)`` whose ``contains`` says yes to a plain int in range without numpy's scalars
    (PettingZoo's bounds wrapper asks at every step); anything else is Discrete's to judge."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._limit = int(n)

    def contains(self, x: Any) -> bool:
        if type(x) is int and 0 <= x < self._limit:
            return True
        return super().contains(x)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped class
    metadata = {"render_modes": ["ansi"], "name": "cassino_v0", "is_parallelizable": False}

    def __init__(self, variant: str = "standard", players: int | None = None, partners: bool | None = None,
                 whole_game: bool = False, payoff: str = "points", max_hands: int = PARAMETERS["max_hands"],
                 dealer: int = 0, render_mode: str | None = None, observation: str = "observation") -> None:
        super().__init__()
        if isinstance(variant, Path):
            variant = str(variant)
        params = {"variant": variant, "players": 0 if players is None else players,
                  "partners": False if partners is None else partners,
                  "whole_game": whole_game, "payoff": payoff, "max_hands": max_hands, "dealer": dealer}
        setup = Setup.from_params(params)
        if partners is None:   # not given: the variant's way (partners where its seats say always)
            setup = replace(setup, partners=always_partners(setup))
        self.table = table_for(setup)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SetupError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if observation not in OBSERVATIONS:
            raise SetupError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        self.render_mode = render_mode
        self.layout = Layout(self.table, Kind(perfect_recall=observation == "information_state"))
        self.possible_agents = [f"player_{seat}" for seat in range(self.table.players)]
        self._seats = {a: seat for seat, a in enumerate(self.possible_agents)}
        size = self.table.encoding.size
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=self.layout.low, high=self.layout.high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: Actions(size) for a in self.possible_agents}
        self._masks: dict[tuple[int, ...], np.ndarray] = {}   # (observe's, by the legal actions)
        self._rewarded = False
        self.np_random, _ = seeding.np_random(None)
        self.state_: Step = self.table.initial

    def __str__(self) -> str:
        return self.metadata["name"]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ play
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False   # (some reward not 0: the next step sets them to 0 again)
        self.state_ = self._deal(self.table.initial)
        self.agent_selection = self._agent(self.state_)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self.state_.legal:
            raise IllegalStep(f"{agent} cannot play action {action!r} now; the legal actions are the ones in "
                              f"its action mask: {list(self.state_.legal)}")
        self._cumulative_rewards[agent] = 0.0
        step = self.state_.apply(int(action))
        if step.deal is not None:
            step = self._deal(step)
        self.state_ = step
        if step.ended:
            returns = step.returns()
            self.rewards = {a: float(returns[seat]) for seat, a in enumerate(self.possible_agents)}
            cut = step.ended == "cut"
            self.terminations = {a: not cut for a in self.agents}
            self.truncations = {a: cut for a in self.agents}
            self._accumulate_rewards()
            self._rewarded = True
        elif self._rewarded:   # (rewards come only at the end: until then they stay 0, nothing to add)
            self.rewards = {a: 0.0 for a in self.agents}
            self._rewarded = False
        self.agent_selection = self.possible_agents[step.game.hand.turn] if not step.ended else self._agent(step)

    def _deal(self, step: Step) -> Step:
        """Chance's turns, drawn from the environment's generator."""
        draw = self.np_random.integers
        while step.deal is not None:
            left = bits(step.deal.remaining)
            step = step.apply(left[int(draw(len(left)))])
        return step

    def _agent(self, step: Step) -> str:
        if step.ended:
            return self.agents[0] if self.agents else self.possible_agents[0]
        return self.possible_agents[step.game.hand.turn]

    # ------------------------------------------------------------------ seeing
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view and action mask, new arrays each time (the view's position is kept
        from the last call while only the move being chosen changes: ``Layout.observe``; the masks
        by their legal actions)."""
        seat = self._seats[agent]
        step = self.state_
        if not step.ended and step.to_play == seat:
            legal = step.legal
            mask = self._masks.get(legal)
            if mask is None:
                if len(self._masks) >= 4096:
                    self._masks.clear()
                mask = self._masks[legal] = np.zeros(self.table.encoding.size, np.int8)
                mask[list(legal)] = 1
            mask = mask.copy()
        else:
            mask = np.zeros(self.table.encoding.size, np.int8)
        return {"observation": self.layout.observe(step, seat), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; make the environment with "
                                  "render_mode='ansi'")
            return None
        return draw(self.state_, self.possible_agents)

    def close(self) -> None:
        pass


def draw(step: Step, names: list[str]) -> str:
    """The table as ``cassino play`` draws it, from the seat to act, with the move being chosen."""
    t = step.table
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="standard", width=100, highlight=False,
                      soft_wrap=True)
    game = step.game.with_(hand=step.view_hand(), hand_no=step.hand_no)
    record = Record(t.rules, 0, t.players, t.partners, list(names), dealer=t.setup.dealer, source=t.source)
    session = Session(game, record, {}, Path("unused.json"), console)
    session.last_moves = {entry[1]: entry[2] for entry in step.log if entry[0] == "move"}
    seat = step.to_play if step.to_play is not None else 0
    session.show(seat)
    if step.to_play is not None:
        console.print(f"{names[seat]} (seat {seat}) to play")
    if step.prefix:
        console.print("choosing: " + ", ".join(step.describe(a) for a in step.prefix))
    if step.ended:
        console.print("over; rewards " + "  ".join(f"{n} {r:+g}" for n, r in zip(names, step.returns())))
    return out.getvalue()

"""Many games stepped together: the batched interface reinforcement-learning libraries expect.

    from cassino.vector import VectorEnv
    venv = VectorEnv(64, variant="standard", seed=0)
    obs, masks, to_play = venv.reset()
    while True:
        actions = [rng.choice(np.flatnonzero(m)) for m in masks]        # one action per game
        obs, masks, rewards, dones, truncated, to_play = venv.step(actions)

Each game is the PettingZoo environment's (``cassino.pettingzoo``): the same step-wise
actions, the same observations (the view of the seat to act, ``observation`` or
``information_state``) and action masks, chance drawn the same way from each game's own
generator. So game ``i`` of ``VectorEnv(n, seed=s)`` is the PettingZoo environment after
``reset(seed=s + i)``, given the same actions, and a finished game starts again as that
environment's ``reset()`` does (no new seed: its generator goes on). Nothing here needs
PettingZoo or OpenSpiel, only numpy.

``step(actions)`` takes one action per game (the seat to act in each) and returns a
:class:`Batch`: ``observations`` (games x the view's size, float32), ``masks`` (games x
actions, int8), ``rewards`` (games x seats, float32: every seat's return where a game
ended in this call, zeros elsewhere), ``dones`` and ``truncated`` (games, bool: a whole
game cut off at ``max_hands`` is truncated), ``to_play`` (games: whose view the
observation is, the seat to act next). Where a game ended, the observation, mask and
seat are already those of its next game (auto-reset); its reward is in ``rewards``.

The actions are checked before any game moves: a batch of the wrong size or type, an
action out of range or not legal in its game is refused whole with :class:`IllegalStep`
(a ValueError) naming the game and the legal actions, and no game has moved.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple, Sequence

import numpy as np

from ...engine.core import bits
from .stepwise import PARAMETERS, IllegalStep, Setup, SetupError, Step, Table, always_partners, table_for
from .views import Kind, Layout

OBSERVATIONS = ("observation", "information_state")
#: The most games one VectorEnv steps (each keeps its own state and view).
MAX_ENVS = 1_000_000


class Batch(NamedTuple):
    """What :meth:`VectorEnv.step` returns (see the module's docstring)."""

    observations: np.ndarray
    masks: np.ndarray
    rewards: np.ndarray
    dones: np.ndarray
    truncated: np.ndarray
    to_play: np.ndarray


class VectorEnv:
    """``num_envs`` games of one table, stepped together (see the module's docstring)."""

    def __init__(self, num_envs: int, variant: str = "standard", players: int | None = None,
                 partners: bool | None = None, whole_game: bool = False, payoff: str = "points",
                 max_hands: int = PARAMETERS["max_hands"], dealer: int = 0, observation: str = "observation",
                 seed: int | Sequence[int] | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or not 1 <= num_envs <= MAX_ENVS:
            raise SetupError(f"num_envs must be a whole number from 1 to {MAX_ENVS:,}, not {num_envs!r}")
        params = {"variant": str(variant), "players": 0 if players is None else players,
                  "partners": False if partners is None else partners,
                  "whole_game": whole_game, "payoff": payoff, "max_hands": max_hands, "dealer": dealer}
        setup = Setup.from_params(params)
        if partners is None:   # not given: the variant's way, as the PettingZoo environment
            setup = replace(setup, partners=always_partners(setup))
        if observation not in OBSERVATIONS:
            raise SetupError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        self.table: Table = table_for(setup)
        self.num_envs = int(num_envs)
        kind = Kind(perfect_recall=observation == "information_state")
        # One layout a game: each keeps its game's last position (``Layout.observe``).
        self._layouts = [Layout(self.table, kind) for _ in range(self.num_envs)]
        self.observation_size = self._layouts[0].size
        self.num_actions = self.table.encoding.size
        self.num_players = self.table.players
        self.low, self.high = self._layouts[0].low, self._layouts[0].high
        self.games: list[Step] = []
        self._rngs: list[np.random.Generator] = []
        self.reset(seed)

    # ------------------------------------------------------------------ play
    def reset(self, seed: int | Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every game starts again: ``seed`` an int (game i seeded ``seed + i``), one seed a game,
        or None (fresh entropy). Returns the observations, masks and seats to act."""
        self._rngs = [np.random.default_rng(s) for s in self._seeds(seed)]
        initial = self.table.initial
        self.games = [self._deal(initial, rng) for rng in self._rngs]
        obs, masks, to_play = self._views()
        return obs, masks, to_play

    def step(self, actions: Any) -> Batch:
        """One action for each game (see the module's docstring)."""
        wanted = self._check(actions)
        n_players = self.num_players
        rewards = np.zeros((self.num_envs, n_players), np.float32)
        dones = np.zeros(self.num_envs, bool)
        truncated = np.zeros(self.num_envs, bool)
        games = self.games
        initial = self.table.initial
        for i, action in enumerate(wanted):
            rng = self._rngs[i]
            step = self._deal(games[i].apply(action), rng)
            if step.ended:
                rewards[i] = step.returns()
                dones[i] = True
                truncated[i] = step.ended == "cut"
                step = self._deal(initial, rng)
            games[i] = step
        obs, masks, to_play = self._views()
        return Batch(obs, masks, rewards, dones, truncated, to_play)

    # ------------------------------------------------------------------ parts
    def _seeds(self, seed: int | Sequence[int] | None) -> list[Any]:
        n = self.num_envs
        if seed is None:
            return [None] * n
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            if seed < 0:
                raise SetupError(f"seed must be 0 or more, not {seed}")
            return [int(seed) + i for i in range(n)]
        if isinstance(seed, (str, bytes)) or not isinstance(seed, Sequence):
            raise SetupError(f"seed must be a whole number, one per game, or None; not {seed!r}")
        if len(seed) != n:
            raise SetupError(f"{len(seed)} seeds given for {n} games: give one seed a game, or one whole number")
        for s in seed:
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0:
                raise SetupError(f"each seed must be a whole number 0 or more, not {s!r}")
        return [int(s) for s in seed]

    @staticmethod
    def _deal(step: Step, rng: np.random.Generator) -> Step:
        """Chance's turns, drawn from the game's generator (as the PettingZoo environment draws them)."""
        while step.deal is not None:
            left = bits(step.deal.remaining)
            step = step.apply(left[int(rng.integers(len(left)))])
        return step

    def _check(self, actions: Any) -> list[int]:
        """The actions as ints, each in range and legal in its game; IllegalStep otherwise (no game moved)."""
        n = self.num_envs
        try:
            arr = np.asarray(actions)
        except (TypeError, ValueError) as e:   # (ragged nested lists)
            raise IllegalStep(f"actions must be {n} whole numbers, one per game: {e}") from None
        if arr.shape != (n,):
            raise IllegalStep(f"actions must be one per game, shape ({n},), not shape {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise IllegalStep(f"actions must be whole numbers (action ids 0 to {self.num_actions - 1}), "
                              f"not {arr.dtype} values")
        wanted = arr.tolist()
        for i, action in enumerate(wanted):
            if not 0 <= action < self.num_actions:
                raise IllegalStep(f"game {i}: action {action} is out of range 0 to {self.num_actions - 1}; "
                                  f"no game moved")
        for i, (action, step) in enumerate(zip(wanted, self.games)):
            if action not in step.legal:
                words = ", ".join(f"{a} ({step.describe(a)})" for a in step.legal)
                raise IllegalStep(f"game {i}: action {action} ({step.describe(action)}) is not legal now; "
                                  f"legal: {words}; no game moved")
        return wanted

    def _views(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n, size = self.num_envs, self.num_actions
        obs = np.empty((n, self.observation_size), np.float32)
        masks = np.zeros((n, size), np.int8)
        to_play = np.zeros(n, np.int64)
        ones: list[int] = []
        for i, (step, layout) in enumerate(zip(self.games, self._layouts)):
            seat = step.game.hand.turn
            to_play[i] = seat
            layout.observe(step, seat, obs[i])
            at = i * size
            ones += [at + a for a in step.legal]
        masks.reshape(-1)[ones] = 1
        return obs, masks, to_play

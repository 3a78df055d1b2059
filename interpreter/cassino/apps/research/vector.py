"""Many games stepped together: the batched interface reinforcement-learning libraries expect.

    import numpy as np
    from cassino.vector import VectorEnv
    rng = np.random.default_rng(0)
    venv = VectorEnv(64, variant="standard", seed=0)
    obs, masks, to_play = venv.reset()
    for _ in range(1000):
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
from pathlib import Path
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
                 seed: int | Sequence[int] | None = None, render_mode: str | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or not 1 <= num_envs <= MAX_ENVS:
            raise SetupError(f"num_envs must be a whole number from 1 to {MAX_ENVS:,}, not {num_envs!r}")
        if render_mode is not None:   # (PettingZoo's parameter, taken so that it is refused in words)
            raise SetupError(f"a VectorEnv draws no table: render_mode must be None, not {render_mode!r} (one game "
                             f"is drawn by env(render_mode='ansi'))")
        # (a path as env() takes it; anything else but text refused as env() refuses it, not made a name: a reader of
        # the documentation alone was told "no bundled variant or file named `None`")
        params = {"variant": str(variant) if isinstance(variant, Path) else variant,
                  "players": 0 if players is None else players,
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
        self._layout = layout = Layout(self.table, kind)
        self.observation_size = layout.size
        self.num_actions = self.table.encoding.size
        self.num_players = self.table.players
        self.low, self.high = layout.low, layout.high
        # Each game's last position (its view without the move being chosen) and what it was of.
        self._bases = np.zeros((self.num_envs, layout.size), np.float32)
        self._kept: list[tuple[Any, ...] | None] = [None] * self.num_envs
        self._history = "history" in layout._at
        # The move being chosen is marked in the seat to act's view, at ``move``'s places: by the batch
        # (the seat of a VectorEnv's view is always the seat to act); other views one game at a time.
        self._move_at = layout._at["move"] if kind.private == "single" and "chosen_builds" not in layout._at \
            else None
        self._fill_move = "move" in layout._at
        self.games: list[Step] = []
        self._rngs: list[np.random.Generator] = []
        self.reset(seed)

    # ------------------------------------------------------------------ play
    def reset(self, seed: int | Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every game starts again: ``seed`` an int (game i seeded ``seed + i``), one seed a game,
        or None: each game's generator goes on, as the PettingZoo environment's ``reset()`` (fresh
        entropy where none was seeded yet). Returns the observations, masks and seats to act.

        (A reader of the documentation alone found ``VectorEnv(64, seed=0)`` then ``reset()``, the module's
        example, dealt other games on every run: a reset with no seed drew fresh entropy.)"""
        if seed is not None or not self._rngs:
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
        rngs = self._rngs
        deal = self._deal
        for i, action in enumerate(wanted):
            step = games[i].apply(action)
            if step.deal is not None:
                step = deal(step, rngs[i])
            if step.ended:
                rewards[i] = step.returns()
                dones[i] = True
                truncated[i] = step.ended == "cut"
                step = deal(initial, rngs[i])
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
        if isinstance(seed, np.ndarray) and seed.ndim == 1 and seed.dtype.kind in "iu":
            # (One seed a game as numpy gives them, ``np.arange(n)``: an audit found it refused, "seed must be a
            # whole number, one per game", as not a Sequence.)
            seed = seed.tolist()
        if isinstance(seed, (str, bytes)) or not isinstance(seed, Sequence):
            raise SetupError(f"seed must be a whole number, one a game (a list, tuple or 1-D integer array), or None; "
                             f"not {seed!r}")
        if len(seed) != n:
            raise SetupError(f"{len(seed)} seeds given for {n} games: give one seed a game, or one whole number")
        for s in seed:
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0:
                raise SetupError(f"each seed must be a whole number 0 or more, not {s!r}")
        return [int(s) for s in seed]

    @staticmethod
    def _deal(step: Step, rng: np.random.Generator) -> Step:
        """Chance's turns, drawn from the game's generator (as the PettingZoo environment draws them:
        each card an index into the cards left, in deck order). A deal's draws are made in one call:
        the k-th of m cards is drawn from one card fewer than the one before, and numpy's generator
        gives an array of bounds the numbers it gives them one call at a time."""
        while step.deal is not None:
            d = step.deal
            left = bits(d.remaining)
            m = len(d.slots) - len(d.chosen)
            n = len(left)
            if m > 1:   # (the cards are among those left, each once: no check needed)
                step = step.deal_rest([left.pop(r) for r in rng.integers(0, _BOUNDS[n - m + 1:n + 1][::-1]).tolist()])
            else:
                step = step.deal_rest([left[int(rng.integers(n))]])
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
        if arr.min() < 0 or arr.max() >= self.num_actions:
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
        """Every game's observation, mask and seat to act. Each game's position (the view without the
        move being chosen) is kept while its position is the same (within a move only the actions
        chosen so far change); those that changed are written as the bits of one integer each
        (``Layout._position_bits``), unpacked together in one numpy call."""
        n, size = self.num_envs, self.num_actions
        layout = self._layout
        kept = self._kept
        bases = self._bases
        changed: list[int] = []
        packed: list[bytes] = []
        places: list[int] = []
        counts: list[float] = []
        ones: list[int] = []
        width = layout.size
        nbytes = layout._bytes
        position_bits = layout._position_bits
        seats: list[int] = []
        for i, step in enumerate(self.games):
            game = step.game
            seat = game.hand.turn
            seats.append(seat)
            key = kept[i]
            if key is None or key[0] is not game or key[1] is not step.deal \
                    or key[2] is not step.finished or key[3] != step.ended or key[4] != seat:
                kept[i] = (game, step.deal, step.finished, step.ended, seat)
                bits_, at, got = position_bits(step, seat)
                changed.append(i)
                packed.append(bits_.to_bytes(nbytes, "little"))
                row = i * width
                places += [row + k for k in at]
                counts += got
            at = i * size
            ones += [at + a for a in step.legal]
        if changed:
            fresh = np.unpackbits(np.frombuffer(b"".join(packed), np.uint8).reshape(len(changed), nbytes),
                                  axis=1, count=width, bitorder="little")
            bases[changed] = fresh
            if places:
                bases.reshape(-1)[places] = counts
            if self._history:
                for i in changed:
                    step = self.games[i]
                    layout._history(step, seats[i], layout.views_of(bases[i])["history"])
        obs = bases.copy()
        # The move being chosen: its actions so far, in the view of the seat choosing it.
        moving = self._move_at
        if moving is not None:
            flat = obs.reshape(-1)
            marks: list[int] = []
            for i, step in enumerate(self.games):
                if step.prefix:
                    at = i * width + moving
                    marks += [at + a for a in step.prefix]
            if marks:
                flat[marks] = 1
        elif self._fill_move:
            for i, step in enumerate(self.games):
                if step.prefix:
                    layout._fill_move(step, seats[i], obs[i], None)
        masks = np.zeros((n, size), np.int8)
        masks.reshape(-1)[ones] = 1
        return obs, masks, np.array(seats, np.int64)


#: The bounds of a deal's draws (``VectorEnv._deal``): 1, 2, 3, ... (sliced and reversed).
_BOUNDS = np.arange(0, 1025, dtype=np.int64)

"""Any rule file as an OpenSpiel game, registered as ``python_cassino``.

    import pyspiel
    import cassino.openspiel                      # registers the game
    game = pyspiel.load_game("python_cassino", {"variant": "royal", "players": 3})

Parameters (``stepwise.PARAMETERS``): ``variant`` (a bundled name or a rule file's
path; default ``standard``), ``players`` (0: the variant's smallest), ``partners``,
``whole_game`` (False: one hand; True: hands until the game is won, cut off after
``max_hands``), ``payoff`` and ``dealer``. Unknown names and wrong types are refused
as OpenSpiel refuses them; values out of range get a message that says what is
allowed.

The game is sequential, with explicit chance nodes (one per card dealt), imperfect
information, and zero-sum terminal returns. With ``payoff="points"`` (the default)
a seat's return is its side's points (this hand's, or the game's final score) minus
the other sides' average, negated where the lowest total wins (``game.goal: lowest``,
Kasino misär, Krypkasino: every point a penalty, so fewer is better); with
``payoff="win"`` the winning side's seats get +1 (2 for a lurch) and the others share
the loss (one hand's winner: the side alone with the most points, or the fewest). Actions are the step-wise encoding of
``cassino.apps.research.stepwise``: every legal move is one increasing sequence of actions.

Information-state and observation strings and tensors come from
``cassino.apps.research.views`` (OpenSpiel's IIGObservationType selects the kind).
``state.resample_from_infostate`` deals the cards a seat cannot see afresh,
consistent with every play so far, which is what OpenSpiel's IS-MCTS needs.
"""

from __future__ import annotations

import numbers
import random
from typing import Any

import pyspiel

from ...engine.game import Game
from ...engine.moves import Move
from ...engine.state import HandState
from ...errors import CassinoError
from .resampling import resample
from .stepwise import PARAMETERS, IllegalStep, Setup, Step, Table, table_for
from .views import Kind, Layout

SHORT_NAME = "python_cassino"

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Cassino (any cassino rule file)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)

#: A whole game (``whole_game=True``) offers no information-state tensor: its information state is the
#: record of every hand so far (the string has it all), and a tensor of a hundred hands' histories would be
#: millions of numbers; one that kept only this hand's would let two information states share a tensor.
#: Its observation tensor (the position now, scores included) is there as for a single hand.
GAME_TYPE_WHOLE_GAME = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name=GAME_TYPE.long_name,
    dynamics=GAME_TYPE.dynamics,
    chance_mode=GAME_TYPE.chance_mode,
    information=GAME_TYPE.information,
    utility=GAME_TYPE.utility,
    reward_model=GAME_TYPE.reward_model,
    max_num_players=GAME_TYPE.max_num_players,
    min_num_players=GAME_TYPE.min_num_players,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)

_PRIVATE = {
    pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
    pyspiel.PrivateInfoType.NONE: "none",
    pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
}


class GameParameterError(pyspiel.SpielError, CassinoError):
    """A parameter OpenSpiel let through whose value cannot make a game (a SpielError, like its own)."""


class CassinoGame(pyspiel.Game):
    """One variant, seat count and payoff: see the module's docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        try:
            table = table_for(Setup.from_params(params))
        except CassinoError as e:
            raise GameParameterError(f"{SHORT_NAME}: {e}") from None
        info = pyspiel.GameInfo(
            num_distinct_actions=table.encoding.size,
            max_chance_outcomes=table.n_cards,
            num_players=table.players,
            min_utility=-table.utility,
            max_utility=table.utility,
            utility_sum=0.0,
            max_game_length=table.max_steps,
        )
        kind = GAME_TYPE_WHOLE_GAME if table.setup.whole_game else GAME_TYPE
        super().__init__(kind, info, table.setup.params())
        self.table: Table = table

    def new_initial_state(self) -> "CassinoState":
        return CassinoState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "CassinoObserver":
        return CassinoObserver(self.table, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def max_chance_nodes_in_history(self) -> int:
        return self.table.max_chance


class CassinoState(pyspiel.State):
    """A state of the game. Its one attribute is an immutable ``Step``, so clones are free."""

    def __init__(self, game: CassinoGame) -> None:
        super().__init__(game)
        self.step: Step = game.table.initial

    # ------------------------------------------------------------------ OpenSpiel's API
    def current_player(self) -> int:
        script = self.__dict__.get("_script")
        if script is not None:
            return script[1][script[2]]
        s = self.step
        if s.ended:
            return pyspiel.PlayerId.TERMINAL
        if s.deal is not None:
            return pyspiel.PlayerId.CHANCE
        return s.game.hand.turn

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.step.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.step.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        script = self.__dict__.get("_script")
        if script is not None:
            script[2] += 1
            return
        self.step = self.step.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self.step.deal is None:
            return f"deal {self.step.table.engine.deck.cards[action]}"
        return self.step.describe(action)

    def is_terminal(self) -> bool:
        return self.step.ended != ""

    def returns(self) -> list[float]:
        return self.step.returns()

    def __str__(self) -> str:
        return _FULL_VIEW(self.step.table).text(self.step, 0)

    # ------------------------------------------------------------------ search
    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "CassinoState":
        """A state ``player_id`` cannot tell from this one, its hidden cards dealt afresh.

        The cards other seats hold are redealt from everything ``player_id`` has not
        seen, consistent with every play so far (``resampling.resample``: uniform draws,
        then a complete backtracking search, so a redeal is always found).
        ``probability_sampler`` seeds the draw: a ``random.Random`` is used as it is; a numpy
        ``Generator`` or ``RandomState`` (what OpenSpiel's Python IS-MCTS holds) and OpenSpiel's own
        sampler (a callable giving floats in [0, 1)) each give one number that seeds it, so the same
        state of theirs gives the same redeal; None draws afresh. Anything else is a TypeError, and a
        ``player_id`` that is no seat of the game a ``pyspiel.SpielError``.
        """
        players = self.get_game().num_players()
        if isinstance(player_id, bool) or not isinstance(player_id, numbers.Integral) \
                or not 0 <= int(player_id) < players:
            raise pyspiel.SpielError(f"{SHORT_NAME}: resample_from_infostate: player_id must be a seat, 0 to "
                                     f"{players - 1}; got {player_id!r}")
        rng = _resampling_rng(probability_sampler)
        found = resample(self.step, int(player_id), rng)
        if found is None:
            return self.clone()
        kept = self.full_history()[:self.step.hand_began]
        players = [h.player for h in kept] + [pyspiel.PlayerId.CHANCE if p is None else p for p in found.players]
        return _scripted(self.get_game(), [h.action for h in kept] + found.actions, players, found.step)

    # ------------------------------------------------------------------ cassino's side
    @property
    def cassino_game(self) -> Game:
        """The engine's Game at a seat's turn (for cassino's own players; it holds hidden cards). Between turns it
        is the engine's own: at a chance node it holds a whole deal made from the seed, which the chance outcomes
        replace card by card, and at the end of a one-hand game it may have moved on to the next hand (where the
        engine's game goes on past it); the position as it stands is :attr:`cassino_hand`."""
        return self.step.game

    @property
    def cassino_hand(self) -> HandState:
        """The position as it stands, as the observations show it (hidden cards included): at a chance node the
        cards dealt so far where they went, the stock the cards not yet dealt (their places, -1, hide them); at
        the end of a hand, the hand as it ended."""
        return self.step.view_hand()

    def actions_for(self, move: Move) -> list[int]:
        """The actions that play ``move`` from the start of this turn."""
        return self.step.actions_for(move)


def _resampling_rng(sampler: Any) -> random.Random:
    """The ``random.Random`` a redeal draws from, made from what the caller gave (see
    ``CassinoState.resample_from_infostate``)."""
    if isinstance(sampler, random.Random):
        return sampler
    if sampler is None:
        return random.Random()
    for draw in ("random", "random_sample"):   # numpy's Generator, RandomState
        method = getattr(sampler, draw, None)
        if callable(method) and type(sampler).__module__.startswith("numpy"):
            return random.Random(int(float(method()) * 2 ** 53))
    if callable(sampler):
        value = sampler()
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= float(value) < 1:
            raise ValueError(f"{SHORT_NAME}: resample_from_infostate: the sampler must give a float in [0, 1); "
                             f"it gave {value!r}"[:200])
        return random.Random(int(float(value) * 2 ** 53))
    raise TypeError(f"{SHORT_NAME}: resample_from_infostate: the sampler must be a random.Random, a numpy "
                    f"Generator or RandomState, a callable giving floats in [0, 1), or None; got "
                    f"{type(sampler).__name__}")


def _scripted(game: CassinoGame, actions: list[int], players: list[int], final: Step) -> CassinoState:
    """A state whose OpenSpiel history is ``actions`` (made by ``players``) and whose step is ``final``.

    The actions were checked when ``final`` was reached, so they are recorded without
    being worked out again: the replay costs what OpenSpiel's bookkeeping costs.
    """
    state = game.new_initial_state()
    state._script = [actions, players, 0]
    try:
        for action in actions:
            state.apply_action(action)
    finally:
        del state._script
    state.step = final
    return state


class CassinoObserver:
    """OpenSpiel's observer interface over :class:`cassino.apps.research.views.Layout`."""

    def __init__(self, table: Table, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        kind = Kind(iig_obs_type.perfect_recall, _PRIVATE[iig_obs_type.private_info], iig_obs_type.public_info)
        self.layout = Layout(table, kind)
        #: No tensor for a whole game's information state (see GAME_TYPE_WHOLE_GAME): its string only.
        self.strings_only = kind.perfect_recall and table.setup.whole_game
        self.tensor, self.dict = self.layout.new()

    def set_from(self, state: CassinoState, player: int) -> None:
        if self.strings_only:
            raise pyspiel.SpielError(
                f"{SHORT_NAME}: a whole game (whole_game=True) has no information-state tensor: the "
                f"information state is every hand's record, so use its string, or the observation tensor "
                f"(the position and the scores), or play single hands (whole_game=False)")
        self.layout.fill(state.step, player, self.tensor, self.dict)

    def string_from(self, state: CassinoState, player: int) -> str:
        return self.layout.text(state.step, player)


_FULL: dict[int, Layout] = {}


def _FULL_VIEW(table: Table) -> Layout:
    """Everything, hidden cards included: the state's debugging text."""
    layout = _FULL.get(id(table))
    if layout is None or layout.table is not table:
        layout = _FULL[id(table)] = Layout(table, Kind(perfect_recall=False, private="all"))
    return layout


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, CassinoGame)

__all__ = ["CassinoGame", "CassinoState", "CassinoObserver", "GameParameterError", "GAME_TYPE", "SHORT_NAME", "IllegalStep"]

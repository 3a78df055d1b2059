"""Each candidate's value in one sampled deal: the search's inner loop, compiled with the engine.

``playout_leads`` plays every candidate move in the same sampled position, then every seat's
move by the playout policy to the end of the deal (or hand) (``policy.PlayoutPolicy.playout``, or
the greedy rating's ``gain.greedy_playout``), and values where each playout ends by the side's
expected lead (``outlook.Outlook.lead``). It is what
``SearchBot.sampled_values`` did in interpreted Python, with the same floats in the same order,
so a seeded game plays the same moves compiled or not.
"""

from __future__ import annotations

from ..engine.core import Engine
from ..engine.moves import Move
from ..engine.state import HandState
from .gain import CardWorth, greedy_playout
from .outlook import Outlook
from .policy import PlayoutPolicy


def playout_leads(engine: Engine, worth: CardWorth, outlook: Outlook, state: HandState, moves: list[Move],
                  whole_hand: bool, side: int, scores: dict[int, int], restrictions_on: bool,
                  sign: float, policy: PlayoutPolicy | None = None, deadline: float = 0.0,
                  stop: int = -1, tally: list[int] | None = None, close: bool = False,
                  crowd: int = -1) -> list[float]:
    """For each of ``moves``: its playout's expected lead for ``side`` (``sign``: -1.0 where the lowest
    total wins), played out by ``policy`` (None: greedily); ``deadline``: as ``playout``'s (a value found
    past it is of a playout stopped short: the caller looks at the time and leaves it out); ``stop``:
    as ``playout``'s; ``tally``: as ``playout``'s, for every candidate's playout; ``close``, ``crowd``: as
    ``playout``'s."""
    allowed = outlook.allowed(state.sides, scores, restrictions_on)   # (the sides stay the same all hand)
    return [outlook.lead(playout(engine, worth, state, m, whole_hand, policy, deadline, stop, tally, close, crowd),
                         side, scores, restrictions_on, sign, allowed)
            for m in moves]


def playout(engine: Engine, worth: CardWorth, state: HandState, move: Move, whole_hand: bool,
            policy: PlayoutPolicy | None, deadline: float = 0.0, stop: int = -1,
            tally: list[int] | None = None, close: bool = False, crowd: int = -1) -> HandState:
    """``move`` played, then every seat's move by ``policy`` (None: greedily) to the end of the deal
    (or hand): the search's playout, and the review's. ``deadline`` (a ``time.perf_counter()`` reading;
    0.0: none): stopped short once it has passed. ``stop`` (-1: none): stopped once the cards still to
    be played, in hands and stock (``gain.held``), are down to that many (the search's bound on a
    playout where the players draw after every play, ``SearchBot(depth=...)``). ``tally``: its two
    numbers count the legal moves the playout listed and rated and the plies it played (its work, the
    same on every machine). ``close``: in a turn of several actions, the turn ended as soon as its card from
    the hand is played (``gain.greedy_playout``). ``crowd`` (-1: none): stopped where more than that many loose
    cards lie on the table (``gain.greedy_playout``)."""
    if policy is None:
        return greedy_playout(engine, worth, state, move, whole_hand, deadline, stop, tally, close, crowd)
    return policy.playout(engine, worth, state, move, whole_hand, deadline, stop, tally, close, crowd)

"""What the other seats' plays in this deal reveal of their hands: deals drawn by how likely they are.

A seat's cards are dealt at the start of a deal and played within it, so every move another
seat made in this deal is evidence of what it still holds: a seat that trailed a 7 with a 7
on the table probably holds no other 7; one that took a single 3 while a 10 of diamonds lay
open probably holds no 10. The search deals the unseen cards many times; here each deal is
weighed by how likely the moves seen are if that deal is the truth (``Evidence.log_weight``).
The search values its candidates by the weighted mean over its deals (importance weighting:
a deal costs one weight more than before). The review, whose statistics count deals alike,
draws its deals in proportion to the weights instead (``weighted_deal``: ``DRAWS`` deals drawn
as ``knowledge.determinize`` draws them, one of them kept by weight).

The model of a seat's play is the greedy rating softened (``gain``): a move is made with
probability proportional to exp(gain / ``TEMPERATURE``) among the moves its hand allows. It is
read per card: for each card the seat may have held, the sum of exp(gain / T) over the moves
that card allows on its own (``card_terms``). A deal's weight for one move seen is then one over
the sum of those terms for the cards the deal gives the seat at that move (the cards it holds
now and those it has played since). The move's own term is the same in every deal and cancels.
Builds that need a second card held are not counted (a hand of one card cannot make them).

Measured (``benchmarks/sparring.py``, 2-player standard hands, against the search without it):
docs/performance.md. The temperature is near the one under which the search's own choices are
most likely (0.3-0.5 fit best, by log-likelihood over 2,194 decisions of search against search),
and near the one whose weighted deals best predict a hidden hand
(``benchmarks/inference_quality.py``: 0.4-0.7 against the search and the sparring partner;
a model that also rates trails, builds and captures apart was no better at that). Many moves
seen multiply the model's errors: the weights are tempered to keep half the deals in effect
(``relative``, ``LEAST_SHARE``; in Scopone's 4-player hands untempered weights lost points).
A variant that draws after every play (``deal.draw_after_play``) gives a seat cards nobody saw
after its move: only the moves made once the stock is empty count there.
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable, Final

from ..engine.core import Engine
from ..engine.movegen import bits
from ..engine.moves import Move
from ..engine.state import HandState
from ..errors import PositionTooLargeError
from .gain import CardWorth, gains
from .knowledge import determinize, public_cards

#: The softened greedy player's temperature, in points of gain.
TEMPERATURE: Final = 0.4
#: Deals drawn for each deal kept.
DRAWS: Final = 8
#: The least effective share of its deals the search keeps in play (``relative``), and the halvings
#: that find the power that keeps it.
LEAST_SHARE: Final = 0.5
TEMPER_STEPS: Final = 12

LogNode = tuple[object, HandState, Move] | None


#: A model of play's log-odds for a move, from the move and its gain (``benchmarks/inference_quality.py``
#: tries others; the search's is gain / ``TEMPERATURE``).
Rating = Callable[[Move, float], float]


def card_terms(engine: Engine, worth: CardWorth, position: HandState, rate: Rating | None = None,
               deadline: float = 0.0) -> list[float]:
    """For each card, the sum of exp(gain / ``TEMPERATURE``) (or of exp(``rate``)) over the moves the
    player to move in ``position`` could make holding that card alone (0.0 for a card anybody could
    see there). ``deadline`` (a ``time.perf_counter()`` reading; 0.0: none): an empty list where it
    passes before every kind of card is listed (a table whose every listing takes seconds).

    Reads only the public part of ``position``: its hands are replaced, and the stock stands in by
    its size. Cards of the same rank and worth play alike, so each such kind is listed once."""
    mover = position.turn
    public = public_cards(position)
    hands = [0] * position.players
    stock = tuple(range(len(position.stock)))
    kinds: dict[tuple[str, float], float] = {}
    terms = [0.0] * engine.n_cards
    for i in range(engine.n_cards):
        if public >> i & 1:
            continue
        kind = (engine.rank_str[i], worth.worth[i])
        total = kinds.get(kind)
        if total is None:
            if deadline > 0.0 and time.perf_counter() > deadline:
                return []
            hands[mover] = 1 << i
            probe = position.with_hidden(tuple(hands), stock)   # (as with_(hands=..., stock=...), no dict)
            moves = engine.playable_moves(probe)
            total = 0.0
            for m, g in zip(moves, gains(worth, probe, moves)):
                total += math.exp(g / TEMPERATURE if rate is None else rate(m, g))
            kinds[kind] = total
        terms[i] = total
    return terms


class Evidence:
    """The moves other seats made in this deal, as the weights they put on a sampled deal."""

    def __init__(self, seen: list[tuple[int, int, list[float]]]) -> None:
        #: For each move seen: its seat, the cards that seat has played since (that move's card
        #: included), and ``card_terms`` of the position it was made in.
        self.seen: Final = seen

    def log_weight(self, world: HandState) -> float:
        """The log of how likely the moves seen are if ``world`` is the truth (up to a common
        term; -inf where a move seen was impossible)."""
        log_weight = 0.0
        for mover, since, terms in self.seen:
            total = 0.0
            for i in bits(world.hands[mover] | since):   # (lowest first, as before: the same float)
                total += terms[i]
            if total <= 0.0:
                return -math.inf
            log_weight -= math.log(total)
        return log_weight

    def weight(self, world: HandState) -> float:
        """How likely the moves seen are if ``world`` is the truth (up to a common factor)."""
        return math.exp(self.log_weight(world))


def _share(log_weights: list[float], top: float, power: float) -> float:
    """The effective share of deals, (sum w)^2 / (n sum w^2), of the weights raised to ``power``."""
    total = 0.0
    squares = 0.0
    for lw in log_weights:
        w = math.exp(power * (lw - top)) if lw > -math.inf else 0.0
        total += w
        squares += w * w
    return total * total / (squares * len(log_weights))


def relative(log_weights: list[float], least_share: float = 0.0) -> list[float]:
    """Weights from their logs, the largest 1.0 (all 1.0 where every one is -inf).

    ``least_share``: where the weights would leave fewer than that share of the deals in effect
    (the effective number, (sum w)^2 / sum w^2, against their number), they are tempered, raised
    to the largest power below 1 that keeps that share: many moves seen multiply a model's errors,
    and a few deals would decide alone (Scopone's hands of ten cards, read all deal long)."""
    top = max(log_weights) if log_weights else 0.0
    if top == -math.inf:
        return [1.0] * len(log_weights)
    power = 1.0
    if least_share > 0.0 and _share(log_weights, top, 1.0) < least_share:
        low, high = 0.0, 1.0
        for _ in range(TEMPER_STEPS):
            middle = (low + high) / 2
            if _share(log_weights, top, middle) >= least_share:
                low = middle
            else:
                high = middle
        power = low
    return [math.exp(power * (lw - top)) if lw > -math.inf else 0.0 for lw in log_weights]


def evidence(engine: Engine, worth: CardWorth, state: HandState, log: LogNode, seat: int,
             memo: dict[int, tuple[object, list[float] | None]], rate: Rating | None = None,
             deadline: float = 0.0) -> Evidence | None:
    """What the moves of ``state``'s deal in ``log`` (its game's log, newest first) say of the
    hands ``seat`` cannot see; None where nothing was seen. ``memo`` keeps each logged position's
    ``card_terms`` for the later decisions of the deal (by the position, kept alongside it);
    ``rate``: another model of play than the search's (``card_terms``); ``deadline``: a move whose
    reading it cuts short is not read (nor remembered: a later decision reads it)."""
    deal = state.deal_no
    played = [0] * state.players
    seen: list[tuple[int, int, list[float]]] = []
    node: LogNode = log
    while node is not None:
        earlier, position, move = node
        if position.deal_no != deal or (engine.draw_after_play and position.stock):
            break   # an earlier deal, or cards drawn since: that hand is not this one
        mover = position.turn
        played[mover] |= move.played
        if mover != seat:
            # Keyed by the logged position (an object the compiled code never copies, unlike the
            # log's tuples) and kept with it, so a key is never another position's.
            known = memo.get(id(position))
            if known is None or known[0] is not position:
                try:
                    terms: list[float] | None = card_terms(engine, worth, position, rate, deadline)
                except PositionTooLargeError:
                    terms = None    # (a table beyond the listing budget: this move is not read)
                if terms is not None and not terms:
                    node = earlier   # type: ignore[assignment]
                    continue        # (out of time: not read, not remembered)
                known = (position, terms)
                memo[id(position)] = known
            if known[1] is not None:
                seen.append((mover, played[mover], known[1]))
        node = earlier   # type: ignore[assignment]
    return Evidence(seen) if seen else None


def weighted_deal(engine: Engine, state: HandState, seat: int, rng: random.Random,
                  evidence: Evidence | None, avoid: tuple[int, ...] = (),
                  held: tuple[frozenset[int | str], ...] = ()) -> HandState:
    """A deal of the cards ``seat`` cannot see, drawn by how likely it makes the moves seen:
    ``DRAWS`` deals as ``determinize`` draws them, one kept in proportion to its weight
    (without evidence, one deal as ``determinize`` draws it; ``held``: ``knowledge.held_values``)."""
    if evidence is None:
        return determinize(engine, state, seat, rng, avoid, held)
    worlds = [determinize(engine, state, seat, rng, avoid, held) for _ in range(DRAWS)]
    weights = relative([evidence.log_weight(w) for w in worlds])
    total = 0.0
    for w in weights:
        total += w
    pick = rng.random() * total
    for world, w in zip(worlds, weights):
        pick -= w
        if pick < 0.0:
            return world
    return worlds[-1]

"""A review of a recorded game: every move of the chosen seats valued, the mistakes marked.

For each decision of a reviewed seat, every legal move is given a value for that seat's
side, from what the seat could know when it moved:

- ``exact``: where every card's place is known to the seat (nothing left to deal and every
  card it cannot see in one other hand: the 2-player last deal, ``solver.missing_knowledge``),
  the exact solver's value of each move: the side's final hand points minus the other
  side's, with best play by everyone. Only here are the other hand's cards used, because
  there the seat can work them out. (With more than ``KNOWN_LIMIT`` cards left, or where the solve
  would search more than ``KNOWN_POSITIONS`` positions, the position is estimated as below, so a
  review never takes hours: a 2-player last deal of 10 or 12 cards each, as in South African and
  Swazi Casino, took minutes and gigabytes a decision.)
- ``search``: elsewhere, the search player's estimate: ``deals`` deals of the cards the seat
  cannot see, drawn at random consistent with what it knows and weighed by how likely
  they make the other seats' moves of this deal (``inference.weighted_deal``, as the search
  draws them), seeded from the review's seed and the move's number, so a review is repeatable; every
  move played in each of those same deals, then played out to the end of the deal as the search
  plays its playouts (``SearchBot.policy``: the fitted ``policy.PlayoutPolicy``, or greedily),
  valued by the search's outlook (expected points of what each side has won); with at most
  ``EXACT_CARDS`` cards left to play, the solver's value of each sampled deal instead. The
  value is the average lead in points.
- ``forced``: the only legal move.

A move is marked when its value is below the best move's by more than the margin: any
amount for exact values (whole points). A search estimate is sampled, so a difference can
be noise: every move is valued on the same deals (common random numbers), and a move that
seems to lose more than ``SEARCH_MARGIN`` is valued again, with the best few moves, on
``CONFIRM_FACTOR`` times as many fresh deals; it is marked only when the loss measured
there is above the margin by more than ``CONFIRM_Z`` standard errors of the paired
differences. The loss shown is the confirmed one, with its standard error (``error``), so
a review's marks do not come and go with ``--seed``. The loss is in points of the hand.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field
from typing import Any

from ...engine.game import Game
from ...engine.moves import Move
from ...engine.notation import cards_text, format_move, parse_move
from ...engine.rng import derive
from ...engine.state import HandState
from ...errors import CassinoError
from ...players.inference import weighted_deal
from ...players.playouts import playout
from ...players.search import EXACT_LIMIT, EXACT_POSITIONS, SearchBot
from ...players.solver import MoveValue, SearchLimit, cards_left, missing_knowledge
from ..game.records import Record, actor_of, apply_action

#: The range ``--deals`` accepts: at least one deal; more than this would take hours on a whole game.
MIN_DEALS, MAX_DEALS = 1, 10_000
#: Deals a search value is averaged over by default (see benchmarks/review_speed.py for the time).
DEFAULT_DEALS = 32
#: With at most this many cards left to play, each sampled deal is solved exactly (as the search does).
EXACT_CARDS = 4
#: Solve a known position exactly only with at most this many cards left to play (a variant that
#: deals 12 each in its last deal would take far too long; there the search estimates instead). The
#: search player's own bounds: a review solves exactly what the computer would.
KNOWN_LIMIT = EXACT_LIMIT
#: ...and only while the solve searches at most this many positions (counted, so a review decides
#: alike on every machine; about 3 s in pure Python): Swazi Casino's 2-player last deal at 16 cards
#: left searched about a million (161 s, 2 GB) and is estimated instead.
KNOWN_POSITIONS = EXACT_POSITIONS
#: A search estimate marks a move only when the best is better by more than this (points)...
SEARCH_MARGIN = 0.5
#: ...on ``CONFIRM_FACTOR`` times the deals, fresh ones, by more than ``CONFIRM_Z`` standard
#: errors (one-sided: a mark that holds at 2.5 errors turns up about once in 160 where there
#: is no loss beyond the margin).
CONFIRM_FACTOR = 8
CONFIRM_Z = 2.5
#: How many of the best-looking moves are valued again with the move played.
CONFIRM_RIVALS = 3


class ReviewError(CassinoError):
    """A review that cannot be made as asked (a seat out of range, deals out of range)."""


@dataclass(frozen=True)
class MoveValue:
    """One legal move (in notation) and its value for the mover's side, in points."""

    move: str
    value: float


@dataclass(frozen=True)
class ReviewedMove:
    """One decision of a reviewed seat: what was played, what was best, and what it cost."""

    action: int                      # the action's number in the record, from 1
    hand_no: int
    deal_no: int
    seat: int
    played: str
    best: str                        # the best move (the played one when it was as good)
    played_value: float
    best_value: float
    loss: float                      # best_value - played_value, never negative
    method: str                      # "exact", "search" or "forced"
    deals: int                       # deals sampled (0 for exact and forced)
    values: tuple[MoveValue, ...]    # every legal move, best first
    marked: bool                     # lost points: a better move was worth more than the margin
    error: float = 0.0               # the loss's standard error (search: paired over the deals)
    confirmed_deals: int = 0         # fresh deals the loss was measured again on (0: not needed)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Step:
    """One action of the game as the review shows it, every hand face up."""

    action: int
    hand_no: int
    deal_no: int
    seat: int
    text: str                                  # the action in notation (or "claim N")
    hands: tuple[tuple[str, ...], ...]         # each seat's hand before the action
    table: tuple[str, ...]
    builds: tuple[str, ...]                    # each build as "[cards] value, owner seat N"
    reviewed: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Review:
    """A whole game reviewed: the moves of ``seats`` valued, and the game replayed face up."""

    variant: str
    players: int
    seat_kinds: tuple[str, ...]
    seats: tuple[int, ...]                     # the reviewed seats
    deals: int
    seed: int
    moves: tuple[ReviewedMove, ...]
    steps: tuple[Step, ...]
    scores: tuple[int, ...]
    over: bool
    notes: tuple[str, ...] = field(default=())

    def mistakes(self, limit: int = 5) -> tuple[ReviewedMove, ...]:
        """The marked moves that cost most, biggest loss first (earlier first among equals)."""
        marked = [m for m in self.moves if m.marked]
        return tuple(sorted(marked, key=lambda m: (-m.loss, m.action))[:limit])

    def total_loss(self, seat: int) -> float:
        return round(sum(m.loss for m in self.moves if m.seat == seat and m.marked), 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "players": self.players, "seat_kinds": list(self.seat_kinds),
            "seats": list(self.seats), "deals": self.deals, "seed": self.seed,
            "search_margin": SEARCH_MARGIN, "confirm_deals_factor": CONFIRM_FACTOR, "confirm_z": CONFIRM_Z,
            "notes": list(self.notes),
            "summary": {"moves": len(self.moves), "marked": sum(m.marked for m in self.moves),
                        "loss_by_seat": {str(s): self.total_loss(s) for s in self.seats},
                        "biggest": [m.to_json() for m in self.mistakes()]},
            "moves": [m.to_json() for m in self.moves],
            "replay": [s.to_json() for s in self.steps],
            "scores": list(self.scores), "over": self.over,
        }


def check_deals(deals: int) -> int:
    if isinstance(deals, bool) or not isinstance(deals, int) or not MIN_DEALS <= deals <= MAX_DEALS:
        raise ReviewError(f"--deals must be a whole number from {MIN_DEALS} to {MAX_DEALS:,}, not {deals!r}")
    return deals


def chosen_seats(record: Record, seat: int | None) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The seats to review and a note about the choice: the seat asked for, else the human seats,
    else (a game among computer players) every seat."""
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < record.players:
            raise ReviewError(f"--seat must be a seat of this game, 0 to {record.players - 1}, not {seat!r}")
        return (seat,), ()
    humans = tuple(s for s, kind in enumerate(record.seats) if kind == "human")
    if humans:
        return humans, ()
    return tuple(range(record.players)), ("no seat was played by a person: every seat is reviewed",)


class Valuer:
    """Values the legal moves of one decision, from what the seat to move knows."""

    def __init__(self, deals: int, seed: int, known_positions: int = KNOWN_POSITIONS) -> None:
        self.deals = check_deals(deals)
        self.seed = seed
        self.bot = SearchBot(seed)   # for its kept solver, card worth, outlook and playout policy (per engine)
        #: The most positions one exact solve may search before the search's estimate is used instead.
        self.known_positions = known_positions

    def values(self, game: Game, number: int) -> "Valued":
        """The legal moves of the seat to move in ``game``, valued, best first."""
        moves = game.legal_moves()
        if len(moves) == 1:
            return Valued("forced", 0, [(moves[0], 0.0)])
        hand, seat = game.hand, game.hand.turn
        side = hand.teams[seat]
        if missing_knowledge(hand, seat) is None and cards_left(hand) <= KNOWN_LIMIT:
            # Every card the seat cannot see is in the one other hand: the real position is known to it.
            solved = self._solved(game, side)
            if solved is not None:
                return Valued("exact", 0, [(mv.move, float(mv.value)) for mv in solved])
        samples = self._sampled(game, moves, seat, side, derive(self.seed, number), self.deals)
        ranked = sorted(range(len(moves)), key=lambda k: -sum(samples[k]))
        return Valued("search", self.deals, [(moves[k], sum(samples[k]) / self.deals) for k in ranked],
                      {moves[k]: samples[k] for k in ranked})

    def _solved(self, game: Game, side: int) -> list[MoveValue] | None:
        """The exact values of the position's moves, or None where the solve would search more than
        ``known_positions`` positions (what it learnt so far stays in the kept solver's table)."""
        try:
            with self.bot.solver(game, side).limited(self.known_positions) as solver:
                return solver.move_values(game.hand)
        except SearchLimit:
            return None

    def confirm(self, game: Game, number: int, valued: "Valued", played: Move) -> tuple[Move, float, float, int]:
        """The played move and the best few of ``valued`` valued again on fresh deals, more of
        them: (the best move there, the loss, its standard error, the deals)."""
        rivals = [m for m, _ in valued.values[:CONFIRM_RIVALS] if m != played]
        moves = [played] + rivals
        seat = game.hand.turn
        deals = self.deals * CONFIRM_FACTOR
        samples = self._sampled(game, moves, seat, game.hand.teams[seat], derive(self.seed, number, 1), deals)
        best = max(range(len(moves)), key=lambda k: (sum(samples[k]), -k))
        diffs = [b - p for b, p in zip(samples[best], samples[0])]
        loss, error = _mean_and_error(diffs)
        return moves[best], max(0.0, loss), error, deals

    def _sampled(self, game: Game, moves: list[Move], seat: int, side: int, seed: int, deals: int) -> list[list[float]]:
        """Each move's value in each of ``deals`` deals drawn from ``seed`` (every move in the same deals)."""
        engine = game.engine
        rng = random.Random(seed)
        samples: list[list[float]] = [[] for _ in moves]
        exact = cards_left(game.hand) <= EXACT_CARDS
        worth = self.bot.worth(game)
        outlook = self.bot.outlook(game)
        policy = self.bot.policy(game)
        scores = dict(enumerate(game.scores))
        seen = self.bot.evidence(game, seat)   # the others' moves of this deal weigh the deals, as the search's do
        for _ in range(deals):
            state = weighted_deal(engine, game.hand, seat, rng, seen)
            for k, m in enumerate(moves):
                if exact:
                    samples[k].append(float(self.bot.solver(game, side).value(engine.apply(state, m))))
                else:
                    after = playout(engine, worth, state, m, False, policy)
                    samples[k].append(_lead(outlook.points(after, scores, game.restrictions_on), side))
        return samples


@dataclass(frozen=True)
class Valued:
    """One decision's moves valued: how, on how many deals, best first, and (search) each
    move's value in each sampled deal."""

    method: str
    deals: int
    values: list[tuple[Move, float]]
    samples: dict[Move, list[float]] = field(default_factory=dict)


def _mean_and_error(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def _lead(points: dict[int, float], side: int) -> float:
    others = [v for s, v in points.items() if s != side]
    return points.get(side, 0.0) - (max(others) if others else 0.0)


def _review_one(game: Game, played: Move, valued: Valued, action: int, valuer: Valuer) -> ReviewedMove:
    method, deals, values = valued.method, valued.deals, valued.values
    deck = game.engine.deck
    value_of = {m: v for m, v in values}
    played_value = value_of[played]
    best_move, best_value = values[0]
    if best_value <= played_value:
        best_move, best_value = played, played_value
    loss = max(0.0, best_value - played_value)
    error, confirmed = 0.0, 0
    if method == "search":
        diffs = [b - p for b, p in zip(valued.samples[best_move], valued.samples[played])]
        error = _mean_and_error(diffs)[1]
        marked = False
        if loss > SEARCH_MARGIN + 1e-9:
            # Beyond the margin on these deals: measured again, on more and fresh ones.
            best_move, loss, error, confirmed = valuer.confirm(game, action, valued, played)
            marked = loss - CONFIRM_Z * error > SEARCH_MARGIN
            if best_move == played:
                best_value, loss = played_value, 0.0
            else:
                best_value = played_value + loss
    else:
        marked = loss > 1e-9
    return ReviewedMove(action, game.hand_no, game.hand.deal_no, game.hand.turn, format_move(played, deck),
                        format_move(best_move, deck), round(played_value, 3), round(best_value, 3), round(loss, 3),
                        method, deals, tuple(MoveValue(format_move(m, deck), round(v, 3)) for m, v in values),
                        marked, round(error, 3), confirmed)


def _step(game: Game, action: int, seat: int, text: str, reviewed: bool) -> Step:
    deck = game.engine.deck
    h: HandState = game.hand
    builds = tuple(f"[{' '.join(cards_text(deck, b.cards))}] {b.value}, owner seat {b.owner}" for b in h.builds)
    return Step(action, game.hand_no, h.deal_no, seat, text, tuple(tuple(cards_text(deck, m)) for m in h.hands),
                tuple(cards_text(deck, h.table)), builds, reviewed)


def review_record(record: Record, seat: int | None = None, deals: int = DEFAULT_DEALS, seed: int = 0) -> Review:
    """Review ``record`` (a loaded record, its moves already checked by ``records.load_game``).

    ``seat``: the one seat to review (default: the human seats, or every seat when there are
    none). ``deals``: sampled deals per search value. ``seed``: fixes the sampled deals.
    """
    seats, notes = chosen_seats(record, seat)
    valuer = Valuer(deals, seed)
    game = record.new_game()
    reviewed: list[ReviewedMove] = []
    steps: list[Step] = []
    for number, action in enumerate(record.actions, 1):
        mover = actor_of(action, game)
        is_move = not action.startswith("claim ")
        review_it = is_move and mover in seats and not game.over
        steps.append(_step(game, number, mover, action, review_it))
        if review_it:
            played = game.engine.resolve(game.hand, parse_move(action, game.engine.deck))   # two packs: by name
            reviewed.append(_review_one(game, played, valuer.values(game, number), number, valuer))
        game = apply_action(game, action)
    if not record.actions:
        notes += ("the record has no moves yet: there is nothing to review",)
    return Review(record.rules.name, record.players, tuple(record.seats), seats, valuer.deals, seed,
                  tuple(reviewed), tuple(steps), tuple(game.scores), game.over, notes)

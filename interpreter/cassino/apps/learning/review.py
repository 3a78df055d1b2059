"""A review of a recorded game: every move of the chosen seats valued, the mistakes marked.

For each decision of a reviewed seat, every legal move is given a value for that seat's
side, from what the seat could know when it moved:

- ``exact``: where every card's place is known to the seat (nothing left to deal and every
  card it cannot see in one other hand: the 2-player last deal, ``solver.missing_knowledge``),
  the exact solver's value of each move: the side's final hand points minus the other
  side's, with best play by everyone. Only here are the other hand's cards used, because
  there the seat can work them out. (With more than ``KNOWN_LIMIT`` cards left the position
  is estimated as below, so a review never takes hours.)
- ``search``: elsewhere, the search player's estimate: ``deals`` deals of the cards the seat
  cannot see, drawn at random consistent with what it knows (``knowledge.determinize``,
  seeded from the review's seed and the move's number, so a review is repeatable), every
  move played in each of those same deals, then the greedy playout to the end of the deal
  valued by the search's outlook (expected points of what each side has won); with at most
  ``EXACT_CARDS`` cards left to play, the solver's value of each sampled deal instead. The
  value is the average lead in points.
- ``forced``: the only legal move.

A move is marked when its value is below the best move's by more than the margin: any
amount for exact values (whole points), ``SEARCH_MARGIN`` for the search's estimates
(sampled, so small differences are noise). The loss is in points of the hand.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from ...engine.game import Game
from ...engine.moves import Move
from ...engine.notation import cards_text, format_move, parse_move
from ...engine.rng import derive
from ...engine.state import HandState
from ...errors import CassinoError
from ...players.gain import greedy_playout
from ...players.knowledge import determinize
from ...players.search import SearchBot
from ...players.solver import cards_left, missing_knowledge
from ..game.records import Record, actor_of, apply_action

#: The range ``--deals`` accepts: at least one deal; more than this would take hours on a whole game.
MIN_DEALS, MAX_DEALS = 1, 10_000
#: Deals a search value is averaged over by default (see benchmarks/review_speed.py for the time).
DEFAULT_DEALS = 32
#: With at most this many cards left to play, each sampled deal is solved exactly (as the search does).
EXACT_CARDS = 4
#: Solve a known position exactly only with at most this many cards left to play (a variant that
#: deals 12 each in its last deal would take far too long; there the search estimates instead).
KNOWN_LIMIT = 16
#: A search estimate marks a move only when the best is better by more than this (points).
SEARCH_MARGIN = 0.5


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
            "search_margin": SEARCH_MARGIN, "notes": list(self.notes),
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

    def __init__(self, deals: int, seed: int) -> None:
        self.deals = check_deals(deals)
        self.seed = seed
        self.bot = SearchBot(seed)   # for its kept solver, card worth and outlook (caches per engine)

    def values(self, game: Game, number: int) -> tuple[str, int, list[tuple[Move, float]]]:
        """(method, deals, [(move, value)] best first) for the seat to move in ``game``."""
        moves = game.legal_moves()
        if len(moves) == 1:
            return "forced", 0, [(moves[0], 0.0)]
        hand, seat = game.hand, game.hand.turn
        side = hand.teams[seat]
        if missing_knowledge(hand, seat) is None and cards_left(hand) <= KNOWN_LIMIT:
            # Every card the seat cannot see is in the one other hand: the real position is known to it.
            solved = self.bot.solver(game, side).move_values(hand)
            return "exact", 0, [(mv.move, float(mv.value)) for mv in solved]
        return "search", self.deals, self._sampled(game, moves, seat, side, number)

    def _sampled(self, game: Game, moves: list[Move], seat: int, side: int, number: int) -> list[tuple[Move, float]]:
        engine = game.engine
        rng = random.Random(derive(self.seed, number))
        totals = [0.0] * len(moves)
        exact = cards_left(game.hand) <= EXACT_CARDS
        worth = self.bot.worth(game)
        outlook = self.bot.outlook(game)
        scores = dict(enumerate(game.scores))
        for _ in range(self.deals):
            state = determinize(engine, game.hand, seat, rng)
            for k, m in enumerate(moves):
                if exact:
                    totals[k] += self.bot.solver(game, side).value(engine.apply(state, m))
                else:
                    after = greedy_playout(engine, worth, state, m, False)
                    totals[k] += _lead(outlook.points(after, scores, game.restrictions_on), side)
        ranked = sorted(range(len(moves)), key=lambda k: -totals[k])
        return [(moves[k], totals[k] / self.deals) for k in ranked]


def _lead(points: dict[int, float], side: int) -> float:
    others = [v for s, v in points.items() if s != side]
    return points.get(side, 0.0) - (max(others) if others else 0.0)


def _review_one(game: Game, played: Move, valued: tuple[str, int, list[tuple[Move, float]]], action: int) -> ReviewedMove:
    method, deals, values = valued
    deck = game.engine.deck
    value_of = {m: v for m, v in values}
    played_value = value_of[played]
    best_move, best_value = values[0]
    if best_value <= played_value:
        best_move, best_value = played, played_value
    loss = max(0.0, best_value - played_value)
    margin = SEARCH_MARGIN if method == "search" else 0.0
    return ReviewedMove(action, game.hand_no, game.hand.deal_no, game.hand.turn, format_move(played, deck),
                        format_move(best_move, deck), round(played_value, 3), round(best_value, 3), round(loss, 3),
                        method, deals, tuple(MoveValue(format_move(m, deck), round(v, 3)) for m, v in values),
                        loss > margin + 1e-9)


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
            reviewed.append(_review_one(game, played, valuer.values(game, number), number))
        game = apply_action(game, action)
    if not record.actions:
        notes += ("the record has no moves yet: there is nothing to review",)
    return Review(record.rules.name, record.players, tuple(record.seats), seats, valuer.deals, seed,
                  tuple(reviewed), tuple(steps), tuple(game.scores), game.over, notes)

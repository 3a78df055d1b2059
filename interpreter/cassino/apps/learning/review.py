"""A review of a recorded game: every move of the chosen seats valued, the mistakes marked.

For each decision of a reviewed seat, every legal move is given a value for that seat's
side, from what the seat could know when it moved:

- ``exact``: where every card's place is known to the seat (nothing left to deal and every
  card it cannot see in one other hand: the 2-player last deal, ``solver.missing_knowledge``),
  the exact solver's value of each move: the side's final hand points minus the other
  side's, with best play by everyone (in a game won by the lowest total, where points are
  penalties, the other side's points minus the side's: the search's estimates count the same
  way). Only here are the other hand's cards used, because there the seat can work them out.
  (With more than ``KNOWN_LIMIT`` cards left, or where the solve would search more than
  ``KNOWN_POSITIONS`` positions, the position is estimated as below, so a
  review never takes hours: a 2-player last deal of 10 or 12 cards each, as in South African and
  Swazi Casino, took minutes and gigabytes a decision.)
- ``search``: elsewhere, the search player's estimate: ``deals`` deals of the cards the seat
  cannot see, drawn at random consistent with what it knows and weighed by how likely
  they make the other seats' moves of this deal (``inference.weighted_deal``, as the search
  draws them), seeded from the review's seed and the move's number, so a review is repeatable; every
  move played in each of those same deals, then played out to the end of the deal (where the
  players draw after every play, no further than the cards the hands hold) as the search
  plays its playouts (``SearchBot.policy``: the fitted ``policy.PlayoutPolicy``, or greedily),
  valued by the search's outlook (expected points of what each side has won); with at most
  ``EXACT_CARDS`` cards left to play, the solver's value of each sampled deal instead, unless the
  table is more crowded than the search's playouts go or a sampled deal's plies are more than the
  engine lists (then played out all the same). The value is the average lead in points.
- ``forced``: the only legal move.

A move gets one of three verdicts: ``lost`` (marked: a better move was worth more than the
margin), ``unclear`` (it may have been: the estimate could not tell) or ``good`` (no legal move was
worth more than the margin). Exact values decide at once: lost by any amount (whole points). A
search estimate is sampled, so it is read as an interval: every move is valued on the same deals
(common random numbers), and for each other move the review takes the mean of its lead over the
played move in each deal, with ``REVIEW_Z`` standard errors either side. A move is ``good`` when
every other move's interval lies within the margin (``SEARCH_MARGIN``; read with at least the
variance of a rare lead as large as any seen in the decision: ``Paired.within``), and ``lost`` when
some other move's lies wholly beyond it on the first deals and still does once at least one round
of fresh deals is added. Where an interval straddles the margin, the played move and the best few
moves whose intervals do (``CONFIRM_RIVALS``) are valued on another round of fresh deals, each
round ``CONFIRM_FACTOR`` times the one before (the first ``deals``), at most ``EXTRA_ROUNDS``
rounds; a move still undecided after them is ``unclear``. So a move is lost under one ``--seed`` and good under another only when two
estimates are each off by more than ``REVIEW_Z`` standard errors, in opposite directions (for a
move right at the margin about once in 25,000 pairs of seeds, several times that with several
rival moves); in between, it is unclear. The loss shown is the best rival's mean lead over all
its deals, with its standard error (``error``). The loss is in points of the hand.

A decision with more than ``REVIEW_MOVES`` legal moves (a crowded table) has the move played and
the moves the search's first look rates best valued, as the search itself looks at only those; the
move's ``note`` says so. A position with more legal moves than the engine lists
(``PositionTooLargeError``: a table dealt near the 24-card bound) is ``skipped``, with the reason
in the move's ``note``: its sampled deals take seconds a move to play out (minutes a decision). No position refuses the whole review.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ...engine.game import Game
from ...engine.moves import Move
from ...engine.notation import cards_text, format_move, parse_move
from ...engine.rng import derive
from ...engine.state import HandState
from ...errors import CassinoError, PositionTooLargeError
from ...files import FileProblem, read_bytes
from ...players.base import claim_wins
from ...players.collector import collector_paused
from ...players.gain import gains
from ...players.inference import weighted_deal
from ...players.playouts import playout_leads
from ...players.search import EXACT_LIMIT, EXACT_POSITIONS, SearchBot, _sign
from ...players.solver import MoveValue as SolvedMove, SearchLimit, cards_left, missing_knowledge
from ..game.records import MAX_BYTES, Record, RecordError, actor_of, apply_action, load_game
from ..game.summary import builds_in_place, outcome, scores_text

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
#: alike on every machine; 60,000 positions of a South African last deal take about 0.5 s compiled, 3 s in
#: pure Python): Swazi Casino's 2-player last deal at 16 cards left searched about a million (161 s, 2 GB)
#: and is estimated instead.
KNOWN_POSITIONS = EXACT_POSITIONS
#: A search estimate values at most this many moves of one decision: where a crowded table allows more (a
#: game won by the lowest total, sets added to builds: 65,000 moves at 30 loose cards), the move played and
#: the ones the search's first look rates best (``SearchBot.candidates``' greedy gains), and says so; every
#: move there took minutes a decision, for thousands of moves the search itself never looks at.
REVIEW_MOVES = 200
#: A search estimate marks a move lost only when a better move is worth more than this (points)...
SEARCH_MARGIN = 0.5
#: ...by more than ``REVIEW_Z`` standard errors of the paired differences, and passes it as good only
#: when every other move is worth at most the margin more, by ``REVIEW_Z`` errors too (one-sided: an
#: interval misses by as much about once in 160).
REVIEW_Z = 2.5
#: Each extra round of a move not yet decided values it on this many times as many fresh deals as the
#: round before (the first ``deals``)...
CONFIRM_FACTOR = 2
#: ...at most this many rounds (a move still undecided after them is unclear)...
EXTRA_ROUNDS = 4
#: ...with at most this many of the other moves not yet decided, the best-looking first.
CONFIRM_RIVALS = 3
#: No interval is read from fewer deals than this (its standard error is too rough).
LEAST_DEALS = 8
#: The verdicts: a better move was worth more than the margin; it may have been; none was.
LOST, UNCLEAR, GOOD, SKIPPED = "lost", "unclear", "good", "skipped"
#: Why a move was not valued: its position (or a sampled deal of it) has more legal moves than the
#: engine lists, and playing out sampled deals there takes seconds a move (minutes a decision).
SKIP_NOTE = ("not valued: the position has more legal moves than the engine lists (a wide table), and "
             "valuing them would take minutes")


class ReviewError(CassinoError):
    """A review that cannot be made as asked (a seat out of range, deals out of range); ``path``: the record it is
    about, where it is one (a JSON error's ``file``)."""

    def __init__(self, message: str, path: object = None) -> None:
        super().__init__(message)
        self.path = None if path is None else str(path)


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
    method: str                      # "exact", "search", "forced" or "skipped"
    deals: int                       # deals sampled (0 for exact and forced)
    #: Every legal move valued on the first deals, best first (none when skipped). Where fresh deals were added
    #: (``confirmed_deals``), ``best`` and ``loss`` are the confirmed rounds' (all deals, paired with the move
    #: played), and ``best_value`` is ``played_value`` plus that loss: ``best`` need not head this list then.
    values: tuple[MoveValue, ...]
    marked: bool                     # lost points: the verdict is "lost"
    error: float = 0.0               # the loss's standard error (search: paired over the deals)
    confirmed_deals: int = 0         # fresh deals added in extra rounds (0: decided on the first deals)
    verdict: str = GOOD              # "lost", "unclear", "good" or "skipped"
    note: str = ""                   # why a move was skipped, or that not every legal move was valued
    #: (search) every card's place was known to the mover, but the exact solver could not finish: the values are
    #: playouts of the one real deal, an estimate whose spread says nothing (never a "lost" verdict).
    known: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class MissedClaim:
    """A move a reviewed seat played where a claim would have won the game: its side had reached the target
    (``points`` of ``target``, this hand's points so far counted) in a game won by claiming (a player's audit of
    Hungarian Casino moved on past 11, and the review said nothing; the computer's claim then won)."""

    action: int
    hand_no: int
    seat: int
    played: str
    points: int
    target: int

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
    #: How the game stands at the record's end, as `replay` says it (``summary.outcome``: who won, how, a lurch).
    result: str = ""
    #: The reviewed seats' moves played where a claim would have won the game.
    missed_claims: tuple[MissedClaim, ...] = ()

    def mistakes(self, limit: int = 5) -> tuple[ReviewedMove, ...]:
        """The marked moves that cost most, biggest loss first (earlier first among equals)."""
        marked = [m for m in self.moves if m.marked]
        return tuple(sorted(marked, key=lambda m: (-m.loss, m.action))[:limit])

    def count(self, verdict: str, seat: int | None = None) -> int:
        """How many reviewed moves (of ``seat``, or of every reviewed seat) got ``verdict``."""
        return sum(m.verdict == verdict and (seat is None or m.seat == seat) for m in self.moves)

    def total_loss(self, seat: int) -> float:
        return round(sum(m.loss for m in self.moves if m.seat == seat and m.marked), 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "players": self.players, "seat_kinds": list(self.seat_kinds),
            "seats": list(self.seats), "deals": self.deals, "seed": self.seed,
            "search_margin": SEARCH_MARGIN, "review_z": REVIEW_Z, "confirm_deals_factor": CONFIRM_FACTOR,
            "extra_rounds": EXTRA_ROUNDS, "notes": list(self.notes),
            "summary": {"moves": len(self.moves), "marked": sum(m.marked for m in self.moves),
                        "unclear": self.count(UNCLEAR), "skipped": self.count(SKIPPED),
                        "loss_by_seat": {str(s): self.total_loss(s) for s in self.seats},
                        "biggest": [m.to_json() for m in self.mistakes()],
                        "missed_claims": len(self.missed_claims)},
            "missed_claims": [c.to_json() for c in self.missed_claims],
            "moves": [m.to_json() for m in self.moves],
            "replay": [s.to_json() for s in self.steps],
            "scores": list(self.scores), "over": self.over, "result": self.result,
        }


#: A scenario file's top-level ``cases:`` line.
_CASES = re.compile(rb"^cases[ \t]*:", re.MULTILINE)


def load_for_review(path: str, finished_only: bool = False) -> Record:
    """The record at ``path``, read, replayed and checked (``records.load_game``). A scenario file
    (one with ``cases:``) is refused with the command that runs it rather than as a rule file.
    ``finished_only``: a game not yet over is refused, as the browser refuses it: a review shows every
    hand, the cards still hidden in play too, and the game could then be resumed."""
    try:
        record, game = load_game(path)
    except RecordError:
        if _is_scenario_file(path):
            raise ReviewError(f"{path} is a scenario file (it has `cases:`), not a game record: run its cases "
                              f"with `cassino check {path}`; `cassino review` reads the record that "
                              "`cassino play` writes", path) from None
        raise
    if finished_only and not game.over:
        raise ReviewError(f"the game in {path} is not over: a review shows every hand, the cards still hidden in "
                          f"play too; finish it (cassino play --resume {path}), or review it as it stands with "
                          f"--unfinished", path)
    return record


def _is_scenario_file(path: str) -> bool:
    try:
        return _CASES.search(read_bytes(path, MAX_BYTES, what="a game record")) is not None
    except FileProblem:
        return False


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
        # For its kept solver, card worth, outlook and playout policy (per engine); no time cap (the
        # search's MOVE_CAP), so the same record, deals and seed give the same review on every machine.
        self.bot = SearchBot(seed, cap=None)
        #: The most positions one exact solve may search before the search's estimate is used instead.
        self.known_positions = known_positions

    def values(self, game: Game, number: int, played: Move | None = None) -> "Valued":
        """The legal moves of the seat to move in ``game``, valued, best first (by a search estimate, at
        most ``REVIEW_MOVES`` of them, ``played`` among them). PositionTooLargeError where the engine
        will not list them (a table dealt near the 24-card bound): playing out sampled deals of such a
        position takes seconds a move, minutes a decision."""
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
        legal = len(moves)
        if legal > REVIEW_MOVES:
            moves = self._narrowed(game, moves, played)
        exact = self._exact_deals(game)
        try:
            samples = self._sampled(game, moves, seat, side, derive(self.seed, number), self.deals, exact)
        except (PositionTooLargeError, SearchLimit):
            if not exact:
                raise
            # (a sampled deal's later plies beyond the listing budget, or deeper than the solver's bound:
            # playouts, the same deals)
            exact = False
            samples = self._sampled(game, moves, seat, side, derive(self.seed, number), self.deals, exact)
        ranked = sorted(range(len(moves)), key=lambda k: -sum(samples[k]))
        return Valued("search", self.deals, [(moves[k], sum(samples[k]) / self.deals) for k in ranked],
                      {moves[k]: samples[k] for k in ranked}, exact, legal if legal > len(moves) else 0,
                      missing_knowledge(hand, seat) is None)

    def _narrowed(self, game: Game, moves: list[Move], played: Move | None) -> list[Move]:
        """The ``REVIEW_MOVES`` moves the search's first look rates best (its greedy gains), ``played``
        among them, in the legal moves' order."""
        rated = gains(self.bot.worth(game), game.hand, moves)
        ranked = sorted(range(len(moves)), key=lambda i: -rated[i])
        keep = set(ranked[:REVIEW_MOVES])
        at = moves.index(played) if played is not None and played in moves else None
        if at is not None and at not in keep:
            keep.discard(ranked[REVIEW_MOVES - 1])
            keep.add(at)
        return [m for i, m in enumerate(moves) if i in keep]

    def _exact_deals(self, game: Game) -> bool:
        """Whether each sampled deal is solved exactly: with at most ``EXACT_CARDS`` cards left to play,
        and a table no more crowded than the search's playouts go (``SearchBot.crowd`` loose cards: beyond,
        each of the thousands of moves such a table allows would be solved through plies of thousands more,
        minutes a decision; the playouts stop there and the outlook values the position)."""
        hand = game.hand
        crowd = self.bot.crowd
        return cards_left(hand) <= EXACT_CARDS and (crowd < 0 or hand.table.bit_count() <= crowd)

    def _solved(self, game: Game, side: int) -> list[SolvedMove] | None:
        """The exact values of the position's moves, or None where the solve would search more than
        ``known_positions`` positions (what it learnt so far stays in the kept solver's table) or
        meets a position the engine will not list whole."""
        try:
            with self.bot.solver(game, side).limited(self.known_positions) as solver:
                return solver.move_values(game.hand)
        except (SearchLimit, PositionTooLargeError):
            return None

    def judge(self, game: Game, number: int, valued: "Valued", played: Move) -> "Judged":
        """A search estimate's verdict on ``played``: each other move's lead over it per deal, read
        as an interval of ``REVIEW_Z`` standard errors either side, against ``SEARCH_MARGIN``; the
        moves not yet decided valued again on rounds of fresh deals (module docstring)."""
        base = valued.samples[played]
        leads: dict[Move, Paired] = {m: Paired.of([r - p for r, p in zip(s, base)])
                                     for m, s in valued.samples.items() if m != played}
        seat = game.hand.turn
        side = game.hand.teams[seat]
        extra = 0
        for rounds in range(EXTRA_ROUNDS + 1):
            swing = max((lead.top for lead in leads.values()), default=0.0)
            undecided = [m for m in leads if not leads[m].within(SEARCH_MARGIN, swing)]
            beyond = [m for m in undecided if leads[m].beyond(SEARCH_MARGIN)]
            if not undecided:
                return _judged(leads, GOOD, list(leads), extra, swing)
            if beyond and extra:
                return _judged(leads, LOST, beyond, extra, swing)
            if rounds == EXTRA_ROUNDS:
                break
            # The moves whose intervals reach furthest past the margin first: by the mean alone, a rival that
            # looked worse on few deals (its interval wide) was never dealt again while better-looking ones
            # took every round, and the move played, rated best, was left "unclear" (an audit's review).
            rivals = sorted(undecided, key=lambda m: -leads[m].upper(swing))[:CONFIRM_RIVALS]
            deals = self.deals * CONFIRM_FACTOR ** (rounds + 1)
            try:
                fresh = self._sampled(game, [played] + rivals, seat, side, derive(self.seed, number, rounds + 1), deals,
                                      valued.exact)
            except (PositionTooLargeError, SearchLimit):
                if not valued.exact:
                    raise
                fresh = self._sampled(game, [played] + rivals, seat, side, derive(self.seed, number, rounds + 1), deals,
                                      False)
            for k, m in enumerate(rivals, 1):
                leads[m] = leads[m].plus([r - p for r, p in zip(fresh[k], fresh[0])])
            extra += deals
        swing = max((lead.top for lead in leads.values()), default=0.0)
        return _judged(leads, UNCLEAR, [m for m in leads if not leads[m].within(SEARCH_MARGIN, swing)], extra, swing)

    def _sampled(self, game: Game, moves: list[Move], seat: int, side: int, seed: int, deals: int,
                 exact: bool) -> list[list[float]]:
        """Each move's value in each of ``deals`` deals drawn from ``seed`` (every move in the same deals):
        each deal solved (``exact``) or played out."""
        engine = game.engine
        rng = random.Random(seed)
        samples: list[list[float]] = [[] for _ in moves]
        worth = self.bot.worth(game)
        outlook = self.bot.outlook(game)
        policy = self.bot.policy(game)
        scores = dict(enumerate(game.scores))
        sign = _sign(game)   # (a game won by the lowest total: points count against, as in the solver's values)
        seen = self.bot.evidence(game, seat)   # the others' moves of this deal weigh the deals, as the search's do
        held = self.bot.held(game, seat)       # and the values their builds show they hold
        stop = self.bot.stop(game, False)   # (the search's bound on a playout where the players draw after every play)
        close = self.bot.after_card == "end"
        for _ in range(deals):
            state = weighted_deal(engine, game.hand, seat, rng, seen, held=held)
            if exact:   # (bound as the search's own exact deals are: SearchLimit past it, for the caller)
                with self.bot.solver(game, side).limited(self.bot.exact_positions) as solver:
                    values = [float(solver.value(engine.apply(state, m))) for m in moves]
            else:   # (the search's own valuing of a sampled deal: its playouts, its outlook, its sign)
                values = playout_leads(engine, worth, outlook, state, moves, False, side, scores,
                                       game.restrictions_on, sign, policy, 0.0, stop, None, close, self.bot.crowd)
            for k, v in enumerate(values):
                samples[k].append(v)
        return samples


@dataclass(frozen=True)
class Valued:
    """One decision's moves valued: how, on how many deals, best first, and (search) each move's
    value in each sampled deal."""

    method: str
    deals: int
    values: list[tuple[Move, float]]
    samples: dict[Move, list[float]] = field(default_factory=dict)
    exact: bool = False         # (search) each sampled deal solved exactly, not played out
    of: int = 0                 # (search) the legal moves, where fewer were valued (``REVIEW_MOVES``); 0: all
    known: bool = False         # (search) the position known in full, but beyond the solver: one deal, played out


@dataclass(frozen=True)
class Paired:
    """One move's lead over the played move, deal by deal: how many deals, their sum, sum of
    squares and largest size (so more deals add on), and the interval it gives."""

    n: int
    total: float
    squares: float
    top: float = 0.0

    @staticmethod
    def of(xs: list[float]) -> "Paired":
        return Paired(len(xs), sum(xs), sum(x * x for x in xs), max((abs(x) for x in xs), default=0.0))

    def plus(self, xs: list[float]) -> "Paired":
        more = Paired.of(xs)
        return Paired(self.n + more.n, self.total + more.total, self.squares + more.squares, max(self.top, more.top))

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def error(self) -> float:
        """The mean's standard error (infinite below two deals)."""
        return self._error(0.0)

    def _error(self, least_variance: float) -> float:
        if self.n < 2:
            return math.inf
        var = max(least_variance, (self.squares - self.total * self.total / self.n) / (self.n - 1))
        return math.sqrt(var / self.n)

    def within(self, margin: float, swing: float = 0.0) -> bool:
        """The whole interval at or below ``margin``: the move is not better by more than it.

        ``swing``: the largest lead of any move over the played one in any deal of this decision.
        A lead that is nearly always 0 but now and then that large (a sweep, a scoring card) can
        be 0 in every deal drawn so far, its error 0; so the interval is read with at least the
        variance of a lead of ``swing`` in just enough deals to be worth the margin on average
        (``margin * (swing - margin)``), which needs about ``REVIEW_Z ** 2 * swing / margin`` deals
        to pass a move (a lead of 7 points: 88 deals; one that happens once in 14 deals is then
        missed about once in 700 reviews)."""
        return self.n >= LEAST_DEALS and self.upper(swing, margin) <= margin + 1e-9

    def upper(self, swing: float = 0.0, margin: float = SEARCH_MARGIN) -> float:
        """The top of the interval :meth:`within` reads (infinite below ``LEAST_DEALS`` deals, where it reads none:
        such a rival is dealt again first)."""
        if self.n < LEAST_DEALS:
            return math.inf
        return self.mean + REVIEW_Z * self.read_error(swing, margin)

    def read_error(self, swing: float = 0.0, margin: float = SEARCH_MARGIN) -> float:
        """The standard error :meth:`within` reads: at least that of a rare lead of ``swing`` (its docstring)."""
        least = margin * (swing - margin) if swing > margin else 0.0
        return self._error(least)

    def beyond(self, margin: float) -> bool:
        """The whole interval above ``margin``: the move is better by more than it."""
        return self.n >= LEAST_DEALS and self.mean - REVIEW_Z * self.error > margin + 1e-9


@dataclass(frozen=True)
class Judged:
    """A search estimate's verdict: the rival named (the played move when none looked better), its
    mean lead and that lead's standard error, and the fresh deals added."""

    verdict: str
    best: Move | None
    loss: float
    error: float
    extra_deals: int


def _judged(leads: dict[Move, Paired], verdict: str, among: list[Move], extra: int, swing: float = 0.0) -> Judged:
    """The verdict, naming the best-looking move of ``among`` when it looked better than the played
    one (or, unclear, when its interval reaches past the margin). The error given is the one the verdict
    read: a lost move's plain standard error (``Paired.beyond``), a good or unclear one's with the least
    variance of the decision's largest swing (``Paired.within``), so that its interval, 2.5 errors either
    side, is the one the verdict stands on (an audit read "0.41 better; ±0.03" called unclear)."""
    best = max(among, key=lambda m: leads[m].mean, default=None)
    if best is None:
        return Judged(verdict, None, 0.0, 0.0, extra)
    lead = leads[best]
    if lead.mean <= 0 and verdict != UNCLEAR:
        return Judged(verdict, None, 0.0, 0.0, extra)   # (no move seemed better: no loss, no error)
    error = lead.error if verdict == LOST else lead.read_error(swing)
    return Judged(verdict, best, max(0.0, lead.mean), _finite(error), extra)


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


def _review_one(game: Game, played: Move, action: int, valuer: Valuer) -> ReviewedMove:
    deck = game.engine.deck
    at = (action, game.hand_no, game.hand.deal_no, game.hand.turn, format_move(played, deck))
    try:
        valued = valuer.values(game, action, played)
        judged = valuer.judge(game, action, valued, played) if valued.method == "search" else None
    except PositionTooLargeError:
        # (The engine's own message would offer to choose or type the move: not a review's words.)
        return ReviewedMove(*at, at[-1], 0.0, 0.0, 0.0, SKIPPED, 0, (), False, verdict=SKIPPED, note=SKIP_NOTE)
    method, deals, values = valued.method, valued.deals, valued.values
    value_of = {m: v for m, v in values}
    played_value = value_of[played]
    error, extra = 0.0, 0
    if judged is not None:
        verdict, error, extra = judged.verdict, judged.error, judged.extra_deals
        best_move = judged.best if judged.best is not None else played
        loss = judged.loss if judged.best is not None else 0.0
        best_value = played_value + loss
    else:
        best_move, best_value = values[0]
        if best_value <= played_value:
            best_move, best_value = played, played_value
        loss = max(0.0, best_value - played_value)
        verdict = LOST if loss > 1e-9 else GOOD
    note = (f"{len(values)} of its {valued.of:,} legal moves valued: the move played and those the search's first "
            f"look rates best" if valued.of else "")
    if valued.known and method == "search" and verdict == LOST:
        # Every card's place known, the solver's bound reached: each "deal" is the real one, so the deals agree and
        # their spread is nil, and a playout's value is no exact one (an audit's South African last deal: "lost 2
        # points, ±0.00" for the move the solver, given longer, found best). Unclear, never lost.
        verdict = UNCLEAR
    return ReviewedMove(*at, format_move(best_move, deck), round(played_value, 3), round(best_value, 3),
                        round(loss, 3), method, deals,
                        tuple(MoveValue(format_move(m, deck), round(v, 3)) for m, v in values),
                        verdict == LOST, round(error, 3), extra, verdict, note, valued.known and method == "search")


def _step(game: Game, action: int, seat: int, text: str, reviewed: bool) -> Step:
    deck = game.engine.deck
    h: HandState = game.hand
    builds = tuple(f"[{' '.join(cards_text(deck, b.cards))}] {b.value}, owner seat {b.owner}"
                   for b in builds_in_place(game))   # (where each was made, as the felt shows them)
    return Step(action, game.hand_no, h.deal_no, seat, text, tuple(tuple(cards_text(deck, m)) for m in h.hands),
                tuple(cards_text(deck, h.table)), builds, reviewed)


def review_record(record: Record, seat: int | None = None, deals: int = DEFAULT_DEALS, seed: int = 0,
                  progress: Callable[[int, int], None] | None = None) -> Review:
    """Review ``record`` (a loaded record, its moves already checked by ``records.load_game``).

    ``seat``: the one seat to review (default: the human seats, or every seat when there are
    none). ``deals``: sampled deals per search value. ``seed``: fixes the sampled deals.
    ``progress(done, total)``: called after each action of the record.
    """
    seats, notes = chosen_seats(record, seat)
    valuer = Valuer(deals, seed)
    game = record.new_game()
    reviewed: list[ReviewedMove] = []
    steps: list[Step] = []
    missed: list[MissedClaim] = []
    total = len(record.actions)
    for number, action in enumerate(record.actions, 1):
        mover = actor_of(action, game)
        is_move = not action.startswith("claim ")
        review_it = is_move and mover in seats and not game.over
        steps.append(_step(game, number, mover, action, review_it))
        if review_it and claim_wins(game, mover):
            side = game.side_of(mover)
            assert game.target is not None   # (claim_wins: a game played to a target)
            missed.append(MissedClaim(number, game.hand_no, mover, action,
                                      game.scores[side] + game.running_points().get(side, 0), game.target))
        if review_it:
            played = game.engine.resolve(game.hand, parse_move(action, game.engine.deck))   # two packs: by name
            with collector_paused():   # (a move's values, like a decision, make no cycles: ``collector``)
                reviewed.append(_review_one(game, played, number, valuer))
        game = apply_action(game, action)
        if progress is not None:
            progress(number, total)
    if record.rules.game.goal == "lowest":
        notes += ("the lowest total wins here, so points are penalties: a value is the points the other side "
                  "takes less the mover's side's (the more, the better for the mover)",)
    if not record.actions:
        notes += ("the record has no moves yet: there is nothing to review",)
    narrowed = sum(bool(m.note) and m.verdict != SKIPPED for m in reviewed)
    if narrowed:
        notes += (f"{narrowed} of the moves reviewed had more than {REVIEW_MOVES} legal moves: the move played and "
                  f"the {REVIEW_MOVES - 1} the search's first look rates best were valued",)
    skipped = sum(m.verdict == SKIPPED for m in reviewed)
    if skipped:
        notes += (f"{skipped} of the moves reviewed were not valued: their positions have more legal moves "
                  "than the engine lists",)
    return Review(record.rules.name, record.players, tuple(record.seats), seats, valuer.deals, seed,
                  tuple(reviewed), tuple(steps), tuple(game.scores), game.over, notes,
                  f"{outcome(game)}; scores: {scores_text(game)}", tuple(missed))

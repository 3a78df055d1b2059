"""Fitting the search's playout policy to one rule file and seating by self-play (``cassino train``).

Expert iteration: the search plays hands against itself (every seat the search, each with its own
seed, the dealer going round); at every decision where it samples (more than one legal move, and a
position it does not know in full) each legal move's ``policy.FEATURES`` and the move it chose are
kept. A conditional logit (a move chosen with probability proportional to exp(weights . features))
is fitted to those choices by Newton's method, and the next round's search plays out with the
weights just fitted, so the policy is fitted to the search that uses it. The first round's search
plays out as the search does where nothing is fitted to the rules (``weights.choose``'s last two
steps), so the same seed gives the same weights whatever is in the cache.

The features are the policy's own (each read as the policy's rating with that feature's weight 1 and
the others 0), seen from the mover's side of the goal (``policy``), so the fit works alike for any
number of players, in partnerships or not, in games won by the highest or the lowest total.

Hands are plain-data tasks (``Task``: the rules as data, the seating, a seed, the weights the
search plays out with), so any process can play them: this one, local worker processes, or a Dask
cluster (``apps/learning/train.py`` runs them). Results are taken in the tasks' order, so the same
seed and hands give the same weights wherever the hands ran; a budget in seconds stops a round
early, and then which hands were played depends on the machine.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from ..engine.core import Engine
from ..engine.game import Game
from ..engine.rng import derive
from ..errors import CassinoError, PositionTooLargeError
from ..language.rules import Rules
from .gain import gains
from .policy import FEATURES, FITTED, PlayoutPolicy
from .search import SearchBot
from .solver import missing_knowledge
from .weights import MOST_DEPTH, is_depth

#: One decision: each legal move's features, each legal move's greedy rating, and the index of the move chosen.
Decision = tuple[list[list[float]], list[float], int]
#: One hand of self-play: (rules as data, players, partners, seed, dealer, deals a move, playout weights or None,
#: the most cards a playout plays or None for as many as the hands hold).
Task = tuple[Mapping[str, Any], int, bool, int, int, int, "tuple[float, ...] | None", "int | None"]
#: Runs tasks (anywhere) and gives each one's decisions back in the tasks' order.
Runner = Callable[[Iterable[Task]], Iterator[list[Decision]]]

#: Newton steps at most, and the ridge that keeps the steps defined where a feature never varies.
STEPS = 30
RIDGE = 1e-3
#: The smallest part of a Newton step :func:`fit` tries before it stops (a step is halved until it gains).
HALVINGS_FLOOR = 1.0 / 1024
#: The share of a round's decisions the weights are fitted on; the rest measure them.
FIT_SHARE = 0.8
#: The fewest decisions a fit is made from (several for each weight).
LEAST_DECISIONS = 4 * len(FEATURES)


@dataclass(frozen=True)
class Round:
    """What one round of self-play gave: its hands and decisions, the weights fitted, and, on the
    decisions held out, the mean log-likelihood a decision and the share of decisions whose chosen move
    is rated best, under the fitted weights and under the weights the round played with."""

    number: int
    hands: int
    decisions: int
    weights: tuple[float, ...]
    held_out: int
    fitted_log_likelihood: float
    fitted_top: float
    before_log_likelihood: float
    before_top: float
    seconds: float


def starting_weights(rules: Rules, players: int) -> tuple[float, ...] | None:
    """The first round's playouts: the 2-player standard weights in a 2-player game won by the highest
    total, else greedy (None) - the search's own where nothing is fitted to the rules."""
    return FITTED if players == 2 and rules.game.goal != "lowest" else None


def play_hand(task: Task) -> list[Decision]:
    """One hand of search self-play: its sampled decisions. A plain function of plain data."""
    data, players, partners, seed, dealer, deals, weights, depth = task
    engine = Engine(Rules.from_data(data))
    game = Game.new(engine, seed, players, partners=partners, dealer=dealer).with_(target=None)
    # (the depth as the task says, never as found in a weights file: the same seed, the same weights)
    bots = [SearchBot(derive(seed, s), iterations=deals, cap=None, playouts="fitted" if weights else "greedy",
                      weights=weights, depth="hands" if depth is None else depth) for s in range(players)]
    units = [PlayoutPolicy(engine, tuple(1.0 if j == k else 0.0 for j in range(len(FEATURES))))
             for k in range(len(FEATURES))]
    found: list[Decision] = []
    plies = 0
    while not game.over and game.hand_no == 1:
        seat = game.hand.turn
        bots[seat].reseed(derive(seed, seat, plies))
        try:
            move = bots[seat].choose(game, seat)
            moves = game.legal_moves()
        except PositionTooLargeError:
            # A table grown past the engine's listing budget (where nobody need capture in a game won by the lowest
            # total: an audit's house rule could not be trained): the hand's decisions so far are kept.
            break
        if len(moves) > 1 and missing_knowledge(game.hand, seat) is not None:
            worth = bots[seat].worth(game)
            columns = [unit.ratings(worth, game.hand, moves) for unit in units]
            found.append(([list(row) for row in zip(*columns)], gains(worth, game.hand, moves), moves.index(move)))
        game = game.play(move)
        plies += 1
    return found


def local_runner(tasks: Iterable[Task]) -> Iterator[list[Decision]]:
    """Every task in this process, in order."""
    for task in tasks:
        yield play_hand(task)


# ---------------------------------------------------------------- the fit


def _probabilities(ratings: list[float]) -> list[float]:
    top = max(ratings)
    exps = [math.exp(r - top) for r in ratings]
    total = sum(exps)
    return [e / total for e in exps]


def _rate(weights: tuple[float, ...] | list[float], rows: list[list[float]]) -> list[float]:
    return [sum(w * x for w, x in zip(weights, row)) for row in rows]


def log_likelihood(weights: tuple[float, ...] | list[float], found: list[Decision]) -> float:
    """The mean log-likelihood a decision of the moves chosen, under ``weights``."""
    total = 0.0
    for rows, _, chosen in found:
        total += math.log(max(_probabilities(_rate(weights, rows))[chosen], 1e-300))
    return total / max(len(found), 1)


def top_share(weights: tuple[float, ...] | list[float] | None, found: list[Decision]) -> float:
    """The share of decisions whose chosen move is the first best-rated (None: by the greedy rating)."""
    hits = 0
    for rows, gain, chosen in found:
        ratings = gain if weights is None else _rate(weights, rows)
        hits += max(range(len(ratings)), key=ratings.__getitem__) == chosen
    return hits / max(len(found), 1)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting (``a`` is made non-singular by the ridge)."""
    n = len(b)
    m = [list(row) + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if m[col][col] == 0.0:
            continue
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        s = m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))
        x[r] = s / m[r][r] if m[r][r] else 0.0
    return x


def _objective(w: list[float], found: list[Decision]) -> float:
    """What :func:`fit` maximises: the log-likelihood of the moves chosen less ``RIDGE`` / 2 |w|^2."""
    total = 0.0
    for rows, _, chosen in found:
        total += math.log(max(_probabilities(_rate(w, rows))[chosen], 1e-300))
    return total - RIDGE / 2 * sum(x * x for x in w)


def fit(found: list[Decision], steps: int = STEPS) -> tuple[float, ...]:
    """The weights of largest log-likelihood less ``RIDGE`` / 2 |w|^2, by Newton's method, each step halved until
    it gains (a full step from a start far from the top can overshoot: an audit's game where every move was a
    trail got weights of -12,800 and a held-out log-likelihood of -319 a decision)."""
    k = len(FEATURES)
    w = [0.0] * k
    best = _objective(w, found)
    for _ in range(steps):
        grad = [-RIDGE * x for x in w]
        hess = [[-RIDGE if i == j else 0.0 for j in range(k)] for i in range(k)]
        for rows, _, chosen in found:
            p = _probabilities(_rate(w, rows))
            mean = [sum(pj * row[i] for pj, row in zip(p, rows)) for i in range(k)]
            chosen_row = rows[chosen]
            for i in range(k):
                grad[i] += chosen_row[i] - mean[i]
            for pj, row in zip(p, rows):
                d = [x - mu for x, mu in zip(row, mean)]
                for i in range(k):
                    if d[i]:
                        di = pj * d[i]
                        hrow = hess[i]
                        for j in range(k):
                            hrow[j] -= di * d[j]
        step = solve(hess, grad)
        scale = 1.0
        while True:
            tried = [wi - scale * s for wi, s in zip(w, step)]
            value = _objective(tried, found)
            if value >= best or scale < HALVINGS_FLOOR:
                break
            scale /= 2
        if value < best:   # (no step gains: the top, as far as floats tell)
            break
        w, best = tried, value
        if max(abs(scale * s) for s in step) < 1e-7:
            break
    return tuple(round(x, 6) + 0.0 for x in w)


# ---------------------------------------------------------------- rounds of self-play


def tasks(rules: Rules, players: int, partners: bool, hands: int, seed: int, round_no: int, deals: int,
          weights: tuple[float, ...] | None, depth: int | None = None) -> Iterator[Task]:
    """A round's hands, made as they are asked for: hand k dealt from the seed, the round and k."""
    data = dict(rules.data)
    for k in range(hands):
        yield (data, players, partners, derive(seed, round_no, k), k % players, deals, weights, depth)


def train(rules: Rules, players: int, partners: bool, *, hands: int, seconds: float | None = None, rounds: int = 2,
          seed: int = 1, deals: int = 64, depth: int | None = None, runner: Runner = local_runner,
          progress: Callable[[int, int, int, float], None] | None = None,
          clock: Callable[[], float] = time.monotonic, stopped: Callable[[str], None] | None = None) -> list[Round]:
    """``rounds`` rounds of ``hands`` hands of self-play each, every round fitted; the last round's weights
    are the result (``Round.weights``). ``depth``: the most cards the self-playing search's playouts play
    (None: as many as the hands hold). ``seconds``: the most the whole training takes, about (each round
    stops taking hands once its share has passed, and is fitted on the hands it played). ``progress(round,
    hands played, decisions, seconds left or -1)`` is told of each hand as it comes back. CassinoError
    where the first round gave too few decisions to fit; where a later one does, the training stops with the
    rounds fitted so far (nothing done is lost), and ``stopped`` is told why."""
    if hands < 1 or rounds < 1 or deals < 1:
        raise CassinoError("a training takes at least 1 hand a round, 1 round and 1 deal a move")
    if depth is not None and not is_depth(depth):
        raise CassinoError(f"a playout depth is a number of cards from 1 to {MOST_DEPTH}, not {depth!r}")
    if seconds is not None and not (seconds > 0 and math.isfinite(seconds)):
        raise CassinoError(f"the time budget is a number of seconds above 0, not {seconds!r}")
    start = clock()
    done: list[Round] = []
    weights = starting_weights(rules, players)
    for number in range(1, rounds + 1):
        began = clock()
        deadline = None if seconds is None else began + (start + seconds - began) / (rounds - number + 1)
        found: list[Decision] = []
        played = 0
        results = runner(tasks(rules, players, partners, hands, seed, number, deals, weights, depth))
        try:
            for hand in results:
                found += hand
                played += 1
                now = clock()
                left = -1.0 if seconds is None else max(0.0, start + seconds - now)
                if progress is not None:
                    progress(number, played, len(found), left)
                if deadline is not None and now >= deadline:
                    break
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()
        if len(found) < LEAST_DECISIONS:
            why = (f"round {number} of self-play gave {len(found)} decisions in {_hands(played)}: too few to fit "
                   f"{len(FEATURES)} weights (at least {LEAST_DECISIONS}); give more hands (--hands) or more time "
                   f"(--seconds)")
            if not done:
                raise CassinoError(why)
            if stopped is not None:   # (an audit's round 2 cut short by the budget threw away round 1's fit)
                stopped(f"{why}; the weights are round {number - 1}'s")
            break
        cut = max(int(len(found) * FIT_SHARE), LEAST_DECISIONS)
        fitting, held = found[:cut], found[cut:] or found
        fitted = fit(fitting)
        before = weights if weights is not None else None
        done.append(Round(number, played, len(found), fitted, len(found) - cut,
                          log_likelihood(fitted, held), top_share(fitted, held),
                          log_likelihood(before, held) if before is not None else _greedy_log_likelihood(held),
                          top_share(before, held), clock() - began))
        weights = fitted
    return done


def _hands(n: int) -> str:
    return "1 hand" if n == 1 else f"{n:,} hands"


def _greedy_log_likelihood(found: list[Decision]) -> float:
    """The greedy rating's log-likelihood at its best temperature of a few (what greedy playouts explain)."""
    best = -math.inf
    for t in (0.05, 0.1, 0.2, 0.5, 1.0):
        total = 0.0
        for _, gain, chosen in found:
            total += math.log(max(_probabilities([g / t for g in gain])[chosen], 1e-300))
        best = max(best, total / max(len(found), 1))
    return best

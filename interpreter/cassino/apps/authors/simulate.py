"""`cassino simulate`: many games between computer players, summarised for rule authors.

Each game's seed is derived from the run's seed and the game's number, and the
games are summed in number order, so the same seed gives the same numbers
whatever the worker count.
"""

from __future__ import annotations

import math
from collections import deque
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, TypeVar

from ...players.bots import make_bot
from ...engine.core import Engine
from ...engine.game import Game
from ...engine.moves import MoveKind
from ...engine.scoring import Scorer
from ...engine.rng import derive
from ...errors import CassinoError
from ...language.rules import Rules
from ...language.semantics import may_never_end
from ...language.variants import load_rules
from ...processes import worker_pool
from ..game.seating import partnership, player_count


@dataclass(frozen=True)
class GameStats:
    index: int
    winner_seat: int | None            # lowest seat of the winning side; None: no winner
    first_seat: int                    # the seat that led the first hand
    hands: int
    plies: int
    sweeps: int
    item_points: dict[str, list[int]]  # item -> points per seat (a side's on its lowest seat)
    unfinished: bool = False           # stopped with no side at the target: at the move limit (``MOVE_LIMIT``),
                                       # or, where the rules may never end, after a hand nobody captured in


#: The most moves a simulated game plays: a game still going there is stopped and counted as unfinished
#: (some rules let a game go on for ever: where the lowest total wins and nothing makes a player capture,
#: every card can be trailed and no one ever scores). A long game of the bundled variants plays a few
#: thousand.
MOVE_LIMIT = 50_000

#: What a summary says of games stopped unfinished.
UNFINISHED_WHY = ("no side reached the target: these rules may let a game go on for ever (where the lowest total "
                  "wins and nothing makes a player capture, every card can be trailed and no one scores; "
                  "`cassino validate` warns of such rules, and their games are stopped at the first hand in "
                  "which nobody captured)")


def unfinished_why(rules: Rules) -> str:
    """Why games of ``rules`` may not finish, as far as the rules tell (an audit's `both_reach: next_target` house
    rule of Tuxedo was told of the lowest total and trails, which it has nothing of)."""
    if may_never_end(rules):
        return UNFINISHED_WHY
    g = rules.game
    if g.target is not None and g.both_reach == "next_target":
        return (f"both sides passed the target in the same hand again and again, and the target moved up by "
                f"{g.target_step} each time (`both_reach: next_target`"
                + ("" if g.claiming else "; nobody claims here, which is what ends such games where claiming is "
                                         "played") + ")")
    return "no side reached the target within the move limit"


def play_game(engine: Engine, seed: int, players: int, partners: bool, bots: tuple[str, ...], index: int,
              scorer: Scorer | None = None, limit: int = MOVE_LIMIT) -> GameStats:
    """Game number ``index`` of a run seeded ``seed``: its deal and its bots' choices depend on nothing else.
    ``limit``: the most moves it plays (``MOVE_LIMIT``); a game still going there is stopped, unfinished."""
    rules = engine.rules
    game_seed = derive(seed, index)
    game = Game.new(engine, game_seed, players, partners, dealer=index % players, scorer=scorer)
    first = engine.leader(game.dealer, players)
    # (No time cap: the same arguments give the same games on every machine, however long a move takes.)
    seats = [make_bot(bots[s % len(bots)], derive(game_seed, s + 1), cap=None) for s in range(players)]
    lowest = {game.hand.teams[s]: s for s in reversed(range(players))}
    plies = 0
    claiming = rules.game.claiming     # no seat ever claims where the variant has no claiming
    # Rules that may never end (validate's warning): a hand in which nobody captured would come again and
    # again, each one slower as its table grows, so the game stops there, unfinished.
    endless = may_never_end(rules)
    captured, hands_done, stalled = False, 0, False
    while not game.over and plies < limit:
        if claiming:
            claimant = next((s for s, b in enumerate(seats) if b.wants_to_claim(game, s)), None)
            if claimant is not None:
                game = game.claim(claimant)
                break
        seat = game.hand.turn
        seats[seat].reseed(derive(game_seed, seat, plies))
        move = seats[seat].choose(game, seat)
        captured = captured or move.kind is MoveKind.CAPTURE
        game = game.play(move)
        plies += 1
        if endless and len(game.results) > hands_done:
            hands_done = len(game.results)
            if not captured and not game.over:
                stalled = True
                break
            captured = False
    items = {i.name: [0] * players for i in rules.scoring.items}
    sweeps = 0
    for result in game.results:
        sweeps += sum(result.sweeps.values())
        for name, per_side in result.by_item.items():
            for side, pts in per_side.items():
                items[name][lowest[side]] += pts
    winner = lowest[game.winner] if game.winner is not None else None
    return GameStats(index, winner, first, max(len(game.results), 1), plies, sweeps, items,
                     unfinished=not game.over and (plies >= limit or stalled))


#: A worker process's engine and scorer, made once when it starts (``_start_worker``).
_WORKER: tuple[Engine, Scorer] | None = None

#: Games a task plays: few enough to spread a short run over the workers, enough to keep overhead small.
CHUNK = 25
#: Tasks given to a pool ahead of the one whose results are awaited, per worker: the tasks are made as
#: the games go (100,000,000 games made 100,000,000 tasks before the first game: 1.8 GB).
AHEAD = 4


def _start_worker(variant: str) -> None:
    global _WORKER
    engine = Engine(load_rules(variant))
    _WORKER = (engine, Scorer.of(engine))


def _task(args: tuple[Any, ...]) -> list[GameStats]:
    """Games [start, stop) of a run, in a worker process."""
    assert _WORKER is not None, "a simulate worker runs _start_worker first"
    engine, scorer = _WORKER
    seed, players, partners, bots, start, stop = args
    return [play_game(engine, seed, players, partners, bots, k, scorer=scorer) for k in range(start, stop)]


T = TypeVar("T")
R = TypeVar("R")


def in_order(pool: Executor, fn: Callable[[T], R], tasks: Iterable[T], workers: int) -> Iterator[R]:
    """``fn`` of each task, in the tasks' order, run in ``pool`` with at most ``AHEAD`` tasks a worker
    submitted and not yet collected. ``Executor.map`` submits every task at once, so the tasks, their
    futures and their results all had to fit in memory together; here a few do."""
    pending: deque[Future[R]] = deque()
    for task in tasks:
        pending.append(pool.submit(fn, task))
        if len(pending) >= AHEAD * workers:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def chunks(games: int, size: int = CHUNK) -> Iterator[tuple[int, int]]:
    """[start, stop) of each task's games, made as they are asked for."""
    for start in range(0, games, size):
        yield start, min(start + size, games)


def run(variant: str, games: int, seed: int = 1, players: int | None = None, partners: bool = False,
        bots: tuple[str, ...] = ("greedy",), workers: int = 1,
        progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games and summarise them. Memory does not grow with the games: tasks are made as
    they are run and each game is counted into a :class:`Tally` as it ends. No more worker processes
    are started than there are tasks."""
    rules = load_rules(variant)
    players = player_count(rules, players)
    partners = partnership(rules, players, partners)
    if workers < 1:
        raise CassinoError(f"workers must be at least 1, not {workers}")
    if games < 1:
        raise CassinoError(f"games must be at least 1, not {games}")
    engine = Engine(rules)
    tally = Tally(players, partners, sides_of(engine, players, partners))
    size = max(1, min(CHUNK, games // max(workers, 1)))
    workers = min(workers, -(-games // size))
    stopped = False
    try:
        if workers > 1:
            # Each worker loads the variant once; the games are the same as in one process.
            tasks = ((seed, players, partners, bots, start, stop) for start, stop in chunks(games, size))
            with worker_pool(workers, _start_worker, (variant,)) as pool:
                for stats in in_order(pool, _task, tasks, workers):
                    for s in stats:
                        tally.add(s)
                    if progress:
                        progress(len(stats))
        else:
            scorer = Scorer.of(engine)
            for k in range(games):
                tally.add(play_game(engine, seed, players, partners, bots, k, scorer=scorer))
                if progress:
                    progress(1)
    except KeyboardInterrupt:
        # Ctrl-C: the games played so far are summarised, not lost (an audit's long run said only "interrupted").
        if not tally.games:
            raise
        stopped = True
    summary = tally.summary(rules.name, bots, seed)
    if stopped:
        summary["interrupted"] = {"asked": games, "played": tally.games}
    if summary["unfinished"]:
        summary["unfinished_why"] = unfinished_why(rules)
    return summary


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """What a run's summary needs, counted game by game (so a run of a million games keeps no list of them).

    Every figure is a sum of whole numbers, so the order the games are counted in changes nothing.
    ``partners``: whether the seats played as two teams (the leader's side then wins with the seat opposite).
    """

    players: int
    partners: bool = False
    #: The seats of each side, each side named by its lowest seat (where its points and wins are counted).
    sides: list[list[int]] = field(default_factory=list)
    games: int = 0
    hands: int = 0
    plies: int = 0
    sweeps: int = 0
    decided: int = 0
    unfinished: int = 0
    leader_wins: int = 0
    items: dict[str, list[int]] = field(default_factory=dict)
    wins: list[int] = field(default_factory=list)

    def add(self, s: GameStats) -> None:
        self.games += 1
        self.hands += s.hands
        self.plies += s.plies
        self.sweeps += s.sweeps
        self.unfinished += s.unfinished
        for item, per_seat in s.item_points.items():
            acc = self.items.setdefault(item, [0] * self.players)
            for seat, pts in enumerate(per_seat):
                acc[seat] += pts
        if not self.wins:
            self.wins = [0] * self.players
        if s.winner_seat is None:
            return
        self.decided += 1
        self.wins[s.winner_seat] += 1
        # The leader's side wins: the leader, or with partners a seat of the leader's side (a side is named by its
        # lowest seat; with six players in teams of two the leader's partner sits three seats on, not two).
        if self.sides:
            lowest = next(min(side) for side in self.sides if s.first_seat in side)
            if s.winner_seat == lowest:
                self.leader_wins += 1
        elif s.winner_seat == s.first_seat or (self.partners and s.winner_seat % 2 == s.first_seat % 2):
            self.leader_wins += 1

    def summary(self, name: str, bots: tuple[str, ...], seed: int) -> dict[str, Any]:
        n, hands, decided = self.games, self.hands, self.decided
        low, high = wilson(self.leader_wins, decided)
        sides = self.sides or [[seat] for seat in range(self.players)]
        return {
            "variant": name, "games": n, "players": self.players, "bots": list(bots), "seed": seed,
            "partners": self.partners, "sides": sides,
            "hands": hands,
            "points_per_hand": {item: [round(v / max(hands, 1), 3) for v in per_seat]
                                for item, per_seat in self.items.items()},
            "wins_by_seat": self.wins or [0] * self.players,
            # (each side's, in the order of ``sides``: with partners the per-seat lists hold a side's figures at its
            # lowest seat and nothing at the others, which read as partners who never won nor scored)
            "wins_by_side": [(self.wins or [0] * self.players)[min(side)] for side in sides],
            "points_per_hand_by_side": {item: [round(per_seat[min(side)] / max(hands, 1), 3) for side in sides]
                                        for item, per_seat in self.items.items()},
            "no_winner": n - decided,
            "unfinished": self.unfinished,
            "first_player_win_rate": round(self.leader_wins / decided, 4) if decided else None,
            "first_player_win_rate_95ci": [round(low, 4), round(high, 4)],
            "sweeps_per_hand": round(self.sweeps / max(hands, 1), 3),
            "moves_per_hand": round(self.plies / max(hands, 1), 2),
            "hands_per_game": round(hands / max(n, 1), 2),
        }


def sides_of(engine: Engine, players: int, partners: bool) -> list[list[int]]:
    """The seats of each side as the games are seated, each side in the order of its lowest seat."""
    teams = Game.new(engine, 0, players, partners).hand.teams
    return sorted(([seat for seat in range(players) if teams[seat] == side] for side in set(teams)), key=min)


def summarise(name: str, players: int, bots: tuple[str, ...], seed: int, stats: Iterable[GameStats],
              partners: bool = False, sides: list[list[int]] | None = None) -> dict[str, Any]:
    """The summary of ``stats`` (see :class:`Tally`)."""
    tally = Tally(players, partners, sides or [])
    for s in stats:
        tally.add(s)
    return tally.summary(name, bots, seed)


def format_text(summary: dict[str, Any]) -> str:
    s = summary
    lines = [f"{s['variant']}: {s['games']} game{'' if s['games'] == 1 else 's'}, {s['players']} players, bots {', '.join(s['bots'])}, seed {s['seed']}",
             f"hands per game {s['hands_per_game']}, moves per hand {s['moves_per_hand']}, sweeps per hand {s['sweeps_per_hand']}",
             "average points per hand, by scoring item and seat:"]
    sides = s.get("sides") or [[seat] for seat in range(s["players"])]
    columns = [side[0] for side in sides]   # (a side's points and wins are counted at its lowest seat: shown once)
    if s.get("partners"):
        names = ["seats " + "+".join(map(str, side)) for side in sides]
        lines[-1] = "average points per hand, by scoring item and side (" + ", ".join(names) + "):"
    else:
        names = [f"seat {c}" for c in columns]
    for item, per_seat in s["points_per_hand"].items():
        lines.append(f"  {item:<16}" + "".join(f"{per_seat[c]:>8.3f}" for c in columns))
    lo, hi = s["first_player_win_rate_95ci"]
    rate = s["first_player_win_rate"]
    wins = ", ".join(f"{name} {s['wins_by_seat'][c]}" for name, c in zip(names, columns))
    lines.append(f"games won: {wins}; no winner: {s['no_winner']}")
    if s["unfinished"]:
        lines.append(f"{s['unfinished']} of them stopped unfinished (after {MOVE_LIMIT:,} moves, or a hand with "
                     f"no capture): {s.get('unfinished_why') or UNFINISHED_WHY}")
    if rate is not None:
        who = "the side that leads first" if s.get("partners") else "the first player to lead"
        lines.append(f"{who} wins {rate:.1%} (95% CI {lo:.1%} to {hi:.1%})")
    cut = s.get("interrupted")
    if cut:   # (on stdout too: an audit's saved report read as a whole run, stderr alone saying it was cut short)
        lines.append(f"interrupted: {cut['played']:,} of the {cut['asked']:,} games asked were played")
    return "\n".join(lines)

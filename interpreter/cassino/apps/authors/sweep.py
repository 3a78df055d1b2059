"""`cassino sweep`: a grid of variants, each simulated, to see what a setting does to the balance.

``--set PATH=V1,V2`` (repeatable) makes the grid: every combination of the
values, each applied to the rule file and checked in full like a file of its
own. Every grid point plays the same games (game k is dealt from the run's seed
and k, as ``cassino simulate`` does), so differences between points come from
the rules, not from the deals. Games run in chunks: in this process, in local
worker processes (``--workers``), or on a Dask cluster (``--cluster ADDRESS``);
chunks are put back in order, so the numbers are the same wherever they ran.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import socket
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from ...engine.core import Engine
from ...engine.scoring import Scorer
from ...errors import CassinoError
from ...language.rules import Rules
from ...language.settings import Assignment, SettingError, parse_assignment, rules_with, shown
from ...language.variants import LoadedVariant, load
from ...processes import worker_pool
from .simulate import (CHUNK, MOVE_LIMIT, UNFINISHED_WHY, GameStats, Tally, chunks, in_order, play_game, sides_of,
                       unfinished_why)

#: Tasks sent to a Dask cluster at a time.
DASK_BATCH = 1_000
#: Grid points a sweep may have (the product of the numbers of values of its --set options).
MAX_GRID = 1_000


@dataclass(frozen=True)
class GridPoint:
    index: int
    values: tuple[tuple[str, Any], ...]   # (setting path, value) for each --set
    rules: Rules

    @property
    def label(self) -> str:
        return ", ".join(f"{path}={shown(v)}" for path, v in self.values)


@dataclass(frozen=True)
class Plan:
    loaded: LoadedVariant
    assignments: tuple[Assignment, ...]
    points: tuple[GridPoint, ...]


def plan(target: str, sets: Sequence[str]) -> Plan:
    """Every grid point of ``target`` with ``sets`` applied, each checked; SettingError or RuleFileError otherwise."""
    loaded = load(target)
    if not sets:
        raise SettingError("name at least one setting to vary: --set PATH=V1,V2 (e.g. --set game.target=11,21)")
    assignments: list[Assignment] = []
    for text in sets:
        a = parse_assignment(text, loaded.resolved.data)
        if any(b.path == a.path for b in assignments):
            raise SettingError(f"--set {text}: `{'.'.join(a.path)}` is already varied by another --set; "
                               f"give all its values in one, separated by commas")
        assignments.append(a)
    size = math.prod(len(a.values) for a in assignments)
    if size > MAX_GRID:
        raise SettingError(f"the --set values make a grid of {size:,} points; a sweep has at most {MAX_GRID:,} "
                           f"(each point is a variant checked in full and simulated): give fewer values")
    points = []
    for k, combo in enumerate(itertools.product(*(a.values for a in assignments))):
        changes = list(zip(assignments, combo))
        rules = rules_with(loaded.resolved, changes)
        points.append(GridPoint(k, tuple((".".join(a.path), v) for a, v in changes), rules))
    return Plan(loaded, tuple(assignments), tuple(points))


# ---------------------------------------------------------------------- running


Task = tuple[int, dict[str, Any], int, int, bool, tuple[str, ...], int, int]


def run_task(task: Task) -> tuple[int, int, list[GameStats]]:
    """Games [start, stop) of one grid point; a plain function of plain data, so any worker can run it."""
    point, data, seed, players, partners, bots, start, stop = task
    engine = Engine(Rules.from_data(data))
    scorer = Scorer.of(engine)
    return point, start, [play_game(engine, seed, players, partners, bots, k, scorer) for k in range(start, stop)]


def tasks_for(points: Sequence[GridPoint], games: int, seed: int, players: int, partners: bool,
              bots: tuple[str, ...]) -> Iterator[Task]:
    """Each grid point's games in chunks, made as they are asked for (never all at once)."""
    for p in points:
        data = dict(p.rules.data)
        for start, stop in chunks(games, CHUNK):
            yield (p.index, data, seed, players, partners, bots, start, stop)


Result = tuple[int, int, list[GameStats]]
Runner = Callable[[Iterable[Task]], Iterable[Result]]


def local_runner(workers: int) -> Runner:
    """Tasks run in this process, or in ``workers`` processes with a few tasks each submitted ahead."""
    def run(tasks: Iterable[Task]) -> Iterator[Result]:
        if workers <= 1:
            yield from (run_task(t) for t in tasks)
            return
        with worker_pool(workers) as pool:
            yield from in_order(pool, run_task, tasks, workers)
    return run


def scheduler_address(address: str, probe_seconds: float = 3.0) -> str:
    """``address`` as Dask writes it (tcp://host:port), once something is known to listen there.

    Checked here rather than left to Dask, which would wait out its whole timeout on a
    closed port and print its own traceback for an address it cannot parse.
    """
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if scheme not in ("tcp", "tls") or not colon or not host or not port.isdecimal() or not 0 < int(port) < 65536:
        raise CassinoError(f"--cluster {address!r}: write the scheduler's address as tcp://HOST:PORT "
                           f"(e.g. tcp://127.0.0.1:8786)")
    try:
        with socket.create_connection((host, int(port)), timeout=probe_seconds):
            pass
    except OSError as e:
        raise CassinoError(f"--cluster {address}: nothing answers there ({e.strerror or e}); start the scheduler "
                           f"with `dask scheduler` and its workers with `dask worker {scheme}://{host}:{port}`") from None
    return f"{scheme}://{rest}"


def dask_runner(address: str, connect_timeout: float = 10.0) -> Runner:
    """Runs the tasks on the Dask cluster whose scheduler is at ``address`` (tcp://host:port)."""
    return dask_map(address, run_task, connect_timeout)


def dask_map(address: str, fn: Callable[[Any], Any], connect_timeout: float = 10.0,
             batch: int = DASK_BATCH) -> Callable[[Iterable[Any]], Iterator[Any]]:
    """``fn`` over an iterable of tasks on the Dask cluster whose scheduler is at ``address``, in order, a
    batch at a time (never every task at once); what sweep and train share. The cluster's mistakes become
    CassinoErrors that say how to mend them."""
    try:
        from distributed import Client
    except ImportError:
        raise CassinoError("--cluster needs Dask's distributed scheduler: pip install 'cassino[cluster]'") from None
    address = scheduler_address(address)

    def run(tasks: Iterable[Any]) -> Iterator[Any]:
        try:
            client = Client(address, timeout=f"{connect_timeout}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as e:
            raise CassinoError(f"--cluster {address}: cannot reach a Dask scheduler there ({e})") from None
        try:
            it = iter(tasks)
            while chunk := list(itertools.islice(it, batch)):
                yield from client.gather(client.map(fn, chunk, pure=False))
        except ModuleNotFoundError as e:
            raise CassinoError(f"--cluster {address}: the workers cannot import {e.name}: install cassino "
                               f"on every worker") from None
        finally:
            client.close()
    return run


def run(pl: Plan, games: int, seed: int = 1, players: int | None = None, partners: bool = False,
        bots: tuple[str, ...] = ("greedy",), runner: Runner | None = None,
        progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Simulate every grid point; the same arguments give the same numbers whatever the runner.
    ``progress(k)`` is told of each k games played, as their results come back."""
    base = pl.loaded.rules
    players = players or base.seats.min_players
    for p in pl.points:
        s = p.rules.seats
        if not s.min_players <= players <= s.max_players:
            raise CassinoError(f"{p.label}: the variant is for {s.counts()} players, not {players}")
    teams = {p.index: p.rules.partnership(players, partners) for p in pl.points}   # as the games were seated
    tallies = {p.index: Tally(players, teams[p.index], sides_of(Engine(p.rules), players, teams[p.index]))
               for p in pl.points}
    results = (runner or local_runner(1))(tasks_for(pl.points, games, seed, players, partners, bots))
    played, stopped = 0, False
    try:
        for point, _, stats in results:
            for s in stats:   # counted as they come: a sum, whatever order the chunks come back in
                tallies[point].add(s)
            played += len(stats)
            if progress is not None:
                progress(len(stats))
    except KeyboardInterrupt:
        # Ctrl-C: the grid points played so far are said, not lost (an audit's sweep printed only "interrupted",
        # its finished points thrown away), as `simulate` says the games it played.
        if not played:
            raise
        stopped = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()   # (the worker processes stopped with the runner)
    shown_points = [p for p in pl.points if tallies[p.index].games] if stopped else list(pl.points)
    rows = [_row(p, tallies[p.index].summary(p.rules.name, bots, seed), players, teams[p.index])
            for p in shown_points]
    # (as the games were seated: Scopone plays in partnerships whether or not --partners asks; an audit found
    # "partners": false beside its two sides' numbers)
    out = {"variant": base.name, "games": games, "seed": seed, "players": players,
           "partners": any(teams.values()),
           "bots": list(bots), "settings": [".".join(a.path) for a in pl.assignments], "grid": rows}
    if stopped:
        out["interrupted"] = {"asked": games * len(pl.points), "played": played,
                              "points": len(pl.points), "points_played": len(shown_points)}
    return out


def _row(p: GridPoint, summary: dict[str, Any], players: int, partners: bool) -> dict[str, Any]:
    sides = len(summary["sides"]) if summary.get("sides") else 2 if partners else players
    fair = 1 / sides   # (an even share: a half for two sides, a third for six players in three teams of two)
    decided = summary["games"] - summary["no_winner"]
    rate = summary["first_player_win_rate"]
    lo, hi = summary["first_player_win_rate_95ci"]
    return {
        "settings": {path: v for path, v in p.values},
        "games": summary["games"], "decided": decided, "unfinished": summary["unfinished"],
        **({"unfinished_why": unfinished_why(p.rules)} if summary["unfinished"] else {}),
        "leader_win_rate": rate, "leader_win_rate_95ci": [round(lo, 4), round(hi, 4)],
        "leader_advantage": None if rate is None else round(rate - fair, 4),
        "leader_advantage_95ci": [round(lo - fair, 4), round(hi - fair, 4)],
        "moves_per_hand": summary["moves_per_hand"], "sweeps_per_hand": summary["sweeps_per_hand"],
        "hands_per_game": summary["hands_per_game"],
        "partners": partners, "sides": summary["sides"],
        "points_per_hand": {item: round(sum(v), 3) for item, v in summary["points_per_hand"].items()},
        "points_per_hand_by_seat": summary["points_per_hand"],
        "points_per_hand_by_side": summary["points_per_hand_by_side"], "wins_by_side": summary["wins_by_side"],
    }


# ---------------------------------------------------------------------- output


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:.1f}%"


def _pp(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:+.1f}"


def _items(result: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(item for row in result["grid"] for item in row["points_per_hand"]))


def format_text(result: dict[str, Any]) -> str:
    r = result
    who = "the first player to lead" if not r["partners"] else "the side that leads first"
    n = len(r["grid"])
    teams = [row["partners"] for row in r["grid"]]
    # (an audit's grid of seats.partnerships=never,always was headed "in partnerships", its never row four alone)
    seated = " in partnerships" if teams and all(teams) else \
        " in partnerships where a row's rules seat them (each row's sides: --format json)" if any(teams) else ""
    head = [f"{r['variant']}: {n} variant{'s' if n != 1 else ''} x {r['games']} games, {r['players']} players"
            f"{seated}, bots {', '.join(r['bots'])}, seed {r['seed']}",
            f"leader: {who}; advantage: the leader's win rate minus an even share, in percentage points; "
            f"points, sweeps and moves are per hand"]
    for row in r["grid"]:
        if row["unfinished"]:   # (an audit's grid of a game that may never end showed "-" and zeros, unexplained)
            at = ", ".join(f"{s}={shown(v)}" for s, v in row["settings"].items())
            n = row["unfinished"]
            head.append(f"{at}: {n:,} game{'s' if n != 1 else ''} stopped unfinished (after {MOVE_LIMIT:,} moves, or a hand "
                        f"with no capture): {row.get('unfinished_why') or UNFINISHED_WHY}")
    cut = r.get("interrupted")
    if cut:   # (Ctrl-C: the rows are of the games each point had)
        head.append(f"interrupted: {cut['played']:,} of {cut['asked']:,} games played, {cut['points_played']} of "
                    f"{cut['points']} grid points shown; a point cut short counts the games it had (see --format json)")
    items = _items(r)
    header = r["settings"] + ["leader wins (95% CI)", "advantage (95% CI)", "moves/hand", "sweeps/hand"] + [
        f"{i} pts" for i in items]
    rows = []
    for row in r["grid"]:
        lo, hi = row["leader_win_rate_95ci"]
        alo, ahi = row["leader_advantage_95ci"]
        cells = [shown(row["settings"][s]) for s in r["settings"]]
        cells += [f"{_pct(row['leader_win_rate'])} ({_pct(lo)}-{_pct(hi)})",
                  f"{_pp(row['leader_advantage'])} ({_pp(alo)} to {_pp(ahi)})",
                  f"{row['moves_per_hand']:.1f}", f"{row['sweeps_per_hand']:.2f}"]
        cells += [f"{row['points_per_hand'].get(i, 0):.2f}" for i in items]
        rows.append(cells)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = head + [""]
    for cells in [header] + rows:
        lines.append("  ".join(str(c).rjust(w) if k >= len(r["settings"]) else str(c).ljust(w)
                               for k, (c, w) in enumerate(zip(cells, widths))).rstrip())
    return "\n".join(lines) + "\n"


def format_csv(result: dict[str, Any]) -> str:
    items = _items(result)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(result["settings"] + ["games", "decided", "leader_win_rate", "leader_win_rate_low",
                                     "leader_win_rate_high", "leader_advantage", "leader_advantage_low",
                                     "leader_advantage_high", "moves_per_hand", "sweeps_per_hand",
                                     "hands_per_game"] + [f"points_{i}" for i in items])
    for row in result["grid"]:
        w.writerow([shown(row["settings"][s]) for s in result["settings"]]
                   + [row["games"], row["decided"], row["leader_win_rate"], *row["leader_win_rate_95ci"],
                      row["leader_advantage"], *row["leader_advantage_95ci"], row["moves_per_hand"],
                      row["sweeps_per_hand"], row["hands_per_game"]]
                   + [row["points_per_hand"].get(i, 0) for i in items])
    return out.getvalue()


def plot(result: dict[str, Any], path: str, *, replace: bool = False) -> None:
    """The leader's advantage at each grid point, with its 95% interval, as a PNG.

    Drawn in memory and written atomically through :mod:`cassino.files`: an existing file is
    replaced only with ``replace``, a device or folder never.
    """
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise CassinoError("--plot needs matplotlib: pip install 'cassino[plot]'") from None
    grid = result["grid"]
    labels = ["\n".join(shown(row["settings"][s]) for s in result["settings"]) for row in grid]
    y = [(row["leader_advantage"] or 0.0) * 100 for row in grid]
    low = [y[k] - row["leader_advantage_95ci"][0] * 100 for k, row in enumerate(grid)]
    high = [row["leader_advantage_95ci"][1] * 100 - y[k] for k, row in enumerate(grid)]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.4 * len(grid) + 2), 4.5))
    ax.errorbar(range(len(grid)), y, yerr=[low, high], fmt="o", capsize=5, color="#1f4e79")
    ax.axhline(0, color="#888", linewidth=1, linestyle="--")
    ax.set_xticks(range(len(grid)), labels)
    ax.set_xlim(-0.6, len(grid) - 0.4)
    ax.set_ylabel("leader's advantage (percentage points)")
    ax.set_xlabel("\n".join(result["settings"]) if len(result["settings"]) > 1 else result["settings"][0])
    ax.set_title(f"{result['variant']}: {result['games']} games each, 95% intervals")
    fig.tight_layout()
    from ...files import write_atomic

    png = io.BytesIO()
    try:
        fig.savefig(png, format="png", dpi=100)
    finally:
        plt.close(fig)
    write_atomic(path, png.getvalue(), replace=replace, what="the plot")


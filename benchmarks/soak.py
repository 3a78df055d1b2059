"""Play every seating of every variant with random seeds for as long as asked, every consumer run on the
positions reached (issue 48, section 2; the driver is ``cassino.apps.authors.matrix``).

    python benchmarks/soak.py --minutes 5                     # every bundled variant and house rule
    python benchmarks/soak.py --minutes 30 --seed 7 --variant swazi-casino --variant examples/fifty.yaml
    python benchmarks/soak.py --minutes 60 --whole-games      # whole games rather than single hands
    python benchmarks/soak.py --replay standard:4:partners --game-seed 123 --rotation 2   # one run again
    python benchmarks/soak.py --minutes 30 --generated        # house rules drawn at random, one a run
    python benchmarks/soak.py --minutes 10 --positions tests/scenarios/*.yaml   # from written positions

Each run picks a seating (variant, players, partners) in turn from a shuffled list, a game seed and which
computer player sits first (random, greedy, search in turn round the table), plays a hand (or a game), and
runs the hint, warnings, counting aid, tutorial, reasons for an illegal move, the browser's table, solver, OpenSpiel adapter,
PettingZoo environment and review on it, saves its record and reads it back, and checks the batched interface
(``VectorEnv``) of its seating against PettingZoo. With ``--generated``, each run draws a house rule instead (a
bundled variant, or a ``--variant``, with one to five settings overridden: ``cassino.apps.authors.generated``),
writes it to ``--generated-folder`` (kept: a failure's replay names the file) and plays one of its seatings;
what ``cassino validate`` warns of such a rule (a game that may never end) is printed with it, and the slow
calls on warned rules are counted apart at the end. With ``--positions``, each run starts from a scenario
file's case (its position before its moves: positions play may never reach, such as the random ones of a
golden file) rather than a deal, plays the rest of that hand and runs the consumers that read a position
(``matrix.AT_A_POSITION``); a failure's replay names the file and case (``--replay-position``). With
``--generated`` too, each case is read under a house rule drawn from its (bundled) variant (``--under``).
It prints a line a run, a reproduction for every failure (the
seating, seed, record and a command line that replays it) and every call slower than its stated limit
(``matrix.LIMITS``), then each consumer's times. A run longer than ``--run-minutes`` is stopped and listed
as slow, with its replay; the run in progress when the time is up is stopped and not counted (what it found
before is reported). Exit status: 0 when nothing failed, 1 when something did (or was slow, unless
``--ignore-slow``), 2 for a bad argument.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from types import FrameType

from arguments import count, seconds, variant as variant_arg

from cassino.apps.authors import generated
from cassino.apps.authors.matrix import (LIMITS, Budget, Outcome, Run, Seating, Slow, Start, run, run_from,
                                         scenario_starts, seatings, start_named, summary)
from cassino.errors import CassinoError
from cassino.language.variants import bundled_names, load

ROOT = Path(__file__).resolve().parent.parent

#: What a soak run does: the search as `search:4`, the hint exactly as `cassino play` gives it, the review
#: of one seat (in turn) over the whole record.
SOAK = Budget(search=4, hint=None, samples=2, review_deals=1, review_actions=None, solve_cards=8,
              solve_positions=20_000)


class OutOfTime(BaseException):
    """The soak's time is up (not an Exception: the driver records those as findings)."""


#: Seconds between alarms once a run's time is up, until the run stops: an exception raised where Python
#: cannot pass it on (a garbage collector's callback, such as Hypothesis's timing one in the tests, or a
#: ``__del__``) is printed and dropped, and a single alarm would then let the run go on to its end.
ALARM_AGAIN = 1.0


def _stop(signum: int, frame: FrameType | None) -> None:
    raise OutOfTime


def minutes(text: str) -> float:
    """A finite number of minutes above 0."""
    try:
        return seconds(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of minutes above 0") from None


def budget_for(seating: Seating, seed: int, whole_game: bool) -> Budget:
    """The soak's budget for one run (the reviewed seat goes round with the seed)."""
    return replace(SOAK, review_seat=seed % seating.players, whole_game=whole_game)


def default_variants() -> list[str]:
    return list(bundled_names()) + [str(p.relative_to(ROOT)) for p in sorted((ROOT / "examples").glob("*.yaml"))]


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--minutes", type=minutes, help="how long to play (minutes, above 0)")
    p.add_argument("--seed", type=count(0), help="the run's seed (default: a new one, printed)")
    p.add_argument("--variant", type=variant_arg, action="append",
                   help="a bundled variant or rule file (repeat for several; default every bundled variant "
                        "and every house rule in examples/)")
    p.add_argument("--whole-games", action="store_true", help="play whole games rather than one hand each")
    p.add_argument("--generated", action="store_true",
                   help="each run a house rule drawn at random: a bundled variant (or a --variant) with one to "
                        "five settings overridden")
    p.add_argument("--generated-folder", type=Path,
                   help="where the drawn house rules are written and kept (default: a new temporary folder)")
    p.add_argument("--ignore-slow", action="store_true", help="report slow calls without failing for them")
    p.add_argument("--run-minutes", type=minutes, default=LIMITS["run"] / 60,
                   help=f"stop a run that takes longer (listed as slow, with its replay), "
                        f"default {LIMITS['run'] / 60:g}")
    p.add_argument("--replay", metavar="SEATING", help="replay one run: VARIANT:PLAYERS or VARIANT:PLAYERS:partners "
                                                      "(with --game-seed and --rotation, as a failure prints them)")
    p.add_argument("--game-seed", type=count(0), help="the replayed run's game seed")
    p.add_argument("--rotation", type=int, choices=(0, 1, 2), default=0,
                   help="the replayed run's first computer player (0 random, 1 greedy, 2 search at seat 0)")
    p.add_argument("--whole-game", action="store_true", help="the replayed run was a whole game")
    p.add_argument("--positions", nargs="+", metavar="FILE", type=Path,
                   help="start each run from a case of these scenario files (its position before its moves) "
                        "rather than a deal")
    p.add_argument("--replay-position", metavar="FILE", type=Path,
                   help="replay one run from a scenario file's case (with --case, --game-seed and --rotation, "
                        "as a failure prints them)")
    p.add_argument("--case", help="the replayed run's case, by name")
    p.add_argument("--under", metavar="RULES", type=Path,
                   help="the replayed run's case read under this rule file (a drawn house rule, as a failure "
                        "prints it)")
    args = p.parse_args(argv)
    if args.generated_folder is not None and not args.generated:
        p.error("--generated-folder goes with --generated")
    if args.positions and args.variant:
        p.error("--positions plays the scenario files' own variants (or, with --generated, house rules drawn "
                "from them): leave out --variant")
    if (args.case is None) != (args.replay_position is None):
        p.error("--replay-position FILE and --case NAME go together")
    if args.under is not None and args.replay_position is None:
        p.error("--under goes with --replay-position")
    if args.replay_position is not None:
        if args.replay is not None or args.positions or args.minutes is not None:
            p.error("--replay-position plays one run: leave out --replay, --positions and --minutes")
        if args.game_seed is None:
            p.error("--replay-position needs --game-seed (the seed its failure printed)")
        try:
            args.start = start_named(args.replay_position, args.case)
            if args.under is not None:
                load(args.under)      # (its own mistakes said as such)
                args.start = args.start.read_under(str(args.under))
        except CassinoError as e:
            p.error(f"--replay-position: {e}")
        if args.start is None:
            p.error(f"--under: {args.under} cannot hold the case's position (another deck, a build it refuses, "
                    f"a player count it does not seat)")
    elif args.replay is None:
        if args.minutes is None:
            p.error("give --minutes N (how long to play), or --replay SEATING --game-seed S")
        if args.game_seed is not None or args.whole_game:
            p.error("--game-seed and --whole-game go with --replay")
    else:
        if args.game_seed is None:
            p.error("--replay needs --game-seed (the seed its failure printed)")
        if args.minutes is not None or args.variant or args.generated:
            p.error("--replay plays one run: leave out --minutes, --variant and --generated")
        try:
            args.seating = Seating.parse(args.replay)
        except CassinoError as e:
            p.error(f"--replay: {str(e).splitlines()[0]}")
    return args


def report(outcome: Outcome, ignore_slow: bool) -> int:
    """Print a run's failures and slow calls; the number that count against the soak."""
    for failure in outcome.failures:
        print(failure.text(), flush=True)
    for slow in outcome.slow:
        print(slow.text(), flush=True)
    return len(outcome.failures) + (0 if ignore_slow else len(outcome.slow))


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.replay_position is not None:
        origin: Start = args.start
        outcome = run_from(origin, args.game_seed, budget_for(origin.seating, args.game_seed, args.whole_game),
                           args.rotation)
        bad = report(outcome, args.ignore_slow)
        print(f"{origin.label} ({origin.seating.label}) seed {args.game_seed}: {outcome.actions} actions, "
              f"{len(outcome.failures)} failures, {len(outcome.slow)} slow calls")
        print(summary([outcome]), end="")
        return 1 if bad else 0
    if args.replay is not None:
        budget = budget_for(args.seating, args.game_seed, args.whole_game)
        outcome = run(args.seating, args.game_seed, budget, args.rotation)
        bad = report(outcome, args.ignore_slow)
        print(f"{args.seating.label} seed {args.game_seed}: {outcome.actions} actions, "
              f"{len(outcome.failures)} failures, {len(outcome.slow)} slow calls")
        print(summary([outcome]), end="")
        return 1 if bad else 0
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10 ** 9)
    rng = random.Random(seed)
    variants = args.variant or default_variants()
    folder: Path | None = None
    if args.generated:
        variants = args.variant or list(bundled_names())
        folder = args.generated_folder or Path(tempfile.mkdtemp(prefix="cassino-generated-"))
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"soak.py: --generated-folder {folder}: {e.strerror or e}", file=sys.stderr)
            return 2
        drawn = 0
    order: list[Seating | Start]
    if args.positions:
        try:
            order, left_out = scenario_starts(args.positions)   # type: ignore[assignment]
        except CassinoError as e:
            print(f"soak.py: --positions: {e}", file=sys.stderr)
            return 2
        if not order:
            print("soak.py: --positions: no case of these files can be played on (each is impossible or "
                  "finished)", file=sys.stderr)
            return 2
        if folder is not None:   # (a house rule is drawn from a bundled variant)
            order = [s for s in order if isinstance(s, Start) and s.seating.variant in bundled_names()]
            if not order:
                print("soak.py: --positions with --generated: no case of these files is of a bundled variant to "
                      "draw a house rule from", file=sys.stderr)
                return 2
        what = (f"{len(order)} positions of {len(args.positions)} scenario files ({left_out} cases impossible or "
                f"finished, left out)" + (f"; those of a bundled variant each under a house rule drawn from it, "
                                          f"written to {folder}" if folder is not None else ""))
    else:
        order = list(seatings(variants))
        what = (f"house rules drawn from {len(variants)} rule files, written to {folder}" if folder is not None
                else f"{len(order)} seatings of {len(variants)} rule files")
    print(f"soak: seed {seed}, {what}, {args.minutes:g} minutes{', whole games' if args.whole_games else ''}",
          flush=True)
    deadline = time.monotonic() + args.minutes * 60
    outcomes: list[Outcome] = []
    warned: set[str] = set()   # the drawn house rules `cassino validate` warns of
    bad = runs = unreadable = 0
    signal.signal(signal.SIGALRM, _stop)
    try:
        while time.monotonic() < deadline:
            rng.shuffle(order)
            for item in order:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                start = item if isinstance(item, Start) else None
                seating = item.seating if isinstance(item, Start) else item
                if folder is not None:   # (a house rule drawn for this run: of the case's variant, or of any)
                    drawn += 1
                    try:
                        path, data = generated.valid(rng, [seating.variant] if start else variants, folder, drawn)
                    except CassinoError as e:
                        print(f"soak.py: {e}", file=sys.stderr)
                        return 2
                    if start is not None:   # (the case's cards where they lie, under the drawn rule)
                        moved = start.read_under(str(path))
                        if moved is None:
                            unreadable += 1
                            continue
                        start, seating = moved, moved.seating
                    else:
                        seating = rng.choice(seatings([str(path)]))
                    print(f"{path.name}: {generated.summary(data)}", flush=True)
                    for warning in load(path).warnings:   # (a game that may never end: expected to be slow)
                        warned.add(seating.label)
                        print(f"  validate warns: {warning.message}", flush=True)
                game_seed = rng.randrange(10 ** 9)
                rotation = rng.randrange(3)
                budget = budget_for(seating, game_seed, args.whole_games)
                began = time.perf_counter()
                try:
                    runner = Run(seating, game_seed, budget, rotation, start)
                except Exception:  # noqa: BLE001 - run() reports why the run cannot start
                    runner = None
                    outcome = (run(seating, game_seed, budget, rotation) if start is None
                               else run_from(start, game_seed, budget, rotation))
                label = seating.label if start is None else f"{start.label} ({seating.label})"
                signal.setitimer(signal.ITIMER_REAL, min(left, args.run_minutes * 60), ALARM_AGAIN)
                try:
                    if runner is not None:
                        outcome = runner.play()
                except OutOfTime:
                    signal.setitimer(signal.ITIMER_REAL, 0)   # (no second alarm while the stop is reported)
                    assert runner is not None
                    outcome = runner.outcome
                    took = time.perf_counter() - began
                    if time.monotonic() >= deadline - 0.01:
                        print(f"time is up during {label} seed {game_seed} rotation {rotation} "
                              f"(not counted)", flush=True)
                        bad += report(outcome, args.ignore_slow)   # what it found before stays found
                        break
                    outcome.actions = len(runner.record.actions)
                    outcome.slow.append(Slow("run", took, seating, game_seed, rotation, outcome.actions,
                                             args.run_minutes * 60, args.whole_games, start))
                    print(f"stopped {label} seed {game_seed} rotation {rotation} after {took:.0f}s "
                          f"(--run-minutes)", flush=True)
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                runs += 1
                outcomes.append(outcome)
                print(f"[{runs}] {label} seed {game_seed} rotation {rotation}: {outcome.actions} actions, "
                      f"{time.perf_counter() - began:.1f}s, {len(outcome.failures)} failures, "
                      f"{len(outcome.slow)} slow", flush=True)
                bad += report(outcome, args.ignore_slow)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    played = {o.seating for o in outcomes}
    failures = sum(len(o.failures) for o in outcomes)
    slow = sum(len(o.slow) for o in outcomes)
    places = (f"{len(played)} house rules" if folder is not None
              else f"{min(runs, len(order))} of {len(order)} positions, {len(played)} seatings" if args.positions
              else f"{len(played)} of {len(order)} seatings")
    on_warned = sum(len(o.slow) for o in outcomes if o.seating.label in warned)
    why = f", {on_warned} of them on house rules validate warns of" if on_warned else ""
    if unreadable:
        places += f" ({unreadable} drawn house rules could not hold their case's position)"
    print(f"\n{runs} runs, {places}, {sum(o.actions for o in outcomes)} actions; "
          f"{failures} failures, {slow} slow calls{why} (seed {seed})")
    print(summary(outcomes), end="")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""The `cassino` command: validate rule files, list variants, check scenarios, play.

Exit status is part of the contract: 0 success, 1 a check failed (a scenario
case), 2 bad input (a file that cannot be read or is not valid). Errors are
printed as FILE:LINE:COL: message and never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable, Sequence

from .. import __version__
from ..errors import CassinoError, RuleFileError

Handler = Callable[[argparse.Namespace], int]


def _cmd_validate(args: argparse.Namespace) -> int:
    from ..language.variants import load

    results = []
    problems = []
    ok = True
    for target in args.files:
        try:
            loaded = load(target)
            results.append({"file": target, "valid": True, "name": loaded.rules.name, "errors": []})
            if args.format == "text":
                print(f"{target}: ok ({loaded.rules.name})")
        except RuleFileError as e:
            ok = False
            results.append({"file": target, "valid": False, "errors": [d.as_json() for d in e.diagnostics]})
            problems += e.diagnostics
            if args.format == "text":
                for d in e.diagnostics:
                    print(d.format(), file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"valid": ok, "results": results}, indent=2, ensure_ascii=False))
    elif args.format in ("github", "sarif"):
        _print_annotations(args.format, problems)
    elif len(args.files) > 1 or not ok:
        bad = sum(not r["valid"] for r in results)
        print(f"{len(results) - bad} valid, {bad} invalid", file=sys.stderr if bad else sys.stdout)
    return 0 if ok else 2


def _print_annotations(fmt: str, problems: list) -> None:  # type: ignore[type-arg]
    """Problems as GitHub Actions annotations or a SARIF log, for CI to show on the offending line."""
    from .annotations import github, sarif

    if fmt == "github":
        sys.stdout.write(github(problems))
    else:
        print(json.dumps(sarif(problems, __version__), indent=2, ensure_ascii=False))


def _cmd_list(args: argparse.Namespace) -> int:
    from ..language.variants import bundled_names, load_rules

    names = bundled_names()
    width = max(len(n) for n in names)
    for name in names:
        print(f"{name:<{width}}  {load_rules(name).description}")
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    from ..paths import SCHEMA_FILE

    sys.stdout.write(SCHEMA_FILE.read_text(encoding="utf-8"))
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from .scenarios import Runner

    runner = Runner()
    passed = failed = 0
    bad_file = False
    for path in args.files:
        try:
            result = runner.run_file(path)
        except RuleFileError as e:
            bad_file = True
            for d in e.diagnostics:
                print(d.format(), file=sys.stderr)
            continue
        except OSError as e:
            bad_file = True
            print(f"{path}:0: cannot read: {e.strerror or e}", file=sys.stderr)
            continue
        for case in result.cases:
            if case.passed:
                passed += 1
                if args.verbose:
                    print(f"{result.path}: ok: {case.name}")
                continue
            failed += 1
            print(f"{result.path}: FAILED: {case.name}")
            for problem in case.problems:
                print("  " + problem.replace("\n", "\n  "))
            print()
    print(f"{passed} passed, {failed} failed")
    if bad_file:
        return 2
    return 1 if failed else 0


def _cmd_explain(args: argparse.Namespace) -> int:
    from ..language.explain import explain
    from ..language.variants import load_rules

    sys.stdout.write(explain(load_rules(args.variant)))
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    from ..engine.core import Engine
    from .perft import divide, perft
    from ..language.variants import load_rules

    rules = load_rules(args.variant)
    engine = Engine(rules)
    players = args.players or rules.seats.min_players
    if args.scenario:
        from .scenarios import Runner
        from ..language.yamlsource import load_yaml

        doc = load_yaml(args.scenario)
        cases = [c for c in (doc.data or {}).get("cases", []) if isinstance(c, dict) and c.get("name") == args.case]
        if not cases:
            raise CassinoError(f"{args.scenario}: no case named {args.case!r}")
        state, _ = Runner().position(cases[0], doc.data, rules, engine)
    else:
        state = engine.start(args.seed, players, partners=args.partners)
    if args.divide:
        total = 0
        for text, count in divide(engine, state, args.depth):
            print(f"{text}: {count}")
            total += count
        print(f"total: {total}")
    else:
        print(perft(engine, state, args.depth))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .play import default_console, start_session
    from .records import Record, load_record
    from ..language.variants import load

    console = default_console()
    if args.resume:
        record = load_record(args.resume)
        save = Path(args.save or args.resume)
    else:
        if not args.variant:
            raise CassinoError("name a variant or rule file to play (cassino list shows them), or --resume FILE")
        loaded = load(args.variant)
        rules = loaded.rules
        players = args.players or rules.seats.min_players
        if not rules.seats.min_players <= players <= rules.seats.max_players:
            raise CassinoError(f"{rules.name} is for {rules.seats.min_players} to {rules.seats.max_players} players")
        if args.partners and players != 4:
            raise CassinoError("--partners needs --players 4")
        humans = args.humans
        if not 0 <= humans <= players:
            raise CassinoError(f"--humans must be between 0 and {players}")
        bots = _checked_bots(args.bot or ["search"])
        seats = ["human"] * humans + [bots[k % len(bots)] for k in range(players - humans)]
        seed = args.seed if args.seed is not None else _fresh_seed()
        record = Record(rules, seed, players, bool(args.partners or rules.partnership(players, None)), seats,
                        source=str(args.variant))
        save = Path(args.save or f"cassino-{rules.name}-{seed}.json")
        record.save(save)
    session = start_session(record, save, console, bot_seed=record.seed)
    return session.run()


def _checked_bots(names: list[str]) -> list[str]:
    """The names, once each is known to make a computer player (else a CassinoError saying why)."""
    from ..players.bots import make_bot

    for b in names:
        make_bot(b)
    return names


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(10**9)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .records import load_record, replay

    record = load_record(args.file)
    game = replay(record)
    state = "over" if game.over else f"in progress (hand {game.hand_no}, seat {game.hand.turn} to play)"
    winner = "" if game.winner is None else f", winner side of seat {min(s for s in range(game.players) if game.hand.teams[s] == game.winner)}"
    print(f"{args.file}: {record.rules.name}, seed {record.seed}, {len(record.actions)} actions replayed; "
          f"game {state}; scores {list(game.scores)}{winner}")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import format_text, run

    bots = tuple(_checked_bots(args.bots.split(",") if args.bots else ["greedy"]))
    if args.games < 1:
        raise CassinoError("--games must be at least 1")
    if args.format == "text" and args.games >= 50 and sys.stderr.isatty():
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("simulating", total=args.games)
            summary = run(args.variant, args.games, args.seed, args.players, args.partners, bots, args.workers,
                          progress=lambda k: bar.advance(task, k))
    else:
        summary = run(args.variant, args.games, args.seed, args.players, args.partners, bots, args.workers)
    if args.format == "json":
        print(json.dumps(summary, indent=2))
    else:
        print(format_text(summary))
    return 0


# ---------------------------------------------------------------------- for rule authors: rules, diff, sweep


def _write_output(text: str, output: str | None) -> None:
    """``text`` to stdout, or to ``output`` (a CassinoError when it cannot be written)."""
    if not output:
        sys.stdout.write(text)
        return
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CassinoError(f"{output}: cannot write: {e.strerror or e}") from None


def _cmd_rules(args: argparse.Namespace) -> int:
    from ..language.render import render
    from .rulebooks import full_rulebook

    book = full_rulebook(args.variant, with_worked_examples=not args.no_examples, marked=not args.unmarked)
    _write_output(render(book, args.format), args.output)
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    from ..language.variants import load
    from .differences import as_json, compare, format_text

    if args.tries < 1:
        raise CassinoError("--tries must be at least 1")
    a, b = load(args.a).rules, load(args.b).rules
    report = compare(a, b, seed=args.seed, tries=args.tries)
    if args.format == "json":
        print(json.dumps(as_json(report), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(format_text(report))
    return 0


def _cmd_sweep(args: argparse.Namespace) -> int:
    from .sweep import dask_runner, format_csv, format_text, local_runner, plan, plot, run

    if args.games < 1:
        raise CassinoError("--games must be at least 1")
    if args.workers < 1:
        raise CassinoError("--workers must be at least 1")
    if args.partners and args.players not in (None, 4):
        raise CassinoError("--partners needs --players 4")
    bots = tuple(_checked_bots(args.bots.split(",") if args.bots else ["greedy"]))
    grid = plan(args.file, args.set or [])
    runner = dask_runner(args.cluster) if args.cluster else local_runner(args.workers)
    players = args.players or (4 if args.partners else None)
    result = run(grid, args.games, args.seed, players, args.partners, bots, runner)
    if args.format == "json":
        text = json.dumps(result, indent=2, ensure_ascii=False) + "\n"
    elif args.format == "csv":
        text = format_csv(result)
    else:
        text = format_text(result)
    sys.stdout.write(text)
    if args.plot:
        plot(result, args.plot)
    return 0


def _add_author_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("rules", help="a variant's complete rulebook in words, with worked examples checked by the engine")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--format", choices=["text", "markdown", "html"], default="text")
    p.add_argument("--output", "-o", metavar="FILE", help="write the rulebook to FILE instead of the terminal")
    p.add_argument("--no-examples", action="store_true", help="leave out the worked examples")
    p.add_argument("--unmarked", action="store_true", help="for a house rule, do not mark what differs from its parent")
    p.set_defaults(handler=_cmd_rules)

    p = sub.add_parser("diff", help="the rules two variants differ in, in words, with positions where they allow different moves")
    p.add_argument("a", metavar="A", help="a bundled variant or rule file")
    p.add_argument("b", metavar="B", help="a bundled variant or rule file")
    p.add_argument("--seed", type=int, default=1, help="seed of the random positions searched (default 1)")
    p.add_argument("--tries", type=int, default=300, help="random positions searched per difference (default 300)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(handler=_cmd_diff)

    p = sub.add_parser("sweep", help="simulate a grid of variants (--set PATH=V1,V2) and compare their balance")
    p.add_argument("file", metavar="VARIANT|FILE")
    p.add_argument("--set", action="append", metavar="PATH=V1,V2",
                   help="a setting and the values to try, e.g. game.target=11,21 (repeat for a grid)")
    p.add_argument("--games", type=int, default=100, help="games per grid point (default 100)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int)
    p.add_argument("--partners", action="store_true", help="four players as two teams")
    p.add_argument("--bots", metavar="a,b,...", help="computer players by seat (default greedy)")
    p.add_argument("--workers", type=int, default=1, help="local worker processes (default 1)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run the games on a Dask cluster (tcp://host:port)")
    p.add_argument("--format", choices=["text", "json", "csv"], default="text")
    p.add_argument("--plot", metavar="FILE.png", help="draw the leader's advantage per grid point (needs matplotlib)")
    p.set_defaults(handler=_cmd_sweep)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cassino", description="Cassino rule files: validate, explain, check, play.")
    parser.add_argument("--version", action="version", version=f"cassino {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check variant files or bundled names; exit 0 when all are valid, 2 when not")
    p.add_argument("files", nargs="+", metavar="FILE|NAME")
    p.add_argument("--format", choices=["text", "json", "github", "sarif"], default="text",
                   help="github: GitHub Actions annotations; sarif: a SARIF 2.1.0 log for code scanning")
    p.set_defaults(handler=_cmd_validate)

    p = sub.add_parser("list", help="the bundled variants, one line each")
    p.set_defaults(handler=_cmd_list)

    p = sub.add_parser("schema", help="print the rule language's JSON Schema")
    p.set_defaults(handler=_cmd_schema)

    p = sub.add_parser("explain", help="a variant's rules in words")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.set_defaults(handler=_cmd_explain)

    p = sub.add_parser("perft", help="count move sequences of a given depth (engine regression data)")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--players", type=int)
    p.add_argument("--partners", action="store_true")
    p.add_argument("--divide", action="store_true", help="counts per first move")
    p.add_argument("--scenario", metavar="FILE", help="start from a scenario case's position (with --case)")
    p.add_argument("--case", metavar="NAME")
    p.set_defaults(handler=_cmd_perft)

    p = sub.add_parser("play", help="play a variant or rule file against the computer (or each other)")
    p.add_argument("variant", nargs="?", metavar="VARIANT|FILE")
    p.add_argument("--players", type=int)
    p.add_argument("--partners", action="store_true", help="four players as two teams (seats 0+2, 1+3)")
    p.add_argument("--humans", type=int, default=1, help="people at the keyboard (seats 0..N-1); default 1")
    p.add_argument("--bot", action="append", metavar="NAME", help="computer player: random, greedy, search, search:N (N deals a move), search:Xs (X seconds a move); default search; repeat for several")
    p.add_argument("--seed", type=int)
    p.add_argument("--save", metavar="FILE", help="the game record (written after every move)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game")
    p.set_defaults(handler=_cmd_play)

    p = sub.add_parser("replay", help="replay and verify a game record")
    p.add_argument("file")
    p.set_defaults(handler=_cmd_replay)

    p = sub.add_parser("simulate", help="statistics of many games between computer players")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int)
    p.add_argument("--partners", action="store_true")
    p.add_argument("--bots", metavar="a,b,...", help="computer players by seat, repeated as needed (default greedy)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(handler=_cmd_simulate)

    p = sub.add_parser("check", help="run scenario files (executable rule examples); exit 0 all pass, 1 a case failed, 2 a bad file")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-v", "--verbose", action="store_true", help="also list the cases that pass")
    p.set_defaults(handler=_cmd_check)

    _add_author_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except CassinoError as e:
        print(f"cassino: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

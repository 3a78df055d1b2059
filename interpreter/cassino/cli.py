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

from . import __version__
from .errors import CassinoError, RuleFileError

Handler = Callable[[argparse.Namespace], int]


def _cmd_validate(args: argparse.Namespace) -> int:
    from .variants import load

    results = []
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
            if args.format == "text":
                for d in e.diagnostics:
                    print(d.format(), file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"valid": ok, "results": results}, indent=2, ensure_ascii=False))
    elif len(args.files) > 1 or not ok:
        bad = sum(not r["valid"] for r in results)
        print(f"{len(results) - bad} valid, {bad} invalid", file=sys.stderr if bad else sys.stdout)
    return 0 if ok else 2


def _cmd_list(args: argparse.Namespace) -> int:
    from .variants import bundled_names, load_rules

    names = bundled_names()
    width = max(len(n) for n in names)
    for name in names:
        print(f"{name:<{width}}  {load_rules(name).description}")
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    from .paths import SCHEMA_FILE

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
    from .explain import explain
    from .variants import load_rules

    sys.stdout.write(explain(load_rules(args.variant)))
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    from .engine import Engine
    from .perft import divide, perft
    from .variants import load_rules

    rules = load_rules(args.variant)
    engine = Engine(rules)
    players = args.players or rules.seats.min_players
    if args.scenario:
        from .scenarios import Runner
        from .yamlsource import load_yaml

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cassino", description="Cassino rule files: validate, explain, check, play.")
    parser.add_argument("--version", action="version", version=f"cassino {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check variant files or bundled names; exit 0 when all are valid, 2 when not")
    p.add_argument("files", nargs="+", metavar="FILE|NAME")
    p.add_argument("--format", choices=["text", "json"], default="text")
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

    p = sub.add_parser("check", help="run scenario files (executable rule examples); exit 0 all pass, 1 a case failed, 2 a bad file")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-v", "--verbose", action="store_true", help="also list the cases that pass")
    p.set_defaults(handler=_cmd_check)

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

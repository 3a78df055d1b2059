"""The `cassino` command: validate rule files, list variants, check scenarios, play.

Exit status is part of the contract: 0 success, 1 a check failed (a scenario
case), 2 bad input (a file that cannot be read or is not valid, an option out
of range), 3 an internal error (a bug). Errors are printed as one line
(FILE:LINE:COL: message where there is a place to point at, then any context)
and never as a traceback; with ``--format json`` as one JSON document on stdout,
``{"ok": false, "errors": [{"file", "line", "column", "message", "hint"}]}``.

Start-up time matters (editors and CI call `cassino validate` often): this
module imports nothing heavy at import time; each command imports what it needs.
"""

from __future__ import annotations

import sys

from .. import __version__

TYPE_CHECKING = False   # not from typing: see cassino/__init__.py (start-up time)
if TYPE_CHECKING:  # pragma: no cover
    import argparse
    from typing import Any, Callable, NoReturn, Sequence

    Handler = Callable[[argparse.Namespace], int]


def _printable(text: str) -> str:
    """``errors.printable``: text from a file with the characters a terminal acts on escaped (``\\x1b``), and a
    lone surrogate (a file name that is not UTF-8) as ``\\udcff``, as standard error says it: written to a strict
    UTF-8 standard output it was an internal error (exit 3) after `cassino validate` had found the file valid."""
    from ..errors import printable

    said = printable(text)
    if not said.isascii():
        import re

        said = re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", said)
    return said


def _say(text: str, *, file: Any = None) -> None:
    """``print`` for text that holds what a file said (a name, a description, a case): escaped first."""
    print(_printable(text), file=file)


def _json_text(data: Any, indent: int) -> str:
    import json
    import re

    from ..errors import printable_json

    # A lone surrogate (a file name that is not UTF-8, `\udcff` for the byte 0xff) as a JSON escape: written
    # raw it made the output not UTF-8 (a parser failed on it) or, where stdout is strict UTF-8, exit 3.
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}",
                  printable_json(json.dumps(data, indent=indent, ensure_ascii=False)))


def _say_json(data: Any, indent: int) -> None:
    """JSON output: the same data, with no character left raw that a terminal would act on (to a reader that has gone,
    a pipe into `head`, nothing: the command's status stands)."""
    try:
        print(_json_text(data, indent), flush=True)
    except BrokenPipeError:
        _stdout_gone()


class _Bar:
    """How far a long command has gone, on standard error when it is a terminal (``simulate``, ``sweep``,
    ``review``): a bar cleared at the end; nothing anywhere else (a pipe, a file, CI). Use as a context
    manager; ``advance(k)`` and ``done(n)`` are the callbacks the commands' ``progress`` take."""

    def __init__(self, label: str, total: int, *, shown: bool = True) -> None:
        self.label, self.total = label, total
        self.shown = shown and sys.stderr.isatty()
        self._bar: Any = None

    def __enter__(self) -> "_Bar":
        if self.shown:
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=self.total)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)

    def advance(self, k: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, k)

    def done(self, n: int, _total: int | None = None) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=n)


def _error(message: str) -> Exception:
    from ..errors import CassinoError

    return CassinoError(message)


def _named(example: str) -> Callable[[str], str]:
    """An option's type that refuses an empty value (an audit's `rules -o ''` printed to the terminal, `serve
    --records ''` took in the current folder's game records as tables): ``example`` is what to write instead."""
    def named(text: str) -> str:
        import argparse

        if not text.strip():
            raise argparse.ArgumentTypeError(f"names nothing (an empty value); name one, e.g. {example}")
        return text
    return named


def _cmd_validate(args: argparse.Namespace) -> int:
    from ..errors import RuleFileError
    from ..language.variants import load

    if args.strict:
        from .authors.annotations import as_failing
    results = []
    found = []   # every file's errors and warnings, in the files' order
    for target in args.files:
        try:
            loaded = load(target)
        except RuleFileError as e:
            # ("name": null where the file did not load: every entry has the same fields, for the scripts that
            # read them; an audit's `r["name"]` failed on a bad file's entry.)
            results.append({"file": target, "valid": False, "name": None,
                            "errors": [d.as_json() for d in e.diagnostics], "warnings": []})
            found += e.diagnostics
            if args.format == "text":
                for d in e.diagnostics:
                    print(d.format(), file=sys.stderr)
            continue
        warnings = list(loaded.warnings)
        valid = not (args.strict and warnings)
        found += warnings
        # (Under --strict the warnings fail the run: in JSON they are the file's errors too, marked as warnings
        # refused under --strict, so that `"ok": false` comes with the errors that made it; an audit found
        # `"errors": []` beside it.)
        failing = [as_failing(d).as_json() for d in warnings] if args.strict else []
        results.append({"file": target, "valid": valid, "name": loaded.rules.name, "errors": failing,
                        "warnings": [d.as_json() for d in warnings]})
        if args.format == "text":
            for d in warnings:   # (under --strict an error, as every format says it: `FILE:L:C: warning, refused
                # under --strict: ...`, which a problem matcher reads as an error, not `warning:`)
                print((as_failing(d) if args.strict else d).format(), file=sys.stderr)
            from ..errors import one_line

            _say(f"{one_line(target)}: {'ok' if valid else 'refused under --strict'} ({loaded.rules.name})"
                 f"{_warnings_said(len(warnings))}", file=None if valid else sys.stderr)
    ok = all(r["valid"] for r in results)
    warned = [d for d in found if d.severity == "warning"]
    if args.format == "json":   # "ok" and "errors" as every command's JSON error has them; "results" per file
        _say_json({"ok": ok, "valid": ok, "errors": [e for r in results for e in r["errors"]],   # (files' order)
                   "warnings": [d.as_json() for d in warned], "results": results}, indent=2)
    elif args.format in ("github", "sarif"):
        _print_annotations(args.format, found, strict=args.strict)
    elif len(args.files) > 1 or not ok:
        bad = sum(not r["valid"] for r in results)
        print(f"{len(results) - bad} valid, {bad} invalid{_warnings_said(len(warned))}",
              file=sys.stderr if bad else sys.stdout)
    return 0 if ok else 2


def _warnings_said(n: int) -> str:
    """", 2 warnings" after a file's or a run's verdict; nothing where there are none."""
    return f", {n} warning{'s' * (n != 1)}" if n else ""


def _print_annotations(fmt: str, problems: list, *, strict: bool = False) -> None:  # type: ignore[type-arg]
    """Problems as GitHub Actions annotations or a SARIF log, for CI to show on the offending line; ``strict``:
    the warnings fail the run, and are said as errors."""
    from .authors.annotations import github, sarif

    if fmt == "github":
        sys.stdout.write(_printable(github(problems, strict=strict)))
    else:
        _say_json(sarif(problems, __version__, strict=strict), indent=2)


def _cmd_list(args: argparse.Namespace) -> int:
    from ..language.catalogue import bundled_names, describe, example_names

    for heading, names in (("", bundled_names()),
                           ("\nhouse rules (examples/; play, validate or extend them by name):", example_names())):
        if heading and names:
            print(heading)
        width = max((len(n) for n in names), default=0)
        for name in names:
            print(f"{name:<{width}}  {describe(name)}")   # shipped files only (and `list` imports nothing more)
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    from ..paths import SCHEMA_FILE

    sys.stdout.write(SCHEMA_FILE.read_text(encoding="utf-8"))
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from ..errors import RuleFileError
    from .authors.scenarios import Runner

    runner = Runner()
    passed = failed = 0
    bad_file = False
    for path in args.files:
        try:
            result = runner.run_file(path)
        except RuleFileError as e:
            bad_file = True
            for d in (_rule_file_instead(path, "check") or e).diagnostics:
                print(d.format(column=False), file=sys.stderr)   # FILE:LINE: message, as SCENARIOS.md says
            continue
        except OSError as e:
            bad_file = True
            _say(f"{path}:0: cannot read: {e.strerror or e}", file=sys.stderr)
            continue
        for case in result.cases:
            if case.passed:
                passed += 1
                if args.verbose:
                    _say(f"{result.path}: ok: {case.name}")
                continue
            failed += 1
            _say(f"{result.path}: FAILED: {case.name}")
            for problem in case.problems:
                _say("  " + problem.replace("\n", "\n  "))
            print()
    print(f"{passed} passed, {failed} failed")
    if bad_file:
        return 2
    return 1 if failed else 0


def _rule_file_instead(path: str, command: str) -> Any:
    """When ``path``, given to ``command`` where a scenario file belongs, is a rule file (a top-level
    ``name``, ``extends`` or ``deck``, and no ``cases``): the one RuleFileError that says so, rather than
    an unknown key for each of its settings. None when it is not (or cannot be read as YAML)."""
    import shlex

    from ..errors import Diagnostic, RuleFileError
    from ..language.resolve import load_named

    try:
        data = load_named(path).data
    except RuleFileError:
        return None
    if not isinstance(data, dict) or "cases" in data or not {"name", "extends", "deck"} & set(data):
        return None
    return RuleFileError([Diagnostic(str(path), 0, 0, f"this is a rule file; {command} takes scenario files: "
                                                      f"use `cassino validate {shlex.quote(str(path))}`",
                                     hint="a scenario file names a `variant` and lists `cases` (see the "
                                          "scenarios page of the docs); `cassino play FILE` plays a rule file")])


def _cmd_explain(args: argparse.Namespace) -> int:
    from ..language.explain import explain
    from ..language.variants import load

    loaded = load(args.variant)   # with its `extends` chain: explain marks what is inherited
    sys.stdout.write(_printable(explain(loaded.rules, loaded.resolved)))
    from ..players.weights import described

    lines = ["", "computer player (search): its playouts, by seating"] + [f"  {line}" for line in described(loaded.rules)]
    if loaded.warnings:   # (what ``cassino validate`` warns of; each already escaped by ``format``)
        lines += ["", "warnings: these rules play, but may not as meant"]
        lines += ["  " + line for d in loaded.warnings for line in d.format().splitlines()]
    sys.stdout.write(_printable("\n".join(lines) + "\n"))
    return 0


def _scenario_position(args: argparse.Namespace, rules: Any, engine: Any) -> Any:
    """The position of ``--case`` in ``--scenario``, for perft."""
    import os

    from ..errors import RuleFileError
    from ..language.resolve import load_named
    from .authors.scenario_format import check_file
    from .authors.scenarios import Runner

    if not args.case:
        raise _error("--scenario needs --case NAME: the case whose position to count from")
    doc = load_named(args.scenario)
    problems = check_file(doc, expectations=False)   # its numbers within their bounds before any is used
    if problems:
        raise _rule_file_instead(args.scenario, "--scenario") or RuleFileError(problems)
    data = doc.data if isinstance(doc.data, dict) else {}
    cases = [c for c in data.get("cases", []) or [] if isinstance(c, dict)]
    chosen = [c for c in cases if c.get("name") == args.case]
    if not chosen:
        names = ", ".join(repr(str(c.get("name"))) for c in cases) or "none"
        raise _error(f"{args.scenario}: no case named {args.case!r}; its cases: {names}")
    runner = Runner()   # (its variants loaded once: the check below, then the position)
    ref = chosen[0].get("variant", data.get("variant"))
    if ref is not None:   # (an audit's `perft royal --scenario` counted a standard case under royal's rules)
        from pathlib import Path

        from ..language.resolve import names_a_path
        from ..players.weights import rules_hash
        from .authors.scenarios import VariantRefused

        base = Path(os.path.realpath(args.scenario)).parent
        try:
            plays = runner.variant(ref, base)[0]
        except VariantRefused as e:
            raise _error(f"{args.scenario}: `variant` {ref!r}: {e.message}") from None
        if rules_hash(plays) != rules_hash(rules):
            # (a path as the scenario names it is relative to its folder: said from here, as a command takes it)
            named = os.path.relpath(base / str(ref)) if names_a_path(str(ref)) else str(ref)
            theirs, ours = plays.name, rules.name
            if theirs == ours:   # (two files of one name: a re-attack read "a position of nr, not of nr")
                theirs, ours = named, args.variant
            raise _error(f"{args.scenario}, case {args.case!r}, is a position of {theirs} (its `variant:`), not "
                         f"of {ours}: count it with `cassino perft {named} --scenario {args.scenario} --case "
                         f"{args.case!r}`")
    case = chosen[0]
    if not case.get("moves"):
        state, _ = runner.position(case, data, rules, engine)
        return state
    # The case's own moves first, as `solve` plays them (a re-attack: perft counted from before them, a refused
    # move among them unsaid).
    from ..engine.scoring import Scorer
    from .authors.scenarios import play_moves

    outcome = play_moves(case, runner.setup(case, data, rules, engine, Scorer.of(engine)), engine)
    if isinstance(outcome, str):
        raise _error(f"{args.scenario}, case {args.case!r}: {outcome}")
    print(f"(from the position after the case's {len(case['moves'])} move{'' if len(case['moves']) == 1 else 's'})",
          file=sys.stderr)
    return outcome.hand


def _cmd_perft(args: argparse.Namespace) -> int:
    from ..engine.core import Engine
    from ..language.variants import load_rules
    from .authors.perft import check_depth, divide, perft
    from .game.seating import partnership, player_count

    if args.case and not args.scenario:
        raise _error("--case names a case of a scenario file: give --scenario FILE too"
                     if args.scenario is None else "--scenario names no file (an empty name): name the scenario file")
    if args.scenario:
        given = [name for name, on in (("--players", args.players is not None), ("--partners", args.partners),
                                       ("--seed", args.seed is not None)) if on]
        if given:   # (an audit's were passed over without a word)
            raise _error(f"--scenario counts from its case's own position, seats and cards: leave out {', '.join(given)}")
    rules = load_rules(args.variant)
    engine = Engine(rules)
    if args.scenario:
        state = _scenario_position(args, rules, engine)
        where = f"{args.scenario}, case {args.case!r}"
    else:
        players = player_count(rules, args.players)
        seed = 1 if args.seed is None else args.seed
        state = engine.start(seed, players, partners=partnership(rules, players, args.partners))
        where = f"{players} players, seed {seed}"
    check_depth(state, args.depth)
    shown = sys.stderr.isatty() and args.depth >= 2
    if shown:
        _perft_estimate(engine, state, args.depth)
    if args.divide:
        total = 0
        for text, count in divide(engine, state, args.depth):
            _say(f"{text}: {count}")
            total += count
        print(f"total: {total}")
        return 0
    count = _perft_with_bar(engine, state, args.depth) if shown else perft(engine, state, args.depth)
    plural = "s" if args.depth != 1 else ""
    _say(f"{rules.name}, {where}: {count} move sequence{'s' if count != 1 else ''} of {args.depth} move{plural}")
    return 0


def _perft_estimate(engine: Any, state: Any, depth: int) -> None:
    """On a terminal, before counting: how big the count will be and how long it will take, roughly."""
    from .authors.perft import duration, estimate

    guess = estimate(engine, state, depth)
    print(f"perft: about {guess.sequences:.2g} move sequences to count, about {duration(guess.seconds)} at this "
          f"machine's speed (a rough guess; Ctrl-C stops)", file=sys.stderr)


def _perft_with_bar(engine: Any, state: Any, depth: int) -> int:
    """perft on a terminal, with a progress bar over the first moves (cleared when done)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from .authors.perft import perft

    with Progress(TextColumn("first moves"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("perft", total=None)
        return perft(engine, state, depth, progress=lambda done, total: bar.update(task, completed=done, total=total))


def _cmd_play(args: argparse.Namespace) -> int:
    """Start or resume a game; the record it writes is held by this process alone while it plays.

    The lock is taken before a resumed record is read, so a second terminal resuming the same
    record is refused rather than playing from the same moves and overwriting the first's.
    """
    import os
    from pathlib import Path

    from ..files import exclusive
    from .game.records import claim_path, load_game, load_record, start_new, writable_path

    for option, value in (("--save", args.save), ("--resume", args.resume)):
        if value is not None and not value.strip():   # ('' was read as no option: a game saved elsewhere)
            raise _error(f"{option} names no file (an empty name); name one, e.g. {option} game.json")
    if args.force and not args.save:
        raise _error("--force lets --save FILE replace an existing file: name the file with --save")
    if args.resume:
        given = [name for name, on in (("the variant", args.variant), ("--players", args.players is not None),
                                       ("--partners", args.partners), ("--humans", args.humans is not None),
                                       ("--bot", args.bot), ("--seed", args.seed is not None)) if on]
        if given:
            raise _error(f"--resume continues the recorded game with its own variant, seats and seed; "
                         f"leave out {', '.join(given)}")
        _aids_need_a_person(args, load_record(args.resume).seats)   # (a file that is no record: said before --save)
        elsewhere = bool(args.save) and os.path.realpath(args.save) != os.path.realpath(args.resume)
        save = claim_path(args.save, replace=args.force) if elsewhere else writable_path(args.resume)
    else:
        if args.save:
            _never_a_rule_file(args.save, args.variant, "--save", "the game's record", "game.json")
        record = _new_record(args)
        if not args.save:
            # A name no other game has, taken and locked in one step: four games started at once with
            # the same seed get -2, -3, -4 (two were refused as "being played in another process").
            # (the name cut short where a record's rules came from elsewhere: a file name has 255 bytes)
            save, held = start_new(record, Path("."), f"cassino-{record.rules.name[:64]}-{record.seed}")
            try:
                return _session(record, save, args)
            finally:
                held.release()
        save = claim_path(args.save, replace=args.force)
    import shlex

    busy = (f"is being played in another cassino process; finish or quit that game first "
            f"(or continue a copy with --resume {shlex.quote(str(save))} --save ANOTHER.json)")
    with exclusive(save, what="the game record", busy=busy):
        if args.resume:
            record, game = load_game(args.resume)   # read again under the lock: the moves as last written
            if elsewhere:
                record.save(save, game)   # the copy exists from now on, even when no move is left to play
        else:
            record.save(save)
        return _session(record, save, args)


def _session(record: Any, save: Any, args: argparse.Namespace) -> int:
    """Play ``record``'s game at the terminal, writing ``save`` after every move (its lock held by the caller)."""
    from .game.play import Aids, default_console, start_session

    session = start_session(record, save, default_console(), bot_seed=record.seed,
                            aids=Aids.of(record, count=args.count, warn=args.warn, tutorial=args.tutorial))
    return session.run()


def _new_record(args: argparse.Namespace) -> Any:
    from ..language.variants import load
    from .game.records import Record
    from .game.seating import partnership, player_count

    if not args.variant:
        raise _error("name a variant or rule file to play (cassino list shows them), or --resume FILE")
    loaded = load(args.variant)
    for warning in loaded.warnings:   # (what validate warns of: a game that may never end, said before it starts)
        print(warning.format(caret=False), file=sys.stderr)
    rules = loaded.rules
    players = player_count(rules, args.players)
    partners = partnership(rules, players, args.partners)
    humans = 1 if args.humans is None else args.humans
    if not 0 <= humans <= players:
        raise _error(f"--humans must be 0 to {players} (the players at the table); got {humans}")
    names = _bot_names(args.bot)
    bots = _seat_bots(names, players - humans, first=humans) if names else ("search",) * (players - humans)
    seats = ["human"] * humans + list(bots)
    _say_cache_trouble(rules, seats)
    _aids_need_a_person(args, seats)
    seed = args.seed if args.seed is not None else _fresh_seed()
    # (the aids kept from the record's first writing: a game resumed before its first move keeps them too)
    return Record(rules, seed, players, partners, seats, source=str(args.variant),
                  taught={} if args.tutorial else None,
                  aids=[name for name, on in (("count", args.count), ("warn", args.warn)) if on])


def _aids_need_a_person(args: argparse.Namespace, seats: list[str]) -> None:
    """--count and --warn speak to a person at the keyboard, at their own turn: with no seat for one they would do
    nothing, silently (an audit's find). The tutorial may be watched: it teaches what happens to the game."""
    asked = [option for option, on in (("--count", args.count), ("--warn", args.warn)) if on]
    if asked and "human" not in seats:
        raise _error(f"{' and '.join(asked)} {'help' if len(asked) > 1 else 'helps'} a person playing, at their own "
                     f"turn, and no seat here is one "
                     f"(--humans 0): leave {'them' if len(asked) > 1 else 'it'} out, or play a seat yourself")


def _bot_names(values: list[str] | None) -> list[str]:
    """Computer players from repeated ``--bot`` options, each of which may also list several (a,b)."""
    from ..players.bots import make_bot

    # (any case, as cards are typed: `--bot GREEDY` was refused)
    names = [n.strip().lower() for v in values or [] for n in v.split(",")]
    for name in names:
        make_bot(name)
    return names


def _seat_bots(names: list[str], seats: int, first: int = 0) -> tuple[str, ...]:
    """The computer seats' players: the names given in seat order, the list repeating from its start when
    it is shorter (``a,b`` for three seats: a, b, a; so ``search,greedy`` at four seats gives each team one).

    More names than computer seats is refused: a name that would sit nowhere is a mistake. A list that
    repeats is said on stderr, seat by seat (``first``: the first computer seat's number).
    """
    if len(names) > seats:
        given = f"--bot names {len(names)} computer player{'s' if len(names) != 1 else ''} ({', '.join(names)})"
        if not seats:
            raise _error(f"{given} but every seat is a person: leave out --bot, or lower --humans")
        where = f"seat {first}" if seats == 1 else f"seats {first} to {first + seats - 1}"
        raise _error(f"{given} but the table has {seats} computer seat{'s' if seats != 1 else ''} ({where}): "
                     f"name at most {seats}; they take the computer seats in order")
    chosen = tuple(names[k % len(names)] for k in range(seats))
    if 1 < len(names) < seats:
        listed = ", ".join(f"seat {first + k} {name}" for k, name in enumerate(chosen))
        print(f"cassino: note: {len(names)} computer players named for {seats} computer seats; the list "
              f"repeats from its start: {listed}", file=sys.stderr)
    return chosen


def _simulated_bots(args: argparse.Namespace, players: int | None) -> tuple[str, ...]:
    """simulate's and sweep's players: ``--bot`` (or the old ``--bots``, with a note), greedy unless told.

    Every seat is a computer, so the list maps to seats 0, 1, ... as in `cassino play` (repeating when
    shorter, refused when longer). ``players`` None (sweep without --players): checked per grid point
    with :func:`_check_bot_count`.
    """
    names = _bot_names((args.bot or []) + ([args.bots] if args.bots else [])) or ["greedy"]
    if players is not None:
        _seat_bots(names, players)
    if args.bots:
        print("cassino: note: --bots is the old spelling of --bot (repeat --bot, or give --bot a,b); "
              "it still works", file=sys.stderr)
    return tuple(names)


def _check_bot_count(bots: tuple[str, ...], players: int) -> None:
    """A list of computer players longer than the table is refused (sweep, per grid point)."""
    if len(bots) > players:
        _seat_bots(list(bots), players)


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(10**9)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .game.records import load_game
    from .game.summary import replay_line

    record, game = load_game(args.file)
    if args.moves:
        from .game.play import default_console, show_replay

        show_replay(record, default_console())
    _say(f"{args.file}: {replay_line(record, game)}")
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    """Every move of the human seats (or --seat) valued, the mistakes marked, the game replayed face up."""
    import json

    from .learning.review import load_for_review, review_record

    record = load_for_review(args.file, finished_only=not args.unfinished)
    with _Bar("reviewing", len(record.actions)) as bar:
        review = review_record(record, seat=args.seat, deals=args.deals, seed=args.seed, progress=bar.done)
    if args.format == "json":
        _say_json(review.to_json(), indent=1)
    else:
        from .learning.show import show_review
        from .game.play import default_console

        show_review(review, default_console())
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    import json

    from ..language.variants import load_rules
    from .game.seating import partners_count, partnership
    from .authors.simulate import format_text, run

    rules = load_rules(args.variant)
    # (--partners alone seats four, as in `sweep` and `train`: an audit was told "this table has 2")
    players = partners_count(rules, args.players, args.partners)
    partners = partnership(rules, players, args.partners)
    bots = _simulated_bots(args, players)
    _say_cache_trouble(rules, bots)
    with _Bar("simulating", args.games, shown=args.format == "text" and args.games >= 50) as bar:
        summary = run(args.variant, args.games, args.seed, players, partners, bots, args.workers,
                      progress=bar.advance)
    if args.format == "json":
        _say_json(summary, indent=2)
    else:
        _say(format_text(summary))
    cut = summary.get("interrupted")
    if cut:   # (Ctrl-C: the games played so far were summarised above)
        print(f"interrupted after {cut['played']:,} of {cut['asked']:,} games: the figures above are of those",
              file=sys.stderr)
        return 130
    return 0


#: The most positions `solve` may be told to search: some ten minutes at the default's speed.
MAX_SOLVE_POSITIONS = 20_000_000


def _cmd_solve(args: argparse.Namespace) -> int:
    """Solve a case, saying on stderr how far the search has gone: on a terminal a line rewritten at
    every 1% of the --max-positions limit (cleared at the end), elsewhere a line at every 10%."""
    from .authors.solve import solve

    limit = args.max_positions
    terminal = sys.stderr.isatty()
    every = max(limit // (100 if terminal else 10), 1)

    def progress(positions: int) -> None:
        if positions > limit:
            return   # (the search stops at the limit: no line says it went past it)
        text = f"solve: {positions:,} positions searched, {positions * 100 // limit}% of the limit of {limit:,}"
        if terminal:
            sys.stderr.write(f"\r{text}\x1b[K")
            sys.stderr.flush()
        else:
            print(text, file=sys.stderr)

    from ..errors import RuleFileError

    try:
        solution = solve(args.file, args.case, limit, progress=progress, every=every)
    except RuleFileError as e:
        raise _rule_file_instead(args.file, "solve") or e from None
    finally:
        if terminal:
            sys.stderr.write("\r\x1b[K")
    _say(solution.text())
    return 0


#: The most games `simulate` plays, and `sweep` a grid point: a day or so of greedy games on one processor.
MAX_GAMES = 1_000_000


def max_workers() -> int:
    """The most worker processes `simulate` and `sweep` start: the processors this process may use
    (at least 2, so a run can always be checked against one in parallel). More only wait their turn."""
    import os

    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(cpus, 2)


def _workers(text: str) -> int:
    """An argparse type: --workers, 1 to :func:`max_workers`."""
    import argparse

    value = _whole(1)(text)
    if value > max_workers():
        raise argparse.ArgumentTypeError(f"must be at most {max_workers()} (the processors this machine gives "
                                         f"cassino), not {value}")
    return value


def _seed(text: str) -> int:
    """An argparse type: a seed, a whole number that fits in 64 bits (``apps/game/seeds.py``)."""
    import argparse

    from .game.seeds import SEED_RANGE, seed_problem

    digits = text.strip().lstrip("+-")
    if len(digits) > 40 or not digits.isdecimal():
        raise argparse.ArgumentTypeError(f"{text[:30]!r}{'...' if len(text) > 30 else ''} is not a seed: "
                                         f"a seed is {SEED_RANGE}")
    value = int(text)
    problem = seed_problem(value)
    if problem:
        raise argparse.ArgumentTypeError(f"{value} {problem}")
    return value


def _whole(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low`` (argparse turns the error into exit 2)."""
    import argparse

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return parse


def _bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""
    import argparse

    at_least = _whole(low)

    def parse(text: str) -> int:
        value = at_least(text)
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, not {value}")
        return value

    return parse


PLAYERS_HELP = "how many play (default: the fewest the variant allows; `cassino explain` shows its range)"
SEED_HELP = ("a whole number that fixes the shuffle: the same seed deals the same cards (it fits in 64 bits: "
             "0 to 18,446,744,073,709,551,615, or negative down to -9,223,372,036,854,775,808)")
BOT_HELP = ("computer player: random, greedy, search, search:N (N deals a move, 1 to 10,000), search:Xs "
            "(X seconds a move, up to 60); repeat --bot (or write a,b) for different players: they take the "
            "computer seats in order, a shorter list repeats from its start (a,b for three seats: a, b, a), "
            "a longer one is refused")


# ---------------------------------------------------------------------- for rule authors: rules, diff, sweep


def _write_output(text: str, output: str | None, *, force: bool = False, what: str = "the output") -> None:
    """``text`` to stdout, or to ``output`` atomically (a CassinoError when it cannot be written).

    An existing file is replaced only with ``force`` (it may be the very rule file being read),
    a device or folder never.
    """
    from ..files import write_atomic

    text = _printable(text)
    if not output:
        sys.stdout.write(text)
        return
    write_atomic(output, text, replace=force, what=what)


def _say_cache_trouble(rules: Any, players: Sequence[str]) -> None:
    """A warning where the user's trained weights for ``rules`` cannot be used (``weights.cache_trouble``), when a
    searching computer player (``search``, ``search:N``) is at the table: the others play no playouts."""
    from ..players.weights import cache_trouble

    if not any(name.split(":")[0] == "search" for name in players):
        return
    trouble = cache_trouble(rules)
    if trouble:
        print(f"warning: {_printable(trouble)}", file=sys.stderr)


def _never_a_rule_file(target: str, variant: str, option: str, what: str, example: str) -> None:
    """An output (``option`` ``target``) never replaces the rule file a command reads (``variant``) or a file it
    extends, --force or not: an audit's `play house.yaml --save house.yaml --force` replaced the rules with the
    game's record, `sweep ... --plot house.yaml --force` with a PNG."""
    import os

    from ..language.variants import load

    if not target or not os.path.exists(target):
        return
    for k, path in enumerate(load(variant).resolved.paths):
        if path.exists() and os.path.samefile(target, path):
            raise _error(f"{target} is {'the rule file being read' if k == 0 else 'a rule file it extends'}: "
                         f"{what} would replace it; name another file, e.g. {option} {example}")


def _cmd_rules(args: argparse.Namespace) -> int:
    from ..language.render import render
    from .authors.rulebooks import full_rulebook

    if args.force and not args.output:
        raise _error("--force lets --output FILE replace an existing file: name the file with --output")
    if args.output:   # refused before the rulebook is made, not after
        from ..files import check_target

        example = {"text": "rules.txt", "markdown": "rules.md", "html": "rules.html"}[args.format]
        check_target(args.output, replace=args.force, what="the rulebook", example=example)
        _never_a_rule_file(args.output, args.variant, "--output", "the rulebook", example)
    book = full_rulebook(args.variant, with_worked_examples=not args.no_examples, marked=not args.unmarked)
    _write_output(render(book, args.format), args.output, force=args.force, what="the rulebook")
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    import json

    from ..errors import CassinoError, RuleFileError
    from ..language.variants import load
    from .authors.differences import as_json, compare, format_text

    if args.tries < 1:
        raise CassinoError("--tries must be at least 1")
    # Both files loaded before either's problems are said: every problem of both at once (a validator's audit fixed
    # A's and only then met B's, in CI's annotations as at the terminal).
    loaded, problems = [], []
    for name in (args.a, args.b):
        try:
            loaded.append(load(name).rules)
        except RuleFileError as e:
            problems += [d for d in e.diagnostics if d not in problems]   # (the same file given twice: said once)
    if problems:
        raise RuleFileError(problems)
    a, b = loaded
    report = compare(a, b, seed=args.seed, tries=args.tries)
    if args.format == "json":
        _say_json(as_json(report), indent=2)
    else:
        sys.stdout.write(_printable(format_text(report)))
    return 0


def _cmd_sweep(args: argparse.Namespace) -> int:
    import json

    from ..errors import CassinoError
    from .authors.sweep import dask_runner, format_csv, format_text, local_runner, plan, plot, run

    if args.games < 1:
        raise CassinoError("--games must be at least 1")
    if args.games > MAX_GAMES:
        raise CassinoError(f"--games must be at most {MAX_GAMES:,} a grid point, not {args.games:,}")
    if args.workers < 1:
        raise CassinoError("--workers must be at least 1")
    if args.workers > max_workers():
        raise CassinoError(f"--workers must be at most {max_workers()} (the processors this machine gives "
                           f"cassino), not {args.workers}")
    if args.force and not args.plot:
        raise CassinoError("--force lets --plot FILE replace an existing file: name the file with --plot")
    if args.plot:   # refused before the games are played, not after
        from ..files import check_target

        check_target(args.plot, replace=args.force, what="the plot", example="plot.png")
        _never_a_rule_file(args.plot, args.file, "--plot", "the plot", "plot.png")
        if not args.plot.lower().endswith(".png"):   # (an audit's out.txt held a PNG image)
            raise CassinoError(f"--plot {args.plot}: the plot is a PNG image; name a file ending in .png, e.g. "
                               f"--plot plot.png")
    grid = plan(args.file, args.set or [])
    from .game.seating import partners_count, partnership

    players = args.players
    if args.partners:
        teams = [p for p in grid.points if p.rules.seats.partnerships != "never"]
        if not teams:   # (as `simulate` refuses it: an audit's sweep of a file played alone ran four alone)
            partnership(grid.points[0].rules, args.players or 4, True)
        # (the fewest that play in teams, four or six, as `simulate` and `train` seat them; each grid point that
        # plays in teams at all must at that count)
        players = partners_count(teams[0].rules, args.players, True)
        for point in teams:
            partnership(point.rules, players, True)
    bots = _simulated_bots(args, players)
    for point in grid.points:
        _check_bot_count(bots, players or point.rules.seats.min_players)
    from .authors.simulate import CHUNK

    tasks = len(grid.points) * -(-args.games // CHUNK)
    runner = dask_runner(args.cluster) if args.cluster else local_runner(min(args.workers, tasks))
    with _Bar("sweeping", len(grid.points) * args.games) as bar:
        result = run(grid, args.games, args.seed, players, args.partners, bots, runner, progress=bar.advance)
    if args.format == "json":
        text = _json_text(result, indent=2) + "\n"
    elif args.format == "csv":
        text = _printable(format_csv(result))
    else:
        text = _printable(format_text(result))
    sys.stdout.write(text)
    cut = result.get("interrupted")
    if cut:   # (Ctrl-C: the grid points played so far are above, a point cut short with the games it had)
        print(f"interrupted after {cut['played']:,} of {cut['asked']:,} games: the rows above are of those, "
              f"{cut['points_played']} of {cut['points']} grid points", file=sys.stderr)
        return 130
    if args.plot:
        plot(result, args.plot, replace=args.force)
    return 0


#: The most rounds of self-play `train` takes, and deals a move of its search.
MAX_ROUNDS = 20
MAX_TRAIN_DEALS = 10_000


def _seconds(text: str) -> float:
    """An argparse type: a training's time budget in seconds, above 0 and at most a week
    (``train.MAX_SECONDS``), refused when the options are read rather than once the rules are loaded."""
    import argparse
    import math

    from .learning.train import MAX_SECONDS

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if math.isnan(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text}")
    if value > MAX_SECONDS:   # (inf too: an audit read "above 0, not inf")
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SECONDS:,.0f} seconds (a week), not {text}")
    return value


def _playout_depth(text: str) -> int | str:
    """An argparse type: ``cassino train --depth``, a number of cards (1 to ``MOST_DEPTH``) or ``"hands"``."""
    import argparse

    from ..players.weights import MOST_DEPTH, is_depth

    if text.strip().lower() == "hands":
        return "hands"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"is a number of cards or hands, not {text!r}") from None
    if not is_depth(value):
        raise argparse.ArgumentTypeError(f"is a number of cards from 1 to {MOST_DEPTH} (or hands), not {value}")
    return value


def _cmd_train(args: argparse.Namespace) -> int:
    import time

    from ..language.variants import load
    from .game.seating import partners_count, partnership
    from .learning.train import dask_runner, process_runner, report, run
    from ..players.training import local_runner

    if args.cluster and args.workers != 1:
        raise _error("--cluster runs the hands on the cluster's workers: leave out --workers")
    rules = load(args.file).rules
    if args.out:
        _never_a_rule_file(args.out, args.file, "--out", "the weights", "weights.json")
    players = partners_count(rules, args.players, args.partners)
    partners = partnership(rules, players, args.partners)
    runner = dask_runner(args.cluster) if args.cluster else (
        process_runner(args.workers) if args.workers > 1 else local_runner)
    began = time.monotonic()
    shown = [0.0]

    def progress(round_no: int, hands: int, decisions: int, left: float) -> None:
        now = time.monotonic()
        if args.quiet or (now - shown[0] < 2.0 and hands != args.hands):
            return
        shown[0] = now
        budget = f", {left:.0f} s of the budget left" if left >= 0 else ""
        print(f"round {round_no} of {args.rounds}: {hands:,} of {args.hands:,} hands, {decisions:,} decisions, "
              f"{now - began:.0f} s{budget}", file=sys.stderr, flush=True)

    trained = run(rules, players, partners, hands=args.hands, seconds=args.seconds, rounds=args.rounds,
                  seed=args.seed, deals=args.deals, runner=runner, out=args.out, progress=progress,
                  depth="shipped" if args.depth is None else None if args.depth == "hands" else args.depth)
    sys.stdout.write(_printable(report(trained)))
    return 0


def _add_train_command(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from .learning.train_limits import MAX_HANDS

    p = sub.add_parser("train", help="fit the computer player's playouts to a rule file by self-play, and store "
                                     "them where it finds them")
    p.add_argument("file", metavar="VARIANT|FILE")
    p.add_argument("--players", type=_whole(2), help=PLAYERS_HELP)
    p.add_argument("--partners", action="store_true", help="play in partnerships (four players: seats 0+2, 1+3; "
                   "or as the variant gives)")
    p.add_argument("--hands", type=_bounded(1, MAX_HANDS), default=200,
                   help=f"hands of self-play a round, 1 to {MAX_HANDS:,} (default 200)")
    p.add_argument("--rounds", type=_bounded(1, MAX_ROUNDS), default=2,
                   help=f"rounds of self-play, 1 to {MAX_ROUNDS}, each fitted and played out by the last round's "
                        f"weights (default 2)")
    p.add_argument("--seconds", type=_seconds, help="the most the training takes, about, up to a week (604,800): "
                   "each round stops taking hands when its share has passed and is fitted on those it played "
                   "(default: no limit)")
    p.add_argument("--deals", type=_bounded(1, MAX_TRAIN_DEALS), default=64,
                   help="deals a move of the self-playing search (default 64, the computer player's)")
    p.add_argument("--depth", type=_playout_depth, metavar="N|hands",
                   help="the most cards each playout of the self-playing search plays, the outlook valuing the "
                   "rest, kept with the weights (a number of cards; hands: as many as the hands hold; default: "
                   "the horizon shipped with cassino for these rules and seating, else hands)")
    p.add_argument("--workers", type=_workers, default=1, help="processes to play hands in parallel, at most "
                   "the processors the machine gives cassino (default 1)")
    p.add_argument("--cluster", metavar="ADDRESS", type=_named("tcp://127.0.0.1:8786"),
                   help="play the hands on a Dask cluster (tcp://host:port; "
                   "pip install 'cassino[cluster]')")
    p.add_argument("--out", metavar="FILE", help="write the weights into FILE (made, or its entry for these rules "
                   "and seating replaced) instead of the user's cache, where the computer player looks "
                   "($XDG_CACHE_HOME/cassino/playouts)")
    p.add_argument("--seed", type=_seed, default=1, help=SEED_HELP + " (default 1): the same seed and hands, "
                   "the same weights")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(handler=_cmd_train)


def _add_author_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("rules", help="a variant's complete rulebook in words, with worked examples checked against the game's own moves")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--format", choices=["text", "markdown", "html"], default="text")
    p.add_argument("--output", "-o", metavar="FILE", type=_named("rules.txt"), help="write the rulebook to FILE instead of the terminal "
                   "(never replacing a file unless --force)")
    p.add_argument("--force", action="store_true", help="let --output replace an existing file")
    p.add_argument("--no-examples", action="store_true", help="leave out the worked examples")
    p.add_argument("--unmarked", action="store_true", help="for a house rule, do not mark what differs from its parent")
    p.set_defaults(handler=_cmd_rules)

    p = sub.add_parser("diff", help="the rules two variants differ in, in words, with positions where they allow different moves")
    p.add_argument("a", metavar="A", help="a bundled variant or rule file")
    p.add_argument("b", metavar="B", help="a bundled variant or rule file")
    p.add_argument("--seed", type=_seed, default=1, help="seed of the random positions searched (default 1)")
    p.add_argument("--tries", type=int, default=300, help="random positions searched per difference (default 300)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(handler=_cmd_diff)

    p = sub.add_parser("sweep", help="simulate a grid of variants (--set PATH=V1,V2) and compare their balance")
    p.add_argument("file", metavar="VARIANT|FILE")
    p.add_argument("--set", action="append", metavar="PATH=V1,V2",
                   help="a setting and the values to try, e.g. game.target=11,21 (repeat for a grid)")
    p.add_argument("--games", type=int, default=100, help=f"games per grid point, 1 to {MAX_GAMES:,} (default 100)")
    p.add_argument("--seed", type=_seed, default=1, help=SEED_HELP + " (default 1)")
    p.add_argument("--players", type=_whole(2), help=PLAYERS_HELP)
    p.add_argument("--partners", action="store_true", help="play in partnerships (four players: seats 0+2, 1+3; or as the variant gives)")
    p.add_argument("--bot", action="append", metavar="NAME", help=BOT_HELP + "; default greedy")
    p.add_argument("--bots", metavar="a,b,...", type=_named("greedy,search"), help="deprecated: the same as --bot a,b,...")
    p.add_argument("--workers", type=int, default=1, help="local worker processes, at most the processors the "
                   "machine gives cassino (default 1)")
    p.add_argument("--cluster", metavar="ADDRESS", type=_named("tcp://127.0.0.1:8786"),
                   help="run the games on a Dask cluster (tcp://host:port)")
    p.add_argument("--format", choices=["text", "json", "csv"], default="text")
    p.add_argument("--plot", metavar="FILE.png", type=_named("plot.png"), help="draw the leader's advantage per grid point (needs matplotlib; "
                   "never replacing a file unless --force)")
    p.add_argument("--force", action="store_true", help="let --plot replace an existing file")
    p.set_defaults(handler=_cmd_sweep)


# ---------------------------------------------------------------------- the browser: serve


def _cmd_serve(args: argparse.Namespace) -> int:
    from pathlib import Path

    try:
        from .web.policy import Limits
        from .web.server import run
    except ImportError as e:
        raise _error(f"cassino serve needs the web extra ({e.name} is missing): pip install 'cassino[web]'") from None
    if not 0 <= args.port <= 65535:
        raise _error(f"--port must be 0 to 65535 (0: any free port), not {args.port}")
    if not (args.pace >= 0 and args.pace <= 60):
        raise _error(f"--pace must be 0 to 60 seconds, not {args.pace}")
    records = Path(args.records)
    if records.exists() and not records.is_dir():
        raise _error(f"--records {records}: a file, not a folder; name a folder for the game records")
    if not records.parent.is_dir():
        raise _error(f"--records {records}: there is no folder {records.parent} to make it in")
    rules_dir = Path(args.rules_dir) if args.rules_dir else None
    if rules_dir is not None and not rules_dir.is_dir():
        raise _error(f"--rules-dir {rules_dir}: a file, not a folder; name the folder that holds your house-rule files"
                     if rules_dir.exists() else f"--rules-dir {rules_dir}: no such folder")
    if not 1 <= args.max_tables <= 100_000:
        raise _error(f"--max-tables must be 1 to 100000, not {args.max_tables}")
    if args.tables_per_client is None:   # (the default, 20, refused a smaller --max-tables given alone: an audit)
        args.tables_per_client = min(20, args.max_tables)
    if not 1 <= args.tables_per_client <= args.max_tables:
        raise _error(f"--tables-per-client must be 1 to --max-tables ({args.max_tables}), not {args.tables_per_client}")
    import re

    for name in args.allow_host:
        if not (0 < len(name) <= 253 and re.fullmatch(r"[A-Za-z0-9.-]+|\[?[0-9A-Fa-f:.]+\]?", name)):
            raise _error(f"--allow-host {name[:60]!r}: a host name or address as browsers write it "
                         f"(e.g. mybox.local or 192.168.1.20), without a port or scheme")
    for option, value, low, high in (("--connections-per-table", args.connections_per_table, 1, 100_000),
                                     ("--connections-per-client", args.connections_per_client, 1, 100_000),
                                     ("--max-connections", args.max_connections, 1, 1_000_000),
                                     ("--uploads-per-minute", args.uploads_per_minute, 1, 100_000)):
        if not low <= value <= high:
            raise _error(f"{option} must be {low} to {high}, not {value}")
    if args.forwarded_allow_ips is not None and not args.proxy_headers:
        raise _error("--forwarded-allow-ips names the proxies whose X-Forwarded-For is believed: "
                     "it needs --proxy-headers")
    if args.forwarded_allow_ips is not None:
        for entry in args.forwarded_allow_ips.split(","):
            if entry.strip() != "*" and not _is_network(entry.strip()):
                shown = entry.strip()[:40] or "an empty entry"
                raise _error(f"--forwarded-allow-ips: {shown!r} is not an address: give the proxy's IP addresses "
                             f"or networks, comma-separated (e.g. 127.0.0.1,10.0.0.0/8), or * for any")
    limits = Limits(max_tables=args.max_tables, tables_per_client=args.tables_per_client,
                    connections_per_table=args.connections_per_table,
                    connections_per_client=args.connections_per_client, max_connections=args.max_connections,
                    uploads_per_minute=args.uploads_per_minute)
    return run(args.host, args.port, records, rules_dir, args.pace, limits=limits, allow_hosts=tuple(args.allow_host),
               proxy_headers=args.proxy_headers, forwarded_allow_ips=args.forwarded_allow_ips)


def _add_serve_command(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("serve", help="play in the browser: a card table against the computer or friends on a network")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 for your network)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000; 0 picks a free one)")
    p.add_argument("--records", metavar="DIR", default="cassino-tables", type=_named("cassino-tables"),
                   help="the folder of game records, one per table, written after every move "
                        "(default: cassino-tables in this folder; made when missing)")
    p.add_argument("--rules-dir", metavar="DIR", type=_named("rules"),
                   help="a folder of house-rule files to offer in the lobby")
    p.add_argument("--pace", type=float, default=0.7, metavar="SECONDS",
                   help="pause before each computer move, so people can follow the play (default 0.7)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another name browsers reach this server by (repeatable); others are refused "
                        "(default: localhost, 127.0.0.1, [::1] and the --host address)")
    p.add_argument("--max-tables", type=int, default=200, metavar="N",
                   help="tables in play at once, in all (default 200)")
    p.add_argument("--tables-per-client", type=int, default=None, metavar="N",
                   help="tables in play at once opened from one address (default 20, or --max-tables if fewer)")
    p.add_argument("--connections-per-table", type=int, default=32, metavar="N",
                   help="browsers connected to one table at once, players and watchers (default 32)")
    p.add_argument("--connections-per-client", type=int, default=64, metavar="N",
                   help="browsers connected at once from one address (default 64)")
    p.add_argument("--max-connections", type=int, default=1000, metavar="N",
                   help="browsers connected at once in all (default 1000; fewer if the open-file limit is lower)")
    p.add_argument("--uploads-per-minute", type=int, default=30, metavar="N",
                   help="rule files checked, tables opened and records uploaded per address and minute (default 30)")
    p.add_argument("--proxy-headers", action="store_true",
                   help="behind a reverse proxy: take the client's address from X-Forwarded-For (default: the "
                        "address a request comes from; without a proxy, anyone could claim another address)")
    p.add_argument("--forwarded-allow-ips", metavar="IPS",
                   help="with --proxy-headers: the proxy's addresses, comma-separated (default 127.0.0.1)")
    p.set_defaults(handler=_cmd_serve)


def _is_network(text: str) -> bool:
    """Whether ``text`` is an IP address or network (``10.0.0.2``, ``10.0.0.0/8``, ``::1``)."""
    import ipaddress

    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


#: An option's number refused by ``_whole`` or ``_bounded``: said in one line, without the usage.
_OUT_OF_RANGE = r"argument [^:]+: (must be at (least|most) |'[^']*' is not a whole number$)"


def build_parser(*, json_errors: bool = False) -> argparse.ArgumentParser:
    """The parser of the `cassino` command line; with ``json_errors`` (``--format json`` was asked for),
    its refusals of the line are one JSON document on stdout (as every other error then is), exit 2."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            import re

            if not json_errors and re.match(_OUT_OF_RANGE, message):
                # A number out of its range (`review --deals 0`, `--seat -1`) in one line, as the command's own
                # refusals (`--seat 5`) are: the usage above it said nothing about the number (an audit's find).
                self.exit(2, f"{self.prog}: {message}\n")
            if not json_errors:
                super().error(message)
            _say_json({"ok": False, "errors": [_problem(None, f"{self.prog}: {message}",
                                                        f"`{self.prog} --help` lists the options")]}, indent=2)
            self.exit(2)

    parser = Parser(prog="cassino")
    from ..native import describe

    parser.add_argument("--version", action="version", version=f"cassino {__version__} ({describe()})",
                        help="the version, and whether it runs compiled or as pure Python")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check variant files or bundled names; exit 0 when all are valid, 2 when not")
    p.add_argument("files", nargs="+", metavar="FILE|NAME")
    p.add_argument("--format", choices=["text", "json", "github", "sarif"], default="text")   # help: FORMATS
    p.add_argument("--strict", action="store_true",
                   help="a file with warnings (rules that play, but may not as meant) counts as invalid")
    p.set_defaults(handler=_cmd_validate)

    p = sub.add_parser("list", help="the bundled variants and house-rule examples, one line each")
    p.set_defaults(handler=_cmd_list)

    p = sub.add_parser("schema", help="print the rule language's JSON Schema")
    p.set_defaults(handler=_cmd_schema)

    p = sub.add_parser("explain", help="a variant's rules in words")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.set_defaults(handler=_cmd_explain)

    p = sub.add_parser("perft", help="count move sequences of a given depth (regression data for the move generator)")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--seed", type=_seed, help=SEED_HELP + " (default 1)")
    p.add_argument("--depth", type=_whole(0), default=3,
                   help="moves to look ahead, 0 up to the moves left in the hand (the cards in the hands and the "
                        "stock; more is refused), default 3. Each move multiplies the count by about ten: on a "
                        "terminal perft first prints an estimate of the count and the time, then its progress")
    p.add_argument("--players", type=int, help=PLAYERS_HELP)
    p.add_argument("--partners", action="store_true", help="play in partnerships: four players as two teams (seats 0+2, 1+3), or the counts and team size the variant gives (seats.partnership_players, team_size)")
    p.add_argument("--divide", action="store_true", help="counts per first move")
    p.add_argument("--scenario", metavar="FILE", help="start from a scenario case's position (with --case)")
    p.add_argument("--case", metavar="NAME", help="the case of --scenario to start from")
    p.set_defaults(handler=_cmd_perft)

    p = sub.add_parser("play", help="play a variant or rule file against the computer (or each other)")
    p.add_argument("variant", nargs="?", metavar="VARIANT|FILE")
    p.add_argument("--players", type=int, help=PLAYERS_HELP)
    p.add_argument("--partners", action="store_true", help="play in partnerships: four players as two teams (seats 0+2, 1+3), or the counts and team size the variant gives (seats.partnership_players, team_size)")
    p.add_argument("--humans", type=int, help="people at the keyboard (seats 0..N-1); default 1, 0 watches the computer")
    p.add_argument("--bot", action="append", metavar="NAME", help=BOT_HELP + "; default search")
    p.add_argument("--seed", type=_seed, help=SEED_HELP + " (default: a new random one)")
    p.add_argument("--save", metavar="FILE", help="the game record, written after every move "
                   "(default: cassino-VARIANT-SEED.json in this folder, never replacing a file)")
    p.add_argument("--force", action="store_true", help="let --save replace an existing file")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game (its variant, seats and seed)")
    p.add_argument("--count", action="store_true", help="the counting aid each turn: scoring cards and ranks "
                   "seen, what each side has won, what is still open (the `count` command shows it any time)")
    p.add_argument("--warn", action="store_true", help="before a move that may leave the next player a sweep, a "
                   "scoring card you trail or could have taken, or your new build, say so and ask to confirm")
    p.add_argument("--tutorial", action="store_true", help="explain each rule, in the rulebook's words, the first "
                   "time it applies")
    p.set_defaults(handler=_cmd_play)

    p = sub.add_parser("review", help="a played game's record reviewed: every move of the human seats valued, "
                                      "what was better and by how much, the game replayed face up")
    p.add_argument("file", metavar="RECORD", help="a game record (what `cassino play` writes)")
    p.add_argument("--seat", type=_whole(0), metavar="N",
                   help="review this seat (default: the human seats; every seat when none was a person)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--deals", type=_bounded(1, 10_000), default=32, metavar="N",
                   help="deals of the unseen cards a search value averages over, 1 to 10,000 (default 32)")
    p.add_argument("--seed", type=_seed, default=0, help="fixes the sampled deals (default 0): the same seed, "
                   "the same review")
    p.add_argument("--unfinished", action="store_true",
                   help="review a game that is not over yet (refused without it: the review shows every hand, "
                        "the cards still hidden in play too)")
    p.set_defaults(handler=_cmd_review)

    p = sub.add_parser("replay", help="replay and verify a game record")
    p.add_argument("file")
    p.add_argument("--moves", action="store_true", help="show the game move by move, with each hand's scoring")
    p.set_defaults(handler=_cmd_replay)

    p = sub.add_parser("simulate", help="statistics of many games between computer players")
    p.add_argument("variant", metavar="VARIANT|FILE")
    p.add_argument("--games", type=_bounded(1, MAX_GAMES), default=100,
                   help=f"games to play, 1 to {MAX_GAMES:,} (default 100)")
    p.add_argument("--seed", type=_seed, default=1, help=SEED_HELP + " (default 1)")
    p.add_argument("--players", type=int, help=PLAYERS_HELP)
    p.add_argument("--partners", action="store_true", help="play in partnerships: four players as two teams (seats 0+2, 1+3), or the counts and team size the variant gives (seats.partnership_players, team_size)")
    p.add_argument("--bot", action="append", metavar="NAME", help=BOT_HELP + "; default greedy")
    p.add_argument("--bots", metavar="a,b,...", type=_named("greedy,search"), help="deprecated: the same as --bot a,b,...")
    p.add_argument("--workers", type=_workers, default=1, help="processes to play games in parallel, at most "
                   "the processors the machine gives cassino (default 1; never more than the games need)")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(handler=_cmd_simulate)

    p = sub.add_parser("check", help="run scenario files (executable rule examples); exit 0 all pass, 1 a case failed, 2 a bad file")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-v", "--verbose", action="store_true", help="also list the cases that pass")
    p.set_defaults(handler=_cmd_check)

    p = sub.add_parser("solve", help="the exact value of every move in a position given in full (a scenario case)")
    p.add_argument("file", metavar="FILE", help="a scenario file (the format of `cassino check`; `expect` optional)")
    p.add_argument("--case", metavar="NAME", help="the case to solve (needed when the file has several)")
    p.add_argument("--max-positions", type=_bounded(1, MAX_SOLVE_POSITIONS), default=2_000_000, metavar="N",
                   help=f"give up (exit 2) after searching N positions, 1 to {MAX_SOLVE_POSITIONS:,} (default "
                        f"2,000,000); how far the search has gone is shown on stderr as it goes")
    p.set_defaults(handler=_cmd_solve)

    _add_author_commands(sub)
    _add_train_command(sub)
    _add_serve_command(sub)
    _describe_commands(sub)
    # Said from the commands themselves, so the list cannot fall behind them again.
    parser.description = ("Cassino and its family of card games: play them, and write, check and study their "
                          f"rule files. Commands: {', '.join(sub.choices)}. `cassino COMMAND --help` says more.")
    return parser


#: What each output format is, as every ``--format`` option's help says it.
FORMATS = {
    "text": "words and tables for reading (the default)",
    "json": 'one JSON document on stdout, for programs; an error too: {"ok": false, "errors": [...]}, each '
            "with file, line, column, message and hint",
    "github": "GitHub Actions annotations, which mark each problem's line in a pull request",
    "sarif": "a SARIF 2.1.0 log, for code-scanning services",
    "csv": "comma-separated values, one row per grid point, for a spreadsheet",
    "markdown": "Markdown, for a wiki or a README",
    "html": "an HTML page, for a browser or printing",
}


def _describe_commands(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Every command's ``--help`` starts with its one-line summary (the line ``cassino --help`` gives it),
    and every ``--format`` says what each of its formats is (:data:`FORMATS`)."""
    for choice in sub._choices_actions:
        command = sub.choices[choice.dest]
        if not command.description:
            command.description = choice.help
        for action in command._actions:
            if "--format" in action.option_strings and action.choices:
                action.help = "; ".join(f"{name}: {FORMATS[name]}" for name in action.choices)


def main(argv: Sequence[str] | None = None) -> int:
    """The `cassino` command: its exit status. ``argv``: the words after `cassino`; None for this process's own (the
    console script and `python -m cassino` run it so: the command is then the process, and a Ctrl-C that stops it
    leaves Ctrl-C ignored while the process ends)."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["--version"]:   # answered before argparse is even imported
        from ..native import describe

        print(f"cassino {__version__} ({describe()})")
        return 0
    _fall_back_to_letters()
    json_errors = _json_requested(words)
    parser = build_parser(json_errors=json_errors)
    args, extra = parser.parse_known_args(words)
    if extra:   # (said with the command's own usage line, not the top level's: an audit's `cassino list extra`)
        import argparse

        subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        command = subparsers.choices.get(getattr(args, "command", None) or "", parser)
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except KeyboardInterrupt:
        if argv is None:
            # The command itself (the console script, `python -m cassino`), not a call from a program: it is stopping,
            # so more presses of Ctrl-C are not let break into what is left of it (a worker pool's exit handler joining
            # its thread printed a traceback at a second or third press, found flaky in CI).
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _stdout_gone()
        return 0
    except Exception as e:   # noqa: BLE001 - the last guard: one line (or one JSON document), never a traceback
        import os

        if os.environ.get("CASSINO_TRACEBACK"):
            raise
        try:
            return _report(e, json_errors)
        except BrokenPipeError:   # (an audit's `simulate --games 0 --format json | head -2`: a traceback, exit 1)
            _stdout_gone()
            return 2


def _stdout_gone() -> None:
    """The reader of stdout has gone (a pipe into `head`): what is left unwritten goes nowhere, so that Python's
    own flush at exit says nothing either."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):   # (a stdout with no file behind it: nothing to redirect)
        pass


#: The commands that offer ``--format json``; with it, their errors are JSON too.
JSON_COMMANDS = ("validate", "review", "simulate", "diff", "sweep")

#: Exit status of an unexpected error (a bug in cassino, not in the input).
INTERNAL_ERROR = 3


def _json_requested(words: list[str]) -> bool:
    """Whether the command line asks for ``--format json`` of a command that offers it.

    Looked at before argparse reads the line, so that argparse's own refusals (a bad option value)
    come as JSON too. Any prefix argparse would take for ``--format`` counts (``--form json``).
    """
    command = next((w for w in words if not w.startswith("-")), None)
    if command not in JSON_COMMANDS:
        return False
    for k, word in enumerate(words):
        if word == "--":
            break
        name, equals, value = word.partition("=")
        if len(name) >= 4 and "--format".startswith(name) and name.startswith("--fo"):
            given = value if equals else (words[k + 1] if k + 1 < len(words) else "")
            if given == "json":
                return True
    return False


def _problem(file: object, message: str, hint: str | None = None) -> dict[str, object]:
    """One entry of a JSON error's ``errors``: the fields of a rule file's diagnostic (``Diagnostic.as_json``)."""
    return {"file": None if file is None else str(file), "line": 0, "column": 0, "message": message, "hint": hint}


def _report(e: Exception, json_errors: bool) -> int:
    """An exception that stopped a command, said in one line (and its context) on stderr, or, with
    ``--format json``, as one JSON document on stdout: ``{"ok": false, "errors": [...]}``. The exit
    status: 2 for bad input, :data:`INTERNAL_ERROR` for anything else (a bug)."""
    from ..errors import CassinoError, PositionTooLargeError, RuleFileError   # here: `list` never needs them
    from ..files import FileProblem, describe_os_error, os_words

    code = 2
    if isinstance(e, RuleFileError):
        # (A diagnostic of an option's value, `--set PATH=VALUE`, names the option where a file would stand: in
        # JSON `file` is null there, as for every option, and the option leads the message.)
        errors = [d.as_json() | {"file": None, "message": f"{d.file}: {d.message}"} if d.file.startswith("--")
                  else d.as_json() for d in e.diagnostics]
        text = str(e)
    elif isinstance(e, FileProblem):
        errors, text = [_problem(e.path, e.reason)], str(e)
    elif isinstance(e, PositionTooLargeError):   # the engine's words are for a player at the game, who can
        # choose a move step by step or type it: no command here can (``overflowed``: without that advice)
        text = f"{e.overflowed}; this command needs every legal move listed: give fewer cards on the table"
        errors = [_problem(None, text)]
    elif isinstance(e, CassinoError):   # a game record's error says where (RecordError), others may not
        path, reason = getattr(e, "path", None), getattr(e, "reason", None)
        hint, said = getattr(e, "hint", None), getattr(e, "message", None)   # (a --set's: SettingError)
        if isinstance(hint, str) and isinstance(said, str):   # the message, and its hint in `hint`
            errors, text = [_problem(path, said, hint)], str(e)
        else:
            errors, text = [_problem(path, reason if isinstance(reason, str) and path else str(e))], str(e)
        errors[0].update(line=getattr(e, "line", 0) or 0, column=getattr(e, "column", 0) or 0)
    elif isinstance(e, OSError):
        # A file the command did not check itself (a name too long, a vanished folder): bad input.
        errors, text = [_problem(e.filename, os_words(e))], describe_os_error(e)
    else:
        code = INTERNAL_ERROR
        if isinstance(e, MemoryError):
            what = "out of memory: the machine has too little for this command (try fewer games or workers)"
        elif isinstance(e, RecursionError):
            what = "the rules or the position nest too deeply for this command (Python's recursion limit)"
        else:
            what = f"{type(e).__name__}: {' '.join(str(e).split())[:300] or 'no message'}"
        hint = "this is a bug in cassino: please report it with the command line; CASSINO_TRACEBACK=1 shows where"
        errors, text = [_problem(None, f"internal error: {what}", hint)], f"internal error: {what}\n    hint: {hint}"
    if json_errors:
        _say_json({"ok": False, "errors": errors}, indent=2)
    else:
        _say(f"cassino: {text}", file=sys.stderr)
    return code


#: The suits' symbols as the bundled variants write them, and the letters typed for them.
_SUIT_LETTERS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C",
                 "\u2664": "S", "\u2661": "H", "\u2662": "D", "\u2667": "C"}
_PLAIN = {"\u2014": "-", "\u2013": "-", "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
          "\u2026": "...", "\u00d7": "x", "\u2192": "->", "\u2022": "*", "\u00b7": "."}


def _letters(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: suit symbols as their letters (10D, AS), other symbols plainly or as ?."""
    assert isinstance(error, UnicodeEncodeError)
    bad = error.object[error.start:error.end]
    return "".join(_SUIT_LETTERS.get(c) or _PLAIN.get(c) or ("" if c == "\ufe0f" else "?") for c in bad), error.end


def _fall_back_to_letters() -> None:
    """Where the terminal's encoding has no suit symbols (cp1252, ascii), print their letters instead.

    Done once for stdout and stderr, so every command and every renderer benefits, and a
    rulebook or a game never dies with UnicodeEncodeError on Windows with redirected output.
    """
    import codecs

    try:
        codecs.lookup_error("cassino-letters")
    except LookupError:
        codecs.register_error("cassino-letters", _letters)
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        reconfigure = getattr(stream, "reconfigure", None)
        if not encoding or reconfigure is None:
            continue
        try:
            "\u2660\u2665\u2666\u2663\u2014".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            try:
                reconfigure(errors="cassino-letters")
            except (ValueError, OSError):
                pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

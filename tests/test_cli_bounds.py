"""Issue 35, the command line: every file, option and typed line has a bound, and past it the user gets
one located message and exit 2, never a traceback, a hang or a lost game.

The commands run in-process through ``cli.main`` (an exception escaping it fails the test with its
traceback); a few run as real processes where only a terminal or a signal shows the fault.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from unittest import mock

import pytest

from cassino.apps.cli import main

SCENARIO = """variant: standard
cases:
  - name: a pair
    table: [9C]
    hand: [9D]
    expect:
      legal: ["9D capture 9C"]
"""


def run_main(argv: list[str]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``cassino ARGV`` run in this process, with no keyboard."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch("builtins.input", side_effect=EOFError):
        try:
            code = main(argv)
        except SystemExit as e:   # argparse's own errors
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def message_lines(stderr: str) -> list[str]:
    """The lines that say something: not usage, not indented context, not a count summary."""
    return [line for line in stderr.splitlines()
            if line.strip() and not line.startswith((" ", "usage:")) and not re.fullmatch(r"\d+ valid, \d+ invalid", line)]


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------------- control characters in a YAML file

CONTROL = [("\x00", "U+0000"), ("\x01", "U+0001"), ("\x7f", "U+007F"), ("\x1b", "U+001B")]


def control_files(folder: Path, char: str) -> None:
    """A rule file and a scenario file, each with ``char`` on line 3, in column 16 of a description / name."""
    (folder / "bad.yaml").write_text(f"name: bad\nextends: standard\ndescription: a{char}b\n", encoding="utf-8")
    (folder / "bad-s.yaml").write_text(SCENARIO.replace("variant: standard\n", f"variant: standard\n# a{char}\n")
                                       .replace("name: a pair", f"name: a{char}pair"), encoding="utf-8")


COMMANDS = [
    ["validate", "bad.yaml"], ["explain", "bad.yaml"], ["rules", "bad.yaml"], ["diff", "standard", "bad.yaml"],
    ["sweep", "bad.yaml", "--set", "game.target=11"], ["simulate", "bad.yaml", "--games", "1"],
    ["play", "bad.yaml"], ["check", "bad-s.yaml"], ["solve", "bad-s.yaml"],
    ["perft", "standard", "--scenario", "bad-s.yaml", "--case", "a pair"],
]


@pytest.mark.parametrize("char, code", CONTROL, ids=[c for _, c in CONTROL])
@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_a_control_character_is_a_located_error_in_every_command(here: Path, argv: list[str], char: str,
                                                                code: str) -> None:
    control_files(here, char)
    status, out, err = run_main(argv)
    assert status == 2, (out, err)
    assert "Traceback" not in out + err and "ReaderError" not in out + err
    lines = message_lines(err)
    assert len(lines) == 1, err
    where = "bad.yaml:3:15: " if "bad.yaml" in argv else ("bad-s.yaml:2: " if argv[0] == "check" else "bad-s.yaml:2:4: ")
    assert where in lines[0] and f"{code} " in lines[0] and "is not allowed in a YAML file" in lines[0], err
    if argv[0] == "check":   # FILE:LINE: as SCENARIOS.md gives it; the caret still marks column 4
        assert "\n    # a\\x" in err and "\n       ^" in err, err
    assert char not in err   # the line under the message shows the character escaped, never raw
    assert not list(here.glob("cassino-*.json"))


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_a_control_character_is_reported_in_every_validate_format_and_the_other_files_go_on(here: Path,
                                                                                          fmt: str) -> None:
    control_files(here, "\x00")
    status, out, err = run_main(["validate", "--format", fmt, "bad.yaml", "standard", "bad.yaml"])
    assert status == 2, err
    assert "Traceback" not in out + err
    if fmt == "json":
        results = json.loads(out)["results"]
        assert [r["valid"] for r in results] == [False, True, False]
        assert results[0]["errors"][0]["line"] == 3 and results[0]["errors"][0]["column"] == 15
        assert "U+0000 (NUL) is not allowed in a YAML file" in results[0]["errors"][0]["message"]
    elif fmt == "github":
        assert out.count("::error file=bad.yaml,line=3,col=15,") == 2, out
    else:
        assert len(json.loads(out)["runs"][0]["results"]) == 2


def test_a_multi_file_validate_goes_on_past_a_control_character(here: Path) -> None:
    control_files(here, "\x01")
    status, out, err = run_main(["validate", "bad.yaml", "standard"])
    assert status == 2
    assert "standard: ok" in out and "1 valid, 1 invalid" in err


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_half_a_character_escaped_in_double_quotes_is_a_located_error_in_every_command(here: Path,
                                                                                     argv: list[str]) -> None:
    """`"\\ud800"` is a valid YAML escape that makes half of a UTF-16 pair: a text no record, rulebook or page
    can hold (an audit's pasted house rule validated, then broke the browser's table with a server error)."""
    (here / "bad.yaml").write_text('name: bad\nextends: standard\ndescription: "a\\ud800b"\n', encoding="utf-8")
    (here / "bad-s.yaml").write_text(SCENARIO.replace("name: a pair", 'name: "a\\udfffpair"'), encoding="utf-8")
    status, out, err = run_main(argv)
    assert status == 2, (out, err)
    assert "Traceback" not in out + err
    lines = message_lines(err)
    where = "bad.yaml:3:14: " if "bad.yaml" in argv else ("bad-s.yaml:3: " if argv[0] == "check" else "bad-s.yaml:3:11: ")
    assert len(lines) == 1 and where in lines[0] and "half of a character (a lone UTF-16 surrogate)" in lines[0], err
    assert not list(here.glob("cassino-*.json")) and not list(here.glob(".cassino-*"))


def test_a_record_with_half_a_character_is_refused_in_words_and_leaves_no_file(tmp_path: Path) -> None:
    """A record's text that UTF-8 cannot hold is said as such, and no temporary file is left behind."""
    from cassino.apps.game.records import Record, RecordError, save_new
    from cassino.language.variants import load_rules

    record = Record(load_rules("standard"), seed=1, players=2, partners=False, dealer=0,
                    seats=["you\ud800", "greedy"], actions=[])
    with pytest.raises(RecordError, match="half of a character"):
        save_new(record, tmp_path, "game")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------- nesting of any depth

def nested(kind: str, depth: int) -> str:
    if kind == "flow-list":
        return "a: " + "[" * depth + "]" * depth + "\n"
    if kind == "flow-map":
        return "{a: " * depth + "1" + "}" * depth + "\n"
    if kind == "block-list":   # a list in a list, one space deeper each line
        return "".join(" " * i + "-\n" for i in range(depth))
    assert kind == "block-map"
    return "".join(" " * i + f"k{i}:\n" for i in range(depth))


@pytest.mark.parametrize("depth", [1_000, 1_001, 5_000, 100_000])
@pytest.mark.parametrize("kind", ["flow-list", "flow-map", "block-list", "block-map"])
def test_nesting_of_any_depth_is_refused_at_its_place(here: Path, kind: str, depth: int) -> None:
    from cassino.errors import RuleFileError
    from cassino.language.yamlsource import MAX_BYTES, MAX_DEPTH, load_yaml_text

    if kind.startswith("block") and depth > 1_300:
        depth = 1_300   # each level one space deeper: 1,300 levels is near the size limit, 5,000 far past it
    text = nested(kind, depth)
    assert len(text.encode()) <= MAX_BYTES
    with pytest.raises(RuleFileError) as e:
        load_yaml_text(text, "deep.yaml")
    diag = e.value.diagnostics[0]
    assert f"nested too deeply (more than {MAX_DEPTH} levels)" in diag.message
    assert diag.line >= 1 and diag.column >= 1


def test_a_deep_file_is_one_located_line_from_validate(here: Path) -> None:
    (here / "deep.yaml").write_text(nested("flow-list", 5_000), encoding="utf-8")
    status, out, err = run_main(["validate", "deep.yaml", "standard"])
    assert status == 2 and "Traceback" not in err
    assert "deep.yaml:1:35: lists and mappings are nested too deeply" in err
    assert "standard: ok" in out


# ---------------------------------------------------------------------- numbers in a scenario

BIG = 99_999_999_999_999
NUMBERS = [
    ("sweeps: {0: 20000000}", "from 0 to 128"),
    (f"sweeps: {{0: {BIG}}}", "from 0 to 128"),
    (f"sweeps: {{0: [{BIG}]}}", "1 to 128"),
    (f"sweeps: {{0: [{{size: {BIG}}}]}}", "1 to 128"),
    ("sweeps: {0: [" + ", ".join(["1"] * 200) + "]}", "a hand has at most 128"),
    (f"players: {BIG}", "from 1 to 12"),
    (f"to_play: {BIG}", "from 0 to 11"),
    (f"dealer: {BIG}", "from 0 to 11"),
    (f"last_capture: {BIG}", "from 0 to 11"),
    (f"target: {BIG}", "from 1 to 1,000,000"),
    (f"scores: {{0: {BIG}}}", "from -1,000,000 to 1,000,000"),
    (f"scores: {{{BIG}: 3}}", "past the largest table"),
    ('hands: {"99999999999999999999999": [2C]}', "past the largest table"),
    (f"hands: {{{'9' * 1000}: [2C]}}", "a number of 1,000 digits; no setting needs more than 30"),
    (f"builds: [{{cards: [2C, 3C], value: {BIG}}}]", "from 1 to 12,672"),
    (f"builds: [{{cards: [2C, 3C], value: 5, owner: {BIG}}}]", "from 0 to 11"),
    (f"expect: {{sweeps: {{0: {BIG}}}}}", "from 0 to 128"),
    (f"expect: {{hand_points: {{0: -{BIG}}}}}", "from -1,000,000"),
    (f"expect: {{items: {{0: {{sweeps: {BIG}}}}}}}", "from -1,000,000"),
    (f"expect: {{games_won: {BIG}}}", "from 0 to 1,000,000"),
    (f"expect: {{winner: {BIG}}}", "from 0 to 11"),
    (f"expect: {{target: {'9' * 5000}}}", "a number of 5,000 digits"),
]


def scenario_with(line: str) -> str:
    """A one-case scenario with ``line`` added to its case (an `expect:` line replaces the case's)."""
    if line.startswith("expect:"):
        return SCENARIO.replace('    expect:\n      legal: ["9D capture 9C"]\n', f"    {line}\n")
    return SCENARIO.replace("    table: [9C]\n", f"    table: [9C]\n    {line}\n")


NUMBER_CASES = [(command, line, says) for command in ("check", "solve", "perft") for line, says in NUMBERS
                if command == "check" or not line.startswith("expect:")]   # solve and perft read no `expect`


@pytest.mark.parametrize("command, line, says", NUMBER_CASES, ids=[f"{c} {n[:40]}" for c, n, _ in NUMBER_CASES])
def test_every_number_of_a_scenario_is_bounded_with_a_located_error(here: Path, command: str, line: str,
                                                                   says: str) -> None:
    (here / "s.yaml").write_text(scenario_with(line), encoding="utf-8")
    argv = {"check": ["check", "s.yaml"], "solve": ["solve", "s.yaml"],
            "perft": ["perft", "standard", "--scenario", "s.yaml", "--case", "a pair", "--depth", "1"]}[command]
    status, out, err = run_main(argv)
    assert status == 2, (out, err)
    assert "Traceback" not in out + err
    lines = message_lines(err)
    located = r"s\.yaml:\d+: " if command == "check" else r"(cassino: )?s\.yaml:\d+:\d+: "   # check: SCENARIOS.md's FILE:LINE:
    assert len(lines) == 1 and re.match(located, lines[0]), err
    assert says in lines[0], err
    assert len(err) < 2_000


# ---------------------------------------------------------------------- the length of a move

def long_capture(cards: int = 40_000) -> str:
    """A capture naming far more cards than any deck holds (the cards repeat: the length is the point)."""
    return "9D capture " + " ".join(["9C"] * cards)


def record_with(actions: list[str], **fields: object) -> str:
    from conftest import record_text

    data = json.loads(record_text(actions=0))
    data.update(actions=actions, **fields)
    data.pop("result", None)
    return json.dumps(data)


def test_a_move_longer_than_any_move_of_the_deck_is_refused_before_it_is_read() -> None:
    from cassino.engine.core import Engine
    from cassino.engine.moves import MoveSyntaxError
    from cassino.engine.notation import max_move_length, parse_move
    from cassino.language.variants import load_rules

    deck = Engine(load_rules("standard")).deck
    assert max_move_length(deck) == 352   # 52 cards, each with a space and brackets, and the words
    every = "AS capture " + " ".join(f"[{c} {d}]" for c, d in zip(map(str, deck.cards[1::2]), map(str, deck.cards[2::2])))
    assert len(every) <= max_move_length(deck)
    with pytest.raises(MoveSyntaxError, match="120,010 characters is longer than any move: a move is at most 352"):
        parse_move(long_capture(), deck)


def test_the_length_limit_holds_at_its_edge_in_every_bundled_deck() -> None:
    """The limit is checked quickly for text no deck's moves could be too long for (four characters a card and
    the words); at and around the limit itself, and around where the quick check stops, text is refused exactly
    when it is longer than ``max_move_length``."""
    from cassino.engine.core import Engine
    from cassino.engine.moves import MoveSyntaxError
    from cassino.engine.notation import check_move_length, max_move_length
    from cassino.language.catalogue import bundled_names
    from cassino.language.variants import load_rules

    for variant in bundled_names():
        deck = Engine(load_rules(variant)).deck
        limit, quick = max_move_length(deck), 4 * len(deck.cards) + 40
        assert quick <= limit, variant
        for n in sorted({0, quick - 1, quick, quick + 1, limit - 1, limit, limit + 1, 2 * limit}):
            text = "x" * n
            if n > limit:
                with pytest.raises(MoveSyntaxError, match=f"{n:,} characters is longer than any move"):
                    check_move_length(text, deck)
            else:
                check_move_length(text, deck)


def test_replay_refuses_a_record_of_one_long_capture_at_once(here: Path) -> None:
    (here / "long.json").write_text(record_with([long_capture()]), encoding="utf-8")
    status, out, err = run_main(["replay", "long.json"])
    assert status == 2, err
    assert "\"actions\" entry 1 is 120,010 characters long" in err
    assert "no move of this deck is longer than 352" in err
    assert len(err) < 500   # the action is not echoed whole


@pytest.mark.parametrize("seat, says", [("9" * 5_000, "entry 1 is 5,006 characters long"), ("\u00b2", "`claim` names a seat: 0 to 1"),
                                        ("999", "`claim` names a seat: 0 to 1")])
def test_a_claim_of_a_seat_that_is_no_number_of_a_seat_is_refused(here: Path, seat: str, says: str) -> None:
    (here / "claim.json").write_text(record_with(["claim " + seat]), encoding="utf-8")
    status, out, err = run_main(["replay", "claim.json"])
    assert status == 2 and says in err, err
    assert "Traceback" not in err and len(err) < 500


def test_a_long_line_at_the_play_prompt_is_refused_at_once(here: Path) -> None:
    lines = iter([long_capture(), "9" * 5_000, "\u00b2", "quit"])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch("builtins.input", side_effect=lambda prompt: next(lines)):
        status = main(["play", "standard", "--seed", "1", "--save", "g.json"])
    assert status == 0, err.getvalue()
    text = out.getvalue()
    assert "that line is 120,010 characters: a move or command is at most 352" in text
    assert "that line is 5,000 characters" in text
    assert "'²' is not a move or a command" in text
    assert len(text) < 20_000


def test_a_record_is_read_in_bounded_memory_and_a_long_action_refused_at_its_line(here: Path) -> None:
    """The depth scan's pattern kept a mark per character of a string: 1.1 GB for a 9 MB action."""
    import resource

    from cassino.apps.game.records import RecordError, load_record

    (here / "long.json").write_text(record_with([long_capture(1_500_000)]), encoding="utf-8")   # 4.5 MB
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(RecordError, match=r"long\.json:\d+: \"actions\" entry 1 is 4,500,010 characters long "
                                          r"\(\"9D capture 9C 9C .*\); no move of this deck is longer than 352"):
        load_record(here / "long.json")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 200, grown_mb


# ---------------------------------------------------------------------- a loop of symbolic links

LOOP_COMMANDS = [
    ["validate", "l1.yaml"], ["validate", "--format", "json", "l1.yaml"], ["explain", "l1.yaml"],
    ["play", "l1.yaml"], ["rules", "l1.yaml"], ["diff", "standard", "l1.yaml"],
    ["sweep", "l1.yaml", "--set", "game.target=11"], ["simulate", "l1.yaml", "--games", "1"], ["check", "l1.yaml"],
    ["solve", "l1.yaml"], ["replay", "l1.yaml"], ["play", "--resume", "l1.yaml"], ["validate", "ext.yaml"],
    ["explain", "ext.yaml"], ["check", "s.yaml"], ["perft", "l1.yaml"],
]


@pytest.mark.parametrize("argv", LOOP_COMMANDS, ids=[" ".join(a) for a in LOOP_COMMANDS])
def test_a_loop_of_symbolic_links_is_one_clean_error(here: Path, argv: list[str]) -> None:
    import os

    os.symlink("l2.yaml", here / "l1.yaml")
    os.symlink("l1.yaml", here / "l2.yaml")
    (here / "ext.yaml").write_text("name: ext\nextends: l1.yaml\n", encoding="utf-8")
    (here / "s.yaml").write_text(SCENARIO.replace("variant: standard", "variant: l1.yaml"), encoding="utf-8")
    status, out, err = run_main(argv)
    assert status == 2, (out, err)
    assert "Traceback" not in out + err and "RuntimeError" not in out + err
    said = err if "json" not in argv else json.loads(out)["results"][0]["errors"][0]["message"]
    assert "too many symbolic links: a link leads, directly or through others, back to itself" in said, said
    if "ext.yaml" in argv:
        assert "ext.yaml:2:10: cannot read the variant `l1.yaml` that this file extends" in err
    assert os.path.islink(here / "l1.yaml") and os.path.islink(here / "l2.yaml")
    assert not list(here.glob("cassino-*.json"))


# ---------------------------------------------------------------------- simulate and sweep: games and workers

@pytest.mark.parametrize("argv, says", [
    (["simulate", "standard", "--games", "100000000"], "--games: must be at most 1,000,000, not 100000000"),
    (["simulate", "standard", "--workers", "100"], "--workers: must be at most"),
    (["sweep", "standard", "--set", "game.target=11,21", "--games", "100000000"],
     "--games must be at most 1,000,000 a grid point, not 100,000,000"),
    (["sweep", "standard", "--set", "game.target=11,21", "--workers", "100"], "--workers must be at most"),
    (["sweep", "standard", "--set", "game.target=" + ",".join(str(k) for k in range(11, 111)),
      "--set", "scoring.items.sweeps.points=" + ",".join(str(k) for k in range(0, 11)), "--games", "1"],
     "make a grid of 1,100 points; a sweep has at most 1,000"),
])
def test_games_workers_and_grids_past_their_bounds_are_refused(here: Path, argv: list[str], says: str) -> None:
    status, out, err = run_main(argv)
    assert status == 2, (out, err)
    lines = message_lines(err)
    assert len(lines) == 1 and says in lines[0], err


def test_the_worker_bound_is_the_processors_given_and_at_least_two(here: Path) -> None:
    import os

    from cassino.apps.cli import max_workers

    assert max_workers() == max(len(os.sched_getaffinity(0)), 2)
    status, out, err = run_main(["simulate", "standard", "--games", "1", "--workers", str(max_workers() + 1)])
    assert status == 2 and f"must be at most {max_workers()} (the processors" in err


def test_tasks_are_made_as_they_are_run() -> None:
    """A sweep's tasks come from a generator, and a pool is never given more than a few a worker ahead."""
    import itertools
    from concurrent.futures import ThreadPoolExecutor

    from cassino.apps.authors.simulate import AHEAD, in_order
    from cassino.apps.authors.sweep import plan, tasks_for

    grid = plan("standard", ["game.target=11,21"])
    tasks = tasks_for(grid.points, 100_000_000, 1, 2, False, ("greedy",))
    assert not isinstance(tasks, (list, tuple))
    assert next(iter(tasks))[-2:] == (0, 25)
    pulled = []

    def endless():   # a stream of tasks that never ends: only a bounded number may be taken
        for k in itertools.count():
            pulled.append(k)
            yield k

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = in_order(pool, lambda k: k * k, endless(), 2)
        assert [next(results) for _ in range(3)] == [0, 1, 4]
        assert len(pulled) <= AHEAD * 2 + 3


def test_no_more_worker_processes_than_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games, eight workers asked for: at most two processes are started (100 were, for 2 games)."""
    import concurrent.futures

    from cassino import processes
    from cassino.apps.authors import simulate

    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, max_workers: int, **kw: object) -> None:
            started.append(max_workers)
            super().__init__(max_workers=max_workers, **kw)

    monkeypatch.setattr(processes, "ProcessPoolExecutor", Counted)   # (the pool `simulate` makes: processes.worker_pool)
    two = simulate.run("standard", 2, seed=3, workers=8)
    one = simulate.run("standard", 2, seed=3, workers=1)
    assert started == [2] and two == one


# ---------------------------------------------------------------------- seeds

@pytest.mark.parametrize("seed, says", [
    ("9" * 5_000, "holds a number of more than 4,300 digits (a seed is a whole number that fits in 64 bits"),
    ("9" * 4_000, "\"seed\" has 4000 digits: a seed is a whole number that fits in 64 bits"),
    (str(2**64), "\"seed\" is above the highest seed: a seed is a whole number that fits in 64 bits (-9,223,372,036,854,775,808 "
                 "to 18,446,744,073,709,551,615)"),
    (str(-(2**63) - 1), "is below the lowest seed"),   # (not "has 19 digits": so has the lowest seed)
])
def test_a_records_seed_past_64_bits_is_refused(here: Path, seed: str, says: str) -> None:
    (here / "r.json").write_text(record_with([]).replace('"seed": 3', f'"seed": {seed}'), encoding="utf-8")
    for argv in (["replay", "r.json"], ["play", "--resume", "r.json"], ["review", "r.json"]):
        status, out, err = run_main(argv)
        assert status == 2, (argv, out, err)
        lines = message_lines(err)
        assert len(lines) == 1 and says in lines[0] and len(err) < 500, err


@pytest.mark.parametrize("seed", [str(2**64 - 1), str(-(2**63)), "0"])
def test_a_seed_within_64_bits_replays(here: Path, seed: str) -> None:
    (here / "r.json").write_text(record_with([]).replace('"seed": 3', f'"seed": {seed}'), encoding="utf-8")
    status, out, err = run_main(["replay", "r.json"])
    assert status == 0, err


SEED_COMMANDS = [["play", "standard"], ["perft", "standard", "--depth", "1"], ["simulate", "standard", "--games", "1"],
                 ["sweep", "standard", "--set", "game.target=11", "--games", "1"], ["diff", "standard", "hoyle"],
                 ["review", "r.json"]]


@pytest.mark.parametrize("seed, says", [(str(2**64), "is above the highest seed: a seed is"),
                                        (str(-(2**63) - 1), "is below the lowest seed: a seed is"),
                                        ("9" * 30, "has 30 digits: a seed is"), ("9" * 5_000, "is not a seed"),
                                        ("x", "is not a seed")])
@pytest.mark.parametrize("argv", SEED_COMMANDS, ids=[a[0] for a in SEED_COMMANDS])
def test_a_seed_option_past_64_bits_is_refused(here: Path, argv: list[str], seed: str, says: str) -> None:
    status, out, err = run_main(argv + ["--seed", seed])
    assert status == 2, err
    lines = message_lines(err)
    assert len(lines) == 1 and "--seed" in lines[0] and says in lines[0] and len(err) < 1_000, err


# ---------------------------------------------------------------------- escape sequences from files

ESCAPES = "\x1b[2J\x1b]0;pwned\x07"   # clear the screen, set the window's title
EVIL = """name: evil
extends: standard
description: "clear\\e[2J\\e]0;pwned\\a"
deck:
  suits:
    - {letter: S, name: spades, symbol: "\\e[31m\\u2660", colour: black}
    - {letter: H, name: hearts, symbol: "\\u2665", colour: red}
    - {letter: D, name: diamonds, symbol: "\\u2666", colour: red}
    - {letter: C, name: clubs, symbol: "\\u2663", colour: black}
"""
EVIL_CASE = """variant: evil.yaml
cases:
  - name: "a pair\\e[2J\\a"
    table: [9C]
    hand: [9D]
    expect:
      legal: ["9D capture 9C"]
      illegal: ["9D trail"]
"""


@pytest.fixture(scope="module")
def evil_game(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A whole game of the evil variant between computer players, as its record's text (made once)."""
    import os

    folder = tmp_path_factory.mktemp("evil")
    (folder / "evil.yaml").write_text(EVIL, encoding="utf-8")
    before = os.getcwd()
    os.chdir(folder)
    try:
        status, out, err = run_main(["play", "evil.yaml", "--humans", "0", "--bot", "random", "--seed", "1",
                                     "--save", "g.json"])
    finally:
        os.chdir(before)
    assert status == 0, err
    return (folder / "g.json").read_text(encoding="utf-8")


@pytest.fixture()
def evil(here: Path, evil_game: str) -> Path:
    (here / "evil.yaml").write_text(EVIL, encoding="utf-8")
    (here / "evil-s.yaml").write_text(EVIL_CASE, encoding="utf-8")
    (here / "key.yaml").write_text('name: key\nextends: standard\n"\\e[2Jgame": {target: 11}\n', encoding="utf-8")
    (here / "g.json").write_text(evil_game, encoding="utf-8")
    return here


EVIL_COMMANDS = [
    ["play", "--resume", "g.json", "--save", "h.json"], ["play", "evil.yaml", "--seed", "2", "--save", "i.json"],
    ["rules", "evil.yaml"], ["rules", "evil.yaml", "--format", "markdown"], ["explain", "evil.yaml"],
    ["replay", "g.json", "--moves"], ["check", "evil-s.yaml"], ["validate", "key.yaml"],
    ["validate", "--format", "json", "key.yaml"], ["validate", "--format", "github", "key.yaml"],
    ["simulate", "evil.yaml", "--games", "1"], ["simulate", "evil.yaml", "--games", "1", "--format", "json"],
    ["diff", "standard", "evil.yaml", "--tries", "5"], ["sweep", "evil.yaml", "--set", "game.target=11",
                                                        "--games", "1"],
]


@pytest.mark.parametrize("argv", EVIL_COMMANDS, ids=[" ".join(a[:4]) for a in EVIL_COMMANDS])
def test_escape_sequences_from_a_file_are_shown_escaped_never_sent_to_the_terminal(evil: Path, argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    lines = iter(["quit"])
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch("builtins.input", side_effect=lambda prompt: next(lines)):
        try:
            main(argv)
        except SystemExit:
            pass
    shown = out.getvalue() + err.getvalue()
    assert "\x1b" not in shown and "\x07" not in shown, shown[:3000]
    if argv[0] in ("simulate", "sweep") or "--moves" in argv:
        return   # they show no text of the file's but its name: a guard only
    if "json" in argv:
        assert "\\u001b" in shown   # the same data, as JSON writes it
    else:
        assert "\\x1b" in shown, shown[:3000]   # shown, escaped


# ---------------------------------------------------------------------- a record reached through a link

def game_in_progress(folder: Path) -> None:
    """game.json, a game two moves in against the computer, and link.json, a symbolic link to it."""
    import os

    from conftest import record_text

    (folder / "game.json").write_text(record_text(actions=2), encoding="utf-8")
    os.symlink("game.json", folder / "link.json")


def test_resuming_through_a_link_writes_the_file_and_keeps_the_link(here: Path) -> None:
    import os

    game_in_progress(here)
    moves = len(json.loads((here / "game.json").read_text())["actions"])
    lines = iter(["1", "quit"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out), mock.patch("builtins.input", side_effect=lambda prompt: next(lines)):
        assert main(["play", "--resume", "link.json"]) == 0
    assert os.path.islink(here / "link.json") and os.readlink(here / "link.json") == "game.json"
    assert len(json.loads((here / "game.json").read_text())["actions"]) > moves   # the move went to the file
    assert sorted(p.name for p in here.iterdir()) == ["game.json", "link.json"]   # no lock or copy left


def test_a_link_and_its_file_cannot_be_played_at_once(here: Path) -> None:
    from cassino.files import exclusive

    game_in_progress(here)
    with exclusive(here / "game.json"):
        status, out, err = run_main(["play", "--resume", "link.json"])
    assert status == 2 and "is being played in another cassino process" in err, (out, err)
    with exclusive(here / "link.json"):
        status, out, err = run_main(["play", "--resume", "game.json"])
    assert status == 2 and "is being played in another cassino process" in err, (out, err)


# ---------------------------------------------------------------------- new games started at once

def test_a_name_another_game_is_taking_is_passed_over(here: Path) -> None:
    """Another process has chosen cassino-standard-5.json and holds its lock, but not written it yet."""
    from cassino.files import hold

    other = hold(here / "cassino-standard-5.json", what="the game record")
    try:
        status, out, err = run_main(["play", "standard", "--seed", "5"])
    finally:
        other.release()
    assert status == 0, err
    assert "recorded in cassino-standard-5-2.json" in out
    assert sorted(p.name for p in here.iterdir()) == ["cassino-standard-5-2.json"]


def test_four_games_started_together_each_take_a_free_name(here: Path) -> None:
    import subprocess
    import sys
    import time

    games = [subprocess.Popen([sys.executable, "-m", "cassino", "play", "standard", "--seed", "5"], cwd=here,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    try:
        for _ in range(1200):   # each holds its record while it waits for a move
            if len(list(here.glob("cassino-standard-5*.json"))) == 4 or any(g.poll() is not None for g in games):
                break
            time.sleep(0.1)
        results = [g.communicate("quit\n", timeout=300) for g in games]
    finally:
        for g in games:
            g.kill()
            g.wait()
    assert [g.returncode for g in games] == [0, 0, 0, 0], [err for _, err in results]
    assert sorted(p.name for p in here.iterdir()) == ["cassino-standard-5-2.json", "cassino-standard-5-3.json",
                                                      "cassino-standard-5-4.json", "cassino-standard-5.json"]


# ---------------------------------------------------------------------- Ctrl-C just after a computer move

def interrupted_after_a_computer_move(folder: Path, seed: int, after: int) -> tuple[list[str], list[str]]:
    """Watch a computer-only game, send SIGINT the moment its ``after``-th move is printed; (moves shown,
    moves recorded)."""
    import os
    import signal
    import subprocess
    import sys

    from conftest import as_at_a_terminal

    record = folder / f"g{seed}.json"
    game = subprocess.Popen([sys.executable, "-m", "cassino", "play", "standard", "--humans", "0", "--bot", "random",
                             "--seed", str(seed), "--save", record.name], cwd=folder, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=as_at_a_terminal)
    shown: list[str] = []
    try:
        assert game.stdout is not None
        for line in game.stdout:
            if " plays " in line:
                shown.append(line.split(" plays ", 1)[1].strip())
                if len(shown) == after:
                    game.send_signal(signal.SIGINT)
                    break
        rest, err = game.communicate(timeout=300)
    finally:
        game.kill()
        game.wait()
    shown += [line.split(" plays ", 1)[1].strip() for line in rest.splitlines() if " plays " in line]
    assert game.returncode == 130 and "interrupted: game saved" in rest, (rest, err)
    return shown, json.loads(record.read_text(encoding="utf-8"))["actions"]


@pytest.mark.parametrize("seed, after", [(1, 1), (2, 5), (3, 9)])
def test_a_computer_move_shown_is_a_move_recorded_whenever_ctrl_c_comes(here: Path, seed: int, after: int) -> None:
    shown, recorded = interrupted_after_a_computer_move(here, seed, after)
    assert recorded == shown   # every move shown is in the record, and no move is in it unshown
    status, out, err = run_main(["play", "--resume", f"g{seed}.json"])   # the watched game goes on where it stopped
    assert status == 0, err
    again = [line.split(" plays ", 1)[1] for line in out.splitlines() if " plays " in line]
    resumed = json.loads((here / f"g{seed}.json").read_text(encoding="utf-8"))["actions"]
    assert resumed[: len(shown)] == shown and again == resumed[len(shown):]


# ---------------------------------------------------------------------- smaller items

def test_extends_finds_a_house_rule_example_by_name_bundled_variants_first(here: Path) -> None:
    (here / "mine.yaml").write_text("name: mine\nextends: fifty\ngame:\n  target: 60\n", encoding="utf-8")
    status, out, err = run_main(["validate", "mine.yaml"])
    assert status == 0, err
    from cassino.language.variants import load

    loaded = load(here / "mine.yaml")
    assert [d.path.split(" (")[0] for d in loaded.resolved.documents][1:] == ["fifty", "standard"]
    (here / "typo.yaml").write_text("name: typo\nextends: fifyt\n", encoding="utf-8")
    status, out, err = run_main(["validate", "typo.yaml"])
    assert status == 2 and "did you mean `fifty`?" in err and "house-rule examples: cassino list" in err


def test_a_bad_extends_does_not_hide_the_files_other_errors(here: Path) -> None:
    (here / "g.yaml").write_text("name: g\nextends: nosuch\ngame:\n  targt: 11\nseats: {max_players: 99}\n",
                                 encoding="utf-8")
    status, out, err = run_main(["validate", "--format", "json", "g.yaml"])
    assert status == 2
    found = [(e["line"], e["column"], e["message"]) for e in json.loads(out)["results"][0]["errors"]]
    assert found[0] == (2, 10, "cannot find the variant `nosuch` that this file extends")
    assert (4, 3, "unknown setting `targt` in `game`") in found
    assert any(line == 5 and "must be at most 8" in message for line, _, message in found), found


def test_an_error_on_a_long_line_shows_the_line_cut_around_the_column(here: Path) -> None:
    """One bad key on a line of 0.9 MB: the whole line was shown under the message."""
    text = "{name: long, extends: standard, description: '" + "x" * 900_000 + "', game: {targt: 11}}\n"
    (here / "long.yaml").write_text(text, encoding="utf-8")
    status, out, err = run_main(["validate", "long.yaml"])
    assert status == 2
    assert len(err) < 1_000, len(err)
    first, shown, caret = err.splitlines()[:3]
    column = text.index("targt") + 1
    assert first.startswith(f"long.yaml:1:{column}: unknown setting `targt` in `game`")
    assert shown == "    ..." + text[column - 31:].rstrip("\n") and len(shown) <= 4 + 100
    assert shown[len(caret) - 1] == "t" and caret.strip() == "^"
    from cassino.errors import Diagnostic

    for column in (1_000, 500_000):   # cut at both ends, the caret still under its column
        diag = Diagnostic("long.yaml", 1, column, "here", source_line=text.rstrip("\n")).format()
        _, shown, caret = diag.splitlines()
        assert shown.startswith("    ...") and shown.endswith("...") and len(shown) == 104
        assert shown[len(caret) - 1] == text[column - 1]


def test_a_flood_of_errors_is_cut_after_a_hundred(here: Path) -> None:
    keys = ", ".join(f"k{k}: {k}" for k in range(2_000))
    (here / "many.yaml").write_text(f"name: many\nextends: standard\ngame: {{{keys}}}\n", encoding="utf-8")
    status, out, err = run_main(["validate", "--format", "json", "many.yaml"])
    assert status == 2
    errors = json.loads(out)["results"][0]["errors"]
    assert len(errors) == 101 and errors[-1]["message"] == "and 1,900 more problems: fix these first"
    status, out, err = run_main(["validate", "many.yaml"])
    assert len(err) < 50_000


@pytest.mark.parametrize("columns", ["0", "-5", "abc", "99999999", "  "])
def test_a_useless_columns_value_falls_back_to_a_sane_width(here: Path, monkeypatch: pytest.MonkeyPatch,
                                                           columns: str) -> None:
    from conftest import record_text

    monkeypatch.setenv("COLUMNS", columns)
    status, out, err = run_main(["play", "standard", "--seed", "3", "--save", "g.json"])
    assert status == 0, err
    assert "your hand:" in out and "scores" in out and "table" in out
    assert max(len(line) for line in out.splitlines()) < 1_000
    (here / "done.json").write_text(record_text(seats=("human", "random")), encoding="utf-8")
    status, out, err = run_main(["review", "done.json", "--deals", "1"])
    assert status == 0, err
    assert out.count("\n") > 10 and max(len(line) for line in out.splitlines()) < 1_000


def test_help_names_every_command() -> None:
    status, out, err = run_main(["--help"])
    assert status == 0
    description = " ".join(out.split("\n\n")[1].split())
    for command in ("validate", "list", "schema", "explain", "perft", "play", "review", "replay", "simulate",
                    "check", "solve", "rules", "diff", "sweep", "serve"):
        assert re.search(rf"\b{command}\b", description), (command, description)


# ---------------------------------------------------------------------- solve: its limit, its progress, its memory

POSITION = """variant: standard
cases:
  - name: last deal
    hand: [8D, 3H, KS, AS]
    hands: {1: [5C, 2S, 10D, KH]}
    table: [5S, 3C, 7H]
    captured: {0: [2C, 2D, 2H, 3D, 3S, 4C, 4D, 4H, 4S, 5D, 5H, 6C, 6D, 6H, 6S, 7C, 7D, 7S], 1: rest}
    last_capture: 1
"""


def test_solve_says_how_far_it_has_gone_and_its_limit_is_bounded(here: Path) -> None:
    (here / "pos.yaml").write_text(POSITION, encoding="utf-8")
    status, out, err = run_main(["solve", "pos.yaml", "--max-positions", "200"])
    assert status == 2 and "too large to solve exactly (more than 200 positions searched)" in err
    said = [line for line in err.splitlines() if line.startswith("solve: ")]
    assert said == [f"solve: {k * 20} positions searched, {k * 10}% of the limit of 200" for k in range(1, 11)]
    status, out, err = run_main(["solve", "pos.yaml", "--max-positions", "20000001"])
    assert status == 2 and "--max-positions: must be at most 20,000,000, not 20000001" in err
    status, out, err = run_main(["solve", "pos.yaml"])
    assert status == 0 and "best: " in out and not err   # a small search says nothing


def test_the_solvers_table_is_bounded_and_forgetting_changes_no_value(here: Path) -> None:
    from cassino.apps.authors.solve import BoundedTable, solve

    table = BoundedTable(1_000)
    for k in range(10_000):
        table[k] = k
        assert len(table) <= 1_000
    assert 9_999 in table and 0 not in table
    (here / "pos.yaml").write_text(POSITION, encoding="utf-8")
    roomy, tight = solve(str(here / "pos.yaml")), solve(str(here / "pos.yaml"), table_limit=8)
    assert roomy.values == tight.values and roomy.line == tight.line
    assert tight.nodes > roomy.nodes   # positions forgotten were searched again


@pytest.mark.parametrize("value, says", [("[" * 5_000, "nested too deeply"),
                                         ("a\x01b", "U+0001 (a control character) is not allowed")])
def test_a_sweep_value_is_read_with_the_rule_files_bounds(here: Path, value: str, says: str) -> None:
    status, out, err = run_main(["sweep", "standard", "--set", f"game.target={value}", "--games", "1"])
    assert status == 2, err
    lines = message_lines(err)
    assert len(lines) == 1 and says in lines[0] and len(err) < 500, err

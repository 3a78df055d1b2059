"""Every subcommand against each bad option a new user typed (issue 11): exit 2, one message line
(plus indented context), no traceback, and no file in the folder created, changed or removed.

The commands run in-process through ``cli.main`` (an exception escaping it would fail the test
with its traceback); a few run as real processes to see exactly what a terminal sees.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from cassino.apps.cli import main

from conftest import record_text

SCENARIO = """variant: standard
cases:
  - name: a pair
    table: [9C]
    hand: [9D]
    expect:
      legal: ["9D capture 9C"]
"""


@pytest.fixture(scope="module")
def finished() -> str:
    return record_text(seats=("random", "random"))


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, finished: str) -> Path:
    """A folder with a finished game record, damaged copies of it, a scenario and a bad rule file."""
    data = json.loads(finished)
    files = {
        "game.json": finished,
        "truncated.json": finished[: len(finished) // 2],
        "edited.json": json.dumps({**data, "result": {**data["result"], "scores": [99, 0]}}),
        "partners.json": json.dumps({**data, "partners": True}),
        "players.json": json.dumps({**data, "players": 9}),
        "seats.json": json.dumps({**data, "seats": ["search"]}),
        "s.yaml": SCENARIO,
        "only-name.yaml": "name: only\n",
        "two.yaml": "name: two\ndescription: for two\nextends: standard\nseats:\n  max_players: 2\n",
        "three.yaml": "name: three\ndescription: three or four\nextends: standard\nseats:\n  min_players: 3\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


def run_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch("builtins.input", side_effect=EOFError):
        try:
            code = main(argv)
        except SystemExit as e:   # argparse's own errors
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def message_lines(stderr: str) -> list[str]:
    """The lines that say something: not argparse's usage, not indented context, not a count summary."""
    return [line for line in stderr.splitlines()
            if line.strip() and not line.startswith((" ", "usage:")) and not re.fullmatch(r"\d+ valid, \d+ invalid", line)]


CASES = [
    # (command line, what the one message line must say)
    (["validate"], "required"),
    (["validate", "nosuch.yaml"], "cannot read"),
    (["validate", "standard", "--format", "xml"], "invalid choice"),
    (["validate", "only-name.yaml"], "missing sections"),
    # (said by the command's own parser, with its usage line: an audit read the top level's)
    (["list", "extra"], "cassino list: error: unrecognized arguments: extra"),
    (["schema", "extra"], "cassino schema: error: unrecognized arguments: extra"),
    (["explain", "nosuch"], "no bundled variant or file named `nosuch`"),
    (["explain", "only-name.yaml"], "missing sections"),
    (["perft", "standard", "--players", "9"], "standard is for 2 to 4 players"),
    (["perft", "standard", "--players", "1"], "standard is for 2 to 4 players"),
    (["perft", "standard", "--depth", "-2"], "--depth: must be at least 0"),
    (["perft", "standard", "--depth", "x"], "is not a whole number"),
    (["perft", "standard", "--partners"], "--partners needs four players"),
    (["perft", "standard", "--scenario", "s.yaml"], "--scenario needs --case"),
    (["perft", "standard", "--case", "a pair"], "give --scenario FILE too"),
    (["perft", "standard", "--scenario", "s.yaml", "--case", "nope"], "no case named 'nope'; its cases: 'a pair'"),
    (["perft", "nosuch"], "no bundled variant"),
    (["play"], "name a variant or rule file to play"),
    (["play", "standard", "--players", "0"], "--players 0 is not allowed"),
    (["play", "standard", "--players", "9"], "--players 9 is not allowed"),
    (["play", "two.yaml", "--players", "3"], "two is for 2 players only"),
    (["play", "standard", "--humans", "-1"], "--humans must be 0 to 2"),
    (["play", "standard", "--humans", "3"], "--humans must be 0 to 2"),
    (["play", "standard", "--partners"], "--partners needs four players"),
    (["play", "standard", "--bot", "genius"], "no computer player named 'genius'"),
    (["play", "standard", "--bot", "search:lots"], "bad search budget"),
    (["play", "standard", "--seed", "x"], "--seed: 'x' is not a seed"),
    (["play", "standard", "--save", "/nonexistent/dir/x.json"], "there is no folder /nonexistent/dir"),
    (["play", "standard", "--save", "sub"], "sub is a folder"),
    (["play", "standard", "--save", "game.json"], "game.json already exists"),
    (["play", "standard", "--force"], "--force lets --save FILE replace"),
    (["play", "--resume", "nosuch.json"], "cannot read"),
    (["play", "--resume", "truncated.json"], "not a game record"),
    (["play", "--resume", "edited.json"], "the stored result does not match the moves"),
    (["play", "--resume", "players.json"], "\"players\" 9 is not allowed"),
    (["play", "--resume", "seats.json"], "1 seat named for 2 players"),
    (["play", "--resume", "game.json", "--players", "4"], "leave out --players"),
    (["play", "--resume", "game.json", "--bot", "greedy"], "leave out --bot"),
    (["play", "royal", "--resume", "game.json"], "leave out the variant"),
    (["play", "--resume", "game.json", "--seed", "4", "--humans", "0"], "leave out --humans, --seed"),
    (["play", "--resume", "game.json", "--save", "edited.json"], "edited.json already exists"),
    (["replay"], "required"),
    (["replay", "nosuch.json"], "cannot read"),
    (["replay", "sub"], "is a folder"),
    (["replay", "truncated.json"], "not a game record"),
    (["replay", "edited.json"], "\"scores\" says [99, 0]"),
    (["replay", "partners.json"], "needs four players"),
    (["replay", "players.json"], "standard is for 2 to 4 players"),
    (["replay", "seats.json"], "1 seat named for 2 players"),
    (["replay", "s.yaml"], "not a game record"),
    (["simulate", "standard", "--players", "9"], "--players 9 is not allowed"),
    (["simulate", "standard", "--players", "1"], "--players 1 is not allowed"),
    (["simulate", "two.yaml", "--players", "3"], "two is for 2 players only"),
    (["simulate", "standard", "--workers", "0"], "--workers: must be at least 1, not 0"),
    (["simulate", "standard", "--workers", "-3"], "--workers: must be at least 1, not -3"),
    (["simulate", "standard", "--games", "0"], "--games: must be at least 1"),
    (["simulate", "tuxedo", "--partners"], "tuxedo is played without partnerships; leave out --partners"),
    (["simulate", "standard", "--bot", "genius"], "no computer player named 'genius'"),
    (["simulate", "standard", "--bots", "greedy,genius"], "no computer player named 'genius'"),
    (["check", "nosuch.yaml"], "cannot read"),
    (["play", "standard", "--humans", "0", "--count"], "--count helps a person playing"),
    (["play", "standard", "--humans", "0", "--warn", "--count", "--seed", "3"], "--count and --warn help a person"),
]


def refused_cleanly(folder: Path, argv: list[str], says: str) -> None:
    """The command exits 2 with one line that says ``says``, no traceback, and the folder untouched."""
    before = snapshot(folder)
    code, out, err = run_main(argv)
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    lines = message_lines(err)
    assert len(lines) == 1, err
    assert says in lines[0], err
    assert snapshot(folder) == before


@pytest.mark.parametrize("argv, says", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_option_exits_2_with_one_message_and_destroys_nothing(folder: Path, argv: list[str], says: str) -> None:
    refused_cleanly(folder, argv, says)


def test_a_variants_default_player_count_is_one_it_allows(folder: Path) -> None:
    code, out, err = run_main(["simulate", "three.yaml", "--games", "1", "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["players"] == 3


def test_a_real_terminal_sees_one_line_and_no_traceback(folder: Path) -> None:
    for argv in (["simulate", "standard", "--players", "9"], ["play", "standard", "--save", "/tmp"],
                 ["replay", "seats.json"], ["perft", "standard", "--depth", "-2"]):
        result = subprocess.run([sys.executable, "-m", "cassino", *argv], capture_output=True, text=True,
                                cwd=folder, timeout=120, stdin=subprocess.DEVNULL)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert len(message_lines(result.stderr)) == 1


def test_a_new_game_never_replaces_a_record(folder: Path) -> None:
    """The default name comes from the seed; a second game with the same seed gets a new name."""
    first = folder / "cassino-standard-5.json"
    first.write_text((folder / "game.json").read_text())
    before = first.read_bytes()
    code, out, _ = run_main(["play", "standard", "--seed", "5"])
    assert code == 0
    assert first.read_bytes() == before
    second = folder / "cassino-standard-5-2.json"
    assert second.exists()
    assert f"recorded in {second.name}" in out and f"cassino play --resume {second.name}" in out


def test_force_replaces_and_resume_continues_in_place(folder: Path) -> None:
    code, out, _ = run_main(["play", "standard", "--seed", "5", "--save", "game.json", "--force"])
    assert code == 0
    assert json.loads((folder / "game.json").read_text())["seed"] == 5
    code, out, _ = run_main(["play", "--resume", "game.json"])
    assert code == 0 and "cassino play --resume game.json" in out


def test_bots_is_a_deprecated_spelling_of_bot(folder: Path) -> None:
    old = run_main(["simulate", "standard", "--games", "2", "--bots", "greedy,random", "--format", "json"])
    new = run_main(["simulate", "standard", "--games", "2", "--bot", "greedy", "--bot", "random", "--format", "json"])
    assert old[0] == new[0] == 0
    assert json.loads(old[1]) == json.loads(new[1])
    assert json.loads(new[1])["bots"] == ["greedy", "random"]
    assert "--bots is the old spelling of --bot" in old[2] and not new[2]


def test_messages_read_as_english(folder: Path) -> None:
    code, out, _ = run_main(["simulate", "standard", "--games", "2", "--players", "3"])
    assert code == 0 and re.search(r"games won: seat 0 \d+, seat 1 \d+, seat 2 \d+; no winner: \d+", out)
    code, out, _ = run_main(["perft", "standard", "--depth", "1"])
    assert code == 0 and re.fullmatch(r"standard, 2 players, seed 1: \d+ move sequences of 1 move\n", out)
    code, out, _ = run_main(["replay", "game.json"])
    assert code == 0
    assert re.search(r"standard, seed 3, 2 players: \d+ moves replayed; game over after \d+ hands: seat \d wins "
                     r"\(target\); scores: seat 0 \d+, seat 1 \d+", out), out
    code, out, err = run_main(["play", "standard", "--players", "2", "--humans", "0", "--bot", "random",
                               "--seed", "1", "--save", "w.json"])
    assert code == 0, err
    assert "2 to 2" not in out + err and " 1 actions" not in out


def test_every_option_has_help() -> None:
    from cassino.apps.cli import build_parser

    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, sub in subparsers.choices.items():
        for action in sub._actions:
            if action.option_strings and action.dest not in ("help", "format"):
                assert action.help, f"cassino {name} {action.option_strings[0]} has no help text"


# ---------------------------------------------------------------------- files on the command line (issue 25)
# Hostile files: nested too deeply, endless or blocking, names too long, writes over what must not be
# replaced. Each exits 2 with one message line, no traceback, and leaves the folder as it was.

DEEP = "[" * 600 + "]" * 600 + "\n"
LONG = "x" * 300


@pytest.fixture()
def hostile(folder: Path) -> Path:
    """The folder of the cases above, with a deeply nested file, a FIFO, a record with a BOM and a rule file."""
    (folder / "deep.yaml").write_text(DEEP, encoding="utf-8")
    (folder / "deep.json").write_text(DEEP, encoding="utf-8")
    (folder / "my-house.yaml").write_text("name: my-house\nextends: standard\ngame:\n  target: 11\n", encoding="utf-8")
    (folder / "my-house-eleven.yaml").write_text("name: my-house-eleven\nextends: my-house.yaml\n", encoding="utf-8")
    (folder / "bom.json").write_bytes(b"\xef\xbb\xbf" + (folder / "game.json").read_bytes())
    (folder / "adir").mkdir()
    import os

    os.mkfifo(folder / "fifo")
    return folder


FILE_CASES = [
    (["validate", "deep.yaml"], "deep.yaml:1:33: lists and mappings are nested too deeply (more than 32 levels)"),
    (["validate", "--format", "json", "deep.yaml"], None),
    (["check", "deep.yaml"], "deep.yaml:1: lists and mappings are nested too deeply"),
    (["explain", "deep.yaml"], "nested too deeply"),
    (["rules", "deep.yaml"], "nested too deeply"),
    (["play", "deep.yaml"], "nested too deeply"),
    (["solve", "deep.yaml"], "nested too deeply"),
    (["replay", "deep.json"], "deep.json:1:41: not a game record: lists and mappings are nested too deeply"),
    (["play", "--resume", "deep.json"], "nested too deeply (more than 40 levels)"),
    (["validate", "/dev/zero"], "/dev/zero: is a device, not a rule file"),
    (["validate", "fifo"], "fifo: is a named pipe (FIFO), not a rule file"),
    (["check", "fifo"], "is a named pipe (FIFO), not a rule or scenario file"),
    (["replay", "fifo"], "is a named pipe (FIFO), not a game record"),
    (["replay", "/dev/zero"], "is a device, not a game record"),
    (["validate", "adir"], "adir: is a folder, not a rule file"),
    (["play", "--resume", "my-house.yaml"], "my-house.yaml is not a game record: it looks like a rule file; "
                                            "use `cassino play my-house.yaml`"),
    (["validate", LONG + ".yaml"], "the name is too long"),
    (["explain", LONG], "the name is too long"),
    (["play", LONG + ".yaml"], "the name is too long"),
    (["rules", LONG], "the name is too long"),
    (["diff", "standard", LONG], "the name is too long"),
    (["sweep", LONG], "the name is too long"),
    (["simulate", LONG], "the name is too long"),
    (["replay", LONG + ".json"], "the name is too long"),
    (["play", "standard", "--save", LONG + ".json"], "the name is too long"),
    (["rules", "standard", "-o", LONG + ".txt"], "the name is too long"),
    (["serve", "--records", LONG], "the name is too long"),
    (["rules", "my-house.yaml", "-o", "my-house.yaml"], "my-house.yaml already exists; add --force"),
    # --force does not let the rulebook replace the rule file it is read from (an audit did, to a copy)
    (["rules", "my-house.yaml", "-o", "my-house.yaml", "--force"],
     "my-house.yaml is the rule file being read: the rulebook would replace it"),
    (["rules", "my-house-eleven.yaml", "-o", "my-house.yaml", "--force"],
     "my-house.yaml is a rule file it extends: the rulebook would replace it"),
    (["rules", "standard", "-o", "game.json"], "game.json already exists; add --force"),
    (["rules", "standard", "--force"], "--force lets --output FILE replace"),
    # A FIFO in the test's folder stands for /dev/null: the unfixed code replaced the device node itself.
    (["rules", "standard", "-o", "fifo", "--force"], "fifo is a named pipe (FIFO); the rulebook is written to a regular file only"),
    (["rules", "standard", "-o", "adir", "--force"], "adir is a folder"),
    (["rules", "standard", "-o", "newdir/"], "newdir/ ends in a slash, so it names a folder"),
    (["sweep", "standard", "--set", "game.target=11", "--plot", "game.json"], "game.json already exists; add --force"),
    (["sweep", "standard", "--set", "game.target=11", "--force"], "--force lets --plot FILE replace"),
    (["sweep", "standard", "--set", "game.target=11", "--plot", "fifo", "--force"], "fifo is a named pipe (FIFO)"),
    (["play", "standard", "--save", "fifo", "--force"], "fifo is a named pipe (FIFO); the game record is written to a regular file only"),
    (["play", "standard", "--save", "newdir/"], "newdir/ ends in a slash, so it names a folder"),
    # --force lets no output replace the rule file read or one it extends (an audit's play and sweep did)
    (["play", "my-house.yaml", "--save", "my-house.yaml", "--force"],
     "my-house.yaml is the rule file being read: the game's record would replace it"),
    (["play", "my-house-eleven.yaml", "--save", "my-house.yaml", "--force"],
     "my-house.yaml is a rule file it extends: the game's record would replace it"),
    (["sweep", "my-house.yaml", "--set", "game.target=11", "--plot", "my-house.yaml", "--force"],
     "my-house.yaml is the rule file being read: the plot would replace it"),
    (["train", "my-house-eleven.yaml", "--out", "my-house.yaml"],
     "my-house.yaml is a rule file it extends: the weights would replace it"),
    # An empty name is no file (an audit's `serve --records ''` took in the current folder's records)
    (["rules", "standard", "-o", ""], "argument --output/-o: names nothing (an empty value); name one, e.g. rules.txt"),
    (["sweep", "standard", "--set", "game.target=11", "--plot", " "], "argument --plot: names nothing"),
    (["sweep", "standard", "--set", "game.target=11", "--cluster", ""], "argument --cluster: names nothing"),
    (["serve", "--records", ""], "argument --records: names nothing (an empty value); name one, e.g. cassino-tables"),
    (["serve", "--rules-dir", ""], "argument --rules-dir: names nothing"),
    (["simulate", "standard", "--bots", ""], "argument --bots: names nothing"),
    # A record or a scenario where a rule file is wanted: one line, with the command that reads it
    (["play", "game.json"], "game.json is a game record, not a rule file"),
    (["validate", "game.json"], "game.json:2:12: game.json is a game record, not a rule file"),
    (["explain", "s.yaml"], "s.yaml is a scenario file (it has `cases:`), not a rule file"),
    (["rules", "s.yaml"], "s.yaml is a scenario file"),
    # perft --scenario passed over what it does not use, and counted a case under another variant's rules
    (["perft", "royal", "--scenario", "s.yaml", "--case", "a pair"],
     "s.yaml, case 'a pair', is a position of standard (its `variant:`), not of royal"),
    (["perft", "standard", "--scenario", "s.yaml", "--case", "a pair", "--players", "3", "--seed", "5"],
     "--scenario counts from its case's own position, seats and cards: leave out --players, --seed"),
    (["perft", "standard", "--scenario", "", "--case", "a pair"], "--scenario names no file (an empty name)"),
    (["serve", "--rules-dir", "two.yaml"], "--rules-dir two.yaml: a file, not a folder"),
    # a scenario where a record is wanted, a record where a scenario is (a re-attack: called a rule file, or "unknown
    # key `format`")
    (["replay", "s.yaml"], "s.yaml is not a game record: it looks like a scenario file (it has `cases:`); run its "
                           "cases with `cassino check s.yaml`"),
    (["play", "--resume", "s.yaml"], "it looks like a scenario file"),
    (["check", "game.json"], "game.json:2: game.json is a game record, not a scenario file"),
    (["solve", "game.json", "--case", "x"], "game.json is a game record, not a scenario file"),
    # an empty name (a re-attack read ": no bundled variant or file named ``")
    (["explain", ""], "(an empty name): names no variant or rule file"),
    (["validate", " "], "(an empty name): names no variant or rule file"),
    (["check", ""], "(an empty name):0: names no file: name a rule or scenario file to read"),
    (["replay", ""], "(an empty name): names no file: name a game record to read"),
    (["sweep", "standard", "--set", "game.target=11", "--plot", "out.txt"],
     "--plot out.txt: the plot is a PNG image; name a file ending in .png"),
]


@pytest.mark.parametrize("argv, hint", [(["play", "game.json"], "continue the game with `cassino play --resume game.json`"),
                                        (["rules", "s.yaml"], "run its cases with `cassino check s.yaml`")])
def test_a_record_or_a_scenario_named_for_rules_says_the_command_that_reads_it(hostile: Path, argv: list[str],
                                                                              hint: str) -> None:
    code, out, err = run_main(argv)
    assert code == 2 and f"hint: {hint}" in err and len(err.splitlines()) <= 4, err


@pytest.mark.parametrize("argv, says", FILE_CASES, ids=[" ".join(a)[:60] for a, _ in FILE_CASES])
def test_hostile_files_exit_2_with_one_message_and_destroy_nothing(hostile: Path, argv: list[str],
                                                                   says: str | None) -> None:
    before = snapshot_files(hostile)
    code, out, err = run_main(argv)
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    if says is None:   # --format json: the error is in the report, located
        errors = json.loads(out)["results"][0]["errors"]
        assert errors[0]["line"] == 1 and errors[0]["column"] == 33
        assert "nested too deeply (more than 32 levels)" in errors[0]["message"]
    else:
        lines = message_lines(err)
        assert len(lines) == 1, err
        assert says in lines[0], err
    assert snapshot_files(hostile) == before
    assert (hostile / "fifo").is_fifo()


def snapshot_files(folder: Path) -> dict[str, str]:
    """As :func:`snapshot`, but never opening a FIFO (reading one blocks)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file()
            else ("dir" if p.is_dir() else "other") for p in sorted(folder.rglob("*"))}


def test_force_replaces_a_regular_file_and_the_rulebook_is_written_whole(hostile: Path) -> None:
    code, out, err = run_main(["rules", "standard", "-o", "game.json", "--force"])
    assert code == 0, err
    assert (hostile / "game.json").read_text(encoding="utf-8").startswith("Standard") or \
        "standard" in (hostile / "game.json").read_text(encoding="utf-8").lower()
    assert not [p for p in hostile.iterdir() if p.name.startswith(".cassino-")]


def test_a_write_that_fails_is_an_error_never_saved(hostile: Path) -> None:
    """The disk filling up mid-write (as /dev/full does): exit 2, the old file kept, no temporary left."""
    import errno
    import os

    before = (hostile / "game.json").read_bytes()
    real_fsync = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with mock.patch("os.fsync", full):
        code, out, err = run_main(["rules", "standard", "-o", "game.json", "--force"])
        code2, out2, err2 = run_main(["play", "standard", "--save", "new.json"])
    assert real_fsync is os.fsync
    assert code == 2 and "game.json: cannot write the rulebook: no space left on the device" in err
    assert code2 == 2 and "new.json: cannot write the game record: no space left" in err2
    assert "saved" not in out + out2 and "recorded in" not in out2
    assert (hostile / "game.json").read_bytes() == before
    assert not (hostile / "new.json").exists()
    assert not [p for p in hostile.iterdir() if p.name.startswith(".cassino-")]


def test_resuming_a_finished_game_into_another_file_writes_it(hostile: Path) -> None:
    code, out, err = run_main(["play", "--resume", "game.json", "--save", "copy.json"])
    assert code == 0, err
    assert "copy.json" in out
    assert json.loads((hostile / "copy.json").read_text())["actions"] == \
        json.loads((hostile / "game.json").read_text())["actions"]
    code, out, err = run_main(["replay", "copy.json"])
    assert code == 0, err


def test_a_record_with_a_byte_order_mark_is_accepted(hostile: Path) -> None:
    code, out, err = run_main(["replay", "bom.json"])
    assert code == 0, err
    assert "moves replayed" in out


def test_a_record_being_played_is_refused_to_a_second_process(hostile: Path) -> None:
    """Two real terminals: the first plays (waiting for a move), the second resuming the same record is refused."""
    import time

    first = subprocess.Popen([sys.executable, "-m", "cassino", "play", "standard", "--seed", "2", "--save", "two.json"],
                             cwd=hostile, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lock = hostile / ".two.json.lock"
        for _ in range(1200):   # waits for the first to start, however slow the machine
            if lock.exists() and (hostile / "two.json").exists():
                break
            time.sleep(0.1)
        second = subprocess.run([sys.executable, "-m", "cassino", "play", "--resume", "two.json"], cwd=hostile,
                                capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert second.returncode == 2, second.stdout + second.stderr
        assert "two.json is being played in another cassino process" in second.stderr
        assert "Traceback" not in second.stderr
        first.communicate("quit\n", timeout=300)
    finally:
        first.kill()
        first.wait()
    assert first.returncode == 0
    assert not lock.exists()
    code, out, err = run_main(["play", "--resume", "two.json"])   # free again once the first has quit
    assert code == 0, err


def test_a_lock_held_in_this_process_refuses_a_second_session(hostile: Path) -> None:
    from cassino.files import exclusive

    with exclusive(hostile / "game.json"):
        code, out, err = run_main(["play", "--resume", "game.json"])
    assert code == 2 and "is being played in another cassino process" in err
    code, out, err = run_main(["play", "--resume", "game.json"])
    assert code == 0, err


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_suit_symbols_fall_back_to_letters_where_the_output_cannot_show_them(hostile: Path, encoding: str) -> None:
    import os

    env = {**os.environ, "PYTHONIOENCODING": encoding}
    for argv, stdin in ((["rules", "standard", "--no-examples"], ""), (["diff", "standard", "hoyle", "--tries", "20"], ""),
                        (["play", "standard", "--seed", "1", "--save", f"enc-{encoding}.json"], "quit\n")):
        result = subprocess.run([sys.executable, "-m", "cassino", *argv], cwd=hostile, capture_output=True,
                                timeout=300, input=stdin.encode(), env=env)
        err = result.stderr.decode(encoding, errors="replace")
        assert result.returncode == 0, err
        assert "UnicodeEncodeError" not in err
        out = result.stdout.decode(encoding)   # what the terminal shows, in its own encoding
        assert "?" not in out.replace("?)", "").replace("? ", "") or argv[0] != "play"
        if argv[0] == "play":
            assert re.search(r"\b(10|[2-9AJQK])[SHDC]\b", out), out

# ---------------------------------------------------------------- issue 25, terminal play (branch play)
PLAY_CASES = [
    (["play", "standard", "--bot", "greedy,random,search"],
     "--bot names 3 computer players (greedy, random, search) but the table has 1 computer seat (seat 1)"),
    (["play", "standard", "--players", "3", "--humans", "2", "--bot", "greedy", "--bot", "random"],
     "the table has 1 computer seat (seat 2): name at most 1"),
    (["play", "standard", "--humans", "2", "--bot", "greedy"], "every seat is a person"),
    (["simulate", "standard", "--bot", "greedy,random,search"], "the table has 2 computer seats (seats 0 to 1)"),
    (["simulate", "standard", "--bots", "greedy,random,search"], "name at most 2"),
    (["sweep", "standard", "--set", "game.target=11,21", "--bot", "greedy,random,search"],
     "the table has 2 computer seats"),
    (["sweep", "standard", "--set", "game.target=11,21", "--players", "3", "--bot", "a,b,c,d"],
     "no computer player named 'a'"),
    (["play", "standard", "--bot", "search:1000000000"], "at most 10,000 deals a move"),
    (["simulate", "standard", "--bot", "search:1000000000"], "at most 10,000 deals a move"),
    (["sweep", "standard", "--set", "game.target=11,21", "--bot", "search:1000000000"],
     "at most 10,000 deals a move"),
    (["play", "standard", "--bot", "search:99s"], "at most 60 seconds a move"),
    (["simulate", "standard", "--bot", "greedy,search:61s"], "at most 60 seconds a move"),
    (["sweep", "standard", "--set", "game.target=11,21", "--bot", "search:1e9s"], "at most 60 seconds a move"),
    (["perft", "standard", "--depth", "100"], "--depth 100 is more than the 48 moves left in this hand"),
    (["perft", "standard", "--depth", "49", "--divide"], "use --depth 48 or less"),
    (["perft", "standard", "--scenario", "s.yaml", "--case", "a pair", "--depth", "52"],
     "--depth 52 is more than the 51 moves left in this hand (each move plays a card: 1 in the hands, 50 in"),
]


@pytest.mark.parametrize("argv, says", PLAY_CASES, ids=[" ".join(a) for a, _ in PLAY_CASES])
def test_bot_lists_budgets_and_depths_beyond_the_bounds_are_refused(folder: Path, argv: list[str], says: str) -> None:
    refused_cleanly(folder, argv, says)


def test_a_short_bot_list_repeats_in_simulate_and_says_so(folder: Path) -> None:
    code, out, err = run_main(["simulate", "standard", "--players", "3", "--games", "1", "--bot", "greedy,random",
                               "--format", "json"])
    assert code == 0, err
    assert "the list repeats from its start: seat 0 greedy, seat 1 random, seat 2 greedy" in err
    same = run_main(["simulate", "standard", "--players", "3", "--games", "1", "--bot", "greedy,random,greedy",
                     "--format", "json"])
    assert same[0] == 0 and not same[2]
    repeated, written = json.loads(out), json.loads(same[1])
    assert repeated.pop("bots") == ["greedy", "random"] and written.pop("bots") == ["greedy", "random", "greedy"]
    assert repeated == written


def test_bot_help_says_the_bounds_and_how_the_list_maps_to_seats() -> None:
    from cassino.apps.cli import BOT_HELP
    from cassino.players.names import MAX_DEALS, MAX_SECONDS

    assert f"1 to {MAX_DEALS:,}" in BOT_HELP and f"up to {MAX_SECONDS:g}" in BOT_HELP
    assert "computer seats in order" in BOT_HELP and "repeats from its start" in BOT_HELP
    assert "longer one is refused" in BOT_HELP


def test_aids_for_a_person_are_refused_on_resuming_a_game_with_no_person(folder: Path) -> None:
    """A record among computer players resumed with --count: refused before anything is played or written."""
    code, _, err = run_main(["play", "standard", "--humans", "0", "--bot", "random", "--seed", "4", "--save",
                             "bots.json"])
    assert code == 0, err
    refused_cleanly(folder, ["play", "--resume", "bots.json", "--warn"], "--warn helps a person playing")


def test_perft_names_a_scenarios_variant_path_as_a_command_takes_it(hostile: Path) -> None:
    """A re-attack: the case's `variant: ../rules/nr.yaml` was suggested as is (relative to the scenario's folder),
    and two files of one name were said "a position of nr, not of nr"."""
    (hostile / "rules").mkdir()
    (hostile / "rules" / "nr.yaml").write_text("name: nr\nextends: standard\ngame: {target: 11}\n", encoding="utf-8")
    (hostile / "rules" / "imposter.yaml").write_text("name: nr\nextends: standard\ngame: {target: 15}\n",
                                                     encoding="utf-8")
    (hostile / "sc").mkdir()
    (hostile / "sc" / "pn.yaml").write_text("variant: ../rules/nr.yaml\ncases:\n  - name: std\n    hand: [9D]\n"
                                            "    table: [9C]\n", encoding="utf-8")
    code, out, err = run_main(["perft", "standard", "--scenario", "sc/pn.yaml", "--case", "std"])
    assert code == 2 and "count it with `cassino perft rules/nr.yaml --scenario sc/pn.yaml --case 'std'`" in err, err
    code, out, err = run_main(["perft", "rules/imposter.yaml", "--scenario", "sc/pn.yaml", "--case", "std"])
    assert code == 2 and "is a position of rules/nr.yaml (its `variant:`), not of rules/imposter.yaml" in err, err
    code, out, err = run_main(["perft", "rules/nr.yaml", "--scenario", "sc/pn.yaml", "--case", "std", "--depth", "1"])
    assert code == 0, err


def test_perft_counts_from_after_a_cases_own_moves(hostile: Path) -> None:
    """A second re-attack: `perft --scenario` counted from before a case's `moves`, a refused one among them unsaid;
    `solve` plays them first."""
    (hostile / "p.yaml").write_text(
        "variant: standard\ncases:\n  - name: moved\n    table: [5S, 9C]\n    hand: [8H, 3D, 4C]\n"
        "    hands: {1: [9D, 2C, 6H]}\n    moves: [\"3D build 8 on 5S\"]\n  - name: refused\n    table: [5S, 9C]\n"
        "    hand: [8H, 3D, 4C]\n    hands: {1: [9D, 2C, 6H]}\n    moves: [\"3D build 7 on 5S\"]\n", encoding="utf-8")
    code, out, err = run_main(["perft", "standard", "--scenario", "p.yaml", "--case", "moved", "--depth", "1"])
    assert code == 0 and "(from the position after the case's 1 move)" in err and "4 move sequences" in out, out + err
    code, out, err = run_main(["perft", "standard", "--scenario", "p.yaml", "--case", "refused", "--depth", "1"])
    assert code == 2 and "moves[0] '3D build 7 on 5S' is refused" in err, err

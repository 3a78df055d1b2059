"""A player's audit of the player documentation (playing.md, casino-in-five-minutes.md, README.md), each find a test.

1. A record cut at its very end (its last `}` gone, or a file of `{` alone) read "a comma is missing" or "a key in
   double quotes is expected": it says the file may be cut short.
2. A record whose rules lost their deck (or hold `"deck": "x"`) was told it names `extends`.
3. A saved transcript (`standard: Anglo-American ...`) was called a rule file to `cassino play`, which then refused
   it as YAML; `/etc/passwd` read "a value is missing here (the file may be cut short)".
4. A whole Swazi turn typed with `;` ended without "nothing left for your hand to build", which the same actions
   one at a time print.
5. `--tutorial`, `--count` and `--warn` were lost at `--resume`.
6. The documents: undo's condition, who sits where at one keyboard, the tutorial's end of game, raising a build.
7. Nitpicks: usage lines above a number out of range, shlex's words, `quit` at the new-file prompt made a file,
   "no folder" for a file, commands offered in a game nobody types in, `claim` offered without claiming, names
   in capitals, "1 move sequences".
8. SIGTERM and SIGHUP left the record's lock (and, during a save, a temporary copy) beside it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from cassino.apps.cli import main

ROOT = Path(__file__).resolve().parents[1]
FINISHED = ROOT / "tests" / "records" / "review-greedy-standard-11.json"


def cassino(*args: str, typed: str = "", cwd: Path | None = None, timeout: float = 240) -> tuple[int, str, str]:
    """`cassino ARGS` in a process of its own, ``typed`` its input: (exit status, stdout, stderr)."""
    env = dict(os.environ, COLUMNS="120", HOME=str(cwd or ROOT))
    done = subprocess.run([sys.executable, "-m", "cassino", *args], input=typed, capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def in_process(argv: list[str], typed: list[str] | None = None) -> tuple[int, str, str]:
    """``main(argv)`` here, the lines ``typed`` its input (an item may be a function called when its line is
    read, returning the line): (exit status, stdout, stderr)."""
    import contextlib
    import io

    lines = iter(typed or [])

    def read(prompt: str = "") -> str:
        print(prompt, end="")
        try:
            line = next(lines)
        except StopIteration:
            raise EOFError from None
        return line() if callable(line) else line

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), mock.patch("builtins.input", read):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


READERS = [("replay",), ("review",), ("play", "--resume")]


# ---------------------------------------------------------------------- 1. a record cut at its end

@pytest.mark.parametrize("reader", READERS, ids=" ".join)
@pytest.mark.parametrize("cut", ["last brace", "last brace, spaces after", "a brace alone"])
def test_a_record_cut_at_its_end_may_be_cut_short(here: Path, reader: tuple[str, ...], cut: str) -> None:
    text = FINISHED.read_text(encoding="utf-8").rstrip()
    assert text.endswith("}")
    body = {"last brace": text[:-1], "last brace, spaces after": text[:-1] + "\n\n  \n", "a brace alone": "{"}[cut]
    (here / "cut.json").write_text(body, encoding="utf-8")
    code, out, err = in_process([*reader, "cut.json"])
    assert code == 2, (out, err)
    assert "cut.json" in err and "not a game record" in err and "the file may be cut short" in err, err
    assert "comma" not in err and "double quotes" not in err, err


def test_a_record_cut_inside_a_text_or_before_a_value_says_so_too(here: Path) -> None:
    text = FINISHED.read_text(encoding="utf-8")
    (here / "in-text.json").write_text(text[: text.index('"actions"') + 5], encoding="utf-8")
    code, _, err = in_process(["replay", "in-text.json"])
    assert code == 2 and "a text in quotes is not closed" in err and "may be cut short" in err, err
    # a value missing within the file is not said to be a file cut short
    (here / "no-value.json").write_text(re.sub(r'"seed": -?\d+', '"seed": ', text, count=1), encoding="utf-8")
    code, _, err = in_process(["replay", "no-value.json"])
    assert code == 2 and "a value is missing here" in err and "cut short" not in err, err


# ---------------------------------------------------------------------- 2. the rules' deck damaged

@pytest.mark.parametrize("damage", ["a text", "deleted"])
def test_a_record_whose_deck_is_damaged_is_told_what_is_wrong(here: Path, damage: str) -> None:
    data = json.loads(FINISHED.read_text(encoding="utf-8"))
    assert data["variant"]["rules"].get("extends", "") == ""   # (a record's rules extend nothing)
    if damage == "deleted":
        del data["variant"]["rules"]["deck"]
    else:
        data["variant"]["rules"]["deck"] = "x"
    (here / "d.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    for reader in READERS:
        code, out, err = in_process([*reader, "d.json"])
        assert code == 2, (out, err)
        assert "extends" not in err, err
        if damage == "deleted":
            assert "no `deck`" in err and "edited by hand" in err, err
        else:
            assert "`deck` must be a mapping" in err and '"x"' in err, err


def test_a_record_extending_a_file_with_no_deck_still_says_so(here: Path) -> None:
    data = json.loads(FINISHED.read_text(encoding="utf-8"))
    data["variant"]["rules"] = {"name": "mine", "extends": "standard"}
    (here / "e.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    code, _, err = in_process(["replay", "e.json"])
    assert code == 2 and "holds rules that name `extends`" in err and "follows no file" in err, err


# ---------------------------------------------------------------------- 3. what a file that is no record is

TRANSCRIPT = ("standard: Anglo-American Casino; court cards pair only, 11 points a hand, 21 is game\n"
              "the game is recorded in game.json after every move\n"
              "seats: seat 0 you; seat 1 computer (search)\n"
              "seat 0> 1\n")


@pytest.mark.parametrize("reader", READERS, ids=" ".join)
def test_a_transcript_is_no_game_record_and_no_rule_file(here: Path, reader: tuple[str, ...]) -> None:
    (here / "game.txt").write_text(TRANSCRIPT, encoding="utf-8")
    code, out, err = in_process([*reader, "game.txt"])
    assert code == 2, (out, err)
    assert "game.txt is not a game record (nor a rule file)" in err, err
    assert "looks like a rule file" not in err and "cassino play game.txt" not in err, err


def test_a_file_that_is_no_json_at_all_is_said_to_be_no_record(here: Path) -> None:
    (here / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n",
                                 encoding="utf-8")
    code, _, err = in_process(["replay", "passwd"])
    assert code == 2 and "passwd is not a game record" in err and "cut short" not in err, err
    (here / "empty.json").write_text("", encoding="utf-8")
    code, _, err = in_process(["replay", "empty.json"])
    assert code == 2 and "empty.json is not a game record: the file is empty" in err, err


def test_a_rule_file_under_another_name_is_still_one_to_play(here: Path) -> None:
    shutil.copy(ROOT / "variants" / "standard.yaml", here / "mine.txt")
    code, _, err = in_process(["review", "mine.txt"])
    assert code == 2 and "it looks like a rule file; use `cassino play mine.txt`" in err, err
    code, out, err = in_process(["play", "mine.txt", "--save", "g.json"], ["quit"])
    assert code == 0 and "game saved to g.json" in out, (out, err)
    # a .yaml file that does not read as a rule file is not offered to `play`, but to `validate`
    (here / "bad.yaml").write_text("name: x\n  bad: [\n", encoding="utf-8")
    code, _, err = in_process(["review", "bad.yaml"])
    assert code == 2 and "cassino validate bad.yaml" in err and "cassino play" not in err, err


# ---------------------------------------------------------------------- 4. a whole turn typed with `;`

SWAZI = ["5D build 8 on 3C", "KS capture [3C 5S 5D]", "KH trail", "AD trail", "4H build 11 on 7D", "JC capture [4H 7D]",
         "10H trail", "10S trail"]


@pytest.mark.parametrize("last", ["QC trail; build 8 on 3H 5H", "one at a time"])
def test_a_whole_turn_typed_with_semicolons_is_told_its_end_too(here: Path, last: str) -> None:
    typed = SWAZI + (["QC trail", "build 8 on 3H 5H"] if last == "one at a time" else [last]) + ["quit"]
    code, out, err = cassino("play", "swazi-casino", "--seed", "1", "--bot", "greedy", "--save", "g.json",
                             typed="\n".join(typed) + "\n", cwd=here)
    assert code == 0, err
    answers = out.split("seat 0> ")
    # the answer to the turn's last line: the end played for the player, said, before the computer's move
    assert answers[len(typed) - 1].startswith("nothing left for your hand to build: your turn ends"), \
        answers[len(typed) - 1][:300]
    record = json.loads((here / "g.json").read_text(encoding="utf-8"))
    at = record["actions"].index("QC trail")
    assert record["actions"][at:at + 3] == ["QC trail", "build 8 on 3H 5H", "end"]


# ---------------------------------------------------------------------- 5. the aids kept at resume

def test_the_aids_a_game_was_played_with_are_kept_at_resume(here: Path) -> None:
    code, _, err = cassino("play", "standard", "--seed", "7", "--bot", "greedy", "--tutorial", "--count", "--warn",
                           "--save", "g.json", typed="quit\n", cwd=here)
    assert code == 0, err
    record = json.loads((here / "g.json").read_text(encoding="utf-8"))
    assert record["aids"] == ["count", "warn"] and "tutorial" in record
    # resumed with no option: the counting aid under the hand, the warning asked, a lesson at the first move
    code, out, err = cassino("play", "--resume", "g.json", typed="2S trail\nn\n1\ny\nquit\n", cwd=here)
    assert code == 0, err
    assert "scoring cards:" in out, out
    assert "warning: this trails 2S, a scoring card" in out and "play it anyway? (y/N)" in out, out
    assert "rule (" in out.split("taken back")[1], out
    record = json.loads((here / "g.json").read_text(encoding="utf-8"))
    assert record["aids"] == ["count", "warn"] and record["tutorial"]["taught"]["0"], record.get("tutorial")


def test_a_record_that_names_no_aids_is_resumed_without_them_and_an_option_turns_one_on(here: Path) -> None:
    data = json.loads(FINISHED.read_text(encoding="utf-8"))
    assert "aids" not in data and "tutorial" not in data   # (a record written before records kept them)
    code, out, err = in_process(["replay", str(FINISHED)])
    assert code == 0, err
    code, _, err = cassino("play", "standard", "--seed", "7", "--bot", "greedy", "--save", "g.json",
                           typed="quit\n", cwd=here)
    assert code == 0 and "aids" not in json.loads((here / "g.json").read_text(encoding="utf-8"))
    code, out, err = cassino("play", "--resume", "g.json", typed="quit\n", cwd=here)
    assert code == 0 and "scoring cards:" not in out and "rule (" not in out, out
    code, out, err = cassino("play", "--resume", "g.json", "--count", typed="quit\n", cwd=here)
    assert code == 0 and "scoring cards:" in out, out
    assert json.loads((here / "g.json").read_text(encoding="utf-8"))["aids"] == ["count"]


@pytest.mark.parametrize("aids", [5, ["count", 3], [""]])
def test_a_damaged_aids_list_is_refused_in_words(here: Path, aids: object) -> None:
    data = json.loads(FINISHED.read_text(encoding="utf-8"))
    data["aids"] = aids
    (here / "a.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    code, _, err = in_process(["replay", "a.json"])
    assert code == 2 and '"aids"' in err and "learning aids" in err, err


# ---------------------------------------------------------------------- 6. the documents

def _paragraph(text: str, words: str) -> str:
    return next(p for p in re.split(r"\n\s*\n", text) if words in p)


def test_readme_says_undo_is_for_games_against_the_computer() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.sub(r"\s+", " ", _paragraph(readme, "`undo`"))
    assert re.search(r"`undo` takes your last move back \(in a game against computer players: with several people at "
                     r"the table nobody takes back what the others have answered, only an action of a turn still "
                     r"going on\)", said), said
    assert "pip install . && cassino play standard\npip install '.[test]' && python -m pytest\n" in readme


def test_playing_says_who_sits_where_and_how_friends_are_partners() -> None:
    text = re.sub(r"\s+", " ", (ROOT / "docs" / "playing.md").read_text(encoding="utf-8"))
    assert "The people at one keyboard (`--humans N`) take the first seats" in text
    assert "with `--players 4 --partners --humans 2` the two people are seats 0 and 1, on opposite teams" in text
    assert "At one keyboard two people cannot play as partners against the computer" in text
    assert "make seats 0 and 2 people" in text
    # the tutorial's end of the game: a lesson only where several sides reach the target together, or could next hand
    assert "the end of the game then says only how" not in text
    assert ("is taught where one hand takes several sides there together, or earlier, at a hand's end from which the "
            "next hand, worth as many points, could" in text)
    assert "**Kept at resume**" in text and '"aids": ["count", "warn"]' in text


def test_five_minutes_explains_adding_to_and_raising_a_build() -> None:
    text = re.sub(r"\s+", " ", (ROOT / "docs" / "casino-in-five-minutes.md").read_text(encoding="utf-8"))
    assert "**Add to it**" in text and "**Raise it**" in text
    assert "`2D build 8 on [3S 3H]` raises a build of 6 to 8" in text
    assert "A multiple build cannot be raised" in text and "it takes the build over" in text
    # as the rulebook has it
    code, out, _ = in_process(["rules", "standard"])
    book = re.sub(r"\s+", " ", out)
    assert code == 0 and "A multiple build cannot be raised." in book
    assert "You may raise your own builds as well as other players'." in book


# ---------------------------------------------------------------------- 7. nitpicks

@pytest.mark.parametrize(("option", "said"), [
    (["--deals", "0"], "argument --deals: must be at least 1, not 0"),
    (["--deals", "10001"], "argument --deals: must be at most 10,000, not 10001"),
    (["--seat", "-1"], "argument --seat: must be at least 0, not -1"),
])
def test_a_number_out_of_range_is_refused_in_one_line(option: list[str], said: str) -> None:
    code, out, err = in_process(["review", str(FINISHED), *option])
    assert code == 2 and out == ""
    assert err == f"cassino review: {said}\n", err


def test_an_unclosed_quote_at_save_is_said_in_the_games_words(here: Path) -> None:
    code, out, _ = in_process(["play", "standard", "--seed", "7", "--save", "g.json"], ['save "abc', "quit"])
    assert code == 0
    assert "No closing quotation" not in out and "not saved: a quote is opened and not closed" in out, out


def _folder_removed(folder: Path, line: str):  # type: ignore[no-untyped-def]
    def act() -> str:
        shutil.rmtree(folder)
        return line
    return act


def test_quit_at_the_new_file_prompt_leaves_once_confirmed_and_makes_no_file(here: Path) -> None:
    (here / "gone").mkdir()
    typed = ["1", _folder_removed(here / "gone", "1"), "quit", "n", "quit", "y"]
    code, out, _ = in_process(["play", "standard", "--seed", "7", "--bot", "greedy", "--save", "gone/g.json"], typed)
    assert code == 2
    assert "Enter stops the game" in out and "leave all the same? (y/N)" in out, out
    assert out.count("leave all the same?") == 2 and "stopped: the game is lost" in out, out
    assert not (here / "quit").exists() and not (here / "n").exists()
    # where the record is still there, quit stops at once and keeps the game as last written
    (here / "kept").mkdir()

    def unwritable() -> str:
        os.chmod(here / "kept", 0o500)
        return "1"
    if os.geteuid() == 0:   # (root writes anywhere: the folder's mode does not stop it)
        return
    typed = ["1", unwritable, "quit"]
    code, out, _ = in_process(["play", "standard", "--seed", "7", "--bot", "greedy", "--save", "kept/g.json"], typed)
    os.chmod(here / "kept", 0o700)
    assert code == 2 and "stopped: the game is not saved past its last move" in out and "leave all" not in out, out


def test_a_file_in_place_of_a_folder_is_said_to_be_a_file(here: Path) -> None:
    (here / "warn.json").write_text("x", encoding="utf-8")
    code, _, err = in_process(["play", "standard", "--save", "warn.json/x.json"])
    assert code == 2 and "warn.json is a file, not a folder" in err and "no folder" not in err, err
    code, _, err = in_process(["play", "standard", "--save", "nowhere/x.json"])
    assert code == 2 and "there is no folder nowhere" in err, err


def test_a_watched_game_offers_nothing_to_type(here: Path) -> None:
    code, out, err = in_process(["play", "standard", "--humans", "0", "--bot", "random", "--seed", "1",
                                 "--save", "w.json"])
    assert code == 0, err
    assert "type help" not in out and "quit" not in out, out[:600]
    assert "stop it with Ctrl-C and continue with: cassino play --resume w.json" in out


def test_claim_is_not_offered_where_there_is_no_claiming(here: Path) -> None:
    code, out, _ = in_process(["play", "standard", "--seed", "7", "--save", "g.json"], ["1 claim", "claimm", "quit"])
    assert code == 0
    assert "did you mean `claim`" not in out, out
    assert "'1 claim' is not a move or a command (there is no claiming in this game)" in out, out


def test_names_are_read_in_any_case(here: Path) -> None:
    code, out, err = in_process(["play", "standard", "--bot", "GREEDY", "--seed", "7", "--save", "g.json"], ["quit"])
    assert code == 0 and "seat 1 computer (greedy)" in out, err
    assert json.loads((here / "g.json").read_text(encoding="utf-8"))["seats"] == ["human", "greedy"]
    code, _, err = in_process(["play", "STANDARD"])
    assert code == 2 and "did you mean `standard`?" in err, err


def test_perft_of_depth_0_counts_one_sequence() -> None:
    code, out, _ = in_process(["perft", "standard", "--depth", "0"])
    assert code == 0 and out == "standard, 2 players, seed 1: 1 move sequence of 0 moves\n", out


# ---------------------------------------------------------------------- 8. a game stopped by a signal

STOPPED = """
import os, signal, sys
import builtins
from cassino.apps.cli import main
sig = getattr(signal, sys.argv[1])
when, at = sys.argv[2], int(sys.argv[3])
seen = [0]
if when == "save":   # the signal in the middle of the record's writing, the temporary file made
    real = os.fsync
    def fsync(fd):
        seen[0] += 1
        if seen[0] == at:
            os.kill(os.getpid(), sig)
        return real(fd)
    os.fsync = fsync
else:   # the signal while the game waits at the prompt
    real_input = builtins.input
    def typed(prompt=""):
        seen[0] += 1
        if seen[0] == at:
            os.kill(os.getpid(), sig)
        return real_input(prompt)
    builtins.input = typed
sys.exit(main(["play", "standard", "--seed", "7", "--bot", "greedy", "--save", "g.json"]))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize(("when", "at", "typed"), [("save", 2, "1\n1\n1\n"), ("save", 2, "save\n1\n"),
                                                   ("prompt", 2, "1\n1\n1\n")])
def test_a_game_stopped_by_a_signal_is_saved_and_leaves_nothing_beside_its_record(here: Path, name: str, when: str,
                                                                                 at: int, typed: str) -> None:
    (here / "stopped.py").write_text(STOPPED, encoding="utf-8")
    done = subprocess.run([sys.executable, "stopped.py", name, when, str(at)], input=typed, capture_output=True,
                          text=True, cwd=here, timeout=240, env=dict(os.environ, HOME=str(here)))
    signum = getattr(signal, name)
    assert done.returncode == 128 + signum, (done.returncode, done.stdout[-500:], done.stderr[-500:])
    assert f"stopped ({name}): game saved; continue with: cassino play --resume g.json" in done.stdout
    assert sorted(p.name for p in here.iterdir()) == ["g.json", "stopped.py"]   # no .g.json.lock, no .cassino-*.tmp
    code, out, err = in_process(["replay", "g.json"])
    assert code == 0 and "game in progress" in out, err

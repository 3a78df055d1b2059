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
    where = "bad.yaml:3:15" if "bad.yaml" in argv else "bad-s.yaml:2:4"
    assert where in lines[0] and f"{code} " in lines[0] and "is not allowed in a YAML file" in lines[0], err
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

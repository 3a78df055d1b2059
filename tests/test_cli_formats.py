"""The command line's output formats and help (issue 48, section 4).

With ``--format json`` every command that offers it reports an error as one JSON document on
stdout, the same fields for every command: ``{"ok": false, "errors": [{"file", "line", "column",
"message", "hint"}]}`` (validate's shape, which adds its per-file ``results``), exit 2; never text
on stderr, never a traceback, even for an error nobody foresaw (exit 3). And every subcommand's
``--help`` starts with its one-line summary, and every ``--format`` says what each format is.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from cassino.apps.cli import JSON_COMMANDS, build_parser, main

from conftest import record_text

FIELDS = {"file", "line", "column", "message", "hint"}


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:   # argparse's refusals
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "bad.yaml").write_text("name: x\n  bad: [\n", encoding="utf-8")
    (tmp_path / "notes.yaml").write_text("name: notes\n", encoding="utf-8")
    (tmp_path / "cut.json").write_text(record_text(seats=("random", "random"))[:200], encoding="utf-8")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def json_error(argv: list[str], *, code: int = 2) -> list[dict[str, object]]:
    """Run ``argv`` (with --format json): one JSON document on stdout saying ok false, nothing on stderr."""
    status, out, err = run(argv)
    assert status == code, (out, err)
    assert err == "", err
    report = json.loads(out)
    assert report["ok"] is False
    errors = report["errors"]
    assert errors and all(set(e) >= FIELDS for e in errors), report
    assert all(isinstance(e["message"], str) and e["message"] for e in errors)
    assert all(isinstance(e["line"], int) and isinstance(e["column"], int) for e in errors)
    assert "Traceback" not in out
    return errors


# (command and its arguments before --format json, the file the first error names or None, words of its message)
HOSTILE = [
    # missing file, folder, bad YAML, unknown variant, bad option value
    (["validate", "missing.yaml"], "missing.yaml", "no such file"),
    (["validate", "sub"], "sub", "is a folder"),
    (["validate", "bad.yaml"], "bad.yaml", "YAML syntax error"),
    (["validate", "nosuchvariant"], "nosuchvariant", "no bundled variant or file named `nosuchvariant`"),
    (["validate", "standard", "--bogus", "1"], None, "unrecognized arguments: --bogus"),
    (["simulate", "missing.yaml"], "missing.yaml", "no such file"),
    (["simulate", "sub"], "sub", "is a folder"),
    (["simulate", "bad.yaml"], "bad.yaml", "YAML syntax error"),
    (["simulate", "nosuchvariant"], "nosuchvariant", "no bundled variant or file named `nosuchvariant`"),
    (["simulate", "standard", "--games", "0"], None, "argument --games: must be at least 1, not 0"),
    (["simulate", "standard", "--players", "9"], None, "--players 9 is not allowed"),
    (["simulate", "standard", "--bot", "genius"], None, "no computer player named 'genius'"),
    (["diff", "standard", "missing.yaml"], "missing.yaml", "no such file"),
    (["diff", "sub", "standard"], "sub", "is a folder"),
    (["diff", "standard", "bad.yaml"], "bad.yaml", "YAML syntax error"),
    (["diff", "nosuchvariant", "standard"], "nosuchvariant", "no bundled variant or file named `nosuchvariant`"),
    (["diff", "standard", "royal", "--seed", "x"], None, "argument --seed: 'x' is not a seed"),
    (["diff", "standard", "royal", "--tries", "0"], None, "--tries must be at least 1"),
    (["sweep", "missing.yaml"], "missing.yaml", "no such file"),
    (["sweep", "sub"], "sub", "is a folder"),
    (["sweep", "bad.yaml"], "bad.yaml", "YAML syntax error"),
    (["sweep", "nosuchvariant"], "nosuchvariant", "no bundled variant or file named `nosuchvariant`"),
    (["sweep", "standard", "--games", "0"], None, "--games must be at least 1"),
    (["sweep", "standard", "--players", "1"], None, "argument --players: must be at least 2, not 1"),
    (["sweep", "standard", "--set", "nosuch.key=1,2"], None, "nosuch"),
    (["review", "missing.json"], "missing.json", "no such file"),
    (["review", "sub"], "sub", "is a folder"),
    (["review", "bad.yaml"], "bad.yaml", "does not read as a rule file"),
    (["review", "cut.json"], "cut.json", "not a game record"),
    (["review", "nosuchvariant"], "nosuchvariant", "no such file"),
    (["review", "cut.json", "--deals", "0"], None, "argument --deals: must be at least 1, not 0"),
]


def test_every_command_offering_json_is_covered() -> None:
    """The commands with a `json` format are the ones this file tests (a new one must be added)."""
    parser = build_parser()
    offered = set()
    for name, sub in _subcommands(parser).items():
        for action in sub._actions:
            if "--format" in action.option_strings and "json" in (action.choices or ()):
                offered.add(name)
    assert offered == set(JSON_COMMANDS)
    assert {argv[0] for argv, _, _ in HOSTILE} == offered


@pytest.mark.parametrize(("argv", "file", "says"), HOSTILE, ids=[" ".join(c[0]) for c in HOSTILE])
def test_errors_in_json_mode_are_one_json_document(folder: Path, argv: list[str], file: str | None,
                                                    says: str) -> None:
    errors = json_error([*argv, "--format", "json"])
    first = errors[0]
    assert says in str(first["message"]) + str(first["hint"]), errors
    if file is not None:
        assert first["file"] == file, errors


@pytest.mark.parametrize("spelling", [["--format=json"], ["--form", "json"]])
def test_json_is_recognised_however_argparse_takes_it(folder: Path, spelling: list[str]) -> None:
    errors = json_error(["simulate", "standard", "--games", "0", *spelling])
    assert "--games" in str(errors[0]["message"])


def test_text_mode_errors_stay_text(folder: Path) -> None:
    for argv in (["simulate", "missing.yaml"], ["diff", "standard", "nosuch"], ["review", "missing.json"]):
        code, out, err = run(argv)
        assert code == 2 and out == "" and err.startswith("cassino: "), (out, err)
        with pytest.raises(json.JSONDecodeError):
            json.loads(err)


def test_validate_json_has_the_shared_fields(folder: Path) -> None:
    errors = json_error(["validate", "standard", "bad.yaml", "--format", "json"])
    assert [e["file"] for e in errors] == ["bad.yaml"]
    code, out, _ = run(["validate", "standard", "--format", "json"])
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["errors"] == [] and report["results"][0]["valid"]


def test_an_unexpected_error_is_one_line_not_a_traceback(folder: Path) -> None:
    """An error nobody foresaw (a bug) is said in one line and a hint, exit 3, in either format."""
    boom = RuntimeError("boom\nsecond line")
    with mock.patch("cassino.apps.authors.simulate.run", side_effect=boom):
        code, out, err = run(["simulate", "standard", "--games", "1"])
        assert code == 3 and out == "", (out, err)
        assert "Traceback" not in err
        lines = err.splitlines()
        assert lines[0] == "cassino: internal error: RuntimeError: boom second line", err
        assert len(lines) == 2 and lines[1].strip().startswith("hint: this is a bug in cassino")
        errors = json_error(["simulate", "standard", "--games", "1", "--format", "json"], code=3)
        assert errors[0]["message"] == "internal error: RuntimeError: boom second line"
    with mock.patch("cassino.apps.authors.simulate.run", side_effect=RecursionError("deep")):
        code, out, err = run(["simulate", "standard", "--games", "1"])
        assert code == 3 and "Traceback" not in err and "nest too deeply" in err


def test_a_plain_value_error_is_no_traceback_either(folder: Path) -> None:
    with mock.patch("cassino.apps.authors.differences.compare", side_effect=ValueError("not mine")):
        code, out, err = run(["diff", "standard", "royal"])
    assert code == 3 and "internal error: ValueError: not mine" in err and "Traceback" not in err


def test_a_real_process_prints_json_only(folder: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "cassino", "simulate", "standard", "--games", "0",
                           "--format", "json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr == ""
    assert json.loads(done.stdout)["ok"] is False


def _subcommands(parser):  # type: ignore[no-untyped-def]
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


# ---------------------------------------------------------------------- every command's help

def _top_level_summaries() -> dict[str, str]:
    import argparse

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


SUMMARIES = _top_level_summaries()


@pytest.mark.parametrize("command", sorted(_subcommands(build_parser())))
def test_every_command_help_starts_with_its_summary_and_explains_its_formats(command: str,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")   # one line a paragraph, whatever the terminal
    code, out, err = run([command, "--help"])
    assert code == 0, err
    summary = SUMMARIES.get(command)
    assert summary, f"`cassino --help` gives {command} no summary"
    paragraphs = out.split("\n\n")
    assert paragraphs[0].startswith(f"usage: cassino {command}")
    assert paragraphs[1].strip() == summary, out   # right after the usage, before the arguments
    parser = _subcommands(build_parser())[command]
    for action in parser._actions:
        if "--format" in action.option_strings:
            for name in action.choices:
                assert f"{name}: " in (action.help or ""), (command, name, action.help)
            option = f"\n  --format {{{','.join(action.choices)}}}"   # its line under "options:"
            assert option in out, out
            helped = out.split(option, 1)[1].split("\n  -", 1)[0]
            assert all(f"{name}: " in helped for name in action.choices), helped


def test_a_bad_set_value_in_json_has_no_file(cli) -> None:  # type: ignore[no-untyped-def]
    """An option's value has no file or place: `file` is null, as the page on output formats says for every
    option, and the option leads the message (a documentation audit found the option in `file`)."""
    code, out, err = cli("sweep", "standard", "--set", "game.target=eleven", "--games", "5", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and err == "" and doc["ok"] is False
    [problem] = doc["errors"]
    assert problem["file"] is None and (problem["line"], problem["column"]) == (0, 0)
    assert problem["message"].startswith("--set game.target=eleven: `game.target` must be a whole number")

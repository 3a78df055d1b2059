"""An outside rule author's audit of how the command line reports problems (four faults).

1. A wrong enum value's "did you mean" pointed to the opposite value (`anticlockwise` -> `clockwise`,
   `whenever` -> `never`), or gave no hint at all (`always`); `sweep --set` put its "did you mean" in the
   message with a null hint.
2. `validate --strict` failed on warnings while its machine formats said only warnings (`"errors": []`,
   `::warning`, SARIF level `warning`).
3. `cassino check` said "found legal" of a move expected illegal without saying why it is legal.
4. `extends: notyaml.txt` (a file beside) was "cannot find the variant"; a name of 300 characters was quoted
   twice, and not said to be too long.

Each through the real command (``main`` with its argv), with its exit status, place and words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

COMPULSORY = ("never", "equal_loose_card", "when_card_can_capture", "whenever_possible")


def _rule_file(tmp_path: Path, body: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"name: house\nextends: standard\n{body}", encoding="utf-8")
    return path


# ---------------------------------------------------------------------- 1. enum hints
def test_anticlockwise_is_taken_for_counterclockwise_not_its_opposite(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _rule_file(tmp_path, "seats:\n  direction: anticlockwise\n")
    code, out, err = cli("validate", str(path))
    assert code == 2
    assert f"{path}:4:14: `seats.direction` must be one of clockwise, counterclockwise" in err, err
    assert "hint: did you mean `counterclockwise`?" in err, err
    assert "did you mean `clockwise`" not in err


@pytest.mark.parametrize("typed", ["anti-clockwise", "Anticlockwise", "counter-clockwise", "counter"])
def test_other_spellings_of_counterclockwise(cli, tmp_path: Path, typed: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("validate", str(_rule_file(tmp_path, f"seats:\n  direction: {typed}\n")))
    assert code == 2 and "hint: did you mean `counterclockwise`?" in err, err


def test_a_prefix_of_a_value_is_taken_for_it_not_for_a_value_it_contains(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _rule_file(tmp_path, "capture:\n  compulsory: whenever\n")
    code, out, err = cli("validate", str(path))
    assert code == 2 and f"{path}:4:15: `capture.compulsory` must be one of" in err, err
    assert "hint: did you mean `whenever_possible`?" in err and "`never`?" not in err, err


@pytest.mark.parametrize("typed", ["sometimes", "always"])
def test_a_value_near_nothing_gets_a_hint_listing_the_allowed_values(cli, tmp_path: Path, typed: str) -> None:  # type: ignore[no-untyped-def]
    path = _rule_file(tmp_path, f"capture:\n  compulsory: {typed}\n")
    code, out, err = cli("validate", str(path))
    assert code == 2 and f"{path}:4:15: " in err
    hint = err.split("hint: ", 1)[1]
    assert all(f"`{value}`" in hint for value in COMPULSORY), err
    code, out, _ = cli("validate", str(path), "--format", "json")
    [error] = json.loads(out)["errors"]
    assert (error["line"], error["column"]) == (4, 15)
    assert error["hint"] and all(value in error["hint"] for value in COMPULSORY)


@pytest.mark.parametrize("typed, meant", [
    ("nevr", "never"),                          # a misspelling is still found
    ("whenever", "whenever_possible"),          # the typed text begins the value
    ("possible", "whenever_possible"),          # a word of the value
    ("when_card_captures", "when_card_can_capture"),  # a shared stem
    ("anticlockwise", "counterclockwise"),      # the one synonym
    ("Clockwise", "clockwise"),
])
def test_nearest_value(typed: str, meant: str) -> None:
    from cassino.language.schema import nearest_value

    choices = ["clockwise", "counterclockwise"] if "clockwise" in typed.lower() else list(COMPULSORY)
    assert nearest_value(typed, choices) == meant


@pytest.mark.parametrize("typed, choices", [
    ("anticlockwise", ["clockwise"]),           # negated: never the value it negates
    ("nonclockwise", ["clockwise"]),
    ("uncompulsory", ["compulsory", "free"]),
    ("ever", ["never", "optional", "always"]),  # ... nor a value that negates the typed text
    ("one", ["none", "opponents_top"]),
    ("sometimes", list(COMPULSORY)),
])
def test_no_value_is_suggested_that_negates_or_is_far(typed: str, choices: list[str]) -> None:
    from cassino.language.schema import enum_hint, nearest_value

    assert nearest_value(typed, choices) is None
    assert all(f"`{c}`" in enum_hint(typed, choices) for c in choices)


def test_sweep_set_puts_its_suggestion_in_the_hint(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("sweep", "standard", "--set", "seats.direction=anticlockwise", "--format", "json")
    [error] = json.loads(out)["errors"]
    assert code == 2 and error["hint"] == "did you mean `counterclockwise`?"
    code, out, _ = cli("sweep", "standard", "--set", "capture.compulsory=always", "--format", "json")
    [error] = json.loads(out)["errors"]
    assert code == 2 and error["hint"] and all(value in error["hint"] for value in COMPULSORY)
    for setting, meant in (("seats.directon=clockwise", "seats.direction"),
                           ("scoring.items.sweepz.points=1", "sweeps")):
        code, out, _ = cli("sweep", "standard", "--set", setting, "--format", "json")
        [error] = json.loads(out)["errors"]
        assert code == 2 and "did you mean" not in error["message"], error
        assert error["hint"] is not None and error["hint"].startswith(f"did you mean `{meant}`?"), error
        assert (error["file"], error["line"], error["column"]) == (None, 0, 0)
        code, out, err = cli("sweep", "standard", "--set", setting)
        assert code == 2 and f"\n    hint: did you mean `{meant}`?" in err, err


# ---------------------------------------------------------------------- 2. --strict in every format
WARNED = "name: w\nextends: scopa\nbuild:\n  max_value: 9\n"
UNREAD = "`build.max_value` changes no move and no score here"


@pytest.fixture()
def warned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "warned.yaml").write_text(WARNED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return "warned.yaml"


def test_strict_json_lists_the_failing_warnings_as_errors(cli, warned: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(Path(warned).resolve().parent)
    code, out, _ = cli("validate", warned, "--strict", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc["ok"] is False and doc["valid"] is False
    [error] = doc["errors"]
    assert (error["file"], error["line"], error["column"]) == (warned, 4, 14)
    assert UNREAD in error["message"] and "--strict" in error["message"]
    assert doc["results"][0]["errors"] == [error] and doc["results"][0]["valid"] is False
    assert len(doc["warnings"]) == 1 and doc["warnings"][0]["line"] == 4   # still a warning of the file
    code, out, _ = cli("validate", warned, "--format", "json")   # without --strict: valid, no errors
    doc = json.loads(out)
    assert code == 0 and doc["ok"] and doc["errors"] == [] and len(doc["warnings"]) == 1


def test_strict_github_annotates_the_failing_warnings_as_errors(cli, warned: str) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("validate", warned, "--strict", "--format", "github")
    assert code == 2 and out.startswith(f"::error file={warned},line=4,col=14,"), out
    assert UNREAD in out and "refused under --strict" in out
    assert not any(line.startswith("::warning") for line in out.splitlines())
    code, out, _ = cli("validate", warned, "--format", "github")
    assert code == 0 and out.startswith(f"::warning file={warned},line=4,col=14,")


def test_strict_sarif_gives_the_failing_warnings_level_error(cli, warned: str) -> None:  # type: ignore[no-untyped-def]
    from cassino.apps.authors.annotations import WARNING_ID

    code, out, _ = cli("validate", warned, "--strict", "--format", "sarif")
    [result] = json.loads(out)["runs"][0]["results"]
    assert code == 2 and result["level"] == "error" and result["ruleId"] == WARNING_ID
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (4, 14) and "--strict" in result["message"]["text"]
    code, out, _ = cli("validate", warned, "--format", "sarif")
    [result] = json.loads(out)["runs"][0]["results"]
    assert code == 0 and result["level"] == "warning"


def test_strict_text_says_the_warnings_failed_the_run(cli, warned: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("validate", warned, "--strict")
    assert code == 2 and f"{warned}:4:14: warning, refused under --strict: {UNREAD}" in err
    assert "refused under --strict" in err and "0 valid, 1 invalid, 1 warning" in err


# ---------------------------------------------------------------------- 3. why a move expected illegal is legal
SCENARIO = """variant: v.yaml
cases:
  - name: the owner of a build trails
    players: 2
    to_play: 0
    table: [2C]
    builds: [{cards: [4S, 5H], value: 9, owner: 0}]
    hand: [KS]
    expect: {illegal: ["KS trail"]}
"""


def test_a_move_expected_illegal_that_is_legal_says_why(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "v.yaml").write_text("name: v\nextends: standard\nbuild: {keep_capturing_card: no}\n")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    code, out, err = cli("check", str(scenario))
    assert code == 1, out + err
    lines = out.splitlines()
    at = lines.index(f"  {scenario}:9:24: expected illegal: KS trail")
    assert lines[at + 1] == ("    found legal: KS trail: a legal move here: the rules leave no move at all (you own "
                             "the build of 9 [4S 5H]: the owner of a build may not trail; capture, or build), so any "
                             "card may be trailed"), out
    assert "0 passed, 1 failed" in out and "engine" not in out


def test_a_legal_move_with_nothing_to_say_is_just_found_legal(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    scenario = tmp_path / "s.yaml"
    scenario.write_text("variant: standard\ncases:\n  - name: a\n    table: [5C]\n    hand: [5D]\n"
                        "    expect: {illegal: [\"5D capture 5C\"]}\n", encoding="utf-8")
    code, out, _ = cli("check", str(scenario))
    lines = out.splitlines()
    at = lines.index(f"  {scenario}:6:24: expected illegal: 5D capture 5C")
    assert code == 1 and lines[at + 1] == "    found legal", out


# ---------------------------------------------------------------------- 4. extends
def test_extends_a_file_beside_with_another_ending(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "notyaml.txt").write_text("name: y\nextends: standard\n")
    for ref in ("notyaml.txt", "./notyaml.txt"):
        path = tmp_path / "x.yaml"
        path.write_text(f"name: x\nextends: {ref}\n")
        code, out, err = cli("validate", str(path))
        assert code == 2 and (f"{path}:2:10: `extends` may not name `{ref}`: a rule file's name ends in "
                              ".yaml or .yml") in err, err
        assert "cannot find" not in err
    path.write_text("name: x\nextends: nosuch.txt\n")   # (no such file beside: not found, as before)
    code, out, err = cli("validate", str(path))
    assert code == 2 and "cannot find the variant `nosuch.txt`" in err


@pytest.mark.parametrize("ending", ["", ".yaml"])
def test_extends_a_name_too_long_says_so_once(cli, tmp_path: Path, ending: str) -> None:  # type: ignore[no-untyped-def]
    ref = "a" * (305 - len(ending)) + ending
    path = tmp_path / "x.yaml"
    path.write_text(f"name: x\nextends: {ref}\n")
    code, out, err = cli("validate", str(path))
    assert code == 2 and f"{path}:2:10: " in err, err
    assert "the name is too long (305 characters; a file or folder name is at most 255)" in err, err
    lines = err.splitlines()
    assert "a" * 60 + "..." in lines[0] and "a" * 61 not in lines[0]   # the name once, shortened
    assert lines[1].strip().startswith("extends: aaa") and lines[2].strip() == "^"   # (the file's line, cut)
    assert not any("aaaa" in line for line in lines[3:]), err   # and not again in a hint
    assert "cannot find" not in err
    code, out, _ = cli("validate", str(path), "--format", "json")
    [error] = json.loads(out)["errors"]
    assert (error["line"], error["column"]) == (2, 10) and "too long (305 characters" in error["message"]
    assert ("a" * 100) not in json.dumps(error)

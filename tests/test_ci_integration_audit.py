"""`cassino validate` in CI and in an editor, as a maintainer of a repository of house rules uses it: every
output format (text, json, github, sarif) names the same file, line and column; the SARIF log is one a
code-scanning service reads; JSON entries have the same fields; `--strict` says its failing warnings as errors
in every format; the docs say what the JSON Schema alone cannot check in an editor; the pre-commit entry with
no file names says so. Each test failed before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent

PARENT = "name: parent\nextends: standard\ngame:\n  target: 11\n  bogus: 3\n"
CHILD = "name: child\nextends: parent.yaml\ngame:\n  target: 21\n"
UNREAD = "name: scopa-nines\nextends: scopa\nbuild:\n  max_value: 9\n"
BAD = "name: odd\nextends: standard\ngame:\n  target: 11\n  bogus: 1\n"


@pytest.fixture()
def run(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """`cassino` in ``tmp_path`` (the repository's root, where CI and pre-commit run it)."""
    monkeypatch.chdir(tmp_path)
    return cli


def _sarif_results(out: str) -> list[dict]:  # type: ignore[type-arg]
    log = json.loads(out)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    return log["runs"][0]["results"]  # type: ignore[no-any-return]


# ---------------------------------------------------------------------- SARIF


# RFC 3986: a URI reference is made of these characters and percent-escapes; a relative path's first segment
# holds no colon (else it reads as a scheme).
_URI_REFERENCE = re.compile(r"^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$")


@pytest.mark.parametrize("name", ["rules/sp ace#1%.yaml", "c:d.yaml", "rules/é,x.yaml"])
def test_sarif_uri_is_a_uri_reference(run, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "rules").mkdir()
    (tmp_path / name).write_text(BAD, encoding="utf-8")
    code, out, _ = run("validate", "--format", "sarif", name)
    assert code == 2
    [result] = _sarif_results(out)
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    # (was `rules/sp ace#1%.yaml`, with a fragment; `c:d.yaml`, with the scheme `c`)
    assert _URI_REFERENCE.match(uri) and ":" not in uri.split("/")[0], uri
    assert "#" not in uri and unquote(uri) == name


def test_sarif_uri_of_a_name_that_is_not_utf8(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import os

    name = os.fsdecode(b"\xffbad.yaml")
    try:
        (tmp_path / name).write_text(BAD)
    except (OSError, UnicodeError):   # (a file system that takes UTF-8 names only)
        pytest.skip("this file system refuses a name that is not UTF-8")
    code, out, _ = run("validate", "--format", "sarif", name)
    assert code == 2   # (not 3, an internal error, as quoting the name as text failed)
    [result] = _sarif_results(out)
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "%FFbad.yaml"


def test_sarif_region_snippet_is_the_regions_text(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "bad.yaml").write_text(BAD)
    code, out, _ = run("validate", "--format", "sarif", "bad.yaml")
    [result] = _sarif_results(out)
    location = result["locations"][0]["physicalLocation"]
    region = location["region"]
    assert (region["startLine"], region["startColumn"]) == (5, 3)
    line = BAD.splitlines()[4]
    # A region without an end column runs from its start column to the line's end: its snippet is that text
    # (it was the whole line, its indentation too); the whole line is the context region.
    assert region["snippet"]["text"] == line[2:] == "bogus: 1"
    assert location["contextRegion"] == {"startLine": 5, "snippet": {"text": line}}


def test_sarif_warning_rule_describes_every_kind_of_warning(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "unread.yaml").write_text(UNREAD)
    code, out, _ = run("validate", "--format", "sarif", "unread.yaml")
    assert code == 0
    [result] = _sarif_results(out)
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    rule = rules[result["ruleIndex"]]
    assert rule["id"] == result["ruleId"] == "cassino/rule-warning"
    said = rule["fullDescription"]["text"]
    # the warning given here (a setting its rules never read) is among those the rule describes (it described
    # the lowest total without compulsory capture alone)
    assert "never read" in said and "lowest total" in said and "draws" in said and "claiming" in said


# ---------------------------------------------------------------------- a parent's error, in every format


def test_an_error_in_the_parent_is_named_alike_in_every_format(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "house-rules").mkdir()
    (tmp_path / "house-rules" / "parent.yaml").write_text(PARENT)
    (tmp_path / "house-rules" / "child.yaml").write_text(CHILD)
    named = "house-rules/child.yaml"
    code, _, err = run("validate", named)
    assert code == 2
    first = err.splitlines()[0]
    assert first.startswith("house-rules/parent.yaml:5:3: unknown setting `bogus`"), first   # (was /tmp/.../)
    code, out, _ = run("validate", "--format", "json", named)
    doc = json.loads(out)
    [error] = doc["errors"]
    assert (error["file"], error["line"], error["column"]) == ("house-rules/parent.yaml", 5, 3)
    assert doc["results"][0]["file"] == named
    code, out, _ = run("validate", "--format", "github", named)
    assert out.startswith("::error file=house-rules/parent.yaml,line=5,col=3,")
    code, out, _ = run("validate", "--format", "sarif", named)
    [result] = _sarif_results(out)
    physical = result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == "house-rules/parent.yaml"
    # and the place is the offending text of that file
    line = (tmp_path / "house-rules" / "parent.yaml").read_text().splitlines()[error["line"] - 1]
    assert line[error["column"] - 1:].startswith("bogus")
    # a file named by its absolute path has its parent named so too (not relative beside it)
    code, _, err = run("validate", str(tmp_path / named))
    assert err.startswith(f"{tmp_path / 'house-rules' / 'parent.yaml'}:5:3: ")


# ---------------------------------------------------------------------- JSON fields


def test_json_results_have_the_same_fields_for_every_file(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "bad.yaml").write_text(BAD)
    (tmp_path / "good.yaml").write_text("name: good\nextends: standard\n")
    code, out, _ = run("validate", "--format", "json", "bad.yaml", "good.yaml", "missing.yaml")
    assert code == 2
    results = json.loads(out)["results"]
    assert [set(r) for r in results] == [{"file", "valid", "name", "errors", "warnings"}] * 3
    assert [r["name"] for r in results] == [None, "good", None]   # (a bad file's entry had no `name`)


# ---------------------------------------------------------------------- --strict, as text


def test_strict_text_says_a_failing_warning_as_an_error(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "unread.yaml").write_text(UNREAD)
    code, _, err = run("validate", "--strict", "unread.yaml")
    assert code == 2
    # The docs: "every output format then reports those warnings as errors": a problem matcher reading
    # `FILE:LINE:COL: warning: ...` marks a warning, so the line may not say so.
    problem = err.splitlines()[0]
    assert problem.startswith("unread.yaml:4:14: warning, refused under --strict: `build.max_value`"), problem
    assert not re.match(r"^\S+:\d+:\d+: warning: ", err, re.M)
    code, _, err = run("validate", "unread.yaml")   # without --strict: a warning, valid
    assert code == 0 and err.startswith("unread.yaml:4:14: warning: `build.max_value`")


# ---------------------------------------------------------------------- the docs: what the schema cannot see


def test_the_docs_say_what_the_schema_alone_cannot_check(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import jsonschema
    import yaml

    text = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    said = " ".join(text.split())
    assert "It cannot follow `extends`" in said and "run `cassino validate` for those" in said
    # and it is so: each file below passes the schema an editor is given, and `cassino validate` refuses it
    code, out, _ = run("schema")
    schema = json.loads(out)
    jsonschema.validators.validator_for(schema).check_schema(schema)
    validator = jsonschema.validators.validator_for(schema)(schema)
    files = {"nosuch.yaml": "name: a\nextends: nosuch\n",
             "twice.yaml": "name: b\nextends: standard\ngame:\n  target: 11\n  target: 21\n",
             "self.yaml": "name: c\nextends: self.yaml\n",
             "unplayable.yaml": "name: d\nextends: standard\ndeal:\n  hand_size: 30\n",
             "selector.yaml": "name: e\nextends: standard\nscoring:\n  items:\n"
                              "    mine: {count: most, cards: 'suit=X', points: 1}\n"}
    for name, body in files.items():
        (tmp_path / name).write_text(body)
        assert not list(validator.iter_errors(yaml.safe_load(body))), name
        assert run("validate", name)[0] == 2, name


# ---------------------------------------------------------------------- the pre-commit entry with no files


def test_check_hook_given_no_file_does_not_say_none_is_tracked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from cassino.apps.authors.scenario_hook import main

    monkeypatch.chdir(tmp_path)
    assert main([]) == 0   # (tracked files are not looked at: no git repository is needed)
    out = capsys.readouterr().out
    assert "no scenario files to check" in out and "none tracked" not in out, out


def test_check_names_a_scenarios_bad_rule_file_as_validate_does(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "house-rules").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "house-rules" / "bad.yaml").write_text(BAD)
    (tmp_path / "scenarios" / "uses-bad.yaml").write_text(
        "variant: ../house-rules/bad.yaml\ncases:\n  - name: x\n    scores: {0: 10, 1: 0}\n"
        "    captured: {0: [AS], 1: rest}\n    expect:\n      winner: 0\n")
    code, _, err = run("check", "scenarios/uses-bad.yaml")
    assert code == 2
    # the rule file's mistake at its line, named as `cassino validate house-rules/bad.yaml` names it (it was
    # the absolute path `variant:` resolves to)
    assert "\nhouse-rules/bad.yaml:5: unknown setting `bogus` in `game`" in err, err
    assert run("validate", "house-rules/bad.yaml")[2].startswith("house-rules/bad.yaml:5:3: unknown setting `bogus`")


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_output_for_a_name_that_is_not_utf8_is_utf8(run, tmp_path: Path, fmt: str) -> None:  # type: ignore[no-untyped-def]
    import os

    name = os.fsdecode(b"\xffbad.yaml")
    try:
        (tmp_path / name).write_text(BAD)
    except (OSError, UnicodeError):   # (a file system that takes UTF-8 names only)
        pytest.skip("this file system refuses a name that is not UTF-8")
    code, out, _ = run("validate", "--format", fmt, name)
    assert code == 2
    out.encode("utf-8")   # (raised: the name's lone surrogate was written raw, which strict UTF-8 cannot encode)
    if fmt == "json":
        assert json.loads(out)["errors"][0]["file"] == name   # (the JSON escape `\udcff` reads back as the name)
    if fmt == "github":
        assert out.startswith("::error file=\\udcffbad.yaml,line=5,col=3,")


def test_text_for_a_valid_file_whose_name_is_not_utf8(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import os

    name = os.fsdecode(b"\xfeok.yaml")
    try:
        (tmp_path / name).write_text("name: ok\nextends: standard\n")
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a name that is not UTF-8")
    code, out, _ = run("validate", name)
    assert code == 0
    assert out.encode("utf-8") == b"\\udcfeok.yaml: ok (ok)\n"   # (stdout strict UTF-8 failed: exit 3)

"""The documentation a user reads: the README, the house-rules tutorial, the generated reference, the site.

Documentation goes stale silently, so each promise it makes is checked here: every setting of the schema
has a description and a place in the generated reference; every check of `cassino validate` is placed
under a setting; the README stays short and free of issue numbers and commit hashes; every shell command
in the README and the tutorial runs as written (install commands are checked for their form); and the site
builds with `mkdocs build --strict` (warnings, broken links and anchors are errors).
"""

from __future__ import annotations

import ast
import copy
import inspect
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

import cassino
from cassino.language import reference, semantics
from cassino.language.catalogue import bundled_names
from conftest import ROOT

README = ROOT / "README.md"
TUTORIAL = ROOT / "docs" / "house-rules.md"


def _schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "schema" / "variant.schema.json").read_text(encoding="utf-8"))
    return data


def _all_properties(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every property of the schema, found without the reference's own walk (so it cannot share its gaps)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, child in value.items():
                    yield f"{path}/{name}", child
                    yield from _all_properties(child, f"{path}/{name}")
            elif key != "properties":
                yield from _all_properties(value, path if key in ("items", "additionalProperties") else path)
    elif isinstance(node, list):
        for item in node:
            yield from _all_properties(item, path)


# ------------------------------------------------------------------ the schema and the reference

def test_every_schema_property_has_a_description() -> None:
    missing = [path for path, node in _all_properties(_schema()) if not str(node.get("description", "")).strip()]
    assert not missing, f"schema properties without a description: {missing}"


def test_the_reference_refuses_a_setting_without_a_description() -> None:
    schema = copy.deepcopy(_schema())
    del schema["properties"]["capture"]["properties"]["sums"]["description"]
    with pytest.raises(reference.ReferenceError, match=r"capture\.sums"):
        reference.reference_markdown(schema=schema, variants={})


@pytest.fixture(scope="module")
def reference_page() -> str:
    return reference.reference_markdown()


def test_the_reference_has_every_setting_with_its_description(reference_page: str) -> None:
    schema = _schema()
    everything = list(_all_properties(schema))
    headings = re.findall(r"^#{2,3} `([^`]+)` \{#", reference_page, re.M)
    assert len(headings) == len(everything), "the reference and the schema count different settings"
    for setting in reference.settings(schema):
        assert setting.dotted in headings, setting.dotted
        section = reference_page.split(f"`{setting.dotted}` {{#", 1)[1].split("\n#", 1)[0]
        said = re.sub(r"\s*\(issue \d+\)", "", setting.node["description"])   # (no tracker numbers: issue 50)
        assert said.replace("<", "&lt;") in section, setting.dotted
        if setting.required:   # a required setting has no default (issue 50)
            assert "**Required**" in section and "**Default**" not in section, setting.dotted
        elif "default" in setting.node and not setting.is_section:
            assert "**Default**" in section, setting.dotted
        assert "**In the bundled variants**" in section or len(setting.path) == 1, setting.dotted


def test_a_new_setting_appears_in_the_reference() -> None:
    schema = copy.deepcopy(_schema())
    schema["properties"]["trail"]["properties"]["face_down"] = {
        "type": "boolean", "default": False, "description": "Trailed cards lie face down (a test's setting)."}
    page = reference.reference_markdown(schema=schema, variants={"standard": {}})
    assert "### `trail.face_down` {#trail-face-down}" in page
    assert "Trailed cards lie face down (a test's setting)." in page
    assert "trail:\n  face_down: false" in page


def test_every_check_of_validate_is_placed_under_a_setting(reference_page: str) -> None:
    tree = ast.parse(inspect.getsource(semantics))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "locate"]
    checks = reference.semantic_checks()
    placed = {(c.function, c.message) for c in checks}
    assert len(placed) >= len({ast.unparse(c.args[1]) for c in calls if len(c.args) > 1}) - 2
    known = {s.path for s in reference.settings()}
    for check in checks:
        assert check.path in known, check
        section = reference_page.split(f"`{reference.dotted(check.path)}` {{#", 1)[1].split("\n#", 1)[0]
        assert check.message.replace("<", "&lt;") in section, (check.path, check.message)
    # A few the reader relies on, at the settings they concern.
    by_path = {reference.dotted(c.path): c.message for c in checks}
    assert "build.max_value" in by_path and "deal.packet" in by_path and "capture.total" in by_path


def test_a_check_whose_setting_cannot_be_read_stops_the_reference() -> None:
    """A check reported at a path the schema does not have is an error, not a silent gap."""
    schema = copy.deepcopy(_schema())
    del schema["properties"]["build"]["properties"]["max_value"]
    with pytest.raises(reference.ReferenceError, match="_capture_build"):
        reference.semantic_checks(schema)


# ------------------------------------------------------------------ the README

def test_the_readme_is_short_and_says_nothing_of_issues_or_commits() -> None:
    text = README.read_text(encoding="utf-8")
    assert 150 <= len(text.splitlines()) < 250
    assert not re.search(r"issue\s*\d+|#\d+", text, re.I)
    hashes = re.findall(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", text)
    assert not hashes, hashes


def test_the_readme_lists_every_bundled_variant_once() -> None:
    text = README.read_text(encoding="utf-8")
    listed = re.findall(r"^- `([a-z0-9-]+)`: ", text.split("## The variants", 1)[1].split("\n## ", 1)[0], re.M)
    assert sorted(listed) == bundled_names()


def test_the_readme_keeps_the_quick_start_exactly() -> None:
    text = README.read_text(encoding="utf-8")
    assert "```sh\npip install . && cassino play standard\npip install '.[test]' && python -m pytest\n```" in text
    assert "python -m venv .venv" in text


# ------------------------------------------------------------------ commands run as written

def _steps(markdown: str) -> list[tuple[str, str, str]]:
    """The page's files and commands in order: ("file", path, text) for a YAML block whose first line
    names its file (``# my-house.yaml``), ("run", command, expected exit status) for each sh line."""
    steps: list[tuple[str, str, str]] = []
    for lang, body in re.findall(r"^```(\w+)\n(.*?)^```", markdown, re.M | re.S):
        first = body.split("\n", 1)[0]
        if lang == "yaml" and re.fullmatch(r"# [\w./-]+\.ya?ml", first):
            steps.append(("file", first[2:], body))
        elif lang == "sh":
            for line in body.splitlines():
                command, _, comment = line.partition("  #")
                status = re.search(r"exit status (\d)", comment)
                if command.strip():
                    steps.append(("run", command.strip(), status.group(1) if status else "0"))
    return steps


def _shims(tmp: Path) -> dict[str, str]:
    """`cassino`, `python`, `pre-commit` and `mkdocs` as this test's interpreter and package run them."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    for name, args in {"cassino": "-m cassino", "python": "", "pre-commit": "-m pre_commit",
                       "mkdocs": "-m mkdocs"}.items():
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" {args} "$@"\n')
        shim.chmod(0o755)
    git_config = tmp / "gitconfig"
    git_config.write_text("[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update({"PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
                "PYTHONPATH": str(Path(cassino.__file__).resolve().parent.parent),
                "GIT_CONFIG_GLOBAL": str(git_config), "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_AUTHOR_NAME": "docs test", "GIT_AUTHOR_EMAIL": "docs@example.invalid",
                "GIT_COMMITTER_NAME": "docs test", "GIT_COMMITTER_EMAIL": "docs@example.invalid",
                "PRE_COMMIT_HOME": str(tmp / "pre-commit-home"), "COLUMNS": "100"})
    return env


def _extras() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(data["project"]["optional-dependencies"])


def _check_install(part: str) -> None:
    """An install is checked for its form: `pip install .` or `pip install '.[EXTRA]'` of a real extra."""
    m = re.fullmatch(r"pip install (\.|'\.\[([a-z,]+)\]')", part)
    assert m, f"not an install command of this project: {part}"
    for extra in (m.group(2) or "").split(",") if m.group(2) else []:
        assert extra in _extras(), f"{part}: no extra `{extra}` in pyproject.toml"


def _serve(command: str, env: dict[str, str], cwd: Path) -> None:
    """`cassino serve` as written: it answers the lobby on port 8000 and stops cleanly on SIGTERM."""
    pytest.importorskip("starlette")
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", 8000)) == 0:
            pytest.skip("port 8000 is taken on this machine")
    server = subprocess.Popen(shlex.split(command), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen("http://127.0.0.1:8000/", timeout=5) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "cassino serve did not start"
                time.sleep(0.2)
    finally:
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=30)
    assert server.returncode == 0, out


def _run_page(markdown: str, tmp: Path, covered_elsewhere: tuple[str, ...] = ()) -> list[str]:
    env = _shims(tmp)
    work = tmp / "work"
    work.mkdir()
    ran = []
    for kind, what, extra in _steps(markdown):
        if kind == "file":
            (work / what).parent.mkdir(parents=True, exist_ok=True)
            (work / what).write_text(extra, encoding="utf-8")
            continue
        parts = [p.strip() for p in what.split("&&")]
        if parts[0].startswith("pip install"):
            _check_install(parts[0])
            parts = parts[1:]
        for part in parts:
            if part == "python -m pytest" or part.startswith(covered_elsewhere):
                continue   # this suite itself; the site build has a test of its own
            if part.startswith("cassino serve"):
                _serve(part, env, work)
                ran.append(part)
                continue
            result = subprocess.run(part, shell=True, cwd=work, env=env, stdin=subprocess.DEVNULL,
                                    capture_output=True, text=True, timeout=300)
            assert str(result.returncode) == extra, (f"`{part}` exited {result.returncode}, expected {extra}\n"
                                                     f"{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
            ran.append(part)
    return ran


def test_every_command_in_the_readme_runs_as_written(tmp_path: Path) -> None:
    ran = _run_page(README.read_text(encoding="utf-8"), tmp_path, covered_elsewhere=("mkdocs build",))
    assert "cassino play standard" in ran and "cassino check my-house-cases.yaml" in ran
    assert list((tmp_path / "work").glob("cassino-standard-*.json")), "the game was not saved"


def test_every_command_in_the_house_rules_tutorial_runs_as_written(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit")
    ran = _run_page(TUTORIAL.read_text(encoding="utf-8"), tmp_path)
    assert "cassino check scenarios/sweeps-to-11.yaml" in ran
    assert any(r.startswith("git commit -q -a") for r in ran)   # refused by the hook, as the page says
    log = subprocess.run(["git", "log", "--oneline"], cwd=tmp_path / "work", capture_output=True, text=True)
    assert len(log.stdout.splitlines()) == 1, log.stdout


def test_the_tutorial_shows_validate_output_as_it_is(tmp_path: Path) -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    shown = text.split("prints\n\n```text\n", 1)[1].split("```", 1)[0]
    draft = re.search(r"```yaml\n# draft.yaml\n.*?```", text, re.S)
    assert draft is not None
    (tmp_path / "draft.yaml").write_text(draft.group(0)[len("```yaml\n"):-3], encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "cassino", "validate", "draft.yaml"], cwd=tmp_path,
                            capture_output=True, text=True, env=_shims(tmp_path))
    assert result.returncode == 2
    assert (result.stdout + result.stderr).strip() == shown.strip()


# ------------------------------------------------------------------ the site

def test_the_site_builds_strict(tmp_path: Path) -> None:
    """`mkdocs build --strict`, as .ci/run builds it; the generated pages are there and complete."""
    pytest.importorskip("mkdocs")
    site = tmp_path / "site"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=ROOT,
                            capture_output=True, text=True, env=_shims(tmp_path), timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    assert "WARNING" not in result.stderr
    reference_html = (site / "reference" / "index.html").read_text(encoding="utf-8")
    for setting in reference.settings():
        assert f'id="{reference._anchor(setting.path)}"' in reference_html, setting.dotted
    for name in bundled_names():
        assert (site / "variants" / name / "index.html").is_file(), name
    from cassino.apps.cli import build_parser

    cli_html = (site / "cli" / "index.html").read_text(encoding="utf-8")
    commands = next(a for a in build_parser()._actions if a.dest == "command").choices
    for command in commands:
        assert f"cassino {command}" in cli_html, command
    api_html = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in cassino.__all__:
        if not name.startswith("_"):
            assert f"<code>{name}" in api_html, name

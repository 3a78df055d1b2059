"""Rule repositories that check themselves: the pre-commit hooks, and CI annotations from `validate`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

GOOD_RULES = "name: good\nextends: standard\ngame:\n  target: 11\n"
BAD_RULES = "name: bad\nextends: standard\ngame:\n  tarket: 11\n"
GOOD_SCENARIO = """variant: standard
cases:
  - name: a nine takes a five and a four
    table: [5C, 4D, KS]
    hand: [9D]
    expect:
      legal: ["9D capture 4D 5C"]
"""
BAD_SCENARIO = """variant: standard
cases:
  - name: a wrong expectation
    table: [5C, 4D, KS]
    hand: [9D]
    expect:
      legal: ["9D capture KS"]
"""


def git(*args: str, cwd: Path) -> str:
    result = subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid",
                             "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                            cwd=cwd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def hooks_repository(tmp: Path) -> tuple[Path, str]:
    """A git repository holding this checkout's files as they are on disk (committed or not)."""
    repo = tmp / "cassino-hooks"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "*.egg-info", "*.so", "build")
    for name in ("interpreter", "variants", "schema", "examples"):
        shutil.copytree(ROOT / name, repo / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "hatch_build.py"):
        shutil.copy2(ROOT / name, repo / name)
    git("init", "-q", cwd=repo)
    git("add", ".", cwd=repo)
    git("commit", "-q", "-m", "hooks", cwd=repo)
    return repo, git("rev-parse", "HEAD", cwd=repo)


def pre_commit(project: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_"))}
    env["PRE_COMMIT_HOME"] = str(home)
    env["CASSINO_PURE_PYTHON"] = "1"   # the hooks' own install: skip compiling the engine (only slower)
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
                          cwd=project, capture_output=True, text=True, env=env, timeout=600)


def test_pre_commit_hooks_refuse_bad_files_and_pass_good_ones(tmp_path: Path) -> None:
    hooks, rev = hooks_repository(tmp_path)
    project = tmp_path / "house-rules"
    (project / "rules").mkdir(parents=True)
    (project / "scenarios").mkdir()
    (project / "rules" / "good.yaml").write_text(GOOD_RULES)
    (project / "rules" / "bad.yaml").write_text(BAD_RULES)
    (project / "scenarios" / "good.yaml").write_text(GOOD_SCENARIO)
    (project / "scenarios" / "bad.yaml").write_text(BAD_SCENARIO)
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks.as_posix()}\n    rev: {rev}\n    hooks:\n"
        f"      - id: cassino-validate\n      - id: cassino-check\n")
    git("init", "-q", cwd=project)
    git("add", ".", cwd=project)
    home = tmp_path / "pre-commit-home"

    failed = pre_commit(project, home)
    out = failed.stdout + failed.stderr
    assert failed.returncode == 1, out
    assert re.search(r"validate Cassino rule files\.+Failed", out), out
    assert re.search(r"check Cassino scenario files\.+Failed", out), out
    assert "rules/bad.yaml:4:3: unknown setting `tarket` in `game`" in out
    assert "rules/good.yaml: ok (good)" in out
    assert "FAILED: a wrong expectation" in out and "1 passed, 1 failed" in out

    git("rm", "-q", "-f", "rules/bad.yaml", "scenarios/bad.yaml", cwd=project)
    passed = pre_commit(project, home)
    out = passed.stdout + passed.stderr
    assert passed.returncode == 0, out
    assert re.search(r"validate Cassino rule files\.+Passed", out), out
    assert re.search(r"check Cassino scenario files\.+Passed", out), out


def test_the_hooks_file_names_both_hooks_and_their_commands() -> None:
    import yaml

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert hooks["cassino-validate"]["entry"] == "cassino validate"
    assert hooks["cassino-check"]["entry"] == "cassino check"
    assert all(h["language"] == "python" for h in hooks.values())
    assert re.search(hooks["cassino-validate"]["files"], "rules/house.yaml")
    assert not re.search(hooks["cassino-validate"]["files"], ".pre-commit-config.yaml")
    assert re.search(hooks["cassino-check"]["files"], "tests/scenarios/standard.yaml")


# ---------------------------------------------------------------------- validate for CI


def test_github_annotations_point_at_the_offending_line(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("validate", "--format", "github", "tests/bad/unknown-key.yaml", "examples/fifty.yaml",
                       "tests/bad/wrong-type.yaml")
    assert code == 2
    lines = out.splitlines()
    assert len(lines) == 2 and all(line.startswith("::error ") for line in lines)
    assert lines[0] == ("::error file=tests/bad/unknown-key.yaml,line=3,col=1,title=cassino validate::"
                        "unknown setting `sweep` at the top level%0Ahint: did you mean `sweeps`?")
    assert re.match(r"::error file=tests/bad/wrong-type\.yaml,line=4,col=\d+,title=cassino validate::"
                    r"`deal\.hand_size` must be a whole number", lines[1])
    code, out, _ = cli("validate", "--format", "github", "standard", "examples/fifty.yaml")
    assert code == 0 and out == ""


def test_github_annotation_properties_are_escaped(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    odd = tmp_path / "odd,name:50%.yaml"
    odd.write_text("name: odd\nextends: standard\ngame: {target: 0}\n")
    code, out, _ = cli("validate", "--format", "github", str(odd))
    assert code == 2
    assert "odd%2Cname%3A50%25.yaml,line=3" in out and "\n" not in out.rstrip("\n")


def test_sarif_log_for_code_scanning(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("validate", "--format", "sarif", "tests/bad/unknown-key.yaml", "tests/bad/empty.yaml",
                       "standard")
    assert code == 2
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "cassino"
    rule_ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
    results = run["results"]
    assert len(results) == 2 and {r["ruleId"] for r in results} <= rule_ids
    first = results[0]
    assert first["level"] == "error" and "unknown setting `sweep`" in first["message"]["text"]
    loc = first["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "tests/bad/unknown-key.yaml"
    assert loc["region"]["startLine"] == 3 and loc["region"]["startColumn"] == 1
    code, out, _ = cli("validate", "--format", "sarif", "standard")
    assert code == 0 and json.loads(out)["runs"][0]["results"] == []


@pytest.mark.parametrize("fmt", ["github", "sarif"])
def test_ci_formats_for_a_missing_file(cli, fmt: str) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("validate", "--format", fmt, "no/such/file.yaml")
    assert code == 2 and "no/such/file.yaml" in out

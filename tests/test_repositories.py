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


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """This checkout as a hooks repository, its commit, and a pre-commit home the tests share
    (pre-commit installs the hooks' environment once per repository and commit)."""
    tmp = tmp_path_factory.mktemp("hooks")
    repo, rev = hooks_repository(tmp)
    return repo, rev, tmp / "pre-commit-home"


def pre_commit(project: Path, home: Path, all_files: bool = True) -> subprocess.CompletedProcess[str]:
    """`pre-commit run` in ``project``: on every file, or (``all_files=False``) on the staged ones, as a commit does."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_"))}
    env["PRE_COMMIT_HOME"] = str(home)
    env["CASSINO_PURE_PYTHON"] = "1"   # the hooks' own install: skip compiling the engine (only slower)
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--color", "never",
                           *(["--all-files"] if all_files else [])],
                          cwd=project, capture_output=True, text=True, env=env, timeout=600)


def config(hooks: Path, rev: str) -> str:
    return (f"repos:\n  - repo: {hooks.as_posix()}\n    rev: {rev}\n    hooks:\n"
            f"      - id: cassino-validate\n      - id: cassino-check\n")


def test_pre_commit_hooks_refuse_bad_files_and_pass_good_ones(tmp_path: Path, hooks: tuple[Path, str, Path]) -> None:
    hooks_repo, rev, home = hooks
    project = tmp_path / "house-rules"
    (project / "rules").mkdir(parents=True)
    (project / "scenarios").mkdir()
    (project / "rules" / "good.yaml").write_text(GOOD_RULES)
    (project / "rules" / "bad.yaml").write_text(BAD_RULES)
    (project / "scenarios" / "good.yaml").write_text(GOOD_SCENARIO)
    (project / "scenarios" / "bad.yaml").write_text(BAD_SCENARIO)
    (project / ".pre-commit-config.yaml").write_text(config(hooks_repo, rev))
    git("init", "-q", cwd=project)
    git("add", ".", cwd=project)

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


HOUSE_RULES = "name: house\nextends: standard\ngame:\n  target: 21\n"
HOUSE_SCENARIO = """variant: ../rules/house.yaml
cases:
  - name: the house game ends at 21
    scores: {0: 20, 1: 0}
    captured: {0: [AS], 1: rest}
    expect: {winner: 0}
"""


def test_a_change_to_a_rule_file_alone_runs_the_scenario_hook(tmp_path: Path, hooks: tuple[Path, str, Path]) -> None:
    """Issue 25: a commit that changes only a house rule skipped the scenario hook (`(no files to
    check) Skipped`), so a rule change that breaks a case could be committed."""
    hooks_repo, rev, home = hooks
    project = tmp_path / "house-rules"
    (project / "rules").mkdir(parents=True)
    (project / "scenarios").mkdir()
    (project / "rules" / "house.yaml").write_text(HOUSE_RULES)
    (project / "scenarios" / "house.yaml").write_text(HOUSE_SCENARIO)
    (project / ".pre-commit-config.yaml").write_text(config(hooks_repo, rev))
    git("init", "-q", cwd=project)
    git("add", ".", cwd=project)
    git("commit", "-q", "-m", "a house rule and its case", cwd=project)

    # a valid rule file (validate passes) whose change breaks the tracked, unchanged case
    (project / "rules" / "house.yaml").write_text(HOUSE_RULES.replace("21", "31"))
    git("add", "rules/house.yaml", cwd=project)
    broken = pre_commit(project, home, all_files=False)
    out = broken.stdout + broken.stderr
    assert broken.returncode == 1, out
    assert re.search(r"validate Cassino rule files\.+Passed", out), out
    assert re.search(r"check Cassino scenario files\.+Failed", out), out
    assert "scenarios/house.yaml: FAILED: the house game ends at 21" in out
    assert "winner: expected 0, found null" in out and "0 passed, 1 failed" in out

    # a rule change that keeps every case holding: the hook runs (not skipped) and passes
    (project / "rules" / "house.yaml").write_text("# to 21, as the case says\n" + HOUSE_RULES)
    git("add", "rules/house.yaml", cwd=project)
    fine = pre_commit(project, home, all_files=False)
    out = fine.stdout + fine.stderr
    assert fine.returncode == 0, out
    assert re.search(r"check Cassino scenario files\.+Passed", out), out


def test_the_hooks_file_names_both_hooks_and_their_commands() -> None:
    import yaml

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert hooks["cassino-validate"]["entry"] == "cassino validate"
    assert hooks["cassino-check"]["entry"] == "python -m cassino.apps.authors.scenario_hook"
    assert all(h["language"] == "python" for h in hooks.values())
    assert re.search(hooks["cassino-validate"]["files"], "rules/house.yaml")
    assert not re.search(hooks["cassino-validate"]["files"], ".pre-commit-config.yaml")
    assert re.search(hooks["cassino-check"]["files"], "tests/scenarios/standard.yaml")
    for rule_file in ("rules/house.yaml", "variants/standard.yaml", "house-rules/x.yml"):
        assert re.search(hooks["cassino-check"]["files"], rule_file), rule_file   # a rule change runs the cases
    assert not re.search(hooks["cassino-check"]["files"], ".pre-commit-config.yaml")


# ---------------------------------------------------------------------- the scenario hook's own entry point


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository (the current folder) with a house rule and a case that holds under it, tracked."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(HOUSE_RULES)
    (tmp_path / "scenarios" / "house.yaml").write_text(HOUSE_SCENARIO)
    git("init", "-q", cwd=tmp_path)
    git("add", ".", cwd=tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_scenario_hook_checks_every_tracked_case_when_a_rule_file_changes(
        repository: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cassino.apps.authors.scenario_hook import main

    assert main(["rules/house.yaml"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "1 passed, 0 failed"
    (repository / "rules" / "house.yaml").write_text(HOUSE_RULES.replace("21", "31"))
    assert main(["rules/house.yaml"]) == 1
    out = capsys.readouterr().out
    assert "scenarios/house.yaml: FAILED: the house game ends at 21" in out
    # a scenario file alone is checked alone, under any folder name (it holds `cases`)
    (repository / "cases.yaml").write_text(HOUSE_SCENARIO.replace("../rules/", "rules/"))
    assert main(["cases.yaml"]) == 1
    out = capsys.readouterr().out
    assert "cases.yaml: FAILED" in out and "scenarios/house.yaml" not in out
    # an untracked scenario folder's file is not run for a rule change; --scenarios picks other paths
    assert main(["--scenarios", r"^cases\.yaml$", "rules/house.yaml"]) == 0
    assert "no scenario files to check" in capsys.readouterr().out


@pytest.mark.parametrize("argv,code,message", [
    (["--scenarios", "(", "rules/house.yaml"], 2, "--scenarios '(' is not a regular expression"),
    (["scenarios/missing.yaml"], 2, "scenarios/missing.yaml:0: cannot read a rule or scenario file: no such file"),
    (["--scenarios"], 2, "expected one argument"),
    ([], 0, "no scenario files to check"),
])
def test_scenario_hook_hostile_arguments(repository: Path, capsys: pytest.CaptureFixture[str],
                                         argv: list[str], code: int, message: str) -> None:
    from cassino.apps.authors.scenario_hook import main

    try:
        result = main(argv)
    except SystemExit as e:              # argparse's own refusal of a missing value
        result = e.code
    assert result == code
    captured = capsys.readouterr()
    assert message in captured.out + captured.err, captured
    assert "Traceback" not in captured.err


def test_scenario_hook_outside_a_repository_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from cassino.apps.authors.scenario_hook import main

    (tmp_path / "house.yaml").write_text(HOUSE_RULES)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert main(["house.yaml"]) == 2
    err = capsys.readouterr().err
    assert "cannot list the repository's files with `git ls-files`" in err and "inside a git repository" in err


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

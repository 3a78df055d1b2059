"""Every scenario file of the project, and the shared examples, pass `cassino check`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SHARED, VARIANTS

SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


def check(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", "check", *map(str, files)],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_file_passes(path: Path) -> None:
    result = check(path)
    last = result.stdout.strip().splitlines()[-1]
    assert result.returncode == 0, result.stdout + result.stderr
    passed = int(last.split()[0])
    assert last == f"{passed} passed, 0 failed"
    assert passed >= 10, f"{path.name}: a variant's file needs at least 10 cases"


def test_every_variant_has_a_scenario_file() -> None:
    assert {p.stem for p in SCENARIOS} >= set(VARIANTS)


@pytest.mark.skipif(not (SHARED / "scenarios" / "examples.yaml").exists(),
                    reason="checks the scenario contract's own examples (../shared/scenarios/examples.yaml), which only "
                           "the developers' workspace has; a clone does not need them: tests/scenarios/ covers every variant")
def test_shared_examples_pass() -> None:
    result = check(SHARED / "scenarios" / "examples.yaml")
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"


def test_check_reports_failures_and_bad_files(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("variant: standard\ncases:\n"
                 "  - name: wrong on purpose\n    table: [5C]\n    hand: [5D]\n"
                 "    expect: {illegal: [\"5D capture 5C\"], legal: [\"5D capture 4C\"]}\n"
                 "  - name: a card twice\n    table: [5C]\n    hand: [5C]\n    expect: {legal: [\"5C trail\"]}\n"
                 "  - name: a build its cards cannot make\n    builds: [{cards: [2C, 3C], value: 9, owner: 1}]\n"
                 "    hand: [9D]\n    expect: {legal: [\"9D trail\"]}\n", encoding="utf-8")
    result = check(f)
    assert result.returncode == 1
    out = result.stdout
    assert "FAILED: wrong on purpose" in out and "expected illegal: 5D capture 5C" in out
    assert "4C is not loose on the table" in out
    assert "impossible position: 5C is placed twice" in out
    assert "cannot make a build of 9" in out
    assert out.strip().splitlines()[-1] == "0 passed, 3 failed"
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: standard\ncases:\n  - name: x\n    tabel: [5C]\n", encoding="utf-8")
    result = check(bad)
    assert result.returncode == 2
    assert f"{bad}:4:5: unknown key `tabel`" in result.stderr
    assert "did you mean `table`?" in result.stderr

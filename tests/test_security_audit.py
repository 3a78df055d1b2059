"""A security audit's findings (docs/security.md), each through the real command line.

A rule or scenario file may come from anyone (a pull request that CI checks). Its words reach the output of
line-oriented commands (`validate`, `check`), which CI logs and problem matchers read line by line, and a
GitHub runner obeys any line that starts with `::` (`::error`, `::add-mask::`, `::stop-commands::`). So a
value a problem quotes, or a case's name, must not bring a line break of its own.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FORGED = "::error file=README.md,line=1::forged"


def _cassino(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8")


def _forged_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.lstrip().startswith("::")]


def test_a_key_or_extends_with_a_line_break_cannot_write_a_line_of_its_own(tmp_path: Path) -> None:
    (tmp_path / "key.yaml").write_text(f'name: t\nextends: standard\n"bad\\n{FORGED}": 1\n', encoding="utf-8")
    (tmp_path / "ext.yaml").write_text(f'name: t\nextends: "x.yaml\\n{FORGED}"\n', encoding="utf-8")
    for name in ("key.yaml", "ext.yaml"):
        done = _cassino("validate", name, cwd=tmp_path)
        said = done.stdout + done.stderr
        assert done.returncode == 2, said
        assert "Traceback" not in said
        assert _forged_lines(said) == [], said            # (the forged line stood alone before)
        assert f"\\n{FORGED}" in said, said                # said, as an escape, on the problem's own line


def test_a_scenario_case_name_with_a_line_break_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sc.yaml").write_text(
        f'variant: standard\ncases:\n  - name: "ok\\n{FORGED}"\n    table: [9C]\n    hand: [9D]\n'
        f'    expect:\n      legal: ["9D capture 9C"]\n', encoding="utf-8")
    done = _cassino("check", "sc.yaml", cwd=tmp_path)
    said = done.stdout + done.stderr
    assert done.returncode == 2, said
    assert "Traceback" not in said
    assert _forged_lines(said) == [], said
    assert "sc.yaml:3: case name" in said and "holds a line break" in said, said


def test_a_selector_nested_thousands_deep_is_refused_at_its_place_not_an_internal_error(tmp_path: Path) -> None:
    deep = "(" * 20_000 + "suit=S" + ")" * 20_000
    nots = "not " * 100_000 + "suit=S"
    for name, selector in (("brackets.yaml", deep), ("nots.yaml", nots)):
        (tmp_path / name).write_text(f'name: t\nextends: standard\nscoring:\n  items:\n    aces:\n'
                                     f'      cards: "{selector}"\n', encoding="utf-8")
        done = _cassino("validate", name, cwd=tmp_path)
        said = done.stdout + done.stderr
        assert done.returncode == 2, said[:500]
        assert "internal error" not in said and "Traceback" not in said, said[:500]
        assert f"{name}:6:14: selector" in said and "more than 32" in said, said[:500]
    (tmp_path / "fine.yaml").write_text('name: t\nextends: standard\nscoring:\n  items:\n    aces:\n'
                                        '      cards: "((rank=A or rank=K) and not (suit=S or not suit=H))"\n',
                                        encoding="utf-8")
    assert _cassino("validate", "fine.yaml", cwd=tmp_path).returncode == 0

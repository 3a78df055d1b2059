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


#: A text whose line break would start a forged GitHub command of its own.
BROKEN = "x\n::error file=README.md,line=1::forged"


def test_a_suit_symbol_or_name_with_a_line_break_is_refused_in_a_rule_file_and_a_record(tmp_path: Path) -> None:
    """The audit's leftover: a suit's symbol (or name) with a line break reached `replay --moves`'s scoring table as a
    line of its own (a forged `::error`). The schema keeps such names on one line: refused at their place, in a rule
    file and in a record's rules."""
    import json

    suits = [{"letter": "S", "name": "spades", "symbol": BROKEN}, {"letter": "H", "name": "hearts\nx"},
             {"letter": "D", "name": "diamonds"}, {"letter": "C", "name": "clubs", "colour": "black\u2028x"}]
    rule = tmp_path / "nl.yaml"
    rule.write_text(json.dumps({"name": "nl", "extends": "standard", "deck": {"suits": suits}}), encoding="utf-8")
    done = _cassino("validate", "nl.yaml", cwd=tmp_path)
    assert done.returncode == 2 and not _forged_lines(done.stdout + done.stderr)
    for where in ("suits[0].symbol", "suits[1].name", "suits[3].colour"):
        assert f"`deck.{where}` must be one line" in done.stderr, done.stderr
    played = subprocess.run([sys.executable, "-m", "cassino", "play", "standard", "--seed", "3", "--save", "g.json"],
                            cwd=tmp_path, capture_output=True, text=True, encoding="utf-8", input="quit\n")
    assert played.returncode == 0, played.stderr
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    record["variant"]["rules"]["deck"]["suits"][0]["symbol"] = BROKEN
    (tmp_path / "h.json").write_text(json.dumps(record), encoding="utf-8")
    replayed = _cassino("replay", "h.json", "--moves", cwd=tmp_path)
    assert replayed.returncode == 2 and not _forged_lines(replayed.stdout + replayed.stderr)
    assert "must be one line" in replayed.stderr


def test_a_file_name_or_description_with_a_line_break_stays_on_its_line(tmp_path: Path) -> None:
    """The audit's other leftovers: `validate rules/*.yaml` printed a file name holding a line break (git allows
    one) as two lines, and `explain` a description's; the name is written with `\\n`, the description's breaks read
    as spaces."""
    folder = tmp_path / "a\n::error file=README.md,line=1::forged"
    folder.mkdir()
    (folder / "f.yaml").write_text("name: f\ndescription: ok\nextends: standard\n", encoding="utf-8")
    (folder / "g.yaml").write_text("name: [x\n", encoding="utf-8")
    for name in ("f.yaml", "g.yaml"):
        done = _cassino("validate", str(folder.relative_to(tmp_path) / name), cwd=tmp_path)
        assert done.returncode == (0 if name == "f.yaml" else 2)
        assert not _forged_lines(done.stdout + done.stderr) and "a\\n::error" in done.stdout + done.stderr
    (tmp_path / "d.yaml").write_text(f"name: d\ndescription: {BROKEN!r}\nextends: standard\n".replace("'", '"'),
                                     encoding="utf-8")
    explained = _cassino("explain", "d.yaml", cwd=tmp_path)
    assert explained.returncode == 0, explained.stderr
    assert not _forged_lines(explained.stdout) and explained.stdout.startswith("d: x ::error file=README.md")

"""The harness that compares the engine with second implementations written from the rule texts
(tests/reference_positions.py): its positions read back as `cassino check` reads them, its move texts
compared whatever their order, and a reference that lists one move too few or too many caught."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import reference_positions as rp

ROOT = Path(__file__).resolve().parents[1]


def test_canonical_ignores_the_order_of_cards_and_builds() -> None:
    assert rp.canonical("9c capture 6h [5d 4s] 3C") == rp.canonical("9C capture 3C [4S 5D] 6H")
    assert rp.canonical("5D+7H capture 2S 10C") == rp.canonical("7H+5D capture 10C 2S")
    assert rp.canonical("6C build 9 on 3H [5D 4S]") == "6C build 9 on [4S 5D] 3H"
    assert rp.canonical("3H build 8 on 5S") != rp.canonical("3H build 9 on 5S")
    assert rp.canonical("KD trail") == "KD trail"


_READER = rp.Reader()


def _engine_reference(variant: str, case: dict) -> set[str]:
    engine, state = _READER.state(variant, case)
    return rp.engine_moves(engine, state)


@pytest.mark.parametrize("variant,players,partners", [("standard", 2, False), ("scopa", 4, True),
                                                       ("krypkasino", 3, False), ("tuxedo", 5, False)])
def test_every_position_reads_back_as_it_was_played(variant: str, players: int, partners: bool) -> None:
    """A position written as a scenario case and read back lists the moves play reached; the engine,
    taken as its own reference, then disagrees with nothing."""
    tally = rp.run([(variant, players, partners)], range(1, 2), _engine_reference)
    assert tally.positions > 10
    assert tally.lossy == 0
    assert tally.found == []


def test_a_reference_missing_a_move_or_adding_one_is_caught() -> None:
    def short(variant: str, case: dict) -> set[str]:
        moves = sorted(_engine_reference(variant, case))
        return set(moves[1:]) | {"AS build 99 on 2S"}

    tally = rp.run([("standard", 2, False)], range(1, 2), short, max_positions=5)
    assert tally.positions == 5
    missing = [d for d in tally.found if d.engine_says]
    extra = [d for d in tally.found if not d.engine_says]
    assert len(missing) == 5 and len(extra) == 5
    assert all(d.move == "AS build 99 on 2S" for d in extra)


def test_a_disagreement_is_a_scenario_case_cassino_check_runs(tmp_path: Path) -> None:
    """The engine's side of a disagreement, written as a case, passes `cassino check`; the other side fails."""
    def short(variant: str, case: dict) -> set[str]:
        return set(sorted(_engine_reference(variant, case))[1:])

    tally = rp.run([("royal", 2, False)], range(3, 4), short, max_positions=3)
    cases = [d.scenario() for d in tally.found]
    assert len(cases) == 3
    ok = tmp_path / "ok.yaml"
    ok.write_text(yaml.safe_dump({"cases": cases}, sort_keys=False), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "cassino", "check", str(ok)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().splitlines()[-1] == f"{len(cases)} passed, 0 failed"
    for case in cases:
        case["expect"] = {"illegal": case["expect"]["legal"]}
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"cases": cases}, sort_keys=False), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "cassino", "check", str(bad)], capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stdout.strip().splitlines()[-1] == f"0 passed, {len(cases)} failed"


def test_the_comparison_script_refuses_what_is_no_reference(tmp_path: Path) -> None:
    script = ROOT / "benchmarks" / "reference_compare.py"
    for args, said in ((["--reference", "nope_reference"], "no reference tests/nope_reference.py"),
                       (["--reference", "os.path"], "give a reference module of tests/"),
                       (["--reference", "reference_positions"], "give a reference module of tests/"),
                       (["--reference", "african_reference"], "has no legal_moves and VARIANTS"),
                       (["--reference", "african_reference", "--seeds", "0"], "--seeds")):
        run = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True)
        assert run.returncode == 2, run.stderr
        assert said in run.stderr
        assert "Traceback" not in run.stderr


def test_the_comparison_script_on_a_reference(tmp_path: Path) -> None:
    """A reference that drops each position's first move: counted, printed, written as cases; a variant it
    does not cover and a folder that is not there are refused."""
    (tmp_path / "dropping_reference.py").write_text(
        "import reference_positions as rp\n"
        "VARIANTS = ('standard',)\n"
        "_READER = rp.Reader()\n"
        "def legal_moves(variant, case):\n"
        "    engine, state = _READER.state(variant, case)\n"
        "    return set(sorted(rp.engine_moves(engine, state))[1:])\n", encoding="utf-8")
    script = ROOT / "benchmarks" / "reference_compare.py"
    path = [str(tmp_path), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    base = [sys.executable, str(script), "--reference", "dropping_reference"]
    for args, said in ((["--variants", "standard,royal"], "royal: not covered by dropping_reference"),
                       (["--write", str(tmp_path / "no" / "x.yaml")], "no folder")):
        run = subprocess.run(base + args, capture_output=True, text=True, env=env)
        assert run.returncode == 2 and said in run.stderr, run.stderr
    out = tmp_path / "found.yaml"
    run = subprocess.run(base + ["--seeds", "1", "--first", "4", "--write", str(out)], capture_output=True, text=True,
                         env=env)
    assert run.returncode == 0, run.stderr
    first = run.stdout.splitlines()[0]
    compared = int(first.split(": ")[1].split(" positions")[0])
    undeclared = int(first.split(" undeclared")[0].rsplit(", ", 1)[1])
    assert compared > 0 and undeclared == compared      # one dropped move a position
    cases = yaml.safe_load(out.read_text(encoding="utf-8"))["cases"]
    assert len(cases) == undeclared

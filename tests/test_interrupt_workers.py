"""Ctrl-C in a run with worker processes (`simulate`, `sweep`, `train` with --workers 2).

A terminal's Ctrl-C goes to the whole foreground process group. An audit pressed it twice with
`--workers 2`: the runs hung (parent and workers alive 40 s later) and a third press printed three
tracebacks. Now the workers ignore SIGINT and the parent ends them: the run stops at once, says
`interrupted`, prints no traceback and leaves no worker behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, as_at_a_terminal

RUNS = [
    ["simulate", "standard", "--games", "100000", "--workers", "2"],
    ["sweep", "standard", "--set", "game.target=5,11,21,31", "--games", "20000", "--workers", "2"],
    ["train", "standard", "--hands", "500", "--rounds", "2", "--deals", "4", "--workers", "2", "--out", "w.json"],
]


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in found]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(sys.platform != "linux", reason="process groups and /proc as on Linux")
# (Five presses: a Ctrl-C landing while the process ends, in the worker pool's exit handler, printed a traceback;
# found flaky in CI at two and three.)
@pytest.mark.parametrize("presses", [2, 3, 5])
@pytest.mark.parametrize("argv", RUNS, ids=[a[0] for a in RUNS])
def test_ctrl_c_pressed_again_and_again_stops_the_run_and_its_workers(tmp_path: Path, argv: list[str],
                                                                       presses: int) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT / "interpreter")}
    run = subprocess.Popen([sys.executable, "-m", "cassino", *argv], cwd=tmp_path, env=env, start_new_session=True,
                           preexec_fn=as_at_a_terminal,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        began = time.monotonic()
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() - began < 120:   # (the pool started, on however slow a machine)
            time.sleep(0.2)
            workers = [p for p in _children(run.pid) if _alive(p)]
        assert len(workers) >= 2, "the workers never started"
        time.sleep(0.5)
        for _ in range(presses):
            os.killpg(run.pid, signal.SIGINT)   # as a terminal's Ctrl-C: the parent and its workers
            time.sleep(0.05)
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode in (130, -signal.SIGINT), (run.returncode, err[-2000:])
    assert "Traceback" not in err and "interrupted" in err, err[-2000:]
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(p) for p in workers), "a worker outlived the run"


def _one_ctrl_c(tmp_path: Path, argv: list[str], after: float) -> tuple[int, str, str]:
    """``cassino ARGV`` run as at a terminal, one Ctrl-C pressed ``after`` seconds: its status, stdout and stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "interpreter")}
    run = subprocess.Popen([sys.executable, "-m", "cassino", *argv], cwd=tmp_path, env=env, start_new_session=True,
                           preexec_fn=as_at_a_terminal,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(after)
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    return run.returncode, out, err


@pytest.mark.skipif(sys.platform != "linux", reason="process groups as on Linux")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_one_ctrl_c_summarises_the_games_played_so_far(tmp_path: Path, workers: str) -> None:
    """An audit's long `simulate` said only "interrupted": the games it had played were lost."""
    # (some games played after 4 s, on however slow a machine: a game takes milliseconds)
    code, out, err = _one_ctrl_c(tmp_path, ["simulate", "standard", "--games", "1000000", "--workers", workers,
                                            "--format", "json"], 4.0)
    assert code == 130 and "Traceback" not in err, err[-2000:]
    summary = json.loads(out)
    played = summary["interrupted"]["played"]
    assert summary["games"] == played and 0 < played < 1_000_000 and summary["interrupted"]["asked"] == 1_000_000
    assert f"interrupted after {played:,} of 1,000,000 games: the figures above are of those" in err


@pytest.mark.skipif(sys.platform != "linux", reason="process groups as on Linux")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_one_ctrl_c_in_a_sweep_keeps_the_grid_points_played(tmp_path: Path, workers: str) -> None:
    """An audit's `sweep` said only "interrupted", its finished grid points thrown away, JSON or not."""
    # (some games of the first point played after 5 s, on however slow a machine)
    code, out, err = _one_ctrl_c(tmp_path, ["sweep", "standard", "--set", "game.target=11,21,31", "--games", "200000",
                                            "--workers", workers, "--format", "json"], 5.0)
    assert code == 130 and "Traceback" not in err, err[-2000:]
    result = json.loads(out)
    cut = result["interrupted"]
    assert cut["asked"] == 600_000 and 0 < cut["played"] < 600_000 and cut["points"] == 3
    assert len(result["grid"]) == cut["points_played"] >= 1
    assert sum(row["games"] for row in result["grid"]) == cut["played"]
    assert f"interrupted after {cut['played']:,} of 600,000 games" in err

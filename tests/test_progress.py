"""Long commands show how far they have gone on a terminal (issue 48): simulate, sweep and review share one bar
on standard error, and print nothing extra to a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from cassino.apps.authors.sweep import plan, run

from conftest import ROOT


def on_a_terminal(*argv: str, cwd: Path = ROOT) -> str:
    """What a terminal shows for ``cassino ARGV`` (standard error a pty, standard output a pipe)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "cassino", *argv], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=follower, stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "100"})
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    proc.wait(timeout=300)
    os.close(leader)
    assert proc.returncode == 0, shown
    return shown.decode("utf-8", "replace")


def test_sweep_tells_its_progress_of_every_game() -> None:
    told: list[int] = []
    result = run(plan("standard", ["game.target=11,21"]), 6, progress=told.append)
    assert sum(told) == 12 and len(result["grid"]) == 2


def test_sweep_and_review_draw_a_bar_on_a_terminal_only(tmp_path: Path) -> None:
    assert "sweeping" in on_a_terminal("sweep", "standard", "--set", "game.target=11,21", "--games", "4")
    record = ROOT / "tests" / "records" / "review-greedy-standard-11.json"
    assert "reviewing" in on_a_terminal("review", str(record), "--deals", "8")
    piped = subprocess.run([sys.executable, "-m", "cassino", "sweep", "standard", "--set", "game.target=11,21",
                            "--games", "4"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and "sweeping" not in piped.stderr + piped.stdout

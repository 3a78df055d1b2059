"""A reader of stdout that goes away (a pipe into `head` that has read enough): the command says nothing more, no
traceback, and its exit status stands (an audit's `simulate --games 0 --format json | head -2` ended in a
BrokenPipeError traceback and status 1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


@pytest.mark.parametrize("args, status", [
    (["simulate", "standard", "--games", "0", "--format", "json"], 2),          # argparse's refusal, as JSON
    (["diff", "standard", "nosuch", "--format", "json"], 2),                     # a command's error document
    (["simulate", "standard", "--games", "3", "--format", "json"], 0),          # a result
    (["rules", "standard"], 0),                                                  # text
])
def test_a_reader_gone_from_stdout_gets_no_traceback(tmp_path: Path, args: list[str], status: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "interpreter")}
    run = subprocess.Popen([sys.executable, "-m", "cassino", *args], cwd=tmp_path, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert run.stdout is not None and run.stderr is not None
    run.stdout.close()   # (gone before a byte is read)
    err = run.stderr.read().decode()
    run.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipe" not in err, err[-2000:]
    assert run.returncode == status, err[-2000:]

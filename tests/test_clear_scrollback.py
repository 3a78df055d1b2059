"""The screen cleared between people at one keyboard takes the scrollback with it (a hot-seat audit in tmux: the
scrollback was erased before the screen, whose erasing then pushed the last person's hand back into it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cassino.apps.game.play import CLEAR


@pytest.mark.skipif(shutil.which("tmux") is None or sys.platform != "linux", reason="needs tmux")
def test_the_clear_leaves_no_hand_in_tmuxs_scrollback(tmp_path: Path) -> None:
    script = tmp_path / "show.py"
    script.write_text("import sys, time\n"
                      "print('your hand: A♣ 3♣ 4♠ 9♠ SECRET')\n"
                      "for k in range(5): print('line', k)\n"
                      f"sys.stdout.write({CLEAR!r}); sys.stdout.flush()\n"
                      "print('Pass the keyboard')\n"
                      "time.sleep(30)\n", encoding="utf-8")
    name = f"cassino-clear-{time.monotonic_ns()}"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24",
                    f"{sys.executable} {script}"], check=True)
    try:
        seen = ""
        for _ in range(50):
            time.sleep(0.1)
            seen = subprocess.run(["tmux", "capture-pane", "-p", "-S", "-", "-t", name], capture_output=True,
                                  text=True).stdout
            if "Pass the keyboard" in seen:
                break
        assert "Pass the keyboard" in seen
        assert "SECRET" not in seen, seen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)

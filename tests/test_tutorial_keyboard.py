"""The tutorial where several people share one keyboard, and in a resumed game (a re-attack of session 78)."""

from __future__ import annotations

import re
import tempfile
from io import StringIO
from pathlib import Path

from rich.console import Console

from cassino.apps.game.play import Aids, start_session
from cassino.apps.game.records import Record, load_record
from cassino.language.variants import load_rules


def _play(record: Record, path: Path, answers: list[str]) -> str:
    """The game at the terminal with the tutorial on, each prompt answered from ``answers`` (then the input
    ends): everything printed, each prompt marked ``<<prompt ...>>``."""
    out = StringIO()
    queue = list(answers)

    def read(prompt: str) -> str:
        out.write(f"\n<<prompt {prompt}>>\n")
        if not queue:
            raise EOFError
        return queue.pop(0)

    session = start_session(record, path, Console(file=out, width=200, markup=False, highlight=False,
                                                  soft_wrap=True), read=read, aids=Aids(tutorial=True))
    session.run()
    return out.getvalue()


def test_two_people_at_one_keyboard_each_learn_and_read_before_the_screen_is_cleared() -> None:
    """Seat 1's lesson was cleared off the screen before anyone read it, and seat 0 was never taught a trail
    because seat 1 had been: each person has their own lessons, and the screen waits for Enter first."""
    rules = load_rules("standard")
    record = Record(rules, 44, 2, False, ["human", "human"], source="standard")
    with tempfile.TemporaryDirectory() as folder:
        out = _play(record, Path(folder) / "g.json", ["", "1", "", "", "1", "", "", "1"] + [""] * 4)
    chunks = out.split("<<prompt ")
    for k, chunk in enumerate(chunks[1:], 1):
        if chunk.startswith("Pass the keyboard") and "rule (" in chunks[k - 1].split(">>", 1)[-1]:
            raise AssertionError(f"a lesson cleared unread: {chunks[k - 1][-400:]}")
    assert "press Enter when you have read the rule above" in out
    taught = re.findall(r"^rule \(([^)]*)\): ", out, re.M)
    assert taught.count("trail") + taught.count("capture") + taught.count("build") >= 2, taught


def test_a_resumed_game_does_not_teach_again_what_its_moves_met() -> None:
    rules = load_rules("standard")
    record = Record(rules, 21, 2, False, ["human", "random"], source="standard")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.json"
        first = _play(record, path, ["1"] * 6 + ["quit"])
        again = _play(load_record(path), path, ["1"] * 3 + ["quit"])
    before = re.findall(r"^rule \(([^)]*)\): (.*)$", first, re.M)
    after = re.findall(r"^rule \(([^)]*)\): (.*)$", again, re.M)
    assert before and not set(after) & set(before), (before, after)

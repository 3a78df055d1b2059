"""The same variant, seed and moves give the same game in every process.

Python salts the hash of every string afresh in each process (``PYTHONHASHSEED``), so a set of
strings (rank names, a build's value named by a rank, setting names) is walked in another order
in another process. Nothing the tool prints or plays may follow that order: the same command
gives the same games, books and comparisons in two processes whose salts differ. (Measured beyond
this test with two salts: `rules`, `explain`, `perft` and `simulate` with the search player of every
bundled variant and house-rule example, `diff` of each against standard, and every consumer of
every seating's matrix run: no answer differed.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT

#: Commands whose output is compared: the search player and greedy through whole games (Royal names
#: court builds by rank; Swazi Casino plays from piles; Krypkasino has two packs and three players),
#: a rulebook and its worked examples, a comparison of two rule files with its positions.
COMMANDS = [
    ["simulate", "royal", "--games", "2", "--seed", "7", "--bot", "search:16,greedy", "--format", "json"],
    ["simulate", "swazi-casino", "--games", "1", "--seed", "3", "--bot", "greedy", "--format", "json"],
    ["simulate", "krypkasino", "--games", "1", "--seed", "2", "--players", "3", "--format", "json"],
    ["rules", "royal"],
    ["explain", str(ROOT / "examples" / "fifty.yaml")],
    ["diff", "hoyle", "royal"],
]

SCRIPT = """
import contextlib, io, json, sys
from cassino.apps.cli import main
answers = []
for argv in json.loads(sys.argv[1]):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
    answers.append([code, out.getvalue()])
# The control: a set of strings, walked in the order this process's salt gives it.
answers.append(list({"J", "Q", "K", "A", "10", "2S", "build", "trail"}))
print(json.dumps(answers))
"""


def _answers(salt: str) -> list:  # type: ignore[type-arg]
    env = {**os.environ, "PYTHONHASHSEED": salt}
    result = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(COMMANDS)], capture_output=True, text=True,
                            env=env, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


def test_two_processes_with_different_string_hashes_give_the_same_answers() -> None:
    first, second = _answers("1"), _answers("2")
    assert first[-1] != second[-1], "the two processes walked a set of strings alike: the salts did not differ"
    for argv, a, b in zip(COMMANDS, first, second):
        assert a[0] == b[0] == 0, argv
        assert a[1], argv
        assert a[1] == b[1], f"`cassino {' '.join(argv)}` differs between two processes"

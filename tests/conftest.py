"""Shared test set-up: Hypothesis profiles and the project's paths.

CI runs a modest number of examples (CI=true selects the `ci` profile);
`HYPOTHESIS_PROFILE=thorough pytest` runs many more locally.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# The computer player looks for weights `cassino train` fitted in the user's cache: the tests see an empty
# one of their own, never the user's (nor write to it).
os.environ["XDG_CACHE_HOME"] = _CACHE = tempfile.mkdtemp(prefix="cassino-tests-cache-")
atexit.register(shutil.rmtree, _CACHE, True)

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
SHARED = ROOT.parent / "shared"


def as_at_a_terminal() -> None:
    """For ``subprocess.Popen(preexec_fn=...)`` in a test that sends Ctrl-C: the child takes SIGINT as a program
    started at a terminal does. A test run started in the background inherits SIGINT ignored (a shell's
    asynchronous command without job control), and Python then installs no handler for it, so the Ctrl-C such
    a test sends was ignored and the test waited out its timeout (a clean-clone CI run in the background)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def benchmark(name: str) -> ModuleType:
    """A script of ``benchmarks/`` loaded afresh as a module (its ``main`` reads ``sys.argv``); the folder
    is on the import path, as the scripts import each other."""
    import importlib.util

    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record_text(variant: str = "standard", seed: int = 3, actions: int | None = None,
                seats: tuple[str, ...] = ("human", "random")) -> str:
    """A game record's JSON, its moves chosen by random players (``actions`` of them, or a whole game).

    Made through the public API, as `cassino play` writes them, for tests that damage records.
    """
    import json

    from cassino.apps.game.records import Record, apply_action
    from cassino.engine.notation import format_move
    from cassino.language.variants import load_rules
    from cassino.players.bots import make_bot

    record = Record(load_rules(variant), seed, len(seats), False, list(seats), source=variant)
    game = record.new_game()
    bots = [make_bot("random", seed + s) for s in range(len(seats))]
    while not game.over and (actions is None or len(record.actions) < actions):
        seat = game.hand.turn
        text = format_move(bots[seat].choose(game, seat), game.engine.deck)
        game = apply_action(game, text)
        record.actions.append(text)
    return json.dumps(record.to_json(game), indent=1, ensure_ascii=False)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The command's `main` in this process: (exit status, stdout, stderr); much faster than a subprocess."""
    from cassino.apps.cli import main

    monkeypatch.chdir(ROOT)

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main(list(args))
        except SystemExit as e:   # argparse refusing the command line
            code = int(e.code or 0)
        out, err = capsys.readouterr()
        return code, out, err
    return run


def validate_refuses(cli, tmp_path: Path, body: str, parent: str, words: str) -> str:  # type: ignore[no-untyped-def]
    """Run `cassino validate` on a house rule of ``parent`` with ``body`` (YAML of its settings)
    and check it is refused as bad input (exit 2) with ``words`` in the message and no
    traceback. Returns the output, for further checks."""
    path = tmp_path / "house.yaml"
    path.write_text(f"name: house\nextends: {parent}\n{body}", encoding="utf-8")
    code, out, err = cli("validate", str(path))
    assert code == 2, (out, err)
    assert words in out + err, (out, err)
    assert "Traceback" not in out + err
    return out + err


def position_at(name: str, hands: dict[int, list[str]], table: list[str], *, builds: Any = (),
                captured: dict[int, list[str]] | None = None, players: int = 2,
                partners: bool = False, to_play: int = 0, stock: list[str] | None = None) -> tuple[Any, Any]:
    """An engine of the variant ``name`` (a bundled name or a file) and a position given by card
    names, seat ``to_play`` to play: builds as (cards, value, owner), capture piles in order, last on top;
    ``stock``: the cards left to deal (None: every card not placed)."""
    from cassino.engine.core import Engine, Position
    from cassino.language.variants import load_rules

    engine = Engine(load_rules(name))
    card = engine.deck.parse
    state = engine.position(Position(
        players=players, partners=partners, to_play=to_play,
        hands={s: [card(c) for c in cs] for s, cs in hands.items()},
        stock=None if stock is None else [card(c) for c in stock],
        table=[card(c) for c in table], builds=[([card(c) for c in cs], v, o) for cs, v, o in builds],
        captured={s: [card(c) for c in cs] for s, cs in (captured or {}).items()} or None))
    return engine, state


def every_limit(tutorial: Any, game: Any) -> tuple[Any, tuple[Any, ...]]:
    """Every lesson of the rules limiting the choice of the player to move in ``game`` (``Tutorial.before``
    teaches one at a time), as if the learner met the position again until nothing is left."""
    lessons: tuple[Any, ...] = ()
    while True:
        tutorial, more = tutorial.before(game)
        if not more:
            return tutorial, lessons
        lessons += more


def every_lesson(tutorial: Any, before: Any, move: Any, after: Any) -> tuple[Any, tuple[Any, ...]]:
    """Every lesson an action would teach, as if it were met again until nothing is left: the tutorial
    teaches one topic of play an action (the rest wait for a move that meets them again), and a test of
    one topic wants it whatever came first."""
    lessons: tuple[Any, ...] = ()
    while True:
        tutorial, more = tutorial.after(before, move, after)
        if not more:
            return tutorial, lessons
        lessons += more

"""`benchmarks/search_speed.py`: the search's time a move and a digest of its moves, the check that a
speed-up kept the same games. Its numbers are printed, not asserted; its digest is (its refusals: test_benchmark_arguments)."""

from __future__ import annotations

import sys

import pytest

from cassino.engine.core import Engine
from cassino.language.variants import load_rules
from conftest import benchmark


def _run(monkeypatch: pytest.MonkeyPatch, *argv: str) -> int:
    monkeypatch.setattr(sys, "argv", ["search_speed.py", *argv])
    try:
        return int(benchmark("search_speed").main())
    except SystemExit as stop:   # (argparse's refusals)
        return int(stop.code or 0)


def test_the_same_hands_give_the_same_digest_and_other_hands_another() -> None:
    module = benchmark("search_speed")
    engine = Engine(load_rules("scopa"))
    spent, moves, digest = module.hands(engine, 2, 1)
    again = module.hands(engine, 2, 1)
    assert moves == again[1] > 30 and digest == again[2] and len(digest) == 16 and spent >= 0
    assert module.hands(engine, 2, 2)[2] != digest


def test_a_run_prints_each_case(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(monkeypatch, "--hands", "1", "--rounds", "1", "--cases", "scopa:2") == 0
    out = capsys.readouterr().out
    assert "scopa" in out and "ms a move" in out and "moves " in out


def test_a_seating_and_another_player_are_timed_as_asked(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(monkeypatch, "--hands", "1", "--rounds", "1", "--cases", "scopa:4:alone,scopa:2",
                "--player", "custom:4:depth=deal", "--over", "1e-9") == 0
    out = capsys.readouterr().out
    assert "custom:4:depth=deal" in out and "scopa:4:alone " in out and "scopa:2 " in out
    assert "above 1e-09 ms a move: scopa:4:alone" in out


def test_all_is_every_seating_of_every_bundled_variant() -> None:
    module = benchmark("search_speed")
    every = module.every_seating()
    assert ("scopone", 4, True) in every and ("draw", 4, False) in every and ("draw", 4, True) in every
    assert ("swazi-casino", 2, False) in every and len(every) == len(set(every)) > 60
    assert [module.label(*case) for case in [("draw", 4, False), ("draw", 4, None), ("royal", 3, False)]] == [
        "draw:4:alone", "draw:4:partners", "royal:3"]
    assert module.cases("draw:4:alone,royal:3") == [("draw", 4, False), ("royal", 3, None)]

"""`benchmarks/bot_strength.py`: its numbers are printed, not asserted; the players its names make are
(its refusals of bad arguments: test_benchmark_arguments)."""

from __future__ import annotations

import sys

import pytest

from conftest import benchmark


def test_the_names_make_the_searches_they_say() -> None:
    bot = benchmark("bot_strength").bot
    plain, fixed = bot("plain:32", 1), bot("fixed:16", 1)
    assert (plain.iterations, plain.infer, plain.close) == (32, "off", 0)
    assert (fixed.iterations, fixed.infer, fixed.close) == (16, "weighted", 0)
    custom = bot("custom:64:exact_limit=12+settle=0.2+exact=no", 1)
    assert (custom.iterations, custom.exact_limit, custom.settle, custom.exact) == (64, 12, 0.2, False)
    assert bot("old:8", 1).evaluation == "worth" and bot("search", 1).name == "search"


def test_a_small_match_prints_its_row(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bot_strength.py", "--variants", "standard", "--players", "2", "--pairings",
                                      "greedy-vs-random", "--cap", "2", "--min", "1", "--batch", "2", "--one-hand",
                                      "--workers", "1"])
    assert benchmark("bot_strength").main() == 0
    assert "| standard | 2 | greedy vs random [bundled] | 2 |" in capsys.readouterr().out

"""`benchmarks/bot_strength.py`: its numbers are printed, not asserted; the players its names make, and
its refusals of bad arguments, are."""

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


@pytest.mark.parametrize("argv, says", [
    (["--cap", "0"], "--cap is 1 or more"),
    (["--workers", "0"], "--workers is 1 or more"),
    (["--positions", "-1"], "--positions is 1 or more"),
    (["--min", "50", "--cap", "40"], "at most --cap"),
    (["--cap", "x"], "invalid int"),
    (["--players", "3"], "--players is 2, 4"),
    (["--variants", "no-such-variant"], "no-such-variant"),
    (["--pairings", "bogus"], "no pairing named 'bogus'"),
    (["--pairings", "search-vs-"], "no pairing named"),
    (["--pairings", "nobody-vs-greedy"], "no computer player named 'nobody'"),
    (["--new", "custom:64"], "custom:N:SETTING=VALUE"),
    (["--new", "custom:64:settle"], "SETTING=VALUE"),
    (["--new", "custom:64:no_such_setting=1"], "no_such_setting"),
    (["--new", "custom:64:settle=-1"], "settle"),
    (["--today", "plain:x"], "plain:N"),
    (["--today", "fixed:0"], "fixed:N"),
    (["--regret", "--judged", "greedy,old:"], "old:N"),
])
def test_bad_arguments_are_refused_with_a_reason(argv: list[str], says: str, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bot_strength.py", *argv])
    with pytest.raises(SystemExit) as stop:
        benchmark("bot_strength").main()
    assert stop.value.code == 2 and says in capsys.readouterr().err


def test_a_small_match_prints_its_row(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bot_strength.py", "--variants", "standard", "--players", "2", "--pairings",
                                      "greedy-vs-random", "--cap", "2", "--min", "1", "--batch", "2", "--one-hand",
                                      "--workers", "1"])
    assert benchmark("bot_strength").main() == 0
    assert "| standard | 2 | greedy vs random | 2 |" in capsys.readouterr().out

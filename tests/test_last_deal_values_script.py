"""`benchmarks/last_deal_values.py`: the numbers are printed, not asserted; its fit, that it finds the
last deal's start and values it exactly, are (its refusals: test_benchmark_arguments)."""

from __future__ import annotations

import sys

import pytest

from cassino.engine.core import Engine
from cassino.engine.rng import derive
from cassino.engine.scoring import Scorer
from cassino.language.variants import load_rules
from cassino.players.outlook import Outlook
from cassino.players.solver import Solver
from conftest import benchmark


def test_the_fit_finds_a_linear_rule_and_refuses_too_few_positions() -> None:
    script = benchmark("last_deal_values")
    rows = [[x, 1.0] for x in (0.0, 1.0, 2.0, 5.0)]
    assert script.least_squares(rows, [2 * r[0] + 1 for r in rows]) == pytest.approx([2.0, 1.0])
    with pytest.raises(ValueError, match="too few positions"):
        script.least_squares([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0])


def test_the_last_deals_start_is_found_and_valued_exactly() -> None:
    """The position is the last deal's first move, and its exact value is the dealer's side's points less
    the other's when both play the solver's line from there; the outlook's value is the search's."""
    script = benchmark("last_deal_values")
    engine = Engine(load_rules("standard"))
    scorer = Scorer(engine)
    state = script.last_deal_start("standard", derive(11, 1), 1)
    assert state is not None and not state.stock and state.turn != state.dealer
    assert [h.bit_count() for h in state.hands] == [4, 4]
    exact, ways = script.values(("standard", derive(11, 1), 1))
    side = state.teams[state.dealer]
    end = state
    for move in Solver(engine, scorer, side, {0: 0, 1: 0}, True).principal_line(state):
        end = engine.apply(end, move)
    points, _ = scorer.hand_points(end, {0: 0, 1: 0}, True)
    assert exact == points[side] - points[1 - side]
    assert ways[0] == Outlook(scorer).lead(state, side, {0: 0, 1: 0}, True, 1.0)
    assert len(ways) == len(script.WAYS)


def test_a_small_run_prints_each_way_and_blend(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    script = benchmark("last_deal_values")
    monkeypatch.setattr(sys, "argv", ["last_deal_values.py", "--hands", "10", "--workers", "1"])
    assert script.main() == 0
    out = capsys.readouterr().out
    assert "10 last-deal starts" in out
    assert all(f"{way}: mean squared error" in out for way in script.WAYS)
    assert out.count("blend ") == len(script.BLENDS)

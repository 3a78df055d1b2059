"""`benchmarks/lead_by_deal.py`: a match's lead split by deal. Its numbers are printed, not asserted;
that the deals' changes add up to the match's points is (its refusals: test_benchmark_arguments)."""

from __future__ import annotations

import sys

import pytest

from cassino.engine.rng import derive
from conftest import benchmark


@pytest.mark.parametrize("variant", ["standard", "kasino-misar"])
def test_the_deals_changes_add_up_to_the_pairs_points(variant: str) -> None:
    lead_by_deal, sparring = benchmark("lead_by_deal"), benchmark("sparring")
    for j in range(2):
        task = (variant, "greedy", "random", derive(1, j))
        changes = lead_by_deal.one_pair(task)
        lead = sparring.one_pair(task)[0]
        assert len(changes) >= 4 and sum(changes) == pytest.approx(lead)
        # the first deal starts level: the table is nobody's yet
        assert lead_by_deal.marks(variant, ("greedy", "random"), task[3])[0][0] == pytest.approx(
            lead_by_deal.marks(variant, ("greedy", "random"), task[3])[0][1])


def test_a_small_match_prints_each_deal_and_the_hand(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["lead_by_deal.py", "--a", "greedy", "--b", "random", "--pairs", "2",
                                      "--workers", "1"])
    assert benchmark("lead_by_deal").main() == 0
    out = capsys.readouterr().out
    assert "deal 1:" in out and "deal 6:" in out and "the hand:" in out

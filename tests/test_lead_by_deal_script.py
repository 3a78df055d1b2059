"""`benchmarks/lead_by_deal.py`: a match's lead split by deal. Its numbers are printed, not asserted;
that the deals' changes add up to the match's points, and its refusals, are."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from cassino.engine.rng import derive
from conftest import ROOT


def _load(name: str) -> ModuleType:
    if str(ROOT / "benchmarks") not in sys.path:   # (the scripts import each other)
        sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("variant", ["standard", "kasino-misar"])
def test_the_deals_changes_add_up_to_the_pairs_points(variant: str) -> None:
    lead_by_deal, sparring = _load("lead_by_deal"), _load("sparring")
    for j in range(2):
        task = (variant, "greedy", "random", derive(1, j))
        changes = lead_by_deal.one_pair(task)
        lead, _, _, _ = sparring.one_pair(task)
        assert len(changes) >= 4 and sum(changes) == pytest.approx(lead)
        # the first deal starts level: the table is nobody's yet
        assert lead_by_deal.marks(variant, ("greedy", "random"), task[3])[0][0] == pytest.approx(
            lead_by_deal.marks(variant, ("greedy", "random"), task[3])[0][1])


@pytest.mark.parametrize("argv, says", [
    (["--pairs", "1"], "2 or more"),
    (["--first", "-1"], "0 or more"),
    (["--workers", "0"], "1 or more"),
    (["--pairs", "x"], "invalid int"),
    (["--a", "no-such-player"], "no-such-player"),
    (["--variant", "no-such-variant"], "no-such-variant"),
    (["--variant", "scopone"], "not played by 2 players"),
])
def test_bad_arguments_are_refused_with_a_reason(argv: list[str], says: str, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["lead_by_deal.py", *argv])
    with pytest.raises(SystemExit) as stop:
        _load("lead_by_deal").main()
    assert stop.value.code == 2 and says in capsys.readouterr().err


def test_a_small_match_prints_each_deal_and_the_hand(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["lead_by_deal.py", "--a", "greedy", "--b", "random", "--pairs", "2",
                                      "--workers", "1"])
    assert _load("lead_by_deal").main() == 0
    out = capsys.readouterr().out
    assert "deal 1:" in out and "deal 6:" in out and "the hand:" in out

"""Load: 50 tables at once on loopback, people scripted and computer players, every record intact afterwards.

The work is `benchmarks/web_load.py` (which prints the same numbers from the
command line); the test bounds it in time and prints the moves per second.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from conftest import benchmark  # noqa: E402


def test_fifty_tables_at_once_and_every_record_intact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = benchmark("web_load").run_load(tables=50, hands=1, timeout=150, folder=tmp_path / "records")
    assert result["tables"] == 50 and result["moves"] >= 50 * 48
    with capsys.disabled():
        print(f"\n[web load] 50 tables: {result['moves']} moves in {result['seconds']} s, "
              f"{result['moves_per_second']} moves per second")


def test_another_tables_latency_beside_the_big_table_file_and_while_watchers_join(capsys: pytest.CaptureFixture[str]) -> None:
    """`web_load.py --latency`, smaller: its three phases run, the big-table file (or the largest deal of it the
    lobby takes) is played meanwhile, and the watchers joining send nothing to the first one. Times are printed,
    not asserted."""
    r = benchmark("web_load").run_latency(moves=10, watchers=60, timeout=240)
    assert r["alone"]["moves"] == r["big_table"]["moves"] == r["watchers"]["moves"] == 10
    assert r["big_table"]["its_moves"] > 0 and 1 <= r["big_table"]["table_cards"] <= 100
    assert r["watchers"]["first_watcher_got"] == {"messages": 0, "bytes": 0}
    with capsys.disabled():
        print(f"\n[web latency] p90 alone {r['alone']['p90']} ms, beside the big table {r['big_table']['p90']} ms, "
              f"while 60 watchers join {r['watchers']['p90']} ms")


def test_another_tables_latency_beside_heavy_tables_asking_hints(capsys: pytest.CaptureFixture[str]) -> None:
    """`web_load.py --fairness`, smaller: an ordinary table's moves are measured alone and beside two tables of
    the issue's heavy file whose person asks a hint at every turn and plays it; every move is answered and the
    server stops cleanly (no traceback). Times are printed, not asserted."""
    r = benchmark("web_load").run_fairness(moves=8, heavy=(2,), timeout=400, settle=2.0)
    beside = r["beside_2"]
    assert r["alone"]["moves"] == beside["moves"] == 8 and beside["heavy"] == 2
    assert beside["hints"] >= beside["hints_cut"] + beside["hints_given_up"]
    with capsys.disabled():
        print(f"\n[web fairness] p90 alone {r['alone']['p90']} ms, beside 2 heavy tables asking hints "
              f"{beside['p90']} ms ({beside['hints']} hints answered meanwhile)")

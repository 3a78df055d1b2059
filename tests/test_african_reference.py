"""The engine's legal moves in African Casino agree with the clean-room reference (``african_reference``,
written from the rule texts alone) on every position of fixed random games, but for the readings the
variant files declare (``african_compare.DECLARED``). The reference's own errors, where the texts
decided against it (``african_compare.REFERENCE_ERRORS``), were written up for its clean-room author
and corrected by them; none is left. And the comparison can fail: a reference that misses a class of
legal moves, or lists an illegal one, is reported (issue 49).

The slice is seeds 1 and 2 of every seating (about 1,400 positions, some seconds); ``benchmarks/african_compare.py``
runs as many seeds as asked.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import african_compare as ac
import african_reference
from conftest import benchmark

SEEDS = range(1, 3)


@pytest.fixture(scope="module")
def tally() -> ac.Tally:
    return ac.run(ac.SEATINGS, SEEDS)


def test_the_slice_compares_every_seating_on_many_positions(tally: ac.Tally) -> None:
    assert tally.positions > 500
    assert set(tally.by_seating) == set(ac.SEATINGS) and min(tally.by_seating.values()) >= 30


def test_every_disagreement_is_a_declared_reading_or_a_known_reference_error(tally: ac.Tally) -> None:
    unexplained = [str(d) for d in tally.found if ac.classify(d) == "unexplained"]
    assert not unexplained, "\n".join(unexplained[:5])


def test_no_undeclared_disagreement(tally: ac.Tally) -> None:
    """Every disagreement is a reading a variant file declares (the reference's two errors the texts decided,
    written up for its clean-room author, are corrected there)."""
    assert not tally.undeclared, "\n".join(str(d) for d in tally.undeclared[:5])
    assert not any(ac.classify(d).startswith("reference error") for d in tally.found)


def test_each_declared_reading_is_the_variant_files_own_words() -> None:
    from cassino.language.variants import load_rules

    texts = {r.text for v in ("swazi-casino", "south-african-casino") for r in load_rules(v).readings}
    assert ac.DECLARED and all(reading in texts for _, reading, _ in ac.DECLARED)


def test_no_disagreement_falls_in_two_classes(tally: ac.Tally) -> None:
    tests = ac.DECLARED + ac.REFERENCE_ERRORS
    for d in tally.found:
        assert sum(1 for _, _, test in tests if test(d)) <= 1, str(d)


# ---------------------------------------------------------------------- mutations: the comparison can fail
def _mutant_slice(reference: Any) -> ac.Tally:
    return ac.run((("swazi-casino", 2, False), ("south-african-casino", 4, True)), SEEDS, max_positions=120,
                  reference=reference)


def test_a_reference_that_misses_the_captures_is_reported() -> None:
    def no_captures(position: dict[str, Any]) -> set[str]:
        return {m for m in african_reference.legal_moves(position) if " capture " not in m}

    found = _mutant_slice(no_captures).found
    missed = [d for d in found if d.engine_says and " capture " in d.move]
    assert missed
    assert all(ac.classify(d) == "unexplained" and ac.declared(d) is None for d in missed)


def test_a_reference_that_lists_an_illegal_capture_is_reported() -> None:
    values = {"A": 1, "J": 11, "Q": 12, "K": 13}

    def worth(card: str) -> int:
        return values.get(card[:-1]) or int(card[:-1])

    def with_a_wrong_capture(position: dict[str, Any]) -> set[str]:
        moves = set(african_reference.legal_moves(position))
        for h in position["hand"]:
            for t in position["table"]:
                if worth(h) != worth(t) and worth(h) != 1 and worth(t) != 1:
                    moves.add(f"{h} capture {t}")   # a card that does not match taken by it
                    return moves
        return moves

    found = _mutant_slice(with_a_wrong_capture).found
    wrong = [d for d in found if not d.engine_says and " capture " in d.move]
    assert wrong
    assert all(ac.classify(d) == "unexplained" for d in wrong)


# ---------------------------------------------------------------------- the benchmark script's arguments
@pytest.mark.parametrize("argv, says", [
    (["--seeds", "0"], "0 is below 1"),
    (["--seeds", "many"], "not a whole number"),
    (["--first", "-1"], "below 0"),
    (["--players", "5"], "player counts from 2, 3, 4"),
    (["--players", "2,x"], "player counts from 2, 3, 4"),
    (["--players", ""], "player counts from 2, 3, 4"),
    (["--variants", "royal"], "'royal' is not compared"),
    (["--variants", "swazi-casino,nothing"], "'nothing' is not compared"),
    (["--examples", "-2"], "below 0"),
    (["--unknown"], "unrecognized arguments"),
])
def test_the_benchmark_refuses_a_bad_argument(argv: list[str], says: str, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["african_compare.py", *argv])
    with pytest.raises(SystemExit) as stop:
        benchmark("african_compare").main()
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_the_benchmark_prints_its_numbers(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["african_compare.py", "--seeds", "1", "--players", "2",
                                      "--variants", "south-african-casino", "--examples", "0"])
    assert benchmark("african_compare").main() == 0
    out = capsys.readouterr().out
    assert "positions compared" in out and "undeclared:" in out and "time:" in out
    assert "unexplained: 0)" in out


def test_the_listing_benchmark_prints_its_numbers(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["african_listing.py", "--games", "1", "--players", "2",
                                      "--variant", "south-african-casino"])
    benchmark("african_listing").main()
    out = capsys.readouterr().out
    assert "south-african-casino 2p: " in out and " positions, median " in out
    assert "15 loose cards" in out or "loose cards, hand" in out


def test_the_listing_benchmark_counts_keys_and_compares_them_with_a_record(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # --keys: generated and kept keys along games drawn from the sorted listing; --record writes the kept keys,
    # --against compares with them: the same engine keeps every set and every order.
    script = benchmark("african_listing")
    record = tmp_path / "before.json"
    base = ["african_listing.py", "--keys", "--games", "1", "--players", "2", "--variant", "swazi-casino"]
    monkeypatch.setattr(sys, "argv", base + ["--record", str(record)])
    script.main()
    out = capsys.readouterr().out
    assert "swazi-casino 2p: " in out and " keys generated, " in out and f"written to {record}" in out
    positions = int(out.split("swazi-casino 2p: ")[1].split(" positions")[0].replace(",", ""))
    assert positions > 20
    monkeypatch.setattr(sys, "argv", base + ["--against", str(record)])
    script.main()
    out = capsys.readouterr().out
    assert f"the same kept keys at {positions:,} positions, in the same order at {positions:,}" in out
    # a record whose keys differ at one position is caught
    doc = json.loads(record.read_text())
    rows = doc["seatings"]["swazi-casino 2p"]
    row = next(r for r in rows if len(r[1]) > 1)
    row[1] = row[1][1:]
    record.write_text(json.dumps(doc))
    script.main()
    assert f"the same kept keys at {positions - 1:,} positions" in capsys.readouterr().out
    # other games: said so, not compared
    monkeypatch.setattr(sys, "argv", base + ["--against", str(record), "--seed", "9"])
    script.main()
    assert "not the same games" in capsys.readouterr().out


@pytest.mark.parametrize("content, says", [
    (None, "cannot read it"),
    ("{not json", "not JSON"),
    ('{"format": "something else", "seatings": {}}', "not a record of --record"),
    ('{"format": "cassino-african-listing/1", "seatings": {"swazi-casino 2p": [[3, ["x"]]]}}', "not a record"),
    ('[1, 2]', "not a record of --record"),
])
def test_the_listing_benchmark_refuses_a_record_it_cannot_read(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: str | None, says: str) -> None:
    record = tmp_path / "before.json"
    if content is not None:
        record.write_text(content)
    monkeypatch.setattr(sys, "argv", ["african_listing.py", "--keys", "--games", "1", "--players", "2",
                                      "--variant", "swazi-casino", "--against", str(record)])
    with pytest.raises(SystemExit) as caught:
        benchmark("african_listing").main()
    assert says in str(caught.value) and str(record) in str(caught.value)


def test_the_listing_benchmark_says_when_it_cannot_write_its_record(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "argv", ["african_listing.py", "--keys", "--games", "1", "--players", "2",
                                      "--variant", "swazi-casino", "--record", str(tmp_path / "no" / "such" / "x.json")])
    with pytest.raises(SystemExit) as caught:
        benchmark("african_listing").main()
    assert "cannot write it" in str(caught.value)

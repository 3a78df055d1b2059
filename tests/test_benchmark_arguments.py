"""The benchmark scripts refuse a bad argument with its reason and exit 2, before any work
(`benchmarks/arguments.py`'s types; the match scripts' own checks are tested beside them)."""

from __future__ import annotations

import argparse
import math
import sys

import pytest

from conftest import benchmark

#: The optional packages a script imports (CI installs them; elsewhere its cases are skipped).
NEEDS = {"env_speed": ("pyspiel", "pettingzoo"), "ismcts_vs_search": ("open_spiel",),
         "web_load": ("starlette", "websockets")}


@pytest.mark.parametrize("script, argv, says", [
    ("engine_speed", ["--hands", "0"], "0 is below 1"),
    ("engine_speed", ["--games", "x"], "'x' is not a whole number"),
    ("engine_speed", ["--memory-hands", "-5"], "below 1"),
    ("env_speed", ["--seconds", "nan"], "above 0"),
    ("env_speed", ["--seconds", "-1"], "above 0"),
    ("env_speed", ["--walks", "-1"], "below 0"),
    ("env_speed", ["--variant", "no-such-variant"], "no-such-variant"),
    ("inference_quality", ["--hands", "0"], "below 1"),
    ("inference_quality", ["--temperatures", "0.4,-1"], "above 0"),
    ("inference_quality", ["--temperatures", "0.4,x"], "not comma-separated numbers"),
    ("inference_quality", ["--kinds", "0,0"], "give 3 numbers"),
    ("inference_quality", ["--kinds", "0,inf,0"], "finite"),
    ("ismcts_vs_search", ["--search", "nobody"], "no computer player named 'nobody'"),
    ("ismcts_vs_search", ["--simulations", "0"], "below 1"),
    ("ismcts_vs_search", ["--workers", "0"], "below 1"),
    ("ismcts_vs_search", ["--variant", "no-such-variant"], "no-such-variant"),
    ("review_speed", ["--games", "0"], "below 1"),
    ("review_speed", ["--deals", "many"], "not a whole number"),
    ("startup", ["--runs", "0"], "below 1"),
    ("web_load", ["--tables", "0"], "below 1"),
    ("web_load", ["--timeout", "inf"], "above 0"),
    ("web_load", ["--watchers", "-1"], "below 0"),
    ("web_load", ["--variant", "no-such-variant"], "no-such-variant"),
    ("bounded_positions", ["--rounds", "0"], "below 1"),
])
def test_a_bad_argument_is_refused_with_its_reason(script: str, argv: list[str], says: str,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for package in NEEDS.get(script, ()):
        pytest.importorskip(package)
    monkeypatch.setattr(sys, "argv", [f"{script}.py", *argv])
    with pytest.raises(SystemExit) as stop:
        benchmark(script).main()
    err = capsys.readouterr().err
    assert stop.value.code == 2 and says in err and "Traceback" not in err


def test_the_types_read_good_values() -> None:
    arguments = benchmark("arguments")
    assert arguments.count(0)("0") == 0 and arguments.count(1)("12") == 12
    assert arguments.seconds("0.5") == 0.5
    assert arguments.numbers(3)("0,-1.5,2") == [0.0, -1.5, 2.0]
    assert arguments.numbers(positive=True)("0.25,1") == [0.25, 1.0]
    assert arguments.variant("standard") == "standard"
    for bad in ("0", "nan", "inf", "-inf", "x", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            arguments.seconds(bad)
    assert not math.isnan(arguments.seconds("1e-3"))

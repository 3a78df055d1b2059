"""The benchmark scripts refuse a bad argument with its reason and exit 2, before any work
(`benchmarks/arguments.py`'s types, and the checks of the match scripts, which share
`sparring.checked_args`, and of bot_strength.py, fit_playout_policy.py, last_deal_values.py and
search_speed.py)."""

from __future__ import annotations

import argparse
import math
import sys

import pytest

from conftest import benchmark

#: The optional packages a script imports (CI installs them; elsewhere its cases are skipped).
NEEDS = {"env_speed": ("pyspiel", "pettingzoo"), "soak": ("pyspiel", "pettingzoo"),
         "ismcts_vs_search": ("open_spiel",), "web_load": ("starlette", "websockets")}


@pytest.mark.parametrize("script, argv, says", [
    ("engine_speed", ["--hands", "0"], "0 is below 1"),
    ("african_listing", ["--games", "0"], "0 is below 1"),
    ("african_compare", ["--heavy"], "--heavy compares whole turns: give --whole-turns too"),
    ("african_listing", ["--players", "5"], "player counts are 2 to 4"),
    ("african_listing", ["--players", "two"], "is not comma-separated player counts"),
    ("african_listing", ["--variant", "nowhere"], "nowhere"),
    ("african_listing", ["--record", "x.json"], "--record and --against go with --keys"),
    ("african_listing", ["--against", "x.json"], "--record and --against go with --keys"),
    ("engine_speed", ["--games", "x"], "'x' is not a whole number"),
    ("engine_speed", ["--memory-hands", "-5"], "below 1"),
    ("engine_speed", ["--choice", "random"], "invalid choice"),
    ("env_speed", ["--seconds", "nan"], "above 0"),
    ("env_speed", ["--seconds", "-1"], "above 0"),
    ("env_speed", ["--walks", "-1"], "below 0"),
    ("env_speed", ["--batch", "-2"], "below 0"),
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
    ("search_speed", ["--cases", "standard"], "variant:players"),
    ("search_speed", ["--cases", "standard:x"], "variant:players"),
    ("search_speed", ["--cases", ":2"], "variant:players"),
    ("search_speed", ["--cases", "standard:1"], "variant:players"),
    ("search_speed", ["--hands", "0"], "1 or more"),
    ("search_speed", ["--rounds", "-1"], "1 or more"),
    ("search_speed", ["--hands", "two"], "invalid int"),
    ("search_speed", ["--hands", "1", "--cases", "no-such-variant:2"], "no-such-variant"),
    ("search_speed", ["--hands", "1", "--cases", "standard:5"], "2 to 4 players"),
    ("search_speed", ["--cases", "standard:4:both"], "variant:players[:partners|:alone]"),
    ("search_speed", ["--cases", "royal:3:partners"], "royal has no seating royal:3:partners; it has royal:2"),
    ("search_speed", ["--cases", "scopone:4:alone"], "no seating scopone:4:alone"),
    ("search_speed", ["--all", "--cases", "standard:2"], "give --all or --cases, not both"),
    ("search_speed", ["--player", "nobody"], "--player: no computer player named 'nobody'"),
    ("search_speed", ["--player", "custom:64:depth=0"], "depth is fitted or hands or deal"),
    ("search_speed", ["--player", "custom:64:crowd=-2"], "crowd is a number of loose table cards"),
    ("search_speed", ["--player", "custom:64:crowd=many"], "crowd is a number of loose table cards"),
    ("search_speed", ["--player", "custom:64:exact_positions=0"], "exact_positions is a number of positions"),
    ("search_speed", ["--player", "custom:64:exact_positions=lots"], "exact_positions is a number of positions"),
    ("search_speed", ["--over", "0"], "above 0"),
    ("search_speed", ["--over", "inf"], "above 0"),
    ("search_speed", ["--over", "x"], "invalid float"),
    ("bot_strength", ["--cap", "0"], "--cap is 1 or more"),
    ("bot_strength", ["--workers", "0"], "--workers is 1 or more"),
    ("bot_strength", ["--positions", "-1"], "--positions is 1 or more"),
    ("bot_strength", ["--min", "50", "--cap", "40"], "at most --cap"),
    ("bot_strength", ["--cap", "x"], "invalid int"),
    ("bot_strength", ["--players", "1"], "N from 2 to 8, not '1'"),
    ("bot_strength", ["--players", "9:alone"], "N from 2 to 8, not '9:alone'"),
    ("bot_strength", ["--players", "8"], "--players 8: no bundled variant is played by it"),
    ("bot_strength", ["--players", "6,6"], "each seating once"),
    ("bot_strength", ["--players", "4,4:partners"], "each seating once"),
    ("bot_strength", ["--players", "2,"], "not ''"),
    ("bot_strength", ["--players", "six"], "not 'six'"),
    ("bot_strength", ["--players", "4:both"], "N, N:alone or N:partners"),
    ("bot_strength", ["--variants", "standard", "--players", "6"],
     "--players 6: standard is not played by 6 (it is by 2, 3, 4:alone, 4)"),
    ("bot_strength", ["--variants", "krypkasino,scopone", "--players", "2,6"], "scopone is not played by 2"),
    ("bot_strength", ["--variants", "scopone", "--players", "4:alone"], "scopone is not played by 4:alone"),
    ("bot_strength", ["--variants", "no-such-variant"], "no-such-variant"),
    ("bot_strength", ["--pairings", "bogus"], "no pairing named 'bogus'"),
    ("bot_strength", ["--pairings", "search-vs-"], "no pairing named"),
    ("bot_strength", ["--pairings", "nobody-vs-greedy"], "no computer player named 'nobody'"),
    ("bot_strength", ["--new", "custom:64"], "custom:N:SETTING=VALUE"),
    ("bot_strength", ["--new", "custom:64:settle"], "SETTING=VALUE"),
    ("bot_strength", ["--new", "custom:64:no_such_setting=1"], "no_such_setting"),
    ("bot_strength", ["--new", "custom:64:settle=-1"], "settle"),
    ("bot_strength", ["--today", "plain:x"], "plain:N"),
    ("bot_strength", ["--today", "fixed:0"], "fixed:N"),
    ("bot_strength", ["--regret", "--judged", "greedy,old:"], "old:N"),
    ("last_deal_values", ["--hands", "9"], "10 or more"),
    ("last_deal_values", ["--workers", "0"], "1 or more"),
    ("last_deal_values", ["--hands", "x"], "invalid int"),
    ("last_deal_values", ["--variant", "no-such-variant"], "no-such-variant"),
    ("last_deal_values", ["--variant", "scopone"], "not played by 2 players"),
    ("fit_playout_policy", ["--hands", "1"], "below 2"),
    ("fit_playout_policy", ["--workers", "0"], "below 1"),
    ("fit_playout_policy", ["--playouts", "random"], "invalid choice"),
    ("fit_playout_policy", ["--weights", "1,2,3"], "give 12 numbers"),
    ("fit_playout_policy", ["--weights", ",".join(["nan"] * 12)], "finite"),
    ("fit_playout_policy", ["--weights", ",".join(["1"] * 12), "--playouts", "fitted"], "not allowed with"),
    ("fit_playout_policy", ["--variant", "no-such-variant"], "no-such-variant"),
    ("fit_playout_policy", ["--variant", "scopone"], "not played by 2 players"),
    ("sparring", ["--pairs", "1"], "2 or more"),
    ("sparring", ["--first", "-1"], "0 or more"),
    ("sparring", ["--workers", "0"], "1 or more"),
    ("sparring", ["--pairs", "x"], "invalid int"),
    ("sparring", ["--a", "no-such-player"], "no-such-player"),
    ("sparring", ["--b", "today:no-such-idea"], "no-such-idea"),
    ("sparring", ["--a", "trial:no-such-idea:64"], "no-such-idea"),
    ("sparring", ["--a", "trial:counter"], "trial:IDEA:N"),
    ("sparring", ["--a", "trial:counter:0"], "trial:IDEA:N"),
    ("sparring", ["--b", "sparring:x"], "sparring:N"),
    ("sparring", ["--b", "sparring:0"], "sparring:N"),
    ("sparring", ["--variant", "no-such-variant"], "no-such-variant"),
    ("sparring", ["--variant", "scopone"], "not played by 2 players"),
    ("sparring", ["--variant", "scopa", "--b", "esperto:x"], "esperto:N"),
    ("sparring", ["--variant", "scopa", "--b", "esperto:0"], "esperto:N"),
    ("sparring", ["--variant", "standard", "--b", "esperto"], "Scopa's captures"),
    ("sparring", ["--variant", "escoba", "--a", "esperto:3"], "Scopa's captures"),
    ("lead_by_deal", ["--pairs", "1"], "2 or more"),
    ("lead_by_deal", ["--first", "-1"], "0 or more"),
    ("lead_by_deal", ["--workers", "0"], "1 or more"),
    ("lead_by_deal", ["--pairs", "x"], "invalid int"),
    ("lead_by_deal", ["--a", "no-such-player"], "no-such-player"),
    ("lead_by_deal", ["--b", "today:no-such-idea"], "no-such-idea"),
    ("lead_by_deal", ["--a", "trial:no-such-idea:64"], "no-such-idea"),
    ("lead_by_deal", ["--a", "trial:counter"], "trial:IDEA:N"),
    ("lead_by_deal", ["--a", "trial:counter:0"], "trial:IDEA:N"),
    ("lead_by_deal", ["--b", "sparring:x"], "sparring:N"),
    ("lead_by_deal", ["--b", "sparring:0"], "sparring:N"),
    ("lead_by_deal", ["--variant", "no-such-variant"], "no-such-variant"),
    ("lead_by_deal", ["--variant", "scopone"], "not played by 2 players"),
    ("soak", [], "give --minutes N"),
    ("soak", ["--minutes", "0"], "minutes above 0"),
    ("soak", ["--minutes", "nan"], "minutes above 0"),
    ("soak", ["--minutes", "x"], "minutes above 0"),
    ("soak", ["--minutes", "1", "--seed", "-1"], "below 0"),
    ("soak", ["--minutes", "1", "--run-minutes", "-2"], "minutes above 0"),
    ("soak", ["--minutes", "1", "--variant", "no-such-variant"], "no-such-variant"),
    ("soak", ["--minutes", "1", "--variant", "tests/bad/missing.yaml"], "missing.yaml"),
    ("soak", ["--minutes", "1", "--variant", "tests/bad/duplicate-key.yaml"], "duplicate-key.yaml"),
    ("soak", ["--minutes", "1", "--game-seed", "3"], "go with --replay"),
    ("soak", ["--replay", "standard:2"], "needs --game-seed"),
    ("soak", ["--replay", "standard", "--game-seed", "1"], "VARIANT:PLAYERS"),
    ("soak", ["--replay", "standard:5", "--game-seed", "1"], "no seating 'standard:5'"),
    ("soak", ["--replay", "scopone:4", "--game-seed", "1"], "scopone:4:partners"),
    ("soak", ["--replay", "nowhere:2", "--game-seed", "1"], "nowhere"),
    ("soak", ["--replay", "standard:2", "--game-seed", "1", "--minutes", "1"], "leave out --minutes"),
    ("soak", ["--replay", "standard:2", "--game-seed", "1", "--rotation", "3"], "invalid choice"),
])
def test_a_bad_argument_is_refused_with_its_reason(script: str, argv: list[str], says: str,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for package in NEEDS.get(script, ()):
        pytest.importorskip(package)
    monkeypatch.setattr(sys, "argv", [f"{script}.py", *argv])
    try:
        code = benchmark(script).main()   # (a refusal found after parsing may be returned)
    except SystemExit as stop:            # (argparse's refusals)
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err


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

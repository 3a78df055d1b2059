"""Whole turns of several actions in African Casino agree with a second implementation written from the
rule texts alone (``african_turns_reference``): at every turn start of fixed random games (discards preferred
half the time, so layouts grow), every result a turn can leave (the mover's hand, the layout, the builds
with their values, owners and kinds, the cards left on each pile, what the side captured) is reached by the
engine's actions in some order exactly when the reference lists it, but for readings a variant file declares
(``african_turns_compare.DECLARED``). And the comparison can fail: a reference that misses a result, or
lists one the rules forbid, is reported.

The slice is seed 1 of every seating (some 600 turn starts, seconds), and seeds 1-2 of the heavier tables
(9 to 12 cards in play, some 130 turn starts); ``benchmarks/african_compare.py --whole-turns [--heavy]`` runs as
many seeds as asked.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from cassino.engine.core import Engine
from cassino.engine.notation import format_move

import african_turns_compare as atc
import african_turns_reference
from conftest import benchmark

SEEDS = range(1, 2)


@pytest.fixture(scope="module")
def tally() -> atc.Tally:
    return atc.run(atc.SEATINGS, SEEDS)


def test_the_slice_compares_every_seating_on_many_turns(tally: atc.Tally) -> None:
    assert tally.positions > 400 and tally.results > 10 * tally.positions
    assert set(tally.by_seating) == set(atc.SEATINGS) and min(tally.by_seating.values()) >= 15


def test_no_undeclared_difference(tally: atc.Tally) -> None:
    assert not tally.undeclared, "\n".join(str(d) for d in tally.undeclared[:5])


def test_heavier_tables_have_no_undeclared_difference() -> None:
    """Turn starts with 9 to 12 cards in play, which the slice above leaves out (where a capture can reach
    past a pile's fourth card)."""
    heavy = atc.run(atc.SEATINGS, range(1, 3), trail_bias=atc.HEAVY_TRAIL_BIAS, in_play=atc.HEAVY)
    assert heavy.positions > 100 and len(heavy.by_seating) >= 6
    assert not heavy.undeclared, "\n".join(str(d) for d in heavy.undeclared[:5])


def test_a_capture_past_the_pile_reach_is_the_files_reading_and_no_other() -> None:
    """South African 2 players, seed 296, ply 40 (found on the heavier tables): the reference captures five
    cards of the opponent's pile with one card, which the file's `capture.pile_reach` (four) forbids; the
    difference is classed under that reading, and with a deeper reach the engine reaches that very result."""
    for engine, ply, hand in atc.positions("south-african-casino", 2, False, 296, atc.HEAVY_TRAIL_BIAS, atc.HEAVY):
        if ply == 40:
            break
    else:
        pytest.fail("the game no longer reaches ply 40 with a heavy table")
    got = atc.compare(engine, "south-african-casino", hand)
    assert got is not None
    mine, theirs, plain = got
    reach = next(name for name, _, test in atc.DECLARED if name.startswith("capture.pile_reach"))
    beyond = [o for o in theirs - mine
              if atc.declared(atc.Difference("south-african-casino", 2, False, 296, 40, o, False, plain,
                                             frozenset(mine))) == reach]
    assert beyond
    deeper = Engine(engine.rules)
    assert set(beyond) <= atc.engine_whole_turns(deeper, hand.with_(pile_reach=20))


def test_a_player_one_card_short_for_two_builds_takes_either_or_plays_another_card() -> None:
    """Swazi Casino, four in partnerships, seed 8708, ply 297 (found on fresh seeds): the partner built a 14 for seat 0,
    whose one ace was kept for its build of 1. No move kept a card for each build, so the listing fell back to
    discards alone, the ace too, abandoning both. Now the ace takes either build, or another card is discarded; no
    build is made while short; the differences left with the reference (which lets the ace answer both) are the
    file's reading of `build.keep_capturing_card`, and the turn that discards the ace is gone."""
    for engine, ply, hand in atc.positions("swazi-casino", 4, True, 8708, 0.5):
        if ply == 297:
            break
    else:
        pytest.fail("the game no longer reaches ply 297")
    listed = {format_move(m, engine.deck) for m in engine.legal_moves(hand)}
    assert listed == {"AC capture [AS AH]", "AC capture [4H 10S]", "2H trail", "7D trail"}
    got = atc.compare(engine, "swazi-casino", hand)
    assert got is not None
    mine, theirs, plain = got
    assert not any("AC" in o[1] for o in mine)   # (no turn leaves the ace on the layout)
    short = next(name for name, _, test in atc.DECLARED if name.startswith("build.keep_capturing_card"))
    for outcomes, says in ((mine - theirs, True), (theirs - mine, False)):
        for o in outcomes:
            d = atc.Difference("swazi-casino", 4, True, 8708, 297, o, says, plain, frozenset(theirs if says else mine))
            assert atc.declared(d) == short


def test_turns_of_several_actions_are_among_those_compared() -> None:
    """Not only one card from the hand and the end: many results are reached only by building with cards in
    play beside the hand's card (before or after it)."""
    several = 0
    for variant, players, partners in atc.SEATINGS:
        for engine, _, hand in atc.positions(variant, players, partners, 1, 0.5):
            several += len(atc.engine_whole_turns(engine, hand) - atc.engine_one_action_turns(engine, hand))
    assert several > 1000


def test_a_reference_that_misses_a_result_is_reported() -> None:
    def missing(position: dict[str, Any]) -> set[atc.Outcome]:
        found = african_turns_reference.whole_turns(position)
        return set(sorted(found)[1:])

    tally = atc.run(atc.SEATINGS[:1], SEEDS, reference=missing)
    assert tally.undeclared and all(d.engine_says for d in tally.undeclared)


def test_a_reference_that_lists_a_forbidden_result_is_reported() -> None:
    """A result that keeps the played card in the hand: no turn leaves the hand as it was."""
    def too_many(position: dict[str, Any]) -> set[atc.Outcome]:
        found = african_turns_reference.whole_turns(position)
        hand = tuple(sorted(position["hand"]))
        return found | {(hand, tuple(sorted(position["table"])), (), (), ())}

    tally = atc.run(atc.SEATINGS[:1], SEEDS, reference=too_many)
    assert tally.undeclared and not any(d.engine_says for d in tally.undeclared)


def test_the_benchmark_compares_whole_turns(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    module = benchmark("african_compare")
    monkeypatch.setattr(sys, "argv", ["african_compare.py", "--whole-turns", "--seeds", "1", "--players", "2",
                                      "--variants", "south-african-casino"])
    assert module.main() == 0
    out = capsys.readouterr().out
    assert "turn starts compared" in out and "undeclared: 0" in out, out


def test_the_compared_files_are_where_the_benchmark_finds_them() -> None:
    here = Path(__file__).parent
    assert (here / "african_turns_compare.py").is_file() and (here / "african_turns_reference.py").is_file()

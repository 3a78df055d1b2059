"""The exact solver values a finished hand as the score does, in every bundled variant and seating.

The solver reads a finished line of play's points through the outlook's compiled count
(``Outlook.lead`` of a hand that is over) rather than ``Scorer.hand_points``'s dicts; the two must agree for every side,
under every endgame restriction a variant has (a side whose score names one scores only its items), with
restrictions off, and where sweeps stop counting from a score (the side's own or any side's)."""

from __future__ import annotations

import random

import pytest

from cassino.apps.authors.matrix import Seating, seatings
from cassino.engine.core import Engine
from cassino.engine.scoring import Scorer
from cassino.engine.state import HandState
from cassino.language.variants import load_rules
from cassino.players.outlook import Outlook
from cassino.players.solver import Solver

SEATINGS = seatings()


def _by_the_score(scorer: Scorer, state: HandState, side: int, scores: dict[int, int], on: bool) -> int:
    """The solver's value of a finished hand, worked out from ``Scorer.hand_points`` (as it was before)."""
    points, _ = scorer.hand_points(state, scores, on)
    if scorer.rules.game.goal == "lowest":
        points = {s: -p for s, p in points.items()}
    others = [p for s, p in points.items() if s != side]
    return points.get(side, 0) - (max(others) if others else 0)


def _score_sets(scorer: Scorer, sides: tuple[int, ...], rng: random.Random) -> list[dict[int, int]]:
    """Scores before the hand: none, each restriction's score on one side (the others anywhere), and the
    score sweeps stop counting from."""
    endgame = scorer.rules.endgame
    marks = sorted({r.score for r in endgame.restrictions} | ({endgame.sweeps_from} if endgame.sweeps_from else set()))
    out: list[dict[int, int]] = [{}]
    for mark in marks:
        for held in sides:
            out.append({s: mark if s == held else rng.randrange(0, max(mark, 1) + 3) for s in sides})
    return out


@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.label)
def test_the_solvers_value_of_a_finished_hand_is_the_scores(seating: Seating) -> None:
    variant, players, partners = seating.variant, seating.players, seating.partners
    engine = Engine(load_rules(variant))
    scorer = Scorer(engine)
    outlook = Outlook(scorer)
    rng = random.Random(f"{variant}:{players}:{partners}")
    checked = 0
    for hand in range(2):
        state = engine.start(rng.randrange(1 << 30), players, partners=partners)
        while not state.over:
            state = engine.apply(state, rng.choice(engine.legal_moves(state)))
        for scores in _score_sets(scorer, state.sides, rng):
            for on in (True, False):
                for side in state.sides:
                    expected = _by_the_score(scorer, state, side, scores, on)
                    # (a fresh solver each time, with and without the outlook handed to it: nothing remembered)
                    assert Solver(engine, scorer, side, scores, on).final_value(state) == expected
                    assert Solver(engine, scorer, side, scores, on, outlook=outlook).final_value(state) == expected
                    checked += 1
    assert checked >= 2 * 2 * len(state.sides)

"""Tests of the clean-room scoring reference (tests/scoring_reference.py) and its comparison with the engine.

(a) worked examples of the rule texts, asserted on the reference (and then run through the engine);
(b) a CI slice: a few hundred random finished hands of every variant and scoring house rule, written
    with the reference's hand points as `expect` and run by `cassino check` (exit 0);
(c) the comparison can fail: a wrong expectation, and a reference that forgets one item, are caught.
"""

from __future__ import annotations

import os
import random
import re
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import scoring_reference as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def spades(*ranks: str) -> list[str]:
    return [r + "S" for r in ranks]


# ---------------------------------------------------------------------------------------------------
# (a) the texts' worked examples

EXAMPLES = [
    # 002 Dominican: "player A has 19 points and player B has 15, if player A takes most cards and two
    # Aces makes two sweeps ..., while player B scores most spades, diamond10, spade2 and two Aces,
    # player A scores nothing while player B scores 6 points and wins the game with 21."
    ("002 Dominican, A at 19 scores nothing, B 6", "dominican",
     dict(scores={0: 19, 1: 15}, sweeps={0: 2},
          captured={1: ["AS", "AC", "10D", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"], 0: "rest"}),
     {0: 0, 1: 6}),
    # 002 Dominican: at 20 "can only win by capturing most Spades (1 point)": it scores that 1 only.
    ("002 Dominican, at 20 most spades scores 1", "dominican",
     dict(scores={0: 20, 1: 3}, sweeps={0: 1},
          captured={0: spades("A", "2", "3", "4", "5", "6", "7") + ["10D", "AH"], 1: "rest"}),
     {0: 1, 1: 3 + 2}),
    # 002 Soto: "from 17 you can score 4 points and get to 21 immediately by taking most cards and most
    # Spades"; the 10D and aces it takes do not count.
    ("002 Soto, 17 scores cards and spades only", "dominican-soto",
     dict(scores={0: 17, 1: 5},
          captured={1: ["10D", "AH", "2H", "3H", "4H"], 0: "rest"}),
     {0: 4, 1: 3}),
    # 002 Dominican sweeps: "when both players ... have at least one sweep, each ... turns one ... face
    # down": 3 against 1 leaves 2; from 18 "cannot score for sweeps, but can still use sweeps to cancel".
    ("002 Dominican, sweeps cancel, 3 against 1", "dominican",
     dict(sweeps={0: 3, 1: 1}, captured={0: ["AS"], 1: "rest"}), {0: 3, 1: 10}),
    ("002 Dominican, a side at 18 cancels but scores no sweep", "dominican",
     dict(scores={0: 18, 1: 0}, sweeps={0: 1, 1: 2}, captured={0: ["AS"], 1: "rest"}), {0: 0, 1: 11}),
    # 000 Scoring: "There are eleven possible points in each hand"; a tie for cards scores nobody.
    ("000 eleven points", "standard",
     dict(captured={0: ["AS", "AH", "10D"], 1: "rest"}), {0: 4, 1: 7}),
    ("000 a tie for most cards scores nobody", "standard",
     dict(captured={0: [r + s for s in "SH" for r in ref.STD_RANKS], 1: "rest"}),
     {0: 1 + 1 + 2, 1: 2 + 2}),
    # 000 Variations: "Many people play that a Sweep is worth one point".
    ("000 sweeps score 1 (house rule)", "examples/sweeps-score.yaml",
     dict(sweeps={0: 2, 1: 1}, captured={0: ["AS"], 1: "rest"}), {0: 3, 1: 11}),
    # 000 Variations: "award two points to the player with most cards and one point to the player who made
    # the last capture".
    ("000 two for cards, one for the last capture", "examples/cards-two-last-capture.yaml",
     dict(last_capture=0, captured={0: ["AS"], 1: "rest"}), {0: 2, 1: 9}),
    # 001 Spade Cassino: "24 points are made in every hand, exclusive of sweeps"; "the spade Jack and
    # deuce count 2 points each".
    ("001 Spade Cassino, 24 points and the jack and deuce 2 each", "spade",
     dict(captured={0: ["JS", "2S"], 1: "rest"}), {0: 4, 1: 20}),
    # 002 Tuxedo: "Each sweep of 4 or more cards: 10 points; Each sweep of 3 or fewer cards: 5 points";
    # "Each Five: 5 points"; "Most cards: 15 points"; an orange 10.
    ("002 Tuxedo, sweeps by size, fives, an orange", "tuxedo",
     dict(sweeps={0: [4, 2], 1: [1]}, events={0: ["orange"]}, captured={0: ["5B", "5R"], 1: "rest"}),
     {0: 10 + 5 + 10 + 10, 1: 15 + 10 + 5}),
    # 002 Hungarian: "if the cards are equally divided (26 each) the 3 points for cards are not awarded".
    ("002 Hungarian, 26 each", "hungarian",
     dict(captured={0: [r + s for s in "HC" for r in ref.STD_RANKS], 1: "rest"}), {0: 2, 1: 1 + 2 + 1 + 2}),
    # 002 Ulmann 2: the non-dealer's first-play sweep of the four "scores 2 points rather than 1".
    ("002 Ulmann, a first-play sweep scores 2", "hungarian-ulmann",
     dict(sweeps={0: [{"size": 4, "first_play": True}, 3]}, captured={0: ["AS"], 1: "rest"}), {0: 4, 1: 10}),
    # [Pg] "A player who has taken cards in only three or fewer suits cannot compete for this point".
    ("scopa, no primiera without four suits", "scopa",
     dict(captured={0: [r + s for s in "HSC" for r in ["7", "6", "A"]], 1: "rest"}), {0: 0 + 0 + 0 + 0, 1: 1 + 1 + 1 + 1}),
    # [Kz] "If there are 3 players there are only 7 points": cards and spades are not scored.
    ("south african, three players, 7 points", "south-african-casino",
     dict(players=3, captured={0: ["AS", "2S"], 1: ["10D"], 2: "rest"}), {0: 2, 1: 2, 2: 3}),
    # [Kz] "most cards = 2 points (if tied the players get equal cards 1-1)".
    ("south african, a tie for cards 1-1", "south-african-casino",
     dict(captured={0: [r + s for s in "SH" for r in ref.STD_RANKS[:10]], 1: "rest"}), {0: 1 + 2 + 1 + 2, 1: 1 + 2 + 2}),
    # [P] "the total value of all the cards in the double deck is 42 points"; [M] a tabbe +5 to the sweeper,
    # -5 to the player before.
    ("krypkasino, 42 points and a tabbe", "krypkasino",
     dict(players=3, sweeps={1: 1}, captured={0: [], 1: [], 2: "rest"}), {0: -5, 1: 5, 2: 42}),
    ("kasino misar, 21 points", "kasino-misar",
     dict(captured={0: ["AS"], 1: "rest"}), {0: 2, 1: 19}),
    # F "Highest spades - 2 points (shared ...)"; "after any player has a score of 10 points or more, there
    # are no more points for sweeps".
    ("finnish, spades shared, no sweeps once anyone has 10", "finnish-kasino",
     dict(players=3, scores={0: 0, 1: 10, 2: 0}, sweeps={0: 1},
          captured={0: spades("3", "4", "5", "6", "7"), 1: spades("8", "9", "10", "J", "Q"),
                    2: "rest"}),
     {0: 1, 1: 1, 2: 1 + 2 + 1 + 4}),
]


@pytest.mark.parametrize("name,variant,position,points", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_examples_reference(name, variant, position, points):
    assert ref.hand_points(variant, position) == points


def _cases_from_examples():
    return [dict(position, name=name, variant=variant) for name, variant, position, _ in EXAMPLES]


def test_worked_examples_engine(tmp_path):
    """The same examples, the text's answer as expectation, through `cassino check`."""
    cases = _cases_from_examples()
    answers = {e[0]: e[3] for e in EXAMPLES}
    res = ref.run_cases(cases, str(tmp_path), ROOT, expect=lambda c: {"hand_points": answers[c["name"]]})
    assert res.returncode == 0, res.stdout + res.stderr


GAME_EXAMPLES = [
    # 002 Dominican: "... player B scores 6 points and wins the game with 21."
    ("002 Dominican, B wins with 21", "dominican", EXAMPLES[0][2], {"scores": {0: 19, 1: 21}, "winner": 1}),
    # 002 Dominican: a side at 20 taking most spades wins "irrespective of how many points the opponent(s)
    # score" -- here the opponent reaches 21 too.
    ("002 Dominican, at 20 most spades wins outright", "dominican",
     dict(scores={0: 20, 1: 17}, captured={0: spades("A", "2", "3", "4", "5", "6", "7"), 1: "rest"}),
     {"scores": {0: 21, 1: 3 + 2 + 3 + 17}, "winner": 0}),
    # 000 Scoring: "If two people reach the target on the same round, whoever has the higher score wins.
    # If there is a tie, another round is played."
    ("000 both past 21, the higher wins", "standard",
     dict(scores={0: 20, 1: 18}, captured={0: ["AS"], 1: "rest"}), {"scores": {0: 21, 1: 28}, "winner": 1}),
    ("000 both past 21 and tied, nobody yet", "standard",
     dict(scores={0: 20, 1: 11}, captured={0: ["AS"], 1: "rest"}), {"scores": {0: 21, 1: 21}, "winner": None}),
    # 001 count-out: "Cards first, then Spades, Big Cassino, ...": the count stops when a side goes out.
    ("001 count out, cards go out first", "hoyle",
     dict(scores={0: 20, 1: 18}, captured={0: ["AH"], 1: "rest"}), {"scores": {0: 20, 1: 21}, "winner": 1}),
    # both end at 22 (a tie in the 000 game), but 19 + 3 for cards goes out first.
    ("001 count out decides a tie", "hoyle",
     dict(scores={0: 19, 1: 14}, captured={1: ["AS", "AH", "AD", "AC", "10D", "2S", "3S", "4S", "5S", "6S",
                                                "7S", "8S", "9S", "10S"], 0: "rest"}),
     {"scores": {0: 22, 1: 14}, "winner": 0}),
    # 001 "If one side reached 11 before the adversary reached 6, it was a lurch, and counted as a double
    # game"; "deducting the lower score from the higher at the end of each deal".
    ("001 eleven up, a lurch", "examples/hoyle-eleven-up.yaml",
     dict(scores={0: 8, 1: 2}, captured={0: ["AS", "AH", "AD", "AC", "10D", "2S"], 1: "rest"}),
     {"scores": {0: 11, 1: 2}, "winner": 0, "games_won": 2}),
]


@pytest.mark.parametrize("name,variant,position,result", GAME_EXAMPLES, ids=[e[0] for e in GAME_EXAMPLES])
def test_game_examples_reference(name, variant, position, result):
    assert ref.game_result(variant, position) == result


def test_game_examples_engine(tmp_path):
    cases = [dict(p, name=n, variant=v) for n, v, p, _ in GAME_EXAMPLES]
    answers = {e[0]: e[3] for e in GAME_EXAMPLES}
    res = ref.run_cases(cases, str(tmp_path), ROOT, expect=lambda c: answers[c["name"]])
    assert res.returncode == 0, res.stdout + res.stderr


# ---------------------------------------------------------------------------------------------------
# (b) the CI slice

def _slice(seed: int, per_variant: int) -> list[dict]:
    rng = random.Random(seed)
    return [ref.random_case(v, rng, f"{v} {seed}-{i}") for v in ref.VARIANTS for i in range(per_variant)]


def test_ci_slice_agrees_with_engine(tmp_path):
    cases = _slice(2026, 12)
    assert len(cases) >= 400 and {c["variant"] for c in cases} == set(ref.VARIANTS)
    games = [c for c in cases if ref.game_class(c["variant"], c) is None]
    assert len(games) >= 300, "too few game results compared"
    for name, _reading, test in ref.ENGINE_ERRORS:
        left = sum(1 for c in cases if test(c["variant"], c))
        # the CI slice says what it leaves out: their game results (hand points are still compared)
        print(f"ENGINE_ERRORS {name}: game result of {left} case(s) left out")
    res = ref.run_cases(cases, str(tmp_path), ROOT)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    assert f"{len(cases)} passed, 0 failed" in res.stdout


def test_every_bundled_variant_is_covered():
    bundled = {f[:-5] for f in os.listdir(os.path.join(ROOT, "variants")) if f.endswith(".yaml")}
    assert bundled <= set(ref.VARIANTS)
    for v in ref.VARIANTS:
        if v.startswith("examples/"):
            assert os.path.exists(os.path.join(ROOT, v))


# ---------------------------------------------------------------------------------------------------
# (c) the comparison can fail

def test_a_wrong_expectation_is_caught(tmp_path):
    cases = _slice(7, 1)[::2]
    bad = cases[len(cases) // 2]["name"]

    def expect(c):
        pts = ref.hand_points(c["variant"], c)
        if c["name"] == bad:
            pts = {k: v + (1 if k == min(pts) else 0) for k, v in pts.items()}
        return {"hand_points": pts}

    res = ref.run_cases(cases, str(tmp_path), ROOT, expect=expect)
    assert res.returncode == 1, res.stdout + res.stderr
    assert f"FAILED: {bad}" in res.stdout
    assert f"{len(cases) - 1} passed, 1 failed" in res.stdout


def _failed(out: str) -> int:
    m = re.search(r"(\d+) passed, (\d+) failed\s*$", out)
    assert m, out[-2000:]
    return int(m.group(2))


def test_a_reference_forgetting_aces_is_caught(tmp_path, monkeypatch):
    rules = dict(ref.RULES["standard"])
    rules["items"] = [it for it in rules["items"] if it[1]["name"] != "aces"]
    monkeypatch.setitem(ref.RULES, "standard", rules)
    cases = [ref.random_case("standard", random.Random(i), f"s {i}") for i in range(20)]
    res = ref.run_cases(cases, str(tmp_path), ROOT)
    assert res.returncode == 1
    assert _failed(res.stdout) >= 5


def test_a_reference_forgetting_cancelling_is_caught(tmp_path, monkeypatch):
    monkeypatch.setitem(ref.RULES, "dominican", dict(ref.RULES["dominican"], cancel=False))
    rng = random.Random(3)
    cases = [ref.random_case("dominican", rng, f"d {i}") for i in range(60)]
    res = ref.run_cases(cases, str(tmp_path), ROOT)
    assert res.returncode == 1
    assert _failed(res.stdout) >= 5


ENGINE_ERROR_CASE = dict(
    name="a cards point shared 1-1 takes both sides to 21 at once", variant="swazi-casino", players=2,
    scores={0: 20, 1: 20},
    captured={0: [r + s for s in "HC" for r in ref.STD_RANKS[1:]] + ["2D", "3D"], 1: "rest"})


def test_a_shared_point_taking_both_sides_out_decides_nothing(tmp_path):
    """Once ENGINE_ERRORS[0]: in a count-out a point shared 1-1 ([Kh] "if tied the players get equal cards
    1-1") that takes both sides to 21 names neither first, whatever their seats: no winner, and the
    totals stand as counted before it (the engine gave it seat by seat: seat 0 won)."""
    case = ENGINE_ERROR_CASE
    assert ref.game_result(case["variant"], case) == {"scores": {0: 20, 1: 20}, "winner": None}
    assert ref.hand_points(case["variant"], case) == {0: 1, 1: 10}
    for dealer in (0, 1):
        res = ref.run_cases([dict(case, dealer=dealer)], str(tmp_path), ROOT)
        assert res.returncode == 0 and "1 passed, 0 failed" in res.stdout, res.stdout

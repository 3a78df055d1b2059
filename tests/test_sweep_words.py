"""What a sweep is said to score, as the terminal, the browser and the replay say it (``said.sweep_words``), and
why a hand's points did not count (``summary.hand_summary``): players' audits of Scopone, Swedish Kasino in
partnerships and Finnish Kasino's last hands."""

from __future__ import annotations

from cassino.apps.game.said import sweep_words
from cassino.apps.game.summary import hand_summary
from cassino.engine.game import Game
from cassino.engine.notation import parse_move

from conftest import position_at


def at(name: str, hands: dict[int, list[str]], table: list[str], **position: object) -> Game:
    return Game.at(*position_at(name, hands, table, **position))  # type: ignore[arg-type]


def said(game: Game, text: str) -> str:
    return sweep_words(game, parse_move(text, game.engine.deck), lambda seat: f"seat {seat}")


def test_a_partners_sweep_scores_for_the_side() -> None:
    """"seat 2 plays KD capture KS: a sweep, 1 point to seat 2": the point is the side's (seats 0+2), as the
    scoring table says; where a side is one seat, the seat is named as before."""
    for name in ("scopone", "swedish-kasino"):
        four = at(name, {0: ["2C"], 1: ["3C"], 2: ["KD", "4C"], 3: ["5C"]}, ["KS"], players=4, partners=True,
                  to_play=2)
        assert said(four, "KD capture KS") == "a sweep, 1 point to seats 0+2", name
    two = at("swedish-kasino", {0: ["KD", "4C"], 1: ["3C"]}, ["KS"])
    assert said(two, "KD capture KS") == "a sweep, 1 point to seat 0"


def test_sweeps_stopped_by_another_sides_score_say_whose() -> None:
    """Finnish Kasino: once any side has 10 points, sweeps score nothing. A seat with 8 was told "sweeps score
    nothing for seat 0 at this score", and at the hand's end "seat 0 had 8: sweeps did not count for them (an
    endgame restriction)": the rule and whose score stopped them are said."""
    game = at("finnish-kasino", {0: ["QH", "2C"], 1: ["KH", "3D"]}, ["QC"]).with_(scores=(8, 15))
    assert said(game, "QH capture QC") == "a sweep: sweeps score nothing once a side has 10 points (seat 1 at 15)"
    leader = at("finnish-kasino", {0: ["QH", "2C"], 1: ["KH", "3D"]}, ["QC"]).with_(scores=(15, 8))
    assert said(leader, "QH capture QC") == "a sweep: sweeps score nothing once a side has 10 points"
    below = at("finnish-kasino", {0: ["QH", "2C"], 1: ["KH", "3D"]}, ["QC"]).with_(scores=(8, 9))
    assert said(below, "QH capture QC") == "a sweep, 1 point to seat 0 (until a sweep by the other side cancels it)"


def test_where_sweeps_cancel_a_sweeps_point_is_said_to_last_until_another_sides_sweep() -> None:
    """A teacher's audit of Dominican Casino in partnerships read "a sweep, 1 point to seats 0+2" as a point banked;
    the other side's sweep then cancelled it ("which cancels one of the other side's") and the hand's scoring had
    none. Where sweeps cancel, the point is said to hold until another side's sweep (with three sides, until each
    other side has one: the Dominican text's "only when all three have one"); where they do not, as before."""
    four = at("dominican", {0: ["2C"], 1: ["3C"], 2: ["KD", "4C"], 3: ["5C"]}, ["KS"], players=4, partners=True,
              to_play=2)
    assert said(four, "KD capture KS") == "a sweep, 1 point to seats 0+2 (until a sweep by the other side cancels it)"
    three = at("dominican", {0: ["KD", "4C"], 1: ["3C"], 2: ["5C"]}, ["KS"], players=3)
    assert said(three, "KD capture KS").endswith("(until each other side has a sweep too, and they cancel)")
    scopone = at("scopone", {0: ["2C"], 1: ["3C"], 2: ["KD", "4C"], 3: ["5C"]}, ["KS"], players=4, partners=True,
                 to_play=2)
    assert said(scopone, "KD capture KS") == "a sweep, 1 point to seats 0+2"


def test_the_hand_summary_says_whose_score_stopped_the_sweeps() -> None:
    """Hands of Finnish Kasino begun at 8 to 15, played by greedy players to their end: where seat 0's sweeps
    did not count, the note says the rule and whose score, not "an endgame restriction"."""
    from cassino.language.variants import load_rules
    from cassino.players.bots import make_bot

    rules = load_rules("finnish-kasino")
    noted = 0
    for seed in range(1, 12):
        game = Game.new(rules, seed, 2).with_(scores=(8, 15))
        bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
        while True:
            before = game
            move = bots[game.hand.turn].choose(game, game.hand.turn)
            game = game.play(move)
            summary = hand_summary(before, move, game)
            if summary is not None:
                break
        notes = [n for n in summary.notes if "did not count" in n]
        assert not [n for n in notes if "endgame restriction" in n], notes
        expected = {"seat 0 had 8 points before the hand: sweeps did not count for them (sweeps score nothing once "
                    "a side has 10 points: seat 1 at 15)",
                    "seat 1 had 15 points before the hand: sweeps did not count for them (sweeps score nothing once "
                    "a side has 10 points)"}
        assert set(notes) <= expected, notes
        noted += any(n.startswith("seat 0") for n in notes)
    assert noted >= 2

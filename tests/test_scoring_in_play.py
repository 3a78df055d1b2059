"""Scoring in play (issue 20): Spade Cassino counts the cards only at the end of the hand, and a
count-out that the sweeps cannot decide leaves the counted totals standing for another deal.

Each rule is shown through play: a game record under tests/records/ (found by playing computer
players from the record's seed) replays to the answer, through `cassino replay`'s code and with
the bundled variant as it is today. tests/scenarios/ holds the same rules as `cassino check` cases.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from cassino.apps.game.records import Record, apply_action, load_record, replay
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.state import HandState
from cassino.language.rules import Rules
from cassino.language.variants import load_rules

from conftest import ROOT

RECORDS = ROOT / "tests" / "records"


def games(record: Record, rules_name: str) -> list[Game]:
    """The game after each action, replayed with the bundled variant (the record's own rules must agree)."""
    bundled = load_rules(rules_name)
    # (The readings are words about the rules, not rules: a reading added to the file since the record was
    # made changes no play; every setting must agree.)
    def played(data: dict) -> dict:  # type: ignore[type-arg]
        return {k: v for k, v in data.items() if k != "readings"}
    assert played(dict(record.rules.data)) == played(dict(bundled.data)), \
        f"{rules_name}: the record's rules differ from the bundled file"
    game = Game.new(Engine(bundled), record.seed, record.players, record.partners, dealer=record.dealer)
    out = [game]
    for action in record.actions:
        game = apply_action(game, action)
        out.append(game)
    return out


def cards_held(game: Game) -> list[int]:
    return [bin(game.hand.side_pile(s)).count("1") for s in game.hand.sides]


def test_spade_the_other_side_pegs_to_61_before_the_cards_are_counted() -> None:
    """Seat 0 holds 27 cards at 60 pegged, so 63 once the cards count: play must go on, and seat 1
    pegs to 61 three plays later (under the old rule seat 0 won at the 27th card)."""
    record = load_record(RECORDS / "spade-peg-first.json")
    played = games(record, "spade")
    secured = next(k for k, g in enumerate(played) if g.hand_no == 5 and cards_held(g)[0] >= 27)
    at = played[secured]
    assert at.standing() == (60, 59) and not at.over
    assert not any(g.over for g in played[:-1])
    final = played[-1]
    assert (final.winner, final.scores, final.ended_by) == (1, (60, 61), "pegging")
    assert len(played) - 1 - secured == 3
    replayed = replay(record)
    assert (replayed.winner, replayed.scores, replayed.ended_by) == (1, (60, 61), "pegging")


def test_spade_most_cards_wins_only_when_the_hand_is_over() -> None:
    """Seat 0 is sure of most cards at 58 pegged four plays before the end of hand 3; it wins with
    the last play, when the cards are counted."""
    record = load_record(RECORDS / "spade-cards-at-end.json")
    played = games(record, "spade")
    secured = next(k for k, g in enumerate(played) if g.hand_no == 3 and cards_held(g)[0] >= 27
                   and g.standing()[0] + 3 >= 61)
    assert not any(g.over for g in played[:-1]) and len(played) - 1 - secured == 4
    final = played[-1]
    assert (final.winner, final.scores, final.ended_by, final.hand_no) == (0, (61, 12), "target", 3)
    assert final.results[-1].points[0] == 61 - played[-2].scores[0]


def test_hoyle_undecided_count_out_stands_and_the_next_deal_decides() -> None:
    """Hand 4: both sides pass 21 only with one sweep each; counted out they stand at 20-20 and
    nobody wins. Hand 5: only seat 1 passes 21 and wins (the old rule gave seat 0 the game)."""
    record = load_record(RECORDS / "hoyle-count-out-undecided.json")
    final = games(record, "hoyle")[-1]
    fourth = final.results[3]
    assert fourth.counted_out and fourth.winner is None
    assert fourth.scores == {0: 20, 1: 20} and fourth.sweeps == {0: 1, 1: 1}
    before = final.results[2].scores
    assert all(before[s] + fourth.points[s] >= 21 for s in (0, 1)), "both passed 21 with the hand's full points"
    assert (final.winner, final.scores, final.ended_by, final.hand_no) == (1, (20, 31), "target", 5)
    assert replay(record).scores == (20, 31)


def test_count_out_with_more_sweeps_winning() -> None:
    """examples/count-out.yaml follows the Anglo-American text: in hand 4 both sides pass 21 only
    with their sweeps and count out to 19 and 20; seat 0 has two sweeps to one and wins, though
    its one sweep more takes it only to 20. Hoyle's reading of the same hand plays another deal."""
    record = load_record(RECORDS / "count-out-more-sweeps.json")
    final = games(record, str(ROOT / "examples" / "count-out.yaml"))[-1]
    last = final.results[-1]
    assert (final.winner, final.scores, final.ended_by, final.hand_no) == (0, (20, 20), "count out", 4)
    assert last.counted_out and last.sweeps == {0: 2, 1: 1}
    data = copy.deepcopy(dict(record.rules.data))
    data["game"]["count_out_sweeps"] = "difference"
    hoyle_reading = Game.new(Engine(Rules.from_data(data)), record.seed, 2)
    for action in record.actions:
        hoyle_reading = apply_action(hoyle_reading, action)
    assert not hoyle_reading.over and hoyle_reading.hand_no == 5
    assert hoyle_reading.scores == (20, 20) and hoyle_reading.results[-1].winner is None


def pegged(engine: Engine, hand: HandState, side: int) -> int:
    """Spade Cassino's pegged points for ``side`` in ``hand``, from the rule text: every spade 1,
    the jack and two of spades 1 more, big casino 2, each ace 1, each sweep 1."""
    pile = hand.side_pile(side)
    points = 0
    for i, card in enumerate(engine.deck.cards):
        if pile >> i & 1:
            points += (card.suit == "S") + (str(card) in ("JS", "2S")) + 2 * (str(card) == "10D") + (card.rank == "A")
    return points + sum(1 for w in hand.sweeps if hand.teams[w.seat] == side and not w.cancelled)


@given(seed=st.integers(0, 2**32 - 1), start=st.tuples(st.integers(40, 60), st.integers(40, 60)))
def test_spade_games_end_mid_hand_only_on_pegged_points(seed: int, start: tuple[int, int]) -> None:
    """Over many spade hands from scores near 61: no game ends between the capture that secures
    most cards and the end of the hand unless the pegged points alone reach 61; pegged points
    that reach 61 end the game at once, before the cards are counted."""
    engine = Engine(load_rules("spade"))
    rnd = random.Random(seed)
    game = Game.new(engine, seed, 2).with_(scores=start)
    while True:
        move = rnd.choice(game.legal_moves())
        hand = engine.apply(game.hand, move)        # the hand as this play leaves it, before scoring
        game = game.play(move)
        reached = [s for s in (0, 1) if start[s] + pegged(engine, hand, s) >= 61]
        if reached:
            assert game.over and game.ended_by == "pegging" and [game.winner] == reached
            assert game.scores[game.winner] == start[game.winner] + pegged(engine, hand, game.winner)
            return
        if hand.over:
            cards = [bin(hand.side_pile(s)).count("1") for s in (0, 1)]
            with_cards = [start[s] + pegged(engine, hand, s) + 3 * (cards[s] > cards[1 - s]) for s in (0, 1)]
            assert game.over == any(v >= 61 for v in with_cards)
            if game.over:
                assert game.ended_by == "target" and game.scores == tuple(with_cards)
            return
        assert not game.over, "the game ended in the middle of the hand on points not yet pegged"

"""Game-level rules through the public API: restrictions, lurch, claims, and Tuxedo's short final deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from cassino.engine.core import Engine, Position
from cassino.errors import CassinoError
from cassino.engine.game import Game
from cassino.engine.scoring import Scorer
from cassino.engine.state import Capture
from cassino.language.variants import load_rules

from conftest import ROOT


def finished(engine: Engine, piles: dict[int, list[str]]):
    deck = engine.deck
    placed = {c for cards in piles.values() for c in cards}
    rest_seat = next(s for s, v in piles.items() if v == ["rest"])
    cards = {s: [deck.parse(c) for c in v] for s, v in piles.items() if v != ["rest"]}
    cards[rest_seat] = [c for c in deck.cards if str(c) not in placed]
    state = engine.position(Position(players=2, captured=cards))
    return state.with_(over=True, stock=())


def test_two_restricted_sides_first_to_meet_its_criterion_wins() -> None:
    engine = Engine(load_rules("dominican"))
    scorer = Scorer(engine)
    # Seat 0 (at 19) takes the 10 of diamonds early; seat 1 (at 20) is sure of most spades only later.
    state = finished(engine, {0: ["10D", "2H", "3H"], 1: ["rest"]})
    d10 = 1 << engine.deck.index(engine.deck.parse("10D"))
    spades = sum(1 << engine.deck.index(c) for c in engine.deck.cards if c.suit == "S")
    captures = (Capture(3, 0, d10, d10), Capture(30, 1, spades, spades))
    result = scorer.result(state.with_(captures=captures), {0: 19, 1: 20})
    assert result.winner == 0
    reversed_order = (Capture(40, 0, d10, d10), Capture(30, 1, spades, spades))
    assert scorer.result(state.with_(captures=reversed_order), {0: 19, 1: 20}).winner == 1


def test_restrictions_lift_after_a_tie_past_the_target() -> None:
    engine = Engine(load_rules("dominican"))
    game = Game.new(engine, 5, 2)
    game = game.with_(scores=(15, 15))
    tied = finished(engine, {0: ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS",
                                 "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "2C", "3C"],
                             1: ["rest"]})
    from cassino.engine.state import Sweep

    game = game.with_(hand=tied.with_(sweeps=(Sweep(1, 2, 5),)))._finish_hand()
    assert game.scores == (21, 21) and not game.over
    assert game.restrictions_on is False
    assert game.hand_no == 2 and game.dealer == engine.next_seat(0, 2)


def test_lurch_counts_double() -> None:
    rules = load_rules(str(ROOT / "examples" / "hoyle-eleven-up.yaml"))
    engine = Engine(rules)
    game = Game.new(engine, 1, 2).with_(scores=(6, 2))
    state = finished(engine, {0: ["AS", "AH", "AD", "AC", "10D", "2S"], 1: ["rest"]})
    over = game.with_(hand=state)._finish_hand()
    # 7 against 4: seat 0 scores the difference, 3, reaching 9: not yet 11.
    assert over.scores == (9, 2) and not over.over
    over = game.with_(scores=(8, 2), hand=state)._finish_hand()
    assert over.over and over.winner == 0 and over.games_won == 2


def test_claims_right_and_wrong() -> None:
    engine = Engine(load_rules("hungarian"))
    game = Game.new(engine, 3, 2).with_(scores=(10, 4))
    state = game.hand
    ace = next(i for i in range(engine.n_cards) if engine.deck.cards[i].rank == "A" and not any(
        h >> i & 1 for h in state.hands) and not state.table >> i & 1)
    piles = list(state.piles)
    piles[0] |= 1 << ace
    right = game.with_(hand=state.with_(piles=tuple(piles)))
    assert right.claim(0).winner == 0 and right.claim(0).ended_by == "claim"
    wrong = game.claim(1)
    assert wrong.winner == 0 and wrong.ended_by == "false claim"
    with pytest.raises(CassinoError):
        Game.new(Engine(load_rules("standard")), 1, 2).claim(0)


def test_neither_claiming_moves_the_target() -> None:
    rules = load_rules(str(ROOT / "examples" / "hoyle-claiming.yaml"))
    engine = Engine(rules)
    game = Game.new(engine, 2, 2).with_(scores=(18, 19))
    state = finished(engine, {0: ["AS", "AH", "AD", "AC", "10D", "2S"], 1: ["rest"]})
    after = game.with_(hand=state)._finish_hand()
    assert after.scores == (25, 23) and not after.over and after.target == 32


@pytest.mark.parametrize("players,final_each,to_table", [(2, 2, 0), (3, 4, 0), (4, 1, 0), (5, 3, 1), (6, 2, 0)])
def test_tuxedo_short_final_deal(players: int, final_each: int, to_table: int) -> None:
    """002 Tuxedo: 'the final deal of a hand will be 2 cards each with 2 players, 4 cards each with 3 players,
    1 card each with 4 players, 3 cards each and 1 to the table with 5 players and 2 cards each with 6 players'."""
    engine = Engine(load_rules("tuxedo"))
    state = engine.start(1, players)
    while True:
        # Capture where possible (the fewest cards, to keep the table small), else trail,
        # until the last deal has been dealt.
        before, stock_before = state.deal_no, len(state.stock)
        moves = engine.legal_moves(state)
        captures = [m for m in moves if m.kind.value == "capture"]
        move = min(captures, key=lambda m: bin(m.loose).count("1")) if captures else next(
            m for m in moves if m.kind.value == "trail")
        state = engine.apply(state, move)
        if state.deal_no != before and not state.stock:
            assert {bin(h).count("1") for h in state.hands} == {final_each}
            assert stock_before == final_each * players + to_table
            return

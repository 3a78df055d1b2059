"""The search's parts on their own: the end-of-deal outlook and the playouts' values."""

from __future__ import annotations

import random

import pytest

from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.notation import format_move
from cassino.engine.scoring import Scorer
from cassino.language.cards import Card
from cassino.language.variants import load_rules
from cassino.players.base import CardWorth
from cassino.players.gain import greedy_playout
from cassino.players.outlook import Outlook
from cassino.players.playouts import playout_leads


def _cards(engine: Engine, names: list[str]) -> list[Card]:
    return [engine.deck.parse(n) for n in names]


@pytest.mark.parametrize("variant", ["standard", "royal", "hoyle", "tuxedo", "dominican", "spade"])
def test_outlook_is_even_at_the_start_and_the_score_at_the_end(variant: str) -> None:
    engine = Engine(load_rules(variant))
    scorer = Scorer(engine)
    outlook = Outlook(scorer)
    rng = random.Random(3)
    state = engine.start(11, 2)
    start = outlook.points(state, {}, True)
    assert start[0] == pytest.approx(start[1]) and start[0] > 0
    while not state.over:
        state = engine.apply(state, rng.choice(engine.legal_moves(state)))
    points, _ = scorer.hand_points(state, {}, True)
    assert outlook.points(state, {}, True) == {s: float(p) for s, p in points.items()}


@pytest.mark.parametrize("variant", ["scopa", "escoba"])
def test_outlooks_primiera_totals_are_the_scorers(variant: str) -> None:
    """The outlook's own (compiled) primiera totals are ``Scorer.primiera_total``'s: for no card, the
    whole deck, piles missing a suit (-1 where every suit is needed) and random piles."""
    engine = Engine(load_rules(variant))
    scorer = Scorer(engine)
    outlook = Outlook(scorer)
    rng = random.Random(7)
    deck = (1 << engine.n_cards) - 1
    piles = [0, deck, deck & ~scorer.suit_masks[0], scorer.suit_masks[1]]
    piles += [rng.getrandbits(engine.n_cards) & deck for _ in range(200)]
    found = [i for i, item in enumerate(outlook.items) if item.count == "primiera"]
    assert found
    seen = set()
    for i in found:
        for pile in piles:
            total = outlook._primiera(i, pile)
            assert total == scorer.primiera_total(outlook.items[i], pile)
            seen.add(total >= 0)
    assert seen == {True, False}


def test_outlook_counts_a_race_won_in_full_and_a_close_one_by_its_chance() -> None:
    engine = Engine(load_rules("standard"))
    outlook = Outlook(Scorer(engine))
    spades = [f"{r}S" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    hearts = [f"{r}H" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    won = engine.position(Position(players=2, captured={0: _cards(engine, spades + hearts + ["3D", "4D", "5D"])}))
    value = outlook.points(won, {}, True)
    # 27 cards and all the spades: cards 3 + spades 1, and the ace and two of spades.
    assert value == {0: pytest.approx(6.0), 1: pytest.approx(0.0)}
    close = engine.position(Position(players=2, captured={0: _cards(engine, ["3H", "4H"]), 1: _cards(engine, ["5H"])}))
    closer = engine.position(Position(players=2, captured={0: _cards(engine, ["3H"]), 1: _cards(engine, ["5H"])}))
    a, b = outlook.points(close, {}, True), outlook.points(closer, {}, True)
    assert a[0] > b[0] and a[1] < b[1] and 0 < b[0] < 3


def test_outlook_leaves_out_what_a_restricted_side_may_not_score() -> None:
    engine = Engine(load_rules("dominican-soto"))
    scorer = Scorer(engine)
    restriction = engine.rules.endgame.restrictions[0]
    state = engine.start(4, 2)
    rng = random.Random(4)
    for _ in range(20):
        state = engine.apply(state, rng.choice(engine.legal_moves(state)))
    free = Outlook(scorer).points(state, {0: 0, 1: 0}, True)
    held = Outlook(scorer).points(state, {0: restriction.score, 1: 0}, True)
    assert held[1] == pytest.approx(free[1]) and held[0] < free[0]
    assert Outlook(scorer).points(state, {0: restriction.score, 1: 0}, False) == free


@pytest.mark.parametrize("variant,players", [("krypkasino", 2), ("krypkasino", 3), ("kasino-misar", 2), ("tuxedo", 2),
                                             ("hungarian-ulmann", 2), ("scopone", 4), ("escoba", 3)])
def test_outlooks_sweep_points_are_the_scorers(variant: str, players: int) -> None:
    """The outlook's own (compiled) count of a sweeps item is ``Scorer.item_points``': sweeps by size, on
    the first play, the previous player's points (Krypkasino's tabbe), partners, along random hands."""
    engine = Engine(load_rules(variant))
    scorer = Scorer(engine)
    outlook = Outlook(scorer)
    found = [i for i, item in enumerate(outlook.items) if item.count == "sweeps"]
    assert found
    rng = random.Random(11)
    swept = 0
    for seed in range(6):
        state = engine.start(seed, players, partners=players == 4)
        while True:
            for i in found:
                by_side = scorer.item_points(outlook.items[i], state)
                assert outlook._sweeps(i, state, state.sides) == [by_side[s] for s in state.sides]
            if state.over:
                break
            state = engine.apply(state, rng.choice(engine.legal_moves(state)))
        swept += len(state.sweeps)
    assert swept > 0


@pytest.mark.parametrize("variant,players", [("standard", 2), ("standard", 3), ("royal", 4), ("scopa", 2),
                                             ("swedish-kasino", 2), ("kasino-misar", 3), ("dominican-soto", 2),
                                             ("finnish-kasino", 3), ("south-african-casino", 3),
                                             ("south-african-casino", 2), ("swazi-casino", 4), ("scopone", 4),
                                             ("escoba", 3), ("krypkasino", 2), ("krypkasino", 4), ("tuxedo", 2)])
def test_a_playouts_lead_is_its_sides_points_less_the_best_other_sides(variant: str, players: int) -> None:
    """``Outlook.lead`` and ``playout_leads`` (the search's compiled inner loop) give the very floats
    the dict of ``points`` gives, hand over or not, in a game won by the lowest total too."""
    engine = Engine(load_rules(variant))
    scorer = Scorer(engine)
    outlook = Outlook(scorer)
    worth = CardWorth(engine, scorer)
    sign = -1.0 if engine.rules.game.goal == "lowest" else 1.0
    rng = random.Random(5)
    scores = {s: 3 * s for s in range(players if players != 4 else 2)}
    state = engine.start(21, players, partners=players == 4)
    checked = finished = 0
    while not state.over:
        legal = engine.legal_moves(state)
        near_end = not state.stock and sum(h.bit_count() for h in state.hands) <= 3 * players
        moves = legal[:4] if state.ply < 3 or near_end else []   # (early, and the hand's last plies)
        ends = [greedy_playout(engine, worth, state, m, False) for m in moves]
        for side in state.sides:
            leads = playout_leads(engine, worth, outlook, state, moves, False, side, scores, True, sign)
            for end, lead in zip(ends, leads):
                value = {s: sign * v for s, v in outlook.points(end, scores, True).items()}
                expected = value[side] - max(v for s, v in value.items() if s != side)
                assert lead == expected == outlook.lead(end, side, scores, True, sign)
                checked += 1
                finished += end.over
        state = engine.apply(state, rng.choice(legal))
    assert checked >= 12 and finished >= 1

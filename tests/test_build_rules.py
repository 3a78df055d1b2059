"""Build rules stated as properties: a build's kind follows its announced value (004), and
an owner keeps a distinct card for each build value they hold (000 rule 4), checked on
constructed positions and over random play in every variant."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cassino.engine.core import Engine, Position
from cassino.engine.moves import IllegalMoveError
from cassino.engine.notation import format_move, parse_move
from cassino.language.variants import load_rules

from conftest import VARIANTS

TWO_HANDED = Engine(load_rules("two-handed"))
SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]


def _value(rank: str) -> int:
    return RANKS.index(rank) + 1


@st.composite
def equal_card_builds(draw: st.DrawFn) -> tuple[str, list[str], int]:
    """A build of k equal cards of one rank, announced as the rank (pairs) or as the value
    of m of them added together (k/m sets of m cards; m == k is a single build)."""
    r = draw(st.sampled_from(RANKS[:5]))
    k = draw(st.integers(2, 4))
    m = draw(st.sampled_from([d for d in range(1, k + 1) if k % d == 0]))
    assume(_value(r) * m <= 10)
    suits = draw(st.permutations(SUITS))[:k]
    return r, [f"{r}{s}" for s in suits], _value(r) * m


@given(build=equal_card_builds(), data=st.data())
def test_two_handed_build_kind_follows_its_value_not_its_cards(build: tuple[str, list[str], int],
                                                               data: st.DataObject) -> None:
    """A set worth the build's value, made of other ranks, may be added to a build of equal
    cards exactly when the build was not announced as that rank (a build of pairs grows only
    by its rank; any other build grows by sets of its value)."""
    r, cards, value = build
    pairs = value == _value(r)
    others = [f"{rk}{s}" for rk in RANKS if rk != r for s in SUITS]
    # The card played, of another rank, worth at most the value; loose cards make up the rest.
    candidates = [c for c in others if _value(c[:-1]) <= value]
    assume(candidates)   # nothing but an ace is worth 1
    played = data.draw(st.sampled_from(candidates))
    rest = value - _value(played[:-1])
    pool = [c for c in others if c != played and _value(c[:-1]) <= rest]
    loose: list[str] = []
    while rest:
        fits = [c for c in pool if _value(c[:-1]) <= rest and c not in loose]
        assume(fits)
        card = data.draw(st.sampled_from(fits))
        loose.append(card)
        rest -= _value(card[:-1])
    # A card to keep for the build: of the value, not of the build's rank unless it must be.
    keepers = [f"{RANKS[value - 1]}{s}" for s in SUITS] if value <= 10 else []
    keepers = [c for c in keepers if c not in cards and c != played and c not in loose]
    assume(keepers)
    keep = data.draw(st.sampled_from(keepers))
    deck = TWO_HANDED.deck
    state = TWO_HANDED.position(Position(
        players=2, hands={0: [deck.parse(played), deck.parse(keep)]},
        table=[deck.parse(c) for c in loose],
        builds=[([deck.parse(c) for c in cards], value, 1)]))
    text = f"{played} build {value} on [{' '.join(cards)}] {' '.join(loose)}".strip()
    move = parse_move(text, deck)
    legal = set(TWO_HANDED.legal_moves(state))
    assert (move in legal) == (not pairs), (text, "pairs" if pairs else "addition build")
    # Whatever its kind, a card of its value takes it.
    assert parse_move(f"{keep} capture [{' '.join(cards)}]", deck) in legal


def _answers_by_brute_force(engine: Engine, hand: int, values: set[int | str]) -> bool:
    cards = [i for i in range(engine.n_cards) if hand >> i & 1]
    vals = sorted(values, key=str)
    if len(vals) > len(cards):
        return False
    for chosen in permutations(cards, len(vals)):
        if all(v in engine.captured_values(1 << c) for v, c in zip(vals, chosen)):
            return True
    return False


@pytest.mark.parametrize("name", VARIANTS)
@given(seed=st.integers(0, 2**32 - 1))
def test_an_owner_keeps_a_distinct_card_for_each_build_value(name: str, seed: int) -> None:
    """After every legal move, a seat that must keep cards for its builds has one distinct
    card per distinct build value (a card counting two ways answers for one value only)."""
    engine = Engine(load_rules(name))
    if not engine.rules.build.keep_capturing_card or not engine.rules.build.allowed:
        return
    rnd = random.Random(seed)
    s = engine.rules.seats
    players = rnd.randint(s.min_players, min(s.max_players, 4))
    state = engine.start(seed, players)
    while not state.over:
        seat = state.turn
        for move in engine.legal_moves(state):
            after = engine.apply(state, move)
            if after.deal_no != state.deal_no or after.over:
                continue
            values = {b.value for b in after.builds if b.holder == seat and b.owner == seat}
            assert _answers_by_brute_force(engine, after.hands[seat], values), move
        state = engine.apply(state, rnd.choice(engine.legal_moves(state)))


def test_royal_refuses_one_ace_for_builds_of_1_and_14() -> None:
    engine = Engine(load_rules("royal"))
    deck = engine.deck
    state = engine.position(Position(
        players=2, hands={0: [deck.parse("AH"), deck.parse("AD")]},
        table=[deck.parse("AS"), deck.parse("9C")],
        builds=[([deck.parse("5D"), deck.parse("9D")], 14, 0)]))
    with pytest.raises(IllegalMoveError):
        engine.play(state, parse_move("AD build 1 on AS", deck))
    after = engine.play(state, parse_move("AD build 14 on AS", deck))
    assert {b.value for b in after.builds} == {14}


@pytest.mark.parametrize("aces, holder", [("AC", 2), ("AC AS", 0)])
def test_a_build_for_a_partner_is_theirs_when_the_builders_card_is_kept_for_another(aces: str, holder: int) -> None:
    """Swazi Casino in partnerships (found by ``test_an_owner_keeps_a_distinct_card_for_each_build_value``
    under a seed CI drew, 26587): seat 0 holds a build of 1 and one ace; its partner has proven 14. Building
    14 for the partner needs no card of 14, and the build went to seat 0, whose ace (1 or 14) was then the one
    card for both its builds. A card kept for one build is no card for another: the build is the partner's.
    With a second ace seat 0 keeps a card for each, and the build is seat 0's, as before."""
    engine = Engine(load_rules("swazi-casino"))
    deck = engine.deck
    cards = lambda text: [deck.parse(c) for c in text.split()]  # noqa: E731
    state = engine.position(Position(players=4, partners=True, to_play=0, dealer=1,
                                     hands={0: cards(f"5S 2D {aces}"), 1: cards("3C"), 2: cards("4C"), 3: cards("6C")},
                                     table=cards("9S JH"), builds=[(cards("AH AD"), 1, 0)]))
    state = state.with_(proven=(frozenset({1}), frozenset(), frozenset({14}), frozenset()))
    move = next(m for m in engine.legal_moves(state) if format_move(m, deck) == "5S build 14 on 9S")
    after = engine.apply(state, move)
    built = next(b for b in after.builds if b.value == 14)
    assert built.holder == holder
    values = {b.value for b in after.builds if b.holder == 0}
    assert _answers_by_brute_force(engine, after.hands[0], values)

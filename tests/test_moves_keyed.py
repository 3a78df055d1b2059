"""Keyed moves: the engine's listed moves decode their fields from the move key when first
read, and are applied by that key to the position they were listed for.

They must be the same values as moves made from their fields (equality, hash, repr,
pickling, legality, the state after them), in every bundled variant and house rule,
and a move listed for one state object must still play right on an equal copy of it
(where it is looked up by its fields, not its key).
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cassino.engine.core import Engine, Position
from cassino.engine.movegen import PLAYED_SHIFT, bits, deposit, popcount
from cassino.engine.moves import Move, MoveKind
from cassino.language.variants import load_rules

from conftest import EXAMPLES, VARIANTS


def eager(m: Move) -> Move:
    return Move(m.kind, m.played, m.loose, m.builds, m.value)


def positions(engine: Engine, seed: int, plies: int) -> list:
    """The states of a random hand's first ``plies`` plies (the fewest players the variant allows)."""
    rnd = random.Random(seed)
    state = engine.start(seed, engine.rules.seats.min_players)
    out = []
    while not state.over and len(out) < plies:
        out.append(state)
        keys = engine.move_keys(state)
        state = engine.apply_key(state, keys[rnd.randrange(len(keys))])
    return out


def check_position(engine: Engine, state) -> None:  # type: ignore[no-untyped-def]
    keys = engine.move_keys(state)
    listed = engine.legal_moves(state)
    assert len(listed) == len(keys)
    copy = state.with_()          # equal, but another object: the moves are looked up by fields
    assert copy == state and copy is not state
    for key, move in zip(keys, listed):
        assert move.key_in(state) == key
        assert move.key_in(copy) == -1
        plain = eager(move)
        assert plain.key_in(state) == -1
        assert plain == move and move == plain and hash(plain) == hash(move) and repr(plain) == repr(move)
        assert pickle.loads(pickle.dumps(move)) == plain
        assert engine.key_of(state, move) == key == engine.key_of(state, plain) == engine.key_of(copy, move)
        after = engine.apply_key(state, key)
        assert engine.apply(state, move) == after == engine.apply(state, plain) == engine.apply(copy, move)
        assert engine.play(state, move) == after == engine.play(copy, move)
        assert engine.played_of(state, key) == plain.played


@pytest.mark.parametrize("rules", [*VARIANTS, *(str(p) for p in EXAMPLES)])
def test_keyed_moves_are_the_moves_of_their_fields(rules: str) -> None:
    engine = Engine(load_rules(rules))
    for seed in (1, 2):
        for state in positions(engine, seed, 12):
            check_position(engine, state)


def test_keyed_moves_with_builds_and_several_cards() -> None:
    """Builds used and taken (sorted by their cards), announced values, several hand cards."""
    for rules in ("standard", "hungarian", "royal"):
        engine = Engine(load_rules(rules))
        d = engine.deck
        state = engine.position(Position(
            players=2, hands={0: [d.parse(c) for c in ["9S", "6C", "3H", "8D"]]},
            table=[d.parse(c) for c in ["3S", "5C", "AH", "2S"]],
            builds=[([d.parse(c) for c in ["5D", "4S"]], 9, 1), ([d.parse(c) for c in ["2D", "4C"]], 6, 1)]))
        moves = engine.legal_moves(state)
        assert any(m.builds for m in moves)
        assert rules != "standard" or any(m.kind is MoveKind.BUILD for m in moves)
        check_position(engine, state)


def test_a_keyed_move_cannot_be_changed() -> None:
    engine = Engine(load_rules("standard"))
    move = engine.legal_moves(engine.start(4, 2))[0]
    for name in ("kind", "played", "loose", "builds", "value"):
        with pytest.raises(AttributeError):
            setattr(move, name, getattr(move, name))
    before = eager(move)
    assert move.values() == before.values() and move == before


def test_a_keyed_move_of_another_position_is_refused() -> None:
    """Its key means nothing in another position: there its fields decide, as for any move."""
    engine = Engine(load_rules("standard"))
    first = engine.start(5, 2)
    second = engine.start(6, 2)
    for move in engine.legal_moves(first):
        assert move.key_in(second) == -1
        assert engine.is_legal(second, move) == (eager(move) in engine.legal_moves(second))


@given(st.integers(0, (1 << 52) - 1), st.integers(0, (1 << 20) - 1))
def test_deposit_picks_the_kth_set_bits(mask: int, local: int) -> None:
    cards = bits(mask)
    expected = 0
    for k, i in enumerate(cards):
        if local >> k & 1:
            expected |= 1 << i
    assert deposit(local, mask) == expected
    assert popcount(mask) == len(cards)


def test_played_of_decodes_the_played_card() -> None:
    engine = Engine(load_rules("standard"))
    state = engine.start(9, 2)
    hand = bits(state.hands[state.turn])
    for k, card in enumerate(hand):
        assert engine.played_of(state, 1 << (PLAYED_SHIFT + k)) == 1 << card


def unions_reference(groups: list[int], exclude: int = 0) -> list[int]:
    """The unions as first written (a list seeded with the empty set, sliced off at the end):
    the order moves are listed in depends on this order."""
    results, seen = [0], {0}
    for g in groups:
        if g & exclude:
            continue
        for m in list(results):
            if not m & g and m | g not in seen:
                seen.add(m | g)
                results.append(m | g)
    return results[1:]


@given(st.lists(st.integers(1, 255), max_size=9), st.integers(0, 255))   # groups are never empty
def test_unions_keep_their_order(groups: list[int], exclude: int) -> None:
    from cassino.engine.movegen import unions

    assert unions(groups, exclude) == unions_reference(groups, exclude)

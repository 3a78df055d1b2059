"""A playout asks the whole-move rules only of the keys it would choose (``Engine.unchecked_keys``).

Under African Casino's whole-move rules (``engine.turnrules``) the engine's listing checks every key
the generator makes; a playout plays one, its best-rated. It now rates the keys before their check
and asks the check of the best first, then the next (``gain.first_passing``): the same move, since the
check keeps the keys in their order and one key's rating never depends on another's. These tests walk
random positions of every African seating and compare the move chosen so with the move chosen from
the full listing, for the greedy rating and the fitted policy's, and a whole playout with a playout
written here over ``move_keys``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.state import HandState
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules
from cassino.players.gain import CardWorth, best_checked_gain_key, best_gain_key, first_passing, greedy_playout
from cassino.players.policy import PlayoutPolicy

AFRICAN_SEATINGS = [("south-african-casino", 2, False), ("south-african-casino", 3, False),
                    ("south-african-casino", 4, False), ("south-african-casino", 4, True),
                    ("swazi-casino", 2, False), ("swazi-casino", 3, False), ("swazi-casino", 4, True)]


def _positions(engine: Engine, players: int, partners: bool, seeds: range) -> list[tuple[Game, HandState]]:
    """Every position of a hand of random play from each seed (moves drawn from the full listing)."""
    out: list[tuple[Game, HandState]] = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game.new(engine, seed, players, partners=partners, dealer=seed % players)
        state = game.hand
        while not state.over:
            out.append((game, state))
            state = engine.apply_key(state, rng.choice(engine.move_keys(state)))
    return out


@pytest.mark.parametrize("variant,players,partners", AFRICAN_SEATINGS)
def test_the_best_checked_key_is_the_best_of_the_listing(variant: str, players: int, partners: bool) -> None:
    engine = Engine(load_rules(variant))
    policy = PlayoutPolicy(engine)
    refused_first = 0
    checked = 0
    for game, state in _positions(engine, players, partners, range(6)):
        listing = engine.move_keys(state)
        keys, check = engine.unchecked_keys(state)
        assert check is not None   # (no listing remembered: every African position is checked key by key)
        kept = [k for k in keys if check.passes(k)]
        assert kept == listing     # the check keeps what the listing keeps, in its order
        if len(listing) < 2:
            continue
        checked += 1
        worth = CardWorth(engine, game.scorer)
        best = best_checked_gain_key(worth, state, keys, check, engine)
        assert keys[best] == listing[best_gain_key(worth, state, listing, engine)]
        rated = policy.best_checked_key(worth, state, keys, check, engine)
        assert keys[rated] == listing[policy.best_key(worth, state, listing, engine)]
        if not check.passes(keys[best_gain_key(worth, state, keys, engine)]):
            refused_first += 1   # (the best-rated key refused: the next is asked)
    assert checked > 100
    assert refused_first > 0, "no position asked past a refused best key: the walk tests too little"


@pytest.mark.parametrize("variant,players,partners", [("south-african-casino", 3, False), ("swazi-casino", 2, False)])
def test_a_greedy_playout_plays_the_moves_of_the_full_listing(variant: str, players: int, partners: bool) -> None:
    engine = Engine(load_rules(variant))
    played = 0
    for game, state in _positions(engine, players, partners, range(2))[::5]:
        worth = CardWorth(engine, game.scorer)
        first = engine.move_keys(state)[0]
        after = engine.apply_key(state, first)
        # The same playout written over the full listing, to the deal's end.
        expected = after
        while not expected.over and expected.deal_no == state.deal_no:
            listing = engine.move_keys(expected)
            expected = engine.apply_key(expected, listing[0] if len(listing) == 1
                                        else listing[best_gain_key(worth, expected, listing, engine)])
            played += 1
        got = greedy_playout(engine, worth, state, engine.move_of(state, first), False)
        assert (got.hands, got.table, got.piles, got.stacks, got.builds, got.turn, got.deal_no) == \
            (expected.hands, expected.table, expected.piles, expected.stacks, expected.builds, expected.turn,
             expected.deal_no)
    assert played > 50


def test_variants_without_whole_move_rules_get_the_listing_itself() -> None:
    for variant in ("standard", "krypkasino", "scopa"):
        engine = Engine(load_rules(variant))
        for _, state in _positions(engine, 2, False, range(1))[:12]:
            keys, check = engine.unchecked_keys(state)
            assert check is None and keys == engine.move_keys(state)


def test_take_all_compares_the_kept_keys_so_the_listing_is_given(tmp_path: Path) -> None:
    rule = tmp_path / "grabby.yaml"
    rule.write_text("name: grabby\nextends: south-african-casino\ncapture:\n  take_all: true\n", encoding="utf-8")
    engine = Engine(load_rules(rule))
    for _, state in _positions(engine, 2, False, range(1))[:20]:
        keys, check = engine.unchecked_keys(state)
        assert check is None and keys == engine.move_keys(state)


def test_a_remembered_listing_is_given_as_it_is_and_a_copy() -> None:
    engine = Engine(load_rules("south-african-casino"))
    _, state = _positions(engine, 3, False, range(1))[4]
    legal = engine.legal_moves(state)   # (remembers the position's listing)
    keys, check = engine.unchecked_keys(state)
    assert check is None and keys == engine.move_keys(state) and len(keys) == len(legal)
    keys.clear()   # the caller's own list: the engine's memo is not changed
    assert engine.move_keys(state) and len(engine.legal_moves(state)) == len(legal)


def test_a_position_past_the_listing_budget_is_refused_as_move_keys_refuses_it() -> None:
    rules = load_rules("south-african-casino")
    walker = Engine(rules)
    positions = [state for _, state in _positions(walker, 2, False, range(3))]
    listing, checking = Engine(rules), Engine(rules)   # (each its own memo of refused positions)
    listing.move_budget = checking.move_budget = 2
    refused = 0
    for state in positions:
        try:
            keys = listing.move_keys(state)
        except PositionTooLargeError as e:
            with pytest.raises(PositionTooLargeError) as unchecked:
                checking.unchecked_keys(state)
            assert str(unchecked.value) == str(e)
            refused += 1
        else:
            got, check = checking.unchecked_keys(state)
            assert check is not None and [k for k in got if check.passes(k)] == keys
    assert refused > 0


@pytest.mark.parametrize("copies", [1, 5])
def test_first_passing_is_the_best_value_among_the_keys_that_pass(copies: int) -> None:
    """Values drawn at random (ties many) over the real check of each position; five copies of the keys
    pass 62, where the refused keys are kept in a sorted order rather than a machine word's bits."""
    engine = Engine(load_rules("south-african-casino"))
    asked = 0
    for _, state in _positions(engine, 3, False, range(2))[::3]:
        keys, check = engine.unchecked_keys(state)
        assert check is not None
        keys = keys * copies
        rng = random.Random(len(keys))
        for _ in range(10):
            values = [float(rng.randint(0, 3)) for _ in keys]
            kept = [i for i, k in enumerate(keys) if check.passes(k)]
            want = max(kept, key=lambda i: (values[i], -i)) if kept else -1
            assert first_passing(values, keys, check) == want
            asked += 1
    assert asked > 100

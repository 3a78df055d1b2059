"""Properties of the engine over random play in every variant, and an independent
brute-force check of the capture generator on small tables."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cassino.engine.core import Engine, Position
from cassino.engine.moves import IllegalMoveError, MoveKind
from cassino.engine.notation import format_move, parse_move
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules

from conftest import VARIANTS

ENGINES = {name: Engine(load_rules(name)) for name in VARIANTS}


def _players(engine: Engine, rnd: random.Random) -> int:
    s = engine.rules.seats
    return rnd.randint(s.min_players, min(s.max_players, 4))


@pytest.mark.parametrize("name", VARIANTS)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_hand_conserves_cards_and_ends(name: str, seed: int) -> None:
    engine = ENGINES[name]
    rnd = random.Random(seed)
    players = _players(engine, rnd)
    state = engine.start(seed, players, dealer=rnd.randrange(players), partners=players == 4 and rnd.random() < 0.5)
    full = engine.full
    for _ in range(400):
        if state.over:
            break
        placed = [state.table, *state.hands, *state.piles, *(b.cards for b in state.builds),
                  sum(1 << i for i in state.stock)]
        total = 0
        for part in placed:
            assert not total & part, "a card is in two places"
            total |= part
        assert total == full, "a card was lost"
        moves = engine.legal_moves(state)
        assert moves, "a player with cards has no legal move"
        assert len(set(moves)) == len(moves)
        move = rnd.choice(moves)
        # resolve: with two packs a name is matched to the copy where the move says it is
        assert engine.resolve(state, parse_move(format_move(move, engine.deck), engine.deck)) == move
        state = engine.play(state, move)
    assert state.over, "the hand did not end"
    pile_total = 0
    for pile in state.piles:
        pile_total |= pile
    if state.last_capturer is not None:
        assert pile_total == full
    assert not any(state.hands) and not state.stock


def _brute_force_captures(engine: Engine, state, p: int) -> set[tuple[int, tuple[int, ...]]]:
    """Captures of card p by definition: every set of table items that splits into groups,
    each an equal card, a set of loose number cards adding up to the played value, or a
    build of that value (standard rules: several groups, any number of equal cards)."""
    loose = [i for i in range(engine.n_cards) if state.table >> i & 1]
    items = [("card", i) for i in loose] + [("build", b) for b in state.builds]
    values = engine.hv[p]
    found = set()

    def group_ok(group, v) -> bool:
        if len(group) == 1 and group[0][0] == "build":
            return group[0][1].value == v
        if any(kind == "build" for kind, _ in group):
            return False
        cards = [x for _, x in group]
        if any(not engine.tv[c] for c in cards):
            return False

        def sums(cs):
            if not cs:
                return {0}
            return {a + b for a in engine.tv[cs[0]] for b in sums(cs[1:])}
        return v in sums(cards)

    def partitions(rest, v) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        for k in range(len(others) + 1):
            for extra in combinations(others, k):
                group = (first,) + extra
                if group_ok(list(group), v):
                    remaining = [x for x in others if x not in extra]
                    if partitions(remaining, v):
                        return True
        return False

    for k in range(1, len(items) + 1):
        for subset in combinations(items, k):
            if any(partitions(list(subset), v) for v in values):
                loose_mask = sum(1 << x for kind, x in subset if kind == "card")
                builds = tuple(sorted(x.cards for kind, x in subset if kind == "build"))
                found.add((loose_mask, builds))
    return found


@pytest.mark.parametrize("name", ["standard", "royal"])
@given(seed=st.integers(0, 2**32 - 1), n_loose=st.integers(0, 7), n_builds=st.integers(0, 2))
def test_captures_match_brute_force(name: str, seed: int, n_loose: int, n_builds: int) -> None:
    engine = ENGINES[name]
    rnd = random.Random(seed)
    deck = list(engine.deck.cards)
    rnd.shuffle(deck)
    numbers = [c for c in deck if engine.hv[engine.deck.index(c)]]
    hand = [c for c in deck if engine.hv[engine.deck.index(c)]][:1]
    table = [c for c in deck if c not in hand][:n_loose]
    builds = []
    pool = [c for c in numbers if c not in hand and c not in table]
    for _ in range(n_builds):
        a, b = pool.pop(), pool.pop()
        va, vb = engine.tv[engine.deck.index(a)][0], engine.tv[engine.deck.index(b)][0]
        builds.append(([a, b], va + vb, 1))
    state = engine.position(Position(players=2, hands={0: hand}, table=table, builds=builds))
    p = engine.deck.index(hand[0])
    generated = {(m.loose, m.builds) for m in engine.legal_moves(state) if m.kind is MoveKind.CAPTURE}
    assert generated == _brute_force_captures(engine, state, p)


def _twenty_low_cards() -> tuple[Engine, object]:
    engine = Engine(load_rules("standard"))
    cards = [c for c in engine.deck.cards if c.rank in ("A", "2", "3", "4", "5")][:20]
    hand = [engine.deck.parse("10S"), engine.deck.parse("9H")]
    other = [engine.deck.parse("KC"), engine.deck.parse("QC")]
    return engine, engine.position(Position(players=2, hands={0: hand, 1: other}, table=cards))


def test_twenty_loose_cards_enumerate_within_a_raised_budget() -> None:
    engine, state = _twenty_low_cards()
    engine.move_budget = 1_000_000   # 316,588 moves: more than the default budget lists
    moves = engine.legal_moves(state)
    captures = [m for m in moves if m.kind is MoveKind.CAPTURE]
    assert len(captures) > 1000
    assert all(bin(m.loose).count("1") >= 2 for m in captures)


def test_a_position_beyond_the_budget_is_refused_yet_still_played() -> None:
    """Twenty low cards under a 10 make 316,588 captures: the default budget refuses to list
    them (every listing, at once when asked again), but a given move is still checked and
    played, and some moves of every hand card are offered with bounded work."""
    engine, state = _twenty_low_cards()
    for listing in (engine.legal_moves, engine.move_keys, engine.count_moves, lambda s: list(engine.iter_moves(s))):
        with pytest.raises(PositionTooLargeError, match="too many legal moves to list"):
            listing(state)
    deck = engine.deck
    take = parse_move("10S capture AC 4C 5C 2D 3D AH 4H", deck)
    assert engine.is_legal(state, take)
    assert not engine.is_legal(state, parse_move("10S capture AC 4C 5C 2D 3D AH", deck))   # 13: not a set of 10s
    assert not engine.is_legal(state, parse_move("9H capture AC 4C 5C", deck))            # 10 is not 9
    after = engine.play(state, take)
    assert after.turn == 1 and bin(after.table).count("1") == 13
    with pytest.raises(IllegalMoveError):
        engine.play(state, parse_move("10S capture AC 4C", deck))
    offered = engine.some_moves(state, 40)
    assert 2 <= len(offered) <= 40
    assert {format_move(m, deck).split()[0] for m in offered} == {"10S", "9H"}
    assert all(engine.is_legal(state, m) for m in offered)
    kinds = {m.kind for m in offered}
    assert MoveKind.CAPTURE in kinds and MoveKind.BUILD in kinds   # (9H builds 10 for the 10S)
    for move in offered:   # each a whole move: a capture's cards make sets worth the card played
        worth = (10 if format_move(move, deck).startswith("10S") else 9) if move.kind is MoveKind.CAPTURE \
            else move.value
        if move.kind is not MoveKind.TRAIL:
            total = sum(int(c.rank.replace("A", "1")) for c in deck.cards_of(move.loose | move.played))
            assert (total - (worth if move.kind is MoveKind.CAPTURE else 0)) % worth == 0


def test_a_table_of_a_hundred_cards_is_refused_at_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The rule file that froze a server (three Spanish packs, 100 cards on the table), as a
    position: listing is refused after a count, not after minutes; a move is still played."""
    rule = tmp_path / "big.yaml"
    rule.write_text("name: big\nextends: escoba\ndeck: {packs: 3}\nseats: {max_players: 2}\n"
                    "deal: {table_cards: 20, hand_size: 10}\n", encoding="utf-8")
    engine = Engine(load_rules(rule))
    cards = list(engine.deck.cards)
    hand, table = cards[:10], cards[20:120]
    state = engine.position(Position(players=2, hands={0: hand, 1: cards[10:20]}, table=table))
    with pytest.raises(PositionTooLargeError, match="100 table items"):
        engine.count_moves(state)
    offered = engine.some_moves(state, 30)
    assert offered and all(engine.is_legal(state, m) for m in offered)
    engine.play(state, offered[0])

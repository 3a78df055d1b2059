"""Steps bounded by the actions offered: the step-wise games walk a position's moves lazily
(``engine.choices``), never listing them all, and still offer exactly the legal moves.

- On random positions of every variant (tables of 20 to 36 loose cards among them,
  Hungarian's several-card plays), the actions offered after every prefix are exactly
  the next actions of the legal moves' sequences that start with it, and every legal
  move is reached.
- On positions with hundreds of thousands to millions of legal moves, a whole move is
  chosen without the engine's move list ever being made, in a few megabytes.
"""

from __future__ import annotations

import random
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.apps.research.stepwise import IllegalStep, Setup, Step, table_for
from cassino.engine import movegen
from cassino.engine.core import Position, bits
from cassino.engine.moves import Move, MoveKind
from cassino.engine.state import HandState
from cassino.errors import PositionTooLargeError

from conftest import VARIANTS


def _table(variant: str):  # type: ignore[no-untyped-def]
    return table_for(Setup.from_params({"variant": variant}))


def _filler(engine, hand: int, card: int) -> bool:  # type: ignore[no-untyped-def]
    """A card that, loose, is only ever taken or built alone: no value (courts in plain Casino),
    or worth more than half of anything the hand can capture, so no two fillers add up to a
    target. Many of them make a big table with a countable number of moves."""
    values = engine.tv[card]
    if not values:
        return True
    hand_values = sorted((max(engine.hv[c] or (0,)) for c in bits(hand)), reverse=True)
    most = engine.tables.hand_cards_max
    reach = max(sum(hand_values[:most]), max(hand_values or [0]), engine.tables.build_max)
    return 2 * min(values) > reach


def _position(variant: str, seed: int, plies: int, extra: int) -> HandState | None:
    """A position reached by random play, then (``extra``) stock cards laid loose on the table."""
    engine = _table(variant).engine
    rules = engine.rules
    state = engine.start(seed, rules.seats.min_players)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = engine.legal_moves(state)
        after = engine.apply(state, rng.choice(moves))
        if after.over or after.deal_no != state.deal_no:
            break
        state = after
    if state.over or not state.hands[state.turn]:
        return None
    hand = state.hands[state.turn]
    moved = [c for c in state.stock if _filler(engine, hand, c)][:extra]
    if moved:
        table = state.table
        for c in moved:
            table |= 1 << c
        state = state.with_(table=table, stock=tuple(c for c in state.stock if c not in moved))
    return state


def _expected_nexts(seqs: list[tuple[int, ...]], prefix: tuple[int, ...]) -> set[int]:
    n = len(prefix)
    return {s[n] for s in seqs if s[:n] == prefix and len(s) > n}


def _walk_all(start: Step, seqs: list[tuple[int, ...]]) -> set[tuple[int, ...]]:
    """Every action path from the turn's start; checks each state's offer on the way."""
    claim = start.table.encoding.CLAIM
    done = start.table.encoding.DONE
    reached: set[tuple[int, ...]] = set()

    def walk(step: Step) -> None:
        offered = {a for a in step.legal if a != claim}
        assert offered == _expected_nexts(seqs, step.prefix), step.prefix
        assert step.prefix == () or len(offered) > 1, "a forced step was left to the player"
        for action in sorted(offered):
            nxt = step.apply(action)
            if nxt.game.hand is not step.game.hand or nxt.ended:     # the move was played
                path = step.prefix + (action,)
                while path[-1] != done:   # the forced actions the step took by itself
                    (forced,) = _expected_nexts(seqs, path)
                    path += (forced,)
                reached.add(path)
            else:
                walk(nxt)

    walk(start)
    return reached


@settings(max_examples=30)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000), plies=st.integers(0, 10),
       extra=st.sampled_from([0, 0, 8, 20, 30, 36]))
def test_the_lazy_walk_offers_exactly_the_legal_moves(variant: str, seed: int, plies: int, extra: int) -> None:
    table = _table(variant)
    state = _position(variant, seed, plies, extra)
    if state is None:
        return
    try:
        moves = table.engine.legal_moves(state)
    except PositionTooLargeError:   # (beyond the engine's listing budget: nothing to compare with)
        return
    if len(moves) > 3000:     # (the fillers keep nearly every position far below this)
        return
    seqs = [seq for seq, _ in table.encoding.sequences(state, moves)]
    enc = table.encoding
    saved = enc.list_items
    enc.list_items = 0   # (the lazy walk even where the position is small enough to list)
    try:
        start = Step.at(table, state)
        assert _walk_all(start, seqs) == set(seqs)
    finally:
        enc.list_items = saved


@pytest.mark.parametrize("variant", VARIANTS)
def test_listed_turns_offer_what_the_lazy_walk_offers(variant: str) -> None:
    """Small positions are listed by the engine (``stepwise.LIST_ITEMS``), not walked lazily: along a
    random hand, each state's offer, the forced steps taken and the move played are the same both ways."""
    table = _table(variant)
    enc = table.encoding
    saved = enc.list_items
    assert saved > 0 or enc.copies   # (two packs are always walked)

    def lazy(on: bool) -> None:
        enc.list_items = 0 if on else saved
        enc.listed = None

    rng = random.Random(11)
    step, walked = table.initial, None
    listed_turns = 0
    try:
        while not step.ended:
            if step.deal is not None:
                step, walked = step.apply(rng.choice(bits(step.deal.remaining))), None
                continue
            if walked is None:
                lazy(True)
                walked = step._turn(step.game)
                lazy(False)
                listed_turns += step._listed() is not None
            assert walked.legal == step.legal and walked.prefix == step.prefix
            action = rng.choice(step.legal)
            lazy(True)
            after_walk = walked.apply(action)
            lazy(False)
            after = step.apply(action)
            assert after.log == after_walk.log and after.game.hand == after_walk.game.hand
            step, walked = after, (after_walk if after.prefix else None)
    finally:
        lazy(False)
    assert listed_turns > 0 or enc.copies


@pytest.mark.parametrize("variant, hand, table_ranks", [
    ("hungarian", "6S 5S 4S", "K Q J 10 9 A 2"),      # 28 loose cards, 120,252 legal moves
    ("hungarian", "KS QS JS", "A 2 3 4"),             # several-card plays worth up to 36, 27,193 moves
    ("draw", "10S 9S 8S 7S", "K Q J 10 9 8 A 2"),     # 29 loose cards, 55,353 legal moves
])
def test_big_tables_offer_exactly_the_legal_prefixes_along_random_paths(variant: str, hand: str,
                                                                        table_ranks: str) -> None:
    """Too many moves to walk them all: random paths, each state's offer checked against the
    legal moves' sequences (listed once here, by the engine, for the check)."""
    table = _table(variant)
    state = _big(variant, hand, table_ranks)
    engine = table.engine
    budget = engine.move_budget
    engine.move_budget = 1_000_000   # (120,252 moves: the reference list, beyond the default budget)
    try:
        seqs = [seq for seq, _ in table.encoding.sequences(state, engine.legal_moves(state))]
    finally:
        engine.move_budget = budget
    by_prefix: dict[tuple[int, ...], set[int]] = {}
    for s in seqs:
        for n in range(len(s)):
            by_prefix.setdefault(s[:n], set()).add(s[n])
    claim = table.encoding.CLAIM
    rng = random.Random(7)
    for _ in range(4):   # (four paths: each step of each walked lazily, the suite's most costly test at six)
        step = Step.at(table, state)
        while step.game.hand is state:
            assert {a for a in step.legal if a != claim} == by_prefix[step.prefix]
            step = step.apply(rng.choice([a for a in step.legal if a != claim]))


def _big(variant: str, hand: str, table_ranks: str) -> HandState:
    engine = _table(variant).engine
    deck = engine.deck
    held = [deck.parse(c) for c in hand.split()]
    loose = [c for c in deck.cards if c not in held and c.rank in table_ranks.split()]
    other = [c for c in deck.cards if c not in held and c not in loose][:len(held)]
    return engine.position(Position(players=2, hands={0: held, 1: other}, table=loose))


@pytest.mark.parametrize("variant, hand, table_ranks", [
    ("hungarian", "6S 5S 4S", "K Q J 10 9 8 7 A 2"),  # 36 loose cards, 2,645,989 legal moves
    ("draw", "10S 9S 8S 7S", "K Q J 10 9 8 A 2 3"),   # 33 loose cards, 544,349 legal moves
])
def test_a_move_among_millions_is_chosen_without_listing_them(monkeypatch: pytest.MonkeyPatch, variant: str,
                                                              hand: str, table_ranks: str) -> None:
    """Memory bounded by the actions offered: the engine's move list is never made (its
    generator is replaced by one that fails), and the traced peak stays a few megabytes
    (listing these moves took 233 MB to 2.5 GB before)."""
    table = _table(variant)
    state = _big(variant, hand, table_ranks)

    def refuse(*args: object) -> list[int]:
        raise AssertionError("the step listed every legal move")

    monkeypatch.setattr(movegen, "generate", refuse)
    monkeypatch.setattr("cassino.engine.core.generate", refuse)
    rng = random.Random(3)
    claim = table.encoding.CLAIM
    tracemalloc.start()
    try:
        for _ in range(3):
            step = Step.at(table, state)
            while step.game.hand is state:
                step = step.apply(rng.choice([a for a in step.legal if a != claim]))
            peak = tracemalloc.get_traced_memory()[1]
            assert peak < 16_000_000, f"peak {peak:,} bytes"
            move: Move = step.game.moves_this_hand()[-1][1]
            assert move.played and move.played & state.hands[0] == move.played
            if move.kind is MoveKind.CAPTURE:    # the cards taken come in sets worth the cards played
                worth = sum(max(table.engine.hv[c]) for c in bits(move.played))
                taken = sum(max(table.engine.tv[c] or (0,)) for c in bits(move.loose))
                assert taken % worth == 0 and move.loose & state.table == move.loose
    finally:
        tracemalloc.stop()


def test_actions_for_refuses_moves_that_are_not_there() -> None:
    """A move naming a build, a card or a value this position does not have is refused
    with IllegalStep, found by walking the move's own actions (no move list)."""
    table = _table("standard")
    state = _big("standard", "10S 9S 8S 7S", "K Q J 10 9 8 A 2 3")
    step = Step.at(table, state)
    deck = table.engine.deck
    m = deck.mask
    ten, ace, two = deck.parse("10S"), deck.parse("AH"), deck.parse("2H")
    not_there = [
        Move(MoveKind.CAPTURE, m([ten]), m([ace, two]), ()),                     # 1 + 2 is not 10
        Move(MoveKind.CAPTURE, m([ten]), 0, (m([ace, two]),)),                   # no such build
        Move(MoveKind.BUILD, m([deck.parse("7S")]), m([two]), (), 99),           # no such value
        Move(MoveKind.TRAIL, m([deck.parse("KS")]), 0, ()),                      # not in the hand
        Move(MoveKind.CAPTURE, m([ten]), m([deck.parse("10H"), deck.parse("AS")]), ()),
    ]
    for move in not_there:
        with pytest.raises(IllegalStep):
            step.actions_for(move)
    good = Move(MoveKind.CAPTURE, m([ten]), m([deck.parse("10H"), deck.parse("10D")]), ())
    s = step
    for action in step.actions_for(good):
        s = s.apply(action)
    assert s.game.moves_this_hand()[-1][1] == good


def test_the_lazy_walk_offers_exactly_the_legal_moves_under_drawn_house_rules(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The walk (``engine.choices``) mirrors each family of the listing's moves, so a combination of settings
    the listing handles and the walk does not would offer a move that is not there, or hide one (session 88
    changed both for two such combinations). Random positions of one hand of 20 house rules drawn at random, at
    the fewest players and at four (a longer run of the same check, 1,000 rules and 34,481 positions, agreed)."""
    from cassino.apps.authors import generated
    from cassino.language.variants import load_rules

    rnd = random.Random(88)
    walked = 0
    for k in range(20):
        path, _ = generated.valid(rnd, VARIANTS, tmp_path, k)
        seats = load_rules(str(path)).seats
        for players in sorted({seats.min_players, min(4, seats.max_players)}):
            table = table_for(Setup.from_params({"variant": str(path), "players": players}))
            engine = table.engine
            state = engine.start(k, players)
            while not state.over:
                try:
                    moves = engine.legal_moves(state)
                except PositionTooLargeError:
                    break
                if not state.turn_card and 1 < len(moves) <= 2000 and rnd.random() < 0.5:
                    seqs = [seq for seq, _ in table.encoding.sequences(state, moves)]
                    saved, table.encoding.list_items = table.encoding.list_items, 0
                    try:
                        assert _walk_all(Step.at(table, state), seqs) == set(seqs), (path.read_text(), state)
                    finally:
                        table.encoding.list_items = saved
                    walked += 1
                state = engine.apply(state, rnd.choice(moves))
    assert walked > 300

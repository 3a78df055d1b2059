"""Positions beyond the engine's listing budget drawn at random (not picked): the moves a computer player,
a hint or the browser is offered there (``Engine.playable_moves``, the lazy walk's sample) are never none,
are every one legal, and are the same on every run.

Each example draws a rule file, a table of many low cards (the tables that hold millions of captures), the
mover's hand, sometimes a build the mover owns (with a card of its value kept), and where the rules put
opposing capture piles in play, a pile for every other seat. Positions the engine can list are passed over:
the property is about the others.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from hypothesis import assume, given, strategies as st

from cassino.engine.core import Engine, Position
from cassino.engine.moves import MoveKind
from cassino.engine.notation import format_move
from cassino.errors import PositionTooLargeError
from cassino.language.variants import bundled_names, load_rules

#: House rules the generated soak found positions in where no move was offered (tests/test_combination_finds.py).
HOUSE_RULES = {
    "keeping-a-build": {"name": "keeping-a-build", "description": "south-african-casino, lowest total, equal first",
                        "extends": "south-african-casino", "build": {"raise_own": True},
                        "capture": {"equal_card_first": True}, "game": {"goal": "lowest"}},
    "scopa-builds": {"name": "scopa-builds", "description": "scopa with builds", "extends": "scopa",
                     "build": {"allowed": True}},
}
RULES = [*bundled_names(), *HOUSE_RULES]

_engines: dict[str, Engine] = {}


def _engine(name: str, folder: Path) -> Engine:
    if name not in _engines:
        if name in HOUSE_RULES:
            path = folder / f"{name}.yaml"
            path.write_text(yaml.safe_dump(HOUSE_RULES[name], sort_keys=False), encoding="utf-8")
            _engines[name] = Engine(load_rules(path))
        else:
            _engines[name] = Engine(load_rules(name))
    return _engines[name]


#: The low ranks a table is mostly drawn from, with their values (a build of two of them is worth their sum).
LOW = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}


def _position(engine: Engine, rng: random.Random, players: int, build: bool):  # type: ignore[no-untyped-def]
    """A random position of ``engine``'s rules: 16 to 29 cards on the table, most of them low, seat 0 to play
    with one to four cards, every other seat two; ``build``: seat 0 owns a build of two table cards and
    keeps a card of its value; opposing piles of three cards where the rules put their cards in play."""
    cards = list(engine.deck.cards)
    rng.shuffle(cards)
    low = [c for c in cards if c.rank in LOW]
    rest = [c for c in cards if c.rank not in LOW]
    table = low[:rng.randrange(16, 24)] + rest[:rng.randrange(0, 7)]
    left = [c for c in cards if c not in table]
    hand = left[:rng.randrange(1, 5)]
    left = left[len(hand):]
    builds = []
    if build:
        pair = table[:2]   # (two low cards: the table starts with them)
        value = LOW[pair[0].rank] + LOW[pair[1].rank]
        keep = next((c for c in left if LOW.get(c.rank) == value or c.rank == str(value)), None)
        if keep is not None:
            table = table[2:]
            builds = [(pair, value, 0)]
            left.remove(keep)
            hand = [keep] + hand[:3]
    hands = {0: hand}
    for seat in range(1, players):
        hands[seat], left = left[:2], left[2:]
    captured = None
    if engine.tables.pile_augment:
        captured = {seat: left[3 * (seat - 1):3 * seat] for seat in range(1, players)}
    return engine.position(Position(players=players, hands=hands, table=table, builds=builds,
                                    captured=captured, stock=[]))


@given(name=st.sampled_from(RULES), seed=st.integers(0, 2 ** 32 - 1), players=st.integers(2, 6),
       build=st.booleans())
def test_a_position_beyond_the_listing_budget_offers_legal_moves_the_same_on_every_run(
        tmp_path_factory: pytest.TempPathFactory, name: str, seed: int, players: int, build: bool) -> None:
    engine = _engine(name, tmp_path_factory.getbasetemp())
    seats = engine.rules.seats
    players = min(max(players, seats.min_players), seats.max_players)
    state = _position(engine, random.Random(seed), players, build)
    try:
        engine.move_keys(state)
        assume(False)   # (listed: not what this property is about)
    except PositionTooLargeError:
        pass
    offered = engine.playable_moves(state)
    shown = [format_move(m, engine.deck) for m in offered]
    assert offered, f"no move offered at {state!r}"
    for move, text in zip(offered, shown):
        assert engine.is_legal(state, move), (text, engine.why_illegal(state, move))
    again = Engine(engine.rules).playable_moves(state)
    assert [format_move(m, engine.deck) for m in again] == shown


def test_a_misere_table_of_22_cards_offers_its_captures() -> None:
    """Found by drawing positions as the property does (kasino-misär, the bundled game won by the fewest
    points, where players keep from capturing and tables grow): seat 0 holds KD and 8C, 22 cards lie loose,
    and capturing is compulsory, so every move is a capture. The walk takes every item that still leads to a
    capture, and its first captures of 13 and of 8 grew until their checks spent the whole work: no move was
    offered and the computer player had none to choose (last session's engine). Each capture is now walked
    again for its shortest move."""
    engine = Engine(load_rules("kasino-misar"))
    deck = engine.deck
    table = "AS 2S 3S 4S 5S 9S JS AH 2H 3H 4H 5H 6H AD 3D 4D 6D 2C 3C 5C 6C QC".split()
    state = engine.position(Position(players=2, dealer=1, hands={0: [deck.parse("KD"), deck.parse("8C")],
                                                                 1: [deck.parse("JD"), deck.parse("7C")]},
                                     table=[deck.parse(c) for c in table], stock=[]))
    with pytest.raises(PositionTooLargeError):
        engine.move_keys(state)
    offered = engine.playable_moves(state)
    assert {m.kind for m in offered} == {MoveKind.CAPTURE}
    assert {m.played for m in offered} == {deck.mask([deck.parse("KD")]), deck.mask([deck.parse("8C")])}
    assert all(engine.is_legal(state, m) for m in offered)

"""The warnings' lazy walk (``warnings.takes_by_walk``) answers as the listing does.

At a crowded table the warnings find what one card of the next player takes from the engine's lazy walk of
the moves rather than from its listing (thousands of captures a card: seconds a warning). The two must agree
on every position where the walk is used: every bundled variant and seating, from positions of random play
and of play that trails whenever it can (the crowded tables of a game won by the lowest total), and a house
rule of the kind where the soak found the warnings slow."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cassino.apps.authors.matrix import Seating, seatings
from cassino.apps.learning import warnings
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.state import HandState
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules

SEATINGS = seatings()

#: Where the soak found the warnings slow (1.3-2.6 s a move): Hungarian with Ulmann's rules won by the
#: lowest total, a capturing card kept for one's builds.
LOWEST_HUNGARIAN = """name: lowest-hungarian
description: a house rule
extends: hungarian-ulmann
build:
  keep_capturing_card: true
game:
  goal: lowest
"""
#: The same won by the highest total, for whole warnings (none is given where the lowest total wins: points
#: left to the next player are no risk there); its tables are crowded by trailing whenever one can.
CROWDED_HUNGARIAN = LOWEST_HUNGARIAN.replace("lowest", "highest")


def _probes(engine: Engine, state: HandState, rng: random.Random, most: int) -> list[tuple[HandState, int]]:
    """The next player holding one card at a time (as the warnings probe it), for a few cards, beside the cards
    it keeps for the builds it holds (``warnings._keepers``); each probe with its card's bit."""
    nxt = state.turn
    cards = [i for i in range(engine.n_cards) if not (state.hands[nxt] >> i & 1)]
    out = []
    for card in rng.sample(cards, min(most, len(cards))):
        hands = list(state.hands)
        unseen = engine.full & ~state.hands[nxt] & ~state.table
        hands[nxt] = 1 << card | warnings._keepers(engine, state, nxt, card, unseen)
        out.append((state.with_(hands=tuple(hands), stock=tuple(range(len(state.stock)))), 1 << card))
    return out


def _compare(engine: Engine, players: int, partners: bool, seed: int, trail_first: bool,
             every: int = 1, probes: int = 2, plies: int = 10 ** 6) -> tuple[int, int]:
    """Probes compared between the walk and the listing (``probes`` cards at every ``every``-th turn, for the
    first ``plies`` plies of a hand), and how many had more than ``WALK_ABOVE`` items."""
    rng = random.Random(seed)
    compared = crowded = 0
    state = engine.start(seed, players, partners=partners)
    while not state.over and state.ply < plies:
        for probe, card in _probes(engine, state, rng, probes) if state.ply % every == 0 else []:
            if not warnings.walkable(engine, probe):
                return compared, crowded
            try:
                engine.legal_moves(probe)
            except PositionTooLargeError:
                continue   # (beyond the listing budget the listing is a sample: nothing to compare with)
            assert warnings.takes_by_walk(engine, probe, card) == warnings.takes_by_listing(engine, probe, card), \
                (engine.rules.name, seed, state.ply)
            compared += 1
            crowded += bin(probe.table).count("1") + len(probe.builds) > warnings.WALK_ABOVE
        moves = engine.playable_moves(state)
        trails = [m for m in moves if m.kind == MoveKind.TRAIL]
        state = engine.apply(state, rng.choice(trails if trail_first and trails else moves))
    return compared, crowded


@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.label)
def test_the_walk_finds_what_the_listing_finds_in_every_seating(seating: Seating) -> None:
    engine = Engine(load_rules(seating.variant))
    trail_first = len(seating.label) % 2 == 0   # (random play in half the seatings, trails first in the rest)
    compared, _ = _compare(engine, seating.players, seating.partners, 1, trail_first, every=3, plies=20)
    if warnings.walkable(engine, engine.start(1, seating.players, partners=seating.partners)):
        assert compared >= 5
    else:
        assert compared == 0   # (whole-move rules, take-all, two packs or piles: the listing always)


def test_the_walk_agrees_on_the_crowded_tables_where_the_warnings_were_slow(tmp_path: Path) -> None:
    rule = tmp_path / "lowest-hungarian.yaml"
    rule.write_text(LOWEST_HUNGARIAN, encoding="utf-8")
    engine = Engine(load_rules(str(rule)))
    compared, crowded = _compare(engine, 2, False, 100, True, every=2)
    assert compared >= 20 and crowded >= 8


class _BeyondTheBudget(Exception):
    """A probe the engine will not list whole (its listing would be a sample)."""


def _listed_whole(engine: Engine, probe: HandState, card: int = 0) -> tuple[bool, int, tuple[int, ...]]:
    try:
        engine.legal_moves(probe)
    except PositionTooLargeError:
        raise _BeyondTheBudget() from None
    return LISTED(engine, probe, card)


LISTED = warnings.takes_by_listing


def test_warnings_are_the_same_with_the_walk_and_without(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole warnings, move by move, in crowded games: the walk used above ``WALK_ABOVE`` items and never
    (where a probe is beyond the listing budget the listing is a sample, the walk exact: not compared)."""
    rule = tmp_path / "lowest-hungarian.yaml"
    rule.write_text(CROWDED_HUNGARIAN, encoding="utf-8")
    engine = Engine(load_rules(str(rule)))
    rng = random.Random(7)
    game = Game.new(engine, 7, 2)
    said = compared = 0
    while not game.over and game.hand.ply < 30:
        moves = game.playable_moves()
        for move in rng.sample(moves, 1) if game.hand.ply % 2 else []:
            monkeypatch.setattr(warnings, "WALK_ABOVE", 10)
            walked = warnings.warnings_for(game, move)
            monkeypatch.setattr(warnings, "WALK_ABOVE", 10 ** 6)
            monkeypatch.setattr(warnings, "takes_by_listing", _listed_whole)
            try:
                listed = warnings.warnings_for(game, move)
            except _BeyondTheBudget:
                continue
            finally:
                monkeypatch.setattr(warnings, "takes_by_listing", LISTED)
            assert walked == listed
            said += len(walked)
            compared += 1
        trails = [m for m in moves if m.kind == MoveKind.TRAIL]
        game = game.play(rng.choice(trails or moves))
    assert said > 0 and compared >= 5


def test_a_walk_past_its_budget_leaves_the_warnings_to_the_listing(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the walk gives up (a table too large to walk: the soak met one), the warnings are the listing's,
    not an error."""
    rule = tmp_path / "lowest-hungarian.yaml"
    rule.write_text(CROWDED_HUNGARIAN, encoding="utf-8")
    engine = Engine(load_rules(str(rule)))
    rng = random.Random(11)
    game = Game.new(engine, 11, 2)
    while not game.over and (bin(game.hand.table).count("1") <= warnings.WALK_ABOVE + 1
                             or bin(game.hand.hands[game.hand.turn]).count("1") < 2):
        moves = game.playable_moves()
        game = game.play(rng.choice([m for m in moves if m.kind == MoveKind.TRAIL] or moves))
    assert not game.over
    move = next(m for m in game.playable_moves() if m.kind == MoveKind.TRAIL)   # (the table stays crowded)
    monkeypatch.setattr(warnings, "WALK_ABOVE", 10 ** 6)
    listed = warnings.warnings_for(game, move)
    monkeypatch.setattr(warnings, "WALK_ABOVE", 10)
    walks = []

    def too_large(engine: Engine, probe: HandState, card: int = 0) -> tuple[bool, int, tuple[int, ...]]:
        walks.append(probe)
        raise PositionTooLargeError("this position is too large to walk (over 100,000 steps); type the move")

    monkeypatch.setattr(warnings, "takes_by_walk", too_large)
    assert warnings.warnings_for(game, move) == listed
    assert walks   # (the walk was tried, and gave up)

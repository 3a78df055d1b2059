"""A move judged alone (``Engine.allowed_alone``: the lazy walk, the whole-move rules, take-all) against the
listing, on positions the engine can list; and ``cassino check`` on tables it cannot.

Beyond the listing budget (more than 100,000 legal moves) the engine decides a move given to it without
listing the position's moves: that is how a typed move, `cassino check`'s `legal` and `illegal`, and a
case's `moves` are judged on a crowded table. The two ways must agree wherever both can answer, so the
property below draws the rule file (every bundled variant and example house rule, or a house rule drawn at
random), the seating, a hand played at random (mostly trailing, so that tables crowd), and at some of its
positions asks both of every legal move and of near misses made from them (a card more or less, another
card played, another build value, another kind of move). Positions and moves come from the seeds drawn;
nothing is picked.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from cassino.apps.authors import generated
from cassino.apps.authors.matrix import seatings
from cassino.engine.core import Engine
from cassino.engine.moves import Move, MoveKind
from cassino.engine.movegen import bits
from cassino.engine.notation import format_move
from cassino.errors import PositionTooLargeError
from cassino.language.catalogue import bundled_names, example_names
from cassino.language.variants import load_rules

ROOT = Path(__file__).resolve().parent.parent

RULE_FILES = [*bundled_names(), *(str(ROOT / "examples" / f"{name}.yaml") for name in example_names())]
SEATINGS = [s for s in seatings(RULE_FILES)]

_engines: dict[str, Engine] = {}


def _engine(name: str) -> Engine:
    if name not in _engines:
        _engines[name] = Engine(load_rules(name))
    return _engines[name]


def near_misses(state, move: Move) -> list[Move]:  # type: ignore[no-untyped-def]
    """Moves one step from a legal one: a card in play added or left out, another hand card played, a build
    on the table added or left out, another build value, a capture read as a build or a trail and back."""
    out: list[Move] = []
    kind = move.kind
    if kind in (MoveKind.CAPTURE, MoveKind.BUILD, MoveKind.TRAIL_BUILD):
        out += [Move(kind, move.played, move.loose ^ (1 << c), move.builds, move.value) for c in bits(state.in_play())]
    if move.played:
        lowest = move.played & -move.played
        out += [Move(kind, (move.played ^ lowest) | (1 << c), move.loose, move.builds, move.value)
                for c in bits(state.hands[state.turn] & ~move.played)]
    out += [Move(kind, move.played, move.loose, tuple(sorted(set(move.builds) ^ {b.cards})), move.value)
            for b in state.builds]
    if kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD) and isinstance(move.value, int):
        out += [Move(kind, move.played, move.loose, move.builds, move.value + d) for d in (-2, -1, 1, 2)]
    if kind is MoveKind.CAPTURE and move.played:
        out += [Move(MoveKind.BUILD, move.played, move.loose, move.builds, v) for v in range(1, 15)]
        out.append(Move(MoveKind.TRAIL, move.played))
    if kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD):
        out.append(Move(MoveKind.CAPTURE, move.played, move.loose, move.builds, None))
    return out


def disagreements(engine: Engine, players: int, partners: bool, seed: int) -> tuple[list[str], int]:
    """Play a hand at random from ``seed`` (trails preferred, so tables crowd) and, at about a third of its
    positions, judge every legal move and up to a dozen near misses of six of them alone: each answer that
    differs from the listing, in words, and how many moves were judged."""
    rnd = random.Random(seed)
    state = engine.start(rnd.randrange(1 << 30), players, partners=partners)
    found: list[str] = []
    judged = 0
    for _ in range(rnd.randrange(1, 60)):
        if state.over:
            break
        try:
            keys = engine.move_keys(state)
        except PositionTooLargeError:
            break   # (beyond the budget the listing has no answer to compare with)
        if rnd.random() < 0.35:
            listed = set(keys)
            legal = engine.moves_of(state, keys)
            tried = list(legal)
            for move in rnd.sample(legal, min(6, len(legal))):
                misses = near_misses(state, move)
                tried += rnd.sample(misses, min(12, len(misses)))
            for move in tried:
                key = engine.key_of(state, move)
                if key < 0:
                    continue   # (a card or build not where the move says: no key, refused either way)
                judged += 1
                keyed = engine.move_of(state, key)
                try:
                    alone = engine.allowed_alone(state, keyed)
                except PositionTooLargeError:
                    continue   # (the walk's own budget: said as such by every caller, never a guess)
                if alone != (key in listed):
                    found.append(f"{format_move(keyed, engine.deck)}: alone {'legal' if alone else 'illegal'}, "
                                 f"listing {'legal' if key in listed else 'illegal'} (seed {seed}, ply {state.ply})")
        trails = [k for k, m in zip(keys, engine.moves_of(state, keys)) if m.kind is MoveKind.TRAIL]
        state = engine.apply_key(state, rnd.choice(trails) if trails and rnd.random() < 0.7 else rnd.choice(keys))
    return found, judged


@given(st.sampled_from(SEATINGS), st.integers(0, 2**32))
def test_a_move_judged_alone_is_judged_as_the_listing_judges_it(seating, seed: int) -> None:  # type: ignore[no-untyped-def]
    found, _ = disagreements(_engine(seating.variant), seating.players, seating.partners, seed)
    assert not found, f"{seating.label}: " + "; ".join(found[:5])


@given(st.integers(0, 2**32))
def test_so_it_is_under_a_house_rule_drawn_at_random(tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    folder = tmp_path_factory.mktemp("drawn")
    rnd = random.Random(seed)
    path, data = generated.valid(rnd, bundled_names(), folder, 0)
    engine = Engine(load_rules(str(path)))
    seating = rnd.choice(seatings([str(path)]))
    found, _ = disagreements(engine, seating.players, seating.partners, rnd.randrange(1 << 30))
    assert not found, f"{generated.summary(data)}: " + "; ".join(found[:5])


def test_the_comparison_judges_moves_and_can_fail() -> None:
    """The property is not empty (it judges legal moves and near misses, both kinds), and a judge that
    differs from the listing is caught."""
    engine = _engine("standard")
    found, judged = disagreements(engine, 2, False, 5)
    assert not found and judged > 50

    class Contrary:
        """The engine, with its judge alone turned round."""

        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(engine, name)

        def allowed_alone(self, state, move):  # type: ignore[no-untyped-def]
            return not engine.allowed_alone(state, move)

    found, _ = disagreements(Contrary(), 2, False, 5)  # type: ignore[arg-type]
    assert found and "alone" in found[0] and "listing" in found[0]

"""A tensor tells apart every two states its text tells apart (issue 35): the private-only
views named the cards of a build being chosen in their text ("choosing: ..., build [3D
5H]") but had only its place in the tensor (19 collisions), and a whole game's
observation text said which hand it was while its tensor did not."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cassino.apps.research.stepwise import Setup, Step, table_for
from cassino.apps.research.views import Kind, Layout
from cassino.engine.core import Position, bits

PRIVATE_ONLY = [Kind(perfect_recall=True, public=False), Kind(perfect_recall=False, public=False),
                Kind(perfect_recall=True, private="all", public=False)]


def _tensor(layout: Layout, step: Step, seat: int) -> bytes:
    flat, views = layout.new()
    layout.fill(step, seat, flat, views)
    return flat.tobytes()


def _choosing_a_build(build: str) -> Step:
    """Standard: seat 0 holds 8S and KS, the table a build of 8 (``build``) and the 8C; seat 0 has
    chosen play 8S, capture, the build (taking the 8C or not is still open)."""
    table = table_for(Setup(variant="standard"))
    deck = table.engine.deck
    state = table.engine.position(Position(
        players=2, hands={0: [deck.parse("8S"), deck.parse("KS")], 1: [deck.parse("2C")]},
        table=[deck.parse("8C")], builds=[([deck.parse(c) for c in build.split()], 8, 1)]))
    step = Step.at(table, state)
    enc = table.encoding
    for action in (deck.index(deck.parse("8S")), enc.KIND + 1, enc.BUILD):
        step = step.apply(action)
    assert step.to_play == 0 and len(step.legal) == 2
    return step


def test_the_cards_of_a_build_being_chosen_are_in_the_private_only_tensor() -> None:
    a, b = _choosing_a_build("5H 3D"), _choosing_a_build("4H 4D")
    for kind in PRIVATE_ONLY:
        layout = Layout(a.table, kind)
        assert layout.text(a, 0) != layout.text(b, 0)
        assert "build [3D 5H]" in layout.text(a, 0)
        assert _tensor(layout, a, 0) != _tensor(layout, b, 0), kind


def test_a_whole_games_observation_tensor_says_which_hand_it_is() -> None:
    """The same position and scores in hand 1 and (as it might stand) in hand 3: the text says
    which hand, and so must the tensor."""
    table = table_for(Setup(variant="standard", whole_game=True))
    rng = random.Random(1)
    step = table.initial
    while step.deal is not None:
        step = step.apply(rng.choice(bits(step.deal.remaining)))
    later = step._replace(game=step.game.with_(hand_no=3))
    layout = Layout(table, Kind(perfect_recall=False))
    assert "hand 1," in layout.text(step, 0) and "hand 3," in layout.text(later, 0)
    assert _tensor(layout, step, 0) != _tensor(layout, later, 0)
    flat, views = layout.new()
    layout.fill(later, 0, flat, views)
    assert views["hand_number"][0] == 3 and layout.high[-1] > 0


def _states(table_setup: Setup, games: int, seed: int) -> list[Step]:
    """States of games from one deal played at random (many share their early plies and their
    private histories), whole or single hands."""
    table = table_for(table_setup)
    out: list[Step] = []
    for g in range(games):
        chance, players = random.Random(seed), random.Random(seed * 1000 + g)
        step = table.initial
        while not step.ended:
            if step.deal is not None:
                step = step.apply(chance.choice(bits(step.deal.remaining)))
                continue
            out.append(step)
            step = step.apply(players.choice([a for a in step.legal if a != table.encoding.CLAIM]))
        out.append(step)
    return out


TWO_PACK_BUILDING = "name: standard-two-packs\ndescription: x\nextends: standard\ndeck:\n  packs: 2\n" \
                    "deal:\n  short_stock: split_rest_to_table\n"


@pytest.mark.parametrize("variant, whole_game", [
    ("standard", False), ("royal", False), ("krypkasino", False), ("two-pack building", False),
    ("kasino-misar", True),
])
def test_no_two_states_with_different_texts_share_a_tensor(tmp_path: Path, variant: str, whole_game: bool) -> None:
    if variant == "two-pack building":
        path = tmp_path / "standard-two-packs.yaml"
        path.write_text(TWO_PACK_BUILDING, encoding="utf-8")
        variant = str(path)
    setup = Setup(variant=variant, whole_game=whole_game, max_hands=3)
    table = table_for(setup)
    seeds, games = (1, 4) if table.encoding.copies else (3, 8)     # (two packs: tensors of 100,000 numbers)
    states = [s for seed in range(seeds) for s in _states(setup, games, seed)]
    kinds = [Kind(perfect_recall=False), Kind(perfect_recall=False, public=False),
             Kind(perfect_recall=False, private="none")]
    if not whole_game:     # (a whole game has no information-state tensor)
        kinds += [Kind(perfect_recall=True), Kind(perfect_recall=True, public=False),
                  Kind(perfect_recall=True, private="none")]
    collisions = 0
    for kind in kinds:
        layout = Layout(table, kind)
        for seat in range(table.players):
            by_tensor: dict[bytes, str] = {}
            for step in states:
                text = layout.text(step, seat)
                if by_tensor.setdefault(_tensor(layout, step, seat), text) != text:
                    collisions += 1
            assert len(by_tensor) < len(states), "no two states shared a tensor: the check proves nothing"
    assert collisions == 0

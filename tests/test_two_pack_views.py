"""Two packs (Krypkasino's 104 cards): what a seat sees, and the actions it is offered, must
not depend on which copy of a card it holds.

Chance deals the lowest copy of a card still left, so holding copy 1 of a card tells
that copy 0 was dealt before; when tensors had one plane per copy and actions one id
per copy, two states with the same information-state string had different tensors and
legal actions (issue 35: 3.4% / 8.2% / 11.9% of turn starts with 2 / 4 / 6 players),
and OpenSpiel's Python IS-MCTS, which keys its tree by that string, raised KeyError.
Now copies are numbered by identity in each place (the lowest held first): the view
and the action ids are a function of the cards' names alone."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import cassino.openspiel  # noqa: F401  (registers python_cassino)
from cassino.apps.research.openspiel import CassinoState
from cassino.apps.research.stepwise import Setup, Step, play_out, table_for
from cassino.apps.research.views import Kind, Layout
from cassino.engine.core import Position, bits
from cassino.engine.moves import Move


def _load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_cassino", params)


def _deal(state: CassinoState, rng: random.Random) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])


def _swapped(step: Step) -> list[Step]:
    """The hand of ``step`` replayed with the two copies of every card exchanged: each chance
    outcome and each move names the other copy. Every seat sees the same cards by name, so
    every seat's strings are the same as in the game itself. Returns the replay's decision
    states (half-chosen moves included), paired with the game's own by position."""
    table = step.table
    size = table.engine.pack_size

    def other(card: int) -> int:
        return card + size if card < size else card - size

    def flip(mask: int) -> int:
        out = 0
        for c in bits(mask):
            out |= 1 << other(c)
        return out

    s = table.initial
    out: list[Step] = []
    for what, x in step.trace:
        if what == "deal":
            s = s.apply(other(x))
            continue
        move = Move(x.kind, flip(x.played), flip(x.loose), tuple(sorted(flip(b) for b in x.builds)), x.value)
        for action in s.actions_for(move):
            out.append(s)
            s = s.apply(action)
    return out


def _decisions(step: Step) -> list[Step]:
    """The game's own decision states, as :func:`_swapped` pairs them."""
    s = step.table.initial
    out: list[Step] = []
    for what, x in step.trace:
        if what == "deal":
            s = s.apply(x)
            continue
        for action in s.actions_for(x):
            out.append(s)
            s = s.apply(action)
    return out


@pytest.mark.parametrize("players", [2, 4, 6])
def test_states_told_apart_only_by_copies_give_one_tensor_and_one_action_list(players: int) -> None:
    """Random hands of Krypkasino, and the same hands with every card's two copies exchanged:
    each seat's strings are the same, so its tensors (every kind of view) and the legal
    actions must be too."""
    table = table_for(Setup(variant="krypkasino", players=players))
    layouts = [Layout(table, kind) for kind in (Kind(perfect_recall=True), Kind(perfect_recall=False),
                                                 Kind(perfect_recall=True, public=False),
                                                 Kind(perfect_recall=False, private="none"))]
    compared = differ = 0
    for seed in range(2):
        rng = random.Random(seed)
        played = play_out(table.initial, lambda s: rng.choice(s.legal), rng)
        mine, theirs = _decisions(played), _swapped(played)
        assert len(mine) == len(theirs)
        for k, (a, b) in enumerate(zip(mine, theirs)):
            if k % 3:
                continue
            compared += 1
            if a.legal != b.legal:
                differ += 1
                continue
            for layout in layouts:
                for seat in range(players):
                    assert layout.text(a, seat) == layout.text(b, seat)
                    x, xv = layout.new()
                    y, yv = layout.new()
                    layout.fill(a, seat, x, xv)
                    layout.fill(b, seat, y, yv)
                    if not np.array_equal(x, y):
                        differ += 1
                        break
                else:
                    continue
                break
    assert compared > 30 and differ == 0, f"{differ} of {compared} states told the copies apart"


def test_the_copy_a_seat_holds_does_not_change_its_action_ids() -> None:
    """The same position by name, the seat to play holding copy 0 or copy 1 of the 7H and the
    10D (the table holding the other 10D): the same actions, action by action."""
    table = table_for(Setup(variant="krypkasino"))
    engine = table.engine
    d = engine.deck
    state = engine.position(Position(players=2, hands={0: [d.parse("7H"), d.parse("10D"), d.parse("KS")],
                                                       1: [d.parse("2C"), d.parse("3C")]},
                                     table=[d.parse("10D"), d.parse("7D"), d.parse("4C"), d.parse("3D")]))
    swap = {}
    for name in ("7H", "10D"):
        a, b = d.copies(d.parse(name))
        swap[a], swap[b] = b, a

    def flip(mask: int) -> int:
        return sum(1 << swap.get(c, c) for c in bits(mask))

    other = state.with_(hands=(flip(state.hands[0]), state.hands[1]), table=flip(state.table),
                        stock=tuple(swap.get(c, c) for c in state.stock))
    assert other.hands[0] != state.hands[0]
    a, b = Step.at(table, state), Step.at(table, other)
    assert a.legal == b.legal
    for action in a.legal:
        x, y = a.apply(action), b.apply(action)
        assert x.legal == y.legal and x.log[-1:] == y.log[-1:]


def test_the_python_ismcts_plays_two_pack_games() -> None:
    """OpenSpiel's Python IS-MCTS keys its nodes by the information-state string and expects the
    same legal actions at each: it raised KeyError on two-pack games."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load(variant="krypkasino")
    for seed in (0, 1):
        rs = np.random.RandomState(seed)
        rng = random.Random(seed)
        bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                               max_simulations=20, random_state=rs)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng))
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal() and decisions < 8:
            if state.is_chance_node():
                _deal(state, rng)
                continue
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        assert decisions == 8

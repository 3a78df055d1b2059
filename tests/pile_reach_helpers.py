"""Shared by the OpenSpiel and PettingZoo tests of pile cards under a top (issue 36): a stepwise turn
whose legal moves and action sequences must be one to one, on the tables of both African games.
Needs neither framework (each test module skips without its own)."""

from __future__ import annotations

import random

from cassino.apps.research.stepwise import Step
from cassino.engine.moves import Move

TABLES = [("swazi-casino", 2, False), ("swazi-casino", 3, False), ("swazi-casino", 4, True),
          ("south-african-casino", 2, False), ("south-african-casino", 3, False), ("south-african-casino", 4, True)]


def walked_moves(step: Step) -> dict[str, tuple[int, ...]]:
    """Every move the actions of a turn can make, each with its actions: depth first from the turn's start."""
    out: dict[str, tuple[int, ...]] = {}

    def walk(s: Step, actions: tuple[int, ...]) -> None:
        for a in s.legal_actions():
            after = s.apply(a)
            if after.prefix:
                walk(after, actions + (a,))
            else:
                moved = [e for e in after.log if e[0] == "move"]
                text = moved[-1][2]
                assert text not in out, f"{text} made by two sequences"
                out[text] = actions + (a,)

    walk(step, ())
    return out


#: How many of a turn's moves are played out through their actions (those reaching under a top
#: first): playing one works out the next turn, so not all; every move is checked action by action.
PLAYED = 3
#: Turns checked in each random game (its first; the deepest piles come late, the example pins them).
TURNS = 24


def round_trip(step: Step, rng: random.Random | None = None) -> int:
    """Check the turn at ``step``: every legal move has its own actions, each legal where it is given
    (``actions_for`` refuses one that is not), the turn's first actions are exactly theirs, and moves
    played through their actions are those moves; how many of the moves use a card under a pile top."""
    hand = step.game.hand
    engine, enc = step.table.engine, step.table.encoding
    legal: list[Move] = engine.legal_moves(hand)
    sequences = [seq for seq, _ in enc.sequences(hand, legal)]
    assert len(set(sequences)) == len(legal)                         # one sequence a move
    assert set(step.legal_actions()) - {enc.CLAIM} == {seq[0] for seq in sequences}
    for move in legal:
        step.actions_for(move)
    tops = sum(1 << stack[-1] for stack in hand.stacks if stack)
    under = [m for m in legal if m.loose & ~hand.table & ~tops]
    rest = [m for m in legal if m not in under]
    if rng is not None:
        rng.shuffle(rest)
    for move in (under + rest)[:PLAYED]:
        after = step
        for a in step.actions_for(move):
            after = after.apply(a)
        assert [e for e in after.log if e[0] == "move"][-1][2] == enc.move_text(move)
    return len(under)

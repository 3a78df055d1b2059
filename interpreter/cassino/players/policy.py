"""Playout policies: how the search plays every seat to the end of a deal in a sampled deal.

``greedy`` is ``base.move_gain``: the best immediate gain. ``counting`` also counts
what the move leaves for the next player: in a sampled deal every hand is known,
so it looks at the values the next seat holds and subtracts the worth of the best
capture one of its cards could make on the table the move leaves (equal cards,
builds of that value, and where sums capture, a pair of loose cards adding up to
it), and the sweep that capture would be. It is cheap arithmetic on bitmasks (no
move generation for the next player), so playouts cost little more than greedy
ones, and it stops the playouts from trailing an ace onto a table the next player
can sweep, or building what the next player will take.
"""

from __future__ import annotations

from ..engine.core import Engine, bits
from ..engine.moves import Move, MoveKind
from ..engine.state import HandState
from .base import CardWorth, move_gain


class Policy:
    """The move a playout makes for the seat to play."""

    name = "policy"

    def __init__(self, engine: Engine, worth: CardWorth) -> None:
        self.engine = engine
        self.worth = worth

    def choose(self, state: HandState) -> Move:
        legal = self.engine.legal_moves(state)
        if len(legal) == 1:
            return legal[0]
        return max(legal, key=lambda m: move_gain(self.worth, state, m))


class GreedyPolicy(Policy):
    name = "greedy"


class CountingPolicy(Policy):
    """Greedy gain minus what the next seat could take from the table the move leaves."""

    name = "counting"

    def __init__(self, engine: Engine, worth: CardWorth) -> None:
        super().__init__(engine, worth)
        # What a card on the table is taken by: its table values, or its rank when it has none.
        self.keys = [tuple(engine.tv[i]) if engine.tv[i] else (engine.rank_str[i],) for i in range(engine.n_cards)]
        self.sums = engine.rules.capture.sums

    def choose(self, state: HandState) -> Move:
        legal = self.engine.legal_moves(state)
        if len(legal) == 1:
            return legal[0]
        nxt = self._next_seat(state)
        if nxt is None:
            return max(legal, key=lambda m: move_gain(self.worth, state, m))
        threats = self.engine.captured_values(state.hands[nxt])
        return max(legal, key=lambda m: move_gain(self.worth, state, m) - self.threat(state, m, threats))

    def _next_seat(self, state: HandState) -> int | None:
        seat = state.turn
        for _ in range(state.players - 1):
            seat = self.engine.next_seat(seat, state.players)
            if state.hands[seat]:
                return seat if state.teams[seat] != state.teams[state.turn] else None
        return None

    def threat(self, state: HandState, move: Move, threats: set[int | str]) -> float:
        """The worth of the best capture the next seat could make after ``move`` (an estimate)."""
        table = state.table & ~move.loose
        builds = [(b.cards, b.value) for b in state.builds if b.cards not in move.builds]
        if move.kind is MoveKind.TRAIL:
            table |= move.played
        elif move.kind is MoveKind.BUILD or move.kind is MoveKind.TRAIL_BUILD:
            cards = move.loose | (0 if move.kind is MoveKind.TRAIL_BUILD else move.played)
            for b in state.builds:
                if b.cards in move.builds:
                    cards |= b.cards
            if move.kind is MoveKind.TRAIL_BUILD:
                table |= move.played
            builds.append((cards, move.value))
        if not table and not builds:
            return 0.0
        worth = self.worth
        loose = bits(table)
        best = 0.0
        for v in threats:
            taken = 0
            for i in loose:
                if v in self.keys[i]:
                    taken |= 1 << i
            for cards, value in builds:
                if value == v:
                    taken |= cards
            gain = worth.of(taken) if taken else 0.0
            if self.sums and isinstance(v, int):
                pair = 0.0
                rest = [i for i in loose if not taken >> i & 1]
                for a in range(len(rest)):
                    for va in self.engine.tv[rest[a]]:
                        for b in range(a + 1, len(rest)):
                            if v - va in self.engine.tv[rest[b]]:
                                pair = max(pair, worth.worth[rest[a]] + worth.worth[rest[b]])
                gain += pair
            if taken and taken & table == table and all(value == v for _, value in builds):
                gain += worth.sweep_points + 0.3
            best = max(best, gain)
        return best


POLICIES = {"greedy": GreedyPolicy, "counting": CountingPolicy}

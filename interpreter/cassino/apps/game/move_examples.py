"""Example moves for `help` and `how`, each one checked legal by the engine in a small position.

The in-game help used to show the same four moves in every variant, builds
included where there is no building, and never said how to type several cards
played at once. Here each kind of move has a few candidate positions written in
card *values* (a 9 on the table, a 4 and a 5 beside it), the cards picked from
the variant's own deck; the first candidate the engine allows is shown, and a
kind with none is left out. So an example can never show a move the variant
forbids, and a house rule that adds a kind of move (trail-and-build, several
cards from the hand) gets its example by the same route.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ...engine.core import Engine, Position
from ...engine.moves import Move, MoveKind
from ...engine.notation import format_move, parse_move
from ...errors import CassinoError
from ...language.cards import Card
from ...language.rules import Rules
from ..authors.worked_examples import NoCard, Picker


@dataclass(frozen=True)
class MoveExample:
    """A move in notation, what it does in words, and the position the engine allowed it in."""

    text: str
    means: str
    position: Position


#: A candidate's position and move: (table, builds as (cards, value, owner), hand, move text, meaning).
Made = tuple[list[Card], list[tuple[list[Card], int, int]], list[Card], str, str]
#: A candidate: its position and move made from a picker of the deck's cards (NoCard where the deck lacks one).
Candidate = Callable[[Picker], Made]


def _names(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _pair_and_sum(p: Picker) -> Made:
    nine, four, five, mine = p.v(9), p.v(4), p.v(5), p.v(9)
    return ([nine, four, five], [], [mine], f"{mine} capture {_names([nine, four, five])}",
            "take a card of its value and cards that add up to it, at once")


def _sum(p: Picker) -> Made:
    four, five, mine = p.v(4), p.v(5), p.v(9)
    return [four, five], [], [mine], f"{mine} capture {_names([four, five])}", "take cards that add up to its value"


def _pair(value: int) -> Candidate:
    def make(p: Picker) -> Made:
        loose, mine = p.v(value), p.v(value)
        return [loose], [], [mine], f"{mine} capture {loose}", "take a card of the same value"
    return make


def _to_total(p: Picker) -> Made:
    seven, five, three = p.v(7), p.v(5), p.v(3)
    # (the total as a number: a player's audit of Escoba read "the capture total", a setting's name)
    return ([five, three], [], [seven], f"{seven} capture {_names([five, three])}",
            "take cards that make 15 together with the card you play (7 + 5 + 3)")


def _valueless_pair(p: Picker) -> Made:
    loose, mine = p.valueless(2)
    return [loose], [], [mine], f"{mine} capture {loose}", "take a card of the same rank"


def _build(p: Picker) -> Made:
    five, three, eight = p.v(5), p.v(3), p.v(8)
    return ([five], [], [three, eight], f"{three} build 8 on {five}",
            "build: put it on table cards, for a value you hold a card of")


def _raise(p: Picker) -> Made:
    a, b, two, eight = p.v(3), p.v(3), p.v(2), p.v(8)
    return ([], [([a, b], 6, 1)], [two, eight], f"{two} build 8 on [{_names([a, b])}]",
            "add it to a build on the table (a build is typed in brackets, all its cards)")


def _add_set(p: Picker) -> Made:
    five, four, three, six, nine = p.v(5), p.v(4), p.v(3), p.v(6), p.v(9)
    return ([three], [([five, four], 9, 1)], [six, nine], f"{six} build 9 on [{_names([five, four])}] {three}",
            "add another set of the build's value to it (a multiple build)")


def _free_build(p: Picker) -> Made:
    five, three, two, ten, six = p.v(5), p.v(3), p.v(2), p.v(10), p.v(6)
    return ([five, three, two], [], [ten, six], f"build 10 on {_names([five, three, two])}",
            "build table cards alone, no card from your hand: one of a turn's several actions")


def _trail_build(p: Picker) -> Made:
    three, five, ten, eight = p.v(3), p.v(5), p.v(10), p.v(8)
    return ([three, five], [], [ten, eight], f"{ten} trail build 8 on {_names([three, five])}",
            "trail it and build table cards in the same turn")


def _several(p: Picker) -> Made:
    nine, four, five = p.v(9), p.v(4), p.v(5)
    return ([nine], [], [four, five], f"{four}+{five} capture {nine}",
            "several cards from your hand played together: joined with + and no spaces")


def _trail_valueless(p: Picker) -> Made:
    two, (mine,) = p.v(2), p.valueless(1)
    return [two], [], [mine], f"{mine} trail", "trail: lay it on the table, taking nothing"


def _trail(value: int) -> Candidate:
    def make(p: Picker) -> Made:
        two, mine = p.v(2), p.v(value)
        return [two], [], [mine], f"{mine} trail", "trail: lay it on the table, taking nothing"
    return make


#: The kinds of move shown, in order; for each, candidates from the richest to the plainest.
SLOTS: tuple[tuple[MoveKind, tuple[Candidate, ...]], ...] = (
    (MoveKind.CAPTURE, (_pair_and_sum, _sum, _pair(9), _pair(7), _pair(5), _valueless_pair, _to_total)),
    (MoveKind.BUILD, (_build,)),
    (MoveKind.BUILD, (_raise,)),
    (MoveKind.BUILD, (_add_set,)),
    (MoveKind.BUILD, (_free_build,)),
    (MoveKind.TRAIL_BUILD, (_trail_build,)),
    (MoveKind.CAPTURE, (_several,)),
    (MoveKind.TRAIL, (_trail_valueless, _trail(10), _trail(7), _trail(5))),
)


def _allowed(engine: Engine, rules: Rules, kind: MoveKind, candidate: Candidate) -> MoveExample | None:
    try:
        table, builds, hand, text, means = candidate(Picker(engine))
    except NoCard:
        return None
    position = Position(players=rules.seats.min_players, to_play=0, hands={0: hand}, table=table, builds=builds)
    try:
        state = engine.position(position)
        move: Move = parse_move(text, engine.deck)
    except CassinoError:
        return None
    if move.kind is not kind or not engine.is_legal(state, move):
        return None
    return MoveExample(format_move(move, engine.deck), means, position)


def move_examples(rules: Rules, engine: Engine | None = None) -> tuple[MoveExample, ...]:
    """One example of each kind of move ``rules`` allows, each legal in its own position."""
    engine = engine or Engine(rules)
    shown = []
    for kind, candidates in SLOTS:
        for candidate in candidates:
            example = _allowed(engine, rules, kind, candidate)
            if example is not None:
                shown.append(example)
                break
    return tuple(shown)


def examples_text(rules: Rules, indent: str = "  ") -> str:
    """The examples as lines: ``  `9D capture 9C 4D 5H`  take ...``, aligned."""
    examples = move_examples(rules)
    width = max((len(e.text) for e in examples), default=0) + 2
    return "\n".join(f"{indent}{'`' + e.text + '`':<{width}}  {e.means}" for e in examples)

"""Moves: small immutable values with one canonical text form.

A move names the cards by deck index bitmasks, so it is cheap to make, hash
and compare in move generation; the notation module turns it into the text
of SCENARIOS.md and back (``notation.format_move`` / ``notation.parse_move``).
Two moves are equal when they play the same cards, take or use the same
table cards and builds, and announce the same value, whatever order a person
wrote the cards in.

The engine lists a position's moves as :func:`keyed` moves: each holds its move
key (see ``movegen``) and its position's :class:`KeyLayout`, and works out its
fields from the key the first time one is read. A random playout reads the fields
of one move in five and applies that one by its key, so most moves cost one small
allocation and no decoding; to everything else a keyed move is the same value as
the move made from its fields.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar, Final, final

from mypy_extensions import mypyc_attr

from ..errors import CassinoError, PositionTooLargeError  # noqa: F401  (re-exported: the engine raises it)

from .movegen import PLAYED_SHIFT, VALUE_BITS, VALUE_SHIFT, deposit, popcount
from .state import HandState
from .tables import BUILD, TRAIL_BUILD
from .values import Value


class MoveKind(str, Enum):
    """What a move does: ``TRAIL`` a card to the table, ``CAPTURE`` cards and builds with it,
    ``BUILD`` (or add to) a build of its ``value``, ``TRAIL_BUILD`` (trail and build loose
    cards in one turn, a house rule), or ``END`` a turn of several actions. A ``BUILD`` that
    plays no card is one of those actions: a build of cards in play alone. A ``str``, so it
    compares with its text::

        >>> MoveKind.CAPTURE == "capture", parse_move("4H capture 4C", engine.deck).kind
        (True, <MoveKind.CAPTURE: 'capture'>)
    """

    TRAIL = "trail"
    CAPTURE = "capture"
    BUILD = "build"
    #: Trail a card and, in the same turn, build loose table cards (a house rule).
    TRAIL_BUILD = "trail_build"
    #: End a turn of several actions (``build.free_actions``): no card, nothing moved.
    END = "end"


_KINDS: Final = (MoveKind.TRAIL, MoveKind.CAPTURE, MoveKind.BUILD, MoveKind.TRAIL_BUILD)
_TRAIL: Final = MoveKind.TRAIL
_END: Final = MoveKind.END


@final
# (Compiled, the last instance freed is kept for the next one made: see values.py.)
@mypyc_attr(free_list_len=1)
class KeyLayout:
    """What the bits of one position's move keys name (see ``movegen``): the hand of the
    player to play, the loose cards and the builds of ``state``, and the build values by
    value code. Shared by the moves of one listing; the engine applies a move listed for
    a state to that same state by its key. The hand and the loose cards are read from the
    state when a move is first decoded (most listed moves never are), not counted here."""

    def __init__(self, state: HandState, rank_code_base: int, rank_names: list[str]) -> None:
        self.state: Final = state
        self.rank_code_base: Final = rank_code_base
        self.rank_names: Final = rank_names


@final
# (Compiled, the last instance freed is kept for the next one made: see values.py.)
@mypyc_attr(free_list_len=1)
class Move(Value):
    """One play.

    ``played``: the hand cards played (bitmask; one card unless the variant lets
    several be played together). ``loose``: loose table cards taken (capture) or
    put into the build (build, trail_build). ``builds``: the builds taken or built
    on, each named by the bitmask of its cards, sorted. ``value``: the value a build
    move announces (a number, or a rank for a build of cards without value).

    The fields are read-only properties: a move made by :func:`keyed` fills them from
    its key when one is first read (so its private attributes change once, from
    "not decoded" to the decoded fields; nothing else ever changes).

    Read from its text with :func:`~cassino.parse_move`, written with :func:`~cassino.format_move`;
    its masks are cards as in a hand state's (``engine.deck.cards_of``)::

        >>> move = parse_move("4H capture 4C", engine.deck)
        >>> move.kind, [str(c) for c in engine.deck.cards_of(move.loose)]
        (<MoveKind.CAPTURE: 'capture'>, ['4C'])
    """

    _fields: ClassVar[tuple[str, ...]] = ("kind", "played", "loose", "builds", "value")

    def __init__(self, kind: MoveKind, played: int, loose: int = 0, builds: tuple[int, ...] = (),
                 value: int | str | None = None) -> None:
        self._kind = kind
        self._played = played
        self._loose = loose
        self._builds = builds
        self._value = value
        self._key = -1                        # its key in ``_layout``'s position (keyed moves)
        self._layout: KeyLayout | None = None
        self._pending = False                 # fields still to decode from the key

    def _decode(self) -> None:
        layout = self._layout
        assert layout is not None
        key = self._key
        state = layout.state
        hand = state.hands[state.turn]
        h = popcount(hand)
        self._played = deposit((key >> PLAYED_SHIFT) & ((1 << h) - 1), hand)
        items = key >> (PLAYED_SHIFT + h)
        table = state.in_play()   # the loose cards keys number (pile tops too, where in play)
        n_loose = popcount(table)
        local = items & ((1 << n_loose) - 1)
        if local:
            self._loose = deposit(local, table)
        used = items >> n_loose
        if used:
            state_builds = state.builds
            cards: list[int] = []
            j = 0
            while used:
                if used & 1:
                    cards.append(state_builds[j].cards)
                used >>= 1
                j += 1
            cards.sort()
            self._builds = tuple(cards)
        kind = key & 3
        self._kind = _KINDS[kind] if key else _END
        if kind == BUILD or kind == TRAIL_BUILD:
            code = (key >> VALUE_SHIFT) & VALUE_BITS
            base = layout.rank_code_base
            self._value = code if code < base else layout.rank_names[code - base]
        self._pending = False

    @property
    def kind(self) -> MoveKind:
        """What the move does (:class:`MoveKind`)."""
        if self._pending:
            self._decode()
        return self._kind

    @property
    def played(self) -> int:
        """The hand cards played, a deck mask (one card unless several are played together)."""
        if self._pending:
            self._decode()
        return self._played

    @property
    def loose(self) -> int:
        """The loose table cards taken (a capture) or put into the build, a deck mask."""
        if self._pending:
            self._decode()
        return self._loose

    @property
    def builds(self) -> tuple[int, ...]:
        """The builds taken or built on, each as the deck mask of its cards, sorted."""
        if self._pending:
            self._decode()
        return self._builds

    @property
    def value(self) -> int | str | None:
        """The value a build announces (a number, or a rank for cards without value); None else."""
        if self._pending:
            self._decode()
        return self._value

    def values(self) -> tuple[Any, ...]:
        """The fields in ``_fields``' order (what equality and hashing compare)."""
        if self._pending:
            self._decode()
        return (self._kind, self._played, self._loose, self._builds, self._value)

    def key_in(self, state: HandState) -> int:
        """Its move key when it was listed for ``state`` itself (the same object), else -1."""
        layout = self._layout
        if layout is not None and layout.state is state:
            return self._key
        return -1


def keyed(key: int, layout: KeyLayout) -> Move:
    """The move ``key`` of ``layout``'s position, its fields decoded when first read."""
    move = Move(_TRAIL, 0)   # (a Final constant: MoveKind.TRAIL would be an attribute look-up)
    move._key = key
    move._layout = layout
    move._pending = True
    return move


class IllegalMoveError(CassinoError):
    """A move that is well formed but not allowed in the current position; the message says why::

        >>> try:
        ...     engine.play(state, parse_move("2S trail", engine.deck))
        ... except IllegalMoveError as e:
        ...     print(e)
        2S trail: 2S is not in the hand of seat 1
    """


class MoveSyntaxError(CassinoError):
    """Move text that cannot be read; the message shows where, with a caret::

        >>> try:
        ...     parse_move("9D captur 4C", engine.deck)
        ... except MoveSyntaxError as e:
        ...     print(str(e).splitlines()[0])
        `captur` is not an action: after the played card write trail, capture or build (did you mean `capture`?)
    """

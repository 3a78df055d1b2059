"""Moves: small immutable values with one canonical text form.

A move names the cards by deck index bitmasks, so it is cheap to make, hash
and compare in move generation; the notation module turns it into the text
of SCENARIOS.md and back (``notation.format_move`` / ``notation.parse_move``).
Two moves are equal when they play the same cards, take or use the same
table cards and builds, and announce the same value, whatever order a person
wrote the cards in.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar, Final, final

from ..errors import CassinoError
from .values import Value


class MoveKind(str, Enum):
    TRAIL = "trail"
    CAPTURE = "capture"
    BUILD = "build"
    #: Trail a card and, in the same turn, build loose table cards (a house rule).
    TRAIL_BUILD = "trail_build"


@final
class Move(Value):
    """One play.

    ``played``: the hand cards played (bitmask; one card unless the variant lets
    several be played together). ``loose``: loose table cards taken (capture) or
    put into the build (build, trail_build). ``builds``: the builds taken or built
    on, each named by the bitmask of its cards, sorted. ``value``: the value a build
    move announces (a number, or a rank for a build of cards without value).
    """

    _fields: ClassVar[tuple[str, ...]] = ("kind", "played", "loose", "builds", "value")

    def __init__(self, kind: MoveKind, played: int, loose: int = 0, builds: tuple[int, ...] = (),
                 value: int | str | None = None) -> None:
        self.kind: Final = kind
        self.played: Final = played
        self.loose: Final = loose
        self.builds: Final = builds
        self.value: Final = value

    def values(self) -> tuple[Any, ...]:
        return (self.kind, self.played, self.loose, self.builds, self.value)


class IllegalMoveError(CassinoError):
    """A move that is well formed but not allowed in the current position."""


class MoveSyntaxError(CassinoError):
    """Move text that cannot be read; the message shows where, with a caret."""

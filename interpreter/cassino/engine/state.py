"""The state of one hand: immutable values the engine maps to new values.

Sets of cards are integer bitmasks over the deck's numbering (see cards.Deck),
so copying a state is copying a few small tuples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple


@dataclass(frozen=True, slots=True)
class Build:
    """A build on the table.

    ``value`` is the announced capture value (a rank such as ``"J"`` for a build of
    cards without value). ``owner`` last added to it; ``holder`` must keep a card
    that captures it (the owner, or the owner's partner for a build made for them).
    ``pairs``: begun as equal cards built as their rank (for builds that must
    continue as they began).
    """

    cards: int
    value: int | str
    multiple: bool
    owner: int
    holder: int
    pairs: bool = False


@dataclass(frozen=True, slots=True)
class Sweep:
    """A capture that left the table empty. ``size``: table cards it took."""

    seat: int
    size: int
    ply: int
    first_play: bool = False
    cancelled: bool = False


@dataclass(frozen=True, slots=True)
class Capture:
    """One capture, for rules that care when something was won (pegging, endgame criteria)."""

    ply: int
    seat: int
    cards: int          # everything that went to the pile, the played cards included
    table_cards: int    # what was taken from the table


@dataclass(frozen=True, slots=True)
class Event:
    """A named capture event (Tuxedo's orange) made by ``seat`` at ``ply``."""

    seat: int
    name: str
    ply: int


class HandState(NamedTuple):
    """One hand in play. A named tuple rather than a dataclass: the engine makes one per
    move in every search playout, and a tuple is several times cheaper to copy."""

    players: int
    teams: tuple[int, ...]          # side of each seat (seat % 2 with partners, else the seat)
    dealer: int
    turn: int
    hands: tuple[int, ...]
    table: int                      # loose cards
    builds: tuple[Build, ...]
    stock: tuple[int, ...]          # card indices, next card first
    piles: tuple[int, ...]
    sweeps: tuple[Sweep, ...] = ()
    events: tuple[Event, ...] = ()
    captures: tuple[Capture, ...] = ()
    last_capturer: int | None = None
    ply: int = 0
    deal_no: int = 1
    over: bool = False
    proven: tuple[frozenset[int], ...] = ()   # values each seat is proven to hold (building for a partner)
    restricted: frozenset[int] = frozenset()  # sides under an endgame restriction
    residue: int = 0                # what the last capturer took at the end

    def with_(self, **changes: Any) -> "HandState":
        return self._replace(**changes)

    @property
    def sides(self) -> tuple[int, ...]:
        """The distinct sides, lowest seat first."""
        return tuple(sorted(set(self.teams)))

    def side_pile(self, side: int) -> int:
        pile = 0
        for seat, team in enumerate(self.teams):
            if team == side:
                pile |= self.piles[seat]
        return pile

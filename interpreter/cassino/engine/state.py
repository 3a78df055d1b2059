"""The state of one hand: immutable values the engine maps to new values.

Sets of cards are integer bitmasks over the deck's numbering (see cards.Deck),
so copying a state is copying a few small tuples.

The classes are immutable values in the style of ``values.Value`` (final classes
with ``Final`` attributes; equality, hashing, ``repr`` and pickling from their
fields). To change a state, make a new one: :meth:`HandState.with_`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, final

from mypy_extensions import mypyc_attr


from .values import Value


@final
class Build(Value):
    """A build on the table.

    ``value`` is the announced capture value (a rank such as ``"J"`` for a build of
    cards without value). ``owner`` last added to it; ``holder`` must keep a card
    that captures it (the owner, or the owner's partner for a build made for them).
    ``pairs``: equal cards announced as their own rank (for builds that must
    continue as they began).
    """

    _fields: ClassVar[tuple[str, ...]] = ("cards", "value", "multiple", "owner", "holder", "pairs")

    def __init__(self, cards: int, value: int | str, multiple: bool, owner: int, holder: int,
                 pairs: bool = False) -> None:
        self.cards: Final = cards
        self.value: Final = value
        self.multiple: Final = multiple
        self.owner: Final = owner
        self.holder: Final = holder
        self.pairs: Final = pairs

    def values(self) -> tuple[Any, ...]:
        return (self.cards, self.value, self.multiple, self.owner, self.holder, self.pairs)


@final
class Sweep(Value):
    """A capture that left the table empty. ``size``: table cards it took."""

    _fields: ClassVar[tuple[str, ...]] = ("seat", "size", "ply", "first_play", "cancelled")

    def __init__(self, seat: int, size: int, ply: int, first_play: bool = False, cancelled: bool = False) -> None:
        self.seat: Final = seat
        self.size: Final = size
        self.ply: Final = ply
        self.first_play: Final = first_play
        self.cancelled: Final = cancelled

    def values(self) -> tuple[Any, ...]:
        return (self.seat, self.size, self.ply, self.first_play, self.cancelled)


@final
class Capture(Value):
    """One capture, for rules that care when something was won (pegging, endgame criteria).

    ``cards``: everything that went to the pile, the played cards included;
    ``table_cards``: what was taken from the table.
    """

    _fields: ClassVar[tuple[str, ...]] = ("ply", "seat", "cards", "table_cards")

    def __init__(self, ply: int, seat: int, cards: int, table_cards: int) -> None:
        self.ply: Final = ply
        self.seat: Final = seat
        self.cards: Final = cards
        self.table_cards: Final = table_cards

    def values(self) -> tuple[Any, ...]:
        return (self.ply, self.seat, self.cards, self.table_cards)


@final
class Event(Value):
    """A named capture event (Tuxedo's orange) made by ``seat`` at ``ply``."""

    _fields: ClassVar[tuple[str, ...]] = ("seat", "name", "ply")

    def __init__(self, seat: int, name: str, ply: int) -> None:
        self.seat: Final = seat
        self.name: Final = name
        self.ply: Final = ply

    def values(self) -> tuple[Any, ...]:
        return (self.seat, self.name, self.ply)


@final
# (Compiled, the last instance freed is kept for the next one made: see values.py.)
@mypyc_attr(free_list_len=1)
class HandState(Value):
    """One hand in play.

    ``teams``: the side of each seat (seat % 2 with partners, else the seat).
    ``table``: loose cards. ``stock``: card indices, next card first. ``proven``:
    values each seat is proven to hold (building for a partner). ``restricted``:
    sides under an endgame restriction. ``residue``: what the last capturer took at
    the end. ``stacks``: where capture piles are in play (``capture.from_piles``), each
    side's pile in order (card indices, last = top, indexed by side); () otherwise.
    ``pile_reach``: how many cards from the top of each opposing pile a move may use (1: the
    top alone; more where a card uncovered in a move is in play for the same move,
    ``capture.pile_cards: augment``). ``turn_card``: in a turn of several actions
    (``build.free_actions``), the card played from the hand once it is played while the turn
    goes on (the player may still build with cards in play, then ends it); 0 otherwise.

    A state is a value: equal states compare and hash alike, and a new one is made with `with_`. Its
    fields are never to be assigned: compiled (``cassino --version``), assigning one raises
    ``AttributeError``; as pure Python nothing stops it, and a state changed so is no longer the
    position its hash, the engine's remembered listing and the game's record say it is.

    ``turn`` is the seat to move; ``hands`` and ``piles`` (the cards each seat captured) are
    indexed by seat. Every set of cards (a hand, ``table``, a pile, a build's ``cards``) is an
    integer bit mask over the deck: bit ``i`` is ``engine.deck.cards[i]``. The deck turns a mask
    into cards (``deck.cards_of``), a card into its name (``str``), and names back into a mask
    (``deck.parse``, ``deck.mask``); ``engine`` and ``state`` are as in the Engine's example::

        >>> [str(card) for card in engine.deck.cards_of(state.hands[1])]
        ['5S', '4H', '6H', 'KC']
        >>> [str(card) for card in engine.deck.cards_of(state.table)]
        ['7D', 'JD', '3C', '4C']
        >>> state.hands[1] & engine.deck.mask([engine.deck.parse("KC")]) != 0
        True
        >>> [(str(engine.deck.cards_of(b.cards)[0]), b.value) for b in state.builds]
        []
    """

    _fields: ClassVar[tuple[str, ...]] = (
        "players", "teams", "dealer", "turn", "hands", "table", "builds", "stock", "piles", "sweeps",
        "events", "captures", "last_capturer", "ply", "deal_no", "over", "proven", "restricted", "residue",
        "stacks", "pile_reach", "turn_card")

    def __init__(self, players: int, teams: tuple[int, ...], dealer: int, turn: int, hands: tuple[int, ...],
                 table: int, builds: tuple[Build, ...], stock: tuple[int, ...], piles: tuple[int, ...],
                 sweeps: tuple[Sweep, ...] = (), events: tuple[Event, ...] = (), captures: tuple[Capture, ...] = (),
                 last_capturer: int | None = None, ply: int = 0, deal_no: int = 1, over: bool = False,
                 proven: tuple[frozenset[int], ...] = (), restricted: frozenset[int] = frozenset(),
                 residue: int = 0, stacks: tuple[tuple[int, ...], ...] = (), pile_reach: int = 1,
                 turn_card: int = 0) -> None:
        self.players: Final = players
        self.teams: Final = teams
        self.dealer: Final = dealer
        self.turn: Final = turn
        self.hands: Final = hands
        self.table: Final = table
        self.builds: Final = builds
        self.stock: Final = stock
        self.piles: Final = piles
        self.sweeps: Final = sweeps
        self.events: Final = events
        self.captures: Final = captures
        self.last_capturer: Final = last_capturer
        self.ply: Final = ply
        self.deal_no: Final = deal_no
        self.over: Final = over
        self.proven: Final = proven
        self.restricted: Final = restricted
        self.residue: Final = residue
        self.stacks: Final = stacks
        self.pile_reach: Final = pile_reach
        self.turn_card: Final = turn_card
        #: ``pile_tops()``, worked out when first asked (-1 until then): a position's listing, its check, its
        #: rating and its applying each ask. Not a field: not compared, hashed nor pickled.
        self._tops: int = -1

    def values(self) -> tuple[Any, ...]:
        """The fields in ``_fields``' order (what equality, hashing and pickling compare)."""
        return (self.players, self.teams, self.dealer, self.turn, self.hands, self.table, self.builds, self.stock,
                self.piles, self.sweeps, self.events, self.captures, self.last_capturer, self.ply, self.deal_no,
                self.over, self.proven, self.restricted, self.residue, self.stacks, self.pile_reach,
                self.turn_card)

    def with_(self, **changes: Any) -> "HandState":
        """A copy with some fields changed (the state itself never changes)::

            >>> state.with_(turn=0).turn, state.turn
            (0, 1)
        """
        fields = dict(zip(self._fields, self.values()))
        for name in changes:
            if name not in fields:
                raise TypeError(f"HandState has no field {name!r}")
        fields.update(changes)
        return HandState(**fields)

    def with_hidden(self, hands: tuple[int, ...], stock: tuple[int, ...]) -> "HandState":
        """``with_(hands=hands, stock=stock)``, made without a dict of the fields: the search deals the
        hidden cards anew thousands of times a move (``knowledge.determinize``)."""
        return HandState(self.players, self.teams, self.dealer, self.turn, hands, self.table, self.builds, stock,
                         self.piles, self.sweeps, self.events, self.captures, self.last_capturer, self.ply,
                         self.deal_no, self.over, self.proven, self.restricted, self.residue, self.stacks,
                         self.pile_reach, self.turn_card)

    def pile_tops(self) -> int:
        """The cards of the opposing sides' piles in reach (a deck mask): the top card of each,
        or the top ``pile_reach`` cards, in play for the player to move where capture piles are
        (``stacks``); 0 elsewhere."""
        tops = self._tops
        if tops >= 0:
            return tops
        tops = 0
        if self.stacks:
            own = self.teams[self.turn]
            reach = self.pile_reach
            for side, stack in enumerate(self.stacks):
                if side != own and stack:
                    if reach == 1:
                        tops |= 1 << stack[-1]
                    else:
                        for c in stack[-reach:]:
                            tops |= 1 << c
        self._tops = tops
        return tops

    def in_play(self) -> int:
        """The loose cards the player to move may take or build with: the table and, where
        capture piles are in play, the opposing sides' pile tops (move keys number these)::

            >>> state.in_play() == state.table                  # no piles in play in Casino
            True
        """
        if self.stacks:
            return self.table | self.pile_tops()
        return self.table

    @property
    def sides(self) -> tuple[int, ...]:
        """The distinct sides, lowest seat first::

            >>> state.sides
            (0, 1)
        """
        return tuple(sorted(set(self.teams)))

    def side_pile(self, side: int) -> int:
        """The cards captured by ``side`` (its seats' piles together), a deck mask::

            >>> engine.deck.cards_of(state.side_pile(0))
            ()
        """
        pile = 0
        for seat, team in enumerate(self.teams):
            if team == side:
                pile |= self.piles[seat]
        return pile

"""The one capture/build engine every variant plays through.

Legal moves are generated from the variant's settings only; the engine never
asks which variant it plays. Generation lives in ``movegen`` (moves as compact
integer keys, tables from ``tables``); this module deals hands, builds states,
turns keys into :class:`~cassino.engine.moves.Move` values and back, and
applies moves. Sets of cards are bitmasks over the deck's numbering.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Final, Iterable, Iterator, Sequence, cast

from mypy_extensions import i64

from ..errors import CassinoError
from ..language.cards import MAX_DECK_CARDS, Card, Deck
from ..language.rules import Rules
from ..language.selectors import compile_selector
from .movegen import (PLAYED_SHIFT, VALUE_BITS, VALUE_SHIFT, _ones, add_values, answers, bits, deposit, extract,
                      generate, popcount, unanswered, unions)
from .moves import IllegalMoveError, KeyLayout, Move, MoveKind, PositionTooLargeError, keyed
from .rng import SplitMix64
from .state import Build, Capture, Event, HandState, Sweep
from .tables import BUILD, CAPTURE, END, MOVE_BUDGET, TRAIL, TRAIL_BUILD, Tables
from .turnrules import KeyCheck, TurnRules

__all__ = ["Engine", "Position", "bits", "unions", "subsets_summing"]

#: Move kinds by the code a move key carries in its two low bits. (``Final``: compiled, a
#: module constant is a C static, not a look-up in the module's dict on every move.)
KINDS: Final = (MoveKind.TRAIL, MoveKind.CAPTURE, MoveKind.BUILD, MoveKind.TRAIL_BUILD)
KIND_CODE: Final = {**{kind: code for code, kind in enumerate(KINDS)}, MoveKind.END: TRAIL}
MAX_CARDS: Final = MAX_DECK_CARDS       # card sets are Python ints: the bound only keeps decks sane
#: What the one-slot memos below remember before any state: no value a caller can pass (with None there,
#: ``legal_moves(None)`` was the memo's empty list).
_NO_STATE: Final = object()
_TRAIL_KIND: Final = MoveKind.TRAIL
_CAPTURE_KIND: Final = MoveKind.CAPTURE
_BUILD_KIND: Final = MoveKind.BUILD
_TRAIL_BUILD_KIND: Final = MoveKind.TRAIL_BUILD


def kind_code(kind: MoveKind) -> int:
    """The key code of a move kind. By identity first: an Enum's hash is Python code, so a
    dict look-up would leave compiled code on every move applied."""
    if kind is _CAPTURE_KIND:
        return CAPTURE
    if kind is _TRAIL_KIND:
        return TRAIL
    if kind is _BUILD_KIND:
        return BUILD
    if kind is _TRAIL_BUILD_KIND:
        return TRAIL_BUILD
    return KIND_CODE[kind]   # an equal value of another identity (the kind's text)


#: How many moves a computer player weighs at a position beyond the listing budget.
SAMPLED_MOVES: Final = 64
#: Steps of the lazy walk (``engine.choices``) a capture of ``capture.take_all`` may take to be
#: widened to one that takes all it can, at a position beyond the listing budget (``Engine._widest``).
WIDEST_STEPS: Final = 20_000


def subsets_summing(items: Sequence[tuple[int, tuple[int, ...]]], target: int,
                    budget: int = MOVE_BUDGET) -> list[int]:
    """Masks of the item subsets (one or more items) whose values add up to ``target``.

    ``items`` are (bit, values) pairs; an item with several values (an ace, 1 or
    14) may count as any one of them. For checks outside move generation (scenario
    files, the dealer's initial sweeps); the generator has its own all-values pass.
    More than ``budget`` subsets tried raise :class:`PositionTooLargeError`.
    """
    if target <= 0 or not items:
        return []
    order = sorted(items, key=lambda it: -max(it[1]))
    n = len(order)
    suffix = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        suffix[k] = suffix[k + 1] + max(order[k][1])
    found: set[int] = set()
    steps = [0]

    def rec(start: int, remaining: int, mask: int) -> None:
        for k in range(start, n):
            if suffix[k] < remaining:
                return
            steps[0] += 1
            if steps[0] > budget:
                raise PositionTooLargeError(
                    f"{n} cards make too many sets worth {target} to list (over {budget:,} tried)")
            bit, values = order[k]
            for v in values:
                if v == remaining:
                    found.add(mask | bit)
                elif v < remaining:
                    rec(k + 1, remaining - v, mask | bit)

    rec(0, target, 0)
    return list(found)


@dataclass(frozen=True)
class Position:
    """A hand position given piece by piece (scenario files, tests, front ends), for
    :meth:`Engine.position`: cards by :class:`~cassino.language.cards.Card` (``deck.parse``),
    builds as (cards, value, owner), each seat's captured cards in order, last on top::

        >>> deck = engine.deck
        >>> here = engine.position(Position(players=2, hands={0: [deck.parse("9D")], 1: [deck.parse("5S")]},
        ...                                 table=[deck.parse("4C"), deck.parse("5H")]))
        >>> [format_move(m, deck) for m in engine.legal_moves(here)]
        ['9D capture 4C 5H', '9D trail']
    """

    players: int
    partners: bool = False
    to_play: int = 0
    dealer: int | None = None
    hands: dict[int, Sequence[Card]] | None = None
    table: Sequence[Card] = ()
    builds: Sequence[tuple[Sequence[Card], int | str, int]] = ()   # (cards, value, owner)
    captured: dict[int, Sequence[Card]] | None = None
    sweeps: dict[int, Sequence[int]] | None = None                   # seat -> sizes of its sweeps
    last_capture: int | None = None
    stock: Sequence[Card] | None = None                                # None: every card not placed, deck order


def _malformed(move: Move, n_cards: int) -> str | None:
    """Why a move made from its fields is no move of a deck of ``n_cards`` (its kind not a
    :class:`MoveKind`, a mask negative or naming a card past the deck's last), or None."""
    if move.kind not in _MOVE_KINDS:
        return f"{move.kind!r} is not a kind of move ({', '.join(k.value for k in MoveKind)})"
    limit = 1 << n_cards
    for mask in (move.played, move.loose, *move.builds):
        if not 0 <= mask < limit:
            return (f"a card mask is negative or names a card past the last of this deck's {n_cards} "
                    f"(a mask lies from 0 to 2**{n_cards} - 1)")
    return None


_MOVE_KINDS: Final = frozenset(MoveKind)


def _partition(full: int, groups: list[int], budget: int = MOVE_BUDGET, tops: Sequence[int] = (),
               total: int = 0) -> list[int]:
    """Disjoint ``groups`` that together make ``full`` (the most of them), or [] when none do.

    Each rest of the table is solved once, and a rest stops at the first split that reaches
    the most sets it could hold (its items' highest values, ``tops`` by item, over the sets'
    ``total``): where every card has one value, every split has that many sets, so the first
    found is the answer. More than ``budget`` steps raise :class:`PositionTooLargeError`:
    the search for the most sets is never cut short silently."""
    memo: dict[int, list[int]] = {}
    steps = [0]

    def most(rest: int) -> int:
        if not total or not tops:
            return 1 << 30
        return sum(tops[i] for i in bits(rest)) // total

    def best_of(rest: int) -> list[int]:
        found = memo.get(rest)
        if found is not None:
            return found
        low = rest & -rest
        best: list[int] = []
        cap = most(rest)
        for g in groups:
            if g & low and g & rest == g:
                steps[0] += 1
                if steps[0] > budget:
                    raise PositionTooLargeError(
                        f"the table's {popcount(full)} cards split into too many sets to find the most "
                        f"(over {budget:,} steps); deal fewer cards to the table")
                left = rest & ~g
                tail = best_of(left) if left else []
                if (tail or not left) and 1 + len(tail) > len(best):
                    best = [g] + tail
                    if len(best) >= cap:
                        break
        memo[rest] = best
        return best

    return best_of(full) if full else []


def _with_item(items: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """``items`` with item ``i`` replaced: two seats' tuple made at once, without a list of
    them and the tuple of that list (what apply does to the hands every ply). The items kept
    are read as the objects they are: read as numbers, compiled, a mask of more than 30 bits
    would be taken out of its object and put into a new one."""
    kept: tuple[object, ...] = items
    if len(kept) == 2:
        return cast(tuple[int, ...], (value, kept[1]) if i == 0 else (kept[0], value))
    out = list(kept)
    out[i] = value
    return cast(tuple[int, ...], tuple(out))


#: No values: a seat's empty set of proven values, made once.
_NO_VALUES: Final[frozenset[int]] = frozenset()

#: ``1 << k`` for each bit k of a machine integer (``_twins``).
_BIT: Final[list[int]] = [1 << k for k in range(62)]


def _cards_of(local: i64, cards: list[int]) -> int:
    """The deck mask of the cards ``local`` picks (bit k: ``cards[k]``): ``deposit(local, mask)`` where
    ``cards`` is ``bits(mask)`` (``local`` below 2**62)."""
    out = 0
    while local:
        low: i64 = local & -local
        out |= 1 << cards[_ones(low - 1)]
        local ^= low
    return out


def _twins(cards: list[int], size: int) -> bool:
    """Whether ``cards`` (deck indexes) hold two copies of a name (index modulo ``size``, the pack's
    size, at most 62)."""
    names: i64 = 0
    for c in cards:
        bit: i64 = _BIT[c % size]   # (a table's bit: compiled, a shift by a count read at run time was a C int's)
        if names & bit:
            return True
        names |= bit
    return False


def deck_mask(local: int, cards: list[int]) -> int:
    """A mask over a few cards (bit k: ``cards[k]``) as a mask over the deck."""
    m = 0
    k = 0
    while local:
        if local & 1:
            m |= 1 << cards[k]
        local >>= 1
        k += 1
    return m


class Engine:
    """Legal moves and their effects for one variant. Stateless between calls; share freely.

    A hand is a :class:`~cassino.engine.state.HandState` value; :meth:`start` deals one,
    :meth:`legal_moves` lists the moves of the player to move, :meth:`play` returns the state
    after one. The methods' examples start from this hand (seat 1, after the dealer, leads)::

        >>> from cassino import Engine, load_rules, parse_move, format_move
        >>> engine = Engine(load_rules("standard"))
        >>> state = engine.start(seed=7, players=2)
        >>> state.turn
        1
        >>> [format_move(m, engine.deck) for m in engine.legal_moves(state)]
        ['4H capture 4C', '5S trail', '4H trail', '6H trail', 'KC trail']
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its rules (an engine is made from them alone): the compiled class cannot be
        rebuilt field by field, and `cassino serve` sends games to its computer players' processes."""
        return (Engine, (self.rules,))

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            # (a name given where the rules go: say what to pass, not that a str has no ``deck``)
            raise TypeError(f"Engine takes a variant's Rules (cassino.load_rules(name_or_path)), "
                            f"not {type(rules).__name__} {rules!r}"[:200])
        self.rules = rules
        self.deck = deck = Deck.from_rules(rules.deck)
        if len(deck) > MAX_CARDS:
            raise ValueError(f"a deck of {len(deck)} cards is more than the engine's {MAX_CARDS}")
        self.n_cards = len(deck)
        self.full = (1 << self.n_cards) - 1
        # Two packs (deck.packs): card i and i + pack_size are copies, one card for play. The move
        # list then names each move once, by the lowest-numbered copies in each zone.
        self.pack_size: int = deck.pack_size
        self.has_copies: bool = deck.packs > 1
        self.packs: int = deck.packs
        self.hv = deck.hand_values
        self.tv = deck.table_values
        self.rank = deck.rank_index
        self.rank_str = tuple(deck.ranks[r] for r in deck.rank_index)
        self.rank_mask = [0] * len(deck.ranks)
        for i, r in enumerate(deck.rank_index):
            self.rank_mask[r] |= 1 << i
        self.valueless = tuple(not v for v in self.hv)
        #: Capture events (Tuxedo's orange): a name, and card sets a capture must each touch.
        self.events: list[tuple[str, list[int]]] = [
            (ev.name, [self.mask_of(compile_selector(s, deck.view)) for s in ev.takes])
            for ev in rules.scoring.events]
        c, b = rules.capture, rules.build
        self.cap, self.bld = c, b
        self.ccw = rules.seats.direction == "counterclockwise"
        self.tables = Tables(rules, deck)
        # The last state asked about and its move keys: a front end lists a position's moves
        # and then plays one, and play() checks the move against the same list (states are
        # immutable, so the state's identity is the key). One slot, replaced whole.
        self._memo: tuple[object, list[int]] = (_NO_STATE, [])
        # The last state found beyond the listing budget, and why: asked again (a front end
        # shows the position, then checks a move), it is refused at once, not counted again.
        self._too_large: tuple[object, str] = (_NO_STATE, "")
        #: The keys ``some_moves`` last found and checked at a position beyond the listing budget
        #: (legal there: ``is_legal`` and ``play`` accept them without walking the position again).
        self._sampled: tuple[object, list[int]] = (_NO_STATE, [])
        # The settings apply() and the deal read, as plain attributes (no lookups through
        # the rules' nested values on every move).
        d, sw = rules.deal, rules.sweeps
        self.draw_after_play: bool = d.draw_after_play
        #: (hand size, table cards) by the number of players (``deal.by_players``, else the deal's
        #: own), read once here: the deal and drawing after a play look them up by index.
        self.deal_sizes: list[tuple[int, int]] = [d.for_players(n) for n in range(rules.seats.max_players + 1)]
        self.packet: int = d.packet
        self.table_order: str = d.table_order   # the deal's order (issue 36)
        self.take_all: bool = c.take_all        # a capture takes all the card can (issue 36)
        #: Turns of several actions (issue 49, ``build.free_actions``): builds of cards in play alone
        #: before and after the hand's card, and the turn ended by ``END``.
        self.free_actions: bool = b.free_actions
        self.redeal: bool = d.redeal == "when_hands_empty"
        self.rest_to_table: bool = d.short_stock == "split_rest_to_table"
        self.for_partner: bool = b.for_partner
        self.sweep_on_last_play: bool = sw.on_last_play
        self.sweeps_cancel: bool = sw.cancel
        self.record_sweeps_when_restricted: bool = sw.record_when_restricted
        self.residue_is_sweep: bool = sw.residue_is_sweep
        # The Scopa family: a misdeal by the initial table (kings), the dealer's initial sweep(s)
        # of a table that already makes the capture total (Escoba).
        self.misdeal_mask: int = self.mask_of(compile_selector(d.misdeal_cards, deck.view)) if d.misdeal_cards else 0
        self.misdeal_at_least: int = d.misdeal_at_least
        self.dealer_total: int = c.total if d.dealer_takes_total and c.total is not None else 0
        #: The step-wise game (OpenSpiel, PettingZoo) deals placeholders and lets chance name the cards
        #: afterwards: the rules a first deal's table answers to by its cards (a misdeal, the dealer's
        #: take) then wait for the names, and it applies them through :meth:`initial_deal_rules`.
        self.deal_rules_deferred: bool = False
        self.sweep_in_last_deal: bool = sw.in_last_deal
        # African Casino (issue 27): capture piles kept in order, the opposing sides' tops in play.
        self.piles_in_play: bool = c.from_piles == "opponents_top"
        #: How deep into an opposing pile one move may reach (``capture.pile_cards: augment``: a
        #: card uncovered in a move is in play for a later set of it; see ``turnrules``).
        self.pile_reach: int = c.pile_reach if self.piles_in_play and c.pile_cards == "augment" else 1
        #: Deal patterns by their numbers (see ``_deal``), as each seat's places in the stock and
        #: then the table's: a handful per engine.
        self._deal_patterns: dict[int, list[list[int]]] = {}
        #: A new hand's teams, empty hands and piles, proven values and stacks, by (players, partners).
        self._start_setups: dict[tuple[int, bool | None], tuple[tuple[int, ...], tuple[int, ...],
                                 tuple[frozenset[int], ...], tuple[tuple[int, ...], ...]]] = {}
        self._deck_order: list[int] = list(range(self.n_cards))
        #: What other modules work out from the rules alone, made once an engine and shared by every game
        #: played with it (``scoring.Scorer.of``: the scorer's card masks).
        self.derived: dict[str, object] = {}
        #: African Casino's whole-move rules (``turnrules``): checked only where a setting is on.
        self.turn_rules: TurnRules = TurnRules(self)
        #: Where capture is compulsory by the card or by any capture (``capture.compulsory``:
        #: ``when_card_can_capture``, ``whenever_possible``) under the whole-move rules, the captures that oblige
        #: are those the rules keep (a house rule's combination: no bundled variant has both): the generator
        #: asks them (``movegen.Generator.kept``), and so does the lazy walk (``walk``). None elsewhere.
        self._captures_kept: Callable[[HandState, list[int]], list[int]] | None = (
            self.turn_rules.keep if self.turn_rules.active and self.tables.compulsory in (2, 3) else None)

    # ------------------------------------------------------------------ helpers
    def mask_of(self, predicate) -> int:  # type: ignore[no-untyped-def]
        """The deck mask of the cards ``predicate`` (a function of a card) accepts::

            >>> spades = engine.mask_of(lambda card: card.suit == "S")
            >>> [str(c) for c in engine.deck.cards_of(spades & state.hands[1])]
            ['5S']
        """
        m = 0
        for i, card in enumerate(self.deck.cards):
            if predicate(card):
                m |= 1 << i
        return m

    def next_seat(self, seat: int, players: int) -> int:
        """The seat that plays after ``seat`` at a table of ``players``, in the variant's direction::

            >>> engine.next_seat(3, 4)
            0
        """
        return (seat - 1) % players if self.ccw else (seat + 1) % players

    def leader(self, dealer: int, players: int) -> int:
        """The seat that plays first in a hand ``dealer`` dealt (the next after the dealer)::

            >>> engine.leader(0, 2)
            1
        """
        return self.next_seat(dealer, players)

    def partner_of(self, state: HandState, seat: int) -> int | None:
        """``seat``'s partner in ``state`` (four players in two partnerships), else None::

            >>> engine.partner_of(state, 0) is None
            True
            >>> engine.partner_of(engine.start(seed=7, players=4, partners=True), 1)
            3
        """
        if state.players == 4 and state.teams[0] == state.teams[2] and state.teams[0] != state.teams[1]:
            return (seat + 2) % 4
        return None

    def captured_values(self, cards: int, hand_values: bool = True) -> set[int | str]:
        """Values (and ranks, for cards without value) that the cards in ``cards`` capture."""
        vals: set[int | str] = set()
        table = self.hv if hand_values else self.tv
        for i in bits(cards):
            if table[i]:
                vals.update(table[i])
            else:
                vals.add(self.rank_str[i])
        return vals

    def answers(self, hand: int, values: set[int | str]) -> bool:
        """Whether ``hand`` has a different card to capture each of ``values`` (one card per
        value: a card that counts two ways takes a build of one value or the other)."""
        needed = 0
        for v in values:
            needed |= 1 << self.tables.code(v)
        return answers(needed, [self.tables.cap_codes[i] for i in bits(hand)])

    def unanswered(self, hand: int, values: set[int | str]) -> int:
        """How many of ``values`` ``hand`` leaves without a card of its own (one card per value, as ``answers``)."""
        needed = 0
        for v in values:
            needed |= 1 << self.tables.code(v)
        return unanswered(needed, [self.tables.cap_codes[i] for i in bits(hand)])

    def is_single(self, cards: int, value: int) -> bool:
        """Whether the cards' values (with choices) add up to exactly ``value``."""
        sums = 1
        tvm = self.tables.tvm
        while cards:   # (each card's bit in turn: no list of them, nor of its values)
            low = cards & -cards
            vm = tvm[low.bit_length() - 1]
            if not vm:
                return False
            sums = add_values(sums, vm)
            cards ^= low
        return bool(sums >> value & 1)

    def is_pairs(self, cards: int, value: int | str) -> bool:
        """Whether a build is a build of pairs: equal cards announced as their own rank.

        The kind follows the announced value, not the cards alone (004, "Building": a
        build is of what it was declared to be): four twos announced as fours are an
        addition build (2+2 and 2+2) that grows and is taken by its value like any other.
        """
        first = (cards & -cards).bit_length() - 1
        rank = self.rank[first]
        rest = cards
        while rest:   # (each card's bit in turn: no list of them)
            low = rest & -rest
            if self.rank[low.bit_length() - 1] != rank:
                return False
            rest ^= low
        return isinstance(value, str) or value in self.tv[first]

    # ------------------------------------------------------------------ positions
    def start(self, seed: int, players: int, dealer: int = 0, partners: bool | None = None,
              scores_restricted: Iterable[int] = ()) -> HandState:
        """A new hand: the deck shuffled from ``seed`` and dealt as the variant says; the same
        seed deals the same hand. A player count the variant does not seat, or a ``dealer`` not a
        seat, raises CassinoError.

        ``partners`` asks for partnerships; the variant decides (``rules.partnership(players, partners)``):
        where its ``seats.partnerships`` is ``always`` the seats play in teams whatever is asked, where it
        is ``never``, or the count is not one of its ``seats.partnership_players``, each seat plays for
        itself, and neither is an error (``cassino play --partners`` refuses such a request; the hand's
        ``teams`` and ``sides`` say what was dealt)::

            >>> hand = engine.start(seed=7, players=2)
            >>> hand == state, hand.dealer, hand.turn
            (True, 0, 1)
            >>> engine.start(seed=7, players=4, partners=True).sides        # standard: asked, given
            (0, 1)
            >>> engine.start(seed=7, players=3, partners=True).sides        # no teams of three players
            (0, 1, 2)
        """
        # What a new hand starts from for this table (the seats checked, the teams, the empty
        # hands and piles): worked out once per engine and table, not once a hand (the rules'
        # partnership test is Python the engine would call every hand).
        setup = self._start_setups.get((players, partners))
        if setup is None:
            self._check_players(players)
            teams = self._teams(players, partners)
            empty = tuple(0 for _ in range(players))
            stacks: tuple[tuple[int, ...], ...] = ()
            if self.piles_in_play:
                stacks = tuple(() for _ in range(max(teams) + 1))
            setup = (teams, empty, tuple(frozenset[int]() for _ in range(players)), stacks)
            self._start_setups[(players, partners)] = setup
        teams, empty, proven, stacks = setup
        if not 0 <= dealer < players:
            raise CassinoError(f"dealer {dealer} is not a seat of {players} players (seats 0 to {players - 1})")
        order = list(self._deck_order)
        rng = SplitMix64(seed)
        rng.shuffle(order)
        state = HandState(players=players, teams=teams, dealer=dealer, turn=self.leader(dealer, players),
                          hands=empty, table=0, builds=(), stock=tuple(order), piles=empty, deal_no=0,
                          proven=proven, restricted=frozenset(scores_restricted), stacks=stacks,
                          pile_reach=self.pile_reach)
        dealt = self._deal(state, initial=True)
        if self.deal_rules_deferred:
            return dealt
        if self.misdeal_mask:
            # A misdeal: the same dealer shuffles again (the same generator, so a seed still
            # fixes the hand). The file check makes a clean table possible; the bound only
            # keeps a nearly certain misdeal from looping for ever.
            tries = 0
            while popcount(dealt.table & self.misdeal_mask) >= self.misdeal_at_least and tries < 10000:
                rng.shuffle(order)
                dealt = self._deal(state.with_(stock=tuple(order)), initial=True)
                tries += 1
        if self.dealer_total and dealt.table:
            dealt = self._dealer_takes(dealt)
        return dealt

    def initial_deal_rules(self, state: HandState) -> HandState | None:
        """The rules a hand's first deal answers to by the table's cards, for a deal whose cards were
        named after it was made (``deal_rules_deferred``): None for a misdeal (the same dealer deals
        again), else the hand once the dealer took a table that makes the capture total."""
        if self.misdeal_mask and popcount(state.table & self.misdeal_mask) >= self.misdeal_at_least:
            return None
        if self.dealer_total and state.table:
            return self._dealer_takes(state)
        return state

    def _dealer_takes(self, state: HandState) -> HandState:
        """The dealer takes an initial table that splits wholly into sets worth the capture
        total, one sweep a set (Escoba); any other table stays as dealt."""
        cards = bits(state.table)
        items = [(1 << j, self.tv[c]) for j, c in enumerate(cards)]
        if any(not values for _, values in items):
            return state
        if all(len(values) == 1 for _, values in items) and sum(values[0] for _, values in items) % self.dealer_total:
            return state   # (sets worth the total cannot add up to this table: no search)
        groups = subsets_summing(items, self.dealer_total, self.tables.move_budget)
        full = (1 << len(cards)) - 1
        parts = _partition(full, groups, self.tables.move_budget, [max(values) for _, values in items],
                           self.dealer_total)
        if not parts:
            return state
        seat = state.dealer
        piles = list(state.piles)
        piles[seat] = piles[seat] | state.table
        sweeps = state.sweeps
        for part in parts:
            sweeps = self._record_sweep(state.with_(sweeps=sweeps), Sweep(seat, popcount(part), -1))
        captures = state.captures + (Capture(-1, seat, state.table, state.table),)
        stacks = self._stacked(state.stacks, state.teams[seat], state.table, 0)
        return state.with_(table=0, piles=tuple(piles), sweeps=sweeps, captures=captures, last_capturer=seat,
                           stacks=stacks)

    def _check_players(self, players: int) -> None:
        s = self.rules.seats
        if not s.min_players <= players <= s.max_players:
            raise CassinoError(f"{self.rules.name} is for {s.counts()} players, not {players}")

    def _check_position(self, pos: Position) -> None:
        """CassinoError for a position that cannot exist: a seat (a hand's, a pile's, a sweep's, a build's
        owner, the player to play, the dealer, the last capturer) not at the table, or a card not in this
        deck, or placed twice with one pack (with several, each copy named is placed, and one named more
        often than the packs hold it is refused as it is placed)."""
        players = pos.players
        seats = [("to_play", pos.to_play), ("dealer", pos.dealer), ("last_capture", pos.last_capture)]
        seats += [("hands", s) for s in pos.hands or {}] + [("captured", s) for s in pos.captured or {}]
        seats += [("sweeps", s) for s in pos.sweeps or {}] + [("a build's owner", b[2]) for b in pos.builds]
        for what, seat in seats:
            if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
                raise CassinoError(f"Position: {what} names seat {seat!r}, not a seat of {players} players "
                                   f"(seats 0 to {players - 1})")
        groups: list[Iterable[Any]] = [*(pos.hands or {}).values(), *(pos.captured or {}).values(), pos.table,
                                       *(b[0] for b in pos.builds), pos.stock or ()]
        for cards in groups:
            for card in cards:
                if card not in self.deck:
                    raise CassinoError(f"Position: {card!r} is not a card of this deck: give cards as "
                                       f"engine.deck.parse('{self.deck.cards[0]}')"[:300])
        if self.has_copies:
            return
        places = [*(f"in seat {s}'s hand" for s in pos.hands or {}),
                  *(f"in seat {s}'s pile" for s in pos.captured or {}),
                  "on the table", *(f"in the build of {b[1]!r}" for b in pos.builds), "in the stock"]
        where: dict[Any, str] = {}
        for place, cards in zip(places, groups):
            for card in cards:
                if card in where:
                    again = "twice " + place if where[card] == place else f"{where[card]} and {place}"
                    raise CassinoError(f"Position: {card} is placed {again}: with one pack each card has one "
                                       f"place (a hand, a pile, the table, a build or the stock)")
                where[card] = place

    def _teams(self, players: int, partners: bool | None) -> tuple[int, ...]:
        if self.rules.partnership(players, partners):
            # Teams of seats.team_size: seat k in team k mod (players / team_size), so partners of
            # two sit opposite (4: 0+2, 1+3; 6: 0+3, 1+4, 2+5) and teams of three alternate (0+2+4).
            teams = players // self.rules.seats.team_size
            return tuple(seat % teams for seat in range(players))
        return tuple(range(players))

    def position(self, pos: Position) -> HandState:
        """A state from explicit pieces; cards not placed are the stock (deck order). See
        :class:`Position` for an example. CassinoError where a seat named (a hand's, a pile's, a
        build's owner, ``to_play``, ``dealer``) is not at the table or a card is not of this deck."""
        self._check_players(pos.players)
        self._check_position(pos)
        teams = self._teams(pos.players, pos.partners)
        # ``used``: the cards placed so far, so that with two packs a card placed twice is its
        # two copies (and a third time an error); with one pack it changes nothing.
        used = 0
        hands = [0] * pos.players
        for seat, cards in (pos.hands or {}).items():
            hands[seat] = self.deck.mask(list(cards), used)
            used |= hands[seat]
        piles = [0] * pos.players
        stacks: list[tuple[int, ...]] = []
        if self.piles_in_play:
            # A side's pile in the order given (last = top); partners' lists, lower seat first.
            stacks = [() for _ in range(max(teams) + 1)]
        for seat, cards in sorted((pos.captured or {}).items()):
            pile_order: list[int] = []
            for c in cards:
                # (With several packs, each copy named is the lowest one not yet placed.)
                bit = self.deck.allocate(c, used) if self.has_copies else 1 << self.deck.index(c)
                used |= bit
                piles[seat] |= bit
                pile_order.append(bit.bit_length() - 1)
            if stacks:
                stacks[teams[seat]] = stacks[teams[seat]] + tuple(pile_order)
        builds = []
        for cards, value, owner in pos.builds:
            m = self.deck.mask(list(cards), used)
            used |= m
            multiple = not (isinstance(value, int) and self.is_single(m, value))
            builds.append(Build(m, value, multiple, owner, owner, pairs=self.is_pairs(m, value)))
        table = self.deck.mask(list(pos.table), used)
        used |= table
        sweeps = tuple(Sweep(seat, size, -1) for seat, sizes in (pos.sweeps or {}).items() for size in sizes)
        placed = table | sum(hands) | sum(piles) | sum(b.cards for b in builds)
        if pos.stock is not None:
            order: list[int] = []
            for c in pos.stock:         # in the order given (the deal order), copy by copy
                bit = self.deck.allocate(c, used) if self.has_copies else 1 << self.deck.index(c)
                used |= bit
                order.append(bit.bit_length() - 1)
            stock = tuple(order)
        else:
            stock = tuple(i for i in range(self.n_cards) if not placed >> i & 1)
        dealer = pos.dealer if pos.dealer is not None else next(
            s for s in range(pos.players) if self.leader(s, pos.players) == pos.to_play)
        proven: list[set[int]] = [set() for _ in range(pos.players)]
        for b in builds:
            if isinstance(b.value, int):
                proven[b.owner].add(b.value)
        return HandState(players=pos.players, teams=teams, dealer=dealer, turn=pos.to_play,
                         hands=tuple(hands), table=table, builds=tuple(builds), stock=stock,
                         piles=tuple(piles), sweeps=sweeps, last_capturer=pos.last_capture,
                         proven=tuple(frozenset(p) for p in proven), stacks=tuple(stacks),
                         pile_reach=self.pile_reach)

    # ------------------------------------------------------------------ dealing
    def _deal_pattern(self, n: int, dealer: int, table_left: int, per_hand: int, packet: int) -> list[int]:
        """Where the cards of one deal go, top of the stock first: a seat, or -1 for the table.
        Packets of ``packet`` cards in seat order from the dealer's left, the dealer last; the
        table's packet, while the table still needs cards, just before the dealer's own
        (``deal.table_order: before_dealer``), after every player's (``after_players``), or all
        of the table's cards before anyone's (``first``) or after every hand is dealt (``after_hands``)."""
        out: list[int] = []
        order: list[int] = []
        seat = dealer
        for _ in range(n):
            seat = self.next_seat(seat, n)
            order.append(seat)          # the dealer comes last
        if self.table_order == "first":
            out.extend([-1] * table_left)
            table_left = 0
        last: int = 0   # (after_hands: the table's cards once every hand is dealt)
        if self.table_order == "after_hands":
            last = table_left
            table_left = 0
        table_at = dealer if self.table_order == "before_dealer" else -1
        got = [0] * n
        while table_left or any(got[s] < per_hand for s in order):
            progressed = False
            for s in order + [-1]:
                if s == table_at and table_left:
                    k = min(packet, table_left)
                    out.extend([-1] * k)
                    table_left -= k
                    progressed = True
                if s < 0:
                    continue
                k = min(packet, per_hand - got[s])
                for _ in range(k):
                    out.append(s)
                got[s] += k
                progressed = progressed or k > 0
            if not progressed:
                break
        out.extend([-1] * last)
        return out

    def _deal(self, state: HandState, initial: bool) -> HandState:
        n = state.players
        stock = state.stock
        hands = list(state.hands)
        table = state.table
        hand_size, table_cards = self.deal_sizes[n]   # (deal.by_players: African Casino)
        table_left = table_cards if initial else 0
        if len(stock) >= n * hand_size + table_left:
            per_hand = hand_size
            packet = self.packet
        else:
            # The stock cannot give everyone a full hand: deal evenly, singly, the rest to the table.
            per_hand = (len(stock) - table_left) // n
            packet = 1
        # Where each card from the top of the stock goes (a seat, or -1: the table) depends on
        # these five numbers only: worked out once per engine, not once a deal.
        code = n | state.dealer << 8 | table_left << 16 | per_hand << 32 | packet << 48
        exact = n < 256 and 0 <= state.dealer < 256 and 0 <= table_left < 65536 and 0 <= per_hand < 65536 \
            and 0 <= packet < 65536   # (the code names the five numbers; anything else is not kept)
        spots = self._deal_patterns.get(code) if exact else None
        if spots is None:
            pattern = self._deal_pattern(n, state.dealer, table_left, per_hand, packet)
            # By destination: each seat's places in the stock, then the table's.
            spots = [[k for k in range(len(pattern)) if pattern[k] == s] for s in range(n)]
            spots.append([k for k in range(len(pattern)) if pattern[k] < 0])
            if exact:
                self._deal_patterns[code] = spots
        # Each seat's cards gathered in a number, put in its hand once (a card at a time, each
        # hand's mask would be boxed into a new object for every card).
        top = 0
        for seat in range(n):
            places = spots[seat]
            if places:
                m = hands[seat]
                for k in places:
                    m |= 1 << stock[k]
                hands[seat] = m
                top += len(places)
        for k in spots[n]:
            table |= 1 << stock[k]
        top += len(spots[n])
        if self.rest_to_table and len(stock) - top < n:
            while top < len(stock):
                table |= 1 << stock[top]
                top += 1
        return HandState(n, state.teams, state.dealer, self.leader(state.dealer, n), tuple(hands), table,
                         state.builds, stock[top:], state.piles, state.sweeps, state.events, state.captures,
                         state.last_capturer, state.ply, state.deal_no + 1, state.over, state.proven,
                         state.restricted, state.residue, state.stacks, state.pile_reach)

    # ------------------------------------------------------------------ move generation
    @property
    def move_budget(self) -> int:
        """How much one listing of a position's legal moves may make (item sets, their unions,
        moves); a position beyond it raises :class:`PositionTooLargeError` from every listing
        (``legal_moves``, ``move_keys``, ``count_moves``, ``iter_moves``), while ``is_legal``,
        ``play`` and ``some_moves`` still answer through the lazy walk (``engine.choices``)."""
        return self.tables.move_budget

    @move_budget.setter
    def move_budget(self, value: int) -> None:
        if value < 1:
            raise ValueError(f"a move budget is at least 1, not {value}")
        self.tables.move_budget = value
        self._memo = (_NO_STATE, [])
        self._too_large = (_NO_STATE, "")
        self._sampled = (_NO_STATE, [])

    def _keys(self, state: HandState) -> list[int]:
        memo = self._memo
        if memo[0] is state:
            return memo[1]
        keys = self._listing(state)
        self._memo = (state, keys)
        return keys

    def _listing(self, state: HandState, checked: bool = True) -> list[int]:
        """The position's move keys, worked out afresh (``_keys`` remembers them); ``checked`` false: as the
        generator makes them, twin cards' moves made one, before the whole-move rules and ``take_all``
        (``unchecked_keys``)."""
        refused = self._too_large
        if refused[0] is state:
            raise PositionTooLargeError(refused[1])
        try:
            keys = generate(self.tables, state, True, self._captures_kept)
        except PositionTooLargeError as e:
            self._too_large = (state, str(e))
            raise
        if self.has_copies:
            keys = self._distinct(state, keys)
            if state.stacks:
                keys = self._as_named(state, keys)
        if not checked:
            return keys
        if self.turn_rules.active:
            keys = self.turn_rules.keep(state, keys)   # African Casino's whole-move rules
            if not keys and state.hands[state.turn]:
                # Whole-move rules that refuse every move the cards allow (only with unusual house rules:
                # Swazi's pile rules with no sums and an equal loose card compulsory): the player trails
                # rather than the game stop, as the generator lets them for its own rules.
                keys = [TRAIL | (1 << (PLAYED_SHIFT + k)) for k in range(popcount(state.hands[state.turn]))]
        if self.take_all:
            keys = self._all_it_can(state, keys)
        return keys

    def _all_it_can(self, state: HandState, keys: list[int]) -> list[int]:
        """``capture.take_all``: the captures that no other capture by the same played cards
        contains (what a capture takes is its items, the key's bits above the played cards')."""
        h = popcount(state.hands[state.turn])
        shift = PLAYED_SHIFT + h
        played_mask = ((1 << h) - 1) << PLAYED_SHIFT
        by_played: dict[int, list[int]] = {}
        for key in keys:
            if key & 3 == CAPTURE:
                by_played.setdefault(key & played_mask, []).append(key >> shift)
        if not by_played:
            return keys
        out: list[int] = []
        for key in keys:
            if key & 3 == CAPTURE:
                items = key >> shift
                if any(other != items and other & items == items for other in by_played[key & played_mask]):
                    continue
            out.append(key)
        return out

    # ------------------------------------------------------------------ copies (deck.packs)
    def _twin_names(self, cards: int) -> int:
        """The names (bits of the first pack) of which ``cards`` holds two copies or more."""
        size = self.pack_size
        if self.packs == 2:
            return cards & (cards >> size)   # (a card's copies are i and i + size)
        one = (1 << size) - 1
        seen = cards & one
        twice = 0
        rest = cards >> size
        while rest:
            pack = rest & one
            twice |= seen & pack
            seen |= pack
            rest >>= size
        return twice

    def _copy_groups(self, cards: int, within: int, shift: int) -> list[int]:
        """Each set of two or more copies of a card in ``cards`` (a subset of ``within``) as a mask
        over the set bits of ``within`` (bit k: its k-th lowest card) shifted up by ``shift``:
        the bits of a key that name copies of one card in one zone."""
        out: list[int] = []
        twice = self._twin_names(cards)
        size = self.pack_size
        for name in bits(twice):
            copies = 0
            i = name
            while i < self.n_cards:
                copies |= 1 << i
                i += size
            out.append(extract(cards & copies, within) << shift)
        return out

    def _twin_groups(self, state: HandState) -> list[int]:
        """The bits of the position's keys that name interchangeable items, each set of them as
        one mask over the key: copies of a card in the hand, copies of a card among the table's
        loose cards (not an opposing pile top, nor the card played from the hand this turn, see
        ``_canonical_key``), builds identical for play. Empty (the usual case) when no two items
        of a zone are alike: every key is then its own canonical form."""
        builds = state.builds
        seen = self.tables.turn_cards
        if seen[0] is state and len(builds) < 2 and self.pack_size <= 62 and not _twins(seen[1], self.pack_size) \
                and not _twins(seen[2], self.pack_size):
            # (A wide position just listed: no two copies of a name in the hand nor in play, read from the
            # listing's lists in machine integers rather than from the 104-bit masks. The table is within
            # what is in play: where copies are in play the masks below decide.)
            return []
        hand = state.hands[state.turn]
        zone = state.table & ~state.turn_card if state.turn_card else state.table
        if not self._twin_names(hand) and not self._twin_names(zone) and len(builds) < 2:
            return []
        h = popcount(hand)
        table = state.in_play()       # the table, and the opposing pile tops where in play
        out = self._copy_groups(hand, hand, PLAYED_SHIFT)
        out.extend(self._copy_groups(zone, table, PLAYED_SHIFT + h))
        if len(builds) > 1:
            shift = PLAYED_SHIFT + h + popcount(table)
            for t in self._twin_builds(state):
                if popcount(t) > 1:
                    group = t << shift
                    if group not in out:
                        out.append(group)
        return out

    def _twin_builds(self, state: HandState) -> list[int]:
        """For each build, the builds identical to it for play (same cards by name, value, owner,
        holder) as a mask over ``state.builds``; empty when no two builds are alike."""
        size = self.pack_size
        sigs = [(sorted(i % size for i in bits(b.cards)), b.value, b.multiple, b.owner, b.holder, b.pairs)
                for b in state.builds]
        twins = [sum(1 << k for k, t in enumerate(sigs) if t == sig) for sig in sigs]
        if all(popcount(t) == 1 for t in twins):
            return []
        return twins

    @staticmethod
    def _canonical_key(key: int, groups: list[int]) -> int:
        """The key of the same move made with the lowest-numbered copies of its cards (``groups``:
        ``_twin_groups`` of the position): in each set of interchangeable items, as many of them
        as the key names, the lowest first. (A pile top is not the same card for play as its twin
        on the table, taking it changes a pile; nor is the card played from the hand this turn, in
        a turn of several actions: no later build of the turn uses it. Neither is in a group.)"""
        for group in groups:
            named = key & group
            if named and named != group:
                low = 0
                rest = group
                while named:
                    named &= named - 1
                    first = rest & -rest
                    low |= first
                    rest ^= first
                key = key ^ (key & group) | low
        return key

    def _as_named(self, state: HandState, keys: list[int]) -> list[int]:
        """Several packs with opposing pile cards in play: the moves whose cards in play are the
        copies their names stand for (``resolve``): a name is the table's copy first, then a pile
        card's, the lowest side's pile first and each pile from its top down. A move that takes a
        pile card while a copy of it stays on the table (or on a pile read before it) would be
        written as the move that takes that one, and its record would replay another game: such
        moves are not offered (our reading for house rules that join two packs to African
        Casino's pile cards; which copy lies where is never what decides, as players cannot see it)."""
        table = state.table & ~state.turn_card
        piled = state.pile_tops() | state.turn_card
        size = self.pack_size
        names = 0
        twice = False
        for c in bits(table | piled):
            bit = 1 << (c % size)
            twice = twice or bool(names & bit)
            names |= bit
        if not twice:
            return keys
        in_play = state.in_play()
        order = self._piled_order(state)
        shift = PLAYED_SHIFT + popcount(state.hands[state.turn])
        local_mask = (1 << popcount(in_play)) - 1
        out: list[int] = []
        for key in keys:
            local = (key >> shift) & local_mask
            loose = deposit(local, in_play) if local else 0
            if not loose & piled or self._match(loose, table, piled, order) == loose:
                out.append(key)
        return out

    def _distinct(self, state: HandState, keys: list[int]) -> list[int]:
        """The generated keys with moves that differ only by which copy of a card they use made
        one (the lowest copies), each once, in the order first met."""
        groups = self._twin_groups(state)
        if not groups:
            return keys
        seen: set[int] = set()
        out: list[int] = []
        for key in keys:
            k = self._canonical_key(key, groups)
            if k not in seen:
                seen.add(k)
                out.append(k)
        return out

    def resolve(self, state: HandState, move: Move) -> Move:
        """``move`` with its cards matched by name to the cards where it says they are: the
        played cards to copies in the hand, the taken or used loose cards to copies on the
        table, its builds to builds of the same cards (so ``10D capture 10D`` names the 10D in
        hand and the one on the table). A card not found keeps its copy (the move is then not
        legal). With one pack, ``move`` itself."""
        if not self.has_copies or move.key_in(state) >= 0:
            return move
        played = self._match(move.played, state.hands[state.turn])
        # Table cards first; a name not left on the table may be an opposing pile card, the
        # lowest side's first, each pile from its top down (where a copy lies, not which copy it
        # is: the players see the one, not the other). (The card played from the hand this turn
        # last: a later build of the turn never uses it.)
        loose = self._match(move.loose, state.table & ~state.turn_card,
                            (state.pile_tops() if state.stacks else 0) | state.turn_card, self._piled_order(state))
        size = self.pack_size
        builds: list[int] = []
        taken: set[int] = set()
        for cards in move.builds:
            want = sorted(i % size for i in bits(cards))
            pick = cards
            for j, b in enumerate(state.builds):
                if j not in taken and sorted(i % size for i in bits(b.cards)) == want:
                    pick = b.cards
                    taken.add(j)
                    break
            builds.append(pick)
        return Move(move.kind, played, loose, tuple(sorted(builds)), move.value)

    def _match(self, cards: int, zone: int, then: int = 0, order: list[int] | None = None) -> int:
        """Each card of ``cards`` as the lowest copy of it in ``zone`` not yet matched, else in
        ``then`` (an opposing pile card; the first in ``order`` where it is given), else a copy of it
        not yet matched, its own first (the move is then not legal: a name given twice where one copy
        is there is two cards, not the one twice, which a player's `8S capture 8D 8D` was)."""
        out = 0
        size = self.pack_size
        for i in bits(cards):
            found = self._lowest_copy(i, zone & ~out)
            if found < 0 and order is not None:
                found = next((c for c in order if c % size == i % size and (then & ~out) >> c & 1), -1)
            elif found < 0:
                found = self._lowest_copy(i, then & ~out)
            if found < 0:
                found = i if not out >> i & 1 else self._lowest_copy(i, ~out & ((1 << self.n_cards) - 1))
            out |= 1 << found
        return out

    def _lowest_copy(self, card: int, area: int) -> int:
        """The lowest copy of ``card`` in ``area`` (a deck mask), or -1."""
        j = card % self.pack_size
        while j < self.n_cards and not area >> j & 1:
            j += self.pack_size
        return j if j < self.n_cards else -1

    @staticmethod
    def _piled_order(state: HandState) -> list[int]:
        """The opposing pile cards in play in the order a name is read as one of them: the lowest
        side's pile first, each from its top down; then the card played from the hand this turn."""
        order: list[int] = []
        if state.stacks:
            tops = state.pile_tops()
            for stack in state.stacks:
                order += [c for c in reversed(stack) if tops >> c & 1]
        if state.turn_card:
            order.append(state.turn_card.bit_length() - 1)
        return order

    def move_keys(self, state: HandState) -> list[int]:
        """Every legal move of the player to play as a compact integer key (see ``movegen``).

        Keys are cheap to make, compare and store; they mean something only with their
        state. :meth:`apply_key` plays one, :meth:`move_of` turns one into a :class:`Move`.
        """
        memo = self._memo
        if memo[0] is state:
            return list(memo[1])
        # A list of its own, not remembered: the caller may change it, and a copy for the memo
        # (or for the caller) is a list more a ply where keys are listed and applied by key.
        return self._listing(state)

    def unchecked_keys(self, state: HandState) -> tuple[list[int], KeyCheck | None]:
        """``move_keys(state)`` for a caller that wants one legal key, not all: the keys before the
        whole-move rules' check (African Casino's ``TurnRules``) and the check each key must pass to be
        legal, so that the caller checks only the keys it would choose (a playout's best-rated first,
        then the next: ``gain.first_passing``), in the order of ``move_keys``' listing, which keeps the
        keys that pass in the same order. The check is None where there is nothing left to check (no
        whole-move rule on, or a listing remembered): the keys are then ``move_keys(state)`` itself. Where
        no key passes, the listing is ``move_keys(state)``'s fallback (each hand card trailed): ask it.
        Raises ``PositionTooLargeError`` as ``move_keys`` does."""
        memo = self._memo
        if memo[0] is state:
            return list(memo[1]), None
        if not self.turn_rules.active or self.take_all:
            return self._listing(state), None   # (``take_all`` compares the kept keys with each other)
        return self._listing(state, False), KeyCheck(self.turn_rules, state)

    def legal_moves(self, state: HandState) -> list[Move]:
        """Every legal move of the player to play (``state.turn``), each once::

            >>> [format_move(m, engine.deck) for m in engine.legal_moves(state)][:2]
            ['4H capture 4C', '5S trail']
        """
        return self.moves_of(state, self._keys(state))

    def moves_of(self, state: HandState, keys: list[int]) -> list[Move]:
        """The :class:`Move` values of several keys of ``state``: keyed moves, which decode
        their fields from the key when first read (see ``moves``), sharing one layout."""
        if not keys:
            return []
        layout = KeyLayout(state, self.tables.rank_code_base, self.tables.rank_names)
        return [keyed(key, layout) for key in keys]

    def count_moves(self, state: HandState) -> int:
        """How many legal moves there are, without making a Move of each::

            >>> engine.count_moves(state)
            5
        """
        return len(self._keys(state))

    def iter_moves(self, state: HandState) -> Iterator[Move]:
        """The legal moves one at a time: a front end can show the first few of a table
        with tens of thousands of captures without building them all::

            >>> format_move(next(engine.iter_moves(state)), engine.deck)
            '4H capture 4C'
        """
        keys = self._keys(state)
        for start in range(0, len(keys), 256):
            yield from self.moves_of(state, keys[start:start + 256])

    def is_legal(self, state: HandState, move: Move) -> bool:
        """Whether ``move`` is legal for the player to move in ``state``. Where it is not,
        :meth:`play` raises IllegalMoveError and :meth:`why_illegal` says why::

            >>> engine.is_legal(state, parse_move("4H capture 4C", engine.deck))
            True
            >>> engine.is_legal(state, parse_move("4H trail", engine.deck))
            True
            >>> engine.is_legal(state, parse_move("2S trail", engine.deck))    # seat 0's card
            False
        """
        key = self.key_of(state, move)
        return key >= 0 and self._listed(state, key)

    def _listed(self, state: HandState, key: int) -> bool:
        """Whether the move ``key`` is legal: looked up in the position's list, or, where the
        position is beyond the listing budget, checked alone through the lazy walk."""
        try:
            return key in self._keys(state)
        except PositionTooLargeError:
            sampled = self._sampled
            if sampled[0] is state and key in sampled[1]:
                return True
            return self.allowed_alone(state, self.move_of(state, key))

    def allowed_alone(self, state: HandState, move: Move) -> bool:
        """Whether ``move`` (a keyed move of ``state``: ``move_of``) is legal, decided from the move alone,
        without listing the position's moves: the lazy walk's choices (``choices.MoveChoices.allows``), the
        whole-move rules (``turnrules``) and, where captures take all they can, a larger capture looked for.
        What :meth:`is_legal` asks beyond the listing budget; on a position it can list, the same answer as
        the listing (tests/test_alone_against_listing.py). Raises PositionTooLargeError where the walk runs
        past its own budget (a named capture of very many cards that might split into sets)."""
        walk = self.walk(state)
        if not walk.allows(move) or self.turn_rules.refuses(state, move):
            # (where the whole-move rules refuse every move the cards allow, the player trails any card, as
            # the listing lets them)
            return (move.kind is _TRAIL_KIND and self.turn_rules.active and bool(move.played)
                    and move.played & state.hands[state.turn] == move.played and popcount(move.played) == 1
                    and not move.loose and not move.builds
                    and not walk.any_accepted(lambda m: self._unrefused(state, m)))
        if not (self.take_all and move.kind is _CAPTURE_KIND):
            return True
        if self.turn_rules.active:
            # (the listing compares only the captures the whole-move rules keep: a larger one they refuse
            # takes nothing from this one; decided where the items that could be added are few)
            larger = walk.larger_accepted(move, lambda m: not self.turn_rules.refuses(state, m))
            if larger is not None:
                return not larger
        # Takes all it can: widened as the computer players' moves are (within bounded steps),
        # else, where that is not decided within them, checked item by item in full.
        widest = self._widest(walk, move)
        if widest is None:
            return not walk.has_larger(move)
        return widest.loose == move.loose and widest.builds == move.builds

    def walk(self, state: HandState) -> Any:
        """The lazy walk of ``state``'s moves (``choices.MoveChoices``): its choices one at a time, for a
        position beyond the listing budget or a player choosing step by step. Where capture is compulsory
        under the whole-move rules, it asks those rules which captures oblige (``_captures_kept``)."""
        from .choices import MoveChoices   # (choices imports core's helpers: no cycle at load)

        accept = None if self._captures_kept is None else (lambda m: self._unrefused(state, m))
        return MoveChoices(self.tables, state, accept)

    def play(self, state: HandState, move: Move) -> HandState:
        """Apply ``move`` after checking it is legal (IllegalMoveError otherwise, with the reason; a
        TypeError where ``move`` is not a `Move`, such as its text: `cassino.parse_move` reads that)::

            >>> after = engine.play(state, parse_move("4H capture 4C", engine.deck))
            >>> after.turn, [str(c) for c in engine.deck.cards_of(after.piles[1])]
            (0, ['4H', '4C'])
        """
        key = self.key_of(state, move)
        if key < 0 or not self._listed(state, key):
            raise IllegalMoveError(self.why_illegal(state, self.resolve(state, move)))
        return self.apply_key(state, key)

    def turn_refusal(self, state: HandState, steps: Sequence[Move]) -> str | None:
        """Why the turn ``steps`` (its actions in order, as ``notation.parse_turn`` reads them) is
        refused at ``state``, naming the action where there are several; None where every action is
        legal in turn. A turn of several actions needs ``build.free_actions``."""
        seat = state.turn
        card_at = 0   # (the action that played the turn's card from the hand, counted from 1; 0: none yet)
        for k, move in enumerate(steps):
            if state.over:
                return f"action {k + 1} of {len(steps)}: the hand is over"
            if state.turn != seat:
                if card_at and move.played:
                    # (the card ended the turn, nothing being left to build: a player's audit read "the turn passed
                    # to seat 2 after action 1" of a second hand card as if the first action had been played)
                    card = " ".join(str(c) for c in self.deck.cards_of(steps[card_at - 1].played))
                    return (f"action {k + 1} of {len(steps)}: a turn plays one card from the hand, and action "
                            f"{card_at} played {card}, which ended the turn; nothing of this turn was played")
                return (f"action {k + 1} of {len(steps)}: the turn passed to seat {state.turn} after action {k}: "
                        f"a turn is one player's actions; nothing of this turn was played")
            if move.played and not card_at:
                card_at = k + 1
            move = self.resolve(state, move)
            key = self.key_of(state, move)
            if key < 0 or not self._listed(state, key):
                why = self.why_illegal(state, move)
                return why if len(steps) == 1 else f"action {k + 1} of {len(steps)}: {why}"
            state = self.apply_key(state, key)
        return None

    def play_turn(self, state: HandState, steps: Sequence[Move]) -> HandState:
        """Play a turn's actions in order, each checked (IllegalMoveError naming the action refused),
        then end the turn where its card from the hand is played and the turn is still open (a turn of
        several actions, ``build.free_actions``): the state with the next player to move. A turn of no
        action is refused (IllegalMoveError): it would pass the turn without playing."""
        if not steps:
            raise IllegalMoveError("a turn has at least one action: a card from the hand, captured with, built "
                                   "with or trailed")
        refusal = self.turn_refusal(state, steps) if len(steps) > 1 else None
        if refusal is not None:
            raise IllegalMoveError(refusal)
        for k, move in enumerate(steps):
            try:
                state = self.play(state, move)
            except IllegalMoveError as e:
                if len(steps) == 1:
                    raise
                raise IllegalMoveError(f"action {k + 1} of {len(steps)}: {e}") from None
        return self.close_turn(state)

    def close_turn(self, state: HandState) -> HandState:
        """``state`` with its turn ended where the turn's card from the hand is played and the turn is
        still open (``END``); else ``state`` itself."""
        if state.turn_card and not state.over:
            return self.apply_key(state, END)
        return state

    def playable_moves(self, state: HandState) -> list[Move]:
        """What a computer player chooses among: every legal move, or, at a position beyond
        the listing budget, :data:`SAMPLED_MOVES` of them from :meth:`some_moves` (every
        hand card and way of playing it among them). Never raises PositionTooLargeError."""
        try:
            return self.moves_of(state, self._keys(state))
        except PositionTooLargeError:
            return self.some_moves(state, SAMPLED_MOVES)

    def some_moves(self, state: HandState, limit: int) -> list[Move]:
        """At most ``limit`` legal moves, with bounded work at any position: every legal move
        where the position is within the listing budget and has no more than ``limit``; else
        the first ``limit`` of the list, and beyond the budget, moves found by the lazy walk,
        a share for each way of playing (hand card, kind, build value) so that none is left out.
        For computer players and hints at positions too large to list."""
        if limit < 1 or state.over:
            return []
        try:
            keys = self._keys(state)
        except PositionTooLargeError:
            # Two packs: the sample is drawn from the position with each card's copies placed in one
            # order (``_copy_swaps``), so that two positions alike but for which copy lies where (a
            # game and its OpenSpiel mirror, whose chance deals names) are offered the same moves.
            real = state
            swap = self._copy_swaps(state) if self.has_copies and self.packs == 2 else 0
            if swap:
                state = self._with_copies_swapped(state, swap)
            walk = self.walk(state)
            found: list[int] = []
            # The whole-move rules are asked while walking, so refused moves take no move's share (a
            # capture that takes all it can is judged once widened, below).
            sample = walk.sample(limit, (lambda m: self._unrefused(state, m)) if self.turn_rules.active else None)
            stop = walk.steps + WIDEST_STEPS       # (the widening's steps, for all the captures)
            widened: list[Move] = []
            for move in sample:
                if self.take_all and move.kind is _CAPTURE_KIND:
                    if any(w.played == move.played and move.loose & ~w.loose == 0
                           and all(b in w.builds for b in move.builds) for w in widened):
                        continue   # (within a capture found already: widened, most likely to it)
                    widest = self._widest(walk, move, stop)
                    if widest is None:
                        continue
                    move = widest
                    widened.append(move)
                if self.turn_rules.active and self.turn_rules.refuses(state, move):
                    continue
                if swap:
                    move = Move(move.kind, self._swapped(move.played, swap), self._swapped(move.loose, swap),
                                tuple(sorted(self._swapped(b, swap) for b in move.builds)), move.value)
                # The key of the very cards the walk chose: with several packs a pile top is not
                # its twin on the table, which matching the move's cards by name would pick.
                key = self._key_of(real, move)
                if key >= 0 and key not in found:
                    found.append(key)
            state = real
            if self.has_copies and state.stacks:
                found = self._as_named(state, found)
            self._sampled = (state, found)
            return self.moves_of(state, found)
        return self.moves_of(state, keys[:limit])

    def _copy_swaps(self, state: HandState) -> int:
        """Two packs: the cards of the first pack (deck indexes below ``pack_size``) whose copy of the second
        lies in an earlier place than they do, where places are ranked by what every seat sees alike: the
        mover's hand, the table (the card the mover played this turn last), each build, each pile from its top
        down, each other hand, the stock, the piles taken. Swapping them (``_with_copies_swapped``) gives every position alike but for which copy
        lies where one arrangement of the copies."""
        size = self.pack_size
        rank: dict[int, int] = {}
        for i, c in enumerate(state.stock):
            rank[c] = 3_000 + i
        for seat, hand in enumerate(state.hands):
            for c in bits(hand):
                rank[c] = 0 if seat == state.turn else 2_000 + seat
        for c in bits(state.table):
            rank[c] = 2 if state.turn_card >> c & 1 else 1   # (the turn's own card after its twins)
        for j, b in enumerate(state.builds):
            for c in bits(b.cards):
                rank[c] = 3 + j
        for side, stack in enumerate(state.stacks):
            for depth, c in enumerate(reversed(stack)):
                rank[c] = 1_000 + 100 * side + min(depth, 99)
        swap = 0
        for c in range(size):
            if rank.get(c, 9_000) > rank.get(c + size, 9_000):
                swap |= 1 << c
        return swap

    def _swapped(self, mask: int, swap: int) -> int:
        """``mask`` with the two copies of each card of ``swap`` (first-pack bits) exchanged."""
        size = self.pack_size
        both = swap | (swap << size)
        return (mask & ~both) | ((mask & swap) << size) | ((mask >> size) & swap)

    def _with_copies_swapped(self, state: HandState, swap: int) -> HandState:
        """``state`` with the two copies of each card of ``swap`` exchanged wherever they lie (what the
        moves are made of: hands, table, builds, stock, piles, pile stacks, the turn's card)."""
        size = self.pack_size

        def one(c: int) -> int:
            if c < size:
                return c + size if swap >> c & 1 else c
            return c - size if swap >> (c - size) & 1 else c

        return state.with_(
            hands=tuple(self._swapped(h, swap) for h in state.hands),
            table=self._swapped(state.table, swap),
            builds=tuple(Build(self._swapped(b.cards, swap), b.value, b.multiple, b.owner, b.holder, b.pairs)
                         for b in state.builds),
            stock=tuple(one(c) for c in state.stock),
            piles=tuple(self._swapped(p, swap) for p in state.piles),
            stacks=tuple(tuple(one(c) for c in stack) for stack in state.stacks),
            turn_card=self._swapped(state.turn_card, swap))

    def _unrefused(self, state: HandState, move: Move) -> bool:
        """Whether the whole-move rules (``turnrules``) let ``move`` be played, a capture that
        takes all it can being judged only once widened (``some_moves``)."""
        return (self.take_all and move.kind is _CAPTURE_KIND) or not self.turn_rules.refuses(state, move)

    def _widest(self, walk: Any, move: Move, stop: int = -1) -> Move | None:
        """``capture.take_all`` beyond the listing budget: the capture by ``move``'s cards that
        takes all ``move`` takes and every item that can be added, one item at a time in the
        walk's item order (each added where some legal capture still holds all chosen so far;
        when no item can be, the items chosen are a legal capture no other contains). None
        where the checks would pass :data:`WIDEST_STEPS` steps of the walk (or its step count
        ``stop``): not known, left out."""
        from .choices import Head

        positions = walk.item_positions(move)
        if positions is None:
            return None
        head = Head(move.played, CAPTURE, 0)
        order: list[int] = walk.order
        chosen = 0
        for p in positions:
            chosen |= order[p]
        if stop < 0:
            stop = walk.steps + WIDEST_STEPS
        if walk.steps >= stop:
            return None
        walk.check_limit = stop
        relevant: int = walk.relevant_items(head)   # (an item no move of the head uses is never added)
        try:
            for bit in order:
                if bit & relevant and not chosen & bit and walk.has_completion(head, chosen | bit, chosen | bit):
                    chosen |= bit
        except PositionTooLargeError:
            return None
        finally:
            walk.check_limit = 0
        result: Move = walk.move(head, [p for p in range(len(order)) if chosen & order[p]])
        return result

    def why_illegal(self, state: HandState, move: Move) -> str:
        """A one-line reason a move is refused, for players and scenario reports (asked of a legal move it
        says so: ``MOVE: a legal move here: nothing refuses it``; ``is_legal`` is the check)::

            >>> engine.why_illegal(state, parse_move("2S trail", engine.deck))
            '2S trail: 2S is not in the hand of seat 1'
        """
        from .reasons import why_illegal

        return why_illegal(self, state, move)

    # ------------------------------------------------------------------ keys and moves
    def played_of(self, state: HandState, key: int) -> int:
        """The cards a key of ``state`` plays (a deck mask), without making its Move."""
        hand = state.hands[state.turn]
        return deposit((key >> PLAYED_SHIFT) & ((1 << popcount(hand)) - 1), hand)

    def move_of(self, state: HandState, key: int) -> Move:
        """The :class:`Move` a key of ``state`` stands for."""
        return self.moves_of(state, [key])[0]

    def key_of(self, state: HandState, move: Move) -> int:
        """The key of ``move`` in ``state``, or -1 when the move names cards or builds that
        are not where it says (such a move is not legal there)."""
        if not isinstance(move, Move):
            raise TypeError(f"a move is a cassino.Move (parse_move(text, engine.deck), or one of "
                            f"legal_moves), not {type(move).__name__} {move!r}"[:200])
        key = move.key_in(state)
        if key >= 0:
            return key
        if _malformed(move, self.n_cards):
            return -1   # (a kind that is none, a mask past the deck's last card: not a move of this deck)
        if self.has_copies:
            key = self._key_of(state, self.resolve(state, move))
            return key if key < 0 else self._canonical_key(key, self._twin_groups(state))
        return self._key_of(state, move)

    def exact(self, state: HandState, move: Move) -> Move:
        """``move`` as the very cards it names (a keyed move of ``state``), with no matching of
        copies by name as :meth:`resolve` does for moves read from text. For moves made from the
        position's own cards (the step-wise games' walk), where two copies of a card in two places
        (the table's and an opposing pile top) are different items. IllegalMoveError when a card
        or build is not where the move says."""
        key = move.key_in(state)
        if key < 0:
            key = self._key_of(state, move)
            if key < 0:
                raise IllegalMoveError(self.why_illegal(state, move))
        return self.move_of(state, key)

    def _key_of(self, state: HandState, move: Move) -> int:
        hand_cards = bits(state.hands[state.turn])
        loose_cards = bits(state.in_play())
        played = 0
        for i in bits(move.played):
            if i not in hand_cards:
                return -1
            played |= 1 << hand_cards.index(i)
        items = 0
        for i in bits(move.loose):
            if i not in loose_cards:
                return -1
            items |= 1 << loose_cards.index(i)
        build_cards = [b.cards for b in state.builds]
        for cards in move.builds:
            if cards not in build_cards:
                return -1
            items |= 1 << (len(loose_cards) + build_cards.index(cards))
        code = 0
        if move.kind is _BUILD_KIND or move.kind is _TRAIL_BUILD_KIND:
            if move.value is None:
                return -1
            try:
                code = self.tables.code(move.value)
            except ValueError:
                return -1
            if not 0 <= code <= VALUE_BITS:
                return -1
        elif move.value is not None:
            return -1
        return (kind_code(move.kind) | code << VALUE_SHIFT | played << PLAYED_SHIFT
                | items << (PLAYED_SHIFT + len(hand_cards)))

    # ------------------------------------------------------------------ applying
    def apply(self, state: HandState, move: Move) -> HandState:
        """The state after ``move``, which must be legal: it is not checked (the search's fast
        path). :meth:`play` checks it first::

            >>> engine.apply(state, engine.legal_moves(state)[0]).turn
            0
        """
        key = move.key_in(state)
        if key >= 0:   # listed for this very state: apply it by its key
            return self.apply_key(state, key)
        move = self.resolve(state, move)
        used = 0
        for j, b in enumerate(state.builds):
            if b.cards in move.builds:
                used |= 1 << j
        code = self.tables.code(move.value) if move.value is not None else 0
        return self._apply(state, kind_code(move.kind), move.played, move.loose, used, code)

    def turn_cards(self, state: HandState) -> tuple[list[int], list[int]] | None:
        """The cards of the mover's hand and the cards in play (``state.in_play()``), deck indexes lowest
        first, where the last listing (``move_keys``) was of ``state`` and found them wider than a machine
        word (two packs: ``Tables.turn_cards``); None otherwise. The lists are the listing's own: read them,
        never change them."""
        seen = self.tables.turn_cards
        if seen[0] is state:
            return seen[1], seen[2]
        return None

    def apply_key(self, state: HandState, key: int) -> HandState:
        """The state after the move ``key`` (one of ``move_keys(state)``)."""
        # (The key decoded in place: no tuple of five boxed numbers a ply.)
        seen = self.tables.turn_cards
        if seen[0] is state:
            # (A wide position just listed, two packs': its cards read from the listing's lists, one
            # shift a card, not walked out of the 104-bit masks again. The same masks.)
            hand_cards = seen[1]
            h = len(hand_cards)
            played = _cards_of((key >> PLAYED_SHIFT) & ((1 << h) - 1), hand_cards)
            items = key >> (PLAYED_SHIFT + h)
            if not items:
                return self._apply(state, key & 3, played, 0, 0, (key >> VALUE_SHIFT) & VALUE_BITS)
            loose_cards = seen[2]
            n = len(loose_cards)
            return self._apply(state, key & 3, played, _cards_of(items & ((1 << n) - 1), loose_cards),
                               items >> n, (key >> VALUE_SHIFT) & VALUE_BITS)
        hand = state.hands[state.turn]
        h = popcount(hand)
        items = key >> (PLAYED_SHIFT + h)
        played = deposit((key >> PLAYED_SHIFT) & ((1 << h) - 1), hand)
        if not items:   # (a trail, or a build of the hand's cards alone: no table card to find)
            return self._apply(state, key & 3, played, 0, 0, (key >> VALUE_SHIFT) & VALUE_BITS)
        table = state.in_play()       # the table, and the opposing pile tops where in play
        n_loose = popcount(table)
        return self._apply(state, key & 3, played, deposit(items & ((1 << n_loose) - 1), table),
                           items >> n_loose, (key >> VALUE_SHIFT) & VALUE_BITS)

    def _apply(self, state: HandState, kind: int, played: int, loose: int, used: int, code: int) -> HandState:
        seat = state.turn
        if not played and kind == TRAIL:
            return self._end_turn(state)
        hands = _with_item(state.hands, seat, state.hands[seat] & ~played)
        builds = state.builds
        build_cards = 0
        if used:
            rest: list[Build] = []
            for j, b in enumerate(builds):
                if used >> j & 1:
                    build_cards |= b.cards
                else:
                    rest.append(b)
            rest_builds = tuple(rest)
        else:
            rest_builds = builds
        table = state.table & ~loose
        piles = state.piles
        stacks = state.stacks
        from_piles = 0
        if stacks:
            # Opposing pile tops taken or built with: off their piles (the next card is the top).
            from_piles = loose & ~state.table
            if from_piles:
                stacks = tuple(tuple(c for c in s if not from_piles >> c & 1) for s in stacks)
                piles = tuple(p & ~from_piles for p in piles)
        sweeps = state.sweeps
        events = state.events
        captures = state.captures
        last_capturer = state.last_capturer
        proven = state.proven
        ply = state.ply
        if self.for_partner and proven and proven[seat]:
            played_vals = self.captured_values(played)
            kept = frozenset(v for v in proven[seat] if v not in played_vals)
            if len(kept) != len(proven[seat]):   # (unchanged, the same object: the solver's keys read it by object)
                p = list(proven)
                p[seat] = kept
                proven = tuple(p)
        if kind == CAPTURE:
            taken = loose | build_cards
            piles = _with_item(piles, seat, piles[seat] | taken | played)
            if stacks:
                stacks = self._stacked(stacks, state.teams[seat], taken, played)
            last_capturer = seat
            captures = captures + (Capture(ply, seat, taken | played, taken),)
            if self.events:
                evs = tuple(Event(seat, name, ply) for name, masks in self.events if all(taken & m for m in masks))
                if evs:
                    events = events + evs
            new_builds = rest_builds
            if not table and not rest_builds and (not from_piles or taken & ~from_piles):
                # (Pile tops are not the table: a capture of pile tops alone sweeps nothing.)
                last_play = not state.stock and not any(hands)
                if (self.sweep_on_last_play or not last_play) and (self.sweep_in_last_deal or state.stock):
                    sweeps = self._record_sweep(state, Sweep(seat, popcount(taken & ~from_piles), ply,
                                                             first_play=ply == 0 and state.deal_no == 1))
        elif kind == TRAIL:
            table |= played
            new_builds = builds
        else:
            cards = played | loose | build_cards
            if kind == TRAIL_BUILD:
                cards = loose | build_cards
                table |= played
            value = self.tables.value_of(code)
            multiple = not self.is_single(cards, value) if isinstance(value, int) else True
            holder = seat
            if not self.tables.cap_codes_of(hands[seat]) >> code & 1 or not self._answers_with(hands[seat], rest_builds,
                                                                                              seat, code):
                partner = self.partner_of(state, seat)
                holder = partner if partner is not None else seat
            if self.for_partner and proven and holder == seat and isinstance(value, int) and value not in proven[seat]:
                p = list(proven)
                p[seat] = p[seat] | {value}
                proven = tuple(p)
            new_builds = rest_builds + (Build(cards, value, multiple, seat, holder, self.is_pairs(cards, value)),)
        if self.for_partner and proven and played and self.tables.keep_capturing_card:
            # A value played away stays proven while the seat holds a build of it: the holder keeps a card of its
            # value (001 "Taking In": "the 8 already built by his partner is sufficient"), as a position given
            # with that build reads it (``position``).
            held_values: list[int] = []   # (most plies: none, and no set made)
            for b in new_builds:
                if b.holder == seat and isinstance(b.value, int):
                    held_values.append(b.value)
            kept = frozenset(held_values) if held_values else _NO_VALUES
            if not kept <= proven[seat]:
                p = list(proven)
                p[seat] = p[seat] | kept
                proven = tuple(p)
        stock = state.stock
        if self.draw_after_play and stock:
            need = self.deal_sizes[state.players][0] - popcount(hands[seat])
            if need > 0:
                hands = _with_item(hands, seat, hands[seat] | self._stock_mask(stock[:need]))
                stock = stock[need:]
        if self.free_actions:
            # A turn of several actions: a build of cards in play leaves the turn where it is; after the
            # hand's card the turn goes on while cards are in play to build with (else it ends).
            turn_card = state.turn_card if not played else played
            open_turn = HandState(state.players, state.teams, state.dealer, seat, hands, table, new_builds, stock,
                                  piles, sweeps, events, captures, last_capturer, ply + 1, state.deal_no, False,
                                  proven, state.restricted, 0, stacks, state.pile_reach, turn_card)
            if not played or self._goes_on(open_turn):
                return open_turn
        # The next seat in play order with cards in hand, or -1 (inline: no method call a seat).
        players = state.players
        nxt = -1
        s = seat
        for step in range(players):   # (a named counter: compiled, ``_`` is an object, boxed each turn)
            s = (s - 1) % players if self.ccw else (s + 1) % players
            if hands[s]:
                nxt = s
                break
        after = HandState(players, state.teams, state.dealer, seat if nxt < 0 else nxt, hands,
                          table, new_builds, stock, piles, sweeps, events, captures, last_capturer, ply + 1,
                          state.deal_no, False, proven, state.restricted, 0, stacks, state.pile_reach)
        if nxt < 0:
            return self._deal_is_over(after)
        return after

    def _goes_on(self, state: HandState) -> bool:
        """Whether a turn of several actions goes on after its hand card (``state``: the turn still open):
        while any card other than that one is in play to build with, and the mover holds a card (or their
        partner a proven value) a build could be for. Decided by what every seat sees, never by the cards
        in the mover's hand: a turn that ended by itself whenever the hand could build nothing would tell
        the others what it holds (the player says `end` instead, as at the table)."""
        if not state.in_play() & ~state.turn_card:
            return False
        seat = state.turn
        if state.hands[seat]:
            return True
        partner = self.partner_of(state, seat) if self.for_partner and state.proven else None
        return partner is not None and bool(state.proven[partner])

    def _end_turn(self, state: HandState) -> HandState:
        """``END``: the turn of several actions passes to the next seat in play order with cards in
        hand, or the deal is over."""
        players = state.players
        seat = state.turn
        nxt = -1
        s = seat
        for step in range(players):   # (named: see ``_apply``)
            s = (s - 1) % players if self.ccw else (s + 1) % players
            if state.hands[s]:
                nxt = s
                break
        after = HandState(players, state.teams, state.dealer, seat if nxt < 0 else nxt, state.hands, state.table,
                          state.builds, state.stock, state.piles, state.sweeps, state.events, state.captures,
                          state.last_capturer, state.ply + 1, state.deal_no, False, state.proven, state.restricted,
                          0, state.stacks, state.pile_reach)
        if nxt < 0:
            return self._deal_is_over(after)
        return after

    def _answers_with(self, hand: int, builds: tuple[Build, ...], seat: int, code: int) -> bool:
        """``build.keep_capturing_card``: whether ``hand`` keeps a card of its own for each build
        ``seat`` holds and for a new build of value ``code`` (a card counting two ways answers for one
        value only). Where it does not, the move was legal only as a build of the partner's proven
        value (``build.for_partner``): the build is the partner's, not the builder's, who keeps no card
        for it (an ace kept for a build of 1 is no card for a build of 14 too). Always true elsewhere."""
        if not self.tables.keep_capturing_card:
            return True
        needed = 1 << code
        for b in builds:
            if b.holder == seat:
                needed |= 1 << self.tables.code(b.value)
        if not needed & (needed - 1):
            return True   # (the new build alone: a card of its value is in hand)
        caps = self.tables.cap_codes
        return answers(needed, [caps[c] for c in bits(hand)])

    def _stacked(self, stacks: tuple[tuple[int, ...], ...], side: int, taken: int,
                 played: int) -> tuple[tuple[int, ...], ...]:
        """``stacks`` with a capture put on ``side``'s pile: the cards taken (lowest deck index
        first), then the capturing card on top (our reading; see docs/rule-examples.md). With
        several packs, copies are ordered by the card they are (its index in one pack) before the
        copy: which copy of a card was dealt where never decides which card ends on top, as it
        cannot for the players (nor for the step-wise games, which deal copies by name)."""
        if not stacks:
            return stacks
        if self.has_copies:
            size = self.pack_size
            added = tuple(sorted(bits(taken), key=lambda c: (c % size, c))
                          + sorted(bits(played), key=lambda c: (c % size, c)))
        else:
            added = tuple(bits(taken)) + tuple(bits(played))
        return tuple(s + added if k == side else s for k, s in enumerate(stacks))

    @staticmethod
    def _stock_mask(cards: Sequence[int]) -> int:
        m = 0
        for i in cards:
            m |= 1 << i
        return m

    def _record_sweep(self, state: HandState, sweep: Sweep) -> tuple[Sweep, ...]:
        side = state.teams[sweep.seat]
        if side in state.restricted and not self.record_sweeps_when_restricted:
            return state.sweeps
        sweeps = list(state.sweeps) + [sweep]
        if self.sweeps_cancel:
            sides = state.sides
            live = {s: [k for k, w in enumerate(sweeps) if not w.cancelled and state.teams[w.seat] == s] for s in sides}
            if len(sides) > 1 and all(live[s] for s in sides):
                for s in sides:
                    k = live[s][0]
                    w = sweeps[k]
                    sweeps[k] = Sweep(w.seat, w.size, w.ply, w.first_play, cancelled=True)
        return tuple(sweeps)

    def _deal_is_over(self, state: HandState) -> HandState:
        """Every hand is empty: deal again, or end the hand. A deal that gives nobody a card (a stock
        too short for one each, which play never leaves but a case may set) ends the hand, its cards
        on the table: a hand no one can play would never end."""
        if state.stock and self.redeal:
            dealt = self._deal(state, initial=False)
            for hand in dealt.hands:
                if hand:
                    return dealt
            return self._finish(dealt)
        return self._finish(state)

    def _finish(self, state: HandState) -> HandState:
        residue = state.table
        for b in state.builds:
            residue |= b.cards
        piles, table, builds, sweeps = state.piles, state.table, state.builds, state.sweeps
        stacks = state.stacks
        if residue and state.last_capturer is not None:
            pl = list(piles)
            pl[state.last_capturer] = pl[state.last_capturer] | residue
            piles, table, builds = tuple(pl), 0, ()
            stacks = self._stacked(stacks, state.teams[state.last_capturer], residue, 0)
            if self.residue_is_sweep:
                sweeps = self._record_sweep(state, Sweep(state.last_capturer, popcount(residue), state.ply))
        return HandState(state.players, state.teams, state.dealer, state.turn, state.hands, table, builds,
                         state.stock, piles, sweeps, state.events, state.captures, state.last_capturer,
                         state.ply, state.deal_no, True, state.proven, state.restricted, residue, stacks,
                         state.pile_reach)

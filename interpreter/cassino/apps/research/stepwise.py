"""Any variant as a sequence of small decisions: what the OpenSpiel game and the
PettingZoo environment share.

Why steps: a Cassino move is combinatorial (a capture may take any set of disjoint
groups of table cards), so no fixed list of actions can name every move of every
position. A move is given instead as a few actions from one fixed, bounded set,
and after each action only the actions that continue some legal move are legal.

The actions of a variant whose deck has N cards, V build values (its cards' number
values, then the ranks of the cards with no number value) and B = N // 2 places
for builds (a build holds at least two cards)::

    [0, N)              play hand card i (deck order)
    N + 0 .. N + 3      trail, capture, build, trail-and-build
    then V              announce build value v
    then B              a build on the table, by place (oldest first)
    then N              loose table card i
    DONE                the move is complete
    CLAIM               claim the game (whole games of a variant with claiming; a
                        turn's first action only)

Every legal move is exactly one set of these actions, and the player gives them in
increasing order: hand card(s), kind, value, builds, loose cards, DONE. In a turn of
several actions (``build.free_actions``: African Casino) a build of cards in play alone
plays no hand card: it starts at ``build``; and once the turn's hand card is played the
turn's end is ``trail`` with no card. Such a turn is several moves of one player. So every
completed sequence is one legal move and every legal move one sequence. When only
one action can follow, it is taken at once (a turn's first action excepted), so
the player acts only where there is a choice. In standard Casino (suits in deck
order S, H, D, C), ``9D capture 4D 5H 9C`` is the set {play 9D, capture, loose 5H,
loose 4D, loose 9C, DONE} (loose cards in deck order: 5H, 4D, 9C). The player gives
``play 9D`` (trail and capture are then legal), ``capture`` (then ``loose 5H`` or
``loose 9C``, the first cards of the captures the nine can make), ``loose 5H``
(``loose 4D`` follows by itself: no capture takes the five without the four), and
``loose 9C`` (DONE follows by itself; ``done`` instead would take only 4D and 5H).

Two packs (``deck.packs``): the copies of a card are one card for play, and which copy
a seat holds is chance's bookkeeping (it deals the lowest copy left), which the seat
must not learn from: holding copy 1 would tell that copy 0 was dealt before. So card
ids name a card by its identity and its place among the copies *in one place*: in the
hand, ``i`` (0 <= i < S, S the pack's size) is the first copy of card i held, ``i + S``
the second; on the table likewise, the copies lying loose counted first and an opposing
pile top after them. A move takes the lowest of these, each set once; the views number
cards the same way (``Encoding.canon``). With one pack every id is the card's index.

Chance: the engine deals placeholders, and each dealt card is a chance node that
chooses its identity uniformly among the cards not yet dealt in this hand: the
table's new cards first, then each seat's in seat order. Cards left in the stock
are not chosen until they are dealt, which is exactly a uniform shuffle.

The engine's public API is used: ``Game`` (whole games: scores, claims,
hands after hands), ``HandState`` fields (the placeholder cards are renamed with
``HandState.with_``), ``Move`` and notation, and ``engine.choices``: the legal next
actions are asked of it as the player gives them (which next choices still have a
completion), never by listing every legal move, so a step costs what the actions
offered cost even where a card may take any of millions of sets (a table of 30 loose
cards; Hungarian's several hand cards played together; 24 loose cards of two packs).
Small positions (at most ``LIST_ITEMS`` loose cards and builds and ``LIST_MOVES`` moves,
one pack) are the exception: there the engine's list of move keys is read instead
(``Listing``), a few dozen moves made by the compiled generator in microseconds, cheaper
than the walk's searches; the actions offered are the same either way
(tests/test_stepwise_bounds.py).
With two packs, ``CopyWalk`` asks ``MoveChoices`` its feasibility question directly
(``relevant_items``, ``has_completion``), over the action ids' order rather than the
walk's own item order (see ``CopyWalk``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from numbers import Integral
from typing import Any, Callable, Mapping, NamedTuple

from ...engine.choices import END, Head, MoveChoices
from ...engine.core import Engine, bits
from ...engine.movegen import PLAYED_SHIFT, VALUE_BITS, VALUE_SHIFT, popcount
from ...engine.game import Game
from ...engine.moves import Move, MoveKind
from ...engine.notation import cards_text, format_move
from ...engine.state import HandState
from ...engine.tables import BUILD as BUILD_KIND, TRAIL_BUILD as TRAIL_BUILD_KIND, Tables
from ...errors import CassinoError, PositionTooLargeError
from ...language.rules import Rules
from ...language.variants import bundled_names, load_rules
from .recorded_rules import decode as decode_rules, encode as encode_rules, is_recorded
from .utility_bounds import game_bound, hand_bound

TABLE = -1                      # where a dealt card went, when not to a seat
KINDS = (MoveKind.TRAIL, MoveKind.CAPTURE, MoveKind.BUILD, MoveKind.TRAIL_BUILD)
_BUILD_KINDS = (MoveKind.BUILD, MoveKind.TRAIL_BUILD)
KIND_WORDS = ("trail", "capture", "build", "trail build")
PAYOFFS = ("points", "win")
#: Positions with at most this many table items (loose cards in play and builds) are listed by
#: the engine (``Engine.move_keys``) rather than walked lazily: in play, a few dozen moves (a few
#: hundred at most), listed by the compiled generator in microseconds, where the lazy walk's
#: feasibility searches cost tens of microseconds a turn. Beyond it, and where the list is longer
#: than ``LIST_MOVES`` (a table made of low cards), a step costs what the actions offered cost.
LIST_ITEMS = 16
LIST_MOVES = 600

#: The parameters and their defaults (OpenSpiel's parameter specification).
PARAMETERS: dict[str, Any] = {
    "variant": "standard",      # a bundled name or a rule file's path
    "players": 0,               # 0: the variant's smallest number of players
    "partners": False,          # four players as two teams (seats 0+2, 1+3)
    "whole_game": False,        # False: one hand; True: hands until the game is won
    "payoff": "points",         # "points": score difference; "win": +1 for the winners, shared -1 for the rest
    "max_hands": 100,           # whole games are cut off after this many hands
    "dealer": 0,                # the seat that deals the first hand
}


#: The most hands a whole game may be cut off after. (An audit gave OpenSpiel ``max_hands=10**7``: the game's length,
#: 6 steps a card a hand, no longer fit OpenSpiel's 32-bit ``max_game_length`` and pybind11 raised "incompatible
#: constructor arguments"; a million hands of Krypkasino's 104 cards is 624 million steps, within it.)
MAX_HANDS = 1_000_000


class SetupError(CassinoError):
    """A parameter that is unknown, of the wrong type, or out of range."""


class IllegalStep(CassinoError):
    """An action that is not legal in the current state."""


# ---------------------------------------------------------------------- parameters
def _numpy_bool(value: Any) -> bool:
    """numpy's true or false (``np.bool_``), taken for a bool as numpy's integers are taken for an int. (An audit
    found ``whole_game=np.True_`` refused as "Expected type: bool, got bool", numpy 2 naming its type bool.)"""
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


@dataclass(frozen=True)
class Setup:
    """The parameters of one game, checked (what ``pyspiel.load_game`` or ``env()`` was given)."""

    variant: str = "standard"
    players: int = 0
    partners: bool = False
    whole_game: bool = False
    payoff: str = "points"
    max_hands: int = 100
    dealer: int = 0

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None = None) -> "Setup":
        """Check names and types the way OpenSpiel does, then the values."""
        params = dict(params or {})
        for name, value in params.items():
            if name not in PARAMETERS:
                raise SetupError(f"Unknown parameter '{name}'. Available parameters are: "
                                 f"{', '.join(sorted(PARAMETERS))}")
            want = type(PARAMETERS[name])
            ok = (isinstance(value, Integral) and not isinstance(value, bool)) if want is int else \
                (isinstance(value, bool) or _numpy_bool(value)) if want is bool else isinstance(value, want)
            if not ok:
                raise SetupError(f"Wrong type for parameter {name}. Expected type: {want.__name__}, "
                                 f"got {type(value).__name__} with {value!r}")
        merged = {**PARAMETERS, **params}
        merged = {k: int(v) if isinstance(v, Integral) and not isinstance(v, bool) else
                  bool(v) if _numpy_bool(v) else v for k, v in merged.items()}
        setup = cls(**merged)
        if setup.payoff not in PAYOFFS:
            raise SetupError(f"payoff must be one of {', '.join(PAYOFFS)}, not {setup.payoff!r}")
        if setup.max_hands < 1:
            raise SetupError(f"max_hands must be 1 or more, not {setup.max_hands}")
        if setup.max_hands > MAX_HANDS:
            raise SetupError(f"max_hands must be at most {MAX_HANDS:,} (a whole game's hands), not {setup.max_hands:,}")
        if not setup.variant.strip():
            raise SetupError("variant is empty: give a bundled variant's name (e.g. standard) or a rule file's path")
        if "partners" not in params:
            # Not given (PettingZoo's env(), a Setup made in Python): as the seats say. OpenSpiel fills in
            # every default, so there partners=True must be given where the seats always play so.
            try:
                if always_partners(setup):
                    setup = replace(setup, partners=True)
            except CassinoError:
                pass   # (a variant that cannot be loaded is said by the table, with its reason)
        return setup

    def params(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# ---------------------------------------------------------------------- actions
class Encoding:
    """The bounded action set of one variant (see the module's docstring)."""

    def __init__(self, engine: Engine) -> None:
        self.deck = deck = engine.deck
        n = self.n_cards = len(deck)
        ints = sorted({v for vals in deck.hand_values for v in vals})
        # A build of cards without a number value (courts in plain Casino) is announced by rank.
        ranks = [r for k, r in enumerate(deck.ranks)
                 if any(not deck.hand_values[i] and deck.rank_index[i] == k for i in range(n))]
        self.values: tuple[int | str, ...] = (*ints, *ranks)
        self._value_index = {v: k for k, v in enumerate(self.values)}
        self.max_builds = n // 2
        self.KIND = n
        self.VALUE = self.KIND + len(KINDS)
        self.BUILD = self.VALUE + len(self.values)
        self.LOOSE = self.BUILD + self.max_builds
        self.DONE = self.LOOSE + n
        self.CLAIM = self.DONE + 1
        self.size = self.CLAIM + 1
        self._kind_id = {kind: self.KIND + k for k, kind in enumerate(KINDS)}
        # A turn of several actions (build.free_actions): its end is a trail of no card.
        self._kind_id[MoveKind.END] = self.KIND
        #: Two packs or more: ids and views number copies by identity (the module's docstring).
        self.packs = deck.packs
        self.copies = deck.packs > 1
        self.pack_size = deck.pack_size
        self.deck_size = n
        #: The last position's lazy walk of its moves (``engine.choices``), kept here because one
        #: encoding serves one game's states: a turn asks it once per action. States are
        #: immutable, so the hand's identity says whether it still fits.
        self.walk: MoveChoices | None = None
        #: Two packs (deck.packs): the last position's lazy walk with copies offered as one card.
        self.copy_walk: CopyWalk | None = None
        #: The last position whose legal moves were listed (``Step._listed``: small positions, and
        #: every position where whole-move rules are on), with its tree of action sequences.
        #: (Each turn's step keeps its own, ``Step.listing``; this one is for steps made otherwise.)
        self.listed: tuple[HandState, Listing] | None = None
        #: Positions with at most this many table items (loose cards in play and builds) are
        #: listed by the engine rather than walked lazily (``Step._listed``); 0: never (two packs, tests).
        self.list_items = LIST_ITEMS if not self.copies else 0
        self._texts: dict[tuple[Any, ...], str] = {}   # move_text's, by the move's fields

    def canon(self, mask: int) -> int:
        """``mask`` with each card's copies renumbered by identity, lowest first: k copies of card
        i become bits i, i + S, ... (S the pack's size). A place's cards as any seat may name
        them, whichever copies chance dealt; with one pack, ``mask`` itself."""
        if not self.copies:
            return mask
        size = self.pack_size
        pack = (1 << size) - 1
        if self.packs == 2:   # (the usual case, in a few steps: the cards held once, then those held twice)
            first, second = mask & pack, mask >> size & pack
            return first | second | (first & second) << size
        at_least = [0] * self.packs     # at_least[j]: the cards with more than j copies in mask
        for j in range(self.packs):
            layer = mask >> (j * size) & pack
            for k in range(self.packs - 1, 0, -1):
                at_least[k] |= at_least[k - 1] & layer
            at_least[0] |= layer
        out = 0
        for j, layer in enumerate(at_least):
            out |= layer << (j * size)
        return out

    def canon_after(self, mask: int, before: int) -> int:
        """``mask``'s cards by identity, each copy numbered after the copies of it in ``before``
        (ids, as :meth:`canon` gives them): several sets of cards in one plane, kept apart."""
        if not self.copies:
            return mask
        size = self.pack_size
        out = 0
        for c in bits(mask):
            k = c % size
            while (before | out) >> k & 1:
                k += size
            out |= 1 << k
        return out

    def loose_map(self, state: HandState) -> list[tuple[int, int]]:
        """Two packs: each loose card in play with its id (bits over [0, N)): a card's copies on
        the table by identity, the lowest deck index first (the card played from the hand this turn
        after its twins), then each opposing pile top after the table's copies of it, side by side
        (a top is not its twin on the table for play)."""
        size = self.pack_size
        count: dict[int, int] = {}
        out: list[tuple[int, int]] = []
        # (The card played from the hand this turn after its twins: no later build of the turn uses it.)
        for c in bits(state.table & ~state.turn_card) + bits(state.table & state.turn_card):
            k = c % size
            j = count.get(k, 0)
            count[k] = j + 1
            out.append((c, k + j * size))
        if state.stacks:
            own = state.teams[state.turn]
            for side, stack in enumerate(state.stacks):
                if side != own and stack:
                    # The top, then the cards a move may reach under it (capture.pile_cards: augment).
                    for c in reversed(stack[-state.pile_reach:]):
                        k = c % size
                        j = count.get(k, 0)
                        count[k] = j + 1
                        out.append((c, k + j * size))
        return out

    def loose_ids(self, state: HandState, loose: int, places: dict[int, int] | None = None) -> int:
        """The ids (bits over [0, N)) of ``loose``, cards taken from the table or a pile top:
        the table's by identity (any copies of a card are its lowest ids), a top's its own.
        ``places``: ``dict(loose_map(state))``, where the caller has it (one position's moves)."""
        if not self.copies:
            return loose
        out = self.canon(loose & state.table & ~state.turn_card)
        tops = loose & ~(state.table & ~state.turn_card)
        if tops:
            if places is None:
                places = dict(self.loose_map(state))
            for c in bits(tops):
                i = places.get(c)
                if i is not None:   # (a card not in play: no id, as the move is no legal one)
                    out |= 1 << i
        return out

    def held(self, ids: int, zone: int) -> int:
        """The cards of ``zone`` that ids name (id i + j*S: the j-th lowest copy of card i there):
        the lowest copies, as the engine's own list names a move."""
        if not self.copies:
            return ids
        size = self.pack_size
        out = 0
        for i in bits(ids):
            k, j = i % size, i // size
            for c in range(k, self.deck_size, size):
                if zone >> c & 1:
                    if j == 0:
                        out |= 1 << c
                        break
                    j -= 1
        return out

    def value_index(self, value: int | str) -> int:
        """The place of a build value among this deck's values (``VALUE + index`` announces it)."""
        return self._value_index[value]

    def sequence(self, state: HandState, move: Move) -> tuple[int, ...]:
        """The move's actions, in the order a player gives them."""
        return self.sequences(state, [move])[0][0]

    def sequences(self, state: HandState, moves: list[Move]) -> tuple[tuple[tuple[int, ...], Move], ...]:
        """Each move with its actions (one position's moves: the build places are looked up once)."""
        place = {b.cards: self.BUILD + j for j, b in enumerate(state.builds)}
        kind_id = self._kind_id
        canon = self.canon
        places: dict[int, int] | None = None   # (the loose cards' ids, worked out once a position: ``loose_ids``)
        out = []
        for move in moves:
            ids = bits(canon(move.played))
            ids.append(kind_id[move.kind])
            if move.value is not None:
                index = self._value_index.get(move.value)
                if index is None:  # pragma: no cover - the engine builds only card values and ranks
                    raise CassinoError(f"build value {move.value!r} is not among this deck's values {self.values}")
                ids.append(self.VALUE + index)
            if move.builds:
                ids += self._places(state, place, move.builds)
            if move.loose:
                if places is None and self.copies:
                    places = dict(self.loose_map(state))
                ids += [self.LOOSE + i for i in bits(self.loose_ids(state, move.loose, places))]
            ids.append(self.DONE)
            out.append((tuple(ids), move))
        return tuple(out)

    def key_sequences(self, state: HandState, keys: list[int], tables: Tables) -> list[tuple[int, ...]]:
        """The actions of each move key of ``state`` (``engine.move_keys``), as :meth:`sequences`
        gives them for its Move, read off the key (one pack, no capture piles in play: a card id
        is its deck index and the key's items are the table's cards and the builds)."""
        hand_cards = bits(state.hands[state.turn])
        loose = bits(state.in_play())
        n_loose = len(loose)
        hand_mask = (1 << len(hand_cards)) - 1
        loose_mask = (1 << n_loose) - 1
        shift = PLAYED_SHIFT + len(hand_cards)
        kind_at, build_at, loose_at, done = self.KIND, self.BUILD, self.LOOSE, self.DONE
        value_ids: dict[int, int] = {}
        out: list[tuple[int, ...]] = []
        for key in keys:
            kind = key & 3
            played = (key >> PLAYED_SHIFT) & hand_mask
            ids = [hand_cards[i] for i in bits(played)] if played & (played - 1) else \
                [hand_cards[played.bit_length() - 1]]
            ids.append(kind_at + kind)
            if kind == BUILD_KIND or kind == TRAIL_BUILD_KIND:
                code = (key >> VALUE_SHIFT) & VALUE_BITS
                vid = value_ids.get(code)
                if vid is None:
                    vid = value_ids[code] = self.VALUE + self._value_index[tables.value_of(code)]
                ids.append(vid)
            items = key >> shift
            if items:
                if items >> n_loose:
                    ids += [build_at + j for j in bits(items >> n_loose)]
                ids += [loose_at + loose[i] for i in bits(items & loose_mask)]
            ids.append(done)
            out.append(tuple(ids))
        return out

    def _places(self, state: HandState, place: dict[int, int], builds: tuple[int, ...]) -> list[int]:
        """The build actions of a move's builds, increasing. Two packs: a build named by other
        copies of its cards (a move made where chance dealt other copies) is the first build of
        the same cards by name not otherwise used. KeyError when one is not on the table."""
        if all(b in place for b in builds):
            return sorted(place[b] for b in builds)
        if not self.copies:
            raise KeyError(builds)
        out = [place[b] for b in builds if b in place]
        for cards in builds:
            if cards in place:
                continue
            want = self.canon(cards)
            found = [self.BUILD + j for j, b in enumerate(state.builds)
                     if self.BUILD + j not in out and self.canon(b.cards) == want]
            if not found:
                raise KeyError(cards)
            out.append(found[0])
        return sorted(out)

    def _copy_word(self, i: int) -> str:
        """Two packs: which copy in its place a card id names, after the first (" (copy 2)")."""
        j = i // self.pack_size if self.copies else 0
        return f" (copy {j + 1})" if j else ""

    def move_text(self, move: Move) -> str:
        """The move's notation, its cards in the order their names give (two packs: never in the
        order of the copies chance dealt, which the text would otherwise tell). Kept by the move's
        fields: a game's moves repeat (a trail of a card, a capture of a pair)."""
        fields = (move.kind, move.played, move.loose, move.builds, move.value)
        text = self._texts.get(fields)
        if text is None:
            if len(self._texts) >= 50_000:
                self._texts.clear()
            text = self._texts[fields] = self._move_text(move)
        return text

    def _move_text(self, move: Move) -> str:
        if self.copies:
            canon = self.canon
            move = Move(move.kind, canon(move.played), canon(move.loose), tuple(canon(b) for b in move.builds),
                        move.value)
        return format_move(move, self.deck)

    def describe(self, action: int, state: HandState | None = None) -> str:
        """An action in words (unique among the actions of one state)."""
        cards = self.deck.cards
        if not 0 <= action < self.size:
            return f"action {action} (out of range 0..{self.size - 1})"
        if action < self.KIND:
            return f"play {cards[action]}{self._copy_word(action)}"
        if action < self.VALUE:
            if action == self.KIND and state is not None and state.turn_card:
                return "end the turn"   # (a trail of no card, once the turn's hand card is played)
            return KIND_WORDS[action - self.KIND]
        if action < self.BUILD:
            return f"value {self.values[action - self.VALUE]}"
        if action < self.LOOSE:
            j = action - self.BUILD
            if state is not None and j < len(state.builds):
                return f"build [{' '.join(cards_text(self.deck, self.canon(state.builds[j].cards)))}]"
            return f"build #{j}"
        if action < self.DONE:
            i = action - self.LOOSE
            if self.copies and state is not None and i >= self.pack_size:
                top = [c for c, k in self.loose_map(state) if k == i and not state.table >> c & 1]
                if top:
                    tops = {stack[-1] for stack in state.stacks if stack}
                    return f"loose {cards[i]} ({'a pile top' if top[0] in tops else 'a card under a pile top'})"
            return f"loose {cards[i]}{self._copy_word(i)}"
        if action == self.DONE:
            return "done"
        if action == self.CLAIM:
            return "claim"
        return f"action {action} (out of range 0..{self.size - 1})"


# ---------------------------------------------------------------------- one game's fixed parts
class Table:
    """What every state of one game shares: the rules, the engine, the encoding, the bounds."""

    def __init__(self, setup: Setup) -> None:
        rules = rules_of(setup.variant)
        self.source = rules.name if is_recorded(setup.variant) else setup.variant
        seats = rules.seats
        players = setup.players or seats.min_players
        if not seats.min_players <= players <= seats.max_players:
            raise SetupError(f"{rules.name} is for {seats.counts()} players, not {players}")
        if setup.partners and players not in seats.partnership_players:
            counts = " or ".join(str(n) for n in seats.partnership_players)
            raise SetupError(f"partners needs players={counts} (got {players})")
        if setup.partners and seats.partnerships == "never":
            raise SetupError(f"{rules.name} never plays in partnerships")
        if not setup.partners and seats.partnerships == "always" and players in seats.partnership_players:
            # (OpenSpiel passes every parameter with its default filled in, so a partners=False
            # left to its default cannot be told from one given: both are refused, never turned.)
            raise SetupError(f"{rules.name} with {players} players always plays in partnerships (its seats say "
                             f"partnerships: always), so partners=False is refused: pass partners=True")
        if not 0 <= setup.dealer < players:
            raise SetupError(f"dealer must be a seat, 0 to {players - 1}, not {setup.dealer}")
        self.rules = rules
        self.players = players
        self.partners = rules.partnership(players, setup.partners)
        # The game string says what is played: the real seat count, whether the seats play
        # as teams (Dominican's four always do), and the rules themselves for a rule file
        # (a path would reload under whatever the file says later, or nowhere else).
        variant = setup.variant if setup.variant in bundled_names() or is_recorded(setup.variant) \
            else encode_rules(rules)
        self.setup = replace(setup, players=players, partners=self.partners, variant=variant)
        self.engine = engine = Engine(rules)   # (it remembers the last state's moves: Game.play re-checks cheaply)
        engine.deal_rules_deferred = True      # (a misdeal, the dealer's take: once chance named the cards)
        self.encoding = Encoding(engine)
        #: Whether a seat may build for its partner (``build.for_partner`` with partners): then a build's holder
        #: (the seat that must keep a card of its value) is not always its last builder, and the views say it.
        self.for_partner = self.partners and engine.for_partner
        self.n_cards = engine.n_cards
        self.full = (1 << engine.n_cards) - 1
        self.template = Game.new(engine, 0, players, self.partners, dealer=setup.dealer)
        self.scorer = self.template.scorer
        self.sides = len(self.template.scores)
        self.claiming = setup.whole_game and rules.game.claiming
        #: A negative game (``game.goal: lowest``): every point is a penalty, fewer is better.
        self.lowest_wins = rules.game.goal == "lowest"
        hands = setup.max_hands if setup.whole_game else 1
        self.hand_bound = self._hand_bound()
        self.max_hands = hands
        #: What a false claim costs its side under ``payoff="points"``, below the table's lowest value (``returns``).
        self.claim_penalty = float(max(rules.game.target or 0, 1)) if self.claiming else 0.0
        if setup.payoff == "points":
            self.utility = float(game_bound(rules, self.hand_bound, self.sides, setup.whole_game, hands)
                                 + self.claim_penalty)
        else:
            self.utility = float(max(1, rules.game.lurch.multiplier if setup.whole_game else 1))
        # A move is at most its hand cards, kind, value, items and DONE; over a hand the hand
        # cards add up to N, the moves to at most N, and the table items to at most 2N (a loose
        # card leaves the table once, a build is used once). One CLAIM may end the game.
        self.max_steps = 6 * self.n_cards * hands + 1
        self.max_chance = self.n_cards * hands
        self.initial = Step.start(self)

    def _hand_bound(self) -> int:
        """The most points one side can score in one hand (``utility_bounds.hand_bound``)."""
        side_seats = 2 if self.partners else 1
        events = {name: list(masks) for name, masks in self.engine.events}
        return hand_bound(self.rules, self.n_cards, self.players, side_seats, self.scorer.masks, events)

    def restore(self, data: dict[str, Any]) -> Game:
        """A Game from its fields (engine and scorer come from this table)."""
        return self.template.with_(**data)


def rules_of(variant: str) -> Rules:
    """The rules a ``variant`` parameter names: a bundled name, a rule file or recorded rules."""
    return decode_rules(variant) if is_recorded(variant) else load_rules(variant)


def always_partners(setup: Setup) -> bool:
    """Whether the game ``setup`` describes must be played in partnerships (its seats say
    ``partnerships: always`` for its number of players): what ``partners`` is where it is not given."""
    seats = rules_of(setup.variant).seats
    return seats.partnerships == "always" and (setup.players or seats.min_players) in seats.partnership_players


def listed_whole(table: Table, hand: HandState) -> bool:
    """Whether the game's actions at ``hand`` come from the engine's listing of whole moves (``Step._listed``;
    beyond the listing budget, its sample) rather than only where the position is small: where whole-move
    rules are on, under ``capture.take_all``, and where several packs meet pile cards in play."""
    engine = table.engine
    return engine.turn_rules.active or engine.take_all or (table.encoding.copies and bool(hand.stacks))


#: The tables made in this process, by the setup asked for and by the setup each resolved to (``Table.setup``: the
#: seat count filled in, a rule file's path made absolute), so that a state restored from its pickle, which names
#: the resolved setup, finds its game's table. At most ``TABLES_KEPT`` setups: past that, the tables kept are let go.
_TABLES: dict[Setup, Table] = {}
TABLES_KEPT = 32


def table_for(setup: Setup) -> Table:
    """One Table per distinct setup in a process (a rule file is read once, when first used): every game, state
    restored from pickle or copied, environment and batch of one setup shares it. (Its cache had slipped onto
    ``listed_whole``, written above it: each OpenSpiel state restored built a Table again, whose hand bound alone
    took 0.1 s in Krypkasino, pure Python.)"""
    table = _TABLES.get(setup)
    if table is None:
        table = Table(setup)
        if len(_TABLES) >= 2 * TABLES_KEPT:
            _TABLES.clear()   # (rare: a process of many setups makes their tables again; one call, safe beside threads)
        _TABLES[setup] = table
        _TABLES.setdefault(table.setup, table)
    return table


def _game_data(game: Game) -> dict[str, Any]:
    return {f.name: getattr(game, f.name) for f in fields(game) if f.name not in ("engine", "scorer")}


# ---------------------------------------------------------------------- two packs, walked lazily
class CopyWalk:
    """Two packs: a position's moves walked lazily (``engine.choices``) with the copies of a card
    offered as one card, so a step costs what the actions offered cost, as with one pack.

    The engine's walk numbers every copy as its own item. Here a move's table items are
    given in the order of their action ids (``Encoding``: builds by place, then the loose
    cards by identity, copies lowest first), and only the moves that take a card's copies
    lowest first (and of twin builds, the same cards by name, value and owner, the first)
    are offered: exactly the moves the engine's own list names (``Engine.legal_moves``
    keeps one move of each set that differs only by copies). Copies are alike for play, so
    a set of items with some legal move is reached by such a move whenever the choices
    made so far allow one: after a copy was passed over, its later copies are taken out
    too, and the walk asks whether a legal move includes exactly the items chosen among
    those decided (``MoveChoices.has_completion``, the question its own ``next_items`` asks over
    item order, asked here over the ids' order).
    """

    def __init__(self, enc: Encoding, mc: MoveChoices) -> None:
        self.enc = enc
        self.mc = mc
        state = self.state = mc.state
        canon = enc.canon
        #: The heads by identity (``Head.played``: hand-card ids), each once, in the walk's order.
        self.heads: list[Head] = []
        seen: set[Head] = set()
        for h in mc.heads():
            head = Head(canon(h.played), h.kind, h.code)
            if head not in seen:
                seen.add(head)
                self.heads.append(head)
        g = mc.g
        n_loose = g.n_loose
        items: list[tuple[int, int]] = [(enc.BUILD + j, 1 << (n_loose + j)) for j in range(len(state.builds))]
        index = {c: k for k, c in enumerate(g.loose_cards)}
        self.card_of: dict[int, int] = {}
        for card, i in enc.loose_map(state):
            items.append((enc.LOOSE + i, 1 << index[card]))
            self.card_of[enc.LOOSE + i] = card
        items.sort()
        self.items = items
        self.bit_of = dict(items)
        # Groups of items alike for play: a card's copies on the table, twin builds.
        groups: dict[Any, list[int]] = {}
        for c, i in enc.loose_map(state):
            # (The card played from the hand this turn is no copy of its twins: no later build of the
            # turn uses it, build.free_actions.)
            if state.table >> c & 1 and not state.turn_card >> c & 1:
                groups.setdefault(("loose", i % enc.pack_size), []).append(enc.LOOSE + i)
        for j, b in enumerate(state.builds):
            sig = ("build", canon(b.cards), b.value, b.multiple, b.owner, b.holder, b.pairs)
            groups.setdefault(sig, []).append(enc.BUILD + j)
        #: The item before each in its group, and the bits of the items after it.
        self.before: dict[int, int] = {}
        self.after: dict[int, int] = {a: 0 for a, _ in items}
        for members in groups.values():
            members.sort()
            for k, a in enumerate(members):
                if k:
                    self.before[a] = members[k - 1]
                for later in members[k + 1:]:
                    self.after[a] |= self.bit_of[later]

    def head(self, ids: list[int], kind: int, code: int | None) -> Head:
        """The engine's head (the lowest copies of the hand cards named) of a head by identity."""
        played = 0
        for i in ids:
            played |= 1 << i
        return Head(self.enc.held(played, self.state.hands[self.state.turn]), kind, code or 0)

    def next_items(self, head: Head, chosen: list[int]) -> list[int]:
        """After ``head`` and the item actions ``chosen`` (increasing), the item actions that may
        come next (increasing), then END if ``chosen`` already makes a legal move."""
        mc = self.mc
        relevant = mc.relevant_items(head)
        taken = set(chosen)
        inc = 0
        for a in chosen:
            inc |= self.bit_of[a]
        last = chosen[-1] if chosen else -1
        decided = 0
        shut = 0            # later copies (twins) of items passed over: out of the move too
        out: list[int] = []
        for a, bit in self.items:
            if a > last and bit & relevant and (a not in self.before or self.before[a] in taken) \
                    and mc.has_completion(head, decided | bit | shut, inc | bit):
                out.append(a)
            decided |= bit
            if a not in taken:
                shut |= self.after[a]
        if mc.has_completion(head, mc.all_items, inc):
            out.append(END)
        return out

    def move(self, head: Head, chosen: list[int]) -> Move:
        """The move of ``head`` with the item actions ``chosen``."""
        n_builds = self.mc.n_builds
        loose = self.mc.g.loose_cards
        positions = []
        for a in chosen:
            if a < self.enc.LOOSE:
                positions.append(a - self.enc.BUILD)
            else:
                positions.append(n_builds + loose.index(self.card_of[a]))
        return self.mc.move(head, sorted(positions))


# ---------------------------------------------------------------------- small positions, listed
class Listing:
    """One position's legal moves by their action sequences: the actions that may follow a
    prefix of a legal sequence (increasing; worked out when first asked, as a turn asks only
    along its own path), and the move a whole sequence makes (a Move, or a move key of
    ``state`` made into one when it is played)."""

    __slots__ = ("seqs", "moves", "engine", "state", "asked")

    def __init__(self, seqs: list[tuple[int, ...]], moves: "list[Move] | list[int]", engine: Engine,
                 state: HandState) -> None:
        self.seqs = seqs
        self.moves: list[Any] = moves
        self.engine = engine
        self.state = state
        self.asked: dict[tuple[int, ...], list[int]] = {}

    def nexts(self, prefix: tuple[int, ...]) -> list[int]:
        """The actions that follow ``prefix`` in some legal sequence, increasing (a list of the
        listing's own: not to be changed)."""
        got = self.asked.get(prefix)
        if got is None:
            n = len(prefix)
            if n:
                found = {seq[n] for seq in self.seqs if seq[:n] == prefix and len(seq) > n}
            else:
                found = {seq[0] for seq in self.seqs}
            got = self.asked[prefix] = sorted(found)
        return got

    def move(self, seq: tuple[int, ...]) -> Move:
        move = self.moves[self.seqs.index(seq)]
        return move if isinstance(move, Move) else self.engine.move_of(self.state, move)

    def only(self, prefix: tuple[int, ...]) -> Move | None:
        """The move of the one legal sequence that begins with ``prefix``, where only one does
        (each action after it is then forced: ``Step.apply`` takes them all at once); else None."""
        found = _only(self.seqs, prefix)
        if found < 0:
            return None
        move = self.moves[found]
        return move if isinstance(move, Move) else self.engine.move_of(self.state, move)


def _only(seqs: list[tuple[int, ...]], prefix: tuple[int, ...]) -> int:
    """The place of the one sequence of ``seqs`` that begins with ``prefix``, or -1 (none or several)."""
    n = len(prefix)
    found = -1
    for i, seq in enumerate(seqs):
        if seq[:n] == prefix:
            if found >= 0:
                return -1
            found = i
    return found


class KeyListing(Listing):
    """A :class:`Listing` of the engine's move keys (one pack, no pile tops in play, no turns of several
    actions: every move plays a hand card), whose action sequences are read off the keys of one first
    hand card at a time, when that card is played: a turn's first choice needs only the cards, and the
    others' moves are never spelt out."""

    __slots__ = ("encoding", "hand_cards", "hand_mask", "picked", "spelt")

    def __init__(self, keys: list[int], engine: Engine, state: HandState, encoding: Encoding) -> None:
        super().__init__([], keys, engine, state)
        self.encoding = encoding
        self.hand_cards = hand_cards = bits(state.hands[state.turn])
        self.hand_mask = hand_mask = (1 << len(hand_cards)) - 1
        # A move's first action is its lowest hand card; the keys of one first card are picked out
        # when that card is played (a turn plays one: the others' keys are never grouped).
        firsts = {(key >> PLAYED_SHIFT) & hand_mask for key in keys}
        self.picked: dict[int, list[int]] = {}
        self.spelt: dict[int, tuple[list[tuple[int, ...]], list[int]]] = {}
        self.asked[()] = sorted({hand_cards[(p & -p).bit_length() - 1] for p in firsts})

    def _keys(self, first: int) -> list[int]:
        """The keys of the moves whose first action is ``first`` (a hand card), in key order."""
        got = self.picked.get(first)
        if got is None:
            hand_cards = self.hand_cards
            got = []
            if first in hand_cards:
                bit = 1 << hand_cards.index(first)
                low = ((bit << 1) - 1) & self.hand_mask   # (the played cards up to it: it alone)
                got = [key for key in self.moves if (key >> PLAYED_SHIFT) & low == bit]
            self.picked[first] = got
        return got

    def _group(self, first: int) -> tuple[list[tuple[int, ...]], list[int]]:
        got = self.spelt.get(first)
        if got is None:
            keys = self._keys(first)
            got = self.spelt[first] = (self.encoding.key_sequences(self.state, keys, self.engine.tables), keys)
        return got

    def only(self, prefix: tuple[int, ...]) -> Move | None:
        if len(prefix) == 1:   # (a card played: where it makes one move, that move's actions are not spelt)
            keys = self._keys(prefix[0])
            if len(keys) == 1:
                return self.engine.move_of(self.state, keys[0])
        seqs, keys = self._group(prefix[0])
        found = _only(seqs, prefix)
        return None if found < 0 else self.engine.move_of(self.state, keys[found])

    def nexts(self, prefix: tuple[int, ...]) -> list[int]:
        got = self.asked.get(prefix)
        if got is None:
            n = len(prefix)
            seqs = self._group(prefix[0])[0]
            got = self.asked[prefix] = sorted({seq[n] for seq in seqs if seq[:n] == prefix and len(seq) > n})
        return got

    def move(self, seq: tuple[int, ...]) -> Move:
        seqs, keys = self._group(seq[0])
        return self.engine.move_of(self.state, keys[seqs.index(seq)])


# ---------------------------------------------------------------------- states
class Deal(NamedTuple):
    """Cards the engine has dealt whose identities chance has still to choose.

    ``slots``: the placeholder cards, the table's first, then seat by seat, each in deck
    order; ``to``: where each went (TABLE or a seat); ``pool``: the cards chance chooses
    from (all not yet dealt in this hand).
    """

    slots: tuple[int, ...]
    to: tuple[int, ...]
    pool: int
    chosen: tuple[int, ...] = ()
    left: int = -1      # the cards still to choose (-1: worked out from pool and chosen)

    @property
    def remaining(self) -> int:
        """The cards chance may still choose (``pool`` without those chosen)."""
        if self.left >= 0:
            return self.left
        left = self.pool
        for c in self.chosen:
            left &= ~(1 << c)
        return left

    def choose(self, card: int) -> "Deal":
        """This deal with ``card`` chosen for its next slot."""
        return _new(Deal, (self.slots, self.to, self.pool, self.chosen + (card,), self.remaining & ~(1 << card)))


class Step(NamedTuple):
    """One state of a game played step by step. Immutable: :meth:`apply` returns the next one.

    A named tuple, as the engine's HandState is: search makes one per action, and a
    tuple is several times cheaper to copy than a dataclass. ``log`` keeps what
    happened, as plain tuples, for the views: ``("hand", number, dealer)``,
    ``("deal", ((to, card), ...))``, ``("move", seat, text, holder)``, ``("claim", seat)``,
    ``("scores", scores)``; a move's ``holder`` is the partner a build it made is held by (the
    seat that must keep a card of its value: ``Build.holder``), or -1 where it is the mover's or
    the move made no build.
    """

    table: Table
    game: Game
    deal: Deal | None = None
    options: tuple[Head, ...] = ()          # this turn's move heads (hand cards, kind, value) with a legal move
    prefix: tuple[int, ...] = ()
    legal: tuple[int, ...] = ()
    log: tuple[tuple[Any, ...], ...] = ()
    played: tuple[int, ...] = ()            # cards each seat has played this hand
    start_scores: tuple[int, ...] = ()      # side scores when this hand began
    n_actions: int = 0                      # actions applied so far (the history's length)
    hands_done: int = 0
    finished: HandState | None = None       # the hand just finished, when the game moved past it
    ended: str = ""                         # "", "hand", "game" or "cut" (max_hands reached)
    trace: tuple[tuple[str, Any], ...] = ()  # this hand so far: ("deal", card) and ("move", Move), in order
    hand_began: int = 0                     # the history's length when this hand's first card was dealt
    hand_start: "Step | None" = None        # the state then (None: the game's start)
    listing: "Listing | None" = None        # this turn's moves where they are listed (``_listed``)

    # -- immutability makes copies free; pickles leave the engine out
    def __deepcopy__(self, memo: dict[int, Any]) -> "Step":
        return self

    def __reduce__(self) -> tuple[Callable[..., "Step"], tuple[Any, ...]]:
        return (_restore_step, (self.table.setup, _game_data(self.game), tuple(self[2:_LISTING])))

    # -- creation
    @classmethod
    def start(cls, table: Table) -> "Step":
        game = table.template
        step = cls(table, game, played=(0,) * table.players, start_scores=game.scores,
                   log=(("hand", 1, game.dealer),))
        return step._dealt(game, pool=table.full)

    @classmethod
    def at(cls, table: Table, hand: HandState) -> "Step":
        """The turn of the player to play in ``hand``, a position given whole (tests, benchmarks:
        a table of 30 cards is reached by play only rarely)."""
        if hand.over:
            raise IllegalStep("the hand is over: there is no turn to take")
        game = table.template.with_(hand=hand)
        step = cls(table, game, played=(0,) * table.players, start_scores=game.scores,
                   log=(("hand", game.hand_no, game.dealer),))
        return step._turn(game)

    # -- questions
    @property
    def hand(self) -> HandState:
        return self.game.hand

    @property
    def terminal(self) -> bool:
        return bool(self.ended)

    @property
    def chance(self) -> bool:
        return self.deal is not None

    @property
    def to_play(self) -> int | None:
        """The seat to act, or None at chance nodes and at the end."""
        if self.ended or self.deal is not None:
            return None
        return self.game.hand.turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.deal is None:   # (not an assert: python -O would go on and fail inside)
            raise IllegalStep("not a chance node: chance outcomes are asked where a card is dealt "
                              "(at a player's turn ask the legal actions; at the end there are none)")
        left = bits(self.deal.remaining)
        p = 1.0 / len(left)
        if not self.table.engine.has_copies:
            return [(c, p) for c in left]
        return [(c, p * k) for c, k in self._copies_left(left)]

    def _copies_left(self, left: list[int]) -> list[tuple[int, int]]:
        """Two packs (deck.packs): each card still to deal once, as its lowest copy left, with how
        many copies are left (its chance is that many times one card's). Any copy may still be
        applied: a copy deals as the same card."""
        size = self.table.engine.pack_size
        first: dict[int, int] = {}
        count: dict[int, int] = {}
        for c in left:
            first.setdefault(c % size, c)
            count[c % size] = count.get(c % size, 0) + 1
        return [(first[k], count[k]) for k in sorted(first, key=lambda k: first[k])]

    def legal_actions(self) -> tuple[int, ...]:
        if self.ended:
            return ()
        if self.deal is not None:
            if self.table.engine.has_copies:
                return tuple(c for c, _ in self._copies_left(bits(self.deal.remaining)))
            return tuple(bits(self.deal.remaining))
        return self.legal

    def describe(self, action: int) -> str:
        if self.deal is not None:
            k = len(self.deal.chosen)
            if not 0 <= action < self.table.n_cards:   # (an audit read "deal #999 to the table")
                return f"action {action} (out of range 0..{self.table.n_cards - 1})"
            card = self.table.engine.deck.cards[action]
            to = self.deal.to[k]
            return f"deal {card} to " + ("the table" if to == TABLE else f"seat {to}")
        return self.table.encoding.describe(action, self.game.hand)

    def returns(self) -> list[float]:
        """Zero until the end; then each seat's side value minus the other sides' average.

        Under ``payoff="points"`` a side's value is its points, or, where the lowest total
        wins (``game.goal: lowest``, every point a penalty), minus its points: fewer points
        is then the better return. A false claim loses the game for the claimer's side under
        either payoff: under ``win`` every other side is valued as a winner (with two sides, the
        one winner), under ``points`` the claimer's side is valued the table's lowest less the
        rules' target (``claim_penalty``), a whole game's points below it (an audit: with three sides a false claim ended
        the game at 0 for all, and under ``points`` a side ahead claimed falsely to keep its lead)."""
        t = self.table
        if not self.ended:
            return [0.0] * t.players
        teams = self.view_hand().teams
        g = self.game
        claimer = g.claimed_by if g.over and g.ended_by == "false claim" else None
        if t.setup.payoff == "points":
            sign = -1.0 if t.lowest_wins else 1.0
            value = [sign * p for p in self._points()]
            if claimer is not None:
                value[claimer] = min(value) - t.claim_penalty
        else:
            value = [0.0] * t.sides
            winner = self.winner()
            stake = float(g.games_won if t.setup.whole_game else 1)
            if claimer is not None:
                value = [0.0 if s == claimer else stake for s in range(t.sides)]
            elif winner is not None:
                value = [stake if s == winner else 0.0 for s in range(t.sides)]
        total = sum(value)
        others = t.sides - 1
        return [value[teams[seat]] - (total - value[teams[seat]]) / others for seat in range(t.players)]

    def winner(self) -> int | None:
        """The winning side at the end: the game's winner, or (one hand) the side alone with the
        best points: the most, or the fewest where the lowest total wins."""
        if not self.ended:
            return None
        if self.table.setup.whole_game:
            return self.game.winner
        gained = self._points()
        best = min(gained) if self.table.lowest_wins else max(gained)
        leaders = [s for s, g in enumerate(gained) if g == best]
        return leaders[0] if len(leaders) == 1 else None

    def _points(self) -> list[float]:
        """Each side's points: the game's final scores (a whole game) or this hand's."""
        if self.table.setup.whole_game:
            return [float(s) for s in self.game.scores]
        return [float(a - b) for a, b in zip(self.game.scores, self.start_scores)]

    @property
    def hand_no(self) -> int:
        """The number of the hand :meth:`view_hand` shows."""
        return self.hands_done if self.finished is not None else self.game.hand_no

    def view_hand(self) -> HandState:
        """The hand as far as it is real: a hand just finished, or the cards dealt so far."""
        if self.finished is not None:
            return self.finished
        hand = self.game.hand
        if self.deal is None:
            return hand
        d = self.deal
        hands = [h & ~d.pool for h in hand.hands]
        table = hand.table & ~d.pool
        for to, card in zip(d.to, d.chosen):
            if to == TABLE:
                table |= 1 << card
            else:
                hands[to] |= 1 << card
        hidden = len(d.slots) - len(d.chosen)
        return hand.with_(hands=tuple(hands), table=table, stock=(-1,) * (len(hand.stock) + hidden))

    # -- moving on
    def apply(self, action: int) -> "Step":
        """The state after ``action``; :class:`IllegalStep` when it is not legal here."""
        action = int(action)
        if self.ended:
            raise IllegalStep("the game is over: no action is legal")
        if self.deal is not None:
            if not (0 <= action < self.table.n_cards and self.deal.remaining >> action & 1):
                raise IllegalStep(f"chance outcome {action} is not a card still to be dealt")
            return self._chosen(action)
        if action not in self.legal:
            words = ", ".join(f"{a} ({self.describe(a)})" for a in self.legal)
            size = self.table.encoding.size
            said = f"is out of range 0..{size - 1}" if not 0 <= action < size else \
                f"({self.describe(action)}) is not legal now"
            raise IllegalStep(f"action {action} {said}; legal: {words}")
        enc = self.table.encoding
        if action == enc.CLAIM:
            seat = self.game.hand.turn
            game = self.game.claim(seat)
            return self._replace(game=game, options=(), prefix=(), legal=(), listing=None,
                                 n_actions=self.n_actions + 1, log=self.log + (("claim", seat),), ended="game")
        prefix = self.prefix + (action,)
        done = enc.DONE
        if action != done:
            listed = self._listed()
            if listed is not None:
                only = listed.only(prefix)
                if only is not None:   # one legal move goes on from here: its other actions are forced
                    return self._moved(only, counted=1)
        while True:
            if prefix[-1] == done:
                return self._moved(self._move_of(prefix), counted=1)
            nexts = self._nexts(prefix)
            if len(nexts) != 1:
                fields: list[Any] = list(self)   # (a named tuple's _replace costs several times this)
                fields[_PREFIX] = prefix
                fields[_LEGAL] = tuple(nexts)
                fields[_N_ACTIONS] += 1
                return _new(Step, fields)
            prefix += (nexts[0],)

    # -- the moves, walked lazily: a step costs what the actions offered cost, not the moves behind
    def _choices(self) -> MoveChoices:
        """The engine's lazy walk of this position's moves (one kept per table: a turn asks it
        several times; states are immutable, so the hand's identity is the key)."""
        t = self.table
        hand = self.game.hand
        kept = t.encoding.walk
        if kept is None or kept.state is not hand:
            kept = t.encoding.walk = t.engine.walk(hand)
        return kept

    def _copy_walk(self) -> "CopyWalk":
        """Two packs: the lazy walk offering copies as one card (one kept per table, as ``_choices``)."""
        t = self.table
        hand = self.game.hand
        kept = t.encoding.copy_walk
        if kept is None or kept.state is not hand:
            kept = t.encoding.copy_walk = CopyWalk(t.encoding, t.engine.walk(hand))
        return kept

    def _split(self, prefix: tuple[int, ...]) -> tuple[list[int], int, int | None, list[int]]:
        """A prefix's parts: hand cards, kind (-1: not yet), value code (None: none given) and
        item positions (builds first, then loose cards: ``engine.choices``'s item order; two
        packs: the item actions themselves, ``CopyWalk``'s items)."""
        enc = self.table.encoding
        copies = enc.copies   # (two packs: an item action is its own id, see CopyWalk)
        cards: list[int] = []
        kind = -1
        code: int | None = None
        items: list[int] = []
        n_builds = len(self.game.hand.builds)
        loose: list[int] = []
        for a in prefix:
            if a < enc.KIND:
                cards.append(a)
            elif a < enc.VALUE:
                kind = a - enc.KIND
            elif a < enc.BUILD:
                code = self.table.engine.tables.code(enc.values[a - enc.VALUE])
            elif copies and a < enc.DONE:
                items.append(a)
            elif a < enc.LOOSE:
                items.append(a - enc.BUILD)
            elif a < enc.DONE:
                loose = loose or self._choices().g.loose_cards
                items.append(n_builds + loose.index(a - enc.LOOSE))
        return cards, kind, code, items

    def _head(self, cards: list[int], kind: int, code: int | None) -> Head:
        played = 0
        for c in cards:
            played |= 1 << c
        return Head(played, kind, code or 0)

    def _listed(self) -> Listing | None:
        """The position's legal moves by their action sequences, where they are listed: where
        whole-move rules are on (``engine.turnrules``: African Casino's pile cards and builds),
        which judge a whole move, which the lazy walk cannot ask of a part of one (these
        variants' positions are small); under ``capture.take_all``, a whole-move rule too (a
        capture is legal only where no other by the same cards holds all it takes and more: the
        walk, offering every item some capture holds, offered the smaller ones, found in session
        68); where several packs meet pile cards in play (which copy a name stands for is the
        engine listing's, ``Engine._as_named``); and at small positions (``LIST_ITEMS``; one pack),
        where the engine's listing costs less than the lazy walk's searches. Beyond the listing
        budget a listing is the engine's sample (``Engine.playable_moves``), as its computer players
        choose among. None elsewhere: the actions come from the lazy walk."""
        listing = self.listing
        hand = self.game.hand
        if listing is not None and listing.state is hand:   # (a step remade with another hand: not its)
            return listing
        t = self.table
        enc = t.encoding
        kept = enc.listed   # (a step made otherwise than by _turn: an unpickled one)
        if kept is not None and kept[0] is hand:
            return kept[1]
        engine = t.engine
        if listed_whole(t, hand):
            moves = engine.playable_moves(hand)
            listing = Listing([seq for seq, _ in enc.sequences(hand, moves)], moves, engine, hand)
        elif enc.list_items and len(hand.builds) + popcount(hand.in_play()) <= enc.list_items:
            try:
                keys = engine.move_keys(hand)
            except PositionTooLargeError:   # (a position of many hand cards played together)
                return None
            if len(keys) > LIST_MOVES:
                return None
            if hand.stacks or engine.free_actions:
                # (Pile tops in play, or turns of several actions, whose end and builds of cards in
                # play alone play no hand card to group keys by: the moves' own sequences.)
                moves = engine.moves_of(hand, keys)
                listing = Listing([seq for seq, _ in enc.sequences(hand, moves)], moves, engine, hand)
            else:
                listing = KeyListing(keys, engine, hand, enc)
        else:
            return None
        enc.listed = (hand, listing)
        return listing

    def _nexts(self, prefix: tuple[int, ...]) -> list[int]:
        """The actions that extend ``prefix`` towards at least one legal move, increasing."""
        listed = self._listed()
        if listed is not None:
            return list(listed.nexts(prefix))
        enc = self.table.encoding
        cards, kind, code, items = self._split(prefix)
        heads: tuple[Head, ...] = self.options
        if kind < 0:
            out: set[int] = set()
            n = len(cards)
            for h in heads:
                played = h.played
                if not played:   # (a turn of several actions: a build of cards in play, or the turn's end)
                    if n == 0:
                        out.add(enc.KIND + h.kind)
                    continue
                if not played & (played - 1):   # one card (the usual case)
                    if n == 0:
                        out.add(played.bit_length() - 1)
                    elif cards[0] == played.bit_length() - 1 and n == 1:
                        out.add(enc.KIND + h.kind)
                    continue
                hc = bits(played)
                if hc[:n] == cards:
                    out.add(hc[n] if len(hc) > n else enc.KIND + h.kind)
            return sorted(out)
        played = self._head(cards, kind, 0).played
        if (kind == BUILD_KIND or kind == TRAIL_BUILD_KIND) and code is None:
            values = {enc.VALUE + enc.value_index(self.table.engine.tables.value_of(h.code))
                      for h in heads if h.played == played and h.kind == kind}
            return sorted(values)
        if enc.copies:
            walk = self._copy_walk()
            return [enc.DONE if a == END else a for a in walk.next_items(walk.head(cards, kind, code), items)]
        mc = self._choices()
        n_builds = mc.n_builds
        loose = mc.g.loose_cards
        out_items: list[int] = []
        for p in mc.next_items(self._head(cards, kind, code), items):
            if p == END:
                out_items.append(enc.DONE)
            elif p < n_builds:
                out_items.append(enc.BUILD + p)
            else:
                out_items.append(enc.LOOSE + loose[p - n_builds])
        return sorted(out_items)

    def _move_of(self, prefix: tuple[int, ...]) -> Move:
        listed = self._listed()
        if listed is not None:
            return listed.move(prefix)
        cards, kind, code, items = self._split(prefix)
        if self.table.encoding.copies:
            walk = self._copy_walk()
            return walk.move(walk.head(cards, kind, code), items)
        return self._choices().move(self._head(cards, kind, code), items)

    def _held_by(self, hand: HandState, move: Move, after: Game, seat: int) -> int:
        """The partner holding the build ``move`` made (a partner's build added to without a card of its
        value stays theirs; with one it is taken over), or -1: the mover's own, or no build. Announced at the
        table (the felt shows it), and the record must say it: a seat's moves follow from who holds a build
        and what a partner is proven to hold (building that value for them)."""
        if not self.table.for_partner or move.kind not in _BUILD_KINDS:
            return -1
        state = after.hand if len(after.results) == len(self.game.results) else self.table.engine.apply(hand, move)
        holder = state.builds[-1].holder
        return holder if holder != seat else -1

    def _moved(self, move: Move, turn: bool = True, counted: int = 0) -> "Step":
        """After ``move`` (``counted``: the actions the step adds to the history's length)."""
        t = self.table
        game, hand = self.game, self.game.hand
        seat = hand.turn
        if t.engine.has_copies:
            # The walk's move names the very copies it takes (a pile top, not its twin on the
            # table): played as those cards, not matched by name (Engine.exact).
            move = t.engine.exact(hand, move)
        after = game.play_known_legal(move)   # every action was checked against the lazy walk
        played = list(self.played)
        played[seat] |= move.played
        log = self.log + (("move", seat, t.encoding.move_text(move), self._held_by(hand, move, after, seat)),)
        fields: list[Any] = list(self)
        fields[_GAME] = after
        fields[_OPTIONS] = fields[_PREFIX] = fields[_LEGAL] = ()
        fields[_LISTING] = None
        fields[_LOG] = log
        fields[_PLAYED] = tuple(played)
        fields[_TRACE] = self.trace + (("move", move),)
        fields[_N_ACTIONS] += counted
        base = _new(Step, fields)
        if not after.over and len(after.hand.stock) == len(hand.stock) and len(after.results) == len(game.results):
            # (the usual case: no card dealt, the hand goes on)
            return base._turn(after) if turn else base
        if after.over:
            return base._replace(ended="game")
        if len(after.results) > len(game.results):
            done = self.hands_done + 1
            finished = t.engine.apply(hand, move)
            log += (("scores", after.scores),)
            if not t.setup.whole_game:
                return base._replace(log=log, finished=finished, hands_done=done, ended="hand")
            if done >= t.setup.max_hands:
                return base._replace(log=log, finished=finished, hands_done=done, ended="cut")
            log += (("hand", after.hand_no, after.dealer),)
            nxt = base._replace(log=log, hands_done=done, played=(0,) * t.players, start_scores=after.scores,
                                trace=(), hand_began=self.n_actions, hand_start=None)._dealt(after, pool=t.full)
            return nxt._replace(hand_start=nxt)
        pool = 0
        for c in hand.stock:
            pool |= 1 << c
        return base._dealt(after, pool=pool, turn=turn)

    def _dealt(self, game: Game, pool: int, turn: bool = True) -> "Step":
        """After the engine moved: a chance node for each card it dealt out of ``pool``, or the next turn."""
        hand = game.hand
        stock = 0
        for c in hand.stock:
            stock |= 1 << c
        dealt = pool & ~stock
        if not dealt:
            return self._turn(game) if turn else self._replace(game=game)
        slots = [(TABLE, c) for c in bits(hand.table & dealt)]
        for seat, cards in enumerate(hand.hands):
            slots += [(seat, c) for c in bits(cards & dealt)]
        deal = Deal(tuple(c for _, c in slots), tuple(to for to, _ in slots), pool, (), pool)
        return self._replace(game=game, deal=deal, options=(), prefix=(), legal=())

    def _chosen(self, card: int, turn: bool = True) -> "Step":
        d = self.deal
        assert d is not None
        d = d.choose(card)
        trace = self.trace + (("deal", card),)
        if len(d.chosen) < len(d.slots):
            fields: list[Any] = list(self)
            fields[_DEAL] = d
            fields[_N_ACTIONS] += 1
            fields[_TRACE] = trace
            return _new(Step, fields)
        return self._deal_done(d, trace, self.n_actions + 1, turn)

    def deal_rest(self, cards: list[int]) -> "Step":
        """The state after chance chooses ``cards`` for every slot left of this deal, in order: the
        state ``apply`` gives after each of them (the batched interface draws a deal's cards at once).
        The cards are those still to deal, each once; not checked here."""
        d = self.deal
        assert d is not None and len(d.chosen) + len(cards) == len(d.slots)
        left = d.remaining
        for c in cards:
            left &= ~(1 << c)
        d = _new(Deal, (d.slots, d.to, d.pool, d.chosen + tuple(cards), left))
        trace = self.trace + tuple([("deal", c) for c in cards])
        return self._deal_done(d, trace, self.n_actions + len(cards), True)

    def _deal_done(self, d: Deal, trace: tuple[tuple[str, Any], ...], n_actions: int, turn: bool) -> "Step":
        """Every dealt card is chosen (``d``): rename the placeholders (and the stock's, which stay
        unchosen), then the next turn, or a misdeal's new deal."""
        rename = dict(zip(d.slots, d.chosen))
        rest_from = [c for c in bits(d.pool) if c not in rename]
        rest_to = bits(d.remaining)
        rename.update(zip(rest_from, rest_to))
        hand = self.game.hand

        def mask(m: int) -> int:
            out = m & ~d.pool
            for c in bits(m & d.pool):
                out |= 1 << rename[c]
            return out

        hand = hand.with_(hands=tuple(mask(h) for h in hand.hands), table=mask(hand.table),
                          stock=tuple(rename[c] for c in hand.stock))
        if TABLE in d.to and hand.deal_no == 1:
            # A hand's first deal, its cards now named: the rules the table answers to by its cards.
            ruled = self.table.engine.initial_deal_rules(hand)
            if ruled is None:   # a misdeal: the same dealer deals again, every card chosen anew
                again = d._replace(chosen=(), left=d.pool)
                return self._replace(deal=again, log=self.log + (("misdeal", hand.dealer),),
                                     n_actions=n_actions, trace=())
            hand = ruled
        game = self.game.with_(hand=hand)
        log = self.log + (("deal", tuple(zip(d.to, d.chosen))),)
        step = self._replace(deal=None, log=log, n_actions=n_actions, trace=trace)
        return step._turn(game) if turn else step._replace(game=game)

    def _turn(self, game: Game) -> "Step":
        t = self.table
        hand = game.hand
        fields: list[Any] = list(self)
        fields[_GAME] = game
        fields[_DEAL] = None
        fields[_OPTIONS] = fields[_PREFIX] = fields[_LEGAL] = ()
        fields[_LISTING] = None
        step = _new(Step, fields)
        listing = fields[_LISTING] = step._listed()
        if listing is not None:
            # The turn's actions come from the engine's listing (``_listed``): the heads are not asked
            # for (the lazy walk's heads cost most of a turn, and the listing has them).
            legal = list(listing.nexts(()))
        else:
            heads = tuple(step._copy_walk().heads if t.encoding.copies else step._choices().heads())
            step = step._replace(options=heads)
            legal = step._nexts(()) if heads else []
        if not legal:  # pragma: no cover - the engine always leaves a move while a hand holds cards
            raise CassinoError(f"{t.rules.name}: seat {hand.turn} has no legal move in an unfinished hand")
        if t.claiming and game.target is not None:
            legal.append(t.encoding.CLAIM)
        fields[_OPTIONS] = step.options
        fields[_LEGAL] = tuple(legal)
        return _new(Step, fields)

    # -- helpers for players and search
    def actions_for(self, move: Move) -> list[int]:
        """The actions a player gives for ``move`` at the start of its turn (forced steps left out)."""
        if self.deal is not None or self.ended or self.prefix:
            raise IllegalStep("a move's actions are asked for at the start of a turn")
        engine = self.table.engine
        illegal = IllegalStep(f"{format_move(move, engine.deck)} is not a legal move here")
        if engine.has_copies:   # its cards matched by name to the copies where it says they are
            move = engine.resolve(self.game.hand, move)
        try:
            seq = self.table.encoding.sequence(self.game.hand, move)
        except (KeyError, ValueError, CassinoError):   # a build or value this position does not have
            raise illegal from None
        out: list[int] = []
        legal: list[int] = [a for a in self.legal if a != self.table.encoding.CLAIM]
        for depth, action in enumerate(seq):
            if action not in legal:
                raise illegal
            if depth == 0 or len(legal) > 1:
                out.append(action)
            if depth + 1 < len(seq):
                legal = self._nexts(seq[:depth + 1])
        return out

    def positions(self) -> list[tuple[HandState, Move]]:
        """This hand's moves so far, each with the position it was made from (the hand replayed
        without working out each turn's actions: what resampling checks plays against)."""
        s = self.hand_start or self.table.initial
        out: list[tuple[HandState, Move]] = []
        for what, x in self.trace:
            if what == "deal":
                s = s._chosen(x, turn=False)
            else:
                out.append((s.game.hand, x))
                s = s._moved(x, turn=False)
        return out

    def unseen_by(self, seat: int) -> tuple[int, int]:
        """The other seats' hidden cards and the cards still undealt, as masks (for resampling)."""
        hand = self.view_hand()
        held = 0
        for other, cards in enumerate(hand.hands):
            if other != seat:
                held |= cards
        undealt = self.deal.remaining if self.deal is not None else 0
        for c in self.game.hand.stock if self.deal is None else ():
            undealt |= 1 << c
        return held, undealt


_new = tuple.__new__   # a named tuple made from a list of its fields, without _replace's keywords
#: The places of Step's fields (hot paths copy a step's fields as a list and change a few).
_GAME, _DEAL, _OPTIONS, _PREFIX, _LEGAL, _LOG, _PLAYED = 1, 2, 3, 4, 5, 6, 7
_N_ACTIONS, _TRACE, _LISTING = 9, 13, 16
assert Step._fields[_GAME] == "game" and Step._fields[_LEGAL] == "legal" and Step._fields[_PLAYED] == "played"
assert Step._fields[_N_ACTIONS] == "n_actions" and Step._fields[_TRACE] == "trace"
assert Step._fields[_DEAL] == "deal" and Step._fields[_LISTING] == "listing" == Step._fields[-1]


def _restore_step(setup: Setup, game_data: dict[str, Any], rest: tuple[Any, ...]) -> Step:
    table = table_for(setup)
    return Step(table, table.restore(game_data), *rest)


def play_out(step: Step, choose: Callable[[Step], int], rng: random.Random) -> Step:
    """Play to the end: chance uniformly from ``rng``, players by ``choose`` (tests, benchmarks)."""
    while not step.ended:
        if step.deal is not None:
            step = step.apply(rng.choice(bits(step.deal.remaining)))
        else:
            step = step.apply(choose(step))
    return step

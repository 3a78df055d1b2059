"""The one capture/build engine every variant plays through.

Legal moves are generated from the variant's settings only; the engine never
asks which variant it plays. Captures are a set-partition problem: for a played
value we enumerate the *groups* (an equal card, a set of loose cards adding up
to the value, a build of that value) once, then every union of disjoint groups,
deduplicated by the set taken. Builds reuse the same machinery. Table items are
bitmasks: loose card ``i`` is bit ``i``; build ``j`` is bit ``64 + j``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

from ..language.cards import Card, Deck
from .moves import IllegalMoveError, Move, MoveKind
from .rng import SplitMix64
from ..language.rules import Rules
from ..language.selectors import compile_selector
from .state import Build, Capture, Event, HandState, Sweep

BUILD_SHIFT = 64
LOOSE = (1 << BUILD_SHIFT) - 1


def bits(mask: int) -> list[int]:
    """Indexes of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def unions(groups: Sequence[int], exclude: int = 0) -> list[int]:
    """Every non-empty union of pairwise disjoint ``groups`` avoiding ``exclude``, each once."""
    results = {0}
    for g in groups:
        if g & exclude:
            continue
        results.update([m | g for m in results if not m & g])
    results.discard(0)
    return list(results)


def subsets_summing(items: Sequence[tuple[int, tuple[int, ...]]], target: int) -> list[int]:
    """Masks of the item subsets (one or more items) whose values add up to ``target``.

    ``items`` are (bit, values) pairs; an item with several values (an ace, 1 or
    14) may count as any one of them. Output-sensitive: items are visited
    largest first and a branch stops when what is left cannot reach the target.
    """
    if target <= 0 or not items:
        return []
    order = sorted(items, key=lambda it: -max(it[1]))
    n = len(order)
    suffix = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        suffix[k] = suffix[k + 1] + max(order[k][1])
    found: set[int] = set()

    def rec(start: int, remaining: int, mask: int) -> None:
        for k in range(start, n):
            if suffix[k] < remaining:
                return
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
    """A hand position given piece by piece (scenario files, tests, front ends)."""

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


class Engine:
    """Legal moves and their effects for one variant. Stateless between calls; share freely."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.deck = deck = Deck.from_rules(rules.deck)
        if len(deck) > BUILD_SHIFT:
            raise ValueError(f"a deck of {len(deck)} cards is more than the engine's {BUILD_SHIFT}")
        self.n_cards = len(deck)
        self.full = (1 << self.n_cards) - 1
        self.hv = deck.hand_values
        self.tv = deck.table_values
        self.rank = deck.rank_index
        self.rank_str = tuple(deck.ranks[r] for r in deck.rank_index)
        self.rank_mask = [0] * len(deck.ranks)
        for i, r in enumerate(deck.rank_index):
            self.rank_mask[r] |= 1 << i
        self.valueless = tuple(not v for v in self.hv)
        self.events = tuple(
            (ev.name, tuple(self.mask_of(compile_selector(s, deck.view)) for s in ev.takes))
            for ev in rules.scoring.events)
        c, b = rules.capture, rules.build
        self.cap, self.bld = c, b
        self.ccw = rules.seats.direction == "counterclockwise"

    # ------------------------------------------------------------------ helpers
    def mask_of(self, predicate) -> int:  # type: ignore[no-untyped-def]
        m = 0
        for i, card in enumerate(self.deck.cards):
            if predicate(card):
                m |= 1 << i
        return m

    def next_seat(self, seat: int, players: int) -> int:
        return (seat - 1) % players if self.ccw else (seat + 1) % players

    def leader(self, dealer: int, players: int) -> int:
        return self.next_seat(dealer, players)

    def partner_of(self, state: HandState, seat: int) -> int | None:
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
        """Whether ``hand`` has a different card to capture each of ``values``.

        A matching of cards to values (augmenting paths; values are few), because a card
        that counts two ways takes a build of one value or the other, never both at once.
        """
        if not values:
            return True
        can = [self.captured_values(1 << i) for i in bits(hand)]
        owner: dict[int, int | str] = {}   # card position -> the value it answers for

        def assign(value: int | str, seen: set[int]) -> bool:
            for k, vals in enumerate(can):
                if value in vals and k not in seen:
                    seen.add(k)
                    if k not in owner or assign(owner[k], seen):
                        owner[k] = value
                        return True
            return False

        return all(assign(v, set()) for v in values)

    def is_single(self, cards: int, value: int) -> bool:
        """Whether the cards' values (with choices) add up to exactly ``value``."""
        items = [(1 << i, self.tv[i]) for i in bits(cards)]
        if any(not v for _, v in items):
            return False
        return cards in subsets_summing(items, value)

    def is_pairs(self, cards: int, value: int | str) -> bool:
        """Whether a build is a build of pairs: equal cards announced as their own rank.

        The kind follows the announced value, not the cards alone (004, "Building": a
        build is of what it was declared to be): four twos announced as fours are an
        addition build (2+2 and 2+2) that grows and is taken by its value like any other.
        """
        idx = bits(cards)
        first = idx[0]
        if any(self.rank[i] != self.rank[first] for i in idx):
            return False
        return isinstance(value, str) or value in self.tv[first]

    # ------------------------------------------------------------------ positions
    def start(self, seed: int, players: int, dealer: int = 0, partners: bool | None = None,
              scores_restricted: Iterable[int] = ()) -> HandState:
        """A new hand: the deck shuffled from ``seed`` and dealt as the variant says."""
        self._check_players(players)
        order = list(range(self.n_cards))
        SplitMix64(seed).shuffle(order)
        teams = self._teams(players, partners)
        empty = tuple(0 for _ in range(players))
        state = HandState(players=players, teams=teams, dealer=dealer, turn=self.leader(dealer, players),
                          hands=empty, table=0, builds=(), stock=tuple(order), piles=empty, deal_no=0,
                          proven=tuple(frozenset() for _ in range(players)),
                          restricted=frozenset(scores_restricted))
        return self._deal(state, initial=True)

    def _check_players(self, players: int) -> None:
        s = self.rules.seats
        if not s.min_players <= players <= s.max_players:
            raise ValueError(f"{self.rules.name} is for {s.min_players} to {s.max_players} players, not {players}")

    def _teams(self, players: int, partners: bool | None) -> tuple[int, ...]:
        if self.rules.partnership(players, partners):
            return tuple(seat % 2 for seat in range(players))
        return tuple(range(players))

    def position(self, pos: Position) -> HandState:
        """A state from explicit pieces; cards not placed are the stock (deck order)."""
        self._check_players(pos.players)
        teams = self._teams(pos.players, pos.partners)
        hands = [0] * pos.players
        for seat, cards in (pos.hands or {}).items():
            hands[seat] = self.deck.mask(list(cards))
        piles = [0] * pos.players
        for seat, cards in (pos.captured or {}).items():
            piles[seat] = self.deck.mask(list(cards))
        builds = []
        for cards, value, owner in pos.builds:
            m = self.deck.mask(list(cards))
            multiple = not (isinstance(value, int) and self.is_single(m, value))
            builds.append(Build(m, value, multiple, owner, owner, pairs=self.is_pairs(m, value)))
        table = self.deck.mask(list(pos.table))
        sweeps = tuple(Sweep(seat, size, -1) for seat, sizes in (pos.sweeps or {}).items() for size in sizes)
        placed = table | sum(hands) | sum(piles) | sum(b.cards for b in builds)
        if pos.stock is not None:
            stock = tuple(self.deck.index(c) for c in pos.stock)
        else:
            stock = tuple(i for i in range(self.n_cards) if not placed >> i & 1)
        dealer = pos.dealer if pos.dealer is not None else next(
            s for s in range(pos.players) if self.leader(s, pos.players) == pos.to_play)
        proven = [set() for _ in range(pos.players)]
        for b in builds:
            if isinstance(b.value, int):
                proven[b.owner].add(b.value)
        return HandState(players=pos.players, teams=teams, dealer=dealer, turn=pos.to_play,
                         hands=tuple(hands), table=table, builds=tuple(builds), stock=stock,
                         piles=tuple(piles), sweeps=sweeps, last_capturer=pos.last_capture,
                         proven=tuple(frozenset(p) for p in proven))

    # ------------------------------------------------------------------ dealing
    def _deal(self, state: HandState, initial: bool) -> HandState:
        d = self.rules.deal
        n = state.players
        stock = list(state.stock)
        hands = list(state.hands)
        table = state.table
        order = []
        seat = state.dealer
        for _ in range(n):
            seat = self.next_seat(seat, n)
            order.append(seat)          # the dealer comes last
        if len(stock) >= n * d.hand_size + (d.table_cards if initial else 0):
            per_hand = d.hand_size
            table_left = d.table_cards if initial else 0
            packet = d.packet
        else:
            # The stock cannot give everyone a full hand: deal evenly, singly, the rest to the table.
            per_hand = (len(stock) - (d.table_cards if initial else 0)) // n
            table_left = d.table_cards if initial else 0
            packet = 1
        got = [0] * n
        while any(got[s] < per_hand for s in order) or table_left:
            progressed = False
            for s in order:
                if s == state.dealer and table_left:
                    k = min(packet, table_left)
                    for _ in range(k):
                        table |= 1 << stock.pop(0)
                    table_left -= k
                    progressed = True
                k = min(packet, per_hand - got[s])
                for _ in range(k):
                    hands[s] |= 1 << stock.pop(0)
                got[s] += k
                progressed = progressed or k > 0
            if not progressed:
                break
        if d.short_stock == "split_rest_to_table" and len(stock) < n:
            while stock:
                table |= 1 << stock.pop(0)
        return state.with_(hands=tuple(hands), table=table, stock=tuple(stock), deal_no=state.deal_no + 1,
                           turn=self.leader(state.dealer, n))

    # ------------------------------------------------------------------ move generation
    def legal_moves(self, state: HandState) -> list[Move]:
        """Every legal move of the player to play, each once."""
        if state.over:
            return []
        return _Generator(self, state).moves()

    def is_legal(self, state: HandState, move: Move) -> bool:
        return move in self.legal_moves(state)

    def play(self, state: HandState, move: Move) -> HandState:
        """Apply ``move`` after checking it is legal (IllegalMoveError otherwise)."""
        if move not in self.legal_moves(state):
            raise IllegalMoveError(self.why_illegal(state, move))
        return self.apply(state, move)

    def why_illegal(self, state: HandState, move: Move) -> str:
        """A one-line reason a move is refused, for players and scenario reports."""
        from .reasons import why_illegal

        return why_illegal(self, state, move)

    # ------------------------------------------------------------------ applying
    def apply(self, state: HandState, move: Move) -> HandState:
        """The state after ``move`` (which must be legal; see :meth:`play`)."""
        seat = state.turn
        hands = list(state.hands)
        hands[seat] &= ~move.played
        used_builds = [b for b in state.builds if b.cards in move.builds]
        rest_builds = tuple(b for b in state.builds if b.cards not in move.builds)
        build_cards = 0
        for b in used_builds:
            build_cards |= b.cards
        table = state.table & ~move.loose
        changes: dict[str, object] = {}
        proven = state.proven
        if self.bld.for_partner and proven:
            played_vals = self.captured_values(move.played)
            p = list(proven)
            p[seat] = frozenset(v for v in p[seat] if v not in played_vals)
            proven = tuple(p)
        if move.kind is MoveKind.CAPTURE:
            taken = move.loose | build_cards
            piles = list(state.piles)
            piles[seat] |= taken | move.played
            changes.update(piles=tuple(piles), last_capturer=seat, table=table, builds=rest_builds,
                           captures=state.captures + (Capture(state.ply, seat, taken | move.played, taken),))
            evs = [Event(seat, name, state.ply) for name, masks in self.events if all(taken & m for m in masks)]
            if evs:
                changes["events"] = state.events + tuple(evs)
            if not table and not rest_builds:
                last_play = not state.stock and not any(hands)
                if self.rules.sweeps.on_last_play or not last_play:
                    changes["sweeps"] = self._record_sweep(state, Sweep(seat, bin(taken).count("1"), state.ply,
                                                                        first_play=state.ply == 0 and state.deal_no == 1))
        elif move.kind is MoveKind.TRAIL:
            changes.update(table=table | move.played)
        else:
            cards = move.played | move.loose | build_cards
            if move.kind is MoveKind.TRAIL_BUILD:
                cards = move.loose | build_cards
                table |= move.played
            value = move.value
            assert value is not None
            if isinstance(value, int):
                multiple = not self.is_single(cards, value)
            else:
                multiple = True
            holder = seat
            if value not in self.captured_values(hands[seat]):
                partner = self.partner_of(state, seat)
                holder = partner if partner is not None else seat
            if self.bld.for_partner and proven and holder == seat and isinstance(value, int):
                p = list(proven)
                p[seat] = p[seat] | {value}
                proven = tuple(p)
            new = Build(cards, value, multiple, seat, holder, pairs=self.is_pairs(cards, value))
            changes.update(table=table, builds=rest_builds + (new,))
        changes["proven"] = proven
        if self.rules.deal.draw_after_play and state.stock:
            need = self.rules.deal.hand_size - bin(hands[seat]).count("1")
            stock = list(state.stock)
            while need > 0 and stock:
                hands[seat] |= 1 << stock.pop(0)
                need -= 1
            changes["stock"] = tuple(stock)
        changes.update(hands=tuple(hands), ply=state.ply + 1)
        turn = self._next_to_play(seat, hands, state.players)
        if turn is not None:
            changes["turn"] = turn
            return state.with_(**changes)
        return self._deal_is_over(state.with_(**changes))

    def _record_sweep(self, state: HandState, sweep: Sweep) -> tuple[Sweep, ...]:
        side = state.teams[sweep.seat]
        if side in state.restricted and not self.rules.sweeps.record_when_restricted:
            return state.sweeps
        sweeps = list(state.sweeps) + [sweep]
        if self.rules.sweeps.cancel:
            sides = state.sides
            live = {s: [k for k, w in enumerate(sweeps) if not w.cancelled and state.teams[w.seat] == s] for s in sides}
            if len(sides) > 1 and all(live[s] for s in sides):
                for s in sides:
                    k = live[s][0]
                    w = sweeps[k]
                    sweeps[k] = Sweep(w.seat, w.size, w.ply, w.first_play, cancelled=True)
        return tuple(sweeps)

    def _next_to_play(self, seat: int, hands: Sequence[int], players: int) -> int | None:
        """The next seat in play order with cards in hand, or None when every hand is empty."""
        for _ in range(players):
            seat = self.next_seat(seat, players)
            if hands[seat]:
                return seat
        return None

    def _deal_is_over(self, state: HandState) -> HandState:
        """Every hand is empty: deal again, or end the hand."""
        if state.stock and self.rules.deal.redeal == "when_hands_empty":
            return self._deal(state, initial=False)
        return self._finish(state)

    def _finish(self, state: HandState) -> HandState:
        residue = state.table
        for b in state.builds:
            residue |= b.cards
        changes: dict[str, object] = {"over": True, "residue": residue}
        if residue and state.last_capturer is not None:
            piles = list(state.piles)
            piles[state.last_capturer] |= residue
            changes.update(piles=tuple(piles), table=0, builds=())
            if self.rules.sweeps.residue_is_sweep:
                changes["sweeps"] = self._record_sweep(
                    state, Sweep(state.last_capturer, bin(residue).count("1"), state.ply))
        return state.with_(**changes)


class _Generator:
    """The legal moves of one position. Precomputes the table's items once."""

    def __init__(self, engine: Engine, state: HandState) -> None:
        self.e = e = engine
        self.s = state
        self.seat = state.turn
        self.hand = state.hands[self.seat]
        self.loose_idx = bits(state.table)
        # Items that may take part in sums: loose cards with values, and single builds
        # when the variant counts a single build as a card of its value.
        self.sum_items: list[tuple[int, tuple[int, ...]]] = [(1 << i, e.tv[i]) for i in self.loose_idx if e.tv[i]]
        if e.bld.single_build_as_card:
            self.sum_items += [(1 << (BUILD_SHIFT + j), (b.value,)) for j, b in enumerate(state.builds)
                               if not b.multiple and isinstance(b.value, int)]
        self._groups: dict[int, list[int]] = {}
        self._unions: dict[int, list[int]] = {}
        self.partner = engine.partner_of(state, self.seat)

    # -- groups
    def sum_groups(self, v: int) -> list[int]:
        """Item sets worth ``v``: single equal items, and (where sums count) sets adding up to it."""
        g = self._groups.get(v)
        if g is None:
            if self.e.cap.sums:
                g = subsets_summing(self.sum_items, v)
            else:
                g = [bit for bit, vals in self.sum_items if v in vals]
            self._groups[v] = g
        return g

    def group_unions(self, v: int, exclude: int = 0) -> list[int]:
        """Every union of disjoint item sets worth ``v`` (computed once per value), avoiding ``exclude``."""
        u = self._unions.get(v)
        if u is None:
            u = self._unions[v] = unions(self.sum_groups(v))
        if not exclude:
            return u
        return [m for m in u if not m & exclude]

    def equal_loose(self, v: int) -> int:
        m = 0
        for i in self.loose_idx:
            if v in self.e.tv[i]:
                m |= 1 << i
        return m

    def build_items(self, value: int | str) -> list[int]:
        return [1 << (BUILD_SHIFT + j) for j, b in enumerate(self.s.builds) if b.value == value]

    def move_parts(self, items: int) -> tuple[int, tuple[int, ...]]:
        if not items >> BUILD_SHIFT:
            return items, ()
        loose = items & LOOSE
        builds = tuple(sorted(self.s.builds[j].cards for j in bits(items >> BUILD_SHIFT)))
        return loose, builds

    # -- captures
    def captures_for_value(self, v: int) -> set[int]:
        """Capture item-sets for a played value ``v`` (numbers)."""
        c = self.e.cap
        eq = self.equal_loose(v)
        builds = [bit for bit in self.build_items(v) if bit not in self.sum_groups(v)]
        if c.equal_card_first and eq:
            groups = [g for g in self.sum_groups(v) + builds if g & eq == g and bin(g).count("1") == 1]
            found = set(unions(groups)) if c.several_groups else set(groups)
        elif not c.several_groups:
            found = set(self.sum_groups(v)) | set(builds)
        else:
            found = set(self.group_unions(v))
            for b in builds:   # whole builds of the value, alone or with any union not already using them
                found.add(b)
                found.update(m | b for m in list(found) if not m & b)
        if c.equal_cards == "all" and eq:
            found = {m for m in found if m & eq == eq}
        elif c.equal_cards == "all_when_pairing" and eq:
            found = {m for m in found if not m & eq or m & eq == eq}
        return found

    def valueless_captures(self, p: int) -> set[int]:
        e, s = self.e, self.s
        r = e.rank[p]
        rank = e.rank_str[p]
        items = [1 << i for i in self.loose_idx if e.rank[i] == r and e.valueless[i]] + self.build_items(rank)
        if not items:
            return set()
        mode = e.cap.valueless_cards
        if mode == "one":
            return set(items)
        if mode == "all":
            return {sum(items)}
        if mode == "any":
            return set(unions(items))
        on_table = bin(s.table & e.rank_mask[r]).count("1") + sum(
            bin(b.cards & e.rank_mask[r]).count("1") for b in s.builds if b.value == rank)
        found = set(items)
        if on_table == 3:
            found.add(sum(items))
        return found

    def card_captures(self, p: int) -> list[Move]:
        e = self.e
        found: set[int] = set()
        if e.valueless[p]:
            found = self.valueless_captures(p)
        else:
            for v in e.hv[p]:
                found |= self.captures_for_value(v)
        out = []
        for items in found:
            loose, builds = self.move_parts(items)
            out.append(Move(MoveKind.CAPTURE, 1 << p, loose, builds))
        return out

    def multi_captures(self) -> list[Move]:
        """Several hand cards played together (Hungarian Casino)."""
        e = self.e
        cards = [i for i in bits(self.hand) if e.hv[i]]
        out: list[Move] = []
        limit = min(e.cap.hand_cards_max, len(cards))
        for size in range(2, limit + 1):
            for combo in combinations(cards, size):
                items = [(1 << i, e.hv[i]) for i in combo]
                played = sum(1 << i for i in combo)
                targets: set[int] = set()
                for total in _totals(items):
                    if e.cap.hand_cards_combine == "total":
                        targets.add(total)
                    else:
                        for k in range(1, size + 1):
                            if total % k == 0 and played in unions(subsets_summing(items, total // k)):
                                targets.add(total // k)
                found: set[int] = set()
                for v in targets:
                    found |= self.captures_for_value(v)
                for m in found:
                    loose, builds = self.move_parts(m)
                    out.append(Move(MoveKind.CAPTURE, played, loose, builds))
        return out

    # -- builds
    def held_values(self, hand_after: int) -> set[int]:
        vals: set[int] = set()
        for i in bits(hand_after):
            vals.update(self.e.hv[i])
        return vals

    def card_builds(self, p: int) -> list[Move]:
        e, s, b = self.e, self.s, self.e.bld
        if e.valueless[p]:
            return self.valueless_builds(p) if b.valueless != "never" else []
        hand_after = self.hand & ~(1 << p)
        targets = self.held_values(hand_after)
        if b.for_partner and self.partner is not None and s.proven:
            targets |= s.proven[self.partner]
        if b.max_value is not None:
            targets = {v for v in targets if v <= b.max_value}
        out: list[Move] = []
        bit = 1 << p
        for vp in e.hv[p]:
            for V in targets:
                if V < vp:
                    continue
                rest = V - vp
                completions = [0] if rest == 0 else self.sum_groups(rest)
                # A new build: the played card's set, and (multiple) further sets worth V.
                for t0 in completions:
                    if t0:
                        out.append(self._build_move(bit, t0, V))
                    if b.multiple:
                        for u in self.group_unions(V, exclude=t0):
                            out.append(self._build_move(bit, t0 | u, V))
                # Onto an existing build.
                for j, bd in enumerate(s.builds):
                    if not isinstance(bd.value, int):
                        continue
                    jbit = 1 << (BUILD_SHIFT + j)
                    if bd.value == V and b.add_sets and b.multiple:
                        if b.continue_as_begun and bd.pairs:
                            if rest == 0 and e.rank_str[p] == e.rank_str[bits(bd.cards)[0]]:
                                out.append(self._build_move(bit, jbit, V))
                            continue
                        for t0 in completions:
                            if t0 & jbit:
                                continue
                            out.append(self._build_move(bit, t0 | jbit, V))
                            for u in self.group_unions(V, exclude=t0 | jbit):
                                out.append(self._build_move(bit, t0 | jbit | u, V))
                    elif (bd.value < V and not bd.multiple and b.raise_single
                          and (b.raise_own or bd.owner != self.seat)
                          and not (b.continue_as_begun and bd.pairs)):
                        need = V - vp - bd.value
                        if need < 0:
                            continue
                        if need == 0:
                            raises = [0]
                        elif b.raise_with_table_cards:
                            raises = [r for r in self.sum_groups(need) if not r & jbit]
                        else:
                            continue
                        for r in raises:
                            out.append(self._build_move(bit, r | jbit, V))
                            if b.multiple:
                                for u in self.group_unions(V, exclude=r | jbit):
                                    out.append(self._build_move(bit, r | jbit | u, V))
        return out

    def _build_move(self, played: int, items: int, value: int | str, kind: MoveKind = MoveKind.BUILD) -> Move:
        loose, builds = self.move_parts(items)
        return Move(kind, played, loose, builds, value)

    def valueless_builds(self, p: int) -> list[Move]:
        e, s = self.e, self.s
        r = e.rank[p]
        rank = e.rank_str[p]
        hand_after = self.hand & ~(1 << p)
        loose = [1 << i for i in self.loose_idx if e.rank[i] == r]
        piles = [1 << (BUILD_SHIFT + j) for j, b in enumerate(s.builds) if b.value == rank]
        out = []
        for pile in [0] + piles:
            for extra in [0] + unions(loose):
                items = pile | extra
                if not items:
                    continue
                in_build = (1 << p) | (items & LOOSE)
                for j in bits(items >> BUILD_SHIFT):
                    in_build |= s.builds[j].cards
                if e.bld.valueless == "when_all_four":
                    if (in_build | hand_after) & e.rank_mask[r] != e.rank_mask[r]:
                        continue
                elif not hand_after & e.rank_mask[r]:
                    continue
                out.append(self._build_move(1 << p, items, rank))
        return out

    def trail_builds(self, p: int) -> list[Move]:
        """Trail ``p`` and build loose table cards for a value still held (house rule)."""
        e, b = self.e, self.e.bld
        hand_after = self.hand & ~(1 << p)
        targets = self.held_values(hand_after)
        if b.max_value is not None:
            targets = {v for v in targets if v <= b.max_value}
        out = []
        for V in targets:
            groups = [g for g in self.sum_groups(V) if not g >> BUILD_SHIFT]
            for u in unions(groups) if b.multiple else groups:
                if bin(u).count("1") >= 2:
                    out.append(self._build_move(1 << p, u, V, MoveKind.TRAIL_BUILD))
        return out

    # -- restrictions
    def keeps_capturing_cards(self, move: Move, held_before: list[Build]) -> bool:
        """After ``move``, the player still holds a card for every build they must keep one for.

        One card per distinct build value: a card with several values (a royal ace, 1 or
        14) answers for one of them only, so this is a matching of cards to values; one
        card still answers for several builds of the same value, as one capture takes them all.
        """
        is_build = move.kind is MoveKind.BUILD or move.kind is MoveKind.TRAIL_BUILD
        if not held_before and not is_build:
            return True
        values = {b.value for b in held_before if b.cards not in move.builds}
        if is_build and not (self.e.bld.for_partner and self.partner is not None and self.s.proven
                             and move.value in self.s.proven[self.partner]):
            values.add(move.value)  # type: ignore[arg-type]
        return self.e.answers(self.hand & ~move.played, values)

    def moves(self) -> list[Move]:
        e, s = self.e, self.s
        c, b = e.cap, e.bld
        captures: list[Move] = []
        builds: list[Move] = []
        trails: list[Move] = []
        capturing_cards = 0
        for p in bits(self.hand):
            cm = self.card_captures(p)
            captures += cm
            if b.allowed:
                builds += self.card_builds(p)
            trails.append(Move(MoveKind.TRAIL, 1 << p))
            if e.rules.trail.with_build and b.allowed:
                builds += self.trail_builds(p)
        if c.hand_cards_max > 1:
            captures += self.multi_captures()
        held = [bd for bd in s.builds if bd.holder == self.seat]
        if b.keep_capturing_card:
            captures = [m for m in captures if self.keeps_capturing_cards(m, held)]
            builds = [m for m in builds if self.keeps_capturing_cards(m, held)]
            trails = [m for m in trails if self.keeps_capturing_cards(m, held)]
        else:
            builds = [m for m in builds if self.keeps_capturing_cards(m, [])]
        for m in captures:
            capturing_cards |= m.played
        owns = any(bd.owner == self.seat for bd in s.builds)
        if owns and b.owner_obligation == "no_trail":
            trails = []
        elif owns and b.owner_obligation == "capture_or_raise":
            trails = []
            values = {bd.cards: bd.value for bd in s.builds}
            builds = [m for m in builds if m.kind is MoveKind.BUILD and any(
                values[x] != m.value for x in m.builds)]
        if c.compulsory == "equal_loose_card":
            trails = [m for m in trails if not self._equals_loose(bits(m.played)[0])]
        elif c.compulsory == "when_card_can_capture":
            trails = [m for m in trails if not m.played & capturing_cards]
        elif c.compulsory == "whenever_possible" and captures:
            builds, trails = [], []
        out = list(dict.fromkeys(captures + builds + trails))
        if not out and self.hand:
            # Rules that leave no move at all (possible only with unusual house rules):
            # let the player trail rather than stop the game.
            out = [Move(MoveKind.TRAIL, 1 << p) for p in bits(self.hand)]
        return out

    def _equals_loose(self, p: int) -> bool:
        e = self.e
        if e.valueless[p]:
            return any(e.rank[i] == e.rank[p] for i in self.loose_idx)
        return any(set(e.hv[p]) & set(e.tv[i]) for i in self.loose_idx)


def _totals(items: list[tuple[int, tuple[int, ...]]]) -> set[int]:
    totals = {0}
    for _, values in items:
        totals = {t + v for t in totals for v in values}
    return totals

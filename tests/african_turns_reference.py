"""A clean-room reading of WHOLE turns in African Casino (Swazi Casino, South African Casino).

Written from the rule texts alone, not from the project's engine, to be compared with it. It imports
nothing from ``cassino`` (the standard library, and the one-action reference's input checks). Where
``tests/african_reference.py`` (the one-action reference) lists turns of one action with a hand card,
this file lists every distinct END RESULT of a whole turn: any number of builds made or added to with
cards already in play only (actions 2 and 4 without a hand card), before and after exactly one action
with one card from the hand (a capture, a build, new or added to, a raise, or a discard), then the end
of the turn.

Sources
-------
[Kh]  the Khasino rules document v1.1 (A. Hlongwane, 2023), text of "Khasino.Rules.en (1).pdf" in
      github.com/Simon-Mufara/sa_casino; its play section: the preamble to the actions, actions 1-5,
      "The rule for taking other people's cards", "Important Exception", "A base is", "Special rules for
      partnership play", "Stash".
[Ref] tests/african_reference.py: its rules R1-R16 and readings D1-D11 are the agreed reading of [Kh]
      and are followed here for every action of a turn and for the turn as a whole (cited as R-/D-).
[V]   the ``readings:`` of variants/swazi-casino.yaml and variants/south-african-casino.yaml, followed
      where [Kh] and [Ref] are silent; each departure is said below.
[P]   pagat.com "African Casino", for the card values only, as quoted by [Ref] R1.

Position
--------
Exactly the mapping ``tests/african_reference.py``'s ``legal_moves`` takes: ``game`` ("swazi" |
"south-african"), ``players`` (2-4), ``partners`` (four players only; partners sit opposite), ``seat``
(the mover), ``hand``, ``table`` (loose layout cards), ``builds`` ([{cards, value, owner, compound}]),
``piles`` ([{seats, cards bottom..top}]), ``first_round``, ``stock`` (not used, as in D6),
``partner_declared`` (values the partner is proven to hold, R14). Bad input raises ``ValueError``.

Outcome
-------
``(hand, table, builds, piles, captured)``: the mover's hand left (sorted), the loose layout cards after
the turn (sorted, a discarded card included), every build on the table after the turn as ``(sorted
cards, value, owner, compound)`` (sorted), for each entry of ``position["piles"]`` in order how many of
its cards are left on it (the mover's own side's piles keep their original count), and the cards the
turn put onto the mover's side's pile (sorted, the capturing card included; ``()`` without a capture).

Readings of the whole turn (T-numbers are used in the code's comments)
----------------------------------------------------------------------
T1  The shape of a turn. [Kh] "Your turn can consist several actions, in any order. At some point during
    your turn you must play exactly one card from your hand"; "Actions 2 and 4 can involve playing a card
    from your hand, or can be performed using only cards that are already in play. As long as no card
    from your hand is involved, you can perform as many of actions 2 and 4 as you wish in any order,
    before or after playing from your hand". A turn is: free actions (no hand card), the one hand action
    (capture, build, raise or discard, as in [Ref] R2, R6-R8, R11), free actions, end ([V]
    build.free_actions). Insisting that a player capture or add all he could ([Kh] 1 "any opponent can
    insist", 4 "any opponent can insist that you add such cards") is left to the players, as [Ref] R2
    and [V] say: every choice is listed.
T2  A free action is one of: (a) a new build of cards in play: a base of layout cards alone (R3/R4, [Kh]
    2 "You are not allowed to use cards from any capture pile when creating a single build"), either a
    set of two or more layout cards worth the value ([Kh] 2 "there is a 5, a 3 and a 2 in the layout and
    you have a 10 in your hand; you can combine the 5, 3 and 2 into a build of 10"), or one layout card
    of the value with one more set added to it ([Kh] 4 "you can make this card into an augmented build by
    adding further cards to it, from the layout ... or from the top of the opponents' capture pile(s)";
    D11 and [V] build.free_actions "never one card alone"); (b) one more set added to a build of its
    value ([Kh] 4 "You can augment a build that is owned by yourself or your partner by adding further
    single cards or sets of cards of the same value"; "It is possible to form a build and then augment
    it in the same turn"). A set is layout cards and at most one card of each opponent's pile, that
    pile's current top, worth the value (R1: one card any of its values, two or more the sum with aces
    as 1); the card under a top taken is in play for a later set (R5, D1: [Kh] 4 "After it has been taken
    the card underneath it becomes available for use", and its 9, 7, 4 example). Pile cards therefore
    never form a base: they join a base already there (the text's "The card must be built on the floor
    first before you can start going to other people's cards").
T3  Building an opponent's build without the hand card. [Kh] 4 "You can augment a build owned by your
    opponent only if you also capture that build in the same turn. Since you can only capture with a card
    from your hand ... any augmentation of an opponent's build has to be done using cards from the
    layout or from the top of your opponents' capture pile(s)". Such sets are added only before the hand
    card, and the turn is legal only if the hand card then captures that build (so the build, with what
    was added, ends in ``captured``). [V] build.augment_opponents writes this as the capture alone; the
    end results are the same.
T4  The played card. [V] build.free_actions "The card played from the hand is in no later build of that
    turn: a card discarded then built would be a build with a hand card". A discarded card stays loose
    and no free action of the turn uses it. A card that built, augmented or raised stays in its build
    (builds are never broken, R10), and that build may be added to by later free sets ([Kh] 4 "It is
    possible to form a build and then augment it in the same turn"; R8).
T5  A build with the hand card ([Kh] 2 "with or without adding a card from your hand"; 4 "one card from
    your hand"): the hand card goes into exactly one set worth the value, with layout cards and opponents'
    pile tops (R6, R7). That set is added to the side's build of the value (R9), or starts a new build.
    A new build's base is layout cards: the hand card's set is a base itself only when it holds a layout
    card and no pile card ([Kh] "use the card on the floor, add yours so they can add up to 10. If there
    is a 7 on the floor you can add a 3 and take the 10 from the opponent's chowed pile"; D3: the played
    card alone is no base); otherwise a separate layout base (a layout card of the value or a layout set
    worth it) is laid with it. Further sets come as free actions (T2b).
T6  A raise (R8, D4, D5, D7): the hand card alone changes an opponent's single build to a value the mover
    holds a card of at the end of the turn; the raised build is the mover's ([Kh] 3 "By changing the value
    you take over ownership of the single build"), combined with his side's build of the new value if
    there is one (D5, R9), and may be added to by later free sets (R8).
T7  Holding a card, checked at the end of the turn. [Kh] 2 "You are only allowed to form a build if you
    have a card in your hand which can later capture that build"; 5 "You may not, however, abandon a build
    that you own by using up all of the cards that you could have captured it with for other purposes".
    A free new build is formed only for a value a card of the mover's hand at that moment has (the whole
    hand before the hand card, the hand left after it) or a value the partner is proven to hold (R14);
    at the end of the turn, [Ref]'s holding rule (R6, R8, R12, R14, D2, D7, D8) is applied to the builds
    left: every build left that the mover made, raised or added to this turn needs a card of its value in
    the hand left (one ace for each build of 1 or 14, D2), except that a value the partner is proven to
    hold waives it for a build the turn added to (R14, D8; a raise is never waived, D7); every build of
    the mover's from before the turn that he held a card of must still have one (R12). A build made and
    captured in the same turn needs nothing more ([Kh] 4 "You can take cards from your opponents when you
    are building or about to chow your build").
T8  Ownership (the ``owner`` of the Outcome). [Kh] "Each build has an owner, who is responsible for
    eventually capturing it, unless it is first changed in value or captured by another player"; 2 "The
    player who forms the build becomes its owner". A build added to keeps its owner: the mover's stays his
    (R12, R14), the partner's stays the partner's (D8, D9). DEPARTS from the [V] build.for_partner reading
    "Whoever adds to a build keeping a card of its value takes it over", and from the south-african
    one_per_player reading "While you own a build you may add to your partner's only keeping no card of
    its value": [Kh] names only a change of value and a capture as ending ownership, and [Ref] D9 allows
    adding to the partner's build beside one's own. A raised build is the mover's (T6), also when
    combined with his partner's build of the new value (the change of value hands it over; the
    combination rule says nothing of owners).
T9  A new build of a value in ``partner_declared`` ([Kh] Special rules for partnership play "you are
    allowed to create a new single or compound build of this rank, which will be owned by your partner";
    "This is the only circumstance in which you can build for your partner") is the partner's; when the
    mover also keeps a card of its value it may instead be his own (2 "The player who forms the build
    becomes its owner"): both end results are listed. [V] build.for_partner gives such a build to the
    partner too ("such a build is your partner's to take") but to the mover when he keeps a card: this
    DEPARTS from it in listing the partner's as well then (as [Ref] D9 needs, which lets a South African
    player who owns a build make one for a declared value). The south-african one_per_player reading "Nor
    do you build your partner's proven value for them while your partner owns a build of another value"
    is not applied ([Ref] does not apply it; [Kh] gives no such limit).
T10 A partner's build that the mover captures in the turn proves its value for the rest of the turn:
    [Kh] "If your partner owns a build whose value is then changed by an opponent, or which is captured by
    someone other than your partner (including yourself), then you know that your partner holds a card
    of the rank needed ... you are allowed to create a new single or compound build of this rank, which
    will be owned by your partner". Free builds after that capture may be made for that value (T9).
T11 South African one build a player (R15, D9), judged on the turn's end: a turn may not leave the mover
    owning builds of two or more values when one of them was started or taken over (raised) by him in the
    turn. [Kh] 2 "to form a new build of your own; that is if you don't have another one already": the
    mover's builds leave the table only by the one capture, so a turn that ends with two builds of his,
    one of them new, made it while having the other; a build made and captured in the same turn does not
    count (D9), and one made after his old build was captured is allowed (he no longer has another one).
    Builds made for the partner (T9) and the partner's builds added to (T8) are not the mover's (D9).
    The text's Shiya rule for a player who owns two builds ("They have to chow one of the builds when the
    game reaches their turn") is not applied: [V] one_per_player leaves Shiya to the players and [Ref]
    does not apply it either.
T12 The 2-player first-round discard ban (R11, D6) holds at the moment of the discard: [Kh] 5 "you can't
    do this if you have built a card and you haven't captured it when it's a 2 player game round 1". A
    mover who owns a build then, from before the turn or made by a free action before the discard, may not
    discard; builds made after the discard do not forbid it (D6: ``X trail build ...``). This extends D6
    ("owning a build when the turn starts"), which had no free action before the hand card; [V]'s
    rulebook says the same ("a build of cards in play made before your card from the hand makes you its
    owner at once, so that card may not then be trailed; a card trailed first may be followed by such a
    build"). In end results this is D6 exactly: a discard touches no build, so the same builds can always
    be made after it instead.
T13 A capture (R2) takes, with the hand card at one of its values (R1, D2), any non-empty choice of
    loose cards and loose sets worth that value and builds of that value (any owner, including builds made
    or added to earlier in the turn). Pile cards reach a capture only through a build made or added to
    first ([Kh] 1 "you cannot capture cards directly from the top of an opponent's capture pile (though
    you may be able to do so indirectly by first using them to augment a build)"), which gives [Ref]'s
    R3/R4/D10 captures. Builds are taken whole, never summed (R10).
T14 ``compound`` (as [Ref]): a build of one set (a layout set made into a build, the hand card's set
    alone, a single build raised) is single; a build with any set added, or combined with another build
    (R9, D5), is compound.
T15 One build a value (R9): no build of a value while an opponent owns a build of it (except the sets of
    T3), and every build action of a value takes in all of the mover's side's builds of it.
T16 Pile depth: as deep as sets reach (D1). DEPARTS from the [V] capture.pile_reach reading (at most
    four cards of one pile in a move); [Ref] D1 sets no limit either.

[Kh]'s "Important Exception" (start with the big card, do not return to the pile just taken from) is read,
as [Ref] R5 does, as the order of laying cards, which changes no end result.

Departures from the variant files' readings, in short: T8 (adding to a partner's build does not take it
over), T9 (a declared value built while keeping a card of it may be the partner's or the mover's), T16 (no
four-card pile reach). [Ref]'s own departures (D5, D7, D8, D9, raise_with_table_cards) are kept.

Method
------
A search over states (loose cards, how deep each opponent's pile is taken, the builds with their owner
codes), memoized on the state: the free actions before the hand card, each hand action, the free actions
after it; the end of the turn is judged once per builds and hand card (T3, T7, T9, T11). Two speed-ups
that change no end result are explained in ``_Turn.play``.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any, Iterable, Iterator

from african_reference import _int, _list  # (the one-action reference's input checks, the same position)

__all__ = ["Outcome", "whole_turns"]

#: (hand, table, builds, piles, captured); see the module docstring.
Outcome = tuple[
    tuple[str, ...],
    tuple[str, ...],
    tuple[tuple[tuple[str, ...], int, int, bool], ...],
    tuple[int, ...],
    tuple[str, ...],
]

_SUITS = frozenset("SHDC")
_PIPS: dict[str, int] = {str(n): n for n in range(2, 11)}
# R1 [P] "pip cards from 2 to 10 have their face values, jacks count as 11, queens 12, kings 13 and aces 1
# or 14"; [Kh] "a 40 card pack, obtained by removing all the pictures"; R16 "a single build of 10 (which is
# a maximum that can be built)".
_GAMES: dict[str, tuple[dict[str, tuple[int, ...]], int, frozenset[int], bool]] = {
    # values, max build value, values held only by an ace (D2), one build a player (R15)
    "swazi": (
        {"A": (1, 14), **{r: (v,) for r, v in _PIPS.items()}, "J": (11,), "Q": (12,), "K": (13,)},
        14,
        frozenset({1, 14}),
        False,
    ),
    "south-african": ({"A": (1,), **{r: (v,) for r, v in _PIPS.items()}}, 10, frozenset({1}), True),
}

# owner codes of builds the turn has touched (untouched builds keep their seat)
_A = -1  # a build of the mover's from before the turn, added to this turn (T7, T8)
_N = -2  # a build started this turn by the mover: his, or his partner's (T9)
_R = -3  # a build the mover raised this turn, his (T6)

# A build in a state: (cards mask, value, owner seat or code, compound, augmented-as-an-opponent's (T3))
_Build = tuple[int, int, int, bool, bool]
# A state: (usable loose cards mask, cards taken from each opponent's pile, builds sorted)
_State = tuple[int, tuple[int, ...], tuple[_Build, ...]]
# A set: (layout cards mask, opponents' piles whose top it takes, all its cards as a mask)
_Set = tuple[int, tuple[int, ...], int]


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Turn:
    """One position read and checked, with the caches its search shares between hand cards."""

    def __init__(self, position: dict[str, Any]) -> None:
        if not isinstance(position, dict):
            raise ValueError(f"position: expected a mapping, got {type(position).__name__}")
        game = position.get("game")
        if game not in _GAMES:
            raise ValueError(f"position 'game': {game!r} is not one of {sorted(_GAMES)}")
        self.ranks, self.max_value, self.ace_values, self.one_per_player = _GAMES[game]
        self.players = _int(position, "players", 2, 4)
        partners = bool(position.get("partners", False))
        if partners and self.players != 4:
            raise ValueError("position 'partners': only four players play as partners")
        self.seat = _int(position, "seat", 0, self.players - 1)
        self.partner: int | None = (self.seat + 2) % 4 if partners else None
        first_round = bool(position.get("first_round", False))

        self.names: list[str] = []
        self.vals: list[tuple[int, ...]] = []
        self.low: list[int] = []
        self._seen: dict[str, str] = {}
        # the loose layout cards get the lowest indices, so that a loose mask indexes the sum table
        loose = [self._card(c, "table") for c in _list(position, "table")]
        self.n_loose = len(loose)
        self.hand = [self._card(c, "hand") for c in _list(position, "hand")]
        if not self.hand:
            raise ValueError("position 'hand': the player to move holds no card")
        builds: list[_Build] = []
        for i, b in enumerate(_list(position, "builds")):
            if not isinstance(b, dict):
                raise ValueError(f"position 'builds[{i}]': expected a mapping, got {b!r}")
            cards = [self._card(c, f"builds[{i}]") for c in _list(b, "cards")]
            if not cards:
                raise ValueError(f"position 'builds[{i}]': a build holds at least one card")
            value = _int(b, "value", 1, self.max_value)
            owner = _int(b, "owner", 0, self.players - 1)
            compound = bool(b.get("compound", False))
            builds.append((sum(1 << c for c in cards), value, owner, compound, False))
        # R3 [Kh] 4 "You are not allowed to use a card from the top of your own (or partner's) capture pile"
        self.pile_sizes: list[int] = []
        self.opp_piles: list[list[int]] = []  # top first
        self.opp_of_entry: list[int | None] = []
        for i, p in enumerate(_list(position, "piles")):
            if not isinstance(p, dict):
                raise ValueError(f"position 'piles[{i}]': expected a mapping, got {p!r}")
            seats = _list(p, "seats")
            for s in seats:
                if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < self.players:
                    raise ValueError(f"position 'piles[{i}]' seats: {s!r} is not a seat")
            cards = [self._card(c, f"piles[{i}]") for c in _list(p, "cards")]
            self.pile_sizes.append(len(cards))
            own_side = self.seat in seats or (self.partner is not None and self.partner in seats)
            if own_side or not cards:
                self.opp_of_entry.append(None)
            else:
                self.opp_of_entry.append(len(self.opp_piles))
                self.opp_piles.append(cards[::-1])
        declared: set[int] = set()
        for v in _list(position, "partner_declared") if partners else []:
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= self.max_value:
                raise ValueError(f"position 'partner_declared': {v!r} is not a build value")
            declared.add(v)
        self.declared = frozenset(declared)
        self.start_builds = tuple(sorted(builds))
        self.start_set = frozenset(self.start_builds)
        partner_seats = {self.partner} if self.partner is not None else set()
        self.side_owners = frozenset({self.seat, _A, _N, _R} | partner_seats)
        # R14, D8: values the partner is proven to hold
        self.partner_known = self.declared | frozenset(
            b[1] for b in builds if self.partner is not None and b[2] == self.partner
        )
        # R11, D6, T12
        self.discard_ban = self.players == 2 and first_round
        self.aces_before = sum(1 for c in self.hand if self.low[c] == 1)
        self.start: _State = ((1 << self.n_loose) - 1, (0,) * len(self.opp_piles), self.start_builds)

        # R1: a set of two or more cards is worth the sum of low values
        n = self.n_loose
        sums = [0] * (1 << n)
        for mask in range(1, 1 << n):
            lowbit = mask & -mask
            sums[mask] = sums[mask ^ lowbit] + self.low[lowbit.bit_length() - 1]
        self.sums = sums
        self._set_cache: dict[tuple[int, tuple[int, ...], int], dict[int, list[_Set]]] = {}
        self._plist_cache: dict[tuple[int, int], list[int]] = {}
        self._names_cache: dict[int, tuple[str, ...]] = {}
        self._after_values = {h: self.values_of(c for c in self.hand if c != h) for h in self.hand}
        self._end_cache: dict[tuple[tuple[tuple[int, int, bool], ...], int, frozenset[int]], list[Any]] = {}

    # ---- cards ---------------------------------------------------------------------------------------

    def _card(self, name: Any, where: str) -> int:
        if not isinstance(name, str) or len(name) < 2 or name[-1].upper() not in _SUITS:
            raise ValueError(f"position '{where}': {name!r} is not a card such as '10D' or 'AS'")
        rank = name[:-1].upper()
        rank = "10" if rank == "T" else rank
        if rank not in self.ranks:
            raise ValueError(f"position '{where}': {name!r}: no rank {rank!r} in this game's deck")
        key = rank + name[-1].upper()
        if key in self._seen:
            raise ValueError(f"position '{where}': {name!r} is already in '{self._seen[key]}'")
        self._seen[key] = where
        self.names.append(name)
        self.vals.append(self.ranks[rank])
        self.low.append(self.ranks[rank][0])
        return len(self.names) - 1

    def values_of(self, cards: Iterable[int]) -> frozenset[int]:
        return frozenset(v for c in cards for v in self.vals[c])

    def mover_side(self, owner: int) -> bool:
        return owner < 0 or owner == self.seat or owner == self.partner

    def mover_owns(self, owner: int) -> bool:
        """A build of the mover's, for the 2-player discard ban (T12: no partner, so a new build is his)."""
        return owner == self.seat or owner in (_A, _N, _R)

    # ---- sets (T2, T5) -------------------------------------------------------------------------------

    def sets(self, loose: int, depths: tuple[int, ...], h: int = -1) -> dict[int, list[_Set]]:
        """Every set worth each value: layout cards of `loose`, at most one top of each opponent's pile,
        and (when `h` >= 0) the hand card `h`, which is then in every set listed."""
        key = (loose, depths, h)
        cached = self._set_cache.get(key)
        if cached is not None:
            return cached
        out: dict[int, list[_Set]] = {}
        top = self.max_value
        sums = self.sums
        subs: list[int] = []
        m = loose
        while m:
            subs.append(m)
            m = (m - 1) & loose
        tops = [(p, self.opp_piles[p][d]) for p, d in enumerate(depths) if d < len(self.opp_piles[p])]
        for r in range(len(tops) + 1):
            for combo in combinations(tops, r):
                fixed = [c for _, c in combo] + ([h] if h >= 0 else [])
                pids = tuple(p for p, _ in combo)
                fmask = sum(1 << c for c in fixed)
                if not fixed:
                    for m in subs:
                        if m & (m - 1) == 0:  # one card: any of its values (R1)
                            for v in self.vals[m.bit_length() - 1]:
                                if v <= top:
                                    out.setdefault(v, []).append((m, pids, m))
                        elif sums[m] <= top:
                            out.setdefault(sums[m], []).append((m, pids, m))
                    continue
                sf = sum(self.low[c] for c in fixed)
                if len(fixed) == 1:
                    for v in self.vals[fixed[0]]:
                        if v <= top:
                            out.setdefault(v, []).append((0, pids, fmask))
                elif sf <= top:
                    out.setdefault(sf, []).append((0, pids, fmask))
                for m in subs:
                    s = sf + sums[m]
                    if s <= top:
                        out.setdefault(s, []).append((m, pids, fmask | m))
        self._set_cache[key] = out
        return out

    def plist(self, loose: int, v: int) -> list[int]:
        """Loose masks made of disjoint groups worth `v` (a card of value v, or a set summing to v), 0 too."""
        key = (loose, v)
        cached = self._plist_cache.get(key)
        if cached is not None:
            return cached
        groups = [m for m, pids, _ in self.sets(loose, tuple(len(p) for p in self.opp_piles)).get(v, ())]
        results = {0}
        for g in groups:
            results |= {r | g for r in results if not r & g}
        out = sorted(results)
        self._plist_cache[key] = out
        return out

    # ---- builds --------------------------------------------------------------------------------------

    def combined_owner(self, owners: Iterable[int]) -> int:
        """The owner of the side's builds of one value combined with a new set (T8, R9)."""
        owners = list(owners)
        if _R in owners:
            return _R
        if _A in owners or self.seat in owners:
            return _A
        if self.partner is not None and self.partner in owners:
            return self.partner
        return _N

    @staticmethod
    def _depths_after(depths: tuple[int, ...], pids: tuple[int, ...]) -> tuple[int, ...]:
        if not pids:
            return depths
        nd = list(depths)
        for p in pids:
            nd[p] += 1
        return tuple(nd)

    def free_moves(
        self, state: _State, allowed_new: frozenset[int], mark_values: frozenset[int], only: int | None = None
    ) -> Iterator[tuple[int, _State]]:
        """States one free action (no hand card, T2, T3) away. `mark_values`: values of opponents' builds
        that may be added to (empty after the hand card, T3); `only`: list only actions of this value and
        actions that take an opponent's pile card (see ``play``). Each state comes with the value of the
        build it starts, or 0 when it starts none."""
        loose, depths, builds = state
        by_value = self.sets(loose, depths)
        marked_value = next((b[1] for b in builds if b[4]), None)
        valued: dict[int, list[_Build]] = {}
        for b in builds:
            valued.setdefault(b[1], []).append(b)
        side_owners = self.side_owners
        for value, all_sets in by_value.items():
            sets = all_sets if only is None or value == only else [x for x in all_sets if x[1]]
            if not sets:
                continue
            here = valued.get(value, ())
            side = [b for b in here if b[2] in side_owners]
            opp = [b for b in here if b[2] not in side_owners]
            if opp:
                # T3: an opponent's build only as the build the hand card will capture; R9/T15: nothing else
                if value in mark_values and marked_value in (None, value):
                    for b in opp:
                        rest = [x for x in builds if x is not b]
                        for m, pids, cm in sets:
                            nb = (b[0] | cm, value, b[2], True, True)
                            yield 0, (loose & ~m, self._depths_after(depths, pids), tuple(sorted(rest + [nb])))
                continue
            if side:
                # T2b, R9: one more set for the side's build(s) of the value, combined
                rest = [x for x in builds if x not in side]
                base = 0
                for b in side:
                    base |= b[0]
                owner = self.combined_owner(b[2] for b in side)
                for m, pids, cm in sets:
                    nb = (base | cm, value, owner, True, False)
                    yield 0, (loose & ~m, self._depths_after(depths, pids), tuple(sorted(rest + [nb])))
                continue
            if value not in allowed_new:
                continue  # T7: R6 "only ... if you have a card in your hand which can later capture that build"
            # T2a: a new build, its base of layout cards
            for base, pids, _ in all_sets:
                if pids:
                    continue
                if base & (base - 1) and sets is all_sets:
                    nb = (base, value, _N, False, False)
                    yield value, (loose & ~base, depths, tuple(sorted(builds + (nb,))))
                else:  # (with `only` another value, a base of two cards or more comes with a pile set too)
                    for m, p2, cm in sets:
                        if m & base:
                            continue
                        nb = (base | cm, value, _N, True, False)
                        nd = self._depths_after(depths, p2)
                        yield value, (loose & ~base & ~m, nd, tuple(sorted(builds + (nb,))))

    def closure(
        self, state: _State, allowed_new: frozenset[int], mark_values: frozenset[int], only: int | None = None
    ) -> set[_State]:
        """Every state reachable by free actions (T1), the state itself included."""
        seen = {state}
        stack = [state]
        while stack:
            s = stack.pop()
            for _, t in self.free_moves(s, allowed_new, mark_values, only):
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return seen

    # ---- the hand card (T5, T6, T12, T13) --------------------------------------------------------------

    def hand_actions(
        self, state: _State, h: int, touching: bool = False, only: int | None = None, discard: bool = True
    ) -> Iterator[tuple[_State, int, int, frozenset[int]]]:
        """(state, discarded card or -1, captured mask, partner values proven) after playing `h`.

        `touching`: list only the actions that use what the free actions before them changed (a build
        made or added to, a pile card they uncovered); any other action gives no end result that playing
        it first, then the same free actions, does not give. `only`: list only the captures, builds and
        raises of this value; `discard`: list the discard. (Speed-ups: see ``play``.)
        """
        loose, depths, builds = state
        marked = [b for b in builds if b[4]]
        fresh = self.start_set
        deep = {p for p, d in enumerate(depths) if d}
        after_values = self._after_values[h]
        # T13, R2: capture
        for v in self.vals[h]:
            if only is not None and v != only:
                continue
            if marked and any(b[1] != v for b in marked):
                continue  # T3: the marked build must be taken by this card
            same = [b for b in builds if b[1] == v]
            for r in range(len(same) + 1):
                for taken in combinations(same, r):
                    if any(b not in taken for b in marked):
                        continue
                    if touching and all(b in fresh for b in taken):
                        continue
                    rest = tuple(b for b in builds if b not in taken)
                    tmask = 0
                    proven = set()
                    for b in taken:
                        tmask |= b[0]
                        if self.partner is not None and b[2] == self.partner:
                            proven.add(b[1])  # T10
                    for m in self.plist(loose, v):
                        if not m and not taken:
                            continue
                        yield (loose & ~m, depths, rest), -1, (1 << h) | m | tmask, frozenset(proven)
        if marked:
            return  # T3: only a capture can follow an opponent's build added to
        # T5, R6, R7, R9: build with the hand card
        for value, sets in self.sets(loose, depths, h).items():
            if only is not None and value != only:
                continue
            if any(b[1] == value and not self.mover_side(b[2]) for b in builds):
                continue  # R7, R9
            side = [b for b in builds if b[1] == value and self.mover_side(b[2])]
            if side:
                rest = [x for x in builds if x[1] != value or not self.mover_side(x[2])]
                base = 0
                for b in side:
                    base |= b[0]
                owner = self.combined_owner(b[2] for b in side)
                changed = not all(b in fresh for b in side)
                for m, pids, cm in sets:
                    if touching and not changed and not deep.intersection(pids):
                        continue
                    nb = (base | cm, value, owner, True, False)
                    nd = self._depths_after(depths, pids)
                    yield (loose & ~m, nd, tuple(sorted(rest + [nb]))), -1, 0, frozenset()
                continue
            if value not in after_values and value not in self.declared:
                continue  # T7 (checked in full at the end)
            layout_bases = [m for m, pids, _ in self.sets(loose, depths).get(value, ()) if not pids]
            for m, pids, cm in sets:
                if touching and not deep.intersection(pids):
                    continue
                nd = self._depths_after(depths, pids)
                if m and not pids:
                    nb = (cm, value, _N, False, False)  # T5: floor card(s) and the hand card, a base
                    yield (loose & ~m, nd, tuple(sorted(builds + (nb,)))), -1, 0, frozenset()
                    continue
                for base in layout_bases:  # T5, D3: a separate base of layout cards
                    if base & m:
                        continue
                    nb = (cm | base, value, _N, True, False)
                    yield (loose & ~m & ~base, nd, tuple(sorted(builds + (nb,)))), -1, 0, frozenset()
        # T6, R8, D4, D5: raise an opponent's single build with the hand card alone
        for b in builds:
            if self.mover_side(b[2]) or b[3]:
                continue
            value = b[1] + self.low[h]
            if only is not None and value != only:
                continue
            if value > self.max_value or value not in after_values:
                continue  # R16; D7 (checked in full at the end)
            if any(x[1] == value and not self.mover_side(x[2]) for x in builds):
                continue  # R9
            side = [x for x in builds if x[1] == value and self.mover_side(x[2])]
            if touching and all(x in fresh for x in side):
                continue
            rest = [x for x in builds if x is not b and x not in side]
            cards = b[0] | (1 << h)
            for x in side:
                cards |= x[0]
            nb = (cards, value, _R, bool(side), False)
            yield (loose, depths, tuple(sorted(rest + [nb]))), -1, 0, frozenset()
        # R11, T12: discard
        if touching or not discard:
            return
        if self.discard_ban and any(self.mover_owns(b[2]) for b in builds):
            return
        yield state, h, 0, frozenset()

    # ---- the end of the turn (T7-T11) --------------------------------------------------------------

    def holds(self, hand: list[int], value: int) -> bool:
        return any(self.low[c] != 1 and self.low[c] == value for c in hand)

    def hold_ok(self, kept: list[int], need: list[int], after: list[int]) -> bool:
        """[Ref]'s holding rule (R6, R12, D2): `kept` builds of the mover's from before the turn, `need`
        builds that need a card of their value in the hand left."""
        ace_kept = 0
        for w in kept:
            if w in self.ace_values:
                ace_kept += 1
            elif self.holds(self.hand, w) and not self.holds(after, w):
                return False  # R12
        need_aces = min(self.aces_before, ace_kept)
        for w in need:
            if w in self.ace_values:
                need_aces += 1
            elif not self.holds(after, w):
                return False  # R6
        return sum(1 for c in after if self.low[c] == 1) >= need_aces

    def cards_text(self, mask: int) -> tuple[str, ...]:
        out = self._names_cache.get(mask)
        if out is None:
            out = self._names_cache[mask] = tuple(sorted(self.names[c] for c in _bits(mask)))
        return out

    def end_owners(
        self, sig: tuple[tuple[int, int, bool], ...], h: int, proven: frozenset[int]
    ) -> list[tuple[int, ...]]:
        """For builds left at the end of the turn, given as (value, owner or code, augmented as an
        opponent's), each legal choice of their owners' seats (T9); none when the turn may not end there
        (T3, T7, T11)."""
        key = (sig, h, proven)
        cached = self._end_cache.get(key)
        if cached is not None:
            return cached
        result: list[tuple[int, ...]] = []
        self._end_cache[key] = result
        if any(marked for _, _, marked in sig):
            return result  # T3: an opponent's build added to and not captured
        after = [c for c in self.hand if c != h]
        declared = self.declared | proven
        kept: list[int] = []
        need: list[int] = []
        options: list[tuple[int, ...]] = []
        mover_values: set[int] = set()
        taken_over = False
        for value, owner, _ in sig:
            if owner == self.seat:
                kept.append(value)  # R12
                mover_values.add(value)
                options.append((self.seat,))
            elif owner == _A:
                # T7: R14/D8 waive the holding rule for a build added to; R12 still holds for it
                (kept if value in self.partner_known else need).append(value)
                mover_values.add(value)
                options.append((self.seat,))
            elif owner == _R:
                need.append(value)  # D7: never waived
                mover_values.add(value)
                taken_over = True
                options.append((self.seat,))
            elif owner == _N:
                if self.partner is not None and value in declared:
                    options.append((self.seat, self.partner))  # T9
                else:
                    options.append((self.seat,))
            else:
                options.append((owner,))
        for choice in product(*options):
            mine = [v for (v, o, _), c in zip(sig, choice) if o == _N and c == self.seat]
            if not self.hold_ok(kept, need + mine, after):
                continue  # T7
            if self.one_per_player and (taken_over or mine) and len(mover_values.union(mine)) >= 2:
                continue  # T11, R15
            result.append(choice)
        return result

    def end_builds(
        self, builds: tuple[_Build, ...], h: int, proven: frozenset[int]
    ) -> list[tuple[tuple[tuple[str, ...], int, int, bool], ...]]:
        """The builds an end of the turn leaves, written for the Outcome, once for each legal choice of
        owners; empty when the turn may not end here."""
        choices = self.end_owners(tuple((b[1], b[2], b[4]) for b in builds), h, proven)
        if not choices:
            return []
        texts = [self.cards_text(b[0]) for b in builds]
        return [
            tuple(sorted((t, b[1], o, b[3]) for t, b, o in zip(texts, builds, choice))) for choice in choices
        ]

    # ---- the whole turn ------------------------------------------------------------------------------

    def play(self) -> set[Outcome]:
        hand_values = self.values_of(self.hand)
        # T7: before the hand card, a new build needs a card of the whole hand (or a proven value, R14)
        # Speed-ups, neither of which changes the end results:
        # * a hand action of value V (a capture at V, a build or raise to V) is tried after free actions of
        #   value V and free actions that take a pile card only: a free action of another value with layout
        #   cards alone changes nothing that action uses, and can as well follow it;
        # * after free actions, only hand actions that use what they changed are tried (``touching``). Any
        #   other hand action commutes with those free actions: played first, from the starting position,
        #   it has the same choices, and the free actions can follow it (a new build of a value needs, at
        #   the end, a card of it kept or the partner's proof, which is what allows it after the hand card;
        #   additions to the side's builds are always allowed; the cards they use are untouched by it).
        starts: dict[int, set[tuple[_State, int, int, frozenset[int]]]] = {
            h: set(self.hand_actions(self.start, h, only=-1)) for h in self.hand  # the discard (R11)
        }
        for v in range(1, self.max_value + 1):
            # T7: before the hand card, a new build needs a card of the whole hand (or a proven value, R14)
            marks = frozenset({v}) & hand_values
            for s1 in self.closure(self.start, hand_values | self.declared, marks, only=v):
                touching = s1 != self.start
                hands = self.hand
                if touching and not any(b[1] == v and b not in self.start_set for b in s1[2]):
                    # no build of value v changed: only a build of v with the hand card and a pile card the
                    # free actions uncovered uses what they did (R9: none beside an opponent's build of v)
                    loose, depths, builds = s1
                    deep = [
                        self.low[self.opp_piles[p][d]]
                        for p, d in enumerate(depths)
                        if d and d < len(self.opp_piles[p])
                    ]
                    if not deep or any(b[1] == v and b[2] not in self.side_owners for b in builds):
                        continue
                    hands = [h for h in self.hand if self.low[h] + min(deep) <= v]
                for h in hands:
                    starts[h].update(self.hand_actions(s1, h, touching, only=v, discard=False))
        seen: set[tuple[_State, tuple[int, int, int, frozenset[int]]]] = set()
        succ: dict[_State, tuple[tuple[int, _State], ...]] = {}
        none: frozenset[int] = frozenset()
        every = frozenset(range(1, self.max_value + 1))
        outcomes: set[Outcome] = set()
        for h in self.hand:
            allowed = self.values_of(c for c in self.hand if c != h) | self.declared
            hand_text = tuple(sorted(self.names[c] for c in self.hand if c != h))
            for s2, dead, captured, proven in starts[h]:
                # T1: free actions after the hand card (T7: for the hand left; T10: and values now proven)
                al = allowed | proven
                ctx = (h, dead, captured, proven)
                cap = self.cards_text(captured)
                dead_mask = 1 << dead if dead >= 0 else 0
                stack = [s2]
                while stack:
                    s = stack.pop()
                    key = (s, ctx)
                    if key in seen:
                        continue
                    seen.add(key)
                    loose, depths, builds = s
                    alts = self.end_builds(builds, h, proven)
                    if not alts:
                        # every later free action only adds builds or sets to a build, which keeps the turn
                        # from ending legally (T7, T11): nothing after this state is an end result
                        continue
                    table = self.cards_text(loose | dead_mask)
                    piles = tuple(
                        self.pile_sizes[i] if o is None else self.pile_sizes[i] - depths[o]
                        for i, o in enumerate(self.opp_of_entry)
                    )
                    for alt in alts:
                        outcomes.add((hand_text, table, alt, piles, cap))
                    nxt = succ.get(s)
                    if nxt is None:
                        nxt = succ[s] = tuple(set(self.free_moves(s, every, none)))
                    stack.extend(t for tag, t in nxt if not tag or tag in al)
        return outcomes


def whole_turns(position: dict[str, Any]) -> set[Outcome]:
    """Every distinct end result of a whole turn of the player to move (see the module docstring)."""
    return _Turn(position).play()

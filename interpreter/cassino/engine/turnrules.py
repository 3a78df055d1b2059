"""Rules a whole move answers to, beyond what its cards allow: African Casino's building.

Move generation (``movegen``) lists what the cards allow: which sets are worth a value,
which builds a card may raise or add to. A few rules of African Casino (issue 36) speak
of the whole turn instead, and each is a named setting:

- ``capture.pile_cards: augment``: a card from an opposing capture pile only augments.
  It joins a set worth the move's value beside a *base* (a set of layout cards, or a build,
  worth that value, holding no pile card); a set takes at most one card of a pile, and the
  card under a taken one is in play only for a later set of the same move. So a pile card
  is never captured directly (the Khasino rules, 4. Augmenting a card or build).
- ``build.one_per_value``: no two builds of one value on the table.
- ``build.one_per_player``: a player owns one build at a time.
- ``build.augment_opponents: false``: another side's build grows only when it is captured.
- ``build.raise_partners: false``: a partner's build is not raised.
- ``build.raise_for_partner: false``: a build is raised only to a value the raiser holds a card of.

:class:`TurnRules` checks a listed move against the settings that are on and says why it is
refused. The engine leaves refused moves out of its listing, and ``reasons`` gives the same
words to a player, so what is legal and what a player is told never disagree. The generator
makes none of the commonest refusals in the first place (``movegen.generate``'s ``pruned``: a set
with two cards of one pile, a pile card without the card above it, pile cards with nothing beside them
that could be a base, a new build beside a build of its value), so a listing stays near the size of what
is kept; the check here still decides. Nothing here
runs for a variant with none of these settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .movegen import PLAYED_SHIFT, SPLIT_ITEMS, VALUE_BITS, VALUE_SHIFT, bits, deposit, popcount
from .moves import Move, MoveKind
from .notation import cards_text
from .state import Build, HandState
from .tables import BUILD, CAPTURE, TRAIL, TRAIL_BUILD

if TYPE_CHECKING:  # pragma: no cover
    from .core import Engine

#: Each whole-move rule by the flag of :class:`TurnRules` that holds it, and the flag's value when
#: the rule is on (two are settings that allow something, off when false).
RULES: Final = {"augment": True, "augment_opponents": False, "raise_partners": False,
                "raise_for_partner": False, "one_per_value": True, "one_per_player": True}

#: A set search gives up beyond this many items (such a move is then left as generation lists it).
_MAX_ITEMS: Final = SPLIT_ITEMS
#: The most answers of the set search (``_augments``) one engine remembers; the memo is emptied when full.
#: A search's playouts ask the same questions again and again (in a South African decision of 16 deals,
#: 40,328 questions, 8,984 of them different), and an answer costs some 12,000 instructions compiled.
_SPLITS_MEMO: Final = 4096
#: From how many items ``_augments``' questions are remembered in no order (``TurnRules._sorted``).
SORTED_FROM: Final = 8


class TurnRules:
    """The whole-move rules of one engine's variant (see the module's docstring)."""

    def __init__(self, engine: "Engine", memo: int = _SPLITS_MEMO) -> None:
        if not isinstance(memo, int):
            raise TypeError(f"memo is how many answers the rules remember, a whole number, not {memo!r}")
        if memo < 0:
            raise ValueError(f"memo is how many answers the rules remember, 0 or more, not {memo!r}")
        rules = engine.rules
        c, b = rules.capture, rules.build
        self.engine = engine
        self.augment: bool = engine.tables.pile_augment
        #: Whether the played card alone is a base for a pile card (``capture.pile_base``).
        self.played_base: bool = c.pile_base == "layout_or_played"
        self.raise_partners: bool = b.raise_partners
        #: Read only where a build may be made for a partner's value: without ``for_partner`` the raiser holds the
        #: new value anyway (the build rules' own), and asking again here would only cost time.
        self.raise_for_partner: bool = b.raise_for_partner or not b.for_partner
        self.augment_opponents: bool = b.augment_opponents
        self.one_per_value: bool = b.one_per_value
        self.one_per_player: bool = b.one_per_player
        #: Whether any of these rules is on (the engine checks moves only then).
        self.active: bool = (self.augment or not self.raise_partners or not self.raise_for_partner
                             or not self.augment_opponents or self.one_per_value or self.one_per_player)
        #: ``_augments``' answers by its question (the items, the value, a base, the hand's items): it
        #: depends on nothing else, so a question asked again is answered from here. At most ``memo``
        #: answers (0: none remembered, every question searched afresh). Threads sharing an engine share it:
        #: an answer is the same whichever of them stores it.
        self._splits: dict[tuple[object, ...], int] = {}
        #: The same for questions of ``SORTED_FROM`` items or more, asked in no order (each item with whether it is
        #: one of the hand's), since a split is of a set: moves taking other cards of the same values ask one
        #: question (a crowded Swazi table's 41,791 questions were 2,980, its listing 4.1 -> 0.9 s in pure Python).
        #: Fewer items are asked as they come: sorting them cost more than it saved (South African playouts).
        self._sorted: dict[tuple[object, ...], int] = {}
        self._splits_limit = memo

    def on(self, rule: str) -> bool:
        """Whether the whole-move rule ``rule`` (a name of :data:`RULES`) is on here."""
        return bool(getattr(self, rule) == RULES[rule])

    def alone(self, rule: str) -> "TurnRules":
        """These rules with only ``rule`` on: which of them refuses a move (the tutorial's
        question: the lesson due is the rule's that decided what the player could do)."""
        only = TurnRules(self.engine)
        only.augment = rule == "augment"
        only.augment_opponents = rule != "augment_opponents"
        only.raise_partners = rule != "raise_partners"
        only.raise_for_partner = rule != "raise_for_partner"
        only.one_per_value = rule == "one_per_value"
        only.one_per_player = rule == "one_per_player"
        only.active = True
        return only

    # ------------------------------------------------------------------ words
    def _names(self, mask: int) -> str:
        return " ".join(cards_text(self.engine.deck, mask))

    def _label(self, b: Build) -> str:
        return f"the build of {b.value} [{self._names(b.cards)}]"

    def _capture_instead(self, state: HandState, loose: int, used: tuple[Build, ...]) -> str:
        """", as `7S capture [3H 4S] 2C 5D` does": the capture by a hand card of the same cards (loose and builds)
        where one is legal, or ""."""
        from .notation import format_move   # (here, as reasons are worded: the check's imports stay few)
        hand = state.hands[state.turn] if not state.turn_card else 0
        builds = tuple(sorted(x.cards for x in used))
        for c in bits(hand):
            move = Move(MoveKind.CAPTURE, 1 << c, loose, builds)
            if self.engine.is_legal(state, move):
                return f", as `{format_move(move, self.engine.deck)}` does"
        return ""

    # ------------------------------------------------------------------ the check
    def refusal(self, state: HandState, move: Move) -> str | None:
        """Why ``move`` (legal by its cards) breaks a whole-move rule, or None where it does not."""
        return self._on_move(state, move, True)

    def refuses(self, state: HandState, move: Move) -> bool:
        """Whether a whole-move rule refuses ``move``: ``refusal``'s answer without its words."""
        return self._on_move(state, move, False) is not None

    def _on_move(self, state: HandState, move: Move, explain: bool) -> str | None:
        if not self.active:
            return None
        used = tuple(x for x in state.builds if x.cards in move.builds)
        return self._verdict(state, _Piles(state), _KIND_CODE[move.kind], move.played, move.loose, used, move.value,
                             explain)

    def keep(self, state: HandState, keys: list[int]) -> list[int]:
        """The move keys of ``state`` (``movegen``'s) that no whole-move rule refuses: read from
        the keys' bits, with no Move made and no reason worded (the engine's listing)."""
        if not self.active:
            return keys
        for key in keys:
            if key & 3 != TRAIL:
                break
        else:
            return keys   # (trails and the end of a turn alone, the most common listing after a turn's card)
        check = KeyCheck(self, state)
        out: list[int] = []
        for key in keys:
            if check.passes(key):
                out.append(key)
        return out

    def _split(self, items: list[tuple[tuple[int, ...], int, int]], value: int, has_base: bool,
               hand_items: int) -> int:
        """``_augments``' answer, from the memo where the same question was asked before."""
        limit = self._splits_limit
        if not limit:
            return _augments(items, value, has_base, hand_items)
        question: tuple[object, ...]
        if len(items) >= SORTED_FROM:
            memo = self._sorted
            marked = [(item[0], item[1], item[2], hand_items >> k & 1) for k, item in enumerate(items)]
            marked.sort()
            question = (tuple(marked), value, has_base)
        else:
            memo = self._splits
            question = (tuple(items), value, has_base, hand_items)
        answer = memo.get(question)
        if answer is None:
            if len(memo) >= limit:
                memo.clear()
            answer = memo[question] = _augments(items, value, has_base, hand_items)
        return answer

    def _verdict(self, state: HandState, piles: "_Piles", kind: int, played: int, loose: int,
                 used: tuple[Build, ...], value: int | str | None, explain: bool) -> str | None:
        """The rules on one move, given by its fields: a reason (worded only when ``explain``;
        else any non-empty text) or None."""
        if kind == BUILD or kind == TRAIL_BUILD:
            reason = self._builds(state, played, used, value, explain, loose)
            if reason:
                return reason
        if self.augment and kind != TRAIL:
            pile = loose & piles.mask
            if pile:
                return self._pile_cards(state, piles, kind, played, loose, used, value, pile, explain)
        return None

    def _builds(self, state: HandState, played: int, used: tuple[Build, ...], value: int | str | None,
                explain: bool, loose: int = 0) -> str | None:
        seat = state.turn
        side = state.teams[seat]
        raising = False
        for x in used:
            if x.value != value:
                raising = True
        if not self.raise_partners:
            for x in used:
                if x.value != value and x.owner != seat and state.teams[x.owner] == side:
                    return (f"your partner owns {self._label(x)}: a build is raised only when another side "
                            f"owns it") if explain else _NO
        # The Khasino rules, 3. Changing the value of a single build: "you have a card in your hand that
        # matches the new value of the build": a value your partner is proven to hold is built for them,
        # never raised to (``build.raise_for_partner: false``; before it was a setting of its own, a house rule
        # letting partners raise each other's builds dropped this rule with it).
        if raising and not self.raise_for_partner and value is not None:
            tables = self.engine.tables
            rest = state.hands[seat] & ~played
            if not tables.cap_codes_of(rest) >> tables.code(value) & 1:
                return (f"a build's value is changed only to a value you hold a card of yourself: no card "
                        f"of {value} is left in your hand (your partner's card does not count)") \
                    if explain else _NO
            # (``build.keep_capturing_card``: one card answers for one build value, so the card of the new
            # value is one not kept for another of the mover's builds: an ace kept for a build of 1 does
            # not also answer for a raise to 14.)
            if not self.engine._answers_with(rest, tuple(x for x in state.builds if x not in used), seat,
                                             tables.code(value)):
                return (f"a build's value is changed only to a value you hold a card of yourself, and one card "
                        f"answers for one build: your card of {value} is the one you keep for another of your "
                        f"builds") if explain else _NO
        if not self.augment_opponents:
            for x in used:
                if x.value == value and state.teams[x.owner] != side:
                    # (not "only in the turn you capture it": a turn of several actions read that as letting a
                    # build of cards in play add to it before the hand's card takes it, which this refuses)
                    return (f"{self._label(x)} belongs to another side: add to it only with the card that captures "
                            f"it, in the same action, which takes the cards you would add with the build"
                            f"{self._capture_instead(state, loose, used) if played == 0 else ''}") \
                        if explain else _NO
        # Adding to a build you hold, or making a build that stays your partner's (added to one of your
        # side's, or built for the value your partner is proven to hold, with no card of it kept: the
        # engine makes you its holder when you keep one), forms no other build of your own: the one-build
        # limit does not stop it ([Kh] 2. "to form a new build of your own; that is if you don't have
        # another one already"; Special rules for partnership play: a build for the partner "will be owned
        # by your partner").
        own_build = self.one_per_player and (raising or not self._not_own(state, played, used, value))
        # A new build made for the partner (their proven value, no card of it kept) is the partner's: not a
        # second one of theirs either.
        partner = -1
        if self.one_per_player and not own_build and not any(x.value == value for x in used):
            p = self.engine.partner_of(state, seat)
            partner = p if p is not None else -1
        if self.one_per_value or self.one_per_player:
            for x in state.builds:
                if x in used:
                    continue
                if self.one_per_value and x.value == value:
                    if not explain:
                        return _NO
                    if any(u.value != value for u in used):
                        how = ("nothing is added to a build here, so no build is raised to its value"
                               if not self.engine.rules.build.add_sets else
                               "a build raised to a value already built joins that build in the same move"
                               if state.teams[x.owner] == side or self.augment_opponents else
                               "it belongs to another side, so a build is not raised to its value")
                    elif not self.engine.rules.build.add_sets:
                        how = "nothing is added to a build here, so no build of its value is made beside it"
                    elif state.teams[x.owner] == side or self.augment_opponents:
                        how = "join it, adding to it"
                    else:
                        how = "it belongs to another side, so take it rather than build beside it"
                    return f"there is already {self._label(x)}, and no two builds have one value: {how}"
                # (the owner the rules mean is who must capture it: a build made for a partner is theirs)
                if partner >= 0 and x.holder == partner:
                    if not explain:
                        return _NO
                    return (f"your partner owns {self._label(x)}: a player owns one build at a time, and a build "
                            f"of {value} made for your partner would be a second one of theirs")
                if own_build and x.holder == seat:
                    if not explain:
                        return _NO
                    if not raising and self._not_own(state, played, used, value, False):
                        # (for the partner, but a card of the value kept: the mover would take it over)
                        return (f"you own {self._label(x)}: a player owns one build at a time, and keeping a card "
                                f"of {value} you would take this build of {value} over as a second one; play it "
                                f"keeping no card of {value}, or capture your build first")
                    return (f"you own {self._label(x)}: a player owns one build at a time; add to it or "
                            f"capture it before you start or take over another")
        return None

    def _not_own(self, state: HandState, played: int, used: tuple[Build, ...], value: int | str | None,
                 kept_counts: bool = True) -> bool:
        """Whether a build move of ``value`` (not a raise) adds to a build the mover holds, or makes a
        build the mover will not hold: added to a build of the mover's side, or of a value the partner is
        proven to hold (``build.for_partner``), with no card of the value left in the mover's hand (not
        asked when ``kept_counts`` is false)."""
        seat = state.turn
        side = state.teams[seat]
        partnered = False
        for x in used:
            if x.value == value:
                if x.holder == seat:
                    return True
                if state.teams[x.owner] == side:
                    partnered = True
        if not partnered and isinstance(value, int) and self.engine.rules.build.for_partner and state.proven:
            partner = self.engine.partner_of(state, seat)
            partnered = partner is not None and value in state.proven[partner]
        if not partnered or value is None:
            return False
        if not kept_counts:
            return True
        tables = self.engine.tables
        return not tables.cap_codes_of(state.hands[seat] & ~played) >> tables.code(value) & 1

    def discard_barred(self, state: HandState) -> bool:
        """Whether the player to move may not discard (``build.owner_obligation: no_trail`` in force: they
        own a build, in a deal where the obligation holds)."""
        tables = self.engine.tables
        if tables.obligation != 1 or not (tables.obligation_in_last_deal or bool(state.stock)):
            return False
        for x in state.builds:
            if x.owner == state.turn:
                return True
        return False

    # ------------------------------------------------------------------ pile cards
    def _pile_cards(self, state: HandState, piles: "_Piles", kind: int, played: int, loose: int,
                    used: tuple[Build, ...], value: int | str | None, pile: int, explain: bool) -> str | None:
        """``capture.pile_cards: augment`` for a move that uses the pile cards ``pile``."""
        where = piles.where
        for card in bits(pile):
            side, depth = where[card]
            if depth and not pile >> piles.stacks[side][-depth] & 1:
                if not explain:
                    return _NO
                above = piles.stacks[side][-depth]
                return (f"{self._names(1 << card)} lies under {self._names(1 << above)} in a capture pile: it is "
                        f"in play only once {self._names(1 << above)} is taken, in an earlier set of the same move")
        engine = self.engine
        # (A base needs something besides pile cards: the quick refusal of most listed moves.)
        if not explain and not (loose & ~pile or used or (kind == BUILD and played)):
            return _NO
        fixed = 0          # builds taken or joined at their own value: sets of their own (a base)
        hand_items = 0     # the items that are the played card, where it is no base on its own
        items: list[tuple[tuple[int, ...], int, int]] = []   # (values, pile or -1, depth)
        taken: tuple[Build, ...] = ()
        if kind == CAPTURE:
            codes = engine.tables.cap_codes_of(played)
            values = [v for v in bits(codes) if v < engine.tables.rank_code_base]
            taken = used
        else:
            values = [value] if isinstance(value, int) else []
            raised: list[int] = []   # the values of the builds the move raises
            for x in used:
                if x.value != value and isinstance(x.value, int):
                    raised.append(x.value)
            if kind == BUILD and raised and played:
                # A build changes its value by the card from the hand added to it ([Kh] 3. "you change the
                # value by adding a single card from your hand"): the two are one item, never split
                # apart so that a pile card raises the build while the hand card makes a set of its own.
                for i in bits(played):
                    items.append((tuple(raised[0] + v for v in engine.hv[i]), -1, 0))
                items += [((r,), -1, 0) for r in raised[1:]]
            else:
                if kind == BUILD:
                    # (``capture.pile_base: layout``: never a base on its own; ``layout_or_played``: a base as
                    # a card discarded then augmented, so not where the player may not discard: the Khasino
                    # rules, 5. "The only time the Discard move is prohibited is when you are playing a 2
                    # hands game and you have built a card and it is the first round")
                    if not self.played_base or self.discard_barred(state):
                        hand_items = ((1 << popcount(played)) - 1) << len(items)
                    items += [(engine.hv[i], -1, 0) for i in bits(played)]
                items += [((r,), -1, 0) for r in raised]
            fixed = sum(1 for x in used if x.value == value)
        for i in bits(loose):
            side, depth = where.get(i, (-1, 0))
            items.append((engine.tv[i], side, depth))
        if not values:
            return None
        # (Too many items to search their splits: the move stands unless a count alone rules it out.)
        large = len(items) > _MAX_ITEMS
        found = _NONE
        for v in values:
            if taken:
                fixed = sum(1 for x in taken if x.value == v)   # the builds a capture by v takes
            if large:
                if not _counted_out(items, v, fixed > 0):
                    return None
                continue
            if self.one_per_value and kind == CAPTURE:
                left = [x for x in state.builds if x not in taken and x.value == v]
                if left and not fixed:
                    found = max(found, _SPLIT)   # a loose card or set of v beside a build of v is no base
                    continue
            if not explain and not fixed and _no_base(items, v, hand_items):
                continue   # (no set of the move could be a base: refused without searching its splits)
            found = max(found, self._split(items, v, fixed > 0, hand_items))
            if found == _LEGAL:
                return None
        if not explain:
            return _NO
        v_text = str(values[0]) if len(values) == 1 else " or ".join(str(x) for x in values)
        if found == _BASED:
            return ("the cards of a capture pile are taken from the top down, one card of a pile a set: the card "
                    "under another comes only in a later set of the same move")
        if found == _SPLIT and hand_items and self.played_base:
            return (f"the card you play is a base for a pile card only as a discard augmented in the same turn, "
                    f"and you own a build, so you may not discard now: a pile card augments a base worth {v_text} "
                    f"from the layout (a loose card, a set of loose cards or a build)")
        if found == _SPLIT:
            return (f"a card from a capture pile is never taken or built alone: it only augments a base worth "
                    f"{v_text} from the layout (a loose card, a set of loose cards or a build, with no pile card "
                    f"in it)")
        return (f"the cards do not split into sets worth {v_text} that take at most one card of a capture pile "
                f"each")


#: A refusal not worded (``keep``: the engine needs only whether).
_NO: Final = "refused"

def _high_bit(mask: int) -> int:
    """The index of the highest set bit of ``mask`` (a one-card mask: its card)."""
    return mask.bit_length() - 1


#: No pile card lies under another in play.
_NO_PAIRS: Final[list[tuple[int, int]]] = []

_KIND_CODE: Final = {MoveKind.TRAIL: TRAIL, MoveKind.END: TRAIL, MoveKind.CAPTURE: CAPTURE, MoveKind.BUILD: BUILD,
                     MoveKind.TRAIL_BUILD: TRAIL_BUILD}


class _Piles:
    """Where the cards of the opposing piles in reach lie, for one position: ``mask`` (the pile
    cards in play), ``where`` (card -> its pile and how many cards lie above it), ``stacks``."""

    def __init__(self, state: HandState) -> None:
        self.stacks = state.stacks
        self.mask = state.pile_tops()
        self._where: dict[int, tuple[int, int]] | None = None

    def under(self) -> list[tuple[int, int]]:
        """Each pile card in play that lies under another, and the card above it (one-card masks)."""
        out: list[tuple[int, int]] = []
        mask = self.mask
        for stack in self.stacks:
            above = -1
            for card in reversed(stack):
                if not mask >> card & 1:
                    break
                if above >= 0:
                    out.append((1 << card, 1 << above))
                above = card
        return out

    @property
    def where(self) -> dict[int, tuple[int, int]]:
        # (worked out when a move first uses a pile card: most listings check none)
        where = self._where
        if where is None:
            where = {}
            mask = self.mask
            for side, stack in enumerate(self.stacks):
                for depth, card in enumerate(reversed(stack)):
                    if mask >> card & 1:
                        where[card] = (side, depth)
            self._where = where
        return where


class KeyCheck:
    """The whole-move rules on the move keys of one position (``movegen``'s), one key at a time: what
    ``TurnRules.keep`` asks of each key, its set-up done once. ``passes(key)`` says whether no rule
    refuses the key; it depends on the key and the position alone, never on the other keys, so a
    caller that wants one legal key (a playout's best-rated move) may check its keys in any order and
    stop at the first that passes (``Engine.unchecked_keys``)."""

    def __init__(self, rules: TurnRules, state: HandState) -> None:
        self.rules = rules
        self.state = state
        self.ready = False   # (the set-up below done when a key other than a trail is first asked about)
        self.tables = rules.engine.tables
        self.hand = 0
        self.h = 0
        self.in_play = 0
        self.n_loose = 0
        self.piles: _Piles | None = None
        self.pile_mask = 0
        self.augment = rules.augment
        self.under = _NO_PAIRS
        self.played_base = False
        self.builds = state.builds
        self.hv = rules.engine.hv

    def _set_up(self) -> None:
        rules = self.rules
        state = self.state
        hand = state.hands[state.turn]
        self.hand = hand
        self.h = popcount(hand)
        in_play = state.in_play()
        self.in_play = in_play
        self.n_loose = popcount(in_play)
        piles = _Piles(state)
        self.piles = piles
        pile_mask = piles.mask
        self.pile_mask = pile_mask
        augment = self.augment
        self.under = piles.under() if augment and pile_mask else _NO_PAIRS
        # (Whether the card played in a build may be a base for a pile card: ``_pile_cards``' hand items.)
        self.played_base = augment and bool(pile_mask) and rules.played_base and not rules.discard_barred(state)
        self.ready = True

    def passes(self, key: int) -> bool:
        """Whether no whole-move rule refuses the move ``key`` (a trail or a turn's end always passes)."""
        kind = key & 3
        if kind == TRAIL:
            return True
        if not self.ready:
            self._set_up()
        h = self.h
        n_loose = self.n_loose
        items = key >> (PLAYED_SHIFT + h)
        loose = deposit(items & ((1 << n_loose) - 1), self.in_play)
        building = kind == BUILD or kind == TRAIL_BUILD
        pile = loose & self.pile_mask
        if not building and not pile:
            return True          # a capture of layout cards only: nothing to check
        used_bits = items >> n_loose
        tables = self.tables
        if self.augment and pile:
            # The quick refusals of ``_pile_cards`` first, from the key's bits (most listed moves with a
            # pile card are refused so: only whether matters here, not which rule refuses first): a pile
            # card taken without the card above it, or pile cards with nothing beside them that could be
            # a base (a set with no pile card that is not the played card alone, where that is no base).
            if not (loose & ~pile or used_bits):
                played_bits = (key >> PLAYED_SHIFT) & ((1 << h) - 1) if kind == BUILD else 0
                if not played_bits:
                    return False
                # (a build with the played card beside pile cards alone: refused where that card is no base
                # alone, or is not worth the build's value by itself, unless the split is not searched at
                # all, as ``_pile_cards`` leaves it)
                worth = tables.value_of((key >> VALUE_SHIFT) & VALUE_BITS)
                if isinstance(worth, int) and popcount(played_bits) + popcount(pile) <= _MAX_ITEMS:
                    if not self.played_base:
                        return False
                    if not played_bits & (played_bits - 1) \
                            and worth not in self.hv[_high_bit(deposit(played_bits, self.hand))]:
                        return False
            for pair in self.under:
                if pile & pair[0] and not pile & pair[1]:
                    return False
        builds = self.builds
        used = tuple(b for j, b in enumerate(builds) if used_bits >> j & 1)
        played = deposit((key >> PLAYED_SHIFT) & ((1 << h) - 1), self.hand)
        value = tables.value_of((key >> VALUE_SHIFT) & VALUE_BITS) if building else None
        piles = self.piles
        assert piles is not None   # (set up above)
        return self.rules._verdict(self.state, piles, kind, played, loose, used, value, False) is None


#: How far a move's sets get under ``capture.pile_cards: augment`` (see ``_augments``).
_NONE: Final = 0      # no split into sets of the value with one card of a pile a set
_SPLIT: Final = 1     # such a split, but none with a base
_BASED: Final = 2     # a split with a base, but no order that takes each pile top down
_LEGAL: Final = 3


def _counted_out(items: list[tuple[tuple[int, ...], int, int]], value: int, has_base: bool) -> bool:
    """Whether ``items``, every one of a single value, surely make no split into sets worth ``value`` with
    at most one card of a pile a set and a base among them (``_augments``' question), by counting alone:
    their total is not a whole number of sets, or one pile gives more cards than there are sets that may
    hold a pile card (every set, less one for the base where no build taken or joined is one). A move too
    large for the split search (``_MAX_ITEMS``) is refused only so; an item of several values answers no."""
    if value <= 0:
        return False
    total = 0
    per_pile: dict[int, int] = {}
    for values, side, _depth in items:
        if len(values) != 1:
            return False
        total += values[0]
        if side >= 0:
            per_pile[side] = per_pile.get(side, 0) + 1
    if total % value:
        return True
    sets = total // value
    return max(per_pile.values(), default=0) > sets - (0 if has_base else 1)


def _no_base(items: list[tuple[tuple[int, ...], int, int]], value: int, hand_items: int) -> bool:
    """Whether no set of ``items`` worth ``value`` could be a base: none holds no pile card and an item
    outside ``hand_items`` (``_augments``' base, where no build taken or joined is one). Then no split of
    the move has a base, and ``_augments`` would find none (``_SPLIT`` at best): a quick refusal, by the
    sums the items' non-pile cards reach (bit s of a mask: a set worth s), not by their splits."""
    if value <= 0:
        return False
    within = (2 << value) - 1
    hand_only = 1    # the sums of sets of hand items alone (the empty set's 0 among them)
    with_other = 0   # the sums of sets holding an item outside ``hand_items``
    for k in range(len(items)):
        item_values, side, _depth = items[k]
        if side >= 0:
            continue   # a pile card: never in a base
        grown_hand = hand_only
        grown_other = with_other
        for v in item_values:
            if 0 < v <= value:
                if hand_items >> k & 1:
                    grown_hand |= hand_only << v
                    grown_other |= with_other << v
                else:
                    grown_other |= (with_other | hand_only) << v
        hand_only = grown_hand & within
        with_other = grown_other & within
    return not with_other >> value & 1


def _augments(items: list[tuple[tuple[int, ...], int, int]], value: int, has_base: bool,
              hand_items: int = 0) -> int:
    """How far ``items`` get (``_NONE`` to ``_LEGAL``): a split into sets each worth ``value``,
    each set holding at most one card of a pile; with a base among them (``has_base``, or a set
    with no pile card that is not ``hand_items`` alone: the played card, where it is no base on its
    own); and an order of the sets in which each pile is taken from the top down
    (a pile's card at depth d in a later set than its card at depth d - 1).

    The pile cards (a few) are given their sets first, each set tried in turn; what is left is
    layout cards alone, and whether they split into sets of ``value`` is remembered by what is
    left, so a table of many small cards is not split again for every way of placing the pile
    cards. (The search is an object's methods, not nested functions: a recursive nested function
    is a reference cycle, which only the cyclic garbage collector frees, and the engine checks
    moves this way thousands of times a second in a search.)"""
    return _Splits(items, value, has_base, hand_items).how_far()


class _Splits:
    """One ``_augments`` question: its items, value and what it has found and remembered."""

    def __init__(self, items: list[tuple[tuple[int, ...], int, int]], value: int, has_base: bool,
                 hand_items: int) -> None:
        n = len(items)
        self.items = items
        self.value = value
        self.has_base = has_base
        self.hand_items = hand_items
        self.n = n
        self.piled: list[int] = [i for i in range(n) if items[i][1] >= 0]
        self.values: list[tuple[int, ...]] = [_worths(item[0], value) for item in items]
        self.layout_done: dict[int, bool] = {}
        self.whole_done: dict[int, tuple[bool, bool]] = {}
        self.pile_mask: int = sum(1 << i for i in self.piled)
        self.found: int = _NONE

    def how_far(self) -> int:
        items = self.items
        n = self.n
        if len({items[i][1] for i in self.piled}) <= 1:
            # One pile: its cards lie in different sets, which are then always made top card first,
            # so only the split and its base matter, remembered by what is left to split.
            split, based = self.whole_splits((1 << n) - 1)
            return _LEGAL if based or (split and self.has_base) else _SPLIT if split else _NONE
        self.place(0, (1 << n) - 1, [])
        return self.found

    def sets_with(self, first: int, free: int) -> list[int]:
        """The sets worth ``value`` of ``free``'s items that hold ``first``, at most one card of a pile, in
        the order they are tried. (A list made whole rather than a generator: the sets of one item are a
        few, and compiled, a chain of generators nested as deep as a set is long cost more than them all.)"""
        n = self.n
        rest = [j for j in range(first + 1, n) if free >> j & 1] + [j for j in range(first) if free >> j & 1]
        side0 = self.items[first][1]
        out: list[int] = []
        for v in self.values[first]:
            self.grow(rest, 0, 1 << first, self.value - v, 1 << side0 if side0 >= 0 else 0, out)
        return out

    def grow(self, rest: list[int], k: int, chosen: int, remaining: int, sides: int, out: list[int]) -> None:
        """Every set ``chosen`` grows into with items of ``rest`` from the ``k``-th on, worth ``remaining``
        more, appended to ``out``."""
        if remaining == 0:
            out.append(chosen)
            return
        items = self.items
        values = self.values
        for x in range(k, len(rest)):
            j = rest[x]
            side = items[j][1]
            if side >= 0 and sides >> side & 1:
                continue
            for v in values[j]:
                if v <= remaining:
                    self.grow(rest, x + 1, chosen | 1 << j, remaining - v, sides | (1 << side if side >= 0 else 0),
                              out)

    def layout_splits(self, free: int) -> bool:
        if not free:
            return True
        known = self.layout_done.get(free)
        if known is None:
            first = (free & -free).bit_length() - 1
            known = any(self.layout_splits(free & ~g) for g in self.sets_with(first, free))
            self.layout_done[free] = known
        return known

    def whole_splits(self, free: int) -> tuple[bool, bool]:
        """Whether ``free``'s items split into sets of ``value``, and whether into such sets one of
        which holds no pile card (a base)."""
        if not free:
            return True, False
        known = self.whole_done.get(free)
        if known is None:
            first = (free & -free).bit_length() - 1
            split = based = False
            for g in self.sets_with(first, free):
                sub_split, sub_based = self.whole_splits(free & ~g)
                if sub_split:
                    split = True
                    if sub_based or not g & self.pile_mask and g & ~self.hand_items:
                        based = True
                        break
            known = (split, based)
            self.whole_done[free] = known
        return known

    def place(self, k: int, free: int, groups: list[int]) -> bool:
        """Whether the pile cards from the ``k``-th of ``piled`` on, each given a set of ``free``'s items in
        turn (``groups``: the sets given so far, as masks of items), make a legal split (``found`` says how
        far the best one got)."""
        piled = self.piled
        if k == len(piled):
            if not self.layout_splits(free):
                return False
            if not self.has_base and not free & ~self.hand_items:
                self.found = max(self.found, _SPLIT)   # every set holds a pile card (or is the played card alone): no base
                return False
            if _ordered(groups, self.items):
                self.found = _LEGAL
                return True
            self.found = max(self.found, _BASED)
            return False
        p = piled[k]
        if not free >> p & 1:                # already in the set of another pile's card
            return self.place(k + 1, free, groups)
        for g in self.sets_with(p, free):
            groups.append(g)
            if self.place(k + 1, free & ~g, groups):
                return True   # (the search is over: ``groups`` is left as it is)
            groups.pop()
        return False


def _worths(values: tuple[int, ...], value: int) -> tuple[int, ...]:
    """An item's values that may count in a set worth ``value`` (above 0, at most ``value``), each once,
    lowest first."""
    if len(values) == 1:
        return values if 0 < values[0] <= value else ()
    return tuple(sorted(set(v for v in values if 0 < v <= value)))


def _ordered(groups: list[int], items: list[tuple[tuple[int, ...], int, int]]) -> bool:
    """Whether the sets (masks of items) can be made one after another, each pile's cards top down."""
    at: dict[tuple[int, int], int] = {}
    for g, group in enumerate(groups):
        for i in bits(group):
            _, side, depth = items[i]
            if side >= 0:
                at[(side, depth)] = g
    after: dict[int, set[int]] = {g: set() for g in range(len(groups))}
    for (side, depth), g in at.items():
        if depth:
            after[g].add(at[(side, depth - 1)])
    done: set[int] = set()
    while len(done) < len(groups):
        ready = [g for g in after if g not in done and after[g] <= done]
        if not ready:
            return False
        done.update(ready)
    return True

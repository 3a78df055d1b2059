"""Why a move is refused, in words a player can act on.

Kept apart from move generation: generation says *whether* a move is legal;
this module says *why not*, reading the same position and rule settings and,
where that helps, asking the engine's public ``legal_moves`` about neighbouring
moves (the same card written another way, the moves that card does have).

A reason names the rule, never the variant: "you own the build of 8 [3H 5D]:
the owner of a build may not trail", not "not allowed in standard". Checks run
from the plainest mistake (a card not in hand) to the finest rule, and the
first that applies is the answer; when none does, the reason lists what the
played card may do instead, so the player is never left guessing. What the
move is (its cards' sums, the build's rules) comes before what the mover must
keep, which another card could answer: a reader of the rule texts judged a
sample of refusals against them (session 88), and "keep a card of 2" said of a
5 on a build of 5 read as if a 2 would make the move legal. Asked of a legal
move, the answer says it is legal (tests/test_reasons.py asks it of every legal
move of drawn house rules), and a refusal names a rule that refuses the move
(the same file with that rule switched off takes it, or refuses it otherwise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from .core import _malformed, bits
from .moves import Move, MoveKind
from .notation import cards_text, format_move
from .state import Build, HandState

if TYPE_CHECKING:  # pragma: no cover
    from .core import Engine

#: A partition search gives up beyond this many items (a reason then falls back to listing moves).
_MAX_ITEMS = 10


def why_illegal(engine: "Engine", state: HandState, move: Move) -> str:
    """A one-line reason ``move`` is not legal in ``state``: ``MOVE: reason`` (``MOVE: a legal move here:
    nothing refuses it`` for a move that is legal)."""
    if not isinstance(move, Move):
        raise TypeError(f"a move is a cassino.Move (parse_move(text, engine.deck), or one of legal_moves), "
                        f"not {type(move).__name__} {move!r}"[:200])
    if move.key_in(state) < 0:
        malformed = _malformed(move, engine.n_cards)
        if malformed is not None:   # (its cards cannot be named: say what is wrong with the move itself)
            shown = repr(move)
            return f"{shown if len(shown) <= 120 else shown[:117] + '...'}: {malformed}"
    text = format_move(move, engine.deck)
    # (with two packs, each card named is matched to a copy where the move says it is first: the 8S in hand is
    # either copy; a name given twice where one copy lies is then a card that is not there)
    return f"{text}: {_Reasons(engine, state, engine.resolve(state, move)).first()}"


class _Reasons:
    """The checks for one refused move, in order; each returns a reason or None."""

    def __init__(self, engine: "Engine", state: HandState, move: Move) -> None:
        self.e, self.s, self.m = engine, state, move
        self.deck = engine.deck
        self.rules = engine.rules
        self.seat = state.turn
        self.hand = state.hands[state.turn] if state.hands else 0
        self._legal: list[Move] | None = None

    # ------------------------------------------------------------------ helpers
    @property
    def legal(self) -> list[Move]:
        if self._legal is None:
            self._legal = self.e.playable_moves(self.s)   # (a sample, at a position beyond the budget)
        return self._legal

    def names(self, mask: int) -> str:
        return " ".join(cards_text(self.deck, mask))

    def label(self, b: Build) -> str:
        return f"the build of {b.value} [{self.names(b.cards)}]"

    def move_text(self, move: Move) -> str:
        return f"`{format_move(move, self.deck)}`"

    def played_name(self) -> str:
        return self.names(self.m.played)

    def values_of(self, index: int, hand: bool) -> tuple[int, ...]:
        return (self.deck.hand_values if hand else self.deck.table_values)[index]

    def rank_of(self, index: int) -> str:
        return self.deck.ranks[self.deck.rank_index[index]]

    def is_build(self) -> bool:
        return self.m.kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD)

    def first(self) -> str:
        # (What the move is comes before what the mover must keep: a second reader's audit, session 88, was told
        # "to build 2 you must keep a card of 2" of a 5 played on a build of 5, and of court cards, which are never
        # built, as if a card of that value would make the move legal. So the cards' arithmetic and the build
        # rules are asked before the cards the mover must keep, a value no card has first of all; and "there is
        # no building" before "several cards are played together only to capture".)
        checks: Sequence[Callable[[], str | None]] = (
            self.hand_over, self.end_of_turn, self.turn_actions, self.cards_in_hand, self.loose_on_table,
            self.builds_on_table, self.one_card_build, self.takes_something, self.building_at_all,
            self.cards_a_turn, self.capture_sums,
            self.owner_obligation, self.compulsory_capture, self.takes_all,
            self.no_card_of_the_value, self.build_rules, self.raised_build, self.keep_capturing_card,
            self.build_needs_a_card, self.capture_rules, self.whole_move, self.other_moves,
        )
        for check in checks:
            reason = check()
            if reason:
                if self.m.kind is MoveKind.TRAIL and check != self.other_moves and self.m in self.legal:
                    # (the rules leave the player no move at all: the listing lets any card be trailed rather
                    # than stop the game, ``movegen``'s last resort; only house rules reach it, e.g. an owner who
                    # may not trail holding no card to take or build with where ``keep_capturing_card`` is off)
                    return (f"a legal move here: the rules leave no move at all ({reason}), so any card may be "
                            f"trailed")
                return reason
        return "not a legal move here"   # pragma: no cover - other_moves always answers

    # ------------------------------------------------------------------ what the move names
    def hand_over(self) -> str | None:
        return "the hand is over" if self.s.over else None

    def end_of_turn(self) -> str | None:
        """``end``: only in a turn of several actions, once its card from the hand is played."""
        if self.m.kind is not MoveKind.END:
            return None
        if not self.rules.build.free_actions:
            return "there is no turn to end: a turn here is one card played from the hand, and ends with it"
        if not self.s.turn_card:
            return "a turn ends only after its one card from the hand: play a card first"
        return None

    def turn_actions(self) -> str | None:
        """A move that plays no card from the hand: a build of cards in play (``build.free_actions``); or a
        second card from the hand in one turn."""
        if self.m.played and self.s.turn_card:
            return (f"you played {self.names(self.s.turn_card)} from your hand this turn, and a turn plays one card "
                    f"from the hand: make builds of cards in play, or `end` the turn")
        if self.m.played or self.m.kind is MoveKind.END:
            return None
        if self.m.kind is not MoveKind.BUILD or not self.rules.build.free_actions:
            return ("every move plays a card from the hand: write it first, e.g. `9D capture 9C`, "
                    "`3H build 8 on 5S`" + ("" if self.rules.build.free_actions else
                                             "; a build of table cards alone, with no card from the hand, is "
                                             "no move here"))
        turn_card = self.m.loose & self.s.turn_card
        if turn_card:
            return (f"{self.names(turn_card)} is the card you played from your hand this turn: a build of cards in "
                    f"play made later in the turn does not use it (that would be a build with a hand card)")
        if not self.m.loose:
            # (a build named that is not there says so first: it is what the player got wrong)
            return self.builds_on_table() or ("a build of cards in play takes loose cards from the table (or "
                                              "opponents' pile tops) into it: a build on its own, with nothing "
                                              "loose added, is no move")
        return None

    def cards_in_hand(self) -> str | None:
        missing = self.m.played & ~self.hand
        if not missing:
            return None
        verb = "is" if bin(missing).count("1") == 1 else "are"
        return f"{self.names(missing)} {verb} not in the hand of seat {self.seat}"

    def loose_on_table(self) -> str | None:
        missing = self.m.loose & ~self.s.in_play()
        if not missing:
            return None
        verb = "is" if bin(missing).count("1") == 1 else "are"
        piled = self.piled(missing)
        if piled:
            return piled
        reason = f"{self.names(missing)} {verb} not loose on the table"
        size = self.e.pack_size
        named = {i % size for i in bits(self.m.loose & ~missing)}
        if self.e.has_copies and all(i % size in named for i in bits(missing)):
            # (two packs: a card named twice where one copy of it is loose, a player's `8S capture 8D 8D`)
            if verb == "is":
                return f"{self.names(missing)} is named twice, but only one {self.names(missing)} is loose on the table"
            return f"{self.names(missing)} are named twice, but only one of each is loose on the table"
        inside = [b for b in self.s.builds if b.cards & missing]
        if inside and all(b.cards & ~self.m.loose == 0 for b in inside):
            # The cards of a build written loose: show the bracketed form, checked legal first.
            builds = tuple(sorted(set(self.m.builds) | {b.cards for b in inside}))
            fixed = Move(self.m.kind, self.m.played, self.m.loose & ~sum(b.cards for b in inside), builds, self.m.value)
            written = " ".join(f"[{self.names(b.cards)}]" for b in inside)
            reason += f"; {'it is' if verb == 'is' else 'they are'} in a build, and a build is written in brackets: {written}"
            if fixed in self.legal:
                reason += f", as in {self.move_text(fixed)}"
        elif inside:
            reason += f" (it is in {self.label(inside[0])})"
        elif missing & self.hand:
            reason += f" ({'it is' if verb == 'is' else 'they are'} in your hand)"
        return reason

    def piled(self, missing: int) -> str | None:
        """Why cards in capture piles are not in play (African Casino: only the top card of
        an opposing side's pile is), or None where piles are not in play or none is named."""
        s = self.s
        if not s.stacks:
            return None
        own = s.teams[self.seat]
        for side, stack in enumerate(s.stacks):
            for c in stack:
                if missing >> c & 1:
                    name = self.names(1 << c)
                    if side == own:
                        return (f"{name} is in your own side's capture pile: only the top card of an "
                                f"opponent's pile is in play")
                    if s.pile_reach > 1:
                        return (f"{name} lies too deep in a capture pile: a move uses at most the top "
                                f"{s.pile_reach} cards of a pile, each uncovered by the one above")
                    return f"{name} is in a capture pile but not on top: only the top card of a pile is in play"
        return None

    def builds_on_table(self) -> str | None:
        known = {b.cards for b in self.s.builds}
        for b in self.m.builds:
            if b in known:
                continue
            reason = f"there is no build [{self.names(b)}] on the table"
            if b & ~self.s.table == 0:
                reason += f"; {self.names(b)} are loose cards: name them without brackets"
            return reason
        return None

    def one_card_build(self) -> str | None:
        """A build of cards in play (no card from the hand) of one loose card and nothing else: no build (an audit
        read "build 9 on 9S:  has no legal move here", the fallback's words with no played card to name)."""
        m = self.m
        if m.builds or not m.loose or m.loose & (m.loose - 1):
            return None
        if m.kind is MoveKind.TRAIL_BUILD:   # (the card trailed beside it is not in it)
            return (f"{self.names(m.loose)} alone is no build: a build of table cards made as you trail is of two "
                    f"cards or more, each set worth {m.value}")
        if m.played or m.kind is not MoveKind.BUILD:
            return None
        return (f"{self.names(m.loose)} alone is no build: a build of cards in play, with no card from your hand, "
                f"is made of two cards or more, each set worth {m.value}")

    def takes_something(self) -> str | None:
        if self.m.kind is MoveKind.TRAIL and (self.m.loose or self.m.builds):
            # (a Move made in a program, not typed: the notation's trail names its card alone)
            return "a trail takes nothing from the table: it names no table card or build"
        if self.m.loose or self.m.builds or self.m.kind in (MoveKind.TRAIL, MoveKind.END):
            return None
        kind = self.m.kind if self.m.kind is MoveKind.CAPTURE else MoveKind.BUILD
        # (an example of this game, the card's own first: an audit read "or builds" and `9D capture 9C` in Scopa,
        # which has no building and no nines)
        example = next((m for m in self.legal if m.kind is kind and m.played == self.m.played), None) or \
            next((m for m in self.legal if m.kind is kind), None)
        eg = f", e.g. {self.move_text(example)}" if example is not None else ""
        what = "table cards or builds" if self.rules.build.allowed else "table cards"
        if kind is MoveKind.CAPTURE:
            return f"a capture names the {what} it takes{eg}"
        return f"a build names the {what} it is made on{eg}"

    def cards_a_turn(self) -> str | None:
        most = self.rules.capture.hand_cards_max
        played = bin(self.m.played).count("1")
        if played > 1 and most > 1 and self.m.kind is not MoveKind.CAPTURE:
            return "several cards are played together only to capture"   # (a trail or build of two cards: one)
        if played <= most:
            return None
        if most == 1:
            return "a turn plays one card from the hand"
        if self.m.kind is not MoveKind.CAPTURE:
            return "several cards are played together only to capture"
        return f"at most {most} cards are played together"

    # ------------------------------------------------------------------ obligations
    def building_at_all(self) -> str | None:
        if self.m.kind is MoveKind.TRAIL_BUILD and not self.rules.trail.with_build:
            return "a trail may not come with a build: trail, or build with the played card"
        if self.is_build() and not self.rules.build.allowed:
            return "there is no building: a card captures or trails"
        if self.is_build() and isinstance(self.m.value, str):
            # (A rank's word for a rank with a number: a re-attack read "you must keep a card of K ... you have none
            # besides KH" with KD in the hand, in Royal where K counts 13.)
            rank = next((r for r in self.rules.deck.ranks if r.rank == self.m.value), None)
            if rank is not None and rank.values:
                counts = " or ".join(map(str, rank.values))
                builds = " or ".join(f"`build {v}`" for v in rank.values)   # (an ace of 1 or 14: either)
                return (f"{self.m.value} counts {counts} here: a build is announced by its number, {builds}; a "
                        f"rank's letter announces only a pile of cards without a number")
            if rank is not None and self.rules.build.valueless == "never":
                return f"cards without a number value ({self.m.value}) are never built here"
        return None

    def owned(self) -> list[Build]:
        return [b for b in self.s.builds if b.owner == self.seat]

    def owner_obligation(self) -> str | None:
        owned = self.owned()
        rule = self.rules.build.owner_obligation
        if not owned or rule == "none" or self.s.turn_card:
            return None   # (in a turn of several actions, the duty is the hand card's: what follows it is free)
        if not self.rules.build.owner_obligation_in_last_deal and not self.s.stock:
            return None   # lapsed in the last deal (issue 36)
        label = self.label(owned[0])
        # (where the duty lapses once the stock is used up, said: a player read it as for the whole hand)
        until = "" if self.rules.build.owner_obligation_in_last_deal else " until the last deal"
        if self.m.kind is MoveKind.TRAIL and rule == "no_trail":
            if self.rules.build.free_actions:   # (a turn of several actions: no trail beside its builds either)
                # (a player's audit: "beside a build of table cards or alone" was hard to read, and the way a
                # build made earlier in the turn binds, trail first then build, was not said)
                return (f"you own {label}: the owner of a build may not trail{until}; capture, or build with the "
                        "played card. A build of cards in play makes you its owner at once: in a turn that "
                        "trails, build after the trail, not before it")
            return f"you own {label}: the owner of a build may not trail{until}; capture, or build"
        if self.m.kind is MoveKind.TRAIL_BUILD and rule == "no_trail":
            return (f"you own {label}: the owner of a build may not trail{until}, not even beside a build of "
                    "table cards; capture, or build with the played card")
        if rule == "capture_or_raise" and self.m.kind is not MoveKind.CAPTURE:
            values = {b.cards: b.value for b in self.s.builds}
            raises = self.m.kind is MoveKind.BUILD and any(values.get(x) != self.m.value for x in self.m.builds)
            if not raises:
                return f"you own {label}: the owner of a build must capture or raise a build"
        return None

    def capture_example(self, same_card: bool) -> Move | None:
        return next((m for m in self.legal if m.kind is MoveKind.CAPTURE
                     and (not same_card or m.played == self.m.played)), None)

    def compulsory_capture(self) -> str | None:
        if self.m.kind is not MoveKind.TRAIL and not (self.is_build() and self.rules.capture.compulsory == "whenever_possible"):
            return None
        rule = self.rules.capture.compulsory
        card = self.played_name()
        if rule == "equal_loose_card" and self.m.kind is MoveKind.TRAIL:
            equal = self.equal_loose(self.m.played)
            if equal:
                them = "it" if equal & (equal - 1) == 0 else "them"
                where = "in play, on top of an opponent's capture pile" if not equal & self.s.table else "on the table"
                return (f"{card} may not be trailed while a loose card equal to it ({self.names(equal)}) is {where}: "
                        f"capture {them}, or build")
        if rule == "when_card_can_capture" and self.m.kind is MoveKind.TRAIL:
            example = self.capture_example(same_card=True)
            if example is not None:
                return f"a card that can capture may not be trailed: {card} can play {self.move_text(example)}"
        if rule == "whenever_possible":
            example = self.capture_example(same_card=False)
            if example is not None:
                return f"you must capture when you can, e.g. {self.move_text(example)}"
        return None

    def equal_loose(self, played: int) -> int:
        """The loose cards in play equal to the card ``played`` (a deck mask): on the table and, where capture
        piles are in play, the opposing pile tops, which the listing reads as loose cards too."""
        p = played.bit_length() - 1
        if self.values_of(p, True):
            return self.loose_worth(set(self.values_of(p, True)))
        rank = self.deck.rank_index[p]   # (a card without a number value: the loose cards of its rank)
        return sum(1 << i for i in bits(self.s.in_play())
                   if not self.values_of(i, False) and self.deck.rank_index[i] == rank)

    def loose_worth(self, values: set[int]) -> int:
        """The loose cards in play worth one of ``values`` (a deck mask; as ``equal_loose``)."""
        out = 0
        for i in bits(self.s.in_play()):
            if set(self.values_of(i, False)) & values:
                out |= 1 << i
        return out

    def partner_proven(self) -> bool:
        """Whether the build move's value is one the partner has shown (building for a partner)."""
        partner = self.e.partner_of(self.s, self.seat)
        return bool(self.rules.build.for_partner and partner is not None and self.s.proven
                    and self.m.value in self.s.proven[partner])

    def raised_build(self) -> str | None:
        """A build the move raises (to another number) that is never raised here, whatever card raises it: a
        multiple build; any build where builds are not raised; the mover's own, or their partner's, where those
        are not (``build.raise_own``, ``build.raise_partners``). Asked before the cards the mover must keep
        (``keep_capturing_card``, ``build_needs_a_card``), which another card or hand could answer: a player's audit
        was told to keep a card for a raise of a partner's multiple build, which no card makes legal. The same
        words as ``build_rules`` and the whole-move rules (``turnrules``) give, which still decide."""
        if not self.is_build() or not isinstance(self.m.value, int):
            return None
        b, teams = self.rules.build, self.s.teams
        for x in self.s.builds:
            if x.cards not in self.m.builds or not isinstance(x.value, int) or x.value == self.m.value:
                continue
            if x.multiple:
                return self.multiple_not_raised(x)
            # (``build.single_build_as_card``: a single build may be one set of a build of another value, which
            # is no raise: left to ``build_rules``)
            if not b.raise_single and not b.single_build_as_card:
                return "a build may not be raised to a new value"
            if not b.raise_own and not b.single_build_as_card and x.owner == self.seat:
                return f"you own {self.label(x)}, and a player may not raise their own build"
            if not b.raise_partners and x.owner != self.seat and teams[x.owner] == teams[self.seat]:
                return f"your partner owns {self.label(x)}: a build is raised only when another side owns it"
        return None

    def multiple_not_raised(self, x: Build) -> str:
        """A multiple build the move would raise: said, with the same card added to it as a set of its value
        where that is legal (an audit: the refusal hid the move the player could make with that card)."""
        said = f"{self.label(x)} is multiple, and a multiple build cannot be raised"
        onto = next((m for m in self.legal if m.kind is MoveKind.BUILD and m.played == self.m.played
                     and x.cards in m.builds and m.value == x.value), None)
        if onto is not None:
            said += f"; {self.played_name()} may go onto it as a set of {x.value}: {self.move_text(onto)}"
        return said

    def keep_capturing_card(self) -> str | None:
        if not self.rules.build.keep_capturing_card or self.m.kind is MoveKind.END:
            return None   # (a turn's end plays no card: it keeps what the hand holds)
        hand_after = self.hand & ~self.m.played
        after = self.e.captured_values(hand_after)
        held = [b for b in self.s.builds if b.holder == self.seat and b.cards not in self.m.builds]
        if not self.is_build():
            # (a player already short of a card for their builds may take or discard leaving no more short:
            # the listing's ``Generator.keeps_cards``)
            mine = [b for b in self.s.builds if b.holder == self.seat]
            given = any(b.owner != self.seat for b in mine)   # (as ``Generator.deficit``)
            short = self.e.unanswered(self.hand, {b.value for b in mine}) if given else 0
            if short and self.e.unanswered(hand_after, {b.value for b in held}) <= short:
                return None
        for b in held:
            if b.value in after:
                continue
            whose = "you own" if b.owner == self.seat else "your partner built for you"
            # ("8D is your last card of 8": a reader took "is your last" for the last card of the hand)
            last = (f"{self.played_name()} is your last card of {b.value}" if b.value in self.e.captured_values(
                self.m.played) else f"you hold no card of {b.value}")
            return f"{whose} {self.label(b)}: keep a card of {b.value} in your hand until it is taken; {last}"
        values = {b.value for b in held}
        if self.is_build() and self.m.value in after and not self.partner_proven():
            values.add(self.m.value)  # type: ignore[arg-type]
        if len(values) > 1 and not self.e.answers(hand_after, values):
            shown = " and ".join(str(v) for v in sorted(values, key=str))
            return (f"you must keep a different card for each value you build for ({shown}): "
                    f"after {self.played_name()} one card would have to take two builds of different values")
        return None

    def no_card_of_the_value(self) -> str | None:
        """A build of a value no card of the deck has (not "you have none besides AH", as if another card could:
        no card takes it)."""
        if not self.is_build() or not isinstance(self.m.value, int) or self.partner_proven():
            return None
        if any(self.m.value in v for v in self.deck.hand_values):
            return None
        counted = [self.values_of(i, True) for i in bits(self.m.played)] + \
                  [self.values_of(i, False) for i in bits(self.m.loose)]
        if not all(counted):
            return None   # (a court card "built" as 12: that it has no number value is said first, ``build_rules``)
        # (what the cards make, where each counts one value and they are one set: a reader's audit asked where
        # the 13 of "no card is worth 13" came from)
        make = (f"{self.names(self.m.played | self.m.loose)} make {self.m.value}, and "
                if not self.m.builds and all(len(v) == 1 for v in counted) and sum(v[0] for v in counted) == self.m.value
                else "")
        return f"{make}no card is worth {self.m.value} here, so nothing could ever take a build of {self.m.value}"

    def build_needs_a_card(self) -> str | None:
        if not self.is_build() or self.m.value is None:
            return None
        after = self.e.captured_values(self.hand & ~self.m.played)
        if self.m.value in after or self.partner_proven():
            return None
        need = f"to build {self.m.value} you must keep a card of {self.m.value} in your hand to take the build"
        # ("none besides 3S" only where 3S is such a card: an audit read it of a 3 played for a build of 7)
        played = bits(self.m.played)
        if played and all(self.m.value in self.e.captured_values(1 << i) for i in played):
            return f"{need}; you have none besides {self.played_name()}"
        return f"{need}; you hold none"

    # ------------------------------------------------------------------ builds
    def build_rules(self) -> str | None:
        if not self.is_build():
            return None
        b, V = self.rules.build, self.m.value
        if b.opponents_hand_only and (self.m.loose or len(self.m.builds) > 1):
            teams = self.s.teams
            for x in self.s.builds:
                # (a single build counted as one card, ``single_build_as_card``, may be built on with table cards:
                # a new build holding it as a card, the rulebook's reading)
                if x.cards in self.m.builds and teams[x.owner] != teams[self.seat] \
                        and not (b.single_build_as_card and not x.multiple):
                    return (f"{self.label(x)} is another side's build: it grows by the card from your hand alone, "
                            f"with no table card")
        used = [x for x in self.s.builds if x.cards in self.m.builds]
        if isinstance(V, str):
            if b.valueless == "never":
                return f"cards without a number value are not built: a {V} only takes {V}s"
            if b.valueless == "when_all_four":
                in_build = self.m.played | self.m.loose | sum(x.cards for x in used)
                rank = self.deck.ranks.index(V)
                whole = sum(1 << i for i, r in enumerate(self.deck.rank_index) if r == rank)
                if (in_build | (self.hand & ~self.m.played)) & whole != whole:
                    return f"{V}s are built only when the build and your hand hold all four {V}s"
            other = next((x for x in used if x.value != V), None)
            if other is not None:
                return f"{self.label(other)} is no build of {V}s: a build of {V}s holds {V}s only"
            strangers = sum(1 << i for i in bits(self.m.played | self.m.loose) if self.rank_of(i) != V)
            if strangers:
                return f"a build of {V}s holds {V}s only, not {self.names(strangers)}"
            return None
        if V is None:
            return None  # pragma: no cover - the notation always gives a build a value
        if b.max_value is not None and V > b.max_value:
            return f"builds go up to {b.max_value} only"
        if len(used) > 1 and not b.one_per_value and not b.single_build_as_card:
            return (f"a build is made onto one build on the table at a time: {self.label(used[0])} and "
                    f"{self.label(used[1])} stay apart")
        sets = self.build_sets(used)
        if sets:
            return sets
        for x in used:
            if x.value == V:
                if not (b.add_sets and b.multiple):
                    return f"nothing may be added to {self.label(x)} to make it multiple"
                begun = self.deck.rank_index[bits(x.cards)[0]]
                if b.continue_as_begun and x.pairs and (self.m.loose or any(
                        self.deck.rank_index[i] != begun for i in bits(self.m.played))):
                    return f"{self.label(x)} began as a pair: it grows only by a card of its rank"
                continue
            if x.multiple:
                return self.multiple_not_raised(x)
            if b.single_build_as_card:
                # (a single build counts as a card of its value: one set of the new build with other cards, not a
                # raise, whoever owns it: the sets are checked below, as the listing's sums make them)
                continue
            if not b.raise_single:
                return "a build may not be raised to a new value"
            if not b.raise_own and x.owner == self.seat:
                return f"you own {self.label(x)}, and a player may not raise their own build"
            if self.m.loose and not b.raise_with_table_cards:
                # (the hand card alone raises it; loose cards may go in beside, as sets worth the new value, only
                # where builds are multiple: the listing's ``raise_intake``)
                loose = [self.values_of(i, False) for i in bits(self.m.loose)]
                if b.multiple and b.raise_takes_in == "none":
                    return f"a raise takes in no loose cards: only the card from your hand goes onto {self.label(x)}"
                if not b.multiple or len(loose) > _MAX_ITEMS or _partitions(loose, V) is None:
                    return "only the card from your hand may raise a build, not loose table cards"
                if b.raise_takes_in == "cards" and any(V not in v for v in loose):
                    return f"a raise takes in only loose cards worth {V} each, not cards that add up to {V}"
            if isinstance(x.value, int) and x.value > V:
                return f"a build is raised, never lowered: {self.label(x)} cannot become {V}"
        return None

    def build_sets(self, used: list[Build]) -> str | None:
        """Whether the build's cards make its value, in sets each worth it (the builds it joins of that value are
        sets already; one it raises counts its value): asked before the rules of raising and adding, since cards
        that do not make the value are no build whoever owns what (an audit read "a multiple build cannot be
        raised" of a king on a build of 13 announced as 10)."""
        b, V = self.rules.build, self.m.value
        assert isinstance(V, int)
        if any(x.multiple and x.value != V for x in used):
            return None   # (a multiple build's value never changes: said of it, below; its cards are no one set)
        if self.m.kind is MoveKind.TRAIL_BUILD:
            items = [self.values_of(i, False) for i in bits(self.m.loose)]
        else:
            items = [self.values_of(i, True) for i in bits(self.m.played)]
            items += [self.values_of(i, False) for i in bits(self.m.loose)]
        items += [(x.value,) for x in used if x.value != V and isinstance(x.value, int)]
        if any(not v for v in items):
            return f"cards without a number value cannot be part of a build of {V}"
        # (too many cards to split every way: said only where their totals show no whole number of sets)
        sets = _partitions(items, V) if len(items) <= _MAX_ITEMS else \
            (None if not any(t % V == 0 for t in _totals(items)) else -1)
        if sets == -1:
            return None
        if sets is None:
            totals = _totals(items)
            why = ("but do not split into sets of " + str(V) + " each" if any(t % V == 0 for t in totals)
                   else "which is no multiple of " + str(V))
            joined = [x for x in used if x.value == V]
            if joined:   # (the cards added to a build of V: the build's own cards are sets of V already)
                return (f"the cards added to {self.label(joined[0])} do not make {V}: {self.sum_words(items)}, {why}; "
                        f"each set added to a build is worth its value")
            return (f"the cards do not make {V}: {self.sum_words(items)}, {why}; a build is one or more sets each "
                    f"worth {V}")
        if sets > 1 and not b.multiple:
            return f"only single builds are allowed: the cards must make {V} as one set, not {sets} sets"
        return None

    def sum_words(self, items: list[tuple[int, ...]]) -> str:
        totals = sorted(_totals(items))
        shown = " or ".join(str(t) for t in totals[:3])
        return f"it counts {shown}" if len(items) == 1 else f"they add up to {shown}"

    # ------------------------------------------------------------------ captures
    def takes_all(self) -> str | None:
        """``capture.take_all`` (issue 36): a capture the same card could make larger."""
        if self.m.kind is not MoveKind.CAPTURE or not self.rules.capture.take_all:
            return None
        mine = set(self.m.builds)
        bigger = next((m for m in self.legal if m.kind is MoveKind.CAPTURE and m.played == self.m.played
                       and m.loose & self.m.loose == self.m.loose and mine <= set(m.builds)
                       and (m.loose != self.m.loose or len(m.builds) > len(mine))), None)
        if bigger is None:
            return None
        return f"a capture must take all the card can: {self.played_name()} takes {self.move_text(bigger)}"

    def capture_sums(self) -> str | None:
        """Whether the cards named make a capture by their values at all (the card's value, the sets it
        takes): asked before any rule of the turn, since a capture that does not add up is no capture
        whatever the player holds (an audit saw a value that did not match refused for the last card kept
        for a build, as if a second such card would have made it legal)."""
        return self._capture_check(sums=True)

    def capture_rules(self) -> str | None:
        """The capture rules beyond the sums: equal cards first, every equal card, sums and groups allowed."""
        return self._capture_check(sums=False)

    def _capture_check(self, sums: bool) -> str | None:
        """``capture_sums``' reasons where ``sums``, else ``capture_rules``'."""
        if self.m.kind is MoveKind.CAPTURE and bin(self.m.played).count("1") > 1:
            return self._together() if sums else None
        if self.m.kind is not MoveKind.CAPTURE or bin(self.m.played).count("1") != 1:
            return None
        c = self.rules.capture
        p = self.m.played.bit_length() - 1
        card, played_values = self.played_name(), self.values_of(p, True)
        if c.total is not None and played_values:
            # A capture by a total (Escoba): what is taken is worth the total less the card played.
            played_values = tuple(c.total - v for v in played_values if c.total - v > 0)
            if not played_values:
                return f"{card} makes {c.total} by itself: it takes nothing" if sums else None
        taken_builds = [x for x in self.s.builds if x.cards in self.m.builds]
        loose = bits(self.m.loose)
        if not played_values:
            rank = self.rank_of(p)
            strangers = [i for i in loose if self.values_of(i, False) or self.deck.rank_index[i] != self.deck.rank_index[p]]
            if strangers or any(x.value != rank for x in taken_builds):
                return f"{card} has no number value: it takes only cards of its own rank, {rank}" if sums else None
            if sums:
                return None
            items = len(loose) + len(taken_builds)
            on_table = self.equal_loose(self.m.played)
            mode = c.valueless_cards
            if mode == "one" and items > 1:
                return f"a {rank} takes one {rank} at a time"
            if mode == "all" and self.m.loose != on_table:
                return f"a {rank} takes every loose {rank} at once: {self.names(on_table)}"
            if mode == "one_or_three_by_fourth" and items > 1:
                # (all at once where three of the rank are in play, loose or in builds of the rank: the listing's
                # ``valueless_captures``)
                ranked = [x for x in self.s.builds if x.value == rank]
                cards = on_table | sum(x.cards for x in ranked)
                three = sum(1 for i in bits(cards) if self.deck.rank_index[i] == self.deck.rank_index[p]) == 3
                if not (three and self.m.loose == on_table and len(taken_builds) == len(ranked)):
                    return f"a {rank} takes one {rank}, or all three when it is the fourth of its rank"
            return None
        for i in loose:
            if not self.values_of(i, False):
                return f"{self.names(1 << i)} has no number value: only a {self.rank_of(i)} takes it" if sums else None
        # (``build.single_build_as_card``: a single build counts as a card of its value, in a set with others)
        as_cards = [x for x in taken_builds if self.rules.build.single_build_as_card and not x.multiple
                    and isinstance(x.value, int)]
        for x in taken_builds:
            if x.value not in played_values and x not in as_cards:
                worth = " or ".join(map(str, played_values))
                return f"{self.label(x)} is taken only by a card of {x.value}; {card} counts {worth}" if sums else None
        items = [self.values_of(i, False) for i in loose] + [(x.value,) for x in as_cards]
        if len(items) > _MAX_ITEMS:
            # Too many cards to split every way: their totals still say it where none is a whole number of sets.
            several = c.several_groups
            if sums and (not any(t % v == 0 if several else t == v for t in _totals(items) for v in played_values)
                         or any(min(values) > max(played_values) for values in items)):
                return self.no_sets(card, played_values, items)
            return None
        best: int | None = None
        for v in played_values:
            sets = _partitions(items, v) if items else 0
            if sets is not None and (best is None or sets < best):
                best = sets
        if sums:
            return None if best is not None else self.no_sets(card, played_values, items)
        equal = self.equal_loose(self.m.played) if c.total is None else self.loose_worth(set(played_values))
        if c.equal_card_first and c.total is not None and equal and self.m.loose & ~equal:
            return (f"while one loose card alone makes {c.total} with {card} ({self.names(equal)}), {card} takes "
                    f"such a card, not a set")
        # (Under a total the cards asked for are those that alone make it with the card played: a check of drawn
        # house rules found "must take every loose card equal to it: K♦ K♥" said of a 5 in Escoba.)
        equal_words = "equal to it" if c.total is None else f"that alone makes {c.total} with it"
        if c.equal_cards == "all" and equal & ~self.m.loose:
            return f"{card} must take every loose card {equal_words}: {self.names(equal)}"
        if c.equal_cards == "all_when_pairing" and self.m.loose & equal and equal & ~self.m.loose:
            return (f"a capture that takes one card equal to {card} takes them all: {self.names(equal)}"
                    if c.total is None else f"a capture that takes one card that alone makes {c.total} with {card} "
                                            f"takes every such card: {self.names(equal)}")
        if c.equal_card_first and equal and self.m.loose & ~equal:
            return f"while a loose card equals {card}, it takes only equal cards, not sets adding up to it"
        if best is None:   # (asked by capture_sums first)
            return None
        if not c.sums and any(len(v) and not set(v) & set(played_values) for v in items):
            return ("a card takes only equal cards, not sets adding up to its value" if c.total is None else
                    f"a card takes a single table card that makes {c.total} with it, never several together")
        groups = best + len(taken_builds) - len(as_cards)   # (builds taken as cards are in the sets)
        if groups > 1 and not c.several_groups:
            return ("a capture takes one card, set or build at a time" if self.rules.build.allowed
                    else "a capture takes one card or one set at a time")
        return None

    def _together(self) -> str | None:
        """Several hand cards played together (``capture.hand_cards``, ``combine: total``): loose cards taken
        that split into no sets worth the cards' total, said with that total."""
        c = self.rules.capture
        if self.m.builds:
            return None
        played = [self.values_of(i, True) for i in bits(self.m.played)]
        items = [self.values_of(i, False) for i in bits(self.m.loose)]
        if not items or any(not v for v in played + items):
            return None
        targets = sorted(_totals(played))
        if c.hand_cards_combine != "total":   # (``groups``: each value the cards split into equal sets of)
            targets = sorted({t // n for t in targets for n in range(1, len(played) + 1)
                              if t % n == 0 and _partitions(played, t // n) is not None})

        def fits(total: int) -> bool:
            if len(items) <= _MAX_ITEMS:
                sets = _partitions(items, total)
                return sets is not None and (sets == 1 or c.several_groups)
            return any(t % total == 0 if c.several_groups else t == total for t in _totals(items))
        if any(fits(t) for t in targets):
            return None
        cards = self.played_name()
        worth = " or ".join(map(str, targets))
        # (a reader's audit found "together they count, or split into equal sets of, 17" hard to read, and the
        # total of every card taken hid the one card in no set)
        counted = (f"together they count {worth}" if c.hand_cards_combine == "total"
                   else f"together they make {worth} (their total, or each of the equal sets they split into)")
        each = "each card or set taken" if c.several_groups else "the card or set taken"
        odd = self.odd_card(tuple(targets), items) if c.several_groups else None
        why = (f"{self.names(1 << odd)} is in no such set with the others" if odd is not None
               else self.sum_words(items))
        return (f"{self.names(self.m.loose)} cannot be taken by {cards} played together: {counted}, and {each} "
                f"must be worth that; {why}")

    def no_sets(self, card: str, worth_each: tuple[int, ...], items: list[tuple[int, ...]]) -> str:
        """Why the loose cards named are no capture for ``card``: the value each set must have, and what
        they add up to (or that their total, a multiple of it, does not split into such sets)."""
        c = self.rules.capture
        worth = " or ".join(map(str, worth_each))
        named = self.names(self.m.loose)
        # (one group a capture: "the card or set", not "each", an audit of Scopa read several groups in "each")
        each = "each card or set taken" if c.several_groups else "the card or set taken"
        # Cards each worth more than any set may be: said of them (a re-attack read "they add up to 18, but do
        # not split into sets of 2" of 4H 5C 9C taken by a 2).
        loose = bits(self.m.loose)
        over = [i for i, values in zip(loose, items) if values and min(values) > max(worth_each)]
        if c.total is None and over and len(loose) > 1:
            those = self.names(sum(1 << i for i in over))
            return (f"{named} cannot be taken by {card}: {each} must be worth {worth}, and "
                    f"{those} {'is' if len(over) == 1 else 'are each'} worth more than that alone")
        if c.total is not None:
            return (f"{named} cannot be taken by {card}: the cards taken must be worth {worth}, to make {c.total} "
                    f"with {card}, and {self.sum_words(items)}")
        # (the "do not split" words only where several sets may be taken, of several cards, into sets of 2 or
        # more: a re-attack read "5 does not split into sets of 1 or 14" of one card, and Scopa's 12 "not split
        # into sets of 6", which one set a play forbids anyway)
        multiple = sorted(t for t in _totals(items) if any(v >= 2 and t >= 2 * v and t % v == 0 for v in worth_each)) \
            if len(items) > 1 and c.several_groups else []
        # (a card worth more played from the hand than on the table, Krypkasino's ace: said, where an audit read
        # "must be worth 14, and it counts 1" of AH taking AS)
        p = self.m.played.bit_length() - 1
        hand_worth = self.values_of(p, True)
        aside = (f" ({card} counts {' or '.join(map(str, hand_worth))} played from the hand, "
                 f"{' or '.join(map(str, self.values_of(p, False)))} on the table)"
                 if hand_worth != self.values_of(p, False) and self.values_of(p, False) else "")
        odd = self.odd_card(worth_each, items) if c.several_groups else None
        if odd is not None:   # (an audit: the total of every card named hid the one card that fits no set)
            return (f"{named} cannot be taken by {card}: {each} must be worth {worth}, and {self.names(1 << odd)} "
                    f"is in no such set with the others{aside}")
        if multiple:
            return (f"{named} cannot be taken by {card}: {each} must be worth {worth}, and they "
                    f"add up to {multiple[0]}, but do not split into sets of {worth}{aside}")
        return (f"{named} cannot be taken by {card}: {each} must be worth {worth}, and "
                f"{self.sum_words(items)}{aside}")

    def odd_card(self, worth_each: tuple[int, ...], items: list[tuple[int, ...]]) -> int | None:
        """The one loose card named without which the others split into sets worth the card played (a deck
        index), where exactly one such card is; None otherwise (or with too many cards to try)."""
        loose = bits(self.m.loose)
        if len(loose) < 2 or len(loose) > _MAX_ITEMS or len(loose) != len(items):
            return None
        odd = [i for k, i in enumerate(loose)
               if any(_partitions(items[:k] + items[k + 1:], v) is not None for v in worth_each)]
        return odd[0] if len(odd) == 1 else None

    def whole_move(self) -> str | None:
        """African Casino's rules of the whole move (``turnrules``): the engine's own words."""
        return self.e.turn_rules.refusal(self.s, self.m)

    # ------------------------------------------------------------------ what the card may do instead
    def other_moves(self) -> str:
        card = self.played_name()
        if self.e.is_legal(self.s, self.m):   # (asked of a legal move: said so, not "not a legal move here")
            return "a legal move here: nothing refuses it"
        same = [m for m in self.legal if m.played == self.m.played]
        if not self.m.played:   # (a build of cards in play: no card to name)
            free = [m for m in same if m.kind is MoveKind.BUILD]
            if free:
                return f"this build of cards in play is not a legal move here; you may build {self.move_text(free[0])}"
            if self.legal:
                return (f"no build of cards in play is a legal move here; you may play "
                        f"{self.move_text(self.legal[0])}")
            return "there is no legal move here"
        if not same:
            if self.legal:
                return f"{card} has no legal move here; you may play {self.move_text(self.legal[0])}"
            return "there is no legal move here"
        shown = ", ".join(self.move_text(m) for m in same[:4])
        more = f" and {len(same) - 4} more" if len(same) > 4 else ""
        return f"not a legal move here; with {card} you may play {shown}{more}"


def _totals(items: list[tuple[int, ...]]) -> set[int]:
    totals = {0}
    for values in items:
        totals = {t + v for t in totals for v in values}
    return totals


def _partitions(items: list[tuple[int, ...]], target: int) -> int | None:
    """The fewest sets each worth ``target`` that use every item once (values with choices); None if none."""
    best: int | None = None
    for count in _splits(list(range(len(items))), items, target):
        if best is None or count < best:
            best = count
    return best


def _splits(left: list[int], items: list[tuple[int, ...]], target: int) -> Iterator[int]:
    if not left:
        yield 0
        return
    first, rest = left[0], left[1:]
    for chosen in _sets_with(first, rest, items, target):
        remaining = [i for i in rest if i not in chosen]
        for count in _splits(remaining, items, target):
            yield count + 1


def _sets_with(first: int, rest: list[int], items: list[tuple[int, ...]], target: int) -> Iterator[set[int]]:
    """Sets holding ``first`` and some of ``rest`` whose values can add up to ``target``."""
    def grow(k: int, chosen: list[int], remaining: int) -> Iterator[set[int]]:
        if remaining == 0:
            yield set(chosen)
            return
        for j in range(k, len(rest)):
            for v in set(items[rest[j]]):
                if 0 < v <= remaining:
                    yield from grow(j + 1, chosen + [rest[j]], remaining - v)

    for v in set(items[first]):
        if 0 < v <= target:
            yield from grow(0, [], target - v)

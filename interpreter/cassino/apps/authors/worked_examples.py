"""Worked examples for the rulebook, made and checked by the engine.

Each template below sets up a small position in terms of card *values* (a 7,
two 5s, a build of 6 made by the other player), so it works with any deck that
has such cards, and names which moves to show: every capture (or build, or
trail) of one card. The engine then says which moves are legal; those are what
the example prints, so it cannot disagree with play. Two kinds of "not allowed"
lines follow: moves the same position would allow under the setting's other
values (found by the engine with that one setting changed), and moves a
template names with a reason (checked illegal before they are printed).

The sample hand of the scoring section is a hand played by two greedy computer
players from a stated seed; anyone can replay it (the tests do).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from ...engine.core import Engine, Position
from ...engine.game import Game
from ...engine.moves import Move, MoveKind
from ...engine.notation import format_move, parse_move
from ...engine.rng import derive
from ...engine.scoring import Scorer
from ...engine.state import HandState
from ...errors import CassinoError
from ...language.cards import Card
from ...language.rulebook import Example, card_name, humanize, join_words
from ...language.rules import Rules
from ...language.semantics import may_never_end
from ...language.selectors import compile_selector
from ...language.settings import alternatives, split_path, unchecked, with_value
from ...players.bots import make_bot

SEP = " · "


class NoCard(Exception):
    """The deck has no (more) card a template needs; the example is left out."""


class Picker:
    """Hands out distinct cards of a deck by value or rank, suits in turn, so positions look natural."""

    def __init__(self, engine: Engine) -> None:
        self.deck = engine.deck
        self.used: set[Card] = set()
        self.turn = 0

    def _take(self, ok: Callable[[int], bool]) -> Card:
        n = len(self.deck.suits)
        by_suit = sorted(range(len(self.deck)), key=lambda i: ((i // max(len(self.deck) // n, 1) - self.turn) % n, i))
        for i in by_suit:
            card = self.deck.cards[i]
            if card not in self.used and ok(i):
                self.used.add(card)
                self.turn += 1
                return card
        raise NoCard()

    def v(self, value: int) -> Card:
        """A card worth exactly ``value``, in hand and on the table."""
        d = self.deck
        return self._take(lambda i: d.hand_values[i] == (value,) and d.table_values[i] == (value,))

    def where(self, ok: Callable[[int], bool]) -> Card:
        """A card whose deck index passes ``ok`` (its values, its name)."""
        return self._take(ok)

    def valueless(self, count: int) -> list[Card]:
        """``count`` cards of one rank without a number value (kings where the deck has them)."""
        d = self.deck
        ranks = [r for r in range(len(d.ranks)) if all(not d.hand_values[i] for i in range(len(d))
                                                          if d.rank_index[i] == r)]
        for r in sorted(ranks, key=lambda r: d.ranks[r] != "K"):
            free = [i for i in range(len(d)) if d.rank_index[i] == r and d.cards[i] not in self.used]
            if len(free) >= count:
                cards = [d.cards[i] for i in free[:count]]
                self.used.update(cards)
                return cards
        raise NoCard()


@dataclass
class Setup:
    """A position and what to show of it; seat 0 is "you"."""

    table: list[Card]
    hand: list[Card]
    show: list[tuple[str, list[Card]]]                  # ("captures" | "builds" | "moves" | "trails", played)
    builds: list[tuple[list[Card], int | str, int]] = field(default_factory=list)
    players: int = 2
    partners: bool = False
    illegal: list[tuple[str, str]] = field(default_factory=list)   # (move in notation, why not)
    sweep: str = ""                                                  # a move that empties the table
    captured: dict[int, list[Card]] = field(default_factory=dict)    # piles in order, last on top (African Casino)
    others: dict[int, list[Card]] = field(default_factory=dict)      # the other seats' hands, where play goes on
    stock: list[Card] | None = None                                  # the stock, top first (None: not shown)
    then: str = ""                                                   # a move whose outcome the example shows
    when: str = ""                                                   # when in the hand, where the rule depends on it


@dataclass(frozen=True)
class Template:
    key: str                                  # the rulebook clause it illustrates
    title: str
    contrast: tuple[str, ...]                 # settings whose other values give "not allowed" moves
    setup: Callable[[Rules, Picker], Setup | None]


def _n(c: Card) -> str:
    return str(c)


def _equal_cards(r: Rules, p: Picker) -> Setup | None:
    if r.capture.total is not None:
        return None   # (``_total_pair``: under a total no equal card is ever taken)
    a, b, x, y, c = p.v(7), p.v(7), p.v(3), p.v(4), p.v(7)
    return Setup([a, b, x, y], [c], [("captures", [c])])


def _sums(r: Rules, p: Picker) -> Setup | None:
    if r.capture.total is not None:
        return None   # (``_total_single``)
    five, four, six, three, nine = p.v(5), p.v(4), p.v(6), p.v(3), p.v(9)
    return Setup([five, four, six, three], [nine], [("captures", [nine])])


def _equal_first(r: Rules, p: Picker) -> Setup | None:
    if r.capture.total is not None:
        return None   # (``_single_first``: under a total no equal card is ever taken)
    a, x, y, b = p.v(7), p.v(3), p.v(4), p.v(7)
    return Setup([a, x, y], [b], [("captures", [b])])


def _valueless_capture(r: Rules, p: Picker) -> Setup:
    cards = p.valueless(4)
    return Setup(cards[:3], cards[3:], [("captures", cards[3:])])


def _compulsory(r: Rules, p: Picker) -> Setup:
    seven, two, four, mine, six, ten = p.v(7), p.v(2), p.v(4), p.v(7), p.v(6), p.v(10)
    return Setup([seven, two, four], [mine, six, ten], [("trails", [])])


def _hand_cards(r: Rules, p: Picker) -> Setup | None:
    if r.capture.hand_cards_max < 2:
        return None
    nine, four, five = p.v(9), p.v(4), p.v(5)
    return Setup([nine], [four, five], [("captures", [four, five])])


def _groups(r: Rules, p: Picker) -> Setup | None:
    if r.capture.hand_cards_max < 3:
        return None
    five, two, three, mine = p.v(5), p.v(2), p.v(3), p.v(5)
    return Setup([five], [two, three, mine], [("captures", [two, three, mine])])


def _build(r: Rules, p: Picker) -> Setup | None:
    if not r.build.allowed:
        return None   # nothing to show, and "you hold no 10" would be the wrong reason
    five, two, three, eight = p.v(5), p.v(2), p.v(3), p.v(8)
    return Setup([five, two], [three, eight], [("builds", [three])],
                 illegal=[(f"{_n(three)} build 5 on {_n(two)}", "you hold no 5"),
                          (f"{_n(three)} build 10 on {_n(two)} {_n(five)}", "you hold no 10")])


def _multiple(r: Rules, p: Picker) -> Setup:
    five, eight, three, mine = p.v(5), p.v(8), p.v(3), p.v(8)
    return Setup([five, eight], [three, mine], [("builds", [three])])


def _add_sets(r: Rules, p: Picker) -> Setup:
    five, three, six, two, eight = p.v(5), p.v(3), p.v(6), p.v(2), p.v(8)
    # Another player's build, taken over by adding to it; where only the owner's side may add to a
    # build (build.augment_opponents: false, its own example below), the build is yours.
    # Nor where another side's build takes the hand card alone (build.opponents_hand_only): a re-attack read
    # "your card alone, or with loose cards" over an example that showed no addition at all.
    owner = 1 if r.build.augment_opponents and not r.build.opponents_hand_only else 0
    # A loose eight beside: a set made with the hand card may take other sets of the value in with it (a reader of
    # the rulebook alone wrote "one set" from a sentence and an example that showed no more).
    loose_eight = p.v(8)
    return Setup([six, loose_eight], [two, eight], [("builds", [two])], builds=[([five, three], 8, owner)])


def _table_cards_owner(r: Rules) -> int | None:
    """Whose build a raise with table cards in it is shown on: another player's, or the mover's own where another
    side's build takes the hand card alone (``build.opponents_hand_only``); None where neither may be raised so."""
    if not r.build.opponents_hand_only:
        return 1
    return 0 if r.build.raise_own else None


def _raise(r: Rules, p: Picker) -> Setup:
    two, four, three, nine = p.v(2), p.v(4), p.v(3), p.v(9)
    return Setup([], [three, nine], [("builds", [three])], builds=[([two, four], 6, 1)])


def _raise_own(r: Rules, p: Picker) -> Setup:
    two, four, three, nine, six = p.v(2), p.v(4), p.v(3), p.v(9), p.v(6)
    return Setup([], [three, nine, six], [("builds", [three])], builds=[([two, four], 6, 0)])


def _raise_table(r: Rules, p: Picker) -> Setup | None:
    # 000 rule 5.1 Example C: a two raises a build of 7 to 9 and may take a loose nine into it;
    # only with table cards may the loose ace make the build 10.
    owner = _table_cards_owner(r)
    if owner is None:
        return None
    three, four, nine, ace, two, mine, ten = p.v(3), p.v(4), p.v(9), p.v(1), p.v(2), p.v(9), p.v(10)
    return Setup([nine, ace], [two, mine, ten], [("builds", [two])], builds=[([three, four], 7, owner)])


def _raise_takes_in(r: Rules, p: Picker) -> Setup | None:
    # 000 rule 5.1 Example C: a two raises a build of 7 to 9 and may take a loose nine into it; a loose
    # five and four, worth 9 together, only where a raise takes in sets.
    owner = _table_cards_owner(r)
    if not (r.build.raise_single and r.build.multiple) or owner is None:
        return None
    three, four, nine, five, four2, two, mine = p.v(3), p.v(4), p.v(9), p.v(5), p.v(4), p.v(2), p.v(9)
    return Setup([nine, five, four2], [two, mine], [("builds", [two])], builds=[([three, four], 7, owner)])


def _single_as_card(r: Rules, p: Picker) -> Setup:
    two, three, four, nine = p.v(2), p.v(3), p.v(4), p.v(9)
    return Setup([four], [nine], [("captures", [nine])], builds=[([two, three], 5, 1)])


def _for_partner(r: Rules, p: Picker) -> Setup | None:
    if not r.partnership(4, True):
        return None
    six, three, five, four, two = p.v(6), p.v(3), p.v(5), p.v(4), p.v(2)
    return Setup([five], [four, two], [("builds", [four])], builds=[([six, three], 9, 2)], players=4, partners=True)


def _continue(r: Rules, p: Picker) -> Setup:
    a, b, three, two, c, d = p.v(5), p.v(5), p.v(3), p.v(2), p.v(5), p.v(5)
    return Setup([three], [two, c, d], [("builds", [two]), ("builds", [c])], builds=[([a, b], 5, 1)])


def _valueless_build(r: Rules, p: Picker) -> Setup:
    all_four = r.build.valueless == "when_all_four"
    cards = p.valueless(4 if all_four else 3)
    return Setup(cards[:1], cards[1:], [("builds", [cards[1]])])


def _max_value(r: Rules, p: Picker) -> Setup | None:
    top = r.build.max_value
    if top is None:
        return None
    high = p.v(top + 1)
    low, three = p.v(top - 2), p.v(3)
    return Setup([low], [three, high], [("builds", [three])],
                 illegal=[(f"{_n(three)} build {top + 1} on {_n(low)}", f"above {top}")])


def _owner(r: Rules, p: Picker) -> Setup:
    five, three, six, eight, two, ten = p.v(5), p.v(3), p.v(6), p.v(8), p.v(2), p.v(10)
    # (Where the obligation lapses with the stock, the example says it is not yet used up: the
    # position's stock is every card not shown.)
    when = "" if r.build.owner_obligation_in_last_deal else \
        "before the last deal: the stock still holds cards (every card not shown)"
    return Setup([six], [eight, two, ten], [("trails", []), ("builds", [two])], builds=[([five, three], 8, 0)],
                 when=when)


def _keep(r: Rules, p: Picker) -> Setup:
    five, three, loose, mine, four = p.v(5), p.v(3), p.v(8), p.v(8), p.v(4)
    return Setup([loose], [mine, four], [("captures", [mine])], builds=[([five, three], 8, 0)])


def _trail_build(r: Rules, p: Picker) -> Setup:
    two, three, seven, five = p.v(2), p.v(3), p.v(7), p.v(5)
    return Setup([two, three], [seven, five], [("builds", [seven])])


def _free_actions(r: Rules, p: Picker) -> Setup | None:
    """A turn of several actions: the Khasino rules' 5, 3 and 2 built for a 10 in hand with no card from the hand,
    beside the 9 that takes a 9 (three players: a build's owner may still discard)."""
    if not r.build.free_actions:
        return None
    five, three, two, nine, ten, mine = p.v(5), p.v(3), p.v(2), p.v(9), p.v(10), p.v(9)
    return Setup([five, three, two, nine], [ten, mine], [("builds", []), ("captures", [mine])],
                 players=max(3, r.seats.min_players))


def _sweep(r: Rules, p: Picker) -> Setup:
    three, five, eight, ten = p.v(3), p.v(5), p.v(8), p.v(10)
    return Setup([three, five], [eight, ten], [], sweep=f"{_n(eight)} capture {_n(three)} {_n(five)}")


TEMPLATES: tuple[Template, ...] = (
    Template("capture.sums", "taking sums", ("capture.sums", "capture.several_groups"), _sums),
    Template("capture.equal_cards", "several equal cards", ("capture.equal_cards",), _equal_cards),
    Template("capture.equal_card_first", "an equal card first", ("capture.equal_card_first",), _equal_first),
    Template("capture.valueless_cards", "cards without a value", ("capture.valueless_cards",), _valueless_capture),
    Template("capture.hand_cards.max", "several cards played together", (), _hand_cards),
    Template("capture.hand_cards.combine", "cards played together in sets", ("capture.hand_cards.combine",), _groups),
    Template("capture.compulsory", "which cards may be trailed", ("capture.compulsory",), _compulsory),
    Template("build.allowed", "making a build", (), _build),
    Template("build.multiple", "a multiple build", ("build.multiple",), _multiple),
    Template("build.add_sets", "adding to a build", ("build.add_sets",), _add_sets),
    Template("build.raise_single", "raising another player's build", ("build.raise_single",), _raise),
    Template("build.raise_own", "raising your own build", ("build.raise_own",), _raise_own),
    Template("build.raise_with_table_cards", "raising with table cards", ("build.raise_with_table_cards",),
             _raise_table),
    Template("build.raise_takes_in", "what a raise takes in", ("build.raise_takes_in",), _raise_takes_in),
    Template("build.single_build_as_card", "a build in a sum", ("build.single_build_as_card",), _single_as_card),
    Template("build.for_partner", "building for your partner", ("build.for_partner",), _for_partner),
    Template("build.continue_as_begun", "a build of equal cards", ("build.continue_as_begun",), _continue),
    Template("build.valueless", "piling cards without a value", ("build.valueless",), _valueless_build),
    Template("build.max_value", "the highest build", (), _max_value),
    Template("build.owner_obligation", "owning a build", ("build.owner_obligation",), _owner),
    Template("build.keep_capturing_card", "keeping the card you built for", ("build.keep_capturing_card",), _keep),
    Template("trail.with_build", "trailing and building at once", ("trail.with_build",), _trail_build),
    Template("build.free_actions", "a turn of several actions", ("build.free_actions",), _free_actions),
    Template("sweeps.intro", "a sweep", (), _sweep),
)


# The Scopa family (issue 27): captures by a fixed total (Escoba), and a sweep made that way.
def _total(r: Rules, p: Picker) -> Setup | None:
    if r.capture.total != 15:
        return None
    five, three, jack, seven, mine = p.v(5), p.v(3), p.v(8), p.v(7), p.v(7)
    return Setup([five, three, jack, seven], [mine], [("captures", [mine])],
                 illegal=[(f"{_n(mine)} capture {_n(seven)}", "7 + 7 is not 15")])


def _total_one_set(r: Rules, p: Picker) -> Setup | None:
    if r.capture.total != 15:
        return None
    five, three, two, king = p.v(5), p.v(3), p.v(2), p.v(10)
    return Setup([five, three, two], [king], [("captures", [king])])


def _total_sweep(r: Rules, p: Picker) -> Setup | None:
    if r.capture.total != 15:
        return None
    three, two, ten = p.v(3), p.v(2), p.v(10)
    return Setup([three, two], [ten], [], sweep=f"{_n(ten)} capture {_n(three)} {_n(two)}")


def _single_first(r: Rules, p: Picker) -> Setup | None:
    """Equal card first under a total: the card taken first is one making the total with the card
    played (a king beside a six and a four, and a five: 5 + 10 = 15); the set is refused."""
    if r.capture.total is None:
        return None
    single, x, y, mine = p.v(r.capture.total - 5), p.v(6), p.v(4), p.v(5)
    return Setup([single, x, y], [mine], [("captures", [mine])])


def _total_single(r: Rules, p: Picker) -> Setup | None:
    """A total without sums: a card making the total with the one played is taken, a set worth as much is not (a
    king beside a six and a four, and a five)."""
    return _single_first(r, p) if r.capture.total is not None and not r.capture.sums else None


def _total_pair(r: Rules, p: Picker) -> Setup | None:
    """Several loose cards each making the total with the one played (two kings, and a five under 15), beside a set
    worth as much (a six and a four): what ``capture.equal_cards`` asks of them under a total."""
    if r.capture.total is None:
        return None
    single = r.capture.total - 5
    x = single // 2 + 1
    y = single - x
    if not 0 < y < x:
        return None
    a, b, six, four, mine = p.v(single), p.v(single), p.v(x), p.v(y), p.v(5)
    return Setup([a, b, six, four], [mine], [("captures", [mine])])


TEMPLATES += (
    Template("capture.sums", "a single card that makes the total", ("capture.sums",), _total_single),
    Template("capture.equal_cards", "two cards that each make the total", ("capture.equal_cards",), _total_pair),
    Template("capture.equal_card_first", "one card that makes the total, taken first", ("capture.equal_card_first",),
             _single_first),
    Template("capture.total", "making the total", (), _total),
    Template("capture.total", "one set a play", ("capture.several_groups",), _total_one_set),
    Template("sweeps.intro", "a sweep", (), _total_sweep),
)


# African Casino (issue 27): the top card of an opponent's face-up pile, taken with a table card
# (capture.pile_cards: taken).
def _pile_top(r: Rules, p: Picker) -> Setup | None:
    if r.capture.from_piles != "opponents_top" or r.capture.pile_cards != "taken":
        return None
    # (The refused set adds up to the card played: a re-attack found 3 + 4 refused against a 9 for its sum as much
    # as for the pile, an example that showed nothing.)
    three, four, five, six, nine = p.v(3), p.v(4), p.v(5), p.v(6), p.v(9)
    return Setup([three, five], [nine], [("captures", [nine])], captured={1: [four, six]},
                 illegal=[(f"{_n(nine)} capture {_n(four)} {_n(five)}",
                           f"{card_name(r, _n(four))} is under the top card")])


# African Casino's building (issue 36): a pile card that only augments, and the rules of the whole move.
def _pile_augments(r: Rules, p: Picker) -> Setup | None:
    # [Kh] 4. Augmenting a card or build: "the layout had instead contained a 9, a 7 and a 4 ... add
    # the 4 with the opponent's captured 5 ... and then use the now exposed 2 with the 7".
    if r.capture.from_piles != "opponents_top" or r.capture.pile_cards != "augment":
        return None
    nine, seven, four, two, five, mine = p.v(9), p.v(7), p.v(4), p.v(2), p.v(5), p.v(9)
    return Setup([nine, seven, four], [mine], [("captures", [mine])], captured={1: [two, five]},
                 illegal=[(f"{_n(mine)} capture {_n(nine)} {_n(seven)} {_n(two)}",
                           f"{card_name(r, _n(two))} is under {card_name(r, _n(five))}, not taken first")])


def _augment_opponents(r: Rules, p: Picker) -> Setup:
    five, three, six, two, mine, eight = p.v(5), p.v(3), p.v(6), p.v(2), p.v(2), p.v(8)
    return Setup([six, two], [mine, eight], [("builds", [mine]), ("captures", [eight])],
                 builds=[([five, three], 8, 1)])


def _opponents_hand_only(r: Rules, p: Picker) -> Setup | None:
    # 001 Taking In: "An opponent's build may be increased by cards from the hand only": a two raises another
    # side's build of 7 to 9, and the loose nine stays out of it.
    if not (r.build.opponents_hand_only and r.build.raise_single):
        return None
    three, four, loose, two, nine = p.v(3), p.v(4), p.v(9), p.v(2), p.v(9)
    return Setup([loose], [two, nine], [("builds", [two])], builds=[([three, four], 7, 1)])


def _raise_partners(r: Rules, p: Picker) -> Setup | None:
    if not r.partnership(4, True):
        return None
    two, four, three, nine = p.v(2), p.v(4), p.v(3), p.v(9)
    return Setup([], [three, nine], [("builds", [three])], builds=[([two, four], 6, 2)], players=4, partners=True)


def _raise_for_partner(r: Rules, p: Picker) -> Setup | None:
    # Your partner (seat 2) owns a build of 10, so a 10 is proven to be in their hand; an opponent owns a build of 8.
    # A two raises the 8 to 10, a value only your partner holds: where a raise is the raiser's own, not allowed.
    if not (r.partnership(4, True) and r.build.for_partner and r.build.raise_single):
        return None
    two, six, three, seven, mine, nine, ten = p.v(2), p.v(6), p.v(3), p.v(7), p.v(2), p.v(9), p.v(10)
    return Setup([], [mine, nine], [("builds", [mine])], builds=[([two, six], 8, 1), ([three, seven], 10, 2)],
                 players=4, partners=True, others={2: [ten]})


def _one_per_value(r: Rules, p: Picker) -> Setup:
    # A build of 8 of your side's: a new 8 joins it. Your partner's where there are partners, so that
    # build.one_per_player (a build of your own) does not refuse the new build too.
    five, three, loose, mine, eight = p.v(5), p.v(3), p.v(5), p.v(3), p.v(8)
    if r.partnership(4, True):
        return Setup([loose], [mine, eight], [("builds", [mine])], builds=[([five, three], 8, 2)],
                     players=4, partners=True)
    return Setup([loose], [mine, eight], [("builds", [mine])], builds=[([five, three], 8, 0)])


def _one_per_player(r: Rules, p: Picker) -> Setup:
    five, three, two, four, loose, mine, eight, five_held, nine = (p.v(5), p.v(3), p.v(2), p.v(4), p.v(2), p.v(3),
                                                                   p.v(8), p.v(5), p.v(9))
    return Setup([loose], [mine, eight, five_held, nine], [("builds", [mine])],
                 builds=[([five, three], 8, 0), ([two, four], 6, 1)])


TEMPLATES += (
    Template("capture.pile_cards", "an opponent's pile top", (), _pile_top),
    Template("capture.pile_cards", "augmenting with pile cards", ("capture.pile_cards",), _pile_augments),
    Template("build.augment_opponents", "another side's build", ("build.augment_opponents",), _augment_opponents),
    Template("build.raise_partners", "your partner's build", ("build.raise_partners",), _raise_partners),
    Template("build.raise_for_partner", "a raise to your partner's value", ("build.raise_for_partner",),
             _raise_for_partner),
    Template("build.opponents_hand_only", "another side's build, by the hand card alone",
             ("build.opponents_hand_only",), _opponents_hand_only),
    Template("build.one_per_value", "one build a value", ("build.one_per_value",), _one_per_value),
    Template("build.one_per_player", "one build a player", ("build.one_per_player",), _one_per_player),
)


# What sets a variant apart from the Anglo-American game (issue 50): its cards' values, a pack
# without building, a card worth more from the hand, a named capture event, drawing after each play.
def _court_value(r: Rules, p: Picker) -> Setup | None:
    """A court card capturing by its number value (Royal Casino's king 13 takes a nine and a four)."""
    d = p.deck
    high = sorted({d.hand_values[i][0] for i in range(len(d)) if len(d.hand_values[i]) == 1
                   and d.hand_values[i] == d.table_values[i] and d.hand_values[i][0] > 10}, reverse=True)
    if not high or not 2 <= high[0] - 9 <= 9:
        return None
    v = high[0]
    nine, rest, mine = p.v(9), p.v(v - 9), p.v(v)
    return Setup([nine, rest], [mine], [("captures", [mine])])


def _two_values(r: Rules, p: Picker) -> Setup | None:
    """A card of two values (an ace 1 or 14): it takes what makes either, a loose one of its rank too."""
    d = p.deck
    multi = [i for i in range(len(d)) if len(d.hand_values[i]) > 1]
    if not multi:
        return None
    high = max(d.hand_values[multi[0]])
    rank = d.rank_index[multi[0]]
    if not 2 <= high - 10 <= 9:
        return None
    mine = p.where(lambda i: d.rank_index[i] == rank)
    loose = p.where(lambda i: d.rank_index[i] == rank)
    ten, rest = p.v(10), p.v(high - 10)
    return Setup([loose, ten, rest], [mine], [("captures", [mine])])


def _hand_value(r: Rules, p: Picker) -> Setup | None:
    """A card worth more played from the hand than on the table (Finnish Kasino's 10 of diamonds, 16)."""
    d = p.deck
    worth = [(d.hand_values[i][0], i) for i in range(len(d))
             if len(d.hand_values[i]) == 1 and d.hand_values[i] != d.table_values[i] and len(d.table_values[i]) == 1]
    if not worth:
        return None
    v, index = max(worth)
    if not 2 <= v - 9 <= 9:
        return None
    mine = p.where(lambda i: i == index)
    face = d.table_values[index][0]
    nine, rest = p.v(9), p.v(v - 9)
    loose = p.v(face) if face not in (9, v - 9) else None
    table = [nine, rest] + ([loose] if loose is not None else [])
    illegal = ([(f"{_n(mine)} capture {_n(loose)}", f"from the hand it counts {v}")] if loose is not None else [])
    return Setup(table, [mine], [("captures", [mine])], illegal=illegal)


def _no_building(r: Rules, p: Picker) -> Setup | None:
    if r.build.allowed:
        return None
    five, three, eight = p.v(5), p.v(3), p.v(8)
    return Setup([five], [three, eight], [("moves", [three])])


def _event(name: str) -> Callable[[Rules, Picker], Setup | None]:
    def setup(r: Rules, p: Picker) -> Setup | None:
        item = r.scoring.item(name)
        event = next((e for e in r.scoring.events if item is not None and e.name == item.event), None)
        if event is None:
            return None
        d = p.deck
        wanted = [compile_selector(t, d.view) for t in event.takes]
        table = [p.where(lambda i, sel=sel: bool(sel(d.cards[i])) and len(d.hand_values[i]) == 1 and   # type: ignore[misc]
                         d.hand_values[i] == d.table_values[i] and d.hand_values[i][0] <= 4) for sel in wanted]
        total = sum(d.hand_values[d.index(c)][0] for c in table)
        mine = p.v(total)
        return Setup(table, [mine], [("captures", [mine])],
                     then=f"{_n(mine)} capture " + " ".join(_n(c) for c in table))
    return setup


def _draw(r: Rules, p: Picker) -> Setup | None:
    if not r.deal.draw_after_play:
        return None
    four, five, nine, two, six = p.v(4), p.v(5), p.v(9), p.v(2), p.v(6)
    hand = [nine, two, six][: max(r.deal.hand_size - 1, 1)]
    fill = [p.v(3) for _ in range(max(r.deal.hand_size - len(hand), 0))]
    others = {1: [p.v(7) for _ in range(r.deal.hand_size)]}
    stock = [p.v(8), p.v(10), p.v(1)]
    return Setup([four, five], hand + fill, [("captures", [nine])], others=others, stock=stock,
                 then=f"{_n(nine)} capture {_n(four)} {_n(five)}")


TEMPLATES += (
    Template("deck.ranks", "a court card by its value", (), _court_value),
    Template("deck.ranks", "a card of two values", (), _two_values),
    Template("deck.card_values", "a card worth more from the hand", (), _hand_value),
    Template("build.allowed", "no building", ("build.allowed",), _no_building),
    Template("deal.draw_after_play", "drawing after each play", (), _draw),
)


def event_templates(rules: Rules) -> tuple[Template, ...]:
    """An example for each item scoring a named capture (Tuxedo's oranges), under the item's rule."""
    return tuple(Template(f"scoring.items.{i.name}", f"{_a_word(humanize(i.event))}", (), _event(i.name))
                 for i in rules.scoring.items if i.count == "event" and i.event)


def _a_word(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


# ---------------------------------------------------------------------- showing positions and moves


def show_cards(rules: Rules, cards: Sequence[Card] | Sequence[str]) -> str:
    return " ".join(card_name(rules, str(c)) for c in cards)


def show_move(rules: Rules, engine: Engine, move: Move) -> str:
    """A move in notation, cards written with their suit symbols (``9♦ capture 9♣ 4♦ 5♥``)."""
    out = []
    for token in format_move(move, engine.deck).split(" "):
        out.append(_show_token(rules, engine, token))
    return " ".join(out)


def _show_token(rules: Rules, engine: Engine, token: str) -> str:
    core = token.strip("[]")
    parts = core.split("+")
    shown = []
    for part in parts:
        try:
            engine.deck.parse(part)
            shown.append(card_name(rules, part) if len(part) >= 2 else part)
        except CassinoError:
            shown.append(part)
    return token.replace(core, "+".join(shown))


def partners_words(rules: Rules, players: int) -> str:
    """``4 in two partnerships (you are seat 0, your partner seat 2)``; teams of three, or three teams of two,
    by the engine's seating (seat k in team k mod the number of teams). (A rulebook audit found krypkasino-threes'
    examples, six players in two teams of three, naming one partner, seat 2.)"""
    size = rules.seats.team_size
    teams = players // size
    mates = [seat for seat in range(1, players) if seat % teams == 0]
    seats = (f"your partner seat {mates[0]}" if len(mates) == 1
             else f"your partners seats {join_words([str(m) for m in mates])}")
    kind = "partnerships" if size == 2 else "teams"
    number = {2: "two", 3: "three", 4: "four"}.get(teams, str(teams))
    of = "" if size == 2 and teams == 2 else f" of {'two' if size == 2 else 'three'}"
    return f"{players} in {number} {kind}{of} (you are seat 0, {seats})"


def position_lines(rules: Rules, engine: Engine, setup: Setup) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = []
    if setup.partners:
        lines.append(("Players", partners_words(rules, setup.players)))
    elif setup.players != 2 or any(owner for _, _, owner in setup.builds) or setup.when:
        lines.append(("Players", f"{setup.players} (you are seat 0)"))
    if setup.when:
        lines.append(("When", setup.when))
    lines.append(("Table", show_cards(rules, setup.table) or "empty"))
    if setup.builds:
        shown = []
        for cards, value, owner in setup.builds:
            state = engine.position(Position(players=setup.players, partners=setup.partners,
                                             builds=[(cards, value, owner)]))
            kind = "multiple" if state.builds[0].multiple else "single"
            who = "you (seat 0)" if owner == 0 else (
                f"your partner (seat {owner})" if setup.partners and owner == 2 else f"seat {owner}")
            shown.append(f"[{show_cards(rules, cards)}] = {value}, {kind}, made by {who}")
        lines.append(("Builds", SEP.join(shown)))
    lines.append(("Your hand", show_cards(rules, setup.hand)))
    if setup.stock is not None:
        lines.append(("Stock", f"{show_cards(rules, setup.stock)} (top first)"))
    for seat, cards in sorted(setup.captured.items()):   # African Casino: a pile in order, its top last
        lines.append((f"Seat {seat}'s pile", f"{show_cards(rules, cards)} ({card_name(rules, str(cards[-1]))} on top)"))
    return lines


def _kind_ok(kind: str, move: Move) -> bool:
    if kind == "captures":
        return move.kind is MoveKind.CAPTURE
    if kind == "builds":
        return move.kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD)
    if kind == "trails":
        return move.kind is MoveKind.TRAIL
    return True


def _label(rules: Rules, kind: str, played: list[Card]) -> str:
    if kind == "trails":
        return "Trails"
    if not played:   # (build.free_actions: moves of cards in play alone)
        return f"{kind.capitalize()} with no card from your hand"
    return f"{kind.capitalize()} with {'+'.join(card_name(rules, str(c)) for c in played)}"


def _sorted(rules: Rules, engine: Engine, moves: list[Move]) -> list[str]:
    texts = [(len(format_move(m, engine.deck)), format_move(m, engine.deck), m) for m in moves]
    return [show_move(rules, engine, m) for _, _, m in sorted(texts, key=lambda t: (t[0], t[1]))]


def example_position(setup: Setup) -> Position:
    """The position of a worked example's setup, seat 0 to play (``differences`` tries them first)."""
    return Position(players=setup.players, partners=setup.partners, to_play=0, hands={0: setup.hand, **setup.others},
                    table=setup.table, builds=setup.builds, captured=setup.captured or None, stock=setup.stock)


def make_example(rules: Rules, engine: Engine, template: Template) -> Example | None:
    """The template's example for ``rules``, or None where the deck or the rules give it nothing to show."""
    try:
        setup = template.setup(rules, Picker(engine))
    except NoCard:
        return None
    if setup is not None and setup.players < rules.seats.min_players:
        # A game for more players (Scopone's four): the same position with the other hands empty.
        players = rules.seats.min_players
        setup = replace(setup, players=players, partners=rules.partnership(players, True))
    if setup is None or not rules.seats.min_players <= setup.players <= rules.seats.max_players:
        return None
    top = rules.build.max_value
    if top is not None and any(isinstance(value, int) and value > top for _, value, _ in setup.builds):
        # A build no play could make here (an audit of a drawn house rule: builds of 8 shown where none may pass 2).
        return None
    try:
        state = engine.position(example_position(setup))
    except (ValueError, CassinoError):
        return None
    legal = engine.legal_moves(state)
    lines = position_lines(rules, engine, setup)
    head = len(lines)   # the position's own lines; an example must add something to them
    masks = []
    for kind, played in setup.show:
        mask = engine.deck.mask(played)
        masks.append((kind, mask))
        shown = [m for m in legal if (kind == "trails" or m.played == mask) and _kind_ok(kind, m)]
        said = SEP.join(_sorted(rules, engine, shown)) or "none"
        if not shown and kind != "captures":
            said += _compelled(rules, engine, setup, legal, kind, mask)
        lines.append((_label(rules, kind, played), said))
    refused = _contrast(rules, engine, setup, legal, masks, template.contrast)
    for text, why in setup.illegal:
        move = engine.resolve(state, parse_move(text, engine.deck))   # two packs: names matched to the position
        if move not in legal and move not in refused:
            refused[move] = why
    if refused:
        items = [show_move(rules, engine, m) + (f" ({why})" if why else "")
                 for m, why in sorted(refused.items(), key=lambda kv: format_move(kv[0], engine.deck))]
        lines.append(("Not allowed", SEP.join(items)))
    if setup.sweep:
        move = engine.resolve(state, parse_move(setup.sweep, engine.deck))
        if move not in legal:
            return None
        after = engine.apply(state, move)
        if len(after.sweeps) <= len(state.sweeps):
            return None
        lines.append(("Sweep", show_move(rules, engine, move)))
    if setup.then:
        line = _outcome(rules, engine, state, legal, setup.then)
        if line is None:
            return None
        lines.append(line)
    if len(lines) == head:
        return None
    return Example(template.key, template.title, tuple(lines))


def _compelled(rules: Rules, engine: Engine, setup: Setup, legal: list[Move], kind: str, mask: int) -> str:
    """`` (a capture is compulsory here: 8♣ capture 8♥)`` where an example's builds or trails are none only because a
    card of the hand can capture and capturing is compulsory (the same position with capturing optional lists some);
    "" otherwise. (An author's audit read "You may raise your own builds" over "Builds with 3♦: none", in a house
    rule where a player who can capture must, and nothing said why.)"""
    if rules.capture.compulsory == "never":
        return ""
    try:
        free = Engine(Rules.from_data(with_value(dict(rules.data), ("capture", "compulsory"), "never")))
        optional = free.legal_moves(free.position(example_position(setup)))
    except (ValueError, CassinoError):
        return ""
    if not any((kind == "trails" or m.played == mask) and _kind_ok(kind, m) for m in optional):
        return ""
    captures = [m for m in legal if m.kind is MoveKind.CAPTURE]
    if not captures:
        return ""
    return f" (a capture is compulsory here: {SEP.join(_sorted(rules, engine, captures)[:2])})"


def _outcome(rules: Rules, engine: Engine, state: HandState, legal: list[Move],
             text: str) -> tuple[str, str] | None:
    """What a legal move brings about, as the engine plays it: the capture event it makes, or the
    cards you draw after it (None where it brings about neither)."""
    move = engine.resolve(state, parse_move(text, engine.deck))
    if move not in legal:
        return None
    after = engine.apply(state, move)
    shown = show_move(rules, engine, move)
    new_events = after.events[len(state.events):]
    if new_events:
        names = join_words([_a_word(humanize(e.name)) for e in new_events])
        return (f"After {shown}", f"you have made {names}")
    kept = [c for c in engine.deck.cards_of(state.hands[0]) if c not in engine.deck.cards_of(move.played)]
    drawn = list(engine.deck.cards_of(after.hands[0]))
    for c in kept:
        drawn.remove(c)
    if not drawn:
        return None
    return (f"After {shown}", f"you draw {show_cards(rules, drawn)}")


def _contrast(rules: Rules, engine: Engine, setup: Setup, legal: list[Move], masks: list[tuple[str, int]],
              paths: tuple[str, ...]) -> dict[Move, str]:
    """Moves of the shown kinds that the setting's other values would allow here, but these rules do not."""
    out: dict[Move, str] = {}
    here = set(legal)
    for dotted in paths:
        path = split_path(dotted)
        current = _get(rules, path)
        for alt in alternatives(path, current):
            try:
                other = Engine(unchecked(rules, path, alt))
                moves = other.legal_moves(other.position(example_position(setup)))
            except (ValueError, CassinoError, KeyError):
                continue
            for m in moves:
                if m in here:
                    continue
                if any((kind == "trails" or m.played == mask) and _kind_ok(kind, m) for kind, mask in masks):
                    out.setdefault(m, "")
    return out


def _get(rules: Rules, path: tuple[str, ...]) -> object:
    node: object = rules.data
    for part in path:
        node = node[part]  # type: ignore[index]
    return node


# ---------------------------------------------------------------------- the sample hand


def play_sample_hand(engine: Engine, seed: int, players: int, moves: list[Any] | None = None,
                     partners: bool = False) -> HandState:
    """One hand between greedy computer players: the game dealt from ``seed``, seat s's bot seeded derive(seed, s+1)
    (``moves``: a list the moves made are added to; ``partners``: asked for, as ``Game.new`` takes it)."""
    game = Game.new(engine, seed, players, partners=partners)
    bots = [make_bot("greedy", derive(seed, s + 1)) for s in range(players)]
    state = game.hand
    while not state.over:
        seat = state.turn
        move = bots[seat].choose(game.with_(hand=state), seat)
        if moves is not None:
            moves.append(move)
        state = engine.apply(state, move)
    return state


def replay_hand(engine: Engine, seed: int, players: int, moves: list[Any], deck: Any,
                partners: bool = False) -> HandState | None:
    """The hand dealt from ``seed`` with ``moves`` (made under other rules, written with ``deck``) played under
    ``engine``'s rules; None where one of them is not legal here. What a capture records as it is made (a capture
    event: Tuxedo's orange) is then recorded by these rules, not by those the hand was played under."""
    state = Game.new(engine, seed, players, partners=partners).hand
    for move in moves:
        if state.over:
            return None
        text = format_move(move, deck)
        found = next((m for m in engine.legal_moves(state) if format_move(m, engine.deck) == text), None)
        if found is None:
            return None
        state = engine.apply(state, found)
    return state if state.over else None


def sample_hand(rules: Rules, engine: Engine, key: str = "scoring.when") -> Example | None:
    """The scoring section's example: a whole hand's captures and what each item scores for them. None for
    rules that may never end (the rulebook's note warns of them): greedy players trail every card there, the
    table grows and each hand, a dozen of them looking for a sweep, took minutes to play."""
    if may_never_end(rules):
        return None
    players = rules.seats.min_players
    scorer = Scorer.of(engine)
    wants_sweep = any(i.count == "sweeps" and (i.points or i.by_size) for i in rules.scoring.items)
    chosen: tuple[int, HandState] | None = None
    for seed in range(1, 13):
        state = play_sample_hand(engine, seed, players)
        if chosen is None:
            chosen = (seed, state)
        if not wants_sweep or any(not w.cancelled for w in state.sweeps):
            chosen = (seed, state)
            break
    assert chosen is not None
    seed, state = chosen
    lines: list[tuple[str, str]] = [
        ("Players", f"{players}, each played by the computer's greedy strategy; deal and play from seed {seed}")]
    for seat in range(players):
        cards = engine.deck.cards_of(state.piles[seat])
        took = (f"{len(cards)} card{'s' if len(cards) != 1 else ''}: {show_cards(rules, sorted_cards(engine, cards))}"
                if cards else "nothing")
        lines.append((f"Seat {seat} took", took))
    # Each seat's sweeps that count (with the cards each took) and, where sweeps cancelled, how many of
    # its own were cancelled: cancelling takes one of each side's, so both sides lose the same number.
    any_cancelled = any(w.cancelled for w in state.sweeps)
    sweeps = []
    for seat in range(players):
        mine = [w.size for w in state.sweeps if w.seat == seat and not w.cancelled]
        sizes = ", ".join(map(str, mine))
        said = f"{len(mine)} ({sizes} card{'s' if mine != [1] else ''})" if mine else "none"
        if any_cancelled:
            gone = sum(1 for w in state.sweeps if w.seat == seat and w.cancelled)
            said = f"{said} counted, {gone} cancelled"
        sweeps.append(f"seat {seat}: {said}")
    lines.append(("Sweeps", SEP.join(sweeps)))
    if state.last_capturer is not None:
        lines.append(("Last capture", f"seat {state.last_capturer}"))
    points, by_item = scorer.hand_points(state)
    # Points are a side's: named by its seats where it has several (a player's audit read Scopone's "sweeps: seat 0 3"
    # beside seat 0's one sweep and seat 2's two).
    seats_of: dict[int, list[int]] = {}
    for seat, team in enumerate(state.teams):
        seats_of.setdefault(team, []).append(seat)
    side = {s: f"seat {seats[0]}" if len(seats) == 1 else "seats " + "+".join(map(str, seats))
            for s, seats in seats_of.items()}
    items = []
    for item in rules.scoring.items:
        # ("1 point to seat 1": "cards: seat 1 1" read as a seat numbered 11 to a rules audit)
        got = [f"{p} point{'' if abs(p) == 1 else 's'} to {side[s]}" for s, p in sorted(by_item[item.name].items()) if p]
        items.append(f"{humanize(item.name)}: {', '.join(got) if got else 'nobody'}")
    lines.append(("Points", SEP.join(items)))
    lines.append(("Total", ", ".join(f"{side[s]} {p}" for s, p in sorted(points.items()))))
    if rules.game.score_mode == "difference" and len(points) == 2:
        # (a review: hoyle-eleven-up's sample hand gave each side's total where only the difference is scored)
        (a, pa), (b, pb) = sorted(points.items())
        lines.append(("Scored", f"{side[a if pa >= pb else b]} {abs(pa - pb)} (the difference)" if pa != pb
                      else "nothing (equal totals)"))
    for r in rules.endgame.restrictions[:1]:
        restricted, _ = scorer.hand_points(state, {0: r.score})
        lines.append((f"Had seat 0 {r.score} points before this hand",
                      f"it would score only {join_words([humanize(n) for n in r.only], 'and')}: {restricted[0]}"))
    return Example(key, "a sample hand", tuple(lines))


def sorted_cards(engine: Engine, cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (engine.deck.suits.index(c.suit), engine.deck.ranks.index(c.rank)))


def examples(rules: Rules) -> list[Example]:
    """Every worked example the rules give, in rulebook order."""
    engine = Engine(rules)
    out = [e for t in TEMPLATES + event_templates(rules) if (e := make_example(rules, engine, t)) is not None]
    hand = sample_hand(rules, engine)
    if hand is not None:
        out.append(hand)
    return out

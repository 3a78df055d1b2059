"""Settings a rule file may give that its other settings leave unread.

A setting can be valid and still change no move and no score: every build setting where builds are not allowed, the
pile settings where no card is taken from the piles, the sweep settings where no scoring item counts
sweeps, every game-end setting of a game won by the lowest total. ``cassino explain`` marks each such
value "Not used here" (a reader should not take it for a rule of the game), and ``cassino validate``
warns of one an author's own file writes (a house rule's `build.max_value: 9` on Scopa, which builds
nothing, says less than its author thinks). Each claim is checked on play: tests change every setting
marked here to every other value it may take, in every bundled variant put under the marking condition,
and see the same legal moves and the same scores (``tests/test_explain_unused.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Deck
from .rules import Rules

#: The build settings read only where builds are allowed (``build.free_actions`` is not among them: a turn of
#: several actions without builds is refused as a rule set, ``semantics``), and the trail beside a build.
BUILD_SETTINGS = tuple(f"build.{k}" for k in (
    "multiple", "raise_single", "raise_own", "raise_partners", "raise_for_partner", "raise_with_table_cards",
    "raise_takes_in",
    "add_sets", "augment_opponents", "opponents_hand_only", "one_per_value", "one_per_player", "single_build_as_card", "for_partner",
    "continue_as_begun", "valueless", "max_value", "owner_obligation", "owner_obligation_in_last_deal",
    "keep_capturing_card")) + ("trail.with_build",)

#: The settings of raising a single build, read only where single builds may be raised.
RAISE_SETTINGS = ("build.raise_own", "build.raise_partners", "build.raise_with_table_cards", "build.raise_takes_in")

#: The partnerships' settings, read only where partnerships may be played.
TEAM_SETTINGS = ("seats.partnership_players", "seats.team_size")

#: The builds' settings of a partner's builds and values, read only where partnerships may be played.
PARTNER_BUILD_SETTINGS = ("build.for_partner", "build.raise_partners", "build.raise_for_partner")

#: The settings of taking cards from the players' piles (African Casino), read only where cards are taken so.
PILE_SETTINGS = ("capture.pile_cards", "capture.pile_reach", "capture.pile_base")

#: What makes, cancels and restricts a sweep: read only where a scoring item counts sweeps.
SWEEP_SETTINGS = ("sweeps.cancel", "sweeps.on_last_play", "sweeps.residue_is_sweep", "sweeps.record_when_restricted",
                  "sweeps.in_last_deal", "endgame.sweeps_from", "endgame.sweeps_from_side")

#: A lurch's settings: read only where a game is played to a target.
LURCH_SETTINGS = ("game.lurch.below", "game.lurch.multiplier")

#: The game-end settings that only several sides past the target, in a game won by the highest total, read.
GAME_END_SETTINGS = ("game.both_reach", "game.count_out", "game.count_out_sweeps", "game.target_step")

#: The keys of a scoring item that only some counts read (the scorer's): `ties` decides a tie for most, and
#: so on. (`at_least` and `card_points` given to another count are errors: ``semantics``.)
ITEM_KEYS_READ_BY: dict[str, tuple[str, ...]] = {
    "cards": ("most", "each", "at_least", "primiera"),
    "ties": ("most", "primiera"),
    "all_suits": ("primiera",),
    "event": ("event",),
    "by_size": ("sweeps",),
    "first_play_points": ("sweeps",),
    "previous_player_points": ("sweeps",),
}


@dataclass(frozen=True)
class Unread:
    """Why a setting is unread (``why``, in words), the settings that make it so (``because``, dotted paths
    whose values decide it) and how an author who meant it would make it count (``hint``)."""

    why: str
    because: tuple[str, ...]
    hint: str


def _one_value(rules: Rules) -> bool:
    """Whether every card counts one value where it lies (no ace of 1 or 14: an ace taking a loose ace alone, or
    the ace and a king as a set of 14, makes one group hold another)."""
    d = rules.deck
    return all(len(r.values) <= 1 for r in d.ranks) and all(
        len(v.hand or ()) <= 1 and len(v.table or ()) <= 1 for v in d.card_values)


def unread(rules: Rules, setting: str) -> Unread | None:
    """Why ``setting`` (a dotted path) cannot change this variant's game under its other settings; None
    where it can. A setting read only under another's value (the count-out order only when several
    sides past the target count out) is shown beside its value all the same, and a reader should not take
    it for a rule of the game (the engine's and the scorer's reading is what these mirror, and the tests
    check them on play)."""
    g = rules.game
    if setting in BUILD_SETTINGS and not rules.build.allowed:
        return Unread("no builds are made (`build.allowed: false`)", ("build.allowed",),
                      "remove it, or allow builds with build.allowed: true")
    if setting in RAISE_SETTINGS and rules.build.allowed and not rules.build.raise_single:
        return Unread("no single build is raised (`build.raise_single: false`)", ("build.raise_single",),
                      "remove it, or let single builds be raised with build.raise_single: true")
    if setting in PARTNER_BUILD_SETTINGS and rules.build.allowed and rules.seats.partnerships == "never":
        # (an African house rule's audit: explain marked the teams' settings unused and not these)
        return Unread("nobody plays in partnerships (`seats.partnerships: never`)", ("seats.partnerships",),
                      "remove it, or allow partnerships with seats.partnerships: optional")
    if setting == "build.raise_for_partner" and rules.build.allowed and not rules.build.for_partner:
        return Unread("nobody builds for a partner's value (`build.for_partner: false`), so every raise is to a value "
                      "the raiser holds", ("build.for_partner",),
                      "remove it, or let players build for their partner's proven value with build.for_partner: true")
    seats = rules.seats
    # (`partnerships: never` itself says what holds there: not marked, as Hungarian writes it for its two players)
    teams_setting = (setting == "seats.partnerships" and seats.partnerships != "never") or setting in TEAM_SETTINGS \
        or (setting in PARTNER_BUILD_SETTINGS and rules.build.allowed)
    if teams_setting and not seats.team_counts():
        # (a rule author's audit: Scopa for six alone still showed `partnerships = optional`, and its reading of four in
        # teams, in `explain`, which the rulebook had removed)
        counts = ", ".join(map(str, seats.partnership_players))
        return Unread(f"no number of players this file seats plays in partnerships (`seats.partnership_players`: {counts}; "
                      f"{seats.min_players} to {seats.max_players} players)",
                      ("seats.partnership_players", "seats.min_players", "seats.max_players"),
                      "remove it, or seat a number of players that plays in teams")
    if setting in TEAM_SETTINGS and rules.seats.partnerships == "never":
        return Unread("nobody plays in partnerships (`seats.partnerships: never`)", ("seats.partnerships",),
                      "remove it, or allow partnerships with seats.partnerships: optional")
    if setting == "game.play_out_hand" and rules.scoring.when == "end_of_hand":
        return Unread("points count at the end of the hand (`scoring.when: end_of_hand`), so no side reaches the target "
                      "during one", ("scoring.when",), "remove it, or peg points as they are won with scoring.when: as_won")
    if setting == "build.owner_obligation_in_last_deal" and rules.build.owner_obligation == "none":
        return Unread("owning a build obliges nothing (`build.owner_obligation: none`)", ("build.owner_obligation",),
                      "remove it, or set build.owner_obligation: no_trail or capture_or_raise")
    if setting == "capture.take_all" and rules.capture.total is not None:
        # (an audit of generated house rules: Escoba's take-all said a rule no play can meet)
        return Unread("a play takes one set making the total (`capture.total`), and no such set holds another, so "
                      "every capture already takes all it can", ("capture.total",),
                      "remove it, or capture by value rather than by a total (capture.total: null)")
    c = rules.capture
    if setting == "capture.take_all" and not c.several_groups and c.hand_cards_max == 1 and c.from_piles == "none" \
            and (c.valueless_cards in ("one", "all") or all(r.values for r in rules.deck.ranks)) and _one_value(rules):
        # (a rule author's audit: Scopa's take-all validated clean under --strict and its rulebook said "you must take
        # everything the card can take", which no play of one group meets: no capture holds another)
        return Unread("a play takes one group (`capture.several_groups: false`), and no group holds another, so every "
                      "capture already takes all it can", ("capture.several_groups",),
                      "remove it, or let a card take several groups at once with capture.several_groups: true")
    if setting == "capture.valueless_cards" and all(r.values for r in rules.deck.ranks):
        return Unread("every rank has a number value (`deck.ranks`)", ("deck.ranks",),
                      "remove it, or give a rank no value in deck.ranks")
    if setting in PILE_SETTINGS and rules.capture.from_piles == "none":
        return Unread("no card is taken from the players' piles (`capture.from_piles: none`)", ("capture.from_piles",),
                      "remove it, or let the top cards of the others' piles be taken with capture.from_piles: "
                      "opponents_top")
    if setting in ("capture.pile_reach", "capture.pile_base") and rules.capture.pile_cards == "taken":
        # (a pile's top is taken alone, one card of a pile a move, and needs no base: an African house rule's audit
        # found the same moves under either reach)
        return Unread("a pile's top is taken as a card of its own, one of a pile a move (`capture.pile_cards: "
                      "taken`)", ("capture.pile_cards",),
                      "remove it, or let pile cards only augment a base with capture.pile_cards: augment")
    if setting in LURCH_SETTINGS and g.target is None:
        return Unread("each hand is a game on its own, and none is won by a lurch (`target: none`)", ("game.target",),
                      "remove it, or play to a target with game.target: N")
    if setting == "game.lurch.multiplier" and g.lurch.below is None:
        return Unread("no lurch is played (`lurch.below: none`)", ("game.lurch.below",),
                      "remove it, or play a lurch with game.lurch.below: N")
    if setting == "endgame.sweeps_from_side" and rules.endgame.sweeps_from is None:
        return Unread("sweeps always score (`endgame.sweeps_from: none`)", ("endgame.sweeps_from",),
                      "remove it, or stop sweeps scoring from a score with endgame.sweeps_from: N")
    if setting in SWEEP_SETTINGS and not any(item.count == "sweeps" for item in rules.scoring.items):
        return Unread("no scoring item counts sweeps (a sweep is still said and counted, but scores nothing)",
                      ("scoring.items",),
                      "remove it, or score sweeps with a scoring item of `count: sweeps`")
    if setting == "sweeps.on_last_play" and (total := never_emptied_by_the_last_play(rules)):
        # (a players' audit of Escoba read "A sweep made with the last card of the hand counts" where none can be)
        t = rules.capture.total
        return Unread(f"every capture takes cards making {t} with the card played, and the pack's values add up to "
                      f"{total}, not a multiple of {t}, so the table is never empty after the hand's last card",
                      ("capture.total", "deck.ranks"), "remove it: no sweep can be made with the hand's last card here")
    if setting not in GAME_END_SETTINGS:
        return None
    if g.goal == "lowest":
        return Unread("the lowest total wins once a side is at or past the target (`goal: lowest`)", ("game.goal",),
                      "remove it: in a game won by the lowest total the game ends as the target is reached")
    if g.target is None:
        return Unread("each hand is a game on its own (`target: none`)", ("game.target",),
                      "remove it, or play to a target with game.target: N")
    if setting == "game.count_out" or setting == "game.count_out_sweeps":
        if g.both_reach != "count_out":
            return Unread(f"several sides past the target do not count out (`both_reach: {g.both_reach}`)",
                          ("game.both_reach",), "remove it, or count out with game.both_reach: count_out")
        if setting == "game.count_out_sweeps" and not any(
                item.count == "sweeps" and item.name in g.count_out for item in rules.scoring.items):
            return Unread("no sweeps item counts out (`count_out`)", ("game.count_out",),
                          "remove it, or name the sweeps item in game.count_out")
    if setting == "game.target_step" and g.both_reach != "next_target":
        return Unread(f"the target does not move (`both_reach: {g.both_reach}`)", ("game.both_reach",),
                      "remove it, or move the target on with game.both_reach: next_target")
    return None


def never_emptied_by_the_last_play(rules: Rules) -> int:
    """The pack's total value where the hand's last play can never leave the table empty; 0 where it can.

    Where every capture takes cards making a fixed total with the card played (``capture.total``: one group a play
    and no builds, which ``semantics`` asks of such rules; no pile cards), each takes a multiple of the total from
    what has been put in play, and so does the dealer's take of a first table; every card of the pack comes into
    play in a hand (dealt again, or drawn, until the stock is used up). After the last card, what lies on the table
    is the pack's total less multiples of the total: where the pack's total is no multiple of it (Escoba's 40 cards:
    220, fifteen's), cards are left."""
    c = rules.capture
    if (c.total is None or c.from_piles != "none"
            or not (rules.deal.redeal == "when_hands_empty" or rules.deal.draw_after_play)):
        return 0
    deck = Deck.from_rules(rules.deck)
    values = list(zip(deck.hand_values, deck.table_values))
    if any(len(hand) != 1 or hand != table for hand, table in values):
        return 0   # (a card of several values, or none, or another on the table: no one sum)
    total = sum(hand[0] for hand, _ in values)
    return total if total % c.total else 0


def unused(rules: Rules, setting: str) -> str:
    """Why ``setting`` is unread, in words (``unread``); "" where it is read."""
    found = unread(rules, setting)
    return found.why if found else ""


def unread_item_key(count: str, key: str) -> tuple[str, ...]:
    """The counts that read a scoring item's ``key``, where an item of ``count`` does not (else ())."""
    readers = ITEM_KEYS_READ_BY.get(key, ())
    return readers if readers and count not in readers else ()


def unread_item_setting(rules: Rules, item: str, key: str) -> Unread | None:
    """Why the key ``key`` of the scoring item ``item`` is unread under the rules' other settings (its count reads
    it): an `order` that counts nothing out, an `at_end` where every point waits for the end of the hand anyway."""
    g = rules.game
    if key == "order" and not (g.both_reach == "count_out" and item in g.count_out and g.goal == "highest"
                               and g.target is not None):
        return Unread("the cards go out in an order only when the item counts out (`game.both_reach: count_out`, "
                      "the item in `game.count_out`)", ("game.both_reach", "game.count_out"),
                      "remove it, or count the item out")
    if key == "at_end" and rules.scoring.when == "end_of_hand" and not g.claiming:
        return Unread("every point counts at the end of the hand already (`scoring.when: end_of_hand`)",
                      ("scoring.when",), "remove it, or peg points as they are won with scoring.when: as_won")
    return None

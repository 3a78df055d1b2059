"""A variant's rules as a rulebook a person can learn the game from.

Every sentence is chosen by a setting's value from the tables below (never the
setting's name), so a rule file is enough to print a how-to-play document; the
tables cover every value the schema allows, and a test fails when one is
missing. Each sentence is a :class:`Clause` keyed by the setting path it words,
which lets a house rule's rulebook mark what differs from its parent's and lets
``cassino diff`` say a difference in the same words. Worked examples come from
the engine (``apps/authors/worked_examples.py``) and are attached here by the same keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Iterable

from lark import Token

from .rules import ReadingRule, Rules, ScoringItem
from .semantics import left_undealt, may_never_end
from .selectors import _parser as _selector_parser
from .unread import never_emptied_by_the_last_play, unread


# ---------------------------------------------------------------------- the document


@dataclass(frozen=True)
class Clause:
    """One rule in words. ``key`` is the setting path (or topic) it words."""

    key: str
    text: str
    status: str = ""   # for a house rule: "changed", "new" or "removed" against its parent
    was: str = ""      # the parent's wording of a changed or removed rule


@dataclass(frozen=True)
class Example:
    """A worked example: labelled lines (``Table``, ``Your hand``, ``Captures with 7♥`` ...)."""

    key: str
    title: str
    lines: tuple[tuple[str, str], ...]
    status: str = ""   # in a house rule's book: "changed", "new" or "removed" against its parent's (``mark_examples``)
    was: tuple[tuple[str, str], ...] = ()   # a changed example: the parent's lines that differ or are gone


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    clauses: tuple[Clause, ...]
    examples: tuple[Example, ...] = ()


@dataclass(frozen=True)
class Rulebook:
    name: str
    title: str
    intro: str
    sections: tuple[Section, ...]
    notes: tuple[str, ...] = ()

    def clauses(self) -> dict[str, Clause]:
        return {c.key: c for s in self.sections for c in s.clauses}

    def rule_clauses(self) -> dict[str, Clause]:
        """The book's rules without its readings (:func:`is_reading`): what a lesson teaches a newcomer (the
        tutorial), the rule itself; the readings, the project's notes of which way it read a rule text, naming
        the texts by number, other variants, files and settings, stay in the reference (``cassino rules``)."""
        return {c.key: c for s in self.sections for c in s.clauses if not is_reading(c)}

    def examples(self) -> list[Example]:
        return [e for s in self.sections for e in s.examples]


def is_reading(clause: Clause) -> bool:
    """Whether ``clause`` is a reading ("Reading: ..."), said after the rule it reads (its key the rule's, then
    ``.reading``: a built-in reading, a file's own ``readings:``, the first dealer's), not a rule."""
    return ".reading" in clause.key or clause.text.startswith("Reading: ")


# ---------------------------------------------------------------------- wording tables
#
# WORDS: setting path -> value -> sentence (a str.format template over the context
# built by `_context`), or None where the value needs no sentence of its own (it is
# the ordinary case another sentence already covers). NUMBERS: paths whose value is
# a number or null: "value" words a number, "null" words null. STRUCTURED: paths
# whose value is a list or mapping worded by code below.

WORDS: dict[str, dict[Any, str | None]] = {
    "seats.partnerships": {
        "never": "Everyone plays for themselves.",
        "optional": "Four players may play as two partnerships, partners sitting opposite each other "
                    "(seats 0 and 2 against seats 1 and 3); partners pool what they capture and score together.",
        "always": "Four players always play as two partnerships, partners sitting opposite each other "
                  "(seats 0 and 2 against seats 1 and 3); partners pool what they capture and score together.",
    },
    "seats.direction": {
        "clockwise": "Play and the deal pass to the left (clockwise): the player on the dealer's left plays first.",
        "counterclockwise": "Play and the deal pass to the right (counterclockwise): the player on the dealer's "
                            "right plays first.",
    },
    "deal.redeal": {
        "when_hands_empty": "When every hand is empty and the stock still has cards, the dealer deals "
                            "{hand_size} more to each player (none to the table), until the stock is used up.",
        "never": "There is only one deal: the undealt cards stay face down as the stock.",
    },
    "deal.draw_after_play": {
        True: "After each play you draw from the stock to bring your hand back to {hand_size} cards, "
              "as long as the stock lasts.",
        False: None,
    },
    "deal.short_stock": {
        "exact": None,
        "split_rest_to_table": "When the stock cannot give everyone a full hand, the rest is dealt out evenly, "
                               "one card at a time, and any cards left over go face up to the table.",
    },
    "capture.sums": {
        True: "A card {sets_taken} of loose {summed} whose values add up to its own: a {nine} takes "
              "a {five} and a {four} together.",
        False: "A card takes only loose cards equal to it{and_builds}: sets adding up to its value cannot be taken.",
    },
    "capture.several_groups": {
        True: "One play may take several groups at once, each loose card in one group only: a {nine} may take a "
              "{nine}, a {five} with a {four}, and a {six} with a {three}, all together.",
        False: "One play takes one group only: a single card, or a single set adding up to the card's value.",
    },
    "capture.equal_cards": {
        "any": "When several loose cards equal the card you play, you may take as many of them as you like.",
        "all_when_pairing": "When you take a loose card equal to the card you play, you must take every loose "
                            "card of that value.",
        "all": "Whenever you capture, you must also take every loose card equal to the card you play.",
    },
    "capture.valueless_cards": {
        "one": "{Valueless} capture only by rank, one card at a time: a king takes one loose king.",
        "all": "{Valueless} capture only by rank, and must take every loose card of their rank at once.",
        "any": "{Valueless} capture only by rank, as many loose cards of their rank as you like.",
        "one_or_three_by_fourth": "{Valueless} capture only by rank, one card at a time; but when three of a "
                                  "rank lie on the table, the fourth may take all three.",
    },
    "capture.equal_card_first": {
        True: "When a loose card equals the card you play, you must take {equal_taken}, not a sum{nor_build}.",
        False: None,
    },
    "capture.compulsory": {
        "never": "You never have to capture: you may trail even a card that could capture.",
        "equal_loose_card": "You may not trail a card equal to a loose card on the table: play it to capture or "
                            "build instead.",
        "when_card_can_capture": "You may not trail a card that could capture something{capture_what}.",
        "whenever_possible": "If any card in your hand can capture, you must capture: you may not {build_or}trail.",
    },
    "capture.hand_cards.combine": {
        "total": "Cards played together count as their total: together they take cards or sets worth that total.",
        "groups": "Cards played together count as their total, or split into sets of equal worth that each "
                  "make the value taken: {groups_example}.",
    },
    "build.allowed": {
        True: "To build, play a card onto loose table cards and announce their total; on a later turn the "
              "whole build is captured by a card of that value. You may build only a value you hold: a {three} "
              "on a {five} is a build of 8 only if you keep an 8 in your hand.",
        False: "There is no building in this game.",
    },
    "build.multiple": {
        True: "A build may be multiple: several sets, each worth the announced value (a {three} played on a "
              "{five}, together with a loose {eight}, is a build of 8 in two sets; a {seven} played on a {seven} "
              "and announced as 7 is a build of 7 in two sets too, taken only by a 7). A build whose cards add up "
              "to its value is a single build.",
        False: "A build is a single set of cards: multiple builds are not allowed.",
    },
    "build.add_sets": {
        True: "You may add to a build a set worth its value made with your card (the card alone, or with loose "
              "cards), and with it any other loose cards or sets of loose cards worth the value; the build becomes "
              "multiple and its value stays the same.",
        False: "Once made, a build cannot be added to without changing its value.",
    },
    "build.raise_single": {
        True: "You may raise a single build: add a card from your hand and announce the new total, if you hold "
              "a card of the new value. A multiple build cannot be raised.",
        False: "Builds cannot be raised.",
    },
    "build.raise_own": {
        True: "You may raise your own builds as well as other players'.",
        False: "You may raise only other players' builds, never your own.",
    },
    "build.raise_with_table_cards": {
        True: "A raise may use loose table cards along with the card from your hand to make up the new value.",
        False: "Only the card from your hand changes a build's value: loose table cards cannot make up the "
               "difference.",
    },
    "build.raise_takes_in": {
        "sets": "As you raise, you may also take into the build loose cards or sets worth the new value, making it "
                "multiple: a {two} raising a build of 7 to 9 may take a loose {nine}, or a loose {five} and "
                "{four}, with it.",
        "cards": "As you raise, you may also take into the build loose cards each worth the new value, making it "
                 "multiple: a {two} raising a build of 7 to 9 may take a loose {nine} with it, but not a loose "
                 "{five} and {four}.",
        "none": "A raise takes nothing else into the build: only the card from your hand goes onto it.",
    },
    "build.single_build_as_card": {
        True: "A single build counts like one card of its value: it may be taken as part of a sum (a {nine} "
              "takes a build of 5 with a loose {four}) or become one set of a multiple build.",
        False: "A build is taken only whole, by a card of its own value.",
    },
    "build.for_partner": {
        True: "You may also build, or add to a build, for a value your partner is known to hold: one they "
              "announced in an earlier build, if they have played no card of that value since.",
        False: None,
    },
    "build.continue_as_begun": {
        True: "A build begun with equal cards and announced as their rank (two {five}s built as 5, not as 10) grows "
              "only by more cards of that rank.",
        False: None,
    },
    "build.valueless": {
        "never": "{Valueless} cannot be built.",
        "always": "{Valueless} may be piled by rank (a king on a king) if you hold another of that rank, to "
                  "capture them together later.",
        "when_all_four": "{Valueless} may be piled by rank (a king on a king) only when you can capture all four "
                         "of the rank: the pile and your hand must hold every one of them.",
    },
    "build.owner_obligation": {
        "none": "Owning a build does not stop you from trailing: you may trail while your build is on the table.",
        "no_trail": "While you own a build (you were the last to add to it), you may not trail: you must "
                    "capture, build, or add to a build.",
        "capture_or_raise": "While you own a build, each turn you must capture or raise a build: you may not "
                            "trail, make a new build, or add to a build without raising it.",
    },
    "build.keep_capturing_card": {
        True: "Until your build is captured or taken over (another player adds to it keeping a card of its value, "
              "and it is theirs), you must keep a card of its value in your hand.",
        False: "You may play away the card you built for while your build is still on the table.",
    },
    "trail.with_build": {
        True: "When you trail, you may at the same time build loose table cards (not the card you trail) for a "
              "value you hold.",
        False: None,
    },
    "sweeps.cancel": {
        True: "Sweeps cancel as they are made: whenever every side has a sweep not yet cancelled, one sweep "
              "of each side is cancelled (with two sides, one for one).",
        False: "Sweeps never cancel each other.",
    },
    "sweeps.on_last_play": {
        True: "A sweep made with the last card of the hand counts.",
        False: "A sweep made with the very last card of the hand does not count.",
    },
    "sweeps.residue_is_sweep": {
        True: "Taking the cards left at the end of the hand for the last capture counts as a sweep.",
        False: "Taking the cards left at the end of the hand is not a sweep.",
    },
    "sweeps.record_when_restricted": {
        True: "A side under an endgame restriction still records its sweeps: they cancel the opponents' but "
              "score nothing.",
        False: "A side under an endgame restriction records no sweeps at all.",
    },
    "scoring.items.*.count": {
        "most": "{points} to the side that captures the most {plural}",
        "each": "{points} for each {singular} captured",
        "sweeps": "{points} for each sweep",
        "event": "{points} for each capture that takes {event}",
        "last_capture": "{points} for making the last capture of the hand",
    },
    "scoring.items.*.ties": {
        "nobody": "; a tie scores nothing",
        "split": "; tied sides share the points, rounded down",
        "each": "; each tied side scores them",
    },
    "scoring.when": {
        "end_of_hand": "Points are counted at the end of each hand.",
        "as_won": "Points count as soon as they are won (each card and sweep when captured, a \"most\" item once "
                  "no other side can catch up), so a game can end in the middle of a hand.",
    },
    "game.score_mode": {
        "cumulative": "Each side adds the points it scores to its total.",
        "difference": "After each hand only the side with more points scores, and it scores the difference.",
    },
    "game.both_reach": {
        "higher_wins": "If several sides reach {target} or more in the same hand, the higher total wins; a tie plays "
                       "another hand.",
        "count_out": "If several sides reach {target} or more in the same hand, the points are counted out in this order: "
                     "{count_out}; the first side to reach {target} wins (the item that takes it there counts in full), "
                     "and the counting stops there: the other sides keep the totals counted by then.",
        "next_target": "If several sides reach {target} or more in the same hand{unclaimed}, the target moves "
                       "up by {target_step} points and play goes on.",
    },
    "game.count_out_sweeps": {
        "difference": "When the count-out reaches the sweeps, only the difference in the number of sweeps counts, "
                      "as points to the side with more; if that is not enough, nobody has won: the totals so "
                      "counted stand (sweeps both sides made alike count for nobody) and another hand is played.",
        "more_wins": "When the count-out reaches the sweeps, the side with more sweeps scores the difference in "
                     "sweeps and wins, even where that leaves it below the target; with equal sweeps another hand "
                     "is played.",
    },
    "scoring.items.*.at_end": {
        True: "; counted only when the hand is over, even though other points count as they are won",
        False: None,
    },
    "game.claiming": {
        True: "During play you may claim to have reached the target: a correct claim wins the game at once, a "
              "false one loses it.",
        False: None,
    },
    "game.play_out_hand": {
        True: "A hand is always played to its end, even when a side reaches the target during it.",
        False: "{stop_during_hand}",
    },
    "endgame.lifted_after_tie": {
        True: "If several sides reach the target or more in the same hand with equal totals, {limits} lifted for the "
              "hands that follow.",
        False: "{Limits} in force even after a tie past the target.",
    },
}

# The Scopa family (issue 27): captures by a total, the misdeal, the dealer's initial sweep, primiera.
WORDS.update({
    "deal.dealer_takes_total": {
        True: "If the cards first dealt to the table add up to {total}, or split wholly into sets of {total} each, "
              "the dealer takes them at once and scores a sweep for each set.",
        False: None,
    },
    "scoring.items.*.all_suits": {
        True: "; a side that has not taken a card of every suit cannot win it",
        False: "; a side missing a suit counts the suits it has",
    },
})
WORDS["scoring.items.*.count"]["primiera"] = ("{points} to the side whose best cards, one of each suit, add up to "
                                              "the most, counted {card_points}")
# A threshold (issue 36, pagat's South African Casino: at least five spades); every side that reaches it scores.
WORDS["scoring.items.*.count"]["at_least"] = "{points} to each side that captures at least {at_least}"


@dataclass(frozen=True)
class Reading:
    """Where a rule text can be read two ways, the way a file citing it reads it.

    Printed after the clause ``key`` (or, with ``key`` empty, as a note under the
    introduction) in the rulebook of a file whose ``source`` names ``source``, and only
    while every setting in ``when`` still has the value the reading chose: a house rule
    that changes the setting gets its own words and no stale reading.
    """

    source: str
    key: str
    when: tuple[tuple[str, Any], ...]
    text: str
    unless: tuple[str, ...] = ()   # texts that settle the point themselves: a file citing one needs no reading


#: The readings chosen where a cited text is ambiguous or silent (docs/rule-examples.md
#: quotes the passages). Each is matched by a part of the variant's ``source`` (its title or address):
#: 001 the 1897 Hoyle, 002 pagat.com's Royal Casino (Dominican, Tuxedo, Hungarian), 003 the short modern text.
READINGS: tuple[Reading, ...] = (
    Reading("Foster\u2019s Complete Hoyle", "capture.compulsory", (("capture.compulsory", "never"),),
            "001 says a player trails \"when [he] cannot pair, combine, or build anything\"; this game reads that "
            "as saying when a trail is needed, not as forbidding one: you may trail even when you could capture "
            "or build.", unless=("pagat.com/fishing/casino.html", "pagat.com/fishing/royal_casino.html")),
    Reading("a short modern rules page", "capture.compulsory", (("capture.compulsory", "never"),),
            "003 says you trail \"in the event that ... you cannot make a capture or a build\"; this game reads that "
            "as saying when a trail is needed, not as forbidding one: you may trail even when you could capture "
            "or build."),
    Reading("a short modern rules page", "capture.valueless_cards", (("capture.valueless_cards", "all"),
                                                                     ("capture.equal_cards", "any")),
            "003 says that with several equal cards on the table you \"can take all of them\"; for court cards "
            "this game reads it as a rule, not a choice: a court card takes every card of its rank, loose or piled."),
    Reading("DRAW CASSINO", "", (("capture.valueless_cards", "one"), ("capture.equal_cards", "any")),
            "001 gives Draw Cassino as a variation of its own Cassino (a sweep scores 1, pairing gathers every "
            "card of the rank); this game keeps the standard game's play and scoring (000) and changes only the "
            "deal, so sweeps score nothing and you choose which equal cards to take."),
    Reading("(Tuxedo)", "scoring.items.oranges", (("scoring.when", "end_of_hand"),),
            "002 has the player call \"orange\" to score it (another player may call a forgotten one, and a false "
            "call costs 10 points); this game scores every orange as if called, so there are no forgotten or "
            "false calls."),
    Reading("Kirchner", "game.claiming", (("game.claiming", True),),
            "002 has the first player to announce correctly that they reached the target win, even if the other "
            "had reached it unknowingly, and says nothing of a wrong announcement; this game takes 001's claiming "
            "rule, where a false claim loses the game. Nor does 002 say what happens when nobody announces: then, "
            "as without claiming, the game is decided when the hand ends."),
)


def readings(rules: Rules, key: str) -> list[str]:
    """The readings to print after clause ``key`` (``""``: the notes) of ``rules``."""
    source = str(rules.data.get("source") or "")
    return [r.text for r in READINGS if r.key == key and r.source in source
            and not any(u in source for u in r.unless) and all(setting_value(rules, path) == value for path, value in r.when)]


def setting_value(rules: Rules, path: str) -> Any:
    """The value of the dotted setting ``path`` in ``rules`` (None where there is none)."""
    node: Any = rules.data
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


NUMBERS: dict[str, dict[str, str | None]] = {
    "seats.min_players": {"value": "{players_words}"},
    "seats.max_players": {"value": "{players_words}"},
    "deal.table_cards": {"value": "{table_words}"},
    "deal.hand_size": {"value": "The dealer gives each player {hand_size} {hand_cards_noun}."},
    "deal.packet": {"value": "{packet_words}"},
    "capture.hand_cards.max": {"value": "{hand_cards_words}"},
    "build.max_value": {"value": "No build may be announced above {max_value}.", "null": None},
    "game.target": {"value": "{target_words}",
                    "null": "Each hand is a game on its own: the side that scores more in it wins; a tie for the most is a draw."},
    "game.target_step": {"value": None},
    "game.lurch.below": {"value": "A win before the loser has {lurch_below} points is a lurch and counts as "
                                  "{lurch_games}.", "null": None},
    "game.lurch.multiplier": {"value": None},
    "endgame.sweeps_from": {"value": "From {sweeps_from} points on, a side's sweeps score nothing{sweeps_still}.",
                            "null": None},
    "scoring.items.*.points": {"value": None},
    "scoring.items.*.first_play_points": {"value": "; a sweep of the whole first table by the first play of "
                                                   "the hand scores {first_play}", "null": None},
}
# Negative games (issue 27, Krypkasino): penalty points, the loss limit, the tabbe's share for the player before.
WORDS["game.goal"] = {
    "highest": None,
    "lowest": "{goal_words}",
}
NUMBERS["scoring.items.*.previous_player_points"] = {
    "value": "; the player seated just before the sweeper in the order of play (their side) scores {previous_player} for it",
}
# The Scopa family (issue 27).
NUMBERS.update({
    "deal.misdeal.at_least": {"value": "{misdeal_words}"},
    "capture.total": {"value": "{total_words}", "null": None},
})
#: Words in place of WORDS' under a capture total (``capture.total`` set, Escoba), where the setting
#: acts on what makes the total, not on cards equal to the one played (7 + 7 is never 15): the engine
#: takes a single loose card worth the total less the card played, alone, before any set (issue 37).
WORDS_UNDER_TOTAL: dict[str, dict[Any, str | None]] = {
    "capture.equal_card_first": {
        True: "When one loose card alone makes {total} with the card you play, a capture with that card must take "
              "it (one such card, if there are several), not a set of several cards{single_first_example}.",
        False: None,
    },
    # (a check of drawn house rules, benchmarks/book_follows_play.py: Escoba without sums took a single card
    # making the total, where the book said a play takes "one card or several")
    "capture.sums": {
        True: None,
        False: "A play takes a single table card that makes {total} with the card you play, never several "
               "table cards together.",
    },
    # (the same check: Escoba with `equal_cards: all` refused a 5 both kings and each king alone, unworded)
    "capture.equal_cards": {
        "any": None,
        "all_when_pairing": "When you take a single loose card that makes {total} with the card you play, you must "
                            "take every loose card that does: one play takes one set, so where two or more such cards "
                            "lie on the table, your card takes none of them (it may still take a set of several "
                            "cards).",
        "all": "Whenever you capture, you must also take every loose card that alone makes {total} with the card you "
               "play: one play takes one set, so where two or more such cards lie on the table your card captures "
               "nothing, and where one lies there it is the only card your card may take.",
    },
}

#: The settings whose values change another setting's words: setting path -> those settings (the
#: writer words it by them). ``cassino diff`` reads this to show, beside a position, how one
#: variant's setting reads under the other's settings: Scopa's equal card first means, under
#: Escoba's total, "a single card making 15 is taken first", which neither book says of itself.
WORDED_BY: dict[str, tuple[str, ...]] = {
    "capture.equal_card_first": ("capture.total",),          # WORDS_UNDER_TOTAL
    "capture.sums": ("capture.several_groups", "capture.total"),  # and "a single table card" under a total
    "capture.equal_cards": ("capture.several_groups", "capture.total"),  # one group a play; a total's cards
}
# `count: at_least` (issue 36): its number is said in the count's sentence ("at least five spades").
NUMBERS["scoring.items.*.at_least"] = {"value": None, "null": None}

# Nordic Kasino (Finland): huts that stop in the last deal, and for everyone from a score.
WORDS.update({
    "sweeps.in_last_deal": {
        True: None,
        False: "Emptying the table in the last deal of the hand (once the stock is used up) is no sweep: it "
               "scores nothing and cancels nothing.",
    },
    "endgame.sweeps_from_side": {
        "own": None,
        "any": "Once any side has {sweeps_from} points or more at the start of a hand, no side's sweeps score.",
    },
})

# The deal's order (issue 36): the table's cards before the dealer's own, after all the players, or first.
WORDS["deal.table_order"] = {
    "before_dealer": "{table_order_words}",
    "after_players": "{table_order_words}",
    "after_hands": "{table_order_words}",
    "first": "{table_order_words}",
}

# A capture takes all it can (issue 36, the Krypkasino question).
WORDS["capture.take_all"] = {
    True: "When you capture, you must take everything the card you play can take together: you may not leave "
          "out a card or set it could have taken with the rest.",
    False: None,
}

# The owner's obligation in the last deal (issue 36, African Casino).
WORDS["build.owner_obligation_in_last_deal"] = {
    True: None,
    False: "That obligation ends with the stock: in the last deal of the hand (every deal, when all the cards "
           "are dealt at once) the owner of a build may trail like anyone else.",
}

# African Casino (issue 27): capture piles in play, deals by player count, items by number of sides.
WORDS.update({
    "capture.from_piles": {
        "none": None,
        "opponents_top": "Captured cards are kept face up, one pile for each side{partners_share}, the "
                         "capturing card on top of the cards it took. The top card of each opponent's pile is in "
                         "play for you; your own side's pile is not.",
    },
})

# African Casino's building (issue 36): how a pile card is used, and the rules of the whole move
# (engine/turnrules.py). Each sentence is said only where its setting is on (tests/test_rulebook_sentences.py).
WORDS.update({
    "capture.pile_cards": {
        "taken": "You may capture an opponent's pile top as if it were a loose card, alone or with table cards in "
                 "a set{pile_into_build}. Only the top card of each opponent's pile is in play, so a move "
                 "takes at most one card of a pile; the card under it becomes that pile's top once the move is "
                 "made{pile_next}. A pile top is not part of the table: a capture of pile tops alone is no sweep.",
        "augment": "A card from an opponent's pile is never captured directly, nor built with on its own: it only "
                   "augments. It joins a set worth the value you capture or build, beside a base worth that value "
                   "with no pile card in it: {pile_bases}{pile_base_words}. Each set takes at most one card of a pile{pile_depth}.",
    },
    "build.raise_partners": {
        True: None,
        False: "You may not raise a build your partner owns.",
    },
    "build.raise_for_partner": {
        True: None,
        False: "You raise a build only to a value you hold a card of yourself (one you do not keep for another of "
               "your builds), never to a value only your partner is known to hold.",
    },
    "build.augment_opponents": {
        True: None,
        False: "You may add a set to a build another side owns only with the card that captures it, in the same "
               "action: that card takes the build and, with it, the cards you would add. You never add a set to it "
               "and leave it on the table.",
    },
    "build.opponents_hand_only": {
        True: "A build another side owns grows by the card from your hand alone: you may raise it with that card, "
              "or add that card to it as a set by itself, but no table card goes into it with the card; "
              "{own_builds} may take table cards in.",
        False: None,
    },
    "build.one_per_value": {
        True: "There are never two builds of one value on the table: {one_value_how}.",
        False: None,
    },
    "build.one_per_player": {
        True: "A player owns one build at a time: while you own a build you may add to it or capture it, but not "
              "make another build or take one over from another player.",
        False: None,
    },
    "build.free_actions": {
        True: "A turn may hold, beside its one card from your hand, any number of builds made of cards already in "
              "play, before or after that card: two cards or more that you could take with a card of your hand "
              "(loose cards, and opponents' pile tops where they are in play) made into a new build, one card alone "
              "being no build; or loose sets (and such pile tops) added to your side's build of their value. The "
              "card you played from your hand this turn is in none of them. Once that card is played, you end the "
              "turn (`end`); the game ends it for you once no card is left in play to build with, or in your hand "
              "to build for{partner_value}. A turn is written as its actions in order, joined by `;`: `build 10 on 5S 3D 2C; 9D "
              "capture 9C`.",
        False: None,
    },
})
# (Loose cards are no base beside a build of their value only with one build a value.)
WORDED_BY["capture.pile_cards"] = ("build.one_per_value", "capture.pile_base", "capture.pile_reach")
# (issue 49) Said in capture.pile_cards' sentence, never on their own: which bases, and how deep into a pile.
WORDS["capture.pile_base"] = {"layout_or_played": None, "layout": None}
NUMBERS["capture.pile_reach"] = {"value": None}

#: Settings worded by code (lists and mappings), not by a table.
STRUCTURED = {"deck.ranks", "deck.suits", "deck.card_values", "game.count_out", "endgame.restrictions",
              "scoring.items.*.cards", "scoring.items.*.event", "scoring.items.*.by_size",
              "scoring.items.*.order", "scoring.events.*.takes"}
STRUCTURED |= {"deal.misdeal.cards", "scoring.items.*.card_points"}   # the Scopa family: worded with at_least / count
STRUCTURED |= {"deal.by_players", "scoring.items.*.sides"}   # African Casino: worded by _by_players_words, item_words
STRUCTURED |= {"deck.packs", "seats.partnership_players", "seats.team_size"}   # two packs (issue 27, Krypkasino): worded with the deck where more than one

_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve")


# ---------------------------------------------------------------------- helpers


def plural(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def humanize(name: str) -> str:
    """A scoring item's or event's name as words (``big_casino`` -> ``big casino``)."""
    return name.replace("_", " ")


def points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def join_words(words: list[str], last: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def card_name(rules: Rules, text: str) -> str:
    """``10D`` as the rulebook shows a card: ``10♦`` (the suit's symbol where it has one)."""
    symbols = {s.letter: s.symbol or s.letter for s in rules.deck.suits}
    rank, suit = text[:-1].upper(), text[-1].upper()
    return f"{'10' if rank == 'T' else rank}{symbols.get(suit, suit)}"


def _rank_name(rules: Rules, rank: str) -> str:
    for r in rules.deck.ranks:
        if r.rank == rank:
            return r.name or r.rank
    return rank


def _above_build_max(rules: Rules) -> str:
    """The cards ``build.max_value`` keeps from ever taking a build, in words (``the jack (11), queen
    (12) and king (13)``; "" where no card is worth more than it). A card counting two ways (Royal's
    ace, 1 or 14) is named by the values above the limit, as it still takes builds by the other."""
    from .cards import Deck

    top = rules.build.max_value
    if top is None:
        return ""
    deck = Deck.from_rules(rules.deck)
    above: dict[int, set[int]] = {}
    below: dict[int, set[int]] = {}
    for i in range(len(deck)):
        r = deck.rank_index[i]
        above.setdefault(r, set()).update(v for v in deck.hand_values[i] if v > top)
        below.setdefault(r, set()).update(v for v in deck.hand_values[i] if v <= top)
    named: list[str] = []
    for r, vs in sorted(above.items(), key=lambda kv: (bool(below[kv[0]]), min(kv[1] or {0}))):
        values = join_words([str(v) for v in sorted(vs)], "or")
        if vs:
            named.append(f"{deck.rank_names[r]} counted as {values}" if below[r] else f"{deck.rank_names[r]} ({values})")
    return ("the " + join_words(named)) if named else ""


def _valueless_ranks(rules: Rules) -> list[str]:
    return [r.name or r.rank for r in rules.deck.ranks if not r.values]


def _value_name(rules: Rules, value: int) -> str:
    """A card of ``value`` in words (``a five``), by the deck's rank names; a number where none has it."""
    for r in rules.deck.ranks:
        if r.values == (value,):
            return r.name or r.rank
    return str(value)


def _suit_words(rules: Rules, letter: str) -> tuple[str, str]:
    for s in rules.deck.suits:
        if s.letter == letter:
            name = s.name or s.letter
            if name.endswith("s"):
                return name[:-1], name
            return f"{name} card", f"{name} cards"
    return letter, letter


def _colour_words(rules: Rules, colour: str) -> str:
    for s in rules.deck.suits:
        if s.colour.upper() == colour.upper():
            if s.colour.upper() == s.letter.upper() or len(s.colour) == 1:
                return s.name or colour
            return s.colour
    return colour


def selector_words(rules: Rules, text: str) -> tuple[str, str] | None:
    """What a card selector names, in words, singular and plural; None when no wording fits."""
    try:
        tree = _selector_parser().parse(text)
    except Exception:  # a file that loaded has valid selectors; this is for safety only
        return None
    return _words(rules, tree)


def _words(rules: Rules, node: Any) -> tuple[str, str] | None:
    if isinstance(node, Token):
        return None
    kind = node.data
    kids = node.children
    if kind in ("any_of", "all_of") and len(kids) == 1:
        return _words(rules, kids[0])
    if kind == "any_of":
        parts = [_words(rules, k) for k in kids]
        if any(p is None for p in parts):
            return None
        return (join_words([p[0] for p in parts], "or"),  # type: ignore[index]
                join_words([p[1] for p in parts], "or"))  # type: ignore[index]
    if kind == "all_of" and len(kids) == 2 and not isinstance(kids[1], Token) and kids[1].data == "negate":
        # "suit=S and not 2S" (Krypkasino's other spades): the cards named, but for the excepted ones.
        base, but = _words(rules, kids[0]), _words(rules, kids[1].children[0])
        if base is None or but is None:
            return None
        return f"{base[0]} other than {but[1]}", f"{base[1]} other than {but[1]}"
    if kind == "all_of" and len(kids) == 2:
        # "suit=D and value<=3" (a rule author's napola): "coins worth 3 or less", not the selector's own words
        for some, worth in ((kids[0], kids[1]), (kids[1], kids[0])):
            if not isinstance(worth, Token) and worth.data == "compare" and str(worth.children[0]).lower() == "value":
                base, phrase = _words(rules, some), _words(rules, worth)
                if base is not None and phrase is not None and not base[1].startswith("the "):
                    said = phrase[1].removeprefix("cards ")
                    return f"{base[0]} {said}", f"{base[1]} {said}"
    if kind == "everything":
        return "card", "cards"
    if kind == "card":
        name = card_name(rules, str(kids[0]))
        return f"the {name}", f"the {name}"
    if kind == "compare":
        field, op, word = (str(k) for k in kids)
        field = field.lower().replace("color", "colour")
        if op != "=" and field != "value":
            return None
        if field == "rank":
            name = _rank_name(rules, "10" if word.upper() == "T" else word.upper())
            return name, plural(name)
        if field == "suit":
            return _suit_words(rules, word.upper())
        if field == "colour":
            colour = _colour_words(rules, word)
            return f"{colour} card", f"{colour} cards"
        relation = {"=": "worth {n}", ">=": "worth {n} or more", "<=": "worth {n} or less",
                    ">": "worth more than {n}", "<": "worth less than {n}", "!=": "not worth {n}"}[op]
        phrase = relation.format(n=word)
        return f"card {phrase}", f"cards {phrase}"
    if kind == "member":
        field = str(kids[0]).lower().replace("color", "colour")
        words = [str(k) for k in kids[1:]]
        if field == "colour":
            names = [_colour_words(rules, w) for w in words]
        elif field == "suit":
            names = [_suit_words(rules, w.upper())[1] for w in words]
            return join_words(names, "or"), join_words(names, "or")
        elif field == "rank":
            names = [plural(_rank_name(rules, w.upper())) for w in words]
            return join_words(names, "or"), join_words(names, "or")
        else:
            return None
        phrase = join_words(names, "or")
        return f"{phrase} card", f"{phrase} cards"
    return None


# ---------------------------------------------------------------------- context


def _context(rules: Rules) -> dict[str, Any]:
    """The values a template may name: settings, and words for the deck's cards."""
    d, c, g = rules.deal, rules.capture, rules.game
    valueless = _valueless_ranks(rules)
    vl = join_words([plural(v) for v in valueless], "and") if valueless else "cards without a value"
    s = rules.seats
    if s.min_players == s.max_players:
        players_words = f"A game for {_count(s.min_players)} players."
    else:
        players_words = f"A game for {_count(s.min_players)} to {_count(s.max_players)} players."
    ctx: dict[str, Any] = {
        "hand_size": d.hand_size, "table_cards": d.table_cards, "packet": d.packet,
        "players_words": players_words,
        "table_words": _table_words(rules),
        "packet_words": ("Cards are dealt one at a time." if d.packet == 1 else
                         f"Cards are dealt {d.packet} at a time, to each player in turn{_short_packets(rules)}."),
        "table_order_words": _table_order_words(rules),
        "hand_cards_words": ("You play one card a turn." if c.hand_cards_max == 1 else
                             # (a rulebook audit; "one card a turn; ... up to 3" read as contradicting itself, a
                             # player's audit of Hungarian)
                             f"You play one card a turn, except that to capture you may play up to "
                             f"{c.hand_cards_max} cards from your hand together; a trail is always one card."),
        "max_value": rules.build.max_value,
        "target": g.target, "target_points": points(g.target) if g.target is not None else "", "target_step": g.target_step,
        "target_words": _target_words(rules),
        "unclaimed": " and nobody has claimed" if g.claiming else "",   # (said only where players may claim)
        "count_out": join_words([humanize(n) for n in counted_out(rules)]),
        "lurch_below": g.lurch.below, "lurch_multiplier": g.lurch.multiplier,
        "lurch_games": "1 game" if g.lurch.multiplier == 1 else f"{g.lurch.multiplier} games",
        "sweeps_from": rules.endgame.sweeps_from,
        # (a re-attack read "records no sweeps at all" and "they still cancel the opponents'" in one rulebook)
        # (and nothing of cancelling where sweeps never cancel: a re-attack's Dominican house rule without it)
        "sweeps_still": _sweeps_still(rules),
        **_limits(rules),
        "Valueless": f"{vl[0].upper()}{vl[1:]} (cards without a number value)" if valueless else "Cards without a value",
        "stop_during_hand": _stop_during_hand(rules),
    }
    for n, word in enumerate(_NUMBER_WORDS):
        ctx[word] = _value_name(rules, n) if n else "zero"
    ctx.update(_scopa_family_context(rules))
    ctx["goal_words"] = _goal_words(rules)
    # Sums: "number cards" only where some cards have no number value (standard's courts); the
    # Scopa family's courts count 8-10 and take part in sums like any card.
    ctx["summed"] = "number cards" if any(not r.values for r in rules.deck.ranks) else "cards"
    ctx["sets_taken"] = "also takes sets" if rules.capture.several_groups else "may instead take one set"
    ctx["build_or"] = "build or " if rules.build.allowed else ""   # (no "you may not build" where nobody builds)
    # (no partners where no seating has them: a re-audit's tutorial at two read "(partners share one)")
    ctx["partners_share"] = " (partners share one)" if rules.seats.partnerships != "never" and rules.seats.team_counts() \
        else ""
    # (builds of its value too: a re-attack's house rule without sums read "only loose cards equal to it")
    ctx["and_builds"] = " and builds of its value" if rules.build.allowed else ""
    # (audits of drawn house rules: a build of the card's value beside an equal card is no equal card; "could capture
    # something" reaches another side's build; "1 cards")
    ctx["nor_build"] = ", nor a build of its value" if rules.build.allowed else ""
    # (one play one group: "you take only one of them" said just before, "you must take equal cards" read as all of
    # them in Scopa, a reader's audit)
    ctx["equal_taken"] = "equal cards" if rules.capture.several_groups else "an equal card"
    # (an audit: "a two, a three and a five" under a limit of two cards played together)
    ctx["groups_example"] = (f"a {ctx['two']}, a {ctx['three']} and a {ctx['five']} can take a {ctx['five']}"
                             if rules.capture.hand_cards_max >= 3 else
                             f"a {ctx['five']} and a {ctx['five']} can take a {ctx['five']}, or a {ctx['ten']}")
    ctx["capture_what"] = " (a loose card, a set or a build)" if rules.build.allowed else ""
    ctx["hand_cards_noun"] = "card" if rules.deal.hand_size == 1 else "cards"
    ctx["partner_value"] = (" (nor a value your partner is known to hold)" if rules.build.for_partner and _has_partners(rules)
                            else "")
    # African Casino (issue 36): with one build a value, loose cards of a build's value are no base beside it.
    ctx["pile_base_words"] = ("; loose cards are no base while a build of that value stays on the table"
                              if rules.build.one_per_value else "")
    reach = rules.capture.pile_reach
    ctx["pile_depth"] = ("; once a pile's top is taken, the card under it is in play for a later set of the same move, "
                         f"so one move may use up to {_NUMBER_WORDS[reach]} cards of a pile, from the top down"
                         if reach > 1 else
                         # (in a turn of several actions, from its next action: an African house rule's audit read
                         # "only in a later turn" beside a turn's second build using it)
                         ": the card under a pile's top is in play only in a later "
                         + ("action" if rules.build.free_actions else "turn"))
    # (pile_cards: taken: one card of a pile a move, whatever pile_reach says; the engine uncovers the next)
    ctx["pile_into_build"] = ", or put it into a build" if rules.build.allowed else ""   # (an audit: g06 builds nothing)
    ctx["pile_next"] = (", in play from your turn's next action on" if rules.build.free_actions
                        else ", in play from the next move on")
    ctx["pile_bases"] = ("loose cards, a build, or, when you build, the card you play (alone or with loose cards)"
                         if rules.capture.pile_base == "layout_or_played" else
                         "loose cards or a build; the card you play may join loose cards to make a base (a 7 on the "
                         "table and a 3 you play make a base of 10), but is never a base on its own")
    ctx["own_builds"] = "your own and your partner's builds" if _has_partners(rules) else "your own builds"
    joins = rules.build.add_sets and rules.build.multiple
    ctx["one_value_how"] = (("a new build of a value already built must be made as part of that build, adding to it"
                             + (", and a build raised to a value already built must join that build in the same move"
                                if rules.build.raise_single else "")) if joins else
                            # (a generated house rule's audit, session 88: with nothing added to a build, the raise
                            # that would join one is not made, as the new build is not)
                            "since nothing is added to a build, no build is made of a value already built"
                            + (", nor raised to one" if rules.build.raise_single else ""))
    return ctx


def _limits(rules: Rules) -> dict[str, str]:
    """What ``endgame.lifted_after_tie`` lifts (the score restrictions, the limit on sweeps, or both),
    as ``limits`` (with "are lifted"'s verb) and ``Limits`` (opening "... stay in force")."""
    e = rules.endgame
    if e.restrictions and e.sweeps_from is not None:
        subject, plural = "the restrictions and the limit on sweeps", True
    elif e.sweeps_from is not None:
        subject, plural = "the limit on sweeps", False
    else:
        subject, plural = "the restrictions", True
    return {"limits": f"{subject} {'are' if plural else 'is'}",
            "Limits": f"{subject[0].upper()}{subject[1:]} {'stay' if plural else 'stays'}"}


def _table_counts(rules: Rules) -> tuple[list[int], list[int]]:
    """The player counts whose first deal puts cards on the table, and those whose does not."""
    counts = _counts(rules)
    some = [n for n in counts if rules.deal.for_players(n)[1]]
    return some, [n for n in counts if n not in some]


def _players(counts: list[int]) -> str:
    return f"With {join_words([_count(n) for n in counts], 'or')} players"


def _table_words(rules: Rules) -> str:
    """How many cards the table gets at the start of a hand (``deal.table_cards``): for the player
    counts that use this setting, where a deal by the number of players (``deal.by_players``) gives
    others their own (South African Casino: none to the table, but one with three players)."""
    d = rules.deal
    own = [n for n in _counts(rules) if d.for_players(n)[1] == d.table_cards]
    if not own:
        return ""   # every player count has its own deal: said with the deal by players
    said = (f"the dealer also puts {d.table_cards} cards face up on the table at the start of each hand."
            if d.table_cards else "no cards go to the table at the start of a hand.")
    if len(own) == len(_counts(rules)):
        return said[0].upper() + said[1:] if not d.table_cards else \
            f"At the start of each hand the dealer also puts {d.table_cards} cards face up on the table."
    return f"{_players(own)} {said}"


def _table_order_words(rules: Rules) -> str:
    """Where the table's cards fall in the first deal (``deal.table_order``), in the deal's own units;
    for the player counts whose deal has table cards, and without "again" where the table gets no
    more than one packet."""
    d = rules.deal
    some = "one" if d.packet == 1 else str(d.packet)
    with_table, without = _table_counts(rules)
    most = max(d.for_players(n)[1] for n in with_table) if with_table else 0
    again = most > d.packet
    cards = "cards" if most > 1 else "card"
    # (the table's packet is no bigger than its cards: an audit's South African house rule dealt 3 at a time read
    # "3 face up to the table" beside "1 face up to the table")
    table_some = some if most >= d.packet else ("one" if most == 1 else str(most))
    # (an audit: hands of 2 dealt 2 at a time beside a table of 4 read "and again" as a second round for the players;
    # where the players' hands are whole after one packet, the round that follows is the table's alone)
    again_words = ", and again until the table has its cards."
    if again and all(d.for_players(n)[0] <= d.packet for n in with_table):
        rest = most - d.packet
        again_words = f", then {_count(rest) if rest > 1 else 'one'} more face up to the table."
    # ("the first deal" where there is a second: a rulebook audit of Draw Cassino, one deal, asked which later
    # deal was meant)
    first = "the first deal" if _dealt_again(rules) else "the deal"
    lead = f"{_players(with_table)}, in {first}" if without else f"In {first}"
    if d.table_order == "first":
        return (f"{lead} the table's {cards} {'are' if most > 1 else 'is'} laid out first, face up, before any "
                f"player gets a card; then the hands are dealt.")
    if d.table_order == "before_dealer":
        return (f"{lead} the table gets its {cards} just before the dealer's own: {some} to each other "
                f"player, {table_some} face up to the table, then {some} to the dealer"
                + (again_words if again else "."))
    if d.table_order == "after_players":
        return (f"{lead} the table gets its {cards} after the players: {some} to each player, the dealer "
                f"last, then {table_some} face up to the table" + (again_words if again else "."))
    if d.table_order == "after_hands":
        return (f"{lead} the table gets its {cards} after the hands: the players' cards are dealt first, {some} at "
                f"a time to each in turn, the dealer last; then {_count(most)} face up to the table.")
    raise ValueError(f"deal.table_order {d.table_order!r}")   # the schema allows no other value


def _goal_words(rules: Rules) -> str:
    """Negative games: what a point is and how the game ends (worded only for `goal: lowest`)."""
    g = rules.game
    if g.target is None:
        return ("Points are penalties: each hand is a game on its own, and the side that scores fewer in it wins; a "
                "tie for the fewest is a draw.")
    return (f"Points are penalties: take as few as you can. Once a hand ends with a side at {points(g.target)} or "
            f"more, the game is over and the side with the lowest total wins; a tie for lowest plays another hand.")


def _scopa_family_context(rules: Rules) -> dict[str, Any]:
    """Words for the Scopa family's settings: the misdeal, the capture total with an example."""
    d, c = rules.deal, rules.capture
    out: dict[str, Any] = {"total": c.total, "misdeal_words": "", "total_words": "", "single_first_example": ""}
    if d.misdeal_cards:
        sel = selector_words(rules, d.misdeal_cards)
        many = sel[1] if sel else f"cards matching “{d.misdeal_cards}”"
        out["misdeal_words"] = (f"If {d.misdeal_at_least} or more {many} are among the cards first dealt to the "
                                f"table, the cards are thrown in and the same dealer shuffles and deals again.")
    if c.total is not None:
        values = sorted({v for r in rules.deck.ranks for v in r.values})
        pair = next(((a, c.total - a) for a in reversed(values) if c.total - a in values and c.total - a != a), None)
        example = ""
        if pair is not None:
            example = (f": {_a(_value_name(rules, pair[0]))} takes {_a(_value_name(rules, pair[1]))}"
                       f" ({pair[0]} + {pair[1]} = {c.total})")
        out["total_words"] = (f"The card you play and the table cards it takes must add up to exactly {c.total}"
                              f"{example}. One play takes one such set{' (one card or several)' if c.sums else ''}. "
                              f"A card is never taken just for being equal to the card played.")
        out["single_first_example"] = _single_first_example(rules, c.total, values)
    return out


def _single_first_example(rules: Rules, total: int, values: list[int]) -> str:
    """``: where a king lies beside a six and a four, a five takes the king (5 + 10 = 15), not the six
    and the four``: a card making ``total`` with the one played, and a set worth as much ("" where
    the deck has no such cards)."""
    for single in reversed(values):
        played = total - single
        x = single // 2 + 1
        y = single - x
        if played in values and played != single and x in values and y in values and 0 < y < x:
            name = lambda v: _value_name(rules, v)  # noqa: E731
            return (f": where {_a(name(single))} lies beside {_a(name(x))} and {_a(name(y))}, {_a(name(played))} "
                    f"takes the {name(single)} ({played} + {single} = {total}), not the {name(x)} and the {name(y)}")
    return ""


def _a(word: str) -> str:
    """``a king``, ``an ace``, ``an 8``."""
    return ("an " if word[:1].lower() in "aeiou8" or word in ("11", "18") else "a ") + word


def _count(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


def _stop_during_hand(rules: Rules) -> str:
    if rules.game.claiming:
        return "The game ends at a correct claim, even in the middle of a hand."
    if rules.scoring.when == "as_won":
        return "The game ends the moment a side's points reach the target, even in the middle of a hand."
    return "A hand is always played to its end."


def word(rules: Rules, path: str, value: Any, ctx: dict[str, Any] | None = None) -> str | None:
    """The sentence for setting ``path`` at ``value`` (None: nothing to say of its own)."""
    ctx = ctx if ctx is not None else _context(rules)
    if path in WORDS:
        under = WORDS_UNDER_TOTAL.get(path) if rules.capture.total is not None else None
        template = (under or WORDS[path])[value]
    elif path in NUMBERS:
        template = NUMBERS[path]["null" if value is None else "value"]
    else:
        raise KeyError(path)
    if template is None:
        return None
    return template.format_map(ctx)


# ---------------------------------------------------------------------- sections


class _Writer:
    """Collects the clauses of one section, each from a setting's value."""

    def __init__(self, rules: Rules, ctx: dict[str, Any]) -> None:
        self.rules, self.ctx = rules, ctx
        self.clauses: list[Clause] = []

    def setting(self, path: str) -> None:
        value: Any = self.rules.data
        for part in path.split("."):
            value = value[part]
        text = word(self.rules, path, value, self.ctx)
        if text:
            self.say(path, text)
        else:
            # The value needs no sentence of its own, but the setting applies here: a reading the
            # file gives of it is said in its place (Krypkasino's capture.take_all: false, issue 50).
            for k, (setting, reading) in enumerate((s, t) for s, t in file_readings(self.rules) if s == path):
                self.clauses.append(Clause(f"{path}.reading.file" + (f".{k}" if k else ""), "Reading: " + reading))

    def say(self, key: str, text: str) -> None:
        self.clauses.append(Clause(key, text))
        for k, reading in enumerate(readings(self.rules, key)):
            self.clauses.append(Clause(f"{key}.reading" + (f".{k}" if k else ""), "Reading: " + reading))

    def amend(self, more: str) -> None:
        """Add words to the last rule's clause (a detail that only some rule sets need), not to a
        reading said after it."""
        k = len(self.clauses) - 1
        while k > 0 and ".reading" in self.clauses[k].key:
            k -= 1
        self.clauses[k] = replace(self.clauses[k], text=self.clauses[k].text + more)


def _target_words(rules: Rules) -> str:
    """When reaching the target wins: at once where points are pegged as won and the hand stops there; else
    when a hand's points are added (an audit read "The first side to reach 11 points wins the game" of
    Hungarian Casino after Ulmann, where reaching 11 in the middle of a hand wins nothing)."""
    g = rules.game
    if g.target is None:
        return ""
    target = points(g.target)
    if rules.scoring.when == "as_won" and not g.play_out_hand:
        return f"The first side to reach {target} wins the game."
    if rules.scoring.when == "as_won":
        return f"A side with {target} or more when the hand ends wins the game."
    return f"A side with {target} or more once a hand's points are added wins the game."


def _overview(rules: Rules, ctx: dict[str, Any]) -> str:
    b = rules.build.allowed
    moves = "capture cards from the table with it, " + ("build table cards into a build to capture later, " if b else "") + "or trail it to the table"
    # (worded by when points count, as the game's section: a re-attack read "The first side to reach 21 points
    # wins" above "A side with 21 points or more once a hand's points are added wins the game")
    goal = (_target_words(rules).removesuffix(" the game.") + "." if rules.game.target is not None
            else "Each hand is a game on its own.")
    if rules.game.claiming and rules.game.target is not None:
        # (with what happens when nobody claims, as the game's section says: a re-attack found it left out)
        goal = (f"The first side to claim correctly that it has {points(rules.game.target)} wins; if nobody claims, "
                f"a side with {rules.game.target} or more when the hand ends wins.")
    if rules.game.goal == "lowest":
        goal = _goal_words(rules)
    when = ("Points are scored as they are won, for what each side captures." if rules.scoring.when == "as_won"
            else "At the end of each hand, points are scored for what each side captured.")
    return f"{rules.description}. Players take turns playing a card from their hand: they {moves}. {when} {goal}"


def _seats(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    w.setting("seats.min_players")
    s = rules.seats
    if s.max_players >= 4 and (s.partnerships == "never" or (4 in s.partnership_players and s.min_players <= 4)):
        w.setting("seats.partnerships")     # its sentences are about four players
    _more_teams(w, rules)
    w.setting("seats.direction")
    return Section("seats", "Players", tuple(w.clauses))


def _deck(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    dk = rules.deck
    n = len(dk.ranks) * len(dk.suits)
    suits = join_words([f"{s.name} ({s.symbol or s.letter})" if (s.symbol and s.symbol != s.letter) else s.name
                        for s in dk.suits])
    w.say("deck.suits", f"A pack of {n} cards: {len(dk.ranks)} ranks in each of {_count(len(dk.suits))} suits, "
                        f"{suits}. A card is written as its rank and suit: "
                        f"{card_name(rules, dk.ranks[-1].rank + dk.suits[0].letter)} is the "
                        f"{_card_words(dk.ranks[-1].name or dk.ranks[-1].rank, dk.suits[0].name)}.")
    renamed_suits, renamed = renamed_letters(rules)
    if renamed_suits:
        # Suits whose names do not start with their letters (Scopa's coins are D): say the letters typed.
        w.amend(" In moves the suits are typed by letter: "
                + join_words([f"{s.letter} for {s.name}" for s in dk.suits]) + ".")
    # Ranks named other than their letter says (Scopa's knight is Q, the cavallo): the letter typed.
    if renamed:
        typed = "; ".join(f"the {r.name} is typed {r.rank}" for r in renamed)
        w.amend(" " + typed[0].upper() + typed[1:] + ".")
    if dk.packs > 1:
        # Two packs (issue 27): said only where there is more than one.
        w.say("deck.packs", f"{_count(dk.packs).capitalize()} such packs are shuffled together, {n * dk.packs} cards, "
                            f"so every card is there {_times(dk.packs)}. The copies of a card are the same card "
                            f"and are written alike: a {card_name(rules, '10' + dk.suits[0].letter) if '10' in _rank_symbols(dk) else 'card'} "
                            f"in hand takes its twin on the table as any equal card, and a scoring item counts "
                            f"every copy of its cards.")
    w.say("deck.ranks", "Capture values: " + _values_words(rules) + ".")
    # One clause for every card of its own value (the tutorial, explain and diff read a rule's clause by its
    # key): cards of the same values named together, in the file's order.
    groups: dict[tuple[Any, Any], list[str]] = {}
    group_ranks: dict[tuple[Any, Any], set[str]] = {}
    for cv in dk.card_values:
        groups.setdefault((cv.hand, cv.table), []).append(card_name(rules, cv.card))
        group_ranks.setdefault((cv.hand, cv.table), set()).add(cv.card[:-1])
    by_rank = {r.rank: r for r in dk.ranks}
    sentences = []
    for (hand, table), cards in groups.items():
        ranks = group_ranks[(hand, table)]
        rank = by_rank.get("10" if next(iter(ranks)) == "T" else next(iter(ranks))) if len(ranks) == 1 else None
        parts = []
        if hand is not None:
            parts.append(f"{_values_text(hand)} when played from hand")
        if table is not None:
            parts.append(f"{_values_text(table)} while it lies on the table")
        elif hand is not None and rank is not None and rank.values:
            # (a reader of Finnish Kasino's rulebook alone asked what a loose 2♠ or 10♦ counts)
            parts.append(f"{_values_text(rank.values)} on the table")
        verb = "counts" if len(cards) == 1 else "count"
        names = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
        sentence = f"{names} {verb} {' and '.join(parts)}"
        if rank is not None and hand is not None and rank.name \
                and not set(hand) & set(table if table is not None else rank.values):
            # (a rulebook audit: in Krypkasino an ace from the hand, 14, never takes a loose ace, 1, which the
            # reader of "ace 1" and "count 14 when played from hand" could miss, and the two packs' "takes its
            # twin" sentence seemed to promise)
            # (a review: Finnish Kasino's 2♠ and 10♦, worth more from the hand, do not take a loose two or ten either)
            who = (f"{_a(rank.name)} played from the hand" if len(cards) == len(dk.suits)
                   else "from the hand it" if len(cards) == 1 else "from the hand they")
            one = not who.endswith("they")
            sentence += (f", so {who} {'does' if one else 'do'} not take a loose {rank.name} as an equal card, only "
                         f"in a set adding up to {' or '.join(map(str, hand))}" if rules.capture.sums else
                         f", so {who} never {'takes' if one else 'take'} a loose {rank.name}")
        sentences.append(sentence + ".")
    if sentences:
        w.say("deck.card_values", " ".join(sentences))
    return Section("deck", "The cards", tuple(w.clauses))


#: The names a court card's or an ace's letter stands for in an ordinary pack.
_USUAL_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def renamed_letters(rules: Rules) -> tuple[list[Any], list[Any]]:
    """The suits whose names do not start with their letters (Scopa's coins, typed D) and the ranks named other
    than their letter says (Scopa's knight, typed Q): what a player must be told the letters stand for."""
    dk = rules.deck
    return ([s for s in dk.suits if not s.name.lower().startswith(s.letter.lower())],
            [r for r in dk.ranks if r.name and r.rank in _USUAL_NAMES and r.name.lower() != _USUAL_NAMES[r.rank]])


def _rank_symbols(dk: Any) -> list[str]:
    """The deck's rank symbols."""
    return [r.rank for r in dk.ranks]


def _times(n: int) -> str:
    """``twice``, ``three times``."""
    return {1: "once", 2: "twice"}.get(n, f"{_count(n)} times")


def _card_words(rank: str, suit: str) -> str:
    """``king of spades``; ``black ten`` for suits named as colours."""
    return f"{rank} of {suit}" if suit.endswith("s") else f"{suit} {rank}"


def _values_text(values: tuple[int, ...]) -> str:
    if not values:
        return "no number value"
    if len(values) == 1:
        return str(values[0])
    return " or ".join(str(v) for v in values) + " (as you choose each time)"


def _values_words(rules: Rules) -> str:
    parts: list[str] = []
    run: list[str] = []
    valueless: list[str] = []

    def flush() -> None:
        if len(run) >= 3:
            parts.append(f"{run[0]} to {run[-1]} count as marked")
        else:
            parts.extend(f"{r} counts {r}" for r in run)
        run.clear()

    for r in rules.deck.ranks:
        if r.rank.isdecimal() and r.values == (int(r.rank),):
            run.append(r.rank)
            continue
        flush()
        if not r.values:
            valueless.append(plural(r.name or r.rank))
        else:
            parts.append(f"{r.name or r.rank} {_values_text(r.values)}")
    flush()
    if valueless:
        parts.append(f"{join_words(valueless)} have no number value: they capture only by rank")
    return "; ".join(parts)


def _deal(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    w.say("deal.dealer", "Deal in turn: the deal passes on after each hand.")
    # How the first dealer is found changes no play: said as a reading. Some texts say it (the 1897 Hoyle:
    # the lowest card cut; the Khasino rules: the highest card drawn), all by lot; many say nothing.
    w.clauses.append(Clause("deal.dealer.reading.first", "Reading: who deals first changes nothing in how a hand "
                                                          "is played; the players choose, by lot (drawing cards, "
                                                          "as some rule texts say) or as they agree."))
    for path in ("deal.hand_size", "deal.table_cards", "deal.packet"):
        w.setting(path)
    if rules.deal.table_cards or any(t for _, _, t in rules.deal.by_players):
        w.setting("deal.table_order")   # no table cards in any deal: no order to tell
    for path in ("deal.redeal", "deal.draw_after_play", "deal.short_stock"):
        if path == "deal.redeal" and rules.deal.draw_after_play and rules.deal.redeal == "when_hands_empty":
            continue   # (hands are drawn back up while the stock lasts, so none is empty with a stock left: an audit)
        if path == "deal.redeal" and rules.deal.redeal == "never" and not rules.deal.draw_after_play:
            w.say(path, _one_deal_words(rules))   # (an audit: "the undealt cards stay" where none were left)
            continue
        if path == "deal.redeal" and rules.deal.redeal == "when_hands_empty" and not rules.deal.draw_after_play:
            redeals = _redealt_counts(rules)
            if not redeals:
                w.say(path, "The first deal gives out the whole pack: there is no second deal.")
                continue
            if len(redeals) < rules.seats.max_players - rules.seats.min_players + 1:
                w.setting(path)
                w.amend(f" (With {join_words([_count(n) for n in redeals])} players; with "
                        f"{join_words([_count(n) for n in _counts(rules) if n not in redeals])} the first deal "
                        f"gives out the whole pack.)")
                continue
        if path == "deal.short_stock" and not rules.deal.draw_after_play and (
                not _redealt_counts(rules) or rules.deal.redeal == "never"):
            continue   # (no second deal: the stock is never short; an audit found it said of a one-deal game)
        w.setting(path)
        if path == "deal.short_stock" and rules.deal.short_stock == "split_rest_to_table" \
                and not rules.deal.draw_after_play and (few := _too_few_for_one(rules)):
            # (An audit: Krypkasino's six players deal 4 x 24 and then have 4 cards, one each for nobody; the
            # engine lays them out with the fourth deal, and the book said nothing of it.)
            said = "; ".join(f"with {_count(n)} players the last {_count(r) if r > 1 else 'card'}"
                             f"{' cards, too few' if r > 1 else ', too few'} to give each player one, go face "
                             f"up to the table at the last full deal, the one that gives each player "
                             f"{rules.deal.for_players(n)[0]}" for n, r in few)
            w.amend(" " + said[0].upper() + said[1:] + ".")
    if rules.deal.table_cards and rules.deal.misdeal_cards:
        w.setting("deal.misdeal.at_least")
    if rules.deal.table_cards and rules.capture.total is not None:
        w.setting("deal.dealer_takes_total")
    if rules.deal.by_players:
        w.say("deal.by_players", _by_players_words(rules))
    return Section("deal", "The deal", tuple(w.clauses))


def _short_packets(rules: Rules) -> str:
    """Where a hand is no whole number of packets (Hungarian's hands of 3 dealt 2 at a time), how
    the deal makes it up: whole packets, then the rest (as the engine deals)."""
    d = rules.deal
    sizes = sorted({d.for_players(n)[0] for n in _counts(rules)} - {0})
    odd = [h for h in sizes if h % d.packet]
    if not odd:
        return ""
    parts = [f"a hand of {h} gets {', '.join([str(d.packet)] * (h // d.packet))}, then {h % d.packet}" for h in odd]
    return " (" + "; ".join(parts) + ")"


def _counts(rules: Rules) -> list[int]:
    return list(range(rules.seats.min_players, rules.seats.max_players + 1))


def _one_deal_words(rules: Rules) -> str:
    """`deal.redeal: never` with no drawing: one deal, and the cards it leaves are never played."""
    left = left_undealt(rules)
    if not left:
        return "There is only one deal, and it gives out the whole pack."
    counts = sorted(left)
    text = ("There is only one deal: the cards it leaves stay face down and are never played ("
            + "; ".join(f"{left[n]} with {_count(n)} players" for n in counts))
    whole = [n for n in _counts(rules) if n not in left]
    if whole:
        text += f"; with {join_words([_count(n) for n in whole])} the deal gives out the whole pack"
    return text + ")."


def _sweeps_still(rules: Rules) -> str:
    """What a side's sweeps still do past ``endgame.sweeps_from``: cancel the opponents', unless a restriction
    records none; where every score from there to the target is restricted, nothing (a re-attack read "they still
    cancel the opponents', unless ..." in a house rule where no side past the limit is unrestricted)."""
    e = rules.endgame
    if not rules.sweeps.cancel:
        # (and nothing of cancelling where sweeps never cancel: a re-attack's Dominican house rule without it)
        return ""
    if not e.restrictions or rules.sweeps.record_when_restricted:
        return " (they still cancel the opponents')"
    restricted = {r.score for r in e.restrictions}
    target = rules.game.target
    if e.sweeps_from is not None and target is not None and all(
            sc in restricted for sc in range(e.sweeps_from, target)):
        # (a review: once a tie lifts the restrictions a sweep at 18 is recorded and scores again, as the next rule says)
        return (" and, while the restrictions apply, are not even recorded, so they cancel nothing: every score from "
                "there to the target is under a restriction, which records none")
    # (a re-attack read "records no sweeps at all" and "they still cancel the opponents'" in one rulebook)
    return " (they still cancel the opponents', unless the side is under a restriction: it then records none)"


def _too_few_for_one(rules: Rules) -> list[tuple[int, int]]:
    """(players, cards) where the deals in full hands leave fewer cards in the stock than players: too few to
    give each one, they go to the table with the last full deal (``deal.short_stock: split_rest_to_table``)."""
    out = []
    for n, left in left_undealt(rules).items():
        hand_size = rules.deal.for_players(n)[0]
        if hand_size:
            rest = left % (n * hand_size)
            if 0 < rest < n:
                out.append((n, rest))
    return out


def _dealt_again(rules: Rules) -> bool:
    """Whether a hand has a second deal for some number of players: hands dealt again when empty, cards left
    after the first deal, and no drawing (which keeps hands full while the stock lasts)."""
    return rules.deal.redeal == "when_hands_empty" and bool(left_undealt(rules)) and not rules.deal.draw_after_play


def _redealt_counts(rules: Rules) -> list[int]:
    """The numbers of players for whom cards are left after the first deal (a second deal comes)."""
    return list(left_undealt(rules))


def _by_players_words(rules: Rules) -> str:
    """The deals that differ by player count (African Casino), one clause each."""
    d = rules.deal
    parts = []
    for n in range(rules.seats.min_players, rules.seats.max_players + 1):
        hand_size, table_cards = d.for_players(n)
        if (hand_size, table_cards) == (d.hand_size, d.table_cards):
            continue
        table = f" and {table_cards} face up to the table" if table_cards else " and none to the table"
        parts.append(f"with {_count(n)} players, {hand_size} cards each{table}")
    return "The deal depends on the number of players: " + "; ".join(parts) + "." if parts else ""


def _turn(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    w.setting("capture.hand_cards.max")
    if rules.capture.hand_cards_max > 1:
        # (002, Hungarian Casino: "The player with remaining cards in the hand may then play them in any order".)
        w.say("capture.hand_cards.max.play_out",
              "Playing several cards at once can empty a hand before the others: a player who still holds cards "
              "then plays them out, a turn each, and "
              + ("the next deal comes" if _dealt_again(rules) else "the hand ends")   # (an audit: one deal, no "next")
              + " once every hand is empty.")
    kinds = ["capture: take table cards with the card you play", "trail: put the card face up on the table"]
    if rules.build.allowed:
        kinds.insert(1, "build: put the card onto table cards to capture them all on a later turn")
    w.say("turn.kinds", "On your turn you do one of these: " + "; ".join(kinds) + ".")
    if rules.build.free_actions and rules.build.allowed:
        # (Said here too, where a reader learns what a turn is: the Khasino rules' "Your turn can consist
        # several actions, in any order"; the building section says which builds.)
        w.say("build.free_actions.turn", "A turn may hold several actions: beside its one card from your hand "
                                         "(which captures, builds, changes a build's value or is trailed), "
                                         "builds made only of cards already in play, before or after that card "
                                         "(see Building); then you end the turn (`end`).")
    w.say("turn.notation", _notation_words(rules))
    return Section("turn", "Your turn", tuple(w.clauses))


def _notation_words(rules: Rules) -> str:
    """How the examples write moves, with cards of this deck."""
    def c(rank: str, k: int) -> str:
        suits = rules.deck.suits
        return card_name(rules, rank + suits[k % len(suits)].letter)

    ranks = {r.rank for r in rules.deck.ranks}
    nine, four, five, three = (r if r in ranks else None for r in ("9", "4", "5", "3"))
    if not all((nine, four, five, three)):
        build = "`build` with the value announced and the cards built on, " if rules.build.allowed else ""
        return "The examples write moves as the game does: a card played, then `capture` and the cards taken, " \
               f"{build}or `trail`."
    parts = [f"`{c('9', 2)} capture {c('9', 3)} {c('4', 2)} {c('5', 1)}` plays {c('9', 2)} and takes "
             f"{c('9', 3)}, {c('4', 2)} and {c('5', 1)}"]
    if rules.capture.hand_cards_max > 1:
        parts.append(f"`{c('4', 0)}+{c('5', 0)} capture {c('9', 1)}` plays {c('4', 0)} and {c('5', 0)} together "
                     f"to take {c('9', 1)}")
    if rules.build.allowed:
        parts.append(f"`{c('3', 1)} build 8 on {c('5', 0)}` puts {c('3', 1)} on {c('5', 0)} as a build of 8; "
                     f"`[{c('3', 1)} {c('5', 0)}]` is that build on the table")
    parts.append(f"`{c('9', 0)} trail` trails {c('9', 0)}")
    return "The examples write moves as the game does: " + "; ".join(parts) + "."


def _capture(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    c = rules.capture
    has_values = any(r.values for r in rules.deck.ranks)
    if c.total is not None:
        # Captures by a total (Escoba): the total's sentence replaces equal value and sums.
        w.say("capture.intro", f"The card you play and the cards it takes go face down into your pile, "
                               f"{_counted(rules)}.")
        w.setting("capture.total")
        w.setting("capture.sums")               # (only where it is off: WORDS_UNDER_TOTAL)
        w.setting("capture.equal_cards")        # (only where equal cards are not taken as you choose)
        w.setting("capture.equal_card_first")   # (worded as it acts under a total: WORDS_UNDER_TOTAL)
        w.setting("capture.compulsory")
        if unread(rules, "capture.take_all") is None:   # (under a total every capture takes all it can)
            w.setting("capture.take_all")
        return Section("capture", "Capturing", tuple(w.clauses))
    face = "face up" if c.from_piles != "none" else "face down"   # African Casino: piles in play
    # (the card you capture with goes on top, in the other side's play: an audit's first Swazi capture left two
    # queens there for the next player's build, and the first capture's lesson, this sentence, said nothing)
    top = ("; the card you capture with lies on top, where the other side may use it"
           if c.from_piles == "opponents_top" else "")
    if top and c.hand_cards_max > 1:
        # (an audit of generated house rules: with cards played together, which lies on top? The last in the pack's
        # order, as the cards taken go under it, core.Engine._stacked)
        top += (" (of several played together, the last in the pack's order: by suit, "
                + join_words([s.name for s in rules.deck.suits]) + ", and by rank within a suit)")
    taken = "the loose table cards" if c.several_groups else "a loose table card"
    # (the card played goes with them: a rulebook audit of Spade Casino pegged only the cards taken, where the
    # A♣ that takes A♠ A♥ pegs its own point too)
    w.say("capture.intro", f"A card you play captures {taken} of its own value. The card and the cards it takes "
                           f"go {face} into your pile, {_counted(rules)}{top}."
                           + (" A build is captured whole by a card of its value." if rules.build.allowed else ""))
    if has_values:
        w.setting("capture.sums")
        if c.sums and c.several_groups and c.equal_card_first:
            # (a re-attack: Scopa with several groups read "a knight may take a knight, a five with a four ..." where
            # an equal card leaves it equal cards only, as the next sentence says)
            w.say("capture.several_groups", f"One play may take several groups at once, each loose card in one group "
                                            f"only: a {ctx['nine']} may take a {ctx['five']} with a {ctx['four']} and a "
                                            f"{ctx['six']} with a {ctx['three']} together (but not beside an equal "
                                            f"card: below).")
        elif c.sums:
            w.setting("capture.several_groups")
        elif c.several_groups and rules.build.allowed:
            # (a re-attack: without sums the several-groups sentence went, though one play still takes a build with
            # equal loose cards, or two builds of one value)
            w.say("capture.several_groups", "One play may take several groups at once: loose cards equal to the "
                                            "card together with builds of its value, or several builds of its value.")
        if c.take_all and c.several_groups and c.equal_cards == "any":
            # (a rulebook audit of krypkasino-take-all: "you may take as many of them as you like" above the rule
            # that a capture takes everything the card can)
            w.say("capture.equal_cards", "When several loose cards equal the card you play, you take them all: "
                                         "a capture takes everything the card can (below).")
        elif c.several_groups or c.equal_cards != "any":
            w.setting("capture.equal_cards")
            if not c.several_groups:
                # (as `validate` warns: an audit of generated house rules found such a card capturing nothing)
                w.amend(" With one group a play, a card facing two or more equal loose cards"
                        + (", or a build of its value beside one," if c.equal_cards == "all" else "")
                        + " therefore captures none of them.")
        else:
            # One group a play (Scopa): equal cards are taken one at a time.
            w.say("capture.equal_cards", "When several loose cards equal the card you play, you take only one of "
                                         "them, whichever you choose.")
        w.setting("capture.equal_card_first")
    if _valueless_ranks(rules):
        w.setting("capture.valueless_cards")
        if c.valueless_cards == "all" and rules.build.allowed and rules.build.valueless != "never":
            # (a rulebook audit of face-builds took "every loose card" to leave a pile of kings behind; the engine
            # takes the pile too, 003 "you can take all of them")
            w.amend(" A pile of their rank (see building) goes with them: a king takes every king on the table, "
                    "loose or piled.")
    if c.hand_cards_max > 1:
        w.setting("capture.hand_cards.combine")
    w.setting("capture.compulsory")
    if unread(rules, "capture.take_all") is None:   # (Scopa's take-all, one group a play: a rule no play meets)
        w.setting("capture.take_all")
    w.setting("capture.from_piles")
    if c.from_piles != "none":
        w.setting("capture.pile_cards")   # how a pile card is used (African Casino, issue 36)
    return Section("capture", "Capturing", tuple(w.clauses))


def _build(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    b = rules.build
    w.setting("build.allowed")
    if b.allowed:
        w.setting("build.multiple")
        if b.multiple:
            w.setting("build.add_sets")
            if b.add_sets:
                w.setting("build.augment_opponents")
                if not b.augment_opponents and b.raise_single:
                    # (a re-attack read "You never add to it and leave it on the table" against the raise of
                    # another side's build three sentences on, which leaves it there, grown)
                    w.amend(" You may still raise it (below).")
        if b.add_sets or b.raise_single:
            w.setting("build.opponents_hand_only")
            if b.opponents_hand_only and b.single_build_as_card:
                # (an audit of generated house rules: the engine builds on another side's single build counted as a
                # card with table cards, which "no table card goes into it" seemed to forbid)
                w.amend(" A single build counted as one card (below) may still be built on with table cards: that "
                        "makes a new build, holding it as one card.")
        w.setting("build.raise_single")
        if b.raise_single and b.for_partner and b.raise_for_partner and _has_partners(rules):
            # (a re-audit: Hoyle's and a Swazi house rule's raise to a value only the partner holds is legal, and the
            # book said "if you hold a card of the new value")
            w.amend(" In partnerships the new value may instead be one your partner is known to hold (below).")
        if b.raise_single:
            w.setting("build.raise_own")
            if _has_partners(rules) and not b.raise_partners:
                w.setting("build.raise_partners")
            elif not b.raise_own and _has_partners(rules):
                w.amend(" Your partner's builds count as other players': you may raise them.")
            w.setting("build.raise_with_table_cards")
            # A single build counted as one card is also built on, not only raised: each raise sentence that
            # the building on would contradict says so in its own clause (an audit found the raise sentences
            # false in single-build-as-card, their examples under them listing the very moves they refuse, and
            # a second audit the first of them still unqualified after the second was).
            if b.single_build_as_card and not b.raise_with_table_cards:
                w.amend(" That is a raise: a single build counted as one card (below) may instead be built on, your "
                        "card and loose cards making a new build of a higher value (a two on a build of 7 with a "
                        "loose ace builds 10).")
            if b.multiple:
                if b.raise_takes_in == "sets" and not rules.capture.sums:
                    # (no sets without sums: taken in as cards; an audit of generated house rules read "or a loose five
                    # and four" in a game where a card takes no sum)
                    w.say("build.raise_takes_in", word(rules, "build.raise_takes_in", "cards", ctx) or "")
                else:
                    w.setting("build.raise_takes_in")
                if b.single_build_as_card and b.raise_takes_in != "sets":
                    w.amend(" Built on as one card instead, the build takes in what a new build takes: a two on a "
                            "build of 7 may take a loose five and four with it, as a build of 9 in two sets.")
        # African Casino (issue 36): one build a value, one build a player.
        w.setting("build.one_per_value")
        w.setting("build.one_per_player")
        if b.one_per_player and b.for_partner and _has_partners(rules):
            # (a teacher's audit of South African Casino: its partner built for its value, and "one build a player"
            # then held the learner, not the partner who "owns" it by the owner's definition, the last to add)
            w.amend(" A build made or added to for your value by your partner counts here as yours, not theirs.")
        if b.one_per_player and b.one_per_value and b.raise_single:
            # (an audit: `3D build 9 on [2S 4H] [5C 4D]`, another side's 6 raised to your own 9, is allowed)
            w.amend(" Raising another side's build to the value of your own joins it to yours (no two builds have "
                    "one value): that is adding to your build, and allowed.")
        w.setting("build.free_actions")
        if b.free_actions and b.for_partner and _has_partners(rules):
            # (a re-attack: a build of cards in play for the value a partner has shown is legal, which "that you
            # could take with a card of your hand" seemed to exclude)
            w.amend(" Such a build may also be for a value your partner is known to hold (below).")
        w.setting("build.single_build_as_card")
        partners = _has_partners(rules)
        if partners:
            w.setting("build.for_partner")
            if b.for_partner and b.keep_capturing_card:
                w.amend(" While a build they hold is on the table its value stays known, since they keep a card of it.")
            if b.for_partner and b.raise_single:
                # (a reader of the African rulebooks alone raised another side's build to the partner's value, which
                # the whole-move rules refuse: "raising is the raiser's own", ``turnrules``)
                w.setting("build.raise_for_partner")
        w.setting("build.continue_as_begun")
        if _valueless_ranks(rules):
            w.setting("build.valueless")
        above = _above_build_max(rules)
        if above:   # (at or above the highest card value, no build could pass it anyway: nothing to say)
            w.setting("build.max_value")
            w.amend(f" A card counted above it never takes a build, only loose cards: {above}.")
        if b.owner_obligation == "no_trail" and not b.raise_single and not (b.multiple and b.add_sets):
            # (an audit of generated house rules: "or add to a build" where nothing may be added to one)
            w.say("build.owner_obligation", "While you own a build (you were the last to add to it), you may not "
                                            "trail: you must capture or build.")
        else:
            w.setting("build.owner_obligation")
        if b.owner_obligation != "none" and b.for_partner and partners and _partners_bound(rules):
            # (A build made for a partner's card may leave its owner no card to take it with: the engine then
            # lets them trail, as it does wherever the rules leave no play.)
            w.amend(" If you built for your partner's card and can do none of these, you trail.")
        if b.owner_obligation == "no_trail" and b.free_actions:
            # (an audit: `build 10 on ...; 4H trail` refused, `4H trail; build 10 on ...` allowed)
            w.amend(" In a turn of several actions, a build of cards in play made before your card from the hand "
                    "makes you its owner at once, so that card may not then be trailed; a card trailed first may "
                    "be followed by such a build. If you own a build already, adding to it with cards in play in the "
                    "same turn does not let you trail.")
        if b.owner_obligation != "none":
            w.setting("build.owner_obligation_in_last_deal")
        if b.keep_capturing_card and not b.raise_single and not (b.multiple and b.add_sets):
            # (nobody takes a build over where none is raised or added to: the same audit)
            w.say("build.keep_capturing_card", "Until your build is captured, you must keep a card of its value in "
                                               "your hand.")
        else:
            w.setting("build.keep_capturing_card")
        if b.keep_capturing_card and b.for_partner and partners:
            w.say("build.keep_capturing_card.partner",
                  "For a build made for a partner's value, the partner whose value it is keeps that card instead: "
                  "where your partner builds for your value, you must keep a card of it until you take the build.")
    return Section("build", "Building", tuple(w.clauses))


def _more_teams(w: "_Writer", rules: Rules) -> None:
    """Teams beyond four players (issue 27, Krypkasino): said only where the file has them."""
    s = rules.seats
    others = [n for n in s.team_counts() if n != 4]
    if s.partnerships == "never" or not others:
        return
    how = {2: "in teams of two, partners sitting opposite each other (with six: seats 0 and 3, 1 and 4, 2 and 5)",
           3: "in two teams of three, each player sitting between two opponents (seats 0, 2 and 4 against 1, 3 "
              "and 5)"}[s.team_size]
    may = "always play" if s.partnerships == "always" else "may play"
    counts = join_words([_count(n) for n in others])
    w.say("seats.partnership_players", f"{counts.capitalize()} players {may} {how}; a team pools what its "
                                        f"players capture and scores together.")


def _partners_bound(rules: Rules) -> bool:
    """Whether a partner can own a build while the owner's duty is in force: some seating with partners has a deal
    before the last (the whole pack not dealt at once, or drawn from a stock), or the duty holds in the last deal
    too. South African and Swazi Casino deal four partners the whole pack at once, when the duty has lapsed (an
    audit: the partner sentence could never apply there)."""
    if rules.build.owner_obligation_in_last_deal or rules.deal.draw_after_play:
        return True
    left = left_undealt(rules)
    return any(n in left for n in _counts(rules) if rules.partnership(n, True))


def _has_partners(rules: Rules) -> bool:
    """Whether any game of these rules seats partners (four players, partnerships optional or always)."""
    return rules.seats.max_players >= 4 and rules.seats.min_players <= 4 and rules.seats.partnerships != "never"


def _trail(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    # (cards without a number value are never built on where they are not piled by rank: a reader's audit saw
    # "it can be captured or built on" taught at a trailed king of standard)
    courts = [plural(name) for name in _valueless_ranks(rules)]
    unbuilt = f" ({join_words(courts)} only captured)" if courts and rules.build.valueless == "never" else ""
    w.say("trail.intro", "To trail, put your card face up among the loose table cards; it can be captured "
                         + (f"or built on by anyone{unbuilt}." if rules.build.allowed else "by anyone."))
    if rules.build.allowed:
        w.setting("trail.with_build")
        if rules.trail.with_build and rules.build.owner_obligation != "none":
            # (a re-attack: does the build half of the trail meet an owner's duty to build? The engine says no.)
            w.amend(" Not while you own a build: its owner may not trail, with a build or without.")
    c, b = rules.capture, rules.build
    if (b.allowed and (b.owner_obligation == "capture_or_raise" or c.equal_card_first)) or (
            not c.several_groups and c.equal_cards != "any" and c.total is None):
        # (only where a play can be refused every way: a review found the sentence in books where no position
        # reaches it, and hoyle's partner case says its own)
        # (an audit of generated house rules: an owner bound to capture or raise who could do neither was let trail
        # any card, a card equal to a loose one too, by no sentence of the book; the engine and its generator let a
        # player with no play left trail rather than the game stop)
        w.say("trail.no_play", "Where these rules leave you no play at all, you trail a card of your choice.")
    return Section("trail", "Trailing", tuple(w.clauses))


def _sweep_items(rules: Rules) -> list[ScoringItem]:
    return [i for i in rules.scoring.items if i.count == "sweeps"]


def _sweeps_score(rules: Rules) -> bool:
    return any(i.points or any(r.points for r in i.by_size) or i.first_play_points or i.previous_player_points for i in _sweep_items(rules))


def _sweeps(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    if not _sweeps_score(rules) and not rules.sweeps.residue_is_sweep:
        w.say("sweeps.intro", "A capture that leaves the table empty is a sweep; in this game sweeps score nothing.")
        return Section("sweeps", "Sweeps", tuple(w.clauses))
    empty = "with no loose cards and no builds" if rules.build.allowed else "empty"
    w.say("sweeps.intro", f"A capture that leaves the table {empty} is a sweep; the "
                          "scoring says what each sweep is worth.")
    if rules.deal.dealer_takes_total:
        # (a reader of Escoba's rulebook alone scored its hands without the dealer's take, said only in the deal)
        w.amend(f" The dealer's take of a first table that makes {rules.capture.total} (see the deal) scores as "
                f"sweeps too, one for each set taken.")
    for path in ("sweeps.cancel", "sweeps.on_last_play", "sweeps.residue_is_sweep"):
        if path == "sweeps.on_last_play" and (total := never_emptied_by_the_last_play(rules)):
            # (what the hand's last card can do, not a rule of a sweep no play can make: a players' audit of Escoba)
            t = rules.capture.total
            w.say(path, f"No sweep can be made with the hand's last card: every capture takes cards making {t} with "
                        f"the card played, and the pack's values add up to {total}, which is no multiple of {t}, so "
                        f"cards are always left on the table at the end.")
            if not rules.sweeps.in_last_deal:
                w.setting("sweeps.in_last_deal")   # (a sweep earlier in the last deal is still no sweep)
            continue
        if path == "sweeps.on_last_play" and not rules.sweeps.in_last_deal:
            w.setting("sweeps.in_last_deal")   # the last card is in the last deal: one sentence says both
            continue
        w.setting(path)
        if path == "sweeps.on_last_play" and not rules.sweeps.on_last_play and _dealt_again(rules):
            # (a rulebook audit of Scopa read "the very last card of the hand" as the last card of each deal,
            # where only the hand's last play is meant)
            w.amend(" That is the last play of the whole hand, after the final deal; a sweep with the last card of "
                    "an earlier deal counts.")
    if rules.sweeps.cancel and (rules.endgame.restrictions or (rules.endgame.sweeps_from is not None
                                                               and rules.endgame.sweeps_from_side == "own")):
        w.setting("sweeps.record_when_restricted")   # (a sweep recorded matters only by what it cancels)
    return Section("sweeps", "Sweeps", tuple(w.clauses))


def _hand_end(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    last = "after the last deal" if rules.deal.redeal == "when_hands_empty" else "and the stock is empty"
    if not rules.deal.draw_after_play and (rules.deal.redeal == "never" or not _redealt_counts(rules)):
        last = "(there is one deal)"
    played = "every card has been played"
    left = left_undealt(rules)
    if rules.deal.redeal == "never" and not rules.deal.draw_after_play and left:
        played, last = "every hand is empty", "(there is one deal, and the cards it left are not played)"
        if len(left) < len(_counts(rules)):   # (a re-attack: with 3 or 4 players that deal gave out the whole pack)
            last = (f"(there is one deal; with {join_words([_count(n) for n in sorted(left)])} players the cards it "
                    f"leaves are not played)")
    still = "Cards still on the table, loose or in builds," if rules.build.allowed else "Cards still on the table"
    w.say("hand.end", f"The hand ends when {played} {last}. {still} "
                      f"go to the player who made the last capture.")
    return Section("hand", "End of a hand", tuple(w.clauses))


def _negative_share_words(rules: Rules, share: int) -> str:
    """What a negative score does to a total, said where a share is negative (Krypkasino's -5 for the
    player before a tabbe): in a penalty game it takes penalty points off, a reward."""
    if share >= 0:
        return ""
    off = points(-share)
    if rules.game.goal == "lowest":
        return f" ({off} taken off their total: since points are penalties, a reward)"
    return f" ({off} taken off their total)"


def item_words(rules: Rules, item: ScoringItem) -> str:
    """One scoring item as a sentence."""
    sel = selector_words(rules, item.cards) if item.count in ("most", "each", "at_least") else ("", "")
    singular, plural_ = sel if sel is not None else (f"card matching “{item.cards}”", f"cards matching “{item.cards}”")
    event = next((e for e in rules.scoring.events if e.name == item.event), None)
    fields = {"points": points(item.points), "singular": singular, "plural": plural_,
              "event": event_words(rules, event.takes) if event else humanize(item.event),
              "at_least": _at_least_words(item, singular, plural_)}
    if item.count == "each" and item.cards.strip().upper() not in ("ALL",) and singular.startswith("the "):
        text = f"{points(item.points)} for capturing {singular}"
        if rules.deck.packs > 1:   # two packs (issue 27): one card by name is several cards
            text = f"{points(item.points)} for each {singular[4:]} captured ({_count(rules.deck.packs)} in the packs)"
    elif item.count == "primiera":
        text = ""   # worded below
    else:
        text = WORDS["scoring.items.*.count"][item.count].format_map(fields)  # type: ignore[union-attr]
    if item.count == "most":
        text += WORDS["scoring.items.*.ties"][item.ties]  # type: ignore[operator]
    if item.count == "primiera":
        text = _primiera_words(rules, item, fields)
    if item.count == "sweeps":
        if item.by_size:
            rows = [f"{points(r.points)} for a sweep of {r.min_cards}"
                    + (f" to {r.max_cards}" if r.max_cards not in (None, r.min_cards) else
                       ("" if r.max_cards == r.min_cards else " or more")) + " cards" for r in item.by_size]
            text = "; ".join(rows) + (f"; otherwise {points(item.points)}" if not _covers_all(item) else "")
            # (The size is what the sweep takes from the table: the card played is not counted.)
            text += " (counting the table cards taken, not the card played)"
        if item.first_play_points is not None:
            text += NUMBERS["scoring.items.*.first_play_points"]["value"].format(first_play=item.first_play_points)  # type: ignore[union-attr]
        if not item.points and not item.by_size and item.first_play_points is None:
            text = "score nothing"
        if item.previous_player_points:
            text += NUMBERS["scoring.items.*.previous_player_points"]["value"].format(  # type: ignore[union-attr]
                previous_player=points(item.previous_player_points))
            text += _negative_share_words(rules, item.previous_player_points)
            text += ", even where the sweep is the hand's first play"
    if item.count in ("most", "each", "at_least", "primiera") and item.points == 0:
        # (an author's audit: a house rule's `spades: {points: 0}`, the way to drop an inherited item, read "0
        # points to the side that captures the most spades; a tie scores nothing")
        text = "score nothing"
    if item.sides:
        text += f" (scored only when the hand has {join_words([_count(n) for n in item.sides], 'or')} sides)"
    if item.at_end and rules.scoring.when == "as_won":
        text += WORDS["scoring.items.*.at_end"][True]  # type: ignore[operator]
    if item.order and item.count == "each" and item.name in counted_out(rules):
        text += f" (counted out in the order {' '.join(card_name(rules, c) for c in item.order)})"
    return f"{humanize(item.name).capitalize()}: {text}."


def _at_least_words(item: ScoringItem, singular: str, plural_: str) -> str:
    """How many cards an `at_least` item needs, in words: "five spades", "one spade"."""
    if item.at_least is None:
        return ""
    return f"{_count(item.at_least)} {singular if item.at_least == 1 else plural_}"


def _primiera_words(rules: Rules, item: ScoringItem, fields: dict[str, str]) -> str:
    """A primiera item: the points table by rank (equal points joined), the suits rule, ties."""
    by_points: dict[int, list[str]] = {}
    for rank, pts in item.card_points:
        by_points.setdefault(pts, []).append(rank)
    table = ", ".join(f"{join_words([_rank_name(rules, r) for r in ranks])} {pts}"
                      for pts, ranks in sorted(by_points.items(), reverse=True))
    text = WORDS["scoring.items.*.count"]["primiera"].format_map({**fields, "card_points": table})  # type: ignore[union-attr]
    if item.cards.strip().lower() != "all":
        sel = selector_words(rules, item.cards)
        text += f" (only {sel[1] if sel else item.cards} count)"
    text += WORDS["scoring.items.*.all_suits"][item.all_suits]  # type: ignore[operator]
    return text + WORDS["scoring.items.*.ties"][item.ties]  # type: ignore[operator]


def counted_out(rules: Rules) -> list[str]:
    """The scoring items a count-out goes through, in order; empty where there is no count-out.

    An item that scores nothing (sweeps in a game without sweep points) is left out: the
    count-out cannot reach anything by it.
    """
    g = rules.game
    if g.target is None or g.both_reach != "count_out":
        return []
    out = []
    for name in g.count_out:
        item = rules.scoring.item(name)
        if item is None:
            continue
        if item.count == "sweeps" and not _sweeps_score(rules):
            continue
        if item.count != "sweeps" and not item.points:
            continue
        out.append(name)
    return out


def both_reach_can_matter(rules: Rules) -> bool:
    """Whether several sides can pass the target in one hand: not where the game stops the moment
    one side's pegged points reach it and nobody needs to claim."""
    g = rules.game
    if g.target is None or g.score_mode == "difference":
        # (under difference scoring only the side with more points scores in a hand: one side at most passes the
        # target; a re-attack read "if several sides reach 11 in the same hand" in the eleven-difference example)
        return False
    return not (rules.scoring.when == "as_won" and not g.play_out_hand and not g.claiming)


def _covers_all(item: ScoringItem) -> bool:
    return any(r.min_cards <= 1 and r.max_cards is None for r in item.by_size) or (
        any(r.min_cards <= 1 for r in item.by_size) and any(r.max_cards is None for r in item.by_size))


def event_words(rules: Rules, takes: Iterable[str]) -> str:
    """What a capture must take for an event (Tuxedo's orange: \"at least a red card and a yellow card from the table\")."""
    parts = []
    for t in takes:
        sel = selector_words(rules, t)
        parts.append(f"a {sel[0]}" if sel and not sel[0].startswith("the ") else (sel[0] if sel else f"a card matching “{t}”"))
    # (a rulebook audit of Tuxedo asked whether a build's cards count: they do, as the cards a capture takes)
    where = "from the table, loose or in a build it takes" if rules.build.allowed else "from the table"
    return "at least " + join_words(parts) + " " + where


def _scoring(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    w.say("scoring.intro", "Each side scores for what it captured in the hand:")
    for item in rules.scoring.items:
        if item.count == "sweeps" and not _sweeps_score(rules):
            continue
        w.say(f"scoring.items.{item.name}", item_words(rules, item))
        if item.count == "event":
            # (the same audit: is the last capturer's taking of the cards left at the end an orange? The engine
            # scores events of plays only.)
            w.amend(" Taking the cards left at the end of the hand is no such capture.")
    named = {i.event for i in rules.scoring.items if i.count == "event"}
    for ev in rules.scoring.events:
        if ev.name in named:
            continue   # the item's own sentence says what the event takes
        w.say(f"scoring.events.{ev.name}", f"A capture that takes {event_words(rules, ev.takes)} is "
                                           f"{'an' if ev.name[:1] in 'aeiou' else 'a'} {humanize(ev.name)}.")
    if rules.scoring.when == "as_won":
        w.say("scoring.when", _as_won_words(rules))
    else:
        w.setting("scoring.when")
    return Section("scoring", "Scoring", tuple(w.clauses))


def _counted(rules: Rules) -> str:
    """When what a pile holds is counted: at the end of the hand, or as it is won (pegging)."""
    if rules.scoring.when == "as_won":
        return "their points counted as soon as they are won (see the scoring)"
    return "to be counted at the end of the hand"


def _as_won_words(rules: Rules) -> str:
    """Pegging, in the words that apply: the kinds of item the variant pegs as won, and whether
    reaching the target then ends the game at once (not where the hand is played out or a claim
    ends it)."""
    items = [i for i in rules.scoring.items if not i.at_end and (i.points if i.count != "sweeps" else _sweeps_score(rules))]
    kinds = []
    if any(i.count == "each" for i in items):
        kinds.append("each scoring card when captured")
    if any(i.count == "sweeps" for i in items):
        kinds.append("each sweep when made")
    if any(i.count == "most" for i in items):
        kinds.append("a \"most\" item once no other side can catch up")
    if any(i.count == "at_least" for i in items):
        kinds.append("an \"at least\" item once the side has captured enough cards")
    text = "Points count as soon as they are won" + (f" ({join_words(kinds)})" if kinds else "")
    g = rules.game
    if not g.play_out_hand and not g.claiming:
        text += ", so a game can end in the middle of a hand"
        last = [("most " if i.count == "most" else "") + humanize(i.name)
                for i in rules.scoring.items if i.at_end and i.points]
        if last and g.target is not None:
            # (a rulebook audit of Spade Casino could not tell who wins when the cards left on the table take one
            # side to 61 and the 3 for cards would take the other past it: the engine pegs the table's cards
            # first and counts the items kept for the end last, as scoring.points_so_far and Game do)
            # (and a reader of the rulebook alone could not tell whether a last play that reaches the target ends
            # the game before the table's cards are pegged: the hand ends with it, and they are pegged too)
            return (text + f". When the hand ends, the cards left on the table are pegged first and the points "
                    f"for {join_words(last)} last, which are not added once a side has reached the target. The "
                    f"hand's last play ends the hand as it is made, so where it reaches the target the cards left "
                    f"on the table still go to its player and are pegged with it.")
    return text + "."


def _game(rules: Rules, ctx: dict[str, Any]) -> Section:
    w = _Writer(rules, ctx)
    g = rules.game
    if g.goal == "lowest":
        w.setting("game.goal")
    elif g.claiming and g.target is not None:
        # Being first to the target wins nothing by itself here: a claim does (a rulebook audit found
        # "The first side to reach 11 points wins" misleading in Hungarian Casino).
        w.say("game.target", f"The first side to claim correctly, during play, that it has reached {g.target} "
                             f"points wins the game; if nobody claims, a side with {g.target} or more when the "
                             f"hand ends wins.")
    else:
        w.setting("game.target")
    if g.target is not None:
        w.setting("game.score_mode")
        if both_reach_can_matter(rules) and g.goal != "lowest":
            w.setting("game.both_reach")
            if g.both_reach == "count_out" and any(
                    (item := rules.scoring.item(name)) is not None and item.ties in ("split", "each")
                    for name in counted_out(rules)):
                w.amend(" Points that tied sides share count for them at once: if they take two sides to "
                        f"{g.target} together, neither wins yet: each side's total stays as it was counted just "
                        "before those shared points, the rest of the hand's points (those and any counted after "
                        "them) are not scored, and another hand is played.")
            if rules.endgame.restrictions and g.both_reach == "higher_wins":
                w.amend(" (This is for sides that reach it without a restriction: see the end of the game.)")
        if any((item := rules.scoring.item(name)) is not None and item.count == "sweeps"
               for name in counted_out(rules)):
            w.setting("game.count_out_sweeps")
            if g.count_out_sweeps == "difference" and rules.seats.max_players >= 3:
                # (a re-attack asked whose lead counts with three sides: the engine's, over the next side)
                w.amend(" With three or more sides, the side with the most sweeps scores its lead over the next; "
                        "a tie for the most scores nobody.")
        w.setting("game.claiming")
        if not g.play_out_hand and (g.claiming or rules.scoring.when == "as_won"):
            w.setting("game.play_out_hand")
        w.setting("game.lurch.below")
    return Section("game", "Winning the game", tuple(w.clauses))


def _endgame(rules: Rules, ctx: dict[str, Any]) -> Section | None:
    e = rules.endgame
    if not e.restrictions and e.sweeps_from is None:
        return None
    w = _Writer(rules, ctx)
    for r in e.restrictions:
        only = join_words([humanize(n) for n in r.only])
        w.say(f"endgame.restrictions.{r.score}",
              f"A side with exactly {r.score} points at the start of a hand may score only {only} in it; "
              f"reaching the target that way wins the game when the hand ends, whatever sides without a "
              f"restriction score (several restricted sides: see below).")   # (002 "win the game automatically, irrespective of how many points the opponent(s)
              #   score"; an audit read "wins at once" as the game stopping in the middle of the hand)
    if e.restrictions and rules.seats.max_players >= 2:
        w.say("endgame.first_to_meet",
              "If several sides under restrictions meet them in the same hand, the first to have met its "
              "condition in the play wins (the cards are counted as they were taken). A condition is met once the "
              "cards taken make it certain: the card it names taken, or more cards (or spades) than any other "
              "side can still reach; a lead that could still be lost is not met. Sides that meet theirs "
              "at the same moment (the cards left at the end settling both) are as sides reaching the target "
              "in one hand: the higher total wins, and equal totals win nothing yet.")
    if e.sweeps_from_side == "any":   # one rule, worded by the side setting, keyed as the score's
        w.say("endgame.sweeps_from", word(rules, "endgame.sweeps_from_side", "any", ctx) or "")
    else:
        w.setting("endgame.sweeps_from")
        # Scores just below it where a restriction already leaves sweeps out (Soto's 16 and 17):
        # "from 18 on" alone would read as if sweeps scored there.
        sweep_items = {i.name for i in rules.scoring.items if i.count == "sweeps"}
        below = sorted(r.score for r in e.restrictions
                       if e.sweeps_from is not None and r.score < e.sweeps_from and not sweep_items & set(r.only))
        if below and e.sweeps_from is not None:
            w.amend(f" At {join_words([str(b) for b in below])} points the restrictions already leave sweeps out.")
    if e.restrictions or e.sweeps_from is not None:
        w.setting("endgame.lifted_after_tie")
    return Section("endgame", "Near the end of the game", tuple(w.clauses))


#: The rule texts the readings cite by number (docs/sources.md): named in a note wherever a rulebook cites one
#: (a rulebook audit met "001/002" and "000, 'Adding to a build'" in Royal Casino's readings with no word of
#: what they were).
SOURCE_LABELS: dict[str, str] = {
    "000": "John McLeod, \u201cCasino\u201d, pagat.com, https://www.pagat.com/fishing/casino.html",
    "001": "R. F. Foster, Foster\u2019s Complete Hoyle (1897), \u201cCassino\u201d",
    "002": "John McLeod, \u201cRoyal Casino\u201d, pagat.com, https://www.pagat.com/fishing/royal_casino.html",
    "003": "\u201cCasino\u201d, a short modern rules page (its address not kept)",
    "004": "\u201cCassino\u201d for two players, Denexa Games, https://www.denexa.com",
}
_CITED = re.compile(r"(?<![\d,.])(00[0-4])(?!\d)")


def cited_sources(texts: Iterable[str]) -> str | None:
    """A note naming the rule texts ``texts`` cite by number, or None where they cite none."""
    cited = sorted({m for t in texts for m in _CITED.findall(t)})
    if not cited:
        return None
    return "Rule texts cited by number: " + "; ".join(f"{k} {SOURCE_LABELS[k]}" for k in cited) + "."


def reading_citations(texts: Iterable[str], *rules: Rules) -> list[str]:
    """The citations (``readings: ... source:``) of the file readings of ``rules`` that ``texts`` say: a reading
    may speak of its text without its number ("as the text's Players and Cards says", "Rule 5 raises": Dominican
    Casino's, whose citations name 002), and the note of rule texts cited by number (:func:`cited_sources`) names
    the texts its citation cites, as it does those a reading's own words cite (a rulebook audit met Dominican's
    "the text" and "Rule 5" with no word of which text they were)."""
    said = set(texts)
    return [r.source for each in rules for r in each.readings if r.source and "Reading: " + r.text in said]


def with_cited_sources(book: Rulebook, *rules: Rules) -> Rulebook:
    """``book`` with its note of rule texts cited by number made anew from every entry it shows, a house rule's
    parent's wording too (a review found royal-sweeps' note without the 001 its removed reading cites), and the
    citations of the readings of ``rules`` it says (:func:`reading_citations`: the house rule's and its
    parent's)."""
    texts = [t for sec in book.sections for c in sec.clauses for t in (c.text, c.was) if t]
    kept = tuple(n for n in book.notes if not n.startswith("Rule texts cited by number: "))
    cited = cited_sources(texts + list(kept) + reading_citations(texts, *rules))
    return replace(book, notes=kept + ((cited,) if cited else ()))


def rulebook(rules: Rules) -> Rulebook:
    """The whole rulebook of ``rules``, without worked examples (the apps layer adds those)."""
    ctx = _context(rules)
    sections = [f(rules, ctx) for f in (_seats, _deck, _deal, _turn, _capture, _build, _trail, _sweeps,
                                         _hand_end, _scoring, _game)]
    end = _endgame(rules, ctx)
    if end is not None:
        sections.append(end)
    sections = _place_file_readings(rules, sections)
    title = f"{rules.name.replace('-', ' ').title()}"
    notes = tuple("Reading: " + r for r in readings(rules, ""))
    if may_never_end(rules):   # (``cassino validate`` warns the author of the same)
        notes += ("Warning: as written, a game may never end: the lowest total wins and no one ever has to "
                  "capture, so players who trail every card take nothing and no one scores.",)
    texts = [c.text for s in sections for c in s.clauses]
    cited = cited_sources(texts + list(notes) + reading_citations(texts, rules))
    if cited is not None:
        notes += (cited,)
    return Rulebook(rules.name, title, _overview(rules, ctx), tuple(s for s in sections if s.clauses),
                    notes=notes)


def file_readings(rules: Rules) -> list[tuple[str, str]]:
    """The file's own readings (``readings:``, issue 36) that still apply: (setting, text) for each
    whose setting keeps the value the file read (a house rule or ``--set`` that changes it drops it)."""
    return [(r.setting, r.text) for r in rules.readings if reading_applies(rules, r)]


def reading_applies(rules: Rules, r: ReadingRule) -> bool:
    """Whether the file reading ``r`` still describes ``rules``: its setting keeps the value it was written for (a
    reading whose words assume another setting, ``also``, is left out of the rules where that one changed:
    ``settings.with_readings``; rules changed in memory, by ``assumes``)."""
    return setting_value(rules, r.setting) == r.value and all(setting_value(rules, k) == v for k, v in r.assumes)


def _clause_candidates(setting: str) -> list[str]:
    """The clause keys a reading of ``setting`` may stand under, best first: the setting's own, an
    item's or event's clause, then each enclosing path (``game.lurch.below`` -> ``game.lurch``)."""
    parts = setting.split(".")
    out = [setting]
    out += [clause for clause, worded in WORDED_BY.items() if setting in worded]   # said in another's words
    if parts[:2] in (["scoring", "items"], ["scoring", "events"]) and len(parts) > 3:
        out.append(".".join(parts[:3]))
    if parts[:3] == ["scoring", "items", "sweeps"]:
        out.append("sweeps.intro")         # where sweeps score nothing, the sweeps' opening says so
    if setting == "game.target":
        out.append("game.goal")            # a negative game words its loss limit with its goal
    if setting == "endgame.sweeps_from_side":
        out.append("endgame.sweeps_from")
    if setting in ("scoring.items", "scoring.events"):
        out.append("scoring.intro")        # the items as a whole: said with the scoring's opening
    out += [".".join(parts[:k]) for k in range(len(parts) - 1, 0, -1)]
    return out


def _place_file_readings(rules: Rules, sections: list[Section]) -> list[Section]:
    """Each applying file reading as a "Reading:" clause right after the clause of its setting; a
    reading whose setting has no clause in this rulebook (it does not apply here) is not said."""
    placed: dict[str, list[str]] = {}
    keys = {c.key for s in sections for c in s.clauses}
    said = {c.key.partition(".reading.file")[0] for s in sections for c in s.clauses if ".reading.file" in c.key}
    for setting, text in file_readings(rules):
        if setting in said:
            continue   # said where its silent setting applies (_Writer.setting)
        key = next((k for k in _clause_candidates(setting) if k in keys), None) or next(
            (c.key for s in sections for c in s.clauses if c.key.startswith(setting + ".")), None)
        if key is not None:
            placed.setdefault(key, []).append(text)
    if not placed:
        return sections
    out = []
    for s in sections:
        clauses: list[Clause] = []
        done: set[str] = set()
        for c in s.clauses:
            clauses.append(c)
            if c.key in placed and c.key not in done:
                done.add(c.key)
                clauses += [Clause(f"{c.key}.reading.file" + (f".{k}" if k else ""), "Reading: " + text)
                            for k, text in enumerate(placed[c.key])]
        out.append(replace(s, clauses=tuple(clauses)))
    return out


# ---------------------------------------------------------------------- examples and house rules


def with_examples(book: Rulebook, examples: Iterable[Example]) -> Rulebook:
    """``book`` with each example placed in the section holding its key's clause (or its key's section)."""
    by_section: dict[str, list[Example]] = {}
    owners = {c.key: s.key for s in book.sections for c in s.clauses}
    for ex in examples:
        section = owners.get(ex.key, ex.key.split(".")[0])
        by_section.setdefault(section, []).append(ex)
    return replace(book, sections=tuple(replace(s, examples=s.examples + tuple(by_section.get(s.key, ())))
                                        for s in book.sections))


def _rule_of(key: str) -> str:
    """The rule a clause belongs to: its own key, or for a reading the key of the rule it reads."""
    return key.partition(".reading")[0]


def _same_reading(c: Clause, p: Clause) -> bool:
    """``c`` and ``p`` are one reading in the same words, whatever its key: readings are numbered in order
    (``...reading.file.1`` is the second; one the house rule drops renumbers the rest), and one whose rule has
    no sentence in the house rule is said after another rule (Scopa's reading of its one group, after the
    rule of no sums)."""
    return c.text == p.text and ".reading" in c.key and ".reading" in p.key


def _but_players(lines: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple(line for line in lines if line[0] != "Players")


def mark_examples(book: Rulebook, parent: Rulebook, parent_name: str) -> Rulebook:
    """``book``'s worked examples marked against ``parent``'s, as ``mark_changes`` marks its rules: one whose lines
    differ from the parent's example of the same rule and title is "changed", one the parent lacks "new", and a
    parent's example the house rule lacks is shown "removed" (its title only) in the section where the parent has
    it. (A re-attack found single-build-as-card's "Not allowed" lines become allowed, and hoyle-eleven-up's partner
    example gone, with no mark: the examples are claims a reader relies on.)"""
    theirs = {(ex.key, ex.title): ex for sec in parent.sections for ex in sec.examples}
    ours = {(ex.key, ex.title) for sec in book.sections for ex in sec.examples}
    counts = {"changed": 0, "new": 0, "removed": 0}
    sections = []
    for sec in book.sections:
        marked = []
        for ex in sec.examples:
            was = theirs.get((ex.key, ex.title))
            # (Not changed where only the Players line differs, the same moves at another table: an author's audit
            # saw 11 of a four-player house rule's 17 examples marked for "standard's example has no Players line".)
            status = "new" if was is None else ("changed" if _but_players(was.lines) != _but_players(ex.lines) else "")
            if status:
                counts[status] += 1
            before = tuple(line for line in was.lines if line not in ex.lines) if status == "changed" and was else ()
            if status == "changed" and was and not before:
                # (only lines added: a re-attack saw "CHANGED" with nothing to compare, krypkasino-threes' Players)
                added = [label for label, _ in ex.lines if label not in {lb for lb, _ in was.lines}]
                before = (("", f"{parent_name}'s example has no {join_words(added) or 'such'} line"
                                f"{'s' if len(added) > 1 else ''}" if added else
                           f"{parent_name}'s example lists less"),)
            marked.append(replace(ex, status=status, was=before))
        gone = [replace(ex, lines=(), status="removed") for psec in parent.sections if psec.key == sec.key
                for ex in psec.examples if (ex.key, ex.title) not in ours]
        counts["removed"] += len(gone)
        sections.append(replace(sec, examples=tuple(marked + gone)))
    if not any(counts.values()):
        return replace(book, sections=tuple(sections))
    said = join_words([f"{n} {what}" for what, n in counts.items() if n])
    note = f"Worked examples are marked the same way: {said} against {parent_name}'s."
    return replace(book, sections=tuple(sections), notes=book.notes + (note,))


def mark_changes(book: Rulebook, parent: Rulebook, parent_name: str) -> Rulebook:
    """``book`` with every sentence that differs from ``parent``'s rulebook marked, the parent's wording kept.

    The two books are compared clause by clause, by key and by words, whatever setting a clause's words
    come from: a player of the parent game reads the house rule's book against the one they know, and a
    sentence that changed only as a consequence (the sweep defined in other words once sweeps score, the
    target's number in the tie rule, an ace's count-out order) or vanished with another setting (the
    partnerships of a two-player game) is as new to them as the setting's own. A clause with the parent's
    key and words is unmarked, whichever section it is now in; so is a reading in the words of one of the
    parent's readings (those of the same rule first), whatever its key: readings are numbered by their
    place. Otherwise a clause is CHANGED where the parent has a clause of its key not matched so far (the
    parent's words beside it; a reading is paired only with the parent's reading of the same key, never
    with another reading of the rule), or where the parent says that rule only as readings (a value with
    no sentence of its own: the readings are its old wording, not removed); NEW where the parent has none.
    Each parent clause left unmatched is REMOVED, in the section where the parent had it, after the clause
    it followed there (a section only the parent has comes last, with its clauses alone). A parent clause
    is matched once: no sentence is shown both in force and removed. Worked examples are not clauses and
    are not marked: the house rule's own are shown, the parent's are not."""
    old = [(sk, n, c) for sk, s in enumerate(parent.sections) for n, c in enumerate(s.clauses)]
    new = [(sk, n, c) for sk, s in enumerate(book.sections) for n, c in enumerate(s.clauses)]
    match: dict[tuple[int, int], tuple[int, int]] = {}       # house clause -> the parent clause it says again
    status: dict[tuple[int, int], tuple[str, str]] = {}      # house clause -> (status, the parent's words)
    taken: set[tuple[int, int]] = set()

    def first(c: Clause, fits: Any) -> tuple[int, int] | None:
        return next(((sk, n) for sk, n, p in old if (sk, n) not in taken and fits(c, p)), None)

    for test in (lambda c, p: c.key == p.key and c.text == p.text,
                 lambda c, p: _same_reading(c, p) and _rule_of(c.key) == _rule_of(p.key), _same_reading):
        for sk, n, c in new:
            if (sk, n) not in match and (at := first(c, test)) is not None:
                match[sk, n] = at
                taken.add(at)
    for sk, n, c in new:
        if (sk, n) in match:
            continue
        at = first(c, lambda c, p: c.key == p.key)
        if at is not None:
            taken.add(at)
            status[sk, n] = ("changed", parent.sections[at[0]].clauses[at[1]].text)
            match[sk, n] = at
        elif ".reading" not in c.key and all(p.key != c.key for _, _, p in old):
            # The parent says the rule only as a reading (a value with no sentence of its own): its old wording.
            said = [(k, m) for k, m, p in old if (k, m) not in taken and p.key.startswith(c.key + ".reading")]
            if said:
                taken |= set(said)
                status[sk, n] = ("changed", " ".join(parent.sections[k].clauses[m].text for k, m in said))
                match[sk, n] = said[0]
            else:
                status[sk, n] = ("new", "")
        else:
            status[sk, n] = ("new", "")
    # Each parent clause left over is removed, placed after the house clause matched to the one before it
    # in the parent's section, where that is in the same section of the house rule's book.
    where = {at: here for here, at in match.items()}
    section_of = {s.key: k for k, s in enumerate(book.sections)}
    after: dict[tuple[int, int], list[Clause]] = {}
    only_parent: list[Section] = []
    for pk, p in enumerate(parent.sections):
        home = section_of.get(p.key)
        anchor = (home, -1) if home is not None else None
        gone: list[Clause] = []
        for m, c in enumerate(p.clauses):
            if (pk, m) in taken:
                here = where.get((pk, m))
                if home is not None and here is not None and here[0] == home:
                    anchor = here
            elif anchor is not None:
                after.setdefault(anchor, []).append(Clause(c.key, "", status="removed", was=c.text))
            else:
                gone.append(Clause(c.key, "", status="removed", was=c.text))
        if gone:
            only_parent.append(replace(p, clauses=tuple(gone), examples=()))
    sections = []
    for sk, s in enumerate(book.sections):
        clauses = list(after.get((sk, -1), []))
        for n, c in enumerate(s.clauses):
            if (sk, n) in status:
                mark, was = status[sk, n]
                c = replace(c, status=mark, was=was)
            clauses.append(c)
            clauses += after.get((sk, n), [])
        sections.append(replace(s, clauses=tuple(clauses)))
    sections += only_parent
    marked = sum(1 for s in sections for c in s.clauses if c.status)
    return replace(book, sections=tuple(sections), notes=book.notes + (_marks_note(parent_name, marked),))


def _marks_note(parent: str, marked: int) -> str:
    """The note opening a house rule's book: how many of its entries are marked. Entries, not rules:
    ``cassino diff`` counts the settings that differ ("2 rules differ"), and one setting may change several
    entries (a count-out rewords the tie rule, the aces' line and the sweeps')."""
    if not marked:
        return (f"A house rule of {parent}: its rulebook says what {parent}'s says, sentence for sentence "
                f"(the settings it changes change none of the words).")
    # (entries, not sentences: a re-attack counted two sentences in one marked entry, a bullet of the book)
    count = "1 entry differs" if marked == 1 else f"{marked} entries differ"
    return (f"A house rule of {parent}: {count} between this rulebook and {parent}'s, each marked here (a changed "
            f"entry with {parent}'s wording beside it, one {parent}'s rulebook lacks as new, one only it has as "
            f"removed). These are the book's entries, each a rule's sentences or a reading: `cassino diff` counts "
            f"the rules set differently, and one rule may reword several entries.")

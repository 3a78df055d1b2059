"""How to play a variant, in a few lines a newcomer can read at the table (the in-game `how` command).

Generated from the variant's settings, never written per variant: the same
sentence appears for every variant with the same setting, and a house rule that
changes a setting changes what the player reads. ``cassino explain`` is the
full, setting-by-setting account; this is the short one.
"""

from __future__ import annotations

from functools import lru_cache

from ...language.rulebook import Rulebook, event_words, humanize, points, renamed_letters, rulebook
from ...language.rules import RankRule, Rules
from ...language.semantics import left_undealt
from ...language.unread import never_emptied_by_the_last_play
from .move_examples import examples_text
from .seating import COUNT_WORDS, players_text
from .summary import item_words


def _values(rank: RankRule) -> str:
    return " or ".join(map(str, rank.values))


def card_names(rules: Rules) -> str | None:
    """What the typed letters stand for where the pack names them otherwise (Scopa's D is coins, its Q the
    knight), as the rulebook's pack section says; None for a pack whose letters start their names."""
    dk = rules.deck
    suits, ranks = renamed_letters(rules)
    if not suits and not ranks:
        return None
    said = [f"{s.letter} ({s.symbol}) is {s.name}" if s.symbol and s.symbol != s.letter else f"{s.letter} is {s.name}"
            for s in dk.suits] if suits else []
    said += [f"{r.rank} is the {r.name}" for r in ranks]
    return "; ".join(said)


def card_values(rules: Rules) -> str:
    """``number cards count their number; A counts 1; J Q K have no number value ...``"""
    plain, counted, none = [], [], []
    for r in rules.deck.ranks:
        if not r.values:
            none.append(r.rank)
        elif r.rank.isdecimal() and r.values == (int(r.rank),):
            plain.append(r.rank)
        else:
            counted.append(f"{r.rank} counts {_values(r)}")
    parts = []
    if plain:
        parts.append("number cards count their number")
    parts += counted
    if none:
        takes = {"one": "each takes one card of its own rank at a time", "all": "each takes every loose card of its "
                 "own rank at once", "any": "each takes any number of cards of its own rank",
                 "one_or_three_by_fourth": "each takes one card of its own rank, or may take all three when it is the fourth"}
        parts.append(f"{' '.join(none)} have no number value: "
                     f"{takes.get(rules.capture.valueless_cards, 'each takes only cards of its own rank')}")
    by_rank = {r.rank: r.values for r in rules.deck.ranks}
    said: dict[tuple[str, str], list[str]] = {}   # (hand, table) -> the cards counted so, in the file's order
    for cv in rules.deck.card_values:
        # A side left out keeps the rank's value: Finnish 2S is 15 from the hand but still 2 on the table.
        rank = cv.card[:-1]
        own = by_rank.get("10" if rank == "T" else rank, ())
        hand = " or ".join(map(str, cv.hand if cv.hand is not None else own))
        table = " or ".join(map(str, cv.table if cv.table is not None else own))
        said.setdefault((hand, table), []).append(cv.card)
    for (hand, table), cards in said.items():
        # A whole rank counted alike is said once, as the rank (a re-attack read each of Krypkasino's four aces,
        # after "A counts 1"): the rank's own entry then goes.
        ranks = {c[:-1] for c in cards}
        whole = len(ranks) == 1 and len(cards) == len(rules.deck.suits)
        if whole:
            rank = next(iter(ranks))
            parts = [p for p in parts if not p.startswith(f"{rank} counts ")]
        who = next(iter(ranks)) if whole else " ".join(cards)
        verb = "counts" if whole or len(cards) == 1 else "count"
        if hand != table:
            parts.append(f"{who} {verb} {hand or 'nothing'} played from the hand and {table or 'nothing'} on the table")
        elif hand:
            parts.append(f"{who} {verb} {hand}")
    return "; ".join(parts)


def _lapse(rules: Rules) -> str:
    """`build.owner_obligation_in_last_deal: false` (issue 36): the limit ends with the stock."""
    return "" if rules.build.owner_obligation_in_last_deal else ", until the stock is used up"


def _trail(rules: Rules) -> str:
    text = "trail: lay the card face up on the table"
    limits = []
    if not rules.build.allowed:
        pass
    elif rules.build.owner_obligation == "no_trail":
        limits.append("not while you own a build" + _lapse(rules))
    elif rules.build.owner_obligation == "capture_or_raise":
        limits.append("not while you own a build: then capture or raise one" + _lapse(rules))
    compulsory = rules.capture.compulsory
    if compulsory == "equal_loose_card":
        limits.append("not a card equal to a loose card on the table")
    elif compulsory == "when_card_can_capture":
        limits.append("not a card that could capture")
    elif compulsory == "whenever_possible":
        limits.append("only when you cannot capture at all (capturing is compulsory)")
    elif compulsory == "never" and not limits:
        # (any card, even one that could capture: a player's audit of Escoba, coming from Scopa, where a card
        # that can capture may not be trailed, found the short guide silent on it)
        limits.append("any card, even one that could capture: you never have to")
    if rules.trail.with_build:
        text += "; a trail may come with a build of loose table cards for a value you hold"
    return text + (f" ({'; '.join(limits)})" if limits else "")


def _capture(rules: Rules) -> str:
    c = rules.capture
    if c.total is not None:
        # A capture by a total (Escoba): the card played and the cards taken make the total;
        # nothing is taken for being equal to the card played.
        takes = [("loose cards" if c.several_groups else "a set of loose cards")
                 + f" that make {c.total} with it (a 5 takes a card of {c.total - 5}"
                 + (f", or 4+{c.total - 9}" if c.sums and c.total - 9 > 0 else "") + ")"]
    else:
        takes = ["loose cards of the same value" if c.several_groups else "a loose card of the same value"]
    # (a 7 and a 3+4: every pack has them; an audit read "a 9 takes 4+5" in Scopa's pack, which has no 9)
    if c.sums and c.total is None:
        takes.append("sets of loose cards that add up to its value (a 7 takes 3+4)" if c.several_groups
                     else "a set of loose cards that add up to its value (a 7 takes 3+4)")
    if rules.build.allowed:
        takes.append("builds of its value")
    if c.several_groups:
        text = "capture: take with the card " + ", ".join(takes) + ", several at once"
    else:
        # (Scopa: one card or one set a capture; "one at a time" read as if several equal cards could go)
        text = "capture: take with the card one of these: " + " or ".join(takes)
    if c.equal_cards == "all":
        text += "; every loose card equal to it must be taken too"
    elif c.equal_cards == "all_when_pairing":
        text += "; taking one equal card takes them all"
    if c.equal_card_first and c.total is not None:
        text += f"; while one loose card alone makes {c.total} with it, it takes that card, not a set"
    elif c.equal_card_first:
        text += "; while a loose card equals it, it takes only equal cards"
    if c.hand_cards_max > 1:
        text += f"; up to {c.hand_cards_max} cards from the hand may be played together to capture"
    if c.from_piles == "opponents_top" and c.pile_cards == "augment":
        # African Casino's building (issue 36): a pile card only augments, never taken directly.
        text += ("; captured cards lie face up, and the top card of each opponent's pile (then the card under it, "
                 "up to four of a pile in one move) may only join a set of the value beside loose cards or a "
                 "build of that value: never taken alone (your own side's pile is not in play)")
    elif c.from_piles == "opponents_top":
        text += ("; captured cards lie face up, and the top card of each opponent's pile may be taken or built "
                 "with as if it lay on the table (your own side's pile is not in play)")
    return text


def _build(rules: Rules) -> str:
    b = rules.build
    if not b.allowed:
        return "there is no building"
    text = ("build: put the card on loose cards to make a build of a value you hold another card for "
            "(a 3 on a 5 builds 8 when you keep an 8); you own the build, anyone may capture it with a card "
            "of its value")
    if b.keep_capturing_card:
        text += ", and you must keep a card of its value until it is taken"
    extras = []
    if b.multiple:
        extras.append("a build may hold several sets of its value (8 and 5+3: a multiple build of 8)")
    if b.multiple and b.add_sets and not b.augment_opponents:
        extras.append("another side's build may be added to only as you capture it")
    if b.opponents_hand_only and (b.add_sets or b.raise_single):
        extras.append("another side's build grows by your hand card alone, no table card with it")
    if b.raise_single:
        not_by = [] if b.raise_own else ["its owner"]
        if not b.raise_partners:
            not_by.append("the owner's partner")
        takes = ""
        if b.multiple and b.raise_takes_in != "none":
            takes = (", taking in loose cards each worth the new value" if b.raise_takes_in == "cards"
                     else ", taking in loose cards or sets worth the new value")
        extras.append("a single build may be raised by adding a card from the hand"
                      + (f", but not by {' or '.join(not_by)}" if not_by else "") + takes)
    if b.one_per_value:
        extras.append("there is only one build of each value: a new build of a value already built must join that build")
    if b.one_per_player:
        extras.append("a player owns one build at a time")
    if b.free_actions:
        extras.append("beside the turn's one card from the hand, builds of cards in play alone may be made before or "
                      "after it (write a turn's actions joined by `;`, and `end` to end it once the hand card is played)")
    if b.max_value is not None:
        extras.append(f"builds go up to {b.max_value}")
    if b.for_partner:
        extras.append("playing in partnerships, you may build for a value your partner has shown they hold"
                      + (", but raise a build only to a value you hold yourself"
                         if b.raise_single and not b.raise_for_partner else ""))
    return text + ("; " + "; ".join(extras) if extras else "")


def _scoring(rules: Rules) -> list[str]:
    lines = []
    for item in rules.scoring.items:
        what = item_words(item, rules)
        if item.count == "most":
            # ("shared, rounded down" as the rulebook says: a re-attack read "split" as leaving no point unscored)
            extra = {"nobody": ", nobody on a tie", "split": ", shared on a tie, rounded down",
                     "each": ", each on a tie"}.get(item.ties, "")
            lines.append(f"  {humanize(item.name)}: {item.points} for {what}{extra}")
        elif item.count == "sweeps":
            # (by size alone where sizes are given: an audit read "5 for each sweep (10 for 4+ cards; ...)" in Tuxedo)
            pts = ("each sweep by the cards it takes" if item.by_size else f"{item.points} for each sweep" if item.points
                   else "sweeps are counted but score nothing")
            if item.previous_player_points:
                pts += f", {item.previous_player_points} to the player seated before the sweeper"
            if item.first_play_points is not None:   # (Ulmann's 2 for the first play's sweep: a re-attack's find)
                pts += (f"; {item.first_play_points} for a sweep of the whole first table by the hand's first "
                        f"play")
            if item.by_size:
                pts += " (" + "; ".join(f"{r.points} for {r.min_cards}" + (f"-{r.max_cards}" if r.max_cards else "+")
                                        + " cards" for r in item.by_size) + ")"
            lines.append(f"  {humanize(item.name)}: {pts}")
        elif item.count == "at_least":   # every side that reaches the number scores
            lines.append(f"  {humanize(item.name)}: {item.points} to each side with {what}")
        elif item.count == "last_capture":
            lines.append(f"  {humanize(item.name)}: {item.points} for the last capture of the hand")
        elif item.count == "primiera" and item.card_points:
            # (the points by rank, and a side lacking a suit: a player's audit found the short guide without them)
            by_points: dict[int, list[str]] = {}
            for rank, pts in item.card_points:
                by_points.setdefault(pts, []).append(rank)
            ranks = ", ".join(f"{'/'.join(rs)}: {pts}" for pts, rs in sorted(by_points.items(), reverse=True))
            lines.append(f"  {humanize(item.name)}: {item.points} for {what} ({ranks}"
                         + ("; a side without a card of every suit cannot win it)" if item.all_suits else ")"))
        elif item.count == "event" and (event := next((e for e in rules.scoring.events if e.name == item.event),
                                                        None)) is not None:
            # (what the event is: an audit read "oranges: 10 for each orange" with no word of what an orange is)
            lines.append(f"  {humanize(item.name)}: {item.points} for each capture that takes "
                         f"{event_words(rules, event.takes)} "
                         f"({'an' if item.event[:1] in 'aeiou' else 'a'} {humanize(item.event)}; not the taking of "
                         f"the cards left at the end)")
        else:
            lines.append(f"  {humanize(item.name)}: {item.points} for {what}")
        if item.sides:   # African Casino: scored only with some numbers of sides
            lines[-1] += f" (only with {' or '.join(map(str, item.sides))} sides)"
        if item.at_end and rules.scoring.when == "as_won" and item.points:
            # (as the rulebook says: a re-attack found Spade's `how` silent on when its cards count)
            g = rules.game
            lines[-1] += (" (counted when the hand is over, after the cards left on the table"
                          + ("; not added once a side has reached the target" if g.target is not None
                             and not g.play_out_hand and not g.claiming else "") + ")")
    return lines


def _first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def claiming(rules: Rules, target: int | None = None, sides: int | None = None) -> str:
    """What a claim is and what a false one costs, in this variant ("" where there is no claiming).

    A claim ends the game at once, right or wrong, so a player must read this before
    making one: `how`, `help` and the question `claim` asks all use these words.
    """
    if not rules.game.claiming:
        return ""
    target = rules.game.target if target is None else target
    goal = points(target) if target is not None else "the target"
    if sides == 2 or (sides is None and _two_sides(rules)):
        wrong = "your side loses the game"
    elif sides is None:
        wrong = "your side loses the game (at a table of more than two sides, nobody wins it)"
    else:
        wrong = "your side loses the game and nobody wins it"
    # (where points are pegged as won the scores line counts them: "nobody counts for you" was said beside it, a
    # player's audit)
    counted = ("the scores line counts it as the hand goes" if rules.scoring.when == "as_won"
               else "nobody counts for you")
    text = (f"claim: type claim to say that your side has reached {goal}, counting what it has won so far, "
            f"this hand included ({counted}); or type claim after your move on the same line (a move's number or "
            f"the move, then claim) to claim as soon as it is made, before the next player plays. The game ends at once: a correct claim "
            f"wins it, a false claim means {wrong}")
    if rules.game.both_reach == "next_target" and rules.game.target_step:
        text += (f"; if nobody claims and several sides reach the target, the target moves up by "
                 f"{rules.game.target_step}")
    return text + "."


def _two_sides(rules: Rules) -> bool:
    """Every table the variant allows has two sides (two players, or four as two teams always)."""
    s = rules.seats
    return s.max_players == 2 or (s.min_players == s.max_players == 4 and s.partnerships == "always")


#: Rules the summary's own lines do not word, each said in the rulebook's sentence where this game's differs from
#: standard Casino's, the game most players know (an audit found `how` silent on a house rule's misdeal, its
#: compulsory capture's hold on building, its court cards piled by rank and its sweeps' limits; and Ulmann's cards
#: played together split into sets, its main difference).
ALSO = ("deal.misdeal", "deal.dealer_takes_total", "capture.take_all", "capture.compulsory", "capture.hand_cards.combine", "build.valueless",
        "build.continue_as_begun", "sweeps.cancel", "sweeps.on_last_play", "sweeps.in_last_deal", "sweeps.residue_is_sweep",
        "sweeps.record_when_restricted")


@lru_cache(maxsize=1)
def _standard_book() -> Rulebook:
    from ...language.variants import load
    return rulebook(load("standard").rules)


def _said(book: Rulebook, keys: tuple[str, ...]) -> list[str]:
    """The rule sentences (no readings) of ``book`` whose key is one of ``keys`` or under one, in the book's order."""
    return [c.text for s in book.sections for c in s.clauses
            if ".reading" not in c.key and any(c.key == k or c.key.startswith(k + ".") for k in keys)]


def also_rules(rules: Rules, book: Rulebook | None = None) -> list[str]:
    """The rulebook's sentences for ``ALSO``'s rules where they are not standard Casino's."""
    book = rulebook(rules) if book is None else book
    usual = set(_said(_standard_book(), ALSO))
    if rules.capture.compulsory != "whenever_possible":   # (the trail line says the rest: a card that may not trail)
        usual |= set(_said(book, ("capture.compulsory",)))
    if never_emptied_by_the_last_play(rules):   # (the book says why no last card sweeps; no rule a player needs)
        usual |= set(_said(book, ("sweeps.on_last_play",)))
    return [text for text in _said(book, ALSO) if text not in usual]


def game_words(rules: Rules, book: Rulebook | None = None) -> str:
    """How the game is won, in the rulebook's words (the goal, the target, how a hand's points are added, a lurch,
    both sides past the target): a claim has a line of its own (``claiming``)."""
    said = [text for key, text in _section(rulebook(rules) if book is None else book, "game")
            if not key.startswith(("game.claiming", "game.play_out_hand"))]
    # (`how` has no section "the end of the game": its Endgame lines follow)
    return " ".join(said).replace("see the end of the game", "see Endgame below")


def _section(book: Rulebook, key: str) -> list[tuple[str, str]]:
    """The rule sentences (no readings) of ``book``'s section ``key``, each with its clause's key."""
    section = next((s for s in book.sections if s.key == key), None)
    return [(c.key, c.text) for c in (section.clauses if section else ()) if ".reading" not in c.key]


def endgame_words(rules: Rules, book: Rulebook | None = None) -> list[str]:
    """The endgame's rules in the rulebook's words: restrictions near the target, sweeps that stop scoring, what a
    tie lifts (a re-attack found `how` saying "scores only big_casino" and leaving the rest out)."""
    return [text for _, text in _section(rulebook(rules) if book is None else book, "endgame")]


def _partnerships(rules: Rules) -> str:
    """``; four or six may play in teams of two``, where the rules seat partners (a re-attack found
    Krypkasino's `how` silent on its six players in teams, which the rulebook gives)."""
    s = rules.seats
    if s.partnerships == "never" or not s.partnership_players:
        return ""
    size = "two" if s.team_size == 2 else "three"
    counts = " or ".join(COUNT_WORDS.get(n, str(n)) for n in s.partnership_players)
    if s.partnerships == "always":
        allowed = range(s.min_players, s.max_players + 1)
        if all(n in s.partnership_players for n in allowed):
            return f"; in teams of {size}"
        # (teams only at the counts that play them: a player's audit of two at Dominican read "in teams of two")
        return f"; {counts} play in teams of {size}"
    return f"; {counts} may play in teams of {size}"


def how_to_play(rules: Rules) -> str:
    """A short how-to-play for ``rules``, generated from its settings."""
    d, g = rules.deal, rules.game
    deal = f"{d.hand_size} cards each"
    if d.table_cards:
        deal += f" and {d.table_cards} face up on the table"
    elif not d.draw_after_play:
        deal += " and none to the table"   # (Scopone scientifico's difference from Scopone, a re-audit)
    if d.draw_after_play:
        deal += "; after each play you draw back up to that many from the stock"
    elif d.redeal == "when_hands_empty":
        left = left_undealt(rules)
        counts = range(rules.seats.min_players, rules.seats.max_players + 1)
        if not left:   # (Scopone, a re-attack: "9 more each until the stock runs out", with no stock)
            deal += "; the first deal gives out the whole pack"
        else:
            # (the hand ends with the stock: "(the hand)" read as cryptic, a player's audit)
            deal += f"; when every hand is empty, {d.hand_size} more each until the stock runs out, which ends the hand"
            if d.short_stock == "split_rest_to_table" and any(
                    cards % (n * d.for_players(n)[0]) for n, cards in left.items() if d.for_players(n)[0]):
                # (as the rulebook says: a re-attack found Krypkasino's `how` silent on its short last deals)
                deal += ("; a stock too short for full hands is dealt one card at a time, the cards left over "
                         "face up to the table")
            if len(left) < len(counts):
                whole = [str(n) for n in counts if n not in left]
                deal += f" (with {' or '.join(whole)} players the first deal gives out the whole pack)"
    else:   # (one deal: a re-attack found `how` silent on the cards it leaves)
        left = left_undealt(rules)
        deal += "; there is one deal" + (" (the cards it leaves are never played)" if left else "")
    others = [n for n in range(rules.seats.min_players, rules.seats.max_players + 1)
              if d.for_players(n) != (d.hand_size, d.table_cards)]
    for n in others:   # African Casino: deals that depend on the number of players
        hand_size, table_cards = d.for_players(n)
        deal += f"; with {n} players, {hand_size} each and {table_cards} on the table"
    book = rulebook(rules)
    goal = game_words(rules, book) or ("Each hand is a game: the higher score wins." if g.target is None else
                                       f"The first side to {points(g.target)} wins.")
    if rules.scoring.when == "as_won" and g.target is not None and not g.claiming:
        goal += " A game can end during a hand, once a side's points reach the target."
    # (with claiming, the Claim line says a game ends at a correct claim: a re-attack read "once a side's points
    # reach the target" in games that go on until someone claims)
    sweep_item = next((i for i in rules.scoring.items if i.count == "sweeps"), None)
    sweep = "sweep: a capture that takes every card from the table"
    scores = sweep_item is not None and bool(sweep_item.points or sweep_item.by_size)
    if scores and g.goal == "lowest":
        # (an audit read "it scores" of kasino misar's tabbe, a penalty there, with the reward to the player
        # before unsaid)
        sweep += " (its points count against the sweeper: avoid it)"
    else:
        sweep += " (it scores)" if scores else " (it scores nothing here)"
    if sweep_item is not None and sweep_item.previous_player_points:
        sweep += (f"; the player seated before the sweeper in the order of play scores "
                  f"{points(sweep_item.previous_player_points)} for it"
                  + (" (a reward: so leaving the next player a sweep pays)" if g.goal == "lowest"
                     and sweep_item.previous_player_points < 0 else ""))
    leftover = "at the end of the hand, cards still on the table go to the last player who captured"
    also = also_rules(rules, book)
    lines = [
        f"How to play {rules.name} ({players_text(rules)}{_partnerships(rules)}): {rules.description}",
        "Capture cards from the table with cards from your hand; captured cards score "
        + ("as they are won." if rules.scoring.when == "as_won" else "at the end of the hand."),
        f"Deal: {deal}.",
        *([f"Cards: {names}."] if (names := card_names(rules)) else []),
        f"Card values: {card_values(rules)}.",
        "On your turn play one card from your hand:" if rules.capture.hand_cards_max == 1 else "On your turn:",
        f"  {_trail(rules)};",
        f"  {_capture(rules)};",
        f"  {_build(rules)}.",
        ("Owner: the last player to add to a build owns it. " if rules.build.allowed else "")
        + f"{_first_upper(sweep)}.",
        f"{_first_upper(leftover)}.",
        *(["Also in this game:", *(f"  {text}" for text in also)] if also else []),
        "Points for a hand:",
        *_scoring(rules),
        f"Game: {goal}",
        "Type moves as in these examples (cards are rank then suit letter); `cassino explain` gives every setting:",
        examples_text(rules),
    ]
    claim = claiming(rules)
    if claim:
        lines.insert(-2, _first_upper(claim))
    for text in endgame_words(rules, book):
        lines.insert(-2, f"Endgame: {text}")
    return "\n".join(lines)

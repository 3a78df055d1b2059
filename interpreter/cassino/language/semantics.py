"""Checks a variant needs that a JSON Schema cannot state.

Each check reads the resolved, defaults-filled settings and reports, in the
same FILE:LINE:COL form as schema errors, a rule set that cannot be played:
a deal that needs more cards than the deck has, partnerships without four
seats, a build limit below the cards' values, a target nothing can reach.

:func:`warnings` reports, in the same form, rules that can be played but
probably not as their author means (a game that may never end): the file
loads, and ``cassino validate`` says it, failing only under ``--strict``.
"""

from __future__ import annotations

from typing import Any, Callable

from .cards import MAX_DECK_CARDS, CardError, Deck
from ..errors import Diagnostic
from .resolve import Resolved, settings_of
from .rules import Rules, ScoringItem
from .selectors import SelectorError, compile_selector
from .unread import unread, unread_item_key, unread_item_setting

Locate = Callable[..., Diagnostic]

#: The most cards a deal may put on the table. A position's legal moves are its table's
#: sets worth a value and their unions: at 24 loose cards of the lowest values the engine
#: has (three Spanish packs, hands of 10) the whole list takes a tenth of a second in plain
#: Python; at 40 it takes seconds and at 100 it would never end, so such a file is refused
#: here, where its author can fix it, rather than at a table. (Tables that grow by trailing
#: are bounded in play by the engine's move budget: ``Engine.move_budget``.)
MAX_TABLE_DEAL = 24


def check(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for checker in (_deck, _seats, _deal, _capture_build, _scoring, _game, _scopa_family, _nordic_sweeps,
                    _african):
        out.extend(checker(data, rules, locate))
    return out


def warnings(data: dict[str, Any], rules: Rules, locate: Locate, resolved: Resolved | None = None) -> list[Diagnostic]:
    """Rules that play but may not play as meant, each a ``severity="warning"`` diagnostic (with ``resolved``,
    the files read: settings an author's own file writes that its rules leave unread, too)."""
    return _endless(rules, locate) + _claims_lose(rules, locate) + _never_played(rules, locate) + _equal_in_one_group(
        rules, locate) + (
        _unread_settings(rules, resolved) if resolved is not None else [])


def left_undealt(rules: Rules) -> dict[int, int]:
    """The cards the first deal leaves in the stock, by number of players (where it leaves any)."""
    d = rules.deal
    n_cards = len(rules.deck.ranks) * len(rules.deck.suits) * rules.deck.packs
    out = {}
    for n in range(rules.seats.min_players, rules.seats.max_players + 1):
        hand_size, table_cards = d.for_players(n)
        if n_cards > table_cards + n * hand_size:
            out[n] = n_cards - table_cards - n * hand_size
    return out


def _never_played(rules: Rules, locate: Locate) -> list[Diagnostic]:
    """One deal (`deal.redeal: never`) with no drawing that leaves cards in the stock: they are never played (an
    audit's house rule played 12 of 52 cards a hand, with no word from `validate`)."""
    d = rules.deal
    left = left_undealt(rules) if d.redeal == "never" and not d.draw_after_play else {}
    if not left:
        return []
    n_cards = len(rules.deck.ranks) * len(rules.deck.suits) * rules.deck.packs
    counts = ", ".join(f"{cards} with {n} players" for n, cards in sorted(left.items()))
    return [locate(("deal", "redeal"), f"there is one deal (`deal.redeal: never`) and nobody draws, so cards of the "
                                       f"{n_cards} are never played: {counts}",
                   hint="deal again when the hands are empty (deal.redeal: when_hands_empty), draw after each play "
                        "(deal.draw_after_play: true), or deal more cards (deal.hand_size)",
                   severity="warning", or_at=(("deal",),))]


def _equal_in_one_group(rules: Rules, locate: Locate) -> list[Diagnostic]:
    """Every equal loose card taken together, one group a play: a card facing two equal loose cards (or a build of
    its value beside one) can take none of them (an audit of generated house rules: a Dominican game played with
    `several_groups: false`, where a 7 facing two loose 7s captured nothing)."""
    c = rules.capture
    if c.total is not None and c.equal_cards != "any":
        # (one set a play is a total's own rule: a check of drawn house rules found Escoba's 5 facing two kings
        # capturing nothing with `equal_cards: all`, and no word of it)
        return [locate(("capture", "equal_cards"),
                       f"captures by a total take one set a play, and every loose card that alone makes {c.total} "
                       f"with the card played is taken together (`equal_cards: {c.equal_cards}`): a card facing two "
                       f"such cards can take none of them"
                       + (", nor anything else" if c.equal_cards == "all" else " alone"),
                       hint="take such cards as you choose (capture.equal_cards: any)", severity="warning")]
    if c.several_groups or c.equal_cards == "any" or c.total is not None:
        return []
    return [locate(("capture", "several_groups"),
                   f"one group a play (`several_groups: false`) and every equal loose card taken together (`equal_cards: "
                   f"{c.equal_cards}`): a card facing two equal loose cards"
                   f"{', or a build of its value beside one,' if c.equal_cards == 'all' else ''} can capture none of "
                   f"them",
                   hint="let one play take several groups (capture.several_groups: true), or take equal cards as "
                        "you choose (capture.equal_cards: any)", severity="warning",
                   or_at=(("capture", "equal_cards"),))]


def _claims_lose(rules: Rules, locate: Locate) -> list[Diagnostic]:
    """Claiming where each hand is a game on its own: there is no target to claim, so every claim loses (a
    re-attack's find: valid, and a claim in a scenario lost the game)."""
    if not (rules.game.claiming and rules.game.target is None):
        return []
    return [locate(("game", "claiming"), "each hand is a game on its own (`game.target: null`), so there is no "
                                         "target to claim: every claim would lose the game",
                   hint="set claiming: false, or play to a target with game.target: N", severity="warning",
                   or_at=(("game", "target"),))]


def _unread_settings(rules: Rules, resolved: Resolved) -> list[Diagnostic]:
    """Each setting a house rule writes (an author's file that extends another) that the rules leave unread
    (``unread``): `build.max_value` on Scopa, which builds nothing; `ties` on a sweeps item. A whole rule file
    extending nothing may write every setting out, as the bundled ones do, and is not warned. Said only where
    the file writes it no earlier in the chain than the setting that leaves it unread: a parent house rule's
    build limit, left unread by its child's `build.allowed: false`, is the child's choice, not a mistake."""
    docs = resolved.documents
    shipped = resolved.shipped or (False,) * len(docs)
    rank = {id(doc): k for k, doc in enumerate(docs)}

    def writer(path: tuple[Any, ...]) -> int:   # (the file that gives ``path`` its value; past the chain: a default)
        found = resolved.origin.get(path)
        return rank.get(id(found[0]), len(docs)) if found is not None else len(docs)

    out: list[Diagnostic] = []
    items = {item.name: item for item in rules.scoring.items}
    for k, doc in enumerate(docs):
        if shipped[k] or "extends" not in doc.data:
            continue   # (a file that extends nothing may write every setting out, the unread ones too)
        for path in settings_of(doc.data):
            if writer(path) != k:
                continue   # (a file nearer the one asked for gives it another value: that file is looked at)
            dotted = ".".join(str(p) for p in path)
            if len(path) == 4 and path[:2] == ("scoring", "items") and str(path[2]) in items:
                item = items[str(path[2])]
                readers = unread_item_key(item.count, str(path[3]))
                if readers and k <= writer(path[:3] + ("count",)):
                    out.append(resolved.diagnostic(path, f"`{path[3]}` changes nothing in scoring item `{item.name}`: "
                                                         f"only {_counts(readers)} read it, and `{item.name}` "
                                                         f"counts `{item.count}`",
                                                   hint=f"remove {path[3]}, or set count: {readers[0]}",
                                                   severity="warning"))
                    continue
                why = unread_item_setting(rules, item.name, str(path[3]))
                if why is not None and k <= min(writer(tuple(g.split("."))) for g in why.because):
                    out.append(resolved.diagnostic(path, f"`{path[3]}` of scoring item `{item.name}` changes no move "
                                                         f"and no score here: {why.why}", hint=why.hint,
                                                   severity="warning"))
                continue
            why = unread(rules, dotted)
            if why is not None and k <= min(writer(tuple(g.split("."))) for g in why.because):
                out.append(resolved.diagnostic(path, f"`{dotted}` changes no move and no score here: {why.why}",
                                               hint=why.hint, severity="warning"))
    return out


def _counts(readers: tuple[str, ...]) -> str:
    said = [f"`count: {r}`" for r in readers]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def may_never_end(rules: Rules) -> bool:
    """Whether ``rules`` let every player trail every card of a game won by the lowest total, so that no
    one scores and the game never ends (:func:`_endless` says why; the rulebook warns its readers too)."""
    return rules.game.goal == "lowest" and rules.capture.compulsory == "never" and not rules.deal.dealer_takes_total


def _endless(rules: Rules, locate: Locate) -> list[Diagnostic]:
    """A game won by the lowest total where nothing makes a player capture may never end.

    Points are penalties there, so every capture costs; with `capture.compulsory: never` a
    player may trail any card at any turn, and players who all trail take nothing: no side
    scores, no one reaches the loss limit (and with no target, every hand is a tie for lowest,
    replayed). The soak found such a house rule (`hungarian-ulmann` made lowest-wins): its games
    ran to the move limit, the table grew past 40 cards. Not an error: people may play it and
    capture anyway. A dealer's take of the first table (`deal.dealer_takes_total`) scores
    without anyone choosing to, so those rules are left alone.
    """
    if not may_never_end(rules):
        return []
    return [locate(("capture", "compulsory"),
                   "the lowest total wins and nothing makes a player capture (`capture.compulsory: never`): "
                   "players who trail every card score nothing, so the game may never end",
                   hint="make capturing compulsory, e.g. capture.compulsory: when_card_can_capture "
                        "(a card that could capture may not be trailed), as kasino-misar does",
                   severity="warning", or_at=(("game", "goal"),))]


def _deck(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out = []
    seen: dict[str, int] = {}
    for i, r in enumerate(rules.deck.ranks):
        if r.rank == "T":
            out.append(locate(("deck", "ranks", i, "rank"), "rank `T` is reserved: card names read T as 10",
                              hint="write the ten as \"10\""))
        if r.rank in seen:
            out.append(locate(("deck", "ranks", i, "rank"), f"rank `{r.rank}` is given twice (first as ranks[{seen[r.rank]}])"))
        seen.setdefault(r.rank, i)
    letters: dict[str, int] = {}
    for i, s in enumerate(rules.deck.suits):
        if s.letter in letters:
            out.append(locate(("deck", "suits", i, "letter"), f"suit letter `{s.letter}` is given twice"))
        letters.setdefault(s.letter, i)
    if out:
        return out
    # Two packs (issue 27): the packs together stay within the engine's bound.
    one_pack = len(rules.deck.ranks) * len(rules.deck.suits)
    if rules.deck.packs * one_pack > MAX_DECK_CARDS:
        out.append(locate(("deck", "packs"),
                          f"{rules.deck.packs} packs of {one_pack} cards make {rules.deck.packs * one_pack}, "
                          f"more than the {MAX_DECK_CARDS} cards a game may have",
                          hint=f"use at most {max(MAX_DECK_CARDS // max(one_pack, 1), 1)} packs of this deck"))
        return out
    deck = Deck.from_rules(rules.deck)
    for i, cv in enumerate(rules.deck.card_values):
        try:
            deck.parse(cv.card)
        except CardError as e:
            out.append(locate(("deck", "card_values", i, "card"), str(e)))
    return out


def _seats(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    s = rules.seats
    out = []
    if s.min_players > s.max_players:
        out.append(locate(("seats", "min_players"), f"min_players {s.min_players} is more than max_players {s.max_players}",
                          hint=f"the fewest players first: min_players {min(s.min_players, s.max_players)}, max_players "
                               f"{max(s.min_players, s.max_players)}, or one count in both"))
    if s.partnerships == "always" and s.max_players < 4:
        out.append(locate(("seats", "partnerships"), f"partnerships need four seats, but max_players is {s.max_players}",
                          hint="set max_players: 4, or partnerships: never"))
    # Teams beyond four players (issue 27, Krypkasino): each count divides into two teams or more,
    # within the players allowed; building for a partner knows only four players' pairs.
    for k, n in enumerate(s.partnership_players if s.partnerships != "never" else ()):   # (unread there: a warning)
        if n % s.team_size or n // s.team_size < 2:
            out.append(locate(("seats", "partnership_players", k),
                              f"{n} players do not make two or more teams of {s.team_size}",
                              hint=f"list counts that divide by team_size {s.team_size}, e.g. {2 * s.team_size}"))
        elif not s.min_players <= n <= s.max_players and s.partnerships != "never" and s.partnership_players != (4,):
            inside = [m for m in s.partnership_players if s.min_players <= m <= s.max_players]
            if inside:
                hint = (f"list only the counts this variant is played by in partnership_players "
                        f"({', '.join(map(str, inside))}), or allow {n} players with min_players and max_players")
            else:   # (the list may not be empty, and no count under 4 makes two teams of two)
                hint = (f"no count of partnership_players is within {s.min_players} to {s.max_players} players: set "
                        f"partnerships: never (each plays for themselves), or allow {n} players with max_players")
            out.append(locate(("seats", "partnership_players", k),
                              f"{n} players play in partnerships, but the variant is for {s.min_players} to "
                              f"{s.max_players} players", hint=hint))
    if rules.build.for_partner and (s.team_size != 2 or any(n != 4 for n in s.partnership_players)) \
            and s.partnerships != "never":
        out.append(locate(("build", "for_partner"), "building for a partner is defined for four players in two "
                          "pairs only", hint="set partnership_players: [4] and team_size: 2, or for_partner: false"))
    return out


def _deal(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    d, s = rules.deal, rules.seats
    n_cards = len(rules.deck.ranks) * len(rules.deck.suits) * rules.deck.packs
    out = []
    rows = {n: i for i, (n, _, _) in enumerate(d.by_players)}
    # Every count that does not deal out, said together at its place (a validation audit's `max_players: 8` was told
    # of 5 players only, where 7 and 8 fail too, at `seats:` rather than at its `max_players`).
    uneven: dict[tuple[Any, ...], list[tuple[int, int, int]]] = {}
    for players in range(s.min_players, s.max_players + 1):
        hand_size, table_cards = d.for_players(players)
        # A count with a `by_players` row is reported at its row (African Casino).
        where: tuple[Any, ...] = ("deal", "by_players", rows[players]) if players in rows else ("deal", "hand_size")
        first = table_cards + players * hand_size
        if table_cards > MAX_TABLE_DEAL:
            at = ("deal", "by_players", rows[players]) if players in rows else ("deal", "table_cards")
            out.append(locate(at,
                              f"the deal puts {table_cards} cards on the table; a position's legal moves are listed in "
                              f"bounded time only for tables dealt up to {MAX_TABLE_DEAL} cards",
                              hint=f"deal at most {MAX_TABLE_DEAL} cards to the table"))
            break
        if first > n_cards:
            out.append(locate(where,
                              f"the first deal needs {first} cards for {players} players "
                              f"({table_cards} to the table and {hand_size} each) but the deck has {n_cards}",
                              # (lowering the most players helps only where fewer players can be dealt: a docs
                              # audit was told to lower seats.max_players of a deal too large for the fewest)
                              hint="deal fewer cards" if players == s.min_players
                              else f"deal fewer cards, or lower seats.max_players to {players - 1}"))
            break
        rest = n_cards - first
        per_deal = players * hand_size
        if d.short_stock == "exact" and d.redeal == "when_hands_empty" and not d.draw_after_play and rest % per_deal:
            uneven.setdefault(where, []).append((players, rest, per_deal))
    for where, counts in uneven.items():
        first_count, first_rest, first_deal = counts[0]
        said = f"{first_rest} cards remain after the first deal, not a multiple of {first_deal}"
        said += "".join(f"; with {n}, {rest} remain, not a multiple of {per}" for n, rest, per in counts[1:])
        hint = "set deal.short_stock: split_rest_to_table, or change hand_size or the player counts"
        if rows and where == ("deal", "hand_size"):
            # (a count with no row of `by_players`: a house rule's list of one row replaced its parent's rows,
            # the others' with them, which an African house rule's audit was not told)
            hint += (f"; or give {first_count} players a row of `deal.by_players` (a list in a house rule replaces "
                     f"its parent's whole list: give every row)")
        out.append(locate(where, f"with {first_count} players the deck does not deal out exactly: {said}",
                          hint=hint, or_at=(("seats", "max_players"), ("seats", "min_players"))))
    if d.packet > d.hand_size:
        out.append(locate(("deal", "packet"), f"packets of {d.packet} are larger than a hand of {d.hand_size}"))
    if rules.capture.hand_cards_max > d.hand_size:
        out.append(locate(("capture", "hand_cards", "max"),
                          f"up to {rules.capture.hand_cards_max} cards played together, but a hand holds {d.hand_size}"))
    return out


def _capture_build(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out = []
    b = rules.build
    deck = Deck.from_rules(rules.deck)
    # A limit below the highest card value is a rule, not a mistake: 003's "A build may not exceed
    # 10 points" in a deck whose court cards count (Royal's 11 to 13) leaves a card worth more
    # taking loose cards only, never a build. A limit below every card's value leaves no build at all.
    low = min((v for i in range(len(deck)) for v in deck.hand_values[i]), default=None)
    # A turn of several actions is the card from the hand and builds of cards in play: with no builds, each
    # turn would only wait for its `end` after the card (tests/test_explain_unused.py changes every build
    # setting where builds are not allowed: this one alone changed the games).
    if b.free_actions and not b.allowed:
        out.append(locate(("build", "free_actions"), "turns of several actions are made of builds, but builds "
                                                     "are not allowed (`build.allowed: false`)",
                          hint="set build.free_actions: false (a turn is its one card), or build.allowed: true",
                          or_at=(("build", "allowed"),)))
    if b.allowed and b.max_value is not None and low is not None and b.max_value < low:
        out.append(locate(("build", "max_value"),
                          f"build.max_value {b.max_value} is below every card's value (the lowest is {low}): "
                          f"no build could ever be made",
                          hint=f"set max_value to at least {low}, or build.allowed: false"))
    if b.valueless != "never" and all(deck.hand_values[i] for i in range(len(deck))):
        out.append(locate(("build", "valueless"), "builds of cards without a number value are allowed, "
                                                  "but every card in this deck has a value",
                          hint="set build.valueless: never"))
    if rules.capture.hand_cards_max > 1 and b.allowed:
        out.append(locate(("capture", "hand_cards", "max"),
                          "several hand cards played together is defined for captures only; "
                          "it cannot be combined with building",
                          hint="set build.allowed: false, or hand_cards.max: 1"))
    return out


def _scoring(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out = []
    deck = Deck.from_rules(rules.deck)
    events = {e.name for e in rules.scoring.events}
    for item in rules.scoring.items:
        where = ("scoring", "items", item.name)
        if item.count in ("most", "each", "at_least"):
            try:
                matches = compile_selector(item.cards, deck.view)
            except SelectorError as e:
                out.append(locate(where + ("cards",), str(e).split("\n")[0]))
            else:
                out += _at_least(item, sum(1 for card in deck.cards if matches(card)), locate)
        elif item.at_least is not None:
            out += _at_least(item, 0, locate)
        if item.count == "event" and item.event not in events:
            out.append(locate(where + ("event",), f"scoring item `{item.name}` counts event `{item.event}`, "
                                                  f"which `scoring.events` does not define",
                              hint=f"defined events: {', '.join(sorted(events)) or 'none'}"))
        seen: set[str] = set()
        for k, card in enumerate(item.order):
            # (a validation audit: `order: [AS, AS, AH, AD]` counted AS twice and AC never. A card the item does not
            # count never counts out, so it changes nothing: a house rule narrowing `cards` keeps its parent's order)
            try:
                parsed = deck.parse(card)
            except CardError as e:
                out.append(locate(where + ("order", k), str(e)))
                continue
            if str(parsed) in seen:
                out.append(locate(where + ("order", k), f"`{card}` is in the order of `{item.name}` twice",
                                  hint="name each card once"))
            seen.add(str(parsed))
    for ev in rules.scoring.events:
        for i, sel in enumerate(ev.takes):
            try:
                compile_selector(sel, deck.view)
            except SelectorError as e:
                out.append(locate(("scoring", "events", ev.name, "takes", i), str(e).split("\n")[0]))
    return out


def _at_least(item: ScoringItem, matching: int, locate: Locate) -> list[Diagnostic]:
    """`count: at_least` (issue 36): it needs its `at_least`, which no other count reads, and no more
    cards than the deck has matching `cards` (else no side could ever score it)."""
    where = ("scoring", "items", item.name)
    if item.count != "at_least":
        if item.at_least is None:
            return []
        return [locate(where + ("at_least",), f"at_least is read only by `count: at_least`, but `{item.name}` "
                                              f"counts `{item.count}`",
                       hint="remove at_least (at_least: null where a parent file sets it), or set count: at_least")]
    if item.at_least is None:
        return [locate(where + ("count",), f"scoring item `{item.name}` counts `at_least` but does not say how "
                                           f"many cards",
                       hint=f"add at_least: N, a whole number from 1 to {matching} (the cards matching "
                            f"`{item.cards}`)")]
    if item.at_least > matching:
        return [locate(where + ("at_least",), f"scoring item `{item.name}` needs at least {item.at_least} cards "
                                              f"matching `{item.cards}`, but the deck has {matching}: no side "
                                              f"could ever score it",
                       hint=f"set at_least to at most {matching}, or widen cards")]
    return []


def _game(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out = []
    g = rules.game
    names = {i.name for i in rules.scoring.items}
    for i, name in enumerate(g.count_out):
        if name not in names:
            out.append(locate(("game", "count_out", i), f"count_out names `{name}`, which is not a scoring item",
                              hint=f"scoring items: {', '.join(sorted(names))}"))
        elif name in g.count_out[:i]:
            # (a validation audit: `[cards, cards, spades]` counted the cards out twice, and changed who won)
            out.append(locate(("game", "count_out", i), f"count_out names `{name}` twice: each item counts out once",
                              hint=f"remove the second `{name}`"))
    scores = [r.score for r in rules.endgame.restrictions]
    for i, r in enumerate(rules.endgame.restrictions):
        if r.score in scores[:i]:
            out.append(locate(("endgame", "restrictions", i, "score"), f"two restrictions at {r.score}: a side "
                                                                       f"with that score would be under both",
                              hint="join their items in one restriction's `only`"))
        for j, name in enumerate(r.only):
            if name not in names:
                out.append(locate(("endgame", "restrictions", i, "only", j),
                                  f"restriction at {r.score} names `{name}`, which is not a scoring item",
                                  hint=f"scoring items: {', '.join(sorted(names))}"))
        if g.target is not None and r.score >= g.target:
            out.append(locate(("endgame", "restrictions", i, "score"),
                              f"a restriction at {r.score} can never apply: the game ends at {g.target}"))
    if g.score_mode == "difference":
        out.extend(_difference_needs_two_sides(rules, locate))
    out.extend(_negative_game(rules, locate))
    if g.both_reach == "count_out" and not g.count_out:
        out.append(locate(("game", "count_out"), "both_reach is count_out but count_out lists no items"))
    if g.target is not None and not any(i.points > 0 or any(s.points for s in i.by_size) for i in rules.scoring.items):
        out.append(locate(("scoring", "items"), f"the target {g.target} can never be reached: no scoring item scores points"))
    return out


def _negative_game(rules: Rules, locate: Locate) -> list[Diagnostic]:
    """Negative games (issue 27, Krypkasino): the settings that read a score as something to reach
    (claims, pegging, restrictions near the target, a lurch, count-outs) make no sense where the
    target is a loss limit; a previous player's share belongs to sweeps only."""
    out = []
    for item in rules.scoring.items:
        if item.previous_player_points and item.count != "sweeps":
            out.append(locate(("scoring", "items", item.name, "previous_player_points"),
                              f"previous_player_points is for sweeps, but `{item.name}` counts {item.count}",
                              hint="move it to the item with count: sweeps, or remove it"))
    g = rules.game
    if g.goal != "lowest":
        return out
    why = "with goal: lowest the target is a loss limit"
    if g.claiming:
        out.append(locate(("game", "claiming"), f"claiming cannot apply: {why}", hint="set claiming: false"))
    if rules.scoring.when == "as_won":
        out.append(locate(("scoring", "when"), f"points as won end a game at the target: {why}",
                          hint="use when: end_of_hand"))
    if g.both_reach != "higher_wins":
        out.append(locate(("game", "both_reach"), f"both_reach `{g.both_reach}` cannot apply: {why} and the lowest total wins",
                          hint="leave both_reach out"))
    if rules.endgame.restrictions:
        out.append(locate(("endgame", "restrictions"), f"restrictions near the target cannot apply: {why}"))
    if g.lurch.below is not None:
        out.append(locate(("game", "lurch", "below"), f"a lurch cannot apply: {why}", hint="set lurch.below: null"))
    return out


def _difference_needs_two_sides(rules: Rules, locate: Locate) -> list[Diagnostic]:
    """000 (Variations, Scoring): the side with more points scores the difference "in a two player
    game (or a 4-player game with partners)": with three or more sides there is no one difference,
    so every player count the file allows must seat exactly two sides."""
    s = rules.seats
    many = [n for n in range(s.min_players, s.max_players + 1)
            if (n // s.team_size if n in s.partnership_players and s.partnerships == "always" else n) > 2]
    if not many:
        return []
    counts = ", ".join(str(n) for n in many)
    alone = " (four may play without partners: seats.partnerships is optional)" if 4 in many and s.partnerships == "optional" else ""
    return [locate(("game", "score_mode"),
                   f"score_mode `difference` needs two sides, but this variant seats more than two with "
                   f"{counts} players{alone}",
                   hint="set seats.max_players: 2, or seats.min_players: 4 with partnerships: always; "
                        "or score_mode: cumulative")]


# ---------------------------------------------------------------- the Scopa family (issue 27)

def _scopa_family(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    """Capture by a fixed total, the misdeal, the dealer's initial sweep and primiera items."""
    out: list[Diagnostic] = []
    deck = Deck.from_rules(rules.deck)
    c, d = rules.capture, rules.deal
    if c.total is not None:
        where = ("capture", "total")
        if not all(deck.hand_values):
            out.append(locate(where, "captures by a total need every card to have a number value, "
                                     "but some ranks have `value: null`",
                              hint="give every rank a value, or set capture.total: null"))
        else:
            high = max(v for values in deck.hand_values for v in values)
            if high >= c.total:
                out.append(locate(where, f"capture.total {c.total} is not above the highest card value {high}: "
                                         f"such a card could never take anything",
                                  hint=f"set capture.total to at least {high + 1}"))
        if rules.build.allowed:
            out.append(locate(where, "captures by a total are defined without building",
                              hint="set build.allowed: false, or capture.total: null"))
        if c.several_groups:
            out.append(locate(("capture", "several_groups"), "captures by a total take one set a play",
                              hint="set capture.several_groups: false, or capture.total: null"))
        if c.hand_cards_max > 1:
            out.append(locate(where, "captures by a total are defined for one card played at a time",
                              hint="set capture.hand_cards.max: 1, or capture.total: null"))
    if d.dealer_takes_total and c.total is None:
        out.append(locate(("deal", "dealer_takes_total"), "the dealer takes a table that makes the capture total, "
                                                          "but capture.total is null",
                          hint="set capture.total (Escoba: 15), or dealer_takes_total: false"))
    if d.dealer_takes_total and d.table_cards == 0:
        out.append(locate(("deal", "dealer_takes_total"), "the dealer takes the initial table, but no card is dealt to it",
                          hint="set deal.table_cards above 0, or dealer_takes_total: false"))
    if d.misdeal_cards:
        where = ("deal", "misdeal")
        try:
            matching = sum(1 for card in deck.cards if compile_selector(d.misdeal_cards, deck.view)(card))
        except SelectorError as e:
            out.append(locate(where + ("cards",), str(e).split("\n")[0]))
        else:
            others = len(deck) - matching
            if d.misdeal_at_least > min(matching, d.table_cards):
                out.append(locate(where + ("at_least",),
                                  f"a misdeal needs {d.misdeal_at_least} matching cards on a table of {d.table_cards}, "
                                  f"from {matching} matching cards: it can never happen",
                                  hint=f"set at_least to at most {min(matching, d.table_cards)}"
                                  if min(matching, d.table_cards) >= 1 else
                                  'no misdeal can happen on this table: turn the rule off with '
                                  '`misdeal: {cards: ""}`'))
            elif others < d.table_cards - d.misdeal_at_least + 1:
                out.append(locate(where + ("at_least",),
                                  f"every initial table would be a misdeal: only {others} cards do not match "
                                  f"`{d.misdeal_cards}`", hint="raise at_least, or narrow misdeal.cards"))
    for item in rules.scoring.items:
        where = ("scoring", "items", item.name)
        if item.count != "primiera":
            if item.card_points:
                out.append(locate(where + ("card_points",), f"card_points is read only by `count: primiera`, "
                                                            f"but `{item.name}` counts `{item.count}`",
                                  hint="remove card_points, or set count: primiera (a house rule cannot drop the "
                                       "card_points its parent gives this item: give the item points: 0 and score "
                                       "the other count with an item of a new name)"))
            continue
        try:
            compile_selector(item.cards, deck.view)
        except SelectorError as e:
            out.append(locate(where + ("cards",), str(e).split("\n")[0]))
        if not item.card_points:
            out.append(locate(where + ("card_points",), f"primiera item `{item.name}` gives no rank any points",
                              hint='give card_points, e.g. {"7": 21, "6": 18, A: 16}'))
        for rank, _ in item.card_points:
            if rank not in deck.ranks:
                out.append(locate(where + ("card_points", rank), f"card_points names rank `{rank}`, which the deck does not have",
                                  hint=f"ranks: {', '.join(deck.ranks)}"))
    return out


# ---------------------------------------------------------------- the Nordic games (issue 27)

def _african(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    """African Casino (issue 27): deals by player count, capture piles in play, items by sides."""
    out = []
    d, s = rules.deal, rules.seats
    seen: dict[int, int] = {}
    for i, (n, hand_size, _) in enumerate(d.by_players):
        where = ("deal", "by_players", i)
        if n in seen:
            out.append(locate(where + ("players",), f"a deal for {n} players is given twice (first as by_players[{seen[n]}])"))
        seen.setdefault(n, i)
        if not s.min_players <= n <= s.max_players:
            out.append(locate(where + ("players",), f"a deal for {n} players, but the variant is for "
                                                    f"{s.min_players} to {s.max_players}",
                              hint="remove the row, or change seats.min_players/max_players"))
        if d.packet > hand_size:
            out.append(locate(where, f"packets of {d.packet} are larger than a hand of {hand_size} with {n} players"))
        if rules.capture.hand_cards_max > hand_size:
            out.append(locate(where, f"up to {rules.capture.hand_cards_max} cards played together, but a hand "
                                     f"holds {hand_size} with {n} players"))
    if d.by_players and d.draw_after_play:
        out.append(locate(("deal", "by_players"), "hand sizes by player count are defined for dealt hands, "
                                                  "not for drawing after each play",
                          hint="set draw_after_play: false, or remove by_players"))
    if rules.capture.from_piles != "none":
        if rules.capture.total is not None:
            out.append(locate(("capture", "from_piles"), "capture-pile tops in play are defined for captures by "
                                                         "value, not by a total",
                              hint="set capture.from_piles: none, or capture.total: null"))
        if d.dealer_takes_total:
            out.append(locate(("capture", "from_piles"), "capture-pile tops in play cannot be combined with the "
                                                         "dealer taking the initial table",
                              hint="set deal.dealer_takes_total: false"))
    if rules.capture.pile_cards != "taken" and rules.capture.from_piles == "none":
        # Said at the line of the file asked for, where it sets one of the two (a house rule that
        # takes the piles out of play under an inherited `pile_cards` is told at its own line).
        message = (f"capture.pile_cards is {rules.capture.pile_cards}, but no capture pile is in play "
                   f"(capture.from_piles: none)")
        hint = "set capture.pile_cards: taken, or capture.from_piles: opponents_top"
        home = locate(("name",), "").file   # (every file names itself: the file asked for)
        found = [locate(("capture", key), message, hint=hint) for key in ("pile_cards", "from_piles")]
        # A file that takes its parent's piles out of play leaves the parent's `pile_cards` unread, as any setting
        # of a rule it turns off: not refused (an African house rule's audit was refused, then told by the unread
        # settings' warning to remove the `pile_cards: taken` the refusal asked for, and so refused under --strict).
        inherited = found[0].file != home or ", inherited from " in found[0].message   # (pointed here from a parent)
        if not (inherited and found[1].file == home and ", inherited from " not in found[1].message):
            out.append(next((d for d in found if d.file == home), found[0]))
    counts = range(s.min_players, s.max_players + 1)
    # (each count of players alone or in teams, as the seats allow: four who always play in two teams are never four
    # sides, which an African house rule's audit found `sides: [4]` accepted for, an item no hand could score)
    possible = {n // s.team_size if rules.partnership(n, partners) else n for n in counts for partners in (False, True)}
    for item in rules.scoring.items:
        if not item.sides:
            continue
        where = ("scoring", "items", item.name, "sides")
        for j, n in enumerate(item.sides):
            if n not in possible:
                teams = [m for m in counts if rules.partnership(m, False)]   # (counts that always play in teams)
                out.append(locate(where + (j,), f"scoring item `{item.name}` is scored with {n} sides, but "
                                                f"{rules.name} never has {n} sides (it seats "
                                                f"{s.min_players} to {s.max_players} players"
                                                + "".join(f"; {m} always play in teams of {s.team_size}"
                                                          for m in teams) + ")",
                                  hint="list side counts the game can have, or remove `sides`"))
        if len(set(item.sides)) != len(item.sides):
            out.append(locate(where, f"scoring item `{item.name}` lists a number of sides twice"))
    return out


def _nordic_sweeps(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    """Finnish Kasino's sweep limits: each needs the setting it qualifies."""
    out = []
    if rules.endgame.sweeps_from_side == "any" and rules.endgame.sweeps_from is None:
        out.append(locate(("endgame", "sweeps_from_side"),
                          "sweeps_from_side is `any`, but endgame.sweeps_from is null: there is no score for it to read",
                          hint="set endgame.sweeps_from to a score, or sweeps_from_side: own"))
    d = rules.deal
    if not rules.sweeps.in_last_deal and d.redeal != "when_hands_empty" and not d.draw_after_play:
        out.append(locate(("sweeps", "in_last_deal"),
                          "in_last_deal is false, but the hand has only one deal: no sweep could ever count",
                          hint="set sweeps.in_last_deal: true, or deal.redeal: when_hands_empty"))
    return out

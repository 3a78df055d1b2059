"""What a finished hand scored, item by item and side by side, as plain values.

The terminal game prints it at the end of every hand, ``cassino replay --moves``
prints it in the replay, and the browser table will draw it from the same
values. Everything here is read from the game's public results (the
``HandResult`` a hand produced, the scores before and after it, the finished
hand's piles): this module never recomputes a point, so what it shows is what
the game counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from ...engine.moves import Move, MoveKind
from ...engine.notation import cards_text
from ...engine.state import Build, HandState, Sweep
from ...language.rulebook import humanize, join_words, points, selector_words
from ...language.selectors import compile_selector

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.game import Game
    from ...language.rules import Rules, ScoringItem
    from .records import Record


@dataclass(frozen=True)
class ItemScore:
    """One scoring item's outcome: what it counts, how many each side had, the points, and whether they counted."""

    name: str
    count: str                      # what kind of item: most, each, sweeps, event, last_capture
    what: str                       # in words: "most cards", "each ace", "sweeps", "the last capture"
    tally: dict[int, int]           # side -> cards matching (most, each), sweeps or events made
    points: dict[int, int]          # side -> points the item gives, before restrictions
    counted: dict[int, bool]        # side -> whether the points counted (False under an endgame restriction)

    @property
    def label(self) -> str:
        """The item's name as words (``big_casino`` -> ``big casino``), as the rulebook says it."""
        return humanize(self.name)


@dataclass(frozen=True)
class HandSummary:
    """The end of one hand, ready to draw."""

    hand_no: int
    seats: dict[int, tuple[int, ...]]   # side -> its seats
    items: tuple[ItemScore, ...]
    hand_points: dict[int, int]         # side -> points the hand gave it (restrictions applied)
    scores_before: dict[int, int]
    scores_after: dict[int, int]
    leftover: tuple[str, ...]           # cards left on the table at the end
    leftover_to: int | None             # the seat that took them (the last to capture)
    notes: tuple[str, ...]              # restrictions that applied, how points became scores
    target: int | None
    winner: int | None                  # side, when the hand decided the game
    ended_by: str
    #: The lowest total wins (``game.goal: lowest``): the target is a limit of penalty points, said so.
    lowest: bool = False


def side_name(seats: tuple[int, ...]) -> str:
    """``seat 1`` or ``seats 0+2``."""
    return "seats " + "+".join(map(str, seats)) if len(seats) > 1 else f"seat {seats[0]}"


def side_seats(teams: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    out: dict[int, list[int]] = {}
    for seat, side in enumerate(teams):
        out.setdefault(side, []).append(seat)
    return {side: tuple(seats) for side, seats in sorted(out.items())}


def item_words(item: "ScoringItem", rules: "Rules") -> str:
    """What an item scores for, in the rulebook's words for its cards (``selector_words``): "most spades",
    "each spade other than the 2♠", "the 10♦" (an audit saw a selector, ``suit=S and not 2S``, in the table)."""
    sel = selector_words(rules, item.cards) if item.count in ("most", "each", "at_least") else None
    singular, plural_ = sel if sel is not None else (f"card matching `{item.cards}`", f"cards matching `{item.cards}`")
    if item.count == "most":
        return f"most {plural_}"
    if item.count == "at_least":
        return f"at least {item.at_least} {singular if item.at_least == 1 else plural_}"
    if item.count == "each":
        if singular.startswith("the ") and rules.deck.packs > 1:
            # (two packs: "the 10♦" read as one card beside a count of 2, an audit; the rulebook's words)
            return f"each {singular[4:]} ({_count_word(rules.deck.packs)} in the packs)"
        return singular if singular.startswith("the ") else f"each {singular}"
    if item.count == "sweeps":
        if item.previous_player_points:
            # (a sweep's penalty to the player seated before the sweeper, Krypkasino's tabbe: the -5 had no reason)
            return f"sweeps ({item.previous_player_points:+d} to the player before the sweeper)"
        return "sweeps"
    if item.count == "event":
        return f"each {humanize(item.event)}"
    if item.count == "primiera":
        return "the best cards, one of each suit, by their primiera points"
    return "the last capture"


def _tally(game: "Game", item: "ScoringItem", finished: HandState) -> dict[int, int]:
    sides = finished.sides
    if item.count in ("most", "each", "at_least"):
        mask = game.engine.mask_of(compile_selector(item.cards, game.engine.deck.view))
        return {s: bin(finished.side_pile(s) & mask).count("1") for s in sides}
    if item.count == "sweeps":
        return {s: sum(1 for w in finished.sweeps if not w.cancelled and finished.teams[w.seat] == s) for s in sides}
    if item.count == "event":
        return {s: sum(1 for ev in finished.events if ev.name == item.event and finished.teams[ev.seat] == s)
                for s in sides}
    if item.count == "primiera":   # each side's total (0: it cannot compete)
        return {s: max(game.scorer.primiera_total(item, finished.side_pile(s)), 0) for s in sides}
    last = finished.last_capturer
    return {s: int(last is not None and finished.teams[last] == s) for s in sides}


def hand_summary(before: "Game", move: Move, after: "Game") -> HandSummary | None:
    """The summary of the hand ``move`` ended (``before`` and ``after`` are the games around it); None if it did not end one."""
    if len(after.results) <= len(before.results):
        return None
    finished = before.engine.apply(before.hand, move)
    result = after.results[-1]
    rules = before.rules
    seats = side_seats(finished.teams)
    scores_before = dict(enumerate(before.scores))
    items = []
    for item in rules.scoring.items:
        counted = {s: before.scorer.counts_for(item, scores_before[s], before.restrictions_on,
                                               max(scores_before.values(), default=0)) for s in seats}
        items.append(ItemScore(item.name, item.count, item_words(item, rules), _tally(before, item, finished),
                               dict(result.by_item.get(item.name, {})), counted))
    notes = []
    for s in seats:
        skipped = [i.label for i in items if not i.counted[s] and i.points.get(s)]
        if skipped:
            notes.append(f"{side_name(seats[s])} had {scores_before[s]}: "
                         f"{', '.join(skipped)} did not count for them (an endgame restriction)")
    if rules.game.score_mode == "difference" and len(seats) == 2:
        notes.append("only the side with more points scores, the difference")
    if result.counted_out and result.winner is not None:
        # (the hand's points beside a score that did not take them all: an audit's sums did not add up)
        counted = ", ".join(f"{side_name(seats[s])} {result.scores[s] - scores_before[s]}" for s in seats)
        notes.append(f"more than one side reached {before.target}: the points were counted out in the order "
                     f"{count_out_order(rules)}, and {side_name(seats[result.winner])} reached {before.target} "
                     f"first; what counted until then stands: {counted}")
    won_restricted = restricted_win_words(before, after, finished, seats)
    if won_restricted:
        notes.append(won_restricted)
    if result.target != before.target and result.target is not None:
        notes.append(f"the target moves to {result.target}")
    reached = [s for s in seats if before.target is not None and after.scores[s] >= before.target]
    if reached and not after.over and result.target == before.target:
        # (a player's audit saw a Krypkasino game tied at the limit go on to another hand without a word)
        limit = target_word(rules.game.goal == "lowest")
        who = " and ".join(side_name(seats[s]) for s in reached)
        notes.append(f"{who} reached the {limit} of {before.target}, but the game is not decided: another hand "
                     f"is played")
    if (not rules.sweeps.on_last_play and move.kind is MoveKind.CAPTURE and not finished.table
            and not finished.builds and not finished.residue):
        # (Scopa: the hand's last play emptying the table is no sweep; a player's audit saw the count stay and
        # nothing said why)
        notes.append("the hand's last play took every card on the table: that is no sweep here")
    cancelled = sum(1 for w in finished.sweeps if w.cancelled)
    if cancelled:
        # (three sides cancel one sweep of each: "one against one" was read at a table of three, an audit)
        notes.append(f"{cancelled} sweeps cancelled out, "
                     + ("one of each side's at a time" if len(seats) > 2 else "one against one"))
    leftover = tuple(cards_text(before.engine.deck, finished.residue))
    return HandSummary(
        hand_no=before.hand_no, seats=seats, items=tuple(items), hand_points=dict(result.points),
        scores_before=scores_before, scores_after=dict(enumerate(after.scores)),
        leftover=leftover, leftover_to=finished.last_capturer if leftover else None, notes=tuple(notes),
        target=result.target, winner=result.winner if after.over else None, ended_by=after.ended_by,
        lowest=after.rules.game.goal == "lowest")


def scores_something(item: "ScoringItem") -> bool:
    """Whether a scoring item can give any side a point in this game (Royal's sweeps score nothing: an audit read
    them in the order the points are counted out)."""
    return bool(item.points or item.first_play_points or item.previous_player_points
                or any(row.points for row in item.by_size) or item.count == "primiera")


def count_out_order(rules: "Rules") -> str:
    """The order ``game.count_out`` counts the points out in, as the rulebook names the items (``big casino``),
    the items that score nothing in this game left out."""
    items = {item.name: item for item in rules.scoring.items}
    names = [humanize(name) for name in rules.game.count_out if name not in items or scores_something(items[name])]
    return join_words(names) if names else "of the scoring items"


def restricted_win_words(before: "Game", after: "Game", finished: HandState,
                         seats: dict[int, tuple[int, ...]]) -> str:
    """Why a side under an endgame restriction won the game at the end of a hand that took another side to the
    target too (a player's audit read "21 (was 19) 21 (was 20)" and "seat 0 wins the game" with no reason): a
    restricted side reaching the target that way wins whatever the others score, and of several, the first to
    have met its condition in the play. "" where that is not how the game was won."""
    result = after.results[-1] if after.results else None
    target = before.target
    if result is None or result.winner is None or target is None or not before.restrictions_on:
        return ""
    scorer = before.scorer
    scores = dict(enumerate(before.scores))
    met = [s for s in seats if scorer.restriction(scores[s]) is not None and result.scores[s] >= target]
    winner = result.winner
    if winner not in met:
        return ""
    others = [s for s in seats if s != winner and result.scores[s] >= target]
    if not others:
        return ""
    r = scorer.restriction(scores[winner])
    only = join_words([humanize(name) for name in r.only]) if r is not None else ""
    name = side_name(seats[winner])
    said = (f"{name} began the hand with exactly {scores[winner]} points, so could score only {only}, and reached "
            f"{target} that way")
    rivals = [s for s in met if s != winner]
    if not rivals:
        return f"{said}: that wins the game whatever sides without a restriction score"
    who = join_words([side_name(seats[s]) for s in rivals])
    said += f"; {who}, under a restriction too, reached it as well"
    at = {s: scorer.criterion_met_at(finished, s, scorer.restriction(scores[s])) for s in met}  # type: ignore[arg-type]
    if all(at[winner] < at[s] for s in rivals):
        return f"{said}, but {name} was the first restricted side to meet its condition in the play, which wins"
    return f"{said}, meeting its condition at the same moment as {name}: the higher total wins"


def restriction_words(game: "Game", name_seat: Namer) -> list[str]:
    """The sides under an endgame restriction in the hand about to be played, each with what alone it may score
    in it, in the rulebook's words (``endgame.restrictions``; a player's audit of Dominican was never told a side
    was restricted). [] where none is."""
    seats = side_seats(game.hand.teams)
    said = []
    for side in sorted(game.restricted_sides()):
        if side not in seats:
            continue
        score = game.scores[side]
        r = game.scorer.restriction(score)
        if r is None:
            continue
        members = seats[side]
        who = name_seat(members[0]) if len(members) == 1 else side_name(members)
        only = join_words([humanize(name) for name in r.only])
        target = f"reaching {game.target}" if game.target is not None else "reaching the target"
        said.append(f"{who} {'have' if len(members) > 1 else 'has'} exactly {score} points at the start of this "
                    f"hand, so may score only {only} in it; {target} that way wins the game when the hand ends, "
                    f"whatever sides without a restriction score")
    return said


def outcome(game: "Game") -> str:
    """Where a game stands, in one phrase: who won and how, or whose turn it is."""
    seats = side_seats(game.hand.teams)
    if not game.over:
        return f"in progress (hand {game.hand_no}, seat {game.hand.turn} to play)"
    hands = len(game.results)
    after = f"over after {hands} hand{'s' if hands != 1 else ''}" if hands else "over"
    if game.hand_no > hands:   # (ended within a hand: pegged to the target, or a claim)
        after = f"over in hand {game.hand_no}"
    if game.winner is None:
        return f"{after}: no winner ({game.ended_by})"
    lurch = f", {lurch_words(game.games_won)}" if game.games_won > 1 else ""
    winners = side_name(seats[game.winner])
    how = how_ended(game.ended_by, game.rules.game.goal == "lowest", game.target)
    return f"{after}: {winners} {'win' if winners.startswith('seats ') else 'wins'} ({how}{lurch})"


def target_word(lowest: bool) -> str:
    """What a game's target is called: a ``limit`` of penalty points where the lowest total wins (as the rulebooks
    say it; a player's audit read "target 42" in Krypkasino), else a ``target``."""
    return "limit" if lowest else "target"


def how_ended(ended_by: str, lowest: bool, target: int | None) -> str:
    """How a game ended, as its winner's line says it: ``target``, ``count out`` ...; where the lowest total wins,
    the target is a limit of penalty points (a player's audit read "seat 1 wins (target)" of the side that did
    not reach it)."""
    if ended_by == "target" and lowest and target is not None:
        return f"the {target}-point limit reached, the lowest total wins"
    return ended_by


def lurch_words(games: int) -> str:
    """A win worth more than one game, in words: ``a lurch, a double game`` (``game.lurch.multiplier``: 2),
    ``a lurch, worth 3 games``."""
    worth = {2: "a double game", 3: "a triple game"}.get(games, f"worth {games} games")
    return f"a lurch, {worth}"


def unfinished_hand(game: "Game") -> dict[int, int] | None:
    """Where a game ended within a hand (pegged points reached the target, or a claim): what that hand added
    to each side's score (its final score less the hands before), which no hand's scoring shows; else None."""
    if not game.over or game.hand_no <= len(game.results):
        return None
    before = game.results[-1].scores if game.results else {}   # (the score after the hands before: what they gained)
    return {side: game.scores[side] - before.get(side, 0) for side in range(len(game.scores))}


def scores_text(game: "Game") -> str:
    seats = side_seats(game.hand.teams)
    return ", ".join(f"{side_name(seats[s])} {game.scores[s]}" for s in seats)


def replay_line(record: "Record", game: "Game") -> str:
    """One line for ``cassino replay``: the game, what was replayed, and how it stands."""
    claims = sum(1 for a in record.actions if a.startswith("claim "))
    moves = len(record.actions) - claims
    did = f"{moves} move{'s' if moves != 1 else ''}"
    if claims:
        did += f" and {claims} claim{'s' if claims != 1 else ''}"
    return (f"{record.rules.name}, seed {record.seed}, {record.players} players: {did} replayed; "
            f"game {outcome(game)}; scores: {scores_text(game)}")


def new_sweeps(before: "Game", move: Move) -> tuple[HandState, tuple[Sweep, ...]]:
    """The hand after ``move`` (before the next hand is dealt, where it ended one) and the sweeps the move recorded:
    a capture that emptied the table, and where the rules count it (``sweeps.residue_is_sweep``) the cards left at
    the hand's end taken by the last to capture (that sweep's ``ply`` is the one after the move's)."""
    finished = before.engine.play(before.hand, move)   # (a move as typed: with two packs, its copies found by name)
    return finished, finished.sweeps[len(before.hand.sweeps):]


def deal_began(game: "Game") -> tuple[HandState, tuple[HandState, Move] | None] | None:
    """The deal in play as it was dealt, before anyone played in it, and the move that ended the deal before it
    with the position it was played in (None in a hand's first deal); None where the game's log of the hand
    does not reach back to the deal (a game made at a position)."""
    hand = game.hand
    start = hand
    for position, move in reversed(game.moves_this_hand()):
        if position.deal_no != hand.deal_no:
            return start, (position, move)
        start = position
    return (start, None) if start.ply == 0 else None


@dataclass(frozen=True)
class LeftOver:
    """Cards a deal laid face up on the table because they were too few to give each player one
    (``deal.short_stock: split_rest_to_table``)."""

    count: int
    cards: int          # the cards, as a mask (0 where they cannot be told from the table's own: a hand's first deal)
    each: int           # the cards each player got in the deal
    full: bool          # whether that was a full hand (else the stock was dealt out evenly, one card at a time)


def left_over(game: "Game") -> LeftOver | None:
    """The cards the deal in play laid on the table beyond the table's own (none in a deal after the first), read
    from the positions before and after the deal; None where it laid none or the log cannot tell."""
    began = deal_began(game)
    if began is None:
        return None
    start, last = began
    full = game.rules.deal.for_players(start.players)[0]
    each = max((bin(h).count("1") for h in start.hands), default=0)
    if last is not None:
        stock = 0
        for card in last[0].stock:   # (the cards the deal came from: no card of anyone's hand, with two packs either)
            stock |= 1 << card
        cards = start.table & stock
        count = bin(cards).count("1")
    else:
        # (the table's own cards are dealt too, and those the dealer took at once, Escoba's 15s, with them)
        dealt = start.table
        for c in start.captures:
            if c.ply < 0:
                dealt |= c.cards
        cards = 0
        count = bin(dealt).count("1") - game.rules.deal.for_players(start.players)[1]
    return LeftOver(count, cards, each, each >= full) if count > 0 else None


#: How a front end names a seat (``seat 1 (greedy)``, ``seat 0 (you)``) or a side (``seat 1``, ``seats 0+2``)
#: in the words below: each names them its own way, the words are the same.
Namer = Callable[[int], str]


def sweep_words(before: "Game", move: Move, name_seat: Namer, name_side: Namer | None = None,
                finished: HandState | None = None) -> str:
    """What ``move`` swept, said with the move wherever it is shown (the terminal's report line, the browser's
    log): a capture that emptied the table, or the cards left at the hand's end counted as a sweep for the last
    to capture (``sweeps.residue_is_sweep``: a sweep nobody chose), each with what it scores here, to whom;
    where the lowest total wins, that it counts against the sweeper (a player's audit of kasino misar first
    learnt the tabbe's cost from the hand's scoring). "" for none.

    ``name_seat`` and ``name_side`` name seats and sides as the front end does (sides as :func:`side_name`
    where not given); ``finished``: the hand after the move where it is known already (as :func:`new_sweeps`
    works it out: before the next hand is dealt), else it is worked out here."""
    if finished is None:
        finished, made = new_sweeps(before, move)
    else:
        made = finished.sweeps[len(before.hand.sweeps):]
    seats = side_seats(finished.teams)
    sides: Namer = name_side or (lambda side: side_name(seats[side]))
    said = []
    for sweep in made:
        who = name_seat(sweep.seat)
        what = "a sweep" if sweep.ply == before.hand.ply else (
            f"the cards left on the table go to {who}, the last to capture, and count as a sweep")
        said.append(what + _sweep_worth(before, finished, sweep, name_seat, sides))
    said += event_words(before, finished, name_seat, sides)
    return "; ".join(said)


def event_words(before: "Game", finished: HandState, name_seat: Namer, name_side: Namer) -> list[str]:
    """The scoring events (``scoring.events``: Tuxedo's orange) the move from ``before`` to ``finished`` made, each
    with what it scores, to whom, as a sweep is said (a player's audit saw sweeps said and an orange never): ``an
    orange, 10 points to seat 0 (you)``; only events a scoring item counts (``count: event``)."""
    rules, scorer = before.rules, before.scorer
    scores = dict(enumerate(before.scores))
    top = max(scores.values(), default=0)
    lowest = rules.game.goal == "lowest"
    said = []
    for event in finished.events[len(before.hand.events):]:
        items = [item for item in rules.scoring.items if item.count == "event" and item.event == event.name]
        if not items:
            continue
        name = humanize(event.name)
        words = f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
        side = finished.teams[event.seat]
        worth = []
        for item in items:
            if not scorer.counts_for(item, scores[side], before.restrictions_on, top):
                worth.append(f"{humanize(item.name)} score nothing for {name_side(side)} at this score")
            elif item.points:
                worth.append(f"{_scored(item.points, lowest)} {name_seat(event.seat)}")
        said.append(f"{words}, {', '.join(worth)}" if worth else f"{words} (it scores nothing here)")
    return said


def _scored(worth: int, lowest: bool) -> str:
    """Points a sweep or an event scores, said before the seat they go to: ``1 point to``; where the lowest total
    wins, what it costs the side that made it, ``a penalty of 5 points against``."""
    return f"a penalty of {points(worth)} against" if lowest and worth > 0 else f"{points(worth)} to"


def _sweep_worth(before: "Game", finished: HandState, sweep: Sweep, name_seat: Namer, name_side: Namer) -> str:
    """What a sweep just made scores, in words after ``a sweep``: ``, 1 point to seat 1``; where the lowest total
    wins `` (tabbe), a penalty of 5 points against seat 0 (you); -5 to seat 1 (search), the player before``."""
    rules, scorer = before.rules, before.scorer
    if sweep.cancelled:
        others = "each other side's" if len(finished.sides) > 2 else "the other side's"
        return f", which cancels one of {others} (sweeps cancel one for one)"
    lowest = rules.game.goal == "lowest"
    scores = dict(enumerate(before.scores))
    top = max(scores.values(), default=0)
    said = []
    for item in rules.scoring.items:
        if item.count != "sweeps":
            continue
        side = finished.teams[sweep.seat]
        if not scorer.counts_for(item, scores[side], before.restrictions_on, top):
            said.append(f"{humanize(item.name)} score nothing for {name_side(side)} at this score")
            continue
        worth = scorer.sweep_points(item, sweep)
        if not worth and not item.previous_player_points:
            continue
        name = "" if item.name == "sweeps" else f" ({humanize(item.name)})"
        words = f"{name}, {_scored(worth, lowest)} {name_seat(sweep.seat)}"
        if item.previous_player_points:
            before_seat = scorer.previous_seat(sweep.seat, finished.players)
            words += f"; {item.previous_player_points:+d} to {name_seat(before_seat)}, the player before"
        said.append(words)
    if not said:
        return " (it scores nothing here)"
    return "; ".join(s if s.startswith((",", " (")) else f": {s}" for s in said)


def claim_words(before: "Game", after: "Game", seat: int, name_seat: Namer, name_side: Namer | None = None) -> str:
    """A claim as it is made, and whether it was right (a player's audit of Hungarian saw a computer's game end
    "seat 1 wins (claim)" with no claim said): ``seat 1 (greedy) claims to have reached 11 points: right, with
    12, and wins the game``; a false one, who wins by it."""
    seats = side_seats(before.hand.teams)
    sides: Namer = name_side or (lambda side: side_name(seats[side]))
    side = before.side_of(seat)
    goal = points(before.target) if before.target is not None else "the target"
    said = f"{name_seat(seat)} claims to have reached {goal}"
    has = after.scores[side] if side < len(after.scores) else None
    counted = f", with {has} counting this hand so far" if has is not None else ""
    if after.ended_by == "claim":
        return f"{said}: right{counted}, and {'win' if len(seats[side]) > 1 else 'wins'} the game"
    if after.winner is not None:
        winner = after.winner
        return f"{said}: a false claim{counted}, so {sides(winner)} {'win' if len(seats[winner]) > 1 else 'wins'} the game"
    return f"{said}: a false claim{counted}, which loses the game: nobody wins it"


def left_over_words(game: "Game") -> str | None:
    """The cards the deal in play laid face up on the table, too few to give each player one, in the rulebook's
    words (``deal.short_stock: split_rest_to_table``; :func:`left_over`): a player's audit of six at Krypkasino
    saw the last deal's four cards appear on the table with no word. None where it laid none."""
    left = left_over(game)
    if left is None:
        return None
    many = left.count != 1
    what = f"{left.count} card{'s' if many else ''}"
    named = f": {' '.join(cards_text(game.engine.deck, left.cards))}" if left.cards else ""
    if left.full:
        return (f"the last {what}, too few to give each player one, {'go' if many else 'goes'} face up to the "
                f"table with this deal{named}")
    each = f"{left.each} card{'s' if left.each != 1 else ''} each"
    return (f"the stock cannot give everyone a full hand: it is dealt out evenly, {each}, and the {what} "
            f"left over {'go' if many else 'goes'} face up to the table{named}")


def deal_words(game: "Game", name_seat: Namer) -> list[str]:
    """What the deal in play did as it was dealt that the table does not show, said at its start, before anyone
    plays in it: the cards it laid on the table, too few to give each player one (:func:`left_over_words`), and
    in a hand's first deal the cards the dealer took as they were dealt to the table (``deal.dealer_takes_total``:
    Escoba's table making 15; an audit had to infer them). [] where play in the deal has begun or the game's
    log does not reach back to the deal."""
    began = deal_began(game)
    h = game.hand
    if began is None or began[0] is not h:
        return []
    said = [words for words in [left_over_words(game)] if words]
    if began[1] is None:   # (a hand's first deal: the sides under an endgame restriction in this hand)
        said += restriction_words(game, name_seat)
    if h.ply:
        return said
    deck = game.engine.deck
    for c in h.captures:
        if c.ply < 0:
            sweeps = sum(1 for w in h.sweeps if w.seat == c.seat and w.ply < 0)
            swept = f", {sweeps} sweep{'s' if sweeps != 1 else ''}" if sweeps else ""
            total = game.rules.capture.total
            # two 15s are two sweeps, and said so (an audit read "made 15" of a table of 30)
            made = ("were taken" if total is None else f"made {total}" if sweeps <= 1
                    else f"made {total} twice" if sweeps == 2 else f"made {total} {sweeps} times")
            said.append(f"the cards dealt to the table {made}: the dealer, {name_seat(c.seat)}, took "
                        f"{' '.join(cards_text(deck, c.cards))}{swept}")
    return said


def builds_in_place(game: "Game") -> list[Build]:
    """The table's builds in the places a player has seen them take: each where it was first made, a build added
    to, raised or joined with others keeping the place of the first of those it was made from, a new build after
    the others. The hand's state lists a build that changes last (how its moves name builds), so shown in that
    order a raised build jumped to the end of the row (a player's audit lost track of them); the places are read
    off the hand's positions one after another (``Game.moves_this_hand``), the same after an undo or a resume,
    which replay the hand. A position given whole (``Game.at``, ``with_(hand=...)``) starts in the state's order."""
    positions = [position for position, _ in game.moves_this_hand()] + [game.hand]
    placed: list[Build] = []
    for h in positions:
        placed = _in_place([b.cards for b in placed], h.builds)
    return placed


def _in_place(before: list[int], builds: tuple[Build, ...]) -> list[Build]:
    """``builds`` in the places of ``before`` (the cards of each build shown a position earlier): a build takes the
    first place of any earlier build whose cards it holds (a build only grows until it is taken), a new one goes
    after them, in the state's order."""
    def place(k: int) -> tuple[int, int]:
        cards = builds[k].cards
        return next((i for i, earlier in enumerate(before) if earlier & cards), len(before)), k

    return [builds[k] for k in sorted(range(len(builds)), key=place)]


def pile_seat(h: HandState, side: int) -> int | None:
    """The seat a side's face-up capture pile is shown at, where piles are in play (African Casino):
    the seat whose captures hold its top card (with partners, the one who took it: its "taken" counts
    it), else the side's lowest seat; None where there are no piles or the side's is empty."""
    if not h.stacks or not h.stacks[side]:
        return None
    top = 1 << h.stacks[side][-1]
    members = [s for s, team in enumerate(h.teams) if team == side]
    return next((s for s in members if h.piles[s] & top), members[0])


def turns_of(log: Iterable[tuple[int, str]], several: bool) -> list[tuple[int, str]]:
    """A hand's actions (seat, action) as its turns (seat, text), as the table shows them. Where a turn may hold
    several actions (``several``: ``build.free_actions``) a turn is one entry, its actions joined by `; ` and its
    `end` left out (a player's audit read "last: end" beside every seat, and a history with an `end` line after
    most turns): an action continues the turn of the previous one when that was the same seat's and not `end`.
    A claim is an entry of its own."""
    actions = list(log)
    return [(seat, "; ".join(actions[k][1] for j, k in enumerate(places) if j == 0 or actions[k][1] != "end"))
            for seat, places in turn_places(actions, several)]


def turn_places(log: Iterable[tuple[int, str]], several: bool) -> list[tuple[int, list[int]]]:
    """:func:`turns_of`'s turns as (seat, the places in ``log`` of the actions the turn holds, the `end` left out
    of its text among them): what is said of an action (its sweeps) is said with its turn."""
    turns: list[tuple[int, list[int]]] = []
    previous: tuple[int, str] | None = None
    for k, (seat, action) in enumerate(log):
        if (several and previous is not None and previous[0] == seat and previous[1] != "end" and turns
                and not action.startswith("claim")):
            turns[-1][1].append(k)
        else:
            turns.append((seat, [k]))
        previous = (seat, action)
    return turns


def last_turns(log: Iterable[tuple[int, str]], several: bool) -> dict[int, str]:
    """Each seat's last turn in a hand's actions (seat, action), as :func:`turns_of` shows it."""
    return dict(turns_of(log, several))


def _count_word(n: int) -> str:
    return {2: "two", 3: "three", 4: "four"}.get(n, str(n))

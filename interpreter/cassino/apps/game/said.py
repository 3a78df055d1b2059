"""What is said as play happens, in the words every front end says it with.

A sweep with what it scores (and a scoring event, Tuxedo's orange, as a sweep is said), a claim and whether it
was right, what a deal did as it was dealt that the table does not show (cards laid on the table for being too
few to go round, the dealer's take at Escoba, the sides under an endgame restriction in a hand about to be
played): the terminal game says these beside its moves, ``cassino replay --moves`` beside the moves it lists, and
the browser table in its hand's log. Each front end names the seats its own way (a :data:`Namer`); the words are
the same. What a finished hand scored is :mod:`.summary`'s. As there, everything is read from the game's public
results and positions: nothing here recomputes a point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ...engine.moves import Move
from ...engine.notation import cards_text
from ...engine.state import HandState, Sweep
from ...language.rulebook import humanize, join_words, points
from .summary import side_name, side_seats, why_uncounted

if TYPE_CHECKING:  # pragma: no cover
    from ...engine.game import Game


#: How a front end names a seat (``seat 1 (greedy)``, ``seat 0 (you)``) or a side (``seat 1``, ``seats 0+2``)
#: in the words below: each names them its own way, the words are the same.
Namer = Callable[[int], str]


def new_sweeps(before: "Game", move: Move) -> tuple[HandState, tuple[Sweep, ...]]:
    """The hand after ``move`` (before the next hand is dealt, where it ended one) and the sweeps the move recorded:
    a capture that emptied the table, and where the rules count it (``sweeps.residue_is_sweep``) the cards left at
    the hand's end taken by the last to capture (that sweep's ``ply`` is the one after the move's)."""
    finished = before.engine.play(before.hand, move)   # (a move as typed: with two packs, its copies found by name)
    return finished, finished.sweeps[len(before.hand.sweeps):]


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
    lowest = rules.game.goal == "lowest"
    scores = dict(enumerate(before.scores))
    top = max(scores.values(), default=0)
    side = finished.teams[sweep.seat]
    swept = [item for item in rules.scoring.items if item.count == "sweeps"]
    uncounted = [item for item in swept if not scorer.counts_for(item, scores[side], before.restrictions_on, top)]
    if sweep.cancelled and len(uncounted) < len(swept):   # (cancelling one that scores nothing is not news: below)
        others = "each other side's" if len(finished.sides) > 2 else "the other side's"
        return f", which cancels one of {others} (sweeps cancel one for one)"
    if sweep.cancelled:
        swept = uncounted
    # (the points of a seat's sweep go to its side: "1 point to seat 2" in partnerships read as the seat's own)
    seats = side_seats(finished.teams)
    who = name_seat(sweep.seat) if len(seats[side]) == 1 else name_side(side)
    said = []
    for item in swept:
        if item in uncounted:
            # (why, where a score stopped sweeps: Finnish Kasino's "at this score" was said to a seat with 8)
            why, whose = why_uncounted(before, item, side, name_side)
            said.append(f"{humanize(item.name)} score nothing for {name_side(side)} at this score"
                        if why == "an endgame restriction" else f"{why} ({whose})" if whose else why)
            continue
        worth = scorer.sweep_points(item, sweep)
        if not worth and not item.previous_player_points:
            continue
        name = "" if item.name == "sweeps" else f" ({humanize(item.name)})"
        words = f"{name}, {_scored(worth, lowest)} {who}"
        if item.previous_player_points:
            before_seat = scorer.previous_seat(sweep.seat, finished.players)
            words += f"; {item.previous_player_points:+d} to {name_seat(before_seat)}, the player before"
        said.append(words)
    if not said:
        return " (it scores nothing here)"
    words = "; ".join(s if s.startswith((",", " (")) else f": {s}" for s in said)
    if rules.sweeps.cancel and len(uncounted) < len(swept):
        # (a teacher's audit of Dominican Casino read "a sweep, 1 point to seats 0+2" as a point banked, which the
        # other side's next sweep then took away)
        words += (" (until each other side has a sweep too, and they cancel)" if len(finished.sides) > 2
                  else " (until a sweep by the other side cancels it)")
    return words


def claim_words(before: "Game", after: "Game", seat: int, name_seat: Namer, name_side: Namer | None = None) -> str:
    """A claim as it is made, and whether it was right (a player's audit of Hungarian saw a computer's game end
    "seat 1 wins (claim)" with no claim said): ``seat 1 (greedy) claims to have reached 11 points: right, with
    12, and wins the game``; a false one, who wins by it. The claimant named, then :func:`claim_made` and
    :func:`claim_verdict`: where the claimant is named already (the browser's log line), those two alone."""
    return f"{name_seat(seat)} {claim_made(before)}: {claim_verdict(before, after, seat, name_side)}"


def claim_hinted(game: "Game") -> tuple[str, str]:
    """The words of a hint to claim (``GameSession.claim_hint``), the terminal's and the browser's alike: why a claim
    wins now, and what a hinted move does where a claim should follow it at once."""
    return (f"your side has reached {game.target} points, counting this hand's so far; a claim wins the game now",
            f"it takes your side to {game.target} points")


def claim_made(before: "Game") -> str:
    """What a claim made in ``before`` claims, said after the claimant's name: ``claims to have reached 11
    points``."""
    goal = points(before.target) if before.target is not None else "the target"
    return f"claims to have reached {goal}"


def claim_verdict(before: "Game", after: "Game", seat: int, name_side: Namer | None = None) -> str:
    """Whether ``seat``'s claim (from ``before`` to ``after``) was right, and who wins the game by it, said after
    the claim: ``right, with 12 counting this hand so far, and wins the game``; a false claim, the side that wins
    by it (named by ``name_side``, sides as :func:`side_name` where not given), or that nobody does."""
    seats = side_seats(before.hand.teams)
    sides: Namer = name_side or (lambda side: side_name(seats[side]))
    side = before.side_of(seat)
    has = after.scores[side] if side < len(after.scores) else None
    counted = f", with {has} counting this hand so far" if has is not None else ""
    if after.ended_by == "claim":
        return f"right{counted}, and {'win' if len(seats[side]) > 1 else 'wins'} the game"
    if after.winner is not None:
        winner = after.winner
        return f"a false claim{counted}, so {sides(winner)} {'win' if len(seats[winner]) > 1 else 'wins'} the game"
    return f"a false claim{counted}, which loses the game: nobody wins it"


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

"""What a finished hand scored, item by item and side by side, as plain values.

The terminal game prints it at the end of every hand, ``cassino replay --moves``
prints it in the replay, and the browser table will draw it from the same
values. Everything here is read from the game's public results (the
``HandResult`` a hand produced, the scores before and after it, the finished
hand's piles): this module never recomputes a point, so what it shows is what
the game counted.

What is said as play happens (a sweep, a claim, what a deal did) is :mod:`.said`'s; the names of the sides and
how a game stands are here, for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from ...engine.moves import Move, MoveKind
from ...engine.notation import cards_text
from ...engine.state import Build, HandState
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


def _primiera_notes(game: "Game", items: list[ItemScore], finished: HandState,
                    seats: dict[int, tuple[int, ...]]) -> list[str]:
    """Why a side's primiera total shows 0: it took no counted card of some suit, where every suit is needed
    (``all_suits``; a reader's audit read "[0]" beside the legend "each side's count for the item", nothing
    saying the side could not compete)."""
    out = []
    suit_names = {suit.letter: suit.name for suit in game.rules.deck.suits}
    for shown, item in zip(items, game.rules.scoring.items):
        if item.count != "primiera" or not item.all_suits:
            continue
        mask = game.engine.mask_of(compile_selector(item.cards, game.engine.deck.view))
        for s in seats:
            if shown.tally[s]:
                continue
            held = {card.suit for card in game.engine.deck.cards_of(finished.side_pile(s) & mask)}
            missing = [name for letter, name in suit_names.items() if letter not in held]
            if missing and len(missing) < len(suit_names):
                out.append(f"{side_name(seats[s])} took no {join_words(missing, 'or')} for {shown.label}, so could "
                           f"not compete for it (every suit is needed)")
    return out


def why_uncounted(before: "Game", item: ScoringItem, side: int, name_side: Callable[[int], str]) -> tuple[str, str]:
    """Why ``item`` scores nothing for ``side`` at ``before``'s scores (``Scorer.counts_for`` says it does not): the
    rule in words and, where another side's score decided it, whose (else ""). ``("an endgame restriction", "")``;
    where sweeps stop at a score, that rule (a player's audit read Finnish Kasino's "sweeps score nothing for seat 0
    at this score" of a seat with 8, the other side's 15 having stopped them): ``("sweeps score nothing once a side
    has 10 points", "seat 1 at 15")``."""
    scorer, endgame = before.scorer, before.rules.endgame
    scores = dict(enumerate(before.scores))
    r = scorer.restriction(scores[side]) if before.restrictions_on else None
    if (r is not None and item.name not in r.only) or item.count != "sweeps" or endgame.sweeps_from is None:
        return "an endgame restriction", ""
    what = humanize(item.name)
    if endgame.sweeps_from_side == "any":
        top = max(scores.values(), default=0)
        leader = min(s for s, n in scores.items() if n == top)
        return (f"{what} score nothing once a side has {points(endgame.sweeps_from)}",
                "" if leader == side else f"{name_side(leader)} at {top}")
    return f"{what} score nothing for a side with {points(endgame.sweeps_from)} or more", ""


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
        skipped = [(i.label, item) for i, item in zip(items, rules.scoring.items) if not i.counted[s] and i.points.get(s)]
        why = sorted({": ".join(w for w in why_uncounted(before, item, s, lambda side: side_name(seats[side])) if w)
                      for _, item in skipped})
        if skipped:
            # ("had 2 points before the hand": "had 2" read as two sweeps beside the table's count, a re-audit)
            notes.append(f"{side_name(seats[s])} had {points(scores_before[s])} before the hand: "
                         f"{', '.join(label for label, _ in skipped)} did not count for them ({'; '.join(why)})")
    unscored = [(i.label, item) for i, item in zip(items, rules.scoring.items)
                if item.sides and len(seats) not in item.sides]
    if unscored:
        # (South African Casino's most cards and most spades with three players: a player's audit read the most
        # cards scoring 0 as a mistake, the rulebook's reason said nowhere at the table)
        counts = " or ".join(str(n) for n in sorted({n for _, item in unscored for n in item.sides}))
        labels = join_words([label for label, _ in unscored])
        notes.append(f"{labels} {'scores' if len(unscored) == 1 else 'score'} only where {counts} sides play, "
                     f"not {len(seats)}")
    notes += _primiera_notes(before, items, finished, seats)
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
        # (and why, where a tie is why: a player's audit of Krypkasino with three saw 48, 18, 18 go on unexplained)
        lowest = rules.game.goal == "lowest"
        pool = list(seats) if lowest else reached
        best = (min if lowest else max)(after.scores[s] for s in pool)
        tied = [s for s in pool if after.scores[s] == best]
        why = (f": {join_words([side_name(seats[s]) for s in tied])} are tied "
               f"{'for the lowest total' if lowest else 'for the highest total'}, {best}") if len(tied) > 1 else ""
        notes.append(f"{who} reached the {limit} of {before.target}, but the game is not decided{why}: another hand "
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

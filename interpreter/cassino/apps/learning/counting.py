"""The counting aid: what a seat can know has been played and won in the hand, and what is still open.

Casino players who count remember which scoring cards and how many of each rank are
gone, and how the races for "most" items stand. This is that memory, from public
information only: the seat's own hand, the table, the builds and the capture piles
(every capture was seen, whether the piles lie face down or, in African Casino, face up),
the sweeps and events made. Items are the variant's own scoring items, so every rule file
gets its own count.

Where capture piles are in play (``capture.from_piles``, African Casino), a captured card is
not won for good until the hand ends: the other sides may still take it from the pile, top
down, so cards in piles count as held but can still change sides, and no "most" item (nor a
primiera, nor an "at least" item for a side still short of it) is decided while the hand is played.

"Still to win" is what each side could yet score in the hand at most, item by item: a
"most" item while the side can still pass the others with the cards not yet captured,
an "at least" item while the side has fewer than its number and can still reach it,
each uncaptured card of an "each" item, the last capture until the hand ends, an event
not yet made; sweeps stay open while cards are left (how many cannot be known), and an
item an endgame restriction keeps a side from scoring gives it nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ...engine.core import bits
from ...engine.game import Game
from ...engine.notation import cards_text
from ...language.rulebook import humanize
from ...language.rules import ScoringItem
from ...language.selectors import compile_selector
from ...players.knowledge import public_cards
from ..game.summary import side_name, side_seats


@dataclass(frozen=True)
class ScoringCard:
    """A card an "each" item scores, and where the seat knows it to be."""

    card: str
    item: str
    where: str            # "won by seat 0", "on the table", "in a build", "in your hand", "not seen yet"
    side: int | None      # the side that won it, when it is won


@dataclass(frozen=True)
class RankCount:
    """One rank: how many there are, how many are seen (played or on the table), in the seat's hand, unseen."""

    rank: str
    total: int
    seen: int
    in_hand: int
    unseen: int


@dataclass(frozen=True)
class ItemCount:
    """One scoring item: what each side has so far and what it can still give each side."""

    name: str
    count: str                    # most, each, at_least, sweeps, event, last_capture, primiera
    points: int
    held: dict[int, int]          # side -> cards (most, each, at_least), sweeps or events won so far
    left: int | None              # cards of the item not captured yet (most, each, at_least)
    decided_for: int | None       # a "most" item already out of the other sides' reach
    can_win: dict[int, int]       # side -> points the item can still give it at most (sweeps: 0, see ``open``)
    open: bool                    # the item can still change
    at_least: int | None = None   # an "at least" item's number: each side's count is shown against it
    #: (primiera) each side's best cards added up so far, and how many suits of how many they come from: a side
    #: without a card of every suit counts 0 where every suit is needed, which alone told an audit nothing
    partial: dict[int, tuple[int, int, int]] | None = None


@dataclass(frozen=True)
class Count:
    """The counting aid for one seat at one moment of a hand."""

    seat: int
    side: int
    sides: dict[int, tuple[int, ...]]     # side -> its seats
    scoring_cards: tuple[ScoringCard, ...]
    ranks: tuple[RankCount, ...]
    items: tuple[ItemCount, ...]
    still_to_win: dict[int, int]          # side -> points it can still score in this hand at most
    sweeps_open: bool                      # sweeps still score and cards are left to play
    penalties: bool = False                # the lowest total wins (``game.goal: lowest``): points are penalties
    #: Items that score an event each time it happens (Tuxedo's oranges), still open: no bound on what they give,
    #: said beside the sweeps (an audit found the first orange "decided" the item and the bound 10 too low)
    events_open: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("sides", "still_to_win"):
            out[key] = {str(k): v for k, v in out[key].items()}
        for item in out["items"]:
            for key in ("held", "can_win"):
                item[key] = {str(k): v for k, v in item[key].items()}
            if item["partial"] is not None:
                item["partial"] = {str(k): list(v) for k, v in item["partial"].items()}
        return out

    def text(self) -> str:
        name = {s: side_name(seats) for s, seats in self.sides.items()}
        lines = []
        if self.scoring_cards:
            # By item: a card two items score (Kasino misär's ace of spades, an ace and a spade) under each.
            by_item: dict[str, list[str]] = {}
            items_of: dict[str, set[str]] = {}
            for c in self.scoring_cards:
                by_item.setdefault(c.item, []).append(f"{c.card} {c.where}")
                items_of.setdefault(c.card, set()).add(c.item)
            shared = any(len(items) > 1 for items in items_of.values())
            lines.append("scoring cards: " + ("; ".join(f"{humanize(item)}: {', '.join(cards)}" for item, cards in by_item.items())
                                              if shared else "; ".join(f"{c.card} {c.where}" for c in self.scoring_cards)))
        lines.append("seen of each rank (of all): " + "  ".join(
            f"{r.rank} {r.seen}/{r.total}" + (f" +{r.in_hand} yours" if r.in_hand else "") for r in self.ranks))
        for item in self.items:
            held = ", ".join(f"{name[s]} {n}" + (f" of {item.at_least}" if item.at_least is not None else "")
                             for s, n in item.held.items())
            if item.count == "last_capture":   # (who made it so far: an audit read a blank "last capture:")
                last = [name[s] for s, n in item.held.items() if n]
                held = f"{last[0]} so far" if last else "no capture yet"
            if item.partial is not None:   # (primiera: the best cards so far, and the suits still missing)
                held = ", ".join(f"{name[s]} none yet" if not k else f"{name[s]} {total}" + (f" from {k} of {n} suits" if k < n else "")
                                 for s, (total, k, n) in item.partial.items())
            state = []
            if item.at_least is not None:
                reached = [name[s] for s, n in item.held.items() if n >= item.at_least]
                if reached:
                    state.append(f"reached by {' and '.join(reached)}")
            if item.partial is not None and any(item.held[s] == 0 and total for s, (total, _, _) in item.partial.items()):
                state.append("a side's cards count only once it has a card of every suit")
            if item.count == "last_capture" and item.open:
                state.append(f"{item.points} point{'s' if item.points != 1 else ''} to the side that captures last "
                             f"in the hand")
            if item.left is not None:
                state.append(f"{item.left} still to capture")
            if item.decided_for is not None:
                state.append(f"decided for {name[item.decided_for]}")
            elif not item.open:
                state.append("decided")
            # (the item's name in words, as the scoring table and `how` say it: an audit read `big_casino`)
            lines.append(f"{humanize(item.name)}: {held}" + (f" ({'; '.join(state)})" if state else ""))
        win = ", ".join(f"{name[s]} {p}" for s, p in self.still_to_win.items())
        points = "penalty points" if self.penalties else "points"
        # (of the points not decided yet: "seat 1 0 points" beside a primiera already decided for seat 1 read as if
        # seat 1 had nothing coming, a player's audit)
        lines.append(f"still to {'take' if self.penalties else 'win'} this hand at most, of what is not decided yet: "
                     f"{win} {points}"
                     + (", and sweeps" if self.sweeps_open else "")
                     + "".join(f", and {humanize(name)}" for name in self.events_open)
                     + (" (the lowest total wins)" if self.penalties else ""))
        return "\n".join(lines)


def _can_score(item: ScoringItem, sides: int) -> bool:
    """Whether ``item`` can give points at a table of ``sides`` sides at all."""
    if item.sides and sides not in item.sides:
        return False
    if item.count == "sweeps":
        return bool(item.points or item.by_size or item.first_play_points or item.previous_player_points)
    return item.points != 0


def _tie_points(item: ScoringItem, tied: int = 2) -> int:
    """What a side tied for a "most" item with ``tied`` sides in all gets at best (``ties``: nobody, split
    between them, rounded down, or each the whole): a side that can only draw level can still win that much, and
    no more (a second reading of the aid found a three-way split of Finnish Kasino's 2 points bounded at 1)."""
    return {"nobody": 0, "split": item.points // max(tied, 1), "each": item.points}.get(item.ties, 0)


def count_for(game: Game, seat: int) -> Count:
    """What ``seat`` can know of the hand in play (its own hand and the public cards only)."""
    engine, hand, scorer = game.engine, game.hand, game.scorer
    if not 0 <= seat < hand.players:
        raise ValueError(f"seat {seat} is not at this table (seats 0 to {hand.players - 1})")
    deck = engine.deck
    sides = hand.sides
    public = public_cards(hand)
    mine = hand.hands[seat]
    piles = {s: hand.side_pile(s) for s in sides}
    won = 0
    for p in piles.values():
        won |= p
    builds = 0
    for b in hand.builds:
        builds |= b.cards
    seats = side_seats(hand.teams)

    cards: list[ScoringCard] = []
    for item in engine.rules.scoring.items:
        if item.count != "each":
            continue
        # Copies of a card (two packs) side by side: "10D won by seat 0; 10D not seen yet".
        for i in sorted(range(engine.n_cards), key=lambda i: (i % deck.pack_size, i)):
            if not scorer.masks[item.name] >> i & 1:
                continue
            bit = 1 << i
            side = next((s for s in sides if piles[s] & bit), None)
            if side is not None:
                where = f"won by {side_name(seats[side])}"
            elif hand.table & bit:
                where = "on the table"
            elif builds & bit:
                where = "in a build"
            elif mine & bit:
                where = "in your hand"
            else:
                where = "not seen yet"
            cards.append(ScoringCard(cards_text(deck, bit)[0], item.name, where, side))

    ranks = []
    for r, rank in enumerate(deck.ranks):
        mask = engine.rank_mask[r]
        total, seen, in_hand = mask.bit_count(), (mask & public).bit_count(), (mask & mine).bit_count()
        ranks.append(RankCount(rank, total, seen, in_hand, total - seen - in_hand))

    playing = not hand.over
    # African Casino: while the hand is played, the cards of a side's pile may yet be taken by another.
    movable = bool(hand.stacks) and playing
    still = {s: 0 for s in sides}
    items = []
    sweeps_open = False
    events_open: list[str] = []
    for item in engine.rules.scoring.items:
        if not _can_score(item, len(sides)):
            continue   # (standard's sweeps item scores 0; South African's most spades only with two sides)
        # (the highest score too: Finnish Kasino's sweeps stop once any side has 10, which the aid left out and still
        # said "and sweeps", a players' re-audit)
        top = max(game.scores, default=0)
        allowed = {s: scorer.counts_for(item, game.scores[s], game.restrictions_on, top) for s in sides}
        left: int | None = None
        decided: int | None = None
        can = {s: 0 for s in sides}
        if item.count in ("most", "each"):
            mask = scorer.masks[item.name]
            held = {s: (piles[s] & mask).bit_count() for s in sides}
            left = (mask & ~won).bit_count()
            if movable:
                # Every card of the item may still go to any side: the uncaptured, and the other sides' piles.
                gain = {s: left + sum(held[o] for o in sides if o != s) for s in sides}
                if item.count == "each":
                    can = {s: gain[s] * item.points for s in sides}
                else:
                    can = {s: item.points if held[s] + gain[s] > 0 else 0 for s in sides}
                is_open = any(gain.values())
            elif item.count == "each":
                can = {s: left * item.points for s in sides}
                is_open = left > 0
            else:
                for s in sides:
                    best_other = max((held[o] for o in sides if o != s), default=0)
                    if held[s] > best_other + left:
                        decided = s
                    if held[s] + left > best_other:
                        can[s] = item.points
                    elif held[s] + left == best_other and held[s] + left > 0:
                        # at best a tie with the others at that count now (they keep what they hold): what the
                        # item's ties give so many
                        tied = 1 + sum(1 for o in sides if o != s and held[o] == best_other)
                        can[s] = _tie_points(item, tied)
                is_open = decided is None and left > 0
        elif item.count == "at_least":
            # Each side against the number on its own: a side below it while the cards not yet
            # captured could bring it there can still score; one at it has scored (both may).
            mask = scorer.masks[item.name]
            held = {s: (piles[s] & mask).bit_count() for s in sides}
            left = (mask & ~won).bit_count()
            need = item.at_least if item.at_least is not None else 1
            # (where piles' cards may still change sides, a side may take the others' too)
            gain = {s: left + (sum(held[o] for o in sides if o != s) if movable else 0) for s in sides}
            can = {s: item.points if held[s] < need <= held[s] + gain[s] else 0 for s in sides}
            is_open = playing and (movable or any(can.values()))
        elif item.count == "sweeps":
            held = {s: sum(1 for w in hand.sweeps if not w.cancelled and hand.teams[w.seat] == s) for s in sides}
            # (not in a last deal whose table emptied is no sweep, ``sweeps.in_last_deal: false``: a second reading of
            # the aid found Finnish Kasino's sweeps open there)
            is_open = playing and (engine.rules.sweeps.in_last_deal or bool(hand.stock))
            # (open where a sweep can still score: for a side the endgame lets score it, and not in a last deal whose
            # table emptied is no sweep, ``sweeps.in_last_deal: false``)
            sweeps_open = sweeps_open or (playing and bool(item.points or item.by_size or item.first_play_points)
                                          and any(allowed.values())
                                          and (engine.rules.sweeps.in_last_deal or bool(hand.stock)))
        elif item.count == "primiera":
            # Each side's total so far, and the most it could reach with every counted card
            # not captured yet (its best card of a suit can still be beaten until then).
            mask = scorer.masks[item.name]
            left = (mask & ~won).bit_count()
            free = mask & ~won
            held = {s: max(0, scorer.primiera_total(item, piles[s])) for s in sides}
            counted_suits = [suit for suit in scorer.suit_masks if mask & suit]
            partial = {}
            for s in sides:
                best = [max((scorer.card_points[item.name][c] for c in bits(piles[s] & mask & suit)), default=-1)
                        for suit in counted_suits]
                partial[s] = (sum(b for b in best if b >= 0), sum(1 for b in best if b >= 0), len(counted_suits))
            # Where piles' cards may still change sides (``capture.from_piles``), a side may yet take the
            # others' counted cards too, and lose its own: nothing is decided while the hand is played.
            taken = mask & won if movable else 0
            reach = {s: scorer.primiera_total(item, piles[s] | free | taken) for s in sides}
            now = {s: scorer.primiera_total(item, piles[s]) if not movable else -1 for s in sides}
            for s in sides:
                others = [o for o in sides if o != s]
                best_now = max((now[o] for o in others), default=-1)
                if not movable and now[s] >= 0 and all(now[s] > reach[o] for o in others):
                    decided = s
                if reach[s] > best_now:
                    can[s] = item.points
                elif reach[s] == best_now and reach[s] >= 0:
                    can[s] = _tie_points(item, 1 + sum(1 for o in others if now[o] == best_now))
            is_open = playing and decided is None and (left > 0 or movable)
        elif item.count == "event":
            # Each time the event happens it scores (Tuxedo's oranges: "10 for each orange capture"), so the item
            # stays open while cards are to be played, with no bound of its own (said as "and oranges").
            held = {s: sum(1 for e in hand.events if e.name == item.event and hand.teams[e.seat] == s) for s in sides}
            # (until no card of one of the event's kinds is left to take: a second reading of the aid found Tuxedo's
            # oranges open with every red card captured)
            event = next((e for e in engine.rules.scoring.events if e.name == item.event), None)
            is_open = playing and (event is None or movable or all(
                engine.mask_of(compile_selector(kind, deck.view)) & ~won for kind in event.takes))
            if is_open and item.points:
                events_open.append(item.name)
        else:   # last_capture
            held = {s: int(hand.last_capturer is not None and hand.teams[hand.last_capturer] == s) for s in sides}
            is_open = playing
            can = {s: item.points if playing else 0 for s in sides}
        can = {s: (v if allowed[s] and is_open else 0) for s, v in can.items()}
        for s in sides:
            still[s] += can[s]
        items.append(ItemCount(item.name, item.count, item.points, held, left, decided, can, is_open, item.at_least,
                               partial if item.count == "primiera" else None))
    return Count(seat, hand.teams[seat], dict(seats), tuple(cards), tuple(ranks), tuple(items), still, sweeps_open,
                 engine.rules.game.goal == "lowest", tuple(events_open))

"""Points for a hand and what they do to the game, read from the variant's scoring items.

Nothing here knows a variant: items say what they count (most cards matching a
selector, each matching card, at least so many matching cards, sweeps, capture
events, the last capture), with
points and a tie rule; the endgame restrictions and the target rules say what
the points do to the scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import EllipsisType

from .core import Engine
from ..language.rules import Restriction, Rules, ScoringItem
from ..language.selectors import compile_selector
from .state import HandState, Sweep


@dataclass(frozen=True)
class HandResult:
    """What a hand scored and where it leaves the game."""

    points: dict[int, int]            # side -> points scored this hand (after restrictions)
    by_item: dict[str, dict[int, int]]  # item -> side -> points before restrictions
    scores: dict[int, int]            # side -> game score after the hand
    winner: int | None                # side that has won the game, if any
    target: int | None                # the target in force after the hand
    sweeps: dict[int, int] = field(default_factory=dict)  # side -> sweeps not cancelled
    plies: int = 0                    # moves in the hand
    counted_out: bool = False         # several sides passed the target and the points were counted out


class Scorer:
    """Scoring for one variant; precomputes each item's card mask."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.rules: Rules = engine.rules
        self.masks: dict[str, int] = {}
        #: For `primiera` items: each card's points (0 for a card not counted) and the suits' masks.
        self.card_points: dict[str, list[int]] = {}
        self.suit_masks: list[int] = []
        for item in self.rules.scoring.items:
            if item.count in ("most", "each", "at_least", "primiera"):
                self.masks[item.name] = engine.mask_of(compile_selector(item.cards, engine.deck.view))
            if item.count == "primiera":
                table = dict(item.card_points)
                mask = self.masks[item.name]
                self.card_points[item.name] = [
                    table.get(card.rank, 0) if mask >> i & 1 else 0 for i, card in enumerate(engine.deck.cards)]
        deck = engine.deck
        #: The endgame restriction of each score that has one (the first listed, as ``restriction`` reads them).
        self._restrictions: dict[int, Restriction] = {}
        for r in self.rules.endgame.restrictions:
            self._restrictions.setdefault(r.score, r)
        #: What ``counts_for`` says of each item (in ``rules.scoring.items``' order) for a score, the highest
        #: score and whether restrictions are on: the same few questions at the end of every hand.
        self._counting: dict[tuple[int, int | None, bool], tuple[bool, ...]] = {}
        self.suit_masks = [0] * len(deck.suits)
        for i, card in enumerate(deck.cards):
            self.suit_masks[deck.suits.index(card.suit)] |= 1 << i

    @classmethod
    def of(cls, engine: Engine) -> "Scorer":
        """The engine's scorer, made at its first game and shared by every later one: it depends on
        the rules alone (what it remembers as it goes, ``counting``, is the rules' answer too), and
        working out its masks took a third of a random standard hand played through ``Game``."""
        scorer = engine.derived.get("scorer")
        if not isinstance(scorer, Scorer):
            scorer = cls(engine)
            engine.derived["scorer"] = scorer
        return scorer

    # ---------------------------------------------------------------- one item
    def item_points(self, item: ScoringItem, state: HandState) -> dict[int, int]:
        sides = state.sides
        out = {s: 0 for s in sides}
        if item.sides and len(sides) not in item.sides:
            return out   # scored only with other numbers of sides (South African Casino)
        if item.count == "each":
            for s in sides:
                out[s] = (state.side_pile(s) & self.masks[item.name]).bit_count() * item.points
        elif item.count == "most":
            counts = {s: (state.side_pile(s) & self.masks[item.name]).bit_count() for s in sides}
            if max(counts.values()) > 0:
                _award_most(item, counts, out)
        elif item.count == "at_least":
            # Every side with enough matching cards scores (pagat's South African Casino: five spades).
            need = item.at_least or 1
            for s in sides:
                if (state.side_pile(s) & self.masks[item.name]).bit_count() >= need:
                    out[s] = item.points
        elif item.count == "sweeps":
            for w in state.sweeps:
                if not w.cancelled:
                    out[state.teams[w.seat]] += self.sweep_points(item, w)
                    if item.previous_player_points:
                        out[state.teams[self.previous_seat(w.seat, state.players)]] += item.previous_player_points
        elif item.count == "event":
            for ev in state.events:
                if ev.name == item.event:
                    out[state.teams[ev.seat]] += item.points
        elif item.count == "last_capture" and state.last_capturer is not None:
            out[state.teams[state.last_capturer]] += item.points
        elif item.count == "primiera":
            totals = {s: self.primiera_total(item, state.side_pile(s)) for s in sides}
            if max(totals.values()) >= 0:
                _award_most(item, totals, out)
        return out

    def primiera_total(self, item: ScoringItem, pile: int) -> int:
        """A pile's primiera: its best counted card of each suit by the item's points, added up;
        -1 when it cannot compete (a suit missing where every suit is needed, or no card)."""
        points = self.card_points[item.name]
        mask = self.masks[item.name]
        total = 0
        found = False
        for suit in self.suit_masks:
            cards = pile & mask & suit
            if not cards:
                if item.all_suits and mask & suit:
                    return -1
                continue
            found = True
            best = 0
            while cards:
                low = cards & -cards
                best = max(best, points[low.bit_length() - 1])
                cards ^= low
            total += best
        return total if found else -1

    def previous_seat(self, seat: int, players: int) -> int:
        """The seat that plays just before ``seat`` (a sweep's previous player, Krypkasino's tabbe)."""
        return (seat + 1) % players if self.engine.ccw else (seat - 1) % players

    @staticmethod
    def sweep_points(item: ScoringItem, sweep: Sweep) -> int:
        if sweep.first_play and item.first_play_points is not None:
            return item.first_play_points
        for row in item.by_size:
            if sweep.size >= row.min_cards and (row.max_cards is None or sweep.size <= row.max_cards):
                return row.points
        return item.points

    # ---------------------------------------------------------------- a hand
    def restriction(self, score: int) -> Restriction | None:
        return self._restrictions.get(score)

    def counts_for(self, item: ScoringItem, score: int, restrictions_on: bool, top: int | None = None) -> bool:
        """Whether a side with ``score`` may score ``item`` (endgame restrictions, sweeps from a score).

        ``top``: the highest score of any side, which ``sweeps_from`` reads instead of the
        side's own where ``endgame.sweeps_from_side`` is `any` (left out: the side's own)."""
        if not restrictions_on:
            return True
        r = self.restriction(score)
        if r is not None and item.name not in r.only:
            return False
        sweeps_from = self.rules.endgame.sweeps_from
        if self.rules.endgame.sweeps_from_side == "any" and top is not None:
            score = max(score, top)
        return not (item.count == "sweeps" and sweeps_from is not None and score >= sweeps_from)

    @staticmethod
    def _top(scores: dict[int, int]) -> int:
        return max(scores.values(), default=0)

    def hand_points(self, state: HandState, scores: dict[int, int] | None = None,
                    restrictions_on: bool = True) -> tuple[dict[int, int], dict[str, dict[int, int]]]:
        """Points per side for the hand, restricted sides scoring only their allowed items."""
        scores = scores or {}
        items = self.rules.scoring.items
        by_item = {item.name: self.item_points(item, state) for item in items}
        points = {s: 0 for s in state.sides}
        top = self._top(scores)
        for s in state.sides:
            total = 0
            for item, counts in zip(items, self.counting(scores.get(s, 0), restrictions_on, top)):
                if counts:
                    total += by_item[item.name][s]
            points[s] = total
        return points, by_item

    def counting(self, score: int, restrictions_on: bool = True, top: int | None = None) -> tuple[bool, ...]:
        """``counts_for`` of each scoring item, in order, for a side with ``score`` (remembered)."""
        key = (score, top, restrictions_on)
        flags = self._counting.get(key)
        if flags is None:
            flags = tuple(self.counts_for(item, score, restrictions_on, top) for item in self.rules.scoring.items)
            self._counting[key] = flags
        return flags

    def points_so_far(self, state: HandState, scores: dict[int, int] | None = None,
                      restrictions_on: bool = True) -> dict[int, int]:
        """Points pegged so far (pegging, claims): every card and sweep as won; `most` once no
        other side can catch up; `at_least` once the side holds enough cards; the last capture only once the hand is over; items counted
        only at the end (``at_end``) never, even in a finished hand, since they are scored
        with the hand (Spade Cassino's cards wait for the end of the hand)."""
        scores = scores or {}
        out = {s: 0 for s in state.sides}
        placed = 0
        for pile in state.piles:
            placed |= pile
        top = self._top(scores)
        counting = {s: self.counting(scores.get(s, 0), restrictions_on, top) for s in state.sides}
        for k, item in enumerate(self.rules.scoring.items):
            if item.at_end or (item.count == "last_capture" and not state.over):
                continue
            if item.count == "primiera" and not state.over:
                continue   # a best card can still be beaten until the hand is over
            if item.count == "most" and not state.over:
                won = self._most_secured(item, state, placed)
            else:
                won = self.item_points(item, state)
            for s in state.sides:
                if counting[s][k]:
                    out[s] += won[s]
        return out

    def _most_secured(self, item: ScoringItem, state: HandState, placed: int) -> dict[int, int]:
        """A `most` item's points for a side that holds more than any other could still reach."""
        mask = self.masks[item.name]
        held = {s: (state.side_pile(s) & mask).bit_count() for s in state.sides}
        if item.sides and len(state.sides) not in item.sides:
            return {s: 0 for s in state.sides}
        unknown = (mask & ~placed).bit_count()
        return {s: item.points if held[s] and all(held[s] > held[o] + unknown for o in state.sides if o != s)
                else 0 for s in state.sides}

    def result(self, state: HandState, scores: dict[int, int] | None = None,
               target: "int | None | EllipsisType" = ..., restrictions_on: bool = True) -> HandResult:
        """Score the (finished) hand and decide the game as the variant says.

        ``target``: the target in force (it moves in claiming games); left out, the variant's.
        ``None`` means each hand is a game on its own.
        """
        result = self._result(state, scores, target, restrictions_on)
        sweeps = {s: sum(1 for w in state.sweeps if not w.cancelled and state.teams[w.seat] == s) for s in state.sides}
        return replace(result, sweeps=sweeps, plies=state.ply)

    def _result(self, state: HandState, scores: dict[int, int] | None = None,
               target: "int | None | EllipsisType" = ..., restrictions_on: bool = True) -> HandResult:
        g = self.rules.game
        scores = {s: (scores or {}).get(s, 0) for s in state.sides}
        if target is ...:
            target = g.target
        points, by_item = self.hand_points(state, scores, restrictions_on)
        if g.score_mode == "difference" and len(points) == 2:
            a, b = state.sides
            diff = points[a] - points[b]
            gained = {a: max(diff, 0), b: max(-diff, 0)}
        else:
            gained = dict(points)
        after = {s: scores[s] + gained[s] for s in state.sides}
        if g.goal == "lowest":
            return self._lowest_result(points, by_item, after, target)
        if target is None:
            # Each hand a game on its own: the hand's points decide, not totals carried in (a scenario case may
            # give scores before the hand; play never does: an audit found them deciding the winner)
            best = max(gained.values())
            leaders = [s for s in gained if gained[s] == best]
            return HandResult(points, by_item, after, leaders[0] if len(leaders) == 1 else None, target)
        # Endgame restrictions: a restricted side that reaches the target wins outright;
        # with several, the first to meet its criterion in play order. Several meeting theirs at the same
        # moment (the cards left at the end settling both) are several sides reaching the target in one deal
        # (002: "the higher wins; a tie for most points, further deals without restrictions"): the higher
        # total of those wins (an audit found seat 0 always named); equal totals leave it to every side that
        # reached the target, as below (an unrestricted side past them wins; a tie for the most, nobody).
        if restrictions_on and self.rules.endgame.restrictions:
            met = [s for s in state.sides if self.restriction(scores[s]) is not None and after[s] >= target]
            if met:
                at = {s: self.criterion_met_at(state, s, self.restriction(scores[s])) for s in met}  # type: ignore[arg-type]
                first = min(at.values())
                together = [s for s in met if at[s] == first]
                best = max(after[s] for s in together)
                leaders = [s for s in together if after[s] == best]
                if len(leaders) == 1:
                    return HandResult(points, by_item, after, leaders[0], target)
        reached = [s for s in state.sides if after[s] >= target]
        if not reached:
            return HandResult(points, by_item, after, None, target)
        if len(reached) == 1:
            return HandResult(points, by_item, after, reached[0], target)
        if g.both_reach == "count_out":
            winner, counted = self.count_out(state, scores, target, by_item, reached)
            return HandResult(points, by_item, counted, winner, target, counted_out=True)
        if g.both_reach == "next_target":
            return HandResult(points, by_item, after, None, target + g.target_step)
        best = max(after[s] for s in reached)
        leaders = [s for s in reached if after[s] == best]
        return HandResult(points, by_item, after, leaders[0] if len(leaders) == 1 else None, target)

    @staticmethod
    def _lowest_result(points: dict[int, int], by_item: dict[str, dict[int, int]], after: dict[int, int],
                       target: int | None) -> HandResult:
        """A negative game: once some side is at or past the loss limit (every hand, with no
        limit) the lowest total wins; a tie for lowest decides nothing and another hand is played."""
        if target is not None and max(after.values()) < target:
            return HandResult(points, by_item, after, None, target)
        best = min(after.values())
        leaders = [s for s in after if after[s] == best]
        return HandResult(points, by_item, after, leaders[0] if len(leaders) == 1 else None, target)

    def count_out(self, state: HandState, scores: dict[int, int], target: int,
                  by_item: dict[str, dict[int, int]],
                  contenders: list[int] | None = None) -> tuple[int | None, dict[int, int]]:
        """Count points out in the variant's order; the first side to reach the target wins.

        Returns the winner (None when the count decides nothing) and the totals as counted:
        the winner's at the moment it went out, or, undecided, every item counted with the
        sweeps as `count_out_sweeps` says. Those totals stand (each below the target) and
        the next hand decides the game by the same rules.
        """
        running = dict(scores)
        engine = self.engine
        for name in self.rules.game.count_out:
            item = self.rules.scoring.item(name)
            if item is None:
                continue
            if item.count == "each" and item.order:
                if item.sides and len(state.sides) not in item.sides:
                    continue
                for text in item.order:
                    for i in engine.deck.copies(engine.deck.parse(text)):   # each copy (deck.packs)
                        bit = 1 << i
                        if not bit & self.masks[name]:
                            continue
                        for s in state.sides:
                            if state.side_pile(s) & bit:
                                running[s] += item.points
                                if running[s] >= target:
                                    return s, running
                continue
            awards = dict(by_item[name])
            if item.count == "sweeps" and self.rules.game.count_out_sweeps == "more_wins":
                # The side past the target with more sweeps wins, however far it is short.
                pool = contenders or list(state.sides)
                lead = self._sweep_lead({s: awards[s] for s in pool})
                ahead = [s for s in pool if lead[s] > 0]
                if ahead:
                    running[ahead[0]] += lead[ahead[0]]
                    return ahead[0], running
                continue
            if item.count == "sweeps":
                awards = self._sweep_lead(awards)
            # An item counts for every side at once: a point shared 1-1 (Swazi Casino's tie for most cards)
            # that takes two sides to the target together names neither first, whatever their seats. The
            # count decides nothing; the totals stand as counted before that item, below the target, and
            # another hand is played (001: "if that does not decide, another deal"; our reading).
            before = dict(running)
            for s in state.sides:
                running[s] += awards[s]
            out = [s for s in state.sides if running[s] >= target]
            if len(out) == 1:
                return out[0], running
            if out:
                return None, before
        return None, running

    @staticmethod
    def _sweep_lead(awards: dict[int, int]) -> dict[int, int]:
        """Only the difference in sweeps counts out: the side with most scores its lead over the next."""
        out = {}
        for s, v in awards.items():
            others = [w for o, w in awards.items() if o != s]
            out[s] = max(v - max(others, default=0), 0)
        return out

    def criterion_met_at(self, state: HandState, side: int, r: Restriction) -> int:
        """The ply at which ``side`` had secured all of ``r``'s items (for two restricted sides)."""
        last = -1
        for name in r.only:
            item = self.rules.scoring.item(name)
            if item is None:
                continue
            last = max(last, self._secured_at(state, side, item))
        return last

    def _secured_at(self, state: HandState, side: int, item: ScoringItem) -> int:
        mask = self.masks.get(item.name, 0)
        total = mask.bit_count()
        held = {s: 0 for s in state.sides}
        for cap in state.captures:
            s = state.teams[cap.seat]
            held[s] += (cap.cards & mask).bit_count()
            if item.count == "each" and s == side and held[side] == (state.side_pile(side) & mask).bit_count():
                return cap.ply
            if item.count == "at_least" and s == side and held[side] >= (item.at_least or 1):
                return cap.ply
            if item.count == "most":
                unknown = total - sum(held.values())
                if all(held[side] > held[o] + unknown for o in state.sides if o != side):
                    return cap.ply
        return 10 ** 6


def _award_most(item: ScoringItem, counts: dict[int, int], out: dict[int, int]) -> None:
    """The item's points to the side with the highest count; a tie as the item's ``ties`` says."""
    best = max(counts.values())
    leaders = [s for s in counts if counts[s] == best]
    if len(leaders) == 1:
        out[leaders[0]] = item.points
    elif item.ties == "split":
        for s in leaders:
            out[s] = item.points // len(leaders)
    elif item.ties == "each":
        for s in leaders:
            out[s] = item.points

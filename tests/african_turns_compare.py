"""Whole turns of African Casino against a second implementation written from the rule texts alone
(``african_turns_reference``, which imports nothing of ``cassino``).

``african_compare`` holds the engine's single actions with a hand card (and a discard beside one build of
cards in play) against ``african_reference``. A turn is more (``build.free_actions``): any number of builds
of cards in play, before and after the one card from the hand, then the turn's end. Compared here is what a
whole turn can leave: for the engine, every sequence of its legal moves from the turn's start until the turn
passes, each reduced to its result (the mover's hand, the layout, the builds, how many cards each pile keeps,
what the mover's side captured); for the reference, its own list of results. The two sets must be equal,
but for the readings a variant file declares (:data:`DECLARED`).

Shared by ``tests/test_african_whole_turns.py`` (a fixed-seed slice in CI) and
``benchmarks/african_compare.py --whole-turns``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import african_turns_reference
from african_compare import SEATINGS, _values, position

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.notation import cards_text
from cassino.engine.state import HandState
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules

#: (hand left, layout, builds (cards, value, owner, compound), cards left on each pile, cards captured)
Outcome = tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[tuple[str, ...], int, int, bool], ...],
                tuple[int, ...], tuple[str, ...]]

#: Positions with more cards in play than this (layout and opposing pile tops in reach) are left out: both
#: sides enumerate every turn.
MAX_IN_PLAY = 8
#: The turn starts compared by default (cards in play), and the heavier tables compared apart (``--heavy``):
#: 9 to 12 cards in play, reached with discards preferred four times in five.
LIGHT = range(0, MAX_IN_PLAY + 1)
HEAVY = range(MAX_IN_PLAY + 1, 13)
HEAVY_TRAIL_BIAS = 0.8
#: A turn whose sequences reach more distinct positions than this is left out (counted as too large).
MAX_NODES = 20_000


class _TooLarge(Exception):
    pass


def result(engine: Engine, start: HandState, after: HandState) -> Outcome:
    """What the turn from ``start`` to ``after`` (the next seat's turn) left, as the reference writes it."""
    seat = start.turn
    own_side = start.teams[seat]
    names: Callable[[int], tuple[str, ...]] = lambda mask: tuple(sorted(cards_text(engine.deck, mask)))  # noqa: E731
    left = []
    for side, stack in enumerate(start.stacks):
        now = after.stacks[side]
        assert side == own_side or now == stack[:len(now)], "a pile lost a card other than its top"
        left.append(len(stack) if side == own_side else len(now))
    builds = tuple(sorted((names(b.cards), int(b.value), b.holder, b.multiple) for b in after.builds))
    return (names(after.hands[seat]), names(after.table), builds, tuple(left),
            names(after.side_pile(own_side) & ~start.side_pile(own_side)))


def engine_whole_turns(engine: Engine, start: HandState) -> set[Outcome]:
    """Every result of a whole turn from ``start`` (a turn's start), by walking the engine's legal moves
    until the turn passes to the next seat. ``start`` must leave another seat holding cards, so that the
    turn's end is not the deal's (whose scoring and next deal are no part of a turn)."""
    seat = start.turn
    memo: dict[HandState, frozenset[Outcome]] = {}

    def walk(state: HandState) -> frozenset[Outcome]:
        seen = memo.get(state)
        if seen is not None:
            return seen
        if len(memo) >= MAX_NODES:
            raise _TooLarge
        found: set[Outcome] = set()
        for move in engine.legal_moves(state):
            after = engine.apply(state, move)
            if after.turn == seat and not after.over:
                found |= walk(after)
            else:
                found.add(result(engine, start, after))
        memo[state] = frozenset(found)
        return memo[state]

    return set(walk(start))


def engine_one_action_turns(engine: Engine, start: HandState) -> set[Outcome]:
    """The results of the turns that play the hand's card and end: no build of cards in play beside it."""
    out: set[Outcome] = set()
    for move in engine.legal_moves(start):
        if not move.played:
            continue
        after = engine.apply(start, move)
        if after.turn == start.turn and not after.over:
            ends = [m for m in engine.legal_moves(after) if not m.played and m.kind is MoveKind.END]
            if not ends:
                continue
            after = engine.apply(after, ends[0])
        out.add(result(engine, start, after))
    return out


def comparable(engine: Engine, hand: HandState, in_play: range = LIGHT) -> bool:
    """A turn's start whose whole turns both sides can list: not half played, another seat holds cards
    (the turn's end is not the deal's), as many cards in play as ``in_play`` says."""
    seat = hand.turn
    return (not hand.turn_card and not hand.over and any(h for s, h in enumerate(hand.hands) if s != seat)
            and hand.in_play().bit_count() in in_play)


def positions(variant: str, players: int, partners: bool, seed: int,
              trail_bias: float, in_play: range = LIGHT) -> Iterator[tuple[Engine, int, HandState]]:
    """The turn starts of one random game (random legal moves, seeded; a discard chosen first with
    probability ``trail_bias``, so that layouts grow) with as many cards in play as ``in_play`` says, with
    their ply."""
    engine = Engine(load_rules(variant))
    game = Game.new(engine, seed, players, partners)
    rnd = random.Random(f"turns/{seed}")
    ply = 0
    while not game.over:
        if comparable(engine, game.hand, in_play):
            yield engine, ply, game.hand
        moves = game.playable_moves()
        trails = [m for m in moves if m.kind.value == "trail"]
        pick = trails if trails and rnd.random() < trail_bias else moves
        game = game.play(pick[rnd.randrange(len(pick))])
        ply += 1


@dataclass(frozen=True)
class Difference:
    variant: str
    players: int
    partners: bool
    seed: int
    ply: int
    outcome: Outcome
    engine_says: bool              # True: the engine reaches it and the reference does not
    position: dict[str, Any] = field(compare=False, hash=False)
    #: Every result the other side reaches at the same position (where a difference's twin is looked for).
    others: frozenset[Outcome] = field(default=frozenset(), compare=False, hash=False)

    def __str__(self) -> str:
        who = "engine only" if self.engine_says else "reference only"
        hand, table, builds, piles, captured = self.outcome
        p = self.position
        return (f"{who}: hand {list(hand)} layout {list(table)} builds {[list(b) for b in builds]} piles {list(piles)} "
                f"captured {list(captured)}   [{self.variant} {self.players}p{' partners' if self.partners else ''} "
                f"seed {self.seed} ply {self.ply}] from: hand {p['hand']} table {p['table']} builds "
                f"{[(b['cards'], b['value'], b['owner'], b['compound']) for b in p['builds']]} piles "
                f"{[(q['seats'], q['cards'][-4:]) for q in p['piles']]} first_round {p['first_round']} "
                f"declared {p['partner_declared']} seat {p['seat']}")


def _keeps(d: Difference, hand: tuple[str, ...], value: int) -> bool:
    return any(value in _values(c, d.variant) for c in hand)


def _owners_only(d: Difference) -> list[tuple[int, int, int]]:
    """Where ``d``'s result and a result only the other side reaches differ in the owners of builds alone:
    (value, owner here, owner there) of each such build (the first twin found); [] where no twin is."""
    hand, table, builds, piles, captured = d.outcome
    for twin in d.others:
        if twin[:2] != (hand, table) or twin[3:] != (piles, captured) or len(twin[2]) != len(builds):
            continue
        mine = {(b[0], b[1], b[3]): b[2] for b in builds}
        theirs = {(b[0], b[1], b[3]): b[2] for b in twin[2]}
        if mine.keys() == theirs.keys():
            return [(key[1], mine[key], theirs[key]) for key in mine if mine[key] != theirs[key]]
    return []


def _taken_over_by_adding(d: Difference) -> bool:
    """The same turn, but the engine makes the mover the owner of a build made or added to for the partner's
    proven value while the mover keeps a card of it (whoever adds keeping a card takes the build over); the
    reference leaves it the partner's (the text: a build "which will be owned by your partner")."""
    if not d.partners:
        return False
    seat = d.position["seat"]
    partner = (seat + 2) % 4
    changed = _owners_only(d)
    engine_owner = 1 if d.engine_says else 2
    return bool(changed) and all(
        (o1 if engine_owner == 1 else o2) == seat and (o2 if engine_owner == 1 else o1) == partner
        and _keeps(d, d.outcome[0], value) for value, o1, o2 in changed)


def _own_build_handed_to_partner(d: Difference) -> bool:
    """The engine lets the mover add the last card of a value to a build of it the mover owns, the partner
    being proven to hold the value: the build is then the partner's to take (the file's reading of
    build.for_partner); the reference keeps it the mover's, so abandoned ([Kh] 5), and refuses the turn."""
    if not d.engine_says or not d.partners:
        return False
    p = d.position
    seat, partner = p["seat"], (p["seat"] + 2) % 4
    mine_before = {b["value"] for b in p["builds"] if b["owner"] == seat}
    return any(value in mine_before and value in p["partner_declared"] and owner == partner
               and not _keeps(d, d.outcome[0], value) for _, value, owner, _ in d.outcome[2])


def _partners_builds_grown(d: Difference) -> list[tuple[tuple[str, ...], int]]:
    """(cards, value) of each build of the partner's in the result that holds a build of the partner's of the
    same value from the start and more cards: added to this turn."""
    p = d.position
    partner = (p["seat"] + 2) % 4
    before = [(set(b["cards"]), b["value"]) for b in p["builds"] if b["owner"] == partner]
    return [(cards, value) for cards, value, owner, _ in d.outcome[2] if owner == partner
            and any(v == value and old < set(cards) for old, v in before)]


def _partners_builds_made(d: Difference) -> list[tuple[tuple[str, ...], int]]:
    """(cards, value) of each build of the partner's in the result that no build at the start was: made this
    turn, for the partner's proven value."""
    partner = (d.position["seat"] + 2) % 4
    before = {tuple(sorted(b["cards"])) for b in d.position["builds"]}
    return [(cards, value) for cards, value, owner, _ in d.outcome[2] if owner == partner and cards not in before]


def _added_keeping_then_played(d: Difference) -> bool:
    """The reference adds to the partner's build, or makes one for the partner's proven value, while the mover
    holds a card of its value, then plays that card in the same turn, the build staying the partner's: the
    engine makes the mover its owner as the sets are added (whoever adds keeping a card takes it over), so the
    card is then one the mover must keep."""
    if d.engine_says or not d.partners:
        return False
    start, end = d.position["hand"], d.outcome[0]
    return any(_keeps(d, tuple(start), value) and not _keeps(d, end, value)
               for _, value in _partners_builds_grown(d) + _partners_builds_made(d))


def _kept_card_then_owed_twice(d: Difference) -> bool:
    """The reference adds to the partner's build keeping a card of its value, the build staying the partner's,
    and the mover's other build of another value is answered by that same card alone (an ace kept for a 1 and
    a 14): the engine makes the mover the owner of the build added to as the sets are added, and then one
    card cannot answer for both (the file's reading of build.for_partner)."""
    if d.engine_says or not d.partners:
        return False
    seat, hand = d.position["seat"], d.outcome[0]
    for _, value in _partners_builds_grown(d):
        for _, other, owner, _ in d.outcome[2]:
            answering = [c for c in hand if other in _values(c, d.variant)]
            if owner == seat and other != value and answering and all(value in _values(c, d.variant)
                                                                        for c in answering):
                return True
    return False


def _short_for_two_builds(d: Difference) -> bool:
    """The mover starts the turn holding builds of several values that the hand cannot answer one card a value (a
    partner built a 14 for a player whose one ace is kept for a build of 1): the reference lets that ace answer
    both, so it refuses taking either build with it and lets the mover build while keeping it; the engine, one card
    a value, has the mover short already, lets them take either build or play another card, no more of the builds
    left short, and build nothing until each build has a card (the file's reading of build.keep_capturing_card)."""
    seat, hand = d.position["seat"], d.position["hand"]
    values = sorted({b["value"] for b in d.position["builds"] if b["owner"] == seat})
    if len(values) < 2:
        return False
    owner: dict[str, int] = {}

    def give(v: int, tried: set[str]) -> bool:   # (an augmenting path: a card of its own for value v)
        for c in hand:
            if v in _values(c, d.variant) and c not in tried:
                tried.add(c)
                if c not in owner or give(owner[c], tried):
                    owner[c] = v
                    return True
        return False

    return not all(give(v, set()) for v in values)


def _partners_build_kept_beside_own(d: Difference) -> bool:
    """South African (one build a player): the reference adds to the partner's build, or makes one for the
    partner's proven value, keeping a card of its value while the mover owns a build of another value (at the
    turn's end, or at its start and taken later in the turn); the engine would make the mover its owner, a
    second build, as the action is made (the file's reading of build.one_per_player)."""
    if d.engine_says or not d.partners or d.variant != "south-african-casino":
        return False
    seat = d.position["seat"]
    made = _partners_builds_made(d)
    owned = [v for _, v, owner, _ in d.outcome[2] if owner == seat] + [
        b["value"] for b in d.position["builds"] if b["owner"] == seat]   # (one the turn took later counts too)
    return any(_keeps(d, d.outcome[0], value) and any(v != value for v in owned)
               for _, value in _partners_builds_grown(d) + made)


def _new_build_before_own_taken(d: Difference) -> bool:
    """South African (one build a player): the reference starts a build and takes the mover's other build in
    the same turn, in an order that starts the new one first; the engine judges one build a player at each
    action (the file's reading of build.one_per_player), and the other order is not open (a pile card the new
    build uncovered is in the capture)."""
    if d.engine_says or d.variant != "south-african-casino":
        return False
    p = d.position
    seat, captured = p["seat"], set(d.outcome[4])
    before = {tuple(sorted(b["cards"])) for b in p["builds"]}
    taken_own = [b for b in p["builds"] if b["owner"] == seat and set(b["cards"]) <= captured]
    started = [b for b in d.outcome[2] if b[2] == seat and b[0] not in before]
    return bool(taken_own) and any(b[1] != t["value"] for b in started for t in taken_own)


def _second_build_for_partner(d: Difference) -> bool:
    """South African (one build a player): the reference makes a new build for the partner's proven value
    while the partner owns a build of another value at the turn's end; the engine refuses the partner a second
    build (the file's reading of build.one_per_player)."""
    if d.engine_says or not d.partners or d.variant != "south-african-casino":
        return False
    partner = (d.position["seat"] + 2) % 4
    before = {tuple(sorted(b["cards"])) for b in d.position["builds"]}
    theirs = [b for b in d.outcome[2] if b[2] == partner]
    return any(b[0] not in before and any(o[1] != b[1] for o in theirs) for b in theirs)


def _pile_card_between_capture_sets(d: Difference) -> bool:
    """The reference captures a pile card that a card of another build of the turn uncovered, where a card of a
    build of the turn was itself uncovered by a captured one: the build came between two sets of the capture,
    an order the engine's capture (one action with the sets it adds to the captured build) cannot take (the
    file's reading of build.augment_opponents). A necessary condition, read from the piles: "a captured card
    just above a build's card" in one pile and "a build's card just above a captured card" in one."""
    if d.engine_says:
        return False
    hand, table, builds, left, captured = d.outcome
    in_builds = {c for b in builds for c in b[0]}
    marks = ""
    for pile, kept in zip(d.position["piles"], left):
        taken = pile["cards"][kept:][::-1]          # top first
        marks += "".join("c" if c in captured else "b" if c in in_builds else "?" for c in taken) + "|"
    return "cb" in marks and "bc" in marks


def _beyond_pile_reach(d: Difference) -> bool:
    """The reference captures more cards of one opposing pile than a move may use (``capture.pile_reach``, the
    file's reading: at most four cards of one pile, from the top down); a capture is one action, and the
    reference sets no depth (its T16). A necessary condition, read from the cards captured."""
    if d.engine_says:
        return False
    reach = load_rules(d.variant).capture.pile_reach
    seat, captured = d.position["seat"], set(d.outcome[4])
    return any(seat not in pile["seats"] and sum(c in captured for c in pile["cards"]) > reach
               for pile in d.position["piles"])


def _reading(variant: str, setting: str) -> str:
    return next(r.text for r in load_rules(variant).readings if r.setting == setting)


#: Readings a variant file declares that the reference reads otherwise: (name, the reading's words, test).
DECLARED: tuple[tuple[str, str, Callable[[Difference], bool]], ...] = (
    ("build.for_partner: whoever adds keeping a card of its value takes the build over",
     _reading("swazi-casino", "build.for_partner"), _taken_over_by_adding),
    ("build.for_partner: one's own build handed to the partner", _reading("swazi-casino", "build.for_partner"),
     _own_build_handed_to_partner),
    ("build.for_partner: added to keeping a card of its value, then that card played",
     _reading("swazi-casino", "build.for_partner"), _added_keeping_then_played),
    ("build.for_partner: added to keeping the one card another build of the mover's needs",
     _reading("swazi-casino", "build.for_partner"), _kept_card_then_owed_twice),
    ("build.keep_capturing_card: one card a value, a player short of one for their builds",
     _reading("swazi-casino", "build.keep_capturing_card"), _short_for_two_builds),
    ("build.one_per_player: no second build by adding to or building the partner's", _reading("south-african-casino",
                                                                                 "build.one_per_player"),
     _partners_build_kept_beside_own),
    ("build.one_per_player: no second build for the partner", _reading("south-african-casino", "build.one_per_player"),
     _second_build_for_partner),
    ("build.one_per_player: judged at each action of a turn", _reading("south-african-casino", "build.one_per_player"),
     _new_build_before_own_taken),
    ("build.augment_opponents: the sets added to a captured build are one action with the capture",
     _reading("swazi-casino", "build.augment_opponents"), _pile_card_between_capture_sets),
    ("capture.pile_reach: a move uses at most four cards of one pile",
     _reading("swazi-casino", "capture.pile_reach"), _beyond_pile_reach),
)


def declared(d: Difference) -> str | None:
    return next((name for name, _, test in DECLARED if test(d)), None)


@dataclass
class Tally:
    positions: int = 0
    results: int = 0               # results of whole turns the engine reaches, summed over the positions
    too_large: int = 0
    found: list[Difference] = field(default_factory=list)
    by_seating: dict[tuple[str, int, bool], int] = field(default_factory=dict)

    @property
    def undeclared(self) -> list[Difference]:
        return [d for d in self.found if declared(d) is None]


def compare(engine: Engine, variant: str, hand: HandState,
            reference: Callable[[dict[str, Any]], set[Outcome]] = african_turns_reference.whole_turns,
            ) -> tuple[set[Outcome], set[Outcome], dict[str, Any]] | None:
    """(the engine's results, the reference's, the position); None when too large."""
    try:
        mine = engine_whole_turns(engine, hand)
    except (_TooLarge, PositionTooLargeError):
        return None
    plain = position(engine, variant, hand)
    return mine, reference(plain), plain


def run(seatings: tuple[tuple[str, int, bool], ...], seeds: range, *, trail_bias: float = 0.5,
        in_play: range = LIGHT,
        reference: Callable[[dict[str, Any]], set[Outcome]] = african_turns_reference.whole_turns,
        progress: Callable[[Tally], None] | None = None) -> Tally:
    """Compare the whole turns of every comparable turn start of a random game for each seating and seed
    (``in_play``: how many cards in play; ``HEAVY`` with ``HEAVY_TRAIL_BIAS`` for the heavier tables)."""
    tally = Tally()
    for variant, players, partners in seatings:
        for seed in seeds:
            for engine, ply, hand in positions(variant, players, partners, seed, trail_bias, in_play):
                got = compare(engine, variant, hand, reference)
                if got is None:
                    tally.too_large += 1
                    continue
                mine, theirs, plain = got
                tally.positions += 1
                tally.results += len(mine)
                seating = (variant, players, partners)
                tally.by_seating[seating] = tally.by_seating.get(seating, 0) + 1
                for outcomes, says, others in ((mine - theirs, True, theirs), (theirs - mine, False, mine)):
                    for o in sorted(outcomes):
                        tally.found.append(Difference(variant, players, partners, seed, ply, o, says, plain,
                                                      frozenset(others)))
            if progress is not None:
                progress(tally)
    return tally


__all__ = ["SEATINGS", "Tally", "compare", "engine_one_action_turns", "engine_whole_turns", "run"]

"""Warnings before a move: what it may leave to the next player.

Three kinds, each derived from the engine's own legal moves in the position the move
would leave, with the next player given, one at a time, each card the mover has not
seen (its hand is hidden, so any such card "may" be there):

- ``sweep``: the next player may sweep the table (a capture that leaves no loose cards
  and no builds, counted by the engine as a sweep), where the variant scores sweeps;
- ``scoring-card``: the next player may take a card an "each" item scores (a casino, an
  ace) that the move trailed, or that a capture of the mover could have taken this turn;
- ``build``: the next player may take a build the move made or changed for the mover's side.

Nothing here knows a variant: the scoring items say which cards score, the engine says
what can be captured. Each is a gift of points to the next player, so in a game won by the
lowest total (``game.goal: lowest``, Kasino misär and Krypkasino: points are penalties) none is a
risk, and nothing is warned of. A next player on the mover's own side (a partner) is no threat:
no warning; nor is a forced move (the only legal one) warned of. The dealer's last card of
a deal is: the next player gets new cards and plays first to the table it leaves. Only one
hypothetical card at a time is tried, so captures the next player could make by playing
several cards together are not foreseen. At a crowded table (more than ``WALK_ABOVE`` items) what one card
takes is asked of the engine's lazy walk of the moves (``engine.choices``) rather than listed: the same
answer (tests/test_warnings_walk.py), without the thousands of captures a card may have there.

A warning is a choice offered: it is given only where another legal move avoids that risk
(a sweep left, a given scoring card left, a build of one's own left to be taken). Where every
move carries it (Scopa, `2S 4D` in hand against `AD 4H`: each allows a sweep), nothing is
said. A move the hint chose says so beside its warning: the search weighed the risk and still
found the move best.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ...engine.core import Engine, bits
from ...engine.game import Game
from ...engine.movegen import popcount
from ...engine.moves import Move, MoveKind
from ...engine.notation import cards_text
from ...engine.state import HandState
from ...engine.tables import CAPTURE
from ...errors import PositionTooLargeError
from ...players.knowledge import seen_by


@dataclass(frozen=True)
class Warning:
    """One thing a move may give away: its kind, the cards concerned, and the sentence to show."""

    kind: str                    # "sweep", "scoring-card" or "build"
    cards: tuple[str, ...]       # the cards at stake (the build's cards for a build)
    takers: tuple[str, ...]      # unseen cards the next player could do it with
    text: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _sweeps_score(game: Game) -> bool:
    return any(i.count == "sweeps" and (i.points or i.by_size or i.first_play_points)
               for i in game.rules.scoring.items)


def _scoring_mask(game: Game) -> int:
    mask = 0
    for item in game.rules.scoring.items:
        if item.count == "each" and item.points:
            mask |= game.scorer.masks[item.name]
    return mask


def _taken(move: Move) -> int:
    """The table cards a capture takes (loose cards and whole builds)."""
    cards = move.loose
    for b in move.builds:
        cards |= b
    return cards


#: Items on the table (loose cards and builds) above which what one card of the next player takes is found
#: by the engine's lazy walk of the moves (``MoveChoices``: which items some capture of the card uses, and
#: whether one takes them all) rather than from its whole listing: a card that may take any set of cards
#: adding up to it has thousands of captures at a crowded table (a game won by the lowest total, where
#: nobody wants to capture, leaves twenty cards and more), and the warnings looked at each (seconds a move).
WALK_ABOVE = 10

#: The most other moves looked at to find one that avoids a risk; a risk none of them avoids
#: is warned of when more moves were left unseen (a warning too many rather than one missed).
AVOID_LOOKS = 160


def warnings_for(game: Game, move: Move, hinted: Move | None = None) -> tuple[Warning, ...]:
    """What ``move`` (legal for the seat to play in ``game``) may leave to the next player, of the
    risks another legal move avoids. ``hinted``: the move the hint chose here, if asked; a warning
    of that very move says the hint chose it all the same."""
    if game.rules.game.goal == "lowest":
        return ()   # points are penalties: leaving them to the next player is no risk
    legal = game.engine.playable_moves(game.hand)
    if len(legal) == 1:
        return ()   # a forced move: nothing to choose, nothing to warn of
    found = risks(game, move, legal)
    if not found:
        return ()
    open_risks = {_risk(w) for w in found}
    avoided: set[tuple[str, ...]] = set()
    # A turn of several actions (African Casino): a card from the hand is weighed against the other
    # cards the hand could play, not against a build of cards in play, after which that card is still due.
    others = [m for m in legal if m != move and bool(m.played) == bool(move.played)]
    for m in others[:AVOID_LOOKS]:
        avoided |= open_risks - {_risk(w) for w in risks(game, m, legal)}
        if avoided == open_risks:
            break
    unlooked = len(others) > AVOID_LOOKS   # (a move not looked at may avoid what none looked at did)
    kept = tuple(w for w in found if _risk(w) in avoided or unlooked)
    if hinted is not None and hinted == move:
        kept = tuple(Warning(w.kind, w.cards, w.takers, w.text + "; the hint chose this move all the same, "
                                                             "finding it best with that risk weighed")
                     for w in kept)
    return kept


def _risk(w: Warning) -> tuple[str, ...]:
    """What a warning is about, so that two moves' warnings can be matched: a sweep, one scoring
    card, or a build of one's own (whichever it is)."""
    return ("scoring-card",) + w.cards if w.kind == "scoring-card" else (w.kind,)


def risks(game: Game, move: Move, legal: list[Move]) -> tuple[Warning, ...]:
    """Every risk ``move`` runs (``legal``: the position's moves), avoidable or not."""
    engine, before = game.engine, game.hand
    seat = before.turn
    # The position the next player meets: a turn of several actions that stays open after its hand card
    # is taken to end there (further builds of cards in play are the player's next choice, warned of then).
    after = engine.close_turn(engine.apply(before, move))
    if after.over:
        return ()
    # The dealer's last card of a deal: the next player then gets new cards (ones the mover
    # has not seen) and plays first to the table this move leaves, sweep included.
    nxt = after.turn
    if after.teams[nxt] == before.teams[seat] or not after.hands[nxt]:
        return ()
    deck = engine.deck
    # What the mover has not seen *before* the move: where a player draws after playing (Draw Cassino),
    # the position after it holds the card drawn, which the mover does not know yet.
    unseen = engine.full & ~seen_by(before, seat)
    if not unseen:
        return ()
    scoring = _scoring_mask(game)
    reachable = move.played
    for m in legal:
        if m.kind == MoveKind.CAPTURE:
            reachable |= _taken(m)
    exposed_scoring = scoring & reachable & (after.table | _build_cards(after))
    # African Casino: the card a capture is made with goes face up on top of the mover's pile,
    # where the next player may take it.
    on_top = scoring & move.played & after.pile_tops()
    exposed_scoring |= on_top
    new_builds = {b.cards for b in after.builds
                  if after.teams[b.owner] == before.teams[seat] and b not in before.builds}
    sweeps = _sweeps_score(game)

    sweepers, takers_of = 0, {}   # card -> unseen cards that take it
    build_takers: dict[int, int] = {}
    stock = tuple(range(len(after.stock)))       # the stock's size only: its cards are hidden
    tried: dict[tuple[str, tuple[Any, ...]], tuple[bool, int, tuple[int, ...]]] = {}
    for i in range(engine.n_cards):
        if not unseen >> i & 1:
            continue
        keepers = _keepers(engine, after, nxt, i, unseen)
        kind = (engine.rank_str[i], tuple(sorted(engine.captured_values(1 << i), key=str)), keepers)
        found = tried.get(kind)
        if found is None:
            found = tried[kind] = _what_one_card_takes(engine, after, nxt, i, stock, keepers)
        sweep, took, builds = found
        if sweep and sweeps:
            sweepers |= 1 << i
        for card_bit in _bits(took & exposed_scoring):
            takers_of[card_bit] = takers_of.get(card_bit, 0) | 1 << i
        for b in builds:
            if b in new_builds:
                build_takers[b] = build_takers.get(b, 0) | 1 << i
    out = []
    name = cards_text
    if sweepers:
        out.append(Warning("sweep", tuple(name(deck, after.table | _build_cards(after))), tuple(name(deck, sweepers)),
                           f"this leaves a sweep: seat {nxt} may hold {_some(name(deck, sweepers))}, which would "
                           f"take everything on the table"))
    for bit, who in sorted(takers_of.items()):
        card = name(deck, bit)[0]
        how = "trails" if move.played & bit and move.kind == MoveKind.TRAIL else "leaves"
        where = ", on top of your pile" if on_top & bit else ""
        out.append(Warning("scoring-card", (card,), tuple(name(deck, who)),
                           f"this {how} {card}, a scoring card{where}: seat {nxt} may take it with "
                           f"{_some(name(deck, who))}"))
    for b, who in build_takers.items():
        shown = " ".join(name(deck, b))
        out.append(Warning("build", tuple(name(deck, b)), tuple(name(deck, who)),
                           f"this leaves your build [{shown}] to seat {nxt}, who may take it with "
                           f"{_some(name(deck, who))}"))
    return tuple(out)


def _keepers(engine: Engine, after: HandState, nxt: int, card: int, unseen: int) -> int:
    """The cards the next player is taken to hold beside ``card`` where it holds builds: one unseen card that
    captures each build's value (``build.keep_capturing_card``: a holder may play no card it needs to take its
    build with). With ``card`` alone in its hand, a holder could play it only to take the build, and the warnings
    missed every other capture the card makes: a 10 of the next player's taking a trailed 10 while it keeps the
    9 of its build (an audit's find, standard, seed 106). As many as its hand has room for beside ``card``, the
    values ``card`` cannot take first: a holder of builds of 6 and 8 with two cards, trying a 6, keeps an 8 beside
    it (given a second 6 and no 8 it could not take its own 6, and the warnings missed that: a test's find)."""
    if not engine.rules.build.keep_capturing_card:
        return 0
    room = popcount(after.hands[nxt]) - 1
    keepers = 0
    own = engine.captured_values(1 << card)
    for value in sorted({b.value for b in after.builds if b.holder == nxt}, key=lambda v: (v in own, str(v))):
        if room <= 0:
            break
        for i in bits(unseen & ~(1 << card) & ~keepers):
            if value in engine.captured_values(1 << i):
                keepers |= 1 << i
                room -= 1
                break
    return keepers


def _what_one_card_takes(engine: Engine, after: HandState, nxt: int, card: int, stock: tuple[int, ...],
                         keepers: int = 0) -> tuple[bool, int, tuple[int, ...]]:
    """With ``card`` in the next player's hand (beside ``keepers``, cards it keeps for its builds, ``_keepers``): can
    it sweep, which table cards can it take, which builds (the moves that play ``card`` alone)."""
    hands = list(after.hands)
    hands[nxt] = 1 << card | keepers
    probe = after.with_(hands=tuple(hands), stock=stock)
    if popcount(probe.table) + len(probe.builds) > WALK_ABOVE and walkable(engine, probe):
        try:
            return takes_by_walk(engine, probe, 1 << card)
        except PositionTooLargeError:
            pass   # (past the walk's budget: the listing, a sample of the moves where they are too many)
    return takes_by_listing(engine, probe, 1 << card)


def walkable(engine: Engine, probe: HandState) -> bool:
    """Whether the lazy walk's answers are the playable captures' here: every legal move is playable (no
    whole-move rule refuses one, no capture must be widened to all it can take), one pack, no piles."""
    return not engine.turn_rules.active and not engine.take_all and not engine.has_copies and not probe.stacks


def takes_by_listing(engine: Engine, probe: HandState, card: int = 0) -> tuple[bool, int, tuple[int, ...]]:
    """``_what_one_card_takes`` from every playable move of ``probe`` that plays ``card`` (a deck bit; 0: every
    move, the next player holding the one card)."""
    sweep, took, builds = False, 0, set()
    for m in engine.playable_moves(probe):
        if m.kind != MoveKind.CAPTURE or (card and m.played != card):
            continue
        took |= _taken(m)
        builds.update(m.builds)
        if not sweep:
            result = engine.apply(probe, m)
            sweep = _swept(probe, result)
    return sweep, took, tuple(sorted(builds))


def takes_by_walk(engine: Engine, probe: HandState, card: int = 0) -> tuple[bool, int, tuple[int, ...]]:
    """``takes_by_listing``'s answer (where ``walkable``) from the engine's lazy walk of the moves: for each way
    of capturing with the card, the items some capture uses (one completion question an item) and whether
    a capture takes every item (then applied, to see whether the engine counts it a sweep)."""
    walk = engine.walk(probe)
    sweep, took, builds = False, 0, set()
    everything = list(range(len(walk.order)))
    for head in walk.heads():
        if head.kind != CAPTURE or (card and head.played != card):
            continue
        relevant = walk.relevant_items(head)
        for p, bit in enumerate(walk.order):
            if bit & relevant and walk.has_completion(head, bit, bit):
                item = walk.move(head, [p])   # (a move of this one item: its cards)
                took |= _taken(item)
                builds.update(item.builds)
        if not sweep and walk.has_completion(head, walk.all_items, walk.all_items):
            sweep = _swept(probe, engine.apply(probe, walk.move(head, everything)))
    return sweep, took, tuple(sorted(builds))


def _swept(before: HandState, after: HandState) -> bool:
    """Whether the capture from ``before`` to ``after`` was a sweep: the engine counted one and left nothing."""
    return len(after.sweeps) > len(before.sweeps) and not after.table and not after.builds


def _build_cards(state: HandState) -> int:
    cards = 0
    for b in state.builds:
        cards |= b.cards
    return cards


def _bits(mask: int) -> list[int]:
    """The single-card bits of ``mask``, lowest first."""
    return [1 << i for i in bits(mask)]


def _some(cards: list[str]) -> str:
    shown = cards[:6]
    more = f" and {len(cards) - len(shown)} more" if len(cards) > len(shown) else ""
    return ("one of " if len(cards) > 1 else "") + ", ".join(shown) + more

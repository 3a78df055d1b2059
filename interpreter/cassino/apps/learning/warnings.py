"""Warnings before a move: what it may leave to the next player.

Three kinds, each derived from the engine's own legal moves in the position the move
would leave, with the next player given, one at a time, each card the mover has not
seen (its hand is hidden, so any such card "may" be there), and, where several hand cards
may be played together (``capture.hand_cards.max`` above 1: Hungarian Casino), each set of such
cards it may hold (``_together``):

- ``sweep``: the next player may sweep the table (a capture that leaves no loose cards
  and no builds, counted by the engine as a sweep), where that sweep would score: the scorer's
  own reading of the sweep items (``_sweep_moves_points``: ``endgame.sweeps_from``, the endgame
  restrictions, from the game's scores; a sweep the engine records but nobody scores is none);
- ``scoring-card``: the next player may take a card an "each" item scores (a casino, an
  ace) that the move trailed or built with, or that a capture of the mover could have taken this turn
  (on the table, in a build, or on top of a capture pile in the next player's reach);
- ``build``: the next player may take a build the move made or changed for the mover's side.

Nothing here knows a variant: the scoring items say which cards score, the engine says
what can be captured. Each is a gift of points to the next player, so in a game won by the
lowest total (``game.goal: lowest``, Kasino misär and Krypkasino: points are penalties) none is a
risk, and nothing is warned of. A next player on the mover's own side (a partner) is no threat:
no warning; nor is a forced move (the only legal one) warned of. The dealer's last card of
a deal is: the next player gets new cards and plays first to the table it leaves (but not where that deal lays
cards on the table, a short stock dealt to it: the table the next player meets is not one the mover can know). Cards played
together are tried as the engine reads them (``_together``): the unseen cards' sets of 2 up to
``capture.hand_cards.max`` (and no more than the next player's hand holds) are sorted by the values the
engine says they capture together (``Generator.combo_targets``), the engine's lazy walk sifts those that
cannot do it, and a set of each such values left is given to the next player as its hand; a warning then
names one or two sets that did it, "such as" ("cards that together make 10 (such as 4S and 6H)";
``Warning.takers``: as a move plays them, ``4S+6H``). At a crowded table (more than ``WALK_ABOVE`` items) what one card
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
from itertools import combinations_with_replacement
from typing import Any

from ...engine.core import Engine, bits
from ...engine.game import Game
from ...engine.choices import Head
from ...engine.movegen import Generator, popcount
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
    takers: tuple[str, ...]      # unseen cards the next player could do it with (a set played together: "4S+6H")
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
    # (The moves that take the most first: one that clears the table avoids every risk. Only the search's order:
    # where more moves are left than are looked at, every warning is kept whatever was looked at.)
    others.sort(key=lambda m: -popcount(_taken(m)) if m.kind == MoveKind.CAPTURE else 0)
    for m in others[:AVOID_LOOKS]:
        left = open_risks - avoided
        avoided |= left - {_risk(w) for w in risks(game, m, legal, only=left)}
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


def risks(game: Game, move: Move, legal: list[Move], only: set[tuple[str, ...]] | None = None) -> tuple[Warning, ...]:
    """Every risk ``move`` runs (``legal``: the position's moves), avoidable or not. ``only``: the risks asked
    about (as ``_risk`` names them), where the question is only which of them the move runs (``warnings_for``,
    looking for a move that avoids them): others may be left out, and the search for each stops at the first set
    of cards played together or single card found to run it (the warning's words are not shown)."""
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
    if after.table & unseen:
        # A deal after the move laid cards the mover has not seen on the table (``deal.short_stock:
        # split_rest_to_table``: the last of the stock): the table the next player meets is not one the mover can
        # know, and a warning of it would read the stock (a drawn Tuxedo rule warned "this leaves a sweep: seat 3
        # may hold one of 9R, 9Y" of the 1R the deal laid down, found by dealing the hidden cards again).
        return ()
    scoring = _scoring_mask(game)
    reachable = move.played
    for m in legal:
        if m.kind == MoveKind.CAPTURE:
            reachable |= _taken(m)
    # (and a pile card the mover could have taken, in the next player's reach: African Casino, a clean-room reading)
    in_piles = after.pile_tops()
    # (not a card the move itself took: it is the mover's now, as the reference reads "left"; the card played on top
    # of the mover's pile is said below)
    exposed_scoring = scoring & reachable & ~(_taken(move) if move.kind == MoveKind.CAPTURE else 0) \
        & (after.table | _build_cards(after) | in_piles)
    # African Casino: the card a capture is made with goes face up on top of the mover's pile,
    # where the next player may take it.
    on_top = scoring & move.played & after.pile_tops()
    exposed_scoring |= on_top
    new_builds = {b.cards for b in after.builds
                  if after.teams[b.owner] == before.teams[seat] and b not in before.builds}
    # A sweep is looked for where the variant scores sweeps, and warned of where this one would score
    # (``_sweep_counts``, asked once: of the first card or set found to sweep).
    sweeps: bool | None = None if _sweeps_score(game) else False
    name = cards_text
    stock = tuple(range(len(after.stock)))       # the stock's size only: its cards are hidden

    def counted(cards: int, keepers: int) -> bool:
        nonlocal sweeps
        if sweeps is None:
            sweeps = _sweep_counts(game, after, nxt, cards, keepers, stock)
        return sweeps

    # Several cards played together (Hungarian Casino), where a sweep or a scoring card is at stake (the rule
    # language allows them for captures only, never with building: no build is at stake there). Asked only
    # whether the move runs the risks ``only`` names, sets are tried first, one a risk (one taking the whole table
    # is found at once), and the single cards only while some risk is still open.
    together: dict[Any, list[tuple[int, int]]] = {}   # "sweep" or a scoring card's bit -> [(values, set)]
    stakes: list[Any] = (["sweep"] if sweeps is not False else []) + _bits(exposed_scoring)
    builds_asked = only is not None and ("build",) in only and bool(new_builds)
    if only is not None:
        stakes = [key for key in stakes if (("sweep",) if key == "sweep" else ("scoring-card", name(deck, key)[0]))
                  in only]
        together = _together_counted(engine, after, nxt, unseen, stock, stakes, 1, counted)

    sweepers, takers_of = 0, {}   # card -> unseen cards that take it
    build_takers: dict[int, int] = {}
    tried: dict[Any, tuple[bool, int, tuple[int, ...]]] = {}
    for i in range(engine.n_cards):
        if not unseen >> i & 1:
            continue
        if only is not None and (not builds_asked or build_takers) and all(
                key in together or (sweepers or sweeps is False if key == "sweep" else key in takers_of)
                for key in stakes):
            break   # (every risk asked about is run, or cannot be: nothing more to learn)
        keepers = _keepers(engine, after, nxt, i, unseen)
        kind = (engine.rank_str[i], tuple(sorted(engine.captured_values(1 << i), key=str)), keepers)
        found = tried.get(kind)
        if found is None:
            found = tried[kind] = _what_cards_take(engine, after, nxt, 1 << i, stock, keepers)
        sweep, took, builds = found
        if sweep and sweeps is not False and (only is None or ("sweep",) in only) and counted(1 << i, keepers):
            sweepers |= 1 << i
        for card_bit in _bits(took & exposed_scoring):
            takers_of[card_bit] = takers_of.get(card_bit, 0) | 1 << i
        for b in builds:
            if b in new_builds:
                build_takers[b] = build_takers.get(b, 0) | 1 << i
    if only is None:
        together = _together_counted(engine, after, nxt, unseen, stock, stakes, 2, counted)
    out = []
    sweeps_with = together.get("sweep", [])
    if sweepers or sweeps_with:
        out.append(Warning("sweep", tuple(name(deck, after.table | _build_cards(after))),
                           _takers(deck, sweepers, sweeps_with),
                           f"this leaves a sweep: seat {nxt} may hold {_who(deck, sweepers, sweeps_with)}, which "
                           f"would take everything on the table"))
    for bit in sorted(set(takers_of) | {k for k in together if k != "sweep"}):
        who, sets = takers_of.get(bit, 0), together.get(bit, [])
        card = name(deck, bit)[0]
        how = "trails" if move.played & bit and move.kind == MoveKind.TRAIL else "leaves"
        where = ", on top of your pile" if on_top & bit else ", in a capture pile" if in_piles & bit else ""
        out.append(Warning("scoring-card", (card,), _takers(deck, who, sets),
                           f"this {how} {card}, a scoring card{where}: seat {nxt} may take it with "
                           f"{_who(deck, who, sets)}"))
    for b, who in build_takers.items():
        shown = " ".join(name(deck, b))
        out.append(Warning("build", tuple(name(deck, b)), tuple(name(deck, who)),
                           f"this leaves your build [{shown}] to seat {nxt}, who may take it with "
                           f"{_some(name(deck, who))}"))
    return tuple(out)


def _together_counted(engine: Engine, after: HandState, nxt: int, unseen: int, stock: tuple[int, ...],
                      stakes: list[Any], examples: int, counted: Any) -> dict[Any, list[tuple[int, int]]]:
    """``_together``, with its sweep kept only where it would score (``counted``, of the first set found)."""
    if not stakes:
        return {}
    together = _together(engine, after, nxt, unseen, stock, stakes, examples)
    if "sweep" in together:
        cards = together["sweep"][0][1]
        if not counted(cards, _keepers_beside(engine, after, nxt, cards, unseen)):
            del together["sweep"]
    return together


def _sweep_moves_points(game: Game, before: HandState, after: HandState) -> bool:
    """Whether the sweep from ``before`` to ``after`` changes what some side scores for its sweeps, as the scorer
    counts them at the end of the hand (``Scorer.hand_points``): its sweep items' points (by size, on the first play,
    to the previous player, the sweeps it cancels) for each side the endgame lets score them (``Scorer.counting``, from
    the game's scores before this hand: ``endgame.sweeps_from``, its ``sweeps_from_side``, the restrictions, lifted
    after a tie). Finnish Kasino once a side has 10 points: a sweep scores nobody anything, and is no risk."""
    return _sweep_points(game, before) != _sweep_points(game, after)


def _always_scores(game: Game, state: HandState, side: int) -> bool:
    """Whether any sweep the engine records for ``side`` in ``state``'s hand scores it points: a sweep item counts
    for it (``Scorer.counting``, as ``Scorer.hand_points`` asks it) and scores at these sides and any size, on any
    play. Where not (Finnish Kasino from 10 points), ``_sweep_counts`` asks the scorer of a sweep made."""
    if game.rules.sweeps.cancel and any(not sw.cancelled and state.teams[sw.seat] != side for sw in state.sweeps):
        # (the sweep may only cancel another side's, which may score nothing: Dominican Casino past 18, a clean-room
        # reading of these warnings found it warned of a sweep that moves no point)
        return False
    scores = dict(enumerate(game.scores))
    counting = game.scorer.counting(scores.get(side, 0), game.restrictions_on, max(scores.values(), default=0))
    return any(counts and item.count == "sweeps" and item.points > 0 and all(r.points > 0 for r in item.by_size)
               and (item.first_play_points is None or item.first_play_points > 0)
               and (not item.sides or len(state.sides) in item.sides)
               for item, counts in zip(game.rules.scoring.items, counting))


def _sweep_points(game: Game, state: HandState) -> dict[int, int]:
    """Each side's points for the sweeps of ``state`` (the sweep items alone), as ``Scorer.hand_points`` counts them."""
    scorer = game.scorer
    scores = dict(enumerate(game.scores))
    top = max(scores.values(), default=0)   # (the highest score, as ``hand_points`` passes it)
    items = game.rules.scoring.items
    out = dict.fromkeys(state.sides, 0)
    for k, item in enumerate(items):
        if item.count != "sweeps":
            continue
        won = None
        for s in state.sides:
            if scorer.counting(scores.get(s, 0), game.restrictions_on, top)[k]:
                won = won or scorer.item_points(item, state)
                out[s] += won[s]
    return out


#: The most sets of values of unseen cards played together looked at (``_sets_by_values``; three cards of thirteen
#: values make 454, some 40 answers), and the most answers given to the next player as its hand for one risk where
#: the lazy walk cannot sift them first (``_together``). The warnings are asked at a person's prompt: sets past
#: either bound are left untried, a warning missed rather than a prompt kept waiting.
TOGETHER_SETS = 1200
TOGETHER_TRIES = 48
#: The most sets given to the next player as its hand to confirm one risk the walk lets through.
TOGETHER_CONFIRMS = 6


def _together(engine: Engine, after: HandState, nxt: int, unseen: int, stock: tuple[int, ...],
              wanted: list[Any], examples: int = 2) -> dict[Any, list[tuple[int, int]]]:
    """What the next player may do by playing several unseen cards together, where the rules let it
    (``capture.hand_cards.max`` above 1, sets no larger than its hand), of ``wanted``: ``"sweep"`` (the engine's
    sweeps; whether one would score is the caller's question) and scoring cards' bits, each to the sets found
    doing it (``examples`` at most), as (the values they capture together, the set's cards).

    The engine says what a set captures: its values by ``Generator.combo_targets`` (``_sets_by_values``), and
    what one set of each such values does by the legal moves of the next player holding that set alone
    (``_what_cards_take``, beside the cards it keeps for its builds): only a set so confirmed is named, or warned
    of at all. Before a set is tried, the engine's lazy walk of a position where the next player holds every set's
    cards is asked whether some legal move playing it takes every item, or the card's (a larger hand allows no
    fewer captures of a set than the set alone: the walk passes over nothing a set could do). A sweep is tried
    first with the sets worth the table's total (``_table_total``: one set taking it all), without the walk; the
    search for each risk stops at ``examples`` sets (``risks`` asks for one where only whether is asked)."""
    most = min(engine.tables.hand_cards_max, popcount(after.hands[nxt]))
    if most < 2:
        return {}
    groups, worth = _sets_by_values(engine, after, unseen, most)
    if not groups:
        return {}
    tried: dict[int, tuple[bool, int, tuple[int, ...]]] = {}

    def takes(cards: int) -> tuple[bool, int, tuple[int, ...]]:
        if cards not in tried:
            keepers = _keepers_beside(engine, after, nxt, cards, unseen)
            tried[cards] = _what_cards_take(engine, after, nxt, cards, stock, keepers)
        return tried[cards]

    walk: Any = None   # (made when first asked: ``sift``)
    whole = _probe(after, nxt, _union(cards for _, sets in groups for cards in sets), stock)
    loose = bits(whole.table)
    walks = walkable(engine, whole)

    def sift(sets: list[int], items: int) -> bool:
        """Whether the walk lets the first of ``sets`` through (True where it cannot answer)."""
        nonlocal walk, walks
        if not walks:
            return True
        try:
            if walk is None:
                walk = engine.walk(whole)
            return bool(walk.has_completion(Head(sets[0], CAPTURE, 0), items, items))
        except PositionTooLargeError:
            walks = False   # (past the walk's budget: the sets themselves, as many as are tried)
            return True

    out: dict[Any, list[tuple[int, int]]] = {}
    for key in wanted:
        first: list[int] = []
        if key == "sweep":
            items = (1 << (len(loose) + len(whole.builds))) - 1
            first = worth.get(_table_total(engine, whole), [])
        else:   # (the walk numbers the loose cards lowest first, then the builds)
            card = key.bit_length() - 1
            items = 1 << loose.index(card) if card in loose else \
                sum(1 << (len(loose) + j) for j, b in enumerate(whole.builds) if b.cards & key)
        shown: list[tuple[int, int]] = []
        looks = asked = 0
        for k in first + [k for k in range(len(groups)) if k not in first]:
            targets, sets = groups[k]
            if len(shown) == examples or looks == TOGETHER_CONFIRMS:
                break
            if k not in first and not sift(sets, items):
                continue
            if not walks:
                if asked == TOGETHER_TRIES:
                    break
                asked += 1
            for cards in sets[:examples - len(shown)]:
                looks += cards not in tried
                sweep, took, _ = takes(cards)
                if not (sweep if key == "sweep" else took & key):
                    break   # (this set does not do it: nor, likely, another of its values)
                shown.append((targets, cards))
        if shown:
            out[key] = shown
    return out


def _table_total(engine: Engine, state: HandState) -> int:
    """The values of the table's items added up (a loose card at its lowest value on the table, a build at its
    value): the value of a set that would take everything at once. Only the order of a search reads it."""
    total = 0
    for i in bits(state.table):
        total += min((v for v in engine.captured_values(1 << i, hand_values=False) if isinstance(v, int)), default=0)
    return total + sum(b.value for b in state.builds if isinstance(b.value, int))


def _union(masks: Any) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _sets_by_values(engine: Engine, after: HandState, unseen: int,
                    most: int) -> tuple[list[tuple[int, list[int]]], dict[int, list[int]]]:
    """The sets of 2 to ``most`` unseen cards, by what the engine says they capture played together
    (``Generator.combo_targets``, a mask of values: their total, or under ``combine: groups`` each value they
    split into equal sets of): each answer with its first two sets (deck masks), smallest sets and lowest values
    first; and beside them, for each value, the answers (places in that list) that hold it. Cards of the same
    values are alike here, so one set of each choice of values is asked (at most ``TOGETHER_SETS``). Kept in the
    engine's ``derived`` (not to be changed): the answer at every move of a turn, and the engine's arithmetic of
    each choice of values for every later turn."""
    cache = engine.derived.setdefault("warnings.together", {})
    memo = engine.derived.setdefault("warnings.combo_targets", {})   # values of the cards (masks) -> targets
    assert isinstance(cache, dict) and isinstance(memo, dict)
    key = (unseen, most)
    if key in cache:
        return cache[key]
    t = engine.tables
    kinds: dict[int, list[int]] = {}   # a card's values (a mask) -> the unseen cards of those values
    for i in bits(unseen):
        if t.hvm[i] and not t.valueless[i]:
            kinds.setdefault(t.hvm[i], []).append(i)
    order = sorted(kinds)
    g: Any = None
    groups: dict[int, list[int]] = {}
    looked = 0
    for size in range(2, most + 1):
        for picks in combinations_with_replacement(range(len(order)), size):
            if looked >= TOGETHER_SETS:
                break
            if any(picks.count(k) > len(kinds[order[k]]) for k in set(picks)):
                continue
            looked += 1
            values = tuple(order[k] for k in picks)
            targets = memo.get(values)
            if targets is None:
                if g is None:   # (only its arithmetic of hand cards is asked: any position does)
                    g = Generator(t, after, hand_cards=[c for vm in order for c in kinds[vm][:most]])
                    first = [0]
                    for vm in order:
                        first.append(first[-1] + min(most, len(kinds[vm])))
                targets = memo[values] = g.combo_targets([first[k] + n for k in sorted(set(picks))
                                                          for n in range(picks.count(k))])
            if targets:
                sets = groups.setdefault(targets, [])
                if len(sets) < 2:
                    cards = 0
                    for k in set(picks):
                        for c in kinds[order[k]][:picks.count(k)]:
                            cards |= 1 << c
                    sets.append(cards)
    if len(cache) > 32:
        cache.clear()
    found = list(groups.items())
    worth: dict[int, list[int]] = {}
    for k, (targets, _) in enumerate(found):
        for v in bits(targets):
            worth.setdefault(v, []).append(k)
    cache[key] = answer = (found, worth)
    return answer


def _who(deck: Any, single: int, sets: list[tuple[int, int]]) -> str:
    """Who may do it, in words: one of the single cards, or "cards that together make 10 (such as 4S and 6H)",
    the value said where the sets shown capture one value only (else "cards played together (such as ...)")."""
    words = [_some(cards_text(deck, single))] if single else []
    if sets:
        values = {targets for targets, _ in sets}
        shown = ", or ".join(_listed(cards_text(deck, cards)) for _, cards in sets[:2])
        one = values.pop() if len(values) == 1 else 0
        what = f"that together make {one.bit_length() - 1}" if one and not one & (one - 1) else "played together"
        words.append(f"cards {what} (such as {shown})")
    return ", or ".join(words)


def _takers(deck: Any, single: int, sets: list[tuple[int, int]]) -> tuple[str, ...]:
    """``Warning.takers``: the single cards, then the sets shown, as a move plays them (``4S+6H``)."""
    return tuple(cards_text(deck, single)) + tuple("+".join(cards_text(deck, cards)) for _, cards in sets[:2])


def _listed(names: list[str]) -> str:
    """``4S and 6H``; ``2C, 3D and 5H``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _keepers(engine: Engine, after: HandState, nxt: int, card: int, unseen: int) -> int:
    """The cards the next player is taken to hold beside ``card`` where it holds builds: one unseen card that
    captures each build's value (``build.keep_capturing_card``: a holder may play no card it needs to take its
    build with). With ``card`` alone in its hand, a holder could play it only to take the build, and the warnings
    missed every other capture the card makes: a 10 of the next player's taking a trailed 10 while it keeps the
    9 of its build (an audit's find, standard, seed 106). As many as its hand has room for beside ``card``, the
    values ``card`` cannot take first: a holder of builds of 6 and 8 with two cards, trying a 6, keeps an 8 beside
    it (given a second 6 and no 8 it could not take its own 6, and the warnings missed that: a test's find)."""
    return _keepers_beside(engine, after, nxt, 1 << card, unseen)


def _keepers_beside(engine: Engine, after: HandState, nxt: int, cards: int, unseen: int) -> int:
    """``_keepers`` beside the cards ``cards`` (a deck mask: one card, or a set played together)."""
    if not engine.rules.build.keep_capturing_card:
        return 0
    room = popcount(after.hands[nxt]) - popcount(cards)
    keepers = 0
    own = engine.captured_values(cards)
    for value in sorted({b.value for b in after.builds if b.holder == nxt}, key=lambda v: (v in own, str(v))):
        if room <= 0:
            break
        for i in bits(unseen & ~cards & ~keepers):
            if value in engine.captured_values(1 << i):
                keepers |= 1 << i
                room -= 1
                break
    return keepers


def _what_cards_take(engine: Engine, after: HandState, nxt: int, cards: int, stock: tuple[int, ...],
                     keepers: int = 0) -> tuple[bool, int, tuple[int, ...]]:
    """With ``cards`` in the next player's hand (one card, or a set to play together; beside ``keepers``, cards it
    keeps for its builds, ``_keepers``): can it sweep, which table cards can it take, which builds (the moves that
    play ``cards``, all of them and no other)."""
    probe = _probe(after, nxt, cards | keepers, stock)
    if _crowded(engine, probe):
        try:
            return takes_by_walk(engine, probe, cards)
        except PositionTooLargeError:
            pass   # (past the walk's budget: the listing, a sample of the moves where they are too many)
    return takes_by_listing(engine, probe, cards)


def _probe(after: HandState, nxt: int, hand: int, stock: tuple[int, ...]) -> HandState:
    """``after`` with the next player holding ``hand`` and a stock of hidden cards (its size only)."""
    hands = list(after.hands)
    hands[nxt] = hand
    return after.with_(hands=tuple(hands), stock=stock)


def _crowded(engine: Engine, probe: HandState) -> bool:
    """Whether what a card takes in ``probe`` is asked of the lazy walk (``WALK_ABOVE``) rather than the listing."""
    return popcount(probe.table) + len(probe.builds) > WALK_ABOVE and walkable(engine, probe)


def _sweep_counts(game: Game, after: HandState, nxt: int, cards: int, keepers: int, stock: tuple[int, ...]) -> bool:
    """Whether the sweep the next player could make in ``after`` by playing ``cards`` (found to sweep, beside
    ``keepers``) would count (``_sweep_moves_points``): one such capture found among its moves and applied. Any
    sweep of this table by this player is the same to the scorer (the same cards taken at the same turn, by the
    same side, against the same sweeps), so one answers for all of them."""
    if _always_scores(game, after, after.teams[nxt]):
        return True   # (whatever the sweep: the scorer's own answer without one)
    engine = game.engine
    probe = _probe(after, nxt, cards | keepers, stock)
    if _crowded(engine, probe):
        try:
            walk = engine.walk(probe)
            everything = list(range(len(walk.order)))
            for head in walk.heads():
                if head.kind == CAPTURE and head.played == cards and \
                        walk.has_completion(head, walk.all_items, walk.all_items):
                    result = engine.apply(probe, walk.move(head, everything))
                    if _swept(probe, result):
                        return _sweep_moves_points(game, probe, result)
            return False
        except PositionTooLargeError:
            pass
    for m in engine.playable_moves(probe):
        if m.kind == MoveKind.CAPTURE and m.played == cards:
            result = engine.apply(probe, m)
            if _swept(probe, result):
                return _sweep_moves_points(game, probe, result)
    return False


def walkable(engine: Engine, probe: HandState) -> bool:
    """Whether the lazy walk's answers are the playable captures' here: every legal move is playable (no
    whole-move rule refuses one, no capture must be widened to all it can take), one pack, no piles."""
    return not engine.turn_rules.active and not engine.take_all and not engine.has_copies and not probe.stacks


def takes_by_listing(engine: Engine, probe: HandState, card: int = 0) -> tuple[bool, int, tuple[int, ...]]:
    """``_what_cards_take`` from every playable move of ``probe`` that plays ``card`` (a deck mask: one card, or
    several played together; 0: every move, the next player holding the one card)."""
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

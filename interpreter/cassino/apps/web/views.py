"""What one seat may see of a game, as plain JSON values: the only way game state leaves the server.

A view is built from what is public (the table's loose cards and builds, how many
cards each seat holds and has taken, sweeps, scores, the moves of this hand) and
from the viewer's own hand and legal moves; another seat's hand, the stock's
order and the game's seed are never read into it, so they cannot reach a browser
by any route (message, page or record link before the game is over).

Each view describes exactly one position: :func:`seat_view` the hand in play,
:func:`summary_view` a hand that has ended. The browser never decides a rule: it
gets the legal moves, each with the cards and builds it uses, and only matches
clicks against them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ...engine.core import Engine
from ...engine.moves import Move, MoveKind
from ...engine.notation import cards_text, format_move, parse_move
from ...engine.state import Build, HandState
from ...language.cards import Deck
from ..game.move_examples import move_examples
from ..game.said import Namer, claim_made, claim_verdict, deal_words, sweep_words
from ..game.summary import (HandSummary, builds_in_place, how_ended, outcome, pile_seat, side_name, side_seats,
                            turn_places, turns_of)


def deck_view(deck: Deck) -> dict[str, Any]:
    """How to draw the deck's cards: each suit's symbol, name and colour (all public)."""
    return {"suits": {letter: {"symbol": symbol, "name": name, "colour": colour}
                      for letter, symbol, name, colour in zip(deck.suits, deck.suit_symbols, deck.suit_names,
                                                              deck.suit_colours)}}


def typing_words(deck: Deck) -> str:
    """How cards are typed, naming no card (a message names only cards its reader may see)."""
    pairs = [f"{sym} {letter}" for letter, sym in zip(deck.suits, deck.suit_symbols) if sym != letter]
    suits = f"suits {', '.join(pairs)}" if pairs else f"suit letters {' '.join(deck.suits)}"
    return f"rank then suit letter ({suits}" + ("; 10 may be typed T)" if "10" in deck.ranks else ")")


def card_words(deck: Deck, name: str) -> str:
    """``9D`` -> ``9♦`` (the suit's symbol, or its letter where it has none)."""
    symbols = dict(zip(deck.suits, deck.suit_symbols))
    return f"{name[:-1]}{symbols.get(name[-1], name[-1])}"


def _words(deck: Deck, mask: int) -> str:
    return " ".join(card_words(deck, n) for n in cards_text(deck, mask))


def card_ids(deck: Deck, zone: int) -> dict[int, str]:
    """Each card of ``zone`` (a hand, the loose cards) by the id the browser knows it by: its
    name, and for a second copy of the same card in the zone (two packs) the name with ``~2``
    (``10D``, ``10D~2``). One pack: the names, as always. The mark is an id only; the page shows
    the card's name."""
    ids: dict[int, str] = {}
    count: dict[str, int] = {}
    for i in sorted(_indices(zone), key=lambda i: (deck.rank_index[i], i)):
        name = str(deck.cards[i])
        count[name] = count.get(name, 0) + 1
        ids[i] = name if count[name] == 1 else f"{name}~{count[name]}"
    return ids


def in_play_ids(deck: Deck, state: HandState) -> dict[int, str]:
    """The ids of the loose cards a move may take: the table's (as :func:`card_ids`), then the
    opposing pile tops where piles are in play (African Casino), numbered on from the table's
    so that with two packs a top and its twin on the table are two ids (``10D``, ``10D~2``)."""
    ids = card_ids(deck, state.table)
    count: dict[str, int] = {}
    for name in ids.values():
        base = name.split("~")[0]
        count[base] = count.get(base, 0) + 1
    for i in sorted(_indices(state.in_play() & ~state.table), key=lambda i: (deck.rank_index[i], i)):
        name = str(deck.cards[i])
        count[name] = count.get(name, 0) + 1
        ids[i] = name if count[name] == 1 else f"{name}~{count[name]}"
    return ids


def zone_ids(deck: Deck, zone: int, cards: int | None = None) -> list[str]:
    """The ids of ``cards`` (all of ``zone`` when None) in ``zone``, lowest rank first."""
    ids = card_ids(deck, zone)
    return [ids[i] for i in sorted(_indices(zone if cards is None else cards), key=lambda i: (deck.rank_index[i], i))]


def _indices(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def build_id(deck: Deck, cards: int) -> str:
    """A build as the notation writes it, ``[3C 5D]``: unique on a table, and what a typed move names."""
    return f"[{' '.join(cards_text(deck, cards))}]"


def build_view(deck: Deck, b: Build) -> dict[str, Any]:
    return {"id": build_id(deck, b.cards), "cards": cards_text(deck, b.cards), "value": b.value,
            "multiple": b.multiple, "owner": b.owner, "holder": b.holder}


def _new_build(engine: Engine, state: HandState, move: Move) -> Build | None:
    """The build a build move leaves on the table (to say whether it is single or multiple)."""
    after = engine.apply(state, move)
    # (A build of cards in play alone, build.free_actions, is found by its table cards.)
    return next((b for b in after.builds if b.cards & (move.played or move.loose)), None)


def move_words(engine: Engine, state: HandState, move: Move) -> str:
    """A legal move in a player's words: ``take 9♣ 4♦ 5♥ with 9♦``, ``build 8 on 5♠ with 3♥: a single build``."""
    deck = engine.deck
    played = _words(deck, move.played)
    builds = [f"the build of {next((b.value for b in state.builds if b.cards == m), '?')} ({_words(deck, m)})"
              for m in move.builds]
    loose = _words(deck, move.loose & state.table)
    parts = ([loose] if loose else []) + builds
    piled = move.loose & ~state.table   # African Casino: opponents' pile cards, named where they lie
    if piled:
        tops = piled & sum(1 << stack[-1] for stack in state.stacks if stack)
        under = piled & ~tops          # (capture.pile_cards: augment) uncovered by a top taken in the move
        parts.append(f"{_words(deck, tops)} from the top of an opponent's pile"
                     + (f" and {_words(deck, under)} from beneath it" if under else ""))
    if move.kind is MoveKind.END:
        return f"end the turn (you played {_words(deck, state.turn_card)})" if state.turn_card else "end the turn"
    if move.kind is MoveKind.TRAIL:
        return f"trail {played}"
    if move.kind is MoveKind.CAPTURE:
        return f"take {' and '.join(parts)} with {played}"
    made = _new_build(engine, state, move)
    kind = "a multiple" if made is not None and made.multiple else "a single"
    head = "trail" if move.kind is MoveKind.TRAIL_BUILD else "build"
    whose = _whose(state, move, made)
    if not move.played:   # a build of cards in play alone (build.free_actions): no card from the hand
        return (f"build {move.value} on {' and '.join(parts)}, no card from your hand: {kind} build of "
                f"{move.value}{whose}")
    return f"{head} {move.value} on {' and '.join(parts)} with {played}: {kind} build of {move.value}{whose}"


def _whose(state: HandState, move: Move, made: Build | None) -> str:
    """Whose the build a move leaves is to take, where that is not plainly the mover's: made for the partner's
    value, or another's build taken over by adding to it keeping a card of its value (``build.for_partner``; a
    player's audit took over a partner's build by an offer that did not say so)."""
    if made is None:
        return ""
    seat = state.turn
    if made.holder != seat:
        return ", your partner's to take" if state.teams[made.holder] == state.teams[seat] else ""
    if any(b.holder != seat for b in state.builds if b.cards in move.builds):
        return ", now yours to take"
    return ""


def move_view(engine: Engine, state: HandState, move: Move) -> dict[str, Any]:
    """A legal move with the ids of what it uses, for the browser to match clicks against."""
    deck = engine.deck
    loose = in_play_ids(deck, state)
    items = [build_id(deck, m) for m in move.builds] + [
        loose[i] for i in sorted(_indices(move.loose), key=lambda i: (deck.rank_index[i], i))]
    return {"text": format_move(move, deck), "kind": move.kind.value,
            "played": zone_ids(deck, state.hands[state.turn], move.played),
            "items": items, "words": move_words(engine, state, move)}


def pile_top(deck: Deck, h: HandState, seat: int) -> str | None:
    """The face-up top card of ``seat``'s side's capture pile, where piles are in play (African
    Casino), shown at the seat that took it (:func:`pile_seat`); None elsewhere. Public: every
    viewer sees it."""
    side = h.teams[seat]
    if pile_seat(h, side) != seat:
        return None
    stack = h.stacks[side]
    # The id moves name it by (its name; with two packs and its twin on the table, `NAME~2`).
    return in_play_ids(deck, h).get(stack[-1], cards_text(deck, 1 << stack[-1])[0])


def pile_reach(deck: Deck, h: HandState, seat: int) -> list[str]:
    """The cards of ``seat``'s side's pile a move may use, top first (the top alone, or, where a move
    reaches under it, ``capture.pile_cards: augment``, up to ``h.pile_reach`` of them, each in play
    once the one above is taken), shown with the top (:func:`pile_seat`); [] elsewhere. Named by the
    ids moves use, as :func:`pile_top`. Public: every viewer sees them."""
    side = h.teams[seat]
    if pile_seat(h, side) != seat:
        return []
    stack = h.stacks[side]
    ids = in_play_ids(deck, h)
    return [ids.get(i, cards_text(deck, 1 << i)[0]) for i in reversed(stack[-h.pile_reach:])]


def seat_label(kinds: list[str], seat: int, viewer: int | None) -> str:
    """``seat 1 (greedy)``, ``seat 0 (you)``, ``seat 2 (a person)``."""
    if seat == viewer:
        return f"seat {seat} (you)"
    kind = kinds[seat] if 0 <= seat < len(kinds) else "?"
    return f"seat {seat} ({'a person' if kind == 'human' else kind})"


def side_label(kinds: list[str], seats: tuple[int, ...] | list[int], viewer: int | None) -> str:
    """A side as the table names it: its seat's label where it is one seat (``seat 0 (you)``), else ``seats 0+2``."""
    return seat_label(kinds, seats[0], viewer) if len(seats) == 1 else side_name(tuple(seats))


@dataclass
class Told:
    """What the table says beside a hand's actions that the actions do not show, as the terminal says it
    (``said.sweep_words``, ``said.deal_words``): the sweeps an action made with what they score, by the
    action's place in the hand's log (the game it was played in, its move and the hand after it); and what a
    deal did as it was dealt (the cards it laid on the table, too few to give each player one; the dealer's take
    of the table at Escoba), by the number of the hand's actions before it (the game as dealt); and a claim
    (``said.claim_made``, ``said.claim_verdict``: what it claimed, whether it was right, who wins by it), by the
    claim's place in the hand's log (the games before and after it, the claimant's seat: a player's audit saw a
    computer's claim end the game with no word). Kept as the games they are read from, and worded as each view
    is made: every viewer names the seats its own way (``seat 0 (you)``), and the wording asks nothing of the
    engine."""

    swept: dict[int, tuple[Any, Move, HandState]] = field(default_factory=dict)
    dealt: dict[int, Any] = field(default_factory=dict)
    claimed: dict[int, tuple[Any, Any, int]] = field(default_factory=dict)

    def copy(self) -> "Told":
        return Told(dict(self.swept), dict(self.dealt), dict(self.claimed))


def swept_by(before: Any, action: str, after: Any) -> tuple[Any, Move, HandState] | None:
    """What :class:`Told` keeps of ``action`` (from the game ``before`` to ``after``) where it swept: the game
    before, the move and the hand after it; None where it swept nothing. The hand after is ``after``'s where the
    hand goes on; where the action ended it, it is worked out again (before the next hand is dealt), as the
    terminal does (``said.new_sweeps``): the cards left at the end may count as a sweep."""
    if action.startswith("claim"):
        return None
    same = after.hand_no == before.hand_no and len(after.results) == len(before.results)
    if same and len(after.hand.sweeps) == len(before.hand.sweeps) and len(after.hand.events) == len(before.hand.events):
        return None   # (most moves: nothing to read again)
    move = parse_move(action, before.engine.deck)
    finished = after.hand if same else before.engine.play(before.hand, move)
    # (a scoring event, Tuxedo's orange, is said as a sweep is: ``said.event_words``)
    made = len(finished.sweeps) > len(before.hand.sweeps) or len(finished.events) > len(before.hand.events)
    return (before, move, finished) if made else None


def claimed_by(before: Any, action: str, after: Any) -> tuple[Any, Any, int] | None:
    """What :class:`Told` keeps of ``action`` (from the game ``before`` to ``after``) where it is a claim
    (``claim SEAT``): the games before and after it and the claimant's seat, for the terminal's words
    (``said.claim_made``, ``said.claim_verdict``); None for any other action."""
    words = action.split()
    if len(words) != 2 or words[0] != "claim" or not words[1].isdigit():
        return None
    return before, after, int(words[1])


def dealt_with(before: Any | None, after: Any) -> Any | None:
    """``after`` where a deal was dealt with it (``before``: the game before, None at the game's start) that did
    something the table does not show (``said.deal_words``); else None."""
    if after.over or (before is not None and after.hand_no == before.hand_no
                      and after.hand.deal_no == before.hand.deal_no):
        return None
    return after if deal_words(after, str) else None


def log_view(entries: Iterable[tuple[int, str]], several: bool = False, told: Told | None = None,
             name_seat: Namer = lambda seat: f"seat {seat}", name_side: Namer | None = None) -> list[dict[str, Any]]:
    """The hand's history, a turn an entry (``summary.turns_of``: ``several``, a turn of several actions on one
    line, its `end` left out), with what the table says beside it (``told``), seats named by ``name_seat`` and
    sides by ``name_side``: a turn that swept says so and what the sweep scores (``said``), a claim what it claimed
    (``text``) and whether it was right (``said``: :func:`claim_entry`), and what a deal did as it was dealt is an
    entry of its own where the deal began (``seat`` None, ``deal`` its number)."""
    log = list(entries)
    told = told or Told()

    def dealt(place: int) -> list[dict[str, Any]]:
        game = told.dealt.get(place)
        if game is None:
            return []
        return [{"seat": None, "deal": game.hand.deal_no, "text": words} for words in deal_words(game, name_seat)]

    out: list[dict[str, Any]] = []
    for (seat, text), (_, places) in zip(turns_of(log, several), turn_places(log, several)):
        for k in places:
            out += dealt(k)
        claimed = [told.claimed[k] for k in places if k in told.claimed]
        if claimed:   # (a claim is an entry of its own)
            out.append(claim_entry(seat, *claimed[0], name_side))
            continue
        entry: dict[str, Any] = {"seat": seat, "text": text}
        said = [sweep_words(before, move, name_seat, name_side, finished)
                for before, move, finished in (told.swept[k] for k in places if k in told.swept)]
        if any(said):
            entry["said"] = "; ".join(words for words in said if words)
        out.append(entry)
    return out + dealt(len(log))


def claim_entry(seat: int, before: Any, after: Any, claimant: int, name_side: Namer | None) -> dict[str, Any]:
    """A claim's line in the hand's log, its seat named once, before it, as every line's is (a player's audit
    read "seat 1 (greedy): claims the game: seat 1 (greedy) claims to have reached 11 points ..."): what it
    claimed (``said.claim_made``) and whether it was right (``said.claim_verdict``), the terminal's words after
    its name: ``claims to have reached 11 points`` and ``right, with 11 counting this hand so far, and wins the
    game``."""
    return {"seat": seat, "text": claim_made(before), "said": claim_verdict(before, after, claimant, name_side)}


#: Each table's example moves, worked out once per engine (the engine checks every candidate).
_EXAMPLES: dict[int, tuple[Engine, list[dict[str, str]]]] = {}


def example_moves(engine: Engine) -> list[dict[str, str]]:
    """The variant's example moves for the page's "type a move" help: each one the engine allows.

    Served on their own (``/examples/TABLE``), never in a seat's messages: they name fixed cards, the
    same in every deal, and a seat's messages name no card hidden from it, not even by way of example."""
    kept = _EXAMPLES.get(id(engine))
    if kept is None or kept[0] is not engine:
        kept = _EXAMPLES[id(engine)] = (engine, [{"text": e.text, "means": e.means}
                                                 for e in move_examples(engine.rules, engine)])
    return kept[1]


def static_view(rules: Any, deck: Deck, source: str) -> dict[str, Any]:
    """What never changes at a table: the variant's words and how its cards are drawn and typed (public).

    Sent once to each browser, in its welcome, not in every state: a variant's description may be long."""
    return {"variant": {"name": rules.name, "description": rules.description, "source": source},
            "deck": deck_view(deck), "typing": typing_words(deck),
            # (a turn may hold builds of cards in play alone: table cards may be clicked with no hand card)
            "free_actions": bool(rules.build.free_actions),
            # (how such a turn is played and typed, as the terminal's `help` says it: the page's "How to play" said
            # nothing of `end` or of a turn typed whole, a player's audit)
            "turns": TURN_WORDS if rules.build.free_actions else None}


#: How a turn of several actions is played, for the page's "How to play" (commands in backticks, shown as code).
TURN_WORDS = ("A turn holds one card from your hand and, before or after it, any builds of cards in play alone "
              "(click table cards with no card from your hand, or type `build 10 on 5S 3D 2C`); once the hand card "
              "is played, End the turn ends it (typed `end`). Type one action at a time, or a whole turn joined by "
              "`;`: `build 10 on 5S 3D 2C; 9D capture 9C`.")


def turn_so_far(hand_log: list[tuple[int, str]], seat: int) -> str | None:
    """The actions ``seat`` has made in its turn under way (the hand's last actions, not yet ended), if any."""
    if not hand_log or hand_log[-1][0] != seat or hand_log[-1][1] == "end":
        return None
    return turns_of(hand_log, True)[-1][1]


def seat_view(*, table_id: str, game: Any, kinds: list[str], viewer: int | None, hand_log: list[tuple[int, str]],
              moves: list[dict[str, Any]], connected: Iterable[int], can_undo: bool,
              told: Told | None = None) -> dict[str, Any]:
    """The hand in play as ``viewer`` may see it (``None``: a watcher, who sees no hand).

    ``moves`` are the viewer's legal moves as :func:`move_view` gives them (empty unless it is their
    turn), worked out beforehand: nothing here asks the engine for moves. The table's fixed parts are
    in :func:`static_view`. ``told``: what is said beside the hand's actions (:class:`Told`), in its log and
    beside each seat's last turn.
    """
    h: HandState = game.hand
    engine: Engine = game.engine
    deck = engine.deck
    rules = game.rules
    online = set(connected)
    teams = side_seats(h.teams)
    log = log_view(hand_log, rules.build.free_actions, told, lambda seat: seat_label(kinds, seat, viewer),
                   lambda side: side_label(kinds, teams[side], viewer))
    # (each seat's last turn as its line in the log says it: a turn of several actions shown whole, not as its
    # `end`, a player's audit of the browser table; a claim as what it claimed, its seat named once; and what
    # the turn swept, beside it)
    last = {entry["seat"]: entry["text"] for entry in log if entry["seat"] is not None}
    last_said = {entry["seat"]: entry.get("said", "") for entry in log if entry["seat"] is not None}
    seats = []
    for s in range(h.players):
        sweeps = sum(1 for w in h.sweeps if w.seat == s and not w.cancelled)
        seats.append({"seat": s, "kind": kinds[s], "name": seat_label(kinds, s, viewer), "side": h.teams[s],
                      "held": bin(h.hands[s]).count("1"), "taken": bin(h.piles[s]).count("1"), "sweeps": sweeps,
                      "last": last.get(s, ""), "last_said": last_said.get(s, ""),
                      "connected": kinds[s] != "human" or s in online,
                      "top": pile_top(deck, h, s), "pile": pile_reach(deck, h, s)})
    # Each side's score, its cards taken, and where piles are in play its pile's top and the seat it
    # is shown at (the seat that took it).
    sides = [{"side": side, "name": side_name(members), "seats": list(members), "score": game.scores[side],
              "taken": sum(seats[s]["taken"] for s in members), "pile_seat": pile_seat(h, side),
              "top": next((seats[s]["top"] for s in members if seats[s]["top"]), None)}
             for side, members in teams.items()]
    mine = viewer is not None and 0 <= viewer < h.players
    view: dict[str, Any] = {
        "type": "state",
        "table": table_id,
        "hand_no": game.hand_no, "deal_no": h.deal_no, "ply": h.ply,
        "you": viewer if mine else None,
        "seats": seats, "sides": sides,
        "target": game.target, "lowest": rules.game.goal == "lowest", "dealer": h.dealer, "turn": None if game.over else h.turn,
        "stock": len(h.stock),
        "loose": zone_ids(deck, h.table),
        # (in the places they were first made, not the state's order: a raised build jumped to the end of the row)
        "builds": [build_view(deck, b) for b in builds_in_place(game)],
        "hand": zone_ids(deck, h.hands[viewer]) if viewer is not None and mine else [],
        "moves": list(moves) if mine else [],
        "log": log,
        # (the actions of a turn under way before its card from the hand: the banner says the turn goes on)
        "turn_so_far": turn_so_far(hand_log, h.turn) if rules.build.free_actions and not game.over else None,
        "over": game.over,
        "outcome": outcome(game),
        "winner": game.winner,
        "can": {"undo": can_undo, "hint": mine and bool(moves), "claim": mine and rules.game.claiming and not game.over},
    }
    return view


def summary_view(summary: HandSummary, kinds: list[str], viewer: int | None,
                 hand_log: list[tuple[int, str]], several: bool = False, told: Told | None = None) -> dict[str, Any]:
    """A finished hand's scoring (``apps/game/summary.py``'s values) and its moves, with what was said beside
    them (``told``: its sweeps, its deals), for the end-of-hand panel."""
    def who(side: int) -> str:
        return side_label(kinds, summary.seats[side], viewer)

    sides = list(summary.seats)
    return {
        "type": "hand_end",
        "hand_no": summary.hand_no,
        "sides": [{"side": s, "name": who(s), "seats": list(summary.seats[s])} for s in sides],
        "items": [{"name": i.name, "label": i.label, "what": i.what, "count": i.count,
                   "cells": [{"points": i.points.get(s, 0), "counted": i.counted[s],
                              "tally": None if i.count == "last_capture" else i.tally.get(s, 0)} for s in sides]}
                  for i in summary.items],
        "hand_points": [summary.hand_points.get(s, 0) for s in sides],
        "scores_before": [summary.scores_before[s] for s in sides],
        "scores_after": [summary.scores_after[s] for s in sides],
        "leftover": list(summary.leftover),
        "leftover_to": None if summary.leftover_to is None else seat_label(kinds, summary.leftover_to, viewer),
        "notes": list(summary.notes),
        "target": summary.target, "lowest": summary.lowest,
        "winner": None if summary.winner is None else who(summary.winner),
        "ended_by": how_ended(summary.ended_by, summary.lowest, summary.target),
        "log": log_view(hand_log, several, told, lambda seat: seat_label(kinds, seat, viewer), who),
    }

"""A second, clean-room reading of the observation tensor's pieces, from docs/research.md alone.

Written from the doc's paragraph "A tensor is named pieces laid over one flat float32 array ..." and its
table of pieces, and from the public engine types (``HandState``, ``Build``, ``Sweep``, ``Game``, ``Deck``),
without reading the code that writes the tensors (``cassino.apps.research``). It recomputes, from the
position the public engine objects give (``CassinoState.cassino_game``, the engine's ``Game``), the pieces
``seat``, ``to_play``, ``dealer``, ``hand_sizes``, ``table``, ``builds``, ``captured``, ``pile_tops``,
``sweeps``, ``scores``, ``stock``, ``hand`` / ``hands``, and compares them with the real observer's
(``open_spiel.python.observation.make_observation`` then ``set_from`` and ``dict``).

Readings chosen where the doc leaves a choice (doc words -> ambiguity -> reading):

1. "a card plane has a place per card" -> which place is which card -> the engine's deck numbering
   (``deck.cards[i]`` is place i), which is the doc's "deck order: ace to king of spades, then hearts,
   diamonds, clubs" used for the actions.
2. "two packs counting a place's copies by name, lowest first" -> how a plane shows k copies of one card
   name -> the first k of that name's places (``deck.copies(card)``, lowest first) are 1, whichever copies
   the engine holds.
3. "B = N / 2 build places" and "per build place" -> which build goes in which place -> the builds in the
   engine's order (``HandState.builds[i]`` in place i), the places after the last build all zeros.
4. "`builds` ... B x (N+P+V+1): its cards, owner, value, multiple or not" -> layout of a row and how the
   owner and the value are encoded -> the row is [card plane (N) | owner one-hot over seats (P) | value
   one-hot (V) | multiple (1)], in the order the doc lists them; the owner is ``Build.owner`` (who last
   added to it, per its docstring), not ``Build.holder``.
5. "V build values" -> which values, in which order -> the values a build can be announced as: every
   number value a card may count from the hand (``deck.hand_values``), lowest first, then every rank that
   has no number value (``hand_values`` empty: pairs by rank), in rank order; one-hot at the value's index.
   (This makes V = 13 in standard, 14 in Royal, 15 in Finnish Kasino (2 to 16), 10 in Scopa, consistent
   with the doc's action counts 149 / 150 / 151 / 116, which differ by their numbers of build values.)
6. "`sweeps` | P | each seat's sweeps still counting" -> per seat or per side; what "still counting" is
   -> per seat (the sweeps that seat made), counting ``Sweep`` records with ``cancelled`` false.
7. "`scores` | P | the score of each seat's side" -> the game score or the standing with points pegged in
   this hand -> ``Game.scores[side of seat]`` (the engine's "each side's game score").
8. "`stock` | 1 | the cards left to deal" -> ``len(HandState.stock)``; at a chance node, the cards not yet
   dealt (see 10).
9. "`to_play` | P | one-hot: the seat to act (zeros at chance nodes and the end)" -> the hand's ``turn``
   at decision nodes, all zeros at chance nodes and at the terminal state.
10. Chance nodes: the doc says "Each dealt card is a chance node choosing it among the cards not yet
   dealt" and that the record of "a deal under way says the cards chosen so far", but not what the
   position pieces show during a deal -> reading: the position as it stands, the cards dealt so far in
   their places (table or the seat's hand) and those not yet dealt still in the stock. Computed by
   finishing the deal on a clone up to the next decision node (the first outcome each time, else up to 39
   seeded random completions) and taking the cards that completion dealt out again (back into the stock
   count). A completion is used only where every card it dealt is where it was dealt once the deal is done
   and every card dealt before it is still on the table or in a hand (no deal rule, such as Escoba's
   dealer taking a table of 15, moved them); where none is, the reference says it cannot tell
   (``Unknown``) and the position is not compared (the sweep counts these).
11. "`captured` | P x N | each seat's captured cards" -> ``HandState.piles[seat]``.
12. "`pile_tops` | P x N | ... the face-up top card of each seat's side's pile" -> plane s is the last card
   of ``HandState.stacks[teams[s]]`` (the pile's top), or zeros where that pile is empty; the piece exists
   only where capture piles are in play (``stacks`` not empty).
13. "`hand` / `hands` | N / P x N" -> ``hand`` is ``hands[player]``'s plane (``SINGLE_PLAYER``); ``hands``
   row s is seat s's hand (``ALL_PLAYERS``).
14. The end (a terminal state): "zeros at chance nodes and the end" says only ``to_play`` -> the other
   pieces show the position the hand ended in (the last move played, the hand over: the table's last cards
   taken where the rules give them away), with the scores once the hand is scored. The engine's game at a
   one-hand game's end may already have dealt the next hand (its target not reached): that next deal is not
   the position, so the last hand's end is rebuilt (``_final``).
"""

from __future__ import annotations

import collections
import random
import re
from typing import Any, Iterable

import numpy as np

PIECES = ("seat", "to_play", "dealer", "hand_sizes", "table", "builds", "captured", "pile_tops", "sweeps",
          "scores", "stock", "hand", "hands")

_DEAL = re.compile(r"^deal (\S+) to (?:the (table)|seat (\d+))$")


class Unknown(Exception):
    """The reference cannot tell this position (a deal rule moved a dealt card)."""


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def _names(deck: Any, mask: int) -> collections.Counter:
    """A mask as counts of card names, each name keyed by its lowest copy's index."""
    counts: collections.Counter = collections.Counter()
    for card in deck.cards_of(mask):
        counts[deck.copies(card)[0]] += 1
    return counts


def _plane(deck: Any, names: collections.Counter) -> np.ndarray:
    out = np.zeros(len(deck.cards), np.float32)
    for first, k in names.items():
        copies = deck.copies(deck.cards[first])
        if k > len(copies):
            raise AssertionError(f"{k} copies of {deck.cards[first]} in one plane")
        for i in copies[:k]:
            out[i] = 1.0
    return out


def _onehot(i: int | None, n: int) -> np.ndarray:
    out = np.zeros(n, np.float32)
    if i is not None:
        out[i] = 1.0
    return out


def build_values(deck: Any) -> list[int | str]:
    """Reading 5: the number values a card may count from the hand, lowest first, then the ranks without."""
    numbers = sorted({v for values in deck.hand_values for v in values})
    valueless: list[str] = []
    for i, card in enumerate(deck.cards):
        if not deck.hand_values[i] and card.rank not in valueless:
            valueless.append(card.rank)
    valueless.sort(key=deck.ranks.index)
    return [*numbers, *valueless]


def _position(state: Any) -> tuple[Any, Any, list[collections.Counter], collections.Counter, int]:
    """(game, hand, hand names per seat, table names, stock count) for ``state`` (reading 10 at chance nodes)."""
    if state.is_terminal():
        return _final(state)
    if not state.is_chance_node():
        game = state.cassino_game
        hand = game.hand
        deck = game.engine.deck
        return game, hand, [_names(deck, m) for m in hand.hands], _names(deck, hand.table), len(hand.stock)
    # the cards this deal has dealt so far: the chance actions at the end of the history (names only)
    so_far = []
    for step in reversed(state.full_history()):
        if step.player >= 0:
            break
        m = _DEAL.match(state.action_to_string(step.player, step.action))   # the card's name in any state
        if m is None:
            raise Unknown("a chance outcome the reference does not read")
        so_far.append(m.group(1))
    problem = "no completion tried"
    for attempt in range(40):
        pick = random.Random(attempt)
        rest = state.clone()
        completion: list[tuple[str, int | None]] = []
        while rest.is_chance_node():
            outcomes = [a for a, _ in rest.chance_outcomes()]
            action = outcomes[0] if attempt == 0 else pick.choice(outcomes)
            text = rest.action_to_string(rest.current_player(), action)
            m = _DEAL.match(text)
            if m is None:
                raise Unknown(f"a chance outcome the reference does not read: {text!r}")
            completion.append((m.group(1), None if m.group(2) else int(m.group(3))))
            rest.apply_action(action)
        game = rest.cassino_game
        hand = game.hand
        if rest.is_terminal():
            raise Unknown("a deal that ends the game")
        deck = game.engine.deck
        hands = [_names(deck, m) for m in hand.hands]
        table = _names(deck, hand.table)
        try:
            for name, seat in completion:
                key = deck.copies(deck.parse(name))[0]
                where = table if seat is None else hands[seat]
                if where[key] <= 0:
                    raise Unknown(f"{name} dealt to {'the table' if seat is None else f'seat {seat}'} is not "
                                  "there once the deal is done")
                where[key] -= 1
            held = sum(hands, collections.Counter()) + table
            for name in so_far:
                key = deck.copies(deck.parse(name))[0]
                if held[key] <= 0:
                    raise Unknown(f"{name}, dealt before, is neither on the table nor in a hand once the deal "
                                  "is done")
                held[key] -= 1
        except Unknown as e:
            problem = str(e)
            continue
        return game, hand, hands, table, len(hand.stock) + len(completion)
    raise Unknown(problem)


def _final(state: Any) -> tuple[Any, Any, list[collections.Counter], collections.Counter, int]:
    """The position a game ends in (reading 14): the engine's game once the hand was played out.

    Where the engine's game has gone on to deal another hand (a game of one hand where the variant's target
    is not reached), the hand's last position is rebuilt: the last turn's start is found by replaying the
    history, its move is the legal move whose actions (``CassinoState.actions_for``) are the actions taken
    since, and ``Engine.apply`` plays it. The scores stay the ended game's (``cassino_game.scores``).
    """
    game = state.cassino_game
    hand = game.hand
    if not hand.over and not game.over:        # (a game won by points pegged as won ends mid-hand)
        history = state.history()
        replay = state.get_game().new_initial_state()
        starts: list[tuple[Any, int]] = []            # (state at a decision node, its history length)
        for i, action in enumerate(history):
            if not replay.is_chance_node():
                starts.append((replay.clone(), i))
            replay.apply_action(action)
        last = starts[-1][0].cassino_game.hand
        candidates = [(s, i) for s, i in starts if s.cassino_game.hand == last]
        node, at = candidates[0]
        engine = node.cassino_game.engine
        suffix = history[at:]
        moves = [m for m in engine.legal_moves(last) if list(node.actions_for(m)) == list(suffix)]
        if len(moves) != 1:
            raise Unknown(f"the last move is not one legal move of its turn's start ({len(moves)} match)")
        hand = engine.apply(last, moves[0])
        if not hand.over:
            raise Unknown("the last move does not end the hand")
    deck = game.engine.deck
    return game, hand, [_names(deck, m) for m in hand.hands], _names(deck, hand.table), len(hand.stock)


def expected(state: Any, player: int) -> dict[str, np.ndarray]:
    """The pieces the doc describes, for ``player``'s view of an OpenSpiel ``python_cassino`` state.

    ``pile_tops`` only where capture piles are in play; both ``hand`` and ``hands`` (the caller keeps the
    one its observer has). Raises :class:`Unknown` where the reference cannot tell the position.
    """
    game, hand, hands, table, stock = _position(state)
    deck = game.engine.deck
    players = hand.players
    n = len(deck.cards)
    values = build_values(deck)
    out: dict[str, np.ndarray] = {}
    out["seat"] = _onehot(player, players)
    decision = not state.is_chance_node() and not state.is_terminal()
    out["to_play"] = _onehot(hand.turn if decision else None, players)
    out["dealer"] = _onehot(hand.dealer, players)
    out["hand_sizes"] = np.array([sum(h.values()) for h in hands], np.float32)
    out["table"] = _plane(deck, table)
    builds = np.zeros((n // 2, n + players + len(values) + 1), np.float32)
    for place, build in enumerate(hand.builds):
        builds[place, :n] = _plane(deck, _names(deck, build.cards))
        builds[place, n + build.owner] = 1.0
        builds[place, n + players + values.index(build.value)] = 1.0
        builds[place, -1] = float(bool(build.multiple))
    out["builds"] = builds
    out["captured"] = np.stack([_plane(deck, _names(deck, pile)) for pile in hand.piles])
    if hand.stacks:
        tops = np.zeros((players, n), np.float32)
        for seat in range(players):
            stack = hand.stacks[hand.teams[seat]]
            if stack:
                tops[seat] = _plane(deck, _names(deck, 1 << stack[-1]))
        out["pile_tops"] = tops
    out["sweeps"] = np.array([sum(1 for s in hand.sweeps if s.seat == seat and not s.cancelled)
                              for seat in range(players)], np.float32)
    out["scores"] = np.array([game.scores[hand.teams[seat]] for seat in range(players)], np.float32)
    out["stock"] = np.array([stock], np.float32)
    out["hand"] = _plane(deck, hands[player])
    out["hands"] = np.stack([_plane(deck, h) for h in hands])
    return out


# ---------------------------------------------------------------------------------------------- comparing

def observers(game: Any) -> dict[str, Any]:
    """The real observers: a seat's own hand, and every hand."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    kinds = {"own": pyspiel.PrivateInfoType.SINGLE_PLAYER, "all": pyspiel.PrivateInfoType.ALL_PLAYERS}
    return {name: make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                                                      private_info=kind))
            for name, kind in kinds.items()}


def compare(state: Any, player: int, obs: dict[str, Any]) -> list[tuple[str, str]]:
    """The pieces where the real observers differ from the reference: (piece, what differs)."""
    want = expected(state, player)
    found: list[tuple[str, str]] = []
    for kind, observer in obs.items():
        observer.set_from(state, player)
        got = observer.dict
        for piece in PIECES:
            if piece == "hand" and kind != "own" or piece == "hands" and kind != "all":
                if piece in got:
                    found.append((piece, f"present in the {kind} view"))
                continue
            if piece not in want:
                if piece in got:
                    found.append((piece, "present where the reference has no such piece"))
                continue
            if piece not in got:
                found.append((piece, f"missing from the {kind} view"))
                continue
            real = np.asarray(got[piece])
            if real.shape != want[piece].shape:
                found.append((piece, f"shape {real.shape}, expected {want[piece].shape}"))
            elif not np.array_equal(real, want[piece]):
                diff = np.argwhere(real != want[piece])
                at = tuple(int(x) for x in diff[0])
                found.append((piece, f"{len(diff)} places differ, first {at}: got {real[at]}, "
                                     f"expected {want[piece][at]}"))
    # one message per piece and position, whichever view showed it first
    seen: dict[str, str] = {}
    for piece, what in found:
        seen.setdefault(piece, what)
    return list(seen.items())


def play(params: dict[str, Any], seed: int, *, hands: int | None = None) -> Iterable[Any]:
    """The states of one random game (chance and decisions drawn from ``seed``), the first included."""
    import random

    import pyspiel

    import cassino.openspiel  # noqa: F401  (registers python_cassino)

    game = pyspiel.load_game("python_cassino", params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        yield state


def seatings(variant: str) -> list[tuple[int, bool]]:
    """Every seating a bundled variant allows: 2 to its most players, with and without partners where both."""
    from cassino.language.variants import load_rules

    seats = load_rules(variant).seats
    out = []
    for n in range(seats.min_players, seats.max_players + 1):
        teams = n in seats.partnership_players and seats.partnerships != "never"
        if seats.partnerships != "always" or not teams:
            out.append((n, False))
        if teams:
            out.append((n, True))
    return out


def _cover(counts: collections.Counter, state: Any) -> None:
    """What a compared state exercised (states, not seats): the kinds of node and the rarer pieces' cases."""
    kind = "chance" if state.is_chance_node() else "terminal" if state.is_terminal() else "decision"
    counts[f"{kind} nodes"] += 1
    if kind == "chance":
        return
    game, hand, _, _, _ = _position(state)
    deck = game.engine.deck
    counts["with builds"] += bool(hand.builds)
    counts["with a multiple build"] += any(b.multiple for b in hand.builds)
    counts["with a build valued by rank"] += any(isinstance(b.value, str) for b in hand.builds)
    counts["with a build owned by another seat than the mover"] += any(b.owner != hand.turn for b in hand.builds)
    counts["with sweeps counting"] += any(not s.cancelled for s in hand.sweeps)
    counts["with a sweep cancelled"] += any(s.cancelled for s in hand.sweeps)
    counts["with a pile top"] += any(bool(stack) for stack in hand.stacks)
    counts["with scores not zero"] += any(game.scores)
    counts["with two copies of a name in one set"] += deck.packs > 1 and any(
        k > 1 for mask in (*hand.piles, *hand.hands, hand.table) for k in _names(deck, mask).values())


def sweep(variants: Iterable[str], seeds: Iterable[int], *, whole_game: bool = False, max_hands: int = 2,
          examples: int = 3) -> dict[str, Any]:
    """Random games of every seating of ``variants``, one a seed, compared at every node for every seat.

    Returns counts: ``games``, ``positions`` (state x seat compared), ``unknown`` (positions the reference
    could not tell), ``disagreements`` by piece, and up to ``examples`` reproductions per piece.
    """
    import pyspiel

    import cassino.openspiel  # noqa: F401  (registers python_cassino)

    seeds = list(seeds)
    result: dict[str, Any] = {"games": 0, "positions": 0, "unknown": 0, "seatings": 0,
                              "disagreements": collections.Counter(), "examples": collections.defaultdict(list),
                              "coverage": collections.Counter()}
    for variant in variants:
        for players, partners in seatings(variant):
            result["seatings"] += 1
            params: dict[str, Any] = {"variant": variant, "players": players, "partners": partners}
            if whole_game:
                params.update(whole_game=True, max_hands=max_hands)
            game = pyspiel.load_game("python_cassino", params)
            obs = observers(game)
            for seed in seeds:
                result["games"] += 1
                for node, state in enumerate(play(params, seed)):
                    for player in range(players):
                        try:
                            found = compare(state, player, obs)
                        except Unknown as e:
                            result["unknown"] += 1
                            if len(result["examples"]["(unknown)"]) < examples:
                                result["examples"]["(unknown)"].append(dict(params, seed=seed, node=node,
                                                                             player=player, what=str(e)))
                            continue
                        result["positions"] += 1
                        if player == 0:
                            _cover(result["coverage"], state)
                        for piece, what in found:
                            result["disagreements"][piece] += 1
                            if len(result["examples"][piece]) < examples:
                                result["examples"][piece].append(
                                    dict(params, seed=seed, node=node, player=player, what=what,
                                         kind="chance" if state.is_chance_node() else
                                         "terminal" if state.is_terminal() else "decision"))
    return result


if __name__ == "__main__":                                    # python tests/observation_reference.py
    import json
    import sys
    import time

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from conftest import VARIANTS

    t = time.time()
    seeds = range(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    whole = len(sys.argv) > 2 and sys.argv[2] == "whole"       # ... N whole [max_hands]
    res = sweep(VARIANTS, seeds, whole_game=whole, max_hands=int(sys.argv[3]) if len(sys.argv) > 3 else 2)
    res["seconds"] = round(time.time() - t, 1)
    print(json.dumps(res, indent=1, default=str))

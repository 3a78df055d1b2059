"""What a seat knows about the cards it cannot see, and deals consistent with it.

A seat sees its own hand, the table, the builds and every capture pile; the other
hands and the stock are hidden. What it can still infer from the public state: a
seat that holds a build keeps a card that captures it, and a seat that built for
its partner's card has proven it holds that value. From the moves of this deal
(``held_values``): a seat that built a value held a card of it, and holds one still
until it plays a card of that value, though its build was taken since. A
determinization deals the hidden cards at random within those constraints; the
search plays in many of them.

Optionally (``passed_up``, the search's ``infer``), what a seat did not do: a seat
that trailed or built when a card of some rank would have captured something
probably holds no such card, so the deal gives it other cards first (a preference,
not a certainty: players build instead of capturing on purpose).
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.core import Engine
from ..engine.movegen import bits, popcount
from ..engine.moves import Move, MoveKind
from ..engine.state import HandState
from .draws import shuffle


def public_cards(state: HandState) -> int:
    """The cards every seat can see: the table, the builds and the capture piles."""
    seen = state.table
    for b in state.builds:
        seen |= b.cards
    for pile in state.piles:
        seen |= pile
    return seen


def seen_by(state: HandState, seat: int) -> int:
    """The cards ``seat`` can see: its hand, the table, the builds and the capture piles."""
    return state.hands[seat] | public_cards(state)


def passed_up(engine: Engine, position: HandState, move: Move) -> int:
    """The cards that would have captured something in ``position`` when its player made
    ``move`` without capturing (0 after a capture): what that player probably did not hold.

    Reads only the public part of ``position`` (table, builds, piles, stock size, whose
    turn): each card nobody could see there is tried as the player's only card. Cards of
    the same rank and values capture alike, so each kind is tried once.
    """
    if move.kind == MoveKind.CAPTURE:
        return 0
    seat = position.turn
    public = public_cards(position)
    others = [0] * position.players
    stock = tuple(range(len(position.stock)))       # its size only (its cards are hidden)
    kinds: dict[tuple[str, tuple[int | str, ...]], bool] = {}
    mask = 0
    for i in range(engine.n_cards):
        if public >> i & 1:
            continue
        kind = (engine.rank_str[i], tuple(sorted(engine.captured_values(1 << i), key=str)))
        takes = kinds.get(kind)
        if takes is None:
            others[seat] = 1 << i
            probe = position.with_(hands=tuple(others), stock=stock)
            takes = any(m.kind == MoveKind.CAPTURE for m in engine.playable_moves(probe))
            kinds[kind] = takes
        if takes:
            mask |= 1 << i
    return mask


def held_values(engine: Engine, state: HandState, log: Any, seat: int) -> tuple[frozenset[int | str], ...]:
    """For each seat, the values the moves of this deal show it holds a card of, as ``seat`` sees them
    (``log``: ``Game.log``, the moves that led to ``state``, newest first; nothing for ``seat`` itself).

    A build is made for a value a card left in its holder's hand captures, so the seat that made a build
    it holds kept a card of its value; where the holder of a build must keep such a card
    (``build.keep_capturing_card``), it kept one after each of its moves while it held the build. It holds
    that card until it plays a card that captures the value (played cards are seen by all), even once the
    build is taken by another seat: a deal that gave it none would make its build an illegal move.
    Reads only what every seat sees (the moves, the builds and their holders).
    """
    chain: list[tuple[HandState, Move]] = []
    node = log
    deal = state.deal_no
    while node is not None:
        earlier, position, move = node
        if position.deal_no != deal:
            break
        chain.append((position, move))
        node = earlier
    if not chain:
        return ()
    keep = engine.tables.keep_capturing_card
    held: list[set[int | str]] = [set() for _ in range(state.players)]
    for k in range(len(chain) - 1, -1, -1):   # (oldest first: a card played after the build ends what it showed)
        position, move = chain[k]
        after = chain[k - 1][0] if k else state   # (the position the move led to)
        mover = position.turn
        if mover == seat:
            continue
        values = held[mover]
        if values and move.played:
            values -= engine.captured_values(move.played)
        if after.builds:
            values.update(_holding(after, position, mover, keep))
    return tuple(frozenset(v) for v in held)


def _holding(after: HandState, before: HandState, mover: int, keep: bool) -> list[int | str]:
    """The values ``mover`` shows it holds a card of once its move led from ``before`` to ``after``: its builds
    made by the move, and where holders keep a card (``keep``), every build it holds."""
    out: list[int | str] = []
    for b in after.builds:
        if b.holder == mover and (keep or b not in before.builds):
            out.append(b.value)
    return out


def determinize(engine: Engine, state: HandState, seat: int, rng: random.Random,
                avoid: tuple[int, ...] = (), held: tuple[frozenset[int | str], ...] = ()) -> HandState:
    """The hand as ``seat`` sees it, with every unseen card dealt at random.

    Seats that hold a build, or have proven a value by building for a partner,
    or shown by their builds of this deal that they hold a value (``held``, from
    ``held_values``), are first given a card of that value when one is unseen (``_reserved``: every
    such seat's cards chosen before any seat is dealt the rest, so a seat dealt first
    cannot take the only card of a value a later seat must hold). ``avoid``: for each
    seat, cards it probably does not hold (``passed_up``); it gets other unseen cards
    first, and those only when too few others are left. With nothing left in the
    stock and one other hand holding cards, the result is the true position.
    """
    seen = seen_by(state, seat)
    unseen = bits(((1 << engine.n_cards) - 1) & ~seen)   # (lowest first: the cards in deck order)
    shuffle(rng, unseen)     # as rng.shuffle(unseen), compiled
    hands = list(state.hands)
    reserved = _reserved(engine, state, seat, unseen, held)
    for other in range(state.players):
        if other == seat:
            continue
        size = popcount(state.hands[other])
        hand = reserved[other]
        count = popcount(hand)
        unlikely = avoid[other] if other < len(avoid) else 0
        if unlikely:
            k = len(unseen) - 1
            while count < size and k >= 0:
                if not unlikely >> unseen[k] & 1:
                    hand |= 1 << unseen.pop(k)
                    count += 1
                k -= 1
        for _ in range(size - count):
            hand |= 1 << unseen.pop()
        hands[other] = hand
    return state.with_hidden(tuple(hands), tuple(unseen))


def must_hold(state: HandState, seat: int, held: tuple[frozenset[int | str], ...] = ()) -> set[int | str]:
    """The values ``seat`` holds a card of, as the others know: its builds standing, the values proven for a partner,
    and those its builds of the deal show (``held``, from ``held_values``)."""
    needed: set[int | str] = {b.value for b in state.builds if b.holder == seat}
    if state.proven:
        needed |= state.proven[seat]
    if held:
        needed |= held[seat]
    return needed


def _reserved(engine: Engine, state: HandState, seat: int, unseen: list[int],
              held: tuple[frozenset[int | str], ...] = ()) -> list[int]:
    """For each seat other than ``seat``, the unseen cards it must be dealt: a card of each value
    it holds a build of, has proven, or is shown to hold (``held``; taken out of ``unseen``; 0 for ``seat``).

    Each value needed, seat by seat (values in text order), gets the first unseen card of it that
    no need took yet, unless the seat's cards so far already capture it or its hand is full. Where
    every such card is taken, a need that holds one gives it up for another card of its own value
    (augmenting paths, as in a bipartite matching): a card worth two values (an ace, 1 or 14) taken
    for one seat's 14 while another seat must hold a 1 and a king, also 14, is left. A need no deal can
    meet (nothing consistent with the seen cards) is left unmet, never refused.
    """
    players = state.players
    if not state.builds and not _proves(state) and not any(held):
        return [0] * players   # (no build held, no value proven or shown: nothing to reserve)
    wanted: list[tuple[int, int | str]] = []
    for other in range(players):
        if other == seat or not state.hands[other]:
            continue
        for value in sorted(must_hold(state, other, held), key=str):
            wanted.append((other, value))
    reserved = [0] * players
    if not wanted:
        return reserved
    # The candidates of each value, in the shuffled order.
    fits: dict[int | str, list[int]] = {}
    for _, value in wanted:
        if value not in fits:
            fits[value] = [i for i in unseen if value in engine.captured_values(1 << i)]
    holder_of: dict[int, int] = {}   # card -> index in ``wanted`` of the need it meets
    for k in range(len(wanted)):
        other, value = wanted[k]
        if popcount(reserved[other]) >= popcount(state.hands[other]) or value in engine.captured_values(
                reserved[other]):
            continue
        card = -1
        for i in fits[value]:
            if i not in holder_of:
                card = i
                break
        if card < 0:
            card = _reroute(wanted, fits, holder_of, k, set())
        if card >= 0:
            holder_of[card] = k
            reserved = _masks(wanted, holder_of, players)
    taken = 0
    for mask in reserved:
        taken |= mask
    if taken:
        unseen[:] = [i for i in unseen if not taken >> i & 1]
    return reserved


def _proves(state: HandState) -> bool:
    """Whether some seat is proven to hold a value (``state.proven``)."""
    for values in state.proven:
        if values:
            return True
    return False


def _masks(wanted: list[tuple[int, int | str]], holder_of: dict[int, int], players: int) -> list[int]:
    """Each seat's reserved cards as a mask, from the card-to-need map."""
    out = [0] * players
    for i, need in holder_of.items():
        out[wanted[need][0]] |= 1 << i
    return out


def _reroute(wanted: list[tuple[int, int | str]], fits: dict[int | str, list[int]], holder_of: dict[int, int],
             k: int, visited: set[int]) -> int:
    """A card of need ``k``'s value freed for it by moving the needs that hold such cards to other
    cards of their own values (recursively), or -1; ``holder_of`` is updated for the needs moved,
    and the card returned is left for the caller to give to ``k``."""
    for i in fits[wanted[k][1]]:
        if i in visited:
            continue
        visited.add(i)
        other = holder_of.get(i, -1)
        if other < 0:
            return i
        for j in fits[wanted[other][1]]:
            if j not in holder_of and j not in visited:
                holder_of[j] = other
                del holder_of[i]
                return i
        moved = _reroute(wanted, fits, holder_of, other, visited)
        if moved >= 0:
            holder_of[moved] = other
            del holder_of[i]
            return i
    return -1

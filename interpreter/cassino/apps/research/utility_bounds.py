"""How many points a side can score: the utility bounds OpenSpiel asks a game for.

Why tight bounds matter: learning code scales returns by them (and some search
normalises values with them), so a bound a hundred times too wide squeezes every
real return towards zero. Each bound here is derived from the rules and is a true
upper bound (no game can exceed it); the docstrings say why.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...language.rules import Rules, ScoringItem


@dataclass(frozen=True)
class Bounds:
    """A side's most points in one hand, and the largest |return| of a game under ``payoff=points``."""

    hand: int          # the most one side can score in one hand
    game: int          # the most a seat's return can be, in absolute value (one hand or whole game)


def cards_per_seat(rules: Rules, n_cards: int, players: int) -> int:
    """The most cards one seat can receive in a hand.

    The table gets ``table_cards`` first; the rest goes round the seats ``hand_size``
    at a time, so a seat gets the full rounds plus its share of a short last round:
    the engine deals that evenly, ``left // players`` each (what cannot go round lies
    on the table). Where players draw one card after each play, the first seats may
    draw one more than the others: then at most one more hand.
    """
    hand_size, table_cards = rules.deal.for_players(players)   # (by the number of players: African Casino)
    rest = max(n_cards - table_cards, 0)
    per_round = players * hand_size
    if per_round <= 0:
        return rest
    rounds, left = divmod(rest, per_round)
    if rules.deal.draw_after_play:
        return rounds * hand_size + min(hand_size, left)
    return rounds * hand_size + left // players


def hand_total_can_fall(rules: Rules) -> bool:
    """Whether the sides' points in a hand can add up to less than 0. Every item gives 0 or more
    but a sweep's points to the player before the sweeper (a negative game's tabbe: +5 to the
    sweeper, -5 to the player before) and a first-play sweep's: a sweep adds its points plus
    the previous player's, whoever's side each is on, so the total falls only where that sum
    can be below 0."""
    for item in rules.scoring.items:
        if item.count != "sweeps":
            continue
        least = min([item.points] + [row.points for row in item.by_size] +
                    ([item.first_play_points] if item.first_play_points is not None else []))
        if least + item.previous_player_points < 0:
            return True
    return False


def scores_can_fall(rules: Rules) -> bool:
    """Whether a side's total can go below 0. Only two settings may be negative (the schema keeps
    every other item's points at 0 or more): a sweep's points to the player before the sweeper
    (a negative game's tabbe takes 5) and a first-play sweep's points."""
    return any(i.previous_player_points < 0 or (i.first_play_points or 0) < 0 for i in rules.scoring.items)


def _sweep_points(item: ScoringItem, size: int) -> int:
    for row in item.by_size:
        if size >= row.min_cards and (row.max_cards is None or size <= row.max_cards):
            return row.points
    return item.points


def most_sweep_points(item: ScoringItem, n_cards: int, plays: int) -> int:
    """The most a side's sweeps can earn in one hand.

    Each sweep is one of the side's plays (at most ``plays``) and takes at least one
    table card with a card from hand, so sweeps of sizes s1, s2, ... use
    (s1 + 1) + (s2 + 1) + ... <= N cards. The best mix of sizes under both limits is a
    small knapsack; one sweep (the hand's first play) may score ``first_play_points``.
    """
    n = n_cards
    worst = -1
    # best[k][c]: the most points from k sweeps using at most c cards (-1: impossible)
    best = [[0] * (n + 1)] + [[worst] * (n + 1) for _ in range(plays)]
    for k in range(1, plays + 1):
        for c in range(n + 1):
            top = best[k][c - 1] if c else worst
            for size in range(1, c):
                prev = best[k - 1][c - size - 1]
                if prev >= 0:
                    top = max(top, prev + _sweep_points(item, size))
            best[k][c] = top
    total = max(max(row[n] for row in best), 0)
    if item.first_play_points is not None and plays >= 1 and n >= 2:
        rest = max(max(row[n - 2] for row in best[:plays]), 0)
        total = max(total, abs(item.first_play_points) + rest)   # (a magnitude: it may be negative)
    return total


def hand_bound(rules: Rules, n_cards: int, players: int, side_seats: int, masks: dict[str, int],
               event_masks: dict[str, list[int]]) -> int:
    """The most one side can score in one hand: every item at its best for that side.

    A side plays at most ``side_seats * cards_per_seat`` times (each play uses a hand
    card); that caps its sweeps and its capture events. An event needs a card from each
    of its card sets, and every card is taken once, so it also happens at most as often
    as its smallest set has cards.
    """
    plays = side_seats * cards_per_seat(rules, n_cards, players)
    total = 0
    for item in rules.scoring.items:
        if item.count == "each":
            total += item.points * bin(masks[item.name]).count("1")
        elif item.count == "sweeps":
            total += most_sweep_points(item, n_cards, plays)
            # Points to the player before each sweeper (a negative game's tabbe: -5): every play of the
            # other sides may be a sweep after one of this side's, moving this side's points either way.
            others = (players - side_seats) * cards_per_seat(rules, n_cards, players)
            total += abs(item.previous_player_points) * others
        elif item.count == "event":
            sets = event_masks.get(item.event, [])
            most = min([plays] + [bin(m).count("1") for m in sets])
            total += item.points * most
        else:   # most, at_least, primiera, last_capture: once a hand
            total += item.points
    return max(total, 1)


def game_bound(rules: Rules, hand: int, sides: int, whole_game: bool, max_hands: int) -> int:
    """The largest |return| under ``payoff=points``: a seat's side minus the others' average
    (negated where the lowest total wins, which changes no magnitude).

    One hand: ``hand`` (see :func:`hand_bound`: it counts both a side's most points and
    its most lost to the player-before-the-sweeper rule, so it bounds the difference of
    two sides' points in a hand). A whole game to a target with two sides: the game goes
    on only while both sides are below the target (or level: a tie at the top, or for
    the lowest, decides nothing), so before its last hand each total is at most
    ``target - 1``; totals start at 0 and, unless :func:`hand_total_can_fall`, their sum
    never falls, so neither is below ``-(target - 1)`` (below 0 only where a side can
    lose points: :func:`scores_can_fall`). The sides then differ by at most
    ``target - 1`` (or ``2 * (target - 1)``), and the last hand adds at most ``hand``.
    With more sides (ties may repeat while a third side runs away), with a moving
    target (claiming games where nobody claims), with no target, or where the sum of
    the totals can fall, a side can gain ``hand`` every hand until ``max_hands``.
    """
    if not whole_game:
        return hand
    g = rules.game
    moving = g.goal != "lowest" and g.both_reach == "next_target"
    if g.target is None or sides != 2 or moving or hand_total_can_fall(rules):
        return hand * max_hands
    spread = g.target - 1
    if scores_can_fall(rules):
        spread *= 2
    return min(spread + hand, hand * max_hands)

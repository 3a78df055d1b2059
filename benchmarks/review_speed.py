"""Time `cassino review` of whole 2-player games of standard (issue 28: under 10 s a game).

Each game is played by two search players (the record `cassino play` would write with the
search at both seats), then reviewed as a person's game: seat 0's every move valued, exactly
in the last deal of each hand, by the search's sampled deals (--deals, the review's default
32) before it, with extra rounds of deals for a move whose loss's interval straddles the margin.
The script prints each game's moves reviewed, how many needed extra rounds, the verdicts and the
seconds, and the slowest.

    python benchmarks/review_speed.py [--games 3] [--deals 32] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import arguments  # (benchmarks/arguments.py, beside this script)

from cassino.apps.learning.review import DEFAULT_DEALS, review_record
from cassino.apps.game.records import Record, apply_action
from cassino.engine.notation import format_move
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot

TARGET_S = 10.0


def played(seed: int) -> Record:
    record = Record(load_rules("standard"), seed, 2, False, ["human", "search"], source="standard")
    game = record.new_game()
    bots = [make_bot("search", seed), make_bot("search", seed + 1)]
    while not game.over:
        seat = game.hand.turn
        text = format_move(bots[seat].choose(game, seat), game.engine.deck)
        game = apply_action(game, text)
        record.actions.append(text)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=arguments.count(1), default=3)
    parser.add_argument("--deals", type=arguments.count(1), default=DEFAULT_DEALS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    worst = 0.0
    for k in range(args.games):
        record = played(args.seed + k)
        start = time.perf_counter()
        review = review_record(record, deals=args.deals)
        took = time.perf_counter() - start
        worst = max(worst, took)
        exact = sum(m.method == "exact" for m in review.moves)
        extra = sum(m.confirmed_deals > 0 for m in review.moves)
        print(f"game {k + 1} (seed {args.seed + k}): {len(record.actions)} actions, {len(review.moves)} moves "
              f"reviewed ({exact} exact, {extra} given extra rounds of deals), {review.count('lost')} lost, "
              f"{review.count('unclear')} unclear: {took:.2f} s")
    print(f"slowest review: {worst:.2f} s (target under {TARGET_S:.0f} s): {'ok' if worst < TARGET_S else 'MISSED'}")


if __name__ == "__main__":
    main()

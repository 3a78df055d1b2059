"""The search player's time a move, and a digest of the moves it makes: prints numbers, asserts nothing.

    python benchmarks/search_speed.py [--hands N] [--rounds R] [--cases standard:2,standard:4,...]

For each case (variant:players; 4 players play as two partnerships), N hands of self-play by the
default search (``players.search.SearchBot``, each seat its own seed, every hand from a fixed
seed), timed in CPU seconds of this process (``time.process_time``), the best of R rounds; and a
digest of every move made, in the move notation. The same tree prints the same digest on every
machine, compiled or not: a change meant to make the search faster without changing its play (the
compiled playout values of issue 39's later work, for one) must print the digests it printed
before. To compare the times of two trees, install each and run this script for both in
alternate runs, on a quiet machine.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time

from cassino import native
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.notation import format_move
from cassino.engine.rng import derive
from cassino.errors import CassinoError
from cassino.language.variants import load_rules
from cassino.players.search import SearchBot

CASES = "standard:2,standard:4,royal:3,scopa:2,scopone:4,draw:2,kasino-misar:2"


def hands(engine: Engine, players: int, count: int) -> tuple[float, int, str]:
    """``count`` hands of search self-play: CPU seconds spent choosing, moves made, their digest."""
    digest = hashlib.sha256()
    spent = 0.0
    moves = 0
    for k in range(count):
        game = Game.new(engine, derive(9, k), players, partners=players == 4,
                        dealer=k % players).with_(target=None)
        bots = [SearchBot(derive(9, k, s)) for s in range(players)]
        while not game.over:
            seat = game.hand.turn
            start = time.process_time()
            move = bots[seat].choose(game, seat)
            spent += time.process_time() - start
            moves += 1
            digest.update(format_move(move, engine.deck).encode() + b";")
            game = game.play(move)
    return spent, moves, digest.hexdigest()[:16]


def cases(text: str) -> list[tuple[str, int]] | None:
    """``variant:players,...`` read (None: not in that form)."""
    out = []
    for item in text.split(","):
        name, _, players = item.strip().partition(":")
        if not name or not players.isdigit() or int(players) < 2:
            return None
        out.append((name, int(players)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="hands a case and round (20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best time is printed (3)")
    parser.add_argument("--cases", default=CASES, help=f"variant:players, comma-separated ({CASES})")
    args = parser.parse_args()
    if args.hands < 1 or args.rounds < 1:
        parser.error("--hands and --rounds are 1 or more")
    chosen = cases(args.cases)
    if chosen is None:
        parser.error(f"--cases is variant:players, comma-separated, players 2 or more (as {CASES}), "
                     f"not {args.cases!r}")
    print(f"{native.describe()}; {args.hands} hands a case, best of {args.rounds} rounds (CPU time)")
    for name, players in chosen:
        try:
            engine = Engine(load_rules(name))
        except CassinoError as error:
            print(f"search_speed: {error}", file=sys.stderr)
            return 2
        seats = engine.rules.seats
        if not seats.min_players <= players <= seats.max_players:
            print(f"search_speed: {name} is for {seats.min_players} to {seats.max_players} players, not {players}",
                  file=sys.stderr)
            return 2
        runs = [hands(engine, players, args.hands) for _ in range(args.rounds)]
        spent, moves, digest = min(runs)
        print(f"{name:<14} {players}p  {moves:>5} moves  {1000 * spent / moves:7.2f} ms a move  moves {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

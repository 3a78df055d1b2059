"""The search player's time a move, and a digest of the moves it makes: prints numbers, asserts nothing.

    python benchmarks/search_speed.py [--hands N] [--rounds R] [--cases standard:2,standard:4,...]
    python benchmarks/search_speed.py --all [--hands N]     # every bundled variant, every seating
    python benchmarks/search_speed.py --player custom:64:depth=deal --cases draw:2   # other settings

For each case (``variant:players``, 4 players as two partnerships; ``variant:players:partners`` or
``variant:players:alone`` to say so), N hands of self-play by the default search
(``players.search.SearchBot``, each seat its own seed, every hand from a fixed seed; ``--player``: any
``bot_strength.bot`` name, such as the search with other settings), timed in CPU seconds of this process
(``time.process_time``), the best of R rounds; and a digest of every move made, in the move notation.
``--all``: every seating of every bundled variant (``apps.authors.matrix.seatings``: each player count
it allows, with and without partners where both may play), by default 2 hands and 1 round each; a
line says which are above ``--over`` ms a move (10). The same tree prints the same digest on every
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
from typing import Callable

from cassino import native
from cassino.apps.authors.matrix import seatings
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.notation import format_move
from cassino.engine.rng import derive
from cassino.errors import CassinoError
from cassino.language.variants import load_rules
from cassino.players.base import Bot
from cassino.players.search import SearchBot

from bot_strength import bot   # (a sibling script: its players by name)

CASES = "standard:2,standard:4,royal:3,scopa:2,scopone:4,draw:2,kasino-misar:2"


def hands(engine: Engine, players: int, count: int, partners: bool | None = None,
          player: Callable[[int], Bot] = SearchBot) -> tuple[float, int, str]:
    """``count`` hands of search self-play (``partners``: None, as 4 players play: in two partnerships;
    ``player``: the seat's player for its seed): CPU seconds spent choosing, moves made, their digest."""
    digest = hashlib.sha256()
    spent = 0.0
    moves = 0
    teams = players == 4 if partners is None else partners
    for k in range(count):
        game = Game.new(engine, derive(9, k), players, partners=teams,
                        dealer=k % players).with_(target=None)
        bots = [player(derive(9, k, s)) for s in range(players)]
        while not game.over:
            seat = game.hand.turn
            start = time.process_time()
            move = bots[seat].choose(game, seat)
            spent += time.process_time() - start
            moves += 1
            digest.update(format_move(move, engine.deck).encode() + b";")
            game = game.play(move)
    return spent, moves, digest.hexdigest()[:16]


def cases(text: str) -> list[tuple[str, int, bool | None]] | None:
    """``variant:players[:partners|:alone],...`` read (partners None: as 4 players play, in two
    partnerships; None: not in that form)."""
    out: list[tuple[str, int, bool | None]] = []
    for item in text.split(","):
        name, _, rest = item.strip().partition(":")
        players, _, seating = rest.partition(":")
        if not name or not players.isdigit() or int(players) < 2 or seating not in ("", "partners", "alone"):
            return None
        out.append((name, int(players), None if not seating else seating == "partners"))
    return out


def every_seating() -> list[tuple[str, int, bool | None]]:
    """Every seating of every bundled variant, as ``--all`` plays them."""
    return [(s.variant, s.players, s.partners) for s in seatings()]


def label(name: str, players: int, partners: bool | None) -> str:
    """How a case is printed: ``draw:4:alone``, ``standard:4:partners``, ``royal:3``."""
    teams = players == 4 if partners is None else partners
    return f"{name}:{players}" + (":partners" if teams else ":alone" if players == 4 else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=None, help="hands a case and round (20; with --all 2)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds; the best time is printed (3; with --all 1)")
    parser.add_argument("--cases", default=None,
                        help=f"variant:players[:partners|:alone], comma-separated ({CASES})")
    parser.add_argument("--all", action="store_true", help="every seating of every bundled variant")
    parser.add_argument("--player", default="search",
                        help="the player (search; any name of bot_strength.py's, e.g. custom:64:depth=deal)")
    parser.add_argument("--over", type=float, default=10.0, help="ms a move: list the cases above it (10)")
    args = parser.parse_args()
    hands_a_case = args.hands if args.hands is not None else 2 if args.all else 20
    rounds = args.rounds if args.rounds is not None else 1 if args.all else 3
    if hands_a_case < 1 or rounds < 1:
        parser.error("--hands and --rounds are 1 or more")
    if not args.over > 0 or args.over == float("inf"):
        parser.error(f"--over is a number of ms above 0, not {args.over}")
    if args.all and args.cases is not None:
        parser.error("give --all or --cases, not both")
    chosen = every_seating() if args.all else cases(args.cases or CASES)
    if chosen is None:
        parser.error(f"--cases is variant:players[:partners|:alone], comma-separated, players 2 or more "
                     f"(as {CASES}), not {args.cases!r}")
    try:
        bot(args.player, 0)
    except (ValueError, CassinoError) as error:
        parser.error(f"--player: {error}")
    engines: list[Engine] = []
    for name, players, partners in chosen:   # (every case checked before any is timed)
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
        offered = seatings([name])
        if partners is not None and not any(o.players == players and o.partners == partners for o in offered):
            print(f"search_speed: {name} has no seating {label(name, players, partners)}; it has "
                  f"{', '.join(label(o.variant, o.players, o.partners) for o in offered)}", file=sys.stderr)
            return 2
        engines.append(engine)
    print(f"{native.describe()}; {args.player}; {hands_a_case} hands a case, best of {rounds} rounds (CPU time)")
    over: list[str] = []
    for engine, (name, players, partners) in zip(engines, chosen):
        runs = [hands(engine, players, hands_a_case, partners, lambda seed: bot(args.player, seed))
                for _ in range(rounds)]
        spent, moves, digest = min(runs)
        each = 1000 * spent / moves
        case = label(name, players, partners)
        print(f"{case:<26} {moves:>5} moves  {each:7.2f} ms a move  moves {digest}", flush=True)
        if each > args.over:
            over.append(f"{case} {each:.1f}")
    print(f"above {args.over:g} ms a move: {', '.join(over) if over else 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

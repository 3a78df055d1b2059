"""How long African Casino's legal moves take to list (issue 49: a listing that stays small).

Two measures, each printed with the engine that ran (compiled or pure Python):

- every position of random games (random legal moves, seeded) of Swazi and South African Casino at the
  player counts asked: the time of ``Engine.legal_moves`` at each, its median, 90th percentile and worst, and
  the worst position's loose cards (table and pile tops in reach) and moves. The issue's target: every such
  position under 50 ms compiled.
- a hand-made table of 15 low loose cards (the issue's "hand-made 15-card table"): the target is under 0.5 s.
- ``--keys``: at every position of random games whose moves are drawn from the sorted listing (so the games
  do not depend on the listing's order), how many keys the generator makes and how many the whole-move rules
  keep (issue 51: a listing that stays small). ``--record FILE`` writes the kept keys of every position;
  ``--against FILE`` compares them with such a record: the positions with the same keys, and with them in
  the same order. A change to the generator that keeps the same legal moves keeps every set.

    python benchmarks/african_listing.py --games 5 --players 2,3,4
    python benchmarks/african_listing.py --keys --games 20 --record before.json   # on the engine before
    python benchmarks/african_listing.py --keys --games 20 --against before.json  # on the engine after
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from arguments import count, variant

from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.movegen import generate
from cassino.engine.rng import derive
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules
from cassino.native import describe

#: Fifteen low cards on the table and a hand that builds and captures among them.
TABLE_15 = ["AS", "AH", "AD", "2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C"]
HAND_15 = ["5S", "6H", "7D", "8C", "9S", "10H", "QC", "KD"]


def players_list(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not comma-separated player counts") from None
    if not counts or any(not 2 <= n <= 4 for n in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: player counts are 2 to 4")
    return counts


def timed_listing(engine: Engine, state: object, rounds: int = 1) -> tuple[float, int]:
    """CPU seconds of this process to list the moves of ``state`` afresh (the engine's memo of its last position
    cleared), the best of ``rounds``, and how many; -1 moves where the position is beyond the listing budget.
    CPU time, not the wall clock: other work on a shared machine does not count against the engine."""
    best = float("inf")
    moves = 0
    for _ in range(rounds):
        engine.move_budget = engine.move_budget   # (clears the engine's memo of the last listing)
        start = time.process_time()
        try:
            moves = len(engine.legal_moves(state))  # type: ignore[arg-type]
        except PositionTooLargeError:
            moves = -1
        best = min(best, time.process_time() - start)
    return best, moves


def random_games(name: str, players: int, games: int, seed: int) -> None:
    rules = load_rules(name)
    if not rules.seats.min_players <= players <= rules.seats.max_players:
        return
    partners = players == 4 and rules.seats.partnerships != "never"
    engine = Engine(rules)
    times: list[float] = []
    worst = (0.0, 0, 0)
    for k in range(games):
        game = Game.new(engine, seed + k, players, partners)
        rnd = random.Random(seed + k)
        while not game.over:
            took, moves = timed_listing(engine, game.hand)
            if took > 0.005:   # (a slow one timed again, the best of three: a pause of the machine is not the engine)
                took, moves = timed_listing(engine, game.hand, 3)
            times.append(took)
            if took > worst[0]:
                worst = (took, game.hand.in_play().bit_count(), moves)
            playable = game.playable_moves()
            game = game.play(playable[rnd.randrange(len(playable))])
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"  {name} {players}p{' partners' if partners else ''}: {len(times):,} positions, median "
          f"{statistics.median(times) * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms, worst {worst[0] * 1000:.1f} ms "
          f"({worst[1]} loose cards, {worst[2]:,} moves)")


def fifteen(name: str) -> None:
    engine = Engine(load_rules(name))
    card = engine.deck.parse
    deck_names = {str(c) for c in engine.deck.cards}
    table = [c for c in TABLE_15 if c in deck_names]
    hand = [c for c in HAND_15 if c in deck_names][:4]
    state = engine.position(Position(players=2, to_play=0, hands={0: [card(c) for c in hand], 1: []},
                                     table=[card(c) for c in table]))
    took, moves = timed_listing(engine, state, 3)
    shown = "beyond the listing budget" if moves < 0 else f"{moves:,} moves"
    print(f"  {name}, {len(table)} loose cards, hand {' '.join(hand)}: {took * 1000:.1f} ms, {shown}")


#: What ``--record`` writes, and ``--against`` reads: {"format": RECORD, "seatings": {label: [[generated, [kept
#: keys]], ...]}}.
RECORD = "cassino-african-listing/1"


def seatings(names: list[str], counts: list[int]) -> list[tuple[str, int, bool]]:
    """Each variant at each player count it seats (four in partnerships where it allows them), as
    :func:`random_games` plays them."""
    out = []
    for name in names:
        rules = load_rules(name)
        for players in counts:
            if rules.seats.min_players <= players <= rules.seats.max_players:
                out.append((name, players, players == 4 and rules.seats.partnerships != "never"))
    return out


def keyed_games(name: str, players: int, partners: bool, games: int, seed: int) -> list[tuple[int, list[int]]]:
    """``--keys``: (keys generated, keys kept) at every position of ``games`` random games, each move drawn
    from the kept keys sorted, so the games are the same whatever order a listing gives."""
    engine = Engine(load_rules(name))
    rows: list[tuple[int, list[int]]] = []
    for k in range(games):
        rnd = random.Random(seed + k)
        state = Game.new(engine, derive(seed, k), players, partners, dealer=k % players).hand
        while not state.over:
            generated = len(generate(engine.tables, state))
            kept = engine.move_keys(state)
            rows.append((generated, list(kept)))
            state = engine.apply_key(state, sorted(kept)[rnd.randrange(len(kept))])
    return rows


def _a_row(row: object) -> bool:
    """Whether ``row`` is a record's row: [keys generated, [kept keys]]."""
    return (isinstance(row, list) and len(row) == 2 and isinstance(row[0], int) and isinstance(row[1], list)
            and all(isinstance(x, int) for x in row[1]))


def read_record(path: str) -> dict[str, list[tuple[int, list[int]]]]:
    """A ``--record`` file, or SystemExit saying what is wrong with it."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise SystemExit(f"african_listing.py: --against {path}: cannot read it ({e.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SystemExit(f"african_listing.py: --against {path}: not a record of --record (not JSON: {e})") from None
    seatings_ = doc.get("seatings") if isinstance(doc, dict) and doc.get("format") == RECORD else None
    if not isinstance(seatings_, dict) or not all(isinstance(rows, list) and all(map(_a_row, rows))
                                                  for rows in seatings_.values()):
        raise SystemExit(f"african_listing.py: --against {path}: not a record of --record (its format is "
                         f"{RECORD!r}: seatings of [generated, [kept keys]] rows); make one with --keys --record")
    return {label: [(r[0], r[1]) for r in rows] for label, rows in seatings_.items()}


def keys_report(names: list[str], counts: list[int], games: int, seed: int, record: str | None,
                against: str | None) -> None:
    """``--keys``: generated and kept keys a seating, written to ``record`` and compared with ``against``."""
    before = read_record(against) if against else None
    written: dict[str, list[tuple[int, list[int]]]] = {}
    for name, players, partners in seatings(names, counts):
        label = f"{name} {players}p{' partners' if partners else ''}"
        rows = keyed_games(name, players, partners, games, seed)
        written[label] = rows
        line = (f"  {label}: {len(rows):,} positions, {sum(r[0] for r in rows):,} keys generated, "
                f"{sum(len(r[1]) for r in rows):,} kept")
        if before is not None:
            old = before.get(label)
            if old is None or len(old) != len(rows):
                line += (f"; the record has {'no such seating' if old is None else f'{len(old):,} positions'}: "
                         f"not the same games (record it with the same --games, --seed and --players)")
            else:
                sets = sum(1 for a, b in zip(old, rows) if sorted(a[1]) == sorted(b[1]))
                order = sum(1 for a, b in zip(old, rows) if a[1] == b[1])
                line += (f"; the record: {sum(r[0] for r in old):,} generated; the same kept keys at {sets:,} "
                         f"positions, in the same order at {order:,}")
        print(line, flush=True)
    if record:
        try:
            with open(record, "w", encoding="utf-8") as f:
                json.dump({"format": RECORD, "seatings": written}, f)
        except OSError as e:
            raise SystemExit(f"african_listing.py: --record {record}: cannot write it ({e.strerror})") from None
        print(f"  written to {record}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=count(1), default=3, help="random games a seating (default 3)")
    parser.add_argument("--players", type=players_list, default=[2, 3, 4], help="player counts, e.g. 2,3,4")
    parser.add_argument("--seed", type=count(0), default=1, help="the first game's seed (default 1)")
    parser.add_argument("--variant", type=variant, action="append",
                        help="a variant or rule file (repeat; default swazi-casino and south-african-casino)")
    parser.add_argument("--keys", action="store_true",
                        help="count the keys generated and kept at every position instead of timing the listing")
    parser.add_argument("--record", metavar="FILE", help="with --keys: write every position's kept keys to FILE")
    parser.add_argument("--against", metavar="FILE", help="with --keys: compare them with a --record FILE")
    args = parser.parse_args()
    names = args.variant or ["swazi-casino", "south-african-casino"]
    if (args.record or args.against) and not args.keys:
        parser.error("--record and --against go with --keys")
    if args.keys:
        print(f"African Casino's keys, generated and kept ({describe()})")
        keys_report(names, args.players, args.games, args.seed, args.record, args.against)
        return
    print(f"African Casino's listing of legal moves ({describe()}); the targets: random-play positions under "
          f"50 ms compiled, the 15-card table under 0.5 s")
    for name in names:
        for players in args.players:
            random_games(name, players, args.games, args.seed)
        fifteen(name)


if __name__ == "__main__":
    main()

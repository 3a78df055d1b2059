"""Computer players' strength: mirrored pairs with sequential stopping, endgame regret, solver speed.

    python benchmarks/bot_strength.py                   # every bundled variant, 2 and 4 players, 40 pairs at most
    python benchmarks/bot_strength.py --variants krypkasino --players 6 --pairings fitted-vs-greedy --one-hand
                                                        # six players: three partnerships of two
    python benchmarks/bot_strength.py --variants south-african-casino --players 3,4:alone --pairings search-vs-greedy --one-hand
                                                        # three players, four alone: one seat against the rest
    python benchmarks/bot_strength.py --variants standard --players 2 --pairings new-vs-old --cap 600
    python benchmarks/bot_strength.py --new search:0.004s --today plain:64 --one-hand   # equal time a move
    python benchmarks/bot_strength.py --regret          # endgame regret on 200 last-deal positions
    python benchmarks/bot_strength.py --solve-time      # the exact solver on whole 2-player last deals
    python benchmarks/bot_strength.py --pairings fitted-vs-greedy --one-hand --cap 200 --min 200
                                                        # fitted playouts against greedy, each variant and seating

Strength: each deal is played twice with the seats swapped (a mirrored pair), so
the cards and the lead cancel out. At any other seating (``--players``: 3, 4:alone, 6 ..., or ``all``)
the first player holds the seats of one side and the second every other seat, and the deal is played
once with the first player on each side in turn (a rotation, called a pair below too): with six players
in three partnerships of two (seats k and k+3: krypkasino, kasino-misar) three times, with three alone
three times, with four alone four. A game won by none counts one over the sides, and a share of one
over the sides is even. Pairs are played in batches; after each batch
the 95% interval of the first player's share of wins is worked out from the pairs
(a pair scores 0, 1/2 or 1, a game without a winner counting a half), and the
match stops when it excludes an even share (after at least --min pairs), or at --cap pairs.
Stopping only at batch boundaries keeps the numbers the same whatever --workers.
A game is a whole game to the variant's target, or with --one-hand a single hand
(the side with more points wins). Seconds a move are the mean over each player's
own decisions, in milliseconds.

Pairings (default: new-vs-today and new-vs-greedy, per bundled variant and player
count, 2 and 4): new-vs-today is ``--new`` (default ``search``, the default computer
player) against ``--today`` (default ``plain:64``, the search before it read the others' moves
of the deal or took more deals for a close choice: compare a new search against it at equal
time a move, as the ms/move columns show), new-vs-greedy the same against greedy;
points a pair are the first player's lead with one standard error (in a game won by the lowest total,
kasino-misar and krypkasino, the lead in fewer points; with more than two sides, over the mean of the
other sides' points, summed over the rotation's games). Also: greedy vs
random, search vs greedy, and ``new-vs-old`` (its name from an earlier issue): today's `search` against the rollout
search as it was before the exact endgame and the outlook (`old:64`: 64 deals a move,
greedy playouts valued by the fixed worth of the cards won, no solver). `plain:64`: the search with its deals
not weighed by the others' moves of the deal, 64 deals a decision (``SearchBot(infer="off", close=0)``, the
default player until that reading was measured better; ``--today``'s default). `fixed:64`: the search reading
the others' moves with 64 deals a decision, close or not (``SearchBot(close=0)``). `passed:64`: the search
dealing each seat the cards it passed up a capture with last (``SearchBot(infer="passed")``), e.g.
``--pairings passed:64-vs-plain:64``. These three play out greedily, as the search did in their day
(``playouts="greedy"``); today's search with greedy playouts is ``custom:64:playouts=greedy``, and
``fitted-vs-greedy`` measures the search against it: what the playouts fitted to each variant and seating
(``cassino train``, ``players/weights.py``) are worth. Each row names the playouts the search plays there
(bundled, cache: fitted to these rules; standard: the 2-player standard weights; greedy: none fitted, so
both sides play alike). Weights a user fitted (in ``$XDG_CACHE_HOME/cassino/playouts``) are played too.

Regret: positions in the last deal of 2-player games between greedy players, one a
game at a move drawn at random (every card's place is then known to the seat to
move); for each, the exact
value of every move, and for each player the share of positions where it chose a
move of the best value and its mean loss in points against the best.

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Iterator

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.rng import derive
from cassino.engine.scoring import Scorer
from cassino.errors import CassinoError
from cassino.language.rules import Rules
from cassino.language.variants import bundled_names, load_rules
from cassino.players.base import Bot
from cassino.players.bots import GreedyBot, SearchBot, make_bot
from cassino.players.solver import Solver

PAIRINGS = {
    "greedy-vs-random": ("greedy", "random"),
    "search-vs-greedy": ("search", "greedy"),
    "new-vs-old": ("search", "old:64"),
    "fitted-vs-greedy": ("search", "custom:64:playouts=greedy"),
}


def bot(name: str, seed: int) -> Bot:
    """``make_bot``'s players; ``old:N``: the rollout search as it was (for comparison); ``plain:N``:
    the search not reading the others' moves; ``fixed:N``: the search with N deals a decision, close or not;
    ``passed:N``: the search reading passed-up captures; and ``custom:N:SETTING=VALUE+...``: a search
    with N deals a move and other settings (for experiments)."""
    base, _, rest = name.partition(":")
    if base in ("old", "plain", "fixed", "passed", "custom"):
        n, _, settings = rest.partition(":")
        if not n.isdigit() or int(n) < 1 or (base == "custom") != bool(settings):
            form = "custom:N:SETTING=VALUE+..." if base == "custom" else f"{base}:N"
            raise ValueError(f"{name!r}: write {form}, N deals a move (1 or more)")
        iterations = int(n)
    if base == "old":
        return SearchBot(seed, iterations=iterations, exact=False, exact_cards=0, evaluation="worth")
    if base == "plain":
        return SearchBot(seed, iterations=iterations, infer="off", close=0, playouts="greedy")
    if base == "fixed":
        return SearchBot(seed, iterations=iterations, close=0, playouts="greedy")
    if base == "passed":
        return SearchBot(seed, iterations=iterations, infer="passed", playouts="greedy")
    if base == "custom":
        kwargs: dict[str, object] = {}
        for item in settings.split("+"):
            key, equals, value = item.partition("=")
            if not equals or not key:
                raise ValueError(f"{name!r}: each setting is SETTING=VALUE, not {item!r}")
            kwargs[key] = _setting(value)
        try:
            return SearchBot(seed, iterations=iterations, **kwargs)  # type: ignore[arg-type]
        except TypeError as error:   # (a setting SearchBot does not have)
            raise ValueError(f"{name!r}: {error}") from None
    return make_bot(name, seed)


def _setting(text: str) -> object:
    """A ``custom:`` setting's value: a whole number (``crowd=-1`` too), a number, yes or no, else the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"yes": True, "no": False}.get(text, text)


# ---------------------------------------------------------------- mirrored pairs
def seating_of(text: str) -> tuple[int, bool]:
    """A ``--players`` item as (players, partners): ``N`` (4 and 6 in partnerships, as these matches have
    always seated them; any other count alone), ``N:alone`` or ``N:partners``. ValueError if it is none."""
    count, _, kind = text.partition(":")
    if not count.isdigit() or not 2 <= int(count) <= 8 or kind not in ("", "alone", "partners"):
        raise ValueError(f"a --players item is N, N:alone or N:partners with N from 2 to 8, not {text!r}")
    players = int(count)
    return players, (players in (4, 6) if not kind else kind == "partners")


def seating_label(players: int, partners: bool) -> str:
    """A seating as ``--players`` names it (the shortest name that means it)."""
    return str(players) if partners == (players in (4, 6)) else f"{players}:{'partners' if partners else 'alone'}"


def seatings_of(rules: Rules) -> list[tuple[int, bool]]:
    """Every seating the rules allow, as ``--players all`` plays them (a count where partners must play, once)."""
    seats = rules.seats
    return [(players, partners) for players in range(seats.min_players, seats.max_players + 1)
            for partners in sorted({rules.partnership(players, False), rules.partnership(players, True)})]


def sides_at(variant: str, players: int, partners: bool) -> tuple[int, ...]:
    """The side of each seat at that seating (CassinoError where the variant has no such seating)."""
    rules = load_rules(variant)
    if (players, partners) not in seatings_of(rules):
        raise CassinoError(f"{rules.name} is not played by {seating_label(players, partners)} (it is by "
                           f"{', '.join(seating_label(*s) for s in seatings_of(rules))})")
    return Game.new(Engine(rules), 0, players, partners=partners).hand.teams


def one_game(variant: str, names: tuple[str, ...], seed: int, one_hand: bool, partners: bool
             ) -> tuple[int | None, list[list[float]], dict[int, int]]:
    """A game, ``names`` by seat, in partnerships or not: the winning side (None: none), each seat's
    seconds a move, and each side's points."""
    players = len(names)
    engine = Engine(load_rules(variant))
    game = Game.new(engine, seed, players, partners=partners, dealer=0)
    if one_hand:
        game = game.with_(target=None)
    bots = [bot(names[s], derive(seed, s)) for s in range(players)]
    times: list[list[float]] = [[] for _ in range(players)]
    plies = 0
    while not game.over:
        claimant = next((s for s in range(players) if bots[s].wants_to_claim(game, s)), None)
        if claimant is not None:
            game = game.claim(claimant)
            break
        seat = game.hand.turn
        bots[seat].reseed(derive(seed, seat, plies))
        start = time.perf_counter()
        move = bots[seat].choose(game, seat)
        times[seat].append(time.perf_counter() - start)
        game = game.play(move)
        plies += 1
    # In a game won by the lowest total (kasino-misar, krypkasino) points count against: negated, so a
    # lead is always the better side's.
    sign = -1 if game.rules.game.goal == "lowest" else 1
    points = {side: sign * sum(r.points.get(side, 0) for r in game.results) for side in sorted(set(game.hand.teams))}
    return game.winner, times, points


def one_pair(task: tuple[str, str, str, int, bool, int, bool]
             ) -> tuple[float, list[float], list[float], float]:
    """A mirrored pair: ``a``'s share of the games, ``a``'s and ``b``'s move times, ``a``'s points lead.
    ``a`` holds the seats of one side and ``b`` every other seat, the same deal played once with ``a`` on
    each side in turn (two sides: the seats swapped; four players in partnerships: seats 0 and 2 against 1
    and 3; six in three partnerships of two: seats k and k+3 for k = 0, 1, 2; three players alone: each seat
    in turn): ``a``'s share of the games (a game won by none counting one over the sides), and its lead over
    the mean of the other sides' points, summed."""
    variant, a, b, seed, one_hand, players, partners = task
    teams = sides_at(variant, players, partners)
    sides = len(set(teams))
    share = 0.0
    lead = 0.0
    times_a: list[float] = []
    times_b: list[float] = []
    for a_side in range(sides):
        names = tuple(a if teams[seat] == a_side else b for seat in range(players))
        winner, times, points = one_game(variant, names, seed, one_hand, partners)
        share += 1 / sides if winner is None else float(winner == a_side)
        lead += points[a_side] - sum(points[side] for side in range(sides) if side != a_side) / (sides - 1)
        for seat in range(players):
            (times_a if teams[seat] == a_side else times_b).extend(times[seat])
    return share / sides, times_a, times_b, lead


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% normal interval of per-pair values (unbounded for one value: no spread is known, and a
    share's interval is then kept within 0-100% by ``share_interval``)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, -math.inf, math.inf
    sd = statistics.stdev(values)
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def share_interval(shares: list[float]) -> tuple[float, float, float]:
    """Mean share of wins and its 95% interval, kept within 0-100%."""
    mean, low, high = interval(shares)
    return mean, max(low, 0.0), min(high, 1.0)


def match(pool: ProcessPoolExecutor | None, variant: str, a: str, b: str, seed: int, one_hand: bool,
          min_pairs: int, cap: int, batch: int, players: int = 2, partners: bool = False) -> dict[str, Any]:
    start = time.perf_counter()
    shares: list[float] = []
    leads: list[float] = []
    even = 1 / len(set(sides_at(variant, players, partners)))
    label = seating_label(players, partners)
    times_a: list[float] = []
    times_b: list[float] = []
    k = 0
    while k < cap:
        tasks = [(variant, a, b, derive(seed, j), one_hand, players, partners) for j in range(k, min(k + batch, cap))]
        results: Iterator = pool.map(one_pair, tasks) if pool else map(one_pair, tasks)
        for share, ta, tb, lead in results:
            shares.append(share)
            leads.append(lead)
            times_a += ta
            times_b += tb
        k += len(tasks)
        mean, low, high = share_interval(shares)
        so_far, so_far_low, _ = interval([float(x) for x in leads])
        print(f"  ({variant}, {label}, {a} vs {b}: {k} pairs, {so_far:+.2f} ± {(so_far - so_far_low) / 1.96:.2f} "
              f"points a pair so far, {time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
        if k >= min_pairs and (low > even or high < even):
            break
    mean, low, high = share_interval(shares)
    lead, lead_low, lead_high = interval([float(x) for x in leads])
    return {"variant": variant, "a": a, "b": b, "pairs": len(shares), "win": mean, "low": low, "high": high,
            "lead": lead, "lead_half": lead - lead_low, "sec_a": sum(times_a) / max(len(times_a), 1),
            "sec_b": sum(times_b) / max(len(times_b), 1), "seconds": time.perf_counter() - start}


def pairing(name: str, args: argparse.Namespace) -> tuple[str, str]:
    """The two players of a pairing's name: ``new-vs-today`` and ``new-vs-greedy`` read ``--new``
    and ``--today``; the other names of PAIRINGS; or any ``A-vs-B``."""
    if name == "new-vs-today":
        return args.new, args.today
    if name == "new-vs-greedy":
        return args.new, "greedy"
    if name in PAIRINGS:
        return PAIRINGS[name]
    a, vs, b = name.partition("-vs-")
    if not (a and vs and b):
        raise ValueError(f"no pairing named {name!r}: new-vs-today, new-vs-greedy, {', '.join(PAIRINGS)} or A-vs-B")
    return a, b


def chosen_seatings(text: str, rules: Rules) -> list[tuple[int, bool]]:
    """The seatings ``--players`` asks of these rules (``all``: every one they allow)."""
    return seatings_of(rules) if text == "all" else [seating_of(item) for item in text.split(",")]


def strength(args: argparse.Namespace) -> None:
    variants = bundled_names() if args.variants == "all" else args.variants.split(",")
    pairings = list(PAIRINGS) if args.pairings == "all" else args.pairings.split(",")
    unit = "hand" if args.one_hand else "game"
    print(f"mirrored pairs of {unit}s (the first player on each side in turn: 4 players in two partnerships, 6 in "
          f"three of two, unless :alone), stop when the 95% interval of the win share excludes an even share "
          f"(one over the sides) (at least {args.min} pairs) or at {args.cap} pairs; seed {args.seed}; points a "
          f"pair: the first player's lead over the other sides' mean, ± one standard error")
    print("| variant | players | pairing | pairs | first wins | 95% interval | points a pair | ms/move first "
          "| ms/move second |")
    print("|---|---|---|---|---|---|---|---|---|")
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for variant in variants:
            rules = load_rules(variant)
            for players, partners in chosen_seatings(args.players, rules):
                label = seating_label(players, partners)
                if (players, partners) not in seatings_of(rules):
                    print(f"| {variant} | {label} | - | - | not played by {label} | | | | |", flush=True)
                    continue
                try:
                    source = SearchBot(0).playout_choice(Game.new(Engine(rules), 1, players,
                                                                  partners=partners)).source
                except (CassinoError, ValueError):
                    source = "-"
                for name in pairings:
                    a, b = pairing(name, args)
                    try:
                        r = match(pool, variant, a, b, args.seed, args.one_hand, args.min, args.cap, args.batch,
                                  players, partners)
                    except CassinoError as e:   # a seating the variant is not played at
                        print(f"| {variant} | {label} | {a} vs {b} | - | not played: {e} | | | | |", flush=True)
                        break
                    se = float(r["lead_half"]) / 1.96
                    print(f"| {variant} | {label} | {a} vs {b} [{source}] | {r['pairs']} | {r['win']:.1%} "
                          f"| {r['low']:.1%}-{r['high']:.1%} | {r['lead']:+.2f} ± {se:.2f} "
                          f"| {1000 * r['sec_a']:.2f} | {1000 * r['sec_b']:.2f} |", flush=True)
    finally:
        if pool:
            pool.shutdown()


# ---------------------------------------------------------------- the last deal
def last_deals(variant: str, count: int, seed: int, anywhere: bool = False) -> Iterator[Game]:
    """Games between greedy players in the last deal of their first hand: at its first move,
    or (``anywhere``) at one of its moves with a choice, drawn at random."""
    engine = Engine(load_rules(variant))
    k = 0
    found = 0
    while found < count:
        game = Game.new(engine, derive(seed, k), 2, dealer=k % 2)
        bots = [GreedyBot(derive(seed, k, 0)), GreedyBot(derive(seed, k, 1))]
        choices = []
        while not game.over and game.hand_no == 1:
            if not game.hand.stock and len(game.legal_moves()) > 1:
                choices.append(game)
                if not anywhere:
                    break
            game = game.play(bots[game.hand.turn].choose(game, game.hand.turn))
        if choices:
            found += 1
            yield choices[random.Random(derive(seed, k)).randrange(len(choices))] if anywhere else choices[0]
        k += 1


def regret(args: argparse.Namespace) -> None:
    names = args.judged.split(",")
    for variant in (bundled_names() if args.variants == "all" else args.variants.split(",")):
        optimal = {n: 0 for n in names}
        loss = {n: 0.0 for n in names}
        seconds = {n: 0.0 for n in names}
        n_pos = 0
        for k, game in enumerate(last_deals(variant, args.positions, args.seed, anywhere=True)):
            state = game.hand
            seat = state.turn
            solver = Solver(game.engine, game.scorer, state.teams[seat], dict(enumerate(game.scores)),
                            game.restrictions_on)
            values = {mv.move: mv.value for mv in solver.move_values(state)}
            best = max(values.values())
            for n in names:
                player = bot(n, derive(args.seed, k))
                start = time.perf_counter()
                move = player.choose(game, seat)
                seconds[n] += time.perf_counter() - start
                optimal[n] += values[move] == best
                loss[n] += best - values[move]
            n_pos += 1
        print(f"\n{variant}: {n_pos} positions in the last deal of 2-player greedy games (one a game, "
              f"at a move drawn at random)")
        print("| player | optimal move | mean loss (points) | ms/move |")
        print("|---|---|---|---|")
        for n in names:
            print(f"| {n} | {optimal[n] / n_pos:.1%} | {loss[n] / n_pos:.3f} | {1000 * seconds[n] / n_pos:.2f} |", flush=True)


def solve_time(args: argparse.Namespace) -> None:
    for variant in (bundled_names() if args.variants == "all" else args.variants.split(",")):
        times = []
        nodes = []
        for game in last_deals(variant, args.positions, args.seed):
            state = game.hand
            start = time.perf_counter()
            solver = Solver(game.engine, game.scorer, state.teams[state.turn], dict(enumerate(game.scores)),
                            game.restrictions_on)
            solver.best_move(state)
            times.append(1000 * (time.perf_counter() - start))
            nodes.append(solver.nodes)
        times.sort()
        print(f"{variant}: a whole 2-player last deal solved (best move from its first position), "
              f"{len(times)} deals: median {statistics.median(times):.1f} ms, mean {statistics.mean(times):.1f} ms, "
              f"95th percentile {times[int(0.95 * (len(times) - 1))]:.1f} ms, worst {times[-1]:.1f} ms; "
              f"median {statistics.median(nodes):.0f} positions searched", flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variants", default="all", help="comma-separated bundled variants or rule files, or all")
    p.add_argument("--pairings", default="new-vs-today,new-vs-greedy",
                   help=f"comma-separated: new-vs-today, new-vs-greedy, {', '.join(PAIRINGS)}, A-vs-B, or all")
    p.add_argument("--new", default="search", help="the player new-vs-today and new-vs-greedy measure")
    p.add_argument("--today", default="plain:64",
                   help="what new-vs-today measures it against (the search before it read the others' moves)")
    p.add_argument("--cap", type=int, default=40, help="most pairs a match plays (more: --cap 400)")
    p.add_argument("--min", type=int, default=20, help="fewest pairs before a match may stop")
    p.add_argument("--batch", type=int, default=20, help="pairs between two looks at the interval")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--one-hand", action="store_true", help="a game is one hand")
    p.add_argument("--players", default="2,4", help="seatings, comma-separated: N, N:alone or N:partners (a bare 4 "
                   "or 6 is in partnerships: two of two, three of two; any other count alone), or all (every "
                   "seating of each variant)")
    p.add_argument("--regret", action="store_true", help="the endgame regret table instead")
    p.add_argument("--solve-time", action="store_true", help="the solver's time on whole last deals instead")
    p.add_argument("--positions", type=int, default=200, help="last-deal positions (--regret, --solve-time)")
    p.add_argument("--judged", default="greedy,old:64,search", help="players whose regret is measured (--regret)")
    args = checked(p)
    if args.regret:
        regret(args)
    elif args.solve_time:
        solve_time(args)
    else:
        strength(args)
    return 0


def checked(p: argparse.ArgumentParser) -> argparse.Namespace:
    """``p``'s arguments, a bad one refused with its reason (exit 2) before any work: a count below 1,
    --min above --cap, a seating that is not one (or named twice), a named variant not played at a seating
    asked for, an unknown variant, pairing or player."""
    args = p.parse_args()
    for option in ("cap", "min", "batch", "workers", "positions"):
        if getattr(args, option) < 1:
            p.error(f"--{option} is 1 or more, not {getattr(args, option)}")
    if args.min > args.cap:
        p.error(f"--min ({args.min}) is at most --cap ({args.cap})")
    items = str(args.players).split(",")
    try:
        asked = [] if args.players == "all" else [seating_of(item) for item in items]
    except ValueError as error:
        p.error(f"--players is all, or seatings such as 2,3,4:alone ({error})")
    if len(set(asked)) < len(asked):
        p.error(f"--players names each seating once, not {args.players!r}")
    try:
        for variant in (bundled_names() if args.variants == "all" else args.variants.split(",")):
            rules = load_rules(variant)
            for players, partners in asked:
                if args.variants != "all" and (players, partners) not in seatings_of(rules):
                    p.error(f"--players {seating_label(players, partners)}: {variant} is not played by "
                            f"{seating_label(players, partners)} (it is by "
                            f"{', '.join(seating_label(*s) for s in seatings_of(rules))})")
        if args.variants == "all":
            played = {s for variant in bundled_names() for s in seatings_of(load_rules(variant))}
            for seating in asked:
                if seating not in played:
                    p.error(f"--players {seating_label(*seating)}: no bundled variant is played by it")
        names = args.judged.split(",") if args.regret else [
            player for name in (list(PAIRINGS) if args.pairings == "all" else args.pairings.split(","))
            for player in pairing(name, args)]
        for name in names:
            bot(name, 0)
    except (CassinoError, ValueError) as error:
        p.error(str(error))
    return args


if __name__ == "__main__":
    sys.exit(main())

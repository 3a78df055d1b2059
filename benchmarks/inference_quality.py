"""How much the others' moves tell the search about a hidden hand: the weighted deals against plain ones.

    python benchmarks/inference_quality.py --hands 40 --opponent sparring
    python benchmarks/inference_quality.py --hands 60 --opponent search --temperatures 0.25,0.4,0.7
    python benchmarks/inference_quality.py --temperatures 0.5 --kinds=-1.4,0.5,-0.6   # kinds rated apart

Games of 2-player standard hands: seat 0 is the search, seat 1 the ``--opponent`` (``search`` or
the ``sparring`` partner of ``sparring.py``). At each of seat 0's decisions while the stock lasts,
where the opponent has moved in the deal, 300 deals of the unseen cards are drawn as
``knowledge.determinize`` draws them; each is weighed by ``inference``'s model of play at each
temperature (``inference.evidence`` with the rating gain / T: the product of one over the per-card
sums of exp(gain / T), ``Evidence.weight``).
Printed: the mean log-likelihood of the truth (for each unseen card, whether the opponent holds
it, under the share of the weighed deals that give it one), for plain deals, and how much each
temperature gains over them, in nats a decision. A low-noise measure of the model: games
against the sparring partner need 1,000 pairs for a standard error of 0.17 points. ``--kinds T,B,C``
adds T to the log-odds of a trail, B to a build's and C times the worth taken to a capture's (a
model of play that rates the kinds of move apart, as fitted to the sparring partner's choices).

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sparring import SparringBot  # noqa: E402

import arguments  # (benchmarks/arguments.py, beside this script)

from cassino.engine.core import Engine  # noqa: E402
from cassino.engine.game import Game  # noqa: E402
from cassino.engine.moves import Move, MoveKind  # noqa: E402
from cassino.engine.rng import derive  # noqa: E402
from cassino.engine.state import HandState  # noqa: E402
from cassino.language.variants import load_rules  # noqa: E402
from cassino.players.base import Bot  # noqa: E402
from cassino.players.gain import CardWorth  # noqa: E402
from cassino.players.inference import Rating, evidence  # noqa: E402
from cassino.players.knowledge import determinize  # noqa: E402
from cassino.players.search import SearchBot  # noqa: E402

DEALS = 300


def rating(temperature: float, worth: CardWorth, kinds: tuple[float, float, float]) -> Rating:
    """A model of play's log-odds: gain / ``temperature``, plus ``kinds`` for trails, builds and
    (per point taken) captures."""
    def rate(move: Move, gain: float) -> float:
        x = gain / temperature
        if move.kind is MoveKind.TRAIL:
            return x + kinds[0]
        if move.kind is MoveKind.CAPTURE:
            return x + kinds[2] * worth.of(move.loose | move.played)
        return x + kinds[1]
    return rate


def truth_likelihood(deals: list[HandState], weights: list[float], truth: int, unseen: int) -> float:
    """The log-likelihood of the opponent's true hand, card by card, under the weighted deals."""
    total = sum(weights)
    ll = 0.0
    for c in range(52):
        if unseen >> c & 1:
            p = sum(w for w, d in zip(weights, deals) if d.hands[1] >> c & 1) / total
            p = min(max(p, 0.01), 0.99)
            ll += math.log(p if truth >> c & 1 else 1 - p)
    return ll


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=arguments.count(1), default=40)
    p.add_argument("--opponent", choices=("search", "sparring"), default="sparring")
    p.add_argument("--temperatures", type=arguments.numbers(positive=True), default="0.25,0.4,0.7,1.0")
    p.add_argument("--kinds", type=arguments.numbers(3), default="0,0,0",
                   help="log-odds added to trails, builds, captures (per point)")
    args = p.parse_args()
    temps = args.temperatures
    trail, build, capture = args.kinds
    kinds = (trail, build, capture)
    engine = Engine(load_rules("standard"))
    plain, gained, decisions = 0.0, [0.0] * len(temps), 0
    for k in range(args.hands):
        seed = derive(17, k)
        game = Game.new(engine, seed, 2, dealer=k % 2).with_(target=None)
        bots: list[Bot] = [SearchBot(derive(seed, 0)),
                           SparringBot(derive(seed, 1)) if args.opponent == "sparring" else SearchBot(derive(seed, 1))]
        worth = bots[0].worth(game)
        while not game.over:
            state = game.hand
            if state.turn == 0 and state.stock:
                seen = [evidence(engine, worth, state, game.log, 0, {}, rating(t, worth, kinds)) for t in temps]
                if seen[0] is not None:
                    rng = random.Random(k * 1000 + state.ply)
                    deals = [determinize(engine, state, 0, rng) for _ in range(DEALS)]
                    unseen = 0
                    for d in deals:
                        unseen |= d.hands[1] | sum(1 << i for i in d.stock)
                    base = truth_likelihood(deals, [1.0] * DEALS, state.hands[1], unseen)
                    plain += base
                    for j, ev in enumerate(seen):
                        assert ev is not None
                        weights = [ev.weight(d) for d in deals]
                        gained[j] += truth_likelihood(deals, weights, state.hands[1], unseen) - base
                    decisions += 1
            game = game.play(bots[state.turn].choose(game, state.turn))
    print(f"against {args.opponent}, {args.hands} hands, {decisions} decisions with moves seen: plain deals "
          f"{plain / decisions:.3f} nats a decision (log-likelihood of the opponent's hand, card by card)")
    for t, g in zip(temps, gained):
        print(f"  T = {t}, kinds {','.join(f'{x:g}' for x in kinds)}: {g / decisions:+.4f} nats a decision over plain deals")


if __name__ == "__main__":
    main()

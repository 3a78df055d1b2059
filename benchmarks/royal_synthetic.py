"""The engine against ``tests/royal_reference.py`` on synthetic positions: random tables, builds (single and
multiple, owned by any seat, often the mover's) and hands, not only what random play reaches. Each position
is read through the scenario runner (``tests/reference_positions.Reader``, what ``cassino check`` does), so
the engine is used as a black box. Prints numbers, asserts nothing.

    python benchmarks/royal_synthetic.py [--positions N] [--seed S] [--variants NAMES] [--examples K]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import reference_positions as rp  # noqa: E402
import royal_reference as ref  # noqa: E402

_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_VAL = {"A": 1, **{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13}


def _deck(variant: str) -> tuple[list[str], Any, int]:
    if variant == "tuxedo":
        return [f"{n}{s}" for n in range(1, 11) for s in "BRGY"], (lambda c: int(c[:-1])), 10
    return [r + s for r in _RANKS for s in "SHDC"], (lambda c: _VAL[c[:-1]]), 14


def position(variant: str, rnd: random.Random) -> dict[str, Any]:
    """A random position of `variant` in the scenario format; every build's owner holds a card of its value."""
    cards, val, top = _deck(variant)
    rnd.shuffle(cards)
    hungarian = variant.startswith("hungarian")
    players = 2 if hungarian else rnd.choice([2, 3, 4, 5, 6] if variant == "tuxedo" else [2, 3, 4])
    partners = players == 4 and (variant.startswith("dominican") or (variant == "royal" and rnd.random() < 0.5))
    seat = rnd.randrange(players)
    table = [cards.pop() for _ in range(rnd.randint(0, 8))]
    hands: dict[int, list[str]] = {s: [] for s in range(players)}
    builds = []
    for _ in range(0 if hungarian else rnd.choice([0, 1, 1, 2, 3])):
        owner = seat if rnd.random() < 0.4 else rnd.randrange(players)
        first = cards.pop()
        v = val(first)
        group = [first]
        if rnd.random() < 0.5:       # a single build of two or three cards
            group += [cards.pop() for _ in range(rnd.choice([1, 1, 2]))]
            v = sum(val(c) for c in group)
        else:                        # a multiple build: the card and an equal card or a pair worth it
            pair = next(([c, d] for c in cards for d in cards if c != d and val(c) + val(d) == v), None)
            equal = next(([c] for c in cards if val(c) == v), None)
            more = pair if pair and (rnd.random() < 0.5 or not equal) else equal
            if more:
                for c in more:
                    cards.remove(c)
                group += more
        hold = next((c for c in cards if val(c) == v or (v == 14 and c[0] == "A" and top == 14)), None)
        if len(group) < 2 or v > top or hold is None:
            table += group
            continue
        cards.remove(hold)
        hands[owner].append(hold)
        builds.append({"cards": group, "value": v, "owner": owner, "holder": owner})
    for s in range(players):
        while len(hands[s]) < rnd.randint(1, 3 if hungarian else 4):
            hands[s].append(cards.pop())
    case: dict[str, Any] = {"players": players, "partners": partners, "to_play": seat, "dealer": (seat - 1) % players,
                            "hand": hands.pop(seat), "hands": {s: h for s, h in hands.items() if h},
                            "table": table, "builds": builds, "captured": {}, "first_play": False}
    if rnd.random() < 0.5:
        case["stock"] = cards
    else:
        case["captured"] = {0: cards}
    return case


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", default=",".join(ref.VARIANTS))
    parser.add_argument("--examples", type=int, default=2)
    args = parser.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    rnd = random.Random(args.seed)
    reader = rp.Reader()
    classes: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    compared = refused = 0
    for _ in range(args.positions):
        variant = rnd.choice(variants)
        case = position(variant, rnd)
        try:
            engine, state = reader.state(variant, case)
        except Exception as e:  # noqa: BLE001 - a position the runner refuses is counted, not compared
            refused += 1
            examples.setdefault("refused", []).append(f"{type(e).__name__}: {str(e)[:160]}")
            continue
        compared += 1
        mine = rp.engine_moves(engine, state)
        theirs = {rp.canonical(m) for m in ref.legal_moves(variant, case)}
        for moves, says in ((mine - theirs, True), (theirs - mine, False)):
            for m in sorted(moves):
                d = rp.Disagreement(variant, case["players"], case["partners"], args.seed, 0, m, says, case)
                name = next((n for n, _, t in ref.DECLARED + ref.ENGINE_ERRORS if t(d)), None)
                key = f"declared: {name}" if name else f"undeclared: {'engine only' if says else 'reference only'}"
                classes[key] += 1
                examples.setdefault(key, []).append(str(d))
    print(f"royal_synthetic: {compared} positions compared, {refused} refused by the runner, "
          f"{sum(classes.values())} disagreements, "
          f"{sum(n for k, n in classes.items() if k.startswith('undeclared'))} undeclared")
    for key, n in classes.most_common():
        print(f"{n:6d}  {key}")
        for line in examples[key][:args.examples]:
            print(f"        {line}")
    for line in examples.get("refused", [])[:args.examples]:
        print(f"  refused: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

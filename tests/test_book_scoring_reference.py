"""Compare tests/book_scoring_reference.py (hand scoring and the game's end, written from the
rulebooks alone) with the engine, over random hands of every bundled variant and seating.

The engine is used through its public API only: to play random hands and to read what it scored.

    cd /work/main && python -m pytest -q -p no:benchmark tests/test_book_scoring_reference.py
    python tests/test_book_scoring_reference.py [HANDS_PER_SEATING]     # the larger run
"""

from __future__ import annotations

import os
import random
import sys
from collections import Counter, defaultdict

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import book_scoring_reference as ref  # noqa: E402

from cassino.engine.core import Engine  # noqa: E402
from cassino.engine.game import Game  # noqa: E402
from cassino.language.variants import load_rules  # noqa: E402

# Seatings from each book's "1. Players": "A game for two to four players", "Four players may
# play as two partnerships" / "always play as two partnerships", "Six players may play in teams".
SEATINGS = {
    "standard": "2-4p", "hoyle": "2-4p", "royal": "2-4p", "dominican": "2-4P",
    "dominican-soto": "2-4P", "spade": "2-4p", "draw": "2-4p", "tuxedo": "2-6",
    "hungarian": "2", "hungarian-ulmann": "2", "two-handed": "2", "face-builds": "2-4p",
    "scopa": "2-4p", "scopone": "4P", "escoba": "2-4p", "swedish-kasino": "2-4p",
    "finnish-kasino": "2-4p", "kasino-misar": "2-6p", "krypkasino": "2-6p",
    "swazi-casino": "2-4P", "south-african-casino": "2-4p",
}
VARIANTS = list(SEATINGS)


def seatings(variant: str) -> list[tuple[int, bool]]:
    spec = SEATINGS[variant]
    flag = spec[-1] if spec[-1] in "pP" else ""
    lo, _, hi = spec.rstrip("pP").partition("-")
    out = []
    for n in range(int(lo), int(hi or lo) + 1):
        if n in (4, 6) and flag and not (n == 6 and variant not in ("krypkasino", "kasino-misar")):
            if flag == "p":
                out.append((n, False))
            out.append((n, True))
        else:
            out.append((n, False))
    return out


_ENGINES: dict[str, Engine] = {}


def engine_of(variant: str) -> Engine:
    if variant not in _ENGINES:
        _ENGINES[variant] = Engine(load_rules(variant))
    return _ENGINES[variant]


def near_scores(variant: str, sides: int, rnd: random.Random) -> dict[int, int]:
    """Scores before a hand close to the target, where the endgame rules bite."""
    if variant == "south-african-casino":
        return None
    t = ref.TARGETS[variant]
    if variant in ("dominican", "dominican-soto"):
        pool = [14, 15, 16, 17, 18, 19, 20]
    elif variant == "finnish-kasino":
        pool = list(range(6, 16))
    elif variant == "spade":
        pool = list(range(45, 61))
    elif variant == "tuxedo":
        pool = list(range(60, 100))
    else:
        pool = list(range(max(0, t - 8), t))
    return {s: rnd.choice(pool) for s in range(sides)}


def play_hand(variant: str, players: int, partners: bool, seed: int, scores=None,
              lifted: bool = False, claim_at: int | None = None, claimant: int = 0):
    """Play one random hand from its deal; returns (hand dict for the reference, engine answers).
    ``claim_at``: once the hand has that many plies, ``claimant`` claims the game instead (the hand
    dict is then the hand in play)."""
    eng = engine_of(variant)
    deck = eng.deck
    game = Game.new(eng, seed, players, partners)
    if scores is not None:
        game = Game.at(eng, game.hand, scores, restrictions_on=not lifted)
    start = game
    rnd = random.Random(seed * 7919 + 17)
    names = lambda mask: [str(c) for c in deck.cards_of(mask)]  # noqa: E731
    pre_at: dict[int, object] = {}
    while True:
        pre = game.hand
        pre_at.setdefault(pre.ply, pre)
        if claim_at is not None and pre.ply >= claim_at:
            fin, game = pre, game.claim(claimant)
            break
        move = rnd.choice(game.legal_moves())
        after = game.play(move)
        if len(after.results) > len(game.results) or after.over:
            fin = eng.apply(pre, move)
            game = after
            break
        game = after
    result = game.results[-1] if len(game.results) > len(start.results) else None

    def full_table(state) -> int:
        m = state.table
        for b in state.builds:
            m |= b.cards
        return m

    last_ply = max(pre_at)
    sweeps = []
    for cap in fin.captures:
        pre = pre_at.get(cap.ply)
        if pre is None:
            continue
        whole = full_table(pre)
        if whole and (whole & ~cap.table_cards) == 0:
            sweeps.append({"seat": cap.seat, "ply": cap.ply, "size": len(deck.cards_of(cap.table_cards)),
                           "first_play": cap.ply == 0, "last_card": fin.over and cap.ply == last_ply,
                           "last_deal": len(pre.stock) == 0})
    if fin.stacks:  # capture piles in play: each side's pile is its stack
        piles = {}
        for seat in range(players):
            piles[seat] = []
        for side, stack in enumerate(fin.stacks):
            if stack:
                seat = min(s for s in range(players) if fin.teams[s] == side)
                piles[seat] = [str(deck.cards[i]) for i in stack]
    else:
        piles = {seat: names(fin.piles[seat]) for seat in range(players)}
    hand = {
        "players": players,
        "partners": partners,
        "piles": piles,
        "residue": names(fin.residue),
        "last_capturer": fin.last_capturer,
        "captures": [{"ply": c.ply, "seat": c.seat, "cards": names(c.cards),
                      "table_cards": names(c.table_cards)} for c in fin.captures if c.ply >= 0],
        "deal_take": next(({"seat": c.seat, "cards": names(c.cards)} for c in fin.captures if c.ply < 0), None),
        "sweeps": sweeps,
        "scores_before": dict(enumerate(start.scores)),
        "restrictions_lifted": not start.restrictions_on,
        "finished": bool(fin.over),
    }
    engine = {
        # a game that ended inside the hand (pegging) has no HandResult: what it pegged is its score's rise
        "points": dict(result.points) if result else {s: game.scores[s] - start.scores[s] for s in range(len(game.scores))},
        "by_item": dict(result.by_item) if result else None,
        "scores": dict(enumerate(game.scores)) if result is None else dict(result.scores),
        "winner": game.winner if game.over else None,
        "over": game.over,
        "lifted": not game.restrictions_on,
        "engine_sweeps": [(s.seat, s.ply, s.size, s.cancelled) for s in fin.sweeps],
        "standing": game.standing(),
        "ended_by": game.ended_by,
    }
    return hand, engine


def compare(variant: str, hand: dict, engine: dict, reference=ref) -> list[str]:
    """The differences between the reference's answers and the engine's, as short labels."""
    diffs = []
    mine = reference.hand_points(variant, hand)
    theirs = engine["points"]
    if theirs is not None and {int(k): v for k, v in theirs.items()} != mine:
        diffs.append("points")
    end = reference.game_end(variant, hand["scores_before"], mine, hand)
    if end["winner"] != engine["winner"]:
        diffs.append("winner")
    if hand["finished"] or variant == "spade":
        if {int(k): v for k, v in engine["scores"].items()} != end["scores"]:
            diffs.append("scores")
    if variant in ref.RESTRICTIONS and end["lifted"] != engine["lifted"]:
        diffs.append("lifted")
    return diffs


def declared_for(variant: str, hand: dict, engine: dict, diffs: list[str]) -> str | None:
    """The name of the DECLARED disagreement that explains this difference, if any."""
    for d in ref.DECLARED:
        if variant in d["variants"] and d["matches"](variant, hand, engine, diffs):
            return d["name"]
    return None


def run(hands_per_seating: int, seed0: int = 0, variants=None, near_share: float = 0.5,
        verbose: bool = False):
    """The larger comparison: per variant, hands compared and differences by class."""
    stats = defaultdict(Counter)
    examples = {}
    for variant in variants or VARIANTS:
        for players, partners in seatings(variant):
            for k in range(hands_per_seating):
                seed = seed0 + k
                rnd = random.Random(seed * 31 + players)
                sides = players // 2 if partners and players == 4 else (3 if partners and players == 6 else players)
                scores = near_scores(variant, sides, rnd) if rnd.random() < near_share else None
                lifted = variant in ref.RESTRICTIONS and scores is not None and rnd.random() < 0.15
                hand, engine = play_hand(variant, players, partners, seed, scores, lifted)
                stats[variant]["hands"] += 1
                diffs = compare(variant, hand, engine)
                if not diffs:
                    continue
                name = declared_for(variant, hand, engine, diffs) or "UNDECLARED:" + "+".join(diffs)
                stats[variant][name] += 1
                examples.setdefault((variant, name), (players, partners, seed, scores, lifted, hand, engine))
                if verbose:
                    print(variant, players, partners, seed, scores, name)
        if variant == "hungarian":
            for k in range(hands_per_seating * 4):
                d = compare_claim(seed0 + 500000 + k)
                if d is None:
                    continue
                stats["hungarian (claims)"]["hands"] += 1
                if d:
                    stats["hungarian (claims)"]["UNDECLARED:" + "+".join(d)] += 1
    return stats, examples


def compare_claim(seed: int, reference=ref) -> list[str] | None:
    """Hungarian Casino: a seat claims at a random point of a random hand; the reference's verdict
    (and its running points) against the engine's. None when the hand ended before the claim."""
    rnd = random.Random(seed)
    scores = {0: rnd.randint(0, 10), 1: rnd.randint(0, 10)}
    at, who = rnd.randint(0, 47), rnd.randint(0, 1)
    hand, engine = play_hand("hungarian", 2, False, seed, scores, claim_at=at, claimant=who)
    if engine["ended_by"] not in ("claim", "false claim"):
        return None
    diffs = []
    mine = reference.claim("hungarian", hand, who)
    if mine["correct"] != (engine["ended_by"] == "claim") or mine["winner"] != engine["winner"]:
        diffs.append("claim")
    running = reference.running_points("hungarian", hand)
    if tuple(scores[s] + running[s] for s in (0, 1)) != tuple(engine["standing"]):
        diffs.append("running")
    return diffs


# --------------------------------------------------------------------------------------------
# The CI slice

CI_HANDS = int(os.environ.get("BOOK_SCORING_HANDS", "24"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_agrees_with_engine(variant):
    undeclared = []
    for players, partners in seatings(variant):
        for k in range(CI_HANDS):
            rnd = random.Random(k * 31 + players)
            sides = players // 2 if partners and players == 4 else (3 if partners and players == 6 else players)
            scores = near_scores(variant, sides, rnd) if k % 2 else None
            hand, engine = play_hand(variant, players, partners, 1000 + k, scores)
            diffs = compare(variant, hand, engine)
            if diffs and not declared_for(variant, hand, engine, diffs):
                undeclared.append((players, partners, 1000 + k, scores, diffs,
                                   ref.hand_points(variant, hand), engine["points"]))
    assert not undeclared, undeclared


def test_hungarian_claims_agree():
    bad = [(seed, d) for seed in range(60) if (d := compare_claim(seed))]
    assert not bad, bad


class _DropAces:
    """A reference that forgets one scoring item (aces): the comparison must catch it."""

    def __getattr__(self, name):
        return getattr(ref, name)

    @staticmethod
    def hand_points(variant, hand):
        pts = ref.hand_points(variant, hand)
        items = ref.hand_items(variant, hand)
        if "aces" in items:
            for s in pts:
                pts[s] -= items["aces"][s]
        return pts


def test_comparison_can_fail():
    caught = 0
    for seed in range(5):
        hand, engine = play_hand("standard", 2, False, seed)
        if "points" in compare("standard", hand, engine, reference=_DropAces()):
            caught += 1
    assert caught >= 4


class _NoRestrictions:
    """A reference that forgets Dominican Casino's endgame restrictions."""

    def __getattr__(self, name):
        return getattr(ref, name)

    @staticmethod
    def hand_points(variant, hand):
        items = ref.hand_items(variant, hand)
        return {s: sum(item[s] for item in items.values()) for s in ref.sides_of(variant, hand)}


def test_comparison_catches_missing_restrictions():
    caught = sum(bool(compare("dominican", *play_hand("dominican", 2, False, seed, {0: 18, 1: 19}),
                              reference=_NoRestrictions())) for seed in range(10))
    assert caught >= 5


def test_the_gap_the_spade_book_closed_is_read_as_it_now_says():
    """The one class this reference found (Spade, seed 70016 with three players from 55, 54, 55): the hand's last
    play takes seat 0 to 61 and the engine pegs the cards left on the table too, where the book said only that the
    game ends the moment the target is reached. The book now says the table's cards are pegged with that play; this
    reference reads it, the old reading's test still names the hand, and both agree."""
    assert not ref.DECLARED
    hand, engine = play_hand("spade", 3, False, 70016, {0: 55, 1: 54, 2: 55})
    assert hand["finished"] and hand["residue"] and engine["winner"] == 0
    assert not compare("spade", hand, engine)
    assert sum(ref._spade_card_points(c) for c in hand["residue"]) > 0   # (the table's cards scored: 5 points here)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    stats, examples = run(n, seed0=int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    for v, c in stats.items():
        print(f"{v:22s} {c['hands']:6d} hands  " + ", ".join(f"{k}: {n}" for k, n in c.items() if k != "hands"))
    for (v, name), ex in examples.items():
        players, partners, seed, scores, lifted, hand, engine = ex
        print("\n", v, name, "players", players, "partners", partners, "seed", seed, "scores", scores,
              "lifted", lifted)
        print("  mine  ", ref.hand_points(v, hand), ref.game_end(v, hand["scores_before"], ref.hand_points(v, hand), hand))
        print("  engine", engine["points"], engine["by_item"], engine["scores"], engine["winner"], engine["lifted"])
        print("  items ", ref.hand_items(v, hand) if hand["finished"] or v != "spade" else "-")

"""The clean-room reference of the classic Casino family (``classic_reference``, written from rule texts 000,
001, 003 and 004 alone): (a) its answers on the rule texts' own examples; (b) a CI slice comparing it with
the engine on every seating of each variant it covers, over random games and over positions built at
random (builds single and multiple, partners' builds, court piles), where no undeclared disagreement may
appear; (c) the comparison catches a reference that drops or adds a class of moves.

``benchmarks/reference_compare.py --reference classic_reference --seeds N`` runs the large comparison.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import classic_reference as cr
import reference_positions as rp

ROOT = Path(__file__).resolve().parents[1]


def _moves(variant: str, case: dict[str, Any]) -> set[str]:
    return {rp.canonical(m) for m in cr.legal_moves(variant, case)}


# ------------------------------------------------------------------ (a) the texts' examples
# (variant, source, position, legal, illegal). Seat 0 to play unless the position says otherwise.
EXAMPLES: list[tuple[str, str, dict[str, Any], list[str], list[str]]] = [
    ("standard", "000 rule 1: 'only one may be captured'",
     {"table": ["QS", "QH"], "hand": ["QD"]}, ["QD capture QS", "QD capture QH"], ["QD capture QS QH"]),
    ("hoyle", "001 Pairing: 'together with all similar cards'",
     {"table": ["QS", "QH"], "hand": ["QD"]}, ["QD capture QS QH"], ["QD capture QS"]),
    ("hoyle", "001 Pairing: 'He plays the Eight from his hand, and then gathers in all of them'",
     {"table": ["8S", "8H", "5C", "3D"], "hand": ["8D"]},
     ["8D capture 8S 8H", "8D capture 5C 3D", "8D capture 8S 8H 5C 3D"], ["8D capture 8S", "8D capture 8H 5C 3D"]),
    ("standard", "000 rule 2: 'an eight could capture 8 6 2 5 3 or 8 5 2 A, but not all six'",
     {"table": ["AH", "2C", "3D", "5S", "6H", "8C"], "hand": ["8D"]},
     ["8D capture 8C 6H 2C 5S 3D", "8D capture 8C 5S 2C AH", "8D capture 8C", "8D trail"],
     ["8D capture AH 2C 3D 5S 6H 8C"]),
    ("standard", "000 rule 3: 'put the 3 on the 5 and announce building 8'",
     {"table": ["5S"], "hand": ["3H", "8C"]}, ["3H build 8 on 5S"], ["3H build 9 on 5S", "8C build 13 on 5S"]),
    ("standard", "000 rule 3: an ace and a two, two threes and a six",
     {"table": ["AD", "2S"], "hand": ["3C", "3H", "6D"]},
     ["3C capture AD 2S", "3C build 6 on AD 2S", "3C build 3 on AD 2S"], ["3C build 4 on AD", "3C build 5 on 2S"]),
    ("standard", "000 rule 3: a build must include the card you just played",
     {"table": ["4S", "5H"], "hand": ["9C", "KD"]}, ["KD trail"], ["KD build 9 on 4S 5H"]),
    ("standard", "000 rule 4: loose cards taken in with the build",
     {"table": ["5S", "4C"], "builds": [{"cards": ["6H", "3C"], "value": 9, "owner": 0}], "hand": ["9D", "2H"]},
     ["9D capture [6H 3C] 5S 4C", "9D capture [6H 3C]"], ["9D capture 5S 4C", "2H trail"]),
    ("standard", "000 rule 4: 'You cannot play a 9 to take the build of 7 plus the 2'",
     {"table": ["2S"], "builds": [{"cards": ["4C", "3D"], "value": 7, "owner": 1}], "hand": ["9H", "7S"]},
     ["7S capture [4C 3D]"], ["9H capture [4C 3D] 2S"]),
    ("standard", "000 rule 4: a 5 on a 5 is 'building 10' or 'building 5'",
     {"table": ["5S"], "hand": ["5H", "5D", "10C"]}, ["5H build 10 on 5S", "5H build 5 on 5S"], []),
    ("standard", "000 rule 4: the owner may not leave himself with no card of the build's value",
     {"table": ["5S"], "builds": [{"cards": ["6H", "2C"], "value": 8, "owner": 0}], "hand": ["8D", "5H"]},
     ["8D capture [6H 2C]", "5H capture 5S"], ["8D capture 5S", "5H trail", "8D trail"]),
    ("standard", "000 5.1 Example A: a single 6-build of two threes raised to 8, then to 9",
     {"builds": [{"cards": ["3C", "3D"], "value": 6, "owner": 1}], "hand": ["2H", "8S"]},
     ["2H build 8 on [3C 3D]"], ["2H build 5 on [3C 3D]"]),
    ("standard", "000 5.1 Example A: 'building three' cannot be changed",
     {"builds": [{"cards": ["3C", "3D"], "value": 3, "owner": 1}], "hand": ["2H", "5S", "8S"]},
     [], ["2H build 5 on [3C 3D]", "2H build 8 on [3C 3D]"]),
    ("standard", "000 5.1 Example B: no table card to change a single build's value",
     {"table": ["2C"], "builds": [{"cards": ["AH", "4D"], "value": 5, "owner": 1}], "hand": ["3S", "8C", "10H"]},
     ["3S build 8 on [AH 4D]"], ["3S build 10 on [AH 4D] 2C"]),
    ("examples/table-cards-raise.yaml", "000 Variations: table cards may help raise (Example B then legal)",
     {"table": ["2C"], "builds": [{"cards": ["AH", "4D"], "value": 5, "owner": 1}], "hand": ["3S", "8C", "10H"]},
     ["3S build 8 on [AH 4D]", "3S build 10 on [AH 4D] 2C"], []),
    ("examples/table-cards-raise.yaml", "000 Variations: 'the card you play from your hand has to contribute'",
     {"table": ["3C"], "builds": [{"cards": ["2H", "4D"], "value": 6, "owner": 1}], "hand": ["9S", "9C"]},
     [], ["9S build 9 on [2H 4D] 3C"]),
    ("standard", "000 5.1 Example C: raised to nine, the loose nine taken in",
     {"table": ["9C"], "builds": [{"cards": ["3S", "4H"], "value": 7, "owner": 1}], "hand": ["2D", "9H"]},
     ["2D build 9 on [3S 4H] 9C", "2D build 9 on [3S 4H]"], []),
    ("standard", "000 5.2 Example: a 6 with the loose 3 added to the 9-build",
     {"table": ["3C"], "builds": [{"cards": ["5S", "4H"], "value": 9, "owner": 1}], "hand": ["6D", "9C", "9H"]},
     ["6D build 9 on [5S 4H] 3C", "9C build 9 on [5S 4H]"], []),
    ("standard", "000 5.2: a multiple 8-build 3-5-8 and a loose 6; 2, 8, 8, 10 in hand",
     {"table": ["6C"], "builds": [{"cards": ["3S", "5H", "8D"], "value": 8, "owner": 1}],
      "hand": ["2H", "8S", "8C", "10D"]},
     ["8S build 8 on [3S 5H 8D]", "2H build 8 on [3S 5H 8D] 6C"], ["2H build 10 on [3S 5H 8D]"]),
    ("standard", "000 rule 6: 'You are allowed to trail a card even if that card could have made a capture'",
     {"table": ["10C"], "hand": ["10S", "4H"]}, ["10S trail", "10S capture 10C"], []),
    ("two-handed", "004: 'A player may not simply trail if they are able to capture something with that card'",
     {"table": ["10C"], "hand": ["10S", "4H"]}, ["4H trail", "10S capture 10C"], ["10S trail"]),
    ("two-handed", "004: a build of 2s 'could only be extended with more 2s'",
     {"table": ["AC"], "builds": [{"cards": ["2S", "2H"], "value": 2, "owner": 1}], "hand": ["2D", "2C", "AD"]},
     ["2D build 2 on [2S 2H]"], ["AD build 2 on [2S 2H] AC"]),
    ("standard", "the same addition of A+A to a build of twos, outside 004",
     {"table": ["AC"], "builds": [{"cards": ["2S", "2H"], "value": 2, "owner": 1}], "hand": ["2D", "2C", "AD"]},
     ["AD build 2 on [2S 2H] AC"], []),
    ("hoyle", "001 Double Builds: 'Two Sevens' from 3 on 4 and 5 with 2",
     {"table": ["5C", "2D", "4H"], "hand": ["3S", "7C"]}, ["3S build 7 on 4H 5C 2D", "3S build 7 on 4H"], []),
    ("hoyle", "001 Double Builds: 'This cannot be increased to 8, 9, or 10'",
     {"builds": [{"cards": ["3S", "4H", "5C", "2D"], "value": 7, "owner": 1}], "hand": ["AS", "8C"]},
     [], ["AS build 8 on [3S 4H 5C 2D]"]),
    ("hoyle", "001: 'He cannot use the deuce on the table to increase the build from 5 to 7'",
     {"table": ["2C", "4D"], "builds": [{"cards": ["AS", "AH", "3C"], "value": 5, "owner": 1}], "hand": ["9S", "7C"]},
     [], ["9S build 9 on [AS AH 3C] 4D", "7C build 7 on [AS AH 3C] 2C"]),
    ("hoyle", "001: 'but if he held the 4 and 9 in his hand, he could build on the 5'",
     {"table": ["2C", "4D"], "builds": [{"cards": ["AS", "AH", "3C"], "value": 5, "owner": 1}], "hand": ["9S", "4C"]},
     ["4C build 9 on [AS AH 3C]"], []),
    ("hoyle", "001: 'A player holding in his hand a 10, 3 and 2, but no 8, could not build a 5 ... to an 8'",
     {"table": ["5S"], "hand": ["10C", "3D", "2H"]}, ["2H trail"], ["3D build 8 on 5S", "2H build 7 on 5S"]),
    ("hoyle", "001 Taking In: the partner's 8 is sufficient ('two Eights' called without an 8)",
     {"players": 4, "partners": True, "table": ["6H"], "hand": ["2S", "9D"],
      "builds": [{"cards": ["5C", "3D"], "value": 8, "owner": 2, "holder": 2}]},
     ["2S build 8 on 6H", "2S build 8 on [5C 3D] 6H"], []),
    ("standard", "000 has no building for a partner",
     {"players": 4, "partners": True, "table": ["6H"], "hand": ["2S", "9D"],
      "builds": [{"cards": ["5C", "3D"], "value": 8, "owner": 2, "holder": 2}]},
     [], ["2S build 8 on 6H", "2S build 8 on [5C 3D] 6H"]),
    ("hoyle", "D6: the maker of a build for his partner who can neither capture nor build trails (001 Trailing)",
     {"players": 4, "partners": True, "to_play": 2, "table": ["4D", "JC"], "hand": ["KD"],
      "builds": [{"cards": ["AS", "AC", "8D"], "value": 10, "owner": 2, "holder": 0}]},
     ["KD trail"], []),
    ("hoyle", "D6: ... and may not trail when he can capture",
     {"players": 4, "partners": True, "to_play": 2, "table": ["4D", "JC"], "hand": ["KD", "4S"],
      "builds": [{"cards": ["AS", "AC", "8D"], "value": 10, "owner": 2, "holder": 0}]},
     ["4S capture 4D"], ["KD trail", "4S trail"]),
    ("examples/single-build-as-card.yaml", "000 Variations: 'who holds a 10 can capture the 6-build and the 4'",
     {"table": ["4C"], "builds": [{"cards": ["5S", "AH"], "value": 6, "owner": 1}], "hand": ["10D", "10H"]},
     ["10D capture [5S AH] 4C", "10D build 10 on [5S AH] 4C"], []),
    ("standard", "the same capture without the variation",
     {"table": ["4C"], "builds": [{"cards": ["5S", "AH"], "value": 6, "owner": 1}], "hand": ["10D", "10H"]},
     [], ["10D capture [5S AH] 4C", "10D build 10 on [5S AH] 4C"]),
    ("examples/trail-and-build.yaml", "000 Variations: trail and build table cards, not including the card played",
     {"table": ["4S", "5H"], "hand": ["7C", "9D"]}, ["7C trail build 9 on 4S 5H", "7C trail"],
     ["9D trail build 9 on 4S 5H"]),
    ("examples/trail-and-build.yaml", "D7: an owner may not trail, with a build or not; the build is new",
     {"table": ["4S", "5H"], "builds": [{"cards": ["4C", "3D"], "value": 7, "owner": 0}], "hand": ["7H", "9D", "KS"]},
     ["7H capture [4C 3D]"], ["KS trail build 9 on 4S 5H", "KS trail"]),
    ("examples/trail-and-build.yaml", "D7: the build of a trail is never added to a build on the table",
     {"table": ["4S", "5H"], "builds": [{"cards": ["6C", "3D"], "value": 9, "owner": 1}], "hand": ["9D", "KS"]},
     ["KS trail build 9 on 4S 5H"], ["KS trail build 9 on [6C 3D] 4S 5H"]),
    ("standard", "D1: a raise takes in a loose card worth the new value, not a set adding up to it",
     {"table": ["5S", "4H", "9H"], "builds": [{"cards": ["3C", "4D"], "value": 7, "owner": 1}], "hand": ["2S", "9C"]},
     ["2S build 9 on [3C 4D] 9H", "2S build 9 on [3C 4D]"], ["2S build 9 on [3C 4D] 5S 4H"]),
    ("standard", "D2: two builds are never merged",
     {"builds": [{"cards": ["5C", "4D"], "value": 9, "owner": 1}, {"cards": ["6C", "3D"], "value": 9, "owner": 1}],
      "hand": ["9S", "9C"]},
     ["9S capture [5C 4D] [6C 3D]", "9S build 9 on [5C 4D]"], ["9S build 9 on [5C 4D] [6C 3D]"]),
    ("examples/owner-may-trail.yaml", "000 Variations: the owner 'simply to trail'",
     {"builds": [{"cards": ["6H", "2C"], "value": 8, "owner": 0}], "hand": ["8D", "KH"]}, ["KH trail"], ["8D trail"]),
    ("face-builds", "003: 'a jack from your hand can be placed onto a jack on the table'",
     {"table": ["JC", "JS"], "hand": ["JD", "JH"]}, ["JD build J on JC", "JD capture JC JS"], ["JD capture JC"]),
    ("face-builds", "003: the builder must take it, capture something else or build higher (D4)",
     {"table": ["5S"], "builds": [{"cards": ["3C", "4D"], "value": 7, "owner": 0}],
      "hand": ["7H", "2S", "9C", "3H"]},
     ["7H capture [3C 4D]", "2S build 9 on [3C 4D]"], ["3H trail", "3H build 8 on 5S"]),
    ("face-builds", "D3: a court card takes every court of its rank, piled ones too",
     {"table": ["JS"], "builds": [{"cards": ["JC", "JD"], "value": "J", "owner": 1}], "hand": ["JH"]},
     ["JH capture [JC JD] JS"], ["JH capture JS", "JH capture [JC JD]"]),
    ("hoyle", "D3: pairing takes every loose card of the rank, a build of the value may stay",
     {"table": ["8S", "8D"], "builds": [{"cards": ["5C", "3D"], "value": 8, "owner": 1}], "hand": ["8C"]},
     ["8C capture [5C 3D]", "8C capture 8S 8D", "8C capture [5C 3D] 8S 8D"],
     ["8C capture 8S", "8C capture [5C 3D] 8D"]),
    ("examples/face-builds-one-at-a-time.yaml", "003: one face card at a time, three by the fourth",
     {"table": ["JC", "JS"], "hand": ["JD", "2S"]}, ["JD capture JC"], ["JD capture JC JS"]),
    ("examples/face-builds-one-at-a-time.yaml", "003: 'three matching face cards ... captured by the fourth'",
     {"table": ["JC", "JS", "JH"], "hand": ["JD"]}, ["JD capture JC JS JH"], []),
    ("examples/face-builds-one-at-a-time.yaml", "003: the three by the fourth, a pile of two and a loose one",
     {"table": ["JS"], "builds": [{"cards": ["JC", "JD"], "value": "J", "owner": 1}], "hand": ["JH"]},
     ["JH capture [JC JD] JS", "JH capture JS", "JH capture [JC JD]"], []),
    ("examples/face-builds-one-at-a-time.yaml", "003: face builds 'only if you can finish by capturing all 4'",
     {"table": ["JC"], "hand": ["JD", "JH"]}, [], ["JD build J on JC"]),
    ("examples/face-builds-one-at-a-time.yaml", "003: ... with the other two jacks in hand",
     {"table": ["JC"], "hand": ["JD", "JH", "JS"]}, ["JD build J on JC"], []),
]


@pytest.mark.parametrize("variant,source,case,legal,illegal", EXAMPLES, ids=[e[1][:60] for e in EXAMPLES])
def test_the_texts_examples(variant: str, source: str, case: dict[str, Any], legal: list[str],
                            illegal: list[str]) -> None:
    got = _moves(variant, case)
    for m in legal:
        assert rp.canonical(m) in got, f"{source}: {m} should be legal; got {sorted(got)}"
    for m in illegal:
        assert rp.canonical(m) not in got, f"{source}: {m} should be illegal"


def test_the_engine_passes_the_texts_examples(tmp_path: Path) -> None:
    """The same examples as scenario cases: ``cassino check`` runs them against the engine."""
    cases = []
    for i, (variant, source, case, legal, illegal) in enumerate(EXAMPLES):
        v = variant if not variant.endswith(".yaml") else str(ROOT / variant)
        expect = {k: v2 for k, v2 in (("legal", legal), ("illegal", illegal)) if v2}
        cases.append({"name": f"{i} {source}", "variant": v, **case, "expect": expect})
    path = tmp_path / "examples.yaml"
    path.write_text(yaml.safe_dump({"variant": "standard", "cases": cases}, sort_keys=False), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "cassino", "check", str(path)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.stdout.strip().splitlines()[-1] == f"{len(cases)} passed, 0 failed", run.stdout + run.stderr


# ------------------------------------------------------------------ (b) the CI slice
def _undeclared(tally: rp.Tally) -> list[rp.Disagreement]:
    tests = [t for _, _, t in cr.DECLARED + cr.ENGINE_ERRORS]
    return [d for d in tally.found if not any(t(d) for t in tests)]


PER_SEATING = 120


@pytest.fixture(scope="module")
def slice_tally() -> rp.Tally:
    """The first PER_SEATING positions of seeds 1 and 2 of every seating (5,760 positions)."""
    return rp.run_each(rp.seatings(cr.VARIANTS), range(1, 3), cr.legal_moves, PER_SEATING)


def test_the_slice_compares_every_seating(slice_tally: rp.Tally) -> None:
    assert slice_tally.positions > 5000
    assert set(slice_tally.by_seating) == set(rp.seatings(cr.VARIANTS))
    assert min(slice_tally.by_seating.values()) >= 30


def test_no_undeclared_disagreement_in_play(slice_tally: rp.Tally) -> None:
    bad = _undeclared(slice_tally)
    assert not bad, "\n".join(str(d) for d in bad[:5])
    skipped = [d for d in slice_tally.found if any(t(d) for _, _, t in cr.ENGINE_ERRORS)]
    if skipped:
        print(f"{len(skipped)} disagreements skipped as suspected engine errors: {[n for n, _, _ in cr.ENGINE_ERRORS]}")


def _court(card: str, rank: str) -> bool:
    return card[:-1].upper() == rank


def random_case(rnd: random.Random, variant: str, players: int, partners: bool) -> dict[str, Any] | None:
    """A position built at random (not reached by play): up to three builds, single and multiple, a court
    pile where the variant builds courts, partners' builds held by the partner where the variant has them;
    each holder holds a card of his build's value. None when the draw could not give one."""
    rules = cr.rules_of(variant)
    deck = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "SHDC"]
    rnd.shuffle(deck)
    used: set[str] = set()

    def take(pred: Any) -> str | None:
        for c in deck:
            if c not in used and pred(c):
                used.add(c)
                return c
        return None

    def worth(value: Any) -> Any:
        return (lambda c: cr._value(c) == value) if isinstance(value, int) else (lambda c: _court(c, value))

    builds = []
    for _ in range(rnd.choice([0, 1, 1, 2, 2, 3])):
        v = rnd.randint(2, 10)
        cards: list[str] = []
        for g in range(rnd.choice([1, 1, 2, 3])):
            if g and rnd.random() < 0.3:
                parts = [v]
            else:
                a = rnd.randint(1, v - 1)
                parts = [a, v - a] if rnd.random() < 0.6 or v - a < 2 else [a, 1, v - a - 1]
            for p in parts:
                c = take(worth(p))
                if c is None:
                    return None
                cards.append(c)
        owner = rnd.randrange(players)
        holder = (owner + 2) % 4 if rules.for_partner and partners and rnd.random() < 0.3 else owner
        builds.append({"cards": cards, "value": v, "owner": owner, "holder": holder})
    if rules.court_builds != "never" and rnd.random() < 0.3:
        rank = rnd.choice("JQK")
        owner = rnd.randrange(players)
        builds.append({"cards": [take(worth(rank)) for _ in range(rnd.choice([2, 3]))], "value": rank,
                       "owner": owner, "holder": owner})
    table = [take(lambda c: True) for _ in range(rnd.randint(0, 6))]
    for b in builds:
        if isinstance(b["value"], str) and rnd.random() < 0.5:        # a loose court beside a court pile
            table.append(take(worth(b["value"])))
    hands: dict[int, list[str]] = {s: [] for s in range(players)}
    for b in builds:
        if not any(worth(b["value"])(c) for c in hands[b["holder"]]):
            c = take(worth(b["value"]))
            if c is None:
                return None
            hands[b["holder"]].append(c)
    for s in range(players):
        for _ in range(rnd.randint(1, 4) - len(hands[s])):
            t = rnd.choice(table) if table and rnd.random() < 0.6 else None
            c = take(lambda c: True) if t is None else take(lambda c, t=t: c[:-1] == t[:-1]) if rnd.random() < 0.5 \
                else take(lambda c, t=t: (cr._value(c) or 0) > (cr._value(t) or 99))
            if c is not None:
                hands[s].append(c)
    seat = rnd.randrange(players)
    if not hands[seat] or any(c is None for c in table):
        return None
    return {"players": players, "partners": partners, "to_play": seat, "hand": hands[seat],
            "hands": {s: h for s, h in hands.items() if s != seat and h}, "table": table, "builds": builds}


def compare_random(variants: tuple[str, ...], n: int, reference: Any = cr.legal_moves,
                   first: int = 0) -> tuple[int, list[tuple[str, str, str, dict[str, Any]]]]:
    """Positions built at random, compared: (how many, [(variant, side, move, case)])."""
    reader = rp.Reader()
    found = []
    compared = 0
    for variant in variants:
        seats = [(2, False)] if variant == "two-handed" else [(2, False), (3, False), (4, False), (4, True)]
        for i in range(first, first + n):
            players, partners = seats[i % len(seats)]
            case = random_case(random.Random(i), variant, players, partners)
            if case is None:
                continue
            engine, state = reader.state(variant, case)
            theirs = rp.engine_moves(engine, state)
            mine = {rp.canonical(m) for m in reference(variant, case)}
            compared += 1
            found += [(variant, "engine only", m, case) for m in sorted(theirs - mine)]
            found += [(variant, "reference only", m, case) for m in sorted(mine - theirs)]
    return compared, found


def test_no_disagreement_on_positions_built_at_random() -> None:
    compared, found = compare_random(cr.VARIANTS, 250)
    assert compared > 2300
    assert not found, "\n".join(map(str, found[:5]))


# ------------------------------------------------------------------ once an engine error (ENGINE_ERRORS)
PARTNER_CASE = {
    "name": "001 Taking In: the partner's 10-build is sufficient, after he took a ten with another ten",
    "players": 4, "partners": True, "to_play": 0,
    "builds": [{"cards": ["2D", "8S"], "value": 10, "owner": 0}],
    "table": ["10H", "9H"], "hand": ["10S", "10D"], "hands": {1: ["KD", "5C"], 2: ["AD", "7S"]},
    "moves": ["10D capture 10H", "KD trail"],
    "expect": {"builds": [{"cards": ["2D", "8S"], "value": 10, "owner": 0, "holder": 0}],
               "legal": ["AD build 10 on 9H"]},
}


def test_the_reference_allows_the_partner_build_after_the_moves() -> None:
    case = {k: v for k, v in PARTNER_CASE.items() if k not in ("name", "moves", "expect", "hand", "hands")}
    case.update({"to_play": 2, "table": ["9H", "KD"], "hand": ["AD", "7S"], "hands": {0: ["10S"], 1: ["5C"]}})
    assert rp.canonical("AD build 10 on 9H") in _moves("hoyle", case)


def test_the_engine_keeps_the_partners_declaration_in_play(tmp_path: Path) -> None:
    """Once an expected failure: in play the engine withdrew the partner's declared value once he played
    another card of its rank, though his build of it stayed on the table (001 Taking In)."""
    path = tmp_path / "partner.yaml"
    path.write_text(yaml.safe_dump({"variant": "hoyle", "cases": [PARTNER_CASE]}, sort_keys=False), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "cassino", "check", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


# ------------------------------------------------------------------ (c) the comparison can fail
def test_a_reference_without_raises_is_caught() -> None:
    def no_raise(variant: str, case: dict[str, Any]) -> set[str]:
        values = {rp.canonical("[" + " ".join(b["cards"]) + "]"): b["value"] for b in case.get("builds", [])}
        out = set()
        for m in cr.legal_moves(variant, case):
            words = rp.canonical(m).split()
            if words[1] == "build" and "[" in m:
                inner = rp.canonical(m).split("[")[1].split("]")[0]
                if str(values.get("[" + inner + "]")) != words[2]:
                    continue
            out.add(m)
        return out

    compared, found = compare_random(("standard",), 300, no_raise)
    assert found and all(side == "engine only" and " build " in m for _, side, m, _ in found)


def test_a_reference_letting_the_owner_trail_is_caught() -> None:
    def owner_trails(variant: str, case: dict[str, Any]) -> set[str]:
        return cr.legal_moves(variant, case) | {f"{c} trail" for c in case["hand"]}

    tally = rp.run([("standard", 2, False)], range(1, 2), owner_trails)
    bad = _undeclared(tally)
    assert bad and all(not d.engine_says and d.move.endswith(" trail") for d in bad)
    assert all(any(b["owner"] == d.case["to_play"] for b in d.case["builds"]) for d in bad)


def test_the_reference_refuses_a_variant_it_does_not_cover() -> None:
    with pytest.raises(ValueError):
        cr.legal_moves("royal", {"hand": ["5S"]})

"""CI slice of the clean-room reference ``tests/book_others_reference.py`` (two-handed, spade, dominican-soto,
hungarian-ulmann, scopone, kasino-misar), written from ``cassino rules VARIANT`` alone:

(a) the rulebooks' worked examples hold for the reference, and for the engine;
(b) every seating of each variant over a few random games: no undeclared disagreement; positions built at
    random (builds of every kind) agree too;
(c) the comparison can fail: a reference with one class of moves dropped is caught.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import book_others_reference as br  # noqa: E402
import reference_positions as rp  # noqa: E402

P2 = {"players": 2}
P4 = {"players": 4, "partners": True}


def _b(cards: list[str], value: int, owner: int) -> dict[str, Any]:
    return {"cards": cards, "value": value, "owner": owner}


# (variant, the book's example, case, legal, illegal)
_COMMON_BUILDING = [
    ("6 making a build", {"table": ["5S", "2H"], "hand": ["3D", "8C"]},
     ["3D build 8 on 5S"], ["3D build 10 on 2H 5S", "3D build 5 on 2H"]),
    ("6 a multiple build", {"table": ["5S", "8H"], "hand": ["3D", "8C"]},
     ["3D build 8 on 5S", "3D build 8 on 5S 8H"], []),
    ("6 adding to a build", {**P2, "table": ["6D", "8H"], "builds": [_b(["5S", "3H"], 8, 1)], "hand": ["2C", "8S"]},
     ["2C build 8 on 6D", "2C build 8 on 6D 8H", "2C build 8 on [3H 5S] 6D", "2C build 8 on [3H 5S] 6D 8H"], []),
    ("6 raising another player's build", {**P2, "builds": [_b(["2S", "4H"], 6, 1)], "hand": ["3D", "9C"]},
     ["3D build 9 on [2S 4H]"], []),
    ("6 a build in a sum", {**P2, "table": ["4D"], "builds": [_b(["2S", "3H"], 5, 1)], "hand": ["9C"]},
     [], ["9C capture [2S 3H] 4D"]),
    ("6 owning a build", {"table": ["6D"], "builds": [_b(["5S", "3H"], 8, 0)], "hand": ["8C", "2S", "10H"]},
     ["2S build 8 on 6D", "2S build 8 on [3H 5S] 6D"], ["10H trail", "2S trail"]),
    ("8 a sweep", {"table": ["3S", "5H"], "hand": ["8D", "10C"]}, ["8D capture 3S 5H"], []),
]
_ANGLO_BUILDING = [
    ("6 raising your own build", {"builds": [_b(["2S", "4H"], 6, 0)], "hand": ["3D", "9C", "6S"]},
     ["3D build 9 on [2S 4H]"], []),
    ("6 raising with table cards",
     {**P2, "table": ["9D", "AC"], "builds": [_b(["3S", "4H"], 7, 1)], "hand": ["2S", "9H", "10D"]},
     ["2S build 9 on [3S 4H]", "2S build 9 on [3S 4H] 9D"], ["2S build 10 on [3S 4H] AC"]),
    ("6 what a raise takes in",
     {**P2, "table": ["9D", "5C", "4S"], "builds": [_b(["3S", "4H"], 7, 1)], "hand": ["2H", "9C"]},
     ["2H build 9 on [3S 4H]", "2H build 9 on [3S 4H] 9D"],
     ["2H build 9 on [3S 4H] 4S 5C", "2H build 9 on [3S 4H] 4S 5C 9D"]),
    ("6 piling cards without a value", {"table": ["KS"], "hand": ["KH", "KD"]}, [], ["KH build K on KS"]),
    ("6 owning a build: raising it", {"table": ["6D"], "builds": [_b(["5S", "3H"], 8, 0)],
                                      "hand": ["8C", "2S", "10H"]}, ["2S build 10 on [3H 5S]"], []),
    ("6 keeping the card you built for", {"table": ["8D"], "builds": [_b(["5S", "3H"], 8, 0)], "hand": ["8C", "4S"]},
     ["8C capture [3H 5S]", "8C capture [3H 5S] 8D"], ["8C capture 8D"]),
    ("5 taking sums", {"table": ["5S", "4H", "6D", "3C"], "hand": ["9S"]},
     ["9S capture 3C 6D", "9S capture 4H 5S", "9S capture 3C 4H 5S 6D"], []),
]
SEVEN_ALL = ["7D capture 7H", "7D capture 7S", "7D capture 3D 4C", "7D capture 7S 7H", "7D capture 3D 4C 7H",
             "7D capture 3D 4C 7S", "7D capture 3D 4C 7S 7H"]
EQUAL7 = {"table": ["7S", "7H", "3D", "4C"], "hand": ["7D"]}
TRAIL7 = {"table": ["7S", "2H", "4D"], "hand": ["7C", "6S", "10H"]}
K_BY_VALUE = ("2 a court card by its value", {"table": ["9S", "4H"], "hand": ["KD"]}, ["KD capture 4H 9S"], [])
SUMS9 = ("5 taking sums", {"table": ["5S", "4H", "6D", "3C"], "hand": ["9S"]},
         ["9S capture 3C 6D", "9S capture 4H 5S", "9S capture 3C 4H 5S 6D"], [])
SWEEP = ("8 a sweep", {"table": ["3S", "5H"], "hand": ["8D", "10C"]}, ["8D capture 3S 5H"], [])
NO_BUILD = ("6 no building", {"table": ["5S"], "hand": ["3H", "8D"]}, ["3H trail"], ["3H build 8 on 5S"])

EXAMPLES: list[tuple[str, str, dict[str, Any], list[str], list[str]]] = [
    *[("two-handed", *e) for e in _COMMON_BUILDING + _ANGLO_BUILDING],
    ("two-handed", "5 several equal cards", EQUAL7, ["7D capture 3D 4C", "7D capture 7S 7H", "7D capture 3D 4C 7S 7H"],
     ["7D capture 3D 4C 7H", "7D capture 3D 4C 7S", "7D capture 7H", "7D capture 7S"]),
    ("two-handed", "5 cards without a value", {"table": ["KS", "KH", "KD"], "hand": ["KC"]}, ["KC capture KS KH KD"],
     ["KC capture KD", "KC capture KH", "KC capture KH KD", "KC capture KS", "KC capture KS KD", "KC capture KS KH"]),
    ("two-handed", "5 which cards may be trailed", TRAIL7, ["10H trail"], ["6S trail", "7C trail"]),
    ("two-handed", "6 a build of equal cards",
     {**P2, "table": ["3D"], "builds": [_b(["5S", "5H"], 5, 1)], "hand": ["2C", "5D", "5C"]},
     ["2C build 5 on 3D", "5D build 5 on [5S 5H]"], ["2C build 5 on [5S 5H] 3D"]),
    *[("spade", *e) for e in _COMMON_BUILDING + _ANGLO_BUILDING],
    ("spade", "5 several equal cards", EQUAL7, SEVEN_ALL, []),
    ("spade", "5 cards without a value", {"table": ["KS", "KH", "KD"], "hand": ["KC"]},
     ["KC capture KD", "KC capture KH", "KC capture KS"],
     ["KC capture KH KD", "KC capture KS KD", "KC capture KS KH", "KC capture KS KH KD"]),
    ("spade", "5 which cards may be trailed", TRAIL7, ["6S trail", "7C trail", "10H trail"], []),
    *[("dominican-soto", *e) for e in _COMMON_BUILDING],
    ("dominican-soto", *K_BY_VALUE),
    ("dominican-soto", "2 a card of two values", {"table": ["AH", "10D", "4C"], "hand": ["AS"]},
     ["AS capture AH", "AS capture AH 4C 10D"], []),
    ("dominican-soto", *SUMS9),
    ("dominican-soto", "5 several equal cards", EQUAL7, ["7D capture 7S 7H", "7D capture 3D 4C 7S 7H"],
     ["7D capture 3D 4C", "7D capture 3D 4C 7H", "7D capture 3D 4C 7S", "7D capture 7H", "7D capture 7S"]),
    ("dominican-soto", "5 which cards may be trailed", TRAIL7, ["6S trail", "10H trail"], ["7C trail"]),
    ("dominican-soto", "6 raising your own build", {"builds": [_b(["2S", "4H"], 6, 0)], "hand": ["3D", "9C", "6S"]},
     [], ["3D build 9 on [2S 4H]"]),
    ("dominican-soto", "6 what a raise takes in",
     {**P2, "table": ["9D", "5C", "4S"], "builds": [_b(["3S", "4H"], 7, 1)], "hand": ["2H", "9C"]},
     ["2H build 9 on [3S 4H]", "2H build 9 on [3S 4H] 9D", "2H build 9 on [3S 4H] 4S 5C",
      "2H build 9 on [3S 4H] 4S 5C 9D"], []),
    ("dominican-soto", "6 owning a build: not raising it", {"table": ["6D"], "builds": [_b(["5S", "3H"], 8, 0)],
                                                            "hand": ["8C", "2S", "10H"]}, [], ["2S build 10 on [3H 5S]"]),
    ("dominican-soto", "6 keeping the card you built for (the captures listed are all)",
     {"table": ["8D"], "builds": [_b(["5S", "3H"], 8, 0)], "hand": ["8C", "4S"]},
     ["8C capture [3H 5S] 8D"], ["8C capture 8D", "8C capture [3H 5S]"]),
    ("hungarian-ulmann", *K_BY_VALUE),
    ("hungarian-ulmann", "4 several cards played together", {"table": ["9S"], "hand": ["4H", "5D"]},
     ["4H+5D capture 9S"], []),
    ("hungarian-ulmann", *SUMS9),
    ("hungarian-ulmann", "5 several equal cards", EQUAL7, SEVEN_ALL, []),
    ("hungarian-ulmann", "5 cards played together in sets", {"table": ["5S"], "hand": ["2H", "3D", "5C"]},
     ["2H+3D+5C capture 5S"], []),
    ("hungarian-ulmann", "5 which cards may be trailed", TRAIL7, ["6S trail", "7C trail", "10H trail"], []),
    ("hungarian-ulmann", *NO_BUILD),
    ("hungarian-ulmann", *SWEEP),
    ("scopone", "5 taking sums", {**P4, "table": ["5D", "4H", "6S", "3C"], "hand": ["QD"]},
     ["QD capture 3C 6S", "QD capture 4H 5D"], ["QD capture 3C 4H 5D 6S"]),
    ("scopone", "5 several equal cards (only one of them)", {**P4, "table": ["7D", "7H", "3S", "4C"], "hand": ["7S"]},
     ["7S capture 7D", "7S capture 7H"], ["7S capture 7D 7H", "7S capture 3S 4C"]),
    ("scopone", "5 an equal card first", {**P4, "table": ["7D", "3H", "4S"], "hand": ["7C"]},
     ["7C capture 7D"], ["7C capture 3H 4S"]),
    ("scopone", "5 which cards may be trailed", {**P4, "table": ["7D", "2H", "4S"], "hand": ["7C", "6D", "KH"]},
     ["KH trail"], ["6D trail", "7C trail"]),
    ("scopone", "6 no building", {**P4, "table": ["5D"], "hand": ["3H", "JS"]}, ["3H trail"], ["3H build 8 on 5D"]),
    ("scopone", "8 a sweep", {**P4, "table": ["3D", "5H"], "hand": ["JS", "KC"]}, ["JS capture 3D 5H"], []),
    ("kasino-misar", *K_BY_VALUE),
    ("kasino-misar", "2 an ace from the hand 'does not take a loose ace as an equal card'",
     {"table": ["AH", "KC"], "hand": ["AS", "2C"]}, ["AS capture AH KC"], ["AS capture AH", "AS trail"]),
    ("kasino-misar", *SUMS9),
    ("kasino-misar", "5 several equal cards", EQUAL7, SEVEN_ALL, []),
    ("kasino-misar", "5 which cards may be trailed", TRAIL7, ["10H trail"], ["6S trail", "7C trail"]),
    ("kasino-misar", *NO_BUILD),
    ("kasino-misar", *SWEEP),
]


@pytest.mark.parametrize("variant,source,case,legal,illegal", EXAMPLES,
                         ids=[f"{e[0]}: {e[1][:50]}" for e in EXAMPLES])
def test_the_books_examples(variant: str, source: str, case: dict[str, Any], legal: list[str],
                            illegal: list[str]) -> None:
    got = rp.canonical_set(br.legal_moves(variant, case))
    for m in legal:
        assert rp.canonical(m) in got, f"{variant} {source}: {m} should be legal; got {sorted(got)}"
    for m in illegal:
        assert rp.canonical(m) not in got, f"{variant} {source}: {m} should be illegal"


@pytest.mark.parametrize("variant,source,case,legal,illegal", EXAMPLES,
                         ids=[f"{e[0]}: {e[1][:50]}" for e in EXAMPLES])
def test_the_engine_agrees_on_the_books_examples(variant: str, source: str, case: dict[str, Any], legal: list[str],
                                                 illegal: list[str]) -> None:
    got = rp.case_moves(variant, case)
    assert got == rp.canonical_set(br.legal_moves(variant, case))
    for m in legal:
        assert rp.canonical(m) in got
    for m in illegal:
        assert rp.canonical(m) not in got


# ------------------------------------------------------------------ (b) the CI slice
PER_SEATING = 60


@pytest.fixture(scope="module")
def slice_tally() -> rp.Tally:
    """The first PER_SEATING positions of seeds 1 and 2 of every seating (17 seatings)."""
    return rp.run_each(rp.seatings(br.VARIANTS), range(1, 3), br.legal_moves, PER_SEATING)


def test_the_slice_compares_every_seating(slice_tally: rp.Tally) -> None:
    assert set(slice_tally.by_seating) == set(rp.seatings(br.VARIANTS))
    assert min(slice_tally.by_seating.values()) >= 30
    assert slice_tally.positions > 900


def test_no_undeclared_disagreement_in_play(slice_tally: rp.Tally) -> None:
    bad = rp.undeclared(br, slice_tally.found)
    assert not bad, "\n".join(str(d) for d in bad[:5])


# positions built at random: builds single and multiple, of equal cards, with aces (dominican's 1 or 14)
_RANKS52 = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_RANKS40 = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]


def random_case(rnd: random.Random, variant: str, players: int, partners: bool) -> dict[str, Any] | None:
    deck = [r + s for r in (_RANKS40 if variant == "scopone" else _RANKS52) for s in "SHDC"]
    rnd.shuffle(deck)
    used: set[str] = set()

    def val(c: str) -> tuple[int, ...]:
        return br._table_values(variant, c)

    def take(pred: Any) -> str | None:
        for c in deck:
            if c not in used and pred(c):
                used.add(c)
                return c
        return None

    builds = []
    if variant in br.BUILDING:
        top = 14 if variant == "dominican-soto" else 10
        for _ in range(rnd.choice([0, 1, 1, 2, 2, 3])):
            v = rnd.randint(2, top)
            cards: list[str] = []
            for g in range(rnd.choice([1, 1, 2, 3])):
                if g and rnd.random() < 0.4:
                    parts = [v]
                else:
                    a = rnd.randint(1, v - 1)
                    parts = [a, v - a] if rnd.random() < 0.6 or v - a < 2 else [a, 1, v - a - 1]
                for p in parts:
                    c = take(lambda c, p=p: p in val(c))
                    if c is None:
                        return None
                    cards.append(c)
            builds.append({"cards": cards, "value": v, "owner": rnd.randrange(players)})
    table = [take(lambda c: True) for _ in range(rnd.randint(0, 6))]
    hands: dict[int, list[str]] = {s: [] for s in range(players)}
    for b in builds:
        if not any(b["value"] in br._played_values(variant, c) for c in hands[b["owner"]]):
            c = take(lambda c, v=b["value"]: v in br._played_values(variant, c))
            if c is None:
                return None
            hands[b["owner"]].append(c)
    for s in range(players):
        for _ in range(rnd.randint(1, 4) - len(hands[s])):
            t = rnd.choice(table) if table and rnd.random() < 0.6 else None
            c = take(lambda c: True) if t is None else take(lambda c, t=t: c[:-1] == t[:-1])
            if c is not None:
                hands[s].append(c)
    seat = rnd.randrange(players)
    if not hands[seat] or any(c is None for c in table):
        return None
    return {"players": players, "partners": partners, "to_play": seat, "hand": hands[seat],
            "hands": {s: h for s, h in hands.items() if s != seat and h}, "table": table, "builds": builds}


SEATS = {v: sorted({(p, q) for w, p, q in rp.seatings(br.VARIANTS) if w == v}) for v in br.VARIANTS}


def compare_random(variants: tuple[str, ...], n: int, reference: Any = br.legal_moves,
                   first: int = 0) -> tuple[int, list[tuple[str, str, str, dict[str, Any]]]]:
    """Positions built at random, compared: (how many, [(variant, side, move, case)])."""
    found = []
    compared = 0
    for variant in variants:
        seats = SEATS[variant]
        for i in range(first, first + n):
            players, partners = seats[i % len(seats)]
            case = random_case(random.Random(i), variant, players, partners)
            if case is None:
                continue
            theirs = rp.case_moves(variant, case)
            mine = {rp.canonical(m) for m in reference(variant, case)}
            compared += 1
            found += [(variant, "engine only", m, case) for m in sorted(theirs - mine)]
            found += [(variant, "reference only", m, case) for m in sorted(mine - theirs)]
    return compared, found


def _declared_random(variant: str, side: str, move: str, case: dict[str, Any]) -> bool:
    d = rp.Disagreement(variant, case["players"], case["partners"], 0, 0, rp.canonical(move),
                        side == "engine only", {**case, "builds": case["builds"]})
    return any(t(d) for _, _, t in br.DECLARED)


def test_no_disagreement_on_positions_built_at_random() -> None:
    compared, found = compare_random(br.VARIANTS, 120)
    assert compared > 600
    bad = [f for f in found if not _declared_random(*f)]
    assert not bad, "\n".join(map(str, bad[:5]))


# ------------------------------------------------------------------ (c) the comparison can fail
def test_a_reference_without_raises_is_caught() -> None:
    def no_raise(variant: str, case: dict[str, Any]) -> set[str]:
        values = {rp.canonical(br._bracket(b["cards"])): b["value"] for b in case.get("builds", [])}
        out = set()
        for m in br.legal_moves(variant, case):
            c = rp.canonical(m)
            words = c.split()
            if words[1] == "build" and "[" in c:
                inner = "[" + c.split("[")[1].split("]")[0] + "]"
                if str(values.get(inner)) != words[2]:
                    continue
            out.add(m)
        return out

    compared, found = compare_random(("two-handed", "spade", "dominican-soto"), 150, no_raise)
    assert found and all(side == "engine only" and " build " in m for _, side, m, _ in found)


def test_a_reference_without_multi_card_plays_is_caught() -> None:
    def one_card(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in br.legal_moves(variant, case) if "+" not in m.split()[0]}

    tally = rp.run([("hungarian-ulmann", 2, False)], range(1, 2), one_card)
    bad = rp.undeclared(br, tally.found)
    assert bad and all(d.engine_says and "+" in d.move.split()[0] for d in bad)


def test_a_reference_letting_a_capturing_card_trail_is_caught() -> None:
    def trails(variant: str, case: dict[str, Any]) -> set[str]:
        return br.legal_moves(variant, case) | {f"{c} trail" for c in case["hand"]}

    tally = rp.run([("scopone", 4, True)], range(1, 2), trails)
    bad = rp.undeclared(br, tally.found)
    assert bad and all(not d.engine_says and d.move.endswith(" trail") for d in bad)


def test_the_reference_refuses_a_variant_it_does_not_cover() -> None:
    with pytest.raises(ValueError):
        br.legal_moves("standard", {"hand": ["5S"]})

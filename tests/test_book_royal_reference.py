"""The clean-room reference written from the generated rulebooks alone (``book_royal_reference``: ``cassino
rules royal|tuxedo|dominican|hungarian``) against the rulebooks' own worked examples, and against the
engine on random games.

(a) The rulebooks' worked examples, with the plays they list or forbid: they test the reference, and,
    read as ``cassino check`` reads them, the engine agrees with the reference there.
(b) The CI slice: every seating of each variant over a few random games; no disagreement but the
    declared ones (``DECLARED``).
(c) The comparison can fail: a reference that drops a class of moves, or adds illegal ones, is caught.
"""

from __future__ import annotations

from typing import Any

import pytest

import book_royal_reference as ref
import reference_positions as rp

B1 = {"owner": 1}
B0 = {"owner": 0}


def _b(cards: list[str], value: int, who: dict[str, int]) -> dict[str, Any]:
    return {"cards": cards, "value": value, **who}


# (name, variant, case, legal, illegal, exact): exact maps a prefix ("7D capture", "trail") to the whole set of
# legal moves that start with it (or end with it, for "trail"), as a book's "Captures with ...:" line lists
BOOK: list[tuple[str, str, dict[str, Any], list[str], list[str], dict[str, list[str]]]] = []


def _add(name: str, variants: tuple[str, ...], case: dict[str, Any], legal: list[str], illegal: list[str] = (),
         exact: dict[str, list[str]] | None = None) -> None:
    for v in variants:
        BOOK.append((f"{v}: {name}", v, case, list(legal), list(illegal), exact or {}))


RD = ("royal", "dominican")
_add("2 a court card by its value", RD + ("hungarian",), {"table": ["9S", "4H"], "hand": ["KD"]},
     ["KD capture 4H 9S"])
_add("2 a card of two values", ("royal",), {"table": ["AH", "10D", "4C"], "hand": ["AS"]}, [], [],
     {"AS capture": ["AS capture AH", "AS capture 4C 10D", "AS capture AH 4C 10D"]})
_add("2 a card of two values (equal cards must be taken)", ("dominican",),
     {"table": ["AH", "10D", "4C"], "hand": ["AS"]}, [], ["AS capture 4C 10D"],
     {"AS capture": ["AS capture AH", "AS capture AH 4C 10D"]})
_add("5 taking sums", RD + ("hungarian",), {"table": ["5S", "4H", "6D", "3C"], "hand": ["9S"]}, [], [],
     {"9S capture": ["9S capture 3C 6D", "9S capture 4H 5S", "9S capture 3C 4H 5S 6D"]})
_add("5 taking sums", ("tuxedo",), {"table": ["5B", "4R", "6G", "3Y"], "hand": ["9B"]}, [], [],
     {"9B capture": ["9B capture 3Y 6G", "9B capture 4R 5B", "9B capture 3Y 4R 5B 6G"]})
_add("5 several equal cards", ("royal", "hungarian"), {"table": ["7S", "7H", "3D", "4C"], "hand": ["7D"]}, [], [],
     {"7D capture": ["7D capture 7H", "7D capture 7S", "7D capture 3D 4C", "7D capture 7S 7H",
                     "7D capture 3D 4C 7H", "7D capture 3D 4C 7S", "7D capture 3D 4C 7S 7H"]})
_add("5 several equal cards: all must be taken", ("dominican",), {"table": ["7S", "7H", "3D", "4C"], "hand": ["7D"]},
     [], ["7D capture 3D 4C", "7D capture 7H", "7D capture 7S"],
     {"7D capture": ["7D capture 7S 7H", "7D capture 3D 4C 7S 7H"]})
_add("5 which cards may be trailed", ("royal", "hungarian"), {"table": ["7S", "2H", "4D"], "hand": ["7C", "6S", "10H"]},
     [], [], {"trail": ["6S trail", "7C trail", "10H trail"]})
_add("5 no trailing a card equal to a loose card", ("dominican",),
     {"table": ["7S", "2H", "4D"], "hand": ["7C", "6S", "10H"]}, [], ["7C trail"],
     {"trail": ["6S trail", "10H trail"]})
_add("6 making a build", RD, {"table": ["5S", "2H"], "hand": ["3D", "8C"]}, ["3D build 8 on 5S"],
     ["3D build 10 on 2H 5S", "3D build 5 on 2H"], {"3D build": ["3D build 8 on 5S"]})
_add("6 a multiple build", RD, {"table": ["5S", "8H"], "hand": ["3D", "8C"]}, [], [],
     {"3D build": ["3D build 8 on 5S", "3D build 8 on 5S 8H"]})
_add("6 adding to a build", RD, {"table": ["6D"], "builds": [_b(["5S", "3H"], 8, B1)], "hand": ["2C", "8S"]},
     [], [], {"2C build": ["2C build 8 on 6D", "2C build 8 on [3H 5S] 6D"]})
_add("6 raising another player's build", RD, {"builds": [_b(["2S", "4H"], 6, B1)], "hand": ["3D", "9C"]},
     [], [], {"3D build": ["3D build 9 on [2S 4H]"]})
_add("6 raising your own build", ("royal",), {"builds": [_b(["2S", "4H"], 6, B0)], "hand": ["3D", "9C", "6S"]},
     [], [], {"3D build": ["3D build 9 on [2S 4H]"]})
_add("6 raising your own build", ("tuxedo",), {"builds": [_b(["2B", "4R"], 6, B0)], "hand": ["3G", "9Y", "6B"]},
     [], [], {"3G build": ["3G build 9 on [2B 4R]"]})
_add("6 never raising your own build", ("dominican",), {"builds": [_b(["2S", "4H"], 6, B0)],
                                                        "hand": ["3D", "9C", "6S"]},
     [], ["3D build 9 on [2S 4H]"], {"3D build": []})
_add("6 raising with table cards", ("tuxedo",), {"table": ["9G", "1Y"], "builds": [_b(["3B", "4R"], 7, B1)],
                                                 "hand": ["2B", "9R", "10G"]},
     [], ["2B build 10 on [3B 4R] 1Y"], {"2B build": ["2B build 9 on [3B 4R]", "2B build 9 on [3B 4R] 9G"]})
_add("6 what a raise takes in", RD, {"table": ["9D", "5C", "4S"], "builds": [_b(["3S", "4H"], 7, B1)],
                                     "hand": ["2H", "9C"]}, [], [],
     {"2H build": ["2H build 9 on [3S 4H]", "2H build 9 on [3S 4H] 9D", "2H build 9 on [3S 4H] 4S 5C",
                   "2H build 9 on [3S 4H] 4S 5C 9D"]})
_add("6 a build in a sum", RD, {"table": ["4D"], "builds": [_b(["2S", "3H"], 5, B1)], "hand": ["9C"]},
     [], ["9C capture [2S 3H] 4D"], {"9C capture": []})
_add("6 owning a build", ("royal",), {"table": ["6D"], "builds": [_b(["5S", "3H"], 8, B0)],
                                      "hand": ["8C", "2S", "10H"]},
     [], ["10H trail", "2S trail"],
     {"trail": [], "2S build": ["2S build 8 on 6D", "2S build 10 on [3H 5S]", "2S build 8 on [3H 5S] 6D"]})
_add("6 owning a build", ("dominican",), {"table": ["6D"], "builds": [_b(["5S", "3H"], 8, B0)],
                                          "hand": ["8C", "2S", "10H"]},
     [], ["10H trail", "2S trail"], {"trail": [], "2S build": ["2S build 8 on 6D", "2S build 8 on [3H 5S] 6D"]})
_add("6 keeping the card you built for", ("royal",), {"table": ["8D"], "builds": [_b(["5S", "3H"], 8, B0)],
                                                      "hand": ["8C", "4S"]},
     [], ["8C capture 8D"], {"8C capture": ["8C capture [3H 5S]", "8C capture [3H 5S] 8D"]})
_add("6 keeping the card you built for", ("dominican",), {"table": ["8D"], "builds": [_b(["5S", "3H"], 8, B0)],
                                                          "hand": ["8C", "4S"]},
     [], ["8C capture 8D"], {"8C capture": ["8C capture [3H 5S] 8D"]})
_add("8 a sweep", RD, {"table": ["3S", "5H"], "hand": ["8D", "10C"]}, ["8D capture 3S 5H"])
_add("10 an orange", ("tuxedo",), {"table": ["1R", "1Y"], "hand": ["2G"]}, [], [], {"2G capture": ["2G capture 1R 1Y"]})
_add("4 several cards played together", ("hungarian",), {"table": ["9S"], "hand": ["4H", "5D"]},
     ["4H+5D capture 9S"])
_add("5 cards played together in sets", ("hungarian",), {"table": ["5S"], "hand": ["2H", "3D", "5C"]},
     [], ["2H+3D+5C capture 5S"], {"2H+3D+5C capture": []})
_add("6 no building", ("hungarian",), {"table": ["5S"], "hand": ["3H", "8D"]}, ["3H trail"], ["3H build 8 on 5S"],
     {"3H ": ["3H trail"]})


def _listed(moves: set[str], prefix: str) -> set[str]:
    if prefix == "trail":
        return {m for m in moves if m.endswith(" trail")}
    return {m for m in moves if m.startswith(prefix.rstrip() + " ")}


@pytest.mark.parametrize("name, variant, case, legal, illegal, exact", BOOK, ids=[c[0] for c in BOOK])
def test_the_reference_follows_the_rulebooks_examples(name: str, variant: str, case: dict[str, Any],
                                                      legal: list[str], illegal: list[str],
                                                      exact: dict[str, list[str]]) -> None:
    moves = rp.canonical_set(ref.legal_moves(variant, case))
    for m in legal:
        assert rp.canonical(m) in moves, f"{m} should be legal: {sorted(moves)}"
    for m in illegal:
        assert rp.canonical(m) not in moves, f"{m} should be illegal"
    for prefix, want in exact.items():
        assert _listed(moves, prefix) == rp.canonical_set(want), prefix


@pytest.mark.parametrize("name, variant, case, legal, illegal, exact", BOOK, ids=[c[0] for c in BOOK])
def test_the_engine_lists_the_same_moves_on_the_rulebooks_examples(name: str, variant: str, case: dict[str, Any],
                                                                   legal: list[str], illegal: list[str],
                                                                   exact: dict[str, list[str]]) -> None:
    full = {"players": 2, **case, "captured": case.get("captured", {})}
    assert rp.case_moves(variant, full) == rp.canonical_set(ref.legal_moves(variant, full))


def test_every_gap_and_declared_reading_is_well_formed() -> None:
    assert all(len(g) == 4 and all(isinstance(x, str) and x for x in g) for g in ref.GAPS)
    for name, reading, test in ref.DECLARED:
        assert name and "rulebook" in reading and callable(test)


# ---------------------------------------------------------------------- (b) the CI slice
SEATINGS = rp.seatings(ref.VARIANTS)
SEEDS = range(1, 3)
PER_SEATING = 120


@pytest.fixture(scope="module")
def tally() -> rp.Tally:
    return rp.run_each(SEATINGS, SEEDS, ref.legal_moves, PER_SEATING)


def test_the_slice_covers_every_seating(tally: rp.Tally) -> None:
    assert {v for v, _, _ in SEATINGS} == set(ref.VARIANTS)
    assert set(tally.by_seating) == set(SEATINGS)
    assert min(tally.by_seating.values()) >= 60
    assert tally.lossy == 0


def test_no_undeclared_disagreement(tally: rp.Tally) -> None:
    undeclared = [str(d) for d in tally.found if rp.explained(ref, d) is None]
    assert not undeclared, "\n".join(undeclared[:5])


# ---------------------------------------------------------------------- (c) the comparison can fail
def _mutant(reference: Any) -> rp.Tally:
    return rp.run([("dominican", 2, False), ("royal", 4, True), ("tuxedo", 3, False), ("hungarian", 2, False)],
                  range(1, 2), reference, max_positions=600)


def test_a_reference_without_builds_onto_builds_is_caught() -> None:
    def no_adding(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in ref.legal_moves(variant, case) if not (" build " in m and "[" in m)}

    missed = [d for d in _mutant(no_adding).found if d.engine_says]
    assert missed and all(" build " in d.move and "[" in d.move for d in missed)
    assert all(rp.explained(ref, d) is None for d in missed)


def test_a_reference_that_trails_beside_an_equal_card_in_dominican_is_caught() -> None:
    def lax(variant: str, case: dict[str, Any]) -> set[str]:
        moves = ref.legal_moves(variant, case)
        if variant == "dominican" and not any(b["owner"] == case["to_play"] for b in case["builds"]):
            moves |= {f"{h} trail" for h in case["hand"]}
        return moves

    extra = [d for d in _mutant(lax).found if not d.engine_says]
    assert extra and all(d.move.endswith("trail") and d.variant == "dominican" for d in extra)
    assert all(rp.explained(ref, d) is None for d in extra)


def test_a_reference_that_plays_one_card_at_a_time_in_hungarian_is_caught() -> None:
    def single(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in ref.legal_moves(variant, case) if "+" not in m.split()[0]}

    missed = [d for d in _mutant(single).found if d.engine_says]
    assert missed and all(d.variant == "hungarian" and "+" in d.move for d in missed)

"""The clean-room reference of African Casino written from the generated rulebooks alone
(``book_african_reference``): (a) its answers, and the engine's, on the rulebooks' worked examples; (b) a CI
slice comparing it with the engine on every seating of each variant over random games, where no
undeclared disagreement may appear; (c) the comparison catches a reference that drops a class of moves.

``benchmarks/reference_compare.py --reference book_african_reference --seeds N`` runs the large comparison.
"""

from __future__ import annotations

from typing import Any

import pytest

import book_african_reference as br
import reference_positions as rp

SA, SW = "south-african-casino", "swazi-casino"
BOTH = (SA, SW)


def _moves(variant: str, case: dict[str, Any]) -> set[str]:
    return {rp.canonical(m) for m in br.legal_moves(variant, case)}


# ------------------------------------------------------------------ (a) the rulebooks' worked examples
# (variants, the example's title, position, {prefix: the moves starting so, exactly}, legal, illegal).
# A prefix "9S capture" stands for the book's "Captures with 9♠: ..." list, "build " for "Builds with no
# card from your hand", " trail" (a suffix) for "Trails". Seat 0 to play, 2 players, unless given.
E = list[str]
EXAMPLES: list[tuple[tuple[str, ...], str, dict[str, Any], dict[str, E], E, E]] = [
    (BOTH, "taking sums", {"table": ["5S", "4H", "6D", "3C"], "hand": ["9S"]},
     {"9S capture": ["9S capture 3C 6D", "9S capture 4H 5S", "9S capture 3C 4H 5S 6D"]}, [], []),
    (BOTH, "several equal cards", {"table": ["7S", "7H", "3D", "4C"], "hand": ["7D"]},
     {"7D capture": ["7D capture 7H", "7D capture 7S", "7D capture 3D 4C", "7D capture 7S 7H",
                     "7D capture 3D 4C 7H", "7D capture 3D 4C 7S", "7D capture 3D 4C 7S 7H"]}, [], []),
    (BOTH, "which cards may be trailed", {"table": ["7S", "2H", "4D"], "hand": ["7C", "6S", "10H"]},
     {" trail": ["6S trail", "7C trail", "10H trail"]}, [], []),
    (BOTH, "augmenting with pile cards",
     {"table": ["9S", "7H", "4D"], "hand": ["9H"], "captured": {1: ["2C", "5S"]}},
     {"9H capture": ["9H capture 9S", "9H capture 4D 5S 9S", "9H capture 2C 4D 5S 7H 9S"]}, [],
     ["9H capture 2C 7H 9S", "9H capture 4D 5S"]),
    (BOTH, "making a build", {"table": ["5S", "2H"], "hand": ["3D", "8C"]},
     {"3D build": ["3D build 8 on 5S"]}, [], ["3D build 10 on 2H 5S", "3D build 5 on 2H"]),
    (BOTH, "a multiple build", {"table": ["5S", "8H"], "hand": ["3D", "8C"]},
     {"3D build": ["3D build 8 on 5S", "3D build 8 on 5S 8H"]}, [], []),
    (BOTH, "adding to a build",
     {"table": ["6D", "8H"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 0}], "hand": ["2C", "8S"]},
     {"2C build": ["2C build 8 on [3H 5S] 6D", "2C build 8 on [3H 5S] 6D 8H"]}, [], []),
    (BOTH, "another side's build",
     {"table": ["6D", "2C"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 1}], "hand": ["2S", "8H"]},
     {"2S build": [], "8H capture": ["8H capture 2C 6D", "8H capture [3H 5S]", "8H capture [3H 5S] 2C 6D"]},
     [], ["2S build 8 on [3H 5S] 6D"]),
    (BOTH, "raising another player's build",
     {"builds": [{"cards": ["2S", "4H"], "value": 6, "owner": 1}], "hand": ["3D", "9C"]},
     {"3D build": ["3D build 9 on [2S 4H]"]}, [], []),
    (BOTH, "raising your own build",
     {"builds": [{"cards": ["2S", "4H"], "value": 6, "owner": 0}], "hand": ["3D", "9C", "6S"]},
     {"3D build": []}, [], ["3D build 9 on [2S 4H]"]),
    (BOTH, "your partner's build",
     {"players": 4, "partners": True, "builds": [{"cards": ["2S", "4H"], "value": 6, "owner": 2}],
      "hand": ["3D", "9C"]},
     {"3D build": []}, [], ["3D build 9 on [2S 4H]"]),
    ((SA,), "raising with table cards",
     {"table": ["9D", "AC"], "builds": [{"cards": ["3S", "4H"], "value": 7, "owner": 1}], "hand": ["2S", "9H", "10D"]},
     {"2S build": ["2S build 9 on [3S 4H]", "2S build 9 on [3S 4H] 9D"]}, [], ["2S build 10 on [3S 4H] AC"]),
    (BOTH, "what a raise takes in",
     {"table": ["9D", "5C", "4S"], "builds": [{"cards": ["3S", "4H"], "value": 7, "owner": 1}], "hand": ["2H", "9C"]},
     {"2H build": ["2H build 9 on [3S 4H]", "2H build 9 on [3S 4H] 9D", "2H build 9 on [3S 4H] 4S 5C",
                   "2H build 9 on [3S 4H] 4S 5C 9D"]}, [], []),
    (BOTH, "one build a value",
     {"players": 4, "partners": True, "table": ["5D"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 2}],
      "hand": ["3C", "8S"]},
     {"3C build": ["3C build 8 on [3H 5S] 5D"]}, [], ["3C build 8 on 5D"]),
    ((SA,), "one build a player",
     {"table": ["2S"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 0},
                                  {"cards": ["2D", "4C"], "value": 6, "owner": 1}],
      "hand": ["3D", "8D", "5C", "9S"]},
     {"3D build": []}, [], ["3D build 5 on 2S", "3D build 9 on [2D 4C]"]),
    (BOTH, "a turn of several actions",
     {"players": 3, "table": ["5S", "3H", "2D", "9C"], "hand": ["10S", "9H"]},
     {"build ": ["build 10 on 2D 3H 5S"], "9H capture": ["9H capture 9C"]}, [], []),
    (BOTH, "a build in a sum",
     {"table": ["4D"], "builds": [{"cards": ["2S", "3H"], "value": 5, "owner": 1}], "hand": ["9C"]},
     {"9C capture": []}, [], ["9C capture [2S 3H] 4D"]),
    (BOTH, "building for your partner",
     {"players": 4, "partners": True, "table": ["5D"], "builds": [{"cards": ["6S", "3H"], "value": 9, "owner": 2}],
      "hand": ["4C", "2S"]},
     {"4C build": ["4C build 9 on [3H 6S] 5D"]}, [], []),
    (BOTH, "owning a build (before the last deal: a stock)",
     {"table": ["6D"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 0}], "hand": ["8C", "2S", "10H"]},
     {" trail": [], "2S build": ["2S build 8 on [3H 5S] 6D"]}, [], ["10H trail", "2S trail"]),
    (BOTH, "keeping the card you built for",
     {"table": ["8D"], "builds": [{"cards": ["5S", "3H"], "value": 8, "owner": 0}], "hand": ["8C", "4S"]},
     {"8C capture": ["8C capture [3H 5S]", "8C capture [3H 5S] 8D"]}, [], ["8C capture 8D"]),
    (BOTH, "a sweep", {"table": ["3S", "5H"], "hand": ["8D", "10C"]}, {}, ["8D capture 3S 5H"], []),
    ((SW,), "a court card by its value", {"table": ["9S", "4H"], "hand": ["KD"]},
     {"KD capture": ["KD capture 4H 9S"]}, [], []),
    ((SW,), "a card of two values", {"table": ["AH", "10D", "4C"], "hand": ["AS"]},
     {"AS capture": ["AS capture AH", "AS capture 4C 10D", "AS capture AH 4C 10D"]}, [], []),
]

CASES = [(v, title, case, only, legal, illegal) for vs, title, case, only, legal, illegal in EXAMPLES for v in vs]


def _kind(move: str, prefix: str) -> bool:
    """Whether a canonical move is of the example's list: " trail" (trails), "build " (builds with no card
    from the hand), or "9S capture" / "3D build" (a card's captures or builds)."""
    if prefix == " trail":
        return move.endswith(" trail")
    if prefix == "build ":
        return move.startswith("BUILD ")
    card, action = prefix.split()
    words = move.split()
    return words[0] == card.upper() and words[1] == action


def _check(got: set[str], title: str, only: dict[str, E], legal: E, illegal: E) -> None:
    for prefix, expected in only.items():
        chosen = {m for m in got if _kind(m, prefix)}
        assert chosen == rp.canonical_set(expected), f"{title}: {prefix}: got {sorted(chosen)}"
    for m in legal:
        assert rp.canonical(m) in got, f"{title}: {m} should be legal; got {sorted(got)}"
    for m in illegal:
        assert rp.canonical(m) not in got, f"{title}: {m} should be illegal"


def _ids() -> list[str]:
    return [f"{v[:5]}-{t[:40]}" for v, t, *_ in CASES]


@pytest.mark.parametrize("variant,title,case,only,legal,illegal", CASES, ids=_ids())
def test_the_books_examples(variant: str, title: str, case: dict[str, Any], only: dict[str, E], legal: E,
                            illegal: E) -> None:
    _check(_moves(variant, case), title, only, legal, illegal)


@pytest.mark.parametrize("variant,title,case,only,legal,illegal", CASES, ids=_ids())
def test_the_engine_passes_the_books_examples(variant: str, title: str, case: dict[str, Any], only: dict[str, E],
                                              legal: E, illegal: E) -> None:
    _check(rp.case_moves(variant, case), title, only, legal, illegal)


# ------------------------------------------------------------------ (b) the CI slice
@pytest.fixture(scope="module")
def slice_tally() -> rp.Tally:
    """Every turn's start of seeds 9101 and 9102 of every seating (2, 3 and 4 players, 4 in partnerships)."""
    return rp.run(rp.seatings(br.VARIANTS), range(9101, 9103), br.legal_moves)


def test_the_slice_compares_every_seating(slice_tally: rp.Tally) -> None:
    expected = {(SA, 2, False), (SA, 3, False), (SA, 4, False), (SA, 4, True), (SW, 2, False), (SW, 3, False),
                (SW, 4, True)}
    assert set(rp.seatings(br.VARIANTS)) == expected
    assert set(slice_tally.by_seating) == expected
    assert min(slice_tally.by_seating.values()) >= 40
    assert slice_tally.positions > 800


def test_no_undeclared_disagreement_in_play(slice_tally: rp.Tally) -> None:
    bad = rp.undeclared(br, slice_tally.found)
    assert not bad, "\n".join(str(d) for d in bad[:5])


# ------------------------------------------------------------------ (c) the comparison can fail
def _uses_pile_card(case: dict[str, Any], move: str) -> bool:
    in_play = set(case.get("table", [])) | {c for b in case.get("builds", []) for c in b["cards"]}
    words = move.replace("[", " ").replace("]", " ").split()
    cards = [w for w in words[1:] if w not in ("capture", "build", "on", "trail") and not w.isdigit()]
    return any(c not in in_play for c in cards)


def test_a_reference_without_pile_captures_is_caught() -> None:
    def no_pile_captures(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in br.legal_moves(variant, case)
                if not (" capture " in m and _uses_pile_card(case, m))}

    tally = rp.run([(SA, 2, False)], range(9101, 9104), no_pile_captures)
    bad = rp.undeclared(br, tally.found)
    assert bad and all(d.engine_says and " capture " in d.move for d in bad)


def test_a_reference_without_free_builds_is_caught() -> None:
    def no_free_builds(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in br.legal_moves(variant, case) if not m.startswith("build ")}

    tally = rp.run([(SW, 3, False)], range(9101, 9102), no_free_builds)
    bad = rp.undeclared(br, tally.found)
    assert bad and all(d.engine_says and d.move.startswith("BUILD ") for d in bad)   # canonical text


def test_the_reference_refuses_a_variant_it_does_not_cover() -> None:
    with pytest.raises(ValueError):
        br.legal_moves("royal", {"hand": ["5S"]})

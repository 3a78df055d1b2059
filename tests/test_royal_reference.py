"""The clean-room reference for Royal Casino and its relatives (``royal_reference``, written from the rule
texts 000-002 alone) against the texts' own examples, and against the engine on random games.

(a) Positions the texts show, with the plays they call legal or illegal: they test the reference (and, read
    through the harness as ``cassino check`` reads them, the engine too).
(b) The CI slice: seeds 1 and 2 of every seating of each variant, no disagreement but the declared reading.
(c) The comparison can fail: a reference that drops a class of moves, or adds an illegal one, is reported.
"""

from __future__ import annotations

from typing import Any

import pytest

import reference_positions as rp
import royal_reference as ref

# ---------------------------------------------------------------------- (a) the texts' examples
# (name, variant, case, legal, illegal)
TEXT_CASES: list[tuple[str, str, dict[str, Any], list[str], list[str]]] = [
    ("002 Dom 3.1: the King must take the King, sums are optional", "dominican",
     {"table": ["KS", "8S", "7H", "5C", "AD"], "hand": ["KH", "2C"]},
     ["KH capture KS 8S 5C", "KH capture KS 7H 5C AD", "KH capture KS"],
     ["KH trail", "KH capture 8S 5C", "KH capture 7H 5C AD"]),
    ("002 Dom 3.1: holding a second King, a multiple build K,K,7,5,A", "dominican",
     {"table": ["KS", "8S", "7H", "5C", "AD"], "hand": ["KH", "KC"]},
     ["KH build 13 on KS 7H 5C AD", "KH capture KS"], ["KH trail"]),
    ("002 Dom 3.2: the Queen may take 7+5, or trail: no equal card", "dominican",
     {"table": ["7S", "5H", "4D"], "hand": ["QC", "3D"]},
     ["QC capture 7S 5H", "QC trail"], []),
    ("002 Dom 3.3: both tens must be captured", "dominican",
     {"table": ["10D", "10C", "8H", "6H"], "hand": ["10S", "2C"]},
     ["10S capture 10D 10C"], ["10S capture 10D", "10S capture 10C", "10S trail"]),
    ("002 Dom 3.4: a 5 on a loose 5 builds 10 instead of capturing", "dominican",
     {"table": ["5S", "9C"], "hand": ["5H", "10D"]},
     ["5H build 10 on 5S", "5H capture 5S"], ["5H trail"]),
    ("002 Dom 3.5: no adding your only 9 to partner's 9, but trailing it is allowed", "dominican",
     {"players": 4, "partners": True, "builds": [{"cards": ["5S", "4H"], "value": 9, "owner": 2}],
      "hand": ["9C", "3D"], "hands": {2: ["9D", "KC"]}},
     ["9C trail", "9C capture [5S 4H]"], ["9C build 9 on [5S 4H]"]),
    ("002 Dom restriction 1: no building for partner, even if partner holds the card", "dominican",
     {"players": 4, "partners": True, "table": ["5S"], "hand": ["3C", "7D"], "hands": {2: ["8D"]}},
     ["3C trail"], ["3C build 8 on 5S"]),
    ("002 Dom restriction 2: the owner may not trail", "dominican",
     {"builds": [{"cards": ["3C", "5D"], "value": 8, "owner": 0}], "hand": ["8H", "KD"]},
     ["8H capture [3C 5D]"], ["KD trail", "8H trail"]),
    ("002 Dom restriction 5: another player's 7+5 raised with a 2 for the Ace", "dominican",
     {"builds": [{"cards": ["7S", "5H"], "value": 12, "owner": 1}], "hand": ["2C", "AD"], "hands": {1: ["QD"]}},
     ["2C build 14 on [7S 5H]"], []),
    ("002 Dom restriction 5: never your own build", "dominican",
     {"builds": [{"cards": ["7S", "5H"], "value": 12, "owner": 0}], "hand": ["2C", "AD", "QD"]},
     ["QD capture [7S 5H]"], ["2C build 14 on [7S 5H]"]),
    ("002 Dom restriction 5: a partner's build may be raised", "dominican",
     {"players": 4, "partners": True, "builds": [{"cards": ["7S", "5H"], "value": 12, "owner": 2}],
      "hand": ["2C", "AD"], "hands": {2: ["QD"]}},
     ["2C build 14 on [7S 5H]"], []),
    ("002 Dom restriction 6: a multiple build's value never changes", "dominican",
     {"builds": [{"cards": ["9S", "5H", "4D"], "value": 9, "owner": 1}], "hand": ["2C", "JD", "9C"],
      "hands": {1: ["9D"]}},
     ["9C capture [9S 5H 4D]"], ["2C build 11 on [9S 5H 4D]"]),
    ("002 Dom: an Ace takes 8, 5 and A (8+5+1=14)", "dominican",
     {"table": ["8S", "5H", "AC"], "hand": ["AD", "3C"]},
     ["AD capture 8S 5H AC", "AD capture AC"], ["AD trail", "AD capture 8S 5H"]),
    ("002 N. America: a Queen takes a Five and a Seven", "royal",
     {"table": ["5S", "7D"], "hand": ["QH"]}, ["QH capture 5S 7D", "QH trail"], []),
    ("002 N. America: an Ace takes a King and an Ace", "royal",
     {"table": ["KS", "AH"], "hand": ["AD"]}, ["AD capture KS AH", "AD capture AH", "AD trail"], []),
    ("002 N. America 2: a card may be trailed beside an equal card", "royal",
     {"table": ["10D"], "hand": ["10S"]}, ["10S trail", "10S capture 10D"], []),
    ("000 5.1 Example A: raising a build of 6 with a 2 for the 8 (own builds too in royal)", "royal",
     {"builds": [{"cards": ["3S", "3H"], "value": 6, "owner": 0}], "hand": ["2C", "8D", "6C"]},
     ["2C build 8 on [3S 3H]"], ["2C trail"]),
    ("000 5.1: the two threes built as 3 cannot become 5", "royal",
     {"builds": [{"cards": ["3S", "3H"], "value": 3, "owner": 1}], "hand": ["2C", "5D"], "hands": {1: ["3D"]}},
     ["2C trail"], ["2C build 5 on [3S 3H]"]),
    ("000 5.1 Example B: no table card changes the value", "royal",
     {"builds": [{"cards": ["AS", "4D"], "value": 5, "owner": 1}], "table": ["2C"], "hand": ["3H", "8S", "10D"],
      "hands": {1: ["5D"]}},
     ["3H build 8 on [AS 4D]"], ["3H build 10 on [AS 4D] 2C"]),
    ("000 5.1 Example C: raised to 9 taking in the loose 9", "royal",
     {"builds": [{"cards": ["3S", "4D"], "value": 7, "owner": 1}], "table": ["9H"], "hand": ["2C", "9S"],
      "hands": {1: ["7C"]}},
     ["2C build 9 on [3S 4D] 9H", "2C build 9 on [3S 4D]"], []),
    ("000 5.2: a 6 with a loose 3 added to a 9-build", "royal",
     {"builds": [{"cards": ["5S", "4D"], "value": 9, "owner": 1}], "table": ["3H"], "hand": ["6C", "9S", "9D"],
      "hands": {1: ["9C"]}},
     ["6C build 9 on [5S 4D] 3H", "9S build 9 on [5S 4D]"], []),
    ("000 5: the multiple 8-build 3-5-8 takes an 8, or a 2 with the 6, never becomes 10", "royal",
     {"builds": [{"cards": ["3S", "5D", "8C"], "value": 8, "owner": 1}], "table": ["6H"],
      "hand": ["2C", "8S", "8H", "10D"], "hands": {1: ["8D"]}},
     ["8S build 8 on [3S 5D 8C]", "2C build 8 on [3S 5D 8C] 6H"], ["2C build 10 on [3S 5D 8C]"]),
    ("000 3: a three on A and 2 captures, builds 6 or builds 3, not 4 or 5", "royal",
     {"table": ["AS", "2D"], "hand": ["3C", "3H", "6S"]},
     ["3C capture AS 2D", "3C build 6 on AS 2D", "3C build 3 on AS 2D"], ["3C build 4 on AS", "3C build 5 on 2D"]),
    ("001 Building: a 2 on a 7 for the 9 in hand", "royal",
     {"table": ["7S"], "hand": ["9C", "2D"]}, ["2D build 9 on 7S"], ["2D build 9 on 7S 9C"]),
    ("002 Tuxedo (mechanics as royal): a 7 takes 3 and 4", "tuxedo",
     {"table": ["3R", "4Y", "9B"], "hand": ["7G", "1B"]}, ["7G capture 3R 4Y", "1B trail", "7G trail"], []),
    ("002 Hungarian: a Queen taken by 9 and 3", "hungarian",
     {"table": ["QS"], "hand": ["9C", "3D", "5H"]}, ["9C+3D capture QS", "9C trail"], ["9C capture QS"]),
    ("002 Hungarian: 10 and 2 taken by 7 and 5", "hungarian",
     {"table": ["10C", "2S"], "hand": ["7H", "5D", "KC"]}, ["7H+5D capture 10C 2S"], ["7H+5D capture 10C"]),
    ("002 Hungarian: J, Q, A take 4, 7 and King", "hungarian",
     {"table": ["4S", "7D", "KH"], "hand": ["JC", "QD", "AH"]}, ["JC+QD+AH capture 4S 7D KH"], []),
    ("002 Hungarian (Kirchner): J, 7, 4 together are 22, not a Jack", "hungarian",
     {"table": ["JD"], "hand": ["JC", "7S", "4H"]}, ["JC capture JD", "7S+4H capture JD"],
     ["JC+7S+4H capture JD"]),
    ("002 Ulmann 1: J, 7, 4 take a Jack (J=11 and 7+4=11)", "hungarian-ulmann",
     {"table": ["JD"], "hand": ["JC", "7S", "4H"]}, ["JC+7S+4H capture JD", "7S+4H capture JD"], []),
]


@pytest.mark.parametrize("name, variant, case, legal, illegal", TEXT_CASES, ids=[c[0] for c in TEXT_CASES])
def test_the_reference_follows_the_texts_examples(name: str, variant: str, case: dict[str, Any],
                                                  legal: list[str], illegal: list[str]) -> None:
    moves = {rp.canonical(m) for m in ref.legal_moves(variant, case)}
    for m in legal:
        assert rp.canonical(m) in moves, f"{m} should be legal: {sorted(moves)}"
    for m in illegal:
        assert rp.canonical(m) not in moves, f"{m} should be illegal"


@pytest.mark.parametrize("name, variant, case, legal, illegal", TEXT_CASES, ids=[c[0] for c in TEXT_CASES])
def test_the_engine_lists_the_same_moves_on_the_texts_examples(name: str, variant: str, case: dict[str, Any],
                                                               legal: list[str], illegal: list[str]) -> None:
    full = {"players": 2, **case, "captured": case.get("captured", {})}
    assert rp.case_moves(variant, full) == rp.canonical_set(ref.legal_moves(variant, full))


def test_a_trail_is_all_an_owner_without_a_play_cannot_make() -> None:
    """002 Dom restriction 2 / 000 rule 4: with nothing else to do the owner captures his own build."""
    case = {"builds": [{"cards": ["3C", "5D"], "value": 8, "owner": 0}], "hand": ["8H", "KD"]}
    assert {rp.canonical(m) for m in ref.legal_moves("dominican", case)} == {rp.canonical("8H capture [3C 5D]")}


def test_the_declared_ace_reading_is_recognised() -> None:
    """D7: one ace for builds of 1 and 14: listed by the reference, classified as the declared reading."""
    case = {"players": 2, "partners": False, "to_play": 0, "hand": ["AS", "AD"], "table": ["AH", "7H"],
            "builds": [{"cards": ["5D", "9S"], "value": 14, "owner": 0, "holder": 0}]}
    assert "AD build 1 on AH" in ref.legal_moves("royal", case)
    d = rp.Disagreement("royal", 2, False, 0, 0, "AD build 1 on AH", False, case)
    assert [name for name, _, test in ref.DECLARED if test(d)] == [ref.DECLARED[0][0]]
    assert not ref.DECLARED[0][2](rp.Disagreement("royal", 2, False, 0, 0, "AD build 14 on AH", False, case))


# ---------------------------------------------------------------------- (b) the CI slice
SEATINGS = rp.seatings(ref.VARIANTS)
SEEDS = range(1, 3)


def _explained(d: rp.Disagreement) -> str | None:
    return rp.explained(ref, d)


@pytest.fixture(scope="module")
def tally() -> rp.Tally:
    return rp.run(SEATINGS, SEEDS, ref.legal_moves)


def test_the_slice_covers_every_seating(tally: rp.Tally) -> None:
    assert {v for v, _, _ in SEATINGS} == set(ref.VARIANTS)
    assert set(tally.by_seating) == set(SEATINGS)
    assert tally.positions >= 4000 and min(tally.by_seating.values()) >= 100
    assert tally.lossy == 0


def test_no_undeclared_disagreement(tally: rp.Tally) -> None:
    undeclared = [str(d) for d in tally.found if _explained(d) is None]
    assert not undeclared, "\n".join(undeclared[:5])
    skipped = [str(d) for d in tally.found if any(t(d) for _, _, t in ref.ENGINE_ERRORS)]
    if skipped:  # pragma: no cover - none known
        print(f"skipped as suspected engine errors: {len(skipped)}")


def test_each_declared_reading_is_in_the_variant_file() -> None:
    from cassino.language.variants import load_rules

    texts = " ".join(r.text for r in load_rules("royal").readings)
    assert "no play needs one ace to count both" in texts
    for name, reading, _ in ref.DECLARED:
        assert "no play needs one ace to count both" in reading, name


# ---------------------------------------------------------------------- (c) the comparison can fail
def _mutant(reference: Any) -> rp.Tally:
    return rp.run([("dominican", 2, False), ("royal", 4, True), ("hungarian", 2, False)], range(1, 2), reference,
                  max_positions=400)


def test_a_reference_without_builds_onto_builds_is_caught() -> None:
    def no_adding(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in ref.legal_moves(variant, case) if not (" build " in m and "[" in m)}

    missed = [d for d in _mutant(no_adding).found if d.engine_says]
    assert missed and all(" build " in d.move and "[" in d.move for d in missed)
    assert all(_explained(d) is None for d in missed)


def test_a_reference_that_trails_beside_an_equal_card_in_dominican_is_caught() -> None:
    def lax(variant: str, case: dict[str, Any]) -> set[str]:
        moves = ref.legal_moves(variant, case)
        if variant == "dominican" and not any(b["owner"] == case["to_play"] for b in case["builds"]):
            moves |= {f"{h} trail" for h in case["hand"]}
        return moves

    extra = [d for d in _mutant(lax).found if not d.engine_says]
    assert extra and all(d.move.endswith("trail") and d.variant == "dominican" for d in extra)
    assert all(_explained(d) is None for d in extra)


def test_a_reference_that_plays_one_card_at_a_time_in_hungarian_is_caught() -> None:
    def single(variant: str, case: dict[str, Any]) -> set[str]:
        return {m for m in ref.legal_moves(variant, case) if "+" not in m.split()[0]}

    missed = [d for d in _mutant(single).found if d.engine_says]
    assert missed and all(d.variant == "hungarian" and "+" in d.move for d in missed)

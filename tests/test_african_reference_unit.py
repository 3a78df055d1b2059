"""Unit tests of tests/african_reference.py, the clean-room list of African Casino's legal turns.

Each test names the sentence of the rule texts it checks: [Kh] the Khasino rules document v1.1
(its play section is pagat's Swazi Casino text), [P] pagat.com "African Casino"; D-numbers are the
readings listed in the module's docstring. The last tests check the module imports nothing from
``cassino``, refuses bad input clearly, and that its enumeration agrees with a slow direct check of the
same rules on small random positions.
"""

from __future__ import annotations

import ast
import random
from functools import lru_cache
from itertools import combinations, product
from pathlib import Path
from typing import Any

import pytest

from african_reference import legal_moves

MODULE = Path(__file__).with_name("african_reference.py")


def pos(game: str = "swazi", **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": game,
        "players": 2,
        "partners": False,
        "seat": 0,
        "hand": [],
        "table": [],
        "builds": [],
        "piles": [],
        "first_round": False,
        "stock": False,
        "partner_declared": [],
    }
    base.update(kw)
    return base


def canon(move: str) -> str:
    """A move with the cards inside it sorted (brackets kept), for comparison."""
    words = move.split()
    head: list[str] = []
    rest = words
    for i, w in enumerate(words):
        if w in ("on", "capture"):
            head, rest = words[: i + 1], words[i + 1 :]
            break
    items: list[str] = []
    group: list[str] | None = None
    for w in rest:
        if w.startswith("["):
            group = [w[1:]]
            if w.endswith("]"):
                items.append("[" + " ".join(sorted([w[1:-1]])) + "]")
                group = None
            continue
        if group is not None:
            if w.endswith("]"):
                group.append(w[:-1])
                items.append("[" + " ".join(sorted(group)) + "]")
                group = None
            else:
                group.append(w)
            continue
        items.append(w)
    return " ".join(head + sorted(items))


def moves(position: dict[str, Any]) -> set[str]:
    return {canon(m) for m in legal_moves(position)}


def has(position: dict[str, Any], *wanted: str) -> None:
    got = moves(position)
    for w in wanted:
        assert canon(w) in got, f"{w!r} should be legal; got {sorted(got)}"


def lacks(position: dict[str, Any], *unwanted: str) -> None:
    got = moves(position)
    for w in unwanted:
        assert canon(w) not in got, f"{w!r} should not be legal"


def build(cards: list[str], value: int, owner: int, compound: bool = False) -> dict[str, Any]:
    return {"cards": cards, "value": value, "owner": owner, "compound": compound}


def pile(seats: list[int], cards: list[str]) -> dict[str, Any]:
    return {"seats": seats, "cards": cards}


# ---- R1 values --------------------------------------------------------------------------------------


def test_court_cards_count_11_12_13() -> None:
    # [P] "jacks count as 11, queens 12, kings 13"
    p = pos(hand=["KH", "QC", "JD"], table=["6S", "7D", "5H"])
    has(p, "KH capture 6S 7D", "QC capture 5H 7D", "JD capture 5H 6S")


def test_an_ace_is_1_or_14_in_swazi_casino() -> None:
    # [P] "aces 1 or 14": played as 14 it takes a loose ace and a set worth 14; as 1 a loose ace
    p = pos(hand=["AH"], table=["AS", "9D", "5C"])
    has(p, "AH capture AS", "AH capture 9D 5C", "AH capture AS 9D 5C")


def test_south_african_aces_are_1_and_there_are_no_pictures() -> None:
    # [Kh] "a 40 card pack, obtained by removing all the pictures"
    p = pos("south-african", hand=["AH"], table=["AS", "9D", "4C"])
    assert {m for m in legal_moves(p) if "capture" in m} == {"AH capture AS"}
    with pytest.raises(ValueError, match="no rank 'K'"):
        legal_moves(pos("south-african", hand=["KH"]))


# ---- R2 captures --------------------------------------------------------------------------------------


def test_a_card_takes_equal_cards_sets_and_any_choice_of_them() -> None:
    # [Kh] 1 "If you play a card that matches several separate cards, sets or builds you can capture them
    # all"; "fail to take all the cards you are entitled to capture, any opponent can insist" (left to them)
    p = pos(hand=["9C"], table=["9D", "5S", "4H", "2C"])
    has(p, "9C capture 9D", "9C capture 5S 4H", "9C capture 9D 5S 4H")
    lacks(p, "9C capture 2C", "9C capture 9D 2C")


def test_khasino_capture_example_builds_are_matched_by_value_only() -> None:
    # [Kh] 1 "a build of 8 (5+3), a build of 6 (4+2) and a single 6. If you play an ace (14) it does not
    # capture anything. If you play a 6 it captures the single 6 and the 6-build."
    p = pos(
        hand=["AH", "6C"],
        table=["6D"],
        builds=[build(["5S", "3H"], 8, 1), build(["4S", "2H"], 6, 1)],
    )
    assert not [m for m in legal_moves(p) if m.startswith("AH capture")]
    has(p, "6C capture 6D [4S 2H]")


def test_builds_are_never_combined_into_a_higher_value() -> None:
    # [Kh] 5 "It is never possible to break up builds, nor to combine two builds to form a build of higher value."
    p = pos(hand=["9C", "9D"], builds=[build(["3S", "2H"], 5, 0), build(["3C", "AD"], 4, 1)])
    got = moves(p)
    assert not any("[3S 2H]" in m and "[3C AD]" in m for m in got)


# ---- R3, R4, R5 pile cards ------------------------------------------------------------------------------


def test_no_card_is_taken_straight_from_a_pile() -> None:
    # [Kh] 1 "you cannot capture cards directly from the top of an opponent's capture pile"
    p = pos(hand=["9C"], piles=[pile([1], ["9H"])])
    assert legal_moves(p) == {"9C trail"}


def test_khasino_pile_example_the_card_under_the_top_is_not_in_the_same_set() -> None:
    # [Kh] 4 "There is a 9 and a 2 in the layout. You have a 9 in your hand, the top card of an opponent's
    # capture pile is a 5 and the next card underneath that is a 2. You are not allowed to take the 5 and 2
    # from the opponent's pile with the 2 on the table to augment the build."
    p = pos(hand=["9C"], table=["9D", "2S"], piles=[pile([1], ["2D", "5H"])])
    assert legal_moves(p) == {"9C capture 9D", "9C trail"}


def test_khasino_pile_example_9_7_4_reaches_the_exposed_card() -> None:
    # [Kh] 4 "if the layout had instead contained a 9, a 7 and a 4, it would be legal to add the 4 with the
    # opponent's captured 5 to make an augmented build of nines, and then use the now exposed 2 with the 7"
    p = pos(hand=["9C", "9S"], table=["9D", "7S", "4H"], piles=[pile([1], ["2D", "5H"])])
    has(
        p,
        "9C capture 9D 4H 5H 7S 2D",
        "9C capture 9D 4H 5H",
        "9C build 9 on 9D 4H 5H 7S 2D",
        "9C build 9 on 9D 4H 5H",
    )
    # the 2 is free only after the 5 has gone: 7+2 alone, or 4+5 without a base, is refused
    lacks(p, "9C capture 9D 7S 2D", "9C capture 4H 5H", "9C capture 4H 5H 7S 2D")


def test_one_card_of_a_pile_in_a_set() -> None:
    # [Kh] 4 "Only the card on top of your opponents' capture pile at any time is available" (D1)
    p = pos(hand=["9C", "9S"], table=["9D"], piles=[pile([1], ["4D", "5H"])])
    lacks(p, "9C capture 9D 5H 4D", "9C build 9 on 9D 5H 4D")


def test_a_pile_is_reached_as_deep_as_sets_go() -> None:
    # [Kh] "If there is another 10 beneath the one you took you can take it as well" (D1: no fixed depth)
    p = pos("south-african", hand=["10C"], table=["10D", "9S", "2C"], piles=[pile([1], ["10H", "8D", "AS", "10S"])])
    has(p, "10C capture 10D 10S AS 9S 8D 2C 10H")


def test_own_and_partners_piles_are_not_used() -> None:
    # [Kh] 4 "You are not allowed to use a card from the top of your own (or partner's) capture pile"
    p = pos(
        players=4,
        partners=True,
        hand=["9C", "9S"],
        table=["9D"],
        piles=[pile([0, 2], ["9H"]), pile([1, 3], ["AC"])],
    )
    lacks(p, "9C capture 9D 9H", "9C build 9 on 9D 9H")
    # a partner's cards stay out of reach when given as a pile of the partner's seat alone
    q = pos(players=4, partners=True, hand=["9C"], table=["9D", "5S"], piles=[pile([2], ["9H"]), pile([1], ["4C"])])
    lacks(q, "9C capture 9D 9H")
    has(q, "9C capture 9D 5S 4C")


def test_three_players_both_opponents_piles_and_a_set_across_piles() -> None:
    # [Kh] Important Exception "The opponent had a 3 on top and another opponent has a 7 on top ... start with
    # the big card(7) then move to the small card(3), IF THERE IS A 6 beneath the 3 and a 4 beneath the 7"
    p = pos(
        "south-african",
        players=3,
        hand=["2H", "10C"],
        table=["8S"],
        piles=[pile([1], ["6D", "3D"]), pile([2], ["4C", "7H"])],
    )
    has(p, "2H build 10 on 8S 7H 3D", "2H build 10 on 8S 7H 3D 4C 6D")
    same = pos("south-african", players=3, hand=["2H", "10C"], table=["8S"], piles=[pile([2], ["3C", "7H"])])
    lacks(same, "2H build 10 on 8S 7H 3C")  # the 7 and the 3 under it: not in one set


def test_south_african_example_floor_build_then_opponents_tens() -> None:
    # [Kh] "If there is a 7 on the floor you can add a 3 and take the 10 from the opponent's chowed pile. If
    # there is another 10 beneath the one you took you can take it as well"
    p = pos("south-african", hand=["3H", "10C"], table=["7S"], piles=[pile([1], ["10D", "10H"])])
    has(p, "3H build 10 on 7S", "3H build 10 on 7S 10H", "3H build 10 on 7S 10H 10D")
    lacks(p, "3H build 10 on 7S 10D")


def test_played_card_alone_is_a_base_in_neither_game() -> None:
    # D3: [Kh] "The card must be built on the floor first before you can start going to other people's cards";
    # "before you can make use of the card, you must already have a 'base' in the layout"
    for game in ("swazi", "south-african"):
        alone = pos(game, hand=["9C", "9S"], piles=[pile([1], ["9H"])])
        lacks(alone, "9C build 9 on 9H")
        # with a floor card in the base it may ([Kh] "If there is a 7 on the floor you can add a 3")
        floor = pos(game, hand=["3C", "10S"], table=["7S"], piles=[pile([1], ["10H"])])
        has(floor, "3C build 10 on 7S 10H")


def test_pile_cards_need_a_base_in_a_build() -> None:
    # [Kh] "before you can make use of the card, you must already have a "base" in the layout"
    p = pos(hand=["4C", "9S"], piles=[pile([1], ["5H"])])
    lacks(p, "4C build 9 on 5H")
    has(pos(hand=["4C", "9S"], table=["9D"], piles=[pile([1], ["5H"])]), "4C build 9 on 9D 5H")


def test_an_opponents_build_augmented_with_a_pile_card_when_captured() -> None:
    # [Kh] 4 "any augmentation of an opponent's build has to be done using cards from the layout or from the
    # top of your opponents' capture pile(s)"
    p = pos(hand=["9C"], builds=[build(["5S", "4H"], 9, 1)], piles=[pile([1], ["9H"])])
    has(p, "9C capture [5S 4H] 9H")


def test_capture_base_beside_an_uncaptured_build_of_its_value() -> None:
    # D10 [Kh] "There cannot be two builds of the same capture value on the table at the same time"
    p = pos(hand=["9C"], table=["9D"], builds=[build(["5S", "4H"], 9, 1)], piles=[pile([1], ["9H"])])
    has(p, "9C capture 9D [5S 4H] 9H", "9C capture 9D")
    lacks(p, "9C capture 9D 9H")


# ---- R6, R7, R9 building ------------------------------------------------------------------------------------


def test_khasino_building_examples_5_3_2_and_4_5_ace() -> None:
    # [Kh] 2 "there is a 5, a 3 and a 2 in the layout and you have a 10 in your hand; you can combine the 5,
    # 3 and 2 into a build of 10" (beside the turn's discard); "there is a 4 and a 5 in the layout and you
    # have a 10 and an ace in your hand; you can play your ace, combining it to the 4 and 5"
    p = pos("south-african", hand=["10C", "4H"], table=["5S", "3D", "2C"])
    has(p, "4H trail build 10 on 5S 3D 2C")
    lacks(p, "10C trail build 10 on 5S 3D 2C")  # no 10 would be left to take it
    has(pos("south-african", hand=["10C", "AH"], table=["4S", "5D"]), "AH build 10 on 4S 5D")


def test_a_build_needs_a_card_that_can_take_it() -> None:
    # [Kh] 2 "You are only allowed to form a build if you have a card in your hand which can later capture"
    p = pos(hand=["AH", "9C"], table=["4S", "5D"])
    assert not [m for m in legal_moves(p) if "build 10" in m]


def test_augmenting_your_own_build() -> None:
    # [Kh] 4 "You can augment a build that is owned by yourself or your partner by adding further single
    # cards or sets of cards of the same value"
    p = pos(hand=["6C", "9S", "9H"], table=["3H"], builds=[build(["5D", "4S"], 9, 0)])
    has(p, "6C build 9 on [5D 4S] 3H", "9S build 9 on [5D 4S]")


def test_opponents_build_is_augmented_only_when_captured() -> None:
    # [Kh] 4 "You can augment a build owned by your opponent only if you also capture that build"
    p = pos(hand=["9C", "9S"], table=["5H", "4C"], builds=[build(["5D", "4S"], 9, 1)])
    lacks(p, "9C build 9 on [5D 4S] 5H 4C", "9C build 9 on 5H 4C")
    has(p, "9C capture [5D 4S] 5H 4C")


def test_a_second_build_of_your_value_is_combined() -> None:
    # [Kh] "You can make a second build of a value which your side already owns, but you must then combine them"
    p = pos(hand=["4C", "9D"], table=["5S"], builds=[build(["6S", "3D"], 9, 0)])
    lacks(p, "4C build 9 on 5S")
    has(p, "4C build 9 on [6S 3D] 5S")


def test_no_build_beside_an_opponents_build_of_its_value() -> None:
    # [Kh] "if your opponent has (for example) a build of 9, you are not allowed to make a 9-build of your own"
    p = pos(hand=["4C", "9D"], table=["5S", "6H", "3C"], builds=[build(["6S", "3D"], 9, 1)])
    assert not [m for m in legal_moves(p) if " 9 on" in m]


# ---- R8 changing a value ------------------------------------------------------------------------------------


def test_khasino_raise_example_and_its_limits() -> None:
    # [Kh] 3 "if your opponent has made a single build of 9 and you hold an Ace and a 10, you can add your Ace
    # to the build and make it 10. You would not be allowed to do this if the 9-build had been formed by
    # yourself or your partner."
    opp = pos("south-african", hand=["AH", "10C"], builds=[build(["5S", "4D"], 9, 1)])
    has(opp, "AH build 10 on [5S 4D]")
    own = pos("south-african", hand=["AH", "10C", "9C"], builds=[build(["5S", "4D"], 9, 0)])
    lacks(own, "AH build 10 on [5S 4D]")
    partner = pos("south-african", players=4, partners=True, hand=["AH", "10C"], builds=[build(["5S", "4D"], 9, 2)])
    lacks(partner, "AH build 10 on [5S 4D]")


def test_a_compound_build_keeps_its_value() -> None:
    # [Kh] 3 "It is not possible to change the value of an augmented build (i.e a compound build)"
    p = pos(hand=["3H", "9C"], builds=[build(["3C", "3D", "6S"], 6, 1, compound=True)])
    lacks(p, "3H build 9 on [3C 3D 6S]")
    has(pos(hand=["3H", "9C"], builds=[build(["3C", "3D"], 6, 1)]), "3H build 9 on [3C 3D]")


def test_a_raise_is_made_with_the_hand_card_alone() -> None:
    # [Kh] 3 "you change the value by adding a single card from your hand" (D4: not with a pile card)
    p = pos(hand=["9C", "9S"], builds=[build(["3C", "3D"], 6, 1)], piles=[pile([1], ["3H"])])
    lacks(p, "9C build 9 on [3C 3D] 3H")
    # the raised build is then yours and may be augmented in the turn (layout cards)
    q = pos(hand=["3H", "9C"], table=["5S", "4D"], builds=[build(["3C", "3D"], 6, 1)])
    has(q, "3H build 9 on [3C 3D] 5S 4D")


def test_a_raise_needs_the_card_in_your_own_hand() -> None:
    # [Kh] 3 "you have a card in your hand that matches the new value of the build" (D7)
    p = pos(players=4, partners=True, hand=["AH", "5C"], builds=[build(["5S", "4D"], 9, 1)], partner_declared=[10])
    lacks(p, "AH build 10 on [5S 4D]")


def test_raising_to_a_value_you_own_merges_the_builds() -> None:
    # D5 [Kh] "you must then combine them into a single augmented build. Example: you own a 9-build and an
    # opponent has created a single build of 6 (3+3)."
    for game in ("swazi", "south-african"):
        p = pos(game, hand=["3H", "9C"], builds=[build(["5S", "4D"], 9, 0), build(["3C", "3D"], 6, 1)])
        has(p, "3H build 9 on [3C 3D] [5S 4D]")
        lacks(p, "3H build 9 on [3C 3D]")


# ---- R11, R12 discarding and abandoning -----------------------------------------------------------------------


def test_a_capturing_card_may_be_discarded_and_an_owner_may_discard() -> None:
    # [Kh] 5 "You are always free ... to play a card that does not capture anything"; "There is no obligation
    # (as in standard Anglo-American Casino) to make a capture when you own a build"
    p = pos(players=3, hand=["9C", "5H", "8D"], table=["9D"], builds=[build(["5S", "3H"], 8, 0)])
    has(p, "9C trail", "5H trail")


def test_two_player_first_round_owner_may_not_discard() -> None:
    # [Kh] 5 "The only time the Discard move is prohibited is when you are playing a 2 hands game and you have
    # built a card and it is the first round" (D6: beside a layout build too)
    own = [build(["5S", "3H"], 8, 0)]
    first = pos(hand=["9C", "8D", "7H"], table=["2S", "5C"], builds=own, first_round=True)
    assert not [m for m in legal_moves(first) if "trail" in m]
    later = pos(hand=["9C", "8D", "7H"], table=["2S", "5C"], builds=own, first_round=False)
    has(later, "9C trail", "9C trail build 7 on 2S 5C")
    # no build of one's own: free to discard, beside a new layout build as well
    free = pos("south-african", hand=["9C", "7H"], table=["2S", "5C"], first_round=True)
    has(free, "9C trail", "9C trail build 7 on 2S 5C")


def test_an_owner_may_not_use_up_the_card_for_the_build() -> None:
    # [Kh] 5 "You may not, however, abandon a build that you own by using up all of the cards that you could
    # have captured it with for other purposes."
    p = pos(players=3, hand=["9C", "5D"], table=["9H"], builds=[build(["5S", "4H"], 9, 0)])
    lacks(p, "9C trail", "9C capture 9H")
    has(p, "5D trail", "9C capture [5S 4H]", "9C capture 9H [5S 4H]")
    q = pos(players=3, hand=["9C", "9D"], table=["9H"], builds=[build(["5S", "4H"], 9, 0)])
    has(q, "9C trail", "9C capture 9H")


def test_an_owner_may_not_abandon_his_build_because_his_partner_declared_its_value() -> None:
    # [Kh] 5 "You may not, however, abandon a build that you own by using up all of the cards that you could
    # have captured it with for other purposes"; the partner's proof is for "a new single or compound build of
    # this rank, which will be owned by your partner" (creating only): R12 holds for every build of the mover's
    own7 = build(["AS", "AH", "5S", "7D"], 7, 0, compound=True)
    p = pos(
        "south-african",
        players=4,
        partners=True,
        hand=["2D", "2C", "3C", "4H", "6H", "7C", "9H"],
        table=["3D", "6S", "6D"],
        builds=[own7],
        piles=[pile([0, 2], []), pile([1, 3], ["3S", "2H", "5D", "4S", "5H", "9S", "9C", "9D"])],
        partner_declared=[7],
    )
    lacks(p, "7C trail")  # 7C is seat 0's last 7
    has(p, "7C capture [AS AH 5S 7D]", "9H trail")
    q = pos(
        "south-african",
        players=4,
        partners=True,
        hand=["2D", "2C", "3C", "4H", "6H", "7C"],
        table=["3H", "6D"],
        builds=[own7, build(["2S", "8S"], 10, 2)],
        piles=[pile([0, 2], ["6S", "9S", "3D", "9D", "9C", "9H"]), pile([1, 3], ["3S", "2H", "5D", "4S", "5H"])],
        partner_declared=[7, 10],
    )
    lacks(q, "7C build 10 on [2S 8S] 3H")  # the same 7-build left without a 7 in seat 0's hand
    has(q, "4H build 10 on [2S 8S] 6D")  # D8: the partner's 10-build is added to without a 10


def test_an_owner_keeps_his_last_card_in_captures_and_in_adding_to_his_own_build() -> None:
    # [Kh] 5 "abandon a build that you own by using up all of the cards that you could have captured it with
    # for other purposes": a capture of other cards, or adding the last card to the build itself, uses it up
    declared = {"players": 4, "partners": True, "partner_declared": [12]}
    own12 = [build(["7S", "5H"], 12, 0)]
    p = pos(hand=["QH", "5C"], table=["3D", "9C"], builds=own12, **declared)
    lacks(p, "QH capture 3D 9C")
    has(p, "QH capture [7S 5H]", "QH capture [7S 5H] 3D 9C", "5C trail")
    has(pos(hand=["QH", "QD"], table=["3D", "9C"], builds=own12, **declared), "QH capture 3D 9C")
    # adding to one's own build stays one's own build: its last card may not go into it
    own7 = [build(["4S", "3H"], 7, 0)]
    q = pos(players=4, partners=True, hand=["7C", "3C"], table=["4H"], builds=own7, partner_declared=[7])
    lacks(q, "7C build 7 on [4S 3H]", "7C build 7 on [4S 3H] 3C")
    has(q, "3C build 7 on [4S 3H] 4H")
    # a build for the partner's declared value is the partner's: made without a card of it (R14)
    r = pos(players=4, partners=True, hand=["3C", "KD"], table=["4H"], partner_declared=[7])
    has(r, "3C build 7 on 4H")


# ---- R13 a discard beside a layout build ----------------------------------------------------------------------


def test_pagat_notation_example_discard_beside_a_build_of_14() -> None:
    # [Kh] "As long as no card from your hand is involved, you can perform as many of actions 2 and 4 as you
    # wish in any order, before or after playing from your hand" (docs/scenarios.md `6D trail build 14 on 2S QH`)
    p = pos(hand=["6D", "AH"], table=["2S", "QH"])
    has(p, "6D trail build 14 on 2S QH")
    lacks(pos(hand=["6D", "KH"], table=["2S", "QH"]), "6D trail build 14 on 2S QH")


def test_a_discard_beside_a_build_of_a_value_already_built_is_not_listed() -> None:
    # [Kh] "There cannot be two builds of the same capture value on the table at the same time" (R13)
    p = pos(players=3, hand=["6D", "9C"], table=["5S", "4H"], builds=[build(["6S", "3H"], 9, 1)])
    lacks(p, "6D trail build 9 on 5S 4H")
    # with a single layout card as its base too
    q = pos(players=3, hand=["6D", "9C"], table=["9S", "9H"], builds=[build(["6S", "3H"], 9, 1)])
    lacks(q, "6D trail build 9 on 9S 9H")


def test_a_build_beside_a_discard_may_be_augmented_with_more_layout_sets() -> None:
    # [Kh] 4 "It is possible to form a build and then augment it in the same turn"; "As long as no card from
    # your hand is involved, you can perform as many of actions 2 and 4 as you wish"
    p = pos(
        "south-african",
        seat=1,
        hand=["AD", "AC", "2H", "3C", "5S", "8S", "10S"],
        table=["4S", "4C", "5D", "7D", "8D", "10C"],
        piles=[pile([0], []), pile([1], [])],
        first_round=True,
        stock=True,
    )
    has(p, "AC trail build 8 on 4S 4C 8D", "AC trail build 8 on 4S 4C")  # two sets of 8; 8S kept
    lacks(p, "8S trail build 8 on 4S 4C 8D")  # no 8 would be left to take it


def test_a_single_layout_card_beside_a_discard_is_augmented_from_an_opponents_pile() -> None:
    # [Kh] 4 "If there is a single card in the layout which you can match with a card from your hand, you can
    # make this card into an augmented build by adding further cards to it, from the layout, from your hand or
    # from the top of the opponents' capture pile(s)"
    p = pos(
        "south-african",
        seat=1,
        hand=["2C", "4D", "6H", "8H", "9S", "9D", "9C", "10C"],
        table=["6S"],
        piles=[pile([0], ["3H", "3D", "6D"]), pile([1], [])],
        first_round=True,
        stock=True,
    )
    has(p, "9S trail build 6 on 6S 6D")  # the layout 6S, matched by 6H kept, and the pile top 6D
    # [Kh] 4 "Only the card on top of your opponents' capture pile at any time is available" (R5): 3D and 3H
    # lie in one pile, so they make no set together even once 6D has gone
    lacks(p, "9S trail build 6 on 6S 6D 3D 3H")
    # with a 3 in the layout the card under 6D joins it in a later set
    deeper = dict(p, table=["6S", "3C"])
    has(deeper, "9S trail build 6 on 6S 6D 3D 3C")
    lacks(deeper, "9S trail build 6 on 6S 3D 3C")  # 3D is not free before 6D has gone
    lacks(p, "6H trail build 6 on 6S 6D")  # 6H is the only 6: nothing would take the build
    # a layout card with another of its value, beside a discard (Swazi: a king built as 13)
    q = pos(hand=["2C", "KH"], table=["KS", "KD", "7C", "6D"])
    has(q, "2C trail build 13 on KS KD", "2C trail build 13 on KS 7C 6D", "2C trail build 13 on KS KD 7C 6D")
    lacks(q, "2C trail build 13 on KS")  # D11: a single card is no build


def test_a_build_beside_a_discard_keeps_the_pile_rules() -> None:
    # [Kh] 4 "You are not allowed to take the 5 and 2 from the opponent's pile with the 2 on the table to
    # augment the build. However, if the layout had instead contained a 9, a 7 and a 4, it would be legal"
    p = pos(hand=["KC", "9S"], table=["9D", "2S"], piles=[pile([1], ["2D", "5H"])])
    assert not [m for m in legal_moves(p) if "trail build" in m]
    q = pos(hand=["KC", "9S"], table=["9D", "7S", "4H"], piles=[pile([1], ["2D", "5H"])])
    has(q, "KC trail build 9 on 9D 4H 5H", "KC trail build 9 on 9D 4H 5H 7S 2D")
    lacks(q, "KC trail build 9 on 9D 7S 2D")  # the 2 is under the 5
    # [Kh] "before you can make use of the card, you must already have a "base" in the layout"
    bare = pos(players=3, hand=["KC", "9S"], piles=[pile([1], ["9H"]), pile([2], ["9D"])])
    assert not [m for m in legal_moves(bare) if "trail build" in m]
    # [Kh] 4 "You are not allowed to use a card from the top of your own (or partner's) capture pile"
    own = pos(hand=["KC", "9S"], table=["9D"], piles=[pile([0], ["9H"])])
    assert not [m for m in legal_moves(own) if "trail build" in m]


def test_a_build_beside_a_discard_keeps_the_south_african_one_build_rule() -> None:
    # [Kh] 2 "to form a new build of your own; that is if you don't have another one already" (R15)
    p = pos(
        "south-african",
        players=3,
        hand=["9S", "6H", "8C"],
        table=["6S"],
        builds=[build(["5D", "3C"], 8, 0)],
        piles=[pile([1], ["6D"])],
    )
    lacks(p, "9S trail build 6 on 6S 6D")
    has(pos(players=3, hand=["9S", "6H", "8C"], table=["6S"], builds=[build(["5D", "3C"], 8, 0)],
            piles=[pile([1], ["6D"])]), "9S trail build 6 on 6S 6D")  # Swazi: no such limit


# ---- R14 partnerships ----------------------------------------------------------------------------------------


def test_building_for_a_partners_declared_value() -> None:
    # [Kh] "As long as your partner does not play a card of this rank, you are allowed to create a new single
    # or compound build of this rank, which will be owned by your partner."
    p = pos(players=4, partners=True, hand=["4C", "KD"], table=["5S", "6H", "3C"], partner_declared=[9])
    has(p, "4C build 9 on 5S", "KD trail build 9 on 6H 3C")
    q = pos(players=4, partners=True, hand=["4C", "KD"], table=["5S", "6H", "3C"])
    lacks(q, "4C build 9 on 5S", "KD trail build 9 on 6H 3C")


def test_augmenting_a_partners_build_without_its_card() -> None:
    # [Kh] 4 "You can augment a build that is owned by yourself or your partner" (D8)
    p = pos(players=4, partners=True, hand=["6C", "KD"], table=["3S"], builds=[build(["5S", "4D"], 9, 2)])
    has(p, "6C build 9 on [5S 4D] 3S")


# ---- R15, R16 South African limits ---------------------------------------------------------------------------


def test_south_african_one_build_a_player() -> None:
    # [Kh] 2 "to form a new build of your own; that is if you don't have another one already"
    own = [build(["5D", "4C"], 9, 0)]
    south = pos("south-african", players=3, hand=["3C", "8D", "9H"], table=["5S"], builds=own)
    lacks(south, "3C build 8 on 5S")
    swazi = pos(players=3, hand=["3C", "8D", "9H"], table=["5S"], builds=own)
    has(swazi, "3C build 8 on 5S")
    # D9: a build for the partner's declared value is the partner's
    partner = pos(
        "south-african", players=4, partners=True, hand=["3C", "9H"], table=["5S"], builds=own, partner_declared=[8]
    )
    has(partner, "3C build 8 on 5S")


def test_south_african_builds_stop_at_10() -> None:
    # [Kh] "a single build of 10 (which is a maximum that can be built)"
    p = pos("south-african", hand=["6C", "10D", "9S"], table=["5S"])
    assert not [m for m in legal_moves(p) if "build 11" in m]


# ---- D2 aces ------------------------------------------------------------------------------------------------


def test_two_aces_build_1_or_14_but_one_ace_serves_one_build() -> None:
    # [P] "aces 1 or 14"; D2: one ace does not answer for a build of 1 and one of 14
    p = pos(hand=["AH", "AD"], table=["AS"])
    has(p, "AH build 1 on AS", "AH build 14 on AS")
    q = pos(players=3, hand=["AH", "AD"], table=["AS"], builds=[build(["9C", "5C"], 14, 0)])
    lacks(q, "AH build 1 on AS")
    has(q, "AH build 14 on [9C 5C] AS")


# ---- the module itself -----------------------------------------------------------------------------------------


def test_the_module_imports_nothing_from_cassino() -> None:
    tree = ast.parse(MODULE.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            names.append("__import__")
    assert names, "the scan found no import at all"
    assert not [n for n in names if n == "cassino" or n.startswith("cassino.") or n == "__import__"]
    assert "importlib" not in names


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ({"game": "lesotho"}, "'game'"),
        (pos(players=5), "'players'"),
        (pos(seat=2), "'seat'"),
        (pos(hand="9C"), "'hand': expected a list"),
        (pos(hand=["9X"]), "is not a card"),
        (pos(builds=[{"cards": ["5S", "4H"], "value": 99, "owner": 1}]), "'value'"),
        (pos(piles=["9C"]), "piles\\[0\\]"),
        (pos(players=3, partners=True), "'partners'"),
    ],
)
def test_bad_positions_are_refused_clearly(position: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        legal_moves(position)


def test_a_position_that_is_not_a_mapping_is_refused() -> None:
    with pytest.raises(ValueError, match="expected a mapping"):
        legal_moves(["9C"])  # type: ignore[arg-type]


# ---- the enumeration against a slow direct check of the same rules -----------------------------------------------

_V = {"A": (1, 14), "J": (11,), "Q": (12,), "K": (13,)}


def _vals(card: str) -> tuple[int, ...]:
    return _V.get(card[:-1]) or (int(card[:-1]),)


def _worth(cards: list[str], value: int) -> bool:
    if len(cards) == 1:
        return value in _vals(cards[0])
    return sum(_vals(c)[0] for c in cards) == value


def _arrangeable(value: int, loose: tuple[str, ...], piles: list[list[str]], reach: tuple[int, ...],
                 played: str | None, base: bool, alone_base: bool) -> bool:
    """Whether `loose`, the top `reach` cards of each pile (top first) and `played` (if given) can be
    laid as sets worth `value` one after another: a set holds at most each pile's current top, a set with a
    pile card needs a base laid before it (`base`, or a set without pile cards holding a layout card, or
    the played card alone when `alone_base`)."""

    cards_in = list(loose) + [c for x, d in zip(piles, reach) for c in x[:d]] + ([played] if played else [])
    if any(_vals(c)[0] > value for c in cards_in):
        return False  # no set worth `value` can hold a bigger card

    @lru_cache(maxsize=None)
    def go(left: frozenset[str], depth: tuple[int, ...], h_left: bool, has_base: bool) -> bool:
        if not left and depth == reach and not h_left:
            return True
        tops = [p for p in range(len(piles)) if depth[p] < reach[p]]
        left_list = sorted(left)
        for r in range(len(left_list) + 1):
            for chosen in combinations(left_list, r):
                for use in product([False, True], repeat=len(tops)):
                    for use_h in ([False, True] if h_left else [False]):
                        from_piles = [piles[p][depth[p]] for p, u in zip(tops, use) if u]
                        cards = list(chosen) + from_piles + ([played] if use_h else [])
                        if not cards or not _worth(cards, value):
                            continue
                        if from_piles and not has_base:
                            continue
                        nd = list(depth)
                        for p, u in zip(tops, use):
                            nd[p] += u
                        makes_base = not from_piles and (bool(chosen) or alone_base)
                        if go(left - set(chosen), tuple(nd), h_left and not use_h, has_base or makes_base):
                            return True
        return False

    return go(frozenset(loose), (0,) * len(piles), played is not None, base)


def _slow_moves(p: dict[str, Any], h: str) -> set[str]:
    """Captures, builds and builds beside a discard of `h` for a mover who owns no build and keeps a card
    of every value."""
    opp = [list(reversed(x["cards"])) for x in p["piles"] if p["seat"] not in x["seats"]]
    out: set[str] = set()
    table = p["table"]
    builds = p["builds"]
    for reach in product(*[range(len(x) + 1) for x in opp]):
        pile_cards = [c for x, d in zip(opp, reach) for c in x[:d]]
        for r in range(len(table) + 1):
            for loose in combinations(table, r):
                # captures
                for v in _vals(h):
                    same = [b for b in builds if b["value"] == v]
                    for k in range(len(same) + 1):
                        for taken in combinations(same, k):
                            if not (taken or loose or pile_cards):
                                continue
                            if any(reach) and not taken and same:
                                continue
                            if _arrangeable(v, loose, opp, reach, None, bool(taken), False):
                                items = ["[" + " ".join(b["cards"]) + "]" for b in taken] + list(loose) + pile_cards
                                out.add(canon(f"{h} capture " + " ".join(items)))
                # builds (no build of the mover's; opponents' builds only)
                for value in range(1, 15):
                    if any(b["value"] == value for b in builds):
                        continue
                    # beside a discard: cards in play only, a base in the layout, two cards or more (R13, D11)
                    if loose and len(loose) + len(pile_cards) >= 2:
                        if _arrangeable(value, loose, opp, reach, None, False, False):
                            out.add(canon(f"{h} trail build {value} on " + " ".join(list(loose) + pile_cards)))
                    if loose or pile_cards:   # (D3: the played card alone is no base, in either game)
                        if _arrangeable(value, loose, opp, reach, h, False, False):
                            out.add(canon(f"{h} build {value} on " + " ".join(list(loose) + pile_cards)))
                    for b in builds:
                        if not b["compound"] and b["value"] + _vals(h)[0] == value:
                            if _arrangeable(value, loose, opp, reach, None, True, False):
                                items = ["[" + " ".join(b["cards"]) + "]"] + list(loose) + pile_cards
                                out.add(canon(f"{h} build {value} on " + " ".join(items)))
    return out


def _random_small(rng: random.Random) -> tuple[dict[str, Any], str]:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    deck = [r + s for r in ranks for s in "SHD"]
    rng.shuffle(deck)
    h = deck.pop()
    table = [deck.pop() for _ in range(rng.randint(0, 4))]
    builds = []
    for _ in range(rng.randint(0, 1)):
        a, b = deck.pop(), deck.pop()
        v = _vals(a)[0] + _vals(b)[0]
        if v <= 14:
            builds.append({"cards": [a, b], "value": v, "owner": 1, "compound": rng.random() < 0.3})
    piles = [{"seats": [s], "cards": [deck.pop() for _ in range(rng.randint(0, 3))]} for s in (0, 1, 2)]
    hand = [h] + [r + "C" for r in ranks]  # a card of every value kept back
    return pos(players=3, hand=hand, table=table, builds=builds, piles=piles), h


def test_enumeration_agrees_with_a_direct_check_on_small_positions() -> None:
    rng = random.Random(20261202)
    checked = 0
    trails = 0
    for _ in range(40):
        p, h = _random_small(rng)
        fast = {m for m in moves(p) if m.startswith((f"{h} capture", f"{h} build", f"{h} trail build"))}
        slow = _slow_moves(p, h)
        assert fast == slow, (p, sorted(fast ^ slow))
        checked += len(fast)
        trails += sum(1 for m in fast if " trail build " in m)
    assert checked > 40
    assert trails > 5

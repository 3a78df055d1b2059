"""Worked examples for tests/african_turns_reference.py (whole turns of African Casino).

Each position is built by hand from a sentence of the Khasino rules document v1.1 ([Kh], quoted in a comment)
and checks that one end result of a whole turn is listed, or is not. Nothing here imports ``cassino``.
"""

from __future__ import annotations

import pytest

from african_turns_reference import whole_turns


def position(
    game: str = "south-african",
    players: int = 2,
    hand: tuple[str, ...] = (),
    table: tuple[str, ...] = (),
    builds: tuple[tuple[tuple[str, ...], int, int, bool], ...] = (),
    piles: tuple[tuple[tuple[int, ...], tuple[str, ...]], ...] = (),
    partners: bool = False,
    first_round: bool = False,
    declared: tuple[int, ...] = (),
) -> dict:
    """The mover is seat 0; `piles` are (seats, cards bottom..top)."""
    return {
        "game": game,
        "players": players,
        "partners": partners,
        "seat": 0,
        "hand": list(hand),
        "table": list(table),
        "builds": [{"cards": list(c), "value": v, "owner": o, "compound": k} for c, v, o, k in builds],
        "piles": [{"seats": list(s), "cards": list(c)} for s, c in piles],
        "first_round": first_round,
        "stock": 0,
        "partner_declared": list(declared),
    }


def outcome(hand=(), table=(), builds=(), piles=(), captured=()):
    return (
        tuple(sorted(hand)),
        tuple(sorted(table)),
        tuple(sorted((tuple(sorted(c)), v, o, k) for c, v, o, k in builds)),
        tuple(piles),
        tuple(sorted(captured)),
    )


def test_build_of_layout_cards_then_capture():
    # [Kh] 2 "there is a 5, a 3 and a 2 in the layout and you have a 10 in your hand; you can combine the
    # 5, 3 and 2 into a build of 10"; "you can perform as many of actions 2 and 4 as you wish in any order,
    # before or after playing from your hand"
    pos = position(players=3, hand=("10S", "9H"), table=("5S", "3H", "2D", "9C"))
    turns = whole_turns(pos)
    assert outcome(("10S",), (), [(("5S", "3H", "2D"), 10, 0, False)], (), ("9C", "9H")) in turns
    # the one-action turns are whole turns too
    assert outcome(("10S",), ("5S", "3H", "2D"), (), (), ("9C", "9H")) in turns
    assert outcome(("9H",), ("9C",), (), (), ("10S", "5S", "3H", "2D")) in turns


def test_form_a_build_and_augment_it_in_the_same_turn():
    # [Kh] 4 "It is possible to form a build and then augment it in the same turn"; 2 "there is a 4 and a 5
    # in the layout and you have a 10 and an ace in your hand; you can play your ace, combining it to the 4
    # and 5 to make a build of 10" (here a 2 on an 8, then the layout's 7 and 3 added)
    pos = position(hand=("2C", "10C"), table=("8S", "7H", "3D"))
    turns = whole_turns(pos)
    assert outcome(("10C",), (), [(("2C", "8S", "7H", "3D"), 10, 0, True)], (), ()) in turns
    assert outcome(("10C",), ("7H", "3D"), [(("2C", "8S"), 10, 0, False)], (), ()) in turns
    # two builds of cards in play alone, then the discard of the ace: the 8+2 is not there to build with
    pos = position(players=3, hand=("AC", "10C"), table=("6S", "4H", "7H", "3D"))
    assert outcome(("10C",), ("AC",), [(("6S", "4H", "7H", "3D"), 10, 0, True)], (), ()) in whole_turns(pos)


def test_augment_an_opponents_build_only_when_capturing_it():
    # [Kh] 4 "You can augment a build owned by your opponent only if you also capture that build in the
    # same turn ... any augmentation of an opponent's build has to be done using cards from the layout or
    # from the top of your opponents' capture pile(s)"
    pos = position(
        hand=("8H", "9S"),
        table=("6D", "2C"),
        builds=[(("5S", "3H"), 8, 1, False)],
        piles=[((1,), ("10C", "8C"))],
    )
    turns = whole_turns(pos)
    # the build, the layout 6+2 and the opponent's 8 (through the build), all taken by the 8
    assert outcome(("9S",), (), (), (1,), ("8H", "5S", "3H", "6D", "2C", "8C")) in turns
    assert outcome(("9S",), ("6D", "2C"), (), (1,), ("8H", "5S", "3H", "8C")) in turns
    # never left on the table added to, by anyone
    for t in turns:
        for cards, value, _, _ in t[2]:
            assert not (value == 8 and len(cards) > 2), t
    # the opponent's pile card alone is never captured
    assert outcome(("9S",), ("6D", "2C"), [(("5S", "3H"), 8, 1, False)], (1,), ("8H", "8C")) not in turns


def test_pile_top_used_after_a_base_and_the_card_beneath():
    # [Kh] 4 "if the layout had instead contained a 9, a 7 and a 4, it would be legal to add the 4 with the
    # opponent's captured 5 to make an augmented build of nines, and then use the now exposed 2 with the 7
    # from the layout to augment the build again"
    pos = position(hand=("9H", "9D"), table=("9S", "7H", "4D"), piles=[((1,), ("2C", "5S"))])
    turns = whole_turns(pos)
    assert outcome(("9D",), (), (), (0,), ("9H", "9S", "7H", "4D", "5S", "2C")) in turns
    # built and kept (the 9D discarded, the 9H kept for it)
    kept = outcome(("9H",), ("9D",), [(("9S", "7H", "4D", "5S", "2C"), 9, 0, True)], (0,), ())
    assert kept in turns


def test_one_pile_card_a_set():
    # [Kh] 4 "There is a 9 and a 2 in the layout. You have a 9 in your hand, the top card of an opponent's
    # capture pile is a 5 and the next card underneath that is a 2. You are not allowed to take the 5 and 2
    # from the opponent's pile with the 2 on the table to augment the build."
    pos = position(hand=("9H",), table=("9S", "2D"), piles=[((1,), ("2C", "5S"))])
    turns = whole_turns(pos)
    assert outcome((), ("2D",), (), (2,), ("9H", "9S")) in turns
    assert all(t[3] == (2,) for t in turns)


def test_important_exception_two_piles():
    # [Kh] Important Exception "The opponent had a 3 on top and another opponent has a 7 on top ... you will
    # start with the big card(7) then move to the small card(3), IF THERE IS A 6 beneath the 3 and a 4
    # beneath the 7" -- the order of laying; the four pile cards join a base of 10 on the floor
    pos = position(
        players=3,
        hand=("10S",),
        table=("6D", "4D"),
        piles=[((0,), ("AD",)), ((1,), ("6C", "3S")), ((2,), ("4H", "7C"))],
    )
    turns = whole_turns(pos)
    assert outcome((), (), (), (1, 0, 0), ("10S", "6D", "4D", "3S", "7C", "6C", "4H")) in turns
    # the own pile is never used
    assert all(t[3][0] == 1 for t in turns)


def test_played_card_is_no_base_and_a_discard_is_not_built():
    # [Kh] "The card must be built on the floor first before you can start going to other people's cards";
    # "before you can make use of the card, you must already have a 'base' in the layout"; and a card
    # discarded is in no later build of the turn (variant readings, build.free_actions)
    pos = position(players=3, hand=("9H", "9D"), piles=[((1,), ("3C", "9S"))])
    turns = whole_turns(pos)
    assert outcome(("9D",), ("9H",), (), (2,), ()) in turns
    assert outcome(("9D",), (), [(("9H", "9S"), 9, 0, True)], (1,), ()) not in turns
    assert all(t[3] == (2,) for t in turns)


def test_discard_then_build_of_layout_cards():
    # [Kh] "As long as no card from your hand is involved, you can perform as many of actions 2 and 4 as
    # you wish in any order, before or after playing from your hand"; 5 "You are always free, for the play
    # from your hand, to play a card that does not capture anything"
    pos = position(players=3, hand=("2C", "8D"), table=("5S", "3H"))
    turns = whole_turns(pos)
    assert outcome(("8D",), ("2C",), [(("5S", "3H"), 8, 0, False)], (), ()) in turns
    # the discarded 2 does not join a build of 10 with the layout (nor is there a 10 to hold)
    assert not any(any("2C" in cards for cards, *_ in t[2]) for t in turns if "2C" in t[1])


def test_keeping_a_card_for_your_build_at_the_end_of_the_turn():
    # [Kh] 2 "You are only allowed to form a build if you have a card in your hand which can later capture
    # that build"; 5 "You may not, however, abandon a build that you own by using up all of the cards that
    # you could have captured it with for other purposes"
    pos = position(players=3, hand=("8D", "2C"), table=("5S", "3H", "8C"))
    turns = whole_turns(pos)
    # build 8 of the 5 and 3, then the only 8 spent on the loose 8: not allowed
    assert outcome(("2C",), (), [(("5S", "3H"), 8, 0, False)], (), ("8C", "8D")) not in turns
    # ... nor discarded
    assert outcome(("2C",), ("8C", "8D"), [(("5S", "3H"), 8, 0, False)], (), ()) not in turns
    # built with cards in play and kept, the 2 discarded
    assert outcome(("8D",), ("2C", "8C"), [(("5S", "3H"), 8, 0, False)], (), ()) in turns
    assert outcome(("8D",), ("2C",), [(("5S", "3H", "8C"), 8, 0, True)], (), ()) in turns
    # an own build from before the turn too
    pos = position(players=3, hand=("8D", "4S"), table=("8C",), builds=[(("5S", "3H"), 8, 0, False)])
    turns = whole_turns(pos)
    assert outcome(("4S",), (), [(("5S", "3H"), 8, 0, False)], (), ("8C", "8D")) not in turns
    assert outcome(("4S",), (), (), (), ("8C", "8D", "5S", "3H")) in turns


def test_south_african_one_build_a_player():
    # [Kh] 2 "to form a new build of your own; that is if you don't have another one already"
    pos = position(hand=("8C", "5H", "9S"), table=("2D", "3C"), builds=[(("5S", "3H"), 8, 0, False)])
    turns = whole_turns(pos)
    both = outcome(("5H", "8C"), ("9S",), [(("5S", "3H"), 8, 0, False), (("2D", "3C"), 5, 0, False)], (), ())
    assert both not in turns
    assert not any(sorted(v for _, v, o, _ in t[2] if o == 0) == [5, 8] for t in turns)
    # his 8-build captured first, he has no other one: a build of 5 after it is his only one
    after = outcome(("5H", "9S"), (), [(("2D", "3C"), 5, 0, False)], (), ("8C", "5S", "3H"))
    assert after in turns
    # Swazi Casino has no such rule
    swazi = dict(pos, game="swazi")
    assert both in whole_turns(swazi)


def test_two_builds_of_one_value_not_allowed():
    # [Kh] "There cannot be two builds of the same capture value on the table at the same time. That means
    # that if your opponent has (for example) a build of 9, you are not allowed to make a 9-build of your
    # own alongside it."
    pos = position(hand=("9C", "2S"), table=("5D", "4C"), builds=[(("6S", "3H"), 9, 1, False)])
    turns = whole_turns(pos)
    for t in turns:
        assert sum(1 for _, v, _, _ in t[2] if v == 9) <= 1, t
    alongside = [(("6S", "3H"), 9, 1, False), (("5D", "4C"), 9, 0, False)]
    assert outcome(("9C",), ("2S",), alongside, (), ()) not in turns
    assert outcome(("2S",), (), (), (), ("9C", "6S", "3H", "5D", "4C")) in turns
    # "You can make a second build of a value which your side already owns, but you must then combine
    # them into a single augmented build"
    pos = position(hand=("9C", "2S"), table=("5D", "4C"), builds=[(("6S", "3H"), 9, 0, False)])
    turns = whole_turns(pos)
    assert outcome(("9C",), ("2S",), [(("6S", "3H", "5D", "4C"), 9, 0, True)], (), ()) in turns


def test_two_player_first_round_discard_ban():
    # [Kh] 5 "The only time the Discard move is prohibited is when you are playing a 2 hands game and you
    # have built a card and it is the first round"
    builds = [(("4S", "4H"), 8, 0, True)]
    pos = position(hand=("8C", "2D"), table=("5C",), builds=builds, first_round=True)
    turns = whole_turns(pos)
    assert not any("2D" in t[1] or "8C" in t[1] for t in turns)
    assert outcome(("2D",), ("5C",), (), (), ("8C", "4S", "4H")) in turns
    # the second round, or three players: free to drift
    discard = outcome(("8C",), ("2D", "5C"), builds, (), ())
    assert discard in whole_turns(position(hand=("8C", "2D"), table=("5C",), builds=builds))
    pos = position(players=3, hand=("8C", "2D"), table=("5C",), builds=builds, first_round=True)
    assert discard in whole_turns(pos)
    # owning no build at the start, a discard may be followed by a build of cards in play (D6)
    pos = position(hand=("8C", "2D"), table=("5C", "3S"), first_round=True)
    assert outcome(("8C",), ("2D",), [(("5C", "3S"), 8, 0, False)], (), ()) in whole_turns(pos)


def test_build_for_a_partner_proven_value():
    # [Kh] Special rules for partnership play "As long as your partner does not play a card of this rank,
    # you are allowed to create a new single or compound build of this rank, which will be owned by your
    # partner"
    pos = position(players=4, partners=True, hand=("2S", "3H"), table=("5D", "4C"), declared=(9,))
    turns = whole_turns(pos)
    assert outcome(("3H",), ("2S",), [(("5D", "4C"), 9, 2, False)], (), ()) in turns
    assert not any(o == 0 for t in turns for _, _, o, _ in t[2])
    # no proof, no build of a value not held
    pos = position(players=4, partners=True, hand=("2S", "3H"), table=("5D", "4C"))
    assert not any(t[2] for t in whole_turns(pos))


def test_change_the_value_of_an_opponents_single_build():
    # [Kh] 3 "if your opponent has made a single build of 9 and you hold an Ace and a 10, you can add your
    # Ace to the build and make it 10. You would not be allowed to do this if the 9-build had been formed by
    # yourself or your partner."
    raised = outcome(("10D",), (), [(("5S", "4H", "AC"), 10, 0, False)], (), ())
    pos = position(hand=("AC", "10D"), builds=[(("5S", "4H"), 9, 1, False)])
    assert raised in whole_turns(pos)
    pos = position(hand=("AC", "10D"), builds=[(("5S", "4H"), 9, 0, False)])
    assert raised not in whole_turns(pos)
    # "It is not possible to change the value of an augmented build (i.e a compound build)"
    pos = position(hand=("AC", "10D"), builds=[(("5S", "4H"), 9, 1, True)])
    assert raised not in whole_turns(pos)


def test_raised_build_augmented_in_the_same_turn():
    # [Kh] 3 "By changing the value you take over ownership of the single build"; "As long as no card from
    # your hand is involved, you can perform as many of actions 2 and 4 as you wish ... after playing from
    # your hand" (the raised build is now yours to augment)
    pos = position(hand=("2H", "9C"), table=("9D", "5C", "4S"), builds=[(("3S", "4H"), 7, 1, False)])
    turns = whole_turns(pos)
    assert outcome(("9C",), ("5C", "4S"), [(("3S", "4H", "2H", "9D"), 9, 0, True)], (), ()) in turns
    assert outcome(("9C",), (), [(("3S", "4H", "2H", "9D", "5C", "4S"), 9, 0, True)], (), ()) in turns


def test_stash():
    # [Kh] Stash "If they have more than one 7 they can put the 7 on top and say 'Stash' which means the 7
    # is still in play"
    pos = position(hand=("7H", "7S"), builds=[(("4C", "3D"), 7, 0, False)])
    assert outcome(("7S",), (), [(("4C", "3D", "7H"), 7, 0, True)], (), ()) in whole_turns(pos)
    pos = position(hand=("7H", "2S"), builds=[(("4C", "3D"), 7, 0, False)])
    assert outcome(("2S",), (), [(("4C", "3D", "7H"), 7, 0, True)], (), ()) not in whole_turns(pos)


def test_capture_builds_only_by_their_value():
    # [Kh] 1 "in the layout is a build of 8 (5+3), a build of 6 (4+2) and a single 6. If you play an ace
    # (14) it does not capture anything. If you play a 6 it captures the single 6 and the 6-build."
    pos = position(
        game="swazi",
        players=3,
        hand=("AC", "6S", "KD"),
        table=("6H",),
        builds=[(("5S", "3H"), 8, 1, False), (("4D", "2C"), 6, 2, False)],
    )
    turns = whole_turns(pos)
    assert outcome(("AC", "KD"), (), [(("5S", "3H"), 8, 1, False)], (), ("6S", "6H", "4D", "2C")) in turns
    assert not any("AC" in t[4] for t in turns)


def test_bad_input():
    with pytest.raises(ValueError, match="game"):
        whole_turns(position(game="casino", hand=("2C",)))
    with pytest.raises(ValueError, match="KD"):
        whole_turns(position(hand=("KD",)))  # no kings in South African Casino
    with pytest.raises(ValueError, match="already"):
        whole_turns(position(hand=("2C",), table=("2C",)))
    with pytest.raises(ValueError):
        whole_turns([])  # type: ignore[arg-type]


def test_declared_value_built_while_holding_it():
    # [Kh] "you are allowed to create a new single or compound build of this rank, which will be owned by
    # your partner"; 2 "The player who forms the build becomes its owner" (T9: both are listed)
    pos = position(players=4, partners=True, hand=("9S", "3H"), table=("5D", "4C"), declared=(9,))
    turns = whole_turns(pos)
    assert outcome(("9S",), ("3H",), [(("5D", "4C"), 9, 2, False)], (), ()) in turns
    assert outcome(("9S",), ("3H",), [(("5D", "4C"), 9, 0, False)], (), ()) in turns
    # his own only while he keeps the 9
    assert outcome(("3H",), ("9S",), [(("5D", "4C"), 9, 0, False)], (), ()) not in turns
    assert outcome(("3H",), ("9S",), [(("5D", "4C"), 9, 2, False)], (), ()) in turns


def test_partner_build_captured_proves_its_value():
    # [Kh] "If your partner owns a build ... which is captured by someone other than your partner (including
    # yourself), then you know that your partner holds a card of the rank needed to capture that build. As
    # long as your partner does not play a card of this rank, you are allowed to create a new single or
    # compound build of this rank, which will be owned by your partner." (T10)
    builds = [(("5S", "4H"), 9, 2, False)]
    pos = position(players=4, partners=True, hand=("9S", "2H"), table=("6D", "3C"), builds=builds)
    turns = whole_turns(pos)
    assert outcome(("2H",), (), [(("6D", "3C"), 9, 2, False)], (), ("9S", "5S", "4H")) in turns


def test_swazi_ace_as_fourteen():
    # [P] (as [Ref] R1) "aces 1 or 14"; [Kh] 2 "You are only allowed to form a build if you have a card in
    # your hand which can later capture that build": a king and an ace make 14, taken by an ace
    pos = position(game="swazi", players=3, hand=("AS", "2C"), table=("KD", "AH"))
    turns = whole_turns(pos)
    assert outcome(("AS",), ("2C",), [(("KD", "AH"), 14, 0, False)], (), ()) in turns
    assert outcome(("2C",), (), (), (), ("AS", "KD", "AH")) in turns
    # with no ace left to take it, no build of 14
    pos = position(game="swazi", players=3, hand=("QS", "2C"), table=("KD", "AH"))
    assert outcome(("QS",), ("2C",), [(("KD", "AH"), 14, 0, False)], (), ()) not in whole_turns(pos)
    assert not any(t[2] for t in whole_turns(pos))

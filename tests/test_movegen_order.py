"""The move generator lists the same moves in the same order as it did before it was made
faster (issue 29): records and golden positions name moves by their place in that list, so a
speed change must leave every key where it was.

The digests were taken from the generator before the capture families were reworked (commit
397d1e6), over random hands of every variant and over large tables with builds.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from cassino.engine.core import Engine, Position
from cassino.language.settings import unchecked
from cassino.language.variants import load_rules

from conftest import VARIANTS

HANDS = 12

#: Tables where the capture and build families are large: (hand, loose cards, builds).
TABLES: dict[str, tuple[list[str], list[str], list[tuple[list[str], int, int]]]] = {
    "standard 20 loose": (["10S", "9H", "8C", "7D"],
                          ["AS", "3S", "5S", "7S", "9S", "JS", "KS", "2H", "4H", "6H",
                           "8H", "10H", "QH", "AD", "3D", "5D", "7C", "9D", "JC", "QC"], []),
    "standard 12 loose, builds": (["10S", "9H", "8C", "7D"],
                                  ["AS", "2S", "3S", "4S", "5S", "AH", "2H", "3H", "4H", "5H", "6H", "6C"],
                                  [(["2D", "4C"], 6, 1), (["5D", "4D"], 9, 0)]),
    "royal 12 loose, builds": (["AS", "9H", "KC", "7D"],
                               ["AH", "2S", "3S", "4S", "5S", "AC", "2H", "3H", "4H", "5H", "6H", "6C"],
                               [(["2D", "4C"], 6, 1), (["5D", "4D"], 9, 0)]),
}

#: Digests of the keys listed at every ply of HANDS random hands (two players and the most
#: a variant seats up to four), and of the keys of each table above.
EXPECTED: dict[str, str] = {
    # Standard and the variants that follow it (draw, face-builds, hoyle, spade) re-recorded when a raise
    # took in only loose cards each worth the new value (`build.raise_takes_in: cards`, 000 rule 5.1): with
    # `sets` back the generator gives the old digests (draw 82e5550fc3db42462dff, face-builds
    # 92eaecb2e15c04388496, hoyle 7dfc7840a1304ae59351, spade and standard cdafd1a2a6eb9492de48).
    "dominican": "91b2f06915633dc58572",
    "dominican-soto": "91b2f06915633dc58572",
    "draw": "fa969fefb7384b91687f",
    "escoba": "a373537b811d6303ba7a",
    "face-builds": "f3327b3b98bdf1fe6bc1",
    "finnish-kasino": "2e65ab27fbefae6f0202",
    # hoyle when another side's build took the hand card alone (001 "An opponent's build may be increased by
    # cards from the hand only": build.opponents_hand_only): with it off, 451cecb50e6a5b0cb0ab, as before.
    "hoyle": "b52df18a6628de9f3eeb",
    "hungarian": "e3019b6131904a074e68",
    "hungarian-ulmann": "b3f9e1d009f59b7be634",
    "kasino-misar": "2dfb21e033f5c33f4289",
    "krypkasino": "94a607dd89574468157c",
    "royal": "aa1fa621670e07274973",
    "scopa": "ab2b907e871f24896b3f",
    "scopone": "56741e7b2c174d1fd303",
    "spade": "951a1713eabcb1de7677",
    # Re-recorded in issue 36, whose rules changed play here (South African: anticlockwise, no
    # raising your own build, the owner free to trail in the last deal; Swazi: the last two): with
    # the old settings back the generator gives the old digests (6d947595c837036a368d and
    # 29a76fcd43fff57ba6b4), so the generator itself did not change. Again for the Khasino rules'
    # building (capture.pile_cards: augment; build.raise_partners, augment_opponents, one_per_value,
    # one_per_player; trail.with_build; South African pile tops in play): with those settings as
    # they were, the digests are the last ones (7c9f72aa088e9d92af9c, 2971870d63e90571b6e2). Swazi
    # again for building for a partner ([Kh] Special rules for partnership play: build.for_partner):
    # with it off, b94b90136fc876585d86. Both again for issue 49's four corrections by the Khasino
    # rules: no trail beside a layout build by an owner bound not to trail (5. Discarding), a build
    # raised only by the hand card itself (3.), a build raised to the value of one's own joined with it
    # (A base is: "you must then combine them"), and for South African `capture.pile_base: layout`
    # ("The card must be built on the floor first"), with which back at layout_or_played South African
    # gives de9b892d4647c9c56769. The digests before were 709473b17b7cff5bc738 and b3a833c803d6d6ddf5b5.
    # Swazi again for issue 49's comparison with a clean-room reference (the whole-move rules, a
    # trail beside a build of layout cards for a value the partner is proven to hold; before,
    # 63179e9e8dccce7145c2): a raise only to a value of a card in the raiser's own hand (3.), and in a
    # two-player first deal a build's owner no longer makes the card played the base of a pile card
    # (5. Discarding). South African's digest, of games without partners, is unchanged.
    # Both again for issue 49's turns of several actions (build.free_actions: builds of cards in play
    # alone before and after the hand card, and `end`; no `trail build`): before, 63770b5412ee54ae98ef
    # and d98ceb8b0e734345ca8c. Again when the turn went on after its hand card while cards are in play,
    # and the mover holds a card or the partner a proven value (public facts), not while the hand could build (which told the others what it held): 49593e1d11915c4a7a2f and
    # fd804745e1ca0437f82e before.
    # Both again when the generator stopped making what the whole-move rules refuse anyway under
    # `capture.pile_cards: augment` (no set with two cards of one pile) and `build.one_per_value` (no new
    # build beside a build of its value): the same moves (SETS below, recorded before), a few in another
    # order; before, 98152054d1e2f0fb6d75 and 9d7b9a34c66cb209a9b6.
    "south-african-casino": "bcf78f690790947833b8",
    "standard": "951a1713eabcb1de7677",
    # Swazi again when a partner's build on the table kept its value proven after he played another card
    # of it (he keeps one for the build: 001 Taking In, and [Kh] 5): before, c798ef29b0f219019d3f, which the
    # engine before that change gives again. Swazi again when its file read [Kh]'s "The card must be built
    # on the floor first" as South African Casino does (`capture.pile_base: layout`; an audit's reading): with
    # `layout_or_played` back, 758a054f27867e14ad0a (and SETS f4b377f371b19c58af45), the generator unchanged.
    "swazi-casino": "6e1354f93604fed4b787",
    "swedish-kasino": "7edabd9c679242a69e7d",
    "tuxedo": "b812a0e702573adc220e",
    "two-handed": "9b86e15bbadb3fc0c4de",
    # Re-recorded when a Position placing a card twice with one pack was refused: this table named the 7D, which
    # was in the hand too (one card in two places); the 7C instead. The table as it was, built without the check,
    # gives 6e73bfb1bdc949829968 as before, so the generator did not change.
    "standard 20 loose": "a86ee674b7176d916e06",
    "standard 12 loose, builds": "72274e5f8d308e6804da",
    "royal 12 loose, builds": "efc414793c43132b4065",
}


def keys_digest(name: str, ordered: bool = True) -> str:
    """The digest of the keys listed over HANDS random hands (``ordered=False``: each listing sorted, as
    :func:`sets_digest`). The deals are made as they were when
    the digests were taken (`deal.table_order: before_dealer`; issue 36 moved the table's cards
    after the players' in the Nordic variants, face-builds and Swazi Casino): this checks the
    move generator, and the same deals keep it checking the same positions."""
    engine = Engine(unchecked(load_rules(name), ("deal", "table_order"), "before_dealer"))
    seats = engine.rules.seats
    digest = hashlib.sha256()
    for players in sorted({max(seats.min_players, 2), min(seats.max_players, 4)}):
        for seed in range(HANDS):
            rnd = random.Random(seed)
            state = engine.start(seed, players)
            while not state.over:
                keys = engine.move_keys(state) if ordered else sorted(engine.move_keys(state))
                digest.update(repr(keys).encode())
                state = engine.apply_key(state, keys[rnd.randrange(len(keys))])
    return digest.hexdigest()[:20]


def sets_digest(name: str) -> str:
    """As :func:`keys_digest`, but of each listing sorted, with the move played drawn from the sorted
    list: the same digest for the same moves in any order."""
    return keys_digest(name, ordered=False)


#: :func:`sets_digest` of the African variants, recorded from the engine before its generator left out
#: what the whole-move rules refuse (capture.pile_cards: augment, build.one_per_value), which changed the
#: order of a few listings (EXPECTED) and must not change the moves.
SETS: dict[str, str] = {
    "south-african-casino": "900cc82cdfbe473986aa",
    "swazi-casino": "5daca655f97128e83f75",   # f4b377f371b19c58af45 before `capture.pile_base: layout` (above)
}


@pytest.mark.parametrize("name", sorted(SETS))
def test_the_african_variants_list_the_same_moves_in_any_order(name: str) -> None:
    assert sets_digest(name) == SETS[name]


def table_digest(label: str) -> str:
    engine = Engine(load_rules(label.split()[0]))
    hand, table, builds = TABLES[label]
    deck = engine.deck
    state = engine.position(Position(
        players=2, hands={0: [deck.parse(c) for c in hand]}, table=[deck.parse(c) for c in table],
        builds=[([deck.parse(c) for c in cards], v, o) for cards, v, o in builds]))
    return hashlib.sha256(repr(engine.move_keys(state)).encode()).hexdigest()[:20]


@pytest.mark.parametrize("name", VARIANTS)
def test_random_hands_list_the_same_moves_in_the_same_order(name: str) -> None:
    assert name in EXPECTED, (f"{name} is a new variant: record its digest, {keys_digest(name)!r}, from the "
                              "generator before a speed change, and check it again after")
    assert keys_digest(name) == EXPECTED[name]


@pytest.mark.parametrize("label", sorted(TABLES))
def test_large_tables_list_the_same_moves_in_the_same_order(label: str) -> None:
    assert table_digest(label) == EXPECTED[label]

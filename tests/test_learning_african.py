"""The learning aids on African Casino (issue 36): the counting aid knows a card in a face-up pile can
still be taken, the warnings foresee a pile card taken only as the rules allow, and the review's exact
solve of a known last deal is bounded (a 2-player deal of 10 or 12 cards each took minutes)."""

from __future__ import annotations

from typing import Any

from cassino.apps.learning.counting import count_for
from cassino.apps.learning.review import Valuer
from cassino.apps.learning.warnings import warnings_for
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.notation import parse_move
from cassino.language.variants import load_rules


def _at(name: str, hands: dict[int, list[str]], table: list[str], captured: dict[int, list[str]] | None = None,
        stock: list[str] | None = None) -> Game:
    engine = Engine(load_rules(name))
    card = engine.deck.parse
    state = engine.position(Position(players=2, to_play=0, hands={s: [card(c) for c in cs] for s, cs in hands.items()},
                                     table=[card(c) for c in table],
                                     captured={s: [card(c) for c in cs] for s, cs in (captured or {}).items()} or None,
                                     stock=None if stock is None else [card(c) for c in stock]))
    return Game.at(engine, state)


def _item(count: Any, name: str) -> Any:
    return next(i for i in count.items if i.name == name)


#: Seat 0 has taken 28 of the 52 cards, the 10D among them: past half, with 12 in hands and 4 on the table.
_WON = [f"{r}{s}" for s in "SHC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9")] + ["10D"]


def test_the_counting_aid_leaves_a_face_up_pile_open_while_the_hand_is_played() -> None:
    hands = {0: ["JS", "QS", "KS", "JH", "QH", "KH"], 1: ["JD", "QD", "KD", "JC", "QC", "KC"]}
    table = ["10S", "10H", "10C", "9D"]
    swazi = _at("swazi-casino", hands, table, captured={0: _WON})
    count = count_for(swazi, 1)
    cards = _item(count, "cards")
    assert cards.decided_for is None and cards.open and cards.can_win[1] == 2
    assert _item(count, "big_casino").can_win[1] == 2              # the 10D on seat 0's pile: still takeable
    # Where piles are not in play (Royal Casino, the same cards), seat 0 has most cards for good.
    royal = count_for(_at("royal", hands, table, captured={0: _WON}), 1)
    assert _item(royal, "cards").decided_for == 0 and _item(royal, "cards").can_win[1] == 0
    assert _item(royal, "big_casino").can_win[1] == 0


def test_a_card_left_on_top_of_your_pile_is_warned_of_only_where_it_could_be_taken() -> None:
    """Swazi: the 10D on top of your pile only augments a base; with nothing left on the table to be a
    ten's base, the next player cannot take it, and no warning is given."""
    bare = _at("swazi-casino", {0: ["10D", "2C"], 1: ["KH", "QH"]}, ["10C", "8S"])
    assert not [w for w in warnings_for(bare, parse_move("10D capture 10C", bare.engine.deck)) if "10D" in w.cards]
    based = _at("swazi-casino", {0: ["10D", "2C"], 1: ["KH", "QH"]}, ["10C", "8S", "2H"])
    found = [w for w in warnings_for(based, parse_move("10D capture 10C", based.engine.deck)) if "10D" in w.cards]
    assert found and "on top of your pile" in found[0].text and "10H" in found[0].takers


def test_the_reviews_exact_solve_of_a_known_deal_is_bounded() -> None:
    """A known 2-player last deal (nothing left to deal): solved exactly while the solve stays within
    ``known_positions``; beyond it, valued by the search instead."""
    hands = {0: ["AS", "2S", "3S", "4S", "5S", "6S"], 1: ["AH", "2H", "3H", "4H", "5H", "6H"]}
    game = _at("south-african-casino", hands, ["7C", "8C", "9C"], stock=[])
    assert Valuer(1, 0, known_positions=50).values(game, 1).method == "search"
    small = _at("south-african-casino", {0: ["AS", "2S"], 1: ["AH", "2H"]}, ["7C"], stock=[])
    assert Valuer(1, 0, known_positions=50).values(small, 1).method == "exact"

"""The deal's order (issue 36, `deal.table_order`): where the table's cards fall in the first
deal. The traditional Anglo-American deal puts the table's packet just before the dealer's own
(000); 003, the Nordic games and Krypkasino put it after every player's; Swazi Casino lays the
table out before the hands are dealt. Positions in scenario files are explicit, so this is
checked here, on the shuffled stock a seed gives."""

from __future__ import annotations

import pytest

from cassino.engine.core import Engine
from cassino.engine.rng import SplitMix64
from cassino.language.settings import unchecked
from cassino.language.variants import load_rules


def _shuffled(engine: Engine, seed: int) -> list[int]:
    """The stock a seed gives, top first, as the engine shuffles it before dealing."""
    order = list(range(engine.n_cards))
    SplitMix64(seed).shuffle(order)
    return order


def _table_places(engine: Engine, seed: int, players: int) -> list[int]:
    """Which places from the top of the shuffled stock went to the table."""
    order = _shuffled(engine, seed)
    table = engine.start(seed, players).table
    return sorted(k for k, card in enumerate(order) if table >> card & 1)


@pytest.mark.parametrize("order, players, places", [
    # 2 players, in twos: the other player 0-1, then (table 2-3) dealer 4-5, again.
    ("before_dealer", 2, [2, 3, 8, 9]),
    # after both players' two: other 0-1, dealer 2-3, table 4-5, again.
    ("after_players", 2, [4, 5, 10, 11]),
    ("first", 2, [0, 1, 2, 3]),
    # 4 players: three others 0-5, (table 6-7) dealer, again.
    ("before_dealer", 4, [6, 7, 16, 17]),
    ("after_players", 4, [8, 9, 18, 19]),
])
def test_the_table_gets_its_packets_where_the_setting_says(order: str, players: int, places: list[int]) -> None:
    rules = unchecked(load_rules("standard"), ("deal", "table_order"), order)
    engine = Engine(rules)
    for seed in range(3):
        assert _table_places(engine, seed, players) == places
        state = engine.start(seed, players)
        assert [bin(h).count("1") for h in state.hands] == [4] * players


@pytest.mark.parametrize("name, order", [
    ("standard", "before_dealer"), ("royal", "before_dealer"), ("hoyle", "before_dealer"),
    ("face-builds", "after_players"),      # 003: "two cards at a time to each player followed by two face up"
    ("finnish-kasino", "after_players"),   # korttipelit.net: "2 cards to the opponent, 2 cards to the dealer and 2 cards on the table"
    ("swedish-kasino", "after_players"),   # pagat Nordic Casino: two to each player, "then two cards face up"
    ("krypkasino", "after_players"), ("kasino-misar", "after_players"),   # dealt as (Swedish) Kasino
    ("swazi-casino", "first"),             # pagat: the first player cuts the layout before the deal
])
def test_each_variant_deals_as_its_source(name: str, order: str) -> None:
    assert load_rules(name).deal.table_order == order


def test_singly_after_the_players_gives_the_table_one_card_a_round() -> None:
    rules = unchecked(unchecked(load_rules("standard"), ("deal", "packet"), 1), ("deal", "table_order"),
                      "after_players")
    assert _table_places(Engine(rules), 5, 2) == [2, 5, 8, 11]


def test_the_rulebook_says_the_order() -> None:
    from cassino.language.render import render
    from cassino.language.rulebook import rulebook

    def words(name: str) -> str:
        return " ".join(render(rulebook(load_rules(name)), "text").split())

    nordic = words("swedish-kasino")
    assert "the dealer last, then 2 face up to the table" in nordic
    assert "just before the dealer's own" not in nordic
    assert "the table gets its cards just before the dealer's own" in words("standard")
    assert "laid out first" in words("swazi-casino")

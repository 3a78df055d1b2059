"""`cassino diff` compares what rules do, not what they are called."""

from __future__ import annotations

from cassino.apps.authors.differences import compare, sample_scoring
from cassino.engine.core import Engine, Position
from cassino.errors import CassinoError
from cassino.language.compare import differences, same_items
from cassino.language.variants import load_rules

import pytest


def test_items_scoring_the_same_cards_under_other_names_are_one_item() -> None:
    """Scopa's cards, coins, settebello, primiera and sweeps are Escoba's cartas, oros, siete de
    oros, setenta and escobas: they were 10 of the 17 differences, with identical totals."""
    scopa, escoba = load_rules("scopa"), load_rules("escoba")
    assert same_items(scopa, escoba) == {"cartas": "cards", "oros": "coins", "siete_de_oros": "settebello",
                                         "setenta": "primiera", "escobas": "sweeps"}
    keys = [d.key for d in differences(scopa, escoba)]
    assert not [k for k in keys if k.startswith("scoring.items.")], keys
    sample = sample_scoring(scopa, escoba)
    assert set(sample["items"]) == {"cards", "coins", "settebello", "primiera", "sweeps"}
    assert all(v["a"] == v["b"] for v in sample["items"].values())


def test_an_item_with_other_points_under_another_name_shows_the_points() -> None:
    hoyle, standard = load_rules("hoyle"), load_rules("standard")
    assert same_items(standard, hoyle) == {}   # the same names already


def test_a_rule_worded_under_another_key_is_found() -> None:
    """Scopa's three-kings redeal is worded at deal.misdeal.at_least: the row for deal.misdeal.cards
    said 'no such rule here' on both sides."""
    rows = {d.key: d for d in differences(load_rules("scopa"), load_rules("escoba"))}
    misdeal = rows["deal.misdeal.at_least"]
    assert "kings" in misdeal.a and misdeal.b == "no such rule here"
    assert all(not (d.a == d.b == "no such rule here") for d in rows.values())


def test_a_one_pack_game_and_its_two_pack_twin_share_their_positions() -> None:
    """Krypkasino (two packs) against kasino misar (one): every one-pack position exists with two
    packs, so positions are searched ('no position exists in both' was false)."""
    report = compare(load_rules("krypkasino"), load_rules("kasino-misar"), tries=20)
    assert report.why_none == ""
    packs = next(d for d in report.diffs if d.key == "deck.packs")
    assert not packs.moot and "deck.packs" not in report.found   # a difference, with no position to show it


def test_a_card_placed_twice_in_one_pack_is_no_position() -> None:
    engine = Engine(load_rules("kasino-misar"))
    card = engine.deck.parse
    with pytest.raises(CassinoError, match="placed in two places"):
        engine.position(Position(players=2, hands={0: [card("AS")]}, table=[card("AS"), card("KH")]))

"""`cassino diff` compares what rules do, not what they are called."""

from __future__ import annotations

from cassino.apps.authors.differences import compare, sample_scoring
from cassino.engine.core import Engine, Position
from cassino.language.compare import differences, same_items
from cassino.language.rules import Rules
from cassino.language.variants import load_rules


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


def test_a_card_placed_twice_is_no_position_of_a_one_pack_game() -> None:
    """A position the two-pack game makes (an ace in hand and its twin on the table) is none of
    the one-pack game: its moves are not compared (the diff had shown A-spade in two places)."""
    from cassino.apps.authors.differences import _moves

    engine = Engine(load_rules("kasino-misar"))
    twins = Engine(load_rules("krypkasino"))
    card = engine.deck.parse
    pos = Position(players=2, hands={0: [card("AS")], 1: [card("2C")]}, table=[card("AS"), card("KH")])
    assert _moves(engine, pos) is None and _moves(twins, pos)


def _orange_black() -> Rules:
    from cassino.language.settings import with_value

    tuxedo = load_rules("tuxedo")
    return Rules.from_data(with_value(dict(tuxedo.data), ("scoring", "events", "orange", "takes"), ["colour=B"]))


def test_a_changed_capture_event_is_worded_and_scored_by_its_own_rules() -> None:
    """An audit redefined Tuxedo's orange (a capture taking a black card): diff worded both sides "no such capture
    event", and its sample hand scored B with the oranges A's play had recorded, the same on both sides."""
    tuxedo, changed = load_rules("tuxedo"), _orange_black()
    [row] = [d for d in differences(tuxedo, changed) if d.key.startswith("scoring.events.")]
    assert "a red card and a yellow card" in row.a and "a black card" in row.b
    sample = sample_scoring(tuxedo, changed)
    assert sample["replayed"] and sample["items"]["oranges"]["a"] != sample["items"]["oranges"]["b"]
    # the same moves played under B's rules: B's hand ends with B's own events
    assert sample["items"]["fives"]["a"] == sample["items"]["fives"]["b"]


def test_the_rulebook_marks_the_items_of_a_changed_capture_event(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.render import text as render

    path = tmp_path / "orange-black.yaml"
    path.write_text("name: orange-black\nextends: tuxedo\nscoring:\n  events:\n    orange:\n      takes: [\"colour=B\"]\n")
    text = render(full_rulebook(str(path), with_worked_examples=False))
    assert "1 entry differs" in text and "CHANGED: Oranges: 10 points for each capture that takes at least a black" in text


def test_a_setting_neither_game_plays_is_not_counted_as_a_rule_that_differs() -> None:
    """An audit's house rule of Hoyle with every hand a game and a lurch under 4 got "2 rules differ": the lurch,
    worded "no such rule here" and "does not apply", was the second. A game of one hand reads no lurch, and Hoyle
    plays none: only the target differs."""
    from cassino.language.settings import with_value

    hoyle = load_rules("hoyle")
    data = with_value(with_value(dict(hoyle.data), ("game", "target"), None), ("game", "lurch", "below"), 4)
    rows = {d.key: d for d in differences(hoyle, Rules.from_data(data))}
    assert not rows["game.target"].moot
    lurch = rows["game.lurch.below"]
    assert lurch.moot and "does not read it: each hand is a game on its own" in lurch.moot_why


def test_a_piles_reach_is_worded_in_the_sentence_that_says_it() -> None:
    """South African Casino with a reach of 3: both sides said "no such rule here", though the pile sentence says
    how deep a move may go."""
    from cassino.language.settings import with_value

    sa = load_rules("south-african-casino")
    [row] = [d for d in differences(sa, Rules.from_data(with_value(dict(sa.data), ("capture", "pile_reach"), 3)))]
    assert "up to four cards of a pile" in row.a and "up to three cards of a pile" in row.b and not row.moot

"""Each rulebook's worked examples show what makes its variant different (issue 50): Royal's
rulebook showed only standard's number cards, never a king taking by its value or an ace as 14.
The examples come from the engine; the lines the rulebook checker (test_rulebook) does not read,
what a move brings about ("After ...": a capture event made, the cards drawn), are checked here."""

from __future__ import annotations

import re

import pytest

from cassino.apps.authors.rulebooks import full_rulebook
from cassino.engine.core import Engine, Position
from cassino.engine.notation import parse_move
from cassino.language.catalogue import bundled_names
from cassino.language.compare import differences
from cassino.language.render import render
from cassino.language.variants import load
from cassino.language.rulebook import Example

from test_rulebook import _card_reader, _position

VARIANTS = [n for n in bundled_names() if n != "standard"]
STANDARD = load("standard").rules


@pytest.mark.parametrize("name", VARIANTS)
def test_a_rulebook_shows_an_example_of_what_sets_it_apart(name: str) -> None:
    rules = load(name).rules
    differing = {d.key for d in differences(STANDARD, rules) if not d.moot}
    shown = [e for e in full_rulebook(name).examples() if e.key in differing]
    assert shown, f"{name}: no example of a setting it differs from standard in ({sorted(differing)})"


def _text(example: Example) -> dict[str, str]:
    return dict(example.lines)


def test_royal_shows_a_court_card_by_value_and_an_ace_as_fourteen() -> None:
    examples = {e.title: _text(e) for e in full_rulebook("royal").examples()}
    king = examples["a court card by its value"]
    assert king["Captures with K♦"] == "K♦ capture 4♥ 9♠"                        # 13 = 9 + 4
    ace = examples["a card of two values"]
    assert "A♠ capture 4♣ 10♦" in ace["Captures with A♠"].split(" · ")          # 14 = 10 + 4
    assert "K♦ capture" not in render(full_rulebook("standard"), "text")           # standard's kings take no sums


def test_finnish_shows_a_card_worth_more_from_the_hand_once() -> None:
    text = render(full_rulebook("finnish-kasino"), "text")
    assert text.count("Example: a card worth more from the hand") == 1
    assert "Not allowed: 10♦ capture 10♣ (from the hand it counts 16)" in text


@pytest.mark.parametrize("name", ["draw", "tuxedo"])
def test_what_a_move_brings_about_is_what_the_engine_does(name: str) -> None:
    rules = load(name).rules
    engine = Engine(rules)
    letters = _card_reader(rules)
    checked = 0
    for example in full_rulebook(name).examples():
        fields = _text(example)
        after = [(label, value) for label, value in example.lines if label.startswith("After ")]
        if not after:
            continue
        place = _position(rules, engine, fields, letters)
        hands = {0: list(place.hands[0])} if place.hands else {}
        stock = None
        if "Stock" in fields:
            stock = [engine.deck.parse(letters(c)) for c in fields["Stock"].removesuffix(" (top first)").split()]
            hands[1] = _others(engine, place, stock, rules.deal.hand_size)
        state = engine.position(Position(players=place.players, to_play=0, hands=hands, table=place.table,
                                         builds=place.builds, stock=stock))
        for label, value in after:
            move = engine.resolve(state, parse_move(letters(label.removeprefix("After ")), engine.deck))
            assert move in engine.legal_moves(state)
            result = engine.apply(state, move)
            m = re.match(r"you draw (.+)$", value)
            if m:
                drawn = [engine.deck.parse(letters(c)) for c in m.group(1).split()]
                kept = [c for c in engine.deck.cards_of(state.hands[0]) if c not in engine.deck.cards_of(move.played)]
                assert sorted(engine.deck.cards_of(result.hands[0])) == sorted(kept + drawn)
            else:
                made = re.match(r"you have made an? (.+)$", value)
                assert made, value
                assert [e.name for e in result.events[len(state.events):]] == [made.group(1)]
            checked += 1
    assert checked, f"{name}: no example shows what a move brings about"


def _others(engine: Engine, place: Position, stock: list, size: int) -> list:  # type: ignore[type-arg]
    """A hand for the other seat from cards the example does not show (play goes on after the move)."""
    used = set(place.hands[0] if place.hands else ()) | set(place.table) | set(stock)
    return [c for c in engine.deck.cards if c not in used][:size]

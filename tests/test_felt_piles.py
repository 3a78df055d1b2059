"""The terminal shows a side's face-up pile top at the partner who took it (4-player Swazi Casino), as the
browser does: it was drawn at the side's lowest seat, beside "0 taken" (issue 48)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from cassino.apps.game.play import Session
from cassino.apps.game.records import Record
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.language.variants import load_rules


def test_the_pile_top_is_shown_at_the_seat_that_took_it(tmp_path: Path) -> None:
    rules = load_rules("swazi-casino")
    engine = Engine(rules)
    card = engine.deck.parse
    hand = engine.position(Position(
        players=4, to_play=1, dealer=0, partners=True,
        hands={0: [card("3S")], 1: [card("9C"), card("KD")], 2: [card("QH")], 3: [card("4C")]},
        table=[card(c) for c in ("9S", "7H", "4D")], captured={2: [card(c) for c in ("AS", "2C", "5H")]}))
    game = Game.at(engine, hand)
    out = io.StringIO()
    record = Record(rules, 1, 4, True, ["human"] * 4, source="swazi-casino")
    felt = Session(game, record, {}, save_path=tmp_path / "game.json", console=Console(file=out, width=120))
    felt.show_table()
    lines = [line.strip() for line in out.getvalue().splitlines() if "taken" in line]
    seat0 = next(line for line in lines if line.startswith("seat 0 "))
    seat2 = next(line for line in lines if line.startswith("seat 2 "))
    # (named as the side's: a player's audit found their own captures under the partner's name)
    assert "3 taken" in seat2 and "pile top (seats 0+2): 5♥" in seat2
    assert "0 taken" in seat0 and "pile top" not in seat0

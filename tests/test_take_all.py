"""`capture.take_all` (issue 36, the Krypkasino question): where a capture must take all the card
can, a smaller capture by the same card is refused with the larger one named; the bundled
Krypkasino lets the player choose (its readings say why), the house rule plays the other reading."""

from __future__ import annotations

from cassino.engine.core import Engine, Position
from cassino.engine.notation import format_move, parse_move
from cassino.language.variants import load_rules

from conftest import ROOT, every_lesson

TABLE = ("AC", "JH", "QC", "2D", "10H")


def _engine_and_state(target: str) -> tuple[Engine, object]:
    engine = Engine(load_rules(target))
    deck = engine.deck
    state = engine.position(Position(players=2, hands={0: [deck.parse("QS"), deck.parse("5H")]},
                                     table=[deck.parse(c) for c in TABLE]))
    return engine, state


def test_a_partial_capture_is_refused_with_the_whole_one_named() -> None:
    engine, state = _engine_and_state(str(ROOT / "examples" / "krypkasino-take-all.yaml"))
    why = engine.why_illegal(state, parse_move("QS capture QC", engine.deck))
    assert "a capture must take all the card can" in why and "AC 2D 10H JH QC" in why
    moves = sorted(format_move(m, engine.deck) for m in engine.legal_moves(state))
    assert moves == ["5H trail", "QS capture AC 2D 10H JH QC"]   # the queen has one capture left


def test_the_bundled_krypkasino_lets_a_capture_take_part() -> None:
    engine, state = _engine_and_state("krypkasino")
    assert engine.is_legal(state, parse_move("QS capture QC", engine.deck))
    assert not load_rules("krypkasino").capture.take_all


def test_the_tutorial_teaches_the_rule_at_the_first_capture() -> None:
    from cassino.apps.learning.tutorial import Tutorial
    from cassino.engine.game import Game

    rules = load_rules(str(ROOT / "examples" / "krypkasino-take-all.yaml"))
    engine, state = _engine_and_state(str(ROOT / "examples" / "krypkasino-take-all.yaml"))
    before = Game.new(rules, 1, 2).with_(hand=state)
    move = parse_move("QS capture AC 2D 10H JH QC", before.engine.deck)
    _, lessons = every_lesson(Tutorial.for_rules(rules), before, move, before.play(move))
    assert any(lesson.key == "capture.take_all" and "everything the card you play can take" in lesson.text
               for lesson in lessons)


def test_beyond_the_listing_budget_a_partial_capture_is_still_refused() -> None:
    """At a position the engine will not list whole (a move budget of 6 here: 7 lists it), a move is checked
    alone by the lazy walk: it let a capture take part of what the card could (`QS capture QC`),
    because the walk knew nothing of take_all. Now it asks whether a larger capture exists."""
    engine, state = _engine_and_state(str(ROOT / "examples" / "krypkasino-take-all.yaml"))
    engine.move_budget = 6
    from cassino.errors import PositionTooLargeError

    try:
        engine.legal_moves(state)
        raise AssertionError("the budget of 6 should refuse the listing")
    except PositionTooLargeError:
        pass
    assert not engine.is_legal(state, parse_move("QS capture QC", engine.deck))
    assert not engine.is_legal(state, parse_move("QS capture AC JH QC", engine.deck))
    assert engine.is_legal(state, parse_move("QS capture AC 2D 10H JH QC", engine.deck))

"""Warnings are a choice offered (issue 50): a risk is warned of only where another legal move avoids it, and a
warning of the move the hint chose says that the hint chose it all the same."""

from __future__ import annotations

import io

from cassino.apps.game.play import Aids, Session
from cassino.apps.game.records import Record
from cassino.apps.learning.warnings import risks, warnings_for
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.notation import parse_move
from cassino.language.variants import load_rules


def at(variant: str, hands: dict[int, list[str]], table: list[str]) -> Game:
    engine = Engine(load_rules(variant))
    card = engine.deck.parse
    state = engine.position(Position(players=2, to_play=0, hands={s: [card(c) for c in h] for s, h in hands.items()},
                                     table=[card(c) for c in table]))
    return Game.at(engine, state)


def test_no_warning_where_every_move_carries_the_risk() -> None:
    """Scopa, 2S and 4D against AD 4H: the trail leaves 1+4+2 = 7 and the capture leaves the ace; either way an
    unseen card sweeps, so neither is warned of, though each runs the risk."""
    game = at("scopa", {0: ["2S", "4D"], 1: ["KH", "QH"]}, ["AD", "4H"])
    legal = game.legal_moves()
    assert len(legal) == 2
    for move in legal:
        assert any(w.kind == "sweep" for w in risks(game, move, legal))   # the risk is there...
        assert warnings_for(game, move) == ()                             # ...and cannot be avoided


def test_a_risk_another_move_avoids_is_still_warned_of() -> None:
    # Hoyle scores sweeps: trailing the 2 leaves 4+2 (a six sweeps); trailing the king does not.
    game = at("hoyle", {0: ["9C", "2D", "KS"], 1: ["KH", "QH", "JH"]}, ["4H"])
    deck = game.engine.deck
    assert {w.kind for w in warnings_for(game, parse_move("2D trail", deck))} == {"sweep"}
    assert warnings_for(game, parse_move("KS trail", deck)) == ()


def test_the_hints_own_move_says_so() -> None:
    game = at("hoyle", {0: ["9C", "2D", "KS"], 1: ["KH", "QH", "JH"]}, ["4H"])
    move = parse_move("2D trail", game.engine.deck)
    plain = warnings_for(game, move)
    hinted = warnings_for(game, move, hinted=move)
    assert plain and len(hinted) == len(plain)
    assert all("the hint chose this move all the same" in w.text for w in hinted)
    assert not any("hint" in w.text for w in plain)
    other = parse_move("KS trail", game.engine.deck)
    assert warnings_for(game, move, hinted=other) == plain


def test_the_terminal_asks_only_about_an_avoidable_risk() -> None:
    """--warn in the terminal: the Scopa position asks nothing, whichever move is typed."""
    game = at("scopa", {0: ["2S", "4D"], 1: ["KH", "QH"]}, ["AD", "4H"])
    from rich.console import Console

    out = io.StringIO()
    record = Record(game.rules, 1, 2, False, ["human", "random"], source="scopa")
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return "y"

    felt = Session(game, record, {}, save_path=None, console=Console(file=out),  # type: ignore[arg-type]
                        read=read, aids=Aids(warn=True))
    for move in game.legal_moves():
        assert felt.confirmed(move) is True
    assert asked == [] and "warning" not in out.getvalue()


def test_the_browser_says_so_beside_the_hints_own_move(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from cassino.apps.game.session import GameSession
    from cassino.apps.web.tables import warnings_answer

    game = at("hoyle", {0: ["9C", "2D", "KS"], 1: ["KH", "QH", "JH"]}, ["4H"])
    record = Record(game.rules, 1, 2, False, ["human", "random"], source="hoyle")
    snap = GameSession(game, record, {}, tmp_path / "game.json")
    plain = warnings_answer(snap, "2D trail")
    hinted = warnings_answer(snap, "2D trail", hinted="2D trail")
    other = warnings_answer(snap, "2D trail", hinted="KS trail")
    assert plain["warnings"] and not any("hint" in w["text"] for w in plain["warnings"])
    assert all("the hint chose this move all the same" in w["text"] for w in hinted["warnings"])
    assert other == plain
    assert warnings_answer(snap, "2D trail", hinted="not a move")["warnings"] == plain["warnings"]


def _with_build(variant: str, hands: dict[int, list[str]], table: list[str],
                build: tuple[list[str], int, int]) -> Game:
    engine = Engine(load_rules(variant))
    card = engine.deck.parse
    state = engine.position(Position(players=2, to_play=0, hands={s: [card(c) for c in h] for s, h in hands.items()},
                                     table=[card(c) for c in table],
                                     builds=[([card(c) for c in build[0]], build[1], build[2])]))
    return Game.at(engine, state)


def test_a_next_player_holding_a_build_may_capture_with_another_card() -> None:
    """An audit's find (standard, seed 106): seat 1 holds a build of 9 and two cards; seat 0 trailing 7D leaves
    10D, which seat 1 may take with a 10 while it keeps its 9 for the build. The warnings gave the next player
    the one card tried and nothing else, so a 10 could not be played (the build's holder must keep a 9) and
    the risk went unsaid."""
    game = _with_build("standard", {0: ["3C", "7D", "10C"], 1: ["9H", "10S"]},
                       ["6S", "6D", "10D", "JD", "JC"], (["AD", "8S"], 9, 1))
    deck = game.engine.deck
    found = warnings_for(game, parse_move("7D trail", deck))
    [ten] = [w for w in found if w.kind == "scoring-card"]
    assert ten.cards == ("10D",) and set(ten.takers) == {"10S", "10H"}
    assert warnings_for(game, parse_move("10C capture 10D", deck)) == ()   # the move that avoids it


def test_a_next_player_whose_one_card_must_take_its_build_is_not_said_to_take_more() -> None:
    """The same table with the holder down to one card: that card must be the 9 it keeps for its build, and
    it can take nothing else with it than the build; no 10 is said to take 10D."""
    game = _with_build("standard", {0: ["3C", "7D", "10C"], 1: ["9H"]},
                       ["6S", "6D", "10D", "JD", "JC"], (["AD", "8S"], 9, 1))
    found = warnings_for(game, parse_move("7D trail", game.engine.deck))
    assert not any(w.kind == "scoring-card" and "10D" in w.cards for w in found)

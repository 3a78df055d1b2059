"""The felt shows the pile cards a move may reach (capture.pile_cards: augment, issue 36): under an
opponent's pile top, the cards a later set of the same move may use are in play, so the terminal lists
them in order and the browser lets a player choose each once the card above it is chosen.

The position is the Khasino rules' example ("4. Augmenting a card or build"): a 9, a 7 and a 4 in the
layout, a 9 in hand, the opponent's pile a 5 over a 2: 9 takes 9, then 4 with the pile's 5, then 7 with
the 2 the 5 uncovered."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest

from cassino.engine.core import Position

from conftest import ROOT

MOVE = "9C capture 2C 4D 5H 7H 9S"


def _khasino(game: Any) -> Any:
    """The example's position in ``game`` (Swazi Casino), seat 0 to play."""
    engine = game.engine
    card = engine.deck.parse
    hand = engine.position(Position(players=2, to_play=0, dealer=1,
                                    hands={0: [card(c) for c in ("9C", "KD")], 1: [card(c) for c in ("3S", "QH")]},
                                    table=[card(c) for c in ("9S", "7H", "4D")],
                                    captured={1: [card(c) for c in ("AS", "2C", "5H")]}))
    return game.with_(hand=hand)


def test_the_terminal_shows_the_cards_under_a_top_in_order_and_plays_a_move_that_uses_them(tmp_path: Path) -> None:
    from rich.console import Console

    from cassino.apps.game.play import start_session
    from cassino.apps.game.records import Record
    from cassino.language.variants import load_rules

    out = StringIO()
    typed = iter([MOVE, "quit"])
    record = Record(load_rules("swazi-casino"), 3, 2, False, ["human", "greedy"], source="swazi-casino")
    session = start_session(record, tmp_path / "g.json", Console(file=out, width=200, highlight=False),
                            read=lambda _: next(typed))
    session.game = _khasino(session.game)
    assert session.human_turn(0) is True
    screen = out.getvalue()
    # Seat 1's pile: the 5 on top, then the 2 and the ace under it (a move reaches four deep; the pile has three).
    line = next(text for text in screen.splitlines() if text.lstrip().startswith("seat 1"))
    assert "pile top: 5♥, then under it: 2♣ A♠" in line, line
    assert session.record.actions[-1] == MOVE
    # Where a move takes the top alone (the tops-taken reading), only the top is shown.
    out2 = StringIO()
    taken = Record(load_rules(str(ROOT / "examples" / "swazi-tops-taken.yaml")), 3, 2, False,
                   ["human", "greedy"], source="swazi-tops-taken")
    other = start_session(taken, tmp_path / "h.json", Console(file=out2, width=200, highlight=False),
                          read=lambda _: "quit")
    other.game = _khasino(other.game)
    other.show_table()
    line = next(text for text in out2.getvalue().splitlines() if text.lstrip().startswith("seat 1"))
    assert "pile top: 5♥" in line and "under it" not in line, line


pytest.importorskip("starlette")
from web_helpers import serving  # noqa: E402


def test_a_seats_view_lists_the_reachable_pile_cards_top_first(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "human"], variant="swazi-casino")
        t = s.store.get(table["id"])
        t.session.game = _khasino(t.session.game)
        with s.seat(table, 0) as me:
            state = me.my_turn()
        assert state["seats"][1]["top"] == "5H"
        assert state["seats"][1]["pile"] == ["5H", "2C", "AS"]
        assert state["seats"][0]["pile"] == []
        move = next(m for m in state["moves"] if m["text"] == MOVE)
        assert set(move["items"]) == {"9S", "4D", "5H", "7H", "2C"}     # the card under the top, by its id
        assert "5♥ from the top of an opponent's pile and 2♣ from beneath it" in move["words"]


def test_the_browser_lets_a_card_under_the_top_be_chosen_once_the_top_is(tmp_path: Path) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extra")
    from test_web_browser import chromium_binary, new_page
    from playwright.sync_api import sync_playwright

    from cassino.apps.game.records import load_record

    binary = chromium_binary()
    if binary is None:
        pytest.skip("no chromium binary: install Debian's chromium (apt-get install chromium), as .ci/run does")
    from test_web_browser import CHROMIUM_ARGS

    with serving(tmp_path / "records") as s, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=binary, args=CHROMIUM_ARGS)
        table = s.new_table(["human", "human"], variant="swazi-casino")
        t = s.store.get(table["id"])
        t.session.game = _khasino(t.session.game)
        page = new_page(browser, 1000, 900)
        page.goto(s.url + table["links"]["seats"]["0"])
        page.wait_for_selector("body.my-turn")
        pile = page.locator('#seats .seat[data-seat="1"] .pile-top .card')
        assert [pile.nth(k).get_attribute("data-id") for k in range(pile.count())] == ["5H", "2C", "AS"]
        top = page.locator('#seats .seat[data-seat="1"] .pile-top [data-top="5H"]')
        under = page.locator('#seats .seat[data-seat="1"] .pile-top [data-under="2C"]')
        page.click('#hand [data-id="9C"]')
        assert "playable" in (top.get_attribute("class") or "")
        assert "dim" in (under.get_attribute("class") or "")          # not until the 5 above it is chosen
        under.click()
        assert "choose 5♥ first" in page.locator("#message").inner_text()
        assert "selected" not in (under.get_attribute("class") or "")
        top.click()
        assert "playable" in (under.get_attribute("class") or "")     # the 5 chosen: the 2 is uncovered
        under.click()
        assert "selected" in (under.get_attribute("class") or "")
        for item in ("9S", "4D", "7H"):
            page.click(f'#felt [data-id="{item}"]')
        choice = page.locator("#choices button.choice")
        assert choice.count() == 1 and choice.first.get_attribute("data-move") == MOVE
        position = page.locator("body").get_attribute("data-position")
        choice.first.click()
        page.wait_for_selector(f'body:not([data-position="{position}"])')
        assert page.script_errors == []
        assert MOVE in load_record(t.session.save_path).actions
        browser.close()

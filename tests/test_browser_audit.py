"""What a player of the browser table found, each pinned by a real server (and, where the page is what was
wrong, Debian's chromium driven by Playwright, as in test_web_browser)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extra")

from test_web_browser import launched_chromium, new_page, open_table, seat_at  # noqa: E402
from web_helpers import serve_process, serving  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as b:
        yield b


def _claim_button_clicked(browser: Any, s: Any) -> tuple[dict[str, Any], Any]:
    """A new Hoyle table with claiming and seat 0's page there, *Claim the game* clicked once (nothing claimed yet)."""
    table = s.new_table(["human", "greedy"], variant="hoyle-claiming", kind="example")
    page = new_page(browser, 1000, 900)
    page.goto(s.url + table["links"]["seats"]["0"])
    page.wait_for_selector("#claim:not([hidden])", state="visible")
    page.click("#claim")
    return table, page


def test_claiming_the_game_asks_first_since_a_false_claim_loses_it(browser: Any, tmp_path: Path) -> None:
    # (One click on "Claim the game" at 0 points lost the game at once: "seat 1 wins (false claim)".)
    with serving(tmp_path / "records") as s:
        table, page = _claim_button_clicked(browser, s)
        confirm = page.locator("#claim-confirm")
        confirm.wait_for(state="visible")
        assert "a false claim loses it" in confirm.inner_text() and "21 points" in confirm.inner_text()
        page.click("#claim-no")
        confirm.wait_for(state="hidden")
        t = s.store.get(table["id"])
        assert not t.session.game.over and page.locator("#game-over").is_hidden()
        page.click("#claim")
        page.click("#claim-yes")
        page.wait_for_selector("#game-over:not([hidden])")
        assert "false claim" in page.locator("#game-over").inner_text()
        assert t.session.game.over and page.script_errors == []


def test_cards_chosen_that_need_another_hand_card_say_so(browser: Any, tmp_path: Path) -> None:
    # (Hungarian: 7♥ chosen, then the lit 6♣ and 10♣, for 7♥+9♠; the page said "Now click what to take or build
    # on (lit up)" with nothing left lit on the table.)
    with serving(tmp_path / "records") as s:
        table, t, game = seat_at(s, "hungarian", {0: "7H 9S", 1: "2D 3D"}, "6C 9D 10C")
        page = new_page(browser, 1000, 900)
        page.goto(s.url + table["links"]["seats"]["0"])
        page.wait_for_selector("body.my-turn")
        page.click("#hand .card[data-id='7H']")
        for card in ("6C", "10C"):
            page.click(f"#felt .card.playable[data-id='{card}']")
        prompt = page.locator("#choices .prompt")
        assert "another card of your hand" in prompt.inner_text()
        assert page.locator("#felt .playable").count() == 0 and page.locator("#hand .card.playable[data-id='9S']").count()
        page.click("#hand .card[data-id='9S']")
        offered = page.locator("#choices button.choice")
        assert [offered.nth(k).get_attribute("data-move") for k in range(offered.count())] == ["7H+9S capture 6C 10C"]
        assert page.script_errors == []


def test_a_whole_typed_turn_refused_for_a_card_not_held_says_your_hand(tmp_path: Path) -> None:
    # (One move read "KH is not in your hand"; a whole turn joined by `;` read "2S is not in the hand of seat 0".)
    with serving(tmp_path / "records") as s:
        table, t, game = seat_at(s, "swazi-casino", {0: "AH 9D", 1: "2D 3D"}, "4C 5H 7S")
        with s.seat(table, 0) as me:
            me.until(lambda m: m["type"] == "state" and m["turn"] == 0)
            for text in ("2S trail; AH trail", "2S trail"):
                me.send({"type": "move", "text": text})
                refused = me.until(lambda m: m["type"] in ("refused", "error"))
                assert "2S is not in your hand" in refused["message"] and "seat 0" not in refused["message"], refused


def test_a_player_can_give_a_friend_the_link_to_watch(browser: Any, tmp_path: Path) -> None:
    # (A table with a seat of one's own showed seat links only: the watch link was nowhere on either page.)
    with serving(tmp_path / "records") as s:
        page = new_page(browser, 1000, 900)
        open_table(page, s.url, {0: "you", 1: "greedy"})
        page.wait_for_selector("#hand .card")
        table = next(iter(s.store.tables.values()))
        watch = page.locator("#invite input[aria-label='link to watch the table']")
        watch.wait_for(state="visible")
        assert watch.input_value() == s.url + table.links()["watch"]
        assert page.locator("#invite-seats").is_hidden()          # no seat for a friend at this table
        watcher = new_page(browser, 1000, 900)
        watcher.goto(watch.input_value())
        watcher.wait_for_selector("body[data-seat='watch'][data-position]")    # (a position drawn)
        hand = table.session.game.hand
        if hand.table or hand.builds:   # (a first play can sweep the table: a CI run met an empty felt here)
            watcher.wait_for_selector("#felt .card")
        assert watcher.locator("#hand .card").count() == 0 and watcher.locator("#act").is_hidden()

        page.goto(s.url + "/")
        page.wait_for_selector("#seats .seat-row[data-seat='1']")
        page.select_option("#seats .seat-row[data-seat='1'] select.kind", "human")
        page.click("#start")
        seat_link = page.locator("#created input[data-seat='1']")
        seat_link.wait_for()
        watch_link = page.locator("#created input[data-watch]")
        assert "#" in watch_link.input_value() and watch_link.input_value() != seat_link.input_value()
        assert page.script_errors == [] and watcher.script_errors == []


def test_a_rule_file_given_as_a_saved_game_is_sent_to_the_lobbys_rule_file_not_the_terminal(tmp_path: Path) -> None:
    # (The lobby answered a rule file chosen under "Continue a saved game" with "use `cassino play kitchen.yaml`".)
    with serving(tmp_path / "records") as s:
        status, answer = s.post("/api/records", {"text": "name: kitchen\ndescription: ours\nextends: standard\n",
                                                 "filename": "kitchen.yaml"})
    assert status == 400 and answer["message"] == ("kitchen.yaml is not a game record: it looks like a rule file; open "
                                                   'it under "A new table" as "Your own rule file (YAML)" to start a '
                                                   "game with it"), answer


def test_the_game_over_panel_shows_the_replay_command_as_code_and_a_linkless_page_says_no_seat(
        browser: Any, tmp_path: Path) -> None:
    # (The panel read "Replay it with `cassino replay FILE`." with its backticks; a table's address without its
    # token kept the title "Connecting…" beside "This page needs a seat's link".)
    with serving(tmp_path / "records") as s:
        table, page = _claim_button_clicked(browser, s)
        page.click("#claim-yes")              # a false claim: the game is over at once
        over = page.locator("#game-over")
        over.wait_for(state="visible")
        assert over.locator("code").inner_text() == "cassino replay FILE" and "`" not in over.inner_text()
        page.goto(s.url + "/table/" + table["id"])
        page.wait_for_selector("#status.error")
        assert page.locator("#title").inner_text() == "No seat"
        assert page.script_errors == []


def test_a_partnership_table_marks_your_partner(browser: Any, tmp_path: Path) -> None:
    # (Four players in two partnerships: only the scores' "seats 0+2" said who played with whom.)
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy", "greedy", "greedy"], partners=True)
        page = new_page(browser, 1000, 900)
        page.goto(s.url + table["links"]["seats"]["0"])
        page.wait_for_selector("#seats .seat[data-seat='3']")
        tagged = [k for k in range(4) if page.locator(f"#seats .seat[data-seat='{k}'] .tag.partner").count()]
        assert tagged == [2]
        assert page.locator("#seats .seat[data-seat='2'] .tag.partner").inner_text() == "your partner"
        assert page.script_errors == []


def test_a_max_tables_below_the_per_computer_default_given_alone_is_taken(tmp_path: Path) -> None:
    # (`cassino serve --max-tables 5` was refused: "--tables-per-client must be 1 to --max-tables (5), not 20", a
    # default the player never gave.)
    with serve_process(tmp_path / "records", "--max-tables", "5") as p:
        assert "limits: 5 tables in play, 5 per computer" in p.said("limits:")
        _, code, err = p.stop()
    assert code == 0 and "Traceback" not in err


def test_how_to_play_says_how_a_turn_of_several_actions_is_ended_and_typed_whole(browser: Any, tmp_path: Path) -> None:
    # (Swazi Casino: the page's "How to play" named no `end` and no turn typed whole with `;`, which the terminal's
    # `help` says and browser.md promises; standard has no such turn and says nothing of it.)
    with serving(tmp_path / "records") as s:
        swazi = s.new_table(["human", "greedy"], variant="swazi-casino")
        plain = s.new_table(["human", "greedy"])
        page = new_page(browser, 1000, 900)
        page.goto(s.url + swazi["links"]["seats"]["0"])
        page.wait_for_selector("#hand .card")
        page.click("#how-button")
        turns = page.locator("#turns")
        assert turns.is_visible() and "`" not in turns.inner_text()
        assert [c.inner_text() for c in turns.locator("code").all()] == [
            "build 10 on 5S 3D 2C", "end", ";", "build 10 on 5S 3D 2C; 9D capture 9C"]
        page.goto(s.url + plain["links"]["seats"]["0"])
        page.wait_for_selector("#hand .card")
        page.click("#how-button")
        assert page.locator("#turns").is_hidden() and page.script_errors == []


def test_a_move_clicked_while_the_connection_is_down_is_said_unsent_and_can_be_played_once_it_is_back(
        browser: Any, tmp_path: Path) -> None:
    # (Clicked while the connection was down, a move was silently dropped; after the reconnect the same click was
    # taken for a double click and never sent, and a typed move vanished from the field unsent.)
    with serving(tmp_path / "records") as s:
        table, t, game = seat_at(s, "standard", {0: "9D 4C", 1: "2S 3H"}, "4H 5S 7D")
        page = new_page(browser, 1000, 900)
        down = {"now": False}
        sockets: list[Any] = []

        def route(ws: Any) -> None:
            if down["now"]:
                ws.close()
            else:
                sockets.append(ws)
                ws.connect_to_server()

        page.route_web_socket("**/ws/**", route)
        page.goto(s.url + table["links"]["seats"]["0"])
        page.wait_for_selector("body.my-turn")
        down["now"] = True
        sockets[-1].close()
        page.wait_for_selector("#status.warn")                       # "Connection lost: reconnecting…"
        move = "9D capture 4H 5S"
        page.click("#all-moves summary")
        page.click(f"#all-moves button.choice[data-move='{move}']")
        assert "nothing was sent" in page.locator("#message").inner_text()
        page.fill("#notation", move)
        page.press("#notation", "Enter")
        assert page.input_value("#notation") == move and "nothing was sent" in page.locator("#message").inner_text()
        assert t.session.game.hand.ply == 0
        down["now"] = False
        page.wait_for_selector("#status:not(.warn)")                 # back: the same move, clicked again, is played
        page.click(f"#all-moves button.choice[data-move='{move}']")
        page.wait_for_selector('body:not([data-position="1:0"])')
        assert move in page.locator("#log").inner_text() and t.session.game.hand.ply == 1
        assert page.script_errors == []

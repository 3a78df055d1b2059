"""What a player of the browser table found, each pinned by a real server (and, where the page is what was
wrong, Debian's chromium driven by Playwright, as in test_web_browser)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extra")

from test_web_browser import CHROMIUM_ARGS, chromium_binary, new_page  # noqa: E402
from web_helpers import serving  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    binary = chromium_binary()
    if binary is None:
        pytest.skip("no chromium binary: install Debian's chromium (apt-get install chromium), as .ci/run does")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=binary, args=CHROMIUM_ARGS)
        yield b
        b.close()


def test_claiming_the_game_asks_first_since_a_false_claim_loses_it(browser: Any, tmp_path: Path) -> None:
    # (One click on "Claim the game" at 0 points lost the game at once: "seat 1 wins (false claim)".)
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"], variant="hoyle-claiming", kind="example")
        page = new_page(browser, 1000, 900)
        page.goto(s.url + table["links"]["seats"]["0"])
        page.wait_for_selector("#claim:not([hidden])", state="visible")
        page.click("#claim")
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

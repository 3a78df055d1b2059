"""Take docs/table.png: the browser table mid-hand, a card chosen and what it can take lit up.

Runs a real server on loopback (the tests' helper), plays a seeded game against
`greedy` until a build lies on the table at the player's turn, then shows the
page in Debian's headless Chromium through Playwright and saves the screenshot.

    python docs/screenshot.py [--out docs/table.png] [--width 900] [--variant krypkasino]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

from test_web_browser import CHROMIUM_ARGS, chromium_binary  # noqa: E402
from web_helpers import serving  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "table.png"))
    parser.add_argument("--width", type=int, default=900)
    parser.add_argument("--variant", default="standard", help="a bundled variant (krypkasino: two packs)")
    args = parser.parse_args()
    binary = chromium_binary()
    if binary is None:
        sys.exit("no chromium binary: apt-get install chromium")
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder) / "records") as s:
        table = s.new_table(["human", "greedy"], variant=args.variant)
        t = s.store.get(table["id"])
        with s.seat(table, 0) as me:
            # Prefer builds, then captures: a lively table to look at. Without building (krypkasino),
            # trail to fill the table, until two equal cards lie on it (two packs: ids 5H and 5H~2).
            building = t.session.game.rules.build.allowed
            rank = ({"build": 0, "capture": 1, "trail_build": 2, "trail": 3} if building
                    else {"trail": 0, "capture": 1, "build": 2, "trail_build": 3})
            while True:
                state = me.my_turn()
                if state["over"]:
                    sys.exit("the game ended before a position worth showing")
                twins = any("~" in c for c in state["loose"])
                if (state["builds"] or (not building and (twins or state["ply"] >= 30))) \
                        and len(state["loose"]) >= 2 and state["ply"] >= 5:
                    break
                me.move(min(state["moves"], key=lambda m: rank[m["kind"]])["text"])
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=binary, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": args.width, "height": 900}, device_scale_factor=1)
            page.goto(s.url + table["links"]["seats"]["0"])
            page.wait_for_selector("body.my-turn")
            capture = next((m for m in t.view(0)["moves"] if m["kind"] == "capture"), t.view(0)["moves"][0])
            page.click(f'#hand [data-id="{capture["played"][0]}"]')
            if capture["items"]:
                page.click(f'#felt [data-id="{capture["items"][0]}"]')
            page.screenshot(path=args.out, full_page=True)
            browser.close()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

"""A player's page speaks of the game (issue 50): no rulebook of a shipped file, no `cassino explain`
and no player page names the project's tracker ("issue 36"), the program's insides ("the engine",
"apps/", "SearchBot(", "to_json") or its unfinished work ("not played yet")."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cassino.apps.authors.rulebooks import full_rulebook
from cassino.apps.cli import main
from cassino.language.catalogue import bundled_names, example_names
from cassino.language.render import render

ROOT = Path(__file__).resolve().parents[1]
TALK = re.compile(r"issue \d|the engine|not played yet|apps/|SearchBot\(|to_json", re.I)
SHIPPED = bundled_names() + example_names()
PLAYER_PAGES = ["playing.md", "index.md", "house-rules.md", "browser.md", "casino-in-five-minutes.md"]


def _talk(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if TALK.search(line)]


@pytest.mark.parametrize("name", SHIPPED)
def test_rulebooks_and_explain_speak_of_the_game(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert not _talk(render(full_rulebook(name), "text"))
    assert main(["explain", name]) == 0
    assert not _talk(capsys.readouterr().out)


@pytest.mark.parametrize("page", PLAYER_PAGES)
def test_player_pages_speak_of_the_game(page: str) -> None:
    assert not _talk((ROOT / "docs" / page).read_text(encoding="utf-8"))


def test_variant_pages_rulebooks_speak_of_the_game() -> None:
    """Each variant's page, as the site builds it: its rulebook (the rule file below it is the
    author's, with the comments that cite the sources)."""
    sys.path.insert(0, str(ROOT / "docs" / "gen"))
    try:
        import hooks
    finally:
        sys.path.pop(0)
    pages = {"index": hooks.variants_index()} | {n: hooks.variant_page(n) for n in bundled_names()}
    for name, page in pages.items():
        book = page.split("## The rule file")[0]
        assert not _talk(book), name


def test_the_check_would_see_it() -> None:
    assert _talk("the build is yours; the engine makes you its owner")
    assert _talk("as reported in issue 36") and _talk("it is not played yet") and _talk("`SearchBot(x)`")

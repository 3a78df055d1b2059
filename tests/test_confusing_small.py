"""Issue 50's smaller confusions, each as a reader meets it."""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import pytest

from cassino.apps.authors.rulebooks import full_rulebook
from cassino.apps.cli import main
from cassino.engine.core import Engine, Position
from cassino.engine.notation import format_move
from cassino.language.reference import reference_markdown
from cassino.language.render import render
from cassino.language.variants import load

ROOT = Path(__file__).resolve().parents[1]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _explain(name: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["explain", name]) == 0
    return capsys.readouterr().out


def test_explain_names_the_parents_as_the_file_does(capsys: pytest.CaptureFixture[str]) -> None:
    out = _explain("hoyle-eleven-up", capsys)          # its file says `extends: hoyle`
    assert "extends: hoyle -> standard\n" in out and "hoyle.yaml ->" not in out


def test_explain_names_count_out_items_as_the_rulebook_does(capsys: pytest.CaptureFixture[str]) -> None:
    out = _explain("standard", capsys)
    assert "count_out = cards, spades, big casino, little casino, aces, sweeps" in out
    assert "big casino" in _flat(render(full_rulebook("standard"), "text")).lower()


def test_the_lurch_is_said_in_words() -> None:
    page = _flat(reference_markdown())
    assert "reaches `below` counts as this many games" not in page
    assert "a win while the loser's score is still under `below` counts as `multiplier` games" in page


@pytest.mark.parametrize("variant", ["standard", "hoyle", "south-african-casino"])
def test_the_first_dealer_is_a_reading_true_of_every_text(variant: str) -> None:
    """Who deals first is a reading; it does not claim that no text says (the 1897 Hoyle has the lowest cut
    deal, the Khasino rules the highest card drawn: both by lot), a rulebook audit found."""
    text = _flat(render(full_rulebook(variant, with_worked_examples=False), "text"))
    assert "chosen by lot, and" not in text and "do not say who deals first" not in text
    assert "Reading: who deals first changes nothing in how a hand is played; the players choose, by lot" in text


def test_krypkasino_says_what_minus_five_does() -> None:
    text = _flat(render(full_rulebook("krypkasino", with_worked_examples=False), "text"))
    assert "scores -5 points for it (5 points taken off their total: since points are penalties, a reward)" in text


def test_the_scenario_page_shows_a_trail_build_the_engine_allows() -> None:
    page = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    row = re.search(r"\| `(7C trail build 9 on 4S 5H)` \|", page)
    assert row is not None
    engine = Engine(load(str(ROOT / "examples" / "trail-and-build.yaml")).rules)
    card = engine.deck.parse
    state = engine.position(Position(players=2, to_play=0, hands={0: [card("7C"), card("9D")], 1: [card("2C")]},
                                     table=[card("4S"), card("5H")]))
    assert row.group(1) in {format_move(m, engine.deck) for m in engine.legal_moves(state)}


def test_the_api_page_shows_no_rest_roles() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "gen"))
    try:
        import hooks
    finally:
        sys.path.pop(0)
    roles = re.compile(r":(?:meth|func|class|attr):`")
    assert any(roles.search(inspect.getdoc(obj) or "") for obj in _documented(hooks.api_names())), \
        "no docstring with a role: the check would see nothing"
    page = hooks.api_markdown()
    assert not roles.search(page)


def _documented(names: dict[str, object]) -> list[object]:
    out: list[object] = []
    for obj in names.values():
        out.append(obj)
        if inspect.isclass(obj):
            out += [m for k, m in vars(obj).items() if not k.startswith("_")]
    return out

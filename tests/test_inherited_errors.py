"""A problem found in a shipped file's setting, caused by what a house rule changed, points at the house rule's
own line, not into the installed `standard.yaml` (issue 48): the author can only edit their own file."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from cassino.apps.cli import main
from cassino.errors import RuleFileError
from cassino.language.variants import load

RANKS = "\n".join(f"    - {{rank: {r!r}, value: {v}}}" for r, v in
                  [("A", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8), ("9", 9),
                   ("J", 11), ("Q", 12), ("K", 13)])
NO_TENS = f"name: no-tens\nextends: standard\ndescription: a deck without tens\ndeck:\n  ranks:\n{RANKS}\n"
NO_TABLE = "name: order\nextends: standard\ndeal:\n  table_cards: 0\n  table_order: first\n"


def problems(tmp_path: Path, text: str, name: str = "house.yaml") -> list:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(RuleFileError) as e:
        load(str(path))
    return e.value.diagnostics


def test_a_deck_without_tens_points_at_the_deck_it_changed(tmp_path: Path) -> None:
    found = problems(tmp_path, NO_TENS)
    assert found and all(d.file == str(tmp_path / "house.yaml") for d in found)
    assert {d.line for d in found} == {4}                      # `deck:`, the one section it changes
    selector = next(d for d in found if "10D" in d.message)
    assert "inherited from standard" in selector.message and "scoring.items.big_casino.cards" in selector.message
    assert "deck:" in (selector.source_line or "")


def test_a_deal_change_points_at_the_deal_setting_nearest_the_problem(tmp_path: Path) -> None:
    found = problems(tmp_path, NO_TABLE)
    assert found and all(d.file == str(tmp_path / "house.yaml") for d in found)
    assert all(d.line == 4 for d in found), [d.format() for d in found]   # `table_cards:`, sharing `deal.`
    assert all("standard.yaml" not in d.format() for d in found)


def test_json_output_names_the_authors_file(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(NO_TENS)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["validate", str(tmp_path / "house.yaml"), "--format", "json"])
    assert code == 2
    errors = json.loads(out.getvalue())["errors"]
    assert errors and {e["file"] for e in errors} == {str(tmp_path / "house.yaml")}
    assert {e["line"] for e in errors} == {4}


def test_a_problem_in_the_authors_own_parent_stays_there(tmp_path: Path) -> None:
    """A parent the author wrote may be where the mistake is: it is pointed at, not the child."""
    (tmp_path / "base.yaml").write_text(NO_TENS)
    found = problems(tmp_path, "name: child\nextends: base.yaml\ngame: {target: 11}\n", "child.yaml")
    assert found and all(d.file.endswith("base.yaml") for d in found)


def test_a_parent_valid_on_its_own_that_the_child_breaks_points_at_the_child(tmp_path: Path) -> None:
    """A validation audit: a house rule's parent in its own folder, valid on its own, scored the hearts; the child
    changed the deck's suits, and the error was put in the parent (which `validate` passes) and the child never
    named, in every format: a CI annotation on a file the change did not touch. The parent is now taken as valid
    as written, as a shipped file is, and the child is pointed at."""
    (tmp_path / "base.yaml").write_text("name: base\nextends: standard\nscoring:\n  items:\n"
                                        "    hearts: {count: most, cards: \"suit=H\", points: 1}\n")
    assert load(str(tmp_path / "base.yaml")).rules.name == "base"
    suits = "".join(f"    - {{letter: {x}, name: {n}, symbol: {x}, colour: red}}\n"
                    for x, n in (("S", "spades"), ("X", "xs"), ("D", "diamonds"), ("C", "clubs")))
    found = problems(tmp_path, f"name: child\nextends: base.yaml\ndeck:\n  suits:\n{suits}", "child.yaml")
    assert found and all(d.file == str(tmp_path / "child.yaml") for d in found), [d.format() for d in found]
    hearts = next(d for d in found if "suit=H" in d.message)
    assert "inherited from" in hearts.message and "base.yaml, line 5" in hearts.message, hearts.message
    # A chain of two of the author's files, each valid on its own, broken by the child's deal: the child is pointed at.
    (tmp_path / "mid.yaml").write_text("name: mid\nextends: base.yaml\ngame: {target: 11}\n")
    assert load(str(tmp_path / "mid.yaml")).rules.name == "mid"
    found = problems(tmp_path, "name: kid\nextends: mid.yaml\ndeal: {table_cards: 2}\n", "kid.yaml")
    assert found and all(d.file == str(tmp_path / "kid.yaml") for d in found), [d.format() for d in found]


def test_several_sections_changed_point_at_the_extends_line(tmp_path: Path) -> None:
    found = problems(tmp_path, NO_TENS.replace("description: a deck without tens\n", "game: {target: 11}\n"))
    selector = next(d for d in found if "10D" in d.message)
    assert selector.line in (2, 4)   # `deck:` or `extends:`, never a line of standard.yaml
    assert selector.file.endswith("house.yaml")


def test_a_bundled_variant_on_its_own_is_valid() -> None:
    assert load("standard").rules.name == "standard"

"""The rule language reference as a rule author uses it (issue 50): a snippet pasted into a house
rule works (a list replaces the parent's, so a list snippet is a whole list), a value cut for
length is cut at a word's end, and the page speaks of rules, not of the project's tracker."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from cassino.language.reference import ITEM, bundled_data, reference_markdown, settings
from cassino.language.variants import load

PAGE = reference_markdown()
LIST_SETTINGS = [s for s in settings() if ITEM in s.path]


def _snippet(dotted: str) -> str:
    start = PAGE.index(f"`{dotted}` {{#")
    block = re.compile(r"```yaml\n(.*?)```", re.S).search(PAGE, start)
    assert block is not None
    following = PAGE.find("\n#", start + 5)
    assert following == -1 or block.start() < following, f"{dotted}: no snippet"
    return block.group(1)


def _at(data: Any, parts: list[str]) -> Any:
    for part in parts:
        if part == "NAME":
            assert isinstance(data, dict) and len(data) == 1
            part = next(iter(data))
        data = data[part]
    return data


@pytest.mark.parametrize("dotted", [s.dotted for s in LIST_SETTINGS])
def test_a_list_snippet_is_a_whole_list_that_loads(dotted: str, tmp_path: Path) -> None:
    text = _snippet(dotted)
    assert "# ..." not in text
    doc = yaml.safe_load(text)
    owner = dotted.split("[]")[0].split(".")
    shown = _at(doc, owner)
    assert isinstance(shown, list) and shown
    named = [n for n in owner if n == "NAME"]
    parents = [name for name, data in bundled_data().items()
               if shown in _lists(data, owner, doc if named else None)]
    assert parents, f"{dotted}: the snippet's list is no bundled variant's whole list"
    house = tmp_path / "house.yaml"
    house.write_text(f"name: house\ndescription: pasted\nextends: {parents[0]}\n" + text, encoding="utf-8")
    rules = load(str(house)).rules                       # loads: every entry is whole
    assert _at(dict(rules.data), [p if p != "NAME" else _name(doc, owner) for p in owner]) is not None


def _name(doc: Any, owner: list[str]) -> str:
    k = owner.index("NAME")
    return next(iter(_at(doc, owner[:k])))


def _lists(data: dict[str, Any], owner: list[str], doc: Any) -> list[Any]:
    try:
        parts = [p if p != "NAME" else _name(doc, owner) for p in owner]
        return [_at(data, parts)]
    except (KeyError, TypeError, AssertionError):
        return []


def test_before_the_fix_a_list_entry_snippet_was_one_entry() -> None:
    """deck.ranks[].rank showed `- rank: A`: pasted, a deck of one rank without a name or value."""
    doc = yaml.safe_load(_snippet("deck.ranks[].rank"))
    assert len(doc["deck"]["ranks"]) == 13
    assert all({"rank", "name", "value"} <= set(e) for e in doc["deck"]["ranks"])


def test_cut_values_end_at_a_word() -> None:
    cut = re.findall(r"`([^`\n]*…)`", PAGE)
    assert cut, "no long value to check"
    for value in cut:
        if value == "…":
            continue
        assert value.endswith(" …"), f"cut mid-word: {value!r}"


def test_the_reference_names_no_tracker_issue() -> None:
    assert not re.search(r"issue \d", PAGE)

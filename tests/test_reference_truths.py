"""Issue 50: a reference and rulebooks people can trust.

Each test here failed before its fix: a reading a rulebook left out, a default the language
reference gave to a required setting, a hint that left out count kinds, a false deal sentence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cassino.language import reference
from cassino.language.schema import load_schema
from cassino.language.variants import load_rules

from conftest import EXAMPLES, VARIANTS, validate_refuses

ALL_FILES = [f"variants/{v}.yaml" for v in VARIANTS] + [f"examples/{p.name}" for p in EXAMPLES]


def _flat(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------------- 1. every reading in its rulebook


@pytest.mark.parametrize("path", ALL_FILES)
def test_every_reading_that_applies_is_in_the_rulebook(cli, path: str) -> None:  # type: ignore[no-untyped-def]
    """A file's reading is said wherever its setting applies: Krypkasino's capture.take_all (a capture
    may take part of what the card could take) was left out because `false` has no sentence."""
    rules = load_rules(path)
    code, out, err = cli("rules", path)
    assert code == 0, err
    book = _flat(out)
    for reading in rules.readings:
        current = rules.data
        for part in reading.setting.split("."):
            current = current.get(part) if isinstance(current, dict) else None
        said = "Reading: " + _flat(reading.text)
        if current == reading.value:
            assert said in book, f"{path}: the reading of {reading.setting} is missing: {reading.text[:60]}"


def test_the_take_all_reading_stands_with_the_capture_rules(cli) -> None:  # type: ignore[no-untyped-def]
    for name, count in (("krypkasino", 6), ("kasino-misar", 5)):
        code, out, _ = cli("rules", name, "--no-examples")
        assert code == 0
        book = _flat(out)
        assert book.count("Reading: ") == count, name
        capturing = book[book.index("Capturing"):book.index("Capturing") + 2000]
        assert "Reading: A capture may take part of what the card could take" in capturing, name


# ---------------------------------------------------------------------- 2. required settings have no default


def _schema_required() -> list[str]:
    """Every setting the schema marks required in its object's ``required`` array, found by a walk of
    the schema's own (not the reference's), as the reference names them (``deck.ranks[].rank``)."""
    out: list[str] = []

    def walk(node: Any, path: str) -> None:
        if not isinstance(node, dict):
            return
        for key in node.get("required", []):
            if key in node.get("properties", {}):
                out.append(f"{path}.{key}".lstrip("."))
        for key, child in node.get("properties", {}).items():
            walk(child, f"{path}.{key}".lstrip("."))
        if node.get("type") == "array" and isinstance(node.get("items"), dict):
            walk(node["items"], path + "[]")
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], path + ".NAME")

    walk(load_schema(), "")
    return out


def _entry(page: str, dotted: str) -> str:
    return page.split(f"`{dotted}` {{#", 1)[1].split("\n#", 1)[0]


@pytest.fixture(scope="module")
def reference_page() -> str:
    return reference.reference_markdown()


def test_the_reference_gives_no_default_to_a_required_setting(reference_page: str) -> None:
    required = _schema_required()
    # The ones the issue found, and the scoring item's count, which a check outside the schema requires.
    for dotted in ("deck.ranks[].rank", "deck.ranks[].value", "deck.suits[].letter", "deck.card_values[].card",
                   "deal.by_players[].players", "endgame.restrictions[].score"):
        assert dotted in required, dotted
    for dotted in required + ["scoring.items.NAME.count"]:
        entry = _entry(reference_page, dotted)
        assert "**Default**" not in entry, dotted
        assert "- **Required**: yes" in entry, dotted


@pytest.mark.parametrize("body, parent, words", [
    ("deck:\n  ranks:\n    - {name: ace, value: 1}\n", "standard", "rank"),
    ("deck:\n  ranks:\n    - {rank: A, name: ace}\n", "standard", "value"),
    ("deck:\n  suits:\n    - {name: spades}\n", "standard", "letter"),
    ("deck:\n  card_values:\n    - {hand: 14}\n", "krypkasino", "card"),
    ("deal:\n  by_players:\n    - {hand_size: 13}\n", "south-african-casino", "players"),
    ("endgame:\n  restrictions:\n    - {only: [cards]}\n", "dominican", "score"),
    ("scoring:\n  items:\n    hearts: {cards: suit=H, points: 1}\n", "standard", "does not say what it counts"),
])
def test_each_setting_the_reference_calls_required_is(cli, tmp_path: Path, body: str, parent: str,  # type: ignore[no-untyped-def]
                                                      words: str) -> None:
    validate_refuses(cli, tmp_path, body, parent, words)


def test_the_count_hint_lists_every_kind_the_schema_allows(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kinds = (load_schema()["properties"]["scoring"]["properties"]["items"]["additionalProperties"]
             ["properties"]["count"]["enum"])
    assert {"at_least", "primiera"} <= set(kinds)
    for body in ("scoring:\n  items:\n    hearts: {cards: suit=H, points: 1}\n",      # a new item
                 "scoring:\n  items:\n    spadez: {points: 2}\n"):                     # a misspelt one
        out = validate_refuses(cli, tmp_path, body, "standard", "add `count:`" if "hearts" in body else "did you mean")
        hint = out[out.index("`count:`"):]
        for kind in kinds:
            assert kind in hint.split("\n")[0], (kind, hint)

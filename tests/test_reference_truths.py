"""Issue 50: a reference and rulebooks people can trust.

Each test here failed before its fix: a reading a rulebook left out, a default the language
reference gave to a required setting, a hint that left out count kinds, a false deal sentence.
"""

from __future__ import annotations

import pytest

from cassino.language.variants import load_rules

from conftest import EXAMPLES, VARIANTS

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

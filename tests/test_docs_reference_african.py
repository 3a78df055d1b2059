"""The rule language reference (docs/gen builds it from the schema and language/semantics.py) says
African Casino's building settings (issue 36), with the check `validate` makes of them."""

from __future__ import annotations

from cassino.language.reference import reference_markdown, semantic_checks


def test_the_checks_are_read_at_each_setting_they_may_be_reported_at() -> None:
    """`validate` tells a pile_cards without piles in play at whichever of the two settings the file
    sets (a loop over both): the reference lists the check under both, in its own words, and no
    check at `name` (a location asked for its file only)."""
    checks = semantic_checks()
    piles = [c for c in checks if c.message.startswith("capture.pile_cards is")]
    assert {c.path for c in piles} == {("capture", "pile_cards"), ("capture", "from_piles")}
    assert all("no capture pile is in play" in c.message and c.hint.startswith("set capture.pile_cards: taken")
               for c in piles)
    assert not [c for c in checks if c.path == ("name",)]


def test_each_new_setting_has_its_section_with_the_variants_that_set_it() -> None:
    text = reference_markdown()
    for anchor in ("capture-pile-cards", "build-raise-partners", "build-augment-opponents", "build-one-per-value",
                   "build-one-per-player"):
        assert "{#" + anchor + "}" in text, anchor
    section = text[text.index("{#capture-pile-cards}"):]
    section = section[:section.index("\n### ")]
    assert "`augment`" in section and "swazi-casino" in section and "south-african-casino" in section
    assert "no capture pile is in play" in section

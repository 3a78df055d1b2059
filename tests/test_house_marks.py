"""A house rule's rulebook marks the rules whose settings differ from its parent's, not every
sentence whose words moved (issue 50): a house rule of standard changing two settings said
"7 rules differ", marked a sweep defined in other words as CHANGED, and as NEW three sweep
rules standard plays too (its rulebook leaves them unsaid while sweeps score nothing)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cassino.apps.authors.rulebooks import full_rulebook, parent_ref
from cassino.apps.cli import main
from cassino.language.compare import differences
from cassino.language.render import render
from cassino.language.rulebook import rulebook
from cassino.language.variants import load

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))

TWO_SETTINGS = ("name: two-settings\ndescription: Standard with sweeps worth a point, to 11\nextends: standard\n"
                "scoring:\n  items:\n    sweeps: {points: 1}\ngame: {target: 11}\n")


def test_two_settings_mark_two_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "two.yaml"
    house.write_text(TWO_SETTINGS, encoding="utf-8")
    assert main(["rules", str(house)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "A house rule of standard: 2 rules differ from standard's rulebook" in text
    assert text.count("CHANGED:") == 1 and text.count("NEW:") == 1 and "REMOVED" not in text
    assert "CHANGED: A side with 11 points or more once a hand's points are added wins the game." in text
    assert "NEW: Sweeps: 1 point for each sweep." in text
    # Standard plays these too; its rulebook only does not say them while sweeps score nothing.
    for rule in ("Sweeps never cancel each other.", "A sweep made with the last card of the hand counts.",
                 "Taking the cards left at the end of the hand is not a sweep."):
        assert rule in text and f"NEW: {rule}" not in text
    # The sweep is the same sweep, said in other words; the tie rule words the new target but is not changed.
    assert "CHANGED: A capture that leaves the table" not in text
    assert "If several sides reach 11 or more in the same hand" in text and "CHANGED: If several" not in text


def _expected(target: str) -> set[str]:
    """The clauses that word a setting the house rule sets differently, where their words differ."""
    loaded = load(target)
    ref = parent_ref(target, loaded)
    assert ref is not None
    parent = load(ref).rules
    new, old = rulebook(loaded.rules).clauses(), rulebook(parent).clauses()
    out = set()
    for d in differences(parent, loaded.rules):
        key = next((k for k in (d.key, *(k for k in list(new) + list(old) if k.startswith(d.key + ".")))
                    if k in new or k in old), None)
        if key is None or ".reading" in key:
            continue
        before = old.get(key)
        if before is None:
            said = [c.text for k, c in old.items() if k.startswith(key + ".reading")]
            before_text = " ".join(said) if said else None
        else:
            before_text = before.text
        after = new.get(key)
        if after is None or before_text is None or after.text != before_text:
            out.add(key)
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_marked_rules_are_the_rules_whose_settings_differ(name: str) -> None:
    target = str(ROOT / "examples" / name)
    book = full_rulebook(target, with_worked_examples=False)
    marked = {c.key for s in book.sections for c in s.clauses if c.status and ".reading" not in c.key}
    assert marked == _expected(target)
    assert marked, "a house rule that marks nothing"
    note = next(n for n in book.notes if n.startswith("A house rule of "))
    count = int(re.search(r"(\d+) rules? differs?", note).group(1))   # type: ignore[union-attr]
    assert count == len(marked)
    assert "It changes" not in note


def test_a_reading_the_house_rule_replaces_is_the_changed_rules_old_wording() -> None:
    """Krypkasino says its capture rule only as a reading; the house rule that makes capture take
    all replaces it: one rule CHANGED, the reading shown as what Krypkasino plays, nothing REMOVED."""
    text = " ".join(render(full_rulebook(str(ROOT / "examples/krypkasino-take-all.yaml")), "text").split())
    assert "1 rule differs" in text and "REMOVED" not in text
    assert "CHANGED: When you capture, you must take everything" in text
    assert "(krypkasino instead: Reading: A capture may take part of what the card could take" in text


def test_a_reading_lost_with_its_rules_setting_is_shown_gone_but_not_counted(tmp_path: Path) -> None:
    house = tmp_path / "short.yaml"
    house.write_text("name: short\ndescription: a shorter game\nextends: krypkasino\ngame: {target: 30}\n")
    text = " ".join(render(full_rulebook(str(house), with_worked_examples=False), "text").split())
    assert "1 rule differs" in text and text.count("CHANGED:") == 1
    assert "REMOVED from krypkasino: Reading: The game ends once a hand ends with someone at 42" in text

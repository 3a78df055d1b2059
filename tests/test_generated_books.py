"""House rules drawn at random (``cassino.apps.authors.generated``, what ``benchmarks/soak.py --generated``
plays): the consumers that read a whole rule file rather than a position hold on them too.

- the rulebook (``cassino rules``): every worked example it prints, read back from the text, is what the
  engine does (``test_rulebook.check_printed_examples``);
- ``cassino diff`` against the rule's parent: every position shown for a difference allows the moves said
  to be only one side's there, and not on the other (that it names every setting changed,
  ``test_matrix.test_generated_house_rules`` checks).

Hypothesis draws the seeds (a modest number in CI, many under ``HYPOTHESIS_PROFILE=thorough``). A run of
1,500 drawn rules found the sample hand's "Seat 1 took: 0 cards: " where a seat took nothing.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.apps.authors import generated
from cassino.apps.authors.differences import compare
from cassino.apps.authors.rulebooks import full_rulebook
from cassino.engine.core import Engine
from cassino.language.catalogue import bundled_names
from cassino.language.variants import load_rules

from test_rulebook import check_printed_examples

BASES = bundled_names()


def _drawn(seed: int, folder: Path) -> tuple[Path, dict[str, Any]]:
    return generated.valid(random.Random(seed), BASES, folder, seed)


@settings(deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_a_drawn_house_rules_printed_examples_are_what_the_engine_does(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path, _ = _drawn(seed, Path(folder))
        assert check_printed_examples(str(path)) > 0


@settings(deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_the_positions_diff_shows_against_the_parent_are_true(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path, data = _drawn(seed, Path(folder))
        house, parent = load_rules(str(path)), load_rules(data["extends"])
    report = compare(parent, house, seed=seed % 1000 + 1, tries=60)
    for key, found in report.found.items():
        if found is None:
            continue
        assert found.only_a or found.only_b, key
        a, b = Engine(parent), Engine(house)
        legal_a = set(a.legal_moves(a.position(found.position)))
        legal_b = set(b.legal_moves(b.position(found.position)))
        assert all(m in legal_a and m not in legal_b for m in found.only_a), key
        assert all(m in legal_b and m not in legal_a for m in found.only_b), key


def test_a_seat_that_took_nothing_is_said_so_in_the_sample_hand(tmp_path: Path) -> None:
    """Hungarian Casino never redealt: the sample hand's greedy seat 1 takes nothing (it read "0 cards: ")."""
    path = tmp_path / "never-redealt.yaml"
    path.write_text("name: never-redealt\nextends: hungarian\ndeal:\n  redeal: never\n", encoding="utf-8")
    assert check_printed_examples(str(path)) > 0
    lines = [line for s in full_rulebook(str(path)).sections for e in s.examples for line in e.lines]
    took = [text for label, text in lines if label.endswith(" took")]
    assert "nothing" in took and not any(t.startswith(("0 cards", "1 cards")) for t in took)

"""`cassino rules`: a variant's whole rulebook, with engine-checked examples.

The words come from ``language/rulebook.py``, the examples from
``worked_examples.py``. A house rule (a file outside the bundled variants that
``extends`` another) gets its parent's rulebook with every sentence that differs marked.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...files import real_path
from ...language.rulebook import Rulebook, mark_changes, mark_examples, rulebook, with_cited_sources, with_examples
from ...language.resolve import names_a_path
from ...language.rules import Rules
from ...language.variants import LoadedVariant, bundled_names, load
from ...paths import VARIANTS_DIR
from .worked_examples import examples


def book_for(rules: Rules, with_worked_examples: bool = True) -> Rulebook:
    """The rulebook of ``rules``, each example placed under the rule it shows."""
    book = rulebook(rules)
    if with_worked_examples:
        keys = book.clauses()
        book = with_examples(book, [e for e in examples(rules) if e.key in keys])
    return book


def parent_ref(target: str, loaded: LoadedVariant) -> str | None:
    """What a house rule extends, as a name or path ``load`` accepts; None for a bundled variant."""
    if target in bundled_names():
        return None
    path = Path(target)
    if real_path(path).parent == real_path(VARIANTS_DIR):
        return None
    ref = loaded.resolved.documents[0].data.get("extends")
    if not isinstance(ref, str) or not ref:
        return None
    if names_a_path(ref):
        # (The parent as it was read and checked, by its real path: not rebuilt from the path named, whose
        # folder may be a link's, `rules/house.yaml -> ../d/house.yaml`.)
        paths = loaded.resolved.paths
        return str(paths[1]) if len(paths) > 1 else None
    return ref


def full_rulebook(target: str, with_worked_examples: bool = True, marked: bool = True,
                  loaded: LoadedVariant | None = None) -> Rulebook:
    """The rulebook of a bundled variant or rule file; a house rule's sentences that differ from its parent's
    rulebook marked (``mark_changes``). ``loaded``: ``target`` as the caller has loaded it already (the browser's
    lobby, confined to its rules folder), not loaded again."""
    loaded = load(target) if loaded is None else loaded
    book = book_for(loaded.rules, with_worked_examples)
    parent = parent_ref(target, loaded) if marked else None
    if parent is not None:
        parent_rules = load(parent).rules
        book = mark_changes(book, rulebook(parent_rules), parent_rules.name)
        if with_worked_examples:
            book = mark_examples(book, book_for(parent_rules, True), parent_rules.name)
        book = _description_said_as_inherited(book, loaded, parent_rules.name)
        book = with_cited_sources(book, loaded.rules, parent_rules)
    return book


def _description_said_as_inherited(book: Rulebook, loaded: LoadedVariant, parent: str) -> Rulebook:
    """A house rule that gives no description of its own opens with its parent's, which may name a value the
    house rule changes ("the lowest total wins at the 42-point limit" above a target of 39: an audit's find):
    said as the parent's."""
    written = loaded.resolved.origin.get(("description",))
    if written is None or written[0] is loaded.resolved.documents[0]:
        return book
    description = loaded.rules.description
    if not book.intro.startswith(description):
        return book
    writer = written[0].data.get("name") if isinstance(written[0].data, dict) else None
    rest = book.intro[len(description):]
    # (said as the file's that wrote it, the parent's parent in a chain; not as this house rule's, whose own rules,
    # marked below, may say otherwise: Kasino misar's "the lowest total wins" above a house rule won by the highest)
    return replace(book, intro=f"{description} (the description of {writer or parent}: this house rule gives none of "
                               f"its own, and where it differs the rules below say so){rest}")


"""Loading a variant: the one pipeline every front end uses.

    YAML text -> safe load with positions (yamlsource) -> `extends` resolved (resolve)
      -> each file checked against the schema -> the merged variant checked in full
      -> defaults from the schema -> semantic checks -> frozen Rules

Every problem of every stage is collected before raising, so an author sees
all of a file's errors in one run.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from . import schema
from . import semantics
from ..errors import Diagnostic, RuleFileError
from ..files import NAME_MAX, kind_of, too_long
from ..paths import VARIANTS_DIR
from .catalogue import bundled_names, find_example
from .resolve import Confinement, ExtendsError, Resolved, resolve_name
from .rules import Rules
from .settings import with_readings

__all__ = ["LoadedVariant", "bundled_names", "load", "load_rules"]


@dataclass(frozen=True)
class LoadedVariant:
    rules: Rules
    resolved: Resolved
    #: What :func:`semantics.warnings` found: rules that play, but probably not as their author means.
    warnings: tuple[Diagnostic, ...] = ()


def count_kinds() -> str:
    """Every kind of ``count`` the schema allows, as a hint lists them: "most, each, ... or primiera"."""
    node = schema.load_schema()["properties"]["scoring"]["properties"]["items"]["additionalProperties"]
    kinds = [str(k) for k in node["properties"]["count"]["enum"]]
    return ", ".join(kinds[:-1]) + " or " + kinds[-1] if len(kinds) > 1 else "".join(kinds)


def _check_items_have_count(resolved: Resolved) -> list[Diagnostic]:
    """A scoring item must say what it counts. An item without `count` that no file of the chain
    completes is either new and unfinished or a misspelling of an item it extends (a house rule's
    `sweps: {points: 1}` for standard's `sweeps`): the hint says which. Safe on data that has not
    passed the schema, so it runs with the per-file schema check and its errors come in the same run."""
    scoring = resolved.data.get("scoring") if isinstance(resolved.data, dict) else None
    items = scoring.get("items") if isinstance(scoring, dict) else None
    if not isinstance(items, dict):
        return []
    complete = [str(name) for name, item in items.items() if isinstance(item, dict) and "count" in item]
    out = []
    kinds = count_kinds()
    for name, item in items.items():
        if isinstance(item, dict) and "count" not in item:
            near = schema.nearest(str(name), complete)
            hint = (f"did you mean `{near}`? (a new item needs `count:` {kinds})"
                    if near else f"add `count:` {kinds}")
            out.append(resolved.diagnostic(("scoring", "items", name),
                                           f"scoring item `{name}` does not say what it counts",
                                           key=True, hint=hint))
    return out


def _refuse_unreadable(ref: str) -> None:
    """A folder, a device or a name too long for the system, said as such before any name lookup.

    Without this, ``validate adir`` said "no bundled variant or file named `adir`" and a
    300-character name died in the lookup with the system's "File name too long".
    """
    if not ref.strip():   # (a re-attack's `explain ''` read ": no bundled variant or file named ``")
        raise RuleFileError([Diagnostic("(an empty name)", 0, 0, "names no variant or rule file",
                                        hint="name a bundled variant (cassino list) or a rule file, e.g. standard")])
    if too_long(ref):
        raise RuleFileError([Diagnostic(ref[:60] + "...", 0, 0,
                                        f"the name is too long ({len(ref)} characters; a file or folder name "
                                        f"is at most {NAME_MAX})")])
    kind = kind_of(ref)
    if kind in (None, "file") or ref in bundled_names() or find_example(ref) is not None:
        return   # a name that finds a shipped file goes on finding it, whatever is in this folder
    if kind == "folder":
        raise RuleFileError([Diagnostic(ref, 0, 0, "is a folder, not a rule file",
                                        hint="name a .yaml file in it, or a bundled variant (cassino list)")])
    if kind not in (None, "file"):
        raise RuleFileError([Diagnostic(ref, 0, 0, f"is {kind}, not a rule file; name a regular file")])


def _refuse_another_kind(resolved: Resolved) -> None:
    """A game record or a scenario file named where a rule file is wanted: said in one line with the command that
    reads it (an audit's `cassino play game.json` got 48 lines of unknown settings)."""
    doc = resolved.documents[0]
    data = doc.data
    if not isinstance(data, dict):
        return
    shown = doc.path
    if isinstance(data.get("format"), str) and data["format"].startswith("cassino-game"):
        raise RuleFileError([doc.diagnostic(("format",), f"{shown} is a game record, not a rule file",
                                            hint=f"continue the game with `cassino play --resume {shown}`, or check "
                                                 f"it with `cassino replay {shown}`")])
    if "cases" in data and "name" not in data:
        raise RuleFileError([doc.diagnostic(("cases",), f"{shown} is a scenario file (it has `cases:`), not a rule file",
                                            key=True, hint=f"run its cases with `cassino check {shown}`")])


def load(name_or_path: str | Path, *, confinement: Confinement | None = None) -> LoadedVariant:
    """Load, resolve and check a variant by bundled name or file path; raises RuleFileError.
    Gives the rules and the resolved files (their ``extends`` chain, each setting's line). ``confinement``: the
    folders a path in the chain's `extends` may name (by default the file's own and the current folder)::

        >>> loaded = load("royal")
        >>> loaded.rules.name, len(loaded.resolved.documents)     # royal extends standard
        ('royal', 2)
    """
    _refuse_unreadable(str(name_or_path))
    try:
        resolved = resolve_name(str(name_or_path), bundled_dir=VARIANTS_DIR, confinement=confinement)
    except ExtendsError as e:
        # The files that were read are checked on their own too, so one bad `extends` does not hide
        # an unknown key or a value out of range further down (each file is valid on its own terms).
        found = list(e.diagnostics)
        said = {(d.file, d.line, d.column) for d in found}
        for doc in e.documents:   # (a place `extends` was refused at is not said twice: `extends: 123`)
            found += [d for d in schema.validate(doc.data, doc.diagnostic) if (d.file, d.line, d.column) not in said]
        raise RuleFileError(found) from None
    _refuse_another_kind(resolved)
    resolved = replace(resolved, valid_alone=_ValidAlone(resolved, confinement))
    diags: list[Diagnostic] = []
    for doc in resolved.documents:
        diags += schema.validate(doc.data, doc.diagnostic)
    diags += _check_items_have_count(resolved)      # with the files' schema errors: all in one run
    if diags:
        raise RuleFileError(diags)
    diags = schema.validate(resolved.data, resolved.diagnostic)
    if diags:
        raise RuleFileError(diags)
    data, diags = with_readings(schema.with_defaults(resolved.data), resolved)   # (issue 36)
    if diags:
        raise RuleFileError(diags)
    rules = Rules.from_data(data)
    diags = semantics.check(data, rules, resolved.diagnostic)
    if diags:
        raise RuleFileError(diags)
    return LoadedVariant(rules, resolved, tuple(semantics.warnings(data, rules, resolved.diagnostic, resolved)))


class _ValidAlone:
    """Whether a file of an `extends` chain, past the one asked for, loads clean on its own (``Resolved.valid_alone``),
    each asked at most once."""

    def __init__(self, resolved: Resolved, confinement: Confinement | None) -> None:
        self.paths = resolved.paths
        self.confinement = confinement
        self.known: dict[int, bool] = {}

    def __call__(self, index: int) -> bool:
        if index not in self.known:
            try:
                load(self.paths[index], confinement=self.confinement)
                self.known[index] = True
            except (RuleFileError, OSError, IndexError):
                self.known[index] = False
        return self.known[index]


@lru_cache(maxsize=64)
def _load_bundled(name: str) -> Rules:
    return load(name).rules


def load_rules(name_or_path: str | Path) -> Rules:
    """The Rules of a bundled variant (cached) or of a variant file; RuleFileError (every problem,
    with file and line) when it cannot be loaded::

        >>> rules = load_rules("royal")
        >>> rules.name, rules.game.target
        ('royal', 21)
    """
    text = str(name_or_path)
    if text in bundled_names():
        return _load_bundled(text)
    return load(text).rules

"""Settings by dotted path (``capture.equal_cards``, ``scoring.items.sweeps.points``).

Rule authors name settings this way on the command line (``cassino sweep --set``),
and ``cassino diff`` reports differences by the same names. The schema says which
paths exist; a variant's own scoring items and events add theirs. Values are
read as YAML scalars or flow collections (``true``, ``11``, ``null``, ``[cards, spades]``)
through the safe loader, never evaluated.
"""

from __future__ import annotations

import copy
import difflib
import json
from dataclasses import dataclass
from typing import Any, Iterator

import yaml

from ..errors import CassinoError, Diagnostic, RuleFileError
from . import schema, semantics
from .resolve import Resolved
from .rules import Rules

#: Top-level keys that describe a file rather than a rule.
META = ("name", "description", "source", "extends", "readings")
#: Mappings whose keys are the variant's own names (items and events), not schema settings.
NAMED = (("scoring", "items"), ("scoring", "events"))


class SettingError(CassinoError):
    """A setting path or value given on the command line that cannot be used. ``message`` says what is wrong,
    ``hint`` (or None) how to put it right (a nearest setting: "did you mean `game.target`?"); said as a rule
    file's problem is, the hint on a line of its own (and in JSON in the error's ``hint``)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        self.message, self.hint = message, hint
        super().__init__(message + (f"\n    hint: {hint}" if hint else ""))


def split_path(text: str) -> tuple[str, ...]:
    return tuple(part for part in text.strip().split("."))


def leaf_paths(data: dict[str, Any] | None = None) -> list[tuple[str, ...]]:
    """Every setting path of the schema, lists counted as one value; with ``data``, its items' and events' too."""
    out: list[tuple[str, ...]] = []

    def walk(node: dict[str, Any], prefix: tuple[str, ...]) -> None:
        props = node.get("properties")
        if node.get("type") == "object" and props and prefix not in NAMED:
            for key, sub in props.items():
                walk(sub, prefix + (key,))
            return
        if prefix in NAMED:
            entry = node.get("additionalProperties", {})
            names = list((data or {}).get(prefix[0], {}).get(prefix[1], {}) or {})
            for name in names:
                walk(entry, prefix + (name,))
            return
        out.append(prefix)

    for key, sub in schema.load_schema()["properties"].items():
        if key not in META:
            walk(sub, (key,))
    return out


def schema_of(path: tuple[str, ...]) -> dict[str, Any] | None:
    """The schema node describing ``path`` (an item or event name matches any name)."""
    node: dict[str, Any] = {"properties": schema.load_schema()["properties"], "type": "object"}
    for i, part in enumerate(path):
        if path[:i] in NAMED:
            node = node.get("additionalProperties", {})
            continue
        props = node.get("properties", {})
        if part not in props:
            return None
        node = props[part]
    return node


def get(data: dict[str, Any], path: tuple[str, ...], default: Any = None) -> Any:
    node: Any = data
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return default
        node = node[part]
    return node


def with_value(data: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A deep copy of ``data`` with ``path`` set to ``value`` (missing mappings are created)."""
    out = copy.deepcopy(data)
    node = out
    for part in path[:-1]:
        if not isinstance(node.get(part), dict):
            node[part] = {}
        node = node[part]
    node[path[-1]] = copy.deepcopy(value)
    return out


def flatten(data: dict[str, Any]) -> dict[tuple[str, ...], Any]:
    """A defaults-filled variant as {setting path: value}."""
    return {p: get(data, p) for p in leaf_paths(data)}


def parse_value(text: str, where: str) -> Any:
    """One value as YAML, read as a rule file is (``yamlsource``: the safe loader, and its bounds on
    nesting, characters, aliases and digits): ``true`` -> True, ``11`` -> 11, ``null`` -> None."""
    from ..errors import RuleFileError
    from .yamlsource import load_yaml_text

    if not text.strip():
        return ""
    try:
        return load_yaml_text(text, where).data
    except RuleFileError as e:
        shown = repr(text) if len(text) <= 40 else repr(text[:30]) + f"... ({len(text):,} characters)"
        raise SettingError(f"{where}: cannot read the value {shown}: {e.diagnostics[0].message}") from None


def split_values(text: str) -> list[str]:
    """``a,b,[c, d]`` -> ``['a', 'b', '[c, d]']``: commas inside brackets or braces stay."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts]


@dataclass(frozen=True)
class Assignment:
    """``--set PATH=V1,V2``: a setting and the values a sweep tries."""

    text: str
    path: tuple[str, ...]
    values: tuple[Any, ...]
    written: tuple[str, ...]   # each value as typed, for labels


def _known_path(path: tuple[str, ...], data: dict[str, Any], text: str) -> None:
    known = [".".join(p) for p in leaf_paths(data)]
    dotted = ".".join(path)
    if dotted in known:
        return
    if path[:2] in NAMED and len(path) >= 3:
        kind = "scoring item" if path[1] == "items" else "capture event"
        names = list(get(data, path[:2], {}) or {})
        if path[2] not in names:
            near = difflib.get_close_matches(path[2], names, n=1)
            hint = f"did you mean `{near[0]}`? " if near else ""
            raise SettingError(f"{text}: this variant has no {kind} `{path[2]}`",
                               hint=f"{hint}its {kind}s: {', '.join(names) or 'none'} (a new one belongs in a "
                                    f"house-rule file)")
    near = difflib.get_close_matches(dotted, known, n=1, cutoff=0.6)
    hint = f"did you mean `{near[0]}`?" if near else "`cassino schema` lists every setting"
    raise SettingError(f"{text}: no setting `{dotted}`", hint=hint)


def parse_assignment(text: str, data: dict[str, Any]) -> Assignment:
    """Read ``PATH=V1,V2`` against a variant's data; SettingError says what is wrong."""
    if "=" not in text:
        raise SettingError(f"--set {text!r}: write PATH=VALUE or PATH=V1,V2, e.g. --set game.target=11,21")
    raw_path, _, raw_values = text.partition("=")
    path = split_path(raw_path)
    if not raw_path.strip() or any(not p for p in path):
        raise SettingError(f"--set {text!r}: the setting path is empty or has an empty part")
    label = f"--set {text}" if len(text) <= 80 else f"--set {text[:70]}..."
    node = schema_of(path) or {}
    if node.get("type") == "object" and "properties" in node:
        raise SettingError(f"{label}: `{'.'.join(path)}` is a section; name one of its settings: "
                           + ", ".join(f"{'.'.join(path)}.{k}" for k in node["properties"]))
    _known_path(path, data, label)
    written = tuple(split_values(raw_values))
    if not raw_values.strip() or any(not w for w in written):
        raise SettingError(f"{label}: give one or more values after `=`, separated by commas")
    values = tuple(parse_value(w, label) for w in written)
    for k, v in enumerate(values):
        if any(v == u and type(v) is type(u) for u in values[:k]):
            raise SettingError(f"{label}: the value {written[k]} is given twice")
    return Assignment(text, path, values, written)


def _known_setting(path: tuple[str, ...], data: dict[str, Any]) -> bool:
    """A setting of ``data`` (its items' and events' included), or a section or item holding some."""
    return any(p[:len(path)] == path for p in leaf_paths(data))


def with_readings(data: dict[str, Any], resolved: Resolved) -> tuple[dict[str, Any], list[Diagnostic]]:
    """``data`` (defaults filled) with each reading's ``value`` filled in from the file that wrote the
    readings, and the problems a schema cannot see: a setting that does not exist, a value the file
    does not give it. A house rule that changes the setting keeps the value its parent read, so
    the rulebook, which says a reading only while the setting has its value, drops it there."""
    entries = data.get("readings") or []
    if not entries:
        return data, []
    writer = resolved.origin.get(("readings",), (resolved.documents[0], ()))[0]
    chain = list(resolved.documents)
    base: dict[str, Any] = {}
    for doc in reversed(chain[chain.index(writer):] if writer in chain else chain):
        base = _merged(base, {k: v for k, v in doc.data.items() if k != "extends"})
    base = schema.with_defaults(base)
    out, diags = [], []
    for i, entry in enumerate(entries):
        path = split_path(str(entry.get("setting", "")))
        if not all(path) or not _known_setting(path, data):
            known = [".".join(p) for p in leaf_paths(data)]
            near = difflib.get_close_matches(".".join(path), known, n=1, cutoff=0.6)
            hint = f"did you mean `{near[0]}`?" if near else "`cassino schema` lists every setting"
            diags.append(resolved.diagnostic(("readings", i, "setting"),
                                             f"a reading names `{'.'.join(path)}`, which is no setting of this file",
                                             hint=hint))
            out.append(entry)
            continue
        file_value = get(base, path)
        if entry.get("value") is not None and not _same(entry["value"], file_value):
            kinds = (f" ({_KIND.get(type(entry['value']), 'another kind')}, not "
                     f"{_KIND.get(type(file_value), 'another kind')})"
                     if type(entry["value"]) is not type(file_value) else "")
            diags.append(resolved.diagnostic(("readings", i, "value"),
                                             f"the reading is about `{'.'.join(path)}: {_written(entry['value'])}`"
                                             f"{kinds}, but the file gives it {_written(file_value)}",
                                             hint="leave `value` out: it is the file's own value"))
        # A reading whose words assume another setting's value (``also``) goes where that setting has another value
        # here than in the file that wrote it (Kasino misar's target, read as the lowest total winning, in a house
        # rule won by the highest): dropped from the rules, so that no rulebook, record or page says it.
        kept = True
        assumes: dict[str, Any] = {}
        given = entry.get("assumes") or {}
        for k, other in enumerate(entry.get("also") or ()):
            other_path = split_path(str(other))
            if not all(other_path) or not _known_setting(other_path, data):
                near = difflib.get_close_matches(str(other), [".".join(q) for q in leaf_paths(data)], n=1,
                                                 cutoff=0.6)
                diags.append(resolved.diagnostic(("readings", i, "also", k),
                                                 f"a reading assumes `{other}`, which is no setting of this file",
                                                 hint=f"did you mean `{near[0]}`?" if near
                                                 else "`cassino schema` lists every setting"))
                continue
            other = ".".join(other_path)   # (as the file would write it: " game.goal" is game.goal)
            assumes[other] = get(base, other_path)
            if other in given and not _same(given[other], assumes[other]):
                kinds = (f" ({_KIND.get(type(given[other]), 'another kind')}, not "
                         f"{_KIND.get(type(assumes[other]), 'another kind')})"
                         if type(given[other]) is not type(assumes[other]) else "")
                diags.append(resolved.diagnostic(("readings", i, "assumes", other),
                                                 f"the reading assumes `{other}: {_written(given[other])}`{kinds}, but "
                                                 f"the file gives it {_written(assumes[other])}",
                                                 hint="leave `assumes` out: it is filled in from the file"))
            kept = kept and get(base, other_path) == get(data, other_path)
        also = [".".join(split_path(str(a))) for a in entry.get("also") or ()]
        for other in given:
            if other not in also:
                near = difflib.get_close_matches(str(other), also, n=1, cutoff=0.6)
                hint = (f"did you mean `{near[0]}`?" if near
                        else "name a setting by its dotted path, as `also` does (`game.target`, not a mapping)"
                        if isinstance(given[other], dict)
                        else "list it in `also`, or leave `assumes` out")
                diags.append(resolved.diagnostic(("readings", i, "assumes", other), key=True,
                                                 message=f"`assumes` names `{other}`, which the reading's `also` "
                                                         f"does not", hint=hint))
        if kept:
            out.append({**entry, "value": file_value if entry.get("value") is None else entry["value"]}
                       | ({"assumes": assumes} if assumes else {}))
    return {**data, "readings": out}, diags


#: A YAML value's kind in words (``assumes`` of another kind than the file's value).
_KIND: dict[type, str] = {str: "text", int: "a whole number", float: "a number with a point", bool: "true or false",
                          list: "a list", dict: "a mapping", type(None): "null"}


def _written(value: Any) -> str:
    """A value as the file writes it: text quoted where it would read as a number or a word of YAML."""
    if isinstance(value, str):
        try:
            plain = yaml.safe_load(value) == value   # (a word as it is; "16" would read as a number)
        except yaml.YAMLError:
            plain = False
        return value if plain else json.dumps(value, ensure_ascii=False)
    return _shown(value)


def _same(a: Any, b: Any) -> bool:
    """Equal and of one type, all the way down (YAML's ``11.0`` is not the file's ``11``, nor ``"11"``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _merged(parent: Any, child: Any) -> Any:
    from .resolve import merge

    return merge(parent, child)


def rules_with(resolved: Resolved, changes: list[tuple[Assignment, Any]]) -> Rules:
    """The variant ``resolved`` with each assignment's chosen value, checked in full.

    Raises RuleFileError whose diagnostics name the ``--set`` that caused them
    (a wrong type, a value out of range, a rule set that cannot be played).
    """
    data = resolved.data
    for assignment, value in changes:
        data = with_value(data, assignment.path, value)
    label = ", ".join(f"{'.'.join(a.path)}={_shown(v)}" for a, v in changes)

    def locate(path: Any, message: str, *, key: bool = False, hint: str | None = None, severity: str = "error",
               or_at: tuple[Any, ...] = ()) -> Diagnostic:
        for place in (tuple(path), *(tuple(p) for p in or_at)):   # (a problem as much about another setting: it too)
            for assignment, value in changes:
                n = len(assignment.path)
                if place[:n] == assignment.path or assignment.path[:len(place)] == place and place:
                    return Diagnostic(f"--set {'.'.join(assignment.path)}={_shown(value)}", 0, 0, message, hint,
                                      severity=severity)
        return resolved.diagnostic(tuple(path), f"{message} (with {label})", key=key, hint=hint, severity=severity,
                                   or_at=tuple(tuple(p) for p in or_at))

    diags = schema.validate(data, locate)
    if diags:
        raise RuleFileError(diags)
    full, diags = with_readings(schema.with_defaults(data), resolved)
    if diags:
        raise RuleFileError(diags)
    rules = Rules.from_data(full)
    diags = semantics.check(full, rules, locate)
    if diags:
        raise RuleFileError(diags)
    return rules


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value
    return yaml.safe_dump(value, default_flow_style=True).strip().removesuffix("...").strip()


def shown(value: Any) -> str:
    """A value as an author would write it on the command line."""
    return _shown(value)


def unchecked(rules: Rules, path: tuple[str, ...], value: Any) -> Rules:
    """``rules`` with one setting changed, without the file checks (for what-if comparisons)."""
    return Rules.from_data(with_value(dict(rules.data), path, value))


def alternatives(path: tuple[str, ...], current: Any) -> Iterator[Any]:
    """The other values a setting can take, where the schema lists them (enums, booleans)."""
    node = schema_of(path) or {}
    if "enum" in node:
        yield from (v for v in node["enum"] if v != current)
    elif node.get("type") == "boolean":
        yield not current

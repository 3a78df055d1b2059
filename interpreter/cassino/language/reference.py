"""The rule language reference, generated from the schema, the checks and the bundled variants.

A rule author needs one page with every setting: what it means, its type, default and allowed
values, which `cassino validate` checks concern it, which bundled variants set it and to what,
and a small example. Written by hand, such a page goes stale the day a setting is added; here it
is read from the three places that decide it:

- ``schema/variant.schema.json`` (``cassino.paths.SCHEMA_FILE``): the settings, their
  descriptions, types, defaults and allowed values;
- ``language/semantics.py``: the checks a schema cannot state, found by reading the module's
  source (every ``locate(PATH, MESSAGE, hint=...)`` call is a check reported at PATH), so a new
  check appears under its setting without anyone listing it;
- ``variants/*.yaml``, each with its ``extends`` chain merged.

The documentation site builds its page from :func:`reference_markdown` (``docs/gen/hooks.py``);
``python -m cassino.language.reference`` prints the same Markdown.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import json
import re
from dataclasses import dataclass
from typing import Any, Iterator

import yaml

#: The name written for a key the author chooses (a scoring item's or an event's name).
NAME = "NAME"
#: The name written for any element of a list of mappings (a rank, a suit, a deal row).
ITEM = "[]"

Path = tuple[str, ...]


class ReferenceError(ValueError):
    """The schema or the checks cannot be documented as they stand (a setting without a description,
    a check whose setting cannot be found): the site's build stops rather than publish a gap."""


@dataclass(frozen=True)
class Setting:
    """One setting of the rule language: its path (``ITEM``/``NAME`` where a file chooses) and schema node."""

    path: Path
    node: dict[str, Any]
    #: How a file must give it ("" where it may be left out): the schema's ``required`` arrays, the
    #: root's conditional ``then.required`` and the checks outside the schema (``REQUIRED_BY_CHECKS``).
    required: str = ""

    @property
    def dotted(self) -> str:
        return dotted(self.path)

    @property
    def is_section(self) -> bool:
        return any(True for _ in _children(self.node))


@dataclass(frozen=True)
class Check:
    """A semantic check of ``cassino validate``: where it is reported, what it says and the hint."""

    function: str
    path: Path
    message: str
    hint: str


def dotted(path: Path) -> str:
    """``("deck", "ranks", "[]", "rank")`` -> ``deck.ranks[].rank``."""
    out = ""
    for part in path:
        out += part if part == ITEM else ("." if out else "") + part
    return out


def load_schema() -> dict[str, Any]:
    from ..paths import SCHEMA_FILE

    data: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return data


#: Settings a file must give that the schema cannot require, each with the words the reference
#: says: a scoring item's ``count`` (a house rule may change an item it inherits without repeating
#: it, so only the merged chain is checked: ``variants._check_items_have_count``).
REQUIRED_BY_CHECKS: dict[str, str] = {
    "scoring.items.NAME.count": "yes, in each scoring item (a house rule changing an item it inherits "
                                "need not repeat it)",
}


def _children(node: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The sub-settings of a node: its properties, a list's mapping items, a named mapping's entries."""
    for key, child in node.get("properties", {}).items():
        yield key, child
    items = node.get("items")
    if node.get("type") == "array" and isinstance(items, dict) and "properties" in items:
        for key, child in items["properties"].items():
            yield ITEM + "\0" + key, child
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and "properties" in extra:
        for key, child in extra["properties"].items():
            yield NAME + "\0" + key, child


def _required(node: dict[str, Any], key: str, root: bool) -> str:
    """How the schema requires sub-setting ``key`` (as ``_children`` names it) of ``node``."""
    kind, _, name = key.rpartition("\0")
    owner = node if not kind else node.get("items" if kind == ITEM else "additionalProperties", {})
    if name in owner.get("required", []):
        return {"": "yes", ITEM: "yes, in each entry", NAME: "yes, in each one you name"}[kind]
    if root and name in node.get("then", {}).get("required", []):
        return "yes, in a file without `extends` (a file that extends another inherits it)"
    return ""


def settings(schema: dict[str, Any] | None = None) -> list[Setting]:
    """Every setting of the schema, depth first in the schema's order (sections before their settings)."""
    out: list[Setting] = []

    def walk(node: dict[str, Any], path: Path) -> None:
        for key, child in _children(node):
            sub = path + tuple(key.split("\0"))
            required = _required(node, key, not path) or REQUIRED_BY_CHECKS.get(dotted(sub), "")
            out.append(Setting(sub, child, required))
            walk(child, sub)

    walk(schema if schema is not None else load_schema(), ())
    return out


# ------------------------------------------------------------------ the semantic checks

def _static_text(node: ast.expr | None, constants: dict[str, str]) -> str:
    """A message as written, each value filled in at run time shown as ``…``."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name) \
                    and value.value.id in constants:
                parts.append(constants[value.value.id])
            else:
                parts.append("…")
        return "".join(parts)
    return "not a card or selector this deck can read (the message says where and why)"


def _paths(node: ast.expr, names: dict[str, list[ast.expr]], depth: int = 0,
           choices: dict[str, list[str]] | None = None) -> list[tuple[str | None, ...]]:
    """Every path a check's location expression can take; None where a part is chosen at run time.
    ``choices``: names that run over a fixed list of strings (``for key in ("a", "b")``), each value
    a path of its own."""
    if depth > 8:
        return []
    if isinstance(node, ast.Tuple):
        parts: list[list[str | None]] = []
        for e in node.elts:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                parts.append([e.value])
            elif isinstance(e, ast.Name) and choices and e.id in choices:
                parts.append(list(choices[e.id]))
            else:
                parts.append([None])
        return [tuple(p) for p in itertools.product(*parts)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [a + b for a in _paths(node.left, names, depth + 1, choices)
                for b in _paths(node.right, names, depth + 1, choices)]
    if isinstance(node, ast.IfExp):
        return _paths(node.body, names, depth + 1, choices) + _paths(node.orelse, names, depth + 1, choices)
    if isinstance(node, ast.Name):   # the assignment just before the use (the same name is reused)
        before = [v for v in names.get(node.id, []) if v.lineno <= node.lineno]
        return _paths(before[-1], names, depth + 1, choices) if before else []
    return []


def _bound(node: ast.expr | None, names: dict[str, list[ast.expr]]) -> ast.expr | None:
    """A message or hint given by name: the text assigned to the name just before (``message = f"..."``)."""
    if isinstance(node, ast.Name):
        before = [v for v in names.get(node.id, []) if v.lineno <= node.lineno]
        if before and isinstance(before[-1], (ast.Constant, ast.JoinedStr)):
            return before[-1]
    return node


def _choices(func: ast.FunctionDef) -> dict[str, list[str]]:
    """The loop names of ``func`` that run over a fixed tuple or list of strings (a check that may be
    reported at either of two settings: ``for key in ("pile_cards", "from_piles")``)."""
    out: dict[str, list[str]] = {}
    for node in ast.walk(func):
        if isinstance(node, (ast.comprehension, ast.For)) and isinstance(node.target, ast.Name) \
                and isinstance(node.iter, (ast.Tuple, ast.List)) \
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.iter.elts):
            out[node.target.id] = [e.value for e in node.iter.elts]   # type: ignore[attr-defined]
    return out


def _setting_path(raw: tuple[str | None, ...], schema: dict[str, Any]) -> Path | None:
    """The setting a located path falls in: list indexes become ``[]``, chosen names ``NAME``;
    a path that goes below the documented settings (a rank inside ``card_points``) stops there."""
    node, out = schema, []
    for part in raw:
        props = node.get("properties", {})
        items, extra = node.get("items"), node.get("additionalProperties")
        if isinstance(part, str) and part in props:
            node = props[part]
            out.append(part)
        elif node.get("type") == "array" and isinstance(items, dict) and part is None:
            if "properties" not in items:
                break
            node = items
            out.append(ITEM)
        elif isinstance(extra, dict) and "properties" in extra:
            node = extra
            out.append(NAME)
        elif out and (node.get("type") == "array" or isinstance(extra, dict)):
            break
        else:
            return None
    while out and out[-1] == ITEM:   # a whole entry of a list: the list's setting
        out.pop()
    return tuple(out) or None


def semantic_checks(schema: dict[str, Any] | None = None) -> list[Check]:
    """The checks of ``language/semantics.py``, read from its source, each at its setting.

    Raises ReferenceError for a check whose location cannot be read or names no setting, so a new
    check written another way is noticed when the site is built, not left out of the reference."""
    from . import semantics

    schema = schema if schema is not None else load_schema()
    tree = ast.parse(inspect.getsource(semantics))
    out: list[Check] = []
    problems: list[str] = []
    for func in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        loops = _choices(func)
        names: dict[str, list[ast.expr]] = {}
        constants: dict[str, str] = {}
        for node in sorted((n for n in ast.walk(func) if isinstance(n, (ast.Assign, ast.AnnAssign))),
                           key=lambda n: n.lineno):
            target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
                node.target if isinstance(node, ast.AnnAssign) else None
            if isinstance(target, ast.Name) and node.value is not None:
                names.setdefault(target.id, []).append(node.value)
                if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                    constants[target.id] = node.value.value
        for node in ast.walk(func):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "locate"):
                continue
            hint = _bound(next((k.value for k in node.keywords if k.arg == "hint"), None), names)
            said = _bound(node.args[1] if len(node.args) > 1 else None, names)
            if isinstance(said, ast.Constant) and said.value == "":
                continue   # (a location asked for its file only, not a check: no message)
            message = _static_text(said, constants)
            found = {_setting_path(raw, schema) for raw in _paths(node.args[0], names, choices=loops)} \
                if node.args else set()
            if not found or None in found:
                problems.append(f"semantics.{func.name}, line {node.lineno}: the setting this check is "
                                f"reported at cannot be read from its location")
                continue
            for path in sorted(p for p in found if p is not None):
                out.append(Check(func.name, path, message, _static_text(hint, constants)))
    if problems:
        raise ReferenceError("\n".join(problems))
    return out


# ------------------------------------------------------------------ the bundled variants

def _values_at(data: Any, path: Path) -> list[Any]:
    """The values a resolved variant gives at ``path`` (several below ``[]`` or ``NAME``)."""
    if not path:
        return [data]
    head, rest = path[0], path[1:]
    if head == ITEM:
        return [v for item in data for v in _values_at(item, rest)] if isinstance(data, list) else []
    if head == NAME:
        return [v for item in data.values() for v in _values_at(item, rest)] if isinstance(data, dict) else []
    if isinstance(data, dict) and head in data:
        return _values_at(data[head], rest)
    return []


def _shown(value: Any, limit: int = 70) -> str:
    """A value as the reference shows it; a long one cut at a word's end (never mid-word), with "…"."""
    if value == "":
        return '""'
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    text = text if isinstance(value, str) and " " in value else (text.strip('"') if isinstance(value, str) else text)
    text = {"null": "null", "true": "true", "false": "false"}.get(text, text)
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    if space > 0:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + " …"


def bundled_data() -> dict[str, dict[str, Any]]:
    """Each bundled variant's settings with its ``extends`` chain merged (defaults not filled in)."""
    from .catalogue import bundled_names
    from .variants import load

    return {name: load(name).resolved.data for name in bundled_names()}


def _usage(setting: Setting, variants: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """Shown value -> the bundled variants that give it (a variant may give several below ``[]``)."""
    by_value: dict[str, list[str]] = {}
    for name, data in variants.items():
        for shown in dict.fromkeys(_shown(v) for v in _values_at(data, setting.path)):
            by_value.setdefault(shown, []).append(name)
    return by_value


# ------------------------------------------------------------------ the page

def _type_words(node: dict[str, Any]) -> str:
    if "enum" in node:
        return "one of " + ", ".join(f"`{_shown(v)}`" for v in node["enum"])
    if "oneOf" in node or "anyOf" in node:
        return " or ".join(_type_words(alt) for alt in node.get("oneOf", node.get("anyOf", [])))
    kinds = node.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds] if kinds else []
    words = []
    for kind in kinds:
        word = {"integer": "whole number", "boolean": "`true` or `false`", "string": "text", "null": "`null`",
                "object": "mapping", "array": "list"}.get(kind, str(kind))
        if kind == "integer":
            low, high = node.get("minimum"), node.get("maximum")
            word += (f" from {low} to {high}" if low is not None and high is not None
                     else f" of at least {low}" if low is not None else f" of at most {high}" if high is not None else "")
        if kind == "string" and "pattern" in node:
            word += f" matching `{node['pattern']}`"
        if kind == "array" and isinstance(node.get("items"), dict):
            inner = node["items"]
            word += " of mappings (below)" if "properties" in inner else f" of {_type_words(inner)}"
            if node.get("minItems"):
                word += f", at least {node['minItems']}"
        if kind == "object" and isinstance(node.get("additionalProperties"), dict) and \
                "properties" not in node["additionalProperties"]:
            word += f" of names to {_type_words(node['additionalProperties'])}"
        elif kind == "object" and isinstance(node.get("additionalProperties"), dict):
            word += " of names you choose to mappings (below)"
        words.append(word)
    return " or ".join(words) or "any value"


class _FlowMap(dict):  # type: ignore[type-arg]
    """A list entry in a snippet, written on one line (``- {rank: A, name: ace, value: 1}``)."""


class _SnippetDumper(yaml.SafeDumper):
    pass


_SnippetDumper.add_representer(
    _FlowMap, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True))


def _flow_entries(value: Any) -> Any:
    """``value`` with each mapping inside a list marked to be written on one line."""
    if isinstance(value, list):
        return [_FlowMap(v) if isinstance(v, dict) else _flow_entries(v) for v in value]
    if isinstance(value, dict):
        return {k: _flow_entries(v) for k, v in value.items()}
    return value


def _list_owner(path: Path) -> Path | None:
    """The list a setting belongs to (``deck.ranks`` for ``deck.ranks[].rank``); None outside a list."""
    return path[:path.index(ITEM)] if ITEM in path else None


def _example(setting: Setting, usage: dict[str, list[str]], variants: dict[str, dict[str, Any]]) -> str:
    """A few YAML lines setting it, with a value a bundled variant gives (one that differs from the
    default where there is one), else the default. A list is shown whole (a list in a file that
    ``extends`` another replaces the list, so a snippet of one entry would be a list of one entry):
    a setting of a list's entries is shown as the whole list of the variant that gives it, which
    pasted into a file extending that variant changes nothing."""
    default = setting.node.get("default")
    path = setting.path
    owner = _list_owner(path)
    value: Any = default
    name_for = "my_item"
    if owner is not None:   # the whole list, from a variant with an entry giving it (else any entry)
        field = path[len(owner) + 1]
        lists = [x for data in variants.values() for x in _values_at(data, owner) if isinstance(x, list) and x]
        giving = [x for x in lists if any(isinstance(e, dict) and field in e for e in x)]
        differing = [x for x in giving if any(isinstance(e, dict) and e.get(field, default) != default for e in x)]
        value = (differing or giving or lists or [[]])[0]
        path = owner
    else:
        for data in variants.values():
            found = [v for v in _values_at(data, path) if v != default]
            if found:
                value = found[0]
                break
    if NAME in path:   # a real item's name
        owner_of_names = path[:path.index(NAME)]
        for data in variants.values():
            for named in _values_at(data, owner_of_names):
                if isinstance(named, dict):
                    for key, item in named.items():
                        rest = path[path.index(NAME) + 1:]
                        if _values_at(item, rest) and (owner is None or _values_at(item, rest)[0] == value):
                            name_for = key
                            break
                    else:
                        continue
                    break
            if name_for != "my_item":
                break
    doc: Any = _flow_entries(value)
    for part in reversed(path):
        doc = {name_for if part == NAME else part: doc}
    text = yaml.dump(doc, Dumper=_SnippetDumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)
    lines = text.rstrip("\n").split("\n")
    if len(lines) > 14 and not isinstance(value, list):   # (a list is shown whole: a part of one would replace it)
        lines = lines[:14] + ["# ..."]
    return "\n".join(lines)


def _anchor(path: Path) -> str:
    return dotted(path).replace("[]", "-").replace(".", "-").replace("_", "-").lower()


def _check_lines(checks: list[Check]) -> list[str]:
    out: list[str] = []
    for c in checks:
        line = f"- {c.message}"
        if c.hint:
            line += f" (hint: {c.hint})"
        line = line.replace("<", "&lt;")
        if line not in out:
            out.append(line)
    return out


def _names(names: list[str], every: list[str]) -> str:
    """Variants by name, linked to their pages; most of them said as "every ... but"."""
    def link(n: str) -> str:
        return f"[{n}](variants/{n}.md)"

    if len(names) == len(every):
        return "every bundled variant"
    if len(names) > len(every) / 2:
        return "every bundled variant but " + ", ".join(link(n) for n in every if n not in names)
    return ", ".join(link(n) for n in names)


def _usage_lines(setting: Setting, variants: dict[str, dict[str, Any]]) -> list[str]:
    every = list(variants)
    usage = _usage(setting, variants)
    if not usage:
        return ["- **In the bundled variants**: none gives it (each has the default)"]
    if ITEM in setting.path or NAME in setting.path:   # a value per entry: which variants, which values
        givers = [n for n in every if any(n in names for names in usage.values())]
        values = [f"`{v}`" for v in usage]
        more = f" and {len(values) - 12} more" if len(values) > 12 else ""
        return [f"- **In the bundled variants**: given by {_names(givers, every)}; values "
                + ", ".join(values[:12]) + more]
    if len(usage) == len(every) and all(len(names) == 1 for names in usage.values()):
        first = next(iter(usage))
        return [f"- **In the bundled variants**: each its own (e.g. `{first}`: {_names(usage[first], every)})"]
    out = ["- **In the bundled variants**:"]
    for shown, names in sorted(usage.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        out.append(f"    - `{shown}`: {_names(names, every)}")
    silent = [n for n in every if not any(n in names for names in usage.values())]
    if silent:
        out.append(f"    - not given (the default): {_names(silent, every)}")
    return out


def _reader_text(text: str) -> str:
    """A description as a rule author reads it: without the project's tracker numbers ("(issue 36)")."""
    return re.sub(r"\s*\(issue \d+\)", "", text)


def _entry(setting: Setting, checks: list[Check], variants: dict[str, dict[str, Any]],
           descendants: list[Setting]) -> list[str]:
    node = setting.node
    level = "##" if len(setting.path) == 1 else "###"
    out = [f"{level} `{setting.dotted}` {{#{_anchor(setting.path)}}}", ""]
    out += [_reader_text(node["description"]).replace("<", "&lt;"), ""]
    out.append(f"- **Type**: {_type_words(node)}")
    if setting.required:
        # No default: a file that leaves it out is refused (the schema's default is for editors).
        out.append(f"- **Required**: {setting.required}")
    elif "default" in node and not setting.is_section:
        out.append(f"- **Default**: `{_shown(node['default'], 200)}`")
    if not setting.is_section or len(setting.path) > 1:
        out += _usage_lines(setting, variants)
    if checks:
        out += ["- **Checked by `cassino validate`** (beyond its type and allowed values):", ""]
        out += ["    " + line for line in _check_lines(checks)]
    out.append("")
    if not setting.is_section:
        out += ["```yaml", _example(setting, _usage(setting, variants), variants), "```", ""]
    if descendants:
        out += ["Settings: " + ", ".join(f"[`{d.dotted}`](#{_anchor(d.path)})" for d in descendants), ""]
    return out


def missing_descriptions(schema: dict[str, Any] | None = None) -> list[str]:
    """The settings whose schema node has no description (the reference cannot say what they mean)."""
    return [s.dotted for s in settings(schema) if not str(s.node.get("description", "")).strip()]


def reference_markdown(schema: dict[str, Any] | None = None,
                       variants: dict[str, dict[str, Any]] | None = None) -> str:
    """The whole reference page. Raises ReferenceError when a setting has no description."""
    schema = schema if schema is not None else load_schema()
    missing = missing_descriptions(schema)
    if missing:
        raise ReferenceError("settings without a description in the schema: " + ", ".join(missing))
    variants = variants if variants is not None else bundled_data()
    checks = semantic_checks(schema)
    all_settings = settings(schema)
    out = [
        "# The rule language reference",
        "",
        "Every setting a rule file may give, generated from the schema "
        "(`schema/variant.schema.json`, also printed by `cassino schema`), from the checks of "
        "`cassino validate` and from the bundled variants, so it is never out of date. "
        f"There are {len(all_settings)} settings in {len(schema['properties'])} top-level keys. "
        "`cassino explain VARIANT` says what one variant's settings mean; the "
        "[tutorial](house-rules.md) shows how to write a house rule.",
        "",
        "How to read it: `deck.ranks[].rank` is the `rank` of each entry of the list `deck.ranks`; "
        "`scoring.items.NAME.count` is the `count` of a scoring item whose name you choose "
        "(`cards`, `spades`, `sweeps`, ...). A file that `extends` another gives only what it "
        "changes: mappings merge, lists and single values replace. A file without `extends` must give "
        + ", ".join(f"`{k}`" for k in schema.get("then", {}).get("required", [])) + ".",
        "",
        "Beyond each setting's type and allowed values, `cassino validate` checks that the rules can be "
        "played; each check is listed under the setting it is reported at, as it reads (`…` is a value "
        "filled in from your file).",
        "",
    ]
    for setting in all_settings:
        below = [s for s in all_settings if len(setting.path) == 1 and s.path[:1] == setting.path and s != setting]
        out += _entry(setting, [c for c in checks if c.path == setting.path], variants, below)
    return "\n".join(out).rstrip("\n") + "\n"


if __name__ == "__main__":   # pragma: no cover - python -m cassino.language.reference
    import sys

    sys.stdout.write(reference_markdown())

"""Checking a variant mapping against the rule language's JSON Schema.

jsonschema finds the problems; this module says them the way a rule author
needs: the setting's dotted name, what was expected in plain words, the place
in the file, for an unknown key or value the nearest valid one, and for a value
of the wrong type or out of range what the setting is (its description). Defaults
come from the schema too, so every setting's default is written in one place.
"""

from __future__ import annotations

import copy
import difflib
import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..errors import Diagnostic
from ..paths import SCHEMA_FILE

if TYPE_CHECKING:  # pragma: no cover
    import jsonschema

PathT = tuple[str | int, ...]
#: Makes a diagnostic for a path in the checked data: (path, message, key=..., hint=...).
Locate = Callable[..., Diagnostic]

_TYPE_WORDS = {"integer": "a whole number", "string": "text", "boolean": "true or false",
               "object": "a mapping of settings", "array": "a list", "null": "null", "number": "a number"}


#: The schema's pattern of a text on one line (a suit's or rank's name, a suit's symbol or colour).
ONE_LINE = "^[^\\n\\r\\u0085\\u2028\\u2029]*$"


@lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    with open(SCHEMA_FILE, encoding="utf-8") as f:
        return json.load(f)


@lru_cache(maxsize=1)
def _validator() -> "jsonschema.Draft202012Validator":
    # The schema itself is checked against the metaschema by the test suite, not on every run:
    # doing it here cost a tenth of a second of every `cassino validate`.
    import jsonschema

    return jsonschema.Draft202012Validator(load_schema())


def dotted(path: Iterable[str | int]) -> str:
    """``('deck', 'ranks', 0, 'value')`` -> ``deck.ranks[0].value``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the file"


def _type_words(t: Any) -> str:
    names = t if isinstance(t, list) else [t]
    return " or ".join(_TYPE_WORDS.get(n, n) for n in names)


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """The choice ``word`` is most likely a misspelling of, for a "did you mean" hint; None when none is close."""
    found = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.7)
    return found[0] if found else None


_nearest = nearest

#: Words written for a value under another name (compared without case, hyphens, spaces or underscores): a
#: small table, for words no spelling rule finds. "Anticlockwise" is British for counterclockwise (the
#: project's own list calls Swazi casino "anticlockwise"); the nearest spelling, `clockwise`, is its opposite.
VALUE_SYNONYMS = {"anticlockwise": "counterclockwise"}
#: Prefixes that negate the word they stand before: a typed word that is a value behind one of these (or a
#: value that is the typed word behind one) most likely means the opposite, and is never suggested for it
#: (`anticlockwise` is not `clockwise`, `nonclockwise` neither; `ever` is not `never`, nor `one` `none`).
NEGATING_PREFIXES = ("anti", "counter", "non", "not", "no", "un", "dis", "in", "n")
#: The shortest shared start of two words that makes them one stem (`captures`, `capture`; `opponent`,
#: `opponents_top`); it is half the longer word at least (`count` is no stem of `counterclockwise`).
_STEM = 4


def _squashed(text: str) -> str:
    """A value as compared: lower case, without the hyphens, spaces and underscores between its words."""
    return "".join(ch for ch in text.lower() if ch not in "-_ ")


def _words(text: str) -> list[str]:
    return [w for w in text.lower().replace("-", "_").replace(" ", "_").split("_") if w]


def _negates(one: str, other: str) -> bool:
    """``one`` is ``other`` behind a negating prefix (both squashed)."""
    return one != other and one.endswith(other) and one[:-len(other)] in NEGATING_PREFIXES


def _shared_start(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _best(scored: dict[str, int]) -> str | None:
    """The one choice of the highest score above 0; None where none scores or two tie."""
    top = max(scored.values(), default=0)
    best = [c for c, s in scored.items() if s == top]
    return best[0] if top > 0 and len(best) == 1 else None


def nearest_value(word: Any, choices: Iterable[Any]) -> str | None:
    """The allowed value a wrong value ``word`` most likely means, for a "did you mean" hint; None when none is.

    In order: the value written in other case or with hyphens or spaces (`Clockwise`, `when-card-can-capture`);
    a synonym of :data:`VALUE_SYNONYMS`; the one value the typed text begins (`whenever` -> `whenever_possible`,
    `counter` -> `counterclockwise`); the value sharing most of the typed words' stems (`when_card_captures`
    -> `when_card_can_capture`, `possible` -> `whenever_possible`); last a close misspelling (`nevr` -> `never`).
    A value the typed text is behind a negating prefix (:data:`NEGATING_PREFIXES`), or that is the typed text
    behind one, is never suggested: `anticlockwise` is not taken for `clockwise`, nor `ever` for `never`.
    """
    values = [str(c) for c in choices]
    if not isinstance(word, (str, int, float)) or len(str(word)) > 100:   # (a list, a mapping, a page of text)
        return None
    typed = _squashed(str(word))
    if not typed:
        return None
    by_squashed = {_squashed(v): v for v in values}
    if typed in by_squashed:
        return by_squashed[typed]
    synonym = VALUE_SYNONYMS.get(typed)
    if synonym is not None and synonym in values:
        return synonym
    candidates = [v for v in values if not _negates(typed, _squashed(v)) and not _negates(_squashed(v), typed)]
    if len(typed) >= 3:
        begun = [v for v in candidates if _squashed(v).startswith(typed)]
        if len(begun) == 1:
            return begun[0]
    # (A typed word sharing no stem with the value counts against it: `lowest_wins` shares `wins` with
    # `higher_wins`, but means the opposite.)
    stems: dict[str, int] = {}
    for v in candidates:
        stems[v] = 0
        for w in _words(str(word)):
            shared = max((n for u in _words(v) for n in [_shared_start(w, u)]
                          if n >= _STEM and 2 * n >= max(len(w), len(u))), default=0)
            stems[v] += shared or -len(w)
    found = _best(stems)
    if found is not None:
        return found
    # (Closer than the 0.6 of a key's misspelling: a value is a word or two, and at 0.6 `sometimes` read as
    # `sets`, `most` as `lowest`.)
    close = difflib.get_close_matches(str(word).lower(), candidates, n=1, cutoff=0.75)
    return close[0] if close else None


def enum_hint(word: Any, choices: Iterable[Any], description: str | None = None) -> str:
    """The hint for a wrong value of a setting of fixed ``choices``: "did you mean `VALUE`?" where one is
    near (:func:`nearest_value`); else the allowed values, and where the setting's ``description`` says what
    each means, where to read it: a hint always helps."""
    values = [str(c) for c in choices]
    near = nearest_value(word, values)
    if near is not None:
        return f"did you mean `{near}`?"
    listed = "write one of " + ", ".join(f"`{v}`" for v in values)
    if description and all(f"`{v}`" in description for v in values):
        listed += " (`cassino schema` says what each means)"
    return listed


def _section_of(key: str) -> str | None:
    """The top-level section whose settings include ``key`` (one only), or None."""
    found = [name for name, sub in load_schema().get("properties", {}).items()
             if isinstance(sub, dict) and key in sub.get("properties", {})]
    return found[0] if len(found) == 1 else None


def _misspelt_elsewhere(key: str, here: str | None) -> tuple[str, str] | None:
    """(setting, section) where ``key`` is near the name of one setting of another top-level section than
    ``here`` (one only), or None: `on_last_ply` under `capture:` is `sweeps`' `on_last_play` misspelt."""
    found = []
    for name, sub in load_schema().get("properties", {}).items():
        if name != here and isinstance(sub, dict) and sub.get("properties"):
            near = _nearest(key, list(sub["properties"]))
            if near is not None:
                found.append((near, name))
    return found[0] if len(found) == 1 else None


#: The hint where the schema says nothing of a setting itself (an item of a list).
_SCHEMA_HINT = "`cassino schema` shows what each setting takes"


def _diagnostics_for(error: "jsonschema.ValidationError", locate: Locate) -> list[Diagnostic]:
    path: PathT = tuple(error.absolute_path)
    where = dotted(path)
    v = error.validator
    if v == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        out = []
        for key in extra:
            near = _nearest(key, allowed)
            hint = f"did you mean `{near}`?" if near else f"known settings here: {', '.join(allowed)}"
            home = _section_of(key)
            if path and home is not None and home != path[0] and not near:   # a setting of another section, put here
                hint = f"`{key}` is a setting of `{home}`: move it under `{home}:`"
            elif len(path) <= 1 and home is None and not near and \
                    (other := _misspelt_elsewhere(key, str(path[0]) if path else None)):
                # (misspelt and in another section, or at the top level: `on_last_ply` under `capture:`, `targt: 11`,
                # which were given only the place's own settings)
                hint = (f"did you mean `{other[0]}`, a setting of `{other[1]}`? "
                        + (f"move it under `{other[1]}:`" if path else f"put it under `{other[1]}:`, indented"))
            elif not path and home is not None and not near:
                # (a section's settings at the top level: `game:` with nothing after it, `target: 11` not indented
                # under it, which a docs audit was told only was unknown there)
                hint = (f"`{key}` is a setting of `{home}`: indent it under `{home}:`, which stands empty"
                        if home in error.instance and error.instance[home] is None
                        else f"`{key}` is a setting of `{home}`: put it under `{home}:`, indented")
            place = "at the top level" if not path else f"in `{where}`"
            out.append(locate(path + (key,), f"unknown setting `{key}` {place}", key=True, hint=hint))
        return out
    if v == "required":
        # One message for everything missing in one place: a file with only `name:` gets one, not nine.
        absent = [m for m in error.validator_value if m not in error.instance]
        if not path and error.relative_schema_path and error.relative_schema_path[0] == "then":
            # (a setting every file must give, such as `name`, is said by its own message, not as a section)
            absent = [m for m in absent if m not in load_schema().get("required", ())]
            if not absent:
                return []
        missing = ", ".join(f"`{m}`" for m in absent)
        several = "," in missing
        if not path and error.relative_schema_path and error.relative_schema_path[0] == "then":
            text = f"missing section{'s' if several else ''} {missing}: a file without `extends` must give every section"
            return [locate(path, text, hint="add the sections, or start from a bundled variant with `extends: standard`")]
        place = f"in `{where}`" if path else "at the top level of the file"
        return [locate(path, f"missing setting{'s' if several else ''} {missing} {place}", key=bool(path),
                       hint="every rule file starts with `name: my-rules`" if not path and "`name`" in missing else None)]
    if v == "type":
        found = json.dumps(error.instance, ensure_ascii=False)
        if isinstance(error.instance, bool):
            # (`points: yes` was said "not true", a value the author never wrote: a docs audit)
            found += " (YAML reads yes, no, on and off as true and false)"
        return [locate(path, f"`{where}` must be {_type_words(error.validator_value)}, not {found}",
                       hint=error.schema.get("description") or _SCHEMA_HINT)]
    if v == "enum":
        choices = [str(c) for c in error.validator_value]
        hint = enum_hint(error.instance, choices, error.schema.get("description"))
        return [locate(path, f"`{where}` must be one of {', '.join(choices)}; found {json.dumps(error.instance, ensure_ascii=False)}", hint=hint)]
    if v == "oneOf" and path and path[-1] in ("value", "hand", "table"):
        found = json.dumps(error.instance, ensure_ascii=False)
        # (a validation audit's `value: 0` and `value: [2, 2]` were told the kinds of value, which they were)
        numbers = [error.instance] if isinstance(error.instance, int) and not isinstance(error.instance, bool) \
            else error.instance if isinstance(error.instance, list) else None
        if numbers and all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            if any(not 1 <= n <= 99 for n in numbers):
                return [locate(path, f"`{where}` must be from 1 to 99; found {found}",
                               hint="a card with no number value (a court card of plain Casino) has `null`")]
            if len(set(numbers)) < len(numbers):
                return [locate(path, f"`{where}` lists a value twice: {found}", hint="name each value once")]
        return [locate(path, f"`{where}` must be a whole number, a list of whole numbers (the player's choice), or null (no number value); found {found}")]
    if v == "maxLength" and isinstance(error.instance, str):
        return [locate(path, f"`{where}` is {len(error.instance)} characters long; at most {error.validator_value}",
                       hint=error.schema.get("description"))]
    if v in ("minimum", "maximum"):
        word = "at least" if v == "minimum" else "at most"
        return [locate(path, f"`{where}` must be {word} {error.validator_value}; found {error.instance}",
                       hint=error.schema.get("description"))]
    if v == "pattern" and error.validator_value == ONE_LINE:
        # (a line break in a name or symbol the tools print: a rule file could write a line of its own, such as a
        # forged `::error` command, into a CI log; a security audit's find)
        return [locate(path, f"`{where}` must be one line: {json.dumps(error.instance, ensure_ascii=False)} holds "
                             f"a line break", hint=error.schema.get("description"))]
    if v == "pattern":
        return [locate(path, f"`{where}` is not in the expected form: {json.dumps(error.instance, ensure_ascii=False)} (expected to match {error.validator_value})", hint=error.schema.get("description"))]
    if v == "propertyNames":
        return [locate(path, f"name {json.dumps(error.instance)} in `{where}` must be lower case letters, digits and underscores")]
    if v == "uniqueItems" and isinstance(error.instance, list):
        # (jsonschema's own words were Python's: "['game.target', 'game.target'] has non-unique elements")
        seen: list[Any] = []
        twice = None
        for x in error.instance:
            if x in seen:
                twice = x
                break
            seen.append(x)
        return [locate(path, f"`{where}` lists {json.dumps(twice, ensure_ascii=False)} more than once",
                       hint="keep each entry once")]
    if v == "minItems" and isinstance(error.instance, list):
        return [locate(path, f"`{where}` needs at least {error.validator_value} entr"
                             f"{'y' if error.validator_value == 1 else 'ies'}; found {len(error.instance)}",
                       hint=error.schema.get("description") or _SCHEMA_HINT)]
    if v == "minLength" and isinstance(error.instance, str):
        return [locate(path, f"`{where}` is empty" if not error.instance else
                       f"`{where}` is {len(error.instance)} characters long; at least {error.validator_value}",
                       hint=error.schema.get("description") or _SCHEMA_HINT)]
    if v in ("minItems", "uniqueItems"):
        return [locate(path, f"`{where}`: {error.message}", hint=_SCHEMA_HINT)]
    if error.context:
        return [d for sub in error.context for d in _diagnostics_for(sub, locate)][:1]
    return [locate(path, f"`{where}`: {error.message}")]


def validate(data: Any, locate: Locate) -> list[Diagnostic]:
    """Every schema problem in ``data``, in file order, each located by ``locate``."""
    if not isinstance(data, dict):
        return [locate((), "a rule file is a mapping of settings (name: ..., deck: ..., ...)")]
    errors = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    out: list[Diagnostic] = []
    for error in errors:
        if error.validator == "if":
            continue
        out.extend(_diagnostics_for(error, locate))
    seen: set[tuple[int, int, str]] = set()
    unique = []
    for d in sorted(out, key=lambda d: (d.line, d.column)):
        k = (d.line, d.column, d.message)
        if k not in seen:
            seen.add(k)
            unique.append(d)
    return unique


def _fill(schema: dict[str, Any], value: Any) -> Any:
    if schema.get("type") == "object" and isinstance(value, dict):
        out = dict(value)
        for key, sub in schema.get("properties", {}).items():
            if key not in out and "default" in sub:
                out[key] = copy.deepcopy(sub["default"])
            if key in out:
                out[key] = _fill(sub, out[key])
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key in out:
                if key not in schema.get("properties", {}):
                    out[key] = _fill(extra, out[key])
        return out
    if schema.get("type") == "array" and isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_fill(schema["items"], v) for v in value]
    return value


def with_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with every setting it leaves out filled from the schema's defaults."""
    return _fill(load_schema(), data)

"""The rule files shipped with the package, by name, without loading them.

Bundled variants (``variants/``) and house-rule examples (``examples/``) travel
in the wheel, so a name such as ``standard`` or ``fifty`` works from any folder
after ``pip install .``. Listing them only reads each file's ``description``
(following ``extends`` when a file has none): checking every file against the
schema just to print one line each would make ``cassino list`` slow.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..paths import EXAMPLES_DIR, VARIANTS_DIR

_EXAMPLE_REF = re.compile(r"^(?:.*[/\\])?examples[/\\]([a-z0-9][a-z0-9-]*)(?:\.ya?ml)?$|^([a-z0-9][a-z0-9-]*)$")


def bundled_names() -> list[str]:
    """The names of the variants shipped with the package."""
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


def example_names() -> list[str]:
    """The names of the house-rule examples shipped with the package."""
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.yaml")) if EXAMPLES_DIR.is_dir() else []


def find_example(ref: str) -> Path | None:
    """The shipped example ``ref`` names (``fifty``, ``examples/fifty.yaml``), or None."""
    m = _EXAMPLE_REF.fullmatch(ref)   # (not `match`: its `$` matches before a last line break, "fifty\n")
    if not m:
        return None
    path = EXAMPLES_DIR / f"{m.group(1) or m.group(2)}.yaml"
    return path if os.path.isfile(path) else None   # (never raises: a 300-character name is no file)


def _shipped(name: str) -> Path | None:
    path = VARIANTS_DIR / f"{name}.yaml"
    return path if path.is_file() else find_example(name)


def describe(name: str) -> str:
    """The one-line description of a shipped variant or example ('' when it has none)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for _ in range(16):   # an `extends` chain; cycles are reported by `cassino validate`, not here
        path = _shipped(name)
        if path is None:
            return ""
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader
        if not isinstance(data, dict):
            return ""
        if isinstance(data.get("description"), str) and data["description"]:
            return data["description"]
        name = data.get("extends")
        if not isinstance(name, str):
            return ""
    return ""


def shipped_name(ref: str) -> bool:
    """Whether ``ref`` names a bundled variant or a shipped house-rule example."""
    return ref in bundled_names() or find_example(ref) is not None


def nearest_name(ref: str, names: list[str]) -> str | None:
    """The name of ``names`` that ``ref`` most likely means, or None. A name written as people say it comes first:
    in any case, with spaces or underscores for hyphens, with or without the game's word for Casino (`royal casino`,
    `Royal-Casino` and `royal_casino` are `royal`: a docs audit was offered `krypkasino` for the first), or the
    first words of a longer name (`swazi`); then the closest spelling."""
    import difflib

    norm = re.sub(r"[\s_]+", "-", ref.strip().lower())
    if norm in names:
        return norm
    for word in ("-casino", "-cassino", "-kasino"):
        if norm.endswith(word) and norm[: -len(word)] in names:
            return norm[: -len(word)]
    longer = [n for n in names if n.startswith(norm + "-")]
    if norm and longer:
        return min(longer, key=len)   # (`swazi`: the variant, not its house rule `swazi-tops-taken`)
    near = difflib.get_close_matches(norm, names, n=1) or difflib.get_close_matches(ref, names, n=1)
    return near[0] if near else None


def did_you_mean(ref: str) -> str:
    """"did you mean `NAME`? " for the shipped name nearest ``ref``, or "" where none is near."""
    near = nearest_name(ref, bundled_names() + example_names())
    return f"did you mean `{near}`? " if near else ""

"""A variant's rules carried inside a research game's parameters.

Why: OpenSpiel serializes a game as its parameter string. A rule file's *path* in
that string would reload under whatever the file says later, or not at all on
another machine. So a variant given as a file is recorded as its resolved rules
(the settings with every default filled in, ``Rules.data``), compressed and
written in URL-safe base64 behind ``rules:``. OpenSpiel's parameter parser keeps
such a value as one string (no commas, brackets or ``=``), and the rules are
checked on the way back in exactly as a game record's are (schema, then meaning).
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

from ...errors import CassinoError, Diagnostic
from ...language.rules import Rules

PREFIX = "rules:"


class RecordedRulesError(CassinoError):
    """A ``rules:`` parameter that is not a variant's recorded rules."""


def encode(rules: Rules) -> str:
    """The parameter value that carries ``rules`` (deterministic: same rules, same text)."""
    text = json.dumps(rules.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    packed = base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    return PREFIX + packed.rstrip("=")


def is_recorded(variant: str) -> bool:
    return variant.startswith(PREFIX)


def decode(value: str) -> Rules:
    """The rules a ``rules:`` value carries; RecordedRulesError (one line) when it is damaged."""
    from ...language import schema, semantics

    packed = value[len(PREFIX):]
    hint = "pass the variant's name or rule file again, or the game string exactly as it was saved"
    try:
        raw = zlib.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)))
        data: Any = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        raise RecordedRulesError(f"variant=rules:... is damaged (not compressed rule data); {hint}") from None
    if not isinstance(data, dict):
        raise RecordedRulesError(f"variant=rules:... holds no rules mapping; {hint}")
    problems: list[str] = []

    def locate(_path: Any, message: str, **_: Any) -> Diagnostic:
        problems.append(message)
        return Diagnostic("variant=rules:...", 1, 1, message)

    if schema.validate(data, locate):
        raise RecordedRulesError(f"variant=rules:... holds rules the schema refuses: {problems[0]}")
    try:
        full = schema.with_defaults(data)
        rules = Rules.from_data(full)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise RecordedRulesError(f"variant=rules:... holds incomplete rules; {hint}") from None
    if semantics.check(full, rules, locate):
        raise RecordedRulesError(f"variant=rules:... holds rules that contradict themselves: {problems[0]}")
    return rules

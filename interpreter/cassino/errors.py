"""Errors a rule author or a player can act on.

Every problem found in a file becomes a :class:`Diagnostic` that knows the file,
line and column, so it prints as ``FILE:LINE:COL: message`` followed by the
offending line and a caret, the form editors and CI problem matchers read.
Errors that stop a command subclass :class:`CassinoError` (a ``ValueError``),
so front ends catch one family and never show a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

#: Characters a terminal acts on rather than shows: C0 and C1 controls (ESC starts a sequence that can
#: clear the screen or set the window title, BEL rings, CR overwrites the line) and the bidirectional
#: overrides that make text read in another order than it is stored. Line feed and tab are kept.
_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

#: The most of a source line shown under a message, in characters: the rest is cut around the column.
SHOWN_LINE = 100
#: The most problems one error reports; the rest are counted.
MAX_DIAGNOSTICS = 100


def _escaped(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on written as an escape (``\\x1b``).

    The one helper every printer of file-supplied text (a description, a suit symbol, a key, a
    case name, a record's field) goes through, so no file can clear a screen, set a window's title
    or hide what it says; line feeds and tabs stay as they are.
    """
    return _UNSHOWABLE.sub(_escaped, text) if _UNSHOWABLE.search(text) else text


_LINE_BREAKS = re.compile("[\n\r\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """:func:`printable`, and a line break written as an escape too (``\\n``): for a name that heads a line of
    its own, such as a file's in ``FILE:LINE:COL: message``, where a break would let the name write a line of its
    choosing (a forged problem, or a CI command such as ``::error``) into a log."""
    said = printable(text)
    return _LINE_BREAKS.sub(lambda m: repr(m.group())[1:-1], said) if _LINE_BREAKS.search(said) else said


#: What JSON output leaves raw that a terminal acts on (json.dumps escapes the C0 controls itself).
_UNSHOWABLE_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable_json(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with DEL, the C1 controls and the bidirectional
    overrides written as ``\\u`` escapes: the same data to a reader of JSON, nothing a terminal acts on."""
    return _UNSHOWABLE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def shown_line(source: str, column: int, width: int = SHOWN_LINE) -> tuple[str, int]:
    """A source line as shown under a message, and the caret's offset in it.

    Control characters escaped, tabs as one space (so the caret stays under its column), and a
    line longer than ``width`` cut to ``width`` characters around the column, an ellipsis marking
    each cut: one bad key on a line of 1.8 MB is shown in one short line.
    """
    raw = source.rstrip("\r\n")
    col = min(max(column - 1, 0), len(raw))
    start = max(col - width, 0)   # never more than ``width`` characters either side is looked at
    before = printable(raw[start:col].expandtabs(1))
    after = printable(raw[col:col + width + 1].expandtabs(1))
    cut_before, cut_after = start > 0, col + width + 1 < len(raw)
    if not (cut_before or cut_after) and len(before) + len(after) <= width:
        return before + after, len(before)
    keep = width // 3
    if cut_before or len(before) > keep:
        before, cut_before = "..." + before[len(before) - keep + 3:], True
    room = width - len(before)
    if cut_after or len(after) > room:
        after = after[: room - 3] + "..."
    return before + after, len(before)


@dataclass(frozen=True)
class Diagnostic:
    """One problem at one place in one file.

    ``line`` and ``column`` count from 1, as editors do; 0 means "the whole file".
    ``hint`` says how to fix it (for an unknown key: the nearest valid key).
    ``source_line`` is the text of the offending line, shown under the message.
    ``severity`` is ``"error"`` (the file cannot be used) or ``"warning"`` (it can, but probably not as
    its author means: a game that may never end); a warning prints as ``FILE:LINE:COL: warning: ...``.
    """

    file: str
    line: int
    column: int
    message: str
    hint: str | None = None
    source_line: str | None = None
    severity: str = "error"

    def format(self, *, caret: bool = True, column: bool = True) -> str:
        """The problem as ``FILE:LINE:COL: message`` (``FILE: message`` for the whole file), the line and
        a caret under it, and the hint. ``column=False`` writes ``FILE:LINE: message`` (``FILE:0:`` for the
        whole file), the form the scenario contract gives ``cassino check``'s bad files; the caret still
        marks the column."""
        if not column:
            where = f"{self.file}:{self.line}"
        else:
            where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        kind = "warning: " if self.severity == "warning" else ""
        text = f"{one_line(where)}: {kind}{printable(self.message)}"
        if caret and self.source_line is not None and self.line:
            shown, at = shown_line(self.source_line, self.column)
            text += f"\n    {shown}\n    {' ' * at}^"
        if self.hint:
            text += f"\n    hint: {printable(self.hint)}"
        return text

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "hint": self.hint,
        }


class CassinoError(ValueError):
    """Base of every error the package raises on bad input (a ``ValueError``): catch it to
    report any of them::

        >>> try:
        ...     load_rules("nosuch")
        ... except CassinoError as e:
        ...     print(str(e).splitlines()[0])
        nosuch: no bundled variant or file named `nosuch`
    """


class PositionTooLargeError(CassinoError):
    """A position whose legal moves are more than the engine lists within its budget
    (``Engine.move_budget``): the moves exist, but listing them all would take too long.
    A player still chooses one step by step (``cassino.engine.choices``), and ``Engine.is_legal``
    and ``Engine.play`` still check a given move."""

    @property
    def overflowed(self) -> str:
        """What overflowed, without the engine's advice to a player (``choose the move step by step, or
        type it``), which no command but the game itself can follow: the message up to its first ``;``
        outside brackets."""
        text, depth = str(self), 0
        for k, char in enumerate(text):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if char == ";" and depth <= 0:
                return text[:k]
        return text


@dataclass
class RuleFileError(CassinoError):
    """A rule file (or something it extends) could not be loaded; holds every problem found,
    each with its file, line, column, message and hint (``diagnostics``)::

        >>> try:
        ...     load_rules("nosuch")
        ... except RuleFileError as e:
        ...     print(e.diagnostics[0].message)
        no bundled variant or file named `nosuch`
    """

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.diagnostics) > MAX_DIAGNOSTICS:   # a file of 20,000 unknown keys: the first hundred say it
            rest = len(self.diagnostics) - MAX_DIAGNOSTICS
            first = self.diagnostics[0]
            self.diagnostics = self.diagnostics[:MAX_DIAGNOSTICS] + [
                Diagnostic(first.file, 0, 0, f"and {rest:,} more problems: fix these first")]
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


@lru_cache(maxsize=4)
def _lines(text: str) -> list[str]:
    """A file's lines, split once however many problems it has (not splitlines: a form feed or U+2028
    is no line break to YAML's marks)."""
    return text.split("\n")


def line_of(text: str, line: int) -> str | None:
    """The text of 1-based ``line`` in ``text``, for showing under a message."""
    lines = _lines(text)
    if 1 <= line <= len(lines) and (line < len(lines) or lines[-1]):
        return lines[line - 1].rstrip("\r")
    return None


def diagnostic_at(path: str | Path, text: str | None, line: int, column: int, message: str,
                  hint: str | None = None, severity: str = "error") -> Diagnostic:
    """A diagnostic with the offending line taken from ``text``."""
    return Diagnostic(str(path), line, column, message, hint,
                      line_of(text, line) if text is not None else None, severity)

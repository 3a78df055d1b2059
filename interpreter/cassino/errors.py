"""Errors a rule author or a player can act on.

Every problem found in a file becomes a :class:`Diagnostic` that knows the file,
line and column, so it prints as ``FILE:LINE:COL: message`` followed by the
offending line and a caret, the form editors and CI problem matchers read.
Errors that stop a command subclass :class:`CassinoError` (a ``ValueError``),
so front ends catch one family and never show a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Diagnostic:
    """One problem at one place in one file.

    ``line`` and ``column`` count from 1, as editors do; 0 means "the whole file".
    ``hint`` says how to fix it (for an unknown key: the nearest valid key).
    ``source_line`` is the text of the offending line, shown under the message.
    """

    file: str
    line: int
    column: int
    message: str
    hint: str | None = None
    source_line: str | None = None

    def format(self, *, caret: bool = True) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        text = f"{where}: {self.message}"
        if caret and self.source_line is not None and self.line:
            shown = self.source_line.rstrip("\n").expandtabs(1)
            text += f"\n    {shown}\n    {' ' * max(self.column - 1, 0)}^"
        if self.hint:
            text += f"\n    hint: {self.hint}"
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
    """Base of every error the package raises on bad input."""


class PositionTooLargeError(CassinoError):
    """A position whose legal moves are more than the engine lists within its budget
    (``Engine.move_budget``): the moves exist, but listing them all would take too long.
    A player still chooses one step by step (``cassino.engine.choices``), and ``Engine.is_legal``
    and ``Engine.play`` still check a given move."""



@dataclass
class RuleFileError(CassinoError):
    """A rule file (or something it extends) could not be loaded; holds every problem found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


def line_of(text: str, line: int) -> str | None:
    """The text of 1-based ``line`` in ``text``, for showing under a message."""
    lines = text.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def diagnostic_at(path: str | Path, text: str | None, line: int, column: int, message: str,
                  hint: str | None = None) -> Diagnostic:
    """A diagnostic with the offending line taken from ``text``."""
    return Diagnostic(str(path), line, column, message, hint,
                      line_of(text, line) if text is not None else None)

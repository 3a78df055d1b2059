"""`cassino validate` problems in the forms CI systems read, so a pull request shows them on the line.

- ``github``: GitHub Actions workflow commands (``::error file=F,line=L,col=C::message``, and
  ``::warning`` for a warning), printed to standard output, which the runner turns into annotations.
- ``sarif``: a SARIF 2.1.0 log, the format code-scanning services (GitHub's among them) upload; an error
  is a result of rule ``cassino/rule-file`` at level ``error``, a warning of ``cassino/rule-warning``.

Under ``validate --strict`` a warning fails the run, and is said as what failed it (``strict``): an
``::error`` command, a result of ``cassino/rule-warning`` at level ``error``, its message beginning
:data:`STRICT` so that a reader sees why a warning is an error.

A problem's file is named as the author wrote it; a bundled parent shown as
``standard (/path/variants/standard.yaml)`` is reduced to its path, made relative
to the working directory when it lies inside it.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import quote

from ...errors import Diagnostic

RULE_ID = "cassino/rule-file"
#: Rules that play, but may not as their author means (``semantics.warnings``): a game that may never end.
WARNING_ID = "cassino/rule-warning"
_DISPLAY = re.compile(r"^\S+ \((.+)\)$")
#: Before a warning's message where ``validate --strict`` fails the run on it.
STRICT = "warning, refused under --strict: "


def file_of(display: str) -> str:
    """The file a diagnostic names, as a path (relative to the working directory when inside it)."""
    m = _DISPLAY.match(display)
    path = Path(m.group(1) if m else display)
    if path.is_absolute():
        try:
            return path.relative_to(Path.cwd()).as_posix()
        except ValueError:
            return path.as_posix()
    return path.as_posix()


def _message(d: Diagnostic, strict: bool = False) -> str:
    said = STRICT + d.message if strict and d.severity == "warning" else d.message
    return said + (f"\nhint: {d.hint}" if d.hint else "")


def as_failing(d: Diagnostic) -> Diagnostic:
    """A warning as ``validate --strict`` reports it among the errors: marked (:data:`STRICT`)."""
    return replace(d, message=STRICT + d.message, severity="error") if d.severity == "warning" else d


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github(diagnostics: Sequence[Diagnostic], *, strict: bool = False) -> str:
    """One workflow command a problem; the empty string when there are none. ``strict``: the warnings
    fail the run (``validate --strict``), and are errors."""
    lines = []
    for d in diagnostics:
        props = [f"file={_escape_property(file_of(d.file))}"]
        if d.line:
            props += [f"line={d.line}", f"col={max(d.column, 1)}"]
        props.append("title=" + _escape_property("cassino validate"))
        kind = "warning" if d.severity == "warning" and not strict else "error"
        lines.append(f"::{kind} {','.join(props)}::{_escape_data(_message(d, strict))}")
    # (a file name that is not UTF-8 holds lone surrogates: said `\udcff`, as the text says it, not written raw,
    # which the runner cannot read as UTF-8, or an error where standard output is strict UTF-8)
    said = "\n".join(lines) + ("\n" if lines else "")
    return said.encode("utf-8", "backslashreplace").decode("utf-8")


def _uri(display: str) -> str:
    """The file as SARIF's ``artifactLocation.uri``, a URI reference (RFC 3986): an absolute path as a
    ``file:`` URI, a relative one percent-encoded (an audit's `sp ace#1%.yaml` was written raw: a space and a
    bare ``%`` are not allowed in a URI, and ``#`` began a fragment; `c:d.yaml` read as the scheme ``c:``)."""
    path = file_of(display)
    if Path(path).is_absolute():
        return Path(path).as_uri()
    # (the name's bytes as the file system has them: a name that is not UTF-8 keeps its bytes, `%FF`, as
    # `as_uri` keeps them, rather than failing on the character that stands for them)
    return quote(os.fsencode(path), safe="/")


def sarif(diagnostics: Sequence[Diagnostic], version: str, *, strict: bool = False) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one result a problem. ``strict``: the warnings fail the run (``validate
    --strict``): still results of ``cassino/rule-warning``, at level ``error``."""
    results = []
    for d in diagnostics:
        location: dict[str, Any] = {"artifactLocation": {"uri": _uri(d.file)}}
        if d.line:
            column = max(d.column, 1)
            region: dict[str, Any] = {"startLine": d.line, "startColumn": column}
            location["region"] = region
            if d.source_line is not None:
                # A region's snippet is the text within it: from the column to the line's end (a region without
                # an end column runs to the end of its line); the whole line is its context region.
                region["snippet"] = {"text": d.source_line[column - 1:]}
                if column > 1:
                    location["contextRegion"] = {"startLine": d.line, "snippet": {"text": d.source_line}}
        warning = d.severity == "warning"
        results.append({"ruleId": WARNING_ID if warning else RULE_ID, "ruleIndex": 1 if warning else 0,
                        "level": "warning" if warning and not strict else "error",
                        "message": {"text": _message(d, strict)}, "locations": [{"physicalLocation": location}]})
    driver = {
        "name": "cassino", "version": version, "semanticVersion": version,
        "rules": [{"id": RULE_ID, "name": "RuleFile",
                   "shortDescription": {"text": "A Cassino rule file that cannot be loaded or cannot be played"},
                   "fullDescription": {"text": "The file is not safe YAML, its `extends` does not resolve, a "
                                               "setting is unknown or of the wrong type, or the rules cannot be "
                                               "played (a deal the deck cannot make, a target nothing reaches)."},
                   "defaultConfiguration": {"level": "error"}},
                  {"id": WARNING_ID, "name": "RuleWarning",
                   "shortDescription": {"text": "A Cassino rule file that plays, but probably not as meant"},
                   # (Every kind `validate` warns of, as docs/authors.md lists them; an audit found the first alone.)
                   "fullDescription": {"text": "The rules load and can be played, but probably not as their "
                                               "author means: a game won by the lowest total where nothing "
                                               "makes a player capture (it may never end); a house rule's "
                                               "setting its rules never read; one deal where nobody draws (part "
                                               "of the pack is never played); one group a play with every "
                                               "equal loose card taken together; claiming where each hand is "
                                               "a game on its own."},
                   "defaultConfiguration": {"level": "warning"}}],
    }
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "results": results, "columnKind": "unicodeCodePoints"}]}

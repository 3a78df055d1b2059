"""Safe YAML loading that remembers where every value was written.

Rule and scenario files are composed with PyYAML's SafeLoader into nodes and
turned into plain values here, so nothing in a file is ever executed, and each
value keeps its line and column for error messages. Refused, each with a
FILE:LINE:COL message: bytes that are not UTF-8, files over 1 MB, syntax
errors, characters YAML does not allow (NUL, ESC and the other control
characters, found before the YAML reader sees them: its own error names no line),
duplicate keys, explicit tags (``!!python/...``), merge keys, alias
expansion beyond a bound (a "billion laughs" file), several documents, and
lists or mappings nested more than MAX_DEPTH levels deep, however deep (found from
the parser's events before any tree is built, so no reader of the values can
recurse too far).
Files are read through :mod:`cassino.files`: regular files only, at most
MAX_BYTES read.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Diagnostic, RuleFileError, diagnostic_at
from ..files import FileProblem, read_bytes

PathT = tuple[str | int, ...]

MAX_BYTES = 1_000_000
MAX_NODES = 100_000
#: Lists and mappings inside one another; the bundled variants and scenarios use 7.
MAX_DEPTH = 32
#: The longest whole number read, in digits: more than any count, points or seed needs (a 64-bit seed has 20).
MAX_DIGITS = 30
_CORE = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map")}


@dataclass(frozen=True)
class Document:
    """A loaded file: its plain data, its text, and where each value stands in it."""

    path: str
    text: str
    data: Any
    key_positions: Mapping[PathT, tuple[int, int]]
    value_positions: Mapping[PathT, tuple[int, int]]

    def position(self, path: PathT, *, key: bool = False) -> tuple[int, int]:
        """(line, column) of ``path``; the nearest enclosing value when it is not in the file."""
        path = tuple(path)
        if key and path in self.key_positions:
            return self.key_positions[path]
        while path:
            if path in self.value_positions:
                return self.value_positions[path]
            if path in self.key_positions:
                return self.key_positions[path]
            path = path[:-1]
        return self.value_positions.get((), (1, 1))

    def diagnostic(self, path: PathT, message: str, *, key: bool = False, hint: str | None = None,
                   severity: str = "error") -> Diagnostic:
        line, col = self.position(path, key=key)
        return diagnostic_at(self.path, self.text, line, col, one_line(message),
                             None if hint is None else one_line(hint), severity)


def one_line(text: str) -> str:
    """``text`` (a message that quotes a file's words: a key, an `extends`, a value) with its line breaks written
    as ``\\n``: a problem is said in one line, so a quoted value cannot add a line of its own to the output (a forged
    ``FILE:LINE:COL: ...`` problem, or a CI runner's command such as ``::error::`` or ``::add-mask::``)."""
    return text if "\n" not in text and "\x85" not in text and "\u2028" not in text else \
        text.replace("\n", "\\n").replace("\x85", "\\x85").replace("\u2028", "\\u2028")


def _fail(display: str, text: str | None, line: int, col: int, message: str, hint: str | None = None) -> RuleFileError:
    return RuleFileError([diagnostic_at(display, text, line, col, message, hint)])


def _wide_encoding(raw: bytes) -> str:
    """"UTF-16" or "UTF-32" where ``raw`` is plainly text in one (its byte order mark, or a NUL byte beside each
    letter of plain text); "" otherwise."""
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    head = raw[:64]
    if len(head) >= 8 and head.count(0) * 4 >= len(head) * 3:
        return "UTF-32"
    if len(head) >= 4 and (head[0::2].count(0) == len(head[0::2]) or head[1::2].count(0) == len(head[1::2])):
        return "UTF-16"
    return ""


def _decode(raw: bytes, display: str) -> str:
    if len(raw) > MAX_BYTES:
        raise _fail(display, None, 1, 1, f"the file is {len(raw):,} bytes; rule and scenario files are limited to {MAX_BYTES:,}")
    wide = _wide_encoding(raw)
    if wide:   # (a validation audit's UTF-16 file was told of a NUL to delete, or of byte 0xff)
        raise _fail(display, None, 1, 1, f"the file is {wide}, not UTF-8", hint="save the file as UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        before = raw[: e.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise _fail(display, None, line, col, f"the file is not UTF-8: byte 0x{raw[e.start]:02x} cannot be read",
                    hint="save the file as UTF-8") from None
    return text[1:] if text.startswith("\ufeff") else text


def load_yaml(path: str | Path, *, display: str | None = None, unlinked: bool = False) -> Document:
    """Load a file from disk; RuleFileError for anything that is not a clean YAML document. ``unlinked``:
    ``path`` is a real path that was checked, read without following any link (``files.read_bytes``)."""
    name = display or str(path)
    try:
        raw = read_bytes(path, MAX_BYTES, what="a rule or scenario file", unlinked=unlinked)
    except FileProblem as e:
        raise _fail(name, None, 0, 0, e.reason) from None
    return load_yaml_text(raw, name)


#: libyaml's composer when PyYAML was built with it: ten times faster on a variant file, the same nodes.
_FAST = getattr(yaml, "CSafeLoader", None)


#: What YAML 1.1 lets a file hold (PyYAML's reader refuses the rest): tab, line breaks, printable text.
_NOT_ALLOWED = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
#: Half of a UTF-16 pair: a double-quoted escape (`"\ud800"`) makes one, which no UTF-8 text can hold.
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "backspace", 0x0B: "vertical tab", 0x0C: "form feed",
                  0x1B: "ESC", 0x7F: "DEL"}


def _check_characters(text: str, display: str) -> None:
    """Refuse, at its line and column, the first character a YAML file may not hold.

    PyYAML's reader refuses them too, but as a ``ReaderError`` with a character offset and no
    line, which no front end caught: every command ended in a traceback.
    """
    m = _NOT_ALLOWED.search(text)
    if m is None:
        return
    at = m.start()
    code = ord(m.group())
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    kind = _CONTROL_NAMES.get(code, "a control character" if code < 0xA0 else "a non-character")
    raise _fail(display, text, line, col, f"U+{code:04X} ({kind}) is not allowed in a YAML file",
                hint="delete it (an editor that shows invisible characters finds it); inside double quotes "
                     "YAML writes such a character as an escape, e.g. \"\\t\"")


def _depth_events(text: str, loader: type) -> Iterator[yaml.Event]:
    return yaml.parse(text, Loader=loader)  # type: ignore[no-any-return]


def _check_depth(text: str, display: str) -> None:
    """Refuse lists and mappings nested deeper than MAX_DEPTH, at the first one too deep.

    Read from the parser's event stream, which keeps no stack of its own, so a file of
    100,000 ``[`` costs no recursion. libyaml is asked first (fast); when it stops at an
    error (its own nesting limit of 1,000 levels among them, which it reports at its
    scanner's look-ahead, before the events we count) the pure-Python parser, which has
    no such limit and reads one event at a time, scans again. A syntax error ends the
    scan and is reported by :func:`_compose` in its usual words.
    """
    loaders = [_FAST, yaml.SafeLoader] if _FAST is not None else [yaml.SafeLoader]
    for loader in loaders:
        depth = 0
        try:
            for event in _depth_events(text, loader):
                if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                    depth += 1
                    if depth > MAX_DEPTH:
                        mark = event.start_mark
                        raise _fail(display, text, mark.line + 1, mark.column + 1,
                                    f"lists and mappings are nested too deeply (more than {MAX_DEPTH} levels)",
                                    hint="a rule or scenario file needs only a few levels; is a bracket left open?")
                elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                    depth -= 1
            return
        except yaml.YAMLError:
            continue   # libyaml: scan again in pure Python; pure Python: _compose words the error


def _compose(text: str, display: str) -> Node | None:
    if _FAST is not None:
        fast = _FAST(text)
        try:
            return fast.get_single_node()
        except yaml.YAMLError:
            pass  # read it again below, so the error is worded as PyYAML's own loader words it
        finally:
            fast.dispose()
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as e:   # checked before by _check_characters; this is a last guard
        raise _fail(display, text, 1, 1, f"YAML error: {e.reason}") from None
    try:
        node = loader.get_single_node()
    except yaml.composer.ComposerError as e:
        mark = e.problem_mark or e.context_mark
        if "expected a single document" in str(e):
            raise _fail(display, text, mark.line + 1 if mark else 1, mark.column + 1 if mark else 1,
                        "the file holds more than one YAML document (`---`)",
                        hint="a rule or scenario file is one document") from None
        raise _fail(display, text, mark.line + 1 if mark else 1, mark.column + 1 if mark else 1,
                    f"YAML error: {e.problem}") from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        if e.context_mark is not None and mark is not None and mark.index >= len(text.rstrip()):
            mark = e.context_mark  # at the end of the file: point where the unclosed part began
        problem = (e.problem or "cannot read this").rstrip(".")
        context = f" ({e.context})" if e.context else ""
        hint = "check indentation, colons and quotes on this line or the one before"
        if "'\\t'" in problem or "\t" in problem:
            hint = "YAML indents with spaces, never tabs: replace the tab with spaces (two a level)"
        elif "but got '['" in problem and "flow sequence" in context:
            # (a move naming a build, unquoted in a list: an audit got the general hint)
            hint = ("text with brackets inside a [...] list needs quotes: write each item in double quotes, e.g. "
                    "[\"2H build 8 on [3C 3D]\", \"KD trail\"]")
        elif problem == "mapping values are not allowed here":
            hint = ("a setting is indented more than the one above it (settings of one section line up), or a "
                    "value holds `: ` (quote the value)")
        raise _fail(display, text, mark.line + 1 if mark else 1, mark.column + 1 if mark else 1,
                    f"YAML syntax error: {problem}{context}", hint=hint) from None
    except yaml.YAMLError as e:
        raise _fail(display, text, 1, 1, f"YAML error: {e}") from None
    finally:
        loader.dispose()
    return node


def load_yaml_text(text_or_bytes: str | bytes, display: str) -> Document:
    text = _decode(text_or_bytes, display) if isinstance(text_or_bytes, bytes) else text_or_bytes
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise _fail(display, None, 1, 1, f"the file is larger than {MAX_BYTES:,} bytes")
    _check_characters(text, display)
    _check_depth(text, display)
    node = _compose(text, display)
    if node is None:
        return Document(display, text, None, {}, {(): (1, 1)})
    builder = _Builder(display, text)
    builder.count(node)
    data = builder.value(node, ())
    if builder.duplicates:   # (every key given twice in one run, as the other mistakes of a kind are)
        raise RuleFileError(builder.duplicates)
    return Document(display, text, data, builder.keys, builder.values)


_INT = re.compile(r"^[-+]?(0|[1-9][0-9_]*)$")


def _short(raw: str) -> str:
    """A value as a message quotes it, cut when long."""
    return repr(raw) if len(raw) <= 40 else repr(raw[:30]) + f"... ({len(raw):,} characters)"


class _Builder:
    def __init__(self, display: str, text: str) -> None:
        self.display, self.text = display, text
        self.keys: dict[PathT, tuple[int, int]] = {}
        self.values: dict[PathT, tuple[int, int]] = {}
        self._sizes: dict[int, int] = {}
        #: Keys given twice, each said where it is given again (the file is refused once it has been read through).
        self.duplicates: list[Diagnostic] = []

    def fail(self, node: Node, message: str, hint: str | None = None) -> RuleFileError:
        return _fail(self.display, self.text, node.start_mark.line + 1, node.start_mark.column + 1, message, hint)

    def count(self, root: Node) -> int:
        """Nodes after alias expansion, memoized per node object, refusing past MAX_NODES."""
        stack: list[tuple[Node, bool]] = [(root, False)]
        active: set[int] = set()
        shared = False   # (a node met twice: an alias)
        while stack:
            node, done = stack.pop()
            key = id(node)
            if key in self._sizes:
                shared = True
                continue
            children = self._children(node)
            if not done:
                if key in active:
                    raise self.fail(node, "a recursive alias: this anchor contains itself")
                active.add(key)
                stack.append((node, True))
                shared = shared or any(id(c) in self._sizes for c in children)
                stack.extend((c, False) for c in children if id(c) not in self._sizes)
                continue
            active.discard(key)
            size = 1 + sum(self._sizes[id(c)] for c in children)
            if size > MAX_NODES and shared:
                raise self.fail(node, f"aliases expand to more than {MAX_NODES:,} values",
                                hint="a rule file does not need deep anchors and aliases")
            if size > MAX_NODES:   # (no alias: an audit's scenario file of 6,000 cases was said to have them)
                raise self.fail(node, f"the file holds more than {MAX_NODES:,} values (lists, mappings and their "
                                      f"items)", hint="split it into several smaller files")
            self._sizes[key] = size
        return self._sizes[id(root)]

    @staticmethod
    def _children(node: Node) -> list[Node]:
        if isinstance(node, SequenceNode):
            return list(node.value)
        if isinstance(node, MappingNode):
            return [n for pair in node.value for n in pair]
        return []

    def value(self, node: Node, path: PathT) -> Any:
        self.values.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if node.tag not in _ALLOWED_TAGS:
            if node.tag == _CORE + "merge":
                raise self.fail(node, "merge keys (`<<`) are not allowed", hint="use `extends` to build on another file")
            if node.tag == _CORE + "timestamp" and isinstance(node, ScalarNode):
                # (a validation audit's `description: 2024-01-01` was told to remove a tag it never wrote)
                raise self.fail(node, f"YAML reads {_short(node.value)} as a date, which no setting takes",
                                hint=f"put it in quotes: \"{node.value}\"")
            raise self.fail(node, f"tags are not allowed in rule files: {node.tag}",
                            hint="remove the tag; values are plain text, numbers, lists and mappings")
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        if isinstance(node, SequenceNode):
            return [self.value(child, path + (i,)) for i, child in enumerate(node.value)]
        assert isinstance(node, MappingNode)
        out: dict[Any, Any] = {}
        first: dict[Any, Node] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _CORE + "merge":
                raise self.fail(key_node, "merge keys (`<<`) are not allowed", hint="use `extends` to build on another file")
            if not isinstance(key_node, ScalarNode) or key_node.tag not in _ALLOWED_TAGS:
                raise self.fail(key_node, "a key must be plain text or a number")
            key = self.scalar(key_node)
            if isinstance(key, (float, bool)) or key is None:
                key = key_node.value
            if key in first:
                prev = first[key].start_mark
                self.duplicates += self.fail(key_node, f"duplicate key `{key}` (first given on line {prev.line + 1})",
                                             hint="give each setting once").diagnostics
                continue
            first[key] = key_node
            self.keys[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.value(value_node, path + (key,))
        return out

    def scalar(self, node: ScalarNode) -> Any:
        tag, raw = node.tag, node.value
        lone = _SURROGATE.search(raw)
        if lone is not None:   # (an escape in double quotes, "\ud800": text no file, record or page can hold)
            raise self.fail(node, f"`\\u{ord(lone.group()):04x}` is half of a character (a lone UTF-16 surrogate): "
                                  f"it cannot be written as text",
                            hint="write the character itself, or escape the whole character: \"\\U0001F600\" "
                                 "rather than \"\\ud83d\\ude00\"")
        if tag == _CORE + "str":
            return raw
        if tag == _CORE + "null":
            return None
        if tag == _CORE + "bool":
            return raw.lower() in ("true", "yes", "on", "y")
        if tag == _CORE + "int":
            text = raw.replace("_", "")
            if len(text) > MAX_DIGITS:   # Python refuses to read past 4,300 digits, and echoing one is no help
                raise self.fail(node, f"a number of {len(text):,} digits; no setting needs more than {MAX_DIGITS}")
            if ":" in text:
                # (YAML 1.1 reads `1:20` as 80, base 60: a validation audit's `target: 1:20` played to 80, unsaid)
                raise self.fail(node, f"YAML reads {_short(raw)} as a number in base 60, which no setting means",
                                hint="write the number you mean, or put the text in quotes")
            try:
                if text.lower().startswith(("0x", "-0x", "+0x")):
                    return int(text, 16)
                if text.lower().startswith(("0o", "-0o", "+0o")):
                    return int(text, 8)
                if _INT.match(raw) or re.match(r"^[-+]?[0-9]+$", text):
                    return int(text, 10)
                return int(text, 0)
            except ValueError:
                raise self.fail(node, f"cannot read {_short(raw)} as a whole number") from None
        if tag == _CORE + "float":
            text = raw.replace("_", "").lower()
            if text in (".inf", "+.inf"):
                return math.inf
            if text == "-.inf":
                return -math.inf
            if text == ".nan":
                return math.nan
            try:
                return float(text)
            except ValueError:
                raise self.fail(node, f"cannot read {_short(raw)} as a number") from None
        raise self.fail(node, f"tags are not allowed in rule files: {tag}")

"""Game records: JSON that replays a game exactly.

A record carries the variant's resolved rules (so a later change to the file
cannot silently change a replay), the seed, the seats, every action in the move
notation as it was made, and the result it reached. It is rewritten atomically
after every action (write to a temporary file, then rename), so a crash loses
nothing. A record is never replaced by a new game: :func:`claim_path` refuses an
existing file unless told to replace it.

Reading trusts nothing: every field is checked for its type and against the
rules before a card is dealt, the moves are replayed through the engine, and the
stored result must be the one the moves give. Each problem is a
:class:`RecordError` that names the file, the field (with its line where it can
be found) and what is wrong, in a player's words. The file is read through
:mod:`cassino.files` (a regular file, at most MAX_BYTES read), a UTF-8 byte-order
mark is accepted, and JSON nested deeper than MAX_DEPTH is refused at its place
before any reader recurses into it.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ... import __version__
from ...engine.core import Engine
from ...engine.game import Game
from ...engine.notation import check_move_length, max_move_length, parse_move
from ...errors import CassinoError, Diagnostic
from ...files import Busy, FileProblem, Held, check_target, hold, lone_surrogate, read_bytes, utf8, write_atomic
from ...language.rules import Rules
from .seating import partnership, player_count, seat_kinds
from .seeds import SEED_RANGE, seed_problem

FORMAT = "cassino-game/1"
#: A long game's record is some 100 KB; anything past this is not one.
MAX_BYTES = 20_000_000
#: A record's rules sit two levels down and use 7; nothing in a record needs more.
MAX_DEPTH = 40


class RecordError(CassinoError):
    """A record that cannot be read, written or replayed.

    Where known, ``path``, ``line`` and ``column`` say where, and ``reason`` what, without the place
    (``--format json`` reports them as fields); the message says both, ``FILE:LINE: reason``.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int = 0, column: int = 0,
                 reason: str | None = None) -> None:
        super().__init__(message)
        self.path, self.line, self.column = path, line, column
        self.reason = message if reason is None else reason


def _error_at(path: str, line: int, column: int, reason: str) -> RecordError:
    """A RecordError at a place in ``path``: ``FILE:LINE:COL: reason`` (the line and column when known)."""
    where = path + (f":{line}" if line else "") + (f":{column}" if line and column else "")
    return RecordError(f"{where}: {reason}", path=path, line=line, column=column, reason=reason)


@dataclass
class Record:
    rules: Rules
    seed: int
    players: int
    partners: bool
    seats: list[str]                 # "human", "random", "greedy", "search", ...
    dealer: int = 0
    actions: list[str] = field(default_factory=list)   # moves in notation, or "claim SEAT"
    source: str = ""                 # the variant's name or file as given
    #: The result the file says the actions reach (None: not stated); checked by :func:`load_game`.
    stored_result: dict[str, Any] | None = None
    #: Tutorial mode: the topics each person's tutorial has taught, by seat (None: the game was not played
    #: with the tutorial), so that a resumed game teaches none of them again (``"tutorial": {"taught": ...}``).
    taught: dict[int, list[str]] | None = None
    #: The learning aids the game is played with besides the tutorial (``"count"``, ``"warn"``: `cassino play --count
    #: --warn`), so that a resumed game keeps them (``"aids": [...]``, written only where there is one; a record
    #: without it was played with none, or written before records kept them).
    aids: list[str] = field(default_factory=list)

    def to_json(self, game: Game | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "cassino": __version__,
            "variant": {"name": self.rules.name, "source": self.source, "rules": self.rules.data},
            "seed": self.seed,
            "players": self.players,
            "partners": self.partners,
            "dealer": self.dealer,
            "seats": self.seats,
            "actions": self.actions,
        }
        if self.aids:
            out["aids"] = list(self.aids)
        if self.taught is not None:
            out["tutorial"] = {"taught": {str(seat): list(topics) for seat, topics in sorted(self.taught.items())}}
        if game is not None:
            out["result"] = result_of(game)
        return out

    def text(self, game: Game | None = None) -> str:
        """The record as its file holds it: ``to_json`` as ``json.dumps(..., indent=1, ensure_ascii=False)``
        writes it, the same text (:func:`record_text`)."""
        return record_text(self.to_json(game))

    def save(self, path: str | Path, game: Game | None = None) -> None:
        """Write atomically: a reader sees the old record or the new one, never half of one."""
        data = self.text(game)
        try:
            write_atomic(path, data, replace=True, what="the game record")
        except FileProblem as e:
            raise RecordError(str(e), path=e.path, reason=e.reason) from None

    def new_game(self) -> Game:
        return Game.new(Engine(self.rules), self.seed, self.players, self.partners, dealer=self.dealer)


def record_text(out: dict[str, Any]) -> str:
    """``json.dumps(out, indent=1, ensure_ascii=False)`` for a record's fields, the same text, written
    without the pure-Python encoder that an indent calls for at every level.

    A game's record is written after every action, and a long game's is encoded hundreds of times (500 in a
    whole game of Krypkasino with five players, 0.4 ms each in pure Python, most of it the rules, which never
    change once loaded, and the actions, one more each time: 0.1 ms each now). Here the variant's text is kept
    from one write to the next while its rules are the same object, the actions (a list of strings) are written
    by the compiled encoder with the indent's line breaks as their separator, and every other field, small, as
    before."""
    parts = []
    for key, value in out.items():
        if key == "actions" and isinstance(value, list) and all(type(a) is str for a in value):
            text = _strings(value)
        elif key == "variant" and isinstance(value, dict):
            text = _variant_text(value)
        else:
            text = _nested(value)
        parts.append(f" {json.dumps(key, ensure_ascii=False)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}" if parts else "{}"


def _nested(value: Any) -> str:
    """``value`` as ``json.dumps(..., indent=1)`` writes it one level down: every line break (JSON writes
    none inside a string) followed by one more space."""
    return json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n ")


def _strings(items: list[str]) -> str:
    """A list of strings one level down, as ``_nested`` writes it: one to a line, two spaces in."""
    if not items:
        return "[]"
    inner = json.dumps(items, ensure_ascii=False, separators=(",\n  ", ": "))
    return "[\n  " + inner[1:-1] + "\n ]"


#: The last variant written (its rules object, kept so that its id is not reused, its name and source) and its
#: text: a game writes the same rules after every action.
_VARIANT: list[tuple[Any, Any, Any, str]] = []


def _variant_text(variant: dict[str, Any]) -> str:
    rules = variant.get("rules")
    if list(variant) == ["name", "source", "rules"] and isinstance(rules, dict):
        for kept, name, source, text in _VARIANT:
            if kept is rules and name == variant["name"] and source == variant["source"]:
                return text
        text = _nested(variant)
        _VARIANT[:] = [(rules, variant["name"], variant["source"], text)]
        return text
    return _nested(variant)


#: Result fields every record has had; later ones ("ply") are checked when a record has them.
_RESULT_KEYS = ("over", "winner", "scores", "hands", "ended_by")


def result_of(game: Game) -> dict[str, Any]:
    """What a record stores about where its game stands (and what a replay must reach again).

    ``ply`` (moves made in the current hand) catches a move dropped or added within a hand,
    which leaves the scores as they were.
    """
    return {"over": game.over, "winner": game.winner, "scores": list(game.scores),
            "hands": game.hand_no, "ended_by": game.ended_by, "ply": game.hand.ply}


# ---------------------------------------------------------------------- where a record goes
def writable_path(path: str | Path) -> Path:
    """``path``, once it is known a record can be written there (else a RecordError saying why).

    Never a device or pipe (``--save /dev/null`` must not turn the device into a file), never a
    name ending in a slash (``newdir/`` is a folder, not a file named ``newdir``). A symbolic link
    is followed to its file (``files.check_target``; a loop of links, or a link to nothing, is
    refused): the record is written, and locked, there.
    """
    try:
        return check_target(path, replace=True, what="the game record")
    except FileProblem as e:
        raise RecordError(str(e), path=e.path, reason=e.reason) from None


def claim_path(path: str | Path, *, replace: bool = False) -> Path:
    """A path for a new game's record that destroys nothing: an existing file is refused unless ``replace``."""
    path = writable_path(path)
    if os.path.lexists(path) and not replace:
        raise RecordError(f"{path} already exists; a new game would replace it. Continue it with "
                          f"`cassino play --resume {path}`, name another file with --save, or add --force to replace it")
    return path


def fresh_path(stem: str, folder: Path = Path(".")) -> Path:
    """``stem.json`` in ``folder``, or ``stem-2.json``, ``stem-3.json``... the first that does not exist."""
    candidate = folder / f"{stem}.json"
    k = 2
    while candidate.exists():
        candidate = folder / f"{stem}-{k}.json"
        k += 1
    return candidate


def start_new(record: Record, folder: Path, stem: str) -> tuple[Path, Held]:
    """A new game's record written as ``stem.json`` in ``folder`` (or ``stem-2.json``...), never over a
    file, and held by this process (:func:`cassino.files.hold`) until the caller releases it.

    Choosing the name and taking it is one step: a name whose lock another process holds (a game
    started at the same moment with the same seed) is passed over, and the record is linked into
    place, which fails on a name made meanwhile; either way the next name is tried.
    """
    data = record.text()
    for k in range(1, 10_000):
        path = folder / (f"{stem}.json" if k == 1 else f"{stem}-{k}.json")
        if os.path.lexists(path):
            continue
        try:
            held = hold(path, what="the game record")
        except Busy:
            continue
        try:
            write_atomic(path, data, replace=False, what="the game record")
        except FileProblem as e:
            held.release()
            if os.path.lexists(path):
                continue
            raise RecordError(str(e)) from None
        return path, held
    raise RecordError(f"cannot name a new game record in {folder}: {stem}.json to {stem}-9999.json exist")


def save_new(record: Record, folder: Path, stem: str, game: Game | None = None) -> Path:
    """Write a new game's record as ``stem.json`` in ``folder`` (or ``stem-2.json``...), never over a file.

    The record is written to a temporary file and linked into place, which fails
    when the name exists, so two games started at once cannot take the same name.
    """
    try:
        data = utf8(record.text(game), folder, "a game record")
    except FileProblem as e:
        raise RecordError(str(e)) from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".cassino-", suffix=".json", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        try:
            for k in range(1, 10_000):
                path = folder / (f"{stem}.json" if k == 1 else f"{stem}-{k}.json")
                try:
                    os.link(tmp, path)
                    return path
                except FileExistsError:
                    continue
            raise RecordError(f"cannot name a new game record in {folder}: {stem}.json to {stem}-9999.json exist")
        finally:
            Path(tmp).unlink(missing_ok=True)
    except OSError as e:
        raise RecordError(f"cannot write a game record in {folder}: {e.strerror or e}") from None


# ---------------------------------------------------------------------- reading
_JSON_WORDS = (
    ("Unterminated string", "a text in quotes is not closed (a missing \")"),
    ("Expecting ',' delimiter", "a comma is missing between two entries"),
    ("Expecting ':' delimiter", "a colon is missing after a key"),
    ("Expecting property name", "a key in double quotes is expected here (is there a comma too many?)"),
    ("Expecting value", "a value is missing here"),
    ("Extra data", "there is more text after the record's closing brace"),
    ("Invalid control character", "a text in quotes holds a line break or control character"),
    ("Invalid \\escape", "a backslash escape in a text is not valid"),
)


def _json_words(msg: str) -> str:
    return next((words for start, words in _JSON_WORDS if msg.startswith(start)), msg)


def _line_of(text: str, key: str) -> int:
    """The line of the record's top-level ``key`` (written after the rules, so its last mention); 0 if absent."""
    at = text.rfind(f'"{key}"')
    return text.count("\n", 0, at) + 1 if at >= 0 else 0


@dataclass(frozen=True)
class _Reader:
    """Reads one field after another, each error naming the file, the field and its line."""

    path: str
    text: str
    data: dict[str, Any]

    def error(self, key: str, message: str) -> RecordError:
        return _error_at(self.path, _line_of(self.text, key), 0, f"\"{key}\" {message}")

    def get(self, key: str, kind: type | tuple[type, ...], words: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is not ...:
                return default
            raise _error_at(self.path, 0, 0, f"the record has no \"{key}\" (it is cut short or was edited)")
        value = self.data[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise self.error(key, f"must be {words}, not {json.dumps(value)}")
        if not isinstance(value, kind):
            raise self.error(key, f"must be {words}, not {_shown(value)}")
        return value

    def checked(self, key: str, check: Callable[[], Any]) -> Any:
        try:
            return check()
        except RecordError:
            raise
        except CassinoError as e:
            raise self.error(key, f"does not fit the game: {e}") from None


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _quoted(action: str) -> str:
    """An action quoted in a message: a long one cut (a 9 MB action was echoed whole)."""
    return repr(action if len(action) <= 60 else action[:50] + "...")


def _rules(reader: _Reader) -> Rules:
    from ...language import schema, semantics

    variant = reader.get("variant", dict, "a mapping with the variant's name and rules")
    rules_data = variant.get("rules")
    if not isinstance(rules_data, dict):
        raise reader.error("variant", "has no \"rules\" mapping: the record does not say what game it plays")
    problems: list[Diagnostic] = []

    def locate(p: Any, message: str, **_: Any) -> Diagnostic:
        diag = Diagnostic(reader.path, _line_of(reader.text, "rules"), 1, f"the recorded rules: {message}")
        problems.append(diag)
        return diag

    found = schema.validate(rules_data, locate)   # (each problem once: the schema may find one twice)
    if found:
        raise RecordError("\n".join(d.format() for d in found))
    if "deck" not in rules_data:
        # (A record's rules are whole, `extends` kept as said, "" where the rules extended nothing: an audit's
        # hand-made record with `extends` and little else read "the deck has 0", and a record whose deck alone was
        # deleted was then told it named `extends`; a deck that is no mapping is the schema's to say.)
        if isinstance(rules_data.get("extends"), str) and rules_data["extends"].strip():
            raise reader.error("variant", "holds rules that name `extends`: a record holds its rules whole, as they "
                                          "were played, and follows no file (was it edited by hand?)")
        raise reader.error("variant", "holds rules with no `deck` (the ranks and suits played with): a record holds "
                                      "its rules whole, the deck among them (was it edited by hand?)")
    try:
        data = schema.with_defaults(rules_data)
        rules = Rules.from_data(data)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise reader.error("variant", "holds rules that are incomplete or damaged") from None
    if semantics.check(data, rules, locate):
        raise RecordError("\n".join(dict.fromkeys(d.format() for d in problems)))
    return rules


#: A JSON string (its loop unrolled: ``(?:[^"\\]|\\.)*`` kept a mark per character, 1.1 GB for a 9 MB
#: string) or a bracket.
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')


def _check_depth(shown: str, text: str) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH at the bracket that goes too deep, without recursing."""
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                at = m.start()
                line = text.count("\n", 0, at) + 1
                col = at - (text.rfind("\n", 0, at) + 1) + 1
                raise _error_at(shown, line, col, f"not a game record: lists and mappings are nested "
                                                  f"too deeply (more than {MAX_DEPTH} levels)")
        elif token in "]}":
            depth -= 1


_SCENARIO_LINE = re.compile(r"^cases\s*:", re.MULTILINE)


def _looks_like_scenario_file(text: str) -> bool:
    return _SCENARIO_LINE.search(text) is not None


def _reads_as_rule_file(shown: str, text: str) -> bool:
    """Whether ``text`` reads as a rule file: YAML whose top level is a mapping naming a rule file's settings
    (``name``, ``extends``, ``deck``, ...). Not merely a first line ``word:`` (an audit's saved game transcript,
    ``standard: Anglo-American ...``, was called a rule file, and `cassino play` then refused it as YAML)."""
    from ...language import schema
    from ...language.yamlsource import load_yaml_text

    try:
        data = load_yaml_text(text, shown).data
    except Exception:   # noqa: BLE001 - any file that does not load as YAML is no rule file
        return False
    return isinstance(data, dict) and bool(set(data) & set(schema.load_schema()["properties"]))


def _not_json(shown: str, text: str) -> str | None:
    """What a file that is no JSON text at all is, where that is more use than where its JSON breaks (said after
    the file's name, without a place); None where it reads as JSON up to a place (``_cut_words`` says what
    is wrong there)."""
    start = text.lstrip()
    yaml_named = shown.lower().endswith((".yaml", ".yml"))
    if (yaml_named or not start.startswith("{")) and _reads_as_rule_file(shown, text):
        return f"is not a game record: it looks like a rule file; use `cassino play {shown}` to start a game with it"
    if yaml_named:   # (named as a rule file, but not one to play: the rule-file check says why)
        return (f"is not a game record, and it does not read as a rule file either; `cassino validate {shown}` "
                f"says what is wrong with it as one")
    if not start:
        return "is not a game record: the file is empty"
    if not start.startswith("{"):   # (a record is one JSON object: `/etc/passwd` read "a value is missing here")
        return ("is not a game record (nor a rule file): a game record is the JSON text `cassino play` writes, "
                "starting with `{`")
    return None


def _cut_words(text: str, e: json.JSONDecodeError) -> str:
    """Where a record's JSON breaks, in words; at the end of the file (nothing but spaces left after the place),
    that the file may be cut short, whatever was expected there (a record missing only its last `}` read "a
    comma is missing between two entries")."""
    if e.msg.startswith("Unterminated string"):   # (no closing quote anywhere after it: the text runs to the end)
        return "a text in quotes is not closed (a missing \"): it runs to the end of the file, which may be cut short"
    at_end = not text[e.pos:].strip()
    if e.msg.startswith("Expecting value"):
        return "a value is missing here" + (" (the file may be cut short)" if at_end else "")
    if at_end:
        return "the file ends before the record does (the file may be cut short)"
    return _json_words(e.msg)


class _KeyTwice(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object of a record, each key once (``json.loads``' hook)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _KeyTwice(key)
        out[key] = value
    return out


def _read(path: str | Path) -> tuple[str, Any]:
    """The record's text and its parsed JSON; RecordError for anything that is not JSON text."""
    shown = str(path)
    try:
        raw = read_bytes(path, MAX_BYTES, what="a game record")
    except FileProblem as e:
        raise RecordError(str(e), path=e.path, reason=e.reason) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _error_at(shown, 0, 0, f"not a game record: byte {e.start} is not UTF-8 text") from None
    text = text[1:] if text.startswith("\ufeff") else text   # a BOM, as some Windows editors write
    _check_depth(shown, text)
    try:
        data = json.loads(text, object_pairs_hook=_once_each)
    except _KeyTwice as e:   # (an audit's record with a key twice was read, the later value winning, and blamed action 1)
        found = [m.start() for m in re.finditer(re.escape(json.dumps(e.key)) + r"\s*:", text)]
        line = column = 0   # (placed only where the key is written just twice: else which is the second is not known)
        if len(found) == 2:
            line = text.count("\n", 0, found[1]) + 1
            column = found[1] - (text.rfind("\n", 0, found[1]) + 1) + 1
        raise _error_at(shown, line, column, f"not a game record: the key {json.dumps(e.key)} is given twice in one "
                                             f"object (a record is written with each key once)") from None
    except json.JSONDecodeError as e:
        if _looks_like_scenario_file(text):   # (a re-attack: it was called a rule file, and `play` then refused it)
            reason = (f"is not a game record: it looks like a scenario file (it has `cases:`); run its cases with "
                      f"`cassino check {shown}`")
            raise RecordError(f"{shown} {reason}", path=shown, reason=reason) from None
        reason = _not_json(shown, text)
        if reason is not None:
            raise RecordError(f"{shown} {reason}", path=shown, reason=reason) from None
        raise _error_at(shown, e.lineno, e.colno, f"not a game record: {_cut_words(text, e)}") from None
    except RecursionError:
        raise _error_at(shown, 0, 0, "not a game record: it is nested too deeply") from None
    except ValueError:   # a number past Python's 4,300 digits (a seed of 5,000 digits)
        raise _error_at(shown, 0, 0, f"not a game record: it holds a number of more than 4,300 digits "
                                     f"(a seed is {SEED_RANGE})") from None
    if lone_surrogate(data):
        # (an escape such as "\ud800" anywhere, the rules' words included: no record can be written with it, and
        # a resumed game failed at its first save; replay and review took it silently)
        escape = _LONE_ESCAPE.search(text)
        line = text.count("\n", 0, escape.start()) + 1 if escape else 0
        column = escape.start() - text.rfind("\n", 0, escape.start()) if escape else 0
        raise _error_at(shown, line, column, f"not a game record: {escape.group() if escape else 'a text'} is half of "
                                             f"a character (a lone UTF-16 surrogate), which no record can hold") from None
    return text, data


#: A JSON escape of half a UTF-16 pair with no other half beside it (``\ud800`` alone, or ``\udc00`` alone).
_LONE_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                          r"|(?<![dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def load_record(path: str | Path) -> Record:
    """Read and check a record's fields (not its moves: see :func:`load_game`); RecordError when damaged."""
    text, data = _read(path)
    return _record(str(path), text, data)


def _record(shown: str, text: str, data: Any) -> Record:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _error_at(shown, 0, 0, f"not a cassino game record (expected \"format\": \"{FORMAT}\")")
    r = _Reader(shown, text, data)
    rules = _rules(r)
    seed = r.get("seed", int, "a whole number")
    if seed_problem(seed):
        raise r.error("seed", seed_problem(seed) or "")
    players = r.checked("players", lambda: player_count(rules, r.get("players", int, "a whole number of players"),
                                                        option="\"players\""))
    partners = r.get("partners", bool, "true or false")
    r.checked("partners", lambda: partnership(rules, players, partners, option="\"partners\": true"))
    dealer = r.get("dealer", int, "a seat number", default=0)
    if not 0 <= dealer < players:
        raise r.error("dealer", f"is seat {dealer}, but the seats are 0 to {players - 1}")
    seats = r.get("seats", list, "a list of seat kinds (\"human\", \"greedy\", ...)")
    if not all(isinstance(s, str) for s in seats):
        raise r.error("seats", f"must list each seat's kind as text, not {_shown(seats)}")
    r.checked("seats", lambda: seat_kinds(seats, players))
    actions = r.get("actions", list, "a list of moves")
    bad = next((k for k, a in enumerate(actions) if not isinstance(a, str)), None)
    if bad is not None:
        raise r.error("actions", f"entry {bad + 1} must be a move in notation, not {_shown(actions[bad])}")
    longest = max_move_length(Engine(rules).deck)
    bad = next((k for k, a in enumerate(actions) if len(a) > longest), None)
    if bad is not None:
        raise r.error("actions", f"entry {bad + 1} is {len(actions[bad]):,} characters long ({_shown(actions[bad])}); "
                                 f"no move of this deck is longer than {longest:,}")
    stored = r.get("result", (dict, type(None)), "a mapping (over, winner, scores, hands, ended_by)", default=None)
    source = data["variant"].get("source", "")
    return Record(rules, seed, players, partners, list(seats), dealer, list(actions),
                  source if isinstance(source, str) else "", stored, _taught(r, seats), _aids(r))


#: The learning aids a record names (``Record.aids``): their names at most this long, at most this many.
_AID_NAME, _AIDS = 40, 20


def _aids(r: "_Reader") -> list[str]:
    """The record's ``"aids": ["count", "warn"]`` (none where it has no ``aids``): names this version does not
    know are kept and turn nothing on."""
    aids = r.get("aids", list, "a list of learning aids (\"count\", \"warn\")", default=[])
    if len(aids) > _AIDS or not all(isinstance(a, str) and 0 < len(a) <= _AID_NAME for a in aids):
        raise r.error("aids", f"must list learning aids by name (\"count\", \"warn\"), not {_shown(aids)}")
    return list(dict.fromkeys(aids))


def _taught(r: "_Reader", seats: list[str]) -> dict[int, list[str]] | None:
    """The record's ``"tutorial": {"taught": {"SEAT": [topic, ...]}}`` (None where there is none): each key a
    person's seat, each value the names of the topics taught (names this version does not know are kept
    and never match a lesson)."""
    tutorial = r.get("tutorial", (dict, type(None)), "a mapping with \"taught\"", default=None)
    if tutorial is None:
        return None
    taught = tutorial.get("taught")
    if not isinstance(taught, dict) or set(tutorial) - {"taught"}:
        raise r.error("tutorial", "must be {\"taught\": {\"SEAT\": [topics]}}, the topics each person was taught")
    out: dict[int, list[str]] = {}
    for key, topics in taught.items():
        if not (isinstance(key, str) and key.isdecimal() and int(key) < len(seats) and seats[int(key)] == "human"):
            raise r.error("tutorial", f"names {_shown(key)}, which is not a person's seat (seats: {_shown(seats)})")
        if not isinstance(topics, list) or not all(isinstance(t, str) and 0 < len(t) <= 60 for t in topics) \
                or len(topics) > 200:
            raise r.error("tutorial", f"seat {key}'s topics must be a list of at most 200 names of 1 to 60 "
                                      f"characters, not {_shown(topics)}")
        out[int(key)] = list(topics)
    return out


def apply_action(game: Game, action: str) -> Game:
    """One recorded action: a move in notation, or ``claim SEAT``; text longer than any move is
    refused before it is read (``check_move_length``)."""
    check_move_length(action, game.engine.deck)
    if action.startswith("claim "):
        seat = action.split()[1] if len(action.split()) == 2 else ""
        if not seat.isdecimal() or len(seat) > 3 or not 0 <= int(seat) < game.players:
            raise CassinoError(f"`claim` names a seat: 0 to {game.players - 1}")
        return game.claim(int(seat))
    move = parse_move(action, game.engine.deck)
    return game.play(move)


def replay(record: Record, *, path: str = "", text: str = "",
           each: Callable[[Game, str, Game], None] | None = None) -> Game:
    """Play the record's actions from its seed; RecordError at the first that does not apply. ``each``: told
    of every action with the games before and after it."""
    game = record.new_game()
    for k, action in enumerate(record.actions):
        try:
            before, game = game, apply_action(game, action)
            if each is not None:
                each(before, action, game)
        except CassinoError as e:
            reason = str(e).splitlines()[0]
            line = _action_line(text, action) if text else 0
            said = f"action {k + 1} ({_quoted(action)}) does not replay: {reason}"
            if game.hand.turn_card and not action.split()[:1] in (["build"], ["end"]) and not action.startswith("claim"):
                # (a turn of several actions left open after its hand card: the record most likely lost its `end`)
                said += (f"; seat {game.hand.turn}'s turn is still open after its card from the hand, so an `end` "
                         f"may be missing before this action")
            if path:
                raise _error_at(path, line, 0, said) from None
            raise RecordError(said) from None
    return game


def _action_line(text: str, action: str) -> int:
    start = text.rfind('"actions"')
    at = text.find(json.dumps(action, ensure_ascii=False)[:200], max(start, 0))
    return text.count("\n", 0, at) + 1 if at >= 0 else 0


def load_game(path: str | Path) -> tuple[Record, Game]:
    """A record read, replayed and checked against the result it states: what `replay` and `--resume` use."""
    text, data = _read(path)
    record = _record(str(path), text, data)
    game = replay(record, path=str(path), text=text)
    if record.stored_result is not None:
        stored, actual = record.stored_result, result_of(game)
        wrong = [k for k in actual if k in stored and json.dumps(stored[k]) != json.dumps(actual[k])]
        missing = [k for k in _RESULT_KEYS if k not in stored]
        if wrong or missing:
            key = (wrong or missing)[0]
            said = json.dumps(stored[key]) if key in stored else "nothing"
            raise _error_at(str(path), _line_of(text, "result"), 0,
                            f"the stored result does not match the moves: \"{key}\" says {said}, "
                            f"the moves give {json.dumps(actual[key])} (the record was edited or damaged)")
    return record, game


_SEAT = re.compile(r"claim (\d+)$")


def actor_of(action: str, game: Game) -> int:
    """The seat that made ``action`` in ``game`` (the seat to play, or the claimant)."""
    m = _SEAT.match(action)
    return int(m.group(1)) if m else game.hand.turn

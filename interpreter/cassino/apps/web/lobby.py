"""The lobby: which rules a new table can play, and a new table's request checked into a game record.

Rules come from four places: the bundled variants, the house-rule examples
shipped in the package, the rule files of a folder the server was started with
(``--rules-dir``), and YAML pasted or uploaded in the browser. Every one goes
through the same loader as ``cassino validate``, so an error reads the same in
the browser as in the terminal, with its line and column. A file from the
browser may extend a bundled variant by name but not name a path on the server:
its error messages show lines of the files they point into, which must never be
the server's own files, and they name a bundled file by its variant's name
(``standard (bundled):104:38``), never by where the server has it installed.

Whatever the loader meets in a pasted text (a control character, brackets nested a
thousand deep), the lobby answers with a located error in a few words, never a
server error; and a variant's words shown at a table are bounded (:func:`check_words`:
its name, its description, every other name), since each browser at the table gets them.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

from ...errors import CassinoError, Diagnostic, RuleFileError
from ...files import read_bytes, real_path
from ...language.catalogue import bundled_names, describe, did_you_mean, example_names, shipped_name
from ...language.rules import Rules
from ...language.resolve import Confinement, names_a_path
from ...language.variants import LoadedVariant, load
from ...language.yamlsource import MAX_BYTES, load_yaml_text
from ...paths import EXAMPLES_DIR, VARIANTS_DIR
from .policy import Limits
from ..game.records import Record
from ..game.seating import partnership, player_count, players_text, seat_kinds

log = logging.getLogger("cassino.serve")
T = TypeVar("T")

KINDS = ("bundled", "example", "folder", "text")
MAX_SEATS = 16
#: A variant's words at a table: its name, its description (and each reading's sentences), any other name
#: (a suit's, a scoring item's), and its rules as a game record stores them (written with every move).
MAX_NAME = 40
MAX_DESCRIPTION = 500
#: A reading of the rules, or where they come from (sentences, longer than a description in the bundled files).
MAX_READING = 1000
MAX_WORDS = 200
MAX_RULES_JSON = 64_000


class LobbyError(CassinoError):
    """A new table's request that cannot be met, in words for the lobby to show."""


def _display_name(filename: str) -> str:
    """A file name fit to show in messages: the last part of what the browser sent, plain characters only."""
    base = re.split(r"[/\\]", filename or "")[-1]
    base = re.sub(r"[^A-Za-z0-9._ -]", "", base).strip()[:60]
    return base or "pasted.yaml"


def _in_folder(folder: Path, name: str) -> Path | None:
    """The real path of the rule file ``name`` of the rules folder, resolved once, where it lies inside that
    folder (symbolic links followed: a link leading anywhere else, the server's current folder included, is
    not the folder's); None where it does not."""
    inside = real_path(folder)
    real = real_path(folder / name)
    return real if real.is_relative_to(inside) and real.suffix.lower() in (".yaml", ".yml") else None


def _file_description(real: Path) -> str:
    """The description of a file of the rules folder (``_in_folder``'s real path), read following no link."""
    try:
        doc = load_yaml_text(read_bytes(real, MAX_BYTES, what="a rule file", unlinked=True), real.name)
    except Exception:       # whatever the file holds, the lobby lists it (choosing it says what is wrong)
        return ""
    data = doc.data if isinstance(doc.data, dict) else {}
    text = data.get("description")
    return text if isinstance(text, str) else ""


#: The fields of a request for a new table (``Lobby.new_record``).
NEW_TABLE_FIELDS = ("rules", "players", "partners", "seats", "you")


class Lobby:
    """The rules a table can be opened with, from the package and from ``rules_dir``."""

    def __init__(self, rules_dir: Path | None = None, limits: Limits = Limits()) -> None:
        self.rules_dir = rules_dir
        self.limits = limits

    def folder_files(self) -> list[str]:
        if self.rules_dir is None:
            return []
        return sorted(p.name for p in self.rules_dir.iterdir()
                      if p.is_file() and p.suffix in (".yaml", ".yml") and not p.name.startswith(".")
                      and _in_folder(self.rules_dir, p.name) is not None)   # (a link leading out: not offered)

    def _described(self, name: str) -> str:
        assert self.rules_dir is not None
        real = _in_folder(self.rules_dir, name)
        return "" if real is None else _file_description(real)

    def shipped_names(self) -> set[str]:
        """The bundled variants' and examples' names (a table's record names its rules by one of them)."""
        return set(bundled_names()) | set(example_names())

    def choices(self) -> dict[str, Any]:
        """Every named choice with its one-line description, and the computer players."""
        return {
            "bundled": [{"name": n, "description": describe(n)} for n in bundled_names()],
            "example": [{"name": n, "description": describe(n)} for n in example_names()],
            "folder": [{"name": n, "description": self._described(n)} for n in self.folder_files()],
            "folder_path": self.rules_dir.name if self.rules_dir is not None else None,   # not the server's path
            "bots": self.limits.bot_names(),
            "limits": self.limits.as_json(),
        }

    # ------------------------------------------------------------------ loading
    def load(self, spec: Any) -> tuple[LoadedVariant, str]:
        """The rules a request names (``{"kind": ..., "name": ...}`` or ``{"kind": "text", "text": ...}``)
        and the source to record; RuleFileError for a file with errors, LobbyError for a bad request."""
        if not isinstance(spec, dict):
            raise LobbyError("say which rules to play: {\"kind\": \"bundled\", \"name\": \"standard\"}")
        kind = spec.get("kind")
        if kind not in KINDS:
            raise LobbyError(f"rules come from one of: {', '.join(KINDS)}")
        loaded, source = self._load(kind, spec)
        check_words(loaded.rules, source)
        return loaded, source

    def _load(self, kind: str, spec: dict[str, Any]) -> tuple[LoadedVariant, str]:
        if kind == "text":
            text, filename = spec.get("text"), spec.get("filename", "")
            if not isinstance(text, str) or not isinstance(filename, str):
                raise LobbyError("pasted rules are text, with a file name (or none)")
            return load_text(text, filename), _display_name(filename)
        name = spec.get("name")
        if not isinstance(name, str) or not name:
            raise LobbyError("name the rules to play")
        known = {"bundled": bundled_names, "example": example_names, "folder": self.folder_files}[kind]()
        if name not in known:
            where = {"bundled": "bundled variant", "example": "house-rule example",
                     "folder": "rule file in the server's rules folder"}[kind]
            raise LobbyError(f"there is no {where} named {name[:60]!r}")
        if kind == "folder":
            # The folder alone, not the server's current folder too: the file and every file it extends lie
            # inside it (symbolic links followed), each read by the real path that was checked.
            assert self.rules_dir is not None
            real = _in_folder(self.rules_dir, name)
            if real is None:
                raise LobbyError(f"there is no rule file in the server's rules folder named {name[:60]!r}")
            # (Its errors name it as the folder was given to the server, and its name.)
            return _load_shown(str(self.rules_dir / name), real, Confinement((real_path(self.rules_dir),))), name
        return readable(name, load, name), name

    def new_record(self, request: Any) -> tuple[Record, int | None]:
        """A new table's record from the lobby's request, and the seat its creator takes (None: watches).

        The seed is new and random; it is kept in the record on the server only.
        """
        if not isinstance(request, dict):
            raise LobbyError("a new table is a JSON object: rules, players, partners, seats")
        unknown = sorted(str(k)[:20] for k in request if k not in NEW_TABLE_FIELDS)
        if unknown:   # (as the websocket refuses a field it does not know: a misspelt `partner` is not ignored)
            raise LobbyError(f"a new table has no field {', '.join(f'`{k}`' for k in unknown[:5])}: its fields are "
                             f"{', '.join(NEW_TABLE_FIELDS)}")
        loaded, source = self.load(request.get("rules"))
        rules = loaded.rules
        players = player_count(rules, request.get("players"), option="players")
        partners = request.get("partners", False)
        if not isinstance(partners, bool):
            raise LobbyError("partners is true or false")
        partners = partnership(rules, players, partners, option="partners")
        seats = request.get("seats")
        if not isinstance(seats, list) or len(seats) > MAX_SEATS or not all(isinstance(s, str) and len(s) <= 40
                                                                            for s in seats):
            raise LobbyError(f"seats is a list of seat kinds, one per player: human or {self.limits.bot_names()}")
        for kind in seats:
            self.limits.check_seat(kind)       # this server's bounds, smaller than the terminal's
        seat_kinds(seats, players)
        you = request.get("you")
        if you is not None and (isinstance(you, bool) or not isinstance(you, int) or not 0 <= you < players
                                or seats[you] != "human"):
            raise LobbyError("`you` is the seat you take: one of the seats for people")
        return Record(rules, secrets.randbelow(10**9), players, partners, list(seats), source=source), you


def rules_info(rules: Rules) -> dict[str, Any]:
    """What the lobby needs to offer seats for ``rules``."""
    return {"name": rules.name, "description": rules.description, "min_players": rules.seats.min_players,
            "max_players": rules.seats.max_players, "players_text": players_text(rules),
            "partnerships": rules.seats.partnerships, "partnership_players": list(rules.seats.partnership_players), "claiming": rules.game.claiming, "target": rules.game.target}


def load_text(text: str, filename: str = "") -> LoadedVariant:
    """Rules pasted or uploaded in the browser, checked exactly as ``cassino validate`` checks a file.

    Errors and warnings name the file as the browser sent it (``my-house.yaml:9:3: ...``).
    """
    display = _display_name(filename)
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as e:
        raise RuleFileError([Diagnostic(display, 0, 0, f"character {e.start + 1} is not text (a lone surrogate)",
                                        hint="save the file as UTF-8")]) from None
    if size > MAX_BYTES:
        raise RuleFileError([Diagnostic(display, 0, 0, f"the file is larger than {MAX_BYTES:,} bytes")])
    doc = readable(display, load_yaml_text, text, display)
    ref = doc.data.get("extends") if isinstance(doc.data, dict) else None
    if isinstance(ref, str) and names_a_path(ref):
        raise RuleFileError([doc.diagnostic(("extends",), "rules given in the browser may extend a bundled "
                                            "variant by name, not a file on the server",
                                            hint=f"write `extends: standard` (bundled: {', '.join(bundled_names())})")])
    if isinstance(ref, str) and not shipped_name(ref):
        # (Said here: the loader's own hint would offer the server's copy of these rules as the file meant.)
        raise RuleFileError([doc.diagnostic(("extends",), f"no bundled variant or house-rule example named `{ref}`",
                                            hint=did_you_mean(ref) + f"bundled: {', '.join(bundled_names())}; examples: "
                                            f"{', '.join(example_names())}")])
    with tempfile.TemporaryDirectory(prefix="cassino-rules-") as folder:
        path = Path(folder) / "rules.yaml"
        path.write_text(text, encoding="utf-8")
        return _load_shown(display, path)


def _load_shown(shown: str, path: Path, confinement: Confinement | None = None) -> LoadedVariant:
    """``load(path)`` (within ``confinement``), its errors and warnings naming ``shown`` where they name ``path``:
    the file as the browser sent it, or as the server's rules folder holds it, never a path of the server's."""
    def named(found: Sequence[Diagnostic]) -> list[Diagnostic]:
        return [replace(d, file=shown) if d.file == str(path) else d for d in found]
    try:
        loaded = readable(shown, lambda: load(path, confinement=confinement))
    except RuleFileError as e:
        raise RuleFileError(named(e.diagnostics)) from None
    return replace(loaded, warnings=tuple(named(loaded.warnings)))


def readable(display: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` (the rule loader): any error it raises that is not already a located RuleFileError (a
    control character the YAML reader refuses, nesting deeper than Python's stack) becomes one, in a few words
    naming ``display``; the details go to the server's log."""
    try:
        return fn(*args)
    except CassinoError:
        raise
    except RecursionError:
        message, hint = "lists and mappings are nested too deeply to read", "is a bracket left open?"
    except Exception as e:
        import yaml

        if not isinstance(e, yaml.YAMLError):
            log.exception("reading rules %s", display)
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        message = f"not readable as rules: {_plain(first)}"
        hint = ("save it as plain UTF-8 text, without control characters" if isinstance(e, yaml.YAMLError)
                else None)
    raise RuleFileError([Diagnostic(display, 0, 0, message, hint=hint)]) from None


def _plain(text: str, limit: int = 160) -> str:
    """Text fit to show: control characters escaped, at most ``limit`` characters."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _strings(value: Any, path: tuple[str, ...] = ()) -> Any:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, path + (str(key),))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _strings(item, path + (str(k),))


def check_words(rules: Rules, shown: str) -> None:
    """LobbyError when a variant's words are longer than a table takes: every browser at a table gets its name
    and description, and a game record holds its rules (rewritten after every move)."""
    where = f"{_plain(shown, 60)}: " if shown else ""
    if len(rules.name) > MAX_NAME:
        raise LobbyError(f"{where}the variant's name is {len(rules.name):,} characters long; a table takes "
                         f"at most {MAX_NAME}: choose a shorter name")
    if len(rules.description) > MAX_DESCRIPTION:
        raise LobbyError(f"{where}the variant's description is {len(rules.description):,} characters long; "
                         f"a table takes at most {MAX_DESCRIPTION}: shorten it")
    for path, text in _strings(rules.data):
        if path in (("name",), ("description",)):
            continue
        if path[0] in ("readings", "source"):   # sentences (a reading, where it comes from)
            if len(text) > MAX_READING:
                what = "a reading" if path[0] == "readings" else "a source"
                raise LobbyError(f"{where}`{'.'.join(path)[:80]}` is {len(text):,} characters long; a table takes "
                                 f"at most {MAX_READING:,} for {what}: shorten it")
            continue
        if len(text) > MAX_WORDS:
            raise LobbyError(f"{where}`{'.'.join(path)[:80]}` is {len(text):,} characters long; a table takes "
                             f"at most {MAX_WORDS} for a name: shorten it")
    size = len(json.dumps(rules.data, ensure_ascii=False))
    if size > MAX_RULES_JSON:
        raise LobbyError(f"{where}these rules take {size:,} characters as a game record stores them; a table "
                         f"takes at most {MAX_RULES_JSON:,}")


_BUNDLED = re.compile(r"^(?P<name>[^()]*?) ?\((?P<path>.+)\)$")


def public_diagnostic(d: Diagnostic, rules_dir: Path | None = None) -> Diagnostic:
    """``d`` as a browser may read it: a bundled file by its variant's name (``standard (bundled)``),
    a file of the rules folder by its file name, and no other path of the server in its words."""
    shipped = [str(VARIANTS_DIR), str(EXAMPLES_DIR)]
    folders = shipped + ([str(rules_dir)] if rules_dir is not None else []) + [tempfile.gettempdir()]

    def private(text: str) -> bool:
        return any(text.startswith(f) for f in folders) or text.startswith("/") or "\\" in text

    file = d.file
    match = _BUNDLED.match(file)
    path = match.group("path") if match else file
    if any(path.startswith(f) for f in shipped):
        file = f"{match.group('name') if match and match.group('name') else Path(path).stem} (bundled)"
    elif private(path):
        file = Path(path.replace("\\", "/")).name

    def scrub(text: str | None) -> str | None:
        if text is None:
            return None
        for folder in sorted(folders, key=len, reverse=True):
            text = text.replace(folder + "/", "").replace(folder, "")
        return text

    return replace(d, file=file, message=scrub(d.message) or "", hint=scrub(d.hint))

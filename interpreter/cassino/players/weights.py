"""Where the search finds the playout policy's weights for the rules and seating it plays.

A weights file is one JSON document (``FORMAT``, ``VERSION``): the policy's ``FEATURES`` by name and a
list of entries, each the weights fitted by self-play (``training``, ``cassino train``) to one rule
file at one seating (a number of players, in partnerships or not). An entry names its rules by
``rules_hash``: a digest of the resolved rules (every setting, defaults filled in), leaving out what
only names or describes them, so a house rule is known by what it plays, wherever its file lies and
whatever it is called, and an edited file is a new rule file (its old weights no longer apply).

The search (``SearchBot.policy``) looks, in order:

1. in the user's cache, ``$XDG_CACHE_HOME/cassino/playouts/HASH.json`` (``~/.cache`` without it),
   where ``cassino train`` stores the weights it fits (a user's own fit comes before the shipped one);
2. in the weights shipped with cassino (``BUNDLED``: fitted to the bundled variants, and kept only
   where they played better than greedy playouts, measured with ``benchmarks/bot_strength.py``). An
   entry whose ``weights`` are ``null`` is a measurement too: greedy playouts played better there than
   the 2-player standard weights of step 3 (or, at a seating where those do not play, than weights
   fitted to those rules), so the search plays out greedily;
3. in a 2-player game won by the highest total, the weights fitted to 2-player standard
   (``policy.FITTED``), which play there as well as anywhere;

and plays out greedily where none is found. An entry may also give a ``depth``: the most cards a
playout plays there before the outlook values the position (``SearchBot(depth="fitted")``, the default;
``cassino train --depth N`` fits under it and keeps it), for rules whose playouts to the end of the hand
cost more than they tell. None is shipped: where they cost most (South African Casino with three players,
a move ten times the 10 ms the search aims at) a horizon of 12 cards lost 0.92 points a rotation of three
hands (docs/performance.md). An entry of ``null`` weights and a ``depth`` is that horizon alone (greedy
playouts, cut short). ``choose`` says which, in
words (``cassino explain`` shows it, seating by seating). A damaged cache file is said to be damaged there and the search plays
as if it were absent; ``cassino train`` refuses to write over it.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..files import FileProblem, read_bytes, write_atomic
from ..language.rules import Rules
from ..language.schema import with_defaults
from .policy import FEATURES, FITTED

FORMAT = "cassino-playout-weights"
VERSION = 1
#: The weights shipped with cassino: a data file of the package.
BUNDLED = Path(__file__).with_name("playout_weights.json")
#: The largest weights file read (a file of a thousand entries is far smaller).
LIMIT = 4 << 20
#: The most cards an entry's ``depth`` may name (more than any deal plays).
MOST_DEPTH = 1000
#: What a rules digest leaves out: names and descriptions, not what is played.
UNPLAYED = ("name", "description", "source", "readings", "extends")


def is_depth(value: object) -> bool:
    """Whether ``value`` is a playout depth: a whole number of cards from 1 to ``MOST_DEPTH``."""
    return not isinstance(value, bool) and isinstance(value, int) and 1 <= value <= MOST_DEPTH


@dataclass(frozen=True)
class Entry:
    """Weights fitted to one rule file (``rules``: its ``rules_hash``) at one seating."""

    rules: str
    variant: str
    players: int
    partners: bool
    weights: tuple[float, ...] | None      # None: measured, greedy playouts play better here
    hands: int = 0
    decisions: int = 0
    seed: int = 0
    note: str = ""
    #: The most cards a playout plays before the outlook values the position (None: the search's own
    #: horizon, as many as the hands hold): measured for these rules and seating, where long playouts
    #: cost more than they tell (``SearchBot(depth="fitted")``).
    depth: int | None = None

    @property
    def seating(self) -> str:
        return seating(self.players, self.partners)

    def as_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "variant": self.variant, "players": self.players, "partners": self.partners,
                "weights": None if self.weights is None else [round(w, 6) for w in self.weights],
                "hands": self.hands, "decisions": self.decisions,
                "seed": self.seed, "note": self.note} | ({} if self.depth is None else {"depth": self.depth})


@dataclass(frozen=True)
class Choice:
    """The playouts the search plays for some rules and seating: ``weights`` (None: greedy), where they
    come from (``source``: bundled, cache, standard or greedy), a sentence saying so, and the most cards
    a playout plays there (``depth``: None, the search's own horizon; ``Entry.depth``); ``said``: the
    sentence with the horizon."""

    weights: tuple[float, ...] | None
    source: str
    text: str
    depth: int | None = None

    @property
    def said(self) -> str:
        if self.depth is None:
            return self.text
        return f"{self.text}; each playout at most {self.depth} cards, the outlook valuing the rest"


def seating(players: int, partners: bool) -> str:
    return f"{players} players{' in partnerships' if partners else ''}"


def rules_hash(rules: Rules) -> str:
    """A digest of what ``rules`` play (hex, 16 characters): the same for the same resolved settings. Settings
    at the schema's default are left out, so a setting added to the language later, whose default leaves play
    as it was, does not change the digest of rules that do not set it (weights fitted before still apply)."""
    data = _beyond_defaults({k: v for k, v in rules.data.items() if k not in UNPLAYED}, _defaults())
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


@lru_cache(maxsize=1)
def _defaults() -> dict[str, Any]:
    """Every setting's default, as the schema fills them into a file that sets nothing."""
    return with_defaults({})


def _beyond_defaults(data: Any, defaults: Any) -> Any:
    """``data`` without the settings equal to their default in ``defaults`` (nested mappings compared key by key)."""
    if not isinstance(data, dict) or not isinstance(defaults, dict):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in defaults:
            if value == defaults[key]:
                continue
            value = _beyond_defaults(value, defaults[key])
        out[key] = value
    return out


def cache_dir() -> Path:
    """The folder of the user's fitted weights: ``$XDG_CACHE_HOME/cassino/playouts`` (``~/.cache`` without it)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "cassino" / "playouts"


def cache_file(rules: Rules) -> Path:
    return cache_dir() / f"{rules_hash(rules)}.json"


# ---------------------------------------------------------------- reading and writing


def _damaged(path: Path | str, why: str) -> FileProblem:
    return FileProblem(path, f"is not a usable playout weights file: {why}; move it aside (or delete it) and "
                             f"train again (`cassino train RULES`)")


def _finite(w: Any) -> bool:
    """A weight JSON may hold: a number, not true or false, finite as a float (a whole number of 400 digits
    is not: it has no float)."""
    if isinstance(w, bool) or not isinstance(w, (int, float)):
        return False
    try:
        return math.isfinite(float(w))
    except OverflowError:
        return False


def _entry(path: Path | str, k: int, item: Any) -> Entry:
    where = f"entry {k + 1}"
    if not isinstance(item, dict):
        raise _damaged(path, f"{where} is not an object")
    rules, variant, players, partners = (item.get(key) for key in ("rules", "variant", "players", "partners"))
    if not isinstance(rules, str) or len(rules) != 16 or any(c not in "0123456789abcdef" for c in rules):
        raise _damaged(path, f"{where}: `rules` is a digest of 16 hex digits, not {str(rules)[:40]!r}")
    if not isinstance(variant, str):
        raise _damaged(path, f"{where}: `variant` is a name, not {variant!r}")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 64:
        raise _damaged(path, f"{where}: `players` is a number of players, 2 or more, not {players!r}")
    if not isinstance(partners, bool):
        raise _damaged(path, f"{where}: `partners` is true or false, not {partners!r}")
    weights = item.get("weights", [])
    if weights is not None and (not isinstance(weights, list) or len(weights) != len(FEATURES)
                                or not all(_finite(w) for w in weights)):
        raise _damaged(path, f"{where}: `weights` are {len(FEATURES)} finite numbers (one for each of "
                             f"{', '.join(FEATURES)}), or null for greedy playouts, not {str(weights)[:60]}")
    counts = [item.get(key, 0) for key in ("hands", "decisions", "seed")]
    # (A seed may be negative, down to -2**63: `cassino train --seed -1` wrote it so until an audit; it is kept as
    # the unsigned number that deals the same cards.)
    if not all(isinstance(c, int) and not isinstance(c, bool) and -(2 ** 63 if i == 2 else 0) <= c < 2 ** 64
               for i, c in enumerate(counts)):
        raise _damaged(path, f"{where}: `hands` and `decisions` are whole numbers, 0 or more, and `seed` a whole "
                             f"number of 64 bits")
    counts[2] &= 2 ** 64 - 1
    note = item.get("note", "")
    depth = item.get("depth")
    if depth is not None and not is_depth(depth):
        raise _damaged(path, f"{where}: `depth` is a number of cards from 1 to {MOST_DEPTH}, or absent for the "
                             f"search's own horizon, not {str(depth)[:40]}")
    return Entry(rules, variant, players, partners, None if weights is None else tuple(float(w) for w in weights),
                 counts[0], counts[1], counts[2], note if isinstance(note, str) else "", depth)


def parse(raw: bytes, path: Path | str) -> list[Entry]:
    """The entries of a weights file's bytes; FileProblem (what is wrong, and what to do) when it is damaged."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise _damaged(path, f"not JSON ({str(e).splitlines()[0][:80]})") from None
    except RecursionError:
        raise _damaged(path, "its lists or objects are nested too deeply to read") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _damaged(path, f"it does not say `\"format\": \"{FORMAT}\"`")
    if doc.get("version") != VERSION:
        raise _damaged(path, f"it is of version {doc.get('version')!r}, and this cassino reads version {VERSION}")
    if doc.get("features") != list(FEATURES):
        raise _damaged(path, f"its features are not this cassino's ({', '.join(FEATURES)})")
    entries = doc.get("entries")
    if not isinstance(entries, list):
        raise _damaged(path, "`entries` is not a list")
    return [_entry(path, k, item) for k, item in enumerate(entries)]


def read(path: Path | str) -> list[Entry]:
    """The entries of the weights file at ``path`` (none where there is no file); FileProblem when damaged."""
    if not os.path.lexists(path):
        return []
    return parse(read_bytes(path, LIMIT, what="a playout weights file"), path)


def dump(entries: list[Entry]) -> str:
    entries = sorted(entries, key=lambda e: (e.variant, e.rules, e.players, e.partners))
    doc = {"format": FORMAT, "version": VERSION, "features": list(FEATURES),
           "entries": [e.as_json() for e in entries]}
    return json.dumps(doc, indent=1) + "\n"


def store(path: Path | str, entry: Entry) -> Path:
    """``entry`` written into the weights file at ``path`` (made, or its entry for the same rules and seating
    replaced; the others kept), atomically. FileProblem, with nothing written, where the file there is
    damaged or cannot be written."""
    kept = [e for e in read(path) if (e.rules, e.players, e.partners) != (entry.rules, entry.players, entry.partners)]
    written = write_atomic(path, dump(kept + [entry]), replace=True, what="the playout weights")
    _cached.cache_clear()
    return written


# ---------------------------------------------------------------- the search's choice


@lru_cache(maxsize=1)
def bundled() -> tuple[Entry, ...]:
    """The weights shipped with cassino."""
    return tuple(read(BUNDLED))


def find(entries: tuple[Entry, ...] | list[Entry], key: str, players: int, partners: bool) -> Entry | None:
    for e in entries:
        if e.rules == key and e.players == players and e.partners == partners:
            return e
    return None


def choose(rules: Rules, players: int, partners: bool) -> Choice:
    """The playouts for ``rules`` at this seating (module docstring: where they are looked for)."""
    key = rules_hash(rules)
    path = cache_dir() / f"{key}.json"
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        stamp = None
    return _cached(key, rules.name, rules.game.goal, players, partners, str(path), stamp)


@lru_cache(maxsize=256)
def _cached(key: str, name: str, goal: str, players: int, partners: bool, path: str, stamp: int | None) -> Choice:
    where = seating(players, partners)
    trouble = ""
    if stamp is not None:
        try:
            entry = find(_read_cached(path), key, players, partners)
        except FileProblem as e:   # (a re-attack could not tell which of two files "not used" was of)
            entry, trouble = None, f" (the trained weights file in the cache is passed over: {e})"
        if entry is not None and entry.weights is None:
            return Choice(None, "cache", f"greedy playouts, as the weights file in {path} says for {where}",
                          entry.depth)
        if entry is not None:
            return Choice(entry.weights, "cache", f"playouts fitted to these rules for {where} by self-play "
                                                  f"({entry.hands:,} hands; `cassino train`, in {path})", entry.depth)
    entry = find(bundled(), key, players, partners)
    if entry is not None and entry.weights is None and entry.depth is not None:
        # (an entry of the horizon alone: greedy playouts, as where nothing is fitted, cut short there)
        return Choice(None, "bundled", f"greedy playouts for {where}, with a horizon measured for these "
                                       f"rules (shipped with cassino){trouble}", entry.depth)
    if entry is not None and entry.weights is None:
        # Where step 3's weights would play, they are what greedy playouts beat; elsewhere, weights fitted there.
        than = ("the 2-player standard weights in" if players == 2 and goal != "lowest" else "weights fitted to")
        return Choice(None, "bundled", f"greedy playouts: measured better than {than} these rules for "
                                       f"{where} (shipped with cassino){trouble}")
    if entry is not None:
        return Choice(entry.weights, "bundled", f"playouts fitted to these rules for {where} by self-play "
                                                f"({entry.hands:,} hands; shipped with cassino){trouble}", entry.depth)
    if players == 2 and goal != "lowest":
        return Choice(FITTED, "standard", "playouts by the weights fitted to 2-player standard (none fitted to "
                                          f"these rules){trouble}")
    return Choice(None, "greedy", f"greedy playouts: no weights fitted to these rules for {where}{trouble}; "
                                  f"`cassino train` fits them")


def _read_cached(path: Path | str) -> list[Entry]:
    """The entries of the user's cache file at ``path``; FileProblem where it cannot be used, a folder said as one the
    cache's own name holds (the user named nothing: not "name a regular file", a re-attack's find)."""
    if os.path.isdir(path) and not os.path.islink(path):
        raise FileProblem(path, "is a folder where the cache keeps the trained weights of these rules: move it aside")
    return read(path)


def cache_trouble(rules: Rules) -> str | None:
    """Why the user's cache file for ``rules`` is passed over (damaged, unreadable, a folder), or None where it is
    fine or absent: `play` and `simulate` say it before they start (an audit's damaged weights played silently)."""
    path = cache_dir() / f"{rules_hash(rules)}.json"
    if not os.path.lexists(path):
        return None
    try:
        _read_cached(path)
    except FileProblem as e:
        said = str(e).replace("`cassino train RULES`", f"`cassino train` on {rules.name}'s rule file")
        return f"{said}; until then the computer player passes it over (`cassino explain` says what it plays instead)"
    return None


def seatings(rules: Rules, most: int = 8) -> list[tuple[int, bool]]:
    """Every seating ``rules`` are played at (players, in partnerships), up to ``most`` players."""
    out: list[tuple[int, bool]] = []
    s = rules.seats
    for n in range(s.min_players, min(s.max_players, most) + 1):
        alone = rules.partnership(n, False)
        teams = rules.partnership(n, True)
        out += [(n, alone)] + ([(n, True)] if teams and not alone else [])
    return out


def described(rules: Rules) -> list[str]:
    """For each seating, the playouts the search plays there (``cassino explain``)."""
    return [f"{seating(n, partners)}: {choose(rules, n, partners).said}" for n, partners in seatings(rules)]

"""What one `cassino serve` allows: the names it answers as, how many tables, how long a computer player thinks.

A server on a network is shared by people who do not know each other, so every
resource a request can claim has a bound the lobby states: tables open at once
(in all, and per client address; a finished game counts until its table is
closed), connections (per table, per address, in all: each is an open file),
requests that upload a file or open a table (per address and minute), a search
player's budget a move (smaller than the terminal's, since every table shares
the machine), and the workers computer players think in. The names the server
answers as are checked on every request (the ``Host`` header), so a page of
another site that has rebound its own name to this computer's address (DNS
rebinding) is refused. A client's address is the one it connects from: headers
that name another (``X-Forwarded-For``) are believed only behind a proxy the
operator names (``cassino serve --proxy-headers``).
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections import deque
from dataclasses import dataclass, field, replace

from ...errors import CassinoError
from ...players.names import make_bot

#: Bounds of a search player at a table of the browser (the terminal allows 10,000 deals or 60 s).
BOT_DEALS = 2_000
BOT_SECONDS = 10.0
MAX_TABLES = 200
TABLES_PER_CLIENT = 20
BOT_WORKERS = 2
#: Reviews of finished games waiting for a worker at once (each takes about a second: ``cassino review``).
MAX_REVIEWS = 8
#: Deals each search value of a review is averaged over (``cassino review``'s default), never above ``bot_deals``.
REVIEW_DEALS = 32
#: Connections (websockets) open at once to one table, from one address, and in all.
CONNECTIONS_PER_TABLE = 32
CONNECTIONS_PER_CLIENT = 64
MAX_CONNECTIONS = 1000
#: Requests that upload a file or open a table (``/api/rules``, ``/api/tables``, ``/api/records``), per address.
UPLOADS_PER_MINUTE = 30
#: A finished game's table stays (for its record and its review) this long after the game ends and its last
#: browser left; then it is closed (its record stays in the folder).
FINISHED_SECONDS = 600.0
#: How long a browser's request waits for a table's engine work (its legal moves, a hint, a check) before it is
#: told the server is still working on it; the work goes on, and its answer is sent when it is ready.
WAIT_SECONDS = 5.0
#: How long a hint's search may take (the search player's, in a worker process): then it plays the best move
#: found so far. A worker still busy with it some seconds later is stopped and the hint given up, in words.
HINT_SECONDS = 3.0
#: Open files the server keeps for itself (its listening socket, logs, a record being written, worker pipes).
SPARE_FILES = 64
#: HTTP connections (pages, the lobby's requests) open at once beyond the websockets; past them, status 503.
HTTP_CONNECTIONS = 64
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


@dataclass(frozen=True)
class Limits:
    """The bounds of one server; the lobby shows them and every route enforces them."""

    max_tables: int = MAX_TABLES
    tables_per_client: int = TABLES_PER_CLIENT
    bot_deals: int = BOT_DEALS
    bot_seconds: float = BOT_SECONDS
    bot_workers: int = BOT_WORKERS
    max_reviews: int = MAX_REVIEWS
    connections_per_table: int = CONNECTIONS_PER_TABLE
    connections_per_client: int = CONNECTIONS_PER_CLIENT
    max_connections: int = MAX_CONNECTIONS
    uploads_per_minute: int = UPLOADS_PER_MINUTE
    finished_seconds: float = FINISHED_SECONDS
    wait_seconds: float = WAIT_SECONDS
    hint_seconds: float = HINT_SECONDS

    @property
    def review_deals(self) -> int:
        """A review's deals a move: the terminal's default, within the search players' bound."""
        return max(1, min(REVIEW_DEALS, self.bot_deals))

    def bot_names(self) -> str:
        return (f"random, greedy, search, search:N (N deals a move, 1 to {self.bot_deals:,}) "
                f"or search:Xs (X seconds a move, up to {self.bot_seconds:g})")

    def check_seat(self, kind: str) -> None:
        """CassinoError (in words) for a computer player this server does not run; people's seats pass."""
        if kind == "human":
            return
        try:
            make_bot(kind, max_deals=self.bot_deals, max_seconds=self.bot_seconds)
        except CassinoError as e:
            if "too large" in str(e):
                raise CassinoError(f"{e} on this server (the limit for the browser; `cassino play` allows more)") from None
            if str(e).startswith("no computer player"):
                raise CassinoError(f"no computer player named {kind[:40]!r}; choose from {self.bot_names()}") from None
            raise

    def as_json(self) -> dict[str, object]:
        return {"max_tables": self.max_tables, "tables_per_client": self.tables_per_client,
                "bot_deals": self.bot_deals, "bot_seconds": self.bot_seconds,
                "connections_per_table": self.connections_per_table,
                "connections_per_client": self.connections_per_client,
                "uploads_per_minute": self.uploads_per_minute}

    def fit_open_files(self) -> tuple["Limits", str]:
        """These limits within the process's open-file limit (``ulimit -n``), raised to its hard limit when
        needed: each table in play holds its record's lock file and each connection a socket. Returns the
        limits (with fewer connections if even the hard limit is too low) and a sentence saying so ("" when
        nothing had to change)."""
        try:
            import resource
        except ImportError:          # Windows: no such limit to fit
            return self, ""
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        needed = self.max_tables + self.max_connections + HTTP_CONNECTIONS + SPARE_FILES
        if soft != resource.RLIM_INFINITY and soft < needed:
            target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                soft = target
            except (ValueError, OSError):
                pass
        if soft == resource.RLIM_INFINITY or soft >= needed:
            return self, ""
        room = soft - self.max_tables - HTTP_CONNECTIONS - SPARE_FILES
        if room < 2:
            raise CassinoError(f"the open-file limit (ulimit -n) is {soft}: too low for {self.max_tables} tables; "
                               f"lower --max-tables or raise the limit")
        fitted = replace(self, max_connections=room, connections_per_client=min(self.connections_per_client, room),
                         connections_per_table=min(self.connections_per_table, room))
        return fitted, (f"at most {room} connections at once, to fit the open-file limit (ulimit -n) of {soft} "
                        f"with {self.max_tables} tables; raise it to take {self.max_connections}")


def _host_form(name: str) -> str:
    """A host as a ``Host`` header writes it: lower case, an IPv6 address in brackets."""
    name = name.strip().lower().rstrip(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        if ipaddress.ip_address(name).version == 6:
            return f"[{name}]"
    except ValueError:
        pass
    return name


def _wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def _own_names() -> set[str]:
    """This computer's name and addresses (what friends type when the server listens on every address)."""
    names = {socket.gethostname()}
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            names.add(str(info[4][0]))
    except OSError:
        pass
    return {n for n in names if n}


@dataclass(frozen=True)
class Hosts:
    """The ``Host`` header values the server answers to: ``name:port`` (and ``name`` alone on port 80)."""

    names: frozenset[str]
    port: int
    allowed: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        forms = {f"{n}:{self.port}" for n in self.names}
        if self.port == 80:
            forms |= set(self.names)
        object.__setattr__(self, "allowed", frozenset(forms))

    @classmethod
    def of(cls, host: str, port: int, extra: tuple[str, ...] = ()) -> "Hosts":
        """Loopback names, the ``--host`` address (on every address: this computer's names) and ``extra``."""
        names = set(LOOPBACK_NAMES) | {host} | set(extra)
        if _wildcard(host):
            names |= _own_names()
        return cls(frozenset(_host_form(n) for n in names if n), port)

    def accepts(self, header: str | None) -> bool:
        return (header or "").strip().lower() in self.allowed

    def refusal(self, header: str | None) -> str:
        shown = (header or "")[:80].encode("ascii", "replace").decode()
        names = ", ".join(sorted(self.allowed)[:6])
        return (f"this server does not answer as {shown!r} (a page of another site?): open it as one of {names}, "
                f"or start it with --allow-host NAME for the name you use")


class LimitReached(CassinoError):
    """A request within the rules but beyond what this server takes on now (a table too many)."""


class PerMinute:
    """At most ``per_minute`` events per key (a client address) in any minute; bounded in memory too."""

    KEYS = 10_000

    def __init__(self, per_minute: int, what: str) -> None:
        self.per_minute = per_minute
        self.what = what
        self._seen: dict[str, deque[float]] = {}

    def take(self, key: str, now: float | None = None) -> None:
        """Count one event of ``key``; LimitReached (nothing counted) when it has had its share this minute."""
        now = time.monotonic() if now is None else now
        times = self._seen.pop(key, None) or deque()
        while times and now - times[0] >= 60:
            times.popleft()
        self._seen[key] = times              # most recent last: the oldest keys go first when there are too many
        if len(times) >= self.per_minute:
            wait = max(1, int(60 - (now - times[0])) + 1)
            raise LimitReached(f"{self.what} from your address: at most {self.per_minute} a minute on this "
                               f"server; try again in {wait} s")
        times.append(now)
        while len(self._seen) > self.KEYS:
            self._seen.pop(next(iter(self._seen)))

"""What one `cassino serve` allows: the names it answers as, how many tables, how long a computer player thinks.

A server on a network is shared by people who do not know each other, so every
resource a request can claim has a bound the lobby states: tables open at once
(in all, and per client address), a search player's budget a move (smaller than
the terminal's, since every table shares the machine), and the workers computer
players think in. The names the server answers as are checked on every request
(the ``Host`` header), so a page of another site that has rebound its own name
to this computer's address (DNS rebinding) is refused.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass, field

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
                "bot_deals": self.bot_deals, "bot_seconds": self.bot_seconds}


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

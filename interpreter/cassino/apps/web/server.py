"""`cassino serve`: the lobby, the tables and their websockets, as one Starlette application.

Pages and scripts are static files of the package (no build step, nothing from
another site). Game state reaches a browser only through a table's websocket,
after the browser has shown a seat's token (``tables``); HTTP answers carry the
lobby's choices, a table's public line, the rulebook, and a game's record once
the game is over (a record holds the seed, so the whole deal, until then).

Requests are checked for size and kind before they are read; a request from a
page of another site (its ``Origin`` is not this server) is refused, so another
site open in the same browser cannot open tables or join a seat; a request that
names this server by a name it does not listen as (the ``Host`` header: a site
that rebound its own name to this address) is refused on every route.
Tables, connections, uploads, computer players' budgets and their workers are
bounded (``policy``). Nothing the engine or the rule loader does runs on the
event loop: pasted rules and uploaded records are read in the lobby's threads,
a table's work in the tables' (``tables``), each waited for a bounded time. An
answer never echoes what was sent, and names no path of the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
import socket
import tempfile
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Sequence
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...errors import CassinoError, Diagnostic, RuleFileError
from ...language.rules import Rules
from ...language.variants import LoadedVariant, load_rules
from ..game.records import Record, RecordError, load_game
from .lobby import Lobby, LobbyError, check_words, public_diagnostic, rules_info
from .policy import HTTP_CONNECTIONS, Hosts, LimitReached, Limits
from .protocol import ProtocolError, parse_request
from .tables import Client, StillWorking, Table, TableStore, public_words
from . import views

log = logging.getLogger("cassino.serve")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 2_000_000          # a pasted rule file (1 MB at most), as JSON
#: An uploaded game record, in bytes (a long game's record is a few tens of KB).
MAX_RECORD = 256_000
#: How long the lobby waits for reading a pasted rule file or an uploaded record (in a thread).
LOBBY_SECONDS = 20.0
#: Errors of a rule file shown at most, and the characters of each line of them.
MAX_ERRORS = 20
LINE_SHOWN = 240
HELLO_SECONDS = 15
GRACE_SECONDS = 3           # open websockets are closed after this long on stopping
WS_MAX_SIZE = 65_536          # frames beyond this are closed by the server before the app reads them

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
#: The rulebook is one self-contained page with its own <style> and no script.
RULES_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"


class SecurityHeaders:
    """Headers on every HTTP answer: no framing, no sniffing, no referrer, scripts from this server only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                extra = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                         (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")]
                if b"content-security-policy" not in present:
                    extra.append((b"content-security-policy", CSP.encode()))
                message["headers"] = headers + [h for h in extra if h[0] not in present]
            await send(message)

        await self.app(scope, receive, with_headers)


class KnownHosts:
    """Every request and websocket must name this server as it listens (DNS rebinding is refused)."""

    def __init__(self, app: ASGIApp, hosts: Hosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), None)
        if self.hosts.accepts(host):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4421})   # before the handshake: HTTP 403
            return
        text = self.hosts.refusal(host).encode()
        await send({"type": "http.response.start", "status": 421,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(text)).encode())]})
        await send({"type": "http.response.body", "body": text})


def _same_origin(headers: Any) -> bool:
    """No Origin (not a browser page's request) or this server's own."""
    origin = headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc.lower() == (headers.get("host") or "").lower()


def _error(message: str, status: int = 400, **extra: Any) -> JSONResponse:
    return JSONResponse({"message": message, **extra}, status_code=status)


class TooLarge(LobbyError):
    """A request larger than this server reads (answered 413)."""


def _cut(text: str | None, limit: int = LINE_SHOWN) -> str | None:
    """Each line of ``text`` at most ``limit`` characters (an error quotes its line of the file, never all of it)."""
    if text is None:
        return None
    return "\n".join(line if len(line) <= limit else line[: limit - 1] + "…" for line in text.splitlines())


def _shown(diagnostics: Sequence[Diagnostic], lobby: Lobby) -> list[dict[str, Any]]:
    """Problems as ``cassino validate --format json`` gives them, with the text it prints, naming files as
    their readers know them; each line quoted at most LINE_SHOWN characters, at most MAX_ERRORS of them."""
    shown = [public_diagnostic(d, lobby.rules_dir) for d in diagnostics[:MAX_ERRORS]]
    return [d.as_json() | {"message": _cut(d.message), "hint": _cut(d.hint), "source_line": _cut(d.source_line),
                           "text": _cut(d.format())} for d in shown]


def _diagnostics(e: RuleFileError, lobby: Lobby) -> JSONResponse:
    """A rule file's errors as ``cassino validate --format json`` gives them, with the text it prints,
    naming files as their readers know them (``standard (bundled)``), never by the server's paths; each
    line quoted from the file at most LINE_SHOWN characters, at most MAX_ERRORS errors."""
    errors = _shown(e.diagnostics, lobby)
    more = len(e.diagnostics) - len(errors)
    return JSONResponse({"valid": False, "errors": errors, "more_errors": more,
                         "message": "the rules have errors"}, status_code=400)


def _check_origin(request: Request) -> None:
    """PermissionError (403) for a request from a page of another site: checked before anything is read or
    counted."""
    if not _same_origin(request.headers):
        raise PermissionError("a page of another site cannot do this")


async def _body(request: Request, store: TableStore, limit: int = MAX_BODY, too_large: str = "") -> Any:
    """The request's JSON, read no further than ``limit`` bytes (and decoded in a thread); LobbyError when it
    is not JSON, TooLarge (413) beyond the limit."""
    _check_origin(request)
    refusal = too_large or f"the request is too large (at most {limit:,} bytes)"
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise TooLarge(refusal)
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise TooLarge(refusal)
        chunks.append(chunk)
    return await _in_lobby(store, _json_of, b"".join(chunks))


def _json_of(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LobbyError("the request is not JSON") from None


async def _in_lobby(store: TableStore, fn: Callable[..., Any], *args: Any) -> Any:
    """The lobby's work (the rule loader, a record's replay) in its threads, waited for LOBBY_SECONDS at most."""
    try:
        return await asyncio.wait_for(asyncio.shield(store.lobby_work.submit(fn, *args)), LOBBY_SECONDS)
    except asyncio.TimeoutError:
        raise StillWorking(f"reading this takes the server longer than {LOBBY_SECONDS:g} s: "
                           f"try a smaller file") from None


def _refusals(lobby: Lobby) -> Callable[[Callable[[Request], Awaitable[Response]]],
                                         Callable[[Request], Awaitable[Response]]]:
    """Bad requests answered in words with status 400 (403 from another site, 429 beyond a limit),
    never a traceback."""
    def wrap(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)
            except RuleFileError as e:
                return _diagnostics(e, lobby)
            except PermissionError as e:
                return _error(str(e), 403)
            except LimitReached as e:
                return _error(str(e), 429)
            except TooLarge as e:
                return _error(str(e), 413)
            except StillWorking as e:
                return _error(str(e), 503)
            except CassinoError as e:
                return _error(public_words(str(e), 400))
            except Exception:       # a bug: logged with its traceback; the browser gets a line
                log.exception("%s %s", request.method, request.url.path)
                return _error("the server could not do that (a bug: see the server's log)", 500)
        return wrapped
    return wrap


def _check_seats(data: Any, shown: str, limits: Limits) -> None:
    """An uploaded record's computer players, held to this server's bounds before the record is replayed."""
    seats = data.get("seats") if isinstance(data, dict) else None
    for kind in seats if isinstance(seats, list) else []:
        if isinstance(kind, str):
            try:
                limits.check_seat(kind)
            except CassinoError as e:
                raise LobbyError(f"{shown}: {e}") from None


def read_upload(text: str, shown: str, limits: Limits) -> tuple[Record, Any]:
    """An uploaded game record, read in a thread as `cassino replay` reads it: its record and its game (a game
    still to play). Errors name it as ``shown``, quote at most a short part of it, and never a path."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None                 # the record reader says what is wrong with it, with its line
    _check_seats(data, shown, limits)
    with tempfile.TemporaryDirectory(prefix="cassino-record-") as folder:
        path = Path(folder) / "record.json"
        path.write_text(text, encoding="utf-8", errors="replace")
        try:
            record, game = load_game(path)
        except RecordError as e:
            raise RecordError(public_words(_in_the_lobby(str(e).replace(str(path), shown)), 300)) from None
        except CassinoError:
            raise
        except Exception as e:      # whatever the reader meets: a refusal in words, the details in the log
            log.warning("reading an uploaded record: %r", e)
            raise RecordError(f"{shown}: not readable as a game record ({type(e).__name__})") from None
    if game.over:
        raise LobbyError(f"{shown}: this game is over, so there is nothing to continue "
                         f"(`cassino replay {shown}` shows it)")
    check_words(record.rules, shown)
    return record, game


def _in_the_lobby(words: str) -> str:
    """A record reader's advice for a rule file, said for the lobby it was uploaded to: there the rule file is
    played as "Your own rule file" (a player's audit was told to run `cassino play good.yaml`)."""
    return re.sub(r"use `cassino play [^`]*` to start a game with it",
                  'open it under "A new table" as "Your own rule file (YAML)" to start a game with it', words)


def _client(request: Request) -> str:
    """The address asking (tables are limited per address)."""
    return request.client.host if request.client is not None else ""


_RULEBOOKS: dict[str, str] = {}


def _rulebook_html(rules: Rules, source: str = "", loaded: LoadedVariant | None = None) -> str:
    """``cassino rules --format html``: a house rule named by ``source`` (a shipped example, a file of the rules
    folder) gets its changes marked against its parent, as long as the file still holds these rules; ``loaded``:
    the file as the lobby has just loaded it (these rules), not read again."""
    from ...language.render import render
    from ..authors.rulebooks import book_for, full_rulebook

    key = json.dumps([rules.data, source], sort_keys=True)
    if key not in _RULEBOOKS:
        book = None
        if source:
            try:
                if loaded is not None:
                    book = full_rulebook(source, loaded=loaded)
                else:
                    marked = full_rulebook(source)
                    book = marked if load_rules(source).data == rules.data else None
            except CassinoError:
                book = None
        if len(_RULEBOOKS) >= 64:
            _RULEBOOKS.pop(next(iter(_RULEBOOKS)))
        _RULEBOOKS[key] = render(book or book_for(rules), "html")
    return _RULEBOOKS[key]


def create_app(store: TableStore, lobby: Lobby, hosts: Hosts) -> Starlette:
    """The web application over a records folder (``store``) and the lobby's rule sources,
    answering as ``hosts`` only."""
    refusals = _refusals(lobby)

    async def page(request: Request) -> Response:
        name = "table.html" if request.url.path.startswith("/table/") else "index.html"
        return FileResponse(STATIC / name, media_type="text/html")

    @refusals
    async def choices(request: Request) -> Response:
        return JSONResponse(await _in_lobby(store, lobby.choices))

    def uploaded(request: Request, body: Any = None) -> None:
        """Count a request that opens a table or hands in a file (a named variant checked is not one).
        Only a request from this server's own pages is counted: a page of another site open in the
        same browser is refused first (403), so it cannot use up the address's allowance."""
        _check_origin(request)
        spec = body.get("rules") if isinstance(body, dict) else None
        if body is None or not isinstance(spec, dict) or spec.get("kind") not in ("bundled", "example", "folder"):
            store.uploads.take(_client(request))

    @refusals
    async def check_rules(request: Request) -> Response:
        _check_origin(request)
        body = await _body(request, store)
        uploaded(request, body)
        loaded, source = await _in_lobby(store, lobby.load, body.get("rules") if isinstance(body, dict) else None)
        return JSONResponse({"valid": True, "source": source, "info": rules_info(loaded.rules),
                             "warnings": _shown(loaded.warnings, lobby)})

    @refusals
    async def new_table(request: Request) -> Response:
        uploaded(request)
        record, you = await _in_lobby(store, lobby.new_record, await _body(request, store))
        table = await store.create(record, _client(request))
        table.kick()
        store.say(f"new table {table.id}: {record.rules.name}, seats {', '.join(record.seats)}")
        return JSONResponse({"id": table.id, "links": table.links(), "you": you, "info": table.public_info()})

    @refusals
    async def continue_record(request: Request) -> Response:
        too_large = f"a game record is at most {MAX_RECORD:,} bytes on this server; this one is larger"
        uploaded(request)
        body = await _body(request, store, 2 * MAX_RECORD + 4096, too_large)
        if not isinstance(body, dict) or not isinstance(body.get("text"), str):
            raise LobbyError("send the game record's text: {\"text\": ..., \"filename\": ...}")
        if len(body["text"].encode("utf-8", "surrogatepass")) > MAX_RECORD:
            raise TooLarge(too_large)
        filename = body["filename"] if isinstance(body.get("filename"), str) else ""
        shown = public_words(Path(filename.replace("\\", "/")).name or "record.json", 80)
        record, game = await _in_lobby(store, read_upload, body["text"], shown, store.limits)
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in Path(shown).stem)[:40] or "game"
        table = await store.continued(record, game, stem, _client(request))     # within the limits, or refused
        table.kick()
        humans = sorted(table.tokens)
        store.say(f"table {table.id} continues {shown} (saved as {table.session.save_path.name})")
        return JSONResponse({"id": table.id, "links": table.links(), "you": humans[0] if humans else None,
                             "info": table.public_info()})

    def table_of(request: Request) -> Table | None:
        return store.get(request.path_params["table"])

    async def table_info(request: Request) -> Response:
        table = table_of(request)
        return JSONResponse(table.public_info()) if table else _error("no such table", 404)

    async def record_file(request: Request) -> Response:
        table = table_of(request)
        if table is None:
            return _error("no such table", 404)
        if not table.session.game.over:
            return _error("the record is shown when the game is over: it holds the whole deal", 403)
        data = table.record.to_json(table.session.game)
        return Response(json.dumps(data, indent=1, ensure_ascii=False), media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{table.session.save_path.name}"'})

    @refusals
    async def table_rules(request: Request) -> Response:
        table = table_of(request)
        if table is None:
            return _error("no such table", 404)
        source = table.record.source if table.record.source in lobby.shipped_names() else ""
        text = await _in_lobby(store, _rulebook_html, table.session.game.rules, source)
        return HTMLResponse(text, headers={"content-security-policy": RULES_CSP})

    @refusals
    async def table_examples(request: Request) -> Response:
        table = table_of(request)
        if table is None:
            return _error("no such table", 404)
        return JSONResponse({"examples": await table.work(views.example_moves, table.session.game.engine)})

    @refusals
    async def named_rules(request: Request) -> Response:
        kind, name = request.path_params["kind"], request.path_params["name"]
        loaded, _ = await _in_lobby(store, lobby.load, {"kind": kind, "name": name})
        source = str(lobby.rules_dir / name) if kind == "folder" and lobby.rules_dir else name
        text = await _in_lobby(store, _rulebook_html, loaded.rules, source, loaded)
        return HTMLResponse(text, headers={"content-security-policy": RULES_CSP})

    async def play_socket(websocket: WebSocket) -> None:
        if not _same_origin(websocket.headers):
            await websocket.close(code=4403)
            return
        await websocket.accept()
        table = store.get(websocket.path_params["table"])

        async def refuse(message: str, code: int) -> None:
            await websocket.send_text(json.dumps({"type": "error", "message": message, "fatal": True}))
            await websocket.close(code=code)

        if table is None:
            await refuse("there is no such table (was the link copied whole?)", 4404)
            return
        address = websocket.client.host if websocket.client is not None else ""
        refusal = store.connect(address, table)
        if refusal is not None:
            await refuse(refusal, 4429)
            return
        try:
            await _seated(websocket, table, refuse)
        except asyncio.CancelledError:      # the server is stopping (its grace time is over): nothing to say
            pass
        finally:
            store.disconnect(address, table)

    async def _seated(websocket: WebSocket, table: Table, refuse: Callable[[str, int], Awaitable[None]]) -> None:
        """A connection counted toward the limits: its hello, then its requests until it closes."""
        try:
            first = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS)
        except asyncio.TimeoutError:
            await refuse("no seat token was sent", 4401)
            return
        if first["type"] == "websocket.disconnect":
            return
        try:
            hello = parse_request(first.get("text") if first.get("text") is not None else first.get("bytes"))
        except ProtocolError as e:
            await refuse(f"the first message names the seat: {{\"type\": \"hello\", \"token\": ...}} ({e})", 4400)
            return
        seat = table.seat_for(hello.text("token")) if hello.type == "hello" else False
        if seat is False:
            await refuse("this link holds no seat of this table: ask for the seat's link again", 4403)
            return
        client = Client(seat if isinstance(seat, int) else None)
        writer = asyncio.create_task(_write(websocket, client))
        await table.join(client)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text") if message.get("text") is not None else message.get("bytes")
                try:
                    req = parse_request(raw)
                    if req.type == "hello":
                        raise ProtocolError("this connection already holds its seat")
                except ProtocolError as e:
                    table.tell(client, "error", str(e))
                    continue
                try:
                    await table.handle(client, req)
                except Exception:      # a bug: said to this browser, logged, and the table goes on
                    log.exception("table %s: request %s", table.id, req.type)
                    table.tell(client, "error", "the server could not do that (a bug: see the server's log)")
        except WebSocketDisconnect:
            pass
        finally:
            await table.leave(client)
            client.drop()
            try:
                await asyncio.wait_for(writer, 2)
            except (asyncio.TimeoutError, Exception):
                writer.cancel()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store.start()                           # resumed tables whose computer player is to move
        yield
        store.unsaved = await store.stop()
        for table_id in store.unsaved:
            store.say(f"table {table_id} was still working out its last action: its record is as of the one before")

    routes = [
        Route("/", page),
        Route("/table/{table}", page),
        Route("/api/choices", choices),
        Route("/api/rules", check_rules, methods=["POST"]),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/records", continue_record, methods=["POST"]),
        Route("/api/tables/{table}", table_info),
        Route("/records/{table}.json", record_file),
        Route("/rules/{table}", table_rules),
        Route("/examples/{table}", table_examples),
        Route("/rules/{kind}/{name}", named_rules),
        WebSocketRoute("/ws/{table}", play_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(SecurityHeaders), Middleware(KnownHosts, hosts=hosts)],
                     lifespan=lifespan)


async def _write(websocket: WebSocket, client: Client) -> None:
    """Send a client's messages in order; close when it is dropped (saying why, where it is not a goodbye: a
    page that does not read, code 1008). A message that cannot be sent closes the connection too (code 1011),
    so that the page reconnects: a writer that stopped and left it open left the page waiting on a socket
    that answered nothing, not even a ping (an audit sent half a character)."""
    try:
        while True:
            text = await client.outbox.get()
            if text is None:
                if client.closing:
                    await websocket.close(code=1008, reason=client.closing[:120])
                else:
                    await websocket.close()
                return
            await websocket.send_text(text)
    except Exception:     # the browser went away (the reader sees it too), or a message could not be sent
        client.dropped = True
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)
        return


# ---------------------------------------------------------------------- starting
def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, or a CassinoError saying why not (port taken, unknown address)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise CassinoError(f"--host {host}: not an address of this computer ({e.strerror})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        if e.errno in (98, 48, 10048):
            raise CassinoError(f"port {port} on {host} is in use (another server?): choose another with --port") from None
        raise CassinoError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def make_server(store: TableStore, lobby: Lobby, hosts: Hosts, proxy_headers: bool = False,
                forwarded_allow_ips: str | None = None) -> Any:
    """A uvicorn server for the application (started with ``serve(sockets=[bind(...)])``).

    ``X-Forwarded-For`` and ``Forwarded`` name the client only with ``proxy_headers`` (the operator's
    ``--proxy-headers``), and then only from ``forwarded_allow_ips`` (default: loopback, a proxy on this
    computer): otherwise any client could name itself another address and pass the per-address limits."""
    import uvicorn

    class Server(uvicorn.Server):
        """A stop asked by SIGTERM or Ctrl-C is the normal end (exit 0): uvicorn raises the signal again
        once it has shut down, which would end the process before it says that every table is saved;
        the signal has been answered by stopping, so it is dropped."""

        @contextlib.contextmanager
        def capture_signals(self) -> Any:
            with super().capture_signals():
                yield
                self._captured_signals.clear()

    proxy: dict[str, Any] = {"proxy_headers": False}
    if proxy_headers:
        proxy = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips or "127.0.0.1"}
    # Connections of every kind at once (each an open file): the websockets the limits allow, and as many more
    # for pages and the lobby's requests; beyond that, status 503.
    config = uvicorn.Config(create_app(store, lobby, hosts), log_level="warning", ws_max_size=WS_MAX_SIZE,
                            access_log=False, lifespan="on", timeout_graceful_shutdown=GRACE_SECONDS,
                            limit_concurrency=store.limits.max_connections + HTTP_CONNECTIONS, **proxy)
    return Server(config)


def _say(text: str) -> None:
    print(text, flush=True)


def _reaches(form: str, host: str) -> bool:
    """Whether the ``Host`` form ``form`` names an address a browser reaches this server at, listening on ``host``:
    the other family's loopback address does not (a server on ``::1`` is not at 127.0.0.1, nor one on 127.0.0.1 or
    0.0.0.0 at ``[::1]``), though the name is answered to (it is harmless, and a proxy may send it)."""
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return True   # (a name: whatever it resolves to)
    name = form.rsplit(":", 1)[0] if not form.endswith("]") else form
    if ip.version == 4 and (ip.is_loopback or ip.is_unspecified):
        return name != "[::1]"
    if ip.version == 6 and ip.is_loopback:
        return name != "127.0.0.1"
    return True


def _folder_problems(lobby: Lobby) -> list[str]:
    """A line for each file of the rules folder that does not load now (the lobby offers every file, read again
    when chosen, so one fixed meanwhile opens; its operator hears of a broken one at the start, not from a
    player), with its first problem."""
    out = []
    for name in lobby.folder_files():
        try:
            lobby.load({"kind": "folder", "name": name})
        except (CassinoError, OSError) as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            out.append(f"rules folder: {name} does not load now, and a table cannot be opened with it: {first[:200]}")
    return out


def run(host: str, port: int, records: Path, rules_dir: Path | None, pace: float,
        say: Callable[[str], None] = _say, limits: Limits = Limits(), allow_hosts: tuple[str, ...] = (),
        proxy_headers: bool = False, forwarded_allow_ips: str | None = None) -> int:
    """Serve until SIGTERM or Ctrl-C. Every table is in ``records`` after every move, so stopping loses nothing:
    the computer players stop thinking, the writes under way end, and every table is saved once more."""
    limits, fitted = limits.fit_open_files()
    store = TableStore(records, pace, say, limits)
    store.prepare()
    adopted = store.open_all()
    sock = bind(host, port)
    base = url_of(sock, host)
    hosts = Hosts.of(host, sock.getsockname()[1], allow_hosts)
    if is_loopback(host):
        say(f"cassino serve: open {base}/ (listening on {host} only: other computers cannot connect; "
            f"--host 0.0.0.0 lets friends on your network join)")
    else:
        say(f"cassino serve: open {base}/ (listening on {host}: other computers that reach this address "
            f"can open tables; each seat needs its own link)")
    say(f"answers as {', '.join(sorted(h for h in hosts.allowed if _reaches(h, host)))} (add a name with --allow-host)")
    say(f"limits: {limits.max_tables} tables in play, {limits.tables_per_client} per computer; "
        f"computer players think in {limits.bot_workers} worker process{'es' if limits.bot_workers != 1 else ''}, "
        f"search up to {limits.bot_deals:,} deals or {limits.bot_seconds:g} s a move")
    say(f"connections: {limits.connections_per_table} per table, {limits.connections_per_client} per computer, "
        f"{limits.max_connections} in all; {limits.uploads_per_minute} uploads or new tables a minute per computer"
        + (f"; {fitted}" if fitted else ""))
    if proxy_headers:
        say(f"--proxy-headers: X-Forwarded-For names the client when it comes from "
            f"{forwarded_allow_ips or '127.0.0.1'} (the proxy); never expose this port directly")
    say(f"game records in {records} ({len(store.tables)} table{'s' if len(store.tables) != 1 else ''}"
        f" resumed); stop with Ctrl-C: nothing is lost")
    lobby = Lobby(rules_dir, limits)
    for line in _folder_problems(lobby):
        say(line)
    for table in adopted:
        links = ", ".join(f"seat {seat} {base}{link}" for seat, link in table.links()["seats"].items())
        say(f"took in {table.session.save_path.name} as table {table.id}: {links or 'no seats for people'}"
            f"; watch: {base}{table.links()['watch']}")
    server = make_server(store, lobby, hosts, proxy_headers, forwarded_allow_ips)
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:       # a second Ctrl-C: uvicorn stops at once; the records were written move by move
        pass
    finally:
        sock.close()
    n = len(store.tables)
    if store.unsaved:
        say(f"stopped; every table is in {records} as of its last action written ({n} table{'s' if n != 1 else ''})")
    else:
        say(f"stopped; every table is saved ({n} table{'s' if n != 1 else ''} in {records})")
    return 0

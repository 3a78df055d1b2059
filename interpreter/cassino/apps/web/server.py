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
Tables, computer players' budgets and their workers are bounded (``policy``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import socket
import tempfile
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable
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
from ...language.variants import load_rules
from ..game.records import RecordError, load_game, save_new
from .lobby import Lobby, LobbyError, public_diagnostic, rules_info
from .policy import Hosts, LimitReached, Limits
from .protocol import ProtocolError, parse_request
from .tables import Client, Table, TableStore
from . import views

log = logging.getLogger("cassino.serve")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 2_000_000          # a pasted rule file (1 MB at most) or a game record, as JSON
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


def _diagnostics(e: RuleFileError, lobby: Lobby) -> JSONResponse:
    """A rule file's errors as ``cassino validate --format json`` gives them, with the text it prints,
    naming files as their readers know them (``standard (bundled)``), never by the server's paths."""
    shown: list[Diagnostic] = [public_diagnostic(d, lobby.rules_dir) for d in e.diagnostics]
    errors = [d.as_json() | {"source_line": d.source_line, "text": d.format()} for d in shown]
    return JSONResponse({"valid": False, "errors": errors, "message": "the rules have errors"}, status_code=400)


async def _body(request: Request) -> Any:
    """The request's JSON, read no further than MAX_BODY bytes; LobbyError when it is not that."""
    if not _same_origin(request.headers):
        raise PermissionError("a page of another site cannot do this")
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise LobbyError(f"the request is too large (at most {MAX_BODY:,} bytes)")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise LobbyError(f"the request is too large (at most {MAX_BODY:,} bytes)")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LobbyError("the request is not JSON") from None


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
            except CassinoError as e:
                return _error(str(e).splitlines()[0] if isinstance(e, RecordError) else str(e))
        return wrapped
    return wrap


def _check_seats(text: str, shown: str, store: TableStore) -> None:
    """An uploaded record's computer players, held to this server's bounds before the record is read."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return                      # the record reader says what is wrong with it, with its line
    seats = data.get("seats") if isinstance(data, dict) else None
    for kind in seats if isinstance(seats, list) else []:
        if isinstance(kind, str):
            try:
                store.limits.check_seat(kind)
            except CassinoError as e:
                raise LobbyError(f"{shown}: {e}") from None


def _client(request: Request) -> str:
    """The address asking (tables are limited per address)."""
    return request.client.host if request.client is not None else ""


_RULEBOOKS: dict[str, str] = {}


def _rulebook_html(rules: Rules, source: str = "") -> str:
    """``cassino rules --format html``: a house rule named by ``source`` (a shipped example, a file of the rules
    folder) gets its changes marked against its parent, as long as the file still holds these rules."""
    from ...language.render import render
    from ..authors.rulebooks import book_for, full_rulebook

    key = json.dumps([rules.data, source], sort_keys=True)
    if key not in _RULEBOOKS:
        book = None
        if source:
            try:
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

    async def choices(request: Request) -> Response:
        return JSONResponse(lobby.choices())

    @refusals
    async def check_rules(request: Request) -> Response:
        body = await _body(request)
        loaded, source = lobby.load(body.get("rules") if isinstance(body, dict) else None)
        return JSONResponse({"valid": True, "source": source, "info": rules_info(loaded.rules)})

    @refusals
    async def new_table(request: Request) -> Response:
        record, you = lobby.new_record(await _body(request))
        table = store.create(record, _client(request))
        table.kick()
        store.say(f"new table {table.id}: {record.rules.name}, seats {', '.join(record.seats)}")
        return JSONResponse({"id": table.id, "links": table.links(), "you": you, "info": table.public_info()})

    @refusals
    async def continue_record(request: Request) -> Response:
        body = await _body(request)
        if not isinstance(body, dict) or not isinstance(body.get("text"), str):
            raise LobbyError("send the game record's text: {\"text\": ..., \"filename\": ...}")
        filename = body["filename"] if isinstance(body.get("filename"), str) else ""
        shown = (Path(filename.replace("\\", "/")).name or "record.json")[:80]
        _check_seats(body["text"], shown, store)
        with tempfile.TemporaryDirectory(prefix="cassino-record-") as folder:
            path = Path(folder) / "record.json"
            path.write_text(body["text"], encoding="utf-8", errors="replace")
            try:
                record, game = load_game(path)
            except RecordError as e:
                raise RecordError(str(e).replace(str(path), shown)) from None
        store.admit(record, _client(request))        # before a file is written
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in Path(shown).stem)[:40] or "game"
        saved = save_new(record, store.folder, f"{stem}-continued", game)
        table = store.adopt(record, saved, _client(request))
        table.kick()
        humans = sorted(table.tokens)
        store.say(f"table {table.id} continues {shown} (saved as {saved.name})")
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

    async def table_rules(request: Request) -> Response:
        table = table_of(request)
        if table is None:
            return _error("no such table", 404)
        source = table.record.source if table.record.source in lobby.shipped_names() else ""
        text = await asyncio.to_thread(_rulebook_html, table.session.game.rules, source)
        return HTMLResponse(text, headers={"content-security-policy": RULES_CSP})

    async def table_examples(request: Request) -> Response:
        table = table_of(request)
        if table is None:
            return _error("no such table", 404)
        return JSONResponse({"examples": views.example_moves(table.session.game.engine)})

    @refusals
    async def named_rules(request: Request) -> Response:
        kind, name = request.path_params["kind"], request.path_params["name"]
        loaded, _ = lobby.load({"kind": kind, "name": name})
        source = str(lobby.rules_dir / name) if kind == "folder" and lobby.rules_dir else name
        text = await asyncio.to_thread(_rulebook_html, loaded.rules, source)
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
        for table in store.tables.values():     # resumed tables whose computer player is to move
            table.kick()
        yield
        await store.stop()

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
    """Send a client's messages in order; close when it is dropped."""
    try:
        while True:
            text = await client.outbox.get()
            if text is None:
                await websocket.close()
                return
            await websocket.send_text(text)
    except Exception:     # the browser went away: the reader sees it too
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


def make_server(store: TableStore, lobby: Lobby, hosts: Hosts) -> Any:
    """A uvicorn server for the application (started with ``serve(sockets=[bind(...)])``)."""
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

    config = uvicorn.Config(create_app(store, lobby, hosts), log_level="warning", ws_max_size=WS_MAX_SIZE,
                            access_log=False, lifespan="on", timeout_graceful_shutdown=GRACE_SECONDS)
    return Server(config)


def _say(text: str) -> None:
    print(text, flush=True)


def run(host: str, port: int, records: Path, rules_dir: Path | None, pace: float,
        say: Callable[[str], None] = _say, limits: Limits = Limits(), allow_hosts: tuple[str, ...] = ()) -> int:
    """Serve until SIGTERM or Ctrl-C. Every table is in ``records`` after every move, so stopping loses nothing:
    the computer players stop thinking, the writes under way end, and every table is saved once more."""
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
    say(f"answers as {', '.join(sorted(hosts.allowed))} (add a name with --allow-host)")
    say(f"limits: {limits.max_tables} tables in play, {limits.tables_per_client} per computer; "
        f"computer players think in {limits.bot_workers} worker process{'es' if limits.bot_workers != 1 else ''}, "
        f"search up to {limits.bot_deals:,} deals or {limits.bot_seconds:g} s a move")
    say(f"game records in {records} ({len(store.tables)} table{'s' if len(store.tables) != 1 else ''}"
        f" resumed); stop with Ctrl-C: nothing is lost")
    for table in adopted:
        links = ", ".join(f"seat {seat} {base}{link}" for seat, link in table.links()["seats"].items())
        say(f"took in {table.session.save_path.name} as table {table.id}: {links or 'no seats for people'}"
            f"; watch: {base}{table.links()['watch']}")
    server = make_server(store, Lobby(rules_dir, limits), hosts)
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:       # a second Ctrl-C: uvicorn stops at once; the records were written move by move
        pass
    finally:
        sock.close()
    n = len(store.tables)
    say(f"stopped; every table is saved ({n} table{'s' if n != 1 else ''} in {records})")
    return 0

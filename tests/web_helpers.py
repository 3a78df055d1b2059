"""Running `cassino serve` in a test, and browsers scripted as plain websocket clients.

The server runs for real (uvicorn on a loopback port, in a thread of the test
process, so a test can also look at its tables); clients speak the same JSON
messages as the page's script.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.request import Request, urlopen
from urllib.error import HTTPError

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cassino.apps.authors.socket_replay import _Served
from cassino.apps.web.policy import Limits
from cassino.apps.web.tables import TableStore


@dataclass
class Served:
    url: str
    store: TableStore
    messages: list[str]
    server: _Served

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        """POST JSON (or bytes as they are); (status, answer)."""
        return self.server.post(path, body, headers, timeout=30)

    def get(self, path: str) -> tuple[int, bytes, dict[str, str]]:
        try:
            with urlopen(self.url + path, timeout=30) as r:
                return r.status, r.read(), dict(r.headers)
        except HTTPError as e:
            return e.code, e.read(), dict(e.headers)

    def new_table(self, seats: list[str], variant: str = "standard", kind: str = "bundled", you: int | None = 0,
                  **extra: Any) -> dict[str, Any]:
        status, answer = self.post("/api/tables", {"rules": {"kind": kind, "name": variant}, "players": len(seats),
                                                   "seats": seats, "you": you, **extra})
        assert status == 200, answer
        return answer

    def token(self, table: dict[str, Any], seat: int | None) -> str:
        link = table["links"]["watch"] if seat is None else table["links"]["seats"][str(seat)]
        return link.split("#", 1)[1]

    def seat(self, table: dict[str, Any], seat: int | None) -> "SeatClient":
        return SeatClient(self.url, table["id"], self.token(table, seat))



#: How long :func:`slow_hint` keeps its worker busy before it answers.
SLOW_HINT_SECONDS = 3.0


def slow_hint(position: bytes, seat: int, seconds: float) -> dict[str, Any]:
    """The web server's hint job, answered only after :data:`SLOW_HINT_SECONDS`: put in place of
    ``thinking._hint`` it makes a worker sure to overrun a short cap (a spawned worker imports it by name)."""
    from cassino.apps.web import thinking

    time.sleep(SLOW_HINT_SECONDS)
    return thinking._hint(position, seat, seconds)

@contextmanager
def serving(folder: Path, rules_dir: Path | None = None, pace: float = 0.0, limits: Limits = Limits(),
            allow_hosts: tuple[str, ...] = (), proxy_headers: bool = False) -> Iterator[Served]:
    """A real server on a free loopback port for the duration of the block (``proxy_headers``: as
    ``cassino serve --proxy-headers``): the matrix's socket replay's (``socket_replay._Served``)."""
    folder.mkdir(exist_ok=True)
    server = _Served(folder, rules_dir, pace, limits, allow_hosts, proxy_headers)
    try:
        yield Served(server.url, server.store, server.said, server)
    finally:
        server.stop(20, strict=False)


class SeatClient:
    """A browser reduced to its websocket: sends hello with the seat's token, reads JSON messages."""

    def __init__(self, url: str, table_id: str, token: str | None, *, hello: bool = True,
                 origin: str | None = None) -> None:
        opened = connect(url.replace("http", "ws", 1) + f"/ws/{table_id}", open_timeout=10, max_size=2**22,
                         origin=origin)  # type: ignore[arg-type]
        self.ws: ClientConnection = opened.__enter__()
        self.received: list[str] = []
        self.state: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.moved_at: tuple[int, int] | None = None
        if hello and token is not None:
            try:
                self.send({"type": "hello", "token": token})
            except ConnectionClosed:     # refused before the hello (no such table): its message is still there
                pass

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.received.append(text)
        msg = json.loads(text)
        if msg.get("type") == "state":
            self.state = msg
        elif msg.get("type") == "welcome":
            self.welcome = msg
        return msg

    def until(self, test: Callable[[dict[str, Any]], bool], timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no such message within {timeout} s; last: {self.received[-3:]}"
            msg = self.recv(left)
            if test(msg):
                return msg

    def my_turn(self, timeout: float = 30) -> dict[str, Any]:
        """The next state where this seat is to move at a position it has not moved at (or the game's end)."""
        return self.until(lambda m: m["type"] == "state" and (m["over"] or (
            m["turn"] == m["you"] and bool(m["moves"]) and (m["hand_no"], m["ply"]) != self.moved_at)), timeout)

    def move(self, text: str) -> None:
        assert self.state is not None
        self.moved_at = (self.state["hand_no"], self.state["ply"])
        self.send({"type": "move", "text": text})

    def ping(self, timeout: float = 10) -> None:
        self.send({"type": "ping"})
        self.until(lambda m: m["type"] == "pong", timeout)

    def play_out(self, choose: Callable[[dict[str, Any]], str] = lambda s: s["moves"][0]["text"],
                 hands: int | None = None, timeout: float = 120) -> dict[str, Any]:
        """Play this seat's moves until the game ends (or ``hands`` hands have ended); the last state."""
        deadline = time.monotonic() + timeout
        ended = 0
        while True:
            msg = self.until(lambda m: m["type"] in ("state", "hand_end"), deadline - time.monotonic())
            if msg["type"] == "hand_end":
                ended += 1
                if hands is not None and ended >= hands:
                    return msg
                continue
            if msg["over"]:
                return msg
            if msg["turn"] == msg["you"] and msg["moves"] and (msg["hand_no"], msg["ply"]) != self.moved_at:
                self.move(choose(msg))

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> "SeatClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ---------------------------------------------------------------------- `cassino serve` as its own process
@dataclass
class Process:
    """`cassino serve` started as a user starts it: its URL and every line it has printed so far."""

    proc: subprocess.Popen[str]
    url: str
    lines: list[str]
    errors: list[str]
    readers: list[threading.Thread]

    def said(self, text: str, timeout: float = 30) -> str:
        """The first printed line holding ``text`` (waiting for it up to ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            found = next((line for line in list(self.lines) if text in line), None)
            if found is not None:
                return found
            assert time.monotonic() < deadline and self.proc.poll() is None, (text, self.lines[-5:])
            time.sleep(0.05)

    def get(self, path: str, timeout: float = 10) -> tuple[int, bytes]:
        """GET, giving up after ``timeout`` seconds (a frozen server fails the test, it does not hang it)."""
        try:
            with urlopen(self.url + path, timeout=timeout) as r:
                return r.status, r.read()
        except HTTPError as e:
            return e.code, e.read()

    def post(self, path: str, body: Any, timeout: float = 10) -> tuple[int, Any]:
        req = Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                      headers={"content-type": "application/json"})
        try:
            with urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def stop(self, timeout: float = 60) -> tuple[float, int, str]:
        """SIGTERM, as a service manager stops it: (seconds to exit, exit status, what it wrote to stderr)."""
        start = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        took = time.monotonic() - start
        for reader in self.readers:
            reader.join(10)
        return took, self.proc.returncode, "".join(self.errors)


@contextmanager
def serve_process(records: Path, *options: str, start_within: float = 60,
                  rlimit_files: int | None = None) -> Iterator[Process]:
    """``cassino serve --port 0 --records RECORDS OPTIONS`` in a process of its own (killed if still running
    at the end of the block). ``rlimit_files``: its open-file limit (``ulimit -n``), soft and hard."""
    def limit() -> None:
        if rlimit_files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (rlimit_files, rlimit_files))

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "cassino", "serve", "--port", "0", "--records", str(records),
                             *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=limit if rlimit_files is not None else None)
    lines: list[str] = []
    errors: list[str] = []
    first: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if "open http://" in line:
                first.put(line)
        first.put("")

    def read_errors() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            errors.append(line)

    readers = [threading.Thread(target=read, daemon=True), threading.Thread(target=read_errors, daemon=True)]
    for reader in readers:
        reader.start()
    try:
        try:
            line = first.get(timeout=start_within)
        except queue.Empty:
            line = ""
        assert "open http://" in line, (f"the server did not start within {start_within} s: {lines[-5:]} "
                                        f"{''.join(errors)[-2000:]}")
        served = Process(proc, line.split("open ", 1)[1].split("/ ", 1)[0], lines, errors, readers)
        deadline = time.monotonic() + start_within
        while True:                 # listening and its signal handlers in place (it prints before it serves)
            try:
                if served.get("/favicon.ico", timeout=5)[0] == 404:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "the server never answered"
            time.sleep(0.05)
        yield served
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

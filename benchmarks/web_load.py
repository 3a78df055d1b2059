"""Load on `cassino serve`: many tables at once, and one table's latency while another table is heavy.

Two runs, each against `cassino serve --port 0 --pace 0` started as its own process
on a fresh records folder, everything on 127.0.0.1, stopping by itself (--timeout):

1. Tables (``run_load``): opens TABLES tables through the lobby's API (half of them a
   scripted person against `greedy`, half `random` against `greedy` with a scripted
   watcher), connects one websocket client per table, and lets every table play
   HANDS hands. Then it stops the server the way a user does (Ctrl-C) and checks
   that every table's record is in the folder, replays to the result it states,
   and holds the hands played. Prints the moves per second the server sustained.

2. Latency (``run_latency``): a person scripted at one ordinary table (standard,
   against `greedy`) plays move after move; each move's latency is the time from
   sending it to receiving the state that shows it. Measured three times, MOVES
   moves each, printed as p50 / p90 / max in milliseconds:
   - alone (the baseline);
   - while another table holds the issue-35 rule file (three packs, 100 cards dealt
     to the table) with a person and `greedy` playing it: if the lobby refuses the
     file (validate bounds the deal), the largest deal of the same file it takes;
   - while WATCHERS browsers join a third table, as fast as they can connect
     (and how long they took to join, and what the first watcher received meanwhile);
   - then while that table plays on, each move sent to every watcher.

3. Fairness (``run_fairness``, issue 48): the same person at an ordinary table, alone and then
   beside HEAVY tables of the issue's heavy rule file (Hungarian with two packs, 24 table
   cards, up to ten hand cards played together: thousands of moves a position) where a
   person asks a hint at every turn, waits for its answer (or the words that it was given
   up) and plays it, against `greedy`. Printed: the ordinary table's move latency (p50 /
   p90 / max) beside each number of heavy tables, and the hints' own latency and how many
   were cut short by their time or given up. The target: p90 under 50 ms.

    python benchmarks/web_load.py [--tables 50] [--hands 1] [--timeout 120]
    python benchmarks/web_load.py --latency [--moves 40] [--watchers 500]
    python benchmarks/web_load.py --fairness [--moves 40] [--heavy 3,6]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, AsyncIterator
from urllib.error import HTTPError
from urllib.request import Request, urlopen

from websockets.asyncio.client import connect

import arguments  # (benchmarks/arguments.py, beside this script)

from cassino.apps.game.records import load_game


def _post(url: str, body: Any) -> Any:
    req = Request(url, data=json.dumps(body).encode(), method="POST", headers={"content-type": "application/json"})
    with urlopen(req, timeout=60) as r:
        return json.loads(r.read())


async def _client(base: str, table: dict[str, Any], person: bool, hands: int) -> int:
    """One browser: a person who plays the first legal move, or a watcher; returns the messages it read."""
    link = table["links"]["seats"]["0"] if person else table["links"]["watch"]
    token = link.split("#", 1)[1]
    read = 0
    ended = 0
    moved_at = None
    async with connect(base.replace("http", "ws", 1) + f"/ws/{table['id']}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        async for text in ws:
            read += 1
            msg = json.loads(text)
            if msg["type"] == "hand_end":
                ended += 1
                if ended >= hands:
                    return read
            elif msg["type"] == "state":
                if msg["over"]:
                    return read
                here = (msg["hand_no"], msg["ply"])
                if person and msg["turn"] == msg["you"] and msg["moves"] and here != moved_at:
                    moved_at = here
                    await ws.send(json.dumps({"type": "move", "text": msg["moves"][0]["text"]}))
            elif msg["type"] == "error" and msg.get("fatal"):
                raise RuntimeError(f"table {table['id']}: {msg['message']}")
    return read


async def _play(base: str, tables: list[tuple[dict[str, Any], bool]], hands: int, timeout: float) -> int:
    jobs = [_client(base, t, person, hands) for t, person in tables]
    return sum(await asyncio.wait_for(asyncio.gather(*jobs), timeout))


def run_load(tables: int = 50, hands: int = 1, timeout: float = 120, folder: Path | None = None,
             variant: str = "standard") -> dict[str, Any]:
    """Run the load; the numbers, or an AssertionError saying what went wrong."""
    scratch = None
    if folder is None:
        scratch = tempfile.TemporaryDirectory(prefix="cassino-load-")
        folder = Path(scratch.name) / "records"
    proc = subprocess.Popen([sys.executable, "-m", "cassino", "serve", "--port", "0", "--pace", "0", "--records",
                             str(folder), "--max-tables", str(max(200, tables)),
                             "--tables-per-client", str(max(200, tables)), "--uploads-per-minute", str(max(1000, 2 * tables))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()              # type: ignore[union-attr]
        assert "http://127.0.0.1:" in line, f"the server did not start: {line}{proc.stderr.read()}"  # type: ignore[union-attr]
        base = line.split("open ", 1)[1].split("/ ", 1)[0]
        start = time.perf_counter()
        opened = []
        for k in range(tables):
            person = k % 2 == 0
            seats = ["human", "greedy"] if person else ["random", "greedy"]
            answer = _post(base + "/api/tables", {"rules": {"kind": "bundled", "name": variant}, "players": 2,
                                                  "seats": seats, "you": 0 if person else None})
            opened.append((answer, person))
        messages = asyncio.run(_play(base, opened, hands, timeout))
        played_for = time.perf_counter() - start
    finally:
        proc.send_signal(signal.SIGINT)        # as Ctrl-C: every table is already saved
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
    assert proc.returncode in (0, -signal.SIGINT), f"the server ended with {proc.returncode}: {err[-2000:]}"
    assert "Traceback" not in err, err[-2000:]
    records = sorted(folder.glob("*.json"))
    assert len(records) == tables, f"{len(records)} records for {tables} tables"
    assert len(list((folder / ".tables").glob("*.json"))) == tables
    moves = 0
    for path in records:
        record, game = load_game(path)          # replays and checks the stated result
        assert game.hand_no > hands or game.over, f"{path.name}: hand {game.hand_no} after {len(record.actions)} moves"
        moves += sum(1 for a in record.actions if not a.startswith("claim"))
    if scratch is not None:
        scratch.cleanup()
    return {"tables": tables, "hands": hands, "moves": moves, "messages": messages, "seconds": round(played_for, 2),
            "moves_per_second": round(moves / played_for, 1)}


# ---------------------------------------------------------------------- latency while another table is heavy
BIG_TABLE = """name: big-table
description: Escoba with three packs and a hundred cards dealt face up
extends: escoba
deck: {packs: 3}
seats: {max_players: 2}
deal: {table_cards: TABLE, hand_size: 10, dealer_takes_total: false}
"""


def _try_post(url: str, body: Any) -> tuple[int, Any]:
    req = Request(url, data=json.dumps(body).encode(), method="POST", headers={"content-type": "application/json"})
    try:
        with urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def _big_deal(base: str) -> tuple[int, str, str]:
    """The issue's file if the lobby takes it, else the largest deal of it the lobby takes: (table cards, the
    text, what the lobby said of the 100-card file)."""
    said = ""
    for n in range(100, 0, -1):
        text = BIG_TABLE.replace("TABLE", str(n))
        status, answer = _try_post(base + "/api/rules", {"rules": {"kind": "text", "text": text,
                                                                   "filename": "big-table.yaml"}})
        if status == 200:
            return n, text, said or "taken"
        if n == 100:
            said = (answer.get("errors") or [{}])[0].get("message") or answer.get("message", "")
    raise RuntimeError("the lobby takes no deal of the big-table file")


def _table(base: str, seats: list[str], you: int | None, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    status, answer = _try_post(base + "/api/tables", {"rules": rules or {"kind": "bundled", "name": "standard"},
                                                      "players": len(seats), "seats": seats, "you": you})
    assert status == 200, answer
    return answer


def _ws(base: str, table: dict[str, Any]) -> str:
    return base.replace("http", "ws", 1) + f"/ws/{table['id']}"


def _token(table: dict[str, Any], seat: int | None) -> str:
    link = table["links"]["watch"] if seat is None else table["links"]["seats"][str(seat)]
    return link.split("#", 1)[1]


async def _probe(base: str, moves: int, timeout: float) -> list[float]:
    """A person at an ordinary table plays ``moves`` moves (new tables as games end): each move's latency, ms."""
    latencies: list[float] = []
    deadline = time.monotonic() + timeout
    while len(latencies) < moves:
        table = await asyncio.to_thread(_table, base, ["human", "greedy"], 0)
        async with connect(_ws(base, table), max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": _token(table, 0)}))
            sent_at: float | None = None
            waiting_for: tuple[int, int] | None = None
            while len(latencies) < moves:
                msg = json.loads(await asyncio.wait_for(ws.recv(), max(1.0, deadline - time.monotonic())))
                if msg["type"] != "state":
                    continue
                here = (msg["hand_no"], msg["ply"])
                if sent_at is not None and here != waiting_for:
                    latencies.append((time.perf_counter() - sent_at) * 1000)
                    sent_at = None
                if msg["over"]:
                    break
                if msg["turn"] == msg["you"] and msg["moves"] and sent_at is None and here != waiting_for:
                    waiting_for = here
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "move", "text": msg["moves"][0]["text"]}))
    return latencies


async def _messages(ws: Any, stop: asyncio.Event) -> AsyncIterator[dict[str, Any]]:
    """A seat's messages, each read as JSON, until ``stop`` (looked at every half second)."""
    while not stop.is_set():
        try:
            yield json.loads(await asyncio.wait_for(ws.recv(), 0.5))
        except asyncio.TimeoutError:
            continue


async def _player(base: str, table: dict[str, Any], seat: int, stop: asyncio.Event) -> int:
    """A person who plays the first move offered at ``table`` until ``stop``; the moves made."""
    made = 0
    async with connect(_ws(base, table), max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": _token(table, seat)}))
        moved_at = None
        async for msg in _messages(ws, stop):
            if msg["type"] == "state":
                if msg["over"]:
                    return made
                here = (msg["hand_no"], msg["ply"])
                if msg["turn"] == msg["you"] and msg["moves"] and here != moved_at:
                    moved_at = here
                    made += 1
                    await ws.send(json.dumps({"type": "move", "text": msg["moves"][0]["text"]}))
    return made


async def _watch(url: str, token: str, joined: list[float], start: float, hold: asyncio.Event,
                 counted: dict[str, int] | None = None, until_turn: int | None = None) -> None:
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            msg = json.loads(await ws.recv())
            # (``until_turn``: the first watcher waits for the person's turn, so that a computer's
            # opening move is not counted as something the others' joining sent it.)
            if msg["type"] == "state" and (until_turn is None or msg.get("turn") == until_turn):
                joined.append(time.perf_counter() - start)
                break
            if msg.get("fatal"):
                raise RuntimeError(msg["message"])
        while not hold.is_set():        # read as a browser does (the first watcher counts what it gets)
            try:
                text = await asyncio.wait_for(ws.recv(), 0.2)
            except asyncio.TimeoutError:
                continue
            if counted is not None and counted.get("open", 1):
                counted["messages"] += 1
                counted["bytes"] += len(text.encode())


def _summary(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    return {"moves": len(ordered), "p50": round(statistics.median(ordered), 1),
            "p90": round(ordered[max(0, int(len(ordered) * 0.9) - 1)], 1), "max": round(ordered[-1], 1)}


async def _latency(base: str, moves: int, watchers: int, timeout: float) -> dict[str, Any]:
    result: dict[str, Any] = {"alone": _summary(await _probe(base, moves, timeout))}
    # Another table holds the biggest deal the lobby takes of the file, played by a person and greedy.
    cards, text, said = await asyncio.to_thread(_big_deal, base)
    big = await asyncio.to_thread(_table, base, ["human", "greedy"], 0,
                                  {"kind": "text", "text": text, "filename": "big-table.yaml"})
    stop = asyncio.Event()
    player = asyncio.create_task(_player(base, big, 0, stop))
    await asyncio.sleep(0.5)
    result["big_table"] = _summary(await _probe(base, moves, timeout)) | {"table_cards": cards, "lobby_said": said}
    stop.set()
    result["big_table"]["its_moves"] = await player
    # A third table, watched by WATCHERS browsers joining at once.
    watched = await asyncio.to_thread(_table, base, ["human", "greedy"], 0)
    url, token = _ws(base, watched), _token(watched, None)
    hold, joined, counted = asyncio.Event(), [], {"messages": 0, "bytes": 0}
    start = time.perf_counter()
    first = asyncio.create_task(_watch(url, token, joined, start, hold, counted, until_turn=0))
    while not joined:
        await asyncio.sleep(0.01)
    start = time.perf_counter()         # (the crowd's joining, timed from here)
    crowd = [asyncio.create_task(_watch(url, token, joined, start, hold)) for _ in range(watchers - 1)]
    probe = asyncio.create_task(_probe(base, moves, timeout))
    while len(joined) < watchers:
        await asyncio.sleep(0.01)
        for task in crowd:
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    all_joined = time.perf_counter() - start
    first_got = {"messages": counted["messages"], "bytes": counted["bytes"]}
    counted["open"] = 0                 # what it gets from here on is the table's play, not the joining
    result["watchers"] = _summary(await probe) | {"watchers": watchers, "all_joined_s": round(all_joined, 2),
                                                 "first_watcher_got": first_got}
    # The watched table plays on (its person and greedy): every move goes to every watcher.
    stop = asyncio.Event()
    player = asyncio.create_task(_player(base, watched, 0, stop))
    await asyncio.sleep(0.2)
    result["watched_play"] = _summary(await _probe(base, moves, timeout))
    stop.set()
    result["watched_play"]["its_moves"] = await player
    hold.set()
    await asyncio.gather(first, *crowd, return_exceptions=True)
    return result


def run_latency(moves: int = 40, watchers: int = 500, timeout: float = 300) -> dict[str, Any]:
    """Another table's move latency alone, beside the big-table file, and while ``watchers`` browsers join."""
    with tempfile.TemporaryDirectory(prefix="cassino-latency-") as scratch:
        folder = Path(scratch) / "records"
        proc = subprocess.Popen([sys.executable, "-m", "cassino", "serve", "--port", "0", "--pace", "0",
                                 "--records", str(folder), "--max-tables", "400", "--tables-per-client", "400",
                                 "--uploads-per-minute", "1000", "--connections-per-table", str(watchers + 10),
                                 "--connections-per-client", str(watchers + 50),
                                 "--max-connections", str(watchers + 100)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stdout.readline()              # type: ignore[union-attr]
            assert "http://127.0.0.1:" in line, f"the server did not start: {line}{proc.stderr.read()}"  # type: ignore[union-attr]
            base = line.split("open ", 1)[1].split("/ ", 1)[0]
            while True:                               # listening (it prints before it serves)
                try:
                    urlopen(base + "/api/choices", timeout=5).read()
                    break
                except OSError:
                    time.sleep(0.05)
            return asyncio.run(asyncio.wait_for(_latency(base, moves, watchers, timeout), timeout))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()


# ---------------------------------------------------------------------- fairness: beside heavy tables asking hints
#: The heavy table, shared with the tests of `cassino serve`.
HEAVY_HUNGARIAN = (Path(__file__).resolve().parent.parent / "tests" / "rules" / "heavy-hungarian.yaml").read_text(
    encoding="utf-8")


async def _hinter(base: str, table: dict[str, Any], stop: asyncio.Event, hints: list[dict[str, Any]]) -> None:
    """A person at a heavy table who asks a hint at every turn, waits for it, and plays it (or the first move
    offered when it was given up), until ``stop``; each hint's latency and what it said go to ``hints``."""
    async with connect(_ws(base, table), max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": _token(table, 0)}))
        state: dict[str, Any] | None = None
        asked_at: float | None = None
        asked: tuple[int, int] | None = None
        async for msg in _messages(ws, stop):
            if msg["type"] == "state":
                state = msg
                if msg["over"]:
                    return
                here = (msg["hand_no"], msg["ply"])
                if msg["turn"] == msg["you"] and msg["moves"] and here != asked:
                    asked, asked_at = here, time.perf_counter()
                    await ws.send(json.dumps({"type": "hint"}))
            elif msg["type"] == "hint" and asked_at is not None and state is not None:
                hints.append({"ms": (time.perf_counter() - asked_at) * 1000, "cut": bool(msg["move"] and msg["message"]),
                              "given_up": msg["move"] is None})
                asked_at = None
                text = msg["move"]["text"] if msg["move"] else state["moves"][0]["text"]
                await ws.send(json.dumps({"type": "move", "text": text}))


async def _fairness(base: str, moves: int, heavy: list[int], timeout: float, settle: float) -> dict[str, Any]:
    result: dict[str, Any] = {"alone": _summary(await _probe(base, moves, timeout))}
    rules = {"kind": "text", "text": HEAVY_HUNGARIAN, "filename": "heavy-hungarian.yaml"}
    for n in heavy:
        tables = [await asyncio.to_thread(_table, base, ["human", "greedy"], 0, rules) for _ in range(n)]
        stop, hints = asyncio.Event(), []
        hinters = [asyncio.create_task(_hinter(base, t, stop, hints)) for t in tables]
        await asyncio.sleep(settle)               # every heavy table has started and asked its first hint
        probe = _summary(await _probe(base, moves, timeout))
        stop.set()
        await asyncio.gather(*hinters)
        answered = sorted(h["ms"] for h in hints)
        result[f"beside_{n}"] = probe | {"heavy": n, "hints": len(hints),
                                         "hints_cut": sum(h["cut"] for h in hints),
                                         "hints_given_up": sum(h["given_up"] for h in hints),
                                         "hint_ms": _summary(answered) if answered else None}
    return result


def run_fairness(moves: int = 40, heavy: tuple[int, ...] = (3, 6), timeout: float = 600,
                 settle: float = 5.0) -> dict[str, Any]:
    """An ordinary table's move latency alone and beside each number of heavy tables asking hints (measured
    ``settle`` seconds after they started: the hints of their first positions under way)."""
    with tempfile.TemporaryDirectory(prefix="cassino-fairness-") as scratch:
        folder = Path(scratch) / "records"
        proc = subprocess.Popen([sys.executable, "-m", "cassino", "serve", "--port", "0", "--pace", "0",
                                 "--records", str(folder), "--max-tables", "400", "--tables-per-client", "400",
                                 "--uploads-per-minute", "1000"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stdout.readline()              # type: ignore[union-attr]
            assert "http://127.0.0.1:" in line, f"the server did not start: {line}{proc.stderr.read()}"  # type: ignore[union-attr]
            base = line.split("open ", 1)[1].split("/ ", 1)[0]
            while True:
                try:
                    urlopen(base + "/api/choices", timeout=5).read()
                    break
                except OSError:
                    time.sleep(0.05)
            return asyncio.run(asyncio.wait_for(_fairness(base, moves, list(heavy), timeout, settle), timeout))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                _, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
            assert "Traceback" not in err, err[-2000:]


def _line(name: str, r: dict[str, Any]) -> str:
    return f"{name:<40} {r['moves']:>3} moves: p50 {r['p50']:>7.1f} ms  p90 {r['p90']:>7.1f} ms  max {r['max']:>7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=arguments.count(1), default=50)
    parser.add_argument("--hands", type=arguments.count(1), default=1)
    parser.add_argument("--timeout", type=arguments.seconds, default=120)
    parser.add_argument("--variant", type=arguments.variant, default="standard")
    parser.add_argument("--latency", action="store_true", help="run the latency measurements instead")
    parser.add_argument("--moves", type=arguments.count(1), default=40, help="moves measured in each latency phase")
    parser.add_argument("--watchers", type=arguments.count(0), default=500)
    parser.add_argument("--fairness", action="store_true",
                        help="measure beside heavy tables asking hints instead (issue 48)")
    parser.add_argument("--heavy", type=arguments.numbers(), default=[3.0, 6.0],
                        help="numbers of heavy tables, comma-separated (default 3,6)")
    parser.add_argument("--settle", type=arguments.seconds, default=5.0,
                        help="seconds the heavy tables play before the measurement (default 5)")
    args = parser.parse_args()
    if args.fairness:
        counts = tuple(int(n) for n in args.heavy)
        if any(n != k or n < 1 for n, k in zip(counts, args.heavy)):
            parser.error(f"--heavy: whole numbers of tables, 1 or more, not {args.heavy}")
        r = run_fairness(args.moves, counts, max(args.timeout, 600), args.settle)
        print("a person's move at an ordinary table (standard, against greedy), send to state shown:")
        print(_line("alone", r["alone"]))
        for n in counts:
            b = r[f"beside_{n}"]
            print(_line(f"beside {n} heavy tables asking hints", b))
            h = b["hint_ms"]
            shown = f"p50 {h['p50']:.0f} ms, p90 {h['p90']:.0f} ms, max {h['max']:.0f} ms" if h else "none answered"
            print(f"  (their hints: {b['hints']} answered, {b['hints_cut']} cut short by their time, "
                  f"{b['hints_given_up']} given up; {shown})")
        return
    if args.latency:
        r = run_latency(args.moves, args.watchers, max(args.timeout, 300))
        big = r["big_table"]
        print("a person's move at an ordinary table (standard, against greedy), send to state shown:")
        print(_line("alone", r["alone"]))
        print(_line(f"beside the big-table file ({big['table_cards']} table cards)", big))
        print(f"  (the 100-card file in the lobby: {big['lobby_said']}; the big table's person made "
              f"{big['its_moves']} moves meanwhile)")
        w = r["watchers"]
        print(_line(f"while {w['watchers']} watchers join", w))
        print(f"  ({w['watchers']} watchers joined in {w['all_joined_s']} s; the first watcher received "
              f"{w['first_watcher_got']['messages']} messages, {w['first_watcher_got']['bytes']} bytes meanwhile)")
        print(_line(f"while the watched table plays on", r["watched_play"]))
        print(f"  (its person made {r['watched_play']['its_moves']} moves meanwhile, each sent to "
              f"{w['watchers']} watchers)")
        return
    result = run_load(args.tables, args.hands, args.timeout, variant=args.variant)
    print(f"{result['tables']} tables, {result['hands']} hand(s) each: {result['moves']} moves and "
          f"{result['messages']} messages to browsers in {result['seconds']} s: "
          f"{result['moves_per_second']} moves per second; every record replays to its stated result")


if __name__ == "__main__":
    main()

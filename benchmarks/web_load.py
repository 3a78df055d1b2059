"""Load on `cassino serve`: many tables at once on loopback, and every record checked afterwards.

Starts `cassino serve --port 0 --pace 0` as its own process on a fresh records
folder, opens TABLES tables through the lobby's API (half of them a scripted
person against `greedy`, half `random` against `greedy` with a scripted
watcher), connects one websocket client per table, and lets every table play
HANDS hands. Then it stops the server the way a user does (Ctrl-C) and checks
that every table's record is in the folder, replays to the result it states, and
holds the hands played. Prints the moves per second the server sustained.
Everything runs on 127.0.0.1 and stops by itself (--timeout).

    python benchmarks/web_load.py [--tables 50] [--hands 1] [--timeout 120]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.request import Request, urlopen

from websockets.asyncio.client import connect

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
                             "--tables-per-client", str(max(200, tables))], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--hands", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--variant", default="standard")
    args = parser.parse_args()
    result = run_load(args.tables, args.hands, args.timeout, variant=args.variant)
    print(f"{result['tables']} tables, {result['hands']} hand(s) each: {result['moves']} moves and "
          f"{result['messages']} messages to browsers in {result['seconds']} s: "
          f"{result['moves_per_second']} moves per second; every record replays to its stated result")


if __name__ == "__main__":
    main()

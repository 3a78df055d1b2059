"""A game played again in the browser, every seat a person at a page of their own: the ``socket`` consumer of
the matrix (:mod:`.matrix`).

``cassino serve`` runs for real (on a loopback port, in a thread) over a folder of its own. The computer
players' game, as far as an action drawn from the seed, is handed in as a saved game (the lobby's "continue a
saved game", every seat a person's), and each seat's page, a websocket client speaking the page's JSON, plays
its moves from there: a move clicked (its text as offered) or typed in the notation, a turn of several actions
now and then typed as one line (the table ends the turn itself), a claim sent by the seat that claims. Once, at
an action drawn from the seed, the server stops and starts again on its folder, and every page connects again
with its link. Some pages keep the counting aid or the tutorial on; some ask the warnings of each move before
they send it, as the page does with its toggle on; some ask a hint now and then before they move. What is checked:

- every state a page is sent is the game's position as that seat sees it (the hand, the table, the builds, the
  stock, each seat's held and taken cards and pile, the scores, whose turn), at a position the game reaches;
- no state names a card hidden from its page's seat (the other hands, the stock; with two packs a name only
  where no copy of it is in sight), a watcher's page included; a counting page's count is the seat's own;
- the seat to play is offered legal moves only, and every legal move where the list is not said to be cut;
- the warnings asked of a move read it as the legal move it is;
- a hint asked is answered for the position asked at, with one of the seat's legal moves (or words saying the
  server gave it up, as its limits allow: every one of them begins "the hint was given up:");
- every action is played as sent: nothing is refused (a move the table was too busy to take is sent again, as it
  asks), and the table's game after the last one is the game
  (its result and its actions, and the record it saved in its folder read back as ``cassino play --resume``
  reads it).

An :class:`AssertionError` says what went wrong, at which action. Needs the ``web`` extra.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

from ...engine.game import Game
from ...engine.notation import format_move, parse_move
from ...errors import CassinoError
from ..game.records import Record, apply_action, load_game, result_of
from ..learning.counting import count_for
from ..web.views import card_words, seat_view
from .blind import hidden_names, named
from ...players.base import claim_wins
from .terminal_replay import typed_turn

#: The words of a move the table was too busy to take (``tables.not_made``), which a page sends again.
BUSY = "was not made; send it again in a moment"
#: Seconds a page waits for a message the table owes it (a state after a move): far beyond any table's work.
WAIT = 60.0
#: The fields of a state compared with the game's own view of the position (the rest is the table's log and words).
POSITION_FIELDS = ("hand_no", "deal_no", "ply", "you", "turn", "stock", "loose", "builds", "hand", "over", "winner",
                   "target")
SEAT_FIELDS = ("held", "taken", "sweeps", "top", "pile")
#: The share of a hinting page's turns at which it asks a hint (a search of up to ``Limits.hint_seconds`` each).
HINT_SHARE = 0.3
#: How every hint the server gives up begins (``thinking.Thinkers.hint``, ``Table._send_hint``): a limit met, not
#: a failure; any other answer without a move (such as the words for a bug) is one.
GIVEN_UP = "the hint was given up:"


class _Served:
    """``cassino serve`` over ``folder`` on a free loopback port, in a thread, until :meth:`stop` (also the web tests'
    server, ``tests/web_helpers.py``: ``rules_dir``, ``pace``, ``limits`` and ``allow_hosts`` as ``cassino serve``'s
    options, ``proxy_headers`` as ``--proxy-headers``)."""

    def __init__(self, folder: Path, rules_dir: Path | None = None, pace: float = 0.0, limits: Any = None,
                 allow_hosts: tuple[str, ...] = (), proxy_headers: bool = False) -> None:
        from ..web.lobby import Lobby
        from ..web.policy import Hosts, Limits
        from ..web.server import bind, make_server
        from ..web.tables import TableStore

        limits = Limits() if limits is None else limits
        self.said: list[str] = []
        self.store = TableStore(folder, pace, self.said.append, limits)
        self.store.prepare()
        self.store.open_all()
        self.sock = bind("127.0.0.1", 0)
        port = self.sock.getsockname()[1]
        self.server = make_server(self.store, Lobby(rules_dir, limits), Hosts.of("127.0.0.1", port, allow_hosts),
                                  **({"proxy_headers": True} if proxy_headers else {}))
        self.url = f"http://127.0.0.1:{port}"
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])),
                                       daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise AssertionError(f"the server did not start: {self.said[-3:]}")
            time.sleep(0.01)

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None,
             timeout: float = WAIT) -> tuple[int, Any]:
        """POST ``body`` (JSON, or bytes as they are); the status and the answer read as JSON."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        request = Request(self.url + path, data=data, method="POST",
                          headers={"content-type": "application/json", **(headers or {})})
        try:
            with urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read())
        except HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def stop(self, seconds: float = 30.0, strict: bool = True) -> None:
        """Stopped as SIGTERM stops it; ``strict``: an AssertionError where it has not within ``seconds``."""
        self.server.should_exit = True
        self.thread.join(seconds)
        if not self.thread.is_alive():
            self.sock.close()   # (not under a server still stopping: its shutdown would meet a closed socket, fd -1)
        if strict and self.thread.is_alive():
            raise AssertionError(f"the server did not stop within {seconds:g} s")


def _claim_expected(game: Game, seat: int | None, move: dict[str, Any] | None) -> str | None:
    """What a hint for ``seat`` at ``game`` says of claiming, by the computer players' own rule
    (``players.base.claim_wins``): "now", "after" its ``move`` (which takes the side to the target), or None."""
    if seat is None or game.over:
        return None
    if claim_wins(game, seat):
        return "now"
    if move is not None:
        try:
            after = game.play(game.engine.resolve(game.hand, parse_move(move["text"], game.engine.deck)))
        except CassinoError:
            return None            # (an illegal hint is the next check's to say)
        if claim_wins(after, seat):
            return "after"
    return None


@dataclass
class _Page:
    """One seat's page (None: a watcher's) reduced to its websocket."""

    url: str
    table: str
    token: str
    seat: int | None
    counting: bool = False
    tutorial: bool = False
    warn: bool = False                          # asks the warnings before each move, as the page's toggle does
    hint: bool = False                          # asks a hint before some of its moves (``HINT_SHARE``)
    hints: int = 0                              # ...how many it was given with a move
    states: list[dict[str, Any]] = field(default_factory=list)
    ws: Any = None
    notes: list[str] = field(default_factory=list)     # the notes it was sent (said where a state never comes)
    sent: dict[str, Any] | None = None          # the last move or claim sent (sent again where the table was busy)
    again: int = 0                              # ...how many times

    def open(self) -> None:
        from websockets.sync.client import connect

        self.ws = connect(self.url.replace("http", "ws", 1) + f"/ws/{self.table}", open_timeout=WAIT,
                          max_size=2**22).__enter__()
        self.send({"type": "hello", "token": self.token})
        if self.counting:
            self.send({"type": "count", "on": True})
        if self.tutorial:
            self.send({"type": "tutorial", "on": True})

    def send(self, message: dict[str, Any]) -> None:
        if message["type"] in ("move", "claim", "warn"):
            self.sent = message
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def _next(self, deadline: float, check: "_Check", action: int, waiting: str) -> dict[str, Any]:
        """The next message that is neither a note nor a refusal of a move the table was too busy to take (sent
        again, as a person would); a state is checked as it comes. AssertionError for an error, any other refusal,
        or nothing by ``deadline`` (``waiting``: what the page was waiting for)."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"action {action}: {self.who} {waiting} within {WAIT:g} s (its last states: "
                                     f"{[(s['hand_no'], s['ply']) for s in self.states[-3:]]}; notes: "
                                     f"{self.notes[-3:]})")
            try:
                raw = self.ws.recv(timeout=left)
            except TimeoutError:
                continue
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "refused" and self.sent is not None and BUSY in message.get("message", ""):
                time.sleep(0.2)             # (a person sends it again, as the table asks, until the page gives up)
                self.again += 1
                self.send(self.sent)
                continue
            if kind in ("error", "refused"):
                raise AssertionError(f"action {action}: {self.who} was told {kind}: {message.get('message')!r}")
            if kind == "info":
                self.notes.append(str(message.get("message")))
                continue
            if kind == "state":
                self.states.append(message)
                check.state(self, message, raw, action)
            return message

    def state_at(self, where: tuple[int, int, bool], mover: bool, check: "_Check", action: int,
                 joined: bool = False) -> dict[str, Any]:
        """The next state of the position ``where`` (hand, ply, over), every message before it checked; for the
        seat to play, one with its moves worked out. ``joined``: the page has just connected, so its first state
        is the table's position now, which must be ``where``."""
        deadline = time.monotonic() + WAIT
        while True:
            message = self._next(deadline, check, action, f"was sent no state of hand {where[0]} ply {where[1]}")
            if message.get("type") != "state":
                continue
            key = (message["hand_no"], message["ply"], message["over"])
            if joined and key != where:
                raise AssertionError(f"action {action}: the server started again on its folder with the table at "
                                     f"hand {key[0]} ply {key[1]}, where the game is at hand {where[0]} ply {where[1]}")
            joined = False
            if key == where and (not mover or message["working"] is None):
                return message

    def warned(self, text: str, check: "_Check", action: int) -> dict[str, Any]:
        """The warnings asked of the move ``text`` before it is sent (the page's toggle): their answer, which must
        read it as a legal move."""
        self.send({"type": "warn", "text": text})
        deadline = time.monotonic() + WAIT
        while True:
            message = self._next(deadline, check, action, f"asked the warnings of {text!r} and had no answer")
            if message.get("type") == "warnings" and message.get("asked") == text:
                if message.get("refused") or not message.get("move"):
                    raise AssertionError(f"action {action}: the warnings of {text!r} refuse it: "
                                         f"{message.get('refused')!r}")
                return message

    def hinted(self, game: Game, check: "_Check", action: int) -> dict[str, Any] | None:
        """A hint asked at the seat's turn in ``game`` (the page's button): its move, which must be legal there, or
        None where the server gave it up within its limits."""
        self.send({"type": "hint"})
        deadline = time.monotonic() + WAIT
        while True:
            message = self._next(deadline, check, action, "asked a hint and had no answer")
            if message.get("type") != "hint":
                continue
            where = (message.get("hand_no"), message.get("ply"))
            if where != (game.hand_no, game.hand.ply):
                raise AssertionError(f"action {action}: {self.who} asked a hint at hand {game.hand_no} ply "
                                     f"{game.hand.ply} and was answered for hand {where[0]} ply {where[1]}")
            move = message.get("move")
            claim, expected = message.get("claim"), _claim_expected(game, self.seat, move)
            if claim != expected:
                raise AssertionError(f"action {action}: {self.who} asked a hint and was told to claim {claim!r}, "
                                     f"where the computer would claim {expected!r}")
            if move is None:
                said = str(message.get("message"))
                if claim == "now":
                    return None
                if not said.startswith(GIVEN_UP):
                    raise AssertionError(f"action {action}: {self.who} asked a hint and was told {said!r}")
                return None
            engine, hand = game.engine, game.hand
            try:
                parsed = engine.resolve(hand, parse_move(move["text"], engine.deck))
            except CassinoError as e:
                raise AssertionError(f"action {action}: the hint {move.get('text')!r} is no move here: {e}") from None
            if not engine.is_legal(hand, parsed):
                raise AssertionError(f"action {action}: the hint {move['text']!r} is illegal here: "
                                     f"{engine.why_illegal(hand, parsed)}")
            self.hints += 1
            return dict(move)

    @property
    def who(self) -> str:
        return "a watcher's page" if self.seat is None else f"seat {self.seat}'s page"


@dataclass
class _Check:
    """The positions the game reaches, by (hand, ply, over), and what each page's state must say of them."""

    games: dict[tuple[int, int, bool], Game] = field(default_factory=dict)

    def reached(self, game: Game) -> None:
        self.games[(game.hand_no, game.hand.ply, game.over)] = game     # (a claim ends the game at its ply)

    def state(self, page: _Page, state: dict[str, Any], text: str, action: int) -> None:
        game = self.games.get((state["hand_no"], state["ply"], state["over"]))
        if game is None:
            raise AssertionError(f"action {action}: {page.who} was sent a state of hand {state['hand_no']} ply "
                                 f"{state['ply']}, a position the game never reached")
        kinds = ["human"] * game.hand.players
        want = seat_view(table_id=state["table"], game=game, kinds=kinds, viewer=page.seat, hand_log=[], moves=[],
                         connected=range(game.hand.players), can_undo=False)
        for name in POSITION_FIELDS:
            if state.get(name) != want[name]:
                raise AssertionError(f"action {action}: {page.who} is shown {name} {state.get(name)!r} where the "
                                     f"game has {want[name]!r} (hand {game.hand_no}, ply {game.hand.ply})")
        for got, wanted in zip(state["seats"], want["seats"], strict=True):
            for name in SEAT_FIELDS:
                if got[name] != wanted[name]:
                    raise AssertionError(f"action {action}: {page.who} is shown seat {got['seat']}'s {name} "
                                         f"{got[name]!r} where the game has {wanted[name]!r}")
        if [side["score"] for side in state["sides"]] != [side["score"] for side in want["sides"]]:
            raise AssertionError(f"action {action}: {page.who} is shown the scores "
                                 f"{[side['score'] for side in state['sides']]} where the game has {game.scores}")
        count = state.pop("count", None)
        if page.counting and page.seat is not None and count is not None:
            if count != json.loads(json.dumps(count_for(game, page.seat).to_json())):
                raise AssertionError(f"action {action}: {page.who}'s count is not the seat's own")
            text = json.dumps(state)       # (the count names the cards still out as such: the blind check's)
        deck = game.engine.deck
        leaked = named((form for n in hidden_names(game, page.seat) for form in (n, card_words(deck, n))), text)
        if leaked:
            raise AssertionError(f"action {action}: {page.who} is sent a state naming hidden cards {leaked}")
        if state["moves"]:
            self.offered(game, state, action)

    def offered(self, game: Game, state: dict[str, Any], action: int) -> None:
        engine, hand, deck = game.engine, game.hand, game.engine.deck
        keys = set()
        for move in state["moves"]:
            parsed = engine.resolve(hand, parse_move(move["text"], deck))
            if not engine.is_legal(hand, parsed):
                raise AssertionError(f"action {action}: offered {move['text']}: {engine.why_illegal(hand, parsed)}")
            keys.add(engine.key_of(hand, parsed))
        if not state["moves_cut"]:
            missing = [m for m in engine.playable_moves(hand) if engine.key_of(hand, m) not in keys]
            if missing:
                raise AssertionError(f"action {action}: the list of moves is not said to be cut, but lacks "
                                     f"{format_move(missing[0], deck)} ({len(missing)} legal moves not offered)")


def _saved(record: Record, actions: list[str]) -> str:
    """The saved game the lobby is handed: every seat a person's, ``actions`` played."""
    people = Record(record.rules, record.seed, record.players, record.partners, ["human"] * record.players,
                    record.dealer, list(actions), source=record.source)
    return json.dumps(people.to_json())


def replay_over_the_socket(record: Record, actions: list[str], seed: int) -> int:
    """Play ``actions`` (the game ``record`` deals, from its start) again at ``cassino serve``, every seat a person's
    page; AssertionError where the table plays another game, sends a page what it should not, or refuses an action.
    Returns how many actions were sent over the socket."""
    rng = random.Random(seed)
    game = record.new_game()
    games = [game]
    for action in actions:
        game = apply_action(game, action)
        games.append(game)
    check = _Check()
    handed = rng.randrange(len(actions) + 1) if rng.random() < 0.5 else 0
    while handed > 0 and games[handed].over:
        handed -= 1
    restart = rng.randrange(handed, len(actions) + 1) if len(actions) > handed else None
    for g in games:
        check.reached(g)
    # (a cleanup that meets the server still writing, where the soak's time ran out inside `stop`, must not put an
    # OSError in place of the soak's own stop: session 98's CI met "Directory not empty" there, said as a finding)
    with tempfile.TemporaryDirectory(prefix="cassino-socket-", ignore_cleanup_errors=True) as folder:
        served = _Served(Path(folder))
        pages: list[_Page] = []
        try:
            status, table = served.post("/api/records", {"text": _saved(record, actions[:handed]),
                                                         "filename": "matrix.json"})
            if status != 200:
                raise AssertionError(f"the saved game after {handed} actions was refused ({status}): {table}")
            links = table["links"]
            pages = [_Page(served.url, table["id"], links["seats"][str(seat)].split("#", 1)[1], seat,
                           counting=rng.random() < 0.3, tutorial=rng.random() < 0.2, warn=rng.random() < 0.3,
                           hint=rng.random() < 0.3)
                     for seat in range(record.players)]
            pages.append(_Page(served.url, table["id"], links["watch"].split("#", 1)[1], None))
            for page in pages:
                page.open()
            sent = 0
            mover: _Page | None = None        # (read first: a refusal of what it sent comes to it alone)
            k = handed
            while k < len(actions):
                before, action = games[k], actions[k]
                claim = action.startswith("claim")
                seat = int(action.split()[1]) if claim else before.hand.turn
                where = (before.hand_no, before.hand.ply, before.over)
                for page in sorted(pages, key=lambda p: p is not mover):
                    state = page.state_at(where, page.seat == seat and not claim, check, k)
                    if page.seat == seat:
                        mine = state
                if k == restart:
                    # (once the last action sent is played: one sent as the server stops may be lost, as over a
                    # network, and the page would see its move not made)
                    for page in pages:
                        page.close()
                    served.stop()
                    served = _Served(Path(folder))
                    for page in pages:
                        page.url = served.url
                        page.open()
                        state = page.state_at(where, page.seat == seat and not claim, check, k, joined=True)
                        if page.seat == seat:
                            mine = state
                    restart = None
                mover = pages[seat]
                if claim:
                    pages[seat].send({"type": "claim"})
                    k += 1
                else:
                    if pages[seat].hint and rng.random() < HINT_SHARE:
                        pages[seat].hinted(before, check, k)
                    texts = {m["text"] for m in mine["moves"]}
                    turn = typed_turn(games[k], actions[k:])
                    whole = turn is not None and rng.random() < 0.4
                    if whole:
                        assert turn is not None
                        typed = "; ".join(turn)
                    else:
                        typed = action if action in texts or rng.random() < 0.5 else _respelt(before, action)
                    if pages[seat].warn and action != "end":
                        pages[seat].warned(typed, check, k)
                    pages[seat].send({"type": "move", "text": typed})
                    k += len(turn) + 1 if whole and turn is not None else 1     # (a whole turn's `end` the table plays)
                sent += 1
            last = games[-1]
            for page in sorted(pages, key=lambda p: p is not mover):
                page.state_at((last.hand_no, last.hand.ply, last.over), False, check, len(actions))
            played = served.store.get(table["id"])
            if played is None:
                if not last.over:
                    raise AssertionError("the table was closed before its game was over")
                return sent
            got, want = played.session.game, last
            if result_of(got) != result_of(want):
                raise AssertionError(f"the table's game ended at {result_of(got)} where the game is at "
                                     f"{result_of(want)}")
            if played.record.actions != list(actions):
                raise AssertionError(f"the table recorded {len(played.record.actions)} actions where the game has "
                                     f"{len(actions)}: {_first_difference(played.record.actions, actions)}")
            again, resumed = load_game(played.session.save_path)
            if again.actions != list(actions) or result_of(resumed) != result_of(want):
                raise AssertionError("the record the table saved does not resume as the game")
            return sent
        finally:
            for page in pages:
                page.close()
            served.stop()


def _respelt(game: Game, action: str) -> str:
    """``action`` in the notation as a person might type it: its cards in lower case."""
    try:
        format_move(parse_move(action.lower(), game.engine.deck), game.engine.deck)
    except CassinoError:
        return action
    return action.lower()


def _first_difference(got: list[str], want: list[str]) -> str:
    for k, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return f"action {k} is {a!r} where the game played {b!r}"
    return f"one is {abs(len(got) - len(want))} actions longer"

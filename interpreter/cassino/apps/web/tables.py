"""Tables being played in the browser: a game session each, its seats' tokens, its connected clients.

A table is a :class:`~cassino.apps.game.session.GameSession` (the game loop ``cassino
play`` uses too) with what the web adds: an unguessable token per seat for
people (``secrets``), the browsers connected to it, and the computer players'
turns run in worker processes of their own (``thinking``), so computer players
thinking never stall a person's move at any table.

Nothing lives only in memory. Each table's game is the same JSON record as
``cassino play`` writes, rewritten atomically after every action, in the records
folder; its tokens are in ``.tables/ID.json`` beside it (readable by the
server's user only). A server started on the folder again resumes every table;
a record that ``cassino play`` wrote there is taken in as a new table; a damaged
file is reported and left as it is.

Every message to a browser goes through :meth:`Table.post`, with the position it
describes, and is built by ``views`` from what that seat may see.

The learning aids are asked for by a seat: the counting aid (``count_for``, from the
seat's own view only) rides in each state sent to a browser that switched it on; the
warnings (``warnings_for``) answer a move before it is sent; the review, which shows
every hand, only once the game is over, only to a seat's token, computed in the
computer players' workers and kept for the next time it is asked. The tutorial (``Tutorial``)
is kept per seat, so a reconnect or a second tab of the seat never repeats a lesson: after
every action, of any seat (a computer's capture teaches too), each browser of a seat that
switched it on gets the rulebook's sentences that action taught the seat for the first time.
A lesson is the rulebook's words and the action everyone has just seen, so it shows no card
that was hidden.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import re
import secrets
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ...engine.moves import Move, MoveKind
from ...engine.notation import format_move, parse_move
from ...engine.state import HandState
from ...errors import CassinoError
from ...files import FileProblem, Held, hold
from ..game.records import Record, RecordError, actor_of, apply_action, load_game, save_new
from ..game.session import GameSession, NotAMove
from ..game.summary import HandSummary, hand_summary, outcome
from ..learning.counting import count_for
from ..learning.tutorial import Lesson, Tutorial
from ..learning.warnings import warnings_for
from . import views
from .policy import REVIEW_DEALS, Limits, LimitReached
from .protocol import Request
from .thinking import Thinkers, Writers, long_thinker

log = logging.getLogger("cassino.serve")

TABLES_FORMAT = "cassino-table/1"
SIDECARS = ".tables"
OUTBOX = 64             # messages waiting for a slow browser before it is disconnected
#: Legal moves sent to the browser at most; a table of many low cards can have tens of thousands
#: (each hand card then gets its share, and any legal move can still be typed).
MAX_OFFERED = 600


def encode(message: dict[str, Any]) -> str:
    """A message as the browser receives it."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(eq=False)
class Client:
    """One connected browser: its seat (None for a watcher) and the messages waiting to be sent to it."""

    seat: int | None
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    dropped: bool = False
    #: The counting aid is sent with every state (switched on by the browser; off by default).
    counting: bool = False
    #: The tutorial's lessons are sent to this browser (switched on by the browser; off by default).
    tutorial: bool = False

    def send(self, text: str) -> None:
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """Stop sending (the browser is not reading); its writer closes the connection."""
        self.dropped = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(None)


@dataclass
class HandEnd:
    """The last hand that ended: its summary, its moves, and its final position (what the summary describes)."""

    summary: HandSummary
    log: list[tuple[int, str]]
    position: HandState


class Table:
    def __init__(self, table_id: str, session: GameSession, tokens: dict[int, str], watch: str,
                 pace: float, thinkers: Thinkers, writers: Writers, review_deals: int = REVIEW_DEALS) -> None:
        self.id = table_id
        self.thinkers = thinkers
        self.writers = writers
        self.session = session
        self.tokens = tokens
        self.watch = watch
        self.pace = pace
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.version = 0
        self.driver: asyncio.Task[None] | None = None
        self.hand_log: list[tuple[int, str]] = []
        self.last_end: HandEnd | None = None
        self.failed: str | None = None
        self.review_deals = review_deals
        #: Finished games' reviews by seat (a finished game never changes), and those being made.
        self.reviews: dict[int, dict[str, Any]] = {}
        self.reviewing: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        #: Each seat's tutorial (the lessons it has been shown), made when one of its browsers switches it on.
        self.tutorials: dict[int, Tutorial] = {}
        self._rebuild_log()

    # ------------------------------------------------------------------ who is who
    @property
    def record(self) -> Record:
        return self.session.record

    @property
    def kinds(self) -> list[str]:
        return self.session.record.seats

    def seat_for(self, token: str) -> int | None | bool:
        """The seat a token holds (None: the watcher's token); False when it is no token of this table."""
        found: int | None | bool = False
        for seat, secret in self.tokens.items():
            if secrets.compare_digest(secret.encode(), token.encode()):
                found = seat
        if secrets.compare_digest(self.watch.encode(), token.encode()):
            found = None
        return found

    def links(self) -> dict[str, Any]:
        """Each people's seat's link and the watcher's link (paths; the token after ``#`` never reaches a log)."""
        return {"seats": {str(seat): f"/table/{self.id}#{token}" for seat, token in sorted(self.tokens.items())},
                "watch": f"/table/{self.id}#{self.watch}"}

    def public_info(self) -> dict[str, Any]:
        """What anyone who knows the table's id may know: no card, no token."""
        game = self.session.game
        return {"id": self.id, "variant": game.rules.name, "source": self.record.source,
                "players": game.players, "seats": list(self.kinds), "hand_no": game.hand_no, "over": game.over,
                "outcome": outcome(game), "connected": sorted({c.seat for c in self.clients if c.seat is not None})}

    # ------------------------------------------------------------------ the log of the hand in play
    def _rebuild_log(self) -> None:
        """This hand's actions with their seats, and the last hand that ended (after a resume or an undo)."""
        game = self.record.new_game()
        log_: list[tuple[int, str]] = []
        self.last_end = None
        for action in self.record.actions:
            before = game
            game = apply_action(before, action)
            log_.append((actor_of(action, before), _shown(action)))
            if len(game.results) > len(before.results):
                self.last_end = self._hand_end(before, action, game, log_)
            if game.hand_no != before.hand_no:
                log_ = []
        self.hand_log = log_

    @staticmethod
    def _hand_end(before: Any, action: str, after: Any, log_: list[tuple[int, str]]) -> HandEnd | None:
        if action.startswith("claim"):
            return None
        move = parse_move(action, before.engine.deck)
        summary = hand_summary(before, move, after)
        if summary is None:
            return None
        return HandEnd(summary, list(log_), before.engine.apply(before.hand, move))

    # ------------------------------------------------------------------ messages
    def post(self, client: Client, message: dict[str, Any], about: HandState | None) -> None:
        """Send ``message`` to one browser. ``about``: the position it describes (None: it shows no cards)."""
        client.send(encode(message))

    def view(self, seat: int | None) -> dict[str, Any]:
        s = self.session
        game = s.game
        mine = seat is not None and not game.over and game.hand.turn == seat and seat not in s.bots
        moves, total = s.listed_moves(MAX_OFFERED) if mine else ([], 0)
        return views.seat_view(table_id=self.id, game=game, kinds=self.kinds, viewer=seat, hand_log=self.hand_log,
                               moves=moves, connected=(c.seat for c in self.clients if c.seat is not None),
                               can_undo=seat is not None and s.humans() == 1 and bool(self.record.actions),
                               source=self.record.source) | {
            "record": f"/records/{self.id}.json" if game.over else None,
            "rules": f"/rules/{self.id}", "typing": views.typing_words(game.engine.deck), "failed": self.failed,
            "more_moves": total - len(moves)}

    def post_state(self, client: Client) -> None:
        view = self.view(client.seat)
        if client.counting and client.seat is not None:
            # Counted from the seat's own view: its hand and the public cards (``count_for``).
            view["count"] = count_for(self.session.game, client.seat).to_json()
        self.post(client, view, self.session.game.hand)

    def post_hand_end(self, client: Client, end: HandEnd) -> None:
        self.post(client, views.summary_view(end.summary, self.kinds, client.seat, end.log), end.position)

    def publish(self) -> None:
        for client in list(self.clients):
            self.post_state(client)

    def tell(self, client: Client, kind: str, message: str) -> None:
        """A line for one browser (an error, a refusal, a note): it describes the position in play."""
        self.post(client, {"type": kind, "message": message}, self.session.game.hand)

    # ------------------------------------------------------------------ joining
    async def join(self, client: Client) -> None:
        """A browser takes its seat (or watches): it gets the last hand's scoring and the table as it stands."""
        async with self.lock:
            self._join(client)

    def _join(self, client: Client) -> None:
        self.clients.add(client)
        self.post(client, {"type": "welcome", "table": self.id, "seat": client.seat,
                           "seats": list(self.kinds)}, None)
        if self.last_end is not None:
            self.post_hand_end(client, self.last_end)
        self.publish()
        self.kick()

    async def leave(self, client: Client) -> None:
        async with self.lock:
            self.clients.discard(client)
            self.publish()

    # ------------------------------------------------------------------ acting
    async def _act(self, action: str) -> None:
        """Apply, record and show an action (called with the lock held).

        The record is written (and synced to disk) by a writer thread, never one a computer
        player thinks in, so one table's disk write or thinking never holds up the others;
        nobody is shown the move before it is written.
        """
        s = self.session
        before = s.game
        acted = await self.writers.run(s.act, action)
        self.version += 1
        self.hand_log.append((acted.seat, _shown(acted.action)))
        if acted.summary is not None:
            end = self._hand_end(before, acted.action, s.game, self.hand_log)
            if end is not None:
                self.last_end = end
                for client in list(self.clients):
                    self.post_hand_end(client, end)
        if acted.new_hand:
            self.hand_log = []
        self.publish()
        self._teach(before, acted.seat, acted.action)

    # ------------------------------------------------------------------ the tutorial
    def _teach(self, before: Any, seat: int, action: str) -> None:
        """The lessons of the action just made (by ``seat``, from ``before``), to each browser that switched
        the tutorial on, each the first time its seat meets it (called with the lock held, after the new
        position was sent, so a lesson never comes before the move it explains)."""
        for learner in sorted({c.seat for c in self.clients if c.tutorial and c.seat is not None}):
            self._lesson(learner, before, seat, action, self.session.game)

    def _lesson(self, learner: int, before: Any, seat: int, action: str, after: Any,
                only: Client | None = None) -> None:
        """What the action from ``before`` to ``after`` teaches ``learner``'s seat, sent to its browsers."""
        move = None if action.startswith("claim") else parse_move(action, before.engine.deck)
        # What a lesson describes: the hand just after the action (the last move of a hand is explained once
        # the next hand is dealt, whose cards it does not concern).
        position = before.hand if move is None else before.engine.apply(before.hand, move)
        tutorial = self.tutorials.get(learner) or Tutorial.for_rules(before.rules)
        self.tutorials[learner], lessons = tutorial.after(before, move, after)
        self._post_lessons(learner, lessons, {"seat": seat, "move": _shown(action), "hand_no": before.hand_no},
                           position, only)

    def _start_tutorial(self, client: Client, seat: int) -> None:
        """The tutorial switched on for ``client``. The first time for its seat: what a turn is, then what the
        moves of the hand in play taught, which the seat has seen (so the computer's first capture, made
        before the page connected, still explains capturing); after that, nothing again."""
        game = self.session.game
        if seat in self.tutorials:
            return
        self.tutorials[seat], lessons = Tutorial.for_rules(game.rules).start()
        self._post_lessons(seat, lessons, {"seat": None, "move": None, "hand_no": game.hand_no}, game.hand,
                           only=client)
        replayed = self.record.new_game()
        for action in self.record.actions:
            before, replayed = replayed, apply_action(replayed, action)
            if before.hand_no == game.hand_no:
                self._lesson(seat, before, actor_of(action, before), action, replayed, only=client)

    def _post_lessons(self, seat: int, lessons: tuple[Lesson, ...], about: dict[str, Any], position: HandState,
                      only: Client | None = None) -> None:
        if not lessons:
            return
        message = {"type": "lessons", **about, "lessons": [lesson.to_json() for lesson in lessons]}
        for client in [only] if only is not None else list(self.clients):
            if client.tutorial and client.seat == seat:
                self.post(client, message, position)

    async def handle(self, client: Client, req: Request) -> None:
        """One checked request from a browser; every refusal goes to that browser alone and changes nothing."""
        if req.type == "ping":
            self.post(client, {"type": "pong"}, None)
            return
        seat = client.seat
        if seat is None:
            what = {"review": "a review shows every hand: only the table's players can ask for one",
                    "count": "the counting aid counts for a seat: only the table's players have one",
                    "tutorial": "the tutorial teaches a seat's player: only the table's players have one "
                                "(Rules shows the whole rulebook)",
                    "warn": "you are watching this table: only its players can play"}
            self.tell(client, "error", what.get(req.type, "you are watching this table: only its players can play"))
            return
        if req.type == "review":
            self.ask_review(client, seat)
            return
        async with self.lock:
            s = self.session
            if req.type == "count":
                client.counting = req.flag("on")
                self.post_state(client)
                return
            if req.type == "tutorial":
                # The state first: the position from which the actions are taught.
                client.tutorial = req.flag("on")
                self.post_state(client)
                if client.tutorial:
                    self._start_tutorial(client, seat)
                return
            if s.game.over:
                self.tell(client, "error", "the game is over")
                return
            if req.type == "undo":
                try:
                    await self.writers.run(s.undo, seat)
                except CassinoError as e:
                    self.tell(client, "error", str(e))
                    return
                self.version += 1
                self._rebuild_log()
                self.tell(client, "info", "took back your last move")
                self.publish()
                self.kick()
                return
            turn = s.game.hand.turn
            if turn != seat:
                # Asked before anything else: a reason or a hint reads the hand of the seat to play.
                self.tell(client, "error", f"it is not your turn: {views.seat_label(self.kinds, turn, seat)} is to play")
                return
            if req.type == "why":
                self.tell(client, "refused", self._why(req.cards("played"), req.cards("items")))
                return
            if req.type == "warn":
                self.post(client, await self._warnings(req.text("text")), s.game.hand)
                return
            if req.type == "hint":
                move = await asyncio.to_thread(s.hint, seat)
                self.post(client, {"type": "hint", "move": views.move_view(s.game.engine, s.game.hand, move)},
                          s.game.hand)
                return
            try:
                if req.type == "claim":
                    if not s.game.rules.game.claiming:
                        raise CassinoError("there is no claiming in this game: play on to the end of the hand")
                    await self._act(f"claim {seat}")
                else:
                    move = s.read_move(req.text("text"))
                    await self._act(format_move(move, s.game.engine.deck))
            except NotAMove:
                example = format_move(s.listed_moves(1)[0][0], s.game.engine.deck)
                self.tell(client, "refused", f"{req.text('text')[:40]!r} is not a move: write one such as `{example}`")
                return
            except RecordError as e:
                self.tell(client, "error", f"{e}; the move was not made")
                return
            except CassinoError as e:
                self.tell(client, "refused", str(e))
                return
            self.kick()

    async def _warnings(self, text: str) -> dict[str, Any]:
        """What the typed or clicked move may give away (``warnings_for``: from the mover's view only);
        a move the engine refuses gets its reason instead, and is then refused when sent."""
        s = self.session
        answer: dict[str, Any] = {"type": "warnings", "asked": text, "hand_no": s.game.hand_no,
                                  "ply": s.game.hand.ply}
        try:
            move = s.read_move(text)
        except CassinoError as e:
            return answer | {"move": None, "warnings": [], "refused": str(e).splitlines()[0][:300]}
        found = await asyncio.to_thread(warnings_for, s.game, move)
        return answer | {"move": format_move(move, s.game.engine.deck), "warnings": [w.to_json() for w in found]}

    # ------------------------------------------------------------------ the review of a finished game
    def ask_review(self, client: Client, seat: int) -> None:
        """Send ``seat``'s review to ``client`` once the game is over: from the cache, or made in a worker
        (the browser's other messages are answered meanwhile)."""
        if not self.session.game.over:
            self.tell(client, "error", "the review is shown when the game is over: it shows every hand")
            return
        if seat in self.reviews:
            self._post_review(client, self.reviews[seat])
            return
        self.tell(client, "info", "reviewing your moves: this takes a few seconds")
        task = asyncio.get_running_loop().create_task(self._review_for(client, seat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _review_for(self, client: Client, seat: int) -> None:
        future = self.reviewing.get(seat)
        if future is None:
            future = asyncio.ensure_future(self.thinkers.review(pickle.dumps(self.record), seat, self.review_deals))
            self.reviewing[seat] = future
            future.add_done_callback(lambda _: self.reviewing.pop(seat, None))
        try:
            review = await asyncio.shield(future)
        except LimitReached as e:
            self.tell(client, "error", str(e))
            return
        except CassinoError as e:
            self.tell(client, "error", f"the game could not be reviewed: {str(e).splitlines()[0]}")
            return
        except Exception:        # a bug: said to this browser, logged, and the table goes on
            log.exception("table %s: review of seat %s", self.id, seat)
            self.tell(client, "error", "the server could not review the game (a bug: see the server's log)")
            return
        self.reviews[seat] = review
        self._post_review(client, review)

    def _post_review(self, client: Client, review: dict[str, Any]) -> None:
        # The game is over: its last position hides no card from anyone, and the review shows every hand.
        self.post(client, {"type": "review", "seat": client.seat, "review": review}, self.session.game.hand)

    def _why(self, played: list[str], items: list[str]) -> str:
        """Why the clicked cards are no legal move: a capture with them (a trail with none), asked of the engine."""
        game = self.session.game
        deck = game.engine.deck
        hand = game.hand
        try:
            # Cards by the ids the page knows them by (``views.card_ids``: ``10D~2`` is the second
            # 10D in the same place, with two packs); any other name is read as a card.
            p = _by_ids(deck, hand.hands[hand.turn], set(played))
            loose, builds = 0, []
            for item in set(items):
                if item.startswith("["):
                    builds.append(deck.mask([deck.parse(n) for n in item.strip("[]").split()]))
                else:
                    loose |= _by_ids(deck, hand.table, {item})
        except CassinoError as e:
            return str(e)
        if not p:
            return "choose a card from your hand first"
        move = Move(MoveKind.CAPTURE, p, loose, tuple(sorted(builds))) if loose or builds else Move(MoveKind.TRAIL, p)
        move = game.engine.resolve(game.hand, move)
        if game.engine.is_legal(game.hand, move):
            return f"{format_move(move, deck)} is a legal move"
        return game.engine.why_illegal(game.hand, move)

    # ------------------------------------------------------------------ the computer's turns
    def kick(self) -> None:
        """Start the computer players if one is to act (call with the lock held, or from the event loop)."""
        if self.driver is None and not self.session.game.over and self.failed is None:
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        try:
            while True:
                async with self.lock:
                    s = self.session
                    claimant = s.claimant()
                    if claimant is not None:
                        await self._act(f"claim {claimant}")
                        continue
                    if not s.computer_to_move():
                        self.driver = None
                        return
                    version = self.version
                    heavy = long_thinker(self.kinds[s.game.hand.turn])
                    position = pickle.dumps(s) if heavy else b""   # as it is now: a worker thinks about a copy
                if self.pace:
                    await asyncio.sleep(self.pace)
                if heavy:
                    text = await self.thinkers.choose(position)
                else:       # milliseconds: never queued behind another table's long search
                    text = await self.writers.run(s.computer_choice)
                async with self.lock:
                    if self.version == version:     # else an undo changed the game: think again
                        await self._act(text)
        except Exception as e:     # a bug or a full disk: the table stops, its record as it was last written
            log.exception("table %s stopped", self.id)
            self.failed = f"the computer players stopped: {e}"
            self.driver = None
            async with self.lock:
                self.publish()


def _by_ids(deck: Any, zone: int, ids: set[str]) -> int:
    """The cards of ``zone`` the page's ids name (``10D``, ``10D~2``: see ``views.card_ids``); a
    name not in ``zone`` is read as a card of the deck (the engine then says why the move fails)."""
    known = {v: i for i, v in views.card_ids(deck, zone).items()}
    mask = 0
    for name in ids:
        if name in known:
            mask |= 1 << known[name]
        else:
            mask |= deck.mask([deck.parse(name.split("~")[0])], mask)
    return mask


def _shown(action: str) -> str:
    return "claims the game" if action.startswith("claim") else action


# ---------------------------------------------------------------------- the records folder
def _write_private(path: Path, data: dict[str, Any]) -> None:
    """Write a JSON file readable by this user only, atomically."""
    fd, tmp = tempfile.mkstemp(prefix=".cassino-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_ID = re.compile(r"^[0-9a-f]{12}$")


class TableStore:
    """Every table of a records folder: opened at start, created by the lobby, found by id."""

    def __init__(self, folder: Path, pace: float = 0.0, say: Callable[[str], None] = print,
                 limits: Limits = Limits()) -> None:
        self.folder = folder
        self.pace = pace
        self.say = say
        self.limits = limits
        self.tables: dict[str, Table] = {}
        self.sidecars = folder / SIDECARS
        self.thinkers = Thinkers(limits.bot_workers, limits.max_reviews)
        self.writers = Writers()
        #: Which client address opened each table since the server started (for the per-client limit).
        self.opened_by: dict[str, str] = {}
        #: Each table's record, held against a terminal resuming it while the server plays it.
        self.held: dict[str, Held] = {}

    # ------------------------------------------------------------------ limits
    def open_tables(self, client: str | None = None) -> int:
        """Tables whose game goes on (of ``client``'s, when given)."""
        return sum(1 for t in self.tables.values() if not t.session.game.over and t.failed is None
                   and (client is None or self.opened_by.get(t.id) == client))

    def admit(self, record: Record, client: str) -> None:
        """LimitReached when ``client`` may not open another table now; CassinoError for a seat not run here."""
        for kind in record.seats:
            self.limits.check_seat(kind)
        if self.open_tables() >= self.limits.max_tables:
            raise LimitReached(f"this server has {self.limits.max_tables} tables in play, its limit: "
                               f"finish a game or try later")
        if self.open_tables(client) >= self.limits.tables_per_client:
            raise LimitReached(f"you have {self.limits.tables_per_client} tables in play, the limit for one "
                               f"computer: finish one of them first")

    async def stop(self) -> int:
        """Stop thinking, finish the writes and save every table whose game goes on; how many tables."""
        drivers: list[Any] = [t.driver for t in self.tables.values() if t.driver is not None]
        drivers += [task for t in self.tables.values() for task in t.tasks]
        for task in drivers:
            task.cancel()
        self.thinkers.stop()
        await asyncio.gather(*drivers, return_exceptions=True)
        for table in list(self.tables.values()):
            async with table.lock:           # a write under way ends first
                if not table.session.game.over and table.failed is None:
                    try:
                        await table.writers.run(table.session.save)
                    except (RecordError, OSError) as e:
                        self.say(f"could not save table {table.id}: {e}")
        self.writers.stop()
        for held in self.held.values():
            held.release()
        self.held.clear()
        return len(self.tables)

    def prepare(self) -> None:
        """The folder and its private ``.tables`` folder, created when missing; RecordError when they cannot be."""
        try:
            self.folder.mkdir(parents=False, exist_ok=True)
            self.sidecars.mkdir(mode=0o700, exist_ok=True)
        except OSError as e:
            raise RecordError(f"cannot use {self.folder} for game records: {e.strerror or e}") from None
        if not os.access(self.folder, os.W_OK) or not os.access(self.sidecars, os.W_OK):
            raise RecordError(f"cannot use {self.folder} for game records: it is not writable")

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id) if _ID.match(table_id) else None

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(6)
            if table_id not in self.tables and not (self.sidecars / f"{table_id}.json").exists():
                return table_id

    def _sidecar(self, table: Table, record_name: str) -> None:
        _write_private(self.sidecars / f"{table.id}.json",
                       {"format": TABLES_FORMAT, "record": record_name,
                        "seats": {str(k): v for k, v in table.tokens.items()}, "watch": table.watch})

    def _open(self, table_id: str, record: Record, path: Path, tokens: dict[int, str], watch: str) -> Table:
        for kind in record.seats:
            try:
                self.limits.check_seat(kind)
            except CassinoError as e:
                raise RecordError(f"{path.name}: {e}") from None
        try:   # the same lock as `cassino play`: a record is played in one place at a time
            held = hold(path, what="the game record", busy="is being played in a terminal (cassino play "
                                                           "--resume); quit that game, then start the server again")
        except FileProblem as e:
            raise RecordError(str(e)) from None
        try:
            session = GameSession.open(record, path)
        except BaseException:
            held.release()
            raise
        table = Table(table_id, session, tokens, watch, self.pace, self.thinkers, self.writers,
                      self.limits.review_deals)
        self.tables[table_id] = table
        self.held[table_id] = held
        return table

    def create(self, record: Record, client: str = "") -> Table:
        """A new table for ``record``: its record file (a new name, never over a file), its tokens, its id.

        ``client`` (the address asking) must be within the limits (:meth:`admit`).
        """
        self.admit(record, client)
        table_id = self._new_id()
        stem = re.sub(r"[^A-Za-z0-9_-]+", "-", record.rules.name).strip("-")[:40] or "game"
        path = save_new(record, self.folder, f"{stem}-{table_id}", record.new_game())
        tokens = {seat: new_token() for seat, kind in enumerate(record.seats) if kind == "human"}
        table = self._open(table_id, record, path, tokens, new_token())
        self._sidecar(table, path.name)
        self.opened_by[table_id] = client
        return table

    def adopt(self, record: Record, path: Path, client: str | None = None) -> Table:
        """A table for a record already in the folder (``cassino play`` wrote it): new tokens, the same file.

        ``client``: the address that uploaded it (checked by :meth:`admit` before the file was written).
        """
        table_id = self._new_id()
        tokens = {seat: new_token() for seat, kind in enumerate(record.seats) if kind == "human"}
        table = self._open(table_id, record, path, tokens, new_token())
        self._sidecar(table, path.name)
        if client is not None:
            self.opened_by[table_id] = client
        return table

    def open_all(self) -> list[Table]:
        """Resume every table of the folder and take in its other records; report what cannot be read."""
        taken: set[str] = set()
        for side in sorted(self.sidecars.glob("*.json")):
            table_id = side.stem
            try:
                data = json.loads(side.read_text(encoding="utf-8"))
                if not (_ID.match(table_id) and isinstance(data, dict) and data.get("format") == TABLES_FORMAT):
                    raise ValueError("not a table file")
                name, seats, watch = data["record"], data["seats"], data["watch"]
                if not (isinstance(name, str) and "/" not in name and "\\" not in name and isinstance(watch, str)
                        and isinstance(seats, dict) and all(isinstance(v, str) for v in seats.values())):
                    raise ValueError("damaged")
                tokens = {int(k): v for k, v in seats.items()}
            except (OSError, ValueError, KeyError, TypeError) as e:
                self.say(f"skipped {side}: not a readable table file ({e})")
                continue
            path = self.folder / name
            taken.add(name)
            try:
                record, _ = load_game(path)
                if set(tokens) != {k for k, kind in enumerate(record.seats) if kind == "human"}:
                    raise RecordError(f"{side} does not match the seats of {path}")
                self._open(table_id, record, path, tokens, watch)
            except RecordError as e:
                self.say(f"skipped table {table_id}: {e}")
        adopted = []
        for path in sorted(self.folder.glob("*.json")):
            if path.name in taken or path.name.startswith("."):
                continue
            try:
                record, _ = load_game(path)
                adopted.append(self.adopt(record, path))
            except RecordError as e:
                self.say(f"skipped {path.name}: {e}")
        return adopted

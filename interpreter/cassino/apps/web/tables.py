"""Tables being played in the browser: a game session each, its seats' tokens, its connected clients.

A table is a :class:`~cassino.apps.game.session.GameSession` (the game loop ``cassino
play`` uses too) with what the web adds: an unguessable token per seat for
people (``secrets``), the browsers connected to it, and the computer players'
turns run in worker processes of their own (``thinking``), so computer players
thinking never stall a person's move at any table.

Nothing the engine does runs on the event loop (one valid rule file can deal a
table whose legal moves take minutes to list): a table's legal moves to offer,
the counting aid, a hint, a check of a move, the quick computer players' moves,
replays (a resume, an undo) and a new deal run in threads (``thinking.Workers``),
each worked out once per position and shared by every browser of the table. A
table has at most :data:`TABLE_JOBS` of them at once, so it cannot take every
thread, and a browser waits for them at most ``Limits.wait_seconds``: past that
it is told the server is still working (:class:`StillWorking`) and gets the
answer when it is ready, while every other table goes on as before. A position
beyond the engine's listing budget (``PositionTooLargeError``) offers some of its
moves, says so, and takes any legal move typed or clicked card by card.

A browser gets the table's fixed parts (the variant's name and description, the
deck) once, in its welcome; each state carries only the position. A browser that
joins gets its own state, and the others only a line saying who is connected
when a seat joins or leaves. A finished game lets go of its record's lock at
once; its table stays, counted toward the limits, until ``Limits.finished_seconds``
after its last browser left, and is then closed (its record stays in the folder).

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
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from ...engine.moves import Move, MoveKind, PositionTooLargeError
from ...engine.notation import cards_text, format_move, parse_move
from ...engine.state import HandState
from ...errors import CassinoError
from ...files import FileProblem, Held, hold
from ..game.records import Record, RecordError, actor_of, apply_action, load_game, save_new
from ..game.session import Acted, GameSession, NotAMove
from ..game.summary import HandSummary, hand_summary, outcome
from ..learning.counting import count_for
from ..learning.tutorial import Lesson, Tutorial, lessons_json
from ..learning.warnings import warnings_for
from . import views
from .policy import REVIEW_DEALS, Limits, LimitReached, PerMinute
from .protocol import Request
from .thinking import (ENGINE_THREADS, HEAVY_SECONDS, LANE_WORKERS, LOBBY_THREADS, GaveUp, Thinkers, Workers, Writers,
                       long_thinker)

log = logging.getLogger("cassino.serve")
T = TypeVar("T")

TABLES_FORMAT = "cassino-table/1"
SIDECARS = ".tables"
OUTBOX = 64             # messages waiting for a slow browser before it is disconnected
#: Legal moves sent to the browser at most; a table of many low cards can have tens of thousands
#: (each hand card then gets its share, and any legal move can still be typed).
MAX_OFFERED = 600
#: Moves offered at a position beyond the engine's listing budget (found with bounded work).
MAX_OFFERED_LARGE = 120
#: Engine jobs of one table running or waiting at once in the threads (its moves to offer, a check, its quick
#: computer player...); its searches (hints, long computer players) wait in the worker processes' fair queue.
TABLE_JOBS = 2
#: A table being resumed at start-up may take this long (its record replayed, its position dealt).
RESUME_SECONDS = 20.0
#: Stopping waits this long at most for the writes under way (each is atomic: a record is whole either way).
STOP_SECONDS = 10.0

WORKING = ("the server is still working out this position (it has very many possible moves): "
           "the answer follows when it is ready")
BUSY = "the server is still working on this table's last request: try again in a moment"
NOT_SAVED = "the server could not save the game (its log says why)"


def not_made(what: str) -> str:
    """A move or claim the table was too busy to take (the page may send it again: it comes as a refusal)."""
    return (f"the server is still working on this table (its last request, or a position with very many possible "
            f"moves): your {what} was not made; send it again in a moment")


async def acquire_within(lock: asyncio.Lock, seconds: float) -> bool:
    """Whether ``lock`` was acquired within ``seconds``. Not ``wait_for(lock.acquire())``: where the
    event loop is held up (a compiled engine call keeps the GIL) its timeout can fire though the
    lock was free, and on Python 3.11 a lock acquired just as the wait is cancelled can be lost,
    held for good. Here an acquisition that won the race is kept or given back, never lost."""
    task = asyncio.ensure_future(lock.acquire())
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if task in done:
        return bool(task.result())
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        return False
    lock.release()   # (acquired as it was being cancelled: given back)
    return False


class StillWorking(CassinoError):
    """A table's engine work that takes longer than a browser waits (or a table already working at its bound):
    said in words; the work goes on and its answer is sent when it is ready."""


def encode(message: dict[str, Any]) -> str:
    """A message as the browser receives it."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def new_token() -> str:
    return secrets.token_urlsafe(24)


_PATH = re.compile(r"(?<![\w.~-])(?:[A-Za-z]:)?[/\\](?:[^\s'\"`/\\]+[/\\])+([^\s'\"`/\\]*)")
#: A quoted part of an error (an opening quote after a space or bracket, its closing one before one): the input.
_QUOTED = re.compile(r"""(?:(?<=[\s(\[:=])|^)(['"])([^'"]{40})[^'"]{8,}\1(?=[\s).,;:\]]|$)""")


def public_words(text: str, limit: int = 300) -> str:
    """An error's words as a browser may read them: a path of the server named by its last part only, control
    characters shown escaped, the first line, at most ``limit`` characters (the input is never echoed whole)."""
    first = (text.splitlines() or [""])[0]
    first = _PATH.sub(lambda m: m.group(1) or "(a folder)", first)
    first = _QUOTED.sub(lambda m: f"{m.group(1)}{m.group(2)}…{m.group(1)}", first)      # a long quote: its start
    first = "".join(c if c.isprintable() else repr(c)[1:-1] for c in first)
    return first if len(first) <= limit else first[: limit - 1] + "…"


def stopped_words(error: BaseException) -> str:
    """Why the computer players stopped, for the browser (the details go to the server's log)."""
    if isinstance(error, (RecordError, FileProblem, OSError)):
        return f"the computer players stopped: {NOT_SAVED}; the game is as it was at its last saved move"
    return "the computer players stopped: a fault of the server (its log says more)"


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

    #: Why the connection is being closed, where it is not a plain goodbye (its close frame says it).
    closing: str = ""

    def send(self, text: str) -> None:
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.closing = f"this page did not read its messages ({OUTBOX} waited): reload it to rejoin"
            self.drop()

    def drop(self) -> None:
        """Stop sending (the browser is not reading); its writer closes the connection."""
        self.dropped = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(None)


@dataclass
class HandEnd:
    """The last hand that ended: its summary, its moves, its final position (what the summary describes), and
    what was said beside its moves (its sweeps, its deals: ``views.Told``)."""

    summary: HandSummary
    log: list[tuple[int, str]]
    position: HandState
    told: views.Told = field(default_factory=views.Told)


@dataclass(frozen=True)
class Offered:
    """The legal moves offered to the seat to play, as the browser gets them: ``more`` not offered (when they
    were counted); ``too_many`` when the position is beyond the engine's listing budget (not counted)."""

    moves: list[dict[str, Any]]
    more: int = 0
    too_many: bool = False


# ---------------------------------------------------------------------- engine work (in threads)
def snapshot(session: GameSession) -> GameSession:
    """The session as it is now, for a thread to read while the table goes on (the game is an immutable
    value; the record's actions are copied; the computer players are the table's own, used by its driver
    alone)."""
    record = Record(session.record.rules, session.record.seed, session.record.players, session.record.partners,
                    list(session.record.seats), session.record.dealer, list(session.record.actions),
                    session.record.source, session.record.stored_result)
    snap = GameSession(session.game, record, session.bots, session.save_path)
    snap.note_hand(session.hand_actions)
    return snap


def some_moves(game: Any, limit: int) -> list[Move]:
    """Up to ``limit`` legal moves of a position too large to list, found with bounded work (the engine's
    lazy walk)."""
    return list(game.engine.some_moves(game.hand, limit))


def offered_moves(snap: GameSession, limit: int = MAX_OFFERED) -> Offered:
    """The moves the seat to play is offered (``GameSession.listed_moves``: each hand card its share), as
    the browser gets them; a position beyond the engine's listing budget offers a sample of its moves found
    with bounded work (``Engine.some_moves``), a share for every hand card."""
    game = snap.game
    try:
        moves, total = snap.listed_moves(limit)         # total -1: beyond the listing budget
    except PositionTooLargeError:
        moves, total = snap.ordered(some_moves(game, MAX_OFFERED_LARGE)), -1
    # The listing gives each set of hand cards played together its share; where hand cards combine
    # (Hungarian: up to ten played at once) the sets are hundreds, and their shares thousands of moves.
    moves = capped(moves, limit)
    shown = [views.move_view(game.engine, game.hand, m) for m in moves]
    too_many = total < 0
    return Offered(shown, 0 if too_many else total - len(moves), too_many)


def capped(moves: list[Move], limit: int) -> list[Move]:
    """At most ``limit`` of ``moves``, in their order: taken in turn from each set of hand cards played (round
    robin), the sets of fewer cards first, so that each card played alone keeps its moves offered before a
    set of two, and so on (ten cards in hand make up to 1,023 sets: not all of them can have a move listed)."""
    if len(moves) <= limit:
        return moves
    groups: dict[int, list[int]] = {}
    for k, move in enumerate(moves):
        groups.setdefault(move.played, []).append(k)
    lines = sorted(groups.values(), key=lambda g: moves[g[0]].played.bit_count())
    chosen: list[int] = []
    depth = 0
    while len(chosen) < limit:
        row = [g[depth] for g in lines if depth < len(g)]
        chosen += row[: limit - len(chosen)]
        depth += 1
    return [moves[k] for k in sorted(chosen)]


def first_move(game: Any) -> str:
    """One legal move in notation (an example for a person who typed something that is no move)."""
    try:
        move = next(iter(game.engine.iter_moves(game.hand)), None)
    except PositionTooLargeError:
        found = some_moves(game, 1)
        move = found[0] if found else None
    return format_move(move, game.engine.deck) if move is not None else "9D capture 9C"


def count_json(game: Any, seat: int) -> dict[str, Any]:
    """The counting aid for ``seat``, from its own view only (``count_for``)."""
    return count_for(game, seat).to_json()


def counts_json(game: Any, seats: tuple[int, ...]) -> dict[int, dict[str, Any]]:
    """The counting aid of each of ``seats`` (``count_json``), worked out as one job of the table's: a position's
    work is then its moves and its counts, two jobs however many seats count (``TABLE_JOBS``)."""
    return {seat: count_json(game, seat) for seat in seats}


def read_typed(snap: GameSession, text: str) -> list[str]:
    """A typed or clicked move in notation once the engine allows it, or a whole turn of several actions joined
    by `;` (``build.free_actions``: each action checked against the position it is played in, as the terminal
    does; a player's audit found the rulebook's `build 10 on 5S 3D 2C; 9D capture 9C` refused here): the
    actions; NotAMove or CassinoError (in words) otherwise."""
    return [format_move(move, snap.game.engine.deck) for move in snap.read_turn(text)]


def why_answer(game: Any, played: list[str], items: list[str]) -> dict[str, Any]:
    """The clicked cards as a move: the move itself when it is legal (``found``), else the engine's reason it
    is not (``refused``): a capture with them (a trail with none)."""
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
        return {"type": "refused", "message": public_words(str(e))}
    if not p:
        if game.engine.free_actions and (loose or builds):
            return _free_build(game, loose, tuple(sorted(builds)))
        return {"type": "refused", "message": "choose a card from your hand first"}
    move = Move(MoveKind.CAPTURE, p, loose, tuple(sorted(builds))) if loose or builds else Move(MoveKind.TRAIL, p)
    move = game.engine.resolve(hand, move)
    if game.engine.is_legal(hand, move):
        return {"type": "found", "message": f"{format_move(move, deck)} is a legal move",
                "move": views.move_view(game.engine, hand, move)}
    return {"type": "refused", "message": game.engine.why_illegal(hand, move)}


#: The most builds of the same clicked cards the page is offered at once (one a value, in practice).
MAX_FOUND = 12


def _free_build(game: Any, loose: int, builds: tuple[int, ...]) -> dict[str, Any]:
    """Cards in play clicked with no card from the hand (``build.free_actions``): the builds of exactly those
    cards (one a value they can make), found among every legal move, for a table whose list the page was
    sent cut short (an audit could make none of them by clicking at a crowded Swazi table); else why not."""
    engine, hand, deck = game.engine, game.hand, game.engine.deck
    elsewhere = loose & ~hand.in_play()   # (named as table cards, but not in play: in a hand, say)
    if elsewhere:
        return {"type": "refused", "message": f"{' '.join(cards_text(deck, elsewhere))}: not loose on the table nor "
                                              f"an opponent's pile top, so no build of cards in play can use it"}
    try:
        legal = engine.legal_moves(hand)
    except PositionTooLargeError:
        return {"type": "refused", "message": f"this position has more legal moves than the server lists (over "
                                              f"{engine.move_budget:,}): type the build in notation"}
    free = [m for m in legal if not m.played and m.kind is MoveKind.BUILD]
    wanted = set(builds)
    exact = [m for m in free if m.loose == loose and set(m.builds) == wanted]
    if exact:
        shown = [views.move_view(engine, hand, m) for m in exact[:MAX_FOUND]]
        said = " or ".join(format_move(m, deck) for m in exact[:3]) + (" ..." if len(exact) > 3 else "")
        return {"type": "found", "message": f"{said}: {'a legal move' if len(exact) == 1 else 'legal moves'}",
                "move": shown[0], "moves": shown}
    more = next((m for m in free if m.loose & loose == loose and wanted <= set(m.builds)), None)
    if more is not None:
        return {"type": "refused", "message": f"these cards are part of a build of cards in play, but make none "
                                              f"alone: click more, as in {format_move(more, deck)}"}
    return {"type": "refused", "message": "no build of cards in play alone uses these cards here: each set must be "
                                          "worth a value a card of your hand (or your partner's proven value) takes"}


def warnings_answer(snap: GameSession, text: str, hinted: str | None = None) -> dict[str, Any]:
    """What the typed or clicked move may give away (``warnings_for``: from the mover's view only); a move the
    engine refuses gets its reason instead, and is then refused when sent. ``hinted``: the move the seat's hint
    gave at this position, if asked (a warning of that very move says the hint chose it all the same)."""
    game = snap.game
    answer: dict[str, Any] = {"type": "warnings", "asked": text, "hand_no": game.hand_no, "ply": game.hand.ply}
    try:
        if ";" in text:   # (a whole turn typed: checked as one, played as one, its actions not warned of each)
            turn = snap.read_turn(text)
            return answer | {"move": "; ".join(format_move(m, game.engine.deck) for m in turn), "warnings": []}
        move = snap.read_move(text)
    except CassinoError as e:
        return answer | {"move": None, "warnings": [], "refused": public_words(str(e))}
    hint = None
    if hinted is not None:
        try:
            hint = game.engine.resolve(game.hand, parse_move(hinted, game.engine.deck))
        except CassinoError:
            hint = None
    found = warnings_for(game, move, hint)
    return answer | {"move": format_move(move, game.engine.deck), "warnings": [w.to_json() for w in found]}


def decide(snap: GameSession) -> tuple[int | None, bool]:
    """A computer seat that claims the game now, and whether a computer player is to move."""
    return snap.claimant(), snap.computer_to_move()


def heavy_rules(rules: Any) -> bool:
    """Whether a table of ``rules`` is heavy from its first position: four or more hand cards played together
    (thousands of captures a position). A table of many cards dealt to it lists a bounded sample of its moves
    quickly (``Engine.move_budget``); any other table is heavy once its work has taken long (``timed``)."""
    return bool(rules.capture.hand_cards_max >= 4)


#: The listings whose time says a table is heavy (a computer player's thinking does not).
HEAVY_SIGNS: frozenset[Any] = frozenset({offered_moves, read_typed, first_move, why_answer, decide})


def timed(table: "Table", fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in an engine thread; a listing (HEAVY_SIGNS) that took more than HEAVY_SECONDS of this
    thread's own time (not the time it waited for the processor or the interpreter lock: a busy machine makes
    no table heavy) marks ``table`` heavy."""
    start = time.thread_time()
    try:
        return fn(*args)
    finally:
        if time.thread_time() - start > HEAVY_SECONDS and fn in HEAVY_SIGNS:
            table.heavy = True


def hand_end(before: Any, action: str, after: Any, log_: list[tuple[int, str]],
             told: views.Told | None = None) -> HandEnd | None:
    """The hand ended by ``action`` (from ``before`` to ``after``), for the end-of-hand panel: ``log_`` and
    ``told``, its actions and what was said beside them, ``action`` among them."""
    if action.startswith("claim"):
        return None
    move = parse_move(action, before.engine.deck)
    summary = hand_summary(before, move, after)
    if summary is None:
        return None
    return HandEnd(summary, list(log_), before.engine.apply(before.hand, move),
                   told.copy() if told is not None else views.Told())


def replayed_log(record: Record) -> tuple[list[tuple[int, str]], views.Told, HandEnd | None]:
    """This hand's actions with their seats and what was said beside them (``views.Told``), and the last hand
    that ended (after a resume or an undo)."""
    game = record.new_game()
    log_: list[tuple[int, str]] = []
    told = views.Told()
    first = views.dealt_with(None, game)
    if first is not None:
        told.dealt[0] = first
    last_end = None
    for action in record.actions:
        before = game
        game = apply_action(before, action)
        told_of(told, len(log_), before, action, game)
        log_.append((actor_of(action, before), _shown(action)))
        if len(game.results) > len(before.results):
            last_end = hand_end(before, action, game, log_, told)
        if game.hand_no != before.hand_no:
            log_, told = [], views.Told()
        dealt = views.dealt_with(before, game)
        if dealt is not None:
            told.dealt[len(log_)] = dealt
    return log_, told, last_end


def told_of(told: views.Told, place: int, before: Any, action: str, after: Any) -> None:
    """What is said of the hand's ``place``-th action (from ``before`` to ``after``) added to ``told``: its
    sweeps (``views.swept_by``), a claim and how it stood (``views.claimed_by``)."""
    swept = views.swept_by(before, action, after)
    if swept is not None:
        told.swept[place] = swept
    claimed = views.claimed_by(before, action, after)
    if claimed is not None:
        told.claimed[place] = claimed


def applied(game: Any, action: str) -> Any:
    """The game after ``action`` (a heavy table's, in the heavy tables' lane: the engine's check of a move there
    lists the position's moves)."""
    return apply_action(game, action)


def act_applied(session: GameSession, action: str, after: Any) -> Acted:
    """``GameSession.act`` with the game after ``action`` worked out beforehand (:func:`applied`): the action
    recorded and written before anything else happens, or neither."""
    return GameSession.act(session, action, after)


def act_and_summarise(session: GameSession, action: str, log_: list[tuple[int, str]], told: views.Told,
                      after: Any = None) -> tuple[Any, Any, HandEnd | None, views.Told]:
    """Apply, record and write ``action`` (in a writer thread): what was done, the game before, the hand it
    ended, and ``told`` (what was said beside the hand's actions ``log_``) with what is said of it: its sweeps
    (a hand it ended has them in its end), the deal it brought (a new hand's in a new ``Told``). Nobody is shown
    the move before it is written. ``after``: the game after it, worked out already."""
    before = session.game
    acted = session.act(action) if after is None else act_applied(session, action, after)
    told = told.copy()
    told_of(told, len(log_), before, acted.action, session.game)
    end = None
    if acted.summary is not None:
        end = hand_end(before, acted.action, session.game, log_ + [(acted.seat, _shown(acted.action))], told)
    dealt = views.dealt_with(before, session.game)
    if acted.new_hand:
        told = views.Told()
    if dealt is not None:
        told.dealt[0 if acted.new_hand else len(log_) + 1] = dealt
    return acted, before, end, told


#: The engine's work a heavy table does in the heavy tables' worker processes (its arguments, answers and
#: errors all pickle): the moves to offer, a typed move's check, the quick computer players, the other listings.
LANE_WORK: frozenset[Any] = frozenset({offered_moves, read_typed, applied, counts_json, warnings_answer, first_move,
                                       decide, why_answer, GameSession.computer_choice})


def undo_and_replay(session: GameSession, seat: int) -> tuple[list[tuple[int, str]], views.Told, HandEnd | None]:
    session.undo(seat)
    return replayed_log(session.record)


def lessons_after(tutorials: dict[int, Tutorial | None], before: Any, action: str,
                  after: Any) -> tuple[HandState, dict[int, tuple[Tutorial, tuple[Lesson, ...]]]]:
    """What the action from ``before`` to ``after`` teaches each learner's seat, and the position a lesson
    describes: the hand just after the action (the last move of a hand is explained once the next hand is
    dealt, whose cards it does not concern)."""
    move = None if action.startswith("claim") else parse_move(action, before.engine.deck)
    position = before.hand if move is None else before.engine.apply(before.hand, move)
    out = {}
    for learner, tutorial in tutorials.items():
        own = move is None or before.hand.turn == learner   # another's move is not "you": events only
        out[learner] = (tutorial or Tutorial.for_game(before)).after(
            before, move, after, own=own, to_move=not after.over and after.hand.turn == learner, seat=learner)
    return position, out


def tutorial_from_start(record: Record, hand_no: int, seat: int,
                        position: HandState) -> tuple[Tutorial, list[tuple[tuple[Lesson, ...], dict[str, Any], HandState]]]:
    """The tutorial switched on for ``seat``: what a turn is, then what the moves of the hand in play taught
    (the seat has seen them); each batch of lessons with what it is about and the position it describes."""
    game = record.new_game()
    tutorial, lessons = Tutorial.for_game(game).start(game, game.hand.turn == seat)
    batches = [(lessons, {"seat": None, "move": None, "hand_no": hand_no}, position)]
    for action in record.actions:
        before, game = game, apply_action(game, action)
        if before.hand_no == hand_no:
            where, taught = lessons_after({seat: tutorial}, before, action, game)
            tutorial, lessons = taught[seat]
            batches.append((lessons, {"seat": actor_of(action, before), "move": _shown(action),
                                      "hand_no": before.hand_no}, where))
    return tutorial, batches


class Table:
    def __init__(self, table_id: str, session: GameSession, tokens: dict[int, str], watch: str,
                 pace: float, thinkers: Thinkers, writers: Writers, review_deals: int = REVIEW_DEALS,
                 engines: Workers | None = None, limits: Limits = Limits(), lane: Thinkers | None = None) -> None:
        self.id = table_id
        self.thinkers = thinkers
        self.writers = writers
        self.engines = engines if engines is not None else Workers(TABLE_JOBS, "cassino-table")
        self.limits = limits
        #: The heavy tables' worker processes, and whether this table is one (``thinking.HEAVY_SECONDS``).
        self.lane = lane
        self.heavy = heavy_rules(session.game.rules)
        self.session = session
        self.tokens = tokens
        self.watch = watch
        self.pace = pace
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        #: Counts the actions and undos: work begun at one version is dropped if the game has moved since.
        self.version = 0
        self.driver: asyncio.Task[None] | None = None
        self.hand_log: list[tuple[int, str]] = []
        #: What is said beside the hand's actions (its sweeps, its deals), worded as each view is made.
        self.told = views.Told()
        self.last_end: HandEnd | None = None
        self.failed: str | None = None
        self.review_deals = review_deals
        #: Finished games' reviews by seat (a finished game never changes), and those being made.
        self.reviews: dict[int, dict[str, Any]] = {}
        self.reviewing: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        #: The lessons of a move still being worked out after its position was sent (``_teach_later``): the lessons
        #: of every later move come after them.
        self._teaching: asyncio.Task[None] | None = None
        #: Each seat's hint at the position in play: the version of the game it is for, and its answer.
        self.hints: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = {}
        #: Each seat's tutorial (the lessons it has been shown), made when one of its browsers switches it on.
        self.tutorials: dict[int, Tutorial] = {}
        #: Each seat's lessons sent and not yet read (its player pressed *Got it*): sent again to a browser of
        #: the seat that switches the tutorial on (a reload, a second tab, the toggle off and on), where an
        #: audit saw them lost unread.
        self.unread: dict[int, list[dict[str, Any]]] = {}
        #: The record's lock (as `cassino play` takes it), let go of when the game is over.
        self.held: Held | None = None
        #: When the game ended, and when its last browser left (a finished table is closed some time after).
        self.finished_at: float | None = None
        self.idle_since: float = time.monotonic()
        self.closed = False
        #: The engine's work for the position at ``_memo_version``, shared by every browser that asks.
        self._memos: dict[Any, asyncio.Future[Any]] = {}
        self._memo_version = -1
        self._later: tuple[int, set[Client]] | None = None
        self._statics: dict[str, Any] | None = None
        self._encoded: tuple[dict[str, Any], str] | None = None
        self.hand_log, self.told, self.last_end = replayed_log(self.record)

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
                "outcome": outcome(game), "connected": self._connected()}

    def _connected(self) -> list[int]:
        return sorted({c.seat for c in self.clients if c.seat is not None})

    # ------------------------------------------------------------------ the engine's work, in threads
    def _submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``fn(*args)`` in an engine thread, or for a heavy table (LANE_WORK) in the heavy tables' worker
        processes; StillWorking when this table already has TABLE_JOBS there."""
        if self.heavy and self.lane is not None and getattr(fn, "__func__", fn) in LANE_WORK:
            if self.lane.owned_by(self.id) >= TABLE_JOBS:
                raise StillWorking(BUSY)
            return self.lane.submit(fn, *args, owner=self.id)
        if self.engines.owned_by(self.id) >= TABLE_JOBS:
            raise StillWorking(BUSY)
        return self.engines.submit(timed, self, fn, *args, owner=self.id)

    async def _wait(self, future: asyncio.Future[T]) -> T:
        """The work's answer, waited for at most ``wait_seconds``; StillWorking after that (it goes on)."""
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.limits.wait_seconds)
        except asyncio.TimeoutError:
            raise StillWorking(WORKING) from None

    async def work(self, fn: Callable[..., T], *args: Any) -> T:
        """Engine work a browser waits for (a bounded time: StillWorking after that)."""
        return await self._wait(self._submit(fn, *args))

    async def _started(self, fn: Callable[..., T], *args: Any, within: float | None = None,
                       pause: float = 0.2) -> asyncio.Future[T]:
        """``fn(*args)`` submitted as soon as this table has a job free, looking again every ``pause`` seconds;
        StillWorking where none came free ``within`` seconds (None: however long it takes)."""
        deadline = None if within is None else time.monotonic() + within
        while True:
            try:
                return self._submit(fn, *args)
            except StillWorking:
                if deadline is not None and time.monotonic() >= deadline:
                    raise
                await asyncio.sleep(pause)

    async def _background(self, fn: Callable[..., T], *args: Any) -> T:
        """Engine work nobody waits for in a browser (the computer players): as long as it takes, started
        as soon as this table has a thread free."""
        return await (await self._started(fn, *args))

    def _memo(self, key: Any, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """The work ``key`` for the position in play, started once and shared (until the game moves on)."""
        if self._memo_version != self.version:
            self._memos = {}
            self._memo_version = self.version
        future = self._memos.get(key)
        if future is None or (future.done() and (future.cancelled() or future.exception() is not None)):
            future = self._memos[key] = self._submit(fn, *args)
        return future

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # ------------------------------------------------------------------ messages
    def post(self, client: Client, message: dict[str, Any], about: HandState | None) -> None:
        """Send ``message`` to one browser. ``about``: the position it describes (None: it shows no cards).
        The same message posted to many browsers (every watcher's view of a move) is encoded once."""
        if self._encoded is None or self._encoded[0] is not message:
            self._encoded = (message, encode(message))
        client.send(self._encoded[1])

    def statics(self) -> dict[str, Any]:
        """What never changes at this table (the variant's words, the deck): sent once, in the welcome."""
        if self._statics is None:
            game = self.session.game
            self._statics = views.static_view(game.rules, game.engine.deck, self.record.source) | {
                "rules": f"/rules/{self.id}"}
        return self._statics

    def _mover(self, game: Any, seat: int | None) -> bool:
        """Whether ``seat`` is a person's seat to play in ``game``."""
        return (seat is not None and not game.over and game.hand.turn == seat
                and seat not in self.session.bots)

    def _state(self, seat: int | None, game: Any, offered: Offered | None,
               working: str | None = None) -> dict[str, Any]:
        """The position as ``seat`` may see it, with its moves when it is to play (``offered``)."""
        s = self.session
        mine = self._mover(game, seat)
        shown = offered if mine else None
        return views.seat_view(table_id=self.id, game=game, kinds=self.kinds, viewer=seat, hand_log=self.hand_log,
                               told=self.told,
                               moves=shown.moves if shown is not None else [],
                               connected=self._connected(),
                               can_undo=seat is not None and s.can_undo(seat)) | {
            "record": f"/records/{self.id}.json" if game.over else None, "failed": self.failed,
            "more_moves": shown.more if shown is not None else 0,
            "too_many": bool(shown is not None and shown.too_many),
            # The list is not every legal move (MAX_OFFERED at most): any other is clicked or typed, and checked.
            "moves_cut": bool(shown is not None and (shown.more > 0 or shown.too_many)), "working": working}

    def view(self, seat: int | None, counting: bool = False) -> dict[str, Any]:
        """The position as ``seat`` may see it, worked out in the calling thread (tests; never the event loop)."""
        game = self.session.game
        offered = offered_moves(snapshot(self.session)) if self._mover(game, seat) else None
        view = self._state(seat, game, offered)
        if counting and seat is not None:
            view["count"] = count_json(game, seat)
        return view

    async def publish(self, targets: Iterable[Client] | None = None) -> None:
        """Every browser at the table (or ``targets``) gets the position as its seat may see it; the seat to
        play's moves and each counting seat's count are worked out in a thread, once for the position.
        Called with the lock held. Work that takes longer than a browser waits: the position goes out at once
        without it (``working`` says so), and again with it when it is ready, unless the game has moved on."""
        chosen = [c for c in (self.clients if targets is None else targets) if not c.dropped]
        if not chosen or self.closed:
            return
        game, version = self.session.game, self.version
        try:
            offered, counts = await self._extras(game, chosen, wait=True)
        except StillWorking as e:
            wanting = [c for c in chosen if self._mover(game, c.seat) or (c.counting and c.seat is not None)]
            self._post_views(chosen, game, None, {}, set(wanting), str(e))
            self._publish_later(version, wanting)
            return
        self._post_views(chosen, game, offered, counts)

    def _post_views(self, chosen: list[Client], game: Any, offered: Offered | None, counts: dict[int, Any],
                    waiting: set[Client] | None = None, working: str | None = None) -> None:
        """Each of ``chosen`` its view of ``game``: built once per seat and aid, encoded once for all who share it
        (every watcher); ``waiting`` are told the rest of their view is being worked out (``working``)."""
        waiting = waiting or set()

        def kind(c: Client) -> tuple[int, bool, bool]:
            return (-1 if c.seat is None else c.seat, c.counting and c.seat in counts, c in waiting)

        views_: dict[tuple[int, bool, bool], dict[str, Any]] = {}
        for client in sorted(chosen, key=kind):
            key = kind(client)
            view = views_.get(key)
            if view is None:
                view = views_[key] = self._state(client.seat, game, offered, working if key[2] else None)
                if key[1]:
                    view["count"] = counts[client.seat]
            self.post(client, view, game.hand)

    async def _extras(self, game: Any, chosen: list[Client], wait: bool) -> tuple[Offered | None, dict[int, Any]]:
        """The moves of the seat to play (if one of ``chosen`` is that seat) and the counts ``chosen`` asked for."""
        futures: dict[Any, asyncio.Future[Any]] = {}
        if any(self._mover(game, c.seat) for c in chosen):
            futures["moves"] = self._memo("moves", offered_moves, snapshot(self.session))
        counting = tuple(sorted({c.seat for c in chosen if c.counting and c.seat is not None}))
        if counting:   # (one job for every seat that counts: the table's jobs are few, TABLE_JOBS)
            futures["counts"] = self._memo(("counts", counting), counts_json, game, counting)
        if futures:
            _, pending = await asyncio.wait(list(futures.values()), timeout=self.limits.wait_seconds if wait else None)
            if pending:
                raise StillWorking(WORKING)
        offered = futures["moves"].result() if "moves" in futures else None
        return offered, futures["counts"].result() if "counts" in futures else {}

    def _publish_later(self, version: int, chosen: list[Client]) -> None:
        """Send ``chosen`` the position at ``version`` once its work is done (unless the game has moved on)."""
        if self._later is not None and self._later[0] == version:
            self._later[1].update(chosen)
            return
        self._later = (version, set(chosen))
        self._spawn(self._publish_when_ready(version))

    async def _publish_when_ready(self, version: int) -> None:
        try:
            while not self.closed and self.version == version and self._later is not None:
                waiting = [c for c in self._later[1] if c in self.clients and not c.dropped]
                try:
                    await self._extras(self.session.game, waiting, wait=False)
                except StillWorking:                  # the table's threads are busy: look again shortly
                    await asyncio.sleep(0.5)
                    continue
                async with self.lock:
                    if self.version == version and self._later is not None and self._later[0] == version:
                        waiting = [c for c in self._later[1] if c in self.clients]
                        self._later = None
                        await self.publish(waiting)
                return
        except (StillWorking, asyncio.CancelledError):
            return
        except Exception:          # a bug: logged, and said to the browsers waiting
            log.exception("table %s: working out a position", self.id)
            for client in list(self.clients):
                self.tell(client, "error", "the server could not work out this position (a bug: see its log)")
        finally:
            if self._later is not None and self._later[0] == version and self.version != version:
                self._later = None

    def post_hand_end(self, client: Client, end: HandEnd) -> None:
        self.post(client, views.summary_view(end.summary, self.kinds, client.seat, end.log,
                                             self.session.game.rules.build.free_actions, end.told), end.position)

    def tell(self, client: Client, kind: str, message: str) -> None:
        """A line for one browser (an error, a refusal, a note): it describes the position in play."""
        self.post(client, {"type": kind, "message": message}, self.session.game.hand)

    def _presence(self, before: list[int], but: Client | None = None) -> None:
        """Who is connected, to every browser (``but`` the one that came: its state says it), when a seat came
        or went (a watcher changes nothing)."""
        now = self._connected()
        if now != before:
            for client in list(self.clients):
                if client is not but:
                    self.post(client, {"type": "presence", "connected": now}, None)

    # ------------------------------------------------------------------ joining
    async def join(self, client: Client) -> None:
        """A browser takes its seat (or watches): it gets the table's fixed parts, the last hand's scoring and
        the table as it stands; the others only hear that a seat is connected. While an action of the table is
        being applied (the lock is held longer than a browser waits), it gets the position as it stands, and
        the next one when the action is written, like every browser of the table."""
        if not await acquire_within(self.lock, self.limits.wait_seconds):
            game = self.session.game
            self._welcome(client)
            self.post(client, self._state(client.seat, game, None, WORKING), game.hand)
            # Its own view follows once the table is free: the work holding the lock may publish
            # to nobody (a computer's move does; another browser's request may not).
            self._spawn(self._publish_when_free(client))
            return
        try:
            self._welcome(client)
            await self.publish([client])
            self.kick()
        finally:
            self.lock.release()

    async def _publish_when_free(self, client: Client) -> None:
        """A browser that joined while the table was busy: its view, once the lock is free."""
        async with self.lock:
            if client in self.clients and not client.dropped and not self.closed:
                await self.publish([client])

    def _welcome(self, client: Client) -> None:
        before = self._connected()
        self.clients.add(client)
        self.post(client, {"type": "welcome", "table": self.id, "seat": client.seat,
                           "seats": list(self.kinds)} | self.statics(), None)
        if self.last_end is not None:
            self.post_hand_end(client, self.last_end)
        self._presence(before, but=client)

    async def leave(self, client: Client) -> None:
        before = self._connected()
        self.clients.discard(client)
        self._presence(before)
        if not self.clients:
            self.idle_since = time.monotonic()

    # ------------------------------------------------------------------ acting
    async def _act(self, action: str) -> None:
        """Apply, record and show an action (called with the lock held).

        The record is written (and synced to disk) by a writer thread, never one a computer
        player thinks in, so one table's disk write or thinking never holds up the others;
        nobody is shown the move before it is written.
        """
        after = None
        if self.heavy and self.lane is not None:      # the move's check lists the position: not in this process
            # (Queued at once, beyond the table's TABLE_JOBS: the table's lock is held, so it is the only one.)
            game = self.session.game
            worked = await self.lane.submit(applied, game, action, owner=self.id)
            after = worked.with_(engine=game.engine, scorer=game.scorer)
        acted, before, end, told = await self.writers.run(act_and_summarise, self.session, action,
                                                          list(self.hand_log), self.told, after)
        self._moved()
        self.hand_log.append((acted.seat, _shown(acted.action)))
        self.told = told
        if end is not None:
            self.last_end = end
            for client in list(self.clients):
                self.post_hand_end(client, end)
        if acted.new_hand:
            self.hand_log = []
        if self.session.game.over:
            self._finish()
        await self.publish()
        await self._teach(before, acted.seat, acted.action)

    def _finish(self) -> None:
        """The game is over: its record is written for good, so its lock goes (a terminal may replay it)."""
        if self.finished_at is None:
            self.finished_at = time.monotonic()
        if self.held is not None:
            self.held.release()
            self.held = None

    # ------------------------------------------------------------------ the tutorial
    async def _teach(self, before: Any, seat: int, action: str) -> None:
        """The lessons of the action just made (by ``seat``, from ``before``), to each browser that switched
        the tutorial on, each the first time its seat meets it (called with the lock held, after the new
        position was sent, so a lesson never comes before the move it explains). Worked out in one of the table's
        engine jobs; where none comes free, or the work is not done, within what a browser waits, they come once
        it is (``_teach_later``), and the lessons of every later move after them: none is skipped or taught twice,
        and they come in the order of the moves."""
        learners = sorted({c.seat for c in self.clients if c.tutorial and c.seat is not None})
        if not learners:
            return
        after = self.session.game
        about = {"seat": seat, "move": _shown(action), "hand_no": before.hand_no}
        earlier = self._teaching
        future: asyncio.Future[Any] | None = None
        if earlier is None or earlier.done():
            try:
                future = await self._started(lessons_after, self._tutorials_of(learners), before, action, after,
                                             within=self.limits.wait_seconds, pause=0.02)
                position, taught = await asyncio.wait_for(asyncio.shield(future), self.limits.wait_seconds)
            except (StillWorking, asyncio.TimeoutError):
                log.info("table %s: the tutorial's lessons of %s come once the table's work allows", self.id, action)
            else:
                self._give_lessons(taught, about, position)
                return
            earlier = None
        self._teaching = self._spawn(self._teach_later(earlier, future, learners, before, action, after, about))

    def _tutorials_of(self, learners: list[int]) -> dict[int, Tutorial | None]:
        return {k: self.tutorials.get(k) for k in learners}

    async def _teach_later(self, earlier: asyncio.Task[None] | None, future: asyncio.Future[Any] | None,
                           learners: list[int], before: Any, action: str, after: Any, about: dict[str, Any]) -> None:
        """``_teach``'s lessons of ``action`` once ``earlier`` (the lessons of the move before) has given its own,
        from the work started already (``future``) or started as soon as the table has a job free."""
        if earlier is not None:
            await asyncio.wait([earlier])         # (its failure is its own, logged there)
        try:
            if future is None:
                future = await self._started(lessons_after, self._tutorials_of(learners), before, action, after)
            position, taught = await future
        except asyncio.CancelledError:
            raise                                 # the table is closing
        except Exception:                         # a bug: logged, and the table goes on
            log.exception("table %s: the tutorial's lessons of %s", self.id, action)
            return
        async with self.lock:
            self._give_lessons(taught, about, position)

    def _give_lessons(self, taught: dict[int, tuple[Tutorial, tuple[Lesson, ...]]], about: dict[str, Any],
                      position: HandState) -> None:
        for learner, (tutorial, lessons) in taught.items():
            self._post_lessons(learner, lessons, about, position)
            self._learnt(learner, tutorial)

    async def _start_tutorial(self, client: Client, seat: int) -> None:
        """The tutorial switched on for ``client``. The first time for its seat: what a turn is, then what the
        moves of the hand in play taught, which the seat has seen (so the computer's first capture, made
        before the page connected, still explains capturing); after that, the lessons not yet read, and
        nothing else again. A game the record says was taught before (``Record.taught``: played with
        `cassino play --tutorial`) goes on from there, teaching what it taught no more."""
        if seat in self.tutorials:
            for message in self.unread.get(seat, []):
                self.post(client, message, None)
            return
        game = self.session.game
        taught = (self.session.record.taught or {}).get(seat)
        if taught is not None:
            tutorial, lessons = replace(Tutorial.for_game(game), shown=frozenset(taught)), ()
            if game.hand.turn == seat:   # (a rule limiting the choice before them now)
                tutorial, lessons = tutorial.before(game)
            batches = [(lessons, {"seat": None, "move": None, "hand_no": game.hand_no}, game.hand)]
        else:
            # Waited for until a thread of the table is free (replaying the hand's moves is short): refused
            # as busy while the computer's move and the view held both, the lessons never came.
            tutorial, batches = await self._background(tutorial_from_start, snapshot(self.session).record,
                                                       game.hand_no, seat, game.hand)
        if seat in self.tutorials:
            return
        self._learnt(seat, tutorial)
        for lessons, about, position in batches:
            self._post_lessons(seat, lessons, about, position, only=client)

    def _learnt(self, seat: int, tutorial: Tutorial) -> None:
        """``seat``'s tutorial as it now stands, kept for the table and in its record (written with the next
        move: ``Record.taught``, which `cassino play --resume` and this table read), less the lessons not
        yet read, which a resumed game teaches again."""
        self.tutorials[seat] = tutorial
        waiting = {lesson["topic"] for m in self.unread.get(seat, []) for lesson in m["lessons"]}
        record = self.session.record
        record.taught = {**(record.taught or {}), seat: sorted(tutorial.shown - waiting)}

    def lessons_read(self, seat: int) -> None:
        """``seat``'s player read the lessons shown (*Got it*): none is sent again, and every other browser
        of the seat closes them too."""
        self.unread.pop(seat, None)
        if seat in self.tutorials:
            self._learnt(seat, self.tutorials[seat])
        for client in list(self.clients):
            if client.seat == seat:
                self.post(client, {"type": "lessons_read"}, None)

    def _post_lessons(self, seat: int, lessons: tuple[Lesson, ...], about: dict[str, Any], position: HandState,
                      only: Client | None = None) -> None:
        if not lessons:
            return
        message = {"type": "lessons", **about, "lessons": lessons_json(lessons)}
        self.unread.setdefault(seat, []).append(message)
        for client in [only] if only is not None else list(self.clients):
            if client.tutorial and client.seat == seat:
                self.post(client, message, position)

    # ------------------------------------------------------------------ a browser's requests
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
        # The table's lock, waited for a bounded time (another request of this table may be working).
        if not await acquire_within(self.lock, self.limits.wait_seconds):
            self._busy(client, req, BUSY)
            return
        try:
            await self._handle(client, seat, req)
        except StillWorking as e:
            self._busy(client, req, str(e))
        finally:
            self.lock.release()

    def _busy(self, client: Client, req: Request, words: str) -> None:
        """A request the table is too busy to take now. A move (or the warnings asked before one) or a claim is
        refused, not only told: the page lets a refused move be sent again, where after words alone it took a
        second click on the same move for a double click and sent nothing (the socket replay found it)."""
        if req.type in ("move", "warn", "claim"):
            self.tell(client, "refused", not_made("claim" if req.type == "claim" else "move"))
        else:
            self.tell(client, "info", words)

    async def _handle(self, client: Client, seat: int, req: Request) -> None:
        s = self.session
        if req.type == "count":
            client.counting = req.flag("on")
            await self.publish([client])
            return
        if req.type == "lessons_read":
            self.lessons_read(seat)
            return
        if req.type == "tutorial":
            # The state first: the position from which the actions are taught.
            client.tutorial = req.flag("on")
            await self.publish([client])
            if client.tutorial:
                await self._start_tutorial(client, seat)
            return
        if s.game.over:
            self.tell(client, "error", "the game is over")
            return
        if req.type == "undo":
            try:
                self.hand_log, self.told, self.last_end = await self.writers.run(undo_and_replay, s, seat)
            except (RecordError, FileProblem, OSError) as e:
                log.warning("table %s: undo not saved: %s", self.id, e)
                self.tell(client, "error", f"{NOT_SAVED}; nothing was taken back")
                return
            except CassinoError as e:
                self.tell(client, "error", public_words(str(e)))
                return
            self._moved()
            self.failed = None
            self.tell(client, "info", "took back your last move")
            await self.publish()
            self.kick()
            return
        turn = s.game.hand.turn
        # (a claim at any time: a person whose move reached the target may claim before the computer's reply, as at
        # a table; it waited for the person's turn, and a computer reaching the target by that reply claimed first)
        if turn != seat and req.type != "claim":
            # Asked before anything else: a reason or a hint reads the hand of the seat to play.
            self.tell(client, "error", f"it is not your turn: {views.seat_label(self.kinds, turn, seat)} is to play")
            return
        if req.type == "why":
            answer = await self.work(why_answer, s.game, req.cards("played"), req.cards("items"))
            # (the cards asked about, so that the page drops an answer about cards it has clicked on since)
            self.post(client, answer | {"asked": {"played": req.cards("played"), "items": req.cards("items")}},
                      s.game.hand)
            return
        if req.type == "warn":
            self.post(client, await self.work(warnings_answer, snapshot(s), req.text("text"), self.hinted(seat)),
                      s.game.hand)
            return
        if req.type == "hint":
            self.ask_hint(client, seat)
            return
        try:
            if req.type == "claim":
                if not s.game.rules.game.claiming:
                    raise CassinoError("there is no claiming in this game: play on to the end of the hand")
                await self._act(f"claim {seat}")
            else:
                actions = await self.work(read_typed, snapshot(s), req.text("text"))
                for action in actions:
                    await self._act(action)
                if len(actions) > 1 and s.typed_turn_open(seat):
                    # (a whole turn typed: ended where its card was played, as at the terminal, and said so where the
                    # hand can build nothing more, as one action at a time is told: a player's audit of the terminal)
                    left = s.game.engine.playable_moves(s.game.hand)
                    await self._act("end")
                    if len(left) == 1 and left[0].kind is MoveKind.END:
                        self.tell(client, "info", "Nothing left for your hand to build: your turn ended.")
        except NotAMove:
            example = await self.work(first_move, s.game)
            self.tell(client, "refused", f"{req.text('text')[:40]!r} is not a move: write one such as `{example}`")
            return
        except (RecordError, FileProblem, OSError) as e:
            log.warning("table %s: move not saved: %s", self.id, e)
            self.tell(client, "error", f"{NOT_SAVED}; the move was not made")
            return
        except StillWorking:
            raise
        except CassinoError as e:
            self.tell(client, "refused", public_words(str(e), 400))
            return
        self.failed = None
        self.kick()

    # ------------------------------------------------------------------ hints
    def hinted(self, seat: int) -> str | None:
        """The move ``seat``'s hint gave at the position in play, once worked out (None: none asked or ready)."""
        pending = self.hints.get(seat)
        if pending is None or pending[0] != self.version or not pending[1].done() or pending[1].cancelled() \
                or pending[1].exception() is not None:
            return None
        move = pending[1].result().get("move")
        return move["text"] if isinstance(move, dict) else None

    def ask_hint(self, client: Client, seat: int) -> None:
        """A hint for ``seat``, the seat to play (called with the lock held): worked out in the worker
        processes (``Thinkers.hint``: the table's fair share, its search bounded in time), once for the
        position and shared by the seat's browsers, and sent to ``client`` when it is ready, or the
        words saying it was given up; the table answers its other requests meanwhile."""
        pending = self.hints.get(seat)
        if (pending is None or pending[0] != self.version or pending[1].cancelled()
                or (pending[1].done() and pending[1].exception() is not None)):      # given up: asked anew
            future = asyncio.ensure_future(self.thinkers.hint(pickle.dumps(snapshot(self.session)), seat,
                                                              self.limits.hint_seconds, owner=self.id))
            pending = self.hints[seat] = (self.version, future)
        self._spawn(self._send_hint(client, pending[1], self.session.game.hand))

    def _moved(self) -> None:
        """The game has moved on (an action, an undo): hints not yet worked out are given up."""
        self.version += 1
        for _, future in self.hints.values():
            future.cancel()
        self.hints = {}

    async def _send_hint(self, client: Client, future: "asyncio.Future[dict[str, Any]]", position: HandState) -> None:
        """The hint to ``client`` when it is ready, or why it was given up: every hint asked is answered."""
        where = {"hand_no": self.session.game.hand_no, "ply": position.ply}
        try:
            answer = await asyncio.shield(future)
        except asyncio.CancelledError:
            if not future.cancelled():
                raise                             # the table is closing, or the server stopping
            why = "the server is stopping" if self.thinkers.stopped else "the game moved on before it was worked out"
            self.post(client, {"type": "hint", "move": None, **where, "message": f"the hint was given up: {why}"},
                      position)
            return
        except GaveUp as e:
            self.post(client, {"type": "hint", "move": None, **where, "message": str(e)}, position)
            return
        except Exception:       # a bug: said to this browser, logged, and the table goes on
            log.exception("table %s: hint", self.id)
            self.post(client, {"type": "hint", "move": None, **where,
                               "message": "the server could not work out a hint (a bug: see the server's log)"},
                      position)
            return
        notes = [f"the best move found in the {self.limits.hint_seconds:g} s a hint may search"] if answer["cut"] else []
        notes += [answer["claimed"]] if answer.get("claim") else []
        self.post(client, {"type": "hint", "move": answer["move"], **where, "message": "; ".join(notes) or None,
                           "claim": answer.get("claim")}, position)

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
        self._spawn(self._review_for(client, seat))

    async def _review_for(self, client: Client, seat: int) -> None:
        future = self.reviewing.get(seat)
        if future is None:
            future = asyncio.ensure_future(self.thinkers.review(pickle.dumps(self.record), seat, self.review_deals,
                                                                owner=self.id))
            self.reviewing[seat] = future
            future.add_done_callback(lambda _: self.reviewing.pop(seat, None))
        try:
            review = await asyncio.shield(future)
        except LimitReached as e:
            self.tell(client, "error", str(e))
            return
        except CassinoError as e:
            self.tell(client, "error", f"the game could not be reviewed: {public_words(str(e))}")
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

    # ------------------------------------------------------------------ the computer's turns
    def kick(self) -> None:
        """Start the computer players if one is to act (call with the lock held, or from the event loop)."""
        if self.driver is None and not self.session.game.over and self.failed is None and not self.closed:
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        """The computer players' turns, one action at a time. Each is worked out on the position as it was
        (a snapshot, version ``version``), after the pause; it is made only if the game is still at that
        version (an undo or a person's move in the meantime: look again)."""
        try:
            while not self.closed:
                async with self.lock:
                    version = self.version
                    snap = snapshot(self.session)
                claimant, to_move = await self._background(decide, snap)
                if claimant is not None:
                    async with self.lock:
                        if self.version == version:
                            await self._act(f"claim {claimant}")
                    continue
                if not to_move:
                    async with self.lock:
                        if self.version == version:
                            self.driver = None
                            return
                    continue
                if self.pace:
                    await asyncio.sleep(self.pace)
                    if self.version != version:           # an undo in the pause: the position has changed
                        continue
                if long_thinker(self.kinds[snap.game.hand.turn]):
                    text = await self.thinkers.choose(pickle.dumps(snap), owner=self.id)
                else:       # milliseconds: never queued behind another table's long search
                    text = await self._background(snap.computer_choice)
                async with self.lock:
                    if self.version == version:           # else an undo changed the game: think again
                        await self._act(text)
        except asyncio.CancelledError:
            raise
        except Exception as e:     # a bug or a full disk: the table stops, its record as it was last written
            log.exception("table %s stopped", self.id)
            self.failed = stopped_words(e)
            self.driver = None
            async with self.lock:
                await self.publish()


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


def _within(seconds: float, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a daemon thread, waited for ``seconds`` at most (TimeoutError after that: the thread
    is left to finish; it never keeps the process from ending)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as e:
            box["error"] = e

    thread = threading.Thread(target=run, name="cassino-resume", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError(f"it took longer than {seconds:g} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


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
        self.engines = Workers(ENGINE_THREADS, "cassino-engine")
        #: The heavy tables' engine work, in worker processes of its own (``thinking.HEAVY_SECONDS``).
        self.lane = Thinkers(LANE_WORKERS)
        #: The lobby's work (reading pasted rules and uploaded records, dealing a new table), apart from the tables'.
        self.lobby_work = Workers(LOBBY_THREADS, "cassino-lobby")
        self.uploads = PerMinute(limits.uploads_per_minute, "requests that upload a file or open a table")
        #: Which client address opened each table since the server started (for the per-client limit).
        self.opened_by: dict[str, str] = {}
        #: Tables being made now (counted toward the limits before they exist), by client address.
        self.pending: dict[str, int] = {}
        #: Connections open now: in all, by client address, by table.
        self.sockets = 0
        self.sockets_by_client: dict[str, int] = {}
        self.sockets_by_table: dict[str, int] = {}
        self.janitor: asyncio.Task[None] | None = None
        #: Tables whose last save at stopping did not end in time (each is as of its last action written).
        self.unsaved: list[str] = []

    # ------------------------------------------------------------------ limits
    def open_tables(self, client: str | None = None) -> int:
        """Tables open now, finished ones until they are closed (of ``client``'s, when given), and those being made."""
        if client is None:
            return len(self.tables) + sum(self.pending.values())
        return (sum(1 for t in self.tables if self.opened_by.get(t) == client) + self.pending.get(client, 0))

    def admit(self, record: Record, client: str) -> None:
        """LimitReached when ``client`` may not open another table now; CassinoError for a seat not run here."""
        for kind in record.seats:
            self.limits.check_seat(kind)
        later = (f"a finished game counts until its table is closed, {_minutes(self.limits.finished_seconds)} "
                 f"after its last page")
        if self.open_tables() >= self.limits.max_tables:
            raise LimitReached(f"this server has {self.limits.max_tables} tables in play, its limit: "
                               f"finish a game or try later ({later})")
        if self.open_tables(client) >= self.limits.tables_per_client:
            raise LimitReached(f"you have {self.limits.tables_per_client} tables in play, the limit for one "
                               f"computer: finish one of them first ({later})")

    def connect(self, client: str, table: Table) -> str | None:
        """Count a new connection to ``table`` from ``client``; the refusal in words when it is one too many."""
        limits = self.limits
        if self.sockets >= limits.max_connections:
            return f"this server has {limits.max_connections} connections, its limit: try again later"
        if self.sockets_by_client.get(client, 0) >= limits.connections_per_client:
            return (f"there are {limits.connections_per_client} connections from your address, the limit for "
                    f"one computer: close another table's page first")
        if self.sockets_by_table.get(table.id, 0) >= limits.connections_per_table:
            return (f"this table has {limits.connections_per_table} connections, its limit: "
                    f"close another page of it, or try later")
        self.sockets += 1
        self.sockets_by_client[client] = self.sockets_by_client.get(client, 0) + 1
        self.sockets_by_table[table.id] = self.sockets_by_table.get(table.id, 0) + 1
        return None

    def disconnect(self, client: str, table: Table) -> None:
        self.sockets -= 1
        for counts, key in ((self.sockets_by_client, client), (self.sockets_by_table, table.id)):
            counts[key] -= 1
            if not counts[key]:
                del counts[key]

    # ------------------------------------------------------------------ running and stopping
    def start(self) -> None:
        """Resumed tables whose computer player is to move start playing; finished tables get closed in time."""
        for table in self.tables.values():
            table.kick()
        self.janitor = asyncio.get_running_loop().create_task(self._close_finished())

    async def _close_finished(self) -> None:
        every = max(0.2, min(10.0, self.limits.finished_seconds / 4))
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if (table.finished_at is not None and not table.clients
                        and now - max(table.finished_at, table.idle_since) >= self.limits.finished_seconds):
                    self.close(table)

    def close(self, table: Table) -> None:
        """Close a finished table: its browsers are told, its work stops; its record stays in the folder."""
        table.closed = True
        for task in [table.driver, *table.tasks, *(hint for _, hint in table.hints.values())]:
            if task is not None:
                task.cancel()
        for client in list(table.clients):
            table.post(client, {"type": "error", "fatal": True, "message": "this table is closed: its game is over "
                                "(the record is in the server's folder)"}, None)
            client.drop()
        if table.held is not None:
            table.held.release()
            table.held = None
        self.tables.pop(table.id, None)
        self.opened_by.pop(table.id, None)
        (self.sidecars / f"{table.id}.json").unlink(missing_ok=True)
        self.say(f"closed table {table.id}: its game is over ({table.session.save_path.name} stays)")

    async def stop(self, wait: float = STOP_SECONDS) -> list[str]:
        """Stop thinking and working, then save every table whose game goes on, waiting ``wait`` seconds at most
        for writes under way; the tables that could not be saved once more (each is as of its last action)."""
        if self.janitor is not None:
            self.janitor.cancel()
        tasks: list[Any] = [t.driver for t in self.tables.values() if t.driver is not None]
        tasks += [task for t in self.tables.values() for task in t.tasks]
        for task in tasks:
            task.cancel()
        self.thinkers.stop()
        self.lane.stop()
        self.engines.stop()
        self.lobby_work.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        deadline = time.monotonic() + wait
        unsaved = []
        for table in list(self.tables.values()):
            if table.session.game.over or table.failed is not None:
                continue
            # A write under way ends first.
            if not await acquire_within(table.lock, max(0.01, deadline - time.monotonic())):
                unsaved.append(table.id)
                continue
            try:
                await asyncio.wait_for(asyncio.shield(table.writers.submit(table.session.save)),
                                       max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                unsaved.append(table.id)
            except (RecordError, OSError) as e:
                self.say(f"could not save table {table.id}: {e}")
                unsaved.append(table.id)
            finally:
                table.lock.release()
        self.writers.stop(max(0.0, deadline - time.monotonic()))
        for table in self.tables.values():
            if table.held is not None:
                table.held.release()
                table.held = None
        return unsaved

    # ------------------------------------------------------------------ the folder
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
        """A table over ``path`` (in a thread: the record is replayed), holding its record's lock."""
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
            table = Table(table_id, session, tokens, watch, self.pace, self.thinkers, self.writers,
                          self.limits.review_deals, engines=self.engines, limits=self.limits, lane=self.lane)
        except BaseException:
            held.release()
            raise
        table.held = held
        if session.game.over:
            table._finish()
        return table

    def _register(self, table: Table, client: str | None) -> Table:
        self.tables[table.id] = table
        if client is not None:
            self.opened_by[table.id] = client
        return table

    def _made(self, record: Record, stem: str, game: Any, cancelled: threading.Event) -> Table | None:
        """In a thread: a new record file for ``record`` (a new name, never over a file) and its table."""
        if game is None:
            game = record.new_game()          # the deal: the slow part of a very large table
        if cancelled.is_set():                # nobody waits for it any more: nothing is written
            return None
        path = save_new(record, self.folder, stem, game)
        tokens = {seat: new_token() for seat, kind in enumerate(record.seats) if kind == "human"}
        table = self._open(self._new_id(), record, path, tokens, new_token())
        self._sidecar(table, path.name)
        return table

    async def _make(self, record: Record, client: str, stem: str, game: Any = None) -> Table:
        self.admit(record, client)
        self.pending[client] = self.pending.get(client, 0) + 1
        cancelled = threading.Event()
        try:
            future = self.lobby_work.submit(self._made, record, stem, game, cancelled)
            try:
                table = await asyncio.wait_for(asyncio.shield(future), max(self.limits.wait_seconds, 20.0))
            except asyncio.TimeoutError:
                cancelled.set()
                future.add_done_callback(_close_unwanted)
                raise StillWorking("dealing this table takes the server too long (a very large deal): "
                                   "choose fewer cards") from None
        finally:
            self.pending[client] -= 1
            if not self.pending[client]:
                del self.pending[client]
        assert table is not None
        return self._register(table, client)

    async def create(self, record: Record, client: str = "") -> Table:
        """A new table for ``record``: its record file (a new name, never over a file), its tokens, its id.

        ``client`` (the address asking) must be within the limits (:meth:`admit`).
        """
        stem = re.sub(r"[^A-Za-z0-9_-]+", "-", record.rules.name).strip("-")[:40] or "game"
        return await self._make(record, client, f"{stem}-{secrets.token_hex(6)}")

    async def continued(self, record: Record, game: Any, stem: str, client: str) -> Table:
        """A table for an uploaded record, saved in the folder under a new name (``stem``-continued...)."""
        return await self._make(record, client, f"{stem}-continued", game)

    def open_all(self) -> list[Table]:
        """Resume the tables of the folder and take in its other records, most recent first, up to the limit of
        tables; each within RESUME_SECONDS (a record the server cannot replay in that time is not resumable);
        finished games are left in the folder. Whatever cannot be read is reported, never fatal."""
        entries: list[tuple[float, str, Path, tuple[str, dict[int, str], str] | None]] = []
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
            taken.add(name)
            entries.append((_mtime(self.folder / name), name, self.folder / name, (table_id, tokens, watch)))
        for path in sorted(self.folder.glob("*.json")):
            if path.name not in taken and not path.name.startswith("."):
                entries.append((_mtime(path), path.name, path, None))
        entries.sort(key=lambda e: (-e[0], e[1]))
        adopted, finished = [], []
        for _, name, path, known in entries:
            table_id = known[0] if known is not None else None
            if len(self.tables) >= self.limits.max_tables:
                self.say(f"skipped {name}: the limit of {self.limits.max_tables} tables is reached (--max-tables)")
                continue
            try:
                table = _within(RESUME_SECONDS, self._resume, path, known)
            except RecordError as e:
                self.say(f"skipped {'table ' + table_id if table_id else name}: not resumable here: "
                         f"{public_words(str(e), 400)}")
                continue
            except TimeoutError as e:
                self.say(f"skipped {name}: not resumable here: replaying it took too long ({e})")
                continue
            except Exception as e:          # a bug or an engine limit: said, logged, and the others go on
                log.exception("resuming %s", name)
                self.say(f"skipped {name}: not resumable ({type(e).__name__}: {public_words(str(e), 200)})")
                continue
            if table is None:
                finished.append(name)
                continue
            self._register(table, None)
            if table_id is None:
                adopted.append(table)
        if finished:
            names = ", ".join(finished[:5]) + (f" and {len(finished) - 5} more" if len(finished) > 5 else "")
            self.say(f"left {len(finished)} finished game{'s' if len(finished) != 1 else ''} in the folder as "
                     f"{'they are' if len(finished) != 1 else 'it is'} ({names})")
        return adopted

    def _resume(self, path: Path, known: tuple[str, dict[int, str], str] | None) -> Table | None:
        """In a thread: the table of ``path``, with the id and tokens ``known`` from its table file (new ones
        for a record `cassino play` wrote); None when its game is over."""
        record, game = load_game(path)
        if game.over:
            return None
        if known is None:
            tokens = {seat: new_token() for seat, kind in enumerate(record.seats) if kind == "human"}
            table = self._open(self._new_id(), record, path, tokens, new_token())
            self._sidecar(table, path.name)
            return table
        table_id, tokens, watch = known
        if set(tokens) != {k for k, kind in enumerate(record.seats) if kind == "human"}:
            raise RecordError(f"{SIDECARS}/{table_id}.json does not match the seats of {path.name}")
        return self._open(table_id, record, path, tokens, watch)


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g} s"


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _close_unwanted(future: "asyncio.Future[Table | None]") -> None:
    """A table made after its request gave up waiting: nothing was written for it, or it is let go."""
    if future.cancelled() or future.exception() is not None:
        return
    table = future.result()
    if table is not None and table.held is not None:
        table.held.release()

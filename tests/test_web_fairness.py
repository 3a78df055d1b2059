"""`cassino serve` shares its searching workers fairly, bounds a hint, answers every hint, and never makes a
person's plain move wait for another table's searches (issue 48, 1).

The order of the fair queue is checked as a value; the worker processes with jobs that sleep (a worker
stopped past its cap, a job given up for waiting too long, jobs taken in turn by table); the server with
no worker at all, so that hints stay queued for as long as the test likes: moves at that table and at
another are answered meanwhile, and every hint asked gets an answer or the words that it was given up.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from cassino.apps.game.records import Record  # noqa: E402
from cassino.apps.game.session import GameSession  # noqa: E402
from cassino.apps.web.policy import Limits  # noqa: E402
from cassino.apps.web.thinking import FairQueue, GaveUp, Thinkers, TimedSearch, hint_answer  # noqa: E402
from cassino.language.variants import load_rules  # noqa: E402

from web_helpers import serving, slow_hint  # noqa: E402


# ---------------------------------------------------------------------- the order
def _drain(queue: FairQueue[str], finish: bool = False) -> list[str]:
    out = []
    while True:
        taken = queue.take()
        if taken is None:
            return out
        out.append(taken[2])
        if finish:
            queue.done(taken[0], taken[1])


def test_a_tables_second_request_waits_behind_every_other_tables_first() -> None:
    queue: FairQueue[str] = FairQueue()
    for item in ("a1", "a2", "a3"):
        queue.put("A", "0", item)
    queue.put("B", "0", "b1")
    queue.put("C", "0", "c1")
    assert len(queue) == 5 and queue.owned("A") == 3
    assert _drain(queue) == ["a1", "b1", "c1", "a2", "a3"]
    assert queue.owned("A") == 3 and len(queue) == 0          # (taken, being worked on: counted until done)
    queue.done("A", "0")
    assert queue.owned("A") == 2


def test_a_table_that_comes_later_goes_before_a_busy_tables_second() -> None:
    queue: FairQueue[str] = FairQueue()
    queue.put("A", "0", "a1")
    queue.put("A", "0", "a2")
    assert queue.take() == ("A", "0", "a1")                   # A's first is being worked on
    queue.put("D", "0", "d1")
    assert queue.take() == ("D", "0", "d1")
    queue.done("A", "0")
    queue.done("D", "0")
    queue.put("D", "0", "d2")
    # Neither is running: A was served longer ago than D.
    assert _drain(queue, finish=True) == ["a2", "d2"]


def test_people_at_one_table_take_turns_too() -> None:
    queue: FairQueue[str] = FairQueue()
    for item in ("s0-1", "s0-2", "s0-3"):
        queue.put("T", "0", item)
    queue.put("T", "1", "s1-1")
    queue.put("T", "computer", "c-1")
    queue.put("U", "2", "u-1")
    assert _drain(queue, finish=True) == ["s0-1", "u-1", "s1-1", "c-1", "s0-2", "s0-3"]


# ---------------------------------------------------------------------- the worker processes
def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_job_past_its_cap_stops_its_worker_which_is_replaced() -> None:
    thinkers = Thinkers(1)

    async def go() -> tuple[Any, Any]:
        slow = thinkers.submit(time.sleep, 60, cap=0.5, overran="gave up: too long")
        quick = thinkers.submit(pow, 2, 10)
        return await asyncio.gather(slow, quick, return_exceptions=True)

    try:
        slow, quick = _run(go())
    finally:
        thinkers.stop()
    assert isinstance(slow, GaveUp) and str(slow) == "gave up: too long"
    assert quick == 1024 and thinkers.stopped_workers == 1


def test_a_job_that_waits_too_long_for_a_worker_is_given_up_in_words() -> None:
    thinkers = Thinkers(1)

    async def go() -> tuple[Any, Any, Any]:
        first = thinkers.submit(time.sleep, 1.0, owner="A")
        late = thinkers.submit(pow, 3, 2, owner="B", wait=0.05, late="given up: the workers were busy")
        patient = thinkers.submit(pow, 3, 3, owner="C")
        return await asyncio.gather(first, late, patient, return_exceptions=True)

    try:
        first, late, patient = _run(go())
    finally:
        thinkers.stop()
    # (The second cannot start before the first has slept its second: past its 0.05 s.)
    assert first is None and patient == 27
    assert isinstance(late, GaveUp) and "the workers were busy" in str(late)


def test_the_workers_take_jobs_in_turn_by_table() -> None:
    thinkers = Thinkers(1)
    finished: list[str] = []

    async def go() -> None:
        hold = thinkers.submit(time.sleep, 0.5, owner="X")     # the worker is busy while the others queue
        jobs = [thinkers.submit(str, name, owner=name[0]) for name in ("a1", "a2", "a3", "b1", "c1", "b2")]
        for job in jobs:
            job.add_done_callback(lambda f: finished.append(f.result()))
        await asyncio.gather(hold, *jobs)

    try:
        _run(go())
    finally:
        thinkers.stop()
    assert finished == ["a1", "b1", "c1", "a2", "b2", "a3"]


def test_a_job_cancelled_before_it_starts_is_skipped_and_stop_cancels_the_rest() -> None:
    thinkers = Thinkers(1)

    async def go() -> tuple[Any, ...]:
        hold = thinkers.submit(time.sleep, 0.3)
        dropped = thinkers.submit(pow, 2, 2)
        dropped.cancel()
        after = thinkers.submit(pow, 2, 3)
        results = await asyncio.gather(hold, after)
        queued = thinkers.submit(time.sleep, 60)
        waiting = thinkers.submit(pow, 2, 4)
        await asyncio.sleep(0.2)
        thinkers.stop()
        rest = await asyncio.gather(queued, waiting, return_exceptions=True)
        return (*results, *rest)

    hold, after, queued, waiting = _run(go())
    assert hold is None and after == 8
    assert isinstance(queued, asyncio.CancelledError) and isinstance(waiting, asyncio.CancelledError)
    with pytest.raises(asyncio.CancelledError):
        _run(_submit_after_stop(thinkers))


async def _submit_after_stop(thinkers: Thinkers) -> None:
    await thinkers.submit(pow, 1, 1)


# ---------------------------------------------------------------------- a hint's bound
def _session(tmp_path: Path, variant: str = "standard") -> GameSession:
    record = Record(load_rules(variant), 11, 2, False, ["human", "greedy"], source=variant)
    return GameSession.open(record, tmp_path / "g.json")


def test_a_hint_given_all_the_time_it_needs_is_the_search_players_move(tmp_path: Path) -> None:
    session = _session(tmp_path)
    seat = session.game.hand.turn
    whole = hint_answer(session, seat)
    assert whole["cut"] is False
    assert whole["move"]["text"] == hint_answer(session, seat, 3600.0)["move"]["text"]
    assert hint_answer(session, seat, 3600.0)["cut"] is False


def test_a_hint_out_of_time_plays_a_legal_move_at_once_and_says_it_was_cut(tmp_path: Path) -> None:
    session = _session(tmp_path)
    seat = session.game.hand.turn
    legal = set(_texts(session))
    cut = hint_answer(session, seat, 0.0)
    assert cut["cut"] is True and cut["move"]["text"] in legal
    bot = TimedSearch(1, 0.0)
    first = bot.choose(session.game, seat)
    assert bot.cut and bot.deals == 0                              # no deal started: the greedy rating's best
    assert first == bot.candidates(session.game, session.game.legal_moves(), bot.worth(session.game))[0]
    whole = TimedSearch(1, 3600.0)
    whole.choose(session.game, seat)
    assert not whole.cut and whole.deals >= 8


def _texts(session: GameSession) -> list[str]:
    from cassino.engine.notation import format_move

    return [format_move(m, session.game.engine.deck) for m in session.game.legal_moves()]


# ---------------------------------------------------------------------- through the server
def test_hints_waiting_for_a_worker_hold_up_no_move_and_each_is_answered(tmp_path: Path) -> None:
    """No worker at all (``bot_workers=0``): hints are queued and stay there. Meanwhile a person at another
    table plays, and the person who asked plays too; the hint of the position left is given up in words."""
    limits = Limits(bot_workers=0)
    with serving(tmp_path / "records", limits=limits) as s:
        hinting = s.new_table(["human", "human"])
        other = s.new_table(["human", "human"])
        with s.seat(hinting, 0) as a0, s.seat(hinting, 1) as a1, s.seat(other, 0) as b0, s.seat(other, 1) as b1:
            mover = _to_play(a0, a1)
            asked = mover.state
            assert asked is not None
            for _ in range(3):                   # asked again and again: one search for the position
                mover.send({"type": "hint"})
            mover.ping()                         # the table answers while the hint waits
            deadline = time.monotonic() + 20
            while s.store.thinkers.hinting != 1:
                assert time.monotonic() < deadline, s.store.thinkers.hinting
                time.sleep(0.02)
            assert not [m for m in mover.received if '"type":"hint"' in m]
            # Another table: a plain move is answered while the hint waits.
            other_mover = _to_play(b0, b1)
            assert other_mover.state is not None
            before = other_mover.state["ply"]
            other_mover.move(other_mover.state["moves"][0]["text"])
            other_mover.until(lambda m: m["type"] == "state" and m["ply"] == before + 1)
            # The person who asked plays on: the hint is given up, in words, to each time it was asked.
            mover.move(asked["moves"][0]["text"])
            answers = [mover.until(lambda m: m["type"] == "hint") for _ in range(3)]
            for answer in answers:
                assert answer["move"] is None and "given up" in answer["message"], answer
                assert (answer["hand_no"], answer["ply"]) == (asked["hand_no"], asked["ply"])
            assert "moved on" in answers[0]["message"]
            assert s.store.thinkers.hinting == 0


def _to_play(*clients: Any) -> Any:
    """Of two seats' clients, the one to play (each has its state)."""
    states = [c.until(lambda m: m["type"] == "state") for c in clients]
    return next(c for c, v in zip(clients, states) if v["turn"] == v["you"])


def test_a_hint_is_answered_with_its_move_and_a_note_when_its_time_ran_out(tmp_path: Path) -> None:
    with serving(tmp_path / "records", limits=Limits(hint_seconds=0.0)) as s:
        table = s.new_table(["human", "greedy"])
        with s.seat(table, 0) as me:
            state = me.my_turn()
            me.send({"type": "hint"})
            hint = me.until(lambda m: m["type"] == "hint")
            assert hint["move"]["text"] in {m["text"] for m in state["moves"]}
            assert (hint["hand_no"], hint["ply"]) == (state["hand_no"], state["ply"])
            assert "the best move found in the 0 s a hint may search" == hint["message"]


def test_a_hint_that_overruns_its_worker_is_given_up_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker still busy with a hint past its time and grace is stopped: the browser is told, and the next
    hint is worked out by a new worker."""
    from cassino.apps.web import thinking

    monkeypatch.setattr(thinking, "HINT_GRACE", 0.0)
    # The worker is made sure to be busy past the 0 s cap: a quick 0 s hint can come back before the server's
    # thread looks, when that thread is descheduled between asking and looking (it was, once, in CI).
    monkeypatch.setattr(thinking, "_hint", slow_hint)
    with serving(tmp_path / "records", limits=Limits(hint_seconds=0.0)) as s:
        table = s.new_table(["human", "greedy"])
        with s.seat(table, 0) as me:
            state = me.my_turn()
            me.send({"type": "hint"})
            hint = me.until(lambda m: m["type"] == "hint")
            assert hint["move"] is None and "given up" in hint["message"] and "longer than 0 s" in hint["message"]
            assert s.store.thinkers.stopped_workers == 1
            monkeypatch.undo()
            monkeypatch.setattr(thinking, "HINT_GRACE", 30.0)
            me.send({"type": "hint"})      # asked again: a new worker
            again = me.until(lambda m: m["type"] == "hint")
            assert again["move"]["text"] in {m["text"] for m in state["moves"]}


# ---------------------------------------------------------------------- heavy tables' own lane
def test_a_table_of_the_heavy_file_works_in_the_heavy_tables_processes(tmp_path: Path) -> None:
    """The issue's heavy file (ten hand cards played together, 24 cards to the table) is heavy from its first
    position: its moves to offer and its computer player's moves are worked out in the heavy tables' worker
    processes, not the server's threads; a standard table's in the threads."""
    from test_web_server import HEAVY_HUNGARIAN

    with serving(tmp_path / "records") as s:
        status, heavy = s.post("/api/tables", {"rules": {"kind": "text", "text": HEAVY_HUNGARIAN,
                                                         "filename": "heavy-hungarian.yaml"},
                                               "players": 2, "seats": ["human", "greedy"], "you": 0})
        assert status == 200, heavy
        light = s.new_table(["human", "greedy"])
        assert s.store.get(heavy["id"]).heavy and not s.store.get(light["id"]).heavy
        with s.seat(heavy, 0) as me:
            state = me.my_turn(timeout=120)
            assert state["moves"]
            assert any(slot.process is not None for slot in s.store.lane._slots)
            me.move(state["moves"][0]["text"])
            # (On a busy machine the table may still be working out its last action: a person then tries again.)
            answer = me.until(lambda m: m["type"] == "state" and m["ply"] > state["ply"]
                              or m["type"] == "info" and "try again" in m["message"], timeout=120)
            if answer["type"] == "info":
                me.move(state["moves"][0]["text"])
            me.my_turn(timeout=120)                   # its computer player answered (in the lane too)
        assert len(s.store.get(heavy["id"]).record.actions) >= 2
        with s.seat(light, 0) as me:
            me.my_turn()
        assert not s.store.get(light["id"]).heavy


def test_a_table_whose_engine_work_took_long_once_is_heavy_from_then_on(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from cassino.apps.web import tables
    from cassino.apps.web.tables import Table, heavy_rules, timed
    from cassino.apps.web.thinking import HEAVY_SECONDS, Writers

    session = _session(tmp_path)
    table = Table("0123456789ab", session, {0: "t"}, "w", 0.0, Thinkers(1), Writers())
    assert not table.heavy and not heavy_rules(session.game.rules)
    assert timed(table, pow, 2, 5) == 32 and not table.heavy
    timed(table, time.sleep, HEAVY_SECONDS * 2)        # waiting is no work: not heavy
    assert not table.heavy
    timed(table, _work_for, HEAVY_SECONDS * 2)         # work, but not a listing (a computer's thinking)
    assert not table.heavy
    assert tables.offered_moves in tables.HEAVY_SIGNS
    monkeypatch.setattr(tables, "HEAVY_SIGNS", frozenset({_listing_for}))      # a listing that takes its time
    timed(table, _listing_for, table.session, HEAVY_SECONDS * 2)
    assert table.heavy
    assert heavy_rules(load_rules("hungarian")) is False                    # three hand cards at most


def _listing_for(snap: GameSession, seconds: float) -> Any:
    """The moves to offer, taking ``seconds`` of this thread's own time at least."""
    from cassino.apps.web import tables

    _work_for(seconds)
    return tables.offered_moves(snap)


def _work_for(seconds: float) -> None:
    """Work (this thread's own time) for ``seconds``."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_move_applied_in_the_lane_is_recorded_as_the_terminal_records_it(tmp_path: Path) -> None:
    """A heavy table's move is checked and applied in a worker (its game pickled there and back) and then
    recorded by ``act_applied``: the same game, record, file and hand summary as ``GameSession.act`` gives,
    move after move through the end of a hand."""
    import json
    import pickle

    from cassino.apps.web.tables import act_applied, applied

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    here, there = _session(tmp_path / "a"), _session(tmp_path / "b")
    summaries = 0
    for _ in range(60):
        if here.game.over:
            break
        action = here.computer_choice() if here.game.hand.turn == 1 else _texts(here)[0]
        game = there.game
        after = pickle.loads(pickle.dumps(applied(pickle.loads(pickle.dumps(game)), action)))
        expected = here.act(action)
        got = act_applied(there, action, after.with_(engine=game.engine, scorer=game.scorer))
        assert got == expected
        summaries += got.summary is not None
        assert there.game.hand == here.game.hand and there.game.scores == here.game.scores
        assert there.game.engine is game.engine and there.record.actions == here.record.actions
        assert there.last_moves == here.last_moves
    assert summaries >= 1
    saved = [json.loads(s.save_path.read_text()) for s in (here, there)]
    assert saved[0] == saved[1]


def test_a_hint_at_a_position_of_thousands_of_moves_does_not_weigh_the_others_moves(tmp_path: Path) -> None:
    """Weighing the others' moves against their alternatives takes seconds at such a position, before any
    deal: the hint's search skips it there (and reads them at an ordinary position)."""
    from cassino.engine.core import Position
    from cassino.apps.web.thinking import HINT_READS_UP_TO
    from test_web_server import HEAVY_HUNGARIAN

    (tmp_path / "heavy.yaml").write_text(HEAVY_HUNGARIAN)
    record = Record(load_rules(str(tmp_path / "heavy.yaml")), 3, 2, False, ["human", "human"], source="heavy")
    session = GameSession.open(record, tmp_path / "g.json")
    engine = session.game.engine
    card = engine.deck.parse
    hand = engine.position(Position(
        players=2, hands={0: [card(c) for c in ("AS", "2S", "3S", "4S", "5S", "6S", "AH", "2H", "3H", "4H")],
                          1: [card("KH")]},
        table=[card(c) for c in ("7S", "8S", "9S", "10S", "JS", "QS", "KS")]))
    session.game = session.game.with_(hand=hand)
    moves = session.game.legal_moves()
    assert len(moves) > HINT_READS_UP_TO
    bot = TimedSearch(1, 3.0)
    bot.candidates(session.game, moves, bot.worth(session.game))
    assert bot.evidence(session.game, 0) is None
    answer = hint_answer(session, 0, 0.0)
    assert answer["cut"] is True and answer["move"]["text"] in set(_texts(session))
    ordinary = _session(tmp_path / "o")
    small = TimedSearch(1, 3.0)
    small.candidates(ordinary.game, ordinary.game.legal_moves(), small.worth(ordinary.game))
    assert small._listed <= HINT_READS_UP_TO

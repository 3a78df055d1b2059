"""`cassino serve` says what the rules did as it happens, as `cassino play` does (tests/test_play_said_as_it_happens.py):
every sweep beside the turn that made it, with what it scores (a penalty, where the lowest total wins), in the
hand's log, beside the seat's last turn and in the hand's end; what a deal did as it was dealt that the table does
not show (the cards laid on the table because they are too few to go round, Escoba's dealer's take); a claim, what
it claimed and whether it was right (Hungarian Casino); and a move that cannot be read answered with this game's own
examples. Seats are named as the browser names them, for each
viewer its own way (``seat 0 (you)``), the words the terminal's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from cassino.apps.game.records import Record, load_record, replay  # noqa: E402
from cassino.apps.game.said import claim_words, deal_words, sweep_words  # noqa: E402
from cassino.apps.web.tables import replayed_log  # noqa: E402
from cassino.apps.web.views import log_view  # noqa: E402
from cassino.engine.core import Position  # noqa: E402
from cassino.engine.game import Game  # noqa: E402
from cassino.engine.notation import parse_move  # noqa: E402

from conftest import record_text  # noqa: E402
from web_helpers import SeatClient, Served, serving  # noqa: E402

LEFT_OVER = "the last 4 cards, too few to give each player one, go face up to the table with this deal: "


def upload(s: Served, variant: str, seed: int, seats: tuple[str, ...], actions: int = 0) -> dict[str, Any]:
    """A table of ``seats`` continuing a game record of seed ``seed`` (``actions`` of its moves made by random
    players, as ``record_text`` makes them), uploaded as in the lobby: the seed is the test's (a new table's is
    drawn at random), and the table's hand log is read from the record, as after a restart or an undo."""
    status, answer = s.post("/api/records", {"text": record_text(variant, seed=seed, actions=actions, seats=seats),
                                             "filename": "game.json"})
    assert status == 200, answer
    return answer


def capture_first(state: dict[str, Any]) -> str:
    """A seat's choice: its first capture offered, else its first move (the same game every run)."""
    return next((m["text"] for m in state["moves"] if m["kind"] == "capture"), state["moves"][0]["text"])


def received(client: SeatClient) -> list[dict[str, Any]]:
    return [json.loads(text) for text in client.received]


def sweeps_made(record: Record) -> list[tuple[Game, str] | None]:
    """Each action of ``record`` with the game it was played in where it recorded a sweep (the engine's own
    count), else None."""
    out: list[tuple[Game, str] | None] = []

    def seen(before: Game, action: str, after: Game) -> None:
        hand = before.engine.play(before.hand, parse_move(action, before.engine.deck))
        out.append((before, action) if len(hand.sweeps) > len(before.hand.sweeps) else None)

    replay(record, each=seen)
    return out


def turns(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in entries if e["seat"] is not None]


def line(entry: dict[str, Any], state: dict[str, Any]) -> str:
    """A turn's line in the hand's log as the browser draws it (``logItem`` in static/table.js): the seat's name
    as the viewer's state names it, the turn, and what is said beside it."""
    said = f": {entry['said']}" if entry.get("said") else ""
    return f"{state['seats'][entry['seat']]['name']}: {entry['text']}{said}"


def named(seat: int) -> str:
    """Seat 0's own names for the seats of a table of it and computer players (greedy)."""
    return "seat 0 (you)" if seat == 0 else f"seat {seat} (greedy)"


# ---------------------------------------------------------------- sweeps
@pytest.mark.parametrize("variant, seed, worth", [
    ("scopa", 2, " point to seat "),
    ("standard", 2, " (it scores nothing here)"),
])
def test_every_sweep_is_said_with_its_turn_and_what_it_scores(tmp_path: Path, variant: str, seed: int,
                                                               worth: str) -> None:
    """A whole game against greedy: every turn of it in the hands' ends, those that swept (the engine's count)
    saying so in the terminal's words (``said.sweep_words``), seats named as the browser names them for this
    seat; the state after a sweep that did not end its hand says it in the log and beside the sweeper's last
    turn."""
    with serving(tmp_path / "records") as s:
        table = upload(s, variant, seed, ("human", "greedy"))
        with s.seat(table, 0) as me:
            me.play_out(capture_first, timeout=240)
            me.ping()
        record = load_record(s.store.get(table["id"]).session.save_path)
    messages = received(me)
    made = sweeps_made(record)
    assert sum(1 for sweep in made if sweep) >= 2
    shown = [entry for m in messages if m["type"] == "hand_end" for entry in turns(m["log"])]
    assert [e["text"] for e in shown] == record.actions
    for entry, sweep in zip(shown, made):
        assert ("said" in entry) == (sweep is not None), entry
        if sweep is not None:
            before, action = sweep
            assert entry["said"] == sweep_words(before, parse_move(action, before.engine.deck), named), entry
            assert entry["said"].startswith("a sweep") and worth in entry["said"], entry
    # As it happens: the state after a sweep says it twice.
    after = [m for m in messages if m["type"] == "state" and m["log"] and "said" in m["log"][-1]]
    assert after
    for state in after:
        last = state["log"][-1]
        assert state["seats"][last["seat"]]["last_said"] == last["said"]
        assert last["said"] in [e.get("said") for e in shown]
    assert {m["type"] for m in messages} >= {"state", "hand_end"}


def test_kasino_misar_says_a_sweep_is_a_penalty_to_the_sweeper_as_each_viewer_names_the_seats(tmp_path: Path) -> None:
    """Won by the lowest total: the tabbe costs the sweeper 5 and gives -5 to the player before. The player who
    swept reads it of "seat 0 (you)"; a watcher of "seat 0 (a person)"."""
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"], variant="kasino-misar")
        t = s.store.get(table["id"])
        engine = t.session.game.engine
        card = engine.deck.parse
        hand = engine.position(Position(players=2, to_play=0, dealer=1, table=[card("5S")],
                                        hands={0: [card("5H"), card("9C")], 1: [card("KD"), card("2S")]}))
        t.session.game = t.session.game.with_(hand=hand)
        with s.seat(table, 0) as me, s.seat(table, None) as watcher:
            me.until(lambda m: m["type"] == "state")
            me.move("5H capture 5S")
            mine = me.until(lambda m: m["type"] == "state" and m["ply"] == 1)
            seen = watcher.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    said = "a sweep (tabbe), a penalty of 5 points against seat 0 (you); -5 to seat 1 (greedy), the player before"
    assert mine["log"] == [{"seat": 0, "text": "5H capture 5S", "said": said}]
    assert mine["seats"][0]["last_said"] == said and mine["seats"][1]["last_said"] == ""
    assert seen["log"][-1]["said"] == said.replace("seat 0 (you)", "seat 0 (a person)")


# ---------------------------------------------------------------- what a deal does
def test_six_at_krypkasino_are_shown_the_last_deals_four_cards_as_it_is_dealt(tmp_path: Path) -> None:
    """104 - 4 cards deal out to six in four deals of 24 and four cards over, laid on the table with the last
    deal: said in the log where the deal begins (and so in the hand's end), in the terminal's words, naming the
    four cards on the table; nothing said at the deals before."""
    with serving(tmp_path / "records") as s:
        table = upload(s, "krypkasino", 1, ("human",) + ("greedy",) * 5)
        with s.seat(table, 0) as me:
            end = me.play_out(capture_first, hands=1, timeout=240)
            me.ping()
    states = [m for m in received(me) if m["type"] == "state" and m["hand_no"] == 1]
    earlier = [m for m in states if m["deal_no"] < 4]
    assert earlier and not any(e["seat"] is None for m in earlier for e in m["log"])
    fourth = next(m for m in states if m["deal_no"] == 4)
    (note,) = [e for e in fourth["log"] if e["seat"] is None]
    assert note["deal"] == 4 and note["text"].startswith(LEFT_OVER)
    laid = note["text"][len(LEFT_OVER):].split()
    assert len(laid) == 4 and set(laid) <= set(fourth["loose"])
    assert len(turns(fourth["log"][:fourth["log"].index(note)])) == 72   # (where the deal began: after 3 x 24 turns)
    assert [e for e in end["log"] if e["seat"] is None] == [note] and end["log"].index(note) == 72
    assert all(note in m["log"] for m in states if m["deal_no"] == 4)


def test_a_table_taken_in_at_the_last_deal_says_it_as_well(tmp_path: Path) -> None:
    """A game resumed (an upload, a restart, an undo: the hand's log read from the record) says the deal's words
    as the game played on would have: a record left as the fourth deal began."""
    with serving(tmp_path / "records") as s:
        table = upload(s, "krypkasino", 1, ("human",) * 6, actions=72)
        game = s.store.get(table["id"]).session.game
        assert (game.hand_no, game.hand.deal_no, game.hand.ply) == (1, 4, 72)
        with s.seat(table, 0) as me:
            state = me.until(lambda m: m["type"] == "state")
    notes = [e for e in state["log"] if e["seat"] is None]
    assert [n["deal"] for n in notes] == [4] and notes[0]["text"].startswith(LEFT_OVER)
    assert set(notes[0]["text"][len(LEFT_OVER):].split()) <= set(state["loose"])
    assert deal_words(game, named) == [notes[0]["text"]]


def test_escobas_dealer_taking_the_table_at_the_deal_is_said(tmp_path: Path) -> None:
    """The table dealt makes 15: the dealer takes it at once, a sweep; the terminal says so under the deal's
    banner, and the browser's log says it first, naming the dealer as the browser does."""
    with serving(tmp_path / "records") as s:
        table = upload(s, "escoba", 46, ("human", "human"))
        first = s.store.get(table["id"]).record.new_game()
        with s.seat(table, 1) as me:
            state = me.until(lambda m: m["type"] == "state")
    said = deal_words(first, lambda seat: "seat 1 (you)" if seat == 1 else f"seat {seat} (a person)")
    assert len(said) == 1 and "the cards dealt to the table made 15: the dealer, seat " in said[0]
    assert state["hand_no"] == 1 and state["log"][0] == {"seat": None, "deal": 1, "text": said[0]}


# ---------------------------------------------------------------- claims
def test_a_computers_claim_is_said_in_its_log_line_and_whether_it_was_right(tmp_path: Path) -> None:
    """Hungarian Casino, seed 3 against greedy (the terminal's test: tests/test_play_royal_family.py): the
    computer claims the game in its second hand, and the claim's line in the log says it in the terminal's words
    (``said.claim_words``), for the player as "seat 1 (greedy)", for a watcher too, and beside the seat's last
    turn; a game taken in again (the hand's log read from the record) says it as well. A player's audit saw the
    game end with no word of the claim; the line names the seat once, before what it claimed (it read "seat 1:
    claims the game: seat 1 claims ...")."""
    with serving(tmp_path / "records") as s:
        table = upload(s, "hungarian", 3, ("human", "greedy"))
        with s.seat(table, 0) as me, s.seat(table, None) as watcher:
            last = me.play_out(timeout=240)
            me.ping()
            seen = watcher.until(lambda m: m["type"] == "state" and m["over"], timeout=60)
        record = load_record(s.store.get(table["id"]).session.save_path)
        claimed = "claims to have reached 11 points"
        verdict = "right, with 11 counting this hand so far, and wins the game"
        assert last["over"] and last["outcome"].endswith("seat 1 wins (claim)"), last["outcome"]
        assert last["log"][-1] == {"seat": 1, "text": claimed, "said": verdict}
        assert line(last["log"][-1], last) == f"seat 1 (greedy): {claimed}: {verdict}"
        assert line(last["log"][-1], last).count("seat 1") == 1   # (not "seat 1: claims the game: seat 1 ...")
        assert (last["seats"][1]["last"], last["seats"][1]["last_said"]) == (claimed, verdict)
        assert line(seen["log"][-1], seen) == f"seat 1 (greedy): {claimed}: {verdict}"
        # (the same words as the terminal's, worked out from the record's last action)
        assert record.actions[-1] == "claim 1"
        claims: list[tuple[Game, Game]] = []
        replay(record, each=lambda before, action, after: claims.append((before, after))
               if action.startswith("claim") else None)
        ((before, after),) = claims
        assert claim_words(before, after, 1, named) == f"seat 1 (greedy) {claimed}: {verdict}"
        # Taken in again: the hand's log read from the record says the claim too.
        log_, told, _ = replayed_log(record)
        assert log_view(log_, False, told, named)[-1] == {"seat": 1, "text": claimed, "said": verdict}


def test_a_persons_false_claim_is_said_as_each_viewer_names_the_seats(tmp_path: Path) -> None:
    """A claim made with the claim button at the game's first move is false: it loses the game, and the log says
    so, to the claimant of "seat 0 (you)", to a watcher of "seat 0 (a person)"."""
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"], variant="hungarian")
        with s.seat(table, 0) as me, s.seat(table, None) as watcher:
            me.my_turn()
            me.send({"type": "claim"})
            mine = me.until(lambda m: m["type"] == "state" and m["over"])
            seen = watcher.until(lambda m: m["type"] == "state" and m["over"])
    said = line(mine["log"][-1], mine)
    assert said.startswith("seat 0 (you): claims to have reached 11 points: a false claim"), said
    assert said.endswith("so seat 1 (greedy) wins the game"), said
    assert said.count("seat 0") == 1, said
    assert line(seen["log"][-1], seen) == said.replace("seat 0 (you)", "seat 0 (a person)")


def test_a_person_may_claim_before_the_computers_reply(tmp_path: Path) -> None:
    """A player's audit of Hungarian: a claim waited for the person's turn, so a capture reaching 11 followed by the
    computer's reply reaching it too let the computer claim first. A claim is taken at any time: here, in the
    computer's pause after the person's move (a false claim at the first move, which ends the game at once)."""
    with serving(tmp_path / "records", pace=5.0) as s:
        # (a seed of the test's, one where the computer is to move after the person: a new table's seed is drawn, and
        # where the computer's first capture plays its whole hand the person plays on alone, as in seeds 3, 5 and 6;
        # CI's run of session 90 drew one such)
        table = upload(s, "hungarian", 4, ("human", "greedy"))
        with s.seat(table, 0) as me:
            state = me.my_turn()
            assert state["can"]["claim"]
            me.send({"type": "move", "text": state["moves"][0]["text"]})
            waiting = me.until(lambda m: m["type"] == "state" and m["turn"] == 1)
            assert waiting["can"]["claim"] and not waiting["over"]
            me.send({"type": "claim"})
            over = me.until(lambda m: m["type"] == "state" and m["over"], timeout=4)
    said = line(over["log"][-1], over)
    assert said.startswith("seat 0 (you): claims to have reached 11 points: a false claim"), said
    assert over["log"][:-1] == waiting["log"] and waiting["log"][-1]["seat"] == 0   # (no reply between move and claim)


# ---------------------------------------------------------------- moves that cannot be read
def test_a_move_that_cannot_be_read_is_answered_with_this_games_examples(tmp_path: Path) -> None:
    """Scopa has no building and no 8: "e.g. `8D capture 8C`, `3H build 8 on 5S`" named neither truly."""
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"], variant="scopa")
        with s.seat(table, 0) as me:
            state = me.my_turn()
            card = state["hand"][0]
            answers = []
            for text in (f"{card} capture", f"{card} capture {state['loose'][0]}!", f"{card} capture [",
                         f"{card} capture x"):
                me.send({"type": "move", "text": text})
                answers.append(me.until(lambda m: m["type"] == "refused")["message"])
    assert answers[0] == "the move ends too soon: after `capture` name the cards it takes, e.g. `QS capture 4D 5H`"
    assert answers[1] == "unexpected '!': a move is CARD ACTION, e.g. `QS capture 4D 5H`, `KH trail`"
    assert answers[2].startswith("there is no building here: a move names the cards it takes alone")
    assert answers[3] == "`x`: a card is expected here, e.g. `5H`"
    for answer in answers:
        assert "build " not in answer and "8" not in answer and "[4D" not in answer, answer

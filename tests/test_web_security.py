"""What a browser can learn and do: only its own seat's cards, only its own moves, nothing by malformed messages.

Every message the server sends goes through ``Table.post`` with the position it
describes; the tests watch that door and check each message a client received
against the cards hidden from that client in that position (the other hands,
partners' included, and the stock). A property test shuffles the hidden cards of
random positions and checks that a seat's view, hint and refusals do not change.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import shutil
import time
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest

pytest.importorskip("starlette")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from cassino.apps.game.records import Record  # noqa: E402
from cassino.apps.game.session import GameSession  # noqa: E402
from cassino.apps.web.protocol import FIELDS, ProtocolError, parse_request  # noqa: E402
from cassino.apps.web.tables import Client, Table, encode, snapshot, warnings_answer, why_answer  # noqa: E402
from cassino.apps.web.thinking import hint_answer  # noqa: E402
from cassino.apps.web.thinking import Thinkers, Writers  # noqa: E402
from cassino.apps.web.views import card_words  # noqa: E402
from cassino.engine.core import bits  # noqa: E402
from cassino.engine.notation import format_move  # noqa: E402
from cassino.engine.state import HandState  # noqa: E402
from cassino.language.cards import Deck  # noqa: E402
from cassino.language.variants import load_rules  # noqa: E402
from cassino.players.bots import make_bot  # noqa: E402

from web_helpers import SeatClient, serve_process, serving  # noqa: E402


def hidden_from(seat: int | None, position: HandState) -> int:
    """The cards ``seat`` may not see in ``position`` (a watcher: every hand)."""
    mask = 0
    for s in range(position.players):
        if s != seat:
            mask |= position.hands[s]
    for i in position.stock:
        mask |= 1 << i
    return mask


def named(text: str, deck: Deck, mask: int) -> list[str]:
    """The cards of ``mask`` that ``text`` names, as `9D` or as `9♦`."""
    found = []
    for i in bits(mask):
        name = str(deck.cards[i])
        for form in {name, card_words(deck, name)}:
            if re.search(rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])", text):
                found.append(form)
    return found


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int | None, str, int, Deck]]:
    """Every message posted: (seat, text, cards hidden from that seat in the position it describes, deck)."""
    posted: list[tuple[int | None, str, int, Deck]] = []
    original = Table.post

    def spy(self: Table, client: Client, message: dict[str, Any], about: HandState | None) -> None:
        position = about if about is not None else self.session.game.hand
        posted.append((client.seat, encode(message), hidden_from(client.seat, position), self.session.game.engine.deck))
        original(self, client, message, about)

    monkeypatch.setattr(Table, "post", spy)
    return posted


def check_received(client: SeatClient, seat: int | None, posted: list[tuple[int | None, str, int, Deck]]) -> int:
    """Each message ``client`` received was posted for its seat and names no card hidden from it."""
    checked = 0
    for text in client.received:
        matches = [(h, d) for s, t, h, d in posted if s == seat and t == text]
        assert matches, f"a message reached seat {seat} without going through Table.post: {text[:200]}"
        for hidden, deck in matches:
            assert not named(text, deck, hidden), (seat, named(text, deck, hidden), text[:300])
        checked += 1
    return checked


def test_no_message_to_a_player_or_watcher_names_a_hidden_card(tmp_path: Path, spied: list) -> None:  # type: ignore[type-arg]
    rng = random.Random(5)
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"])
        with s.seat(table, 0) as me, s.seat(table, None) as watcher:
            state = me.my_turn()
            # Every kind of answer: a hint, a refusal, a why, an error, an undo.
            me.send({"type": "hint"})
            me.until(lambda m: m["type"] == "hint")
            me.send({"type": "move", "text": f"{state['hand'][0]} build 99 on {state['hand'][-1]}"})
            me.until(lambda m: m["type"] == "refused")
            me.send({"type": "why", "played": state["hand"][:1], "items": state["loose"]})
            # (refused, unless the deal lets that card take every loose card: the table's seed is drawn at random)
            me.until(lambda m: m["type"] in ("refused", "found"))
            me.send({"type": "claim", "extra": 1})
            me.until(lambda m: m["type"] == "error")
            me.move(state["moves"][0]["text"])
            me.my_turn()
            me.send({"type": "undo"})
            me.until(lambda m: m["type"] == "info")
            me.moved_at = None
            final = me.play_out(choose=lambda st_: rng.choice(st_["moves"])["text"])
            assert final["over"]
            watcher.until(lambda m: m["type"] == "state" and m["over"])
            status, body, _ = s.get(f"/api/tables/{table['id']}")
            assert status == 200
        kinds = {json.loads(t)["type"] for t in me.received}
        assert {"welcome", "state", "hand_end", "hint", "refused", "error", "info"} <= kinds
        assert check_received(me, 0, spied) > 50
        assert check_received(watcher, None, spied) > 50
        assert all(json.loads(t).get("hand", []) == [] for t in watcher.received)


def test_the_counting_aid_and_warnings_name_no_hidden_card_but_as_not_seen(tmp_path: Path, spied: list) -> None:  # type: ignore[type-arg]
    """The count lists every scoring card of the variant wherever it is; a card hidden from the seat is only ever
    "not seen yet" there. A warning names the unseen cards that could take what it leaves (all of them, wherever
    they are). No other part of any message names a hidden card."""
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"], variant="hoyle-each-hand", kind="example")
        with s.seat(table, 0) as me:
            state = me.my_turn()
            me.send({"type": "count", "on": True})
            state = me.until(lambda m: m["type"] == "state")
            while not state["over"]:
                for offered in state["moves"][:6]:
                    me.send({"type": "warn", "text": offered["text"]})
                    me.until(lambda m: m["type"] == "warnings")
                me.move(state["moves"][-1]["text"])
                state = me.my_turn()
        counts = warned = 0
        for text in me.received:
            message = json.loads(text)
            matches = [(h, d) for seat, t, h, d in spied if seat == 0 and t == text]
            assert matches, text[:200]
            hidden, deck = matches[0]
            if "count" in message:
                counts += 1
                for card in message["count"]["scoring_cards"]:
                    if named(card["card"], deck, hidden):
                        assert card["where"] == "not seen yet" and card["side"] is None, card
                message["count"]["scoring_cards"] = []
            for warning in message.get("warnings", []):
                # "seat 1 may hold one of ...": every card the seat has not seen that could do it, wherever it
                # is (the property test above shows the list does not depend on where hidden cards are).
                warned += 1
                assert len(named(" ".join(warning["takers"]), deck, hidden)) == len(warning["takers"]), warning
                assert not named(" ".join(warning["cards"]), deck, hidden), warning
                warning["takers"], warning["text"] = [], warning["text"].split(" may ")[0]
            assert not named(json.dumps(message, ensure_ascii=False), deck, hidden), text[:300]
        assert counts >= 24 and warned >= 1


def test_the_tutorials_lessons_are_the_rulebooks_sentences_about_moves_already_shown(tmp_path: Path, spied: list) -> None:  # type: ignore[type-arg]
    """A lesson is a rulebook clause, word for word, and the action it explains, sent after the state that shows
    that action: beyond the rulebook's own words it names no card hidden from the seat."""
    from cassino.language.rulebook import rulebook

    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"])
        clauses = {key: c.text for key, c in rulebook(load_rules("standard")).clauses().items()}
        with s.seat(table, 0) as me:
            me.until(lambda m: m["type"] == "state")
            me.send({"type": "tutorial", "on": True})
            assert me.play_out(hands=1)["type"] == "hand_end"
            me.ping()
        shown: list[str] = []       # the actions this seat has been shown so far
        lessons = 0
        for text in me.received:
            message = json.loads(text)
            shown += [entry["text"] for entry in message.get("log", [])]
            if message["type"] != "lessons":
                continue
            assert message["move"] is None or message["move"] in shown, message
            for lesson in message["lessons"]:
                assert lesson["text"] == clauses[lesson["key"]]
                lesson["text"] = ""
                lessons += 1
            for seat, posted, hidden, deck in spied:
                if seat == 0 and posted == text:
                    assert not named(json.dumps(message, ensure_ascii=False), deck, hidden), message
        assert lessons >= 5
        assert check_received(me, 0, spied) > 20


def test_partners_do_not_see_each_others_hands(tmp_path: Path, spied: list) -> None:  # type: ignore[type-arg]
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "random", "human", "greedy"], partners=True)
        with s.seat(table, 0) as a, s.seat(table, 2) as c:
            # Both partners play out the first hand; each checks what it received.
            import threading

            results: dict[int, Any] = {}

            def run(client: SeatClient, seat: int) -> None:
                results[seat] = client.play_out(hands=1)

            threads = [threading.Thread(target=run, args=(a, 0)), threading.Thread(target=run, args=(c, 2))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            assert results[0]["type"] == results[2]["type"] == "hand_end"
            mid = [json.loads(t) for t in a.received if json.loads(t)["type"] == "state"]
            assert all(len(m["hand"]) <= 4 for m in mid)
        assert check_received(a, 0, spied) > 20
        assert check_received(c, 2, spied) > 20


def test_http_answers_and_pages_show_no_card_while_a_game_is_on(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        first = s.new_table(["human", "greedy"])
        second = s.new_table(["human", "greedy"], variant="royal")
        t = s.store.get(first["id"])
        deck = t.session.game.engine.deck
        everything_hidden = hidden_from(None, t.session.game.hand)
        status, body, _ = s.get(f"/api/tables/{first['id']}")
        assert status == 200 and not named(body.decode(), deck, everything_hidden)
        assert s.get(f"/records/{first['id']}.json")[0] == 403
        # The seed (which deals every card) is in no answer either.
        assert str(t.record.seed) not in body.decode()
        # Pages and scripts are the same for every table: they cannot carry a game's cards.
        for path in ("/table/{}", "/static/table.js", "/static/cards.js", "/static/table.html", "/"):
            a = s.get(path.format(first["id"]))
            b = s.get(path.format(second["id"]))
            assert a[0] == b[0] == 200 and a[1] == b[1], path


# ---------------------------------------------------------------------- non-interference
def _shuffle_hidden(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same position for ``seat``, every card it cannot see dealt anew among the other hands and the stock."""
    pool = list(bits(hidden_from(seat, state)))
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in range(state.players):
        if s != seat:
            size = bin(state.hands[s]).count("1")
            hands[s] = sum(1 << i for i in pool[:size])
            pool = pool[size:]
    return state.with_(hands=tuple(hands), stock=tuple(pool))


def _answers(table: Table, seat: int) -> list[str]:
    """Everything the seat to play would be told: its view (with the counting aid on), a hint, why a wrong
    capture is refused, the warnings before each of its moves (each worked out as the server's threads do)."""
    game = table.session.game
    out = [encode(table.view(seat)), encode(table.view(None)), encode(table.view(seat, counting=True))]
    assert "count" in json.loads(out[-1])
    if game.hand.turn == seat and not game.over:
        out.append(encode(hint_answer(snapshot(table.session), seat)))
        hand = game.hand.hands[seat]
        card = str(game.engine.deck.cards[min(bits(hand))])
        loose = [str(game.engine.deck.cards[i]) for i in bits(game.hand.table)]
        out.append(encode(why_answer(game, [card], loose)))
        for move in game.legal_moves()[:12]:
            out.append(encode(warnings_answer(snapshot(table.session), format_move(move, game.engine.deck))))
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["standard", "royal", "dominican", "tuxedo", "draw"]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 30), shuffle_seed=st.integers(0, 10**6))
def test_a_seats_view_does_not_depend_on_cards_it_cannot_see(tmp_path_factory: Any, variant: str, seed: int,
                                                             plies: int, shuffle_seed: int) -> None:
    rules = load_rules(variant)
    players = rules.seats.min_players
    record = Record(rules, seed, players, False, ["human"] + ["random"] * (players - 1), source=variant)
    session = GameSession.open(record, tmp_path_factory.mktemp("r") / "g.json")
    bot = make_bot("random", seed)
    for _ in range(plies):
        if session.game.over:
            break
        session.game = session.game.play(bot.choose(session.game, session.game.hand.turn))
    table = Table("0123456789ab", session, {0: "t"}, "w", 0.0, Thinkers(1), Writers())
    seat = session.game.hand.turn if not session.game.over else 0
    table.session.record.seats = ["human" if k == seat else "random" for k in range(players)]
    before = _answers(table, seat)
    # The hidden cards dealt anew in the hand and in every position of its log, which the computer's
    # hint reads the others' moves from (their public part only).
    rng = random.Random(shuffle_seed)
    log = None
    for position, move in session.game.moves_this_hand():
        log = (log, _shuffle_hidden(position, seat, rng), move)
    session.game = session.game.with_(hand=_shuffle_hidden(session.game.hand, seat, rng), log=log)
    assert _answers(table, seat) == before


# ---------------------------------------------------------------------- malformed messages
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                     max_leaves=10)
MESSAGES = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200),
    _json.map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from([*FIELDS, "evil", ""])},
                          optional={"text": _json, "token": _json, "played": _json, "items": _json, "on": _json,
                                    "extra": _json}).map(json.dumps),
    st.integers(4000, 20_000).map(lambda n: json.dumps({"type": "move", "text": "9D capture " + "9C " * n})),
    st.sampled_from(['{"type": "move", "text": "\\ud800"}', '[' * 5000, '{"type": "hello", "token": "x"}',
                     '{"type": "move", "text": "AS trail", "type": "undo"}']),
)


def test_malformed_messages_never_move_the_table_or_break_the_server(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "human"])
        t = s.store.get(table["id"])
        to_play = t.session.game.hand.turn
        waiting = 1 - to_play
        with s.seat(table, waiting) as other, s.seat(table, to_play) as mover:
            other.until(lambda m: m["type"] == "state")
            mover.until(lambda m: m["type"] == "state")
            saved = t.session.save_path.read_bytes()
            sent: list[str | bytes] = []

            @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
            @given(message=MESSAGES)
            def from_the_seat_not_to_play(message: str | bytes) -> None:
                # Whatever it is, valid or not, the seat not to play cannot change the table.
                other.send(message)
                sent.append(message)
                other.ping()
                assert t.record.actions == [] and t.session.save_path.read_bytes() == saved

            @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
            @given(message=MESSAGES)
            def malformed_from_the_seat_to_play(message: str | bytes) -> None:
                try:
                    parse_request(message)
                except ProtocolError:
                    pass
                else:
                    return          # a well-formed request: not this test's subject
                mover.send(message)
                sent.append(message)
                mover.ping()
                assert t.record.actions == [] and t.session.save_path.read_bytes() == saved

            from_the_seat_not_to_play()
            malformed_from_the_seat_to_play()
            assert len(sent) >= 30
            # Both seats still play: the table was never disturbed.
            state = mover.state
            assert state is not None and state["turn"] == to_play
            mover.move(state["moves"][0]["text"])
            assert other.my_turn()["turn"] == waiting
            assert len(t.record.actions) == 1


def test_a_frame_too_large_closes_that_connection_only(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"])
        t = s.store.get(table["id"])
        with s.seat(table, 0) as me, s.seat(table, None) as watcher:
            me.my_turn()
            actions = list(t.record.actions)
            me.send("x" * 200_000)
            with pytest.raises(Exception):
                for _ in range(20):
                    me.recv(5)
            watcher.ping()
            assert t.record.actions == actions
        with s.seat(table, 0) as again:            # the seat is still there: reconnect and play on
            state = again.my_turn()
            again.move(state["moves"][0]["text"])
            again.my_turn()
            assert len(t.record.actions) == len(actions) + 2


# ---------------------------------------------------------------------- DNS rebinding: the Host header
def _raw_get(url: str, path: str, host: str, upgrade: bool = False) -> tuple[int, str]:
    """An HTTP request with exactly this Host header (as a rebound page's browser sends it): status, body."""
    import socket

    port = int(url.rsplit(":", 1)[1])
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", f"Origin: http://{host}", "Connection: close"]
    if upgrade:
        lines[-1] = "Connection: Upgrade"
        lines += ["Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="]
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while not (upgrade and b"\r\n\r\n" in data):      # to the end (Connection: close) or the upgrade's head
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.decode("utf-8", "replace").partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_a_rebound_host_name_is_refused_on_every_route_and_the_websocket(tmp_path: Path) -> None:
    with serving(tmp_path / "records", allow_hosts=("mybox.lan",)) as s:
        port = s.url.rsplit(":", 1)[1]
        table = s.new_table(["human", "greedy"])
        evil = f"rebind.evil:{port}"
        for path in ("/", "/api/choices", f"/table/{table['id']}", f"/api/tables/{table['id']}", "/static/lobby.js",
                     f"/rules/{table['id']}"):
            status, body = _raw_get(s.url, path, evil)
            assert status == 421 and "does not answer as 'rebind.evil:" in body and "--allow-host" in body, path
        body = json.dumps({"rules": {"kind": "bundled", "name": "standard"}, "players": 2,
                           "seats": ["human", "greedy"], "you": 0}).encode()
        request = Request(s.url + "/api/tables", data=body, method="POST",
                          headers={"content-type": "application/json", "Host": evil, "Origin": f"http://{evil}"})
        with pytest.raises(HTTPError) as refused:
            urlopen(request, timeout=20)
        assert refused.value.code == 421 and b"does not answer as" in refused.value.read()
        status, _ = _raw_get(s.url, f"/ws/{table['id']}", evil, upgrade=True)
        assert status == 403
        # The right name with the wrong port, or a name alone, is another server's.
        assert _raw_get(s.url, "/api/choices", "127.0.0.1:1")[0] == 421
        assert _raw_get(s.url, "/api/choices", "localhost")[0] == 421
        # The names it listens as, and one added with --allow-host, are answered.
        for good in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", f"MyBox.lan:{port}"):
            assert _raw_get(s.url, "/api/choices", good)[0] == 200, good
        assert _raw_get(s.url, f"/ws/{table['id']}", f"localhost:{port}", upgrade=True)[0] == 101
    assert len(list((tmp_path / "records").glob("*.json"))) == 1


# ---------------------------------------------------------------------- flooding: tables per client and in all
def _open(s: Any, seats: list[str], you: int | None = None) -> tuple[int, Any]:
    return s.post("/api/tables", {"rules": {"kind": "bundled", "name": "standard"}, "players": len(seats),
                                  "seats": seats, "you": you})


def test_tables_are_limited_per_client_and_in_all_and_finished_games_free_a_place(tmp_path: Path) -> None:
    """A finished game counts until its table is closed (``finished_seconds`` after its end, when no page is
    open): then its place is free."""
    from cassino.apps.web.policy import Limits
    from conftest import record_text

    with serving(tmp_path / "records", limits=Limits(max_tables=3, tables_per_client=2, finished_seconds=0.5)) as s:
        assert s.get("/api/choices")[1] and json.loads(s.get("/api/choices")[1])["limits"] == {
            "max_tables": 3, "tables_per_client": 2, "bot_deals": 2000, "bot_seconds": 10.0,
            "connections_per_table": 32, "connections_per_client": 64, "uploads_per_minute": 30}
        assert _open(s, ["human", "greedy"], 0)[0] == 200
        quick, _ = _open(s, ["random", "random"])           # plays itself to the end
        assert quick == 200
        status, answer = _open(s, ["human", "greedy"], 0)
        assert status == 429 and "you have 2 tables in play" in answer["message"]
        status, answer = s.post("/api/records", {"text": record_text("standard", seed=3, actions=2),
                                                 "filename": "mine.json"})
        assert status == 429 and "you have 2 tables in play" in answer["message"]
        assert len(list((tmp_path / "records").glob("*.json"))) == 2     # nothing written for the refusals
        deadline = time.monotonic() + 60
        while s.store.open_tables() > 1:          # the computer players finish their game, and its table is closed
            assert time.monotonic() < deadline, "the computer players' game did not end"
            time.sleep(0.05)
        assert _open(s, ["human", "greedy"], 0)[0] == 200
        s.store.opened_by.clear()                              # as if another computer asked
        assert _open(s, ["human", "greedy"], 0)[0] == 200
        status, answer = _open(s, ["human", "greedy"], 0)
        assert status == 429 and "3 tables in play, its limit" in answer["message"]
    assert len(list((tmp_path / "records").glob("*.json"))) == 4


# ---------------------------------------------------------------------- computer players' budgets
@pytest.mark.parametrize("kind, says", [
    ("search:1000000000", "at most 2,000 deals a move (search:2000) on this server"),
    ("search:2001", "at most 2,000 deals a move"),
    ("search:11s", "at most 10 seconds a move (search:10s) on this server"),
    ("search:1e9s", "at most 10 seconds a move"),
    ("search:-5", "bad search budget"),
    ("deep-blue", "no computer player named 'deep-blue'; choose from random, greedy, search, search:N (N deals a "
                  "move, 1 to 2,000)"),
])
def test_a_search_budget_beyond_the_servers_bound_is_refused_wherever_a_seat_is_chosen(
        tmp_path: Path, kind: str, says: str) -> None:
    from conftest import record_text

    text = json.loads(record_text("standard", seed=3, actions=2))
    text["seats"] = ["human", kind]
    with serving(tmp_path / "records") as s:
        status, answer = _open(s, ["human", kind], 0)
        assert status == 400 and says in answer["message"], answer
        status, answer = s.post("/api/records", {"text": json.dumps(text), "filename": "g.json"})
        assert status == 400 and answer["message"].startswith("g.json: ") and says in answer["message"], answer
        assert _open(s, ["human", "search:2000"], 0)[0] == 200 and _open(s, ["human", "search:10s"], 0)[0] == 200
    assert len(list((tmp_path / "records").glob("*.json"))) == 2


def test_a_record_in_the_folder_with_a_larger_budget_is_skipped_in_words(tmp_path: Path) -> None:
    from conftest import record_text

    folder = tmp_path / "records"
    folder.mkdir()
    data = json.loads(record_text("standard", seed=3, actions=2))
    data["seats"] = ["human", "search:5000"]
    (folder / "deep.json").write_text(json.dumps(data))
    with serving(folder) as s:
        assert not s.store.tables
        assert any("skipped deep.json" in m and "at most 2,000 deals" in m for m in s.messages), s.messages
    assert json.loads((folder / "deep.json").read_text()) == data       # left as it was


# ====================================================================== bounded everywhere (issue 35)
# Each test below drives the server as a browser does (HTTP and the table's websocket), on a real
# server: in this process (``serving``) or as `cassino serve` itself (``serve_process``).
BIG_TABLE = """name: big-table
description: Escoba with three packs and a hundred cards dealt face up
extends: escoba
deck: {packs: 3}
seats: {max_players: 2}
deal: {table_cards: TABLE, hand_size: 10, dealer_takes_total: false}
"""


def _largest_deal(server: Any) -> str:
    """The issue's file (100 table cards) if the lobby takes it, else the largest deal it takes (the deck must
    still deal out: not every smaller deal is valid)."""
    for n in range(100, 0, -1):
        status, answer = server.post("/api/rules", {"rules": {"kind": "text", "text": BIG_TABLE.replace("TABLE", str(n)),
                                                              "filename": "big-table.yaml"}})
        assert status in (200, 400), (status, answer)        # a refusal in words, never a server error
        if status == 200:
            return BIG_TABLE.replace("TABLE", str(n))
    raise AssertionError("the lobby takes no deal of this file")


def _answered_meanwhile(server: Any, other: dict[str, Any]) -> None:
    """The lobby's pages answer, and a person at another table plays and is answered, each within seconds."""
    for path in ("/", "/api/choices", f"/api/tables/{other['id']}"):
        assert server.get(path, timeout=15)[0] == 200, path
    with SeatClient(server.url, other["id"], other["links"]["seats"]["0"].split("#")[1]) as me:
        for _ in range(3):
            state = me.my_turn(timeout=20)
            me.move(state["moves"][0]["text"])
        me.my_turn(timeout=20)


def test_a_table_too_large_to_list_freezes_neither_the_server_nor_its_stop_nor_its_restart(tmp_path: Path) -> None:
    """The issue's rule file (three packs, 100 cards dealt to the table), pasted in the lobby with seats
    human + greedy, greedy to lead, and again with the person to lead and the page open: every page of the
    lobby and another table's moves are answered meanwhile; SIGTERM ends the server at once; started again,
    the server resumes or refuses the table (and one more such record dropped into the folder), in words,
    and answers as before."""
    from conftest import ROOT

    records = tmp_path / "records"
    with serve_process(records, "--pace", "0", "--uploads-per-minute", "200") as server:
        text = _largest_deal(server)
        opened = []
        for seats, you in ((["human", "greedy"], 0), (["greedy", "human"], 1)):
            status, table = server.post("/api/tables", {"rules": {"kind": "text", "text": text,
                                                                  "filename": "big-table.yaml"},
                                                        "players": 2, "seats": seats, "you": you}, timeout=15)
            assert status == 200, table
            opened.append((table, you))
        status, other = server.post("/api/tables", {"rules": {"kind": "bundled", "name": "standard"}, "players": 2,
                                                    "seats": ["human", "greedy"], "you": 0})
        assert status == 200
        pages = [SeatClient(server.url, t["id"], t["links"]["seats"][str(you)].split("#")[1]) for t, you in opened]
        try:
            for page in pages:
                assert page.until(lambda m: m["type"] == "welcome", timeout=15)["seat"] in (0, 1)
            _answered_meanwhile(server, other)
        finally:
            for page in pages:
                page.close()
        took, code, err = server.stop()
    assert code == 0 and took < 15, (took, code, err[-2000:])
    assert "Traceback" not in err, err[-2000:]
    # Started again on the same folder, with the table written by an earlier server beside them.
    shutil.copy(ROOT / "tests" / "records" / "big-table.json", records / "big-table.json")
    with serve_process(records, "--pace", "0", start_within=30) as server:
        line = server.said("big-table.json")
        assert "took in big-table.json" in line or "skipped big-table.json" in line, line
        status, other = server.post("/api/tables", {"rules": {"kind": "bundled", "name": "standard"}, "players": 2,
                                                    "seats": ["human", "greedy"], "you": 0})
        assert status == 200
        table, you = opened[1]
        with SeatClient(server.url, table["id"], table["links"]["seats"][str(you)].split("#")[1]) as page:
            assert page.until(lambda m: m["type"] == "welcome", timeout=15)["seat"] == you
            _answered_meanwhile(server, other)
        took, code, err = server.stop()
    assert code == 0 and took < 15, (took, code, err[-2000:])
    assert "Traceback" not in err, err[-2000:]


def test_a_position_beyond_the_listing_budget_offers_some_moves_says_so_and_takes_any_legal_one(tmp_path: Path) -> None:
    """A position the engine refuses to list (71,076 captures, over a budget of 50,000: PositionTooLargeError):
    the person to play is offered a share of its moves for every hand card, told the list is not whole, and
    may still play any legal move, typed, or clicked card by card (the server finds the move the clicks make)."""
    from cassino.engine.core import Position

    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "human"])
        t = s.store.get(table["id"])
        engine = t.session.game.engine
        deck = engine.deck
        hand = engine.position(Position(players=2, hands={0: [deck.parse(c) for c in ("10S", "9H", "8C", "7D")],
                                                          1: [deck.parse(c) for c in ("KS", "KH", "KD", "KC")]},
                                        table=[deck.parse(f"{r}{u}") for r in "A234" for u in "SHDC"]))
        t.session.game = t.session.game.with_(hand=hand)       # the server is idle: nobody is to move but seat 0
        engine.move_budget = 50_000
        with s.seat(table, 0) as me, s.seat(table, None) as watcher:
            state = me.until(lambda m: m["type"] == "state")
            assert state["too_many"] and state["more_moves"] == 0 and state["failed"] is None and state["working"] is None
            assert {m["played"][0] for m in state["moves"]} == {"10S", "9H", "8C", "7D"}
            watcher.until(lambda m: m["type"] == "state")
            capture = next(m for m in state["moves"] if m["kind"] == "capture")
            me.send({"type": "why", "played": capture["played"], "items": capture["items"]})   # clicked, card by card
            found = me.until(lambda m: m["type"] in ("found", "refused"))
            assert found["type"] == "found" and found["move"]["text"] == capture["text"], found
            me.send({"type": "hint"})
            assert me.until(lambda m: m["type"] in ("hint", "error", "info"))["type"] == "hint"
            me.send({"type": "move", "text": "not a move"})
            assert "is not a move: write one such as" in me.until(lambda m: m["type"] == "refused")["message"]
            typed = "10S capture AC 2C 3C 4C"
            assert typed not in {m["text"] for m in state["moves"]}
            me.move(typed)                                 # checked alone, through the lazy walk
            after = watcher.until(lambda m: m["type"] == "state" and m["ply"] == 1)
            assert after["log"] == [{"seat": 0, "text": typed}]
        assert t.record.actions == [typed]


def test_work_longer_than_a_browser_waits_is_said_and_its_answer_follows(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser waits a bounded time for a table's work (here 0.02 s, against a listing of 71,076 captures):
    it gets the position at once, marked as being worked on, then the same position with its moves; the
    table answers meanwhile.

    The listing is made to take half a second more (a slow machine): the compiled engine keeps the GIL while
    it lists, so on a fast one its 40 ms could end before the event loop saw the browser's wait run out, and
    the moves would then (rightly) go out at once, leaving the path under test untried."""
    from cassino.apps.web import tables
    from cassino.apps.web.policy import Limits
    from cassino.engine.core import Position

    listing = tables.offered_moves

    def slow_listing(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.5)                                        # lets the GIL go, as a long pure-Python listing does
        return listing(*args, **kwargs)

    monkeypatch.setattr(tables, "offered_moves", slow_listing)
    with serving(tmp_path / "records", limits=Limits(wait_seconds=0.02)) as s:
        table = s.new_table(["human", "human"])
        t = s.store.get(table["id"])
        engine = t.session.game.engine
        deck = engine.deck
        hand = engine.position(Position(players=2, hands={0: [deck.parse(c) for c in ("10S", "9H", "8C", "7D")],
                                                          1: [deck.parse(c) for c in ("KS", "KH", "KD", "KC")]},
                                        table=[deck.parse(f"{r}{u}") for r in "A234" for u in "SHDC"]))
        t.session.game = t.session.game.with_(hand=hand)
        with s.seat(table, 0) as me:
            first = me.until(lambda m: m["type"] == "state")
            assert first["working"] and first["moves"] == [] and first["ply"] == 0, first["working"]
            me.ping()                                          # answered while the moves are worked out
            # (The answer may come before the pong, read while waiting for it: ``me.state`` is the last state.)
            later = me.state if me.state is not first else me.until(lambda m: m["type"] == "state")
            assert later["ply"] == 0 and later["working"] is None and 0 < len(later["moves"]) <= 600
            assert later["more_moves"] == 71076 - len(later["moves"])
        assert all(json.loads(m).get("fatal") is None for m in me.received)


def test_a_move_the_table_is_too_busy_to_take_is_refused_and_may_be_sent_again(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A move whose reading takes longer than a browser waits (a table busy with its last request) is not made.
    It was said as a note, so the page, which takes a second click on the move just sent for a double click, sent
    nothing when the person clicked it again; it is now refused in words that say so (the page lets a refused
    move be sent again), and sent again it is played. Found by the matrix's socket replay under load."""
    from cassino.apps.web import tables
    from cassino.apps.web.policy import Limits

    reading = tables.read_typed
    slow = [True]

    def slow_reading(snap: Any, text: str) -> list[str]:
        if slow[0]:
            time.sleep(0.5)
        return reading(snap, text)

    monkeypatch.setattr(tables, "read_typed", slow_reading)
    with serving(tmp_path / "records", limits=Limits(wait_seconds=0.05)) as s:
        table = s.new_table(["human", "human"])
        with s.seat(table, 0) as zero, s.seat(table, 1) as one:
            first = zero.until(lambda m: m["type"] == "state")
            me = (zero, one)[first["turn"]]
            state = me.my_turn()
            text = state["moves"][0]["text"]
            me.move(text)
            refused = me.until(lambda m: m["type"] in ("refused", "info", "error")
                               or m.get("ply", state["ply"]) != state["ply"])
            assert refused["type"] == "refused" and "your move was not made; send it again" in refused["message"]
            slow[0] = False
            me.move(text)
            after = me.until(lambda m: m["type"] == "state" and m["ply"] == state["ply"] + 1)
            assert after["turn"] != state["turn"] and after["failed"] is None


def test_undo_during_the_computers_pause_leaves_the_computer_playing(tmp_path: Path) -> None:
    """The lobby's default computer player (search) and a pause before its moves: a person who moves and
    takes the move back at once, inside the pause, can play on, and the computer answers every move."""
    pace = 0.3
    with serving(tmp_path / "records", pace=pace) as s:
        table = s.new_table(["human", "search"])
        with s.seat(table, 0) as me:
            state = me.my_turn()
            for _ in range(2):
                me.move(state["moves"][0]["text"])
                me.until(lambda m: m["type"] == "state" and m["ply"] == state["ply"] + 1)    # the move, shown
                me.send({"type": "undo"})                      # at once: well inside the computer's pause
                assert "took back" in me.until(lambda m: m["type"] in ("info", "error"))["message"]
                again = me.until(lambda m: m["type"] == "state" and m["ply"] == state["ply"])
                assert again["turn"] == 0 and again["failed"] is None
                time.sleep(3 * pace)                           # a person reads the table: the pause ends
                me.ping()
                assert all(json.loads(t).get("failed") is None for t in me.received), me.received[-2:]
                me.moved_at = None
                me.move(again["moves"][-1]["text"])
                answered = me.my_turn()                        # the computer has moved after it
                assert answered["ply"] == state["ply"] + 2 and answered["failed"] is None, answered
                state = answered
            assert all(json.loads(t).get("failed") is None for t in me.received)
        assert s.store.get(table["id"]).failed is None


# ---------------------------------------------------------------------- tables, files and uploads are counted
def test_a_finished_record_is_not_continued_and_every_table_counts(tmp_path: Path) -> None:
    from cassino.apps.web.policy import Limits
    from conftest import record_text

    with serving(tmp_path / "records", limits=Limits(max_tables=20, tables_per_client=3)) as s:
        finished = record_text("standard", seed=3)                 # a whole game
        for _ in range(3):
            status, answer = s.post("/api/records", {"text": finished, "filename": "done.json"})
            assert status == 400 and "over" in answer["message"], answer
        assert not s.store.tables
        quick, _ = _open(s, ["random", "random"])                  # plays itself to the end, and still counts
        assert quick == 200
        deadline = time.monotonic() + 60
        while not all(t.session.game.over for t in s.store.tables.values()):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        for k in range(2):
            status, answer = s.post("/api/records", {"text": record_text("standard", seed=k, actions=2),
                                                     "filename": "mine.json"})
            assert status == 200, answer
        status, answer = s.post("/api/records", {"text": record_text("standard", seed=9, actions=2),
                                                 "filename": "mine.json"})
        assert status == 429 and "you have 3 tables" in answer["message"], answer
    assert len(list((tmp_path / "records").glob("*.json"))) == 3


def test_a_finished_game_lets_go_of_its_record_and_its_table_is_closed_later(tmp_path: Path) -> None:
    from cassino.apps.web.policy import Limits

    with serving(tmp_path / "records", limits=Limits(finished_seconds=1.0)) as s:
        status, answer = _open(s, ["random", "random"])
        assert status == 200
        table = s.store.get(answer["id"])
        lock = table.session.save_path.parent / f".{table.session.save_path.name}.lock"
        assert lock.exists()                                       # held while the game goes on
        deadline = time.monotonic() + 60
        while not table.session.game.over:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        deadline = time.monotonic() + 10
        while lock.exists():                                       # let go once the game is over
            assert time.monotonic() < deadline, "a finished game still holds its record's lock file"
            time.sleep(0.05)
        assert s.get(f"/records/{answer['id']}.json")[0] == 200    # its record can still be downloaded
        deadline = time.monotonic() + 10
        while s.get(f"/api/tables/{answer['id']}")[0] != 404:       # and some time after, it is closed
            assert time.monotonic() < deadline, "a finished table was never closed"
            time.sleep(0.1)
        assert not s.store.tables
    assert len(list((tmp_path / "records").glob("*.json"))) == 1   # the record stays


def test_requests_that_upload_or_open_tables_are_limited_per_address_and_minute(tmp_path: Path) -> None:
    from cassino.apps.web.policy import Limits

    with serving(tmp_path / "records", limits=Limits(uploads_per_minute=4)) as s:
        rules = {"rules": {"kind": "text", "text": "name: mine\ndescription: ours\nextends: standard\n"}}
        for _ in range(4):
            assert s.post("/api/rules", rules)[0] == 200
        status, answer = s.post("/api/rules", rules)
        assert status == 429 and "4 a minute" in answer["message"], answer
        status, answer = _open(s, ["human", "greedy"], 0)
        assert status == 429 and "4 a minute" in answer["message"], answer
        assert s.get("/api/choices")[0] == 200                    # reading is not limited
    assert not list((tmp_path / "records").glob("*.json"))


def test_requests_from_a_page_of_another_site_do_not_use_up_the_allowance(tmp_path: Path) -> None:
    """A hostile page open in the user's browser posts to the server as often as it likes: each request is
    refused for its Origin (403) before it is counted, so the user's own pages keep their whole allowance."""
    from cassino.apps.web.policy import Limits

    rules = {"rules": {"kind": "text", "text": "name: mine\ndescription: ours\nextends: standard\n"}}
    table = {"rules": {"kind": "bundled", "name": "standard"}, "players": 2, "seats": ["human", "greedy"], "you": 0}
    record = {"text": "{}", "filename": "r.json"}
    with serving(tmp_path / "records", limits=Limits(uploads_per_minute=2)) as s:
        for origin in ("http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1.evil.example"):
            for path, body in (("/api/tables", table), ("/api/rules", rules), ("/api/records", record)) * 3:
                status, answer = s.post(path, body, headers={"origin": origin})
                assert status == 403 and "another site" in answer["message"], (origin, path, answer)
        assert s.store.tables == {} and not list((tmp_path / "records").glob("*.json"))
        own = {"origin": s.url}
        assert s.post("/api/rules", rules, headers=own)[0] == 200               # this server's own page
        assert _open(s, ["human", "greedy"], 0)[0] == 200                       # (no Origin: not a page)
        status, answer = s.post("/api/rules", rules, headers=own)
        assert status == 429 and "2 a minute" in answer["message"], answer


def test_a_restart_resumes_no_more_tables_than_the_limit(tmp_path: Path) -> None:
    from cassino.apps.web.policy import Limits
    from conftest import record_text

    records = tmp_path / "records"
    records.mkdir()
    for k in range(5):
        (records / f"game-{k}.json").write_text(record_text("standard", seed=k, actions=2))
    (records / "over.json").write_text(record_text("standard", seed=7))
    with serving(records, limits=Limits(max_tables=3, tables_per_client=3)) as s:
        assert len(s.store.tables) == 3
        assert all(not t.session.game.over for t in s.store.tables.values())
        said = "\n".join(s.messages)
        assert "the limit of 3 tables" in said and "over.json" in said, said
    assert len(list(records.glob("*.json"))) == 6                  # every record left in the folder


def test_the_server_fits_its_connections_to_the_open_file_limit(tmp_path: Path) -> None:
    """Each table in play holds a lock file and each connection a socket: started under `ulimit -n 512` with
    room for 200 tables, the server takes fewer connections than its default 1000, and says so; where even
    the tables do not fit, it does not start, and says why."""
    with serve_process(tmp_path / "records", "--max-tables", "200", rlimit_files=512) as server:
        line = server.said("connections:")
        assert "at most 184 connections" in line and "open-file limit (ulimit -n) of 512" in line, line
        took, code, err = server.stop()
    assert code == 0 and "Traceback" not in err, err[-2000:]
    import resource
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "cassino", "serve", "--port", "0", "--records",
                           str(tmp_path / "records"), "--max-tables", "500"], capture_output=True, text=True,
                          timeout=60, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512)))
    assert done.returncode == 2 and "open-file limit (ulimit -n) is 512: too low for 500 tables" in done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------------- forwarded headers
def test_forwarded_headers_are_trusted_only_when_the_operator_says_so(tmp_path: Path) -> None:
    """From loopback too: a client that writes X-Forwarded-For or Forwarded is still the address it connects
    from, unless the server was started with --proxy-headers (behind a proxy that sets them)."""
    from cassino.apps.web.policy import Limits

    body = {"rules": {"kind": "bundled", "name": "standard"}, "players": 2, "seats": ["human", "greedy"], "you": 0}
    with serving(tmp_path / "records", limits=Limits(tables_per_client=1)) as s:
        assert _open(s, ["human", "greedy"], 0)[0] == 200
        for k in range(1, 5):
            status, answer = s.post("/api/tables", body, headers={"X-Forwarded-For": f"203.0.113.{k}",
                                                                   "Forwarded": f"for=203.0.113.{k}"})
            assert status == 429 and "you have 1 tables" in answer["message"], (k, answer)
    with serving(tmp_path / "behind-a-proxy", limits=Limits(tables_per_client=1), proxy_headers=True) as s:
        assert _open(s, ["human", "greedy"], 0)[0] == 200
        assert s.post("/api/tables", body, headers={"X-Forwarded-For": "203.0.113.9"})[0] == 200


# ---------------------------------------------------------------------- what a message carries, and to whom
def _house(description: str = "ours", name: str = "house") -> dict[str, Any]:
    return {"kind": "text", "text": f"name: {name}\ndescription: {description}\nextends: standard\n",
            "filename": "house.yaml"}


def test_the_variants_words_go_once_per_connection_and_a_new_watcher_costs_the_others_nothing(tmp_path: Path) -> None:
    from cassino.apps.web.lobby import MAX_DESCRIPTION

    description = "d" * MAX_DESCRIPTION                          # as long as the lobby takes
    with serving(tmp_path / "records") as s:
        status, table = s.post("/api/tables", {"rules": _house(description), "players": 2,
                                               "seats": ["human", "human"], "you": 0})
        assert status == 200, table
        with s.seat(table, None) as first:
            first.until(lambda m: m["type"] == "state")
            first.ping()
            seen = len(first.received)
            joined = [s.seat(table, None) for _ in range(20)]
            try:
                for watcher in joined:
                    state = watcher.until(lambda m: m["type"] == "state")
                    assert watcher.welcome is not None and watcher.welcome["variant"]["description"] == description
                    assert description not in json.dumps(state)
            finally:
                for watcher in joined:
                    watcher.close()
            first.ping()
            after = [json.loads(t)["type"] for t in first.received[seen:]]
        assert after == ["pong"], after                          # 20 joined: nothing sent to the first watcher
        # Every state message is without the variant's words: the first watcher got them once.
        assert sum(description in t for t in first.received) == 1


@pytest.mark.parametrize("rules, says", [
    (_house(description="x" * 100_000), "description"),
    (_house(name="a" * 50), "name"),   # (the lobby's 40; past 64 the rule language refuses it first)
    # A reading is sentences, allowed up to 1,000 characters (the bundled ones are up to 461), and no longer.
    ({"kind": "text", "text": "name: long-reading\nextends: standard\ntrail: {with_build: false}\nreadings:\n"
      "  - setting: trail.with_build\n    reading: " + "y" * 1200 + "\n    source: here\n",
      "filename": "house.yaml"}, "for a reading"),
    # So is a source: where the rules come from, in words (the bundled ones name author, title and address:
    # Royal Casino's is 266 characters).
    ({"kind": "text", "text": "name: long-source\nextends: standard\nsource: " + "z" * 1200 + "\n",
      "filename": "house.yaml"}, "for a source"),
])
def test_a_long_name_or_description_is_refused_at_upload(tmp_path: Path, rules: dict[str, Any], says: str) -> None:
    with serving(tmp_path / "records") as s:
        for path, body in (("/api/rules", {"rules": rules}),
                           ("/api/tables", {"rules": rules, "players": 2, "seats": ["human", "greedy"], "you": 0})):
            status, answer = s.post(path, body)
            assert status == 400 and says in answer["message"] and "at most" in answer["message"], answer
            assert len(json.dumps(answer)) < 2000
    assert not list((tmp_path / "records").glob("*.json"))


def test_connections_are_limited_per_table_and_per_address(tmp_path: Path) -> None:
    from cassino.apps.web.policy import Limits

    with serving(tmp_path / "records", limits=Limits(connections_per_table=3, connections_per_client=5)) as s:
        first = s.new_table(["human", "human"])
        second = s.new_table(["human", "human"])
        held = [s.seat(first, k % 2) for k in range(3)]
        try:
            for c in held:
                c.until(lambda m: m["type"] == "state")
            refused = s.seat(first, None)
            msg = refused.until(lambda m: m["type"] == "error")
            assert msg["fatal"] and "3 connections" in msg["message"], msg
            refused.close()
            held += [s.seat(second, None), s.seat(second, None)]
            for c in held[3:]:
                c.until(lambda m: m["type"] == "state")
            refused = s.seat(second, 0)
            msg = refused.until(lambda m: m["type"] == "error")
            assert msg["fatal"] and "5 connections from your address" in msg["message"], msg
            refused.close()
        finally:
            for c in held:
                c.close()
        time.sleep(0.3)
        with s.seat(first, 0) as again:                           # a place freed is a place again
            again.until(lambda m: m["type"] == "state")


def test_a_new_table_request_with_a_field_it_does_not_have_is_refused(tmp_path: Path) -> None:
    """The websocket refuses a field it does not know; the request for a new table took one silently (an audit's
    find): a misspelt `partner: true` opened a table without partners."""
    with serving(tmp_path / "records") as s:
        body = {"rules": {"kind": "bundled", "name": "standard"}, "players": 4, "partner": True,
                "seats": ["human", "greedy", "greedy", "greedy"], "you": 0}
        status, answer = s.post("/api/tables", body)
        assert status == 400 and "a new table has no field `partner`" in json.dumps(answer), answer
        assert "partners" in json.dumps(answer)
        del body["partner"]
        assert s.post("/api/tables", body)[0] == 200


def test_a_page_that_stops_reading_is_told_why_it_is_closed() -> None:
    """A browser that reads none of its messages is dropped once ``OUTBOX`` wait; the close frame says why
    (code 1008), where it said nothing (an audit's flood of pings got code 1000 and no reason)."""
    from cassino.apps.web.server import _write
    from cassino.apps.web.tables import OUTBOX

    client = Client(seat=0)
    for k in range(OUTBOX + 1):
        client.send(f"message {k}")
    assert client.dropped and "did not read its messages" in client.closing

    class Socket:   # (the writer's side of a websocket: what it sends and how it closes)
        def __init__(self, fail: bool = False) -> None:
            self.sent: list[str] = []
            self.closed: tuple[int, str] | None = None
            self.fail = fail

        async def send_text(self, text: str) -> None:
            if self.fail:
                raise UnicodeEncodeError("utf-8", text, 0, 1, "surrogates not allowed")
            self.sent.append(text)

        async def close(self, code: int = 1000, reason: str = "") -> None:
            self.closed = (code, reason)

    socket = Socket()
    asyncio.run(_write(socket, client))  # type: ignore[arg-type]
    assert socket.closed is not None and socket.closed[0] == 1008 and "reload it to rejoin" in socket.closed[1]
    # A message that cannot be sent closes the connection (1011), so the page reconnects, not waits forever.
    other, broken = Client(seat=0), Socket(fail=True)
    other.send("x")
    asyncio.run(_write(broken, other))  # type: ignore[arg-type]
    assert broken.closed == (1011, "") and other.dropped


# ---------------------------------------------------------------------- uploads that are not what they say
_PATHS = re.compile(r"(?<![\w.])/(?:tmp|home|root|usr|work|var|private|Users)\b")


@pytest.mark.parametrize("text", [
    "name: x\ndescription: " + "[" * 1000 + "]" * 1000 + "\n",
    "[" * 5000 + "]" * 5000,
    "{a: " * 3000 + "1" + "}" * 3000,
    "name: nul\x00\n",
    "name: a\x01b\ndescription: x\nextends: standard\n",
    "name: del\x7f\n",
    'name: surro\ndescription: "a \\ud800 b"\nextends: standard\n',
], ids=["1000-levels", "5000-levels", "3000-mappings", "nul", "soh", "del", "lone-surrogate-escape"])
def test_any_pasted_text_gets_400_in_a_few_words_never_a_server_error(tmp_path: Path, text: str) -> None:
    with serving(tmp_path / "records") as s:
        for path, body in (("/api/rules", {"rules": {"kind": "text", "text": text, "filename": "deep.yaml"}}),
                           ("/api/tables", {"rules": {"kind": "text", "text": text, "filename": "deep.yaml"},
                                            "players": 2, "seats": ["human", "greedy"], "you": 0})):
            req = Request(s.url + path, data=json.dumps(body).encode(), method="POST",
                          headers={"content-type": "application/json"})
            try:
                with urlopen(req, timeout=30) as r:
                    status, raw = r.status, r.read()
            except HTTPError as e:
                status, raw = e.code, e.read()
            assert status == 400, (path, status, raw[:300])
            answer = json.loads(raw)
            shown = json.dumps(answer)
            assert len(shown) < 4000 and "Traceback" not in shown and not _PATHS.search(shown), shown[:500]
            assert answer["errors"][0]["text"].startswith("deep.yaml"), answer
        assert s.get("/api/choices")[0] == 200
    assert not list((tmp_path / "records").glob("*.json")) and not list((tmp_path / "records").glob(".cassino-*"))


def test_a_message_with_half_a_character_is_refused_and_the_connection_answers_on(tmp_path: Path) -> None:
    """An audit's find: `{"type": "warn", "text": "\\ud800"}` left the socket open and silent (no answer, not even
    to a ping), so the page never reconnected. Every text of a message is refused with half a character."""
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "human"])
        t = s.store.get(table["id"])
        with s.seat(table, t.session.game.hand.turn) as mover:
            mover.until(lambda m: m["type"] == "state")
            for raw in ('{"type":"warn","text":"\\ud800"}', '{"type":"move","text":"\\udfff trail"}',
                        '{"type":"ping","\\ud800":1}'):
                mover.send(raw)
                refused = mover.until(lambda m: m["type"] == "error")
                assert "half of a character" in refused["message"]
                mover.ping()
            assert t.record.actions == []
            state = mover.state
            assert state is not None
            mover.move(state["moves"][0]["text"])
            mover.until(lambda m: m["type"] == "state" and m["ply"] == 1)


def _break_record(path: Path) -> None:
    """The record's name taken by a folder: the next write of this table fails (as on a full or broken disk)."""
    path.unlink()
    path.mkdir()
    (path / "in-the-way").write_text("x")


def test_a_failed_write_and_a_stopped_computer_show_no_path_of_the_server(tmp_path: Path) -> None:
    records = tmp_path / "records"
    with serving(records, pace=0.6) as s:
        friends = s.new_table(["human", "human"])
        t = s.store.get(friends["id"])
        mover = t.session.game.hand.turn
        with s.seat(friends, mover) as me:
            state = me.until(lambda m: m["type"] == "state")
            _break_record(t.session.save_path)
            me.move(state["moves"][0]["text"])
            error = me.until(lambda m: m["type"] in ("error", "refused"))
            assert "not made" in error["message"] and str(records) not in error["message"], error
            assert not _PATHS.search(error["message"]), error
        vs_bot = s.new_table(["human", "greedy"])
        t = s.store.get(vs_bot["id"])
        with s.seat(vs_bot, 0) as me:
            state = me.my_turn()
            me.move(state["moves"][0]["text"])
            me.until(lambda m: m["type"] == "state" and m["ply"] == state["ply"] + 1)
            _break_record(t.session.save_path)                   # inside the computer's pause
            stopped = me.until(lambda m: m["type"] == "state" and m["failed"] is not None)
            assert "stopped" in stopped["failed"] and str(records) not in stopped["failed"], stopped["failed"]
            assert not _PATHS.search(stopped["failed"]), stopped["failed"]


def test_an_uploaded_record_is_bounded_and_never_echoed_back(tmp_path: Path) -> None:
    from cassino.apps.web.server import MAX_RECORD
    from conftest import record_text

    import http.client

    data = json.loads(record_text("standard", seed=3, actions=2))
    with serving(tmp_path / "records") as s:
        huge = dict(data, actions=data["actions"] + ["9D capture " + "9C " * 640_000])       # 1.9 MB
        body = json.dumps({"text": json.dumps(huge), "filename": "huge.json"}).encode()
        host, port = s.url.rsplit("/", 1)[1].split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=20)
        conn.putrequest("POST", "/api/records")
        conn.putheader("content-type", "application/json")
        conn.putheader("content-length", str(len(body)))
        conn.endheaders()
        try:
            conn.send(body)
        except (BrokenPipeError, ConnectionResetError):   # refused before it was read: the answer is there
            pass
        response = conn.getresponse()
        status, raw = response.status, response.read()
        conn.close()
        answer = json.loads(raw)
        assert status == 413 and f"{MAX_RECORD:,}" in answer["message"], str(answer)[:300]
        assert len(raw) < 1000
        long_move = "9D capture " + "9C " * ((MAX_RECORD - 20_000) // 3)                 # just under the bound
        bad = dict(data, actions=data["actions"] + [long_move])
        text = json.dumps(bad)
        assert len(text.encode()) <= MAX_RECORD
        status, answer = s.post("/api/records", {"text": text, "filename": "bad.json"})
        assert status == 400 and answer["message"].startswith("bad.json"), str(answer)[:300]
        assert len(json.dumps(answer)) < 1000 and "9C 9C 9C 9C 9C 9C 9C 9C 9C 9C 9C 9C 9C 9C 9C" not in answer["message"]
        assert s.get("/api/choices")[0] == 200
    assert not list((tmp_path / "records").glob("*.json")) and not list((tmp_path / "records").glob(".cassino-*"))


def test_a_rule_file_of_the_folder_that_does_not_load_is_named_at_the_start(tmp_path: Path) -> None:
    """The lobby offers every file of --rules-dir, read again when chosen; one that does not load is named with
    its first problem when the server starts (an audit found them offered with no word until a player chose one)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "good.yaml").write_text("name: good\nextends: standard\ngame:\n  target: 11\n")
    (rules / "bad.yaml").write_text("name: bad\nextends: nothing-here\n")
    (rules / "garbage.yaml").write_text("a: [\n")
    with serve_process(tmp_path / "records", "--rules-dir", str(rules)) as server:
        bad = server.said("rules folder: bad.yaml does not load now")
        assert "cannot find the variant `nothing-here`" in bad
        assert "YAML syntax error" in server.said("rules folder: garbage.yaml")
        server.said("stop with Ctrl-C")
        assert not any("good.yaml" in line for line in server.lines)

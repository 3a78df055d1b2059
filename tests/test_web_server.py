"""`cassino serve`: the lobby, tables over websockets, records and restarts, through a real server on loopback."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from websockets.exceptions import InvalidStatus  # noqa: E402

from cassino.apps.game.records import load_game, load_record, save_new  # noqa: E402
from cassino.engine.notation import cards_text, format_move  # noqa: E402
from cassino.language.variants import load_rules  # noqa: E402

from conftest import ROOT, record_text  # noqa: E402
from web_helpers import SeatClient, serving  # noqa: E402

HOUSE_WITH_ERROR = """name: my-house
description: Standard to 11
extends: standard
build:
  raise_sngle: true
game:
  target: 11
"""


def test_lobby_offers_bundled_variants_examples_and_the_rules_folder(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "kitchen.yaml").write_text("name: kitchen\ndescription: ours\nextends: standard\n")
    (rules / "notes.txt").write_text("not a rule file")
    with serving(tmp_path / "records", rules_dir=rules) as s:
        status, body, headers = s.get("/api/choices")
        choices = json.loads(body)
        assert status == 200
        assert {"standard", "royal", "tuxedo"} <= {c["name"] for c in choices["bundled"]}
        assert "fifty" in {c["name"] for c in choices["example"]}
        assert choices["folder"] == [{"name": "kitchen.yaml", "description": "ours"}]
        assert "content-security-policy" in {k.lower() for k in headers}
        status, answer = s.post("/api/rules", {"rules": {"kind": "folder", "name": "kitchen.yaml"}})
        assert status == 200 and answer["info"]["min_players"] == 2
        # Only the folder's own files, by name: no path leaves it.
        for name in ("../records", "/etc/passwd", "notes.txt", "kitchen"):
            status, answer = s.post("/api/rules", {"rules": {"kind": "folder", "name": name}})
            assert status == 400 and "no rule file" in answer["message"]


def test_pasted_rules_get_the_errors_of_cassino_validate(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "my-house.yaml").write_text(HOUSE_WITH_ERROR)
    code, out, err = cli("validate", str(tmp_path / "my-house.yaml"), "--format", "json")
    expected = json.loads(out)["results"][0]["errors"]
    with serving(tmp_path / "records") as s:
        status, answer = s.post("/api/rules", {"rules": {"kind": "text", "text": HOUSE_WITH_ERROR,
                                                          "filename": "C:\\Users\\me\\my-house.yaml"}})
    assert code == 2 and status == 400
    got = answer["errors"]
    assert [(e["line"], e["column"], e["message"], e["hint"]) for e in got] == \
        [(e["line"], e["column"], e["message"], e["hint"]) for e in expected]
    assert got[0]["line"] == 5 and got[0]["file"] == "my-house.yaml"
    assert got[0]["source_line"].strip() == "raise_sngle: true"
    assert got[0]["text"].startswith("my-house.yaml:5:3: unknown setting `raise_sngle`")


def test_pasted_rules_that_play_but_may_never_end_come_with_the_warning_of_cassino_validate(
        tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    text = "name: ulmann-lowest\nextends: hungarian-ulmann\ngame:\n  goal: lowest\n"
    (tmp_path / "lowest.yaml").write_text(text)
    code, out, _ = cli("validate", str(tmp_path / "lowest.yaml"), "--format", "json")
    expected = json.loads(out)["results"][0]["warnings"]
    with serving(tmp_path / "records") as s:
        status, answer = s.post("/api/rules", {"rules": {"kind": "text", "text": text, "filename": "lowest.yaml"}})
        _, plain = s.post("/api/rules", {"rules": {"kind": "bundled", "name": "kasino-misar"}})
    assert code == 0 and status == 200 and answer["valid"]
    got = answer["warnings"]
    assert [(w["line"], w["column"], w["message"], w["hint"]) for w in got] == \
        [(w["line"], w["column"], w["message"], w["hint"]) for w in expected] != []
    assert got[0]["file"] == "lowest.yaml" and got[0]["source_line"].strip() == "goal: lowest"
    assert got[0]["text"].startswith("lowest.yaml:4:9: warning: the lowest total wins")
    assert plain["valid"] and plain["warnings"] == []


@pytest.mark.parametrize("text, says", [
    ("name: x\nextends: ../../../etc/secret.yaml\n", "not a file on the server"),
    ("name: x\nextends: /etc/passwd.yaml\n", "not a file on the server"),
    ("", "the file is empty"),
    ("[1, 2", "pasted.yaml:1:1: YAML syntax error"),
    ("name: x\nextends: standerd\n", "did you mean `standard`"),
    ("a: !!python/object:os.system echo\n", "tags are not allowed in rule files"),
    # (The loader's own hint offered the server's temporary copy of the pasted rules, `rules.yaml`.)
    ("name: x\nextends: rules\n", "no bundled variant or house-rule example named `rules`"),
])
def test_pasted_rules_refused_in_words(tmp_path: Path, text: str, says: str) -> None:
    with serving(tmp_path / "records") as s:
        status, answer = s.post("/api/rules", {"rules": {"kind": "text", "text": text}})
    assert status == 400
    assert says in json.dumps(answer) and "beside this one" not in json.dumps(answer)


def test_pasted_rules_may_extend_a_house_rule_example_by_name(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        status, answer = s.post("/api/rules", {"rules": {"kind": "text", "text": "name: x\nextends: fifty\n"}})
    assert status == 200 and answer["valid"], answer


@pytest.mark.parametrize("request_body, says", [
    ({"rules": {"kind": "bundled", "name": "nosuch"}, "seats": ["human", "greedy"]}, "no bundled variant"),
    ({"rules": {"kind": "disk", "name": "x"}, "seats": ["human", "greedy"]}, "rules come from one of"),
    ({"rules": "standard", "seats": ["human", "greedy"]}, "say which rules"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": 9, "seats": ["human"] * 9}, "2 to 4 players"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": "two", "seats": ["human", "greedy"]}, "whole number"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": True, "seats": ["human", "greedy"]}, "whole number"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": 2, "seats": ["human"]}, "1 seat named for 2"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": 2, "seats": ["human", "genius"]}, "no computer player"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": 2, "seats": ["human", "search:0"]}, "bad search budget"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": 2, "seats": "human,greedy"}, "seats is a list"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": 3, "partners": True,
      "seats": ["human", "greedy", "greedy"]}, "needs four players"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": 2, "partners": "yes",
      "seats": ["human", "greedy"]}, "true or false"),
    ({"rules": {"kind": "bundled", "name": "standard"}, "players": 2, "seats": ["human", "greedy"], "you": 1},
     "the seat you take"),
    ([1, 2, 3], "a JSON object"),
])
def test_a_bad_new_table_request_is_refused_and_makes_no_file(tmp_path: Path, request_body: object, says: str) -> None:
    with serving(tmp_path / "records") as s:
        status, answer = s.post("/api/tables", request_body)
        assert status == 400 and says in answer["message"], answer
        assert not list((tmp_path / "records").glob("*.json"))
        assert s.store.tables == {}


def test_requests_that_are_too_large_not_json_or_from_another_site_are_refused(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        status, answer = s.post("/api/rules", b"{not json")
        assert status == 400 and "not JSON" in answer["message"]
        host, port = s.url.rsplit("/", 1)[1].split(":")
        # Said to be too large: refused before a byte of it is read.
        conn = http.client.HTTPConnection(host, int(port), timeout=20)
        conn.putrequest("POST", "/api/rules")
        conn.putheader("content-type", "application/json")
        conn.putheader("content-length", str(50_000_000))
        conn.endheaders()
        answer = conn.getresponse()
        assert answer.status == 413 and b"too large" in answer.read()
        conn.close()
        # Sent in chunks without a length: read up to the limit, then refused.
        conn = http.client.HTTPConnection(host, int(port), timeout=20)
        conn.request("POST", "/api/rules", body=iter([b" " * 500_000] * 4 + [b" " * 1000]),
                     headers={"content-type": "application/json"}, encode_chunked=True)
        answer = conn.getresponse()
        assert answer.status == 413 and b"too large" in answer.read()
        conn.close()
        status, answer = s.post("/api/tables", {"rules": {"kind": "bundled", "name": "standard"},
                                                "seats": ["human", "greedy"]},
                                headers={"origin": "http://evil.example"})
        assert status == 403 and s.store.tables == {}


def test_a_whole_game_against_greedy_over_the_websocket_and_its_record(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"])
        status, _, _ = s.get(f"/records/{table['id']}.json")
        assert status == 403                       # the record holds the deal: not before the end
        with s.seat(table, 0) as me:
            welcome = me.until(lambda m: m["type"] == "welcome")
            assert welcome["seat"] == 0
            final = me.play_out()
        assert final["over"] and final["record"] == f"/records/{table['id']}.json"
        assert "wins" in final["outcome"] or "no winner" in final["outcome"]
        status, body, headers = s.get(final["record"])
        assert status == 200 and "attachment" in headers["content-disposition"]
        served = json.loads(body)
    files = list((tmp_path / "records").glob("*.json"))
    assert len(files) == 1 and files[0].name.startswith("standard-")
    record, game = load_game(files[0])
    assert game.over and record.actions == served["actions"] and record.seats == ["human", "greedy"]
    # The record is the terminal's: `cassino replay` verifies it.
    replayed = subprocess.run([sys.executable, "-m", "cassino", "replay", str(files[0])], capture_output=True,
                              text=True, timeout=120)
    assert replayed.returncode == 0 and "game over" in replayed.stdout


def test_refused_moves_give_the_engines_reason_and_change_nothing(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"])
        with s.seat(table, 0) as me:
            state = me.my_turn()
            before = list(s.store.get(table["id"]).record.actions)
            hand = state["hand"]
            me.send({"type": "move", "text": f"{hand[0]} build 99 on {hand[1]}"})
            refused = me.until(lambda m: m["type"] in ("refused", "error"))
            assert refused["type"] == "refused" and hand[0] in refused["message"]
            me.send({"type": "move", "text": "ZZ trail"})
            assert "is not a move" in me.until(lambda m: m["type"] == "refused")["message"]
            me.send({"type": "move", "text": f"{hand[0]} capture"})
            assert "ends too soon" in me.until(lambda m: m["type"] == "refused")["message"]
            # A card not in hand: the engine's own words (engine.why_illegal).
            other = next(c for c in ("AS", "2C", "3D", "4H", "5S", "6C") if c not in hand)
            me.send({"type": "move", "text": f"{other} trail"})
            assert other in me.until(lambda m: m["type"] == "refused")["message"]
            # Clicking cards asks the server what they make: the engine's reason in the same words when they
            # make no move, else the move they make (the deal is random: a card may take the first loose one).
            me.send({"type": "why", "played": [hand[0]], "items": state["loose"][:1] or []})
            answer = me.until(lambda m: m["type"] in ("refused", "found"))
            assert answer["message"] and (answer["type"] == "refused" or answer["move"]["played"] == [hand[0]])
            me.ping()
            assert s.store.get(table["id"]).record.actions == before


def test_hint_and_undo_against_the_computer(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"])
        with s.seat(table, 0) as me:
            state = me.my_turn()
            assert state["can"]["undo"] is False     # nothing of this seat's to take back yet (a documentation audit)
            me.send({"type": "hint"})
            hint = me.until(lambda m: m["type"] == "hint")["move"]
            assert hint["text"] in [m["text"] for m in state["moves"]] and hint["words"]
            played_before = len(s.store.get(table["id"]).record.actions)
            me.move(hint["text"])
            assert me.my_turn()["can"]["undo"] is True        # greedy has answered; the move can be taken back
            assert len(s.store.get(table["id"]).record.actions) == played_before + 2
            me.send({"type": "undo"})
            assert me.until(lambda m: m["type"] in ("info", "error"))["message"] == "took back your last move"
            me.moved_at = None                                # the same position again: this seat's to play
            state = me.my_turn()
            assert len(s.store.get(table["id"]).record.actions) == played_before
            assert hint["text"] in [m["text"] for m in state["moves"]]
        on_disk = load_record(s.store.get(table["id"]).session.save_path)
        assert len(on_disk.actions) == played_before


def test_two_people_seat_links_turns_and_no_undo(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "human"])
        t = s.store.get(table["id"])
        with s.seat(table, 0) as a, s.seat(table, 1) as b:
            for client in (a, b):       # both see both seats taken: in a state, or told when the other came
                client.until(lambda m: m["type"] == "state" and all(p["connected"] for p in m["seats"])
                             or m["type"] == "presence" and m["connected"] == [0, 1])
            turn = t.session.game.hand.turn
            mover, waiter = (a, b) if turn == 0 else (b, a)
            state = mover.state
            waiting = waiter.state
            assert state is not None and waiting is not None and state["moves"]
            assert waiting["moves"] == [] and waiting["hand"] and waiting["hand"] != state["hand"]
            # The seat not to play is refused, whatever it sends, and the table does not move.
            waiter.send({"type": "move", "text": waiting["hand"][0] + " trail"})
            assert "not your turn" in waiter.until(lambda m: m["type"] == "error")["message"]
            waiter.send({"type": "undo"})
            assert "against computer players" in waiter.until(lambda m: m["type"] == "error")["message"]
            assert t.record.actions == []
            mover.move(state["moves"][0]["text"])
            assert waiter.my_turn()["turn"] == waiter.state["you"]
            assert len(t.record.actions) == 1


def test_forged_missing_and_misplaced_tokens_are_refused(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"])
        other = s.new_table(["human", "greedy"])
        cases = [(table["id"], "forged-" + s.token(table, 0)[7:]), (table["id"], ""),
                 (table["id"], s.token(other, 0)), ("0123456789ab", s.token(table, 0))]
        for table_id, token in cases:
            with SeatClient(s.url, table_id, token) as c:
                msg = c.until(lambda m: m["type"] == "error")
                assert msg["fatal"] and "state" not in [json.loads(t)["type"] for t in c.received]
        with SeatClient(s.url, table["id"], None, hello=False) as c:     # no hello at all: a move first
            c.send({"type": "move", "text": "AS trail"})
            assert c.until(lambda m: m["type"] == "error")["fatal"]
        # A page of another site cannot even open the socket, token or not.
        with pytest.raises(InvalidStatus):
            SeatClient(s.url, table["id"], s.token(table, 0), origin="http://evil.example")
        with SeatClient(s.url, table["id"], s.token(table, 0), origin=s.url) as c:
            assert c.until(lambda m: m["type"] == "state")["you"] == 0


def test_reconnecting_resumes_the_seat(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"])
        with s.seat(table, 0) as first:
            state = first.my_turn()
            first.move(state["moves"][0]["text"])
            first.my_turn()
        with s.seat(table, 0) as again:
            state2 = again.my_turn()
            assert state2["you"] == 0 and state2["ply"] >= state["ply"] + 2
            # (the table's deal is drawn at random: the move may sweep, and its entry then says so, ``said``)
            assert any(e["seat"] == 0 and e["text"] == state["moves"][0]["text"] for e in state2["log"]), state2["log"]


def test_a_restart_resumes_every_table_and_takes_in_terminal_records(tmp_path: Path) -> None:
    records = tmp_path / "records"
    with serving(records) as s:
        vs_bot = s.new_table(["human", "greedy"])
        friends = s.new_table(["human", "human", "random"], variant="royal")
        with s.seat(vs_bot, 0) as me:
            for _ in range(3):
                st = me.my_turn()
                me.move(st["moves"][-1]["text"])
            me.my_turn()
        actions = list(s.store.get(vs_bot["id"]).record.actions)
    # A game of `cassino play` dropped into the folder, a damaged record, and a stray file.
    (records / "from-terminal.json").write_text(record_text("standard", seed=4, actions=5))
    (records / "damaged.json").write_text('{"format": "cassino-game/1", "seed": ')
    damaged = (records / "damaged.json").read_bytes()
    with serving(records) as s:
        assert set(s.store.tables) >= {vs_bot["id"], friends["id"]}
        assert s.store.get(vs_bot["id"]).record.actions == actions
        adopted = [t for t in s.store.tables.values() if t.session.save_path.name == "from-terminal.json"]
        assert len(adopted) == 1 and len(adopted[0].record.actions) == 5
        assert any("damaged.json" in line and "not a game record" in line for line in s.messages)
        with s.seat(vs_bot, 0) as me:      # the same position, this hand's moves in its log
            assert [e["text"] for e in me.my_turn()["log"]] == actions
        with SeatClient(s.url, adopted[0].id, adopted[0].tokens[0]) as me:
            assert me.my_turn()["ply"] >= 5
    assert (records / "damaged.json").read_bytes() == damaged          # left as it was
    sidecars = list((records / ".tables").glob("*.json"))
    assert len(sidecars) == 3
    if os.name == "posix":
        assert (records / ".tables").stat().st_mode & 0o077 == 0
        assert all(p.stat().st_mode & 0o077 == 0 for p in sidecars)
    # The terminal resumes a browser game too: the same record format.
    path = next(p for p in records.glob("standard-*.json"))
    done = subprocess.run([sys.executable, "-m", "cassino", "play", "--resume", str(path)], input="1\n" * 400,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0 and "final scores" in done.stdout


def test_continue_a_saved_game_uploaded_in_the_lobby(tmp_path: Path) -> None:
    text = record_text("royal", seed=2, actions=7)
    with serving(tmp_path / "records") as s:
        status, answer = s.post("/api/records", {"text": text, "filename": "my game.json"})
        assert status == 200 and answer["you"] == 0
        with s.seat(answer, 0) as me:
            me.my_turn()
            assert me.welcome is not None and me.welcome["variant"]["name"] == "royal"
        damaged = json.loads(text)
        damaged["players"] = "two"
        status, answer = s.post("/api/records", {"text": json.dumps(damaged, indent=1), "filename": "bad.json"})
        assert status == 400 and answer["message"].startswith("bad.json:") and '"players"' in answer["message"]
        status, answer = s.post("/api/records", {"text": "{", "filename": "cut.json"})
        assert status == 400 and "cut.json:1:2: not a game record" in answer["message"]
    names = sorted(p.name for p in (tmp_path / "records").glob("*.json"))
    assert names == ["my-game-continued.json"]


def test_a_new_record_never_takes_an_existing_name(tmp_path: Path) -> None:
    record = load_record_from_text(record_text("standard", seed=1, actions=2), tmp_path)
    (tmp_path / "g.json").write_text("precious")
    (tmp_path / "g-2.json").write_text("precious too")
    path = save_new(record, tmp_path, "g")
    assert path.name == "g-3.json"
    assert (tmp_path / "g.json").read_text() == "precious" and (tmp_path / "g-2.json").read_text() == "precious too"
    assert load_record(path).actions == record.actions
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cassino-")]


def load_record_from_text(text: str, folder: Path):  # type: ignore[no-untyped-def]
    scratch = folder / "scratch"
    scratch.mkdir()
    (scratch / "r.json").write_text(text)
    record = load_record(scratch / "r.json")
    shutil.rmtree(scratch)
    return record


def test_rulebook_pages_for_a_table_and_for_the_lobby(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "greedy"], variant="royal")
        status, body, headers = s.get(f"/rules/{table['id']}")
        assert status == 200 and b"<h1>" in body and b"<script" not in body
        assert "script-src" not in headers["content-security-policy"]
        status, body, _ = s.get("/rules/example/fifty")
        assert status == 200 and b"fifty" in body.lower() and b"<ins>" in body     # marked against standard
        fifty = s.new_table(["human", "greedy"], variant="fifty", kind="example")
        assert s.get(f"/rules/{fifty['id']}")[1] == body
        assert s.get("/rules/bundled/nosuch")[0] == 400
        assert s.get("/rules/0123456789ab")[0] == 404


def test_a_rules_folder_files_rulebook_page_marks_its_changes_and_reads_it_once(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby's rulebook of a file of `--rules-dir`: its changes marked against its parent, from the file as the
    lobby read it (confined to the folder); the page loaded it twice more, under the default confinement, to mark
    it and to see that it still held the same rules."""
    from cassino.apps.authors import rulebooks

    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "kitchen.yaml").write_text("name: kitchen\ndescription: ours\nextends: standard\ngame: {target: 11}\n",
                                        encoding="utf-8")
    loads: list[str] = []
    load = rulebooks.load

    def counted(target: str, *args: Any, **kw: Any) -> Any:
        loads.append(str(target))
        return load(target, *args, **kw)

    monkeypatch.setattr(rulebooks, "load", counted)
    with serving(tmp_path / "records", rules_dir=rules) as s:
        status, body, headers = s.get("/rules/folder/kitchen.yaml")
        assert status == 200 and b"<h1>" in body and b"<ins>" in body and b"11" in body, body[:300]
        assert "script-src" not in headers["content-security-policy"]
        assert s.get("/rules/folder/nosuch.yaml")[0] == 400
    assert loads == ["standard"]          # the parent, to mark the changes against: the file itself not again


@pytest.mark.parametrize("argv, says", [
    (["serve", "--port", "70000"], "--port must be 0 to 65535"),
    (["serve", "--pace", "-1"], "--pace must be 0 to 60"),
    (["serve", "--rules-dir", "no/such/folder"], "no such folder"),
    (["serve", "--records", "README.md"], "a file, not a folder"),
    (["serve", "--records", "no/such/parent/records"], "there is no folder"),
    (["serve", "--host", "no-such-host.invalid"], "not an address of this computer"),
])
def test_serve_refuses_bad_options(cli, argv: list[str], says: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli(*argv)
    assert code == 2 and says in err and "Traceback" not in err


def test_serve_says_where_it_listens_and_refuses_a_taken_port(tmp_path: Path) -> None:
    with serving(tmp_path / "a") as s:
        port = s.url.rsplit(":", 1)[1]
        taken = subprocess.run([sys.executable, "-m", "cassino", "serve", "--port", port, "--records",
                                str(tmp_path / "b")], capture_output=True, text=True, timeout=60)
        assert taken.returncode == 2 and "is in use" in taken.stderr
    proc = subprocess.Popen([sys.executable, "-m", "cassino", "serve", "--port", "0", "--records",
                             str(tmp_path / "c")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()          # type: ignore[union-attr]
        assert "http://127.0.0.1:" in line and "other computers cannot connect" in line
    finally:
        proc.terminate()
        proc.wait(20)
    assert (tmp_path / "c" / ".tables").is_dir()


def test_every_shipped_variant_opens_a_table(tmp_path: Path) -> None:
    from conftest import VARIANTS

    from cassino.apps.web.policy import Limits

    # One client opens a table of each variant, more than the default per-client limit of 20 (and more than
    # its 30 new tables a minute).
    with serving(tmp_path / "records", limits=Limits(tables_per_client=len(VARIANTS),
                                                     uploads_per_minute=len(VARIANTS))) as s:
        for name in VARIANTS:
            rules = load_rules(name)
            seats = ["human"] + ["random"] * (rules.seats.min_players - 1)
            table = s.new_table(seats, variant=name)
            with s.seat(table, 0) as me:
                state = me.until(lambda m: m["type"] == "state")
                assert me.welcome is not None and me.welcome["variant"]["name"] == name
                assert len(state["seats"]) == len(seats) and "variant" not in state


def test_serve_without_the_web_extra_says_how_to_install_it(cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    for name in ["starlette"] + [m for m in sys.modules if m.startswith("starlette.")]:
        monkeypatch.setitem(sys.modules, name, None)           # as if it were not installed
    monkeypatch.delitem(sys.modules, "cassino.apps.web.server", raising=False)
    code, out, err = cli("serve", "--port", "0")
    assert code == 2 and "pip install 'cassino[web]'" in err and "starlette" in err and "Traceback" not in err


def test_a_table_with_tens_of_thousands_of_captures_offers_a_share_and_takes_any_typed(tmp_path: Path) -> None:
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
        with s.seat(table, 0) as me:
            state = me.until(lambda m: m["type"] == "state")
            assert 0 < len(state["moves"]) <= 600 and state["more_moves"] == 71076 - len(state["moves"])
            assert {m["played"][0] for m in state["moves"]} == {"10S", "9H", "8C", "7D"}
            typed = "10S capture AC 2C 3C 4C"
            assert typed not in {m["text"] for m in state["moves"]}
            me.move(typed)
            assert me.until(lambda m: m["type"] == "state" and m["ply"] == 1)["log"] == [{"seat": 0, "text": typed}]


# ---------------------------------------------------------------------- what an error may show of the server
ONE_SUIT = """name: one-suit
description: Standard with spades only
extends: standard
deck:
  suits:
  - {letter: S, name: spades, symbol: S, colour: black}
"""


def test_errors_in_a_bundled_file_name_it_by_its_variant_never_by_a_server_path(tmp_path: Path) -> None:
    from cassino.paths import VARIANTS_DIR

    rules = tmp_path / "house"
    rules.mkdir()
    (rules / "broken.yaml").write_text(HOUSE_WITH_ERROR)
    with serving(tmp_path / "records", rules_dir=rules) as s:
        status, answer = s.post("/api/rules", {"rules": {"kind": "text", "text": ONE_SUIT, "filename": "one.yaml"}})
        assert status == 400
        texts = [e["text"] for e in answer["errors"]]
        # The bundled file's setting that the pasted one made invalid is said at the pasted file's own line
        # (issue 48: an author can only edit their own file), naming the inherited setting by its variant.
        assert any(t.startswith("one.yaml:") and "selector '10D'" in t and "inherited from standard" in t
                   for t in texts), texts
        assert {e["file"] for e in answer["errors"]} == {"one.yaml"}
        status, folder = s.post("/api/rules", {"rules": {"kind": "folder", "name": "broken.yaml"}})
        assert status == 400 and folder["errors"][0]["text"].startswith("broken.yaml:5:3: unknown setting")
        for shown in (json.dumps(answer), json.dumps(folder)):
            assert str(VARIANTS_DIR) not in shown and str(rules) not in shown and "site-packages" not in shown
            assert "/" not in "".join(e["file"] + e["message"] for e in json.loads(shown)["errors"])


def test_deeply_nested_pasted_yaml_is_refused_in_words_not_a_server_error(tmp_path: Path) -> None:
    """1.2 KB of brackets: the loader's located error (fixed in language/yamlsource.py), shown as 4xx."""
    text = "[" * 600 + "]" * 600
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
            assert 400 <= status < 500, (path, status, raw[:200])
            answer = json.loads(raw)
            assert answer["errors"][0]["file"] == "deep.yaml" and answer["errors"][0]["text"].startswith("deep.yaml:")
        assert s.get("/api/choices")[0] == 200          # and the server goes on
    assert not list((tmp_path / "records").glob("*.json"))


# ---------------------------------------------------------------------- computer players cannot starve people
def _thinking_record(tmp_path: Path) -> str:
    """A game of two search:10s players whose next move is a long think (two moves stay close to the end):
    the position after standard seed 5's first move. The search is seeded, so it is the same on any machine."""
    from cassino.apps.game.records import Record
    from cassino.apps.game.session import GameSession

    record = Record(load_rules("standard"), 5, 2, False, ["search:10s", "search:10s"], source="standard")
    session = GameSession.open(record, tmp_path / "thinking.json")
    session.act("3S build 5 on 2D 5S 5C")
    return (tmp_path / "thinking.json").read_text()


def test_a_persons_move_is_answered_while_computer_players_think_at_other_tables(tmp_path: Path) -> None:
    """Eight tables of search players thinking 10 s over their move (more than a shared thread pool holds):
    a person's move at another table is written and answered before any of them has made that move."""
    busy = 8
    text = _thinking_record(tmp_path)
    with serving(tmp_path / "records") as s:
        thinking = []
        for _ in range(busy):
            status, answer = s.post("/api/records", {"text": text, "filename": "thinking.json"})
            assert status == 200, answer
            thinking.append(answer["id"])
        mine = s.new_table(["human", "greedy"])
        with s.seat(mine, 0) as me:
            state = me.my_turn()
            deadline = time.monotonic() + 60
            while not all(s.store.tables[t].driver is not None for t in thinking):
                assert time.monotonic() < deadline
                time.sleep(0.02)
            time.sleep(0.3)                                # the computer players have started thinking
            me.move(state["moves"][0]["text"])
            answered = me.until(lambda m: m["type"] == "state" and m["ply"] > state["ply"] or m["type"] == "error")
            assert answered["type"] == "state", answered
            played = {t: len(s.store.tables[t].record.actions) for t in thinking}
        assert played == {t: 1 for t in thinking}, "the computer players moved before the person was answered"
        assert len(load_record(s.store.tables[mine["id"]].session.save_path).actions) >= 1     # written first


# ---------------------------------------------------------------------- stopping
def test_sigterm_stops_busy_tables_saves_them_and_exits_0(tmp_path: Path) -> None:
    import signal

    records = tmp_path / "records"
    proc = subprocess.Popen([sys.executable, "-m", "cassino", "serve", "--port", "0", "--pace", "0",
                             "--records", str(records)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()          # type: ignore[union-attr]
        base = line.split("open ", 1)[1].split("/ ", 1)[0]
        for seats in (["search:10s", "search:10s"], ["search:2000", "greedy", "search:10s"], ["human", "greedy"]):
            body = json.dumps({"rules": {"kind": "bundled", "name": "standard"}, "players": len(seats),
                               "seats": seats, "you": 0 if seats[0] == "human" else None}).encode()
            with urlopen(Request(base + "/api/tables", data=body, method="POST",
                                 headers={"content-type": "application/json"}), timeout=30) as r:
                assert r.status == 200
        time.sleep(1.0)                        # the computer players are thinking
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, (proc.returncode, err[-2000:])
    assert "stopped; every table is saved (3 tables in" in out and "Traceback" not in err, (out, err)
    saved = sorted(records.glob("*.json"))
    assert len(saved) == 3
    for path in saved:
        load_game(path)                        # replays to the state it states


@pytest.mark.parametrize("argv, says", [
    (["serve", "--max-tables", "0"], "--max-tables must be 1 to 100000"),
    (["serve", "--max-tables", "many"], "invalid int value"),
    (["serve", "--tables-per-client", "0"], "--tables-per-client must be 1 to --max-tables (200)"),
    (["serve", "--max-tables", "5", "--tables-per-client", "6"], "--tables-per-client must be 1 to --max-tables (5)"),
    (["serve", "--allow-host", "http://evil:80/"], "--allow-host 'http://evil:80/': a host name or address"),
    (["serve", "--allow-host", ""], "--allow-host '': a host name or address"),
    (["serve", "--allow-host", "a b"], "a host name or address"),
    (["serve", "--connections-per-table", "0"], "--connections-per-table must be 1 to 100000, not 0"),
    (["serve", "--connections-per-client", "-3"], "--connections-per-client must be 1 to 100000"),
    (["serve", "--max-connections", "0"], "--max-connections must be 1 to 1000000"),
    (["serve", "--uploads-per-minute", "0"], "--uploads-per-minute must be 1 to 100000"),
    (["serve", "--forwarded-allow-ips", "10.0.0.1"], "it needs --proxy-headers"),
    (["serve", "--proxy-headers", "--forwarded-allow-ips", "zz,,1"], "'zz' is not an address"),
    (["serve", "--proxy-headers", "--forwarded-allow-ips", "10.0.0.1,"], "'an empty entry' is not an address"),
    (["serve", "--proxy-headers", "--forwarded-allow-ips", "10.0.0.0/33"], "'10.0.0.0/33' is not an address"),
])
def test_serve_refuses_bad_limits_and_host_names(cli, argv: list[str], says: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli(*argv)
    assert code == 2 and says in err and "Traceback" not in err


def test_a_record_is_played_in_one_place_at_a_time_browser_or_terminal(tmp_path: Path) -> None:
    """The server holds each table's record with the lock `cassino play` takes: a terminal resuming a
    record the server plays is refused, and a record a terminal plays is skipped by the server, unharmed."""
    from cassino.files import exclusive

    records = tmp_path / "records"
    with serving(records) as s:
        table = s.new_table(["human", "greedy"])
        path = s.store.get(table["id"]).session.save_path
        done = subprocess.run([sys.executable, "-m", "cassino", "play", "--resume", str(path)], input="1\n" * 5,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stdout
        assert "is being played in another cassino process" in done.stderr and "Traceback" not in done.stderr
        assert load_game(path)[0].actions == s.store.get(table["id"]).record.actions   # the terminal wrote nothing
    # Stopped, the server lets the record go: a terminal may play it now.
    done = subprocess.run([sys.executable, "-m", "cassino", "play", "--resume", str(path)], input="quit\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # A terminal holding a record: the server starts without it, says why, and leaves the file alone.
    (records / "at-a-terminal.json").write_text(record_text("standard", seed=4, actions=3))
    held = (records / "at-a-terminal.json").read_bytes()
    with exclusive(records / "at-a-terminal.json"):
        with serving(records) as s:
            assert not any(t.session.save_path.name == "at-a-terminal.json" for t in s.store.tables.values())
            assert any("at-a-terminal.json" in line and "being played in a terminal" in line for line in s.messages)
    assert (records / "at-a-terminal.json").read_bytes() == held


def test_the_lobby_reads_a_huge_rule_file_in_its_folder_only_up_to_its_bound(tmp_path: Path) -> None:
    """A rules folder may hold anything: a 2 GiB file (sparse, so the disk is spared) is described after
    reading at most the loader's bound, not read whole into the server's memory."""
    import tracemalloc

    from cassino.apps.web.lobby import Lobby

    (tmp_path / "good.yaml").write_text("name: good\ndescription: Ours\nextends: standard\n")
    with open(tmp_path / "huge.yaml", "wb") as f:
        f.truncate(2 << 30)
    tracemalloc.start()
    try:
        folder = {c["name"]: c["description"] for c in Lobby(tmp_path).choices()["folder"]}
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert folder == {"good.yaml": "Ours", "huge.yaml": ""}
    assert peak < 64 << 20, f"{peak:,} bytes held while listing the folder"


# ---------------------------------------------------------------------- issue 48: the moves listed, the piles shown
HEAVY_HUNGARIAN = (ROOT / "tests" / "rules" / "heavy-hungarian.yaml").read_text(encoding="utf-8")


def test_the_heavy_hungarian_file_is_valid(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "heavy-hungarian.yaml").write_text(HEAVY_HUNGARIAN)
    code, out, err = cli("validate", str(tmp_path / "heavy-hungarian.yaml"))
    assert code == 0, out + err


def test_a_state_lists_at_most_600_moves_and_says_the_list_was_cut(tmp_path: Path) -> None:
    """Ten low cards in hand that combine (Hungarian, up to ten played together): 2,442 captures, in hundreds
    of sets of hand cards. The state lists 600 (each set of hand cards its turn), says how many more there are
    and that the list was cut, and a move not listed is still played, typed, once the server has checked it."""
    from cassino.engine.core import Position

    with serving(tmp_path / "records") as s:
        status, table = s.post("/api/tables", {"rules": {"kind": "text", "text": HEAVY_HUNGARIAN,
                                                         "filename": "heavy-hungarian.yaml"},
                                               "players": 2, "seats": ["human", "human"], "you": 0})
        assert status == 200, table
        t = s.store.get(table["id"])
        engine = t.session.game.engine
        card = engine.deck.parse
        hand = engine.position(Position(
            players=2, hands={0: [card(c) for c in ("AS", "2S", "3S", "4S", "5S", "6S", "AH", "2H", "3H", "4H")],
                              1: [card("KH")]},
            table=[card(c) for c in ("7S", "8S", "9S", "10S", "JS", "QS", "KS")]))
        t.session.game = t.session.game.with_(hand=hand)        # the server is idle: seat 0 is to play
        every = t.session.game.legal_moves()
        assert len(every) == 2442
        with s.seat(table, 0) as me:
            state = me.until(lambda m: m["type"] == "state")
            assert len(state["moves"]) == 600 and state["more_moves"] == 2442 - 600
            assert state["moves_cut"] is True and state["too_many"] is False
            offered = {m["text"] for m in state["moves"]}
            assert len(offered) == 600
            # 913 sets of hand cards make a move: the sets of fewer cards are offered first (each card alone,
            # each pair, ..., every set of four: 341), and no set has a second move offered while a set has none.
            sets = {frozenset(m["played"]) for m in state["moves"]}
            every_set = {frozenset(cards_text(engine.deck, m.played)) for m in every}
            assert {c for c in every_set if len(c) <= 4} <= sets and len(sets) == 600 and sets <= every_set
            unlisted = next(format_move(m, engine.deck) for m in every if format_move(m, engine.deck) not in offered)
            me.move(unlisted)
            after = me.until(lambda m: m["type"] == "state" and m["ply"] == 1)
            assert after["log"] == [{"seat": 0, "text": unlisted}]
        assert t.record.actions == [unlisted]


def test_a_short_list_of_moves_is_not_said_to_be_cut(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "human"])
        with s.seat(table, 0) as zero, s.seat(table, 1) as one:
            states = [c.until(lambda m: m["type"] == "state") for c in (zero, one)]
        mover, other = sorted(states, key=lambda v: v["turn"] != v["you"])
        assert mover["moves_cut"] is False and mover["more_moves"] == 0 and 0 < len(mover["moves"]) <= 600
        assert other["moves_cut"] is False and other["moves"] == []             # not its turn: no list


def test_four_player_swazi_shows_a_sides_pile_top_at_the_partner_who_took_it(tmp_path: Path) -> None:
    """Swazi Casino, four players in two partnerships: seat 2 took the side's pile (a 5 over a 2 over an ace).
    The state shows the pile top and the cards under it at seat 2, which has taken them, not at its partner
    seat 0 (0 taken); the side's entry names seat 2 and counts the side's cards; the move that uses the top
    names it as the page's pile cards do."""
    from cassino.engine.core import Position

    with serving(tmp_path / "records") as s:
        table = s.new_table(["human"] * 4, variant="swazi-casino", you=1, partners=True)
        t = s.store.get(table["id"])
        engine = t.session.game.engine
        card = engine.deck.parse
        hand = engine.position(Position(
            players=4, to_play=1, dealer=0, partners=True,
            hands={0: [card("3S")], 1: [card("9C"), card("KD")], 2: [card("QH")], 3: [card("4C")]},
            table=[card(c) for c in ("9S", "7H", "4D")], captured={2: [card(c) for c in ("AS", "2C", "5H")]}))
        t.session.game = t.session.game.with_(hand=hand)
        with s.seat(table, 1) as me, s.seat(table, None) as watcher:
            state = me.until(lambda m: m["type"] == "state")
            seen = watcher.until(lambda m: m["type"] == "state")
        for view in (state, seen):
            seats = {p["seat"]: p for p in view["seats"]}
            assert seats[2]["taken"] == 3 and seats[2]["top"] == "5H" and seats[2]["pile"] == ["5H", "2C", "AS"]
            assert seats[0]["taken"] == 0 and seats[0]["top"] is None and seats[0]["pile"] == []
            assert seats[1]["top"] is None and seats[3]["top"] is None
            side = next(d for d in view["sides"] if d["side"] == 0)
            assert side["seats"] == [0, 2] and side["pile_seat"] == 2 and side["top"] == "5H" and side["taken"] == 3
            other = next(d for d in view["sides"] if d["side"] == 1)
            assert other["pile_seat"] is None and other["top"] is None and other["taken"] == 0
        assert any("5H" in m["items"] for m in state["moves"])


def _swazi_turn_table(s: Any, table_cards: tuple[str, ...]) -> tuple[Any, Any]:
    """A Swazi Casino table of three people, seat 0 to play 10H 9D KD onto ``table_cards``: the table's id and its
    object (the typed-turn tests')."""
    from cassino.engine.core import Position

    table = s.new_table(["human"] * 3, variant="swazi-casino", you=0)
    t = s.store.get(table["id"])
    card = t.session.game.engine.deck.parse
    hand = t.session.game.engine.position(Position(
        players=3, to_play=0, dealer=1,
        hands={0: [card(c) for c in ("10H", "9D", "KD")], 1: [card("QS"), card("4H")], 2: [card("QH"), card("4S")]},
        table=[card(c) for c in table_cards]))
    t.session.game = t.session.game.with_(hand=hand)
    return table, t


def test_a_whole_turn_typed_in_the_browser_is_played_ended_and_shown_as_one(tmp_path: Path) -> None:
    """Swazi Casino, three people: a turn typed whole (`build ...; 9D capture 9C`, as the rulebook writes turns)
    was refused in the browser ("one action at a time here", a player's audit); it is played action by action,
    ended where its card was played (as at the terminal), and the history and the seat's `last` show it as one
    turn, with no `end` line. A turn one of whose actions is illegal is refused whole: nothing is played."""
    with serving(tmp_path / "records") as s:
        table, t = _swazi_turn_table(s, ("5S", "3D", "2C", "9C", "6H", "4C"))   # (6H 4C: the turn goes on after 9D)
        with s.seat(table, 0) as me:
            me.until(lambda m: m["type"] == "state")
            me.send({"type": "move", "text": "9D capture 9C; KD trail"})
            assert "action 2 of 2" in me.until(lambda m: m["type"] == "refused")["message"]
            assert t.session.game.hand.turn == 0 and not t.session.game.hand.turn_card   # (nothing played)
            me.send({"type": "move", "text": "build 10 on 5S 3D 2C; 9D capture 9C"})
            after = me.until(lambda m: m["type"] == "state" and m["turn"] != 0)
        turn = "build 10 on 2C 3D 5S; 9D capture 9C"
        assert t.session.record.actions[-3:] == ["build 10 on 2C 3D 5S", "9D capture 9C", "end"]
        assert after["log"] == [{"seat": 0, "text": turn}]
        assert after["seats"][0]["last"] == turn and after["turn_so_far"] is None


def test_an_offered_build_says_whose_it_becomes_where_a_partner_is_in_it() -> None:
    """Swazi Casino, four in partnerships, the partner's build of 9 on the table: adding to it keeping a 9 takes it
    over, and the offer says so; adding the 9 itself, or with no 9 kept, leaves it the partner's, and says so (a
    player's audit took a partner's build over by an offer that did not say); a plain build says nothing more."""
    from cassino.apps.web.views import move_words
    from cassino.engine.core import Engine, Position
    from cassino.engine.notation import format_move
    from cassino.language.variants import load_rules

    engine = Engine(load_rules("swazi-casino"))
    card = engine.deck.parse

    def offers(hand: list[str]) -> dict[str, str]:
        state = engine.position(Position(
            players=4, to_play=0, dealer=3, partners=True, table=[card("5D"), card("3S")],
            hands={0: [card(c) for c in hand], 1: [card("QS")], 2: [card("9S"), card("2D")], 3: [card("QH")]},
            builds=[([card("6C"), card("3D")], 9, 2)]))
        return {format_move(m, engine.deck): move_words(engine, state, m) for m in engine.legal_moves(state)}

    keeping = offers(["9H", "4C", "KD"])
    assert keeping["4C build 9 on [3D 6C] 5D"].endswith("a multiple build of 9, now yours to take")
    assert keeping["9H build 9 on [3D 6C]"].endswith("a multiple build of 9, your partner's to take")
    assert offers(["4C", "KD"])["4C build 9 on [3D 6C] 5D"].endswith("your partner's to take")
    plain = offers(["8H", "3H"])
    assert plain["3H build 8 on 5D"].endswith("a single build of 8")


def test_a_turn_under_way_is_told_to_its_player() -> None:
    """The state says the actions of a turn under way (a build of cards in play before the card from the hand),
    so the page's banner says the turn goes on rather than "Your turn" as if nothing was made (an audit)."""
    from cassino.apps.web.views import turn_so_far

    log = [(1, "3H trail"), (1, "end"), (0, "build 10 on 2C 3D 5S")]
    assert turn_so_far(log, 0) == "build 10 on 2C 3D 5S"
    assert turn_so_far(log + [(0, "build 12 on QS QH")], 0) == "build 10 on 2C 3D 5S; build 12 on QS QH"
    assert turn_so_far(log[:2], 0) is None and turn_so_far(log + [(0, "9D capture 9C"), (0, "end")], 0) is None
    assert turn_so_far([], 0) is None


@pytest.mark.parametrize("host, shown, hidden", [
    ("127.0.0.1", ["127.0.0.1:8000", "localhost:8000"], ["[::1]:8000"]),
    ("::1", ["[::1]:8000", "localhost:8000"], ["127.0.0.1:8000"]),
    ("0.0.0.0", ["127.0.0.1:8000", "mybox:8000"], ["[::1]:8000"]),
    ("localhost", ["127.0.0.1:8000", "[::1]:8000"], []),
])
def test_the_start_names_only_the_addresses_a_browser_reaches(host: str, shown: list[str], hidden: list[str]) -> None:
    """`--host ::1` said it answered as 127.0.0.1, where it does not listen (an audit's find); the other family's
    loopback name is still answered to, it is only not offered."""
    from cassino.apps.web.server import _reaches

    assert all(_reaches(form, host) for form in shown) and not any(_reaches(form, host) for form in hidden)


def test_table_cards_clicked_alone_are_answered_with_the_builds_they_make() -> None:
    """`why` with no card from the hand (build.free_actions): the builds of exactly the cards clicked, found among
    every legal move; part of one: "click more", with an example; none: why not; where a turn holds no such
    build (standard) the hand card is asked for first."""
    from cassino.apps.web.tables import why_answer
    from cassino.engine.core import Position
    from cassino.engine.game import Game
    from cassino.engine.notation import format_move, parse_move
    from cassino.language.variants import load_rules

    game = Game.new(load_rules("swazi-casino"), 11, 2)
    engine, deck = game.engine, game.engine.deck
    cards = lambda text: [deck.parse(c) for c in text.split()]  # noqa: E731
    hand = engine.position(Position(players=2, to_play=0, dealer=1,
                                    hands={0: cards("7S 9H 9D JC QS QC KD"), 1: cards("8H 8D 10C 10D JD JH KC")},
                                    table=cards("AS AC 2H 2D 2C 3S 3C 4S 4D 5D 5C 6H 6D KH")))
    game = game.with_(hand=hand)
    found = why_answer(game, [], ["AS", "3S", "4S", "5D", "KH"])
    assert found["type"] == "found" and [m["text"] for m in found["moves"]] == ["build 13 on AS 3S 4S 5D KH"]
    assert engine.is_legal(hand, parse_move(found["move"]["text"], deck))
    part = why_answer(game, [], ["4D"])
    assert part["type"] == "refused" and "click more, as in build" in part["message"]
    example = part["message"].rsplit("as in ", 1)[1]
    assert "4D" in example and engine.is_legal(hand, parse_move(example, deck))
    # Random sets of the table's cards: the answer agrees with the whole list of legal moves.
    import random

    free = [m for m in engine.legal_moves(hand) if not m.played]
    names = [str(c) for c in deck.cards_of(hand.table)]
    rng = random.Random(78)
    answers = set()
    for _ in range(40):
        chosen = rng.sample(names, rng.randint(1, 6))
        mask = deck.mask([deck.parse(c) for c in chosen])
        answer = why_answer(game, [], chosen)
        exact = [m for m in free if m.loose == mask and not m.builds]
        wider = [m for m in free if m.loose & mask == mask]
        kind = "found" if exact else "more" if wider else "none"
        answers.add(kind)
        if kind == "found":
            assert {m["text"] for m in answer["moves"]} == {format_move(m, deck) for m in exact}, chosen
        elif kind == "more":
            assert answer["type"] == "refused" and "click more" in answer["message"], (chosen, answer)
        else:
            assert answer["type"] == "refused" and "no build of cards in play alone" in answer["message"], chosen
    assert {"found", "more"} <= answers
    # A card of the hand named as a table card: said so (a re-attack got "no build ... uses these cards").
    held = why_answer(game, [], ["KD"])
    assert held["type"] == "refused" and held["message"].startswith("KD: not loose on the table")
    standard = Game.new(load_rules("standard"), 1, 2)
    first = next(iter(standard.engine.deck.cards_of(standard.hand.table)))
    asked = why_answer(standard, [], [str(first)])
    assert asked == {"type": "refused", "message": "choose a card from your hand first"}


def test_a_raised_build_keeps_its_place_among_the_tables_builds(tmp_path: Path) -> None:
    """South African Casino, four in partnerships, three builds on the table: seat 0 raises seat 1's 6 (the first) to
    9. The state lists a changed build last (``[3C 5D] [AC 9D] [2H 3D 4S]``), and the browser drew them in that order,
    so the raised build jumped to the end of the row (a player's audit lost track of the builds); every view keeps
    it first, and a build taken leaves the others where they were."""
    from cassino.engine.core import Position

    with serving(tmp_path / "records") as s:
        table = s.new_table(["human"] * 4, variant="south-african-casino", you=0, partners=True)
        t = s.store.get(table["id"])
        engine = t.session.game.engine
        cards = lambda text: [engine.deck.parse(c) for c in text.split()]  # noqa: E731
        hand = engine.position(Position(
            players=4, to_play=0, dealer=3, partners=True, table=cards("7D"),
            hands={0: cards("3D 9H 5S"), 1: cards("6S 5H 7C"), 2: cards("8H 2D 2S"), 3: cards("10S 4H 4C")},
            builds=[(cards("2H 4S"), 6, 1), (cards("3C 5D"), 8, 2), (cards("AC 9D"), 10, 3)]))
        t.session.game = t.session.game.with_(hand=hand)
        with s.seat(table, 0) as me, s.seat(table, 3) as right, s.seat(table, None) as watcher:
            first = me.my_turn()
            assert [b["id"] for b in first["builds"]] == ["[2H 4S]", "[3C 5D]", "[AC 9D]"]
            me.move("3D build 9 on [2H 4S]")
            raised = me.until(lambda m: m["type"] == "state" and m["ply"] > first["ply"])
            assert [b["id"] for b in raised["builds"]] == ["[2H 3D 4S]", "[3C 5D]", "[AC 9D]"], raised["builds"]
            if raised["turn"] == 0:
                me.move("end")   # (a turn of several actions: ended by its player)
            raised = right.my_turn()
            assert [b["id"] for b in raised["builds"]] == ["[2H 3D 4S]", "[3C 5D]", "[AC 9D]"], raised["builds"]
            assert [(b["value"], b["owner"]) for b in raised["builds"]] == [(9, 0), (8, 2), (10, 3)]
            seen = watcher.until(lambda m: m["type"] == "state" and m["turn"] == 3)
            assert [b["id"] for b in seen["builds"]] == [b["id"] for b in raised["builds"]]
            right.move("10S capture [AC 9D]")
            taken = watcher.until(lambda m: m["type"] == "state" and len(m["builds"]) == 2)
            assert [b["id"] for b in taken["builds"]] == ["[2H 3D 4S]", "[3C 5D]"]


def test_a_whole_turn_typed_in_the_browser_that_leaves_nothing_to_build_says_the_turn_ended(tmp_path: Path) -> None:
    """(A player's audit of the terminal, session 92: a whole turn typed with `;` ended without the notice that one
    action at a time gets, "nothing left for your hand to build"; the browser's typed turn said nothing either.) Where
    the turn goes on by choice (the test above), nothing is said."""
    with serving(tmp_path / "records") as s:
        table, t = _swazi_turn_table(s, ("5S", "3D", "2C", "9C"))
        with s.seat(table, 0) as me:
            me.until(lambda m: m["type"] == "state")
            me.send({"type": "move", "text": "9D capture 9C; build 10 on 5S 3D 2C"})
            said = me.until(lambda m: m["type"] in ("info", "refused", "error"))
        assert said == {**said, "type": "info", "message": "Nothing left for your hand to build: your turn ended."}
        assert t.session.record.actions[-3:] == ["9D capture 9C", "build 10 on 2C 3D 5S", "end"]

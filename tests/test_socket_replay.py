"""The matrix's ``socket`` consumer (``cassino.apps.authors.socket_replay``): the computer players' game played
again at a real ``cassino serve``, every seat a person's page on its websocket. A slice of seatings passes (the
soak runs it in every one); a server that shows a hidden card, shows another position, leaves a legal move out
of a list it does not say is cut, plays another move than the one sent, or resumes a table without its last
action, fails it."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from cassino.apps.authors import matrix, socket_replay  # noqa: E402
from cassino.apps.authors.matrix import Budget, Seating, run  # noqa: E402
from cassino.apps.web import tables  # noqa: E402
from cassino.engine.notation import cards_text  # noqa: E402

from conftest import EXAMPLES  # noqa: E402

BUDGET = Budget(search=2, hint=2, search_width=3, search_close=0, consumers=("socket",))

#: Seatings whose first 30 actions are played again: turns of several actions (African Casino, with partners
#: too), six seats, two packs, Scopone's whole pack dealt; a house rule's claims over a whole game below.
SLICE = ["standard:2", "south-african-casino:3", "swazi-casino:4:partners", "tuxedo:6", "krypkasino:4:partners",
         "scopone:4:partners"]


def _clean(outcome: matrix.Outcome) -> None:
    assert not outcome.failures, "\n\n".join(f.text() for f in outcome.failures)
    assert outcome.calls.get("socket") == 1


@pytest.mark.parametrize("label", SLICE)
def test_a_hand_played_again_in_the_browser_is_the_game(label: str) -> None:
    outcome = run(Seating.parse(label), 95, replace(BUDGET, max_actions=30), rotation=1)
    _clean(outcome)
    assert outcome.actions == 30


def test_a_whole_game_with_claims_played_again_in_the_browser() -> None:
    seating = Seating(str(next(p for p in EXAMPLES if p.stem == "hoyle-claiming")), 2)
    outcome = run(seating, 5, replace(BUDGET, search=1, whole_game=True), rotation=1)
    _clean(outcome)
    assert outcome.actions > 48 and outcome.record[-1].startswith("claim")


def test_the_replay_hands_the_game_in_part_way_types_whole_turns_asks_warnings_and_restarts_the_server(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What a run does, seen from the server: over a few seeds some games are handed in part way, some turns of
    several actions are sent as one line, some moves' warnings are asked first, and the server starts again on its
    folder."""
    sent: list[tuple[str, str]] = []
    handed: list[int] = []
    starts: list[int] = []
    page_send, saved, served = socket_replay._Page.send, socket_replay._saved, socket_replay._Served.__init__

    def sending(self: Any, message: dict[str, Any]) -> None:
        sent.append((message["type"], message.get("text", "")))
        page_send(self, message)

    def saving(record: Any, actions: list[str]) -> str:
        handed.append(len(actions))
        return saved(record, actions)

    def serving(self: Any, folder: Any) -> None:
        starts.append(1)
        served(self, folder)

    monkeypatch.setattr(socket_replay._Page, "send", sending)
    monkeypatch.setattr(socket_replay, "_saved", saving)
    monkeypatch.setattr(socket_replay._Served, "__init__", serving)
    seating = Seating("south-african-casino", 3)
    played = run(seating, 0, replace(BUDGET, consumers=(), max_actions=20), rotation=0)   # (turns of several
    record = matrix.Run(seating, 0, BUDGET, 0).record                                     # actions at 8 and 17)
    for seed in range(8):
        assert socket_replay.replay_over_the_socket(record, list(played.record), seed) >= 1
    assert any(n > 0 for n in handed) and 0 in handed
    assert any(kind == "move" and ";" in text for kind, text in sent)
    assert any(kind == "warn" and ";" in text for kind, text in sent)     # (the warnings of a whole turn asked)
    assert any(kind == "warn" and ";" not in text for kind, text in sent)
    assert len(starts) > len(handed)


def test_a_move_the_table_was_too_busy_to_take_is_sent_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a person would: the table refuses it in words that say so (``tables.not_made``), and the run passes."""
    from functools import partial

    from cassino.apps.web import policy

    reading, slow, again = tables.read_typed, [2], {}
    close = socket_replay._Page.close

    def slow_reading(snap: Any, text: str) -> list[str]:
        if slow[0] > 0:           # (the first two moves read take longer than the browser waits)
            slow[0] -= 1
            time.sleep(0.3)
        return reading(snap, text)

    def closing(self: Any) -> None:
        again[id(self)] = self.again          # (a page is closed at the server's restart too)
        close(self)

    monkeypatch.setattr(tables, "read_typed", slow_reading)
    monkeypatch.setattr(policy, "Limits", partial(policy.Limits, wait_seconds=0.05))
    monkeypatch.setattr(socket_replay._Page, "close", closing)
    _clean(run(Seating("standard", 2), 3, replace(BUDGET, max_actions=12), rotation=1))
    assert sum(again.values()) == 2 and slow[0] == 0


def _fails(says: str, label: str = "standard:2", seed: int = 3, budget: Budget = replace(BUDGET, max_actions=12)) -> None:
    outcome = run(Seating.parse(label), seed, budget, rotation=1)
    assert [f.consumer for f in outcome.failures] == ["socket"], [f.text() for f in outcome.failures]
    assert says in outcome.failures[0].error, outcome.failures[0].error


def test_a_state_naming_a_hidden_card_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    state = tables.Table._state

    def peeking(self: Any, seat: int | None, game: Any, *args: Any, **kw: Any) -> dict[str, Any]:
        view = state(self, seat, game, *args, **kw)
        h = game.hand
        view["peek"] = cards_text(game.engine.deck, h.hands[(h.turn + 1) % h.players])
        return view

    monkeypatch.setattr(tables.Table, "_state", peeking)
    _fails("naming hidden cards")


def test_a_state_of_another_position_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    state = tables.Table._state

    def short(self: Any, *args: Any, **kw: Any) -> dict[str, Any]:
        view = state(self, *args, **kw)
        view["loose"] = view["loose"][1:]
        return view

    monkeypatch.setattr(tables.Table, "_state", short)
    _fails("is shown loose")


def test_a_list_of_moves_short_of_one_and_not_said_cut_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    offered = tables.offered_moves

    def fewer(*args: Any, **kw: Any) -> tables.Offered:
        found = offered(*args, **kw)
        return replace(found, moves=found.moves[:-1]) if len(found.moves) > 1 else found

    monkeypatch.setattr(tables, "offered_moves", fewer)
    _fails("not offered")


def test_a_table_that_plays_another_move_than_the_one_sent_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    read = tables.read_typed

    def misread(snap: Any, text: str) -> list[str]:
        actions = read(snap, text)
        moves = snap.game.engine.playable_moves(snap.game.hand)
        first = tables.format_move(moves[0], snap.game.engine.deck)
        return [tables.format_move(moves[-1], snap.game.engine.deck)] if actions == [first] and len(moves) > 1 \
            else [first]

    monkeypatch.setattr(tables, "read_typed", misread)
    _fails("action")


def test_warnings_that_refuse_a_legal_move_are_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = tables.warnings_answer

    def refusing(snap: Any, text: str, hinted: str | None = None) -> dict[str, Any]:
        return answer(snap, text, hinted) | {"move": None, "refused": "no such move"}

    monkeypatch.setattr(tables, "warnings_answer", refusing)
    failed = [run(Seating("standard", 2), seed, replace(BUDGET, max_actions=12), rotation=1).failures
              for seed in range(4)]
    assert any(failed) and all(f.consumer == "socket" and "refuse it: 'no such move'" in f.error
                               for found in failed for f in found)


def test_a_restart_that_loses_the_last_action_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    from cassino.apps.game.records import apply_action

    loaded = tables.load_game

    def forgetful(path: Any) -> Any:
        """A table resumed from its record without the last action written."""
        record, game = loaded(path)
        if record.actions:
            record.actions.pop()
            game = record.new_game()
            for action in record.actions:
                game = apply_action(game, action)
        return record, game

    monkeypatch.setattr(tables, "load_game", forgetful)
    failed = [run(Seating("standard", 2), seed, replace(BUDGET, max_actions=12), rotation=1).failures
              for seed in range(4)]
    assert any(failed) and all(f.consumer == "socket" and "the server started again on its folder with the table at"
                               in f.error for found in failed for f in found)


def test_unchanged_the_same_runs_pass() -> None:
    _clean(run(Seating("standard", 2), 3, replace(BUDGET, max_actions=12), rotation=1))


def test_hints_asked_at_a_turn_are_legal_moves_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some pages ask a hint before some of their moves, as a person presses the button: each is answered for the
    position asked at, with a legal move there (turns of several actions included), and the game goes on."""
    given: list[dict[str, Any] | None] = []
    hinted = socket_replay._Page.hinted

    def counting(self: Any, game: Any, check: Any, action: int) -> dict[str, Any] | None:
        given.append(hinted(self, game, check, action))
        return given[-1]

    monkeypatch.setattr(socket_replay._Page, "hinted", counting)
    monkeypatch.setattr(socket_replay, "HINT_SHARE", 1.0)     # (a hinting page asks at every turn here)
    for seed in range(3):
        _clean(run(Seating("south-african-casino", 2), seed, replace(BUDGET, max_actions=16), rotation=1))
    moves = [g["text"] for g in given if g is not None]
    assert len(moves) >= 4 and any(text != "end" for text in moves), given


def _answering(monkeypatch: pytest.MonkeyPatch, answer: Any) -> None:
    """The table's hints replaced by ``answer(game)``: the message a page is sent at once for its hint."""
    def ask(self: Any, client: Any, seat: int) -> None:
        game = self.session.game
        self.post(client, {"type": "hint", "hand_no": game.hand_no, "ply": game.hand.ply, "message": None,
                           **answer(game)}, game.hand)

    monkeypatch.setattr(tables.Table, "ask_hint", ask)
    monkeypatch.setattr(socket_replay, "HINT_SHARE", 1.0)


def _hint_fails(says: str) -> None:
    failed = [f for seed in range(6) for f in run(Seating("standard", 2), seed, replace(BUDGET, max_actions=8),
                                                  rotation=1).failures]
    assert failed and all(f.consumer == "socket" and says in f.error for f in failed), [f.error for f in failed]


def test_a_hint_of_an_illegal_move_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def theirs(game: Any) -> dict[str, Any]:        # (a card of the next seat's hand trailed)
        h = game.hand
        card = cards_text(game.engine.deck, h.hands[(h.turn + 1) % h.players])[0]
        return {"move": {"text": f"{card} trail"}}

    _answering(monkeypatch, theirs)
    _hint_fails("is illegal here")


def test_a_hint_for_another_position_or_without_a_move_for_no_limit_is_a_failure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _answering(monkeypatch, lambda game: {"move": None, "ply": game.hand.ply + 1})
    _hint_fails("and was answered for hand")
    _answering(monkeypatch, lambda game: {"move": None, "message": "the server could not work out a hint (a bug)"})
    _hint_fails("asked a hint and was told 'the server could not work out a hint (a bug)'")
    _answering(monkeypatch, lambda game: {"move": None, "message": socket_replay.GIVEN_UP + " it took too long"})
    for seed in range(2):                            # (a limit met: said so, and not a failure)
        _clean(run(Seating("standard", 2), seed, replace(BUDGET, max_actions=8), rotation=1))

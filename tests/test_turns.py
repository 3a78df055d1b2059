"""Turns of several actions (``build.free_actions``, issue 49): the Khasino rules' "Your turn can consist several
actions, in any order. At some point during your turn you must play exactly one card from your hand ... As long
as no card from your hand is involved, you can perform as many of actions 2 and 4 as you wish in any order,
before or after playing from your hand".

A turn is played as steps of one player: builds of cards in play alone (``build 10 on 5S 3D 2C``, no card
first), one action with a card from the hand, and ``end`` once that card is played (the engine ends the turn
itself once no card is left in play to build with, or in hand to build for). Checked here through the engine, the notation, ``cassino check``, the
terminal felt, the browser's server and page, and the research steps (OpenSpiel and PettingZoo), with the
hostile cases of each new input."""

from __future__ import annotations

import random
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from cassino.engine.core import Engine, Position
from cassino.engine.moves import IllegalMoveError, Move, MoveKind, MoveSyntaxError
from cassino.engine.notation import format_move, format_turn, parse_move, parse_turn
from cassino.engine.state import HandState
from cassino.language.variants import load_rules

AFRICAN = ("swazi-casino", "south-african-casino")


def _engine(name: str = "swazi-casino") -> Engine:
    return Engine(load_rules(name))


def _khasino_table(engine: Engine, extra: tuple[str, ...] = ()) -> HandState:
    """[Kh] 2.'s example (a 5, a 3 and a 2 in the layout, a 10 in hand) with a 9 to capture; three players, so
    a build's owner may discard; seat 0 to play (Swazi Casino plays anticlockwise: seat 2 is next)."""
    card = engine.deck.parse
    return engine.position(Position(
        players=3, to_play=0, dealer=1,
        hands={0: [card(c) for c in ("10H", "9D", "KD")], 1: [card("QS"), card("4H")], 2: [card("QH"), card("4S")]},
        table=[card(c) for c in ("5S", "3D", "2C", "9C", *extra)]))


def _king_left(engine: Engine) -> HandState:
    """9D takes 9C; the KD left in hand can build with nothing in play (the 5S): `end` is then the only move."""
    card = engine.deck.parse
    return engine.position(Position(
        players=3, to_play=0, dealer=1, hands={0: [card("9D"), card("KD")], 1: [card("QS")], 2: [card("QH")]},
        table=[card("9C"), card("5S")]))


def _texts(engine: Engine, state: HandState) -> list[str]:
    return [format_move(m, engine.deck) for m in engine.legal_moves(state)]


# ---------------------------------------------------------------------- the engine
def test_builds_of_cards_in_play_are_listed_beside_the_hands_moves_and_keep_the_turn() -> None:
    engine = _engine()
    state = _khasino_table(engine)
    texts = _texts(engine, state)
    assert "build 10 on 2C 3D 5S" in texts and "9D capture 9C" in texts
    assert "end" not in texts                                   # the hand's card is still to play
    assert not any("trail build" in t for t in texts)           # replaced by the steps
    after = engine.play(state, parse_move("build 10 on 5S 3D 2C", engine.deck))
    assert after.turn == 0 and after.turn_card == 0 and after.hands == state.hands
    assert [b.value for b in after.builds] == [10] and after.builds[0].owner == 0


def test_after_the_hand_card_the_turn_goes_on_while_a_build_is_left_then_ends() -> None:
    engine = _engine()
    state = _khasino_table(engine, ("6H", "4C"))
    captured = engine.play(state, parse_move("9D capture 9C", engine.deck))
    assert captured.turn == 0 and captured.turn_card == engine.deck.mask([engine.deck.parse("9D")])
    texts = _texts(engine, captured)
    assert "end" in texts and all(t == "end" or t.startswith("build ") for t in texts)
    ended = engine.play(captured, parse_move("end", engine.deck))
    assert ended.turn == 2 and ended.turn_card == 0
    # The turn goes on while cards are in play, whether or not the hand can build with them: a turn that
    # ended by itself would tell the others the hand holds nothing to build for. With none left, it ends.
    card = engine.deck.parse
    small = engine.position(Position(players=3, to_play=0, dealer=1, hands={0: [card("9D"), card("KD")],
                                     1: [card("QS")], 2: [card("QH")]}, table=[card("9C"), card("5S")]))
    open_turn = engine.play(small, parse_move("9D capture 9C", engine.deck))
    assert open_turn.turn == 0 and _texts(engine, open_turn) == ["end"]
    bare = small.with_(table=engine.deck.mask([card("9C")]))
    alone = engine.play(bare, parse_move("9D capture 9C", engine.deck))
    assert alone.turn == 2 and alone.turn_card == 0
    # The hand's last card: no card is left in hand to build for (its size every seat sees); it ends too.
    last = small.with_(hands=(engine.deck.mask([card("9D")]),) + small.hands[1:])
    gone = engine.play(last, parse_move("9D capture 9C", engine.deck))
    assert gone.turn == 2 and gone.turn_card == 0


def test_a_whole_turn_plays_its_actions_in_order_and_ends_itself() -> None:
    engine = _engine()
    state = _khasino_table(engine, ("6H", "4C"))
    steps = parse_turn("build 10 on 5S 3D 2C; 9D capture 9C; build 10 on [5S 3D 2C] 6H 4C", engine.deck, True)
    assert engine.turn_refusal(state, steps) is None
    after = engine.play_turn(state, steps)
    assert after.turn == 2 and after.turn_card == 0
    assert [sorted(str(c) for c in engine.deck.cards_of(b.cards)) for b in after.builds] == \
        [["2C", "3D", "4C", "5S", "6H"]]
    # Step by step, the same state.
    one = state
    for step in steps:
        one = engine.play(one, step)
    assert engine.close_turn(one) == after


def test_a_refused_turn_names_its_action_and_changes_nothing() -> None:
    engine = _engine()
    state = _khasino_table(engine)
    steps = parse_turn("9D capture 9C; KD trail", engine.deck, True)
    reason = engine.turn_refusal(state, steps)
    assert reason is not None and reason.startswith("action 2 of 2: KD trail: you played 9D")
    with pytest.raises(IllegalMoveError, match="action 2 of 2"):
        engine.play_turn(state, steps)
    assert "a turn ends only after its one card from the hand" in engine.why_illegal(state, Move(MoveKind.END, 0))


def test_a_second_hand_card_after_a_card_that_ended_the_turn_is_said_as_such() -> None:
    """A capture that leaves nothing to build ends the turn at once; a second card typed after it was answered "the
    turn passed to seat 1 after action 1", which a player's audit read as action 1 played. It now says the turn plays
    one hand card, which one ended it, and that nothing was played."""
    engine = _engine("south-african-casino")
    d = engine.deck
    state = engine.position(Position(players=2, hands={0: [d.parse("9D"), d.parse("3H")],
                                                       1: [d.parse("4H"), d.parse("5H")]}, table=[d.parse("9C")]))
    steps = parse_turn("9D capture 9C; 3H trail", d, True)
    assert engine.turn_refusal(state, steps) == ("action 2 of 2: a turn plays one card from the hand, and action 1 "
                                                 "played 9D, which ended the turn; nothing of this turn was played")
    with pytest.raises(IllegalMoveError, match="nothing of this turn was played"):
        engine.play_turn(state, steps)



@pytest.mark.parametrize("name", ["standard", *AFRICAN])
def test_a_turn_of_no_action_is_refused(name: str) -> None:
    """``play_turn(state, [])`` gave the state back unchanged, the same seat still to play: a pass no rule allows."""
    engine = Engine(load_rules(name))
    state = engine.start(seed=3, players=2)
    with pytest.raises(IllegalMoveError, match="a turn has at least one action"):
        engine.play_turn(state, [])


@pytest.mark.parametrize("name", AFRICAN)
@pytest.mark.parametrize("players, partners", [(2, None), (3, None), (4, True)])
def test_random_games_hold_one_hand_card_a_turn_and_end_every_turn(name: str, players: int,
                                                                   partners: bool | None) -> None:
    """Random play of whole hands: between two changes of the seat to play, exactly one card leaves the
    mover's hand; builds of cards in play never change a hand; `end` is listed exactly when the turn's card is
    played; every build keeps a card of its value in its holder's hand (or is the partner's proven value)."""
    engine = _engine(name)
    free = ends = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = engine.start(seed, players, partners=partners)
        played_this_turn = 0
        while not state.over:
            moves = engine.legal_moves(state)
            listed_end = any(m.kind is MoveKind.END for m in moves)
            assert listed_end == bool(state.turn_card)
            move = rng.choice(moves)
            after = engine.apply(state, move)
            if move.kind is MoveKind.BUILD and not move.played:
                free += 1
                assert after.hands == state.hands and after.turn == state.turn
            if move.kind is MoveKind.END:
                ends += 1
            played_this_turn += bin(move.played).count("1")
            if after.over or after.deal_no != state.deal_no or after.turn != state.turn:
                assert played_this_turn == 1
                played_this_turn = 0
            else:
                assert played_this_turn <= 1
            state = after
    assert free > 0 and ends > 0


@pytest.mark.parametrize("name", AFRICAN)
@pytest.mark.parametrize("players, partners", [(2, None), (3, None), (4, True)])
def test_whether_a_turn_goes_on_tells_nothing_of_the_hand(name: str, players: int, partners: bool | None) -> None:
    """After the hand's card, whether the turn stays with the player (so that they say `end`) or passes by
    itself depends only on what every seat sees: the same move with the rest of the hand swapped for other
    cards the others cannot see (as many) keeps or passes the turn alike. Random play, every seating."""
    engine = _engine(name)
    compared = kept = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = engine.start(seed, players, partners=partners)
        while not state.over:
            moves = engine.legal_moves(state)
            move = rng.choice(moves)
            seat = state.turn
            rest = state.hands[seat] & ~move.played
            others = [o for o in range(state.players) if o != seat]
            pool = [(o, i) for o in others for i in range(engine.n_cards) if state.hands[o] >> i & 1]
            if move.played and rest and len(pool) >= rest.bit_count():
                # The rest of the hand swapped, card for card, with cards of the other hands.
                hands = list(state.hands)
                hands[seat] = move.played
                given = [i for i in range(engine.n_cards) if rest >> i & 1]
                for (o, i), mine in zip(rng.sample(pool, len(given)), given):
                    hands[seat] |= 1 << i
                    hands[o] = hands[o] & ~(1 << i) | 1 << mine
                other_deal = state.with_(hands=tuple(hands))
                if engine.is_legal(other_deal, move):
                    compared += 1
                    goes_on = engine.apply(state, move).turn == seat
                    kept += goes_on
                    assert (engine.apply(other_deal, move).turn == seat) == goes_on
            state = engine.apply(state, move)
    assert compared > 20 and kept > 0


# ---------------------------------------------------------------------- the notation
def test_the_notation_reads_and_writes_builds_of_cards_in_play_end_and_turns() -> None:
    deck = _engine().deck
    move = parse_move("BUILD 10 on 5s 3d 2c", deck)
    assert move.kind is MoveKind.BUILD and move.played == 0 and format_move(move, deck) == "build 10 on 2C 3D 5S"
    assert parse_move("end", deck).kind is MoveKind.END and format_move(parse_move("End", deck), deck) == "end"
    steps = parse_turn("build 10 on 5S 3D 2C ; 9D capture 9C; end", deck, True)
    assert [format_move(m, deck) for m in steps] == ["build 10 on 2C 3D 5S", "9D capture 9C", "end"]
    assert format_turn(steps, deck) == "build 10 on 2C 3D 5S; 9D capture 9C"
    # The trail-and-build house rule's words, in a turn of several actions: the discard, then the build.
    split = parse_turn("KD trail build 10 on 5S 3D 2C", deck, True)
    assert [format_move(m, deck) for m in split] == ["KD trail", "build 10 on 2C 3D 5S"]
    assert parse_turn("KD trail build 10 on 5S 3D 2C", deck)[0].kind is MoveKind.TRAIL_BUILD


@pytest.mark.parametrize("text, words", [
    ("9D capture 9C;", "an empty action"),
    ("; 9D capture 9C", "an empty action"),
    ("9D capture 9C; ZZ trail", "ZZ"),
    ("9D capture 9C; build on 5S", "a number"),
    ("end trail", "unexpected"),
    ("build 10", "ends too soon"),
])
def test_a_turn_that_cannot_be_read_says_where(text: str, words: str) -> None:
    with pytest.raises(MoveSyntaxError) as e:
        parse_turn(text, _engine().deck, True)
    assert words in str(e.value) and "^" in str(e.value)


def test_variants_without_the_setting_refuse_the_new_words_with_the_reason() -> None:
    engine = _engine("standard")
    state = engine.start(1, 2)
    build = parse_move("build 10 on 5S 3D 2C", engine.deck)
    assert not engine.is_legal(state, build)
    assert "every move plays a card from the hand" in engine.why_illegal(state, build)
    assert "there is no turn to end" in engine.why_illegal(state, parse_move("end", engine.deck))
    assert not any(not m.played for m in engine.legal_moves(state))


# ---------------------------------------------------------------------- cassino check
def test_check_reads_turns_in_moves_legal_and_illegal(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "turns.yaml"
    path.write_text("""variant: swazi-casino
players: 3
cases:
  - name: a turn of two actions, then the next seat
    hand: [10H, 9D, KD]
    hands: {1: [QS, 4H], 2: [QH, 4C]}
    table: [5S, 3D, 2C, 9C]
    moves: ["build 10 on 5S 3D 2C; 9D capture 9C", "QH trail"]
    expect:
      legal: ["QS trail"]
  - name: one card from the hand a turn
    hand: [10H, 9D, KD]
    hands: {1: [QS, 4H], 2: [QH, 4C]}
    table: [5S, 3D, 2C, 9C]
    expect:
      legal: ["build 10 on 5S 3D 2C; 9D capture 9C"]
      illegal: [{move: "9D capture 9C; KD trail", reason: "a turn plays one card from the hand"}]
""", encoding="utf-8")
    code, out, err = cli("check", str(path))
    assert code == 0, out + err
    assert "2 passed, 0 failed" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text(path.read_text(encoding="utf-8").replace('"QH trail"', '"QH trail; QS trail"'), encoding="utf-8")
    code, out, err = cli("check", str(bad))
    assert code == 1 and "is refused (action 2): QS trail: you played QH" in out and "Traceback" not in out + err


# ---------------------------------------------------------------------- the terminal felt
def _session(tmp_path: Path, typed: list[str]) -> tuple[Any, StringIO]:
    from rich.console import Console

    from cassino.apps.game.play import start_session
    from cassino.apps.game.records import Record

    out = StringIO()
    lines = iter(typed)
    record = Record(load_rules("swazi-casino"), 3, 3, False, ["human", "greedy", "greedy"], source="swazi-casino")
    session = start_session(record, tmp_path / "g.json", Console(file=out, width=200, highlight=False),
                            read=lambda _: next(lines))
    session.game = session.game.with_(hand=_khasino_table(session.game.engine, ("6H", "4C")))
    return session, out


def test_the_terminal_plays_a_typed_turn_as_its_actions_and_ends_it(tmp_path: Path) -> None:
    session, out = _session(tmp_path, ["9D capture 9C; KD trail", "end",
                                       "build 10 on 5S 3D 2C; 9D capture 9C", "quit"])
    assert session.human_turn(0) is True
    screen = out.getvalue()
    assert "action 2 of 2: KD trail: you played 9D" in screen             # refused whole: nothing played
    assert "a turn ends only after its one card from the hand" in screen
    assert session.record.actions == ["build 10 on 2C 3D 5S", "9D capture 9C", "end"]
    assert session.game.hand.turn == 2


def test_the_terminal_plays_one_action_at_a_time_says_the_turn_goes_on_and_undoes_one(tmp_path: Path) -> None:
    session, out = _session(tmp_path, ["9D capture 9C", "quit"])
    assert session.human_turn(0) is True
    assert session.game.hand.turn == 0 and session.game.hand.turn_card
    session.show(0)
    assert "your turn goes on: you played 9D from your hand; build with cards in play, or type end" in out.getvalue()
    assert "end" in [format_move(m, session.game.engine.deck) for m in session.listed_moves()[0]]
    assert "`build 10 on" in session.help_text()


def test_a_misspelt_end_or_command_is_answered_with_what_was_meant(tmp_path: Path) -> None:
    """A player's audit typed `ned` and `done` where the turn goes on, and was told only what a move looks like."""
    session, out = _session(tmp_path, ["helpp", "9D capture 9C", "ned", "done", "pass", "end", "quit"])
    assert session.human_turn(0) is True and session.game.hand.turn_card
    assert session.human_turn(0) is True
    screen = out.getvalue()
    assert "'helpp' is not a move or a command (did you mean `help`?)" in screen
    for typed in ("ned", "done", "pass"):
        assert f"'{typed}' is not a move or a command (did you mean `end`?)" in screen, screen
    assert session.record.actions[-2:] == ["9D capture 9C", "end"]


def _free_build_turn_record() -> list[str]:
    """The actions of a Swazi Casino game for three (seed 1) up to the end of seat 0's first turn that builds
    with cards in play before its hand card: seat 0 makes such a build wherever one is open at a turn's start,
    every other action the greedy player's."""
    from cassino.engine.game import Game
    from cassino.players.bots import make_bot

    engine = Engine(load_rules("swazi-casino"))
    game = Game.new(engine, 1, 3, False)
    bots = [make_bot("greedy", 1 + s) for s in range(3)]
    actions: list[str] = []
    turn: list[str] = []
    while not game.over:
        seat = game.hand.turn
        free = [m for m in game.legal_moves() if not m.played and m.kind is MoveKind.BUILD]
        move = free[0] if seat == 0 and not turn and free else bots[seat].choose(game, seat)
        actions.append(format_move(move, engine.deck))
        game = game.play(move)
        if seat == 0:
            turn.append(actions[-1])
            if game.hand.turn != 0:
                if len(turn) >= 3 and turn[0].startswith("build"):
                    return actions
                turn = []
    raise AssertionError("no turn of several actions in the game")


def test_the_last_turns_of_a_hand_log_are_its_turns_whole() -> None:
    """What the browser's seats show as `last`, from the hand's log alone: a turn's actions joined, its `end` left
    out, a turn the game ended with no `end` (the card took the last card in play) ended all the same by the next
    seat's action; where a turn is one action, each seat's last action."""
    from cassino.apps.game.summary import last_turns

    log = [(0, "build 8 on 3C 5S 8C"), (0, "KD capture [AS QS KH]"), (0, "end"), (1, "3H trail"), (1, "end"),
           (2, "4S capture [AH 3C]"), (0, "2C trail"), (0, "end"), (1, "build 9 on 4D 5H"), (1, "9C capture 9D")]
    assert last_turns(log, True) == {0: "2C trail", 1: "build 9 on 4D 5H; 9C capture 9D", 2: "4S capture [AH 3C]"}
    assert last_turns(log[:3], True) == {0: "build 8 on 3C 5S 8C; KD capture [AS QS KH]"}
    assert last_turns(log, False)[1] == "9C capture 9D"
    assert last_turns([(1, "3H trail"), (1, "claims the game")], True) == {1: "claims the game"}


def test_the_table_shows_each_seats_last_turn_whole_also_after_undo_and_resume(tmp_path: Path) -> None:
    """A turn of several actions is shown as its actions (`last: build ...; KD capture ...`), not as its `end`
    (a player's audit saw "last: end" beside every seat); in a resumed game the same, and after an undo what is
    left of the turn (the audit saw every `last:` vanish)."""
    from cassino.apps.game.records import Record
    from cassino.apps.game.session import GameSession

    actions = _free_build_turn_record()
    build, card, end = actions[-3:]
    assert build.startswith("build") and end == "end"
    record = Record(load_rules("swazi-casino"), 1, 3, False, ["human", "greedy", "greedy"], actions=actions)
    session = GameSession.open(record, tmp_path / "g.json")
    assert session.last_moves[0] == f"{build}; {card}" and session.hand_actions[-1] == (0, "end")
    assert all(text != "end" for text in session.last_moves.values())
    session.undo(0)                          # (the card taken back: the turn's build stands, the turn goes on)
    assert session.last_moves[0] == build and session.hand_actions[-1] == (0, build)
    session.act(card)
    session.act("end")
    assert session.last_moves[0] == f"{build}; {card}"


def test_the_terminal_ends_by_itself_a_turn_whose_only_move_is_end(tmp_path: Path) -> None:
    """Cards are in play but the hand (KD) can build with none of them: `end` is the only move, so the terminal
    plays it and says so, with no question (the engine does not end the turn itself: the others would learn
    what the hand holds)."""
    session, out = _session(tmp_path, ["9D capture 9C", "quit"])
    session.game = session.game.with_(hand=_king_left(session.game.engine))
    assert session.human_turn(0) is True and session.game.hand.turn == 0
    assert session.human_turn(0) is True
    assert session.game.hand.turn == 2 and session.record.actions == ["9D capture 9C", "end"]
    assert "nothing left for your hand to build: your turn ends" in out.getvalue()


# ---------------------------------------------------------------------- the browser
pytest.importorskip("starlette")
from web_helpers import serving  # noqa: E402


def test_the_server_lists_builds_of_cards_in_play_and_end_in_words(tmp_path: Path) -> None:
    with serving(tmp_path / "records") as s:
        table = s.new_table(["human", "human", "human"], variant="swazi-casino")
        t = s.store.get(table["id"])
        t.session.game = t.session.game.with_(hand=_khasino_table(t.session.game.engine, ("6H", "4C")))
        with s.seat(table, 0) as me:
            state = me.my_turn()
            free = next(m for m in state["moves"] if m["text"] == "build 10 on 2C 3D 5S")
            assert free["played"] == [] and free["kind"] == "build"
            assert "no card from your hand" in free["words"]


@contextmanager
def _seat_zero_page(tmp_path: Path, position: Callable[[Engine], HandState]) -> Iterator[tuple[Any, Any]]:
    """A Swazi table of three people at ``position`` (of the table's engine), opened by seat 0 in chromium:
    the page at its turn, and the table (its session and record)."""
    pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extra")
    from playwright.sync_api import sync_playwright
    from test_web_browser import CHROMIUM_ARGS, chromium_binary, new_page

    binary = chromium_binary()
    if binary is None:
        pytest.skip("no chromium binary: install Debian's chromium (apt-get install chromium), as .ci/run does")
    with serving(tmp_path / "records") as s, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=binary, args=CHROMIUM_ARGS)
        table = s.new_table(["human", "human", "human"], variant="swazi-casino")
        t = s.store.get(table["id"])
        t.session.game = t.session.game.with_(hand=position(t.session.game.engine))
        page = new_page(browser, 1000, 900)
        page.goto(s.url + table["links"]["seats"]["0"])
        page.wait_for_selector("body.my-turn")
        yield page, t
        assert page.script_errors == []
        browser.close()


def test_the_browser_builds_with_table_cards_alone_then_plays_and_ends_the_turn(tmp_path: Path) -> None:
    from cassino.apps.game.records import load_record

    with _seat_zero_page(tmp_path, lambda engine: _khasino_table(engine, ("6H", "4C"))) as (page, t):
        for item in ("5S", "3D", "2C"):
            page.click(f'#felt [data-id="{item}"]')
        choice = page.locator("#choices button.choice")
        assert choice.count() == 1 and choice.first.get_attribute("data-move") == "build 10 on 2C 3D 5S"
        position = page.locator("body").get_attribute("data-position")
        choice.first.click()
        page.wait_for_selector(f'body:not([data-position="{position}"])')
        page.wait_for_selector("body.my-turn")
        page.click('#hand [data-id="9D"]')
        page.click('#felt [data-id="9C"]')
        choice = page.locator('#choices button.choice[data-move="9D capture 9C"]')
        position = page.locator("body").get_attribute("data-position")
        choice.first.click()
        page.wait_for_selector(f'body:not([data-position="{position}"])')
        end = page.locator('#choices button.choice[data-move="end"]')
        end.wait_for()
        position = page.locator("body").get_attribute("data-position")
        end.click()
        page.wait_for_selector(f'body:not([data-position="{position}"])')
        assert load_record(t.session.save_path).actions[-3:] == ["build 10 on 2C 3D 5S", "9D capture 9C", "end"]


def test_the_browser_ends_by_itself_a_turn_whose_only_move_is_end(tmp_path: Path) -> None:
    """As the terminal: after 9D capture 9C the page plays `end` itself and says so once the turn has passed."""
    from cassino.apps.game.records import load_record

    with _seat_zero_page(tmp_path, _king_left) as (page, t):
        page.click('#hand [data-id="9D"]')
        page.click('#felt [data-id="9C"]')
        page.locator('#choices button.choice[data-move="9D capture 9C"]').first.click()
        page.wait_for_selector("body:not(.my-turn)")
        page.locator("#message", has_text="your turn ended").wait_for()
        assert load_record(t.session.save_path).actions[-2:] == ["9D capture 9C", "end"]
        assert t.session.game.hand.turn == 2


# ---------------------------------------------------------------------- the research steps
def test_a_turn_is_several_steps_of_one_player_in_the_research_steps() -> None:
    from cassino.apps.research.stepwise import Setup, Step, table_for

    table = table_for(Setup(variant="swazi-casino", players=3))
    engine = table.engine
    step = Step.at(table, _khasino_table(engine, ("6H", "4C")))
    enc = table.encoding
    words = {a: step.describe(a) for a in step.legal}
    assert enc.KIND + 2 in step.legal and words[enc.KIND + 2] == "build"   # a build with no hand card
    for action in table.encoding.sequence(step.hand, parse_move("build 10 on 5S 3D 2C", engine.deck)):
        if step.hand.ply == 0 and action in step.legal:
            step = step.apply(action)
    assert step.to_play == 0 and step.hand.ply == 1 and len(step.hand.builds) == 1
    for action in table.encoding.sequence(step.hand, parse_move("9D capture 9C", engine.deck)):
        if step.hand.ply == 1 and action in step.legal:
            step = step.apply(action)
    assert step.to_play == 0 and step.hand.turn_card                   # the turn goes on: its end is offered
    assert step.describe(enc.KIND) == "end the turn" and enc.KIND in step.legal
    step = step.apply(enc.KIND)
    assert step.to_play == 2


def test_openspiel_and_pettingzoo_play_whole_african_games_with_turns_of_several_steps() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import cassino.openspiel  # noqa: F401  (registers python_cassino)

    game = pyspiel.load_game("python_cassino", {"variant": "swazi-casino", "players": 3})
    rng = random.Random(5)
    repeats = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        player = state.current_player()
        state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and not state.is_chance_node() and state.current_player() == player:
            repeats += 1
    assert repeats > 0 and len(state.returns()) == 3

    from cassino.pettingzoo import env as make_env

    e = make_env(variant="south-african-casino", players=2)
    e.reset(seed=3)
    steps = 0
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, term, trunc, _ = e.last()
        action = None if term or trunc else int(random.Random(steps).choice(
            [a for a, ok in enumerate(obs["action_mask"]) if ok]))
        e.step(action)
        steps += 1
    assert steps > 20 and all(e.terminations.values()) or all(e.truncations.values())

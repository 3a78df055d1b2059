"""`cassino play`, records, replay and simulate, driven through the command line as a player would."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from typing import Any

import pytest

from cassino.apps.game.records import load_record, replay

from conftest import ROOT


def run(args: list[str], stdin: str = "", cwd: Path | None = None, timeout: int = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def test_whole_game_against_a_bot_and_the_record_replays(tmp_path: Path) -> None:
    result = run(["play", "standard", "--seed", "5", "--save", "g.json"], stdin="1\n" * 400, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wins" in result.stdout and "final scores" in result.stdout
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["result"]["over"] is True
    assert record["variant"]["rules"]["name"] == "standard"
    rep = run(["replay", "g.json"], cwd=tmp_path)
    assert rep.returncode == 0 and "game over" in rep.stdout


def test_bad_input_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    lines = ["bogus", "99", "0", "ZZ trail", "2C build 99 on 3H", "AS capture", ""]
    result = run(["play", "standard", "--seed", "11", "--save", "g.json"], stdin="\n".join(lines) + "\n", cwd=tmp_path)
    assert result.returncode == 0
    out = result.stdout
    assert "is not a move or a command" in out
    assert "there is no move 99" in out and "there is no move 0" in out
    assert "ends too soon" in out
    assert "Traceback" not in out + result.stderr
    record = json.loads((tmp_path / "g.json").read_text())
    # Only the computer's opening move (seat 1 leads) is recorded: no bad input changed the game.
    assert len(record["actions"]) == 1


def test_the_resume_command_said_is_one_a_shell_runs_for_a_file_name_with_a_space(tmp_path: Path) -> None:
    """A player's audit pasted `cassino play --resume sp ace.json` from the game's own words, which the shell read
    as two arguments: every line that says how to continue quotes the file where it needs it."""
    import shlex

    first = run(["play", "standard", "--seed", "3", "--save", "sp ace.json"], stdin="quit\n", cwd=tmp_path)
    said = [line.split("continue with: ", 1)[1] for line in first.stdout.splitlines() if "continue with: " in line]
    assert said and all(shlex.split(command)[-1] == "sp ace.json" for command in said), first.stdout
    again = run(shlex.split(said[-1])[1:], stdin="quit\n", cwd=tmp_path)
    assert again.returncode == 0 and "Traceback" not in again.stdout + again.stderr, again.stderr


def test_end_of_input_saves_and_resume_continues_the_same_game(tmp_path: Path) -> None:
    first = run(["play", "royal", "--seed", "3", "--save", "a.json"], stdin="1\n1\n1\n", cwd=tmp_path)
    assert first.returncode == 0 and "end of input" in first.stdout
    saved = load_record(tmp_path / "a.json")
    assert len(saved.actions) >= 6
    resumed = run(["play", "--resume", "a.json"], stdin="1\n" * 400, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    final = load_record(tmp_path / "a.json")
    assert final.actions[: len(saved.actions)] == saved.actions
    # The same game: playing the same answers in one sitting gives the same record.
    straight = run(["play", "royal", "--seed", "3", "--save", "b.json"], stdin="1\n" * 403, cwd=tmp_path)
    assert straight.returncode == 0
    assert load_record(tmp_path / "b.json").actions == final.actions
    assert replay(final).over


def test_undo_takes_back_a_move(tmp_path: Path) -> None:
    result = run(["play", "standard", "--seed", "8", "--save", "u.json"], stdin="1\nundo\n", cwd=tmp_path)
    assert "took back your last move" in result.stdout
    record = load_record(tmp_path / "u.json")
    assert len(record.actions) == 1          # back to just the computer's opening move


def test_undo_goes_back_past_an_end_the_game_played_for_you(tmp_path: Path) -> None:
    """Swazi Casino, seed 1: KS trailed leaves the hand nothing to build, so the game plays `end` for the player.
    Undo takes back the card too: taking back only the `end` had the game play it again at once, and each undo
    "took back" nothing (a documentation audit)."""
    before = run(["play", "swazi-casino", "--seed", "1", "--save", "a.json"], stdin="KS trail\nquit\n", cwd=tmp_path)
    assert "nothing left for your hand to build: your turn ends" in before.stdout
    played = load_record(tmp_path / "a.json").actions
    assert played[-4:-2] == ["KS trail", "end"]
    result = run(["play", "swazi-casino", "--seed", "1", "--save", "u.json"], stdin="KS trail\nundo\nundo\nquit\n",
                 cwd=tmp_path)
    assert result.stdout.count("took back your last move") == 1
    assert "nothing to undo" in result.stdout            # it was the player's first move
    record = load_record(tmp_path / "u.json")
    assert "KS trail" not in record.actions
    game = replay(record)
    assert game.hand.turn == 0 and "KS" in format_cards(game)


def format_cards(game) -> list[str]:  # type: ignore[no-untyped-def]
    from cassino.engine.notation import cards_text

    return cards_text(game.engine.deck, game.hand.hands[0])


def test_hint_names_a_move_that_can_be_played(tmp_path: Path) -> None:
    asked = run(["play", "standard", "--seed", "6", "--save", "h.json"], stdin="hint\n", cwd=tmp_path)
    hints = [line.split("hint: ", 1)[1] for line in asked.stdout.splitlines() if "hint: " in line]
    assert len(hints) == 1
    assert len(load_record(tmp_path / "h.json").actions) == 1   # asking changed nothing
    played = run(["play", "standard", "--seed", "6", "--save", "p.json"], stdin=hints[0] + "\n", cwd=tmp_path)
    assert played.returncode == 0 and "is not" not in played.stdout
    assert len(load_record(tmp_path / "p.json").actions) >= 2


def test_quit_saves_and_tells_how_to_resume(tmp_path: Path) -> None:
    result = run(["play", "hoyle", "--seed", "2", "--save", "q.json"], stdin="quit\n", cwd=tmp_path)
    assert result.returncode == 0
    assert "cassino play --resume q.json" in result.stdout
    assert (tmp_path / "q.json").exists()


def test_house_rule_file_plays(tmp_path: Path) -> None:
    result = run(["play", str(ROOT / "examples" / "sweeps-score.yaml"), "--seed", "4", "--save", "h.json"],
                 stdin="1\n" * 400, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wins" in result.stdout or "no winner" in result.stdout


def test_play_refuses_bad_options(tmp_path: Path) -> None:
    assert run(["play", "standard", "--players", "7"], cwd=tmp_path).returncode == 2
    assert run(["play", "standard", "--bot", "genius"], cwd=tmp_path).returncode == 2
    r = run(["play", "standard", "--bot", "search:lots"], cwd=tmp_path)
    assert r.returncode == 2 and "bad search budget" in r.stderr and "Traceback" not in r.stderr
    assert run(["play", "nosuchvariant"], cwd=tmp_path).returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = run(["play", "--resume", "bad.json"], cwd=tmp_path)
    assert r.returncode == 2 and "not a game record" in r.stderr


def test_replay_detects_a_tampered_record(tmp_path: Path) -> None:
    assert run(["play", "standard", "--seed", "5", "--save", "t.json"], stdin="1\n" * 10, cwd=tmp_path).returncode == 0
    data = json.loads((tmp_path / "t.json").read_text())
    data["actions"][1] = "KS capture 2C"
    (tmp_path / "t.json").write_text(json.dumps(data))
    r = run(["replay", "t.json"], cwd=tmp_path)
    assert r.returncode == 2 and "does not replay" in r.stderr


@pytest.mark.parametrize("variant", ["dominican", "tuxedo", "hungarian"])
def test_computer_against_computer_in_other_variants(tmp_path: Path, variant: str) -> None:
    r = run(["play", variant, "--humans", "0", "--seed", "9", "--save", "c.json"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert load_record(tmp_path / "c.json").to_json()["actions"]
    assert replay(load_record(tmp_path / "c.json")).over


def test_simulate_same_numbers_whatever_the_worker_count() -> None:
    one = run(["simulate", "standard", "--games", "12", "--seed", "3", "--format", "json"])
    two = run(["simulate", "standard", "--games", "12", "--seed", "3", "--format", "json", "--workers", "2"])
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a == b
    assert a["games"] == 12 and a["hands"] >= 12
    per_hand = sum(sum(v) for v in a["points_per_hand"].values())
    assert 8 <= per_hand <= 11          # 11 a hand, less when cards or spades tie
    text = run(["simulate", "tuxedo", "--games", "3", "--players", "3"])
    assert text.returncode == 0 and "first player to lead wins" in text.stdout


def test_a_table_with_tens_of_thousands_of_captures_is_counted_not_listed(tmp_path: Path) -> None:
    """16 low cards on the table: 71,076 legal moves. The screen numbers a few per hand card,
    says how many there are, and any of them can still be typed and is played."""
    from io import StringIO

    from rich.console import Console

    from cassino.apps.game.play import MAX_LISTED, start_session
    from cassino.apps.game.records import Record
    from cassino.engine.core import Position
    from cassino.language.variants import load_rules

    record = Record(load_rules("standard"), 5, 2, False, ["human", "greedy"], source="standard")
    typed = iter(["10S capture AC 2C 3C 4C", "quit"])
    out = StringIO()
    session = start_session(record, tmp_path / "g.json", Console(file=out, width=120), read=lambda _: next(typed))
    engine = session.game.engine
    deck = engine.deck
    table = [deck.parse(f"{r}{s}") for r in "A234" for s in "SHDC"]
    hand = engine.position(Position(players=2, hands={0: [deck.parse(c) for c in ("10S", "9H", "8C", "7D")],
                                                      1: [deck.parse(c) for c in ("KS", "KH", "KD", "KC")]},
                                    table=table))
    session.game = session.game.with_(hand=hand)
    moves, total = session.listed_moves()
    assert total == engine.count_moves(hand) == 71076
    assert len(moves) <= MAX_LISTED
    assert {m.played for m in moves} == {1 << deck.index(deck.parse(c)) for c in ("10S", "9H", "8C", "7D")}
    assert all(engine.is_legal(hand, m) for m in moves)
    session.list_moves(moves, total)
    assert f"{total - len(moves)} more legal moves, {total} in all" in out.getvalue()
    # A move not on the numbered list is typed and refused only if illegal: this one is legal.
    assert session.human_turn(0) is True
    assert session.record.actions[-1] == "10S capture AC 2C 3C 4C"


# ---------------------------------------------------------------- issue 25: terminal play that behaves
def _session(tmp_path: Path, variant: str, seats: list[str], typed: list[str], seed: int = 3,
             terminal: bool = False):  # type: ignore[no-untyped-def]
    """A terminal session fed ``typed`` lines; its screen is a string. Prompts are kept with what
    was on the screen when each was asked: (prompt, screen so far)."""
    from io import StringIO

    from rich.console import Console

    from cassino.apps.game.play import start_session
    from cassino.apps.game.records import Record
    from cassino.language.variants import load_rules

    out = StringIO()
    asked: list[tuple[str, str]] = []
    lines = iter(typed)

    def read(prompt: str) -> str:
        asked.append((prompt, out.getvalue()))
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    record = Record(load_rules(variant), seed, len(seats), False, seats, source=variant)
    console = Console(file=out, width=200, force_terminal=terminal, markup=False, highlight=False, soft_wrap=True)
    return start_session(record, tmp_path / "g.json", console, read=read), out, asked


def test_claim_asks_first_and_says_what_a_false_claim_costs(tmp_path: Path) -> None:
    session, out, asked = _session(tmp_path, "hungarian", ["human", "random"], ["claim", "no", "quit"])
    assert session.run() == 0
    assert not session.game.over and not any(a.startswith("claim") for a in session.record.actions)
    screen = out.getvalue()
    assert "reached 11 points" in screen and "a false claim means your side loses the game" in screen
    assert "no claim: play on" in screen
    assert any("claim now?" in prompt for prompt, _ in asked)
    # Said yes: the claim is made, and a false one at 0-0 loses.
    (tmp_path / "b").mkdir()
    session, out, _ = _session(tmp_path / "b", "hungarian", ["human", "random"], ["claim", "yes"])
    assert session.run() == 0
    assert session.game.over and session.game.ended_by == "false claim" and session.game.winner == 1
    assert session.record.actions[-1] == "claim 0"


def test_end_of_input_at_the_claim_question_claims_nothing(tmp_path: Path) -> None:
    session, out, _ = _session(tmp_path, "hungarian", ["human", "random"], ["claim"])
    assert session.run() == 0
    assert not session.game.over and "no claim made; game saved" in out.getvalue()
    assert not any(a.startswith("claim") for a in load_record(tmp_path / "g.json").actions)


def test_claim_where_there_is_no_claiming_asks_nothing(tmp_path: Path) -> None:
    session, out, asked = _session(tmp_path, "standard", ["human", "random"], ["claim", "quit"])
    assert session.run() == 0
    assert "there is no claiming in this game" in out.getvalue()
    assert not any("claim now?" in prompt for prompt, _ in asked) and not session.game.over


@pytest.mark.parametrize("variant,typed,said", [
    ("hungarian", "claim 1", "(`claim` is typed alone, for your own side; a move's number then `claim` makes the move "
                             "and then claims)"),
    ("standard", "claim 1", "(there is no claiming in this game)"),
    ("standard", "hint please", "(`hint` is typed alone, with nothing after it)"),
    ("scopa", "Undo 2", "(`undo` is typed alone, with nothing after it)"),
])
def test_a_command_given_words_it_does_not_take_is_said_to_be_typed_alone(tmp_path: Path, variant: str, typed: str,
                                                                          said: str) -> None:
    """A players' re-audit typed `claim 1` and was asked "did you mean `claim`?", as if the word were misspelt."""
    session, out, _ = _session(tmp_path, variant, ["human", "random"], [typed, "quit"])
    assert session.run() == 0
    assert f"'{typed}' is not a move or a command {said}: type a move's number" in out.getvalue()
    assert not session.game.over and not any(a.startswith("claim") for a in session.record.actions)


@pytest.mark.parametrize("variant,claims", [("hungarian", True), ("hoyle-claiming", True), ("standard", False),
                                            ("royal", False)])
def test_help_and_how_explain_claiming_only_where_there_is_claiming(tmp_path: Path, variant: str,
                                                                     claims: bool) -> None:
    session, out, _ = _session(tmp_path, variant, ["human", "random"], ["help", "how", "quit"])
    assert session.run() == 0
    screen = out.getvalue()
    after_help = screen[screen.index("Type the number of a move"):]
    assert ("a false claim means" in after_help) is claims
    assert ("claim" in after_help.lower()) is claims
    if claims:
        assert after_help.count("a correct claim wins it") == 2      # in help, and in how


def _hands_on_screen(screen: str) -> list[str]:
    """The hands shown: the cards after each ``(typed ...)``."""
    import re

    return re.findall(r"\(typed ([^)]*)\)", screen)


def test_two_people_at_one_keyboard_never_see_each_others_hand(tmp_path: Path) -> None:
    """Each hand is shown only after the screen was cleared and its player said they are ready."""
    from cassino.apps.game.play import CLEAR

    typed = ["", "1", "", "1", "", "1", "", "1", "", "quit"]
    session, out, asked = _session(tmp_path, "standard", ["human", "human", "random"], typed, terminal=True)
    assert session.run() == 0
    moves = [(p, screen) for p, screen in asked if p.startswith("seat ")]
    assert len(moves) == 5 and {p for p, _ in moves} == {"seat 0> ", "seat 1> "}
    for prompt, screen in moves:
        since_clear = screen[screen.rindex(CLEAR):]
        assert len(_hands_on_screen(since_clear)) == 1, since_clear   # the player to move's hand, no other
    # Every move prompt was preceded by a pass prompt for that same seat, after the last clear.
    for k, (prompt, screen) in enumerate(asked):
        if prompt.startswith("seat "):
            passes = [p for p, s in asked[:k] if p.startswith("Pass the keyboard")]
            assert passes and passes[-1].startswith(f"Pass the keyboard to {prompt.split('>')[0]}:")


def test_two_people_hands_stay_apart_in_the_screen_text(tmp_path: Path) -> None:
    """The same game as text: between one pass prompt and the next, one seat's hand only."""
    typed = ["", "1", "", "1", "", "quit"]
    session, out, asked = _session(tmp_path, "standard", ["human", "human"], typed)
    assert session.run() == 0
    screens = [s for p, s in asked if p.startswith("Pass the keyboard")] + [out.getvalue()]
    assert len(screens) == 4                      # passed to seat 1, to seat 0, to seat 1; then the end
    assert len(_hands_on_screen(screens[0])) == 0  # seat 0's hand before any pass: none
    for before, after in zip(screens, screens[1:]):
        assert len(_hands_on_screen(after[len(before):])) <= 1


def test_one_person_is_never_asked_to_pass_the_keyboard(tmp_path: Path) -> None:
    session, out, asked = _session(tmp_path, "standard", ["human", "random"], ["1", "1", "quit"])
    assert session.run() == 0
    assert not any("Pass the keyboard" in p for p, _ in asked)
    assert "seats: seat 0 you; seat 1 computer (random)" in out.getvalue()


def test_the_screen_says_which_seat_is_which_player(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    save = str(tmp_path / "g.json")
    code, out, err = cli("play", "standard", "--players", "4", "--bot", "greedy,random", "--seed", "1",
                         "--save", save)
    assert code == 0, err
    assert "seats: seat 0 you; seat 1 computer (greedy); seat 2 computer (random); seat 3 computer (greedy)" in out
    assert "the list repeats from its start: seat 1 greedy, seat 2 random, seat 3 greedy" in err
    assert load_record(save).seats == ["human", "greedy", "random", "greedy"]
    code, out, err = cli("play", "standard", "--players", "4", "--partners", "--humans", "0", "--bot",
                         "search:8,greedy", "--seed", "1", "--save", str(tmp_path / "p.json"))
    assert code == 0, err
    assert "seats: seat 0 computer (search:8); seat 1 computer (greedy); seat 2 computer (search:8); " \
           "seat 3 computer (greedy); partners: 0+2 against 1+3" in out


def test_a_list_as_long_as_the_table_needs_no_note(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    code, out, err = cli("play", "standard", "--players", "3", "--bot", "greedy,random", "--seed", "1",
                         "--save", str(tmp_path / "g.json"))
    assert code == 0 and not err
    assert load_record(tmp_path / "g.json").seats == ["human", "greedy", "random"]


def test_a_card_typed_with_its_suit_symbol_is_read(tmp_path: Path) -> None:
    """The table shows K♠; typed so, it is KS (a documentation audit found `A♠ ...` refused as no move)."""
    result = run(["play", "swazi-casino", "--seed", "1", "--save", "s.json"], stdin="K♠ trail\nquit\n", cwd=tmp_path)
    assert result.returncode == 0 and "is not a move" not in result.stdout
    assert "KS trail" in load_record(tmp_path / "s.json").actions


def test_resuming_a_finished_game_does_not_offer_to_continue_it(tmp_path: Path) -> None:
    run(["play", "standard", "--seed", "3", "--save", "f.json"], stdin="1\n" * 400, cwd=tmp_path)
    assert load_record(tmp_path / "f.json").to_json(replay(load_record(tmp_path / "f.json")))["result"]["over"]
    result = run(["play", "--resume", "f.json"], cwd=tmp_path)
    assert result.returncode == 0 and "game over" in result.stdout
    assert "the game in f.json is over: cassino review f.json goes through it" in result.stdout
    assert "continue with" not in result.stdout


@pytest.mark.parametrize("option", ["--save", "--resume"])
def test_an_empty_file_name_is_refused_not_taken_for_no_name(tmp_path: Path, option: str) -> None:
    """`--save ''` played on and saved to a name of the game's own; now it is refused, and nothing is written."""
    args = ["play", "standard", option, ""] if option == "--save" else ["play", option, " "]
    result = run(args, stdin="quit\n", cwd=tmp_path)
    assert result.returncode == 2, result.stdout
    assert f"{option} names no file (an empty name)" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_byte_the_terminal_could_not_read_is_quoted_as_that_byte() -> None:
    from cassino.apps.game.play import shown_text

    assert shown_text("3\udce9S trail") == "'3\\xe9S trail'"   # (it was echoed as '\udce9')
    assert shown_text("9D\x1b[2J") == "'9D\\x1b[2J'"


def test_a_team_that_wins_is_said_in_the_plural(tmp_path: Path) -> None:
    result = run(["play", "standard", "--players", "4", "--partners", "--humans", "0", "--bot", "greedy",
                  "--seed", "3", "--save", "g.json"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"^seats \d\+\d win \(", result.stdout, re.M), result.stdout[-500:]
    assert not re.search(r"seats \d\+\d wins", result.stdout)


def test_a_crowded_table_lists_moves_by_card_and_kind_and_numbers_them_to_choose(tmp_path: Path) -> None:
    """An audit's Swazi position (two people, 15 table cards, 12 in hand): 67,468 legal moves, of which the game
    numbered 39 (no trail among them) and offered no way to see the rest but to type them. Every hand card's trail
    is numbered now, and `moves CARD ... KIND` lists the moves naming those cards, numbered to choose from."""
    record = tmp_path / "crowded.json"
    record.write_bytes((ROOT / "tests" / "records" / "swazi-crowded-table.json").read_bytes())
    lines = ["", "moves 10S", "moves 10S", "moves 10S trail", "moves zz", "1"]
    result = run(["play", "--resume", str(record)], stdin="\n".join(lines) + "\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    first = out[:out.index("seat 0>")]
    hand = ["AD", "4S", "4H", "5C", "6H", "8D", "9C", "10S", "JS", "JH", "JD", "QC"]
    assert all(re.search(rf"^\s+\d+\. {card} trail$", first, re.M) for card in hand), first[-3000:]
    assert "67468 in all" in first and "moves AD" in first
    pages = re.findall(r"\.\.\. (\d+)-(\d+) of these (\d+): moves 10S again shows the next ones; name another card", out)
    assert [(a, b) for a, b, _ in pages] == [("1", "60"), ("61", "120")], pages   # typed again: the next 60
    listed = re.findall(r"^(?:seat 0>)?\s+(\d+)\. (.*)$", out[out.index("moves 10S again"):], re.M)[:60]
    assert len({m for _, m in listed}) == 60 and all("10S" in m for _, m in listed)
    assert [int(k) for k, _ in listed] == list(range(61, 121))   # the second page numbered on: 61 chooses its first
    assert re.search(r"^seat 0>\s+1\. 10S trail\n", out, re.M)
    assert "'zz' is neither a card nor a kind of move" in out
    actions = json.loads(record.read_text())["actions"]
    assert actions[-1] == "10S trail"   # the 1 chose from the last list shown: the trail


def test_a_record_that_lost_an_end_says_so_where_it_stops_replaying(tmp_path: Path) -> None:
    """An audit removed an `end` from a South African record: the replay blamed the next player's card ("you played
    5D from your hand this turn") without saying that the turn before it was never ended."""
    played = run(["play", "south-african-casino", "--humans", "0", "--bot", "greedy", "--seed", "3", "--save", "g.json"],
                 cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    data = json.loads((tmp_path / "g.json").read_text())
    actions = data["actions"]
    k = next(i for i, a in enumerate(actions) if a == "end" and i + 1 < len(actions)
             and not actions[i + 1].startswith(("build", "end")))
    data["actions"] = actions[:k] + actions[k + 1:]
    data.pop("result", None)
    (tmp_path / "cut.json").write_text(json.dumps(data))
    result = run(["replay", "cut.json"], cwd=tmp_path)
    assert result.returncode == 2
    assert f"action {k + 1} (" in result.stderr and "an `end` may be missing before this action" in result.stderr


def test_a_computer_leading_a_new_deal_is_said_under_that_deals_banner(tmp_path: Path) -> None:
    """An audit read a computer's first move of a new deal as the last of the deal before: it was printed above
    the new deal's banner, which came only with the person's next turn."""
    result = run(["play", "standard", "--seed", "11", "--bot", "greedy", "--save", "g.json"], stdin="1\n" * 12,
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = [line.removeprefix("seat 0> ") for line in result.stdout.splitlines()]
    first = next(k for k, line in enumerate(lines) if "hand 1, deal 2" in line)
    assert "seat 1 (greedy) plays" in lines[first + 1], lines[first - 2:first + 3]
    assert not any("seat 1 (greedy) plays" in line for line in lines[first - 1:first])
    # the first deal too, where the computer leads the game (a re-attack found it above the banner)
    opening = next(k for k, line in enumerate(lines) if "seat 1 (greedy) plays" in line)
    assert "hand 1, deal 1" in lines[opening - 1], lines[:opening + 1]


def test_cards_the_dealer_takes_as_dealt_are_named(cli, tmp_path: Path) -> None:
    """Escoba: where the four cards dealt to the table make 15 the dealer takes them; the table then shows
    "(empty)", and an audit (session 78) had to infer which cards they were. The game says so, once."""
    from cassino.engine.game import Game
    from cassino.engine.notation import cards_text
    from cassino.language.variants import load_rules

    rules = load_rules("escoba")
    seed = next(s for s in range(500) if any(Game.new(rules, s, 2).hand.piles))
    hand = Game.new(rules, seed, 2).hand
    taken = " ".join(cards_text(Game.new(rules, seed, 2).engine.deck, hand.piles[hand.dealer]))
    code, out, err = cli("play", "escoba", "--humans", "0", "--bot", "random", "--seed", str(seed),
                         "--save", str(tmp_path / "g.json"))
    assert code == 0, (out, err)
    line = f"the cards dealt to the table made 15: the dealer, seat {hand.dealer} (random), took {taken}"
    assert out.count(line) == 1, out[:2000]
    quiet = next(s for s in range(500) if not any(Game.new(rules, s, 2).hand.piles))
    code, out, err = cli("play", "escoba", "--humans", "0", "--bot", "random", "--seed", str(quiet),
                         "--save", str(tmp_path / "h.json"))
    first_hand = out.split("hand 2, deal 1")[0]
    assert "dealt to the table made" not in first_hand
    # Two 15s are two sweeps, said as such (an audit read "made 15" of a table of 30).
    double = next(s for s in range(1000) if sum(1 for w in Game.new(rules, s, 2).hand.sweeps if w.ply < 0) == 2)
    code, out, err = cli("play", "escoba", "--humans", "0", "--bot", "random", "--seed", str(double),
                         "--save", str(tmp_path / "d.json"))
    assert code == 0, (out, err)
    first_hand = out.split("hand 2, deal 1")[0]
    assert "the cards dealt to the table made 15 twice: " in first_hand and ", 2 sweeps" in first_hand


def _people_and_computers(tmp_path: Path, variant: str, seats: list[str], moves: int, seed: int = 5,
                          answers: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """A terminal session whose people play their first listed move ``moves`` times (then the input ends),
    every other prompt answered with Enter (or as ``answers`` says, by the prompt's start); each prompt kept
    with the screen since the last clear and the record's actions so far."""
    from io import StringIO

    from rich.console import Console

    from cassino.apps.game.play import CLEAR, start_session
    from cassino.apps.game.records import Record
    from cassino.language.variants import load_rules

    out = StringIO()
    asked: list[tuple[str, str, int]] = []
    left = [moves]
    record = Record(load_rules(variant), seed, len(seats), False, seats, source=variant)

    def read(prompt: str) -> str:
        screen = out.getvalue()
        asked.append((prompt, screen[screen.rfind(CLEAR):], len(record.actions)))
        for start, answer in (answers or {}).items():
            if prompt.startswith(start):
                return answer
        if prompt.startswith("seat "):
            if left[0] <= 0:
                raise EOFError
            left[0] -= 1
            return "1"
        return ""

    console = Console(file=out, width=200, force_terminal=True, markup=False, highlight=False, soft_wrap=True)
    return start_session(record, tmp_path / "g.json", console, read=read), out, asked, record


def test_several_people_see_every_move_played_since_the_keyboard_last_passed(tmp_path: Path) -> None:
    """A fourth re-attack: with people and computers at one keyboard, the computers' moves between two
    people's turns were printed and cleared at once (nobody read them); now every move since the last pass,
    the people's too, is on the pass screen, which stays above the next person's hand."""
    session, out, asked, record = _people_and_computers(tmp_path, "standard", ["human", "greedy", "human", "greedy"],
                                                        moves=8)
    assert session.run() == 0
    passes = [(screen, done) for prompt, screen, done in asked if prompt.startswith("Pass the keyboard")]
    assert len(passes) >= 6
    (first, _), shown = passes[0], 0
    assert "seats: seat 0 a person at this keyboard" in first and "the game is recorded in" in first
    for screen, done in passes:
        for k in range(shown, done):
            assert f"plays {record.actions[k]}" in screen, (record.actions[k], screen)
        assert "(typed " not in screen   # (no hand)
        shown = done
    # Each person's turn keeps those moves on the screen above their hand.
    turns = [screen for prompt, screen, _ in asked if prompt.startswith("seat ")]
    assert all("plays " in screen.split("your hand:")[0] for screen in turns[1:]), turns[1]


def test_a_claim_that_ends_the_game_is_said_again_with_no_hand_on_the_screen(tmp_path: Path) -> None:
    """The game's end was printed under the claimer's cards, with two people at one keyboard."""
    session, out, asked, record = _people_and_computers(
        tmp_path, "hungarian", ["human", "human"], moves=1,
        answers={"claim now?": "yes", "seat 1>": "claim"})
    assert session.run() == 0
    assert session.game.over and record.actions[-1].startswith("claim")
    from cassino.apps.game.play import CLEAR

    end = out.getvalue()
    end = end[end.rfind(CLEAR):]
    assert "game over" in end and "claims" in end and "(typed " not in end, end


def test_a_new_hand_or_deal_and_its_first_moves_are_above_the_next_persons_hand(tmp_path: Path) -> None:
    """A second re-attack: after a hand's scoring (read, then cleared) the computers' first moves of the next
    hand were not above the next person's hand, and a new deal a person led had no banner on the pass screen."""
    from io import StringIO

    from rich.console import Console

    from cassino.apps.game.play import CLEAR, start_session
    from cassino.apps.game.records import Record
    from cassino.language.variants import load_rules

    out = StringIO()
    record = Record(load_rules("standard"), 11, 3, False, ["human", "greedy", "human"], source="standard")
    turns: list[tuple[str, int, int, int]] = []   # (screen since the last clear, hand, deal, actions so far)
    holder: list[Any] = []

    def read(prompt: str) -> str:
        if prompt.startswith("seat "):
            if len(record.actions) > 70:
                raise EOFError
            screen = out.getvalue()
            game = holder[0].game
            turns.append((screen[screen.rfind(CLEAR):], game.hand_no, game.hand.deal_no, len(record.actions)))
            return "1"
        return ""

    console = Console(file=out, width=200, force_terminal=True, markup=False, highlight=False, soft_wrap=True)
    holder.append(start_session(record, tmp_path / "g.json", console, read=read))
    assert holder[0].run() == 0
    changed = 0
    for (_, hand0, deal0, done0), (screen, hand, deal, done) in zip(turns, turns[1:]):
        if (hand, deal) == (hand0, deal0) or done == done0:
            continue
        changed += 1
        above = screen.split("your hand:")[0]
        assert f"— standard — hand {hand}, deal {deal} —" in above, above
        game = Record(record.rules, record.seed, 3, False, record.seats, source="standard").new_game()
        from cassino.apps.game.records import apply_action

        for k, action in enumerate(record.actions[:done]):
            before, game = game, apply_action(game, action)
            if k >= done0 and (before.hand_no, before.hand.deal_no) == (hand, deal):
                assert f"plays {action}" in above, (action, above)
    assert changed >= 3, changed   # (new deals and a new hand were met: the check is not empty)


def _resumed(record: Any, path: Path) -> tuple[Any, str]:
    """The game of ``record`` resumed at the terminal until its first prompt (then the input ends): the
    session, and what was on the screen at that prompt."""
    from io import StringIO

    from rich.console import Console

    from cassino.apps.game.play import start_session

    screen = StringIO()
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(screen.getvalue())
        raise EOFError

    again = start_session(record, path, Console(file=screen, width=200, markup=False, highlight=False,
                                                soft_wrap=True), read=read)
    assert again.run() == 0
    return again, prompts[0]


def test_a_resumed_game_says_the_moves_since_the_last_persons_on_the_first_pass_screen(tmp_path: Path) -> None:
    """A second re-attack: after `--resume`, the first pass screen had the opening lines and the deal's banner
    but not the moves since the last person's (the computers' among them), and each seat's "last:" was gone."""
    from cassino.apps.game.records import load_record

    seats = ["human", "greedy", "human", "greedy"]
    session, out, asked, record = _people_and_computers(tmp_path, "standard", seats, moves=3)
    assert session.run() == 0
    from cassino.apps.game.records import actor_of, replay

    made = list(record.actions)
    actors: list[int] = []
    replay(record, each=lambda before, action, after: actors.append(actor_of(action, before)))
    last_person = max(k for k, seat in enumerate(actors) if seats[seat] == "human")
    assert last_person < len(made) - 1   # (computers moved after it: the case meant)
    again, first_pass = _resumed(load_record(tmp_path / "g.json"), tmp_path / "g.json")
    for action in made[last_person:]:
        assert f"plays {action}" in first_pass, (action, first_pass)
    assert again.last_moves and all(again.last_moves[s] in made for s in again.last_moves)


def test_quit_at_a_screen_that_waits_for_enter_saves_and_stops(tmp_path: Path) -> None:
    """A second re-attack: `quit` typed at "press Enter when everyone has read" was taken as Enter."""
    session, out, asked, record = _people_and_computers(tmp_path, "standard", ["human", "human"], moves=3,
                                                        answers={"Pass the keyboard": "quit"})
    assert session.run() == 0
    assert [p for p, _, _ in asked if p.startswith("Pass the keyboard")] and \
        not [p for p, _, _ in asked if p.startswith("seat ")]
    assert "game saved to" in out.getvalue() and "cassino play --resume" in out.getvalue()


def test_a_game_resumed_after_a_hands_scoring_says_the_new_hands_first_moves(tmp_path: Path) -> None:
    """A third re-attack: resumed after a hand's scoring, the computers' first moves of the new hand were
    not on the first pass screen (no person had played in that hand yet)."""
    from cassino.apps.game.records import Record
    from cassino.apps.game.session import GameSession
    from cassino.language.variants import load_rules

    rules = load_rules("standard")
    played = GameSession.open(Record(rules, 5, 4, False, ["greedy"] * 4, source="standard"), tmp_path / "w.json")
    while played.game.hand_no == 1:
        played.act(played.computer_choice())
    for _ in range(2):   # (the new hand's first two moves: seats 2 and 3, the computers below)
        played.act(played.computer_choice())
    actions = list(played.record.actions)
    hand_two = actions[-2:]
    record = Record(rules, 5, 4, False, ["human", "human", "greedy", "greedy"], source="standard", actions=actions)
    again, first = _resumed(record, tmp_path / "g.json")
    assert again.game.hand_no == 2 and again.game.hand.turn in (0, 1)   # (a person to play next: the case meant)
    assert "— standard — hand 2, deal 1 —" in first
    assert all(f"plays {action}" in first.split("— standard — hand 2, deal 1 —")[1] for action in hand_two), first


def test_a_lurch_is_said_at_its_own_worth_in_play_and_replay(tmp_path: Path) -> None:
    """An audit's house rule (a lurch worth 3 games): `play` said "a lurch, a double game" and `replay` "a lurch (a
    double game)", whatever the multiplier; the engine counted 3 games."""
    (tmp_path / "threefold.yaml").write_text(
        "name: threefold\ndescription: difference scoring, three games below 5\nextends: standard\n"
        "seats: {max_players: 2}\ngame: {target: 15, score_mode: difference, lurch: {below: 5, multiplier: 3}}\n",
        encoding="utf-8")
    lurches = 0
    for seed in range(1, 5):     # (seed 3 is a lurch, the others not)
        played = run(["play", "threefold.yaml", "--humans", "0", "--bot", "greedy", "--seed", str(seed), "--save",
                      f"g{seed}.json"], cwd=tmp_path)
        assert played.returncode == 0, played.stderr
        replayed = run(["replay", f"g{seed}.json"], cwd=tmp_path)
        assert replayed.returncode == 0, replayed.stderr
        game = replay(load_record(tmp_path / f"g{seed}.json"))
        said = [out for out in (played.stdout, replayed.stdout) if "lurch" in out]
        assert "double" not in played.stdout + replayed.stdout
        if game.games_won > 1:
            lurches += 1
            assert len(said) == 2 and all("a lurch, a triple game" in out for out in said), said
        else:
            assert not said
    assert 0 < lurches < 4   # (seed 3 is one: 21 to 4)


def test_a_table_of_builds_alone_is_not_said_empty(tmp_path: Path) -> None:
    """An audit's Swazi game showed "table (empty)" above the builds lying there: with builds and no loose card
    the table line says "(no loose cards)"; a bare table is "(empty)"."""
    from cassino.engine.core import Position

    session, out, _ = _session(tmp_path, "standard", ["human", "greedy"], [])
    game = session.game
    d = game.engine.deck
    hand = game.engine.position(Position(players=2, hands={0: [d.parse("9C")], 1: [d.parse("KS")]},
                                         builds=[([d.parse("5S"), d.parse("4H")], 9, 0)]))
    session.game = game.with_(hand=hand)
    session.show_table()
    text = out.getvalue()
    assert "(no loose cards)" in text and "(empty)" not in text and "build of 9" in text
    bare = game.engine.position(Position(players=2, hands={0: [d.parse("9C")], 1: [d.parse("KS")]}))
    session.game = game.with_(hand=bare)
    session.show_table()
    assert "(empty)" in out.getvalue()

def test_a_raised_build_keeps_its_place_in_the_tables_lines(tmp_path: Path) -> None:
    """The hand's state lists a build that changes last, so a raise moved it below the others at the terminal as on
    the felt (a browser audit lost track of builds that changed places): each keeps the place it was made in, and
    the review's steps list them so too."""
    from cassino.apps.game.summary import builds_in_place
    from cassino.engine.core import Position
    from cassino.engine.notation import cards_text, parse_move

    session, out, _ = _session(tmp_path, "standard", ["human", "human"], [])
    game = session.game
    d = game.engine.deck
    cards = lambda text: [d.parse(c) for c in text.split()]  # noqa: E731
    start = game.with_(hand=game.engine.position(Position(
        players=2, to_play=0, dealer=1, hands={0: cards("2D 8H KD"), 1: cards("6S QS 5C")}, table=cards("9C"),
        builds=[(cards("3C 3D"), 6, 1), (cards("2H 4S"), 6, 1)])))
    session.game = start.play(start.engine.resolve(start.hand, parse_move("2D build 8 on [3C 3D]", d)))
    assert [b.value for b in session.game.hand.builds] == [6, 8]   # (the state's order: the raised build last)
    assert [b.value for b in builds_in_place(session.game)] == [8, 6]
    session.show_table()
    lines = [line for line in out.getvalue().splitlines() if "build of" in line]
    assert "build of 8" in lines[-2] and "build of 6" in lines[-1], lines
    after = session.game.play(session.game.engine.resolve(session.game.hand, parse_move("6S capture [2H 4S]", d)))
    assert [sorted(cards_text(d, b.cards)) for b in builds_in_place(after)] == [["2D", "3C", "3D"]]


def test_a_lowest_wins_game_says_limit_not_target_and_who_wins_by_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A player's audit read "(target 42)" and "seat 1 wins (target)" in Krypkasino, where points are penalties
    and the winner is the side that did not reach the limit: the terminal, the scoring table, the browser's
    state and the game's outcome say the limit."""
    import subprocess
    import sys

    from cassino.apps.game.summary import outcome
    from cassino.apps.web.views import seat_view
    from cassino.engine.core import Engine
    from cassino.engine.game import Game
    from cassino.language.variants import load_rules
    from cassino.players.bots import make_bot

    engine = Engine(load_rules("kasino-misar"))
    game = Game.new(engine, 3, 2)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    while not game.over:
        game = game.play(bots[game.hand.turn].choose(game, game.hand.turn))
    assert game.ended_by == "target"
    assert outcome(game).endswith(f"(the {game.target}-point limit reached, the lowest total wins)")
    view = seat_view(table_id="t", game=game, kinds=["greedy", "greedy"], viewer=None, hand_log=[], moves=[],
                     connected=[], can_undo=False)
    assert view["lowest"] is True and view["target"] == game.target
    import os

    wide = {**os.environ, "COLUMNS": "150"}   # (the scoring table's description column, where "score (limit N)" is)
    shown = subprocess.run([sys.executable, "-m", "cassino", "play", "kasino-misar", "--seed", "3", "--humans", "0",
                            "--bot", "greedy"], capture_output=True, text=True, timeout=240, cwd=tmp_path,
                           env=wide).stdout
    assert f"(limit {game.target})" in shown and f"(target {game.target})" not in shown
    assert f"score (limit {game.target})" in shown and "wins (target)" not in shown
    assert f"(the {game.target}-point limit reached, the lowest total wins)" in shown


def test_a_hand_that_leaves_the_game_undecided_past_the_limit_says_another_is_played() -> None:
    """Kasino misar, seed 19, greedy players: the hand ends 21-21, both at the limit, and the game goes on; a
    player's audit saw Krypkasino's 42-42 go on to another hand without a word."""
    from cassino.apps.game.summary import hand_summary
    from cassino.engine.core import Engine
    from cassino.engine.game import Game
    from cassino.language.variants import load_rules
    from cassino.players.bots import make_bot

    engine = Engine(load_rules("kasino-misar"))
    game = Game.new(engine, 19, 2)
    bots = [make_bot("greedy", 19), make_bot("greedy", 20)]
    notes: list[str] = []
    while not game.over and not notes:
        move = bots[game.hand.turn].choose(game, game.hand.turn)
        before, game = game, game.play(move)
        summary = hand_summary(before, move, game)
        if summary is not None and game.scores[0] >= 21:
            notes = list(summary.notes)
    assert not game.over and game.scores == (21, 21)
    assert ("seat 0 and seat 1 reached the limit of 21, but the game is not decided: seat 0 and seat 1 are tied for "
            "the lowest total, 21: another hand is played") in notes


def test_an_undecided_game_of_three_says_which_sides_tie_for_the_lowest_total() -> None:
    """A player's audit of Krypkasino with three: 48, 18 and 18 went on to another hand, "not decided", with no
    word that seats 1 and 2 were tied for the lowest total, the rule that plays another hand (seed 5, greedy)."""
    from cassino.apps.game.summary import hand_summary
    from cassino.engine.game import Game
    from cassino.language.variants import load_rules
    from cassino.players.bots import make_bot

    game = Game.new(load_rules("krypkasino"), 5, 3)
    bots = [make_bot("greedy", 0), make_bot("greedy", 1), make_bot("greedy", 2)]
    said = []
    while not game.over and not said:
        move = bots[game.hand.turn].choose(game, game.hand.turn)
        before, game = game, game.play(move)
        summary = hand_summary(before, move, game)
        said = [n for n in (summary.notes if summary else ()) if "not decided" in n]
    low = min(game.scores)
    tied = [s for s, n in enumerate(game.scores) if n == low]
    over = [s for s, n in enumerate(game.scores) if n >= 42]
    assert not game.over and len(tied) == 2 and over, game.scores      # (the case is the one meant: 38, 38, 50)
    assert said == [f"seat {over[0]} reached the limit of 42, but the game is not decided: seat {tied[0]} and seat "
                    f"{tied[1]} are tied for the lowest total, {low}: another hand is played"], said


def test_the_one_persons_partner_is_marked_at_the_table(tmp_path: Path) -> None:
    """Six players in partnerships of two (seats k and k+3): the seat lines say which seat is your partner (a
    player's audit found partners named only in the opening line)."""
    out = run(["play", "krypkasino", "--players", "6", "--partners", "--seed", "5", "--bot", "greedy", "--save",
               "g.json"], stdin="quit\n", cwd=tmp_path).stdout
    lines = [line for line in out.splitlines() if line.startswith("  seat ")]
    assert any(line.startswith("  seat 3 (greedy), your partner:") for line in lines), out
    assert sum("your partner" in line for line in lines[:6]) == 1



def test_a_card_with_a_letter_that_is_no_suit_is_answered_with_this_packs_suits(tmp_path: Path) -> None:
    """A players' re-audit typed `TY` in standard and was told only that it was no move: a rank of the pack with a
    letter that is no suit is answered with the suits, as a move, as `moves` and as a card of several played."""
    lines = ["TY trail", "9x capture 4H", "KZ+2S capture 4H", "moves QW", "how", ""]
    result = run(["play", "standard", "--seed", "5", "--save", "g.json"], stdin="\n".join(lines) + "\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    for typed in ("TY", "9x", "KZ", "QW"):
        assert f"'{typed}': no suit {typed[-1].upper()} in this deck (suits: S H D C)" in result.stdout, result.stdout
    assert "'how'" not in result.stdout and "How to play standard" in result.stdout   # (a command is no card)
    assert "Traceback" not in result.stdout + result.stderr


def test_a_card_of_another_pack_is_answered_with_this_packs_ranks(tmp_path: Path) -> None:
    """A player's audit of Scopa typed `TH trail` (a ten, where the 40-card pack has none) and was told only that it
    was no move; help said "10 may be typed T" of a pack with no tens. The deck's ranks are said, and T only where
    there is a 10."""
    lines = ["TH trail", "9C trail", "help", ""]
    result = run(["play", "scopa", "--seed", "5", "--save", "g.json"], stdin="\n".join(lines) + "\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "'TH': no rank 10 in this deck (ranks: A 2 3 4 5 6 7 J Q K)" in result.stdout
    assert "'9C': no rank 9 in this deck (ranks: A 2 3 4 5 6 7 J Q K)" in result.stdout
    assert "typed T" not in result.stdout and "Traceback" not in result.stdout + result.stderr
    listed = run(["play", "scopa", "--seed", "5", "--save", "m.json"], stdin="moves TH\nmoves XX\n\n", cwd=tmp_path)
    assert "'TH': no rank 10 in this deck (ranks: A 2 3 4 5 6 7 J Q K)" in listed.stdout
    assert "'XX' is neither a card nor a kind of move: e.g. moves" in listed.stdout
    assert "moves build" not in listed.stdout   # (Scopa has no building: its own kinds are offered)
    standard = run(["play", "standard", "--seed", "5", "--save", "s.json"], stdin="help\n\n", cwd=tmp_path)
    assert "10 may be typed T" in standard.stdout
    from cassino.apps.web.views import typing_words
    from cassino.engine.core import Engine
    from cassino.language.variants import load_rules

    assert "typed T" not in typing_words(Engine(load_rules("scopa")).deck)
    assert "10 may be typed T" in typing_words(Engine(load_rules("standard")).deck)
    # (a court card where the pack has none: South African Casino's 40 cards, a player's audit typed QH trail)
    courts = run(["play", "south-african-casino", "--seed", "7", "--save", "c.json"], stdin="QH trail\nmoves KS\n\n",
                 cwd=tmp_path)
    assert courts.stdout.count("no rank Q in this deck (ranks: A 2 3 4 5 6 7 8 9 10)") == 1, courts.stdout
    assert "'KS': no rank K in this deck" in courts.stdout and "Traceback" not in courts.stdout + courts.stderr
    tuxedo = run(["play", "tuxedo", "--seed", "5", "--save", "t.json"], stdin="help\n\n", cwd=tmp_path)
    assert "(e.g. 10Y; 10 may be typed T)" in tuxedo.stdout   # (its suits typed as their letters: tens too)


def test_a_claim_typed_after_a_move_is_made_before_the_next_player_plays(tmp_path: Path) -> None:
    """A player's audit of Hungarian: `claim` was taken only at the person's own prompt, so a capture reaching 11
    followed by the computer's reply reaching it too let the computer claim first. `MOVE claim` claims as soon as the
    move is made (asked to confirm, as `claim` is); here at the first move, a false claim that ends the game; and the
    help no longer says "nobody counts for you" where the scores line counts the points as they are won."""
    result = run(["play", "hungarian", "--seed", "3", "--save", "g.json"], stdin="1 claim\nyes\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "g.json").read_text())
    actions = record["actions"]
    assert actions[-1] == "claim 0" and not actions[-2].startswith("claim"), actions
    assert record["variant"]["rules"]["name"] == "hungarian" and record["result"]["over"] is True
    assert "seat 0 (you) claims to have reached 11 points: a false claim" in result.stdout
    # (the score after the move is said before the question: a re-audit claimed on the line shown before it)
    assert result.stdout.index("after your move: scores seat 0: ") < result.stdout.index("claim now?")
    assert "the scores line counts it as the hand goes" in result.stdout and "nobody counts" not in result.stdout
    declined = run(["play", "hungarian", "--seed", "3", "--save", "h.json"], stdin="1 claim\nno\n", cwd=tmp_path)
    assert "no claim: play on" in declined.stdout
    assert not any(a.startswith("claim") for a in json.loads((tmp_path / "h.json").read_text())["actions"])


def test_the_seats_line_says_which_way_play_passes(tmp_path: Path) -> None:
    """A player's audit of Scopone: seats are numbered clockwise and play passes to the right, so the turns went
    seat 3, 2, 1 after seat 0's, which read as a fault; the seats line says the order where there are three or more."""
    scopone = run(["play", "scopone", "--players", "4", "--partners", "--seed", "3", "--save", "a.json"], stdin="quit\n",
                  cwd=tmp_path)
    assert "partners: 0+2 against 1+3; play passes to the right, round the table: 0 → 3 → 2 → 1 → 0" in scopone.stdout
    three = run(["play", "standard", "--players", "3", "--seed", "3", "--save", "b.json"], stdin="quit\n", cwd=tmp_path)
    assert "play passes to the left, round the table: 0 → 1 → 2 → 0" in three.stdout
    two = run(["play", "standard", "--seed", "3", "--save", "c.json"], stdin="quit\n", cwd=tmp_path)
    assert "play passes" not in two.stdout


def test_at_a_table_of_people_undo_takes_back_only_an_action_of_a_turn_still_going_on(tmp_path: Path) -> None:
    """A player's audit: with two people at Swazi Casino, `undo` was refused even within one's own turn of several
    actions, which nobody else had answered. It now takes back such an action; a turn ended (the other player to
    move) stays played, and the other player can take back nothing of it."""
    from cassino.apps.game.records import Record
    from cassino.apps.game.session import GameSession
    from cassino.errors import CassinoError
    from cassino.language.variants import load_rules

    record = Record(load_rules("swazi-casino"), 1, 2, False, ["human", "human"], source="swazi-casino")
    session = GameSession.open(record, tmp_path / "g.json", 0)
    start = session.game
    assert start.hand.turn == 1 and not session.can_undo(0) and not session.can_undo(1)
    with pytest.raises(CassinoError, match="only an action of your own turn while it goes on"):
        session.undo(1)
    session.act("AS capture AC")
    assert session.game.hand.turn == 1                   # (the turn goes on: the case is the one meant)
    assert session.can_undo(1) and not session.can_undo(0)
    with pytest.raises(CassinoError):
        session.undo(0)
    session.undo(1)
    assert session.record.actions == [] and load_record(tmp_path / "g.json").actions == []
    assert session.game.hand == start.hand
    session.act("AS capture AC")
    session.act("end")
    assert session.game.hand.turn == 0 and not session.can_undo(1) and not session.can_undo(0)
    with pytest.raises(CassinoError):
        session.undo(1)
    assert load_record(tmp_path / "g.json").actions == ["AS capture AC", "end"]


HUNGARIAN_53 = ['5H trail', '2H+KD capture 5H 10C', 'JS capture JD', '7H trail', '10S trail', '5S trail', '8D capture 3H 5S', 'QS trail', '3D trail', '8S capture 3D 5C', 'AC trail', 'AH+3C+6D capture 10H', 'JC capture JH', 'QD capture 3S 9D', '9C trail', '2C trail', '5D trail', '10D capture AS 9C', '2D+4D capture 6C', 'KC trail', 'KS capture 3C 10D']
HUNGARIAN_46 = ['3C trail', '7C trail', '2S trail', 'KD trail', 'JD capture 3C 8H', '6C trail', '2D trail', '2C capture 2D', '7D trail', '3S+KC capture 3D 6D 7D', '4S trail', '9S trail', 'QD trail', '7S trail', '10S trail', '10D capture 10S', 'KS trail', '4D capture 4C', '5S+8S capture AH QD KS', '4H trail', '9D capture 9H', '7H trail', '2D+10S+10H capture 4H 9H 9D', 'JC capture JH', '3D capture 3H', '6S trail', 'AS+7H capture 2S 6S', '8S trail', '6C+JS capture 8S 9S', '5S trail']


def test_the_hint_says_claim_where_the_computer_would(tmp_path: Path) -> None:
    """A player's audit followed the hints in Hungarian Casino, where the first correct claim wins: they named moves
    only, and the computer claimed games the player had won (seed 53: 12 points of 11 pegged, the hint a capture;
    seed 46: a capture taking the side to 11, then the computer's reply and its claim). The hint now says to claim,
    or to claim at once after its move, as a computer player would."""
    now = run(["play", "hungarian", "--seed", "53", "--bot", "greedy", "--save", "a.json"],
              stdin="\n".join(HUNGARIAN_53 + ["hint", "quit"]) + "\n", cwd=tmp_path)
    assert "seat 0: 12  seat 1: 6 (with this hand's points pegged so far) (target 11)" in now.stdout
    assert "hint: claim: your side has reached 11 points" in now.stdout
    after = run(["play", "hungarian", "--seed", "46", "--bot", "greedy", "--save", "b.json"],
                stdin="\n".join(HUNGARIAN_46 + ["hint", "2C+10D capture AC 5S 6H claim", "yes"]) + "\n", cwd=tmp_path)
    assert ("hint: 2C+10D capture AC 5S 6H, then claim at once (type `2C+10D capture AC 5S 6H claim`): it takes "
            "your side to 11 points") in after.stdout
    assert "seat 0 wins" in after.stdout and "seat 1 wins" not in after.stdout, after.stdout[-1500:]
    # The browser's hint says the same (``thinking.hint_answer``, what the table sends): from the saved games.
    from cassino.apps.game.session import GameSession
    from cassino.apps.web.thinking import hint_answer

    run(["play", "hungarian", "--seed", "46", "--bot", "greedy", "--save", "c.json"],
        stdin="\n".join(HUNGARIAN_46 + ["quit"]) + "\n", cwd=tmp_path)
    for name, claim, move in (("a.json", "now", None), ("c.json", "after", "2C+10D capture AC 5S 6H")):
        session = GameSession.open(load_record(tmp_path / name), tmp_path / name, 0)
        answer = hint_answer(session, 0)
        assert answer["claim"] == claim and (answer["move"] or {}).get("text") == move, answer
        assert "claim the game" in answer["claimed"]


def test_a_control_character_in_a_typed_move_is_named(tmp_path: Path) -> None:
    """A player's audit typed `3G trail` and Ctrl-G (BEL) in Tuxedo: "`trail` is not an action: ... (did you mean
    `trail`?)", the character shown nowhere. It is named, and nothing is played."""
    result = run(["play", "tuxedo", "--seed", "4", "--bot", "greedy", "--save", "t.json"],
                 stdin="3G trail\x07\nquit\n", cwd=tmp_path)
    assert "the move holds a control character, \\x07, which a terminal does not show: type the move again" \
        in result.stdout, result.stdout[-800:]
    assert "is not an action" not in result.stdout


def test_a_french_card_in_tuxedo_and_an_emoji_suit_are_answered(tmp_path: Path) -> None:
    """A player's audit: in Tuxedo's colours `AS trail` was "not a move or a command" (where `KB` is told the pack's
    ranks); in Krypkasino `6♦️`, the symbol as an emoji picker inserts it (with a variation selector), was refused
    as no move where `6♦` is read."""
    tuxedo = run(["play", "tuxedo", "--seed", "4", "--bot", "greedy", "--save", "t.json"],
                 stdin="AS trail\nquit\n", cwd=tmp_path)
    assert "'AS': no rank A in this deck (ranks: 1 2 3 4 5 6 7 8 9 10)" in tuxedo.stdout, tuxedo.stdout[-600:]
    kryp = run(["play", "krypkasino", "--players", "3", "--seed", "5", "--bot", "greedy", "--save", "k.json"],
               stdin="6\u2666\ufe0f trail\nquit\n", cwd=tmp_path)
    assert "6D trail: 6D is not in your hand" in kryp.stdout, kryp.stdout[-600:]

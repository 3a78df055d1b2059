"""`cassino replay --moves` says what the rules did as the game was played, where `cassino play` said it and in its
words (``said``; tests/test_play_said_as_it_happens.py): every sweep in its move's line with what it scores (a
penalty, where the lowest total wins), the cards a deal laid on the table because they were too few to go round
where the deal began, and a claim with whether it was right. An audit's replay listed the moves and said none of
it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from cassino.apps.game.records import Record, apply_action, load_record, replay
from cassino.apps.game.said import claim_words
from cassino.engine.notation import cards_text
from cassino.language.variants import load_rules

from test_play_said_as_it_happens import swept

#: A replayed action's line: ``  17. seat 1 (greedy): JD capture 2S 6D: a sweep, 1 point to seat 1 (greedy)``.
NUMBERED = re.compile(r"^\s*(\d+)\. (.*)$")
LEFT_OVER = "the last 4 cards, too few to give each player one, go face up to the table with this deal: "


def run(args: list[str], cwd: Path, given: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, input=given)


def watched(tmp_path: Path, variant: str, players: int, seed: int) -> tuple[str, Record]:
    """A game of computer players (greedy) watched through the command line: its screen and its record (g.json)."""
    result = run(["play", variant, "--players", str(players), "--humans", "0", "--bot", "greedy", "--seed", str(seed),
                  "--save", "g.json", "--force"], tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout, load_record(tmp_path / "g.json")


def listing(tmp_path: Path, name: str = "g.json") -> str:
    """What `cassino replay NAME --moves` shows of the record in ``tmp_path``."""
    result = run(["replay", name, "--moves"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "engine" not in result.stdout.lower()
    return result.stdout


def numbered(shown: str) -> list[str]:
    """The replay's action lines, each without its number (checked to run 1, 2, 3 ...)."""
    found = [NUMBERED.match(line) for line in shown.splitlines()]
    lines = [m for m in found if m is not None]
    assert [int(m.group(1)) for m in lines] == list(range(1, len(lines) + 1))
    return [m.group(2) for m in lines]


# ---------------------------------------------------------------- sweeps
def test_a_replay_says_every_sweep_in_its_moves_line_as_the_game_said_it(tmp_path: Path) -> None:
    """Scopa, seed 2 (a sweep in the first hand): each move's line of the replay is the line the watched game
    printed, ``seat 1 (greedy) plays JD capture 2S 6D: a sweep, 1 point to seat 1 (greedy)`` read as the replay
    lists moves (``seat 1 (greedy): JD capture ...``), and a line says a sweep exactly where one was made."""
    screen, record = watched(tmp_path, "scopa", 2, 2)
    lines = numbered(listing(tmp_path))
    played = [line for line in screen.splitlines() if " plays " in line]
    assert len(lines) == len(played) == len(record.actions)
    made = swept(record)
    assert any(made)
    for line, live, sweep in zip(lines, played, made):
        assert line == live.replace(" plays ", ": ", 1)
        assert (": a sweep, 1 point to seat " in line) == sweep, line


def test_a_replayed_sweep_where_the_lowest_total_wins_is_said_as_a_penalty(tmp_path: Path) -> None:
    """Krypkasino: the tabbe costs the sweeper 5 and gives -5 to the player before, as the game said it."""
    screen, record = watched(tmp_path, "krypkasino", 3, 3)
    lines = numbered(listing(tmp_path))
    said = [line for line, sweep in zip(lines, swept(record)) if sweep]
    assert said and len(said) == sum(": a sweep" in line for line in lines)
    for line in said:
        sweeper = line.split(": ")[0]
        assert f": a sweep (tabbe), a penalty of 5 points against {sweeper}; -5 to seat " in line, line
        assert line.endswith(", the player before") and line.replace(": ", " plays ", 1) in screen, line


# ---------------------------------------------------------------- what a deal did as it was dealt
def test_a_replay_says_the_cards_a_deal_laid_on_the_table_where_the_deal_began(tmp_path: Path) -> None:
    """Six at Krypkasino: 104 - 4 cards deal out in four deals of 24, and the four over go face up to the table
    with the last: the replay says so once a hand, before the first move of the hand's fourth deal, naming the
    cards the deal laid there, in the words the watched game said them."""
    screen, record = watched(tmp_path, "krypkasino", 6, 1)
    shown = listing(tmp_path).splitlines()
    notes = [k for k, line in enumerate(shown) if LEFT_OVER in line]
    assert len(notes) == len(replay(record).results) >= 2
    fourth = []   # (the first action of each hand's fourth deal, the table as it was dealt)
    game, where = record.new_game(), None
    for k, action in enumerate(record.actions, 1):
        if (game.hand_no, game.hand.deal_no) != where:
            where = (game.hand_no, game.hand.deal_no)
            if where[1] == 4:
                fourth.append((k, set(cards_text(game.engine.deck, game.hand.table))))
        game = apply_action(game, action)
    assert len(fourth) == len(notes)
    for place, (k, table) in zip(notes, fourth):
        note = shown[place]
        assert note.startswith(f"      deal 4: {LEFT_OVER}"), note
        laid = note.split(LEFT_OVER)[1].split()
        assert len(laid) == 4 and set(laid) <= table
        assert NUMBERED.match(shown[place + 1]).group(1) == str(k)   # type: ignore[union-attr]
        assert LEFT_OVER + " ".join(laid) in screen   # (the watched game's words)


def test_a_replay_of_a_game_left_where_a_deal_begins_says_what_the_deal_did(tmp_path: Path) -> None:
    """A record left just before the first move of a hand's fourth deal: the listing ends with what that deal did,
    after the last move, as the game says it when play goes on."""
    _, record = watched(tmp_path, "krypkasino", 6, 1)
    game, k = record.new_game(), 0
    while game.hand.deal_no != 4:
        game = apply_action(game, record.actions[k])
        k += 1
    left = replace(record, actions=record.actions[:k], stored_result=None)
    (tmp_path / "left.json").write_text(json.dumps(left.to_json(game), ensure_ascii=False), encoding="utf-8")
    shown = listing(tmp_path, "left.json").rstrip().splitlines()
    assert shown[-2].startswith(f"      deal 4: {LEFT_OVER}"), shown[-3:]
    assert NUMBERED.match(shown[-3]).group(1) == str(k)   # type: ignore[union-attr]


# ---------------------------------------------------------------- claims
def test_a_replayed_claim_is_said_with_whether_it_was_right_its_seat_named_once(tmp_path: Path) -> None:
    """Hungarian Casino, seed 3 against greedy: the computer's claim, as the game said it, is the claim's line."""
    result = run(["play", "hungarian", "--seed", "3", "--bot", "greedy", "--save", "g.json", "--force"], tmp_path,
                 "1\n" * 60)
    assert result.returncode == 0, result.stderr
    claim = ("seat 1 (greedy) claims to have reached 11 points: right, with 11 counting this hand so far, and wins "
             "the game")
    assert claim in result.stdout
    lines = numbered(listing(tmp_path))
    assert lines[-1] == claim and load_record(tmp_path / "g.json").actions[-1] == "claim 1"


def test_a_replayed_false_claim_says_who_wins_by_it(tmp_path: Path) -> None:
    """A person's claim at the game's first move is false: the replay says so, and who wins, in the game's words."""
    record = Record(load_rules("hungarian"), 3, 2, False, ["human", "greedy"], source="hungarian")
    before = record.new_game()
    after = apply_action(before, "claim 0")
    record.actions.append("claim 0")
    (tmp_path / "g.json").write_text(json.dumps(record.to_json(after), ensure_ascii=False), encoding="utf-8")
    (line,) = numbered(listing(tmp_path))
    assert line == claim_words(before, after, 0, lambda seat: f"seat {seat} ({record.seats[seat]})")
    assert line.startswith("seat 0 (human) claims to have reached 11 points: a false claim"), line
    assert line.endswith("so seat 1 wins the game") and line.count("seat 0") == 1, line   # (sides as the game says)

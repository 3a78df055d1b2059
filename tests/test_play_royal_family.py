"""A player's audit of the Royal family at the terminal (royal, dominican, dominican-soto, tuxedo, hungarian,
hungarian-ulmann): what the game did and never said (a side under an endgame restriction, why a restricted side
won a tie at the target, an orange, a computer's claim), words that named internal identifiers or another game's
cards and moves, and `how`, help and the tutorial saying less or other than the rules (or, mid-lesson, the
rulebook's reading notes)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.apps.game.howto import how_to_play
from cassino.apps.game.records import load_record, replay
from cassino.apps.learning.tutorial import Tutorial
from cassino.apps.web.views import Told, log_view, swept_by
from cassino.engine.game import Game
from cassino.engine.notation import cards_text
from cassino.errors import CassinoError
from cassino.language.rulebook import rulebook
from cassino.language.variants import bundled_names, load_rules

from conftest import EXAMPLES

from test_play_said_as_it_happens import _session   # (a person at seat 0 against greedy players)


def run(args: list[str], cwd: Path, typed: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], capture_output=True, text=True, cwd=cwd,
                          input=typed, timeout=300)


def watched(tmp_path: Path, variant: str, seed: int, players: int = 2) -> str:
    """The screen of a game of computer players (greedy), watched through the command line."""
    result = run(["play", variant, "--players", str(players), "--humans", "0", "--bot", "greedy", "--seed", str(seed),
                  "--save", "g.json", "--force"], tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout


# ---------------------------------------------------------------- 1. a side under a restriction is told so
@pytest.mark.parametrize("variant, seed, hand, said", [
    ("dominican", 202, 4, "seat 0 (greedy) has exactly 20 points at the start of this hand, so may score only "
                          "spades in it; reaching 21 that way wins the game when the hand ends"),
    ("dominican-soto", 200, None, "has exactly 17 points at the start of this hand, so may score only cards and "
                                  "spades in it"),
])
def test_a_side_under_an_endgame_restriction_is_told_so_at_the_hands_start(tmp_path: Path, variant: str, seed: int,
                                                                              hand: int | None, said: str) -> None:
    book = run(["rules", variant], tmp_path).stdout
    assert "at the start of a hand may score only" in " ".join(book.split())   # (the rulebook's words)
    screen = watched(tmp_path, variant, seed)
    assert said in screen
    if hand is not None:   # (under the hand's first deal's banner, before anyone plays in it)
        block = screen.split(f"{variant} — hand {hand}, deal 1 ")[1]
        assert block.index(said) < block.index(" plays ")
    for line in screen.splitlines():
        if "at the start of this hand" in line:
            assert "_" not in line, line   # (big casino, not big_casino)


# ---------------------------------------------------------------- 2. why a restricted side won a tie at 21
def test_a_restricted_side_winning_with_another_at_the_target_is_told_why(tmp_path: Path) -> None:
    screen = watched(tmp_path, "dominican", 205)
    scoring = screen.split("hand 5 scoring")[1].split("game over")[0]
    assert "21 (was 19)" in scoring and "21 (was 20)" in scoring
    why = ("seat 0 began the hand with exactly 19 points, so could score only big casino, and reached 21 that way; "
           "seat 1, under a restriction too, reached it as well, but seat 0 was the first restricted side to meet "
           "its condition in the play, which wins")
    assert why in scoring
    assert scoring.index(why) < scoring.index("seat 0 (greedy) wins the game")


# ---------------------------------------------------------------- 3. the count-out order in words
def test_the_count_out_order_is_said_in_the_rulebooks_words(tmp_path: Path) -> None:
    screen = watched(tmp_path, "royal", 103)
    line = next(line for line in screen.splitlines() if "counted out in the order" in line)
    assert line.strip().startswith("more than one side reached 21: the points were counted out in the order cards, "
                                   "spades, big casino, little casino and aces, and seat 0 reached 21 first")
    assert "big_casino" not in screen and "little_casino" not in screen
    assert "sweeps" not in line   # (Royal's sweeps score nothing)


# ---------------------------------------------------------------- 4. an orange is said as a sweep is
def test_an_orange_is_said_in_its_moves_line_with_what_it_scores(tmp_path: Path) -> None:
    typed = "1\n" * 22 + "6B capture 1B 5Y 6R\nquit\n"
    result = run(["play", "tuxedo", "--seed", "5", "--bot", "greedy", "--save", "g.json", "--force"], tmp_path, typed)
    assert result.returncode == 0, result.stderr
    assert "seat 0 (you) plays 6B capture 1B 5Y 6R: an orange, 10 points to seat 0 (you)" in result.stdout
    # (a capture taking no red and yellow card together says no orange)
    assert result.stdout.count("an orange") == 1
    # The browser's log says it beside the turn too (the same words, ``said.event_words``).
    told = Told()
    log: list[tuple[int, str]] = []

    def seen(before: Game, action: str, after: Game) -> None:
        if after.hand_no != before.hand_no:
            log.clear()
            told.swept.clear()
        kept = swept_by(before, action, after)
        if kept is not None:
            told.swept[len(log)] = kept
        log.append((before.hand.turn, action))

    replay(load_record(tmp_path / "g.json"), each=seen)
    said = [entry for entry in log_view(log, told=told) if entry.get("said")]
    assert {"seat": 0, "text": "6B capture 1B 5Y 6R", "said": "an orange, 10 points to seat 0"} in said


# ---------------------------------------------------------------- 5. a claim is said as it is made
def test_a_computers_claim_is_said_and_whether_it_was_right(tmp_path: Path) -> None:
    result = run(["play", "hungarian", "--seed", "3", "--bot", "greedy", "--save", "g.json", "--force"], tmp_path,
                 "1\n" * 60)
    assert result.returncode == 0, result.stderr
    claim = "seat 1 (greedy) claims to have reached 11 points: right, with 11 counting this hand so far, and wins the game"
    assert claim in result.stdout
    assert result.stdout.index(claim) < result.stdout.index("game over")


# ---------------------------------------------------------------- 6. teams only where four play
def test_how_says_teams_only_for_the_counts_that_play_them() -> None:
    assert how_to_play(load_rules("dominican")).startswith(
        "How to play dominican (2 to 4 players; four play in teams of two)")
    assert how_to_play(load_rules("royal")).startswith("How to play royal (2 to 4 players; four may play in teams")
    assert how_to_play(load_rules("scopone")).startswith("How to play scopone (4 players only; in teams of two)")


# ---------------------------------------------------------------- 7. three sides cancel one of each
def test_three_sides_cancel_one_sweep_of_each(tmp_path: Path) -> None:
    screen = watched(tmp_path, "dominican", 1, players=3)
    assert "3 sweeps cancelled out, one of each side's at a time" in screen
    assert "one against one" not in screen


# ---------------------------------------------------------------- 8. a game without partnerships says so
def test_partners_asked_of_a_game_without_partnerships_says_it_has_none(tmp_path: Path) -> None:
    result = run(["play", "hungarian", "--partners", "--save", "g.json"], tmp_path)
    assert result.returncode != 0
    assert "hungarian is played without partnerships; leave out --partners" in result.stderr
    assert "needs four players" not in result.stderr


# ---------------------------------------------------------------- 9. help from the game's deck and rules
def test_help_names_this_games_cards_and_kinds_of_move(tmp_path: Path) -> None:
    tuxedo = _session(tmp_path, "tuxedo").help_text()
    assert "10S" not in tuxedo and "spades" not in tuxedo
    assert "moves 10B: those with the 10B" in tuxedo
    assert "Cards are typed rank then suit letter: B black, R red, G green, Y yellow (e.g. 10Y; 10 may be typed T)." in tuxedo
    hungarian = _session(tmp_path, "hungarian").help_text()
    assert "moves build" not in hungarian and "moves capture" in hungarian
    assert "moves build" in _session(tmp_path, "royal").help_text()


def test_a_word_after_trail_names_no_form_the_game_lacks(tmp_path: Path) -> None:
    session = _session(tmp_path, "royal")
    assert not session.game.rules.trail.with_build
    card = cards_text(session.game.engine.deck, session.game.hand.hands[0])[0]
    with pytest.raises(CassinoError) as e:
        session.read_move(f"{card} trail trail")
    said = str(e.value)
    assert "trail build" not in said and "a trail names only the card played, e.g. `" in said
    trail = said.split("e.g. `")[1].split("`")[0]
    assert trail.endswith(" trail") and trail.split()[0][-1] in "SHDC"


# ---------------------------------------------------------------- 10. your hand, to its player
def test_a_card_not_held_is_said_to_be_not_in_your_hand(tmp_path: Path) -> None:
    session = _session(tmp_path, "royal")   # (the seat to play: the one who typed the move)
    deck = session.game.engine.deck
    missing = next(c for c in cards_text(deck, (1 << len(deck.cards)) - 1)
                   if c not in cards_text(deck, session.game.hand.hands[session.game.hand.turn]))
    with pytest.raises(CassinoError) as e:
        session.read_move(f"{missing} trail")
    assert str(e.value).endswith(f"{missing} is not in your hand")


# ---------------------------------------------------------------- 11. the tutorial's label fits the rule
def test_dominicans_rule_on_trailing_an_equal_card_is_not_called_compulsory_capture(tmp_path: Path) -> None:
    result = run(["play", "dominican", "--tutorial", "--seed", "1", "--bot", "greedy", "--save", "g.json", "--force"],
                 tmp_path, "1\n" * 80)
    assert result.returncode == 0, result.stderr
    assert ("rule (no trailing a card equal to a loose card): You may not trail a card equal to a loose card on the "
            "table") in result.stdout
    assert "rule (compulsory capture)" not in result.stdout


# ---------------------------------------------------------------- 12. Ulmann's main difference in `how`
def test_ulmanns_how_says_cards_played_together_may_split_into_sets() -> None:
    how = how_to_play(load_rules("hungarian-ulmann"))
    assert "Cards played together count as their total, or split into sets of equal worth that each make the " \
           "value taken" in how


# ---------------------------------------------------------------- 13. no "engine" where a player reads
def test_help_and_version_do_not_speak_of_an_engine(tmp_path: Path) -> None:
    for args in (["--help"], ["rules", "--help"], ["--version"]):
        result = run(args, tmp_path)
        assert result.returncode == 0, result.stderr
        assert "engine" not in result.stdout, (args, result.stdout)
    version = run(["--version"], tmp_path).stdout
    assert version.rstrip().endswith(("(pure Python)", "(compiled, mypyc)"))


# ---------------------------------------------------------------- 14. a lesson teaches the rule, not a reading
#: A setting's key as the rule files write it (``seats.partnerships``), which a player never types nor reads.
SETTING_KEY = re.compile(r"\b(?:seats|deck|deal|turn|capture|build|trail|sweeps|hand|scoring|game|endgame)\.[a-z_]+")


@pytest.mark.parametrize("variant, topic", [("royal", "sweep"), ("hungarian", "first turn")])
def test_a_tutorial_game_shows_no_reading_notes(tmp_path: Path, variant: str, topic: str) -> None:
    """The audit's games: Royal's first sweep was taught with "Reading: ... 001's Royal Cassino ... the hoyle variant
    plays them ... and examples/royal-sweeps.yaml scores sweeps here", Hungarian's first turn with "Reading: 002 has
    the first player to announce correctly ...": the project's notes of which way it read a text, in the reference
    (`cassino rules`), not a newcomer's lesson. The rule those lessons teach is still taught."""
    result = run(["play", variant, "--seed", "1", "--bot", "greedy", "--tutorial", "--save", "g.json", "--force"],
                 tmp_path, "1\n" * 200)
    assert result.returncode == 0, result.stderr
    screen = result.stdout
    assert "game over" in screen
    # (many rules taught: a heading each, its rule's sentences under it)
    assert f"rule ({topic}): " in screen and len(re.findall(r"rule \(", screen)) >= 6
    assert "Reading:" not in screen
    assert not re.search(r"examples/\S*\.yaml", screen)
    assert not SETTING_KEY.search(screen), SETTING_KEY.search(screen)
    book = " ".join(run(["rules", variant], tmp_path).stdout.split())
    assert "Reading: " in book   # (the reference keeps them)


@pytest.mark.parametrize("name", [*bundled_names(), *(str(p) for p in EXAMPLES)])
def test_no_lesson_of_any_rules_is_a_reading(name: str) -> None:
    """Every rule file's tutorial sentences: its rulebook's rules, none of its readings (which every file has: who
    deals first)."""
    rules = load_rules(name)
    clauses = Tutorial.for_rules(rules).clauses
    book = rulebook(rules).clauses()
    assert any(c.text.startswith("Reading: ") for c in book.values())
    assert not [key for key, text in clauses.items() if ".reading" in key or text.startswith("Reading:")]
    assert set(clauses) == {key for key, c in book.items() if not c.text.startswith("Reading: ")}

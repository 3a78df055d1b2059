"""The tutorial teaches African Casino's building (issue 36) the first time each setting decides a
move: a move that uses it, or a move the cards allow that it refuses (as compulsory capture is taught)."""

from __future__ import annotations

from typing import Any

import pytest

from cassino.apps.learning.tutorial import TOPICS, Tutorial, limits, refused_by_turn_rules, situations
from cassino.engine.game import Game
from cassino.engine.notation import parse_move

from conftest import ROOT, position_at, every_lesson, every_limit

TAKEN = str(ROOT / "examples" / "swazi-tops-taken.yaml")


def _at(name: str, hands: dict[int, list[str]], table: list[str], **position: Any) -> Game:
    return Game.at(*position_at(name, hands, table, **position))


def _lessons(game: Game, text: str, before: bool = True) -> dict[str, list[str]]:
    """The lessons a fresh tutorial teaches at a decision, by topic (the clause keys shown): the rules
    limiting the choice, before it (``before``), and what the move then did."""
    move = parse_move(text, game.engine.deck)
    tutorial, limited = Tutorial.for_rules(game.rules), ()
    if before:
        tutorial, limited = every_limit(tutorial, game)
    _, lessons = every_lesson(tutorial, game, move, game.play(move))
    lessons = limited + lessons
    out: dict[str, list[str]] = {}
    for lesson in lessons:
        out.setdefault(lesson.topic, []).append(lesson.key)
    return out


def test_every_new_setting_has_a_topic() -> None:
    keys = {k for _, ks in TOPICS for k in ks}
    for setting in ("capture.pile_cards", "build.augment_opponents", "build.raise_partners",
                    "build.one_per_value", "build.one_per_player"):
        assert setting in keys, setting


def test_a_pile_card_used_to_augment_teaches_how_pile_cards_are_used() -> None:
    game = _at("swazi-casino", {0: ["9C", "KS"], 1: ["KH"]}, ["9S", "7H", "4D"], captured={1: ["2C", "5H"]})
    lessons = _lessons(game, "9C capture 9S 4D 5H 7H 2C", before=False)   # (the move's own lesson)
    assert [k for k in lessons["pile top"] if ".reading" not in k][:2] == ["capture.from_piles", "capture.pile_cards"]
    # (the rules alone: the file's "Reading:" notes stay in `cassino rules`, not in a newcomer's lesson)
    assert not [k for k in lessons["pile top"] if ".reading" in k]
    text = Tutorial.for_rules(game.rules).clauses["capture.pile_cards"]
    assert "never captured directly" in text


def test_a_pile_top_the_rule_will_not_let_you_capture_teaches_it_too() -> None:
    """9C with 3S on the table and a 6D on the opponent's pile: 9C capture 3S 6D is what the cards allow,
    and capture.pile_cards: augment refuses it; the player trails, and is taught why."""
    game = _at("swazi-casino", {0: ["9C", "KS"], 1: ["KH"]}, ["3S"], captured={1: ["4H", "6D"]})
    assert refused_by_turn_rules(game) == {"pile card refused"}
    assert [k for k in _lessons(game, "KS trail")["pile card refused"] if ".reading" not in k][:2] == \
        ["capture.from_piles", "capture.pile_cards"]
    # Where the top is taken like a loose card, nothing is refused: the trail teaches no pile lesson.
    taken = _at(TAKEN, {0: ["9C", "KS"], 1: ["KH"]}, ["3S"], captured={1: ["4H", "6D"]})
    assert refused_by_turn_rules(taken) == set()
    assert not {"pile top", "pile card refused"} & set(_lessons(taken, "KS trail"))
    assert "pile top" in _lessons(taken, "9C capture 3S 6D")


def test_the_pile_rules_are_taught_once_whichever_way_they_come_first() -> None:
    """Used (pile top) after refused (pile card refused), or the other way round: the sentences once."""
    refused = _at("swazi-casino", {0: ["9C", "KS"], 1: ["KH"]}, ["3S"], captured={1: ["4H", "6D"]})
    tutorial, first = every_limit(Tutorial.for_rules(refused.rules), refused)
    used = _at("swazi-casino", {0: ["9C", "KS"], 1: ["KH"]}, ["9S", "7H", "4D"], captured={1: ["2C", "5H"]})
    take = parse_move("9C capture 9S 4D 5H", used.engine.deck)
    tutorial, second = tutorial.after(used, take, used.play(take))
    assert "capture.pile_cards" in [lesson.key for lesson in first]
    assert not [lesson for lesson in second if lesson.key.startswith(("capture.pile_cards", "capture.from_piles"))]
    assert "pile top" in tutorial.shown


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_another_sides_build_not_added_to(name: str) -> None:
    game = _at(name, {0: ["6D", "6S", "2C"], 1: ["8H"]}, ["4H"], builds=[(["4S", "2S"], 6, 1)])
    assert "another side's build" in refused_by_turn_rules(game)
    # (the rule alone: the files' reading of it, the augmenting written as the capture itself, is `cassino rules`')
    assert _lessons(game, "2C trail")["another side's build"] == ["build.augment_opponents"]
    royal = _at("royal", {0: ["6D", "6S", "2C"], 1: ["8H"]}, ["4H"], builds=[(["4S", "2S"], 6, 1)])
    assert refused_by_turn_rules(royal) == set()


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_a_partners_build_not_raised(name: str) -> None:
    game = _at(name, {0: ["3C", "9D"], 1: ["8H"], 2: ["6C"], 3: ["7C"]}, ["10H"], builds=[(["4S", "2S"], 6, 2)],
               players=4, partners=True)
    assert refused_by_turn_rules(game) == {"partner's build"}
    assert _lessons(game, "9D trail")["partner's build"] == ["build.raise_partners"]


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_a_raise_to_a_value_only_the_partner_holds_is_taught(name: str) -> None:
    """A rule of its own since session 99 (``build.raise_for_partner``): seat 1 may not raise seat 2's 8 to the 10
    only its partner holds; the lesson is that rule's alone, not the partner's-build rule's."""
    game = _at(name, {1: ["2D", "9S"], 3: ["10S", "4C"], 0: ["9C"], 2: ["8C"]}, ["5H"],
               builds=[(["2C", "6D"], 8, 2), (["3D", "7H"], 10, 3)], players=4, partners=True, to_play=1)
    # (and one build a value: the raise not joined to the partner's build of 10)
    assert refused_by_turn_rules(game) == {"raise to a partner's value", "one build a value"}
    assert _lessons(game, "9S trail")["raise to a partner's value"] == ["build.raise_for_partner"]


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_one_build_a_value(name: str) -> None:
    game = _at(name, {0: ["3C", "8S", "4D"], 1: ["8H"], 2: ["6C"], 3: ["7C"]}, ["5S"],
               builds=[(["5H", "3H"], 8, 2)], players=4, partners=True)
    assert "one build a value" in refused_by_turn_rules(game)
    assert _lessons(game, "4D trail")["one build a value"] == ["build.one_per_value"]


def test_one_build_a_player_taught_without_its_reading() -> None:
    game = _at("south-african-casino", {0: ["3C", "8S", "5D"], 1: ["8H"]}, ["2H", "4C"],
               builds=[(["5H", "3H"], 8, 0)])
    assert "one build a player" in refused_by_turn_rules(game)
    lessons = _lessons(game, "8S capture [3H 5H]")
    assert lessons["one build a player"] == ["build.one_per_player"]   # (its reading stays in `cassino rules`)
    swazi = _at("swazi-casino", {0: ["3C", "8S", "5D"], 1: ["8H"]}, ["2H", "4C"], builds=[(["5H", "3H"], 8, 0)])
    assert "one build a player" not in refused_by_turn_rules(swazi)


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_the_first_turn_says_a_turn_holds_several_actions(name: str) -> None:
    """Where a player may build with cards in play before the card from the hand (a player's audit did so and
    was taught nothing of it): the first turn's lesson says what such a turn is, and Casino's does not."""
    from cassino.language.variants import load_rules

    _, lessons = Tutorial.for_rules(load_rules(name)).start()
    assert [lesson.key for lesson in lessons if lesson.topic == "first turn"][:2] == [
        "turn.kinds", "build.free_actions.turn"]
    _, casino = Tutorial.for_rules(load_rules("standard")).start()
    assert casino and not any(lesson.key == "build.free_actions.turn" for lesson in casino)


def test_a_lesson_is_taught_once_and_a_taught_topic_is_not_looked_for() -> None:
    game = _at("swazi-casino", {0: ["9C", "KS"], 1: ["KH"]}, ["3S"], captured={1: ["4H", "6D"]})
    move = parse_move("KS trail", game.engine.deck)
    tutorial, first = every_limit(Tutorial.for_rules(game.rules), game)
    assert any(lesson.topic == "pile card refused" for lesson in first)
    # (taught before any refusal: shown under what the rules say, the topic's name kept for records)
    assert {lesson.heading for lesson in first if lesson.topic == "pile card refused"} == {"what pile cards may do"}
    assert all(lesson.to_json()["heading"] == lesson.heading for lesson in first)
    assert all(lesson.ahead and lesson.to_json()["ahead"] for lesson in first)   # (said "before you choose")
    _, again = tutorial.before(game)
    assert not any(lesson.topic == "pile card refused" for lesson in again)
    _, after_move = tutorial.after(game, move, game.play(move), to_move=True)
    assert not any(lesson.topic == "pile card refused" for lesson in after_move)
    assert "pile card refused" in limits(game)
    assert "pile card refused" not in limits(game, skip=frozenset({"pile card refused"}))
    assert "pile card refused" not in situations(game, move, game.play(move))   # (the move's own: not a limit)


@pytest.mark.parametrize("name,players,partners", [("south-african-casino", 4, True), ("swazi-casino", 3, False),
                                                   ("south-african-casino", 2, False)])
def test_one_lesson_of_play_a_decision_at_the_terminal(name: str, players: int, partners: bool) -> None:
    """Whole games at the terminal with the tutorial on, the person's moves drawn at random: between one
    prompt and the next at most one topic of play is taught (the game's events may come with it). An
    audit saw two at one move: the end of the turn the game plays for the player (nothing left to build)
    taught a second rule, which had not decided anything the player did."""
    import random
    import re
    import tempfile
    from io import StringIO
    from pathlib import Path

    from rich.console import Console

    from cassino.apps.game.play import Aids, start_session
    from cassino.apps.game.records import Record
    from cassino.apps.learning.tutorial import EVENTS, HEADINGS, KINDS, LIMITS

    TOPIC_OF = {heading: topic for topic, heading in HEADINGS.items()}   # (a topic shown under its heading)
    from cassino.language.variants import load_rules

    taught = 0
    for seed in (12, 13, 14):
        out = StringIO()
        rng = random.Random(seed)
        prompts = 0

        def read(prompt: str) -> str:
            nonlocal prompts
            out.write(f"\n<<prompt {prompt}>>\n")
            prompts += 1
            if prompts > 120:
                raise EOFError
            listed = re.findall(r"^\s+(\d+)\. ", out.getvalue().rsplit("<<prompt", 2)[-2], re.M)
            return rng.choice(listed) if listed else "1"

        seats = ["human"] + ["greedy"] * (players - 1)
        record = Record(load_rules(name), seed, players, partners, seats, source=name)
        with tempfile.TemporaryDirectory() as folder:
            session = start_session(record, Path(folder) / "g.json",
                                    Console(file=out, width=200, markup=False, highlight=False, soft_wrap=True),
                                    read=read, aids=Aids(tutorial=True))
            session.run()
        for between in out.getvalue().split("<<prompt")[1:]:
            # (a partner's build for the learner is taught at the partner's move, as the game's events are)
            topics = {TOPIC_OF.get(t, t) for t in re.findall(r"^rule \(([^)]*)\): ", between, re.M)} - EVENTS \
                - {"build for a partner"}
            moved, limited = topics - LIMITS, topics & LIMITS
            # What the move did (a kind of move's first lesson may bring one particular rule with it), and
            # at most one rule limiting the next choice.
            assert len(moved) <= 1 or (len(moved) == 2 and moved & set(KINDS)), (seed, topics)
            # (a turn going on is said at its prompt, and may also be what the move before did)
            assert len(limited - {"several actions"}) <= 1, (seed, topics)
            taught += len(topics)
    assert taught >= 6, (name, taught)   # the games did teach: the check is not empty


@pytest.mark.parametrize("name,players", [("swazi-casino", 2), ("south-african-casino", 3)])
def test_several_actions_is_never_taught_at_a_turn_the_game_ends_for_the_player(name: str, players: int) -> None:
    """A browser audit: "several actions" was taught after the game ended a player's turn for them (nothing
    left to build: the card played, then `end` with no choice), in the browser after that `end` and at the
    terminal after the card; neither was a turn that went on. Random games, every seat a learner whose own
    actions are taught (as the browser teaches them)."""
    import random

    from cassino.language.variants import load_rules

    rules = load_rules(name)
    seen = 0
    for seed in range(6):
        game, rng = Game.new(rules, seed, players), random.Random(seed)
        tutorials = {seat: Tutorial.for_rules(rules) for seat in range(players)}
        while not game.over and game.hand_no == 1:
            moves = game.engine.playable_moves(game.hand)
            move = rng.choice(moves)
            after = game.play(move)
            seat = game.hand.turn
            tutorials[seat], ahead = tutorials[seat].before(game)   # (at the prompt, as the terminal asks)
            if game.hand.turn_card and len(moves) > 1:   # a turn going on, with a choice: said at its prompt
                assert "several actions" in tutorials[seat].shown, (seed, [m.kind for m in moves])
            tutorials[seat], lessons = tutorials[seat].after(game, move, after)
            ended_for_them = move.kind.name == "END" and len(moves) == 1
            nothing_left = (move.played != 0 and not after.over and after.hand.turn_card != 0 and after.hand.turn == seat
                            and [m.kind.name for m in after.engine.playable_moves(after.hand)] == ["END"])
            if any(lesson.topic == "several actions" for lesson in lessons + ahead):
                seen += 1
                assert not ended_for_them and not nothing_left, (seed, str(move))
            game = after
    assert seen >= 3, seen   # (taught where the turn did go on: the check is not empty)


def test_a_trail_of_a_card_of_two_values_does_not_teach_card_values() -> None:
    """A browser audit: Swazi's ace (1 or 14) was taught at `AS trail`, a move that counts no value."""
    game = _at("swazi-casino", {0: ["AS", "9C"], 1: ["KH"]}, ["3S"])
    assert "card values" not in _lessons(game, "AS trail", before=False)
    built = _at("swazi-casino", {0: ["AS", "4C"], 1: ["KH"]}, ["3S"])
    assert "card values" in _lessons(built, "AS build 4 on 3S", before=False)


@pytest.mark.parametrize("hands, table, builds, text", [
    # a new build of cards in play: `build 8 on 5S 3D`, 8H kept for it
    ({0: ["8H", "2S"], 1: ["6H"]}, ["5S", "3D", "9C"], (), "build 8 on 5S 3D"),
    # loose cards added to the seat's own build of 8 (a browser audit: taught "made with your card" here)
    ({0: ["8H", "2S"], 1: ["6H"]}, ["AC", "7H", "9C"], (["8S", "8D"], 8, 0), "build 8 on [8S 8D] AC 7H")])
def test_a_build_of_cards_in_play_teaches_several_actions_not_the_rules_of_building_with_a_card(
        hands: dict[int, list[str]], table: list[str], builds: Any, text: str) -> None:
    game = _at("south-african-casino", hands, table, builds=(builds,) if builds else ())
    move = parse_move(text, game.engine.deck)
    found = situations(game, move, game.play(move))
    assert "several actions" in found and not found & {"build", "add to build", "raise"}, found


@pytest.mark.parametrize("name", ["south-african-casino", "swazi-casino", "standard", "royal", "dominican", "escoba",
                                  "hoyle", "tuxedo"])
def test_no_lesson_points_to_another_part_of_the_book(name: str) -> None:
    """The rulebook's "(below)" and "(see the deal)" point elsewhere in the book; a lesson stands alone (a browser
    audit read "You may still raise it (below)" and waited for the raise's lesson; a reader's audit met Escoba's
    "(see the deal)" before the dealer's take was taught)."""
    import re

    from cassino.language.rulebook import rulebook
    from cassino.language.variants import load_rules

    rules = load_rules(name)
    clauses = Tutorial.for_rules(rules).clauses
    assert not [k for k, text in clauses.items() if re.search(r"\((below|above|see [^()]*)\)", text)]
    book = {k: c.text for k, c in rulebook(rules).rule_clauses().items()}
    pointed = [k for k, text in book.items() if re.search(r"\((below|see [^()]*)\)", text)]
    assert all(clauses[k] != book[k] for k in pointed)   # (the book keeps them)

"""The tutorial teaches one lesson at a time, at the player's own move, when the rule decided it (issue 50)."""

from __future__ import annotations

from cassino.apps.learning.tutorial import EVENTS, Tutorial, situations
from cassino.engine.game import Game
from cassino.engine.notation import parse_move

from conftest import position_at


def at(name: str, hands: dict[int, list[str]], table: list[str], **position: object) -> Game:
    return Game.at(*position_at(name, hands, table, **position))  # type: ignore[arg-type]


def found(game: Game, text: str) -> set[str]:
    move = parse_move(text, game.engine.deck)
    return situations(game, move, game.play(move))


def test_equal_card_first_only_where_a_sum_was_passed_over() -> None:
    """Scopa (J is 8): the jack taking a jack with no set of 8 on the table was not decided by the rule."""
    alone = at("scopa", {0: ["JS", "2C"], 1: ["KH"]}, ["JH", "4D"])
    assert "equal card first" not in found(alone, "JS capture JH")
    chosen = at("scopa", {0: ["JS", "2C"], 1: ["KH"]}, ["JH", "5C", "3D"])
    assert "equal card first" in found(chosen, "JS capture JH")


def test_another_players_move_teaches_only_the_games_events() -> None:
    game = at("standard", {0: ["9C", "KS"], 1: ["KH"]}, ["4H", "5D"])
    move = parse_move("9C capture 4H 5D", game.engine.deck)
    tutorial = Tutorial.for_rules(game.rules)
    _, theirs = tutorial.after(game, move, game.play(move), own=False)
    _, mine = tutorial.after(game, move, game.play(move), own=True)
    assert all(lesson.topic in EVENTS for lesson in theirs)
    assert mine and mine[0].topic == "capture"


def test_one_topic_of_play_an_action_the_rest_later() -> None:
    """A first capture that is also a sum: capture now, the sum the next time a sum is met."""
    game = at("standard", {0: ["9C", "KS"], 1: ["KH"]}, ["4H", "5D"])
    move = parse_move("9C capture 4H 5D", game.engine.deck)
    assert {"capture", "sum"} <= found(game, "9C capture 4H 5D")
    tutorial, first = Tutorial.for_rules(game.rules).after(game, move, game.play(move))
    assert {lesson.topic for lesson in first} == {"capture"}
    _, second = tutorial.after(game, move, game.play(move))
    assert {lesson.topic for lesson in second} == {"sum"}


def test_the_owners_duty_is_its_own_lesson_when_it_binds() -> None:
    """Standard: a build's owner may not trail while cards are left to deal; building first teaches building
    (its sentences only), the duty when the owner is to move again."""
    game = at("standard", {0: ["3C", "8H", "KS"], 1: ["KH"]}, ["5D"])
    assert "owner's duty" not in found(game, "3C build 8 on 5D")
    owner = at("standard", {0: ["8H", "KS"], 1: ["KH"]}, ["2C"], builds=[(["5D", "3C"], 8, 0)])
    assert "owner's duty" in found(owner, "8H capture [5D 3C]")
    tutorial = Tutorial.for_rules(game.rules)
    build = parse_move("3C build 8 on 5D", game.engine.deck)
    _, lessons = tutorial.after(game, build, game.play(build))
    assert lessons and all(not lesson.key.startswith("build.owner_obligation") for lesson in lessons)

"""African Casino's building in the rulebook (issue 36): each new setting's sentence, said where the
setting is on, and what it says checked against the engine on a position of its own.

The positions follow the Khasino rules document ([Kh], /work/notes/khasino-rules.txt in the session
that wrote them): "4. Augmenting a card or build" (the 9, 7, 4 example), "3. Changing the value of a
single build", "A base is", and "2. Creating a single build".
"""

from __future__ import annotations

from typing import Any

import pytest

from cassino.engine.core import Engine
from cassino.engine.notation import parse_move
from cassino.language.rulebook import rulebook
from cassino.language.variants import load_rules

from conftest import ROOT, position_at

_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")


def _clauses(name: str) -> dict[str, str]:
    return {k: c.text for k, c in rulebook(load_rules(name)).clauses().items()}


def _at(name: str, hands: dict[int, list[str]], table: list[str], **position: Any) -> tuple[Engine, Any]:
    return position_at(name, hands, table, **position)


def _legal(engine: Engine, state: Any, text: str) -> bool:
    return engine.is_legal(state, parse_move(text, engine.deck))


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_a_pile_card_only_augments_as_the_book_says(name: str) -> None:
    """'never captured directly, nor built with on its own ... beside a base ... one card of a pile a set;
    the card under it in play for a later set ... up to four cards of a pile'."""
    text = _clauses(name)["capture.pile_cards"]
    assert "never captured directly, nor built with on its own" in text
    assert f"up to {_NUMBERS[load_rules(name).capture.pile_reach]} cards of a pile, from the top down" in text
    # [Kh] 4: a 9 in hand; 9, 7, 4 in the layout; the opponent's pile a 5 over a 2.
    engine, state = _at(name, {0: ["9C", "3D"], 1: ["8H"]}, ["9S", "7H", "4D"], captured={1: ["2C", "5H"]})
    assert _legal(engine, state, "9C capture 9S 4D 5H 7H 2C")      # the 5 with the 4, then the 2 with the 7
    assert not _legal(engine, state, "9C capture 4D 5H")            # no base: the 4 and 5 make the only set
    assert not _legal(engine, state, "9C capture 9S 7H 2C")         # the 2 is under the 5, not taken first
    # Captured directly, alone or in a set with table cards: never.
    engine, state = _at(name, {0: ["9C", "KD" if name == "swazi-casino" else "10D"], 1: ["8H"]}, ["3S"],
                        captured={1: ["4H", "6D"]})
    assert not _legal(engine, state, "9C capture 3S 6D")
    # Built with, beside the played card as the base (kept another 9 to take the build): refused in both
    # bundled files, whose base is of floor cards ([Kh] "The card must be built on the floor first before you
    # can start going to other people's cards"), and the book says so (capture.pile_base: layout).
    engine, state = _at(name, {0: ["9C", "9D"], 1: ["8H"]}, ["4D"], captured={1: ["5H"]})
    played_base = False
    assert _legal(engine, state, "9C build 9 on 4D 5H") == played_base
    assert ("never a base on its own" in text) != played_base
    assert not _legal(engine, state, "9C capture 4D 5H")


def test_four_cards_of_a_pile_are_in_reach_and_not_a_fifth() -> None:
    engine, state = _at("south-african-casino", {0: ["10C", "2D"], 1: ["8H"]},
                        ["10S", "9S", "8S", "7S", "6S", "5S"],
                        captured={1: ["5C", "4C", "3C", "2C", "AC"]})    # the ace on top, the 5 fifth
    assert _legal(engine, state, "10C capture 10S 9S AC 8S 2C 7S 3C 6S 4C")
    fifth = parse_move("10C capture 10S 9S AC 8S 2C 7S 3C 6S 4C 5S 5C", engine.deck)
    assert not engine.is_legal(state, fifth)
    assert "lies too deep in a capture pile" in engine.why_illegal(state, fifth)


def test_loose_cards_beside_a_build_of_their_value_are_no_base() -> None:
    text = _clauses("swazi-casino")["capture.pile_cards"]
    assert "loose cards are no base while a build of that value stays on the table" in text
    engine, state = _at("swazi-casino", {0: ["9C", "KD"], 1: ["8H"]}, ["9S"], builds=[(["5D", "4D"], 9, 1)],
                        captured={1: ["9H"]})
    assert not _legal(engine, state, "9C capture 9S 9H")
    assert _legal(engine, state, "9C capture [4D 5D] 9S 9H")


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_another_sides_build_grows_only_as_it_is_captured(name: str) -> None:
    """[Kh] 4: 'You can augment a build owned by your opponent only if you also capture that build'."""
    said = _clauses(name)["build.augment_opponents"]
    assert "add a set to a build another side owns only with the card that captures it, in the same action" in said
    # (a re-attack read "You never add to it and leave it on the table" against the raise of another side's build)
    assert said.endswith("You never add a set to it and leave it on the table. You may still raise it (below).")
    engine, state = _at(name, {0: ["6D", "6S", "2C"], 1: ["8H"]}, ["4H", "2H"], builds=[(["4S", "2S"], 6, 1)])
    assert not _legal(engine, state, "6D build 6 on [2S 4S]")
    assert not _legal(engine, state, "2C build 6 on [2S 4S] 4H")
    assert _legal(engine, state, "6D capture [2S 4S] 2H 4H")
    # Your own side's build you may add to.
    engine, state = _at(name, {0: ["6D", "6S", "2C"], 1: ["8H"]}, ["4H"], builds=[(["4S", "2S"], 6, 0)])
    assert _legal(engine, state, "2C build 6 on [2S 4S] 4H")


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_a_partners_build_is_not_raised(name: str) -> None:
    """[Kh] 3: 'You would not be allowed to do this if the 9-build had been formed by yourself or your partner'."""
    clauses = _clauses(name)
    assert clauses["build.raise_partners"] == "You may not raise a build your partner owns."
    assert "you may raise them" not in clauses["build.raise_own"]
    engine, state = _at(name, {0: ["3C", "9D"], 1: ["8H"], 2: ["6C"], 3: ["7C"]}, ["10H"],
                        builds=[(["4S", "2S"], 6, 2)], players=4, partners=True)
    assert not _legal(engine, state, "3C build 9 on [2S 4S]")
    engine, state = _at(name, {0: ["3C", "9D"], 1: ["8H"], 2: ["6C"], 3: ["7C"]}, ["10H"],
                        builds=[(["4S", "2S"], 6, 1)], players=4, partners=True)
    assert _legal(engine, state, "3C build 9 on [2S 4S]")        # an opponent's: raised


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_no_two_builds_of_one_value(name: str) -> None:
    """'There cannot be two builds of the same capture value on the table at the same time'."""
    text = _clauses(name)["build.one_per_value"]
    assert text.startswith("There are never two builds of one value on the table")
    assert "a build raised to a value already built must join that build in the same move" in text
    # A partner's build of 8: a new 8 is made as part of it, not beside it.
    engine, state = _at(name, {0: ["3C", "8S"], 1: ["KH" if name == "swazi-casino" else "10H"], 2: ["6C"],
                               3: ["7C"]}, ["5S"], builds=[(["5H", "3H"], 8, 2)], players=4, partners=True)
    assert not _legal(engine, state, "3C build 8 on 5S")
    assert _legal(engine, state, "3C build 8 on [3H 5H] 5S")
    # No raise to a value already built beside it: an opponent's 6 raised to 9 joins your own 9 ([Kh] A base
    # is: "You can make a second build of a value which your side already owns, but you must then combine them").
    engine, state = _at(name, {0: ["3C", "9D", "9H"], 1: ["8H"]}, ["10D"],
                        builds=[(["4S", "2S"], 6, 1), (["5C", "4C"], 9, 0)])
    assert not _legal(engine, state, "3C build 9 on [2S 4S]")
    assert _legal(engine, state, "3C build 9 on [2S 4S] [4C 5C]")


def test_one_build_a_player() -> None:
    """South African: 'to form a new build of your own; that is if you don't have another one already'."""
    clauses = _clauses("south-african-casino")
    assert clauses["build.one_per_player"].startswith("A player owns one build at a time")
    assert "build.one_per_player" not in _clauses("swazi-casino")
    engine, state = _at("south-african-casino", {0: ["3C", "8S", "5D", "9D"], 1: ["8H"]}, ["2H", "5S"],
                        builds=[(["5H", "3H"], 8, 0), (["4S", "2S"], 6, 1)])
    assert not _legal(engine, state, "3C build 5 on 2H")              # another build of your own
    assert not _legal(engine, state, "3C build 9 on [2S 4S]")         # taking one over by a raise
    assert _legal(engine, state, "3C build 8 on [3H 5H] 5S")          # adding to your own
    swazi, state = _at("swazi-casino", {0: ["3C", "8S", "5D", "9D"], 1: ["8H"]}, ["2H", "5S"],
                       builds=[(["5H", "3H"], 8, 0), (["4S", "2S"], 6, 1)])
    assert _legal(swazi, state, "3C build 5 on 2H")                   # Swazi: no such rule


def test_a_pile_top_taken_like_a_loose_card_is_said_where_it_is_so() -> None:
    """examples/swazi-tops-taken.yaml (capture.pile_cards: taken): the old sentence, true there."""
    clauses = _clauses(str(ROOT / "examples" / "swazi-tops-taken.yaml"))
    assert "capture an opponent's pile top as if it were a loose card" in clauses["capture.pile_cards"]
    engine, state = _at(str(ROOT / "examples" / "swazi-tops-taken.yaml"), {0: ["9C", "KS"], 1: ["8H"]}, ["3S"],
                        captured={1: ["4H", "6D"]})
    assert _legal(engine, state, "9C capture 3S 6D")
    for name in ("swazi-casino", "south-african-casino"):
        assert "as if it were a loose card" not in " ".join(_clauses(name).values())


def test_a_pile_top_taken_like_a_loose_card_is_the_only_card_of_its_pile_in_a_move() -> None:
    """swazi-tops-taken (an audit): the engine reaches only a pile's top there (``pile_reach`` is the augmenting
    rule's), and uncovers the card under it for the turn's next action; the book said the four-card reading
    and "the card under it then becomes that pile's top" as if within the move."""
    house = str(ROOT / "examples" / "swazi-tops-taken.yaml")
    clauses = _clauses(house)
    text = " ".join(clauses.values())
    assert "A move uses at most" not in text and "up to four cards of a pile" not in text
    assert "The card you play is no base on its own" not in text
    said = clauses["capture.pile_cards"]
    assert "Only the top card of each opponent's pile is in play, so a move takes at most one card of a pile" in said
    assert "in play from your turn's next action on" in said
    engine, state = _at(house, {0: ["9C", "KS"], 1: ["8H"]}, ["3S", "4H"], captured={1: ["5C", "6D"]})
    assert not _legal(engine, state, "9C capture 3S 6D 4H 5C")     # 5C under 6D: not in the same move
    engine, state = _at(house, {0: ["10H", "2D"], 1: ["8H"]}, ["7S"], captured={1: ["10C", "3C"]})
    build = parse_move("build 10 on 7S 3C", engine.deck)
    assert engine.is_legal(state, build)
    after = engine.apply(state, build)
    assert _legal(engine, after, "10H capture [7S 3C] 10C")        # the next action of the turn: 10C is in play
    # The bundled files, whose pile cards augment, keep both readings.
    for name in ("swazi-casino", "south-african-casino"):
        assert "A move uses at most four cards of one pile" in " ".join(_clauses(name).values())


def test_south_african_pile_base_reading_says_swazi_reads_it_the_same() -> None:
    """An audit: the reading said Swazi Casino "reads the same document's actions in any order, so there it may
    be", false since Swazi plays ``capture.pile_base: layout`` too."""
    assert load_rules("swazi-casino").capture.pile_base == load_rules("south-african-casino").capture.pile_base
    text = " ".join(_clauses("south-african-casino").values())
    assert "so there it may be" not in text
    assert "no base on its own for a pile card, as Swazi Casino reads the same document too" in text


@pytest.mark.parametrize("name", ["swazi-casino", "south-african-casino"])
def test_a_build_of_cards_in_play_is_two_cards_or_more_as_the_book_says(name: str) -> None:
    """An audit: the reading said "a layout card or set you could take with a card of your hand, made into a build",
    and the engine refused `build 9 on 9S` (one layout card) while accepting `build 9 on 4D 5S 9S` (a layout card
    with a set holding an opponent's pile top): a new build of cards in play is two cards or more."""
    clauses = _clauses(name)
    assert "one card alone being no build" in clauses["build.free_actions"]
    assert ("a layout card or set with more layout sets or opponents' pile tops added to it, never one card alone"
            in clauses["build.free_actions.reading.file"])
    assert "a layout card or set you could take" not in " ".join(clauses.values())
    engine, state = _at(name, {0: ["9H"], 1: ["8H"]}, ["9S", "7H", "4D"], captured={1: ["2C", "5S"]})
    assert not _legal(engine, state, "build 9 on 9S")
    assert _legal(engine, state, "build 9 on 4D 5S 9S")
    assert _legal(engine, state, "build 9 on 2C 4D 5S 7H 9S")      # the layout 9 the base, a pile top in each set
    assert not _legal(engine, state, "build 9 on 4D 5S 2C 7H")      # no base: each set holds a pile top


def test_the_partner_trail_sentence_is_said_only_where_a_partner_is_bound_to_capture(tmp_path: Any) -> None:
    """An audit: "If you built for your partner's card and can do none of these, you trail" could never apply in the
    African files, whose four partners get the whole pack in one deal, where the owner may always trail. A house
    rule keeping the duty in the last deal can use it, and keeps it."""
    for name in ("south-african-casino", "swazi-casino", str(ROOT / "examples" / "swazi-tops-taken.yaml")):
        assert "If you built for your partner's card" not in _clauses(name)["build.owner_obligation"]
    assert "If you built for your partner's card" in _clauses("hoyle")["build.owner_obligation"]
    house = tmp_path / "bound.yaml"
    house.write_text("name: bound\ndescription: the duty in every deal\nsource: a test\nextends: south-african-casino\n"
                     "build:\n  owner_obligation_in_last_deal: true\n")
    assert "If you built for your partner's card" in _clauses(str(house))["build.owner_obligation"]


def test_an_owners_trail_in_a_turn_of_several_actions_is_said_as_the_engine_plays_it() -> None:
    """An audit: `build 10 on 5S 3D 2C; 4H trail` refused, `4H trail; build 10 on 5S 3D 2C` allowed, and the book
    said nothing of the order (first deal of two players, where the owner's duty holds)."""
    text = _clauses("south-african-casino")["build.owner_obligation"]
    assert ("a build of cards in play made before your card from the hand makes you its owner at once, so that card "
            "may not then be trailed; a card trailed first may be followed by such a build") in text
    engine, state = _at("south-african-casino", {0: ["10S", "4H"], 1: ["8H"]}, ["5S", "3D", "2C"])
    after = engine.apply(state, parse_move("build 10 on 5S 3D 2C", engine.deck))
    assert not _legal(engine, after, "4H trail")
    after = engine.apply(state, parse_move("4H trail", engine.deck))
    assert _legal(engine, after, "build 10 on 5S 3D 2C")


def test_raising_another_sides_build_into_your_own_is_said_beside_one_build_a_player() -> None:
    """An audit: `3D build 9 on [2S 4H] [5C 4D]` (another side's 6 raised to your own 9) is allowed, where the book
    said only that you may not "take one over from another player"."""
    text = _clauses("south-african-casino")["build.one_per_player"]
    assert "Raising another side's build to the value of your own joins it to yours" in text
    assert "Raising another side's build" not in _clauses("swazi-casino").get("build.one_per_player", "")
    engine, state = _at("south-african-casino", {0: ["3D", "9C"], 1: ["8H"]}, ["10D"],
                        builds=[(["2S", "4H"], 6, 1), (["5C", "4D"], 9, 0)])
    assert _legal(engine, state, "3D build 9 on [2S 4H] [4D 5C]")
    assert not _legal(engine, state, "3D build 9 on [2S 4H]")


def test_a_shared_point_taking_both_sides_to_the_target_says_what_is_kept() -> None:
    """An audit: Swazi's count-out keeps the totals counted just before a shared point that takes both sides to
    21 and drops the rest of the hand's points (tests/scenarios/swazi-casino.yaml: 'a cards point shared 1-1 ...',
    20 and 20 stay 20 and 20); the book said "another hand is played from the totals counted before them"."""
    text = _clauses("swazi-casino")["game.both_reach"]
    assert ("neither wins yet: each side's total stays as it was counted just before those shared points, the rest "
            "of the hand's points (those and any counted after them) are not scored, and another hand is played"
            in text)


@pytest.mark.parametrize("name, settings", [
    ("swazi-casino", ["capture.pile_cards", "build.free_actions"]),
    ("south-african-casino", ["capture.pile_cards", "build.free_actions", "build.one_per_player",
                              "scoring.items.spades"]),
])
def test_each_files_readings_of_the_new_settings_are_printed(cli, name: str, settings: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Every `readings:` entry of the file is said as "Reading:" where its setting is worded."""
    code, out, err = cli("rules", name)
    assert code == 0, err
    flat = " ".join(out.split())
    rules = load_rules(name)
    for setting in settings:
        reading = next(r for r in rules.readings if r.setting == setting)
        assert "Reading: " + " ".join(reading.text.split()) in flat, setting


def test_the_short_how_to_play_says_the_new_rules_and_not_the_old_pile_top() -> None:
    """The in-game `rules` command's few lines (apps/game/howto.py) read the same settings."""
    from cassino.apps.game.howto import how_to_play

    south = how_to_play(load_rules("south-african-casino"))
    assert "may only join a set of the value beside loose cards or a build of that value" in south
    assert "as if it lay on the table" not in south
    for words in ("another side's build may be added to only as you capture it",
                  "but not by its owner or the owner's partner", "only one build of each value",
                  "a player owns one build at a time"):
        assert words in south, words
    swazi = how_to_play(load_rules("swazi-casino"))
    assert "only one build of each value" in swazi and "one build at a time" not in swazi
    taken = how_to_play(load_rules(str(ROOT / "examples" / "swazi-tops-taken.yaml")))
    assert "as if it lay on the table" in taken
    royal = how_to_play(load_rules("royal"))
    assert not any(w in royal for w in ("only one build of each value", "owner's partner", "pile"))

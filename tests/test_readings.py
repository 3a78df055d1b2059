"""Readings as data (issue 36): where a variant's sources are silent or ambiguous, the file says
what it reads in `readings:` (a setting, the reading, its source), not in a comment. `validate`
knows the field; `rules`, `explain` and `diff` say each reading, marked "Reading:", wherever its setting
applies, and only while the setting keeps the value the file read; the tutorial teaches the rules alone (a
newcomer's lesson, not the project's notes of which way it read a text)."""

from __future__ import annotations

from pathlib import Path

from cassino.apps.learning.tutorial import Tutorial
from cassino.engine.core import Position
from cassino.engine.game import Game
from cassino.engine.notation import parse_move
from cassino.language.render import render
from cassino.language.rulebook import rulebook
from cassino.language.variants import load_rules

from conftest import ROOT, VARIANTS, validate_refuses, every_lesson


def _book(name: str) -> str:
    return " ".join(render(rulebook(load_rules(name)), "text").split())


def test_no_bundled_variant_keeps_a_reading_in_a_comment() -> None:
    """The words the issue found in comments ("OUR READING", "not seen") are gone from the files."""
    for name in VARIANTS:
        text = (ROOT / "variants" / f"{name}.yaml").read_text()
        assert "OUR READING" not in text.upper(), name
        assert "our reading" not in text.lower(), name


def test_the_rulebook_says_a_files_reading_after_its_rule() -> None:
    book = _book("krypkasino")
    assert "Reading: The game ends once a hand ends with someone at 42 or more" in book
    assert "Reading: A card that could capture may not be trailed" in book
    swedish = _book("swedish-kasino")
    assert "A tie for most spades scores nobody, as in Casino" in swedish
    # Said right after the rule it reads.
    assert swedish.index("A sweep made with the last card of the hand counts.") < \
        swedish.index("Reading: A sweep (in Swedish a tabbe) made with the last card of the hand counts")


def test_a_house_rule_that_changes_the_setting_loses_the_reading(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    house = tmp_path / "short.yaml"
    house.write_text("name: short\ndescription: a shorter game\nextends: krypkasino\ngame: {target: 30}\n")
    code, out, _ = cli("rules", str(house), "--no-examples")
    assert code == 0
    flat = " ".join(out.split())
    # Not said as this game's rule: only marked as removed from the parent's rulebook.
    assert "REMOVED from krypkasino: Reading: The game ends once a hand ends with someone at 42" in flat
    assert flat.count("Reading: The game ends once") == 1 and "someone at 30" not in flat
    assert "Reading: A card that could capture may not be trailed" in flat   # an unchanged setting keeps its reading


def test_an_african_reading_goes_with_a_setting_its_words_assume(tmp_path: Path) -> None:
    """An African house rule's audit: South African Casino's readings were still said where a house rule changed a
    setting their words assume (pile tops with no piles in play; "each action of a turn" with one action a turn;
    "the table's one card" with four). Each names those settings (`also`), and goes with them."""
    cases = {
        "capture:\n  from_piles: none\n": "The document lets you add cards in play to an opponent's build",
        "build:\n  free_actions: false\n": "This holds at each action of a turn",
        "deal:\n  by_players:\n    - {players: 2, hand_size: 10}\n    - {players: 3, hand_size: 12, table_cards: 4}\n":
            "With three players the table's one card",
    }
    assert all(words in _book("south-african-casino") for words in cases.values())
    for k, (change, words) in enumerate(cases.items()):
        house = tmp_path / f"h{k}.yaml"
        house.write_text(f"name: h{k}\ndescription: a house rule\nextends: south-african-casino\n{change}")
        assert words not in _book(str(house)), (change, words)


def test_explain_says_each_reading_under_its_setting(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("explain", "swedish-kasino")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  on_last_play = "))
    assert lines[at + 2].strip().startswith("Reading: A sweep (in Swedish a tabbe) made with the last card of the hand counts")
    assert "(source: P 'There are also points for emptying the table'" in lines[at + 2]
    spades = next(i for i, line in enumerate(lines) if line.startswith("  spades: "))
    assert lines[spades + 1].strip().startswith("Reading (scoring.items.spades.ties): A tie for most spades")


def test_diff_says_the_reading_with_the_rule(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("diff", "standard", "krypkasino")
    assert code == 0
    block = out[out.index("\nbuild.allowed\n"):]
    block = block[:block.index("\n\n")]
    assert "krypkasino: There is no building in this game. Reading: There is no building" in block
    assert "Reading: There is no building; the texts read do not mention it" in block


def test_the_tutorial_says_the_rule_it_teaches_without_its_reading() -> None:
    """Swazi Casino's rule of how a pile card is used (capture.pile_cards) is taught when a move first takes a pile
    top, here the 6H augmenting the 9C on the table; the file's reading of it (issue 36) is not: a newcomer's lesson
    teaches the rule, and the "Reading:" notes, which name the texts read, stay in the rulebook (a player's audit
    met them mid-lesson)."""
    rules = load_rules("swazi-casino")
    game = Game.new(rules, 1, 2)
    engine = game.engine
    deck = engine.deck
    hand = engine.position(Position(players=2, hands={0: [deck.parse("9D")], 1: [deck.parse("9S")]},
                                    table=[deck.parse("9C"), deck.parse("3C")],
                                    captured={1: [deck.parse("4H"), deck.parse("6H")]}))
    before = game.with_(hand=hand)
    move = parse_move("9D capture 9C 6H 3C", deck)
    _, lessons = every_lesson(Tutorial.for_rules(rules), before, move, before.play(move))
    pile = [lesson for lesson in lessons if lesson.topic == "pile top"]
    assert [lesson.key for lesson in pile] == ["capture.from_piles", "capture.pile_cards"]
    assert not [lesson for lesson in lessons if ".reading" in lesson.key or lesson.text.startswith("Reading:")]
    book = rulebook(rules).clauses()
    assert book["capture.pile_cards.reading.file"].text.startswith(
        "Reading: The card you play is no base on its own for a pile card")   # (still in the rulebook)


def test_validate_refuses_a_reading_of_no_setting(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = validate_refuses(cli, tmp_path, "readings:\n  - {setting: capture.compulsary, reading: You must capture.}\n",
                           "standard", "no setting of this file")
    assert "did you mean `capture.compulsory`?" in out


def test_validate_refuses_a_reading_of_a_value_the_file_does_not_give(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    validate_refuses(cli, tmp_path, "readings:\n  - {setting: capture.compulsory, value: always, reading: x}\n",
                     "standard", "but the file gives it")


def test_validate_refuses_a_reading_without_words(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    validate_refuses(cli, tmp_path, "readings:\n  - {setting: capture.compulsory}\n", "standard", "reading")


def test_a_reading_of_a_scoring_item_of_the_file_is_known(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    rule = tmp_path / "mine.yaml"
    rule.write_text("name: mine\ndescription: x\nextends: standard\nscoring:\n  items:\n"
                    "    hearts: {count: most, cards: suit=H, points: 1}\n"
                    "readings:\n  - {setting: scoring.items.hearts.ties, reading: A tie for hearts scores nobody.}\n")
    code, out, err = cli("validate", str(rule))
    assert code == 0, out + err
    code, out, _ = cli("rules", str(rule), "--no-examples")
    assert "Reading: A tie for hearts scores nobody." in " ".join(out.split())

"""A house rule's rulebook marks every sentence that differs from its parent's rulebook, clause by clause
(key and words): a player of the parent game reads the book against the one they know. Issue 50 had
marked only the clause wording a setting that differs, leaving a sweep defined in other words, the
target's number in the tie rule and the partnerships of a two-player game changed or gone unmarked
(two readers' audits). The note counts sentences, not the settings ``cassino diff`` counts."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from cassino.apps.authors.rulebooks import full_rulebook, parent_ref
from cassino.apps.cli import main
from cassino.language.render import render
from cassino.language.rulebook import Clause, Rulebook, rulebook
from cassino.language.variants import load

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))

TWO_SETTINGS = ("name: two-settings\ndescription: Standard with sweeps worth a point, to 11\nextends: standard\n"
                "scoring:\n  items:\n    sweeps: {points: 1}\ngame: {target: 11}\n")


def _flat(book: Rulebook) -> str:
    return " ".join(render(book, "text").split())


def _book(name: str) -> Rulebook:
    return full_rulebook(str(ROOT / "examples" / name), with_worked_examples=False)


def test_two_settings_mark_every_sentence_they_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "two.yaml"
    house.write_text(TWO_SETTINGS, encoding="utf-8")
    assert main(["rules", str(house)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "A house rule of standard: 7 entries differ between this rulebook and standard's" in text
    assert "rules differ" not in text and "REMOVED" not in text
    assert text.count("CHANGED:") == 3 and text.count("NEW:") == 4
    assert "CHANGED: A side with 11 points or more once a hand's points are added wins the game." in text
    assert "NEW: Sweeps: 1 point for each sweep." in text
    # Standard's rulebook does not say these while sweeps score nothing: new to its players.
    for rule in ("Sweeps never cancel each other.", "A sweep made with the last card of the hand counts.",
                 "Taking the cards left at the end of the hand is not a sweep."):
        assert f"NEW: {rule}" in text
    assert ("CHANGED: A capture that leaves the table with no loose cards and no builds is a sweep; "
            "the scoring says what each sweep is worth.") in text
    assert "(standard instead: A capture that leaves the table empty is a sweep; in this game sweeps score nothing.)" in text
    assert "CHANGED: If several sides reach 11 or more in the same hand" in text


def _same(c: Clause, p: Clause) -> bool:
    """``c`` says ``p`` again: same key and words; a reading, the same words (readings are numbered by their
    place: ``capture.pile_cards.reading.file.1`` becomes ``...reading.file`` when the first is dropped, and
    one whose rule the house rule does not say follows another rule)."""
    return c.text == p.text and (c.key == p.key or (".reading" in c.key and ".reading" in p.key))


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_sentence_that_differs_from_the_parents_is_marked(name: str) -> None:
    assert _check_marks(str(ROOT / "examples" / name), name), "a house rule that marks nothing"


def test_drawn_house_rules_mark_every_sentence_that_differs(tmp_path: Path) -> None:
    """House rules drawn at random (``cassino.apps.authors.generated``) change settings the examples do
    not: a whole section gone, several clauses of one key, readings renumbered."""
    from cassino.apps.authors import generated
    from cassino.language.catalogue import bundled_names

    for seed in range(12):
        path, _ = generated.valid(random.Random(seed), bundled_names(), tmp_path, seed)
        _check_marks(str(path), f"seed {seed}")


def _check_marks(target: str, name: str) -> int:
    loaded = load(target)
    ref = parent_ref(target, loaded)
    assert ref is not None
    parent = [(s.key, c) for s in rulebook(load(ref).rules).sections for c in s.clauses]
    plain = [c for s in full_rulebook(target, with_worked_examples=False, marked=False).sections for c in s.clauses]
    book = full_rulebook(target, with_worked_examples=False)
    shown = [(s.key, c) for s in book.sections for c in s.clauses]
    in_force = [c for _, c in shown if c.status != "removed"]
    removed = [(k, c) for k, c in shown if c.status == "removed"]
    # The marks add nothing to the house rule's own sentences and drop none.
    assert [(c.key, c.text) for c in in_force] == [(c.key, c.text) for c in plain]
    left = [c for _, c in parent]                  # the parent's clauses not yet accounted for
    for c in in_force:                             # unmarked: said by the parent in the same words
        if not c.status:
            same = next((p for p in left if _same(c, p)), None)
            assert same is not None, f"{name}: unmarked but not the parent's: {c.key}: {c.text}"
            left.remove(same)
    for c in in_force:                             # marked: its words are not the parent's (left over)
        if c.status:
            assert c.status in ("changed", "new"), (name, c)
            assert not any(_same(c, p) for p in left), f"{name}: marked {c.status} but the parent's: {c.text}"
    for c in in_force:                             # a changed one shows a parent's clause of its key, once
        if c.status == "changed":
            was = [p for p in left if p.key == c.key and p.text == c.was]
            said = [p for p in left if p.key.startswith(c.key + ".reading")]
            if was:
                left.remove(was[0])
            else:   # the parent said the rule only as readings: those are its old wording
                assert said and c.was == " ".join(p.text for p in said), f"{name}: {c.key} changed from {c.was}"
                for p in said:
                    left.remove(p)
        elif c.status == "new":
            assert not any(p.key == c.key for p in left), f"{name}: {c.key} new, yet the parent has it"
    # Every parent clause left is shown removed, once, in the section where the parent had it.
    assert Counter((k, c.key, c.was) for k, c in removed) == Counter((k, p.key, p.text) for k, p in parent
                                                                     if any(p is q for q in left))
    assert all(not c.text for _, c in removed)
    # Nothing both in force and removed: no words, and no rule's key (a reading's key is its place only).
    assert not {c.was for _, c in removed} & {c.text for c in in_force}
    assert not {c.key for _, c in removed if ".reading" not in c.key} & {c.key for c in in_force}
    marks = sum(1 for _, c in shown if c.status)
    note = next(n for n in book.notes if n.startswith("A house rule of "))
    assert "rules differ" not in note and "rule differs" not in note
    if marks:
        count = int(re.search(r"(\d+) (?:entry|entries) differs? between", note).group(1))   # type: ignore[union-attr]
        assert count == marks
    else:
        assert "sentence for sentence" in note
    return marks


def test_fifty_marks_its_tie_rule_changed() -> None:
    text = _flat(_book("fifty.yaml"))
    assert ("CHANGED: If several sides reach 50 or more in the same hand, the higher total wins; a tie plays "
            "another hand. (standard instead: If several sides reach 21 or more in the same hand") in text


def test_two_handed_eleven_marks_its_tie_rule_changed_and_the_reading_of_21_removed() -> None:
    text = _flat(_book("two-handed-eleven.yaml"))
    assert "CHANGED: If several sides reach 11 or more in the same hand" in text
    assert "REMOVED from two-handed: Reading: The game is to 21" in text


def test_eleven_difference_marks_the_partnerships_and_the_tie_rule_removed() -> None:
    book = _book("eleven-difference.yaml")
    gone = {(s.key, c.key) for s in book.sections for c in s.clauses if c.status == "removed"}
    assert gone == {("seats", "seats.partnerships"), ("game", "game.both_reach")}
    text = _flat(book)
    assert "CHANGED: A game for two players. (standard instead: A game for two to four players.)" in text
    assert "REMOVED from standard: Four players may play as two partnerships" in text
    assert "REMOVED from standard: If several sides reach 21 or more in the same hand" in text
    # The removed partnerships follow the rule they followed in standard's book.
    seats = next(s for s in book.sections if s.key == "seats")
    assert [c.key for c in seats.clauses][:2] == ["seats.min_players", "seats.partnerships"]


def test_hoyle_eleven_up_marks_the_partner_rules_removed() -> None:
    text = _flat(_book("hoyle-eleven-up.yaml"))
    for gone in ("Four players may play as two partnerships", "You may also build, or add to a build, for a value "
                 "your partner is known to hold", "For a build made for a partner's value, the partner whose value it is "
                 "keeps that card instead", "When the count-out reaches the sweeps"):
        assert f"REMOVED from hoyle: {gone}" in text
    assert "CHANGED: Aces: 1 point for each ace captured. (hoyle instead: Aces: 1 point for each ace captured " \
           "(counted out in the order A♠ A♣ A♥ A♦).)" in text


def test_each_hand_a_game_marks_the_running_total_removed() -> None:
    for name, parent in (("hoyle-each-hand.yaml", "hoyle"), ("face-builds-one-hand.yaml", "face-builds")):
        text = _flat(_book(name))
        assert f"REMOVED from {parent}: Each side adds the points it scores to its total." in text
        assert f"REMOVED from {parent}: If several sides reach 21 or more in the same hand" in text


def test_consequences_of_points_as_earned_are_marked() -> None:
    text = _flat(_book("points-as-earned.yaml"))
    assert re.search(r"CHANGED: A card you play captures the loose table cards of its own value\. [^*]*"
                     r"their points counted as soon as they are won", text)
    assert "CHANGED: Points count as soon as they are won" in text
    assert "NEW: Sweeps never cancel each other." in text


def test_dominican_house_rules_mark_their_partner_and_restriction_sentences() -> None:
    text = _flat(_book("dominican-partner-proven.yaml"))
    assert ("NEW: For a build made for a partner's value, the partner whose value it is keeps that card instead: where "
            "your partner builds for your value, you must keep a card of it until you take the build.") in text
    assert re.search(r"CHANGED: While you own a build [^*]*If you built for your partner's card and can do none of "
                     r"these, you trail", text)
    text = _flat(_book("dominican-restricted-no-sweeps.yaml"))
    # (every score from 18 to the target is restricted, and a restricted side records none: a re-attack read "they
    # still cancel the opponents'", which never happens there)
    assert ("CHANGED: From 18 points on, a side's sweeps score nothing and, while the restrictions apply, are not "
            "even recorded, so they cancel nothing") in text


def test_swazi_tops_taken_shows_both_of_swazis_pile_readings_removed_once() -> None:
    """The house rule takes pile tops like loose cards, one card of a pile a move: both of Swazi's readings of the
    augmenting rule (no base of the played card alone; four cards of a pile at most) are gone with it, each shown
    REMOVED once and neither in force nor paired as CHANGED (a rulebook audit read the four-card reading both in
    force and removed)."""
    book = _book("swazi-tops-taken.yaml")
    four = "Reading: A move uses at most four cards of one pile, from the top down."
    shown = [c for s in book.sections for c in s.clauses if four in (c.text or c.was)]
    assert [c.status for c in shown] == ["removed"]
    text = _flat(book)
    assert "REMOVED from swazi-casino: Reading: The card you play is no base on its own for a pile card" in text
    assert "instead: Reading: The card you play is no base" not in text
    assert text.count("CHANGED:") == 1 and "4 entries differ" in text   # (and the reading of builds of cards in play)


def test_a_reading_the_house_rule_replaces_is_the_changed_rules_old_wording() -> None:
    """Krypkasino says its capture rule only as a reading; the house rule that makes capture take
    all replaces it: the rule CHANGED, the reading shown as what Krypkasino plays, nothing REMOVED (and the
    equal cards' sentence, which follows from it, CHANGED too)."""
    text = " ".join(render(full_rulebook(str(ROOT / "examples/krypkasino-take-all.yaml")), "text").split())
    assert "2 entries differ between this rulebook and krypkasino's" in text and "REMOVED" not in text
    assert "CHANGED: When several loose cards equal the card you play, you take them all" in text
    assert "CHANGED: When you capture, you must take everything" in text
    assert "(krypkasino instead: Reading: A capture may take part of what the card could take" in text


def test_a_reading_lost_with_its_rules_setting_is_shown_gone_and_counted(tmp_path: Path) -> None:
    house = tmp_path / "short.yaml"
    house.write_text("name: short\ndescription: a shorter game\nextends: krypkasino\ngame: {target: 30}\n")
    text = " ".join(render(full_rulebook(str(house), with_worked_examples=False), "text").split())
    assert "2 entries differ" in text and text.count("CHANGED:") == 1
    assert "REMOVED from krypkasino: Reading: The game ends once a hand ends with someone at 42" in text


def test_unmarked_book_has_no_marks_and_no_note() -> None:
    for name in EXAMPLES:
        book = full_rulebook(str(ROOT / "examples" / name), with_worked_examples=False, marked=False)
        assert not any(c.status for s in book.sections for c in s.clauses)
        assert not any(n.startswith("A house rule of ") for n in book.notes)


def test_examples_follow_the_house_rules_clause_not_a_removed_one() -> None:
    """The renderer puts a rule's examples after its last clause of the key; a removed clause of the same
    key (the parent's) is not the rule the example shows."""
    from cassino.language.render import _last_of_key
    from cassino.language.rulebook import Section

    s = Section("x", "X", (Clause("k", "mine"), Clause("k", "", status="removed", was="theirs")))
    assert _last_of_key(s)["k"] == 0


def test_worked_examples_are_marked_against_the_parents() -> None:
    """(A re-attack: single-build-as-card's "Not allowed" lines became allowed, and hoyle-eleven-up's example of
    building for a partner vanished, with no mark; the examples are claims a reader relies on.)"""
    text = render(full_rulebook(str(ROOT / "examples/single-build-as-card.yaml")), "text")
    assert "    Example (CHANGED from standard's): raising with table cards\n" in text
    assert "      (standard instead: Not allowed: 2♠ build 10 on [3♠ 4♥] A♣)" in text
    assert "    Example: taking sums\n" in text   # (the same as standard's: unmarked)
    assert "Worked examples are marked the same way: 3 changed against standard's" in " ".join(text.split())
    eleven = render(full_rulebook(str(ROOT / "examples/hoyle-eleven-up.yaml")), "text")
    assert "    Example REMOVED from hoyle: building for your partner\n" in eleven
    assert "Example" in render(full_rulebook(str(ROOT / "examples/fifty.yaml")), "text")
    assert "Worked examples are marked" not in " ".join(
        render(full_rulebook(str(ROOT / "examples/fifty.yaml")), "text").split())
    assert "Worked examples are marked" not in render(full_rulebook(str(ROOT / "examples/single-build-as-card.yaml"),
                                                                    with_worked_examples=False), "text")
    html = render(full_rulebook(str(ROOT / "examples/single-build-as-card.yaml")), "html")
    assert '<div class="example changed"><p><b>Example (CHANGED from standard&#x27;s): raising with table cards' in html


def test_an_example_that_differs_only_by_its_players_line_is_not_marked() -> None:
    """(A re-attack: krypkasino-threes' examples were CHANGED by a Players line alone, with nothing to compare; then
    said "krypkasino's example has no Players line". An author's audit (session 92) read 11 of a four-player house
    rule's 17 examples marked so: the same moves at another table are no change of the rule.)"""
    text = render(full_rulebook(str(ROOT / "examples/krypkasino-threes.yaml")), "text")
    assert "has no Players line" not in text
    assert "    Example: taking sums\n      Players: 6 in two teams of three" in text
    assert "    Example (CHANGED from krypkasino's): a sample hand\n" in text   # (other moves, other scores)
    md = render(full_rulebook(str(ROOT / "examples/swazi-tops-taken.yaml")), "markdown")
    assert "> Not allowed: `9♠ capture 4♥ 5♦` (4♥ is under the top card)" in md   # (the reason outside the code)


def test_a_sample_hand_scored_by_the_difference_says_what_is_scored() -> None:
    """(A review: hoyle-eleven-up's sample hand, hoyle's word for word and so unmarked, gave each side's total where
    only the difference scores.)"""
    text = render(full_rulebook(str(ROOT / "examples/hoyle-eleven-up.yaml")), "text")
    assert "    Example (CHANGED from hoyle's): a sample hand\n" in text
    assert "      Scored: seat 1 12 (the difference)\n" in text
    assert "Scored:" not in render(full_rulebook("hoyle"), "text")


def test_a_scoring_item_given_no_points_scores_nothing_in_words(tmp_path: Path) -> None:
    """(An author's audit, session 92: `spades: {points: 0}`, the way a house rule drops an inherited item, read "0
    points to the side that captures the most spades; a tie scores nothing".)"""
    path = tmp_path / "no-spades.yaml"
    path.write_text("name: no-spades\nextends: standard\nscoring:\n  items:\n    spades: {points: 0}\n", encoding="utf-8")
    text = " ".join(render(full_rulebook(str(path)), "text").split())
    assert "CHANGED: Spades: score nothing." in text and "0 points" not in text

"""Warnings: rules that load and play, but probably not as their author means (``semantics.warnings``).

The one warning today: a game won by the lowest total where nothing makes a player capture may never
end (players who trail every card score nothing). ``cassino validate`` says it in every format and
exits 0, or 2 under ``--strict``; the web lobby shows it under a valid file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cassino.apps.authors.annotations import WARNING_ID
from cassino.apps.cli import main
from cassino.language.catalogue import bundled_names, example_names
from cassino.language.variants import load
from cassino.errors import RuleFileError

ENDLESS = "the lowest total wins and nothing makes a player capture"

#: A house rule the soak drew: Ulmann's Hungarian game made lowest-wins (its games ran to the move limit).
ULMANN_LOWEST = "name: ulmann-lowest\nextends: hungarian-ulmann\ngame:\n  goal: lowest\n"
#: Kasino misär with the creep of any card allowed.
MISAR_CREEP = "name: misar-creep\nextends: kasino-misar\ncapture:\n  compulsory: never\n"


def _write(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, line, column, shown", [
    (ULMANN_LOWEST, 4, 9, "goal: lowest"),                 # the author set the goal: pointed at it
    (MISAR_CREEP, 4, 15, "compulsory: never"),             # the author set the capture rule: pointed at it
    ("name: both\nextends: standard\ncapture:\n  compulsory: never\ngame:\n  goal: lowest\n",
     4, 15, "compulsory: never"),                          # both: the capture rule, which is the fix
])
def test_a_lowest_wins_game_with_no_compulsory_capture_is_warned_at_the_authors_line(
        tmp_path: Path, text: str, line: int, column: int, shown: str) -> None:
    loaded = load(_write(tmp_path, text))
    [warning] = loaded.warnings
    assert warning.severity == "warning" and ENDLESS in warning.message
    assert (warning.file, warning.line, warning.column) == (str(tmp_path / "house.yaml"), line, column)
    assert warning.source_line is not None and warning.source_line.strip() == shown
    assert "when_card_can_capture" in (warning.hint or "")
    assert warning.format().startswith(f"{tmp_path / 'house.yaml'}:{line}:{column}: warning: {ENDLESS}")
    assert "inherited" not in warning.message


@pytest.mark.parametrize("text", [
    "name: a\nextends: kasino-misar\n",                                   # capture compulsory there
    "name: b\nextends: standard\ngame:\n  goal: lowest\ncapture:\n  compulsory: equal_loose_card\n",
    "name: c\nextends: standard\ncapture:\n  compulsory: never\n",        # highest wins: captures are wanted
    "name: d\nextends: escoba\ngame:\n  goal: lowest\n",                  # the dealer's take scores unchosen
])
def test_rules_that_make_someone_score_are_not_warned(tmp_path: Path, text: str) -> None:
    assert load(_write(tmp_path, text)).warnings == ()


def test_no_shipped_variant_or_example_warns() -> None:
    warned = {name: [d.message for d in load(name).warnings]
              for name in (*bundled_names(), *example_names())}
    assert {name: found for name, found in warned.items() if found} == {}
    assert len(warned) >= 21


def test_a_warning_inherited_from_a_shipped_file_says_where_it_comes_from(tmp_path: Path) -> None:
    """A house rule that changes neither setting itself (it extends a lowest-wins file of its own that does)
    is pointed at its own file's `extends`, with the place in the file it extends."""
    _write(tmp_path, MISAR_CREEP, "creep.yaml")
    loaded = load(_write(tmp_path, "name: creep-to-11\nextends: creep.yaml\ngame:\n  target: 11\n"))
    [warning] = loaded.warnings
    assert warning.file.endswith("creep.yaml") and warning.line == 4   # the file that wrote it, both user files


def test_validate_text_says_the_warning_and_passes(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = _write(tmp_path, ULMANN_LOWEST)
    code, out, err = cli("validate", str(path), "standard")
    assert code == 0
    assert f"{path}:4:9: warning: {ENDLESS}" in err and "goal: lowest" in err and "hint: " in err
    assert f"{path}: ok (ulmann-lowest), 1 warning" in out
    assert "2 valid, 0 invalid, 1 warning" in out


def test_validate_strict_refuses_a_file_with_a_warning(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = _write(tmp_path, ULMANN_LOWEST)
    code, out, err = cli("validate", "--strict", str(path), "standard")
    assert code == 2
    assert "refused under --strict (ulmann-lowest), 1 warning" in err and "1 valid, 1 invalid, 1 warning" in err
    assert cli("validate", "--strict", "standard", "kasino-misar")[0] == 0
    code, out, err = cli("validate", "--strict", str(tmp_path / "missing.yaml"))
    assert code == 2 and "no such file" in err


def test_validate_json_lists_warnings_apart_from_errors(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = _write(tmp_path, MISAR_CREEP)
    code, out, _ = cli("validate", str(path), "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["ok"] and doc["errors"] == []
    [result] = doc["results"]
    assert result["valid"] and result["errors"] == [] and result["warnings"] == doc["warnings"]
    [w] = doc["warnings"]
    assert (w["line"], w["column"]) == (4, 15) and ENDLESS in w["message"]
    code, out, _ = cli("validate", str(path), "--format", "json", "--strict")
    assert code == 2 and not json.loads(out)["ok"] and not json.loads(out)["results"][0]["valid"]


def test_validate_annotations_mark_a_warning_as_a_warning(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, MISAR_CREEP)
    code, out, _ = cli("validate", "house.yaml", "--format", "github")
    assert code == 0 and out.startswith("::warning file=house.yaml,line=4,col=15,")
    code, out, _ = cli("validate", "house.yaml", "--format", "sarif")
    log = json.loads(out)
    [result] = log["runs"][0]["results"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert result["level"] == "warning" and result["ruleId"] == WARNING_ID
    assert rules[result["ruleIndex"]]["id"] == WARNING_ID
    assert rules[result["ruleIndex"]]["defaultConfiguration"]["level"] == "warning"


def test_an_error_and_a_warning_in_one_run_keep_their_kinds(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    good, bad = _write(tmp_path, MISAR_CREEP, "good.yaml"), _write(tmp_path, "name: x\nextends: standerd\n", "bad.yaml")
    code, out, _ = cli("validate", str(good), str(bad), "--format", "github")
    assert code == 2
    assert [line.split(" ")[0] for line in out.splitlines()] == ["::warning", "::error"]
    with pytest.raises(RuleFileError):
        load(bad)


def test_the_rulebook_warns_its_reader_of_a_game_that_may_never_end(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("rules", str(_write(tmp_path, ULMANN_LOWEST)), "--no-examples")
    assert code == 0 and "Warning: as written, a game may never end" in out
    for plain in ("kasino-misar", "hungarian-ulmann", "krypkasino"):
        code, out, _ = cli("rules", plain, "--no-examples")
        assert code == 0 and "may never end" not in out


def test_explain_ends_with_the_warnings(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = _write(tmp_path, MISAR_CREEP)
    code, out, _ = cli("explain", str(path))
    assert code == 0
    tail = out[out.index("warnings: these rules play, but may not as meant"):]
    assert f"{path}:4:15: warning: {ENDLESS}" in tail and "compulsory: never" in tail
    code, out, _ = cli("explain", "kasino-misar")
    assert code == 0 and "warnings:" not in out


def test_play_says_the_warning_before_the_game_starts(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io

    path = _write(tmp_path, MISAR_CREEP)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, err = cli("play", str(path), "--seed", "1", "--save", str(tmp_path / "game.json"))
    assert code == 0 and (tmp_path / "game.json").exists()
    assert f"{path}:4:15: warning: {ENDLESS}" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, _, err = cli("play", "kasino-misar", "--seed", "1", "--save", str(tmp_path / "plain.json"))
    assert code == 0 and "warning:" not in err


def test_a_rulebook_of_rules_that_may_never_end_plays_no_sample_hand(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """Greedy players trail every card there: a dozen sample hands of crowded tables took the rulebook minutes
    (a documentation audit stopped it after two); the note says why such a game may not end instead."""
    code, out, _ = cli("rules", str(_write(tmp_path, ULMANN_LOWEST)))
    assert code == 0 and "may never end" in out and "Players: 2, each played by the computer" not in out
    code, out, _ = cli("rules", "hungarian-ulmann")
    assert code == 0 and "Players: 2, each played by the computer" in out


# ------------------------------------------------------------------ settings a house rule writes that are unread



@pytest.mark.parametrize("text, line, column, said", [
    ("name: s\nextends: scopa\nbuild:\n  max_value: 9\n", 4, 14, "`build.max_value` changes no move and no score here: no builds"),
    ("name: s\nextends: standard\ncapture:\n  pile_reach: 3\n", 4, 15, "no card is taken from the players' piles"),
    ("name: s\nextends: standard\nbuild:\n  owner_obligation: none\n  owner_obligation_in_last_deal: false\n", 5, 34,
     "owning a build obliges nothing"),
    ("name: s\nextends: standard\nscoring:\n  items:\n    sweeps:\n      ties: split\n", 6, 13,
     "`ties` changes nothing in scoring item `sweeps`: only `count: most` and `count: primiera` read it"),
    ("name: s\nextends: kasino-misar\ngame:\n  target_step: 5\n", 4, 16, "the lowest total wins"),
    ("name: s\nextends: standard\ngame:\n  lurch:\n    multiplier: 3\n", 5, 17, "no lurch is played"),
    # (a re-attack's finds: raise settings where single builds are not raised, the playing out of a hand scored
    # at its end, an order of going out where nothing counts out, `at_end` where every point waits for the end)
    ("name: s\nextends: standard\nbuild:\n  raise_single: false\n  raise_own: false\n", 5, 14,
     "no single build is raised"),
    ("name: s\nextends: standard\ngame:\n  play_out_hand: false\n", 4, 18, "points count at the end of the hand"),
    # (team size where nobody plays in partnerships: it was checked against the partnership counts, an error)
    ("name: s\nextends: standard\nseats:\n  partnerships: never\n  team_size: 3\n", 5, 14,
     "nobody plays in partnerships"),
    ("name: s\nextends: standard\nscoring:\n  items:\n    aces:\n      order: [AH, AS, AC, AD]\n", 6, 14,
     "the cards go out in an order only when the item counts out"),
    ("name: s\nextends: standard\nscoring:\n  items:\n    aces:\n      at_end: true\n", 6, 15,
     "every point counts at the end of the hand already"),
])
def test_a_setting_a_house_rule_writes_that_its_rules_leave_unread_is_warned_at_its_line(
        tmp_path: Path, text: str, line: int, column: int, said: str) -> None:
    loaded = load(_write(tmp_path, text))
    [warning] = loaded.warnings
    assert warning.severity == "warning" and said in warning.message
    assert "changes no move and no score here" in warning.message or "changes nothing in scoring item" in warning.message
    assert (warning.file, warning.line, warning.column) == (str(tmp_path / "house.yaml"), line, column)
    assert warning.hint and warning.hint.startswith("remove")


def test_a_sweeps_item_without_any_sweeps_scoring_leaves_the_sweep_settings_unread(tmp_path: Path) -> None:
    """An item's count changed from sweeps leaves the sweep settings the same file writes unread; the sweeps
    item's own settings written by the parent are not the house rule's to answer for."""
    text = ("name: s\nextends: standard\nscoring:\n  items:\n    sweeps:\n      count: last_capture\n"
            "sweeps:\n  cancel: true\n")
    [warning] = load(_write(tmp_path, text)).warnings
    assert "`sweeps.cancel` changes no move and no score here: no scoring item counts sweeps" in warning.message
    assert warning.line == 8


@pytest.mark.parametrize("text", [
    # the child turns builds off under its parent's build limit: its own choice, not a mistake
    "name: c\nextends: parent.yaml\nbuild:\n  allowed: false\n",
    # a parent's `ties` on an item whose count the child changes: not the child's to remove
    "name: c\nextends: parent.yaml\nscoring:\n  items:\n    cards:\n      count: each\n",
])
def test_a_setting_made_unread_by_a_later_file_is_not_warned(tmp_path: Path, text: str) -> None:
    _write(tmp_path, "name: p\nextends: standard\nbuild:\n  max_value: 9\nscoring:\n  items:\n    cards:\n"
                     "      ties: split\n", "parent.yaml")
    assert load(_write(tmp_path, text)).warnings == ()


def test_a_whole_rule_file_that_extends_nothing_may_write_unread_settings(tmp_path: Path) -> None:
    """standard.yaml writes its count-out order and a lurch's worth, which it does not play: a copy of it made
    the start of a new variant is not warned of them."""
    text = (Path(load("standard").resolved.paths[0]).read_text()).replace("name: standard", "name: mine")
    loaded = load(_write(tmp_path, text, "mine.yaml"))
    assert loaded.warnings == ()
    assert "Not used here" in __import__("cassino.language.explain", fromlist=["explain"]).explain(loaded.rules)


def test_turns_of_several_actions_without_builds_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as raised:
        load(_write(tmp_path, "name: s\nextends: south-african-casino\nbuild:\n  allowed: false\n"))
    [error] = raised.value.diagnostics
    assert "turns of several actions are made of builds" in error.message
    assert (error.line, error.column) == (4, 12) and "free_actions: false" in (error.hint or "")


def test_validate_strict_fails_on_an_unread_setting(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    path = _write(tmp_path, "name: s\nextends: scopa\nbuild:\n  max_value: 9\n")
    code, out, err = cli("validate", str(path))
    assert code == 0 and "warning: `build.max_value` changes no move and no score here" in out + err
    code, out, err = cli("validate", "--strict", str(path))
    assert code == 2


# ------------------------------------------------------------------ a reading's words that assume another setting

@pytest.mark.parametrize("text, gone, kept", [
    # Kasino misar's reading of its target says the lowest total wins: not a house rule's where the highest wins
    ("name: h\nextends: kasino-misar\ngame:\n  goal: highest\n", "the lowest total wins; a tie for lowest", None),
    # Scopone's reading of both sides passing 11: not where the target is 29
    ("name: h\nextends: scopone\ngame:\n  target: 29\n", "When both sides reach 11 or more", None),
    # Krypkasino's short deal counts 104 - 4 cards: not with 8 on the table (its target's reading stays)
    ("name: h\nextends: krypkasino\ndeal:\n  table_cards: 8\n", "104 - 4 = 100 cards", "someone at 42 or more"),
])
def test_a_reading_whose_words_assume_another_setting_goes_with_it(tmp_path: Path, text: str, gone: str,
                                                                 kept: str | None) -> None:
    """An audit found inherited readings printed unmarked, and again as removed, where a house rule changed a
    setting their words assume (not the one they read): ``readings[].also`` names such settings."""
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.explain import explain
    from cassino.language.render import text as render

    path = _write(tmp_path, text)
    book = " ".join(render(full_rulebook(str(path), with_worked_examples=False)).split())
    said = [k for k in range(len(book)) if book.startswith(gone, k)]
    assert all("REMOVED" in book[max(0, k - 400):k] for k in said), gone   # said only as removed, if at all
    assert gone not in " ".join(explain(load(path).rules).split())
    if kept:
        assert kept in book


def test_a_reading_that_assumes_no_setting_of_the_file_is_refused(tmp_path: Path) -> None:
    text = ("name: h\nextends: standard\nreadings:\n  - setting: game.target\n    also: [game.gaol]\n"
            "    reading: To 21.\n")
    with pytest.raises(RuleFileError) as raised:
        load(_write(tmp_path, text))
    [error] = raised.value.diagnostics
    assert "a reading assumes `game.gaol`, which is no setting of this file" in error.message and error.line == 5


def test_rules_changed_in_memory_lose_a_reading_whose_assumed_setting_changed() -> None:
    """``diff`` rebuilds rules with one difference taken from the other side (``Rules.from_data``): Kasino
    misar's reading of its target ("the lowest total wins") was kept in such rules won by the highest total."""
    from cassino.language.rulebook import file_readings
    from cassino.language.rules import Rules
    from cassino.language.settings import with_value
    from cassino.language.variants import load_rules

    misar = load_rules("kasino-misar")
    assert any(setting == "game.target" for setting, _ in file_readings(misar))
    [target] = [r for r in misar.readings if r.setting == "game.target"]
    assert target.assumes == (("game.goal", "lowest"),)
    highest = Rules.from_data(with_value(dict(misar.data), ("game", "goal"), "highest"))
    assert not any(setting == "game.target" for setting, _ in file_readings(highest))
    again = Rules.from_data(with_value(dict(highest.data), ("game", "goal"), "lowest"))
    assert any(setting == "game.target" for setting, _ in file_readings(again))


def test_a_reading_lost_or_regained_with_a_setting_it_assumes_is_marked_and_diffed(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """A re-attack: a reading dropped because a setting its words assume changed (Scopa's both-reach reading,
    ``also: [game.target]``, in a house rule to 21) was neither marked REMOVED in the rulebook nor said by
    ``diff``; one regained in a house rule of a house rule was not marked NEW."""
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.render import text as render

    reading = "When both sides reach 11 or more in the same hand the higher total wins"
    to21 = _write(tmp_path, "name: scopa-t\nextends: scopa\ngame:\n  target: 21\n", "scopa-t.yaml")
    book = " ".join(render(full_rulebook(str(to21), with_worked_examples=False)).split())
    assert f"REMOVED from scopa: Reading: {reading}" in book
    code, out, _ = cli("diff", "scopa", str(to21))
    assert code == 0 and reading in " ".join(out.split())
    _write(tmp_path, "name: misar-high\nextends: kasino-misar\ngame:\n  goal: highest\n", "misar-high.yaml")
    back = _write(tmp_path, "name: back\nextends: misar-high.yaml\ngame:\n  goal: lowest\n", "back.yaml")
    book = " ".join(render(full_rulebook(str(back), with_worked_examples=False)).split())
    assert "NEW: Reading: The game ends once a hand ends with someone at 21 or more" in book


def test_diff_says_a_reading_once_beside_its_setting_wherever_the_book_files_it(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    """A second re-attack: `diff kasino-misar` of a house rule won by the highest total said the target's reading
    twice (filed under the goal's words, and assuming the goal); of one to 30, not at all; a house rule's own
    reading in place of its parent's was unmarked in the rulebook."""
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.render import text as render

    reading = "Reading: The game ends once a hand ends with someone at 21 or more"
    for name, change in (("m1", "goal: highest"), ("m4", "target: 30")):
        path = _write(tmp_path, f"name: {name}\nextends: kasino-misar\ngame:\n  {change}\n", f"{name}.yaml")
        code, out, _ = cli("diff", "kasino-misar", str(path))
        assert code == 0 and " ".join(out.split()).count(reading) == 1, out
        assert "no such rule here" not in out   # (the side won by the highest total: its target's words)
    code, out, _ = cli("diff", "kasino-misar", "swedish-kasino")   # (goal and target differ: said with each, once)
    assert code == 0 and all(line.count(reading) <= 1 for line in out.splitlines()) and reading in out, out
    own = _write(tmp_path, "name: hr3\nextends: finnish-kasino\nreadings:\n  - setting: game.both_reach\n"
                           "    reading: HOUSE READING at sixteen.\n", "hr3.yaml")
    book = " ".join(render(full_rulebook(str(own), with_worked_examples=False)).split())
    assert "CHANGED: Reading: HOUSE READING at sixteen. (finnish-kasino instead: Reading: When several sides" in book


@pytest.mark.parametrize("lines,hint", [
    ("also: [game.targte]", "did you mean `game.target`?"),
    ("also: [game.target]\n    assumes: {game.targte: 21}", "did you mean `game.target`?"),
    ("also: [game.target]\n    assumes: {game: {target: 21}}", "name a setting by its dotted path"),
    # (schema errors of a list's entries: jsonschema's Python words, and no hint, before)
    ("also: [game.target, game.target]", "keep each entry once"),
    ('also: [""]', "`cassino schema` shows what each setting takes"),
    ("also: [5]", "`cassino schema` shows what each setting takes"),
])
def test_a_misnamed_setting_in_a_readings_also_or_assumes_gets_the_nearest_name(tmp_path: Path, lines: str,
                                                                                 hint: str) -> None:
    text = f"name: h\nextends: standard\nreadings:\n  - setting: game.both_reach\n    {lines}\n    reading: R.\n"
    with pytest.raises(RuleFileError) as raised:
        load(_write(tmp_path, text))
    [error] = raised.value.diagnostics
    assert error.hint is not None and hint in error.hint, (error.message, error.hint)
    assert "[" not in error.message.split("`")[-1] and "non-unique" not in error.message, error.message


def test_a_reading_assuming_a_path_written_with_spaces_is_kept_and_a_quoted_value_said_as_text(tmp_path: Path) -> None:
    """A third re-attack: `also: [" game.goal"]` validated, then the reading vanished from the file's own
    rulebook; `value: "21"` read "is about `game.target: 21`, but the file gives it 21"."""
    from cassino.language.rulebook import file_readings

    spaced = _write(tmp_path, 'name: h\nextends: kasino-misar\nreadings:\n  - setting: game.target\n'
                              '    also: [" game.goal"]\n    reading: R.\n', "spaced.yaml")
    assert ("game.target", "R.") in file_readings(load(spaced).rules)
    quoted = _write(tmp_path, 'name: h\nextends: standard\nreadings:\n  - setting: game.target\n'
                              '    value: "21"\n    reading: R.\n', "quoted.yaml")
    with pytest.raises(RuleFileError) as raised:
        load(quoted)
    [error] = raised.value.diagnostics
    assert 'is about `game.target: "21"` (text, not a whole number), but the file gives it 21' in error.message


@pytest.mark.parametrize("assumes,said,line", [
    ("{game.goal: lowest}", "the reading assumes `game.goal: lowest`, but the file gives it highest", 6),
    ("{game.gaol: highest}", "`assumes` names `game.gaol`, which the reading's `also` does not", 6),
    # (a re-attack: "assumes `game.goal: highest`, but the file gives it highest" of a quoted value)
    ("{game.goal: 3}", "the reading assumes `game.goal: 3` (a whole number, not text)", 6),
    ('{game.goal: "21"}', 'the reading assumes `game.goal: "21"`, but the file gives it highest', 6),
])
def test_a_reading_assuming_another_value_than_the_files_is_refused(tmp_path: Path, assumes: str, said: str,
                                                                    line: int) -> None:
    text = ("name: h\nextends: standard\nreadings:\n  - setting: game.target\n    also: [game.goal]\n"
            f"    assumes: {assumes}\n    reading: To 21.\n")
    with pytest.raises(RuleFileError) as raised:
        load(_write(tmp_path, text))
    [error] = raised.value.diagnostics
    assert said in error.message and error.line == line, (error.message, error.line)


def test_a_description_a_house_rule_inherits_is_said_as_its_parents(tmp_path: Path) -> None:
    """Krypkasino's description names its 42-point limit; a house rule to 39 that writes no description of its own
    opened its rulebook with it as its own (an audit's find). It is said as the parent's now, in the rulebook and in
    explain; a file with its own description is shown as it is."""
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.explain import explain
    from cassino.language.render import text as render

    path = _write(tmp_path, "name: kryp39\nextends: krypkasino\ngame:\n  target: 39\n")
    intro = " ".join(render(full_rulebook(str(path), with_worked_examples=False)).split())
    assert "at the 42-point limit (the description of krypkasino: this house rule gives none of its own" in intro
    first = explain(load(path).rules, load(path).resolved).splitlines()[0]
    assert first.startswith("kryp39: Krypkasino") and first.endswith("[from krypkasino.yaml]")
    own = _write(tmp_path, "name: k2\ndescription: Krypkasino to 39\nextends: krypkasino\ngame:\n  target: 39\n",
                 "own.yaml")
    assert "gives none of its own" not in render(full_rulebook(str(own), with_worked_examples=False))


def test_a_game_record_keeps_what_a_reading_assumes_and_replays(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A record carries its rules whole, readings with `also` included, and replays; a reading whose assumed
    setting a house rule changed is not in its rules, nor in its record."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("play", "kasino-misar", "--humans", "0", "--bot", "random", "--seed", "2", "--save", "g.json")
    assert code == 0, err
    saved = json.loads((tmp_path / "g.json").read_text())
    [target] = [r for r in saved["variant"]["rules"]["readings"] if r["setting"] == "game.target"]
    assert target["also"] == ["game.goal"]
    code, out, err = cli("replay", "g.json")
    assert code == 0, err
    from cassino.apps.game.records import load_record

    assert [r for r in load_record(tmp_path / "g.json").rules.readings if r.setting == "game.target"]
    # a house rule won by the highest total leaves the reading out of its rules, and so out of its record
    (tmp_path / "high.yaml").write_text("name: high\nextends: kasino-misar\ngame:\n  goal: highest\n")
    code, out, err = cli("play", "high.yaml", "--humans", "0", "--bot", "random", "--seed", "2", "--save", "h.json")
    assert code == 0, err
    kept = json.loads((tmp_path / "h.json").read_text())["variant"]["rules"]["readings"]
    assert not [r for r in kept if r["setting"] == "game.target"]


def test_claiming_where_each_hand_is_a_game_warns_that_every_claim_loses(tmp_path: Path) -> None:
    """A re-attack's find: claiming with no target was valid and silent, and any claim lost the game."""
    [warning] = load(_write(tmp_path, "name: s\nextends: standard\ngame:\n  target: null\n  claiming: true\n")).warnings
    assert "every claim would lose the game" in warning.message and (warning.line, warning.column) == (5, 13)
    assert load(_write(tmp_path, "name: s\nextends: hungarian\n", "h.yaml")).warnings == ()   # a target to claim


def test_no_bundled_file_writes_a_setting_it_never_reads_even_read_as_a_house_rule() -> None:
    """The stop hook validates `variants/*.yaml` by path, where a bundled file that extends another is a house rule
    like any other: Finnish and Swedish Kasino, Hungarian and Spade cleared a count-out they never play, Ulmann's
    game set `play_out_hand` under end-of-hand scoring, South African Casino an order of aces for a count-out it has
    not. Each file is read here as an author's file would be."""
    from dataclasses import replace

    from cassino.language import semantics

    for name in (*bundled_names(), *example_names()):
        loaded = load(name)
        authored = replace(loaded.resolved, shipped=(False,) * len(loaded.resolved.documents))
        said = [d.message for d in semantics._unread_settings(loaded.rules, authored)]
        assert said == [], (name, said)


@pytest.mark.parametrize("text, warned, said", [
    # An audit's house rule: one deal of 4 cards each played 12 of the 52 cards a hand, with no word from validate.
    ("name: one-deal\nextends: standard\ndeal:\n  redeal: never\n", True,
     "the cards it leaves stay face down and are never played (40 with two players; 36 with three players; "
     "32 with four players)"),
    # One deal of the whole pack among three: nothing left, nothing said.
    ("name: one-deal-whole\nextends: standard\nseats: {min_players: 3, max_players: 3}\n"
     "deal: {redeal: never, hand_size: 16}\n", False, "There is only one deal, and it gives out the whole pack."),
    # Draw Cassino's one deal: the players draw the stock, so every card is played.
    ("name: draw-house\nextends: draw\ngame: {target: 11}\n", False, "as long as the stock lasts"),
])
def test_one_deal_that_leaves_cards_unplayed_is_warned_and_the_rulebook_says_so(
        tmp_path: Path, text: str, warned: bool, said: str) -> None:
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.render import render

    path = _write(tmp_path, text)
    loaded = load(str(path))
    never = [w for w in loaded.warnings if "never played" in w.message]
    assert bool(never) is warned, loaded.warnings
    if warned:
        [warning] = never
        assert (warning.line, warning.column) == (4, 11) and "40 with 2 players" in warning.message
        assert "deal.redeal: when_hands_empty" in (warning.hint or "")
    book = " ".join(render(full_rulebook(str(path)), "text").split())
    assert said in book
    assert ("the undealt cards stay" in book) is ("draw" in text)
    assert ("The hand ends when every hand is empty (there is one deal, and the cards it left are not played)"
            in book) is warned


def test_one_deal_that_gives_out_the_whole_pack_for_some_counts_says_which_leave_cards(tmp_path: Path) -> None:
    """A re-attack: South African Casino with one deal deals the whole pack to three or four players, and the hand's
    end said the deal's leftover cards are not played, for every count."""
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.render import render

    path = _write(tmp_path, "name: sa-one\nextends: south-african-casino\ndeal:\n  redeal: never\n")
    book = " ".join(render(full_rulebook(str(path)), "text").split())
    assert "(there is one deal; with two players the cards it leaves are not played)" in book
    assert "the cards it leaves stay face down and are never played (20 with two players; with three and four the " \
           "deal gives out the whole pack)" in book
    [warning] = [w for w in load(str(path)).warnings if "never played" in w.message]
    assert "20 with 2 players" in warning.message and "3 players" not in warning.message


def test_where_sweeps_never_cancel_no_sentence_says_they_cancel(tmp_path: Path) -> None:
    """A second re-attack: Dominican without cancelling still read "they cancel the opponents' but score nothing"
    and "(they still cancel the opponents')"."""
    from cassino.apps.authors.rulebooks import full_rulebook
    from cassino.language.render import render

    path = _write(tmp_path, "name: dom-nocancel\nextends: dominican\nsweeps:\n  cancel: false\n")
    # (the house rule's own sentences: the marked book shows Dominican's beside them)
    book = " ".join(render(full_rulebook(str(path), marked=False), "text").split())
    assert "Sweeps never cancel each other." in book and "cancel the opponents" not in book
    assert "From 18 points on, a side's sweeps score nothing." in book


def test_one_group_a_play_beside_every_equal_card_taken_is_warned_of(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """(An audit of house rules the soak drew: Dominican with `several_groups: false`, where a 7 facing two loose 7s
    captured nothing, with no word from `validate`.)"""
    house = tmp_path / "one-group.yaml"
    house.write_text("name: one-group\ndescription: d\nextends: dominican\ncapture: {several_groups: false}\n")
    assert main(["validate", str(house)]) == 0
    said = capsys.readouterr()
    text = said.out + said.err
    assert "warning: one group a play (`several_groups: false`) and every equal loose card taken together" in text
    assert "or a build of its value beside one" in text

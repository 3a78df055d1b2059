"""`cassino diff`: differences in words, positions the engine confirms, scores on one hand."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.engine.core import Engine, Position
from cassino.engine.notation import parse_move
from cassino.engine.scoring import Scorer
from cassino.language.compare import differences
from cassino.language.rulebook import rulebook
from cassino.language.rules import Rules
from cassino.language.settings import get, with_value
from cassino.language.variants import load_rules

from conftest import ROOT
from test_rulebook import replay_sample_hand


def cassino(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def diff_json(cli, a: str, b: str, *extra: str) -> dict:  # type: ignore[no-untyped-def, type-arg]
    code, out, err = cli("diff", a, b, "--format", "json", *extra)
    assert code == 0, err
    return json.loads(out)


def _check_position(a: str, b: str, entry: dict) -> None:  # type: ignore[type-arg]
    """The printed position really separates A and B, move by move."""
    pos = entry["position"]
    ra, rb = load_rules(str(ROOT / a) if a.endswith(".yaml") else a), load_rules(str(ROOT / b) if b.endswith(".yaml") else b)
    ea, eb = Engine(ra), Engine(rb)
    deck = ea.deck
    position = Position(players=pos["players"], partners=pos["partners"], to_play=0,
                        hands={0: [deck.parse(c) for c in pos["hand"]]}, table=[deck.parse(c) for c in pos["table"]],
                        builds=[([deck.parse(c) for c in bd["cards"]], bd["value"], bd["owner"]) for bd in pos["builds"]])
    legal_a = set(ea.legal_moves(ea.position(position)))
    legal_b = set(eb.legal_moves(eb.position(position)))
    assert legal_a != legal_b
    only_a = {parse_move(m, deck) for m in pos["only_a"]}
    only_b = {parse_move(m, deck) for m in pos["only_b"]}
    assert only_a or only_b
    assert only_a <= legal_a - legal_b and only_b <= legal_b - legal_a
    # Each move differs because of the setting named, the others held equal: A with only that setting
    # from B agrees with B on it, or B with only that setting from A agrees with A on it.
    def isolated(r: Rules, other: Rules) -> set:  # type: ignore[type-arg]
        data = dict(r.data)
        for path in entry["settings"]:
            data = with_value(data, tuple(path.split(".")), get(dict(other.data), tuple(path.split("."))))
        ei = Engine(Rules.from_data(data))
        return set(ei.legal_moves(ei.position(position)))
    legal_i, legal_j = isolated(ra, rb), isolated(rb, ra)
    assert all(m not in legal_i or m in legal_j for m in only_a), "an only-A move not the setting's"
    assert all(m in legal_i or m not in legal_j for m in only_b), "an only-B move not the setting's"
    # A position play can reach: the mover holds a card of each build they own.
    hand = [deck.parse(c) for c in pos["hand"]]
    for bd in pos["builds"]:
        if bd["owner"] == 0:
            assert any(bd["value"] in deck.hand_values[deck.index(c)] for c in hand), f"impossible: {pos}"


@pytest.mark.parametrize("a, b, setting", [
    ("standard", "hoyle", "capture.equal_cards"),
    ("standard", "hoyle", "build.for_partner"),
    ("standard", "royal", "deck.ranks"),
    ("standard", "examples/trail-and-build.yaml", "trail.with_build"),
    ("standard", "examples/table-cards-raise.yaml", "build.raise_with_table_cards"),
    ("face-builds", "examples/face-builds-one-at-a-time.yaml", "build.valueless"),
    ("hungarian", "hungarian-ulmann", "capture.hand_cards.combine"),
    ("dominican", "examples/dominican-partner-proven.yaml", "build.for_partner"),
    ("standard", "examples/dominican-partner-proven.yaml", "build.raise_own"),
    ("standard", "examples/dominican-partner-proven.yaml", "capture.equal_cards"),
    ("standard", "hoyle", "capture.valueless_cards"),
    ("standard", "examples/two-handed-eleven.yaml", "build.continue_as_begun"),
    ("face-builds", "two-handed", "build.continue_as_begun"),
    ("standard", "examples/face-builds-one-at-a-time.yaml", "capture.valueless_cards"),
    ("standard", "examples/face-builds-one-at-a-time.yaml", "build.valueless"),
])
def test_each_difference_in_play_gets_a_small_position_the_engine_confirms(cli, a: str, b: str, setting: str) -> None:  # type: ignore[no-untyped-def]
    report = diff_json(cli, a, b)
    entry = next(d for d in report["differences"] if setting in d["settings"])
    assert entry["in_play"] and entry["position"] is not None
    _check_position(a, b, entry)
    pos = entry["position"]
    cards = len(pos["table"]) + len(pos["hand"]) + sum(len(bd["cards"]) for bd in pos["builds"])
    assert cards <= 8, f"not shrunk: {pos}"


def test_text_says_the_difference_in_words_with_the_position() -> None:
    result = cassino("diff", "standard", "hoyle")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("standard vs hoyle: 6 rules differ")
    assert "capture.equal_cards\n  standard: When several loose cards equal the card you play, you may take as many" in out
    assert "  hoyle:    When you take a loose card equal to the card you play, you must take every loose card" in out
    assert "Only standard allows: " in out and "Only hoyle allows: " in out
    assert "Scoring on one sample hand" in out and "<- differs" in out


def test_scoring_on_the_sample_hand_is_what_each_variant_scores(cli) -> None:  # type: ignore[no-untyped-def]
    report = diff_json(cli, "standard", "examples/sweeps-score.yaml")
    sample = report["sample_hand"]
    a, b = load_rules("standard"), load_rules(str(ROOT / "examples/sweeps-score.yaml"))
    state = replay_sample_hand(Engine(a), sample["seed"], sample["players"])
    pa, _ = Scorer(Engine(a)).hand_points(state)
    pb, _ = Scorer(Engine(b)).hand_points(state)
    assert {int(k): v for k, v in sample["total"]["a"].items()} == pa
    assert {int(k): v for k, v in sample["total"]["b"].items()} == pb
    assert pa != pb   # the hand was chosen to show the difference


def test_same_seed_same_report_and_identical_rules(cli) -> None:  # type: ignore[no-untyped-def]
    assert diff_json(cli, "standard", "hoyle") == diff_json(cli, "standard", "hoyle")
    code, out, _ = cli("diff", "standard", "variants/standard.yaml")
    assert code == 0 and "have the same rules" in out


def test_decks_with_different_cards_have_no_common_position(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("diff", "standard", "tuxedo")
    assert code == 0
    assert "no position exists in both" in out
    assert "Oranges: 10 points" in out


def test_a_setting_nothing_reads_is_said_to_have_no_effect() -> None:
    diffs = {d.key: d for d in differences(load_rules("standard"), load_rules("tuxedo"))}
    assert diffs["game.both_reach"].moot            # count_out differs, but neither counts out
    assert not diffs["game.target"].moot


@pytest.mark.parametrize("args, message", [
    (["diff", "standard", "nosuch"], "no bundled variant or file named `nosuch`"),
    (["diff", "standard", "tests/bad/wrong-type.yaml"], "must be a whole number"),
    (["diff", "standard", "hoyle", "--tries", "0"], "--tries must be at least 1"),
    (["diff", "standard", "hoyle", "--tries", "many"], "invalid int value"),
    (["diff", "standard"], "the following arguments are required"),
])
def test_diff_refuses_bad_input(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli(*args)
    assert code == 2
    assert message in err


def test_diff_says_every_problem_of_both_files(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Both files' problems at once, in text and JSON (it said the first file's alone: fixed, the second's came)."""
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("name: a\nextends: standard\ncapture: {sums: maybe}\n", encoding="utf-8")
    b.write_text("name: b\nextends: standard\nbuild: {allowed: 3}\n", encoding="utf-8")
    code, out, err = cli("diff", str(a), str(b))
    assert code == 2 and not out
    assert "a.yaml:3:17: `capture.sums` must be true or false" in err and "b.yaml:3:18: `build.allowed`" in err
    code, out, _ = cli("diff", str(a), str(b), "--format", "json")
    report = json.loads(out)
    assert code == 2 and report["ok"] is False
    assert [(e["file"].rsplit("/", 1)[-1], e["line"]) for e in report["errors"]] == [("a.yaml", 3), ("b.yaml", 3)]
    code, _, err = cli("diff", str(a), str(a))   # (one file twice: its problem said once)
    assert code == 2 and err.count("must be true or false") == 1


def test_a_move_is_credited_to_the_setting_that_makes_it_differ(cli) -> None:  # type: ignore[no-untyped-def]
    # standard vs dominican: the trail of a card equal to a loose card is capture.compulsory's, never equal_cards'.
    report = diff_json(cli, "standard", "dominican")
    entry = next(d for d in report["differences"] if d["settings"] == ["capture.equal_cards"])
    assert entry["position"] is not None
    assert not any(m.endswith(" trail") for m in entry["position"]["only_a"] + entry["position"]["only_b"])
    _check_position("standard", "dominican", entry)


def test_a_setting_that_cannot_change_play_is_not_counted(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("diff", "standard", "face-builds")
    assert code == 0
    assert out.startswith("standard vs face-builds: 5 rules differ")   # the deal's order is one (issue 36)
    assert "\nbuild.max_value\n" not in out
    assert "not counted): build.max_value." in out


def test_rules_and_diff_count_different_things_and_say_so(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`diff` counts the rules set differently; the rulebook marks every sentence that differs (a rule of no
    building removes the whole of standard's building section): the book's count is of sentences, said so, never
    "N rules differ" beside diff's other number (issue 50 had the book count settings; readers' audits found the
    sentences changed as a consequence unmarked)."""
    house = tmp_path / "my-house.yaml"
    house.write_text("name: my-house\ndescription: no sums, no building\nextends: standard\n"
                     "capture: {sums: false}\nbuild: {allowed: false}\n")
    code, out, _ = cli("diff", "standard", str(house))
    assert code == 0 and out.startswith("standard vs my-house: 2 rules differ")
    code, book, _ = cli("rules", str(house), "--no-examples")
    assert code == 0
    flat = " ".join(book.split())
    assert "rules differ" not in flat and "rule differs" not in flat
    count = int(re.search(r"A house rule of standard: (\d+) entries differ between this rulebook and standard's",
                          flat).group(1))   # type: ignore[union-attr]
    assert count == flat.count("CHANGED:") + flat.count("NEW:") + flat.count("REMOVED from standard:") > 2
    assert "These are the book's entries, each a rule's sentences or a reading: `cassino diff` counts the rules set differently" in flat


def _pairs_build(entry: dict) -> bool:  # type: ignore[type-arg]
    """Whether the position holds a build of equal cards announced as their own rank (two fives as 5)."""
    deck = Engine(load_rules("standard")).deck
    for bd in entry["position"]["builds"]:
        cards = [deck.parse(c) for c in bd["cards"]]
        if len({c.rank for c in cards}) == 1 and bd["value"] in (*deck.table_values[deck.index(cards[0])], cards[0].rank):
            return True
    return False


@pytest.mark.parametrize("a, b", [("standard", "examples/two-handed-eleven.yaml"), ("standard", "two-handed"),
                                  ("examples/two-handed-eleven.yaml", "royal")])
def test_continue_as_begun_is_shown_on_a_build_of_equal_cards(cli, a: str, b: str) -> None:  # type: ignore[no-untyped-def]
    report = diff_json(cli, a, b)
    entry = next(d for d in report["differences"] if d["settings"] == ["build.continue_as_begun"])
    assert entry["position"] is not None and _pairs_build(entry), entry
    _check_position(a, b, entry)
    code, out, _ = cli("diff", a, b)
    assert code == 0 and "No position among" not in out


def test_a_move_is_credited_to_a_setting_the_other_file_leaves_unset(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # plain.yaml never spells out build.continue_as_begun (it inherits it); the house file sets it.
    # The shown moves are that setting's, whichever file comes first.
    plain = tmp_path / "plain.yaml"
    plain.write_text("name: plain\ndescription: standard as it is\nextends: standard\n")
    house = tmp_path / "pairs-house.yaml"
    house.write_text("name: pairs-house\ndescription: builds of equal cards stay pairs\nextends: standard\n"
                     "build: {continue_as_begun: true}\n")
    for a, b in ((str(plain), str(house)), (str(house), str(plain))):
        report = diff_json(cli, a, b)
        assert [d["settings"] for d in report["differences"]] == [["build.continue_as_begun"]]
        entry = report["differences"][0]
        assert entry["position"] is not None and _pairs_build(entry)
        assert entry["position"]["only_a" if a == str(plain) else "only_b"], entry
        _check_position(a, b, entry)


@pytest.mark.parametrize("a, b, setting, because", [
    ("dominican", "hungarian", "build.raise_own", "hungarian allows no building"),
    ("hungarian", "two-handed", "build.continue_as_begun", "hungarian allows no building"),
    ("face-builds", "hungarian-ulmann", "build.owner_obligation", "hungarian-ulmann allows no building"),
    ("hoyle", "two-handed", "build.for_partner", "no partnership game is open to both"),
    ("hoyle", "hungarian", "build.for_partner", "no partnership game is open to both"),
    ("dominican", "face-builds", "capture.valueless_cards", "dominican's rules do not read it"),
    ("dominican", "two-handed", "capture.valueless_cards", "dominican's rules do not read it"),
])
def test_a_setting_that_cannot_change_play_in_the_pairing_is_listed_not_searched(cli, a, b, setting, because) -> None:  # type: ignore[no-untyped-def]
    report = diff_json(cli, a, b)
    entry = next(d for d in report["differences"] if d["settings"] == [setting])
    assert entry["no_effect"] and because in entry["no_effect_because"] and "position" not in entry
    code, out, _ = cli("diff", a, b)
    assert code == 0 and "No position among" not in out
    assert f"\n{setting}\n" not in out
    line = next(x for x in out.splitlines() if x.startswith("Set differently") and because in x)
    assert setting in line and "(not counted)" in line
    counted = [d for d in report["differences"] if not d["no_effect"]]
    assert out.startswith(f"{report['a']} vs {report['b']}: {len(counted)} rule")


def test_diff_of_a_clause_worded_by_another_setting_does_not_crash(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # game.count_out (a list) differs; its clause is game.both_reach's, which spade's book leaves out:
    # the words are looked up by the clause's own setting, not by the list. (Spade no longer clears the
    # count-out it never reads, so a house rule of it does.)
    path = tmp_path / "spade-cleared.yaml"
    path.write_text("name: spade-cleared\nextends: spade\ngame:\n  count_out: []\n", encoding="utf-8")
    code, out, err = cli("diff", "dominican", str(path))
    assert code == 0 and not err, err
    assert out.startswith("dominican vs spade-cleared: ")
    assert "not counted): game.count_out." in out


def _block(out: str, setting: str) -> str:
    """The lines of ``cassino diff``'s text under one setting, on one line (wrapping removed)."""
    return " ".join(out.split(f"\n{setting}\n", 1)[1].split("\n\n", 1)[0].split())


@pytest.mark.parametrize("a, b", [("scopa", "escoba"), ("escoba", "scopa")])
def test_a_setting_worded_by_another_reads_as_under_the_other_variants_settings(cli, a: str, b: str) -> None:  # type: ignore[no-untyped-def]
    """Scopa against Escoba: equal card first's position (only Escoba takes A♠ 3♠ 6♥ with 5♥ while K♦
    lies there) stood beside Scopa's "a loose card equals the card you play", which does not explain
    it: under Escoba's total the setting makes a single card that makes 15 be taken first. Beside the
    position, Scopa's setting now reads as it would under Escoba's capture total, in either order."""
    escoba_words = rulebook(Rules.from_data(with_value(dict(load_rules("escoba").data),
                                                       ("capture", "equal_card_first"), True))).clauses()
    words = escoba_words["capture.equal_card_first"].text
    assert words.startswith("When one loose card alone makes 15 with the card you play")
    code, out, _ = cli("diff", a, b)
    assert code == 0
    block = _block(out, "capture.equal_card_first")
    assert "A position where they differ" in block
    assert f"Under escoba's capture.total, scopa's setting would read: {words}" in block
    report = diff_json(cli, a, b)
    entry = next(d for d in report["differences"] if d["settings"] == ["capture.equal_card_first"])
    assert entry["read_under_other"] == [{"variant": "escoba", "setting_of": "scopa",
                                          "depends_on": ["capture.total"], "words": words}]
    _check_position(a, b, entry)
    # A setting whose words depend on nothing the two differ in gets no such line.
    compulsory = next(d for d in report["differences"] if d["settings"] == ["capture.compulsory"])
    assert compulsory["read_under_other"] == []
    assert "would read" not in _block(out, "capture.compulsory")


def test_the_line_follows_which_settings_change_a_settings_words(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Not a case for two names: two house rules of standard, one without sums, one taking one group a
    play. Sums' words depend on the groups ("also takes sets" or "may instead take one set"), so
    beside the sums position the first reads the second's sums under its own groups; the other way
    the words are the first's own, and nothing more is said. Where the groups are the same (standard
    against the first) there is no such line."""
    no_sums = tmp_path / "no-sums.yaml"
    no_sums.write_text("name: no-sums\ndescription: no sums\nextends: standard\ncapture: {sums: false}\n")
    one_group = tmp_path / "one-group.yaml"
    one_group.write_text("name: one-group\ndescription: one group a play\nextends: standard\n"
                         "capture: {several_groups: false}\n")
    report = diff_json(cli, str(no_sums), str(one_group))
    entry = next(d for d in report["differences"] if d["settings"] == ["capture.sums"])
    assert entry["position"] is not None
    (line,) = entry["read_under_other"]
    assert line["variant"] == "no-sums" and line["setting_of"] == "one-group"
    assert line["depends_on"] == ["capture.several_groups"]
    assert "also takes sets" in line["words"] and "may instead take one set" in entry["b"]
    code, out, _ = cli("diff", str(no_sums), str(one_group))
    assert code == 0
    assert ("Under no-sums's capture.several_groups, one-group's setting would read: A card also takes sets"
            in _block(out, "capture.sums"))
    plain = diff_json(cli, "standard", str(no_sums))
    assert all(d["read_under_other"] == [] for d in plain["differences"])


@pytest.mark.parametrize("parent, setting, value", [
    ("swazi-casino", "build.raise_partners", "true"),
    ("south-african-casino", "build.for_partner", "false"),
    ("hoyle", "build.for_partner", "false"),
    ("examples/table-cards-raise.yaml", "build.raise_with_table_cards", "false"),
    ("swazi-casino", "build.raise_own", "true"),
])
def test_a_rule_random_positions_seldom_show_is_shown_from_its_worked_example(cli, tmp_path: Path, parent: str,
                                                                              setting: str, value: str) -> None:  # type: ignore[no-untyped-def]
    """An audit's diff found no position in 300 random ones for a partner's build raised, a value built for a
    partner or a raise with table cards: the rulebooks' worked examples of the rule are tried first."""
    section, name = setting.split(".")
    house = tmp_path / "house.yaml"
    base = str(ROOT / parent) if parent.endswith(".yaml") else parent
    house.write_text(f"name: house\nextends: {base}\n{section}:\n  {name}: {value}\n", encoding="utf-8")
    report = diff_json(cli, parent, str(house))
    entry = next(d for d in report["differences"] if setting in d["settings"])
    assert entry["position"] is not None and entry["position"]["from"] == "worked example", entry
    _check_position(parent, str(house), entry)


def test_one_set_a_capture_by_a_total_is_said_in_the_totals_words(cli) -> None:  # type: ignore[no-untyped-def]
    """An audit read "does not apply in this variant" beside Escoba's several groups, where a capture takes one set:
    the capture total's sentence says so, and the diff now gives it."""
    report = diff_json(cli, "standard", "escoba")
    entry = next(d for d in report["differences"] if d["settings"] == ["capture.several_groups"])
    assert entry["a"].startswith("One play may take several groups at once")
    assert "One play takes one such set" in entry["b"] and "does not apply" not in entry["b"]


@pytest.mark.parametrize("base, house, rule", [
    ("standard", "examples/fifty.yaml", "the game's end"),
    ("krypkasino", "examples/krypkasino-threes.yaml", "who sits at the table"),
])
def test_a_rule_no_position_can_show_says_why(cli, base: str, house: str, rule: str) -> None:  # type: ignore[no-untyped-def]
    """An audit of the house-rule examples read ten `diff`s with neither a position nor a sample hand nor a word
    of why (a target, a seating): each such rule now says what it is about instead."""
    code, out, err = cli("diff", base, str(ROOT / house))
    assert code == 0, err
    assert f"No position is shown: this rule is about {rule}" in out
    code, out, err = cli("diff", base, str(ROOT / house), "--format", "json")
    assert code == 0, err
    whys = [d["no_position_because"] for d in json.loads(out)["differences"]]
    assert any(w and rule in w for w in whys)


def test_a_sample_hand_that_shows_no_difference_says_so(cli) -> None:  # type: ignore[no-untyped-def]
    """hoyle-sweeps-cancel's sample hand had one side sweep, so no row of its table differed, and nothing said so."""
    code, out, err = cli("diff", "hoyle", str(ROOT / "examples/hoyle-sweeps-cancel.yaml"))
    assert code == 0, err
    assert "<- differs" not in out and "This hand scores the same under both" in out


def test_a_rule_only_the_house_rule_reads_is_worded_beside_the_not_counted_line(cli) -> None:  # type: ignore[no-untyped-def]
    """(A re-attack: count-out's sweeps tie-break was in no row of `diff standard count-out`, only named as a
    setting standard does not read.)"""
    code, out, _ = cli("diff", "standard", "examples/count-out.yaml")
    assert code == 0
    moot = out.split("Set differently, but standard does not read it")[1].split("\n\n")[0]
    assert "game.count_out_sweeps" in moot
    assert "\n  count-out: When the count-out reaches the sweeps, the side with more sweeps scores the difference" in moot
    assert "does not apply" not in moot


def test_the_sample_hand_plays_in_partnerships_where_either_game_always_does(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """An African house rule's audit: `diff south-african-casino` against a house rule where four always play in two
    teams scored the sample hand as four sides (seat 0 2, seat 1 3, ...), where the house rule's own book scores
    seats 0+2 and 1+3. The hand is played in partnerships, and said so, its sides named by their seats."""
    house = tmp_path / "teams.yaml"
    house.write_text("name: teams\ndescription: four always in teams\nextends: south-african-casino\n"
                     "seats:\n  min_players: 4\n  partnerships: always\ndeal:\n  by_players: []\n"
                     "scoring:\n  items:\n    sweeps: {points: 1}\n", encoding="utf-8")
    report = diff_json(cli, "south-african-casino", str(house))
    sample = report["sample_hand"]
    assert sample["players"] == 4 and sample["partners"] is True and sample["sides"] == {"0": [0, 2], "1": [1, 3]}
    assert set(sample["total"]["a"]) <= {"0", "1"} and set(sample["total"]["b"]) <= {"0", "1"}, sample["total"]
    code, out, _ = cli("diff", "south-african-casino", str(house))
    assert code == 0 and "(4 greedy computer players in partnerships," in out and "seats 0+2" in out, out[-1200:]


def test_partnerships_at_other_counts_are_said_with_those_counts(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A rule author's Scopa for six in two teams of three: diff said its partnerships "does not apply"."""
    six = tmp_path / "six.yaml"
    six.write_text("name: six\nextends: scopa\nseats: {min_players: 6, max_players: 6, partnerships: always, "
                   "partnership_players: [6], team_size: 3}\n", encoding="utf-8")
    report = diff_json(cli, "scopa", str(six))
    entry = next(d for d in report["differences"] if d["settings"] == ["seats.partnerships"])
    assert entry["b"].startswith("Six players always play in two teams of three")

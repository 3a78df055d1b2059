"""`cassino diff`: differences in words, positions the engine confirms, scores on one hand."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cassino.engine.core import Engine, Position
from cassino.engine.notation import parse_move
from cassino.engine.scoring import Scorer
from cassino.language.compare import differences
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
    # Each move differs because of the setting named: A with only that setting from B agrees with B on it.
    data = dict(ra.data)
    for path in entry["settings"]:
        data = with_value(data, tuple(path.split(".")), get(dict(rb.data), tuple(path.split("."))))
    ei = Engine(Rules.from_data(data))
    legal_i = set(ei.legal_moves(ei.position(position)))
    assert not only_a & legal_i and only_b <= legal_i
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
    assert out.startswith("standard vs hoyle: 5 rules differ")
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
    assert out.startswith("standard vs face-builds: 4 rules differ")
    assert "\nbuild.max_value\n" not in out
    assert "not counted): build.max_value." in out


def test_rules_and_diff_give_one_count_for_a_house_rule(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    house = tmp_path / "my-house.yaml"
    house.write_text("name: my-house\ndescription: no sums, no building\nextends: standard\n"
                     "capture: {sums: false}\nbuild: {allowed: false}\n")
    code, out, _ = cli("diff", "standard", str(house))
    assert code == 0 and out.startswith("standard vs my-house: 2 rules differ")
    code, book, _ = cli("rules", str(house), "--no-examples")
    assert code == 0
    flat = " ".join(book.split())
    assert "It changes 2 settings (what `cassino diff` counts)" in flat

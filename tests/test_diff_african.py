"""`cassino diff` on African Casino's building settings (issue 36): each said in the rulebook's words,
with a position the engine confirms where the two games share a deck, the pile shrunk to what the
moves use; and none searched where a setting cannot change play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cassino.engine.core import Engine, Position
from cassino.engine.notation import parse_move
from cassino.language.variants import load_rules

from conftest import ROOT

NEW = ("capture.pile_cards", "build.augment_opponents", "build.raise_partners", "build.one_per_value")
TAKEN = str(ROOT / "examples" / "swazi-tops-taken.yaml")


def _diff(cli, a: str, b: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    code, out, err = cli("diff", a, b, "--format", "json")
    assert code == 0, err
    return {",".join(d["settings"]): d for d in json.loads(out)["differences"]}


def _confirm(a: str, b: str, pos: dict[str, Any]) -> None:
    """The position, pile included, allows A's moves and not B's, and the reverse."""
    ea, eb = Engine(load_rules(a)), Engine(load_rules(b))
    card = ea.deck.parse
    position = Position(players=pos["players"], partners=pos["partners"], to_play=0,
                        hands={0: [card(c) for c in pos["hand"]]}, table=[card(c) for c in pos["table"]],
                        builds=[([card(c) for c in bd["cards"]], bd["value"], bd["owner"]) for bd in pos["builds"]],
                        captured={int(s): [card(c) for c in cs] for s, cs in pos["captured"].items()} or None)
    for move in pos["only_a"]:
        m = parse_move(move, ea.deck)
        assert ea.is_legal(ea.position(position), m) and not eb.is_legal(eb.position(position), m), move
    for move in pos["only_b"]:
        m = parse_move(move, ea.deck)
        assert eb.is_legal(eb.position(position), m) and not ea.is_legal(ea.position(position), m), move
    assert pos["only_a"] or pos["only_b"]


def test_swazi_against_royal_says_each_new_setting_with_a_position(cli) -> None:  # type: ignore[no-untyped-def]
    diffs = _diff(cli, "swazi-casino", "royal")
    # (the pile's sets and their base are one sentence, so one row, as for South African Casino below)
    diffs["capture.pile_cards"] = diffs.pop("capture.pile_cards,capture.pile_base")
    for setting in NEW:
        d = diffs[setting]
        assert not d["no_effect"], setting
        assert d["a"] and d["b"] in ("no such rule here", "does not apply in this variant"), setting
        assert d["position"] is not None, setting
        _confirm("swazi-casino", "royal", d["position"])
    assert "never captured directly" in diffs["capture.pile_cards"]["a"]
    assert "Reading: " in diffs["capture.pile_cards"]["a"]          # the file's reading, said with it
    assert diffs["build.raise_partners"]["position"]["partners"]


def test_a_pile_in_a_position_keeps_only_the_cards_that_matter(cli) -> None:  # type: ignore[no-untyped-def]
    pos = _diff(cli, "swazi-casino", "royal")["capture.pile_cards,capture.pile_base"]["position"]
    used = " ".join(pos["only_a"] + pos["only_b"])
    for cards in pos["captured"].values():
        assert all(c in used.split() for c in cards), (cards, used)


def test_swazi_against_its_tops_taken_reading(cli) -> None:  # type: ignore[no-untyped-def]
    d = _diff(cli, "swazi-casino", TAKEN)["capture.pile_cards"]
    assert "as if it were a loose card" in d["b"] and "only augments" in d["a"]
    _confirm("swazi-casino", TAKEN, d["position"])
    assert d["position"]["only_b"]                                  # a top taken directly: only the reading


def test_south_african_against_standard_says_every_new_setting(cli) -> None:  # type: ignore[no-untyped-def]
    diffs = _diff(cli, "south-african-casino", "standard")
    # (the pile's sets, their base and their reach are one sentence, so one row: ``compare._CLAUSE_OF``)
    diffs["capture.pile_cards"] = diffs.pop("capture.pile_cards,capture.pile_base")
    for setting in NEW + ("build.one_per_player",):
        assert not diffs[setting]["no_effect"], setting
        assert diffs[setting]["b"] == ("does not apply in this variant" if setting == "capture.pile_cards"
                                       else "no such rule here")
    assert diffs["build.one_per_player"]["a"].startswith("A player owns one build at a time")
    assert "Reading: " in diffs["build.one_per_player"]["a"]


def test_a_game_without_building_makes_the_build_settings_moot(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """No building in one of them: rules about builds on the table cannot change play (compare's
    _ON_EXISTING_BUILDS), said without a search."""
    path = tmp_path / "swazi-no-builds.yaml"
    path.write_text("name: swazi-no-builds\ndescription: Swazi without building\nextends: swazi-casino\n"
                    "build:\n  allowed: false\n  free_actions: false\ntrail:\n  with_build: false\n", encoding="utf-8")
    diffs = _diff(cli, str(path), "royal")
    for setting in ("build.augment_opponents", "build.raise_partners", "build.one_per_value"):
        assert diffs[setting]["no_effect"], setting
        assert "allows no building" in diffs[setting]["no_effect_because"], setting
        assert "position" not in diffs[setting]


def test_diff_shows_a_raise_to_the_partners_value(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A re-audit: `diff swazi-casino` against a house rule of `build.raise_for_partner: true` found no position among
    300, where a scenario showed one; the rulebook's worked example of the rule gives it."""
    house = tmp_path / "house.yaml"
    house.write_text("name: house\nextends: swazi-casino\nbuild: {raise_for_partner: true}\n", encoding="utf-8")
    code, out, err = cli("diff", "swazi-casino", str(house), "--format", "json")
    assert code == 0, err
    entry = next(d for d in json.loads(out)["differences"] if d["settings"] == ["build.raise_for_partner"])
    assert entry["position"] is not None and entry["position"]["only_b"] and not entry["position"]["only_a"]
    assert entry["position"]["only_b"][0].startswith("2H build 10 on")

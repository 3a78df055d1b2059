"""`cassino explain` marks the settings a variant's other settings leave unread ("Not used here: ..."):
the count-out order where several sides past the target do not count out, every game-end setting of a
game won by the lowest total, a lurch's worth where no lurch is played. An audit found `explain
krypkasino` saying "Several sides past the target in one hand: the higher score wins" beside "the
lowest total wins", with nothing to tell the reader which one the game plays.

The mark is a claim about play, so it is checked on play: for every bundled variant and every setting
marked, the setting is changed to each other value it may take and whole hands are played from scores
just short of the target (where the game-end settings decide), with the same random moves; the scores,
the winner and the end of the game must not change. A control changes a setting that is read and sees
the games change, so the comparison can fail."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.language.explain import explain, unused
from cassino.language.rules import Rules
from cassino.language.settings import get, with_value
from cassino.language.variants import bundled_names, load_rules

#: The other values each marked setting is played with (a list of values, or a function of the rules).
OTHER_VALUES: dict[str, Any] = {
    "game.both_reach": ["higher_wins", "count_out", "next_target"],
    "game.count_out": lambda r: [list(reversed([i.name for i in r.scoring.items])), []],
    "game.count_out_sweeps": ["difference", "more_wins"],
    "game.target_step": [3, 30],
    "game.lurch.multiplier": [1, 3],
    "endgame.sweeps_from_side": ["own", "any"],
}


def _marked(rules: Rules) -> list[str]:
    return [s for s in OTHER_VALUES if unused(rules, s)]


def _others(rules: Rules, setting: str) -> list[Any]:
    values = OTHER_VALUES[setting]
    values = values(rules) if callable(values) else values
    now = get(dict(rules.data), tuple(setting.split(".")))
    return [v for v in values if v != now]


def _changed(rules: Rules, setting: str, value: Any) -> Rules:
    data = with_value(dict(rules.data), tuple(setting.split(".")), value)
    if setting == "game.both_reach" and value == "count_out" and not get(data, ("game", "count_out")):
        data = with_value(data, ("game", "count_out"), [i.name for i in rules.scoring.items])
    return Rules.from_data(data)


def _play(rules: Rules, seed: int, hands: int = 2) -> list[tuple[Any, ...]]:
    """Whole hands of random legal moves from scores just short of the target (each side 2 short, or
    none where each hand is a game): what each hand's end gave, and how the game ended."""
    engine = Engine(rules)
    players = rules.seats.min_players if rules.seats.min_players > 2 else 2
    game = Game.new(engine, seed, players, partners=rules.partnership(players, True))
    if game.target is not None:
        game = game.with_(scores=tuple(max(game.target - 2, 0) for _ in game.scores))
    rng = random.Random(seed)
    seen: list[tuple[Any, ...]] = []
    while not game.over and len(game.results) < hands:
        before = len(game.results)
        moves = game.legal_moves()
        game = game.play(moves[rng.randrange(len(moves))])
        if len(game.results) > before:
            seen.append((game.scores, game.target, game.over, game.winner, game.games_won))
    seen.append((game.scores, game.over, game.winner, game.games_won))
    return seen


@pytest.mark.parametrize("name", bundled_names())
def test_explain_marks_exactly_the_unread_settings(name: str) -> None:
    rules = load_rules(name)
    text = explain(rules)
    marked = _marked(rules)
    for setting in marked:
        key = setting.split(".", 1)[1]
        assert re.search(rf"^  {re.escape(key)} = .*\n.*\n      Not used here: ", text, re.M), (name, setting)
    assert text.count("Not used here: ") == len(marked), name


@pytest.mark.parametrize("name", bundled_names())
def test_a_setting_marked_unread_changes_no_game(name: str) -> None:
    rules = load_rules(name)
    for setting in _marked(rules):
        for value in _others(rules, setting):
            changed = _changed(rules, setting, value)
            for seed in (1, 2):
                assert _play(changed, seed) == _play(rules, seed), (name, setting, value, seed)


def test_the_comparison_sees_a_setting_that_is_read() -> None:
    """Control: standard reads `both_reach` (both sides just short of 21 often pass it together):
    moving the target on instead of the higher total winning changes some of these games."""
    rules = load_rules("standard")
    assert not unused(rules, "game.both_reach")
    changed = _changed(rules, "game.both_reach", "next_target")
    assert any(_play(changed, seed) != _play(rules, seed) for seed in range(1, 9))


def test_the_lowest_wins_games_say_their_game_end_settings_are_unread() -> None:
    text = explain(load_rules("krypkasino"))
    block = text[text.index("  both_reach = "):]
    block = block[:re.search(r"\n  \S", block).start()]   # its line and the lines under it
    assert "Not used here: the lowest total wins once a side is at or past the target (`goal: lowest`)." in block
    # ... and the target is said to be the loss limit there
    assert "with `goal: lowest`, the loss limit that ends it" in text


def test_a_count_out_variant_reads_its_count_out() -> None:
    rules = load_rules("hoyle")
    assert rules.game.both_reach == "count_out"
    assert not unused(rules, "game.count_out") and not unused(rules, "game.count_out_sweeps")
    assert unused(rules, "game.target_step")

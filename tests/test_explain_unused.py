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

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.notation import format_move
from cassino.errors import Diagnostic, PositionTooLargeError
from cassino.language import semantics
from cassino.language.explain import explain
from cassino.language.unread import (BUILD_SETTINGS, GAME_END_SETTINGS, LURCH_SETTINGS, PILE_SETTINGS, RAISE_SETTINGS,
                                     PARTNER_BUILD_SETTINGS, SWEEP_SETTINGS, TEAM_SETTINGS, unused)
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
    # (an audit of generated house rules: Escoba's take-all and a valueless rule where every card has a value)
    "capture.take_all": [True, False],
    "capture.valueless_cards": ["one", "all", "any", "one_or_three_by_fourth"],
    # (a players' audit of Escoba: a last-card sweep no play can make)
    "sweeps.on_last_play": [True, False],
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


def _shown_settings(text: str) -> list[tuple[str, str]]:
    """Each setting line of ``explain``'s text (`  key = value` under its section's name) as its dotted path,
    with the lines under it up to the next setting."""
    out: list[tuple[str, str]] = []
    section = ""
    for block in re.split(r"\n(?=\S|  \S)", text):
        first = block.split("\n", 1)[0]
        if re.fullmatch(r"[a-z]+", first):
            section = first
        found = re.match(r"  ([a-z_.]+) = ", first)
        if found and section not in ("deck", "scoring"):
            out.append((f"{section}.{found.group(1)}", block))
    return out


@pytest.mark.parametrize("name", bundled_names())
def test_explain_marks_exactly_the_unread_settings(name: str) -> None:
    rules = load_rules(name)
    text = explain(rules)
    shown = _shown_settings(text)
    assert len(shown) > 60, name   # (every setting of seats to endgame is shown)
    for setting, block in shown:
        assert ("Not used here" in block) == bool(unused(rules, setting)), (name, setting, block)
    marked = [s for s, _ in shown if unused(rules, s)]
    assert text.count("Not used here") == len(marked), name
    # each reason said in full where the setting before it had another (or none), "as above" after the same
    reasons = [unused(rules, s) for s, _ in shown]
    for (setting, block), why, before in zip(shown, reasons, ["", *reasons]):
        if why:
            assert (f"Not used here: {why}." in block) == (why != before), (name, setting)


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
    game = text[text.index("\ngame\n"):text.index("\nendgame\n")]
    said = "Not used here: the lowest total wins once a side is at or past the target (`goal: lowest`)."
    assert game.count(said) == 1 and game.index("count_out = ") < game.index(said) < game.index("both_reach = ")
    block = game[game.index("  both_reach = "):]
    block = block[:re.search(r"\n  \S", block).start()]   # its line and the lines under it
    assert "Not used here (as above)." in block   # (the reason said once, under the first setting it marks)
    # ... and the target is said to be the loss limit there
    assert "with `goal: lowest`, the loss limit that ends it" in text


def test_a_count_out_variant_reads_its_count_out() -> None:
    rules = load_rules("hoyle")
    assert rules.game.both_reach == "count_out"
    assert not unused(rules, "game.count_out") and not unused(rules, "game.count_out_sweeps")
    assert unused(rules, "game.target_step")


# ------------------------------------------------------------------ every unread setting, on play
# The marks above in the bundled files are a few of the conditions that leave settings unread; a house rule
# meets the others (a Scopa that sets a build limit, a standard game with no sweeps item). Each condition is
# put on every bundled variant, and each setting it leaves unread changed to another value the schema allows:
# the same random moves must meet the same legal moves at every turn, and the hand the same scores.

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "schema" / "variant.schema.json").read_text())


def _no_sweeps_item(data: dict[str, Any]) -> dict[str, Any]:
    items = {k: v for k, v in data["scoring"]["items"].items() if v.get("count") != "sweeps"}
    data = with_value(data, ("scoring", "items"), items)
    return with_value(data, ("game", "count_out"), [n for n in data["game"]["count_out"] if n in items])


#: Each condition: how a rule set is put under it, and the settings it leaves unread (``cassino.language.unread``).
def _one_value_deck(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with each rank, and each card's hand and table values, counting its first value only (Royal's ace: 1)."""
    deck = dict(d["deck"])
    deck["ranks"] = [{**r, "value": r["value"][0]} if isinstance(r.get("value"), list) else r for r in deck["ranks"]]
    deck["card_values"] = [{k: (v[:1] if isinstance(v, list) else v) for k, v in cv.items()}
                           for cv in deck.get("card_values", [])]
    return {**d, "deck": deck}


CONDITIONS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "builds not allowed": (lambda d: with_value(d, ("build", "allowed"), False), BUILD_SETTINGS),
    "no card from the piles": (lambda d: with_value(d, ("capture", "from_piles"), "none"), PILE_SETTINGS),
    "no obligation of a build": (lambda d: with_value(d, ("build", "owner_obligation"), "none"),
                                 ("build.owner_obligation_in_last_deal",)),
    "no sweeps item": (_no_sweeps_item, SWEEP_SETTINGS),
    "each hand a game": (lambda d: with_value(d, ("game", "target"), None), LURCH_SETTINGS + GAME_END_SETTINGS),
    "single builds not raised": (lambda d: with_value(d, ("build", "raise_single"), False), RAISE_SETTINGS),
    "no partnerships": (lambda d: with_value(d, ("seats", "partnerships"), "never"),
                        TEAM_SETTINGS + PARTNER_BUILD_SETTINGS),
    # (a pile's top taken as a card of its own: how deep a move reaches and what is a base are not read)
    "pile tops taken alone": (lambda d: with_value(with_value(d, ("capture", "from_piles"), "opponents_top"),
                                                   ("capture", "pile_cards"), "taken"),
                              ("capture.pile_reach", "capture.pile_base")),
    "points at the hand's end": (lambda d: with_value(d, ("scoring", "when"), "end_of_hand"), ("game.play_out_hand",)),
    # (one group a play, one card from the hand, no pile card, court cards one or all, each card one value where it
    # lies: no capture holds another)
    "one group a play": (lambda d: _one_value_deck(with_value(with_value(with_value(with_value(
        d, ("capture", "several_groups"), False), ("capture", "hand_cards"), {"max": 1, "combine": "total"}),
        ("capture", "from_piles"), "none"), ("capture", "valueless_cards"), "one")), ("capture.take_all",)),
    # (six players each for themselves, as a rule author's Scopa for six: no seating plays in teams)
    "no seating in teams": (lambda d: with_value(with_value(with_value(d, ("seats", "min_players"), 3),
                                                            ("seats", "max_players"), 3), ("seats", "partnerships"),
                                                 "optional"),
                            ("seats.partnerships",) + TEAM_SETTINGS + PARTNER_BUILD_SETTINGS),
    # (a raise to a partner's proven value is a question only where a build may be made for it)
    "nobody builds for a partner": (lambda d: with_value(d, ("build", "for_partner"), False),
                                    ("build.raise_for_partner",)),
}


def _schema_values(setting: str) -> list[Any]:
    node: dict[str, Any] = SCHEMA
    for part in setting.split("."):
        node = node["properties"][part]
    if setting == "game.count_out":
        return [["cards"], []]
    if setting == "seats.partnership_players":
        return [[4], [6], [4, 6]]
    if "enum" in node:
        return list(node["enum"])
    kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
    values: list[Any] = [None] if "null" in kinds else []
    if "boolean" in kinds:
        values += [True, False]
    if "integer" in kinds:
        low, high = node.get("minimum", 0), node.get("maximum", 14)
        values += sorted({low, (low + high) // 2, high})
    return values


def _valid(data: dict[str, Any]) -> Rules | None:
    try:
        rules = Rules.from_data(data)
    except (ValueError, KeyError, TypeError):
        return None
    return None if semantics.check(data, rules, lambda path, message, **_: Diagnostic("x.yaml", 1, 1, message)) \
        else rules


def _moves_and_scores(rules: Rules, seed: int, players: int, lead: bool = False) -> list[Any]:
    """One hand of random legal moves, from just short of the target where there is one: every turn's legal moves
    in the notation, then the scores and how the game stands (games won, the winner, whether it is over)."""
    engine = Engine(rules)
    game = Game.new(engine, seed, players, partners=rules.partnership(players, True))
    if game.target is not None:   # (from just short of the target, where a game's end is decided; ``lead``: one side)
        game = game.with_(scores=tuple(max(game.target - 2, 0) if k == 0 or not lead else 0
                                       for k in range(len(game.scores))))
    rng = random.Random(seed)
    seen: list[Any] = []
    while not game.over and len(game.results) < 1:
        moves = game.legal_moves()
        seen.append(sorted(format_move(m, engine.deck) for m in moves))
        game = game.play(moves[rng.randrange(len(moves))])
    return [*seen, game.scores, game.games_won, game.winner, game.over]


@pytest.mark.parametrize("condition", CONDITIONS)
@given(data=st.data())
def test_a_setting_left_unread_by_a_condition_changes_no_play(condition: str, data: st.DataObject) -> None:
    put, settings = CONDITIONS[condition]
    name = data.draw(st.sampled_from(bundled_names()), label="variant")
    rules = _valid(put(dict(load_rules(name).data)))
    assume(rules is not None)
    assert rules is not None
    setting = data.draw(st.sampled_from(settings), label="setting")
    assert unused(rules, setting), (name, setting)   # the condition marks it
    now = get(dict(rules.data), tuple(setting.split(".")))
    value = data.draw(st.sampled_from([v for v in _schema_values(setting) if v != now]), label="value")
    changed = _valid(with_value(dict(rules.data), tuple(setting.split(".")), value))
    assume(changed is not None)
    assert changed is not None
    players = data.draw(st.integers(rules.seats.min_players, min(rules.seats.max_players, 4)), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    try:
        assert _moves_and_scores(changed, seed, players) == _moves_and_scores(rules, seed, players)
    except PositionTooLargeError:
        # (a hand whose table the listing cannot hold under one of the two rule sets, as take-all's unions of sets
        # at a crowded Dominican table: no listing to compare, not a difference of the rules)
        assume(False)


def test_the_play_comparison_sees_a_build_setting_where_builds_are_made() -> None:
    """Control: with builds allowed, a build limit of 5 changes some hands' legal moves."""
    rules = load_rules("standard")
    changed = _valid(with_value(dict(rules.data), ("build", "max_value"), 5))
    assert changed is not None and not unused(rules, "build.max_value")
    assert any(_moves_and_scores(changed, seed, 2) != _moves_and_scores(rules, seed, 2) for seed in range(4))


def test_the_play_comparison_sees_a_lurch_where_games_are_played_to_a_target() -> None:
    """Control for the "each hand a game" condition: with a target, a lurch (a game won while the loser has under
    10 points counts double) changes how many games some of these hands win."""
    rules = load_rules("standard")
    changed = _valid(with_value(dict(rules.data), ("game", "lurch", "below"), 10))
    assert changed is not None and not unused(changed, "game.lurch.multiplier")
    assert any(_moves_and_scores(changed, seed, 2, lead=True) != _moves_and_scores(rules, seed, 2, lead=True)
               for seed in range(12))


# ------------------------------------------------------------------ a last card that can never sweep
# Escoba: every capture takes cards making 15 with the card played, and the 40 cards add up to 220, so the hand's
# last card never leaves the table empty, and `sweeps.on_last_play` is unread (a players' audit read "A sweep made
# with the last card of the hand counts" in `how`).

@pytest.mark.parametrize("players,partners", [(2, False), (3, False), (4, False), (4, True)])
def test_no_escoba_hand_ends_with_an_empty_table(players: int, partners: bool) -> None:
    """The claim on play: random hands at every seating end with cards left on the table for the last capturer,
    and the setting's other value plays the same moves to the same scores."""
    rules = load_rules("escoba")
    assert unused(rules, "sweeps.on_last_play")
    engine = Engine(rules)
    changed = _changed(rules, "sweeps.on_last_play", False)
    for seed in range(25):
        state = Game.new(engine, seed, players, partners).hand
        rng = random.Random(seed)
        while not state.over:
            moves = engine.legal_moves(state)
            state = engine.apply(state, moves[rng.randrange(len(moves))])
        assert state.residue and not state.table, (players, seed)   # (left over, then given to the last capturer)
        assert _moves_and_scores(changed, seed, players) == _moves_and_scores(rules, seed, players)


@pytest.mark.parametrize("change,read", [
    ({}, False),
    ({"capture": {"total": 11}}, True),    # 220 is 20 elevens: a last card may sweep
    ({"capture": {"total": 14}}, False),   # 220 is no multiple of 14
    ({"deal": {"redeal": "never"}}, True),  # one deal: the stock's cards never come into play
])
def test_the_last_play_is_read_where_a_last_card_may_sweep(tmp_path: Path, cli: Any, change: dict[str, Any],
                                                           read: bool) -> None:
    """Where the last card cannot sweep, the rulebook says why instead of a rule of such a sweep, `how` says
    neither, and a house rule that writes the setting is warned; where it can, the rule is said as before."""
    from cassino.apps.game.howto import how_to_play
    from cassino.language.rulebook import rulebook

    body = "".join(f"{section}:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in values.items())
                   for section, values in change.items())
    path = tmp_path / "house.yaml"
    path.write_text(f"name: house\nextends: escoba\n{body}sweeps:\n  on_last_play: false\n", encoding="utf-8")
    code, out, err = cli("validate", str(path))
    assert code == 0, (out, err)
    assert ("`sweeps.on_last_play` changes no move and no score here" in out + err) is not read, out + err
    rules = load_rules(str(path))
    assert bool(unused(rules, "sweeps.on_last_play")) is not read
    book = "\n".join(c.text for section in rulebook(rules).sections for c in section.clauses)
    how = how_to_play(rules)
    said = "A sweep made with the very last card of the hand does not count"
    why = "No sweep can be made with the hand's last card"
    assert (said in book, why in book) == (read, not read), book
    assert said in how if read else why not in how and said not in how


def test_a_last_deal_rule_is_still_said_where_no_last_card_sweeps(tmp_path: Path) -> None:
    """Escoba with no sweeps in the last deal: the last card's sentence gives way to why none can sweep, and the last
    deal's rule (a sweep earlier in that deal) is still said."""
    from cassino.language.rulebook import rulebook

    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: escoba\nsweeps:\n  in_last_deal: false\n", encoding="utf-8")
    book = [c.text for section in rulebook(load_rules(str(path))).sections for c in section.clauses]
    assert any(text.startswith("No sweep can be made with the hand's last card") for text in book)
    assert any(text.startswith("Emptying the table in the last deal of the hand") for text in book)

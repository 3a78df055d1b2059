"""A game record's text (``Record.text``, ``records.record_text``) is exactly what ``json.dumps(record.to_json(game),
indent=1, ensure_ascii=False)`` writes: the faster writer keeps the files byte for byte as they were, for every
variant's rules, any actions and any other field, and while records of other rules are written in between."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, strategies as st

from cassino.apps.game.records import Record, apply_action, load_game, record_text
from cassino.engine.notation import format_move
from cassino.language.catalogue import bundled_names
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot


def _expected(out: dict[str, Any]) -> str:
    return json.dumps(out, indent=1, ensure_ascii=False)


def test_every_bundled_variants_record_is_written_as_json_dumps_writes_it(tmp_path: Path) -> None:
    """A record of each bundled variant, written after each of its first actions as a game writes it, the
    variants one after another (so the kept variant text changes hands), each text the plain encoder's; the
    saved file reads back to the same game."""
    for variant in bundled_names():
        rules = load_rules(variant)
        players = rules.seats.min_players
        record = Record(rules, 7, players, rules.partnership(players, False), ["human"] + ["greedy"] * (players - 1),
                        source=variant, aids=["count"])
        game = record.new_game()
        bot = make_bot("greedy", 7)
        assert record.text(game) == _expected(record.to_json(game)), variant   # (no action yet: [])
        for _ in range(6):
            if game.over:
                break
            action = format_move(bot.choose(game, game.hand.turn), game.engine.deck)
            game = apply_action(game, action)
            record.actions.append(action)
            assert record.text(game) == _expected(record.to_json(game)), variant
        path = tmp_path / f"{variant}.json"
        record.save(path, game)
        assert path.read_text(encoding="utf-8") == _expected(record.to_json(game))
        loaded, replayed = load_game(path)
        assert loaded.actions == record.actions and replayed.hand == game.hand, variant


TEXTS = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)


@given(actions=st.lists(TEXTS, max_size=8), seats=st.lists(TEXTS, min_size=1, max_size=3),
       taught=st.one_of(st.none(), st.dictionaries(st.integers(0, 5), st.lists(TEXTS, max_size=2), max_size=2)),
       aids=st.lists(st.sampled_from(["count", "warn"]), unique=True), source=TEXTS)
def test_any_actions_and_fields_are_written_as_json_dumps_writes_them(actions: list[str], seats: list[str],
                                                                      taught: dict[int, list[str]] | None,
                                                                      aids: list[str], source: str) -> None:
    """Quotes, backslashes, line breaks, tabs, control characters and any letter in the actions, seats and the
    other fields: the same text as the plain encoder (a line break is escaped inside a string, so the writer's
    line breaks are its own)."""
    record = Record(load_rules("kasino-misar"), 5, len(seats), False, seats, actions=actions, source=source,
                    taught=taught, aids=aids)
    assert record.text() == _expected(record.to_json())
    assert json.loads(record.text()) == json.loads(_expected(record.to_json()))


def test_a_record_whose_fields_are_not_a_games_is_still_written_as_json_dumps_writes_it() -> None:
    """``record_text`` takes any record's fields: actions that are not all text, a variant of other keys, an
    empty record, nested values, are written by the plain encoder's rules."""
    rules = load_rules("standard").data
    for out in ({}, {"actions": [1, "x", None]}, {"actions": []}, {"actions": "AS trail"},
                {"variant": {"name": "standard", "rules": rules}}, {"variant": {"name": "n", "source": "s", "rules": [1]}},
                {"variant": {"name": "a", "source": "b", "rules": rules}, "seed": 3},
                {"variant": {"name": "a", "source": "c", "rules": rules}, "seed": 3},   # (another source, same rules)
                {"result": {"scores": [1, -2], "over": True, "winner": None}, "seats": ["a\nb", "\"q\""]}):
        assert record_text(out) == _expected(out), out

"""`cassino rules`: every setting value has words, and every printed example is what the engine does.

The examples are read back from the printed text (not from the objects that made
them) and replayed through the engine's public API, so a rulebook that says a
move is legal when the engine refuses it, or leaves out a legal move, fails here.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.apps.rulebooks import full_rulebook
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.notation import parse_move
from cassino.engine.rng import derive
from cassino.engine.scoring import Scorer
from cassino.engine.state import HandState
from cassino.language.render import render
from cassino.language.rulebook import NUMBERS, STRUCTURED, WORDS
from cassino.language.rules import Rules
from cassino.language.schema import load_schema
from cassino.language.settings import leaf_paths, schema_of
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot

from conftest import EXAMPLES, ROOT, VARIANTS

ALL_FILES = [f"variants/{v}.yaml" for v in VARIANTS] + [f"examples/{p.name}" for p in EXAMPLES]


def cassino(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=120)


# ---------------------------------------------------------------------- wording covers the schema


def _schema_paths() -> list[str]:
    """Every setting path, with `*` for a scoring item's or event's own name."""
    paths = leaf_paths({"scoring": {"items": {"*": {}}, "events": {"*": {}}}})
    return [".".join(p) for p in paths]


def test_every_setting_value_in_the_schema_has_words() -> None:
    missing = []
    for dotted in _schema_paths():
        node = schema_of(tuple(dotted.split("."))) or {}
        if dotted in STRUCTURED:
            continue
        if "enum" in node:
            have = set(WORDS.get(dotted, {}))
            missing += [f"{dotted}: {v}" for v in node["enum"] if v not in have]
        elif node.get("type") == "boolean":
            have = set(WORDS.get(dotted, {}))
            missing += [f"{dotted}: {v}" for v in (True, False) if v not in have]
        elif "integer" in (node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]):
            types = node["type"] if isinstance(node["type"], list) else [node["type"]]
            have = set(NUMBERS.get(dotted, {}))
            missing += [f"{dotted}: {k}" for k, t in (("value", "integer"), ("null", "null"))
                        if t in types and k not in have]
        else:
            missing.append(f"{dotted}: no wording at all")
    assert not missing, "settings without words: " + "; ".join(missing)


def test_the_wording_tables_name_only_real_settings() -> None:
    known = set(_schema_paths())
    assert set(WORDS) <= known and set(NUMBERS) <= known and STRUCTURED <= known


def _raw_names() -> set[str]:
    """Setting names and enum values as a file writes them (anything with an underscore)."""
    out: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, sub in node.items():
                if isinstance(key, str) and "_" in key:
                    out.add(key)
                if key == "enum":
                    out.update(v for v in sub if isinstance(v, str) and "_" in v)
                walk(sub)
        elif isinstance(node, list):
            for sub in node:
                walk(sub)

    walk(load_schema()["properties"])
    return out


@pytest.mark.parametrize("target", ALL_FILES)
def test_rulebook_is_in_words_with_examples(target: str) -> None:
    book = full_rulebook(str(ROOT / target))
    text = render(book, "text")
    raw = sorted(n for n in _raw_names() if re.search(rf"\b{n}\b", text))
    assert not raw, f"raw setting names in the rulebook: {raw}"
    assert "{" not in text and "}" not in text, "an unfilled template"
    assert "matching “" not in text, "a card selector without words"
    for title in ("Capturing", "Trailing", "Scoring", "The deal", "The cards", "Winning the game", "Sweeps"):
        assert title in text
    assert text.count("Example:") >= 5
    assert "Example: a sample hand" in text


# ---------------------------------------------------------------------- examples are what the engine does


def _card_reader(rules: Rules):  # type: ignore[no-untyped-def]
    symbol_to_letter = {s.symbol: s.letter for s in rules.deck.suits if s.symbol}

    def letters(text: str) -> str:
        for symbol, letter in symbol_to_letter.items():
            text = text.replace(symbol, letter)
        return text

    return letters


def _blocks(text: str) -> list[tuple[str, dict[str, str]]]:
    """(title, {label: value}) of every example in a text rulebook."""
    out = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = re.match(r"^    Example: (.*)$", line)
        if not m:
            continue
        fields: dict[str, str] = {}
        for follow in lines[k + 1:]:
            if not follow.startswith("      "):
                break
            label, _, value = follow.strip().partition(": ")
            fields[label] = value
        out.append((m.group(1), fields))
    return out


def _position(rules: Rules, engine: Engine, fields: dict[str, str], letters) -> Position:  # type: ignore[no-untyped-def]
    deck = engine.deck

    def cards(text: str) -> list:  # type: ignore[type-arg]
        return [deck.parse(letters(c)) for c in text.split()] if text and text != "empty" else []

    players, partners = 2, False
    if "Players" in fields:
        players = int(fields["Players"].split()[0])
        partners = "partnerships" in fields["Players"]
    builds = []
    for b in fields.get("Builds", "").split(" · ") if "Builds" in fields else []:
        m = re.match(r"\[(.*)\] = (\S+), (single|multiple), made by .*seat (\d)\)?$", b)
        assert m, f"cannot read build {b!r}"
        value: int | str = int(m.group(2)) if m.group(2).isdigit() else m.group(2)
        builds.append((cards(m.group(1)), value, int(m.group(4))))
    return Position(players=players, partners=partners, to_play=0, hands={0: cards(fields["Your hand"])},
                    table=cards(fields["Table"]), builds=builds)


def _moves(text: str, engine: Engine, letters) -> list:  # type: ignore[no-untyped-def]
    if text == "none":
        return []
    return [parse_move(letters(re.sub(r" \(.*\)$", "", m)), engine.deck) for m in text.split(" · ")]


def _check_position_example(rules: Rules, engine: Engine, title: str, fields: dict[str, str], letters) -> int:  # type: ignore[no-untyped-def]
    state = engine.position(_position(rules, engine, fields, letters))
    legal = engine.legal_moves(state)
    checked = 0
    for label, value in fields.items():
        m = re.match(r"^(Captures|Builds|Moves) with (.+)$", label)
        if m:
            played = engine.deck.mask([engine.deck.parse(letters(c)) for c in m.group(2).split("+")])
            kinds = {"Captures": {MoveKind.CAPTURE}, "Builds": {MoveKind.BUILD, MoveKind.TRAIL_BUILD},
                     "Moves": set(MoveKind)}[m.group(1)]
            want = {mv for mv in legal if mv.played == played and mv.kind in kinds}
            assert set(_moves(value, engine, letters)) == want, f"{rules.name}: {title}: {label}"
            checked += 1
        elif label == "Trails":
            want = {mv for mv in legal if mv.kind is MoveKind.TRAIL}
            assert set(_moves(value, engine, letters)) == want, f"{rules.name}: {title}: trails"
            checked += 1
        elif label == "Not allowed":
            for mv in _moves(value, engine, letters):
                assert mv not in legal, f"{rules.name}: {title}: printed as not allowed but legal"
                checked += 1
        elif label == "Sweep":
            (mv,) = _moves(value, engine, letters)
            assert mv in legal
            after = engine.apply(state, mv)
            assert len(after.sweeps) == len(state.sweeps) + 1 and not after.table and not after.builds
            checked += 1
    return checked


def replay_sample_hand(engine: Engine, seed: int, players: int) -> HandState:
    """The sample hand as its printed description says: dealt from the seed, greedy players seeded per seat."""
    game = Game.new(engine, seed, players)
    bots = [make_bot("greedy", derive(seed, s + 1)) for s in range(players)]
    state = game.hand
    while not state.over:
        state = engine.apply(state, bots[state.turn].choose(game.with_(hand=state), state.turn))
    return state


def _check_sample_hand(rules: Rules, engine: Engine, fields: dict[str, str], letters) -> int:  # type: ignore[no-untyped-def]
    m = re.match(r"(\d+), each played by the computer's greedy strategy; deal and play from seed (\d+)",
                 fields["Players"])
    assert m
    players, seed = int(m.group(1)), int(m.group(2))
    state = replay_sample_hand(engine, seed, players)
    for seat in range(players):
        count, _, names = fields[f"Seat {seat} took"].partition(" cards: ")
        taken = {engine.deck.parse(letters(c)) for c in names.split()}
        assert taken == set(engine.deck.cards_of(state.piles[seat])) and int(count) == len(taken)
    for part in fields["Sweeps"].split(" · "):
        sm = re.match(r"seat (\d): (none|(\d+) \(([\d, ]+) cards?\))", part)
        assert sm, part
        seat = int(sm.group(1))
        sizes = [w.size for w in state.sweeps if w.seat == seat and not w.cancelled]
        assert sizes == ([] if sm.group(2) == "none" else [int(x) for x in sm.group(4).split(", ")])
    if "Last capture" in fields:
        assert fields["Last capture"] == f"seat {state.last_capturer}"
    points, by_item = Scorer(engine).hand_points(state)
    for part in fields["Points"].split(" · "):
        name, _, who = part.partition(": ")
        item = next(i for i in rules.scoring.items if i.name.replace("_", " ") == name)
        expected = {s: p for s, p in by_item[item.name].items() if p}
        got = {} if who == "nobody" else {int(a.split()[1]): int(a.split()[2]) for a in who.split(", ")}
        assert got == expected, f"{rules.name}: points for {name}"
    assert fields["Total"] == ", ".join(f"seat {s} {p}" for s, p in sorted(points.items()))
    for label, value in fields.items():
        rm = re.match(r"Had seat 0 (\d+) points before this hand", label)
        if rm:
            restricted, _ = Scorer(engine).hand_points(state, {0: int(rm.group(1))})
            assert value.endswith(f": {restricted[0]}")
    return 1


@pytest.mark.parametrize("target", ALL_FILES)
def test_every_printed_example_is_what_the_engine_does(target: str) -> None:
    rules = load_rules(str(ROOT / target))
    engine = Engine(rules)
    letters = _card_reader(rules)
    text = render(full_rulebook(str(ROOT / target)), "text")
    blocks = _blocks(text)
    assert blocks
    checked = 0
    for title, fields in blocks:
        if title == "a sample hand":
            checked += _check_sample_hand(rules, engine, fields, letters)
        else:
            checked += _check_position_example(rules, engine, title, fields, letters)
    assert checked >= len(blocks), "an example with nothing to check"


def test_a_wrong_example_would_be_caught() -> None:
    """The checker itself: a printed example with one move changed fails."""
    rules = load_rules("standard")
    engine = Engine(rules)
    letters = _card_reader(rules)
    text = render(full_rulebook("standard"), "text")
    title, fields = next((t, f) for t, f in _blocks(text) if t == "taking sums")
    fields = dict(fields)
    fields["Captures with 9♠"] = fields["Captures with 9♠"].split(" · ", 1)[1]
    with pytest.raises(AssertionError):
        _check_position_example(rules, engine, title, fields, letters)


# ---------------------------------------------------------------------- house rules, formats, the command


def test_house_rule_marks_what_changed_against_its_parent() -> None:
    text = render(full_rulebook(str(ROOT / "examples/table-cards-raise.yaml")), "text")
    assert "A house rule of standard: 1 rule differs" in text
    assert "CHANGED: A raise may use loose table cards along with the card from your hand." in text
    assert "(standard instead: A raise uses the card from your hand alone.)" in text
    assert text.count("CHANGED:") == 1
    # The example under the changed rule now shows the raise the house rule allows.
    assert re.search(r"Builds with 3♣: 3♣ build 10 on \[2♠ 3♥\] 2♦", text)
    plain = render(full_rulebook("standard"), "text")
    assert "CHANGED" not in plain and "house rule" not in plain


def test_a_bundled_variant_that_extends_another_is_not_marked() -> None:
    assert "CHANGED" not in render(full_rulebook("royal"), "text")


def test_markdown_and_html_carry_the_same_rules(tmp_path: Path) -> None:
    book = full_rulebook(str(ROOT / "examples/sweeps-score.yaml"))
    md = render(book, "markdown")
    assert md.startswith("# Sweeps Score") and "## Capturing" in md and "**Changed:**" in md
    assert "`9♠ capture 3♣ 6♦`" in md
    page = render(book, "html")
    assert page.startswith("<!DOCTYPE html>") and "<ins>" in page and "<del>" in page
    assert "9♠ capture 3♣ 6♦" in page and "<script" not in page


def test_rules_command_formats_and_output_file(tmp_path: Path) -> None:
    out = tmp_path / "royal.html"
    result = cassino("rules", "royal", "--format", "html", "--output", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_text(encoding="utf-8").count('class="example"') >= 5


def test_rules_without_examples(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("rules", "hungarian", "--no-examples")
    assert code == 0 and "Example:" not in out
    assert "There is no building in this game." in out


@pytest.mark.parametrize("args, message", [
    (["rules", "nosuch"], "no bundled variant or file named `nosuch`"),
    (["rules", "tests/bad/unknown-key.yaml"], "unknown setting `sweep`"),
    (["rules", "standard", "--format", "pdf"], "invalid choice"),
    (["rules", "standard", "--output", "/nonexistent-dir/x.txt"], "cannot write"),
])
def test_rules_command_refuses_bad_input(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli(*args)
    assert code == 2
    assert message in err


def test_the_in_game_rules_command_shows_the_same_rulebook(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "cassino", "play", "royal", "--seed", "3", "--save", "g.json"],
                            input="rules\nquit\n", capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    book = render(full_rulebook("royal"), "text")
    assert book.strip() in result.stdout

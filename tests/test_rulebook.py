"""`cassino rules`: every setting value has words, and every printed example is what the engine does.

The examples are read back from the printed text (not from the objects that made
them) and replayed through the engine's public API, so a rulebook that says a
move is legal when the engine refuses it, or leaves out a legal move, fails here.
"""

from __future__ import annotations

import re
from dataclasses import replace
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.apps.authors.rulebooks import full_rulebook
from cassino.engine.core import Engine, Position
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.notation import parse_move
from cassino.engine.rng import derive
from cassino.engine.scoring import Scorer
from cassino.engine.state import HandState
from cassino.language.render import render
from cassino.language.rulebook import NUMBERS, STRUCTURED, WORDED_BY, WORDS, WORDS_UNDER_TOTAL, rulebook
from cassino.language.rules import Rules
from cassino.language.schema import load_schema
from cassino.language.settings import get, leaf_paths, schema_of, with_value
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot

from conftest import EXAMPLES, ROOT, VARIANTS, position_at, validate_refuses

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
    assert set(WORDS_UNDER_TOTAL) <= set(WORDS) and set(WORDED_BY) <= known
    assert all(set(deps) <= known for deps in WORDED_BY.values())
    # Words taken under a capture total depend on it: `cassino diff` learns that from WORDED_BY.
    assert all("capture.total" in WORDED_BY.get(path, ()) for path in WORDS_UNDER_TOTAL)


def test_each_setting_said_to_change_anothers_words_does_in_some_bundled_variant() -> None:
    """WORDED_BY drives `cassino diff`'s line of how a setting reads under the other variant's
    settings (issue 37): an entry that changed nothing would print a line that explains nothing."""
    variants = [load_rules(name) for name in VARIANTS]
    for path, depends in WORDED_BY.items():
        node = schema_of(tuple(path.split("."))) or {}
        values = node.get("enum") or [True, False]
        for dep in depends:
            seen = list({repr(v): v for v in (get(dict(r.data), tuple(dep.split("."))) for r in variants)}.values())
            dep_node = schema_of(tuple(dep.split("."))) or {}
            if len(seen) == 1 and dep_node.get("type") == "integer":   # one value bundled: its range's ends too
                seen += [v for v in (dep_node.get("minimum"), dep_node.get("maximum")) if v is not None]
            changed = False
            for rules, value in ((r, v) for r in variants for v in values):
                texts = set()
                for other in seen:
                    data = with_value(with_value(dict(rules.data), tuple(path.split(".")), value),
                                      tuple(dep.split(".")), other)
                    clause = rulebook(Rules.from_data(data)).clauses().get(path)
                    texts.add(clause.text if clause else None)
                if len(texts - {None}) > 1:
                    changed = True
                    break
            assert changed, f"{dep} changes no words of {path} in any bundled variant"


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
    # (a house rule's examples may be marked against its parent's: "Example (CHANGED from standard's): ...")
    assert len(re.findall(_EXAMPLE_HEAD, text, re.M)) >= 5
    assert re.search(_EXAMPLE_HEAD.replace("(.*)", "a sample hand"), text, re.M)


# ---------------------------------------------------------------------- examples are what the engine does


def _card_reader(rules: Rules):  # type: ignore[no-untyped-def]
    symbol_to_letter = {s.symbol: s.letter for s in rules.deck.suits if s.symbol}

    def letters(text: str) -> str:
        for symbol, letter in symbol_to_letter.items():
            text = text.replace(symbol, letter)
        return text

    return letters


#: An example's heading in a text rulebook: ``Example: title``, in a house rule's book also ``Example (CHANGED from
#: standard's): title`` or ``Example (NEW): title`` (a removed one, shown by its title alone, is not an example).
_EXAMPLE_HEAD = r"^    Example(?: \((?:CHANGED from [^)]*|NEW)\))?: (.*)$"


def _blocks(text: str) -> list[tuple[str, dict[str, str]]]:
    """(title, {label: value}) of every example in a text rulebook (a changed example's lines of its parent,
    ``(standard instead: ...)``, left out)."""
    out = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = re.match(_EXAMPLE_HEAD, line)
        if not m:
            continue
        fields: dict[str, str] = {}
        for follow in lines[k + 1:]:
            if not follow.startswith("      "):
                break
            if follow.strip().startswith("("):
                continue
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
    captured = {}   # African Casino: "Seat 1's pile: 4♥ 6♦ (6♦ on top)", in order
    for label, value in fields.items():
        m = re.match(r"^Seat (\d)'s pile$", label)
        if m:
            captured[int(m.group(1))] = cards(re.sub(r" \(.*\)$", "", value))
    return Position(players=players, partners=partners, to_play=0, hands={0: cards(fields["Your hand"])},
                    table=cards(fields["Table"]), builds=builds, captured=captured or None)


def _moves(text: str, engine: Engine, letters) -> list:  # type: ignore[no-untyped-def]
    if text == "none" or text.startswith("none (a capture is compulsory here: "):
        return []
    return [parse_move(letters(re.sub(r" \(.*\)$", "", m)), engine.deck) for m in text.split(" · ")]


def _compelled_said(rules: Rules, engine: Engine, legal: list, value: str, letters, title: str) -> int:  # type: ignore[no-untyped-def]
    """"none (a capture is compulsory here: 8♣ capture 8♥)": the rules make capturing compulsory and each capture
    named is legal there (how many were checked)."""
    head = "none (a capture is compulsory here: "
    if not value.startswith(head):
        return 0
    assert rules.capture.compulsory != "never", f"{rules.name}: {title}: compulsory said where it is not"
    named = _moves(value[len(head):-1], engine, letters)
    assert named and all(mv in legal and mv.kind is MoveKind.CAPTURE for mv in named), f"{rules.name}: {title}"
    return len(named)


def _check_position_example(rules: Rules, engine: Engine, title: str, fields: dict[str, str], letters) -> int:  # type: ignore[no-untyped-def]
    state = engine.position(_position(rules, engine, fields, letters))
    legal = engine.legal_moves(state)
    checked = 0
    for label, value in fields.items():
        m = re.match(r"^(Captures|Builds|Moves) with (.+)$", label)
        if m:
            # (build.free_actions: "Builds with no card from your hand" are the builds of cards in play alone)
            played = 0 if m.group(2) == "no card from your hand" else \
                engine.deck.mask([engine.deck.parse(letters(c)) for c in m.group(2).split("+")])
            kinds = {"Captures": {MoveKind.CAPTURE}, "Builds": {MoveKind.BUILD, MoveKind.TRAIL_BUILD},
                     "Moves": set(MoveKind)}[m.group(1)]
            want = {mv for mv in legal if mv.played == played and mv.kind in kinds}
            assert set(_moves(value, engine, letters)) == want, f"{rules.name}: {title}: {label}"
            checked += 1 + _compelled_said(rules, engine, legal, value, letters, title)
        elif label == "Trails":
            want = {mv for mv in legal if mv.kind is MoveKind.TRAIL}
            assert set(_moves(value, engine, letters)) == want, f"{rules.name}: {title}: trails"
            checked += 1 + _compelled_said(rules, engine, legal, value, letters, title)
        elif label == "Not allowed":
            for mv in _moves(value, engine, letters):
                assert mv not in legal, f"{rules.name}: {title}: printed as not allowed but legal"
                checked += 1
        elif label == "When":
            # (said where the rule shown lapses later in the hand: the position is before the last deal;
            # test_the_owners_trail_refused_before_the_last_deal_is_allowed_in_it checks what changes there)
            assert value.startswith("before the last deal"), value
            assert state.stock, f"{rules.name}: {title}: the stock is empty"
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
        took = fields[f"Seat {seat} took"]
        tm = re.fullmatch(r"nothing|(\d+) cards?: (.+)", took)
        assert tm, took
        count, names = (0, "") if took == "nothing" else (int(tm.group(1)), tm.group(2))
        taken = sorted(engine.deck.parse(letters(c)) for c in names.split())   # a list: two packs repeat names
        assert taken == sorted(engine.deck.cards_of(state.piles[seat])) and count == len(taken)
        assert took.startswith(f"{count} card: " if count == 1 else f"{count} cards: " if count else "nothing")
    cancelling = any(w.cancelled for w in state.sweeps)
    for part in fields["Sweeps"].split(" · "):
        # Each seat's sweeps that count and, where some were cancelled, how many of its own were.
        sm = re.fullmatch(r"seat (\d): (none|(\d+) \(([\d, ]+) cards?\))( counted, (\d+) cancelled)?", part)
        assert sm, part
        seat = int(sm.group(1))
        sizes = [w.size for w in state.sweeps if w.seat == seat and not w.cancelled]
        assert sizes == ([] if sm.group(2) == "none" else [int(x) for x in sm.group(4).split(", ")])
        assert bool(sm.group(5)) == cancelling, part
        if cancelling:
            assert int(sm.group(6)) == sum(1 for w in state.sweeps if w.seat == seat and w.cancelled), part
    if "Last capture" in fields:
        assert fields["Last capture"] == f"seat {state.last_capturer}"
    points, by_item = Scorer(engine).hand_points(state)
    # (a side named by its seats: "seat 1", or "seats 0+2" where it has several, each seat of it and no other)
    sides: dict[int, list[int]] = {}
    for seat, team in enumerate(state.teams):
        sides.setdefault(team, []).append(seat)
    named = {s: f"seat {seats[0]}" if len(seats) == 1 else "seats " + "+".join(map(str, seats))
             for s, seats in sides.items()}
    side_of = {name: s for s, name in named.items()}
    for part in fields["Points"].split(" · "):
        name, _, who = part.partition(": ")
        item = next(i for i in rules.scoring.items if i.name.replace("_", " ") == name)
        expected = {s: p for s, p in by_item[item.name].items() if p}
        got = {} if who == "nobody" else {side_of[a.split(" to ", 1)[1]]: int(a.split(" ", 1)[0]) for a in who.split(", ")}
        assert all(re.fullmatch(r"-?\d+ points? to seats? [\d+]+", a) for a in who.split(", ") if who != "nobody"), who
        assert got == expected, f"{rules.name}: points for {name}"
    assert fields["Total"] == ", ".join(f"{named[s]} {p}" for s, p in sorted(points.items()))
    for label, value in fields.items():
        rm = re.match(r"Had seat 0 (\d+) points before this hand", label)
        if rm:
            restricted, _ = Scorer(engine).hand_points(state, {0: int(rm.group(1))})
            assert value.endswith(f": {restricted[0]}")
    return 1


def check_printed_examples(path: str) -> int:
    """Every worked example the rulebook of ``path`` prints, read back from its text and replayed on the
    engine (positions' moves, the sample hand's cards, sweeps and points); how many were checked."""
    rules = load_rules(path)
    engine = Engine(rules)
    letters = _card_reader(rules)
    text = render(full_rulebook(path), "text")
    blocks = _blocks(text)
    assert blocks
    checked = 0
    for title, fields in blocks:
        if title == "a sample hand":
            checked += _check_sample_hand(rules, engine, fields, letters)
        else:
            checked += _check_position_example(rules, engine, title, fields, letters)
    assert checked >= len(blocks), "an example with nothing to check"
    return checked


@pytest.mark.parametrize("target", ALL_FILES)
def test_every_printed_example_is_what_the_engine_does(target: str) -> None:
    check_printed_examples(str(ROOT / target))


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
    assert "A house rule of standard: 1 entry differs" in text
    assert "CHANGED: A raise may use loose table cards along with the card from your hand to make up the new" in text
    assert "(standard instead: Only the card from your hand changes a build's value" in text
    assert text.count("CHANGED:") == 1
    # The example under the changed rule now shows the raise the house rule allows.
    assert re.search(r"Builds with 2♠: .*2♠ build 10 on \[3♠ 4♥\] A♣", text)
    plain = render(full_rulebook("standard"), "text")
    assert "CHANGED" not in plain and "house rule" not in plain


def test_a_bundled_variant_that_extends_another_is_not_marked() -> None:
    assert "CHANGED" not in render(full_rulebook("royal"), "text")


def test_markdown_and_html_carry_the_same_rules(tmp_path: Path) -> None:
    book = full_rulebook(str(ROOT / "examples/fifty.yaml"))   # (issue 50: sweeps-score's one rule is new, not changed)
    md = render(book, "markdown")
    assert md.startswith("# Fifty") and "## Capturing" in md and "**Changed:**" in md
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


# ---------------------------------------------------------------------- every sentence true where it is printed (issue 26)


def _book_text(target: str, examples: bool = False) -> str:
    return render(full_rulebook(str(ROOT / target), with_worked_examples=examples, marked=False), "text")


def _flat(text: str) -> str:
    """The rulebook's words on one line (wrapping and bullets removed), for phrase searches."""
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("target", ALL_FILES)
def test_no_sentence_about_a_setting_that_cannot_matter_there(target: str) -> None:
    rules = load_rules(str(ROOT / target))
    text = _flat(_book_text(target, examples=True))
    s, g = rules.seats, rules.game
    partners = s.max_players >= 4 and s.partnerships != "never"
    if not partners:
        assert "partner" not in text.lower(), "a partner clause in a game without partners"
    if not rules.build.for_partner:
        assert "your partner must" not in text, "a build for a partner where nobody may build for one"
    count_out = g.target is not None and g.both_reach == "count_out"
    if not count_out:
        assert "counted out" not in text and "count-out" not in text, "a count-out order without a count-out"
    sweeps_score = any(i.points or i.by_size or i.first_play_points
                       for i in rules.scoring.items if i.count == "sweeps")
    if not sweeps_score:
        assert "count-out reaches the sweeps" not in text and "aces and sweeps" not in text
    pegged_to_the_end = rules.scoring.when == "as_won" and not g.play_out_hand and not g.claiming
    if pegged_to_the_end:
        assert "in the same hand, the higher total" not in text, "a tie rule for a game that stops at once"
        assert "At the end of each hand, points are scored" not in text
    if not rules.build.allowed:
        assert "built on" not in text and "you hold no" not in text and "Example: making a build" not in text
    if rules.build.keep_capturing_card:
        assert "no obligation" not in text, "no obligation, then an obligation to keep a card"
    bullets = [line for line in _book_text(target).splitlines() if line.startswith("  - ")]
    for event in rules.scoring.events:
        word = event.name.replace("_", " ")
        assert sum(f"is an {word}" in b or f"is a {word}" in b or b.startswith(f"  - {word.capitalize()}:")
                   for b in bullets) <= 1, f"the {word} rule printed twice"


def test_a_raise_may_take_in_loose_cards_of_the_new_value_as_the_engine_allows() -> None:
    # 000 rule 5.1, Example C: a two on a build of 7 makes 9 and takes the loose nine along.
    # (hoyle: one's own build; another side's takes the hand card alone there, build.opponents_hand_only)
    for name in ("standard", "hoyle", "draw", "spade", "face-builds", "two-handed"):
        rules = load_rules(name)
        engine = Engine(rules)
        d = engine.deck
        owner = 0 if name == "hoyle" else 1
        state = engine.position(Position(players=2, partners=False, to_play=0, hands={0: [d.parse("2S"), d.parse("9C")]},
                                         table=[d.parse("9H")], builds=[([d.parse("3C"), d.parse("4D")], 7, owner)]))
        assert parse_move("2S build 9 on [3C 4D] 9H", d) in engine.legal_moves(state)
        text = _flat(_book_text(f"variants/{name}.yaml"))
        assert ("from your hand alone" in text) == (name == "hoyle")
        assert "As you raise, you may also take into the build loose cards each worth the new value" in text


@pytest.mark.parametrize("name, takes_set", [("standard", False), ("hoyle", False), ("royal", True),
                                             ("dominican", True), ("dominican-soto", True)])
def test_what_a_raise_takes_in_is_said_as_the_engine_plays_it(name: str, takes_set: bool) -> None:
    # 000 rule 5.1 "if they are equal to the new capturing number": a loose set worth 10 is not taken in
    # as a build of 8 is raised to 10 (standard); royal.yaml reads 002 rules 5-6 as allowing it.
    rules = load_rules(name)
    engine = Engine(rules)
    d = engine.deck
    state = engine.position(Position(players=2, partners=False, to_play=0, hands={0: [d.parse("2S"), d.parse("10C")]},
                                     table=[d.parse("4H"), d.parse("6C")],
                                     builds=[([d.parse("2C"), d.parse("6S")], 8, 1)]))
    legal = engine.legal_moves(state)
    assert parse_move("2S build 10 on [2C 6S]", d) in legal
    assert (parse_move("2S build 10 on [2C 6S] 4H 6C", d) in legal) is takes_set
    text = _flat(_book_text(f"variants/{name}.yaml"))
    said = "take into the build loose cards or sets worth the new value" in text
    assert said is takes_set


@pytest.mark.parametrize("name, quote", [("hoyle", "when [he] cannot pair, combine, or build anything"),
                                         ("draw", "when [he] cannot pair, combine, or build anything"),
                                         ("face-builds", "you cannot make a capture or a build")])
def test_trailing_when_you_could_capture_names_the_reading_chosen(name: str, quote: str) -> None:
    rules = load_rules(name)
    engine = Engine(rules)
    d = engine.deck
    state = engine.position(Position(players=2, partners=False, to_play=0, hands={0: [d.parse("7C"), d.parse("6S")]},
                                     table=[d.parse("7S")], builds=[]))
    assert parse_move("7C trail", d) in engine.legal_moves(state)   # what the book must say
    text = _flat(_book_text(f"variants/{name}.yaml"))
    assert "You never have to capture: you may trail even a card that could capture." in text
    assert quote in text and "this game reads that as saying when a trail is needed, not as forbidding one" in text


def test_face_builds_court_cards_take_all_and_the_book_says_it_is_a_reading() -> None:
    rules = load_rules("face-builds")
    engine = Engine(rules)
    d = engine.deck
    state = engine.position(Position(players=2, partners=False, to_play=0, hands={0: [d.parse("KC")]},
                                     table=[d.parse("KD"), d.parse("KS")], builds=[]))
    legal = engine.legal_moves(state)
    assert parse_move("KC capture KD", d) not in legal and parse_move("KC capture KD KS", d) in legal
    text = _flat(_book_text("variants/face-builds.yaml"))
    assert "must take every loose card of their rank at once" in text
    assert "\"can take all of them\"; for court cards this game reads it as a rule, not a choice" in text


def test_draw_says_which_texts_rules_it_follows() -> None:
    rules = load_rules("draw")
    assert not any(i.points for i in rules.scoring.items if i.count == "sweeps")
    assert rules.capture.equal_cards == "any" and rules.capture.valueless_cards == "one"
    text = _flat(_book_text("variants/draw.yaml"))
    assert "001 gives Draw Cassino as a variation of its own Cassino" in text
    assert "keeps the standard game's play and scoring (000) and changes only the deal" in text


@pytest.mark.parametrize("name", ["dominican", "dominican-soto"])
def test_dominican_says_the_first_to_meet_a_restriction_wins(name: str) -> None:
    text = _flat(_book_text(f"variants/{name}.yaml"))
    assert "If several sides under restrictions meet them in the same hand, the first to have met its " \
           "condition in the play wins" in text
    assert "for sides that reach it without a restriction" in text
    assert "a partner's included" not in text and "your partner must" not in text
    assert "Your partner's builds count as other players': you may raise them." in text


def test_royal_has_no_sweeps_in_its_count_out() -> None:
    text = _flat(_book_text("variants/royal.yaml"))
    assert "count-out reaches the sweeps" not in text
    assert "counted out in this order: cards, spades, big casino, little casino and aces;" in text
    assert "(counted out in the order A♠ A♣ A♥ A♦)" in text


def test_spade_pegs_its_points_as_won() -> None:
    text = _flat(_book_text("variants/spade.yaml"))
    assert "Points are scored as they are won" in text
    assert "At the end of each hand, points are scored" not in text and "pass 61 in the same hand" not in text


def test_hungarian_has_no_building_anywhere_and_names_its_claiming_reading() -> None:
    text = _flat(_book_text("variants/hungarian.yaml", examples=True))
    assert "There is no building in this game." in text
    assert "you hold no" not in text and "built on" not in text
    assert "says nothing of a wrong announcement; this game takes 001's claiming rule" in text
    # (not "You play one card a turn; to capture you may play up to 3 cards", which a player's audit read as
    # contradicting itself)
    assert ("You play one card a turn, except that to capture you may play up to 3 cards from your hand together; "
            "a trail is always one card.") in text


def test_tuxedo_oranges_once_and_the_uncalled_reading() -> None:
    book = _book_text("variants/tuxedo.yaml")
    assert sum("orange" in line.lower() for line in book.splitlines() if line.startswith("  - ")) == 2
    assert "a false call costs 10 points); this game scores every orange as if called" in _flat(book)


def test_owner_may_trail_keeps_the_card_rule_consistent() -> None:
    text = _flat(_book_text("examples/owner-may-trail.yaml"))
    assert "no obligation" not in text
    assert "Owning a build does not stop you from trailing" in text
    assert "you must keep a card of its value in your hand" in text


def test_points_written_as_a_whole_number_with_a_point_are_said_as_a_whole_number(tmp_path: Path) -> None:
    """`points: 1.0` is a whole number to the schema (JSON Schema's integer), and the rulebook said
    "1.0 point"; the rules read it as 1."""
    house = tmp_path / "pts.yaml"
    house.write_text("name: pts\ndescription: spades written 1.0\nextends: standard\n"
                     "scoring:\n  items:\n    spades: {points: 1.0}\n", encoding="utf-8")
    rules = load_rules(str(house))
    spades = next(i for i in rules.scoring.items if i.name == "spades")
    assert spades.points == 1 and isinstance(spades.points, int)
    text = render(full_rulebook(str(house)), "text")
    assert "Spades: 1 point to the side" in text and "1.0 point" not in text


@pytest.mark.parametrize("body, words", [
    ("build:\n  raise_takes_in: all\n", "must be one of none, cards, sets"),
    ("build:\n  raise_takes_in: true\n", "raise_takes_in"),
    ("build:\n  raise_takes_in: [cards]\n", "raise_takes_in"),
    ("build:\n  raise_take_in: sets\n", "did you mean `raise_takes_in`"),
])
def test_a_bad_raise_takes_in_is_refused_at_its_line(cli, tmp_path: Path, body: str, words: str) -> None:  # type: ignore[no-untyped-def]
    said = validate_refuses(cli, tmp_path, body, "standard", words)
    assert "house.yaml:4:" in said, said


@pytest.mark.parametrize("variant", ["south-african-casino", "swazi-casino"])
def test_the_owners_trail_refused_before_the_last_deal_is_allowed_in_it(variant: str) -> None:
    """An audit read the "owning a build" example of South African Casino as "an owner may never trail": the
    example now says it is before the last deal, and the same position in the last deal allows the trails."""
    rules = load_rules(variant)
    engine = Engine(rules)
    letters = _card_reader(rules)
    text = render(full_rulebook(variant), "text")
    fields = dict(next(f for t, f in _blocks(text) if t == "owning a build"))
    assert fields["When"].startswith("before the last deal")
    refused = set(_moves(fields["Not allowed"], engine, letters))
    assert refused and not refused & set(engine.legal_moves(engine.position(_position(rules, engine, fields, letters))))
    last = engine.position(replace(_position(rules, engine, fields, letters), stock=[]))
    assert refused <= set(engine.legal_moves(last))


@pytest.mark.parametrize("target", ALL_FILES)
def test_each_rule_is_one_clause(target: str) -> None:
    """Every clause of a rulebook has a key of its own: the tutorial, explain and diff read a rule by its key,
    and where two sentences shared one (a card value a card, Finnish Kasino's three) they saw only the last."""
    from collections import Counter

    from cassino.language.rulebook import rulebook

    book = rulebook(load_rules(str(ROOT / target)))
    keys = Counter(clause.key for section in book.sections for clause in section.clauses)
    assert not [key for key, n in keys.items() if n > 1]
    said = book.clauses()
    assert sum(keys.values()) == len(said)


@pytest.mark.parametrize("variant", sorted(p.stem for p in (Path(__file__).parent.parent / "variants").glob("*.yaml")))
def test_a_trailed_card_is_said_to_be_built_on_only_where_it_can_be(variant: str) -> None:
    """A reader's audit of the tutorial saw "it can be captured or built on by anyone" taught at a trailed king of
    standard, where cards without a number value are never built: the sentence names them as only captured
    there, and says nothing of them where they are piled by rank or where every card has a value."""
    rules = load_rules(variant)
    text = rulebook(rules).clauses()["trail.intro"].text
    courts = [r for r in rules.deck.ranks if not r.values]
    if not rules.build.allowed:
        assert "built on" not in text
    elif courts and rules.build.valueless == "never":
        assert text.endswith(" only captured).") and all((r.name or r.rank) in text for r in courts), text
    else:
        assert text.endswith("built on by anyone."), text


@pytest.mark.parametrize("name", ["standard", "royal", "hoyle", "dominican", "south-african-casino"])
def test_adding_to_a_build_says_and_shows_the_other_sets_that_may_go_in(name: str) -> None:
    """A reader who knew the game only from the rulebook wrote "a set" of `build.add_sets` as exactly one set: the
    engine (after 000 rule 5.2, "either alone or combined with other cards on the table") lets a loose 8 go into a
    build of 8 beside the set the hand card makes. The sentence says so, and its example shows such a move."""
    text = render(full_rulebook(name), "text")
    flat = " ".join(text.split())
    assert ("made with your card (the card alone, or with loose cards), and with it any other loose cards or sets of "
            "loose cards worth the value") in flat
    example = flat[flat.index("Example: adding to a build"):]
    assert "build 8 on [3♥ 5♠] 6♦ 8♥" in example[:400]


def test_a_card_worth_more_from_the_hand_says_what_it_counts_on_the_table() -> None:
    """A reader of Finnish Kasino's rulebook alone asked what a loose 2♠ or 10♦ counts: "counts 15 when played from
    hand" said nothing of the table."""
    flat = " ".join(render(full_rulebook("finnish-kasino"), "text").split())
    assert "2♠ counts 15 when played from hand and 2 on the table" in flat
    assert "10♦ counts 16 when played from hand and 10 on the table" in flat
    assert "A♠, A♥, A♦ and A♣ count 14 when played from hand and 1 on the table" in flat


@pytest.mark.parametrize("name,said", [("south-african-casino", True), ("swazi-casino", True), ("hoyle", False)])
def test_building_for_a_partner_says_whether_a_raise_may_be_for_them(name: str, said: bool) -> None:
    """A reader of the African rulebooks alone raised another side's build to the partner's proven value (the books
    said "build, or add to a build, for a value your partner is known to hold"); the engine refuses it where a
    raise is the raiser's own (`build.raise_for_partner: false`), and allows it in Hoyle, whose book says nothing."""
    flat = " ".join(render(full_rulebook(name), "text").split())
    assert ("You raise a build only to a value you hold a card of yourself (one you do not keep for another of your "
            "builds), never to a value only your partner is known to hold." in flat) is said
    from cassino.engine.notation import parse_move
    engine, state = position_at(name, {1: ["2D", "9S"], 3: ["10S", "4C"], 0: ["9C"], 2: ["8C"]}, ["5H"], players=4,
                                partners=True, to_play=1, builds=[(["2C", "6D"], 8, 2), (["3D", "7H"], 10, 3)],
                                **({"stock": []} if name == "hoyle" else {}))
    assert engine.is_legal(state, parse_move("2D build 10 on [2C 6D]", engine.deck)) is not said


def test_spade_says_the_table_is_pegged_with_a_last_play_that_reaches_the_target() -> None:
    """A reader of the rulebook alone scored Spade's last play reaching 61 as the game's end before the cards left
    on the table, which the engine pegs to that player with it (9 of 2,000 hands: 66, not 61)."""
    flat = " ".join(render(full_rulebook("spade"), "text").split())
    assert ("The hand's last play ends the hand as it is made, so where it reaches the target the cards left on the "
            "table still go to its player and are pegged with it.") in flat


def test_the_sweeps_section_names_the_dealers_take() -> None:
    """A reader of Escoba's rulebook alone scored hands without the dealer's take of a first table of 15, said only
    under the deal: the sweeps section says it scores as sweeps."""
    flat = " ".join(render(full_rulebook("escoba"), "text").split())
    sweeps = flat[flat.index("Sweeps ---"):]
    assert ("The dealer's take of a first table that makes 15 (see the deal) scores as sweeps too, one "
            "for each set taken.") in sweeps[:600]
    assert "dealer's take" not in " ".join(render(full_rulebook("scopa"), "text").split())

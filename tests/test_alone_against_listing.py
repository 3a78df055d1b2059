"""A move judged alone (``Engine.allowed_alone``: the lazy walk, the whole-move rules, take-all) against the
listing, on positions the engine can list; and ``cassino check`` on tables it cannot.

Beyond the listing budget (more than 100,000 legal moves) the engine decides a move given to it without
listing the position's moves: that is how a typed move, `cassino check`'s `legal` and `illegal`, and a
case's `moves` are judged on a crowded table. The two ways must agree wherever both can answer, so the
property below draws the rule file (every bundled variant and example house rule, or a house rule drawn at
random), the seating, a hand played at random (mostly trailing, so that tables crowd), and at some of its
positions asks both of every legal move and of near misses made from them (a card more or less, another
card played, another build value, another kind of move); a second property does the same at the positions
written in our scenario files, as written or read under a house rule drawn from their variant. Positions
and moves come from the seeds drawn; nothing is picked.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import given, strategies as st

from cassino.apps.authors import generated, matrix
from cassino.apps.authors.matrix import seatings
from cassino.apps.authors.scenarios import Runner
from cassino.engine.core import Engine
from cassino.engine.moves import Move, MoveKind
from cassino.engine.movegen import bits
from cassino.engine.notation import format_move, parse_move
from cassino.errors import PositionTooLargeError, RuleFileError
from cassino.language.catalogue import bundled_names, example_names
from cassino.language.variants import load_rules

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ROOT / "tests" / "scenarios" / "heavy-tables.yaml"

RULE_FILES = [*bundled_names(), *(str(ROOT / "examples" / f"{name}.yaml") for name in example_names())]
SEATINGS = [s for s in seatings(RULE_FILES)]

_engines: dict[str, Engine] = {}


def _engine(name: str) -> Engine:
    if name not in _engines:
        _engines[name] = Engine(load_rules(name))
    return _engines[name]


def near_misses(state, move: Move) -> list[Move]:  # type: ignore[no-untyped-def]
    """Moves one step from a legal one: a card in play added or left out, another hand card played, a build
    on the table added or left out, another build value, a capture read as a build or a trail and back."""
    out: list[Move] = []
    kind = move.kind
    if kind in (MoveKind.CAPTURE, MoveKind.BUILD, MoveKind.TRAIL_BUILD):
        out += [Move(kind, move.played, move.loose ^ (1 << c), move.builds, move.value) for c in bits(state.in_play())]
    if move.played:
        lowest = move.played & -move.played
        out += [Move(kind, (move.played ^ lowest) | (1 << c), move.loose, move.builds, move.value)
                for c in bits(state.hands[state.turn] & ~move.played)]
    out += [Move(kind, move.played, move.loose, tuple(sorted(set(move.builds) ^ {b.cards})), move.value)
            for b in state.builds]
    if kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD) and isinstance(move.value, int):
        out += [Move(kind, move.played, move.loose, move.builds, move.value + d) for d in (-2, -1, 1, 2)]
    if kind is MoveKind.CAPTURE and move.played:
        out += [Move(MoveKind.BUILD, move.played, move.loose, move.builds, v) for v in range(1, 15)]
        out.append(Move(MoveKind.TRAIL, move.played))
    if kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD):
        out.append(Move(MoveKind.CAPTURE, move.played, move.loose, move.builds, None))
    return out


def judge(engine: Engine, state, rnd: random.Random) -> tuple[list[str], int]:  # type: ignore[no-untyped-def]
    """Every legal move of ``state`` and up to a dozen near misses of six of them, judged alone and by the
    listing: each answer that differs, in words, and how many moves were judged (the walk's own budget
    passed is no answer: said as such by every caller, never a guess)."""
    keys = engine.move_keys(state)
    listed = set(keys)
    legal = engine.moves_of(state, keys)
    tried = list(legal)
    for move in rnd.sample(legal, min(6, len(legal))):
        misses = near_misses(state, move)
        tried += rnd.sample(misses, min(12, len(misses)))
    found: list[str] = []
    judged = 0
    for move in tried:
        key = engine.key_of(state, move)
        if key < 0:
            continue   # (a card or build not where the move says: no key, refused either way)
        judged += 1
        keyed = engine.move_of(state, key)
        try:
            alone = engine.allowed_alone(state, keyed)
        except PositionTooLargeError:
            continue
        if alone != (key in listed):
            found.append(f"{format_move(keyed, engine.deck)}: alone {'legal' if alone else 'illegal'}, "
                         f"listing {'legal' if key in listed else 'illegal'} (ply {state.ply})")
    return found, judged


def disagreements(engine: Engine, players: int, partners: bool, seed: int) -> tuple[list[str], int]:
    """Play a hand at random from ``seed`` (trails preferred, so tables crowd) and ``judge`` about a third
    of its positions: the answers that differ from the listing, in words, and how many moves were judged."""
    rnd = random.Random(seed)
    state = engine.start(rnd.randrange(1 << 30), players, partners=partners)
    found: list[str] = []
    judged = 0
    for _ in range(rnd.randrange(1, 60)):
        if state.over:
            break
        try:
            keys = engine.move_keys(state)
        except PositionTooLargeError:
            break   # (beyond the budget the listing has no answer to compare with)
        if rnd.random() < 0.35:
            more, count = judge(engine, state, rnd)
            found += [f"{text} (seed {seed})" for text in more]
            judged += count
        trails = [k for k, m in zip(keys, engine.moves_of(state, keys)) if m.kind is MoveKind.TRAIL]
        state = engine.apply_key(state, rnd.choice(trails) if trails and rnd.random() < 0.7 else rnd.choice(keys))
    return found, judged


@given(st.sampled_from(SEATINGS), st.integers(0, 2**32))
def test_a_move_judged_alone_is_judged_as_the_listing_judges_it(seating, seed: int) -> None:  # type: ignore[no-untyped-def]
    found, _ = disagreements(_engine(seating.variant), seating.players, seating.partners, seed)
    assert not found, f"{seating.label}: " + "; ".join(found[:5])


@given(st.integers(0, 2**32))
def test_so_it_is_under_a_house_rule_drawn_at_random(tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    folder = tmp_path_factory.mktemp("drawn")
    rnd = random.Random(seed)
    path, data = generated.valid(rnd, bundled_names(), folder, 0)
    engine = Engine(load_rules(str(path)))
    seating = rnd.choice(seatings([str(path)]))
    found, _ = disagreements(engine, seating.players, seating.partners, rnd.randrange(1 << 30))
    assert not found, f"{generated.summary(data)}: " + "; ".join(found[:5])


#: The positions written in our scenario files (tests/scenarios and the rulebook readers' files): builds of
#: several owners, piles chosen by hand, a stock run out part way, which play may never reach.
POSITION_FILES = sorted((ROOT / "tests" / "scenarios").glob("*.yaml")) + sorted(
    (ROOT / "tests" / "scenarios" / "rulebook-reading").glob("*.yaml"))
_starts: list = []


def _written():  # type: ignore[no-untyped-def]
    if not _starts:
        _starts.extend(s for s in matrix.scenario_starts(POSITION_FILES)[0] if not s.game.hand.over)
    return _starts


@given(st.integers(0, 2**32))
def test_so_it_is_at_written_positions_as_written_and_under_a_drawn_house_rule(
        tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    """A written position read under a house rule drawn from its variant (``matrix.Start.read_under``: the
    same cards where they lie) is a position of rules it was not written for."""
    rnd = random.Random(seed)
    start = rnd.choice(_written())
    if start.seating.variant in bundled_names() and rnd.random() < 0.7:
        path, data = generated.valid(rnd, [start.seating.variant], tmp_path_factory.mktemp("drawn"), 0)
        start = start.read_under(str(path)) or start
    try:
        found, _ = judge(start.game.engine, start.game.hand, rnd)
    except PositionTooLargeError:
        return   # (a heavy table: the listing has no answer to compare with)
    assert not found, f"{start.label}: " + "; ".join(found[:5])


def test_a_trail_is_judged_alone_where_the_rules_refuse_every_other_move() -> None:
    """Found at a written position under a drawn house rule (the rulebook readers' Swazi case 'owner may
    trail in the last deal', with every equal loose card taken at once): judged alone, a trail was asked
    whether a trail head had a move by walking its items, of which a trail has none, so the engine's
    fallback (every card trailed where the whole-move rules refuse all else) let the owner trail the 9
    the build needs."""
    path = ROOT / "tests" / "scenarios" / "rulebook-reading" / "swazi-casino.yaml"
    start = next(s for s in matrix.scenario_starts([path])[0] if s.case == "owner may trail in the last deal")
    folder = Path(tempfile.mkdtemp())
    rule = folder / "equal-all.yaml"
    rule.write_text("name: equal-all\ndescription: Swazi, every equal loose card at once\nextends: swazi-casino\n"
                    "capture: {equal_cards: all}\n", encoding="utf-8")
    under = start.read_under(str(rule))
    assert under is not None
    engine, state = under.game.engine, under.game.hand
    # (Since session 98 the 9C within reach in the opposing pile is no loose card that `equal_cards: all` makes a
    # capture take, so the build is taken with 9D, as the rulebook's "every loose card equal" reads; before, every
    # capture was refused for it, and the trail was judged where the rules refused all else.)
    assert [format_move(m, engine.deck) for m in engine.legal_moves(state)] == ["9D capture [4H 5S]", "KC trail"]
    for text, legal in (("KC trail", True), ("9D trail", False)):
        move = engine.resolve(state, parse_move(text, engine.deck))
        assert engine.allowed_alone(state, move) is legal, text


def test_the_comparison_judges_moves_and_can_fail() -> None:
    """The property is not empty (it judges legal moves and near misses, both kinds), and a judge that
    differs from the listing is caught."""
    engine = _engine("standard")
    found, judged = disagreements(engine, 2, False, 5)
    assert not found and judged > 50

    class Contrary:
        """The engine, with its judge alone turned round."""

        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(engine, name)

        def allowed_alone(self, state, move):  # type: ignore[no-untyped-def]
            return not engine.allowed_alone(state, move)

    found, _ = disagreements(Contrary(), 2, False, 5)  # type: ignore[arg-type]
    assert found and "alone" in found[0] and "listing" in found[0]


# ---------------------------------------------------------------------- `cassino check` on crowded tables

def test_every_case_of_the_heavy_tables_file_is_beyond_the_listing_budget() -> None:
    """So the file keeps testing what it says it tests (were the budget raised, a case would be listed)."""
    runner = Runner()
    data = yaml.safe_load(HEAVY.read_text(encoding="utf-8"))
    for case in data["cases"]:
        rules, engine, _ = runner.variant(case.get("variant", data["variant"]), HEAVY.parent)
        state, _ = runner.position(case, data, rules, engine)
        with pytest.raises(PositionTooLargeError):
            engine.move_keys(state)


def test_check_answers_every_named_move_on_them(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("check", str(HEAVY))
    assert code == 0, err
    assert "10 passed, 0 failed" in out


def _heavy_case(tmp_path: Path, expect: dict, **more) -> Path:  # type: ignore[no-untyped-def]
    table = "AS 2S 3S 4S AH 2H 3H 4H AD 2D 3D 4D AC 2C 3C 4C 5C 5D 5H 5S 6C 6D".split()
    case = {"name": "crowded", "hand": ["10S", "9H", "8C", "7D"], "hands": {1: ["10H"]}, "table": table,
            **more, "expect": expect}
    path = tmp_path / "crowded.yaml"
    path.write_text(yaml.safe_dump({"variant": "standard", "players": 2, "cases": [case]}, sort_keys=False),
                    encoding="utf-8")
    return path


def test_exactly_on_a_crowded_table_says_why_it_cannot_be_checked(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _heavy_case(tmp_path, {"exactly": ["7D trail"], "legal": ["7D trail"]})
    code, out, err = cli("check", str(path))
    assert code == 2, out
    assert "crowded.yaml:" in err and "case 'crowded': `expect.exactly` asks for every legal move" in err, err
    assert "too many legal moves to list" in err and "`legal` and `illegal`" in err, err
    assert "Traceback" not in err and "step by step" not in err, err


def test_a_refused_move_of_a_case_on_a_crowded_table_says_why(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _heavy_case(tmp_path, {"legal": ["10H capture AH 2H 3H 4H"]}, moves=["10S capture AS 2S 3S"])
    code, out, err = cli("check", str(path))
    assert code == 1, err
    assert "is refused: 10S capture AS 2S 3S: AS 2S 3S cannot be taken by 10S" in out, out
    assert "they add up to 6" in out


def test_a_move_the_walk_cannot_decide_is_said_not_guessed(tmp_path: Path) -> None:
    """Where even the walk runs past its budget (here made small), the case is a file mistake naming the
    move and its place, not a pass or a fail."""
    path = _heavy_case(tmp_path, {"legal": ["10S capture AS 2S 3S 4S AH 2H 3H 4H AD 2D 3D 4D AC 2C 3C 4C 5C 5D 5H 5S"]})
    runner = Runner()
    _, engine, _ = runner.variant("standard", tmp_path)
    engine.move_budget = 5
    with pytest.raises(RuleFileError) as caught:
        runner.run_file(path)
    text = str(caught.value)
    assert "cannot be checked: this position is too large to walk" in text, text
    assert "crowded.yaml:" in text and "give fewer cards on the table" in text, text

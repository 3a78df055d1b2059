"""A library user's audit of the Python API (README, docs/engine.md, the API page and the docstrings), each find a test.

Written from the documents alone, by a programmer writing a bot and an analysis script: the package's own
docstring played a move that is not legal in the hand it deals; ``GameOverError``, which ``Game.play``'s
docstring names, could not be imported from ``cassino``; a player count the variant does not seat was a bare
``ValueError`` (not the ``CassinoError`` "every error the package raises on bad input" is); a ``Position``
naming a seat not at the table failed with ``IndexError`` or ``StopIteration``; a ``Move`` naming cards past
the deck's last failed with ``IndexError`` (a negative mask with "bits of a negative mask") rather than
``IllegalMoveError``; a move given as its text, or a variant's name given to ``Engine``, failed with
``AttributeError`` about an attribute the user never named; ``format_move`` wrote a move made with the kind's
text (``Move("capture", ...)``, which the engine plays as a capture) as a build; the package had no
``py.typed``, so a type checker saw none of its annotations; and the docstring examples of modules outside the
API page (``notation.parse_turn``'s, which docs/engine.md points to) were run by no test.
"""

from __future__ import annotations

from typing import Any

import ast
import doctest
import importlib
import pkgutil
import re
from importlib.resources import files
from pathlib import Path

import pytest

import cassino
from cassino import (CassinoError, Engine, Game, IllegalMoveError, Move, MoveKind, Position, format_move, load_rules,
                     parse_move)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_rules("standard"))


def test_the_package_docstring_example_runs(engine: Engine) -> None:
    """``help(cassino)`` shows a few lines of use; they run as shown (they played ``QH capture 5C 7D``,
    which the hand dealt from seed 7 does not hold: IllegalMoveError)."""
    doc = cassino.__doc__ or ""
    lines = []
    for line in doc[doc.index("::\n") + 3:].splitlines():
        if line.strip() and not line.startswith("    "):
            break   # (the example ends where the text goes on unindented)
        lines.append(line[4:])
    assert any("engine.play(" in line for line in lines)
    namespace: dict[str, object] = {}
    exec("\n".join(lines), namespace)   # noqa: S102 - the package's own example
    assert namespace["state"].turn == 0 and isinstance(namespace["game"], Game)


def test_game_over_error_is_importable_where_the_docs_name_it(engine: Engine) -> None:
    from cassino import GameOverError

    assert "GameOverError" in cassino.__all__ and issubclass(GameOverError, CassinoError)
    game = Game.new(engine, seed=7, players=2).with_(over=True)
    with pytest.raises(GameOverError, match="the game is over"):
        game.play(parse_move("8H capture 2H 6D", engine.deck))


@pytest.mark.parametrize("players", [0, 1, 5, 9])
def test_a_player_count_the_variant_does_not_seat_is_a_cassino_error(engine: Engine, players: int) -> None:
    for call in (lambda: engine.start(seed=7, players=players),
                 lambda: Game.new(engine, seed=7, players=players),
                 lambda: engine.position(Position(players=players))):
        with pytest.raises(CassinoError, match=f"standard is for 2 to 4 players, not {players}"):
            call()


@pytest.mark.parametrize("dealer", [-1, 2, 5])
def test_a_dealer_not_at_the_table_is_a_cassino_error(engine: Engine, dealer: int) -> None:
    with pytest.raises(CassinoError, match=f"dealer {dealer} is not a seat of 2 players"):
        engine.start(seed=7, players=2, dealer=dealer)


def test_a_position_naming_a_seat_not_at_the_table_is_a_cassino_error(engine: Engine) -> None:
    nine = engine.deck.parse("9D")
    cases = {
        "hands names seat 5": Position(players=2, hands={5: [nine]}),
        "to_play names seat 5": Position(players=2, to_play=5),                 # was StopIteration
        "a build's owner names seat 7": Position(players=2, builds=[([nine], 9, 7)]),
        "captured names seat 2": Position(players=2, captured={2: [nine]}),
        "'9D' is not a card of this deck": Position(players=2, hands={0: ["9D"]}),  # type: ignore[list-item]
    }
    for words, position in cases.items():
        with pytest.raises(CassinoError, match=re.escape(words)):
            engine.position(position)


def _move(kind: Any, *masks: int) -> Move:
    """A Move made from its fields; the compiled engine checks a field's type as the Move is made (a kind that is
    no MoveKind is a TypeError there, which is its clear refusal: nothing further to check)."""
    try:
        return Move(kind, *masks)
    except TypeError as e:
        if "MoveKind object expected" not in str(e):
            raise
        pytest.skip("the compiled Move refuses a kind that is no MoveKind as it is made (TypeError)")


@pytest.mark.parametrize("kind, masks", [
    (MoveKind.TRAIL, (1 << 200,)), (MoveKind.TRAIL, (-1,)), (MoveKind.CAPTURE, (1 << 16, 1 << 60)),
    ("fly", (1 << 16,)),
], ids=["past the deck", "negative", "loose past the deck", "no kind"])
def test_a_move_that_names_no_cards_of_the_deck_is_an_illegal_move(engine: Engine, kind: Any,
                                                                    masks: tuple[int, ...]) -> None:
    move = _move(kind, *masks)
    state = engine.start(seed=7, players=2)
    assert engine.is_legal(state, move) is False
    reason = engine.why_illegal(state, move)
    assert "is not a kind of move" in reason or "a card mask is negative or names a card past the last" in reason
    with pytest.raises(IllegalMoveError, match="kind of move|card mask"):
        engine.play(state, move)
    with pytest.raises(IllegalMoveError):
        Game.at(engine, state).play(move)


def test_a_move_given_as_its_text_is_a_type_error_that_names_parse_move(engine: Engine) -> None:
    state = engine.start(seed=7, players=2)
    game = Game.new(engine, seed=7, players=2)
    for call in (lambda: engine.play(state, "4H capture 4C"), lambda: engine.is_legal(state, None),
                 lambda: engine.why_illegal(state, 3), lambda: game.play("8H capture 2H 6D")):
        # (the compiled engine checks an argument's type as it is called: its own TypeError, naming Move, too)
        with pytest.raises(TypeError, match=r"a move is a cassino\.Move \(parse_move|Move object expected"):
            call()


def test_an_engine_given_a_variant_name_says_to_load_its_rules() -> None:
    for call in (lambda: Engine("standard"), lambda: Game.new("royal", seed=7, players=2)):
        with pytest.raises(TypeError, match=r"Engine takes a variant's Rules \(cassino\.load_rules"):
            call()   # type: ignore[arg-type]


def test_a_move_made_with_the_kind_s_text_is_written_as_that_kind(engine: Engine) -> None:
    state = engine.start(seed=7, players=2)
    parsed = parse_move("4H capture 4C", engine.deck)
    by_text = _move("capture", parsed.played, parsed.loose)
    assert by_text == parsed and engine.is_legal(state, by_text)
    assert format_move(by_text, engine.deck) == "4H capture 4C"
    assert format_move(_move("trail", parsed.played), engine.deck) == "4H trail"


def test_the_package_is_marked_as_typed() -> None:
    """PEP 561: without ``py.typed`` a user's mypy reads ``cassino`` as untyped (every name ``Any``)."""
    assert files("cassino").joinpath("py.typed").is_file()


def _docstrings(path: Path) -> list[tuple[str, str]]:
    """(qualified name, docstring) of a module's source and its classes' and functions' (read from the ``.py`` file,
    which the compiled install keeps beside its extension module: a compiled module's objects do not give
    doctest's finder their docstrings)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        doc = ast.get_docstring(node, clean=False) if isinstance(
            node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if doc:
            found.append((prefix, doc))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(child, f"{prefix}.{child.name}")

    walk(tree, "")
    return found


def _modules_with_examples() -> dict[str, list[tuple[str, str]]]:
    """Each module of the package (its extras' too, where installed) whose docstrings hold examples: its
    docstrings with examples."""
    names: dict[str, list[tuple[str, str]]] = {}
    for info in pkgutil.walk_packages(cassino.__path__, "cassino."):
        if info.name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:   # (an extra not installed: openspiel, pettingzoo, the web server)
            continue
        origin = Path(module.__file__ or "")
        source = origin if origin.suffix == ".py" else origin.with_name(info.name.rsplit(".", 1)[1] + ".py")
        if not source.is_file():
            source = origin.parent / "__init__.py" if origin.name.startswith("__init__") else source
        if not source.is_file():
            continue
        docs = [(name, doc) for name, doc in _docstrings(source) if ">>>" in doc]
        if docs:
            names[info.name] = docs
    return names


def test_every_docstring_example_in_the_package_runs(engine: Engine) -> None:
    """The API page's examples are run by tests/test_reference_truths.py; this runs every module's, those
    the page does not show included (``notation.parse_turn``, ``apps.authors.generated``), with the same
    names a reader of the API page has (``engine``, ``state``, ``game`` as in its examples), against the
    modules as installed (compiled where they are)."""
    names = _modules_with_examples()
    assert {"cassino.engine.notation", "cassino.engine.core", "cassino.engine.game"} <= set(names)
    exports = {n: getattr(cassino, n) for n in cassino.__all__ if n != "__version__"}
    parser = doctest.DocTestParser()
    for name, docs in names.items():
        module = importlib.import_module(name)
        for where, doc in docs:
            globs = {**vars(module), **exports, "engine": engine, "state": engine.start(seed=7, players=2),
                     "game": Game.new(engine.rules, seed=7, players=2)}
            test = parser.get_doctest(doc, globs, name + where, None, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test, out=lambda text: None)
            assert runner.failures == 0, f"the example of {name + where} does not give what it shows"


@pytest.mark.parametrize("seat", [9, -1, 2])
def test_a_claim_or_side_of_a_seat_not_at_the_table_is_a_cassino_error(seat: int) -> None:
    """The API audit's leftover: ``Game.claim(9)`` and ``Game.side_of(9)`` raised IndexError (-1 read the last
    seat's side as if it were a seat)."""
    game = Game.new(load_rules("examples/hoyle-claiming.yaml"), seed=7, players=2)
    for call in (lambda: game.claim(seat), lambda: game.side_of(seat)):
        with pytest.raises(CassinoError, match=f"seat {seat} is not at this table of 2 players"):
            call()
    assert game.claim(1).claimed_by == 1


def test_a_card_placed_twice_with_one_pack_is_a_cassino_error(engine: Engine) -> None:
    """One pack: a card in two places (two hands, a hand and the table, twice on the table, a build and the stock)
    was taken as the one card, and the state held it twice (tests/test_movegen_order.py's recorded table had the
    7D in the hand and on the table); now refused, naming both places."""
    seven, four = engine.deck.parse("7D"), engine.deck.parse("4C")
    cases = {
        "7D is placed in seat 0's hand and in seat 1's hand": Position(players=2, hands={0: [seven], 1: [seven]}),
        "7D is placed in seat 0's hand and on the table": Position(players=2, hands={0: [seven]}, table=[seven]),
        "7D is placed twice on the table": Position(players=2, table=[seven, four, seven]),
        "7D is placed in the build of 11 and in the stock": Position(players=2, builds=[([seven, four], 11, 0)],
                                                                     stock=[seven]),
        "7D is placed in seat 1's pile and on the table": Position(players=2, captured={1: [seven]}, table=[seven]),
    }
    for words, position in cases.items():
        with pytest.raises(CassinoError, match=re.escape(words)):
            engine.position(position)
    # Each card once: accepted, and each in its one place.
    state = engine.position(Position(players=2, hands={0: [seven]}, table=[four]))
    assert state.hands[0] & state.table == 0


def test_two_packs_place_a_card_as_often_as_the_packs_hold_it() -> None:
    engine = Engine(load_rules("krypkasino"))
    seven = engine.deck.parse("7D")
    state = engine.position(Position(players=2, hands={0: [seven], 1: [seven]}))
    assert state.hands[0] and state.hands[1] and state.hands[0] != state.hands[1]
    with pytest.raises(CassinoError, match="more often than the deck holds it"):
        engine.position(Position(players=2, hands={0: [seven], 1: [seven]}, table=[seven]))


@pytest.mark.parametrize("listing", ["legal_moves", "move_keys", "playable_moves"])
def test_no_state_is_refused_not_answered_with_no_moves(engine: Engine, listing: str) -> None:
    """``engine.legal_moves(None)`` returned [] (the one-slot memo of the last state listed started at None), as if
    None were a position with no moves; now it is refused as any value that is no position is (AttributeError in
    Python, TypeError compiled), and a real position after it is listed as ever."""
    with pytest.raises((AttributeError, TypeError)):
        getattr(engine, listing)(None)
    assert getattr(engine, listing)(engine.start(seed=1, players=2))

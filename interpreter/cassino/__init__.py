"""cassino: a rule language and one interpreter for Cassino and its family of fishing games.

The public API, for front ends and tests::

    from cassino import load_rules, Engine, Position, Game, parse_move, format_move

    rules = load_rules("royal")                 # a bundled name or a rule file's path
    engine = Engine(rules)
    state = engine.start(seed=7, players=2)     # or engine.position(Position(...))
    moves = engine.legal_moves(state)
    state = engine.play(state, parse_move("4H capture 4C", engine.deck))   # IllegalMoveError if not legal
    game = Game.new(engine, seed=7, players=2)  # whole games: hands, scores, a winner

The package has four layers, imports pointing one way only:
``apps`` (what a user runs) -> ``players`` (who chooses a move) -> ``engine``
(rules -> play) -> ``language`` (YAML text -> rules). The names above are loaded
on first use, so ``cassino --version`` does not import the engine.
"""

from __future__ import annotations

import os
from importlib import import_module

# Not `from typing import TYPE_CHECKING`: importing typing costs ~10 ms of every `cassino --version`.
TYPE_CHECKING = False

__version__ = "0.1.0"

if os.environ.get("CASSINO_PURE_PYTHON", "") == "1" and __name__ == "cassino":
    # Run the engine from its Python source even where compiled modules are installed.
    from .native import use_source

    use_source()

_EXPORTS = {
    "Engine": "engine.core", "Position": "engine.core",
    "Game": "engine.game", "GameOverError": "engine.game",
    "Move": "engine.moves", "MoveKind": "engine.moves", "IllegalMoveError": "engine.moves",
    "MoveSyntaxError": "engine.moves", "PositionTooLargeError": "errors",
    "format_move": "engine.notation", "parse_move": "engine.notation",
    "load": "language.variants", "load_rules": "language.variants",
    "CassinoError": "errors", "RuleFileError": "errors",
}

__all__ = [*_EXPORTS, "__version__"]

if TYPE_CHECKING:  # pragma: no cover
    from .engine.core import Engine, Position
    from .engine.game import Game, GameOverError
    from .engine.moves import IllegalMoveError, Move, MoveKind, MoveSyntaxError
    from .errors import PositionTooLargeError
    from .engine.notation import format_move, parse_move
    from .errors import CassinoError, RuleFileError
    from .language.variants import load, load_rules


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'cassino' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value

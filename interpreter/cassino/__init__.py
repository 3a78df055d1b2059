"""cassino: a rule language and one interpreter for Cassino and its family of fishing games.

The public API, for front ends and tests::

    from cassino import load_rules, Engine, Position, Game, parse_move, format_move

    rules = load_rules("royal")                 # a bundled name or a rule file's path
    engine = Engine(rules)
    state = engine.start(seed=7, players=2)     # or engine.position(Position(...))
    moves = engine.legal_moves(state)
    state = engine.play(state, parse_move("QH capture 5C 7D", engine.deck))
    game = Game.new(engine, seed=7, players=2)  # whole games: hands, scores, a winner
"""

__version__ = "0.1.0"

from .engine import Engine, Position  # noqa: E402
from .errors import CassinoError, RuleFileError  # noqa: E402
from .game import Game  # noqa: E402
from .moves import IllegalMoveError, Move, MoveKind, MoveSyntaxError  # noqa: E402
from .notation import format_move, parse_move  # noqa: E402
from .variants import load, load_rules  # noqa: E402

__all__ = ["Engine", "Position", "Game", "Move", "MoveKind", "load", "load_rules", "parse_move", "format_move",
           "CassinoError", "RuleFileError", "IllegalMoveError", "MoveSyntaxError", "__version__"]

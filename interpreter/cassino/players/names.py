"""Computer players by name, as the command line and game records spell them."""

from __future__ import annotations

import math

from ..errors import CassinoError
from .base import Bot, RandomBot
from .greedy import GreedyBot
from .search import SearchBot

BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
BOT_NAMES = "random, greedy, search, search:N (N deals a move) or search:Xs (X seconds a move)"


def make_bot(name: str, seed: int = 0) -> Bot:
    """A computer player by name: one of ``BOT_NAMES``."""
    base, colon, arg = name.partition(":")
    if base not in BOTS or (colon and base != "search"):
        raise CassinoError(f"no computer player named {name!r}; choose from {BOT_NAMES}")
    if base != "search":
        return BOTS[base](seed)
    if not colon:
        return SearchBot(seed)
    timed = arg.endswith("s")
    try:
        budget: float = float(arg[:-1]) if timed else int(arg)
    except ValueError:
        budget = 0
    if not (budget > 0 and math.isfinite(budget)):
        raise CassinoError(f"bad search budget in {name!r}: write search:64 for 64 deals a move, "
                           f"or search:2s for two seconds a move")
    return SearchBot(seed, seconds=budget) if timed else SearchBot(seed, iterations=int(budget))

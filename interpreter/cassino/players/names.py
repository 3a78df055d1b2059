"""Computer players by name, as the command line and game records spell them."""

from __future__ import annotations

import math

from ..errors import CassinoError
from .base import Bot, RandomBot
from .greedy import GreedyBot
from .search import MOVE_CAP, SearchBot

BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
MAX_DEALS = 10_000
"""The most deals a ``search:N`` player may sample a move: under a second for a 2-player move of
standard Casino, even in pure Python (the default, 64, takes milliseconds). A bound, so that no
player's name can freeze a game."""
MAX_SECONDS = 60.0
"""The most thinking time a ``search:Xs`` player may take a move."""
BOT_NAMES = (f"random, greedy, search, search:N (N deals a move, 1 to {MAX_DEALS:,}) "
             f"or search:Xs (X seconds a move, up to {MAX_SECONDS:g})")


def make_bot(name: str, seed: int = 0, max_deals: int = MAX_DEALS, max_seconds: float = MAX_SECONDS,
             cap: float | None = MOVE_CAP) -> Bot:
    """A computer player by name: one of ``BOT_NAMES``.

    A search budget above ``max_deals`` deals or ``max_seconds`` seconds a move is refused (a front end
    that shares a machine between many games, such as ``cassino serve``, passes smaller bounds).
    ``cap``: the most seconds a search budgeted in deals takes a move (``SearchBot``'s); None for runs
    that must give the same moves on every machine (``simulate``, ``sweep``), whatever a move takes.
    """
    base, colon, arg = name.partition(":")
    if base not in BOTS or (colon and base != "search"):
        raise CassinoError(f"no computer player named {name!r}; choose from {BOT_NAMES}")
    if base != "search":
        return BOTS[base](seed)
    if not colon:
        return SearchBot(seed, cap=cap)
    timed = arg.endswith("s")
    try:
        budget: float = float(arg[:-1]) if timed else int(arg)
    except ValueError:
        budget = 0
    if not (budget > 0 and math.isfinite(budget)):
        raise CassinoError(f"bad search budget in {name!r}: write search:64 for 64 deals a move, "
                           f"or search:2s for two seconds a move")
    if timed and budget > max_seconds:
        raise CassinoError(f"search budget too large in {name!r}: at most {max_seconds:g} seconds a move "
                           f"(search:{max_seconds:g}s)")
    if not timed and budget > max_deals:
        raise CassinoError(f"search budget too large in {name!r}: at most {max_deals:,} deals a move "
                           f"(search:{max_deals})")
    return SearchBot(seed, seconds=budget) if timed else SearchBot(seed, iterations=int(budget), cap=cap)

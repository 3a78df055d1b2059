"""The computer players, in one import (``from cassino.players.bots import make_bot``).

Each lives in a module named for what it holds: ``base`` (Bot, RandomBot,
CardWorth, move_gain), ``greedy``, ``search`` (with ``knowledge``: sampled deals,
``outlook``: expected points, ``solver``: exact play), ``names`` (make_bot).
"""

from .base import Bot, CardWorth, RandomBot, move_gain
from .greedy import GreedyBot
from .names import BOT_NAMES, BOTS, make_bot
from .search import SearchBot

__all__ = ["BOTS", "BOT_NAMES", "Bot", "CardWorth", "GreedyBot", "RandomBot", "SearchBot", "make_bot", "move_gain"]

"""Random draws made exactly as Python's ``random`` module makes them, compiled.

The search deals the cards it cannot see thousands of times a move; ``random.shuffle``
spends most of that in its Python-level ``_randbelow``. ``shuffle`` here is the same
algorithm (Fisher-Yates from the end, each index drawn by rejection from
``getrandbits`` of the bound's bit length), so a seeded search deals the same cards as
before, compiled or not; ``tests/test_draws.py`` checks it against ``random.shuffle``.
"""

from __future__ import annotations

import random


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in [0, n) as ``random.Random._randbelow`` draws it (n > 0)."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[int]) -> None:
    """Shuffle ``items`` in place, exactly as ``rng.shuffle(items)`` would."""
    draw = rng.getrandbits   # (looked up once: ``below``'s draws, the same numbers)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = draw(k)
        while j >= n:
            j = draw(k)
        items[i], items[j] = items[j], items[i]

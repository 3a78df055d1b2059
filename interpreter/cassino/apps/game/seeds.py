"""The range of a seed, the same wherever one is read: a command-line option, a game record, the lobby.

The engine's random source (SplitMix64, ``engine/rng.py``) reads a seed as 64 bits. A seed that
fits in 64 bits, signed or unsigned, is read as it always was; a longer one is refused rather than
cut down (two different numbers would deal the same game), and a record's seed of 5,000 digits is
refused before Python is asked to read it (it raised ValueError: past 4,300 digits).
"""

from __future__ import annotations

SEED_MIN = -(2**63)
SEED_MAX = 2**64 - 1
#: A seed's words in messages and help.
SEED_RANGE = f"a whole number that fits in 64 bits ({SEED_MIN:,} to {SEED_MAX:,})"


def seed_problem(value: object) -> str | None:
    """What is wrong with ``value`` as a seed, or None when it is one."""
    if type(value) is not int:
        return "must be a whole number"
    if not SEED_MIN <= value <= SEED_MAX:
        digits = len(str(abs(value))) if abs(value) < 10**4000 else "over 4,000"
        if digits == "over 4,000" or int(digits) > 20:   # (far out: how far; near the bounds: which side)
            return f"has {digits} digits: a seed is {SEED_RANGE}"
        return f"is {'below the lowest' if value < SEED_MIN else 'above the highest'} seed: a seed is {SEED_RANGE}"
    return None

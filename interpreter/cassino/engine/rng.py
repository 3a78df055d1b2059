"""A small deterministic random source (SplitMix64).

Python's ``random`` is stable in practice, but a game record must replay the
same deal on any Python, forever; this generator is a few lines we own.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection (no modulo bias)."""
        limit = _MASK - (_MASK % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def derive(seed: int, *parts: int) -> int:
    """A seed for a sub-stream (hand number, worker, ...) that does not overlap its siblings."""
    s = SplitMix64(seed)
    value = s.next()
    for p in parts:
        value = SplitMix64(value ^ (p * 0xD1B54A32D192ED03 & _MASK)).next()
    return value

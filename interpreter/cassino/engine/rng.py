"""A small deterministic random source (SplitMix64).

Python's ``random`` is stable in practice, but a game record must replay the
same deal on any Python, forever; this generator is a few lines we own.

The state is kept as a signed 64-bit integer (``i64``). Compiled with mypyc, i64
arithmetic wraps around in machine registers, so a shuffle costs a few
microseconds instead of tens; interpreted, ``i64`` is a plain ``int`` and
:func:`_wrap` reduces each result to the same 64 bits. The numbers are those of
the textbook unsigned SplitMix64 either way (``tests/test_rng.py`` checks this
against a plain big-integer version).
"""

from __future__ import annotations

from typing import Final, cast

from mypy_extensions import i64

_MASK: Final = (1 << 64) - 1


def _i64(half: i64, low: i64) -> i64:
    """The 64-bit number ``2 * half + low``. Written as a literal, a constant beyond 62 bits is
    kept compiled as a Python integer and converted on every use (a call each time: most of
    a shuffle's time); made by this call, it is a machine integer like the others."""
    return half * 2 + low


_LOW63: Final[i64] = _i64(0x3FFFFFFFFFFFFFFF, 1)          # 0x7FFFFFFFFFFFFFFF
_MIN: Final[i64] = _i64(-0x4000000000000000, 0)           # -0x8000000000000000
# The SplitMix64 constants as signed 64-bit numbers (the same bits; tests/test_rng.py).
_GAMMA: Final[i64] = _i64((0x9E3779B97F4A7C15 - (1 << 64)) >> 1, 1)
_MIX1: Final[i64] = _i64((0xBF58476D1CE4E5B9 - (1 << 64)) >> 1, 1)
_MIX2: Final[i64] = _i64((0x94D049BB133111EB - (1 << 64)) >> 1, 1)


def _wrap(x: i64) -> i64:
    """``x`` reduced to a signed 64-bit value: the identity on machine integers, the
    reduction plain Python integers need."""
    return (x & _LOW63) + ((x >> 63) & 1) * _MIN


def _shr(x: i64, k: i64) -> i64:
    """Logical (unsigned) right shift of a 64-bit value by ``k`` (1 to 63)."""
    return (x >> k) & (_LOW63 >> (k - 1))   # the mask 2**(64-k) - 1, made from an i64


def _probe() -> None:
    """(Nothing: a compiled function has no ``__code__``, an interpreted one has.)"""


#: Whether this module runs compiled (mypyc), told once at import: compiled, ``_wrap`` is the
#: identity and ``_step`` works its machine integers inline, without a call for each wrap and
#: shift (six a draw); interpreted, through ``_wrap`` and ``_shr``. The same numbers either way.
_COMPILED: Final = not hasattr(_probe, "__code__")
#: The masks of the logical shifts by 30, 27 and 31 (2**(64-k) - 1).
_SHR30: Final[i64] = _LOW63 >> 29
_SHR27: Final[i64] = _LOW63 >> 26
_SHR31: Final[i64] = _LOW63 >> 30


def _signed(seed: int) -> i64:
    s = seed & _MASK
    if s >= 1 << 63:
        s -= 1 << 64
    return s


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state: i64 = _signed(seed)

    def _step(self) -> i64:
        """The next output as a signed 64-bit value."""
        if _COMPILED:
            # (Machine integers wrap by themselves: the steps below, without the calls.)
            x: i64 = self.state + _GAMMA
            self.state = x
            x = (x ^ ((x >> 30) & _SHR30)) * _MIX1
            x = (x ^ ((x >> 27) & _SHR27)) * _MIX2
            return x ^ ((x >> 31) & _SHR31)
        self.state = _wrap(self.state + _GAMMA)
        z = self.state
        z = _wrap((z ^ _shr(z, 30)) * _MIX1)
        z = _wrap((z ^ _shr(z, 27)) * _MIX2)
        return z ^ _shr(z, 31)

    def next(self) -> int:
        """The next output, an integer in [0, 2**64)."""
        z = self._step()
        return int(z) if z >= 0 else int(z) + (1 << 64)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection (no modulo bias)."""
        return int(self._below(n))

    def _below(self, nn: i64) -> i64:
        while True:
            x = self._step()
            if x >= 0:
                return x % nn
            # (Worked out only here, for the half of the draws that need them.)
            m = (2 * (_LOW63 % nn) + 1) % nn          # (2**64 - 1) % n
            high = (m + 1) % nn                        # 2**64 % n
            # As an unsigned number x is x + 2**64: accepted below 2**64 - 1 - m.
            if x < -1 - m:
                return (x % nn + high) % nn

    def shuffle(self, items: list[int]) -> None:
        # The items moved as the objects they are, by machine-integer indexes (read as numbers,
        # compiled, each would be taken out of its object and boxed again).
        objs = cast(list[object], items)
        i: i64 = len(objs) - 1
        while i > 0:
            j = self._below(i + 1)
            objs[i], objs[j] = objs[j], objs[i]
            i -= 1


# Multiplies each part of a derived seed before it is mixed in (a signed 64-bit number).
_PART: Final[i64] = _i64((0xD1B54A32D192ED03 - (1 << 64)) >> 1, 1)


def _mixed(state: i64) -> i64:
    """The first SplitMix64 output from ``state``, as a signed 64-bit value."""
    z = _wrap(state + _GAMMA)
    z = _wrap((z ^ _shr(z, 30)) * _MIX1)
    z = _wrap((z ^ _shr(z, 27)) * _MIX2)
    return z ^ _shr(z, 31)


def derive(seed: int, *parts: int) -> int:
    """A seed for a sub-stream (hand number, worker, ...) that does not overlap its siblings.

    The first output of SplitMix64 from ``seed``; then, for each part, the first output
    from the last value XOR the part times 0xD1B54A32D192ED03 (mod 2**64). Worked in
    signed 64-bit machine integers (a simulated game derives a seed every move).
    """
    value = _mixed(_signed(seed))
    for p in parts:
        value = _mixed(value ^ _wrap(_signed(p) * _PART))
    return int(value) if value >= 0 else int(value) + (1 << 64)

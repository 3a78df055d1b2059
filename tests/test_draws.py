"""The search's compiled shuffle must deal exactly what ``random.shuffle`` deals (a seeded
search plays the same moves compiled or not, and as it did before it was compiled)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from cassino.players.draws import below, shuffle


@given(seed=st.integers(0, 2**64), size=st.integers(0, 60), rounds=st.integers(1, 3))
def test_shuffle_is_random_shuffle(seed: int, size: int, rounds: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    for _ in range(rounds):
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
    assert ours.getstate() == theirs.getstate()   # the same numbers consumed, too


@given(seed=st.integers(0, 2**32), n=st.integers(1, 2**40))
def test_below_is_randrange(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    values = [below(ours, n) for _ in range(5)]
    assert values == [theirs.randrange(n) for _ in range(5)]
    assert all(0 <= v < n for v in values)

"""The engine's bit helpers against plain Python: ``popcount`` counts masks of up to 62 bits by
machine arithmetic when compiled and wider ones (decks beyond 62 cards) bit by bit; both must
count what ``bin(m).count("1")`` counts, at the edges of the fast path too."""

from __future__ import annotations

import random

from cassino.engine.movegen import bits, deposit, popcount


def test_popcount_counts_every_width() -> None:
    rnd = random.Random(29)
    edges = [0, 1, 2, 3, (1 << 61), (1 << 62) - 1, 1 << 62, (1 << 62) + 1, (1 << 63) - 1, 1 << 63,
             (1 << 64) - 1, (1 << 70) - 1, 0x5555555555555555, 0x2AAAAAAAAAAAAAAA, 0x3333333333333333]
    masks = edges + [rnd.getrandbits(rnd.randint(1, 80)) for _ in range(5000)]
    for m in masks:
        assert popcount(m) == bin(m).count("1"), hex(m)


def test_bits_and_deposit_agree_with_popcount() -> None:
    rnd = random.Random(7)
    for _ in range(2000):
        mask = rnd.getrandbits(rnd.randint(1, 70))
        idx = bits(mask)
        assert idx == [i for i in range(mask.bit_length()) if mask >> i & 1]
        assert len(idx) == popcount(mask)
        local = rnd.getrandbits(max(len(idx), 1))
        picked = deposit(local, mask)
        assert picked == sum(1 << idx[k] for k in range(len(idx)) if local >> k & 1)
        assert popcount(picked) == popcount(local & ((1 << len(idx)) - 1))

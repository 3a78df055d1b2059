"""The engine's bit helpers against plain Python: ``popcount``, ``bits``, ``deposit`` and ``extract`` work on masks
of up to 62 bits by machine arithmetic when compiled and on wider ones (decks beyond 62 cards: two
packs) 62 bits at a time; both must give what plain Python's bit by bit answer gives, at the edges
of the fast path and of each 62-bit part too."""

from __future__ import annotations

import random

from cassino.engine.movegen import bits, deposit, extract, popcount


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


def test_wide_masks_in_parts_of_62_bits() -> None:
    # Two packs' masks (104 cards) and the engine's largest deck (128): bits at the edges of
    # each 62-bit part, parts with no bit, and ``local`` naming more cards than the mask holds.
    rnd = random.Random(52)
    edges = [1 << 61, 1 << 62, 1 << 123, 1 << 124, (1 << 61) | (1 << 62), (1 << 62) | (1 << 124),
             ((1 << 62) - 1) << 62, (1 << 128) - 1, 1 << 127, ((1 << 66) - 1) << 60]
    sparse = [sum(1 << rnd.randrange(128) for _ in range(rnd.randint(1, 12))) for _ in range(2000)]
    for mask in edges + sparse + [rnd.getrandbits(128) for _ in range(500)]:
        idx = [i for i in range(mask.bit_length()) if mask >> i & 1]
        assert bits(mask) == idx, hex(mask)
        assert popcount(mask) == len(idx), hex(mask)
        for local in (0, 1, (1 << len(idx)) - 1, (1 << (len(idx) + 5)) - 1, rnd.getrandbits(len(idx) + 3)):
            expected = sum(1 << idx[k] for k in range(len(idx)) if local >> k & 1)
            assert deposit(local, mask) == expected, (hex(mask), hex(local))


def test_table_value_codes_name_the_value_masks_of_every_variant() -> None:
    """The subset-sum pass reads a table card's value as ``Tables.tvc`` (the value, minus the mask
    of several, -1 for none), the generator's ``sum_vals`` as masks again: both must say what the
    deck's table values say, for a card of one value, of several (a royal ace) and of none."""
    from cassino.engine.core import Engine
    from cassino.engine.movegen import Generator
    from cassino.engine.tables import value_mask
    from cassino.language.variants import bundled_names, load_rules

    kinds: set[str] = set()
    for name in bundled_names():
        engine = Engine(load_rules(name))
        t = engine.tables
        for i in range(t.n_cards):
            code = t.tvc[i]
            mask = value_mask(engine.deck.table_values[i])
            assert (0 if code == -1 else 1 << code if code >= 0 else -code) == mask, (name, i, code)
            assert code >= -1 or code <= -3, (name, i, code)   # (minus a mask of several: at most -3)
            kinds.add("none" if code == -1 else "one" if code >= 0 else "several")
        state = engine.start(1, engine.rules.seats.min_players)
        g = Generator(t, state)
        want = [t.tvm[c] for c in bits(state.in_play()) if t.tvm[c]]
        assert g.sum_vals[:len(want)] == want, name
        assert g.loose_cards == bits(state.in_play()), name
    assert kinds == {"none", "one", "several"}


def test_extract_is_the_inverse_of_deposit_at_every_width() -> None:
    # ``extract(cards, within)``: ``cards`` as a mask over ``within``'s set bits. Compiled, a ``within`` of up
    # to 62 bits is counted in machine integers, a card's place up to 61: a first version shifted a C int
    # there, which wrapped past place 31 (a 40-card mask's high cards came out as low bits, or negative).
    rnd = random.Random(53)
    withins = [0, 1, (1 << 62) - 1, 1 << 61, (1 << 40) - 1, ((1 << 62) - 1) ^ 1, (1 << 62), (1 << 104) - 1,
               (1 << 63) - 1] + [rnd.getrandbits(rnd.choice([8, 33, 40, 61, 62, 63, 70, 104])) for _ in range(3000)]
    for within in withins:
        idx = [i for i in range(within.bit_length()) if within >> i & 1]
        for cards in (0, within, within & rnd.getrandbits(104), rnd.getrandbits(110), within & -within,
                      within & ~(within >> 1), 1 << 62, (1 << 104) - 1):
            expected = sum(1 << k for k in range(len(idx)) if cards >> idx[k] & 1)
            assert extract(cards, within) == expected, (hex(cards), hex(within))
            assert deposit(expected, within) == cards & within

"""The cyclic garbage collector held off while a computer player thinks.

A decision of the search allocates hundreds of thousands of short-lived objects (positions, listings,
sampled deals) and keeps some (the exact solver's table of positions, kept for the deal). Each allocation
counts towards the next collection, and each full collection walks every object still alive: in a long
last deal (South African Casino, 2 players) the collector took about a sixth of the search's time, eleven
full collections a hand walking tables of tens of thousands of positions. Nothing a decision makes needs
the collector: positions, moves and listings hold no cycles and are freed as soon as they are dropped
(a decision leaves 0-150 objects in cycles, measured in South African, standard and Scopa hands). So the
collector is held off for the decision, and whatever it left is collected by the next collection after it.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """The block runs with the cyclic garbage collector off, and the collector is on again after it if it
    was on before (where it was off, it stays off; a nested block leaves it to the outer one). Threads that
    think at once share the one collector: it is on again once the first block that turned it off ends."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()

"""The bounds of ``cassino train``'s options, apart from the training itself: the command line reads them to
build its parser, and ``cassino --version`` or ``cassino list`` must not import the engine to do so."""

from __future__ import annotations

#: The most hands of self-play one round may ask for.
MAX_HANDS = 100_000

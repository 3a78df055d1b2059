"""Rules -> play: the one capture/build engine, and what is built on it.

``core`` (the Engine: dealing, legal moves, applying them), ``state`` and
``moves`` (immutable values), ``notation`` (moves as text), ``scoring``
(points from the variant's scoring items), ``game`` (whole games), ``rng``.
The engine reads settings only; it never asks which variant it plays.
"""

from .core import Engine, Position, bits

__all__ = ["Engine", "Position", "bits"]

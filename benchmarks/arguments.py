"""Argument types the benchmark scripts share: argparse refuses a bad value with its reason and exit 2,
before any work (``--hands 0``, ``--seconds nan``, an unknown variant), never with a traceback.

    parser.add_argument("--hands", type=count(1), default=40)
"""

from __future__ import annotations

import argparse
import math
from typing import Callable


def count(least: int = 1) -> Callable[[str], int]:
    """A whole number, ``least`` or more."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is below {least}: give {least} or more")
        return value
    return parse


def seconds(text: str) -> float:
    """A finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def numbers(size: int | None = None, positive: bool = False) -> Callable[[str], list[float]]:
    """Comma-separated finite numbers (``size`` of them, when given; above 0 where ``positive``)."""
    def parse(text: str) -> list[float]:
        try:
            values = [float(x) for x in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not comma-separated numbers") from None
        if size is not None and len(values) != size:
            raise argparse.ArgumentTypeError(f"{text!r}: give {size} numbers, comma-separated")
        if not all(math.isfinite(v) and (v > 0 or not positive) for v in values):
            raise argparse.ArgumentTypeError(f"{text!r}: give finite numbers{' above 0' if positive else ''}")
        return values
    return parse


def variant(text: str) -> str:
    """A bundled variant's name or a rule file that loads."""
    from cassino.errors import CassinoError
    from cassino.language.variants import load_rules

    try:
        load_rules(text)
    except CassinoError as error:
        raise argparse.ArgumentTypeError(str(error).splitlines()[0]) from None
    return text

"""The engine's legal moves against a second implementation written from the rule texts alone, over the
positions of random games: prints numbers, asserts nothing (each reference's CI slice is its own test).

    python benchmarks/reference_compare.py --reference MODULE [--variants NAMES] [--seeds N] [--first S]
                                           [--examples K] [--write FILE]

MODULE is a reference in ``tests/`` (``tests/MODULE.py``): it has ``VARIANTS`` (the variants it covers),
``legal_moves(variant, case)`` (the moves of a scenario case's position, in the scenario notation) and
may have ``DECLARED``: (name, the reading a variant file declares, a test of a disagreement) for each
difference the variant files choose knowingly. Every seating of each variant is played (each player count,
partnerships where there are any), seeds S .. S+N-1, and each turn's start compared as ``cassino check``
would read it (``tests/reference_positions.py``). Printed: positions compared, left out (too large for a
brute-force reference) and lossy (a case cannot carry the position), disagreements by class, the
undeclared count, K examples a class; ``--write`` puts the undeclared ones in FILE as scenario cases (the
engine's answer as each case's expectation), to read, triage and keep.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from arguments import count  # (benchmarks/arguments.py, beside this script)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import reference_positions  # noqa: E402  (tests/reference_positions.py: the comparison itself)


def _module(name: str) -> Any:
    if not name.isidentifier() or not name.endswith("_reference"):
        raise argparse.ArgumentTypeError(f"{name!r}: give a reference module of tests/, such as anglo_reference")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError:
        raise argparse.ArgumentTypeError(f"no reference tests/{name}.py") from None
    if not hasattr(module, "legal_moves") or not hasattr(module, "VARIANTS"):
        raise argparse.ArgumentTypeError(f"tests/{name}.py has no legal_moves and VARIANTS: not a reference")
    return module


def _names(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))


def classify(module: Any, d: reference_positions.Disagreement) -> str | None:
    """The declared reading a disagreement follows, or None."""
    for name, _reading, test in getattr(module, "DECLARED", ()):
        if test(d):
            return str(name)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=_module, required=True, help="a module of tests/, e.g. anglo_reference")
    parser.add_argument("--variants", type=_names, default=None, help="comma-separated (default: all it covers)")
    parser.add_argument("--seeds", type=count(1), default=5, help="how many seeds a seating (default 5)")
    parser.add_argument("--first", type=count(0), default=1, help="the first seed (default 1)")
    parser.add_argument("--examples", type=count(0), default=1, help="examples printed a class (default 1)")
    parser.add_argument("--write", type=Path, default=None, help="write the undeclared disagreements as scenario cases")
    args = parser.parse_args()
    module = args.reference
    variants = args.variants or tuple(module.VARIANTS)
    unknown = [v for v in variants if v not in module.VARIANTS]
    if unknown:
        parser.error(f"{', '.join(unknown)}: not covered by {module.__name__}; it covers {', '.join(module.VARIANTS)}")
    if args.write is not None and not args.write.parent.is_dir():
        parser.error(f"--write {args.write}: no folder {args.write.parent}")
    start = time.perf_counter()
    tally = reference_positions.run(reference_positions.seatings(variants), range(args.first, args.first + args.seeds),
                                    module.legal_moves)
    took = time.perf_counter() - start
    classes: Counter[str] = Counter()
    examples: dict[str, list[reference_positions.Disagreement]] = {}
    undeclared = []
    for d in tally.found:
        name = classify(module, d)
        key = f"declared: {name}" if name else f"undeclared: {'engine only' if d.engine_says else 'reference only'}"
        classes[key] += 1
        examples.setdefault(key, []).append(d)
        if name is None:
            undeclared.append(d)
    print(f"{module.__name__}: {tally.positions} positions compared ({tally.moves} engine moves), "
          f"{tally.skipped} left out as too large, {tally.lossy} lossy, {len(tally.found)} disagreements, "
          f"{len(undeclared)} undeclared, {took:.1f} s")
    for (variant, players, partners), n in sorted(tally.by_seating.items()):
        print(f"  {variant} {players}p{' partners' if partners else ''}: {n} positions")
    for key, n in classes.most_common():
        print(f"{n:6d}  {key}")
        for d in examples[key][:args.examples]:
            print(f"        {d}")
    if args.write is not None:
        cases = [d.scenario() for d in undeclared]
        args.write.write_text(yaml.safe_dump({"cases": cases}, sort_keys=False), encoding="utf-8")
        print(f"wrote {len(cases)} cases to {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

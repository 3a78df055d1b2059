"""Start-up time of the commands people run most: `--version`, `list`, `validate` of one file.

Targets (issue 11): `cassino --version` under 60 ms, `cassino list` and `cassino validate FILE`
under 250 ms. Each command runs --runs times as a fresh process; the script prints the fastest
and the median wall time (the fastest is the least disturbed by other work on the machine) and
the CPU time of the fastest run, beside bare Python start-up for scale. `--imports` also prints
the slowest imports of each command (python -X importtime), to see where the time goes.

    python benchmarks/startup.py [--runs 15] [--imports]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import arguments  # (benchmarks/arguments.py, beside this script)


ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "cassino --version": [sys.executable, "-m", "cassino", "--version"],
    "cassino list": [sys.executable, "-m", "cassino", "list"],
    "cassino validate standard": [sys.executable, "-m", "cassino", "validate", "standard"],
    "cassino validate examples/fifty.yaml": [sys.executable, "-m", "cassino", "validate",
                                             str(ROOT / "examples" / "fifty.yaml")],
}
TARGETS_MS = {"cassino --version": 60, "cassino list": 250, "cassino validate standard": 250,
              "cassino validate examples/fifty.yaml": 250}


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def slowest_imports(cmd: list[str], n: int = 8) -> list[tuple[int, str]]:
    """The ``n`` imports with the largest cumulative time (microseconds, module), from -X importtime."""
    result = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], capture_output=True, text=True)
    rows = []
    for line in result.stderr.splitlines():
        parts = line.split("|")
        if not line.startswith("import time:") or len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        rows.append((int(parts[1]), parts[2].rstrip()))
    return sorted(rows, reverse=True)[:n]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=arguments.count(1), default=15)
    parser.add_argument("--imports", action="store_true", help="also show the slowest imports of each command")
    args = parser.parse_args()
    env_note = f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else ""
    print(f"{args.runs} runs each; {env_note}")
    print(f"{'command':<38}{'fastest':>9}{'median':>9}{'cpu':>8}  target")
    for name, cmd in COMMANDS.items():
        timed(cmd)  # warm the file cache
        runs = [timed(cmd) for _ in range(args.runs)]
        best = min(runs)
        median = statistics.median(w for w, _ in runs)
        target = TARGETS_MS.get(name)
        verdict = "" if target is None else f"< {target} ms: {'yes' if best[0] * 1000 < target else 'NO'}"
        print(f"{name:<38}{best[0] * 1000:>7.0f}ms{median * 1000:>7.0f}ms{best[1] * 1000:>6.0f}ms  {verdict}")
        if args.imports and name != "python -c pass":
            for cumulative, module in slowest_imports(cmd):
                print(f"    {cumulative / 1000:>7.1f} ms  import {module.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

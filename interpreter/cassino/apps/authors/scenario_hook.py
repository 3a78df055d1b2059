"""The `cassino-check` pre-commit hook: scenario files, and every scenario when a rule file changes.

pre-commit runs a hook only on the changed files its `files:` pattern matches. Running
`cassino check` on changed scenario files alone lets a broken house rule be committed: a
change to a rule file breaks the cases that use it, yet no scenario file changed, so the
hook was skipped. This entry point is given rule files too; when one is among the changed
files it checks every scenario file the repository tracks (`git ls-files`), because any of
them may use that rule file (directly or through `extends`). The checking itself is
`cassino check`'s, so the output and the exit codes are the same: 0 every case held,
1 a case failed, 2 a file is bad (or the repository's files cannot be listed).

Usage (what .pre-commit-hooks.yaml runs):

    python -m cassino.apps.authors.scenario_hook [--scenarios REGEX] FILE...

A changed file is a scenario file when it is a YAML mapping with `cases` (the scenario
format's one required key) or, when it cannot be read, when its path matches REGEX; any
other file is a rule file. REGEX (a Python regular expression searched in the path, default
``(^|/)scenarios/[^/]+\\.ya?ml$``) also picks the tracked scenario files to check.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Sequence

from ...errors import CassinoError
from ...language.resolve import load_named

SCENARIOS = r"(^|/)scenarios/[^/]+\.ya?ml$"


class HookError(CassinoError):
    """The hook cannot do its work (a bad pattern, no git repository): exit 2."""


def is_scenario_file(path: str, pattern: re.Pattern[str]) -> bool:
    """A scenario file holds a mapping with `cases`; a file that cannot be read is judged by its path
    (`cassino check` then reports it if it is a scenario file, `cassino validate` if it is a rule file)."""
    try:
        data = load_named(path).data
    except (CassinoError, OSError, UnicodeError):
        return bool(pattern.search(path.replace("\\", "/")))
    return isinstance(data, dict) and "cases" in data


def tracked_scenario_files(pattern: re.Pattern[str]) -> list[str]:
    """The scenario files git tracks (committed or staged), relative to the current folder."""
    try:
        result = subprocess.run(["git", "ls-files", "-z", "--", "."], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        raise HookError(f"cannot list the repository's files with `git ls-files`: {e}") from None
    if result.returncode != 0:
        reason = (result.stderr.strip().splitlines() or ["git failed"])[-1]
        raise HookError(f"cannot list the repository's files with `git ls-files`: {reason}; "
                        "the hook runs inside a git repository")
    return [p for p in result.stdout.split("\0") if p and pattern.search(p)]


def files_to_check(changed: Sequence[str], pattern: re.Pattern[str]) -> list[str]:
    """The changed scenario files; with every tracked one when a rule file changed. In order, once each."""
    scenarios = [p for p in changed if is_scenario_file(p, pattern)]
    if len(scenarios) < len(changed):          # a rule file changed: any case may use it
        scenarios += tracked_scenario_files(pattern)
    return list(dict.fromkeys(scenarios))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cassino.apps.authors.scenario_hook",
        description="Check the changed scenario files, and every tracked scenario file when a rule file changed "
                    "(exit codes as `cassino check`).")
    parser.add_argument("--scenarios", default=SCENARIOS, metavar="REGEX",
                        help=f"the paths of the tracked scenario files (default: {SCENARIOS})")
    parser.add_argument("files", nargs="*", metavar="FILE", help="the changed files (scenario and rule files)")
    args = parser.parse_args(argv)
    try:
        try:
            pattern = re.compile(args.scenarios)
        except re.error as e:
            raise HookError(f"--scenarios {args.scenarios!r} is not a regular expression: {e}") from None
        files = files_to_check(args.files, pattern)
    except HookError as e:
        print(f"cassino-check: {e}", file=sys.stderr)
        return 2
    if not files:   # (with no file given the tracked files are not looked at: not said to be none)
        print("cassino-check: no scenario files to check " + (
            f"(a rule file changed, and none tracked matching {args.scenarios})" if args.files else
            "(no changed file given: pre-commit names them)"))
        return 0
    from ..cli import main as cassino

    return cassino(["check", *files])


if __name__ == "__main__":
    sys.exit(main())

"""Shared test set-up: Hypothesis profiles and the project's paths.

CI runs a modest number of examples (CI=true selects the `ci` profile);
`HYPOTHESIS_PROFILE=thorough pytest` runs many more locally.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
SHARED = ROOT.parent / "shared"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The command's `main` in this process: (exit status, stdout, stderr); much faster than a subprocess."""
    from cassino.apps.cli import main

    monkeypatch.chdir(ROOT)

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main(list(args))
        except SystemExit as e:   # argparse refusing the command line
            code = int(e.code or 0)
        out, err = capsys.readouterr()
        return code, out, err
    return run

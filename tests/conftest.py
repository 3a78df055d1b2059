"""Shared test set-up: Hypothesis profiles and the project's paths.

CI runs a modest number of examples (CI=true selects the `ci` profile);
`HYPOTHESIS_PROFILE=thorough pytest` runs many more locally.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
SHARED = ROOT.parent / "shared"

"""An optional extra that is not installed is named by the error, not only the module it lacks.

``import cassino.openspiel`` without OpenSpiel said "No module named 'pyspiel'", and ``pip install pyspiel`` is
not how OpenSpiel installs (a documentation audit). Each research module is imported in a fresh interpreter
with one package made missing (``sys.modules[name] = None``, as an uninstalled package fails).
"""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module, missing, extra", [
    ("cassino.openspiel", "pyspiel", "openspiel"),
    ("cassino.pettingzoo", "pettingzoo", "pettingzoo"),
    ("cassino.pettingzoo", "gymnasium", "pettingzoo"),
    ("cassino.vector", "numpy", "pettingzoo"),
])
def test_a_missing_extra_is_named(module: str, missing: str, extra: str) -> None:
    script = f"import sys\nsys.modules[{missing!r}] = None\nimport {module}\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: this part of cassino needs"), last
    assert f"`{missing}` is missing" in last and f"pip install 'cassino[{extra}]'" in last


def test_a_missing_module_of_cassino_itself_is_not_blamed_on_an_extra() -> None:
    from cassino._extras import needs

    with pytest.raises(ModuleNotFoundError) as caught:
        with needs("openspiel", "OpenSpiel", ("pyspiel",)):
            import cassino_nosuch_module  # noqa: F401
    assert "needs OpenSpiel" not in str(caught.value)

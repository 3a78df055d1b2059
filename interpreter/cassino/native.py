"""Which engine runs: the mypyc-compiled modules, or the Python source they are built from.

An installed wheel may carry compiled engine modules (see ``hatch_build.py``) beside
their ``.py`` source; Python imports the compiled ones first. Two ways to run the
source instead, with identical results (the test suite checks it):

- ``CASSINO_PURE_PYTHON=1`` in the environment: ``cassino`` installs a finder, before
  any engine module is imported, that loads every ``cassino`` module from its ``.py``.
- :func:`pure_copy` loads a second, source-only copy of the package under another
  name, so a test can run both engines side by side in one process.

Kept light (``os`` only at import): ``cassino --version`` asks :func:`describe`.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from types import ModuleType
from typing import Sequence

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
PURE_NAME = "_cassino_pure"


class SourceFinder:
    """A meta path finder: ``<prefix>`` and its submodules as ``.py`` files in the package's folder."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname != self.prefix and not fullname.startswith(self.prefix + "."):
            return None
        from importlib.util import spec_from_file_location

        base = os.path.join(PACKAGE_DIR, *fullname.split(".")[1:])
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
            return spec_from_file_location(fullname, init, submodule_search_locations=[base])
        if os.path.isfile(base + ".py"):
            return spec_from_file_location(fullname, base + ".py")
        return None

    def invalidate_caches(self) -> None:
        """Nothing cached (``importlib.invalidate_caches`` calls this on every finder)."""


def forced_pure() -> bool:
    return os.environ.get("CASSINO_PURE_PYTHON", "") == "1"


def use_source() -> None:
    """Load this package's modules from source from now on (call before importing the engine)."""
    if not any(isinstance(f, SourceFinder) and f.prefix == "cassino" for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder("cassino"))  # type: ignore[arg-type]


def compiled() -> bool:
    """Whether the engine that runs is the compiled one (answered without importing it)."""
    if forced_pure():
        return False
    engine = os.path.join(PACKAGE_DIR, "engine", "movegen")
    return any(os.path.isfile(engine + suffix) for suffix in EXTENSION_SUFFIXES)


def pure_copy(module: str = "") -> ModuleType:
    """The package, or one of its modules (``"engine.core"``), loaded again from the Python
    source under the name ``_cassino_pure`` (cached): the same code, never compiled."""
    from importlib import import_module

    if not any(isinstance(f, SourceFinder) and f.prefix == PURE_NAME for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder(PURE_NAME))  # type: ignore[arg-type]
    return import_module(f"{PURE_NAME}.{module}" if module else PURE_NAME)


def describe() -> str:
    """How this copy runs, as ``cassino --version`` says it to a player: ``compiled, mypyc`` or ``pure Python``."""
    return "compiled, mypyc" if compiled() else "pure Python"

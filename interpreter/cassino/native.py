"""Which engine runs: the mypyc-compiled modules, or the Python source they are built from.

An installed wheel may carry compiled engine modules (see ``hatch_build.py``) beside
their ``.py`` source; Python imports the compiled ones first. Two ways to run the
source instead, with identical results (the test suite checks it):

- ``CASSINO_PURE_PYTHON=1`` in the environment: ``cassino`` installs a finder, before
  any engine module is imported, that loads every ``cassino`` module from its ``.py``.
- :func:`pure_copy` loads a second, source-only copy of the package under another
  name, so a test can run both engines side by side in one process.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Sequence

PACKAGE_DIR = Path(__file__).resolve().parent
PURE_NAME = "_cassino_pure"


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``<prefix>`` and its submodules as ``.py`` files in the package's folder."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.prefix and not fullname.startswith(self.prefix + "."):
            return None
        parts = fullname.split(".")[1:]
        base = PACKAGE_DIR.joinpath(*parts)
        if (base / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, base / "__init__.py", submodule_search_locations=[str(base)])
        if base.with_suffix(".py").is_file():
            return importlib.util.spec_from_file_location(fullname, base.with_suffix(".py"))
        return None


def forced_pure() -> bool:
    return os.environ.get("CASSINO_PURE_PYTHON", "") == "1"


def use_source() -> None:
    """Load this package's modules from source from now on (call before importing the engine)."""
    if not any(isinstance(f, SourceFinder) and f.prefix == "cassino" for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder("cassino"))


def compiled() -> bool:
    """Whether the engine that runs is the compiled one (answered without importing it)."""
    if forced_pure():
        return False
    engine = PACKAGE_DIR / "engine"
    return any((engine / f"movegen{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def pure_copy(module: str = "") -> ModuleType:
    """The package, or one of its modules (``"engine.core"``), loaded again from the Python
    source under the name ``_cassino_pure`` (cached): the same code, never compiled."""
    if not any(isinstance(f, SourceFinder) and f.prefix == PURE_NAME for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder(PURE_NAME))
    return importlib.import_module(f"{PURE_NAME}.{module}" if module else PURE_NAME)


def describe() -> str:
    return "compiled engine (mypyc)" if compiled() else "pure-Python engine"

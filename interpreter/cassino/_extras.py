"""The optional extras' imports, refused in words where a package is missing.

``import cassino.openspiel`` without OpenSpiel installed raised a bare ``ModuleNotFoundError: No module named
'pyspiel'``, and ``pip install pyspiel`` is not how OpenSpiel installs: the error names the extra instead.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator


@contextmanager
def needs(extra: str, what: str, modules: tuple[str, ...]) -> Iterator[None]:
    """Imports inside need ``modules`` (the ``extra``'s packages): one missing is said as which extra to install."""
    try:
        yield
    except ModuleNotFoundError as e:
        missing = (e.name or "").split(".")[0]
        if missing not in modules:
            raise
        raise ModuleNotFoundError(
            f"this part of cassino needs {what} (the module `{missing}` is missing): install the `{extra}` "
            f"extra, pip install 'cassino[{extra}]' (or pip install '.[{extra}]' in cassino's folder)",
            name=e.name) from None

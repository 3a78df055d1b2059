"""Where the bundled variants, the house-rule examples and the schema live.

An installed wheel carries them inside the package (``cassino/data``); a
checkout (editable install, or tests run from the repository) keeps them at the
top of the repository. Both are found without network or configuration.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    installed = _PACKAGE / "data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent.parent / name


VARIANTS_DIR = _data_dir("variants")
EXAMPLES_DIR = _data_dir("examples")
SCHEMA_DIR = _data_dir("schema")
SCHEMA_FILE = SCHEMA_DIR / "variant.schema.json"

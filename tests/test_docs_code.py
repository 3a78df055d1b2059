"""The Python shown on the documentation pages runs as shown.

Each page's ```python blocks, in order, make one script (a later block may use what an earlier one made,
as a reader running them in turn would), run in a fresh interpreter from the repository's root. A
documentation audit found a block that reused the previous block's position in another variant, and a
computer player asked to choose from a position instead of a game.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

#: The pages with Python blocks, and the extras their blocks import.
PAGES = {
    "docs/engine.md": (),
    "docs/research.md": ("pyspiel", "pettingzoo", "numpy"),
}


def blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)


def test_every_page_with_python_blocks_is_run_here() -> None:
    shown = {str(p.relative_to(ROOT)) for p in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md"] if blocks(p)}
    assert shown == set(PAGES)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_python_blocks_of_a_page_run(page: str, tmp_path: Path) -> None:
    for module in PAGES[page]:
        pytest.importorskip(module)
    script = tmp_path / "blocks.py"
    code = blocks(ROOT / page)
    assert code, page
    script.write_text("\n".join(code), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page}:\n{done.stderr[-3000:]}"

"""A first-time visitor's audit of the front pages (README.md, docs/index.md, docs/project.md, docs/sources.md,
docs/rule-examples.md), each find a test.

1. The README said "some 5,400 tests"; pytest collects over 6,200: the stated count is held to what pytest collects.
2. The README's dependency list left out mypy_extensions (a run-time dependency) and websockets, and named no
   library of most extras; the project page did not name the build backend: every requirement of
   pyproject.toml is named in both, every extra in the README.
3. docs/sources.md gave public addresses for the five numbered texts only: the Scopa family's pages were
   nowhere in the documentation. It now lists every variant's sources by title and address, and each
   address a variant file's header cites is on the page.
4. South African Casino plays each hand as a game because its rules give no target, a reading its file's
   comment named but its rulebook did not: a variant without a target says so as a reading.
5. The README and the home page said "one engine plays them all" to a player: their text says "interpreter".
"""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from cassino.language.catalogue import bundled_names
from cassino.language.variants import load_rules

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SOURCES = ROOT / "docs" / "sources.md"
PROJECT = ROOT / "docs" / "project.md"


def _section(text: str, heading: str) -> str:
    """The body of a Markdown section, from its heading to the next heading of the same level or higher."""
    level = heading.split(" ", 1)[0]
    body = text.split(heading + "\n", 1)[1]
    stop = re.search(rf"^#{{1,{len(level)}}} ", body, re.M)
    return body[: stop.start()] if stop else body


def _requirement_names() -> tuple[set[str], set[str], dict[str, set[str]]]:
    """pyproject.toml's build requirements, run-time dependencies and extras' libraries, by project name."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

    def name(requirement: str) -> str:
        return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0]

    build = {name(r) for r in data["build-system"]["requires"]}
    core = {name(r) for r in data["project"]["dependencies"]}
    extras = {extra: {name(r) for r in reqs if name(r) != "cassino"}
              for extra, reqs in data["project"]["optional-dependencies"].items()}
    return build, core, extras


def _named(library: str, text: str) -> bool:
    """A library is named as its project name, in any case, with - and _ alike (open_spiel, check-jsonschema)."""
    flat = text.lower().replace("-", "_")
    return re.search(rf"(?<![\w.]){re.escape(library.lower().replace('-', '_'))}(?![\w])", flat) is not None


# ------------------------------------------------------------------ 1. the test count

def _collected(request: pytest.FixtureRequest) -> int:
    """What pytest collects: this run's own collection where it is the whole suite (every test file, nothing
    selected away: the run CI makes, which then spares a second collection of 12 s), else a collection of its own."""
    config = request.config
    items = request.session.items
    files = {Path(str(item.fspath)).name for item in items}
    whole = {path.name for path in (ROOT / "tests").glob("test_*.py")}
    if (files == whole and not config.getoption("keyword") and not config.getoption("markexpr")
            and not config.getoption("deselect", None) and not config.getoption("lf", False)):
        return len(items)
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0",
                             "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    counted = re.search(r"^(\d+) tests? collected", result.stdout, re.M)
    assert counted, result.stdout[-2000:] + result.stderr[-2000:]
    return int(counted.group(1))


def test_the_readme_test_count_is_what_pytest_collects(request: pytest.FixtureRequest) -> None:
    readme = README.read_text(encoding="utf-8")
    stated = re.search(r"some ([\d,]+) tests", readme)
    assert stated, "the README no longer states a test count"
    said = int(stated.group(1).replace(",", ""))
    collected = _collected(request)
    # a round figure, so within a tenth of what is collected; past that, the README's figure is stale
    assert abs(said - collected) <= collected // 10, f"README says some {said:,} tests; pytest collects {collected:,}"


def test_the_second_quick_start_command_is_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\npip install '.[test]' && python -m pytest\n" in ci
    for page in (README, ROOT / "docs" / "index.md"):
        assert "pip install '.[test]' && python -m pytest\n" in page.read_text(encoding="utf-8")
        assert "in a clone" in page.read_text(encoding="utf-8"), f"{page.name}: where the commands run"


# ------------------------------------------------------------------ 2. the dependencies

def test_the_readme_names_every_dependency_and_every_extra() -> None:
    deps = _section(README.read_text(encoding="utf-8"), "## Dependencies")
    _, core, extras = _requirement_names()
    missing = sorted(lib for lib in core | set().union(*extras.values()) if not _named(lib, deps))
    assert not missing, f"README's Dependencies does not name {missing}"
    assert not [extra for extra in extras if f"`{extra}`" not in deps]
    assert "mypy" in deps and "mypyc" in deps   # the compiler the build requires, and why


def test_the_project_page_gives_every_requirement_a_reason() -> None:
    deps = _section(PROJECT.read_text(encoding="utf-8"), "## Dependencies, and why")
    build, core, extras = _requirement_names()
    missing = sorted(lib for lib in build | core | set().union(*extras.values()) if not _named(lib, deps))
    assert not missing, f"docs/project.md's Dependencies does not name {missing}"


def test_the_readme_core_install_stays_small() -> None:
    """The heavy libraries are extras, as the README says: none is a run-time dependency."""
    _, core, extras = _requirement_names()
    heavy = {"matplotlib", "distributed", "open_spiel", "numpy", "pettingzoo", "gymnasium", "starlette",
             "uvicorn", "playwright", "mkdocs"}
    assert not core & heavy
    assert heavy <= set().union(*extras.values())


# ------------------------------------------------------------------ 3. every variant's sources

def _header_addresses(path: Path) -> set[str]:
    """The addresses a variant file's header comments and `source:` line cite (the part before its settings)."""
    head = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(r"[a-z_]+:", line) and not line.startswith(("name:", "description:", "source:")):
            break
        head.append(line)
    found = set()
    for url in re.findall(r"https?://[^\s\"',;]+", "\n".join(head)):
        url = url.rstrip(".:")
        while url.endswith(")") and url.count(")") > url.count("("):
            url = url[:-1]
        found.add(url)
    return found


def test_the_sources_page_cites_every_variant_by_title_and_address() -> None:
    page = SOURCES.read_text(encoding="utf-8")
    table = _section(page, "### Each variant's sources")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z0-9-]+)` \| (.+) \|$", table, re.M)}
    assert sorted(rows) == bundled_names()
    for name, row in rows.items():
        assert "http" in row or "address was not kept" in row, f"{name}: no address, and the page does not say why"
        assert '"' in row or "the same" in row, f"{name}: no title"
    missing = {str(p.relative_to(ROOT)): sorted(u for u in _header_addresses(p) if u not in page)
               for p in sorted((ROOT / "variants").glob("*.yaml"))}
    missing = {k: v for k, v in missing.items() if v}
    assert not missing, missing


def test_the_pages_count_the_variants_as_the_tool_lists_them() -> None:
    names = bundled_names()
    sources = re.sub(r"\s+", " ", SOURCES.read_text(encoding="utf-8"))
    assert "The first twelve variants" in sources and "the nine others" in sources
    assert len(names) == 12 + 9
    examples = (ROOT / "docs" / "rule-examples.md").read_text(encoding="utf-8")
    assert set(re.findall(r"the (\d+) variants", examples)) == {str(len(names))}
    listed = subprocess.run([sys.executable, "-m", "cassino", "list"], capture_output=True, text=True, check=True)
    variants_part = listed.stdout.split("\nhouse rules", 1)[0]
    assert [line.split()[0] for line in variants_part.splitlines() if line.strip()] == names


# ------------------------------------------------------------------ 4. a reading said where it is chosen

def test_a_variant_without_a_target_names_its_reading() -> None:
    untargeted = [name for name in bundled_names() if load_rules(name).game.target is None]
    assert "south-african-casino" in untargeted
    for name in untargeted:
        assert any(r.setting == "game.target" for r in load_rules(name).readings), name
        book = subprocess.run([sys.executable, "-m", "cassino", "rules", name], capture_output=True, text=True,
                              check=True).stdout
        assert "Reading:" in book.split("Winning the game", 1)[1], name
    book = subprocess.run([sys.executable, "-m", "cassino", "rules", "south-african-casino"], capture_output=True,
                          text=True, check=True).stdout
    assert "Reading: The rules give the points a hand is worth but no score to play to" in book


def test_the_south_african_reading_quotes_the_text_its_file_comment_cites() -> None:
    data = yaml.safe_load((ROOT / "variants" / "south-african-casino.yaml").read_text(encoding="utf-8"))
    reading = next(r for r in data["readings"] if r["setting"] == "game.target")
    assert "There is a total of 11 points" in reading["source"]
    assert data["game"]["target"] is None


# ------------------------------------------------------------------ 5. the player's words

def test_the_front_pages_say_interpreter_not_engine_to_a_player() -> None:
    readme = README.read_text(encoding="utf-8")
    prose = re.sub(r"\([^)]*\.md[^)]*\)", "", readme)   # link targets (docs/engine.md) are file names
    assert "engine" not in prose.lower()
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8").split("## Where to read", 1)[0]
    assert "engine" not in index.lower()
    assert "that one interpreter plays them all" in re.sub(r"\s+", " ", readme)

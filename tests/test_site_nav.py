"""The site's navigation and its beginner's page (issue 50): reference pages under Reference, the
changelog under the project, variants by title, and "Casino in five minutes" with pictures drawn from
positions the engine sets up and moves it allows."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"site_{name}", ROOT / "docs" / "gen" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _nav() -> list[Any]:
    class Loader(yaml.SafeLoader):
        pass
    Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)["nav"]  # noqa: S506 (a SafeLoader)


def _section(nav: list[Any], title: str) -> list[Any]:
    return next(e[title] for e in nav if isinstance(e, dict) and title in e)


def _pages(entries: Any) -> list[str]:
    if isinstance(entries, str):
        return [entries]
    if isinstance(entries, dict):
        return [p for v in entries.values() for p in _pages(v)]
    return [p for e in entries for p in _pages(e)]


def test_the_navigation_files_each_page_where_it_fits() -> None:
    nav = _nav()
    assert list(nav[0]) == ["Home"] and nav[1] == {"Casino in five minutes": "casino-in-five-minutes.md"}
    top = [p for e in nav for p in _pages(e) if isinstance(e, dict) and isinstance(next(iter(e.values())), str)]
    assert "sources.md" not in top and "cli.md" not in top            # no longer loose beside Variants
    assert {"cli.md", "sources.md"} <= set(_pages(_section(nav, "Reference")))
    assert "changelog.md" in _pages(_section(nav, "The project"))
    assert "changelog.md" not in _pages(_section(nav, "Programmers"))


def test_variants_are_listed_by_title() -> None:
    hooks = _module("hooks")

    class Config(dict):  # type: ignore[type-arg]
        nav = [{"Variants": "variants/index.md"}]

    config = hooks.on_config(Config())
    entries = config.nav[0]["Variants"][1:]
    titles = [next(iter(e)) for e in entries]
    assert "South African Casino" in titles and "south-african-casino" not in titles
    assert titles == sorted(titles)
    index = hooks.variants_index()
    assert "| [South African Casino](south-african-casino.md) | `south-african-casino` |" in index


def test_tables_wrap_rather_than_overflow() -> None:
    css = (ROOT / "docs" / "extra.css").read_text(encoding="utf-8")
    assert re.search(r"\.wy-table-responsive table td[^{]*\{\s*white-space: normal;", css)
    assert "extra.css" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_the_beginners_pictures_are_real_moves() -> None:
    pictures = _module("pictures")
    drawn = pictures.pictures()
    page = (ROOT / "docs" / "casino-in-five-minutes.md").read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]+\]\(img/([a-z]+\.svg)\)", page)
    assert shown == ["capture.svg", "build.svg", "sweep.svg"] and set(shown) == set(drawn)
    for name, svg in drawn.items():
        root = ET.fromstring(svg)                               # well-formed SVG
        assert root.tag.endswith("svg")
        cards = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("rx") == "6"]
        assert len(cards) >= 5, name                            # cards as rounded rectangles
        text = "".join(root.itertext())
        assert "The move, as the game writes it:" in text
    assert "empty: a sweep!" in "".join(ET.fromstring(drawn["sweep.svg"]).itertext())
    assert "build of 10" in "".join(ET.fromstring(drawn["build.svg"]).itertext())
    # The files the page shows (in a clone, on a code host, on the site) are these drawings, as drawn today.
    for name, svg in drawn.items():
        kept = ROOT / "docs" / "img" / name
        assert kept.read_text(encoding="utf-8") == svg, f"{kept} is stale: python docs/gen/pictures.py docs/img"


def test_a_picture_of_an_illegal_move_is_refused() -> None:
    pictures = _module("pictures")
    wrong = pictures.Picture("capture", ("9S", "4C"), ("8D",), "8D capture 9S", "an eight does not take a nine")
    with pytest.raises(ValueError, match="not legal"):
        pictures.draw(wrong)
    no_sweep = pictures.Picture("sweep", ("3C", "5D", "KH"), ("8H",), "8H capture 3C 5D", "the king stays")
    with pytest.raises(ValueError, match="no sweep"):
        pictures.draw(no_sweep)

"""What the command line says when a file is given to the wrong command, or a position is too large
for a command that needs every legal move (issue 48, section 4)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from cassino.apps.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------------- a rule file where a scenario belongs

@pytest.fixture()
def rule_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("house.yaml").write_text("name: house\nextends: standard\ngame: {target: 11}\n", encoding="utf-8")
    Path("deck only.yaml").write_text("deck: {packs: 2}\n", encoding="utf-8")
    Path("odd.yaml").write_text("name: odd\ncases: 3\n", encoding="utf-8")   # has cases: a broken scenario
    return tmp_path


@pytest.mark.parametrize("argv", [["check", "house.yaml"], ["solve", "house.yaml"],
                                  ["perft", "standard", "--scenario", "house.yaml", "--case", "x"]])
def test_a_rule_file_given_for_a_scenario_points_to_validate(rule_files: Path, argv: list[str]) -> None:
    code, out, err = run(argv)
    assert code == 2, (out, err)
    assert "this is a rule file;" in err and "takes scenario files: use `cassino validate house.yaml`" in err, err
    assert "unknown key" not in err
    if argv[0] == "check":
        assert "this is a rule file; check takes scenario files" in err


def test_every_bundled_variant_given_to_check_is_recognised(rule_files: Path) -> None:
    variants = sorted(str(p) for p in (ROOT / "variants").glob("*.yaml"))
    code, out, err = run(["check", *variants])
    assert code == 2 and "unknown key" not in err, err
    assert err.count("this is a rule file; check takes scenario files") == len(variants)


def test_a_name_with_a_space_is_quoted_in_the_command_to_run(rule_files: Path) -> None:
    code, out, err = run(["check", "deck only.yaml"])
    assert code == 2 and "use `cassino validate 'deck only.yaml'`" in err, err


def test_a_broken_scenario_is_still_told_what_is_wrong(rule_files: Path) -> None:
    code, out, err = run(["check", "odd.yaml"])
    assert code == 2 and "this is a rule file" not in err and "`cases` must be a list" in err, err


# ---------------------------------------------------------------------- a position too large to list

@pytest.fixture()
def huge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A three-pack Escoba position with 100 cards on the table: more moves than the engine lists."""
    import yaml

    from cassino.engine.core import Engine
    from cassino.engine.notation import cards_text
    from cassino.language.variants import load_rules

    monkeypatch.chdir(tmp_path)
    Path("big.yaml").write_text("name: big\nextends: escoba\ndeck: {packs: 3}\nseats: {max_players: 2}\n"
                                "deal: {table_cards: 20, hand_size: 10}\n", encoding="utf-8")
    deck = Engine(load_rules("big.yaml")).deck
    names = cards_text(deck, (1 << len(deck.cards)) - 1)
    case = {"name": "huge", "hands": {0: names[:10], 1: names[10:20]}, "table": names[20:120]}
    Path("huge.yaml").write_text(yaml.safe_dump({"variant": "big.yaml", "players": 2, "cases": [case]}),
                                 encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("argv", [["solve", "huge.yaml"],
                                  ["perft", "big.yaml", "--scenario", "huge.yaml", "--case", "huge", "--depth", "1"]])
def test_only_the_game_says_type_the_move(huge: Path, argv: list[str]) -> None:
    code, out, err = run(argv)
    assert code == 2, (out, err)
    assert "too many legal moves to list" in err and "give fewer cards on the table" in err, err
    assert "type" not in err and "step by step" not in err, err
    if argv[0] == "solve":
        assert err.startswith("cassino: huge.yaml: case 'huge': too large to solve exactly: "), err


# ---------------------------------------------------------------------- the rule texts named, not stored files

#: A stored file's name for a text (three digits, "_", 16 hex digits, ".txt"): meaningless to anyone else.
STORED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}(?:\.txt)?")
SHIPPED = ("variants", "examples", "docs", "schema", "interpreter", "tests")


def test_no_shipped_file_names_a_rule_text_by_its_stored_file() -> None:
    found = []
    for top in SHIPPED:
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or path.suffix not in (".yaml", ".yml", ".md", ".py", ".json", ".txt", ".html",
                                                          ".js", ".css"):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{path.relative_to(ROOT)}: {m.group()}" for m in STORED_NAME.finditer(text)]
    assert found == []


def _shipped_names() -> list[str]:
    from cassino.language.catalogue import bundled_names, example_names

    return [*bundled_names(), *example_names()]


@pytest.mark.parametrize("name", _shipped_names())
def test_explain_names_the_texts_by_title_and_address(name: str) -> None:
    code, out, err = run(["explain", name])
    assert code == 0, err
    assert not STORED_NAME.search(out), out[:500]
    source = next(line for line in out.splitlines() if line.startswith("source: "))
    for title, address in CITED.items():
        if title in source:
            assert address in source, source


#: Each text's title as the files cite it, and its public address (docs/sources.md).
CITED = {
    "\u201cRoyal Casino\u201d": "https://www.pagat.com/fishing/royal_casino.html",
    "John McLeod, \u201cCasino\u201d": "https://www.pagat.com/fishing/casino.html",
    "Foster\u2019s Complete Hoyle": "https://www.gutenberg.org/",
    "Denexa Games": "https://www.denexa.com",
}


def test_the_readings_of_a_text_still_find_it() -> None:
    """The rulebook's readings are chosen by a part of the variant's source: the titles, not the stored names."""
    for name, says in (("hoyle", "001 says a player trails"), ("face-builds", "003 says that with several equal")):
        code, out, err = run(["rules", name, "--no-examples"])
        assert code == 0 and says in out, err
    code, out, err = run(["rules", "standard", "--no-examples"])
    assert "001 says a player trails" not in out

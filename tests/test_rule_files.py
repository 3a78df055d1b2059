"""Rule files: loading, `extends`, validation errors an author can act on, and the CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cassino.errors import RuleFileError
from cassino.language.resolve import merge, resolve_name
from cassino.language.variants import bundled_names, load
from cassino.language.yamlsource import load_yaml_text

from conftest import EXAMPLES, ROOT, VARIANTS

BAD = ROOT / "tests" / "bad"


def cassino(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cassino", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=120)


# name of the bad file -> (line it must point at, a fragment the message must contain)
BAD_FILES = {
    "syntax-error.yaml": (5, "YAML syntax error"),
    "duplicate-key.yaml": (5, "duplicate key `target` (first given on line 4)"),
    "python-tag.yaml": (3, "tags are not allowed"),
    "alias-bomb.yaml": (None, "aliases expand to more than"),
    "missing-parent.yaml": (2, "cannot find the variant `nosuchvariant`"),
    "cycle-a.yaml": (2, "`extends` makes a cycle"),
    "empty.yaml": (1, "the file is empty"),
    "list-not-mapping.yaml": (1, "found a list"),
    "non-utf8.yaml": (3, "not UTF-8"),
    "unknown-key.yaml": (3, "unknown setting `sweep`"),
    "wrong-type.yaml": (4, "`deal.hand_size` must be a whole number"),
    "impossible-deal.yaml": (4, "the first deal needs 64 cards"),
    "deck-does-not-deal-out.yaml": (4, "does not deal out exactly"),
    "unreachable-target.yaml": (5, "can never be reached"),
    "partners-without-four.yaml": (5, "partnerships need four seats"),
    "build-max-below-cards.yaml": (4, "below every card's value (the lowest is 7)"),
    "item-without-count.yaml": (5, "does not say what it counts"),
    "bad-selector.yaml": (5, "no rank Z"),
    "merge-key.yaml": (5, "merge keys"),
    "difference-three-sides.yaml": (7, "score_mode `difference` needs two sides"),
}


def test_every_bad_file_is_listed() -> None:
    on_disk = {p.name for p in BAD.glob("*.yaml")} - {"cycle-b.yaml"}
    assert on_disk == set(BAD_FILES)


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_is_refused_with_file_and_line(name: str) -> None:
    line, fragment = BAD_FILES[name]
    result = cassino("validate", f"tests/bad/{name}")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    first = result.stderr.splitlines()[0]
    assert fragment in result.stderr
    file_part, line_part = first.split(":")[0:2]
    assert file_part.endswith(".yaml")
    if line is not None:
        assert int(line_part) == line, first
    else:
        assert int(line_part) >= 1


def test_python_tag_executes_nothing(tmp_path: Path) -> None:
    marker = Path("/tmp/cassino-pwned")
    marker.unlink(missing_ok=True)
    with pytest.raises(RuleFileError):
        load(BAD / "python-tag.yaml")
    assert not marker.exists()


def test_alias_bomb_is_refused_fast() -> None:
    start = time.perf_counter()
    with pytest.raises(RuleFileError) as err:
        load(BAD / "alias-bomb.yaml")
    assert time.perf_counter() - start < 1.0
    assert "aliases expand" in str(err.value)


def test_all_errors_of_a_file_in_one_run(tmp_path: Path) -> None:
    f = tmp_path / "many.yaml"
    f.write_text("name: many\nextends: standard\nbuild:\n  raise_sngle: true\n  max_value: ten\n"
                 "capture:\n  compulsory: nevr\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(f)
    diags = err.value.diagnostics
    assert [(d.line, d.column) for d in diags] == [(4, 3), (5, 14), (7, 15)]
    assert diags[0].hint == "did you mean `raise_single`?"
    assert diags[2].hint == "did you mean `never`?"
    assert diags[0].format().splitlines()[1:3] == ["      raise_sngle: true", "      ^"]


def test_a_misspelt_scoring_item_comes_with_the_other_errors_and_a_suggestion(tmp_path: Path) -> None:
    """Issue 25: `gmae`, `raise_sngle` and a misspelt item `sweps` were reported in two runs: the
    item only once the schema errors were fixed, and with "add `count:`" instead of the item meant."""
    f = tmp_path / "house.yaml"
    f.write_text("name: house\nextends: standard\ngmae: 1\nbuild: {raise_sngle: true}\n"
                 "scoring: {items: {sweps: {points: 1}}}\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(f)
    diags = err.value.diagnostics
    assert [(d.line, d.column) for d in diags] == [(3, 1), (4, 9), (5, 19)]
    assert "unknown setting `gmae`" in diags[0].message and diags[0].hint == "did you mean `game`?"
    assert diags[1].hint == "did you mean `raise_single`?"
    assert diags[2].message == "scoring item `sweps` does not say what it counts"
    assert diags[2].hint is not None and diags[2].hint.startswith("did you mean `sweeps`?")
    # the CLI prints all three in one run
    result = cassino("validate", str(f))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert [line.split(": ", 1)[0] for line in result.stderr.splitlines() if line.startswith(str(f))] == [
        f"{f}:3:1", f"{f}:4:9", f"{f}:5:19"]
    assert "hint: did you mean `sweeps`?" in result.stderr


@pytest.mark.parametrize("items,hint", [
    ("{brand_new: {points: 1}}", "add `count:`"),                 # new, and like none of standard's items
    ("{sweps: {points: 1, count: sweeps}}", None),                  # a new item that says what it counts
    ("{sweps: {pionts: 1}}", "did you mean `sweeps`?"),             # with a schema error inside it too
])
def test_an_item_without_count_is_told_apart_from_a_misspelling(tmp_path: Path, items: str, hint: str | None) -> None:
    f = tmp_path / "house.yaml"
    f.write_text(f"name: house\nextends: standard\nscoring: {{items: {items}}}\n", encoding="utf-8")
    if hint is None:
        assert load(f).rules.name == "house"
        return
    with pytest.raises(RuleFileError) as err:
        load(f)
    counts = [d for d in err.value.diagnostics if "does not say what it counts" in d.message]
    assert len(counts) == 1 and counts[0].hint is not None and counts[0].hint.startswith(hint), err.value.diagnostics


@pytest.mark.parametrize("seats,counts", [
    ("{max_players: 3}", "with 3 players"),
    ("{min_players: 3, max_players: 3}", "with 3 players"),
    ("{min_players: 4, partnerships: optional}", "with 4 players (four may play without partners"),
    ("{min_players: 4, partnerships: never}", "with 4 players"),
])
def test_score_mode_difference_needs_two_sides(tmp_path: Path, seats: str, counts: str) -> None:
    """Issue 26: three players scoring the difference validated and scored 7/0/4; 000 limits the
    difference to two sides, so a file that seats more is refused at its `score_mode` line."""
    f = tmp_path / "diff.yaml"
    f.write_text(f"name: diff\nextends: standard\nseats: {seats}\ngame:\n  score_mode: difference\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(f)
    (d,) = err.value.diagnostics
    assert (d.file, d.line, d.column) == (str(f), 5, 15)
    assert "score_mode `difference` needs two sides" in d.message and counts in d.message


@pytest.mark.parametrize("seats", ["{max_players: 2}", "{min_players: 4, partnerships: always}"])
def test_score_mode_difference_with_two_sides_is_valid(tmp_path: Path, seats: str) -> None:
    f = tmp_path / "diff.yaml"
    f.write_text(f"name: diff\nextends: standard\nseats: {seats}\ngame:\n  score_mode: difference\n", encoding="utf-8")
    assert load(f).rules.game.score_mode == "difference"


def test_score_mode_difference_refused_in_a_file_that_extends_it(tmp_path: Path) -> None:
    """A child that reopens three seats is refused at its own `seats` line, which broke the parent's `score_mode`
    (the parent, valid on its own, is named with the line; the child is the file to change)."""
    (tmp_path / "two.yaml").write_text("name: two\nextends: standard\nseats: {max_players: 2}\n"
                                       "game: {score_mode: difference}\n", encoding="utf-8")
    (tmp_path / "three.yaml").write_text("name: three\nextends: two.yaml\nseats: {max_players: 3}\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(tmp_path / "three.yaml")
    (d,) = err.value.diagnostics
    assert d.file.endswith("three.yaml") and d.line == 3 and "with 3 players" in d.message
    assert "two.yaml, line 4, which this file's settings make invalid" in d.message, d.message


def test_error_in_merged_variant_points_into_the_file_that_wrote_it(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("name: base\nextends: standard\nseats:\n  max_players: 3\n", encoding="utf-8")
    (tmp_path / "child.yaml").write_text("name: child\nextends: base.yaml\nseats:\n  partnerships: always\n",
                                         encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(tmp_path / "child.yaml")
    (d,) = err.value.diagnostics
    assert d.file.endswith("child.yaml") and d.line == 4


def test_merge_mappings_merge_lists_and_scalars_replace() -> None:
    parent = {"a": {"x": 1, "y": [1, 2]}, "b": 2}
    child = {"a": {"y": [3]}, "c": 4}
    assert merge(parent, child) == {"a": {"x": 1, "y": [3]}, "b": 2, "c": 4}


def test_extends_relative_path_and_bundled_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)   # `../house.yaml` leaves sub/'s tree: it is allowed inside the current folder's
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mine.yaml").write_text("name: mine\nextends: ../house.yaml\ngame: {target: 50}\n",
                                                encoding="utf-8")
    (tmp_path / "house.yaml").write_text("name: house\nextends: royal\nscoring:\n  items:\n    sweeps: {points: 1}\n",
                                         encoding="utf-8")
    loaded = load(tmp_path / "sub" / "mine.yaml")
    assert loaded.rules.name == "mine"
    assert loaded.rules.game.target == 50
    assert loaded.rules.scoring.item("sweeps").points == 1          # from house.yaml
    assert loaded.rules.scoring.item("cards").points == 3           # from standard, through royal
    assert loaded.rules.deck.ranks[0].values == (1, 14)             # from royal
    assert [d.path.split(" ")[0] for d in loaded.resolved.documents][-1] == "standard"


def test_missing_parent_suggests_the_nearest_bundled_name(tmp_path: Path) -> None:
    f = tmp_path / "x.yaml"
    f.write_text("name: x\nextends: standrd\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(f)
    assert "did you mean `standard`?" in (err.value.diagnostics[0].hint or "")


def test_yaml_positions_are_kept() -> None:
    doc = load_yaml_text("a:\n  b: [1, 2]\n  c: x\n", "t.yaml")
    assert doc.data == {"a": {"b": [1, 2], "c": "x"}}
    assert doc.position(("a", "c"), key=True) == (3, 3)
    assert doc.position(("a", "b", 1)) == (2, 10)
    assert doc.position(("a", "nothing")) == (2, 3)


def test_bundled_names_are_the_twelve() -> None:
    assert bundled_names() == sorted([
        "standard", "hoyle", "royal", "dominican", "dominican-soto", "spade", "draw", "tuxedo", "hungarian",
        "hungarian-ulmann", "two-handed", "face-builds",
        # the Scopa family and the Nordic games (issue 27)
        "scopa", "scopone", "escoba", "swedish-kasino", "finnish-kasino",
        # the negative game of Krypkasino's family (issue 27)
        "kasino-misar",
        # African Casino (issue 27)
        "swazi-casino", "south-african-casino",
        # Krypkasino itself, two packs (issue 27)
        "krypkasino"])


@pytest.mark.parametrize("path", [ROOT / "variants" / f"{v}.yaml" for v in VARIANTS] + EXAMPLES, ids=lambda p: p.name)
def test_shipped_files_validate(path: Path) -> None:
    loaded = load(path)
    assert loaded.rules.name == path.stem
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    assert first_line.startswith("# yaml-language-server: $schema=")
    assert loaded.rules.description and loaded.rules.source


def test_cli_validate_all_shipped_files() -> None:
    files = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "variants").glob("*.yaml"))] + \
            [str(p.relative_to(ROOT)) for p in EXAMPLES]
    result = cassino("validate", *files)
    assert result.returncode == 0, result.stderr
    assert f"{len(files)} valid, 0 invalid" in result.stdout


def test_cli_validate_json(tmp_path: Path) -> None:
    result = cassino("validate", "standard", "tests/bad/unknown-key.yaml", "--format", "json")
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert report["valid"] is False
    good, bad = report["results"]
    assert good["valid"] and good["name"] == "standard"
    assert bad["errors"][0]["line"] == 3 and bad["errors"][0]["hint"] == "did you mean `sweeps`?"


def test_cli_list_schema_version() -> None:
    listing = cassino("list")
    assert listing.returncode == 0
    variants, _, examples = listing.stdout.partition("\n\nhouse rules")
    assert len(variants.splitlines()) == len(bundled_names())
    assert any(line.startswith("finnish-kasino ") for line in variants.splitlines())
    assert any(line.startswith("dominican-soto ") for line in variants.splitlines())
    # Every shipped example is listed by name with its description, after the variants.
    assert [line.split()[0] for line in examples.splitlines()[1:]] == [p.stem for p in EXAMPLES]
    assert "Standard Casino played to 50" in examples
    schema = cassino("schema")
    assert json.loads(schema.stdout)["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    version = cassino("--version")
    assert version.stdout.startswith("cassino ")


def test_schema_is_valid_and_documents_every_setting() -> None:
    import jsonschema

    schema = json.loads((ROOT / "schema" / "variant.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"]

    def walk(node: dict, where: str) -> None:
        if node.get("type") == "object":
            assert node.get("additionalProperties") is not True, where
            assert "additionalProperties" in node, where
        for key, sub in node.get("properties", {}).items():
            assert "description" in sub and "default" in sub, f"{where}.{key}"
            assert "type" in sub or "enum" in sub or "oneOf" in sub, f"{where}.{key}"
            walk(sub, f"{where}.{key}")
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{where}.*")
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{where}[]")

    walk(schema, "variant")


@pytest.mark.skipif(shutil.which("check-jsonschema") is None, reason="check-jsonschema is in the test extras")
def test_independent_validator_accepts_every_shipped_file() -> None:
    files = [str(p) for p in sorted((ROOT / "variants").glob("*.yaml"))] + [str(p) for p in EXAMPLES]
    result = subprocess.run(["check-jsonschema", "--schemafile", str(ROOT / "schema" / "variant.schema.json"), *files],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("check-jsonschema") is None, reason="check-jsonschema is in the test extras")
def test_independent_validator_refuses_an_unknown_key() -> None:
    result = subprocess.run(["check-jsonschema", "--schemafile", str(ROOT / "schema" / "variant.schema.json"),
                             str(BAD / "unknown-key.yaml")], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0


def test_resolve_name_unknown() -> None:
    with pytest.raises(RuleFileError) as err:
        resolve_name("royl")
    assert "did you mean `royal`?" in (err.value.diagnostics[0].hint or "")


@pytest.mark.parametrize("body,where,words", [
    ("game: {claiming: true}", "3:", "claiming cannot apply: with goal: lowest the target is a loss limit"),
    ("scoring: {when: as_won}", "3:", "points as won end a game at the target"),
    ("game: {lurch: {below: 5, multiplier: 2}}", "3:", "a lurch cannot apply"),
    ("scoring: {items: {storan: {previous_player_points: -2}}}", "3:", "previous_player_points is for sweeps"),
])
def test_a_negative_game_refuses_settings_that_read_the_target_as_a_goal(tmp_path, body: str, where: str,
                                                                          words: str) -> None:
    """goal: lowest makes the target a loss limit: claims, pegging as won and lurches are refused at their
    line; a previous player's share belongs to a sweeps item."""
    from cassino.apps.cli import main

    path = tmp_path / "house.yaml"
    path.write_text(f"name: house\nextends: kasino-misar\n{body}\n")
    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["validate", str(path)])
    assert code == 2 and f"house.yaml:{where}" in err.getvalue() and words in err.getvalue(), err.getvalue()


def test_a_name_too_long_to_name_a_record_is_refused_at_its_place(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """An audit's 300-character `name` validated, then `cassino play FILE` failed: the record it names
    (`cassino-NAME-SEED.json`) is longer than a file name may be."""
    long = tmp_path / "long.yaml"
    long.write_text(f"name: {'a' * 300}\nextends: standard\n", encoding="utf-8")
    code, out, err = cli("validate", str(long))
    assert code == 2
    assert f"{long}:1:7: `name` is 300 characters long; at most 64" in out + err
    fine = tmp_path / "fine.yaml"
    fine.write_text(f"name: {'a' * 64}\nextends: standard\n", encoding="utf-8")
    assert cli("validate", str(fine))[0] == 0


def test_a_three_player_krypkasino_is_told_the_fix_that_works(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """An audit's `min_players: 3, max_players: 3` over krypkasino was told to change partnership_players,
    which no value makes valid (it may not be empty; no count under 4 makes two teams)."""
    three = tmp_path / "k3.yaml"
    three.write_text("name: k3\nextends: krypkasino\nseats:\n  min_players: 3\n  max_players: 3\n", encoding="utf-8")
    code, out, err = cli("validate", str(three))
    assert code == 2
    assert "set partnerships: never (each plays for themselves)" in out + err
    assert "`seats.partnership_players[0]`" in out + err
    three.write_text(three.read_text(encoding="utf-8") + "  partnerships: never\n", encoding="utf-8")
    assert cli("validate", str(three))[0] == 0   # the fix said works


AUTHOR_MISTAKES = [
    # (file text, the hint that says how to fix it): an audit found these said what was wrong, not the fix
    ("name: t\nextends: standard\ngame:\n\ttarget: 11\n", "replace the tab with spaces"),
    ("name: t\nextends: standard\ngame:\n  target: 11\n   score_mode: difference\n",
     "a setting is indented more than the one above it"),
    ("name: t\nextends: standard\nbuild:\n  target: 11\n", "`target` is a setting of `game`: move it under `game:`"),
    # (misspelt and in another section, or at the top level: each was given only the place's own settings)
    ("name: t\nextends: standard\ncapture:\n  on_last_ply: false\n",
     "did you mean `on_last_play`, a setting of `sweeps`? move it under `sweeps:`"),
    ("name: t\nextends: standard\ntargt: 11\n", "did you mean `target`, a setting of `game`? put it under `game:`, indented"),
    # (YAML 1.1's readings no author means: a date, told to remove a tag never written; `1:20` read as 80, unsaid)
    ("name: t\nextends: standard\ndescription: 2024-01-01\n", 'put it in quotes: "2024-01-01"'),
    ("name: t\nextends: standard\ngame:\n  target: 1:20\n", "write the number you mean, or put the text in quotes"),
    # (`extends` naming a web address, or a bundled variant with `.yaml`: told of a file by that path only)
    ("name: t\nextends: https://example.com/rules.yaml\n", "a rule file is never fetched from the network"),
    ("name: t\nextends: standard.yaml\n", "did you mean `extends: standard`, the bundled variant?"),
    # (a rank's value out of range or named twice was told the kinds of value, which it was)
    ("name: t\nextends: standard\ndeck:\n  ranks:\n    - {rank: A, name: ace, value: 0}\n",
     "a card with no number value (a court card of plain Casino) has `null`"),
    ("name: t\nextends: standard\ndeck:\n  ranks:\n    - {rank: A, name: ace, value: [1, 1]}\n", "name each value once"),
    ("name: t\nextends: standard\nseats:\n  min_players: 4\n  max_players: 2\n",
     "the fewest players first: min_players 2, max_players 4"),
]


@pytest.mark.parametrize("text, hint", AUTHOR_MISTAKES, ids=[h[:30] for _, h in AUTHOR_MISTAKES])
def test_a_common_mistake_is_told_how_to_fix_it(cli, tmp_path: Path, text: str, hint: str) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "t.yaml"
    f.write_text(text, encoding="utf-8")
    code, out, err = cli("validate", str(f))
    assert code == 2
    assert "hint: " in out + err and hint in out + err, out + err


def test_a_cycle_of_extends_names_its_files_alike(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """An audit's cycle read `a.yaml -> /tmp/.../b.yaml -> /tmp/.../a.yaml`: each file now as a person gave it."""
    (tmp_path / "a.yaml").write_text("name: a\nextends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("name: b\nextends: a.yaml\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("validate", "a.yaml")
    assert code == 2
    assert "`extends` makes a cycle: a.yaml -> b.yaml -> a.yaml" in out + err, out + err


def test_a_file_named_without_its_ending_is_suggested(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "eleven.yaml").write_text("name: eleven\nextends: standard\ngame:\n  target: 11\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("explain", "eleven")
    assert code == 2
    assert "did you mean the file eleven.yaml?" in out + err, out + err


def test_a_big_file_with_no_alias_is_said_to_be_big_not_aliased(tmp_path: Path) -> None:
    """An audit's scenario file of 6,000 cases (no anchor, no alias) was refused as "aliases expand to more than
    100,000 values", with a hint about anchors."""
    from cassino.language.yamlsource import load_yaml_text

    text = "cases:\n" + "".join(f"  - name: c{k}\n    hand: [9D, 9C, 9H, 9S]\n    table: [2C, 3C, 4C, 5C]\n"
                                 f"    expect: {{legal: [\"9D trail\"]}}\n" for k in range(6000))
    with pytest.raises(RuleFileError) as err:
        load_yaml_text(text, "big.yaml")
    said = str(err.value)
    assert "the file holds more than 100,000 values" in said and "alias" not in said and "split it" in said


REPEATS = [
    # (file text, line, the message): a validation audit found each valid, and the repeat changed the play
    ("name: t\nextends: standard\ngame:\n  both_reach: count_out\n  count_out: [cards, cards, spades]\n", 5,
     "count_out names `cards` twice: each item counts out once"),
    ("name: t\nextends: standard\nscoring:\n  items:\n    aces: {order: [AS, AS, AH, AD]}\n", 5,
     "`AS` is in the order of `aces` twice"),
    ("name: t\nextends: standard\nendgame:\n  restrictions: [{score: 18, only: [spades]}, {score: 18, only: [cards]}]\n",
     4, "two restrictions at 18"),
]


@pytest.mark.parametrize("text, line, message", REPEATS, ids=[m[:24] for _, _, m in REPEATS])
def test_a_setting_listed_twice_or_out_of_place_is_refused_where_it_is(tmp_path: Path, text: str, line: int,
                                                                         message: str) -> None:
    f = tmp_path / "t.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(f)
    found = [d for d in err.value.diagnostics if message in d.message]
    assert found and found[0].line == line and found[0].file == str(f), [d.format() for d in err.value.diagnostics]
    if "in the order of" in message:   # (at the card itself, the second AS: not at the list's `[`)
        card = message.split("`")[1]
        assert found[0].column == 1 + text.splitlines()[line - 1].rindex(card), found[0].format()


@pytest.mark.parametrize("encoding, said", [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-16-le", "UTF-16"),
                                            ("utf-32", "UTF-32")])
def test_a_file_in_utf16_or_utf32_is_named_so(cli, tmp_path: Path, encoding: str, said: str) -> None:  # type: ignore[no-untyped-def]
    """A validation audit: a UTF-16 file without its byte order mark was told to delete a NUL, one with it of byte
    0xff; the encoding is named, with the fix."""
    f = tmp_path / "wide.yaml"
    f.write_bytes("name: wide\nextends: standard\n".encode(encoding))
    code, out, err = cli("validate", str(f))
    assert code == 2 and f"the file is {said}, not UTF-8" in out + err and "save the file as UTF-8" in out + err


def test_every_player_count_that_does_not_deal_out_is_said_at_the_most_players(tmp_path: Path) -> None:
    """A validation audit: `max_players: 8` on standard was told of 5 players alone, at `seats:`, where 7 and 8 fail
    too; a fix for 5 met the next error. Every such count is said in one message, at the `max_players` written."""
    f = tmp_path / "eight.yaml"
    f.write_text("name: eight\nextends: standard\nseats:\n  max_players: 8\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(f)
    (d,) = err.value.diagnostics
    assert (d.line, d.column) == (4, 16), d.format()
    assert d.message.startswith("with 5 players the deck does not deal out exactly: 28 cards remain") and \
        "; with 7, 20 remain, not a multiple of 28; with 8, 16 remain, not a multiple of 32" in d.message, d.message

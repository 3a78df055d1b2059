"""`extends` (and a scenario's `variant:`) may name only a shipped variant or example, or a rule file
inside the folder tree of the file asked for or of the current folder (issue 48, docs/security.md).

A hostile rule file in a pull request must not make `cassino validate --format sarif` quote a file of the
CI runner (`/proc/self/environ`, a key, another project's YAML): the named file is refused at the
`extends` line before it is opened, so none of its words reach any output format of any command.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from cassino.apps.cli import main
from cassino.language.resolve import Confinement, names_a_path
from cassino.language.variants import load

from conftest import ROOT

SECRET = "HUNTER2-SECRET-LINE"


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository (the current folder) with rule files, beside a folder outside it holding secrets."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text(f"name: secret\n{SECRET}: [unclosed\n")
    (outside / "valid.yaml").write_text(f"name: elsewhere\ndescription: {SECRET}\nextends: standard\n")
    (outside / "env").write_text(f"TOKEN={SECRET}\n")
    root = tmp_path / "repo"
    (root / "rules" / "deep").mkdir(parents=True)
    (root / "shared").mkdir()
    (root / ".env").write_text(f"TOKEN={SECRET}\n")
    (root / "shared" / "base.yaml").write_text("name: base\nextends: standard\ngame: {target: 11}\n")
    (root / "rules" / "deep" / "inner.yaml").write_text("name: inner\nextends: standard\n")
    monkeypatch.chdir(root)
    return root


def rule(repo: Path, ref: str, name: str = "house.yaml") -> Path:
    path = repo / "rules" / name
    path.write_text(f"name: house\nextends: {json.dumps(ref)}\n")
    return path


def run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as e:   # argparse's own exits
            code = int(e.code or 0)
    return code, out.getvalue() + err.getvalue()


ESCAPES = [
    "/proc/self/environ",
    "../../outside/secret.yaml",
    "../../outside/valid.yaml",
    "../../outside/env",
    "../.env",
    "../../../../../../etc/passwd",
]


@pytest.mark.parametrize("ref", ESCAPES)
@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_validate_refuses_a_file_outside_and_quotes_nothing_of_it(repo: Path, ref: str, fmt: str) -> None:
    path = rule(repo, ref)
    code, output = run("validate", str(path), "--format", fmt)
    assert code == 2
    assert SECRET not in output
    assert "root:" not in output            # /etc/passwd's first line
    assert "may not name" in output
    if fmt == "text":
        assert f"{path}:2:10:" in output    # at the `extends` value


def test_an_absolute_path_outside_is_refused_even_when_it_is_valid(repo: Path, tmp_path: Path) -> None:
    path = rule(repo, str(tmp_path / "outside" / "valid.yaml"))
    code, output = run("validate", str(path))
    assert code == 2 and "outside the folders" in output and SECRET not in output


def test_a_link_inside_the_tree_is_followed_to_its_target(repo: Path, tmp_path: Path) -> None:
    (repo / "rules" / "link.yaml").symlink_to(tmp_path / "outside" / "valid.yaml")
    (repo / "rules" / "ok-link.yaml").symlink_to(repo / "shared" / "base.yaml")
    code, output = run("validate", str(rule(repo, "link.yaml")))
    assert code == 2 and SECRET not in output and "outside the folders" in output
    code, output = run("validate", str(rule(repo, "ok-link.yaml", "second.yaml")))
    assert code == 0, output


def test_a_linked_folder_leading_out_is_refused(repo: Path, tmp_path: Path) -> None:
    (repo / "rules" / "door").symlink_to(tmp_path / "outside", target_is_directory=True)
    code, output = run("validate", str(rule(repo, "door/valid.yaml")))
    assert code == 2 and SECRET not in output


def test_a_rule_file_named_through_a_link_that_leads_out_is_refused(repo: Path, tmp_path: Path) -> None:
    """A link planted in a repository (`rules/evil.yaml -> /proc/self/environ`) obeys the same rule."""
    (repo / "rules" / "evil.yaml").symlink_to("/proc/self/environ")
    (repo / "rules" / "far.yaml").symlink_to(tmp_path / "outside" / "secret.yaml")
    for name in ("evil.yaml", "far.yaml"):
        code, output = run("validate", f"rules/{name}", "--format", "sarif")
        assert code == 2 and SECRET not in output and "symbolic link" in output
        assert "PATH=" not in output


@pytest.mark.parametrize("ref", ["../shared/base.yaml", "deep/inner.yaml", "standard", "fifty",
                                 "../../repo/shared/base.yaml"])
def test_inside_the_tree_the_current_folder_or_shipped_is_allowed(repo: Path, ref: str) -> None:
    code, output = run("validate", str(rule(repo, ref)))
    assert code == 0, output


def test_an_absolute_path_inside_the_current_folder_is_allowed(repo: Path) -> None:
    code, output = run("validate", str(rule(repo, str(repo / "shared" / "base.yaml"))))
    assert code == 0, output


def test_the_shipped_variants_are_allowed_by_path(repo: Path) -> None:
    from cassino.paths import VARIANTS_DIR

    code, output = run("validate", str(rule(repo, str(VARIANTS_DIR / "royal.yaml"))))
    assert code == 0, output


def test_outside_the_current_folder_the_files_own_tree_is_all(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from `rules/`, the sibling folder `shared/` is outside both the file's tree and the current one."""
    path = rule(repo, "../shared/base.yaml")
    monkeypatch.chdir(repo / "rules")
    code, output = run("validate", path.name)
    assert code == 2 and "outside the folders" in output
    monkeypatch.chdir(repo)
    assert run("validate", str(path))[0] == 0


def test_an_error_in_an_allowed_parent_quotes_the_parent(repo: Path) -> None:
    (repo / "shared" / "broken.yaml").write_text("name: broken\nextends: standard\ngame: {target: eleven}\n")
    code, output = run("validate", str(rule(repo, "../shared/broken.yaml")))
    assert code == 2 and "eleven" in output and "broken.yaml:3" in output


def test_a_parent_cannot_reach_further_than_the_file_asked_for(repo: Path, tmp_path: Path) -> None:
    """The folders are fixed by the file asked for: a parent inside them cannot extend outside them."""
    (repo / "shared" / "relay.yaml").write_text("name: relay\nextends: ../../outside/valid.yaml\n")
    code, output = run("validate", str(rule(repo, "../shared/relay.yaml")))
    assert code == 2 and SECRET not in output and "relay.yaml:2:10" in output


@pytest.mark.parametrize("command", [
    ["explain", "{f}"], ["rules", "{f}"], ["play", "{f}", "--humans", "0", "--save", "game.json"],
    ["simulate", "{f}", "--games", "1"], ["diff", "standard", "{f}"],
    ["sweep", "{f}", "--set", "game.target=11,21", "--games", "1"],
])
def test_every_command_that_reads_rule_files_refuses(repo: Path, command: list[str]) -> None:
    path = rule(repo, "../../outside/valid.yaml")
    code, output = run(*[str(path) if a == "{f}" else a for a in command])
    assert code == 2, output
    assert SECRET not in output and "may not name" in output


def test_a_scenario_files_variant_obeys_the_same_rule(repo: Path, tmp_path: Path) -> None:
    scenarios = repo / "scenarios"
    scenarios.mkdir()
    case = "cases:\n  - name: a pair\n    table: [9C]\n    hand: [9D]\n    expect:\n      legal: ['9D capture 9C']\n"
    (scenarios / "out.yaml").write_text("variant: ../../outside/valid.yaml\n" + case)
    (scenarios / "through.yaml").write_text("variant: ../rules/house.yaml\n" + case)
    (scenarios / "in.yaml").write_text("variant: ../shared/base.yaml\n" + case)
    rule(repo, "../../outside/secret.yaml")
    for name in ("out.yaml", "through.yaml"):
        code, output = run("check", f"scenarios/{name}")
        assert code == 2 and SECRET not in output and "may not name" in output, output
    code, output = run("check", "scenarios/in.yaml")
    assert code == 0, output
    # A case's own `variant:` too.
    (scenarios / "case.yaml").write_text("variant: standard\n" + case.replace(
        "  - name: a pair\n", "  - name: a pair\n    variant: ../../outside/valid.yaml\n"))
    code, output = run("check", "scenarios/case.yaml")
    assert code != 0 and SECRET not in output and "may not name" in output


def test_the_pre_commit_hooks_refuse_too(repo: Path) -> None:
    from cassino.apps.authors.scenario_hook import main as hook

    rule(repo, "../../outside/secret.yaml")
    err = io.StringIO()
    with contextlib.redirect_stdout(err), contextlib.redirect_stderr(err):
        code = hook(["rules/house.yaml", "--scenarios", "^never$"])
    assert code == 2 and SECRET not in err.getvalue()
    code, output = run("validate", "rules/house.yaml", "--format", "github")   # cassino-validate's entry
    assert code == 2 and SECRET not in output


def test_names_a_path_and_the_confinement_in_the_api(repo: Path, tmp_path: Path) -> None:
    assert names_a_path("../x.yaml") and names_a_path("x.yml") and names_a_path("a\\b")
    assert not names_a_path("standard")
    confined = Confinement.around(repo / "rules" / "house.yaml")
    assert confined.roots == (Path(os.path.realpath(repo / "rules")), Path(os.path.realpath(repo)))
    assert confined.refusal(repo / "shared" / "base.yaml") is None
    assert confined.refusal(tmp_path / "outside" / "valid.yaml") is not None
    assert confined.refusal(repo / ".env") is not None
    with pytest.raises(Exception) as e:
        load(str(rule(repo, "../../outside/valid.yaml")))
    assert SECRET not in str(e.value)


def test_the_projects_own_scenarios_and_examples_still_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything the project ships resolves from the repository's root (the current folder of CI)."""
    monkeypatch.chdir(ROOT)
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        load(str(path))


def test_a_file_beside_named_without_yaml_is_suggested(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`extends: sweeps-to-11` beside sweeps-to-11.yaml: the hint names the author's file, not the shipped
    example whose name is nearest (a documentation audit was sent to `sweeps-score`)."""
    (tmp_path / "sweeps-to-11.yaml").write_text("name: sweeps-to-11\nextends: standard\ngame:\n  target: 11\n")
    (tmp_path / "x.yaml").write_text("name: x\nextends: sweeps-to-11\n")
    code, out, err = cli("validate", str(tmp_path / "x.yaml"))
    assert code == 2 and "did you mean `extends: sweeps-to-11.yaml`, the file beside this one?" in err
    assert "sweeps-score" not in err
    (tmp_path / "y.yaml").write_text("name: y\nextends: sweeps-scor\n")
    code, out, err = cli("validate", str(tmp_path / "y.yaml"))
    assert code == 2 and "did you mean `sweeps-score`?" in err


# ---------------------------------------------------------------------- a red team's finds (session 75)
SCENARIO = "cases:\n  - name: a\n    hand: [AS]\n    table: [AH]\n    expect:\n      legal: [AS capture AH]\n"


@pytest.mark.parametrize("where", ["file", "case"])
@pytest.mark.parametrize("command", [["check"], ["solve"]])
def test_a_scenarios_bare_variant_name_never_reads_a_file_of_the_current_folder(
        repo: Path, where: str, command: list[str]) -> None:
    """`variant: .env` named no shipped variant and read the current folder's `.env`, quoting it whole in the
    error ("found a single value ('TOKEN=...')"). A bare name is a bundled variant or example only."""
    (repo / "id_fake").write_text(f"-----BEGIN KEY-----\n{SECRET}\n")
    text = ("variant: .env\n" + SCENARIO) if where == "file" else \
        ("variant: standard\n" + SCENARIO.replace("  - name: a\n", "  - name: a\n    variant: id_fake\n"))
    path = repo / "s.yaml"
    path.write_text(text)
    code, output = run(*command, str(path))
    assert code == 2 and SECRET not in output and "Traceback" not in output
    assert "no bundled variant or house-rule example named" in output
    assert "s.yaml:" in output    # (said at the scenario's own `variant` line)


def test_a_scenarios_bare_variant_name_still_finds_shipped_ones(repo: Path) -> None:
    for name in ("standard", "fifty"):
        path = repo / f"{name}-s.yaml"
        path.write_text(f"variant: {name}\n" + SCENARIO)
        code, output = run("check", str(path))
        assert code == 0, output


@pytest.mark.parametrize("target", ["outside/valid.yaml", "outside/env"])
@pytest.mark.parametrize("command", [["check", "{}"], ["solve", "{}"],
                                     ["perft", "standard", "--scenario", "{}", "--case", "a", "--depth", "1"]])
def test_a_scenario_file_named_through_a_link_that_leads_out_is_refused(
        repo: Path, tmp_path: Path, target: str, command: list[str]) -> None:
    """`cassino check` (and solve, perft --scenario) read a scenario file through a link to anywhere and quoted
    it; `validate` refused the same link for a rule file. Both obey one rule now."""
    link = repo / "rules" / "linked.yaml"
    link.symlink_to(tmp_path / target)
    code, output = run(*[str(link) if a == "{}" else a for a in command])
    assert code == 2 and SECRET not in output and "Traceback" not in output
    assert "symbolic link" in output


def test_the_scenario_hook_does_not_read_a_planted_link(repo: Path, tmp_path: Path) -> None:
    from cassino.apps.authors.scenario_hook import is_scenario_file
    import re

    link = repo / "rules" / "planted.yaml"
    link.symlink_to(tmp_path / "outside" / "valid.yaml")
    is_scenario_file(str(link), re.compile("scenario"))   # (judged by its name: not opened)
    code, output = run("check", str(link))
    assert code == 2 and SECRET not in output


def test_a_file_named_through_a_linked_folder_obeys_the_link_rule(repo: Path, tmp_path: Path) -> None:
    """Only the last part of a path was looked at for a link: `rules/shared/cred.yaml` through
    `rules/shared -> ../../outside` was read and quoted. A linked folder leading inside the tree is fine."""
    (repo / "rules" / "shared").symlink_to(tmp_path / "outside")
    (repo / "rules" / "inside").symlink_to(repo / "shared")
    for fmt in ("text", "sarif"):
        code, output = run("validate", "rules/shared/valid.yaml", "--format", fmt)
        assert code == 2 and SECRET not in output and "symbolic link" in output
    code, output = run("validate", "rules/inside/base.yaml")
    assert code == 0, output


def test_a_name_finds_the_shipped_example_before_a_file_of_the_folder(repo: Path) -> None:
    """`cassino rules` reloaded a house rule's parent `fifty` by name and found `./fifty` (no .yaml) of the
    current folder before the shipped example, quoting it."""
    (repo / "fifty").write_text(f"token: {SECRET}\n")
    house = repo / "rules" / "h.yaml"
    house.write_text("name: house\nextends: fifty\ngame: {target: 40}\n")
    for argv in (["rules", str(house)], ["rules", "--format", "html", str(house)], ["validate", "fifty"]):
        code, output = run(*argv)
        assert code == 0 and SECRET not in output, (argv, output[:300])
    assert load("fifty").rules.name == "fifty"


def test_a_folder_swapped_for_a_link_after_the_check_is_not_followed(repo: Path, tmp_path: Path) -> None:
    """The race a second process can run: the path checked has no link, then a folder on it becomes a link
    out before the open. The read follows no link on the checked path, so it fails rather than reads out."""
    from cassino.files import FileProblem, read_bytes, real_path

    sub = repo / "rules" / "sub"
    sub.mkdir()
    (sub / "x.yaml").write_text("name: benign\nextends: standard\n")
    checked = real_path(sub / "x.yaml")
    assert read_bytes(checked, 10_000, unlinked=True).startswith(b"name: benign")
    sub.rename(repo / "rules" / "was-sub")
    sub.symlink_to(tmp_path / "outside")
    (tmp_path / "outside" / "x.yaml").write_text(f"name: {SECRET}\n")
    assert SECRET.encode() in read_bytes(checked, 10_000)   # (followed without the care)
    with pytest.raises(FileProblem, match="symbolic link took the place"):
        read_bytes(checked, 10_000, unlinked=True)


def test_every_file_of_a_chain_is_read_from_the_path_that_was_checked(
        repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """resolve_file reads each document by its checked real path, following no link (the race above)."""
    from cassino.language import resolve

    seen: list[tuple[str, bool]] = []
    load_yaml = resolve.load_yaml

    def spy(path, **kw):  # type: ignore[no-untyped-def]
        seen.append((str(path), bool(kw.get("unlinked"))))
        return load_yaml(path, **kw)

    monkeypatch.setattr(resolve, "load_yaml", spy)
    rule(repo, "../shared/base.yaml")
    load(str(repo / "rules" / "house.yaml"))
    assert [u for _, u in seen] == [True, True, True] and all(os.path.isabs(p) for p, _ in seen)


@pytest.mark.parametrize("ref", ["a" * 300 + ".yaml", "a" * 300, "a/" * 3000 + "x.yaml"])
def test_an_overlong_extends_is_said_at_its_line_and_the_next_file_is_still_checked(repo: Path, ref: str) -> None:
    path = rule(repo, ref)
    good = rule(repo, "standard", "good.yaml")
    code, output = run("validate", str(path), str(good), "--format", "github")
    assert code == 2 and "Traceback" not in output and "internal error" not in output
    assert "house.yaml" in output and "::error" in output and "ok (house)" not in output.split("house.yaml")[0]


def test_an_upper_case_suffix_names_a_path_and_a_link_to_another_kind_says_so(repo: Path) -> None:
    assert names_a_path("UP.YAML") and names_a_path("x.Yml")
    (repo / "rules" / "notes.txt").write_text("name: notes\n")
    (repo / "rules" / "notes.yaml").symlink_to(repo / "rules" / "notes.txt")
    code, output = run("validate", str(rule(repo, "notes.yaml")))
    assert code == 2 and "a symbolic link to a file whose name does not end in .yaml" in output


def test_a_scenarios_variant_may_extend_within_the_scenarios_own_tree(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario's variant in a folder below it, extending a file beside the scenario: the chain is confined to
    the scenario's tree (and the current folder's), not to the variant's own folder alone."""
    scen = tmp_path / "scen"
    (scen / "sub").mkdir(parents=True)
    (scen / "base.yaml").write_text("name: base\nextends: standard\n")
    (scen / "sub" / "v.yaml").write_text("name: v\nextends: ../base.yaml\n")
    (scen / "s.yaml").write_text("variant: sub/v.yaml\n" + SCENARIO)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, output = run("check", "../scen/s.yaml")
    assert code == 0, output


@pytest.mark.parametrize("value", ["123", "[standard]", "{a: b}"])
def test_an_extends_that_is_not_text_is_one_error(repo: Path, value: str) -> None:
    path = repo / "rules" / "odd.yaml"
    path.write_text(f"name: odd\nextends: {value}\n")
    code, output = run("validate", str(path))
    assert code == 2 and output.count("odd.yaml:2:10:") == 1, output


def test_a_file_without_a_name_is_told_where_and_how(repo: Path) -> None:
    path = repo / "rules" / "nameless.yaml"
    path.write_text("extends: standard\n")
    code, output = run("validate", str(path))
    assert code == 2 and "missing setting `name` at the top level of the file" in output
    assert "`the file`" not in output and "name: my-rules" in output


# ---------------------------------------------------------------------- a second round (session 75)
def test_a_dotdot_after_a_linked_folder_is_followed_as_the_system_follows_it(repo: Path, tmp_path: Path) -> None:
    """`rules/shared/../outside/x.yaml` through `rules/shared -> ../../outside`: the link was looked for in the
    path with `..` struck out of the text (`rules/outside/x.yaml`: no link), while the system read through it."""
    (repo / "rules" / "shared").symlink_to(tmp_path / "outside" / "inner")
    (tmp_path / "outside" / "inner").mkdir()
    (tmp_path / "outside" / "scen.yaml").write_text(f"variant: standard\n{SECRET}: 1\n" + SCENARIO)
    for argv in (["validate", "rules/shared/../valid.yaml"], ["rules", "rules/shared/../valid.yaml"],
                 ["check", "rules/shared/../scen.yaml"]):
        code, output = run(*argv)
        assert code == 2 and SECRET not in output and "symbolic link" in output, (argv, output)


def test_the_rulebook_of_a_linked_house_rule_reads_the_parent_that_was_checked(repo: Path, tmp_path: Path) -> None:
    """`cassino rules` rebuilt a house rule's parent path from the folder of the link it was named by, then read
    it as a file named on the command line: `extends: lnk/../.env` checked from the real file's folder read
    `rules/lnk/../.env` through a planted link. It now reloads the parent by the real path read and checked,
    which also makes the rulebook of a link from another folder work."""
    (tmp_path / "outside" / "sub").mkdir()
    (tmp_path / "outside" / ".env").write_text(f"AWS={SECRET}\n")
    d = repo / "d"
    d.mkdir()
    (d / "real.yaml").write_text("name: parent\ndescription: parent\nextends: standard\n")
    (d / ".env").symlink_to(d / "real.yaml")
    (d / "house.yaml").write_text("name: house\ndescription: house\nextends: lnk/../.env\n")   # (no d/lnk)
    (repo / "rules" / "lnk").symlink_to(tmp_path / "outside" / "sub")
    (repo / "rules" / "hl.yaml").symlink_to(d / "house.yaml")
    assert run("validate", "rules/hl.yaml")[0] == 0
    code, output = run("rules", "rules/hl.yaml")
    assert code == 0 and SECRET not in output, output[:400]
    # A link from another folder depth to a house rule extending a path: its rulebook (it failed).
    (repo / "rules" / "deep" / "house.yaml").write_text("name: house\nextends: ../../shared/base.yaml\n")
    (repo / "house-link.yaml").symlink_to(repo / "rules" / "deep" / "house.yaml")
    code, output = run("rules", "house-link.yaml")
    assert code == 0 and "house" in output, output[:300]


def test_a_parent_is_read_at_the_very_path_that_was_checked(repo: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The race (a second process swapping a folder for a link): the parent's path resolved once, leading out
    at that moment, must be refused, not checked again by a second resolution that finds the folder back."""
    from cassino.language import resolve

    path = rule(repo, "../shared/base.yaml")
    outside = resolve.real_path(tmp_path / "outside" / "valid.yaml")
    monkeypatch.setattr(resolve, "_parent_path", lambda ref, child, bundled: outside)
    code, output = run("validate", str(path))
    assert code == 2 and SECRET not in output and "may not name" in output


def test_a_file_named_that_led_elsewhere_when_resolved_is_refused(repo: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The same race for a file named on the command line: no link on its path when looked at, yet its real
    path (resolved once, the path read) leads out: refused, not read."""
    from cassino.language import resolve

    outside = resolve.real_path(tmp_path / "outside" / "valid.yaml")
    real_path = resolve.real_path
    monkeypatch.setattr(resolve, "real_path", lambda p: outside if str(p).endswith("inner.yaml") else real_path(p))
    code, output = run("validate", "rules/deep/inner.yaml")
    assert code == 2 and SECRET not in output and "changed while it was being checked" in output


def test_the_lobby_neither_lists_nor_describes_a_link_out_of_its_rules_folder(tmp_path: Path) -> None:
    from cassino.apps.web.lobby import Lobby

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text(f"name: x\ndescription: {SECRET}\nextends: standard\n")
    folder = tmp_path / "rulesdir"
    folder.mkdir()
    (folder / "evil.yaml").symlink_to(outside / "x.yaml")
    (folder / "good.yaml").write_text("name: good\ndescription: ours\nextends: standard\n")
    choices = Lobby(folder).choices()
    assert [f["name"] for f in choices["folder"]] == ["good.yaml"] and SECRET not in json.dumps(choices)


def test_an_example_name_is_the_whole_name() -> None:
    from cassino.language.catalogue import find_example

    assert find_example("fifty") is not None and find_example("fifty\n") is None


def test_the_chains_folders_come_from_the_one_resolution_of_the_file(repo: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The file's folder was resolved again for the chain's confinement: a folder on its path swapped for a link
    at that moment would have put the outside among the allowed folders. Simulated: that second resolution,
    were it made, leads out; the confinement must not see it."""
    from cassino.language import resolve

    path = rule(repo, "../../outside/valid.yaml")
    rules_folder = resolve.real_path(repo / "rules")
    real_path = resolve.real_path
    monkeypatch.setattr(resolve, "real_path",
                        lambda p: real_path(tmp_path / "outside") if Path(p) == rules_folder else real_path(p))
    code, output = run("validate", str(path))
    assert code == 2 and SECRET not in output and "may not name" in output


def test_the_lobby_reads_its_rules_folder_alone_not_the_servers_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A third round: `serve --rules-dir rules` from a folder holding a git-ignored secrets file: a link
    `rules/evil.yaml -> ../secrets.yaml` (inside the current folder) was listed, described and opened, and
    `extends: ../secrets.yaml` quoted it. The lobby's files, and what they extend, lie in its folder."""
    from cassino.apps.web.lobby import Lobby, LobbyError
    from cassino.errors import RuleFileError

    srv = tmp_path / "srv"
    (srv / "rules").mkdir(parents=True)
    (srv / "secrets.yaml").write_text(f"name: s\ndescription: {SECRET}\nextends: standard\n{SECRET}: 1\n")
    (srv / "rules" / "evil.yaml").symlink_to(srv / "secrets.yaml")
    (srv / "rules" / "ext.yaml").write_text("name: ext\nextends: ../secrets.yaml\n")
    (srv / "rules" / "base.yaml").write_text("name: base\nextends: standard\n")
    (srv / "rules" / "good.yaml").write_text("name: good\ndescription: ours\nextends: base.yaml\n")
    monkeypatch.chdir(srv)
    lobby = Lobby(Path("rules"))
    choices = lobby.choices()
    assert [f["name"] for f in choices["folder"]] == ["base.yaml", "ext.yaml", "good.yaml"]
    assert choices["folder"][2]["description"] == "ours" and SECRET not in json.dumps(choices)
    with pytest.raises(LobbyError):
        lobby.load({"kind": "folder", "name": "evil.yaml"})
    with pytest.raises(RuleFileError) as refused:
        lobby.load({"kind": "folder", "name": "ext.yaml"})
    said = "\n".join(d.format() for d in refused.value.diagnostics)
    assert SECRET not in said and "may not name" in said and said.startswith("rules/ext.yaml:")
    assert lobby.load({"kind": "folder", "name": "good.yaml"})[0].rules.name == "good"


def test_a_file_named_by_its_absolute_path_is_read_where_the_current_folder_was_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    code, output = run("validate", str(ROOT / "examples" / "fifty.yaml"))
    assert code == 0 and "ok (fifty)" in output, output
    code, output = run("validate", "x.yaml")
    assert code == 2 and "no such file" in output and "Traceback" not in output

"""Writing through links, and one player per record however it is named (issue 48, section 4).

A symbolic link is followed when a file is written: the link's target is replaced (atomically), the
link stays a link; a link to nothing and a loop of links are refused, and nothing is created or
removed. A record reached by two hard-linked names is one file: while it is played under one name,
resuming it under the other is refused (the lock is on the file itself, not only on its name).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from cassino.apps.cli import main
from cassino.files import Busy, FileProblem, hold, write_atomic

from conftest import record_text


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch("builtins.input", side_effect=EOFError):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def listing(folder: Path) -> dict[str, str]:
    """Every name in ``folder``: a link as ``-> target``, a file as its text, a folder as ``/``."""
    shown = {}
    for p in sorted(folder.iterdir()):
        if p.is_symlink():
            shown[p.name] = "-> " + os.readlink(p)
        elif p.is_dir():
            shown[p.name] = "/"
        else:
            shown[p.name] = p.read_text(encoding="utf-8")
    return shown


# ---------------------------------------------------------------------- writing through a symbolic link

def test_a_link_to_a_file_is_written_through_and_kept(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("old", encoding="utf-8")
    os.symlink("real.txt", tmp_path / "link.txt")
    with pytest.raises(FileProblem, match="already exists; add --force"):
        write_atomic(tmp_path / "link.txt", "new", replace=False)
    assert listing(tmp_path) == {"link.txt": "-> real.txt", "real.txt": "old"}
    written = write_atomic(tmp_path / "link.txt", "new", replace=True)
    assert written == tmp_path / "real.txt"
    assert listing(tmp_path) == {"link.txt": "-> real.txt", "real.txt": "new"}


def test_a_chain_of_links_and_a_link_into_another_folder_are_followed_to_the_end(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "real.txt").write_text("old", encoding="utf-8")
    os.symlink("elsewhere/real.txt", tmp_path / "one.txt")
    os.symlink("one.txt", tmp_path / "two.txt")
    write_atomic(tmp_path / "two.txt", "new", replace=True)
    assert listing(tmp_path) == {"elsewhere": "/", "one.txt": "-> elsewhere/real.txt", "two.txt": "-> one.txt"}
    assert listing(tmp_path / "elsewhere") == {"real.txt": "new"}   # no temporary file left there either


def test_a_dangling_link_is_refused_and_nothing_made(tmp_path: Path) -> None:
    os.symlink("nowhere.txt", tmp_path / "dangling.txt")
    for replace in (False, True):
        with pytest.raises(FileProblem, match="is a symbolic link to nowhere.txt, which does not exist"):
            write_atomic(tmp_path / "dangling.txt", "new", replace=replace)
    assert listing(tmp_path) == {"dangling.txt": "-> nowhere.txt"}


def test_a_link_to_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    os.symlink("folder", tmp_path / "flink")
    with pytest.raises(FileProblem, match="flink is a folder; name a file"):
        write_atomic(tmp_path / "flink", "new", replace=True)
    assert listing(tmp_path) == {"flink": "-> folder", "folder": "/"}
    assert list((tmp_path / "folder").iterdir()) == []


def test_a_loop_of_links_is_refused(tmp_path: Path) -> None:
    os.symlink("loop2.txt", tmp_path / "loop1.txt")
    os.symlink("loop1.txt", tmp_path / "loop2.txt")
    with pytest.raises(FileProblem, match="too many symbolic links"):
        write_atomic(tmp_path / "loop1.txt", "new", replace=True)
    assert listing(tmp_path) == {"loop1.txt": "-> loop2.txt", "loop2.txt": "-> loop1.txt"}


@pytest.mark.parametrize(("link", "says"), [("link.txt", None), ("dangling.txt", "which does not exist"),
                                            ("flink", "is a folder"), ("loop1.txt", "too many symbolic links")])
def test_rules_output_with_force_through_a_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, link: str,
                                                says: str | None) -> None:
    """`cassino rules -o LINK --force`: the command line, with each kind of link."""
    monkeypatch.chdir(tmp_path)
    Path("real.txt").write_text("old", encoding="utf-8")
    Path("folder").mkdir()
    for name, target in (("link.txt", "real.txt"), ("dangling.txt", "nowhere.txt"), ("flink", "folder"),
                         ("loop1.txt", "loop2.txt"), ("loop2.txt", "loop1.txt")):
        os.symlink(target, name)
    before = listing(tmp_path)
    code, out, err = run(["rules", "standard", "--no-examples", "-o", link, "--force"])
    after = listing(tmp_path)
    if says is None:
        assert code == 0, err
        assert after.pop("real.txt").startswith("STANDARD")
        assert before.pop("real.txt") == "old"
    else:
        assert code == 2 and says in err and "Traceback" not in err, err
    assert after == before   # every link is still the link it was, and nothing else appeared


def test_a_record_saved_through_a_link_keeps_the_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("old.json").write_text("{}", encoding="utf-8")
    os.symlink("old.json", "game.json")
    code, out, err = run(["play", "standard", "--humans", "0", "--bot", "random", "--seed", "3",
                          "--save", "game.json", "--force"])
    assert code == 0, err
    assert os.readlink("game.json") == "old.json"
    assert '"format": "cassino-game/1"' in Path("old.json").read_text(encoding="utf-8")
    assert sorted(os.listdir(".")) == ["game.json", "old.json"]


# ---------------------------------------------------------------------- a record with two hard-linked names

@pytest.fixture()
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """a.json, a game two moves in, and b.json, a second (hard) link to the same file."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(record_text(actions=2), encoding="utf-8")
    os.link(a, b)
    assert os.stat(a).st_ino == os.stat(b).st_ino
    return a, b


def test_the_lock_is_on_the_file_not_its_name(linked: tuple[Path, Path]) -> None:
    a, b = linked
    held = hold(a, what="the game record")
    try:
        with pytest.raises(Busy, match="in use by another process"):
            hold(b, what="the game record")
        write_atomic(a, record_text(actions=3), replace=True)   # a's first move: a is a new file now,
        with pytest.raises(Busy):                                 # b still the one a was: both refused
            hold(b, what="the game record")
        with pytest.raises(Busy):
            hold(a, what="the game record")
    finally:
        held.release()
    hold(b, what="the game record").release()   # free again once released
    assert sorted(p.name for p in a.parent.iterdir()) == ["a.json", "b.json"]   # no lock file left


def test_resuming_the_other_name_is_refused_while_one_is_played(linked: tuple[Path, Path],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A second process holds a.json as `cassino play --resume a.json` does; b.json is refused."""
    a, b = linked
    monkeypatch.chdir(a.parent)
    holder = ("import sys\nfrom cassino.files import hold\n"
              "held = hold(sys.argv[1], what='the game record')\nprint('held', flush=True)\n"
              "sys.stdin.read()\nheld.release()\n")
    child = subprocess.Popen([sys.executable, "-c", holder, "a.json"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        before = b.read_text(encoding="utf-8")
        code, out, err = run(["play", "--resume", "b.json"])
        assert code == 2 and "is being played in another cassino process" in err, (out, err)
        assert b.read_text(encoding="utf-8") == before
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=120)
    code, out, err = run(["play", "--resume", "b.json"])   # the other game has ended: b is free
    assert code == 0, err

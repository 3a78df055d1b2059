"""cassino.files: every read of a user's file is bounded by bytes read and refuses what is not a regular file;
every write is atomic and replaces only a regular file, only when told to (issue 25)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cassino.files import FileProblem, exclusive, read_bytes, write_atomic


def test_a_read_stops_once_past_its_bound_by_bytes_read(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" * 1000)
    assert read_bytes(big, 5000) == b"a: 1\n" * 1000
    with pytest.raises(FileProblem, match="larger than 4,999 bytes"):
        read_bytes(big, 4999)


def test_devices_fifos_and_folders_are_refused_without_blocking(tmp_path: Path) -> None:
    """Run in a child process: before the fix the FIFO blocked forever and /dev/zero grew without end."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "adir").mkdir()
    code = ("import sys; from cassino.files import read_bytes, FileProblem\n"
            "for p in sys.argv[1:]:\n"
            "    try: read_bytes(p, 1_000_000); print(p, 'READ')\n"
            "    except FileProblem as e: print(e)\n")
    result = subprocess.run([sys.executable, "-c", code, "/dev/zero", "fifo", "adir"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.stdout.splitlines() == [
        "/dev/zero is a device, not the file; name a regular file",
        "fifo is a named pipe (FIFO), not the file; name a regular file",
        "adir is a folder, not the file; name a regular file"], result.stderr


def test_deep_yaml_is_refused_at_its_place_by_the_loader(tmp_path: Path) -> None:
    from cassino.errors import RuleFileError
    from cassino.language.yamlsource import MAX_DEPTH, load_yaml, load_yaml_text

    ok = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"   # the mapping is a level too
    assert load_yaml_text(ok, "ok.yaml").data is not None
    with pytest.raises(RuleFileError) as e:
        load_yaml_text("a:\n  b: " + "[" * 600 + "]" * 600 + "\n", "deep.yaml")
    diag = e.value.diagnostics[0]
    assert (diag.line, diag.column) == (2, 6 + MAX_DEPTH - 2)   # two mappings, then the 31st bracket
    assert f"nested too deeply (more than {MAX_DEPTH} levels)" in diag.message
    (tmp_path / "deep.yaml").write_text("{a: " * 700 + "1" + "}" * 700)
    with pytest.raises(RuleFileError, match="nested too deeply"):
        load_yaml(tmp_path / "deep.yaml")


def test_writes_replace_regular_files_only_and_only_when_told(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    write_atomic(target, "one", replace=False)
    with pytest.raises(FileProblem, match="already exists; add --force"):
        write_atomic(target, "two", replace=False)
    assert target.read_text() == "one"
    write_atomic(target, "two", replace=True)
    assert target.read_text() == "two"
    os.mkfifo(tmp_path / "fifo")   # not /dev/null: the unfixed code replaced the device itself
    with pytest.raises(FileProblem, match="is a named pipe"):
        write_atomic(tmp_path / "fifo", "x", replace=True)
    assert (tmp_path / "fifo").is_fifo()
    (tmp_path / "fifo").unlink()
    with pytest.raises(FileProblem, match="ends in a slash"):
        write_atomic(f"{tmp_path}/newdir/", "x", replace=True)
    with pytest.raises(FileProblem, match="there is no folder"):
        write_atomic(tmp_path / "missing" / "x.txt", "x", replace=True)
    with pytest.raises(FileProblem, match="the name is too long"):
        write_atomic(tmp_path / ("x" * 300), "x", replace=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    with exclusive(record):
        with pytest.raises(FileProblem, match="in use by another process"):
            with exclusive(record):
                pass
    with exclusive(record):   # free again, and the lock file is gone afterwards
        pass
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/version").exists(), reason="a folder that makes no files, as Linux's /proc")
def test_a_folder_that_makes_no_files_is_said_so_not_no_such_file(tmp_path: Path) -> None:
    """An audit's `rules -o /proc/version --force` read "no such file", of a file that is there."""
    with pytest.raises(FileProblem) as refused:
        write_atomic("/proc/version", "x", replace=True, what="the rulebook")
    assert "no file can be made in /proc" in str(refused.value) and "no such file" not in str(refused.value)

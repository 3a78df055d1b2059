"""Reading and writing the files a user names on the command line (or in a lobby).

Everything a user points at is hostile until read: it may be a device that never
ends (``/dev/zero``), a named pipe that never starts (a FIFO blocks ``open``), a
folder, a name longer than the system allows, or a file another process is
playing. So every read here opens without blocking, refuses what is not a
regular file, and stops after a bound counted in bytes actually read (a size
from ``stat`` can lie: ``/proc`` files and devices say 0). Every write goes to a
temporary file in the same folder and is renamed into place, so a reader sees the
old file or the new one; it never replaces a device or a folder, and an existing
file only when told to. A failed write is an error, never "saved".

The errors are :class:`FileProblem` (a CassinoError): one line that names the
file and says what to do. Callers that report in another form (a rule file's
``FILE:LINE:COL``) read ``path`` and ``reason``.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from .errors import CassinoError

def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: New files get the usual permissions (0644 under umask 022), not mkstemp's private 0600.
_NEW_FILE_MODE = 0o666 & ~_umask()

#: The longest a name may be, as most file systems allow (a longer one is refused before the OS is asked).
NAME_MAX = 255


class FileProblem(CassinoError):
    """A user's file that cannot be read or written; ``reason`` says why in a player's words."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path, self.reason = str(path), reason
        joined = " " if reason.startswith(("is ", "already ", "ends ")) else ": "   # "x.json is a folder"
        super().__init__(f"{path}{joined}{reason}")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _os_words(e: OSError) -> str:
    """What an OSError means to a user, without errno numbers."""
    if e.errno == errno.ENAMETOOLONG:
        return f"the name is too long (a file or folder name is at most {NAME_MAX} characters)"
    if e.errno == errno.ENOENT:
        return "no such file"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if e.errno == errno.ENOSPC:
        return "no space left on the device"
    if e.errno == errno.EROFS:
        return "the file system is read-only"
    if e.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if e.errno == errno.ELOOP:
        return "too many symbolic links: a link leads, directly or through others, back to itself"
    return (e.strerror or str(e)).rstrip(".").lower() if e.strerror else str(e)


def os_words(e: OSError) -> str:
    """What an OSError means to a user, in a few words (``no such file``, ``permission denied``)."""
    return _os_words(e)


def describe_os_error(e: OSError) -> str:
    """``FILE: what went wrong``, for an OSError no caller turned into a FileProblem."""
    name = e.filename if e.filename is not None else ""
    shown = str(name) if len(str(name)) <= 80 else str(name)[:60] + "..."
    return f"{shown}: {_os_words(e)}" if shown else _os_words(e)


def real_path(path: str | Path) -> Path:
    """``path`` with its symbolic links followed, as far as they lead, never raising.

    ``Path.resolve`` raises RuntimeError on a loop of links (``l1.yaml -> l2.yaml -> l1.yaml``),
    which every command showed as a traceback; here a loop is left unresolved, and reading the
    file then says "too many symbolic links" (a :class:`FileProblem`).
    """
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError, RuntimeError):
        return Path(os.path.abspath(path))


def followed(path: str | Path) -> str | Path:
    """The file ``path`` names, when its last part is a symbolic link; else ``path`` as given.

    A record is written by renaming a new file into place, which would replace a link with a
    file (and fork the game: the link's target stays behind); and its lock sits beside it by
    name, so a link and its target could be played at once. Both go to the file itself.
    """
    return real_path(path) if os.path.islink(path) else path   # as given: `newdir/` keeps its slash


def too_long(path: str | Path) -> bool:
    """Whether a part of ``path`` is longer than the system allows (the OS would say ENAMETOOLONG)."""
    return any(len(os.fsencode(part)) > NAME_MAX for part in Path(path).parts)


def kind_of(path: str | Path) -> str | None:
    """"file", "folder", another kind's words, or None when nothing is there (or it cannot be looked at)."""
    if too_long(path):
        return None
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return "file" if stat.S_ISREG(mode) else ("folder" if stat.S_ISDIR(mode) else _kind(mode))


def unreadable(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a regular file, in a player's words; None when it can be."""
    if too_long(path):
        return _os_words(OSError(errno.ENAMETOOLONG, ""))
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        return _os_words(e)
    except ValueError:
        return "the name holds a NUL character"
    return None if stat.S_ISREG(mode) else f"it is {_kind(mode)}"


def is_file(path: str | Path) -> bool:
    """``Path.is_file`` that never raises (a too-long name is simply not a file)."""
    return kind_of(path) == "file"


def _open_unlinked(path: Path, flags: int) -> int:
    """``os.open`` of ``path``, an absolute path with no symbolic link in it (a ``real_path`` that was
    checked), following none: each folder is opened below the one above it, never through a link, so a
    folder or file swapped for a link since the path was checked is refused (ELOOP or ENOTDIR), not
    followed out of the folders it was checked against. Where the system cannot open a folder by
    itself (no ``O_PATH`` or no ``dir_fd``), only the last part is kept from being a link."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    o_path = getattr(os, "O_PATH", 0)
    parts = path.parts
    if not o_path or os.open not in os.supports_dir_fd or len(parts) < 2:
        return os.open(path, flags | nofollow)
    folder = os.O_PATH | os.O_DIRECTORY | nofollow
    fd = os.open(parts[0], os.O_PATH | os.O_DIRECTORY)
    try:
        for part in parts[1:-1]:
            below = os.open(part, folder, dir_fd=fd)
            os.close(fd)
            fd = below
        return os.open(parts[-1], flags | nofollow, dir_fd=fd)
    finally:
        os.close(fd)


def read_bytes(path: str | Path, limit: int, *, what: str = "the file", unlinked: bool = False) -> bytes:
    """The bytes of a regular file, refusing it once more than ``limit`` bytes have been read.

    Opened with O_NONBLOCK so a named pipe cannot hang the open; checked with fstat on the
    opened file, so what is read is what was checked. ``unlinked``: ``path`` is a real path that was
    checked (an absolute path with no symbolic link in it), opened without following any link
    (``_open_unlinked``): a link put on its way since it was checked is refused, not followed.
    """
    if not str(path).strip():   # (a re-attack's `check ''` read ": cannot read ...")
        raise FileProblem("(an empty name)", f"names no file: name {what} to read")
    if too_long(path):
        raise FileProblem(path, f"cannot read {what}: {_os_words(OSError(errno.ENAMETOOLONG, ''))}")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = _open_unlinked(Path(path), flags) if unlinked else os.open(path, flags)
    except IsADirectoryError:
        raise FileProblem(path, f"is a folder, not {what}") from None
    except OSError as e:
        if unlinked and e.errno in (errno.ELOOP, errno.ENOTDIR):
            raise FileProblem(path, f"cannot read {what}: a symbolic link took the place of a file or folder "
                                    f"on its path after it was checked; it is not followed") from None
        raise FileProblem(path, f"cannot read {what}: {_os_words(e)}") from None
    except ValueError:
        raise FileProblem(path, f"cannot read {what}: the name holds a NUL character") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileProblem(path, f"is {_kind(mode)}, not {what}; name a regular file")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise FileProblem(path, f"{what} is larger than {limit:,} bytes; is it the right file?")
        return b"".join(chunks)
    except OSError as e:
        raise FileProblem(path, f"cannot read {what}: {_os_words(e)}") from None
    finally:
        os.close(fd)


def _through_link(text: str, what: str) -> Path:
    """The file a write to ``text`` goes to: when ``text`` is a symbolic link, the file it leads to
    (through any chain of links), so the write replaces that file and the link stays a link.

    A loop of links is refused, and so is a link to nothing (a "dangling" link, as ``cp`` refuses
    one): what it names may be a mistake or a trap, and writing would make a file the user never named.
    """
    if not os.path.islink(text):
        return Path(text)
    try:
        os.stat(text)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise FileProblem(text, f"cannot write {what}: {_os_words(e)}") from None
        if e.errno == errno.ENOENT:
            raise FileProblem(text, f"is a symbolic link to {os.readlink(text)}, which does not exist; "
                                    f"name that file itself, or remove the link") from None
        raise FileProblem(text, f"cannot write {what}: {_os_words(e)}") from None
    return real_path(text)


def check_target(path: str | Path, *, replace: bool, what: str = "the file", option: str = "--force",
                 example: str = "game.json") -> Path:
    """The file ``what`` is written to for ``path``, once it is known it can be written there without
    destroying anything not asked for.

    Refused: a name ending in a slash (a folder, not a file), a missing folder, a folder, a device
    or pipe (never replaced, even when told to replace), an existing file unless ``replace``.
    A symbolic link is followed (:func:`_through_link`): the file returned is its target, which the
    write replaces, leaving the link a link; a loop of links and a link to nothing are refused.
    """
    text = str(path)
    if not text.strip():
        raise CassinoError(f"no file named for {what} (an empty name); name one, e.g. {example}")
    if text.endswith(("/", os.sep)) or (os.altsep and text.endswith(os.altsep)):
        raise FileProblem(text, f"ends in a slash, so it names a folder; name a file for {what}, "
                                f"e.g. {text.rstrip('/' + os.sep)}/{example}")
    if too_long(text):
        raise FileProblem(text, f"cannot write {what}: {_os_words(OSError(errno.ENAMETOOLONG, ''))}")
    target = _through_link(text, what)
    kind = kind_of(target)
    if kind == "folder":
        raise FileProblem(text, f"is a folder; name a file for {what}, e.g. {Path(text) / example}")
    if kind not in (None, "file"):
        raise FileProblem(text, f"is {kind}; {what} {'are' if what.endswith('s') else 'is'} written to a regular "
                                f"file only")
    folder = target.parent
    if kind_of(folder) != "folder":
        raise FileProblem(text, f"cannot write {what}: {_no_folder(folder)}")
    if not os.access(folder, os.W_OK):
        raise FileProblem(text, f"cannot write {what}: the folder {folder} is not writable")
    if kind == "file" and not replace:
        raise FileProblem(text, f"already exists; add {option} to replace it, or name another file")
    return target


def lone_surrogate(value: object) -> bool:
    """Whether a decoded JSON value holds half of a UTF-16 pair (``"\\ud800"``) in any text, key or value: text no
    file, record or page can hold (a JSON or YAML escape makes one)."""
    if isinstance(value, str):
        return any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict):
        return any(lone_surrogate(k) or lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(lone_surrogate(v) for v in value)
    return False


def utf8(text: str, target: str | Path, what: str = "the file") -> bytes:
    """``text`` as UTF-8, or FileProblem where it holds what UTF-8 cannot (half of a UTF-16 pair, ``"\\ud800"``,
    which a JSON or YAML escape can make): said before any file is made, so nothing is left half written."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise FileProblem(Path(target), f"cannot write {what}: character {e.start + 1} of it is half of a "
                                        f"character (a lone surrogate, U+{ord(text[e.start]):04X}), which no "
                                        f"text file can hold") from None


def _no_folder(folder: Path) -> str:
    """Why ``folder`` (no folder) cannot hold a file: the nearest name on its path that is something else, said as
    what it is (`--save warn.json/x.json`, warn.json a file, read "there is no folder warn.json"), else that
    there is no such folder."""
    for above in (folder, *folder.parents):
        kind = kind_of(above)
        if kind == "folder":
            break
        if kind is not None:
            return f"{above} is {'a file' if kind == 'file' else kind}, not a folder"
    return f"there is no folder {folder}"


def write_atomic(path: str | Path, data: str | bytes, *, replace: bool, what: str = "the file",
                 option: str = "--force") -> Path:
    """Write ``data`` to a temporary file beside ``path``, flush it to disk, then rename it into place.

    With ``replace`` false the rename cannot replace a file made meanwhile (it links, which fails
    on an existing name). Any failure leaves no temporary file behind and raises FileProblem.
    """
    target = check_target(path, replace=replace, what=what, option=option)
    raw = utf8(data, target, what) if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=".cassino-", suffix=".tmp", dir=target.parent)
    except OSError as e:
        if e.errno == errno.ENOENT and target.parent.is_dir():
            # (the folder is there but makes no files: /proc's, where an audit read "no such file" of /proc/version)
            raise FileProblem(target, f"cannot write {what}: no file can be made in {target.parent}; name a file in "
                                      f"a folder of yours") from None
        raise FileProblem(target, f"cannot write {what}: {_os_words(e)}") from None
    try:
        try:
            existing = os.stat(target).st_mode & 0o7777 if target.is_file() else _NEW_FILE_MODE
            os.chmod(tmp, existing)
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
            if replace:
                os.replace(tmp, target)
            else:
                try:
                    os.link(tmp, target)
                except FileExistsError:
                    raise FileProblem(target, f"already exists; add {option} to replace it, or name another file") from None
                except OSError:   # a file system without hard links: the check above has to do
                    os.replace(tmp, target)
        except OSError as e:
            raise FileProblem(target, f"cannot write {what}: {_os_words(e)}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return target


# ---------------------------------------------------------------------- one player per record
class Busy(FileProblem):
    """The file is held by another process (a game record being played elsewhere)."""


def _lock_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.lock")


class Held:
    """A file held by this process (see :func:`hold`) until :meth:`release`, or until the process ends."""

    def __init__(self, lock_path: Path, handle: IO[bytes] | None, identity: int | None = None) -> None:
        self._lock_path, self._handle, self._identity = lock_path, handle, identity

    def release(self) -> None:
        """Let another process have the file; a second call does nothing."""
        if self._identity is not None:
            os.close(self._identity)
            self._identity = None
        if self._handle is not None:
            _release(self._lock_path, self._handle)
            self._handle = None


def hold(path: str | Path, *, what: str = "the file", busy: str = "") -> Held:
    """Hold ``path`` for this process alone until the returned :class:`Held` is released (or the process dies).

    Two locks. An OS lock (flock, or msvcrt's on Windows) on a lock file beside it, ``.NAME.lock``:
    the file is replaced by a rename at every write, so this lock, on the name, holds its later
    copies too. The lock file is removed on release; one left by a killed process holds no lock
    and is taken over. And, where flock exists, a lock on the file itself as it is when held (its
    st_dev and st_ino), so another name of the same file (a hard link, whose lock file is another)
    is refused too, before its moves fork from these. Where neither lock exists the file is used
    unguarded, as before. :class:`Busy` when another process holds it.
    """
    target = Path(followed(path))   # a symbolic link and its file are one file: one lock
    lock_path = _lock_name(target)
    handle = _acquire(lock_path, path, what, busy)
    try:
        identity = _hold_identity(target, path, what, busy)
    except Busy:
        if handle is not None:
            _release(lock_path, handle)
        raise
    return Held(lock_path, handle, identity)


def _hold_identity(target: Path, path: str | Path, what: str, busy: str) -> int | None:
    """The file ``target`` names, opened and locked (flock) for this process alone: a file descriptor to
    close on release, or None where there is nothing to lock (no file yet: a new game; not a regular file;
    no flock). :class:`Busy` when another holder has it, by this name or another (a hard link)."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        os.close(fd)
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise Busy(path, busy or f"{what} is in use by another process") from None
        return None   # a file system without flock (ENOLCK): the lock beside it has to do
    return fd


@contextmanager
def exclusive(path: str | Path, *, what: str = "the file", busy: str = "") -> Iterator[None]:
    """:func:`hold` for the length of a ``with`` block (a game played in a terminal)."""
    held = hold(path, what=what, busy=busy)
    try:
        yield
    finally:
        held.release()


def _acquire(lock_path: Path, path: str | Path, what: str, busy: str) -> IO[bytes] | None:
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    if fcntl is None:
        try:
            import msvcrt
        except ImportError:
            return None
    for _ in range(20):   # the lock file may be removed by its holder between our open and our lock
        try:
            handle = open(lock_path, "a+b")
        except OSError:
            return None   # a folder we may write the record in but not a lock beside it: play unguarded
        try:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            handle.close()
            raise Busy(path, busy or f"{what} is in use by another process") from None
        try:
            same = os.fstat(handle.fileno()).st_ino == os.stat(lock_path).st_ino
        except OSError:
            same = False
        if same or fcntl is None:
            return handle
        handle.close()
    return None


def _release(lock_path: Path, handle: IO[bytes]) -> None:
    try:
        lock_path.unlink(missing_ok=True)   # while still locked, so no one locks a file about to vanish
    except OSError:
        pass
    handle.close()

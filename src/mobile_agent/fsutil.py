"""Writing files safely, shared by every layer.

- :func:`atomic_write_bytes` / :func:`atomic_write_text`: the only way this package writes a file.
  The data goes to a temporary file with a name unique to this writer (``mkstemp`` in the target's
  folder), is flushed and fsynced, and is renamed over the target with ``os.replace``. A reader sees
  the old file or the new one, never half of one; two processes writing the same file never share
  a temporary name; a full disk or a read-only folder leaves the old file as it was and raises
  :class:`~mobile_agent.errors.StorageError` (an ``OSError``) naming the file, its folder and why.
  The file gets the mode a plain ``open(path, "w")`` would give it: a new file ``0666`` less the
  umask (``0644`` under the usual ``022``), a file that exists keeps its mode (``mkstemp`` alone
  makes ``0600``).
- :class:`FolderLock`: an exclusive lock on a folder (an ``flock`` on a ``.lock`` file inside it),
  so that two processes do not fill one output folder at once. The holder's process id is written
  in the file, and the error names it.
"""

from __future__ import annotations

import errno as _errno
import json
import os
import tempfile
from pathlib import Path
from typing import IO, Any

from mobile_agent.errors import ConfigError, StorageError

LOCK_NAME = ".lock"


def path_inside(root: str | Path, rel: Any) -> Path:
    """The file a record names by ``rel`` (a path relative to the run folder ``root``), or a
    ``ValueError`` saying why it is not one to read: not a relative name, or a path that leads out
    of the folder, by ``..``, as an absolute path or through a symbolic link. The one check of every
    reader of a run folder's recorded paths (the report, replay)."""
    if not isinstance(rel, str) or not rel or "\x00" in rel:
        raise ValueError("not a usable file name")
    root = Path(root)
    path = root / rel
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        raise ValueError("the path points outside the run folder") from None
    return path


def private_folder(path: str | Path, option: str) -> Path:
    """``path`` made (mode 0700) if missing, else checked: a folder of this user's own that no other
    user may write (what it holds is trusted: a run cache's kept runs are replayed with no model).
    A :class:`ConfigError` naming ``option`` and the fix otherwise."""
    import stat

    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{option} {path} is a file; give a folder")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.stat()
    except OSError as exc:
        raise storage_error(exc, path, "create") from exc
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise ConfigError(f"{option} {path} belongs to another user (uid {st.st_uid}); what it holds cannot be "
                          "trusted: choose a folder of your own")
    if st.st_mode & 0o022:
        raise ConfigError(f"{option} {path} can be written by other users (mode {stat.S_IMODE(st.st_mode):04o}); "
                          f"what it holds cannot be trusted: chmod go-w {path}, or choose a folder of your own")
    return path


def load_json(text: str | bytes) -> Any:
    """``json.loads`` for what a file on disk holds: a value nested too deeply for Python's decoder
    (``[[[[...`` a hundred thousand deep, a ``RecursionError`` inside ``json``) is a
    ``json.JSONDecodeError`` like any other text that is not a record, so that every reader that
    refuses bad JSON with a message refuses this one too. The one JSON reader of records (run
    folders, caches, benchmark results)."""
    try:
        return json.loads(text)
    except RecursionError:
        doc = text if isinstance(text, str) else text.decode("utf-8", "replace")
        raise json.JSONDecodeError("nested too deeply to be a record", doc[:80], 0) from None


def storage_error(exc: OSError, path: str | Path, what: str = "write") -> StorageError:
    """A :class:`StorageError` for ``exc`` (disk full, read-only folder...): the file, its folder and why."""
    if isinstance(exc, StorageError):
        return exc
    path = Path(path)
    reason = exc.strerror or str(exc)
    if exc.errno in (_errno.ENOSPC, _errno.EDQUOT):
        advice = "free some space or choose another folder"
    elif exc.errno in (_errno.EROFS, _errno.EACCES, _errno.EPERM):
        advice = "make the folder writable or choose another folder"
    else:
        advice = "check the folder or choose another one"
    err = StorageError(f"cannot {what} {path.name} in {path.parent}: {reason}; {advice} "
                       "(what was written before is kept)")
    err.errno = exc.errno
    err.filename = str(path)
    return err


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (unique temporary file, fsync, ``os.replace``)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise storage_error(exc, path) from exc
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise storage_error(exc, path) from exc
        raise


def _mode_for(path: Path) -> int:
    """The permission bits ``open(path, "w")`` would leave: the existing file's, else 0666 less the umask."""
    try:
        st = os.stat(path)
    except OSError:
        return 0o666 & ~_umask()
    import stat

    return stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it where the system tells it (Linux), else set and
    restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically; see :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_save_image(path: str | Path, image: "Any") -> None:
    """Save a PIL image atomically, in the format its file name says (``.png``, ``.jpg``...)."""
    import io

    from PIL import Image

    path = Path(path)
    fmt = Image.registered_extensions().get(path.suffix.lower())
    if fmt is None:
        raise ConfigError(f"cannot tell the image format of {path.name}: use a .png or .jpg name")
    buf = io.BytesIO()
    image.save(buf, fmt)
    atomic_write_bytes(path, buf.getvalue())


class FolderLock:
    """``with FolderLock(folder, what="eval"):`` holds an exclusive lock on ``folder`` (created if
    missing). A second holder, in this process or another, gets a :class:`ConfigError` naming the
    process that holds it. The lock goes with the process: a killed holder leaves no stale lock."""

    def __init__(self, folder: str | Path, what: str = "run") -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self.what = what
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        if self._file is not None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            f = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open while locked
        except OSError as exc:
            raise storage_error(exc, self.path, "create") from exc
        try:
            _lock(f)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip()
            f.close()
            who = f" (process {holder})" if holder.isdigit() else ""
            raise ConfigError(f"another {self.what} is using {self.folder}{who}; wait for it to end, "
                              f"or choose another --out") from None
        except BaseException:
            f.close()
            raise
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self._file = f

    def release(self) -> None:
        f, self._file = self._file, None
        if f is None:
            return
        try:
            f.seek(0)
            f.truncate()
            f.flush()
            _unlock(f)
        finally:
            f.close()

    @property
    def held(self) -> bool:
        return self._file is not None

    def __enter__(self) -> FolderLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(f: IO[str]) -> None:
        f.seek(0)
        try:
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            raise BlockingIOError(str(exc)) from exc

    def _unlock(f: IO[str]) -> None:
        f.seek(0)
        msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _lock(f: IO[str]) -> None:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(f: IO[str]) -> None:
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)

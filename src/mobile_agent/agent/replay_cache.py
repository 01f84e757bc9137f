"""A cache of completed runs for repeated instructions (``mobile-agent run --cache DIR``).

A run that completed, with its Stop confirmed (by the completion check, or by a replay's match of
the recorded last screen), is kept under its instruction (normalised: case, spaces and the final
full stop aside) and the device's kind (``sim-1080x2400``); the next run of the same instruction on
the same kind of device replays it first (:class:`~mobile_agent.agent.replay.ReplayPlanner`) and
falls back to the model where the phone differs. A run that did not complete is never kept (the
entry there stays as it was).

``--param NAME=VALUE`` and ``--secret NAME=VALUE`` (``values``): a kept run never holds VALUE. Its
instruction, records and the text lines read off its screens (``lines.json``) hold ``{NAME}``
instead, and the lines of its screenshots that show VALUE are painted over; the key is the
instruction with ``{NAME}`` in it, so that the next run with another value replays it, and the
values given then fill ``{NAME}`` in. An entry that types a secret is refused (:class:`ConfigError`)
to a run that does not give it (:func:`refuse_missing_secrets`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import logging
import os
import shutil
import tempfile
import threading
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from mobile_agent.agent.loop import placeholder
from mobile_agent.agent.planner import NOT_CHECKED
from mobile_agent.agent.replay import LINES, PARSES, Recording, ReplayError
from mobile_agent.agent.trajectory import SCREENS, STEPS, SUMMARY, read_steps, read_summary
from mobile_agent.errors import ConfigError, StorageError
from mobile_agent.fsutil import atomic_write_text, load_json, path_inside, private_folder, storage_error

log = logging.getLogger(__name__)

#: ``--cache-mode``: replay a kept run and keep a new one (the default), replay only (the folder is
#: never written: a cache shared read-only), keep only (never replay: refill the cache)
CACHE_MODES = ("read-write", "read-only", "write-only")
#: the writers' lock file in the cache folder (one writer at a time, across processes and machines
#: that share the folder)
WRITER_LOCK = ".writer.lock"
#: in an entry: when it was last replayed and how that went (written by read-write runs only)
REPLAYS = "replays.json"
#: how long a writer waits for another to finish before it gives up (a kept run is a few megabytes)
WRITER_WAIT_S = 120.0
_IN_PROCESS: dict[str, threading.Lock] = {}
_IN_PROCESS_GUARD = threading.Lock()


def normalise_instruction(instruction: str) -> str:
    """The instruction as the cache compares it: NFKC, case folded, runs of spaces as one, the
    final full stop (or ! or ?) and spaces around left out."""
    t = " ".join(unicodedata.normalize("NFKC", instruction).casefold().split())
    return t.rstrip(" .!?。")


def cache_key(instruction: str, device_kind: str) -> str:
    """The name of the cache entry of ``instruction`` on ``device_kind`` (16 hex digits)."""
    return hashlib.sha256(f"{device_kind}\n{normalise_instruction(instruction)}".encode("utf-8")).hexdigest()[:16]


def with_placeholders(text: str, values: dict[str, str]) -> str:
    """``text`` with each value of ``values`` ({NAME: VALUE}) replaced by ``{NAME}`` (longest first)."""
    for name, value in sorted(values.items(), key=lambda kv: -len(kv[1])):
        if value:
            text = text.replace(value, placeholder(name))
    return text


def parse_values(pairs: Sequence[str], option: str) -> dict[str, str]:
    """``["NAME=VALUE", ...]`` as a dict; a ConfigError (one line) for a pair that is not one."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        name = name.strip()
        if not eq or not name or not value or not all(ch.isalnum() or ch in "_-" for ch in name):
            raise ConfigError(f"{option} {pair.split('=')[0]!r}=...: write NAME=VALUE (NAME in letters, digits, _ "
                              "or -, and a value)")
        out[name] = value
    return out


def refuse_missing_secrets(recording: Recording, secrets: dict[str, str], whose: str) -> None:
    """A ConfigError (one line, ``whose`` naming the run) when the kept run ``recording`` types a
    secret (``{NAME}``) that ``secrets`` does not give."""
    names = sorted(set(recording.secrets) - set(secrets))
    if names:
        raise ConfigError(f"{whose} types the secret(s) {', '.join(placeholder(n) for n in names)}: give "
                          f"{' '.join(f'--secret {n}=VALUE' for n in names)}")


def kept_from(recording: Recording) -> str:
    """Which kept run ``recording`` is, for the line said before a replay acts: its instruction as it
    was kept, the run folder it was kept from and when (a near-same instruction, another full stop
    or case, finds the same entry: the user sees which run will act)."""
    import datetime

    origin = when = ""
    try:
        meta = load_json((recording.folder / "cache.json").read_text(encoding="utf-8"))
        origin = str(meta.get("from") or "")
        stamp = (recording.folder / "cache.json").stat().st_mtime
        when = datetime.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")
    except (OSError, ValueError, AttributeError, TypeError):
        pass
    text = f"the run kept for {json.dumps(recording.instruction, ensure_ascii=False)}"
    if origin:
        text += f" from {origin}"
    if when:
        text += f" on {when}"
    return text


def device_kind(device: str, size: tuple[int, int]) -> str:
    """A device's kind for the cache: the kind of device (``sim``, ``adb``) and its screen size."""
    return f"{device.partition(':')[0]}-{size[0]}x{size[1]}"


#: ``--cache default``: the user's own cache folder (:func:`user_cache_folder`).
DEFAULT_FOLDER = "default"


def user_cache_folder() -> Path:
    """The user's run cache by the platform's convention (``platformdirs.user_cache_dir``):
    ``$XDG_CACHE_HOME/mobile-agent/runs`` or ``~/.cache/mobile-agent/runs`` on Linux,
    ``~/Library/Caches/mobile-agent/runs`` on macOS, ``%LOCALAPPDATA%\\mobile-agent\\Cache\\runs`` on Windows."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("mobile-agent", appauthor=False)) / "runs"


def cache_folder(value: str | Path | None) -> Path | None:
    """``--cache VALUE`` as a folder: ``default`` is :func:`user_cache_folder` (a folder of that name
    is ``./default``), None stays None (no cache)."""
    if value is None:
        return None
    return user_cache_folder() if str(value) == DEFAULT_FOLDER else Path(value)


class RunCache:
    """The folder of cached runs: one sub-folder a key, holding the run's ``steps.jsonl``,
    ``summary.json``, ``screens/step_*.png`` and ``cache.json`` (the instruction and device kind)."""

    def __init__(self, folder: str | Path, mode: str = "read-write") -> None:
        self.dir = Path(folder)
        if mode not in CACHE_MODES:
            raise ConfigError(f"--cache-mode must be one of {', '.join(CACHE_MODES)}, got {mode!r}")
        self.mode = mode
        if self.dir.exists() and not self.dir.is_dir():
            raise ConfigError(f"--cache {self.dir} is a file; give a folder for the cached runs")
        if mode == "read-only":
            _shared_folder(self.dir)
            return
        # a kept run is replayed with no model: only a folder of the user's own, that no one else
        # may write, is trusted (made 0700 when missing)
        private_folder(self.dir, "--cache")

    def entry(self, instruction: str, kind: str) -> Path:
        return self.dir / cache_key(instruction, kind)

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the folder's writer lock: one writer at a time, in this process (threads: several
        phones at once) and across processes and machines sharing the folder (``flock`` on
        ``.writer.lock``). A writer waits up to :data:`WRITER_WAIT_S` for another to finish."""
        if self.mode == "read-only":
            raise ConfigError(f"--cache {self.dir} is read-only here (--cache-mode read-only): nothing is written")
        with _IN_PROCESS_GUARD:
            local = _IN_PROCESS.setdefault(str(self.dir.resolve()), threading.Lock())
        if not local.acquire(timeout=WRITER_WAIT_S):
            raise StorageError(f"another writer of the cache {self.dir} held it for {WRITER_WAIT_S:.0f} s; try again")
        try:
            try:
                fd = os.open(self.dir / WRITER_LOCK, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
            except OSError as exc:
                raise storage_error(exc, self.dir / WRITER_LOCK, "create") from exc
            with _locked(fd, self.dir):
                yield
        finally:
            local.release()

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the folder's lock shared while an entry is read, so that no writer replaces it half
        read (a folder with no lock file yet, or one this user cannot open, is read as it is)."""
        try:
            fd = os.open(self.dir / WRITER_LOCK, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            yield
            return
        with _locked(fd, self.dir, shared=True):
            yield

    def entries(self) -> list[CacheEntry]:
        """Every kept run in the folder, newest first (a folder that is not an entry is left out)."""
        with self.reading():
            return self._entries()

    def _entries(self) -> list[CacheEntry]:
        out = []
        for folder in self.dir.iterdir() if self.dir.is_dir() else ():
            if folder.is_symlink() or not folder.is_dir() or "." in folder.name:
                continue
            entry = CacheEntry.read(folder)
            if entry is not None:
                out.append(entry)
        return sorted(out, key=lambda e: -e.kept_at)

    def find(self, key: str, _held: bool = False) -> CacheEntry:
        """The entry whose key is ``key`` or starts with it; a ConfigError naming the keys otherwise."""
        key = key.strip()
        hits = [e for e in (self._entries() if _held else self.entries()) if e.key.startswith(key)] if key else []
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise ConfigError(f"no kept run {key!r} in {self.dir} (`mobile-agent cache list --cache {self.dir}` "
                              "shows the keys)")
        raise ConfigError(f"{key!r} names {len(hits)} kept runs ({', '.join(e.key for e in hits)}): give more of the key")

    def remove(self, key: str) -> CacheEntry:
        """Remove the entry ``key`` (or the one it begins) under the writer lock; returns what it was."""
        with self.writing():
            entry = self.find(key, _held=True)
            old = Path(tempfile.mkdtemp(prefix=f"{entry.key}.old-", dir=self.dir))
            try:
                entry.folder.rename(old / "entry")
            except OSError as exc:
                shutil.rmtree(old, ignore_errors=True)
                raise storage_error(exc, entry.folder, "remove") from exc
            shutil.rmtree(old, ignore_errors=True)
        return entry

    def note_replay(self, recording_folder: str | Path, summary: dict[str, Any]) -> None:
        """After a run that replayed the entry in ``recording_folder``: when, and whether it
        diverged (planned a step, or did not complete), in the entry's ``replays.json``."""
        folder = Path(recording_folder)
        if self.mode != "read-write" or folder.parent.resolve() != self.dir.resolve() or folder.is_symlink() \
                or not (folder / "cache.json").is_file():
            return
        replay = summary.get("replay") if isinstance(summary.get("replay"), dict) else {}
        diverged = bool(replay.get("planned_steps")) or bool(replay.get("divergences")) or not summary.get("completed")
        with self.writing():
            try:
                before = load_json((folder / REPLAYS).read_text(encoding="utf-8"))
                count = before.get("replays", 0) if isinstance(before, dict) else 0
            except (OSError, ValueError):
                count = 0
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                count = 0  # a count this cache did not write
            if not (folder / "cache.json").is_file():  # replaced meanwhile by another writer's run
                return
            atomic_write_text(folder / REPLAYS, json.dumps(
                {"last_replayed": time.time(), "replays": count + 1, "diverged": diverged,
                 "outcome": summary.get("outcome")}, ensure_ascii=False))

    def lookup(self, instruction: str, kind: str, params: dict[str, str] | None = None) -> Recording | None:
        """The cached run of ``instruction`` on ``kind``, or None (none kept, or one that cannot be
        read: it is logged and left for :meth:`keep` to replace; always None with ``--cache-mode
        write-only``). ``params`` ({NAME: VALUE} of ``--param``): the instruction's VALUE is the
        entry's ``{NAME}``, which the replay types as VALUE."""
        if self.mode == "write-only":
            return None
        with self.reading():
            return self._lookup(instruction, kind, params or {})

    def _lookup(self, instruction: str, kind: str, params: dict[str, str]) -> Recording | None:
        instruction = with_placeholders(instruction, params)
        folder = self.entry(instruction, kind)
        if not (folder / STEPS).is_file():
            return None
        if folder.is_symlink():  # an entry is a folder the cache wrote, never a link to elsewhere
            log.warning("the cached run %s is a symbolic link, not a kept run: not used", folder)
            return None
        try:
            meta = load_json((folder / "cache.json").read_text(encoding="utf-8"))
            if normalise_instruction(meta["instruction"]) != normalise_instruction(instruction) \
                    or meta["device_kind"] != kind:
                return None
            return Recording.load(folder, {placeholder(k): v for k, v in params.items()})
        except (OSError, ValueError, KeyError, TypeError, AttributeError, ReplayError) as exc:
            log.warning("the cached run in %s cannot be used: %s", folder, exc)
            return None

    def keep(self, run_dir: str | Path, instruction: str, kind: str, secrets: Sequence[str] = (),
             confirmed: bool = False, *, values: dict[str, str] | None = None,
             secret_names: Sequence[str] = (), perception: Any = None) -> str | None:
        """Keep the run in ``run_dir`` under ``instruction`` and ``kind``. Returns None when it was
        kept, else why not (it did not complete, its Stop was not confirmed, it holds a secret).
        ``confirmed``: the caller confirmed the run otherwise (the benchmark's check of the phone's
        state), so a Stop nobody checked is kept too. ``secrets``: values that must not be kept
        (a run that holds one is not). ``values`` ({NAME: VALUE} of ``--param`` and ``--secret``,
        ``secret_names`` the secrets'): kept as ``{NAME}``, their lines in the screenshots painted
        over, which needs ``perception`` (to read the screenshots)."""
        if self.mode == "read-only":
            return "not kept: --cache-mode read-only"
        run_dir = Path(run_dir)
        values = {k: v for k, v in (values or {}).items() if v}
        instruction = with_placeholders(instruction, values)
        summary = read_summary(run_dir) or {}
        if not summary.get("completed"):
            return f"not kept: the run did not complete ({summary.get('outcome', 'no summary')})"
        steps = read_steps(run_dir)
        last = steps[-1] if steps else None
        if last is None or last.completion is None or not last.completion.complete \
                or (last.completion.reason == NOT_CHECKED and not confirmed):
            return "not kept: the run's Stop was not confirmed (a completion check, or a replay's match)"
        text = (run_dir / STEPS).read_text(encoding="utf-8") + json.dumps(summary, ensure_ascii=False)
        if any(s and s in text for s in secrets):
            return "not kept: the run typed a secret (a --param value), which its record and screenshots show"
        target = self.entry(instruction, kind)
        replay = summary.get("replay")
        if isinstance(replay, dict) and replay.get("planned_steps") == 0 and str(replay.get("recording")) == str(target) \
                and (target / STEPS).is_file():
            return None  # replayed whole from this entry: it stays (with the lines read off its screens)
        if values and perception is None:
            return "not kept: the screenshots of a run with --param or --secret values need perception to be painted over"
        with self.writing():  # one writer at a time; the entry appears whole (renamed into place)
            return self._write(run_dir, target, instruction, kind, steps, values, secret_names, perception)

    def _write(self, run_dir: Path, target: Path, instruction: str, kind: str, steps: list, values: dict[str, str],
               secret_names: Sequence[str], perception: Any) -> str | None:
        try:
            # a new folder of a name no one can plant beforehand (mkdtemp: created exclusively, 0700),
            # so that no link placed in the cache folder is followed
            tmp = Path(tempfile.mkdtemp(prefix=f"{target.name}.new-", dir=self.dir))
        except OSError as exc:
            raise storage_error(exc, target, "write") from exc
        try:
            (tmp / SCREENS).mkdir()
            if values:
                _copy_json(run_dir / STEPS, tmp / STEPS, values, lines=True)
                _copy_json(run_dir / SUMMARY, tmp / SUMMARY, values)
            else:
                shutil.copy2(run_dir / STEPS, tmp / STEPS)
                shutil.copy2(run_dir / SUMMARY, tmp / SUMMARY)
                for name in (LINES, PARSES):  # the screens as the run read them: a replay reads only what changed
                    if (run_dir / name).is_file() and not (run_dir / name).is_symlink():
                        shutil.copy2(run_dir / name, tmp / name)
            read: dict[str, list] = {}
            for s in steps:
                if not s.screenshot or not s.screenshot.startswith(SCREENS + "/"):
                    continue
                try:  # only the run's own screens/ files, read and written inside the two folders
                    src, dst = path_inside(run_dir, s.screenshot), path_inside(tmp, s.screenshot)
                except ValueError:
                    continue
                if src.is_file():
                    if values:
                        read[str(s.step)] = _painted(src, dst, values, perception)
                    else:
                        shutil.copy2(src, dst)
            if values:
                atomic_write_text(tmp / LINES, json.dumps(read, ensure_ascii=False))
            atomic_write_text(tmp / "cache.json", json.dumps(
                {"instruction": instruction, "device_kind": kind, "from": str(run_dir),
                 "params": sorted(set(values) - set(secret_names)), "secrets": sorted(set(secret_names) & set(values))},
                ensure_ascii=False))
            leaked = _holds(tmp, values.values())
            if leaked:
                shutil.rmtree(tmp, ignore_errors=True)
                return f"not kept: a --param or --secret value is still in {leaked} after it was replaced"
            old = Path(tempfile.mkdtemp(prefix=f"{target.name}.old-", dir=self.dir))
            if target.is_symlink() or target.exists():
                target.rename(old / "entry")  # a link is moved away as a link, never followed
            tmp.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise storage_error(exc, target, "write") from exc
        return None


@dataclass(frozen=True)
class CacheEntry:
    """One kept run, as ``mobile-agent cache list`` shows it: its key (the folder's name), the
    instruction template (``{NAME}`` for a parameter or secret), the device kind, its steps (the
    recorded operations), when it was kept and from which run, and when it was last replayed and
    whether that replay diverged (planned a step of its own, or did not complete)."""

    key: str
    folder: Path
    instruction: str
    device_kind: str
    steps: tuple[str, ...]
    kept_at: float
    kept_from: str
    params: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()
    last_replayed: float | None = None
    replays: int = 0
    diverged: bool | None = None

    @classmethod
    def read(cls, folder: Path) -> CacheEntry | None:
        try:
            meta = load_json((folder / "cache.json").read_text(encoding="utf-8"))
            kept_at = (folder / "cache.json").stat().st_mtime
            steps = tuple(s.action or "?" for s in read_steps(folder))
        except (OSError, ValueError, TypeError):
            return None
        if not isinstance(meta, dict) or not isinstance(meta.get("instruction"), str):
            return None
        replays: dict[str, Any] = {}
        try:
            loaded = load_json((folder / REPLAYS).read_text(encoding="utf-8"))
            replays = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            pass
        last = replays.get("last_replayed")
        count = replays.get("replays")
        return cls(folder.name, folder, meta["instruction"], str(meta.get("device_kind", "?")), steps, kept_at,
                   str(meta.get("from") or ""), _names(meta.get("params")), _names(meta.get("secrets")),
                   float(last) if isinstance(last, (int, float)) and math.isfinite(last) else None,
                   count if isinstance(count, int) and not isinstance(count, bool) and count >= 0 else 0,
                   replays.get("diverged") if isinstance(replays.get("diverged"), bool) else None)


def _names(value: Any) -> tuple[str, ...]:
    """A kept list of names (``params``, ``secrets``) as the entry holds it; anything else (a number,
    a string, an object: a file not written by this cache) is no names."""
    if not isinstance(value, list):
        return ()
    return tuple(v for v in value if isinstance(v, str))


def _shared_folder(path: Path) -> None:
    """``--cache-mode read-only``: a folder that exists and that no one but its owner may write (the
    owner may be another user, whose kept runs this run trusts and never writes into)."""
    import stat

    if not path.is_dir():
        raise ConfigError(f"--cache {path} does not exist: a read-only cache is one that was filled before "
                          "(leave out --cache-mode read-only to start one)")
    mode = path.stat().st_mode
    if mode & 0o022:
        raise ConfigError(f"--cache {path} can be written by users other than its owner (mode "
                          f"{stat.S_IMODE(mode):04o}); what it holds cannot be trusted: its owner can chmod go-w {path}")


def _hold(lock: Callable[[], Any], busy: type[OSError], folder: Path, pause_s: float) -> None:
    """``lock()`` (a lock that does not wait) tried every ``pause_s`` while another holds it (``busy``
    raised), for at most ``WRITER_WAIT_S``; then a :class:`StorageError`."""
    deadline = time.monotonic() + WRITER_WAIT_S
    while True:
        try:
            lock()
            return
        except busy:
            if time.monotonic() > deadline:
                raise StorageError(f"another writer of the cache {folder} held it for {WRITER_WAIT_S:.0f} s; "
                                   "try again") from None
            time.sleep(pause_s)


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _flock(fd: int, folder: Path, shared: bool = False) -> None:
        if shared:  # Windows locks are exclusive only: a reader goes without
            return
        _hold(lambda: msvcrt.locking(fd, msvcrt.LK_NBLCK, 1), OSError, folder, 0.1)

    def _funlock(fd: int) -> None:
        try:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
else:
    import fcntl

    def _flock(fd: int, folder: Path, shared: bool = False) -> None:
        _hold(lambda: fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB),
              BlockingIOError, folder, 0.05)

    def _funlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


@contextlib.contextmanager
def _locked(fd: int, folder: Path, shared: bool = False) -> Iterator[None]:
    """The open lock file ``fd`` held (shared, or alone) while the block runs, then let go and closed."""
    try:
        _flock(fd, folder, shared)
        try:
            yield
        finally:
            _funlock(fd)
    finally:
        os.close(fd)


def _replace_all(obj: Any, values: dict[str, str]) -> Any:
    """``obj`` (parsed JSON) with every value of ``values`` in its strings written ``{NAME}``."""
    if isinstance(obj, str):
        return with_placeholders(obj, values)
    if isinstance(obj, list):
        return [_replace_all(x, values) for x in obj]
    if isinstance(obj, dict):
        return {with_placeholders(str(k), values): _replace_all(v, values) for k, v in obj.items()}
    return obj


def _copy_json(src: Path, dst: Path, values: dict[str, str], lines: bool = False) -> None:
    """Copy a JSON file (``lines``: JSON lines) with :func:`_replace_all` applied."""
    text = src.read_text(encoding="utf-8")
    if lines:
        out = "".join(json.dumps(_replace_all(load_json(ln), values), ensure_ascii=False) + "\n"
                      for ln in text.splitlines() if ln.strip())
    else:
        out = json.dumps(_replace_all(load_json(text), values), ensure_ascii=False, indent=2) + "\n"
    atomic_write_text(dst, out)


def _shows(text: str, value: str) -> bool:
    """Whether a line read as ``text`` shows ``value`` (as it is, or read a letter off by OCR)."""
    from rapidfuzz import fuzz

    t, v = text.casefold(), value.casefold()
    # the line must be about as long as the value at least: a key of the keyboard ('a') is no part
    # of 'Anna', though partial_ratio would find it there
    return v in t or (len(v) >= 4 and len(t) >= len(v) - 1 and fuzz.partial_ratio(v, t) >= 85)


def _painted(src: Path, dst: Path, values: dict[str, str], perception: Any) -> list:
    """Copy screenshot ``src`` to ``dst`` with the lines that show a value painted over (the colour
    around each), and return its lines for ``lines.json`` ([height, [(text, y1, y2)]]) with the values
    written ``{NAME}`` (a line read a letter off becomes the placeholder alone)."""
    from PIL import ImageDraw

    from mobile_agent.types import load_image

    image = load_image(src)  # at most 40 million pixels, checked before decoding
    lines = []
    draw = ImageDraw.Draw(image)
    for ln in perception.parse(image).lines:
        text = ln.text
        hit = [(n, v) for n, v in values.items() if _shows(text, v)]
        if hit:
            b = ln.box
            pad = max(2, (b.y2 - b.y1) // 4)
            x1, y1, x2, y2 = max(0, b.x1 - pad), max(0, b.y1 - pad), min(image.width - 1, b.x2 + pad), \
                min(image.height - 1, b.y2 + pad)
            draw.rectangle((x1, y1, x2, y2), fill=image.getpixel((x1, y1)))
            replaced = with_placeholders(text, values)
            text = replaced if replaced != text else " ".join(placeholder(n) for n, _ in hit)
        lines.append([text, int(ln.box.y1), int(ln.box.y2)])
    image.save(dst)
    return [image.size[1], lines]


def _holds(folder: Path, values: Any) -> str | None:
    """The first file under ``folder`` whose bytes hold one of ``values`` (None when none does)."""
    needles = [v.encode("utf-8") for v in values if v] + [json.dumps(v)[1:-1].encode() for v in values if v]
    for f in sorted(folder.rglob("*")):
        if f.is_file() and f.suffix in (".json", ".jsonl"):  # the screenshots: painted over by what OCR read
            data = f.read_bytes()
            if any(n in data for n in needles):
                return f.name
    return None

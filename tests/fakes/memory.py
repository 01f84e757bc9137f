"""What a test worker holds: its peak resident memory, and the tests after which its resident memory
grew most, printed in pytest's terminal summary (one line per worker with ``-n``), beside the peak
of the whole process tree (pytest, its workers and every process they started: subprocesses, Ray's
processes), so that the README's memory figures are measured, not guessed; and, between test files,
the freed memory handed back to the system (:func:`after_test`), so that a worker does not carry one
file's freed heap into the next. Every figure is in GiB (1024 ** 3 bytes).

The tree's peak is sampled (:class:`TreeSampler`: the sum of the resident memory of pytest's process
and all its descendants, every half second, by psutil), so a spike shorter than that can be missed;
a worker's peak is the kernel's own (``ru_maxrss``), exact.

tests/conftest.py calls :func:`after_test` after each test, :func:`worker_done` at a worker's end
and :func:`summary` in the terminal summary; a worker hands its figures to the controller through
xdist's ``workeroutput``. Reading ``/proc/self/statm`` after each test costs microseconds (Linux;
elsewhere only the peak is printed).
"""

from __future__ import annotations

import heapq
import os
import resource
import sys
import threading
from typing import Any, Callable

GB = 1024 ** 3
#: how many of the tests after which memory grew most are named per worker, and the least growth named
TOP = 5
NOTABLE = 50 * 1024 ** 2

_page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_last: list[int] = []
_growth: list[tuple[int, str]] = []  # (bytes grown, test id), the TOP largest
_seen: dict[str, dict[str, Any]] = {}


def rss_bytes() -> int | None:
    """This process's resident memory now (Linux), else None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _page
    except (OSError, ValueError, IndexError):
        return None


def peak_bytes() -> int:
    """This process's peak resident memory (``ru_maxrss``: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def children_peak_bytes() -> int:
    """The peak resident memory of the largest subprocess this process waited for."""
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def _libc_trim() -> Callable[[], Any] | None:
    """glibc's ``malloc_trim(0)``, which hands the heap's free pages back to the system; None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


_trim = _libc_trim()
_module: list[str] = []


def before_test(nodeid: str) -> None:
    """Before a test file's first test (the last file's module fixtures torn down): the memory freed
    so far is handed back (glibc keeps freed pages for the process: a screen set's 60 screens, drawn
    and dropped, left 0.79 GB resident, 0.27 GB after the trim)."""
    module = nodeid.split("::", 1)[0]
    if _trim is not None and _module and _module[0] != module:
        _trim(0)
    _module[:] = [module]


def after_test(nodeid: str) -> None:
    """After each test: how much resident memory grew while it ran (the largest growths are named)."""
    now = rss_bytes()
    if now is None:
        return
    if _last:
        grown = now - _last[0]
        if grown >= NOTABLE:
            item = (grown, nodeid)
            if len(_growth) < TOP:
                heapq.heappush(_growth, item)
            else:
                heapq.heappushpop(_growth, item)
        _last[0] = now
    else:
        _last.append(now)


def figures() -> dict[str, Any]:
    return {"peak": peak_bytes(), "children_peak": children_peak_bytes(), "now": rss_bytes(),
            "growth": sorted(_growth, reverse=True)}


def worker_done(config: Any) -> None:
    """At a worker's end: its figures for the controller (xdist's ``workeroutput``)."""
    out = getattr(config, "workeroutput", None)
    if out is not None:
        out["memory"] = figures()


def node_down(node: Any) -> None:
    """On the controller, a worker ended: keep its figures."""
    got = getattr(node, "workeroutput", {}).get("memory")
    if got:
        _seen[node.gateway.id] = got


def lines() -> list[str]:
    """The summary's lines: per worker (or for this process without xdist) the peak resident memory,
    the largest subprocess's, and the tests after which resident memory grew most."""
    per = dict(_seen) or {"this process": figures()}
    out = []
    for name, f in sorted(per.items()):
        out.append(f"{name}: peak RSS {f['peak'] / GB:.2f} GiB (largest subprocess {f['children_peak'] / GB:.2f} GiB)")
        for grown, nodeid in f["growth"]:
            out.append(f"    +{grown / GB:.2f} GiB after {nodeid}")
    return out


class TreeSampler:
    """The peak of the summed resident memory of this process and all its descendants, sampled every
    ``every_s`` seconds on a daemon thread from :meth:`start` to :meth:`stop` (psutil)."""

    def __init__(self, every_s: float = 0.5) -> None:
        self.every_s = every_s
        self.peak = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def sample(self) -> int:
        import psutil

        me = psutil.Process()
        total = 0
        for proc in [me, *me.children(recursive=True)]:
            try:
                total += proc.memory_info().rss
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                continue
        self.peak = max(self.peak, total)
        return total

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self.sample()

    def start(self) -> None:
        self.sample()
        self._thread = threading.Thread(target=self._run, name="memory-tree-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> int:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        return self.peak


_tree: list[TreeSampler] = []


def controller_start(config: Any) -> None:
    """In pytest's own process (not in an xdist worker): start sampling the process tree."""
    if getattr(config, "workerinput", None) is None and not _tree:
        sampler = TreeSampler()
        sampler.start()
        _tree.append(sampler)


def summary(reporter: Any) -> None:
    reporter.write_sep("-", "memory per test worker (GiB)")
    for line in lines():
        reporter.write_line(line)
    if _tree:
        peak = _tree[0].stop()
        reporter.write_line(f"whole process tree (pytest, its workers and their subprocesses): peak RSS "
                            f"{peak / GB:.2f} GiB (sampled every {_tree[0].every_s:g} s)")

"""Reading a run's trajectory folder for the report, tolerating whatever a crash left behind.

The folder format is fixed in docs/interfaces.md (``summary.json``, ``steps.jsonl``, ``screens/``).
Unlike the agent's own reader, this one never fails on bad content: a missing file, a line cut off
mid-write, a step number that is skipped or a screenshot that cannot be decoded each become a
:class:`Gap` that the report shows where it happened.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import UnidentifiedImageError

from mobile_agent.errors import ImageError
from mobile_agent.fsutil import load_json, path_inside
from mobile_agent.types import open_checked

SUMMARY = "summary.json"
STEPS = "steps.jsonl"
SCREENS = "screens"
FINAL = "screens/final.png"
VERDICT = "benchmark.json"  # the benchmark's verdict on the run, when a benchmark ran it


@dataclass(frozen=True)
class Gap:
    """Something the run folder should hold and does not. ``after_step``: the step it follows
    (0: before the first step; None: about the whole run)."""

    message: str
    after_step: int | None = None


@dataclass(frozen=True)
class Screen:
    """A screenshot file of the run: its path relative to the run folder, and its pixel size when
    it could be read (``error`` says why not)."""

    rel: str
    path: Path
    size: tuple[int, int] | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.size is not None


@dataclass
class Step:
    """One step record (the raw dict from ``steps.jsonl``) with its screenshots resolved."""

    number: int
    record: dict[str, Any]
    screen: Screen | None
    annotated: Screen | None
    line: int  # 1-based line of steps.jsonl


@dataclass
class RunData:
    """Everything the trajectory report shows about one run."""

    run_dir: Path
    summary: dict[str, Any] | None
    steps: list[Step] = field(default_factory=list)
    final: Screen | None = None
    gaps: list[Gap] = field(default_factory=list)
    verdict: dict[str, Any] | None = None  # benchmark.json, when the run is a benchmark task

    def gaps_after(self, step: int | None) -> list[Gap]:
        return [g for g in self.gaps if g.after_step == step]


def read_screen(run_dir: Path, rel: Any) -> Screen | None:
    """Resolve a screenshot path of a step record; None when the record names none."""
    if not isinstance(rel, str) or not rel:
        return None
    try:
        path = path_inside(run_dir, rel)
    except ValueError as exc:
        return Screen(rel, run_dir / rel, None, str(exc))
    try:
        if not path.is_file():
            return Screen(rel, path, None, "file missing")
    except (OSError, ValueError):
        return Screen(rel, path, None, "not a usable file name")
    try:
        with open_checked(path, rel) as im:  # from the header: a bomb is never decoded (thumbnails)
            size = im.size
            im.verify()  # catches a file cut off mid-write
    except ImageError as exc:
        return Screen(rel, path, None, str(exc))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        return Screen(rel, path, None, f"cannot be decoded ({exc})")
    if size[0] <= 0 or size[1] <= 0:
        return Screen(rel, path, None, "image has no pixels")
    return Screen(rel, path, size)


def _read_json(p: Path) -> tuple[Any, json.JSONDecodeError | None]:
    """A JSON file's value, or the error that says why it is not JSON."""
    try:
        return load_json(p.read_text(encoding="utf-8", errors="replace")), None
    except json.JSONDecodeError as exc:
        return None, exc


def _read_summary(run_dir: Path, gaps: list[Gap]) -> dict[str, Any] | None:
    p = run_dir / SUMMARY
    if not p.is_file():
        gaps.append(Gap(f"no {SUMMARY}: the run did not finish (it crashed, was killed, or is still running)."))
        return None
    data, exc = _read_json(p)
    if exc is not None:
        gaps.append(Gap(f"{SUMMARY} is not valid JSON ({exc.msg} at line {exc.lineno}); it was probably cut off."))
        return None
    if not isinstance(data, dict):
        gaps.append(Gap(f"{SUMMARY} holds a {type(data).__name__}, not an object; ignored."))
        return None
    return data


def _read_steps(run_dir: Path, gaps: list[Gap]) -> list[Step]:
    p = run_dir / STEPS
    if not p.is_file():
        gaps.append(Gap(f"no {STEPS}: no step was recorded.", after_step=0))
        return []
    raw = p.read_bytes()
    text = raw.decode("utf-8", errors="replace")
    lines = text.split("\n")
    cut_last = not text.endswith("\n") and text != ""
    steps: list[Step] = []
    last = 0
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = load_json(line)
        except json.JSONDecodeError:
            where = "the last line" if (i == len(lines) and cut_last) else f"line {i}"
            gaps.append(Gap(f"{STEPS}: {where} is cut off or not JSON ({len(line)} characters); "
                            f"the step it held is lost.", after_step=last))
            continue
        if not isinstance(rec, dict):
            gaps.append(Gap(f"{STEPS}: line {i} is a {type(rec).__name__}, not a step object.", after_step=last))
            continue
        n = rec.get("step")
        if not isinstance(n, int) or isinstance(n, bool):
            n = last + 1
            gaps.append(Gap(f"{STEPS}: line {i} has no step number; shown as step {n}.", after_step=last))
        if n > last + 1:
            missing = f"step {last + 1}" if n == last + 2 else f"steps {last + 1}-{n - 1}"
            gaps.append(Gap(f"{missing} missing from {STEPS}.", after_step=last))
        steps.append(Step(n, rec, read_screen(run_dir, rec.get("screenshot")),
                          read_screen(run_dir, rec.get("annotated")), i))
        last = max(last, n)
    return steps


def read_run(run_dir: str | Path) -> RunData:
    """Read a trajectory folder. Never raises for bad content; see :class:`Gap`."""
    run_dir = Path(run_dir)
    gaps: list[Gap] = []
    summary = _read_summary(run_dir, gaps)
    steps = _read_steps(run_dir, gaps)
    if summary is not None:
        declared = summary.get("steps")
        if isinstance(declared, int) and not isinstance(declared, bool) and steps:
            recorded = max(s.number for s in steps)
            if declared > recorded:
                gaps.append(Gap(f"{SUMMARY} counts {declared} steps but {STEPS} ends at step {recorded}.",
                                after_step=recorded))
        elif isinstance(declared, int) and declared > 0 and not steps and (run_dir / STEPS).is_file():
            gaps.append(Gap(f"{SUMMARY} counts {declared} steps but {STEPS} holds none.", after_step=0))
    final = read_screen(run_dir, FINAL) if (run_dir / FINAL).exists() else None
    return RunData(run_dir, summary, steps, final, gaps, _read_verdict(run_dir, gaps))


def _read_verdict(run_dir: Path, gaps: list[Gap]) -> dict[str, Any] | None:
    p = run_dir / VERDICT
    if not p.is_file():
        return None
    data, exc = _read_json(p)
    if exc is not None:
        gaps.append(Gap(f"{VERDICT} is not valid JSON ({exc.msg}); the benchmark's verdict is unknown."))
        return None
    return data if isinstance(data, dict) else None

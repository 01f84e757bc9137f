"""The trajectory folder of a run: ``summary.json``, ``steps.jsonl`` and ``screens/``.

The format is fixed by docs/interfaces.md (the report and the benchmark read it). A step is one line
appended to ``steps.jsonl`` (a write that fails is cut back, so the file never holds half a line);
every other file is written atomically (a temporary file renamed over the target). A crash leaves
every finished step readable, and a long run's writing grows with its steps, not their square.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, Sequence

from PIL import Image, ImageDraw

from mobile_agent.agent.record import StepRecord
from mobile_agent.device.gestures import Gesture, LongPress, Swipe, Tap
from mobile_agent.errors import ConfigError, redact, redact_json
from mobile_agent.fsutil import atomic_write_bytes, atomic_write_text, load_json, storage_error  # noqa: F401 - re-exported

SUMMARY = "summary.json"
STEPS = "steps.jsonl"
SCREENS = "screens"
OUTCOMES = ("completed", "step_limit", "time_limit", "loop", "interrupted", "error", "dry_run")


def draw_gesture(image: Image.Image, gesture: Gesture, boxes: Sequence[Sequence[int]] = ()) -> Image.Image:
    """A copy of ``image`` with the candidate ``boxes`` outlined and the gesture drawn: a ring and
    cross at a tap (a second ring for a long press), an arrow for a swipe."""
    out = image.convert("RGB").copy()
    d = ImageDraw.Draw(out)
    r = max(12, min(out.size) // 30)
    lw = max(3, min(out.size) // 200)
    for b in boxes:
        d.rectangle([b[0], b[1], b[2] - 1, b[3] - 1], outline=(255, 170, 0), width=max(2, lw // 2))
    red = (230, 20, 40)
    if isinstance(gesture, (Tap, LongPress)):
        x, y = gesture.x, gesture.y
        d.ellipse([x - r, y - r, x + r, y + r], outline=red, width=lw)
        d.line([x - r // 2, y, x + r // 2, y], fill=red, width=lw)
        d.line([x, y - r // 2, x, y + r // 2], fill=red, width=lw)
        if isinstance(gesture, LongPress):
            R = int(r * 1.5)
            d.ellipse([x - R, y - R, x + R, y + R], outline=red, width=lw)
    elif isinstance(gesture, Swipe):
        x1, y1, x2, y2 = gesture.x1, gesture.y1, gesture.x2, gesture.y2
        d.line([x1, y1, x2, y2], fill=red, width=lw)
        d.ellipse([x1 - r // 2, y1 - r // 2, x1 + r // 2, y1 + r // 2], outline=red, width=lw)
        dx, dy = x2 - x1, y2 - y1
        n = max(1.0, (dx * dx + dy * dy) ** 0.5)
        ux, uy = dx / n, dy / n
        for sx in (1, -1):
            hx = x2 - r * ux + sx * r * 0.6 * -uy
            hy = y2 - r * uy + sx * r * 0.6 * ux
            d.line([x2, y2, hx, hy], fill=red, width=lw)
    return out


def _png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


class TrajectoryWriter:
    """Writes one run's folder as the run goes."""

    def __init__(self, out_dir: str | Path, overwrite: bool = False) -> None:
        self.dir = Path(out_dir)
        # fleet.json (agent.fleet.FLEET_FILE): the folder of a run on several phones, whose combined
        # report.html a single run would write over
        earlier = [name for name in (SUMMARY, STEPS, "fleet.json") if (self.dir / name).exists()]
        if earlier and not overwrite:
            raise ConfigError(f"{self.dir} already holds a run ({earlier[0]}): choose another folder, or "
                              f"overwrite it (--overwrite; AgentSettings(overwrite=True))")
        try:
            (self.dir / SCREENS).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise storage_error(exc, self.dir / SCREENS, "create") from exc
        if earlier:
            # overwrite: start a fresh record rather than mix two runs; the earlier run's
            # screenshots go too (a rerun of a benchmark task writes its folder again).
            for p in [self.dir / STEPS, self.dir / SUMMARY, self.dir / "lines.json", self.dir / "parses.json",
                      *(self.dir / SCREENS).glob("*.png")]:  # lines.json, parses.json: the screens as read
                try:
                    p.unlink()
                except FileNotFoundError:
                    pass

    @staticmethod
    def screen_path(name: str) -> str:
        """Where :meth:`save_screen` puts the screenshot ``name``, relative to the run folder."""
        return f"{SCREENS}/{name}.png"

    def save_screen(self, name: str, image: Image.Image) -> str:
        """Save ``image`` as ``screens/<name>.png``; returns the path relative to the run folder."""
        rel = self.screen_path(name)
        atomic_write_bytes(self.dir / rel, _png(image))
        return rel

    def append_step(self, record: StepRecord) -> None:
        """Add one step to ``steps.jsonl``: one line appended (secrets redacted). A write that fails
        (a full disk) is cut back to the end of the step before, so the file never holds half a line,
        and raises :class:`~mobile_agent.errors.StorageError` naming the file."""
        line = redact_json(record.to_dict(), ensure_ascii=False)  # no key, no --secret value reaches the file
        data = memoryview((line + "\n").encode("utf-8"))
        path = self.dir / STEPS
        try:
            with open(path, "ab", buffering=0) as f:
                start = f.tell()
                try:
                    while data:
                        n = f.write(data)
                        data = data[n or 0:]
                except BaseException:
                    f.truncate(start)
                    raise
        except OSError as exc:
            raise storage_error(exc, path) from exc

    def write_summary(self, summary: dict[str, Any]) -> None:
        atomic_write_text(self.dir / SUMMARY, redact_json(summary, ensure_ascii=False, indent=2) + "\n")


def read_steps(run_dir: str | Path) -> list[StepRecord]:
    """The step records of a run folder (empty when it has none yet), of this version or an
    earlier one. Raises ``ValueError`` naming the line for a line that is not a step record (the
    report's own reader, :mod:`mobile_agent.report.rundata`, tolerates those instead)."""
    p = Path(run_dir) / STEPS
    if not p.exists():
        return []
    out: list[StepRecord] = []
    text = p.read_text(encoding="utf-8")
    lines = text.splitlines()
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            out.append(StepRecord.from_dict(load_json(line)))
        except ValueError as exc:  # json.JSONDecodeError is a ValueError too
            if i == len(lines) and not text.endswith("\n"):
                break  # a last line cut off by a crash mid-write (a file of another writer): not a step
            raise ValueError(f"{p}: line {i} is not a step record: {exc}") from None
    return out


def read_summary(run_dir: str | Path) -> dict[str, Any] | None:
    p = Path(run_dir) / SUMMARY
    if not p.exists():
        return None
    return load_json(p.read_text(encoding="utf-8"))

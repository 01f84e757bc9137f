"""A cache of completed runs for repeated instructions (``mobile-agent run --cache DIR``).

A run that completed, with its Stop confirmed (by the completion check, or by a replay's match of
the recorded last screen), is kept under its instruction (normalised: case, spaces and the final
full stop aside) and the device's kind (``sim-1080x2400``); the next run of the same instruction on
the same kind of device replays it first (:class:`~mobile_agent.agent.replay.ReplayPlanner`) and
falls back to the model where the phone differs. A run that did not complete is never kept (the
entry there stays as it was), and neither is a run whose record holds a secret given to
:meth:`RunCache.keep` (values typed with ``--param``): its screenshots would show it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import unicodedata
from pathlib import Path
from typing import Sequence

from mobile_agent.agent.planner import NOT_CHECKED
from mobile_agent.agent.replay import Recording, ReplayError
from mobile_agent.agent.trajectory import SCREENS, STEPS, SUMMARY, read_steps, read_summary
from mobile_agent.errors import ConfigError
from mobile_agent.fsutil import atomic_write_text, storage_error

log = logging.getLogger(__name__)


def normalise_instruction(instruction: str) -> str:
    """The instruction as the cache compares it: NFKC, case folded, runs of spaces as one, the
    final full stop (or ! or ?) and spaces around left out."""
    t = " ".join(unicodedata.normalize("NFKC", instruction).casefold().split())
    return t.rstrip(" .!?。")


def cache_key(instruction: str, device_kind: str) -> str:
    """The name of the cache entry of ``instruction`` on ``device_kind`` (16 hex digits)."""
    return hashlib.sha256(f"{device_kind}\n{normalise_instruction(instruction)}".encode("utf-8")).hexdigest()[:16]


def device_kind(device: str, size: tuple[int, int]) -> str:
    """A device's kind for the cache: the kind of device (``sim``, ``adb``) and its screen size."""
    return f"{device.partition(':')[0]}-{size[0]}x{size[1]}"


class RunCache:
    """The folder of cached runs: one sub-folder a key, holding the run's ``steps.jsonl``,
    ``summary.json``, ``screens/step_*.png`` and ``cache.json`` (the instruction and device kind)."""

    def __init__(self, folder: str | Path) -> None:
        self.dir = Path(folder)
        if self.dir.exists() and not self.dir.is_dir():
            raise ConfigError(f"--cache {self.dir} is a file; give a folder for the cached runs")

    def entry(self, instruction: str, kind: str) -> Path:
        return self.dir / cache_key(instruction, kind)

    def lookup(self, instruction: str, kind: str) -> Recording | None:
        """The cached run of ``instruction`` on ``kind``, or None (none kept, or one that cannot be
        read: it is logged and left for :meth:`keep` to replace)."""
        folder = self.entry(instruction, kind)
        if not (folder / STEPS).is_file():
            return None
        try:
            meta = json.loads((folder / "cache.json").read_text(encoding="utf-8"))
            if normalise_instruction(meta["instruction"]) != normalise_instruction(instruction) \
                    or meta["device_kind"] != kind:
                return None
            return Recording.load(folder)
        except (OSError, ValueError, KeyError, TypeError, ReplayError) as exc:
            log.warning("the cached run in %s cannot be used: %s", folder, exc)
            return None

    def keep(self, run_dir: str | Path, instruction: str, kind: str, secrets: Sequence[str] = (),
             confirmed: bool = False) -> str | None:
        """Keep the run in ``run_dir`` under ``instruction`` and ``kind``. Returns None when it was
        kept, else why not (it did not complete, its Stop was not confirmed, it holds a secret).
        ``confirmed``: the caller confirmed the run otherwise (the benchmark's check of the phone's
        state), so a Stop nobody checked is kept too."""
        run_dir = Path(run_dir)
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
        tmp = target.with_name(target.name + ".new")
        try:
            shutil.rmtree(tmp, ignore_errors=True)
            (tmp / SCREENS).mkdir(parents=True)
            shutil.copy2(run_dir / STEPS, tmp / STEPS)
            shutil.copy2(run_dir / SUMMARY, tmp / SUMMARY)
            for s in steps:
                if s.screenshot and (run_dir / s.screenshot).is_file():
                    shutil.copy2(run_dir / s.screenshot, tmp / s.screenshot)
            atomic_write_text(tmp / "cache.json", json.dumps(
                {"instruction": instruction, "device_kind": kind, "from": str(run_dir)}, ensure_ascii=False))
            old = target.with_name(target.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            if target.exists():
                target.rename(old)
            tmp.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise storage_error(exc, target, "write") from exc
        return None

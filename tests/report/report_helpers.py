"""Build real trajectory folders for the report tests: the simulated phone is driven through its ui
tree, and each step is recorded in the format of docs/interfaces.md with the phone's real screenshots."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import TreeDriver, UINode

INSTRUCTION = "Turn on the dark mode"


def _save(run: Path, name: str, phone: SimPhone) -> str:
    rel = f"screens/{name}.png"
    (run / "screens").mkdir(parents=True, exist_ok=True)
    phone.screenshot().save(run / rel, compress_level=1)
    return rel


def _candidates(nodes: list[UINode]) -> list[dict[str, Any]]:
    return [{"box": list(n.bounds.as_tuple()), "point": list(n.bounds.center.as_tuple()), "score": 0.9 - 0.1 * i,
             "text": n.label} for i, n in enumerate(nodes)]


def _record(step: int, shot: str, action: str, op: dict[str, Any], gesture: dict[str, Any],
            grounding: dict[str, Any] | None, verdict: str | None, changed: bool | None) -> dict[str, Any]:
    return {
        "step": step, "screenshot": shot, "annotated": None,
        "model": {"raw": f"### Observation ###\nstep {step}\n### Thought ###\n...\n### Action ###\n{action}",
                  "prompt_tokens": 1200 + step, "completion_tokens": 80 + step, "input_summary": "1 image, 3 messages"},
        "observation": f"The screen before step {step}.", "thought": f"I should do: {action}", "action": action,
        "operation": op, "grounding": grounding, "gesture": gesture,
        "reflection": {"changed": changed, "verdict": verdict, "feedback": None},
        "timings": {"perception_s": 0.2, "model_s": 1.5, "device_s": 0.1, "total_s": 1.8}, "error": None,
    }


def make_run(run: Path, final: bool = True) -> tuple[Path, SimPhone]:
    """A four-step run that turns on the dark theme on the simulated phone (tap Settings, Display,
    the Dark theme switch, then Stop). Returns the folder and the phone in its final state."""
    phone = SimPhone(seed=0)
    drv = TreeDriver(phone)
    run.mkdir(parents=True, exist_ok=True)
    lines: list[str] = []

    def tap_step(step: int, action: str, op: dict[str, Any], node: UINode, candidates: list[UINode]) -> None:
        shot = _save(run, f"step_{step:03d}", phone)
        chosen = candidates.index(node)
        c = node.bounds.center
        grounding = {"status": "found" if len(candidates) == 1 else "ambiguous", "candidates": _candidates(candidates),
                     "chosen": chosen, "message": ""}
        phone.tap(c.x, c.y)
        lines.append(json.dumps(_record(step, shot, action, op, {"kind": "tap", "x": c.x, "y": c.y}, grounding,
                                        "as_expected", True)))

    settings = drv.find(text="Settings")
    tap_step(1, 'Open App ("Settings")', {"op": "open_app", "name": "Settings"}, settings, [settings])
    display = drv.find(text="Display")
    others = [n for n in drv.find_all(contains="display") if n != display][:2]
    tap_step(2, 'Click Text ("Display")', {"op": "click_text", "text": "Display"}, display, [display, *others])
    switches = [n for n in drv.nodes() if n.checkable]
    dark = switches[-1]
    tap_step(3, 'Click Icon ("switch", "right")', {"op": "click_icon", "description": "switch",
                                                  "position": ["right"]}, dark, switches)
    shot = _save(run, "step_004", phone)
    rec = _record(4, shot, "Stop", {"op": "stop"}, {"kind": "none"}, None, "as_expected", None)
    rec["completion"] = {"complete": True, "reason": "The dark theme is on.", "raw": "Yes"}
    lines.append(json.dumps(rec))
    (run / "steps.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if final:
        _save(run, "final", phone)
    summary = {"instruction": INSTRUCTION, "outcome": "completed", "completed": True, "steps": 4,
               "started_at": "2026-12-02T10:00:00Z", "ended_at": "2026-12-02T10:00:09Z", "duration_s": 9.2,
               "tokens": {"prompt": 4810, "completion": 330, "total": 5140}, "cost_usd": 0.0123,
               "model": "scripted", "device": "sim", "error": None}
    (run / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return run, phone


_CACHE: dict[str, Path] = {}


def cached_run() -> Path:
    """One pristine run folder per test process (copy it before changing it)."""
    if "run" not in _CACHE:
        base = Path(tempfile.mkdtemp(prefix="report-run-"))
        _CACHE["run"] = make_run(base / "run")[0]
    return _CACHE["run"]

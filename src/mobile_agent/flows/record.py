"""A run written as a flow of plain steps (``mobile-agent run ... --save-flow FILE``): a run a person
watched becomes a test that needs no model. Each step the run carried out becomes the plain step
that does the same: a tap by the text it hit (or the icon it was asked for, with its position),
typed text with the run's ``--secret`` / ``--param`` values as ``${NAME}`` (the records already
write them ``{NAME}``; their values are never written), the swipes, Back and Home; the run's Stop
ends the flow with an ``assertVisible`` of a text the final screen showed where one is known."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

from mobile_agent.fsutil import atomic_write_text


def _placeholders(text: str, names: set[str]) -> str:
    return re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: "${" + m.group(1) + "}" if m.group(1) in names
                  else m.group(0), text)


def _chosen_text(rec: Any) -> str | None:
    g = rec.grounding
    if g is None or g.chosen is None or not g.candidates or not 0 <= g.chosen < len(g.candidates):
        return None
    text = g.candidates[g.chosen].text
    return str(text) if text else None


def steps_of_run(records: Iterable[Any], names: Iterable[str] = ()) -> tuple[list[Any], list[str]]:
    """The flow steps for the step records of a run, and the notes on what had no plain step."""
    from mobile_agent.agent import operations as ops

    names = set(names)
    steps: list[Any] = []
    notes: list[str] = []
    for rec in records:
        op = rec.operation
        if op is None or not rec.carried_out:
            continue
        hit = _chosen_text(rec)
        if isinstance(op, ops.Stop):
            break
        if isinstance(op, ops.OpenApp):
            steps.append({"launch": op.name})
        elif isinstance(op, (ops.ClickText, ops.ClickIcon, ops.LongPress)):
            key = "longPress" if isinstance(op, ops.LongPress) else "tap"
            if hit:
                steps.append({key: _placeholders(hit, names)})
            elif isinstance(op, ops.ClickText):
                steps.append({key: _placeholders(op.text, names)})
            else:
                desc = op.description if isinstance(op, ops.ClickIcon) else op.target
                target: dict[str, Any] = {"icon": desc}
                if op.position:
                    target["position"] = " ".join(op.position)
                steps.append({key: target})
        elif isinstance(op, ops.Type):
            steps.append({"type": _placeholders(op.text, names)})
        elif isinstance(op, ops.PageDown):
            steps.append({"swipe": "up"})  # the finger moves up: the content scrolls down
        elif isinstance(op, ops.PageUp):
            steps.append({"swipe": "down"})
        elif isinstance(op, ops.Back):
            steps.append("back")
        elif isinstance(op, ops.Exit):
            steps.append("home")
        elif isinstance(op, ops.Wait):
            steps.append({"wait": 2})
        elif isinstance(op, ops.TapPoint):
            steps.append({"tap": _placeholders(hit, names)} if hit else {"tap": {"point": [op.x, op.y]}})
        elif isinstance(op, ops.LongPressPoint):
            steps.append({"longPress": {"point": [op.x, op.y]}})
        elif isinstance(op, (ops.SwipePoints, ops.Drag)):
            steps.append({"swipe": {"from": [op.x1, op.y1], "to": [op.x2, op.y2]}})
        else:
            notes.append(f"step {rec.step}: {op} has no plain step and is left out")
    return steps, notes


def save_flow(run_dir: str | Path, path: str | Path, names: Iterable[str] = (), name: str | None = None,
              secrets: Iterable[str] = ()) -> Path:
    """Write the run in ``run_dir`` as a flow file at ``path`` (see the module's words); ``names``:
    the run's ``--secret`` and ``--param`` names (written ``${NAME}``); ``secrets``: those that are
    ``--secret`` names, declared in the flow's ``secrets:`` (their values given to ``mobile-agent test
    --secret`` or in the environment)."""
    import yaml

    from mobile_agent.agent.trajectory import read_steps, read_summary

    secrets = set(secrets)
    names = set(names) | secrets
    summary = read_summary(run_dir) or {}
    steps, notes = steps_of_run(read_steps(run_dir), names)
    if not steps:
        from mobile_agent.errors import ConfigError

        raise ConfigError(f"the run in {run_dir} carried out no step a flow can repeat: no flow written")
    instruction = str(summary.get("instruction") or "")
    flow: dict[str, Any] = {"name": name or _placeholders(instruction, names) or Path(path).stem}
    if secrets:
        flow["secrets"] = sorted(secrets)
    flow["steps"] = steps
    head = [f"# Recorded from the run in {run_dir} ({summary.get('outcome', '?')}, {len(steps)} step(s)):",
            f"# {instruction}", "# Plain steps: `mobile-agent test FILE` repeats it with no model."]
    head += [f"# {n}" for n in notes]
    if secrets:
        head.append("# Give the secrets' values with mobile-agent test --secret NAME=VALUE or the environment.")
    if names - secrets:
        head.append("# Give the values of " + ", ".join("${" + n + "}" for n in sorted(names - secrets))
                    + " in env: or the environment.")
    text = "\n".join(head) + "\n" + yaml.safe_dump(flow, sort_keys=False, allow_unicode=True, width=120)
    atomic_write_text(path, text)
    return Path(path)

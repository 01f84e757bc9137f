"""The MCP ``run_flow`` tool: a test flow (docs/flows.md) run on the server's phone through the same
gates as the server's own tools. Each tap and long press of the flow (and of its ``ai:`` steps) is
judged by the confirm gate at the point it lands, as ``tap`` is, unless the call says
``allow_risky``; typed Enter is gated as ``type_text``'s; ``launch`` of an app outside the allow-list
is refused, and a gesture that brings such an app to the front is undone (Home) and fails its step.
A refused gesture fails its step with the gate's reason, as any failing step does."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

from mobile_agent.errors import ConfigError, MobileAgentError

#: the longest flow text the tool takes
MAX_FLOW_CHARS = 20_000


class LeftOutside(MobileAgentError):
    """A flow's gesture brought an app outside the allow-list to the front (Home was pressed)."""


class _GatedPhone:
    """The server's device as a flow's phone: gestures go through the server's gates."""

    def __init__(self, tools: Any, allow_risky: bool) -> None:
        self._tools, self._device, self._allow = tools, tools.device, allow_risky

    def __getattr__(self, name: str) -> Any:  # screenshot, ui_tree, wait_still...: the device's own
        return getattr(self._device, name)

    def _leave_outside(self, done: str) -> None:
        outside = self._tools.front_refusal()
        if outside is not None:
            self._device.home()
            raise LeftOutside(f"{done} brought {outside!r} to the front; it is not in this server's allow-list "
                               f"({', '.join(self._tools.options.allowed_apps)}), so Home was pressed")

    def tap(self, x: int, y: int) -> None:
        self._tools._gate_at(self._device.screenshot(), int(x), int(y), self._allow)
        self._device.tap(x, y)
        self._leave_outside(f"the tap at ({x}, {y})")

    def long_press(self, x: int, y: int, *args: Any, **kw: Any) -> None:
        self._tools._gate_at(self._device.screenshot(), int(x), int(y), self._allow, refused="not pressed: ")
        self._device.long_press(x, y, *args, **kw)
        self._leave_outside(f"the long press at ({x}, {y})")

    def type_text(self, text: str, *args: Any, **kw: Any) -> Any:
        if "\n" in text or "\r" in text:
            self._tools._gate_enter(self._allow, "typed")
        result = self._device.type_text(text, *args, **kw)
        self._leave_outside("typing")
        return result

    def swipe(self, *args: Any, **kw: Any) -> Any:
        result = self._device.swipe(*args, **kw)
        self._leave_outside("the swipe")
        return result

    def launch(self, app: str) -> Any:
        self._tools._check_allowed(app)
        return self._device.launch(app)


def run_flow_tool(tools: Any, flow_text: str, allow_risky: bool = False) -> dict[str, Any]:
    """Run the flow ``flow_text`` (YAML, as a flow file holds) on ``tools``' phone (a
    ``PhoneTools``), under its lock, and return how it went: ``passed``, ``failure``, each step's
    status and reason, the values read, the model calls, and the folder with ``flow.json`` and
    ``report.html``. A flow that cannot be run as written is a ConfigError naming its line."""
    from mobile_agent.flows import parse_flow, run_flow

    if not isinstance(flow_text, str) or not flow_text.strip():
        raise ConfigError("the flow is empty: give a flow's YAML (name: ..., steps: [- tap: Settings, ...])")
    if len(flow_text) > MAX_FLOW_CHARS:
        raise ConfigError(f"the flow is {len(flow_text)} characters; at most {MAX_FLOW_CHARS}")
    flow = parse_flow(flow_text, "flow.yaml")
    if flow.needs_model and not tools.has_model:
        steps = ", ".join(f"line {s.line} ({s.kind})" for s in flow.steps if s.kind in ("ai", "assert", "query"))
        raise ConfigError(f"these steps ask the model: {steps[:200]}; start the server with --model NAME")
    model = tools._chat_model() if flow.needs_model else None
    slug = re.sub(r"[^a-z0-9]+", "-", flow.name.lower()).strip("-")[:40] or "flow"
    out = Path(tools.options.runs_dir) / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-flow-{slug}"
    n = 1
    while out.exists():
        n += 1
        out = out.with_name(f"{out.name.rsplit('~', 1)[0]}~{n}")
    with tools._lock:
        result = run_flow(flow, tools.options.device_name or "phone", out, model=model, perception=tools.perception,
                          phone=_GatedPhone(tools, allow_risky))
    return {"passed": result.passed, "failure": result.failure,
            "steps": [{"n": s.n, "step": s.step, "status": s.status, "reason": s.reason} for s in result.steps],
            "values": result.values, "model_calls": result.model_calls, "folder": str(out),
            "report": str(out / "report.html")}

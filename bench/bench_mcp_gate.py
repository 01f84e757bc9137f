"""How the MCP server's confirm gate reads icons by their glyph (mcpserver/gates.py): on every
icon box the detector finds on the simulated phone's home screen and the root screen of each app,
how many glyphs the gate would call risky (all false alarms: those screens hold no send, delete or
pay icon), and on Mail's open message and compose screens which icons it calls risky (the trash
can, reply, forward and send are the true ones), with the time one box takes. Asserts nothing.

    python bench/bench_mcp_gate.py
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import parse_tree
from mobile_agent.mcpserver import gates
from mobile_agent.mcpserver.tools import risk_of
from mobile_agent.perception import Perception


def risky(names: list[str]) -> bool:
    return bool(names) and all(risk_of(n, icon=True) for n in names)


def tap_node(phone: SimPhone, **match: str) -> None:
    node = next(n for n in parse_tree(phone.ui_tree()) if all(getattr(n, k) == v for k, v in match.items()))
    c = node.bounds.center
    phone.tap(int(c.x), int(c.y))


def main() -> int:
    p = Perception()
    times: list[float] = []
    boxes = alarms = 0
    for app in [None] + SimPhone().app_names():
        phone = SimPhone()
        if app:
            phone.launch(app)
        img = phone.screenshot()
        rgb = np.asarray(img)
        for ic in p.parse(img, icons=True).icons or []:
            t0 = time.perf_counter()
            names = gates.glyph_names(p, rgb, ic.box, img.size[0])
            times.append(time.perf_counter() - t0)
            boxes += 1
            if risky(names):
                alarms += 1
                print(f"false alarm: {app or 'home'} {ic.box.as_tuple()} {names}")
    print(f"root screens: {boxes} icon boxes, {alarms} called risky; per box median "
          f"{1000 * statistics.median(times):.0f} ms")
    for label, match in (("open message", {"rid": "sender"}), ("compose", {"text": "Compose"})):
        phone = SimPhone()
        phone.launch("Mail")
        tap_node(phone, **match)
        img = phone.screenshot()
        rgb = np.asarray(img)
        descs = [(n.bounds, n.desc) for n in parse_tree(phone.ui_tree()) if n.desc]
        for ic in p.parse(img, icons=True).icons or []:
            names = gates.glyph_names(p, rgb, ic.box, img.size[0])
            if risky(names):
                c = ic.box.center
                under = [d for b, d in descs if b.contains(c.x, c.y)]
                print(f"Mail {label}: {ic.box.as_tuple()} reads as {names}; the tree calls it {under or 'nothing'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What the readers of a screen's elements answer, on a few screens, hashed: the check that a change
to the element contract (``perception/elements.py``: the tree's nodes, OCR's lines, icon boxes and
marks as one ``Element``) moved no answer.

    python bench/element_outputs.py [--out FILE] [--against SRC]

Screens: the home screen, Settings, Display, Mail's inbox, Mail with the permission dialog over its inbox (a
scrim), a popup menu over a page (the dump is the menu's window: ``tests/fakes/popupphone.py``),
Settings in the dark theme and at 720x1600. On each it records the MCP server's ``screen_elements``
(the JSON and the text a model reads, with and without icons, with and without the tree), and at the
centre of every listed element: the MCP confirm gate's verdict (``PhoneTools._gate_at``), the agent's
tree label there (``agent.risk.tree_label_at``) and what a point operation records there
(``agent.points.under_point``). Prints one line per screen (the first 16 hex digits of SHA-256 over
its answers) and the total; ``--out`` also writes the answers themselves (to diff). With
``--against SRC`` (another checkout: its ``src`` is imported) it runs that tree in a process of its
own and prints the screens whose answers differ. Asserts nothing; measured for issue 45: 8 screens,
the same before and after.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))


def screens() -> list[tuple[str, Any]]:
    from mobile_agent.device.sim import SimPhone
    from tests.fakes.popupphone import PopupPhone

    home = SimPhone(seed=0)
    settings = SimPhone(seed=0)
    settings.launch("Settings")
    display = SimPhone(seed=0)
    display.launch("Settings")
    node = next(n for n in _nodes(display) if n.text == "Display")
    display.tap(node.bounds.center.x, node.bounds.center.y)
    mail = SimPhone(seed=0)
    mail.launch("Mail")
    dialog = SimPhone(seed=0, disturbances=["permission"])
    dialog.launch("Mail")
    dark = SimPhone(seed=3, dark=True)
    dark.launch("Settings")
    small = SimPhone(seed=1, width=720, height=1600)
    small.launch("Settings")
    return [("home", home), ("settings", settings), ("display", display), ("mail", mail),
            ("mail-permission", dialog),
            ("popup-menu", PopupPhone()), ("settings-dark", dark), ("settings-720", small)]


def _nodes(phone: Any) -> list[Any]:
    from mobile_agent.device.uitree import parse_tree

    return parse_tree(phone.ui_tree())


def answers(phone: Any, perception: Any) -> dict[str, Any]:
    from mobile_agent.agent.points import under_point
    from mobile_agent.agent.risk import tree_label_at
    from mobile_agent.errors import MobileAgentError
    from mobile_agent.mcpserver import PhoneTools, ToolOptions
    from mobile_agent.mcpserver.server import elements_text

    out: dict[str, Any] = {}
    for tree in (True, False):
        tools = PhoneTools(phone, perception, ToolOptions(tree=tree, confirm=True))
        for icons in (True, False):
            listing = tools.screen_elements(icons)
            out[f"elements tree={tree} icons={icons}"] = listing
            out[f"text tree={tree} icons={icons}"] = elements_text(listing)
    tools = PhoneTools(phone, perception, ToolOptions(tree=True, confirm=True))
    listing = tools.screen_elements(True)
    img = phone.screenshot()
    xml = phone.ui_tree()
    for e in listing["elements"]:
        x, y = e["center"]
        try:
            tools._gate_at(img, x, y, False)
            gate = "ok"
        except MobileAgentError as exc:
            gate = str(exc)
        rec = under_point(perception, img, x, y)
        out[f"at {x},{y}"] = {"gate": gate, "tree_label": tree_label_at(xml, (x, y)),
                              "under": [rec.box, rec.point, rec.text]}
    return out


def lines() -> tuple[list[tuple[str, str]], dict[str, Any]]:
    from mobile_agent.perception import Perception

    perception = Perception()
    hashed, full = [], {}
    for name, phone in screens():
        got = answers(phone, perception)
        text = json.dumps(got, ensure_ascii=False, sort_keys=False)
        hashed.append((name, hashlib.sha256(text.encode()).hexdigest()))
        full[name] = got
    return hashed, full


def main() -> int:
    from _checkouts import arguments

    args = arguments(__doc__, "also write every answer (JSON) to this file", "answers")
    hashed, full = lines()
    text = "".join(f"{d[:16]} {name}\n" for name, d in hashed)
    if args.out is not None:
        args.out.write_text(json.dumps(full, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.lines_only:
        sys.stdout.write(text)
        return 0
    total = hashlib.sha256("".join(d for _, d in hashed).encode()).hexdigest()
    sys.stdout.write(text + f"screens {len(hashed)} total {total}\n")
    if args.against is not None:
        from _checkouts import compare_with

        compare_with(__file__, args.against, text, [REPO_ROOT])
    return 0


if __name__ == "__main__":
    sys.exit(main())

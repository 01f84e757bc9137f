"""The layers of docs/design.md import downwards only. Reads every module's imports (static, including
imports inside functions) and fails on an edge the design does not allow."""

from __future__ import annotations

import ast
from pathlib import Path

import mobile_agent

ROOT = Path(mobile_agent.__file__).parent

# layer -> layers it may import (besides itself)
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "fsutil": {"errors"},  # atomic writes and folder locks: every layer writes files the same way
    "types": {"errors"},
    "device": {"types", "errors", "fsutil"},
    "device.sim": {"device", "types", "errors", "fsutil"},
    "perception": {"types", "errors", "fsutil"},
    "model": {"types", "errors", "fsutil"},
    "agent": {"perception", "model", "device", "types", "errors", "fsutil"},
    "report": {"agent", "device", "device.sim", "types", "errors", "fsutil"},
    # screen sets: drawn with the simulated phone (or read from a folder), measured through perception;
    # Mobile-Eval (bench) is not needed by them
    "screensets": {"perception", "device", "device.sim", "types", "errors", "fsutil"},
    "bench": {"agent", "perception", "model", "device", "device.sim", "report", "types", "errors", "fsutil"},
    "mcpserver": {"bench", "report", "agent", "perception", "model", "device", "types", "errors", "fsutil", "root"},
    "cli": {"mcpserver", "bench", "screensets", "report", "agent", "perception", "model", "device", "device.sim",
            "types", "errors", "fsutil", "root"},
    # the Python API's Agent: the step loop with what `mobile-agent run` adds (report.html)
    "api": {"agent", "report", "perception", "model", "device", "types", "errors", "fsutil"},
    # the package itself: lazy names for the Python API (mobile_agent.Agent, open_device, Perception...)
    "root": {"api", "agent", "perception", "model", "device", "types", "errors"},
}
# single modules with one more allowed edge, and why
EXCEPTIONS: dict[str, set[str]] = {
    "device/__init__": {"device.sim"},  # open_device("sim"), the factory of every device
}


def layer_of(parts: list[str]) -> str:
    """Layer of a module path below ``mobile_agent`` (``["device", "sim", "phone"]`` -> ``device.sim``)."""
    if not parts or parts == ["__init__"]:
        return "root"
    if parts[0] == "device" and len(parts) > 1 and parts[1] == "sim":
        return "device.sim"
    return parts[0].removesuffix(".py")


def imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "mobile_agent":
                found.append((layer_of(parts[1:]), node.lineno))
    return found


def test_every_module_imports_only_layers_below_it():
    bad = []
    modules = list(ROOT.rglob("*.py"))
    assert len(modules) > 50
    for path in modules:
        rel = path.relative_to(ROOT).with_suffix("")
        own = layer_of(list(rel.parts))
        for target, line in imports(path):
            if target != own and target not in ALLOWED[own] | EXCEPTIONS.get(rel.as_posix(), set()):
                bad.append(f"{rel}:{line} ({own}) imports {target}")
    assert not bad, "imports against the layers of docs/design.md:\n" + "\n".join(bad)


def test_the_checker_sees_a_forbidden_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from mobile_agent.device.sim.phone import SimPhone\n")
    assert imports(module) == [("device.sim", 2)]
    assert "device.sim" not in ALLOWED["agent"]


def test_screen_sets_stand_apart_from_mobile_eval():
    """The screen sets are measured without Mobile-Eval, and Mobile-Eval runs without them."""
    assert (ROOT / "screensets").is_dir()
    assert "bench" not in ALLOWED["screensets"] and "agent" not in ALLOWED["screensets"]
    assert "screensets" not in ALLOWED["bench"]
    for path in (ROOT / "screensets").rglob("*.py"):
        assert all(target not in ("bench", "agent", "model") for target, _ in imports(path)), path

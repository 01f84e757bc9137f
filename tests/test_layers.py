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
    "mcpserver": {"bench", "report", "agent", "perception", "model", "device", "types", "errors", "fsutil", "root",
                  "flows"},  # the run_flow tool
    "cli": {"mcpserver", "bench", "screensets", "report", "agent", "perception", "model", "device", "device.sim",
            "types", "errors", "fsutil", "root", "flows"},
    # test flows (mobile-agent test): plain steps on a device through perception, ai: steps through the API's Agent
    # (device.sim for a flow's look:, report for its report.html and the index)
    "flows": {"api", "agent", "report", "perception", "model", "device", "device.sim", "types", "errors", "fsutil"},
    # the Python API's Agent: the step loop with what `mobile-agent run` adds (report.html)
    "api": {"agent", "report", "perception", "model", "device", "types", "errors", "fsutil"},
    # the package itself: lazy names for the Python API (mobile_agent.Agent, open_device, Perception...)
    "root": {"api", "agent", "perception", "model", "device", "types", "errors", "flows"},
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


# ------------------------------------------------------------------------------------ import circles
# No module of src/mobile_agent imports itself back through others (issue 45 broke the last four).


def module_name(path: Path, root: Path = ROOT) -> str:
    """``agent/families/__init__.py`` -> ``agent.families``; the package itself -> ``""``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_edges(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, read statically: at the top, inside functions and
    under ``if TYPE_CHECKING`` alike (a circle of names is a circle of design, whenever it runs).
    ``from P import m`` names the module ``P.m`` where ``m`` is one, else ``P`` itself."""
    paths = {module_name(p, root): p for p in root.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in paths.items():
        is_pkg = path.name == "__init__.py"
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:  # relative: from its own package upwards
                    base = name.split(".") if is_pkg else name.split(".")[:-1]
                    base = base[:len(base) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                elif node.module and node.module.split(".")[0] == "mobile_agent":
                    module = node.module.removeprefix("mobile_agent").lstrip(".")
                else:
                    continue
                subs = [f"{module}.{a.name}".lstrip(".") for a in node.names]
                out |= {s for s in subs if s in paths}
                if module in paths and not all(s in paths for s in subs):
                    out.add(module)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == "mobile_agent":
                        target = a.name.removeprefix("mobile_agent").lstrip(".")
                        if target in paths:
                            out.add(target)
        out.discard(name)
        edges[name] = out
    return edges


def circles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.add(w)
                        if w == v:
                            break
                    if len(group) > 1:
                        found.append(frozenset(group))
    return found


def test_no_import_circle():
    found = set(circles(module_edges()))
    assert not found, "import circles in src/mobile_agent:\n" + "\n".join(" <-> ".join(sorted(c)) for c in found)


def test_the_circle_finder_sees_a_circle(tmp_path):
    pkg = tmp_path / "mobile_agent"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from mobile_agent.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n")
    (pkg / "sub" / "c.py").write_text("def f():\n    import mobile_agent.a\n")
    (pkg / "d.py").write_text("from mobile_agent.a import something\n")
    edges = module_edges(pkg)
    assert edges["a"] == {"sub.b"} and edges["sub.b"] == {"sub.c"} and edges["sub.c"] == {"a"}
    assert circles(edges) == [frozenset({"a", "sub.b", "sub.c"})]
    (pkg / "sub" / "c.py").write_text("")
    assert circles(module_edges(pkg)) == []

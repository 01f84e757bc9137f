"""Benchmark of the MCP server's overhead: the round trip of ``screenshot`` and ``tap_text`` through
MCP (the SDK's own client; in-memory, stdio and streamable HTTP on localhost) against the same
calls on :class:`mobile_agent.mcpserver.PhoneTools` in-process (``in-process+PNG`` also encodes the
screenshot as the server does, to show what the encoding costs). Prints medians and ratios; asserts
nothing.

    python bench/bench_mcp.py [--rounds 30] [--transports memory,stdio,http]

Each setup has its own simulated phone (seed 0) and perception. One round, for each setup in
turn: ``screenshot`` (full size PNG, base64 in JSON; and, over stdio, the default JPEG of at most
1024 px), then ``tap_text("Display")``
on the Settings list (grounding, tap, settle, screenshot, screen-change check), then an untimed
``back``. The Settings screen is the same each round, so its parse comes from perception's memo:
the figures are the tools' and the transport's cost, not OCR's. Setups are interleaved in every
round so that a busy machine slows them alike.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src"
CLI = "import sys; from mobile_agent.cli import console_main; sys.argv[0] = 'mobile-agent'; console_main()"


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _start_http() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-c", CLI, "mcp", "--transport", "http", "--port", "0"], env=_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stderr.readline().decode()
        m = re.search(r"at (http://\S+/mcp)", line)
        if m:
            return proc, m.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("the HTTP server did not start")


async def _run(args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mobile_agent.device.sim import SimPhone
    from mobile_agent.mcpserver import PhoneTools, build_server
    from mobile_agent.mcpserver.server import encode
    from mobile_agent.perception import Perception

    setups: dict[str, Any] = {}
    local = PhoneTools(SimPhone(), Perception())
    setups["in-process"] = local
    setups["in-process+PNG"] = (PhoneTools(SimPhone(), Perception()),)
    http_proc = None
    times: dict[str, dict[str, list[float]]] = {}
    sizes: dict[str, int] = {}
    jpeg: list[float] = []
    async with AsyncExitStack() as stack:
        if "memory" in args.transports:
            setups["MCP in-memory"] = await stack.enter_async_context(
                Client(build_server(PhoneTools(SimPhone(), Perception()))))
        if "stdio" in args.transports:
            params = StdioServerParameters(command=sys.executable, args=["-c", CLI, "mcp"], env=_env())
            setups["MCP stdio"] = await stack.enter_async_context(
                Client(stdio_client(params, errlog=open(os.devnull, "w"))))
        if "http" in args.transports:
            http_proc, url = _start_http()
            setups["MCP HTTP"] = await stack.enter_async_context(Client(url))

        async def call(target: Any, tool: str, **kw: Any) -> Any:
            if tool == "screenshot" and "format" not in kw:  # full size PNG, as the server sent by default once
                kw = {"format": "png", "max_side": None}
            local = {k: v for k, v in kw.items() if k not in ("format", "max_side")} if tool == "screenshot" else kw
            if isinstance(target, tuple):  # in-process, and the screenshot encoded as the server does
                result = getattr(target[0], tool)(**local)
                return encode(result, "png") if tool == "screenshot" else result
            if isinstance(target, PhoneTools):
                return getattr(target, tool)(**local)
            r = await target.call_tool(tool, kw)
            if r.is_error:
                raise SystemExit(f"{tool} failed: {r.content[0].text}")
            return r

        for label, target in setups.items():  # warm up: models loaded, Settings open, its parse in the memo
            await call(target, "open_app", name="Settings")
            await call(target, "tap_text", text="Display")
            await call(target, "back")
            r = await call(target, "screenshot")
            if not isinstance(target, (PhoneTools, tuple)):
                sizes[label] = sum(len(getattr(c, "data", "") or getattr(c, "text", "")) for c in r.content)
            times[label] = {"screenshot": [], "tap_text": []}
        for _ in range(args.rounds):
            for label, target in setups.items():
                t0 = time.perf_counter()
                await call(target, "screenshot")
                t1 = time.perf_counter()
                if label == "MCP stdio":
                    await call(target, "screenshot", format="jpeg", max_side=1024)  # the default now
                    jpeg.append((time.perf_counter() - t1) * 1000)
                    t1 = time.perf_counter()
                await call(target, "tap_text", text="Display")
                t2 = time.perf_counter()
                await call(target, "back")
                times[label]["screenshot"].append((t1 - t0) * 1000)
                times[label]["tap_text"].append((t2 - t1) * 1000)
    if http_proc is not None:
        http_proc.send_signal(signal.SIGINT)
        try:
            http_proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            http_proc.kill()
    args.sizes = sizes
    args.jpeg = jpeg
    return times


def main(argv: list[str] | None = None) -> int:
    import anyio

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30, help="timed rounds per setup")
    ap.add_argument("--transports", default="memory,stdio,http", help="comma-separated: memory, stdio, http")
    args = ap.parse_args(argv)
    args.transports = {t.strip() for t in args.transports.split(",") if t.strip()}
    unknown = args.transports - {"memory", "stdio", "http"}
    if unknown:
        ap.error(f"unknown transport(s) {', '.join(sorted(unknown))}: use memory, stdio, http")
    times = anyio.run(_run, args)
    base = {k: statistics.median(v) for k, v in times["in-process"].items()}
    print(f"MCP round trips against in-process calls, {args.rounds} rounds, simulated phone 1080x2400 "
          f"(medians, p90 in brackets, ratio = median / in-process median)")
    print(f"{'setup':<16}{'screenshot ms':>22}{'ratio':>8}{'tap_text ms':>22}{'ratio':>8}")
    for label, t in times.items():
        cells = []
        for tool in ("screenshot", "tap_text"):
            med = statistics.median(t[tool])
            cells.append(f"{med:>12.1f} ({percentile(t[tool], 0.9):>6.1f}){med / base[tool]:>8.2f}")
        print(f"{label:<16}" + "".join(f"{c:>30}" for c in cells))
    if args.jpeg:
        med = statistics.median(args.jpeg)
        print(f"MCP stdio, screenshot default (JPEG, 1024 px): {med:.1f} ms ({percentile(args.jpeg, 0.9):.1f}), "
              f"ratio {med / base['screenshot']:.2f}")
    for label, n in args.sizes.items():
        print(f"{label}: screenshot answer {n / 1024:.0f} KB of base64 PNG")
    return 0


if __name__ == "__main__":
    sys.exit(main())

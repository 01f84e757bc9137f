"""CLI command: ``mobile-agent mcp [--device sim|adb[:SERIAL]] [--transport stdio|http]`` (an MCP
server that lets other tools and agents operate the phone)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from mobile_agent.errors import ConfigError


def mcp_cmd(
    device: Optional[List[str]] = typer.Option(None, "--device", help="sim, adb (every attached device), "
                                               "adb:SERIAL, ios or ios:URL; repeat for several (--device sim "
                                               "--device sim: two simulated phones). Default: sim."),
    transport: str = typer.Option("stdio", "--transport", help="stdio (the client starts the server) or http "
                                  "(streamable HTTP at http://HOST:PORT/mcp)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (http only)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on (http only; 0: a free one)."),
    token: Optional[str] = typer.Option(None, "--token", envvar="MOBILE_AGENT_MCP_TOKEN", show_envvar=True,
                                        help="http only: every request must carry it (Authorization: Bearer TOKEN); "
                                        "needed for a --host other machines can reach. At least 16 characters."),
    model: Optional[str] = typer.Option(None, "--model", help="Model for run_instruction (gpt-4o, claude-..., "
                                        "openai:NAME, scripted:FILE); without it run_instruction is refused."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible (or Anthropic) endpoint."),
    api_key_env: Optional[str] = typer.Option(None, "--api-key-env", help="Environment variable holding the key."),
    runs: Path = typer.Option(Path("runs"), "--runs", help="Folder for run_instruction's run folders."),
    allow_app: Optional[List[str]] = typer.Option(None, "--allow-app", help="Only these apps may be opened "
                                                  "(repeat the option; default: any)."),
    confirm: bool = typer.Option(True, "--confirm/--no-confirm", help="Refuse taps that may send, pay, delete, install "
                                 "or sign out unless the call says confirm=true (default on)."),
    tree: bool = typer.Option(True, "--tree/--no-tree", help="List the device's ui tree nodes in screen_elements."),
    ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr or tesseract."),
    icon_model: Optional[Path] = typer.Option(None, "--icon-model", help="The icon recogniser: a folder `mobile-agent perception learn` wrote (or its .onnx file); default: the shipped one."),
    seed: int = typer.Option(0, "--seed", help="Seed of the simulated phone (sim only)."),
    dark: bool = typer.Option(False, "--dark", help="Dark theme (sim only)."),
    no_ask: bool = typer.Option(False, "--no-ask", help="run_instruction's agent never asks the user (no Ask User "
                                "or Take Over; by default its question comes back to the client, answer_user "
                                "answers it)."),
) -> None:
    """Serve phones as MCP tools (screenshot, screen_elements, taps by text, icon, element or point,
    type_text, swipe, keys, apps, open_url, run_instruction and answer_user with --model) to an MCP client: Claude
    Desktop, Cursor, or any agent. Ends on EOF (stdio) or Ctrl-C."""
    import threading

    from mobile_agent.device import open_device
    from mobile_agent.mcpserver import PhoneTools, ToolOptions, build_server
    from mobile_agent.mcpserver.server import bind_socket, serve_http, serve_stdio, stderr_line
    from mobile_agent.perception import Perception

    if transport not in ("stdio", "http"):
        raise ConfigError(f"unknown transport {transport!r}: use stdio or http")
    if transport == "http":
        from mobile_agent.mcpserver.httpguard import check_bind

        check_bind(host, token)  # before a device or a model: no phone served to the network unguarded
    if model is not None:
        from mobile_agent.model.factory import split_spec

        split_spec(model)  # a bad spec is a usage error now, not at the first run_instruction
    specs = _device_specs(device or ["sim"])
    perception = Perception(ocr=ocr, icon_model=icon_model)
    lock = threading.RLock()  # one perception for every device: one call at a time
    phones = {}
    for name, spec in specs:
        is_sim = spec.partition(":")[0] == "sim"
        phone = open_device(spec, **({"seed": seed, "dark": dark} if is_sim else {}))
        options = ToolOptions(confirm=confirm, allowed_apps=tuple(allow_app or ()), tree=tree, model=model,
                              base_url=base_url, api_key_env=api_key_env, runs_dir=runs, device_name=spec,
                              ask=not no_ask)
        phones[name] = PhoneTools(phone, perception, options, name=name, lock=lock)
    server = build_server(phones)
    try:
        if transport == "stdio":
            serve_stdio(server)
        else:
            try:
                sock = bind_socket(host, port)
            except OSError as exc:
                raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; "
                                  "choose another --port (0: a free one)") from None
            serve_http(server, sock, ready=lambda url: stderr_line(f"MCP server (streamable HTTP) at {url}"
                                                                   + (" (bearer token required)" if token else "")),
                       token=token)
    except KeyboardInterrupt:
        pass


def _device_specs(given: List[str]) -> list[tuple[str, str]]:
    """(name, spec) of each device to serve: ``adb`` is every attached device that is ready
    (named by serial), ``adb:SERIAL`` that one, each ``sim`` a simulated phone (``sim``, then
    ``sim-2``...)."""
    from mobile_agent.device import DEVICE_KINDS, DEVICE_SPECS

    out: list[tuple[str, str]] = []
    sims = sum(1 for g in given if g.partition(":")[0] == "sim")
    n_sim = 0
    for g in given:
        kind, _, arg = g.partition(":")
        if kind == "sim":
            n_sim += 1
            out.append(("sim" if sims == 1 else f"sim-{n_sim}", "sim"))
        elif kind == "adb" and not arg:
            from mobile_agent.device.adb.info import list_devices

            ready = [d.serial for d in list_devices() if d.problem is None and d.state == "device"]
            if not ready:
                raise ConfigError("--device adb: no attached device is ready (`mobile-agent devices` shows them)")
            out += [(serial, f"adb:{serial}") for serial in ready]
        elif kind == "adb":
            out.append((arg, g))
        elif kind in DEVICE_KINDS:  # ios, ios:URL: named by its kind
            out.append((kind if sum(1 for x in given if x.partition(":")[0] == kind) == 1 else g, g))
        else:
            raise ConfigError(f"unknown device {g!r}: use {DEVICE_SPECS}")
    names = [n for n, _ in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ConfigError(f"--device names {dupes[0]} twice")
    return out


def register(app: typer.Typer) -> None:
    """Add ``mcp`` to the main app."""
    app.command("mcp")(mcp_cmd)

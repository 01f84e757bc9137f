"""CLI commands: ``mobile-agent devices`` lists the Android phones and emulators adb can reach."""

from __future__ import annotations

import json
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text


def devices(
    adb_host: Optional[str] = typer.Option(None, "--adb-host", help="adb server host (default $ANDROID_ADB_SERVER_HOST or 127.0.0.1)."),
    adb_port: Optional[int] = typer.Option(None, "--adb-port", help="adb server port (default $ANDROID_ADB_SERVER_PORT or 5037)."),
    timeout: float = typer.Option(5.0, "--timeout", min=0.1, help="Seconds to wait for each answer."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List attached Android devices with model, Android version, screen size and state."""
    from mobile_agent.device.adb import list_devices

    infos = list_devices(adb_host, adb_port, timeout_s=timeout)
    if as_json:
        typer.echo(json.dumps([
            {"serial": i.serial, "state": i.state, "model": i.model, "android": i.android,
             "size": list(i.size) if i.size else None, "transport": i.transport, "problem": i.problem}
            for i in infos
        ], indent=2))
        return
    console = Console()
    if not infos:
        console.print(
            "No Android devices attached. Plug in a phone with USB debugging on, or start an emulator; "
            "then use it with --device adb (or --device adb:SERIAL)."
        )
        return
    table = Table()
    table.add_column("serial", no_wrap=True, min_width=max(len(i.serial) for i in infos))
    for name in ("state", "model", "android", "screen", "transport"):
        table.add_column(name, overflow="fold")
    for i in infos:
        state = Text(i.state, style="" if i.state == "device" else "yellow")
        table.add_row(*(Text(v) for v in (i.serial,)), state,
                      *(Text(v) for v in (i.model or "-", i.android or "-", i.size_text, i.transport or "-")))
    console.print(table)
    for i in infos:
        if i.problem:
            console.print(Text.assemble((i.serial, "yellow"), f": {i.problem}"))


def register(app: typer.Typer) -> None:
    """Add this module's commands to the main app."""
    app.command(name="devices")(devices)

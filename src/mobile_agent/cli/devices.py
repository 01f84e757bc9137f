"""CLI commands: ``mobile-agent devices`` lists the Android phones and emulators adb can reach, and the
iPhones whose WebDriverAgent answers (at http://localhost:8100, and each ``--wda URL``) and, where
``hdc`` is installed, the HarmonyOS devices it sees;
``mobile-agent devices capture`` keeps a phone's screenshot with its uiautomator dump."""

from __future__ import annotations

import json
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text


def devices(
    ctx: typer.Context,
    adb_host: Optional[str] = typer.Option(None, "--adb-host", help="adb server host (default $ANDROID_ADB_SERVER_HOST or 127.0.0.1)."),
    adb_port: Optional[int] = typer.Option(None, "--adb-port", help="adb server port (default $ANDROID_ADB_SERVER_PORT or 5037)."),
    timeout: float = typer.Option(5.0, "--timeout", min=0.1, help="Seconds to wait for each answer."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    wda: Optional[List[str]] = typer.Option(None, "--wda", help="An iPhone's WebDriverAgent to ask as well, "
                                            "http://HOST:PORT (repeatable; http://localhost:8100 is always asked)."),
) -> None:
    """List attached Android devices with model, Android version, screen size and state, and the
    iPhones whose WebDriverAgent answers, with their name and iOS version, and the HarmonyOS devices
    hdc sees (where hdc is installed)."""
    if ctx.invoked_subcommand is not None:
        return
    from mobile_agent.device.adb import list_devices
    from mobile_agent.device.ios import DEFAULT_URL, wda_status
    from mobile_agent.errors import MobileAgentError

    named = list(dict.fromkeys(u.rstrip("/") for u in (wda or [])))
    urls = [DEFAULT_URL] + [u for u in named if u != DEFAULT_URL]
    statuses = [wda_status(u, timeout_s=min(timeout, 2.0)) for u in urls]
    phones = [s for s in statuses if s.problem is None or s.url in named]  # the default only where one answers
    harmony = _harmony_targets(timeout)
    try:
        infos = list_devices(adb_host, adb_port, timeout_s=timeout)
        adb_problem = None
    except MobileAgentError as exc:
        if not phones and not harmony:
            raise
        infos, adb_problem = [], str(exc)
    if as_json:
        typer.echo(json.dumps([
            {"serial": i.serial, "state": i.state, "model": i.model, "android": i.android,
             "size": list(i.size) if i.size else None, "transport": i.transport, "problem": i.problem}
            for i in infos
        ] + [{"kind": "ios", "url": s.url, "state": "ready" if s.ready else "unreachable", "name": s.name,
              "model": s.model, "ios": s.ios, "problem": s.problem} for s in phones]
          + [{"kind": "harmony", "serial": t.serial, "state": t.state, "transport": t.transport, "problem": t.problem}
             for t in harmony], indent=2))
        return
    console = Console()
    if harmony:
        table = Table()
        for name in ("HarmonyOS (hdc)", "state", "transport"):
            table.add_column(name, overflow="fold")
        for t in harmony:
            table.add_row(t.serial, Text(t.state, style="" if t.problem is None else "yellow"), t.transport or "-")
        console.print(table)
        for t in harmony:
            if t.problem:
                console.print(Text.assemble((t.serial, "yellow"), f": {t.problem}"))
        console.print(Text("Use a HarmonyOS device with --device harmony (or --device harmony:SERIAL)."))
    if phones:
        table = Table()
        for name in ("iPhone (WebDriverAgent)", "state", "name", "iOS"):
            table.add_column(name, overflow="fold")
        for s in phones:
            table.add_row(s.url, Text("ready" if s.ready else "unreachable", style="" if s.ready else "yellow"),
                          s.name or "-", s.ios or "-")
        console.print(table)
        for s in phones:
            if s.problem:
                console.print(Text.assemble((s.url, "yellow"), f": {s.problem}"))
        console.print(Text("Use an iPhone with --device ios (http://localhost:8100) or --device ios:URL."))
    if adb_problem:
        console.print(Text(f"Android: {adb_problem}"))
        return
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


def _harmony_targets(timeout: float) -> list:
    """The HarmonyOS devices hdc sees, where hdc is installed (none, quietly, where it is not or fails)."""
    from mobile_agent.device.harmony import hdc_available, list_targets
    from mobile_agent.errors import MobileAgentError

    if not hdc_available():
        return []
    try:
        return list_targets(timeout_s=max(timeout, 1.0))
    except MobileAgentError:
        return []


def capture(
    out: str = typer.Option(..., "--out", help="Folder to keep the screens in (img/NAME.png, xml/NAME.xml): "
                            "measure perception on it with `mobile-agent bench perception --dir`."),
    device: str = typer.Option("adb", "--device", help="adb (the only attached device) or adb:SERIAL."),
    count: int = typer.Option(1, "--count", min=1, help="Screens to take, one every --every seconds "
                              "(move through your app meanwhile); a screen equal to the last kept is skipped."),
    every: float = typer.Option(5.0, "--every", min=0.0, help="Seconds between two screens (with --count)."),
    check_text: bool = typer.Option(True, "--check-text/--no-check-text", help="Keep a screen only where "
                                    "Click Text finds at least 60% of the dump's texts on the picture."),
    adb_host: Optional[str] = typer.Option(None, "--adb-host", help="adb server host."),
    adb_port: Optional[int] = typer.Option(None, "--adb-port", help="adb server port."),
) -> None:
    """Keep the phone's screenshot with its uiautomator dump, taken together, where they agree.

    Kept only when the screen did not change while the dump was taken, the dump is of the picture's
    size and (with --check-text) its texts are on the picture."""
    import time

    from mobile_agent.screensets.realscreens import capture_screen
    from mobile_agent.device import open_device
    from mobile_agent.perception.change import screen_changed

    if not device.startswith("adb"):
        typer.echo(f"error: --device {device}: capture takes screens from a phone: use adb or adb:SERIAL", err=True)
        raise typer.Exit(2)
    phone = open_device(device, adb_host=adb_host, adb_port=adb_port)
    perception = None
    if check_text:
        from mobile_agent.perception import Perception

        perception = Perception()
    kept = 0
    last = None
    for i in range(count):
        if i:
            time.sleep(every)
        if last is not None and not screen_changed(last, phone.screenshot()):
            typer.echo(f"screen {i + 1}: the same as the last one kept; skipped")
            continue
        c = capture_screen(phone, out, perception)
        if c.kept:
            kept += 1
            from PIL import Image

            with Image.open(f"{out}/img/{c.name}.png") as im:
                last = im.convert("RGB")
            read = f", {c.texts_read} of its {c.texts} texts found on the picture" if perception is not None else ""
            typer.echo(f"kept {c.name}{read}")
        else:
            typer.echo(f"not kept: {c.reason}", err=True)
    typer.echo(f"{kept} of {count} screens kept in {out}")
    if not kept:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the main app."""
    group = typer.Typer(help="List attached Android devices with model, Android version, screen size and "
                        "state; `devices capture` keeps a phone's screens with their uiautomator dumps.")
    group.callback(invoke_without_command=True)(devices)
    group.command(name="capture")(capture)
    app.add_typer(group, name="devices")

"""CLI commands for the simulated phone: ``sim apps``, ``sim shot``, ``sim tree``, ``sim serve``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

sim_app = typer.Typer(help="The built-in simulated phone: list its apps, take screenshots, dump its ui tree, serve it.",
                      no_args_is_help=True)

Seed = Annotated[int, typer.Option(help="Seed: clock, weather, feed order and other content.")]
AppName = Annotated[Optional[str], typer.Option("--app", help="Open this app first (default: the home screen).")]
Dark = Annotated[bool, typer.Option("--dark", help="Dark theme.")]
Width = Annotated[int, typer.Option(help="Screen width in pixels.")]
Height = Annotated[int, typer.Option(help="Screen height in pixels.")]


def _phone(seed: int, app: str | None, dark: bool, width: int = 1080, height: int = 2400):
    from mobile_agent.device.sim import SimPhone

    phone = SimPhone(seed=seed, width=width, height=height, dark=dark)
    if app:
        phone.launch(app)
    return phone


@sim_app.command("apps")
def apps(seed: Seed = 0, all_: Annotated[bool, typer.Option("--all", help="Include apps not installed yet.")] = False) -> None:
    """List the apps of the simulated phone."""
    from mobile_agent.device.sim import SimPhone

    phone = SimPhone(seed=seed)
    table = Table("app", "package", "installed")
    for name in phone.app_names(installed_only=not all_):
        app = phone.apps[name]
        table.add_row(name, app.package, "yes" if phone.is_installed(name) else "from Store")
    Console().print(table)


@sim_app.command("shot")
def shot(out: Annotated[Path, typer.Option("--out", help="PNG file to write.")], app: AppName = None,
         dark: Dark = False, seed: Seed = 0, width: Width = 1080, height: Height = 2400) -> None:
    """Save a screenshot of the simulated phone."""
    phone = _phone(seed, app, dark, width, height)
    from mobile_agent.fsutil import atomic_save_image

    atomic_save_image(out, phone.screenshot())
    typer.echo(f"{out} ({phone.width}x{phone.height})")


@sim_app.command("tree")
def tree(app: AppName = None, dark: Dark = False, seed: Seed = 0, width: Width = 1080,
         height: Height = 2400) -> None:
    """Print the uiautomator-style XML tree of the screen."""
    phone = _phone(seed, app, dark, width, height)
    typer.echo(phone.ui_tree(), nl=False)


@sim_app.command("serve")
def serve(seed: Seed = 0, dark: Dark = False, app: AppName = None,
          port: Annotated[int, typer.Option(min=0, max=65535, help="Port on 127.0.0.1 (0: a free one).")] = 0,
          record: Annotated[Optional[Path], typer.Option(help="Write each gesture as a JSON line here.")] = None,
          width: Width = 1080, height: Height = 2400) -> None:
    """Show the simulated phone in a browser: click to tap, drag to swipe, type into the focused field."""
    from mobile_agent.report.simserve import serve_phone

    phone = _phone(seed, app, dark, width, height)
    serve_phone(phone, host="127.0.0.1", port=port, record_to=record,
                ready=lambda url: typer.echo(f"simulated phone at {url} (Ctrl-C to stop)"))


def register(app: typer.Typer) -> None:
    app.add_typer(sim_app, name="sim")

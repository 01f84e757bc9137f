"""The ``mobile-agent`` command line. Each sub-module registers its own commands on the app."""

from __future__ import annotations

import signal
import sys
import threading

import typer
from rich.console import Console
from rich.markup import escape

from mobile_agent.errors import ConfigError, MobileAgentError, Terminated

app = typer.Typer(
    name="mobile-agent",
    help="Operate Android phones (real, or the built-in simulated one) from screenshots with a multimodal LLM.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err_console = Console(stderr=True)


@app.callback()
def _root() -> None:
    """Operate Android phones (real, or the built-in simulated one) from screenshots with a multimodal LLM."""


@app.command()
def version() -> None:
    """Print the version of mobile-agent."""
    from mobile_agent import __version__

    typer.echo(__version__)


def _register_all() -> None:
    from mobile_agent.cli import bench, devices, eval as eval_cmd, mcp, perception, report, run, sim

    for module in (sim, devices, perception, run, eval_cmd, report, bench, mcp):
        module.register(app)


_register_all()


def _terminate(signum: int, frame: object) -> None:
    raise Terminated("ended by SIGTERM")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit status: 0 done, 1 failed, 2 usage or configuration error.
    SIGTERM ends ``run`` and ``eval`` as Ctrl-C does (a run is ``interrupted``, with its summary and
    report; eval keeps what it stored); other commands keep the default (the servers end at once)."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in args if not a.startswith("-")), None)
    previous = None
    if command in ("run", "eval") and threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return _main(argv)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(argv: list[str] | None) -> int:
    try:
        app(args=argv, prog_name="mobile-agent")
    except SystemExit as exc:  # typer ends every command with SystemExit
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except ConfigError as exc:
        err_console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        return 2
    except MobileAgentError as exc:
        err_console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        return 1
    except KeyboardInterrupt as exc:
        err_console.print(escape(str(exc) or "interrupted"), highlight=False)
        return 143 if isinstance(exc, Terminated) else 130
    return 0


def console_main() -> None:
    sys.exit(main())

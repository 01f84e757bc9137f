"""The ``mobile-agent`` command line. Each sub-module registers its own commands on the app."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from mobile_agent.errors import ConfigError, MobileAgentError, Terminated

# Plain help (click's formatter): flags show no value placeholder, long defaults and URLs wrap instead
# of being cut at the terminal's width, and paragraphs are re-flowed.
app = typer.Typer(
    name="mobile-agent",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
err_console = Console(stderr=True)

#: each command's line in ``mobile-agent --help`` (one line at 80 columns; the full text is the
#: command's own --help)
SUMMARIES: dict[str, str] = {
    "version": "Print the version of mobile-agent.",
    "devices": "Attached Android devices; capture screens with their ui trees.",
    "parse": "Every text line and icon found on a screenshot.",
    "locate": "Where a text, icon or app is on a screenshot.",
    "run": "Carry out an instruction on a phone.",
    "replay": "Replay a recorded run, grounded afresh.",
    "eval": "Run the Mobile-Eval benchmark (SU, PS, RE, CR).",
    "report": "Write the HTML report of a run or an eval.",
    "mcp": "Serve the phone as MCP tools (Claude Desktop, Cursor...).",
    "sim": "The built-in simulated phone: apps, shots, ui tree, serve.",
    "bench": "Benchmarks that print figures.",
    "cache": "What a run cache keeps: list, show, remove.",
    "test": "Run YAML test flows; JUnit for CI.",
    "perception": "Teach the icon recogniser your apps.",
}


def _version(value: bool) -> None:
    if value:
        from mobile_agent import __version__

        typer.echo(__version__)
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Operate Android phones (real, or the built-in simulated one) from screenshots with a multimodal LLM.

    Exit status: 0 done (or found), 1 the run failed (or nothing was found), 2 a usage or configuration
    error, 3 the run needs the user (the agent asked something no one could answer: the question is in
    summary.json). `mobile-agent COMMAND --help` tells more.
    """


@app.command()
def version() -> None:
    """Print the version of mobile-agent."""
    from mobile_agent import __version__

    typer.echo(__version__)


def _register_all() -> None:
    from mobile_agent.cli import bench, cache, devices, eval as eval_cmd, mcp, perception, replay, report, run, sim
    from mobile_agent.cli import test as test_cmd

    for module in (sim, devices, perception, run, replay, cache, test_cmd, eval_cmd, report, bench, mcp):
        module.register(app)
    _summarise(app)


def _summarise(group: typer.Typer) -> None:
    """Each command's line in its group's --help: its entry in SUMMARIES, else its help's first
    sentence, whole (click would cut a long one with "...")."""
    import inspect

    def first_sentence(text: str | None) -> str | None:
        if not text:
            return None
        words = " ".join(inspect.cleandoc(text).split("\n\n")[0].split())
        head, dot, _ = words.partition(". ")
        return head + "." if dot else words

    for command in group.registered_commands:
        doc = command.help or (command.callback.__doc__ if command.callback else None)
        command.short_help = SUMMARIES.get(command.name or "") or command.short_help or first_sentence(doc)
    for sub in group.registered_groups:
        sub.short_help = SUMMARIES.get(sub.name or "") or sub.short_help
        if sub.typer_instance is not None:
            _summarise(sub.typer_instance)


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


class _ReaderMayLeave:
    """Standard output that a reader may close (``mobile-agent run ... | head -1``): the first write
    that meets a closed pipe points the descriptor at ``/dev/null``, so that the command goes on to
    its end (a run finishes its task and writes its summary and report) and exits as it would have,
    instead of click's silent exit 1 on ``EPIPE``. Only what was printed is lost; files are written."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def _gone(self) -> None:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):
            pass

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def console_main() -> None:
    if not isinstance(sys.stdout, _ReaderMayLeave) and sys.stdout is not None:
        sys.stdout = _ReaderMayLeave(sys.stdout)  # type: ignore[assignment]
    sys.exit(main())

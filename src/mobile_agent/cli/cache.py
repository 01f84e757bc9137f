"""CLI commands: ``mobile-agent cache list | show KEY | remove KEY --cache DIR``: what a run cache
(``run --cache DIR``) keeps, and removing a kept run."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.markup import escape
from typing_extensions import Annotated

from mobile_agent.cli._common import console, shown

cache_app = typer.Typer(help="What a run cache (run --cache DIR) keeps: list, show or remove its kept runs.",
                        no_args_is_help=True, rich_markup_mode=None)

CacheDir = Annotated[Optional[Path], typer.Option("--cache", help="The run cache folder (as run --cache DIR); "
                                                  "default: your cache folder (run --cache default), "
                                                  "~/.cache/mobile-agent/runs on Linux.")]


def _folder(folder: Optional[Path]) -> Path:
    from mobile_agent.agent.replay_cache import cache_folder, user_cache_folder

    return user_cache_folder() if folder is None else cache_folder(folder)  # type: ignore[return-value]


def _store(folder: Optional[Path]) -> Any:
    from mobile_agent.agent.replay_cache import RunCache
    from mobile_agent.errors import ConfigError

    folder = _folder(folder)
    if not folder.is_dir():
        raise ConfigError(f"--cache {folder} is not a folder: give the folder of `run --cache DIR`")
    return RunCache(folder, "read-only")  # looking never writes (a shared folder of another user's too)


def _when(stamp: float | None) -> str:
    return datetime.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M") if stamp else "never"


def _replayed(entry: Any) -> str:
    if entry.last_replayed is None:
        return "never"
    how = "diverged" if entry.diverged else "whole"
    return f"{_when(entry.last_replayed)} ({how}; {entry.replays} replay(s))"


def _as_dict(entry: Any) -> dict[str, Any]:
    return {"key": entry.key, "instruction": entry.instruction, "device_kind": entry.device_kind,
            "steps": list(entry.steps), "kept_at": entry.kept_at, "kept_from": entry.kept_from,
            "params": list(entry.params), "secrets": list(entry.secrets), "last_replayed": entry.last_replayed,
            "replays": entry.replays, "diverged": entry.diverged}


@cache_app.command("list")
def list_(cache: CacheDir = None, as_json: Annotated[bool, typer.Option("--json", help="One JSON list.")] = False) -> None:
    """Every kept run: its key, instruction template, device kind, steps, when it was kept, and when
    it was last replayed and whether that replay diverged."""
    folder = _folder(cache)
    # the default folder before anything was kept there: nothing kept, not an error
    entries = [] if cache is None and not folder.exists() else _store(folder).entries()
    if as_json:
        typer.echo(json.dumps([_as_dict(e) for e in entries], ensure_ascii=False, indent=2))
        return
    if not entries:
        console.print(escape(f"no kept runs in {folder}"), highlight=False, soft_wrap=True)
        return
    for e in entries:  # one line a kept run: the key and the figures first, the instruction last
        console.print(escape(f"{e.key}  {e.device_kind}  {len(e.steps)} step(s)  kept {_when(e.kept_at)}  "
                             f"replayed {_replayed(e)}  {shown(e.instruction)}"), highlight=False, soft_wrap=True)


@cache_app.command("show")
def show(key: Annotated[str, typer.Argument(help="The kept run's key (or its first characters).")],
         cache: CacheDir = None) -> None:
    """One kept run: its instruction template, device kind, each recorded step, where it was kept
    from, and its replays."""
    e = _store(cache).find(key)
    lines = [f"key            {e.key}", f"instruction    {shown(e.instruction)}", f"device kind    {e.device_kind}",
             f"kept           {_when(e.kept_at)} from {e.kept_from or '?'}",
             f"last replayed  {_replayed(e)}"]
    if e.params or e.secrets:
        lines.append(f"values         {', '.join([*(f'{{{p}}}' for p in e.params), *(f'{{{s}}} (secret)' for s in e.secrets)])}")
    lines.append(f"steps          {len(e.steps)}")
    lines += [f"  {i:>2}. {shown(action)}" for i, action in enumerate(e.steps, 1)]
    for line in lines:
        console.print(escape(line), highlight=False, soft_wrap=True)


@cache_app.command("remove")
def remove(keys: Annotated[List[str], typer.Argument(help="The kept runs' keys (or their first characters).")],
           cache: CacheDir = None) -> None:
    """Remove kept runs (one writer at a time, as a run that keeps one)."""
    from mobile_agent.agent.replay_cache import RunCache

    store = RunCache(_store(cache).dir)  # a folder of this user's own that no one else may write
    for key in keys:
        e = store.remove(key)
        console.print(escape(f"removed {e.key}: {shown(e.instruction)} on {e.device_kind} ({len(e.steps)} step(s))"),
                      highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.add_typer(cache_app, name="cache")

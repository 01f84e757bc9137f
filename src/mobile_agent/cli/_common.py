"""What ``run`` and ``replay`` share: the options they both take (one definition each), the run
folder's default and checks, the step line and the terminal's questions, and the run cache's
planner and keeping. Both commands import this module; neither imports the other."""

from __future__ import annotations

import re
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from typing_extensions import Annotated

from mobile_agent.agent.record import StepRecord, as_step_record
from mobile_agent.device.gestures import NoGesture
from mobile_agent.errors import ConfigError
from mobile_agent.fsutil import FolderLock

console = Console()

# -- the options both commands take (one definition; a command's own help is in its module) --------

BaseUrlOpt = Annotated[Optional[str], typer.Option("--base-url", help="OpenAI-compatible (or Anthropic) endpoint, "
                                                   "e.g. http://localhost:11434/v1.")]
ApiKeyEnvOpt = Annotated[Optional[str], typer.Option("--api-key-env", help="Environment variable holding the key "
                                                     "(default OPENAI_API_KEY, or ANTHROPIC_API_KEY for Claude).")]
ModelTimeoutOpt = Annotated[float, typer.Option("--model-timeout", min=1.0, help="Total deadline of each model "
                                                "request in seconds (the whole answer, not each read); retried "
                                                "like a 5xx.")]
TimeLimitOpt = Annotated[float, typer.Option("--time-limit", min=1.0, help="Wall-clock limit in seconds.")]
OverwriteOpt = Annotated[bool, typer.Option("--overwrite", help="Replace the run in --out.")]
OcrOpt = Annotated[str, typer.Option("--ocr", help="OCR engine: rapidocr or tesseract.")]
IconModelOpt = Annotated[Optional[Path], typer.Option("--icon-model", help="The icon recogniser to use: a folder "
                                                     "`mobile-agent perception learn` wrote (or its .onnx file); "
                                                     "default: the one shipped in the package.")]
PerceptionOpt = Annotated[str, typer.Option("--perception", help="hybrid (run's default, and replay's: the phone's "
                                            "accessibility tree beside the pixels, where the device gives one; "
                                            "vision where it does not) or vision (pixels only; eval's default, "
                                            "the paper's method).")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the simulated phone (sim only).")]
SecretOpt = Annotated[Optional[List[str]], typer.Option("--secret", help="NAME=VALUE: write {NAME} in the "
                                                        "instruction; a typed {NAME} reaches the phone as VALUE, "
                                                        "while the model, the records and the cache see {NAME} "
                                                        "(a recorded {NAME} is typed as VALUE; repeatable).")]

CacheModeOpt = Annotated[str, typer.Option("--cache-mode", help="How --cache DIR is used: read-write (replay a "
                                           "kept run, keep a completed, confirmed one; the default), read-only "
                                           "(replay, never write: a cache shared from another user or machine), "
                                           "write-only (never replay; keep the new run).")]


def shown(text: str) -> str:
    """``text`` safe to print on a terminal: every control character (an escape sequence's ESC, a
    carriage return, a bell, a newline) written as its escape (``\\x1b``, ``\\r``, ``\\n``), so that
    a kept run's instruction, another user's included, cannot drive the terminal or hide a line;
    and without the secrets the process holds (a ``--secret`` value written literally is ``{NAME}``)."""
    from mobile_agent.errors import redact

    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
                   for ch in redact(text))


def cache_option(value: Optional[Path]) -> Optional[Path]:
    """``--cache``'s callback: ``--cache default`` is the user's cache folder by the platform's
    convention (``~/.cache/mobile-agent/runs`` on Linux)."""
    from mobile_agent.agent.replay_cache import cache_folder

    return cache_folder(value)


def perception_mode_of(value: str) -> str:
    """``--perception``'s value, checked (vision or hybrid)."""
    mode = value.strip().lower()
    if mode not in ("vision", "hybrid"):
        raise ConfigError(f"--perception must be vision or hybrid, got {value!r}")
    return mode


def open_phone(device: str, seed: int) -> Any:
    """The device named ``device`` (``--seed`` for the simulated phone)."""
    from mobile_agent.device import open_device

    return open_device(device, **({"seed": seed} if device.partition(":")[0] == "sim" else {}))


# -- the run folder ---------------------------------------------------------------------------------

def default_out(instruction: str, parent: Path = Path("runs")) -> Path:
    """``runs/<time>-<instruction>``, with ``~2``, ``~3``... after it when a run of the same second has it."""
    slug = re.sub(r"[^a-z0-9]+", "-", instruction.lower()).strip("-")[:40] or "run"
    out = parent / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{slug}"
    n = 1
    while out.exists():
        n += 1
        out = out.with_name(f"{out.name.rsplit('~', 1)[0]}~{n}")
    return out


def refuse_earlier_run(folder: Path) -> None:
    """A :class:`ConfigError` when ``folder`` is a file or holds a run already (its steps, summary or
    screenshots): a new run's record would be mixed with it."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--out {folder} is a file; give a folder for the trajectory")
    screens = folder / "screens"
    # fleet.json: a run on several phones (its combined report would be written over)
    kept = [n for n in ("summary.json", "steps.jsonl", "fleet.json") if (folder / n).exists()]
    if screens.is_dir() and any(screens.iterdir()):
        kept.append("screens/")
    if kept:
        raise ConfigError(f"--out {folder} already holds a run ({', '.join(kept)}); choose a new folder, or "
                          "replace that run (--overwrite)")


def check_out(out: Path | None, overwrite: bool) -> None:
    """Before any work: ``--out`` that is a file, in use by another run, or holding a run (without
    ``--overwrite``) is refused."""
    if out is None:
        return
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file; give a folder for the trajectory")
    with FolderLock(out, "run"):
        if not overwrite:
            refuse_earlier_run(out)


def run_in(out_dir: Path, overwrite: bool, go: Any) -> Any:
    """``go(out_dir)`` holding the folder's lock (two runs never fill one folder), the folder checked
    again once it is ours."""
    lock = FolderLock(out_dir, "run")
    lock.acquire()
    try:
        if not overwrite:
            refuse_earlier_run(out_dir)
        return go(out_dir)
    finally:
        lock.release()


# -- the terminal -----------------------------------------------------------------------------------

def step_line(step: StepRecord | dict[str, Any]) -> str:
    """One line about a step for the terminal (a multi-mode record adds its subgoal)."""
    from mobile_agent.agent.user import printable

    rec = as_step_record(step)
    subgoal = rec.multi.subgoal if rec.multi is not None else None
    if not isinstance(rec.gesture, NoGesture):
        where = rec.gesture.describe()
    elif rec.user is not None:
        where = "answered" if rec.user.answer is not None else "no answer"
    elif rec.completion is not None:
        where = "confirmed complete" if rec.completion.complete else "not complete yet"
    else:
        where = "-"
    tokens = rec.model.prompt_tokens + rec.model.completion_tokens
    action = rec.action or "?"
    extra = ""
    if rec.error:
        extra = f"  [red]{escape(str(rec.error))}[/red]"
    elif rec.reflection.verdict == "no_change":
        extra = "  [yellow]no change[/yellow]"
    elif rec.reflection.verdict == "wrong_page":
        extra = "  [yellow]wrong page[/yellow]"
    elif rec.grounding is not None and rec.grounding.status != "found":
        extra = f"  [yellow]{escape(str(rec.grounding.status))}: not carried out[/yellow]"
    goal = f"  [dim]({escape(str(subgoal))})[/dim]" if subgoal else ""  # multi mode: the manager's subgoal
    return (f"[bold]step {rec.step:>2}[/bold]  {escape(printable(f'{action}  {where}'))}  {rec.timings.total_s:.1f} s  "
            f"{tokens} tok{extra}{goal}")


def terminal_confirm(op: Any, description: str) -> bool:
    """--confirm's question at the terminal; without one (standard input not a terminal, or closed)
    the step is declined and said so (``run`` and ``replay``). End of input (Ctrl-D) is a no; Ctrl-C
    stays an interrupt, which ends the run ``interrupted`` as anywhere else (the answer is read with
    ``input``, not typer's prompt, whose ``Abort`` says neither which nor is click's)."""
    from mobile_agent.agent.user import printable

    if not sys.stdin or not sys.stdin.isatty():
        console.print(f"[yellow]declined[/yellow] {escape(printable(description))}: --confirm cannot ask, standard "
                      "input is not a terminal", highlight=False, soft_wrap=True)
        return False
    question = f"Carry out {printable(description)}? [y/N]: "
    while True:
        try:
            answer = input(question).strip().lower()
        except EOFError:  # end of input, Ctrl-D
            console.print("\n[yellow]declined[/yellow]: no answer (end of input)", highlight=False)
            return False
        if answer in ("y", "yes"):
            return True
        if answer in ("", "n", "no"):
            return False
        console.print("answer y or n", highlight=False)


def terminal_ask(req: Any) -> str | None:
    """Ask the person at the terminal (Ask User, Take Over): the model's text shown escaped (no
    markup, no control characters), the answer read from standard input. Without a terminal on
    standard input, or at the end of input, None: the run ends ``needs_user``."""
    import sys

    from mobile_agent.agent.user import printable

    shown = escape(printable(req.prompt()))
    if not sys.stdin or not sys.stdin.isatty():
        console.print(f"[yellow]needs the user[/yellow] {shown}: standard input is not a terminal, so no one can "
                      "answer", highlight=False, soft_wrap=True)
        return None
    console.print(f"[bold yellow]?[/bold yellow] {shown}", highlight=False, soft_wrap=True)
    what = "Press Enter when you are done (or say what you did)" if req.kind == "take_over" else "Your answer"
    try:
        return input(f"{what}: ")  # Ctrl-C stays an interrupt (the run ends interrupted), not a missing answer
    except EOFError:  # end of input, Ctrl-D
        console.print("[yellow]no answer[/yellow] (end of input)", highlight=False)
        return None


_ASKING = threading.Lock()  # one question at the terminal at a time (several phones at once)


def confirm_at_terminal(phone: str, phones: int) -> Any:
    """``--confirm``'s question for ``phone``: :func:`terminal_confirm`, one phone at a time, naming
    the phone where there are several."""
    if phones <= 1:
        return terminal_confirm

    def confirm(op: Any, description: str) -> bool:
        with _ASKING:
            return terminal_confirm(op, f"on {phone}: {description}")

    return confirm


# -- the run cache ----------------------------------------------------------------------------------

def cached_planner(folder: Path, instruction: str, device: str, phone: Any, perception: Any,
                   model_planner: Any, params: dict[str, str] | None = None,
                   secrets: dict[str, str] | None = None, say: Any = None,
                   cache_mode: str = "read-write") -> tuple[Any, Any]:
    """``run --cache``: the planner of a run (a replay of the cached run of ``instruction`` with
    ``model_planner`` as its fallback, else ``model_planner``) and the cache with the key's parts.
    A kept run that types a secret not in ``secrets`` is refused (ConfigError). ``cache_mode``:
    write-only never replays; read-only never writes (not even the lines a replay reads)."""
    from mobile_agent.agent.replay import ReplayPlanner
    from mobile_agent.agent.replay_cache import RunCache, device_kind, kept_from, placeholder, refuse_missing_secrets
    from mobile_agent.agent.user import printable

    say = say or (lambda text: console.print(escape(printable(text)), highlight=False, soft_wrap=True))
    store = RunCache(folder, cache_mode)
    kind = device_kind(device, phone.screenshot().size)
    recording = store.lookup(instruction, kind, params)
    if recording is not None:
        refuse_missing_secrets(recording, secrets or {}, "the kept run of this instruction")
    if recording is None:
        say(f"cache: write-only, the model plans; a completed, confirmed run is kept for {kind}"
            if cache_mode == "write-only" else f"cache: no run of this instruction on {kind} yet; the model plans")
        return model_planner, (store, instruction, kind, None)
    say(f"cache: replaying the kept run ({len(recording.steps)} step(s)): {kept_from(recording)}; the model takes "
        "over where the phone differs" + ("; read-only: the cache is not written" if cache_mode == "read-only" else ""))
    params = {placeholder(k): v for k, v in (params or {}).items()}
    planner = ReplayPlanner(recording, perception, model_planner, params=params, secrets=secrets)
    planner.write_lines = cache_mode != "read-only"
    return planner, (store, instruction, kind, recording.folder)


def keep_in_cache(cache: Any, out_dir: Path, result: Any, values: dict[str, str] | None = None,
                  secret_names: tuple[str, ...] = (), perception: Any = None, say: Any = None) -> None:
    """``run --cache``: keep the run when it completed and was confirmed (``values`` written
    ``{NAME}``), and note in the replayed entry when it was replayed and whether it diverged; say
    what was done."""
    from mobile_agent.agent.replay_cache import with_placeholders
    from mobile_agent.agent.trajectory import read_summary

    say = say or (lambda text: console.print(escape(text), highlight=False))
    from mobile_agent.errors import StorageError

    store, instruction, kind, replayed = cache
    try:
        if replayed is not None:
            store.note_replay(replayed, read_summary(out_dir) or {})
        why = store.keep(out_dir, instruction, kind, values=values, secret_names=secret_names, perception=perception)
    except StorageError as exc:  # a cache nothing can be written to: the run stands, nothing is kept
        say(f"cache: not kept: {exc}")
        return
    entry = store.entry(with_placeholders(instruction, values or {}), kind)
    if why:
        say(f"cache: {why}")
    elif replayed is not None and Path(replayed).resolve() == entry.resolve():
        say(f"cache: the kept run in {entry} replayed whole, and stays as it was")
    else:
        say(f"cache: kept in {entry}")

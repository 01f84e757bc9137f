"""CLI command: ``mobile-agent run "INSTRUCTION" --device sim --model NAME ...``."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.markup import escape

from mobile_agent.agent.record import StepRecord
from mobile_agent.cli._common import (ApiKeyEnvOpt, BaseUrlOpt, CacheModeOpt, IconModelOpt, ModelTimeoutOpt, OcrOpt,
                                      OverwriteOpt,
                                      PerceptionOpt, SecretOpt, SeedOpt, TimeLimitOpt, cache_option, cached_planner, check_out,
                                      confirm_at_terminal, console, default_out, keep_in_cache, open_phone,
                                      perception_mode_of, run_in, shown, step_line, terminal_ask)
from mobile_agent.cli.fleet import phone_specs
from mobile_agent.errors import ConfigError
from mobile_agent.fsutil import load_json

#: The exit status of a run that needed a person and could reach none (outcome ``needs_user``).
EXIT_NEEDS_USER = 3

MODEL_NEEDED = ("run needs a model to plan the steps: --model gpt-4o (key in OPENAI_API_KEY), --model "
                "claude-sonnet-4-5 (ANTHROPIC_API_KEY), a local server (--model llava --base-url "
                "http://localhost:11434/v1), or offline, with no key: --model scripted:FILE, replies from a file "
                "separated by lines holding only ---. Example: mobile-agent run \"Turn on the dark mode\" "
                "--model gpt-4o --device sim")


def _values(instruction: str, param: list[str], secret: list[str],
            cache: Path | None, cache_mode: str = "read-write") -> tuple[dict[str, str], dict[str, str]]:
    """``--param`` and ``--secret`` as {NAME: VALUE}, checked against the instruction (one-line errors)."""
    from mobile_agent.agent.replay_cache import parse_values, placeholder
    from mobile_agent.errors import remember_secret

    params, secrets = parse_values(param, "--param"), parse_values(secret, "--secret")
    if cache is not None:  # before any model or device: a folder others can write is refused
        from mobile_agent.agent.replay_cache import RunCache

        RunCache(cache, cache_mode)
    elif cache_mode != "read-write":
        raise ConfigError("--cache-mode says how --cache DIR is used: give --cache DIR too")
    if params and cache is None:
        raise ConfigError("--param names a value of the instruction for the run cache: give --cache DIR too")
    for name, value in params.items():
        if value not in instruction:
            raise ConfigError(f"--param {name}: {value!r} is not in the instruction (a parameter is a part of it)")
    for name in secrets:
        if placeholder(name) not in instruction:
            raise ConfigError(f"--secret {name}: write {{{name}}} in the instruction where the value goes (the model "
                              f"types {{{name}}}; the phone gets the value)")
        if name in params:
            raise ConfigError(f"{name} is both a --param and a --secret: give it once")
    for name, value in secrets.items():
        remember_secret(value, name)  # written {NAME} in every record, line and request (4 characters or more)
    return params, secrets


def register(app: typer.Typer) -> None:
    """Add ``run`` to the main app."""

    @app.command("run")
    def run(
        instruction: str = typer.Argument(..., help="What the agent should do, e.g. \"Turn on the dark mode\"."),
        device: Optional[List[str]] = typer.Option(None, "--device", help="sim (the default), adb:SERIAL, adb "
                                                   "(every attached phone), ios or ios:URL (an iPhone's "
                                                   "WebDriverAgent). Repeat it to run the instruction on several "
                                                   "phones at once, each into OUT/NAME."),
        model: Optional[str] = typer.Option(None, "--model", help="Required: the model that plans. gpt-4o, "
                                            "claude-sonnet-4-5, a model on --base-url (qwen-vl-max, llava...), "
                                            "openai:NAME, anthropic:NAME, or scripted:FILE (replies from a file, "
                                            "offline)."),
        base_url: BaseUrlOpt = None,
        api_key_env: ApiKeyEnvOpt = None,
        model_timeout: ModelTimeoutOpt = 120.0,
        max_steps: int = typer.Option(20, "--max-steps", min=1, help="Step limit."),
        time_limit: TimeLimitOpt = 900.0,
        out: Optional[Path] = typer.Option(None, "--out", help="Trajectory folder (default runs/<time>-<instruction>). "
                                           "A folder that holds a run is refused, unless --overwrite."),
        overwrite: OverwriteOpt = False,
        confirm: bool = typer.Option(False, "--confirm", help="Ask before touching what sends, buys, pays, deletes, "
                                     "installs, signs out or confirms (the grounded element's text or icon, and the "
                                     "screen around an OK), and before Enter inside Type."),
        confirm_words: Optional[Path] = typer.Option(None, "--confirm-words", help="More words for --confirm, one a "
                                                     "line (act: word files it under an act; !word drops a built-in "
                                                     "one); default ~/.config/mobile-agent/confirm-words.txt if it "
                                                     "exists."),
        dry_run: bool = typer.Option(False, "--dry-run", help="Plan and ground one step; touch nothing."),
        reflect: bool = typer.Option(False, "--reflect", help="An extra model call after each operation: "
                                     "as expected / wrong page / no change."),
        no_completion_check: bool = typer.Option(False, "--no-completion-check",
                                                 help="Trust Stop without checking the final screen."),
        history_screens: int = typer.Option(1, "--history-screens", min=1, help="Screenshots per request (last K)."),
        max_side: int = typer.Option(1024, "--max-side", min=64, help="Longest side of screenshots sent to the model."),
        jpeg_quality: int = typer.Option(80, "--jpeg-quality", min=1, max=95, help="JPEG quality of screenshots sent."),
        ocr: OcrOpt = "rapidocr",
        icon_model: IconModelOpt = None,
        perception_mode: PerceptionOpt = "hybrid",
        seed: SeedOpt = 0,
        live: bool = typer.Option(False, "--live", help="Serve a page on 127.0.0.1 that shows each step as it happens."),
        mode: str = typer.Option("single", "--mode", help="single (one ReAct agent, the paper's method) or multi "
                                 "(a manager that plans and re-plans, an executor, a verifier, notes across apps)."),
        executor_model: Optional[str] = typer.Option(None, "--executor-model", help="--mode multi: the executor's "
                                                     "model (e.g. a cheaper one; default: --model)."),
        no_ask: bool = typer.Option(False, "--no-ask", help="Offer the model no Ask User or Take Over: it never "
                                    "waits for a person (by default it may ask at the terminal, or in the live "
                                    "view's answer box with --live; with no terminal the run ends needs_user, "
                                    "exit 3)."),
        allow_app: Optional[List[str]] = typer.Option(None, "--allow-app", help="Only these apps may be opened "
                                                      "(a label or a package; repeatable): an Open App of another "
                                                      "app, or a tap on its launcher icon, is refused and the model "
                                                      "told (single mode)."),
        cache: Optional[Path] = typer.Option(None, "--cache", callback=cache_option, help="A folder of completed "
                                             "runs (`default`: your cache folder, ~/.cache/mobile-agent/runs on Linux): a run "
                                             "of an instruction kept there replays first (the model takes over where the "
                                             "phone differs); a completed, confirmed run is kept (single mode)."),
        cache_mode: CacheModeOpt = "read-write",
        param: Optional[List[str]] = typer.Option(None, "--param", help="NAME=VALUE, with --cache: VALUE in the "
                                                  "instruction is a parameter; the run is kept with {NAME} for it, "
                                                  "and replays for another value (repeatable)."),
        secret: SecretOpt = None,
        model_family: Optional[str] = typer.Option(None, "--model-family", help="A point-output GUI model's family "
                                                   "(ui-tars-1.5, autoglm-phone, qwen2.5-vl, gui-owl-v3, mai-ui...; "
                                                   "docs/models.md), or react (the paper's replies). Default: "
                                                   "recognised from --model's name."),
        grounder: Optional[str] = typer.Option(None, "--grounder", help="A point-output GUI model (UI-TARS, "
                                               "Qwen-VL, GUI-Owl...) that finds Click Text / Click Icon targets; "
                                               "OCR and the icon detector check its point and stand in for it."),
        grounder_base_url: Optional[str] = typer.Option(None, "--grounder-base-url", help="The --grounder's "
                                                        "OpenAI-compatible endpoint (default: --base-url)."),
        save_flow: Optional[Path] = typer.Option(None, "--save-flow", help="When the run completes, write it as a "
                                                 "test flow of plain steps to this YAML file (mobile-agent test "
                                                 "repeats it with no model; docs/flows.md)."),
    ) -> None:
        """Carry out INSTRUCTION on a phone with a model that plans each step.

        Exit 0 when it was completed and confirmed, 1 otherwise, 2 on a usage or configuration error, 3
        when the agent asked the user something and no one could answer (no terminal): the question is
        in summary.json (needs_user).
        Offline, with no key: --model scripted:FILE plays the replies in FILE (separated by lines holding
        only ---)."""
        from mobile_agent.agent import StepLoop, AgentSettings
        from mobile_agent.model import make_chat_model
        from mobile_agent.report import write_report

        from mobile_agent.agent.risk import load_rules

        if confirm_words is not None and not confirm:
            raise ConfigError("--confirm-words adds words to --confirm: give --confirm too")
        if not instruction.strip():
            raise ConfigError("the instruction is empty: say what the agent should do")
        if mode not in ("single", "multi"):
            raise ConfigError(f"unknown mode {mode!r}: use single or multi")
        if executor_model and mode != "multi":
            raise ConfigError("--executor-model is for --mode multi (single mode has one model)")
        if model is None or not model.strip():
            raise ConfigError(MODEL_NEEDED)
        if model_family is not None:
            from mobile_agent.agent.families import REACT, get_family

            if model_family.strip().lower() != REACT:
                get_family(model_family)  # an unknown family: refused before any work, naming the families
                if mode == "multi":
                    raise ConfigError("--model-family is for single mode (--mode multi's roles answer in ReAct form)")
        params, secrets = _values(instruction, param or [], secret or [], cache, cache_mode)
        perception_mode = perception_mode_of(perception_mode)
        check_out(out, overwrite)  # before any work: a folder in use, or holding another run, is refused
        if cache is not None and mode == "multi":
            raise ConfigError("--cache replays single-mode runs: leave out --mode multi")
        if allow_app and mode == "multi":
            raise ConfigError("--allow-app is enforced by the single-mode agent: leave out --mode multi")
        chat: Any = make_chat_model(model, base_url=base_url, api_key_env=api_key_env, timeout_s=model_timeout)
        chat_name, made, made_lock = chat.name, [chat], threading.Lock()
        specs = phone_specs(device or ["sim"])  # `--device adb`: every attached phone
        if len(specs) > 1 and live:
            raise ConfigError("--live follows one phone: give one --device, or leave out --live")

        def build(spec: str, on_step: Any, person: Any, say: Any = None) -> Any:
            """The agent of one phone: its own device, model client, perception and settings."""
            with made_lock:  # the client made above goes to the first phone; each other gets its own
                own_chat = made.pop() if made else make_chat_model(model, base_url=base_url,
                                                                   api_key_env=api_key_env, timeout_s=model_timeout)
            executor_chat = make_chat_model(executor_model, base_url=base_url, api_key_env=api_key_env,
                                            timeout_s=model_timeout) if executor_model else None
            phone = open_phone(spec, seed)
            typing = getattr(phone, "typing_problem", None)  # a real phone without a keyboard for any text
            line = typing(instruction) if callable(typing) else None
            if line:
                (say or (lambda text: console.print(escape(text), highlight=False, soft_wrap=True)))(f"typing: {line}")
            from mobile_agent.perception import Perception

            perception: Any = Perception(ocr=ocr, icon_model=icon_model)
            if grounder:  # a point-output model finds what the planner names (agent/grounder.py)
                from mobile_agent.agent.families import family_for_model
                from mobile_agent.agent.grounder import ModelGrounder

                family = family_for_model(grounder.split(":", 1)[-1])
                if family is None:
                    raise ConfigError(f"--grounder {grounder!r} is not a point-output model family's name "
                                      "(docs/models.md)")
                perception = ModelGrounder(perception, make_chat_model(
                    grounder, base_url=grounder_base_url or base_url, api_key_env=api_key_env,
                    timeout_s=model_timeout), family)
            settings = AgentSettings(
                max_steps=max_steps, time_limit_s=time_limit, image_max_side=max_side, jpeg_quality=jpeg_quality,
                history_screens=history_screens, confirm=confirm_at_terminal(spec, len(specs)) if confirm else None,
                dry_run=dry_run, reflect=reflect, risk_rules=load_rules(confirm_words) if confirm else None,
                completion_check=not no_completion_check, device_name=spec, perception_mode=perception_mode,
                on_step=on_step, on_finish=write_report, overwrite=overwrite, ask=person, secrets=secrets,
                allowed_apps=tuple(allow_app or ()),
            )
            cache_store = None
            if mode == "multi":
                from mobile_agent.agent.multi import MultiAgent

                agent: Any = MultiAgent(phone, own_chat, perception, settings, executor_model=executor_chat)
            else:
                from mobile_agent.agent.families import planner_for

                planner: Any = planner_for(own_chat, model_family)  # a point-output family's, or ReAct's
                if cache is not None:
                    planner, cache_store = cached_planner(cache, instruction, spec, phone, perception, planner,
                                                          params=params, secrets=secrets, say=say,
                                                          cache_mode=cache_mode)
                agent = StepLoop(phone, planner, perception, settings)

            def keep(out_dir: Path, result: Any) -> None:
                if cache_store is not None:
                    keep_in_cache(cache_store, out_dir, result, values={**params, **secrets},
                                  secret_names=tuple(secrets), perception=perception, say=say)

            return phone, agent, keep

        if len(specs) > 1:
            from mobile_agent.cli.fleet import run_fleet

            if save_flow is not None:
                raise ConfigError("--save-flow writes the run of one phone: give one --device")

            raise typer.Exit(run_fleet(instruction, specs, out or default_out(instruction), overwrite, build,
                                       asks=not no_ask, title=f"{mode} mode, {perception_mode} perception"))
        device = specs[0]
        out_dir = out or default_out(instruction)
        print_step = lambda rec: console.print(step_line(rec), highlight=False, soft_wrap=True)  # noqa: E731
        view = None
        on_step = print_step
        person: Any = None if no_ask else terminal_ask
        if live:
            from mobile_agent.report.live import LiveView

            view = LiveView(instruction)
            console.print(escape(f"live view at {view.start()}"), highlight=False)
            follow = view.follow(out_dir)

            def on_step(rec: StepRecord | dict[str, Any]) -> None:
                print_step(rec)
                follow(rec)

            def page_ask(req: Any) -> str | None:
                """With --live the person answers in the page's answer box (the terminal says so)."""
                from mobile_agent.agent.user import printable

                console.print(f"[bold yellow]?[/bold yellow] {escape(printable(req.prompt()))}" + escape(
                    f"  (answer in the live view: {view.url})"), highlight=False, soft_wrap=True)
                return view.ask(req)

            if not no_ask:
                person = page_ask

        phone, agent, keep = build(device, on_step, person)
        if view is not None:
            view.show_screen(phone.screenshot())
        console.print(f"[bold]{escape(shown(instruction))}[/bold]  " + escape(
            f"({getattr(agent, 'name', chat_name)} on {device}, {mode} mode, {perception_mode} perception; "
            f"trajectory in {out_dir})"), highlight=False)
        try:
            result = run_in(out_dir, overwrite, lambda folder: agent.run(instruction, folder))
        finally:
            if view is not None:
                summary_file = Path(out_dir) / "summary.json"
                if summary_file.exists():
                    import json

                    from PIL import Image

                    final = None
                    try:
                        with Image.open(Path(out_dir) / "screens" / "final.png") as im:
                            final = im.convert("RGB")
                    except (OSError, ValueError):
                        pass
                    view.finish(load_json(summary_file.read_text(encoding="utf-8")), final)
                view.close(wait_s=5.0)  # an open page is told how the run ended before the server stops
        keep(out_dir, result)
        if save_flow is not None:
            if result.completed:
                from mobile_agent.flows.record import save_flow as write_flow

                console.print(escape(f"flow: {write_flow(out_dir, save_flow, names=[*params, *secrets], secrets=secrets)}"),
                              highlight=False, soft_wrap=True)
            else:
                console.print(escape(f"flow: not written, the run did not complete ({result.outcome})"),
                              highlight=False, soft_wrap=True)
        cost = f", ${result.cost_usd:.4f}" if result.cost_usd is not None else ""
        colour = "green" if result.completed else "red"
        console.print(
            f"[{colour}]{escape(result.outcome)}[/{colour}] " + escape(
                f"after {result.steps} step(s), {result.duration_s:.1f} s, {result.usage.total_tokens} tokens{cost}; "
                f"trajectory: {result.out_dir}"), highlight=False)
        if result.error:
            console.print(f"[red]{escape(result.error)}[/red]", highlight=False)
        if result.needs_user is not None:
            from mobile_agent.agent.user import printable

            console.print(f"[yellow]{escape(printable(result.needs_user.prompt()))}[/yellow]" + escape(
                " (no one could answer; it is in summary.json: run again at a terminal, or with the answer in the "
                "instruction)"), highlight=False, soft_wrap=True)
            raise typer.Exit(EXIT_NEEDS_USER)
        if isinstance(result.exception, ConfigError):
            raise result.exception
        raise typer.Exit(0 if result.completed else 1)

"""CLI command: ``mobile-agent replay RUN_DIR [--device ...] [--model NAME | none] [--param OLD=NEW ...]``.

Plays a recorded run's operations again through the same loop (each grounded afresh, checked
against the recorded screen), with a model taking over where the phone has changed
(:mod:`mobile_agent.agent.replay`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.markup import escape

from mobile_agent.cli._common import (ApiKeyEnvOpt, BaseUrlOpt, IconModelOpt, ModelTimeoutOpt, OcrOpt, OverwriteOpt,
                                      PerceptionOpt,
                                      SecretOpt, SeedOpt, TimeLimitOpt, check_out, console, default_out, open_phone,
                                      perception_mode_of, run_in, shown, step_line, terminal_confirm)
from mobile_agent.errors import ConfigError


def replay_line(summary: dict[str, Any]) -> str | None:
    """The replay's counts in one line (None for a summary without them)."""
    r = summary.get("replay")
    if not isinstance(r, dict):
        return None
    line = (f"replayed {r.get('replayed_steps', 0)} step(s), planned {r.get('planned_steps', 0)}; "
            f"model calls saved: {r.get('model_calls_saved', 0)}")
    if r.get("resumed"):
        line += f"; resumed {r['resumed']} time(s)"
    return line


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the main app."""

    @app.command("replay")
    def replay(
        run_dir: Path = typer.Argument(..., help="A completed run's folder (steps.jsonl, screens/, summary.json)."),
        device: str = typer.Option("sim", "--device", help="sim, adb, adb:SERIAL, ios or ios:URL."),
        model: Optional[str] = typer.Option(None, "--model", help="The model that takes over where the phone "
                                            "differs from the recording (gpt-4o, openai:NAME, scripted:FILE...), "
                                            "or none (default): a divergence ends the replay."),
        base_url: BaseUrlOpt = None,
        api_key_env: ApiKeyEnvOpt = None,
        model_timeout: ModelTimeoutOpt = 120.0,
        param: Optional[List[str]] = typer.Option(None, "--param", help="OLD=NEW: replace OLD in typed texts (and "
                                                  "a Click Text target equal to OLD) by NEW; repeatable."),
        secret: SecretOpt = None,
        out: Optional[Path] = typer.Option(None, "--out", help="The new run's folder (default "
                                           "runs/<time>-<instruction>)."),
        overwrite: OverwriteOpt = False,
        confirm: bool = typer.Option(False, "--confirm", help="Ask before touching what sends, buys, pays, deletes "
                                     "(replayed steps are judged as planned ones)."),
        max_steps: Optional[int] = typer.Option(None, "--max-steps", min=1, help="Step limit (default: twice the "
                                                "recorded steps, at least 10)."),
        time_limit: TimeLimitOpt = 900.0,
        ocr: OcrOpt = "rapidocr",
        icon_model: IconModelOpt = None,
        perception_mode: PerceptionOpt = "hybrid",
        seed: SeedOpt = 0,
    ) -> None:
        """Replay a recorded run: each operation grounded afresh on the current screen.

        Before each recorded step the screen is checked against the recorded one (its texts and their
        places, the status bar, clock, digits and badges aside). Without a model a divergence ends the
        replay (exit 1, naming the step, what was expected and what is there); with --model the model
        plans from there and the replay resumes when a recorded screen comes back. Exit 0 when
        completed, 1 otherwise, 2 for a folder that cannot be replayed."""
        from mobile_agent.agent import StepLoop, AgentSettings, LLMPlanner
        from mobile_agent.agent.replay import Recording, ReplayPlanner, parse_params
        from mobile_agent.agent.risk import load_rules
        from mobile_agent.agent.trajectory import read_summary
        from mobile_agent.model import make_chat_model
        from mobile_agent.perception import Perception
        from mobile_agent.report import write_report

        from mobile_agent.agent.replay_cache import parse_values, refuse_missing_secrets
        from mobile_agent.errors import remember_secret

        params = parse_params(param or [])
        secrets = parse_values(secret or [], "--secret")
        for name, value in secrets.items():
            remember_secret(value, name)  # written {NAME} in every record and line, whatever its length
        recording = Recording.load(run_dir, params)
        refuse_missing_secrets(recording, secrets, str(run_dir))
        perception_mode = perception_mode_of(perception_mode)
        if out is not None and out.resolve() == run_dir.resolve():
            raise ConfigError("--out is the recording's own folder; give another folder for the replay")
        check_out(out, overwrite)
        fallback = None
        if model is not None and model.strip().lower() not in ("", "none"):
            fallback = LLMPlanner(make_chat_model(model, base_url=base_url, api_key_env=api_key_env,
                                                  timeout_s=model_timeout))
        phone = open_phone(device, seed)
        perception = Perception(ocr=ocr, icon_model=icon_model)
        planner = ReplayPlanner(recording, perception, fallback, params=params, secrets=secrets)
        out_dir = out or default_out(recording.instruction)
        steps = max_steps or max(10, 2 * len(recording.steps))
        settings = AgentSettings(
            max_steps=steps, time_limit_s=time_limit, confirm=terminal_confirm if confirm else None,
            risk_rules=load_rules(None) if confirm else None, device_name=device, perception_mode=perception_mode,
            on_step=lambda rec: console.print(step_line(rec) + (f"  [dim]{rec.source}[/dim]" if rec.source else ""),
                                              highlight=False, soft_wrap=True),
            on_finish=write_report, overwrite=overwrite, secrets=secrets,
        )
        console.print(f"[bold]{escape(shown(recording.instruction))}[/bold]  " + escape(
            f"(replay of {run_dir}: {len(recording.steps)} recorded step(s), "
            f"{'model ' + fallback.name if fallback else 'no model'}, on {device}; trajectory in {out_dir})"),
            highlight=False)
        result = run_in(out_dir, overwrite, lambda folder: StepLoop(phone, planner, perception, settings).run(
            recording.instruction, folder))
        colour = "green" if result.completed else "red"
        console.print(f"[{colour}]{escape(result.outcome)}[/{colour}] " + escape(
            f"after {result.steps} step(s), {result.duration_s:.1f} s, {result.usage.total_tokens} tokens; "
            f"trajectory: {result.out_dir}"), highlight=False)
        line = replay_line(read_summary(out_dir) or {})
        if line:
            console.print(escape(line), highlight=False)
        if result.error:
            console.print(f"[red]{escape(result.error)}[/red]", highlight=False, soft_wrap=True)
        if isinstance(result.exception, ConfigError):
            raise result.exception
        raise typer.Exit(0 if result.completed else 1)

"""CLI command: ``mobile-agent test FLOW... [--device D] [--model M] [--out DIR] [--junit FILE]``: run
YAML test flows (mobile_agent/flows, docs/flows.md) and say which passed, as CI reads it."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from mobile_agent.cli._common import (ApiKeyEnvOpt, BaseUrlOpt, CacheModeOpt, ModelTimeoutOpt, cache_option, console,
                                      shown)


def register(app: typer.Typer) -> None:
    @app.command("test")
    def test(
        paths: List[Path] = typer.Argument(..., help="Flow files (YAML), or folders of them."),
        device: Optional[List[str]] = typer.Option(None, "--device", help="sim (the default: a fresh simulated "
                                                   "phone for each flow), adb:SERIAL, ios:URL, harmony:SERIAL. "
                                                   "Repeat it to run each flow on each device."),
        model: Optional[str] = typer.Option(None, "--model", help="The model of ai:, assert: and query: steps "
                                            "(gpt-4o, openai:NAME on --base-url, scripted:FILE...). Flows of "
                                            "plain steps need none."),
        base_url: BaseUrlOpt = None,
        api_key_env: ApiKeyEnvOpt = None,
        model_timeout: ModelTimeoutOpt = 120.0,
        out: Path = typer.Option(Path("flows-out"), "--out", help="Where each flow's results go "
                                 "(OUT/<flow>/flow.json and report.html, its failing screenshot, its ai: runs), OUT/summary.json "
                                 "and OUT/index.html."),
        junit: Optional[Path] = typer.Option(None, "--junit", help="Write JUnit XML here (one testcase a flow)."),
        fail_fast: bool = typer.Option(False, "--fail-fast", help="Stop at the first flow that fails."),
        tag: Optional[List[str]] = typer.Option(None, "--tag", help="Run only the flows with this tag (repeatable)."),
        cache: Optional[Path] = typer.Option(None, "--cache", callback=cache_option, help="A run cache folder (as run "
                                             "--cache): each ai: step replays a kept run of its instruction, the "
                                             "model only where the phone differs; a completed one is kept. "
                                             "assert: and query: are never cached."),
        cache_mode: CacheModeOpt = "read-write",
        secret: Optional[List[str]] = typer.Option(None, "--secret", help="NAME=VALUE for a flow's secrets: NAME "
                                                   "(else read from the environment); a typed ${NAME} reaches the "
                                                   "phone as VALUE, the model and the results see {NAME} "
                                                   "(repeatable)."),
        icon_model: Optional[Path] = typer.Option(None, "--icon-model", help="The icon recogniser: a folder "
                                                  "`mobile-agent perception learn` wrote (or its .onnx file); "
                                                  "default: the shipped one."),
    ) -> None:
        """Run test flows: exit 0 when every flow passed, 1 when one failed, 2 for a flow file that
        cannot be run as written (the file, the line and why)."""
        from mobile_agent.flows import junit_xml, load_flows, run_flows
        from mobile_agent.flows.runner import total_cost

        from mobile_agent.agent.replay_cache import parse_values
        from mobile_agent.errors import check_user_secret

        secrets = parse_values(secret or [], "--secret")
        for name, value in secrets.items():
            check_user_secret(name, value)
        flows = load_flows(paths)
        if tag:
            flows = [f for f in flows if set(tag) & set(f.tags)]
            if not flows:
                console.print(escape(f"no flow has the tag(s) {', '.join(tag)}"), highlight=False)
                raise typer.Exit(2)
        store = None
        if cache is not None:
            from mobile_agent.agent.replay_cache import RunCache

            store = RunCache(cache, cache_mode)
        chat = None
        needs = any(s.kind in ("assert", "query") or (s.kind == "ai" and store is None) for f in flows for s in f.steps)
        if model or needs:
            if not model:
                from mobile_agent.errors import ConfigError

                needing = ", ".join(f"{f.path}:{s.line} ({s.kind})" for f in flows for s in f.steps
                                    if s.kind in ("ai", "assert", "query"))[:300]
                raise ConfigError(f"these steps ask the model: {needing}; give --model (and --base-url for a "
                                  "local server)")
            from mobile_agent.model import make_chat_model

            chat = make_chat_model(model, base_url=base_url, api_key_env=api_key_env, timeout_s=model_timeout)

        def said(r) -> None:  # noqa: ANN001 - a FlowResult
            mark = "[green]passed[/green]" if r.passed else "[red]failed[/red]"
            where = f" on {r.device}" if len(device or ["sim"]) > 1 else ""
            console.print(f"{mark} " + escape(f"{shown(r.name)}{where} ({r.duration_s:.1f} s, "
                                               f"{len(r.steps)} step(s))"), highlight=False, soft_wrap=True)
            if not r.passed:
                console.print("  " + escape(shown(r.failure)), highlight=False, soft_wrap=True)

        perception = None
        if icon_model is not None:
            from mobile_agent.perception import Perception

            perception = Perception(icon_model=icon_model)
        results = run_flows(flows, device or ["sim"], out, model=chat, fail_fast=fail_fast, on_flow=said, cache=store,
                            secrets=secrets, perception=perception)
        if junit is not None:
            from mobile_agent.fsutil import atomic_write_text

            junit.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(junit, junit_xml(results))
        passed = sum(r.passed for r in results)
        calls, cost = sum(r.model_calls for r in results), total_cost(results)
        priced = f" (${cost:.4f})" if cost is not None else (" (cost unknown: no price for the model)" if calls else "")
        console.print(escape(f"{passed} of {len(results)} flow(s) passed; {calls} model call(s){priced}; results in "
                             f"{out / 'summary.json'}, pages from {out / 'index.html'}"
                             + (f", JUnit in {junit}" if junit else "")), highlight=False,
                      soft_wrap=True)
        raise typer.Exit(0 if passed == len(results) and len(results) == len(flows) * len(device or ["sim"])
                         else 1)

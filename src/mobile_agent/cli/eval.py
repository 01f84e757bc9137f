"""CLI command: ``mobile-agent eval`` runs the Mobile-Eval benchmark (default: the oracle planner on
the simulated phone, all 33 tasks, offline)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from mobile_agent.cli._common import CacheModeOpt, cache_option
from mobile_agent.errors import ConfigError, StorageError
from mobile_agent.fsutil import FolderLock, atomic_write_text

console = Console()


def register(app: typer.Typer) -> None:
    """Add ``eval`` to the main app."""

    @app.command("eval")
    def eval_cmd(
        suite: str = typer.Option("mobile-eval", "--suite", help="Tier: mobile-eval (the paper's 33), "
                                   "mobile-eval-disturbed (the 33 with disturbances on), mobile-eval-long "
                                   "(long multi-app tasks), mobile-eval-ask (tasks that need the user: a "
                                   "simulated user answers)."),
        planner: str = typer.Option("oracle", "--planner", help="oracle (reference plans through perception, "
                                    "offline), noisy (the reference plans phrased as models phrase them, seeded, "
                                    "offline), model (a chat model), or scripted (replies from --replies FILE)."),
        model: Optional[str] = typer.Option(None, "--model", help="Model for --planner model: gpt-4o, claude-..., "
                                            "openai:NAME, anthropic:NAME, scripted:FILE."),
        base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible (or Anthropic) endpoint."),
        api_key_env: Optional[str] = typer.Option(None, "--api-key-env", help="Environment variable holding the key."),
        model_timeout: float = typer.Option(120.0, "--model-timeout", min=1.0, help="Total deadline of each model "
                                            "request in seconds (the whole answer, not each read)."),
        replies: Optional[Path] = typer.Option(None, "--replies", help="Replies file for --planner scripted "
                                               "(replies separated by lines holding only ---, or a JSON list)."),
        tasks: Optional[str] = typer.Option(None, "--tasks", help="Comma-separated task ids (notes-2, or notes-2#3 "
                                            "for one variant)."),
        tier: Optional[int] = typer.Option(None, "--tier", help="Only instructions of this tier (1, 2 or 3)."),
        app_name: Optional[str] = typer.Option(None, "--app", help="Only the tasks of this app (Notes, Multi-app...)."),
        variants: int = typer.Option(1, "--variants", help="Variants per task (parameters drawn from the seed)."),
        seed: int = typer.Option(0, "--seed", help="Base seed of the simulated phone."),
        workers: int = typer.Option(1, "--workers", help="Tasks run in parallel processes, each with its own phone."),
        max_steps: Optional[int] = typer.Option(None, "--max-steps", help="Step budget per task "
                                                "(default: twice the human steps, at least 10)."),
        out: Path = typer.Option(Path("runs/eval"), "--out", help="Output folder: results.sqlite and trajectories."),
        json_path: Optional[Path] = typer.Option(None, "--json", help="Also write the tables and results to this file."),
        resume: bool = typer.Option(False, "--resume", help="Skip tasks already stored for the same configuration."),
        device: str = typer.Option("sim", "--device", help="sim, or adb[:SERIAL] / ios[:URL] for a real phone "
                                   "(a person judges)."),
        ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr or tesseract."),
        icon_model: Optional[Path] = typer.Option(None, "--icon-model", help="The icon recogniser: a folder `mobile-agent perception learn` wrote (or its .onnx file); default: the shipped one."),
        reflect: bool = typer.Option(False, "--reflect", help="Reflection calls after each step (model planner)."),
        mode: str = typer.Option("single", "--mode", help="single (the paper's agent) or multi (manager, executor, "
                                 "verifier, notes; needs --planner model)."),
        executor_model: Optional[str] = typer.Option(None, "--executor-model", help="--mode multi: the executor's "
                                                     "model (default: --model)."),
        perception: str = typer.Option("vision", "--perception", help="vision (eval's default: the paper's "
                                       "method, pixels only) or hybrid (the phone's accessibility tree beside "
                                       "the pixels; run's default)."),
        cache: Optional[Path] = typer.Option(None, "--cache", callback=cache_option, help="A run cache folder (as "
                                             "run --cache; `default`: your cache folder): a task's "
                                             "kept run replays first; a successful run is kept (single mode)."),
        cache_mode: CacheModeOpt = "read-write",
        model_family: Optional[str] = typer.Option(None, "--model-family", help="A point-output GUI model's family "
                                                   "(ui-tars-1.5, autoglm-phone, qwen2.5-vl, gui-owl-v3, mai-ui...; "
                                                   "docs/models.md): --planner model reads its replies (default: "
                                                   "recognised from --model's name); --planner oracle speaks it, "
                                                   "--planner noisy with its real quirks."),
        list_only: bool = typer.Option(False, "--list", help="List the selected tasks and exit."),
        engine: str = typer.Option("local", "--engine", help="local (processes on this machine) or ray (one Ray "
                                   "task per task run, here or on a cluster)."),
        address: Optional[str] = typer.Option(None, "--address", help="--engine ray: a cluster (auto, or "
                                              "ray://HOST:PORT); default a local Ray with --workers CPUs."),
        devices: Optional[str] = typer.Option(None, "--devices", help="--engine ray: a pool of devices, each "
                                              "lent to one task at a time: serial1,serial2 (adb), sim:NAME "
                                              "slots, or a file with one a line."),
        retries: int = typer.Option(1, "--retries", help="--engine ray: attempts after an environment failure "
                                    "(a worker or device that died)."),
    ) -> None:
        """Run the Mobile-Eval benchmark and print SU, PS, RE, CR by instruction tier and by app."""
        from mobile_agent.bench.runner import EvalConfig, run_eval
        from mobile_agent.bench.suite import select

        from mobile_agent.bench.engines import ENGINES, parse_devices

        # values checked before any work (and before the output folder is made)
        if workers < 1:
            raise ConfigError(f"--workers must be at least 1, got {workers}")
        if out.exists() and not out.is_dir():
            raise ConfigError(f"--out {out} is a file; give a folder (it gets results.sqlite and the trajectories)")
        if json_path is not None and json_path.is_dir():
            raise ConfigError(f"--json {json_path} is a folder; give a file name (for example {json_path / 'results.json'})")
        if engine not in ENGINES:
            raise ConfigError(f"unknown engine {engine!r}: use one of {', '.join(ENGINES)}")
        pool = parse_devices(devices)
        if engine == "local" and (address or pool):
            raise ConfigError("--address and --devices go with --engine ray")
        if pool and pool[0].startswith("adb:") and device == "sim":
            device = "adb"  # a pool of real phones: judged by a person, as --device adb
        config = EvalConfig(suite=suite, planner=planner, model=model, base_url=base_url, api_key_env=api_key_env,
                            replies=str(replies) if replies else None, max_steps=max_steps, ocr=ocr, device=device,
                            icon_model=str(icon_model) if icon_model is not None else None,
                            base_seed=seed, reflect=reflect, mode=mode, executor_model=executor_model,
                            perception=perception.strip().lower(), model_timeout_s=model_timeout,
                            cache=str(cache) if cache is not None else None, cache_mode=cache_mode,
                            model_family=model_family)
        if cache is not None:  # a read-only folder that does not exist, or that others can write: refused now
            from mobile_agent.agent.replay_cache import RunCache

            RunCache(cache, cache_mode)
        ids = [t.strip() for t in tasks.split(",") if t.strip()] if tasks else None
        selected = select(suite, ids, tier, app_name, variants, seed)
        if not selected:
            raise ConfigError("no task matches the selection (--tasks, --tier, --app)")
        if list_only:
            from mobile_agent.bench.suite import SUITE_TITLES, SUITES, suite_defs

            from rich.table import Table
            from rich.text import Text

            tiers = Table(title="tiers (--suite; * the one listed)", title_justify="left", box=None, padding=(0, 1))
            for col, justify in (("suite", "left"), ("tasks", "right"), ("what", "left")):
                tiers.add_column(col, justify=justify, no_wrap=col != "what")  # type: ignore[arg-type]
            for name in SUITES:
                tiers.add_row(("* " if name == suite else "  ") + name, str(len(suite_defs(name))),
                              Text(SUITE_TITLES[name]))
            console.print(tiers)
            tasks_table = Table(title=f"{len(selected)} task(s)", title_justify="left", box=None, padding=(0, 1))
            for col, justify in (("task", "left"), ("app", "left"), ("tier", "right"), ("human steps", "right"),
                                 ("instruction", "left")):
                tasks_table.add_column(col, justify=justify, no_wrap=col != "instruction")  # type: ignore[arg-type]
            for t in selected:
                tasks_table.add_row(Text(t.key), Text(t.app), str(t.tier), str(t.human_steps), Text(t.instruction))
            console.print(tasks_table)
            raise typer.Exit(0)
        with FolderLock(out, "eval"):
            code = _evaluate(config, selected, out, workers, resume, json_path, device, run_eval, engine=engine,
                             address=address, pool=pool, retries=retries)
        raise typer.Exit(code)


def _evaluate(config, selected, out: Path, workers: int, resume: bool, json_path: Optional[Path], device: str,
              run_eval, engine: str = "local", address: Optional[str] = None, pool: Optional[list] = None,
              retries: int = 1) -> int:
    """Run the selection with the folder locked, print the tables, write results.json and the report;
    returns the exit status."""
    from mobile_agent.bench.tables import (
        LEGEND, app_table, question_summary, render, render_questions, summary_json, tier_table,
    )

    judge = dev = None
    ray_options = None
    if engine == "ray":
        from mobile_agent.bench.engines.ray import RayOptions, import_ray

        import_ray()  # a clear message when Ray is missing, before anything runs
        ray_options = RayOptions(address=address, num_cpus=workers if workers > 1 else None, devices=pool or [],
                                 retries=retries)
        cluster = ray_options.cluster_address()
        if cluster is not None and workers > 1:
            raise ConfigError(f"--workers sizes a local Ray; the cluster at {cluster} runs as many tasks at once as "
                              f"its CPUs allow (leave --workers out)")
        if not config.is_sim:
            from mobile_agent.bench.human import HumanJudge

            if not pool:
                raise ConfigError("--engine ray with real phones needs --devices serial1,serial2")
            judge = HumanJudge()
    elif not config.is_sim:
        from mobile_agent.bench.human import HumanJudge
        from mobile_agent.device import open_device

        dev = open_device(device)
        judge = HumanJudge()
    run = _run_with_progress(config, selected, out, workers, resume, judge, dev, run_eval, engine, ray_options)
    rows = run.rows
    console.print(render("Mobile-Eval by instruction", tier_table(rows)))
    console.print(render("Mobile-Eval by app", app_table(rows)))
    console.print(LEGEND, highlight=False, style="dim")
    questions = question_summary(rows)
    if questions is not None:  # the ask tier: how often the agent asked, against how often it had to
        console.print(render_questions(questions))
    for r in rows:
        if not r.success:
            why = r.detail.get("first_wrong") or r.detail.get("oracle_gave_up") or r.error or r.outcome
            console.print(f"[red]failed[/red] {escape(f'{r.task_key}: {why}')}", highlight=False)
    timing = _timing(rows)
    data = summary_json(rows, config.identity(), {
        "config_id": run.config_id, "duration_s": round(run.duration_s, 2), "workers": run.workers or workers,
        "engine": engine,
        "timing": timing,
        "skipped": run.skipped, "not_run": run.failed, "environment_failures": run.environment,
        "crashed": run.crashed, "interrupted": run.interrupted, "database": str(out / "results.sqlite"),
        **({"questions": questions} if questions is not None else {}),
    })
    text = json.dumps(data, indent=2, default=str)
    not_written: list[str] = []  # a full disk or a read-only folder: said at the end, exit 1; the database keeps all
    for path in [out / run.config_id / "results.json"] + ([json_path] if json_path is not None else []):
        try:
            atomic_write_text(path, text)
        except StorageError as exc:
            not_written.append(str(exc))
    ok = sum(r.success for r in rows)
    if timing["steps"]:
        console.print(f"per task: median {timing['task_median_s']:.1f} s; per step: median "
                      f"{timing['step_median_s']:.2f} s (p10 {timing['step_p10_s']:.2f}, p90 "
                      f"{timing['step_p90_s']:.2f}; perception {timing['perception_median_s']:.2f}) over "
                      f"{timing['steps']} steps", highlight=False)
    from mobile_agent.report.benchmark import cache_summary, replayed_sentence

    cache = cache_summary([r.detail.get("cache") for r in rows])
    if cache is not None:  # --cache: the hit rate, and what was kept for the next pass
        console.print(escape(f"cache: {cache.hit_words()}; {cache.kept} kept"), highlight=False)
        if cache.total is not None:  # what the replayed tasks cost against the runs that filled the cache
            console.print(escape("cache: " + replayed_sentence(cache.total)), highlight=False)
    console.print(escape(f"SU {ok}/{len(rows)} in {run.duration_s:.1f} s with {run.workers or workers} worker(s); "
                         f"results in "
                         f"{out / 'results.sqlite'} (configuration {run.config_id})"), highlight=False)
    for key, err in run.failed.items():
        if key in run.environment:
            console.print(f"[red]environment failure[/red] {escape(f'{key}: {run.environment[key]}')} (not "
                          f"scored; rerun with --resume)", highlight=False)
        else:
            console.print(f"[red]not run[/red] {escape(f'{key}: {err}')}", highlight=False)
    if run.crashed:
        console.print(f"[red]{escape(run.crashed)}[/red]", highlight=False)
    if run.interrupted:
        console.print("[yellow]interrupted: the finished tasks are stored; rerun with --resume[/yellow]")
    if rows:
        from mobile_agent.report import write_benchmark_report

        try:
            page = write_benchmark_report(out)
            console.print(escape(f"report: {page}"), highlight=False)
        except Exception as exc:  # noqa: BLE001 - the results are stored; the page is a view of them
            console.print(f"[yellow]the HTML report could not be written: {escape(str(exc))}[/yellow]",
                          highlight=False)
    for why in not_written:
        console.print(f"[red]error:[/red] {escape(why)}; the results are in {escape(str(out / 'results.sqlite'))} "
                      "(rerun with --resume to write the files)", highlight=False, soft_wrap=True)
    return 0 if run.complete and not not_written else 1


def _timing(rows) -> dict:
    """Medians and spread of the task durations and of the step times recorded in the trajectories."""
    import statistics

    from mobile_agent.agent.trajectory import read_steps

    steps, perception = [], []
    for r in rows:
        if not r.trajectory:
            continue
        try:
            recs = read_steps(r.trajectory)
        except (OSError, ValueError):
            continue
        for rec in recs:
            steps.append(rec.timings.total_s)
            perception.append(rec.timings.perception_s)

    def q(xs: list[float], f: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(f * len(xs)))] if xs else 0.0

    tasks = [r.duration_s for r in rows]
    return {"steps": len(steps), "task_median_s": statistics.median(tasks) if tasks else 0.0,
            "step_median_s": statistics.median(steps) if steps else 0.0, "step_p10_s": q(steps, 0.1),
            "step_p90_s": q(steps, 0.9), "perception_median_s": statistics.median(perception) if perception else 0.0}


def _run_with_progress(config, selected, out, workers, resume, judge, dev, run_eval, engine="local",
                       ray_options=None):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    if judge is not None:  # questions go to the terminal: no live bar over them
        return run_eval(config, selected, out, workers=workers, resume=resume, judge=judge, device=dev, lock=False,
                        engine=engine, ray_options=ray_options)
    counts = {"ok": 0, "done": 0}
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("SU {task.fields[ok]}/{task.fields[done]}"), TimeElapsedColumn(),
                  console=console, transient=False) as progress:
        bar = progress.add_task("Mobile-Eval", total=len(selected), ok=0, done=0)

        def on_start(todo: int, skipped: int) -> None:
            progress.update(bar, total=todo, description=f"Mobile-Eval ({skipped} already done)" if skipped
                            else "Mobile-Eval")

        def on_result(key, row, error) -> None:
            counts["done"] += 1
            if row is not None and row.success:
                counts["ok"] += 1
            progress.update(bar, advance=1, ok=counts["ok"], done=counts["done"])
            mark = "[green]ok[/green]" if row is not None and row.success else "[red]fail[/red]"
            detail = f"{row.steps} steps, {row.duration_s:.1f} s" if row is not None else (error or "")
            progress.console.print(f"{mark} {escape(f'{key}  {detail}')}", highlight=False)

        return run_eval(config, selected, out, workers=workers, resume=resume, on_start=on_start,
                        on_result=on_result, judge=judge, device=dev, lock=False, engine=engine,
                        ray_options=ray_options)

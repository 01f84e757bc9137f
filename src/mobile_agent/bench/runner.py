"""Running tasks: one task on a phone (:func:`run_task`), and a whole selection with results stored
as each task ends, ``--resume``, and worker processes each with its own phone (:func:`run_eval`)."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from mobile_agent.agent.record import StepRecord, as_step_record
from mobile_agent.bench.metrics import ProgressTracker
from mobile_agent.bench.store import ResultRow, ResultStore
from mobile_agent.bench.suite import parse_task_key, suite_defs
from mobile_agent.bench.task import Task
from mobile_agent.device.gestures import Tap
from mobile_agent.errors import ConfigError, DeviceDisconnectedError, DeviceNotFoundError, redact
from mobile_agent.fsutil import FolderLock

PLANNERS = ("oracle", "noisy", "model", "scripted")


@dataclass
class EvalConfig:
    """What defines a benchmark configuration. Results are stored (and resumed) per configuration:
    every field goes into its identity."""

    suite: str = "mobile-eval"
    planner: str = "oracle"
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    replies: str | None = None
    max_steps: int | None = None  # None: twice the human steps, at least 10
    ocr: str = "rapidocr"
    device: str = "sim"
    base_seed: int = 0
    reflect: bool = False
    judge: str = "state"  # "state" (the simulated phone's state) or "human" (asked at the terminal)
    mode: str = "single"  # "single" (the paper's agent) or "multi" (manager, executor, verifier, notes)
    executor_model: str | None = None  # multi mode: the executor's model (default: model)
    perception: str = "vision"  # "hybrid": the accessibility tree beside the pixels (the paper's method is vision)
    model_timeout_s: float = 120.0  # the total deadline of each model request (not part of the identity)
    cache: str | None = None  # a run cache folder (agent/replay_cache.py): kept runs replay first
    cache_mode: str = "read-write"  # --cache-mode: read-write, read-only (never written), write-only (never replayed)
    model_family: str | None = None  # a point-output family (agent/families/): its replies, its coordinates
    icon_model: str | None = None  # --icon-model: the icon recogniser a user taught (perception learn); None: shipped

    def __post_init__(self) -> None:
        if self.planner not in PLANNERS:
            raise ConfigError(f"unknown planner {self.planner!r}: use one of {', '.join(PLANNERS)}")
        if self.planner == "model" and not self.model:
            raise ConfigError("--planner model needs --model NAME (for example gpt-4o, or openai:NAME with --base-url)")
        if self.planner == "scripted" and not (self.replies or self.model):
            raise ConfigError("--planner scripted needs --replies FILE (the model's replies, separated by --- lines)")
        if self.max_steps is not None and self.max_steps < 1:
            raise ConfigError(f"--max-steps must be at least 1, got {self.max_steps}")
        if self.mode not in ("single", "multi"):
            raise ConfigError(f"unknown mode {self.mode!r}: single or multi")
        if self.mode == "multi" and self.planner != "model":
            raise ConfigError("--mode multi needs --planner model --model NAME (its manager and executor are models)")
        if self.executor_model and self.mode != "multi":
            raise ConfigError("--executor-model is for --mode multi")
        if self.perception not in ("vision", "hybrid"):
            raise ConfigError(f"unknown perception {self.perception!r}: vision or hybrid")
        if not self.model_timeout_s > 0:
            raise ConfigError(f"--model-timeout must be more than 0 seconds, got {self.model_timeout_s}")
        if self.cache is not None and self.mode != "single":
            raise ConfigError("--cache replays single-mode runs: leave out --mode multi")
        from mobile_agent.agent.replay_cache import CACHE_MODES

        if self.cache_mode not in CACHE_MODES:
            raise ConfigError(f"--cache-mode must be one of {', '.join(CACHE_MODES)}, got {self.cache_mode!r}")
        if self.cache is None and self.cache_mode != "read-write":
            raise ConfigError("--cache-mode says how --cache DIR is used: give --cache DIR too")
        if self.model_family is not None:
            from mobile_agent.agent.families import REACT, get_family

            self.model_family = self.model_family.strip().lower()
            if self.model_family != REACT:
                get_family(self.model_family)  # unknown: refused, naming the families
            if self.mode == "multi":
                raise ConfigError("--model-family goes with --planner oracle, noisy, model or scripted (single mode)")
        if self.judge not in ("state", "human"):
            raise ConfigError(f"unknown judge {self.judge!r}: state or human")
        if not self.is_sim:
            if self.planner in ("oracle", "noisy"):
                raise ConfigError(f"the {self.planner} planner plays plans written for the simulated phone's apps; "
                                  "on a real phone use --planner model --model NAME")
            self.judge = "human"

    @property
    def is_sim(self) -> bool:
        return self.device.partition(":")[0] == "sim"

    def identity(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("model_timeout_s")  # how long to wait for a model does not change what is measured
        if d.get("base_url"):
            d["base_url"] = redact(d["base_url"])  # no password of a URL in results.sqlite or results.json
        for key, default in (("mode", "single"), ("executor_model", None)):  # identities from before the modes
            if d[key] == default:
                d.pop(key)
        if d["perception"] == "vision":
            d.pop("perception")  # the configurations stored before the option keep their ids
        if d["cache"] is None:
            d.pop("cache")
        if d["cache_mode"] == "read-write":
            d.pop("cache_mode")  # the configurations stored before the option keep their ids
        if d["model_family"] is None:
            d.pop("model_family")  # the configurations stored before the families keep their ids
        if d["icon_model"] is None:
            d.pop("icon_model")  # the configurations stored before the option keep their ids
        return d

    def step_budget(self, task: Task) -> int:
        return self.max_steps if self.max_steps is not None else max(10, 2 * task.human_steps)


def task_by_key(config: EvalConfig, key: str) -> Task:
    """The task of ``config``'s suite with this key (``id`` or ``id#variant``)."""
    tid, variant = parse_task_key(key)
    for d in suite_defs(config.suite):
        if d.id == tid:
            return d.instance(variant, config.base_seed)
    raise ConfigError(f"unknown task {tid!r}")


#: How a worker (of the process pool or of Ray) makes the task of a key: called with the
#: configuration and the key. It travels to the workers pickled, so it is a module-level function
#: or an instance of a module-level class (Ray pickles it with cloudpickle, the pool with pickle).
TaskSource = Callable[[EvalConfig, str], Task]


# --- environment failures ----------------------------------------------------------------------------

ENVIRONMENT_ERRORS: tuple[type[BaseException], ...] = (OSError, DeviceDisconnectedError, DeviceNotFoundError)


def environment_failure(exc: BaseException | None) -> str | None:
    """Why a run failed for reasons outside the agent (docs/benchmark.md, "Environment failures"):
    an ``OSError`` (a full disk, a file that cannot be written, a broken pipe) or the device gone.
    None for anything the agent is answerable for (its plans, grounding, the model's replies)."""
    if exc is None or not isinstance(exc, ENVIRONMENT_ERRORS):
        return None
    return f"{type(exc).__name__}: {exc}"


# --- one task --------------------------------------------------------------------------------------

_PERCEPTION: dict[str, Any] = {}


def _perception(ocr: str, threads: int | None = None, icon_model: str | None = None) -> Any:
    """One perception pipeline per process (loading the OCR models takes a few seconds). ``threads``
    bounds RapidOCR's threads, so that parallel workers do not fight over the cores."""
    key = f"{ocr}|{icon_model or ''}"
    if key not in _PERCEPTION:
        from mobile_agent.perception import Perception

        options = {"threads": threads} if threads and ocr == "rapidocr" else None
        _PERCEPTION[key] = Perception(ocr=ocr, ocr_options=options, icon_model=icon_model)
    return _PERCEPTION[key]


def make_planner(config: EvalConfig, task: Task, perception: Any = None) -> Any:
    """The planner of ``config`` for ``task``; the oracle and noisy planners read the screen with
    ``perception`` (for loading screens)."""
    if config.planner == "oracle" and config.model_family not in (None, "react"):
        from mobile_agent.agent.families import get_family
        from mobile_agent.bench.family_oracle import FamilyOraclePlanner

        return FamilyOraclePlanner(task, get_family(config.model_family), perception)
    if config.planner == "oracle":
        from mobile_agent.bench.oracle import OraclePlanner

        return OraclePlanner(task, perception)
    if config.planner == "noisy" and config.model_family not in (None, "react"):
        from mobile_agent.agent.families import get_family
        from mobile_agent.bench.family_noisy import NoisyFamilyOraclePlanner

        return NoisyFamilyOraclePlanner(task, get_family(config.model_family), perception, seed=config.base_seed)
    if config.planner == "noisy":
        from mobile_agent.bench.noisy import NoisyPlanner

        return NoisyPlanner(task, seed=config.base_seed, perception=perception)
    from mobile_agent.agent.families import planner_for
    from mobile_agent.model import make_chat_model

    if config.planner == "scripted" and config.replies:
        from mobile_agent.model import ScriptedChatModel

        return planner_for(ScriptedChatModel.from_file(config.replies), config.model_family)
    return planner_for(make_chat_model(config.model or "", base_url=config.base_url, api_key_env=config.api_key_env,
                                       timeout_s=config.model_timeout_s), config.model_family)


def _cached(config: EvalConfig, instruction: str, phone: Any, perception: Any, planner: Any) -> Any:
    """With ``config.cache``: (the planner: a replay of the kept run of ``instruction`` with a model
    planner as its fallback, else ``planner``; the cache; the device kind; whether it was a hit).
    None without a cache. The oracle and noisy planners follow their plan from its start, so they
    are no fallback: a replay with them has none."""
    if not config.cache:
        return None
    from mobile_agent.agent.replay import ReplayPlanner
    from mobile_agent.agent.replay_cache import RunCache, device_kind

    store = RunCache(config.cache, config.cache_mode)
    kind = device_kind(config.device, phone.screenshot().size)
    recording = store.lookup(instruction, kind)  # None with write-only
    if recording is None:
        return planner, store, kind, False, None
    fallback = planner if getattr(planner, "asks_model", False) else None
    replay = ReplayPlanner(recording, perception, fallback)
    replay.write_lines = config.cache_mode != "read-only"  # read-only: not even the lines a replay reads
    # what the kept run cost, read before this run may replace it: the report's comparison
    return replay, store, kind, True, run_figures(recording.folder)


def run_figures(run_dir: Path) -> dict[str, Any] | None:
    """A run folder's cost for the benchmark report's cache comparison: model calls, tokens, time,
    steps and replayed steps (None when it cannot be read)."""
    from mobile_agent.agent.trajectory import read_steps, read_summary

    try:
        steps = read_steps(run_dir)
        summary = read_summary(run_dir) or {}
    except (OSError, ValueError):
        return None
    tokens = summary.get("tokens") if isinstance(summary.get("tokens"), dict) else {}
    replay = summary.get("replay") if isinstance(summary.get("replay"), dict) else {}
    return {"calls": sum(s.model.calls or 0 for s in steps),
            "tokens": int(tokens.get("total") or sum(s.model.prompt_tokens + s.model.completion_tokens for s in steps)),
            "duration_s": round(float(summary.get("duration_s") or 0.0), 3), "steps": len(steps),
            "replayed": int(replay.get("replayed_steps") or 0)}


def trajectory_dir(out_dir: Path, cid: str, key: str) -> Path:
    return out_dir / cid / key.replace("#", "_v")


def run_task(config: EvalConfig, task: Task, out_dir: Path, cid: str, *, device: Any = None,
             judge: "Any | None" = None, threads: int | None = None) -> ResultRow:
    """Run one task and measure it. On the simulated phone the metrics come from its state; with
    ``judge`` (a :class:`mobile_agent.bench.human.HumanJudge`) a person judges instead."""
    from mobile_agent.agent import StepLoop, AgentSettings
    from mobile_agent.report import write_report

    from mobile_agent.bench.user import SimulatedUser, asks_user

    phone = device if device is not None else task.make_phone()
    # the ask tier: the simulated user answers from the task's hidden facts (the other tiers offer no one to ask)
    user = SimulatedUser(task, phone) if config.is_sim and asks_user(task) else None
    tracker = ProgressTracker(task, phone, user) if config.is_sim and judge is None else None
    records: dict[int, StepRecord] = {}

    def on_step(step: StepRecord | dict[str, Any]) -> None:
        rec = as_step_record(step)
        records[rec.step] = rec
        if tracker is not None:
            tracker.after_step(rec.step, rec.operation, rec.carried_out)

    settings = AgentSettings(max_steps=config.step_budget(task), time_limit_s=600.0, settle_interval_s=0.0,
                             settle_timeout_s=1.0, reflect=config.reflect, on_finish=write_report,
                             device_name=config.device, on_step=on_step, perception_mode=config.perception,
                             save_annotated=False,  # the pages draw the gesture over the screenshot themselves
                             overwrite=True,  # a task run again (not --resume) replaces its earlier trajectory
                             ask=user)
    instruction = task.instruction if config.is_sim else task.real_instruction
    traj = trajectory_dir(out_dir, cid, task.key)
    cached: Any = None
    if config.mode == "multi":
        from mobile_agent.agent.multi import MultiAgent
        from mobile_agent.model import make_chat_model

        def chat(name: str) -> Any:
            return make_chat_model(name, base_url=config.base_url, api_key_env=config.api_key_env,
                                   timeout_s=config.model_timeout_s)

        planner = None
        agent: Any = MultiAgent(phone, chat(config.model or ""), _perception(config.ocr, threads, config.icon_model), settings,
                                executor_model=chat(config.executor_model) if config.executor_model else None)
    else:
        perception = _perception(config.ocr, threads, config.icon_model)
        planner = make_planner(config, task, perception)
        cached = _cached(config, instruction, phone, perception, planner)
        agent = StepLoop(phone, cached[0] if cached else planner, perception, settings)
    result = agent.run(instruction, traj)
    detail: dict[str, Any] = {"params": task.params, "plan": [str(o) for o in task.operations()]}
    env = environment_failure(result.exception)
    if env is not None:
        detail["environment_failure"] = env
    if getattr(planner, "gave_up", None):
        detail["oracle_gave_up"] = planner.gave_up
    if getattr(planner, "log", None) is not None:
        detail["noise"] = planner.log.entries
    if user is not None:
        detail["questions"] = user.counts()
    if tracker is not None:
        m = tracker.metrics()
        detail["steps"] = [asdict(j) for j in m.judged]
        if not m.success:
            detail["first_wrong"] = explain_first_wrong(m.judged, records)
        values = m.scores()
        judge_kind = "state"
    else:
        assert judge is not None, "a run without a phone state needs a human judge"
        verdict = judge.judge(task, traj, result.steps)
        detail["steps"] = verdict.steps
        values = dict(success=verdict.success, ps=verdict.ps, re=verdict.re, cr=verdict.cr,
                      correct_steps=verdict.correct_steps, furthest=0, milestones=len(task.milestones),
                      human_steps=verdict.human_steps, steps=result.steps)
        judge_kind = "human"
    if cached:
        _, store, kind, hit, kept_run = cached
        detail["cache"] = {"hit": hit, "run": run_figures(traj)}
        if kept_run is not None:
            detail["cache"]["kept_run"] = kept_run  # the run the entry held when this one began
        if values.get("success") and store.mode != "read-only":  # the benchmark's verdict confirms the run
            why = store.keep(traj, instruction, kind, confirmed=True)
            detail["cache"]["kept"] = why is None
    row = ResultRow(
        task_key=task.key, task_id=task.id, variant=task.variant, app=task.app, tier=task.tier,
        instruction=instruction, outcome=result.outcome,
        prompt_tokens=result.usage.prompt_tokens, completion_tokens=result.usage.completion_tokens,
        cost_usd=result.cost_usd, duration_s=round(result.duration_s, 3), trajectory=str(traj),
        error=result.error, judge=judge_kind, detail=detail, **values,
    )
    record_verdict(traj, row)
    return row


def verdict_of(row: ResultRow) -> dict[str, Any]:
    """The benchmark's verdict on one task run, as ``benchmark.json`` in its trajectory folder holds
    it (docs/interfaces.md): success, the metrics (RE only for a success), the judge, and why it
    failed (the first wrong step, the oracle giving up, the run's error), or the environment
    failure that kept it from being scored."""
    d = row.detail or {}
    env = d.get("environment_failure")
    why = None
    if env is None and not row.success:
        why = d.get("first_wrong") or d.get("oracle_gave_up") or row.error or f"the run ended {row.outcome}"
    return {"task": row.task_key, "scored": env is None, "success": bool(row.success) if env is None else None,
            "su": (1.0 if row.success else 0.0) if env is None else None, "ps": row.ps if env is None else None,
            "re": row.re if env is None and row.success else None, "cr": row.cr if env is None else None,
            "judge": row.judge, "agent_outcome": row.outcome, "why": why, "environment_failure": env}


def record_verdict(traj: Path, row: ResultRow) -> None:
    """Write ``benchmark.json`` beside the run and rewrite its report, which then shows the verdict.
    A failure here (a full disk) costs the page, never the result."""
    from mobile_agent.fsutil import atomic_write_text
    from mobile_agent.report import VERDICT, write_report

    try:
        if not traj.is_dir():
            return
        atomic_write_text(traj / VERDICT, json.dumps(verdict_of(row), ensure_ascii=False, indent=2) + "\n")
        write_report(traj)
    except (OSError, ConfigError) as exc:
        import logging

        logging.getLogger(__name__).warning("could not record the verdict in %s: %s", traj, exc)


def explain_first_wrong(judged: Sequence[Any], records: dict[int, StepRecord]) -> str | None:
    """In words: the first step that was not correct, where it tapped and what grounding found."""
    for j in judged:
        if j.correct:
            continue
        rec = records.get(j.step)
        g = rec.grounding if rec is not None else None
        where = ""
        if rec is not None and isinstance(rec.gesture, Tap):
            where = f"; tapped ({rec.gesture.x}, {rec.gesture.y})"
            if g is not None and g.chosen is not None and g.chosen < len(g.candidates):
                c = g.candidates[g.chosen]
                label = f" {c.text!r}" if c.text else ""
                where += f" on candidate{label} {c.box} (score {c.score:.2f} of {len(g.candidates)} candidates)"
        elif g is not None and g.status and g.status != "found":
            where = f"; grounding {g.status}: {g.message}"
        return f"step {j.step} {j.action}: {j.why}{where}"
    return None


def _worker_init(parent_pid: int | None = None) -> None:
    """In each worker: leave Ctrl-C to the parent, and end when the parent dies (even by SIGKILL,
    which gives it no chance to stop its workers): the kernel's parent-death signal on Linux, and
    on every system a watchdog thread that sees the parent's id change."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if parent_pid is None:
        return
    _parent_death_signal()
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _parent_death_signal() -> None:
    """prctl(PR_SET_PDEATHSIG, SIGKILL) on Linux; nothing elsewhere (the watchdog covers it)."""
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run_task_by_key(config_d: dict[str, Any], key: str, out_dir: str, cid: str, threads: int,
                    device: str | None = None, task_source: TaskSource | None = None) -> dict[str, Any]:
    """One task run in a worker of either engine, from plain values: the row as a dict.
    ``device`` names a device of a pool: ``adb:SERIAL`` opens that phone (the run is then judged
    later, by a person at the driver: ``detail.judge_pending``); ``sim:NAME`` or None: a fresh
    simulated phone. ``task_source`` makes the task of ``key`` (default: the suite's definition)."""
    config = EvalConfig(**config_d)
    task = (task_source or task_by_key)(config, key)
    if device is not None and device.startswith("adb:"):
        from mobile_agent.device import open_device

        dev = open_device(device)
        dev.home()
        row = run_task(config, task, Path(out_dir), cid, device=dev, judge=_PendingJudge(), threads=threads)
        assert row.detail is not None
        row.detail["judge_pending"] = True
        return row.as_dict()
    return run_task(config, task, Path(out_dir), cid, threads=threads).as_dict()


class _PendingJudge:
    """Stands in for the person in a worker: the driver asks them when the run arrives."""

    def judge(self, task: Task, trajectory: Path, steps: int) -> Any:
        from mobile_agent.bench.human import Verdict

        return Verdict(False, 0.0, 0.0, 0.0, 0, task.human_steps)


def apply_human_verdict(row: ResultRow, verdict: Any) -> None:
    """Put a person's verdict into a row that a worker ran without one."""
    row.success, row.ps, row.re, row.cr = verdict.success, verdict.ps, verdict.re, verdict.cr
    row.correct_steps, row.human_steps, row.judge = verdict.correct_steps, verdict.human_steps, "human"
    if row.detail is not None:
        row.detail["steps"] = verdict.steps


def _worker_run(config_d: dict[str, Any], key: str, out_dir: str, cid: str, threads: int,
                task_source: TaskSource | None = None) -> dict[str, Any]:
    return run_task_by_key(config_d, key, out_dir, cid, threads, task_source=task_source)


# --- a selection -------------------------------------------------------------------------------------

@dataclass
class EvalRun:
    """What :func:`run_eval` did: the stored rows of the selection, what it skipped, what failed to
    run. ``environment``: the tasks of ``failed`` whose environment failed (not scored, rerun by
    ``--resume``), with why."""

    config_id: str
    rows: list[ResultRow]
    skipped: list[str]
    failed: dict[str, str]
    interrupted: bool = False
    crashed: str | None = None
    duration_s: float = 0.0
    environment: dict[str, str] = field(default_factory=dict)
    #: How many tasks ran at once where the engine knows it (Ray: from the cluster's resources).
    workers: int | None = None

    @property
    def complete(self) -> bool:
        return not self.failed and not self.interrupted and self.crashed is None


Listener = Callable[[str, "ResultRow | None", "str | None"], None]


def run_eval(config: EvalConfig, tasks: Sequence[Task], out_dir: str | Path, *, workers: int = 1,
             resume: bool = False, on_start: Callable[[int, int], None] | None = None,
             on_result: Listener | None = None, judge: Any = None, device: Any = None,
             lock: bool = True, engine: str = "local", ray_options: Any = None,
             task_source: TaskSource | None = None) -> EvalRun:
    """Run ``tasks``; store each result as it ends. With ``resume``, tasks already stored for this
    configuration are skipped. ``workers`` > 1 runs tasks in that many processes (simulated phone
    only). ``on_result(key, row, error)`` is called as each task ends. ``engine="ray"`` runs each
    task as a Ray task through ``ray_options`` (a ``mobile_agent.bench.engines.ray.RayOptions``, the
    engine object: the runner never imports the engine);
    the results go to the same store, written here only. Workers make each task again from its key
    with ``task_source`` (default :func:`task_by_key`, the suite's definitions); a caller with tasks
    of its own passes a source that gives the same tasks (see :data:`TaskSource`).

    The output folder is locked while it runs (a second run on it gets a :class:`ConfigError`);
    ``lock=False`` when the caller holds the lock itself. A task whose environment failed
    (:func:`environment_failure`) is recorded apart from the results: it counts in no metric, it
    is in ``failed`` (so the run is not ``complete``) and ``resume`` runs it again."""
    out = Path(out_dir)
    t0 = time.monotonic()
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    if engine not in ("local", "ray"):
        raise ConfigError(f"unknown engine {engine!r}: local or ray")
    if engine == "ray" and not callable(getattr(ray_options, "run", None)):
        raise ConfigError("engine='ray' needs ray_options: a mobile_agent.bench.engines.ray.RayOptions")
    if (not config.is_sim or judge is not None) and engine == "local":
        workers = 1
    folder_lock = FolderLock(out, "eval")
    if lock:
        folder_lock.acquire()
    try:
        return _run_eval(config, tasks, out, t0, workers, resume, on_start, on_result, judge, device, engine,
                         ray_options, task_source)
    finally:
        folder_lock.release()


def _run_eval(config: EvalConfig, tasks: Sequence[Task], out: Path, t0: float, workers: int, resume: bool,
              on_start: Callable[[int, int], None] | None, on_result: Listener | None, judge: Any,
              device: Any, engine: str = "local", ray_options: Any = None,
              task_source: TaskSource | None = None) -> EvalRun:
    with ResultStore(out) as store:
        cid = store.register(config.identity())
        done = store.done(cid) if resume else set()
        todo = [t for t in tasks if t.key not in done]
        skipped = [t.key for t in tasks if t.key in done]
        if on_start is not None:
            on_start(len(todo), len(skipped))
        failed: dict[str, str] = {}
        environment: dict[str, str] = {}
        interrupted, crashed = False, None
        engine_workers: int | None = None

        def finish(key: str, row: ResultRow | None, error: str | None, env: bool = False) -> None:
            env_error = (row.detail or {}).get("environment_failure") if row is not None else None
            try:
                if env_error is not None:
                    assert row is not None
                    environment[key] = str(env_error)
                    error, trajectory, row = f"environment failure: {env_error}", row.trajectory, None
                    store.save_failure(cid, key, str(env_error), trajectory)
                elif env and error is not None:
                    environment[key] = error
                    store.save_failure(cid, key, error)
                    error = f"environment failure: {error}"
                elif row is not None and row.outcome != "interrupted":
                    store.save(cid, row)
                elif row is not None:
                    failed[key] = "interrupted"
            except sqlite3.Error as exc:  # the store itself failed (a full disk): the task is not scored
                why = f"the result could not be stored ({exc})"
                environment[key] = f"{environment[key]}; {why}" if key in environment else why
                error, row = f"environment failure: {environment[key]}", None
            if error is not None:
                failed[key] = error
            if on_result is not None:
                on_result(key, row, error)

        try:
            if engine == "ray":
                # the engine depends on the runner, not the other way: it comes in as an object
                crashed = ray_options.run(config, todo, out, cid, finish, judge=judge, task_source=task_source)
                engine_workers = getattr(ray_options, "workers", None)
            elif workers == 1:
                for task in todo:
                    try:
                        dev = device
                        if dev is not None:
                            dev.home()
                        row = run_task(config, task, out, cid, device=dev, judge=judge)
                    except (RuntimeError, OSError, ValueError, DeviceDisconnectedError, DeviceNotFoundError) as exc:
                        finish(task.key, None, f"{type(exc).__name__}: {exc}", env=isinstance(exc, ENVIRONMENT_ERRORS))
                        continue
                    finish(task.key, row, None)
                    if row.outcome == "interrupted":
                        interrupted = True
                        break
            else:
                crashed = _run_pool(config, todo, out, cid, workers, finish, task_source)
        except KeyboardInterrupt:
            interrupted = True
        keys = [t.key for t in tasks]
        rows = store.rows(cid, keys)
        order = {k: i for i, k in enumerate(keys)}
        rows.sort(key=lambda r: order.get(r.task_key, 0))
    return EvalRun(cid, rows, skipped, failed, interrupted, crashed, time.monotonic() - t0, environment,
                   engine_workers)


def _run_pool(config: EvalConfig, todo: Sequence[Task], out: Path, cid: str, workers: int,
              finish: Callable[[str, "ResultRow | None", "str | None"], None],
              task_source: TaskSource | None = None) -> str | None:
    import multiprocessing as mp

    cfg = asdict(config)
    workers = min(workers, max(1, len(todo)))
    threads = max(1, (os.cpu_count() or 1) // workers)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                               initializer=_worker_init, initargs=(os.getpid(),))
    pending: dict[Future, str] = {}
    try:
        for t in todo:
            pending[pool.submit(_worker_run, cfg, t.key, str(out), cid, threads, task_source)] = t.key
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in finished:
                key = pending.pop(fut)
                try:
                    row = ResultRow(**fut.result())
                except BrokenProcessPool:
                    for f in pending:
                        f.cancel()
                    return (f"a worker process died while running {key} (or a task next to it); the finished "
                            f"tasks are stored: rerun with --resume to run the rest")
                except Exception as exc:  # noqa: BLE001 - one task's failure must not stop the others
                    finish(key, None, f"{type(exc).__name__}: {exc}", env=isinstance(exc, ENVIRONMENT_ERRORS))
                    continue
                finish(key, row, None)
    except KeyboardInterrupt:
        for f in pending:
            f.cancel()
        for p in list(getattr(pool, "_processes", {}).values()):
            p.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return None

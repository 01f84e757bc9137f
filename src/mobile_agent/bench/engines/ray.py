"""The Ray engine: one Ray task per task run, on this machine (``ray.init()``) or on a cluster
(``--address auto``, ``HOST:PORT`` or ``ray://HOST:PORT``, or the cluster ``RAY_ADDRESS`` names, as
under ``ray job submit``).

The engine depends on the runner (it calls the runner's per-task function and hands each result to
the runner's ``finish``), never the other way: the runner runs any engine object with a ``run``
method, and :class:`RayOptions` is this engine's.

Each Ray task asks for its resources: CPUs (``cpus_per_task``), memory, and a device: a simulated
phone (the ``sim_phone`` resource, where the cluster has it) or a named device of the pool
(``--devices``: the resource ``device:NAME``, which the node that has the phone must advertise on a
cluster, e.g. ``ray start --resources '{"device:adb:SERIAL": 1}'``). The driver lends each device of
the pool to one task at a time.

Workers run :func:`mobile_agent.bench.runner.run_task_by_key` (the function the local process pool
runs) and return the result; the driver alone writes the results store, as each result arrives.
Environment failures (a worker process or node that died, a device that went away: ``OSError``,
``DeviceError``) are retried up to ``retries`` times, on another device where there is a pool; a
task is stored once, under its key, whatever the attempts. A driver that dies loses only the tasks
in flight: rerun with ``--resume``.

Real phones (``adb:`` devices) are judged by a person at the driver's terminal, as each run
arrives; their trajectory folders must be readable by the driver (this machine, or a shared
``--out``).

Ray is imported here only, and only when this engine runs.
"""

from __future__ import annotations

import os
import socket
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from mobile_agent.bench.engines.pool import DevicePool
from mobile_agent.bench.store import ResultRow
from mobile_agent.bench.task import Task
from mobile_agent.errors import ConfigError, DeviceError

RAY_PIN = "ray[default]==2.60.0"
SIM_RESOURCE = "sim_phone"


@dataclass
class RayOptions:
    """How the Ray engine runs. ``address``: None starts a local Ray (``num_cpus`` CPUs, default all);
    ``"auto"`` or ``"ray://HOST:PORT"`` joins a cluster."""

    address: str | None = None
    num_cpus: int | None = None
    cpus_per_task: float = 1.0
    memory_mb: int = 1024
    devices: list[str] = field(default_factory=list)
    retries: int = 1
    max_in_flight: int | None = None  # default: twice the cluster's CPUs (or the pool's size)
    #: How many tasks the cluster runs at once (its CPUs over ``cpus_per_task``, at most the pool's
    #: size), known once the engine has connected; the CLI reports it.
    workers: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.retries < 0:
            raise ConfigError(f"--retries must be 0 or more, got {self.retries}")
        if self.num_cpus is not None and self.num_cpus < 1:
            raise ConfigError(f"--workers must be at least 1, got {self.num_cpus}")
        if self.address is not None and not (self.address == "auto" or self.address.startswith("ray://")
                                             or ":" in self.address):
            raise ConfigError(f"--address {self.address!r}: use auto, ray://HOST:PORT or HOST:PORT")


    def run(self, config: Any, todo: Sequence[Task], out: Path, cid: str, finish: "Finish", *, judge: Any = None,
            task_source: Any = None) -> str | None:
        """The engine's entry for :func:`mobile_agent.bench.runner.run_eval`."""
        return run_ray(config, todo, out, cid, finish, self, judge=judge, task_source=task_source)

    def cluster_address(self) -> str | None:
        """The cluster to join: ``address``, else ``RAY_ADDRESS`` (set by ``ray job submit``), else None
        (a local Ray)."""
        return self.address or os.environ.get("RAY_ADDRESS") or None


def check_reachable(address: str, timeout_s: float = 3.0) -> None:
    """Fail in seconds when nothing answers at ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``):
    Ray itself retries a dead address for minutes. ``auto`` is left to Ray, which answers at once
    when no cluster runs on this node."""
    if address == "auto" or address.startswith("local"):
        return
    hostport = address[len("ray://"):] if address.startswith("ray://") else address
    host, _, port_text = hostport.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    try:
        port = int(port_text)
    except ValueError:
        raise ConfigError(f"Ray address {address!r}: use auto, HOST:PORT or ray://HOST:PORT") from None
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as exc:
        raise ConfigError(f"nothing answers at the Ray address {address} ({exc.strerror or exc}, within "
                          f"{timeout_s:.0f} s): start the cluster (ray start --head), or on a node of a running "
                          f"cluster use --address auto") from None


def device_resource(name: str) -> str:
    return f"device:{name}"


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ConfigError(f"--engine ray needs Ray: pip install '{RAY_PIN}'") from exc
    return ray


def init_local(ray: Any, num_cpus: int | None, resources: dict[str, float] | None = None,
               object_store_mb: int = 256, attempts: int = 3) -> None:
    """Start a local Ray. Ray gives its node 30 s to come up; on a machine busy with other work it
    can take longer, so a start that timed out is tried again (``attempts`` in all)."""
    # Ray's memory monitor kills workers when the whole machine runs short of memory, even when the
    # memory is other programs'; a local Ray leaves that to the kernel, as the local process pool does
    # (set RAY_memory_monitor_refresh_ms yourself to turn the monitor back on).
    os.environ.setdefault("RAY_memory_monitor_refresh_ms", "0")
    for attempt in range(attempts):
        try:
            ray.init(num_cpus=num_cpus, resources=resources or None, include_dashboard=False, log_to_driver=False,
                     object_store_memory=object_store_mb * 1024 * 1024, configure_logging=False)
            return
        except Exception as exc:  # noqa: BLE001 - Ray raises a bare Exception for a slow start
            if "timed out during startup" not in str(exc) or attempt == attempts - 1:
                raise RuntimeError(str(exc)) from exc
            ray.shutdown()


Finish = Callable[..., None]  # (key, row | None, error | None, environment failure?)


def run_ray(config: Any, todo: Sequence[Task], out: Path, cid: str, finish: Finish, options: RayOptions,
            judge: Any = None, task_source: Any = None) -> str | None:
    """Run ``todo`` on Ray; hand each result (or error) to ``finish`` as it arrives. Returns None, or
    a message when the run could not go on. ``task_source``: how a worker makes a task from its
    key (:data:`mobile_agent.bench.runner.TaskSource`; default the suite's definitions)."""
    ray = import_ray()
    out = Path(out).resolve()  # workers start elsewhere: a relative folder would be theirs, not this one
    pool = DevicePool(options.devices) if options.devices else None
    started = False
    address = options.cluster_address()
    if address is not None:
        check_reachable(address)  # also when Ray is up in this process already: a dead address is refused
    if not ray.is_initialized():
        resources = {}
        if address is None:
            n = options.num_cpus or os.cpu_count() or 1
            resources[SIM_RESOURCE] = float(n)
            for name in options.devices:
                resources[device_resource(name)] = 1.0
        try:
            if address is None:
                init_local(ray, options.num_cpus, resources)
            else:
                ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = address or "this machine"
            hint = "" if address is None else (
                "; it answers, so Ray may have refused this driver: where the cluster uses token authentication "
                "(Ray's default for clusters it starts), set RAY_AUTH_MODE=token and the cluster's token "
                "(RAY_AUTH_TOKEN, or the head node's ~/.ray/auth_token: `ray get-auth-token`); on a node of the "
                "cluster --address auto finds it")
            raise ConfigError(f"cannot start or reach Ray at {where}: {str(exc).splitlines()[0] if str(exc) else exc}"
                              f"{hint}") from exc
        started = True
    try:
        return _drive(ray, config, todo, out, cid, finish, options, pool, judge, task_source)
    finally:
        if started:
            ray.shutdown()


def _drive(ray: Any, config: Any, todo: Sequence[Task], out: Path, cid: str, finish: Finish, options: RayOptions,
           pool: DevicePool | None, judge: Any, task_source: Any = None) -> str | None:
    from mobile_agent.bench.runner import apply_human_verdict

    have = ray.cluster_resources()
    cpus = int(have.get("CPU", 1))
    at_once = max(1, int(cpus // max(options.cpus_per_task, 0.01)))
    options.workers = min(at_once, len(pool.names)) if pool is not None else at_once
    if pool is not None:
        missing = [n for n in pool.names if pool.kind == "adb" and device_resource(n) not in have]
        if missing and options.address is not None:
            raise ConfigError(f"no node of the Ray cluster advertises {device_resource(missing[0])!r}: start the node "
                              f"that has the phone with ray start --resources '{{\"{device_resource(missing[0])}\": 1}}'")
    base = {"num_cpus": options.cpus_per_task, "memory": options.memory_mb * 1024 * 1024, "max_retries": 0}
    remote = ray.remote(_ray_task)
    threads = max(1, int(options.cpus_per_task))
    cfg = asdict(config)
    tasks = {t.key: t for t in todo}
    queue = deque(t.key for t in todo)
    attempts: dict[str, int] = {}
    window = options.max_in_flight or (len(pool.names) if pool else 2 * cpus)
    inflight: dict[Any, tuple[str, str | None]] = {}
    try:
        while queue or inflight:
            while queue and len(inflight) < window:
                device = pool.take(queue[0]) if pool is not None else None
                if pool is not None and device is None:
                    break
                key = queue.popleft()
                resources = {}
                if device is not None and device_resource(device) in have:
                    resources[device_resource(device)] = 1.0
                elif device is None and SIM_RESOURCE in have:
                    resources[SIM_RESOURCE] = 1.0
                ref = remote.options(**base, resources=resources or None).remote(
                    cfg, key, str(out), cid, device, attempts.get(key, 0), threads, task_source)
                inflight[ref] = (key, device)
            ready, _ = ray.wait(list(inflight), num_returns=1)
            for ref in ready:
                key, device = inflight.pop(ref)
                if pool is not None and device is not None:
                    pool.give_back(device)
                try:
                    data = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - sorted below: retried, or one task's failure
                    why = _environment_failure(ray, exc)
                    if why is not None:
                        attempts[key] = attempts.get(key, 0) + 1
                        if attempts[key] <= options.retries:
                            queue.appendleft(key)
                            continue
                        finish(key, None, f"{attempts[key]} attempts: {why}", True)
                        continue
                    finish(key, None, _task_error(exc))
                    continue
                row = ResultRow(**data)
                if (row.detail or {}).get("environment_failure") is not None:  # the device went away mid-run
                    attempts[key] = attempts.get(key, 0) + 1
                    if attempts[key] <= options.retries:
                        queue.appendleft(key)
                        continue
                if row.detail and row.detail.pop("judge_pending", False):
                    if judge is None:
                        finish(key, None, "a real phone's run needs a person to judge it")
                        continue
                    apply_human_verdict(row, judge.judge(tasks[key], Path(row.trajectory or ""), row.steps))
                finish(key, row, None)
    except KeyboardInterrupt:
        for ref in inflight:
            ray.cancel(ref, force=True)
        raise
    return None


def _environment_failure(ray: Any, exc: BaseException) -> str | None:
    """Why ``exc`` is an environment failure (worth another attempt), or None."""
    ex = ray.exceptions
    env = tuple(getattr(ex, n) for n in ("WorkerCrashedError", "NodeDiedError", "ObjectLostError",
                                          "OwnerDiedError", "RaySystemError", "LocalRayletDiedError",
                                          "ActorDiedError", "OutOfMemoryError") if hasattr(ex, n))
    if isinstance(exc, env):
        if type(exc).__name__ == "OutOfMemoryError":
            return "OutOfMemoryError: Ray killed the worker, the machine being short of memory"
        return f"{type(exc).__name__}: the worker running it died"
    cause = getattr(exc, "cause", None)
    if isinstance(cause, (OSError, DeviceError)):
        return f"{type(cause).__name__}: {cause}"
    return None


def _task_error(exc: BaseException) -> str:
    cause = getattr(exc, "cause", None) or exc
    return f"{type(cause).__name__}: {cause}"


def _ray_task(config_d: dict[str, Any], key: str, out_dir: str, cid: str, device: str | None, attempt: int,
              threads: int, task_source: Any = None) -> dict[str, Any]:
    """One task run in a Ray worker (the worker never touches the results store)."""
    from mobile_agent.bench.runner import run_task_by_key

    started = time.time()
    data = run_task_by_key(config_d, key, out_dir, cid, threads, device=device, task_source=task_source)
    data.setdefault("detail", {})
    data["detail"]["engine"] = {"engine": "ray", "device": device, "attempt": attempt + 1, "pid": os.getpid(),
                                "started": started, "ended": time.time()}
    return data

"""Engines that run a selection of tasks: ``local`` (the process pool of :mod:`mobile_agent.bench.runner`)
and ``ray`` (:mod:`mobile_agent.bench.engines.ray`, one Ray task per task run, on this machine or a
cluster). Both call the same per-task function and hand each result to the driver, which alone
writes the results store. Ray is imported only when the ray engine runs."""

from __future__ import annotations

from mobile_agent.bench.engines.pool import DevicePool, parse_devices

ENGINES = ("local", "ray")

__all__ = ["ENGINES", "DevicePool", "parse_devices"]

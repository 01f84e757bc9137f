"""Phones the agent can operate: ``sim`` (the built-in simulated phone) and ``adb`` (real Android)."""

from __future__ import annotations

from mobile_agent.device.base import Device, check_point
from mobile_agent.errors import ConfigError

__all__ = ["Device", "check_point", "open_device"]


def open_device(spec: str = "sim", **options) -> Device:
    """Open a device from a CLI spec: ``sim``, ``adb`` (the only attached device) or ``adb:SERIAL``.

    ``options`` go to the device's constructor (for ``sim``: ``seed``, ``width``, ``height``,
    ``dark``...; for ``adb``: ``adb_host``, ``adb_port``...).
    """
    kind, _, arg = spec.partition(":")
    if kind == "sim":
        from mobile_agent.device.sim import SimPhone

        return SimPhone(**options)
    if kind == "adb":
        from mobile_agent.device.adb import AdbDevice

        return AdbDevice(serial=arg or None, **options)
    raise ConfigError(f"unknown device {spec!r}: use 'sim', 'adb' or 'adb:SERIAL'")

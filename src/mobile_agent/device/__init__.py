"""Phones the agent can operate: ``sim`` (the built-in simulated phone), ``adb`` (real Android) and
``ios`` (an iPhone through WebDriverAgent) and ``harmony`` (HarmonyOS through hdc)."""

from __future__ import annotations

from mobile_agent.device.base import Device, check_point
from mobile_agent.errors import ConfigError

__all__ = ["DEVICE_KINDS", "DEVICE_SPECS", "Device", "check_point", "open_device"]

#: The kinds of device a spec names (``KIND`` or ``KIND:ARG``), and how to write them.
DEVICE_KINDS = ("sim", "adb", "ios", "harmony")
DEVICE_SPECS = "'sim', 'adb', 'adb:SERIAL', 'ios', 'ios:URL', 'harmony' or 'harmony:SERIAL'"


def open_device(spec: str = "sim", **options) -> Device:
    """Open a device from a CLI spec: ``sim``, ``adb`` (the only attached device), ``adb:SERIAL``,
    ``ios`` (WebDriverAgent at http://localhost:8100), ``ios:URL``, ``harmony`` (the only HarmonyOS
    device hdc sees) or ``harmony:SERIAL``.

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
    if kind == "ios":
        from mobile_agent.device.ios import IosDevice

        return IosDevice(arg or None, **options)
    if kind == "harmony":
        from mobile_agent.device.harmony import HarmonyDevice

        return HarmonyDevice(arg or None, **options)
    raise ConfigError(f"unknown device {spec!r}: use {DEVICE_SPECS}")

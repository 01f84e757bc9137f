"""Real Android phones and emulators through the adb server (see :class:`AdbDevice`)."""

from __future__ import annotations

from mobile_agent.device.adb.device import AdbDevice, find_label
from mobile_agent.device.adb.parse import DeviceEntry, WmSize, parse_devices, parse_rotation, parse_wm_size
from mobile_agent.device.adb.server import AdbServer, select_device
from mobile_agent.device.adb.info import DeviceInfo, list_devices

__all__ = [
    "AdbDevice",
    "AdbServer",
    "DeviceEntry",
    "DeviceInfo",
    "WmSize",
    "find_label",
    "list_devices",
    "parse_devices",
    "parse_rotation",
    "parse_wm_size",
    "select_device",
]

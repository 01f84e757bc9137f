"""What ``mobile-agent devices`` shows: each attached device with model, Android version and screen size."""

from __future__ import annotations

from dataclasses import dataclass

import adbutils

from mobile_agent.device.adb.parse import parse_wm_size
from mobile_agent.device.adb.server import AdbServer, state_error
from mobile_agent.errors import DeviceError

__all__ = ["DeviceInfo", "list_devices"]

_MARK = "__mobile_agent__"


@dataclass(frozen=True)
class DeviceInfo:
    """One attached device. Fields the device could not tell are None; ``problem`` says why it cannot be used."""

    serial: str
    state: str
    model: str | None = None
    android: str | None = None
    size: tuple[int, int] | None = None
    transport: str | None = None
    problem: str | None = None

    @property
    def size_text(self) -> str:
        return f"{self.size[0]}x{self.size[1]}" if self.size else "-"


def list_devices(
    adb_host: str | None = None,
    adb_port: int | None = None,
    *,
    timeout_s: float = 5.0,
    adb_path: str | None = None,
    start_server: bool = True,
) -> list[DeviceInfo]:
    """Every device the adb server knows, ready or not, with details read from the ready ones."""
    server = AdbServer(host=adb_host, port=adb_port, timeout_s=timeout_s, adb_path=adb_path, start_server=start_server)
    server.ensure_running()
    out: list[DeviceInfo] = []
    for entry in server.devices():
        transport = "usb" if "usb" in entry.tags else ("emulator" if entry.serial.startswith("emulator-") else
                                                        ("tcp" if ":" in entry.serial else None))
        err = state_error(entry.serial, entry.state)
        if err is not None:
            out.append(DeviceInfo(entry.serial, entry.state, entry.model, transport=transport, problem=str(err)))
            continue
        model, android, size, problem = entry.model, None, None, None
        try:
            dev = adbutils.AdbDevice(server.client, serial=entry.serial)
            text = dev.shell(
                f"getprop ro.product.model; echo {_MARK}; getprop ro.build.version.release; echo {_MARK}; wm size",
                timeout=timeout_s,
            )
            fields = [f.strip() for f in str(text).split(_MARK)]
            if len(fields) == 3:
                model = fields[0] or model
                android = fields[1] or None
                wm = parse_wm_size(fields[2])
                size = wm.effective if wm else None
        except (adbutils.AdbError, OSError, EOFError, DeviceError) as exc:
            problem = f"could not read its details: {exc}"
        out.append(DeviceInfo(entry.serial, entry.state, model, android, size, transport, problem))
    return out

"""A pool of named devices for an evaluation: ``--devices serial1,serial2`` or a file of names.

A name is ``adb:SERIAL`` (or a bare serial: a real phone over adb) or ``sim:NAME`` (a slot for a
simulated phone; each task still makes its own fresh phone, the slot only bounds how many run at
once). The pool hands each device to one task at a time: :meth:`DevicePool.take` gives a free one
(or None), :meth:`DevicePool.give_back` returns it. The driver is the only user, so no lock.
"""

from __future__ import annotations

from pathlib import Path

from mobile_agent.errors import ConfigError


def parse_devices(spec: str | None) -> list[str]:
    """Device names from ``"a,b"``, ``"@FILE"`` or the path of an existing file (one name a line,
    ``#`` comments and blank lines skipped). Bare serials become ``adb:SERIAL``."""
    if spec is None or not spec.strip():
        return []
    text = spec.strip()
    path = Path(text[1:] if text.startswith("@") else text)
    if text.startswith("@") or ("," not in text and path.is_file()):
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read the devices file {path}: {exc}") from exc
        items = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
    else:
        items = [s.strip() for s in text.split(",")]
    names: list[str] = []
    for item in items:
        if not item:
            continue
        kind, sep, arg = item.partition(":")
        if sep and kind in ("adb", "sim"):
            if not arg:
                raise ConfigError(f"device {item!r} has no name after {kind}:")
            name = item
        elif any(c.isspace() for c in item):
            raise ConfigError(f"bad device {item!r}: adb:SERIAL, sim:NAME or a bare serial")
        else:
            name = f"adb:{item}"  # a bare serial (host:port serials of networked phones included)
        if name in names:
            raise ConfigError(f"device {name!r} is listed twice in --devices")
        names.append(name)
    if not names:
        raise ConfigError(f"--devices {spec!r} names no device")
    kinds = {n.partition(":")[0] for n in names}
    if len(kinds) > 1:
        raise ConfigError("--devices mixes real (adb) and simulated (sim) devices: one kind per run")
    return names


class DevicePool:
    """Free and busy devices; each device is lent to one task at a time."""

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        self.free = list(names)
        self.busy: dict[str, str] = {}  # device -> task key

    @property
    def kind(self) -> str:
        return self.names[0].partition(":")[0] if self.names else "sim"

    def take(self, key: str) -> str | None:
        if not self.free:
            return None
        name = self.free.pop(0)
        self.busy[name] = key
        return name

    def give_back(self, name: str) -> None:
        if name not in self.busy:
            raise ValueError(f"device {name} was not lent")
        del self.busy[name]
        self.free.append(name)

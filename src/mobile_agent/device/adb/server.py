"""The adb server: finding it (starting it when asked), listing devices, choosing one.

Every network call has a bounded timeout: adbutils' own connection never starts a server behind
our back and never waits longer than ``timeout_s`` for an answer.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

import adbutils
from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout

from mobile_agent.device.adb.parse import DeviceEntry, classify_adb_failure, parse_devices
from mobile_agent.errors import ConfigError, DeviceError, DeviceNotFoundError, ProgramNotFoundError

__all__ = ["AdbServer", "select_device", "state_error", "DEFAULT_HOST", "DEFAULT_PORT"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 5037
PLATFORM_TOOLS_URL = "https://developer.android.com/tools/releases/platform-tools"


class _Connection(adbutils.AdbConnection):
    """adbutils' connection without its fallback of running ``adb start-server`` on failure."""

    def _safe_connect(self):  # noqa: D401 - adbutils hook
        return self._create_socket()


class _Client(adbutils.AdbClient):
    """adbutils' client with one bound on every wait and the server version read once."""

    def __init__(self, host: str, port: int, timeout_s: float) -> None:
        super().__init__(host=host, port=port, socket_timeout=timeout_s)
        self._timeout_s = timeout_s
        self._version: int | None = None

    def make_connection(self, timeout: float | None = None) -> adbutils.AdbConnection:
        conn = _Connection(self.host, self.port)
        conn.conn.settimeout(self._timeout_s if timeout is None else min(timeout, self._timeout_s))
        return conn

    def server_version(self) -> int:
        if self._version is None:
            self._version = super().server_version()
        return self._version


@dataclass
class AdbServer:
    """Where the adb server listens, and how to reach it.

    ``host``/``port`` default to ``$ANDROID_ADB_SERVER_HOST``/``$ANDROID_ADB_SERVER_PORT`` or
    127.0.0.1:5037, as the ``adb`` program does. ``timeout_s`` bounds every wait for the server.
    When ``start_server`` is true and nothing listens on a local port, ``adb start-server`` is run
    once (the program from ``adb_path`` or ``PATH``).
    """

    host: str | None = None
    port: int | None = None
    timeout_s: float = 10.0
    adb_path: str | None = None
    start_server: bool = True
    client: _Client = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.host:
            self.host = os.environ.get("ANDROID_ADB_SERVER_HOST") or DEFAULT_HOST
        if not self.port:
            env_port = os.environ.get("ANDROID_ADB_SERVER_PORT")
            try:
                self.port = int(env_port) if env_port else DEFAULT_PORT
            except ValueError:
                raise ConfigError(
                    f"ANDROID_ADB_SERVER_PORT={env_port!r} is not a port number: set it to the adb server's port (default 5037) or unset it"
                ) from None
        if self.timeout_s <= 0:
            raise ConfigError(f"adb timeout must be positive, got {self.timeout_s}")
        self.client = _Client(self.host, self.port, self.timeout_s)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def reachable(self) -> bool:
        """True when something accepts TCP connections at the server's address."""
        try:
            with socket.create_connection((self.host, self.port), timeout=min(2.0, self.timeout_s)):
                return True
        except OSError:
            return False

    def ensure_running(self) -> None:
        """Make sure a server answers; start one if allowed. Raises DeviceNotFoundError saying how to fix it."""
        if self.reachable():
            return
        local = self.host in ("127.0.0.1", "localhost", "::1")
        if not self.start_server or not local:
            raise DeviceNotFoundError(
                f"no adb server is listening on {self.address}: start it with `adb start-server`"
                + ("" if local else " on that host, or check --adb-host/ANDROID_ADB_SERVER_HOST")
            )
        program = self.adb_path or shutil.which("adb")
        if not program or not os.path.isfile(program):
            raise ProgramNotFoundError(
                f"no adb server is listening on {self.address} and the adb program was not found"
                + (f" at {program}" if program else " on PATH")
                + f": install Android platform-tools ({PLATFORM_TOOLS_URL}) or your system's `adb` package "
                "(e.g. `sudo apt install adb`), put adb on PATH, and run `adb start-server`"
            )
        self._start(program)

    def _start(self, program: str) -> None:
        start_timeout = max(5.0, 2 * self.timeout_s)
        # The server forks and may keep inherited pipes open: send its chatter to a file, not a pipe.
        with tempfile.TemporaryFile() as log:
            try:
                subprocess.run(
                    [program, "-P", str(self.port), "start-server"],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    timeout=start_timeout, check=False,
                )
            except subprocess.TimeoutExpired:
                raise DeviceNotFoundError(
                    f"`{program} start-server` did not finish within {start_timeout:.0f} s: another adb may be "
                    "stuck; run `adb kill-server`, then `adb start-server`, and try again"
                ) from None
            except OSError as exc:
                raise DeviceNotFoundError(
                    f"could not run {program} to start the adb server ({exc}): reinstall Android platform-tools "
                    f"({PLATFORM_TOOLS_URL}) or start the server yourself with `adb start-server`"
                ) from None
            log.seek(0)
            said = log.read().decode("utf-8", "replace").strip()
        deadline = time.monotonic() + min(5.0, self.timeout_s)
        while time.monotonic() < deadline:
            if self.reachable():
                return
            time.sleep(0.1)
        raise DeviceNotFoundError(
            f"ran `{program} start-server` but no adb server answers on {self.address}"
            + (f" (it said: {said[-300:]})" if said else "")
            + ": check that the port is free and that adb works (`adb devices`)"
        )

    def version(self) -> int:
        """The server's protocol version (41 for platform-tools 1.0.41 and later)."""
        with self.errors("asking the adb server for its version"):
            return self.client.server_version()

    def devices(self) -> list[DeviceEntry]:
        """Every device the server knows, in any state (``adb devices -l``)."""
        with self.errors("listing devices"):
            with self.client.make_connection() as conn:
                conn.send_command("host:devices-l")
                conn.check_okay()
                return parse_devices(conn.read_string_block())

    def errors(self, doing: str) -> _ServerErrors:
        """A context that turns adbutils' and socket errors into this package's errors."""
        return _ServerErrors(self, doing)


class _ServerErrors:
    def __init__(self, server: AdbServer, doing: str) -> None:
        self.server = server
        self.doing = doing

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc is None:
            return False
        addr = self.server.address
        if isinstance(exc, (AdbConnectionError, ConnectionRefusedError)):
            raise DeviceNotFoundError(
                f"the adb server at {addr} does not answer ({self.doing}): start it with `adb start-server`"
            ) from exc
        if isinstance(exc, (AdbTimeout, socket.timeout, TimeoutError)):
            raise DeviceError(
                f"the adb server at {addr} gave no answer within {self.server.timeout_s:.0f} s ({self.doing}): "
                "restart it with `adb kill-server` then `adb start-server`"
            ) from exc
        if isinstance(exc, AdbError):
            raise DeviceError(f"the adb server refused {self.doing}: {exc}") from exc
        if isinstance(exc, (OSError, EOFError)):
            raise DeviceError(
                f"the connection to the adb server at {addr} broke ({self.doing}: {exc}): "
                "check it with `adb devices`; restart it with `adb kill-server` then `adb start-server`"
            ) from exc
        return False


def state_error(serial: str, state: str) -> DeviceError | None:
    """The error to raise for a device in ``state`` (None when it is usable)."""
    if state == "device":
        return None
    kind = classify_adb_failure(state)
    if state == "unauthorized" or kind == "unauthorized":
        return DeviceError(
            f"device {serial} is unauthorized: unlock the phone and accept the 'Allow USB debugging?' dialog "
            "(tick 'Always allow from this computer'); if no dialog appears, tap 'Revoke USB debugging "
            "authorizations' in Developer options, then unplug and replug the cable"
        )
    if state in ("authorizing", "connecting"):
        return DeviceError(f"device {serial} is still {state}: wait a few seconds, check `adb devices`, and try again")
    if state == "offline":
        return DeviceError(
            f"device {serial} is offline: unplug and replug it (restart an emulator); if it stays offline, "
            "run `adb kill-server` then `adb devices`"
        )
    if state.startswith("no permissions") or kind == "no_permissions":
        return DeviceError(
            f"no permission to use device {serial} over USB: add a udev rule for it "
            "(https://developer.android.com/studio/run/device) or join the plugdev group, then replug it"
        )
    return DeviceError(
        f"device {serial} is in state '{state}', not booted into Android: reboot it normally (`adb -s {serial} reboot`)"
    )


def select_device(server: AdbServer, serial: str | None) -> DeviceEntry:
    """The device to use: the one with ``serial``, or the only attached one. Raises with the fix."""
    entries = server.devices()
    listed = ", ".join(f"{e.serial} ({e.state})" for e in entries) or "none"
    if serial:
        for entry in entries:
            if entry.serial == serial:
                err = state_error(entry.serial, entry.state)
                if err:
                    raise err
                return entry
        hint = " For a phone over Wi-Fi, run `adb connect HOST:PORT` first." if ":" in serial else ""
        raise DeviceNotFoundError(
            f"no device with serial {serial!r} is attached (attached: {listed}): check the serial with "
            f"`mobile-agent devices` or `adb devices`.{hint}"
        )
    ready = [e for e in entries if e.state == "device"]
    if len(ready) == 1:
        return ready[0]
    if len(ready) > 1:
        raise ConfigError(
            f"several Android devices are attached ({', '.join(e.serial for e in ready)}): choose one with "
            f"--device adb:SERIAL, e.g. --device adb:{ready[0].serial}"
        )
    if entries:
        err = state_error(entries[0].serial, entries[0].state)
        assert err is not None
        raise err
    raise DeviceNotFoundError(
        f"no Android device is attached to the adb server at {server.address}: plug in a phone with USB "
        "debugging on (Settings > About phone > tap Build number 7 times, then Developer options > USB "
        "debugging), or start an emulator; `adb devices` should list it"
    )

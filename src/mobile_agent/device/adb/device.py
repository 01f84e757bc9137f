"""``AdbDevice``: a real Android phone or emulator, driven through the adb server.

Nothing is installed on the phone. Gestures go through ``input``, screenshots through
``screencap -p``, the UI tree through ``uiautomator dump``. Non-ASCII text needs the ADBKeyboard IME,
which the user installs if they want it.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import shlex
import socket
import time
import xml.etree.ElementTree as ET
from typing import Callable, Iterator, TypeVar

import adbutils
from adbutils.errors import AdbConnectionError, AdbError, AdbTimeout
from PIL import Image, UnidentifiedImageError

from mobile_agent.device.adb.parse import (
    DeviceEntry,
    WmSize,
    classify_adb_failure,
    monkey_launched,
    parse_ime_list,
    parse_packages,
    parse_rotation,
    parse_wm_density,
    parse_wm_size,
    uiautomator_dump_ok,
    uiautomator_idle_error,
)
from mobile_agent.device.adb.server import AdbServer, select_device, state_error
from mobile_agent.device.adb.still import frame_signature, frames_alike
from mobile_agent.device.adb.text import (
    ADBKEYBOARD_HELP,
    BROADCAST_KEYBOARDS,
    broadcast_keyboard,
    adbkeyboard_command,
    batch_commands,
    input_text_chunks,
    input_text_command,
    is_input_text_safe,
    split_text,
    unicode_pieces,
)
from mobile_agent.device.base import check_point
from mobile_agent.device.uitree import parse_tree
from mobile_agent.errors import DeviceDisconnectedError, DeviceError, ImageError, InvalidGestureError
from mobile_agent.types import Box, check_pixels, to_rgb

__all__ = ["AdbDevice", "PNG_SIGNATURE", "UI_DUMP_PATH"]

log = logging.getLogger(__name__)
T = TypeVar("T")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
UI_DUMP_PATH = "/data/local/tmp/mobile_agent_ui.xml"
KEYCODE_HOME = 3
KEYCODE_BACK = 4
KEYCODE_DEL = 67
KEYCODE_MOVE_END = 123
#: Keys the MCP server's press_key names, and their Android key codes.
KEYCODES = {"enter": 66, "back": 4, "home": 3, "app_switch": 187, "volume_up": 24, "volume_down": 25,
            "volume_mute": 164, "delete": 67, "tab": 61, "escape": 111, "search": 84, "menu": 82}
_BLACK_MAX = 8  # a channel never brighter than this is "all black"
# shell commands that only read: they leave a frame judged still the screen (see AdbDevice.wait_still)
_READ_ONLY = ("wm size", "wm density", "dumpsys ", "settings get ", "ime list", "pm list ", "getprop",
              "uiautomator dump", "cat ", "ls ", "rm -f /data/local/tmp/")
_PACKAGE_RE = re.compile(r"^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$")


class AdbDevice:
    """A phone or emulator reached through the adb server; implements :class:`mobile_agent.device.Device`.

    Args:
        serial: the device's serial (``adb devices``); None picks the only attached device.
        adb_host, adb_port: where the adb server listens (default ``$ANDROID_ADB_SERVER_HOST``/``PORT``
            or 127.0.0.1:5037).
        adb_path: the ``adb`` program used to start a server when none runs (default: from PATH).
        start_server: start the server with ``adb start-server`` when none listens locally.
        timeout_s: the longest wait for any answer from the server or the phone; a command silent
            for longer fails with a DeviceError instead of hanging.
        settle_timeout_s: after each gesture, wait at most this long for the screen to be still
            (0 turns the wait off).
        status_bar_dp: the height of the status bar that the stillness test ignores, in dp
            (converted with ``wm density``; 48 dp covers status bars with a camera cutout).
        ui_timeout_s: the longest wait for ``uiautomator dump`` (slow on busy screens).
    """

    #: What a phone over adb does beyond the basic gestures (see ``device.base.CAPABILITIES``).
    capabilities = frozenset({"long_press", "wait_still", "launch", "ui_tree", "clear_text"})

    def __init__(
        self,
        serial: str | None = None,
        *,
        adb_host: str | None = None,
        adb_port: int | None = None,
        adb_path: str | None = None,
        start_server: bool = True,
        timeout_s: float = 20.0,
        settle_timeout_s: float = 3.0,
        status_bar_dp: float = 48.0,
        ui_timeout_s: float = 30.0,
    ) -> None:
        self._server = AdbServer(
            host=adb_host, port=adb_port, timeout_s=timeout_s, adb_path=adb_path, start_server=start_server
        )
        self._server.ensure_running()
        self.entry: DeviceEntry = select_device(self._server, serial)
        self.serial: str = self.entry.serial
        self.timeout_s = timeout_s
        self.settle_timeout_s = settle_timeout_s
        # the last frame wait_still found still, and when; None once anything is sent to the phone
        self._still: tuple[Image.Image, float] | None = None
        self.still_reuse_s = 1.0
        self.status_bar_dp = status_bar_dp
        self._density: int | None = None
        self.ui_timeout_s = ui_timeout_s
        self._dev = adbutils.AdbDevice(self._server.client, serial=self.serial)
        self._wm: WmSize | None = None
        self._last_size: tuple[int, int] | None = None

    def __repr__(self) -> str:
        return f"AdbDevice(serial={self.serial!r}, server={self._server.address!r})"

    # ----------------------------------------------------------------- talking to the phone

    def _call(self, doing: str, fn: Callable[[], T], timeout_s: float) -> T:
        """Run one exchange with the phone, turning every failure into a DeviceError naming the fix."""
        try:
            return fn()
        except DeviceError:
            raise
        except (AdbTimeout, socket.timeout, TimeoutError) as exc:
            raise DeviceError(
                f"{doing} on device {self.serial} gave no answer within {timeout_s:g} s: the phone may be frozen "
                f"or its USB/Wi-Fi link stalled; unlock it, check `adb -s {self.serial} shell echo ok`, and "
                "replug it if that hangs too"
            ) from exc
        except AdbConnectionError as exc:
            raise DeviceDisconnectedError(
                f"the adb server at {self._server.address} stopped answering while {doing}: start it again with "
                "`adb start-server`, check `adb devices`, then run again (what was done so far is kept)"
            ) from exc
        except AdbError as exc:
            message = str(exc)
            kind = classify_adb_failure(message)
            if kind in ("gone", "none"):
                raise self._gone_error(doing) from exc
            if kind != "other":
                state = {"unauthorized": "unauthorized", "offline": "offline", "authorizing": "authorizing"}
                err = state_error(self.serial, state.get(kind, message))
                raise DeviceDisconnectedError(f"while {doing}: {err}") from exc
            self._raise_if_gone(doing)
            raise DeviceError(f"adb refused {doing} on device {self.serial}: {message}") from exc
        except (OSError, EOFError) as exc:
            self._raise_if_gone(doing)
            raise DeviceError(
                f"the connection to device {self.serial} broke while {doing} ({exc}): check `adb devices` "
                "and replug the phone if it is listed as offline"
            ) from exc

    def _gone_error(self, doing: str) -> DeviceDisconnectedError:
        return DeviceDisconnectedError(
            f"device {self.serial} went away while {doing} (unplugged, or its USB/Wi-Fi link dropped): "
            "reconnect it, check `adb devices`, then run again (what was done so far is kept)"
        )

    def _raise_if_gone(self, doing: str) -> None:
        """After a broken exchange: raise DeviceDisconnectedError if the phone left the server's list."""
        try:
            entries = self._server.devices()
        except DeviceError as exc:
            raise DeviceDisconnectedError(
                f"the adb server at {self._server.address} stopped answering while {doing}: start it again "
                "with `adb start-server`, then run again (what was done so far is kept)"
            ) from exc
        for entry in entries:
            if entry.serial == self.serial:
                err = state_error(entry.serial, entry.state)
                if err:
                    raise DeviceDisconnectedError(f"while {doing}: {err}")
                return
        raise self._gone_error(doing)

    def shell(self, command: str, timeout_s: float | None = None) -> str:
        """Run a command in the phone's shell and return its output (stdout and stderr), stripped."""
        if not command.startswith(_READ_ONLY):
            self._still = None  # the screen may change: the frame judged still is no longer the screen
        t = timeout_s or self.timeout_s
        out = self._call(f"`{_short(command)}`", lambda: self._dev.shell(command, timeout=t, encoding="utf-8"), t)
        return str(out)

    def exec_out(self, command: str, timeout_s: float | None = None) -> bytes:
        """Run a command with the ``exec:`` service (raw bytes, no terminal, like ``adb exec-out``)."""
        t = timeout_s or self.timeout_s

        def run() -> bytes:
            conn = self._dev.open_transport()
            try:
                conn.send_command("exec:" + command)
                conn.check_okay()
                conn.conn.settimeout(t)
                data = conn.read_until_close(encoding=None)
            finally:
                conn.close()
            assert isinstance(data, bytes)
            return data

        return self._call(f"`{_short(command)}`", run, t)

    # ----------------------------------------------------------------- screen

    def _wm_size(self) -> WmSize:
        if self._wm is None:
            out = self.shell("wm size")
            wm = parse_wm_size(out)
            if wm is None:
                raise DeviceError(
                    f"cannot read the screen size of device {self.serial}: `wm size` answered {out[:200]!r}; "
                    "check that the phone has finished booting"
                )
            self._wm = wm
        return self._wm

    def rotation(self) -> int:
        """The current display rotation in quarter turns (0..3), from ``dumpsys input`` (or ``display``)."""
        for command in ("dumpsys input", "dumpsys display"):
            rot = parse_rotation(self.shell(command))
            if rot is not None:
                return rot
        log.warning("could not read the rotation of %s; assuming portrait", self.serial)
        return 0

    def size(self) -> tuple[int, int]:
        """(width, height) in screenshot pixels: ``wm size`` (its override when set) turned by the rotation."""
        w, h = self._wm_size().effective
        if self.rotation() % 2 == 1:
            w, h = h, w
        self._last_size = (w, h)
        return (w, h)

    def _capture(self) -> Image.Image:
        """One ``screencap -p``, decoded; raises DeviceError saying what failed."""
        data = self.exec_out("screencap -p")
        if not data:
            self._raise_if_gone("taking a screenshot")
            raise DeviceError(
                f"screenshot failed: `screencap -p` on device {self.serial} returned nothing; the phone's screen "
                f"capture may have crashed: try `adb -s {self.serial} exec-out screencap -p > shot.png`, or reboot it"
            )
        if not data.startswith(PNG_SIGNATURE):
            fixed = data.replace(b"\r\n", b"\n")  # a terminal on old Androids turns \n into \r\n
            if fixed.startswith(PNG_SIGNATURE):
                data = fixed
            else:
                said = data[:200].decode("utf-8", "replace").strip().splitlines()
                raise DeviceError(
                    f"screenshot failed: `screencap -p` on device {self.serial} answered "
                    f"{(said[0] if said else repr(data[:40]))!r} instead of a PNG image; unlock the phone and "
                    "check that it has finished booting"
                )
        try:
            image = Image.open(io.BytesIO(data))
            check_pixels(image, f"the screenshot of device {self.serial}")  # before decoding
            image.load()
        except ImageError as exc:
            raise DeviceError(str(exc)) from exc
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            self._raise_if_gone("taking a screenshot")
            raise DeviceError(
                f"screenshot failed: the PNG from device {self.serial} is cut short or damaged ({len(data)} bytes: "
                f"{exc}); the connection may have dropped: check `adb devices` and try again"
            ) from exc
        return to_rgb(image)

    def _fit(self, image: Image.Image) -> Image.Image:
        """Bring a capture to the input coordinate space (``wm size``, override honoured) if it differs."""
        w, h = self._wm_size().effective
        if (image.width > image.height) != (w > h):
            w, h = h, w
        self._last_size = (w, h)
        if image.size != (w, h):
            image = image.resize((w, h), Image.Resampling.BILINEAR)
        return image

    def screenshot(self) -> Image.Image:
        """The screen as an RGB image of ``size()``. Raises DeviceError when the capture fails or is all black.

        Right after :meth:`wait_still` found the screen still (within ``still_reuse_s``, nothing sent
        to the phone since), that frame is the screenshot: no second capture."""
        still = self._still
        if still is not None and time.monotonic() - still[1] <= self.still_reuse_s:
            return still[0].copy()
        image = self._capture()
        extrema = image.getextrema()
        if all(hi <= _BLACK_MAX for _, hi in extrema):  # type: ignore[misc]
            raise DeviceError(self._black_reason())
        return self._fit(image)

    def _black_reason(self) -> str:
        try:
            power = self.shell("dumpsys power")
        except DeviceError:
            power = ""
        m = re.search(r"mWakefulness=(\w+)", power)
        if m and m.group(1) in ("Asleep", "Dozing"):
            return (
                f"screenshot is all black: the screen of device {self.serial} is off ({m.group(1)}); wake and unlock "
                f"it (`adb -s {self.serial} shell input keyevent KEYCODE_WAKEUP`, then swipe up) and keep it on "
                "(Developer options > Stay awake)"
            )
        return (
            f"screenshot is all black: device {self.serial} is showing a secure window (FLAG_SECURE: banking, "
            "password or DRM screens) that Android refuses to capture, or its screen is dark; leave that "
            "screen or unlock the phone, then try again"
        )

    def status_bar_px(self) -> int:
        """The status bar's height in pixels: ``status_bar_dp`` at the density from ``wm density``
        (4% of the screen height when the density cannot be read)."""
        if self._density is None:
            self._density = parse_wm_density(self.shell("wm density")) or 0
        if self._density > 0:
            return int(round(self.status_bar_dp * self._density / 160.0))
        return int(round(0.04 * max(self._wm_size().effective)))

    def wait_still(self, timeout_s: float = 3.0) -> bool:
        """Wait until two successive captures are alike (ignoring the status bar); False on timeout.

        Captures follow each other without a pause (a capture takes tens of milliseconds), and the
        answer comes as soon as two agree. When the screen was found still and nothing was sent to
        the phone since (the gestures settle themselves, then the agent asks again), the answer is
        at once, without a capture."""
        if self._still is not None:
            return True
        deadline = time.monotonic() + max(0.0, timeout_s)
        top = self.status_bar_px()
        previous = frame_signature(self._fit(self._capture()), top)
        while time.monotonic() < deadline:
            frame = self._fit(self._capture())
            current = frame_signature(frame, top)
            if frames_alike(previous, current):
                if not all(hi <= _BLACK_MAX for _, hi in frame.getextrema()):  # type: ignore[misc]
                    self._still = (frame, time.monotonic())
                return True
            previous = current
        return False

    def _settle(self) -> None:
        if self.settle_timeout_s > 0:
            self.wait_still(self.settle_timeout_s)

    # ----------------------------------------------------------------- gestures

    def _gesture_size(self) -> tuple[int, int]:
        return self._last_size or self.size()

    def tap(self, x: int, y: int) -> None:
        """Tap at (x, y) in screenshot pixels."""
        x, y = int(round(x)), int(round(y))
        check_point(self._gesture_size(), x, y)
        self._input(f"input tap {x} {y}")
        self._settle()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Swipe from (x1, y1) to (x2, y2) in ``duration_ms`` milliseconds."""
        x1, y1, x2, y2 = (int(round(v)) for v in (x1, y1, x2, y2))
        if duration_ms < 0:
            raise InvalidGestureError(f"swipe duration must be 0 ms or more, got {duration_ms}")
        size = self._gesture_size()
        check_point(size, x1, y1)
        check_point(size, x2, y2)
        self._input(f"input swipe {x1} {y1} {x2} {y2} {int(duration_ms)}", extra_s=duration_ms / 1000.0)
        self._settle()

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        """Press and hold at (x, y): a swipe that does not move."""
        self.swipe(x, y, x, y, duration_ms)

    def back(self) -> None:
        self._input(f"input keyevent {KEYCODE_BACK}")
        self._settle()

    def home(self) -> None:
        self._input(f"input keyevent {KEYCODE_HOME}")
        self._settle()

    def _input(self, command: str, extra_s: float = 0.0) -> None:
        out = self.shell(command, timeout_s=self.timeout_s + extra_s)
        if "Exception" in out or out.startswith("Error") or "usage:" in out.lower():
            raise DeviceError(f"`{_short(command)}` failed on device {self.serial}: {out[:300]}")

    def type_text(self, text: str) -> None:
        """Type into the focused field; ``\\n`` presses Enter, ``\\t`` Tab.

        Printable ASCII goes through ``input text``. Other text goes through a keyboard that takes
        text by broadcast (ADBKeyboard): where it is installed but not the current keyboard, it is
        enabled and selected for this typing only, and the user's keyboard is selected again
        afterwards, whatever happens meanwhile (:meth:`_broadcast_keyboard`). Where none is
        installed, a DeviceError says which text cannot be typed and how to install it.
        """
        try:
            parts = split_text(text)
        except ValueError as exc:
            raise InvalidGestureError(str(exc)) from None
        if not parts:
            return
        needs_ime = any(p.kind == "text" and not is_input_text_safe(str(p.value)) for p in parts)
        commands: list[str] = []
        for part in parts:
            if part.kind == "key":
                commands.append(f"input keyevent {part.value}")
            elif needs_ime:
                commands.extend(adbkeyboard_command(piece) for piece in unicode_pieces(str(part.value)))
            else:
                commands.extend(input_text_command(c) for c in input_text_chunks(str(part.value)))
        if needs_ime:
            with self._broadcast_keyboard(text):
                for batch in batch_commands(commands):
                    self._input(" && ".join(batch), extra_s=0.5 * len(batch))
        else:
            for batch in batch_commands(commands):
                self._input(" && ".join(batch), extra_s=0.5 * len(batch))
        self._settle()

    def clear_text(self) -> None:
        """Empty the focused field: the cursor to its end, then one Delete for each character the
        tree shows in it (at least a few, for a field the dump shows empty or with its hint). With no
        focused node in the dump (no dump to be had, or nothing focused), nothing is deleted."""
        xml = self.ui_tree()
        if not xml:
            return
        try:
            focused = [n for n in parse_tree(xml) if n.focused]
        except ValueError:
            return
        if not focused:
            return
        count = max(len(focused[-1].text), 8)
        commands = [f"input keyevent {KEYCODE_MOVE_END}"]
        commands += ["input keyevent " + " ".join([str(KEYCODE_DEL)] * min(50, count - i)) for i in range(0, count, 50)]
        for batch in batch_commands(commands):
            self._input(" && ".join(batch), extra_s=0.5 * len(batch))

    def typing_problem(self, text: str = "") -> str | None:
        """What this phone cannot type, said before a run starts: None where a keyboard that takes
        text by broadcast is installed (or ``text`` is all ASCII and ``text`` is given), else a line
        naming the characters of ``text`` that cannot be typed and how to install ADBKeyboard."""
        odd = untypable(text)
        if text and not odd:
            return None
        if broadcast_keyboard(parse_ime_list(self.shell("ime list -a -s"))) is not None:
            return None
        what = (f"the instruction's {odd} (and any other text beyond ASCII) cannot be typed"
                if odd else "only ASCII text can be typed (Chinese, accents, emoji cannot)")
        return f"device {self.serial} has no keyboard that takes typed text by broadcast: {what}; {ADBKEYBOARD_HELP}"

    @contextlib.contextmanager
    def _broadcast_keyboard(self, text: str) -> Iterator[None]:
        """A keyboard that takes broadcast text (ADBKeyboard) selected while the block runs, and the
        user's keyboard selected again after it (an error, Ctrl-C or SIGTERM included); a keyboard
        that had to be enabled for it is disabled again."""
        current = self.shell("settings get secure default_input_method").strip()
        if current in BROADCAST_KEYBOARDS:
            yield
            return
        ime = broadcast_keyboard(parse_ime_list(self.shell("ime list -a -s")))
        if ime is None:
            raise DeviceError(f"cannot type {untypable(text)} on device {self.serial} (only ASCII goes through `input text`): "
                              f"{ADBKEYBOARD_HELP}")
        enabled_here = ime not in parse_ime_list(self.shell("ime list -s"))
        if enabled_here:
            self._ime_command(f"ime enable {ime}", ("now enabled", "already enabled"))
        try:
            self._ime_command(f"ime set {ime}", ("selected",))
            self._until_keyboard(ime)
            yield
        finally:
            self._restore_keyboard(current, ime if enabled_here else None)

    def _ime_command(self, command: str, ok: tuple[str, ...]) -> str:
        out = self.shell(command)
        if not any(word in out for word in ok) or "Unknown" in out or "cannot" in out or "Exception" in out:
            raise DeviceError(f"`{command}` failed on device {self.serial}: {out.strip()[:300] or 'no answer'}")
        return out

    def _until_keyboard(self, ime: str, timeout_s: float = 2.0) -> None:
        """Wait until ``ime`` is the selected keyboard (``ime set`` reaches the setting a moment later)."""
        end = time.monotonic() + timeout_s
        while self.shell("settings get secure default_input_method").strip() != ime:
            if time.monotonic() > end:
                raise DeviceError(f"device {self.serial} did not switch to the keyboard {ime} within {timeout_s:.0f} s")
            time.sleep(0.05)

    def _restore_keyboard(self, previous: str, disable: str | None) -> None:
        """Select the user's keyboard again (and disable the one enabled for the typing). A failure is
        logged with the command that puts it right: the typing's own outcome is what the run reports."""
        commands = [f"ime set {previous}"] if previous and previous != "null" else []
        if disable:
            commands.append(f"ime disable {disable}")
        for command in commands:
            try:
                self.shell(command)
            except (DeviceError, OSError) as exc:
                log.warning("could not restore the keyboard of %s (`adb -s %s shell %s`): %s", self.serial,
                            self.serial, command, exc)

    # ----------------------------------------------------------------- UI tree and apps

    def ui_tree(self, attempts: int = 3) -> str | None:
        """``uiautomator dump`` of the screen as XML text, retried while the screen is not idle; None if it cannot be had."""
        for attempt in range(max(1, attempts)):
            try:
                out = self.shell(f"uiautomator dump {UI_DUMP_PATH}", timeout_s=self.ui_timeout_s)
            except DeviceDisconnectedError:
                raise
            except DeviceError as exc:
                log.warning("uiautomator dump failed on %s: %s", self.serial, exc)
                return None
            if uiautomator_dump_ok(out):
                try:
                    xml = self.exec_out(f"cat {UI_DUMP_PATH}").decode("utf-8", "replace").strip()
                except DeviceDisconnectedError:
                    raise
                except DeviceError as exc:
                    log.warning("could not read the uiautomator dump on %s: %s", self.serial, exc)
                    return None
                if xml.startswith("<?xml") or xml.startswith("<hierarchy"):
                    return xml
                log.warning("uiautomator dump on %s wrote no XML: %r", self.serial, xml[:120])
                return None
            if not uiautomator_idle_error(out):
                self._raise_if_gone("reading the UI tree")
                log.warning("uiautomator dump failed on %s: %s", self.serial, out[:200])
                return None
            if attempt + 1 < attempts:
                time.sleep(0.5)
        return None

    def packages(self) -> list[str]:
        """Installed package names (``pm list packages``)."""
        return parse_packages(self.shell("pm list packages"))

    def launch(self, app: str) -> bool:
        """Open an app named by package (``com.android.settings``) or launcher label (``Settings``).

        A label is looked up on the home screen, then in the app drawer, then matched against the
        last part of package names. Returns False when no app matches.
        """
        name = app.strip()
        if not name:
            raise InvalidGestureError("launch needs an app name or package, got an empty string")
        packages = self.packages()
        if name in packages:
            return self._start_package(name)
        if _PACKAGE_RE.match(name):
            return False  # a package name that is not installed
        box = self._find_launcher_label(name)
        if box is not None:
            c = box.center
            self.tap(c.x, c.y)
            return True
        key = re.sub(r"[^a-z0-9]", "", name.lower())
        for package in packages:
            if re.sub(r"[^a-z0-9]", "", package.rsplit(".", 1)[-1].lower()) == key:
                return self._start_package(package)
        return False

    def installed_apps(self) -> list[dict[str, str]]:
        """The installed packages, as ``{"name": package, "package": package}`` (adb gives no labels)."""
        return [{"name": p, "package": p} for p in self.packages()]

    def app_by_package(self, package: str) -> str | None:
        """``package`` when it is installed, else None."""
        name = package.strip()
        return name if name in self.packages() else None

    def foreground_app(self) -> str | None:
        """The package of the activity in front (``dumpsys activity activities``), or None."""
        return parse_foreground(self.shell("dumpsys activity activities"))

    def stop_app(self, package: str) -> bool:
        """``am force-stop`` an installed package; False when it is not installed."""
        if self.app_by_package(package) is None:
            return False
        self._input(f"am force-stop {shlex.quote(package.strip())}")
        self._settle()
        return True

    def open_url(self, url: str) -> None:
        """Open ``url`` with the app that handles it (a VIEW intent)."""
        out = self.shell(f"am start -a android.intent.action.VIEW -d {shlex.quote(url)}")
        if "Error" in out or "Exception" in out:
            raise DeviceError(f"could not open the URL on device {self.serial}: {out.strip()[:300]}")
        self._settle()

    def press_key(self, key: str) -> None:
        """Press a key by name (see :data:`KEYCODES`)."""
        code = KEYCODES.get(key)
        if code is None:
            raise InvalidGestureError(f"unknown key {key[:40]!r}: use {', '.join(KEYCODES)}")
        self._input(f"input keyevent {code}")
        self._settle()

    def _start_package(self, package: str) -> bool:
        out = self.shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
        if not monkey_launched(out):
            log.warning("monkey could not start %s on %s: %s", package, self.serial, out[-200:])
            return False
        self._settle()
        return True

    def _find_launcher_label(self, label: str) -> Box | None:
        self.home()
        for opening_drawer in (False, True):
            if opening_drawer:
                w, h = self._gesture_size()
                self.swipe(w // 2, int(h * 0.8), w // 2, int(h * 0.25), 300)
            xml = self.ui_tree()
            box = find_label(xml, label) if xml else None
            if box is not None:
                return box
        self.home()
        return None


def untypable(text: str) -> str:
    """The words of ``text`` that ``input text`` cannot type (beyond printable ASCII), quoted, in
    their order (the first five), or ``""``."""
    words = [w for w in dict.fromkeys(text.split()) if not is_input_text_safe(w)]
    return ", ".join(repr(w) for w in words[:5]) + (" ..." if len(words) > 5 else "")


def find_label(xml: str, label: str) -> Box | None:
    """The bounds of the node whose text or content-desc is ``label`` (case-insensitive), or None."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return None
    want = label.casefold()
    fallback: Box | None = None
    for node in root.iter("node"):
        text = (node.get("text") or "").strip().casefold()
        desc = (node.get("content-desc") or "").strip().casefold()
        bounds = node.get("bounds")
        if not bounds:
            continue
        try:
            box = Box.from_bounds(bounds)
        except ValueError:
            continue
        if box.is_empty():
            continue
        if text == want or desc == want:
            return box
        if fallback is None and desc.startswith(want + ","):  # "Chrome, 3 notifications"
            fallback = box
    return fallback


_RESUMED = re.compile(r"(?:mResumedActivity|topResumedActivity|ResumedActivity)[:=]\s*ActivityRecord\{\S+ \S+ ([\w.]+)/")
_FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ \S+ ([\w.]+)/")


def parse_foreground(text: str) -> str | None:
    """The package of the resumed activity in ``dumpsys activity activities`` (or of the focused
    window in ``dumpsys window``), or None."""
    m = _RESUMED.search(text) or _FOCUS.search(text)
    return m.group(1) if m else None


def _short(command: str, limit: int = 80) -> str:
    return command if len(command) <= limit else command[: limit - 3] + "..."

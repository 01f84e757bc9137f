"""``HarmonyDevice``: a HarmonyOS (NEXT) phone driven through ``hdc``, the HarmonyOS Device Connector.

Nothing is installed on the phone: every operation is one ``hdc`` command, as the OpenHarmony docs
(``application-dev/application-test/uitest-guidelines.md``, "uiInput"; ``dfx/hdc.md``) give them and
as zai-org/Open-AutoGLM (``phone_agent/hdc/device.py``) and codematrixer/hmdriver2 (``hmdriver2/hdc.py``)
use them:

- gestures: ``uitest uiInput click|doubleClick|longClick X Y``, ``swipe|drag X1 Y1 X2 Y2 VELOCITY``
  (pixels a second, 200-40000), ``keyEvent Back|Home|KEYCODE...``;
- text: ``uitest uiInput text TEXT`` (API 18+: into the focused field, any Unicode; no keyboard app
  is needed); Enter is key code 2054, and clearing a field is Ctrl+A (2072 2017) then Delete (2055)
  (OpenHarmony ``@ohos.multimodalInput.keyCode``);
- apps: ``aa start -b BUNDLE -a ABILITY`` (``EntryAbility`` unless named: ``BUNDLE/ABILITY``),
  ``aa force-stop BUNDLE``, ``aa dump -l`` for the app in front (its ``state #FOREGROUND``
  mission's ``bundle name``), ``bm dump -a`` for the installed bundles;
- the screen: ``snapshot_display -f /data/local/tmp/NAME.jpeg`` then ``hdc file recv`` (a JPEG);
  the tree: ``uitest dumpLayout -p /data/local/tmp/NAME.json`` then ``hdc file recv`` (JSON nodes
  of ``attributes`` and ``children``, read into the uiautomator form every reader of trees takes);
- devices: ``hdc list targets -v`` (``SERIAL  USB|TCP  Connected|Offline|Unauthorized  HOST  hdc``,
  ``[Empty]`` when none).
"""

from __future__ import annotations

import json
import logging
import re
import shlex
import shutil
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from mobile_agent.device.base import check_point
from mobile_agent.errors import (
    DeviceDisconnectedError, DeviceError, DeviceNotFoundError, InvalidGestureError, ProgramNotFoundError,
)
from mobile_agent.types import Box, check_pixels, to_rgb

__all__ = ["HarmonyDevice", "HdcTarget", "layout_to_hierarchy", "list_targets", "parse_targets"]

log = logging.getLogger(__name__)

HDC_HELP = ("hdc comes with DevEco Studio and HarmonyOS's Command Line Tools (sdk/default/openharmony/toolchains): "
            "put that folder on PATH (docs/devices.md)")
SHOT_PATH = "/data/local/tmp/mobile_agent_shot.jpeg"
LAYOUT_PATH = "/data/local/tmp/mobile_agent_layout.json"
KEY_ENTER, KEY_DEL, KEY_CTRL_LEFT, KEY_A = 2054, 2055, 2072, 2017
#: A swipe held this long is a drag (``uiInput drag``: press, then move).
DRAG_MS = 1000
#: The home screen's bundles: ``foreground_app`` answers None there.
LAUNCHERS = ("com.ohos.sceneboard", "com.ohos.launcher", "com.huawei.hmos.launcher")
#: Main abilities that are not ``EntryAbility`` (the system Settings' is its own).
ABILITIES = {"com.huawei.hmos.settings": "com.huawei.hmos.settings.MainAbility"}
_BUNDLE_RE = re.compile(r"^[A-Za-z][\w-]*(\.[\w-]+)+(/[\w.]+)?$")


@dataclass(frozen=True)
class HdcTarget:
    serial: str
    transport: str = ""
    state: str = "Connected"

    @property
    def problem(self) -> str | None:
        if self.state.lower() == "connected":
            return None
        if self.state.lower() == "unauthorized":
            return (f"HarmonyOS device {self.serial} has not allowed this computer to debug it: unlock the phone and "
                    "accept the \"Allow USB debugging?\" prompt (Settings > System > Developer options > USB debugging)")
        return f"HarmonyOS device {self.serial} is {self.state}: reconnect it (a new cable or `hdc kill -r`)"


def parse_targets(text: str) -> list[HdcTarget]:
    """The devices of ``hdc list targets -v`` (or plain ``list targets``: serials only)."""
    out: list[HdcTarget] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("[Empty]") or line.startswith("[Fail]") or line.lower().startswith("list of"):
            continue
        parts = line.split()
        if len(parts) >= 3:
            out.append(HdcTarget(parts[0], parts[1], parts[2]))
        else:
            out.append(HdcTarget(parts[0]))
    return out


def _find_hdc(hdc_path: str | None) -> str:
    path = hdc_path or shutil.which("hdc")
    if not path or not (Path(path).exists() or shutil.which(path)):
        raise ProgramNotFoundError(f"the hdc program is not installed or not on PATH: {HDC_HELP}")
    return path


def _hdc(hdc: str, args: list[str], timeout_s: float) -> str:
    try:
        done = subprocess.run([hdc, *args], capture_output=True, timeout=timeout_s, stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise ProgramNotFoundError(f"the hdc program is not installed or not on PATH: {HDC_HELP}") from None
    except subprocess.TimeoutExpired:
        raise DeviceError(f"`hdc {_short(' '.join(args))}` did not answer within {timeout_s:.0f} s") from None
    except OSError as exc:
        raise ProgramNotFoundError(f"hdc at {hdc} cannot be run ({exc}): {HDC_HELP}") from None
    text = (done.stdout + done.stderr).decode("utf-8", "replace")
    if "[Fail]" in text or done.returncode != 0:
        if "E001005" in text or "not found or connected" in text.lower():
            raise DeviceDisconnectedError(f"`hdc {_short(' '.join(args))}`: {text.strip()[:300]} (is the phone still "
                                          "connected? `hdc list targets -v` shows it)")
        raise DeviceError(f"`hdc {_short(' '.join(args))}` failed: {text.strip()[:300] or f'exit {done.returncode}'}")
    return text


def list_targets(hdc_path: str | None = None, timeout_s: float = 10.0) -> list[HdcTarget]:
    """Every device hdc sees, with its state."""
    return parse_targets(_hdc(_find_hdc(hdc_path), ["list", "targets", "-v"], timeout_s))


class HarmonyDevice:
    """A HarmonyOS phone through hdc; implements :class:`mobile_agent.device.Device`.

    Args:
        serial: the device's connect key (``hdc list targets``); None picks the only one.
        hdc_path: the ``hdc`` program (default: from PATH).
        timeout_s: the longest wait for one hdc command.
    """

    capabilities = frozenset({"long_press", "wait_still", "launch", "ui_tree", "clear_text"})
    kind = "harmony"

    def __init__(self, serial: str | None = None, *, hdc_path: str | None = None, timeout_s: float = 20.0) -> None:
        self.hdc = _find_hdc(hdc_path)
        self.timeout_s = timeout_s
        targets = parse_targets(_hdc(self.hdc, ["list", "targets", "-v"], timeout_s))
        if serial:
            found = [t for t in targets if t.serial == serial]
            if not found:
                seen = ", ".join(t.serial for t in targets) or "none"
                raise DeviceNotFoundError(f"no HarmonyOS device {serial!r} (hdc sees: {seen})")
            target = found[0]
        else:
            if not targets:
                raise DeviceNotFoundError("no HarmonyOS device is connected: connect it by USB with Developer options and "
                                          "USB debugging on (docs/devices.md), then `hdc list targets -v` lists it")
            ready = [t for t in targets if t.problem is None]
            if len(targets) > 1 and len(ready) != 1:
                raise DeviceNotFoundError("several HarmonyOS devices are connected: name one with --device harmony:SERIAL "
                                          f"({', '.join(t.serial for t in targets)})")
            target = ready[0] if ready else targets[0]
        if target.problem is not None:
            raise DeviceError(target.problem)
        self.serial = target.serial
        self._tmp = Path(tempfile.mkdtemp(prefix="mobile-agent-hdc-"))
        # the frame wait_still found still, and when; None once anything is sent to the phone
        self._still: tuple[Image.Image, float] | None = None
        self._size = self.screenshot().size

    def __repr__(self) -> str:
        return f"HarmonyDevice(serial={self.serial!r})"

    # ----------------------------------------------------------------- talking to the phone

    def _run(self, *args: str, timeout_s: float | None = None) -> str:
        return _hdc(self.hdc, ["-t", self.serial, *args], timeout_s or self.timeout_s)

    def shell(self, command: str, timeout_s: float | None = None) -> str:
        return self._run("shell", command, timeout_s=timeout_s)

    def _ui(self, command: str, extra_s: float = 0.0) -> None:
        self._still = None
        out = self.shell(f"uitest uiInput {command}", timeout_s=self.timeout_s + extra_s)
        low = out.lower()
        if "error" in low or "fail" in low or "usage" in low:
            raise DeviceError(f"`uitest uiInput {_short(command)}` failed on {self.serial}: {out.strip()[:300]}")

    def _pull(self, remote: str, what: str) -> Path:
        local = self._tmp / Path(remote).name
        local.unlink(missing_ok=True)
        self._run("file", "recv", remote, str(local), timeout_s=self.timeout_s + 10)
        if not local.exists():
            raise DeviceError(f"`hdc file recv` brought no {what} from {self.serial}")
        return local

    # ----------------------------------------------------------------- the screen

    def size(self) -> tuple[int, int]:
        return self._size

    def screenshot(self) -> Image.Image:
        """The screen (``snapshot_display``: a JPEG) as RGB; right after :meth:`wait_still` found
        the screen still (within a second, nothing sent since), that frame."""
        still = self._still
        if still is not None and time.monotonic() - still[1] <= 1.0:
            return still[0].copy()
        out = self.shell(f"snapshot_display -f {SHOT_PATH}")
        if "fail" in out.lower() or "error" in out.lower():
            raise DeviceError(f"snapshot_display failed on {self.serial}: {out.strip()[:300]} (is the screen on and "
                              "unlocked?)")
        local = self._pull(SHOT_PATH, "screenshot")
        try:
            with Image.open(local) as opened:
                check_pixels(opened, "the HarmonyOS screenshot")
                opened.load()
                image = to_rgb(opened).copy()
        except (UnidentifiedImageError, OSError) as exc:
            raise DeviceError(f"the screenshot from {self.serial} is not an image: {exc}") from None
        self._size = image.size
        return image

    def wait_still(self, timeout_s: float = 3.0) -> bool:
        """Wait until two successive screenshots are alike; False on timeout."""
        from mobile_agent.device.adb.still import still_frame

        if self._still is not None and time.monotonic() - self._still[1] <= 1.0:
            return True
        frame = still_frame(self.screenshot, 0, timeout_s)
        if frame is None:
            return False
        self._still = (frame, time.monotonic())
        return True

    # ----------------------------------------------------------------- gestures

    def _point(self, x: float, y: float) -> tuple[int, int]:
        x, y = int(round(x)), int(round(y))
        check_point(self._size, x, y)
        return x, y

    def tap(self, x: int, y: int) -> None:
        self._ui("click {} {}".format(*self._point(x, y)))

    def double_tap(self, x: int, y: int) -> None:
        self._ui("doubleClick {} {}".format(*self._point(x, y)))

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        """``uiInput longClick`` (its hold is the system's own, whatever ``duration_ms`` says)."""
        if duration_ms < 0:
            raise InvalidGestureError(f"long press duration must be 0 ms or more, got {duration_ms}")
        self._ui("longClick {} {}".format(*self._point(x, y)))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """``uiInput swipe`` at the speed that takes ``duration_ms`` (a drag when held
        :data:`DRAG_MS` or longer); a swipe that does not move is a tap (or a long press)."""
        if duration_ms < 0:
            raise InvalidGestureError(f"swipe duration must be 0 ms or more, got {duration_ms}")
        a, b = self._point(x1, y1), self._point(x2, y2)
        if a == b:
            self._ui(("longClick {} {}" if duration_ms >= 500 else "click {} {}").format(*a))
            return
        dist = ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
        velocity = int(min(40000, max(200, dist / max(duration_ms, 1) * 1000)))
        verb = "drag" if duration_ms >= DRAG_MS else "swipe"
        self._ui(f"{verb} {a[0]} {a[1]} {b[0]} {b[1]} {velocity}", extra_s=dist / velocity)

    def type_text(self, text: str) -> None:
        """Type into the focused field (``uiInput text``: any Unicode); ``\\n`` presses Enter."""
        if not isinstance(text, str):
            raise InvalidGestureError(f"type_text needs a string, got {type(text).__name__}")
        for i, part in enumerate(text.split("\n")):
            if i:
                self._ui(f"keyEvent {KEY_ENTER}")
            if part:
                self._ui(f"text {shlex.quote(part)}", extra_s=0.05 * len(part))

    def clear_text(self) -> None:
        """Empty the focused field: select all (Ctrl+A), then Delete."""
        self._ui(f"keyEvent {KEY_CTRL_LEFT} {KEY_A}")
        self._ui(f"keyEvent {KEY_DEL}")

    def back(self) -> None:
        self._ui("keyEvent Back")

    def home(self) -> None:
        self._ui("keyEvent Home")

    def press_key(self, key: str) -> None:
        keys = {"enter": str(KEY_ENTER), "back": "Back", "home": "Home", "delete": str(KEY_DEL)}
        if key not in keys:
            raise InvalidGestureError(f"unknown key {key[:40]!r}: use {', '.join(keys)}")
        self._ui(f"keyEvent {keys[key]}")

    # ----------------------------------------------------------------- apps and the tree

    def packages(self) -> list[str]:
        """The installed bundles (``bm dump -a``)."""
        out = []
        for line in self.shell("bm dump -a").splitlines():
            name = line.strip().removeprefix("Bundle Name:").strip()
            if _BUNDLE_RE.match(name):
                out.append(name)
        return out

    def installed_apps(self) -> list[dict[str, str]]:
        return [{"name": b, "package": b} for b in self.packages()]

    def app_by_package(self, package: str) -> str | None:
        name = package.strip()
        return name if name.split("/")[0] in self.packages() else None

    def foreground_app(self) -> str | None:
        """The bundle of the app in front (``aa dump -l``), None on the home screen."""
        return parse_foreground(self.shell("aa dump -l"))

    def launch(self, app: str) -> bool:
        """Open an app by bundle (``com.example.app``, or ``BUNDLE/ABILITY``) or by the label under
        its icon on the home screen. False when none matches."""
        name = app.strip()
        if not name:
            raise InvalidGestureError("launch needs an app name or bundle, got an empty string")
        if _BUNDLE_RE.match(name):
            bundle, _, ability = name.partition("/")
            ability = ability or ABILITIES.get(bundle, "EntryAbility")
            self._still = None
            out = self.shell(f"aa start -b {shlex.quote(bundle)} -a {shlex.quote(ability)}")
            if "successfully" not in out:
                log.warning("aa start could not start %s on %s: %s", name, self.serial, out.strip()[:200])
                return False
            return True
        self.home()
        xml = self.ui_tree()
        if xml:
            from mobile_agent.device.adb.device import find_label

            box = find_label(xml, name)
            if box is not None:
                c = box.center
                self.tap(c.x, c.y)
                return True
        return False

    def stop_app(self, package: str) -> bool:
        bundle = package.strip().split("/")[0]
        if bundle not in self.packages():
            return False
        self._still = None
        self.shell(f"aa force-stop {shlex.quote(bundle)}")
        return True

    def ui_tree(self) -> str | None:
        """``uitest dumpLayout`` read into the uiautomator form (:func:`layout_to_hierarchy`); None where
        it cannot be had."""
        try:
            out = self.shell(f"uitest dumpLayout -p {LAYOUT_PATH}", timeout_s=self.timeout_s + 20)
            if "fail" in out.lower() or "error" in out.lower():
                log.warning("dumpLayout failed on %s: %s", self.serial, out.strip()[:200])
                return None
            data = json.loads(self._pull(LAYOUT_PATH, "layout").read_text(encoding="utf-8"))
            return layout_to_hierarchy(data)
        except DeviceDisconnectedError:
            raise
        except (DeviceError, ValueError) as exc:
            log.warning("no layout from %s: %s", self.serial, exc)
            return None


_MISSION = re.compile(r"Mission ID #")


def parse_foreground(text: str) -> str | None:
    """The bundle of the mission in ``state #FOREGROUND`` in ``aa dump -l`` (Open-AutoGLM's
    ``get_current_app`` reads it so), None where none is or it is the launcher."""
    for block in _MISSION.split(text)[1:]:
        if re.search(r"^\s*state #FOREGROUND", block, re.M | re.I):
            m = (re.search(r"bundle name \[([^\]]+)\]", block) or re.search(r"app name \[([^\]]+)\]", block)
                 or re.search(r"mission name #\[#([^:\]]+)", block))
            if m:
                bundle = m.group(1)
                return None if bundle in LAUNCHERS else bundle
    return None


_FLAGS = ("checkable", "checked", "clickable", "enabled", "focused", "scrollable", "selected")


def layout_to_hierarchy(data: Any) -> str:
    """``uitest dumpLayout``'s JSON (each node ``{"attributes": {...}, "children": [...]}`` with
    ``type``, ``text``, ``description``, ``id``/``key``, ``bundleName``, ``bounds`` ``[x1,y1][x2,y2]``
    in pixels and ``"true"``/``"false"`` flags: hmdriver2's ``docs/hierarchy.json``) as a uiautomator
    ``<hierarchy>`` (ours: ``type`` is the ``class``, ``description`` the ``content-desc``, ``id`` or
    ``key`` the ``resource-id``; a node whose ``visible`` is false has an empty frame). Raises
    ``ValueError`` for JSON of another shape."""
    if not isinstance(data, dict) or not isinstance(data.get("attributes", {}), dict):
        raise ValueError("not a dumpLayout tree: a node is an object with attributes and children")
    root = ET.Element("hierarchy", rotation="0")

    def visit(node: dict[str, Any], parent: ET.Element, index: int, package: str) -> None:
        a = node.get("attributes") or {}
        if not isinstance(a, dict):
            raise ValueError("not a dumpLayout tree: attributes must be an object")
        s = lambda k: str(a.get(k) or "")  # noqa: E731
        package = s("bundleName") or package
        bounds = s("bounds") if s("visible") != "false" else "[0,0][0,0]"
        try:
            box = Box.from_bounds(bounds or "[0,0][0,0]")
        except ValueError:
            box = Box(0, 0, 0, 0)
        attrs = {"index": str(index), "text": s("text"), "resource-id": s("id") or s("key"), "class": s("type"),
                 "package": package, "content-desc": s("description")}
        attrs.update({f: "true" if s(f) == "true" else "false" for f in _FLAGS})
        if s("enabled") == "":
            attrs["enabled"] = "true"
        attrs["bounds"] = box.to_bounds()
        el = ET.SubElement(parent, "node", attrs)
        for i, child in enumerate(c for c in (node.get("children") or []) if isinstance(c, dict)):
            visit(child, el, i, package)

    visit(data, root, 0, "")
    return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" + ET.tostring(root, encoding="unicode")


def _short(command: str, limit: int = 80) -> str:
    return command if len(command) <= limit else command[: limit - 3] + "..."


def hdc_available() -> bool:
    """Whether an ``hdc`` program is on PATH (``mobile-agent devices`` asks it only then)."""
    return shutil.which("hdc") is not None

"""An hdc server in front of the simulated phone: the tests put ``tests/fakes/bin/hdc`` (a stand-in
client) on PATH and ``$OHOS_HDC_SERVER_PORT`` at this server, so that the device code runs the
``hdc`` program as it would on a user's computer, one process a command.

What it answers, and where the form comes from:

- ``hdc list targets [-v]``: ``SERIAL\\tUSB\\tConnected\\tlocalhost\\thdc`` a line, ``[Empty]`` when
  none (the form ``hdc list targets -v`` prints, as the parsers of hdc's users read it: a device's
  state ``Connected``, ``Offline`` or ``Unauthorized``); a command for a device not there:
  ``[Fail][E001005] Device not found or connected`` (hdc's message);
- ``shell uitest uiInput click|doubleClick|longClick X Y``, ``swipe|drag X1 Y1 X2 Y2 VELOCITY``,
  ``keyEvent Back|Home|CODES``, ``text TEXT`` (OpenHarmony's uitest guide, "uiInput"; they print
  nothing); ``shell uitest dumpLayout -p PATH`` (the JSON of hmdriver2's ``docs/hierarchy.json``:
  nodes of ``attributes`` and ``children``);
- ``shell snapshot_display -f PATH`` (a JPEG at PATH; the line it prints is ours);
- ``shell aa start -b B -a A`` (``start ability successfully.``, as aa prints it; a failure
  ``error: failed to start ability.`` and a reason of ours), ``aa force-stop B``, ``aa dump -l``
  (missions as Open-AutoGLM's ``phone_agent/hdc/device.py`` shows them: ``Mission ID #N``,
  ``mission name #[#BUNDLE:entry:ABILITY]``, ``app name [B]``, ``bundle name [B]``, ``state #FOREGROUND``),
  ``bm dump -a`` (``ID: 100:`` then a bundle a line);
- ``file recv REMOTE LOCAL``: the file written at LOCAL (the line printed is ours).

How the simulated phone's tree is told in dumpLayout's words (its classes as ArkUI types: Text,
Button, Image, TextInput, Toggle, Column, Scroll) and which bundles its apps have (Settings is
``com.huawei.hmos.settings``, HarmonyOS NEXT's own; the others keep their packages) is ours.
"""

from __future__ import annotations

import base64
import io
import json
import shlex
import socketserver
import threading
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

BIN = Path(__file__).resolve().parent / "bin"
BUNDLES = {"Settings": "com.huawei.hmos.settings"}
LAUNCHER = "com.ohos.sceneboard"
_TYPES = {"TextView": "Text", "Button": "Button", "ImageButton": "Button", "ImageView": "Image",
          "EditText": "TextInput", "Switch": "Toggle", "ScrollView": "Scroll", "RecyclerView": "List",
          "LinearLayout": "Column", "FrameLayout": "Stack"}


class FakeHdc:
    """hdc's server for the phones of ``targets`` (serial -> state); the first connected one is a
    simulated phone (``phone``). ``commands`` holds every command's arguments, as the client got them."""

    def __init__(self, phone: Any = None, targets: dict[str, str] | None = None) -> None:
        if phone is None:
            from mobile_agent.device.sim import SimPhone

            phone = SimPhone(width=540, height=1170)
        self.phone = phone
        self.targets = {"FMR0223C13000649": "Connected"} if targets is None else dict(targets)
        self.commands: list[list[str]] = []
        self.files: dict[str, bytes] = {}
        self._selected_all = False
        self._lock = threading.Lock()
        fake = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                req = json.loads(self.rfile.readline().decode("utf-8"))
                with fake._lock:
                    fake.commands.append(list(req["argv"]))
                    try:
                        out, code, files = fake.answer(list(req["argv"]), req.get("cwd", "."))
                    except Exception as exc:  # noqa: BLE001 - the stand-in says it, as a failing command would
                        out, code, files = f"[Fail]stand-in error: {exc}\n", 1, {}
                self.wfile.write(json.dumps({"out": out, "code": code, "files": files}).encode("utf-8") + b"\n")

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    def env(self, path: str) -> dict[str, str]:
        """The environment a test gives: the stand-in first on PATH, this server's port."""
        return {"PATH": f"{BIN}:{path}", "OHOS_HDC_SERVER_PORT": str(self.port)}

    def __enter__(self) -> "FakeHdc":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def shell_commands(self) -> list[str]:
        return [c[c.index("shell") + 1] for c in self.commands if "shell" in c]

    # ----------------------------------------------------------------- hdc's commands

    def answer(self, argv: list[str], cwd: str) -> tuple[str, int, dict[str, str]]:
        if argv[:2] == ["list", "targets"]:
            if not self.targets:
                return "[Empty]\n\n", 0, {}
            if "-v" in argv:
                return "".join(f"{s}\tUSB\t{st}\tlocalhost\thdc\n" for s, st in self.targets.items()), 0, {}
            return "".join(f"{s}\n" for s in self.targets), 0, {}
        serial = None
        if argv[:1] == ["-t"]:
            serial, argv = argv[1], argv[2:]
        connected = [s for s, st in self.targets.items() if st == "Connected"]
        if serial is None:
            serial = connected[0] if len(connected) == 1 else None
        if serial not in connected:
            return "[Fail][E001005] Device not found or connected\n", 1, {}
        if serial != connected[0]:
            return "[Fail]the stand-in has one simulated phone\n", 1, {}
        if argv[:1] == ["shell"]:
            return self.shell(" ".join(argv[1:])), 0, {}
        if argv[:2] == ["file", "recv"] and len(argv) == 4:
            remote, local = argv[2], argv[3]
            if remote not in self.files:
                return f"[Fail]Error opening file: no such file or directory, path:{remote}\n", 1, {}
            target = Path(local) if Path(local).is_absolute() else Path(cwd) / local
            data = self.files[remote]
            return (f"FileTransfer finish, Size:{len(data)}, File count = 1, time:1ms rate:{len(data)}kB/s\n", 0,
                    {str(target): base64.b64encode(data).decode("ascii")})
        return f"[Fail]Unknown command: {' '.join(argv)}\n", 1, {}

    def shell(self, command: str) -> str:
        words = shlex.split(command)
        p = self.phone
        if words[:2] == ["uitest", "uiInput"]:
            return self._ui(words[2:])
        if words[:2] == ["uitest", "dumpLayout"] and "-p" in words:
            path = words[words.index("-p") + 1]
            self.files[path] = json.dumps(self.layout()).encode("utf-8")
            return f"DumpLayout saved to:{path}\n"
        if words[:1] == ["snapshot_display"] and "-f" in words:
            path = words[words.index("-f") + 1]
            buf = io.BytesIO()
            img = p.screenshot()
            img.save(buf, format="JPEG", quality=90)
            self.files[path] = buf.getvalue()
            return f"success: snapshot display 0, write to {path} as jpeg, width {img.width}, height {img.height}\n"
        if words[:2] == ["aa", "start"]:
            bundle = words[words.index("-b") + 1] if "-b" in words else ""
            name = self._app_of(bundle)
            if name is None:
                return "error: failed to start ability.\nerror: the bundle is not installed.\n"
            p.launch(name)
            return "start ability successfully.\n"
        if words[:2] == ["aa", "force-stop"] and len(words) == 3:
            name = self._app_of(words[2])
            if name is not None:
                p.stop_app(name)
            return "force stop process successfully.\n"
        if words[:3] == ["aa", "dump", "-l"]:
            return self._missions()
        if words[:3] == ["bm", "dump", "-a"]:
            return "ID: 100:\n" + "".join(f"\t{self._bundle(a['name'])}\n" for a in p.installed_apps())
        if words[:1] == ["rm"]:
            return ""
        return f"/bin/sh: {words[0] if words else ''}: inaccessible or not found\n"

    def _ui(self, words: list[str]) -> str:
        p = self.phone
        op, args = (words[0] if words else ""), words[1:]
        nums = [int(a) for a in args if a.lstrip("-").isdigit()]
        if op in ("click", "doubleClick", "longClick") and len(nums) == 2:
            x, y = nums
            if op == "longClick":
                p.long_press(x, y, 1500)
            else:
                p.tap(x, y)
                if op == "doubleClick":
                    p.tap(x, y)
            return ""
        if op in ("swipe", "drag") and len(nums) in (4, 5):
            x1, y1, x2, y2 = nums[:4]
            v = nums[4] if len(nums) == 5 else 600
            dist = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
            p.swipe(x1, y1, x2, y2, 1500 if op == "drag" else max(1, int(dist / v * 1000)))
            return ""
        if op == "keyEvent" and args:
            if args == ["Back"]:
                p.back()
            elif args == ["Home"]:
                p.home()
            elif args == ["2054"]:
                p.type_text("\n")
            elif args == ["2072", "2017"]:
                self._selected_all = True
                return ""
            elif args == ["2055"] and self._selected_all:
                p.clear_text()
                p.state_changed()  # the simulated phone's clear_text leaves its last frame drawn
            self._selected_all = False
            return ""
        if op == "text" and len(args) == 1:
            p.type_text(args[0])
            return ""
        return "usage: uitest uiInput <click|doubleClick|longClick|swipe|drag|keyEvent|text|inputText> ...\n"

    # ----------------------------------------------------------------- the phone in hdc's words

    def _bundle(self, app: str) -> str:
        return BUNDLES.get(app) or next((a["package"] for a in self.phone.installed_apps() if a["name"] == app), app)

    def _app_of(self, bundle: str) -> str | None:
        return next((a["name"] for a in self.phone.installed_apps() if self._bundle(a["name"]) == bundle), None)

    def _missions(self) -> str:
        front = self.phone.foreground_app()
        rows = [(LAUNCHER, "com.ohos.sceneboard.MainAbility", front is None)]
        if front is not None:
            rows.append((self._bundle(front), "EntryAbility", True))
        out = []
        for i, (bundle, ability, fore) in enumerate(rows):
            state = "FOREGROUND" if fore and (bundle != LAUNCHER or front is None) else "BACKGROUND"
            out.append(f"Mission ID #{100 + i}\nmission name #[#{bundle}:entry:{ability}]\napp name [{bundle}]\n"
                       f"bundle name [{bundle}]\nability type [PAGE]\nstate #{state}\napp state #{state}\n")
        return "".join(out)

    def layout(self) -> dict[str, Any]:
        sim = ET.fromstring(self.phone.ui_tree().encode("utf-8"))
        front = self.phone.foreground_app()
        bundle = self._bundle(front) if front else LAUNCHER
        w, h = self.phone.size()

        def node(n: ET.Element) -> dict[str, Any]:
            cls = (n.get("class") or "").rsplit(".", 1)[-1]
            a = {"accessibilityId": n.get("index", ""), "bounds": n.get("bounds", ""), "text": n.get("text", ""),
                 "description": n.get("content-desc", ""), "id": n.get("resource-id", ""),
                 "key": n.get("resource-id", ""), "type": _TYPES.get(cls, "Column"), "visible": "true"}
            for f in ("checkable", "checked", "clickable", "enabled", "focused", "scrollable", "selected"):
                a[f] = n.get(f, "false")
            if n.get("package") == "com.android.systemui":
                a["bundleName"] = "com.ohos.systemui"
            return {"attributes": a, "children": [node(c) for c in n if c.tag == "node"]}

        root = {"attributes": {"bounds": f"[0,0][{w},{h}]", "type": "root", "bundleName": bundle,
                               "abilityName": "EntryAbility", "visible": "true", "enabled": "true"},
                "children": [node(c) for c in sim if c.tag == "node"]}
        return {"attributes": {"bounds": f"[0,0][{w},{h}]", "type": ""}, "children": [root]}

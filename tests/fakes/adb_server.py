"""A small adb server for tests: it speaks the adb host protocol on a localhost socket.

It answers ``host:version``, ``host:devices(-l)``, ``host:transport:``/``host:tport:serial:``
(and ``-any``), ``host-serial:SERIAL:features|get-state``, and, once a transport is chosen, the
``shell:``, ``shell,v2:`` and ``exec:`` services. Each phone runs the command lines it receives by
splitting them as a POSIX shell does (``shlex``), and answers from the fixture files: ``wm size``,
``dumpsys``, ``screencap -p``, ``uiautomator dump``, ``input ...`` and so on. Everything the client
sends is recorded.
"""

from __future__ import annotations

import base64
import json
import shlex
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path

ADBKEYBOARD = "com.android.adbkeyboard/.AdbIME"

# the adb captures the fake answers from live beside the adb tests
FIXTURES = Path(__file__).resolve().parent.parent / "device_adb" / "fixtures"


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def android_input_text(arg: str) -> str:
    """What Android's ``input text ARG`` types: the loop of Input.java/InputShellCommand.sendText,
    which turns ``%s`` into a space (a ``%`` sets an escape flag that the next ``s`` consumes)."""
    buff = list(arg)
    escape = False
    i = 0
    while i < len(buff):
        if escape:
            escape = False
            if buff[i] == "s":
                buff[i] = " "
                i -= 1
                del buff[i]
        if buff[i] == "%":
            escape = True
        i += 1
    return "".join(buff)


UNAUTHORIZED = ("device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\n"
                "Try 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.")


@dataclass
class FakePhone:
    """A phone behind the fake server. ``screens`` are PNG bytes served in turn (the last one repeats)."""

    serial: str = "emulator-5554"
    state: str = "device"
    tags: str = "product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa"
    wm_size: str = field(default_factory=lambda: fixture_text("wm_size_physical.txt"))
    wm_density: str = field(default_factory=lambda: fixture_text("wm_density.txt"))
    dumpsys_input: str = field(default_factory=lambda: fixture_text("dumpsys_input_android14.txt"))
    dumpsys_display: str = field(default_factory=lambda: fixture_text("dumpsys_display_rot3.txt"))
    dumpsys_power: str = "  mWakefulness=Awake\n"
    screens: list[bytes] = field(default_factory=lambda: [fixture_bytes("screencap_settings.png")])
    ui_xml: str = field(default_factory=lambda: fixture_text("ui_settings.xml"))
    home_xml: str = field(default_factory=lambda: fixture_text("ui_launcher.xml"))
    idle_failures: int = 0
    ime: str = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
    ime_list: str = field(default_factory=lambda: fixture_text("ime_list_all.txt"))
    ime_enabled: list[str] | None = None  # ``ime list -s``; None: the selected keyboard alone
    ime_history: list[str] = field(default_factory=list)  # the ime enable / disable / set commands, in order
    packages: str = field(default_factory=lambda: fixture_text("pm_list_packages.txt"))
    props: dict[str, str] = field(default_factory=lambda: {
        "ro.product.model": "sdk_gphone64_x86_64", "ro.build.version.release": "14"})
    hang: tuple[str, ...] = ()  # command prefixes that never answer
    drop: tuple[str, ...] = ()  # command prefixes during which the phone is unplugged
    # what happened
    commands: list[str] = field(default_factory=list)
    typed: str = ""
    gestures: list[tuple] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    foreground: str = "com.android.settings"  # the package in front when not at home
    launcher: str = "com.google.android.apps.nexuslauncher"
    _frame: int = 0
    _at_home: bool = False

    def run(self, line: str) -> tuple[bytes, int]:
        """Run one command line (``a; b && c``) and return its output and exit status."""
        self.commands.append(line)
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        tokens = list(lexer)
        out = b""
        status = 0
        argv: list[str] = []
        skip = False
        for tok in tokens + [";"]:
            if tok in (";", "&&", "||"):
                if argv and not skip:
                    data, status = self.run_one(argv)
                    out += data
                skip = (tok == "&&" and status != 0) or (tok == "||" and status == 0)
                argv = []
            else:
                argv.append(tok)
        return out, status

    def enabled_imes(self) -> list[str]:
        """``ime list -s``: the enabled keyboards (by default the selected one alone)."""
        return list(self.ime_enabled) if self.ime_enabled is not None else [self.ime]

    def _ime(self, verb: str, ime: str) -> str:
        """``ime enable|disable|set ID`` as Android answers them (fixtures/ime_shell.json)."""
        said = json.loads(fixture_text("ime_shell.json"))
        installed = [line.strip() for line in self.ime_list.splitlines() if line.strip()]
        enabled = self.enabled_imes()
        self.ime_history.append(f"{verb} {ime}")
        if ime not in installed:
            return said[f"ime {'set' if verb == 'set' else 'enable'} (unknown)"].format(ime=ime)
        if verb == "enable":
            if ime in enabled:
                return said["ime enable (already)"].format(ime=ime)
            self.ime_enabled = enabled + [ime]
            return said["ime enable"].format(ime=ime)
        if verb == "disable":
            self.ime_enabled = [i for i in enabled if i != ime]
            return said["ime disable"].format(ime=ime)
        if ime not in enabled:
            return said["ime set (unknown)"].format(ime=ime)
        self.ime = ime
        return said["ime set"].format(ime=ime)

    def next_screen(self) -> bytes:
        data = self.screens[min(self._frame, len(self.screens) - 1)]
        self._frame += 1
        return data

    def run_one(self, argv: list[str]) -> tuple[bytes, int]:
        cmd, args = argv[0], argv[1:]
        text = None
        if cmd == "echo":
            text = " ".join(args) + "\n"
        elif cmd == "wm" and args == ["size"]:
            text = self.wm_size
        elif cmd == "wm" and args == ["density"]:
            text = self.wm_density
        elif cmd == "dumpsys" and args[:2] == ["activity", "activities"]:
            pkg = self.launcher if self._at_home else self.foreground
            text = f"    topResumedActivity=ActivityRecord{{5e1a u0 {pkg}/.Main t7}}\n"
        elif cmd == "dumpsys" and args:
            text = {"input": self.dumpsys_input, "display": self.dumpsys_display,
                    "power": self.dumpsys_power}.get(args[0], "")
        elif cmd == "am" and args[:1] == ["force-stop"] and len(args) == 2:
            self.gestures.append(("force-stop", args[1]))
            if args[1] == self.foreground:
                self._at_home = True
            text = ""
        elif cmd == "am" and args[:3] == ["start", "-a", "android.intent.action.VIEW"] and "-d" in args:
            self.gestures.append(("view", args[args.index("-d") + 1]))
            self.foreground, self._at_home = "com.android.chrome", False
            text = "Starting: Intent { act=android.intent.action.VIEW }\n"
        elif cmd == "screencap":
            return self.next_screen(), 0
        elif cmd == "getprop" and args:
            text = self.props.get(args[0], "") + "\n"
        elif cmd == "settings" and args[:3] == ["get", "secure", "default_input_method"]:
            text = self.ime + "\n"
        elif cmd == "ime" and args[:1] == ["list"]:
            text = self.ime_list if "-a" in args else "".join(f"{i}\n" for i in self.enabled_imes())
        elif cmd == "ime" and len(args) == 2 and args[0] in ("enable", "disable", "set"):
            text = self._ime(args[0], args[1])
        elif cmd == "pm" and args[:2] == ["list", "packages"]:
            text = self.packages
        elif cmd == "input":
            return self._input(args)
        elif cmd == "am" and args[:3] == ["broadcast", "-a", "ADB_INPUT_B64"]:
            msg = args[args.index("--es") + 2]
            if self.ime == ADBKEYBOARD:  # only the selected ADBKeyboard receives the broadcast and types it
                self.typed += base64.b64decode(msg).decode("utf-8")
            text = ("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\n"
                    "Broadcast completed: result=0\n")
        elif cmd == "uiautomator" and args[:1] == ["dump"]:
            if self.idle_failures > 0:
                self.idle_failures -= 1
                text = "ERROR: could not get idle state.\n"
            else:
                self.files[args[1]] = self.home_xml if self._at_home else self.ui_xml
                text = f"UI hierchary dumped to: {args[1]}\n"
        elif cmd == "cat" and args:
            if args[0] in self.files:
                text = self.files[args[0]]
            else:
                return f"cat: {args[0]}: No such file or directory\n".encode(), 1
        elif cmd == "monkey":
            pkg = args[args.index("-p") + 1]
            known = f"package:{pkg}" in self.packages.split()
            text = fixture_text("monkey_ok.txt" if known else "monkey_missing.txt").replace("com.android.settings", pkg)
            if known:
                self.gestures.append(("launch", pkg))
                self._at_home = False
                self.foreground = pkg
            return text.encode(), 0 if known else 252
        if text is None:
            return f"/system/bin/sh: {cmd}: inaccessible or not found\n".encode(), 127
        return text.encode("utf-8"), 0

    def _input(self, args: list[str]) -> tuple[bytes, int]:
        kind = args[0] if args else ""
        if kind == "tap" and len(args) == 3:
            self.gestures.append(("tap", int(args[1]), int(args[2])))
        elif kind == "swipe" and len(args) in (5, 6):
            self.gestures.append(("swipe", *(int(a) for a in args[1:])))
        elif kind == "keyevent" and len(args) >= 2:
            # Android's `input keyevent <key code> ...` takes several key codes in one command
            for code in map(int, args[1:]):
                self.gestures.append(("key", code))
                if code == 66:
                    self.typed += "\n"
                elif code == 61:
                    self.typed += "\t"
                elif code == 67:  # KEYCODE_DEL: the character before the cursor (kept at the end)
                    self.typed = self.typed[:-1]
                elif code == 3:
                    self._at_home = True
        elif kind == "text" and len(args) == 2:
            self.typed += android_input_text(args[1])
        else:
            return b"Error: Unknown command: " + " ".join(args).encode() + b"\nUsage: input [<source>] <command> [<arg>...]\n", 1
        return b"", 0


class FakeAdbServer:
    """The server. Use as a context manager; ``port`` is where it listens; ``requests`` what came in."""

    def __init__(self, phones: list[FakePhone] | None = None, version: int = 41, mute: bool = False,
                 port: int = 0) -> None:
        self.phones = list(phones) if phones is not None else [FakePhone()]
        self.version = version
        self.mute = mute  # accept connections but never answer
        self.requests: list[str] = []
        self._stop = threading.Event()
        self.killed = threading.Event()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", port))
        self._sock.listen(32)
        self.port: int = self._sock.getsockname()[1]
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> FakeAdbServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
        except OSError:
            pass
        try:
            self._sock.close()
        except OSError:
            pass

    def phone(self, serial: str | None = None) -> FakePhone:
        for p in self.phones:
            if serial is None or p.serial == serial:
                return p
        raise KeyError(serial)

    # ------------------------------------------------------------------ protocol

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            with conn:
                conn.settimeout(10)
                self._session(conn)
        except (OSError, ValueError):
            pass

    @staticmethod
    def _read_exact(conn: socket.socket, n: int) -> bytes | None:
        buf = b""
        while len(buf) < n:
            chunk = conn.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf

    @staticmethod
    def _block(text: str) -> bytes:
        data = text.encode("utf-8")
        return b"%04x" % len(data) + data

    def _fail(self, conn: socket.socket, message: str) -> None:
        conn.sendall(b"FAIL" + self._block(message))

    def _select(self, serial: str | None) -> tuple[FakePhone | None, str | None]:
        phones = [p for p in self.phones if p.state != "gone"]
        if serial is None:
            ready = [p for p in phones if p.state == "device"]
            if not phones:
                return None, "no devices/emulators found"
            if len(ready) > 1:
                return None, "more than one device/emulator"
            if not ready:
                phone = phones[0]
            else:
                phone = ready[0]
        else:
            found = [p for p in phones if p.serial == serial]
            if not found:
                return None, f"device '{serial}' not found"
            phone = found[0]
        if phone.state == "unauthorized":
            return None, UNAUTHORIZED
        if phone.state == "offline":
            return None, "device offline"
        return phone, None

    def _session(self, conn: socket.socket) -> None:
        phone: FakePhone | None = None
        while True:
            head = self._read_exact(conn, 4)
            if head is None:
                return
            body = self._read_exact(conn, int(head, 16))
            if body is None:
                return
            req = body.decode("utf-8")
            with self._lock:
                self.requests.append(req)
            if self.mute:
                self._stop.wait(30)
                return
            if req == "host:version":
                conn.sendall(b"OKAY" + self._block("%04x" % self.version))
                return
            if req in ("host:devices", "host:devices-l"):
                lines = []
                for p in self.phones:
                    if p.state == "gone":
                        continue
                    if req.endswith("-l"):
                        lines.append(f"{p.serial:<22} {p.state} {p.tags} transport_id:{self.phones.index(p) + 1}\n")
                    else:
                        lines.append(f"{p.serial}\t{p.state}\n")
                conn.sendall(b"OKAY" + self._block("".join(lines)))
                return
            if req == "host:kill":
                conn.sendall(b"OKAY")
                self.killed.set()
                return
            if req.startswith("host-serial:"):
                serial, _, what = req[len("host-serial:"):].rpartition(":")
                phone, err = self._select(serial)
                if err:
                    self._fail(conn, err)
                    return
                assert phone is not None
                answer = {"features": "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,abb_exec",
                          "get-state": phone.state, "get-serialno": phone.serial}.get(what)
                if answer is None:
                    self._fail(conn, f"unknown host service '{what}'")
                else:
                    conn.sendall(b"OKAY" + self._block(answer))
                return
            tport = req.startswith("host:tport:")
            if req in ("host:transport-any", "host:tport:any") or req.startswith(
                    ("host:transport:", "host:tport:serial:")):
                serial = None if req.endswith("-any") or req.endswith(":any") else req.split(":", 3)[-1] if tport \
                    else req[len("host:transport:"):]
                phone, err = self._select(serial)
                if err:
                    self._fail(conn, err)
                    return
                conn.sendall(b"OKAY" + ((self.phones.index(phone) + 1).to_bytes(8, "little") if tport else b""))
                continue
            if phone is None:
                self._fail(conn, f"unknown host service '{req}'")
                return
            service, _, command = req.partition(":")
            if service not in ("shell", "shell,v2", "exec"):
                self._fail(conn, f"unknown service '{service}'")
                return
            conn.sendall(b"OKAY")
            if any(command.startswith(h) for h in phone.hang):
                phone.commands.append(command)
                self._stop.wait(30)
                return
            if any(command.startswith(d) for d in phone.drop):
                out, _ = phone.run(command)
                phone.state = "gone"
                conn.sendall(out[: len(out) // 3])
                return
            out, status = phone.run(command)
            if service == "shell,v2":
                conn.sendall(b"\x01" + len(out).to_bytes(4, "little") + out
                             + b"\x03" + (1).to_bytes(4, "little") + bytes([status & 0xFF]))
            else:
                conn.sendall(out)
            return


def free_port() -> int:
    """A localhost port where nothing listens (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv: list[str] | None = None) -> None:
    """Serve one default phone on ``--port`` until ``host:kill`` or ``--seconds`` pass (for a fake ``adb start-server``)."""
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    with FakeAdbServer(port=args.port) as server:
        server.killed.wait(args.seconds)


if __name__ == "__main__":
    main()

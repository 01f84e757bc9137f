"""Any text typed on a real phone (the fake adb server answering ``ime`` and ``settings`` as Android
does: fixtures/ime_shell.json): ADBKeyboard, where it is installed, is enabled and selected for the
typing only and the user's keyboard selected again afterwards, an error or Ctrl-C included; where it
is not, ASCII is typed with ``input text`` and the rest is refused naming the text and the fix, and
``run`` says so before its first step."""

from __future__ import annotations

import pytest

from mobile_agent.cli import main
from mobile_agent.device.adb import AdbDevice
from mobile_agent.device.adb.text import ADBKEYBOARD_IME
from mobile_agent.errors import DeviceError
from tests.fakes.adb_server import FakeAdbServer, FakePhone
from tests.fakes.agent_harness import react
from tests.fakes.chatserver import LocalChatServer

GBOARD = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"


def open_adb(server: FakeAdbServer, cls: type = AdbDevice) -> AdbDevice:
    return cls(adb_port=server.port, timeout_s=5.0, settle_timeout_s=0.0)


def test_the_keyboard_is_switched_for_the_typing_and_the_users_given_back():
    phone = FakePhone(ime=GBOARD)  # ADBKeyboard installed (ime list -a -s), not enabled (ime list -s)
    with FakeAdbServer([phone]) as server:
        open_adb(server).type_text("打开设置 café\n")
    assert phone.typed == "打开设置 café\n"
    assert phone.ime_history == [f"enable {ADBKEYBOARD_IME}", f"set {ADBKEYBOARD_IME}", f"set {GBOARD}",
                                 f"disable {ADBKEYBOARD_IME}"]
    assert phone.ime == GBOARD and phone.enabled_imes() == [GBOARD]


def test_an_enabled_adbkeyboard_is_only_selected_and_a_selected_one_is_left_alone():
    enabled = FakePhone(ime=GBOARD, ime_enabled=[GBOARD, ADBKEYBOARD_IME])
    selected = FakePhone(serial="PIXEL", ime=ADBKEYBOARD_IME)
    with FakeAdbServer([enabled, selected]) as server:
        AdbDevice(serial="emulator-5554", adb_port=server.port, settle_timeout_s=0.0).type_text("ü")
        AdbDevice(serial="PIXEL", adb_port=server.port, settle_timeout_s=0.0).type_text("ü")
    assert enabled.ime_history == [f"set {ADBKEYBOARD_IME}", f"set {GBOARD}"] and enabled.typed == "ü"
    assert enabled.enabled_imes() == [GBOARD, ADBKEYBOARD_IME]
    assert selected.ime_history == [] and selected.typed == "ü"


class InterruptedPhone(AdbDevice):
    """Ctrl-C arrives while the text is being sent."""

    def _input(self, command: str, extra_s: float = 0.0) -> None:
        if command.startswith("am broadcast"):
            raise KeyboardInterrupt
        super()._input(command, extra_s)


def test_the_users_keyboard_comes_back_after_an_interrupt_or_a_failure():
    phone = FakePhone(ime=GBOARD)
    with FakeAdbServer([phone]) as server:
        with pytest.raises(KeyboardInterrupt):
            open_adb(server, InterruptedPhone).type_text("你好")
    assert phone.ime == GBOARD and phone.enabled_imes() == [GBOARD] and phone.typed == ""
    assert phone.ime_history[-2:] == [f"set {GBOARD}", f"disable {ADBKEYBOARD_IME}"]
    refused = RefusingPhone(ime=GBOARD)
    with FakeAdbServer([refused]) as server:
        with pytest.raises(DeviceError, match=r"`ime set com\.android\.adbkeyboard/\.AdbIME` failed on device "
                                              r"emulator-5554: Unknown input method .* cannot be selected for user #0"):
            open_adb(server).type_text("你好")
    assert refused.ime == GBOARD and refused.enabled_imes() == [GBOARD] and refused.typed == ""
    assert refused.ime_history[-2:] == [f"set {GBOARD}", f"disable {ADBKEYBOARD_IME}"]


class RefusingPhone(FakePhone):
    """Enables ADBKeyboard but refuses to select it (the enable has not reached the setting yet)."""

    def _ime(self, verb: str, ime: str) -> str:
        if verb == "set" and ime == ADBKEYBOARD_IME:
            self.ime_history.append(f"{verb} {ime}")
            return f"Unknown input method {ime} cannot be selected for user #0\n"
        return super()._ime(verb, ime)


def test_without_a_broadcast_keyboard_ascii_is_typed_and_the_rest_refused_naming_it():
    phone = FakePhone(ime=GBOARD, ime_list=f"{GBOARD}\n")
    with FakeAdbServer([phone]) as server:
        dev = open_adb(server)
        dev.type_text("Hello world\n")
        assert phone.typed == "Hello world\n"
        with pytest.raises(DeviceError, match=r"cannot type '你好' on device emulator-5554 .*adb install ADBKeyboard"):
            dev.type_text("你好")
        assert dev.typing_problem("Search for Hello") is None  # all ASCII: nothing to say
        line = dev.typing_problem("Suche nach Café 北京")
        assert "the instruction's 'Café', '北京' (and any other" in line and "cannot be typed" in line and "adb install ADBKeyboard.apk" in line
        assert "only ASCII text can be typed" in dev.typing_problem()
    assert phone.typed == "Hello world\n" and phone.ime_history == []
    with FakeAdbServer([FakePhone(ime=GBOARD)]) as server:  # installed: nothing to say
        assert open_adb(server).typing_problem("北京") is None


def test_run_says_before_its_first_step_which_text_cannot_be_typed(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    phone = FakePhone(ime=GBOARD, ime_list=f"{GBOARD}\n")
    with FakeAdbServer([phone]) as adb, LocalChatServer([react("Stop")]) as chat:
        monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb.port))
        main(["run", "Search for 北京", "--model", "openai:test-model", "--base-url", chat.openai_base_url,
              "--device", "adb:emulator-5554", "--no-completion-check", "--perception", "vision", "--max-steps", "1",
              "--out", str(tmp_path / "run")])
    out = " ".join(capsys.readouterr().out.split())
    warning = out.index("typing: device emulator-5554 has no keyboard that takes typed text by broadcast: the "
                        "instruction's '北京'")
    assert warning < out.index("step 1")


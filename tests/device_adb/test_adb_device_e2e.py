"""AdbDevice end to end: adbutils speaks the adb host protocol over a real localhost socket to the
fake server, which answers from the fixtures and records what the client sent."""

from __future__ import annotations

import io
import time
from typing import Iterator

import pytest
from PIL import Image, ImageDraw

from tests.fakes.adb_server import FakeAdbServer, FakePhone, fixture_bytes, fixture_text
from tests.fakes.clock import hang_guard
from mobile_agent.device.adb import AdbDevice
from mobile_agent.device.adb.text import ADBKEYBOARD_IME
from mobile_agent.errors import DeviceError, InvalidGestureError

SETTINGS_PNG = fixture_bytes("screencap_settings.png")


def png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def variant(draw: callable) -> bytes:
    """The fixture screen with something drawn on it, as screencap would send it."""
    image = Image.open(io.BytesIO(SETTINGS_PNG)).convert("RGBA")
    draw(ImageDraw.Draw(image))
    return png(image)


def open_adb(server: FakeAdbServer, **options) -> AdbDevice:
    options.setdefault("timeout_s", 5.0)
    options.setdefault("settle_timeout_s", 0.0)
    return AdbDevice(adb_port=server.port, **options)


@pytest.fixture
def server() -> Iterator[FakeAdbServer]:
    with FakeAdbServer() as s:
        yield s


def shell_commands(server: FakeAdbServer) -> list[str]:
    return [r.split(":", 1)[1] for r in server.requests if r.startswith(("shell:", "exec:"))]


def test_protocol_exchange(server: FakeAdbServer) -> None:
    dev = open_adb(server)
    dev.tap(10, 20)
    assert dev.serial == "emulator-5554"
    assert server.requests[0] == "host:devices-l"
    assert "host:version" in server.requests
    i = server.requests.index("shell:input tap 10 20")
    assert server.requests[i - 1] == "host:tport:serial:emulator-5554"


def test_old_server_gets_host_transport() -> None:
    with FakeAdbServer(version=40) as server:
        open_adb(server).back()
        assert server.requests[-2:] == ["host:transport:emulator-5554", "shell:input keyevent 4"]


def test_gestures_become_input_commands(server: FakeAdbServer) -> None:
    dev = open_adb(server)
    dev.tap(540, 1200)
    dev.swipe(540, 1800, 540, 600, 450)
    dev.long_press(100, 200)
    dev.back()
    dev.home()
    assert server.phone().gestures == [
        ("tap", 540, 1200), ("swipe", 540, 1800, 540, 600, 450), ("swipe", 100, 200, 100, 200, 800),
        ("key", 4), ("key", 3),
    ]


def test_off_screen_gestures_send_nothing(server: FakeAdbServer) -> None:
    dev = open_adb(server)
    with pytest.raises(InvalidGestureError):
        dev.tap(1080, 5)
    with pytest.raises(InvalidGestureError):
        dev.swipe(0, 0, 10, 2400)
    assert server.phone().gestures == []


def test_screenshot_is_the_png_in_rgb(server: FakeAdbServer) -> None:
    dev = open_adb(server)
    shot = dev.screenshot()
    assert "exec:screencap -p" in server.requests
    expected = Image.open(io.BytesIO(SETTINGS_PNG)).convert("RGB")
    assert shot.mode == "RGB" and shot.size == (1080, 2400)
    assert shot.tobytes() == expected.tobytes()
    assert dev.size() == (1080, 2400)


def test_size_honours_override_and_rotation() -> None:
    phone = FakePhone(wm_size=fixture_text("wm_size_override.txt"),
                      dumpsys_input=fixture_text("dumpsys_input_android11.txt"))
    landscape = Image.open(io.BytesIO(SETTINGS_PNG)).resize((1440, 3120)).rotate(90, expand=True)
    phone.screens = [png(landscape)]
    with FakeAdbServer([phone]) as server:
        dev = open_adb(server)
        assert dev.size() == (2340, 1080)
        assert dev.screenshot().size == (2340, 1080)  # the capture is brought to input coordinates
        dev.tap(2339, 1079)
        with pytest.raises(InvalidGestureError):
            dev.tap(100, 1080)


def test_rotation_falls_back_to_dumpsys_display() -> None:
    with FakeAdbServer([FakePhone(dumpsys_input="INPUT MANAGER (dumpsys input)\n")]) as server:
        dev = open_adb(server)
        assert dev.rotation() == 3 and dev.size() == (2400, 1080)
        assert shell_commands(server)[-2:] == ["dumpsys input", "dumpsys display"]


def test_crlf_mangled_png_is_repaired() -> None:
    with FakeAdbServer([FakePhone(screens=[SETTINGS_PNG.replace(b"\n", b"\r\n")])]) as server:
        shot = open_adb(server).screenshot()
        assert shot.tobytes() == Image.open(io.BytesIO(SETTINGS_PNG)).convert("RGB").tobytes()


def test_all_black_screenshot_with_screen_off() -> None:
    black = png(Image.new("RGBA", (1080, 2400), (0, 0, 0, 255)))
    phone = FakePhone(screens=[black], dumpsys_power=fixture_text("dumpsys_power_asleep.txt"))
    with FakeAdbServer([phone]) as server:
        with pytest.raises(DeviceError, match="all black.*off"):
            open_adb(server).screenshot()


def test_all_black_screenshot_with_screen_on_is_a_secure_window() -> None:
    black = png(Image.new("RGBA", (1080, 2400), (0, 0, 0, 255)))
    with FakeAdbServer([FakePhone(screens=[black])]) as server:
        with pytest.raises(DeviceError, match="all black.*secure window"):
            open_adb(server).screenshot()


@pytest.mark.parametrize("answer, message", [
    (b"", "returned nothing"),
    (b"Capturing failed.\n", "'Capturing failed.' instead of a PNG"),
    (SETTINGS_PNG[:5000], "cut short or damaged"),
])
def test_failed_screenshot_says_which(answer: bytes, message: str) -> None:
    with FakeAdbServer([FakePhone(screens=[answer])]) as server:
        with pytest.raises(DeviceError, match=message):
            open_adb(server).screenshot()


def test_ascii_typing(server: FakeAdbServer) -> None:
    dev = open_adb(server)
    text = "Hi! it's \"50% off\" & <free> $(rm -rf /) `x` \\o/"
    dev.type_text(text + "\n")
    assert server.phone().typed == text + "\n"
    sent = shell_commands(server)[-1]
    assert sent.startswith("input text ") and sent.endswith("&& input keyevent 66")


def test_non_ascii_typing_through_adbkeyboard() -> None:
    with FakeAdbServer([FakePhone(ime=ADBKEYBOARD_IME)]) as server:
        open_adb(server).type_text("打开设置 🙂 café\n")
        assert server.phone().typed == "打开设置 🙂 café\n"
        assert any(c.startswith("am broadcast -a ADB_INPUT_B64 --es msg ") for c in shell_commands(server))


def test_control_characters_are_refused(server: FakeAdbServer) -> None:
    with pytest.raises(InvalidGestureError, match="control character"):
        open_adb(server).type_text("a\x1bb")


def test_ui_tree_retries_when_not_idle() -> None:
    with FakeAdbServer([FakePhone(idle_failures=2)]) as server:
        xml = open_adb(server).ui_tree()
        assert xml == fixture_text("ui_settings.xml")
        dumps = [c for c in shell_commands(server) if c.startswith("uiautomator dump")]
        assert len(dumps) == 3


def test_ui_tree_none_when_never_idle() -> None:
    with FakeAdbServer([FakePhone(idle_failures=10)]) as server:
        assert open_adb(server).ui_tree() is None


def test_launch_by_package(server: FakeAdbServer) -> None:
    assert open_adb(server).launch("com.android.chrome") is True
    assert ("launch", "com.android.chrome") in server.phone().gestures


def test_launch_by_launcher_label(server: FakeAdbServer) -> None:
    dev = open_adb(server)
    assert dev.launch("chrome") is True
    assert server.phone().gestures[-2:] == [("key", 3), ("tap", 667, 2105)]  # home, then Chrome's icon


def test_launch_by_label_matching_a_package_name(server: FakeAdbServer) -> None:
    assert open_adb(server).launch("Maps") is True
    assert server.phone().gestures[-1] == ("launch", "com.google.android.apps.maps")


def test_launch_unknown_app(server: FakeAdbServer) -> None:
    assert open_adb(server).launch("No Such App") is False
    assert open_adb(server).launch("com.example.nothere") is False
    assert open_adb(server).launch("org.example.chrome") is False  # not taken for Chrome's label
    assert not any(g[0] == "launch" for g in server.phone().gestures)


def test_status_bar_height_from_density() -> None:
    with FakeAdbServer([FakePhone(wm_density=fixture_text("wm_density_override.txt"))]) as server:
        assert open_adb(server).status_bar_px() == 144  # 48 dp at 480 dpi
    with FakeAdbServer([FakePhone(wm_density="")]) as server:
        assert open_adb(server).status_bar_px() == 96  # 4% of 2400 px


def test_wait_still_ignores_the_status_bar() -> None:
    clock = variant(lambda d: d.rectangle((40, 20, 200, 120), fill=(250, 250, 250, 255)))
    phone = FakePhone(screens=[SETTINGS_PNG, clock])
    with FakeAdbServer([phone]) as server:
        assert open_adb(server).wait_still(timeout_s=5.0) is True
        assert shell_commands(server).count("screencap -p") == 2


def test_wait_still_waits_for_the_change_to_end() -> None:
    frames = [variant(lambda d, y=y: d.rectangle((0, y, 1080, y + 400), fill=(20, 90, 200, 255)))
              for y in (300, 900, 1500)]
    phone = FakePhone(screens=frames + [frames[-1]])
    with FakeAdbServer([phone]) as server:
        assert open_adb(server).wait_still(timeout_s=5.0) is True
        assert shell_commands(server).count("screencap -p") == 4


def test_wait_still_gives_up_at_its_timeout() -> None:
    a = variant(lambda d: d.rectangle((0, 300, 1080, 1200), fill=(200, 30, 30, 255)))
    phone = FakePhone(screens=[a, SETTINGS_PNG] * 300)
    with FakeAdbServer([phone]) as server:
        dev = open_adb(server)
        start = time.monotonic()
        assert dev.wait_still(timeout_s=0.5) is False
        assert time.monotonic() - start < hang_guard(0.5)


def test_gestures_wait_for_a_still_screen(server: FakeAdbServer) -> None:
    dev = open_adb(server, settle_timeout_s=2.0)
    dev.tap(5, 5)
    after = shell_commands(server)[shell_commands(server).index("input tap 5 5") + 1:]
    assert [c for c in after if c != "wm density"] == ["screencap -p", "screencap -p"]


def test_long_text_is_sent_in_several_shell_calls(server: FakeAdbServer) -> None:
    text = "The quick brown fox & the 'lazy' dog; " * 60
    open_adb(server).type_text(text)
    assert server.phone().typed == text
    calls = [c for c in shell_commands(server) if c.startswith("input text")]
    assert len(calls) > 1 and all(len(c) <= 1000 for c in calls)


def test_after_a_gesture_the_agent_takes_no_more_captures_than_the_stillness_needs(server: FakeAdbServer) -> None:
    """The gesture settles (two captures that agree); the agent's own wait and its screenshot then
    reuse that still frame instead of capturing three more times."""
    from mobile_agent.agent import StepLoop, AgentSettings

    dev = open_adb(server, settle_timeout_s=2.0)
    dev.tap(5, 5)
    shot = StepLoop(dev, None, None, AgentSettings())._settle(Image.new("RGB", (8, 8)))  # type: ignore[arg-type]
    after = shell_commands(server)[shell_commands(server).index("input tap 5 5") + 1:]
    assert [c for c in after if c != "wm density"] == ["screencap -p", "screencap -p"]
    assert shot.size == Image.open(io.BytesIO(SETTINGS_PNG)).size
    # anything sent to the phone ends the reuse: the next wait captures again
    dev.back()
    n = shell_commands(server).count("screencap -p")
    assert dev.wait_still(2.0) is True and shell_commands(server).count("screencap -p") == n
    dev.shell("input keyevent 24")  # a key sent by hand (volume up)
    assert dev.wait_still(2.0) is True and shell_commands(server).count("screencap -p") == n + 2


def test_a_still_frame_is_not_reused_once_it_is_old(server: FakeAdbServer) -> None:
    dev = open_adb(server, settle_timeout_s=2.0)
    dev.still_reuse_s = 0.05
    dev.tap(5, 5)
    n = shell_commands(server).count("screencap -p")
    time.sleep(0.1)
    dev.screenshot()
    assert shell_commands(server).count("screencap -p") == n + 1

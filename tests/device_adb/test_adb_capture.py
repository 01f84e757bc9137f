"""``mobile-agent devices capture``: screenshot and uiautomator dump taken together from a phone behind
the fake adb server, kept only when they agree, and the folder measured by ``bench perception --dir``."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from mobile_agent.screensets.realscreens import load_folder
from mobile_agent.cli import main
from tests.fakes.adb_server import FakeAdbServer, FakePhone, fixture_bytes, fixture_text


def other_screen() -> bytes:
    """The Settings capture with a block painted over its rows (a screen that changed)."""
    img = Image.open(io.BytesIO(fixture_bytes("screencap_settings.png"))).convert("RGB")
    img.paste((20, 120, 200), (0, 700, 1080, 1500))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def run_capture(phone: FakePhone, out, *more: str) -> int:
    with FakeAdbServer([phone]) as server:
        return main(["devices", "capture", "--out", str(out), "--adb-port", str(server.port), *more])


def test_capture_keeps_an_agreeing_screen_and_bench_measures_it(tmp_path, capsys):
    out = tmp_path / "mine"
    assert run_capture(FakePhone(), out) == 0
    said = capsys.readouterr().out
    assert "kept com.android.settings__" in said and "texts found on the picture" in said
    (png,) = (out / "img").glob("*.png")
    (xml,) = (out / "xml").glob("*.xml")
    assert png.stem == xml.stem and png.stem.startswith("com.android.settings__")
    assert Image.open(png).size == (1080, 2400)
    assert xml.read_text(encoding="utf-8") == fixture_text("ui_settings.xml").strip()
    folder = load_folder(out)
    assert folder.derived and folder.problems == []
    assert any(t.target == "Network & internet" for t in folder.screens[0].targets)
    assert main(["bench", "perception", "--dir", str(out), "--no-timing", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["figures"]["text_first"]["total"] >= 5 and d["figures"]["text_first"]["share"] >= 0.8


def test_capture_drops_a_screen_that_changed_while_the_dump_was_taken(tmp_path, capsys):
    phone = FakePhone(screens=[fixture_bytes("screencap_settings.png"), other_screen()])
    assert run_capture(phone, tmp_path / "out", "--no-check-text") == 1
    cap = capsys.readouterr()
    assert "not kept: the screen changed while the dump was taken" in cap.err
    assert "0 of 1 screens kept" in cap.out and not (tmp_path / "out").exists()


def test_capture_drops_a_dump_of_another_screen(tmp_path, capsys):
    phone = FakePhone(ui_xml=fixture_text("ui_launcher.xml"))  # the launcher's tree under the Settings picture
    assert run_capture(phone, tmp_path / "out") == 1
    err = capsys.readouterr().err
    assert "not kept: the picture shows" in err and "the dump is not of this screen" in err


def test_capture_drops_a_dump_that_does_not_read(tmp_path, capsys):
    phone = FakePhone(ui_xml="<hierarchy><node bounds=")
    assert run_capture(phone, tmp_path / "out") == 1
    assert "not kept: the uiautomator dump does not read: not XML" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["sim"])
def test_capture_needs_a_phone(tmp_path, capsys, spec):
    assert main(["devices", "capture", "--out", str(tmp_path), "--device", spec]) == 2
    assert "capture takes screens from a phone" in capsys.readouterr().err

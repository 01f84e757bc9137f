"""The live view and the phone server over real localhost HTTP, without a browser."""

from __future__ import annotations

import io
import json
import socket
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mobile_agent.device.sim import SimPhone
from mobile_agent.errors import ConfigError
from mobile_agent.report.live import LiveView
from mobile_agent.report.simserve import PhoneServer, count_human_steps
from report_helpers import cached_run


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read()


def _post(url: str, data: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(data).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_live_view_follows_a_run_folder_step_by_step() -> None:
    run = cached_run()
    records = [json.loads(line) for line in (run / "steps.jsonl").read_text().splitlines()]
    with LiveView(instruction="Turn on the dark mode") as view:
        assert view.url.startswith("http://127.0.0.1:")
        on_step = view.follow(run)
        for i, rec in enumerate(records, start=1):
            on_step(rec)
            state = json.loads(_get(view.url + "api/state?from=0"))
            assert state["count"] == i and state["latest_screen"] == i - 1
        # only the new steps are sent when the page asks from N
        state = json.loads(_get(view.url + "api/state?from=3"))
        assert [s["record"]["step"] for s in state["steps"]] == [4]
        # the screen of step 4 is the dark one the phone showed then
        img = Image.open(io.BytesIO(_get(view.url + "screen/3.jpg"))).convert("L")
        src = Image.open(run / records[3]["screenshot"]).convert("L").resize(img.size)
        assert np.abs(np.asarray(img, float) - np.asarray(src, float)).mean() < 6
        with pytest.raises(urllib.error.HTTPError) as err:
            _get(view.url + "screen/99.jpg")
        assert err.value.code == 404
        assert b"Turn on the dark mode" in _get(view.url)
        assert json.loads(_get(view.url + "api/state"))["summary"] is None
        view.finish({"outcome": "completed", "completed": True})
        assert json.loads(_get(view.url + "api/state"))["summary"]["outcome"] == "completed"


def test_phone_server_rejects_bad_gestures_and_records_good_ones(tmp_path: Path) -> None:
    phone = SimPhone(seed=0)
    record = tmp_path / "rec.jsonl"
    with PhoneServer(phone, record_to=record) as server:
        url = server.url
        png = Image.open(io.BytesIO(_get(url + "screen.png")))
        assert png.size == phone.size()
        code, body = _post(url + "api/gesture", {"kind": "fly"})
        assert code == 400 and "unknown gesture" in body["error"]
        code, body = _post(url + "api/gesture", {"kind": "tap", "x": 5000, "y": 10})
        assert code == 400 and "off the screen" in body["error"]
        code, body = _post(url + "api/gesture", {"kind": "tap", "x": "a", "y": 10})
        assert code == 400
        w, h = phone.size()
        code, body = _post(url + "api/gesture", {"kind": "swipe", "x1": w // 2, "y1": h // 2, "x2": w // 2,
                                                 "y2": h // 2 - 10, "duration_ms": 100})
        assert code == 200 and body["version"] == 1
        code, body = _post(url + "api/gesture", {"kind": "key", "key": "Backspace"})  # no keyboard: nothing
        assert code == 200
        code, body = _post(url + "api/gesture", {"kind": "home"})
        assert code == 200 and body["version"] == 3 and body["app"] is None
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    assert [x["kind"] for x in lines] == ["swipe", "key", "home"]
    assert lines[1]["handled"] is False
    assert count_human_steps(record) == 2  # the Backspace without a keyboard did nothing
    with record.open("a") as f:
        f.write('{"t": 9.0, "kind": "tap", "x": 1')  # a session cut off mid-line
    assert count_human_steps(record) == 2


def test_unwritable_recording_is_a_config_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    server = PhoneServer(SimPhone(seed=0), record_to=blocker / "rec.jsonl")
    with pytest.raises(ConfigError, match="cannot write the recording"):
        server.start()
    server.close()


def test_port_in_use_is_a_config_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        with pytest.raises(ConfigError, match="cannot listen"):
            PhoneServer(SimPhone(seed=0), port=port).start()
        view = LiveView(port=port)
        with pytest.raises(ConfigError, match="choose another port"):
            view.start()
        view.close()

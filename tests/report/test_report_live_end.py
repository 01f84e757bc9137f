"""The live view shows how the run ended (an open page is told before the server stops) and labels
each step's screen as the one the step acted on, with the final screen last."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

from mobile_agent.device.sim import SimPhone
from mobile_agent.report.live import LiveView
from tests.fakes.clock import hang_guard


def _state(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=5) as r:
        return json.loads(r.read())


def test_an_open_page_sees_how_the_run_ended_before_the_server_stops():
    phone = SimPhone(seed=0)
    view = LiveView("Turn on the dark mode")
    url = view.start()
    seen: list[dict] = []

    def page() -> None:  # polls as live.html does, every half second
        while True:
            try:
                s = _state(url)
            except OSError:
                return
            if s["summary"] is not None:
                seen.append(s)
                return
            time.sleep(0.5)

    poller = threading.Thread(target=page)
    view.show_screen(phone.screenshot())
    poller.start()
    time.sleep(0.3)
    view.update({"step": 1, "action": "Open App (Settings)", "gesture": {"kind": "tap", "x": 5, "y": 5}},
                phone.screenshot())
    phone.home()
    view.finish({"outcome": "step_limit", "completed": False, "steps": 1, "error": None}, phone.screenshot())
    view.close(wait_s=5.0)  # as `run --live` does at the end of a run
    poller.join(10)
    assert seen, "the page never saw how the run ended"
    final = seen[0]
    assert final["summary"]["outcome"] == "step_limit"
    assert final["latest_screen"] == 2 and final["latest_label"] == "final screen"
    (step,) = [s for s in final["steps"]]
    assert step["screen"] == 1 and step["label"] == "step 1: the screen it acted on"


def test_close_does_not_wait_when_no_page_is_open():
    view = LiveView("x")
    view.start()
    view.finish({"outcome": "completed", "completed": True})
    t = time.monotonic()
    view.close(wait_s=10 * hang_guard())
    assert time.monotonic() - t < hang_guard()  # it did not wait for a page

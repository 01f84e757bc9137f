"""The live view's answer box over real localhost HTTP: a run on the localhost chat server asks,
the question shows in /api/state, and the answer posted to /api/answer (same-origin JSON only)
goes back into the run as the user's words."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

from tests.fakes.agent_harness import Script, make_agent, plan_requests, react
from tests.fakes.chatserver import LocalChatServer
from tests.fakes.tinyphone import TinyPhone
from mobile_agent.agent.trajectory import read_steps
from mobile_agent.agent.user import UserRequest
from mobile_agent.report.live import LiveView

QUESTION = 'Which Anna? <img src=x onerror="alert(1)">'


def _state(view: LiveView) -> dict:
    with urllib.request.urlopen(view.url + "api/state?from=0", timeout=5) as r:
        return json.loads(r.read())


def _post(view: LiveView, data: object, **headers: str) -> tuple[int, dict]:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    req = urllib.request.Request(view.url + "api/answer", data=body,
                                 headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            return exc.code, json.loads(raw)
        except ValueError:
            return exc.code, {"text": raw.decode()}


def _wait_question(view: LiveView, timeout: float = 60.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        q = _state(view)["question"]
        if q is not None:
            return q
        time.sleep(0.05)
    raise AssertionError("no question showed in the live view")


def test_the_question_shows_in_the_page_and_the_answer_posted_there_goes_back_to_the_run(tmp_path):
    plans = [react(f"Ask User ({QUESTION})"), react("Stop")]
    with LocalChatServer(Script(plans)) as server, LiveView("Message Anna") as view:
        agent = make_agent(server, TinyPhone(), ask=view.ask, on_step=view.follow(tmp_path))
        result: dict = {}
        t = threading.Thread(target=lambda: result.update(r=agent.run("Message Anna", tmp_path)))
        t.start()
        q = _wait_question(view)
        assert q == {"id": 1, "kind": "question", "text": QUESTION, "step": 1}
        origin = view.url.rstrip("/")
        # what another site's page, or a plain form, cannot do
        assert _post(view, {"id": 1, "answer": "Anna Li"}, Origin="http://evil.example")[0] == 403
        assert _post(view, {"id": 1, "answer": "Anna Li"}, **{"Content-Type": "text/plain"})[0] == 415
        assert _post(view, {"id": 2, "answer": "Anna Li"}, Origin=origin) == (409, {
            "error": "no question is waiting for this answer"})
        assert _post(view, {"id": 1, "answer": 5}, Origin=origin)[0] == 400
        assert _post(view, {"id": 1, "answer": "x" * 2001}, Origin=origin)[0] == 400
        assert _post(view, b"{not json", Origin=origin)[0] == 400
        assert _post(view, {"id": 1, "answer": "Anna Li </script>"}, Origin=origin) == (200, {"ok": True})
        t.join(60)
        assert not t.is_alive()
        state = _state(view)
        assert state["question"] is None
        assert state["steps"][0]["record"]["user"]["answer"] == "Anna Li </script>"
    assert result["r"].outcome == "completed"
    assert '-> the user answered "Anna Li </script>" (the user\'s own words' in plan_requests(server)[1].text
    assert read_steps(tmp_path)[0].user.answer == "Anna Li </script>"


def test_the_page_writes_the_question_as_text_never_as_markup():
    with LiveView("x") as view:
        with urllib.request.urlopen(view.url, timeout=5) as r:
            page = r.read().decode()
    assert "innerHTML" not in page and "insertAdjacentHTML" not in page and "document.write" not in page
    assert 'getElementById("ask-text").textContent = text(q.text)' in page
    assert 'fetch("api/answer", { method: "POST", headers: { "Content-Type": "application/json" }' in page


def test_closing_the_view_ends_a_question_without_an_answer():
    view = LiveView("x")
    view.start()
    got: list = []
    t = threading.Thread(target=lambda: got.append(view.ask(UserRequest("take_over", "log in", 3))))
    t.start()
    assert _wait_question(view) == {"id": 1, "kind": "take_over", "text": "log in", "step": 3}
    view.close()
    t.join(5)
    assert got == [None]
    assert view.ask(UserRequest("question", "again?", 4)) is None  # closed: no one will answer

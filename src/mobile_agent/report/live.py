"""The live view of a run (``mobile-agent run --live``): a page on 127.0.0.1 that shows the current
screenshot and each step as it happens.

Usage::

    view = LiveView(instruction="Turn on the dark mode")
    url = view.start()                 # http://127.0.0.1:PORT/ on a free port
    view.update(step_record, image)    # after each step (the step dict of steps.jsonl, a PIL image)
    # or: AgentSettings(on_step=view.follow(run_dir)) reads each step's screenshot from the run folder
    view.finish(summary, final_image)  # the run's summary.json dict and its last screen
    view.close(wait_s=5.0)             # lets an open page see how the run ended first

The page polls ``/api/state?from=N`` twice a second (new steps since N, the newest screenshot's
number and what it shows, the summary once finished, the question waiting for an answer);
screenshots are served as JPEG from ``/screen/<n>.jpg``.

``view.ask`` is an ``AgentSettings.ask`` callback: the agent's question (Ask User) or take-over
(Take Over) shows in the page with an answer box, and the run waits until the page posts the answer
(``POST /api/answer`` with ``{"id": N, "answer": "..."}``, same-origin JSON only: the local server's
Host and Origin checks apply) or the view is closed (no answer: the run ends ``needs_user``). The
page shows the question as text, never as markup. A step's screen is the one it acted on (its gesture drawn on it); the screen
after the last step is the final one, shown when the run ends.
"""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from mobile_agent.agent.record import StepRecord
from mobile_agent.errors import MobileAgentError, redact_json
from mobile_agent.fsutil import path_inside
from mobile_agent.report.htmlkit import render_static
from mobile_agent.report.localserver import LocalServer, Response, json_response, text_response
from mobile_agent.types import load_image

#: The longest answer the page may post (characters).
ANSWER_MAX_CHARS = 2000


def _jsonable(data: Any) -> Any:
    """A deep copy of ``data`` that JSON can write (unknown objects become their text), with every
    secret removed as in ``steps.jsonl`` (``errors.redact_json``): the page shows what the file holds."""
    return json.loads(redact_json(json.loads(json.dumps(data, default=str, ensure_ascii=False)), ensure_ascii=False))


def _jpeg(image: Image.Image, max_side: int = 1600) -> bytes:
    im = image.convert("RGB")
    if max(im.size) > max_side:
        scale = max_side / max(im.size)
        im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.Resampling.BILINEAR)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85)
    return buf.getvalue()


class LiveView:
    """A localhost page that follows a run. Thread-safe: ``update`` may be called from the agent's
    thread while the page is served from another."""

    def __init__(self, instruction: str = "", host: str = "127.0.0.1", port: int = 0) -> None:
        self.instruction = instruction
        self._server = LocalServer(self._route, host, port)
        self._lock = threading.Lock()
        self._steps: list[dict[str, Any]] = []
        self._screens: list[bytes] = []  # JPEG bytes; index = screen number
        self._step_screen: list[int | None] = []  # screen number of each step
        self._labels: list[str] = []  # what each screen shows
        self._summary: dict[str, Any] | None = None
        self._version = 0
        self._polled = False  # a page has asked for the state at least once
        self._final_seen = threading.Event()  # a page has been told how the run ended
        self._question: dict[str, Any] | None = None  # the request waiting for the page's answer
        self._asked = 0  # requests so far (each question's id)
        self._answer: str | None = None
        self._answered = threading.Condition(self._lock)
        self._closed = False

    def start(self) -> str:
        """Start serving and return the page's URL (``http://127.0.0.1:PORT/``)."""
        return self._server.start()

    @property
    def url(self) -> str:
        return self._server.url

    def update(self, step: dict[str, Any], screenshot: Image.Image | None = None) -> None:
        """Show a finished step (its ``steps.jsonl`` record) and the screen it acted on."""
        record = _jsonable(step)
        jpeg = _jpeg(screenshot) if screenshot is not None else None
        with self._lock:
            number: int | None = None
            if jpeg is not None:
                self._screens.append(jpeg)
                self._labels.append(f"step {record.get('step', len(self._steps) + 1)}: the screen it acted on")
                number = len(self._screens) - 1
            self._steps.append(record)
            self._step_screen.append(number)
            self._version += 1

    def follow(self, run_dir: str | Path) -> Callable[[StepRecord | dict[str, Any]], None]:
        """An ``on_step`` callback for the agent: each step record is shown with its screenshot read
        from ``run_dir`` (the annotated copy, with the gesture drawn, where the step has one)."""
        base = Path(run_dir)

        def on_step(step: StepRecord | dict[str, Any]) -> None:
            record = step.to_dict() if isinstance(step, StepRecord) else step
            image = None
            for key in ("annotated", "screenshot"):
                rel = record.get(key)
                if isinstance(rel, str) and rel:
                    try:
                        image = load_image(path_inside(base, rel))  # bounded, inside the run folder
                        break
                    except (MobileAgentError, OSError, ValueError):
                        continue
            self.update(record, image)

        return on_step

    def show_screen(self, screenshot: Image.Image, label: str = "first screen") -> None:
        """Show a screenshot without a step (for example the first screen, before step 1)."""
        jpeg = _jpeg(screenshot)
        with self._lock:
            self._screens.append(jpeg)
            self._labels.append(label)
            self._version += 1

    def finish(self, summary: dict[str, Any], final: Image.Image | None = None) -> None:
        """Show the run's outcome (its ``summary.json`` dict) and its final screen; the page stops
        polling once it has seen them."""
        if final is not None:
            self.show_screen(final, "final screen")
        with self._lock:
            self._summary = _jsonable(summary)
            self._version += 1

    def ask(self, request: Any) -> str | None:
        """Show ``request`` (a :class:`mobile_agent.agent.user.UserRequest`) in the page with an
        answer box and wait for the answer posted there; None once the view is closed."""
        with self._answered:
            if self._closed:
                return None
            self._asked += 1
            qid = self._asked
            self._question = {"id": qid, "kind": str(request.kind), "text": str(request.text),
                              "step": int(request.step)}
            self._answer = None
            self._version += 1
            while self._answer is None and not self._closed:
                self._answered.wait(0.5)
            answer, self._answer, self._question = self._answer, None, None
            self._version += 1
            return answer

    def _take_answer(self, body: bytes) -> Response:
        try:
            data = json.loads(body.decode("utf-8") or "null")
        except (UnicodeDecodeError, ValueError, RecursionError):
            return json_response({"error": "the body is not JSON"}, 400)
        if not isinstance(data, dict) or not isinstance(data.get("answer"), str) or not isinstance(data.get("id"), int):
            return json_response({"error": 'send {"id": <the question\'s id>, "answer": "<text>"}'}, 400)
        if len(data["answer"]) > ANSWER_MAX_CHARS:
            return json_response({"error": f"an answer is at most {ANSWER_MAX_CHARS} characters"}, 400)
        with self._answered:
            if self._question is None or self._question["id"] != data["id"]:
                return json_response({"error": "no question is waiting for this answer"}, 409)
            self._answer = data["answer"]
            self._answered.notify_all()
        return json_response({"ok": True})

    def wait_seen(self, timeout: float) -> bool:
        """Wait until an open page has been told how the run ended (at most ``timeout`` seconds;
        at once when no page ever asked). True when it was."""
        if not self._polled or self._summary is None:
            return self._final_seen.is_set()
        return self._final_seen.wait(timeout)

    def close(self, wait_s: float = 0.0) -> None:
        """Stop serving and free the port, after waiting up to ``wait_s`` seconds for an open page to
        see how the run ended. Safe to call twice."""
        with self._answered:  # a question still waiting gets no answer: the run ends needs_user
            self._closed = True
            self._answered.notify_all()
        if wait_s > 0:
            self.wait_seen(wait_s)
        self._server.close()

    def __enter__(self) -> "LiveView":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ HTTP
    def _state(self, start: int) -> dict[str, Any]:
        with self._lock:
            self._polled = True
            if self._summary is not None:
                self._final_seen.set()
            start = max(0, min(start, len(self._steps)))
            latest = len(self._screens) - 1 if self._screens else None
            return {
                "version": self._version,
                "instruction": self.instruction,
                "count": len(self._steps),
                "from": start,
                "steps": [{"record": r, "screen": n, "label": self._labels[n] if n is not None else None}
                          for r, n in zip(self._steps[start:], self._step_screen[start:])],
                "latest_screen": latest,
                "latest_label": self._labels[latest] if latest is not None else None,
                "summary": self._summary,
                "question": dict(self._question) if self._question is not None else None,
            }

    def _route(self, method: str, path: str, query: dict[str, list[str]], body: bytes) -> Response:
        if method == "POST" and path == "/api/answer":
            return self._take_answer(body)
        if method != "GET":
            return text_response("method not allowed", 405)
        if path in ("/", "/index.html"):
            page = render_static("live.html", TITLE=self.instruction or "mobile-agent run")
            return text_response(page, ctype="text/html; charset=utf-8")
        if path == "/api/state":
            try:
                start = int((query.get("from") or ["0"])[0])
            except ValueError:
                start = 0
            return json_response(self._state(start))
        if path.startswith("/screen/") and path.endswith(".jpg"):
            try:
                n = int(path[len("/screen/"):-len(".jpg")])
            except ValueError:
                return text_response("not found", 404)
            with self._lock:
                data = self._screens[n] if 0 <= n < len(self._screens) else None
            if data is None:
                return text_response("no such screen", 404)
            return 200, "image/jpeg", data
        return text_response("not found", 404)

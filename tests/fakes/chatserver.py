"""A small chat server on localhost that speaks the OpenAI chat-completions protocol
(``POST /v1/chat/completions``) and the Anthropic Messages API (``POST /v1/messages``), answering
with scripted replies and recording every request. For tests and offline demonstrations: point the
real SDKs at :attr:`LocalChatServer.openai_base_url` or :attr:`LocalChatServer.anthropic_base_url`.

```python
with LocalChatServer(["Observation: ...\\nThought: ...\\nAction: Back"]) as server:
    model = OpenAIChatModel("gpt-4o", base_url=server.openai_base_url, api_key="k")
```
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterable

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"


@dataclass(frozen=True)
class Reply:
    """What the server answers: a text (status 200), or an error status with a message.

    Faults: ``body`` answers 200 with exactly these bytes (a dict is sent as JSON) under
    ``content_type``; ``hang`` accepts the request and never answers; ``trickle_s`` sends the
    answer's head and then one byte of body every ``trickle_s`` seconds, without end.
    """

    text: str = ""
    status: int = 200
    error: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    param: str | None = None
    body: bytes | dict | None = None
    content_type: str = "application/json"
    hang: bool = False
    trickle_s: float = 0.0


@dataclass
class Request:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def api(self) -> str:
        return "anthropic" if self.path.startswith(ANTHROPIC_PATH) else "openai"

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    def texts(self) -> list[str]:
        """Every text part of every message (and the Anthropic ``system``), in order."""
        out: list[str] = []
        if isinstance(self.body.get("system"), str):
            out.append(self.body["system"])
        for m in self.body.get("messages", []):
            c = m.get("content")
            if isinstance(c, str):
                out.append(c)
            elif isinstance(c, list):
                out += [p.get("text", "") for p in c if p.get("type") == "text"]
        return out

    @property
    def text(self) -> str:
        return "\n".join(self.texts())

    @property
    def last_user_text(self) -> str:
        users = [m for m in self.body.get("messages", []) if m.get("role") == "user"]
        if not users:
            return ""
        c = users[-1].get("content")
        if isinstance(c, str):
            return c
        return "\n".join(p.get("text", "") for p in c if p.get("type") == "text")

    def image_parts(self) -> list[dict[str, Any]]:
        """The image parts (``image_url`` for OpenAI, ``image`` for Anthropic) of all messages."""
        out = []
        for m in self.body.get("messages", []):
            c = m.get("content")
            if isinstance(c, list):
                out += [p for p in c if p.get("type") in ("image_url", "image")]
        return out


Responder = Callable[[Request], "Reply | str"]


class LocalChatServer:
    """Serve scripted replies over HTTP on 127.0.0.1 (a free port), in a background thread.

    ``script`` is a list of replies used in order (a ``str`` is a 200 text reply), or a function of
    the :class:`Request` that returns one. When a list runs out the server answers HTTP 400.
    """

    def __init__(self, script: Iterable[Reply | str] | Responder) -> None:
        self.requests: list[Request] = []
        self._closing = threading.Event()
        self._lock = threading.Lock()
        if callable(script):
            self._responder: Responder | None = script
            self._queue: deque = deque()
        else:
            self._responder = None
            self._queue = deque(script)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def openai_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LocalChatServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="local-chat-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._closing.set()  # hanging and trickling answers end
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> LocalChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _next(self, req: Request) -> Reply:
        with self._lock:
            self.requests.append(req)
            if self._responder is not None:
                r = self._responder(req)
            elif self._queue:
                r = self._queue.popleft()
            else:
                r = Reply(status=400, error=f"the local chat server has no scripted reply left (request {len(self.requests)})")
        return Reply(text=r) if isinstance(r, str) else r

    def _handler_class(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence the default log
                pass

            def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                path = self.path.split("?", 1)[0]
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    self._send(400, {"error": {"message": "the body is not JSON", "type": "invalid_request_error"}})
                    return
                if path not in (OPENAI_PATH, ANTHROPIC_PATH):
                    self._send(404, {"error": {"message": f"unknown path {path}", "type": "not_found_error"}})
                    return
                req = Request(path, {k.lower(): v for k, v in self.headers.items()}, body)
                reply = server._next(req)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.hang:
                    server._closing.wait()
                    self.close_connection = True
                    return
                if reply.trickle_s:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "1000000")
                    self.end_headers()
                    self.wfile.flush()
                    try:
                        while not server._closing.wait(reply.trickle_s):
                            self.wfile.write(b" ")
                            self.wfile.flush()
                    except OSError:
                        pass
                    self.close_connection = True
                    return
                if reply.body is not None:
                    data = json.dumps(reply.body).encode("utf-8") if isinstance(reply.body, dict) else reply.body
                    self.send_response(200)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                anthropic = req.api == "anthropic"
                if reply.status != 200:
                    if anthropic:
                        err = {"type": "error", "error": {"type": _anthropic_error_type(reply.status), "message": reply.error}}
                    else:
                        err = {"error": {"message": reply.error, "type": _openai_error_type(reply.status), "code": None,
                                     "param": reply.param}}
                    self._send(reply.status, err, reply.headers)
                    return
                prompt_tokens = max(1, len(raw) // 4)
                completion_tokens = max(1, len(reply.text) // 4)
                model = req.model
                if anthropic:
                    payload = {
                        "id": f"msg_local{len(server.requests)}", "type": "message", "role": "assistant",
                        "model": model, "content": [{"type": "text", "text": reply.text}],
                        "stop_reason": "end_turn", "stop_sequence": None,
                        "usage": {"input_tokens": prompt_tokens, "output_tokens": completion_tokens},
                    }
                else:
                    payload = {
                        "id": f"chatcmpl-local{len(server.requests)}", "object": "chat.completion",
                        "created": int(time.time()), "model": model,
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text},
                                     "finish_reason": "stop", "logprobs": None}],
                        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                                  "total_tokens": prompt_tokens + completion_tokens},
                    }
                self._send(200, payload, reply.headers)

        return Handler


def _openai_error_type(status: int) -> str:
    return {400: "invalid_request_error", 401: "invalid_api_key", 403: "permission_denied", 404: "not_found",
            429: "rate_limit_exceeded"}.get(status, "server_error")


def _anthropic_error_type(status: int) -> str:
    return {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
            404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")

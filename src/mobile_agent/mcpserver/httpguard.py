"""Who may call the MCP server over HTTP: the checks in front of the SDK's streamable HTTP app.

The SDK checks ``Host`` and ``Origin`` only when it listens on 127.0.0.1, localhost or ::1, and
never asks who calls. A phone server is a remote control of a phone, so:

- a bind to an address other machines can reach (``0.0.0.0``, a LAN address) needs a bearer token
  (``--token``, or ``MOBILE_AGENT_MCP_TOKEN``): :func:`check_bind` refuses it otherwise;
- with a token, every request must carry ``Authorization: Bearer TOKEN`` (401 otherwise);
- on every loopback address (all of 127.0.0.0/8, ::1), ``Host`` must name this server with its
  port (421 otherwise: DNS rebinding), as the project's own local servers do
  (``report/localserver.py``);
- an ``Origin``, where a browser sends one, must be this server's own (403 otherwise).
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

from mobile_agent.errors import ConfigError, remember_secret

#: The shortest token taken: a guessable one protects nothing.
MIN_TOKEN_CHARS = 16
#: The environment variable read for the token where ``--token`` is not given.
TOKEN_ENV = "MOBILE_AGENT_MCP_TOKEN"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is reachable from this machine only."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """A :class:`ConfigError` for a bind that would let anyone on the network drive the phone: a
    non-loopback ``host`` without a ``token``, or a token too short to keep anyone out."""
    if token is not None:
        if len(token.strip()) < MIN_TOKEN_CHARS:
            raise ConfigError(f"--token needs at least {MIN_TOKEN_CHARS} characters; make one with: python -c "
                              "'import secrets; print(secrets.token_urlsafe())'")
        remember_secret(token.strip())  # never in a message or a log
        return
    if not is_loopback(host):
        raise ConfigError(f"--host {host} lets other machines reach the server, which drives the phone: give "
                          f"--token (or set {TOKEN_ENV}) so that every request must carry it as a bearer token, "
                          "or listen on 127.0.0.1")


class HttpGuard:
    """ASGI middleware in front of the MCP app: ``Host`` on loopback, ``Origin``, bearer token."""

    def __init__(self, app: Any, host: str, port: int, token: str | None = None) -> None:
        self.app = app
        self.token = token.strip() if token else None
        self.loopback = is_loopback(host)
        shown = f"[{host}]" if ":" in host else host
        names = {shown.lower(), "localhost", "127.0.0.1", "[::1]"} if self.loopback else {shown.lower()}
        self.hosts = {f"{n}:{port}" for n in names}
        self.origins = {f"{scheme}://{h}" for h in self.hosts for scheme in ("http", "https")}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refusal({k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])})
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, text, extra = refusal
        body = text.encode("utf-8")
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode())] + extra})
        await send({"type": "http.response.body", "body": body})

    def refusal(self, headers: dict[str, str]) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        """Why a request with ``headers`` (lower-case names) is refused: (status, text, headers), or None."""
        host = headers.get("host", "").strip().lower()
        if self.loopback and host not in self.hosts:
            return 421, f"this server answers only to {sorted(self.hosts)[0]}; Host {host or '(none)'} refused", []
        origin = headers.get("origin", "").strip().lower()
        if origin and origin not in self.origins and origin not in {f"http://{host}", f"https://{host}"}:
            return 403, f"cross-site request from {origin[:100]} refused", []
        if self.token is not None:
            given = headers.get("authorization", "")
            scheme, _, value = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), self.token.encode()):
                return 401, "a bearer token is required: Authorization: Bearer TOKEN (the server's --token)", \
                    [(b"www-authenticate", b'Bearer realm="mobile-agent mcp"')]
        return None

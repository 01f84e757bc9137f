"""Bounded retries with exponential backoff, for timeouts, 429 and 5xx; and what the chat SDKs'
(``openai``, ``anthropic``) errors mean for the user once the retries are spent."""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, TypeVar

from mobile_agent.errors import ConfigError, ModelError, TimeLimitReached, one_line
from mobile_agent.model.deadline import CallTimedOut, run_end

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """At most ``max_attempts`` calls; the wait before retry *n* is ``base_delay_s * 2**(n-1)``
    (with up to 25 % jitter), never more than ``max_delay_s``. A server's ``Retry-After`` is honoured
    up to ``max_delay_s``."""

    max_attempts: int = 4
    base_delay_s: float = 1.0
    max_delay_s: float = 20.0
    jitter: float = 0.25
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        if retry_after is not None and retry_after >= 0:
            return min(retry_after, self.max_delay_s)
        d = self.base_delay_s * (2 ** (attempt - 1))
        d *= 1.0 + random.uniform(0.0, self.jitter)
        return min(d, self.max_delay_s)


class MalformedAnswer(Exception):
    """A 200 answer that is not a chat reply: truncated or invalid JSON, a gateway's HTML page, a
    choice without a message, token counts that are not numbers. Retried like a 5xx."""


def describe_bad_body(value: object) -> str:
    """What came instead of a chat reply, in a few words (the start of a text body)."""
    if isinstance(value, (str, bytes)):
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        kind = "an HTML page" if "<html" in text[:500].lower() or "<!doctype" in text[:500].lower() else "a text"
        return f"{kind} instead of JSON ({one_line(text, 80) or 'empty'})"
    return f"JSON of the wrong shape ({type(value).__name__})"


def token_count(value: object, name: str) -> int:
    """A usage count as an int (None is 0); anything else is a :class:`MalformedAnswer`."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or value != int(value):
        raise MalformedAnswer(f"its usage count {name} is not a number of tokens ({one_line(repr(value), 40)})")
    return int(value)


class Retryable(Exception):
    """Raised inside a retried function to ask for another attempt; wraps the cause."""

    def __init__(self, cause: BaseException, retry_after: float | None = None) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.retry_after = retry_after


def call_with_retries(fn: Callable[[], T], policy: RetryPolicy, what: str = "call") -> tuple[T, int]:
    """Call ``fn`` until it returns, at most ``policy.max_attempts`` times.

    ``fn`` raises :class:`Retryable` for a transient failure; any other exception ends the retries
    at once. After the last attempt the cause of the last :class:`Retryable` is raised.
    Returns (result, number of attempts).
    """
    last: Retryable | None = None
    for attempt in range(1, policy.max_attempts + 1):
        try:
            return fn(), attempt
        except Retryable as exc:
            last = exc
            if attempt == policy.max_attempts:
                break
            wait = policy.delay(attempt, exc.retry_after)
            end = run_end()
            if end is not None and time.monotonic() + wait >= end:
                raise TimeLimitReached(f"the run's time limit was reached while {what} was failing "
                                       f"({one_line(str(exc.cause), 160)})") from exc.cause
            log.warning("%s failed (%s); retry %d/%d in %.1fs", what, one_line(str(exc.cause), 200), attempt,
                        policy.max_attempts - 1, wait)
            policy.sleep(wait)
    assert last is not None
    raise last.cause


def retry_after_s(exc: BaseException) -> float | None:
    """The ``Retry-After`` header of a failed response, in seconds, when it is a number."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    value = headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def server_message(exc: BaseException) -> str:
    """The server's error message where the body has one, else the exception text."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return one_line(str(err["message"]))
        if isinstance(err, str):
            return one_line(err)
    return one_line(str(exc))


def sdk_attempt(sdk: ModuleType, call: Callable[[], object], read: Callable[[object], T]) -> Callable[[], T]:
    """``call`` for :func:`call_with_retries`, its answer checked by ``read``: the SDK's (``openai`` or
    ``anthropic``, which name their errors alike) timeouts, connection failures, 429 and 5xx, a
    request past its total deadline (:class:`CallTimedOut`) and a 200 answer that is not a chat
    reply (:class:`MalformedAnswer`; the SDK's own JSON or validation errors) become :class:`Retryable`."""

    def once() -> T:
        try:
            return read(call())
        except (sdk.APITimeoutError, sdk.APIConnectionError, CallTimedOut, MalformedAnswer) as exc:
            raise Retryable(exc) from exc
        except sdk.APIStatusError as exc:
            if exc.status_code == 429 or exc.status_code >= 500:
                raise Retryable(exc, retry_after_s(exc)) from exc
            raise
        except sdk.APIError:
            raise
        except (ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:  # the SDK could not read the body
            bad = MalformedAnswer(f"truncated or invalid JSON ({one_line(str(exc), 100)})"
                                  if isinstance(exc, ValueError) else f"an answer of the wrong shape ({one_line(str(exc), 100)})")
            raise Retryable(bad) from exc

    return once


def sdk_failure(exc: Exception, sdk: ModuleType, *, model: str, where: str, api_key_env: str,
                attempts: int, not_found_hint: str) -> ConfigError | ModelError:
    """The error to raise for an SDK error that ended a chat call: a :class:`ConfigError` for what the
    user set wrong (401 key, 403 model, 404 model or URL), else a :class:`ModelError` naming the
    status or cause. ``where`` names the server, ``attempts`` the retries spent, and
    ``not_found_hint`` follows "404 Not Found from ... for model ...: "."""
    if isinstance(exc, sdk.AuthenticationError):
        return ConfigError(
            f"{where} rejected the API key from {api_key_env} (401 Unauthorized): "
            f"check the key, or name the right variable with --api-key-env. Server said: {server_message(exc)}"
        )
    if isinstance(exc, sdk.PermissionDeniedError):
        return ConfigError(f"{where} refused model {model} for this key (403 Forbidden): {server_message(exc)}")
    if isinstance(exc, sdk.NotFoundError):
        return ConfigError(
            f"404 Not Found from {where} for model {model}: {not_found_hint}. Server said: {server_message(exc)}"
        )
    if isinstance(exc, sdk.APIStatusError):
        if exc.status_code == 429 or exc.status_code >= 500:
            return ModelError(
                f"model {model} at {where} kept failing with HTTP {exc.status_code} after "
                f"{attempts} attempts: {server_message(exc)}"
            )
        return ModelError(f"model {model} at {where} answered HTTP {exc.status_code}: {server_message(exc)}")
    if isinstance(exc, MalformedAnswer):
        return ModelError(f"model {model} at {where} sent an answer that is not a chat reply, {attempts} "
                          f"time(s): {one_line(str(exc), 200)}")
    if isinstance(exc, CallTimedOut):
        return ModelError(f"model {model} at {where} gave no complete answer within {exc.timeout_s:g} s, "
                          f"{attempts} time(s); try again later or raise --model-timeout")
    if isinstance(exc, sdk.APITimeoutError):
        return ModelError(f"model {model} at {where} timed out {attempts} times; try again later or raise "
                          "--model-timeout")
    if isinstance(exc, sdk.APIConnectionError):
        return ModelError(
            f"cannot reach {where} after {attempts} attempts ({one_line(str(exc), 160)}): check --base-url and "
            "that the server is running"
        )
    return ModelError(f"chat call to {model} failed: {one_line(str(exc))}")

"""Bounded retries with exponential backoff, for timeouts, 429 and 5xx."""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from typing import Callable, TypeVar

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
            log.warning("%s failed (%s); retry %d/%d in %.1fs", what, exc.cause, attempt,
                        policy.max_attempts - 1, wait)
            policy.sleep(wait)
    assert last is not None
    raise last.cause

"""Deadlines for model calls: each request has a total deadline (``--model-timeout``: the whole
answer, not each read), and the run's own end (``--time-limit``) holds during a call.

The run sets its end with :func:`run_deadline` (a context variable, so parallel runs in one
process keep their own); :func:`within` runs one request on a worker thread and stops waiting at
the nearer of the two. A request that passes its deadline raises :class:`CallTimedOut` (retried
like a timeout); a run whose end comes first raises
:class:`~mobile_agent.errors.TimeLimitReached`.
"""

from __future__ import annotations

import contextvars
import math
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

from mobile_agent.errors import TimeLimitReached

T = TypeVar("T")
#: Longest the caller's wait for a model call stays in one blocking call (see :func:`within`).
WAIT_SLICE_S = 0.25
_RUN_END: contextvars.ContextVar[float | None] = contextvars.ContextVar("mobile_agent_run_end", default=None)


class CallTimedOut(Exception):
    """One request gave no complete answer within its total deadline."""

    def __init__(self, timeout_s: float) -> None:
        super().__init__(f"no complete answer within {timeout_s:g} s")
        self.timeout_s = timeout_s


def sdk_timeout(timeout_s: float) -> float:
    """The SDK client's own timeout for a request whose total deadline is ``timeout_s``: a backstop a
    second (or a quarter) later, so that the deadline (:func:`within`, which waits in slices of
    :data:`WAIT_SLICE_S` and names itself in the user's message) ends a silent request first, also
    on a loaded machine; at the same value the SDK's read timeout sometimes won the race and the
    message said only "timed out"."""
    return timeout_s + max(1.0, 0.25 * timeout_s)


@contextmanager
def run_deadline(end: float | None) -> Iterator[None]:
    """Within the block, model calls end by ``end`` (a ``time.monotonic()`` value; None: no end)."""
    token = _RUN_END.set(end)
    try:
        yield
    finally:
        _RUN_END.reset(token)


def set_run_end(end: float | None) -> contextvars.Token:
    """:func:`run_deadline` without a block: returns the token for :func:`reset_run_end`."""
    return _RUN_END.set(end)


def reset_run_end(token: contextvars.Token) -> None:
    _RUN_END.reset(token)


def run_end() -> float | None:
    """The run's end (monotonic seconds) for calls made here, or None."""
    return _RUN_END.get()


def within(fn: Callable[[], T], timeout_s: float | None, abort: Callable[[], None] | None = None,
           what: str = "the model call") -> T:
    """``fn()``, given at most ``timeout_s`` seconds in all and never past the run's end.

    ``fn`` runs on a daemon thread; when time is up the caller stops waiting, ``abort`` is called
    (it closes the client's connections, which ends the thread's read) and :class:`CallTimedOut`
    or :class:`TimeLimitReached` is raised; with neither deadline it waits as long as ``fn`` takes.
    Ctrl-C and SIGTERM reach the caller during the wait, whichever thread the kernel hands them to.
    """
    now = time.monotonic()
    run = _RUN_END.get()
    if run is not None and now >= run:
        raise TimeLimitReached(f"the run's time limit was reached before {what}")
    ends = [e for e in (now + timeout_s if timeout_s else None, run) if e is not None]
    # No deadline: still on a worker thread, so that Ctrl-C and SIGTERM reach the caller (below).
    end = min(ends) if ends else math.inf
    box: dict[str, object] = {}
    done = threading.Event()
    ctx = contextvars.copy_context()

    def work() -> None:
        try:
            box["value"] = ctx.run(fn)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="model-call", daemon=True).start()
    # The wait returns to Python every WAIT_SLICE_S: a signal the kernel hands to another thread of
    # the process (this call's own, onnxruntime's) does not wake a wait blocked on the main thread,
    # and its handler (Ctrl-C, SIGTERM) runs only once the main thread runs Python code again; one
    # long wait left a SIGTERM unanswered for the whole model timeout.
    while not done.is_set():
        left = end - time.monotonic()
        if left <= 0:
            break
        done.wait(min(WAIT_SLICE_S, left))
    if not done.is_set():
        if abort is not None:
            try:
                abort()
            except Exception:  # noqa: BLE001 - best effort: the caller has stopped waiting
                pass
        if run is not None and run <= end:
            raise TimeLimitReached(f"the run's time limit was reached during {what}")
        raise CallTimedOut(float(timeout_s or 0.0))
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]

"""Work taken off a step's critical path: the parse of each screenshot runs beside the model call.

A step's screenshot is known before the planning request goes out, and grounding needs its parse
only once the model has answered. :class:`Prefetch` parses each screenshot on one worker thread as
soon as it exists (the text lines first; the icon boxes too while the model is still thinking), so
that grounding finds the parse in perception's memo; and it writes the step's screenshots on a
second thread. The parse is perception's own ``parse`` (the same code, the same memo), so a step's
grounding is the same as without the overlap.

Perception is not thread-safe: the loop calls :meth:`Prefetch.wait` before it uses perception itself
(grounding, the confirmation gate), and starts the next parse only after that use. Two threads at
most (one parsing, one writing), shut down with the run, also after Ctrl-C (:meth:`Prefetch.close`).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

from PIL import Image

log = logging.getLogger(__name__)


class Prefetch:
    """Parses screenshots and writes files beside the main thread. ``perception`` needs a
    ``parse(image, icons=...)`` with a memo (:class:`mobile_agent.perception.Perception`)."""

    def __init__(self, perception: Any) -> None:
        self._perception = perception
        self._parser = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mobile-agent-parse")
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mobile-agent-write")
        self._parse: Future | None = None
        self._writes: list[Future] = []
        self._generation = 0
        self._answered = threading.Event()  # the model has answered: grounding may want the parse now
        self._checkpoint: Any = None  # perception before the last parse (to undo it when unused)

    # --- parsing ------------------------------------------------------------------------------

    def start(self, image: Image.Image, undo_last: bool = False, parse: bool = True) -> None:
        """Start parsing ``image`` once what was handed over before is done (in order, one thread).
        ``undo_last``: the screen parsed last was not used (no step grounded on it): its parse is
        undone first (:meth:`Perception.restore`), so that perception's memo and recognised crops,
        and with them every later parse, are what they would be without the overlap. ``parse``
        False: only that undoing (a model that answers faster than a parse leaves nothing to hide
        it behind; grounding parses what it needs, as without the overlap)."""
        self._generation += 1
        self._answered.clear()
        self._parse = self._parser.submit(self._run, image if parse else None, self._generation, undo_last)

    def answered(self) -> None:
        """The model has answered: a parse still running finishes its text lines and leaves the
        icon boxes to grounding, which asks for them only when the operation needs them."""
        self._answered.set()

    def wait(self) -> None:
        """Wait until no parse is running (call before using perception on this thread)."""
        self._answered.set()
        job = self._parse
        if job is None:
            return
        try:
            job.result()
        except Exception as exc:  # noqa: BLE001 - grounding parses again and reports its own error
            log.debug("background parse failed: %s", exc)
        finally:
            self._parse = None

    def _run(self, image: Image.Image | None, generation: int, undo_last: bool) -> None:
        if undo_last and self._checkpoint is not None:
            self._perception.restore(self._checkpoint)
        self._checkpoint = None
        if image is None:
            return
        checkpoint = getattr(self._perception, "checkpoint", None)
        self._checkpoint = checkpoint() if callable(checkpoint) else None
        self._perception.parse(image)
        if not self._answered.is_set() and generation == self._generation:
            self._perception.parse(image, icons=True)

    # --- beside: files and encodings ------------------------------------------------------------------------------

    def aside(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` on the second thread, in order: a screenshot's file, or its encoding for the
        next request."""
        self._writes.append(self._writer.submit(fn))

    def flush(self) -> None:
        """Wait for everything handed to :meth:`aside` so far; the first failure is raised."""
        writes, self._writes = self._writes, []
        error: BaseException | None = None
        for w in writes:
            try:
                w.result()
            except BaseException as exc:  # noqa: BLE001 - raised once every write has ended
                error = error or exc
        if error is not None:
            raise error

    def close(self) -> None:
        """Finish the writes, drop a parse not begun, wait for one running, and end both threads."""
        try:
            self.flush()
        finally:
            self._answered.set()
            self._parser.shutdown(wait=True, cancel_futures=True)
            self._writer.shutdown(wait=True, cancel_futures=True)
            self._parse = None

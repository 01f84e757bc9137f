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

import json
import logging
import shutil
import threading
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from PIL import Image, ImageChops

from mobile_agent.fsutil import atomic_write_text

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
        self._last: Image.Image | None = None  # the screen parsed last
        # each screen's text lines as the parse ahead read them, for the run folder's lines.json (a
        # replay of the run then reads no recorded screen again): id(image) -> (a weak reference, lines)
        self._lines: dict[int, tuple[Any, tuple[Any, ...]]] = {}
        self._steps: dict[int, Any] = {}  # step -> its screenshot, until its lines are known
        self._kept: dict[int, tuple[Any, ...]] = {}  # step -> (height, lines, the parse's record)
        self._lines_file: Path | None = None
        self._guard = threading.Lock()

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
        # The same pixels again (a Page Down at the end of a list): the unused parse is this
        # screen's, made from the same state, so it stands (undone with it where this one goes
        # unused too) rather than being undone and read again.
        again = undo_last and self._checkpoint is not None and _same_pixels(self._last, image)
        if not again:
            if undo_last and self._checkpoint is not None:
                self._perception.restore(self._checkpoint)
            self._checkpoint = None
        if image is None:
            return
        if not again:
            checkpoint = getattr(self._perception, "checkpoint", None)
            self._checkpoint = checkpoint() if callable(checkpoint) else None
        self._last = image
        parsed = self._perception.parse(image)
        try:
            lines = (image.size[1], [(ln.text, int(ln.box.y1), int(ln.box.y2)) for ln in parsed.lines],
                     parsed.to_record())
            with self._guard:
                self._lines = {k: v for k, v in self._lines.items() if v[0]() is not None}
                self._lines[id(image)] = (weakref.ref(image), lines)
        except (AttributeError, TypeError):  # a perception whose parse has no text lines
            pass
        if not self._answered.is_set() and generation == self._generation:
            self._perception.parse(image, icons=True)

    # --- each step's text lines, kept for a replay ---------------------------------------------------

    def keep_lines(self, path: Path) -> None:
        """Write the text lines of each step's screen, as the parse ahead read them, into ``path``
        (the run folder's ``lines.json``: {step: [height, [[text, y1, y2], ...]]}) when closing, and
        the parses themselves beside it (``parses.json``: {step: ParseResult.to_record()}): a replay
        then checks its screens against them reading only what changed."""
        self._lines_file = path

    def note_screen(self, step: int, image: Any) -> None:
        """Step ``step`` was planned on ``image``: its lines are kept once its parse is done."""
        with self._guard:
            self._steps[step] = image
            self._harvest()

    def _harvest(self) -> None:
        for step, image in list(self._steps.items()):
            hit = self._lines.get(id(image))
            if hit is not None and hit[0]() is image:
                self._kept[step] = hit[1]
                del self._steps[step]

    def _write_lines(self) -> None:
        with self._guard:
            self._harvest()
            kept, path = dict(self._kept), self._lines_file
        if path is None or not kept:
            return
        lines = json.dumps({str(k): [v[0], [list(x) for x in v[1]]] for k, v in sorted(kept.items())},
                           ensure_ascii=False)
        parses = json.dumps({str(k): v[2] for k, v in sorted(kept.items())}, ensure_ascii=False)
        try:
            # only with room to spare: the run's summary, written after, matters more than these
            if shutil.disk_usage(path.parent).free < 16 * (len(lines) + len(parses)) + (1 << 20):
                log.warning("little room left in %s: the screens' lines are not kept", path.parent)
                return
            atomic_write_text(path, lines)
            atomic_write_text(path.with_name("parses.json"), parses)
        except OSError as exc:  # the replay reads those screens itself
            log.warning("the screens' lines could not be kept: %s", exc)

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
            self._write_lines()


def _same_pixels(a: Image.Image | None, b: Image.Image | None) -> bool:
    """Whether ``a`` and ``b`` are the same pixels (a sixteenth of the rows and columns first: a
    changed screen is told apart in a tenth of a millisecond)."""
    if a is None or b is None:
        return False
    if a is b:
        return True
    if a.size != b.size or a.mode != b.mode:
        return False
    small = (max(1, a.width // 16), max(1, a.height // 16))
    if a.resize(small, Image.Resampling.NEAREST).tobytes() != b.resize(small, Image.Resampling.NEAREST).tobytes():
        return False
    return ImageChops.difference(a, b).getbbox() is None

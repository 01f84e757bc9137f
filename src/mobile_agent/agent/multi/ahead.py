"""Multi mode's critical path: each screen's parse runs beside the model calls, as in single mode
(:mod:`mobile_agent.agent.overlap`, the same :class:`~mobile_agent.agent.overlap.Prefetch`).

A screen is parsed on the Prefetch's thread from the moment it is taken (the first screenshot, the
screen a gesture left, the phone after a take-over), while the verifier's reflection call and the
next step's manager and executor calls run; the next step's grounding (and ``--confirm``'s gate)
waits for that parse and finds it in perception's memo. The verifier's change check compares pixels
and its reflection call sends the screenshots: neither waits. Where the verifier reads the screen's
text at once (a Type read back, Open App's launcher label: :func:`verifier.reads_after`) there is
nothing to hide the parse behind, so that screen is parsed on the loop's thread, as without the
overlap, and the next step's grounding uses the same parse: each screen is read once. A screen that
nothing read (the next operation grounded nothing: a Type, a Page Down, Back) has its parse undone
before the next screen's (:meth:`Perception.checkpoint/restore`), so every parse, grounding and
record is what it would be without the overlap; after models that answered faster than a parse
(``QUICK_MODEL_S``) the next screen is not parsed ahead at all. The step's screenshots are written,
and the next screen encoded for the requests, on the Prefetch's second thread.

The pieces multi mode borrows from the single agent (grounding, the gates) wait through the agent's
own ``_perception_quiet``: this module hands the Prefetch to that agent and reads its note of
whether the screen was used (``_perceived``), the same bookkeeping single mode keeps.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from PIL import Image

from mobile_agent.agent.loop import QUICK_MODEL_S, StepLoop
from mobile_agent.agent.planner import encoded
from mobile_agent.agent.reflection import screen_changed
from mobile_agent.agent.trajectory import TrajectoryWriter

log = logging.getLogger(__name__)


class ParseAhead:
    """The overlap of one multi-mode run, driven by ``pieces`` (the single agent whose grounding the
    run uses). Without ``AgentSettings.overlap_perception`` (or without a model to wait for, or a
    perception without a parse memo) every method does nothing and perception is used as before."""

    def __init__(self, pieces: StepLoop) -> None:
        self._pieces = pieces
        self._prefetch = pieces._make_prefetch()
        pieces._prefetch = self._prefetch  # the pieces' grounding and gates wait for it
        pieces._perceived = False
        pieces._quick_model = False

    def screen(self, image: Image.Image, ahead: bool = True) -> None:
        """A new screen: parse it ahead. The screen before it, if nothing read it, has its parse
        undone first. ``ahead`` False: the screen is read at once (the verifier reads a Type back):
        with nothing to hide its parse behind, this thread parses it, as without the overlap."""
        pieces = self._pieces
        unused, pieces._perceived = not pieces._perceived, False
        if self._prefetch is not None:
            self._prefetch.start(image, undo_last=unused, parse=ahead and not pieces._quick_model)

    def answered(self, model_s: float) -> None:
        """The executor has answered (``model_s``: the step's model time, manager and executor): a
        parse still running leaves the icon boxes to grounding; a step whose models answered faster
        than a parse gets no parse ahead of its next screen (nothing to hide it behind)."""
        if self._prefetch is not None:
            self._prefetch.answered()
            self._pieces._quick_model = model_s < QUICK_MODEL_S

    def quiet(self) -> None:
        """Wait for the parse running beside (before this thread uses perception) and note the
        screen as used."""
        self._pieces._perception_quiet()

    def reading(self, perception: Any) -> Any:
        """``perception`` for the verifier's checks: its ``parse`` waits for the parse ahead (and
        finds it in the memo); its change check compares pixels and waits for nothing."""
        if perception is None or self._prefetch is None:
            return perception
        return _Reading(perception, self)

    # --- beside: the screenshots' files and the next request's encoding (as in single mode) ---------

    def save(self, writer: TrajectoryWriter, name: str, image: Image.Image) -> str:
        """Save a screenshot of the step (on the writing thread where there is one); its path."""
        return self._pieces._save_screen(writer, name, image)

    def prepare(self, image: Image.Image, max_side: int | None, quality: int) -> None:
        """Encode ``image`` for the next requests on the writing thread (every role's request then
        finds it encoded); a failure is left to the request, which encodes it again."""
        if self._prefetch is not None:
            self._prefetch.aside(lambda: _quietly(encoded, image, max_side, quality))

    def flush(self) -> None:
        """Wait until the step's screenshots are written (before its line says so); the first
        failure is raised."""
        if self._prefetch is not None:
            self._prefetch.flush()

    def close(self) -> None:
        """End the threads (a parse not begun is dropped, one running is waited for)."""
        self._pieces._close_prefetch()


class _Reading:
    """Perception as the verifier reads it while a parse may be running beside it."""

    def __init__(self, perception: Any, ahead: ParseAhead) -> None:
        self._perception, self._ahead = perception, ahead

    def parse(self, image: Any, *args: Any, **kwargs: Any) -> Any:
        self._ahead.quiet()
        return self._perception.parse(image, *args, **kwargs)

    def screen_changed(self, before: Any, after: Any) -> bool:
        return screen_changed(self._perception, before, after)


def _quietly(fn: Callable[..., Any], *args: Any) -> None:
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001 - the request encodes the screen again and reports its own error
        log.debug("work ahead failed: %s", exc)

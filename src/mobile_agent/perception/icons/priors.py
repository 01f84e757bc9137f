"""The hand rules that stay beside the learned recogniser, each a named prior in one registry.

Click Icon scores a screen's boxes by the recogniser's probabilities of the description's concepts
(blended with the shape matcher, ``icons.learned``); what real apps do that a crop alone cannot
tell (where a toolbar's actions sit, a keyboard's icons being the input method's, a control named
by the label beside it) is a *prior*: a named rule that moves a box's score. Every prior is listed
here with what it does and where it lives, and each can be switched off::

    from mobile_agent.perception.icons import priors
    with priors.switched_off("layout_priors", "keyboard"):
        perception.ground_icon(img, "Search")

The priors make up the two signals issue 40's pipeline names beside the recogniser (:data:`SIGNALS`:
the position prior of the screen's layout, and nearby labels), or stand alone. ``python
bench/ablate_icons.py --dir DIR`` (or ``mobile-agent bench perception --dir DIR --ablate``) switches
each signal (all its parts together) and each prior of no signal off in turn over a folder of real
screens and prints the targets each wins and loses per app and per half of the apps. The rule of
the house: what wins on fewer than three apps goes (rules written for the screens in front of you
do not carry to other apps); the priors that failed it were removed (``own_avatar``,
``labelled_yields``, ``app_actions``, ``badged_glyphs``, ``tile_score``, ``scrim_glyphs``); the
table of the last ablation is in ``docs/perception.md``.

The switch is a context variable: it holds for the thread (or task) that set it, so an ablation in
one thread does not change what a run in another sees. The environment variable
``MOBILE_AGENT_ICON_PRIORS_OFF`` (names of priors or signals, comma-separated) switches priors off for a whole process
and the processes it starts (``MOBILE_AGENT_ICON_PRIORS_OFF=keyboard mobile-agent eval ...``).
"""

from __future__ import annotations

import contextlib
import os
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Iterator


@dataclass(frozen=True)
class Prior:
    """One rule: its name (the switch), what it does, and the functions that apply it (dotted
    names under ``mobile_agent.perception``)."""

    name: str
    what: str
    where: tuple[str, ...]
    signal: str = ""  # the pipeline's signal it is a part of (SIGNALS), "" for a rule of its own


PRIORS: dict[str, Prior] = {p.name: p for p in (
    Prior("text_controls", "a control drawn as its own words (a link in a sentence, a text button) is a candidate",
          ("icons.grounding.text_controls",)),
    Prior("labelled_controls", "a switch, radio or check box named by the label on its row comes first",
          ("icons.grounding.labelled_controls",), "nearby_labels"),
    Prior("selection_control", "a radio ring, a check box or a switch is read as such beside its label",
          ("icons.grounding.selection_control",), "nearby_labels"),
    Prior("status_bar", "the status bar's and navigation bar's glyphs lose unless the description names them",
          ("icons.screen.status_bar_excluded", "icons.screen.system_bar_factor"), "position"),
    Prior("dialog", "a dialog over a dimmed page: only the dialog's own icons are candidates",
          ("core.Perception._keep_dialog_candidates",), "position"),
    Prior("nearby_label", "an icon beside a text the description names (\"Play Calm Evening\") gains",
          ("core._context_bonus", "core._context_boxes", "core._nearness"), "nearby_labels"),
    Prior("keyboard", "the open keyboard's icons are the input method's: they lose unless a key is named",
          ("icons.layout.keyboard_top",), "position"),
    Prior("layout_priors", "where apps put a family's icon: toolbar ends, bottom navigation, a FAB",
          ("icons.layout.layout_priors",), "position"),
    Prior("floating_buttons", "a filled disc at the bottom right is the FAB of Add, Edit, Check, Save",
          ("icons.layout.floating_buttons",), "position"),
    Prior("framework_prior", "the framework's own names (Navigate up, More options) are the top bar's ends",
          ("icons.layout.framework_prior",), "position"),
    Prior("open_vocabulary", "a word the lexicon does not know: the glyphs its words name, by embedding",
          ("icons.learned.LearnedIconMatcher.open_scores",), "recogniser"),
)}

#: The signals Click Icon scores boxes by beside the recogniser's probabilities (issue 40: "the
#: position prior and nearby labels"), each made of the priors that name it as their ``signal``.
#: Switching a signal off switches off all its parts; the house rule judges a signal as a whole
#: and a prior that is no part of one on its own.
SIGNALS: dict[str, str] = {
    "position": "the position prior of the screen's layout (icons.screen.ScreenLayout): status and "
                "navigation bars, the top bar's ends, the keyboard, a dialog, bottom navigation, the FAB",
    "nearby_labels": "the texts beside a box: a label the description names, a control on its label's row",
    "recogniser": "the recogniser's own answer beyond its classes (its embedding, for a word the lexicon "
                  "does not know): the model's, not a hand rule, so the house rule does not judge it",
}

#: Signals the house rule does not judge: they are the learned model's, not hand rules.
MODEL_SIGNALS = frozenset({"recogniser"})


def check(names: Iterable[str]) -> None:
    """Raise KeyError, naming every prior and signal, where one of ``names`` is neither."""
    _known(names)


def judged() -> list[str]:
    """What the house rule judges: every signal, and every prior that is no part of one."""
    return list(SIGNALS) + [p.name for p in PRIORS.values() if not p.signal]


def parts(signal: str) -> tuple[str, ...]:
    """The priors a signal is made of."""
    return tuple(p.name for p in PRIORS.values() if p.signal == signal)


_OFF: ContextVar[frozenset[str]] = ContextVar("mobile_agent_icon_priors_off", default=frozenset())


def _known(names: Iterable[str]) -> frozenset[str]:
    """The priors ``names`` stand for (a signal's name stands for its parts)."""
    names = frozenset(names)
    unknown = sorted(names - PRIORS.keys() - SIGNALS.keys())
    if unknown:
        raise KeyError(f"no icon prior or signal named {', '.join(map(repr, unknown))}; "
                       f"the priors are: {', '.join(sorted(PRIORS))}; the signals: {', '.join(sorted(SIGNALS))}")
    return frozenset(n for name in names for n in (parts(name) if name in SIGNALS else (name,)))


ENV = "MOBILE_AGENT_ICON_PRIORS_OFF"


@lru_cache(maxsize=4)
def _from_env(value: str) -> frozenset[str]:
    try:
        return _known(n.strip() for n in value.split(",") if n.strip())
    except KeyError as exc:
        from mobile_agent.errors import ConfigError

        raise ConfigError(f"{ENV}={value!r}: {exc.args[0]}") from None


def on(name: str) -> bool:
    """Whether the prior ``name`` applies here (it does unless switched off)."""
    if name not in PRIORS:
        _known([name])
    return name not in off()


def off() -> frozenset[str]:
    """The priors switched off here (by :func:`switched_off` or the environment)."""
    env = os.environ.get(ENV, "")
    return _OFF.get() | _from_env(env) if env else _OFF.get()


@contextlib.contextmanager
def switched_off(*names: str) -> Iterator[None]:
    """Switch the priors ``names`` off for the code run inside (this thread or task only)."""
    token = _OFF.set(_OFF.get() | _known(names))
    try:
        yield
    finally:
        _OFF.reset(token)

"""The families' registry: every adapter by its --model-family name, a served model's family, and
which families write a reply the ReAct planner could not read (``point_format_hint``). It imports no
planner, so ``agent/planner.py`` may ask it without an import circle."""


from __future__ import annotations

import re

from mobile_agent.agent.families.autoglm import AutoGLM, AutoGLMMultilingual
from mobile_agent.agent.families.base import Family, syntaxes_in
from mobile_agent.agent.families.gui_owl_15 import GUIOwl15
from mobile_agent.agent.families.gui_owl_v3 import GUIOwlV3
from mobile_agent.agent.families.mai_ui import MAIUI
from mobile_agent.agent.families.qwen3vl import Qwen3VL
from mobile_agent.agent.families.qwen25vl import Qwen25VL
from mobile_agent.agent.families.ui_tars_15 import UITars15
from mobile_agent.agent.families.ui_tars_v1 import UITarsV1
from mobile_agent.agent.families.ui_venus import UIVenus15, UIVenusNavi
from mobile_agent.errors import ConfigError

#: Every family, by its --model-family name (the order in which served names are tried).
FAMILIES: dict[str, Family] = {f.name: f for f in (
    UITars15(), UITarsV1(), AutoGLMMultilingual(), AutoGLM(), Qwen25VL(), Qwen3VL(), GUIOwl15(), GUIOwlV3(), MAIUI(),
    UIVenusNavi(), UIVenus15())}

#: Served names that do not say the version, and the families they could be: not guessed (the versions'
#: coordinates differ, so a guess taps elsewhere); the run stops before its first step.
AMBIGUOUS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"^ui-?tars(?:-(?:2b|7b|72b))?$", ("ui-tars-1.5", "ui-tars-v1")),
    (r"^ui-?venus(?:-(?:7b|72b))?$", ("ui-venus-navi", "ui-venus-1.5")),
    (r"^gui-?owl$", ("gui-owl-v3", "gui-owl-1.5")),
)

#: What --model-family also takes: the paper's ReAct planner (no family).
REACT = "react"


def family_names() -> str:
    return ", ".join(FAMILIES)


def get_family(name: str) -> Family:
    """The family called ``name`` (case-insensitive). Raises :class:`ConfigError` naming them all."""
    f = FAMILIES.get(name.strip().lower())
    versions = {"ui-venus": ("ui-venus-navi", "ui-venus-1.5"), "ui-tars": ("ui-tars-1.5", "ui-tars-v1"),
                "gui-owl": ("gui-owl-v3", "gui-owl-1.5")}.get(name.strip().lower())
    if f is None and versions:
        raise ConfigError(f"model family {name!r} has versions whose coordinates differ: name one of "
                          f"{', '.join(versions)}")
    if f is None:
        raise ConfigError(f"unknown model family {name!r}; families: {family_names()} (or {REACT}: the paper's "
                          f"Observation / Thought / Action replies)")
    return f


def family_for_model(model: str) -> Family | None:
    """The family of a model as it is served (``ByteDance-Seed/UI-TARS-1.5-7B``, ``ui-tars-1.5-7b``,
    ``autoglm-phone-9b``, ``Qwen/Qwen2.5-VL-7B-Instruct``...): case-insensitive, with or without the
    organisation, or None for a model of no family (GPT-4o, Claude: the ReAct planner). A name that does not
    say the version (``ui-tars``, ``ui-venus``) raises :class:`ConfigError` naming the families it could be
    and ``--model-family``."""
    bare = model.strip().lower().rsplit("/", 1)[-1]
    for pattern, names in AMBIGUOUS:
        if re.search(pattern, bare):
            raise ConfigError(f"the served model name {model!r} does not say which version it is: it could be "
                              f"{' or '.join(names)}, whose coordinates differ; name it with --model-family "
                              f"({', '.join(names)})")
    for f in FAMILIES.values():
        if any(re.search(p, bare) for p in f.served):
            return f
    return None


#: The families whose replies each syntax is, for the error of a reply no planner of its run reads.
_BY_SYNTAX: dict[str, list[str]] = {}
for _f in FAMILIES.values():
    _BY_SYNTAX.setdefault(_f.syntax, []).append(_f.name)


def point_format_hint(reply: str) -> str | None:
    """For a reply the ReAct planner could not read: which point-output families write like it, and
    how to run with one (None when it looks like none of them)."""
    found = [s for s in syntaxes_in(reply or "") if s in _BY_SYNTAX]
    if not found:
        return None
    names = _BY_SYNTAX[found[0]]
    return (f"the reply is a point action in the format of {' / '.join(names)}, which the paper's planner does not "
            f"read; name the family with --model-family ({family_names()})")

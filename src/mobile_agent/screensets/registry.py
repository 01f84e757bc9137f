"""The one list of screen sets. Every benchmark command and script (``mobile-agent bench perception
--set``, ``bench/bench_parse.py``, ``bench/bench_icons.py``) reads its sets from :data:`SETS` and
loads them through :meth:`ScreenSet.load`; a real folder is one more set, named ``dir:PATH``
(:func:`get`).

A set says what its targets are (``kind``: ``text``, ``icon`` or ``both``) and how they are given
(``truth``): ``tree`` (the simulated phone's ui tree: :class:`~mobile_agent.screensets.measure.BenchScreen`),
``text`` (drawn text targets: :class:`~mobile_agent.screensets.text_stress.StressScreen`), ``icon``
(drawn icon targets: :class:`~mobile_agent.screensets.icon_heldout.HeldoutScreen`) or ``folder``
(screenshots with uiautomator dumps: :class:`~mobile_agent.screensets.realscreens.RealFolder`).
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

from mobile_agent.errors import ConfigError

FOLDER = "dir:"  # a set named dir:PATH is the real folder PATH
FOLDER_HELP = "dir:PATH (a folder of screenshots with their uiautomator dumps)"
KINDS = ("text", "icon", "both")
TRUTHS = ("tree", "text", "icon", "folder")


class UnknownScreenSet(ConfigError):
    """A set name the registry does not hold (its message is one line that lists the names)."""


@dataclass(frozen=True)
class ScreenSet:
    """One screen set: its name, what its targets are, and how it is drawn or read."""

    name: str
    kind: str  # its targets: "text", "icon" or "both"
    truth: str  # how the targets are given: "tree", "text", "icon" or "folder"
    description: str
    module: str = ""  # the module below mobile_agent.screensets that draws it (synthetic sets)
    collect: str = ""  # that module's function that draws the screens
    title: str = ""  # its name in the figures' first line
    path: Path | None = None  # a folder set's folder

    @property
    def frozen(self) -> bool:
        """Whether the set is frozen by a digest (seed ``SEED``, ``SCREENS`` screens)."""
        return bool(self.module) and hasattr(self.code(), "FROZEN_SHA256")

    def code(self) -> ModuleType:
        """The module that draws the set (for its own figures: ``run_stress``, ``format_heldout``...)."""
        if not self.module:
            raise ConfigError(f"screen set {self.name} is a folder: it is read, not drawn")
        return importlib.import_module(f"mobile_agent.screensets.{self.module}")

    def default_count(self) -> int | None:
        """Screens loaded when no count is given: the frozen set's ``SCREENS``, 120 of the phone's
        screens, every screen of a folder (None)."""
        if self.truth == "folder":
            return None
        return int(getattr(self.code(), "SCREENS", 120))

    def load(self, seed: int = 0, count: int | None = None, **options: Any) -> Any:
        """The set's screens, each with its targets: a list (``BenchScreen``, ``StressScreen`` or
        ``HeldoutScreen``), or for a folder a ``RealFolder`` (its ``screens`` and the ``problems``
        of the files that could not be read; option ``absent``: texts not on the screen asked for
        on each). ``options`` the set's collector takes are passed on (``depth``, ``dark``,
        ``log``), the others left aside. A set that needs what is not installed raises
        ``ConfigError`` with the command that installs it; a folder that is not there,
        ``FileNotFoundError``."""
        if count is None:
            count = self.default_count()
        if self.truth == "folder":
            from mobile_agent.screensets.realscreens import load_folder

            assert self.path is not None
            folder = load_folder(self.path, absent_per_screen=max(0, int(options.get("absent", 3))))
            if count is not None:
                folder.screens = folder.screens[:max(0, count)]
            return folder
        collect: Callable[..., list[Any]] = getattr(self.code(), self.collect)
        takes = inspect.signature(collect).parameters
        given = {k: v for k, v in options.items() if k in takes}
        given["max_screens" if "max_screens" in takes else "count"] = count
        return collect(seed=seed, **given)

    def images(self, seed: int = 0, count: int | None = None) -> list[Any]:
        """The set's screenshots as RGB images (a folder's read from their files), for timing."""
        loaded = self.load(seed=seed, count=count)
        if self.truth == "folder":
            from PIL import Image

            out = []
            for s in loaded.screens:
                with Image.open(s.image) as im:
                    out.append(im.convert("RGB"))
            return out
        return [s.image.convert("RGB") for s in loaded][:count]

    def digest(self, screens: Sequence[Any]) -> str | None:
        """The screens' digest (frozen sets only; None for the others)."""
        return self.code().set_digest(screens) if self.frozen else None

    def is_frozen_set(self, screens: Sequence[Any], seed: int) -> bool:
        """Whether ``screens`` are the frozen set: its seed, its count and its digest."""
        if not self.frozen:
            return False
        m = self.code()
        return seed == m.SEED and len(screens) == m.SCREENS and self.digest(screens) == m.FROZEN_SHA256


SETS: dict[str, ScreenSet] = {s.name: s for s in (
    ScreenSet("sim", "both", "tree", "the simulated phone as drawn by default, its tree the truth",
              "measure", "collect_sim_screens", "simulated phone"),
    ScreenSet("wide", "both", "tree", "the same screens in other fonts, icon sets, densities, themes, status bars, "
              "JPEG and Chinese", "wide", "collect_wide_screens", "wide set"),
    ScreenSet("textstress", "text", "text", "Click Text on what real apps do to text",
              "text_stress", "collect_stress_screens", "text stress set"),
    ScreenSet("textheldout", "text", "text", "Click Text on fonts, font scales and layouts no matching rule was "
              "written against", "text_heldout", "collect_heldout_screens", "held-out text set"),
    ScreenSet("scripts", "text", "text", "Click Text in Korean, Japanese, Cyrillic, Arabic, Thai, Devanagari and "
              "Bengali, drawn in real apps' styles; figures per script", "text_scripts", "collect_scripts_screens",
              "scripts set"),
    ScreenSet("langs", "text", "text", "Click Text on lists of languages and countries, each named in its own "
              "script (Greek, Hebrew, Indic, Georgian, Khmer, Burmese, Latin with diacritics...); figures per script",
              "text_langs", "collect_langs_screens", "languages set"),
    ScreenSet("heldout", "icon", "icon", "Click Icon on icon fonts the matcher neither uses nor was developed "
              "against, laid out as real apps lay them out", "icon_heldout", "heldout_screens",
              "held-out icon set"),
    ScreenSet("heldout2", "icon", "icon", "the second, harder held-out icon set: thin-stroke Tabler icons, real "
              "photos, icons on photos", "icon_heldout_v2", "heldout_screens", "second held-out icon set (v2)"),
    ScreenSet("iconstress", "icon", "icon", "what real apps do to icons, drawn with Lucide icons; figures by phenomenon",
              "icon_stress", "stress_screens", "icon stress set"),
    ScreenSet("material", "icon", "icon", "Material Symbols Rounded and Sharp toolbars, light and dark",
              "icon_material", "material_screens", "Material-styles icon set"),
)}


def names(kinds: Sequence[str] = KINDS) -> tuple[str, ...]:
    """The registry's set names whose targets are of one of ``kinds`` (default: all)."""
    return tuple(n for n, s in SETS.items() if s.kind in kinds)


def folder(path: str | Path) -> ScreenSet:
    """A real folder as a set (``dir:PATH``)."""
    return ScreenSet(f"{FOLDER}{path}", "both", "folder", "real screenshots with their uiautomator dumps",
                     title=f"folder {path}", path=Path(path))


def get(name: str, kinds: Sequence[str] = KINDS) -> ScreenSet:
    """The set named ``name`` (``dir:PATH``: the folder PATH). Raises :class:`UnknownScreenSet`,
    one line that lists the names, for a name the registry does not hold or whose targets are not
    of ``kinds``."""
    if name.startswith(FOLDER):
        if not name[len(FOLDER):]:
            raise UnknownScreenSet(f"screen set {name!r}: give the folder, as in dir:PATH")
        return folder(name[len(FOLDER):])
    s = SETS.get(name)
    if s is None:
        raise UnknownScreenSet(f"unknown screen set {name!r}: use {choices_text(kinds)}")
    if s.kind not in kinds:
        raise UnknownScreenSet(f"screen set {name!r} has {s.kind} targets only here: use {choices_text(kinds)}")
    return s


def choices_text(kinds: Sequence[str] = KINDS) -> str:
    """The names a ``--set`` takes, in words: ``sim, wide, ... or dir:PATH (...)``."""
    return ", ".join(names(kinds)) + f" or {FOLDER_HELP}"


def help_text(kinds: Sequence[str] = KINDS, folders: bool = True) -> str:
    """A ``--set`` option's help: every name the registry holds (of ``kinds``) with its description,
    and ``dir:PATH`` where the command takes ``folders``."""
    return ("Screens: " + "; ".join(f"{n} ({SETS[n].description})" for n in names(kinds))
            + (f"; or {FOLDER_HELP}" if folders else "") + ". See docs/perception.md.")


__all__ = ["FOLDER", "KINDS", "SETS", "ScreenSet", "TRUTHS", "UnknownScreenSet", "choices_text", "folder", "get",
           "help_text", "names"]

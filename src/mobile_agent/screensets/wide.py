"""The "wide" screen set: the simulated phone's benchmark screens drawn in looks that this project's
perception was not tuned on, so that its figures are not those of one look.

Each screen of the sim set (:func:`~mobile_agent.screensets.measure.collect_sim_screens`: the home
screen, every app's first screen and the screens one tap away) is drawn again on a fresh phone
in a look drawn from a seeded generator: a text font (Noto Sans, Open Sans, Inter, Lato, DejaVu
Sans; Noto Sans CJK with Chinese labels on about a fifth of the screens), an icon set that is not
the one the offline matcher's references come from (Phosphor or Remix Icon), a density (720x1600,
1080x2400, 1440x3200), light or dark themes in other colours, a vendor's status bar, and JPEG
compression on about half of them. The same seed gives the same screens, pixel for pixel.
Ground truth is the phone's ``ui_tree()``, as in the sim set.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from mobile_agent.screensets.measure import BenchScreen, collect_sim_screens, parse_tree

TEXT_FONTS = ("noto-sans", "open-sans", "inter", "lato", "dejavu")
ICON_SETS = ("phosphor", "remix")
SIZES = ((720, 1600), (1080, 2400), (1440, 3200))
LIGHT_THEMES = ("light", "cream", "grey")
DARK_THEMES = ("dark", "black", "navy", "cocoa")
STATUS_BARS = ("pixel", "samsung", "miui", "center")
JPEG_QUALITIES = (None, None, 90, 75, 60)
ZH_SHARE = 0.2
DARK_SHARE = 0.4


@dataclass(frozen=True)
class WideLook:
    """The look of one wide screen: the phone's :class:`Look`, its size and whether dark mode is on."""

    look: Any
    width: int
    height: int
    dark: bool

    def describe(self) -> str:
        return f"{self.look.describe()} {self.width}x{self.height}{' dark' if self.dark else ''}"


def wide_look(rng: random.Random) -> WideLook:
    """One look drawn from ``rng`` (the order of draws is part of the set's definition)."""
    from mobile_agent.device.sim.look import Look

    zh = rng.random() < ZH_SHARE
    font = rng.choice(TEXT_FONTS)
    icons = rng.choice(ICON_SETS)
    width, height = rng.choice(SIZES)
    dark = rng.random() < DARK_SHARE
    light_theme = rng.choice(LIGHT_THEMES)
    dark_theme = rng.choice(DARK_THEMES)
    status = rng.choice(STATUS_BARS)
    jpeg = rng.choice(JPEG_QUALITIES)
    look = Look(font="noto-cjk" if zh else font, icons=icons, light=light_theme, dark=dark_theme,
                status_bar=status, jpeg_quality=jpeg, lang="zh" if zh else "en")
    return WideLook(look, width, height, dark)


def collect_wide_screens(seed: int = 0, max_screens: int = 120, depth: int = 1,
                         log: Callable[[str], None] | None = None) -> list[BenchScreen]:
    """The wide set: each screen of the sim set (same seed, depth and count) drawn in a look of its
    own (generator seeded with ``seed``). Taps are replayed at the look's density, scaled from the
    1080 px-wide phone they were found on. Screens carry no parent (their neighbours differ in look),
    so the incremental-parse figure is not measured on this set."""
    from mobile_agent.device.sim import SimPhone

    base = collect_sim_screens(seed=seed, depth=depth, max_screens=max_screens)
    rng = random.Random(f"wide-set:{seed}")
    out: list[BenchScreen] = []
    for s in base:
        wl = wide_look(rng)
        phone = SimPhone(seed=seed, width=wl.width, height=wl.height, dark=wl.dark, look=wl.look)
        scale = wl.width / 1080
        taps = tuple((int(round(x * scale)), int(round(y * scale))) for x, y in s.taps)
        try:
            if s.app is not None:
                phone.launch(s.app)
            for x, y in taps:
                phone.tap(x, y)
        except Exception:  # noqa: BLE001 - a path this look's layout refuses is left out, not fatal
            if log:
                log(f"left out: {s.name} in {wl.describe()}")
            continue
        img = phone.screenshot()
        name = f"{s.name} [{wl.describe()}]"
        out.append(BenchScreen(name, img, parse_tree(phone.ui_tree(), wl.width, wl.height), None, s.app, taps,
                               wl.describe()))
        if log:
            log(f"wide screen {len(out)}: {name}")
    return out

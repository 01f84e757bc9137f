"""The icon stress set: screens drawn with what real apps' screens do to icons, each Click Icon target
tagged with the one phenomenon it stands for.

The other icon sets draw icons in plain toolbars on flat backgrounds; on them the matcher scores far
above what it scores on real apps' screens. Real screens put icons on brand colours, on photos
under a scrim, in filled circles, under badges, beside labels, in rows of lookalikes, behind a dim
scrim. Each screen here is one kind of real screen (a home feed, a photo viewer or story, settings,
a sheet or dialog over a dimmed screen, a full-screen dialog with a chat composer, a shop), at
720x1600, 1080x2400 or 1440x3200, light or dark, some JPEG-compressed. The phenomena (a target's
``phenomenon``):

- ``coloured app bar``: white icons on a brand-coloured top bar; ``plain app bar``: the surface's;
- ``icon on photo``: white icons over a photograph under a scrim (an image viewer's Close, a
  story's Share, More options, heart and send);
- ``FAB``: an icon in a filled circle or rounded square (a floating action button, a send button);
- ``bottom navigation``: Material 3 bottom navigation, labels under the icons, the active item's
  filled icon on a pill;
- ``badge``: a dot or a count over a bell, a cart or a chat;
- ``search field``: a field with a leading magnifier and hint text (the field is the node);
- ``icon + text``: a button or chip with an icon before its label (the button is the node), a
  bottom sheet's row;
- ``settings row``: a row's leading icon beside its label, trailing chevrons and switches on every
  row (clutter);
- ``repeated (hint decides)``: a heart, share or bookmark that every post of a feed repeats; the
  target is one of them and the position hint a planner would give
  (:func:`~mobile_agent.screensets.measure.position_hint`) tells it apart (kept only where it does);
- ``profile picture``: a real photo or a letter avatar at the end of the top bar;
- ``low contrast``: grey icons faint on their background;
- ``20 dp``, ``28 dp``: top-bar actions drawn at 20 or 28 dp instead of 24;
- ``close together``: a composer's icons 32-36 dp apart (detection may merge them);
- ``full-screen dialog close``: a full-screen dialog's Close at the top start;
- ``over scrim``: a dialog's Close or a sheet's icons over a dimmed screen.

Descriptions (``DESCRIPTIONS``) are the issue's content-desc ("Navigate up", "More options",
"Search", "Open navigation drawer", "Share", "Close", "Settings", a profile picture, a heart, a cart,
a bell) and the words models write ("back arrow", "three dots", "gear", "magnifier", "bin",
"paper plane", "plus").

Icons: **Lucide** (ISC licence; the SVGs in the ``lucide`` wheel's ``lucide.zip``, rasterised by
``pygame``'s SVG loader), a style no reference set of the matcher draws and no other test set uses:
outlines on a 24 px grid at stroke 1.5-2.25, filled for a selected tab or a liked heart. Photos:
scikit-image's bundled pictures (as the second held-out set: public domain and CC0). Text fonts: the
simulated phone's other looks (Noto Sans, Open Sans, Inter, Lato, DejaVu).

The seed fixes the set; :data:`FROZEN_SHA256` is the digest of seed 0's screens and targets, and
``bench/bench_icons.py --set iconstress`` says whether the set it measured is that one and prints the
figures by phenomenon. Needs the test extra (``pip install -e .[test]``); without it a
:class:`~mobile_agent.errors.ConfigError` says what to install.
"""

from __future__ import annotations

import random
import zipfile
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from mobile_agent.screensets import drawing
from mobile_agent.screensets.icon_heldout import (ACCENTS, DARK_BG, LIGHT_BG, LINES, NAMES, HeldoutScreen, Target, _mix,
                                             _Screen)
from mobile_agent.errors import ConfigError
from mobile_agent.types import Box

SEED = 0
SCREENS = 60
# sha256 over seed 0's 60 screens and targets (:func:`set_digest`): the bench says whether it measured
# this set.
FROZEN_SHA256 = "8b2c514f0484c9d5100dd08634410c45b3258983db1886a8da74e8422fb44c46"

INSTALL = "pip install lucide==1.1.4 pygame==2.6.1 scikit-image==0.26.0 (the test extra: pip install -e .[test])"

SIZES = ((720, 1600, 2.0), (1080, 2400, 2.625), (1440, 3200, 3.5))
KINDS = ("home", "viewer", "settings", "sheet", "compose", "shop")

# family -> Lucide icon
LUCIDE: dict[str, str] = {
    "back": "arrow-left", "menu": "menu", "more": "ellipsis-vertical", "search": "search", "share": "share-2",
    "close": "x", "settings": "settings", "like": "heart", "cart": "shopping-cart", "notifications": "bell",
    "account": "circle-user", "add": "plus", "send": "send", "delete": "trash-2", "edit": "pencil",
    "home": "house", "bookmark": "bookmark", "comment": "message-circle", "mic": "mic", "camera": "camera",
    "download": "download", "filter": "sliders-horizontal", "location": "map-pin", "calendar": "calendar",
    "lock": "lock", "mail": "mail", "star": "star", "link": "link", "image": "image",
    # clutter only (never a target)
    "chevron": "chevron-right",
}

# family -> what apps put in content-desc and what models write (the words first)
DESCRIPTIONS: dict[str, tuple[str, ...]] = {
    "back": ("Navigate up", "back arrow", "Back"),
    "menu": ("Open navigation drawer", "hamburger menu"),
    "more": ("More options", "three dots"),
    "search": ("Search", "magnifier"),
    "share": ("Share",),
    "close": ("Close",),
    "settings": ("Settings", "gear"),
    "like": ("heart", "Favorite", "Like"),
    "cart": ("cart", "Shopping cart"),
    "notifications": ("bell", "Notifications"),
    "avatar": ("profile picture", "Account", "Profile photo"),
    "add": ("plus", "Add", "Create"),
    "send": ("Send", "paper plane"),
    "delete": ("Delete", "bin"),
    "edit": ("Edit", "pencil"),
    "home": ("Home",),
    "bookmark": ("Bookmark",),
    "comment": ("Comment", "chat bubble"),
    "mic": ("Voice message", "microphone"),
    "camera": ("Camera",),
    "download": ("Download",),
    "filter": ("Filter",),
    "location": ("Location", "map pin"),
    "calendar": ("Calendar",),
    "lock": ("Lock",),
    "mail": ("Mail", "envelope"),
    "link": ("Copy link", "link"),
    "image": ("Gallery", "picture"),
}

# families whose filled Lucide outline still reads as the icon (a selected tab's filled icon)
FILLABLE = ("home", "like", "bookmark", "notifications", "star", "comment", "location")

PHENOMENA = ("coloured app bar", "plain app bar", "icon on photo", "FAB", "bottom navigation", "badge",
             "search field", "icon + text", "settings row", "repeated (hint decides)", "profile picture",
             "low contrast", "20 dp", "28 dp", "close together", "full-screen dialog close", "over scrim")

TEXT_FONTS = ("noto-sans", "open-sans", "inter", "lato", "dejavu")


@dataclass
class StressIconTarget(Target):
    """One icon to find, as the held-out sets' (the description, its glyph family, the node's box:
    what counts as a hit), and the phenomenon it stands for."""

    phenomenon: str


@dataclass
class StressIconScreen(HeldoutScreen):
    """A screen of the set and its targets (each a :class:`StressIconTarget`)."""


@lru_cache(maxsize=1)
def _lucide_zip() -> dict[str, str]:
    d = drawing.package_dir("lucide")
    if d is None or not (d / "lucide.zip").exists():
        raise ConfigError(f"the icon stress set needs Lucide's icons: {INSTALL}")
    with zipfile.ZipFile(d / "lucide.zip") as z:
        return {n[:-4]: z.read(n).decode("utf-8") for n in (f"{v}.svg" for v in LUCIDE.values())}


def available() -> bool:
    """Whether Lucide's icons, pygame and scikit-image's pictures are installed."""
    from mobile_agent.screensets import icon_heldout_v2 as v2

    try:
        _lucide_zip()
        v2._pygame()
        v2._photo_file("astronaut.png")
    except ConfigError:
        return False
    return True


@lru_cache(maxsize=256)
def icon_mask(family: str, stroke: float = 2.0, filled: bool = False) -> Image.Image:
    """A Lucide icon's ink as an "L" mask at 240 px (its 24-unit frame scaled 10x, optical padding
    kept), at ``stroke`` units, its closed shapes filled when ``filled``."""
    from mobile_agent.screensets import icon_heldout_v2 as v2

    return drawing.svg_mask(_lucide_zip()[LUCIDE[family]], stroke, filled, v2._pygame())


class _StressScreen(_Screen):
    """One stress screen being drawn: Lucide icons at one stroke, items tagged with phenomena."""

    def __init__(self, rng: random.Random, index: int) -> None:
        super().__init__(rng, index)
        self.W, self.H, self.dp = rng.choice(SIZES)
        self.dark = index % 2 == 1
        self.bg = rng.choice(DARK_BG if self.dark else LIGHT_BG)
        self.fg = (230, 225, 229) if self.dark else rng.choice(((73, 69, 79), (33, 33, 33), (68, 71, 70)))
        self.text = (236, 236, 240) if self.dark else (28, 27, 31)
        self.sub = (160, 160, 170) if self.dark else (100, 100, 110)
        self.grey = (98, 98, 104) if self.dark else (176, 176, 180)  # low contrast
        self.accent = rng.choice(ACCENTS)
        self.font_name = rng.choice(TEXT_FONTS)
        self.stroke = rng.choice((1.5, 1.75, 2.0, 2.0, 2.25))
        self.img = Image.new("RGB", (self.W, self.H), self.bg)
        self.draw = ImageDraw.Draw(self.img)
        # (family, node box, phenomenon, role): role "target", "repeated" (a target told apart by
        # its hint) or "clutter"
        self.items: list[tuple[str, Box, str, str]] = []

    def glyph(self, family: str, cx: int, cy: int, color: tuple[int, int, int], size_dp: float = 24,
              filled: bool = False) -> Box:
        """Draws the icon centred at (cx, cy) in a ``size_dp`` frame; returns its ink box."""
        size = self.px(size_dp)
        small = icon_mask(family, self.stroke, filled).resize((size, size), Image.LANCZOS)
        x, y = cx - size // 2, cy - size // 2
        self.img.paste(Image.new("RGB", (size, size), color), (x, y), small)
        b = small.getbbox() or (0, 0, size, size)
        return Box(x + b[0], y + b[1], x + b[2], y + b[3])

    def node(self, cx: int, cy: int, half_dp: float = 24) -> Box:
        h = self.px(half_dp)
        return Box(max(0, cx - h), max(0, cy - h), min(self.W, cx + h), min(self.H, cy + h))

    def add(self, family: str, cx: int, cy: int, phenomenon: str, color: tuple[int, int, int] | None = None,
            size_dp: float = 24, role: str = "target", box: Box | None = None, filled: bool = False) -> Box:
        ink = self.glyph(family, cx, cy, color or self.fg, size_dp, filled)
        self.items.append((family, box or self.node(cx, cy), phenomenon, role))
        return ink

    def badge_on(self, ink: Box, on: tuple[int, int, int]) -> None:
        """A dot or a count over the icon's top end, ringed with the background's colour."""
        self.dot_or_count(ink, 3.5, 3, on, lambda: self.rng.choice((1, 2, 3, 5, 9, 12, 24, 99)), 9)

    def photo(self, w: int, h: int, face: bool = False) -> Image.Image:
        from mobile_agent.screensets.icon_heldout_v2 import _crop_photo

        return _crop_photo(self.rng, w, h, face)

    def round_avatar(self, cx: int, cy: int, side: int, photo: bool) -> None:
        if photo:
            img = self.photo(side, side, face=True)
        else:
            img = Image.new("RGB", (side, side), self.rng.choice(ACCENTS))
            d = ImageDraw.Draw(img)
            d.text((side // 2, side // 2), self.rng.choice("ABCDEGHJKLMNPRST"),
                   font=self.load_font(self.font_name, int(side * 0.5), 500), fill=(255, 255, 255), anchor="mm")
        self.img.paste(img, (cx - side // 2, cy - side // 2), drawing.round_mask(side))

    # ------------------------------------------------------------------ parts of a screen
    def status(self, on: tuple[int, int, int] | None = None) -> int:
        return self.clock_and_battery(self.px(self.rng.choice((24, 28, 32))), 13, on or self.text)

    def app_bar(self, y0: int, lead: str, title: str, actions: list[str], avatar: bool = False,
                coloured: bool | None = None) -> int:
        """A top app bar: the lead icon, a title, actions (maybe at 20 or 28 dp, a badge on a bell,
        a cart or a chat), More options, maybe the profile picture last."""
        rng, h = self.rng, self.px(64)
        coloured = rng.random() < 0.5 if coloured is None else coloured
        fg, on = self.fg, self.bg
        if coloured:
            self.draw.rectangle((0, y0, self.W, y0 + h), fill=self.accent)
            fg, on = (255, 255, 255), self.accent
        bar = "coloured app bar" if coloured else "plain app bar"
        cy = y0 + h // 2
        self.add(lead, self.px(28), cy, bar, fg)
        self.text_at(self.px(72), cy, title, 20, 500, (255, 255, 255) if coloured else self.text)
        size = rng.choice((24, 24, 20, 28))
        x = self.W - self.px(28)
        if avatar:
            self.round_avatar(x, cy, self.px(32), rng.random() < 0.6)
            self.items.append(("avatar", self.node(x, cy), "profile picture", "target"))
            x -= self.px(48)
        elif rng.random() < 0.7:
            self.add("more", x, cy, bar, fg)
            x -= self.px(48)
        for fam in actions:
            ph = bar if size == 24 else f"{size} dp"
            if fam in ("notifications", "cart", "comment"):
                ph = "badge"
            ink = self.add(fam, x, cy, ph, fg, size)
            if ph == "badge":
                self.badge_on(ink, on)
            x -= self.px(48 if size != 20 else 40)
        return y0 + h

    def search_field(self, y: int, hint: str) -> int:
        h = self.px(48)
        box = Box(self.px(16), y, self.W - self.px(16), y + h)
        self.draw.rounded_rectangle(box.as_tuple(), radius=h // 2, fill=_mix(self.bg, self.fg, 0.1))
        self.add("search", box.x1 + self.px(28), y + h // 2, "search field", self.sub, box=box)
        self.text_at(box.x1 + self.px(52), y + h // 2, hint, 16, 400, self.sub)
        return y + h + self.px(12)

    def bottom_nav(self, families: list[str]) -> int:
        """Material 3 navigation bar: 80 dp, labels, the active item's filled icon on a pill."""
        h = self.px(80)
        y = self.H - h
        self.draw.rectangle((0, y, self.W, self.H), fill=_mix(self.bg, self.accent, 0.08))
        sel = self.rng.randrange(len(families))
        slot = self.W / len(families)
        names = {"home": "Home", "search": "Explore", "like": "Saved", "notifications": "Activity",
                 "settings": "Settings", "mail": "Inbox", "bookmark": "Library", "calendar": "Plan",
                 "comment": "Chats", "cart": "Cart", "location": "Nearby"}
        for k, fam in enumerate(families):
            cx, cy = int(slot * k + slot / 2), y + self.px(28)
            if k == sel:
                self.draw.rounded_rectangle((cx - self.px(32), cy - self.px(16), cx + self.px(32), cy + self.px(16)),
                                            radius=self.px(16), fill=_mix(self.bg, self.accent, 0.3))
            box = Box(int(slot * k), y, int(slot * (k + 1)), self.H)
            self.add(fam, cx, cy, "bottom navigation", self.text if k == sel else self.fg, box=box,
                     filled=k == sel and fam in FILLABLE)
            self.text_at(cx, y + self.px(60), names.get(fam, fam.title()), 12, 600 if k == sel else 500,
                         self.text if k == sel else self.sub, "mm")
        return y

    def fab(self, bottom: int, family: str) -> None:
        s = self.px(56)
        x2, y2 = self.W - self.px(16), bottom - self.px(16)
        container = _mix(self.bg, self.accent, 0.35) if self.rng.random() < 0.5 else self.accent
        on = self.text if container != self.accent else (255, 255, 255)
        if self.rng.random() < 0.5:
            self.draw.rounded_rectangle((x2 - s, y2 - s, x2, y2), radius=self.px(16), fill=container)
        else:
            self.draw.ellipse((x2 - s, y2 - s, x2, y2), fill=container)
        self.add(family, x2 - s // 2, y2 - s // 2, "FAB", on, box=Box(x2 - s, y2 - s, x2, y2))

    def text_posts(self, top: int, bottom: int) -> None:
        """Three short posts (author, two lines, heart / comment / share / bookmark), one in each third
        of the screen: the actions repeat, one heart and one share or bookmark are targets."""
        third = (bottom - top) // 3
        want = {0: "like", 2: self.rng.choice(("share", "bookmark"))}
        for k in range(3):
            y = top + k * third + self.px(8)
            self.round_avatar(self.px(36), y + self.px(20), self.px(40), self.rng.random() < 0.5)
            self.text_at(self.px(68), y + self.px(12), NAMES[(self.index + k) % len(NAMES)], 15, 600)
            self.text_at(self.px(68), y + self.px(34), LINES[(self.index + k) % len(LINES)], 14, 400)
            self.text_at(self.px(68), y + self.px(54), LINES[(self.index + k + 3) % len(LINES)], 14, 400, self.sub)
            cy = y + self.px(88)
            x = self.px(80)
            for fam in ("like", "comment", "share"):
                self.add(fam, x, cy, "repeated (hint decides)", self.sub, 20,
                         role="repeated" if want.get(k) == fam else "clutter")
                self.text_at(x + self.px(16), cy, str(self.rng.randint(2, 480)), 13, 400, self.sub)
                x += self.px(72)
            self.add("bookmark", self.W - self.px(32), cy, "repeated (hint decides)", self.sub, 20,
                     role="repeated" if want.get(k) == "bookmark" else "clutter")

    def settings_rows(self, y: int, bottom: int, families: list[str], low: bool) -> None:
        labels = {"notifications": "Notifications", "lock": "Privacy", "location": "Location",
                  "mail": "Email", "calendar": "Reminders", "download": "Storage", "settings": "General",
                  "star": "Rate us", "image": "Wallpaper", "link": "Linked devices", "bookmark": "Saved items",
                  "edit": "Edit profile"}
        rh = self.px(64)
        for fam in families:
            if y + rh > bottom:
                break
            cy = y + rh // 2
            self.add(fam, self.px(32), cy, "low contrast" if low else "settings row", self.grey if low else self.fg)
            self.text_at(self.px(72), cy, labels[fam], 16, 400)
            if self.rng.random() < 0.5:  # a switch
                tw, th = self.px(52), self.px(32)
                x2 = self.W - self.px(16)
                on = self.rng.random() < 0.5
                self.draw.rounded_rectangle((x2 - tw, cy - th // 2, x2, cy + th // 2), radius=th // 2,
                                            fill=self.accent if on else _mix(self.bg, self.fg, 0.15),
                                            outline=None if on else self.sub, width=max(1, self.px(2)))
                r = self.px(12 if on else 8)
                kx = x2 - th // 2 if on else x2 - tw + th // 2
                self.draw.ellipse((kx - r, cy - r, kx + r, cy + r), fill=(255, 255, 255) if on else self.sub)
            else:
                self.add("chevron", self.W - self.px(28), cy, "settings row", self.sub, 20, role="clutter")
            y += rh

    def icon_buttons(self, y: int, families: list[str], chips: bool) -> int:
        """Outlined buttons or filter chips with an icon before the label (the button is the node)."""
        labels = {"share": "Share", "download": "Download", "filter": "Filters", "calendar": "Dates",
                  "location": "Nearby", "bookmark": "Save", "edit": "Edit", "link": "Copy link", "mail": "Email"}
        h = self.px(32 if chips else 40)
        x = self.px(16)
        for fam in families:
            lab = labels[fam]
            tw = int(self.draw.textlength(lab, font=self.font(14, 500)))
            w = tw + self.px(16 + 18 + 8 + 16)
            if x + w > self.W - self.px(8):
                break
            box = Box(x, y, x + w, y + h)
            self.draw.rounded_rectangle(box.as_tuple(), radius=self.px(8) if chips else h // 2,
                                        outline=self.sub, width=max(1, self.px(1)))
            self.add(fam, x + self.px(16 + 9), y + h // 2, "icon + text", self.accent if not chips else self.fg,
                     18, box=box)
            self.text_at(x + self.px(16 + 18 + 8), y + h // 2, lab, 14, 500)
            x += w + self.px(8)
        return y + h + self.px(12)

    def scrim(self, alpha: float) -> None:
        arr = np.asarray(self.img, np.float32) * (1.0 - alpha)
        self.img = Image.fromarray(arr.astype(np.uint8))
        self.draw = ImageDraw.Draw(self.img)
        # what was drawn so far is dimmed under the scrim: not targets any more
        self.items = [(f, b, p, "clutter") for f, b, p, _ in self.items]

    # ------------------------------------------------------------------ screen kinds
    def home(self) -> None:
        top = self.status()
        top = self.app_bar(top, "menu", self.rng.choice(("Home", "For you", "Threads", "Feed")),
                           self.rng.sample(["search", "notifications", "comment"], 2), avatar=self.rng.random() < 0.6)
        bottom = self.bottom_nav(self.rng.choice((["home", "search", "bookmark", "notifications"],
                                                  ["home", "mail", "calendar", "settings"])))
        self.text_posts(top + self.px(8), bottom)
        self.fab(bottom, self.rng.choice(("add", "edit")))

    def viewer(self) -> None:
        """A photo under the status bar (an image viewer, a story, a video): white icons on it under
        top and bottom scrims."""
        pic = self.photo(self.W, self.H)
        arr = np.asarray(pic, np.float32)
        ramp = np.ones(self.H, np.float32)
        k = self.px(160)
        ramp[:k] = 0.45 + 0.55 * np.linspace(0, 1, k)
        ramp[-k:] = np.minimum(ramp[-k:], 0.45 + 0.55 * np.linspace(1, 0, k))
        self.img = Image.fromarray((arr * ramp[:, None, None]).astype(np.uint8))
        self.draw = ImageDraw.Draw(self.img)
        white = (255, 255, 255)
        top = self.status(white)
        cy = top + self.px(32)
        self.add("close", self.px(28), cy, "icon on photo", white)
        self.text_at(self.px(64), cy, NAMES[self.index % len(NAMES)], 16, 600, white)
        self.add("more", self.W - self.px(28), cy, "icon on photo", white)
        self.add(self.rng.choice(("download", "share")), self.W - self.px(76), cy, "icon on photo", white)
        by = self.H - self.px(56)
        fx2 = self.W - self.px(116)
        self.draw.rounded_rectangle((self.px(16), by - self.px(22), fx2, by + self.px(22)), radius=self.px(22),
                                    outline=white, width=max(1, self.px(1)))
        self.text_at(self.px(32), by, "Send message", 15, 400, white)
        self.add("like", self.W - self.px(88), by, "icon on photo", white, 28 if self.rng.random() < 0.5 else 24)
        self.add("send", self.W - self.px(36), by, "icon on photo", white)

    def settings(self) -> None:
        top = self.status()
        top = self.app_bar(top, "back", "Settings", [], coloured=self.rng.random() < 0.3)
        y = self.search_field(top + self.px(8), self.rng.choice(("Search settings", "Search")))
        fams = self.rng.sample(["notifications", "lock", "location", "mail", "calendar", "download", "image",
                                "link", "bookmark", "star"], 7)
        self.settings_rows(y, self.H - self.px(24), fams, low=self.rng.random() < 0.35)

    def sheet(self) -> None:
        """A list screen dimmed by a scrim, and over it a bottom sheet of icon + text rows, or a
        dialog with Close."""
        top = self.status()
        top = self.app_bar(top, "back", "Photos", ["search"], coloured=False)
        y, k = top, 0
        while y + self.px(72) < self.H:
            self.round_avatar(self.px(36), y + self.px(36), self.px(40), True)
            self.text_at(self.px(72), y + self.px(36), NAMES[(self.index + k) % len(NAMES)], 16, 500)
            k += 1
            self.add("more", self.W - self.px(28), y + self.px(36), "over scrim", self.sub, 20, role="clutter")
            y += self.px(72)
        self.scrim(0.32 if not self.dark else 0.5)
        surface = _mix(self.bg, self.accent, 0.06) if not self.dark else (40, 38, 44)
        if self.rng.random() < 0.6:
            rows = self.rng.sample(["share", "link", "download", "edit", "delete", "bookmark"], 4)
            labels = {"share": "Share", "link": "Copy link", "download": "Save to device", "edit": "Edit",
                      "delete": "Delete", "bookmark": "Add to favourites"}
            rh = self.px(56)
            y0 = self.H - rh * len(rows) - self.px(48)
            self.draw.rounded_rectangle((0, y0, self.W, self.H + self.px(28)), radius=self.px(28), fill=surface)
            self.draw.rounded_rectangle((self.W // 2 - self.px(16), y0 + self.px(14), self.W // 2 + self.px(16),
                                         y0 + self.px(18)), radius=self.px(2), fill=self.sub)
            y = y0 + self.px(36)
            for fam in rows:
                self.add(fam, self.px(36), y + rh // 2, "over scrim", self.fg, box=Box(0, y, self.W, y + rh))
                self.text_at(self.px(72), y + rh // 2, labels[fam], 16, 400)
                y += rh
        else:
            w, h = self.W - self.px(48), self.px(220)
            x0, y0 = self.px(24), (self.H - h) // 2
            self.draw.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=self.px(28), fill=surface)
            self.add("close", x0 + w - self.px(32), y0 + self.px(32), "over scrim", self.fg)
            self.text_at(x0 + self.px(24), y0 + self.px(44), "Turn on backup?", 22, 400)
            self.text_at(x0 + self.px(24), y0 + self.px(90), "Photos are saved to your account.", 14, 400, self.sub)
            self.text_at(x0 + w - self.px(32), y0 + h - self.px(36), "Turn on", 14, 600, self.accent, "rm")

    def compose(self) -> None:
        """A full-screen dialog (Close at the top start, a title, Save), its fields with leading
        icons, and a chat composer's icons close together with a send button in a filled circle."""
        top = self.status()
        h = self.px(64)
        cy = top + h // 2
        self.add("close", self.px(28), cy, "full-screen dialog close", self.fg)
        self.text_at(self.px(72), cy, self.rng.choice(("New event", "New message", "Edit post")), 20, 500)
        self.text_at(self.W - self.px(24), cy, "Save", 14, 600, self.accent, "rm")
        y = top + h + self.px(8)
        y = self.icon_buttons(y, self.rng.sample(["filter", "calendar", "location", "link"], 3), chips=True)
        for fam, label in zip(self.rng.sample(["location", "calendar", "notifications", "lock", "mail"], 3),
                              ("Add location", "Add date", "Add reminder")):
            self.add(fam, self.px(32), y + self.px(28), "low contrast", self.grey, 20)
            self.text_at(self.px(72), y + self.px(28), label, 16, 400, self.sub)
            y += self.px(56)
        cy = self.H - self.px(40)
        gap = self.rng.choice((32, 36))
        x = self.px(24)
        for fam in self.rng.sample(["add", "camera", "image", "mic"], 3):
            self.add(fam, x, cy, "close together", self.fg, 22, box=self.node(x, cy, gap / 2))
            x += self.px(gap)
        self.draw.rounded_rectangle((x - self.px(6), cy - self.px(20), self.W - self.px(64), cy + self.px(20)),
                                    radius=self.px(20), fill=_mix(self.bg, self.fg, 0.1))
        self.text_at(x + self.px(8), cy, "Message", 16, 400, self.sub)
        r = self.px(22)
        bx = self.W - self.px(34)
        self.draw.ellipse((bx - r, cy - r, bx + r, cy + r), fill=self.accent)
        self.add("send", bx, cy, "FAB", (255, 255, 255), 20)

    def shop(self) -> None:
        top = self.status()
        top = self.app_bar(top, "back", self.rng.choice(("Shop", "Deals", "Store")), ["cart", "search"],
                           avatar=self.rng.random() < 0.5, coloured=self.rng.random() < 0.7)
        y = self.icon_buttons(top + self.px(12), self.rng.sample(["filter", "location", "download", "share"], 2),
                              chips=True)
        bottom = self.bottom_nav(self.rng.choice((["home", "like", "notifications", "settings"],
                                                  ["home", "comment", "mail", "location"])))
        gap = self.px(8)
        side = (self.W - gap * 3) // 2
        rows = 0
        while y + side + self.px(8) < bottom and rows < 2:
            for c in range(2):
                x = gap + c * (side + gap)
                self.img.paste(self.photo(side, side), (x, y))
                r = self.px(18)
                hx, hy = x + side - self.px(28), y + self.px(28)
                self.draw.ellipse((hx - r, hy - r, hx + r, hy + r), fill=(255, 255, 255))
                self.add("like", hx, hy, "repeated (hint decides)", (60, 60, 60), 20,
                         role="repeated" if self.rng.random() < 0.5 else "clutter")
            y += side + gap
            rows += 1

    def finish(self, kind: str) -> tuple[Image.Image, list[StressIconTarget], str]:
        from mobile_agent.screensets.measure import position_hint

        rng = self.rng
        counts: dict[str, int] = {}
        for fam, _, _, _ in self.items:
            counts[fam] = counts.get(fam, 0) + 1
        hints = [(fam, position_hint(box, self.W, self.H)) for fam, box, _, _ in self.items]
        targets = []
        for fam, box, ph, role in self.items:
            if fam not in DESCRIPTIONS or role == "clutter":
                continue
            if role == "target" and counts[fam] != 1:
                continue
            # a repeated icon is a target where its hint names it alone
            if role == "repeated" and hints.count((fam, position_hint(box, self.W, self.H))) != 1:
                continue
            targets.append(StressIconTarget(rng.choice(DESCRIPTIONS[fam]), fam, box, ph))
        img, jpg = self.screenshot((None, None, 90, 75))
        look = f"lucide stroke {self.stroke:g} {self.W}x{self.H} {'dark' if self.dark else 'light'} {self.font_name}{jpg}"
        return img, targets, look


def _screen(seed: int, index: int) -> StressIconScreen:
    rng = random.Random(f"icon-stress:{seed}:{index}")
    s = _StressScreen(rng, index)
    kind = KINDS[(index // 2) % len(KINDS)]
    getattr(s, kind)()
    img, targets, look = s.finish(kind)
    return StressIconScreen(f"iconstress-{seed}-{index:02d}-{kind}", img, targets, look)


def stress_screen(index: int, seed: int = SEED) -> StressIconScreen:
    """Screen ``index`` of the set drawn from ``seed`` (as :func:`stress_screens` draws it)."""
    return _screen(seed, index)


def stress_screens(seed: int = SEED, count: int = SCREENS) -> list[StressIconScreen]:
    """``count`` screens from ``seed``; screen ``i`` is dark when ``i`` is odd, its kind
    ``KINDS[(i // 2) % 6]`` (each screen from its own generator)."""
    return [_screen(seed, i) for i in range(count)]


def set_digest(screens: list[StressIconScreen]) -> str:
    return drawing.digest(
        screens, lambda s: (f"{t.description}|{t.family}|{t.box.as_tuple()}|{t.phenomenon}" for t in s.targets))


__all__ = ["DESCRIPTIONS", "FROZEN_SHA256", "PHENOMENA", "SCREENS", "SEED", "StressIconScreen", "StressIconTarget",
           "available", "icon_mask", "set_digest", "stress_screen", "stress_screens"]

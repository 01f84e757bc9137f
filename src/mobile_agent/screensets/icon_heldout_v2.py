"""The second held-out icon set (v2), built to have what real apps' screens have and the first set
lacks (measured before any matcher change, it was no harder in total than the first: see
docs/perception.md).

The first held-out set (``icon_heldout``) draws solid dingbat-style glyphs on flat backgrounds
beside synthetic photos; on it the matcher scored far above what it scored on real apps' screens.
This set adds what real screens have:

- another icon style that no reference set of the matcher draws: **Tabler Icons** (MIT; the SVGs
  of the ``pytablericons`` wheel, rasterised by ``pygame``'s SVG loader), thin-stroke outlines on a
  24 px grid (the look of Material Symbols Outlined, iOS, Lucide, Feather) drawn at stroke widths
  1.25-2, and Tabler's filled variants for selected tabs, liked hearts and such;
- **real photographs** as clutter: the public-domain and CC0 pictures bundled in the
  ``scikit-image`` wheel (``skimage/data``: astronaut, chelsea, coffee, rocket, hubble deep field,
  retina, camera), cropped and scaled into thumbnails, hero banners, product shots and avatars;
- icons **on photos** (Navigate up, Share, Favorite drawn white over a hero picture, bare or on a
  dark translucent disc), on **gradients** (a gradient top bar), inside **coloured pills**
  (tonal buttons with an icon and a label), **beside text** (settings rows with a leading icon and a
  label, a like or comment icon right before its count), **low-contrast** grey icons, **badges**
  overlapping the bell or the cart, **selected bottom-navigation pills with labels**, icons of
  18-24 dp at 720 px wide, light and dark;
- descriptions as apps' content-desc and models word them (``DESCRIPTIONS``).

Targets are the icons whose glyph family occurs once on their screen, the hit box the 48 dp touch
target an app's node would have (as in the first set).

Held out: nothing in ``mobile_agent.perception`` reads Tabler's icons or scikit-image's photos, no
test draws them (tests draw Phosphor and Remix), and the matcher was not tuned on these screens
(see docs/perception.md, "The second held-out icon set"). :data:`FROZEN_SHA256` is the digest of
seed 0's 60 screens and targets; ``bench/bench_icons.py --set heldout2`` says whether the set it
measured is that one. Needs the test extra (``pip install -e .[test]``: pytablericons, pygame,
scikit-image); without it a :class:`~mobile_agent.errors.ConfigError` says so.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from mobile_agent.screensets import drawing
from mobile_agent.screensets.icon_heldout import (DESCRIPTIONS as V1_DESCRIPTIONS, LINES, NAMES, SAME, TITLES,
                                             HeldoutScreen, _avatar, _gradient, _mix, _Screen, set_digest)
from mobile_agent.errors import ConfigError
from mobile_agent.types import Box

SEED = 0
SCREENS = 60
# sha256 over seed 0's 60 screens (pixels, size) and targets, as :func:`set_digest` computes it.
FROZEN_SHA256 = "7c56fe6b682fad4a7c68b8f86d2ba6d4a0ff0faf78da7707b3a3efb8392bf704"

INSTALL = "pip install pytablericons==1.0.1 pygame==2.6.1 scikit-image==0.26.0 (the test extra: pip install -e .[test])"

# family -> Tabler outline icon names (the first is the usual one; a screen picks one per family)
OUTLINE: dict[str, tuple[str, ...]] = {
    "back": ("arrow-left", "arrow-left", "chevron-left"), "menu": ("menu-2", "menu"), "more": ("dots-vertical",),
    "search": ("search",), "share": ("share", "share-2", "share-3"), "close": ("x",), "settings": ("settings",),
    "like": ("heart",), "cart": ("shopping-cart",), "notifications": ("bell",), "add": ("plus",),
    "send": ("send",), "account": ("user", "user-circle"), "mic": ("microphone",), "camera": ("camera",),
    "edit": ("pencil", "edit"), "delete": ("trash",), "home": ("home",), "star": ("star",),
    "refresh": ("refresh",), "attach": ("paperclip",), "mail": ("mail",), "call": ("phone",),
    "location": ("map-pin",), "bookmark": ("bookmark",), "comment": ("message-circle",),
    "calendar": ("calendar",), "download": ("download",), "lock": ("lock",),
    "filter": ("filter", "adjustments-horizontal"),
}
# families that Tabler also draws filled (selected tabs, a liked heart)
FILLED: dict[str, str] = {
    "settings": "settings", "like": "heart", "cart": "shopping-cart", "notifications": "bell", "account": "user",
    "home": "home", "star": "star", "mail": "mail", "bookmark": "bookmark", "location": "map-pin",
    "camera": "camera", "delete": "trash", "lock": "lock", "mic": "microphone", "calendar": "calendar",
}

# scikit-image's bundled pictures used here, with their licence as the package documents it
PHOTOS: dict[str, str] = {
    "astronaut.png": "public domain (NASA)", "chelsea.png": "CC0 (Stefan van der Walt)",
    "coffee.png": "CC0 (Rachel Michetti)", "rocket.jpg": "public domain (SpaceX)",
    "hubble_deep_field.jpg": "public domain (NASA)", "retina.jpg": "CC0 (Mikael Häggström)",
    "camera.png": "CC0 (Lav Varshney)",
}
# where the faces are, for avatars: file -> (x1, y1, x2, y2) fractions of the picture
FACES: dict[str, tuple[float, float, float, float]] = {
    "astronaut.png": (0.28, 0.02, 0.62, 0.40), "chelsea.png": (0.30, 0.10, 0.70, 0.75),
    "camera.png": (0.35, 0.05, 0.65, 0.40), "coffee.png": (0.25, 0.05, 0.75, 0.80),
}

# family -> descriptions: the first set's, and what apps and models say of the families it lacks
DESCRIPTIONS: dict[str, tuple[str, ...]] = {
    **V1_DESCRIPTIONS,
    "back": ("Navigate up", "Back", "back arrow"),
    "like": ("Favorite", "heart", "Like", "Add to favorites"),
    "delete": ("Delete", "trash can", "bin"),
    "edit": ("Edit", "pencil"),
    "filter": ("Filter", "filters"),
    "mail": ("Mail", "Inbox", "envelope"),
    "download": ("Download",),
    "lock": ("Lock",),
}

SETTINGS_ROWS: dict[str, str] = {
    "notifications": "Alerts & sounds", "lock": "Privacy and security", "location": "Places you visit",
    "mail": "Email digests", "calendar": "Reminders", "download": "Offline storage", "call": "Contact support",
    "star": "Rate this app", "account": "Your details", "bookmark": "Saved for later", "camera": "Media quality",
    "refresh": "Backup and restore", "delete": "Clear history", "attach": "Shared files",
}


def available() -> bool:
    """Whether Tabler's icons, pygame and scikit-image's pictures are installed."""
    try:
        _tabler_dir()
        _photo_file("astronaut.png")
        _pygame()
    except ConfigError:
        return False
    return True


@lru_cache(maxsize=1)
def _tabler_dir() -> Path:
    d = drawing.package_dir("pytablericons")
    if d is None or not (d / "icons" / "outline" / "bell.svg").exists():
        raise ConfigError(f"the second held-out icon set needs Tabler Icons: {INSTALL}")
    return d / "icons"


def _pygame():
    return drawing.pygame_module("the second held-out icon set", INSTALL)


def _photo_file(name: str) -> Path:
    return drawing.skimage_file(name, "the second held-out icon set", INSTALL)


def _picture(name: str) -> Image.Image:
    return drawing.skimage_picture(name, "the second held-out icon set", INSTALL)


@lru_cache(maxsize=512)
def _icon_mask(style: str, name: str, stroke: float) -> Image.Image:
    """A Tabler icon's ink as an "L" mask, rendered at 240 px (a 24 px grid scaled 10x), cropped to
    the icon's 24-unit frame (not to its ink: outline icons keep their optical padding)."""
    svg = (_tabler_dir() / style / f"{name}.svg").read_text(encoding="utf-8")
    return drawing.svg_mask(svg, stroke, False, _pygame())


def _crop_photo(rng: random.Random, w: int, h: int, face: bool = False) -> Image.Image:
    """A ``w`` x ``h`` piece of one of the real pictures (a face region for avatars), slightly
    recoloured so that no two look alike."""
    name = rng.choice(tuple(FACES) if face else tuple(PHOTOS))
    pic = _picture(name)
    pw, ph = pic.size
    if face:
        fx1, fy1, fx2, fy2 = FACES[name]
        box = (fx1 * pw, fy1 * ph, fx2 * pw, fy2 * ph)
    else:
        scale = rng.uniform(0.45, 1.0)
        cw = min(pw, ph * w / max(1, h)) * scale
        ch = cw * h / max(1, w)
        x0, y0 = rng.uniform(0, pw - cw), rng.uniform(0, max(0.0, ph - ch))
        box = (x0, y0, x0 + cw, y0 + ch)
    img = pic.crop(tuple(int(v) for v in box)).resize((max(1, w), max(1, h)), Image.LANCZOS)
    arr = np.asarray(img, np.float32) * np.array([rng.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    return Image.fromarray(np.clip(arr + rng.uniform(-15, 15), 0, 255).astype(np.uint8))


class _Screen2(_Screen):
    """A v2 screen: Tabler icons (one stroke width per screen), real photos, the harder parts."""

    descriptions = DESCRIPTIONS
    bar_actions = ("search", "share", "notifications", "cart", "settings", "like", "refresh", "filter", "edit",
                   "delete", "calendar", "mail")
    bar_avatar_chance, bar_badge_chance = 0.4, 0.7
    nav_label_chance, nav_shade = 0.8, 0.05
    nav_items = (*_Screen.nav_items, ["home", "bookmark", "mail", "account"])
    nav_names = {"home": "Home", "search": "Search", "like": "Saved", "account": "You", "add": "Create",
                 "notifications": "Activity", "comment": "Chats", "settings": "Settings", "cart": "Cart",
                 "bookmark": "Library", "mail": "Inbox"}

    def __init__(self, rng: random.Random, index: int) -> None:
        super().__init__(rng, index)
        self.icon_set = "tabler"
        self.stroke = rng.choice((1.25, 1.5, 1.5, 1.75, 2.0))
        self.variant = {fam: rng.choice(names) for fam, names in OUTLINE.items()}
        if self.W == 720:
            self.icon_dp = rng.choice((18, 20, 22, 24))
        self.low_contrast = rng.random() < 0.3
        if self.low_contrast:
            self.fg = (120, 120, 128) if self.dark else (158, 158, 158)

    def icon(self, family: str, cx: int, cy: int, color: tuple[int, int, int] | None = None,
             size_dp: float | None = None, target: bool = True, filled: bool = False) -> Box:
        family = SAME.get(family, family) if family == "like_outline" else family
        if family not in OUTLINE:
            family = "star"
        if filled and family in FILLED:
            m = _icon_mask("filled", FILLED[family], 2.0)
        else:
            m = _icon_mask("outline", self.variant[family], self.stroke)
        size = self.px(size_dp or self.icon_dp)
        small = m.resize((size, size), Image.LANCZOS)
        x, y = cx - size // 2, cy - size // 2
        self.img.paste(Image.new("RGB", (size, size), color or self.fg), (x, y), small)
        self.touch(family, cx, cy, target)
        box = small.getbbox() or (0, 0, size, size)
        return Box(x + box[0], y + box[1], x + box[2], y + box[3])

    def avatar_photo(self, side: int) -> tuple[Image.Image, Image.Image]:
        return _crop_photo(self.rng, side, side, face=True), drawing.round_mask(side)

    # ------------------------------------------------------------------ parts of a screen
    def badge2(self, ink: Box) -> None:
        """A badge that overlaps the icon's ink (a dot or a count)."""
        self.dot_or_count(ink, 4, 2, self.bg, lambda: self.rng.randint(1, 99), 10)

    def hero(self, y: int, bottom: int) -> int:
        """A detail page: a photo under the status bar with Navigate up, Share and Favorite drawn
        over it, then a title, text, tonal pills with an icon and a label."""
        rng = self.rng
        ph = min(bottom - y - self.px(200), int(self.W * rng.uniform(0.6, 0.9)))
        self.img.paste(_crop_photo(rng, self.W, ph), (0, y))
        cy = y + self.px(32)
        scrim = rng.random() < 0.5
        for fam, cx in (("back", self.px(28)), ("share", self.W - self.px(76)), ("like", self.W - self.px(28))):
            if scrim:
                r = self.px(18)
                disc = Image.new("RGB", (2 * r, 2 * r), (0, 0, 0))
                m = Image.new("L", (8 * r, 8 * r), 0)
                ImageDraw.Draw(m).ellipse((0, 0, 8 * r - 1, 8 * r - 1), fill=110)
                self.img.paste(disc, (cx - r, cy - r), m.resize((2 * r, 2 * r), Image.LANCZOS))
            self.icon(fam, cx, cy, (255, 255, 255), 24)
        y += ph + self.px(16)
        self.text_at(self.px(16), y + self.px(12), rng.choice(("Coastal walk", "Weekend in Lisbon", "Cold brew guide",
                                                                 "Night sky photos")), 22, 600)
        y += self.px(36)
        for k in range(rng.randint(2, 4)):
            if y + self.px(24) > bottom - self.px(60):
                break
            self.text_at(self.px(16), y + self.px(10), LINES[(self.index + k) % len(LINES)] + " and more details here",
                         14, 400, self.sub)
            y += self.px(22)
        y += self.px(12)
        x = self.px(16)
        for fam, label in rng.sample([("bookmark", "Save"), ("call", "Call"), ("location", "Directions"),
                                      ("download", "Download"), ("calendar", "Book")], 2):
            f = self.font(14, 500)
            w = int(self.draw.textlength(label, font=f)) + self.px(56)
            if y + self.px(40) > bottom or x + w > self.W:
                break
            fill = _mix(self.bg, self.accent, rng.choice((0.18, 0.3, 1.0)))
            on = (255, 255, 255) if fill == self.accent else self.text
            self.draw.rounded_rectangle((x, y, x + w, y + self.px(40)), radius=self.px(20), fill=fill)
            self.icon(fam, x + self.px(22), y + self.px(20), on, 18)
            self.text_at(x + self.px(38), y + self.px(20), label, 14, 500, on)
            x += w + self.px(8)
        return y + self.px(48)

    def settings_rows(self, y: int, bottom: int) -> None:
        """Text-heavy rows: a leading icon beside a label and a second line, a trailing chevron."""
        rng = self.rng
        rh = self.px(rng.choice((56, 64, 72)))
        fams = rng.sample(list(SETTINGS_ROWS), len(SETTINGS_ROWS))
        for fam in fams:
            if y + rh > bottom:
                break
            cy = y + rh // 2
            self.icon(fam, self.px(28), cy, self.fg, rng.choice((20, 24)))
            self.text_at(self.px(64), cy - self.px(9), SETTINGS_ROWS[fam], 16, 400)
            self.text_at(self.px(64), cy + self.px(11), rng.choice(LINES), 13, 400, self.sub)
            m = _icon_mask("outline", "chevron-right", self.stroke)
            s = self.px(18)
            self.img.paste(Image.new("RGB", (s, s), self.sub), (self.W - self.px(34), cy - s // 2),
                           m.resize((s, s), Image.LANCZOS))
            y += rh

    def feed(self, y: int, bottom: int) -> None:
        """Posts with real photos; like and comment icons right before their counts."""
        rng = self.rng
        while y + self.px(200) < bottom:
            side = self.px(36)
            img, mask = self.avatar_photo(side)
            self.img.paste(img, (self.px(16), y + self.px(8)), mask)
            self.placed.append(("avatar", Box(self.px(16), y + self.px(8), self.px(16) + side, y + self.px(8) + side),
                                False))
            self.text_at(self.px(60), y + self.px(26), rng.choice(NAMES), 14, 600)
            y += self.px(52)
            ph = min(int(self.W * rng.uniform(0.5, 0.8)), bottom - y - self.px(56))
            if ph < self.px(100):
                break
            self.img.paste(_crop_photo(rng, self.W, ph), (0, y))
            y += ph
            cy = y + self.px(24)
            x = self.px(28)
            liked = rng.random() < 0.4
            for fam in ("like", "comment", "share"):
                ink = self.icon(fam, x, cy, (237, 73, 86) if fam == "like" and liked else None, filled=fam == "like" and liked)
                count = f"{rng.randint(2, 999)}" if rng.random() < 0.6 else f"{rng.randint(1, 9)}.{rng.randint(0, 9)}K"
                if fam != "share":
                    self.text_at(ink.x2 + self.px(4), cy, count, 14, 500)
                    x += self.px(84)
                else:
                    x += self.px(48)
            self.icon("bookmark", self.W - self.px(28), cy)
            y += self.px(56)
            break  # one post per screen keeps like/comment/share unique

    def shop_grid(self, y: int, bottom: int) -> int:
        """A search field (magnifier, mic inside it), a Filter pill, product photos with hearts on
        them (no disc: the icon lies on the picture)."""
        rng = self.rng
        fh = self.px(48)
        fill = _mix(self.bg, self.fg, 0.08)
        self.draw.rounded_rectangle((self.px(16), y, self.W - self.px(16), y + fh), radius=self.px(24), fill=fill)
        cy = y + fh // 2
        self.icon("search", self.px(40), cy, self.sub, 20)
        self.text_at(self.px(60), cy, rng.choice(("Search products", "Search", "Find a recipe")), 15, 400, self.sub)
        if rng.random() < 0.6:
            self.icon("mic", self.W - self.px(40), cy, self.sub, 20)
        y += fh + self.px(12)
        f = self.font(14, 500)
        label = "Filter"
        w = int(self.draw.textlength(label, font=f)) + self.px(52)
        self.draw.rounded_rectangle((self.px(16), y, self.px(16) + w, y + self.px(32)), radius=self.px(8),
                                    outline=self.sub, width=max(1, self.px(1)))
        self.icon("filter", self.px(34), y + self.px(16), self.text, 18)
        self.text_at(self.px(50), y + self.px(16), label, 14, 500)
        y += self.px(44)
        cols = 2
        gap = self.px(8)
        side = (self.W - gap * 3) // cols
        hearts = 0
        while y + side + self.px(48) <= bottom:
            for c in range(cols):
                x0 = gap + c * (side + gap)
                self.img.paste(_crop_photo(rng, side, side), (x0, y))
                if hearts == 0:
                    self.icon("like", x0 + side - self.px(22), y + self.px(22), (255, 255, 255), 22)
                    hearts += 1
                self.text_at(x0 + self.px(4), y + side + self.px(14), f"${rng.randint(5, 180)}", 14, 600)
            y += side + self.px(40)
        return y

    def bar_badge(self, ink: Box) -> None:
        self.badge2(ink)

    def nav_icon(self, family: str, cx: int, cy: int, selected: bool) -> None:
        """The selected tab's icon filled; a bell, cart or mail may carry a badge."""
        ink = self.icon(family, cx, cy, self.text if selected else self.fg, 24, filled=selected)
        if family in ("notifications", "cart", "mail") and self.rng.random() < 0.5:
            self.badge2(ink)

    def chat_list(self, y: int, bottom: int) -> None:
        """Conversations: real-photo avatars, names, the last message, a time."""
        rng = self.rng
        rh = self.px(72)
        k = 0
        while y + rh <= bottom:
            cy = y + rh // 2
            side = self.px(44)
            if rng.random() < 0.75:
                img, mask = self.avatar_photo(side)
            else:
                img, mask = _avatar(rng, side, False, self.font(18, 500))
            self.img.paste(img, (self.px(16), cy - side // 2), mask)
            self.placed.append(("avatar", Box(self.px(16), cy - side // 2, self.px(16) + side, cy + side // 2), False))
            self.text_at(self.px(72), cy - self.px(10), NAMES[(self.index + k) % len(NAMES)], 16, 600)
            self.text_at(self.px(72), cy + self.px(11), LINES[(self.index * 3 + k) % len(LINES)], 14, 400, self.sub)
            self.text_at(self.W - self.px(16), cy - self.px(10), f"{rng.randint(1, 12)}:{rng.randint(0, 59):02d}", 12,
                         400, self.sub, "rm")
            y += rh
            k += 1

    def fab2(self, bottom: int) -> None:
        rng = self.rng
        s = self.px(56)
        x2, y2 = self.W - self.px(16), bottom - self.px(16)
        extended = rng.random() < 0.4
        container = _mix(self.bg, self.accent, 0.35) if rng.random() < 0.5 else self.accent
        on = self.text if container != self.accent else (255, 255, 255)
        fam = rng.choice(("add", "add", "edit"))
        if extended:
            label = "Compose" if fam == "edit" else "New"
            w = int(self.draw.textlength(label, font=self.font(15, 500))) + self.px(64)
            self.draw.rounded_rectangle((x2 - w, y2 - s, x2, y2), radius=self.px(16), fill=container)
            self.icon(fam, x2 - w + self.px(28), y2 - s // 2, on, 24)
            self.text_at(x2 - w + self.px(48), y2 - s // 2, label, 15, 500, on)
        else:
            self.draw.rounded_rectangle((x2 - s, y2 - s, x2, y2), radius=self.px(16), fill=container)
            self.icon(fam, x2 - s // 2, y2 - s // 2, on, 24)

    composer_layout = (12, 26, 40, 60)
    composer_icon_dp = 22

    def message_field(self, x: int, cy: int, right: int) -> None:
        """An outlined field."""
        self.draw.rounded_rectangle((x - self.px(14), cy - self.px(20), right, cy + self.px(20)), radius=self.px(20),
                                    outline=self.sub, width=max(1, self.px(1)))
        self.text_at(x, cy, "Message", 16, 400, self.sub)

    def send_button(self, family: str, cy: int) -> None:
        """On an accent disc half the time, else an accent glyph of its own."""
        if self.rng.random() < 0.5:
            super().send_button(family, cy)
        else:
            self.icon(family, self.W - self.px(32), cy, self.accent, 24)


def _screen(seed: int, index: int) -> HeldoutScreen:
    rng = random.Random(f"heldout-icons-v2:{seed}:{index}")
    s = _Screen2(rng, index)
    kind = rng.choice(("detail", "settings", "feed", "shop", "chats", "chat"))
    top = s.status_bar()
    bottom = s.H
    if kind == "detail":
        if rng.random() < 0.5:
            bottom = s.bottom_nav()
        s.hero(top, bottom)
    elif kind == "chat":
        top = s.top_bar(top, True, rng.choice(("plain", "plain", "gradient", "accent")))
        s.composer()
        s.bubbles(top + s.px(16), s.H - s.px(96))
    else:
        top = s.top_bar(top, kind in ("shop", "chats", "feed"), rng.choice(("plain", "plain", "gradient", "accent")))
        if rng.random() < 0.7:
            bottom = s.bottom_nav()
        y = top + s.px(8)
        if kind == "chats":
            s.chat_list(s.chips(y) if rng.random() < 0.5 else y, bottom)
        else:
            {"settings": s.settings_rows, "feed": s.feed, "shop": s.shop_grid}[kind](y, bottom)
        if kind in ("chats", "settings") and rng.random() < 0.5:
            s.fab2(bottom)
    img, targets, look = s.finish()
    look = look.replace("tabler", f"tabler stroke {s.stroke:g}") + (" low-contrast" if s.low_contrast else "")
    return HeldoutScreen(f"heldout2-{seed}-{index:02d}-{kind}", img, targets, look)


def heldout_screens(seed: int = SEED, count: int = SCREENS) -> list[HeldoutScreen]:
    """The second held-out icon set: ``count`` screens drawn from ``seed`` (each from its own
    generator, so the first screens of a larger set are those of a smaller one)."""
    return [_screen(seed, i) for i in range(count)]


__all__ = ["DESCRIPTIONS", "FROZEN_SHA256", "SCREENS", "SEED", "available", "heldout_screens", "set_digest"]

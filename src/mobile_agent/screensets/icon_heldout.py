"""The held-out icon set: screens laid out as real Android apps lay them out, drawn with icon fonts
that the icon matcher neither uses as references nor was developed against.

Why it exists: the sim and wide sets come from the simulated phone, whose layouts this project drew
and whose icons (Material Design Icons; Phosphor and Remix in the wide set) the matcher's work was
measured on while it was developed. Real apps' screens scored far lower. This set is meant to be
closer to them and to stay unseen:

- layouts: dense top app bars (Navigate up or the drawer's hamburger, a title, two or three
  actions, an overflow ⋮, sometimes the account's avatar photo), on the surface colour or on a
  coloured bar; list rows with circular avatar photos or letter avatars and a trailing icon;
  photo grids and cards with like / comment / share / bookmark actions; a chat with a composer
  (attach, camera, send); a product page with a large photo; chips; bottom navigation bars of 4-5
  icons with and without labels and a selected pill; FABs; badges on bells and carts;
- icons from **Entypo** (Debian ``fonts-entypo``, SIL OFL) and **Glyphicons Halflings** (Debian
  ``fonts-glyphicons-halflings``, MIT, as shipped with Bootstrap 3), at 18-32 dp, at 720, 1080 and
  1440 px wide (320-411 dp wide), light and dark, some screens JPEG-compressed;
- descriptions as apps' content-desc and models word them ("Navigate up", "More options",
  "Open navigation drawer", "profile picture", "heart", "bell", "cart", ...).

Targets are the icons whose glyph family occurs once on their screen (a trailing icon repeated on
every row is clutter, not a target); the box is the 48 dp touch target an app's node would have.

Held out: nothing in ``mobile_agent.perception`` reads these fonts, tests do not draw from them,
and the matcher was not tuned on these screens (see docs/perception.md, "The held-out icon set").
The seed fixes the set; :data:`FROZEN_SHA256` is the digest of seed 0's 60 screens and targets, and
``bench/bench_icons.py --set heldout`` says whether the set it measured is that one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from mobile_agent.screensets.drawing import digest, jpeg, round_mask
from mobile_agent.errors import ConfigError
from mobile_agent.types import Box

SEED = 0
SCREENS = 60
# sha256 over seed 0's 60 screens (pixels, size) and targets, as :func:`set_digest` computes it.
FROZEN_SHA256 = "1bb3d7424bb89faf22f1236395bc84a244b15f84780c983a94f8359b563917c2"

FONTS: dict[str, tuple[tuple[str, ...], str]] = {
    "entypo": (("/usr/share/fonts/truetype/fonts-entypo/entypo.ttf",), "apt-get install fonts-entypo"),
    "glyphicons": (("/usr/share/fonts/truetype/glyphicons/glyphicons-halflings-regular.ttf",
                    "/usr/share/fonts-glyphicons/glyphicons-halflings-regular.ttf"),
                   "apt-get install fonts-glyphicons-halflings"),
}

# family -> code point, or (code point, degrees counter-clockwise)
GLYPHS: dict[str, dict[str, int | tuple[int, int]]] = {
    "entypo": {
        "back": 0x2190, "menu": 0x2630, "more": (0xE78D, 90), "search": 0x1F50D, "share": 0xE73C,
        "close": 0x2715, "settings": 0x2699, "like": 0x2665, "like_outline": 0x2661, "cart": 0xE73D,
        "notifications": 0x1F514, "add": 0x2B, "send": 0xE79B, "account": 0x1F464, "mic": 0x1F3A4,
        "camera": 0x1F4F7, "edit": 0x270E, "delete": 0xE729, "home": 0x2302, "star": 0x2605,
        "refresh": 0x27F3, "attach": 0x1F4CE, "mail": 0x2709, "call": 0x1F4DE, "location": 0xE724,
        "bookmark": 0x1F516, "comment": 0xE720, "calendar": 0x1F4C5, "download": 0x1F4E5, "lock": 0x1F512,
    },
    "glyphicons": {
        "back": 0xE091, "menu": 0xE236, "more": 0xE235, "search": 0xE003, "share": 0xE066, "close": 0xE014,
        "settings": 0xE019, "like": 0xE005, "like_outline": 0xE143, "cart": 0xE116, "notifications": 0xE123,
        "add": 0x2B, "send": 0xE171, "account": 0xE008, "camera": 0xE046, "edit": 0x270F, "delete": 0xE020,
        "home": 0xE021, "star": 0xE006, "refresh": 0xE031, "attach": 0xE142, "mail": 0x2709, "call": 0xE182,
        "location": 0xE062, "bookmark": 0xE044, "comment": 0xE111, "calendar": 0xE109, "download": 0xE025,
        "lock": 0xE033, "filter": 0xE138,
    },
}

# family -> what apps put in content-desc and what models write for it
DESCRIPTIONS: dict[str, tuple[str, ...]] = {
    "back": ("Navigate up", "Back", "back arrow"),
    "menu": ("Open navigation drawer", "menu", "hamburger menu"),
    "more": ("More options", "three dots", "More"),
    "search": ("Search", "magnifier", "search icon"),
    "share": ("Share", "share button"),
    "close": ("Close", "close button"),
    "settings": ("Settings", "gear"),
    "like": ("Favorite", "heart", "Like"),
    "like_outline": ("Favorite", "heart", "Like"),
    "cart": ("cart", "Shopping cart"),
    "notifications": ("Notifications", "bell"),
    "add": ("Add", "plus", "Create"),
    "send": ("Send", "paper plane"),
    "account": ("Account", "person", "Profile"),
    "avatar": ("profile picture", "Profile photo", "account avatar"),
    "mic": ("Voice search", "microphone"),
    "camera": ("Camera", "take photo"),
    "edit": ("Edit", "pencil", "Compose"),
    "delete": ("Delete", "trash can"),
    "home": ("Home",),
    "star": ("star", "Starred"),
    "refresh": ("Refresh",),
    "attach": ("Attach file", "attachment"),
    "call": ("Call", "phone"),
    "bookmark": ("Bookmark",),
    "comment": ("Comment", "chat bubble"),
    "filter": ("Filter",),
    "location": ("Location", "map pin"),
    "calendar": ("Calendar",),
}
# Families that are one thing for a description (an outlined heart is a heart; a person glyph and
# an avatar photo are both the account).
SAME = {"like_outline": "like", "avatar": "account"}

SIZES = ((720, 1600), (1080, 2400), (1080, 2340), (1440, 3200), (1440, 3120))
WIDTH_DP = (360, 393, 411)
TEXT_FONTS = ("noto-sans", "open-sans", "inter", "lato", "dejavu")
ACCENTS = ((103, 80, 164), (11, 87, 208), (0, 110, 80), (186, 26, 26), (176, 92, 0), (0, 106, 106),
           (25, 118, 210), (233, 30, 99))
LIGHT_BG = ((255, 255, 255), (250, 250, 250), (254, 247, 255), (248, 249, 250))
DARK_BG = ((18, 18, 18), (28, 27, 31), (0, 0, 0), (17, 24, 39))
TITLES = ("Inbox", "Photos", "Messages", "Shop", "Discover", "Library", "Contacts", "Orders", "Recipes",
          "Trips", "Files", "Podcasts")
NAMES = ("Alice Chen", "Bob Martin", "Carla Diaz", "Deepak Rao", "Emma Stone", "Farid Haddad", "Grace Kim",
         "Hugo Weber", "Ines Costa", "Jonas Berg", "Keiko Sato", "Liam Walsh")
LINES = ("See you tomorrow at 10", "Photos from the trip", "Your order has shipped", "Can you call me back?",
         "Meeting notes attached", "Happy birthday!", "Price dropped by 20%", "New comment on your post")
CHIPS = ("All", "Unread", "Starred", "Nearby", "Open now", "Top rated", "Under $20", "Family")


@dataclass
class Target:
    """One icon to find: the description a planner or an app would give, its glyph family, and the
    touch target (48 dp around the icon) that counts as a hit."""

    description: str
    family: str
    box: Box


@dataclass
class HeldoutScreen:
    name: str
    image: Image.Image
    targets: list[Target] = field(default_factory=list)
    look: str = ""


@lru_cache(maxsize=8)
def _font_path(icon_set: str) -> str:
    paths, install = FONTS[icon_set]
    for p in paths:
        if Path(p).exists():
            return p
    raise ConfigError(f"the held-out icon set needs the {icon_set} font: {install}")


def available() -> bool:
    """Whether both held-out icon fonts are installed."""
    try:
        for s in FONTS:
            _font_path(s)
    except ConfigError:
        return False
    return True


@lru_cache(maxsize=256)
def _glyph_mask(icon_set: str, family: str) -> Image.Image:
    """The glyph's ink as an "L" mask at 200 px, cropped tight."""
    spec = GLYPHS[icon_set][family]
    cp, deg = (spec, 0) if isinstance(spec, int) else spec
    font = ImageFont.truetype(_font_path(icon_set), 200)
    img = Image.new("L", (420, 420), 0)
    ImageDraw.Draw(img).text((100, 100), chr(cp), font=font, fill=255)
    if deg:
        img = img.rotate(deg, resample=Image.BICUBIC)
    box = img.getbbox()
    assert box is not None, (icon_set, family)
    return img.crop(box)


def _paste_glyph(img: Image.Image, icon_set: str, family: str, cx: int, cy: int, size: int,
                 color: tuple[int, int, int]) -> Box:
    """Draw the glyph with its larger side ``size`` px, centred at (cx, cy); returns its ink box."""
    m = _glyph_mask(icon_set, family)
    scale = size / max(m.size)
    w, h = max(1, round(m.width * scale)), max(1, round(m.height * scale))
    small = m.resize((w, h), Image.LANCZOS)
    x, y = cx - w // 2, cy - h // 2
    img.paste(Image.new("RGB", (w, h), color), (x, y), small)
    return Box(x, y, x + w, y + h)


def _photo(rng: random.Random, w: int, h: int) -> Image.Image:
    """A colourful, textured picture (a thumbnail, a product shot): a gradient, blurred shapes, noise."""
    c1 = tuple(rng.randrange(256) for _ in range(3))
    c2 = tuple(rng.randrange(256) for _ in range(3))
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    arr = (np.array(c1, np.float32) * (1 - t) + np.array(c2, np.float32) * t) * np.ones((h, w, 3), np.float32)
    img = Image.fromarray(arr.astype(np.uint8))
    d = ImageDraw.Draw(img)
    for _ in range(rng.randint(3, 7)):
        x0, y0 = rng.randrange(w), rng.randrange(h)
        s = rng.randint(max(2, min(w, h) // 8), max(3, min(w, h) // 2))
        col = tuple(rng.randrange(256) for _ in range(3))
        if rng.random() < 0.5:
            d.ellipse((x0 - s, y0 - s, x0 + s, y0 + s), fill=col)
        else:
            d.rectangle((x0 - s, y0 - s // 2, x0 + s, y0 + s // 2), fill=col)
    img = img.filter(ImageFilter.GaussianBlur(max(1, min(w, h) // 40)))
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 9, (h, w, 3))
    return Image.fromarray(np.clip(np.asarray(img, np.float32) + noise, 0, 255).astype(np.uint8))


def _avatar(rng: random.Random, side: int, photo: bool, font: ImageFont.FreeTypeFont | None) -> tuple[Image.Image, Image.Image]:
    """A circular avatar (image, mask): a portrait-like photo, or a letter on a coloured disc."""
    if photo:
        img = _photo(rng, side, side)
        d = ImageDraw.Draw(img)
        skin = rng.choice(((241, 194, 160), (198, 134, 90), (141, 85, 54), (224, 172, 105)))
        hair = rng.choice(((40, 30, 20), (90, 60, 30), (200, 170, 90), (20, 20, 20), (150, 40, 30)))
        d.ellipse((side * 0.1, side * 0.65, side * 0.9, side * 1.3), fill=tuple(rng.randrange(256) for _ in range(3)))
        d.ellipse((side * 0.28, side * 0.12, side * 0.72, side * 0.55), fill=hair)
        d.ellipse((side * 0.32, side * 0.2, side * 0.68, side * 0.62), fill=skin)
        img = img.filter(ImageFilter.GaussianBlur(max(1, side // 60)))
    else:
        img = Image.new("RGB", (side, side), rng.choice(ACCENTS))
        if font is not None:
            d = ImageDraw.Draw(img)
            ch = rng.choice("ABCDEGHJKLMNPRST")
            l, t, r, b = d.textbbox((0, 0), ch, font=font)
            d.text(((side - (r - l)) // 2 - l, (side - (b - t)) // 2 - t), ch, font=font, fill=(255, 255, 255))
    return img, round_mask(side)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(int(round(x * (1 - t) + y * t)) for x, y in zip(a, b))  # type: ignore[return-value]


def _gradient(w: int, h: int, a: tuple[int, int, int], b: tuple[int, int, int]) -> Image.Image:
    t = np.linspace(0.0, 1.0, w, dtype=np.float32)[None, :, None]
    arr = np.array(a, np.float32) * (1 - t) + np.array(b, np.float32) * t
    return Image.fromarray((arr * np.ones((h, 1, 1), np.float32)).astype(np.uint8))


class _Screen:
    """One screen being drawn: the canvas, its density, colours and the icons placed so far."""

    descriptions = DESCRIPTIONS  # family -> what apps and models call it (a later set adds its own)

    def __init__(self, rng: random.Random, index: int) -> None:
        from mobile_agent.device.sim.look import load_font

        self.rng = rng
        self.W, self.H = rng.choice(SIZES)
        self.dp = self.W / rng.choice(WIDTH_DP)
        self.icon_set = rng.choice(tuple(GLYPHS))
        self.dark = rng.random() < 0.4
        self.bg = rng.choice(DARK_BG if self.dark else LIGHT_BG)
        self.fg = rng.choice(((230, 225, 229), (202, 196, 208), (255, 255, 255))) if self.dark else \
            rng.choice(((73, 69, 79), (33, 33, 33), (95, 99, 104)))
        self.text = (236, 236, 240) if self.dark else (28, 27, 31)
        self.sub = (160, 160, 170) if self.dark else (100, 100, 110)
        self.accent = rng.choice(ACCENTS)
        self.icon_dp = rng.choice((18, 20, 24, 24, 24, 28, 32))
        self.font_name = rng.choice(TEXT_FONTS)
        self.load_font = load_font
        self.img = Image.new("RGB", (self.W, self.H), self.bg)
        self.draw = ImageDraw.Draw(self.img)
        self.placed: list[tuple[str, Box, bool]] = []  # (family, touch box, may be a target)
        self.index = index

    def px(self, v: float) -> int:
        return int(round(v * self.dp))

    def font(self, size_dp: float, weight: int = 400) -> ImageFont.FreeTypeFont:
        return self.load_font(self.font_name, self.px(size_dp), weight)

    def text_at(self, x: int, y: int, s: str, size_dp: float = 14, weight: int = 400,
                color: tuple[int, int, int] | None = None, anchor: str = "lm") -> None:
        self.draw.text((x, y), s, font=self.font(size_dp, weight), fill=color or self.text, anchor=anchor)

    def icon(self, family: str, cx: int, cy: int, color: tuple[int, int, int] | None = None,
             size_dp: float | None = None, target: bool = True) -> Box:
        if family not in GLYPHS[self.icon_set]:
            family = {"mic": "send", "filter": "settings"}.get(family, "star")
        size = self.px(size_dp or self.icon_dp)
        ink = _paste_glyph(self.img, self.icon_set, family, cx, cy, size, color or self.fg)
        self.touch(family, cx, cy, target)
        return ink

    def touch(self, family: str, cx: int, cy: int, target: bool = True) -> None:
        half = self.px(24)
        box = Box(max(0, cx - half), max(0, cy - half), min(self.W, cx + half), min(self.H, cy + half))
        self.placed.append((family, box, target))

    def badge(self, ink: Box, n: int) -> None:
        r = self.px(8)
        cx, cy = ink.x2 - r // 3, ink.y1 + r // 3
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(220, 38, 38))
        self.text_at(cx, cy, str(n), 10, 700, (255, 255, 255), "mm")

    def dot_or_count(self, ink: Box, dot_dp: float, drop: int, ring: tuple[int, int, int],
                     count: Callable[[], int], count_dp: float) -> None:
        """A red badge over the icon's top end that overlaps its ink: two times in five a dot
        ``dot_dp`` wide, else a count (``count()``) on a disc ringed in ``ring``, lowered by its
        radius // ``drop``."""
        if self.rng.random() < 0.4:
            r = self.px(dot_dp)
            cx, cy = ink.x2 - r, ink.y1 + r
            self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(220, 38, 38))
            return
        r = self.px(8)
        cx, cy = ink.x2 - r // 2, ink.y1 + r // drop
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(220, 38, 38), outline=ring,
                          width=max(1, self.px(1.5)))
        self.text_at(cx, cy, str(count()), count_dp, 700, (255, 255, 255), "mm")

    # ------------------------------------------------------------------ parts of a screen
    def status_bar(self) -> int:
        return self.clock_and_battery(self.px(24), 12, self.text)

    def clock_and_battery(self, h: int, clock_dp: float, color: tuple[int, int, int]) -> int:
        """A status bar ``h`` px high: a random clock at the start, battery and signal at the end."""
        self.text_at(self.px(16), h // 2, f"{self.rng.randint(7, 22)}:{self.rng.randint(0, 59):02d}", clock_dp, 500,
                     color)
        x = self.W - self.px(16)
        # battery and signal as plain shapes (no icon font: status glyphs are not targets here)
        self.draw.rectangle((x - self.px(10), h // 2 - self.px(5), x, h // 2 + self.px(5)), outline=color,
                            width=max(1, self.px(1.2)))
        self.draw.polygon([(x - self.px(30), h // 2 + self.px(5)), (x - self.px(16), h // 2 + self.px(5)),
                           (x - self.px(16), h // 2 - self.px(6))], fill=color)
        return h

    # What a set's top bars and bottom navigation draw (the second set gives its own).
    bar_actions = ("search", "share", "notifications", "cart", "settings", "like_outline", "refresh", "filter",
                   "edit", "delete")
    bar_avatar_chance, bar_badge_chance = 0.35, 0.6
    nav_label_chance, nav_shade = 0.5, 0.06
    nav_items = (["home", "search", "like", "account"], ["home", "search", "add", "notifications", "account"],
                 ["home", "comment", "notifications", "settings"], ["home", "search", "cart", "account"])
    nav_names = {"home": "Home", "search": "Search", "like": "Saved", "account": "Profile", "add": "Create",
                 "notifications": "Alerts", "comment": "Chats", "settings": "Settings", "cart": "Cart"}

    def avatar_photo(self, side: int) -> tuple[Image.Image, Image.Image]:
        """A round profile photo for a top bar or a navigation tab."""
        return _avatar(self.rng, side, True, None)

    def bar_badge(self, ink: Box) -> None:
        """A badge on a top bar's bell or cart."""
        self.badge(ink, self.rng.randint(1, 9))

    def nav_icon(self, family: str, cx: int, cy: int, selected: bool) -> None:
        """A bottom navigation tab's icon."""
        self.icon(family, cx, cy, self.text if selected else self.fg, 24)

    def top_bar(self, y0: int, avatar_ok: bool, style: str | None = None) -> int:
        """A top app bar on the surface (``plain``), an ``accent`` colour or a ``gradient``; without a
        style, accent about a third of the time."""
        rng, h = self.rng, self.px(64)
        if style is None:
            style = "accent" if rng.random() < 0.35 else "plain"
        fg = self.fg
        if style == "gradient":
            b = tuple(int(v) for v in rng.choice(ACCENTS))
            self.img.paste(_gradient(self.W, h, self.accent, b), (0, y0))  # type: ignore[arg-type]
            fg = (255, 255, 255)
        elif style == "accent":
            self.draw.rectangle((0, y0, self.W, y0 + h), fill=self.accent)
            fg = (255, 255, 255)
        cy = y0 + h // 2
        lead = rng.choice(("back", "back", "menu"))
        self.icon(lead, self.px(28), cy, fg)
        self.text_at(self.px(72), cy, rng.choice(TITLES), 20 if self.W >= 1080 else 18, 500,
                     (255, 255, 255) if style != "plain" else self.text)
        actions = rng.sample(list(self.bar_actions), rng.choice((1, 2, 2, 3)))
        x = self.W - self.px(28)
        if rng.random() < 0.75:
            self.icon("more", x, cy, fg)
            x -= self.px(48)
        if avatar_ok and rng.random() < self.bar_avatar_chance:
            side = self.px(32)
            img, mask = self.avatar_photo(side)
            self.img.paste(img, (x - side // 2, cy - side // 2), mask)
            self.touch("avatar", x, cy)
            x -= self.px(48)
        for fam in actions:
            if x < self.W * 0.55:
                break
            x = self.bar_action(fam, x, cy, fg)
        return y0 + h

    def bar_action(self, fam: str, x: int, cy: int, fg: tuple[int, int, int]) -> int:
        """An action of the top bar centred at ``x``, a bell or a cart badged by chance; the x of the
        next one to its left."""
        ink = self.icon(fam, x, cy, fg)
        if fam in ("notifications", "cart") and self.rng.random() < self.bar_badge_chance:
            self.bar_badge(ink)
        return x - self.px(48)

    def chips(self, y: int) -> int:
        rng = self.rng
        h = self.px(32)
        x = self.px(16)
        for k, label in enumerate(rng.sample(CHIPS, 4)):
            f = self.font(14, 500)
            tw = int(self.draw.textlength(label, font=f))
            with_close = k == 0 and rng.random() < 0.5
            w = tw + self.px(32) + (self.px(24) if with_close else 0)
            if x + w > self.W:
                break
            sel = k == 0
            fill = _mix(self.bg, self.accent, 0.25) if sel else None
            self.draw.rounded_rectangle((x, y, x + w, y + h), radius=self.px(8), fill=fill,
                                        outline=self.sub, width=max(1, self.px(1)))
            self.text_at(x + self.px(16), y + h // 2, label, 14, 500)
            if with_close:
                self.icon("close", x + w - self.px(18), y + h // 2, self.text, 16, target=True)
            x += w + self.px(8)
        return y + h + self.px(12)

    def rows(self, y: int, bottom: int) -> None:
        rng = self.rng
        trailing = rng.choice(("star", "more", "like_outline", "delete", None))
        photos = rng.random() < 0.7
        rh = self.px(72)
        k = 0
        while y + rh <= bottom:
            cy = y + rh // 2
            side = self.px(40)
            img, mask = _avatar(rng, side, photos or rng.random() < 0.3, self.font(18, 500))
            self.img.paste(img, (self.px(16), cy - side // 2), mask)
            self.placed.append(("avatar", Box(self.px(16), cy - side // 2, self.px(16) + side, cy + side // 2), False))
            self.text_at(self.px(72), cy - self.px(10), NAMES[(self.index + k) % len(NAMES)], 16, 500)
            self.text_at(self.px(72), cy + self.px(11), LINES[(self.index * 3 + k) % len(LINES)], 14, 400, self.sub)
            if trailing:
                self.icon(trailing, self.W - self.px(28), cy, self.sub, 20, target=False)
            y += rh
            k += 1

    def grid(self, y: int, bottom: int) -> None:
        rng = self.rng
        cols = rng.choice((2, 3))
        gap = self.px(4)
        side = (self.W - gap * (cols + 1)) // cols
        k = 0
        while y + side <= bottom:
            for c in range(cols):
                self.img.paste(_photo(rng, side, side), (gap + c * (side + gap), y))
                k += 1
            y += side + gap

    def card(self, y: int, bottom: int) -> int:
        """A post: author row, a large photo, then like / comment / share and a bookmark."""
        rng = self.rng
        side = self.px(32)
        img, mask = _avatar(rng, side, True, None)
        self.img.paste(img, (self.px(16), y + self.px(8)), mask)
        self.placed.append(("avatar", Box(self.px(16), y + self.px(8), self.px(16) + side, y + self.px(8) + side), False))
        self.text_at(self.px(56), y + self.px(24), NAMES[self.index % len(NAMES)], 14, 500)
        y += self.px(48)
        ph = min(self.W, bottom - y - self.px(56))
        if ph < self.px(120):
            return y
        self.img.paste(_photo(rng, self.W, ph), (0, y))
        y += ph
        cy = y + self.px(24)
        x = self.px(28)
        for fam in ("like_outline", "comment", "share"):
            self.icon(fam, x, cy)
            x += self.px(48)
        self.icon("bookmark", self.W - self.px(28), cy)
        return y + self.px(48)

    # a chat composer: the gap under it, the first icon's x, the icons' spacing, the field's right end
    # (dp), and its icons' size (None: the screen's)
    composer_layout: tuple[int, int, int, int] = (16, 28, 44, 64)
    composer_icon_dp: float | None = None

    def composer(self) -> None:
        """Two of attach / camera / add, the message field, a send (or voice) button."""
        rng = self.rng
        gap, x0, step, right = self.composer_layout
        h = self.px(64)
        cy = self.H - h - self.px(gap) + h // 2
        x = self.px(x0)
        for fam in rng.sample(["attach", "camera", "add"], 2):
            self.icon(fam, x, cy, self.fg, self.composer_icon_dp)
            x += self.px(step)
        self.message_field(x, cy, self.W - self.px(right))
        self.send_button("send" if rng.random() < 0.75 else "mic", cy)

    def message_field(self, x: int, cy: int, right: int) -> None:
        self.draw.rounded_rectangle((x - self.px(12), cy - self.px(20), right, cy + self.px(20)), radius=self.px(20),
                                    fill=_mix(self.bg, self.fg, 0.12))
        self.text_at(x + self.px(4), cy, "Message", 16, 400, self.sub)

    def send_button(self, family: str, cy: int) -> None:
        """A white glyph on an accent disc at the composer's right end."""
        r = self.px(22)
        bx = self.W - self.px(32)
        self.draw.ellipse((bx - r, cy - r, bx + r, cy + r), fill=self.accent)
        self.icon(family, bx, cy, (255, 255, 255), 22)

    def bubbles(self, y: int, bottom: int) -> None:
        k = 0
        while y + self.px(56) < bottom:
            mine = k % 2 == 1
            s = LINES[(self.index + k) % len(LINES)]
            f = self.font(15)
            tw = int(self.draw.textlength(s, font=f))
            w, h = tw + self.px(28), self.px(40)
            x = self.W - w - self.px(16) if mine else self.px(16)
            fill = _mix(self.bg, self.accent, 0.3) if mine else _mix(self.bg, self.fg, 0.12)
            self.draw.rounded_rectangle((x, y, x + w, y + h), radius=self.px(18), fill=fill)
            self.text_at(x + self.px(14), y + h // 2, s, 15)
            y += h + self.px(12)
            k += 1

    def product(self, y: int, bottom: int) -> None:
        rng = self.rng
        ph = min(self.W, (bottom - y) * 6 // 10)
        self.img.paste(_photo(rng, self.W, ph), (0, y))
        # a favourite on the photo, as shops draw it (a white disc with a heart)
        r = self.px(20)
        cx, cy = self.W - self.px(32), y + self.px(32)
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255))
        self.icon("like_outline", cx, cy, (60, 60, 60), 20)
        y += ph + self.px(20)
        self.text_at(self.px(16), y, rng.choice(("Trail running shoes", "Ceramic mug", "Desk lamp", "Backpack 30L")),
                     20, 500)
        self.text_at(self.px(16), y + self.px(30), f"${rng.randint(9, 199)}.{rng.choice(('00', '99', '49'))}", 18, 700,
                     self.accent)
        by = y + self.px(70)
        if by + self.px(48) < bottom:
            self.draw.rounded_rectangle((self.px(16), by, self.W - self.px(16), by + self.px(48)), radius=self.px(24),
                                        fill=self.accent)
            self.text_at(self.W // 2, by + self.px(24), "Add to cart", 16, 500, (255, 255, 255), "mm")

    def fab(self, bottom: int) -> None:
        rng = self.rng
        s = self.px(56)
        x2, y2 = self.W - self.px(16), bottom - self.px(16)
        container = _mix(self.bg, self.accent, 0.35) if rng.random() < 0.5 else self.accent
        on = self.text if container != self.accent else (255, 255, 255)
        if rng.random() < 0.5:
            self.draw.rounded_rectangle((x2 - s, y2 - s, x2, y2), radius=self.px(16), fill=container)
        else:
            self.draw.ellipse((x2 - s, y2 - s, x2, y2), fill=container)
        self.icon(rng.choice(("add", "add", "edit")), x2 - s // 2, y2 - s // 2, on, 24)

    def bottom_nav(self) -> int:
        """Bottom navigation, with or without labels; the selected tab on a tonal pill."""
        rng = self.rng
        labels = rng.random() < self.nav_label_chance
        h = self.px(80 if labels else 64)
        y = self.H - h
        self.draw.rectangle((0, y, self.W, self.H), fill=_mix(self.bg, self.fg, self.nav_shade))
        items = rng.choice(self.nav_items)
        sel = rng.randrange(len(items))
        slot = self.W / len(items)
        avatar_tab = "account" in items and rng.random() < 0.4
        for k, fam in enumerate(items):
            cx = int(slot * k + slot / 2)
            cy = y + (self.px(28) if labels else h // 2)
            if k == sel:
                self.draw.rounded_rectangle((cx - self.px(32), cy - self.px(16), cx + self.px(32), cy + self.px(16)),
                                            radius=self.px(16), fill=_mix(self.bg, self.accent, 0.3))
            if fam == "account" and avatar_tab:
                side = self.px(26)
                img, mask = self.avatar_photo(side)
                self.img.paste(img, (cx - side // 2, cy - side // 2), mask)
                self.touch("avatar", cx, cy)
            else:
                self.nav_icon(fam, cx, cy, k == sel)
            if labels:
                self.text_at(cx, y + self.px(60), self.nav_names[fam], 12, 600 if k == sel else 500,
                             self.text if k == sel else self.sub, "mm")
        return y

    def page(self, kind: str, top: int, *, nav: float, chips: float, fab: float) -> None:
        """The page below the top bar (at ``top``) of a ``kind`` of screen (list, grid, feed, product):
        a bottom navigation bar with chance ``nav``, chips above a list or a grid with chance
        ``chips``, the body, and a FAB over a list or a grid with chance ``fab``."""
        bottom = self.H
        if self.rng.random() < nav:
            bottom = self.bottom_nav()
        lists = kind in ("list", "grid")
        y = self.chips(top + self.px(8)) if lists and self.rng.random() < chips else top + self.px(8)
        {"list": self.rows, "grid": self.grid, "feed": self.card, "product": self.product}[kind](y, bottom)
        if lists and self.rng.random() < fab:
            self.fab(bottom)

    def finish(self) -> tuple[Image.Image, list[Target], str]:
        rng = self.rng
        counts: dict[str, int] = {}
        for fam, _, _ in self.placed:
            key = SAME.get(fam, fam)
            counts[key] = counts.get(key, 0) + 1
        targets = [Target(rng.choice(self.descriptions[fam]), SAME.get(fam, fam), box)
                   for fam, box, ok in self.placed if ok and counts[SAME.get(fam, fam)] == 1]
        img, jpg = self.screenshot((None, None, 90, 80, 70))
        look = (f"{self.icon_set} {self.W}x{self.H} {self.W / self.dp:.0f}dp icons {self.icon_dp}dp "
                f"{'dark' if self.dark else 'light'} {self.font_name}{jpg}")
        return img, targets, look

    def screenshot(self, qualities: tuple[int | None, ...]) -> tuple[Image.Image, str]:
        """The canvas as a phone's screenshot, saved as a JPEG at a quality drawn from ``qualities``
        (None: lossless), and the look's words for it (" jpeg90", or nothing)."""
        quality = self.rng.choice(qualities)
        return jpeg(self.img, quality), f" jpeg{quality}" if quality else ""


def _screen(seed: int, index: int) -> HeldoutScreen:
    rng = random.Random(f"heldout-icons:{seed}:{index}")
    s = _Screen(rng, index)
    kind = rng.choice(("list", "list", "grid", "feed", "chat", "product"))
    top = s.status_bar()
    top = s.top_bar(top, avatar_ok=kind in ("grid", "product", "chat"))
    if kind == "chat":
        s.composer()
        s.bubbles(top + s.px(16), s.H - s.px(96))
    else:
        s.page(kind, top, nav=0.65, chips=0.5, fab=0.6)
    img, targets, look = s.finish()
    return HeldoutScreen(f"heldout-{seed}-{index:02d}-{kind}", img, targets, look)


def heldout_screens(seed: int = SEED, count: int = SCREENS) -> list[HeldoutScreen]:
    """The held-out icon set: ``count`` screens drawn from ``seed`` (each screen from its own
    generator, so the first screens of a larger set are those of a smaller one)."""
    return [_screen(seed, i) for i in range(count)]


def set_digest(screens: list[HeldoutScreen]) -> str:
    return digest(screens, lambda s: (f"{t.description}|{t.family}|{t.box.as_tuple()}" for t in s.targets))


def miss_line(target: str, g: Any, gh: Any, detected: bool) -> str:
    """One miss line: the target, where grounding tapped without and with the hint, detection."""
    return (f"{target} -> {g.point and g.point.as_tuple()} / hint {gh.point and gh.point.as_tuple()}"
            f"{'' if detected else ' (not detected)'}")


def run_icons(screens: Sequence[HeldoutScreen], perception: Any,
              log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Click Icon figures on an icon set's screens (this set, the second held-out set, the icon
    stress set, the Material-styles set): each target's icon detected at all, top-1 without a
    position hint, top-1 with the hint (what a planner would say of where it is:
    ``measure.position_hint``), any candidate inside (with the hint); by family, by description
    and, where targets name one, by phenomenon; and each miss."""
    from mobile_agent.screensets.measure import position_hint

    n = detected = top1 = top1_hint = any_hint = 0
    by_family: dict[str, list[int]] = {}
    by_words: dict[str, list[int]] = {}
    by_phen: dict[str, list[int]] = {}  # phenomenon -> targets, detected, top-1, top-1 hint, any
    misses: list[str] = []
    for k, s in enumerate(screens):
        if log:
            log(f"[{k + 1}/{len(screens)}] {s.name}")
        w, h = s.image.size
        icons = perception.parse(s.image, icons=True).icons or []
        for t in s.targets:
            n += 1
            det = any(t.box.contains_point(ib.box.center) or ib.box.contains_point(t.box.center) for ib in icons)
            detected += det
            g = perception.ground_icon(s.image, t.description)
            ok = g.status == "found" and g.chosen is not None and t.box.contains_point(g.chosen.point)
            hint = position_hint(t.box, w, h)
            gh = perception.ground_icon(s.image, t.description, hint)
            okh = gh.status == "found" and gh.chosen is not None and t.box.contains_point(gh.chosen.point)
            anyh = any(t.box.contains_point(c.point) for c in gh.candidates)
            top1 += ok
            top1_hint += okh
            any_hint += anyh
            for table, key in ((by_family, t.family), (by_words, t.description)):
                f = table.setdefault(key, [0, 0, 0])
                f[0] += 1
                f[1] += ok
                f[2] += okh
            ph = getattr(t, "phenomenon", None)
            if ph is not None:
                f = by_phen.setdefault(ph, [0, 0, 0, 0, 0])
                for i, v in enumerate((1, det, ok, okh, anyh)):
                    f[i] += v
            if not ok or not okh:
                misses.append(miss_line(f"{s.name} [{s.look}]: {t.description!r} {hint} box {t.box.as_tuple()}"
                                    f"{' (' + ph + ')' if ph is not None else ''}", g, gh, det))
    return {"screens": len(screens), "targets": n, "detected": detected, "top1": top1, "top1_hint": top1_hint,
            "any_hint": any_hint, "by_family": by_family, "by_description": by_words, "by_phenomenon": by_phen,
            "misses": misses}


def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / max(1, n):.1f}% ({k}/{n})"


def format_four(n: int, detected: int, top1: int, top1_hint: int, any_hint: int) -> list[str]:
    """The four Click Icon figures, in the same words for every set."""
    return [f"icon detected at all:              {_pct(detected, n)}",
            f"Click Icon top-1, no position hint: {_pct(top1, n)}",
            f"Click Icon top-1, with the hint:    {_pct(top1_hint, n)}",
            f"any candidate inside (with hint):   {_pct(any_hint, n)}"]


def format_icons(d: dict[str, Any], by_description: bool = False) -> list[str]:
    """:func:`run_icons`' figures laid out for people (``d`` may carry ``title``, ``seed``, ``digest``
    and ``frozen``, as the benchmark commands add them)."""
    digest = d.get("digest")
    head = (f"{d.get('title', 'icon set')}, seed {d.get('seed', SEED)}: screens {d['screens']}, "
            f"icon targets {d['targets']}")
    if digest:
        head += f"; set sha256 {digest[:16]} ({'the frozen set' if d.get('frozen') else 'NOT the frozen set'})"
    out = [head, *format_four(d["targets"], d["detected"], d["top1"], d["top1_hint"], d["any_hint"])]
    out.append("by family (targets: top-1 no hint / with hint): " + ", ".join(
        f"{fam} {v[0]}: {v[1]}/{v[2]}" for fam, v in sorted(d["by_family"].items(), key=lambda kv: -kv[1][0])))
    if d["by_phenomenon"]:
        out.append("by phenomenon (targets: detected / top-1 no hint / top-1 with hint / any candidate):")
        for ph, v in sorted(d["by_phenomenon"].items(), key=lambda kv: -kv[1][0]):
            out.append(f"  {ph:26s} {v[0]:3d}: {v[1]:3d} / {v[2]:3d} / {v[3]:3d} / {v[4]:3d}")
    if by_description:
        out.append("by description (targets: top-1 no hint / with hint): " + ", ".join(
            f"{w!r} {v[0]}: {v[1]}/{v[2]}" for w, v in sorted(d["by_description"].items(), key=lambda kv: -kv[1][0])))
    return out

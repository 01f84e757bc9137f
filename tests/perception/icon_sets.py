"""Synthetic screens of icons drawn from icon sets the offline matcher does NOT use as references
(its references are Font Awesome, Codicons, a few Elusive Icons and Google's Material Icons; the
simulated phone draws Material Design Icons): Phosphor and Remix Icon, from the qtawesome wheel's
font files; and photo-like pictures (thumbnails, avatars) as clutter. The held-out icon set's fonts
(Entypo, Glyphicons) are kept out of the tests."""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from mobile_agent.types import Box

# vocabulary phrase -> Phosphor glyph drawn for it (names of Phosphor 1.3)
PHOSPHOR: dict[str, str] = {
    "Navigate up": "arrow-left", "back arrow": "arrow-left",
    "More options": "dots-three-vertical", "kebab": "dots-three-vertical", "three dots": "dots-three-vertical",
    "hamburger": "list", "Open navigation drawer": "list",
    "Search": "magnifying-glass", "magnifier": "magnifying-glass",
    "gear": "gear-six", "Settings": "gear-six",
    "bin": "trash", "trash": "trash", "delete": "trash",
    "paper plane": "paper-plane-tilt", "send": "paper-plane-tilt",
    "Share": "share-network", "Close": "x",
    "plus": "plus", "add": "plus",
    "heart": "heart", "like": "heart", "favourite": "heart",
    "bell": "bell", "notifications": "bell",
    "cart": "shopping-cart", "person": "user", "profile picture": "user-circle", "account": "user-circle",
    "microphone": "microphone", "camera": "camera", "edit": "pencil-simple", "pencil": "pencil-simple",
    "filter": "funnel", "download": "download-simple", "home": "house", "star": "star",
    "refresh": "arrow-clockwise",
}


# the same phrases, drawn from Remix Icon 2.5 (outlined "-line" glyphs, as apps draw them)
REMIX: dict[str, str] = {
    "Navigate up": "arrow-left-line", "back arrow": "arrow-left-line",
    "More options": "more-2-fill", "kebab": "more-2-fill", "three dots": "more-2-fill",
    "hamburger": "menu-line", "Open navigation drawer": "menu-line",
    "Search": "search-line", "magnifier": "search-line",
    "gear": "settings-3-line", "Settings": "settings-3-line",
    "bin": "delete-bin-line", "trash": "delete-bin-line", "delete": "delete-bin-line",
    "paper plane": "send-plane-fill", "send": "send-plane-fill",
    "Share": "share-line", "Close": "close-line",
    "plus": "add-line", "add": "add-line",
    "heart": "heart-3-line", "like": "heart-3-line", "favourite": "heart-3-line",
    "bell": "notification-3-line", "notifications": "notification-3-line",
    "cart": "shopping-cart-2-line", "person": "user-3-line", "profile picture": "account-circle-line",
    "account": "account-circle-line",
    "microphone": "mic-line", "camera": "camera-line", "edit": "pencil-line", "pencil": "pencil-line",
    "filter": "filter-3-line", "download": "download-2-line", "home": "home-4-line", "star": "star-line",
    "refresh": "refresh-line",
}


@lru_cache(maxsize=4)
def _qta_font(prefix: str) -> tuple[str, dict[str, int]]:
    spec = importlib.util.find_spec("qtawesome")
    assert spec is not None and spec.submodule_search_locations, "qtawesome (its font files) is needed"
    fonts = Path(list(spec.submodule_search_locations)[0]) / "fonts"
    ttf = sorted(fonts.glob(f"{prefix}-[0-9]*.ttf"))[-1]
    cmap = json.loads(sorted(fonts.glob(f"{prefix}-charmap-*.json"))[-1].read_text(encoding="utf-8"))
    return str(ttf), {k: int(v, 16) if isinstance(v, str) else int(v) for k, v in cmap.items()}


def _phosphor() -> tuple[str, dict[str, int]]:
    return _qta_font("phosphor")


def draw_icon(draw: ImageDraw.ImageDraw, name: str, box: Box, color: tuple[int, int, int],
              icon_set: str = "phosphor") -> None:
    """Glyph ``name`` of ``icon_set`` (``phosphor`` or ``remixicon``) centred in ``box``."""
    path, cmap = _qta_font(icon_set)
    font = ImageFont.truetype(path, box.height)
    ch = chr(cmap[name])
    l, t, r, b = draw.textbbox((0, 0), ch, font=font)
    x = box.x1 + (box.width - (r - l)) // 2 - l
    y = box.y1 + (box.height - (b - t)) // 2 - t
    draw.text((x, y), ch, font=font, fill=color)


def icon_grid(names: list[str], width: int = 1080, height: int = 2400, dark: bool = False,
              cols: int = 4, icon_set: str = "phosphor") -> tuple[Image.Image, dict[str, Box]]:
    """A screen with each named glyph in a grid cell (tap targets 48 dp at this density), light or
    dark; returns the image and each glyph's tap box."""
    bg, fg = ((18, 20, 30), (230, 232, 240)) if dark else ((250, 250, 250), (40, 40, 48))
    img = Image.new("RGB", (width, height), bg)
    draw = ImageDraw.Draw(img)
    dp = width / 360.0
    target = round(48 * dp)
    glyph = round(24 * dp)
    cell_w = width // cols
    top = round(80 * dp)
    boxes: dict[str, Box] = {}
    for k, name in enumerate(names):
        cx = cell_w * (k % cols) + cell_w // 2
        cy = top + (k // cols) * round(72 * dp) + target // 2
        tap = Box(cx - target // 2, cy - target // 2, cx + target // 2, cy + target // 2)
        draw_icon(draw, name, Box(cx - glyph // 2, cy - glyph // 2, cx + glyph // 2, cy + glyph // 2), fg, icon_set)
        boxes[name] = tap
    return img, boxes


def picture(seed: int, width: int, height: int) -> Image.Image:
    """A photo-like picture: a smooth random colour field with grain (no two seeds alike)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, (4, 4, 3), dtype=np.uint8)
    img = Image.fromarray(coarse).resize((width, height), Image.BICUBIC)
    grain = rng.normal(0, 10, (height, width, 3))
    return Image.fromarray(np.clip(np.asarray(img, np.float32) + grain, 0, 255).astype(np.uint8))


def paste_round(img: Image.Image, pic: Image.Image, box: Box) -> None:
    """``pic`` cut to a disc filling ``box`` (an avatar)."""
    side = box.width
    mask = Image.new("L", (side * 4, side * 4), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, side * 4 - 1, side * 4 - 1), fill=255)
    img.paste(pic.resize((side, side)), (box.x1, box.y1), mask.resize((side, side), Image.LANCZOS))


def app_screen(width: int = 1080, height: int = 2400, dark: bool = False, icon_set: str = "remixicon",
               seed: int = 1) -> tuple[Image.Image, dict[str, Box]]:
    """A real app's kind of screen, cluttered: a top app bar (Navigate up, a title, Search, Share,
    the account's round photo, More options), list rows each with a round photo avatar and a
    trailing star, a row of photo thumbnails, and a FAB (Add) bottom right. Returns the image and
    the touch box (48 dp) of each named target: "back", "search", "share", "avatar", "more", "add"."""
    from mobile_agent.device.sim.look import load_font

    names = {"back": "arrow-left-line", "search": "search-line", "share": "share-line", "more": "more-2-fill",
             "star": "star-line", "add": "add-line"}
    if icon_set == "phosphor":
        names = {"back": "arrow-left", "search": "magnifying-glass", "share": "share-network",
                 "more": "dots-three-vertical", "star": "star", "add": "plus"}
    bg, fg, sub = ((18, 18, 18), (230, 225, 229), (160, 160, 170)) if dark else \
        ((255, 255, 255), (73, 69, 79), (100, 100, 110))
    img = Image.new("RGB", (width, height), bg)
    draw = ImageDraw.Draw(img)
    dp = width / 392.0
    half, glyph = round(24 * dp), round(24 * dp)
    boxes: dict[str, Box] = {}

    def icon(key: str, cx: int, cy: int, color: tuple[int, int, int], target: bool = True) -> None:
        draw_icon(draw, names[key], Box(cx - glyph // 2, cy - glyph // 2, cx + glyph // 2, cy + glyph // 2), color,
                  icon_set)
        if target:
            boxes[key] = Box(cx - half, cy - half, cx + half, cy + half)

    font = load_font("noto-sans", round(20 * dp), 500)
    small = load_font("noto-sans", round(14 * dp), 400)
    cy = round(24 * dp) + round(32 * dp)
    icon("back", round(28 * dp), cy, fg)
    draw.text((round(72 * dp), cy), "Photos", font=font, fill=fg, anchor="lm")
    x = width - round(28 * dp)
    icon("more", x, cy, fg)
    x -= round(48 * dp)
    side = round(32 * dp)
    paste_round(img, picture(seed, side, side), Box(x - side // 2, cy - side // 2, x - side // 2 + side, cy - side // 2 + side))
    boxes["avatar"] = Box(x - half, cy - half, x + half, cy + half)
    x -= round(48 * dp)
    icon("share", x, cy, fg)
    x -= round(48 * dp)
    icon("search", x, cy, fg)
    y = round(100 * dp)
    for k in range(5):  # list rows: a round photo, two lines, a trailing star (on every row: clutter)
        ry = y + round(36 * dp)
        side = round(40 * dp)
        paste_round(img, picture(seed * 100 + k + 1, side, side),
                    Box(round(16 * dp), ry - side // 2, round(16 * dp) + side, ry - side // 2 + side))
        draw.text((round(72 * dp), ry - round(10 * dp)), f"Album {k + 1}", font=small, fill=fg, anchor="lm")
        draw.text((round(72 * dp), ry + round(11 * dp)), "42 photos", font=small, fill=sub, anchor="lm")
        icon("star", width - round(28 * dp), ry, sub, target=False)
        y += round(72 * dp)
    thumb = (width - round(16 * dp)) // 3
    for c in range(3):  # photo thumbnails
        img.paste(picture(seed * 1000 + c, thumb - round(4 * dp), thumb - round(4 * dp)),
                  (round(8 * dp) + c * thumb, y + round(8 * dp)))
    s = round(56 * dp)
    x2, y2 = width - round(16 * dp), height - round(16 * dp)
    accent = (103, 80, 164)
    draw.rounded_rectangle((x2 - s, y2 - s, x2, y2), radius=round(16 * dp), fill=accent)
    icon("add", x2 - s // 2, y2 - s // 2, (255, 255, 255))
    return img, boxes


# Real photographs for clutter, from scikit-image's bundled pictures: those the second held-out
# icon set does NOT use (it draws astronaut, chelsea, coffee, rocket, hubble, retina, camera), so
# that tests and the held-out set stay apart. Licences as scikit-image documents them.
TEST_PHOTOS = {"immunohistochemistry": ("ihc.png", "no known copyright restrictions"),  # colour
               "coins": ("coins.png", "no known copyright restrictions (Brooklyn Museum)"),
               "gravel": ("gravel.png", "CC0"), "brick": ("brick.png", "CC0"), "grass": ("grass.png", "CC0")}


def real_photo(name: str, width: int, height: int, tint: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> Image.Image:
    """A ``width`` x ``height`` piece of one of :data:`TEST_PHOTOS` (grey ones tinted by ``tint``)."""
    import numpy as np

    spec = importlib.util.find_spec("skimage")
    assert spec is not None and spec.submodule_search_locations, "scikit-image (its bundled pictures) is needed"
    pic = Image.open(Path(list(spec.submodule_search_locations)[0]) / "data" / TEST_PHOTOS[name][0]).convert("RGB")
    pw, ph = pic.size
    cw = min(pw, int(ph * width / height))
    ch = int(cw * height / width)
    pic = pic.crop(((pw - cw) // 2, (ph - ch) // 2, (pw - cw) // 2 + cw, (ph - ch) // 2 + ch)).resize((width, height))
    arr = np.asarray(pic, np.float32) * np.array(tint, np.float32)
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))


def photo_screen(width: int = 1080, height: int = 2400, dark: bool = False, weight: str = "light"
                 ) -> tuple[Image.Image, dict[str, Box]]:
    """A detail page as real apps draw it, with real photos and thin-stroke icons (Phosphor's
    ``light`` or ``thin`` weight): a hero photo under the status bar with Navigate up, Share and
    Favorite drawn white over it; a title and text; a row whose texts hold glyph-like characters
    ("x 2 items", "Q&A"); a row of photo thumbnails; the account's round photo and a Search and a
    Close icon in a bar at the bottom, above the gesture navigation's inset. Returns the image and the touch box (48 dp) of each target:
    "back", "share", "like", "avatar", "search", "close"."""
    from mobile_agent.device.sim.look import load_font

    bg, fg, sub = ((18, 18, 18), (230, 225, 229), (160, 160, 170)) if dark else \
        ((255, 255, 255), (60, 60, 67), (100, 100, 110))
    img = Image.new("RGB", (width, height), bg)
    draw = ImageDraw.Draw(img)
    dp = width / 392.0
    half, glyph = round(24 * dp), round(24 * dp)
    boxes: dict[str, Box] = {}

    def icon(key: str, name: str, cx: int, cy: int, color: tuple[int, int, int]) -> None:
        draw_icon(draw, f"{name}-{weight}", Box(cx - glyph // 2, cy - glyph // 2, cx + glyph // 2, cy + glyph // 2),
                  color)
        boxes[key] = Box(cx - half, cy - half, cx + half, cy + half)

    hero = round(height * 0.32)
    photo = real_photo("immunohistochemistry", width, hero - round(24 * dp))
    # the dark gradient apps lay over the top of a hero picture so that the bar's icons read
    import numpy as np

    fade = np.clip(1.0 - np.arange(photo.height, dtype=np.float32) / (120 * dp), 0.0, 1.0)[:, None, None]
    photo = Image.fromarray((np.asarray(photo, np.float32) * (1.0 - 0.45 * fade)).astype(np.uint8))
    img.paste(photo, (0, round(24 * dp)))
    cy = round(24 * dp) + round(32 * dp)
    icon("back", "arrow-left", round(28 * dp), cy, (255, 255, 255))
    icon("share", "share-network", width - round(76 * dp), cy, (255, 255, 255))
    icon("like", "heart", width - round(28 * dp), cy, (255, 255, 255))
    big = load_font("noto-sans", round(22 * dp), 600)
    small = load_font("noto-sans", round(15 * dp), 400)
    y = hero + round(16 * dp)
    draw.text((round(16 * dp), y), "Stained tissue, 40x", font=big, fill=fg)
    y += round(44 * dp)
    for line in ("x 2 items in your list", "Q&A with the lab team", "Open the sample notes"):
        draw.text((round(16 * dp), y), line, font=small, fill=sub)
        y += round(28 * dp)
    y += round(12 * dp)
    thumb = (width - round(40 * dp)) // 3
    for k, (name, tint) in enumerate((("grass", (0.8, 1.0, 0.6)), ("gravel", (0.7, 0.9, 1.0)),
                                      ("brick", (1.0, 0.7, 0.6)))):
        img.paste(real_photo(name, thumb, thumb, tint), (round(12 * dp) + k * (thumb + round(8 * dp)), y))
    bar = height - round(88 * dp)  # a bottom bar, above the gesture navigation's 24 dp
    draw.rectangle((0, bar, width, height), fill=(32, 32, 36) if dark else (243, 243, 246))
    cy = bar + round(32 * dp)
    side = round(32 * dp)
    x = round(28 * dp)
    paste_round(img, real_photo("immunohistochemistry", side, side),
                Box(x - side // 2, cy - side // 2, x - side // 2 + side, cy - side // 2 + side))
    boxes["avatar"] = Box(x - half, cy - half, x + half, cy + half)
    icon("search", "magnifying-glass", width // 2, cy, fg)
    icon("close", "x", width - round(28 * dp), cy, fg)
    return img, boxes

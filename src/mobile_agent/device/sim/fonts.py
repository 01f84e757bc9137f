"""The simulated phone's fonts and icon sets, found in installed packages (pip: ``fontpkg-*``,
``qtawesome``'s icon fonts; Debian: ``fonts-noto-cjk``, ``fonts-dejavu-core``). The bottom of the
simulator: the canvas (:mod:`render`) loads a look's font from here, and :mod:`look` names them;
it imports nothing else of the simulator."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Callable

from PIL import ImageFont

from mobile_agent.errors import ConfigError


# ---------------------------------------------------------------------------------------- fonts
def _pkg_file(module: str, *parts: str) -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]).joinpath(*parts)
    return path if path.exists() else None


def _first(paths: list[str]) -> Path | None:
    for p in paths:
        if Path(p).exists():
            return Path(p)
    return None


# family -> (how to find its files, what to install when missing)
FONTS: dict[str, tuple[Callable[[], dict[str, Path | None]], str]] = {
    "noto-sans": (lambda: {"var": _pkg_file("fontpkg_noto_sans", "files", "NotoSans[wdth,wght].ttf")},
                  "pip install fontpkg-noto-sans"),
    "open-sans": (lambda: {"var": _pkg_file("fontpkg_open_sans", "files", "OpenSans[wdth,wght].ttf")},
                  "pip install fontpkg-open-sans"),
    "inter": (lambda: {"var": _pkg_file("fontpkg_inter", "files", "Inter[opsz,wght].ttf")},
              "pip install fontpkg-inter"),
    "lato": (lambda: {"400": _pkg_file("fontpkg_lato", "files", "Lato-Regular.ttf"),
                      "500": _pkg_file("fontpkg_lato", "files", "Lato-Medium.ttf"),
                      "700": _pkg_file("fontpkg_lato", "files", "Lato-Bold.ttf")},
             "pip install fontpkg-lato"),
    "dejavu": (lambda: {"400": _first(["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]),
                        "700": _first(["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"])},
               "apt-get install fonts-dejavu-core"),
    # Noto Sans CJK (Android's own CJK font); face 2 of the collection is Simplified Chinese.
    "noto-cjk": (lambda: {"400": _first(["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"]),
                          "700": _first(["/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"])},
                 "apt-get install fonts-noto-cjk"),
}


def font_available(family: str) -> bool:
    files = FONTS[family][0]()
    return all(p is not None for p in files.values())


@lru_cache(maxsize=512)
def load_font(family: str, size: int, weight: int) -> ImageFont.FreeTypeFont:
    """``family`` (a key of :data:`FONTS`) at ``size`` px, as close to ``weight`` as it has."""
    find, install = FONTS[family]
    files = find()
    if any(p is None for p in files.values()):
        raise ConfigError(f"font {family!r} is not installed: {install}")
    index = 2 if family == "noto-cjk" else 0
    if "var" in files:
        f = ImageFont.truetype(str(files["var"]), size)
        axes = f.get_variation_axes()
        values = []
        for ax in axes:
            name = ax.get("name", b"")
            name = name.decode() if isinstance(name, bytes) else str(name)
            if name.lower().startswith("weight"):
                values.append(max(ax["minimum"], min(ax["maximum"], weight)))
            elif name.lower().startswith("optical"):
                values.append(max(ax["minimum"], min(ax["maximum"], size * 0.75)))
            else:
                values.append(ax.get("default", ax["minimum"]))
        f.set_variation_by_axes(values)
        return f
    best = min(files, key=lambda w: abs(int(w) - weight))
    return ImageFont.truetype(str(files[best]), size, index=index)


# ------------------------------------------------------------------------------------ icon sets
def _qta(name: str) -> tuple[Path | None, Path | None]:
    fonts = _pkg_file("qtawesome", "fonts")
    if fonts is None:
        return None, None
    ttf = sorted(fonts.glob(f"{name}-[0-9]*.ttf"))
    cmap = sorted(fonts.glob(f"{name}-charmap-*.json"))
    return (ttf[-1] if ttf else None), (cmap[-1] if cmap else None)


# The sim's MDI icon names and their counterparts: (Phosphor 1.3, Remix Icon 2.5). Icons not
# listed fall back to a guess from the name, then to the MDI glyph itself (see icon_glyph).
ICON_MAP: dict[str, tuple[str, str]] = {
    "arrow-left": ("arrow-left", "arrow-left-line"),
    "arrow-up-bold": ("arrow-fat-up", "arrow-up-fill"),
    "magnify": ("magnifying-glass", "search-line"),
    "magnify-close": ("magnifying-glass-minus", "search-eye-line"),
    "play": ("play-fill", "play-fill"),
    "pause": ("pause-fill", "pause-fill"),
    "play-circle": ("play-circle-fill", "play-circle-fill"),
    "history": ("clock-counter-clockwise", "history-line"),
    "star": ("star-fill", "star-fill"),
    "message-text-outline": ("chat-text", "chat-3-line"),
    "map-marker": ("map-pin-fill", "map-pin-2-fill"),
    "map-marker-outline": ("map-pin", "map-pin-2-line"),
    "map-marker-radius": ("map-pin-line", "map-pin-range-line"),
    "dots-vertical": ("dots-three-vertical-bold", "more-2-fill"),
    "close": ("x", "close-line"),
    "chevron-right": ("caret-right", "arrow-right-s-line"),
    "chevron-left": ("caret-left", "arrow-left-s-line"),
    "chevron-down": ("caret-down", "arrow-down-s-line"),
    "bell-outline": ("bell", "notification-3-line"),
    "web": ("globe", "global-line"),
    "shuffle-variant": ("shuffle", "shuffle-line"),
    "send": ("paper-plane-right-fill", "send-plane-fill"),
    "plus": ("plus", "add-line"),
    "microphone": ("microphone", "mic-line"),
    "directions": ("arrow-bend-up-right", "direction-line"),
    "crosshairs-gps": ("crosshair", "focus-3-line"),
    "cart-outline": ("shopping-cart", "shopping-cart-2-line"),
    "cart-plus": ("shopping-cart-simple", "shopping-cart-line"),
    "calendar-month": ("calendar", "calendar-2-line"),
    "calendar-blank-outline": ("calendar-blank", "calendar-line"),
    "account-circle": ("user-circle-fill", "account-circle-fill"),
    "account-circle-outline": ("user-circle", "account-circle-line"),
    "wifi": ("wifi-high", "wifi-line"),
    "weather-partly-cloudy": ("cloud-sun", "sun-cloudy-line"),
    "volume-high": ("speaker-high", "volume-up-line"),
    "tune-variant": ("sliders", "equalizer-line"),
    "tune": ("sliders-horizontal", "equalizer-line"),
    "trending-up": ("trend-up", "line-chart-line"),
    "thumb-up-outline": ("thumbs-up", "thumb-up-line"),
    "television-play": ("television", "tv-line"),
    "swap-vertical": ("arrows-down-up", "arrow-up-down-line"),
    "skip-previous": ("skip-back-fill", "skip-back-fill"),
    "skip-next": ("skip-forward-fill", "skip-forward-fill"),
    "signal-cellular-3": ("cell-signal-high", "signal-tower-fill"),
    "signal-cellular-outline": ("cell-signal-none", "signal-tower-line"),
    "shopping-outline": ("shopping-bag", "shopping-bag-line"),
    "share": ("share-network", "share-line"),
    "share-variant": ("share-network", "share-line"),
    "reply": ("arrow-bend-up-left", "reply-line"),
    "repeat": ("repeat", "repeat-line"),
    "play-box-multiple": ("film-strip", "play-list-line"),
    "pencil-outline": ("pencil-simple", "pencil-line"),
    "pencil": ("pencil-simple-fill", "pencil-fill"),
    "note-edit-outline": ("note-pencil", "edit-box-line"),
    "navigation-variant": ("navigation-arrow-fill", "navigation-fill"),
    "music-note": ("music-note", "music-2-line"),
    "music-circle": ("music-notes", "music-line"),
    "menu": ("list", "menu-line"),
    "lock-outline": ("lock", "lock-line"),
    "home-outline": ("house", "home-5-line"),
    "home": ("house-fill", "home-5-fill"),
    "heart-outline": ("heart", "heart-line"),
    "heart": ("heart-fill", "heart-fill"),
    "fullscreen": ("corners-out", "fullscreen-line"),
    "format-list-bulleted": ("list-bullets", "list-unordered"),
    "fonts": ("text-aa", "font-size"),
    "email-outline": ("envelope-simple", "mail-line"),
    "email": ("envelope-simple-fill", "mail-fill"),
    "delete-outline": ("trash", "delete-bin-line"),
    "cog-outline": ("gear", "settings-3-line"),
    "cog": ("gear-fill", "settings-3-fill"),
    "clock-outline": ("clock", "time-line"),
    "cast": ("screencast", "cast-line"),
    "bluetooth": ("bluetooth", "bluetooth-line"),
    "backspace-outline": ("backspace", "delete-back-2-line"),
    "apps-box": ("squares-four-fill", "apps-fill"),
    "application": ("app-window", "window-line"),
    "apple-keyboard-shift": ("arrow-fat-up", "arrow-up-line"),
    "animation-play-outline": ("play-circle", "play-circle-line"),
    "airplane": ("airplane", "plane-line"),
    "battery-70": ("battery-high", "battery-2-line"),
    "battery-50": ("battery-medium", "battery-low-line"),
    "check": ("check", "check-line"),
    "camera": ("camera", "camera-line"),
    "image": ("image", "image-line"),
    "download": ("download-simple", "download-line"),
    "bookmark-outline": ("bookmark-simple", "bookmark-line"),
    "information-outline": ("info", "information-line"),
    "eye": ("eye", "eye-line"),
    "filter-variant": ("funnel", "filter-3-line"),
    "content-copy": ("copy", "file-copy-line"),
    "link": ("link", "link"),
    "phone": ("phone", "phone-line"),
    "refresh": ("arrow-clockwise", "refresh-line"),
    "palette": ("palette", "palette-line"),
    "star-outline": ("star", "star-line"),
    "thumb-down-outline": ("thumbs-down", "thumb-down-line"),
    "comment-outline": ("chat-circle", "chat-1-line"),
    "bookmark": ("bookmark-simple-fill", "bookmark-fill"),
}

ICON_SETS: dict[str, tuple[str, int, str]] = {
    # name: (qtawesome font file prefix, column of ICON_MAP, licence)
    "phosphor": ("phosphor", 0, "MIT (Phosphor Icons 1.3, shipped in qtawesome)"),
    "remix": ("remixicon", 1, "Apache-2.0 (Remix Icon 2.5, shipped in qtawesome)"),
}


@lru_cache(maxsize=8)
def icon_charmap(icons: str) -> dict[str, int]:
    prefix = ICON_SETS[icons][0]
    _, cmap = _qta(prefix)
    if cmap is None:
        raise ConfigError(f"icon set {icons!r} is not installed: pip install qtawesome")
    raw = json.loads(cmap.read_text(encoding="utf-8"))
    return {k: (int(v, 16) if isinstance(v, str) else int(v)) for k, v in raw.items()}


@lru_cache(maxsize=128)
def load_icon_font(icons: str, size: int) -> ImageFont.FreeTypeFont:
    ttf, _ = _qta(ICON_SETS[icons][0])
    if ttf is None:
        raise ConfigError(f"icon set {icons!r} is not installed: pip install qtawesome")
    return ImageFont.truetype(str(ttf), size)


def icon_name(icons: str, mdi: str) -> str | None:
    """The icon set's name for the sim's MDI icon ``mdi``, or None (then the MDI glyph is drawn)."""
    cmap = icon_charmap(icons)
    col = ICON_SETS[icons][1]
    mapped = ICON_MAP.get(mdi)
    guesses = [mapped[col]] if mapped else []
    base = mdi.removesuffix("-outline")
    guesses += [base, f"{base}-line"] if icons == "remix" else [base]
    for g in guesses:
        if g in cmap:
            return g
    return None


def icon_available(icons: str) -> bool:
    return icons == "mdi" or all(p is not None for p in _qta(ICON_SETS[icons][0]))

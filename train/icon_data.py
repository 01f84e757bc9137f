"""Training data for the icon recogniser: icon fonts rendered the way phones draw them.

Every concept of the Click Icon vocabulary (``perception/icons/lexicon.toml``: a Font Awesome glyph
name, or ``mi:NAME`` for a Material-only glyph) is looked up by name in the icon fonts that ship in
the project's own pip dependencies, and each glyph found is rendered once, large, as an ink mask
(``glyph_bank``). ``sample`` then draws one training crop from a mask as a phone would show it:
18-48 dp at 1x-4x density, stroke weight, margins, tint and theme, a pill or a disc behind, a
badge or a dot, a neighbour cut into the crop, a photo behind, blur, JPEG. ``negative`` draws a crop
that is no icon (a word, part of a photo, a divider, a frame, a sliver of a glyph).

Sources (all permissive; ``SOURCES`` names each with its package and licence): Font Awesome Free 6
solid and regular (fonticon-fontawesome6 and qtawesome: icons CC BY 4.0, font SIL OFL 1.1), Font
Awesome 5 (qtawesome), Material Design Icons 6 (qtawesome, Apache-2.0), Google's Material Icons and a
subset of Material Symbols Outlined (shipped in ``perception/icons/refs``, Apache-2.0), Phosphor in
five weights (qtawesome, MIT), Remix Icon line and fill (qtawesome, Apache-2.0), Codicons (qtawesome,
CC BY 4.0) and Elusive Icons (qtawesome, SIL OFL 1.1).

Held out on purpose (never rendered here), so that the project's synthetic icon sets still measure
styles the recogniser has not seen: Tabler (the second held-out set), Lucide (the icon stress set),
Entypo and Glyphicons (the first held-out set), Material Symbols Rounded and Sharp (the Material
styles set). The development set's real screenshots are never read here.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception.icons.offline import qta_font_file
from mobile_agent.perception.icons.recogniser import NOT_ICON, concept_of_spec, prepare

BANK_SIZE = 72  # a glyph's mask is kept with its longer side this many pixels

# Other names of a Font Awesome glyph in the other sets (beside its Material names, which
# MATERIAL_OF gives, and its own): looked up with each set's suffixes (-outline, -line, -fill, ...).
ALIASES: dict[str, tuple[str, ...]] = {
    "magnifying_glass": ("magnify", "search", "search-2"), "gear": ("cog", "settings~remix", "gear-six", "settings-3~remix"),
    "xmark": ("close", "x", "close-circle~no"), "house": ("home", "home-4", "house-simple"),
    "trash": ("delete", "trash-can", "delete-bin", "trash-simple"), "trash_can": ("trash-can", "delete-bin-5", "trash"),
    "ellipsis_vertical": ("dots-vertical", "dots-three-vertical", "more-2"),
    "ellipsis": ("dots-horizontal", "dots-three", "more"), "bars": ("menu", "list~phosphor"),
    "circle_user": ("account-circle", "user-circle"), "user": ("account", "user", "person"),
    "pen": ("pencil", "pencil-simple", "edit", "edit-2", "pen"), "pencil": ("pencil", "pencil-simple", "pencil-line"),
    "pen_to_square": ("pencil-box", "note-pencil", "edit-box", "square-edit-outline"),
    "envelope": ("email", "mail", "envelope-simple"), "phone": ("phone",), "camera": ("camera",),
    "location_dot": ("map-marker", "map-pin", "map-pin-2"), "paper_plane": ("send", "paper-plane-right", "paper-plane-tilt", "send-plane"),
    "cart_shopping": ("cart", "shopping-cart", "shopping-cart-2"), "bag_shopping": ("shopping", "handbag", "shopping-bag"),
    "microphone": ("microphone", "mic"), "microphone_slash": ("microphone-off", "microphone-slash", "mic-off"),
    "bell": ("bell",), "star": ("star",), "heart": ("heart",), "check": ("check",),
    "circle_check": ("check-circle", "checkbox-circle"), "circle_xmark": ("close-circle", "x-circle"),
    "circle_plus": ("plus-circle", "add-circle"), "circle_info": ("information", "info", "information-line~no"),
    "circle_question": ("help-circle", "question", "question-circle"), "+": ("plus", "add"),
    "minus": ("minus", "subtract"), "arrow_left": ("arrow-left",), "arrow_right": ("arrow-right",),
    "arrow_up": ("arrow-up",), "arrow_down": ("arrow-down",), "chevron_left": ("chevron-left", "caret-left~phosphor", "arrow-left-s"),
    "chevron_right": ("chevron-right", "caret-right~phosphor", "arrow-right-s"),
    "chevron_up": ("chevron-up", "caret-up~phosphor", "arrow-up-s"), "chevron_down": ("chevron-down", "caret-down~phosphor", "arrow-down-s"),
    "caret_down": ("menu-down", "arrow-down-s-fill~remix", "triangle-down"), "caret_left": ("menu-left",),
    "share_nodes": ("share-variant", "share-network", "share"), "share": ("share", "share-fat", "share-forward"),
    "comment": ("comment", "chat", "chat-circle", "chat-3"), "message": ("message", "chat-teardrop", "message-2"),
    "comments": ("forum", "chats", "chat-4"), "reply": ("reply", "arrow-bend-up-left", "reply"),
    "image": ("image", "image-square"), "images": ("image-multiple", "images", "gallery"),
    "calendar": ("calendar", "calendar-blank", "calendar-2"), "clock": ("clock", "time"),
    "clock_rotate_left": ("history", "clock-counter-clockwise"), "lock": ("lock", "lock-simple"),
    "lock_open": ("lock-open", "lock-unlock", "lock-simple-open"), "globe": ("earth", "globe", "globe-simple"),
    "download": ("download", "tray-arrow-down", "download-simple"), "upload": ("upload", "tray-arrow-up", "upload-simple"),
    "filter": ("filter", "funnel", "filter-3"), "sort": ("sort", "sort-ascending"), "bookmark": ("bookmark", "bookmark-simple"),
    "arrow_rotate_right": ("refresh", "arrow-clockwise", "refresh-line~no", "reload"),
    "rotate_right": ("refresh", "arrow-clockwise", "rotate-right"), "arrows_rotate": ("sync", "arrows-clockwise", "loop-right"),
    "arrow_rotate_left": ("undo", "arrow-counter-clockwise", "arrow-go-back"), "rotate_left": ("undo", "arrow-counter-clockwise"),
    "thumbs_up": ("thumb-up", "thumbs-up", "thumb-up"), "thumbs_down": ("thumb-down", "thumbs-down"),
    "eye": ("eye",), "eye_slash": ("eye-off", "eye-slash", "eye-closed"), "link": ("link", "link-simple", "link-m"),
    "paperclip": ("paperclip", "attachment", "attachment-2"), "face_smile": ("emoticon-happy", "smiley", "emotion-happy", "emoticon"),
    "copy": ("content-copy", "copy", "file-copy"), "paste": ("content-paste", "clipboard", "clipboard-text"),
    "tag": ("tag", "price-tag-3", "tag-simple"), "folder": ("folder", "folder-simple", "folder-3"),
    "file": ("file", "file-blank", "file-3"), "file_lines": ("file-document", "file-text"),
    "list": ("format-list-bulleted", "list-bullets", "list-check", "list-unordered"),
    "play": ("play",), "pause": ("pause",), "stop": ("stop",), "forward_step": ("skip-next", "skip-forward"),
    "backward_step": ("skip-previous", "skip-back"), "forward": ("fast-forward", "speed"), "backward": ("rewind",),
    "repeat": ("repeat",), "shuffle": ("shuffle", "shuffle-variant"), "music": ("music", "music-note", "music-notes"),
    "headphones": ("headphones", "headset"), "video": ("video", "video-camera", "vidicon"), "film": ("movie", "film-strip", "film"),
    "volume_high": ("volume-high", "speaker-high", "volume-up"), "volume_xmark": ("volume-off", "speaker-x", "volume-mute"),
    "wifi": ("wifi", "wifi-high"), "bluetooth": ("bluetooth",), "bluetooth_b": ("bluetooth",),
    "moon": ("weather-night", "moon"), "sun": ("white-balance-sunny", "sun"), "lightbulb": ("lightbulb", "lightbulb-on"),
    "fire": ("fire", "flame"), "gift": ("gift",), "flag": ("flag",), "bolt": ("lightning-bolt", "lightning", "flashlight"),
    "power_off": ("power", "power-standby", "shut-down"), "qrcode": ("qrcode", "qr-code"),
    "keyboard": ("keyboard",), "print": ("printer",), "palette": ("palette",), "compass": ("compass",),
    "location_crosshairs": ("crosshairs-gps", "crosshair", "focus-3"), "location_arrow": ("navigation", "navigation-2", "navigation-arrow"),
    "map": ("map",), "store": ("store", "storefront", "store-2"), "wallet": ("wallet",), "credit_card": ("credit-card", "bank-card"),
    "expand": ("fullscreen", "arrows-out", "fullscreen-line~no"), "compress": ("fullscreen-exit", "arrows-in"),
    "magnifying_glass_plus": ("magnify-plus", "magnifying-glass-plus", "zoom-in"), "right_from_bracket": ("logout", "sign-out", "logout-box-r"),
    "grip": ("apps", "dots-nine", "apps-2"), "table_cells": ("view-grid", "grid-four", "grid", "layout-grid"),
    "box_archive": ("archive", "archive-box"), "thumbtack": ("pin", "push-pin", "pushpin"), "book": ("book", "book-open"),
    "inbox": ("inbox", "tray"), "address_book": ("contacts", "address-book", "contacts-book"),
    "calculator": ("calculator",), "triangle_exclamation": ("alert", "warning", "error-warning"),
    "rss": ("rss", "rss-simple"), "square_rss": ("rss-box",), "cloud": ("cloud",), "cloud_rain": ("weather-rainy", "cloud-rain", "rainy"),
    "cloud_sun": ("weather-partly-cloudy", "cloud-sun", "sun-cloudy"), "snowflake": ("snowflake",), "wind": ("weather-windy", "wind", "windy"),
    "note_sticky": ("note", "note-blank", "sticky-note"), "newspaper": ("newspaper", "newspaper-clipping", "newspaper"),
    "podcast": ("podcast", "microphone-stage"), "radio": ("radio",), "tv": ("television", "television-simple", "tv"),
    "mobile_screen": ("cellphone", "device-mobile", "smartphone"), "signal": ("signal", "cell-signal-full", "signal-cellular-3"),
    "battery_full": ("battery", "battery-full"), "hard_drive": ("harddisk", "hard-drive", "hard-drive-2"), "sd_card": ("sd", "sd-card"),
    "crop": ("crop",), "language": ("translate", "translation"), "stopwatch": ("timer", "timer-outline~no"),
    "toggle_on": ("toggle-switch", "toggle-right"), "toggle_off": ("toggle-switch-off", "toggle-left"),
    "delete_left": ("backspace", "delete-back-2"), "arrow_turn_down": ("keyboard-return", "arrow-elbow-down-left", "corner-down-left"),
    "floppy_disk": ("content-save", "floppy-disk", "save"), "retweet": ("twitter-retweet", "repeat"),
    "square": ("square", "checkbox-blank", "square-outline~no"), "circle": ("circle", "checkbox-blank-circle"),
    "circle_half_stroke": ("circle-half-full", "circle-half", "contrast"), "user_secret": ("incognito", "detective"),
    "mask": ("drama-masks", "mask-happy"), "glasses": ("glasses", "eyeglasses"), "chromecast": ("cast",),
    "diamond_turn_right": ("directions", "sign-direction", "direction"), "arrow_trend_up": ("trending-up", "trend-up", "line-chart"),
    "file_export": ("file-export", "file-upload"), "file_import": ("file-import", "file-download"),
    "file_pen": ("file-edit", "note-pencil", "file-edit"), "share_from_square": ("share-box", "export"),
    "arrow_up_from_bracket": ("export-variant", "export", "upload-2"), "calendar_day": ("calendar-today", "calendar-check", "calendar-event"),
    "circle_play": ("play-circle",), "circle_pause": ("pause-circle",), "circle_stop": ("stop-circle",),
    "circle_up": ("arrow-up-circle", "arrow-circle-up"), "square_plus": ("plus-box", "plus-square", "add-box"),
    "square_caret_right": ("play-box", "youtube-subscription"), "arrow_down_wide_short": ("sort-descending", "sort-variant"),
    "sliders": ("tune", "sliders", "sliders-horizontal", "equalizer"), "eye_dropper": ("eyedropper",),
}
# Phosphor calls the hamburger "list" and a chevron "caret": such an alias counts in that set only
# ("name~set"); "name~no" is a near name that is another glyph there, never looked up.

# A concept whose glyph a set draws turned (Font Awesome's paper plane flies up-right; a send
# glyph drawn flat is the same concept): the vocabulary's turned specs are one concept with their
# glyph, rendered both ways; only a turn that changes the meaning is a concept of its own.
OWN_TURNS = {"play@180"}


@dataclass(frozen=True)
class Source:
    name: str          # a short tag, kept in the model card's per-style figures
    font: str          # the font file
    charmap: dict      # glyph name -> code point
    suffixes: tuple[str, ...]  # the set's style suffixes tried after a name ("" = the bare name)
    licence: str


def _refs() -> Path:
    import mobile_agent.perception.icons as icons

    return Path(icons.__file__).with_name("refs")


@lru_cache(maxsize=1)
def sources() -> tuple[Source, ...]:
    """The icon fonts rendered for training, each with its character map."""
    from mobile_agent.perception.icons.offline import _MATERIAL_CODEPOINTS

    out: list[Source] = []
    for tag, prefix, suffixes, lic in (
            ("fa6s", "fontawesome6-solid-webfont", ("",), "Font Awesome Free: CC BY 4.0 icons, SIL OFL 1.1 font"),
            ("fa6r", "fontawesome6-regular-webfont", ("",), "Font Awesome Free: CC BY 4.0 icons, SIL OFL 1.1 font"),
            ("fa5s", "fontawesome5-solid-webfont", ("",), "Font Awesome Free: CC BY 4.0 icons, SIL OFL 1.1 font"),
            ("fa5r", "fontawesome5-regular-webfont", ("",), "Font Awesome Free: CC BY 4.0 icons, SIL OFL 1.1 font"),
            ("mdi", "materialdesignicons6-webfont", ("", "-outline"), "Material Design Icons: Apache-2.0"),
            ("phosphor", "phosphor", ("", "-fill", "-bold", "-light", "-thin"), "Phosphor: MIT"),
            ("remix", "remixicon", ("-line", "-fill", ""), "Remix Icon: Apache-2.0"),
            ("codicon", "codicon", ("", "-filled"), "Codicons: CC BY 4.0"),
            ("elusive", "elusiveicons-webfont", ("",), "Elusive Icons: SIL OFL 1.1")):
        found = qta_font_file(prefix)
        if found is not None:
            out.append(Source(tag, found[0], found[1], suffixes, lic))
    refs = _refs()
    out.append(Source("material", str(refs / "MaterialIcons-Regular.ttf"), dict(_MATERIAL_CODEPOINTS), ("",),
                      "Material Icons: Apache-2.0"))
    sym = json.loads((refs / "MaterialSymbolsOutlined-subset.json").read_text(encoding="utf-8"))
    out.append(Source("symbols", str(refs / "MaterialSymbolsOutlined-subset.ttf"), {k: int(v) for k, v in sym.items()},
                      ("",), "Material Symbols Outlined: Apache-2.0"))
    return tuple(out)


def concepts() -> list[str]:
    """The classes: every concept of the lexicon (``NOT_ICON`` first)."""
    from mobile_agent.perception.icons.recogniser import lexicon_concepts

    return [NOT_ICON] + lexicon_concepts()


def _names_in(source: Source, concept: str) -> list[str]:
    """The glyph names of ``concept`` in ``source`` (with each of its style suffixes)."""
    from mobile_agent.perception.icons.lexicon import MATERIAL_OF, OTHER_SETS

    base = concept.partition("@")[0]
    if base.startswith("mi:"):
        mat = (base[3:],)
        fa: tuple[str, ...] = ()
    else:
        mat = MATERIAL_OF.get(base, ())
        fa = ("plus",) if base == "+" else (base.replace("_", "-"),)
    if source.name in ("material", "symbols"):
        return [m for m in mat if m in source.charmap]
    if source.name.startswith("fa"):
        return [n for n in fa if n in source.charmap]
    cands: list[str] = []
    if source.name in ("codicon", "elusive"):
        pre = "cd:" if source.name == "codicon" else "el:"
        cands += [o.partition("@")[0][3:] for o in OTHER_SETS.get(base, ()) if o.startswith(pre)]
    for alias in ALIASES.get(base, ()) + fa + tuple(m.replace("_", "-") for m in mat):
        name, _, only = alias.partition("~")
        if only == "no" or (only and only != source.name):
            continue
        cands.append(name)
    out: list[str] = []
    for c in dict.fromkeys(cands):
        for suf in source.suffixes:
            if c + suf in source.charmap and c + suf not in out:
                out.append(c + suf)
    return out


@lru_cache(maxsize=64)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def render_mask(font: str, codepoint: int, turn: float = 0.0) -> np.ndarray | None:
    """One glyph drawn large as a tight ink mask (uint8), its longer side ``BANK_SIZE``."""
    size = 160
    canvas = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(canvas).text((size // 2, size // 2), chr(codepoint), fill=255, font=_font(font, size))
    a = np.asarray(canvas)
    if turn:
        m = cv2.getRotationMatrix2D((size, size), turn, 1.0)
        a = cv2.warpAffine(a, m, (size * 2, size * 2), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(a > 40)
    if len(xs) < 20:
        return None
    a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    f = BANK_SIZE / max(a.shape)
    return cv2.resize(a, (max(1, round(a.shape[1] * f)), max(1, round(a.shape[0] * f))), interpolation=cv2.INTER_AREA)


def glyph_bank(names: list[str] | None = None) -> dict[str, list[tuple[str, np.ndarray]]]:
    """concept -> [(source tag, ink mask)] for every concept of ``names`` (default all) and every
    source that draws it; a turned concept (``play@180``) is its glyph turned."""
    from mobile_agent.perception.icons.lexicon import VOCABULARY

    wanted = names or concepts()[1:]
    # the turns the vocabulary draws a concept's glyph in (merged into the concept)
    turns: dict[str, set[float]] = {}
    for specs in VOCABULARY.values():
        for spec in specs:
            c = concept_of_spec(spec)
            base = spec.split("~")[0].split("|")[0]
            rot = base.partition("@")[2]
            if rot and c not in OWN_TURNS:
                turns.setdefault(c, set()).add(float(rot))
    bank: dict[str, list[tuple[str, np.ndarray]]] = {}
    for concept in wanted:
        base, _, own = concept.partition("@")
        rots = [float(own)] if own else [0.0] + sorted(turns.get(concept, ()))
        out: list[tuple[str, np.ndarray]] = []
        for src in sources():
            for name in _names_in(src, base):
                # the vocabulary's turns are of Font Awesome's drawing; other sets as they draw it
                for r in (rots if own or src.name.startswith("fa") else [0.0]):
                    m = render_mask(src.font, src.charmap[name], r)
                    if m is not None:
                        out.append((src.name, m))
        bank[concept] = out
    return bank


# ---------------------------------------------------------------------------------------------
# drawing one crop as a phone shows it
# ---------------------------------------------------------------------------------------------
_THEMES_LIGHT = [(255, 255, 255), (250, 250, 250), (245, 245, 247), (240, 244, 250), (255, 251, 254), (248, 249, 250)]
_THEMES_DARK = [(0, 0, 0), (18, 18, 18), (32, 33, 36), (28, 27, 31), (16, 20, 24), (48, 48, 48)]


def _colour(rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(v) for v in rng.integers(0, 256, 3))  # type: ignore[return-value]


def _contrasting(rng: np.random.Generator, bg: tuple[int, int, int], low: bool = False) -> tuple[int, int, int]:
    for _ in range(20):
        c = _colour(rng) if rng.random() < 0.5 else ((20, 20, 20) if sum(bg) > 380 else (235, 235, 235))
        if rng.random() < 0.4:  # a grey of the theme
            g = int(rng.integers(60, 120)) if sum(bg) > 380 else int(rng.integers(160, 230))
            c = (g, g, g)
        d = max(abs(a - b) for a, b in zip(c, bg))
        if (low and 35 <= d <= 80) or (not low and d >= 90):
            return c  # type: ignore[return-value]
    return (0, 0, 0) if sum(bg) > 380 else (255, 255, 255)


def _photo(rng: np.random.Generator, h: int, w: int) -> np.ndarray | None:
    photos = _photos()
    if not photos:
        return None
    p = photos[int(rng.integers(len(photos)))]
    s = float(rng.uniform(0.15, 1.0))
    ph, pw = max(h, int(p.shape[0] * s)), max(w, int(p.shape[1] * s))
    p = cv2.resize(p, (pw, ph), interpolation=cv2.INTER_AREA)
    y, x = int(rng.integers(0, ph - h + 1)), int(rng.integers(0, pw - w + 1))
    return p[y:y + h, x:x + w].copy()


@lru_cache(maxsize=1)
def _photos() -> list[np.ndarray]:
    """Public-domain and CC0 photographs of scikit-image's wheel (a development extra)."""
    try:
        import skimage.data as d
    except ImportError:
        return []
    out = []
    for name in ("astronaut", "coffee", "chelsea", "rocket", "motorcycle_left", "retina", "hubble_deep_field", "immunohistochemistry"):
        fn = getattr(d, name, None)
        try:
            img = np.asarray(fn() if not name.startswith("motorcycle") else d.stereo_motorcycle()[0])
        except Exception:
            continue
        if img.ndim == 2:
            img = np.stack([img] * 3, -1)
        out.append(np.ascontiguousarray(img[..., :3]).astype(np.uint8))
    return out


def _weight(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r = rng.random()
    if r < 0.2:
        return cv2.dilate(mask, np.ones((3, 3), np.uint8), iterations=int(rng.integers(1, 3)))
    if r < 0.35:
        return cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=1)
    return mask


def draw_glyph(mask: np.ndarray, rng: np.random.Generator, cut_neighbour: np.ndarray | None = None) -> np.ndarray:
    """``mask`` drawn as an icon on a phone's screen: an RGB crop of the box a detector would give."""
    mask = _weight(mask, rng)
    size = int(rng.integers(12, 120))  # the glyph's pixels: 18-48 dp at 1x-4x and what detectors crop
    f = size / max(mask.shape)
    gw, gh = max(2, round(mask.shape[1] * f * rng.uniform(0.92, 1.08))), max(2, round(mask.shape[0] * f))
    g = cv2.resize(mask, (gw, gh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    # the margin the detector's box leaves around the ink (per side, a fraction of the glyph): most
    # boxes hug the glyph; some are the button's (a touch target, a FAB's disc, a coloured square)
    wide = rng.random() < 0.3
    m = [int(round(rng.uniform(0.0, 0.9 if wide else 0.3) * size)) for _ in range(4)]
    H, W = gh + m[0] + m[1], gw + m[2] + m[3]
    dark = rng.random() < 0.4
    themes = _THEMES_DARK if dark else _THEMES_LIGHT
    bg = themes[int(rng.integers(len(themes)))] if rng.random() < 0.7 else _colour(rng)
    canvas = np.empty((H, W, 3), np.float32)
    canvas[:] = bg
    r = rng.random()
    if r < 0.12:
        photo = _photo(rng, H, W)
        if photo is not None:
            canvas = photo.astype(np.float32)
            if rng.random() < 0.5:  # a scrim
                canvas = canvas * rng.uniform(0.4, 0.8)
            bg = tuple(int(v) for v in canvas.reshape(-1, 3).mean(0))
    elif r < 0.17:  # a gradient
        other = np.array(_colour(rng), np.float32)
        t = np.linspace(0, 1, H)[:, None, None]
        canvas = canvas * (1 - t) + other * t
    ink_bg = bg
    if rng.random() < (0.5 if wide else 0.15):  # a pill or a disc behind the glyph (a FAB, a selected tab, a chip)
        pill = _contrasting(rng, bg) if rng.random() < 0.5 else tuple(int(np.clip(c + rng.integers(-40, 40), 0, 255)) for c in bg)
        py, px = int(m[0] * rng.uniform(0, 0.6)), int(m[2] * rng.uniform(0, 0.6))
        shape = np.zeros((H, W), np.uint8)
        if rng.random() < 0.5:
            cv2.ellipse(shape, (W // 2, H // 2), (max(1, W // 2 - px), max(1, H // 2 - py)), 0, 0, 360, 255, -1)
        else:
            rad = int(min(H, W) * rng.uniform(0.1, 0.5))
            cv2.rectangle(shape, (px + rad // 2, py), (W - px - rad // 2 - 1, H - py - 1), 255, -1)
            cv2.rectangle(shape, (px, py + rad // 2), (W - px - 1, H - py - rad // 2 - 1), 255, -1)
        a = (cv2.GaussianBlur(shape, (3, 3), 0).astype(np.float32) / 255.0)[..., None]
        canvas = canvas * (1 - a) + np.array(pill, np.float32) * a
        ink_bg = pill  # type: ignore[assignment]
    fg = np.array(_contrasting(rng, ink_bg, low=rng.random() < 0.1), np.float32)
    a = np.zeros((H, W), np.float32)
    a[m[0]:m[0] + gh, m[2]:m[2] + gw] = g
    if cut_neighbour is not None and rng.random() < 0.5:  # a neighbour's edge in the crop
        nb = cv2.resize(cut_neighbour, (max(2, gw), max(2, gh)), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
        show = max(1, int(nb.shape[1] * rng.uniform(0.1, 0.3)))
        if rng.random() < 0.5:
            a[m[0]:m[0] + gh, W - show:] = np.maximum(a[m[0]:m[0] + gh, W - show:], nb[:, :show])
        else:
            a[m[0]:m[0] + gh, :show] = np.maximum(a[m[0]:m[0] + gh, :show], nb[:, -show:])
    canvas = canvas * (1 - a[..., None]) + fg * a[..., None]
    if rng.random() < 0.15:  # a badge: a red disc (a count) or a dot at a corner
        rad = max(2, int(min(gh, gw) * rng.uniform(0.15, 0.3)))
        cx = m[2] + gw - rad // 2 if rng.random() < 0.8 else m[2] + rad // 2
        cy = m[0] + rad // 2
        cv2.circle(canvas, (int(cx), int(cy)), rad, (float(rng.integers(200, 256)), float(rng.integers(0, 80)), float(rng.integers(0, 80))), -1)
    out = np.clip(canvas, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (3, 3), float(rng.uniform(0.3, 1.0)))
    if rng.random() < 0.3:
        out = _jpeg(out, int(rng.integers(35, 95)))
    return out


def _jpeg(rgb: np.ndarray, quality: int) -> np.ndarray:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, "JPEG", quality=quality)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))


_WORDS = ["Home", "Settings", "Search", "OK", "Cancel", "12:45", "5G", "Mon", "Share", "Inbox", "Aa", "Tue 3",
          "Next", "Save", "New", "Edit", "A", "B", "km", "€12", "Done", "Play", "+1", "99+", "Hi", "Log in",
          "Music", "Photos", "Maps", "mail", "You", "Top", "Feed", "Back", "Menu", "Info", "x2", "%", "#", "@"]


@lru_cache(maxsize=1)
def _text_fonts() -> list[str]:
    fonts: list[str] = []
    import importlib.util

    for pkg in ("fontpkg_roboto", "fontpkg_noto_sans", "fontpkg_open_sans", "fontpkg_inter", "fontpkg_lato"):
        spec = importlib.util.find_spec(pkg)
        if spec is None or not spec.submodule_search_locations:
            continue
        root = Path(list(spec.submodule_search_locations)[0])
        fonts += sorted(str(p) for p in root.rglob("*.ttf") if "Italic" not in p.name)[:4]
    return fonts


def negative(rng: np.random.Generator, bank: dict[str, list[tuple[str, np.ndarray]]] | None = None) -> np.ndarray:
    """A crop a detector gives that is no icon: a word, a photo's part, a divider, a frame, a
    plain patch, or a sliver of a glyph."""
    kind = rng.random()
    dark = rng.random() < 0.4
    bg = (_THEMES_DARK if dark else _THEMES_LIGHT)[int(rng.integers(6))]
    if kind < 0.35 and _text_fonts():
        fonts = _text_fonts()
        word = _WORDS[int(rng.integers(len(_WORDS)))]
        if rng.random() < 0.3:
            word = word[: int(rng.integers(1, len(word) + 1))]
        font = _font(fonts[int(rng.integers(len(fonts)))], int(rng.integers(14, 70)))
        x0, y0, x1, y1 = font.getbbox(word)
        pad = int(rng.integers(0, 8))
        img = Image.new("RGB", (x1 - x0 + 2 * pad + 1, y1 - y0 + 2 * pad + 1), bg)
        ImageDraw.Draw(img).text((pad - x0, pad - y0), word, fill=_contrasting(rng, bg), font=font)
        out = np.asarray(img)
    elif kind < 0.6:
        h, w = int(rng.integers(16, 140)), int(rng.integers(16, 140))
        out = _photo(rng, h, w)
        if out is None:
            out = np.full((h, w, 3), bg, np.uint8)
    elif kind < 0.75:  # a divider, a frame, a field's outline, a plain patch
        h, w = int(rng.integers(16, 120)), int(rng.integers(16, 120))
        canvas = np.full((h, w, 3), bg, np.uint8)
        fg = _contrasting(rng, bg, low=rng.random() < 0.5)
        r = rng.random()
        t = int(rng.integers(1, 4))
        if r < 0.35:
            y = int(rng.integers(0, h))
            cv2.line(canvas, (0, y), (w - 1, y), fg, t)
        elif r < 0.7:
            cv2.rectangle(canvas, (t, t), (w - 1 - t, h - 1 - t), fg, t)
        elif r < 0.85:
            canvas[:] = fg
        out = canvas
    else:  # a sliver of a glyph (part of one another box holds whole)
        if not bank:
            out = np.full((24, 24, 3), bg, np.uint8)
        else:
            keys = [k for k, v in bank.items() if v]
            glyphs = bank[keys[int(rng.integers(len(keys)))]]
            mask = glyphs[int(rng.integers(len(glyphs)))][1]
            frac = rng.uniform(0.12, 0.3)
            if rng.random() < 0.5:
                w = max(2, int(mask.shape[1] * frac))
                mask = mask[:, :w] if rng.random() < 0.5 else mask[:, -w:]
            else:
                h = max(2, int(mask.shape[0] * frac))
                mask = mask[:h] if rng.random() < 0.5 else mask[-h:]
            out = draw_glyph(mask, rng)
    if rng.random() < 0.3:
        out = _jpeg(np.ascontiguousarray(out), int(rng.integers(35, 95)))
    return np.ascontiguousarray(out)


def make_dataset(bank: dict[str, list[tuple[str, np.ndarray]]], classes: list[str], per_class: int,
                 negatives: int, seed: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``per_class`` crops of every class with renderings and ``negatives`` crops of no icon, each
    prepared as the recogniser's input (uint8 SIDE x SIDE), with their labels and source tags."""
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    tags: list[str] = []
    flat = [m for v in bank.values() for _, m in v]
    for ci, concept in enumerate(classes):
        if ci == 0:
            continue
        glyphs = bank.get(concept) or []
        if not glyphs:
            continue
        by_source: dict[str, list[np.ndarray]] = {}
        for tag, m in glyphs:
            by_source.setdefault(tag, []).append(m)
        srcs = sorted(by_source)
        first = int(rng.integers(len(srcs)))
        for k in range(per_class):
            tag = srcs[(first + k) % len(srcs)]  # every source of the concept in turn
            ms = by_source[tag]
            mask = ms[int(rng.integers(len(ms)))]
            nb = flat[int(rng.integers(len(flat)))] if flat else None
            xs.append(prepare(draw_glyph(mask, rng, nb)))
            ys.append(ci)
            tags.append(tag)
    for _ in range(negatives):
        xs.append(prepare(negative(rng, bank)))
        ys.append(0)
        tags.append("none")
    return np.stack(xs), np.asarray(ys, np.int64), tags

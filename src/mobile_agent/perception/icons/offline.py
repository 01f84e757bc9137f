"""Offline icon matcher: reference glyphs rendered from three icon sets, compared by shape.

Needs no weights. A description's words ("search", "heart", "three dots", "red plus") map to Font
Awesome glyph names through a small vocabulary; each glyph is rendered, with the same glyph drawn by
Codicons (or Elusive Icons) and by Google's Material Icons (shipped in ``refs/``), and a candidate
box is compared to them by the shape of its ink (blurred mask correlation and filled silhouette
correlation at 32x32, an edge-orientation histogram, aspect ratio). Colour words in the description
("red", "blue"...) add a bonus when the candidate's ink has that hue. An avatar description
("profile picture") favours round, photo-like candidates; for any other description a photo-like
candidate (``texture_score``, ``shading_score``) loses up to half its score, unless a flat white or
black glyph keyed out of it (``keyed_mask``: an icon drawn over a photo) is what matched. A badge on
a bell or a cart (``without_badge``) is painted out before the photo test.

Material Icons are close to the Material Design Icons the simulated phone draws, so the sim set no
longer measures unseen glyphs; the held-out icon sets (``mobile_agent.screensets.icon_heldout`` and
``icon_heldout_v2``) do.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.perception.icons.density import at_reference, density_factor, to_reference
from mobile_agent.perception.icons.lexicon import (COLORS, MATERIAL_OF, OTHER_SETS, VOCABULARY, IconQuery,
                                                    _without_verbs, description_words)
from mobile_agent.perception.icons.layout import dp_scale, in_nav_bar
from mobile_agent.perception.icons.pixels import picture_score, roundness, shading_score, texture_score
from mobile_agent.types import Box


_MATERIAL_CODEPOINTS: dict[str, int] = {
    'search': 0xe8b6, 'settings': 0xe8b8, 'tune': 0xe429, 'favorite': 0xe87d, 'favorite_border': 0xe87e,
    'chat_bubble': 0xe0ca, 'chat_bubble_outline': 0xe0cb, 'comment': 0xe0b9, 'forum': 0xe0bf, 'reply': 0xe15e,
    'share': 0xe80d, 'ios_share': 0xe6b8, 'add': 0xe145, 'edit': 0xe3c9, 'create': 0xe150, 'arrow_back': 0xe5c4, 'arrow_back_ios': 0xe5e0,
    'chevron_left': 0xe5cb, 'play_arrow': 0xe037, 'send': 0xe163, 'shopping_cart': 0xe8cc, 'mic': 0xe029,
    'menu': 0xe5d2, 'more_vert': 0xe5d4, 'more_horiz': 0xe5d3, 'close': 0xe5cd, 'cancel': 0xe5c9, 'check': 0xe5ca,
    'check_circle': 0xe86c, 'star': 0xe838, 'star_border': 0xe83a, 'notifications': 0xe7f4,
    'notifications_none': 0xe7f5, 'delete': 0xe872, 'delete_outline': 0xe92e, 'home': 0xe88a, 'photo_camera': 0xe412,
    'image': 0xe3f4, 'photo_library': 0xe413, 'account_circle': 0xe853, 'person': 0xe7fd, 'call': 0xe0b0,
    'mail': 0xe158, 'email': 0xe0be, 'inbox': 0xe156, 'place': 0xe55f, 'map': 0xe55b, 'file_download': 0xe2c4,
    'file_upload': 0xe2c6, 'filter_list': 0xe152, 'filter_alt': 0xef4f, 'event': 0xe878, 'calendar_today': 0xe935,
    'schedule': 0xe8b5, 'history': 0xe889, 'lock': 0xe897, 'lock_open': 0xe898, 'public': 0xe80b, 'language': 0xe894,
    'bookmark': 0xe866, 'bookmark_border': 0xe867, 'refresh': 0xe5d5, 'sync': 0xe627, 'info': 0xe88e, 'help': 0xe887,
    'help_outline': 0xe8fd, 'thumb_up': 0xe8dc, 'thumb_down': 0xe8db, 'visibility': 0xe8f4, 'visibility_off': 0xe8f5,
    'link': 0xe157, 'attach_file': 0xe226, 'insert_emoticon': 0xe24e, 'content_copy': 0xe14d, 'local_offer': 0xe54e,
    'folder': 0xe2c7, 'insert_drive_file': 0xe24d, 'list': 0xe896, 'expand_more': 0xe5cf, 'expand_less': 0xe5ce,
    'chevron_right': 0xe5cc, 'arrow_downward': 0xe5db, 'arrow_upward': 0xe5d8, 'arrow_forward': 0xe5c8,
    'zoom_in': 0xe8ff, 'pause': 0xe034, 'stop': 0xe047, 'credit_card': 0xe870, 'card_giftcard': 0xe8f6,
    'whatshot': 0xe80e, 'archive': 0xe149, 'push_pin': 0xf10d, 'book': 0xe865, 'lightbulb': 0xe0f0,
    'volume_up': 0xe050, 'volume_off': 0xe04f, 'logout': 0xe9ba, 'fullscreen': 0xe5d0, 'fullscreen_exit': 0xe5d1,
    'explore': 0xe87a, 'my_location': 0xe55c, 'videocam': 0xe04b, 'shopping_bag': 0xf1cc, 'shopping_basket': 0xe8cb,
    'store': 0xe8d1, 'apps': 0xe5c3, 'keyboard': 0xe312, 'qr_code': 0xef6b, 'flag': 0xe153, 'dark_mode': 0xe51c,
    'light_mode': 0xe518, 'wifi': 0xe63e, 'music_note': 0xe405, 'headphones': 0xf01f, 'skip_next': 0xe044,
    'skip_previous': 0xe045, 'fast_forward': 0xe01f, 'fast_rewind': 0xe020, 'repeat': 0xe040, 'shuffle': 0xe043,
    'print': 0xe8ad, 'palette': 0xe40a, 'backspace': 0xe14a, 'grid_view': 0xe9b0, 'sort': 0xe164,
    'add_circle': 0xe147, 'add_circle_outline': 0xe148, 'add_shopping_cart': 0xe854, 'person_outline': 0xe7ff,
    'flashlight_on': 0xf00b, 'flashlight_off': 0xf00a, 'unfold_less': 0xe5d6, 'unfold_more': 0xe5d7,
    'crop_square': 0xe3c6, 'save': 0xe161,
    # the Material renderings of the rest of the vocabulary's glyphs (MATERIAL_OF's last rows)
    'ac_unit': 0xeb3b, 'account_balance_wallet': 0xe850, 'add_box': 0xe146, 'air': 0xefd8,
    'arrow_drop_down': 0xe5c5, 'arrow_left': 0xe5de, 'battery_full': 0xe1a4, 'bluetooth': 0xe1a7,
    'bolt': 0xea0b, 'calculate': 0xea5f, 'cast': 0xe307, 'cloud': 0xe2bd, 'contacts': 0xe0ba,
    'content_paste': 0xe14f, 'contrast': 0xeb37, 'crop': 0xe3be, 'description': 0xe873,
    'directions': 0xe52e, 'edit_note': 0xe745, 'file_open': 0xeaf3, 'keyboard_return': 0xe31b,
    'mic_off': 0xe02b, 'movie': 0xe02c, 'near_me': 0xe569, 'newspaper': 0xeb81, 'pause_circle': 0xe1a2,
    'play_circle': 0xe1c4, 'podcasts': 0xf048, 'power_settings_new': 0xe8ac, 'radio': 0xe03e,
    'remove': 0xe15b, 'rss_feed': 0xe0e5, 'sd_card': 0xe623, 'signal_cellular_alt': 0xe202,
    'smartphone': 0xe32c, 'sticky_note_2': 0xf1fc, 'stop_circle': 0xef71, 'storage': 0xe1db,
    'subscriptions': 0xe064, 'timer': 0xe425, 'today': 0xe8df, 'toggle_off': 0xe9f5, 'toggle_on': 0xe9f6,
    'trending_up': 0xe8e5, 'tv': 0xe333, 'undo': 0xe166, 'upload_file': 0xe9fc, 'warning': 0xe002,
    'wb_sunny': 0xe430,
}
# Material names drawn from Material Symbols besides those of MATERIAL_OF (bench/build_icon_refs.py
# subsets the fonts to these and MATERIAL_OF's): the filled set's extra glyphs and the toolbar
# glyphs of the Material-styles test screens (mobile_agent.screensets.icon_material).
MATERIAL_EXTRA: tuple[str, ...] = tuple(_MATERIAL_CODEPOINTS) + ("arrow_back_ios_new", "menu_open", "more_horiz")

# Google's Material Symbols Outlined (2 dp strokes, unfilled: what Google's own apps and most
# Compose and AppCompat apps draw), a fourth rendering of each family that MATERIAL_OF names
# (style ``ms:``). Shipped in ``icons/refs`` as a subset (provenance and licence in
# MaterialSymbolsOutlined-subset.txt; code points in the .json beside it).
_SYMBOLS_FONT = "MaterialSymbolsOutlined-subset"
# Outlined glyphs left out of the references: the outlined person (a ring over open shoulders)
# matched a thin download arrow into a tray better than a person glyph (0.34 against 0.24 on the
# vocabulary test's Phosphor grid), as Material Design Icons' outline variants did before. The
# outlined thumbs: on the simulated phone's video page the comments' outlined thumbs-ups then
# outscored the video's filled Like by 0.06 (0.90 against 0.84, before 0.81 against 0.80), so that
# Click Icon (thumbs up) no longer asked which (the Mobile-Eval oracle's video-3 step).
SYMBOLS_LEFT_OUT = {"person", "thumb_up", "thumb_down"}


@lru_cache(maxsize=1)
def _symbols_codepoints() -> dict[str, int]:
    import json

    path = Path(__file__).with_name("refs") / f"{_SYMBOLS_FONT}.json"
    try:
        return {k: int(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}
    except (OSError, ValueError):
        return {}


_SIZE = 32


# Icon fonts of the qtawesome wheel (read as files: qtawesome itself needs Qt), by style prefix.
_QTA_FONTS = {"cd": "codicon", "el": "elusiveicons-webfont"}


@lru_cache(maxsize=16)
def qta_font_file(prefix: str) -> tuple[str, dict[str, int]] | None:
    """The font file and character map of the qtawesome wheel's icon font whose files start with
    ``prefix`` ("codicon", "materialdesignicons6-webfont"); ``None`` when not installed."""
    import importlib.util
    import json

    spec = importlib.util.find_spec("qtawesome")
    if spec is None or not spec.submodule_search_locations:
        return None
    fonts = Path(list(spec.submodule_search_locations)[0]) / "fonts"
    ttf = sorted(fonts.glob(f"{prefix}-[0-9]*.ttf"))
    cmap = sorted(fonts.glob(f"{prefix}-charmap-*.json"))
    if not ttf or not cmap:
        return None
    return str(ttf[-1]), {k: int(v, 16) if isinstance(v, str) else int(v)
                          for k, v in json.loads(cmap[-1].read_text(encoding="utf-8")).items()}


def _qta_font(style: str) -> tuple[str, dict[str, int]] | None:
    """The qtawesome font of a reference style (``cd`` Codicons, ``el`` Elusive Icons)."""
    return qta_font_file(_QTA_FONTS[style])


def family_renderings(spec: str, material: bool = True, symbols: bool = True) -> list[str]:
    """``spec`` and the same glyph drawn by the other reference sets (Codicons, Elusive and, with
    ``material``, Google's Material Icons; with ``symbols``, Material Symbols Outlined)."""
    base, _, weight = spec.partition("~")
    base, _, rot = base.partition("@")
    style, _, name = base.rpartition(":")
    out = [spec]
    if style == "mi":
        others: tuple[str, ...] = (f"ms:{name}",) if symbols else ()
    else:
        mat = MATERIAL_OF.get(name, ()) if material else ()
        others = (OTHER_SETS.get(name, ()) + tuple(f"mi:{m}" for m in mat)
                  + (tuple(f"ms:{m}" for m in mat if m not in SYMBOLS_LEFT_OUT) if symbols else ()))
    for other in others:
        other, _, own_rot = other.partition("@")
        turn = (float(rot or 0) + float(own_rot or 0)) % 360
        out.append(other + (f"@{turn:g}" if turn else "") + (f"~{weight}" if weight else ""))
    return out


def _fa_font(style: str) -> tuple[type, str]:
    if style == "r":
        from fonticon_fa6.fa6r import FA6R as cls
    elif style == "b":
        from fonticon_fa6.fa6b import FA6B as cls
    else:
        from fonticon_fa6.fa6s import FA6S as cls
    return cls, cls.__font_file__


@lru_cache(maxsize=512)
def reference_mask(spec: str) -> np.ndarray | None:
    """The ink mask (uint8 0/255, tight box) of a reference glyph, ``None`` when unknown.

    ``spec`` is ``[style:]name[@degrees]``: style ``s`` (Font Awesome solid, default), ``r``
    (regular), ``b`` (brands), ``cd`` (Codicons) or ``el`` (Elusive Icons), by name; a one-character name is drawn as that character; ``@90`` turns it counter-clockwise
    (``@-45``: 45 degrees clockwise).
    """
    spec = spec.partition("~")[0]
    spec, _, rot = spec.partition("@")
    style, _, name = spec.rpartition(":")
    style = style or "s"
    if style == "mi":
        if name not in _MATERIAL_CODEPOINTS:
            return None
        path, ch = str(Path(__file__).with_name("refs") / "MaterialIcons-Regular.ttf"), chr(_MATERIAL_CODEPOINTS[name])
    elif style == "ms":
        cps = _symbols_codepoints()
        if name not in cps:
            return None
        path, ch = str(Path(__file__).with_name("refs") / f"{_SYMBOLS_FONT}.ttf"), chr(cps[name])
    elif style in _QTA_FONTS:
        qta = _qta_font(style)
        if qta is None or name not in qta[1]:
            return None
        path, ch = qta[0], chr(qta[1][name])
    elif len(name) == 1:
        path, ch = _fa_font(style)[1], name
    else:
        cls, path = _fa_font(style)
        value = getattr(cls, name, None)
        if not isinstance(value, str) or "." not in value:
            return None
        ch = value.split(".", 1)[1]  # fonticon stores "fa6s.<glyph>"
        if not ch:
            return None
    font = ImageFont.truetype(path, 160)
    img = Image.new("L", (340, 340), 0)
    ImageDraw.Draw(img).text((80, 80), ch, font=font, fill=255)
    turns = {"": 0, "90": 1, "180": 2, "270": 3}.get(rot)
    if turns is None:
        try:
            degrees = float(rot)
        except ValueError:
            return None
        # Any other angle: turned about the canvas centre (counter-clockwise for positive degrees).
        box = img.getbbox() or (0, 0, 340, 340)
        img = img.rotate(degrees, resample=Image.BICUBIC, center=((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
        turns = 0
    arr = np.asarray(img)
    ys, xs = np.nonzero(arr > 127)
    if len(xs) == 0:
        return None
    mask = (arr[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 127).astype(np.uint8) * 255
    return np.ascontiguousarray(np.rot90(mask, turns)) if turns else mask


def _correlate(a: tuple[np.ndarray, np.ndarray, np.ndarray, float],
               b: tuple[np.ndarray, np.ndarray, np.ndarray, float]) -> float:
    """The shape correlation of two :func:`_normalise` features (ink 0.35, silhouette 0.15, edge
    orientations 0.5), without the aspect ratio's factor."""
    return 0.35 * float(a[0] @ b[0]) + 0.15 * float(a[1] @ b[1]) + 0.5 * (2.0 * float(a[2] @ b[2]) - 1.0)


def _hog(img: np.ndarray, cells: int = 4, bins: int = 8) -> np.ndarray:
    """A small histogram of edge orientations (unsigned), ``cells`` x ``cells`` cells, L2-normalised."""
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * bins
    idx = np.minimum(ang.astype(np.int32), bins - 1)
    n = img.shape[0]
    step = n // cells
    hist = np.zeros((cells, cells, bins), np.float32)
    for cy in range(cells):
        for cx in range(cells):
            m = mag[cy * step:(cy + 1) * step, cx * step:(cx + 1) * step].ravel()
            b = idx[cy * step:(cy + 1) * step, cx * step:(cx + 1) * step].ravel()
            hist[cy, cx] = np.bincount(b, weights=m, minlength=bins)[:bins]
    v = hist.ravel()
    return v / (float(np.linalg.norm(v)) or 1.0)


def _normalise(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(blurred ink vector, blurred filled-silhouette vector, edge-orientation histogram, aspect)
    of a tight ink mask."""
    h, w = mask.shape[:2]
    side = max(h, w)
    sq = np.zeros((side, side), np.uint8)
    sq[(side - h) // 2:(side - h) // 2 + h, (side - w) // 2:(side - w) // 2 + w] = mask
    contours, _ = cv2.findContours(sq, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(sq)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    vecs = []
    smalls = []
    for m in (sq, filled):
        small = cv2.resize(m, (_SIZE, _SIZE), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
        small = cv2.GaussianBlur(small, (5, 5), 1.2)
        smalls.append(small)
        v = small.ravel() - small.mean()
        n = float(np.linalg.norm(v)) or 1.0
        vecs.append(v / n)
    return vecs[0], vecs[1], _hog(smalls[0]), w / float(h)


def glyph_zone(spec: str) -> tuple[str, str]:
    """A vocabulary glyph without its zone, and the zone: ``r:circle~0.8|nav`` counts only in the
    navigation bar (``nav``); no zone: anywhere."""
    base, _, zone = spec.partition("|")
    return base, zone


def in_zone(zone: str, box: Box, width: int, height: int) -> bool:
    if zone == "nav":  # the three-button navigation bar: the last 48 dp
        return height > width and in_nav_bar(box, width, height)
    return True


def glyph_weight(spec: str) -> float:
    """The prior of a vocabulary glyph: ``name~0.8`` is a weaker alternative (default 1)."""
    _, _, w = glyph_zone(spec)[0].partition("~")
    try:
        return float(w) if w else 1.0
    except ValueError:
        return 1.0


@lru_cache(maxsize=512)
def _reference_features(spec: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, float] | None:
    m = reference_mask(spec)
    return None if m is None else _normalise(m)


def _silhouette(mask: np.ndarray) -> np.ndarray | None:
    """The largest outer contour of a binary mask, filled (255 inside); ``None`` for an empty mask."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    sil = np.zeros_like(mask)
    cv2.drawContours(sil, [max(contours, key=cv2.contourArea)], -1, 255, thickness=cv2.FILLED)
    return sil


def _figure(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float] | None:
    """What a tight ink mask holds inside its outline, as features: inside the silhouette less its
    rim (an eighth of its size, more than an outline's stroke), the lesser of ink and no ink, less
    another eighth along that inside's edge (what is left of a thick ring): the person cut out of
    a filled account_circle disc, the person inside an outlined one's ring, the heart on a
    favourite button's disc. ``None`` when the inside is all ink or all empty (a plain disc, an
    empty ring, a speech bubble's outline)."""
    sil = _silhouette(mask)
    if sil is None:
        return None
    k = max(3, min(mask.shape[:2]) // 8)
    core = cv2.erode(sil, np.ones((k, k), np.uint8)) > 0
    n = int(core.sum())
    if n < 20:
        return None
    ink = core & (mask > 0)
    fig = ink if ink.sum() <= n / 2 else core & (mask == 0)
    fig &= cv2.erode(core.astype(np.uint8), np.ones((k, k), np.uint8)) > 0
    ys, xs = np.nonzero(fig)
    if len(xs) < 0.05 * n or min(ys.max() - ys.min(), xs.max() - xs.min()) < 2:
        return None
    return _normalise(fig[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.uint8) * 255)


@lru_cache(maxsize=512)
def _reference_figure(spec: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, float] | None:
    """What a round reference glyph holds inside its disc or ring (:func:`_figure`): the person of
    account_circle, the plus of circle_plus, the x of circle_xmark; ``None`` for a glyph that is no
    disc or ring (a bust, a heart, a bell), whose outline is the glyph."""
    m = reference_mask(spec)
    if m is None or roundness_of_outline(m) < 0.8:
        return None
    return _figure(m)


def roundness_of_outline(mask: np.ndarray) -> float:
    """:func:`roundness` of a mask's filled outer contour (a ring counts as its disc)."""
    sil = _silhouette(mask)
    return 0.0 if sil is None else roundness(sil)


def _ink_box(crop: np.ndarray) -> np.ndarray:
    """The foreground of an icon crop (RGB) as :func:`ink_mask` finds it, untrimmed (the crop's size):
    the pixels 40 levels or more (or 45% of the crop's greatest difference) off the border's median."""
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]).astype(np.int16)
    bg = np.median(border, axis=0)
    dist = np.abs(crop.astype(np.int16) - bg).max(axis=2)
    thr = max(40, int(int(dist.max()) * 0.45))
    return (dist >= thr).astype(np.uint8) * 255


def ink_mask(crop: np.ndarray) -> np.ndarray | None:
    """The foreground of an icon crop (RGB): pixels far from the border's dominant colour, tight box."""
    if crop.size == 0 or min(crop.shape[:2]) < 4:
        return None
    mask = _ink_box(crop)
    ys, xs = np.nonzero(mask)
    if len(xs) < 6:
        return None
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _full_mask(outer: np.ndarray) -> np.ndarray | None:
    """Everything that differs from the border's colour in ``outer`` (an icon's padded crop), as a
    tight mask whose outer contour is the candidate's silhouette."""
    full = full_mask_box(outer)
    ys, xs = np.nonzero(full)
    if len(xs) < 20:
        return None
    return full[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def full_mask_box(outer: np.ndarray) -> np.ndarray:
    """The untrimmed mask of what differs from the border's colour (as :func:`_full_mask`)."""
    border = np.concatenate([outer[0], outer[-1], outer[:, 0], outer[:, -1]]).astype(np.int16)
    bg = np.median(border, axis=0)
    return (np.abs(outer.astype(np.int16) - bg).max(axis=2) >= 30).astype(np.uint8) * 255


def inner_mask(outer: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """For an icon drawn on a filled shape (a white glyph on a coloured disc, a launcher icon):
    the glyph inside, as a tight mask; ``None`` when the ink is not such a container."""
    if mask.mean() / 255.0 < 0.45:
        return None
    full = np.zeros(outer.shape[:2], np.uint8)
    border = np.concatenate([outer[0], outer[-1], outer[:, 0], outer[:, -1]]).astype(np.int16)
    bg = np.median(border, axis=0)
    dist = np.abs(outer.astype(np.int16) - bg).max(axis=2)
    full[dist >= max(40, int(dist.max() * 0.45))] = 255
    shape = _silhouette(full)
    if shape is None:
        return None
    k = max(3, min(outer.shape[:2]) // 12)
    core = cv2.erode(shape, np.ones((k, k), np.uint8))
    inside = outer[core > 0].astype(np.int16)
    if len(inside) < 50:
        return None
    fill = np.median(inside, axis=0)
    glyph = ((np.abs(outer.astype(np.int16) - fill).max(axis=2) > 60) & (core > 0)).astype(np.uint8) * 255
    ys, xs = np.nonzero(glyph)
    if len(xs) < 20:
        return None
    tight = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    if tight.shape[0] < 6 or tight.shape[1] < 6:
        return None
    return tight


def badge_discs(outer: np.ndarray) -> list[tuple[float, float, float]]:
    """The notification badges on ``outer`` (an icon's padded crop), as discs (centre x, centre y,
    radius with a margin) in its pixels: a small disc of a saturated colour (a red count or dot)
    overlapping the icon's upper corner, with ink of the icon beside it. Empty when there is none."""
    h, w = outer.shape[:2]
    if min(h, w) < 12:
        return []
    hsv = cv2.cvtColor(np.ascontiguousarray(outer), cv2.COLOR_RGB2HSV)
    border = np.concatenate([outer[0], outer[-1], outer[:, 0], outer[:, -1]]).astype(np.int16)
    bg = np.median(border, axis=0)
    bg_hsv = cv2.cvtColor(bg.astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_RGB2HSV)[0, 0].astype(np.int16)
    hue_far = np.abs(hsv[:, :, 0].astype(np.int16) - bg_hsv[0])
    hue_far = np.minimum(hue_far, 180 - hue_far) > 12
    sat = (hsv[:, :, 1] > 120) & (hsv[:, :, 2] > 110) & (hue_far | (bg_hsv[1] < 60))
    if not sat.any():
        return []
    n, labels, stats, _ = cv2.connectedComponentsWithStats(sat.astype(np.uint8), connectivity=8)
    side = min(h, w)
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        big = max(bw, bh)
        if big < side * 0.12 or big > side * 0.55 or min(bw, bh) < 0.7 * big:
            continue
        if y + bh / 2 > h * 0.5:  # a badge sits on the upper half
            continue
        # a filled disc, with or without white digits inside it
        hull = cv2.convexHull(np.column_stack(np.nonzero(labels == i))[:, ::-1].astype(np.int32))
        if cv2.contourArea(hull) < 0.6 * bw * bh:
            continue
        # the rest of the crop must still hold ink (the icon itself)
        rest = np.abs(outer.astype(np.int16) - bg).max(axis=2) > 40
        rest[max(0, y - 2):y + bh + 2, max(0, x - 2):x + bw + 2] = False
        if rest.sum() < 0.02 * h * w:
            continue
        out.append((x + bw / 2.0, y + bh / 2.0, big / 2.0 + max(1.0, 0.15 * big)))
    return out


def without_badge(outer: np.ndarray, discs: list[tuple[float, float, float]] | None = None) -> np.ndarray:
    """``outer`` (an icon's padded crop) with its notification badges (:func:`badge_discs`, or
    ``discs`` when given) painted over in the background colour. The badge is no part of the glyph's
    shape, and its colour made a bell or a cart look like part of a photo (``texture_score``); a
    badged bell and cart lost to plain toolbar glyphs. Returns ``outer`` itself when there is no
    badge."""
    discs = badge_discs(outer) if discs is None else discs
    if not discs:
        return outer
    h, w = outer.shape[:2]
    border = np.concatenate([outer[0], outer[-1], outer[:, 0], outer[:, -1]]).astype(np.int16)
    bg = np.median(border, axis=0)
    out = outer.copy()
    yy, xx = np.ogrid[:h, :w]
    for cx, cy, r in discs:
        out[(xx - cx) ** 2 + (yy - cy) ** 2 <= r * r] = bg.astype(np.uint8)
    return out


def _cut_like(clean_mask: np.ndarray, discs: list[tuple[float, float, float]],
              specs: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float] | None]:
    """Features of each reference glyph in ``specs`` cut as the candidate's glyph is cut by its
    badge: ``clean_mask`` is the candidate's ink with the badge painted out (untrimmed, in the
    padded crop's pixels). A count badge covers a third of a bell's or a cart's top (a 16 dp badge
    on a 24 dp glyph), and the rest alone matched no reference well. The glyph's frame is taken from
    what the badge leaves: its left and bottom edges and its width (the badge sits on the upper end
    corner), the reference is drawn there at that width, and the same discs are cut out of it."""
    ys, xs = np.nonzero(clean_mask)
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray, float] | None] = []
    if len(xs) < 6:
        return [None] * len(specs)
    x1, x2, y2 = int(xs.min()), int(xs.max()) + 1, int(ys.max()) + 1
    gw = x2 - x1
    h, w = clean_mask.shape[:2]
    yy, xx = np.ogrid[:h, :w]
    cut = np.zeros((h, w), bool)
    for cx, cy, r in discs:
        cut |= (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
    for spec in specs:
        rm = reference_mask(spec)
        if rm is None or gw < 4:
            out.append(None)
            continue
        th = max(1, int(round(rm.shape[0] * gw / rm.shape[1])))
        drawn = cv2.resize(rm, (gw, th), interpolation=cv2.INTER_AREA)
        canvas = np.zeros((h, w), np.uint8)
        top = max(0, y2 - th)
        canvas[top:y2, x1:x2] = drawn[top - (y2 - th):]
        canvas[cut] = 0
        ys2, xs2 = np.nonzero(canvas > 127)
        if len(xs2) < 6:
            out.append(None)
            continue
        out.append(_normalise(canvas[ys2.min():ys2.max() + 1, xs2.min():xs2.max() + 1]))
    return out


def keyed_mask(outer: np.ndarray) -> np.ndarray | None:
    """The strokes of a flat white (or black) glyph over a busy background (a photo, a scrim on a
    photo), as a tight mask: near-white (near-black) pixels in components that lie towards the
    crop's middle and are not the crop's background. ``None`` when there is no such glyph."""
    h, w = outer.shape[:2]
    if min(h, w) < 12:
        return None
    lo, hi = outer.min(axis=2).astype(np.int16), outer.max(axis=2).astype(np.int16)
    side = min(h, w)
    for key in ((lo > 200) & (hi - lo < 45), hi < 45):
        k = key.astype(np.uint8)
        if k.mean() < 0.02 or k.mean() > 0.6:
            continue
        n, labels, stats, _ = cv2.connectedComponentsWithStats(k, connectivity=8)
        keep = np.zeros(n, bool)
        for i in range(1, n):
            x, y, bw, bh, area = (int(v) for v in stats[i])
            cx, cy = x + bw / 2.0, y + bh / 2.0
            if max(bw, bh) < 0.12 * side or area > 0.5 * h * w:
                continue
            if abs(cx - w / 2.0) > 0.3 * w or abs(cy - h / 2.0) > 0.3 * h:
                continue
            keep[i] = True
        if not keep.any():
            continue
        m = keep[labels].astype(np.uint8) * 255
        ys, xs = np.nonzero(m)
        tight = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        fill = float(tight.mean()) / 255.0
        if max(tight.shape) >= 0.35 * side and 0.06 <= fill <= 0.75:
            return tight
    return None


def description_glyphs(description: str | IconQuery) -> list[str]:
    """Font Awesome glyphs for the shape words of ``description`` (empty when none is known): a
    text's words, or those of a description already read (``lexicon.IconQuery``)."""
    words = list(description.words) if isinstance(description, IconQuery) else description_words(description)
    glyphs: list[str] = []
    for w in _without_verbs(words, VOCABULARY):
        cands = VOCABULARY.get(w) or VOCABULARY.get(w.rstrip("s")) or ()
        for g in cands:
            if g not in glyphs and _reference_features(glyph_zone(g)[0]) is not None:
                glyphs.append(g)
    return glyphs


def control_frame(box: Box, width: int, height: int) -> bool:
    """Whether a candidate is a control's frame rather than a glyph: 56 dp wide or more and at
    least twice as wide as tall. An icon's glyph sits in a 24 dp frame (up to 32 dp in large
    toolbars), about square; what is that wide and flat is a chip or an outlined button around its
    label (OCR may fail to read the label, "Filters" read with its sliders glyph as a CJK
    character, so the detector keeps the frame), a search field, or a bottom navigation's active
    pill (64 x 32 dp) around its glyph, which is a candidate of its own."""
    dp = dp_scale(width, height)
    return box.width >= 56 * dp and box.width >= 2 * box.height


def glyph_slices(boxes: Sequence[Box], width: int, height: int) -> list[bool]:
    """For each of ``boxes``, whether it is a slice of another candidate's glyph: inside an
    icon-sized box (64 dp at most), as wide as it (75%: the passes' boxes differ by a few pixels)
    and at most 60% of its height with its centre off the other's (by 12% of its height), or the
    same turned. The detector's fine pass boxes a glyph's separate strokes (download's tray under
    its arrow, a lock's shackle over its body), its coarse pass the whole glyph; a slice is no icon
    of its own (a tray matched a horizontal link glyph). A glyph inside a pill or a disc is centred,
    not a slice; a bell beside its badge keeps most of both sides."""
    if len(boxes) < 2:
        return [False] * len(boxes)
    dp = dp_scale(width, height)
    a = np.array([b.as_tuple() for b in boxes], dtype=np.float64)
    x1, y1, x2, y2 = (a[:, i] for i in range(4))
    w, h = x2 - x1, y2 - y1
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    # [k, o]: box k against other box o
    inside = ((x1[:, None] >= x1[None, :] - 2) & (y1[:, None] >= y1[None, :] - 2)
              & (x2[:, None] <= x2[None, :] + 2) & (y2[:, None] <= y2[None, :] + 2))
    other = ((w * h)[None, :] > (w * h)[:, None]) & (np.maximum(w, h)[None, :] <= 64 * dp)
    across = ((w[:, None] >= 0.75 * w[None, :]) & (h[:, None] <= 0.6 * h[None, :])
              & (np.abs(cy[:, None] - cy[None, :]) >= 0.12 * h[None, :]))
    down = ((h[:, None] >= 0.75 * h[None, :]) & (w[:, None] <= 0.6 * w[None, :])
            & (np.abs(cx[:, None] - cx[None, :]) >= 0.12 * w[None, :]))
    return [bool(v) for v in (inside & other & (across | down)).any(axis=1)]


def glyph_slice(box: Box, boxes: Sequence[Box], width: int, height: int) -> bool:
    """Whether ``box`` is a slice of another of ``boxes``' glyphs (:func:`glyph_slices`)."""
    return glyph_slices([box] + [b for b in boxes if b is not box], width, height)[0]


def switch_like(outer: np.ndarray, box: Box, width: int, height: int) -> bool:
    """Whether a candidate is a switch (a settings row's Material switch: a track 52 x 32 dp, a
    stadium with a round thumb at one end, the same whether on or off), not a glyph: wider than an
    icon's 24 dp frame ever is (40 dp or more), 1.4-2.2 times as wide as tall, its silhouette a
    stadium."""
    dp = dp_scale(width, height)
    if box.width < 40 * dp or not 1.4 <= box.width / max(1, box.height) <= 2.2:
        return False
    full = _full_mask(outer)
    if full is None:
        return False
    h, w = full.shape[:2]
    if not 1.4 <= w / max(1, h) <= 2.2:
        return False
    contours, _ = cv2.findContours(full, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return False
    sil = np.zeros((h, w), np.uint8)
    cv2.drawContours(sil, [max(contours, key=cv2.contourArea)], -1, 255, thickness=cv2.FILLED)
    stadium = np.zeros((h, w), np.uint8)
    r = h // 2
    cv2.rectangle(stadium, (r, 0), (w - 1 - r, h - 1), 255, thickness=cv2.FILLED)
    cv2.circle(stadium, (r, r), r, 255, thickness=cv2.FILLED)
    cv2.circle(stadium, (w - 1 - r, r), r, 255, thickness=cv2.FILLED)
    a, b = sil > 0, stadium > 0
    if float((a & b).sum()) / max(1.0, float((a | b).sum())) < 0.85:
        return False
    # The thumb sits at one end; a bottom navigation's active pill (a stadium too) holds its icon in
    # the middle. Inside the track (its rim left out), what differs from the track's colour is the thumb.
    ys, xs = np.nonzero(full_mask_box(outer))
    crop = outer[ys.min():ys.max() + 1, xs.min():xs.max() + 1] if len(xs) else outer
    if crop.shape[:2] != (h, w):
        return False
    k = max(3, h // 6)
    inside = cv2.erode(sil, np.ones((k, k), np.uint8)) > 0
    if inside.sum() < 20:
        return False
    fill = np.median(crop[inside].astype(np.int16), axis=0)
    thumb = inside & (np.abs(crop.astype(np.int16) - fill).max(axis=2) > 40)
    if thumb.sum() < 0.03 * inside.sum():
        return False
    # the thumb's centre is half the track's height from an end (0.31 of a 52 dp track)
    cx = float(np.nonzero(thumb)[1].mean()) / w
    return cx < 0.4 or cx > 0.6


def same_glyph(rgb: np.ndarray, a: Box, b: Box) -> bool:
    """Whether boxes ``a`` and ``b`` of a screenshot hold the same glyph drawn the same way (the
    heart, share or bookmark every post of a feed repeats): boxes of about one size (within 15%)
    whose ink masks, scaled to one size, overlap by 80% (intersection over union). Neighbours of
    one family's look (a composer's gallery, camera and plus; a settings list's leading icons) are
    different glyphs."""
    if not (0.85 <= a.width / max(1, b.width) <= 1 / 0.85 and 0.85 <= a.height / max(1, b.height) <= 1 / 0.85):
        return False
    masks = []
    for box in (a, b):
        pad = max(2, min(box.width, box.height) // 8)
        m = ink_mask(rgb[max(0, box.y1 - pad):box.y2 + pad, max(0, box.x1 - pad):box.x2 + pad])
        if m is None:
            return False
        masks.append(cv2.resize(m, (32, 32), interpolation=cv2.INTER_AREA) > 127)
    union = int((masks[0] | masks[1]).sum())
    return union > 0 and (masks[0] & masks[1]).sum() / union >= 0.8


def _hue_of(crop: np.ndarray, mask_full: np.ndarray) -> tuple[float, float, float]:
    """(hue degrees, saturation 0-1, value 0-1) of the ink's mean colour."""
    pix = crop[mask_full > 0]
    if len(pix) == 0:
        return 0.0, 0.0, 0.0
    mean = pix.reshape(-1, 3).mean(axis=0).astype(np.uint8).reshape(1, 1, 3)
    h, s, v = cv2.cvtColor(mean, cv2.COLOR_RGB2HSV)[0, 0]
    return float(h) * 2.0, float(s) / 255.0, float(v) / 255.0


def color_fit(color: str, hsv: tuple[float, float, float]) -> float:
    """1 when the ink matches the colour word, 0 when clearly not."""
    h, s, v = hsv
    spec = COLORS[color]
    if spec == "dark":
        return 1.0 if v < 0.3 else 0.0
    if spec == "light":
        return 1.0 if v > 0.8 and s < 0.2 else 0.0
    if spec == "gray":
        return 1.0 if s < 0.15 and 0.25 < v < 0.85 else 0.0
    if s < 0.25 or v < 0.2:
        return 0.0
    lo, hi = spec  # type: ignore[misc]
    inside = (lo <= h <= hi) if lo <= hi else (h >= lo or h <= hi)
    return 1.0 if inside else 0.0


def _avatar_score(outer: np.ndarray, mask: np.ndarray, tex: float) -> float:
    """How much a candidate is an account's avatar: a round silhouette, photo-like or a letter on a
    disc inside."""
    full = _full_mask(outer)
    if full is not None:
        # a photo's light parts near the page's colour notch its outline: close them
        k = max(3, min(full.shape[:2]) // 6)
        full = cv2.morphologyEx(np.pad(full, k), cv2.MORPH_CLOSE, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (k, k)))[k:-k, k:-k]
    rnd = roundness(full) if full is not None else 0.0
    tex = max(tex, 0.6 if inner_mask(outer, mask) is not None else 0.0)
    return rnd * max(0.5, tex)


class OfflineIconMatcher:
    """Shape matcher against Font Awesome reference glyphs (no weights)."""

    name = "offline"

    def __init__(self, sets: int = 4) -> None:
        # 1: Font Awesome only (the matcher before the second set); 2: Font Awesome and Codicons;
        # 3: and Material Icons (filled); 4: and Material Symbols Outlined.
        self.sets = sets

    def knows(self, description: str) -> bool:
        """Whether the description has a shape word or colour word this matcher can use."""
        # A picture's words ("Thumbnail", "Photo taken on May 8", "Screenshot 4 of 6": what a
        # gallery's or a store's image shows) name an image-like box, judged by ``picture_score``.
        query = IconQuery.parse(description)
        return bool(description_glyphs(query) or query.colors or query.pictures)

    def score(self, rgb: np.ndarray, boxes: Sequence[Box], description: str) -> list[float]:
        # The sizes below (a box's margin, a badge's disc, a switch's track) are measured at 1080
        # px across (icons.density): a denser screenshot is brought down there first. A sparser
        # one is matched as it is: its glyphs, blurred by enlarging, match worse than drawn (icon
        # sets drawn at 720 px lost weak matches, a heart to a star).
        h, w = rgb.shape[:2]
        if density_factor(w, h) < 1.0:
            scaled, f = at_reference(rgb)
            return self._score(scaled, [to_reference(b, f) for b in boxes], description)
        return self._score(rgb, boxes, description)

    def _score(self, rgb: np.ndarray, boxes: Sequence[Box], description: str) -> list[float]:
        q = IconQuery.parse(description)  # the description read once
        glyphs = description_glyphs(q)
        colors = list(q.colors)
        pictures = q.pictures
        avatar = q.avatar
        # "Account" or "Profile" alone is the user's own avatar; "@ann profile" names someone whose
        # picture is found by the name beside it, as before.
        account = q.account
        # Earlier glyphs of a word are its usual picture; later ones are weaker alternatives.
        refs = []
        specs: list[str] = []
        for k, g in enumerate(glyphs):
            prior = glyph_weight(g) * (1.0 - 0.03 * min(k, 3))
            g, zone = glyph_zone(g)
            for r in (family_renderings(g, material=self.sets > 2, symbols=self.sets > 3) if self.sets > 1 else (g,)):
                f = _reference_features(r)
                if f is not None:
                    refs.append((f, prior, zone))
                    specs.append(r)
        height, width = rgb.shape[:2]
        switch = q.switch
        # What a round candidate holds counts, except for a picture of a person: a profile picture
        # (a photo or a letter on a disc) and someone's named profile ("@ann profile": a contact's
        # letter avatar is theirs); "Account" alone is the user's own, a photo or a person glyph.
        holds = q.holds
        frame = q.frame
        out: list[float] = []
        slices = glyph_slices(boxes, width, height)
        for k, b in enumerate(boxes):
            crop = rgb[max(0, b.y1):b.y2, max(0, b.x1):b.x2]
            # A margin of background around the box helps find the border colour.
            pad = max(2, min(b.width, b.height) // 8)
            outer = rgb[max(0, b.y1 - pad):b.y2 + pad, max(0, b.x1 - pad):b.x2 + pad]
            # A badge (a red count on a bell or a cart) is no part of the glyph: the shape is
            # compared with and without it, and the crop without it says whether this is a photo.
            discs = [] if avatar or colors else badge_discs(outer)
            clean = without_badge(outer, discs)
            if clean is not outer:
                crop = clean[min(pad, b.y1):, min(pad, b.x1):][:crop.shape[0], :crop.shape[1]]
            mask = ink_mask(outer)
            if mask is None or not crop.size:
                out.append(0.0)
                continue
            shape = 0.5
            tex = max(texture_score(crop), shading_score(crop))
            # A glyph drawn over a photo (a white heart on a product shot, Navigate up on a hero
            # picture): its flat white or black strokes, keyed out of the busy background.
            keyed = keyed_mask(outer) if tex > 0.15 and not avatar else None
            keyed_wins = False
            if refs:
                best = best_keyed = -1.0
                photo_inside: bool | None = None  # found when a reference needs it
                masks = [mask]
                inner = inner_mask(outer, mask)
                if inner is not None:
                    masks.append(inner)
                clean_mask = ink_mask(clean) if clean is not outer else None
                if clean_mask is not None:
                    masks.append(clean_mask)
                for m in masks + ([keyed] if keyed is not None else []):
                    v1, v2, hog, aspect = _normalise(m)
                    # A round reference with a glyph in its disc or ring (account_circle: a person)
                    # is matched only by a candidate holding the same glyph: a disc holding a heart
                    # (a favourite button on a product photo), a gear's hub, a speech bubble's empty
                    # ring or a plain disc is another icon. Against such a reference a candidate
                    # holding nothing like its glyph (correlation under 0.1; two artists' persons
                    # correlate 0.15-0.3) keeps half its score. A photo in a round frame (an
                    # account's picture) holds no glyph, and a person's picture may be a letter on
                    # a disc (``holds``): both are left to the avatar's own terms.
                    figure: tuple | None | bool = False
                    c_best = -1.0
                    for ((r1, r2, rhog, raspect), prior, zone), spec in zip(refs, specs):
                        if zone and not in_zone(zone, b, width, height):
                            continue
                        c = _correlate((v1, v2, hog, aspect), (r1, r2, rhog, raspect))
                        ar = min(aspect, raspect) / max(aspect, raspect)
                        ref_fig = _reference_figure(spec) if holds else None
                        if ref_fig is not None and photo_inside is None:
                            ch, cw = crop.shape[:2]
                            middle = crop[int(ch * 0.2):int(ch * 0.8), int(cw * 0.2):int(cw * 0.8)]
                            photo_inside = max(texture_score(middle), shading_score(middle)) >= 0.2
                        if ref_fig is not None and not photo_inside:
                            if figure is False:
                                figure = _figure(m)
                            held = _correlate(figure, ref_fig) if figure is not None else 0.0
                            if held < 0.1:
                                c = min(c, 0.5 * c + 0.5 * max(0.0, held))
                        c_best = max(c_best, prior * c * (0.75 + 0.25 * ar))
                    if m is keyed:
                        best_keyed = c_best
                    else:
                        best = max(best, c_best)
                if discs and clean_mask is not None:
                    # The glyph the badge cuts, against each reference cut the same way.
                    v1, v2, hog, aspect = _normalise(clean_mask)
                    for cut, (_, prior, zone) in zip(_cut_like(_ink_box(clean), discs, specs), refs):
                        if cut is None or (zone and not in_zone(zone, b, width, height)):
                            continue
                        r1, r2, rhog, raspect = cut
                        c = _correlate((v1, v2, hog, aspect), (r1, r2, rhog, raspect))
                        ar = min(aspect, raspect) / max(aspect, raspect)
                        best = max(best, prior * c * (0.75 + 0.25 * ar))
                keyed_wins = best_keyed > best
                shape = max(0.0, min(1.0, (max(best, best_keyed) + 0.2) / 1.2))
            if avatar:
                # A round, photo-like (or letter-on-disc) candidate is the avatar; a person glyph
                # still counts by shape.
                shape = max(shape, 0.95 * _avatar_score(outer, mask, tex))
            elif account and tex >= 0.3:
                # "Account" or "Profile" alone: a person glyph, or the account's round photo (a
                # bottom navigation tab, a top bar's end), as apps draw it; a photo only, not a
                # letter on a disc (a list row's contact).
                shape = max(shape * (1.0 - 0.5 * tex), 0.9 * _avatar_score(outer, mask, tex))
            elif pictures:
                shape = max(shape, 0.9 * picture_score(crop))
            else:
                # Clutter: part of a photo, a thumbnail or an avatar is no glyph, unless a flat
                # glyph keyed out of it is what matched.
                shape *= 1.0 - 0.5 * tex * (0.3 if keyed_wins else 1.0)
            if not switch and shape > 0 and switch_like(outer, b, width, height):
                shape *= 0.5  # a settings row's switch is a control, named "switch" or "toggle"
            if not frame and not avatar and shape > 0 and control_frame(b, width, height):
                shape *= 0.5  # a chip's or a field's frame, a tab's pill: the glyph inside is a candidate
            if shape > 0 and slices[k]:
                shape *= 0.7  # part of a glyph another candidate holds whole
            if colors:
                border = np.concatenate([outer[0], outer[-1], outer[:, 0], outer[:, -1]]).astype(np.int16)
                bg = np.median(border, axis=0)
                dist = np.abs(outer.astype(np.int16) - bg).max(axis=2)
                full = (dist >= max(40, int(dist.max() * 0.45))).astype(np.uint8)
                hsv = _hue_of(outer, full)
                cf = max(color_fit(c, hsv) for c in colors)
                shape = 0.7 * shape + 0.3 * cf if refs else 0.3 + 0.6 * cf
            out.append(shape)
        return out

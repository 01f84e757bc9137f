"""The coordinate conventions of each GUI model family, as its authors' code reads a reply: written from their
repositories, apart from the adapters (``agent/families/``), so that the family oracle
(``bench/family_oracle.py``) and the family tests can write what a model means in the authors' terms and
check where the adapter puts it. An adapter that maps by a wrong convention then taps elsewhere and fails.

Nothing here is imported from the adapters: the image size a model sees is worked out again below
(``resized``, the authors' ``smart_resize`` of qwen-vl-utils) and the mapping from a reply to the phone is
the authors' formula (``to_phone``). ``model_point`` is its inverse: the integer point a model writes for a
phone pixel, the one the authors' formula maps back onto that pixel.

Each row cites the file and, where the stored copy showed it, the line of code it comes from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Convention:
    """How one family and version reads a point.

    ``space``: ``"image"`` (pixels of the image the request carried: the screenshot resized by
    ``smart_resize`` at ``factor``, ``min_pixels``, ``max_pixels``) or ``"grid"`` (a 0-``grid`` scale of the
    screen's side). ``rounding``: ``"int"`` (Python's ``int`` of the mapped value: truncation) or
    ``"round"``. ``source``: the authors' repository, file and the code that says so.
    """

    family: str
    space: str
    grid: int
    rounding: str
    factor: int
    min_pixels: int
    max_pixels: int
    source: str


QWEN_MIN, QWEN_MAX = 4 * 28 * 28, 16384 * 28 * 28  # qwen-vl-utils' defaults (3,136 and 12,845,056 pixels)

#: family -> its convention (the ten families and versions of issue 50, and the multilingual AutoGLM).
CONVENTIONS: dict[str, Convention] = {c.family: c for c in (
    Convention("ui-tars-1.5", "image", 0, "round", 28, 100 * 28 * 28, 16384 * 28 * 28,
               "bytedance/UI-TARS codes/ui_tars/action_parser.py: smart_resize(factor=28, min_pixels=100*28*28, "
               "max_pixels=16384*28*28); parse_action_to_structure_output (model_type qwen25vl) divides by the "
               "resized width and height; the coordinate times the screen, round()"),
    Convention("ui-tars-v1", "grid", 1000, "round", 28, 100 * 28 * 28, 2700 * 28 * 28,
               "bytedance/UI-TARS codes/ui_tars/action_parser.py: factor=1000 for models other than qwen25vl "
               "(num / 1000), times the screen, round(); README_v1.md: relative coordinates 0-1000; "
               "bytedance/UI-TARS-desktop packages/ui-tars/shared/src/constants/vlm.ts line 12 MAX_PIXELS_V1_0 = "
               "2700 * 28 * 28 (the image; the grid does not depend on it)"),
    Convention("autoglm-phone", "grid", 1000, "int", 28, QWEN_MIN, QWEN_MAX,
               "zai-org/Open-AutoGLM phone_agent/actions/handler.py _convert_relative_to_absolute: "
               "int(element[0] / 1000 * screen_width)"),
    Convention("autoglm-phone-multilingual", "grid", 1000, "int", 28, QWEN_MIN, QWEN_MAX,
               "zai-org/Open-AutoGLM phone_agent/actions/handler.py (the same handler for both models)"),
    Convention("qwen2.5-vl", "image", 0, "round", 28, QWEN_MIN, QWEN_MAX,
               "QwenLM/Qwen2.5-VL cookbooks/mobile_agent.ipynb: the tool is told the resized image's size "
               "('The screen's resolution is 1092x2408.' for 1080x2400); the point is drawn at "
               "x / resized_width * width"),
    Convention("qwen3-vl", "grid", 999, "round", 32, 4 * 32 * 32, 16384 * 32 * 32,
               "QwenLM/Qwen3-VL cookbooks/mobile_agent.ipynb (Qwen3-VL version): a 999x999 grid, as issue 50 "
               "reads it; not checked against the stored copy, which holds the Qwen2.5-VL version"),
    Convention("gui-owl-v3", "image", 0, "int", 28, 3136, 10_035_200,
               "X-PLUG/MobileAgent Mobile-Agent-v3/android_world_v3/android_world/agents/gui_owl.py "
               "image_to_base64 (MIN_PIXELS=3136, MAX_PIXELS=10035200) and coordinate_resize.py "
               "_convert_point_format_to_abs_origin 'abs_resized': int(x / resized_width * width) (read in "
               "its copy in inclusionAI/UI-Venus android_world/agents/coordinate_resize.py)"),
    Convention("gui-owl-1.5", "grid", 1000, "int", 28, 3136, 10_035_200,
               "X-PLUG/MobileAgent Mobile-Agent-v3.5/mobile_use/run_gui_owl_1_5_for_mobile.py "
               "rescale_coordinates: int(x / 1000 * resized_width); utils.py SYSTEM_PROMPT 'The screen's "
               "resolution is 1000x1000.', image_to_base64 (3136, 10035200, factor 28)"),
    Convention("mai-ui", "grid", 999, "int", 28, QWEN_MIN, QWEN_MAX,
               "Tongyi-MAI/MAI-UI src/mai_naivigation_agent.py SCALE_FACTOR = 999: x / 999 * width, int()"),
    Convention("ui-venus-navi", "image", 0, "int", 28, 830_000, 937_664,
               "inclusionAI/UI-Venus models/navigation/ui_venus_navi_agent.py _rescale_coordinate: "
               "int(x * o_w / r_w) with r_w from smart_resize(factor=28, min_pixels, max_pixels); "
               "scripts/run_navi_7b.sh of the first release: 830,000 to 937,664 pixels (as issue 50 cites it)"),
    Convention("ui-venus-1.5", "grid", 1000, "int", 28, QWEN_MIN, QWEN_MAX,
               "inclusionAI/UI-Venus Venus_framework/policy/ui_venus_policy.py normalize_to_screen: "
               "int(x * width / 1000)"),
)}


def resized(width: int, height: int, c: Convention) -> tuple[int, int]:
    """(width, height) of the image the model sees: qwen-vl-utils' ``smart_resize`` (each side rounded to
    the factor, then scaled into the pixel budget, floored when lowered and ceiled when raised)."""
    f = c.factor
    h_bar, w_bar = max(f, round(height / f) * f), max(f, round(width / f) * f)
    if h_bar * w_bar > c.max_pixels:
        beta = math.sqrt(height * width / c.max_pixels)
        h_bar, w_bar = math.floor(height / beta / f) * f, math.floor(width / beta / f) * f
    elif h_bar * w_bar < c.min_pixels:
        beta = math.sqrt(c.min_pixels / (height * width))
        h_bar, w_bar = math.ceil(height * beta / f) * f, math.ceil(width * beta / f) * f
    return w_bar, h_bar


def extent(width: int, height: int, c: Convention) -> tuple[int, int]:
    """The side lengths a model's coordinates are written against."""
    return resized(width, height, c) if c.space == "image" else (c.grid, c.grid)


def to_phone(mx: float, my: float, width: int, height: int, c: Convention) -> tuple[int, int]:
    """The phone's pixel of the model's (mx, my) by the authors' formula."""
    ex, ey = extent(width, height, c)
    fx, fy = mx / ex * width, my / ey * height
    if c.rounding == "int":
        return int(fx), int(fy)
    return int(round(fx)), int(round(fy))


def model_point(px: int, py: int, width: int, height: int, c: Convention) -> tuple[int, int]:
    """The integer point a model of ``c`` writes for the phone's pixel (px, py): the one nearest the pixel's
    centre that the authors' formula maps back onto (px, py), or the nearest where none does (a grid
    coarser than the screen)."""
    ex, ey = extent(width, height, c)

    def axis(p: int, side: int, e: int, pick: int) -> int:
        centre = (p + 0.5) / side * e
        best = None
        for m in range(max(0, math.floor(centre) - 2), min(e, math.ceil(centre) + 2) + 1):
            back = to_phone(m, m, width, height, c)[pick]
            key = (abs(back - p), abs(m - centre))
            if best is None or key < best[0]:
                best = (key, m)
        assert best is not None
        return best[1]
    return axis(px, width, ex, 0), axis(py, height, ey, 1)


def convention(family: str) -> Convention:
    """The convention of ``family`` (its --model-family name). Raises KeyError naming the known ones."""
    try:
        return CONVENTIONS[family]
    except KeyError:
        raise KeyError(f"no coordinate convention is written for {family!r}; known: {', '.join(CONVENTIONS)}") from None

"""A phone showing an overflow menu open over its page, with the dump a real device gives then.

The page (a top bar with its search icon, a list of rows) is drawn with Pillow in Roboto and
Material Design icons; over it, at the top right, a popup menu: a raised card with a soft shadow
and no scrim (the page is not dimmed). Android's popup menu is modal (a tap outside it closes it
and reaches nothing else), and a device's ``uiautomator dump`` then holds the focused window, the
menu's, alone: that is the XML given here. Used by the perception tests (hybrid grounding) and the
MCP tests (screen_elements, tap_element).
"""

from __future__ import annotations

import fontpkg_roboto
from fonticon_mdi7.mdi7 import MDI7
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from mobile_agent.types import Box

MENU = Box(541, 143, 1080, 143 + 4 * 132)
ITEMS = ("Play next", "Go to album", "Share", "Delete from device")
ROWS = ("Weekly report", "Lofi Study", "Morning playlist", "Road trip mix")
PACKAGE = "com.example.music"


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(fontpkg_roboto.ROOT / "files" / "Roboto[wdth,wght].ttf"), size)


def _node(box: Box, cls: str, text: str = "", clickable: bool = False, children: str = "") -> str:
    return (f'<node index="0" text="{text}" resource-id="" class="{cls}" package="{PACKAGE}" content-desc="" '
            f'clickable="{str(clickable).lower()}" enabled="true" bounds="{box.to_bounds()}">{children}</node>')


def popup_screen() -> tuple[Image.Image, str, Box]:
    """The screenshot (1080x2280), the dump (the menu's window) and the menu's box."""
    img = Image.new("RGB", (1080, 2280), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.text((40, 20), "12:30", font=_font(36), fill=(33, 33, 33))
    d.rectangle((0, 90, 1080, 250), fill=(63, 81, 181))
    d.text((60, 140), "Library", font=_font(56), fill=(255, 255, 255))
    d.text((840, 134), MDI7.magnify.split(".", 1)[1], font=ImageFont.truetype(MDI7.__font_file__, 72),
           fill=(255, 255, 255))
    for k, row in enumerate(ROWS):
        d.text((60, 330 + 160 * k), row, font=_font(46), fill=(33, 33, 33))
    # the menu's shadow: the page darkened beside and under the card, softly
    region = (MENU.x1 - 40, MENU.y1, 1080, MENU.y2 + 40)
    under = img.crop(region)
    mask = Image.new("L", under.size, 0)
    ImageDraw.Draw(mask).rectangle((40, 0, under.size[0], under.size[1] - 40), fill=255)
    under.paste(under.point(lambda v: int(v * 0.8)), (0, 0), mask.filter(ImageFilter.GaussianBlur(14)))
    img.paste(under, region[:2])
    d.rectangle(MENU.as_tuple(), fill=(250, 250, 250))
    rows = []
    for k, label in enumerate(ITEMS):
        row = Box(MENU.x1, MENU.y1 + 132 * k, MENU.x2, MENU.y1 + 132 * (k + 1))
        d.text((row.x1 + 44, row.y1 + 40), label, font=_font(44), fill=(33, 33, 33))
        l, t, r, b = d.textbbox((row.x1 + 44, row.y1 + 40), label, font=_font(44))
        rows.append(_node(row, "android.widget.LinearLayout", clickable=True,
                          children=_node(Box(int(l), int(t), int(r) + 1, int(b) + 1), "android.widget.TextView", label)))
    xml = ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
           + _node(MENU, "android.widget.FrameLayout", children=_node(MENU, "android.widget.ListView",
                                                                     children="".join(rows)))
           + "</hierarchy>")
    return img, xml, MENU


class PopupPhone:
    """A device over :func:`popup_screen`: its screenshot and its dump; taps are recorded, and
    change nothing."""

    capabilities = frozenset({"ui_tree"})

    def __init__(self) -> None:
        self.image, self.xml, self.menu = popup_screen()
        self.taps: list[tuple[int, int]] = []

    def screenshot(self) -> Image.Image:
        return self.image.copy()

    def ui_tree(self) -> str:
        return self.xml

    def size(self) -> tuple[int, int]:
        return self.image.size

    def tap(self, x: int, y: int) -> None:
        self.taps.append((x, y))

"""A tiny phone for the agent's tests: real Pillow-rendered screens with text buttons, a Wi-Fi
switch, Back and Home. It implements the Device protocol; its state is what tests check."""

from __future__ import annotations

from dataclasses import dataclass, field

import fontpkg_roboto
from PIL import Image, ImageDraw, ImageFont

from mobile_agent.device.base import check_point
from mobile_agent.types import Box

W, H = 360, 640
FONT = ImageFont.truetype(str(fontpkg_roboto.ROOT / "files" / "Roboto[wdth,wght].ttf"), 30)
BUTTONS = {
    "home": [("Settings", Box(40, 180, 320, 250)), ("Notes", Box(40, 300, 320, 370))],
    "settings": [("Wi-Fi", Box(40, 180, 320, 250)), ("Delete all", Box(40, 300, 320, 370))],
}
TITLES = {"home": "Home", "settings": "Settings"}
SECOND_SETTINGS = Box(40, 420, 320, 490)  # shown when the phone is made with duplicate=True


@dataclass
class TinyPhone:
    screen: str = "home"
    wifi: bool = False
    taps: list[tuple[int, int]] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)
    backs: int = 0
    duplicate: bool = False

    def _buttons(self) -> list[tuple[str, Box]]:
        extra = [("Settings", SECOND_SETTINGS)] if self.duplicate and self.screen == "home" else []
        return BUTTONS[self.screen] + extra

    def size(self) -> tuple[int, int]:
        return (W, H)

    def screenshot(self) -> Image.Image:
        img = Image.new("RGB", (W, H), (250, 250, 250))
        d = ImageDraw.Draw(img)
        d.rectangle([0, 0, W, 70], fill=(30, 90, 160))
        d.text((24, 16), TITLES[self.screen], font=FONT, fill=(255, 255, 255))
        for label, b in self._buttons():
            d.rectangle([b.x1, b.y1, b.x2, b.y2], outline=(120, 120, 120), width=2, fill=(255, 255, 255))
            d.text((b.x1 + 20, b.y1 + 17), label, font=FONT, fill=(20, 20, 20))
            if label == "Wi-Fi":
                d.text((b.x2 - 80, b.y1 + 17), "On" if self.wifi else "Off", font=FONT,
                       fill=(0, 140, 60) if self.wifi else (160, 40, 40))
        return img

    def tap(self, x: int, y: int) -> None:
        check_point(self.size(), x, y)
        self.taps.append((x, y))
        for label, b in self._buttons():
            if b.contains(x, y):
                if self.screen == "home" and label == "Settings":
                    self.screen = "settings"
                elif self.screen == "settings" and label == "Wi-Fi":
                    self.wifi = not self.wifi
                return  # "Notes" and "Delete all" do nothing

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        check_point(self.size(), x1, y1)
        check_point(self.size(), x2, y2)

    def type_text(self, text: str) -> None:
        self.typed.append(text)

    def back(self) -> None:
        self.backs += 1
        self.screen = "home"

    def home(self) -> None:
        self.screen = "home"

    def ui_tree(self) -> str | None:
        return None

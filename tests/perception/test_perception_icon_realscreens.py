"""Click Icon on real apps' screens (issue 25): each rule named by the real-app phenomenon it
handles, on screens of open-source (F-Droid) apps committed as fixtures
(``fixtures/realicons/SOURCE.md``, ``../bench/fixtures/realscreens``) and, where the project's
development set is beside the clone (``../shared/realscreens``), on other apps' screens too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from mobile_agent.perception import Perception
from mobile_agent.perception.icons.offline import description_families, description_glyphs
from mobile_agent.types import Box

HERE = Path(__file__).resolve().parent
FIXTURES = (HERE / "fixtures" / "realicons", HERE.parent / "bench" / "fixtures" / "realscreens")
DEV_SET = HERE.parents[1] / ".." / "shared" / "realscreens"


def _hint(box: Box, width: int, height: int) -> tuple[str, ...]:
    """The third of the screen the box's centre lies in, as the real sets' manifest rules say."""
    c = box.center
    v = "top" if c.y < height / 3 else ("bottom" if c.y >= 2 * height / 3 else "center")
    h = "left" if c.x < width / 3 else ("right" if c.x >= 2 * width / 3 else "center")
    return (v, h) if (v, h) != ("center", "center") else ("center",)


def _target(name: str, target: str, folders: tuple[Path, ...] = FIXTURES) -> tuple[Image.Image, Box]:
    """The screenshot ``name`` and the bounds of its Click Icon target ``target``."""
    for folder in folders:
        manifest = folder / "manifest.jsonl"
        if not manifest.exists():
            continue
        for line in manifest.read_text().splitlines():
            d = json.loads(line)
            if d["image"] == f"img/{name}.png" and d["target"] == target and d["kind"] == "icon":
                return Image.open(folder / d["image"]).convert("RGB"), Box(*d["bbox"])
    raise AssertionError(f"{name}: no icon target {target!r}")


def _dev(name: str, target: str) -> tuple[Image.Image, Box]:
    if not (DEV_SET / "manifest.jsonl").exists():
        pytest.skip("the development set of real screens (../shared/realscreens beside the clone) is absent")
    return _target(name, target, (DEV_SET,))


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def _hits(p: Perception, img: Image.Image, box: Box, target: str) -> list[bool]:
    """Whether Click Icon ``target`` taps inside ``box``, without the hint and with it."""
    out = []
    for hint in ((), _hint(box, *img.size)):
        g = p.ground_icon(img, target, hint)
        out.append(g.status == "found" and box.contains_point(g.point))
    return out


def test_android_content_descriptions_name_their_glyphs():
    # Material Components' own content descriptions: TextInputLayout's end icons and the date
    # picker's mode toggle; "Show" and "Hide" are verbs before another shape word.
    assert description_glyphs("Show dropdown menu")[0] == "caret_down"
    assert "eye" not in description_glyphs("Show dropdown menu")
    assert description_families("Show dropdown menu") == set()
    assert description_glyphs("Show / Hide played content")[:2] == ["eye", "eye_slash"]
    assert description_glyphs("Show password")[0] == "eye"
    assert description_glyphs("Switch to text input mode")[0] == "pen"
    assert description_glyphs("Switch to calendar input mode")[0] == "calendar"
    # The toolbar's collapse button (a collapsed action view's) is the up arrow.
    assert "arrow_left~0.95" in description_glyphs("Collapse")
    # Glyphs every app of a kind draws: a browser's private tab, a feed, an update, a restore.
    assert description_glyphs("Enable private browsing")[0] == "mask"
    assert description_glyphs("RSS")[0] == "rss"
    assert description_glyphs("Update")[0] == "arrow_rotate_right"
    assert description_glyphs("Restore")[0] == "arrow_rotate_left"


@pytest.mark.parametrize("name,target", [
    # "Collapse": a loyalty-card app's search, its up arrow at the bar's start
    ("me.hackerchick.catima__1021118874", "Collapse"),
    # Material's date picker: its text-mode toggle is a pencil
    ("org.totschnig.myexpenses__1332990983", "Switch to text input mode"),
    # a backup list's restore arrow
    ("org.totschnig.myexpenses__662143729", "Restore"),
])
def test_standard_content_descriptions_on_fixture_screens(perception, name, target):
    img, box = _target(name, target)
    assert _hits(perception, img, box, target) == [True, True]


@pytest.mark.parametrize("name,target", [
    ("Podcast_Player_v7.0.0-220308033.rd0a0ae8__1882408957", "Collapse"),  # a podcast app's search
    ("Firefox_Fast_Private_Browser_v101.1.1__1588025648", "Enable private browsing"),
    ("Podcast_Addict_Podcast_player_v2022.4__420597121", "Update"),
])
def test_standard_content_descriptions_on_other_apps(perception, name, target):
    img, box = _dev(name, target)
    assert _hits(perception, img, box, target) == [True, True]

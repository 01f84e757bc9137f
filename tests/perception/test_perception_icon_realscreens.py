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
from mobile_agent.perception.icons.offline import description_glyphs
from mobile_agent.perception.icons.lexicon import description_families
from mobile_agent.types import Box
from tests.fakes import system
from tests.devscreens import COMMITTED

HERE = Path(__file__).resolve().parent
FIXTURES = (HERE / "fixtures" / "realicons", HERE.parent / "bench" / "fixtures" / "realscreens")
DEV_SET = COMMITTED


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


def _drawn_screen() -> tuple[Image.Image, dict[str, Box]]:
    """A light screen with a sentence holding two links, a dialog's text buttons and a bottom
    navigation tab whose house glyph is labelled "Home"; the boxes of each."""
    import fontpkg_roboto
    from PIL import ImageDraw, ImageFont

    import mobile_agent.perception.icons.offline as offline

    roboto = Path(fontpkg_roboto.__file__).parent / "files" / "Roboto[wdth,wght].ttf"
    img = Image.new("RGB", (1080, 2280), (250, 250, 250))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(roboto), 40)
    boxes = {}
    d.text((120, 300), "Welcome", font=ImageFont.truetype(str(roboto), 64), fill=(20, 20, 20))
    x = 50
    small = ImageFont.truetype(str(roboto), 34)
    for part, colour in (("Read our ", (90, 90, 90)), ("Privacy Policy", (20, 110, 200)),
                         (". Tap to accept the ", (90, 90, 90)), ("Terms of Service", (20, 110, 200))):
        d.text((x, 900), part, font=small, fill=colour)
        bb = d.textbbox((x, 900), part, font=small)
        boxes[part] = Box(*bb).expand(6)
        x = bb[2] + (12 if part.endswith(" ") else 0)
    for label, x in (("Cancel", 560), ("Import", 800)):
        d.text((x, 1300), label, font=font, fill=(20, 110, 200))
        boxes[label] = Box(*d.textbbox((x, 1300), label, font=font)).expand(16)
    mi = ImageFont.truetype(str(Path(offline.__file__).with_name("refs") / "MaterialIcons-Regular.ttf"), 72)
    for k, (glyph, label) in enumerate((("home", "Home"), ("search", "Find"), ("settings", "Setup"))):
        cx = 180 + 360 * k
        d.text((cx - 36, 2040), chr(offline._MATERIAL_CODEPOINTS[glyph]), font=mi, fill=(40, 40, 40))
        boxes[glyph] = Box(cx - 60, 2020, cx + 60, 2130)
        tw = d.textlength(label, font=font)
        d.text((cx - tw / 2, 2140), label, font=font, fill=(40, 40, 40))
    return img, boxes


def test_controls_drawn_as_their_words_are_tapped_on_their_words(perception):
    # A messenger's welcome screen links "Privacy Policy" and "Terms of Service" inside a sentence;
    # a cross-platform toolkit draws a dialog's "Cancel" and "Import" buttons as text: their nodes'
    # content-desc is their words and they hold no text node, so Click Icon names them.
    img, boxes = _drawn_screen()
    for target in ("Privacy Policy", "Terms of Service", "Cancel", "Import"):
        assert _hits(perception, img, boxes[target], target) == [True, True], target
    # A tab's house over its label "Home" is the icon Click Icon names, not its caption.
    assert _hits(perception, img, boxes["home"], "Home") == [True, True]


@pytest.mark.parametrize("name,target", [
    ("WhatsApp__1149387745", "Privacy\xa0Policy"),  # links in a sentence
    ("WhatsApp__1526074451", "Wrong number?"),
    ("deep.ryd.rydplayer__762092943", "Cancel"),  # a toolkit's dialog buttons
    ("HERE_WeGo_Maps_Navigation_v4.4.200__156770900", "Cancel"),  # a search bar's text button
])
def test_controls_drawn_as_their_words_on_other_apps(perception, name, target):
    img, box = _dev(name, target)
    assert _hits(perception, img, box, target) == [True, True]


@pytest.mark.parametrize("index,description,position", [
    # a home screen titled "Home" whose bottom navigation's house is captioned "Home": the words
    # name the captioned icon, the title is no control drawn as words
    (36, "Home", ()),
])
def test_a_caption_is_no_control_drawn_as_words(perception, index, description, position):
    from mobile_agent.screensets import icon_stress as st

    system.require("dejavu")  # the icon stress set's texts are drawn in five fonts, DejaVu Sans among them
    screen = st.stress_screen(index)
    target = next(t for t in screen.targets if t.description == description)
    g = perception.ground_icon(screen.image, description, position)
    assert g.status == "found" and target.box.contains_point(g.chosen.point), (screen.name, g.candidates[:3])


@pytest.mark.parametrize("index", [18, 27])
def test_a_glyph_read_into_its_label_line_is_the_control(perception, index):
    # A shop's "Filter" chip: OCR reads its sliders glyph and its label as one line; the line's
    # words are the chip's label, and the glyph is what Click Icon names.
    from mobile_agent.screensets import icon_heldout_v2 as h2

    screen = h2._screen(0, index)
    target = next(t for t in screen.targets if t.description == "Filter")
    g = perception.ground_icon(screen.image, "Filter", ("top", "left"))
    assert g.status == "found" and target.box.contains_point(g.chosen.point), (screen.name, g.candidates[:3])


@pytest.mark.parametrize("variant", ["as captured", "720 px", "1440 px", "dark theme"])
def test_a_save_button_drawn_as_materials_floppy_disk(perception, variant):
    # A loyalty-card app's form: its floating Save is Material's filled floppy disk, which Font
    # Awesome draws as an outline. Without Material's own glyph among the references, the form's
    # orange colour swatch won "Save" on the same screen at 720 and 1440 px and in a dark theme.
    from mobile_agent.screensets.realscreens import force_dark

    img, box = _target("me.hackerchick.catima__236981483", "Save")
    if variant == "dark theme":
        img = force_dark(img)
    elif variant != "as captured":
        f = 2 / 3 if variant == "720 px" else 4 / 3
        img = img.resize((round(img.width * f), round(img.height * f)), Image.LANCZOS)
        box = Box(round(box.x1 * f), round(box.y1 * f), round(box.x2 * f), round(box.y2 * f))
    assert "mi:save" in description_glyphs("Save")
    g = perception.ground_icon(img, "Save")
    assert g.status == "found" and box.contains_point(g.point), (g.status, g.point, box, g.message)

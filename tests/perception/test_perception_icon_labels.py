"""Click Icon for a control named by the text that labels it (issue 25): a setting's radio button
or switch named by its setting ("Dark theme", "Top"), and a form's control named "FIELD LABEL :
ROLE" ("Amount (US Dollar) : Calculator"), on real apps' screens (the F-Droid fixtures committed
beside the tests, and the development set where it is beside the clone) and on the simulated
phone's screens."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw
import numpy as np

from mobile_agent.device.sim import SimPhone
from mobile_agent.perception import Perception
from mobile_agent.perception.icons.grounding import field_and_role, selection_control
from mobile_agent.screensets.measure import parse_tree
from mobile_agent.types import Box

from test_perception_icon_realscreens import DEV_SET, HERE, _dev, _hint, _hits, _target


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def test_field_and_role_is_read_only_from_a_colon_between_spaces():
    assert field_and_role("Amount (US Dollar) : Expense") == ("Amount (US Dollar)", "Expense")
    assert field_and_role("Goal / Limit : Calculator") == ("Goal / Limit", "Calculator")
    for other in ("Light theme", "Time: 12:45", "12 : 45", "Note:", "a : b"):
        assert field_and_role(other) is None, other


@pytest.mark.parametrize("target", ["Amount (US Dollar) : Expense", "Amount (US Dollar) : Calculator"])
def test_a_form_rows_controls_by_field_label_and_role(perception, target):
    # The sign toggle right of "Amount ($)" (a role no glyph draws: the row's selection control) and
    # the "=" at the row's end (a role that names a glyph the row does not draw: the field's end icon).
    img, box = _target("org.totschnig.myexpenses__1243134374", target)
    assert _hits(perception, img, box, target) == [True, True]


@pytest.mark.parametrize("name,target", [
    ("org.totschnig.myexpenses__14726600", "Opening balance : Income"),      # a label on two lines
    ("org.totschnig.myexpenses__14726600", "Opening balance : Calculator"),
    ("org.totschnig.myexpenses__14726600", "Goal / Limit : Expense"),
    ("org.totschnig.myexpenses__662143729", "Opening balance : Income"),     # the label above its field
])
def test_form_rows_on_the_development_set(perception, name, target):
    img, box = _dev(name, target)
    assert _hits(perception, img, box, target) == [True, True]


@pytest.mark.parametrize("name", ["Firefox_Fast_Private_Browser_v101.1.1__1588025648",
                                  "Firefox_Fast_Private_Browser_v101.1.1__364225788"])
@pytest.mark.parametrize("target", ["Light theme", "Dark theme", "Top", "Bottom"])
def test_an_onboarding_cards_radio_by_the_label_under_the_card(perception, name, target):
    # The ring at the card's top-left corner, the label under the card; the "Automatic" radio beside
    # its own label, closer to "Light theme" than its ring, is not "Light theme"'s.
    img, box = _dev(name, target)
    assert _hits(perception, img, box, target) == [True, True]


def _drawn(kind: str, dp: float = 2.75) -> tuple[np.ndarray, Box]:
    """A 20 dp radio ring (2 dp stroke), selected (a 10 dp dot) or not, or a thick ring (a disc's
    rim, a gear's body), on a white screen."""
    img = Image.new("RGB", (1080, 2280), "white")  # a phone's screen: 2.75 px a dp
    d = ImageDraw.Draw(img)
    c, r = 300, int(10 * dp)
    stroke = int(2 * dp) if kind != "thick" else int(5 * dp)
    d.ellipse((c - r, c - r, c + r, c + r), outline=(90, 40, 200), width=stroke)
    if kind == "selected":
        q = int(5 * dp)
        d.ellipse((c - q, c - q, c + q, c + q), fill=(90, 40, 200))
        return np.asarray(img), Box(c - q, c - q, c + q, c + q)  # the detector may box only the dot
    return np.asarray(img), Box(c - r, c - r, c + r, c + r)


def test_a_radio_ring_selected_or_not_and_no_thick_ring():
    for kind, want in (("empty", "radio"), ("selected", "radio"), ("thick", None)):
        rgb, box = _drawn(kind)
        assert selection_control(rgb, box) == want, kind


def _checkbox(kind: str, dp: float = 2.75) -> tuple[np.ndarray, Box]:
    """An 18 dp checkbox (2 dp stroke), checked (filled, a white check) or not; a filled square (a
    stop sign); an outlined square with a glyph in it."""
    img = Image.new("RGB", (1080, 2280), "white")
    d = ImageDraw.Draw(img)
    c, r = 300, int(9 * dp)
    col = (30, 90, 200)
    if kind == "unchecked":
        d.rounded_rectangle((c - r, c - r, c + r, c + r), radius=int(2 * dp), outline=col, width=int(2 * dp))
    else:
        d.rounded_rectangle((c - r, c - r, c + r, c + r), radius=int(2 * dp), fill=col)
    if kind == "checked":
        d.line([(c - 5 * dp, c), (c - 1.5 * dp, c + 4 * dp), (c + 5.5 * dp, c - 4 * dp)], fill="white", width=int(2 * dp))
    return np.asarray(img), Box(c - r, c - r, c + r + 1, c + r + 1)


def test_a_checkbox_checked_or_not_and_no_stop_square():
    for kind, want in (("unchecked", "checkbox"), ("checked", "checkbox"), ("stop", None)):
        rgb, box = _checkbox(kind)
        assert selection_control(rgb, box) == want, kind


def test_real_radios_and_glyphs_in_rings(perception):
    img, _ = _dev("Firefox_Fast_Private_Browser_v101.1.1__1588025648", "Light theme")
    rgb = np.asarray(img)
    assert selection_control(rgb, Box(124, 744, 176, 796)) == "radio"      # empty ring
    assert selection_control(rgb, Box(136, 1630, 162, 1658)) == "radio"    # a selected one's dot
    # Every other detected icon of the committed F-Droid screens (gears, a camera, a plus, an eye...)
    # is no radio.
    for name, target in (("org.totschnig.myexpenses__1243134374", "Navigate up"),
                         ("me.hackerchick.catima__236981483", "Navigate up"),
                         ("org.totschnig.myexpenses__1482807785", "Search")):
        shot, _ = _target(name, target)
        for i in perception.parse(shot, icons=True).icons or []:
            assert selection_control(np.asarray(shot), i.box) != "radio", (name, i.box)


def _node(phone: SimPhone, text: str):
    w, h = phone.size()
    return next(n for n in parse_tree(phone.ui_tree(), w, h) if n.text == text)


def _settings_page(perception: Perception, row: str) -> SimPhone:
    phone = SimPhone(seed=0)
    phone.tap(*perception.ground_app(phone.screenshot(), "Settings").point.as_tuple())
    phone.tap(*perception.ground_text(phone.screenshot(), row).point.as_tuple())
    return phone


def test_a_settings_rows_switch_by_its_label(perception):
    # "Dark theme" over its summary, the switch at the row's end: the switch, which turns it on.
    phone = _settings_page(perception, "Display")
    shot = phone.screenshot()
    g = perception.ground_icon(shot, "Dark theme")
    switch = next(n for n in parse_tree(phone.ui_tree(), *phone.size()) if n.cls == "android.widget.Switch"
                  and abs(n.box.center.y - _node(phone, "Dark theme").box.center.y) < 80)
    assert g.status == "found" and switch.box.contains_point(g.point)
    phone.tap(*g.point.as_tuple())
    assert phone.state.settings.dark_mode is True


def test_a_glyph_of_the_words_on_the_labels_row_keeps_the_glyph(perception):
    # A settings row with its Wi-Fi glyph before "Wi-Fi" and a switch at its end: the words name a
    # glyph, and the glyph matcher keeps them (the switch is "Wi-Fi switch").
    phone = _settings_page(perception, "Network & internet")
    shot = phone.screenshot()
    label = _node(phone, "Wi-Fi").box
    g = perception.ground_icon(shot, "Wi-Fi")
    assert g.status == "found" and not (g.point.x > label.x2 and abs(g.point.y - label.center.y) < 80)
    sw = perception.ground_icon(shot, "Wi-Fi switch")
    assert sw.status == "found" and sw.point.x > label.x2 and abs(sw.point.y - label.center.y) < 80


@pytest.mark.parametrize("label", ["English", "Deutsch", "Italiano", "Other"])
def test_a_list_rows_checkbox_by_its_label(perception, label):
    # A manga reader's language chooser (F-Droid, committed): a checkbox before each language,
    # "English" checked, the others not. Click Icon by the language is the checkbox, not the words.
    img = Image.open(HERE.parent / "bench" / "fixtures" / "realscreens" / "img" / "org.koitharu.kotatsu__107684743.png")
    rows = {"English": 592, "Deutsch": 724, "Italiano": 1120, "Other": 1648}  # the rows' tops in the dump, 132 px each
    g = perception.ground_icon(img.convert("RGB"), label)
    assert g.status == "found" and g.point.x < 250 and rows[label] <= g.point.y < rows[label] + 132


def test_an_appcompat_switch_thumb_over_its_track(perception):
    # A finance app's sign toggle (F-Droid, committed): a thumb disc taller than its track, over
    # one end. Its detected box is a switch; the row's other icons (the amount field's "=") are not.
    img, _ = _target("org.totschnig.myexpenses__1243134374", "Amount (US Dollar) : Expense")
    rgb = np.asarray(img)
    assert selection_control(rgb, Box(338, 396, 430, 460)) == "switch"
    assert selection_control(rgb, Box(937, 391, 1007, 461)) is None


@pytest.mark.parametrize("name,label,switch", [
    # a browser's welcome switches, one label wrapped onto a second line
    ("Opera_Mini_fast_web_browser_v63.0.2254.61942__1371252229", "Tired of ads? Block them!", (838, 664, 970, 796)),
    ("Opera_Mini_fast_web_browser_v63.0.2254.61942__1371252229", "Save data and browse longer", (838, 852, 970, 984)),
    # a podcast player's theme switch right after its label
    ("Podcast_Addict_Podcast_player_v2022.4__420597121", "Light Theme", (380, 370, 530, 470)),
])
def test_appcompat_switches_by_their_labels_on_the_development_set(perception, name, label, switch):
    # Not Click Icon targets of the set (the switches hold the text "ON"): their nodes' bounds.
    img = Image.open(DEV_SET / "img" / f"{name}.png").convert("RGB")
    g = perception.ground_icon(img, label)
    assert g.status == "found" and Box(*switch).contains_point(g.point)


def test_a_magnifier_is_no_radio_and_a_title_no_label(perception):
    # The icon stress set's home screen: "Home" as the title, a magnifier on its row (a ring with a
    # handle, the bell between them), the bottom navigation's house over "Home". Click Icon "Home" is
    # the house, as before the rule.
    from mobile_agent.screensets import registry

    screen = registry.get("iconstress").load(seed=0, count=26)[25]
    assert screen.name.startswith("iconstress-0-25-home")
    rgb = np.asarray(screen.image.convert("RGB"))
    assert selection_control(rgb, Box(1138, 164, 1198, 220)) is None
    home = next(t for t in screen.targets if t.description == "Home")
    g = perception.ground_icon(screen.image, "Home")
    assert g.status == "found" and home.box.contains_point(g.point)

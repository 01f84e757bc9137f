"""Click Text with a dialog up (issue 25): the page behind a dialog is dimmed by its scrim; its
texts stay legible in the picture, but a tap there closes the dialog or does nothing, so they are
not answered, and the dialog's own texts are. Screens drawn in Roboto with Pillow (a dialog over a
page, the same card without a scrim, a dark theme), and a committed screen of an open-source app."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mobile_agent.perception import Perception
from mobile_agent.perception.change import status_bar_height
from mobile_agent.perception.scrim import modal_card
from mobile_agent.screensets.realscreens import force_dark
from mobile_agent.types import Box
from perception_synth import Painter
from tests.devscreens import COMMITTED, WHOLE, needs_whole

REAL = Path(__file__).resolve().parents[1] / "bench" / "fixtures" / "realscreens"
DEV_SET = COMMITTED


def _first_point(g):
    return g.point if g.found else (g.candidates[0].point if g.candidates else None)


def _page(dark: bool = False) -> Painter:
    p = Painter(1080, 2280, dark=dark)
    p.status_bar()
    p.draw.rectangle((0, 90, 1080, 250), fill=(25, 118, 210))
    p.text(60, 140, "Inbox", size=56, fill=(255, 255, 255))
    for k, row in enumerate(("Weekly report", "Team lunch on Friday", "Your order has shipped",
                             "Password reset", "Invitation to review")):
        p.text(60, 330 + 160 * k, row, size=46)
        p.text(60, 390 + 160 * k, "Yesterday", size=34, fill=(120, 120, 120))
    p.text(120, 2120, "Mail", size=38)
    p.text(760, 2120, "Settings", size=38)
    return p


def _dialog(p: Painter, scrim: float | None) -> dict[str, Box]:
    """A dialog card drawn over ``p``'s page, the page first dimmed to ``scrim`` of its light (none:
    a card on the page, no modal)."""
    if scrim is not None:
        px = np.asarray(p.image).astype(np.float32) * scrim
        p.image.paste(Image.fromarray(px.astype(np.uint8)))
    p.draw.rounded_rectangle((70, 880, 1010, 1420), 24, fill=(255, 255, 255))
    boxes = {"title": p.text(130, 940, "Delete this message?", size=52, fill=(33, 33, 33))}
    p.text(130, 1040, "It will be removed from all your devices.", size=36, fill=(90, 90, 90))
    boxes["CANCEL"] = p.text(520, 1300, "CANCEL", size=40, fill=(25, 118, 210))
    boxes["DELETE"] = p.text(800, 1300, "DELETE", size=40, fill=(25, 118, 210))
    return boxes


def test_texts_behind_a_dialogs_scrim_are_not_answered_and_the_dialogs_are():
    p = _page()
    boxes = _dialog(p, 0.4)
    q = Perception()
    for text in ("DELETE", "CANCEL"):
        g = q.ground_text(p.image, text)
        assert g.found and boxes[text].contains_point(g.point), (text, g.point)
    for text in ("Weekly report", "Your order has shipped", "Settings"):
        g = q.ground_text(p.image, text)
        assert _first_point(g) is None, (text, g.point)
        assert "behind a dialog" in g.message and "not on the screen" not in g.message, g.message


def test_a_card_on_a_page_without_a_scrim_leaves_the_page_answered():
    # The same card without a scrim (a card of the page, a popup menu): the page is live.
    p = _page()
    _dialog(p, None)
    assert modal_card(np.asarray(p.image)) is None
    g = Perception().ground_text(p.image, "Weekly report")
    assert g.found and g.point.y < 880


def test_a_light_card_on_a_dark_theme_is_no_dialog():
    # A dark page with its own light texts and a light card: the texts outside are as light as the
    # card, so no scrim dims them.
    p = _page(dark=True)
    _dialog(p, None)
    assert modal_card(np.asarray(p.image)) is None
    g = Perception().ground_text(p.image, "Team lunch on Friday")
    assert g.found


def test_a_password_mask_behind_a_dialog_is_not_answered():
    p = Painter(1080, 2280)
    p.status_bar()
    p.text(60, 1600, "Password", size=36, fill=(110, 110, 110))
    mask = p.text(60, 1650, "\u2022" * 10, size=48)
    q = Perception()
    assert q.ground_text(p.image, "\u2022" * 10).found
    _dialog(p, 0.45)
    g = q.ground_text(p.image, "\u2022" * 10)
    assert _first_point(g) is None and "behind a dialog" in g.message, mask


def test_a_real_dialog_over_its_page():
    # A manga reader's first start (open source): a language dialog over the search bar and a
    # keyboard, all dimmed. The dialog's rows are answered, the search bar's hint is not.
    name = "org.koitharu.kotatsu__107684743"
    img = Image.open(REAL / "img" / f"{name}.png")
    q = Perception()
    for text, box in (("English", Box(94, 592, 986, 724)), ("Done", Box(744, 1819, 920, 1951))):
        g = q.ground_text(img, text)
        assert g.found and box.contains_point(g.point), (text, g.point)
    assert _first_point(q.ground_text(img, "Search manga")) is None


@pytest.mark.parametrize("name, behind", [
    ("BBC_News_v5.23.0__1383403505", "Top Stories"),
    ("Messenger__230704229", "greenmon@kaist.ac.kr"),
    ("WhatsApp__1982526472", "South Korea"),
    ("org.koitharu.kotatsu__1255524253", "Search manga"),
    ("Tubi_Movies__1040301534", "Jane Doe"),
])
def test_real_pages_behind_dialogs_on_the_development_set(name, behind):
    # (Tubi's "Jane Doe": a field of the dark page above its dark dialog, dimmed by the scrim)
    assert _first_point(Perception().ground_text(Image.open(DEV_SET / "img" / f"{name}.png"), behind)) is None


@pytest.mark.parametrize("where", [pytest.param(WHOLE, marks=needs_whole, id="whole"),
                                   pytest.param(COMMITTED, id="committed")])
def test_no_dialog_is_seen_on_the_development_sets_other_screens(where):
    # (Tubi's: a dark theme's dialog, a grey card over a dimmed dark photo; its dump's window is the
    # card's, [28,821][1052,1481])
    dialogs = {"BBC_News_v5.23.0__1383403505", "Messenger__230704229", "WhatsApp__1982526472",
               "org.koitharu.kotatsu__107684743", "org.koitharu.kotatsu__1255524253", "Tubi_Movies__1040301534"}
    seen = set()
    images = sorted((where / "img").glob("*.png"))
    dialogs &= {f.stem for f in images}
    for f in images:
        rgb = np.asarray(Image.open(f).convert("RGB"))
        if modal_card(rgb, status_bar_height(rgb.shape[0], rgb.shape[1])) is not None:
            seen.add(f.stem)
    assert seen == dialogs


def test_a_dialog_whose_navigation_bar_the_scrim_leaves_light():
    # The system's navigation bar is drawn by the system, not dimmed with the page: a light strip
    # at the screen's bottom does not hide the dialog.
    p = _page()
    boxes = _dialog(p, 0.45)
    p.draw.rectangle((0, 2280 - 126, 1080, 2280), fill=(250, 250, 250))
    p.draw.polygon([(300, 2217), (330, 2197), (330, 2237)], fill=(90, 90, 90))
    q = Perception()
    assert q.ground_text(p.image, "DELETE").found
    assert _first_point(q.ground_text(p.image, "Team lunch on Friday")) is None, boxes


@pytest.mark.parametrize("scrim, surface", [(0.68, (236, 230, 240)), (0.5, (243, 237, 247)), (0.6, (255, 255, 255))])
def test_dialogs_of_other_styles(scrim, surface):
    # Material 3's dialog: a lighter scrim (32%: the page at 68% of its light) and a tinted
    # surface; the framework's default dim (60%) and others between.
    p = _page()
    px = np.asarray(p.image).astype(np.float32) * scrim
    p.image.paste(Image.fromarray(px.astype(np.uint8)))
    p.draw.rounded_rectangle((70, 880, 1010, 1420), 28, fill=surface)
    ok = p.text(800, 1300, "Remove", size=40, fill=(103, 80, 164))
    q = Perception()
    g = q.ground_text(p.image, "Remove")
    assert g.found and ok.contains_point(g.point)
    assert _first_point(q.ground_text(p.image, "Invitation to review")) is None


CARD = Box(70, 880, 1010, 1420)  # _dialog's card


def _bar_page() -> tuple[Painter, dict[str, Box]]:
    """The page with a top bar's actions (back, search, more) and a list's hearts."""
    p = _page()
    icons = {"back": p.icon(30, 130, "arrow_left", size=72, fill=(255, 255, 255)),
             "search": p.icon(840, 130, "magnify", size=72, fill=(255, 255, 255)),
             "more": p.icon(960, 130, "dots_vertical", size=72, fill=(255, 255, 255))}
    for k in range(5):
        icons[f"heart{k}"] = p.icon(940, 330 + 160 * k, "heart_outline", size=64)
    return p, icons


def test_icons_behind_a_dialogs_scrim_are_not_answered():
    # Click Icon: the top bar's actions and the list's hearts lie behind the dialog; none is
    # answered, and the answer says the page is behind a dialog.
    p, icons = _bar_page()
    q = Perception()
    assert q.ground_icon(p.image, "search").found  # the page is live without the dialog
    _dialog(p, 0.45)
    for desc, pos in (("search", ()), ("More options", ()), ("Navigate up", ("top", "left")), ("heart", ())):
        g = q.ground_icon(p.image, desc, pos)
        assert not g.found and all(CARD.contains_point(c.point) for c in g.candidates), (desc, g.candidates[:2])
        assert "behind a dialog" in g.message, g.message


def test_a_dialogs_own_icon_is_answered_over_the_page():
    # The dialog's own close cross is answered; the page's icons are no candidates.
    p, icons = _bar_page()
    _dialog(p, 0.45)
    cross = p.icon(900, 900, "close", size=64, fill=(90, 90, 90))
    q = Perception()
    g = q.ground_icon(p.image, "close")
    assert g.found and cross.contains_point(g.point), (g.point, cross)
    g = q.ground_icon(p.image, "search")
    assert all(CARD.contains_point(c.point) for c in g.candidates), g.candidates


def test_icons_on_a_page_without_a_scrim_are_answered():
    p, icons = _bar_page()
    _dialog(p, None)
    g = Perception().ground_icon(p.image, "search")
    assert g.found and icons["search"].contains_point(g.point), g.point


def test_the_public_dialog_box_bounds_what_element_lists_mark():
    # Perception.dialog: the card of a drawn dialog over a dimmed page (what screen_elements marks
    # the page's elements behind), None for the same card on a live page.
    p, icons = _bar_page()
    _dialog(p, 0.45)
    card = Perception().dialog(p.image)
    assert card is not None and card.iou(CARD) > 0.9, card
    assert not any(card.contains_point(icons[k].center) for k in ("back", "search", "more", "heart0"))
    p, _ = _bar_page()
    _dialog(p, None)
    assert Perception().dialog(p.image) is None


def test_the_closest_texts_named_with_a_dialog_up_are_the_dialogs():
    # A text found nowhere: the "closest texts" the answer names (what a planner reads as the
    # screen's texts, to try next) are the dialog's, not the page's behind its scrim.
    p = _page()
    _dialog(p, 0.45)
    page = ("Inbox", "Weekly report", "Team lunch on Friday", "Your order has shipped", "Password reset",
            "Invitation to review", "Yesterday", "Mail", "Settings")
    q = Perception()
    for text in ("Delete this conversation", "Weekly summary", "Settings menu"):
        g = q.ground_text(p.image, text)
        assert g.status == "none" and "closest texts on the dialog" in g.message, g.message
        assert not any(f'"{t}"' in g.message for t in page), g.message
    g = q.ground_icon(p.image, "microphone")
    assert not g.found and not any(f'"{t}"' in g.message for t in page), g.message


def test_an_open_drawer_over_its_scrim_is_no_dialog():
    # A navigation drawer: a white side panel the screen's height over the page's scrim. Its
    # scrim closes it, but it is no dialog's card (an open drawer has its own rules).
    p = _page()
    px = np.asarray(p.image).astype(np.float32) * 0.4
    p.image.paste(Image.fromarray(px.astype(np.uint8)))
    top = status_bar_height(2280, 1080)
    p.draw.rectangle((0, top, 715, 2280), fill=(255, 255, 255))
    p.text(60, top + 80, "Manage accounts", size=46)
    assert modal_card(np.asarray(p.image), top) is None
    p.draw.rectangle((0, 0, 1080, top), fill=(0, 0, 0))
    p.draw.rectangle((1080 - 715, top, 1080, 2280), fill=(255, 255, 255))  # and at the right edge
    p.draw.rectangle((0, top, 1080 - 716, 2280), fill=(80, 80, 80))
    assert modal_card(np.asarray(p.image), top) is None


@pytest.mark.skipif(not __import__("mobile_agent.screensets.icon_heldout_v2", fromlist=["available"]).available(),
                    reason="the second held-out icon set's icon font and photos are not installed")
@pytest.mark.parametrize("index", [5, 19])
def test_a_detail_pages_photo_above_its_light_body_is_no_scrim(index):
    # a photo header (dark, textured) above a light body and bottom bar: the body was taken for a
    # sheet over a scrim, and the photo's top-bar icons (Back, Share) were answered none
    from mobile_agent.screensets.icon_heldout_v2 import heldout_screens

    rgb = np.asarray(heldout_screens()[index].image.convert("RGB"))
    assert modal_card(rgb, status_bar_height(rgb.shape[0], rgb.shape[1])) is None


def _dark_dialog(p: Painter, scrim: float | None, surface: tuple[int, int, int]) -> dict[str, Box]:
    """A dark theme's dialog: the page dimmed to ``scrim`` of its light (none: no scrim), a grey
    card a step lighter than the page (Material's dark elevation), light texts, tinted buttons."""
    if scrim is not None:
        px = np.asarray(p.image).astype(np.float32) * scrim
        p.image.paste(Image.fromarray(px.astype(np.uint8)))
    p.draw.rounded_rectangle((70, 880, 1010, 1420), 28, fill=surface)
    boxes = {"title": p.text(130, 940, "Delete this message?", size=52, fill=(230, 225, 229))}
    p.text(130, 1040, "It will be removed from all your devices.", size=36, fill=(202, 196, 208))
    boxes["Cancel"] = p.text(560, 1300, "Cancel", size=40, fill=(208, 188, 255))
    boxes["Delete"] = p.text(820, 1300, "Delete", size=40, fill=(208, 188, 255))
    return boxes


@pytest.mark.parametrize("scrim, surface", [
    (0.68, (43, 41, 48)),  # Material 3: a 32% scrim, surfaceContainerHigh
    (0.6, (56, 56, 56)),   # the framework's default dim, Material 2's 24 dp elevation (#383838)
    (0.4, (45, 45, 45)),   # a heavier scrim
])
def test_a_dark_themes_dialog_over_its_dimmed_page(scrim, surface):
    # A dark page dimmed by a scrim, a lighter grey card over it: the card is not the screen's
    # lightest region (the page's dimmed texts are lighter than the card's surface), yet it is the
    # dialog, and the page behind it is not answered.
    p = _page(dark=True)
    boxes = _dark_dialog(p, scrim, surface)
    q = Perception()
    card = q.dialog(p.image)
    assert card is not None and card.iou(CARD) > 0.9, card
    for text in ("Delete", "Cancel"):
        g = q.ground_text(p.image, text)
        assert g.found and boxes[text].contains_point(g.point), (text, g.point)
    for text in ("Weekly report", "Your order has shipped", "Settings"):
        g = q.ground_text(p.image, text)
        assert _first_point(g) is None and "behind a dialog" in g.message, (text, g.message)


def test_a_dark_card_on_a_dark_page_without_a_scrim_is_no_dialog():
    # The same grey card on the page, not dimmed: the page's texts are as light as the card's.
    p = _page(dark=True)
    _dark_dialog(p, None, (56, 56, 56))
    assert modal_card(np.asarray(p.image), status_bar_height(2280, 1080)) is None
    assert Perception().ground_text(p.image, "Weekly report").found


def test_a_dark_pages_lighter_top_bar_is_no_dialog():
    # A dark page with a lighter grey top bar and its white title, the page's own texts grey (a
    # settings form): the bar spans the width at the top, where no dialog's card lies.
    p = Painter(1080, 2280, dark=True)
    p.draw.rectangle((0, 0, 1080, 2280), fill=(38, 41, 46))
    p.draw.rectangle((0, 80, 1080, 220), fill=(58, 62, 68))
    p.status_bar()
    p.text(45, 115, "Hostname", size=52, fill=(255, 255, 255))
    p.text(45, 270, "Please enter the URL of the server", size=36, fill=(170, 170, 170))
    p.text(90, 420, "https://example.org/api/v1", size=40, fill=(170, 170, 170))
    assert modal_card(np.asarray(p.image), status_bar_height(2280, 1080)) is None


def test_the_simulated_phones_dialog_in_the_dark_theme():
    # The simulated phone's permission dialog over Mail's inbox, light and dark: the page's texts
    # are not answered, the dialog's are.
    from mobile_agent.device.sim import SimPhone

    q = Perception()
    for dark in (False, True):
        phone = SimPhone(dark=dark, disturbances=["permission"])
        phone.launch("Mail")
        img = phone.screenshot()
        card = q.dialog(img)
        assert card is not None and card.iou(Box(63, 917, 1017, 1419)) > 0.9, (dark, card)
        assert q.ground_text(img, "Allow").found
        g = q.ground_text(img, "Lunch on Friday?")
        assert _first_point(g) is None and "behind a dialog" in g.message, (dark, g.message)


def test_a_keyboard_up_over_a_dark_page_is_no_dialog():
    # A music player's search in the dark theme with the keyboard up: one result on a black page
    # (its light texts are under 0.2% of the page's pixels) and the keyboard's grey panel up from
    # the bottom looked like a sheet over a dimmed page, and every text of the page was answered
    # "behind a dialog". The page is not dimmed: its texts are as light as the keys'.
    import json

    folder = Path(__file__).resolve().parent / "fixtures" / "realtext"
    name = "com.poupa.vinylmusicplayer__26861387"
    img = force_dark(Image.open(folder / "img" / f"{name}.png"))
    rgb = np.asarray(img)
    assert modal_card(rgb, status_bar_height(rgb.shape[0], rgb.shape[1])) is None
    rows = [json.loads(ln) for ln in (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    targets = {d["target"]: Box(*d["bbox"]) for d in rows if d["image"] == f"img/{name}.png"}
    q = Perception()
    for text in ("Lofi Study", "Songs"):
        g = q.ground_text(img, text)
        assert g.found and targets[text].contains_point(g.point), (text, g.status, g.message)


def test_a_dark_dialog_over_a_dimmed_page_with_few_texts():
    # The other side of that rule: a dark theme's dialog over a page of few texts, dimmed by its
    # scrim, is still the dialog (no pixel outside it is as light as its texts).
    p = Painter(1080, 2280, dark=True)
    p.status_bar()
    p.text(60, 140, "Library", size=56, fill=(255, 255, 255))
    p.text(60, 330, "Lofi Study", size=46, fill=(255, 255, 255))
    boxes = _dark_dialog(p, 0.6, (56, 56, 56))
    q = Perception()
    card = q.dialog(p.image)
    assert card is not None and card.iou(CARD) > 0.9, card
    g = q.ground_text(p.image, "Lofi Study")
    assert _first_point(g) is None and "behind a dialog" in g.message, g.message
    g = q.ground_text(p.image, "Delete")
    assert g.found and boxes["Delete"].contains_point(g.point)

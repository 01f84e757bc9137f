"""Hybrid grounding: the simulated phone's accessibility tree beside its screenshot. The tree's
node is tapped at its centre for a text and for a content-desc (also when the planner's words are
another name of the same glyph family); vision grounds instead when the tree is missing, empty,
not XML, sized for another screen, or stale (its texts are not on the picture)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.uitree import parse_tree
from mobile_agent.perception import Perception
from mobile_agent.perception.hybrid import ScreenTree, parse_ui_tree
from mobile_agent.types import Box
from tests.devscreens import COMMITTED
from tests.fakes.popupphone import popup_screen


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def screen(app: str):
    ph = SimPhone(seed=0)
    ph.launch(app)
    return ph.screenshot(), ph.ui_tree()


@pytest.fixture(scope="module")
def mail():
    return screen("Mail")


@pytest.fixture(scope="module")
def shop():
    return screen("Shop")


def node(xml: str, **query):
    for n in parse_tree(xml):
        if all(getattr(n, k) == v for k, v in query.items()):
            return n
    raise LookupError(query)


def test_text_is_tapped_at_the_tree_nodes_centre(perception, mail):
    img, xml = mail
    target = node(xml, text="Lunch on Friday?")
    g = perception.ground_text(img, "Lunch on Friday?", tree=xml)
    assert g.found and g.point == target.bounds.center
    assert "accessibility tree" in g.message
    # Vision alone lands inside the node too, but not on its centre: the tree is what decided.
    v = perception.ground_text(img, "Lunch on Friday?")
    assert v.found and target.bounds.contains_point(v.point) and v.point != target.bounds.center


@pytest.mark.parametrize("words", ["Open navigation drawer", "hamburger", "menu"])
def test_content_desc_and_its_glyph_family_pick_the_nodes_centre(perception, mail, words):
    img, xml = mail
    target = node(xml, desc="Open navigation drawer")
    g = perception.ground_icon(img, words, tree=xml)
    assert g.found and g.point == target.bounds.center, g


@pytest.mark.parametrize("words,desc", [("Cart", "Cart"), ("shopping cart", "Cart"), ("chat", "Messages")])
def test_icon_by_desc_on_a_shop_toolbar(perception, shop, words, desc):
    img, xml = shop
    g = perception.ground_icon(img, words, tree=xml)
    assert g.found and g.point == node(xml, desc=desc).bounds.center, g


def test_stale_tree_falls_back_to_vision(perception, mail):
    img, _ = mail
    _, notes_xml = screen("Notes")  # the tree of another screen: its texts are not on this picture
    st = ScreenTree(notes_xml, img.width, img.height)
    why = st.check_against(perception.parse(img).lines)
    assert why is not None and "not on the picture" in why
    g = perception.ground_text(img, "Lunch on Friday?", tree=notes_xml)
    v = perception.ground_text(img, "Lunch on Friday?")
    assert g.found and g.point == v.point
    assert "vision grounding" in g.message and "not on the picture" in g.message
    gi = perception.ground_icon(img, "menu", tree=notes_xml)
    vi = perception.ground_icon(img, "menu")
    assert gi.point == vi.point and "vision grounding" in gi.message


@pytest.mark.parametrize("bad,why", [
    ("", "empty"),
    ('<?xml version="1.0"?><hierarchy rotation="0"></hierarchy>', "no nodes"),
    ("<hierarchy><node bounds=", "not XML"),
    (None, "no accessibility tree"),
])
def test_empty_missing_or_broken_tree_falls_back_to_vision(perception, mail, bad, why):
    img, _ = mail
    nodes, problem = parse_ui_tree(bad)
    assert nodes == [] and why in problem
    g = perception.ground_icon(img, "hamburger", tree=bad)
    v = perception.ground_icon(img, "hamburger")
    assert g.point == v.point
    # No tree at all is plain vision grounding (a device without one); a tree that cannot be
    # used says why.
    assert (why in g.message) if bad is not None else g.message == v.message


def test_tree_of_another_screen_size_is_not_used(perception, mail):
    img, xml = mail
    doubled = re.sub(r"\d+", lambda m: str(int(m.group()) * 2), xml.split("<hierarchy", 1)[1])
    doubled = "<hierarchy" + doubled
    g = perception.ground_text(img, "Lunch on Friday?", tree=doubled)
    assert g.found and "screen" in g.message and "vision grounding" in g.message


def test_text_only_on_the_picture_is_found_by_vision(perception, mail):
    """A text the tree does not have (a WebView's, a canvas's) is still found on the picture."""
    img, xml = mail
    without = re.sub(r'<node[^>]*text="Lunch on Friday\?"[^>]*/>', "", xml)
    assert without != xml
    target = node(xml, text="Lunch on Friday?")
    g = perception.ground_text(img, "Lunch on Friday?", tree=without)
    assert g.found and target.bounds.contains_point(g.point)
    assert "no node of the accessibility tree" in g.message


@pytest.mark.parametrize("words,real,copy", [("Cart", "Cart", "Messages"), ("Messages", "Messages", "Cart")])
def test_nodes_with_the_same_desc_are_ranked_by_the_picture(perception, shop, words, real, copy):
    """Two nodes named alike (the toolbar's cart, and the chat icon given the same content-desc): with
    no planner and no position, the one whose pixels fit the words is tapped; a planner is asked."""
    img, xml = shop
    other = node(xml, desc=copy)
    twin = xml.replace(f'content-desc="{copy}"', f'content-desc="{real}"')
    assert twin != xml
    g = perception.ground_icon(img, words, tree=twin)
    assert g.found and g.point == node(xml, desc=real).bounds.center, g
    assert "ranked by the picture" in g.message
    asked: list[int] = []

    def choose(marked, cands, question):
        asked.append(len(cands))
        return next(i for i, c in enumerate(cands) if other.bounds.contains_point(c.point))

    g = perception.ground_icon(img, words, tree=twin, choose=choose)
    assert asked == [2] and g.found and other.bounds.contains_point(g.point)


def _dialog_screen(scrim_node: bool):
    """The simulated phone's permission dialog over Mail's inbox, with its tree; without
    ``scrim_node``, the tree as a device gives it when it dumps every window: the page's nodes and
    the dialog's, and no node for the scrim (on Android the dim behind a dialog is its window's, not
    a view)."""
    ph = SimPhone(seed=0, disturbances=["permission"])
    ph.launch("Mail")
    img, xml = ph.screenshot(), ph.ui_tree()
    if not scrim_node:
        full = f'bounds="[0,0][{img.width},{img.height}]"'
        xml, n = re.subn(r'<node [^>]*clickable="true"[^>]*' + re.escape(full) + r'[^>]*/>', "", xml)
        assert n == 1  # the one full-screen clickable node without children: the sim's scrim
    return img, xml


@pytest.mark.parametrize("scrim_node", [True, False])
def test_the_tree_does_not_answer_the_page_behind_a_dialog(perception, scrim_node):
    img, xml = _dialog_screen(scrim_node)
    card = perception.dialog(img)
    assert card is not None
    page = node(xml, text="anna.lee")
    assert not card.contains_point(page.bounds.center)
    # "Weekly update": a row of the page that the dialog's card covers (its centre inside the card)
    for text in ("anna.lee", "Inbox", "Lunch on Friday?", "Weekly update"):
        g = perception.ground_text(img, text, tree=xml)
        assert g.status == "none", (text, g)
        # (the covered row is said to be behind the dialog, or, where the tree's scrim hides it, not on the screen)
        assert "behind a dialog" in g.message or text == "Weekly update", g.message
    # the dialog's own texts are answered from the tree, at the node's centre
    allow = node(xml, text="Allow")
    g = perception.ground_text(img, "Allow", tree=xml)
    assert g.found and g.point == allow.bounds.center and "accessibility tree" in g.message
    # the page's icons are not answered from the tree; the system's navigation bar, drawn over
    # the scrim, still is (its Back works with a dialog up)
    drawer = node(xml, desc="Open navigation drawer")
    g = perception.ground_icon(img, "Open navigation drawer", tree=xml)
    assert not any(drawer.bounds.contains_point(c.point) for c in g.candidates), g
    back = node(xml, desc="Back", package="com.android.systemui")
    g = perception.ground_icon(img, "Back", tree=xml)
    assert g.found and g.point == back.bounds.center, g


def test_a_tree_without_a_dialog_answers_the_page(perception, mail):
    img, xml = mail
    assert perception.dialog(img) is None
    g = perception.ground_text(img, "anna.lee", tree=xml)
    assert g.found and g.point == node(xml, text="anna.lee").bounds.center


def test_a_popup_menus_window_leaves_the_page_behind_it_out(perception):
    img, xml, menu = popup_screen()
    st = ScreenTree(xml, *img.size)
    assert st.window == menu
    # the picture alone sees no dialog (the page is not dimmed): without the tree the page's row is found
    assert perception.dialog(img) is None
    assert perception.ground_text(img, "Weekly report").found
    for text in ("Weekly report", "Lofi Study"):
        g = perception.ground_text(img, text, tree=xml)
        assert g.status == "none" and "behind a dialog (or a popup menu)" in g.message, (text, g)
    g = perception.ground_text(img, "Go to album", tree=xml)
    assert g.found and menu.contains_point(g.point) and "accessibility tree" in g.message
    g = perception.ground_icon(img, "search", tree=xml)
    assert not (g.found and not menu.contains_point(g.point)), g
    assert all(menu.contains_point(c.point) for c in g.candidates), g.candidates


def test_an_apps_own_window_is_no_dialogs(perception, mail):
    img, xml = mail
    assert ScreenTree(xml, *img.size).window is None
    ph = SimPhone(seed=0, disturbances=["permission"])
    ph.launch("Mail")
    assert ScreenTree(ph.ui_tree(), 1080, 2400).window is None  # the simulator draws its dialog in the app's tree


DEV_SET = COMMITTED


def test_a_real_popup_menus_dump_leaves_the_page_out(perception):
    # Vinyl's song menu, open over its search results: no scrim; its dump holds the menu's window,
    # [541,143][1080,1463]; the page's "Lofi Study" beside it is not answered with the tree.
    name = "com.poupa.vinylmusicplayer__1178001111"
    img = Image.open(DEV_SET / "img" / f"{name}.png")
    xml = (DEV_SET / "xml" / f"{name}.xml").read_text()
    assert ScreenTree(xml, *img.size).window == Box(541, 143, 1080, 1463)
    g = perception.ground_text(img, "Lofi Study", tree=xml)
    assert g.status == "none" and "popup menu" in g.message, g
    assert perception.ground_text(img, "Go to album", tree=xml).found


def test_the_page_under_the_simulated_browsers_menu_is_not_answered_from_the_picture(perception):
    # The simulated Browser's overflow menu: no dim, but its tree draws a clickable scrim over the
    # page (a tap outside the menu closes it). The tree leaves the page's nodes out, and the picture's
    # reading of the same texts, where those nodes lie, is no answer either.
    ph = SimPhone(seed=0)
    ph.launch("Browser")
    more = node(ph.ui_tree(), desc="More options")
    ph.tap(more.bounds.center.x, more.bounds.center.y)
    img, xml = ph.screenshot(), ph.ui_tree()
    assert perception.ground_text(img, "News").found  # the picture alone: the page is not dimmed
    for text in ("News", "Weather", "Discover"):
        g = perception.ground_text(img, text, tree=xml)
        assert g.status == "none" and "behind a dialog (or a popup menu)" in g.message, (text, g)
    history = node(xml, text="History")
    g = perception.ground_text(img, "History", tree=xml)
    assert g.found and history.bounds.contains_point(g.point)

"""Click Icon by other apps' words for the same control (issue 25, item 3): the description ->
glyph vocabulary groups the words of one function and ignores state and filler words, so that a
target asked as another app or the model words it is found where the app's own words find it. On
open-source apps' screens committed as fixtures (``../bench/fixtures/realscreens``) and, where the
development set is beside the clone, on other apps' screens too."""

from __future__ import annotations

import pytest

from mobile_agent.perception import Perception
from mobile_agent.perception.icons.offline import description_glyphs
from mobile_agent.perception.icons.lexicon import context_phrase, description_families, description_words

from test_perception_icon_realscreens import _dev, _hits, _target


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


def test_one_function_in_other_words_names_the_same_glyphs():
    same = [("Search by voice", "Voice search"), ("Chromecast", "Cast"), ("Modify", "Edit"), ("Apply", "Confirm"),
            ("Order by", "Sort"), ("Navigate back", "Navigate up"), ("Up", "Navigate up"), ("Up button", "Navigate up"),
            ("Reload", "Refresh")]
    for other, own in same:
        assert description_glyphs(other) == description_glyphs(own), (other, own)
    assert description_families("Up") == {"back"} and description_families("Search by voice") == {"mic"}
    # an arrow pointing up is named with what it does
    assert description_words("Scroll up") == ["scroll", "up"] and "arrow_left" not in description_glyphs("Scroll up")
    # "Show less" is the chevron that folds, not an eye
    assert "eye" not in description_glyphs("Show less") and "chevron_up" in description_glyphs("Show less")
    # "Menu" alone may be the overflow; a named menu is not
    assert "ellipsis_vertical~0.85" in description_glyphs("Menu") and description_glyphs("Open menu") == description_glyphs("Menu")
    assert not any(g.startswith("ellipsis") for g in description_glyphs("Navigation menu") + description_glyphs("Main menu"))


def test_state_words_name_no_glyph_and_no_text_beside_it():
    assert description_glyphs("Cast. Disconnected") == description_glyphs("Cast button. Connected") == description_glyphs("Cast")
    assert description_glyphs("Favorite, not selected") == description_glyphs("Favorite")
    assert context_phrase("Favorite, not selected") == "" and context_phrase("Wi-Fi, enabled") == ""


@pytest.mark.parametrize("name, own", [
    ("org.billthefarmer.currency__330216155", "More options"),
    ("de.kromke.andreas.opus1musicplayer__1340343644", "More options"),
])
def test_menu_alone_is_the_overflow_where_no_hamburger_is_drawn(perception, name, own):
    img, box = _target(name, own)
    assert _hits(perception, img, box, "Menu") == [True, True]


@pytest.mark.parametrize("name, own", [
    ("com.poupa.vinylmusicplayer__741334294", "Navigate up"),
    ("me.hackerchick.catima__236981483", "Navigate up"),
])
def test_up_alone_is_the_toolbars_up_button(perception, name, own):
    img, box = _target(name, own)
    assert _hits(perception, img, box, "Up") == [True, True]


def test_a_section_chevron_asked_as_show_less(perception):
    img, box = _dev("me.hackerchick.catima__1021118874", "Hide details")
    assert _hits(perception, img, box, "Show less")[1]
    img, box = _dev("org.totschnig.myexpenses__1482807785", "Collapse")
    assert _hits(perception, img, box, "Show less")[1]


@pytest.mark.parametrize("name, own, other", [
    ("Tubi_Movies__49495642", "Cast. Disconnected", "Chromecast"),
    ("Firefox_Fast_Private_Browser_v101.1.1__1018090987", "Voice search", "Search by voice"),
])
def test_other_apps_words_on_the_development_set(perception, name, own, other):
    img, box = _dev(name, own)
    assert _hits(perception, img, box, other) == [True, True]


def test_a_control_drawn_as_its_words_asked_with_filler_or_another_word_of_its_function(perception):
    # a dialog's "Cancel" drawn as its word: asked as "Close", "Dismiss" or "Cancel button"; a link
    # "Privacy Policy" asked as "Privacy Policy link"
    from test_perception_icon_realscreens import _drawn_screen

    from mobile_agent.perception.icons.grounding import control_wordings

    img, boxes = _drawn_screen()
    for asked in ("Close", "Dismiss", "Cancel button"):
        assert _hits(perception, img, boxes["Cancel"], asked) == [True, True], asked
    assert _hits(perception, img, boxes["Privacy Policy"], "Privacy Policy link") == [True, True]
    # only one word of that function, alone: "Close search" is no "Cancel"
    assert control_wordings("Close search") == ["Close search"]
    assert control_wordings("Import") == ["Import"]


@pytest.mark.parametrize("name, own", [
    ("deep.ryd.rydplayer__762092943", "Cancel"),  # a toolkit's dialog buttons
    ("HERE_WeGo_Maps_Navigation_v4.4.200__156770900", "Cancel"),  # a search bar's text button
])
def test_a_cancel_drawn_as_its_word_asked_as_close_on_other_apps(perception, name, own):
    img, box = _dev(name, own)
    for asked in ("Close", "Dismiss", "Cancel button"):
        assert _hits(perception, img, box, asked) == [True, True], asked


def test_the_frameworks_widgets_in_other_words_have_their_place():
    from mobile_agent.perception.icons.layout import framework_end, framework_name, framework_place

    assert framework_name("Up") == framework_name("Navigate back") == framework_name("Navigate up") == "navigate up"
    assert framework_name("Overflow menu") == "more options" and framework_end("Overflow menu")
    assert framework_name("More") is None  # a bottom navigation's "More" tab too
    assert framework_place("Close search") == "start" and framework_place("Clear search") == "end"
    # "Back" alone is the system's Back as much as the toolbar's: left to its glyph
    assert framework_name("Back") is None and framework_name("Go back") is None
    assert framework_name("Back to top") is None and framework_name("Menu") is None


@pytest.mark.parametrize("asked", ["Up", "Navigate back"])
def test_an_up_button_drawn_as_a_cross_asked_in_other_words(perception, asked):
    # My Expenses draws its form's up button as a cross: only the framework's place finds it
    img, box = _target("org.totschnig.myexpenses__1243134374", "Navigate up")
    assert _hits(perception, img, box, asked) == [True, True]


@pytest.mark.parametrize("name", ["com.poupa.vinylmusicplayer__26861387", "Podcast_Player_v7.0.0-220308033.rd0a0ae8__1405221607"])
def test_a_search_bars_collapse_asked_as_close_search(perception, name):
    img, box = _dev(name, "Collapse")
    assert _hits(perception, img, box, "Close search") == [True, True]

"""Text and icon grounding on rendered screens (real OCR: a few parses, shared per module)."""

from __future__ import annotations

import pytest
from PIL import Image

from mobile_agent.perception import Candidate, Grounding, Perception
from perception_synth import duplicates_screen, settings_screen, toolbar_screen


@pytest.fixture(scope="module")
def perception() -> Perception:
    return Perception()


@pytest.fixture(scope="module")
def settings():
    return settings_screen()


@pytest.fixture(scope="module")
def dark_settings():
    return settings_screen(dark=True)


@pytest.mark.parametrize("target", ["Dark theme", "Network & internet", "Battery", "Display"])
def test_text_is_grounded_inside_its_box(perception, settings, target):
    g = perception.ground_text(settings.image, target)
    assert isinstance(g, Grounding) and g.status == "found"
    assert isinstance(g.chosen, Candidate)
    assert settings.texts[target].expand(6).contains_point(g.point)


def test_text_variants_fuzzy_and_full_width(perception, settings):
    for variant in ("dark THEME", "Ｄａｒｋ ｔｈｅｍｅ", "Dark  theme.", "Drak theme"):
        g = perception.ground_text(settings.image, variant)
        assert g.status == "found", variant
        assert settings.texts["Dark theme"].expand(6).contains_point(g.point), variant


def test_part_of_a_line_is_clicked_on_its_own(perception, settings):
    g = perception.ground_text(settings.image, "mobile")
    line = settings.texts["Wi-Fi, mobile, data usage"]
    assert g.status == "found"
    assert line.expand(6).contains_point(g.point)
    # "mobile" is the second word: its point is right of the line's first third.
    assert g.point.x > line.x1 + line.width * 0.2
    assert g.point.x < line.x1 + line.width * 0.65


def test_missing_text_names_the_closest_texts(perception, settings):
    g = perception.ground_text(settings.image, "Batery saver mode")
    assert g.status == "none" and g.chosen is None and not g.candidates
    assert "Battery" in g.message


def test_dark_theme_screen(perception, dark_settings):
    for target in ("Sound & vibration", "Security & privacy"):
        g = perception.ground_text(dark_settings.image, target)
        assert g.status == "found"
        assert dark_settings.texts[target].expand(6).contains_point(g.point)


def test_duplicates_go_through_choose_or_position(perception):
    s = duplicates_screen()
    asked: list[tuple[Image.Image, list[Candidate], str]] = []

    def choose(marked, cands, question):
        asked.append((marked, list(cands), question))
        return max(range(len(cands)), key=lambda i: cands[i].point.y)

    g = perception.ground_text(s.image, "Reply", choose=choose)
    assert len(asked) == 1
    marked, cands, question = asked[0]
    assert marked.size == s.image.size and marked.tobytes() != s.image.tobytes()
    assert len(cands) == 2 and "Reply" in question
    assert g.status == "found" and s.texts["Reply@bottom"].expand(6).contains_point(g.point)
    assert g.marked is not None

    nobody = perception.ground_text(s.image, "Reply")
    assert nobody.status == "ambiguous" and nobody.chosen is None and len(nobody.candidates) == 2
    assert nobody.marked is not None

    top = perception.ground_text(s.image, "Reply", position="top")
    assert top.status == "found" and s.texts["Reply@top"].expand(6).contains_point(top.point)

    none_chosen = perception.ground_text(s.image, "Reply", choose=lambda m, c, q: None)
    assert none_chosen.status == "none" and none_chosen.chosen is None

    many = perception.ground_text(s.image, "Like")
    assert many.status == "too_many" and len(many.candidates) == 10 and "specific" in many.message


@pytest.mark.parametrize("dark", [False, True])
def test_icons_are_grounded_by_description(perception, dark):
    s = toolbar_screen(dark=dark)
    for description, key in [("search", "search"), ("three dots menu", "more"), ("back arrow", "back"),
                             ("heart", "heart"), ("shopping cart", "cart"), ("settings gear", "settings"),
                             ("blue plus button", "plus"), ("home", "home")]:
        g = perception.ground_icon(s.image, description)
        assert g.status == "found", description
        assert s.icons[key].expand(8).contains_point(g.point), (description, g.point, s.icons[key])


def test_icon_position_filter_and_marks(perception):
    s = toolbar_screen()
    g = perception.ground_icon(s.image, "heart", position="top")
    assert g.status == "found"
    assert g.point.y < s.image.height * 0.36  # only top icons were considered

    marks = Perception(matcher="marks")
    picked: list[int] = []

    def choose(marked, cands, question):
        # The planner's role, played from ground truth: the candidate on the cart icon.
        idx = next(i for i, c in enumerate(cands) if s.icons["cart"].contains_point(c.point))
        picked.append(idx)
        return idx

    g2 = marks.ground_icon(s.image, "cart", position="bottom", choose=choose)
    assert picked and g2.status == "found" and s.icons["cart"].contains_point(g2.point)
    assert all(c.point.y > s.image.height * 0.6 for c in g2.candidates)


def test_parse_reports_lines_words_and_timings(perception, settings):
    res = perception.parse(settings.image, icons=True)
    texts = res.texts
    assert "Dark theme" in texts and "Settings" in texts
    assert res.icons is not None and len(res.icons) >= 8
    assert {"ocr", "icons", "total"} <= set(res.timings)
    line = next(l for l in res.lines if l.text == "Network & internet")
    assert [w.text for w in line.words] == ["Network", "&", "internet"]
    d = res.to_dict()
    assert d["lines"] and d["icons"] and d["width"] == 1080

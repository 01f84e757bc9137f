"""Browser on the simulated phone: search, result cards for known queries, pages, Back history."""

from __future__ import annotations

from urllib.parse import quote_plus

import pytest

from mobile_agent.device.sim.apps.browser import (SEARCH_URL, lakers_result, looks_like_url, page_for, query_of,
                                                  results_for)
from mobile_agent.device.sim.phone import SimPhone
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 2, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    phone.launch("Browser")
    return phone, TreeDriver(phone)


def _search(d: TreeDriver, query: str) -> None:
    d.tap(rid="url_bar")
    d.type(query + "\n")


@pytest.mark.parametrize("query", ["Lakers game result today", "lakers score", "Lakers game"])
def test_lakers_card_shows_todays_final(query: str) -> None:
    phone, d = _open()
    _search(d, query)
    b = phone.state.browser
    assert b.searches == [query] and b.current_url == SEARCH_URL + quote_plus(query) and b.history == [b.current_url]
    g = lakers_result(phone.seed)
    assert g["date"] == phone.state.today.isoformat()
    assert d.find(rid="final_score").text == f"Final: {g['score_text']}"
    assert d.find(rid="game_status").text == "Final"
    scores = sorted(int(n.text) for n in d.find_all(rid="score"))
    assert scores == sorted([g["lakers_score"], g["opponent_score"]])
    # the recap page says the same
    d.tap(rid="sports_card")
    assert "lakers" in phone.state.browser.current_url
    assert any(g["score_text"] in n.text for n in d.find_all(rid="paragraph"))
    phone.back()
    assert phone.state.browser.current_url == SEARCH_URL + quote_plus(query)


def test_lakers_result_varies_with_seed_and_is_consistent() -> None:
    results = [lakers_result(s) for s in range(12)]
    assert len({(r["opponent"], r["lakers_score"], r["opponent_score"]) for r in results}) > 6
    for r in results:
        assert r["lakers_score"] != r["opponent_score"]
        assert r["lakers_won"] == (r["lakers_score"] > r["opponent_score"])
        assert sum(r["quarters"]["Los Angeles Lakers"]) == r["lakers_score"]
        assert sum(r["quarters"][r["opponent"]]) == r["opponent_score"]
    assert lakers_result(4) == lakers_result(4)


def test_taylor_swift_knowledge_card_and_results() -> None:
    phone, d = _open()
    _search(d, "Taylor Swift")
    assert d.find(rid="entity_name").text == "Taylor Swift"
    assert d.find(rid="entity_kind").text == "American singer-songwriter"
    assert any("December 13, 1989" in n.text for n in d.find_all(rid="fact"))
    d.scroll_to(text="Taylor Swift - Wiki", rid="result_title")
    d.tap(text="Taylor Swift - Wiki", rid="result_title")
    assert phone.state.browser.current_url == "https://wiki.example.org/wiki/Taylor_Swift"
    assert d.find(rid="page_title").text == "Taylor Swift"


def test_generic_query_result_page_and_back_chain() -> None:
    phone, d = _open()
    _search(d, "best pizza dough")
    titles = [n.text for n in d.find_all(rid="result_title")]
    assert len(titles) >= 4 and titles[0] == "Best Pizza Dough - Wiki"
    d.tap(rid="result", index=1)
    first_page = phone.state.browser.current_url
    assert query_of(first_page) is None and d.find(rid="page_title") is not None
    _search(d, "example.com/about")
    assert phone.state.browser.current_url == "https://example.com/about"
    assert phone.state.browser.searches == ["best pizza dough"]
    phone.back()
    assert phone.state.browser.current_url == first_page
    phone.back()
    assert query_of(phone.state.browser.current_url) == "best pizza dough"
    phone.back()
    assert d.find(rid="search_box") is not None and phone.state.browser.current_url == ""
    phone.back()
    assert phone.state.foreground is None


def test_start_page_shortcut_menu_and_history() -> None:
    phone, d = _open()
    d.tap(desc="Sports")
    assert phone.state.browser.current_url == "https://sports.example.com/"
    d.tap(desc="More options")
    d.tap(text="History")
    d.tap(rid="history_item")
    assert phone.state.browser.history[-1] == "https://sports.example.com/"
    d.tap(desc="More options")
    d.tap(text="New tab")
    assert d.find(rid="search_box") is not None
    d.tap(rid="search_box")
    assert d.find(rid="suggestion") is not None  # history suggestions while the bar is empty
    phone.back()  # hides the keyboard and leaves editing
    assert d.find(desc="Home") is not None


def test_helpers() -> None:
    assert looks_like_url("example.com") and looks_like_url("https://a.b/c?d=1")
    assert not looks_like_url("lakers game") and not looks_like_url("hello")
    assert query_of(SEARCH_URL + "a+b") == "a b"
    assert results_for("anything", 0) == results_for("anything", 0)
    assert page_for("https://x.example.com/some-topic", 0).title == "Some Topic"


def test_dark_theme() -> None:
    phone, d = _open(dark=True)
    img = phone.screenshot()
    assert sum(img.getpixel((phone.dp(8), img.height // 2))) < 120

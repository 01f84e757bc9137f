"""Video app flows driven by taps on ui-tree nodes, with the typed state checked after."""

from __future__ import annotations

import numpy as np

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim.apps import video
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 0, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    drv = TreeDriver(phone)
    drv.tap(text="Video")
    return phone, drv


def _search(drv: TreeDriver, query: str) -> None:
    drv.tap(desc="Search")
    drv.type(query + "\n")


def test_search_stephen_curry_lists_curry_videos_first() -> None:
    phone, drv = _open()
    _search(drv, "Stephen Curry")
    assert phone.state.video.searches == ["Stephen Curry"]
    titles = [n.text.replace("\n", " ") for n in drv.find_all(rid="video_title")]
    assert len(titles) >= 4
    ranked = video.search_videos("Stephen Curry")
    assert all(video.about_curry(v.id) for v in ranked[:len(video.CURRY_VIDEO_IDS)])
    assert not video.about_curry("v-cook-01") and "v-cook-01" in [v.id for v in ranked]
    assert titles[0] == ranked[0].title
    assert drv.find(rid="video_channel") is not None and drv.find(contains="views") is not None


def test_post_comment_like_and_subscribe_on_a_curry_video() -> None:
    phone, drv = _open()
    _search(drv, "Stephen Curry")
    drv.tap(rid="video_result", index=1)
    st = phone.state.video
    vid = st.watched[-1]
    assert video.about_curry(vid)
    drv.tap(text="Subscribe")
    assert st.subscribed == [video.video(vid).channel]
    assert drv.find(text="Subscribed") is not None
    drv.tap(desc="Like")
    assert st.liked == [vid] and drv.find(desc="Like").selected
    drv.tap(text="Add a comment…")
    assert phone.keyboard_shown
    drv.type("Curry is the best shooter ever!")
    drv.tap(text="Comment")
    assert [(c.video_id, c.text) for c in st.comments] == [(vid, "Curry is the best shooter ever!")]
    assert drv.find_all(rid="comment_text")[0].text == "Curry is the best shooter ever!"
    # unsubscribing asks first
    for _ in range(4):  # scroll back up to the channel row
        if drv.find(text="Subscribed") is not None:
            break
        drv.page_up()
    drv.tap(text="Subscribed")
    drv.tap(text="Unsubscribe")
    assert st.subscribed == []


def test_back_closes_composer_then_leaves_video() -> None:
    phone, drv = _open()
    _search(drv, "curry")
    drv.tap(rid="video_result")
    drv.tap(text="Add a comment…")
    drv.type("draft")
    phone.back()  # hides the keyboard
    phone.back()  # closes the composer
    assert drv.find(rid="comment_input") is None and drv.find(rid="video_title") is not None
    assert phone.state.video.comments == []
    phone.back()  # to the results
    assert drv.find(rid="video_result") is not None
    phone.back()
    phone.back()
    assert phone.state.foreground is None


def test_no_results_and_subscriptions_tab() -> None:
    phone, drv = _open()
    _search(drv, "zzqqxx")
    assert drv.find(text="No results found") is not None
    phone.back()
    drv.tap(desc="Subscriptions")
    assert drv.find(text="Don't miss new videos") is not None


def test_dark_theme() -> None:
    phone, drv = _open(dark=True)
    drv.tap(desc="Search")
    img = np.asarray(phone.screenshot().convert("L"))
    h = img.shape[0]
    assert np.median(img[h // 5: h // 2]) < 60

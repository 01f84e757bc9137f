"""Clips app flows driven by taps and swipes on ui-tree nodes, with the typed state checked after."""

from __future__ import annotations

import numpy as np

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim.apps import clips
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 0, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    drv = TreeDriver(phone)
    drv.tap(text="Clips")
    return phone, drv


def _swipe_up(phone: SimPhone) -> None:
    w, h = phone.size()
    phone.swipe(w // 2, h * 7 // 10, w // 2, h * 3 // 10, 250)


def _caption(drv: TreeDriver) -> str:
    return drv.find(rid="caption").text


def test_feed_order_constraints_hold_for_many_seeds() -> None:
    for seed in range(40):
        order = clips.feed_order(seed)
        assert sorted(order) == sorted(c.id for c in clips.CLIPS)
        assert not clips.is_cat(order[0])
        assert sum(clips.is_cat(cid) for cid in order[:12]) >= 5
    assert clips.feed_order(1) != clips.feed_order(2)


def test_swipe_to_a_cat_clip_and_like_it() -> None:
    phone, drv = _open(seed=5)
    st = phone.state.clips
    assert "#cat" not in _caption(drv).split()
    swipes = 0
    while "#cat" not in _caption(drv).split():
        _swipe_up(phone)
        swipes += 1
        assert swipes < 12
    assert st.current == swipes and len(st.seen) == swipes + 1
    cid = clips.feed_order(5)[swipes]
    assert clips.is_cat(cid)
    assert not drv.find(desc="Like").checked
    drv.tap(desc="Like")
    assert st.liked == [cid]
    assert drv.find(desc="Like").checked  # drawn filled red, reported checked
    # swiping down goes back to the previous clip
    w, h = phone.size()
    phone.swipe(w // 2, h * 3 // 10, w // 2, h * 7 // 10, 250)
    assert st.current == swipes - 1


def test_like_three_cat_clips() -> None:
    phone, drv = _open(seed=9)
    while len(phone.state.clips.liked) < 3:
        if "#cat" in _caption(drv).split():
            drv.tap(desc="Like")
        _swipe_up(phone)
        assert phone.state.clips.current < 15
    assert all(clips.is_cat(c) for c in phone.state.clips.liked)
    assert len(set(phone.state.clips.liked)) == 3


def test_comment_on_a_cat_clip_and_back_closes_sheet_first() -> None:
    phone, drv = _open(seed=0)
    while "#cat" not in _caption(drv).split():
        _swipe_up(phone)
    cid = phone.apps["Clips"].current_clip().id
    drv.tap(desc="Comments")
    assert drv.find(rid="comment_sheet") is not None
    drv.tap(text="Add comment…")
    drv.type("Ohhhh, so cute cat!")
    drv.tap(desc="Send")
    st = phone.state.clips
    assert [(c.clip_id, c.text) for c in st.comments] == [(cid, "Ohhhh, so cute cat!")]
    assert drv.find_all(rid="comment_text")[0].text == "Ohhhh, so cute cat!"
    # Enter posts too
    drv.tap(text="Add comment…")
    drv.type("so fluffy\n")
    assert st.comments[-1].text == "so fluffy"
    # a swipe on the sheet does not change the clip; Back closes the sheet, then leaves the app
    current = st.current
    _swipe_up(phone)
    assert st.current == current
    phone.back()
    assert drv.find(rid="comment_sheet") is None and phone.state.foreground == "Clips"
    phone.back()
    assert phone.state.foreground is None


def test_dark_theme_sheet_is_dark() -> None:
    phone, drv = _open(dark=True)
    drv.tap(desc="Comments")
    sheet = drv.find(rid="comment_sheet").bounds
    img = np.asarray(phone.screenshot().convert("L"))
    region = img[sheet.y1 + sheet.height // 3: sheet.y2 - sheet.height // 4, sheet.x1: sheet.x2]
    assert np.median(region) < 60

"""Calendar on the simulated phone: today's date readable, month navigation, adding an event."""

from __future__ import annotations

import datetime as dt

from mobile_agent.device.sim.apps.calendar import long_date, month_days, parse_time
from mobile_agent.device.sim.phone import SimPhone
from mobile_agent.device.uitree import TreeDriver


def _open(seed: int = 5, dark: bool = False) -> tuple[SimPhone, TreeDriver]:
    phone = SimPhone(seed=seed, dark=dark)
    phone.launch("Calendar")
    return phone, TreeDriver(phone)


def test_today_is_readable_and_marked() -> None:
    for seed in (0, 7):
        phone, d = _open(seed)
        today = phone.state.today
        header = d.find(rid="today_date")
        assert header is not None and header.text == f"Today · {long_date(today)}"
        assert d.find(rid="month_title").text == today.strftime("%B %Y")
        marked = d.find(desc=f"{long_date(today)}, today")
        assert marked is not None and marked.text == str(today.day) and marked.selected


def test_month_navigation_and_back_to_today() -> None:
    phone, d = _open()
    today = phone.state.today
    d.tap(desc="Next month")
    nxt = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    assert d.find(rid="month_title").text == nxt.strftime("%B %Y")
    d.tap(desc="Previous month")
    d.tap(desc="Previous month")
    prev = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
    assert d.find(rid="month_title").text == prev.strftime("%B %Y")
    d.tap(desc="Jump to today")
    assert d.find(rid="month_title").text == today.strftime("%B %Y")


def test_add_event_on_selected_day() -> None:
    phone, d = _open()
    today = phone.state.today
    target = today + dt.timedelta(days=2) if today.day < 25 else today - dt.timedelta(days=2)
    d.tap(contains=long_date(target), rid="day")
    assert d.find(rid="selected_date").text == long_date(target)
    d.tap(desc="Create event")
    d.type("Piano lesson\n4:30 pm\n")  # title has focus; Enter moves to the time; Enter there saves
    ev = phone.state.calendar.events[-1]
    assert (ev.title, ev.date, ev.time) == ("Piano lesson", target.isoformat(), "16:30")
    assert d.find(text="Piano lesson") is not None  # in the agenda of that day


def test_event_date_arrows_bad_time_and_close() -> None:
    phone, d = _open()
    n = len(phone.state.calendar.events)
    d.tap(desc="Create event")
    d.type("Trip")
    d.tap(desc="Next day")
    d.tap(rid="time")
    d.type("25:99")
    d.tap(text="Save")
    assert len(phone.state.calendar.events) == n  # refused
    assert d.find(text="Enter a time like 15:00") is not None
    phone.back()  # keyboard
    d.tap(desc="Close")
    assert len(phone.state.calendar.events) == n
    d.tap(desc="Create event")
    d.type("Trip")
    d.tap(desc="Next day")
    d.tap(text="Save")
    ev = phone.state.calendar.events[-1]
    assert ev.date == (phone.state.today + dt.timedelta(days=1)).isoformat() and ev.time == ""
    phone.back()
    assert phone.state.foreground is None


def test_helpers() -> None:
    assert parse_time("3pm") == "15:00" and parse_time("12 am") == "00:00" and parse_time("9:05") == "09:05"
    assert parse_time("") == "" and parse_time("noon") is None and parse_time("13pm") is None
    days = month_days(2024, 9)
    assert days[0] == dt.date(2024, 9, 1) and len(days) == 42 and days[0].weekday() == 6
    assert long_date(dt.date(2024, 9, 14)) == "Saturday, September 14, 2024"


def test_dark_theme() -> None:
    phone, d = _open(dark=True)
    img = phone.screenshot()
    assert sum(img.getpixel((img.width // 2, img.height * 3 // 4))) < 120

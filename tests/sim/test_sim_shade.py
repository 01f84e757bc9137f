"""The "shade" disturbance: the notification shade opens at the end of the run's second gesture and
sits over the app until Back, Home or a tap below it closes it; taps on it do not reach the app."""

from __future__ import annotations

from mobile_agent.device.sim import SimPhone
from mobile_agent.device.sim.phone import SHADE_GESTURE
from mobile_agent.device.uitree import TreeDriver


def _open_notes(phone):
    d = TreeDriver(phone)
    d.tap(text="Notes")
    return d


def test_shade_opens_once_and_back_closes_it():
    assert SHADE_GESTURE == 2
    phone = SimPhone(disturbances=("shade",))
    d = _open_notes(phone)
    assert not phone.shade_open
    d.tap(text="New note")
    assert phone.shade_open and d.find(rid="notification_shade") is not None
    assert d.find(text="System update available") is not None
    phone.type_text("lost")  # the keyboard is behind the shade
    phone.back()
    assert not phone.shade_open and d.find(rid="notification_shade") is None
    assert "lost" not in "".join(phone.foreground.screen.fields.values())
    phone.type_text("kept")
    assert "kept" in "".join(phone.foreground.screen.fields.values())


def test_taps_on_the_shade_stay_there_and_below_it_close_it():
    phone = SimPhone(disturbances=("shade",))
    d = _open_notes(phone)
    d.tap(text="Book ideas")  # gesture 2: opens the note, then the shade
    assert phone.shade_open
    screen = type(phone.foreground.screen).__name__
    phone.tap(540, 300)  # on the panel
    assert phone.shade_open and type(phone.foreground.screen).__name__ == screen
    phone.tap(540, 1800)  # below it
    assert not phone.shade_open and type(phone.foreground.screen).__name__ == screen


def test_home_closes_the_shade_and_no_shade_without_the_disturbance():
    phone = SimPhone(disturbances=("shade",))
    d = _open_notes(phone)
    d.tap(text="Book ideas")
    phone.home()
    assert not phone.shade_open and phone.foreground is None
    plain = SimPhone()
    d = _open_notes(plain)
    d.tap(text="Book ideas")
    assert not plain.shade_open and d.find(rid="notification_shade") is None

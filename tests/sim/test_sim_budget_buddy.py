"""Budget Buddy, the Store app with settings (for the long tier's install-then-change-a-setting
task), and waiting on the phone: a Wait on a screen looked at lets a download finish; the wait of
the agent's settling after a gesture does not."""

from __future__ import annotations

from mobile_agent.device.sim.apps.store import BUDGET_DEFAULTS, CURRENCIES, budget_settings
from mobile_agent.device.sim.phone import SimPhone
from mobile_agent.device.uitree import TreeDriver


def _install(phone: SimPhone, d: TreeDriver) -> None:
    phone.launch("Store")
    d.tap(text="Search for apps & games")
    d.type("Budget Buddy\n")
    assert d.find_all(rid="app_name")[0].text == "Budget Buddy"
    d.tap(text="Install")


def test_a_wait_after_a_look_finishes_the_download_a_settling_wait_does_not():
    phone = SimPhone(seed=3)
    d = TreeDriver(phone)
    _install(phone, d)
    assert "Budget Buddy" in phone.state.store.installing
    phone.wait_still()  # the loop's settling right after the tap: nobody has looked yet
    assert "Budget Buddy" not in phone.state.store.installed and d.find(text="Open") is None
    phone.screenshot()
    assert phone.wait_still() is True
    assert "Budget Buddy" in phone.state.store.installed and "Budget Buddy" not in phone.state.store.installing
    assert phone.waits == 1 and d.find(text="Open") is not None
    phone.wait_still()  # no look since: no time passes
    assert phone.waits == 1


def test_settings_change_and_are_read_back():
    phone = SimPhone(seed=3)
    d = TreeDriver(phone)
    _install(phone, d)
    phone.screenshot()
    phone.wait_still()
    d.tap(text="Open")
    assert phone.state.foreground == "Budget Buddy"
    d.tap(text="Get started")
    assert d.find(rid="spent").text.endswith("USD")
    d.tap(desc="Settings")
    assert budget_settings(phone) == BUDGET_DEFAULTS
    d.tap(text="Currency")
    assert [n.text for n in d.find_all() if n.text in dict(CURRENCIES)] == [c for c, _ in CURRENCIES]
    d.tap(text="Japanese Yen")
    assert d.find(text="Japanese Yen") is not None and d.find(text="Currency") is not None  # back on the settings
    d.tap(text="Weekly summary")
    assert budget_settings(phone) == {**BUDGET_DEFAULTS, "currency": "Japanese Yen", "weekly_summary": False}
    phone.back()
    assert d.find(rid="spent").text.endswith("JPY")
    # another phone keeps its own settings
    assert budget_settings(SimPhone(seed=3)) == BUDGET_DEFAULTS

"""Weather on the simulated phone: current conditions and the 5-day forecast, all on one screen."""

from __future__ import annotations

from mobile_agent.device.sim.apps.weather import condition_icon, day_label, hourly, short_date
from mobile_agent.device.sim.phone import SimPhone
from mobile_agent.device.uitree import TreeDriver


def test_five_days_readable_on_first_screen() -> None:
    for seed in (0, 11):
        phone = SimPhone(seed=seed)
        phone.launch("Weather")
        d = TreeDriver(phone)
        w = phone.state.weather
        assert d.find(rid="city").text == w.city
        assert d.find(rid="current_temp").text == f"{w.current_temp}°C"
        assert d.find(rid="current_condition").text == w.condition
        rows = d.find_all(rid="forecast_day")
        assert len(rows) == 5 == len(w.forecast)
        h = phone.size()[1]
        for row, day in zip(rows, w.forecast):
            assert row.bounds.y2 < h - phone.nav_h  # fully on screen, no scrolling needed
            assert f"high {day.high}°C, low {day.low}°C" in row.desc and day.condition in row.desc
        assert [n.text for n in d.find_all(rid="high")] == [f"{x.high}°" for x in w.forecast]
        assert [n.text for n in d.find_all(rid="low")] == [f"{x.low}°" for x in w.forecast]
        labels = [n.text for n in d.find_all(rid="weekday")]
        assert labels[0] == "Today" and labels[1:] == [x.weekday for x in w.forecast[1:]]
        assert [n.text for n in d.find_all(rid="date")] == [short_date(x.date) for x in w.forecast]


def test_scroll_back_and_dark() -> None:
    phone = SimPhone(seed=2, dark=True)
    phone.launch("Weather")
    d = TreeDriver(phone)
    img = phone.screenshot()
    assert sum(img.getpixel((img.width // 2, img.height - phone.nav_h - 4))) < 150
    d.page_down()
    assert d.find(text="Humidity") is not None
    phone.back()
    assert phone.state.foreground is None


def test_helpers_are_deterministic() -> None:
    phone = SimPhone(seed=9)
    w = phone.state.weather
    assert hourly(w, phone.now, 9) == hourly(w, phone.now, 9)
    assert hourly(w, phone.now, 9)[0] == ("Now", w.current_temp, w.condition)
    assert condition_icon("Rain") == "weather-rainy" and condition_icon("Hail") == "weather-cloudy"
    assert day_label(w.forecast[0], phone.state.today) == "Today"

"""Weather: the city, current temperature and condition, an hourly strip, a 5-day forecast
(weekday, date, condition icon and words, high/low in °C) readable on one screen, and details."""

from __future__ import annotations

import datetime as dt
import random

from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import mix
from mobile_agent.device.sim.state import DayForecast, WeatherState
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

CONDITION_ICONS = {
    "Sunny": "weather-sunny", "Cloudy": "weather-cloudy", "Rain": "weather-rainy",
    "Partly cloudy": "weather-partly-cloudy", "Showers": "weather-pouring",
    "Thunderstorms": "weather-lightning-rainy", "Windy": "weather-windy",
}
CONDITION_COLORS = {
    "Sunny": (246, 178, 32), "Partly cloudy": (240, 160, 60), "Cloudy": (130, 140, 155),
    "Rain": (66, 133, 244), "Showers": (52, 110, 210), "Thunderstorms": (120, 90, 200), "Windy": (60, 170, 160),
}


def condition_icon(condition: str) -> str:
    """The MDI glyph for a weather condition (a cloud for unknown ones)."""
    return CONDITION_ICONS.get(condition, "weather-cloudy")


def day_label(day: DayForecast, today: dt.date) -> str:
    """``Today``, or the forecast's weekday (``Mon``)."""
    return "Today" if day.date == today.isoformat() else day.weekday


def short_date(iso: str) -> str:
    """``Sep 14``."""
    d = dt.date.fromisoformat(iso)
    return d.strftime("%b ") + str(d.day)


def hourly(weather: WeatherState, now: dt.datetime, seed: int, hours: int = 6) -> list[tuple[str, int, str]]:
    """The next ``hours`` hours as (``"Now"``/``"15:00"``, °C, condition), deterministic per seed."""
    rng = random.Random(seed * 7919 + now.hour)
    out = [("Now", weather.current_temp, weather.condition)]
    today = weather.forecast[0] if weather.forecast else None
    for i in range(1, hours):
        h = (now.hour + i) % 24
        temp = weather.current_temp + rng.randrange(-1, 2) - (1 if h >= 18 or h < 6 else 0) * i // 2
        if today is not None:
            temp = max(today.low, min(today.high, temp))
        out.append((f"{h:02d}:00", temp, weather.condition if rng.random() < 0.7 else "Cloudy"))
    return out


def details(weather: WeatherState, seed: int) -> list[tuple[str, str, str]]:
    """(icon, label, value) of the details card: humidity, wind, UV index, feels like."""
    rng = random.Random(seed * 104729)
    wet = weather.condition in ("Rain", "Showers", "Thunderstorms")
    return [
        ("water-percent", "Humidity", f"{rng.randrange(70, 95) if wet else rng.randrange(35, 70)}%"),
        ("weather-windy-variant", "Wind", f"{rng.randrange(5, 30)} km/h"),
        ("sun-wireless-outline", "UV index", str(rng.randrange(1, 9) if weather.condition == "Sunny" else 2)),
        ("thermometer", "Feels like", f"{weather.current_temp + rng.randrange(-2, 2)}°C"),
    ]


class TodayScreen(Screen):
    def build(self, ui: UI) -> None:
        app: WeatherApp = self.app  # type: ignore[assignment]
        t = ui.theme
        w = app.phone.state.weather
        now = app.phone.now
        ui.top_bar("", actions=(("dots-vertical", "More options", lambda: None),
                                ("refresh", "Refresh", lambda: app.toast("Updated just now"))))
        cy = ui.area.y1 + ui.dp(32)
        ui.icon(ui.left + ui.dp(12), cy, "map-marker", 22, t.on_bg)
        ui.text(ui.left + ui.dp(32), cy - ui.dp(13), w.city, 22, t.on_bg, 500, rid="city")
        with ui.scroll(Box(ui.area.x1, ui.area.y1 + ui.dp(64), ui.area.x2, ui.area.y2), "main") as y:
            today = w.forecast[0] if w.forecast else None
            # current conditions
            ui.text(ui.left, y + ui.dp(4), f"{w.current_temp}°C", 64, t.on_bg, 300, rid="current_temp",
                    desc=f"Current temperature {w.current_temp} degrees Celsius")
            col = CONDITION_COLORS.get(w.condition, ui.accent)
            ui.icon(ui.right - ui.dp(44), y + ui.dp(48), condition_icon(w.condition), 72, col,
                    desc=w.condition)
            ui.text(ui.left, y + ui.dp(94), w.condition, 20, t.on_bg, 500, rid="current_condition")
            if today is not None:
                ui.text(ui.left, y + ui.dp(124), f"High {today.high}°C · Low {today.low}°C", 15, t.on_bg2)
            ui.text(ui.right, y + ui.dp(124), now.strftime("%a %H:%M"), 14, t.on_bg2, align="right")
            y += ui.dp(160)
            # hourly strip
            strip = Box(ui.left, y, ui.right, y + ui.dp(100))
            tint = mix(ui.accent, t.bg, 0.88)
            ui.add(Node(strip, cls="android.widget.HorizontalScrollView", rid="hourly",
                        paint=lambda c, b: c.rect(b, fill=tint, radius=ui.dp(16))))
            hours = hourly(w, now, app.phone.seed)
            cw = strip.width // len(hours)
            for i, (label, temp, cond) in enumerate(hours):
                cx = strip.x1 + cw * i + cw // 2
                ui.text(cx, strip.y1 + ui.dp(10), label, 13, t.on_bg2, align="center")
                ui.icon(cx, strip.y1 + ui.dp(50), condition_icon(cond), 26, CONDITION_COLORS.get(cond, ui.accent),
                        desc=cond)
                ui.text(cx, strip.y1 + ui.dp(70), f"{temp}°", 15, t.on_bg, 500, align="center")
            y = strip.y2 + ui.dp(16)
            # 5-day forecast
            card = Box(ui.left, y, ui.right, y + ui.dp(48) + ui.dp(60) * len(w.forecast))
            with ui.card(card, rid="forecast", fill=t.surface, radius=16):
                ui.icon(card.x1 + ui.dp(24), card.y1 + ui.dp(24), "calendar-month", 18, t.on_bg2)
                ui.text(card.x1 + ui.dp(40), card.y1 + ui.dp(14), f"{len(w.forecast)}-day forecast (°C)", 14,
                        t.on_bg2, 500, rid="forecast_title")
                ry = card.y1 + ui.dp(48)
                for day in w.forecast:
                    self._day_row(ui, Box(card.x1, ry, card.x2, ry + ui.dp(60)), day, now.date())
                    ry += ui.dp(60)
            y = card.y2 + ui.dp(16)
            # details
            items = details(w, app.phone.seed)
            dc = Box(ui.left, y, ui.right, y + ui.dp(150))
            with ui.card(dc, rid="details", fill=t.surface, radius=16):
                half = dc.width // 2
                for i, (icon, label, value) in enumerate(items):
                    x = dc.x1 + (i % 2) * half + ui.dp(16)
                    yy = dc.y1 + ui.dp(16) + (i // 2) * ui.dp(66)
                    ui.icon(x + ui.dp(12), yy + ui.dp(12), icon, 22, t.on_bg2)
                    ui.text(x + ui.dp(32), yy + ui.dp(2), label, 13, t.on_bg2)
                    ui.text(x + ui.dp(32), yy + ui.dp(22), value, 18, t.on_bg, 500)
            ui.text(ui.left, dc.y2 + ui.dp(12), "Weather data: Sim Weather Service", 12, t.on_bg2)
            ui.spacer(dc.y2, dc.y2 + ui.dp(40))

    def _day_row(self, ui: UI, row: Box, day: DayForecast, today: dt.date) -> None:
        t = ui.theme
        label = day_label(day, today)
        desc = f"{label}, {short_date(day.date)}: {day.condition}, high {day.high}°C, low {day.low}°C"
        with ui.group(row, rid="forecast_day", desc=desc):
            x = row.x1 + ui.dp(16)
            ui.text(x, row.y1 + ui.dp(8), label, 16, t.on_bg, 500, rid="weekday")
            ui.text(x, row.y1 + ui.dp(32), short_date(day.date), 13, t.on_bg2, rid="date")
            ix = row.x1 + ui.dp(104)
            ui.icon(ix, row.center.y, condition_icon(day.condition), 26,
                    CONDITION_COLORS.get(day.condition, ui.accent))
            ui.text(ix + ui.dp(22), row.center.y - ui.dp(10), day.condition, 15, t.on_bg, rid="condition",
                    max_width=ui.dp(120))
            hi = f"{day.high}°"
            lo = f"{day.low}°"
            ui.text(row.x2 - ui.dp(16), row.center.y - ui.dp(11), lo, 17, t.on_bg2, align="right", rid="low",
                    desc=f"Low {day.low}°C")
            ui.text(row.x2 - ui.dp(60), row.center.y - ui.dp(11), hi, 17, t.on_bg, 500, align="right", rid="high",
                    desc=f"High {day.high}°C")


class WeatherApp(App, name="Weather", package="com.sim.weather",
                 icon="weather-partly-cloudy", color=(3, 155, 229), root=TodayScreen):
    """Today's weather and the days ahead, for the cities the user follows."""


APPS = [WeatherApp]

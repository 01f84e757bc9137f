"""Calendar: a month view with today marked and today's full date in the header, the selected
day's agenda, previous/next month, and a new-event editor (title, date, time, Save)."""

from __future__ import annotations

import calendar as _cal
import datetime as dt
import re

from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import Canvas, mix
from mobile_agent.device.sim.state import Event
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

WEEKDAY_LETTERS = ("S", "M", "T", "W", "T", "F", "S")  # weeks start on Sunday


def long_date(d: dt.date) -> str:
    """``Saturday, September 14, 2024``."""
    return f"{d.strftime('%A, %B')} {d.day}, {d.year}"


def month_title(d: dt.date) -> str:
    """``September 2024``."""
    return d.strftime("%B %Y")


def parse_time(text: str) -> str | None:
    """``15:00``, ``3pm``, ``3:30 pm``, ``9`` -> ``HH:MM``; empty -> ``""`` (all day); else None."""
    s = text.strip().lower().replace(".", "")
    if not s:
        return ""
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*(am|pm)?", s)
    if not m:
        return None
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if ap:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ap == "pm" else 0)
    if not (0 <= h <= 23 and 0 <= mi <= 59):
        return None
    return f"{h:02d}:{mi:02d}"


def month_days(year: int, month: int) -> list[dt.date]:
    """The 42 days (six weeks, Sunday first) shown for a month."""
    first = dt.date(year, month, 1)
    start = first - dt.timedelta(days=(first.weekday() + 1) % 7)
    return [start + dt.timedelta(days=i) for i in range(42)]


def _add_months(d: dt.date, n: int) -> dt.date:
    m = d.month - 1 + n
    y, m = d.year + m // 12, m % 12 + 1
    return dt.date(y, m, min(d.day, _cal.monthrange(y, m)[1]))


class MonthScreen(Screen):
    def __init__(self, app: "CalendarApp") -> None:
        super().__init__(app)
        self.selected: dt.date = app.phone.now.date()
        self.shown: dt.date = self.selected.replace(day=1)

    def build(self, ui: UI) -> None:
        app: CalendarApp = self.app  # type: ignore[assignment]
        t = ui.theme
        today = app.phone.now.date()
        events = app.phone.state.calendar.events
        ui.top_bar("", actions=(("calendar-today", "Jump to today", self.go_today),))
        bar_cy = ui.area.y1 + ui.dp(32)
        ui.icon_button(ui.area.x1 + ui.dp(28), bar_cy, "chevron-left", "Previous month", lambda: self.move(-1))
        title = month_title(self.shown)
        tb = ui.text(ui.area.x1 + ui.dp(56), bar_cy - ui.dp(13), title, 22, t.on_bg, 500, rid="month_title")
        ui.icon_button(tb.x2 + ui.dp(28), bar_cy, "chevron-right", "Next month", lambda: self.move(1))
        y = ui.area.y1 + ui.dp(64)
        ui.text(ui.left, y, f"Today · {long_date(today)}", 15, ui.accent, 500, rid="today_date",
                on_tap=self.go_today)
        y += ui.dp(32)
        cw = ui.width // 7
        x0 = ui.area.x1 + (ui.width - cw * 7) // 2
        for i, letter in enumerate(WEEKDAY_LETTERS):
            ui.text(x0 + cw * i + cw // 2, y, letter, 12, t.on_bg2, 500, align="center")
        y += ui.dp(24)
        ch = ui.dp(52)
        busy = {e.date for e in events}
        for i, day in enumerate(month_days(self.shown.year, self.shown.month)):
            r, c = divmod(i, 7)
            cell = Box(x0 + c * cw, y + r * ch, x0 + (c + 1) * cw, y + (r + 1) * ch)
            self._cell(ui, cell, day, day == today, day == self.selected, day.month == self.shown.month,
                       day.isoformat() in busy)
        y += 6 * ch
        ui.divider(y)
        self._agenda(ui, Box(ui.area.x1, y + 1, ui.area.x2, ui.area.y2))
        ui.fab("plus", "Create event", app.new_event)

    def _cell(self, ui: UI, cell: Box, day: dt.date, is_today: bool, selected: bool, in_month: bool,
              busy: bool) -> None:
        t = ui.theme
        acc = ui.accent
        r = ui.dp(17)
        cx, cy = cell.center.x, cell.y1 + ui.dp(22)
        fg = (255, 255, 255) if is_today and not t.dark else (t.on_primary if is_today else
                                                                (t.on_bg if in_month else t.on_bg2))
        if not in_month and not is_today:
            fg = mix(t.on_bg2, t.bg, 0.35)
        px = ui.dp(14)
        label = str(day.day)

        def paint(c: Canvas, b: Box) -> None:
            if is_today:
                c.ellipse(Box(cx - r, cy - r, cx + r, cy + r), fill=acc)
            elif selected:
                c.ellipse(Box(cx - r, cy - r, cx + r, cy + r), fill=mix(acc, t.bg, 0.8))
            c.text(cx, cy, label, px, fg, 700 if is_today or selected else 400, "mm")
            if busy:
                d = ui.dp(3)
                c.ellipse(Box(cx - d, cy + r + ui.dp(3), cx + d, cy + r + ui.dp(3) + 2 * d), fill=acc)

        desc = long_date(day) + (", today" if is_today else "") + (", has events" if busy else "")
        ui.add(Node(cell, cls="android.widget.TextView", text=label, desc=desc, clickable=True, selected=selected,
                    on_tap=lambda: self.select(day), paint=paint, rid="day"))

    def _agenda(self, ui: UI, box: Box) -> None:
        app: CalendarApp = self.app  # type: ignore[assignment]
        t = ui.theme
        day_events = sorted((e for e in app.phone.state.calendar.events if e.date == self.selected.isoformat()),
                            key=lambda e: e.time or "")
        with ui.scroll(box, "agenda", rid="agenda") as y:
            ui.text(ui.left, y + ui.dp(12), long_date(self.selected), 16, t.on_bg, 500, rid="selected_date")
            y += ui.dp(44)
            if not day_events:
                ui.text(ui.left, y + ui.dp(4), "No events", 14, t.on_bg2)
                y += ui.dp(32)
            for e in day_events:
                card = Box(ui.left, y, ui.right, y + ui.dp(56))
                with ui.card(card, fill=mix(ui.accent, t.bg, 0.82), rid="event", on_tap=lambda: None, radius=8):
                    ui.text(card.x1 + ui.dp(12), card.y1 + ui.dp(8), e.title or "(No title)", 15, t.on_bg, 500,
                            max_width=card.width - ui.dp(24))
                    ui.text(card.x1 + ui.dp(12), card.y1 + ui.dp(31), e.time or "All day", 13, t.on_bg2)
                y = card.y2 + ui.dp(8)
            ui.spacer(y, y + ui.dp(80))

    def select(self, day: dt.date) -> None:
        self.selected = day
        if day.month != self.shown.month or day.year != self.shown.year:
            self.shown = day.replace(day=1)
        self.scroll.clear()

    def move(self, n: int) -> None:
        self.shown = _add_months(self.shown, n)
        self.selected = self.shown if self.shown.month != self.phone.now.month or \
            self.shown.year != self.phone.now.year else self.phone.now.date()
        self.scroll.clear()

    def go_today(self) -> None:
        self.select(self.phone.now.date())


class EventEditor(Screen):
    def __init__(self, app: "CalendarApp", day: dt.date) -> None:
        super().__init__(app)
        self.day = day

    def build(self, ui: UI) -> None:
        app: CalendarApp = self.app  # type: ignore[assignment]
        t = ui.theme
        bar_cy = ui.area.y1 + ui.dp(32)
        ui.add(Node(Box(ui.area.x1, ui.area.y1, ui.area.x2, ui.area.y1 + ui.dp(64)), cls="android.view.ViewGroup",
                    rid="toolbar"))
        ui.icon_button(ui.area.x1 + ui.dp(28), bar_cy, "close", "Close", app.pop)
        ui.button(Box(ui.right - ui.dp(84), bar_cy - ui.dp(20), ui.right, bar_cy + ui.dp(20)), "Save", self.save,
                  rid="save", color=CalendarApp.color)
        y = ui.area.y1 + ui.dp(72)
        ui.text_field(Box(ui.area.x1 + ui.dp(56), y, ui.right, y + ui.dp(56)), "title", "Add title",
                      style="underline", size=22, rid="title", on_submit=self.to_time)
        y += ui.dp(72)
        ui.icon(ui.area.x1 + ui.dp(28), y + ui.dp(28), "calendar-blank-outline", 24, t.on_bg2)
        ui.text(ui.area.x1 + ui.dp(56), y + ui.dp(16), self.day.strftime("%a, %b ") + f"{self.day.day}, {self.day.year}",
                16, t.on_bg, rid="event_date", desc=long_date(self.day))
        ui.icon_button(ui.right - ui.dp(64), y + ui.dp(28), "chevron-left", "Previous day", lambda: self.shift(-1))
        ui.icon_button(ui.right - ui.dp(16), y + ui.dp(28), "chevron-right", "Next day", lambda: self.shift(1))
        y += ui.dp(64)
        ui.icon(ui.area.x1 + ui.dp(28), y + ui.dp(28), "clock-outline", 24, t.on_bg2)
        ui.text_field(Box(ui.area.x1 + ui.dp(56), y + ui.dp(4), ui.right, y + ui.dp(52)), "time",
                      "Time, e.g. 15:00 (empty: all day)", style="outlined", size=15, rid="time",
                      on_submit=self.save)
        y += ui.dp(72)
        ui.divider(y)
        ui.icon(ui.area.x1 + ui.dp(28), y + ui.dp(36), "bell-outline", 24, t.on_bg2)
        ui.text(ui.area.x1 + ui.dp(56), y + ui.dp(26), "30 minutes before", 16, t.on_bg2)

    def to_time(self) -> None:
        """Enter in the title moves on to the time field."""
        self.phone.focus_field(self, "time", on_submit=self.save)

    def shift(self, n: int) -> None:
        self.day += dt.timedelta(days=n)

    def save(self) -> None:
        app: CalendarApp = self.app  # type: ignore[assignment]
        time = parse_time(self.fields.get("time", ""))
        if time is None:
            app.toast("Enter a time like 15:00")
            return
        title = self.fields.get("title", "").strip()
        app.phone.state.calendar.events.append(Event(title, self.day.isoformat(), time))
        app.pop()
        month = app.screen
        if isinstance(month, MonthScreen):
            month.select(self.day)
        app.toast("Event saved")


class CalendarApp(App, name="Calendar", package="com.sim.calendar",
                  icon="calendar-month", color=(26, 115, 232), root=MonthScreen):
    def new_event(self) -> None:
        month = self.screen
        day = month.selected if isinstance(month, MonthScreen) else self.phone.now.date()
        editor = EventEditor(self, day)
        self.push(editor)
        self.phone.focus_field(editor, "title", on_submit=editor.to_time)


APPS = [CalendarApp]

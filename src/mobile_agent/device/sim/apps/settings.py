"""Settings: network, display (dark theme, brightness), notifications and status bar, battery,
sound, about phone, and a search over every setting."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from mobile_agent.device.sim.apps._kit import query_bar
from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box


@dataclass
class Row:
    """One entry of a settings page: a link to a page, a switch bound to a state flag, or a value."""

    title: str
    subtitle: str | Callable[["SettingsApp"], str] = ""
    icon: str | None = None
    page: str | None = None  # key of the page it opens
    flag: str | None = None  # name of a bool field of SettingsState
    slider: str | None = None  # name of an int (0..100) field of SettingsState
    header: bool = False  # a section header, not a row
    keywords: tuple[str, ...] = field(default_factory=tuple)


def _wifi_sub(app: "SettingsApp") -> str:
    s = app.phone.state.settings
    if s.airplane_mode and not s.wifi:
        return "Off · Airplane mode"
    return s.wifi_network if s.wifi else "Off"


PAGES: dict[str, tuple[str, list[Row]]] = {
    "root": ("Settings", [
        Row("Network & internet", "Wi-Fi, mobile data, airplane mode", "wifi", page="network"),
        Row("Connected devices", "Bluetooth, pairing", "bluetooth", page="devices"),
        Row("Apps", "Recent apps, default apps", "apps", page="apps"),
        Row("Notifications", "Notification history, status bar", "bell-outline", page="notifications"),
        Row("Battery", lambda a: f"{a.phone.state.settings.battery_level}%", "battery-70", page="battery"),
        Row("Storage", "41% used · 75.5 GB free", "harddisk", page="storage"),
        Row("Sound & vibration", "Volume, haptics, Do Not Disturb", "volume-high", page="sound"),
        Row("Display", "Dark theme, font size, brightness", "brightness-6", page="display"),
        Row("Wallpaper & style", "Colours, themed icons", "palette-outline", page="wallpaper"),
        Row("Accessibility", "Display, interaction, audio", "human", page="accessibility"),
        Row("Security & privacy", "App security, device lock", "shield-lock-outline", page="security"),
        Row("Location", "On · 3 apps have access to location", "map-marker-outline", page="location"),
        Row("System", "Languages, gestures, time, backup", "information-outline", page="system"),
        Row("About phone", "Sim Phone 8", "cellphone", page="about"),
    ]),
    "network": ("Network & internet", [
        Row("Wi-Fi", _wifi_sub, "wifi", flag="wifi", keywords=("wlan", "wireless", "internet")),
        Row("Mobile data", lambda a: "SimTel" if a.phone.state.settings.mobile_data else "Off",
            "signal-cellular-3", flag="mobile_data", keywords=("cellular",)),
        Row("Airplane mode", "", "airplane", flag="airplane_mode", keywords=("flight", "aeroplane", "plane")),
        Row("Hotspot & tethering", "Off", "access-point"),
        Row("Data Saver", "Off", "data-matrix"),
        Row("VPN", "None", "vpn"),
        Row("Private DNS", "Automatic", "dns"),
    ]),
    "devices": ("Connected devices", [
        Row("Bluetooth", lambda a: "On" if a.phone.state.settings.bluetooth else "Off", "bluetooth",
            flag="bluetooth"),
        Row("Pair new device", "", "plus"),
        Row("Connection preferences", "NFC, Android Auto", "cast"),
    ]),
    "apps": ("Apps", [
        Row("See all apps", "", "apps"),
        Row("Default apps", "Browser, phone and SMS", "star-outline"),
        Row("Screen time", "0 minutes today", "timer-outline"),
        Row("Special app access", "", "key-outline"),
    ]),
    "notifications": ("Notifications", [
        Row("App notifications", "", "bell-outline"),
        Row("Notification history", "", "history"),
        Row("Do Not Disturb", lambda a: "On" if a.phone.state.settings.do_not_disturb else "Off", "minus-circle-outline",
            flag="do_not_disturb"),
        Row("Status bar", header=True),
        Row("Show network speed", "Display the real-time network speed in the status bar", "speedometer",
            flag="show_network_speed", keywords=("net speed", "data speed", "real-time", "kb/s")),
        Row("Notifications on lock screen", "Show conversations, default and silent", "cellphone-lock"),
    ]),
    "battery": ("Battery", [
        Row(lambda a: f"{a.phone.state.settings.battery_level}%", header=True),
        Row("Battery usage", "", "chart-bar"),
        Row("Battery Saver", lambda a: "On" if a.phone.state.settings.battery_saver else "Off", "battery-heart-variant",
            flag="battery_saver"),
        Row("Battery percentage", "Show battery percentage in the status bar", "percent-outline",
            flag="battery_percentage"),
    ]),
    "storage": ("Storage", [
        Row("System", "14.2 GB", "cellphone-cog"),
        Row("Apps", "22.6 GB", "apps"),
        Row("Images", "9.8 GB", "image-outline"),
        Row("Videos", "3.1 GB", "video-outline"),
        Row("Audio", "1.4 GB", "music-note"),
    ]),
    "sound": ("Sound & vibration", [
        Row("Media volume", "", "music-note", slider="media_volume"),
        Row("Ring volume", "", "bell-ring-outline", slider="ring_volume"),
        Row("Do Not Disturb", lambda a: "On" if a.phone.state.settings.do_not_disturb else "Off",
            "minus-circle-outline", flag="do_not_disturb"),
        Row("Vibrate for calls", "", "vibrate", flag="vibrate_on_ring"),
        Row("Phone ringtone", "Pixel Sounds", "music"),
    ]),
    "display": ("Display", [
        Row("Brightness", header=True),
        Row("Brightness level", lambda a: f"{a.phone.state.settings.brightness}%", "brightness-6", slider="brightness"),
        Row("Adaptive brightness", "Optimise brightness for the light around you", "brightness-auto",
            flag="adaptive_brightness"),
        Row("Appearance", header=True),
        Row("Dark theme", "Use a dark background for the screen", "theme-light-dark", flag="dark_mode",
            keywords=("dark mode", "night mode", "night")),
        Row("Font size", "Default", "format-size"),
        Row("Screen timeout", "After 30 seconds of inactivity", "timer-sand"),
        Row("Auto-rotate screen", "Off", "screen-rotation"),
    ]),
    "wallpaper": ("Wallpaper & style", [Row("Change wallpaper", "", "image"), Row("Themed icons", "Off", "palette")]),
    "accessibility": ("Accessibility", [Row("TalkBack", "Off", "account-voice"), Row("Magnification", "Off", "magnify-plus-outline")]),
    "security": ("Security & privacy", [Row("Screen lock", "PIN", "lock-outline"), Row("Find My Device", "On", "crosshairs-gps")]),
    "location": ("Location", [Row("Use location", "On", "map-marker"), Row("Recent access", "Maps, Weather", "history")]),
    "system": ("System", [Row("Languages", "English (United States)", "translate"), Row("Date & time", "Automatic", "clock-outline"),
                          Row("Gestures", "", "gesture-tap"), Row("Backup", "On", "backup-restore")]),
    "about": ("About phone", [Row("Device name", "Sim Phone 8", "cellphone"), Row("Phone number", "+1 555-0100", "phone"),
                              Row("Android version", "14", "android"), Row("Model", "SIM-8", "information-outline"),
                              Row("Build number", "UQ1A.240105.002", "wrench-outline")]),
}


def _text(value: str | Callable[["SettingsApp"], str], app: "SettingsApp") -> str:
    return value(app) if callable(value) else value


class PageScreen(Screen["SettingsApp"]):
    def __init__(self, app: "SettingsApp", key: str) -> None:
        super().__init__(app)
        self.key = key

    def build(self, ui: UI) -> None:
        app = self.app
        title, rows = PAGES[self.key]
        t = ui.theme
        s = app.phone.state.settings
        if self.key == "root":
            y = ui.area.y1 + ui.dp(56)
            ui.text(ui.left + ui.dp(8), y, "Settings", 34, t.on_bg, 400, rid="title")
            y += ui.dp(64)
            sb = Box(ui.left, y, ui.right, y + ui.dp(52))
            with ui.group(sb, cls="android.widget.LinearLayout", rid="search_bar",
                          on_tap=app.open_search,
                          paint=lambda c, b: c.rect(b, fill=t.field, radius=b.height // 2)):
                ui.icon(sb.x1 + ui.dp(28), sb.center.y, "magnify", 24, t.on_bg2)
                ui.text(sb.x1 + ui.dp(56), sb.center.y - ui.dp(10), "Search settings", 16, t.on_bg2)
            top = y + ui.dp(68)
        else:
            ui.top_bar(title, back=app.pop)
            top = ui.area.y1 + ui.dp(64)
        with ui.scroll(Box(ui.area.x1, top, ui.area.x2, ui.area.y2), "list", rid="recycler_view") as y:
            for row in rows:
                label = _text(row.title, app)
                if row.header:
                    ui.text(ui.left + (ui.dp(56) if self.key != "battery" else 0), y + ui.dp(16), label,
                            14 if self.key != "battery" else 40, ui.accent, 500)
                    y += ui.dp(48 if self.key != "battery" else 72)
                    continue
                sub = _text(row.subtitle, app)
                if row.flag:
                    flag = row.flag
                    y = ui.list_row(y, label, sub, icon=row.icon, switch=bool(getattr(s, flag)),
                                    on_switch=lambda flag=flag: app.toggle(flag), rid=f"switch_{flag}").y2
                elif row.slider:
                    y = self._slider_row(ui, y, label, row.icon, row.slider)
                elif row.page:
                    page = row.page
                    y = ui.list_row(y, label, sub, icon=row.icon, on_tap=lambda page=page: app.open_page(page)).y2
                else:
                    y = ui.list_row(y, label, sub, icon=row.icon, on_tap=lambda: None).y2

    def _slider_row(self, ui: UI, y: int, label: str, icon: str | None, attr: str) -> int:
        app = self.app
        s = app.phone.state.settings
        t = ui.theme
        value = int(getattr(s, attr))
        h = ui.dp(88)
        x = ui.area.x1 + ui.dp(72)
        ui.icon(ui.area.x1 + ui.dp(28), y + ui.dp(28), icon or "tune", 24, t.on_bg2)
        ui.text(x, y + ui.dp(14), label, 16, t.on_bg)
        track = Box(x, y + ui.dp(52), ui.right - ui.dp(8), y + ui.dp(76))
        frac = value / 100.0

        def paint(c, b: Box) -> None:
            cy = b.center.y
            xv = b.x1 + int(b.width * frac)
            c.rect(Box(b.x1, cy - ui.dp(3), b.x2, cy + ui.dp(3)), fill=t.surface2, radius=ui.dp(3))
            c.rect(Box(b.x1, cy - ui.dp(3), xv, cy + ui.dp(3)), fill=ui.accent, radius=ui.dp(3))
            r = ui.dp(10)
            c.ellipse(Box(xv - r, cy - r, xv + r, cy + r), fill=ui.accent)

        node = ui.add(Node(track, cls="android.widget.SeekBar", desc=label, text=f"{value}", clickable=True,
                           paint=paint, rid=f"seekbar_{attr}"))

        def set_from_tap() -> None:
            px = app.phone.last_tap[0] if app.phone.last_tap else track.center.x
            setattr(s, attr, max(0, min(100, round((px - track.x1) * 100 / max(1, track.width)))))

        node.on_tap = set_from_tap
        return y + h


class SearchScreen(Screen):
    """Search in Settings: results update as one types; a result opens its page."""

    def build(self, ui: UI) -> None:
        app: SettingsApp = self.app  # type: ignore[assignment]
        t = ui.theme
        bar = query_bar(ui, app.pop, "Search settings", lambda: None, rid="search_src_text")
        query = self.fields.get("q", "").strip().lower()
        if not query:
            return
        with ui.scroll(Box(ui.area.x1, bar.y2, ui.area.x2, ui.area.y2), "results") as y:
            hits = app.search(query)
            if not hits:
                ui.text(ui.left, y + ui.dp(24), f"No results for “{self.fields.get('q', '').strip()}”", 16, t.on_bg2)
            for page, row in hits:
                crumb = PAGES[page][0]
                y = ui.list_row(y, _text(row.title, app), crumb, icon=row.icon,
                                on_tap=lambda page=page: app.open_page(page)).y2


class SettingsApp(App, name="Settings", package="com.android.settings", icon="cog", color=(66, 103, 178)):
    def root(self) -> Screen:
        return PageScreen(self, "root")

    def open_page(self, key: str) -> None:
        self.push(PageScreen(self, key))

    def open_search(self) -> None:
        screen = SearchScreen(self)
        self.push(screen)
        self.phone.focus_field(screen, "q", on_submit=lambda: None)

    def toggle(self, flag: str) -> None:
        s = self.phone.state.settings
        setattr(s, flag, not getattr(s, flag))
        if flag == "airplane_mode":
            # Airplane mode turns the radios off; turning it off brings them back.
            if s.airplane_mode:
                self._radios = (s.wifi, s.bluetooth)
                s.wifi = False
                s.bluetooth = False
            else:
                s.wifi, s.bluetooth = getattr(self, "_radios", (True, False))

    def search(self, query: str) -> list[tuple[str, Row]]:
        out: list[tuple[str, Row]] = []
        for key, (_title, rows) in PAGES.items():
            for row in rows:
                if row.header or callable(row.title):
                    continue
                hay = " ".join([row.title, row.title.lower(), *row.keywords]).lower()
                if query in hay:
                    out.append((key, row))
        return out


APPS = [SettingsApp]

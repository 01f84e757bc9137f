"""Typed state of the simulated phone and each of its apps.

This is what the benchmark's success checks read. The agent never sees it: it gets pixels only.
Everything here is plain data (dataclasses of str, int, bool, lists), so it can be copied,
compared and dumped to JSON with :func:`dataclasses.asdict`.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any
from dataclasses import dataclass, field


@dataclass
class SettingsState:
    wifi: bool = True
    wifi_network: str = "HomeNet-5G"
    mobile_data: bool = True
    airplane_mode: bool = False
    bluetooth: bool = False
    dark_mode: bool = False
    brightness: int = 60  # 0..100
    adaptive_brightness: bool = True
    show_network_speed: bool = False
    battery_percentage: bool = False
    battery_saver: bool = False
    battery_level: int = 78
    ring_volume: int = 60
    media_volume: int = 50
    do_not_disturb: bool = False
    vibrate_on_ring: bool = True


@dataclass
class Note:
    title: str
    body: str
    modified: str  # ISO date-time


@dataclass
class NotesState:
    notes: list[Note] = field(default_factory=list)


@dataclass
class Email:
    sender: str
    to: list[str]
    subject: str
    body: str
    time: str  # ISO date-time
    read: bool = True


@dataclass
class MailState:
    account: str = "me@example.com"
    inbox: list[Email] = field(default_factory=list)
    sent: list[Email] = field(default_factory=list)
    drafts: list[Email] = field(default_factory=list)
    # Signed out, the app shows its sign-in screen: a password only the user knows, or (with
    # ``sign_in_code``) the one-time code "sent to the user's phone".
    signed_in: bool = True
    sign_in_code: str = ""


@dataclass
class CartItem:
    product_id: str
    title: str
    price: float
    quantity: int = 1


@dataclass
class ShopState:
    searches: list[str] = field(default_factory=list)
    viewed: list[str] = field(default_factory=list)  # product ids
    cart: list[CartItem] = field(default_factory=list)
    messages: list[tuple[str, str]] = field(default_factory=list)  # (supplier, text)


@dataclass
class Track:
    track_id: str
    title: str
    artist: str


@dataclass
class MusicState:
    searches: list[str] = field(default_factory=list)
    viewed_artists: list[str] = field(default_factory=list)
    now_playing: Track | None = None
    playing: bool = False
    playlist: str | None = None  # the playlist being played, if any
    history: list[Track] = field(default_factory=list)


@dataclass
class BrowserState:
    current_url: str = ""
    searches: list[str] = field(default_factory=list)
    history: list[str] = field(default_factory=list)  # URLs visited, in order


@dataclass
class Route:
    destination: str
    place_id: str
    mode: str = "drive"  # drive, transit, walk
    started: bool = False


@dataclass
class MapsState:
    searches: list[str] = field(default_factory=list)
    viewed_places: list[str] = field(default_factory=list)  # place ids
    route: Route | None = None
    navigating: bool = False
    saved: list[str] = field(default_factory=list)  # place ids saved with "Save"


@dataclass
class StoreState:
    searches: list[str] = field(default_factory=list)
    installed: list[str] = field(default_factory=list)  # app names installed from the store
    installing: dict[str, int] = field(default_factory=dict)  # app name -> progress percent
    app_settings: dict[str, dict[str, Any]] = field(default_factory=dict)  # app name -> its settings, once read


@dataclass
class ClipComment:
    clip_id: str
    text: str


@dataclass
class ClipsState:
    current: int = 0  # index in the feed
    liked: list[str] = field(default_factory=list)  # clip ids, in the order liked
    comments: list[ClipComment] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)


@dataclass
class VideoComment:
    video_id: str
    text: str


@dataclass
class VideoState:
    searches: list[str] = field(default_factory=list)
    watched: list[str] = field(default_factory=list)
    liked: list[str] = field(default_factory=list)
    subscribed: list[str] = field(default_factory=list)  # channel names
    comments: list[VideoComment] = field(default_factory=list)


@dataclass
class Event:
    title: str
    date: str  # ISO date
    time: str = ""  # HH:MM, empty for all-day


@dataclass
class CalendarState:
    events: list[Event] = field(default_factory=list)


@dataclass
class DayForecast:
    date: str  # ISO date
    weekday: str  # Mon, Tue...
    high: int  # degrees Celsius
    low: int
    condition: str  # Sunny, Cloudy, Rain...


@dataclass
class WeatherState:
    city: str = "Hangzhou"
    current_temp: int = 21
    condition: str = "Sunny"
    forecast: list[DayForecast] = field(default_factory=list)


@dataclass
class PhoneState:
    """The whole phone: clock, settings, and every app's data."""

    seed: int
    now: str  # ISO date-time of the phone's clock at start
    settings: SettingsState = field(default_factory=SettingsState)
    notes: NotesState = field(default_factory=NotesState)
    mail: MailState = field(default_factory=MailState)
    shop: ShopState = field(default_factory=ShopState)
    music: MusicState = field(default_factory=MusicState)
    browser: BrowserState = field(default_factory=BrowserState)
    maps: MapsState = field(default_factory=MapsState)
    store: StoreState = field(default_factory=StoreState)
    clips: ClipsState = field(default_factory=ClipsState)
    video: VideoState = field(default_factory=VideoState)
    calendar: CalendarState = field(default_factory=CalendarState)
    weather: WeatherState = field(default_factory=WeatherState)
    foreground: str | None = None  # name of the app on screen, None on the home screen

    @property
    def today(self) -> dt.date:
        return dt.datetime.fromisoformat(self.now).date()

    @classmethod
    def initial(cls, seed: int = 0) -> "PhoneState":
        """The phone as it is out of the box for ``seed``: clock, a few notes, mails, events, weather."""
        rng = random.Random(seed)
        start = dt.datetime(2024, 3, 1, 8, 0) + dt.timedelta(days=rng.randrange(0, 300),
                                                              minutes=rng.randrange(0, 10 * 60))
        s = cls(seed=seed, now=start.isoformat(timespec="minutes"))
        today = start.date()
        iso = lambda d: d.isoformat()  # noqa: E731
        s.notes.notes = [
            Note("Shopping list", "Milk, eggs, bread, coffee", (start - dt.timedelta(days=2)).isoformat(timespec="minutes")),
            Note("Book ideas", "A story about a lighthouse keeper", (start - dt.timedelta(days=9)).isoformat(timespec="minutes")),
        ]
        s.mail.inbox = [
            Email("anna.lee@example.org", [s.mail.account], "Lunch on Friday?",
                  "Hi! Are you free for lunch on Friday? There is a new noodle place near the office.",
                  (start - dt.timedelta(hours=3)).isoformat(timespec="minutes"), read=False),
            Email("no-reply@travelco.example", [s.mail.account], "Your trip to Hangzhou",
                  "Your booking is confirmed. Check-in opens 24 hours before departure.",
                  (start - dt.timedelta(days=1, hours=2)).isoformat(timespec="minutes")),
            Email("team@workspace.example", [s.mail.account], "Weekly update",
                  "Here is what happened this week in the project.",
                  (start - dt.timedelta(days=2, hours=5)).isoformat(timespec="minutes")),
        ]
        s.calendar.events = [
            Event("Dentist", iso(today + dt.timedelta(days=3)), "10:30"),
            Event("Team meeting", iso(today + dt.timedelta(days=1)), "15:00"),
        ]
        conditions = ["Sunny", "Cloudy", "Rain", "Partly cloudy", "Showers", "Thunderstorms", "Windy"]
        base = rng.randrange(8, 26)
        days = []
        for i in range(5):
            d = today + dt.timedelta(days=i)
            hi = base + rng.randrange(-3, 5)
            days.append(DayForecast(iso(d), d.strftime("%a"), hi, hi - rng.randrange(5, 10), rng.choice(conditions)))
        s.weather.forecast = days
        s.weather.current_temp = days[0].high - 2
        s.weather.condition = days[0].condition
        return s

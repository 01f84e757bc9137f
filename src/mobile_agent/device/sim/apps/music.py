"""Music: a streaming player. Home with a search entry, recently played and "Relax" playlists;
search with Songs, Artists and Playlists; artist and playlist pages; a now-playing bar and a
full-screen player.

The catalog is module data (:data:`ARTISTS`, :data:`SONGS`, :data:`PLAYLISTS`, :func:`search`) so
that benchmark checks can tell, e.g., which songs are about "agent" or which playlists relax.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mobile_agent.device.sim.apps._kit import (QueryResults, QueryScreen, SearchApp, fmt_count, offscreen, query_bar,
                                               rect, results_bar, rounded_picture, search_pill, words)
from mobile_agent.device.sim.phone import Screen
from mobile_agent.device.sim.render import Canvas, mix
from mobile_agent.device.sim.state import Track
from mobile_agent.device.sim.ui import UI
from mobile_agent.types import Box

GREEN = (29, 185, 84)


@dataclass(frozen=True)
class Artist:
    id: str
    name: str
    genre: str
    listeners: int  # monthly listeners


@dataclass(frozen=True)
class Song:
    id: str
    title: str
    artist_id: str
    duration: int  # seconds
    tags: tuple[str, ...] = ()

    @property
    def artist(self) -> str:
        return ARTISTS[self.artist_id].name

    @property
    def length(self) -> str:
        return f"{self.duration // 60}:{self.duration % 60:02d}"

    def track(self) -> Track:
        return Track(self.id, self.title, self.artist)


@dataclass(frozen=True)
class Playlist:
    id: str
    name: str
    description: str
    song_ids: tuple[str, ...]
    tags: tuple[str, ...] = field(default=())
    relaxing: bool = False


ARTISTS: dict[str, Artist] = {a.id: a for a in [
    Artist("jay-chou", "Jay Chou", "Mandopop", 28_400_000),
    Artist("velvet-signals", "The Velvet Signals", "Indie rock", 1_240_000),
    Artist("mira-vale", "Mira Vale", "Pop", 3_870_000),
    Artist("neon-harbor", "Neon Harbor", "Synthwave", 912_000),
    Artist("lena-hart", "Lena Hart", "Piano", 2_150_000),
    Artist("sora-keys", "Sora Keys", "Piano", 640_000),
    Artist("quiet-pines", "Quiet Pines", "Ambient", 1_730_000),
    Artist("lofi-owl", "Lo-fi Owl", "Lo-fi", 4_420_000),
    Artist("jade-river", "Jade River", "Ambient", 505_000),
    Artist("the-daybreaks", "The Daybreaks", "Rock", 2_960_000),
]}

SONGS: list[Song] = [
    Song("s-jc-01", "Blue and White Porcelain", "jay-chou", 239, ("qing hua ci", "chinese")),
    Song("s-jc-02", "Nocturne", "jay-chou", 226),
    Song("s-jc-03", "Sunny Day", "jay-chou", 269),
    Song("s-jc-04", "Rice Field", "jay-chou", 223),
    Song("s-jc-05", "Mojito", "jay-chou", 185),
    Song("s-jc-06", "Simple Love", "jay-chou", 270),
    Song("s-jc-07", "Common Jasmine Orange", "jay-chou", 267),
    Song("s-jc-08", "Rainbow", "jay-chou", 263),
    Song("s-ag-01", "Secret Agent", "velvet-signals", 214, ("spy", "agent")),
    Song("s-ag-02", "Agent of Love", "mira-vale", 198, ("agent", "love")),
    Song("s-ag-03", "Double Agent", "neon-harbor", 241, ("agent", "spy")),
    Song("s-vs-02", "Summer Static", "velvet-signals", 202),
    Song("s-mv-02", "City Lights", "mira-vale", 187),
    Song("s-nh-02", "Golden Hour Drive", "neon-harbor", 256),
    Song("s-db-01", "Run the Morning", "the-daybreaks", 231),
    Song("s-db-02", "Paper Planes Home", "the-daybreaks", 209),
    Song("s-lh-01", "Moonlit Keys", "lena-hart", 182, ("piano", "relax", "calm")),
    Song("s-lh-02", "Snowfall Waltz", "lena-hart", 205, ("piano", "relax", "calm")),
    Song("s-lh-03", "Letters Never Sent", "lena-hart", 231, ("piano", "relax")),
    Song("s-sk-01", "Slow Morning", "sora-keys", 196, ("piano", "relax", "calm")),
    Song("s-sk-02", "Window Seat", "sora-keys", 174, ("piano", "relax")),
    Song("s-qp-01", "Rain on the Window", "quiet-pines", 248, ("ambient", "rain", "relax", "sleep")),
    Song("s-qp-02", "Evening Tide", "quiet-pines", 262, ("ambient", "relax", "calm")),
    Song("s-qp-03", "Lanterns Over Water", "quiet-pines", 238, ("ambient", "relax", "calm")),
    Song("s-lo-01", "Late Night Study", "lofi-owl", 151, ("lofi", "chill", "study")),
    Song("s-lo-02", "Coffee Steam", "lofi-owl", 139, ("lofi", "chill")),
    Song("s-lo-03", "Sunday Laundry", "lofi-owl", 147, ("lofi", "chill")),
    Song("s-jr-01", "Forest Walk", "jade-river", 276, ("nature", "relax", "calm")),
    Song("s-jr-02", "Gentle Waves", "jade-river", 301, ("nature", "ocean", "relax", "sleep")),
]

_RELAX_TAGS = ("relax", "relaxing", "calm", "chill", "sleep", "unwind", "peaceful", "soothing", "stress")
PLAYLISTS: list[Playlist] = [
    Playlist("pl-piano", "Relaxing Piano", "Soft piano to unwind and breathe",
             ("s-lh-01", "s-sk-01", "s-lh-02", "s-sk-02", "s-lh-03"), ("piano",) + _RELAX_TAGS, True),
    Playlist("pl-evening", "Calm Evening", "Slow down after a long day",
             ("s-qp-02", "s-qp-03", "s-lh-01", "s-jr-01", "s-qp-01"), ("evening", "ambient") + _RELAX_TAGS, True),
    Playlist("pl-lofi", "Chill Lo-fi", "Beats to relax and study to",
             ("s-lo-01", "s-lo-02", "s-lo-03", "s-sk-02"), ("lofi", "lo", "fi", "study") + _RELAX_TAGS, True),
    Playlist("pl-nature", "Nature Sounds", "Rain, waves and forest ambience",
             ("s-jr-01", "s-jr-02", "s-qp-01"), ("nature", "rain", "ocean") + _RELAX_TAGS, True),
    Playlist("pl-hits", "Today's Top Hits", "The biggest songs right now",
             ("s-mv-02", "s-jc-05", "s-db-01", "s-ag-02", "s-nh-02"), ("pop", "hits", "top")),
    Playlist("pl-mando", "Mandopop Classics", "Timeless songs in Mandarin",
             ("s-jc-07", "s-jc-01", "s-jc-03", "s-jc-02"), ("mandopop", "chinese", "classics")),
]

_SONG = {s.id: s for s in SONGS}
_PLAYLIST = {p.id: p for p in PLAYLISTS}
RELAX_PLAYLIST_IDS = [p.id for p in PLAYLISTS if p.relaxing]
_STOP = {"the", "a", "an", "of", "song", "songs", "music", "by", "about", "play", "listen", "to", "i", "want"}


def song(song_id: str) -> Song:
    return _SONG[song_id]


def playlist(playlist_id: str) -> Playlist:
    return _PLAYLIST[playlist_id]


def playlist_by_name(name: str) -> Playlist | None:
    return next((p for p in PLAYLISTS if p.name == name), None)


def artist_songs(artist_id: str) -> list[Song]:
    return [s for s in SONGS if s.artist_id == artist_id]


def is_relaxing(song_id: str) -> bool:
    """True for songs on a relaxing playlist (what "music to relax" tasks look for)."""
    return any(song_id in p.song_ids for p in PLAYLISTS if p.relaxing)


def search(query: str) -> tuple[list[Song], list[Artist], list[Playlist]]:
    """Songs, artists and playlists matching ``query``, best first."""
    q = [w for w in words(query) if w not in _STOP]
    if not q:
        return [], [], []
    qs = set(q)
    artists = [a for a in ARTISTS.values() if qs <= set(words(a.name)) or " ".join(q) in a.name.lower()]
    artist_ids = {a.id for a in artists}
    scored = []
    for i, s in enumerate(SONGS):
        hay = set(words(s.title)) | set(words(" ".join(s.tags)))
        score = sum(2 for w in q if w in hay) + (3 if s.artist_id in artist_ids else 0)
        if score:
            scored.append((-score, i, s))
    songs = [s for _, _, s in sorted(scored)]
    pls = [p for p in PLAYLISTS if qs & (set(words(p.name)) | set(words(" ".join(p.tags))))]
    return songs, artists, pls


# ---------------------------------------------------------------------------------------------- screens
class _MusicScreen(Screen["MusicApp"]):
    """Screens with the now-playing bar and the bottom navigation."""

    tab = -1

    def content_bottom(self, ui: UI) -> int:
        if self.app.phone.keyboard_shown:
            return ui.area.y2  # the keyboard covers the navigation and the now-playing bar
        y = ui.area.y2 - (ui.dp(72) if self.tab >= 0 else 0)
        if self.app.phone.state.music.now_playing is not None:
            y -= ui.dp(64)
        return y

    def chrome(self, ui: UI) -> None:
        app = self.app
        if app.phone.keyboard_shown:
            return
        bottom = ui.area.y2
        if self.tab >= 0:
            ui.bottom_nav([("home-variant", "Home", lambda: app.reset()),
                           ("magnify", "Search", lambda: app.open_search()),
                           ("bookshelf", "Your Library", app.open_library)], self.tab)
            bottom -= ui.dp(72)
        now_playing_bar(ui, app, bottom)


def now_playing_bar(ui: UI, app: "MusicApp", bottom: int) -> None:
    st = app.phone.state.music
    if st.now_playing is None:
        return
    t = ui.theme
    tr = st.now_playing
    box = Box(ui.area.x1 + ui.dp(8), bottom - ui.dp(60), ui.area.x2 - ui.dp(8), bottom - ui.dp(4))
    col = mix(t.surface2, GREEN, 0.12)
    with ui.group(box, cls="android.widget.FrameLayout", rid="now_playing_bar", on_tap=app.open_player,
                  desc=f"Now playing: {tr.title} by {tr.artist}",
                  paint=lambda c, b: c.rect(b, fill=col, radius=ui.dp(8))):
        ui.picture(Box(box.x1 + ui.dp(8), box.y1 + ui.dp(8), box.x1 + ui.dp(48), box.y2 - ui.dp(8)), tr.track_id,
                   "abstract", radius=4)
        ui.text(box.x1 + ui.dp(60), box.y1 + ui.dp(9), tr.title, 14, t.on_bg, 500, max_width=box.width - ui.dp(130),
                rid="now_playing_title")
        ui.text(box.x1 + ui.dp(60), box.y1 + ui.dp(30), tr.artist, 13, t.on_bg2, max_width=box.width - ui.dp(130),
                rid="now_playing_artist")
        ui.icon_button(box.x2 - ui.dp(28), box.center.y, "pause" if st.playing else "play",
                       "Pause" if st.playing else "Play", app.toggle_play, size=28, rid="play_pause")
        # progress line along the bottom edge
        frac = ((len(st.history) * 37) % 80 + 10) / 100
        rect(ui, Box(box.x1 + ui.dp(8), box.y2 - ui.dp(2), box.x1 + ui.dp(8) + int((box.width - ui.dp(16)) * frac),
                     box.y2), t.on_bg)


def _section(ui: UI, y: int, title: str, sub: str = "") -> int:
    t = ui.theme
    ui.text(ui.left, y + ui.dp(12), title, 22, t.on_bg, 700)
    y += ui.dp(44)
    if sub:
        ui.text(ui.left, y - ui.dp(4), sub, 14, t.on_bg2)
        y += ui.dp(22)
    return y


def song_row(ui: UI, app: "MusicApp", y: int, s: Song, queue: list[str], number: int | None = None,
             playlist_name: str | None = None) -> int:
    t = ui.theme
    box = Box(ui.area.x1, y, ui.area.x2, y + ui.dp(64))
    st = app.phone.state.music
    current = st.now_playing is not None and st.now_playing.track_id == s.id
    with ui.group(box, on_tap=lambda: app.play(s.id, queue, playlist_name), rid="song_row"):
        x = ui.left
        if number is not None:
            ui.text(x + ui.dp(8), box.center.y - ui.dp(10), str(number), 15, t.on_bg2, align="center")
            x += ui.dp(28)
        ui.picture(Box(x, y + ui.dp(8), x + ui.dp(48), y + ui.dp(56)), s.id, "abstract", radius=4)
        x += ui.dp(60)
        ui.text(x, y + ui.dp(12), s.title, 16, GREEN if current else t.on_bg, max_width=ui.right - x - ui.dp(40),
                rid="song_title")
        ui.text(x, y + ui.dp(36), f"Song · {s.artist}", 13, t.on_bg2, max_width=ui.right - x - ui.dp(40),
                rid="song_artist")
        ui.icon_button(ui.right - ui.dp(12), box.center.y, "dots-vertical", "More options",
                       lambda: app.toast(f"{s.title} · {s.length}"), size=20)
    return box.y2


def artist_row(ui: UI, app: "MusicApp", y: int, a: Artist) -> int:
    t = ui.theme
    box = Box(ui.area.x1, y, ui.area.x2, y + ui.dp(72))
    with ui.group(box, on_tap=lambda: app.open_artist(a.id), rid="artist_row"):
        ui.picture(Box(ui.left, y + ui.dp(8), ui.left + ui.dp(56), y + ui.dp(64)), a.id, "scene", radius=28)
        ui.text(ui.left + ui.dp(68), y + ui.dp(14), a.name, 16, t.on_bg, rid="artist_name")
        ui.text(ui.left + ui.dp(68), y + ui.dp(38), "Artist", 13, t.on_bg2)
    return box.y2


def playlist_row(ui: UI, app: "MusicApp", y: int, p: Playlist) -> int:
    t = ui.theme
    box = Box(ui.area.x1, y, ui.area.x2, y + ui.dp(80))
    with ui.group(box, on_tap=lambda: app.open_playlist(p.id), rid="playlist_row"):
        ui.picture(Box(ui.left, y + ui.dp(8), ui.left + ui.dp(64), y + ui.dp(72)), p.id, "scene", radius=6)
        ui.text(ui.left + ui.dp(76), y + ui.dp(16), p.name, 16, t.on_bg, 500, max_width=ui.dp(230),
                rid="playlist_name")
        ui.text(ui.left + ui.dp(76), y + ui.dp(42), f"Playlist · {len(p.song_ids)} songs", 13, t.on_bg2,
                max_width=ui.dp(230))
        ui.icon_button(ui.right - ui.dp(22), box.center.y, "play", f"Play {p.name}",
                       lambda: app.play_playlist(p.id), size=24, color=(0, 0, 0), bg=GREEN, rid="play_playlist")
    return box.y2


class HomeScreen(_MusicScreen):
    tab = 0

    def build(self, ui: UI) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        hour = app.phone.now.hour
        greet = "Good morning" if hour < 12 else ("Good afternoon" if hour < 18 else "Good evening")
        ui.text(ui.left, a.y1 + ui.dp(16), greet, 26, t.on_bg, 700, rid="greeting")
        ui.icon_button(a.x2 - ui.dp(28), a.y1 + ui.dp(32), "cog-outline", "Settings",
                       lambda: app.toast("Playback settings"))
        ui.icon_button(a.x2 - ui.dp(76), a.y1 + ui.dp(32), "history", "Recently played", app.open_library)
        y = a.y1 + ui.dp(64)
        search_pill(ui, Box(ui.left, y, ui.right, y + ui.dp(48)), "What do you want to listen to?",
                    app.open_search)
        y += ui.dp(56)
        view = Box(a.x1, y, a.x2, self.content_bottom(ui))
        with ui.scroll(view, "home", rid="home_feed") as yy:
            yy = _section(ui, yy, "Recently played")
            recent = app.recent()
            w = (ui.right - ui.left - ui.dp(24)) // 3
            for i, s in enumerate(recent):
                x = ui.left + i * (w + ui.dp(12))
                card = Box(x, yy, x + w, yy + w + ui.dp(48))
                with ui.group(card, on_tap=lambda s=s: app.play(s.id, [r.id for r in recent]), rid="recent_item",
                              desc=f"{s.title}, {s.artist}"):
                    ui.picture(Box(x, yy, x + w, yy + w), s.id, "abstract", radius=6)
                    ui.text(x, yy + w + ui.dp(6), s.title, 13, t.on_bg, 500, max_width=w)
                    ui.text(x, yy + w + ui.dp(26), s.artist, 12, t.on_bg2, max_width=w)
            yy += w + ui.dp(56)
            yy = _section(ui, yy, "Relax", "Unwind with calm music")
            for p in PLAYLISTS:
                if p.relaxing:
                    yy = playlist_row(ui, app, yy, p) if not offscreen(ui, view, yy, yy + ui.dp(80)) else yy + ui.dp(80)
            yy = _section(ui, yy + ui.dp(8), "Popular artists")
            for a2 in list(ARTISTS.values())[:5]:
                yy = artist_row(ui, app, yy, a2) if not offscreen(ui, view, yy, yy + ui.dp(72)) else yy + ui.dp(72)
            yy = _section(ui, yy + ui.dp(8), "Made for you")
            for p in PLAYLISTS:
                if not p.relaxing:
                    yy = playlist_row(ui, app, yy, p) if not offscreen(ui, view, yy, yy + ui.dp(80)) else yy + ui.dp(80)
            ui.spacer(yy, yy + ui.dp(8))
        self.chrome(ui)


class SearchScreen(QueryScreen, _MusicScreen):
    tab = 1

    def build(self, ui: UI) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        bar = query_bar(ui, app.pop, "Search songs, artists or playlists", self.submit, rid="search_src_text")
        with ui.scroll(Box(a.x1, bar.y2, a.x2, self.content_bottom(ui)), "browse") as y:
            recent = list(dict.fromkeys(reversed(app.phone.state.music.searches)))[:5]
            if recent:
                ui.text(ui.left, y + ui.dp(8), "Recent searches", 16, t.on_bg, 700)
                y += ui.dp(40)
                for q in recent:
                    y = ui.list_row(y, q, icon="history", on_tap=lambda q=q: app.run_search(q)).y2
            ui.text(ui.left, y + ui.dp(8), "Browse all", 16, t.on_bg, 700)
            y += ui.dp(44)
            w = (ui.right - ui.left - ui.dp(12)) // 2
            for i, (genre, q) in enumerate((("Chill", "chill"), ("Mandopop", "Jay Chou"), ("Sleep", "sleep"),
                                            ("Piano", "piano"), ("Lo-fi", "lofi"), ("Pop", "hits"))):
                x = ui.left + (i % 2) * (w + ui.dp(12))
                yy = y + (i // 2) * ui.dp(108)
                col = mix((60, 60, 60), GREEN if i % 3 == 0 else ((220, 80, 60) if i % 3 == 1 else (80, 90, 220)), 0.7)
                with ui.card(Box(x, yy, x + w, yy + ui.dp(96)), on_tap=lambda q=q: app.run_search(q), fill=col,
                             rid="genre_tile"):
                    ui.text(x + ui.dp(12), yy + ui.dp(12), genre, 18, (255, 255, 255), 700)
            ui.spacer(y, y + ui.dp(108) * 3)
        self.chrome(ui)

class ResultsScreen(QueryResults, _MusicScreen):
    tab = 1
    TABS = ["All", "Songs", "Artists", "Playlists"]

    def __init__(self, app: "MusicApp", query: str) -> None:
        super().__init__(app, query)
        self.songs, self.artists, self.playlists = search(query)
        self.selected = 0

    def select(self, i: int) -> None:
        self.selected = i
        self.scroll.clear()

    def build(self, ui: UI) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        bar = results_bar(ui, app.pop, "Search songs, artists or playlists", lambda: app.open_search(self.query),
                          self.query)
        ui.tabs(bar.y2, self.TABS, self.selected, self.select)
        top = bar.y2 + ui.dp(48)
        view = Box(a.x1, top, a.x2, self.content_bottom(ui))
        queue = [s.id for s in self.songs]
        with ui.scroll(view, f"results{self.selected}", rid="search_results") as y:
            y += ui.dp(8)
            if not (self.songs or self.artists or self.playlists):
                ui.text(a.center.x, y + ui.dp(120), f"Couldn't find “{self.query.strip()}”", 18, t.on_bg, 700,
                        align="center")
                ui.text(a.center.x, y + ui.dp(152), "Try searching again using a different spelling or keyword.",
                        13, t.on_bg2, align="center")
            elif self.selected == 0:
                if self.artists:
                    y = _section(ui, y, "Artists")
                    for ar in self.artists[:3]:
                        y = artist_row(ui, app, y, ar)
                if self.songs:
                    y = _section(ui, y, "Songs")
                    for s in self.songs[:5]:
                        y = song_row(ui, app, y, s, queue)
                if self.playlists:
                    y = _section(ui, y, "Playlists")
                    for p in self.playlists[:4]:
                        y = playlist_row(ui, app, y, p)
            else:
                items = [self.songs, self.artists, self.playlists][self.selected - 1]
                if not items:
                    ui.text(a.center.x, y + ui.dp(80), f"No {self.TABS[self.selected].lower()} found", 16,
                            t.on_bg2, align="center")
                for item in items:
                    h = ui.dp({1: 64, 2: 72, 3: 80}[self.selected])
                    if offscreen(ui, view, y, y + h):
                        y += h
                        continue
                    if isinstance(item, Song):
                        y = song_row(ui, app, y, item, queue)
                    elif isinstance(item, Artist):
                        y = artist_row(ui, app, y, item)
                    else:
                        y = playlist_row(ui, app, y, item)
            ui.spacer(y, y + ui.dp(8))
        self.chrome(ui)


class ArtistScreen(_MusicScreen):
    def __init__(self, app: "MusicApp", artist_id: str) -> None:
        super().__init__(app)
        self.artist = ARTISTS[artist_id]

    def build(self, ui: UI) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        ar = self.artist
        songs = artist_songs(ar.id)
        queue = [s.id for s in songs]
        view = Box(a.x1, a.y1, a.x2, self.content_bottom(ui))
        following = ar.id in app.following
        with ui.scroll(view, "artist", rid="artist_page") as y:
            hero = Box(a.x1, y, a.x2, y + ui.dp(260))
            rounded_picture(ui, hero, ar.id, "scene", t.bg, radius=0, desc=f"{ar.name} cover photo")
            ui.text(ui.left, hero.y2 - ui.dp(64), ar.name, 36, (255, 255, 255), 700, rid="artist_title")
            y = hero.y2 + ui.dp(12)
            ui.text(ui.left, y, f"{fmt_count(ar.listeners)} monthly listeners", 14, t.on_bg2, rid="listeners")
            y += ui.dp(32)
            ui.button(Box(ui.left, y, ui.left + ui.dp(100), y + ui.dp(36)), "Following" if following else "Follow",
                      lambda: app.toggle_follow(ar.id), style="outlined")
            ui.icon_button(ui.right - ui.dp(88), y + ui.dp(18), "shuffle-variant", "Shuffle",
                           lambda: app.play(queue[-1], queue), color=GREEN)
            ui.icon_button(ui.right - ui.dp(28), y + ui.dp(18), "play", "Play", lambda: app.play(queue[0], queue),
                           size=30, color=(0, 0, 0), bg=GREEN, touch=56, rid="play_artist")
            y += ui.dp(60)
            ui.text(ui.left, y, "Popular", 20, t.on_bg, 700)
            y += ui.dp(36)
            for i, s in enumerate(songs):
                y = song_row(ui, app, y, s, queue, number=i + 1)
            ui.spacer(y, y + ui.dp(16))
        ui.icon_button(a.x1 + ui.dp(28), a.y1 + ui.dp(28), "arrow-left", "Navigate up", app.pop,
                       color=(255, 255, 255), bg=(0, 0, 0))
        self.chrome(ui)


class PlaylistScreen(_MusicScreen):
    def __init__(self, app: "MusicApp", playlist_id: str) -> None:
        super().__init__(app)
        self.playlist = playlist(playlist_id)

    def build(self, ui: UI) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        p = self.playlist
        ui.top_bar("", back=app.pop)
        view = Box(a.x1, a.y1 + ui.dp(64), a.x2, self.content_bottom(ui))
        with ui.scroll(view, "playlist", rid="playlist_page") as y:
            s = ui.dp(200)
            ui.picture(Box(a.center.x - s // 2, y, a.center.x + s // 2, y + s), p.id, "scene", desc=p.name,
                       radius=6)
            y += s + ui.dp(16)
            ui.text(ui.left, y, p.name, 24, t.on_bg, 700, rid="playlist_title")
            y += ui.dp(36)
            ui.text(ui.left, y, p.description, 14, t.on_bg2)
            y += ui.dp(24)
            total = sum(song(i).duration for i in p.song_ids) // 60
            ui.text(ui.left, y, f"{len(p.song_ids)} songs · {total} min", 13, t.on_bg2)
            ui.icon_button(ui.right - ui.dp(28), y, "play", "Play", lambda: app.play_playlist(p.id), size=30,
                           color=(0, 0, 0), bg=GREEN, touch=56, rid="play_playlist")
            y += ui.dp(40)
            for sid in p.song_ids:
                y = song_row(ui, app, y, song(sid), list(p.song_ids), playlist_name=p.name)
            ui.spacer(y, y + ui.dp(16))
        self.chrome(ui)


class LibraryScreen(_MusicScreen):
    tab = 2

    def build(self, ui: UI) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        ui.top_bar("Your Library", back=app.pop)
        view = Box(a.x1, a.y1 + ui.dp(64), a.x2, self.content_bottom(ui))
        hist = list(dict.fromkeys(tr.track_id for tr in reversed(app.phone.state.music.history)))
        with ui.scroll(view, "library") as y:
            y = _section(ui, y, "Recently played")
            if not hist:
                ui.text(ui.left, y, "Songs you play will appear here.", 14, t.on_bg2)
                y += ui.dp(32)
            for sid in hist:
                y = song_row(ui, app, y, song(sid), hist)
            y = _section(ui, y, "Playlists")
            for p in PLAYLISTS:
                y = playlist_row(ui, app, y, p)
        self.chrome(ui)


class PlayerScreen(Screen):
    def build(self, ui: UI) -> None:
        app: MusicApp = self.app  # type: ignore[assignment]
        st = app.phone.state.music
        t = ui.theme
        a = ui.area
        tr = st.now_playing
        top = mix(t.bg, (40, 120, 80), 0.35)
        ui.root.paint = lambda c, b: _gradient(c, b, top, t.bg)
        ui.icon_button(a.x1 + ui.dp(28), a.y1 + ui.dp(32), "chevron-down", "Minimize player", app.pop)
        ui.text(a.center.x, a.y1 + ui.dp(14), "PLAYING FROM", 11, t.on_bg2, 500, align="center")
        ui.text(a.center.x, a.y1 + ui.dp(32), st.playlist or "Search", 13, t.on_bg, 700, align="center")
        ui.icon_button(a.x2 - ui.dp(28), a.y1 + ui.dp(32), "dots-vertical", "More options",
                       lambda: app.toast("Song options"))
        if tr is None:
            ui.text(a.center.x, a.center.y, "Nothing playing", 18, t.on_bg2, align="center")
            return
        y = a.y1 + ui.dp(88)
        side = ui.right - ui.left
        rounded_picture(ui, Box(ui.left, y, ui.right, y + side), tr.track_id, "abstract", t.bg, radius=8,
                        desc=f"Album art for {tr.title}")
        y += side + ui.dp(28)
        ui.text(ui.left, y, tr.title, 24, t.on_bg, 700, max_width=side - ui.dp(48), rid="player_title")
        ui.text(ui.left, y + ui.dp(34), tr.artist, 16, t.on_bg2, rid="player_artist",
                on_tap=lambda: app.open_artist(_SONG[tr.track_id].artist_id) if tr.track_id in _SONG else None)
        liked = tr.track_id in app.liked
        ui.icon_button(ui.right - ui.dp(16), y + ui.dp(24), "heart" if liked else "heart-outline",
                       "Remove from Liked Songs" if liked else "Like", lambda: app.toggle_like(tr.track_id),
                       color=GREEN if liked else t.on_bg)
        y += ui.dp(76)
        dur = _SONG[tr.track_id].duration if tr.track_id in _SONG else 200
        pos = dur * (((len(st.history) * 37) % 80 + 10)) // 100
        bar = Box(ui.left, y, ui.right, y + ui.dp(4))
        rect(ui, bar, t.surface2, radius=2)
        rect(ui, Box(bar.x1, bar.y1, bar.x1 + bar.width * pos // dur, bar.y2), t.on_bg, radius=2)
        ui.text(ui.left, y + ui.dp(10), f"{pos // 60}:{pos % 60:02d}", 12, t.on_bg2)
        ui.text(ui.right, y + ui.dp(10), f"{dur // 60}:{dur % 60:02d}", 12, t.on_bg2, align="right")
        y += ui.dp(64)
        cx = a.center.x
        ui.icon_button(cx - ui.dp(150), y, "shuffle-variant", "Shuffle", lambda: app.toast("Shuffle on"))
        ui.icon_button(cx - ui.dp(80), y, "skip-previous", "Previous", app.previous, size=36)
        ui.icon_button(cx, y, "pause" if st.playing else "play", "Pause" if st.playing else "Play", app.toggle_play,
                       size=36, color=(0, 0, 0) if not t.dark else (0, 0, 0), bg=(255, 255, 255) if t.dark else
                       mix(t.on_bg, t.bg, 0.9), touch=72, rid="play_pause")
        ui.icon_button(cx + ui.dp(80), y, "skip-next", "Next", app.next, size=36)
        ui.icon_button(cx + ui.dp(150), y, "repeat", "Repeat", lambda: app.toast("Repeat on"))

    def on_back(self) -> bool:
        return False


def _gradient(c: Canvas, b: Box, top, bottom) -> None:
    steps = 24
    h = b.height // 2
    for i in range(steps):
        c.rect(Box(b.x1, b.y1 + h * i // steps, b.x2, b.y1 + h * (i + 1) // steps), fill=mix(top, bottom, i / steps))
    c.rect(Box(b.x1, b.y1 + h, b.x2, b.y2), fill=bottom)


class MusicApp(SearchApp, name="Music", package="com.sim.music", icon="music-circle", color=(29, 185, 84)):
    search_screen = SearchScreen
    results_screen = ResultsScreen

    def __init__(self, phone) -> None:
        super().__init__(phone)
        self.queue: list[str] = []
        self.liked: set[str] = set()
        self.following: set[str] = set()

    def root(self) -> Screen:
        return HomeScreen(self)

    def recent(self) -> list[Song]:
        """Three recently played songs, chosen by the phone's seed."""
        pool = [s for s in SONGS if not s.id.startswith("s-ag")]
        seed = self.phone.seed
        return [pool[(seed * 7 + k * 11) % len(pool)] for k in range(3)]

    # navigation
    def search_log(self) -> list[str]:
        return self.phone.state.music.searches

    def open_artist(self, artist_id: str) -> None:
        self.phone.state.music.viewed_artists.append(ARTISTS[artist_id].name)
        self.push(ArtistScreen(self, artist_id))

    def open_playlist(self, playlist_id: str) -> None:
        self.push(PlaylistScreen(self, playlist_id))

    def open_library(self) -> None:
        self.push(LibraryScreen(self))

    def open_player(self) -> None:
        self.push(PlayerScreen(self))

    # playback
    def play(self, song_id: str, queue: list[str] | None = None, playlist_name: str | None = None) -> None:
        st = self.phone.state.music
        s = _SONG[song_id]
        self.queue = list(queue or [song_id])
        st.now_playing = s.track()
        st.playing = True
        st.playlist = playlist_name
        st.history.append(s.track())

    def play_playlist(self, playlist_id: str) -> None:
        p = playlist(playlist_id)
        self.play(p.song_ids[0], list(p.song_ids), p.name)

    def toggle_play(self) -> None:
        st = self.phone.state.music
        if st.now_playing is not None:
            st.playing = not st.playing

    def _step(self, d: int) -> None:
        st = self.phone.state.music
        if st.now_playing is None or not self.queue:
            return
        cur = st.now_playing.track_id
        i = self.queue.index(cur) if cur in self.queue else 0
        nxt = self.queue[(i + d) % len(self.queue)]
        st.now_playing = _SONG[nxt].track()
        st.playing = True
        st.history.append(_SONG[nxt].track())

    def next(self) -> None:
        self._step(1)

    def previous(self) -> None:
        self._step(-1)

    def toggle_like(self, song_id: str) -> None:
        if song_id in self.liked:
            self.liked.discard(song_id)
            self.toast("Removed from Liked Songs")
        else:
            self.liked.add(song_id)
            self.toast("Added to Liked Songs")

    def toggle_follow(self, artist_id: str) -> None:
        self.following ^= {artist_id}


APPS = [MusicApp]

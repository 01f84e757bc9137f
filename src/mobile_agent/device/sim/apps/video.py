"""Video: a video-sharing app. Home feed with topic chips and a search icon; search results with
thumbnails, titles, channels and views; a video page with the player, Subscribe, Like, Share and a
Comments section where one can post; subscriptions and library tabs.

The catalog is module data (:data:`VIDEOS`, :func:`about_curry`, :func:`search_videos`) so that
benchmark checks know which videos are about Stephen Curry.
"""

from __future__ import annotations

from dataclasses import dataclass

from mobile_agent.device.sim.apps._kit import (QueryResults, QueryScreen, SearchApp, avatar, back_bar, by_words,
                                               chip_row, fmt_count, offscreen, query_bar, rect, rounded_picture)
from mobile_agent.device.sim.phone import Screen
from mobile_agent.device.sim.render import Canvas, text_width, wrap
from mobile_agent.device.sim.state import VideoComment
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

RED = (255, 0, 0)
YOU = "@you"


@dataclass(frozen=True)
class Video:
    id: str
    title: str
    channel: str
    views: int
    age: str  # "3 months ago"
    duration: str  # "12:31"
    likes: int
    tags: tuple[str, ...]
    subjects: tuple[str, ...]  # who or what the video is about
    comments: tuple[tuple[str, str, int], ...]  # (handle, text, likes)


def _v(id: str, title: str, channel: str, views: int, age: str, duration: str, likes: int, tags: str,
       subjects: str, comments: str) -> Video:
    parsed = tuple((h.strip(), t.strip(), (likes // (40 + i * 25)))
                   for i, (h, t) in enumerate(part.split(":", 1) for part in comments.split("|") if part.strip()))
    return Video(id, title, channel, views, age, duration, likes, tuple(tags.split()),
                 tuple(s.strip() for s in subjects.split(",") if s.strip()), parsed)


CURRY = "Stephen Curry"
VIDEOS: list[Video] = [
    _v("v-curry-01", "Stephen Curry's Best Threes of the 2023-24 Season", "NBA Highlights Daily", 2_430_000,
       "3 months ago", "12:31", 41_000, "stephen steph curry warriors nba basketball three pointers highlights",
       CURRY, "@hoopfan23: the range is unreal|@bay.area.ben: greatest shooter ever, no debate"
       "|@kelly.m: that logo three at 4:10|@coach.d: footwork is the secret"),
    _v("v-curry-02", "Stephen Curry 62 Points Full Highlights vs Trail Blazers", "Hoops Central", 5_120_000,
       "2 years ago", "10:02", 88_000, "stephen steph curry warriors nba basketball career high highlights", CURRY,
       "@dubnation: I was at this game!|@mike_l: 62 and made it look easy|@tina.r: chef curry cooking"),
    _v("v-curry-03", "How Stephen Curry Trains: Inside His Shooting Workout", "Court Science", 1_210_000,
       "8 months ago", "15:48", 23_000, "stephen steph curry training workout shooting drills basketball", CURRY,
       "@young.baller: trying this tomorrow|@physio.pat: the warm-up routine is gold"),
    _v("v-curry-04", "Steph Curry Top 10 Game Winners of His Career", "NBA Highlights Daily", 3_380_000,
       "1 year ago", "9:12", 52_000, "stephen steph curry warriors nba clutch game winners top 10", CURRY,
       "@clutch.city: number 3 still gives me chills|@ana.s: night night"),
    _v("v-curry-05", "Stephen Curry Postgame Interview after Warriors Win", "Bay Area Sports Desk", 402_000,
       "5 days ago", "6:27", 7_800, "stephen steph curry interview warriors postgame press nba", CURRY,
       "@reporter.jo: always so humble|@gsw4life: leader of the team"),
    _v("v-curry-06", "Curry vs. LeBron: Their Best Finals Duels", "Hoops Central", 2_870_000, "1 year ago",
       "18:05", 39_000, "stephen steph curry lebron james finals nba basketball rivalry", f"{CURRY}, LeBron James",
       "@finals.fan: the 2016 series was insane|@lbj.curry: two legends"),
    _v("v-warriors-01", "Warriors vs Kings Full Game Highlights", "NBA Highlights Daily", 1_640_000,
       "2 weeks ago", "11:44", 18_000, "warriors kings nba basketball game highlights", "Golden State Warriors",
       "@kingsfan: we'll get them next time|@bayarea: what a comeback"),
    _v("v-lakers-01", "Lakers vs Nuggets Full Game Highlights", "NBA Highlights Daily", 2_010_000, "1 day ago",
       "12:03", 26_000, "lakers nuggets nba basketball game highlights lebron", "Los Angeles Lakers",
       "@purple.gold: defense won this one|@mile.high: rematch please"),
    _v("v-cook-01", "Easy Chicken Curry in 20 Minutes", "Home Kitchen Stories", 6_700_000, "3 years ago",
       "8:45", 120_000, "chicken curry recipe cooking dinner easy indian", "Chicken curry",
       "@foodie.li: made this tonight, family loved it|@spice.queen: add a pinch of garam masala"),
    _v("v-lofi-01", "lofi hip hop radio - beats to relax/study to", "Lo-fi Owl", 12_400_000, "1 year ago",
       "LIVE", 310_000, "lofi music relax study chill beats", "Lo-fi music",
       "@student.k: finals week companion|@night.owl: 3am vibes"),
    _v("v-travel-01", "48 Hours in Hangzhou: West Lake & Tea Fields", "Wander Lens", 860_000, "4 months ago",
       "21:17", 19_000, "hangzhou west lake travel china vlog tea", "Hangzhou",
       "@traveller.ann: adding this to my list|@li.wei: my hometown!"),
    _v("v-tech-01", "Honest Review: The Best Budget Phone of the Year", "Tech Minute", 1_950_000, "2 months ago",
       "14:09", 44_000, "phone review tech smartphone budget", "Smartphones",
       "@gadget.guy: battery test was helpful|@sara.t: bought it, no regrets"),
    _v("v-pets-01", "Funniest Cats of the Month Compilation", "Pet Planet", 4_300_000, "3 weeks ago", "10:30",
       95_000, "cats funny pets compilation cute", "Cats",
       "@cat.mom: the one in the box|@dan: I can't stop laughing"),
    _v("v-guitar-01", "Guitar Lesson: 5 Easy Songs for Beginners", "Strum School", 730_000, "6 months ago",
       "16:40", 15_000, "guitar lesson music beginner songs", "Guitar",
       "@newbie.nick: finally learned the first one|@music.mel: great teacher"),
]

CHANNEL_SUBS = {"NBA Highlights Daily": 8_400_000, "Hoops Central": 3_100_000, "Court Science": 920_000,
                "Bay Area Sports Desk": 210_000, "Home Kitchen Stories": 5_600_000, "Lo-fi Owl": 13_800_000,
                "Wander Lens": 1_300_000, "Tech Minute": 2_700_000, "Pet Planet": 4_900_000,
                "Strum School": 640_000}
_VIDEO = {v.id: v for v in VIDEOS}
CURRY_VIDEO_IDS = [v.id for v in VIDEOS if CURRY in v.subjects]
TOPICS = ["All", "Basketball", "Music", "Cooking", "Travel", "Tech", "Pets"]
_STOP = {"video", "videos", "about", "the", "of", "a", "watch", "search", "for", "on"}


def video(video_id: str) -> Video:
    return _VIDEO[video_id]


def about_curry(video_id: str) -> bool:
    """True when the video is about Stephen Curry (what the Curry tasks look for)."""
    v = _VIDEO.get(video_id)
    return v is not None and CURRY in v.subjects


def search_videos(query: str) -> list[Video]:
    """Videos matching ``query`` by words of the title, tags or channel; best first."""
    return by_words(query, VIDEOS, _STOP, lambda v: (v.title, " ".join(v.tags), v.channel))


# ---------------------------------------------------------------------------------------------- widgets
def _thumb(ui: UI, box: Box, v: Video, radius: float = 12) -> None:
    rounded_picture(ui, box, v.id, "scene", ui.theme.bg, radius=radius, desc=f"Thumbnail: {v.title}")
    px = ui.dp(12)
    w = text_width(v.duration, px, 500) + ui.dp(8)
    badge = Box(box.x2 - w - ui.dp(6), box.y2 - ui.dp(24), box.x2 - ui.dp(6), box.y2 - ui.dp(6))
    live = v.duration == "LIVE"
    rect(ui, badge, (204, 0, 0) if live else (20, 20, 20), radius=4)
    ui.text(badge.center.x, badge.y1 + ui.dp(2), v.duration, 12, (255, 255, 255), 500, align="center")


def _meta(v: Video) -> str:
    return f"{v.channel} · {fmt_count(v.views)} views · {v.age}"


def video_card(ui: UI, app: "VideoApp", y: int, v: Video) -> int:
    """A home-feed card: full-width thumbnail, then avatar, title and channel · views · age."""
    t = ui.theme
    a = ui.area
    th = a.width * 9 // 16
    box = Box(a.x1, y, a.x2, y + th + ui.dp(92))
    with ui.group(box, on_tap=lambda: app.open_video(v.id), rid="video_card"):
        _thumb(ui, Box(a.x1, y, a.x2, y + th), v, radius=0)
        avatar(ui, ui.left + ui.dp(18), y + th + ui.dp(30), 18, v.channel)
        x = ui.left + ui.dp(48)
        ui.text(x, y + th + ui.dp(12), v.title, 15, t.on_bg, 500, lines=2, max_width=ui.right - x - ui.dp(24),
                rid="video_title")
        ui.text(x, y + th + ui.dp(56), _meta(v), 12, t.on_bg2, max_width=ui.right - x - ui.dp(24),
                rid="video_meta")
    return box.y2


def result_row(ui: UI, app: "VideoApp", y: int, v: Video) -> int:
    """A search result: thumbnail on the left; title, channel and views on the right."""
    t = ui.theme
    a = ui.area
    tw = ui.dp(168)
    th = tw * 9 // 16
    box = Box(a.x1, y, a.x2, y + th + ui.dp(16))
    with ui.group(box, on_tap=lambda: app.open_video(v.id), rid="video_result"):
        _thumb(ui, Box(ui.left, y + ui.dp(8), ui.left + tw, y + ui.dp(8) + th), v, radius=8)
        x = ui.left + tw + ui.dp(12)
        mw = ui.right - x
        ui.text(x, y + ui.dp(8), v.title, 14, t.on_bg, 500, lines=3, max_width=mw, rid="video_title")
        ui.text(x, y + ui.dp(64), v.channel, 12, t.on_bg2, max_width=mw, rid="video_channel")
        ui.text(x, y + ui.dp(80), f"{fmt_count(v.views)} views · {v.age}", 12, t.on_bg2, max_width=mw,
                rid="video_views")
    return box.y2


# ---------------------------------------------------------------------------------------------- screens
class _Tabbed(Screen["VideoApp"]):
    tab = 0

    def nav(self, ui: UI) -> int:
        app = self.app
        ui.bottom_nav([("home-variant-outline", "Home", lambda: app.reset()),
                       ("animation-play-outline", "Subscriptions", app.open_subscriptions),
                       ("play-box-multiple-outline", "Library", app.open_library)], self.tab)
        return ui.area.y2 - ui.dp(72)


def _logo_bar(ui: UI, app: "VideoApp") -> int:
    t = ui.theme
    a = ui.area
    y = a.y1
    cy = y + ui.dp(28)
    rect(ui, Box(ui.left, cy - ui.dp(11), ui.left + ui.dp(32), cy + ui.dp(11)), RED, radius=6)
    ui.icon(ui.left + ui.dp(16), cy, "play", 18, (255, 255, 255))
    ui.text(ui.left + ui.dp(38), cy - ui.dp(13), "Video", 20, t.on_bg, 700, rid="logo")
    ui.icon_button(a.x2 - ui.dp(28), cy, "magnify", "Search", app.open_search)
    ui.icon_button(a.x2 - ui.dp(76), cy, "bell-outline", "Notifications", lambda: app.toast("No new notifications"))
    ui.icon_button(a.x2 - ui.dp(124), cy, "cast", "Cast", lambda: app.toast("No devices found"))
    return y + ui.dp(56)


class HomeScreen(_Tabbed):
    tab = 0

    def __init__(self, app: "VideoApp", topic: str = "All") -> None:
        super().__init__(app)
        self.topic = topic

    def set_topic(self, topic: str) -> None:
        self.topic = topic
        self.scroll.pop("feed", None)

    def build(self, ui: UI) -> None:
        app = self.app
        a = ui.area
        y = _logo_bar(ui, app)
        chip_row(ui, y + ui.dp(4), [(tp, None, lambda tp=tp: self.set_topic(tp)) for tp in TOPICS], "topics",
                 selected=self.topic)
        y += ui.dp(44)
        bottom = self.nav(ui)
        view = Box(a.x1, y, a.x2, bottom)
        with ui.scroll(view, "feed", rid="feed") as yy:
            h = a.width * 9 // 16 + ui.dp(92)
            for v in app.feed(self.topic):
                if offscreen(ui, view, yy, yy + h):
                    yy += h
                    continue
                yy = video_card(ui, app, yy, v)


class SearchScreen(QueryScreen):
    SUGGEST = ["stephen curry highlights", "lakers game", "lofi music", "chicken curry recipe", "hangzhou travel"]

    def build(self, ui: UI) -> None:
        app: VideoApp = self.app  # type: ignore[assignment]
        a = ui.area
        bar = query_bar(ui, app.pop, "Search Video", self.submit, rid="search_edit_text", height=64, margin=10,
                        right=60)
        ui.icon_button(bar.x2 - ui.dp(28), bar.center.y, "microphone", "Search with your voice",
                       lambda: app.toast("Voice search is off"))
        with ui.scroll(Box(a.x1, bar.y2, a.x2, a.y2), "suggest") as y:
            recent = list(dict.fromkeys(reversed(app.phone.state.video.searches)))[:4]
            for q in recent:
                y = ui.list_row(y, q, icon="history", on_tap=lambda q=q: app.run_search(q)).y2
            for q in self.SUGGEST:
                if q not in recent:
                    y = ui.list_row(y, q, icon="magnify", on_tap=lambda q=q: app.run_search(q)).y2


class ResultsScreen(QueryResults):
    def __init__(self, app: "VideoApp", query: str) -> None:
        super().__init__(app, query)
        self.results = search_videos(query)

    def build(self, ui: UI) -> None:
        app: VideoApp = self.app  # type: ignore[assignment]
        t = ui.theme
        a = ui.area
        bar = back_bar(ui, app.pop, 64)
        pill = Box(bar.x1 + ui.dp(56), bar.y1 + ui.dp(10), bar.x2 - ui.dp(60), bar.y2 - ui.dp(10))
        with ui.group(pill, rid="search_box", on_tap=lambda: app.open_search(self.query),
                      paint=lambda c, b: c.rect(b, fill=t.field, radius=b.height // 2)):
            ui.text(pill.x1 + ui.dp(16), pill.center.y - ui.dp(10), self.query, 15, t.on_bg,
                    max_width=pill.width - ui.dp(32), rid="search_query")
        ui.icon_button(bar.x2 - ui.dp(28), bar.center.y, "tune-variant", "Search filters",
                       lambda: app.toast("Filters"))
        view = Box(a.x1, bar.y2, a.x2, a.y2)
        with ui.scroll(view, "results", rid="results") as y:
            if not self.results:
                ui.text(a.center.x, y + ui.dp(120), "No results found", 18, t.on_bg, align="center")
                ui.text(a.center.x, y + ui.dp(150), "Try different keywords or remove search filters", 14,
                        t.on_bg2, align="center")
                return
            tw = ui.dp(168)
            h = tw * 9 // 16 + ui.dp(16)
            for v in self.results:
                if offscreen(ui, view, y, y + h):
                    y += h
                    continue
                y = result_row(ui, app, y, v)
            ui.spacer(y, y + ui.dp(8))


class WatchScreen(Screen["VideoApp"]):
    def __init__(self, app: "VideoApp", video_id: str) -> None:
        super().__init__(app)
        self.video = video(video_id)
        self.paused = False
        self.composing = False
        self.confirm_unsub = False
        self._comments_offset = 0

    def build(self, ui: UI) -> None:
        app = self.app
        st = app.phone.state.video
        t = ui.theme
        a = ui.area
        v = self.video
        ph = a.width * 9 // 16
        player = Box(a.x1, a.y1, a.x2, a.y1 + ph)
        rounded_picture(ui, player, v.id, "scene", t.bg, radius=0, desc=f"Video player: {v.title}")
        ui.icon_button(player.center.x, player.center.y, "play" if self.paused else "pause",
                       "Play" if self.paused else "Pause", self.toggle_pause, size=36, color=(255, 255, 255),
                       bg=(30, 30, 30), touch=64, rid="player_play_pause")
        ui.icon_button(player.x1 + ui.dp(24), player.y1 + ui.dp(24), "chevron-down", "Minimize", app.pop,
                       color=(255, 255, 255))
        ui.icon_button(player.x2 - ui.dp(24), player.y2 - ui.dp(24), "fullscreen", "Full screen",
                       lambda: app.toast("Rotate your phone for full screen"), color=(255, 255, 255))
        rect(ui, Box(player.x1, player.y2 - ui.dp(3), player.x2, player.y2), (90, 90, 90))
        rect(ui, Box(player.x1, player.y2 - ui.dp(3), player.x1 + player.width * 3 // 10, player.y2), RED)
        bottom = a.y2 - (ui.dp(68) if self.composing else 0)
        view = Box(a.x1, player.y2, a.x2, bottom)
        liked = v.id in st.liked
        subscribed = v.channel in st.subscribed
        posted = [c.text for c in st.comments if c.video_id == v.id]
        with ui.scroll(view, "watch", rid="watch_list") as y:
            top = y
            y += ui.dp(12)
            ui.text(ui.left, y, v.title, 18, t.on_bg, 500, lines=2, rid="video_title")
            y += ui.dp(52) if text_width(v.title, ui.dp(18), 500) > ui.right - ui.left else ui.dp(28)
            ui.text(ui.left, y, f"{v.views:,} views · {v.age}", 12, t.on_bg2, rid="video_views")
            y += ui.dp(28)
            # channel row
            avatar(ui, ui.left + ui.dp(18), y + ui.dp(20), 18, v.channel)
            ui.text(ui.left + ui.dp(46), y + ui.dp(4), v.channel, 15, t.on_bg, 500, max_width=ui.dp(200),
                    rid="channel_name")
            subs = CHANNEL_SUBS.get(v.channel, 100_000) + (1 if subscribed else 0)
            ui.text(ui.left + ui.dp(46), y + ui.dp(24), f"{fmt_count(subs)} subscribers", 12, t.on_bg2)
            sb = Box(ui.right - ui.dp(116 if subscribed else 100), y + ui.dp(2), ui.right, y + ui.dp(38))
            if subscribed:
                ui.button(sb, "Subscribed", self.ask_unsubscribe, style="tonal", icon="bell-outline",
                          rid="subscribe_button")
            else:
                ui.button(sb, "Subscribe", lambda: app.subscribe(v.channel), color=RED,
                          rid="subscribe_button")
            y += ui.dp(52)
            # actions
            like_label = fmt_count(v.likes + (1 if liked else 0))
            x = ui.left
            lw = text_width(like_label, ui.dp(14), 500) + ui.dp(62)
            pill_bg = t.surface2
            like_box = Box(x, y, x + lw, y + ui.dp(36))
            dis_box = Box(like_box.x2, y, like_box.x2 + ui.dp(52), y + ui.dp(36))
            rect(ui, Box(like_box.x1, y, dis_box.x2, like_box.y2), pill_bg, radius=18)
            _action(ui, like_box, "thumb-up" if liked else "thumb-up-outline", like_label, "Like",
                    lambda: app.toggle_like(v.id), selected=liked)
            rect(ui, Box(like_box.x2, y + ui.dp(8), like_box.x2 + 1, y + ui.dp(28)), t.divider)
            _action(ui, dis_box, "thumb-down-outline", "", "Dislike", lambda: app.toast("Thanks for the feedback"))
            x = dis_box.x2 + ui.dp(8)
            for label, icon, fn in (("Share", "share-outline", lambda: app.toast("Link copied")),
                                    ("Download", "download-outline", lambda: app.toast("Download started")),
                                    ("Save", "bookmark-outline", lambda: app.toast("Saved to Watch later"))):
                w = text_width(label, ui.dp(14), 500) + ui.dp(54)
                b = Box(x, y, x + w, y + ui.dp(36))
                if b.x2 <= a.x2:
                    rect(ui, b, pill_bg, radius=18)
                    _action(ui, b, icon, label, "", fn)
                x = b.x2 + ui.dp(8)
            y += ui.dp(52)
            ui.divider(y)
            # comments
            self._comments_offset = y - top
            y += ui.dp(12)
            n = len(v.comments) * 97 + len(posted)
            ui.text(ui.left, y, "Comments", 16, t.on_bg, 700, rid="comments_header")
            ui.text(ui.left + ui.dp(92), y + ui.dp(2), fmt_count(n), 14, t.on_bg2, rid="comments_count")
            y += ui.dp(32)
            if not self.composing:
                row = Box(ui.left, y, ui.right, y + ui.dp(40))
                with ui.group(row, rid="add_comment", on_tap=self.start_comment):
                    avatar(ui, row.x1 + ui.dp(16), row.center.y, 14, "you")
                    fb = Box(row.x1 + ui.dp(40), row.y1 + ui.dp(2), row.x2, row.y2 - ui.dp(2))
                    rect(ui, fb, t.field, radius=18)
                    ui.text(fb.x1 + ui.dp(14), fb.center.y - ui.dp(9), "Add a comment…", 14, t.on_bg2)
                y = row.y2 + ui.dp(12)
            rows = [(YOU, text, 0, True) for text in reversed(posted)] + [(h, tx, lk, False) for h, tx, lk in
                                                                          v.comments]
            for handle, text, likes, mine in rows:
                avatar(ui, ui.left + ui.dp(16), y + ui.dp(18), 14, handle)
                x = ui.left + ui.dp(44)
                ui.text(x, y + ui.dp(2), f"{handle} · {'just now' if mine else '1 week ago'}", 12, t.on_bg2,
                        rid="comment_author")
                mw = ui.right - x
                nl = min(4, len(wrap(text, ui.dp(14), 400, mw)))
                ui.text(x, y + ui.dp(20), text, 14, t.on_bg, lines=nl, max_width=mw, rid="comment_text")
                yy = y + ui.dp(24) + nl * int(ui.dp(14) * 1.3)
                ui.icon(x + ui.dp(8), yy + ui.dp(8), "thumb-up-outline", 16, t.on_bg2)
                ui.text(x + ui.dp(24), yy, fmt_count(likes) if likes else "", 12, t.on_bg2)
                y = yy + ui.dp(28)
            ui.divider(y)
            y += ui.dp(12)
            ui.text(ui.left, y, "Up next", 16, t.on_bg, 700)
            y += ui.dp(32)
            h = ui.dp(168) * 9 // 16 + ui.dp(16)
            for other in app.related(v.id):
                if offscreen(ui, view, y, y + h):
                    y += h
                    continue
                y = result_row(ui, app, y, other)
            ui.spacer(y, y + ui.dp(8))
        if self.composing:
            comp = Box(a.x1, bottom, a.x2, a.y2)
            rect(ui, comp, t.surface)
            avatar(ui, ui.left + ui.dp(14), comp.center.y, 14, "you")
            ui.text_field(Box(ui.left + ui.dp(36), comp.y1 + ui.dp(10), ui.right - ui.dp(104), comp.y2 - ui.dp(10)),
                          "comment", "Add a comment…", on_submit=self.post, rid="comment_input", size=15)
            has = bool(self.fields.get("comment", "").strip())
            ui.button(Box(ui.right - ui.dp(96), comp.y1 + ui.dp(14), ui.right, comp.y2 - ui.dp(14)), "Comment",
                      self.post, enabled=has, rid="comment_send")
        if self.confirm_unsub:
            ui.dialog(f"Unsubscribe from {v.channel}?", "You won't see new videos from this channel in your feed.",
                      [("Cancel", self.close_dialog), ("Unsubscribe", self.unsubscribe)], on_dismiss=self.close_dialog)

    # actions
    def toggle_pause(self) -> None:
        self.paused = not self.paused

    def start_comment(self) -> None:
        self.composing = True
        self.app.phone.focus_field(self, "comment", on_submit=self.post)

    def post(self) -> None:
        text = self.fields.get("comment", "").strip()
        if not text:
            return
        app = self.app
        app.phone.state.video.comments.append(VideoComment(self.video.id, text))
        self.fields["comment"] = ""
        self.composing = False
        app.phone.clear_focus()
        self.scroll["watch"] = self._comments_offset  # show the comments, the new one on top
        app.toast("Comment posted")

    def ask_unsubscribe(self) -> None:
        self.confirm_unsub = True

    def close_dialog(self) -> None:
        self.confirm_unsub = False

    def unsubscribe(self) -> None:
        self.confirm_unsub = False
        self.app.unsubscribe(self.video.channel)

    def on_back(self) -> bool:
        if self.confirm_unsub:
            self.confirm_unsub = False
            return True
        if self.composing:
            self.composing = False
            self.fields.pop("comment", None)
            return True
        return False


def _action(ui: UI, box: Box, icon: str, label: str, desc: str, fn, selected: bool = False) -> None:
    t = ui.theme
    px = ui.dp(14)

    def paint(c: Canvas, b: Box) -> None:
        isz = ui.dp(20)
        if label:
            tw = text_width(label, px, 500)
            x0 = b.center.x - (isz + ui.dp(6) + tw) // 2
            c.icon(x0 + isz // 2, b.center.y, icon, isz, t.on_bg)
            c.text(x0 + isz + ui.dp(6), b.center.y, label, px, t.on_bg, 500, anchor="lm")
        else:
            c.icon(b.center.x, b.center.y, icon, isz, t.on_bg)

    ui.add(Node(box, cls="android.widget.Button", text=label, desc=desc, clickable=True, on_tap=fn, paint=paint,
                selected=selected, rid=f"action_{(desc or label).lower()}"))


class SubscriptionsScreen(_Tabbed):
    tab = 1

    def build(self, ui: UI) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        y = _logo_bar(ui, app)
        bottom = self.nav(ui)
        subs = app.phone.state.video.subscribed
        view = Box(a.x1, y, a.x2, bottom)
        with ui.scroll(view, "subs") as yy:
            if not subs:
                ui.icon(a.center.x, yy + ui.dp(140), "animation-play-outline", 64, t.on_bg2)
                ui.text(a.center.x, yy + ui.dp(190), "Don't miss new videos", 18, t.on_bg, align="center")
                ui.text(a.center.x, yy + ui.dp(220), "Subscribe to channels to see their latest videos here", 14,
                        t.on_bg2, align="center")
                return
            for ch in subs:
                yy = ui.list_row(yy, ch, f"{fmt_count(CHANNEL_SUBS.get(ch, 0))} subscribers",
                                 icon="account-circle", on_tap=lambda ch=ch: app.run_search(ch)).y2
            for v in VIDEOS:
                if v.channel in subs:
                    h = a.width * 9 // 16 + ui.dp(92)
                    yy = yy + h if offscreen(ui, view, yy, yy + h) else video_card(ui, app, yy, v)


class LibraryScreen(_Tabbed):
    tab = 2

    def build(self, ui: UI) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        y = _logo_bar(ui, app)
        bottom = self.nav(ui)
        st = app.phone.state.video
        with ui.scroll(Box(a.x1, y, a.x2, bottom), "library") as yy:
            ui.text(ui.left, yy + ui.dp(8), "History", 18, t.on_bg, 700)
            yy += ui.dp(40)
            hist = list(dict.fromkeys(reversed(st.watched)))
            if not hist:
                ui.text(ui.left, yy, "Videos you watch will appear here.", 14, t.on_bg2)
                yy += ui.dp(32)
            for vid in hist:
                yy = result_row(ui, app, yy, video(vid))
            ui.text(ui.left, yy + ui.dp(8), f"Liked videos · {len(st.liked)}", 18, t.on_bg, 700)
            yy += ui.dp(40)
            for vid in st.liked:
                yy = result_row(ui, app, yy, video(vid))


class VideoApp(SearchApp, name="Video", package="com.sim.video",
               icon="play-circle", color=(230, 33, 23), root=HomeScreen):
    search_screen = SearchScreen
    results_screen = ResultsScreen

    def feed(self, topic: str) -> list[Video]:
        """The home feed for a topic chip; "All" is every video in an order set by the seed."""
        if topic != "All":
            key = {"Basketball": "nba", "Music": "music", "Cooking": "recipe", "Travel": "travel", "Tech": "tech",
                   "Pets": "pets"}[topic]
            return [v for v in VIDEOS if key in v.tags]
        seed = self.phone.seed
        k = seed % len(VIDEOS)
        order = VIDEOS[k:] + VIDEOS[:k]
        return order[::2] + order[1::2]

    def related(self, video_id: str) -> list[Video]:
        v = video(video_id)
        tags = set(v.tags)
        scored = sorted(((-len(tags & set(o.tags)), i, o) for i, o in enumerate(VIDEOS) if o.id != video_id))
        return [o for _, _, o in scored[:4]]

    def search_log(self) -> list[str]:
        return self.phone.state.video.searches

    def open_video(self, video_id: str) -> None:
        self.phone.state.video.watched.append(video_id)
        if isinstance(self.screen, WatchScreen):
            self.stack.pop()  # the player replaces the video being watched, as "Up next" does
        self.push(WatchScreen(self, video_id))

    def open_subscriptions(self) -> None:
        self.reset(SubscriptionsScreen(self))
        self.stack.insert(0, self.root())

    def open_library(self) -> None:
        self.reset(LibraryScreen(self))
        self.stack.insert(0, self.root())

    def toggle_like(self, video_id: str) -> None:
        liked = self.phone.state.video.liked
        if video_id in liked:
            liked.remove(video_id)
        else:
            liked.append(video_id)
            self.toast("Added to Liked videos")

    def subscribe(self, channel: str) -> None:
        subs = self.phone.state.video.subscribed
        if channel not in subs:
            subs.append(channel)
            self.toast("Subscription added")

    def unsubscribe(self, channel: str) -> None:
        subs = self.phone.state.video.subscribed
        if channel in subs:
            subs.remove(channel)
            self.toast("Subscription removed")


APPS = [VideoApp]

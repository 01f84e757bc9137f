"""Clips: a full-screen feed of short vertical videos. Swipe up for the next clip, down for the
previous one; a right-hand column with Like, Comments and Share; a comment sheet with a text
field and Send.

The clip catalog is module data (:data:`CLIPS`, :func:`is_cat`, :func:`feed_order`) so benchmark
checks can tell which clips show a pet cat. The feed order comes from the phone's seed: the first
clip is never a cat, and at least five of the first twelve are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from PIL import Image

from mobile_agent.device.sim.apps._kit import avatar, fmt_count, rect
from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import Canvas, ellipsize, picture, text_width, wrap
from mobile_agent.device.sim.state import ClipComment
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

WHITE = (255, 255, 255)
LIKE_RED = (254, 44, 85)
BLACK = (0, 0, 0)


@dataclass(frozen=True)
class Clip:
    id: str
    author: str  # handle without the @
    caption: str
    kind: str  # picture kind: "cat" for cat clips, otherwise scene/abstract/product
    likes: int
    shares: int
    sound: str
    comments: tuple[tuple[str, str, int], ...]  # (handle, text, likes)

    @property
    def cat(self) -> bool:
        return self.kind == "cat"


def _c(id: str, author: str, caption: str, kind: str, likes: int, shares: int, comments: str,
       sound: str = "") -> Clip:
    parsed = []
    for i, part in enumerate(comments.split("|")):
        if part.strip():
            handle, text = part.split(":", 1)
            parsed.append((handle.strip(), text.strip(), (likes // (7 + i * 5)) % 9000))
    return Clip(id, author, caption, kind, likes, shares, sound or f"original sound - {author}", tuple(parsed))


CLIPS: list[Clip] = [
    _c("c01", "whiskers.daily", "Morning zoomies #cat #cute #catsoftiktok", "cat", 182_400, 3_120,
       "mochi.mom: the tail flick at the end|leo_k: my cat does the exact same|sunny.days: zoomies o'clock"),
    _c("c02", "tabby.tales", "He heard the treat bag from two rooms away #cat #pets", "cat", 96_200, 1_540,
       "ana.b: the speed!|grace.h: treats are serious business|tom_w: relatable"),
    _c("c03", "mochi.and.me", "Box > expensive cat bed, every single time #catlife #funny", "cat", 240_900, 8_800,
       "jules: we bought a $90 bed lol|kai: classic|mia.r: the box wins again"),
    _c("c04", "kitten.corner", "First day home for this little one #kitten #cat #adopt", "cat", 512_000,
       21_400, "emma.l: welcome home baby|nora: so tiny!!|ben_t: adopt don't shop"),
    _c("c05", "lazy.sunday.cat", "Sunbeam inspector on duty #cat #sleepy", "cat", 73_100, 940,
       "pat.j: living the dream|zoe: me on weekends"),
    _c("c06", "ginger.purrs", "Talking back to mom like always #cat #talkingcat", "cat", 158_000, 4_050,
       "lily: the attitude|sam_p: he has opinions|yuki: translation please"),
    _c("c07", "nine.lives.club", "Caught stealing the ham. No regrets. #cat #thief", "cat", 301_700, 12_900,
       "rob: the side eye|dani: guilty as charged|max.c: worth it"),
    _c("c08", "fluffy.friday", "Grooming day at the vet, so brave #cat #fluffy #persian", "cat", 64_800, 710,
       "ivy: what a floof|noah.g: good kitty"),
    _c("c09", "two.cats.one.couch", "Siblings sharing one tiny blanket #cats #cute", "cat", 209_300, 5_600,
       "elle: they love each other|finn: the blanket is for one"),
    _c("c10", "paws.on.keys", "Helping me work from home (not helping) #cat #wfh", "cat", 127_500, 3_300,
       "dev.dan: my cat types better than me|ria: sent from cat"),
    _c("c11", "lakeside.trips", "Sunrise at the lake, worth the 5am alarm #travel #hangzhou", "scene", 88_300,
       2_100, "amy.t: stunning|jack: where is this?|lin: West Lake"),
    _c("c12", "goldie.the.pup", "He thinks he's a lap dog #dog #goldenretriever", "abstract", 275_000, 9_900,
       "hana: golden retrievers are the best|omar: 80 pounds of love"),
    _c("c13", "street.eats", "Best dumplings in the old town #food #streetfood", "product", 143_200, 6_700,
       "chef.k: look at those folds|vic: need this now"),
    _c("c14", "runway.edit", "Catwalk ready in 30 seconds #fashion #catwalk #style", "scene", 61_000, 1_100,
       "kim: the walk!|lu: serving looks"),
    _c("c15", "dance.with.dee", "Trying the new trend with my sister #dance #trend", "abstract", 402_600, 15_300,
       "joy: you two nailed it|rae: tutorial please"),
    _c("c16", "mountain.mike", "Summit views after 6 hours #hiking #nature", "scene", 55_900, 800,
       "ella: worth it|sid: what trail is this?"),
    _c("c17", "quick.recipes", "3-ingredient pancakes #recipe #breakfast", "product", 198_000, 22_000,
       "meg: tried it, so good|ali: saving this"),
    _c("c18", "bark.and.play", "Puppy's first snow #dog #puppy #snow", "abstract", 333_100, 11_200,
       "ola: the little hops|ray: my heart"),
    _c("c19", "city.timelapse", "Night traffic in 60 seconds #timelapse #city", "scene", 47_200, 650,
       "ken: mesmerising|ava: what camera?"),
    _c("c20", "guitar.guy", "Fingerstyle cover, requested by you #music #guitar", "abstract", 89_400, 1_900,
       "leo: so clean|may: play it again"),
    _c("c21", "home.garden", "Tomatoes from seed to harvest #garden #diy", "scene", 76_300, 2_600,
       "tia: growing goals|raj: how many days?"),
    _c("c22", "tech.minute", "Tiny gadget, big difference #tech #gadgets", "product", 52_100, 1_400,
       "nick: link?|sue: need one"),
    _c("c23", "beach.days", "Waves on repeat #ocean #relax", "scene", 112_700, 3_000,
       "jen: so calming|kofi: take me there"),
    _c("c24", "art.by.ann", "Painting a sunset in 1 minute #art #painting", "abstract", 167_800, 7_700,
       "bea: talent!|gus: colours"),
]

_CLIP = {c.id: c for c in CLIPS}
CAT_CLIP_IDS = [c.id for c in CLIPS if c.cat]
YOU = "you"


def clip(clip_id: str) -> Clip:
    return _CLIP[clip_id]


def is_cat(clip_id: str) -> bool:
    """True when the clip shows a pet cat (its picture is a cat and its caption says #cat)."""
    c = _CLIP.get(clip_id)
    return c is not None and c.cat


def feed_order(seed: int) -> list[str]:
    """Clip ids in feed order for ``seed``: the first is not a cat; 5 or 6 of the first 12 are."""
    rng = random.Random(f"clips-{seed}")
    cats = [c.id for c in CLIPS if c.cat]
    others = [c.id for c in CLIPS if not c.cat]
    rng.shuffle(cats)
    rng.shuffle(others)
    n = rng.randint(5, 6)
    cat_slots = set(rng.sample(range(1, 12), n))
    head = [cats.pop() if i in cat_slots else others.pop() for i in range(12)]
    rest = cats + others
    rng.shuffle(rest)
    return head + rest


def clip_at(seed: int, index: int) -> Clip:
    """The clip shown at feed position ``index`` (``ClipsState.current``); the feed wraps around."""
    order = feed_order(seed)
    return _CLIP[order[index % len(order)]]


# ---------------------------------------------------------------------------------------------- drawing
def _shadow_text(ui: UI, x: int, y: int, s: str, size: float, weight: int = 400, max_width: int | None = None,
                 lines: int = 1, rid: str = "", align: str = "left") -> Box:
    """White text with a soft dark shadow, readable over any picture."""
    px = ui.dp(size)
    mw = max_width or (ui.area.x2 - x)
    shown = wrap(s, px, weight, mw)[:lines] if lines > 1 else [s]
    shown = [ellipsize(t, px, weight, mw) for t in shown]
    lh = int(px * 1.3)
    w = max(text_width(t, px, weight) for t in shown)
    x1 = x if align == "left" else x - w // 2
    off = max(1, ui.dp(1))
    box = Box(x1, y, x1 + max(1, w) + off, y + lh * len(shown) + off)

    def paint(c: Canvas, b: Box) -> None:
        for i, t in enumerate(shown):
            c.text(b.x1 + off, b.y1 + i * lh + off, t, px, (20, 20, 20), weight, anchor="lt")
            c.text(b.x1, b.y1 + i * lh, t, px, WHITE, weight, anchor="lt")

    ui.add(Node(box, cls="android.widget.TextView", text="\n".join(shown) if lines > 1 else s, rid=rid, paint=paint))
    return box


def _side_button(ui: UI, cx: int, cy: int, icon: str, desc: str, count: str, on_tap, color=WHITE,
                 selected: bool = False, rid: str = "") -> None:
    half = ui.dp(26)
    px = ui.dp(34)
    box = Box(cx - half, cy - half, cx + half, cy + half)

    def paint(c: Canvas, b: Box) -> None:
        c.icon(cx + 1, cy + 1, icon, px, (30, 30, 30))
        c.icon(cx, cy, icon, px, color)

    ui.add(Node(box, cls="android.widget.ImageButton", desc=desc, clickable=True, on_tap=on_tap, paint=paint,
                selected=selected, checkable=desc == "Like", checked=selected, rid=rid))
    _shadow_text(ui, cx, cy + half, count, 12, 500, align="center", rid=f"{rid}_count" if rid else "")


# ---------------------------------------------------------------------------------------------- screens
class FeedScreen(Screen["ClipsApp"]):
    status_bar_color = (0, 0, 0)

    def __init__(self, app: "ClipsApp") -> None:
        super().__init__(app)
        self.sheet = False
        self.paused = False

    def build(self, ui: UI) -> None:
        app = self.app
        st = app.phone.state.clips
        a = ui.area
        c = app.current_clip()
        liked = c.id in st.liked
        ui.root.paint = lambda cv, b: cv.rect(b, fill=BLACK)
        # the clip itself, full screen; vertical swipes page through the feed
        ui.add(Node(a, cls="android.widget.FrameLayout", rid="video_player", desc=f"Video by @{c.author}",
                    swipe=self.swipe, clickable=True, on_tap=self.toggle_pause,
                    paint=lambda cv, b: cv.paste(_frame(c, b.width, b.height), b.x1, b.y1)))
        if self.paused:
            ui.icon(a.center.x, a.center.y, "play", 72, (235, 235, 235), desc="Paused")
        # top tabs and search
        ty = a.y1 + ui.dp(14)
        _shadow_text(ui, a.center.x - ui.dp(60), ty, "Following", 16, 500, align="center")
        _shadow_text(ui, a.center.x + ui.dp(44), ty, "For You", 17, 700, align="center")
        rect(ui, Box(a.center.x + ui.dp(30), ty + ui.dp(28), a.center.x + ui.dp(58), ty + ui.dp(31)), WHITE, 1)
        ui.icon_button(a.x2 - ui.dp(28), a.y1 + ui.dp(26), "magnify", "Search", lambda: app.toast("Search is coming soon"),
                       color=WHITE)
        ui.icon_button(a.x1 + ui.dp(28), a.y1 + ui.dp(26), "television-play", "LIVE", lambda: app.toast("No one is live"),
                       color=WHITE)
        # right column
        cx = a.x2 - ui.dp(34)
        y = a.y2 - ui.dp(400)
        avatar(ui, cx, y, 24, c.author, desc=f"@{c.author} profile", ring=WHITE,
               on_tap=lambda: app.toast(f"@{c.author}"))
        y += ui.dp(84)
        likes = c.likes + (1 if liked else 0)
        _side_button(ui, cx, y, "heart", "Like", fmt_count(likes), app.toggle_like,
                     color=LIKE_RED if liked else WHITE, selected=liked, rid="like")
        y += ui.dp(82)
        n_comments = len(c.comments) * 211 + len(app.posted(c.id))
        _side_button(ui, cx, y, "comment-processing", "Comments", fmt_count(n_comments), self.open_sheet,
                     rid="comments")
        y += ui.dp(82)
        _side_button(ui, cx, y, "share", "Share", fmt_count(c.shares), lambda: app.toast("Link copied"), rid="share")
        # caption block
        x = ui.left
        mw = a.width - ui.dp(100)
        by = a.y2 - ui.dp(128)
        _shadow_text(ui, x, by, f"@{c.author}", 16, 700, rid="author")
        _shadow_text(ui, x, by + ui.dp(28), c.caption, 15, 400, max_width=mw, lines=2, rid="caption")
        _shadow_text(ui, x + ui.dp(24), by + ui.dp(86), c.sound, 13, 400, max_width=mw - ui.dp(24), rid="sound")
        ui.icon(x + ui.dp(8), by + ui.dp(94), "music-note", 16, WHITE)
        # progress line
        rect(ui, Box(a.x1, a.y2 - ui.dp(3), a.x1 + a.width * (30 + (st.current * 17) % 60) // 100, a.y2),
             (230, 230, 230))
        if self.sheet:
            self.build_sheet(ui, c)

    def build_sheet(self, ui: UI, c: Clip) -> None:
        app = self.app
        t = ui.theme
        a = ui.area
        ui.scrim(self.close_sheet, alpha=0.35)
        top = a.y1 + max(ui.dp(120), a.height * 35 // 100) if not app.phone.keyboard_shown else a.y1 + ui.dp(60)
        sheet = Box(a.x1, top, a.x2, a.y2)
        posted = app.posted(c.id)
        total = len(c.comments) * 211 + len(posted)
        with ui.group(sheet, cls="android.widget.FrameLayout", rid="comment_sheet",
                      paint=lambda cv, b: cv.rect(b, fill=t.bg, radius=ui.dp(16))):
            ui.text(a.center.x, sheet.y1 + ui.dp(16), f"{fmt_count(total)} comments", 14, t.on_bg, 500,
                    align="center", rid="comment_count")
            ui.icon_button(a.x2 - ui.dp(28), sheet.y1 + ui.dp(26), "close", "Close", self.close_sheet, size=22)
            comp_h = ui.dp(64)
            lst = Box(a.x1, sheet.y1 + ui.dp(52), a.x2, sheet.y2 - comp_h)
            with ui.scroll(lst, "comments", rid="comment_list") as y:
                rows = [(YOU, text, 0) for text in reversed(posted)] + list(c.comments)
                for handle, text, likes in rows:
                    avatar(ui, ui.left + ui.dp(18), y + ui.dp(26), 16, handle)
                    x = ui.left + ui.dp(46)
                    ui.text(x, y + ui.dp(8), handle, 13, t.on_bg2, 500, rid="comment_author")
                    lines = len(wrap(text, ui.dp(15), 400, ui.right - x - ui.dp(40)))
                    ui.text(x, y + ui.dp(28), text, 15, t.on_bg, lines=min(3, lines),
                            max_width=ui.right - x - ui.dp(40), rid="comment_text")
                    ui.icon(ui.right - ui.dp(12), y + ui.dp(22), "heart-outline", 16, t.on_bg2)
                    ui.text(ui.right - ui.dp(12), y + ui.dp(34), fmt_count(likes), 11, t.on_bg2, align="center")
                    meta_y = y + ui.dp(32) + min(3, lines) * int(ui.dp(15) * 1.3)
                    ui.text(x, meta_y, "Just now · Reply" if handle == YOU else "2d ago · Reply", 12, t.on_bg2)
                    y = meta_y + ui.dp(28)
                ui.spacer(y, y + ui.dp(8))
            comp = Box(a.x1, sheet.y2 - comp_h, a.x2, sheet.y2)
            ui.divider(comp.y1)
            ui.text_field(Box(ui.left, comp.y1 + ui.dp(10), ui.right - ui.dp(52), comp.y2 - ui.dp(10)), "comment",
                          "Add comment…", on_submit=self.post, rid="comment_input", size=15)
            ui.icon_button(ui.right - ui.dp(20), comp.center.y, "send", "Send", self.post,
                           color=LIKE_RED if self.fields.get("comment", "").strip() else t.on_bg2)

    # actions
    def swipe(self, x1: int, y1: int, x2: int, y2: int) -> bool:
        if self.sheet or abs(y2 - y1) < abs(x2 - x1):
            return False
        if abs(y2 - y1) < self.app.phone.dp(40):
            return False
        self.paused = False
        return self.app.step(1 if y2 < y1 else -1)

    def toggle_pause(self) -> None:
        self.paused = not self.paused

    def open_sheet(self) -> None:
        self.sheet = True
        self.scroll.pop("comments", None)

    def close_sheet(self) -> None:
        self.sheet = False
        self.fields.pop("comment", None)
        self.app.phone.clear_focus()

    def post(self) -> None:
        text = self.fields.get("comment", "").strip()
        if not text:
            return
        app = self.app
        app.phone.state.clips.comments.append(ClipComment(app.current_clip().id, text))
        self.fields["comment"] = ""
        self.scroll["comments"] = 0
        app.phone.clear_focus()

    def on_back(self) -> bool:
        if self.sheet:
            self.close_sheet()
            return True
        return False


def _frame(c: Clip, width: int, height: int) -> Image.Image:
    """A clip's full-screen frame, from the phone's picture cache (bounded in bytes)."""
    return picture(f"clip-{c.id}", width, height, c.kind)


class ClipsApp(App, name="Clips", package="com.sim.clips", icon="play-box-multiple", color=(238, 29, 82)):
    def __init__(self, phone) -> None:
        super().__init__(phone)
        self.order = feed_order(phone.seed)

    def root(self) -> Screen:
        self._mark_seen()
        return FeedScreen(self)

    def current_clip(self) -> Clip:
        st = self.phone.state.clips
        return _CLIP[self.order[st.current % len(self.order)]]

    def _mark_seen(self) -> None:
        st = self.phone.state.clips
        cid = self.current_clip().id
        if cid not in st.seen:
            st.seen.append(cid)

    def step(self, d: int) -> bool:
        """Go to the next (``d`` = 1) or previous (-1) clip; the feed never ends going forward."""
        st = self.phone.state.clips
        if st.current + d < 0:
            return False
        st.current += d
        self._mark_seen()
        return True

    def toggle_like(self) -> None:
        st = self.phone.state.clips
        cid = self.current_clip().id
        if cid in st.liked:
            st.liked.remove(cid)
        else:
            st.liked.append(cid)

    def posted(self, clip_id: str) -> list[str]:
        return [c.text for c in self.phone.state.clips.comments if c.clip_id == clip_id]


APPS = [ClipsApp]

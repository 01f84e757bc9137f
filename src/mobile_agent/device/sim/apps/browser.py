"""Browser: an address/search bar, a start page with shortcuts, search results pages with cards for
known queries (today's Lakers game, Taylor Swift) and plausible generic results for any other
query, article pages, and Back through the page history.

Search results live at ``https://search.example/search?q=...``. Content is deterministic:
:func:`lakers_result` gives the final score of the Lakers game on the phone's today for a seed, so
that a benchmark can check what the agent wrote about it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qs, quote_plus, urlsplit

from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import RGB, Canvas, mix, seeded_color
from mobile_agent.device.sim.state import PhoneState
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

START_URL = "about:newtab"
SEARCH_URL = "https://search.example/search?q="
HINT = "Search or type web address"

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("News", "https://news.example.com/"), ("Sports", "https://sports.example.com/"),
    ("Wiki", "https://wiki.example.org/wiki/Main_Page"), ("Weather", "https://weather.example.com/"),
    ("Recipes", "https://recipes.example.com/"), ("Travel", "https://travel.example.com/"),
    ("Shopping", "https://shop.example.com/"), ("Videos", "https://video.example.com/"),
)

# ------------------------------------------------------------------ content: the Lakers game
LAKERS_OPPONENTS = ("Boston Celtics", "Golden State Warriors", "Denver Nuggets", "Phoenix Suns",
                    "Dallas Mavericks", "LA Clippers", "Miami Heat", "New York Knicks", "Milwaukee Bucks",
                    "Sacramento Kings")
LAKERS_PLAYERS = ("LeBron James", "Anthony Davis", "Austin Reaves", "D'Angelo Russell")


def short_team(team: str) -> str:
    """``Boston Celtics`` -> ``Celtics``; ``LA Clippers`` -> ``Clippers``."""
    return team.split()[-1]


@lru_cache(maxsize=64)
def _today(seed: int) -> dt.date:
    return PhoneState.initial(seed).today


def lakers_result(seed: int) -> dict:
    """Today's Lakers game (the phone's today for ``seed``), final, deterministic per seed.

    Keys: ``date`` (ISO), ``date_text`` (``Saturday, September 14, 2024``), ``home`` and ``away``
    (full team names), ``opponent`` (full name), ``lakers_score``, ``opponent_score``,
    ``lakers_won`` (bool), ``winner`` (full name), ``score_text`` (``Lakers 112, Celtics 105``),
    ``venue``, ``top_scorer``, ``top_points``, ``quarters`` (per team, four quarter scores).
    """
    rng = random.Random(f"lakers-{seed}")
    today = _today(seed)
    opponent = rng.choice(LAKERS_OPPONENTS)
    lakers_home = rng.random() < 0.5
    lal = rng.randrange(96, 131)
    opp = rng.randrange(94, 129)
    if opp == lal:
        opp -= rng.randrange(1, 8)
    scorer = rng.choice(LAKERS_PLAYERS)
    points = rng.randrange(22, min(41, lal // 2))

    def split(total: int) -> list[int]:
        parts = [total // 4 + rng.randrange(-5, 6) for _ in range(3)]
        return parts + [total - sum(parts)]

    lakers = "Los Angeles Lakers"
    home, away = (lakers, opponent) if lakers_home else (opponent, lakers)
    winner = lakers if lal > opp else opponent
    first, second = (("Lakers", lal), (short_team(opponent), opp)) if lal > opp else \
        ((short_team(opponent), opp), ("Lakers", lal))
    return {
        "date": today.isoformat(),
        "date_text": f"{today.strftime('%A, %B')} {today.day}, {today.year}",
        "home": home, "away": away, "opponent": opponent,
        "lakers_score": lal, "opponent_score": opp, "lakers_won": lal > opp, "winner": winner,
        "score_text": f"{first[0]} {first[1]}, {second[0]} {second[1]}",
        "venue": "Crypto.com Arena, Los Angeles" if lakers_home else f"Home of the {short_team(opponent)}",
        "top_scorer": scorer, "top_points": points,
        "quarters": {lakers: split(lal), opponent: split(opp)},
    }


def is_lakers_query(query: str) -> bool:
    return "laker" in query.lower()


def is_taylor_swift_query(query: str) -> bool:
    q = re.sub(r"\s+", " ", query.lower())
    return "taylor swift" in q or "taylorswift" in q.replace(" ", "")


TAYLOR_SWIFT = {
    "name": "Taylor Swift",
    "kind": "American singer-songwriter",
    "summary": ("Taylor Alison Swift (born December 13, 1989) is an American singer-songwriter. Known for her "
                "autobiographical songwriting, artistic reinventions and cultural impact, she is one of the "
                "best-selling music artists of all time."),
    "facts": (("Born", "December 13, 1989 (age {age}), West Reading, Pennsylvania, US"),
              ("Genres", "Pop, country, folk, rock"),
              ("Albums", "The Tortured Poets Department (2024), Midnights (2022), folklore (2020), 1989 (2014)"),
              ("Awards", "14 Grammy Awards"),
              ("Years active", "2004–present")),
}


def taylor_swift_age(today: dt.date) -> int:
    born = dt.date(1989, 12, 13)
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


# ------------------------------------------------------------------ results and pages
@dataclass(frozen=True)
class Result:
    title: str
    url: str
    snippet: str

    @property
    def site(self) -> str:
        return urlsplit(self.url).netloc


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "page"


def _title(text: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in text.split())


def search_url(query: str) -> str:
    return SEARCH_URL + quote_plus(query.strip())


def query_of(url: str) -> str | None:
    """The query of a search results URL, or None for other URLs."""
    if not url.startswith(SEARCH_URL):
        return None
    return parse_qs(urlsplit(url).query).get("q", [""])[0]


def price_offer(query: str, seed: int) -> tuple[str, float] | None:
    """For ``"<a Shop product> price"``: the product's title and a web shop's price for it (its Shop
    price from 0.8 to 1.25 times, by product and seed), else None."""
    q = query.strip()
    if not q.lower().endswith(" price"):
        return None
    from mobile_agent.device.sim.apps.shop import search_products

    hits = search_products(q[: -len(" price")])
    if not hits:
        return None
    p = hits[0]
    factor = (0.8, 0.9, 1.1, 1.25)[int(hashlib.sha1(f"{p.id}:{seed}".encode()).hexdigest()[:4], 16) % 4]
    return p.title, round(p.price_lo * factor, 2)


def results_for(query: str, seed: int) -> list[Result]:
    """The organic results for ``query`` (cards are drawn separately)."""
    q = query.strip()
    offer = price_offer(q, seed)
    if offer is not None:
        title, price = offer
        rest = results_for(q[: -len(" price")], seed)[:3]
        return [Result(f"{title} - US${price:.2f} - DealsHub", f"https://deals.example.com/p/{_slug(title)}",
                       f"Buy {title} online for US${price:.2f} a piece, free shipping. Compare 12 stores."), *rest]
    if is_lakers_query(q):
        g = lakers_result(seed)
        opp = short_team(g["opponent"])
        return [
            Result(f"Lakers vs. {opp} ({g['date_text']}) Final Score - sports.example",
                   f"https://sports.example.com/nba/game/lakers-vs-{_slug(opp)}-{g['date']}",
                   f"Final: {g['score_text']}. {g['top_scorer']} scored {g['top_points']} points."),
            Result("Los Angeles Lakers Scores, Stats and Schedule", "https://sports.example.com/nba/teams/lakers",
                   "Get the latest Los Angeles Lakers scores, schedule, roster, stats and standings."),
            Result(f"Lakers news: takeaways from the game against the {opp}",
                   f"https://news.example.com/sports/lakers-{_slug(opp)}-takeaways",
                   "Five things we learned from tonight's game, from the bench minutes to the late run."),
            Result("Los Angeles Lakers - Wiki", "https://wiki.example.org/wiki/Los_Angeles_Lakers",
                   "The Los Angeles Lakers are an American professional basketball team based in Los Angeles. "
                   "They compete in the NBA as a member of the Western Conference Pacific Division."),
            Result("Lakers Tickets | Official Team Store", "https://tickets.example.com/lakers",
                   "Buy tickets for upcoming Lakers home games at Crypto.com Arena."),
        ]
    if is_taylor_swift_query(q):
        return [
            Result("Taylor Swift - Wiki", "https://wiki.example.org/wiki/Taylor_Swift",
                   TAYLOR_SWIFT["summary"]),
            Result("Taylor Swift | Official Website", "https://taylorswift.example.com/",
                   "The official website of Taylor Swift: tour dates, music, videos and news."),
            Result("Taylor Swift: news and updates", "https://news.example.com/topics/taylor-swift",
                   "The latest news about Taylor Swift, her albums, The Eras Tour and more."),
            Result("Taylor Swift songs, albums and lyrics", "https://music.example.com/artist/taylor-swift",
                   "Listen to Taylor Swift's songs: Cruel Summer, Anti-Hero, Love Story, Shake It Off and more."),
            Result("Taylor Swift (@taylorswift) - photos and videos", "https://social.example.com/taylorswift",
                   "See photos and videos from Taylor Swift."),
        ]
    t = _title(q)
    s = _slug(q)
    wiki = re.sub(r"\s+", "_", t)
    n = int(hashlib.sha1(q.lower().encode()).hexdigest()[:6], 16)
    sites = ["news.example.com", "howto.example.net", "forum.example.org", "guide.example.com", "blog.example.io"]
    extra = [
        Result(f"{t}: what you need to know", f"https://{sites[n % 5]}/{s}",
               f"Everything about {q}: an overview, the latest updates and answers to common questions."),
        Result(f"Latest news on {t}", f"https://news.example.com/topics/{s}",
               f"Read the latest stories and analysis about {q}, updated throughout the day."),
        Result(f"{t} explained in 5 minutes", f"https://{sites[(n + 1) % 5]}/explained/{s}",
               f"A short, clear guide to {q} for beginners, with examples."),
        Result(f"Discussions about {t}", f"https://forum.example.org/t/{s}",
               f"{(n % 90) + 10} people are talking about {q}. Join the conversation."),
    ]
    return [Result(f"{t} - Wiki", f"https://wiki.example.org/wiki/{wiki}",
                   f"{t} may refer to several topics. This article is about {q}.")] + extra


@dataclass(frozen=True)
class Page:
    site: str
    title: str
    byline: str
    paragraphs: tuple[str, ...]


def page_for(url: str, seed: int) -> Page:
    """The article shown at ``url`` (any URL gives a plausible page)."""
    parts = urlsplit(url if "://" in url else "https://" + url)
    site = parts.netloc or url
    path = parts.path.strip("/")
    today = _today(seed)
    date = today.strftime("%B ") + f"{today.day}, {today.year}"
    if "lakers" in path:
        g = lakers_result(seed)
        opp = short_team(g["opponent"])
        if "game" in path or "takeaways" in path:
            verb = "beat" if g["lakers_won"] else "fell to"
            return Page(site, f"Lakers {verb} {opp} {g['lakers_score']}-{g['opponent_score']}",
                        f"By Sports Desk · {date}",
                        (f"Final: {g['score_text']}. The Los Angeles Lakers {verb} the {g['opponent']} "
                         f"{g['lakers_score']}-{g['opponent_score']} on {g['date_text']}.",
                         f"{g['top_scorer']} led the Lakers with {g['top_points']} points.",
                         "By quarter: Lakers " + "-".join(map(str, g["quarters"]["Los Angeles Lakers"])) +
                         f"; {opp} " + "-".join(map(str, g["quarters"][g["opponent"]])) + ".",
                         f"Venue: {g['venue']}."))
        return Page(site, "Los Angeles Lakers", f"Updated {date}",
                    ("The Los Angeles Lakers are an American professional basketball team based in Los Angeles.",
                     f"Latest game ({g['date_text']}): {g['score_text']}."))
    if "taylor" in path or "taylor" in site:
        age = taylor_swift_age(today)
        return Page(site, "Taylor Swift", "From the free encyclopedia",
                    (TAYLOR_SWIFT["summary"],
                     *(f"{k}: {v.format(age=age)}" for k, v in TAYLOR_SWIFT["facts"]),
                     "Swift signed with Big Machine Records in 2005 and became a country star with her "
                     "first albums before moving to pop with 1989 (2014)."))
    words = re.split(r"[-_/]+", path.split("/")[-1]) if path else []
    topic = " ".join(w for w in words if w and not w.isdigit()) or site.split(".")[0]
    t = _title(topic)
    return Page(site, t, f"{site} · {date}",
                (f"{t} is a topic many people search for. This page collects an overview and the most useful "
                 "links.",
                 f"Background: the history of {topic} goes back many years, and it keeps changing today.",
                 f"Key points: what {topic} is, why it matters, and where to learn more.",
                 "Last updated " + date + "."))


# ------------------------------------------------------------------ screens
LINK_LIGHT: RGB = (26, 13, 171)
LINK_DARK: RGB = (138, 180, 248)


def _favicon(ui: UI, cx: int, cy: int, site: str, r_dp: float = 12) -> None:
    r = ui.dp(r_dp)
    col = seeded_color(site, 0.45, 0.8)
    letter = site.split(".")[0][:1].upper()

    def paint(c: Canvas, b: Box) -> None:
        c.ellipse(b, fill=col)
        c.text(b.center.x, b.center.y, letter, ui.dp(r_dp * 1.0), (255, 255, 255), 500, "mm")

    ui.add(Node(Box(cx - r, cy - r, cx + r, cy + r), cls="android.widget.ImageView", desc="", paint=paint))


class TabScreen(Screen):
    """The browser's one tab: the toolbar and the page at the top of its page history."""

    def __init__(self, app: "BrowserApp") -> None:
        super().__init__(app)
        self.pages: list[str] = [START_URL]
        self.menu = False

    @property
    def url(self) -> str:
        return self.pages[-1]

    # -- toolbar
    def build(self, ui: UI) -> None:
        t = ui.theme
        editing = self.phone.is_focused(self, "addr")
        bar = Box(ui.area.x1, ui.area.y1, ui.area.x2, ui.area.y1 + ui.dp(64))
        ui.add(Node(bar, cls="android.view.ViewGroup", rid="toolbar",
                    paint=lambda c, b: c.rect(b, fill=t.bg)))
        field = Box(bar.x1 + ui.dp(52), bar.y1 + ui.dp(8), bar.x2 - ui.dp(52), bar.y2 - ui.dp(8))
        if editing:
            ui.icon_button(bar.x1 + ui.dp(28), bar.center.y, "arrow-left", "Navigate up", self.stop_editing)
            ui.text_field(Box(field.x1, field.y1, bar.x2 - ui.dp(12), field.y2), "addr", HINT,
                          on_submit=self.submit, rid="url_bar")
        else:
            ui.icon_button(bar.x1 + ui.dp(28), bar.center.y, "home-outline", "Home", self.go_home)
            shown = self.display_url()
            with ui.group(field, cls="android.widget.EditText", on_tap=self.start_editing, rid="url_bar",
                          text=shown or HINT,
                          paint=lambda c, b: c.rect(b, fill=t.field, radius=b.height // 2)):
                x = field.x1 + ui.dp(16)
                if shown:
                    ui.icon(x + ui.dp(8), field.center.y, "lock-outline" if self.url.startswith("https")
                            else "information-outline", 16, t.on_bg2)
                    x += ui.dp(24)
                ui.text(x, field.center.y - ui.dp(10), shown or HINT, 16, t.on_bg if shown else t.on_bg2,
                        max_width=field.x2 - x - ui.dp(12))
            ui.icon_button(bar.x2 - ui.dp(28), bar.center.y, "dots-vertical", "More options", self.open_menu)
        body = Box(ui.area.x1, bar.y2, ui.area.x2, ui.area.y2)
        if editing:
            self._suggestions(ui, body)
            return
        q = query_of(self.url)
        if self.url == START_URL:
            self._start_page(ui, body)
        elif q is not None:
            self._results(ui, body, q)
        else:
            self._article(ui, body)
        if self.menu:
            self._menu(ui)

    def display_url(self) -> str:
        if self.url == START_URL:
            return ""
        return re.sub(r"^https?://", "", self.url).rstrip("/")

    # -- pages
    def _start_page(self, ui: UI, box: Box) -> None:
        t = ui.theme
        with ui.scroll(box, f"page:{len(self.pages)}", rid="start_page") as y:
            cx = ui.area.center.x
            y += ui.dp(72)
            ui.text(cx, y, "Search", 44, ui.accent, 500, align="center", rid="logo")
            y += ui.dp(84)
            sb = Box(ui.left + ui.dp(8), y, ui.right - ui.dp(8), y + ui.dp(52))
            with ui.group(sb, cls="android.widget.EditText", on_tap=self.start_editing, rid="search_box",
                          text=HINT, paint=lambda c, b: c.rect(b, fill=t.field, radius=b.height // 2)):
                ui.icon(sb.x1 + ui.dp(28), sb.center.y, "magnify", 22, t.on_bg2)
                ui.text(sb.x1 + ui.dp(52), sb.center.y - ui.dp(10), HINT, 16, t.on_bg2)
            y = sb.y2 + ui.dp(40)
            cw = (ui.right - ui.left) // 4
            for i, (label, url) in enumerate(SHORTCUTS):
                r, c = divmod(i, 4)
                cell = Box(ui.left + c * cw, y + r * ui.dp(96), ui.left + (c + 1) * cw, y + (r + 1) * ui.dp(96))
                with ui.group(cell, on_tap=lambda url=url: self.navigate(url), desc=label, rid="shortcut"):
                    circle = mix(t.surface2, ui.accent, 0.08)
                    ccx, ccy, rr = cell.center.x, cell.y1 + ui.dp(28), ui.dp(26)
                    ui.add(Node(Box(ccx - rr, ccy - rr, ccx + rr, ccy + rr),
                                paint=lambda cv, b, circle=circle: cv.ellipse(b, fill=circle)))
                    _favicon(ui, ccx, ccy, urlsplit(url).netloc, 14)
                    ui.text(ccx, cell.y1 + ui.dp(62), label, 13, t.on_bg, align="center", max_width=cw - ui.dp(4))
            y += 2 * ui.dp(96) + ui.dp(24)
            ui.text(ui.left, y, "Discover", 16, t.on_bg, 500)
            y += ui.dp(32)
            for k, (title, url) in enumerate((
                    ("10 easy weeknight dinners", "https://recipes.example.com/weeknight-dinners"),
                    ("The best hiking trails near the city", "https://travel.example.com/best-hiking-trails"))):
                card = Box(ui.left, y, ui.right, y + ui.dp(230))
                with ui.card(card, on_tap=lambda url=url: self.navigate(url), rid="discover_card"):
                    ui.picture(Box(card.x1, card.y1, card.x2, card.y1 + ui.dp(160)), f"discover{k}", "scene",
                               radius=12)
                    ui.text(card.x1 + ui.dp(12), card.y1 + ui.dp(172), title, 16, t.on_bg, 500,
                            max_width=card.width - ui.dp(24))
                    ui.text(card.x1 + ui.dp(12), card.y1 + ui.dp(198), urlsplit(url).netloc, 12, t.on_bg2)
                y = card.y2 + ui.dp(16)

    def _results(self, ui: UI, box: Box, query: str) -> None:
        t = ui.theme
        seed = self.phone.seed
        link = LINK_DARK if t.dark else LINK_LIGHT
        with ui.scroll(box, f"page:{len(self.pages)}", rid="results") as y:
            y += ui.dp(4)
            x = ui.left
            for i, label in enumerate(("All", "News", "Images", "Videos", "Shopping")):
                b = ui.text(x, y + ui.dp(6), label, 14, ui.accent if i == 0 else t.on_bg2, 500)
                if i == 0:
                    acc = ui.accent
                    ui.add(Node(Box(b.x1, b.y2 + ui.dp(6), b.x2, b.y2 + ui.dp(9)),
                                paint=lambda c, bb, acc=acc: c.rect(bb, fill=acc)))
                x = b.x2 + ui.dp(22)
            y += ui.dp(40)
            ui.divider(y)
            y += ui.dp(12)
            n = int(hashlib.sha1(query.lower().encode()).hexdigest()[:6], 16)
            ui.text(ui.left, y, f"About {(n % 900 + 100) * 10000 + n % 9999:,} results", 12, t.on_bg2)
            y += ui.dp(28)
            if is_lakers_query(query):
                y = self._lakers_card(ui, y)
            elif is_taylor_swift_query(query):
                y = self._swift_card(ui, y)
            for r in results_for(query, seed):
                h = ui.dp(128)
                row = Box(ui.area.x1, y, ui.area.x2, y + h)
                with ui.group(row, on_tap=lambda u=r.url: self.navigate(u), rid="result", desc=r.title):
                    _favicon(ui, ui.left + ui.dp(12), y + ui.dp(20), r.site)
                    ui.text(ui.left + ui.dp(32), y + ui.dp(4), r.site, 13, t.on_bg)
                    ui.text(ui.left + ui.dp(32), y + ui.dp(22), r.url.replace("https://", "")[:60], 11, t.on_bg2)
                    ui.text(ui.left, y + ui.dp(46), r.title, 17, link, 400, rid="result_title")
                    ui.text(ui.left, y + ui.dp(74), r.snippet, 13, t.on_bg2, lines=2, rid="snippet")
                y = row.y2 + ui.dp(4)
            ui.text(ui.area.center.x, y + ui.dp(16), "1  2  3  4  5   Next >", 14, ui.accent, align="center")
            ui.spacer(y, y + ui.dp(56))

    def _lakers_card(self, ui: UI, y: int) -> int:
        t = ui.theme
        g = lakers_result(self.phone.seed)
        card = Box(ui.left, y, ui.right, y + ui.dp(236))
        recap = results_for("lakers", self.phone.seed)[0].url
        d = dt.date.fromisoformat(g["date"])
        with ui.card(card, rid="sports_card", on_tap=lambda: self.navigate(recap), radius=16):
            ui.text(card.x1 + ui.dp(16), card.y1 + ui.dp(14), "Los Angeles Lakers", 18, t.on_bg, 500)
            ui.text(card.x1 + ui.dp(16), card.y1 + ui.dp(40), "NBA · " + d.strftime("%a, %b ") + str(d.day), 13,
                    t.on_bg2, rid="game_date")
            ui.text(card.center.x, card.y1 + ui.dp(72), "Final", 13, t.on_bg2, 500, align="center",
                    rid="game_status")
            lal, opp = g["lakers_score"], g["opponent_score"]
            teams = [(g["away"], lal if g["away"].endswith("Lakers") else opp),
                     (g["home"], lal if g["home"].endswith("Lakers") else opp)]
            for k, (team, score) in enumerate(teams):
                x = card.x1 + card.width * (1 + 2 * k) // 4
                col = seeded_color(team, 0.6, 0.7) if not team.endswith("Lakers") else (85, 37, 130)
                r = ui.dp(22)
                yy = card.y1 + ui.dp(96)
                ui.add(Node(Box(x - r, yy, x + r, yy + 2 * r), cls="android.widget.ImageView",
                            desc=f"{short_team(team)} logo",
                            paint=lambda c, b, col=col, name=short_team(team): (
                                c.ellipse(b, fill=col),
                                c.text(b.center.x, b.center.y, name[:3].upper(), ui.dp(12), (255, 255, 255), 700,
                                       "mm"))))
                ui.text(x, yy + 2 * r + ui.dp(6), short_team(team), 14, t.on_bg, 500, align="center", rid="team")
                won = score == max(lal, opp)
                sx = card.center.x + (-ui.dp(28) if k == 0 else ui.dp(28))
                ui.text(sx, card.y1 + ui.dp(96), str(score), 30, t.on_bg if won else t.on_bg2, 700 if won else 400,
                        align="right" if k == 0 else "left", rid="score", desc=f"{short_team(team)} {score}")
            ui.text(card.center.x, card.y1 + ui.dp(104), "–", 24, t.on_bg2, align="center")
            ui.text(card.x1 + ui.dp(16), card.y1 + ui.dp(176), f"Final: {g['score_text']}", 14, t.on_bg, 500,
                    rid="final_score")
            ui.text(card.x1 + ui.dp(16), card.y1 + ui.dp(200),
                    f"Top scorer: {g['top_scorer']} ({g['top_points']} PTS)", 13, t.on_bg2)
        return card.y2 + ui.dp(16)

    def _swift_card(self, ui: UI, y: int) -> int:
        t = ui.theme
        info = TAYLOR_SWIFT
        age = taylor_swift_age(self.phone.now.date())
        card = Box(ui.left, y, ui.right, y + ui.dp(470))
        with ui.card(card, rid="knowledge_card", radius=16,
                     on_tap=lambda: self.navigate("https://wiki.example.org/wiki/Taylor_Swift")):
            pw = (card.width - ui.dp(36)) // 3
            for k in range(3):
                x = card.x1 + ui.dp(12) + k * (pw + ui.dp(6))
                ui.picture(Box(x, card.y1 + ui.dp(12), x + pw, card.y1 + ui.dp(132)), f"swift{k}", "scene",
                           desc="Image of Taylor Swift" if k == 0 else "", radius=10)
            yy = card.y1 + ui.dp(144)
            ui.text(card.x1 + ui.dp(16), yy, info["name"], 24, t.on_bg, 500, rid="entity_name")
            ui.text(card.x1 + ui.dp(16), yy + ui.dp(34), info["kind"], 14, t.on_bg2, rid="entity_kind")
            b = ui.text(card.x1 + ui.dp(16), yy + ui.dp(62), info["summary"], 14, t.on_bg, lines=5,
                        max_width=card.width - ui.dp(32), rid="entity_summary")
            yy = b.y2 + ui.dp(12)
            for key, value in info["facts"][:4]:
                text = f"{key}: {value.format(age=age)}"
                b = ui.text(card.x1 + ui.dp(16), yy, text, 13, t.on_bg, lines=2, max_width=card.width - ui.dp(32),
                            rid="fact")
                yy = b.y2 + ui.dp(6)
        return card.y2 + ui.dp(16)

    def _article(self, ui: UI, box: Box) -> None:
        t = ui.theme
        page = page_for(self.url, self.phone.seed)
        col = seeded_color(page.site, 0.5, 0.55)
        with ui.scroll(box, f"page:{len(self.pages)}", rid="web_view") as y:
            band = Box(ui.area.x1, y, ui.area.x2, y + ui.dp(48))
            ui.add(Node(band, paint=lambda c, b: c.rect(b, fill=col)))
            ui.text(ui.left, band.y1 + ui.dp(14), page.site, 15, (255, 255, 255), 500, rid="site_name")
            y = band.y2 + ui.dp(20)
            b = ui.text(ui.left, y, page.title, 26, t.on_bg, 500, lines=3, rid="page_title")
            y = b.y2 + ui.dp(8)
            ui.text(ui.left, y, page.byline, 13, t.on_bg2)
            y += ui.dp(32)
            ui.picture(Box(ui.left, y, ui.right, y + ui.dp(180)), page.title, "scene", radius=8)
            y += ui.dp(196)
            for p in page.paragraphs:
                b = ui.text(ui.left, y, p, 16, t.on_bg, lines=12, rid="paragraph")
                y = b.y2 + ui.dp(16)
            ui.spacer(y, y + ui.dp(40))

    def _suggestions(self, ui: UI, box: Box) -> None:
        typed = self.fields.get("addr", "").strip()
        with ui.scroll(box, "suggest", rid="suggestions") as y:
            if not typed:
                hist = [u for u in reversed(self.phone.state.browser.history)]
                seen: list[str] = []
                for u in hist:
                    if u not in seen:
                        seen.append(u)
                for u in seen[:6]:
                    q = query_of(u)
                    label = q if q is not None else re.sub(r"^https?://", "", u)
                    y = ui.list_row(y, label, icon="history", on_tap=lambda u=u: self.navigate(u),
                                    rid="suggestion").y2
                return
            options = [typed]
            if is_lakers_query(typed):
                options += ["lakers game result today", "lakers score", "lakers schedule"]
            elif is_taylor_swift_query(typed):
                options += ["taylor swift songs", "taylor swift tour"]
            unique = [o for i, o in enumerate(options) if o.lower() not in {x.lower() for x in options[:i]}]
            for s in unique[:4]:
                y = ui.list_row(y, s, icon="magnify", on_tap=lambda s=s: self.submit(s), rid="suggestion").y2

    def _menu(self, ui: UI) -> None:
        t = ui.theme
        ui.scrim(self.close_menu, alpha=0.0)
        w, h = ui.dp(220), ui.dp(48)
        items = [("New tab", self.new_tab), ("History", self.show_history), ("Share…", self.close_menu)]
        box = Box(ui.area.x2 - w - ui.dp(8), ui.area.y1 + ui.dp(8), ui.area.x2 - ui.dp(8),
                  ui.area.y1 + ui.dp(16) + h * len(items))
        with ui.group(box, cls="android.widget.ListView", rid="menu", on_tap=lambda: None,
                      paint=lambda c, b: (c.rect(b.offset(0, ui.dp(2)), fill=mix(t.bg, (0, 0, 0), 0.25),
                                                 radius=ui.dp(8)),
                                          c.rect(b, fill=t.surface, radius=ui.dp(8)))):
            for k, (label, fn) in enumerate(items):
                row = Box(box.x1, box.y1 + ui.dp(8) + k * h, box.x2, box.y1 + ui.dp(8) + (k + 1) * h)
                with ui.group(row, on_tap=fn, desc="", rid="menu_item"):
                    ui.text(row.x1 + ui.dp(16), row.center.y - ui.dp(10), label, 16, t.on_bg)

    # -- actions
    def start_editing(self) -> None:
        self.menu = False
        self.fields["addr"] = ""  # as the omnibox selects the whole URL, typing replaces it
        self.phone.focus_field(self, "addr", on_submit=self.submit)

    def stop_editing(self) -> None:
        self.phone.clear_focus()

    def submit(self, text: str | None = None) -> None:
        value = (text if text is not None else self.fields.get("addr", "")).strip()
        self.phone.clear_focus()
        if not value:
            return
        if looks_like_url(value):
            url = value if "://" in value else "https://" + value
        else:
            self.phone.state.browser.searches.append(value)
            url = search_url(value)
        self.navigate(url)

    def navigate(self, url: str) -> None:
        self.menu = False
        self.pages.append(url)
        b = self.phone.state.browser
        b.current_url = url
        b.history.append(url)

    def go_home(self) -> None:
        if self.url != START_URL:
            self.pages.append(START_URL)
            self.phone.state.browser.current_url = ""

    def open_menu(self) -> None:
        self.menu = True

    def close_menu(self) -> None:
        self.menu = False

    def new_tab(self) -> None:
        self.menu = False
        self.pages = [START_URL]
        self.scroll.clear()
        self.phone.state.browser.current_url = ""

    def show_history(self) -> None:
        self.menu = False
        self.app.push(HistoryScreen(self.app, self))

    def on_back(self) -> bool:
        if self.menu:
            self.menu = False
            return True
        if len(self.pages) > 1:
            self.scroll.pop(f"page:{len(self.pages)}", None)
            self.pages.pop()
            self.phone.state.browser.current_url = "" if self.url == START_URL else self.url
            return True
        return False


class HistoryScreen(Screen):
    def __init__(self, app: "BrowserApp", tab: TabScreen) -> None:
        super().__init__(app)
        self.tab = tab

    def build(self, ui: UI) -> None:
        t = ui.theme
        ui.top_bar("History", back=self.app.pop)
        hist = list(reversed(self.phone.state.browser.history))
        with ui.scroll(Box(ui.area.x1, ui.area.y1 + ui.dp(64), ui.area.x2, ui.area.y2), "history") as y:
            if not hist:
                ui.text(ui.area.center.x, y + ui.dp(120), "No history yet", 16, t.on_bg2, align="center")
            for u in hist:
                q = query_of(u)
                title = f"{q} - Search" if q is not None else page_for(u, self.phone.seed).title
                y = ui.list_row(y, title, re.sub(r"^https?://", "", u), icon="web",
                                on_tap=lambda u=u: self.open(u), rid="history_item").y2

    def open(self, url: str) -> None:
        self.app.pop()
        self.tab.navigate(url)


def looks_like_url(text: str) -> bool:
    """``example.com``, ``https://x.org/a`` -> True; ``lakers game`` -> False."""
    if " " in text.strip():
        return False
    return bool(re.match(r"^(https?://)?[\w-]+(\.[\w-]+)+(:\d+)?(/\S*)?$", text.strip()))


class BrowserApp(App, name="Browser", package="com.sim.browser", icon="web", color=(25, 118, 210),
                 root=TabScreen):
    """Tabs of web pages, an address bar, bookmarks and downloads."""


APPS = [BrowserApp]

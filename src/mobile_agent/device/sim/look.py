"""Looks of the simulated phone: the same apps and layouts drawn the way other phones draw them.

A :class:`Look` names a text font, an icon set, theme colours, a vendor's status bar, JPEG
compression of the screenshot and the language of the labels. ``SimPhone(look=...)`` draws in it;
the default look (Roboto, Material Design Icons, the built-in themes, a Pixel-style status bar,
lossless, English) is what every other figure of the project is measured on, pixel for pixel.

Fonts and icon sets come from packages (pip: ``fontpkg-*``, ``qtawesome``'s icon fonts; Debian:
``fonts-noto-cjk``, ``fonts-dejavu-core``). A look whose font or icon set is not installed raises
:class:`~mobile_agent.errors.ConfigError` naming the package, when the phone is created.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from typing import Protocol

from PIL import Image

# the fonts and icon sets keep their names here, as before they had a module of their own
from mobile_agent.device.sim.fonts import (  # noqa: F401
    FONTS, ICON_MAP, ICON_SETS, font_available, icon_available, icon_charmap, icon_name, load_font, load_icon_font,
)
from mobile_agent.device.sim.render import DARK, LIGHT, RGB, Canvas, Theme, glyph, text_width
from mobile_agent.device.sim.ui import Node
from mobile_agent.errors import ConfigError
from mobile_agent.types import Box


# ------------------------------------------------------------------------------------- themes
THEMES: dict[str, Theme] = {
    "light": LIGHT,
    "dark": DARK,
    # true black (AMOLED) with a teal accent
    "black": replace(DARK, bg=(0, 0, 0), surface=(22, 22, 22), surface2=(38, 38, 38), on_bg=(240, 240, 240),
                     on_bg2=(150, 150, 150), divider=(48, 48, 48), primary=(80, 200, 180), on_primary=(0, 0, 0),
                     field=(30, 30, 30), keyboard=(12, 12, 12), key=(50, 50, 50), statusbar_fg=(240, 240, 240)),
    # blue-grey night theme with an amber accent
    "navy": replace(DARK, bg=(16, 24, 40), surface=(28, 38, 58), surface2=(40, 52, 76), on_bg=(226, 232, 240),
                    on_bg2=(148, 163, 184), divider=(51, 65, 85), primary=(251, 191, 36), on_primary=(40, 24, 0),
                    field=(30, 41, 59), keyboard=(20, 28, 44), key=(51, 65, 85), statusbar_fg=(226, 232, 240)),
    # warm brown night theme
    "cocoa": replace(DARK, bg=(36, 28, 24), surface=(52, 42, 36), surface2=(68, 56, 48), on_bg=(240, 230, 220),
                     on_bg2=(180, 164, 150), divider=(80, 66, 56), primary=(255, 138, 101), on_primary=(50, 16, 0),
                     field=(58, 47, 40), keyboard=(30, 24, 20), key=(72, 60, 52), statusbar_fg=(240, 230, 220)),
    # cream paper light theme with a green accent
    "cream": replace(LIGHT, bg=(250, 246, 236), surface=(240, 234, 220), surface2=(228, 220, 204),
                     on_bg=(40, 36, 30), on_bg2=(110, 100, 88), divider=(222, 212, 196), primary=(46, 125, 50),
                     field=(238, 232, 218), keyboard=(232, 226, 212), key=(252, 250, 244), statusbar_fg=(40, 36, 30)),
    # grey light theme with a purple accent (One UI-like)
    "grey": replace(LIGHT, bg=(244, 244, 246), surface=(255, 255, 255), surface2=(232, 232, 236),
                    on_bg=(20, 20, 24), on_bg2=(110, 110, 120), divider=(216, 216, 222), primary=(103, 80, 164),
                    field=(255, 255, 255), statusbar_fg=(20, 20, 24)),
}

STATUS_BARS = ("pixel", "samsung", "miui", "center")

# -------------------------------------------------------------------------------------- labels
ZH: dict[str, str] = {
    "Settings": "设置", "Search": "搜索", "Home": "首页", "Music": "音乐", "Notes": "笔记", "Video": "视频",
    "Weather": "天气", "Shop": "商城", "Browser": "浏览器", "Mail": "邮件", "Maps": "地图", "Store": "应用商店",
    "Clips": "短视频", "Calendar": "日历", "Install": "安装", "Open": "打开", "Apps": "应用", "Games": "游戏",
    "Travel": "旅行", "Recommended for you": "为你推荐", "Partly cloudy": "局部多云", "Cloudy": "多云",
    "Good afternoon": "下午好", "Recently played": "最近播放", "Relax": "放松", "Popular artists": "热门歌手",
    "Your Library": "我的音乐库", "Library": "音乐库", "News": "新闻", "Sports": "体育", "Recipes": "菜谱",
    "Shopping": "购物", "Videos": "视频", "Discover": "发现", "Inbox": "收件箱", "Compose": "写邮件",
    "Search here": "在这里搜索", "Restaurants": "餐厅", "Gas stations": "加油站", "Hotels": "酒店",
    "Coffee": "咖啡", "Go": "出发", "Search for apps & games": "搜索应用和游戏", "Top charts": "排行榜",
    "Book ideas": "读书想法", "Shopping list": "购物清单", "New note": "新建笔记", "Search settings": "搜索设置",
    "Network & internet": "网络和互联网", "Connected devices": "已连接的设备", "Notifications": "通知",
    "Battery": "电池", "Storage": "存储", "Sound & vibration": "声音和振动", "Display": "显示",
    "Wallpaper & style": "壁纸和样式", "Following": "关注", "For You": "推荐", "All": "全部",
    "Basketball": "篮球", "Cooking": "烹饪", "Subscriptions": "订阅", "No events": "没有活动", "Today": "今天",
    "Now": "现在", "Humidity": "湿度", "Wind": "风速", "UV index": "紫外线指数", "Feels like": "体感温度",
    "Windy": "有风", "Send": "发送", "Cancel": "取消", "OK": "确定", "Save": "保存", "Delete": "删除",
    "Share": "分享", "Reply": "回复", "Forward": "转发", "Done": "完成", "Next": "下一步", "Back": "返回",
    "Add to cart": "加入购物车", "Buy now": "立即购买", "Cart": "购物车", "Account": "账号", "Profile": "个人资料",
    "Sign in": "登录", "Wi-Fi": "无线网络", "Bluetooth": "蓝牙", "Airplane mode": "飞行模式",
    "Dark theme": "深色主题", "Brightness level": "亮度", "Font size": "字体大小", "Apps & notifications": "应用和通知",
    "Privacy": "隐私", "Security": "安全", "Location": "位置信息", "About phone": "关于手机", "System": "系统",
    "Sent": "已发送", "Drafts": "草稿", "Starred": "已加星标", "Trash": "回收站", "Directions": "路线",
    "Start": "开始", "Explore": "探索", "Saved": "已保存", "Updates": "更新", "Playlists": "播放列表",
    "Artists": "歌手", "Albums": "专辑", "Songs": "歌曲", "Trending": "热门", "Comments": "评论",
    "Like": "赞", "Follow": "关注", "Message": "消息", "Messages": "消息", "Friends": "朋友", "Me": "我",
    "New event": "新建活动", "Title": "标题", "Add title": "添加标题", "Tomorrow": "明天", "Sunny": "晴",
    "Rain": "雨", "High": "最高", "Low": "最低", "Hangzhou": "杭州", "Beijing": "北京", "Shanghai": "上海",
    "History": "历史记录", "Bookmarks": "书签", "New tab": "新标签页", "Downloads": "下载", "Filters": "筛选",
    "Sort": "排序", "Price": "价格", "Reviews": "评价", "Details": "详情", "Description": "简介",
    "Electronics": "电子产品", "Apparel": "服装", "Hats & Caps": "帽子", "Home & Garden": "家居园艺",
    "PRIMARY": "主要", "Sep 13": "9月13日", "Sep 12": "9月12日", "Sep 14": "9月14日", "Sep 15": "9月15日",
    "Sun": "周日", "Mon": "周一", "Tue": "周二", "Wed": "周三", "Thu": "周四", "Fri": "周五", "Sat": "周六",
    "Calm Evening": "宁静夜晚", "Nature Sounds": "自然之声", "Relaxing Piano": "轻松钢琴", "Chill Lo-fi": "低保真放松",
    "Weekly update": "每周更新", "Lunch on Friday?": "周五一起吃午饭？", "Your trip to Hangzhou": "你的杭州之行",
    "Latest in Hangzhou": "杭州最新", "Wholesale for business": "企业批发", "Turn on": "开启", "Turn off": "关闭",
}


def translate(lang: str, s: str) -> str:
    """The label ``s`` in ``lang`` where the table has it (whole labels only), else ``s`` itself."""
    if lang == "zh":
        return ZH.get(s, s)
    return s


# --------------------------------------------------------------------------------------- look
@dataclass(frozen=True)
class Look:
    """How the simulated phone draws. ``Look()`` is the default look (nothing changes).

    font: a key of :data:`FONTS` or ``"roboto"``; icons: ``"mdi"`` or a key of :data:`ICON_SETS`;
    light / dark: keys of :data:`THEMES` used when the phone's dark mode is off / on;
    status_bar: one of :data:`STATUS_BARS`; jpeg_quality: re-encode each screenshot as JPEG at
    this quality (None: lossless); lang: ``"en"`` or ``"zh"`` (labels from :data:`ZH`).
    """

    font: str = "roboto"
    icons: str = "mdi"
    light: str = "light"
    dark: str = "dark"
    status_bar: str = "pixel"
    jpeg_quality: int | None = None
    lang: str = "en"

    def __post_init__(self) -> None:
        if self.font != "roboto" and self.font not in FONTS:
            raise ConfigError(f"unknown font {self.font!r}: use roboto, {', '.join(FONTS)}")
        if self.icons != "mdi" and self.icons not in ICON_SETS:
            raise ConfigError(f"unknown icon set {self.icons!r}: use mdi, {', '.join(ICON_SETS)}")
        for t in (self.light, self.dark):
            if t not in THEMES:
                raise ConfigError(f"unknown theme {t!r}: use {', '.join(THEMES)}")
        if self.status_bar not in STATUS_BARS:
            raise ConfigError(f"unknown status bar {self.status_bar!r}: use {', '.join(STATUS_BARS)}")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ConfigError(f"jpeg_quality {self.jpeg_quality} is out of range: 1..100")
        if self.lang not in ("en", "zh"):
            raise ConfigError(f"unknown language {self.lang!r}: use en or zh")
        if self.lang == "zh" and self.font not in ("noto-cjk",):
            object.__setattr__(self, "font", "noto-cjk")  # only a CJK font draws the labels

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_LOOK

    def check(self) -> None:
        """Raise ConfigError naming the package to install when a font or icon set is missing."""
        if self.font != "roboto" and not font_available(self.font):
            raise ConfigError(f"the look's font {self.font!r} is not installed: {FONTS[self.font][1]}")
        if not icon_available(self.icons):
            raise ConfigError(f"the look's icon set {self.icons!r} is not installed: pip install qtawesome")

    def theme(self, dark: bool) -> Theme:
        return THEMES[self.dark if dark else self.light]

    def icon_glyph(self, mdi: str) -> tuple[str, str]:
        """(font key for the renderer, character) drawing the look's counterpart of MDI icon ``mdi``."""
        if self.icons == "mdi":
            return "icon:mdi", glyph(mdi)
        name = icon_name(self.icons, mdi)
        if name is None:
            return "icon:mdi", glyph(mdi)
        return f"icons:{self.icons}", chr(icon_charmap(self.icons)[name])

    def tr(self, s: str) -> str:
        return translate(self.lang, s) if self.lang != "en" else s

    def finish(self, image: Image.Image) -> Image.Image:
        """The screenshot as the device would hand it over (JPEG-compressed where asked)."""
        if self.jpeg_quality is None:
            return image
        buf = io.BytesIO()
        image.save(buf, format="JPEG", quality=self.jpeg_quality)
        buf.seek(0)
        return Image.open(buf).convert("RGB")

    def describe(self) -> str:
        parts = [self.font, self.icons, f"{self.light}/{self.dark}", self.status_bar]
        if self.jpeg_quality:
            parts.append(f"jpeg{self.jpeg_quality}")
        if self.lang != "en":
            parts.append(self.lang)
        return " ".join(parts)


DEFAULT_LOOK = Look()


# ------------------------------------------------------------------------------- status bars
class StatusPhone(Protocol):
    """What a vendor's status bar reads of the phone (:class:`~mobile_agent.device.sim.phone.SimPhone`
    is one; this module sits below it)."""

    look: Look
    seed: int
    gestures: int

    def dp(self, v: float) -> int: ...


def vendor_status_bar(phone: StatusPhone, box: Box, fg: RGB, bg: RGB | None, clock: str, battery: int,
                      icons: list[tuple[str, str]], package: str) -> Node:
    """A status bar in a vendor's style: ``samsung`` (small clock, notification glyphs after it,
    battery percentage always), ``miui`` (bold clock, network speed, battery as text and a bar),
    ``center`` (clock in the middle). ``icons``: (MDI name, content-desc) of the system glyphs."""
    style = phone.look.status_bar
    dp = phone.dp
    cy = box.center.y
    kids: list[Node] = []
    px = dp(13 if style == "samsung" else 15 if style == "miui" else 14)
    weight = 700 if style == "miui" else 500
    ic = dp(15 if style == "samsung" else 17)

    def txt(x1: int, s: str, size: int, rid: str, w: int = weight) -> int:
        tw = text_width(s, size, w)
        kids.append(Node(Box(x1, cy - size // 2, x1 + tw, cy + size // 2 + 2), cls="android.widget.TextView",
                         text=s, package=package, rid=rid,
                         paint=lambda c, b, s=s, size=size, w=w: c.text(b.x1, b.center.y, s, size, fg, w, "lm")))
        return tw

    def glyph_node(x1: int, name: str, desc: str) -> None:
        kids.append(Node(Box(x1, cy - ic // 2, x1 + ic, cy + ic // 2), cls="android.widget.ImageView", desc=desc,
                         package=package, paint=lambda c, b, n=name: c.icon(b.center.x, b.center.y, n, ic, fg)))

    right = box.x2 - dp(14)
    if style == "miui":
        # battery as a bar with the level beside it
        bw, bh = dp(22), dp(11)
        bar = Box(right - bw, cy - bh // 2, right, cy + bh // 2)

        def paint_bar(c: Canvas, b: Box) -> None:
            c.rect(b, outline=fg, width=max(1, dp(1)), radius=dp(2))
            inner = Box(b.x1 + dp(2), b.y1 + dp(2), b.x1 + dp(2) + (b.width - dp(4)) * battery // 100, b.y2 - dp(2))
            c.rect(inner, fill=fg)

        kids.append(Node(bar, cls="android.widget.ImageView", desc=f"Battery {battery} percent", package=package,
                         paint=paint_bar))
        right = bar.x1 - dp(4)
        s = f"{battery}"
        right -= text_width(s, dp(12), 500)
        txt(right, s, dp(12), "battery_percentage", 500)
        right -= dp(6)
    else:
        right -= ic
        glyph_node(right, "battery-70" if battery >= 65 else "battery-50", f"Battery {battery} percent")
        s = f"{battery}%"
        right -= text_width(s, px, weight) + dp(3)
        txt(right, s, px, "battery_percentage")
        right -= dp(5)
    for name, desc in reversed(icons):
        right -= ic
        glyph_node(right, name, desc)
        right -= dp(4)
    if style == "miui":
        speed = f"{(phone.seed * 29 + phone.gestures * 7) % 90 / 10:.1f}K/s"
        right -= text_width(speed, dp(10), 500) + dp(4)
        txt(right, speed, dp(10), "network_speed", 500)
    if style == "center":
        cw = text_width(clock, px, weight)
        txt(box.center.x - cw // 2, clock, px, "clock")
    else:
        x = dp(18)
        x += txt(x, clock, px, "clock") + dp(8)
        if style == "samsung":
            for name, desc in (("email-outline", "Mail notification"), ("message-text-outline", "Message notification")):
                glyph_node(x, name, desc)
                x += ic + dp(5)
    return Node(box, cls="android.widget.FrameLayout", package=package, rid="status_bar",
                paint=(lambda c, b: c.rect(b, fill=bg)) if bg else None, children=kids)

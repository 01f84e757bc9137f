"""The icon lexicon: what a description's words name, read from ``lexicon.toml`` (data, not code).

Words of a Click Icon description ("search", "three dots", "red plus", "Navigate up") map to glyph
specs (``VOCABULARY``), through phrases (``_PHRASES``) and synonyms (``_SYNONYM_WORDS``); words that
say nothing of the glyph are ignored (``_IGNORED``). Families (``_FAMILY_WORDS``) say which words
name one thing; colour, picture, avatar, switch and frame words say what else a description asks
for. :class:`IconQuery` is a description read once with all of these; the shape matcher
(``offline``), the learned matcher (``learned``) and Click Icon's priors (``perception.core``) read
it instead of re-reading the words. Nothing here draws or looks at pixels.
"""

from __future__ import annotations

import re
from pathlib import Path
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from mobile_agent.perception.icons.languages import in_english, use_lexicon


# The lexicon (perception/icons/lexicon.toml, data read once): description words -> glyph specs
# (``VOCABULARY``), phrases -> a vocabulary word (``_PHRASES``), other words for a vocabulary word
# (``_SYNONYM_WORDS``), words that say nothing of the glyph (``_IGNORED``), a Font Awesome glyph's
# drawing in Codicons and Elusive Icons (``OTHER_SETS``: ``cd:`` / ``el:``) and in Google's Material
# Icons (``MATERIAL_OF``). The file's comments say why each entry is there.
def _lexicon() -> dict[str, Any]:
    import tomllib

    path = Path(__file__).with_name("lexicon.toml")
    with path.open("rb") as f:
        return tomllib.load(f)


_LEXICON = _lexicon()


VOCABULARY: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _LEXICON["vocabulary"].items()}


_PHRASES: dict[str, str] = dict(_LEXICON["phrases"])


_SYNONYM_WORDS: dict[str, str] = dict(_LEXICON["synonyms"])


_IGNORED: set[str] = set(_LEXICON["words"]["ignored"])


OTHER_SETS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _LEXICON["other_sets"].items()}


MATERIAL_OF: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _LEXICON["material_of"].items()}


COLORS: dict[str, tuple[float, float] | str] = {
    "red": (345.0, 15.0), "orange": (15.0, 40.0), "yellow": (40.0, 70.0), "gold": (40.0, 60.0),
    "green": (70.0, 170.0), "teal": (160.0, 190.0), "cyan": (170.0, 200.0), "blue": (195.0, 255.0),
    "purple": (255.0, 300.0), "violet": (255.0, 300.0), "pink": (300.0, 345.0), "magenta": (290.0, 330.0),
    "black": "dark", "white": "light", "grey": "gray", "gray": "gray",
}


# "Show" and "Hide" name an eye only where nothing else is named ("Show / Hide played content",
# a list's eye toggle); before another shape word they are verbs ("Show dropdown menu").
VERB_GLYPHS = frozenset({"show", "hide"})


def _without_verbs(words: list[str], table: Mapping[str, Any]) -> list[str]:
    """``words`` less "show" and "hide" where another of them names a shape in ``table`` (a word
    or its singular): there they are verbs ("Show dropdown menu")."""
    if any(w not in VERB_GLYPHS and (table.get(w) or table.get(w.rstrip("s"))) for w in words):
        return [w for w in words if w not in VERB_GLYPHS]
    return words


# Glyph families: the one thing many words name ("bin", "trash", "delete"; "Navigate up" and
# "back arrow"). Two descriptions of the same family are the same icon (hybrid grounding matches
# a model's words to an app's content-desc this way); a family's pictures are the glyphs
# VOCABULARY gives its words, in both reference sets.
_FAMILY_WORDS: dict[str, tuple[str, ...]] = {
    "back": ("back", "navigate_up", "return"),
    "menu": ("menu", "menu_alone", "hamburger", "drawer", "navigation"),
    "more": ("more", "overflow", "options", "dots", "ellipsis", "kebab"),
    "search": ("search", "magnify", "magnifier", "find", "lookup", "loupe"),
    "settings": ("settings", "setting", "gear", "cog", "preferences", "config"),
    "delete": ("trash", "delete", "bin", "garbage", "remove", "erase"),
    "send": ("send", "plane", "sent"),
    "share": ("share",),
    "close": ("close", "cancel", "dismiss", "x", "clear"),
    "add": ("plus", "add", "new", "create"),
    "like": ("heart", "like", "love", "favorite", "favourite"),
    "notifications": ("bell", "notification", "notifications", "alert", "subscribe"),
    "cart": ("cart", "basket", "shopping", "buy", "bag"),
    "account": ("user", "profile", "account", "person", "avatar", "me"),
    "mic": ("mic", "microphone", "voice", "record"),
    "camera": ("camera", "photo"),
    "edit": ("edit", "pencil", "pen", "write", "compose"),
    "filter": ("filter",),
    "download": ("download",), "upload": ("upload",),
    "home": ("home", "house"), "flashlight": ("flashlight", "torch"), "fold": ("unfold_less", "unfold_more", "show_less", "show_more"),
    "tabs": ("tabs",),
    "star": ("star", "rate", "rating", "starred"),
    "refresh": ("refresh", "reload", "sync"),
    "play": ("play",), "pause": ("pause",), "next": ("next", "skip"), "previous": ("previous", "skip_previous"),
    "call": ("call", "phone", "dial", "dialer"),
    "mail": ("mail", "email", "envelope", "inbox", "unread"),
    "location": ("location", "pin", "map", "gps", "mylocation", "locate", "crosshair", "place", "places"),
    "calendar": ("calendar", "date", "today"),
    "comment": ("comment", "comments", "chat", "message", "messages", "reply", "bubble", "sms"),
    "bookmark": ("bookmark",), "info": ("info", "information"), "help": ("help", "question"),
    "check": ("check", "checkmark", "done", "ok", "confirm", "tick"), "save": ("save",),
    "attach": ("attach", "attachment", "clip", "attach_file"),
    "emoji": ("emoji", "smile", "smiley", "sticker"),
    "copy": ("copy",), "lock": ("lock",), "wifi": ("wifi", "wi-fi"), "bluetooth": ("bluetooth",),
    "volume": ("volume", "sound", "speaker", "unmute"), "mute": ("mute",),
    "dark": ("moon", "dark", "night"), "brightness": ("sun", "brightness"),
    "visibility": ("eye", "view", "visibility", "show"), "hide": ("hide", "hide_password"),
    "list": ("list",), "apps": ("grid", "apps"), "image": ("image", "picture", "gallery", "photos"),
    "video": ("video", "film", "movie"), "music": ("music", "song"), "link": ("link",),
    "flag": ("flag", "report"), "clock": ("clock", "time", "alarm", "timer", "history"),
    "globe": ("globe", "web", "browser", "internet", "language"), "keyboard": ("keyboard",),
    "qr": ("qr", "scan"), "folder": ("folder", "files"), "file": ("file", "document"),
    "thumbs_up": ("thumbs", "thumb", "upvote"), "thumbs_down": ("dislike", "downvote"),
}


FAMILY_OF_WORD: dict[str, str] = {w: fam for fam, words in _FAMILY_WORDS.items() for w in words}


def description_words(description: str) -> list[str]:
    """The description's words after phrases ("navigate up", "three dots") and synonyms are
    folded into vocabulary words."""
    text = in_english(description).lower()  # "搜索图标" is "search icon" (icons.languages)
    for phrase, word in sorted(_PHRASES.items(), key=lambda p: -len(p[0])):
        text = re.sub(rf"\b{re.escape(phrase)}\b", word, text)
    out = []
    for w in re.findall(r"[a-z][a-z\-_]*", text):
        w = _SYNONYM_WORDS.get(w, w)
        if w not in _IGNORED and w not in COLORS:
            out.append(w)
    if out == ["up"]:
        # "Up" alone ("Up", "Up button") is the toolbar's up button (Android's Navigate up), not an
        # arrow pointing up, which is named with what it does ("Scroll up", "Move up").
        return ["navigate_up"]
    if out == ["menu"]:
        return ["menu_alone"]  # "Menu", "Open menu", "Menu button": the hamburger or the overflow
    return out


def description_families(description: str) -> set[str]:
    """The glyph families a description names: {"back"} for "Navigate up" and for "back arrow",
    {"more"} for "More options", "kebab" and "three dots"."""
    out = set()
    for w in _without_verbs(description_words(description), FAMILY_OF_WORD):
        fam = FAMILY_OF_WORD.get(w) or FAMILY_OF_WORD.get(w.rstrip("s"))
        if fam:
            out.add(fam)
    return out


def context_phrase(description: str) -> str:
    """The words of a description that are neither shape, colour nor filler words: a name the icon
    sits next to ("Play Calm Evening" -> "Calm Evening")."""
    description = in_english(description)
    text = description.lower()
    for phrase in _PHRASES:
        text = text.replace(phrase, " ")
    keep = []
    for raw in re.findall(r"[^\s,;:()]+", description):
        w = raw.lower().strip(".!?'\"")
        base = _SYNONYM_WORDS.get(w, w)
        if not w or w in _IGNORED or w in COLORS or base in VOCABULARY or base.rstrip("s") in VOCABULARY:
            continue
        if w not in text:
            continue
        keep.append(raw)
    return " ".join(keep)


# Words that name a picture (a photo, a cover) rather than a glyph. "profile" alone is no such
# word: a Profile tab or button is a person glyph or a round avatar (the avatar branch), and
# taking it as a picture let any square photo thumbnail win for "Profile".
PICTURE_WORDS = {"photo", "photos", "picture", "pictures", "image", "images", "thumbnail", "thumbnails", "cover",
                 "artwork", "wallpaper", "poster", "preview", "avatar", "video", "clip", "screenshot", "screenshots"}


SWITCH_WORDS = {"switch", "toggle"}


# Words that name a control's frame rather than a glyph ("search bar", "Follow button").
FRAME_WORDS = {"button", "chip", "field", "bar", "pill", "tab", "box", "input"}


# A description of the account's picture ("profile picture", "Profile photo", "account avatar"):
# a round photo or a letter on a disc, not a glyph.
AVATAR_WORDS = {"avatar", "profile", "account"}


def is_avatar_description(description: str) -> bool:
    words = set(re.findall(r"[a-z]+", description.lower()))
    return bool(words & {"avatar"}) or bool(words & AVATAR_WORDS and words & {"picture", "photo", "image", "pic"})


def description_colors(description: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", description.lower()) if w in COLORS]


# Words that name a key or the keyboard itself: only these are looked for on the open keyboard
# (``icons.layout.keyboard_top``).
KEYBOARD_WORDS = frozenset({"keyboard", "key", "keys", "emoji", "emoticon", "emoticons", "sticker", "stickers", "gif",
                            "backspace", "shift", "enter", "space", "spacebar", "clipboard", "symbols", "caps"})
# Words that name the status bar's glyphs and the navigation bar's buttons (system UI, which loses
# to an app's icons unless named).
STATUS_WORDS = frozenset({"wifi", "wi-fi", "battery", "signal", "network", "bluetooth", "alarm", "notification",
                          "status", "clock", "time", "cellular", "mobile", "data", "airplane", "location", "vpn"})
NAV_WORDS = frozenset({"back", "home", "overview", "recent", "recents", "recent apps", "navigation", "nav", "triangle",
                       "circle", "square", "system"})


def _names_any(description: str, words: frozenset[str]) -> bool:
    """Whether ``description`` (a word of it, or the whole of it) is one of ``words``."""
    return bool((set(description.lower().replace("-", " ").split()) | {description.lower().strip()}) & words)


@dataclass(frozen=True)
class IconQuery:
    """A Click Icon description read once: its vocabulary words, the glyph families and colours
    they name, and what else it asks for (a picture, someone's or the user's own avatar, a switch,
    a framed control, a key of the keyboard, a system bar's glyph), and the words left over that
    name a text beside the icon (``context``). Built by :meth:`parse` (memoised)."""

    description: str
    words: tuple[str, ...]
    families: frozenset[str]
    colors: tuple[str, ...]
    context: str
    pictures: bool  # a picture's words: a photo, a cover, a thumbnail
    avatar: bool  # a profile picture ("profile photo", "avatar")
    account: bool  # "Account" or "Profile" alone: the user's own, a photo or a person glyph
    holds: bool  # what a round candidate holds counts (not a picture of a person)
    someone: bool  # a picture of a person: a profile picture, or someone's named profile ("@ann profile")
    switch: bool
    frame: bool
    keyboard: bool  # names a key or the keyboard
    status: bool  # names a status bar glyph
    nav: bool  # names a navigation bar button

    @staticmethod
    @lru_cache(maxsize=2048)
    def parse(description: str) -> "IconQuery":
        written, description = description, in_english(description)  # read in the lexicon's words
        words = tuple(description_words(description))
        raw = set(re.findall(r"[a-z]+", description.lower()))
        context = context_phrase(description)
        avatar = is_avatar_description(description)
        own = context.lower() in ("", "my", "your")
        return IconQuery(
            description=written, words=words, families=frozenset(description_families(description)),
            colors=tuple(description_colors(description)), context=context,
            pictures=bool(PICTURE_WORDS & raw), avatar=avatar,
            account=not avatar and bool(set(words) & {"account", "profile"}) and own,
            holds=not avatar and not (set(words) & set(_FAMILY_WORDS["account"]) and not own),
            someone=avatar or bool(set(words) & AVATAR_WORDS and not own),
            switch=bool(SWITCH_WORDS & raw), frame=bool(FRAME_WORDS & raw),
            keyboard=bool(raw & KEYBOARD_WORDS), status=_names_any(description, STATUS_WORDS),
            nav=_names_any(description, NAV_WORDS))


def _hand_over_words() -> None:
    """The word lists icons.languages needs (it does not import this module: the two would import each other)."""
    words: set[str] = set(VOCABULARY) | set(_SYNONYM_WORDS) | _IGNORED | set(COLORS)
    words |= {w for phrase in _PHRASES for w in phrase.split()}
    words |= set(FAMILY_OF_WORD) | PICTURE_WORDS | SWITCH_WORDS | FRAME_WORDS | AVATAR_WORDS
    words |= KEYBOARD_WORDS | STATUS_WORDS | NAV_WORDS
    glyphs = {w for w, specs in VOCABULARY.items() if specs} | set(_SYNONYM_WORDS) | set(FAMILY_OF_WORD)
    use_lexicon(frozenset(words), frozenset(w for w in glyphs if len(w) > 2 and w not in _IGNORED), tuple(_PHRASES))


_hand_over_words()

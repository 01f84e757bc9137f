"""Click Icon descriptions and positions in the user's language (issue 53, item 3).

The data file (``perception/icons/languages.toml``): its source header, the same concepts in its 20
languages, each word read as its concept's English word. Descriptions in several languages read as
the same :class:`IconQuery` as the English ones; positions ("右上角", "en haut à droite") as the
canonical words, an unknown word an error naming it. On the simulated phone's Chinese look, a
Chinese description finds the icon the English one finds (before: ambiguous, no point).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mobile_agent.agent.parser import parse_reply
from mobile_agent.errors import ConfigError
from mobile_agent.perception.icons import languages as lg
from mobile_agent.perception.icons.lexicon import VOCABULARY, IconQuery, description_words
from mobile_agent.perception.icons.recogniser import concept_of_spec, lexicon_concepts
from mobile_agent.perception.positions import parse_position
from mobile_agent.perception.positions import read_position as normalize_position  # other languages too
from tests.fakes import system

DATA = Path(lg.__file__).with_name("languages.toml")

# The concepts descriptions name most (issue 53's list), by the lexicon's English word.
MOST_USED = ("search", "settings", "back", "menu", "more options", "close", "share", "add", "delete", "edit", "home",
             "profile", "account", "notifications", "favorite", "like", "star", "camera", "microphone", "send",
             "play", "pause", "next", "previous", "download", "upload", "refresh", "filter", "sort", "calendar",
             "location", "call", "mail", "message", "info", "help", "lock", "bookmark", "cart", "attach", "copy",
             "done", "expand", "volume", "wifi", "bluetooth", "battery", "save")


def _same(a: IconQuery, b: IconQuery) -> tuple:
    return (a.families, a.words, a.context, a.frame, a.account, a.status, a.nav), \
           (b.families, b.words, b.context, b.frame, b.account, b.status, b.nav)


# ------------------------------------------------------------------------------------ the data file
def test_the_file_states_its_source_and_its_ranking_at_its_top():
    head = DATA.read_text(encoding="utf-8").split("[source]")[0]
    assert "written by the project's authors (ours)" in head
    assert "NOT extracted from AOSP" in head
    assert "Newzoo" in head and "smartphone users" in head
    assert "ours" in lg.DATA["source"]["written_by"] and "Newzoo" in lg.DATA["source"]["ranking"]


def test_twenty_languages_and_every_table_has_each_of_them():
    assert len(lg.LANGUAGES) == 20
    assert {"zh", "en", "hi", "es", "ar", "pt", "ru", "ja", "id", "bn", "de", "fr", "ur", "tr", "vi",
            "ko"} <= set(lg.LANGUAGES)
    for table in ("concepts", "frames", "positions"):
        for name, langs in lg.DATA[table].items():
            assert set(langs) == set(lg.LANGUAGES), (table, name, set(lg.LANGUAGES) ^ set(langs))
            assert all(words for lang, words in langs.items() if lang != "en" or table != "fillers"), (table, name)
    assert set(lg.DATA["fillers"]) == set(lg.LANGUAGES)


def test_the_most_used_concepts_are_there():
    assert set(MOST_USED) <= set(lg.DATA["concepts"]), set(MOST_USED) - set(lg.DATA["concepts"])
    assert set(lg.DATA["frames"]) == {"icon", "button"}
    assert set(lg.DATA["positions"]) == {"top", "bottom", "left", "right", "center"}


def test_every_concept_names_glyphs_the_lexicon_knows():
    known = set(lexicon_concepts())
    for english, langs in lg.DATA["concepts"].items():
        words = description_words(english)
        assert words and all(w in VOCABULARY for w in words), (english, words)
        concepts = {concept_of_spec(s) for w in words for s in VOCABULARY[w]}
        assert concepts and concepts <= known, (english, concepts - known)
        assert langs["en"] == [english]


@pytest.mark.parametrize("english", sorted(lg.DATA["concepts"]))
def test_every_word_reads_as_its_concepts_english_word(english):
    want = IconQuery.parse(english)
    assert want.words, english
    for lang, words in lg.DATA["concepts"][english].items():
        for word in words:
            got = IconQuery.parse(word)
            assert got.families == want.families and got.words == want.words, (lang, word, got.words, want.words)
            assert got.context == "", (lang, word, got.context)


def test_icon_and_button_read_as_the_english_words():
    for lang, words in lg.DATA["frames"]["button"].items():
        for word in words:
            assert IconQuery.parse(f"{word} 搜索").frame, (lang, word)
    for lang, words in lg.DATA["frames"]["icon"].items():
        for word in words:
            q = IconQuery.parse(f"{word} 设置")
            assert q.families == {"settings"} and q.context == "" and not q.frame, (lang, word, q)


def test_every_position_word_reads_as_its_position():
    for position, langs in lg.DATA["positions"].items():
        for lang, words in langs.items():
            for word in words:
                assert normalize_position(word) == (position,), (lang, word)


def test_no_word_names_two_things():
    lg._index.cache_clear()
    index = lg._index()  # raises naming the word and both of its meanings
    assert sum(len(v) for v in index.values()) > 1500


def test_a_word_the_lexicon_knows_stays_english():
    # French "menu" and Italian "home" are the English words; French "plus" alone is the English "plus".
    assert lg.in_english("menu") == "menu" and lg.in_english("home") == "home"
    assert IconQuery.parse("plus").families == {"add"}
    assert IconQuery.parse("plus d'options").families == {"more"}


@pytest.mark.parametrize("description", [
    "search", "Navigate up", "More options", "Play Calm Evening", "red plus, top right", "De Niro profile",
    "Alt key", "Settings gear", "three dots", "Search settings", "Account", "Turn flashlight on", "Hide details",
    "Open navigation drawer", "Avatar of me@example.com", "Send", "back arrow", "Jump to today"])
def test_english_descriptions_are_read_as_before(description):
    assert lg.in_english(description) == description


def test_a_description_naming_its_glyph_in_english_is_read_as_english():
    # "Ara" is Turkish for search, "sil" for delete: beside an English glyph word they are a name.
    assert lg.in_english("Ara profile") == "Ara profile" and IconQuery.parse("Ara profile").context == "Ara"
    assert lg.in_english("Settings 设置") == "Settings 设置"
    assert lg.in_english("Ara") == "search"  # alone, the other language's word
    assert lg.description_position("settings 右上角") == ()


# ---------------------------------------------------------------------------- descriptions
@pytest.mark.parametrize("foreign, english", [
    ("搜索图标", "search icon"), ("搜索", "search"), ("设置", "settings"), ("返回", "back"), ("更多选项", "more options"),
    ("更多", "more options"), ("发送按钮", "send button"), ("删除", "delete"), ("播放 Calm Evening", "Play Calm Evening"),
    ("右上角的设置", "settings"), ("検索アイコン", "search icon"), ("設定", "settings"), ("その他のオプション", "more options"),
    ("설정 버튼", "settings button"), ("검색", "search"), ("ค้นหา", "search"), ("ปุ่มส่ง", "send button"),
    ("Rechercher", "search"), ("Plus d'options", "more options"), ("icône des paramètres", "settings icon"),
    ("botón de enviar", "send button"), ("Más opciones", "more options"), ("Einstellungen", "settings"),
    ("Weitere Optionen", "more options"), ("Teilen", "share"), ("Pesquisar", "search"),
    ("Mais opções", "more options"),
    ("Поиск", "search"), ("Настройки", "settings"), ("Другие параметры", "more options"), ("Назад", "back"),
    ("खोजें", "search"), ("सेटिंग्स आइकन", "settings icon"), ("البحث", "search"), ("الإعدادات", "settings"),
    ("تنظیمات", "settings"), ("ترتیبات", "settings"), ("অনুসন্ধান", "search"), ("Cari", "search"),
    ("Kembali", "back"), ("Tìm kiếm", "search"), ("Cài đặt", "settings"), ("Ayarlar", "settings"),
    ("Impostazioni", "settings"), ("Altre opzioni", "more options"), ("Ustawienia", "settings"), ("Wyślij", "send"),
])
def test_a_translated_description_is_the_english_query(foreign, english):
    got, want = _same(IconQuery.parse(foreign), IconQuery.parse(english))
    assert got == want


def test_the_query_keeps_the_description_as_written_and_stays_memoised():
    q = IconQuery.parse("搜索图标")
    assert q.description == "搜索图标" and q.families == {"search"}
    assert IconQuery.parse("搜索图标") is q


# ------------------------------------------------------------------------------------ positions
@pytest.mark.parametrize("words, want", [
    ("右上角", ("top", "right")), ("左下角", ("bottom", "left")), ("顶部", ("top",)), ("中间", ("center",)),
    ("右上", ("top", "right")), ("en haut à droite", ("top", "right")), ("en bas à gauche", ("bottom", "left")),
    ("arriba a la derecha", ("top", "right")), ("abajo", ("bottom",)), ("oben rechts", ("top", "right")),
    ("unten links", ("bottom", "left")), ("справа вверху", ("top", "right")),
    ("в правом верхнем углу", ("top", "right")), ("canto superior direito", ("top", "right")),
    ("in alto a destra", ("top", "right")), ("sağ üst köşe", ("top", "right")),
    ("kanan atas", ("top", "right")), ("góc trên bên phải", ("top", "right")), ("오른쪽 위", ("top", "right")),
    ("画面の右上", ("top", "right")), ("ऊपर दाएं", ("top", "right")), ("أعلى اليمين", ("top", "right")),
    ("prawy górny róg", ("top", "right")), ("ด้านบนขวา", ("top", "right")), ("بالا سمت راست", ("top", "right")),
    ("top right", ("top", "right")), ("Middle", ("center",)),
])
def test_positions_in_other_languages_are_the_canonical_words(words, want):
    assert normalize_position(words) == want
    assert parse_position(words) == want


@pytest.mark.parametrize("words, bad", [("右上角xyz", "xyz"), ("oben quer", "quer"), ("topp", "topp"),
                                        ("设置", "设置"), (["top", "nowhere"], "nowhere")])
def test_an_unknown_position_word_is_an_error_naming_it(words, bad):
    with pytest.raises(ValueError, match=f"unknown position '{bad}'"):
        normalize_position(words)
    with pytest.raises(ConfigError, match=bad):
        parse_position(words)


def test_a_contradictory_position_in_another_language_is_still_refused():
    with pytest.raises(ValueError, match="contradictory"):
        normalize_position("上 下")


def test_a_description_names_its_position():
    assert lg.description_position("右上角的设置") == ("top", "right")
    assert lg.description_position("Einstellungen oben rechts") == ("top", "right")
    assert lg.description_position("buscar arriba") == ("top",)
    assert lg.description_position("settings at the top right") == ()  # English: the planner's own field
    assert lg.description_position("Alt key") == ()  # a position word alone is no other language


@pytest.mark.parametrize("reply, description, position", [
    ("Action: Click Icon (右上角的设置)", "右上角的设置", ("top", "right")),
    ("Action: 点击图标 (设置, 右上角)", "设置", ("top", "right")),
    ("Action: Click Icon (Einstellungen, oben rechts)", "Einstellungen", ("top", "right")),
    ("Action: Click Icon (更多)", "更多", ()),
    ("Action: Click Icon (settings at the top right)", "settings at the top right", ()),
])
def test_the_parser_reads_positions_in_other_languages(reply, description, position):
    op = parse_reply(reply).operation
    assert (op.description, op.position) == (description, position)


# --------------------------------------------------------------- the simulated phone's Chinese look
@pytest.fixture(scope="module")
def perception():
    from mobile_agent.perception import Perception

    return Perception()


def _screen(app: str, then: str | None = None):
    from mobile_agent.device.sim import SimPhone
    from mobile_agent.device.sim.look import Look
    from mobile_agent.screensets.measure import parse_tree

    phone = SimPhone(seed=0, look=Look(lang="zh"))
    phone.launch(app)
    w, h = phone.size()
    if then is not None:
        node = next(n for n in parse_tree(phone.ui_tree(), w, h) if n.desc == then)
        phone.tap(*node.box.center.as_tuple())
    return phone.screenshot(), [(n.desc or n.text, n.box) for n in parse_tree(phone.ui_tree(), w, h)]


@system.needs("noto-cjk")
@pytest.mark.parametrize("app, then, english, chinese, node", [
    ("Notes", None, "search", "搜索", "Search notes"),
    ("Notes", None, "add", "新建", "New note"),
    ("Music", None, "settings", "设置", "Settings"),
    ("Music", None, "settings", "右上角的设置", "Settings"),
    ("Browser", None, "more options", "更多选项", "More options"),
    ("Browser", None, "home", "主页", "Home"),
    ("Settings", None, "search", "搜索", "搜索设置"),  # the search bar's glyph, left of its hint
    ("Shop", None, "cart", "购物车", "Cart"),
    ("Mail", None, "menu", "菜单", "Open navigation drawer"),
    ("Mail", "Compose", "send", "发送", "Send"),
    ("Mail", "Compose", "more options", "更多", "More options"),
    ("Mail", "Compose", "attach", "附件", "Attach file"),
    ("Mail", "Compose", "back", "返回", "Back"),
])
def test_a_chinese_description_finds_the_icon_the_english_one_finds(perception, app, then, english, chinese, node):
    shot, nodes = _screen(app, then)
    en = perception.ground_icon(shot, english)
    zh = perception.ground_icon(shot, chinese, lg.description_position(chinese))
    near = 120 if app == "Settings" else 8  # the bar's glyph has no node of its own: near its hint's text
    boxes = [b for name, b in nodes if name == node]
    assert en.status == "found" and any(b.expand(near).contains_point(en.point) for b in boxes), (en.status, en.point)
    assert zh.status == "found" and zh.point == en.point, (zh.status, zh.point, zh.message)


@system.needs("noto-cjk")
def test_ground_icon_reads_a_position_written_in_the_description(perception):
    """The public API, without the parser: "右上角的设置" (settings, top right) is looked for at the top right."""
    shot, _ = _screen("Music", None)
    told = perception.ground_icon(shot, "设置", ("top", "right"))
    written = perception.ground_icon(shot, "右上角的设置")
    assert written.status == "found" and written.point == told.point
    w, h = shot.size
    assert written.point.x > w / 2 and written.point.y < h / 3

"""The scripts set: Click Text in the scripts the default recogniser does not read, drawn as real
apps draw them.

The development set's text in other scripts comes from very few apps (Korean podcast titles of one
app, country names in Arabic, Bengali and Sinhala of another, two Cyrillic language names), so a
rule for those scripts developed there may hold for those apps' styles only. This set draws the
screens real apps show in Korean (Hangul with digits and Latin mixed in: "312 손석희의 시선집중",
"SBS 파워FM · 매일 14:00"), Japanese (kanji and kana mixed), Russian (Cyrillic), Arabic (right to
left, with digits), Thai, Hindi (Devanagari) and Bengali, each in the font Android draws it with,
in the styles real apps use. The phenomena (a target's ``phenomenon`` is ``SCRIPT: KIND``):

- ``toolbar title``: the app bar's title in bold, 20 sp;
- ``tab``: a tab bar of three, the selected one in the accent with its underline, the others grey
  (Cyrillic tabs in capitals, as Material draws them); the node is the tab's cell;
- ``search hint``: a grey hint in a rounded search field;
- ``chip, white on colour``: white text on a filled chip, saturated or light (sky blue, amber,
  light olive: little contrast); the node is the chip;
- ``list title`` / ``grey subtitle``: a list row's title (16 sp) and its grey subtitle (14 sp);
  ``, mixed`` where the text mixes the script with digits or Latin words;
- ``word in a line``: one word of a row's title that is its own node (real dumps make such nodes);
- ``caption 12sp``: a small grey caption;
- ``button, white on colour``: a filled button; ``text button``: a button in the accent;
- ``dialog button``: an alert's buttons (often one or two short words: "확인", "はい", "نعم").

Each screen also names texts that are not on it (``absent``, kind ``SCRIPT: near miss`` -- a drawn
label with a word changed -- or ``SCRIPT: unrelated`` -- labels of the other screens); grounding
them must answer ``none``.

Half the screens are dark. Fonts: Noto Sans CJK KR and JP (Debian ``fonts-noto-cjk``), Roboto for
Cyrillic (pip ``fontpkg-roboto``; DejaVu Sans where it is missing), Noto Naskh Arabic, Noto Sans
Thai, Devanagari and Bengali with Noto Sans for their Latin and digits (Debian ``fonts-noto-core``).
A script whose font is missing is left out of the set (:func:`missing_scripts` says which and
why; the set is then not the frozen one). The seed fixes the set; :data:`FROZEN_SHA256` is seed
0's digest. Measured with ``mobile-agent bench perception --set scripts`` (figures per script;
docs/perception.md, "The scripts set").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from PIL import ImageFont

from mobile_agent.screensets.drawing import TextCanvas
from mobile_agent.screensets.text_stress import (
    StressScreen,
    StressTarget,
    _on_screen,
    _pkg_file,
    format_by_script,
    set_axes,
    set_digest,
)
from mobile_agent.types import Box

SEED = 0
PER_SCRIPT = 4  # screens per script: two light, two dark
# sha256 over seed 0's screens (pixels, size), targets and absent texts (:func:`set_digest`).
FROZEN_SHA256 = "3fca77a3bc412260c672332140ea53c0a1074b29ca4e7bd98ecdf3d63e6a5d95"
INSTALL = "apt-get install fonts-noto-cjk fonts-noto-core (and pip install -e '.[test]' for Roboto)"

_NOTO = "/usr/share/fonts/truetype/noto/"
_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-{}.ttc"
_DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans{}.ttf"

SIZES = ((1080, 2340, 2.625), (1080, 2400, 3.0), (720, 1600, 2.0), (1080, 2280, 2.75))
CHIP_COLOURS = ((229, 57, 53), (30, 136, 229), (67, 160, 71), (142, 36, 170), (251, 140, 0), (100, 181, 246),
                (174, 180, 90), (240, 98, 146), (38, 166, 154), (255, 193, 7), (121, 85, 72), (0, 150, 136))
ACCENTS = ((26, 115, 232), (0, 121, 107), (103, 80, 164), (211, 47, 47), (230, 81, 0), (46, 125, 50))


@dataclass(frozen=True)
class Script:
    """One script: its name, the fonts Android draws it with, whether it runs right to left, and
    the texts of its screens (each pool drawn from by the seeded generator)."""

    name: str
    fonts: tuple[tuple[str, int], tuple[str, int]]  # (path, collection index): regular, bold
    titles: tuple[str, ...]
    tabs: tuple[tuple[str, str, str], ...]
    hints: tuple[str, ...]
    chips: tuple[str, ...]
    rows: tuple[tuple[str, str], ...]
    captions: tuple[str, ...]
    buttons: tuple[str, ...]
    text_buttons: tuple[str, ...]
    dialogs: tuple[tuple[str, str, str, str], ...]  # title, message, negative, positive
    rtl: bool = False


KOREAN = Script(
    "Korean", ((_CJK.format("Regular"), 1), (_CJK.format("Bold"), 1)),
    ("팟캐스트", "라이브러리", "설정", "최근 들은 방송", "내 구독"),
    (("홈", "인기", "구독"), ("전체", "다운로드", "재생목록"), ("추천", "최신", "랭킹")),
    ("팟캐스트 검색", "검색어를 입력하세요", "노래, 아티스트 검색"),
    ("시사", "코미디", "스포츠 뉴스", "오늘의 운세", "재테크", "영어 회화", "역사 이야기", "드라마 OST"),
    (("312 손석희의 시선집중", "2023.11.02 업데이트"), ("KBS 1라디오 주말 특집", "에피소드 48개"),
     ("두시탈출 컬투쇼", "SBS 파워FM · 매일 14:00"), ("세상을 바꾸는 시간 15분", "조회수 1.2만회"),
     ("과학하고 앉아있네", "2024.03.15 업데이트"), ("영화 읽어주는 남자", "구독자 8,531명"),
     ("YTN 뉴스 브리핑", "오늘 07:30 방송"), ("배철수의 음악캠프", "MBC FM4U · 18:00")),
    ("3일 전", "재생 시간 45분", "광고 포함", "2시간 전 업데이트"),
    ("구독하기", "전체 재생", "다운로드", "로그인"),
    ("더보기", "공유", "나중에"),
    (("알림 설정", "새 에피소드가 올라오면 알려드릴까요?", "취소", "확인"),
     ("구독 취소", "이 채널의 구독을 취소할까요?", "아니요", "구독 취소하기")),
)
JAPANESE = Script(
    "Japanese", ((_CJK.format("Regular"), 0), (_CJK.format("Bold"), 0)),
    ("ホーム", "設定", "ライブラリ", "お知らせ", "マイページ"),
    (("おすすめ", "フォロー中", "ランキング"), ("すべて", "未読", "保存済み"), ("今日", "今週", "今月")),
    ("キーワードで検索", "曲名やアーティストを検索", "お店を探す"),
    ("ニュース", "音楽", "スポーツ", "映画", "グルメ", "旅行", "ゲーム実況", "料理レシピ"),
    (("東京の天気予報", "最終更新 2024年3月15日"), ("今週のおすすめプレイリスト", "全25曲 · 1時間32分"),
     ("日本語で学ぶ プログラミング入門", "第12回 配信中"), ("週末に行きたい カフェ特集", "2,341件のレビュー"),
     ("ポイントカードを登録する", "残高 1,280円"), ("通知の設定を変更", "メールとプッシュ通知"),
     ("NHK ニュース 7", "毎日 19:00 放送"), ("Wi-Fi ネットワークを選択", "接続済み")),
    ("3日前", "再生回数 1.5万回", "広告を含みます", "5分で読めます"),
    ("ダウンロード", "今すぐ登録", "購入する", "ログイン"),
    ("もっと見る", "共有", "あとで"),
    (("通知を許可", "新しいメッセージをお知らせしますか?", "キャンセル", "許可する"),
     ("削除の確認", "この写真を削除しますか?", "いいえ", "はい")),
)
RUSSIAN = Script(
    "Cyrillic", (("roboto", 400), ("roboto", 700)),
    ("Настройки", "Сообщения", "Библиотека", "Избранное", "Загрузки"),
    (("ЧАТЫ", "СТАТУС", "ЗВОНКИ"), ("ГЛАВНАЯ", "ПОДБОРКИ", "ИСТОРИЯ"), ("СЕГОДНЯ", "НЕДЕЛЯ", "МЕСЯЦ")),
    ("Поиск по чатам", "Найти в библиотеке", "Введите адрес"),
    ("Новости", "Спорт", "Рядом", "Открыто сейчас", "Доставка", "Скидки", "Кино", "Музыка"),
    (("Мобильный интернет", "Использовано 3,2 ГБ"), ("Резервное копирование", "Последнее: вчера в 21:40"),
     ("Уведомления и звук", "Не беспокоить до 7:00"), ("Язык и регион", "Русский (Россия)"),
     ("Яндекс Музыка", "Обновлено 12.03.2024"), ("Банковская карта Visa", "Действует до 08/27"),
     ("Фото из отпуска в Сочи", "128 фото · Общий альбом"), ("Подписка Premium", "Следующий платёж 15 мая")),
    ("5 мин назад", "Прочитано", "1,2 тыс. просмотров", "Реклама"),
    ("Продолжить", "Оплатить", "Установить", "Войти"),
    ("Подробнее", "Поделиться", "Позже"),
    (("Удалить чат?", "Сообщения будут удалены без возможности восстановления.", "ОТМЕНА", "УДАЛИТЬ"),
     ("Разрешить доступ", "Приложению нужен доступ к фото.", "Нет", "Да")),
)
ARABIC = Script(
    "Arabic", ((_NOTO + "NotoNaskhArabic-Regular.ttf", 0), (_NOTO + "NotoNaskhArabic-Bold.ttf", 0)),
    ("الإعدادات", "الرسائل", "المكتبة", "الأخبار", "حسابي"),
    (("الدردشات", "الحالة", "المكالمات"), ("الكل", "غير مقروءة", "المفضلة"), ("اليوم", "الأسبوع", "الشهر")),
    ("بحث", "ابحث عن مطعم", "ابحث في الرسائل"),
    ("رياضة", "أخبار", "قريب", "مفتوح الآن", "توصيل", "عروض", "أفلام", "موسيقى"),
    (("الشبكة والإنترنت", "تم استخدام 3.2 جيجابايت"), ("النسخ الاحتياطي", "آخر نسخ أمس 21:40"),
     ("الإشعارات", "مفعلة لـ 3 تطبيقات"), ("اللغة والمنطقة", "العربية مصر"),
     ("صور الرحلة إلى دبي", "128 صورة"), ("البطاقة المصرفية", "تنتهي في 08/27"),
     ("الاشتراك المميز", "الدفع التالي 15 مايو"), ("أخبار الرياضة اليوم", "منذ 5 دقائق")),
    ("منذ 3 أيام", "إعلان", "1200 مشاهدة", "قراءة في 5 دقائق"),
    ("متابعة", "ادفع الآن", "تثبيت", "تسجيل الدخول"),
    ("المزيد", "مشاركة", "لاحقا"),
    (("حذف المحادثة", "سيتم حذف جميع الرسائل من هذا الجهاز", "إلغاء", "حذف"),
     ("السماح بالوصول", "يحتاج التطبيق إلى الوصول إلى الصور", "رفض", "سماح")),
    rtl=True,
)
THAI = Script(
    "Thai", ((_NOTO + "NotoSansThai-Regular.ttf", 0), (_NOTO + "NotoSansThai-Bold.ttf", 0)),
    ("การตั้งค่า", "ข้อความ", "คลังเพลง", "ข่าววันนี้", "บัญชีของฉัน"),
    (("แชท", "สถานะ", "โทร"), ("ทั้งหมด", "ยังไม่อ่าน", "รายการโปรด"), ("วันนี้", "สัปดาห์", "เดือน")),
    ("ค้นหา", "ค้นหาร้านอาหาร", "ค้นหาเพลงหรือศิลปิน"),
    ("ข่าว", "กีฬา", "ใกล้ฉัน", "เปิดอยู่", "ส่งฟรี", "ส่วนลด", "ภาพยนตร์", "เพลง"),
    (("เครือข่ายและอินเทอร์เน็ต", "ใช้ไป 3.2 GB"), ("สำรองข้อมูล", "ล่าสุด เมื่อวาน 21:40"),
     ("การแจ้งเตือน", "เปิดใช้งาน 3 แอป"), ("ภาษาและภูมิภาค", "ไทย ประเทศไทย"),
     ("รูปภาพทริป เชียงใหม่", "128 รูป"), ("บัตรเครดิต Visa", "หมดอายุ 08/27"),
     ("สมาชิก Premium", "ชำระครั้งถัดไป 15 พ.ค."), ("ข่าวกีฬา วันนี้", "5 นาทีที่แล้ว")),
    ("3 วันที่แล้ว", "โฆษณา", "ดู 1.2 พันครั้ง", "อ่าน 5 นาที"),
    ("ดำเนินการต่อ", "ชำระเงิน", "ติดตั้ง", "เข้าสู่ระบบ"),
    ("ดูเพิ่มเติม", "แชร์", "ภายหลัง"),
    (("ลบแชท", "ข้อความทั้งหมดจะถูกลบ", "ยกเลิก", "ลบ"),
     ("อนุญาตการเข้าถึง", "แอปต้องการเข้าถึงรูปภาพ", "ไม่", "ตกลง")),
)
HINDI = Script(
    "Devanagari", ((_NOTO + "NotoSansDevanagari-Regular.ttf", 0), (_NOTO + "NotoSansDevanagari-Bold.ttf", 0)),
    ("सेटिंग", "संदेश", "लाइब्रेरी", "समाचार", "मेरा खाता"),
    (("चैट", "स्टेटस", "कॉल"), ("सभी", "अपठित", "पसंदीदा"), ("आज", "सप्ताह", "महीना")),
    ("खोजें", "रेस्टोरेंट खोजें", "गाने या कलाकार खोजें"),
    ("खेल", "समाचार", "आस-पास", "अभी खुला", "मुफ़्त डिलीवरी", "ऑफ़र", "फ़िल्में", "संगीत"),
    (("नेटवर्क और इंटरनेट", "3.2 GB इस्तेमाल हुआ"), ("बैकअप", "पिछला कल 21:40"),
     ("सूचनाएं", "3 ऐप के लिए चालू"), ("भाषा और क्षेत्र", "हिन्दी भारत"),
     ("गोवा यात्रा की तस्वीरें", "128 फ़ोटो"), ("क्रेडिट कार्ड Visa", "समाप्ति 08/27"),
     ("प्रीमियम सदस्यता", "अगला भुगतान 15 मई"), ("आज की खेल खबरें", "5 मिनट पहले")),
    ("3 दिन पहले", "विज्ञापन", "1.2 हज़ार बार देखा गया", "5 मिनट में पढ़ें"),
    ("जारी रखें", "भुगतान करें", "इंस्टॉल करें", "साइन इन करें"),
    ("और देखें", "शेयर करें", "बाद में"),
    (("चैट मिटाएं", "सभी संदेश मिटा दिए जाएंगे", "रद्द करें", "मिटाएं"),
     ("अनुमति दें", "ऐप को फ़ोटो देखने की अनुमति चाहिए", "नहीं", "हाँ")),
)
BENGALI = Script(
    "Bengali", ((_NOTO + "NotoSansBengali-Regular.ttf", 0), (_NOTO + "NotoSansBengali-Bold.ttf", 0)),
    ("সেটিংস", "বার্তা", "লাইব্রেরি", "খবর", "আমার অ্যাকাউন্ট"),
    (("চ্যাট", "স্ট্যাটাস", "কল"), ("সব", "অপঠিত", "প্রিয়"), ("আজ", "সপ্তাহ", "মাস")),
    ("অনুসন্ধান", "রেস্তোরাঁ খুঁজুন", "গান বা শিল্পী খুঁজুন"),
    ("খেলা", "খবর", "কাছাকাছি", "এখন খোলা", "ফ্রি ডেলিভারি", "অফার", "সিনেমা", "গান"),
    (("নেটওয়ার্ক ও ইন্টারনেট", "3.2 GB ব্যবহৃত"), ("ব্যাকআপ", "শেষ গতকাল 21:40"),
     ("বিজ্ঞপ্তি", "3টি অ্যাপের জন্য চালু"), ("ভাষা ও অঞ্চল", "বাংলা বাংলাদেশ"),
     ("কক্সবাজার ভ্রমণের ছবি", "128টি ছবি"), ("ক্রেডিট কার্ড Visa", "মেয়াদ 08/27"),
     ("প্রিমিয়াম সদস্যতা", "পরবর্তী পেমেন্ট 15 মে"), ("আজকের খেলার খবর", "5 মিনিট আগে")),
    ("3 দিন আগে", "বিজ্ঞাপন", "1.2 হাজার বার দেখা", "5 মিনিটে পড়ুন"),
    ("চালিয়ে যান", "পেমেন্ট করুন", "ইনস্টল করুন", "সাইন ইন করুন"),
    ("আরও দেখুন", "শেয়ার করুন", "পরে"),
    (("চ্যাট মুছুন", "সব বার্তা মুছে ফেলা হবে", "বাতিল", "মুছুন"),
     ("অনুমতি দিন", "অ্যাপের ছবি দেখার অনুমতি দরকার", "না", "হ্যাঁ")),
)
SCRIPTS: tuple[Script, ...] = (KOREAN, JAPANESE, RUSSIAN, ARABIC, THAI, HINDI, BENGALI)
SCREENS = PER_SCRIPT * len(SCRIPTS)
_LATIN = ((_NOTO + "NotoSans-Regular.ttf", 0), (_NOTO + "NotoSans-Bold.ttf", 0))


@lru_cache(maxsize=256)
def _font(path: str, index: int, px: int) -> ImageFont.FreeTypeFont:
    """A font at ``px`` pixels: a file (``index``: its face in a collection), or ``roboto`` (the
    pip package's variable Roboto at weight ``index``; DejaVu Sans where it is missing)."""
    if path == "roboto":
        p = _pkg_file("fontpkg_roboto", "Roboto[wdth,wght].ttf")
        if p is None:
            return ImageFont.truetype(_DEJAVU.format("-Bold" if index >= 600 else ""), px)
        f = ImageFont.truetype(str(p), px)
        set_axes(f, {"weight": index, "width": 100})
        return f
    return ImageFont.truetype(path, px, index=index)


def _font_missing(spec: tuple[str, int]) -> str | None:
    path = spec[0]
    if path == "roboto":
        ok = _pkg_file("fontpkg_roboto", "Roboto[wdth,wght].ttf") is not None or Path(_DEJAVU.format("")).exists()
        return None if ok else "Roboto or DejaVu Sans"
    return None if Path(path).exists() else Path(path).name


def missing_scripts() -> dict[str, str]:
    """The scripts the set leaves out here, each with the font it lacks and how to install it."""
    out: dict[str, str] = {}
    for s in SCRIPTS:
        # every script's screen draws what its font lacks (digits, Latin words) in Noto Sans
        # (``_Canvas.fonts``), and the status bar of all but Korean and Japanese in it
        need = [s.fonts[0], s.fonts[1], *_LATIN]
        lacking = list(dict.fromkeys(m for m in (_font_missing(f) for f in need) if m))
        if lacking:
            out[s.name] = f"{', '.join(lacking)} missing: {INSTALL}"
    return out


@lru_cache(maxsize=65536)
def _has_glyph(path: str, index: int, ch: str) -> bool:
    """Whether the font draws ``ch`` (its mask differs from the missing glyph's box)."""
    f = _font(path, index, 40)
    a = np.asarray(f.getmask(ch))
    b = np.asarray(f.getmask("\U000F0000"))
    return not (a.shape == b.shape and bool((a == b).all()))


class _Canvas(TextCanvas):
    """One screen being drawn: its image, density, colours, script, targets and texts so far."""

    def __init__(self, rng: random.Random, script: Script, width: int, height: int, density: float, dark: bool):
        super().__init__(rng, width, height, density, dark, ACCENTS)
        self.s = script
        self.surface = (44, 44, 48) if dark else (238, 240, 244)

    def fonts(self, sp: float, bold: bool = False) -> tuple[ImageFont.FreeTypeFont, ImageFont.FreeTypeFont]:
        """The script's font and the one for what it lacks (Latin, digits) at ``sp``."""
        px = max(8, self.px(sp))
        main = self.s.fonts[bold]
        return _font(main[0], main[1], px), _font(*_LATIN[bold], px)

    def runs(self, s: str, bold: bool) -> list[tuple[str, bool]]:
        """``s`` cut into runs the script's font draws (True) and runs it lacks (False); spaces go
        with the run before them."""
        main = self.s.fonts[bold]
        out: list[tuple[str, bool]] = []
        for ch in s:
            own = ch == " " or _has_glyph(main[0], main[1], ch)
            if out and (ch == " " or out[-1][1] == own):
                out[-1] = (out[-1][0] + ch, out[-1][1])
            else:
                out.append((ch, own))
        return out

    def length(self, s: str, sp: float, bold: bool = False) -> int:
        f, latin = self.fonts(sp, bold)
        return int(round(sum((f if own else latin).getlength(r) for r, own in self.runs(s, bold))))

    def line_h(self, sp: float, bold: bool = False) -> int:
        a, d = self.fonts(sp, bold)[0].getmetrics()
        return a + d

    def text(self, x: int, y: int, s: str, sp: float, fill: Any, bold: bool = False) -> Box:
        """Draws ``s`` with its top at ``y``, starting at ``x`` (its left end; right to left
        scripts pass the left end too); returns its box (the line's full height)."""
        f, latin = self.fonts(sp, bold)
        base = y + f.getmetrics()[0]
        runs = self.runs(s, bold)
        if len(runs) == 1 or self.s.rtl:
            # one font draws it all; raqm lays out the whole line (bidi: digits in Arabic)
            self.draw.text((x, base), s, font=f, fill=fill, anchor="ls")
        else:
            cx = float(x)
            for r, own in runs:
                ff = f if own else latin
                self.draw.text((cx, base), r, font=ff, fill=fill, anchor="ls")
                cx += ff.getlength(r)
        return Box(x, y, x + self.length(s, sp, bold), y + self.line_h(sp, bold))

    def place(self, x: int, width: int) -> int:
        """The left end of something ``width`` wide laid out at ``x`` from the start side (the
        right for a right-to-left script)."""
        return self.w - x - width if self.s.rtl else x

    def word_box(self, line: str, box: Box, word: str, sp: float, bold: bool = False) -> Box:
        """The box of ``word`` inside ``line`` drawn in ``box``."""
        i = line.index(word)
        before = self.length(line[:i], sp, bold)
        wlen = self.length(word, sp, bold)
        if self.s.rtl:
            return Box(box.x2 - before - wlen, box.y1, box.x2 - before, box.y2)
        return Box(box.x1 + before, box.y1, box.x1 + before + wlen, box.y2)

    def pick(self, pool: Sequence[Any], k: int | None = None) -> Any:
        free = [it for it in pool if not any(t in self.drawn for t in ((it,) if isinstance(it, str) else it))]
        out = self.rng.sample(free, 1 if k is None else k)
        return out[0] if k is None else out

    def target(self, text: str, box: Box, kind: str) -> None:
        mixed = kind in ("list title", "grey subtitle") and _mixed(text)
        self.targets.append(StressTarget(text, box.intersect(Box(0, 0, self.w, self.h)),
                                         f"{self.s.name}: {kind}{', mixed' if mixed else ''}"))
        self.drawn.append(text)


def _mixed(text: str) -> bool:
    """Whether ``text`` mixes its script with digits or Latin letters."""
    return any(ch.isascii() and ch.isalnum() for ch in text) and any(not ch.isascii() and ch.isalpha() for ch in text)


# ---------------------------------------------------------------------------------------------
# Blocks: each draws at ``y`` and returns its height.


def _status(cv: _Canvas, y: int) -> int:
    h = cv.px(28)
    f = _font(*_LATIN[0], cv.px(13)) if cv.s.name not in ("Korean", "Japanese") else cv.fonts(13)[0]
    clock = cv.rng.choice(("12:05", "9:41", "17:30"))
    cv.draw.text((cv.m, y + h // 2), clock, font=f, fill=cv.fg, anchor="lm")
    pct = f"{cv.rng.randint(12, 99)}%"
    cv.draw.text((cv.w - cv.m, y + h // 2), pct, font=f, fill=cv.fg, anchor="rm")
    return h


def _toolbar(cv: _Canvas, y: int) -> int:
    h = cv.px(56)
    title = cv.pick(cv.s.titles)
    x = cv.place(cv.px(72), cv.length(title, 20, True))  # Material's keyline after the navigation icon
    cv.target(title, cv.text(x, y + (h - cv.line_h(20, True)) // 2, title, 20, cv.fg, True), "toolbar title")
    ix = cv.place(cv.m, cv.px(22))
    cv.draw.rectangle((ix, y + h // 2 - cv.px(8), ix + cv.px(22), y + h // 2 - cv.px(6)), fill=cv.fg)
    cv.draw.rectangle((ix, y + h // 2 - cv.px(1), ix + cv.px(22), y + h // 2 + cv.px(1)), fill=cv.fg)
    cv.draw.rectangle((ix, y + h // 2 + cv.px(6), ix + cv.px(22), y + h // 2 + cv.px(8)), fill=cv.fg)
    return h


def _tabs(cv: _Canvas, y: int) -> int:
    h = cv.px(48)
    tabs = cv.pick(cv.s.tabs)
    sel = cv.rng.randrange(3)
    cell = cv.w // 3
    for i, t in enumerate(tabs):
        x0 = cv.place(i * cell, cell)
        colour = cv.accent if i == sel else cv.grey
        tw = cv.length(t, 14, i == sel)
        cv.text(x0 + (cell - tw) // 2, y + (h - cv.line_h(14)) // 2, t, 14, colour, i == sel)
        if i == sel:
            cv.draw.rectangle((x0 + cv.px(12), y + h - cv.px(3), x0 + cell - cv.px(12), y + h), fill=cv.accent)
        cv.target(t, Box(x0, y, x0 + cell, y + h), "tab")
    cv.draw.rectangle((0, y + h, cv.w, y + h + max(1, cv.px(0.5))), fill=cv.surface)
    return h + cv.px(8)


def _search(cv: _Canvas, y: int) -> int:
    h = cv.px(48)
    hint = cv.pick(cv.s.hints)
    cv.draw.rounded_rectangle((cv.m, y, cv.w - cv.m, y + h), radius=h // 2, fill=cv.surface)
    x = cv.place(cv.m + cv.px(48), cv.length(hint, 16))
    cv.target(hint, cv.text(x, y + (h - cv.line_h(16)) // 2, hint, 16, cv.grey), "search hint")
    return h + cv.px(12)


def _chips(cv: _Canvas, y: int) -> int:
    h = cv.px(32)
    x = cv.m
    colours = cv.rng.sample(CHIP_COLOURS, 4)
    for k, chip in enumerate(cv.pick(cv.s.chips, 4)):
        w = cv.length(chip, 14, True) + cv.px(32)
        if x + w > cv.w - cv.m:
            break
        x0 = cv.place(x, w)
        cv.draw.rounded_rectangle((x0, y, x0 + w, y + h), radius=h // 2, fill=colours[k])
        cv.text(x0 + cv.px(16), y + (h - cv.line_h(14, True)) // 2, chip, 14, (255, 255, 255), True)
        cv.target(chip, Box(x0, y, x0 + w, y + h), "chip, white on colour")
        x += w + cv.px(8)
    return h + cv.px(12)


def _rows(cv: _Canvas, y: int, n: int) -> int:
    rows = cv.pick(cv.s.rows, n)
    # one row's title holds a word that is its own node, a word on the screen once (no other
    # label of the script holds it)
    eligible = {i: [w for w in t.split() if sum(ch.isalpha() for ch in w) >= 2 and not w.isascii()
                    and not any(w in o for o in _labels(cv.s) - {t})]
                for i, (t, _) in enumerate(rows) if len(t.split()) >= 2}
    eligible = {i: ws for i, ws in eligible.items() if ws}
    word_row = cv.rng.choice(sorted(eligible)) if eligible else None
    h = cv.px(72)
    for i, (title, sub) in enumerate(rows):
        top = y + i * h
        av = cv.px(40)
        ax = cv.place(cv.m, av)
        cv.draw.ellipse((ax, top + (h - av) // 2, ax + av, top + (h + av) // 2), fill=cv.rng.choice(CHIP_COLOURS))
        tx = cv.m + av + cv.px(16)
        th, sh = cv.line_h(16), cv.line_h(14)
        ty = top + (h - th - sh - cv.px(2)) // 2
        tb = cv.text(cv.place(tx, cv.length(title, 16)), ty, title, 16, cv.fg)
        sb = cv.text(cv.place(tx, cv.length(sub, 14)), ty + th + cv.px(2), sub, 14, cv.grey)
        if i == word_row:
            word = cv.rng.choice(eligible[i])
            cv.target(word, cv.word_box(title, tb, word, 16), "word in a line")
            cv.drawn.append(title)
        else:
            cv.target(title, tb, "list title")
        cv.target(sub, sb, "grey subtitle")
    return n * h


def _labels(s: Script) -> set[str]:
    """Every text the script's screens may show."""
    return (set(s.titles) | {t for tabs in s.tabs for t in tabs} | set(s.hints) | set(s.chips)
            | {t for row in s.rows for t in row} | set(s.captions) | set(s.buttons) | set(s.text_buttons)
            | {t for d in s.dialogs for t in d})


def _caption(cv: _Canvas, y: int) -> int:
    cap = cv.pick(cv.s.captions)
    sp = cv.rng.choice((12, 13, 14))
    cv.target(cap, cv.text(cv.place(cv.m, cv.length(cap, sp)), y, cap, sp, cv.grey), "caption 12sp")
    return cv.line_h(sp) + cv.px(12)


def _buttons(cv: _Canvas, y: int) -> int:
    h = cv.px(40)
    label = cv.pick(cv.s.buttons)
    w = cv.length(label, 14, True) + cv.px(48)
    x0 = cv.place(cv.m, w)
    fill = cv.accent if cv.rng.random() < 0.6 else cv.rng.choice(CHIP_COLOURS)
    cv.draw.rounded_rectangle((x0, y, x0 + w, y + h), radius=h // 2, fill=fill)
    cv.text(x0 + cv.px(24), y + (h - cv.line_h(14, True)) // 2, label, 14, (255, 255, 255), True)
    cv.target(label, Box(x0, y, x0 + w, y + h), "button, white on colour")
    tb = cv.pick(cv.s.text_buttons)
    tw = cv.length(tb, 14, True) + cv.px(24)
    x1 = cv.place(cv.m + w + cv.px(16), tw)
    cv.text(x1 + cv.px(12), y + (h - cv.line_h(14, True)) // 2, tb, 14, cv.accent, True)
    cv.target(tb, Box(x1, y, x1 + tw, y + h), "text button")
    return h + cv.px(16)


def _dialog(cv: _Canvas, y: int) -> int:
    title, msg, neg, pos = cv.rng.choice(cv.s.dialogs)
    pad = cv.px(24)
    x0, x1 = cv.m + cv.px(8), cv.w - cv.m - cv.px(8)
    h = pad + cv.line_h(20, True) + cv.px(12) + cv.line_h(14) + cv.px(20) + cv.px(40) + cv.px(12)
    card = (56, 56, 60) if cv.dark else (255, 255, 255)
    cv.draw.rounded_rectangle((x0, y, x1, y + h), radius=cv.px(24), fill=card, outline=cv.surface, width=cv.px(1))
    inner = x1 - x0 - 2 * pad
    ty = y + pad
    tb = cv.text(cv.place(cv.w - x1 + pad, cv.length(title, 20, True)), ty, title, 20, cv.fg, True)
    cv.drawn.append(title)
    del tb
    my = ty + cv.line_h(20, True) + cv.px(12)
    while cv.length(msg, 14) > inner and " " in msg:
        msg = msg.rsplit(" ", 1)[0]
    cv.text(cv.place(cv.w - x1 + pad, cv.length(msg, 14)), my, msg, 14, cv.grey)
    cv.drawn.append(msg)
    by = my + cv.line_h(14) + cv.px(20)
    bh = cv.px(40)
    # the buttons at the end side: positive last
    x = cv.w - x1 + pad
    for label in (pos, neg):
        bw = cv.length(label, 14, True) + cv.px(24)
        bx = cv.w - x - bw if not cv.s.rtl else x
        cv.text(bx + cv.px(12), by + (bh - cv.line_h(14, True)) // 2, label, 14, cv.accent, True)
        cv.target(label, Box(bx, by, bx + bw, by + bh), "dialog button")
        x += bw + cv.px(8)
    return h + cv.px(12)


def _absent(cv: _Canvas, rng: random.Random) -> list[tuple[str, str]]:
    """Two labels of the script's other screens (unrelated) and two drawn labels with a word
    changed (near misses), none of them on the screen."""
    s = cv.s
    pool = list(s.titles) + list(s.chips) + [t for t, _ in s.rows] + list(s.buttons) + list(s.text_buttons)
    drawn = list(cv.drawn)
    ok = lambda t: not any(_on_screen(t, d) or _on_screen(d, t) for d in drawn)  # noqa: E731
    out: list[tuple[str, str]] = []
    for t in rng.sample(pool, len(pool)):
        if len(out) == 2:
            break
        if ok(t) and t not in [o for o, _ in out]:
            out.append((t, f"{s.name}: unrelated"))
    words = sorted({w for t in pool for w in t.split() if not w.isascii() and len(w) >= 2})
    multi = [t.text for t in cv.targets if len(t.text.split()) >= 2]
    for t in rng.sample(multi, len(multi)):
        if len(out) == 4:
            break
        parts = t.split()
        k = rng.randrange(len(parts))
        for w in rng.sample(words, len(words)):
            if w in parts:
                continue
            near = " ".join(parts[:k] + [w] + parts[k + 1:])
            if ok(near):
                out.append((near, f"{s.name}: near miss"))
                break
    return out


def make_screen(rng: random.Random, script: Script, index: int, dark: bool) -> StressScreen:
    w, h, d = rng.choice(SIZES)
    cv = _Canvas(rng, script, w, h, d, dark)
    y = _status(cv, 0)
    y += _toolbar(cv, y)
    y += _tabs(cv, y)
    if rng.random() < 0.5:
        y += _search(cv, y)
    y += _chips(cv, y)
    for block in rng.sample(("rows", "caption", "buttons", "dialog"), 4):
        left = h - y - cv.px(24)
        if block == "rows":
            n = max(0, min(4, left // cv.px(72)))
            if n:
                y += _rows(cv, y, n)
        elif block == "caption" and left > cv.px(30):
            y += _caption(cv, y)
        elif block == "buttons" and left > cv.px(60):
            y += _buttons(cv, y)
        elif block == "dialog" and left > cv.px(170):
            y += _dialog(cv, y)
    look = f"{script.name}, {'dark' if dark else 'light'}, {w}x{h}"
    return StressScreen(f"scripts-{index:02d}", cv.img, cv.targets, _absent(cv, rng), look, cv.drawn)


def collect_scripts_screens(seed: int = SEED, count: int = SCREENS) -> list[StressScreen]:
    """The set: :data:`PER_SCRIPT` screens of each script whose fonts are installed (two light, two
    dark), from a generator seeded with ``seed``; the first ``count``."""
    _font.cache_clear()
    rng = random.Random(f"text-scripts:{seed}")
    missing = missing_scripts()
    screens: list[StressScreen] = []
    for si, script in enumerate(SCRIPTS):
        for k in range(PER_SCRIPT):
            r = random.Random(f"{rng.random()}")
            if script.name in missing:
                continue
            screens.append(make_screen(r, script, si * PER_SCRIPT + k, dark=k % 2 == 1))
    return screens[:count]


def available() -> bool:
    """Whether at least one script's fonts are installed."""
    return len(missing_scripts()) < len(SCRIPTS)


def format_figures(d: dict[str, Any], title: str = "scripts set") -> list[str]:
    """The text set's figures (:func:`~mobile_agent.screensets.text_stress.format_stress`), then
    per script: Click Text, first point, and texts not on the screen answered none; and the scripts
    left out for a missing font."""
    return format_by_script(d, title, [s.name for s in SCRIPTS], missing_scripts())


__all__ = ["SCRIPTS", "SCREENS", "SEED", "FROZEN_SHA256", "collect_scripts_screens", "format_figures",
           "missing_scripts", "set_digest", "available"]

"""Which operations ask the user first (``run --confirm``): a decision on what will actually be
touched, never on the model's own words.

- Click Text: the text of the grounded element (what OCR read where the tap lands).
- Click Icon: what the icon under the tap is, whatever the model called it: the glyph the icon
  matcher recognises in the chosen box (a trash can deletes, a paper plane sends, a download arrow
  installs, a credit card pays: "dustbin" and "waste basket" on Mail's trash ask), the
  accessibility tree's content-desc or text at the tap where there is a tree, and any text read on
  it; the model's description counts too, but only to ask more, never less.
- A generic confirmation (OK, Yes, Continue, Allow...) is risky when the screen around it names a
  risky act ("Delete 3 messages?", "Pay $12.00"): the screen's other lines are its context. An act
  toward the user is none ("Allow Mail to send you notifications?", "We'll send you a code").
- Type: the typed text is content, never a reason (``Type (please send money)`` is not risky); a
  Type that presses Enter (text ending in a newline) may send or submit, and is asked about.
- Open App, Page Up/Down, Back, Exit and Stop touch nothing that cannot be undone.

The words are :data:`DEFAULT_WORDS` (English and the common words of other languages) and
:data:`CONFIRM_WORDS`; a user file extends them (:func:`load_rules`): one word or phrase per line,
``#`` starts a comment, ``!word`` removes a default word. The default user file is
``$XDG_CONFIG_HOME/mobile-agent/confirm-words.txt`` (``~/.config/...``) when it exists.

Usage::

    rules = load_rules(path_or_None)
    decision = assess(op, touched_text="Send", screen_text=["New message", "To: Ann", "Send"], rules=rules)
    if decision.risky: ask(decision.why)
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from mobile_agent.errors import ConfigError

#: act -> words and phrases that name it, on a button, a menu item or an icon's description.
DEFAULT_WORDS: dict[str, tuple[str, ...]] = {
    "sends": ("send", "reply", "reply all", "forward", "share", "post", "publish", "submit", "tweet", "upload",
              "paper plane", "paper airplane",
              # de, fr, es, it, pt, nl, ru, zh, ja, ko
              "senden", "absenden", "antworten", "teilen", "veröffentlichen", "envoyer", "répondre", "partager",
              "publier", "soumettre", "enviar", "responder", "compartir", "publicar", "invia", "rispondi",
              "condividi", "pubblica", "partilhar", "versturen", "verzenden", "delen", "отправить", "ответить",
              "поделиться", "опубликовать", "发送", "回复", "分享", "发布", "提交", "送信", "返信", "共有", "投稿",
              "보내기", "전송", "답장", "공유", "게시"),
    "pays": ("buy", "buy now", "pay", "pay now", "payment", "purchase", "checkout", "check out", "place order",
             "order now", "subscribe", "donate", "transfer", "kaufen", "jetzt kaufen", "bezahlen", "zahlen",
             "bestellen", "acheter", "payer", "commander", "comprar", "pagar", "acquista", "paga", "ordina",
             "kopen", "betalen", "купить", "оплатить", "заказать", "购买", "支付", "付款", "下单", "购入", "購入",
             "支払", "注文", "구매", "결제", "주문"),
    "deletes": ("delete", "remove", "erase", "uninstall", "trash", "trash can", "bin", "garbage", "wastebasket",
                "discard", "wipe", "clear data", "clear all", "factory reset", "reset", "löschen", "entfernen",
                "deinstallieren", "zurücksetzen", "supprimer", "effacer", "désinstaller", "eliminar", "borrar",
                "desinstalar", "elimina", "cancella", "disinstalla", "verwijderen", "удалить", "сбросить", "删除",
                "卸载", "清除", "重置", "削除", "アンインストール", "삭제", "제거"),
    "installs": ("install", "download", "installieren", "herunterladen", "installer", "télécharger", "instalar",
                 "descargar", "baixar", "installa", "scarica", "installeren", "downloaden", "установить",
                 "скачать", "安装", "下载", "インストール", "ダウンロード", "설치", "다운로드"),
    "signs out": ("sign out", "log out", "logout", "sign off", "deactivate", "delete account", "close account",
                  "abmelden", "se déconnecter", "déconnexion", "cerrar sesión", "esci", "uitloggen", "выйти",
                  "退出登录", "注销", "ログアウト", "로그아웃"),
    "confirms": ("confirm", "bestätigen", "confirmer", "confirmar", "conferma", "bevestigen", "подтвердить",
                 "确认", "確認", "확인"),
}

#: Generic answers to a question on the screen: risky when the screen names a risky act.
CONFIRM_WORDS: tuple[str, ...] = ("ok", "okay", "yes", "continue", "allow", "agree", "i agree", "accept",
                                  "proceed", "done", "got it", "ja", "oui", "sí", "si", "weiter", "continuer",
                                  "continuar", "continua", "да", "是", "好", "はい", "예")


def user_rules_file() -> Path:
    """Where a user's own words are read from by default."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mobile-agent" / "confirm-words.txt"


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _is_cjk(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return any(s in name for s in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))


def _pattern(phrase: str) -> re.Pattern[str]:
    p = _norm(phrase)
    body = r"\s+".join(re.escape(w) for w in p.split(" "))
    if any(_is_cjk(c) for c in p):  # no spaces between words: a part of a line is a match
        return re.compile(body)
    # whole words, with the common English endings (deletes, deleted, sending, shared)
    return re.compile(rf"(?<!\w){body}(?:s|es|d|ed|ing)?(?!\w)")


@dataclass
class RiskRules:
    """The words that make a touched element risky, by the act they name, and the generic
    confirmations that take their risk from the screen around them."""

    words: dict[str, list[str]] = field(default_factory=lambda: {k: list(v) for k, v in DEFAULT_WORDS.items()})
    confirmations: list[str] = field(default_factory=lambda: list(CONFIRM_WORDS))
    source: str = "built-in list"

    def __post_init__(self) -> None:
        self._compiled = [(act, w, _pattern(w)) for act, ws in self.words.items() for w in ws]
        self._confirm = [_pattern(w) for w in self.confirmations]

    def match(self, text: str) -> tuple[str, str] | None:
        """(act, word) of the first risky word in ``text``, or None."""
        t = _norm(text)
        if not t:
            return None
        for act, word, pat in self._compiled:
            if pat.search(t):
                return act, word
        return None

    def is_confirmation(self, text: str) -> bool:
        t = _norm(text)
        return bool(t) and len(t) <= 24 and any(p.fullmatch(t) for p in self._confirm)


def load_rules(path: str | Path | None = None) -> RiskRules:
    """The built-in words, extended by ``path`` (or by :func:`user_rules_file` when it exists and no
    path is given). A line is a word or phrase (``act: word`` files it under an act, default
    "is on your list"); ``!word`` drops a built-in word; ``#`` starts a comment."""
    explicit = path is not None
    p = Path(path) if path is not None else user_rules_file()
    if not explicit and not p.is_file():
        return RiskRules()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"confirm words file not found: {p} (one word or phrase per line)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the confirm words file {p}: {exc}") from exc
    rules = RiskRules()
    words = rules.words
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("!"):
            drop = _norm(line[1:])
            for act in words:
                words[act] = [w for w in words[act] if _norm(w) != drop]
            rules.confirmations = [w for w in rules.confirmations if _norm(w) != drop]
            continue
        act, sep, word = line.partition(":")
        if not sep or not word.strip():
            act, word = "is on your list", line
        act, word = act.strip() or "is on your list", word.strip()
        if not _norm(word):
            raise ConfigError(f"{p}, line {n}: no word after {act!r}")
        words.setdefault(act, []).append(word)
    return RiskRules(words, rules.confirmations, str(p))


@dataclass(frozen=True)
class RiskDecision:
    """Whether an operation needs the user's yes, and why (``why`` is shown in the question)."""

    risky: bool
    why: str = ""
    touched: str = ""


SAFE = RiskDecision(False)
#: Operations that touch nothing that cannot be undone, whatever is on the screen.
SAFE_OPERATIONS = frozenset({"OpenApp", "PageUp", "PageDown", "Back", "Exit", "Wait", "Stop", "Answer", "SwipePoints"})


#: Glyphs whose meaning is an act to confirm, as the icon matcher names them, and the act.
RISKY_GLYPHS: dict[str, str] = {"trash can": "deletes", "paper plane": "sends", "download": "installs",
                                "credit card": "pays"}
#: Other common glyphs: a box is one of the risky glyphs only if it looks more like it than like these.
OTHER_GLYPHS: tuple[str, ...] = (
    "battery", "archive", "envelope", "back arrow", "more options", "search", "star", "heart", "share",
    "settings gear", "home", "menu", "pencil", "bell", "plus", "close", "account", "calendar", "camera", "phone",
    "play", "refresh", "filter", "bookmark", "shopping cart", "location pin", "microphone", "reply", "forward",
    "lock", "folder", "image", "check", "info", "link", "copy", "cast")
#: The least score of the matcher for a glyph to be recognised.
GLYPH_MIN_SCORE = 0.75


def glyph_at(perception: Any, screenshot: Any, box: Sequence[int]) -> tuple[str, float] | None:
    """The risky glyph (a key of :data:`RISKY_GLYPHS`) the perception's icon matcher sees in ``box``
    of ``screenshot``, with its score; None when the box is none of them, lies in the status bar, or
    there is no matcher."""
    if screenshot is None:
        return None
    try:
        import numpy as np

        from mobile_agent.perception.glyphs import read_glyph
        from mobile_agent.types import Box

        # only a shape that looks like a risky glyph pays for the comparison with the others
        reading = read_glyph(perception, np.asarray(screenshot.convert("RGB")), Box(*[int(v) for v in box[:4]]),
                             tuple(RISKY_GLYPHS), min_score=GLYPH_MIN_SCORE, rivals=OTHER_GLYPHS)
        return None if reading is None else (reading.word, reading.score)
    except Exception:  # noqa: BLE001 - no matcher answer: the other signs decide
        return None


def tree_label_at(tree: str | None, point: Sequence[int] | None) -> str | None:
    """The content-desc or text of the smallest labelled node of a uiautomator dump under ``point``."""
    if not tree or point is None:
        return None
    from mobile_agent.perception.elements import smallest_at, tree_elements

    under = smallest_at([e for e in tree_elements(tree) if e.label.strip()], int(point[0]), int(point[1]),
                        edges=False)
    return under[0].label.strip() if under else None


def received_label(tree: str | None, point: Sequence[int] | None, rules: RiskRules | None = None) -> str | None:
    """The tree's label of what a touch at ``point`` reaches: of the innermost clickable node that
    holds it (agent/touch.py), the first of its subtree's words that ``rules`` find risky, else its
    first word; where no clickable node holds the point, the smallest labelled node there
    (:func:`tree_label_at`). A node behind a menu or a dialog over the point is never the label."""
    if not tree or point is None or len(point) < 2:
        return None
    from mobile_agent.agent.touch import in_tree

    got = in_tree(tree, int(point[0]), int(point[1]))
    if got is None:
        return tree_label_at(tree, point)
    if got.on_keyboard and not got.words:
        return None  # the keyboard's Backspace: it erases a typed character
    words = got.words
    if rules is not None:
        for w in words:
            if rules.match(w) is not None:
                return w
    return words[0] if words else None


def assess(op: Any, *, touched_text: str | None = None, screen_text: Sequence[str] | Iterable[str] = (),
           rules: RiskRules | None = None, glyph: tuple[str, float] | None = None,
           tree_label: str | None = None) -> RiskDecision:
    """Decide on ``op`` from what it will touch: ``touched_text`` is the grounded element's text
    (Click Text: the OCR text at the tap; Click Icon: any text read on the icon), ``screen_text``
    the screen's other lines, ``glyph`` the risky glyph the icon matcher recognised at the tap
    (:func:`glyph_at`), ``tree_label`` the accessibility tree's label there (:func:`tree_label_at`).
    See the module docstring for the rules."""
    rules = rules or RiskRules()
    kind = type(op).__name__
    if kind == "Type":
        text = getattr(op, "text", "") or ""
        if "\n" in text or "\r" in text:
            return RiskDecision(True, "it presses Enter after typing, which may send or submit", "Enter")
        return SAFE
    if kind in SAFE_OPERATIONS:
        return SAFE
    if kind == "PressKey":  # a point model's system button: Enter may send or submit, as a Type's newline
        if getattr(op, "key", "") == "enter":
            return RiskDecision(True, "it presses Enter, which may send or submit", "Enter")
        return SAFE
    if getattr(op, "sensitive", ""):  # the model itself marks the tap sensitive (AutoGLM's message=)
        return RiskDecision(True, f"the model marks this tap as sensitive: {op.sensitive}", str(op.sensitive))
    if glyph is not None:  # what the icon is, whatever the model called it
        name, _ = glyph
        act = RISKY_GLYPHS[name]
        label = f"the {name} icon" + (f" ({tree_label})" if tree_label else "")
        return RiskDecision(True, f"{label} {act} (the glyph at the tap)", label)
    if tree_label:
        hit = rules.match(tree_label)
        if hit is not None:
            act, word = hit
            return RiskDecision(True, f"{tree_label!r} {act} (the screen's accessibility label at the tap, matches "
                                      f"{word!r})", tree_label)
    if getattr(op, "description", None):  # Click Icon (and a long press on an icon)
        desc = str(getattr(op, "description"))
        touched = f"{desc} icon" + (f" ({touched_text})" if touched_text else "")
        subjects = [desc] + ([touched_text] if touched_text else [])
    elif getattr(op, "text", None) is not None or touched_text:  # Click Text (and a long press on a text)
        touched = touched_text if touched_text else str(getattr(op, "text", "") or "")
        subjects = [touched]
    else:
        return SAFE
    for s in subjects:
        hit = rules.match(s)
        if hit is not None:
            act, word = hit
            return RiskDecision(True, f"{touched!r} {act} (matches {word!r})", touched)
    if any(rules.is_confirmation(s) for s in subjects):
        own = {_norm(s) for s in subjects}
        for line in screen_text:
            if _norm(line) in own:
                continue
            hit = rules.match(_toward_user(line, rules))
            if hit is not None:
                act, word = hit
                return RiskDecision(True, f"{touched!r} answers {line.strip()!r} on the screen, which {act} "
                                          f"(matches {word!r})", touched)
    return SAFE


_VERB_YOU = re.compile(r"(?<!\w)(\w+)\s+you(?!\w)")


def _toward_user(line: str, rules: RiskRules) -> str:
    """``line`` less the acts the app does toward the user ("Allow Mail to send you
    notifications?", Android's notification permission; "we'll send you a code"; "we pay you"): a
    risky word whose object is "you" names what the user receives, not what answering does."""
    return _VERB_YOU.sub(lambda m: "you" if rules.match(m.group(1)) else m.group(0), _norm(line))


def touched_text_of(grounding: Any) -> str | None:
    """The text of the chosen candidate of a step's grounding (a step record's dict, or a typed
    record with ``candidates`` and ``chosen``); None when nothing was chosen or it has no text."""
    c = chosen_candidate(grounding)
    if c is None:
        return None
    text = c.get("text") if isinstance(c, dict) else getattr(c, "text", None)
    return str(text) if text else None


def screen_lines(perception: Any, image: Any) -> list[str]:
    """The text lines on ``image`` (the perception's parse is cached per screenshot, so this is the
    parse grounding already made); empty when the perception cannot say."""
    parse = getattr(perception, "parse", None)
    if parse is None or image is None:
        return []
    try:
        return [str(line.text) for line in parse(image).lines]
    except Exception:  # noqa: BLE001 - without context the decision rests on the touched element alone
        return []


def chosen_candidate(grounding: Any) -> Any:
    """The chosen candidate (dict or record) of a step's grounding, or None."""
    if grounding is None:
        return None
    get = grounding.get if isinstance(grounding, dict) else (lambda k: getattr(grounding, k, None))
    cands, chosen = get("candidates"), get("chosen")
    if not cands or not isinstance(chosen, int) or isinstance(chosen, bool) or not 0 <= chosen < len(cands):
        return None
    return cands[chosen]


def decide(op: Any, grounding: Any, perception: Any = None, screenshot: Any = None,
           rules: RiskRules | None = None, tree: str | None = None, gesture: Any = None) -> RiskDecision:
    """The decision for a grounded step: :func:`assess` on what is under the tap (the chosen
    candidate's text; for an icon, the glyph the matcher recognises there; the accessibility
    ``tree``'s label there where the step had one) and the screen's lines (``rules`` None: the
    built-in words and the user's file, :func:`load_rules`). The agent loops call this at the one
    place they ask the user. ``gesture``, where given, is judged by what it presses
    (``device.gestures.as_press``): an operation that ought to touch nothing (a Page Down) whose
    swipe is shorter than the touch slop is a tap at its start, judged by what lies there."""
    if rules is None:
        rules = _default_rules()
    kind = type(op).__name__
    if kind in SAFE_OPERATIONS and gesture is not None and screenshot is not None:
        from mobile_agent.device.gestures import as_press

        press = as_press(gesture, screenshot.width)
        if press is not None:
            return press_decision(perception, screenshot, (press.x, press.y), rules, tree)
    if kind in SAFE_OPERATIONS or kind in ("Type", "PressKey"):
        return assess(op, rules=rules)
    cand = chosen_candidate(grounding)
    get = (cand.get if isinstance(cand, dict) else (lambda k: getattr(cand, k, None))) if cand is not None else None
    text = touched_text_of(grounding)
    glyph = tree_label = None
    if get is not None:
        if not text and get("box"):  # an icon: what is it?
            glyph = glyph_at(perception, screenshot, get("box"))
        tree_label = received_label(tree, get("point"), rules)
    decision = assess(op, touched_text=text, screen_text=screen_lines(perception, screenshot), rules=rules,
                      glyph=glyph, tree_label=tree_label)
    point = get("point") if get is not None else None
    if decision.risky or not point or len(point) < 2:
        return decision
    return _received(decision, perception, screenshot, (int(point[0]), int(point[1])), rules, tree,
                     skip_glyph=glyph is not None)


def _received(decision: RiskDecision, perception: Any, screenshot: Any, point: tuple[int, int], rules: RiskRules,
              tree: str | None, skip_glyph: bool = False) -> RiskDecision:
    """``decision`` (on what lies under ``point``), or the decision on the element the phone gives
    the touch to (:func:`mobile_agent.agent.touch.receiver`: the innermost clickable node, or a text
    line's row, or an icon) where its words or its glyph are risky: a tap right of a menu's
    "Delete", inside its row, deletes."""
    from mobile_agent.agent.touch import receiver

    if screenshot is None and not tree:
        return decision
    got = receiver(perception, screenshot, point[0], point[1], tree)
    for word in got.words:
        hit = rules.match(word)
        if hit is not None:
            act, matched = hit
            return RiskDecision(True, f"the tap at {point} reaches {got.summary()}, and {word!r} {act} "
                                      f"(matches {matched!r})", word)
    if not skip_glyph:
        for box in got.icon_boxes[:3]:
            glyph = glyph_at(perception, screenshot, box.as_tuple())
            if glyph is not None:
                name, _ = glyph
                return RiskDecision(True, f"the tap at {point} reaches the {name} icon, which "
                                          f"{RISKY_GLYPHS[name]} (the glyph there)", f"the {name} icon")
    return decision


def press_decision(perception: Any, screenshot: Any, point: Sequence[int], rules: RiskRules,
                   tree: str | None = None) -> RiskDecision:
    """The decision for a press at ``point`` that no grounding chose: judged as a Click Text on
    the line read there, the glyph of the smallest icon box there and the tree's label there."""
    from mobile_agent.agent.operations import ClickText

    x, y = int(point[0]), int(point[1])
    text: str | None = None
    glyph = None
    try:
        res = perception.parse(screenshot)
        lines = [ln for ln in res.lines if ln.box.x1 <= x <= ln.box.x2 and ln.box.y1 <= y <= ln.box.y2]
        if lines:
            text = str(min(lines, key=lambda ln: ln.box.area).text)
        icons = [ic for ic in (res.icons or []) if ic.box.x1 <= x <= ic.box.x2 and ic.box.y1 <= y <= ic.box.y2]
        if icons:
            glyph = glyph_at(perception, screenshot, min(icons, key=lambda ic: ic.box.area).box.as_tuple())
    except Exception:  # noqa: BLE001 - no perception: the tree's label still decides
        pass
    decision = assess(ClickText(text or ""), touched_text=text, rules=rules, glyph=glyph,
                      tree_label=received_label(tree, (x, y), rules),
                      screen_text=screen_lines(perception, screenshot))
    if not decision.risky:
        decision = _received(decision, perception, screenshot, (x, y), rules, tree, skip_glyph=glyph is not None)
    if decision.risky:
        return RiskDecision(True, f"a swipe this short is a tap at ({x}, {y}): {decision.why}", decision.touched)
    return decision


def _default_rules() -> RiskRules:
    try:
        return load_rules()
    except ConfigError:  # a broken user file: the built-in words still hold
        return RiskRules()

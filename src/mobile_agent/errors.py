"""The package's exception hierarchy (every error a user can cause has a message that names the cause and
the fix), and :func:`redact`, which keeps secrets out of those messages and of every file written."""

from __future__ import annotations

import re as _re
from typing import Any


class MobileAgentError(Exception):
    """Base class of every error this package raises on purpose."""


class ConfigError(MobileAgentError):
    """A setting, option or environment variable is missing or invalid (CLI exit status 2)."""


class ImageError(MobileAgentError):
    """An image could not be read or decoded."""


class DeviceError(MobileAgentError):
    """The device refused an operation or could not be reached."""


class DeviceNotFoundError(DeviceError):
    """No device matches the request (none attached, unknown serial, no adb server)."""


class ProgramNotFoundError(DeviceNotFoundError, ConfigError):
    """A program a device kind needs (``adb``) is not installed: a configuration error (CLI exit status 2),
    not "nothing attached" (1). Still a :class:`DeviceNotFoundError` for code that catches those."""


class DeviceDisconnectedError(DeviceError):
    """The device went away during a run."""


class InvalidGestureError(DeviceError):
    """A gesture the device cannot perform: coordinates off the screen, negative duration..."""


class ModelError(MobileAgentError):
    """A chat model call failed after its retries, or cannot be made (no key, unknown model)."""


class ParseError(MobileAgentError):
    """A model reply could not be parsed into an operation."""


class TimeLimitReached(ModelError):
    """The run's wall-clock limit came while a model call was under way (the run ends as ``time_limit``)."""


class StorageError(MobileAgentError, OSError):
    """A file or folder could not be written (disk full, read-only folder, no permission): CLI exit 1.
    Still an ``OSError``, so that code that classifies those (the benchmark's environment failures) sees it."""

    def __str__(self) -> str:  # the message, not OSError's "[Errno N] strerror: filename"
        return str(self.args[0]) if self.args else ""


class Terminated(KeyboardInterrupt):
    """SIGTERM: the process was asked to end; a run ends as it does on Ctrl-C (outcome ``interrupted``)."""


# --- secrets kept out of messages and files ---------------------------------------------------------

_SECRETS: set[str] = set()
_URL_USERINFO = _re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@\"'<>]+@")
_AUTH_VALUE = _re.compile(r"(?i)\b(authorization|proxy-authorization|x-api-key|api-key)(\"?\s*[:=]\s*\"?)"
                          r"(bearer\s+|basic\s+)?[^\s\"',;]+")
_BEARER = _re.compile(r"(?i)\b(bearer)\s+[a-z0-9._~+/=-]{12,}")
_BASIC = _re.compile(r"(?i)\b(basic)\s+([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])")
_KEY_PARAM = _re.compile(r"(?i)([?&](?:api[_-]?key|key|token|access_token|sig|signature)=)[^&\s\"'<>]+")
_KEY_LIKE = _re.compile(r"\b(?:sk|pk|rk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{12,}|\bAIza[0-9A-Za-z_-]{20,}")
REDACTED = "***"


#: The shortest value remembered as a secret. Providers' keys are 20 characters and more; a shorter
#: value is a placeholder for a local server that needs no key ("none", "local", "k"), and replacing
#: it everywhere would corrupt text and data (a key "wrong" turned the results' "first_wrong" into
#: "first_***"). Such a value is still kept out of files by the patterns below where it sits in a
#: header or a URL.
MIN_SECRET_CHARS = 8


#: The shortest value the user may give as a secret (``--secret NAME=VALUE``): a 4-digit PIN is the
#: common case. A user's secret is removed whatever its length from this on (unlike an API key, it
#: is no placeholder); a shorter one cannot be removed from every text without taking every digit
#: or letter it is made of, so it is refused (:func:`check_user_secret`).
MIN_USER_SECRET_CHARS = 4
#: The user's secrets (value -> NAME): written ``{NAME}``, as the records write what was typed.
_NAMED: dict[str, str] = {}


def remember_secret(value: str | None, name: str | None = None) -> None:
    """Add ``value`` to what :func:`redact` removes from any text. An API key the process holds
    (no ``name``) is taken from :data:`MIN_SECRET_CHARS` characters (see there) and written ``***``;
    a secret the user gave (``--secret NAME=VALUE``: ``name``) whatever its length, written
    ``{NAME}`` (:func:`check_user_secret` refuses one too short to be removed)."""
    if not value:
        return
    if name is not None:
        check_user_secret(name, value)
        _NAMED[value] = name
        if value.strip() and value.strip() != value:
            _NAMED[value.strip()] = name
    elif len(value.strip()) >= MIN_SECRET_CHARS:
        _SECRETS.add(value.strip())
        _SECRETS.update(_derived(value.strip()))


def _derived(text: str) -> set[str]:
    """What a server may echo of ``text`` in another form: base64 (a ``Basic`` header holds
    ``user:password`` so; with or without its ``=`` padding), and its percent-encoded form."""
    import base64
    from urllib.parse import quote

    out = set()
    for form in (text, quote(text, safe="")):
        b64 = base64.b64encode(form.encode("utf-8")).decode("ascii")
        out.update({b64, b64.rstrip("=")})
    out.add(quote(text, safe=""))
    return {d for d in out if len(d) >= MIN_SECRET_CHARS}


def remember_url(url: str | None) -> None:
    """Remember the credentials of a URL's ``user:password@`` (a ``--base-url``): the password,
    as written and percent-decoded, and ``user:password`` in base64, which the HTTP client sends as
    the ``Basic`` header a server may echo into an error."""
    if not url:
        return
    from urllib.parse import unquote, urlsplit

    try:
        parts = urlsplit(url)
        user, password = parts.username, parts.password
    except ValueError:
        return
    if not user and not password:
        return
    for u, p in ((user or "", password or ""), (unquote(user or ""), unquote(password or ""))):
        if len(p) >= MIN_SECRET_CHARS:  # a shorter one is still removed where it sits in a URL or a header
            _SECRETS.add(p)
        if p:
            _SECRETS.update(_derived(p))
        _SECRETS.update(_derived(f"{u}:{p}"))


def check_user_secret(name: str, value: str) -> None:
    """A :class:`ConfigError` for a ``--secret`` value too short to be kept out of every record."""
    if len(value.strip()) < MIN_USER_SECRET_CHARS:
        raise ConfigError(f"--secret {name}: a secret needs at least {MIN_USER_SECRET_CHARS} characters (got "
                          f"{len(value.strip())}): a shorter value cannot be kept out of the records without "
                          "removing every such digit or letter from them")


def forget_secrets() -> None:
    """Forget the keys :func:`remember_secret` took (a long-lived process between runs; tests)."""
    _SECRETS.clear()
    _NAMED.clear()


def held_secrets() -> bool:
    """Whether the process holds a secret of the user (``--secret``) that :func:`redact` removes."""
    return bool(_NAMED)


def redact(text: str) -> str:
    """``text`` without secrets: the API keys this process holds, ``user:password@`` in URLs,
    ``Authorization`` (and ``x-api-key``) values, bearer tokens, ``?key=`` URL parameters, and
    strings shaped like provider keys (``sk-...``)."""
    if not text:
        return text
    for value in sorted(_NAMED, key=len, reverse=True):  # as OCR may read it back first, then as it is
        text = _mask_near(text, value, "{" + _NAMED[value] + "}")
        if value in text:
            text = text.replace(value, "{" + _NAMED[value] + "}")
    return _redact_keys(text)


#: Characters OCR confuses with one another, each mapped to one of its group (``l 1 I i | !``,
#: ``o 0 O``, ``s 5 S``, ``b 8 B``, ``z 2 Z``, ``g 9 q``), so that a secret read back off the screen
#: a character off ("cl1ck4ll" as "cl1ck411|") is still the secret.
_OCR_SAME = {**{c: "l" for c in "1Ii|!"}, **{c: "o" for c in "0O"}, **{c: "s" for c in "5S"},
             **{c: "b" for c in "8B"}, **{c: "z" for c in "2Z"}, **{c: "g" for c in "9q"}}


def _ocr_form(text: str) -> str:
    """``text`` lower-cased and with OCR's look-alike characters made one: one character for each, so
    that a position in the form is the same position in ``text``."""
    out = []
    for c in text:
        c = _OCR_SAME.get(c, c)
        low = c.lower()
        out.append(_OCR_SAME.get(low, low) if len(low) == 1 else c)
    return "".join(out)


def near_misses_allowed(value: str) -> int:
    """How many characters a reading of ``value`` may differ by (after :func:`_ocr_form`) and still
    be taken for it: none under 6 characters (a 4-digit PIN would take every number near it), one
    up to 11, two from 12."""
    n = len(value.strip())
    return 0 if n < 6 else 1 if n < 12 else 2


def _mask_near(text: str, value: str, mask: str) -> str:
    """``text`` with every stretch that reads as ``value`` (OCR's look-alikes made one, and up to
    :func:`near_misses_allowed` characters inserted, dropped or changed) written ``mask``."""
    v = _ocr_form(value.strip())
    if not v or len(text) < len(v) - near_misses_allowed(value):
        return text
    k = near_misses_allowed(value)
    t = _ocr_form(text)
    if k == 0:
        spans, start = [], t.find(v)
        while start >= 0:
            spans.append((start, start + len(v)))
            start = t.find(v, start + len(v))
    else:
        from rapidfuzz import fuzz
        from rapidfuzz.distance import Levenshtein

        if fuzz.partial_ratio(v, t) < 100.0 * (1 - (2 * k + 1) / (2 * len(v))):
            return text
        spans, i = [], 0
        while i <= len(t) - (len(v) - k):
            if text[i].isspace():  # a stretch begins with a character
                i += 1
                continue
            # the longest stretch from i that reads as the value (a trailing look-alike is masked too)
            n = next((n for n in range(min(len(v) + k, len(t) - i), len(v) - k - 1, -1)
                      if Levenshtein.distance(t[i:i + n], v, score_cutoff=k) <= k), 0)
            if n:
                a, b = i, i + n
                while b > a and text[b - 1].isspace():
                    b -= 1
                spans.append((a, b))
                i += n
            else:
                i += 1
    for a, b in reversed(spans):
        text = text[:a] + mask + text[b:]
    return text


def _redact_keys(text: str) -> str:
    """:func:`redact` less the user's secrets (they may be short: see :func:`redact_json`)."""
    for s in sorted(_SECRETS, key=len, reverse=True):
        if s in text:
            text = text.replace(s, REDACTED)
    text = _URL_USERINFO.sub(lambda m: m.group(1) + REDACTED + "@", text)
    text = _AUTH_VALUE.sub(lambda m: m.group(1) + m.group(2) + (m.group(3) or "") + REDACTED, text)
    text = _BEARER.sub(lambda m: m.group(1) + " " + REDACTED, text)
    text = _BASIC.sub(lambda m: m.group(1) + " " + REDACTED if _is_credentials(m.group(2)) else m.group(0), text)
    text = _KEY_PARAM.sub(lambda m: m.group(1) + REDACTED, text)
    return _KEY_LIKE.sub(REDACTED, text)


def _is_credentials(token: str) -> bool:
    """Whether ``token`` (after "Basic") is base64 of ``user:password``, as a Basic header holds."""
    import base64
    import binascii

    try:
        raw = base64.b64decode(token + "=" * (-len(token) % 4), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return ":" in raw and raw.isprintable()


def redact_json(data: Any, **dumps: Any) -> str:
    """``json.dumps(data, **dumps)`` with every secret removed: every string in it (keys and values)
    through :func:`redact`, then the whole text through the patterns and the API keys (an
    ``Authorization`` key and its value are two strings). A user's secret of 4 characters is removed
    from strings only, never from the numbers of the record (a duration of 4711 ms stays one)."""
    import json

    return _redact_keys(json.dumps(_redact_strings(data), **dumps))


def _redact_strings(data: Any) -> Any:
    if isinstance(data, str):
        return redact(data)
    if isinstance(data, dict):
        return {(redact(k) if isinstance(k, str) else k): _redact_strings(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_redact_strings(v) for v in data]
    return data


def one_line(text: str, limit: int = 300) -> str:
    """``text`` redacted, on one line, at most ``limit`` characters (for messages quoting a server)."""
    flat = " ".join(redact(str(text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

"""Small helpers for writing the report pages: the Jinja2 environment (autoescaping), image sources,
the bundled CSS and JS, number formats."""

from __future__ import annotations

import base64
import functools
import html
import io
import json
import math
import os
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from PIL import Image


def static_text(name: str) -> str:
    """The text of a file bundled in ``mobile_agent/report/static``."""
    return resources.files("mobile_agent.report").joinpath("static", name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _environment() -> Any:
    import jinja2
    from markupsafe import Markup

    def finalize(value: Any) -> Any:
        # text is escaped as html.escape does (&quot; rather than &#34;), so pages keep their bytes
        if isinstance(value, str) and not isinstance(value, Markup):
            return Markup(html.escape(value, quote=True))
        return value

    return jinja2.Environment(loader=jinja2.PackageLoader("mobile_agent.report", "templates"),
                              autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                              finalize=finalize)


def render_static(name: str, **context: Any) -> str:
    """Render the bundled page ``static/<name>`` as an autoescaped Jinja2 template."""
    return _environment().from_string(static_text(name)).render(**context)


def render_template(name: str, **context: Any) -> str:
    """Render ``templates/<name>`` with autoescaping: every value is escaped where it is inserted,
    except the bundled style sheet and script (``css``, ``script``), which are trusted files."""
    from markupsafe import Markup

    context.setdefault("css", Markup(static_text("report.css")))
    if "script" in context and isinstance(context["script"], str):
        context["script"] = Markup(context["script"])
    return _environment().get_template(name).render(**context)


def inline_json(data: Any) -> str:
    """JSON for a ``<script type="application/json">`` block (no ``</script>`` can end it early)."""
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")


def relative_src(target: Path, page: Path) -> str:
    """A URL for ``target`` relative to the folder of ``page``, for ``<img src>`` on a file page."""
    try:
        rel = os.path.relpath(target.resolve(), page.resolve().parent)
    except ValueError:  # another drive on Windows: no relative path exists
        return target.resolve().as_uri()
    return quote(Path(rel).as_posix())


def data_uri(path: Path) -> str:
    """The file at ``path`` as a ``data:`` URI (PNG or JPEG by its first bytes)."""
    data = path.read_bytes()
    mime = "image/jpeg" if data[:3] == b"\xff\xd8\xff" else "image/png"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def thumbnail_uri(path: Path, height: int = 192) -> str:
    """A small JPEG of the image at ``path`` as a ``data:`` URI (for filmstrips of embedded reports)."""
    with Image.open(path) as im:
        im = im.convert("RGB")
        w = max(1, round(im.width * height / im.height))
        small = im.resize((w, height), Image.Resampling.BILINEAR)
    buf = io.BytesIO()
    small.save(buf, "JPEG", quality=80)
    return f"data:image/jpeg;base64,{base64.b64encode(buf.getvalue()).decode('ascii')}"


def fmt_time(value: Any) -> str:
    """An ISO timestamp as people read it: ``2026-12-02 10:15:00 UTC`` (the offset when not UTC);
    anything else as it is, ``–`` for nothing."""
    from datetime import datetime, timedelta

    if not value:
        return "–"
    try:
        t = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if t.tzinfo is None:
        return t.strftime("%Y-%m-%d %H:%M:%S")
    offset = t.utcoffset() or timedelta(0)
    if not offset:
        return t.strftime("%Y-%m-%d %H:%M:%S UTC")
    return t.strftime("%Y-%m-%d %H:%M:%S UTC%z")[:-2] + ":" + t.strftime("%z")[-2:]


def fmt_seconds(value: Any) -> str:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return "–"
    if value >= 90:
        m, s = divmod(float(value), 60)
        return f"{int(m)} min {s:.0f} s"
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def fmt_int(value: Any) -> str:
    if num(value) is None:
        return "–"
    return f"{int(value):,}"


def fmt_cost(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "–"
    return f"${value:.4f}" if value < 1 else f"${value:.2f}"


def fmt_pct(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "–"
    return f"{100.0 * value:.1f}%"


def num(value: Any) -> float | None:
    """``value`` as a float when it is a finite real number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    f = float(value)
    return f if math.isfinite(f) else None

"""Small helpers for writing the report pages: escaping, image sources, the bundled CSS and JS."""

from __future__ import annotations

import base64
import html
import io
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from PIL import Image


def esc(value: Any) -> str:
    """``value`` as text safe inside HTML (None becomes an empty string)."""
    if value is None:
        return ""
    return html.escape(value if isinstance(value, str) else str(value), quote=True)


def static_text(name: str) -> str:
    """The text of a file bundled in ``mobile_agent/report/static``."""
    return resources.files("mobile_agent.report").joinpath("static", name).read_text(encoding="utf-8")


def page_head(title: str) -> str:
    """The opening of a self-contained report page, through ``</head>``: charset, viewport,
    generator, ``title`` (escaped here) and the report style sheet inlined."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mobile-agent report">
<title>{esc(title)}</title>
<style>{static_text("report.css")}</style>
</head>
"""


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


def fmt_seconds(value: Any) -> str:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return "–"
    if value >= 90:
        m, s = divmod(float(value), 60)
        return f"{int(m)} min {s:.0f} s"
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def fmt_int(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
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
    """``value`` as a float when it is a real number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)

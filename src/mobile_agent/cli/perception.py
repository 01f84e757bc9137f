"""CLI commands: ``parse`` (every text line and icon box of a screenshot) and ``locate`` (ground a
text, an app label or an icon description on a screenshot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from mobile_agent.errors import ConfigError


def _load(image: Path):
    """The screenshot at ``image``; one that is missing or unreadable is a usage error (exit 2), so that
    ``locate``'s exit 1 means only "not found"."""
    from mobile_agent.errors import ImageError
    from mobile_agent.types import load_image

    try:
        return load_image(image)
    except ImageError as exc:
        raise ConfigError(str(exc)) from None


def _perception(ocr: str, detector: str, matcher: str = "offline"):
    from mobile_agent.perception import Perception

    return Perception(ocr=ocr, detector=detector, matcher=matcher, incremental=False)


def parse_cmd(
    image: Path = typer.Argument(..., help="Screenshot (PNG or JPEG)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    annotate: Optional[Path] = typer.Option(None, "--annotate", help="Write a copy with the boxes drawn to this PNG."),
    icons: bool = typer.Option(True, "--icons/--no-icons", help="Also detect icons."),
    ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr or tesseract."),
    detector: str = typer.Option("cv", "--detector", help="Icon detector: cv, yolo:PATH or gdino:PATH."),
) -> None:
    """Every text line and icon box found on IMAGE, with timings."""
    from mobile_agent.perception.marks import draw_marks

    img = _load(image)
    p = _perception(ocr, detector)
    res = p.parse(img, icons=icons)
    if annotate is not None:
        boxes = [line.box for line in res.lines] + [i.box for i in (res.icons or [])]
        labels = [f"T{i}" for i in range(len(res.lines))] + [f"I{i}" for i in range(len(res.icons or []))]
        from mobile_agent.fsutil import atomic_save_image

        atomic_save_image(annotate, draw_marks(img, boxes, labels=labels))
    if as_json:
        typer.echo(json.dumps(res.to_dict(), ensure_ascii=False))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{escape(image.name)}: {res.width}x{res.height}, {len(res.lines)} text lines, "
                        f"{len(res.icons or [])} icons")
    for col in ("id", "kind", "text", "box", "score"):
        table.add_column(col)
    for i, line in enumerate(res.lines):
        table.add_row(f"T{i}", "text", Text(line.text), str(list(line.box.as_tuple())), f"{line.score:.2f}")
    for i, ic in enumerate(res.icons or []):
        table.add_row(f"I{i}", f"icon ({ic.source})", "", str(list(ic.box.as_tuple())), f"{ic.score:.2f}")
    console = Console()
    console.print(table)
    console.print("timings: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in res.timings.items()))


def locate_cmd(
    image: Path = typer.Argument(..., help="Screenshot (PNG or JPEG)."),
    text: Optional[str] = typer.Option(None, "--text", help="A text to find (Click Text)."),
    icon: Optional[str] = typer.Option(None, "--icon", help="An icon description (Click Icon)."),
    app_name: Optional[str] = typer.Option(None, "--app", help="An app label on the home screen (Open App)."),
    position: Optional[str] = typer.Option(None, "--position", help="top, bottom, left, right, center, or a pair."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr or tesseract."),
    detector: str = typer.Option("cv", "--detector", help="Icon detector: cv, yolo:PATH or gdino:PATH."),
    matcher: str = typer.Option("offline", "--matcher", help="Icon matcher: offline, marks or clip:PATH."),
) -> None:
    """The candidates for a target on IMAGE, best first: the one chosen (marked *), then the others by score.

    Exit 0 when something is found, 1 when nothing is, 2 when IMAGE is missing or unreadable or the
    options are wrong."""

    given = [v for v in (text, icon, app_name) if v is not None]
    if len(given) != 1:
        raise ConfigError("locate needs exactly one of --text, --icon or --app")
    if app_name is not None and position:
        raise ConfigError("--position applies to --text and --icon, not to --app")
    img = _load(image)
    p = _perception(ocr, detector, matcher)
    pos = position or ()
    if text is not None:
        g = p.ground_text(img, text, position=pos)
    elif icon is not None:
        g = p.ground_icon(img, icon, position=pos)
    else:
        g = p.ground_app(img, app_name or "")
    if as_json:
        typer.echo(json.dumps(g.to_dict(), ensure_ascii=False))
    else:
        typer.echo(f"status: {g.status}")
        # the chosen one first, then the others by the score shown (the ranking also weighs the place
        # and the position asked for, so its order can differ from the scores')
        shown = sorted(g.candidates, key=lambda c: (not (g.chosen is not None and c == g.chosen), -c.score))
        for i, c in enumerate(shown):
            mark = "*" if g.chosen is not None and c == g.chosen else " "
            label = f"  {c.text!r}" if c.text else ""
            typer.echo(f"{mark}{i}: point ({c.point.x}, {c.point.y})  box {list(c.box.as_tuple())}  "
                       f"score {c.score:.3f}{label}")
        if g.message:
            typer.echo(g.message)
    raise typer.Exit(0 if g.candidates else 1)


def register(app: typer.Typer) -> None:
    """Add ``parse`` and ``locate`` to the main app."""
    app.command("parse")(parse_cmd)
    app.command("locate")(locate_cmd)

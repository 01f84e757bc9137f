"""CLI commands: ``parse`` (every text line and icon box of a screenshot) and ``locate`` (ground a
text, an app label or an icon description on a screenshot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from mobile_agent.errors import ConfigError
from mobile_agent.types import Box


def _load(image: Path):
    """The screenshot at ``image``; one that is missing or unreadable is a usage error (exit 2), so that
    ``locate``'s exit 1 means only "not found"."""
    from mobile_agent.errors import ImageError
    from mobile_agent.types import load_image

    try:
        return load_image(image)
    except ImageError as exc:
        raise ConfigError(str(exc)) from None


def _perception(ocr: str, detector: str, matcher: str = "learned", icon_model: Optional[Path] = None):
    from mobile_agent.perception import Perception

    return Perception(ocr=ocr, detector=detector, matcher=matcher, incremental=False, icon_model=icon_model)


def _inside(inner: Box, outer: Box) -> float:
    """The share of ``inner``'s area that lies in ``outer``."""
    cut = inner.intersect(outer)
    return 0.0 if cut.is_empty() or not inner.area else cut.area / inner.area


def _is_glyph_text(line, icons) -> bool:
    """A "line" that is an icon read as text: one sign or non-Latin character on an icon box (the
    Bluetooth rune read as "*", a battery read as "白"), or one or two characters of any kind, letters
    included, read off a glyph of their own size (a magnifier read as "O", a speaker as "D"): the
    icon box holds the reading's centre and is no smaller than a third of it, no larger than twice
    it. A letter on a larger shape (a button's "OK") or alone stays text."""
    text = "".join(line.text.split())
    if not 1 <= len(text) <= 2:
        return False
    if len(text) == 1 and not (text.isascii() and text.isalnum()) and any(
            i.box.contains_point(line.box.center) or line.box.contains_point(i.box.center) for i in icons):
        return True
    area = max(1, line.box.area)
    return any(i.box.contains_point(line.box.center) and area / 3 <= i.box.area <= 2 * area for i in icons)


def split_for_display(res) -> tuple[list[int], list[int], list[int], list[int]]:
    """Indices of (text lines, icons) to list, and of (lines that are icon glyphs, icon boxes on text)
    to leave out: an icon box that lies mostly inside a text line of two or more characters is a letter
    or a sign of it (the "&" of "Network & internet", a "·", a title's first letter)."""
    icons = list(res.icons or [])
    glyphs = [k for k, line in enumerate(res.lines) if _is_glyph_text(line, icons)]
    text = [k for k in range(len(res.lines)) if k not in glyphs]
    words = [res.lines[k].box for k in text if len(res.lines[k].text.strip()) >= 2]
    on_text = [k for k, i in enumerate(icons) if any(_inside(i.box, w) >= 0.6 for w in words)]
    return text, [k for k in range(len(icons)) if k not in on_text], glyphs, on_text


def describe_icons(image, boxes, matcher, min_score: float = 0.75, margin: float = 0.1) -> list[str]:
    """What the icon matcher takes each box for: the icon family it scores best ("search (0.98)") when
    that score is high and clearly ahead of the next; "?" otherwise, "" without a matcher."""
    if matcher is None or not boxes:
        return ["" for _ in boxes]
    import numpy as np

    from mobile_agent.perception.icons.lexicon import _FAMILY_WORDS

    rgb = np.asarray(image.convert("RGB"))
    if getattr(matcher, "recogniser", None) is not None:
        # the learned recogniser names every box in one pass (the shape matcher: a pass per family)
        return [f"{word} ({p:.2f})" if word and p >= min_score else "?" for word, p in matcher.describe(rgb, boxes)]
    names = [f.replace("_", " ") for f in _FAMILY_WORDS]
    names = [n for n in names if not hasattr(matcher, "knows") or matcher.knows(n)]
    scores = {n: matcher.score(rgb, boxes, n) for n in names}
    out = []
    for k in range(len(boxes)):
        ranked = sorted(((float(s[k]), n) for n, s in scores.items()), reverse=True)
        best = ranked[0] if ranked else (0.0, "")
        second = ranked[1][0] if len(ranked) > 1 else 0.0
        out.append(f"{best[1]} ({best[0]:.2f})" if best[0] >= min_score and best[0] - second >= margin else "?")
    return out


def parse_cmd(
    image: Path = typer.Argument(..., help="Screenshot (PNG or JPEG)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table (everything perception "
                                 "found, as --all)."),
    annotate: Optional[Path] = typer.Option(None, "--annotate", help="Write a copy with the boxes drawn to this PNG."),
    icons: bool = typer.Option(True, "--icons/--no-icons", help="Also detect icons."),
    show_all: bool = typer.Option(False, "--all", help="Also list the icon glyphs OCR read as text and the icon "
                                  "boxes on letters or signs of a text line."),
    ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr or tesseract."),
    detector: str = typer.Option("cv", "--detector", help="Icon detector: cv, yolo:PATH or gdino:PATH."),
    icon_model: Optional[Path] = typer.Option(None, "--icon-model", help="The icon recogniser: a folder `mobile-agent perception learn` wrote (or its .onnx file); default: the shipped one."),
) -> None:
    """Every text line and icon found on IMAGE, with what each icon looks like and timings.

    Icons OCR read as a character or two (a "*" for Bluetooth, an "O" for a magnifier) are listed as icons, and icon boxes on a letter
    or a sign of a text line (the "&" of "Network & internet") are left out; --all lists them too."""
    from mobile_agent.perception.marks import draw_marks

    img = _load(image)
    p = _perception(ocr, detector, icon_model=icon_model)
    res = p.parse(img, icons=icons)
    if show_all:
        text_ids, icon_ids, glyphs, on_text = list(range(len(res.lines))), list(range(len(res.icons or []))), [], []
    else:
        text_ids, icon_ids, glyphs, on_text = split_for_display(res)
    if annotate is not None:
        boxes = [res.lines[k].box for k in text_ids] + [(res.icons or [])[k].box for k in icon_ids]
        labels = [f"T{k}" for k in text_ids] + [f"I{k}" for k in icon_ids]
        from mobile_agent.fsutil import atomic_save_image

        atomic_save_image(annotate, draw_marks(img, boxes, labels=labels))
    if as_json:
        typer.echo(json.dumps(res.to_dict(), ensure_ascii=False))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    shown_icons = [(res.icons or [])[k] for k in icon_ids]
    looks = describe_icons(img, [i.box for i in shown_icons], p.matcher)
    table = Table(title=f"{escape(image.name)}: {res.width}x{res.height}, {len(text_ids)} text lines, "
                        f"{len(icon_ids)} icons")
    for col in ("id", "kind", "text / icon looks like", "box", "score"):
        table.add_column(col)
    for k in text_ids:
        line = res.lines[k]
        table.add_row(f"T{k}", "text", Text(line.text), str(list(line.box.as_tuple())), f"{line.score:.2f}")
    for k, ic, look in zip(icon_ids, shown_icons, looks):
        table.add_row(f"I{k}", f"icon ({ic.source})", look, str(list(ic.box.as_tuple())), f"{ic.score:.2f}")
    console = Console()
    console.print(table)
    if glyphs or on_text:
        read = ", ".join(res.lines[k].text.strip() for k in glyphs)
        console.print(escape(f"left out: {len(glyphs)} icon(s) OCR read as text ({read}), {len(on_text)} icon box(es) "
                             f"on letters or signs of a text line; --all lists them"), highlight=False)
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
    matcher: str = typer.Option("learned", "--matcher", help="Icon matcher: learned (the trained recogniser beside "
                                "the shape matcher), learned:PATH, offline (the shape matcher alone), marks or clip:PATH."),
    icon_model: Optional[Path] = typer.Option(None, "--icon-model", help="The icon recogniser: a folder `mobile-agent perception learn` wrote (or its .onnx file); default: the shipped one."),
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
    p = _perception(ocr, detector, matcher, icon_model)
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


def learn_cmd(
    folders: list[Path] = typer.Argument(..., help="Folders of screenshots with their uiautomator dumps (what "
                                         "`mobile-agent devices capture` keeps: img/NAME.png beside xml/NAME.xml)."),
    out: Path = typer.Option(..., "--out", help="The folder the taught model is written to (icon_recogniser.onnx "
                             "and .json); pass it to --icon-model."),
    base: Optional[Path] = typer.Option(None, "--base", help="The model to start from (a folder or .onnx file); "
                                        "default: the shipped recogniser. It is never written."),
    epochs: int = typer.Option(6, "--epochs", min=1, max=50, help="Passes over the crops."),
    replay: int = typer.Option(60, "--replay", min=0, max=1000, help="Rendered crops of each concept beside "
                               "yours, so that what the model knew of drawn icons stays (0: none; then only "
                               "its last layers learn). Drawn where the repository's train/ folder is there."),
    seed: int = typer.Option(20261207, "--seed", help="The same seed, screens and machine give the same model."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace a model already in --out."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Each screen's crops and each epoch."),
) -> None:
    """Teach the icon recogniser your apps: fine-tune it on the icons your captured screens name.

    Each clickable image node of a dump with a content-desc names an icon for free: its crop is
    labelled with the concept the description names, beside rendered icons so that what the model
    knew stays. Needs the train extra (pip install -e ".[train]"); minutes on two cores. Exit 0 when
    the model is written, 2 for screens or options it cannot use."""
    from mobile_agent.perception.core import model_path_of
    from mobile_agent.perception.icons import learn
    from mobile_agent.screensets import real_crops
    from mobile_agent.perception.icons.recogniser import IconRecogniser

    if not learn.has_torch():
        raise ConfigError('perception learn needs torch and onnx, the train extra: pip install -e ".[train]"')
    target = out / learn.MODEL_FILE
    if target.exists() and not overwrite:
        raise ConfigError(f"{target} exists: pass --overwrite to replace it, or name another --out")
    base_file = model_path_of(base) if base is not None else None
    rec = IconRecogniser(base_file)  # a missing, corrupt or foreign base is refused here, naming the file
    say = typer.echo if verbose else (lambda _m: None)
    crops = real_crops.screen_crops([str(f) for f in folders], rec.classes, log=say)
    for problem in crops.problems:
        typer.echo(f"skipped: {problem}", err=True)
    c = crops.counts()
    typer.echo(f"{c['screens']} screens of {c['apps']} apps: {c['icon_nodes']} labelled icons of {c['concepts']} "
               f"concepts, {c['negatives']} text crops as no-icon; {c['unknown_descriptions']} icon(s) whose "
               f"description names no concept and {c['repeated']} sharing one description with two or more "
               "others on their screen were left out")
    settings = learn.LearnSettings(epochs=epochs, seed=seed, replay_per_class=replay)
    meta = learn.finetune(crops, out, base=base_file, settings=settings, log=typer.echo)
    typer.echo(f"wrote {target} ({meta['bytes'] / 1e6:.1f} MB) in {meta['data_s'] + meta['train_s']:.0f} s; "
               f"use it with --icon-model {out}")


def register(app: typer.Typer) -> None:
    """Add ``parse`` and ``locate`` to the main app, and the ``perception`` group (``learn``)."""
    app.command("parse")(parse_cmd)
    app.command("locate")(locate_cmd)
    group = typer.Typer(help="What perception knows: `perception learn` teaches the icon recogniser your apps "
                        "from captured screens.")
    group.command(name="learn")(learn_cmd)
    app.add_typer(group, name="perception")

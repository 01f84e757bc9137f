"""A copy of a folder of real screens as another phone shows the same apps, to measure perception
there with ``mobile-agent bench perception --dir COPY``.

    python bench/variant_folder.py SRC DST --scale 0.6667   # a 720 px-wide phone (1080 -> 720)
    python bench/variant_folder.py SRC DST --scale 1.3333   # a 1440 px-wide phone
    python bench/variant_folder.py SRC DST --force-dark     # Android's force dark on apps drawn light
    python bench/variant_folder.py SRC DST --jpeg 70        # screenshots taken as JPEG (a mirroring tool's)

``--scale F``: every screenshot resampled by F (Lanczos), as a phone of that density draws the same
dp layout (text and glyphs rasterised smaller or larger), the dumps' ``bounds`` and the manifest's
boxes, widths and heights scaled with it. ``--force-dark``: each colour's lightness inverted
(CIELAB L), its hue and chroma kept, as force dark draws an app that has no dark theme of its own
(the keyboard becomes the input method's dark panel); ``--jpeg Q``: each picture passed through JPEG
at quality Q (the stream of a screen-mirroring tool), saved as PNG. Dumps and manifest are copied
unchanged but for ``--scale``. A
folder without ``manifest.jsonl`` gets its targets from the dumps as the original would.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
import sys
from pathlib import Path

from PIL import Image

from mobile_agent.screensets.realscreens import force_dark

_BOUNDS = re.compile(r'bounds="\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]"')


def scale_dump(xml: str, f: float) -> str:
    """A uiautomator dump with every ``bounds`` scaled by ``f``."""
    def one(m: re.Match[str]) -> str:
        x1, y1, x2, y2 = (round(int(v) * f) for v in m.groups())
        return f'bounds="[{x1},{y1}][{x2},{y2}]"'
    return _BOUNDS.sub(one, xml)


def write_variant(src: Path, dst: Path, scale: float = 1.0, dark: bool = False, jpeg: int | None = None) -> int:
    """Write the variant of folder ``src`` to ``dst``; the number of screenshots written."""
    if not (src / "img").is_dir():
        raise SystemExit(f"{src}: no img/ folder of screenshots")
    (dst / "img").mkdir(parents=True, exist_ok=True)
    (dst / "xml").mkdir(parents=True, exist_ok=True)
    n = 0
    for p in sorted((src / "img").glob("*.png")):
        img = Image.open(p).convert("RGB")
        if scale != 1.0:
            img = img.resize((round(img.width * scale), round(img.height * scale)), Image.LANCZOS)
        if dark:
            img = force_dark(img)
        if jpeg is not None:
            buf = io.BytesIO()
            img.save(buf, format="JPEG", quality=jpeg)
            img = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
        img.save(dst / "img" / p.name)
        n += 1
    for p in sorted((src / "xml").glob("*.xml")):
        text = p.read_text(encoding="utf-8")
        (dst / "xml" / p.name).write_text(scale_dump(text, scale) if scale != 1.0 else text, encoding="utf-8")
    manifest = src / "manifest.jsonl"
    if manifest.is_file():
        with open(dst / "manifest.jsonl", "w", encoding="utf-8") as out:
            for line in manifest.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                d = json.loads(line)
                if scale != 1.0:
                    d["width"], d["height"] = round(d["width"] * scale), round(d["height"] * scale)
                    d["bbox"] = [round(v * scale) for v in d["bbox"]]
                out.write(json.dumps(d, ensure_ascii=False) + "\n")
    for extra in ("SOURCE.md",):
        if (src / extra).is_file():
            shutil.copy(src / extra, dst / extra)
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path)
    ap.add_argument("dst", type=Path)
    ap.add_argument("--scale", type=float, default=1.0, help="resample by this factor (0.6667: 1080 -> 720 px wide)")
    ap.add_argument("--force-dark", action="store_true", help="invert each colour's lightness (Android's force dark)")
    ap.add_argument("--jpeg", type=int, default=None, help="pass each picture through JPEG at this quality (1-95)")
    args = ap.parse_args(argv)
    if not 0.2 <= args.scale <= 4:
        ap.error("--scale must be between 0.2 and 4")
    if args.jpeg is not None and not 1 <= args.jpeg <= 95:
        ap.error("--jpeg must be a quality between 1 and 95")
    if args.scale == 1.0 and not args.force_dark and args.jpeg is None:
        ap.error("nothing to change: give --scale F, --force-dark or --jpeg Q")
    n = write_variant(args.src, args.dst, args.scale, args.force_dark, args.jpeg)
    print(f"{n} screens written to {args.dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What bringing another density's screenshot to 1080 px across costs the icon passes
(perception/icons/density.py), side by side with the passes on the screenshot as it is.

    python bench/bench_icon_density.py --dir FOLDER [--screens 20]

FOLDER: a folder of real screens (``img/*.png``), e.g. a 720 or 1440 px-wide copy written by
``bench/variant_folder.py``. For each screen, one after the other in one process: the parse's icon
detection and Click Icon after the parse ("More options", "Search"), with the picture brought to
the reference density and without (``density_factor`` patched to 1.0 for this process only). The
OCR is read once beforehand and not timed. Prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from PIL import Image


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True, type=Path)
    ap.add_argument("--screens", type=int, default=20)
    args = ap.parse_args(argv)
    import mobile_agent.perception.icons.density as density
    from mobile_agent.perception import Perception

    names = sorted((args.dir / "img").glob("*.png"))
    if not names:
        ap.error(f"{args.dir}: no img/*.png")
    step = max(1, len(names) // args.screens)
    names = names[::step][: args.screens]
    own = density.density_factor
    times: dict[str, list[tuple[float, float]]] = {"brought to 1080 px": [], "as it is": []}
    for path in names:
        img = Image.open(path).convert("RGB")
        for mode in times:
            density.density_factor = own if mode != "as it is" else (lambda w, h: 1.0)
            density._last = None
            try:
                p = Perception()
                p.parse(img)
                t = time.perf_counter()
                p.parse(img, icons=True)
                detect = time.perf_counter() - t
                t = time.perf_counter()
                for description in ("More options", "Search"):
                    p.ground_icon(img, description)
                ground = (time.perf_counter() - t) / 2
            finally:
                density.density_factor = own
            times[mode].append((detect, ground))
    w, h = Image.open(names[0]).size
    print(f"{len(names)} screens of {args.dir} ({w}x{h}, density factor {own(w, h):.3f})")
    med = {m: (statistics.median(d for d, _ in v), statistics.median(g for _, g in v)) for m, v in times.items()}
    for m, (d, g) in med.items():
        print(f"  {m:>18}: icon detection median {d * 1000:.1f} ms, Click Icon after the parse median {g * 1000:.1f} ms")
    a, b = med["brought to 1080 px"], med["as it is"]
    print(f"  ratio (brought / as it is): detection {a[0] / b[0]:.2f}, Click Icon {a[1] / b[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

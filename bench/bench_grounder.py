"""A point-output GUI model as the grounder of Click Text / Click Icon (``run --grounder``), measured on a
real folder (the development set by default): hit rates of the model's point alone, of perception alone
and of the two together (agent/grounder.py: the model's point where OCR or the icon detector confirms
it, perception's own grounding where not).

    python bench/bench_grounder.py [--dir FOLDER] [--families ui-tars-1.5,qwen2.5-vl] [--sigma 0.15]
                                   [--confuse 0.1] [--seed 0] [--limit N] [--kinds text,icon]

There is no GUI model here: a chat-completions server on localhost (tests/fakes/chatserver.py, the real
openai SDK in between) answers as such a model would, in the family's own format (UI-TARS's
``click(point='<point>x y</point>')``, Qwen's ``mobile_use`` tool call...) and in the coordinates of the
image the request carried (read from the request: the family's ``smart_resize`` of the screenshot for an
absolute family, its 0-1000 grid for a relative one). Its point is the target node's centre moved by a
normal noise of ``--sigma`` times the node's width and height (each axis), and with chance ``--confuse``
the centre of another target of the same screen (a model that taps the wrong element). So the figures
measure the check and the fallback around a model of that accuracy, not any real model: real figures
need the real model (serve it, and run ``mobile-agent run --grounder MODEL --grounder-base-url URL``).

A target is hit when the point lies inside its node's box (screensets/realscreens.py's rule). Perception
alone is asked as ``bench perception --dir`` asks: Click Text without a hint, its first point; Click Icon
with the third of the screen as the hint. Without the folder (a checkout without ../shared) it prints why
and exits 0. Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image

# The chat server is a test fake (tests/fakes/chatserver.py, not shipped in the package): this script
# runs from a checkout and puts the repository root on the path to import it.
REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

DEFAULT_DIR = REPO_ROOT.parent / "shared" / "realscreens"


def request_image_size(req: Any) -> tuple[int, int]:
    url = req.image_parts()[-1]["image_url"]["url"]
    with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))) as im:
        return im.size


def reply_for(family: Any, x: int, y: int) -> str:
    """A tap at (x, y) (the family's own coordinates) as the family writes it."""
    if family.syntax == "UI-TARS call":
        pt = f"<point>{x} {y}</point>" if family.name == "ui-tars-1.5" else f"<|box_start|>({x},{y})<|box_end|>"
        key = "point" if family.name == "ui-tars-1.5" else "start_box"
        return f"Thought: The target is there; tap it.\nAction: click({key}='{pt}')"
    if family.syntax == "mobile_use tool call":
        call = json.dumps({"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}})
        return f"<thinking>\nTap the target.\n</thinking>\n<tool_call>\n{call}\n</tool_call>"
    if family.syntax == "AutoGLM do()/finish()":
        return f'<think>Tap the target.</think>\n<answer>do(action="Tap", element=[{x},{y}])</answer>'
    return f"<think>Tap the target.</think>\n<action>Click(box=({x},{y}))</action>\n<conclusion>Tapped.</conclusion>"


class SimulatedGUIModel:
    """The server's answers: where a model of the stated accuracy taps the current target."""

    def __init__(self, family: Any, sigma: float, confuse: float, seed: int) -> None:
        self.family, self.sigma, self.confuse, self.seed = family, sigma, confuse, seed
        self.screen: Any = None
        self.target: Any = None
        self.point: tuple[float, float] | None = None  # the phone's pixel of the last answer

    def aim(self, screen: Any, target: Any) -> None:
        self.screen, self.target = screen, target
        rng = random.Random(f"{self.seed}:{self.family.name}:{screen.name}:{target.kind}:{target.target}")
        box = target.box
        others = [t for t in screen.targets if t.box != box]
        if others and rng.random() < self.confuse:
            other = rng.choice(others).box
            x, y = (other.x1 + other.x2) / 2, (other.y1 + other.y2) / 2
        else:
            x = (box.x1 + box.x2) / 2 + rng.gauss(0, self.sigma * (box.x2 - box.x1))
            y = (box.y1 + box.y2) / 2 + rng.gauss(0, self.sigma * (box.y2 - box.y1))
        self.point = (min(max(x, 0.0), screen.width - 1.0), min(max(y, 0.0), screen.height - 1.0))

    def __call__(self, req: Any) -> str:
        iw, ih = request_image_size(req)
        fam, (x, y) = self.family, self.point
        w, h = self.screen.width, self.screen.height
        if fam.coordinates == "absolute":
            mx, my = x * iw / w, y * ih / h
        else:
            mx, my = x * fam.scale / w, y * fam.scale / h
        return reply_for(fam, int(mx), int(my))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="a real folder (default: the development set)")
    ap.add_argument("--families", default="ui-tars-1.5,qwen2.5-vl")
    ap.add_argument("--sigma", type=float, default=0.15, help="the model's noise, a part of the node's side")
    ap.add_argument("--confuse", type=float, default=0.1, help="chance of a tap on another target")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0, help="only the first N screens")
    ap.add_argument("--kinds", default="text,icon")
    args = ap.parse_args(argv)
    if not args.dir.is_dir():
        print(f"skipped: no folder {args.dir} (the development set lives in ../shared/realscreens beside the "
              f"checkout; give another with --dir)")
        return 0

    from mobile_agent.agent.families import get_family
    from mobile_agent.agent.grounder import ModelGrounder
    from mobile_agent.model.openai_client import OpenAIChatModel
    from mobile_agent.model.retry import RetryPolicy
    from mobile_agent.perception import Perception
    from mobile_agent.screensets.realscreens import _first_point, load_folder, third_hint
    from tests.fakes.chatserver import LocalChatServer

    kinds = {k.strip() for k in args.kinds.split(",") if k.strip()}
    folder = load_folder(args.dir, absent_per_screen=0)
    for p in folder.problems:
        print(f"problem: {p}")
    screens = folder.screens[:args.limit] if args.limit else folder.screens
    perception = Perception()
    families = [get_family(f) for f in args.families.split(",") if f.strip()]
    models = {f.name: SimulatedGUIModel(f, args.sigma, args.confuse, args.seed) for f in families}
    servers = {name: LocalChatServer(m).start() for name, m in models.items()}
    grounders = {f.name: ModelGrounder(perception, OpenAIChatModel(
        f.served[0].replace("\\", "").strip("^$"), base_url=servers[f.name].openai_base_url, api_key="local-bench",
        retry=RetryPolicy(max_attempts=1, base_delay_s=0.01, max_delay_s=0.02), timeout_s=60), f) for f in families}
    # counts[(family or "perception", kind)][figure] = hits; targets[kind] = asked
    asked: dict[str, int] = {}
    hits: dict[tuple[str, str, str], int] = {}

    def count(who: str, kind: str, figure: str, ok: bool) -> None:
        hits[(who, kind, figure)] = hits.get((who, kind, figure), 0) + int(ok)

    t0 = time.monotonic()
    try:
        for n, s in enumerate(screens, 1):
            with Image.open(s.image) as im:
                img = im.convert("RGB")
            for tg in s.targets:
                if tg.kind not in kinds:
                    continue
                asked[tg.kind] = asked.get(tg.kind, 0) + 1
                hint = third_hint(tg.box, s.width, s.height) if tg.kind == "icon" else ()
                own = (perception.ground_text(img, tg.target) if tg.kind == "text"
                       else perception.ground_icon(img, tg.target, position=hint))
                c = _first_point(own)
                count("perception", tg.kind, "alone", c is not None and tg.box.contains_point(c.point))
                for f in families:
                    model, g = models[f.name], grounders[f.name]
                    model.aim(s, tg)
                    x, y = model.point
                    right = tg.box.x1 <= int(x) <= tg.box.x2 and tg.box.y1 <= int(y) <= tg.box.y2
                    count(f.name, tg.kind, "alone", right)
                    held = g.held
                    both = (g.ground_text(img, tg.target) if tg.kind == "text"
                            else g.ground_icon(img, tg.target, position=hint))
                    g.take_calls()
                    kept = g.held > held
                    c = _first_point(both)
                    count(f.name, tg.kind, "both", c is not None and tg.box.contains_point(c.point))
                    count(f.name, tg.kind, "right", right)
                    count(f.name, tg.kind, "right kept", right and kept)
                    count(f.name, tg.kind, "wrong", not right)
                    count(f.name, tg.kind, "wrong refused", not right and not kept)
            if n % 10 == 0:
                print(f"  {n}/{len(screens)} screens, {time.monotonic() - t0:.0f} s", file=sys.stderr)
    finally:
        for srv in servers.values():
            srv.stop()

    def pct(a: int, b: int) -> str:
        return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "-"

    print(f"{args.dir.name}: {len(screens)} screens; a simulated model (sigma {args.sigma} of the node's side, "
          f"{args.confuse:.0%} taps on another target, seed {args.seed}); {time.monotonic() - t0:.0f} s")
    print("| family | kind | targets | model alone | perception alone | together | right points kept | "
          "wrong points refused |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for f in families:
        for kind in sorted(asked):
            k = asked[kind]

            def h(who: str, fig: str) -> int:
                return hits.get((who, kind, fig), 0)
            print(f"| {f.name} | {kind} | {k} | {pct(h(f.name, 'alone'), k)} | {pct(h('perception', 'alone'), k)} | "
                  f"{pct(h(f.name, 'both'), k)} | {pct(h(f.name, 'right kept'), h(f.name, 'right'))} | "
                  f"{pct(h(f.name, 'wrong refused'), h(f.name, 'wrong'))} |")
    print("Real figures need the real model: this server answers as a model of the stated accuracy would.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Speed figures of the report layer (not a test; run it by hand):

    python tests/report/bench_report_speed.py [--steps 20] [--repeat 7]

Prints the median and spread of: writing the report of a run of N real simulated-phone steps
(linked and embedded screenshots), and one gesture round trip of the phone in the browser
(POST /api/gesture, then GET /screen.png), over a real localhost socket.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from mobile_agent.device.sim import SimPhone  # noqa: E402
from mobile_agent.report import write_report  # noqa: E402
from mobile_agent.report.simserve import PhoneServer  # noqa: E402
from report_helpers import make_run  # noqa: E402


def _figures(name: str, xs: list[float]) -> None:
    xs = sorted(xs)
    print(f"{name:<44} median {statistics.median(xs) * 1000:8.1f} ms   min {xs[0] * 1000:8.1f}   "
          f"max {xs[-1] * 1000:8.1f}   (n={len(xs)})")


def _long_run(base: Path, steps: int) -> Path:
    """``steps`` step records over the screens of the four-step run (repeated), as a long run has."""
    run, _ = make_run(base / "run")
    lines = (run / "steps.jsonl").read_text().splitlines()
    out = []
    for i in range(steps):
        rec = json.loads(lines[i % len(lines)])
        rec["step"] = i + 1
        src = run / rec["screenshot"]
        rel = f"screens/step_{i + 1:03d}.png"
        if not (run / rel).exists():
            shutil.copy(src, run / rel)
        rec["screenshot"] = rel
        out.append(json.dumps(rec))
    (run / "steps.jsonl").write_text("\n".join(out) + "\n")
    return run


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="report-bench-"))
    try:
        run = _long_run(base, args.steps)
        for embed in (False, True):
            times = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                out = write_report(run, base / f"r{int(embed)}.html", embed=embed)
                times.append(time.perf_counter() - t)
            _figures(f"write_report {args.steps} steps, embed={embed}", times)
            print(f"{'':<44} file size {out.stat().st_size / 1e6:.2f} MB")
        phone = SimPhone(seed=0)
        phone.launch("Settings")
        with PhoneServer(phone) as server:
            url = server.url
            urllib.request.urlopen(url + "screen.png").read()
            times = []
            for i in range(args.repeat * 3):
                body = json.dumps({"kind": "swipe", "x1": 540, "y1": 1800 if i % 2 == 0 else 600, "x2": 540,
                                   "y2": 600 if i % 2 == 0 else 1800, "duration_ms": 300}).encode()
                t = time.perf_counter()
                req = urllib.request.Request(url + "api/gesture", data=body,
                                             headers={"Content-Type": "application/json"})
                urllib.request.urlopen(req).read()
                urllib.request.urlopen(url + "screen.png").read()
                times.append(time.perf_counter() - t)
            _figures("sim serve: gesture + new screen PNG", times)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()

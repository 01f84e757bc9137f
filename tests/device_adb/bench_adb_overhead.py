"""Benchmark: what AdbDevice itself costs per operation (protocol, PNG decoding, checks), measured
against the fake adb server on localhost, so a real phone's own time is left out.

    python tests/device_adb/bench_adb_overhead.py [--runs 30]

Prints the median and the 10th-90th percentile spread in milliseconds for each operation.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: tests.fakes

from tests.fakes.adb_server import FakeAdbServer  # noqa: E402

from mobile_agent.device.adb import AdbDevice  # noqa: E402


def measure(fn: Callable[[], object], runs: int) -> list[float]:
    fn()  # warm up
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000.0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with FakeAdbServer() as server:
        dev = AdbDevice(adb_port=server.port, settle_timeout_s=0.0)
        ops: dict[str, Callable[[], object]] = {
            "screenshot (1080x2400 PNG)": dev.screenshot,
            "size (wm size cached + dumpsys input)": dev.size,
            "tap (no settle)": lambda: dev.tap(540, 1200),
            "wait_still (2 captures, still screen)": lambda: dev.wait_still(3.0),
            "type_text 40 ASCII chars": lambda: dev.type_text("hello world, it's 50% & more; ok? (yes)"),
            "ui_tree (uiautomator dump + cat)": dev.ui_tree,
        }
        print(f"{'operation':42s} {'median ms':>10s} {'p10':>8s} {'p90':>8s}   (runs={args.runs})")
        for name, fn in ops.items():
            times = sorted(measure(fn, args.runs))
            q = statistics.quantiles(times, n=10)
            print(f"{name:42s} {statistics.median(times):10.1f} {q[0]:8.1f} {q[-1]:8.1f}")


if __name__ == "__main__":
    main()

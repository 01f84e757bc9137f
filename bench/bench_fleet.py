"""``run`` on one simulated phone against the same run on two at once (``--device sim --device sim``).

    python bench/bench_fleet.py [--latency 1.5] [--repeat 3] [--phones 2]

Each run is ``mobile-agent run`` in this process (the CLI's own code: perception made for each phone,
the report, the combined report), planned by a local chat server that holds each answer for
``--latency`` seconds and answers each phone from its own history (Open App (Settings), Back, Open
App (Notes), Back, Stop, then the completion check's verdict). One phone and N phones alternate,
``--repeat`` times. Prints each wall time, the medians, and N phones' median over one phone's.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

PLAN = ["Open App (Settings)", "Back", "Open App (Notes)", "Back", "Stop"]


def responder(latency: float):
    from tests.fakes.agent_harness import is_completion_check, react
    from tests.fakes.chatserver import Reply

    def respond(req):
        if is_completion_check(req):
            return Reply("Verdict: complete\nReason: done", delay_s=latency)
        done = re.findall(r"^\d+\. ", req.last_user_text.split("Operations so far", 1)[-1], re.M)
        return Reply(react(PLAN[min(len(done), len(PLAN) - 1)]), delay_s=latency)

    return respond


def one_run(server, phones: int, out: Path) -> float:
    from mobile_agent.cli import main

    devices = [w for _ in range(phones) for w in ("--device", "sim")]
    t = time.perf_counter()
    code = main(["run", "Open Settings, then Notes", "--model", "openai:bench", "--base-url", server.openai_base_url,
                 "--perception", "vision", "--max-steps", "8", "--out", str(out), *devices])
    took = time.perf_counter() - t
    if code != 0:
        raise SystemExit(f"the run on {phones} phone(s) exited {code}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=1.5, help="the model's seconds per answer")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--phones", type=int, default=2)
    args = ap.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-bench")
    from tests.fakes.chatserver import LocalChatServer

    times: dict[int, list[float]] = {1: [], args.phones: []}
    with tempfile.TemporaryDirectory() as tmp, LocalChatServer(responder(args.latency)) as server:
        for i in range(args.repeat):
            for n in (1, args.phones):
                took = one_run(server, n, Path(tmp) / f"r{i}-{n}")
                times[n].append(took)
                print(f"  {n} phone(s): {took:.2f} s", flush=True)
    one, many = statistics.median(times[1]), statistics.median(times[args.phones])
    print(f"\nmodel latency {args.latency:g} s, {len(PLAN)} steps and a completion check a phone, "
          f"{args.repeat} run(s) each")
    print(f"1 phone: median {one:.2f} s; {args.phones} phones at once: median {many:.2f} s; ratio {many / one:.2f}")


if __name__ == "__main__":
    main()

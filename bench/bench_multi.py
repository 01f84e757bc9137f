"""Requests and tokens per task, single mode against multi mode, on the same scripted tasks.

    python bench/bench_multi.py [--tasks multi-1,multi-2,multi-3,notes-2,settings-1] [--reflect]

Each task's human reference plan is played by a scripted model through a chat-completions server on
localhost (the real openai SDK, real perception, the simulated phone). Single mode: one ReAct reply
per reference operation, then the completion check. Multi mode: the manager's plan has one subgoal
per reference operation and it answers after every step (the last answer says done); the executor
replies with the reference operations; a value typed in a multi-app task goes through a note. The
figures are counted from the requests the server received: text tokens as characters / 4 (system
prompt included), image tokens by OpenAI's high-detail rule (85 + 170 per 512-pixel tile after
fitting into 2048 and a shortest side of 768), completion tokens as reply characters / 4.
Prints a table; asserts nothing.

    python bench/bench_multi.py --overlap [--latency 1.5] [--tasks ...] [--repeat 1] [--reflect]

Multi mode's time beyond the models', with and without the parse ahead (agent/multi/ahead.py,
``AgentSettings.overlap_perception``), side by side in this one process: the same scripted multi-mode
runs, the chat server holding every answer for ``--latency`` seconds, the two variants in turn task by
task (one perception, its memo cleared before each run). From each run's ``steps.jsonl``: medians over
the grounding steps (Open App, Click Text, Click Icon, Long Press) and over all steps of a step's time
less its model calls' (``total_s - model_s``), and their ratio; whether each task's records are the
same in both variants but for the times.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import math
import statistics
import sys
import tempfile
from pathlib import Path

from PIL import Image

# The scripted chat server is a test fake (tests/fakes/chatserver.py, not shipped in the package):
# this script runs from a checkout and puts the repository root on the path to import it.
REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

DEFAULT_TASKS = "multi-1,multi-2,multi-3,notes-2,settings-1"


def react(action: str) -> str:
    return f"Observation: The screen is shown.\nThought: Next step of the plan.\nAction: {action}"


def manager(goals: list[str], done: int, notes: dict[str, str], status: str = "continue") -> str:
    lines = ["Observation: The screen is shown.", "Plan:"]
    lines += [f"{i + 1}. [{'done' if i < done else 'now' if i == done else 'todo'}] {g}" for i, g in enumerate(goals)]
    lines += ["Notes:"] + ([f"- {k}: {v}" for k, v in notes.items()] or ["- none"])
    lines += ["Route: same", f"Status: {status}"]
    return "\n".join(lines)


def image_tokens(width: int, height: int) -> int:
    s = min(1.0, 2048 / max(width, height))
    w, h = width * s, height * s
    s = min(1.0, 768 / min(w, h))
    w, h = w * s, h * s
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


def count(requests, replies: list[str]) -> tuple[int, int, int]:
    """(text tokens, image tokens, completion tokens) of the recorded requests."""
    text = image = 0
    for r in requests:
        text += sum(len(t) for t in r.texts()) // 4
        for p in r.image_parts():
            im = Image.open(io.BytesIO(base64.b64decode(p["image_url"]["url"].split(",", 1)[1])))
            image += image_tokens(*im.size)
    return text, image, sum(len(x) for x in replies) // 4


class Recorder:
    def __init__(self, responder) -> None:
        self.responder, self.replies = responder, []

    def __call__(self, req):
        out = self.responder(req)
        self.replies.append(out if isinstance(out, str) else "")
        return out


def role_of(req) -> str:
    system = "".join(m.get("content") if isinstance(m.get("content"), str) else ""
                     for m in req.body.get("messages", []) if m.get("role") == "system")
    for role in ("manager", "executor", "verifier"):
        if f"You are the {role}" in system:
            return role
    text = req.last_user_text
    if "numbered boxes" in text:
        return "choice"
    if "You said Stop" in text:
        return "check"
    if "Verdict: A | B | C" in text:
        return "reflection"
    return "plan"


def scripted(task, multi: bool):
    from mobile_agent.agent.operations import Stop, Type

    ops = [op for op in task.operations() if not isinstance(op, Stop)]
    notes: dict[str, str] = {}
    shown = [str(op).replace("\n", "\\n") for op in ops]  # Enter as models write it
    if multi and len(task.apps) > 1:
        for i, op in enumerate(ops):
            if isinstance(op, Type) and "\n" not in op.text:
                notes["text"] = op.text
                shown[i] = "Type ({text})"
    goals = [f"Carry out {s}" for s in (str(op) for op in ops)]
    queues = {
        "plan": [react(s) for s in shown] + [react("Stop")],
        "executor": [react(s) for s in shown],
        "manager": [manager(goals, i, notes if i >= 1 else {}) for i in range(len(ops))]
        + [manager(goals, len(goals), notes, status="done")],
    }

    def respond(req):
        role = role_of(req)
        if role == "choice":
            return "Answer: 0"
        if role == "check":
            return "Verdict: complete\nReason: done"
        if role in ("reflection", "verifier"):
            return "Verdict: A\nReason: as expected"
        q = queues[role]
        return q.pop(0) if q else "Observation: -\nThought: -\nAction: Stop"

    return respond


def run_one(task, multi: bool, reflect: bool, out: Path) -> dict:
    """One run through the benchmark's own runner (its success check and step count)."""
    import os

    from mobile_agent.bench.runner import EvalConfig, run_task
    from tests.fakes.chatserver import LocalChatServer

    os.environ.setdefault("BENCH_MULTI_KEY", "k")
    rec = Recorder(scripted(task, multi))
    with LocalChatServer(rec) as server:
        config = EvalConfig(planner="model", model="openai:bench-model", base_url=server.openai_base_url,
                            api_key_env="BENCH_MULTI_KEY", reflect=reflect, mode="multi" if multi else "single",
                            max_steps=3 * task.human_steps + 4)
        row = run_task(config, task, out, "multi" if multi else "single")
        requests = list(server.requests)
    text, image, completion = count(requests, rec.replies)
    return {"ok": row.success, "outcome": row.outcome, "steps": row.steps, "requests": len(requests),
            "text": text, "image": image, "completion": completion, "total": text + image + completion}


GROUNDING_OPS = ("Open App", "Click Text", "Click Icon", "Long Press")


def run_overlap(task, overlap: bool, latency: float, reflect: bool, perception, out: Path) -> list[dict]:
    """One multi-mode run of ``task`` with the parse ahead on or off; its steps.jsonl lines."""
    import os

    from mobile_agent.agent import AgentSettings
    from mobile_agent.agent.multi import MultiAgent
    from mobile_agent.model import make_chat_model
    from tests.fakes.chatserver import LocalChatServer, Reply

    os.environ.setdefault("BENCH_MULTI_KEY", "k")
    respond = scripted(task, True)
    perception.clear_cache()  # each run reads its screens afresh
    with LocalChatServer(lambda req: Reply(text=respond(req), delay_s=latency)) as server:
        model = make_chat_model("openai:bench-model", base_url=server.openai_base_url, api_key_env="BENCH_MULTI_KEY")
        settings = AgentSettings(max_steps=3 * task.human_steps + 4, settle_interval_s=0.0, settle_timeout_s=1.0,
                                 reflect=reflect, save_annotated=False, overwrite=True, overlap_perception=overlap)
        result = MultiAgent(task.make_phone(), model, perception, settings).run(task.instruction, out)
    lines = [json.loads(x) for x in (result.out_dir / "steps.jsonl").read_text(encoding="utf-8").splitlines() if x]
    for d in lines:
        d["_outcome"] = result.outcome
    return lines


def overlap_main(args) -> int:
    from mobile_agent.bench.suite import select
    from mobile_agent.perception import Perception
    from tests.fakes.agent_harness import without_timings

    tasks = select(ids=[t.strip() for t in args.tasks.split(",") if t.strip()])
    perception = Perception()
    steps: dict[bool, list[dict]] = {True: [], False: []}
    print(f"multi mode, model latency {args.latency:g} s{', with the verifier' if args.reflect else ''}; seconds")
    print(f"{'task':<11}{'run':>4}{'steps':>6}{'outcome on/off':>22}{'same records':>14}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(max(1, args.repeat)):
            for task in tasks:
                got = {}
                for overlap in (True, False):  # in turn, task by task, so that load falls on both alike
                    got[overlap] = run_overlap(task, overlap, args.latency, args.reflect, perception,
                                               Path(tmp) / f"{task.key}-{n}-{overlap}")
                    steps[overlap] += got[overlap]
                same = [without_timings(d) for d in got[True]] == [without_timings(d) for d in got[False]]
                outcomes = "/".join(got[o][-1]["_outcome"] if got[o] else "-" for o in (True, False))
                print(f"{task.key:<11}{n + 1:>4}{len(got[True]):>6}{outcomes:>22}{'yes' if same else 'NO':>14}",
                      flush=True)

    def beyond(lines: list[dict], grounding: bool) -> list[float]:
        return [d["timings"]["total_s"] - d["timings"]["model_s"] for d in lines
                if not grounding or (d.get("operation") or {}).get("op") in GROUNDING_OPS]

    print(f"\n{'median beyond the models':<34}{'overlap':>9}{'without':>9}{'ratio':>7}{'steps':>7}")
    for name, grounding in (("grounding steps", True), ("all steps", False)):
        on, off = beyond(steps[True], grounding), beyond(steps[False], grounding)
        if on and off:
            m_on, m_off = statistics.median(on), statistics.median(off)
            print(f"{name:<34}{m_on:>9.3f}{m_off:>9.3f}{m_on / m_off:>7.2f}{len(on):>7}")
    percep = [[d["timings"]["perception_s"] for d in steps[o]
               if (d.get("operation") or {}).get("op") in GROUNDING_OPS] for o in (True, False)]
    if percep[0] and percep[1]:
        print(f"{'perception, grounding steps':<34}{statistics.median(percep[0]):>9.3f}"
              f"{statistics.median(percep[1]):>9.3f}")
    print("\nby operation: beyond the models (perception)")
    for op in sorted({(d.get("operation") or {}).get("op", "") for d in steps[True]}):
        cells = []
        for o in (True, False):
            mine = [d["timings"] for d in steps[o] if (d.get("operation") or {}).get("op", "") == op]
            cells.append(f"{statistics.median(t['total_s'] - t['model_s'] for t in mine):.3f} "
                         f"({statistics.median(t['perception_s'] for t in mine):.3f})" if mine else "-")
        print(f"  {op or '(none)':<32}{cells[0]:>16}{cells[1]:>16}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default=DEFAULT_TASKS, help="comma-separated Mobile-Eval task ids")
    ap.add_argument("--reflect", action="store_true", help="reflection calls in both modes")
    ap.add_argument("--overlap", action="store_true",
                    help="multi mode's time beyond the models, with and without the parse ahead")
    ap.add_argument("--latency", type=float, default=1.5, help="with --overlap: each answer's latency in seconds")
    ap.add_argument("--repeat", type=int, default=1, help="with --overlap: runs of each variant per task")
    args = ap.parse_args(argv)
    if args.overlap:
        return overlap_main(args)
    from mobile_agent.bench.suite import select

    tasks = select(ids=[t.strip() for t in args.tasks.split(",") if t.strip()])
    rows = []
    print(f"{'task':<11}{'mode':<7}{'done':>5}{'steps':>6}{'requests':>9}{'text tok':>9}{'image tok':>10}"
          f"{'compl tok':>10}{'total':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for task in tasks:
            for multi in (False, True):
                r = run_one(task, multi, args.reflect, Path(tmp) / f"{task.key}-{multi}")
                rows.append((task.key, multi, r))
                print(f"{task.key:<11}{'multi' if multi else 'single':<7}{'yes' if r['ok'] else 'NO':>5}{r['steps']:>6}"
                      f"{r['requests']:>9}{r['text']:>9}{r['image']:>10}{r['completion']:>10}{r['total']:>8}",
                      flush=True)
    single = {k: r for k, m, r in rows if not m}
    multi = {k: r for k, m, r in rows if m}
    for what in ("requests", "total"):
        ratios = [multi[k][what] / single[k][what] for k in single if single[k][what]]
        print(f"multi / single, {what}: median {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f}) over {len(ratios)} tasks")
    return 0


if __name__ == "__main__":
    sys.exit(main())

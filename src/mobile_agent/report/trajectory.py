"""The HTML report of one run: a header, a filmstrip, and each step with its screenshot, the
grounding candidates and the gesture drawn over it, the ReAct text, the reflection and the timings.

The page is one file that opens from disk: screenshots are referenced relative to the page (they
stay beside it in ``screens/``), or embedded as ``data:`` URIs with ``embed=True``. CSS and the
small keyboard script are inlined. The markup is the Jinja2 template ``templates/trajectory.html``
(autoescaped: a model's, a screen's or a user's text can never become markup); this module turns
a run folder into the plain values it shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from mobile_agent.agent.planner import NOT_CHECKED
from mobile_agent.agent.record import CallRecord, replies_restored
from mobile_agent.device.gestures import Gesture, LongPress, Swipe, Tap, TypeText, gesture_from_dict
from mobile_agent.report.htmlkit import (
    data_uri, fmt_cost, fmt_int, fmt_seconds, fmt_time, num, relative_src, render_template, static_text,
    thumbnail_uri,
)
from mobile_agent.report.rundata import RunData, Screen, Step

OUTCOME_CLASS = {"completed": "ok", "dry_run": "neutral", "interrupted": "warn", "step_limit": "bad",
                 "time_limit": "bad", "loop": "bad", "error": "bad",
                 "needs_user": "warn"}
VERDICT_CLASS = {"as_expected": "ok", "wrong_page": "bad", "no_change": "warn"}


class _Images:
    """Turns screenshots into ``src`` values: relative links, or data URIs when embedding."""

    def __init__(self, page: Path, embed: bool) -> None:
        self.page = page
        self.embed = embed

    def src(self, screen: Screen) -> str:
        return data_uri(screen.path) if self.embed else relative_src(screen.path, self.page)

    def thumb(self, screen: Screen) -> str:
        return thumbnail_uri(screen.path) if self.embed else relative_src(screen.path, self.page)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return str(value)


def _gesture(g: Any) -> Gesture | None:
    try:
        return gesture_from_dict(g)
    except ValueError:
        return None


def _gesture_text(g: Any) -> str:
    if not isinstance(g, dict):
        return "none recorded"
    gesture = _gesture(g)
    if gesture is not None:
        return gesture.describe()
    kind = g.get("kind")
    return "no gesture" if kind in (None, "none") else _text(kind)


def _label_spot(x: float, baseline: float, fs: float, chars: int, size: tuple[int, int],
                placed: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """Where a candidate's number goes: at the top left of its box, or the nearest free spot to the
    right or below, so that no two numbers overlap. Records the chosen spot in ``placed``."""
    w, h = size
    lw, lh = fs * 0.62 * chars + fs * 0.3, fs * 1.05

    def rect(tx: float, ty: float) -> tuple[float, float, float, float]:
        return tx, ty - fs * 0.9, tx + lw, ty - fs * 0.9 + lh

    def free(r: tuple[float, float, float, float]) -> bool:
        return all(r[2] <= p[0] or r[0] >= p[2] or r[3] <= p[1] or r[1] >= p[3] for p in placed)

    spots = [(x + k * lw, baseline + m * lh) for m in range(0, 8) for k in range(0, 8)]
    for tx, ty in spots:
        tx, ty = min(max(0.0, tx), max(0.0, w - lw)), min(max(fs * 0.9, ty), h - lh * 0.1)
        r = rect(tx, ty)
        if free(r):
            placed.append(r)
            return tx, ty
    placed.append(rect(x, baseline))
    return x, baseline


def _half_height_round(grounding: object, x: float, y: float) -> float:
    """How far the chosen candidate's box reaches above or below the point (x, y) when it holds the
    point (the ring round the point clears the box's top and bottom), else 0."""
    if not isinstance(grounding, dict) or not isinstance(grounding.get("candidates"), list):
        return 0.0
    chosen = grounding.get("chosen")
    cands = grounding["candidates"]
    c = cands[chosen] if isinstance(chosen, int) and 0 <= chosen < len(cands) else None
    box = c.get("box") if isinstance(c, dict) else None
    if not (isinstance(box, (list, tuple)) and len(box) == 4 and all(num(v) is not None for v in box)):
        return 0.0
    x1, y1, x2, y2 = (float(v) for v in box)
    return max(y - y1, y2 - y) if x1 <= x <= x2 and y1 <= y <= y2 else 0.0


def _overlay(step: Step, size: tuple[int, int]) -> dict[str, Any] | None:
    """What the SVG over the screenshot draws: numbered candidate boxes (the chosen one green) and
    the gesture, in screenshot pixels."""
    w, h = size
    unit = max(w, h) / 100.0
    o: dict[str, Any] = {"w": w, "h": h, "cands": [], "tap": None, "swipe": None, "typed": None}
    grounding = step.record.get("grounding")
    if isinstance(grounding, dict):
        chosen = grounding.get("chosen")
        cands = grounding.get("candidates") if isinstance(grounding.get("candidates"), list) else []
        placed: list[tuple[float, float, float, float]] = []
        fs = unit * 1.8
        for i, c in enumerate(cands):
            box = c.get("box") if isinstance(c, dict) else None
            if not (isinstance(box, (list, tuple)) and len(box) == 4 and all(num(v) is not None for v in box)):
                continue
            x1, y1, x2, y2 = (float(v) for v in box)
            tx, ty = _label_spot(x1, max(y1 - unit * 0.4, fs * 0.9), fs, len(str(i)), (w, h), placed)
            o["cands"].append({"i": i, "chosen": chosen == i, "x": f"{x1:.0f}", "y": f"{y1:.0f}",
                               "w": f"{max(1.0, x2 - x1):.0f}", "h": f"{max(1.0, y2 - y1):.0f}",
                               "tx": f"{tx:.0f}", "ty": f"{ty:.0f}", "fs": f"{fs:.0f}"})
    g = _gesture(step.record.get("gesture"))
    r = unit * 2.2
    if isinstance(g, (Tap, LongPress)):
        x, y = float(g.x), float(g.y)
        # the ring passes above and below the tapped word (the chosen candidate's box round the
        # point), and the dot on the point is small and open: the word stays readable under the mark
        ring = max(r, _half_height_round(grounding, x, y) + unit * 0.6)
        # a long press has a second, wider ring: held, not tapped
        o["tap"] = {"x": f"{x:.0f}", "y": f"{y:.0f}", "r": f"{ring:.0f}", "dot": f"{unit * 0.3:.0f}",
                    "hold": f"{ring * 1.5:.0f}" if isinstance(g, LongPress) else None}
    elif isinstance(g, Swipe):
        x1, y1, x2, y2 = float(g.x1), float(g.y1), float(g.x2), float(g.y2)
        o["swipe"] = {"x1": f"{x1:.0f}", "y1": f"{y1:.0f}", "x2": f"{x2:.0f}", "y2": f"{y2:.0f}",
                      "r": f"{r / 2:.0f}"}
    elif isinstance(g, TypeText):
        shown = g.text if len(g.text) <= 40 else g.text[:39] + "…"
        fs = unit * 2.2
        o["typed"] = {"x": f"{unit:.0f}", "y": f"{h * 0.45:.0f}", "w": f"{w - 2 * unit:.0f}",
                      "h": f"{fs * 1.8:.0f}", "rx": f"{unit:.0f}", "tx": f"{w / 2:.0f}",
                      "ty": f"{h * 0.45 + fs * 1.25:.0f}", "fs": f"{fs:.0f}", "text": shown}
    if not (o["cands"] or o["tap"] or o["swipe"] or o["typed"]):
        return None
    return o


def _shot(screen: Screen | None, images: _Images, alt: str,
          overlay: Callable[[tuple[int, int]], dict[str, Any] | None] | None, missing_note: str) -> dict[str, Any]:
    if screen is None:
        return {"missing": missing_note}
    if not screen.ok or screen.size is None:
        return {"missing": f"Screenshot {screen.rel}: {screen.error}"}
    w, h = screen.size
    return {"missing": None, "src": images.src(screen), "alt": alt, "w": w, "h": h,
            "overlay": overlay(screen.size) if overlay else None}


def _calls(rec: dict[str, Any]) -> list[CallRecord]:
    """The step's kept model calls, typed (a call the record garbled is left out)."""
    out: list[CallRecord] = []
    rec = replies_restored(rec)
    for c in rec.get("calls") if isinstance(rec.get("calls"), list) else []:
        try:
            out.append(CallRecord.from_dict(c))
        except (AttributeError, TypeError, ValueError):
            continue
    return out


def _call_rows(calls: list[CallRecord]) -> list[dict[str, Any]]:
    """What the template shows of each call: role, kind, tokens, time, error, and the raw reply
    (collapsed, its first line as the summary)."""
    rows = []
    for i, c in enumerate(calls, start=1):
        raw = c.raw if isinstance(c.raw, str) else None
        first = (raw or "").strip().splitlines()[0] if raw and raw.strip() else "(empty reply)"
        rows.append({"i": i, "role": _text(c.role), "kind": c.kind,
                     "tokens": f"{fmt_int(c.prompt_tokens)} + {fmt_int(c.completion_tokens)}",
                     "duration": fmt_seconds(c.duration_s), "error": _text(c.error), "raw": raw,
                     "preview": first if len(first) <= 60 else first[:59] + "…"})
    return rows


def _step_info(step: Step) -> dict[str, Any]:
    """What the template shows of one step record (every value text, escaped by the template)."""
    rec = step.record
    info: dict[str, Any] = {"number": step.number, "action": _text(rec.get("action")),
                            "observation": _text(rec.get("observation")).strip(),
                            "thought": _text(rec.get("thought")).strip(), "grounding": None,
                            "gesture": _gesture_text(rec.get("gesture")), "reflection": None, "completion": None,
                            "timings": "", "model": "", "error": _text(rec.get("error")), "extra": None,
                            "calls": _call_rows(_calls(rec)),
                            "source": _text(rec.get("source")) if rec.get("source") in ("replayed", "planned", "waited", "dismissed") else ""}
    info["call_roles"] = any(c["role"] for c in info["calls"])
    grounding = rec.get("grounding")
    if isinstance(grounding, dict):
        chosen = grounding.get("chosen")
        cands = grounding.get("candidates") if isinstance(grounding.get("candidates"), list) else []
        rows = []
        for i, c in enumerate(cands):
            if not isinstance(c, dict):
                continue
            score = num(c.get("score"))
            rows.append({"i": i, "chosen": chosen == i, "text": _text(c.get("text")),
                         "score": "" if score is None else f"{score:.2f}", "box": _text(c.get("box")),
                         "point": _text(c.get("point"))})
        info["grounding"] = {"status": _text(grounding.get("status")) or "–",
                             "chosen": _text(chosen) if chosen is not None else None,
                             "message": _text(grounding.get("message")), "candidates": rows}
    user = rec.get("user")
    if isinstance(user, dict):  # Ask User, Take Over: the model's words and the person's, both escaped
        answer = user.get("answer")
        info["user"] = {"label": "Handed to the user" if user.get("kind") == "take_over" else "Asked the user",
                        "text": _text(user.get("text")),
                        "answer": _text(answer) if isinstance(answer, str) else None,
                        "waited": fmt_seconds(user.get("waited_s"))}
    else:
        info["user"] = None
    refl = rec.get("reflection")
    if isinstance(refl, dict):
        verdict, changed, feedback = refl.get("verdict"), refl.get("changed"), refl.get("feedback")
        if verdict or changed is not None or feedback:
            info["reflection"] = {"verdict": _text(verdict) if verdict else "",
                                  "cls": VERDICT_CLASS.get(_text(verdict), "neutral"),
                                  "changed": None if changed is None else bool(changed),
                                  "feedback": _text(feedback) if feedback else ""}
    comp = rec.get("completion")
    if isinstance(comp, dict):
        reason = _text(comp.get("reason"))
        if reason == NOT_CHECKED and comp.get("complete") and not comp.get("raw"):
            # a planner without a model (the benchmark's oracle) trusts Stop: nothing was checked
            info["completion"] = {"ok": None, "reason": "no model judged the final screen; the planner trusts Stop"}
        else:
            info["completion"] = {"ok": bool(comp.get("complete")), "reason": reason}
    timings = rec.get("timings")
    if isinstance(timings, dict):
        info["timings"] = " · ".join(f"{k.removesuffix('_s')} {fmt_seconds(v)}" for k, v in timings.items()
                                     if num(v) is not None)
    model = rec.get("model")
    if isinstance(model, dict):
        toks = (f"{fmt_int(model.get('prompt_tokens'))} prompt + {fmt_int(model.get('completion_tokens'))} "
                f"completion tokens")
        if num(model.get("calls")) is not None:
            toks += f" in {fmt_int(model.get('calls'))} call(s)"
        if num(model.get("cost_usd")) is not None:
            toks += f" · {fmt_cost(model.get('cost_usd'))}"
        info["model"] = toks
    extra = {"input_summary": "", "raw": "", "parse_errors": "", "annotated": ""}
    if isinstance(model, dict):
        for key in ("input_summary", "raw", "parse_errors"):
            if model.get(key):
                extra[key] = _text(model.get(key))
    if step.annotated is not None and step.annotated.ok:
        extra["annotated"] = step.annotated.rel
    if any(extra.values()):
        info["extra"] = extra
    return info


def _summary_facts(run: RunData) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(badges, facts) for the header; derived from the steps when summary.json is gone. With the
    benchmark's verdict (benchmark.json), the agent's own outcome is never green for a failed task,
    and the verdict and why stand beside it."""
    s = run.summary or {}
    derived = run.summary is None
    outcome = _text(s.get("outcome")) or ("unfinished" if derived else "unknown")
    verdict = run.verdict
    cls = OUTCOME_CLASS.get(outcome, "warn")
    if verdict is not None and verdict.get("success") is not True and cls == "ok":
        cls = "neutral"  # the agent's claim, which the benchmark did not accept: never green
    badges = [{"cls": cls, "id": "outcome", "title": "how the run ended, as the agent saw it", "text": outcome}]
    if verdict is not None:
        if verdict.get("environment_failure"):
            badges.append({"cls": "warn", "id": "verdict", "title": "",
                           "text": "benchmark: not scored (environment failure)"})
        elif verdict.get("success") is True:
            badges.append({"cls": "ok", "id": "verdict", "title": "", "text": "benchmark: success"})
        else:
            badges.append({"cls": "bad", "id": "verdict", "title": "", "text": "benchmark: failed"})
    steps = s.get("steps") if num(s.get("steps")) is not None else (max((x.number for x in run.steps), default=0))
    tok = s.get("tokens") if isinstance(s.get("tokens"), dict) else {}
    if derived:
        pt = sum(int(num((x.record.get("model") or {}).get("prompt_tokens")) or 0) for x in run.steps
                 if isinstance(x.record.get("model"), dict))
        ct = sum(int(num((x.record.get("model") or {}).get("completion_tokens")) or 0) for x in run.steps
                 if isinstance(x.record.get("model"), dict))
        tok = {"prompt": pt, "completion": ct, "total": pt + ct}
        dur = sum(num((x.record.get("timings") or {}).get("total_s")) or 0.0 for x in run.steps
                  if isinstance(x.record.get("timings"), dict))
    else:
        dur = s.get("duration_s")
    facts = [{"label": k, "value": v, "cls": "", "id": ""} for k, v in [
        ("Steps", fmt_int(steps)),
        ("Time (wall)", fmt_seconds(dur) + (" (sum of steps)" if derived else "")),
        ("Tokens", f"{fmt_int(tok.get('total'))} ({fmt_int(tok.get('prompt'))} prompt, "
                   f"{fmt_int(tok.get('completion'))} completion)" + (" (sum of steps)" if derived else "")),
        ("Cost", fmt_cost(s.get("cost_usd"))),
        ("Model", _text(s.get("model")) or "–"),
        ("Device", _text(s.get("device")) or "–"),
        ("Started", fmt_time(s.get("started_at"))),
        ("Ended", fmt_time(s.get("ended_at"))),
    ]]
    if verdict is not None:
        why = verdict.get("environment_failure") or verdict.get("why")
        if why:
            judged = "not scored" if verdict.get("environment_failure") else "failed"
            facts.append({"label": f"Why the benchmark judged it {judged}", "value": _text(why),
                          "cls": "wide error", "id": "verdict-why"})
    replay = s.get("replay")
    if isinstance(replay, dict):  # a replay (agent/replay.py): its steps replayed and planned apart
        value = (f"{fmt_int(replay.get('replayed_steps'))} step(s) replayed (no model), "
                 f"{fmt_int(replay.get('planned_steps'))} planned by the model; "
                 f"{fmt_int(replay.get('model_calls_saved'))} model call(s) saved")
        if num(replay.get("waited_steps")):
            value += f"; waited {fmt_int(replay.get('waited_steps'))} step(s) for a recorded screen"
        if num(replay.get("dismissed_steps")):
            value += (f"; closed {fmt_int(replay.get('dismissed_steps'))} time(s) what the recording did not have "
                      "(an ad banner, the notification shade) with no model")
        if num(replay.get("resumed")):
            value += f"; resumed {fmt_int(replay.get('resumed'))} time(s)"
        facts.append({"label": "Replay of " + _text(replay.get("recording")), "value": value, "cls": "wide",
                      "id": "replay"})
        for d in replay.get("divergences") or []:
            if isinstance(d, dict):
                facts.append({"label": f"Diverged at step {_text(d.get('step'))} (recorded step "
                                       f"{_text(d.get('recorded_step'))})", "value": _text(d.get("why")),
                              "cls": "wide", "id": ""})
    if s.get("error"):
        facts.append({"label": "Error", "value": _text(s.get("error")), "cls": "wide error", "id": ""})
    pending = s.get("needs_user")
    if isinstance(pending, dict):
        what = "hand over the phone" if pending.get("kind") == "take_over" else "an answer"
        facts.append({"label": f"Needs the user ({what}, step {_text(pending.get('step'))})",
                      "value": _text(pending.get("text")), "cls": "wide", "id": "needs-user"})
    return badges, facts


def _multi_info(rec: dict[str, Any], earlier: dict[str, str]) -> dict[str, Any] | None:
    """Multi mode (``mode: "multi"`` records): the manager's plan and notes as they stood after this
    step's turn (notes new or changed since the step before marked), its route, the verifier's
    check and each role's calls. None for a single-mode record."""
    if rec.get("mode") != "multi":
        return None
    plan = [{"text": _text(g.get("text")), "status": _text(g.get("status")) or "todo"}
            for g in rec.get("plan") or [] if isinstance(g, dict)]
    notes = rec.get("notes") if isinstance(rec.get("notes"), dict) else {}
    manager = rec.get("manager") if isinstance(rec.get("manager"), dict) else {}
    route = _text(manager.get("route"))
    check = rec.get("verification") if isinstance(rec.get("verification"), dict) else None
    roles = rec.get("roles") if isinstance(rec.get("roles"), dict) else {}
    return {
        "subgoal": _text(rec.get("subgoal")),
        "plan": plan,
        "notes": [{"name": _text(k), "value": _text(v), "new": earlier.get(k) != v} for k, v in notes.items()],
        "route": "" if route.strip().lower().rstrip(".") in ("", "same", "none") else route,
        "check": None if check is None else {
            "cls": {True: "ok", False: "bad"}.get(check.get("passed"), "neutral"),
            "text": f"{_text(check.get('name'))}: " + {True: "passed", False: "failed"}.get(check.get("passed"),
                                                                                           "undecided"),
            "seen": _text(check.get("seen")), "method": _text(check.get("method"))},
        "roles": " · ".join(f"{_text(r)} {fmt_int(v.get('calls'))} call(s), "
                            f"{fmt_int((num(v.get('prompt_tokens')) or 0) + (num(v.get('completion_tokens')) or 0))} "
                            "tokens" for r, v in roles.items() if isinstance(v, dict)),
    }


def render_run(run: RunData, page: Path, embed: bool = False) -> str:
    """The report page of ``run`` as HTML text, for a file written at ``page``."""
    images = _Images(page, embed)
    s = run.summary or {}
    instruction = _text(s.get("instruction")) or "(instruction unknown: no summary.json)"
    badges, facts = _summary_facts(run)
    frames: list[dict[str, Any]] = []
    thumbs: list[dict[str, Any]] = []

    def add_thumb(anchor: str, label: str, screen: Screen | None, cls: str = "") -> None:
        thumbs.append({"gap": False, "anchor": anchor, "label": label, "cls": cls,
                       "src": images.thumb(screen) if screen is not None and screen.ok else None})

    def add_gaps(after: int) -> None:
        for k, gap in enumerate(run.gaps_after(after)):
            anchor = f"gap-{after}-{k}"
            frames.append({"kind": "gap", "anchor": anchor, "message": gap.message})
            label = "missing" if "missing" in gap.message or "lost" in gap.message else "gap"
            thumbs.append({"gap": True, "anchor": anchor, "title": gap.message, "label": label})

    add_gaps(0)
    notes_before: dict[str, str] = {}
    for step in run.steps:
        anchor = f"step-{step.number}"
        note = "The step record names no screenshot." if step.record.get("screenshot") in (None, "") else ""
        shot = _shot(step.screen, images, f"screen before step {step.number}",
                     lambda size, st=step: _overlay(st, size), note or "No screenshot.")
        err = bool(step.record.get("error"))
        info = _step_info(step)
        info["multi"] = _multi_info(step.record, notes_before)
        if info["multi"] is not None and isinstance(step.record.get("notes"), dict):
            notes_before = step.record["notes"]
        frames.append({"kind": "step", "anchor": anchor, "number": step.number, "error": err, "shot": shot,
                       "info": info})
        action = _text(step.record.get("action")) or "–"
        source = info["source"]
        add_thumb(anchor, f"{step.number}. {action}" + (f" ({source})" if source else ""), step.screen,
                  " ".join(c for c in ("error" if err else "", source) if c))
        add_gaps(step.number)
    if run.final is not None:
        frames.append({"kind": "final", "shot": _shot(run.final, images, "final screen", None, ""),
                       "outcome": _text(s.get("outcome")) or "unfinished"})
        add_thumb("final", "final", run.final)
    elif run.summary is not None and run.steps:
        frames.append({"kind": "gap", "anchor": "", "message": "no final screenshot (screens/final.png)."})
    if not run.steps and run.final is None:
        frames.append({"kind": "empty"})
    top_gaps = [{"anchor": "", "message": g.message} for g in run.gaps_after(None)]
    return render_template("trajectory.html", title=f"mobile-agent: {instruction}", run_name=run.run_dir.name,
                           instruction=instruction, badges=badges, facts=facts, top_gaps=top_gaps, thumbs=thumbs,
                           frames=frames, script=static_text("report.js"))

"""The HTML report of one run: a header, a filmstrip, and each step with its screenshot, the
grounding candidates and the gesture drawn over it, the ReAct text, the reflection and the timings.

The page is one file that opens from disk: screenshots are referenced relative to the page (they
stay beside it in ``screens/``), or embedded as ``data:`` URIs with ``embed=True``. CSS and the
small keyboard script are inlined.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from mobile_agent.report.htmlkit import (
    data_uri, esc, fmt_cost, fmt_int, fmt_seconds, num, page_head, relative_src, static_text, thumbnail_uri,
)
from mobile_agent.report.rundata import Gap, RunData, Screen, Step

OUTCOME_CLASS = {"completed": "ok", "dry_run": "neutral", "interrupted": "warn", "step_limit": "bad",
                 "time_limit": "bad", "loop": "bad", "error": "bad"}
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


def _para(label: str, value: Any, cls: str = "") -> str:
    t = _text(value).strip()
    if not t:
        return ""
    return f'<div class="field {cls}"><div class="label">{esc(label)}</div><div class="value">{esc(t)}</div></div>'


def _gap_html(gap: Gap, anchor: str = "") -> str:
    ident = f' id="{anchor}"' if anchor else ""
    return f'<div class="gap" role="note"{ident}><strong>Gap</strong> {esc(gap.message)}</div>'


def _gesture_text(g: Any) -> str:
    if not isinstance(g, dict):
        return "none recorded"
    kind = g.get("kind")
    if kind == "tap":
        return f"tap at ({_text(g.get('x'))}, {_text(g.get('y'))})"
    if kind == "swipe":
        d = g.get("duration_ms")
        return (f"swipe ({_text(g.get('x1'))}, {_text(g.get('y1'))}) → ({_text(g.get('x2'))}, {_text(g.get('y2'))})"
                + (f" in {_text(d)} ms" if d is not None else ""))
    if kind == "type":
        return f"type {_text(g.get('text'))!r}"
    if kind in ("back", "home"):
        return f"press {kind}"
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


def _overlay(step: Step, size: tuple[int, int]) -> str:
    """An SVG over the screenshot: numbered candidate boxes (the chosen one green) and the gesture."""
    w, h = size
    unit = max(w, h) / 100.0
    parts: list[str] = []
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
            cls = "cand chosen" if chosen == i else "cand"
            tx, ty = _label_spot(x1, max(y1 - unit * 0.4, fs * 0.9), fs, len(str(i)), (w, h), placed)
            parts.append(f'<g class="{cls}"><rect x="{x1:.0f}" y="{y1:.0f}" width="{max(1.0, x2 - x1):.0f}" '
                         f'height="{max(1.0, y2 - y1):.0f}" vector-effect="non-scaling-stroke"/>'
                         f'<text x="{tx:.0f}" y="{ty:.0f}" font-size="{fs:.0f}">{i}</text></g>')
    g = step.record.get("gesture")
    if isinstance(g, dict):
        r = unit * 2.2
        if g.get("kind") == "tap" and num(g.get("x")) is not None and num(g.get("y")) is not None:
            x, y = float(g["x"]), float(g["y"])
            parts.append(f'<g class="tap"><circle cx="{x:.0f}" cy="{y:.0f}" r="{r:.0f}" '
                         f'vector-effect="non-scaling-stroke"/><circle class="dot" cx="{x:.0f}" cy="{y:.0f}" '
                         f'r="{r / 4:.0f}"/></g>')
        elif g.get("kind") == "swipe" and all(num(g.get(k)) is not None for k in ("x1", "y1", "x2", "y2")):
            x1, y1, x2, y2 = (float(g[k]) for k in ("x1", "y1", "x2", "y2"))
            parts.append(f'<g class="swipe"><circle cx="{x1:.0f}" cy="{y1:.0f}" r="{r / 2:.0f}" '
                         f'vector-effect="non-scaling-stroke"/><line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" '
                         f'y2="{y2:.0f}" marker-end="url(#arrow)" vector-effect="non-scaling-stroke"/></g>')
        elif g.get("kind") == "type" and isinstance(g.get("text"), str):
            shown = g["text"] if len(g["text"]) <= 40 else g["text"][:39] + "…"
            fs = unit * 2.2
            parts.append(f'<g class="typed"><rect x="{unit:.0f}" y="{h * 0.45:.0f}" width="{w - 2 * unit:.0f}" '
                         f'height="{fs * 1.8:.0f}" rx="{unit:.0f}"/><text x="{w / 2:.0f}" y="{h * 0.45 + fs * 1.25:.0f}" '
                         f'font-size="{fs:.0f}" text-anchor="middle">type “{esc(shown)}”</text></g>')
    if not parts:
        return ""
    return (f'<svg class="overlay" viewBox="0 0 {w} {h}" preserveAspectRatio="none" aria-hidden="true">'
            f'<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
            f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>{"".join(parts)}</svg>')


def _shot(screen: Screen | None, images: _Images, alt: str, overlay: Callable[[tuple[int, int]], str] | None,
          missing_note: str) -> str:
    if screen is None:
        return f'<div class="noshot">{esc(missing_note)}</div>'
    if not screen.ok or screen.size is None:
        return f'<div class="noshot">Screenshot {esc(screen.rel)}: {esc(screen.error)}</div>'
    ov = overlay(screen.size) if overlay else ""
    w, h = screen.size
    fit = f"width:min(100%, calc((100vh - 210px) * {w / h:.4f}))"  # the whole screen fits below the filmstrip
    return (f'<figure class="shot" style="aspect-ratio:{w}/{h};{fit}"><img src="{images.src(screen)}" alt="{esc(alt)}" '
            f'width="{w}" height="{h}" decoding="async">{ov}</figure>')


def _candidates_table(grounding: dict[str, Any]) -> str:
    cands = grounding.get("candidates")
    if not isinstance(cands, list) or not cands:
        return ""
    chosen = grounding.get("chosen")
    rows = []
    for i, c in enumerate(cands):
        if not isinstance(c, dict):
            continue
        score = num(c.get("score"))
        rows.append(f'<tr class="{"chosen" if chosen == i else ""}"><td>{i}</td><td>{esc(c.get("text"))}</td>'
                    f'<td>{"" if score is None else f"{score:.2f}"}</td><td>{esc(c.get("box"))}</td>'
                    f'<td>{esc(c.get("point"))}</td></tr>')
    return ('<div class="scroll"><table class="cands"><thead><tr><th>#</th><th>text</th><th>score</th><th>box</th>'
            f'<th>point</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


def _step_info(step: Step) -> str:
    rec = step.record
    out: list[str] = []
    action = rec.get("action")
    out.append(f'<h2><span class="num">Step {step.number}</span> <code class="action">'
               f'{esc(action) if action else "(no action)"}</code></h2>')
    out.append(_para("Observation", rec.get("observation")))
    out.append(_para("Thought", rec.get("thought")))
    out.append(_para("Action", action, "mono"))
    grounding = rec.get("grounding")
    if isinstance(grounding, dict):
        status = _text(grounding.get("status")) or "–"
        chosen = grounding.get("chosen")
        out.append(f'<div class="field"><div class="label">Grounding</div><div class="value">'
                   f'<span class="badge g-{esc(status)}">{esc(status)}</span> '
                   f'{"chosen #" + esc(chosen) if chosen is not None else ""} {esc(grounding.get("message"))}'
                   f'{_candidates_table(grounding)}</div></div>')
    out.append(f'<div class="field"><div class="label">Gesture</div><div class="value mono">'
               f'{esc(_gesture_text(rec.get("gesture")))}</div></div>')
    refl = rec.get("reflection")
    if isinstance(refl, dict):
        verdict = refl.get("verdict")
        changed = refl.get("changed")
        bits = []
        if verdict:
            bits.append(f'<span class="badge {VERDICT_CLASS.get(_text(verdict), "neutral")}">{esc(verdict)}</span>')
        if changed is not None:
            bits.append(f'screen {"changed" if changed else "did not change"}')
        if refl.get("feedback"):
            bits.append(f'<div class="feedback">{esc(refl.get("feedback"))}</div>')
        if bits:
            out.append(f'<div class="field"><div class="label">Reflection</div><div class="value">'
                       f'{" ".join(bits)}</div></div>')
    comp = rec.get("completion")
    if isinstance(comp, dict):
        ok = comp.get("complete")
        out.append(f'<div class="field"><div class="label">Completion check</div><div class="value">'
                   f'<span class="badge {"ok" if ok else "warn"}">{"complete" if ok else "not complete"}</span> '
                   f'{esc(comp.get("reason"))}</div></div>')
    timings = rec.get("timings")
    if isinstance(timings, dict):
        cells = " · ".join(f"{k.removesuffix('_s')} {fmt_seconds(v)}" for k, v in timings.items()
                           if num(v) is not None)
        out.append(f'<div class="field"><div class="label">Timings</div><div class="value">{esc(cells)}</div></div>')
    model = rec.get("model")
    if isinstance(model, dict):
        toks = (f"{fmt_int(model.get('prompt_tokens'))} prompt + {fmt_int(model.get('completion_tokens'))} "
                f"completion tokens")
        if num(model.get("calls")) is not None:
            toks += f" in {fmt_int(model.get('calls'))} call(s)"
        if num(model.get("cost_usd")) is not None:
            toks += f" · {fmt_cost(model.get('cost_usd'))}"
        out.append(f'<div class="field"><div class="label">Model</div><div class="value">{esc(toks)}</div></div>')
    if rec.get("error"):
        out.append(f'<div class="field error"><div class="label">Error</div><div class="value">'
                   f'{esc(rec.get("error"))}</div></div>')
    extra = []
    if isinstance(model, dict):
        if model.get("input_summary"):
            extra.append(f'<h4>Model input</h4><pre>{esc(model.get("input_summary"))}</pre>')
        if model.get("raw"):
            extra.append(f'<h4>Raw model output</h4><pre>{esc(model.get("raw"))}</pre>')
        if model.get("parse_errors"):
            extra.append(f'<h4>Parse errors</h4><pre>{esc(model.get("parse_errors"))}</pre>')
    if step.annotated is not None and step.annotated.ok:
        extra.append(f'<p>Annotated copy saved by the agent: <code>{esc(step.annotated.rel)}</code></p>')
    if extra:
        out.append(f'<details><summary>Model input and raw output</summary>{"".join(extra)}</details>')
    return "".join(out)


def _summary_facts(run: RunData) -> tuple[str, str]:
    """(outcome badge, the facts grid) for the header; derived from the steps when summary.json is gone."""
    s = run.summary or {}
    derived = run.summary is None
    outcome = _text(s.get("outcome")) or ("unfinished" if derived else "unknown")
    verdict = run.verdict
    cls = OUTCOME_CLASS.get(outcome, "warn")
    if verdict is not None and verdict.get("success") is not True and cls == "ok":
        cls = "neutral"  # the agent's claim, which the benchmark did not accept: never green
    badge = (f'<span class="badge big {cls}" id="outcome" title="how the run ended, as the agent saw it">'
             f'{esc(outcome)}</span>')
    if verdict is not None:
        if verdict.get("environment_failure"):
            badge += (' <span class="badge big warn" id="verdict">benchmark: not scored (environment failure)'
                      '</span>')
        elif verdict.get("success") is True:
            badge += ' <span class="badge big ok" id="verdict">benchmark: success</span>'
        else:
            badge += ' <span class="badge big bad" id="verdict">benchmark: failed</span>'
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
    facts = [
        ("Steps", fmt_int(steps)),
        ("Time (wall)", fmt_seconds(dur) + (" (sum of steps)" if derived else "")),
        ("Tokens", f"{fmt_int(tok.get('total'))} ({fmt_int(tok.get('prompt'))} prompt, "
                   f"{fmt_int(tok.get('completion'))} completion)" + (" (sum of steps)" if derived else "")),
        ("Cost", fmt_cost(s.get("cost_usd"))),
        ("Model", _text(s.get("model")) or "–"),
        ("Device", _text(s.get("device")) or "–"),
        ("Started", _text(s.get("started_at")) or "–"),
        ("Ended", _text(s.get("ended_at")) or "–"),
    ]
    grid = "".join(f'<div class="fact"><div class="label">{esc(k)}</div><div class="value">{esc(v)}</div></div>'
                   for k, v in facts)
    if verdict is not None:
        why = verdict.get("environment_failure") or verdict.get("why")
        if why:
            grid += (f'<div class="fact wide error" id="verdict-why"><div class="label">Why the benchmark judged '
                     f'it {"not scored" if verdict.get("environment_failure") else "failed"}</div>'
                     f'<div class="value">{esc(why)}</div></div>')
    if s.get("error"):
        grid += (f'<div class="fact wide error"><div class="label">Error</div>'
                 f'<div class="value">{esc(s.get("error"))}</div></div>')
    return badge, grid


def render_run(run: RunData, page: Path, embed: bool = False) -> str:
    """The report page of ``run`` as HTML text, for a file written at ``page``."""
    images = _Images(page, embed)
    s = run.summary or {}
    instruction = _text(s.get("instruction")) or "(instruction unknown: no summary.json)"
    badge, grid = _summary_facts(run)
    frames: list[str] = []
    thumbs: list[str] = []

    def add_thumb(anchor: str, label: str, screen: Screen | None, cls: str = "") -> None:
        inner = (f'<img src="{images.thumb(screen)}" alt="">' if screen is not None and screen.ok
                 else '<div class="nothumb">?</div>')
        thumbs.append(f'<a class="thumb {cls}" href="#{anchor}" data-target="{anchor}" title="{esc(label)}">'
                      f'{inner}<span>{esc(label)}</span></a>')

    def add_gaps(after: int) -> None:
        for k, gap in enumerate(run.gaps_after(after)):
            anchor = f"gap-{after}-{k}"
            frames.append(_gap_html(gap, anchor))
            label = "missing" if "missing" in gap.message or "lost" in gap.message else "gap"
            thumbs.append(f'<a class="thumb missing" href="#{anchor}" data-gap="{anchor}" title="{esc(gap.message)}">'
                          f'<div class="nothumb">!</div><span>{esc(label)}</span></a>')

    add_gaps(0)
    for step in run.steps:
        anchor = f"step-{step.number}"
        note = "The step record names no screenshot." if step.record.get("screenshot") in (None, "") else ""
        shot = _shot(step.screen, images, f"screen before step {step.number}",
                     lambda size, st=step: _overlay(st, size), note or "No screenshot.")
        err = " has-error" if step.record.get("error") else ""
        frames.append(f'<section class="frame step{err}" id="{anchor}" data-step="{step.number}" tabindex="-1">'
                      f'<div class="shotcol">{shot}</div><div class="info">{_step_info(step)}</div></section>')
        action = _text(step.record.get("action")) or "–"
        add_thumb(anchor, f"{step.number}. {action}", step.screen, "error" if err else "")
        add_gaps(step.number)
    if run.final is not None:
        shot = _shot(run.final, images, "final screen", None, "")
        frames.append(f'<section class="frame final" id="final" data-step="final" tabindex="-1">'
                      f'<div class="shotcol">{shot}</div><div class="info"><h2>Final screen</h2>'
                      f'<p>The screen when the run ended ({esc(s.get("outcome") or "unfinished")}).</p></div></section>')
        add_thumb("final", "final", run.final)
    elif run.summary is not None and run.steps:
        frames.append(_gap_html(Gap("no final screenshot (screens/final.png).")))
    if not run.steps and run.final is None:
        frames.append('<p class="empty">No steps to show.</p>')
    top_gaps = "".join(_gap_html(g) for g in run.gaps_after(None))
    title = f"mobile-agent: {instruction}"
    return f"""{page_head(title)}<body class="run-report">
<header class="top">
<div class="kicker">mobile-agent run · <code>{esc(run.run_dir.name)}</code></div>
<h1 id="instruction">{esc(instruction)}</h1>
<div class="outcome">{badge}</div>
<div class="facts">{grid}</div>
{top_gaps}
</header>
<nav class="filmstrip" id="filmstrip" aria-label="steps">{"".join(thumbs)}</nav>
<main id="frames">
{"".join(frames)}
</main>
<footer class="keys">Keys: <kbd>←</kbd> <kbd>→</kbd> (or <kbd>k</kbd> <kbd>j</kbd>) previous / next step ·
<kbd>Home</kbd> <kbd>End</kbd> first / last · <kbd>o</kbd> overlays on / off</footer>
<script>{static_text("report.js")}</script>
</body>
</html>
"""

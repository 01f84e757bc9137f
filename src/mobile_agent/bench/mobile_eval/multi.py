"""Mobile-Eval, multi-app: today's date from Calendar into a note; the 5-day temperatures from Weather
analysed in a note; today's Lakers result from Browser written as a sports note."""

from __future__ import annotations

import datetime as dt
import re

from mobile_agent.agent.operations import Exit, OpenApp
from mobile_agent.bench.mobile_eval.notes import note_with, write_note
from mobile_agent.bench.task import Params, Probe, Task, norm, step, stop

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]


def long_date(d: dt.date) -> str:
    """As the Calendar shows it: ``Saturday, September 14, 2024``."""
    return f"{d.strftime('%A, %B')} {d.day}, {d.year}"


def mentions_date(text: str, d: dt.date) -> bool:
    """``text`` names the date ``d``: its ISO form, or its month (full or first three letters) with the
    day number as a whole word."""
    t = norm(text)
    if d.isoformat() in t or f"{d.month}/{d.day}" in t:
        return True
    month = MONTHS[d.month - 1]
    has_month = month in t or re.search(rf"\b{month[:3]}\b", t) is not None
    return has_month and re.search(rf"(?<!\d){d.day}(?!\d)", t) is not None


def new_notes(p: Probe, before: int) -> list:
    return p.state.notes.notes[before:]


def then_notes(first_app: str, seen) -> list:
    """Leave ``first_app`` for the home screen, open Notes (milestones remember ``first_app`` was seen)."""
    return [
        step(Exit(), lambda p: p.on_home and seen(p)),
        step(OpenApp("Notes"), lambda p: p.in_app("Notes") and seen(p)),
    ]


def note_after(first_app: str, seen, text: str, done) -> list:
    """The rest of a plan once ``first_app`` was used: Notes, a new note with ``text``, Save (``done``
    checks the saved note), stop."""
    *writing, save = write_note(text, start=[])
    return [*then_notes(first_app, seen), *writing, step(save.op, done, icon_desc="Save"), stop()]


def note_task(s, tier: int, instruction: str, paper_instruction: str, first_app: str, first_steps: list, seen,
              text: str, accepts, description: str = "") -> Task:
    """A task that reads something in ``first_app`` and writes it in a new note: the plan is
    ``first_steps`` (opening ``first_app`` and what is done there), then Notes, the note ``text``,
    Save and Stop. Success: a note made during the run whose title and body ``accepts``, once
    ``seen`` holds (``first_app`` was used)."""
    count = len(s.notes.notes)

    def done(p: Probe) -> bool:
        return any(accepts(n.title + " " + n.body) for n in new_notes(p, count))

    return Task(
        id="", apps=(), tier=tier, instruction=instruction, paper_instruction=paper_instruction,
        plan=[*first_steps, *note_after(first_app, seen, text, done)],
        success=lambda p: done(p) and seen(p),
        description=description,
    )


def today_note(params: Params, s) -> Task:
    today = s.today
    params.values["date"] = today.isoformat()
    return note_task(
        s, 1,
        'Open the Calendar and look at today\'s date, then go to Notes and create a new note to write '
        '"Today is <the date>".',
        'Open the calendar and look at today\'s date, then go to notes and create a new note to '
        'write "Today is <date>".',
        "Calendar", [step(OpenApp("Calendar"), lambda p: p.in_app("Calendar"))], lambda p: p.visited("Calendar"),
        f"Today is {long_date(today)}", lambda t: "today is" in norm(t) and mentions_date(t, today),
    )


def temperature_note(params: Params, s) -> Task:
    days = s.weather.forecast
    highs = [d.high for d in days]
    lows = [d.low for d in days]
    warm = max(days, key=lambda d: d.high)
    values = {str(v) for v in highs + lows}

    def cites_two(text: str) -> bool:
        text = re.sub(r"\b5[- ]?days?\b", " ", text, flags=re.IGNORECASE)
        return len(set(re.findall(r"-?\d+", text)) & values) >= 2

    return note_task(
        s, 2,
        "Check the temperature in the next 5 days, and then create a new note in Notes and write a "
        "temperature analysis.",
        "Check the temperature in the next 5 days, and then create a new note in notes and write "
        "a temperature analysis.",
        "Weather", [step(OpenApp("Weather"), lambda p: p.in_app("Weather"))], lambda p: p.visited("Weather"),
        f"Next 5 days: highs from {min(highs)} to {max(highs)} C, lows from {min(lows)} to {max(lows)} C. "
        f"Warmest on {warm.weekday} with {warm.high} C.", cites_two,
        "success: a new note citing at least two of the forecast's temperatures, after Weather was open",
    )


TASKS = [("multi-1", ("Calendar", "Notes"), 1, today_note), ("multi-2", ("Weather", "Notes"), 2, temperature_note)]


def lakers_note(params: Params, s) -> Task:
    from mobile_agent.bench.mobile_eval.browser import HINT, lakers_searched
    from mobile_agent.agent.operations import ClickText, Type
    from mobile_agent.device.sim.apps.browser import lakers_result

    g = lakers_result(s.seed)
    verb = "beat" if g["lakers_won"] else "lost to"
    other = g["opponent"].split()[-1]
    scores = {str(g["lakers_score"]), str(g["opponent_score"])}
    return note_task(
        s, 3,
        "Search the result of today's Lakers game, and then create a note in Notes to write a sports "
        "news item about this result.",
        "Search the result for today's Lakers game, and then create a note in notes to write a "
        "sport news for this result.",
        "Browser",
        [step(OpenApp("Browser"), lambda p: p.in_app("Browser")),
         step(ClickText(HINT), lambda p: p.in_app("Browser") and p.focused_rid() == "url_bar"),
         step(Type("Lakers game today\n"), lambda p: p.in_app("Browser") and lakers_searched(p))],
        lakers_searched,
        f"Sports news: the Lakers {verb} the {other} today, final score {g['score_text']}. "
        f"{g['top_scorer']} led the Lakers with {g['top_points']} points.",
        lambda t: "laker" in norm(t) and scores <= set(re.findall(r"\d+", t)),
        "success: a new note naming the Lakers and both final scores, after a Lakers search",
    )


TASKS.append(("multi-3", ("Browser", "Notes"), 3, lakers_note))

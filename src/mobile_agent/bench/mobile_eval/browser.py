"""Mobile-Eval, Browser: today's Lakers result; information about Taylor Swift; the Lakers result asked
indirectly."""

from __future__ import annotations

from mobile_agent.agent.operations import OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, step, stop, typed

APP = "Browser"
HINT = "Search or type web address"


def _browser():
    from mobile_agent.device.sim.apps import browser

    return browser


def searched(p: Probe, test) -> bool:
    return any(test(q) for q in p.state.browser.searches)


def lakers_searched(p: Probe) -> bool:
    return searched(p, _browser().is_lakers_query)


def search_steps(query: str, done) -> list:
    return [
        step(OpenApp(APP), lambda p: p.in_app(APP)),
        step(click(HINT), lambda p: p.in_app(APP) and p.focused_rid() == "url_bar"),
        step(typed(query + "\n"), lambda p: p.in_app(APP) and done(p)),
    ]


def lakers(params: Params, s) -> Task:
    q = params.pick("query", "Lakers game today", ["Lakers game today", "today's Lakers game result", "Lakers score"])
    return Task(id="", apps=(), tier=1, instruction="Search the result for today's Lakers game.",
                paper_instruction="Search result for today's Lakers game.",
                plan=[*search_steps(q, lakers_searched), stop()], success=lakers_searched,
                description="success once a Lakers search was made (its results page shows the final score)")


def taylor_swift(params: Params, s) -> Task:
    q = params.pick("query", "Taylor Swift", ["Taylor Swift", "Taylor Swift information", "who is Taylor Swift"])
    done = lambda p: searched(p, _browser().is_taylor_swift_query)  # noqa: E731
    return Task(id="", apps=(), tier=2, instruction="Search the information about Taylor Swift.",
                paper_instruction="Search the information about Taylor Swift.",
                plan=[*search_steps(q, done), stop()], success=done)


def lakers_indirect(params: Params, s) -> Task:
    q = params.pick("query", "Lakers game today", ["Lakers game today", "Lakers result", "Lakers score today"])
    return Task(id="", apps=(), tier=3,
                instruction="I want to know the result of today's Lakers game. Find an app to help me.",
                paper_instruction="I want to know the result of today's Lakers game. Find an App to help me.",
                plan=[*search_steps(q, lakers_searched), stop()], success=lakers_searched)


TASKS = [("browser-1", (APP,), 1, lakers), ("browser-2", (APP,), 2, taylor_swift),
         ("browser-3", (APP,), 3, lakers_indirect)]

"""Mobile-Eval, Settings: dark mode, airplane mode, the network speed in the status bar."""

from __future__ import annotations

from mobile_agent.agent.operations import ClickIcon, OpenApp, Type
from mobile_agent.bench.task import Params, Task, click, step, stop

APP = "Settings"


def _opened(p) -> bool:
    return p.in_app(APP)


def _page_with(row: str):
    """A settings page (not the search results) that shows ``row``."""
    return lambda p: p.in_app(APP) and p.screen_name == "PageScreen" and p.shows(row)


# Searching the setting instead of opening its page: the search field, then typing in it.
SEARCH = (ClickIcon("search"), Type("*"))


def dark_mode(params: Params, s) -> Task:
    return Task(
        id="", apps=(), tier=1,
        instruction="Turn on the dark mode.",
        paper_instruction="Turn on the dark mode.",
        plan=[
            step(OpenApp(APP), _opened),
            step(click("Display"), _page_with("Dark theme"),
                 alternatives=(click("Search settings"), *SEARCH)),
            step(click("Dark theme"), lambda p: p.state.settings.dark_mode),
            stop(),
        ],
        success=lambda p: p.state.settings.dark_mode,
    )


def airplane_mode(params: Params, s) -> Task:
    return Task(
        id="", apps=(), tier=2,
        instruction="Turn on the airplane mode.",
        paper_instruction="Turn on the airplane mode.",
        plan=[
            step(OpenApp(APP), _opened),
            step(click("Network & internet"), _page_with("Airplane mode"),
                 alternatives=(click("Search settings"), *SEARCH)),
            step(click("Airplane mode"), lambda p: p.state.settings.airplane_mode),
            stop(),
        ],
        success=lambda p: p.state.settings.airplane_mode,
    )


def network_speed(params: Params, s) -> Task:
    return Task(
        id="", apps=(), tier=3,
        instruction="I want to see the real-time internet speed in the status bar of my phone.",
        paper_instruction="I want to see the real-time internet speed at the status bar. Find an App to help me.",
        plan=[
            step(OpenApp(APP), _opened),
            step(click("Notifications"), _page_with("Show network speed"),
                 alternatives=(click("Search settings"), *SEARCH)),
            step(click("Show network speed"), lambda p: p.state.settings.show_network_speed),
            stop(),
        ],
        success=lambda p: p.state.settings.show_network_speed,
    )


TASKS = [("settings-1", (APP,), 1, dark_mode), ("settings-2", (APP,), 2, airplane_mode),
         ("settings-3", (APP,), 3, network_speed)]

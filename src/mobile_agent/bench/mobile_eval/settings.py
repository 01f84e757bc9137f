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


def _switch_on(tier: int, instruction: str, paper_instruction: str, page: str, switch: str, flag: str) -> Task:
    """Open Settings, the ``page`` that holds ``switch`` (or search for it), turn it on: the settings
    state's ``flag`` becomes true."""
    on = lambda p: getattr(p.state.settings, flag)  # noqa: E731
    return Task(
        id="", apps=(), tier=tier,
        instruction=instruction,
        paper_instruction=paper_instruction,
        plan=[
            step(OpenApp(APP), _opened),
            step(click(page), _page_with(switch), alternatives=(click("Search settings"), *SEARCH)),
            step(click(switch), on),
            stop(),
        ],
        success=on,
    )


def dark_mode(params: Params, s) -> Task:
    return _switch_on(1, "Turn on the dark mode.", "Turn on the dark mode.", "Display", "Dark theme", "dark_mode")


def airplane_mode(params: Params, s) -> Task:
    return _switch_on(2, "Turn on the airplane mode.", "Turn on the airplane mode.", "Network & internet",
                      "Airplane mode", "airplane_mode")


def network_speed(params: Params, s) -> Task:
    return _switch_on(
        3, "I want to see the real-time internet speed in the status bar of my phone.",
        "I want to see the real-time internet speed at the status bar. Find an App to help me.",
        "Notifications", "Show network speed", "show_network_speed",
    )


TASKS = [("settings-1", (APP,), 1, dark_mode), ("settings-2", (APP,), 2, airplane_mode),
         ("settings-3", (APP,), 3, network_speed)]

"""Mobile-Eval, Store: download WhatsApp; download Instagram; "I want WhatsApp on my phone"."""

from __future__ import annotations

from mobile_agent.agent.operations import OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, norm, step, stop, typed

APP = "Store"


def install_started(p: Probe, name: str) -> bool:
    """Installed, or its download under way (it finishes by itself, as on a phone)."""
    st = p.state.store
    return name in st.installed or name in st.installing


def install_plan(name: str) -> list:
    return [
        step(OpenApp(APP), lambda p: p.in_app(APP)),
        step(click("Search for apps & games"), lambda p: p.in_app(APP) and p.screen_name == "SearchScreen"),
        step(typed(name + "\n"), lambda p: p.in_app(APP) and norm(name) in [norm(q) for q in p.state.store.searches]),
        step(click("Install"), lambda p: install_started(p, name), pick="top",
             alternatives=(click(name),)),  # the app's page first, then its Install
        stop(),
    ]


def _task(tier: int, name: str, instruction: str, paper: str) -> Task:
    return Task(id="", apps=(), tier=tier, instruction=instruction, paper_instruction=paper,
                plan=install_plan(name), success=lambda p: install_started(p, name),
                description="success once the install has started (the download then completes by itself)")


def whatsapp(params: Params, s) -> Task:
    return _task(1, "WhatsApp", "Download WhatsApp in Store.", "Download WhatsApp in Play Store.")


def instagram(params: Params, s) -> Task:
    return _task(2, "Instagram", "Download Instagram in Store.", "Download Instagram in Play Store.")


def want_whatsapp(params: Params, s) -> Task:
    return _task(3, "WhatsApp", "I want WhatsApp on my phone. Find an app to help me.",
                 "I want WhatsApp on my phone. Find an App to help me.")


TASKS = [("store-1", (APP,), 1, whatsapp), ("store-2", (APP,), 2, instagram), ("store-3", (APP,), 3, want_whatsapp)]

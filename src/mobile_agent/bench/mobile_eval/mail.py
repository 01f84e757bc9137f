"""Mobile-Eval, Mail: send an empty mail; send a mail about my new work; the same asked indirectly."""

from __future__ import annotations

from mobile_agent.agent.operations import ClickIcon, OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, norm, step, stop, typed

APP = "Mail"
ADDRESSES = ["jack.chen@example.com", "maria.gomez@example.org", "li.wei@example.net", "sam.taylor@example.com",
             "olivia.brown@example.org"]
DEFAULT_ADDRESS = "jack.chen@example.com"
BODIES = ["Hi, I have started a new job as a software engineer at a robotics company. I will tell you more soon!",
          "Hello! Good news: I started my new work this week, as a designer at a small studio.",
          "Hi, just to let you know that I have a new job: I now work as a data analyst in Hangzhou."]


def sent_to(p: Probe, address: str) -> list:
    a = norm(address)
    return [m for m in p.state.mail.sent if a in [norm(x) for x in m.to]]


def about_work(mail) -> bool:
    text = norm(mail.subject + " " + mail.body)
    return any(w in text for w in ("work", "job", "position", "role"))


def compose_steps(address: str) -> list:
    return [
        step(OpenApp(APP), lambda p: p.in_app(APP)),
        step(click("Compose"), lambda p: p.in_app(APP) and p.screen_name == "ComposeScreen"),
        step(typed(address), lambda p: p.screen_name == "ComposeScreen" and norm(address) in norm(p.fields().get("to", ""))),
    ]


def empty_mail(params: Params, s) -> Task:
    address = params.pick("address", DEFAULT_ADDRESS, ADDRESSES)
    return Task(
        id="", apps=(), tier=1,
        instruction=f"Send an empty email to {address}.",
        paper_instruction="Send an empty email to {address}.",
        plan=[
            *compose_steps(address),
            step(ClickIcon("send", ("top", "right")), lambda p: p.shows_part("without a subject"), icon_desc="Send"),
            step(click("OK"), lambda p: bool(sent_to(p, address))),
            stop(),
        ],
        success=lambda p: any(not m.body.strip() and not m.subject.strip() for m in sent_to(p, address)),
    )


def _work_plan(address: str, body: str) -> list:
    return [
        *compose_steps(address),
        step(click("Compose email"), lambda p: p.screen_name == "ComposeScreen" and p.focused_rid() == "body",
             alternatives=(click("Subject"), typed("*"))),  # a subject line first
        step(typed(body), lambda p: p.screen_name == "ComposeScreen" and norm(body) in norm(p.fields().get("body", ""))),
        step(ClickIcon("send", ("top", "right")), lambda p: any(about_work(m) for m in sent_to(p, address)),
             icon_desc="Send"),
        stop(),
    ]


def new_work(params: Params, s) -> Task:
    address = params.pick("address", DEFAULT_ADDRESS, ADDRESSES)
    body = params.pick("body", BODIES[0], BODIES)
    return Task(
        id="", apps=(), tier=2,
        instruction=f"Send an email to {address} to tell about my new work.",
        paper_instruction="Send an email to {address} to tell my new work.",
        plan=_work_plan(address, body),
        success=lambda p: any(about_work(m) for m in sent_to(p, address)),
        description="any mail to the address whose subject or body speaks of work or a job succeeds",
    )


def new_work_indirect(params: Params, s) -> Task:
    address = params.pick("address", DEFAULT_ADDRESS, ADDRESSES)
    body = params.pick("body", BODIES[0], BODIES)
    return Task(
        id="", apps=(), tier=3,
        instruction=f"I want to let my friend know about my new work, and his address is {address}. "
                    "Find an app to help me.",
        paper_instruction="I want to let my friend know my new work, and his address is {address}. "
                          "Find an App to help me.",
        plan=_work_plan(address, body),
        success=lambda p: any(about_work(m) for m in sent_to(p, address)),
    )


TASKS = [("mail-1", (APP,), 1, empty_mail), ("mail-2", (APP,), 2, new_work), ("mail-3", (APP,), 3, new_work_indirect)]

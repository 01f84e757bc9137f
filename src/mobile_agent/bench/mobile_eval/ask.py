"""The ask tier (``--suite mobile-eval-ask``): tasks whose instruction leaves out something only the
user knows, or that need the user's own hands, on the simulated phone.

- ``ask-contact``: "Email Anna that I will be ten minutes late": two Annas wrote to the inbox; which
  one is meant only the user knows (Mail; the plan asks first).
- ``ask-size``: ask the hoodie's supplier whether they have it "in my size" (Shop's chat with the
  supplier; the size is the user's).
- ``ask-code``: Mail is signed out and asks for the 6-digit code sent to the user's phone; the
  agent asks for it, types it and verifies, then sends a mail (a Take Over instead of the question
  also works: the user then types the code by hand).
- ``ask-login``: Mail is signed out and asks for a password only the user knows: the agent hands
  the phone over (Take Over), the simulated user signs in, and the agent sends the mail.
- ``ask-none``: the same mail with everything in the instruction: no question is needed (asking
  anyway costs steps and shows in the question counts).

The simulated user (:mod:`mobile_agent.bench.user`) answers from each task's hidden facts and says
"I don't know." to anything else; success checks the phone's state as everywhere else.
"""

from __future__ import annotations

from typing import Any

from mobile_agent.agent.operations import AskUser, ClickIcon, OpenApp, TakeOver
from mobile_agent.bench.task import Params, Probe, Task, click, norm, step, stop, typed
from mobile_agent.bench.user import Fact

MAIL = "Mail"
SHOP = "Shop"
ANNAS = (("Anna Wong", "anna.wong@example.org"), ("Anna Li", "anna.li@example.com"))
SIZES = ("L", "M", "XL", "S")
CODES = ("482913", "305718", "769240", "118356")
HOODIE = "hoodie-001"
LATE = "I will be ten minutes late."
CONTACT_WORDS = ("anna", "which", "who", "whom", "contact", "recipient", "address", "email", "e-mail")
CODE_WORDS = ("code", "otp", "pin", "verification", "one-time", "digits", "digit")


def _sent_to(p: Probe, address: str) -> list:
    from mobile_agent.bench.mobile_eval.mail import sent_to

    return sent_to(p, address)


def _mail_steps(address: str, body: str | None, told: str | None = None) -> list:
    """Compose, the address, (the body,) send: the steps after Mail shows its inbox."""
    def ok(p: Probe) -> bool:
        return told is None or p.told(told)

    steps = [
        step(click("Compose"), lambda p: p.in_app(MAIL) and p.screen_name == "ComposeScreen" and ok(p)),
        step(typed(address), lambda p: p.screen_name == "ComposeScreen" and ok(p)
             and norm(address) in norm(p.fields().get("to", ""))),
    ]
    if body is None:  # an empty mail: Send, then OK to the question about the empty message
        return steps + [
            step(ClickIcon("send", ("top", "right")), lambda p: p.shows_part("without a subject") and ok(p),
                 icon_desc="Send"),
            step(click("OK"), lambda p: bool(_sent_to(p, address)) and ok(p)),
        ]
    return steps + [
        step(click("Compose email"), lambda p: p.screen_name == "ComposeScreen" and p.focused_rid() == "body"
             and ok(p), alternatives=(click("Subject"), typed("*"))),
        step(typed(body), lambda p: p.screen_name == "ComposeScreen" and ok(p)
             and norm(body) in norm(p.fields().get("body", ""))),
        step(ClickIcon("send", ("top", "right")), lambda p: bool(_sent_to(p, address)) and ok(p), icon_desc="Send"),
    ]


def contact(params: Params, s) -> Task:
    name, address = params.pick("contact", ANNAS[0], ANNAS)
    other = next(a for n, a in ANNAS if a != address)

    def setup(phone) -> None:
        from mobile_agent.device.sim.state import Email

        inbox = phone.state.mail.inbox
        inbox.insert(0, Email("anna.li@example.com", ["me@example.com"], "Lunch on Friday?",
                              "Shall we meet at the usual place?", "2024-05-14T09:12:00", read=False))
        inbox.insert(0, Email("anna.wong@example.org", ["me@example.com"], "Project meeting",
                              "The meeting moved to 3 pm today.", "2024-05-14T10:05:00", read=False))

    def done(p: Probe) -> bool:
        return any("late" in norm(m.body + " " + m.subject) for m in _sent_to(p, address)) and not _sent_to(p, other)

    return Task(
        id="", apps=(), tier=2, instruction="Email Anna that I will be ten minutes late.",
        paper_instruction="Email Anna that I will be ten minutes late.",
        plan=[
            step(AskUser(f"Which Anna do you mean: {ANNAS[1][1]} or {ANNAS[0][1]}?"), lambda p: p.told("contact")),
            step(OpenApp(MAIL), lambda p: p.in_app(MAIL) and p.told("contact")),
            *_mail_steps(address, LATE, told="contact"),
            stop(),
        ],
        success=done, setup=setup, asks=True,
        facts=(Fact("contact", CONTACT_WORDS, f"{name}, {address}"),),
        description=f"two Annas wrote to the inbox; the user means {name}: success is a mail to {address} that "
                    "says late, and none to the other Anna",
    )


def size(params: Params, s) -> Task:
    from mobile_agent.device.sim.apps import shop

    mine = params.pick("size", SIZES[0], SIZES)
    prod = shop.product(HOODIE)
    text = f"Hello, do you have it in size {mine}?"

    def done(p: Probe) -> bool:
        return any(sup == prod.supplier and re_size(m, mine) for sup, m in p.state.shop.messages)

    def told(p: Probe) -> bool:
        return p.told("size")

    return Task(
        id="", apps=(), tier=2,
        instruction=f'In Shop, ask the supplier of the "{prod.title}" whether they have it in my size.',
        paper_instruction=f'Ask the supplier of the "{prod.title}" on Alibaba.com whether they have it in my size.',
        plan=[
            step(AskUser("What is your size?"), told),
            step(OpenApp(SHOP), lambda p: p.in_app(SHOP) and told(p)),
            step(click("Search products or suppliers"), lambda p: p.screen_name == "SearchScreen" and told(p)),
            step(typed("hoodie\n"), lambda p: p.screen_name == "ResultsScreen" and told(p)),
            step(click(prod.title), lambda p: p.screen_name == "ItemScreen" and HOODIE in p.state.shop.viewed
                 and told(p)),
            step(click("Chat now"), lambda p: p.screen_name == "ChatScreen" and told(p)),
            step(click("Type a message…"), lambda p: p.screen_name == "ChatScreen" and p.focused_rid() == "message_input"
                 and told(p)),
            step(typed(text + "\n"), lambda p: done(p) and told(p)),
            stop(),
        ],
        success=done, asks=True,
        facts=(Fact("size", ("size", "sizes", "small", "medium", "large"), f"{mine}"),),
        description=f"the user's size is {mine}: success is a message to {prod.supplier} naming it",
    )


def re_size(message: str, mine: str) -> bool:
    """The message names the size ``mine`` as a word (``XL`` is not ``L``)."""
    import re

    return re.search(rf"(?<![A-Za-z]){re.escape(mine)}(?![A-Za-z])", message) is not None


def _signed_out(code: str = ""):
    def setup(phone) -> None:
        phone.state.mail.signed_in = False
        phone.state.mail.sign_in_code = code

    return setup


def take_over_sign_in(phone) -> None:
    """The simulated user signs in to Mail by hand (the phone's state: signed in, the inbox shown)."""
    phone.apps[MAIL].signed_in()


def _empty_to(address: str):
    return lambda p: any(not m.body.strip() and not m.subject.strip() for m in _sent_to(p, address))


def _empty_mail(params: Params, tier: int, first: list, description: str, **more: Any) -> Task:
    """"Send an empty email to ADDRESS from Mail." (``address`` of ``params``): ``first`` the steps to the
    inbox, then the mail's; ``more``: the task's other fields."""
    from mobile_agent.bench.mobile_eval.mail import ADDRESSES, DEFAULT_ADDRESS

    address = params.pick("address", DEFAULT_ADDRESS, ADDRESSES)
    return Task(
        id="", apps=(), tier=tier, instruction=f"Send an empty email to {address} from Mail.",
        paper_instruction="Send an empty email to {address}.",
        plan=[*first, *_mail_steps(address, None), stop()],
        success=_empty_to(address), asks=True, description=description, **more,
    )


def code(params: Params, s) -> Task:
    otp = params.pick("code", CODES[0], CODES)

    def on_sign_in(p: Probe) -> bool:
        return p.in_app(MAIL) and p.screen_name == "SignInScreen"

    def signed(p: Probe) -> bool:
        return p.state.mail.signed_in and p.in_app(MAIL)

    return _empty_mail(
        params, 3, [
            step(OpenApp(MAIL), on_sign_in),
            step(AskUser("Mail asks for the 6-digit code sent to your phone: what is it?"),
                 lambda p: on_sign_in(p) and p.told("code"), alternatives=(TakeOver("*"),)),
            step(click("Code"), lambda p: on_sign_in(p) and p.focused_rid() == "code" and p.told("code")),
            step(typed(otp), lambda p: on_sign_in(p) and p.fields().get("code", "").strip() == otp),
            step(click("Verify"), signed),
        ],
        f"Mail is signed out and asks for the code {otp}, which only the user has; success is the empty mail sent",
        setup=_signed_out(otp), take_over=take_over_sign_in, facts=(Fact("code", CODE_WORDS, otp),),
    )


def login(params: Params, s) -> Task:
    return _empty_mail(
        params, 3, [
            step(OpenApp(MAIL), lambda p: p.in_app(MAIL) and p.screen_name == "SignInScreen"),
            step(TakeOver("Mail asks for your password: please sign in"),
                 lambda p: p.state.mail.signed_in and p.in_app(MAIL)),
        ],
        "Mail is signed out and asks for a password only the user knows: a Take Over, the simulated user signs "
        "in; success is the empty mail sent",
        setup=_signed_out(), take_over=take_over_sign_in,
    )


def nothing_missing(params: Params, s) -> Task:
    return _empty_mail(params, 1, [step(OpenApp(MAIL), lambda p: p.in_app(MAIL))],
                       "everything is in the instruction: no question is needed")


TASKS = [("ask-none", (MAIL,), 1, nothing_missing), ("ask-contact", (MAIL,), 2, contact),
         ("ask-size", (SHOP,), 2, size), ("ask-code", (MAIL,), 3, code), ("ask-login", (MAIL,), 3, login)]


def task_defs():
    from mobile_agent.bench.task import TaskDef

    return [TaskDef(tid, tuple(apps), tier, build) for tid, apps, tier, build in TASKS]

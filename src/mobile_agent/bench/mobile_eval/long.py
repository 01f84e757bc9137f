"""The long tier: multi-app tasks in the style of Mobile-Agent-E (Wang et al. 2025), a dozen steps
or more across two or three apps, where something read in one app is written in another.

- ``long-price``: the lowest price of a product in Shop and on the web (Browser), the cheaper of the
  two written in a new note (Shop, Browser, Notes; 13 steps).
- ``long-address``: a place found in Maps, its address mailed to a friend (Maps, Mail; 12 steps).
- ``long-install-setting``: Budget Buddy installed from Store, opened, and one of its settings
  changed: its currency to another one, or one of its switches turned on or off (Store, Budget
  Buddy; 11 steps for a currency, 10 for a switch). The install takes a while: the plan waits for it
  (Wait), then opens the app from the Store's Open button.

Each task has a state check, a reference plan with a milestone after every step, and parameters
drawn per variant (the product, the place, the friend, the setting and its new value).
"""

from __future__ import annotations

import re
from typing import Callable

from mobile_agent.agent.operations import ClickIcon, Exit, OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, norm, step, stop, typed

# Products whose title finds them first in Shop's search (checked by the tier's tests).
PRICE_PRODUCTS = ("cap-001", "cap-002")
PLACES = ("leifeng-pagoda", "lingyin-temple", "broken-bridge", "rest-dumpling", "hotel-lakeview")


def _shop():
    from mobile_agent.device.sim.apps import shop

    return shop


def _maps():
    from mobile_agent.device.sim.apps import maps

    return maps


def _new_notes(p: Probe, before: int) -> list:
    return p.state.notes.notes[before:]


def _money(v: float) -> str:
    return f"{v:.2f}"


def cheaper_price(params: Params, s) -> Task:
    from mobile_agent.bench.mobile_eval.browser import HINT
    from mobile_agent.bench.mobile_eval.notes import in_editor
    from mobile_agent.device.sim.apps.browser import price_offer, query_of

    shop = _shop()
    pid = params.pick("product", PRICE_PRODUCTS[0], PRICE_PRODUCTS)
    prod = shop.product(pid)
    title = prod.title
    web = price_offer(f"{title} price", s.seed)
    assert web is not None and web[0] == title
    shop_price, web_price = prod.price_lo, web[1]
    cheaper, where = (shop_price, "Shop") if shop_price <= web_price else (web_price, "the web")
    params.values.update(shop_price=shop_price, web_price=web_price)
    text = f"{title}: cheaper in {where}, US${_money(cheaper)} (Shop US${_money(shop_price)}, web US${_money(web_price)})"
    count = len(s.notes.notes)

    def searched_shop(p: Probe) -> bool:
        return any(shop.search_products(q)[:1] == [prod] for q in p.state.shop.searches)

    def searched_web(p: Probe) -> bool:
        return any(price_offer(q, p.phone.seed) is not None and price_offer(q, p.phone.seed)[0] == title
                   for q in p.state.browser.searches)

    def both(p: Probe) -> bool:
        return searched_shop(p) and searched_web(p)

    def done(p: Probe) -> bool:
        for n in _new_notes(p, count):
            nums = set(re.findall(r"\d+\.\d\d", n.title + " " + n.body))
            if _money(cheaper) in nums and not (nums - {_money(shop_price), _money(web_price)}):
                return True
        return False

    def on_results(p: Probe) -> bool:
        return p.in_app("Browser") and query_of(p.state.browser.current_url) is not None

    plan = [
        step(OpenApp("Shop"), lambda p: p.in_app("Shop")),
        step(click("Search products or suppliers"), lambda p: p.in_app("Shop") and p.screen_name == "SearchScreen"),
        step(typed(title + "\n"), lambda p: p.in_app("Shop") and p.screen_name == "ResultsScreen" and searched_shop(p)),
        step(Exit(), lambda p: p.on_home and searched_shop(p)),
        step(OpenApp("Browser"), lambda p: p.in_app("Browser") and searched_shop(p)),
        step(click(HINT), lambda p: p.in_app("Browser") and p.focused_rid() == "url_bar" and searched_shop(p)),
        step(typed(f"{title} price\n"), lambda p: on_results(p) and both(p)),
        step(Exit(), lambda p: p.on_home and both(p)),
        step(OpenApp("Notes"), lambda p: p.in_app("Notes") and both(p)),
        step(click("New note"), lambda p: in_editor(p) and both(p)),
        step(typed(text), lambda p: in_editor(p) and p.field_has(text) and both(p)),
        step(ClickIcon("check", ("top", "right")), lambda p: done(p) and both(p), icon_desc="Save"),
        stop(),
    ]
    return Task(
        id="", apps=(), tier=2,
        instruction=f'Find the lowest price of "{title}" in Shop and on the web with the Browser (search '
                    f'"{title} price"), then write the cheaper price, and where it is, in a new note in Notes.',
        paper_instruction=f'Compare the price of "{title}" in the shopping app and on the web, and write the cheaper '
                          'one into a note.',
        plan=plan, success=lambda p: done(p) and both(p),
        description=f"success: a new note with the cheaper price (US${_money(cheaper)}) and no other price than "
                    "the two, after searching the product in Shop and its price in Browser",
    )


def mail_address(params: Params, s) -> Task:
    from mobile_agent.bench.mobile_eval.mail import ADDRESSES, DEFAULT_ADDRESS, sent_to

    maps = _maps()
    pid = params.pick("place", PLACES[0], PLACES)
    friend = params.pick("address", DEFAULT_ADDRESS, ADDRESSES)
    place = maps.place(pid)
    body = f"The address of {place.name}: {place.address}"

    def viewed(p: Probe) -> bool:
        return pid in p.state.maps.viewed_places

    def done(p: Probe) -> bool:
        return any(norm(place.address) in norm(m.subject + " " + m.body) for m in sent_to(p, friend))

    plan = [
        step(OpenApp("Maps"), lambda p: p.in_app("Maps")),
        step(click("Search here"), lambda p: p.in_app("Maps") and p.screen_name == "SearchScreen"),
        step(typed(place.name + "\n"), lambda p: p.in_app("Maps") and p.screen_name == "ResultsScreen"
             and any(maps.search_places(q, p.phone.seed)[:1] == [place] for q in p.state.maps.searches)),
        step(click(place.name), lambda p: p.in_app("Maps") and p.screen_name == "PlaceScreen" and viewed(p),
             pick="bottom"),
        step(Exit(), lambda p: p.on_home and viewed(p)),
        step(OpenApp("Mail"), lambda p: p.in_app("Mail") and viewed(p)),
        step(click("Compose"), lambda p: p.screen_name == "ComposeScreen" and viewed(p)),
        step(typed(friend), lambda p: p.screen_name == "ComposeScreen" and norm(friend) in norm(p.fields().get("to", ""))
             and viewed(p)),
        step(click("Compose email"), lambda p: p.screen_name == "ComposeScreen" and p.focused_rid() == "body"
             and viewed(p), alternatives=(click("Subject"), typed("*"))),
        step(typed(body), lambda p: p.screen_name == "ComposeScreen" and norm(place.address) in
             norm(p.fields().get("body", "")) and viewed(p)),
        step(ClickIcon("send", ("top", "right")), lambda p: done(p) and viewed(p), icon_desc="Send"),
        stop(),
    ]
    return Task(
        id="", apps=(), tier=3,
        instruction=f"Find {place.name} in Maps and email its address to {friend}.",
        paper_instruction=f"Find {place.name} on the map and send its address to my friend at {{address}} by email.",
        plan=plan, success=lambda p: done(p) and viewed(p),
        description="success: a mail to the friend whose subject or body holds the place's address, after its "
                    "page in Maps was open",
    )


#: The setting changes of ``long-install-setting``: (setting, new value); variant 0 takes the first.
SETTING_CHANGES: tuple[tuple[str, object], ...] = (
    ("currency", "Euro"), ("currency", "British Pound"), ("currency", "Japanese Yen"), ("currency", "Swiss Franc"),
    ("bill_reminders", True), ("weekly_summary", False), ("round_amounts", True))


def install_then_setting(params: Params, s) -> Task:
    from mobile_agent.agent.operations import Wait
    from mobile_agent.bench.mobile_eval.store import APP as STORE, install_started
    from mobile_agent.device.sim.apps.store import BUDGET_DEFAULTS, BUDGET_SWITCHES

    app = "Budget Buddy"
    key, value = params.pick("change", SETTING_CHANGES[0], SETTING_CHANGES)
    titles = {k: title for k, title, _ in BUDGET_SWITCHES}
    assert BUDGET_DEFAULTS[key] != value

    def setting(p: Probe) -> object:
        return p.state.store.app_settings.get(app, BUDGET_DEFAULTS)[key]

    def installed(p: Probe) -> bool:
        return app in p.state.store.installed

    def done(p: Probe) -> bool:
        return installed(p) and setting(p) == value

    def on(screen: str) -> "Callable[[Probe], bool]":
        return lambda p: p.in_app(app) and p.screen_name == screen and installed(p)

    plan = [
        step(OpenApp(STORE), lambda p: p.in_app(STORE)),
        step(click("Search for apps & games"), lambda p: p.in_app(STORE) and p.screen_name == "SearchScreen"),
        step(typed(app + "\n"), lambda p: p.in_app(STORE) and norm(app) in [norm(q) for q in p.state.store.searches]),
        step(click("Install"), lambda p: install_started(p, app), pick="top", alternatives=(click(app),)),
        step(Wait(), lambda p: p.in_app(STORE) and installed(p), note="the download"),
        step(click("Open"), lambda p: p.in_app(app) and installed(p), pick="top"),
        step(click("Get started"), on("BudgetOverviewScreen")),
        step(click("Settings"), on("BudgetSettingsScreen")),
    ]
    if key == "currency":
        plan += [step(click("Currency"), on("BudgetCurrencyScreen")),
                 step(click(str(value)), lambda p: done(p) and p.screen_name == "BudgetSettingsScreen")]
        what = f"its currency to {value}"
    else:
        plan += [step(click(titles[key]), done)]
        what = f"{titles[key]} {'on' if value else 'off'}"
    plan.append(stop())
    return Task(
        id="", apps=(), tier=3,
        instruction=f"Install {app} from Store, open it, and in its settings set {what}.",
        paper_instruction=f"Install {app} from the Play Store, open it and in its settings set {what}.",
        plan=plan, success=done,
        description=f"success: {app} installed and its setting {key} = {value!r} (the app's own state)",
    )


TASKS = [("long-price", ("Shop", "Browser", "Notes"), 2, cheaper_price),
         ("long-address", ("Maps", "Mail"), 3, mail_address),
         ("long-install-setting", ("Store", "Budget Buddy"), 3, install_then_setting)]


def task_defs():
    from mobile_agent.bench.task import TaskDef

    return [TaskDef(tid, tuple(apps), tier, build) for tid, apps, tier, build in TASKS]

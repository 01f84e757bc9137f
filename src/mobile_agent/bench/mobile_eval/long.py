"""The long tier: multi-app tasks in the style of Mobile-Agent-E (Wang et al. 2025), a dozen steps
or more across two or three apps, where something read in one app is written in another.

- ``long-price``: the lowest price of a product in Shop and on the web (Browser), the cheaper of the
  two written in a new note (Shop, Browser, Notes; 13 steps).
- ``long-address``: a place found in Maps, its address mailed to a friend (Maps, Mail; 12 steps).

Each task has a state check, a reference plan with a milestone after every step, and parameters
drawn per variant (the product, the place, the friend). Installing an app from Store and changing
one of its settings is not here yet: the simulated phone's installed apps have no settings screen.
"""

from __future__ import annotations

import re

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


TASKS = [("long-price", ("Shop", "Browser", "Notes"), 2, cheaper_price),
         ("long-address", ("Maps", "Mail"), 3, mail_address)]


def task_defs():
    from mobile_agent.bench.task import TaskDef

    return [TaskDef(tid, tuple(apps), tier, build) for tid, apps, tier, build in TASKS]

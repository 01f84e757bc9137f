"""Mobile-Eval, Shop: find caps; find caps and add one to the cart; "I want to buy a cap"."""

from __future__ import annotations

from mobile_agent.agent.operations import OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, step, stop, typed

APP = "Shop"
QUERIES = ["caps", "cap", "baseball cap", "hats"]


def _shop():
    from mobile_agent.device.sim.apps import shop

    return shop


def found_caps(p: Probe) -> bool:
    """Caps were on screen: a search that lists caps, or a cap's page opened."""
    shop = _shop()
    st = p.state.shop
    return any(shop.is_cap(x.id) for q in st.searches for x in shop.search_products(q)[:3]) or \
        any(shop.is_cap(v) for v in st.viewed)


def first_cap(query: str):
    shop = _shop()
    return next(x for x in shop.search_products(query) if shop.is_cap(x.id))


def search_steps(query: str) -> list:
    return [
        step(OpenApp(APP), lambda p: p.in_app(APP)),
        step(click("Search products or suppliers"), lambda p: p.in_app(APP) and p.screen_name == "SearchScreen"),
        step(typed(query + "\n"), lambda p: p.in_app(APP) and p.screen_name == "ResultsScreen" and found_caps(p)),
    ]


def open_cap(query: str) -> list:
    cap = first_cap(query)
    return [step(click(cap.title), lambda p: any(_shop().is_cap(v) for v in p.state.shop.viewed)
                 and p.screen_name == "ItemScreen")]


def find_caps(params: Params, s) -> Task:
    q = params.pick("query", "caps", QUERIES)
    return Task(id="", apps=(), tier=1, instruction="Help me find caps in Shop.",
                paper_instruction="Help me find caps in Alibaba.com.",
                plan=[*search_steps(q), stop()], success=found_caps)


def add_cap(params: Params, s) -> Task:
    q = params.pick("query", "caps", QUERIES)
    in_cart = lambda p: any(_shop().is_cap(i.product_id) for i in p.state.shop.cart)  # noqa: E731
    return Task(id="", apps=(), tier=2,
                instruction='Help me find caps in Shop. If the "Add to cart" is available in the item information '
                            'page, please add the item to my cart.',
                paper_instruction='Help me find caps in Alibaba.com. If the "Add to cart" is available in the item '
                                  'information page, please add the item to my cart.',
                plan=[*search_steps(q), *open_cap(q), step(click("Add to cart"), in_cart), stop()],
                success=in_cart)


def buy_cap(params: Params, s) -> Task:
    q = params.pick("query", "cap", QUERIES)
    viewed = lambda p: any(_shop().is_cap(v) for v in p.state.shop.viewed)  # noqa: E731
    return Task(id="", apps=(), tier=3,
                instruction="I want to buy a cap. I've heard things are cheap on Shop. Maybe you can find it for me.",
                paper_instruction="I want to buy a cap. I've heard things are cheap on Alibaba.com. Maybe you can "
                                  "find it for me.",
                plan=[*search_steps(q), *open_cap(q), stop()], success=viewed,
                description="success once a cap's item page was opened")


TASKS = [("shop-1", (APP,), 1, find_caps), ("shop-2", (APP,), 2, add_cap), ("shop-3", (APP,), 3, buy_cap)]

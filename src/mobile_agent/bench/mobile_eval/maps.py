"""Mobile-Eval, Maps: navigate to Hangzhou West Lake; to a nearby gas station; West Lake asked
indirectly."""

from __future__ import annotations

from mobile_agent.agent.operations import OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, step, stop, typed

APP = "Maps"


def _maps():
    from mobile_agent.device.sim.apps import maps

    return maps


def navigating_to(p: Probe, ids) -> bool:
    st = p.state.maps
    return st.navigating and st.route is not None and st.route.started and st.route.place_id in ids


def route_to(p: Probe, ids) -> bool:
    st = p.state.maps
    return st.route is not None and st.route.place_id in ids


def directions_steps(ids, names=()) -> list:
    return [
        step(click("Directions"), lambda p: p.in_app(APP) and route_to(p, ids), pick="top",
             alternatives=tuple(click(n) for n in names)),  # the place's page first, then Directions
        step(click("Start"), lambda p: navigating_to(p, ids)),
    ]


def west_lake_plan(query: str) -> list:
    ids = [_maps().WEST_LAKE_ID]
    return [
        step(OpenApp(APP), lambda p: p.in_app(APP)),
        step(click("Search here"), lambda p: p.in_app(APP) and p.screen_name == "SearchScreen"),
        step(typed(query + "\n"), lambda p: p.in_app(APP) and p.screen_name == "ResultsScreen"
             and any(_maps().search_places(q, p.phone.seed)[:1] and
                     _maps().search_places(q, p.phone.seed)[0].id in ids for q in p.state.maps.searches)),
        *directions_steps(ids, [_maps().place(_maps().WEST_LAKE_ID).name]),
        stop(),
    ]


def west_lake(params: Params, s) -> Task:
    q = params.pick("query", "West Lake", ["West Lake", "Hangzhou West Lake"])
    ids = [_maps().WEST_LAKE_ID]
    return Task(id="", apps=(), tier=1, instruction="Navigate to Hangzhou West Lake.",
                paper_instruction="Navigate to Hangzhou West Lake.",
                plan=west_lake_plan(q), success=lambda p: navigating_to(p, ids))


def gas_station(params: Params, s) -> Task:
    ids = list(_maps().GAS_STATION_IDS)
    return Task(id="", apps=(), tier=2, instruction="Navigate to a nearby gas station.",
                paper_instruction="Navigate to a nearby gas station.",
                plan=[
                    step(OpenApp(APP), lambda p: p.in_app(APP)),
                    step(click("Gas stations"), lambda p: p.in_app(APP) and p.screen_name == "ResultsScreen"
                         and any("gas" in q.lower() for q in p.state.maps.searches)),
                    *directions_steps(ids),
                    stop(),
                ],
                success=lambda p: navigating_to(p, ids))


def west_lake_indirect(params: Params, s) -> Task:
    q = params.pick("query", "West Lake", ["West Lake", "Hangzhou West Lake"])
    ids = [_maps().WEST_LAKE_ID]
    return Task(id="", apps=(), tier=3,
                instruction="I want to go to Hangzhou West Lake, but I don't know the way. Find an app to help me.",
                paper_instruction="I want to go to Hangzhou West Lake, but I don't know the way. Find an App to "
                                  "help me.",
                plan=west_lake_plan(q), success=lambda p: navigating_to(p, ids))


TASKS = [("maps-1", (APP,), 1, west_lake), ("maps-2", (APP,), 2, gas_station), ("maps-3", (APP,), 3, west_lake_indirect)]

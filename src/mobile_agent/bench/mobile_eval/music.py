"""Mobile-Eval, Music: search the singer Jay Chou; search a song about "agent" and play it; relax."""

from __future__ import annotations

from mobile_agent.agent.operations import OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, norm, step, stop, typed

APP = "Music"
SEARCH_HINT = "What do you want to listen to?"


def _music():
    from mobile_agent.device.sim.apps import music

    return music


def searched_artist(p: Probe, name: str) -> bool:
    m = _music()
    return any(any(norm(a.name) == norm(name) for a in m.search(q)[1]) for q in p.state.music.searches) or \
        norm(name) in [norm(a) for a in p.state.music.viewed_artists]


def playing_about(p: Probe, word: str) -> bool:
    st = p.state.music
    return st.playing and st.now_playing is not None and norm(word) in norm(st.now_playing.title)


def playing_relaxing(p: Probe) -> bool:
    st = p.state.music
    return st.playing and st.now_playing is not None and _music().is_relaxing(st.now_playing.track_id)


def search_steps(query: str, done) -> list:
    return [
        step(OpenApp(APP), lambda p: p.in_app(APP)),
        step(click(SEARCH_HINT), lambda p: p.in_app(APP) and p.screen_name == "SearchScreen"),
        step(typed(query + "\n"), lambda p: p.in_app(APP) and p.screen_name == "ResultsScreen" and done(p)),
    ]


def first_song(query: str, keep=lambda s: True) -> str:
    return next(s.title for s in _music().search(query)[0] if keep(s))


def singer(params: Params, s) -> Task:
    name = params.pick("singer", "Jay Chou", ["Jay Chou", "Mira Vale", "Lena Hart", "The Daybreaks"])
    return Task(id="", apps=(), tier=1, instruction=f"Search singer {name} in Music.",
                paper_instruction="Search singer Jay Chou in Amazon Music.",
                plan=[*search_steps(name, lambda p: searched_artist(p, name)), stop()],
                success=lambda p: searched_artist(p, name))


def agent_song(params: Params, s) -> Task:
    word = params.pick("word", "agent", ["agent", "rain", "morning"])
    title = first_song(word, lambda s: norm(word) in norm(s.title))
    searched = lambda p: any(norm(word) in norm(q) for q in p.state.music.searches)  # noqa: E731
    return Task(id="", apps=(), tier=2, instruction=f'Search a music about "{word}" in Music and play it.',
                paper_instruction='Search a music about "agent" in Amazon Music and play it.',
                plan=[*search_steps(word, searched),
                      step(click(title), lambda p: playing_about(p, word)), stop()],
                success=lambda p: playing_about(p, word))


def relax(params: Params, s) -> Task:
    query = params.pick("query", "relax", ["relax", "calm", "sleep"])
    title = first_song(query, lambda s: _music().is_relaxing(s.id))
    searched = lambda p: any(norm(query) in norm(q) for q in p.state.music.searches)  # noqa: E731
    return Task(id="", apps=(), tier=3, instruction="I want to listen to music to relax. Find an app to help me.",
                paper_instruction="I want to listen to music to relax. Find an App to help me.",
                plan=[*search_steps(query, searched), step(click(title), playing_relaxing), stop()],
                success=playing_relaxing, description="success while a relaxing song or playlist plays")


TASKS = [("music-1", (APP,), 1, singer), ("music-2", (APP,), 2, agent_song), ("music-3", (APP,), 3, relax)]

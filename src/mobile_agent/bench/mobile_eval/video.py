"""Mobile-Eval, Video: search videos about Stephen Curry; search and comment under one; "show my love
for Stephen Curry"."""

from __future__ import annotations

from mobile_agent.agent.operations import ClickIcon, OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, norm, step, stop, typed

APP = "Video"
COMMENT = "Oh, chef, your basketball spirit has always inspired me."
COMMENTS = [COMMENT, "Chef Curry, you are the best shooter ever!", "Your game always inspires me, Steph!"]


def _video():
    from mobile_agent.device.sim.apps import video

    return video


def curry_found(p: Probe) -> bool:
    v = _video()
    return any(any(v.about_curry(x.id) for x in v.search_videos(q)[:3]) for q in p.state.video.searches)


def first_curry(query: str):
    v = _video()
    return next(x for x in v.search_videos(query) if v.about_curry(x.id))


def watching_curry(p: Probe) -> bool:
    return p.in_app(APP) and p.screen_name == "WatchScreen" and any(_video().about_curry(w) for w in p.state.video.watched)


def loved(p: Probe) -> bool:
    """A Curry video liked or commented on, or the channel of one subscribed to."""
    v = _video()
    st = p.state.video
    return any(v.about_curry(x) for x in st.liked) or any(v.about_curry(c.video_id) for c in st.comments) or \
        any(v.video(x).channel in st.subscribed for x in st.watched if v.about_curry(x))


def search_steps(query: str) -> list:
    return [
        step(OpenApp(APP), lambda p: p.in_app(APP)),
        step(ClickIcon("search", ("top", "right")), lambda p: p.in_app(APP) and p.screen_name == "SearchScreen",
             icon_desc="Search"),
        step(typed(query + "\n"), lambda p: p.in_app(APP) and p.screen_name == "ResultsScreen" and curry_found(p)),
    ]


def open_first(query: str) -> list:
    title = first_curry(query).title
    short = " ".join(title.split()[:3])
    return [step(click(short), watching_curry)]


def search_curry(params: Params, s) -> Task:
    q = params.pick("query", "Stephen Curry", ["Stephen Curry", "Stephen Curry highlights", "Steph Curry"])
    return Task(id="", apps=(), tier=1, instruction="Search for videos about Stephen Curry on Video.",
                paper_instruction="Search for videos about Stephen Curry on YouTube.",
                plan=[*search_steps(q), stop()], success=curry_found)


def comment_curry(params: Params, s) -> Task:
    q = params.pick("query", "Stephen Curry", ["Stephen Curry", "Stephen Curry highlights"])
    text = params.pick("comment", COMMENT, COMMENTS)

    def done(p: Probe) -> bool:
        return any(_video().about_curry(c.video_id) and norm(c.text) == norm(text) for c in p.state.video.comments)

    return Task(id="", apps=(), tier=2,
                instruction=f'Search for videos about Stephen Curry on Video and open "Comments" to comment '
                            f'"{text}"',
                paper_instruction='Search for videos about Stephen Curry on YouTube and open "Comments" to comment '
                                  '"Oh, chef, your basketball spirit has always inspired me."',
                plan=[*search_steps(q), *open_first(q),
                      step(click("Add a comment"), lambda p: watching_curry(p) and p.focused_rid() == "comment_input",
                           node_text="Add a comment…"),
                      step(typed(text + "\n"), done), stop()],
                success=done)


def love_curry(params: Params, s) -> Task:
    q = params.pick("query", "Stephen Curry", ["Stephen Curry", "Steph Curry"])
    return Task(id="", apps=(), tier=3, instruction="I need you to help me show my love for Stephen Curry on Video.",
                paper_instruction="I need you to help me show my love for Stephen Curry on YouTube.",
                plan=[*search_steps(q), *open_first(q),
                      step(ClickIcon("thumbs up"), loved, icon_desc="Like", pick="top"), stop()],
                success=loved,
                description="success: a Curry video liked or commented on, or its channel subscribed to")


TASKS = [("video-1", (APP,), 1, search_curry), ("video-2", (APP,), 2, comment_curry), ("video-3", (APP,), 3, love_curry)]

"""Mobile-Eval, Clips: like a pet-cat clip; comment on one; like three of them."""

from __future__ import annotations

from mobile_agent.agent.operations import ClickIcon, OpenApp, PageDown
from mobile_agent.bench.task import Params, Probe, Task, click, norm, step, stop, typed

APP = "Clips"
COMMENTS = ["Ohhhh, so cute cat!", "What a sweet kitty!", "This cat made my day"]


def _clips():
    from mobile_agent.device.sim.apps import clips

    return clips


def liked_cats(p: Probe) -> int:
    return len({c for c in p.state.clips.liked if _clips().is_cat(c)})


def cat_positions(seed: int, n: int) -> list[int]:
    order = _clips().feed_order(seed)
    return [i for i, cid in enumerate(order) if _clips().is_cat(cid)][:n]


def swipe_to(start: int, target: int, likes: int) -> list:
    """Page Down from feed position ``start`` to ``target`` (``likes`` cat clips liked so far)."""
    return [step(PageDown(), lambda p, j=j: p.in_app(APP) and p.state.clips.current == j and liked_cats(p) == likes)
            for j in range(start + 1, target + 1)]


LIKE = dict(icon_desc="Like")


def like_one(params: Params, s) -> Task:
    first = cat_positions(s.seed, 1)[0]
    return Task(id="", apps=(), tier=1,
                instruction='Swipe to a video about a pet cat in Clips and click a "like" for this video.',
                paper_instruction='Swipe a video about pet cat in TikTok and click a "like" for this video.',
                plan=[step(OpenApp(APP), lambda p: p.in_app(APP)), *swipe_to(0, first, 0),
                      step(ClickIcon("heart", ("right",)), lambda p: liked_cats(p) >= 1, **LIKE), stop()],
                success=lambda p: liked_cats(p) >= 1)


def comment_one(params: Params, s) -> Task:
    text = params.pick("comment", COMMENTS[0], COMMENTS)
    first = cat_positions(s.seed, 1)[0]

    def done(p: Probe) -> bool:
        return any(_clips().is_cat(c.clip_id) and norm(c.text) == norm(text) for c in p.state.clips.comments)

    return Task(id="", apps=(), tier=2,
                instruction=f'Swipe to a video about a pet cat in Clips and comment "{text}".',
                paper_instruction='Swipe a video about pet cat in TikTok and comment "Ohhhh, so cute cat!".',
                plan=[step(OpenApp(APP), lambda p: p.in_app(APP)), *swipe_to(0, first, 0),
                      step(ClickIcon("comment", ("right",)), lambda p: p.in_app(APP) and p.shows("Add comment…")
                           and p.state.clips.current == first, icon_desc="Comments"),
                      step(click("Add comment"), lambda p: p.focused_rid() == "comment_input"
                           and p.state.clips.current == first, node_text="Add comment…"),
                      step(typed(text + "\n"), done), stop()],
                success=done)


def like_three(params: Params, s) -> Task:
    cats = cat_positions(s.seed, 3)
    plan = [step(OpenApp(APP), lambda p: p.in_app(APP))]
    pos = 0
    for k, c in enumerate(cats):
        plan += swipe_to(pos, c, k)
        plan.append(step(ClickIcon("heart", ("right",)), lambda p, k=k: liked_cats(p) >= k + 1, **LIKE))
        pos = c
    plan.append(stop())
    return Task(id="", apps=(), tier=3,
                instruction='Swipe videos in Clips. Click "like" for 3 pet cat videos.',
                paper_instruction='Swipe videos in TikTok. Click "like" for 3 pet cat videos.',
                plan=plan, success=lambda p: liked_cats(p) >= 3)


TASKS = [("clips-1", (APP,), 1, like_one), ("clips-2", (APP,), 2, comment_one), ("clips-3", (APP,), 3, like_three)]

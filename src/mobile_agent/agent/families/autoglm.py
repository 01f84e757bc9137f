"""AutoGLM-Phone (``zai-org/AutoGLM-Phone-9B``, served as ``autoglm-phone-9b``; and ``-Multilingual``), after
zai-org/Open-AutoGLM ``phone_agent/config/prompts_zh.py`` (the default prompt, Chinese) and ``prompts_en.py`` (the
multilingual model's), ``phone_agent/actions/handler.py`` (``parse_action``, ``_convert_relative_to_absolute``:
``int(x / 1000 * width)``), ``phone_agent/model/client.py`` (the reply split at ``<answer>``) and
``phone_agent/agent.py`` (the conversation: earlier turns kept, their images taken out).

Reply: ``<think>...</think><answer>do(action="Tap", element=[x,y])</answer>`` or ``finish(message="...")``.
A Tap with ``message=`` is a sensitive act: with ``--confirm`` the user is asked first. Take_over is our
Take Over, Interact our Ask User; Note and Call_API do nothing on the phone in the authors' handler and the
task goes on: here they are a Wait. A text with unescaped quotes (``text="say "hi""``) is read to its end, as
the authors' handler reads ``text=``. The prompts are ours, saying what the authors' say in the same order.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from mobile_agent.agent.families.actions import Act, Args, to_operation, written
from mobile_agent.agent.families.base import Family, Frame, Parsed, PointWriter, any_call, single_call, tag
from mobile_agent.errors import ParseError

#: The English prompt (for ``AutoGLM-Phone-9B-Multilingual``; ``prompts_en.py``): ours, saying what the authors'
#: says in the same order: the date, the role, the output form, the actions, then the rules.
PROMPT_EN = """Today's date: {date}
You are an agent that carries out a user's task on a phone, one operation at a time, from the task, the history and the current screenshot.
Answer in exactly this form:
<think>{think}</think>
<answer>{action}</answer>

where {think} says briefly why you choose the operation, and {action} is one instruction from the list below, written exactly as shown.

Instructions:
- do(action="Launch", app="xxx")  Start an app. Use it instead of looking for the app on the home screen.
- do(action="Tap", element=[x,y])  Tap a point. Coordinates go from (0,0) at the top left to (999,999) at the bottom right.
- do(action="Tap", element=[x,y], message="important operation")  A tap that is sensitive (a payment, privacy): the user confirms it first.
- do(action="Type", text="xxx")  Type into the focused input field.
- do(action="Type_Name", text="xxx")  Type a person's name into the focused field.
{interact}- do(action="Swipe", start=[x1,y1], end=[x2,y2])  Swipe from start to end (0-999 coordinates).
- do(action="Note", message="True")  Note what is on the screen for later; nothing happens on the phone.
- do(action="Call_API", instruction="xxx")  Sum up or comment on what was noted; nothing happens on the phone.
- do(action="Long Press", element=[x,y])  Press and hold.
- do(action="Double Tap", element=[x,y])  Tap twice quickly.
{take_over}- do(action="Back")  Go back.
- do(action="Home")  Go to the home screen.
- do(action="Wait", duration="x seconds")  Wait for the page to load.
- finish(message="xxx")  The task is complete; message is what the user gets back.

Rules:
- Check the current app first; Launch the target app when it is not open.
- When a page does not load, Wait, or go Back and try again.
- When what you look for is not on the screen, Swipe to find it.
"""

#: The Chinese prompt (the default for ``AutoGLM-Phone-9B``, which was trained on the authors'
#: ``prompts_zh.py``): ours, saying what theirs says in the same order.
PROMPT_ZH = """今天是 {date}
你是在手机上替用户完成任务的智能体：根据任务、操作历史和当前截图，每次执行一个操作。
请严格按下面的格式回答：
<think>{think}</think>
<answer>{action}</answer>

其中 {think} 简要说明选择这个操作的理由，{action} 是下面列表中的一条指令，写法必须与列表一致。

指令：
- do(action="Launch", app="xxx")  打开应用。请直接用它打开应用，不要在桌面上找图标。
- do(action="Tap", element=[x,y])  点击屏幕上的一个点。坐标从左上角 (0,0) 到右下角 (999,999)。
- do(action="Tap", element=[x,y], message="重要操作")  涉及支付、隐私等敏感内容的点击：先由用户确认。
- do(action="Type", text="xxx")  在当前获得焦点的输入框中输入文字。
- do(action="Type_Name", text="xxx")  在当前输入框中输入人名。
{interact}- do(action="Swipe", start=[x1,y1], end=[x2,y2])  从起点滑动到终点（坐标同为 0-999）。
- do(action="Note", message="True")  记下当前页面的内容以备后用；手机上不执行任何操作。
- do(action="Call_API", instruction="xxx")  对记下的内容进行总结或评论；手机上不执行任何操作。
- do(action="Long Press", element=[x,y])  长按。
- do(action="Double Tap", element=[x,y])  快速点击两次。
{take_over}- do(action="Back")  返回上一页。
- do(action="Home")  回到桌面。
- do(action="Wait", duration="x seconds")  等待页面加载。
- finish(message="xxx")  任务已完成；message 是返回给用户的内容。

规则：
- 先确认当前所在的应用；目标应用没有打开时，用 Launch 打开。
- 页面加载不出来时，先等待，或返回后重试。
- 要找的内容不在屏幕上时，滑动查找。
"""

INTERACT = {"en": '- do(action="Interact")  Several options fit: ask the user to choose.\n',
            "zh": '- do(action="Interact")  有多个选项都符合时，请用户选择。\n'}
TAKE_OVER = {"en": '- do(action="Take_over", message="xxx")  Hand the phone to the user (a login, a captcha).\n',
             "zh": '- do(action="Take_over", message="xxx")  需要用户接手时（登录、验证码）交给用户。\n'}


#: AutoGLM's ``do(action=...)`` (``handler.py``): points in ``element``, ``start`` and ``end``; a Tap's
#: ``message`` makes it sensitive.
ACTS: dict[str, Act] = {
    "Tap": Act("tap", (("element",),), sensitive="message"),
    "Double Tap": Act("double_tap", (("element",),)),
    "Long Press": Act("long_press", (("element",),)),
    "Swipe": Act("swipe", (("start",), ("end",))),
    # the authors' handler clears the field before typing (phone_agent/actions/handler.py _handle_type)
    "Type": Act("type", text="text", clear=True),
    "Type_Name": Act("type", text="text", clear=True),
    "Launch": Act("open", text="app"),
    "Back": Act("key", key="back"),
    "Home": Act("key", key="home"),
    "Wait": Act("wait"),
    # placeholders in the authors' handler: nothing is done on the phone and the task goes on
    "Note": Act("wait"),
    "Call_API": Act("wait"),
    "Take_over": Act("take_over", text="message", fallback="take over"),
    "Interact": Act("ask", fallback="which of the options on the screen?"),
}

#: The oracle's replies (:func:`written`'s forms).
FORMS = {"tap": 'do(action="Tap", element={at})', "long_press": 'do(action="Long Press", element={at})',
         "swipe": 'do(action="Swipe", start={start}, end={end})', "type": 'do(action="Type", text={text})',
         "open": 'do(action="Launch", app={app})', "back": 'do(action="Back")', "home": 'do(action="Home")',
         "wait": 'do(action="Wait", duration="2 seconds")', "answer": "finish(message={text})",
         "stop": 'finish(message="")'}
#: ``finish(message=...)``.
FINISH = Act("finish", text="message")


#: The argument names of ``do()`` / ``finish()`` (the lenient reading splits at them only, so that a text with
#: unescaped quotes stays whole, as the authors' handler takes ``text=`` to the end).
KEYS = ("action", "element", "text", "app", "start", "end", "message", "duration", "instruction")


class AutoGLM(Family):
    """``AutoGLM-Phone-9B``: the Chinese prompt."""

    name = "autoglm-phone"
    title = "AutoGLM-Phone"
    served = (r"autoglm",)
    source = ("zai-org/Open-AutoGLM: phone_agent/config/prompts_zh.py (the default prompt), "
              "phone_agent/actions/handler.py (parse_action, _convert_relative_to_absolute: int(x / 1000 * width)), "
              "phone_agent/model/client.py")
    syntax = "AutoGLM do()/finish()"
    example = '<think>...</think><answer>do(action="Tap", element=[x,y])</answer>'
    coordinates = "relative"
    scale = 1000
    rounding = "floor"
    lang = "zh"
    # phone_agent/agent.py: the system prompt, each step a user turn (screen info + screenshot) and the
    # model's <think>/<answer> as an assistant turn; the image is taken out of each user turn once answered
    turns = True
    images_kept = 1
    history_kept = 20
    conversation_source = "zai-org/Open-AutoGLM: phone_agent/agent.py (_context; remove_images_from_message)"

    def system_prompt(self, frame: Frame, ask_user: bool) -> str:
        prompt = PROMPT_ZH if self.lang == "zh" else PROMPT_EN
        return (prompt.replace("{date}", date.today().isoformat())
                .replace("{interact}", INTERACT[self.lang] if ask_user else "")
                .replace("{take_over}", TAKE_OVER[self.lang] if ask_user else ""))

    def parse_action(self, reply: str, frame: Frame) -> Parsed:
        thought = tag(reply, "think") or reply.split("<answer>")[0].replace("<think>", "").replace("</think>", "").strip()
        answer = tag(reply, "answer")
        if reply.count("<answer>") > 1:
            raise ParseError(f"your reply holds {reply.count('<answer>')} <answer> blocks: write one action a step; "
                             "the next screenshot comes after it")
        if answer is None:
            m = re.search(r"(do\(.*|finish\(.*)", reply, re.DOTALL)
            if m is None:
                raise ParseError('your reply has no action: write <answer>do(action="...", ...)</answer> '
                                 'or finish(message="...")')
            answer = m.group(1).strip()
        single_call(answer, ("do", "finish"))
        name, kw = any_call(answer, KEYS)
        if name == "finish":
            return Parsed(thought, to_operation(FINISH, Args(self, kw, frame, name), thought))
        if name != "do":
            raise ParseError(f"{name}() is neither do(action=...) nor finish(message=...)")
        action = kw.get("action")
        act = ACTS.get(action) if isinstance(action, str) else None
        if act is not None:
            return Parsed(thought, to_operation(act, Args(self, kw, frame, str(action)), thought))
        raise ParseError(f"{action!r} is not one of {self.title}'s actions (Launch, Tap, Type, Swipe, Long Press, "
                         f"Double Tap, Back, Home, Wait)")

    def write(self, action: str, args: dict[str, Any], thought: str, frame: Frame,
              point: PointWriter | None = None) -> str:
        pt = self.model_point(frame, point)
        a = written(action, args, FORMS, lambda x, y: "[{},{}]".format(*pt(x, y)), _q)
        return f"<think>{thought}</think>\n<answer>{a}</answer>"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class AutoGLMMultilingual(AutoGLM):
    """``AutoGLM-Phone-9B-Multilingual``: the English prompt (``prompts_en.py``)."""

    name = "autoglm-phone-multilingual"
    title = "AutoGLM-Phone (multilingual)"
    served = (r"autoglm.*multilingual",)
    source = AutoGLM.source.replace("prompts_zh.py (the default prompt)", "prompts_en.py (the multilingual model's)")
    lang = "en"

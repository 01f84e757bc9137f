"""Mobile-Eval, Notes: create a note; create one with a given text and save it; write something down."""

from __future__ import annotations

from mobile_agent.agent.operations import ClickIcon, OpenApp
from mobile_agent.bench.task import Params, Probe, Task, click, norm, step, stop, typed

APP = "Notes"

TITLES = ["Groceries", "Ideas", "Weekend plans", "Reading list", "To do"]
TEXTS = ["Hello, this is a note", "Call the bank tomorrow", "Buy flowers for Mom", "Pick up the parcel"]
MEMOS = ["meeting at 3pm", "dinner with Sam at 7pm", "dentist on Friday at 10am", "pay the rent on Monday"]


def note_with(p: Probe, text: str, before: int = 0) -> bool:
    """A saved note whose title or body contains ``text``; with ``before`` (the number of notes the
    phone had when the task began), only a note saved since counts."""
    t = norm(text)
    return any(t in norm(n.title) or t in norm(n.body) for n in p.state.notes.notes[before:])


def in_editor(p: Probe) -> bool:
    return p.in_app(APP) and p.screen_name == "EditorScreen"


def write_note(text: str, start: list | None = None, before: int = 0) -> list:
    """Open Notes (unless ``start`` says how), new note, type ``text`` into the focused title, save.
    ``before`` is the number of notes at the start: the save milestone wants a new note with ``text``
    (the phone's own "Book ideas" note must not count as the saved "Ideas")."""
    return [
        *(start if start is not None else [step(OpenApp(APP), lambda p: p.in_app(APP))]),
        step(click("New note"), in_editor),
        step(typed(text), lambda p: in_editor(p) and p.field_has(text),
             alternatives=(click("Note"), click("Title"))),  # choosing the field first
        step(ClickIcon("check", ("top", "right")), lambda p: note_with(p, text, before), icon_desc="Save",
             alternatives=()),
    ]


def new_note(params: Params, s) -> Task:
    title = params.pick("title", "Groceries", TITLES)
    count = len(s.notes.notes)
    return Task(
        id="", apps=(), tier=1,
        instruction="Create a new note in Notes.",
        paper_instruction="Create a new note in Notes.",
        plan=[*write_note(title, before=count), stop()],
        success=lambda p: len(p.state.notes.notes) > count,
        description=f"the oracle titles the note {title!r}; any new saved note succeeds",
    )


def saved_note_task(tier: int, text: str, instruction: str, paper_instruction: str, s) -> Task:
    """A task done when a note saved during it holds ``text``; the plan writes it as a new note."""
    count = len(s.notes.notes)
    return Task(
        id="", apps=(), tier=tier, instruction=instruction, paper_instruction=paper_instruction,
        plan=[*write_note(text, before=count), stop()],
        success=lambda p: note_with(p, text, count),
    )


def note_with_text(params: Params, s) -> Task:
    text = params.pick("text", "Hello, this is a note", TEXTS)
    return saved_note_task(
        2, text, f'Create a new note in Notes and write "{text}", then save it.',
        'Create a new note in Notes and write "Hello, this is a note", then save it.', s)


def write_down(params: Params, s) -> Task:
    memo = params.pick("memo", "meeting at 3pm", MEMOS)
    return saved_note_task(
        3, memo, f'I have something to remember, please write it down for me: "{memo}".',
        'I suddenly have something to record, so help me create a new note in Notes and write "meeting at 3pm".', s)


TASKS = [("notes-1", (APP,), 1, new_note), ("notes-2", (APP,), 2, note_with_text),
         ("notes-3", (APP,), 3, write_down)]

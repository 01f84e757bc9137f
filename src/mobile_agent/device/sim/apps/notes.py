"""Notes: a list of notes, a new-note button, an editor with a title and a body, save."""

from __future__ import annotations

from mobile_agent.device.sim.apps._kit import query_bar
from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import mix
from mobile_agent.device.sim.state import Note
from mobile_agent.device.sim.ui import UI
from mobile_agent.types import Box


class NoteListScreen(Screen):
    def build(self, ui: UI) -> None:
        app: NotesApp = self.app  # type: ignore[assignment]
        t = ui.theme
        notes = app.phone.state.notes.notes
        ui.top_bar("Notes", actions=(("magnify", "Search notes", app.open_search),))
        top = ui.area.y1 + ui.dp(64)
        query = self.fields.get("filter", "").strip().lower()
        shown = [(i, n) for i, n in enumerate(notes) if not query or query in (n.title + " " + n.body).lower()]
        with ui.scroll(Box(ui.area.x1, top, ui.area.x2, ui.area.y2), "notes", rid="notes_list") as y:
            y += ui.dp(8)
            if query:
                ui.text(ui.left, y, f"Results for “{self.fields['filter'].strip()}”", 14, t.on_bg2)
                y += ui.dp(28)
            if not shown:
                ui.text(ui.area.center.x, y + ui.dp(120), "No notes yet" if not query else "No matching notes", 18,
                        t.on_bg2, align="center")
            for i, note in reversed(shown):
                card = Box(ui.left, y, ui.right, y + ui.dp(112))
                with ui.card(card, on_tap=lambda i=i: app.open_note(i), desc="", rid="note_card",
                             fill=mix(t.surface, ui.accent, 0.06),
                             on_long_press=lambda i=i, y=card.y2: app.note_menu(i, y)):
                    ui.text(card.x1 + ui.dp(16), card.y1 + ui.dp(14), note.title or "Untitled", 18, t.on_bg, 500,
                            max_width=card.width - ui.dp(32), rid="note_title")
                    snippet = note.body.replace("\n", " ") or " "
                    ui.text(card.x1 + ui.dp(16), card.y1 + ui.dp(44), snippet, 14, t.on_bg2,
                            max_width=card.width - ui.dp(32), rid="note_snippet")
                    ui.text(card.x1 + ui.dp(16), card.y1 + ui.dp(76), _pretty_date(note.modified), 12, t.on_bg2)
                y = card.y2 + ui.dp(12)
            ui.spacer(y, y + ui.dp(80))  # room above the floating button
        ui.fab("plus", "New note", app.new_note, label="New note")


class NoteSearchScreen(Screen):
    def build(self, ui: UI) -> None:
        app: NotesApp = self.app  # type: ignore[assignment]
        query_bar(ui, app.pop, "Search your notes", lambda: app.apply_search(self.fields.get("q", "")))


class EditorScreen(Screen):
    def __init__(self, app: "NotesApp", index: int | None) -> None:
        super().__init__(app)
        self.index = index
        if index is not None:
            note = app.phone.state.notes.notes[index]
            self.fields["title"] = note.title
            self.fields["body"] = note.body

    def build(self, ui: UI) -> None:
        app: NotesApp = self.app  # type: ignore[assignment]
        t = ui.theme
        ui.top_bar("", back=lambda: app.close_editor(self),
                   actions=(("check", "Save", lambda: app.close_editor(self, explicit=True)),))
        top = ui.area.y1 + ui.dp(64)
        ui.text_field(Box(ui.left, top + ui.dp(8), ui.right, top + ui.dp(72)), "title", "Title", style="underline",
                      size=24, rid="note_title_input")
        body_box = Box(ui.left, top + ui.dp(88), ui.right, ui.area.y2 - ui.dp(16))
        ui.text_field(body_box, "body", "Note", multiline=True, style="plain", size=16, rid="note_body_input")
        if not self.fields.get("title") and not self.fields.get("body"):
            ui.text(ui.left, ui.area.y2 - ui.dp(40), "Edited just now" if self.index is not None else "New note", 12,
                    t.on_bg2)

    def on_back(self) -> bool:
        self.app.close_editor(self)  # type: ignore[attr-defined]
        return True


def _pretty_date(iso: str) -> str:
    import datetime as dt

    d = dt.datetime.fromisoformat(iso)
    return d.strftime("%b ") + str(d.day) + d.strftime(", %H:%M")


class NotesApp(App, name="Notes", package="com.sim.notes",
               icon="note-edit-outline", color=(240, 170, 30), root=NoteListScreen):
    def new_note(self) -> None:
        screen = EditorScreen(self, None)
        self.push(screen)
        self.phone.focus_field(screen, "title")

    def open_note(self, index: int) -> None:
        self.push(EditorScreen(self, index))

    def note_menu(self, index: int, y: int) -> None:
        """The long-press menu of a note: make a copy, delete."""
        self.phone.show_menu([("Make a copy", lambda: self.copy_note(index)),
                              ("Delete", lambda: self.delete_note(index))], y)

    def copy_note(self, index: int) -> None:
        notes = self.phone.state.notes.notes
        note = notes[index]
        notes.append(Note(note.title, note.body, self.phone.now.isoformat(timespec="minutes")))
        self.toast("Copy made")

    def delete_note(self, index: int) -> None:
        del self.phone.state.notes.notes[index]
        self.toast("Note deleted")

    def open_search(self) -> None:
        screen = NoteSearchScreen(self)
        self.push(screen)
        self.phone.focus_field(screen, "q", on_submit=lambda: self.apply_search(screen.fields.get("q", "")))

    def apply_search(self, query: str) -> None:
        self.pop()
        self.screen.fields["filter"] = query

    def close_editor(self, editor: EditorScreen, explicit: bool = False) -> None:
        """Save the note (as Keep-style apps do on leaving the editor) and go back to the list."""
        title = editor.fields.get("title", "").strip()
        body = editor.fields.get("body", "").rstrip()
        notes = self.phone.state.notes.notes
        now = self.phone.now.isoformat(timespec="minutes")
        if editor.index is None:
            if title or body:
                notes.append(Note(title, body, now))
                editor.index = len(notes) - 1
                self.toast("Note saved")
            elif explicit:
                self.toast("Empty note discarded")
        else:
            note = notes[editor.index]
            if (note.title, note.body) != (title, body):
                note.title, note.body, note.modified = title, body, now
                self.toast("Note saved")
        self.pop()


APPS = [NotesApp]

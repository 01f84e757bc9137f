"""Mail: inbox, a navigation drawer with folders (Inbox, Sent, Drafts), reading a message, and a
compose screen with From, To, Subject and body. Sending checks the recipients as a real client
does: an invalid address is named in a dialog and nothing is sent; an empty message asks first.
"""

from __future__ import annotations

import datetime as dt
import re

from mobile_agent.device.sim.phone import App, Screen
from mobile_agent.device.sim.render import Canvas, mix, seeded_color
from mobile_agent.device.sim.state import Email
from mobile_agent.device.sim.ui import UI, Node
from mobile_agent.types import Box

FOLDERS = ("Inbox", "Starred", "Sent", "Drafts")
FOLDER_ICONS = {"Inbox": "inbox", "Starred": "star-outline", "Sent": "send-outline", "Drafts": "file-outline"}
_ADDRESS = re.compile(r"^[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}$")
EMPTY_MESSAGE_PROMPT = "Send this message without a subject or text in the body?"


def is_valid_address(address: str) -> bool:
    """True for a syntactically valid e-mail address (``name@domain.tld``)."""
    return bool(_ADDRESS.match(address.strip()))


def split_recipients(value: str) -> list[str]:
    """The addresses typed in a To field: separated by commas, semicolons or spaces."""
    return [a for a in re.split(r"[,;\s]+", value.strip()) if a]


def mail_time(iso: str, now: dt.datetime) -> str:
    """How a mail list shows a time: ``9:41 AM`` today, ``Mar 3`` this year, else ``3/3/23``."""
    t = dt.datetime.fromisoformat(iso)
    if t.date() == now.date():
        return t.strftime("%I:%M %p").lstrip("0")
    if t.year == now.year:
        return t.strftime("%b ") + str(t.day)
    return f"{t.month}/{t.day}/{t.strftime('%y')}"


def _avatar(ui: UI, cx: int, cy: int, name: str, r_dp: float = 20) -> None:
    r = ui.dp(r_dp)
    col = seeded_color(name, 0.5, 0.75)
    letter = (name[:1] or "?").upper()

    def paint(c: Canvas, b: Box) -> None:
        c.ellipse(b, fill=col)
        c.text(b.center.x, b.center.y, letter, ui.dp(r_dp * 0.9), (255, 255, 255), 500, "mm")

    ui.add(Node(Box(cx - r, cy - r, cx + r, cy + r), cls="android.widget.ImageView", desc=f"Avatar of {name}",
                paint=paint))


class FolderScreen(Screen):
    """A folder's list of conversations (the app's root), with the drawer and the Compose button."""

    def __init__(self, app: "MailApp", folder: str = "Inbox") -> None:
        super().__init__(app)
        self.folder = folder
        self.drawer = False

    def mails(self) -> list[tuple[int, Email]]:
        m = self.phone.state.mail
        if self.folder == "Inbox":
            items = m.inbox
        elif self.folder == "Sent":
            items = m.sent
        elif self.folder == "Drafts":
            items = m.drafts
        else:
            items = []
        return sorted(enumerate(items), key=lambda p: p[1].time, reverse=True)

    def build(self, ui: UI) -> None:
        app: MailApp = self.app  # type: ignore[assignment]
        t = ui.theme
        acc = app.phone.state.mail.account
        # Search-style top bar, as mail apps have: menu, folder title, account avatar
        bar = Box(ui.left - ui.dp(4), ui.area.y1 + ui.dp(8), ui.right + ui.dp(4), ui.area.y1 + ui.dp(64))
        ui.add(Node(bar, cls="android.view.ViewGroup", rid="open_search",
                    paint=lambda c, b: c.rect(b, fill=t.field, radius=b.height // 2)))
        ui.icon_button(bar.x1 + ui.dp(28), bar.center.y, "menu", "Open navigation drawer", self.open_drawer)
        ui.text(bar.x1 + ui.dp(60), bar.center.y - ui.dp(11), self.folder, 18, t.on_bg, 500, rid="folder_title")
        _avatar(ui, bar.x2 - ui.dp(28), bar.center.y, acc, 16)
        top = bar.y2 + ui.dp(8)
        mails = self.mails()
        with ui.scroll(Box(ui.area.x1, top, ui.area.x2, ui.area.y2), "list", rid="thread_list_view") as y:
            label = self.folder.upper() if self.folder != "Inbox" else "PRIMARY"
            ui.text(ui.left, y + ui.dp(8), label, 12, t.on_bg2, 500)
            y += ui.dp(32)
            if not mails:
                ui.text(ui.area.center.x, y + ui.dp(140), f"Nothing in {self.folder}", 18, t.on_bg2,
                        align="center")
            for i, mail in mails:
                y = self._row(ui, y, i, mail)
            ui.spacer(y, y + ui.dp(88))
        ui.fab("pencil-outline", "Compose", app.compose, label="Compose")
        if self.drawer:
            self._drawer(ui)

    def _row(self, ui: UI, y: int, index: int, mail: Email) -> int:
        app: MailApp = self.app  # type: ignore[assignment]
        t = ui.theme
        h = ui.dp(92)
        box = Box(ui.area.x1, y, ui.area.x2, y + h)
        unread = not mail.read and self.folder == "Inbox"
        who = mail.sender if self.folder == "Inbox" else "To: " + (", ".join(mail.to) or "(no recipients)")
        name = who.split("@")[0] if self.folder == "Inbox" else who
        weight = 700 if unread else 400
        strong = t.on_bg if unread else t.on_bg2
        with ui.group(box, on_tap=lambda: app.open_mail(self.folder, index), rid="conversation",
                      on_long_press=lambda: self.mail_menu(mail, box.y2)):
            _avatar(ui, ui.left + ui.dp(20), y + ui.dp(30), name.replace("To: ", ""))
            x = ui.left + ui.dp(56)
            when = mail_time(mail.time, app.phone.now)
            tb = ui.text(ui.right, y + ui.dp(12), when, 12, t.on_bg if unread else t.on_bg2, weight, align="right")
            if self.folder == "Drafts":
                ui.text(x, y + ui.dp(10), "Draft", 16, (217, 48, 37) if not t.dark else (242, 139, 130), 500,
                        max_width=tb.x1 - x - ui.dp(8), rid="sender")
            else:
                ui.text(x, y + ui.dp(10), name, 16, t.on_bg, weight, max_width=tb.x1 - x - ui.dp(8), rid="sender")
            ui.text(x, y + ui.dp(36), mail.subject or "(no subject)", 14, t.on_bg if unread else t.on_bg,
                    weight, max_width=ui.right - x, rid="subject")
            ui.text(x, y + ui.dp(58), mail.body.replace("\n", " ") or " ", 14, strong if not unread else t.on_bg2,
                    max_width=ui.right - x, rid="snippet")
        return box.y2

    def mail_menu(self, mail: Email, y: int) -> None:
        """The long-press menu of a conversation: mark as read or unread, delete."""
        def toggle() -> None:
            mail.read = not mail.read

        def delete() -> None:
            m = self.phone.state.mail
            for folder in (m.inbox, m.sent, m.drafts):
                folder[:] = [e for e in folder if e is not mail]
            self.app.toast("1 deleted")

        self.phone.show_menu([("Mark as unread" if mail.read else "Mark as read", toggle), ("Delete", delete)], y)

    def _drawer(self, ui: UI) -> None:
        t = ui.theme
        app: MailApp = self.app  # type: ignore[assignment]
        ui.scrim(self.close_drawer)
        panel = Box(ui.area.x1, ui.area.y1, ui.area.x1 + ui.width * 4 // 5, ui.area.y2)
        with ui.group(panel, cls="android.widget.FrameLayout", rid="drawer", on_tap=lambda: None,
                      paint=lambda c, b: c.rect(b, fill=t.surface)):
            ui.text(panel.x1 + ui.dp(28), panel.y1 + ui.dp(24), "Mail", 22, ui.accent, 500)
            ui.text(panel.x1 + ui.dp(28), panel.y1 + ui.dp(56), app.phone.state.mail.account, 14, t.on_bg2)
            y = panel.y1 + ui.dp(96)
            ui.divider(y, panel.x1, panel.x2)
            y += ui.dp(8)
            m = app.phone.state.mail
            counts = {"Inbox": sum(1 for e in m.inbox if not e.read), "Drafts": len(m.drafts)}
            for folder in FOLDERS:
                sel = folder == self.folder
                row = Box(panel.x1 + ui.dp(12), y, panel.x2 - ui.dp(12), y + ui.dp(56))
                fill = mix(ui.accent, t.surface, 0.78) if sel else None
                with ui.group(row, on_tap=lambda f=folder: self.switch(f), selected=sel, desc=folder,
                              paint=(lambda c, b, fill=fill: c.rect(b, fill=fill, radius=b.height // 2))
                              if fill else None):
                    ui.icon(row.x1 + ui.dp(28), row.center.y, FOLDER_ICONS[folder], 24, t.on_bg)
                    ui.text(row.x1 + ui.dp(60), row.center.y - ui.dp(10), folder, 15, t.on_bg, 500 if sel else 400)
                    if counts.get(folder):
                        ui.text(row.x2 - ui.dp(20), row.center.y - ui.dp(9), str(counts[folder]), 13, t.on_bg, 500,
                                align="right")
                y = row.y2

    def open_drawer(self) -> None:
        self.drawer = True

    def close_drawer(self) -> None:
        self.drawer = False

    def switch(self, folder: str) -> None:
        self.folder = folder
        self.drawer = False
        self.scroll.clear()

    def on_back(self) -> bool:
        if self.drawer:
            self.drawer = False
            return True
        if self.folder != "Inbox":
            self.switch("Inbox")
            return True
        return False


class ReadScreen(Screen):
    """One message, with Reply and Forward."""

    def __init__(self, app: "MailApp", mail: Email, folder: str) -> None:
        super().__init__(app)
        self.mail = mail
        self.folder = folder

    def build(self, ui: UI) -> None:
        app: MailApp = self.app  # type: ignore[assignment]
        t = ui.theme
        m = self.mail
        ui.top_bar("", back=app.pop, actions=(("dots-vertical", "More options", lambda: None),
                                             ("email-outline", "Mark unread", self.mark_unread),
                                             ("delete-outline", "Delete", self.delete),
                                             ("archive-arrow-down-outline", "Archive", self.delete)))
        top = ui.area.y1 + ui.dp(64)
        with ui.scroll(Box(ui.area.x1, top, ui.area.x2, ui.area.y2), "mail") as y:
            b = ui.text(ui.left, y + ui.dp(8), m.subject or "(no subject)", 22, t.on_bg, 400, lines=3,
                        rid="subject")
            chip_y = b.y2 + ui.dp(6)
            ui.text(ui.left, chip_y, self.folder, 12, t.on_bg2, 500)
            y = chip_y + ui.dp(32)
            sender = m.sender
            _avatar(ui, ui.left + ui.dp(20), y + ui.dp(22), sender)
            x = ui.left + ui.dp(56)
            ui.text(x, y + ui.dp(2), sender.split("@")[0] if sender != app.phone.state.mail.account else "me", 16,
                    t.on_bg, 500, max_width=ui.right - x - ui.dp(80), rid="sender_name")
            ui.text(ui.right, y + ui.dp(4), mail_time(m.time, app.phone.now), 12, t.on_bg2, align="right")
            ui.text(x, y + ui.dp(26), "to " + ", ".join(m.to), 13, t.on_bg2, max_width=ui.right - x,
                    rid="recipients")
            y += ui.dp(64)
            body = m.body or "(no text)"
            b = ui.text(ui.left, y, body, 15, t.on_bg, lines=40, rid="body")
            y = b.y2 + ui.dp(32)
            bw = (ui.right - ui.left - ui.dp(12)) // 2
            ui.button(Box(ui.left, y, ui.left + bw, y + ui.dp(40)), "Reply", self.reply, style="outlined",
                      icon="reply")
            ui.button(Box(ui.right - bw, y, ui.right, y + ui.dp(40)), "Forward", self.forward, style="outlined",
                      icon="share")
            ui.spacer(y, y + ui.dp(64))

    def mark_unread(self) -> None:
        self.mail.read = False
        self.app.pop()

    def delete(self) -> None:
        m = self.phone.state.mail
        for folder in (m.inbox, m.sent, m.drafts):
            if any(e is self.mail for e in folder):
                folder[:] = [e for e in folder if e is not self.mail]
        self.app.toast("1 deleted")
        self.app.pop()

    def reply(self) -> None:
        m = self.mail
        subject = m.subject if m.subject.lower().startswith("re:") else f"Re: {m.subject}"
        self.app.compose(to=m.sender, subject=subject)  # type: ignore[attr-defined]

    def forward(self) -> None:
        m = self.mail
        self.app.compose(subject=f"Fwd: {m.subject}",  # type: ignore[attr-defined]
                         body=f"\n\n---------- Forwarded message ---------\nFrom: {m.sender}\n\n{m.body}")


class ComposeScreen(Screen):
    """New message: From, To, Subject, body; Send in the top bar; Back saves a draft."""

    def __init__(self, app: "MailApp", draft: Email | None = None) -> None:
        super().__init__(app)
        self.draft = draft
        self.dialog: tuple[str, str, bool] | None = None  # (title, message, offers Cancel)

    def build(self, ui: UI) -> None:
        app: MailApp = self.app  # type: ignore[assignment]
        t = ui.theme
        ui.top_bar("Compose", back=self.leave,
                   actions=(("dots-vertical", "More options", lambda: None),
                            ("send-outline", "Send", self.send),
                            ("paperclip", "Attach file", lambda: None)))
        y = ui.area.y1 + ui.dp(64)
        row_h = ui.dp(56)
        lx = ui.left
        fx = ui.left + ui.dp(64)
        # From
        ui.text(lx, y + ui.dp(18), "From", 16, t.on_bg2)
        ui.text(fx, y + ui.dp(18), app.phone.state.mail.account, 16, t.on_bg, rid="from_account_name")
        y += row_h
        ui.divider(y)
        ui.text(lx, y + ui.dp(18), "To", 16, t.on_bg2)
        ui.text_field(Box(fx - ui.dp(16), y + ui.dp(4), ui.right, y + row_h - ui.dp(4)), "to", "",
                      on_submit=lambda: self.next_field("subject"), style="plain", rid="to")
        y += row_h
        ui.divider(y)
        ui.text_field(Box(ui.area.x1, y + ui.dp(4), ui.right, y + row_h - ui.dp(4)), "subject", "Subject",
                      on_submit=lambda: self.next_field("body"), style="plain", rid="subject")
        y += row_h
        ui.divider(y)
        ui.text_field(Box(ui.area.x1, y + ui.dp(4), ui.right, ui.area.y2 - ui.dp(8)), "body", "Compose email",
                      multiline=True, style="plain", rid="body")
        if self.dialog is not None:
            title, message, cancel = self.dialog
            if cancel:
                ui.dialog(title, message, [("Cancel", self.close_dialog), ("OK", self.confirm_send)],
                          on_dismiss=self.close_dialog)
            else:
                ui.dialog(title, message, [("OK", self.close_dialog)], on_dismiss=self.close_dialog)

    def next_field(self, key: str) -> None:
        self.phone.focus_field(self, key, multiline=key == "body",
                               on_submit=(lambda: self.next_field("body")) if key == "subject" else None)

    def close_dialog(self) -> None:
        self.dialog = None

    def send(self) -> None:
        """Check the recipients, ask about an empty message, then send."""
        self.phone.clear_focus()
        to = split_recipients(self.fields.get("to", ""))
        if not to:
            self.dialog = ("No recipients", "Add at least one recipient.", False)
            return
        bad = [a for a in to if not is_valid_address(a)]
        if bad:
            self.dialog = ("Invalid address", f"The address <{bad[0]}> is invalid.", False)
            return
        if not self.fields.get("subject", "").strip() and not self.fields.get("body", "").strip():
            self.dialog = ("Empty message", EMPTY_MESSAGE_PROMPT, True)
            return
        self.confirm_send()

    def confirm_send(self) -> None:
        app: MailApp = self.app  # type: ignore[assignment]
        self.dialog = None
        m = app.phone.state.mail
        email = Email(m.account, split_recipients(self.fields.get("to", "")), self.fields.get("subject", "").strip(),
                      self.fields.get("body", "").rstrip(), app.phone.now.isoformat(timespec="minutes"))
        m.sent.append(email)
        self._drop_draft()
        app.pop()
        app.toast("Sent")

    def _drop_draft(self) -> None:
        if self.draft is not None:
            drafts = self.phone.state.mail.drafts
            drafts[:] = [d for d in drafts if d is not self.draft]
            self.draft = None

    def leave(self) -> None:
        """Close the editor; a message with anything in it is kept in Drafts."""
        app: MailApp = self.app  # type: ignore[assignment]
        m = app.phone.state.mail
        to = self.fields.get("to", "").strip()
        subject = self.fields.get("subject", "").strip()
        body = self.fields.get("body", "").rstrip()
        if to or subject or body:
            now = app.phone.now.isoformat(timespec="minutes")
            if self.draft is not None:
                self.draft.to, self.draft.subject, self.draft.body, self.draft.time = \
                    split_recipients(to), subject, body, now
            else:
                m.drafts.append(Email(m.account, split_recipients(to), subject, body, now))
            app.toast("Draft saved")
        else:
            self._drop_draft()
        app.pop()

    def on_back(self) -> bool:
        if self.dialog is not None:
            self.dialog = None
            return True
        self.leave()
        return True


class SignInScreen(Screen):
    """Signed out (``MailState.signed_in`` false): the account, and a password only its owner knows
    (no password the agent could type opens it), or with ``sign_in_code`` the one-time code sent to
    the owner's phone, with Verify. Signing in (a right code, or the owner by hand) shows the inbox."""

    def __init__(self, app: "MailApp") -> None:
        super().__init__(app)
        self.error = ""

    def build(self, ui: UI) -> None:
        app: MailApp = self.app  # type: ignore[assignment]
        t = ui.theme
        m = app.phone.state.mail
        code = bool(m.sign_in_code)
        y = ui.area.y1 + ui.dp(72)
        ui.text(ui.area.center.x, y, "Sign in", 26, t.on_bg, 500, align="center", rid="sign_in_title")
        y += ui.dp(48)
        ui.text(ui.area.center.x, y, m.account, 16, t.on_bg2, align="center", rid="account")
        y += ui.dp(48)
        what = "Enter the 6-digit code we sent to your phone" if code else "Enter your password to continue"
        ui.text(ui.left, y, what, 15, t.on_bg, max_width=ui.right - ui.left, rid="sign_in_hint")
        y += ui.dp(40)
        key, action = ("code", self.verify) if code else ("password", self.sign_in)
        ui.text_field(Box(ui.left, y, ui.right, y + ui.dp(56)), key, "Code" if code else "Password",
                      on_submit=action, rid=key, password=not code)
        y += ui.dp(72)
        if self.error:
            ui.text(ui.left, y, self.error, 14, (217, 48, 37), rid="sign_in_error")
        y += ui.dp(40)
        ui.button(Box(ui.right - ui.dp(120), y, ui.right, y + ui.dp(44)), "Verify" if code else "Sign in", action,
                  rid="sign_in_button")

    def verify(self) -> None:
        m = self.phone.state.mail
        typed = re.sub(r"\s+", "", self.fields.get("code", ""))
        if typed and typed == m.sign_in_code:
            self.app.signed_in()  # type: ignore[attr-defined]
        else:
            self.error = "Wrong code. Try again."

    def sign_in(self) -> None:
        self.error = "Wrong password. Try again or ask the account's owner."  # only its owner signs in


class MailApp(App, name="Mail", package="com.sim.mail", icon="email-outline", color=(217, 48, 37)):
    def root(self) -> Screen:
        return FolderScreen(self) if self.phone.state.mail.signed_in else SignInScreen(self)

    def signed_in(self) -> None:
        """The account is signed in (the right code, or its owner by hand): the inbox replaces the
        sign-in screen."""
        self.phone.state.mail.signed_in = True
        if self.stack:
            self.reset()
        self.phone.state_changed()

    def compose(self, to: str = "", subject: str = "", body: str = "") -> None:
        screen = ComposeScreen(self)
        screen.fields.update({k: v for k, v in (("to", to), ("subject", subject), ("body", body)) if v})
        self.push(screen)
        self.phone.focus_field(screen, "to", on_submit=lambda: screen.next_field("subject"))

    def open_mail(self, folder: str, index: int) -> None:
        m = self.phone.state.mail
        items = {"Inbox": m.inbox, "Sent": m.sent, "Drafts": m.drafts}.get(folder, [])
        if not 0 <= index < len(items):
            return
        mail = items[index]
        if folder == "Drafts":
            screen = ComposeScreen(self, draft=mail)
            screen.fields.update({"to": ", ".join(mail.to), "subject": mail.subject, "body": mail.body})
            self.push(screen)
            return
        mail.read = True
        self.push(ReadScreen(self, mail, folder))


APPS = [MailApp]

"""Other wordings of the development set's icon descriptions: the same control as other apps,
Android's framework, Material Components and a model write it.

A Click Icon target of a real folder is its content-desc as that one app wrote it; apps we cannot
see write the same control in other words ("Navigate up" / "Back" / "Go back" / "Up"; "More
options" / "More" / "Menu" / "Overflow menu"), and the model phrases a target its own way. This
table gives, for each distinct icon description of ``realscreens/manifest.jsonl``, two to four such
wordings, so that ``bench perception --dir DIR --icon-wording paraphrase`` asks each icon target by
each of them (:func:`wordings`).

The wordings were written from what the framework and the libraries name these controls (AOSP's
``abc_action_bar_up_description`` "Navigate up", ``abc_action_menu_overflow_description`` "More
options", ``abc_searchview_description_clear`` "Clear query", ``abc_toolbar_collapse_description``
"Collapse"; Material Components' ``clear_text_end_icon_content_description`` "Clear text",
``password_toggle_content_description`` "Show password", ``exposed_dropdown_menu_content_description``
"Show dropdown menu", ``mtrl_picker_next_month`` / ``mtrl_picker_text_input_mode``; the media
router's "Cast button. Disconnected") and from common app wording, never chosen by whether
perception finds them. They are fixed here before any change to the matching: a change that helps
only because the table was written for it measures nothing.

Where one description names different controls in different apps (the framework's "Collapse" is a
search bar's up arrow in one app and a section's chevron in another; "Back" a toolbar's up arrow or
a browser's bottom bar button), :data:`BY_APP` gives the wordings for that app.
"""

from __future__ import annotations

#: description (as the app wrote it) -> other wordings of the same control
PARAPHRASES: dict[str, tuple[str, ...]] = {
    "Add": ("New", "Create", "Add new item"),
    "Add home": ("Set home", "Add home address", "Save home location"),
    "Add new Podcast": ("Add podcast", "Subscribe to a podcast", "New podcast"),
    "Add place": ("Add location", "Save a place", "New place"),
    "Amount (US Dollar) : Calculator": ("Calculator", "Open calculator", "Amount calculator"),
    "Amount (US Dollar) : Expense": ("Expense", "Switch between expense and income", "Amount sign: expense"),
    "Attach image to transaction": ("Attach photo", "Add image", "Add attachment", "Attach picture"),
    "Back": ("Go back", "Navigate back", "Back button"),
    "Bottom": ("Toolbar at bottom", "Bottom toolbar", "Bottom position"),
    "Cancel": ("Close", "Dismiss", "Cancel button"),
    "Cast. Disconnected": ("Cast", "Cast button. Disconnected", "Cast to device", "Chromecast"),
    "Change to next month": ("Next month", "Go to next month", "Next"),
    "Change to previous month": ("Previous month", "Go to previous month", "Previous"),
    "Clear": ("Clear query", "Clear search", "Clear text"),
    "Clear query": ("Clear", "Clear search", "Clear text"),
    "Close navigation drawer": ("Close menu", "Close drawer", "Hide navigation menu"),
    "Collapse": ("Close", "Show less", "Fold"),
    "Confirm": ("OK", "Done", "Apply"),
    "Copy Error": ("Copy error message", "Copy", "Copy to clipboard"),
    "Create or select tags": ("Tags", "Add tags", "Edit tags"),
    "Dark theme": ("Dark mode", "Dark", "Use dark theme"),
    "Edit": ("Modify", "Edit entry", "Change"),
    "Enable private browsing": ("Private browsing", "Private mode", "Open private tab", "Incognito mode"),
    "Forward": ("Go forward", "Next page", "Forward button"),
    "Goal / Limit : Calculator": ("Calculator", "Open calculator", "Goal calculator"),
    "Goal / Limit : Expense": ("Expense", "Switch between expense and income", "Goal sign: expense"),
    "Help": ("Get help", "Help button", "Show help"),
    "Hide details": ("Show less", "Fewer details", "Collapse details"),
    "Import": ("Import file", "Open file", "Load"),
    "Light theme": ("Light mode", "Light", "Use light theme"),
    "Main menu": ("Menu", "Open menu", "Browser menu"),
    "More options": ("More", "Menu", "Overflow menu", "Options"),
    "Navigate up": ("Back", "Go back", "Up", "Navigate back"),
    "New Transaction. New Transfer. New split": ("New transaction", "Add transaction", "Create transaction"),
    "Open menu": ("Menu", "Open navigation drawer", "Show menu"),
    "Open navigation drawer": ("Open menu", "Menu", "Show navigation menu"),
    "Open navigation sidebar": ("Open navigation drawer", "Menu", "Open menu"),
    "Open tab bar": ("Tabs", "Show tabs", "Tab switcher", "Open tabs"),
    "Opening balance : Calculator": ("Calculator", "Open calculator", "Calculator for the opening balance"),
    "Opening balance : Income": ("Income", "Switch between income and expense", "Opening balance sign: income"),
    "Privacy\u00a0Policy": ("Privacy", "Privacy policy link", "Read privacy policy"),
    "RSS": ("RSS feed", "Feed", "Subscribe via RSS"),
    "Refresh": ("Reload", "Update", "Refresh rates"),
    "Restore": ("Undo", "Restore backup", "Revert"),
    "Save and new": ("Save and add another", "Save and create new", "Save & new"),
    "Save as template": ("Template", "Create template", "Save template"),
    "Save the data and close the form.": ("Save", "Done", "Save and close"),
    "Save": ("Done", "Save changes", "Confirm"),
    "Search engines": ("Search engine", "Choose search engine", "Change search engine"),
    "Search": ("Find", "Search button", "Open search"),
    "Show / Hide played content": ("Hide played", "Show played episodes", "Toggle played"),
    "Show Password": ("Toggle password visibility", "Password visibility", "Show password button"),
    "Show dropdown menu": ("Dropdown", "Open dropdown", "Expand menu", "Show options"),
    "Show password": ("Toggle password visibility", "Password visibility", "Show password button"),
    "Show": ("Show password", "Reveal password", "Toggle visibility"),
    "Sort": ("Sort by", "Sort order", "Order by"),
    "Speed Dial": ("Home", "Start page", "Home page"),
    "Switch to text input mode": ("Text input mode", "Edit date", "Type date"),
    "Templates and plans": ("Templates", "Plans", "Scheduled transactions"),
    "Terms\u00a0of\u00a0Service": ("Terms", "Terms and conditions", "Terms of use"),
    "Thumbnail": ("Card image", "Image", "Picture"),
    "Top": ("Toolbar at top", "Top toolbar", "Top position"),
    "Turn flashlight on": ("Flashlight", "Torch", "Turn on torch", "Toggle flashlight"),
    "Update": ("Refresh", "Update podcasts", "Check for new episodes"),
    "Voice search": ("Search by voice", "Microphone", "Voice input"),
    "Wrong number?": ("Not my number", "Edit number", "Change number"),
}

#: (app, description) -> wordings, where a description names another control in that app than
#: :data:`PARAPHRASES` words: the framework's "Collapse" of a search bar (an up arrow at the bar's
#: start) and a section's "Collapse" chevron; a toolbar's "Back" arrow and a browser's Back button.
BY_APP: dict[tuple[str, str], tuple[str, ...]] = {
    ("Podcast_Player_v7.0.0-220308033.rd0a0ae8", "Collapse"): ("Close search", "Back", "Navigate up"),
    ("com.poupa.vinylmusicplayer", "Collapse"): ("Close search", "Back", "Navigate up"),
    ("me.hackerchick.catima", "Collapse"): ("Close search", "Back", "Navigate up"),
    ("org.totschnig.myexpenses", "Collapse"): ("Show less", "Collapse section", "Fold"),
    ("AOL_News_Mail_Video_v6.47.2", "Back"): ("Navigate up", "Go back", "Up"),
    ("BBC_News_v5.23.0", "Back"): ("Navigate up", "Go back", "Up"),
    ("Opera_Mini_fast_web_browser_v63.0.2254.61942", "Back"): ("Go back", "Previous page", "Back button"),
}

#: The ways a bench asks icon targets: as the app wrote them, or by each other wording.
WORDINGS = ("own", "paraphrase")


def wordings(description: str, app: str = "") -> tuple[str, ...]:
    """The other wordings of ``description`` (in ``app`` where :data:`BY_APP` has its own), or
    ``()`` for a description the table does not hold."""
    return BY_APP.get((app, description)) or PARAPHRASES.get(description, ())

"""What a newcomer meets first, through the real ``mobile-agent`` console script: help that reads
well at 80 columns, ``--version``, a ``run`` without a model (or with one no server has) that says
what to do, usage errors that exit 2 and ``locate``'s 1 that means only "not found"."""

from __future__ import annotations

import json
import re

import pytest

from tests.fakes.console import run_cli

HELPS = [(), ("run",), ("eval",), ("parse",), ("locate",), ("report",), ("sim",), ("sim", "shot"), ("devices",),
         ("mcp",), ("bench",), ("cache",), ("cache", "list"), ("cache", "remove")]


@pytest.mark.parametrize("command", HELPS, ids=lambda c: " ".join(c) or "root")
def test_help_at_80_columns_shows_flags_without_placeholders_and_cuts_nothing(command):
    done = run_cli(*command, "--help")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "<bool>" not in text and "…" not in text  # no placeholder on a flag, nothing cut with an ellipsis
    assert max(len(line) for line in text.splitlines()) <= 80
    if command == ("run",):
        assert "http://localhost:11434/v1" in text  # a default or URL is wrapped whole, never cut
        assert re.search(r"--dry-run +Plan", text)  # a flag: its name, then its help
        words = " ".join(text.split())  # the help wraps where its columns fall
        assert "eval's default" in words and "run's default" in words
    if command == ("eval",):
        words = " ".join(text.split())
        assert "eval's default" in words and "run's default" in words


def test_the_command_list_has_one_line_per_command():
    text = run_cli("--help").stdout
    commands = text.split("Commands:", 1)[1].strip().splitlines()
    names = [line.split()[0] for line in commands]
    assert sorted(names) == sorted(["version", "devices", "parse", "locate", "run", "replay", "eval", "report", "mcp", "sim",
                                    "bench", "cache", "test", "perception"])  # each once, on a line of its own (groups come after commands)
    assert all(line.rstrip().endswith(".") and not line.rstrip().endswith("...") for line in commands), commands
    assert "Exit status: 0" in text
    # every exit status a command gives, 3 included (run: a question to the user no one could answer)
    words = " ".join(text.split())
    assert all(f"{code} " in words.split("Exit status:", 1)[1] for code in (0, 1, 2, 3)), words
    assert "3 the run needs the user" in words
    from mobile_agent.cli.run import EXIT_NEEDS_USER

    assert EXIT_NEEDS_USER == 3


def test_version_flag():
    from mobile_agent import __version__

    done = run_cli("--version")
    assert done.returncode == 0 and done.stdout.strip() == __version__


def test_run_without_a_model_says_which_to_give(tmp_path):
    done = run_cli("run", "Turn on the dark mode", "--device", "sim", cwd=tmp_path)
    assert done.returncode == 2
    err = " ".join(done.stderr.split())
    assert "Missing option" not in err and "Traceback" not in err
    assert "--model gpt-4o" in err and "--model scripted:FILE" in err and "offline" in err
    assert 'Example: mobile-agent run "Turn on the dark mode" --model gpt-4o' in err
    assert not (tmp_path / "runs").exists()


def test_an_unknown_model_is_a_usage_error(tmp_path):
    done = run_cli("run", "x", "--model", "foo", cwd=tmp_path, OPENAI_API_KEY=None, OPENAI_BASE_URL=None)
    assert done.returncode == 2, done.stdout + done.stderr
    err = " ".join(done.stderr.split())
    assert "unknown model 'foo'" in err and "https://api.openai.com/v1" in err and "--base-url" in err
    assert "Traceback" not in err and not (tmp_path / "runs").exists()


def test_a_model_of_another_server_without_base_url_names_both_servers(tmp_path):
    done = run_cli("run", "x", "--model", "qwen-vl-max", cwd=tmp_path, OPENAI_API_KEY=None, OPENAI_BASE_URL=None)
    assert done.returncode == 2
    err = " ".join(done.stderr.split())
    assert "would go to OpenAI (https://api.openai.com/v1)" in err
    assert "--base-url https://dashscope.aliyuncs.com/compatible-mode/v1 --api-key-env DASHSCOPE_API_KEY" in err
    assert "OPENAI_API_KEY" not in err


def test_a_missing_key_names_the_server_it_is_for(tmp_path):
    done = run_cli("run", "x", "--model", "gpt-4o", cwd=tmp_path, OPENAI_API_KEY=None, OPENAI_BASE_URL=None)
    assert done.returncode == 2
    assert "model gpt-4o at https://api.openai.com/v1" in done.stderr and "OPENAI_API_KEY" in done.stderr
    done = run_cli("run", "x", "--model", "llava", "--base-url", "http://127.0.0.1:9/v1", "--api-key-env",
                   "NO_SUCH_KEY_VAR", cwd=tmp_path)
    assert done.returncode == 2 and "model llava at http://127.0.0.1:9/v1" in done.stderr


def test_eval_list_has_column_headers():
    done = run_cli("eval", "--list", "--app", "Notes", columns=100)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.match(r"^ *suite +tasks +what", lines[1])
    header = next(line for line in lines if "instruction" in line)
    assert header.split() == ["task", "app", "tier", "human", "steps", "instruction"]
    assert any(line.split()[:3] == ["notes-1", "Notes", "1"] for line in lines)


def test_eval_tables_have_a_legend(tmp_path):
    done = run_cli("eval", "--tasks", "settings-1", "--out", str(tmp_path / "out"), columns=200)
    assert done.returncode == 0, done.stdout + done.stderr
    out = " ".join(done.stdout.split())
    for words in ("SU: success", "PS: process score", "RE: relative efficiency", "CR: completion rate"):
        assert words in out


@pytest.fixture(scope="module")
def settings_png(tmp_path_factory):
    path = tmp_path_factory.mktemp("shots") / "settings.png"
    done = run_cli("sim", "shot", "--app", "Settings", "--out", str(path))
    assert done.returncode == 0, done.stderr
    return path


def test_parse_and_locate_exit_2_for_an_image_they_cannot_read(tmp_path, settings_png):
    missing = tmp_path / "missing.png"
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png at all")
    for args in (("parse", str(missing)), ("locate", str(missing), "--text", "Display"),
                 ("locate", str(broken), "--text", "Display")):
        done = run_cli(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr
    nothing = run_cli("locate", str(settings_png), "--text", "Printer queue")
    assert nothing.returncode == 1 and "status: none" in nothing.stdout
    found = run_cli("locate", str(settings_png), "--text", "Display")
    assert found.returncode == 0 and found.stdout.startswith("status: found")


def test_locate_lists_the_chosen_one_then_the_others_by_score(settings_png):
    done = run_cli("locate", str(settings_png), "--icon", "search", "--position", "top")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if re.match(r"^[* ]\d+: ", line)]
    scores = [float(re.search(r"score ([\d.]+)", row).group(1)) for row in rows]
    assert rows[0].startswith("*0:") and len(scores) > 3
    assert scores[1:] == sorted(scores[1:], reverse=True)


def _rows(stdout: str) -> list[list[str]]:
    """The cells of a parse table's rows."""
    return [[c.strip() for c in line.split("│")[1:-1]] for line in stdout.splitlines()
            if line.startswith("│") and line.count("│") == 6]


def test_parse_lists_icons_as_icons_with_what_they_look_like(settings_png):
    done = run_cli("parse", str(settings_png), columns=160)
    assert done.returncode == 0, done.stderr
    rows = _rows(done.stdout)
    texts = {r[2]: r for r in rows if r[1] == "text"}
    icons = [r for r in rows if r[1].startswith("icon")]
    # no icon glyph is listed as a text line (Bluetooth's rune read as "*", Apps' grid as "#"...)
    assert not [t for t in texts if len(t) == 1 and not (t.isascii() and t.isalnum())], list(texts)
    assert {"Network & internet", "Sound & vibration", "Display"} <= set(texts)
    # no icon box on the "&" of a text line or on its first letter
    for line in ("Network & internet", "Sound & vibration", "Wallpaper & style", "41% used · 75.5 GB free"):
        x1, y1, x2, y2 = json.loads(texts[line][3])
        for icon in icons:
            a1, b1, a2, b2 = json.loads(icon[3])
            inside = max(0, min(x2, a2) - max(x1, a1)) * max(0, min(y2, b2) - max(y1, b1))
            assert inside < 0.6 * (a2 - a1) * (b2 - b1), (line, icon)
    # the icon column says what the matcher takes each icon for
    looks = [r[2] for r in icons]
    assert any(look.startswith("search (") for look in looks) and any(look.startswith("bluetooth (") for look in looks)
    assert all(re.fullmatch(r"[a-z ]+ \(\d\.\d\d\)|\?", look) for look in looks), looks
    left = re.search(r"left out: (\d+) icon\(s\) OCR read as text .*, (\d+) icon box\(es\) on letters", done.stdout)
    assert left, done.stdout[-600:]
    everything = run_cli("parse", str(settings_png), "--all", columns=160)
    assert everything.returncode == 0 and "left out" not in everything.stdout
    assert len(_rows(everything.stdout)) == len(rows) + int(left.group(1)) + int(left.group(2))


def test_parse_lists_no_glyph_read_as_a_letter_or_two_as_text(tmp_path):
    # The dark Settings screen: OCR reads the search magnifier as "O" and the speaker as "D". Where
    # the app drew its icons comes from the phone's own view tree (its ImageViews), not from parse.
    from mobile_agent.device.sim import SimPhone

    phone = SimPhone(dark=True)
    phone.launch("Settings")
    path = tmp_path / "dark-settings.png"
    phone.screenshot().save(path)
    glyphs = [tuple(int(v) for v in re.findall(r"\d+", m.group(1)))
              for m in re.finditer(r'class="android.widget.ImageView"[^>]*bounds="([^"]+)"', phone.ui_tree())]
    glyphs = [g for g in glyphs if g[2] - g[0] <= 100]  # the rows' and the search bar's icons
    assert len(glyphs) >= 8
    done = run_cli("parse", str(path), columns=160)
    assert done.returncode == 0, done.stderr
    for row in (r for r in _rows(done.stdout) if r[1] == "text"):
        x1, y1, x2, y2 = json.loads(row[3])
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        assert not any(a <= cx <= c and b <= cy <= d for a, b, c, d in glyphs), row
    left = re.search(r"left out: \d+ icon\(s\) OCR read as text \(([^)]*)\)", " ".join(done.stdout.split()))
    assert left and {"O", "D"} <= {t.strip() for t in left.group(1).split(",")}, done.stdout[-600:]

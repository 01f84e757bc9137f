"""Typing: the commands built for ``input text`` give back the text once a real POSIX shell has
parsed them and Android's ``input`` has decoded ``%s``."""

from __future__ import annotations

import shutil
import subprocess
import string

import pytest
from hypothesis import given, settings, strategies as st

from tests.fakes.adb_server import android_input_text
from mobile_agent.device.adb.text import (
    KEYCODE_ENTER,
    TextPart,
    adbkeyboard_command,
    batch_commands,
    input_text_chunks,
    input_text_command,
    split_text,
    unicode_pieces,
)

SH = shutil.which("sh")
# A stand-in for the device's `input` binary: print each argument NUL-terminated.
PRELUDE = "input() { for a in \"$@\"; do printf '%s\\0' \"$a\"; done; }\n"


def shell_args(command_line: str) -> list[str]:
    """The arguments `input` receives when a POSIX shell runs ``command_line``."""
    assert SH is not None
    out = subprocess.run([SH, "-c", PRELUDE + command_line], capture_output=True, check=True, timeout=10)
    return out.stdout.decode("ascii").split("\0")[:-1]


def typed_through_shell(text: str) -> str:
    commands = [input_text_command(chunk) for chunk in input_text_chunks(text)]
    args = shell_args(" && ".join(commands))
    assert len(args) == 2 * len(commands)
    assert args[0::2] == ["text"] * len(commands)
    return "".join(android_input_text(a) for a in args[1::2])


printable_ascii = st.text(alphabet=st.sampled_from([chr(c) for c in range(32, 127)]), max_size=60)


@settings(max_examples=150, deadline=None)
@given(printable_ascii)
def test_any_printable_ascii_arrives_unchanged(text: str) -> None:
    assert typed_through_shell(text) == text


@pytest.mark.parametrize("text", [
    " ", "  lead and trail  ", "it's", '"double"', "a&b;c|d<e>f(g)h$HOME`id`", "back\\slash\\\\n",
    "%s", "%%s", "100% sure", "%", "s%", "%%%s%s s%", "*?[a-z]~#!{}", "-n", "--", "'\"'\"'",
])
def test_hard_cases(text: str) -> None:
    assert typed_through_shell(text) == text


def test_space_is_sent_as_percent_s_and_literal_percent_s_is_split() -> None:
    assert input_text_chunks("a b") == ["a%sb"]
    assert input_text_chunks("50%sale") == ["50%", "sale"]
    assert android_input_text("a%sb") == "a b"


def test_long_text_is_cut_into_bounded_chunks() -> None:
    text = string.ascii_letters * 20
    chunks = input_text_chunks(text, max_len=100)
    assert len(chunks) > 1 and all(len(c) <= 100 for c in chunks)
    assert typed_through_shell(text) == text


def test_input_text_refuses_non_ascii() -> None:
    with pytest.raises(ValueError):
        input_text_chunks("café")


def test_split_text_turns_newlines_into_enter() -> None:
    assert split_text("ab\ncd\n") == [TextPart("text", "ab"), TextPart("key", KEYCODE_ENTER),
                                      TextPart("text", "cd"), TextPart("key", KEYCODE_ENTER)]
    with pytest.raises(ValueError, match="control character"):
        split_text("a\x07b")


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=30))
def test_adbkeyboard_broadcast_carries_any_text(text: str) -> None:
    import base64

    args = shell_args(adbkeyboard_command(text).replace("am ", "input ", 1))
    assert args[:5] == ["broadcast", "-a", "ADB_INPUT_B64", "--es", "msg"]
    assert base64.b64decode(args[5]).decode("utf-8") == text


def test_unicode_pieces_keep_character_sequences_whole() -> None:
    family = "👨\u200d👩\u200d👧"
    text = "字" * 9 + family + "e\u0301" * 5
    pieces = unicode_pieces(text, max_chars=10)
    assert "".join(pieces) == text
    for a, b in zip(pieces, pieces[1:]):
        assert not (a.endswith("\u200d") or b.startswith(("\u200d", "\u0301")))


def test_batches_stay_short_and_keep_order() -> None:
    commands = [input_text_command(c) for c in input_text_chunks("word " * 400, max_len=100)]
    batches = batch_commands(commands, max_len=300)
    assert [c for b in batches for c in b] == commands
    assert all(len(" && ".join(b)) <= 300 for b in batches)

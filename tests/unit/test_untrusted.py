"""The terminal rendering rule for untrusted strings, by example (the expected escapes are written by
hand; ``tests/property/test_untrusted_rendering.py`` checks every string)."""

from __future__ import annotations

from kortty_rag.cli.ask_cmd import printable
from kortty_rag.untrusted import escape_line, escape_lines


def test_the_hostile_examples_are_escaped_visibly() -> None:
    assert escape_line("new\nline.txt") == "new\\nline.txt"
    assert escape_line("red\x1b[31mname") == "red\\x1b[31mname"
    assert escape_line("t\x1b]0;title\x07") == "t\\x1b]0;title\\x07"
    assert escape_line("csi\x9b2J del\x7f nel\x85") == "csi\\x9b2J del\\x7f nel\\x85"
    assert escape_line("rlo\u202egnp.txt") == "rlo\\u202egnp.txt"
    assert escape_line("lri\u2066 rlm\u200f alm\u061c") == "lri\\u2066 rlm\\u200f alm\\u061c"
    assert escape_line("para\u2028graph\u2029") == "para\\u2028graph\\u2029"
    assert escape_line("zw\u200dj\u200b") == "zw\\u200dj\\u200b"
    assert escape_line("tag\U000e0041") == "tag\\U000e0041"
    assert escape_line("nb\u00a0sp") == "nb\\xa0sp"
    assert escape_line("back\\slash") == "back\\\\slash"
    assert escape_line("undecodable \udcff byte") == "undecodable \\udcff byte"


def test_printable_text_is_unchanged() -> None:
    for text in ("plain name.txt", "Übersicht – größer.pdf", "数据 notes.md", "emoji 🌋.txt", ""):
        assert escape_line(text) == text
        assert escape_lines(text) == text


def test_lines_keep_newlines_and_tabs_and_escape_the_rest() -> None:
    assert escape_lines("a\tb\nc\x1b[2J\r\n\u202ed") == "a\tb\nc\\x1b[2J\\r\n\\u202ed"


def test_a_streamed_answer_loses_controls_and_overrides_but_keeps_code_and_emoji() -> None:
    answer = "a\x1b[31mb\rc\x9b\u202ed\u2066e\u2069\u2028f = '\\n'\tg \U0001f468\u200d\U0001f469"
    assert printable(answer) == "a[31mbcde\nf = '\\n'\tg \U0001f468\u200d\U0001f469"

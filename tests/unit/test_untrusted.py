"""The terminal rendering rule for untrusted strings.

Two oracles that share no code with the escaper: Python's ``unicode_escape`` codec must decode every
output back to the input (so the escapes are unambiguous), and ``str.isprintable`` (Python's own,
C-implemented view of what a terminal shows as itself) must accept every output line.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from kortty_rag.untrusted import escape_json_text, escape_line, escape_lines

ANY_TEXT = st.text(st.characters(blacklist_categories=()))  # lone surrogates included


def unescape(escaped: str) -> str:
    return escaped.encode("latin-1", "backslashreplace").decode("unicode_escape")


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


@given(ANY_TEXT)
def test_one_line_is_printable_and_decodes_back(text: str) -> None:
    escaped = escape_line(text)
    assert escaped.isprintable()
    assert unescape(escaped) == text


@given(ANY_TEXT)
def test_lines_are_printable_and_decode_back(text: str) -> None:
    escaped = escape_lines(text)
    lines = escaped.split("\n")
    assert len(lines) == text.count("\n") + 1
    assert all(line.replace("\t", "").isprintable() for line in lines)
    assert "\n".join(unescape(line.replace("\t", "\\t")) for line in lines) == text


@given(
    st.recursive(
        ANY_TEXT | st.integers(), lambda inner: st.lists(inner) | st.dictionaries(ANY_TEXT, inner)
    )
)
def test_json_stays_the_same_value_and_becomes_printable(value: object) -> None:
    escaped = escape_json_text(json.dumps(value, indent=2, ensure_ascii=False))
    assert json.loads(escaped) == value
    assert all(line.isprintable() for line in escaped.split("\n"))

"""The terminal rendering rule for untrusted strings, for any string.

Two oracles that share no code with the escaper: Python's ``unicode_escape`` codec must decode every
output back to the input (so the escapes are unambiguous), and ``str.isprintable`` (Python's own,
C-implemented view of what a terminal shows as itself) must accept every output line.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers.reliability import size

from kortty_rag.untrusted import escape_json_text, escape_line, escape_lines

ANY_TEXT = st.text(st.characters(blacklist_categories=()))  # lone surrogates included
JSON_VALUES = st.recursive(
    ANY_TEXT | st.integers(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=8,
)
EXAMPLES = settings(max_examples=size(1000, 100_000), deadline=None)


def unescape(escaped: str) -> str:
    return escaped.encode("latin-1", "backslashreplace").decode("unicode_escape")


@EXAMPLES
@given(ANY_TEXT)
def test_one_line_is_printable_and_decodes_back(text: str) -> None:
    escaped = escape_line(text)
    assert escaped.isprintable()
    assert unescape(escaped) == text


@EXAMPLES
@given(ANY_TEXT)
def test_lines_are_printable_and_decode_back(text: str) -> None:
    escaped = escape_lines(text)
    lines = escaped.split("\n")
    assert len(lines) == text.count("\n") + 1
    assert all(line.replace("\t", "").isprintable() for line in lines)
    assert "\n".join(unescape(line.replace("\t", "\\t")) for line in lines) == text


@EXAMPLES
@given(JSON_VALUES)
def test_json_stays_the_same_value_and_becomes_printable(value: object) -> None:
    escaped = escape_json_text(json.dumps(value, indent=2, ensure_ascii=False))
    assert json.loads(escaped) == value
    assert all(line.isprintable() for line in escaped.split("\n"))

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kortty_rag.extract.text import TextInspector, TextRejected, decode_text


def test_bom_stripped_and_line_endings_normalised() -> None:
    assert decode_text(b"\xef\xbb\xbfa\r\nb\rc\n") == "a\nb\nc\n"


@pytest.mark.parametrize("data", [b"a\x00b", b"\xff", b"x\x01y", b"\xed\xa0\x80"])
def test_rejections(data: bytes) -> None:
    with pytest.raises(TextRejected):
        decode_text(data)


@given(st.text(), st.integers(min_value=1, max_value=7))
def test_inspector_agrees_with_decode(text: str, block: int) -> None:
    data = text.encode("utf-8")
    inspector = TextInspector()
    try:
        expected: str | None = decode_text(data)
    except TextRejected:
        expected = None
    try:
        for i in range(0, len(data), block):
            inspector.feed(data[i : i + block])
        facts = inspector.finish()
    except TextRejected:
        assert expected is None
        return
    assert expected is not None
    assert facts.size == len(data)
    # CRLF split across blocks may count one character more; never fewer
    assert len(expected) <= facts.characters <= len(expected) + data.count(b"\r\n")

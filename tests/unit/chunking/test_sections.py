"""Headings of Markdown, AsciiDoc and reStructuredText cut a document into sections, streaming."""

from __future__ import annotations

from itertools import groupby

from hypothesis import given
from hypothesis import strategies as st

from kortty_rag.chunking.sections import (
    Piece,
    clean_heading,
    plain_title,
    sections,
)
from kortty_rag.text_lines import LONG_LINE


def outline(text: str, fmt: str = "Markdown", block: int = 7) -> list[tuple[tuple[str, ...], str]]:
    """(heading path, section text) per section, the text fed in blocks of ``block`` characters."""
    blocks = [text[i : i + block] for i in range(0, len(text), block)]
    pieces = list(sections(blocks, fmt))
    return [
        (group[0].heading, "".join(p.text for p in group))
        for group in (list(g) for _, g in groupby(pieces, key=lambda p: p.section))
    ]


MARKDOWN = """Intro line.

# Backup notes

Some words.

## Keys

### Rotation

Rotate monthly.

```sh
# not a heading
```

## Tapes
Tapes go off site.

Setext title
------------

Body.
"""


def test_markdown_headings_make_sections_with_paths() -> None:
    found = outline(MARKDOWN)
    assert [path for path, _ in found] == [
        (),
        ("Backup notes",),
        ("Backup notes", "Keys"),
        ("Backup notes", "Keys", "Rotation"),
        ("Backup notes", "Tapes"),
        ("Backup notes", "Setext title"),
    ]
    rotation = dict(found)[("Backup notes", "Keys", "Rotation")]
    assert "# not a heading" in rotation  # fenced code is not a heading
    assert dict(found)[("Backup notes", "Setext title")].startswith("Setext title\n------------\n")


def test_pieces_cover_the_text_exactly_with_offsets() -> None:
    pieces = list(sections([MARKDOWN[i : i + 5] for i in range(0, len(MARKDOWN), 5)], "Markdown"))
    assert "".join(p.text for p in pieces) == MARKDOWN
    assert all(MARKDOWN[p.start : p.start + len(p.text)] == p.text for p in pieces)


def test_asciidoc_and_rst() -> None:
    adoc = "= Manual\n\nHello.\n\n== Install\n\nRun it.\n"
    assert [p for p, _ in outline(adoc, "AsciiDoc")] == [("Manual",), ("Manual", "Install")]
    rst = "=====\nGuide\n=====\n\nText.\n\nUsage\n-----\n\nMore.\n\nDetail\n~~~~~~\n\nEnd.\n"
    assert [p for p, _ in outline(rst, "reStructuredText")][-2:] == [
        ("Guide", "Usage"),
        ("Guide", "Usage", "Detail"),
    ]


def test_front_matter_is_not_a_heading() -> None:
    text = "---\ntitle: x\n---\n# Real\n\nBody\n"
    assert [p for p, _ in outline(text)] == [(), ("Real",)]


def test_heading_markup_is_cleaned() -> None:
    assert clean_heading("The **`retry`** [policy](http://x) _now_") == "The retry policy now"
    assert [p for p, _ in outline("# Title ##\n\nx\n")] == [("Title",)]


def test_plain_title() -> None:
    assert plain_title("Vitamin D and bone density\nWe studied ...") == "Vitamin D and bone density"
    assert plain_title("Vitamin D lowers fracture risk.\nWe studied ...") == (
        "Vitamin D lowers fracture risk."  # a scientific title may end with a full stop
    )
    assert plain_title("This note is about the way we\nrotate keys.") is None  # hard-wrapped
    assert plain_title("only one line") is None
    assert plain_title("We met at noon. Keys were rotated.\nThen ...") is None  # two sentences
    assert plain_title('Was it "safe?" Nobody knew.\nThen ...') is None
    assert plain_title("Effect of vitamin D vs. placebo in 2 trials\nWe ...") == (
        "Effect of vitamin D vs. placebo in 2 trials"  # an abbreviation is no sentence end
    )
    assert plain_title("x" * 301 + "\nmore") is None


@given(st.text(alphabet=st.sampled_from("#=-~ ab\n`"), max_size=300), st.integers(1, 40))
def test_any_text_round_trips(text: str, block: int) -> None:
    for fmt in ("Markdown", "AsciiDoc", "reStructuredText"):
        blocks = [text[i : i + block] for i in range(0, len(text), block)]
        pieces: list[Piece] = list(sections(blocks, fmt))
        assert "".join(p.text for p in pieces) == text
        assert [p.section for p in pieces] == sorted(p.section for p in pieces)
        assert all(text[p.start : p.start + len(p.text)] == p.text for p in pieces)


def test_a_very_long_line_is_read_in_parts() -> None:
    """A document of one huge line holds at most :data:`LONG_LINE` characters of it at a time; the
    rest of the line is body text of the section its start opened (never a heading)."""
    body = "word # not a heading " * (LONG_LINE // 5)
    text = "# Title\n" + body + "\n## Next\nend"
    blocks = [text[i : i + 4096] for i in range(0, len(text), 4096)]
    pieces = list(sections(blocks, "Markdown"))
    assert "".join(p.text for p in pieces) == text
    assert max(len(p.text) for p in pieces) <= LONG_LINE + 4096
    assert [p.start for p in pieces] == [
        sum(len(q.text) for q in pieces[:i]) for i in range(len(pieces))
    ]
    assert {p.heading for p in pieces} == {("Title",), ("Title", "Next")}
    assert outline(text, block=4096)[0] == (("Title",), "# Title\n" + body + "\n")

"""Chunks of structured text stay inside their section and carry its heading path."""

from __future__ import annotations

from kortty_rag.chunking.splitter import make_splitter
from kortty_rag.chunking.structured import document_spans
from kortty_rag.models import with_heading


def words(text: str) -> int:
    return len(text.split())


NOTES = (
    """# Backup notes

How the backups of the file server work.

## Keys

### Rotation

"""
    + "Rotate the backup keys every month and keep the old key for a week. " * 12
    + """

## Tapes

Tapes go off site on Fridays.
"""
)


def spans(text: str, fmt: str, budget: int = 40) -> list:  # type: ignore[type-arg]
    splitter = make_splitter(words, budget, 6)
    blocks = [text[i : i + 11] for i in range(0, len(text), 11)]
    return list(document_spans(splitter, fmt, None, blocks))


def test_markdown_chunks_carry_their_heading_path_and_stay_in_their_section() -> None:
    found = spans(NOTES, "Markdown")
    headings = [s.heading for s in found]
    assert headings[0] == "Backup notes"
    assert "Backup notes / Keys / Rotation" in headings
    assert headings[-1] == "Backup notes / Tapes"
    for span in found:
        assert NOTES[span.start : span.end] == span.text  # offsets are the file's
        if span.heading.endswith("Rotation"):
            assert "Tapes" not in span.text and "# Backup" not in span.text
    rotation = [s for s in found if s.heading.endswith("Rotation")]
    assert len(rotation) > 1  # a long section is cut, every part keeps the path
    for span in found:  # the heading's words are reserved in the budget
        assert words(with_heading(span.heading, span.text)) <= 40


def test_a_plain_text_title_goes_to_every_chunk_after_its_own() -> None:
    text = "Vitamin D and bone density\n" + "We measured bone density in adults. " * 30
    found = spans(text, "Text")
    first, *others = found
    assert first.text.startswith("Vitamin D and bone density\n") and first.heading == ""
    assert others and {s.heading for s in others} == {"Vitamin D and bone density"}
    assert all(words(with_heading(s.heading, s.text)) <= 40 for s in found)


def test_code_and_untitled_text_have_no_heading() -> None:
    assert {s.heading for s in spans("def f():\n    return 1\n" * 30, "Python")} == {""}
    wrapped = "A first sentence that goes\non and on. " + "More words here. " * 30
    assert {s.heading for s in spans(wrapped, "Text")} == {""}  # a hard-wrapped paragraph


def test_an_overlong_heading_keeps_its_last_parts() -> None:
    deep = "# " + "Very long top heading words " * 3 + "\n\n## Short\n\n" + "Body text here. " * 10
    found = spans(deep, "Markdown")
    assert found[-1].heading == "Short"  # the long first part did not fit in a quarter budget


#: outline text as a format reader writes it: ATX headings, escaped body lines that look like one
OUTLINE = (
    "---\n\n# Bericht\n\n## Ergebnisse\n\n"
    + "Die Ernte war gut und der Boden blieb feucht. " * 10
    + "\n\n\\# Nummer eins ist kein Abschnitt\n\nGrenze\n======\n\n```\n\\# auch kein Abschnitt\n\n"
    + "## Ausblick\n\nNächstes Jahr mehr Bohnen.\n"
)


def test_outline_text_of_the_format_readers_is_cut_at_its_own_headings_only() -> None:
    from kortty_rag.chunking.sections import OUTLINE_FORMATS
    from kortty_rag.extract.formats import EXTRACTED, PDF

    assert EXTRACTED - {PDF} == OUTLINE_FORMATS
    for fmt in sorted(OUTLINE_FORMATS):
        found = spans(OUTLINE, fmt)
        headings = {s.heading for s in found}
        # no front matter, no fence, no setext underline, no escaped line: only the ATX headings
        assert headings == {"Bericht / Ergebnisse", "Bericht / Ausblick"}, (fmt, headings)
        assert any("\\# auch kein Abschnitt" in s.text for s in found)
        ausblick = [s for s in found if s.heading == "Bericht / Ausblick"]
        assert ausblick and "Bohnen" in ausblick[-1].text
    # the same text as Markdown: the fence swallows the last heading
    assert "Bericht / Ausblick" not in {s.heading for s in spans(OUTLINE, "Markdown")}

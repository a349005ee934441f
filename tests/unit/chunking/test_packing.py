"""Headings are preferred cut points, not mandatory ones: short sections are packed into one chunk,
a heading without body text never becomes a chunk of its own, a long section is still cut alone."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kortty_rag.chunking.splitter import make_splitter
from kortty_rag.chunking.structured import document_spans
from kortty_rag.models import ChunkSpan, with_heading


def words(text: str) -> int:
    return len(text.split())


def spans(text: str, fmt: str = "Markdown", budget: int = 60) -> list[ChunkSpan]:
    splitter = make_splitter(words, budget, min(8, budget // 2 - 1))
    blocks = [text[i : i + 13] for i in range(0, len(text), 13)]
    return list(document_spans(splitter, fmt, None, blocks))


#: a heading line of Markdown or reST (title, underline or overline), told apart without the product
_HEADING = re.compile(r"^(#{1,6}( .*)?|[=\-~^\"'*+#:.`_<>]{3,})\s*$")


def body_lines(text: str) -> list[str]:
    """Lines of ``text`` that are neither blank nor a heading (for a reST title: the line above an
    underline counts as heading too)."""
    lines = text.splitlines()
    kept = []
    for i, line in enumerate(lines):
        underlined = i + 1 < len(lines) and re.fullmatch(r"[=\-~^]{3,}\s*", lines[i + 1])
        if line.strip() and not _HEADING.match(line) and not underlined:
            kept.append(line)
    return kept


TOMATOES = """---
title: Tomatoes
tags: [vegetables]
---
# Growing Tomatoes

## Watering
Water deeply twice a week, at the roots, never on the leaves.

## Pruning
Pinch out the side shoots of cordon varieties every week.

## Feeding
- Feed with potash once the first flowers appear.
- Stop feeding in September.
"""


def test_short_sections_are_packed_into_one_chunk_with_their_heading_lines() -> None:
    [only] = spans(TOMATOES)
    assert only.text == TOMATOES.rstrip("\n")  # the whole note, every heading line kept
    assert only.heading == "Growing Tomatoes"  # the path its sections share


def test_a_heading_without_body_never_is_a_chunk_of_its_own() -> None:
    found = spans(TOMATOES, budget=20)
    assert len(found) > 1
    for span in found:
        assert body_lines(span.text), span.text  # every chunk carries text besides headings
    watering = next(s for s in found if "Water deeply" in s.text)
    assert watering.heading == "Growing Tomatoes / Watering"  # the empty H1 joined its path
    assert not any(s.text.strip() == "# Growing Tomatoes" for s in found)


def test_a_long_section_is_cut_on_its_own_and_its_neighbours_are_packed() -> None:
    text = (
        "# Roses\n\n## Planting\nPlant bare-root roses in November.\n\n## Pruning\n"
        + "Cut back to an outward-facing bud and remove dead wood. " * 12
        + "\n\n## Pests\nAphids: spray with soapy water.\n\n## Feeding\nFeed in spring.\n"
    )
    found = spans(text, budget=40)
    pruning = [s for s in found if s.heading == "Roses / Pruning"]
    assert len(pruning) > 1  # cut, every part with its path
    assert all("Aphids" not in s.text and "bare-root" not in s.text for s in pruning)
    tail = found[-1]
    assert "Aphids" in tail.text and "Feed in spring" in tail.text  # packed after the long one
    assert tail.heading == "Roses"
    first = found[0]
    assert "bare-root" in first.text and "Cut back" not in first.text
    for span in found:
        assert text[span.start : span.end] == span.text  # offsets are the file's
        assert words(with_heading(span.heading, span.text)) <= 40


def test_a_note_of_headings_only_is_still_indexed_once() -> None:
    text = "# Ideas\n\n## Later\n\n## Maybe\n"
    [only] = spans(text)
    assert "Ideas" in only.text and "Maybe" in only.text


def test_restructuredtext_sections_are_packed_too() -> None:
    text = (
        "=====\nGuide\n=====\n\nInstall\n-------\n\nRun the installer.\n\n"
        "Configure\n---------\n\nEdit the file.\n"
    )
    [only] = spans(text, "reStructuredText")
    assert only.heading == "Guide" and "Run the installer." in only.text
    assert "Edit the file." in only.text


def test_packing_is_deterministic_and_independent_of_block_sizes() -> None:
    splitter = make_splitter(words, 20, 4)
    whole = list(document_spans(splitter, "Markdown", None, [TOMATOES]))
    for size in (1, 7, 64):
        blocks = [TOMATOES[i : i + size] for i in range(0, len(TOMATOES), size)]
        assert list(document_spans(splitter, "Markdown", None, blocks)) == whole


_SECTION = st.tuples(
    st.integers(1, 3),
    st.sampled_from(["Soil", "Water", "Light", "Frost", "Seeds"]),
    st.lists(st.sampled_from(["Dig deep.", "Mulch well.", "Sow thinly in rows."]), max_size=12),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(_SECTION, min_size=1, max_size=12), st.integers(24, 80))
def test_every_body_line_is_in_a_chunk_and_no_chunk_is_only_headings(
    sections: list[tuple[int, str, list[str]]], budget: int
) -> None:
    text = "".join(
        f"{'#' * level} {title}\n\n" + ("".join(f"{s} " for s in body) + "\n\n" if body else "")
        for level, title, body in sections
    )
    found = spans(text, budget=budget)
    has_body = bool(body_lines(text))
    covered = "".join(text[s.start : s.end] + "\n" for s in found)
    for line in body_lines(text):
        for sentence in line.split(". "):
            assert sentence.strip(" .") in covered
    for span in found:
        assert text[span.start : span.end] == span.text
        assert words(with_heading(span.heading, span.text)) <= budget
        if has_body:
            assert body_lines(span.text), span.text


def test_a_scrap_before_a_long_section_leads_it_instead_of_being_a_chunk() -> None:
    text = ".. _faq:\n\n===\nFAQ\n===\n\n" + "Answers to the questions people ask most. " * 20
    found = spans(text, "reStructuredText", budget=40)
    assert found[0].text.startswith(".. _faq:\n\n===\nFAQ\n===")  # no chunk of the target alone
    assert all(s.heading == "FAQ" for s in found)
    assert all("Answers" in s.text for s in found)

"""The review's chunk estimate is counted by the chunker itself, within a budget of characters;
beyond it, from the chunks per character counted in the same format."""

from __future__ import annotations

from collections.abc import Iterator

from kortty_rag.chunking.estimate import ChunkCounter, estimated_chunks
from kortty_rag.chunking.splitter import make_splitter
from kortty_rag.chunking.structured import document_spans


def words(text: str) -> int:
    return len(text.split())


NOTE = "# Basil\n\n## Sowing\nSow indoors in April.\n\n## Harvest\nPick the tips often.\n"
LONG = "The hedge needs cutting twice a year, in May and in August. " * 40


def test_counted_chunks_are_the_chunkers_own() -> None:
    splitter = make_splitter(words, 40, 6)
    counter = ChunkCounter(splitter)
    for fmt, text in (("Markdown", NOTE), ("Text", LONG), ("Markdown", NOTE * 6)):
        made = len(list(document_spans(splitter, fmt, None, [text])))
        assert counter.chunks(fmt, len(text), [(None, [text])]) == made
    # a note of short sections is one chunk, which characters per token could not know
    assert counter.chunks("Markdown", len(NOTE), [(None, [NOTE])]) == 1
    assert counter.chunks("Markdown", 0, []) == 0


def test_beyond_its_budget_the_counter_goes_on_from_what_it_counted() -> None:
    splitter = make_splitter(words, 40, 6)
    counter = ChunkCounter(splitter, exact_characters=len(LONG) * 30)
    made = len(list(document_spans(splitter, "Text", None, [LONG])))
    for _ in range(30):
        assert counter.chunks("Text", len(LONG), [(None, [LONG])]) == made

    def unread() -> Iterator[tuple[None, list[str]]]:
        raise AssertionError("read although the budget was spent")
        yield  # a generator: it fails only when read

    assert counter.chunks("Text", len(LONG) * 2, unread()) == 2 * made  # the ratio counted
    nominal = estimated_chunks(len(NOTE), 40, 6)
    assert counter.chunks("Markdown", len(NOTE), unread()) == nominal  # no Markdown counted yet

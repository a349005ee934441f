"""A document's chunks with their headings: sections first for structured text, then the splitter.

Markdown, AsciiDoc and reStructuredText are cut at their headings (:mod:`kortty_rag.chunking.sections`)
and every section is chunked on its own, each chunk carrying its heading path (``Keys / Rotation``).
A plain text whose first line is a short title gives that title to every chunk after the one that
holds it. The heading is embedded and indexed with the chunk (:func:`kortty_rag.models.with_heading`),
so its tokens are reserved in the chunk's budget; a heading longer than a quarter of the budget keeps
its last parts.
Other formats (code, data, PDF pages) are chunked as they are, without a heading.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator

from kortty_rag.chunking.sections import plain_title, sections
from kortty_rag.chunking.splitter import Splitter
from kortty_rag.models import HEADING_SEPARATOR, ChunkSpan

STRUCTURED_FORMATS = frozenset({"Markdown", "AsciiDoc", "reStructuredText"})
TITLED_FORMATS = frozenset({"Text"})
#: characters read ahead at most to find a plain text's first line
_TITLE_LOOKAHEAD = 4096


def _fitting(splitter: Splitter, parts: tuple[str, ...]) -> tuple[str, int]:
    """The heading joined from ``parts`` (dropping the first ones while it is too long) and the
    tokens it takes in front of a chunk."""
    limit = max(1, splitter.params.budget // 4)
    while parts:
        heading = HEADING_SEPARATOR.join(parts)
        tokens = splitter.counter.count_tokens(heading + "\n\n")
        if tokens <= limit:
            return heading, tokens
        if len(parts) == 1:
            return "", 0
        parts = parts[1:]
    return "", 0


def _with(spans: Iterable[ChunkSpan], heading: str, after: int = -1) -> Iterator[ChunkSpan]:
    """``spans``, those that start after offset ``after`` carrying ``heading``."""
    for span in spans:
        yield dataclasses.replace(span, heading=heading) if heading and span.start > after else span


def document_spans(
    splitter: Splitter, fmt: str, page: int | None, blocks: Iterable[str]
) -> Iterator[ChunkSpan]:
    """The chunks of one segment of a document (a whole file, or one PDF page), in order."""
    if fmt in STRUCTURED_FORMATS:
        for _, group in itertools.groupby(sections(blocks, fmt), key=lambda p: p.section):
            first = next(group)
            heading, tokens = _fitting(splitter, first.heading)
            texts = itertools.chain([first.text], (p.text for p in group))  # noqa: B031 (once)
            part = splitter.reserving(tokens)
            yield from _with(part.stream(texts, page, offset=first.start), heading)
        return
    if fmt in TITLED_FORMATS:
        stream = iter(blocks)
        head = ""
        for block in stream:  # enough text to see the first line and what follows it
            head += block
            _, newline, rest = head.partition("\n")
            if (newline and rest.strip()) or len(head) > _TITLE_LOOKAHEAD:
                break
        title = plain_title(head)
        heading, tokens = _fitting(splitter, (title,)) if title else ("", 0)
        texts = itertools.chain([head], stream)
        # the chunk that holds the title line needs no copy of it in front
        yield from _with(splitter.reserving(tokens).stream(texts, page), heading, head.find("\n"))
        return
    yield from splitter.stream(blocks, page)

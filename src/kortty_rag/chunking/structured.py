"""A document's chunks with their headings: sections first for structured text, then the splitter.

Markdown, AsciiDoc, reStructuredText and the outline text of the format readers (HTML, office
documents, EPUB, RTF) are read as sections (:mod:`kortty_rag.chunking.sections`).
Headings are preferred cut points, not mandatory ones (docs/DESIGN.md §9):

* a section without body text (a heading followed at once by the next heading) never becomes a
  chunk of its own: its heading line goes with the section that follows;
* consecutive short sections are packed into one chunk while it stays within the budget, each
  keeping its heading line in the text; the chunk carries the heading path they share (``Keys``
  for ``Keys / Rotation`` and ``Keys / Expiry``);
* a section longer than the budget is cut on its own, every part carrying its heading path
  (``Keys / Rotation``); what little text comes before it (a link target, a line of at most an
  eighth of the budget) leads its first chunk instead of being a chunk of its own.

A plain text whose first line is a short title gives that title to every chunk after the one that
holds it. The heading is embedded and indexed with the chunk (:func:`kortty_rag.models.with_heading`),
so its tokens are reserved in the chunk's budget; a heading longer than a quarter of the budget keeps
its last parts.
Other formats (code, data, PDF pages) are chunked as they are, without a heading. A Markdown note's
links are rendered as their labels first (:mod:`kortty_rag.notes.reader`).

Memory stays bounded whatever the document's size: a section is read until it is known to be long
(:data:`_LONG_CHARACTERS_PER_TOKEN` characters per token of the budget), and a packed group holds at
most one chunk's text.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from kortty_rag.chunking.sections import OUTLINE_FORMATS, Piece, plain_title, sections
from kortty_rag.chunking.splitter import Splitter
from kortty_rag.models import HEADING_SEPARATOR, ChunkSpan
from kortty_rag.notes.reader import NoteReader
from kortty_rag.notes.resolve import NOTE_FORMATS

STRUCTURED_FORMATS = frozenset({"Markdown", "AsciiDoc", "reStructuredText", *OUTLINE_FORMATS})
TITLED_FORMATS = frozenset({"Text"})
#: characters read ahead at most to find a plain text's first line
_TITLE_LOOKAHEAD = 4096
#: a section of more characters than this many per token of the budget is long without counting
#: (no tokenizer makes tokens that long on average); a shorter one is counted exactly
_LONG_CHARACTERS_PER_TOKEN = 16
#: a group of at most this share of the budget (1/8) is no chunk of its own before a long section
_TINY = 8
#: tokens kept free when sections are packed: counts of parts can differ from the count of the
#: joined text by a token or two, and a packed group must stay one chunk
_PACKING_MARGIN = 2


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
    splitter: Splitter,
    fmt: str,
    page: int | None,
    blocks: Iterable[str],
    note: NoteReader | None = None,
) -> Iterator[ChunkSpan]:
    """The chunks of one segment of a document (a whole file, or one PDF page), in order. A
    Markdown note is read through ``note`` (a fresh :class:`NoteReader` when none is given): its
    links become their labels, and the reader keeps what the note says about itself."""
    if fmt in NOTE_FORMATS:
        blocks = (note or NoteReader()).blocks(blocks)
    if fmt in STRUCTURED_FORMATS:
        yield from _Packer(splitter, page).spans(sections(blocks, fmt))
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


@dataclass
class _Section:
    """A section read whole (short enough to be counted) or in part (long: the rest follows)."""

    heading: tuple[str, ...]
    start: int
    texts: list[str]
    body: bool  # any text besides its heading lines
    tokens: int | None  # exact tokens of its text; None for a long section


def _shared(paths: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """The longest heading path that starts every one of ``paths``."""
    shared: tuple[str, ...] | None = None
    for path in paths:
        if shared is None:
            shared = path
            continue
        n = 0
        while n < min(len(shared), len(path)) and shared[n] == path[n]:
            n += 1
        shared = shared[:n]
    return shared or ()


class _Packer:
    """Sections to chunks: short ones packed, bodiless ones carried forward, long ones cut."""

    def __init__(self, splitter: Splitter, page: int | None) -> None:
        self.splitter = splitter
        self.page = page
        self.budget = splitter.params.budget
        self.long = self.budget * _LONG_CHARACTERS_PER_TOKEN
        self.group: list[_Section] = []  # short sections packed so far (at least one with body)
        self.pending: list[_Section] = []  # bodiless sections waiting for what follows
        self.made = 0

    def spans(self, pieces: Iterable[Piece]) -> Iterator[ChunkSpan]:
        for _, run in itertools.groupby(pieces, key=lambda p: p.section):
            section, rest = self._read(run)
            if rest is None and not section.body:
                self.pending.append(section)
                if len(self.pending) > 1 and self._tokens(self.pending) > self.budget // 4:
                    yield from self._flush()  # what stays must follow the group without a gap
                while len(self.pending) > 1 and self._tokens(self.pending) > self.budget // 4:
                    del self.pending[0]  # a run of empty headings: the nearest ones lead on
                continue
            if rest is None and not self._fits(section):
                yield from self._flush()  # the group is full: the section starts the next one
                while self.pending and not self._fits(section):
                    del self.pending[0]
            if rest is None:
                self._add(section)
                continue
            if self.group and self._tokens(self.group + self.pending) <= self.budget // _TINY:
                # a scrap before a long section (a link target, one line): it leads that section
                self.group, self.pending = [], self.group + self.pending
            yield from self._flush()
            yield from self._long(section, rest)
        if self.pending and self.group and self._fits_pending():
            self.group += self.pending
            self.pending = []
        yield from self._flush()
        if self.pending and not self.made:  # a document of headings only: they are its text
            self.group, self.pending = self.pending, []
            yield from self._flush()

    def _read(self, run: Iterator[Piece]) -> tuple[_Section, Iterator[Piece] | None]:
        """The section of ``run``, read until it ends or is known to be long (then the pieces not
        read yet come with it)."""
        first = next(run)
        section = _Section(first.heading, first.start, [], False, None)
        characters = 0
        for piece in itertools.chain([first], run):
            section.texts.append(piece.text)
            section.body = section.body or (not piece.heading_line and bool(piece.text.strip()))
            characters += len(piece.text)
            if characters > self.long:
                section.body = True
                return section, run
        tokens = self.splitter.counter.count_tokens("".join(section.texts))
        if tokens + self._heading_tokens([section]) + _PACKING_MARGIN > self.budget:
            return section, iter(())
        section.tokens = tokens
        return section, None

    def _heading_tokens(self, sections: list[_Section]) -> int:
        return _fitting(self.splitter, self._path(sections))[1]

    @staticmethod
    def _path(sections: list[_Section]) -> tuple[str, ...]:
        """The heading path the sections with body share (text before the first heading, such as
        front matter, has none and does not count)."""
        with_body = [s.heading for s in sections if s.body and s.heading]
        return _shared(with_body or [s.heading for s in sections])

    @staticmethod
    def _tokens(sections: list[_Section]) -> int:
        return sum(s.tokens or 0 for s in sections)

    def _total(self, sections: list[_Section]) -> int:
        return self._tokens(sections) + self._heading_tokens(sections) + _PACKING_MARGIN

    def _fits(self, section: _Section) -> bool:
        return self._total([*self.group, *self.pending, section]) <= self.budget

    def _fits_pending(self) -> bool:
        return self._total(self.group + self.pending) <= self.budget

    def _add(self, section: _Section) -> None:
        self.group += [*self.pending, section]
        self.pending = []

    def _flush(self) -> Iterator[ChunkSpan]:
        if not self.group:
            return
        group, self.group = self.group, []
        heading, tokens = _fitting(self.splitter, self._path(group))
        texts = [text for section in group for text in section.texts]
        part = self.splitter.reserving(tokens)
        for span in _with(part.stream(texts, self.page, offset=group[0].start), heading):
            self.made += 1
            yield span

    def _long(self, section: _Section, rest: Iterator[Piece] | None) -> Iterator[ChunkSpan]:
        """A section cut on its own, after the headings waiting for it."""
        before, self.pending = self.pending, []
        heading, tokens = _fitting(self.splitter, section.heading)
        texts = itertools.chain(
            (text for s in before for text in s.texts),
            section.texts,
            (p.text for p in rest or ()),
        )
        start = before[0].start if before else section.start
        part = self.splitter.reserving(tokens)
        for span in _with(part.stream(texts, self.page, offset=start), heading):
            self.made += 1
            yield span

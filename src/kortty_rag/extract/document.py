"""One entry point for indexing: the reviewed bytes of a file as text segments (one per PDF page or
presentation slide).

:func:`open_document` is what indexing uses: a text file is read, checked and decoded in blocks of
1 MiB as the chunker asks for them, so no document is ever held whole; a PDF's pages and the text of
the other documents read by a format reader (HTML, DOCX, ODT, EPUB, PPTX, RTF) come from the isolated
worker (bounded by the file's character limit, ``kortty_rag.extract.limits``).
:func:`extract_file` returns a whole document at once (small files, tests).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

from kortty_rag.errors import ExtractionError
from kortty_rag.extract.formats import is_extracted, is_paged
from kortty_rag.extract.pdf import CHANGED_SINCE_REVIEW, PdfExtractor
from kortty_rag.extract.safe_open import NotRegularFile, open_regular_file, read_regular_file
from kortty_rag.extract.text import TextRejected, TextStream, decode_text
from kortty_rag.messages import msg

#: bytes read (and characters handed on) at a time
BLOCK = 1 << 20


@dataclass(frozen=True)
class Segment:
    """Text of a whole document (``page`` None) or of one PDF page or slide (1-based)."""

    page: int | None
    text: str


@dataclass(frozen=True)
class ExtractedText:
    segments: tuple[Segment, ...]
    sha256: str

    @property
    def characters(self) -> int:
        return sum(len(s.text) for s in self.segments)


@dataclass(frozen=True)
class StreamedSegment:
    """One segment of a document (a whole text file, or one PDF page) as blocks of text."""

    page: int | None
    #: close it when stopping early (it may hold the file open)
    blocks: Generator[str, None, None]


@dataclass(frozen=True)
class OpenedDocument:
    segments: tuple[StreamedSegment, ...]
    #: PDF pages or slides (None for a document without pages)
    pages: int | None


def open_document(
    path: Path,
    fmt: str,
    *,
    size_limit: int,
    expected_sha256: str,
    pdf: PdfExtractor,
    cache: ExtractionCache | None = None,
) -> OpenedDocument:
    """The reviewed content of ``path`` as segments of text blocks.

    A text file is read while its blocks are consumed; a file that changed since the review (or grew
    beyond its limit) raises :class:`ExtractionError` from the block iterator, at the latest after
    its last block, so a caller keeps nothing of it until the iterator is exhausted.
    """
    if is_extracted(fmt):
        extracted = extract_file(
            path,
            fmt,
            size_limit=size_limit,
            expected_sha256=expected_sha256,
            pdf=pdf,
            cache=cache,
        )
        segments = tuple(StreamedSegment(s.page, _once(s.text)) for s in extracted.segments)
        return OpenedDocument(segments, len(segments) if is_paged(fmt) else None)
    return OpenedDocument(
        (StreamedSegment(None, _text_blocks(path, size_limit, expected_sha256)),), None
    )


def _unreadable(path: Path, exc: OSError) -> ExtractionError:
    """Why a file could not be opened: not a regular file (a FIFO, a device, a link swapped in),
    or the system's reason."""
    if isinstance(exc, NotRegularFile):
        return ExtractionError(path, msg("not a regular file ({error})", error=exc.strerror))
    return ExtractionError(path, msg("cannot read file ({error})", error=exc.strerror or str(exc)))


def _once(text: str) -> Generator[str, None, None]:
    yield text


def _text_blocks(path: Path, size_limit: int, expected_sha256: str) -> Generator[str, None, None]:
    try:
        fd, _ = open_regular_file(path)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    stream = TextStream()
    rejected: str | None = None
    read = 0
    try:
        while True:
            try:
                block = os.read(fd, BLOCK)
            except OSError as exc:
                raise ExtractionError(
                    path, msg("cannot read file ({error})", error=exc.strerror or str(exc))
                ) from None
            read += len(block)
            if read > size_limit:
                raise ExtractionError(path, msg("larger than its size limit"))
            if rejected is not None:
                stream.hash_only(block)  # a changed file is reported as changed, not as bad text
            else:
                try:
                    text = stream.decode(block, final=not block)
                except TextRejected as exc:
                    rejected = exc.reason
                    stream.hash_only(block)
                else:
                    if text:
                        yield text
            if not block:
                break
    finally:
        os.close(fd)
    if stream.facts().sha256 != expected_sha256:
        raise ExtractionError(path, CHANGED_SINCE_REVIEW)
    if rejected is not None:
        raise ExtractionError(path, rejected)


def extract_file(
    path: Path,
    fmt: str,
    *,
    size_limit: int,
    expected_sha256: str | None,
    pdf: PdfExtractor,
    cache: ExtractionCache | None = None,
) -> ExtractedText:
    """Extract ``path``; with ``expected_sha256`` a file that changed since the review is refused."""
    if is_extracted(fmt):
        pages = cache.get(expected_sha256) if cache is not None and expected_sha256 else None
        if pages is not None and _read_digest(path, size_limit) == expected_sha256:
            sha256 = expected_sha256
        else:
            pdf_text = pdf.extract(path, size_limit, expected_sha256, fmt)
            pages, sha256 = pdf_text.pages, pdf_text.sha256
        paged = is_paged(fmt)
        segments = tuple(
            Segment(n if paged else None, text) for n, text in enumerate(pages, start=1)
        )
        return ExtractedText(segments, sha256 or "")
    data = _read(path, size_limit)
    digest = hashlib.sha256(data).hexdigest()
    if expected_sha256 is not None and digest != expected_sha256:
        raise ExtractionError(path, CHANGED_SINCE_REVIEW)
    try:
        text = decode_text(data)
    except TextRejected as exc:
        raise ExtractionError(path, exc.reason) from None
    return ExtractedText((Segment(None, text),), digest)


def _read_digest(path: Path, size_limit: int) -> str:
    return hashlib.sha256(_read(path, size_limit)).hexdigest()


def _read(path: Path, size_limit: int) -> bytes:
    try:
        data, _ = read_regular_file(path, size_limit)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    if len(data) > size_limit:
        raise ExtractionError(path, msg("larger than its size limit"))
    return data


class ExtractionCache:
    """Page texts of extracted documents (PDFs, office documents …) from the scan, keyed by content
    hash, so indexing does not parse a document twice.

    Bounded by characters; when full, later documents are simply extracted again during indexing.
    """

    def __init__(self, max_characters: int = 32 * 1024 * 1024) -> None:
        self.max_characters = max_characters
        self._items: dict[str, tuple[str, ...]] = {}
        self._characters = 0

    def put(self, sha256: str, pages: tuple[str, ...]) -> None:
        size = sum(len(p) for p in pages)
        if sha256 in self._items or self._characters + size > self.max_characters:
            return
        self._items[sha256] = pages
        self._characters += size

    def get(self, sha256: str) -> tuple[str, ...] | None:
        return self._items.get(sha256)

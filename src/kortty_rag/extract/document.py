"""One entry point for indexing: the reviewed bytes of a file as text segments (one per PDF page)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from kortty_rag.errors import ExtractionError
from kortty_rag.extract.pdf import CHANGED_SINCE_REVIEW, PdfExtractor
from kortty_rag.extract.safe_open import NotRegularFile, read_regular_file
from kortty_rag.extract.text import TextRejected, decode_text
from kortty_rag.sources.formats import is_pdf


@dataclass(frozen=True)
class Segment:
    """Text of a whole text file (``page`` None) or of one PDF page (1-based)."""

    page: int | None
    text: str


@dataclass(frozen=True)
class ExtractedText:
    segments: tuple[Segment, ...]
    sha256: str

    @property
    def characters(self) -> int:
        return sum(len(s.text) for s in self.segments)


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
    if is_pdf(fmt):
        pages = cache.get(expected_sha256) if cache is not None and expected_sha256 else None
        if pages is not None and _read_digest(path, size_limit) == expected_sha256:
            sha256 = expected_sha256
        else:
            pdf_text = pdf.extract(path, size_limit, expected_sha256)
            pages, sha256 = pdf_text.pages, pdf_text.sha256
        segments = tuple(Segment(n, text) for n, text in enumerate(pages, start=1))
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
    except NotRegularFile as exc:
        raise ExtractionError(path, f"not a regular file ({exc.strerror})") from None
    except OSError as exc:
        raise ExtractionError(path, f"cannot read file ({exc.strerror or exc})") from None
    if len(data) > size_limit:
        raise ExtractionError(path, "larger than its size limit")
    return data


class ExtractionCache:
    """PDF page texts from the scan, keyed by content hash, so indexing does not parse a PDF twice.

    Bounded by characters; when full, later PDFs are simply extracted again during indexing.
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

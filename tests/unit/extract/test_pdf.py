"""PDF extraction in the isolated worker: pages kept, bad PDFs skipped with one reason, limits hold."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from tests.helpers.pdfs import (
    compression_bomb_pdf,
    encrypted_pdf,
    image_only_pdf,
    malformed_pdf,
    text_pdf,
)

from kortty_rag.errors import ExtractionError
from kortty_rag.extract.document import ExtractionCache, extract_file
from kortty_rag.extract.pdf import CHANGED_SINCE_REVIEW, PdfExtractor, PdfLimits
from kortty_rag.models import MiB

LIMIT = 50 * MiB


def test_pages_are_kept(tmp_path: Path) -> None:
    path = text_pdf(tmp_path / "a.pdf", ["First page about apples.", "Second page about pears."])
    with PdfExtractor() as pdf:
        result = pdf.extract(path, LIMIT)
    assert len(result.pages) == 2
    assert "apples" in result.pages[0] and "pears" in result.pages[1]


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: encrypted_pdf(p, ["hidden"]), "password-protected PDF"),
        (image_only_pdf, "no extractable text"),
        (malformed_pdf, "PDF"),
    ],
)
def test_unusable_pdfs_are_skipped_with_a_reason(tmp_path: Path, make: object, reason: str) -> None:
    path = make(tmp_path / "x.pdf")  # type: ignore[operator]
    with PdfExtractor() as pdf, pytest.raises(ExtractionError) as info:
        pdf.extract(path, LIMIT)
    assert reason in info.value.reason


def test_encrypted_with_empty_user_password_is_readable(tmp_path: Path) -> None:
    path = encrypted_pdf(tmp_path / "x.pdf", ["owner-locked but openable"], user_password="")
    with PdfExtractor() as pdf:
        assert "openable" in pdf.extract(path, LIMIT).pages[0]


def test_time_limit_stops_the_worker_and_the_next_file_works(tmp_path: Path) -> None:
    bomb = compression_bomb_pdf(tmp_path / "bomb.pdf", expanded_mib=64)
    good = text_pdf(tmp_path / "good.pdf", ["still fine"])
    with PdfExtractor(PdfLimits(timeout_seconds=0.05)) as pdf:
        started = time.monotonic()
        with pytest.raises(ExtractionError, match="took longer than"):
            pdf.extract(bomb, LIMIT)
        assert time.monotonic() - started < 5
    with PdfExtractor() as pdf:
        assert "still fine" in pdf.extract(good, LIMIT).pages[0]


def test_memory_limit_contains_a_decompression_bomb(tmp_path: Path) -> None:
    bomb = compression_bomb_pdf(tmp_path / "bomb.pdf", expanded_mib=512)
    with PdfExtractor(PdfLimits(timeout_seconds=120, memory_bytes=300 * MiB)) as pdf:
        try:
            pages = pdf.extract(bomb, LIMIT).pages
        except ExtractionError as exc:
            assert "PDF" in exc.reason  # crashed, memory or no text: skipped with a reason
        else:
            pytest.fail(f"a page of spaces has no text, got {len(pages)} pages")


def test_worker_never_opens_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.pdf")
    with PdfExtractor(PdfLimits(timeout_seconds=10)) as pdf, pytest.raises(ExtractionError) as info:
        pdf.extract(tmp_path / "x.pdf", LIMIT)
    assert "not a regular file" in info.value.reason


def test_changed_after_review_is_refused(tmp_path: Path) -> None:
    path = text_pdf(tmp_path / "a.pdf", ["original"])
    with PdfExtractor() as pdf, pytest.raises(ExtractionError) as info:
        pdf.extract(path, LIMIT, expected_sha256="0" * 64)
    assert info.value.reason == CHANGED_SINCE_REVIEW


def test_extract_file_uses_the_scan_cache(tmp_path: Path) -> None:
    import hashlib

    path = text_pdf(tmp_path / "a.pdf", ["cached page"])
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    cache = ExtractionCache()
    cache.put(digest, ("from the cache",))

    class NoWorker(PdfExtractor):
        def extract(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            raise AssertionError("the worker must not be asked")

    result = extract_file(
        path, "PDF", size_limit=LIMIT, expected_sha256=digest, pdf=NoWorker(), cache=cache
    )
    assert [s.page for s in result.segments] == [1]
    assert result.segments[0].text == "from the cache"

"""One document cannot take unbounded memory or time (issue 10, finding 4): text streams in blocks
with exactly the whole-file decoding, a PDF that expands past its character limit is skipped with
that reason in the review, the review shows text size and estimates, and progress counts chunks."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers.fakes import HashEmbedder
from tests.helpers.pdfs import EXPANSION, expanding_pdf, text_pdf

from kortty_rag.cli.render import review_table
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import ExtractionError
from kortty_rag.extract.document import BLOCK, open_document
from kortty_rag.extract.limits import PDF_MIN_CHARACTERS
from kortty_rag.extract.pdf import CHANGED_SINCE_REVIEW, PdfExtractor
from kortty_rag.extract.text import TextRejected, TextStream, decode_text
from kortty_rag.models import FileStatus, MiB, SourceOptions
from kortty_rag.progress import RecordingProgress
from kortty_rag.sync.session import StoreSession


def _streamed(data: bytes, cuts: list[int]) -> str:
    stream = TextStream()
    parts, last = [], 0
    for cut in [*sorted(set(cuts)), len(data)]:
        parts.append(stream.decode(data[last:cut]))
        last = cut
    parts.append(stream.decode(b"", final=True))
    return "".join(parts)


_TEXTY = st.lists(
    st.sampled_from(
        [b"a", b"\r", b"\n", b"\r\n", b"\xef\xbb\xbf", "é".encode(), "日".encode(), b" "]
    ),
    max_size=60,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(data=_TEXTY, cuts=st.lists(st.integers(0, 200), max_size=8))
def test_text_decoded_in_blocks_equals_the_whole_file_decoding(
    data: bytes, cuts: list[int]
) -> None:
    """BOM, CR, LF and multi-byte characters split anywhere between blocks (the oracle is the
    whole-file ``decode_text``)."""
    try:
        whole: str | None = decode_text(data)
    except TextRejected:
        whole = None
    try:
        streamed: str | None = _streamed(data, [c for c in cuts if c <= len(data)])
    except TextRejected:
        streamed = None
    assert streamed == whole


def _embedded_text(path: Path, sha256: str, pdf: PdfExtractor) -> str:
    document = open_document(path, "txt", size_limit=50 * MiB, expected_sha256=sha256, pdf=pdf)
    (segment,) = document.segments
    return "".join(segment.blocks)


def test_a_file_changed_into_binary_midway_is_reported_as_changed(tmp_path: Path) -> None:
    """Streaming finds the change only at the end; the reason is still "changed", never the new
    content's problem, so its previous version stays."""
    import hashlib

    path = tmp_path / "big.txt"
    reviewed = b"word " * (BLOCK // 2)
    path.write_bytes(reviewed)
    sha = hashlib.sha256(reviewed).hexdigest()
    with PdfExtractor() as pdf:
        assert _embedded_text(path, sha, pdf) == reviewed.decode()
        path.write_bytes(reviewed[: BLOCK + 7] + b"\x00" + reviewed[BLOCK + 8 :])
        with pytest.raises(ExtractionError) as caught:
            _embedded_text(path, sha, pdf)
    assert caught.value.reason == CHANGED_SINCE_REVIEW


def test_a_changed_large_file_keeps_its_previous_version(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    big = docs / "big.txt"
    big.write_text("first version " * 200_000)  # 2.8 MB: several blocks
    embedder = HashEmbedder(record=False)
    registry = StoreRegistry()
    store = registry.create("C", embedder.identity)
    with StoreSession(store, registry=registry) as job:
        job.apply(job.review_new_sources([docs]), embedder)
        big.write_text("second version " * 200_000)
        review = job.review_refresh()
        big.write_text("third version! " * 200_000)  # same size, changed after the review
        summary = job.apply(review, embedder)
        (document,) = job.vectors.documents()
    assert summary.indexed == 0
    assert summary.sources[0].failed == [(str(big), CHANGED_SINCE_REVIEW)]
    assert document.sha256 == job_sha(b"first version " * 200_000)


def job_sha(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def test_an_expanding_pdf_is_skipped_in_the_review_with_the_character_limit(tmp_path: Path) -> None:
    """The security review's 1.1 KiB PDF whose font map turns each byte into 256 characters (51.2 M
    in all) showed as "index"; it is skipped, and the worker stopped near the limit."""
    docs = tmp_path / "docs"
    docs.mkdir()
    expanding_pdf(docs / "tiny.pdf")
    text_pdf(docs / "normal.pdf", ["A normal page of text about rivers."])
    assert (docs / "tiny.pdf").stat().st_size < 2048
    embedder = HashEmbedder(record=False)
    registry = StoreRegistry()
    store = registry.create("X", embedder.identity)
    with StoreSession(store, registry=registry) as job:
        review = job.review_new_sources([docs])
        rows = {Path(r.path).name: r for r in review.rows}
        assert rows["normal.pdf"].status is FileStatus.INDEX
        tiny = rows["tiny.pdf"]
        assert tiny.status is FileStatus.SKIPPED
        assert tiny.reason.startswith("too much text: more than 1.0 Mi characters from 1.")
        summary = job.apply(review, embedder)
    assert summary.indexed == 1


def test_an_expanding_pdf_below_the_limit_is_indexed_and_shown_as_long(tmp_path: Path) -> None:
    """A PDF that expands but stays within its limit is indexed; the review shows its text size."""
    docs = tmp_path / "docs"
    docs.mkdir()
    codes = PDF_MIN_CHARACTERS // len(EXPANSION) - 1
    expanding_pdf(docs / "dense.pdf", codes)
    embedder = HashEmbedder(record=False)
    registry = StoreRegistry()
    with StoreSession(registry.create("D", embedder.identity), registry=registry) as job:
        review = job.review_new_sources([docs])
    (row,) = review.rows
    assert row.status is FileStatus.INDEX and row.characters == codes * len(EXPANSION)
    assert row.text_size == "1.0 M chars"
    assert row.estimated_chunks > 1000


def test_review_shows_text_size_and_the_estimate_of_long_documents(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    rng = random.Random(3)
    (docs / "long.txt").write_text(
        " ".join(rng.choice(["alpha", "beta", "gamma"]) for _ in range(400_000))
    )
    (docs / "short.txt").write_text("a short note")
    embedder = HashEmbedder(dims=8, chunk_tokens=256, record=False)
    registry = StoreRegistry()
    with StoreSession(registry.create("E", embedder.identity), registry=registry) as job:
        review = job.review_new_sources([docs])
    rows = {Path(r.path).name: r for r in review.rows}
    long, short = rows["long.txt"], rows["short.txt"]
    assert long.characters == (docs / "long.txt").stat().st_size
    assert long.long_to_embed and not short.long_to_embed
    shown = f"{long.characters / 1e6:.1f} M chars"
    assert long.shown_reason.startswith(f"new — {shown}, about ")
    assert "chunks, about " in long.shown_reason and long.shown_reason.endswith(" to embed")
    assert short.shown_reason == "new"
    out = io.StringIO()
    review_table(review.rows, out)
    header, *lines = out.getvalue().splitlines()
    assert header.split() == ["STATUS", "FORMAT", "SIZE", "TEXT", "PATH", "REASON"]
    assert any(shown in line and "to embed" in line for line in lines)
    summary = review.report.summary()
    assert summary.estimated_chunks == long.estimated_chunks + short.estimated_chunks
    assert any(line.startswith("Text to index: ") for line in summary.lines())
    assert review.report.to_json()["sources"][0]["rows"][0]["characters"] == long.characters


def test_progress_counts_chunks_not_bytes(tmp_path: Path) -> None:
    """The index stage's total is the estimated chunks; it advances with embedded chunks, so a
    small file with much text weighs what its text weighs."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(6):
        (docs / f"d{i}.txt").write_text("word " * (3000 * (i + 1)))
    embedder = HashEmbedder(record=False)
    registry = StoreRegistry()
    progress = RecordingProgress()
    with StoreSession(registry.create("G", embedder.identity), registry=registry) as job:
        review = job.review_new_sources([docs])
        job.progress = progress
        summary = job.apply(review, embedder)
    stage = next(v for k, v in progress.events if k == "stage" and v[0] == "index")  # type: ignore[index]
    total = stage[1]  # type: ignore[index]
    assert total == review.report.summary().estimated_chunks
    chunks = summary.chunks_embedded + summary.chunks_reused  # repeated text is embedded once
    assert abs(total - chunks) < 0.25 * chunks
    start = progress.events.index(("stage", stage))
    end = progress.events.index(("stage", ("activate", 1)))
    advanced = [v for k, v in progress.events[start:end] if k == "advance"]
    assert sum(advanced) == total  # type: ignore[arg-type]
    assert len(advanced) > 20  # by batches of chunks, not once per file


def test_size_limit_of_the_source_bounds_the_characters_of_a_pdf(tmp_path: Path) -> None:
    """The character limit is never above the source's size limit in bytes."""
    docs = tmp_path / "docs"
    docs.mkdir()
    path = expanding_pdf(docs / "p.pdf", 8192)  # 2 Mi characters from about 1 KiB
    embedder = HashEmbedder(record=False)
    registry = StoreRegistry()
    options = SourceOptions(max_file_size=1 * MiB)
    with StoreSession(registry.create("L", embedder.identity), registry=registry) as job:
        review = job.review_new_sources([path], options=options)
    (row,) = review.rows
    assert row.status is FileStatus.SKIPPED and "more than 1.0 Mi characters" in row.reason

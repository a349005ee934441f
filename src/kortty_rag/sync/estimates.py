"""The review's chunk and time estimates, counted with the chunker and the store's own model.

The review reads every document to index anyway (its hash and characters); counting its chunks with
the chunker itself (:class:`kortty_rag.chunking.estimate.ChunkCounter`) makes the summary's "about N
chunks" what indexing will make, not a figure from characters per token. The model is loaded for
this only when the review has text to index; it stays loaded for the indexing that follows. When it
cannot be loaded (not installed, another model than the store's), or a document cannot be read again
(changed since, a PDF whose pages were not kept), the estimate falls back to characters per token.
The time is at the speed this machine measured with the model in its last jobs
(:mod:`kortty_rag.sync.speed`), the nominal speed before the first.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator, Iterator
from pathlib import Path

from kortty_rag.chunking.estimate import ChunkCounter, Segments
from kortty_rag.chunking.splitter import Splitter
from kortty_rag.errors import KorttyRagError
from kortty_rag.extract.document import ExtractionCache, StreamedSegment, open_document
from kortty_rag.extract.formats import is_extracted
from kortty_rag.extract.pdf import PdfExtractor
from kortty_rag.models import EmbeddingIdentity, FileStatus
from kortty_rag.progress import CancelToken
from kortty_rag.sources.review import ReviewReport, ReviewRow, SourceReview
from kortty_rag.sync.speed import measured_chunks_per_second


def counted_estimates(
    report: ReviewReport,
    identity: EmbeddingIdentity,
    *,
    pdf: PdfExtractor,
    cache: ExtractionCache,
    cancel: CancelToken | None = None,
) -> ReviewReport:
    """``report`` with every row to index estimated (see the module docstring)."""
    wanted = any(
        row.status is FileStatus.INDEX and row.characters > 0
        for review in report.sources
        for row in review.rows
    )
    speed = measured_chunks_per_second(identity)
    counter = _counter(identity) if wanted else None
    if counter is None:
        return report.with_estimates(identity, chunks_per_second=speed)

    def chunks(review: SourceReview, row: ReviewRow) -> int | None:
        if cancel is not None and cancel.cancelled:
            return None
        if is_extracted(row.format) and cache.get(row.sha256) is None:
            return None  # its pages were not kept: extracting it again is not worth an estimate
        try:
            document = open_document(
                Path(row.path),
                row.format,
                size_limit=review.source.options.max_file_size,
                expected_sha256=row.sha256,
                pdf=pdf,
                cache=cache,
            )
            return counter.chunks(row.format, row.characters, _segments(document.segments))
        except (KorttyRagError, OSError):
            return None  # changed or gone since the scan: indexing will say so

    return report.with_estimates(identity, chunks, chunks_per_second=speed)


def _segments(segments: tuple[StreamedSegment, ...]) -> Segments:
    for segment in segments:
        yield segment.page, _closing(segment.blocks)


def _closing(blocks: Generator[str, None, None]) -> Iterator[str]:
    with contextlib.closing(blocks):  # the file is closed however far the chunker read
        yield from blocks


def _counter(identity: EmbeddingIdentity) -> ChunkCounter | None:
    from kortty_rag.embedding.loader import load_embedder

    try:
        embedder = load_embedder(identity)
    except KorttyRagError:
        return None
    return ChunkCounter(Splitter(embedder, embedder.chunking()))

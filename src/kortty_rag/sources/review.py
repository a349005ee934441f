"""The review report (docs/DESIGN.md §5): one row per file with format, size, status and reason, plus a summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from kortty_rag.chunking.estimate import (
    LONG_EMBEDDING_SECONDS,
    estimated_chunks,
    estimated_seconds,
)
from kortty_rag.messages import msg
from kortty_rag.models import EmbeddingIdentity, FileStatus, Source
from kortty_rag.progress import format_duration

#: the reason of a document indexed before whose format this version reads better: it is read
#: again, counted as changed (``extract.formats.READERS``)
READ_AGAIN_REASON = msg("read again: this version reads its format better")


class RootState(StrEnum):
    OK = "ok"
    MISSING = "missing"  # the configured root was really deleted: an incremental deletion
    ERROR = "error"  # any other fatal root problem: the previous snapshot stays


@dataclass(frozen=True)
class ReviewRow:
    source_id: str
    path: str
    rel_path: str
    format: str
    size: int
    status: FileStatus
    reason: str = ""
    sha256: str = ""
    characters: int = 0
    pages: int | None = None
    #: a known document that could not be checked this time (unreadable): its old chunks stay
    keeps_previous: bool = False
    #: for a row to index: about how many chunks its text makes and how long embedding them takes
    estimated_chunks: int = 0
    estimated_seconds: float = 0.0
    #: a skipped row that is a problem (unreadable, undecodable, failed extraction), not a choice
    #: made by a rule (hidden, ignored, excluded, unsupported format, empty, over the size limit)
    problem: bool = False

    @property
    def long_to_embed(self) -> bool:
        return self.estimated_seconds >= LONG_EMBEDDING_SECONDS

    @property
    def text_size(self) -> str:
        """Extracted characters as the review shows them ("" when not known)."""
        if not self.characters:
            return ""
        if self.characters < 10_000:
            return msg("{count:,} chars", count=self.characters)
        if self.characters < 1_000_000:
            return msg("{thousands:.0f} k chars", thousands=self.characters / 1000)
        return msg("{millions:.1f} M chars", millions=self.characters / 1_000_000)

    @property
    def shown_reason(self) -> str:
        """The reason column: the reason, plus the estimate of a document that is long to embed."""
        if not self.long_to_embed:
            return self.reason
        estimate = msg(
            "{size}, about {chunks:,} chunks, about {duration} to embed",
            size=self.text_size,
            chunks=self.estimated_chunks,
            duration=format_duration(self.estimated_seconds),
        )
        return (
            msg("{reason} — {estimate}", reason=self.reason, estimate=estimate)
            if self.reason
            else estimate
        )

    def with_estimate(
        self,
        identity: EmbeddingIdentity,
        chunks: int | None = None,
        chunks_per_second: float | None = None,
    ) -> ReviewRow:
        """The row with its chunk and time estimates: ``chunks`` when counted, else from its
        characters; the time at ``chunks_per_second`` when this machine measured it."""
        if self.status is not FileStatus.INDEX:
            return self
        if chunks is None:
            chunks = estimated_chunks(
                self.characters, identity.chunk_tokens, identity.overlap_tokens
            )
            if self.pages:  # a PDF's pages are chunked one by one
                chunks = max(chunks, self.pages)
        seconds = estimated_seconds(chunks, identity.chunk_tokens, chunks_per_second)
        return replace(self, estimated_chunks=chunks, estimated_seconds=seconds)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "format": self.format,
            "size": self.size,
            "status": self.status.value,
            "reason": self.reason,
            "sha256": self.sha256 or None,
            "pages": self.pages,
            "characters": self.characters,
            "estimated_chunks": self.estimated_chunks,
            "estimated_seconds": round(self.estimated_seconds, 1),
            "problem": self.problem,
        }


@dataclass(frozen=True)
class SourceReview:
    """What the scan found for one source, against what its active snapshot holds."""

    source: Source
    rows: tuple[ReviewRow, ...]
    removed: tuple[str, ...] = ()
    root_state: RootState = RootState.OK
    root_error: str = ""
    complete: bool = True
    unchecked_folders: tuple[str, ...] = ()

    def rows_with(self, status: FileStatus) -> list[ReviewRow]:
        return [row for row in self.rows if row.status is status]


@dataclass(frozen=True)
class ReviewSummary:
    new: int
    changed: int
    unchanged: int
    skipped: int
    removed: int
    formats: dict[str, int]
    accepted_bytes: int
    caps_reached: tuple[str, ...]
    characters: int = 0
    estimated_chunks: int = 0
    estimated_seconds: float = 0.0
    # the time estimate uses the speed this machine measured in its last jobs, not the nominal one
    speed_measured: bool = False

    @property
    def to_index(self) -> int:
        return self.new + self.changed

    def to_json(self) -> dict[str, Any]:
        return {
            "to_index": self.to_index,
            "new": self.new,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "skipped": self.skipped,
            "removed": self.removed,
            "formats": self.formats,
            "accepted_bytes": self.accepted_bytes,
            "caps_reached": list(self.caps_reached),
            "characters": self.characters,
            "estimated_chunks": self.estimated_chunks,
            "estimated_seconds": round(self.estimated_seconds, 1),
            "estimated_speed": "measured" if self.speed_measured else "nominal",
        }

    def lines(self) -> list[str]:
        formats = ", ".join(f"{fmt} {n}" for fmt, n in self.formats.items()) or msg("none")
        lines: list[str] = [
            msg(
                "To index: {to_index} ({new} new, {changed} changed); unchanged: {unchanged}; "
                "skipped: {skipped}; to remove: {removed}",
                to_index=self.to_index,
                new=self.new,
                changed=self.changed,
                unchanged=self.unchanged,
                skipped=self.skipped,
                removed=self.removed,
            ),
            msg("Formats to index: {formats}", formats=formats),
        ]
        if self.estimated_chunks:
            lines.append(
                msg(
                    "Text to index: {characters:,} characters, about {chunks:,} chunks, about "
                    "{duration} at this machine's speed",
                    characters=self.characters,
                    chunks=self.estimated_chunks,
                    duration=format_duration(self.estimated_seconds),
                )
                if self.speed_measured
                else msg(
                    "Text to index: {characters:,} characters, about {chunks:,} chunks, about "
                    "{duration} (a first guess: this machine's speed is measured as it indexes)",
                    characters=self.characters,
                    chunks=self.estimated_chunks,
                    duration=format_duration(self.estimated_seconds),
                )
            )
        lines += [msg("Preview cap reached: {cap}", cap=cap) for cap in self.caps_reached]
        return lines


@dataclass(frozen=True)
class ReviewReport:
    sources: tuple[SourceReview, ...]
    caps_reached: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default_factory=tuple)
    # the rows' time estimates use the speed this machine measured (``with_estimates``)
    speed_measured: bool = False

    @property
    def rows(self) -> list[ReviewRow]:
        return [row for review in self.sources for row in review.rows]

    def summary(self) -> ReviewSummary:
        rows = self.rows
        counts = Counter(row.status for row in rows)
        to_index = [row for row in rows if row.status is FileStatus.INDEX]
        formats = Counter(row.format for row in to_index)
        changed = sum(1 for row in to_index if row.reason in {"changed", READ_AGAIN_REASON})
        return ReviewSummary(
            new=len(to_index) - changed,
            changed=changed,
            unchanged=counts[FileStatus.UNCHANGED],
            skipped=counts[FileStatus.SKIPPED],
            removed=sum(len(review.removed) for review in self.sources),
            formats=dict(sorted(formats.items(), key=lambda kv: (-kv[1], kv[0]))),
            accepted_bytes=sum(row.size for row in to_index),
            caps_reached=self.caps_reached,
            characters=sum(row.characters for row in to_index),
            estimated_chunks=sum(row.estimated_chunks for row in to_index),
            estimated_seconds=sum(row.estimated_seconds for row in to_index),
            speed_measured=self.speed_measured,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "summary": self.summary().to_json(),
            "sources": [
                {
                    "source_id": review.source.id,
                    "path": review.source.path,
                    "kind": review.source.kind.value,
                    # came with an import: confirming this review is its first review here
                    "needs_review": review.source.needs_review,
                    "root_state": review.root_state.value,
                    "root_error": review.root_error or None,
                    "complete": review.complete,
                    "removed": list(review.removed),
                    "rows": [row.to_json() for row in review.rows],
                }
                for review in self.sources
            ],
            "warnings": list(self.warnings),
        }

    def with_estimates(
        self,
        identity: EmbeddingIdentity,
        counted: Callable[[SourceReview, ReviewRow], int | None] | None = None,
        *,
        chunks_per_second: float | None = None,
    ) -> ReviewReport:
        """The report with chunk and time estimates on every row to index (``identity``: the store's
        model and chunk length; ``counted``: a row's chunks as counted, None where not known;
        ``chunks_per_second``: this machine's measured speed with that model, if any)."""

        def row_estimate(review: SourceReview, row: ReviewRow) -> ReviewRow:
            if counted is None or row.status is not FileStatus.INDEX:
                return row.with_estimate(identity, chunks_per_second=chunks_per_second)
            return row.with_estimate(identity, counted(review, row), chunks_per_second)

        return replace(
            self,
            speed_measured=chunks_per_second is not None,
            sources=tuple(
                replace(review, rows=tuple(row_estimate(review, row) for row in review.rows))
                for review in self.sources
            ),
        )

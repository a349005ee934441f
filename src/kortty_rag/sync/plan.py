"""The change plan (docs/DESIGN.md §8): from a reviewed scan to the documents to add, replace and remove.

Content hashes are the truth: a file whose hash equals the indexed one is unchanged and keeps its chunks
and vectors; a new or different hash is (re)indexed; a known document the complete scan did not find any
more is removed (a rename is therefore a removal plus an addition). A root that was really deleted
removes the whole source (``MISSING``); any other root failure changes nothing (``ERROR``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kortty_rag.models import FileStatus, Source
from kortty_rag.sources.review import READ_AGAIN_REASON, ReviewReport, RootState


@dataclass(frozen=True)
class DocumentTask:
    """One file to extract, chunk and embed; ``sha256`` is the reviewed content."""

    source_id: str
    rel_path: str
    path: Path
    format: str
    sha256: str
    size: int
    changed: bool
    size_limit: int
    #: characters of text the review found (0 when unknown)
    characters: int = 0
    #: chunks the review estimated (0 when unknown)
    estimated_chunks: int = 0


@dataclass(frozen=True)
class SourcePlan:
    source: Source
    root_state: RootState
    root_error: str
    add: tuple[DocumentTask, ...]
    remove: tuple[str, ...]
    unchanged: int
    skipped: int
    #: of ``skipped``, the rows that are problems (:attr:`ReviewRow.problem`)
    problems: int = 0

    @property
    def remove_all(self) -> bool:
        return self.root_state is RootState.MISSING


@dataclass(frozen=True)
class ChangePlan:
    sources: tuple[SourcePlan, ...]
    #: the store version the review was made against; indexing refuses a store that changed since
    base_version: int

    @classmethod
    def from_review(cls, report: ReviewReport, base_version: int) -> ChangePlan:
        plans = []
        for review in report.sources:
            adds = tuple(
                DocumentTask(
                    source_id=review.source.id,
                    rel_path=row.rel_path,
                    path=Path(row.path),
                    format=row.format,
                    sha256=row.sha256,
                    size=row.size,
                    changed=row.reason in {"changed", READ_AGAIN_REASON},
                    size_limit=review.source.options.max_file_size,
                    characters=row.characters,
                    estimated_chunks=row.estimated_chunks,
                )
                for row in review.rows
                if row.status is FileStatus.INDEX
            )
            plans.append(
                SourcePlan(
                    source=review.source,
                    root_state=review.root_state,
                    root_error=review.root_error,
                    add=adds if review.root_state is RootState.OK else (),
                    remove=review.removed if review.root_state is not RootState.ERROR else (),
                    unchanged=len(review.rows_with(FileStatus.UNCHANGED)),
                    skipped=len(review.rows_with(FileStatus.SKIPPED)),
                    problems=sum(1 for r in review.rows_with(FileStatus.SKIPPED) if r.problem),
                )
            )
        return cls(tuple(plans), base_version)

    @property
    def adds(self) -> list[DocumentTask]:
        return [task for plan in self.sources for task in plan.add]

    @property
    def bytes_to_index(self) -> int:
        return sum(task.size for task in self.adds)

"""What a finished job records about its sources: their state and counts, the problems found while
indexing, and the words that point a missing source at its new place (docs/DESIGN.md §8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kortty_rag.errors import NotFoundError
from kortty_rag.messages import msg
from kortty_rag.models import Document, FileStatus, Source, SourceCounts, SourceStatus, Store
from kortty_rag.remedies import Operation, place
from kortty_rag.sources.review import ReviewRow
from kortty_rag.sources.selection import absolute, real
from kortty_rag.sync.pipeline import SourceOutcome


def moved_hint(store_name: str, source: Source) -> str:
    """What a missing root's status line offers: pointing the source at the folder's new place."""
    return msg(
        "if it moved, point the source at its new place: {command}",
        command=move_command(store_name, source),
    )


def move_command(store_name: str, source: Source) -> str:
    """What points ``source`` at a new place (a command, or the app's button)."""
    return place(Operation.SOURCE_MOVE, store=store_name, path=source.path)


def indexing_problems(rows: Sequence[ReviewRow], outcome: SourceOutcome) -> list[ReviewRow]:
    """The documents indexing could not read, and those it read with a problem (a note's front
    matter), as problem rows of the source's report: what its Issues count counts."""
    reviewed = {row.path: row for row in rows}
    problems = list(outcome.failed) + [
        (path, msg("indexed, but: {reason}", reason=reason)) for path, reason in outcome.notices
    ]
    return [
        replace(reviewed[path], status=FileStatus.SKIPPED, reason=reason, problem=True)
        for path, reason in problems
        if path in reviewed
    ]


def source_after(
    base: Source, outcome: SourceOutcome, documents: list[Document], when: str, store_name: str
) -> Source:
    mine = [d for d in documents if d.source_id == base.id]
    issues = outcome.problems + len(outcome.failed) + len(outcome.notices)
    # a person confirmed this review: what came with an import counts as reviewed once its root
    # was read here (a missing or failed root was not: it is reviewed when it is there)
    if outcome.status is SourceStatus.ERROR:
        return base.evolve(status=SourceStatus.ERROR, status_reason=outcome.reason)
    counts = SourceCounts(
        files=len(mine),
        chunks=sum(d.chunk_count for d in mine),
        issues=issues,
        skipped=outcome.skipped - outcome.problems,
    )
    if outcome.status is SourceStatus.MISSING:
        # one template with the hint's words, not "{reason}; {hint}": the reason is read back from
        # the store definition as plain text, and the app finds its template by its English words
        # (the command is one field: a store name or path with spaces cannot split it)
        return base.evolve(
            status=SourceStatus.MISSING,
            status_reason=msg(
                "{reason}; if it moved, point the source at its new place: {command}",
                reason=outcome.reason,
                command=move_command(store_name, base),
            ),
            counts=SourceCounts(),
        )
    return base.evolve(
        status=SourceStatus.READY,
        status_reason="",
        needs_review=False,
        counts=counts,
        last_indexed_at=when,
        real_path=base.real_path or real(base.path),  # recorded now for a source saved before
    )


def find_source(store: Store, path_or_id: str) -> Source:
    """A source by id or by (absolute or real) path."""
    for source in store.sources:
        if path_or_id == source.id:
            return source
    wanted = {str(absolute(path_or_id)), real(path_or_id)}
    for source in store.sources:
        if source.path in wanted or real(source.path) in wanted:
            return source
    raise NotFoundError(
        msg(
            "Store {store} has no source {source}",
            store=repr(store.name),
            source=repr(path_or_id),
        ),
        hint=msg("See its sources in {how}.", how=place(Operation.SOURCE_LIST, store=store.name)),
    )

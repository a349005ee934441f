"""What a review may read and what indexing may act on: sources that came with an import are checked
again at their first review, and a root that resolves elsewhere since its review is not read."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace

from kortty_rag.messages import msg
from kortty_rag.models import Source
from kortty_rag.sources.imported_roots import refusal
from kortty_rag.sources.review import RootState, SourceReview
from kortty_rag.sources.rootpath import root_moved
from kortty_rag.sources.selection import real
from kortty_rag.sync.plan import ChangePlan


def first_reviews(
    sources: Sequence[Source],
) -> tuple[list[Source], tuple[SourceReview, ...]]:
    """``sources`` as they may be scanned, and a root error for each that came with an import and is
    refused now (docs/DESIGN.md §14): its first review checks the import's rules again — a link may
    have appeared since — and pins a root that did not exist at the import to its real path now."""
    scanned: list[Source] = []
    refused: list[SourceReview] = []
    for source in sources:
        if not source.needs_review:
            scanned.append(source)
            continue
        reason = refusal(source.path)
        if reason is not None:
            refused.append(
                SourceReview(
                    source,
                    (),
                    root_state=RootState.ERROR,
                    root_error=msg(
                        "{path} was not read: {reason}", path=source.path, reason=reason
                    ),
                )
            )
        elif source.real_path is None and os.path.lexists(source.path):
            scanned.append(source.evolve(real_path=real(source.path)))
        else:
            scanned.append(source)
    return scanned, tuple(refused)


def pinned(plan: ChangePlan) -> ChangePlan:
    """``plan`` with every source whose root resolves elsewhere since the review turned into a root
    error: nothing is read through the moved path, nothing is removed, its chunks stay."""
    sources = []
    for source_plan in plan.sources:
        moved = root_moved(source_plan.source)
        if moved and source_plan.root_state is not RootState.ERROR:
            sources.append(
                replace(
                    source_plan, root_state=RootState.ERROR, root_error=moved, add=(), remove=()
                )
            )
        else:
            sources.append(source_plan)
    return replace(plan, sources=tuple(sources))

"""What a search asks and what it gives the front ends, and the words they need to read it: the
request, the result with its excerpts and dropped candidates, the options a query takes, the limits
of the block, and the relevance levels (docs/DESIGN.md §11). ``Workspace.search`` answers a
:class:`SearchRequest`; the front ends import these names from here, never from the retrieval
package itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kortty_rag.models import Store
from kortty_rag.retrieval.context import neutralise_location
from kortty_rag.retrieval.relevance import DEFAULT_LEVEL, store_level
from kortty_rag.retrieval.search import (
    DROP_BELOW_FLOOR,
    MIN_CONTEXT_WINDOW,
    NO_MATCHES,
    Candidate,
    RetrievalLimits,
    RetrievalResult,
    RetrievalService,
    SearchOptions,
    Weakness,
)

__all__ = [
    "DEFAULT_LEVEL",
    "DROP_BELOW_FLOOR",
    "MIN_CONTEXT_WINDOW",
    "NO_MATCHES",
    "Candidate",
    "RetrievalLimits",
    "RetrievalResult",
    "RetrievalService",
    "SearchOptions",
    "SearchRequest",
    "Weakness",
    "neutralise_location",
    "store_level",
]


@dataclass(frozen=True)
class SearchRequest:
    """One search as every front end asks it: the query, the stores (their enabled sources), the
    options, and the block's bounds — the limits, or the target model's context window (at least
    :data:`MIN_CONTEXT_WINDOW` tokens) that sizes them."""

    query: str
    stores: Sequence[Store]
    options: SearchOptions = field(default_factory=SearchOptions)
    limits: RetrievalLimits | None = None
    context_window: int | None = None

"""What a search gives the front ends, and the words they need to read it: the result with its
excerpts and dropped candidates, the options a query takes, the limits of the block, and the
relevance levels (docs/DESIGN.md §11). ``Workspace.search`` makes the results; the front ends import
these names from here, never from the retrieval package itself."""

from __future__ import annotations

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
    "Weakness",
    "neutralise_location",
    "store_level",
]

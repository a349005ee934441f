"""Hybrid retrieval with fixed limits, a relevance floor, and an explanation for every result and
every drop (README, "Retrieval and the context block").

For each store: the query is embedded with the store's own model (query prefix) and searched in the
HNSW graph, and the same text is searched in the BM25 index; both see only enabled sources. The two
rankings are fused (by default a convex combination of normalised scores, or weighted reciprocal
rank fusion; :mod:`kortty_rag.retrieval.fusion`), stores are merged by fused score, and the best
candidates are taken in order while the limits hold: at most 6 excerpts and a token budget of 4,000
tokens that never exceeds 25 % of the target model's context window (the whole block counts, wrapper
and instructions included).

Only candidates with evidence of relevance are taken (:mod:`kortty_rag.retrieval.relevance`); when
none has it, the block is empty and nothing is added to a prompt. Diversity is a preference, not a
wall: a first pass takes at most 2 excerpts per document (a file; all pages of a PDF are one
document), and slots still free afterwards go to the next best remaining candidates whatever their
document, so a store that is one long PDF still gets its 6 excerpts.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kortty_rag.embedding.base import Embedder
from kortty_rag.embedding.catalog import FOREIGN_DENSE_WEIGHT, speaks
from kortty_rag.errors import UsageError
from kortty_rag.index.base import VectorStore
from kortty_rag.messages import msg
from kortty_rag.models import (
    FusionMethod,
    Hit,
    RelevanceLevel,
    Source,
    Store,
    StoreType,
)
from kortty_rag.retrieval.calibrated import Resources, store_calibration
from kortty_rag.retrieval.context import (
    BlockExcerpt,
    block_overhead_tokens,
    render_block,
)
from kortty_rag.retrieval.fusion import (
    FusionWeights,
    fuse,
)
from kortty_rag.retrieval.graph import BONUS as GRAPH_BONUS
from kortty_rag.retrieval.graph import expand
from kortty_rag.retrieval.relevance import RelevanceFloor, floor_for
from kortty_rag.retrieval.results import (
    DROP_BELOW_FLOOR,
    DROP_BUDGET,
    DROP_DISABLED,
    DROP_PER_DOCUMENT,
    DROP_TOTAL,
    MIN_CONTEXT_WINDOW,
    NO_MATCHES,
    NOTHING_FITS,
    NOTHING_RELEVANT,
    WEAK_DENSE_SCORE,
    Candidate,
    Dropped,
    Excerpt,
    RetrievalLimits,
    RetrievalResult,
    SearchOptions,
    Weakness,
    document_path,
)

#: the result types live in :mod:`kortty_rag.retrieval.results`; callers import them from here
__all__ = [
    "DROP_BELOW_FLOOR",
    "DROP_BUDGET",
    "DROP_DISABLED",
    "DROP_PER_DOCUMENT",
    "DROP_TOTAL",
    "MIN_CONTEXT_WINDOW",
    "NOTHING_FITS",
    "NOTHING_RELEVANT",
    "NO_MATCHES",
    "WEAK_DENSE_SCORE",
    "Candidate",
    "Dropped",
    "Excerpt",
    "RetrievalLimits",
    "RetrievalResult",
    "SearchOptions",
    "Weakness",
    "document_path",
]


def retrieval_parts(store: Store, options: SearchOptions) -> tuple[bool, bool]:
    """Dense and lexical can be switched off per query and per store (``settings.retrieval``)."""
    settings = store.options.retrieval
    return options.dense and settings.dense, options.lexical and settings.lexical


def store_weights(store: Store, language: str | None = None) -> FusionWeights:
    """A store may tune fusion (``settings.retrieval.fusion`` / ``dense_weight`` / ``rrf_k``); else
    the defaults of :mod:`kortty_rag.retrieval.fusion` (convex, 0.8 / 0.2) — except that where the
    store's text is in ``language`` and its model was not trained for that language, convex fusion's
    dense part gets :data:`~kortty_rag.embedding.catalog.FOREIGN_DENSE_WEIGHT` (docs/DESIGN.md §11)."""
    settings = store.options.retrieval
    dense = settings.dense_weight
    chosen = "dense_weight" in store.settings.get("retrieval", {})
    convex = settings.fusion is FusionMethod.CONVEX
    if convex and not chosen and speaks(store.embedding.model_id, language) is False:
        dense = FOREIGN_DENSE_WEIGHT
    return FusionWeights(dense, round(1.0 - dense, 9), settings.rrf_k, settings.fusion.value)


def text_language(store: Store, resources: Resources) -> str | None:
    """The language of what ``store`` serves (its lexical index's), ``None`` when it has nothing."""
    return resources(store, False)[0].text_language() if store.sources else None


def graph_on(store: Store, options: SearchOptions) -> bool:
    """Whether the best hits of ``store`` are expanded along note links (per query, else per store;
    only with the dense part, which judges a linked chunk)."""
    chosen = store.follows_links if options.graph is None else options.graph
    return chosen and store.type is StoreType.LOCAL and retrieval_parts(store, options)[0]


def _candidates(
    store: Store,
    sources: dict[str, Source],
    query: str,
    options: SearchOptions,
    resources: Resources,
    *,
    language: str | None,
    floor: RelevanceFloor,
) -> list[Candidate]:
    """``language``: of the store's text (:func:`text_language`), for its fusion weights; the
    candidates are judged on ``floor`` and, with graph expansion on, expanded along note links."""
    dense_on, lexical_on = retrieval_parts(store, options)
    if not sources or not (dense_on or lexical_on):
        return []
    vectors, embedder = resources(store, dense_on)
    dense: list[Hit] = []
    beyond: dict[int, float] = {}
    vector = None
    lexical = (
        vectors.lexical_search(query, options.candidates, sources.keys()) if lexical_on else []
    )
    if dense_on and embedder is not None:
        vector = embedder.embed_query(query)
        dense = vectors.search(vector, options.candidates, sources.keys())
        found = {h.label for h in dense}
        # the lexical part's other candidates: their similarity, exactly (docs/DESIGN.md §11)
        beyond = vectors.similarities(vector, [h.label for h in lexical if h.label not in found])
    chunks = {h.label: h.chunk for h in dense + lexical}
    carried = {h.label: h.coverage for h in lexical}
    weights = options.weights or store_weights(store, language)
    fused = fuse(
        [(h.label, h.score) for h in dense],
        [(h.label, h.score) for h in lexical],
        weights,
        beyond,
        {label: share for label, share in carried.items() if share is not None},
    )
    result = []
    for f in fused:
        chunk = chunks[f.key]
        source = sources.get(chunk.source_id)
        if source is None:
            continue
        path = document_path(source, chunk.rel_path)
        result.append(
            Candidate(
                store.id,
                store.name,
                source,
                f.key,
                chunk,
                path,
                f.score,
                f.dense_rank,
                f.dense_score,
                f.lexical_rank,
                f.lexical_score,
                None if f.lexical_rank is None else (carried[f.key] or 0.0),
            )
        )
    result = _judged(floor, result)
    if vector is not None and result and graph_on(store, options):
        bonus = GRAPH_BONUS if options.graph_bonus is None else options.graph_bonus
        result = expand(
            result, vectors, vector, sources=sources, weights=weights, floor=floor, bonus=bonus
        )
    return result


def retrieve(
    query: str,
    stores: Sequence[Store],
    resources: Resources,
    *,
    limits: RetrievalLimits | None = None,
    options: SearchOptions | None = None,
    context_window: int | None = None,
) -> RetrievalResult:
    """The bounded context block for ``query`` from ``stores`` (enabled sources only)."""
    limits = limits or RetrievalLimits()
    options = options or SearchOptions()
    budget = limits.budget(context_window)
    languages = {s.id: text_language(s, resources) for s in stores}
    floors = {
        s.id: floor_for(
            s,
            options.min_relevance,
            store_calibration(s, resources, dense=retrieval_parts(s, options)[0]),
            languages[s.id],
        )
        for s in stores
    }
    candidates: list[Candidate] = []
    disabled: list[Candidate] = []
    if query.strip():
        for store in stores:
            floor = floors[store.id]
            enabled = {s.id: s for s in store.sources if s.enabled}
            language = languages[store.id]
            candidates += _candidates(
                store, enabled, query, options, resources, language=language, floor=floor
            )
            if options.explain:
                off = {s.id: s for s in store.sources if not s.enabled}
                disabled += _candidates(
                    store, off, query, options, resources, language=language, floor=floor
                )
    candidates.sort(key=lambda c: -c.fused)
    selection = select(
        candidates,
        lambda c: floors[c.store_id].admits(c.dense_score, c.coverage),
        limits,
        budget,
    )
    dropped = list(selection.dropped) if options.explain else []
    for candidate in sorted(disabled, key=lambda c: -c.fused)[: limits.max_excerpts]:
        dropped.append(Dropped(candidate, DROP_DISABLED))
    excerpts = tuple(Excerpt(f"R{n}", c) for n, c in enumerate(selection.chosen, start=1))
    block = render_block([BlockExcerpt(e.marker, e.location(), e.chunk.text) for e in excerpts])
    if excerpts:
        note = ""
    elif not candidates:
        note = NO_MATCHES
    elif selection.admitted == 0:
        note = NOTHING_RELEVANT
    else:
        note = NOTHING_FITS
    return RetrievalResult(
        query=query,
        excerpts=excerpts,
        dropped=tuple(dropped),
        budget_tokens=budget,
        used_tokens=selection.used_tokens if excerpts else 0,
        block=block,
        stores=tuple(s.name for s in stores),
        relevance=tuple(floors.values()),
        note=note,
    )


def _judged(floor: RelevanceFloor, candidates: list[Candidate]) -> list[Candidate]:
    """``candidates`` of the floor's store with their relevance on its scale."""
    return [replace(c, relevance=floor.relevance(c.dense_score, c.coverage)) for c in candidates]


@dataclass(frozen=True)
class Selection:
    chosen: tuple[Candidate, ...]  # best first
    dropped: tuple[Dropped, ...]  # best first
    used_tokens: int
    admitted: int  # candidates above the relevance floor


def select(
    ranked: Sequence[Candidate],
    admitted: Callable[[Candidate], bool],
    limits: RetrievalLimits,
    budget: int,
) -> Selection:
    """The excerpts for the block from ``ranked`` (best first), and why each other one was left out.

    First pass: the best admitted candidates while the limits hold, at most ``per_document`` from one
    document; candidates over that cap wait. Fill pass: free slots go to the waiting ones, best
    first. A waiting candidate that still does not fit is dropped for the per-document cap only when
    it would have fitted without the excerpts of other documents ranked below it (their slots went
    to those documents); otherwise it is the excerpt limit or the token budget, as for any other.
    """
    chosen: dict[int, Candidate] = {}  # position in ranked -> candidate
    reasons: dict[int, str] = {}
    per_document: Counter[tuple[str, str, str]] = Counter()
    waiting: list[int] = []
    used = block_overhead_tokens()
    count = 0

    def take(position: int, candidate: Candidate) -> None:
        nonlocal used
        chosen[position] = candidate
        per_document[candidate.document] += 1
        used += candidate.tokens

    def full_reason(candidate: Candidate) -> str | None:
        if len(chosen) >= limits.max_excerpts:
            return DROP_TOTAL
        if used + candidate.tokens > budget:
            return DROP_BUDGET
        return None

    for position, candidate in enumerate(ranked):
        if not admitted(candidate):
            reasons[position] = DROP_BELOW_FLOOR
            continue
        count += 1
        if per_document[candidate.document] >= limits.per_document:
            waiting.append(position)
        elif (reason := full_reason(candidate)) is not None:
            reasons[position] = reason
        else:
            take(position, candidate)
    for position in waiting:
        candidate = ranked[position]
        reason = full_reason(candidate)
        if reason is None:
            take(position, candidate)
            continue
        below = [c for p, c in chosen.items() if p > position and c.document != candidate.document]
        fits_without = len(chosen) - len(below) < limits.max_excerpts and (
            used - sum(c.tokens for c in below) + candidate.tokens <= budget
        )
        reasons[position] = DROP_PER_DOCUMENT if below and fits_without else reason
    return Selection(
        chosen=tuple(chosen[p] for p in sorted(chosen)),
        dropped=tuple(Dropped(ranked[p], reasons[p]) for p in sorted(reasons)),
        used_tokens=used,
        admitted=count,
    )


class RetrievalService:
    """Keeps stores' vector stores and embedders open between queries (CLI, MCP server, GUI).

    An open store is kept for what it was opened from (:func:`opened_from`): a store rebuilt with
    another model, moved to another Qdrant service or collection, or given another lexical language
    is opened anew at its next query, whoever changed it and in whichever process, so no caller has
    to say that a store changed. What changes inside an open store needs no reopening: a local store
    follows its ``CURRENT`` pointer, a Qdrant store reads the committed generations with every
    query, and the sources to search come with the store definition each query passes.
    :meth:`forget` only releases what a deleted store held open.

    One search runs at a time (an embedder is not shared between threads), and :meth:`close` waits
    for the running one: a front end that serves calls from several threads (the MCP server) needs
    no lock of its own.
    """

    def __init__(self, load_embedder: Callable[[Store], Embedder] | None = None) -> None:
        self._lock = threading.Lock()
        #: held by a search (and a floor calibration) from start to end; :meth:`close` takes it
        self._in_use = threading.RLock()
        self._vectors: dict[tuple[object, ...], VectorStore] = {}
        self._load_embedder = load_embedder or _default_embedder

    def resources(self, store: Store, dense: bool) -> tuple[VectorStore, Embedder | None]:
        from kortty_rag.index.factory import open_vector_store

        key = opened_from(store)
        with self._lock:
            vectors = self._vectors.get(key)
            if vectors is None:
                stale = [k for k in self._vectors if k[0] == store.id]  # opened from before
                for old in stale:
                    self._vectors.pop(old).close()
                vectors = self._vectors[key] = open_vector_store(store)
        return vectors, self._load_embedder(store) if dense else None

    def search(
        self,
        query: str,
        stores: Sequence[Store],
        *,
        limits: RetrievalLimits | None = None,
        options: SearchOptions | None = None,
        context_window: int | None = None,
    ) -> RetrievalResult:
        if options is not None and not (options.dense or options.lexical):
            raise UsageError(msg("Both dense and lexical search are switched off"))
        RetrievalLimits.check_window(context_window)
        with self._in_use:
            return retrieve(
                query,
                stores,
                self.resources,
                limits=limits,
                options=options,
                context_window=context_window,
            )

    def floor(self, store: Store, level: RelevanceLevel | None = None) -> RelevanceFloor:
        """The relevance floor ``store``'s candidates meet (``level``, else the store's own), with
        the calibration its served snapshot keeps."""
        with self._in_use:
            calibration = store_calibration(
                store, self.resources, dense=store.options.retrieval.dense
            )
            return floor_for(store, level, calibration, text_language(store, self.resources))

    def forget(self, store_id: str) -> None:
        with self._lock:
            keys = [k for k in self._vectors if k[0] == store_id]
            closing = [self._vectors.pop(k) for k in keys]
        for vectors in closing:
            vectors.close()

    def close(self, *, wait: float = -1) -> bool:
        """Close every open store once no search runs; with ``wait`` (seconds) give up after that
        long and say so (``False``): a signal handler must not wait forever for the code it
        interrupted."""
        if not self._in_use.acquire(timeout=wait):
            return False
        try:
            with self._lock:
                stores, self._vectors = list(self._vectors.values()), {}
            for vectors in stores:
                vectors.close()
        finally:
            self._in_use.release()
        return True


def opened_from(store: Store) -> tuple[object, ...]:
    """What a store's vector store is opened from: its id, type and embedding identity, its Qdrant
    service and collection, and the language of its lexical index."""
    options = store.options
    return (store.id, store.type, store.embedding, options.qdrant, options.retrieval.language)


def _default_embedder(store: Store) -> Embedder:
    from kortty_rag.embedding.loader import load_embedder

    return load_embedder(store.embedding)

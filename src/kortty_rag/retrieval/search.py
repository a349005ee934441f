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
from pathlib import Path
from typing import Any

from kortty_rag.embedding.base import Embedder
from kortty_rag.embedding.catalog import FOREIGN_DENSE_WEIGHT, speaks
from kortty_rag.errors import UsageError
from kortty_rag.index.base import VectorStore
from kortty_rag.messages import msg
from kortty_rag.models import (
    LOCATION_SEPARATOR,
    Chunk,
    FusionMethod,
    Hit,
    RelevanceLevel,
    Source,
    SourceKind,
    Store,
)
from kortty_rag.retrieval.calibrated import Resources, store_calibration
from kortty_rag.retrieval.context import (
    BlockExcerpt,
    block_overhead_tokens,
    estimate_tokens,
    neutralise_location,
    render_block,
    render_excerpt,
)
from kortty_rag.retrieval.fusion import (
    FusionWeights,
    fuse,
)
from kortty_rag.retrieval.relevance import RelevanceFloor, floor_for
from kortty_rag.sources.formats import has_slides

DROP_PER_DOCUMENT = msg("per-document cap")
DROP_BUDGET = msg("token budget")
DROP_TOTAL = msg("excerpt limit")
DROP_DISABLED = msg("disabled source")
DROP_BELOW_FLOOR = msg("below relevance floor")

#: Why a result has no excerpts (``RetrievalResult.note``).
NO_MATCHES = msg("No excerpts found.")
NOTHING_RELEVANT = msg("No excerpt was relevant enough; nothing would be added to the prompt.")
NOTHING_FITS = msg("No excerpt fit the token budget; nothing would be added to the prompt.")


@dataclass(frozen=True)
class RetrievalLimits:
    max_excerpts: int = 6
    #: excerpts per document in the first pass; free slots are filled regardless afterwards
    per_document: int = 2
    max_tokens: int = 4000
    context_share: float = 0.25

    def budget(self, context_window: int | None) -> int:
        if context_window is None:
            return self.max_tokens
        return min(self.max_tokens, int(context_window * self.context_share))


@dataclass(frozen=True)
class SearchOptions:
    dense: bool = True
    lexical: bool = True
    #: None: the store's own fusion settings (``settings.retrieval``), else the defaults
    weights: FusionWeights | None = None
    candidates: int = 40  # per part and store
    explain: bool = False
    #: None: each store's own setting (``settings.retrieval.min_relevance``)
    min_relevance: RelevanceLevel | None = None


@dataclass(frozen=True)
class Candidate:
    store_id: str
    store_name: str
    source: Source
    label: int
    chunk: Chunk
    path: str
    fused: float
    dense_rank: int | None
    dense_score: float | None
    lexical_rank: int | None
    lexical_score: float | None
    #: share of the query's content terms in the chunk; None without a lexical match
    coverage: float | None = None
    #: relevance from 0 to 1, on the scale of the store's floor (:mod:`kortty_rag.retrieval.relevance`)
    relevance: float = 0.0

    @property
    def document(self) -> tuple[str, str, str]:
        """The document this excerpt belongs to: every page of a PDF is the same document."""
        return (self.store_id, self.source.id, self.chunk.rel_path)

    @property
    def tokens(self) -> int:
        """Estimated tokens of this excerpt as rendered in the block (computed when first needed)."""
        cached = self.__dict__.get("_tokens")
        if cached is None:
            rendered = render_excerpt(BlockExcerpt("R00", self.location, self.chunk.text))
            cached = estimate_tokens(rendered) + 1
            object.__setattr__(self, "_tokens", cached)
        return int(cached)

    @property
    def location(self) -> str:
        """Where the excerpt is: path, heading path of its section, PDF page
        (``notes/backup.md § Keys / Rotation``, ``manual.pdf, page 7``, ``talk.pptx § Results,
        slide 4``)."""
        where = self.path
        if self.chunk.heading:
            where += LOCATION_SEPARATOR + self.chunk.heading
        if self.chunk.page is None:
            return where
        if has_slides(self.chunk.rel_path):
            return msg("{location}, slide {page}", location=where, page=self.chunk.page)
        return msg("{location}, page {page}", location=where, page=self.chunk.page)

    def scores_json(self) -> dict[str, Any]:
        return {
            "relevance": round(self.relevance, 6),
            "fused": round(self.fused, 6),
            "dense_rank": self.dense_rank,
            "dense_score": None if self.dense_score is None else round(self.dense_score, 6),
            "lexical_rank": self.lexical_rank,
            "lexical_score": None if self.lexical_score is None else round(self.lexical_score, 6),
            "coverage": None if self.coverage is None else round(self.coverage, 6),
        }

    def to_json(self) -> dict[str, Any]:
        """``path`` is the file's path as it is (JSON-escaped); ``location`` is the neutralised form
        the context block shows (path and page)."""
        return {
            "store": self.store_name,
            "path": self.path,
            "location": neutralise_location(self.location),
            "page": self.chunk.page,
            "chunk_id": self.chunk.chunk_id,
            "tokens": self.tokens,
            "scores": self.scores_json(),
        }


@dataclass(frozen=True)
class Excerpt:
    marker: str
    candidate: Candidate

    @property
    def path(self) -> str:
        return self.candidate.path

    @property
    def page(self) -> int | None:
        return self.candidate.chunk.page

    @property
    def chunk(self) -> Chunk:
        return self.candidate.chunk

    def location(self) -> str:
        return self.candidate.location

    def to_json(self, *, raw_text: bool = False) -> dict[str, Any]:
        """``text`` is the excerpt exactly as the context block gives it to a model (neutralised: safe
        to hand to an agent); with ``raw_text`` also the text as extracted and stored, unneutralised."""
        rendered = render_excerpt(BlockExcerpt(self.marker, self.location(), self.chunk.text))
        text = {"text": rendered.partition("\n")[2]}  # the block's text, below the source line
        if raw_text:
            text["raw_text"] = self.chunk.text
        return {"marker": self.marker} | text | self.candidate.to_json()


@dataclass(frozen=True)
class Dropped:
    candidate: Candidate
    reason: str

    def to_json(self) -> dict[str, Any]:
        return self.candidate.to_json() | {"reason": self.reason}


@dataclass(frozen=True)
class RetrievalResult:
    query: str
    excerpts: tuple[Excerpt, ...]
    dropped: tuple[Dropped, ...]
    budget_tokens: int
    used_tokens: int
    block: str
    stores: tuple[str, ...]
    #: the relevance floor that applied, per store
    relevance: tuple[RelevanceFloor, ...] = ()
    #: why there are no excerpts (:data:`NO_MATCHES`, :data:`NOTHING_RELEVANT`, :data:`NOTHING_FITS`)
    note: str = ""

    @property
    def nothing_relevant(self) -> bool:
        """Candidates existed, but none was relevant enough: nothing goes into a prompt."""
        return self.note == NOTHING_RELEVANT

    def to_json(self, *, raw_text: bool = False) -> dict[str, Any]:
        """The result for machines; ``raw_text`` adds each excerpt's unneutralised text."""
        return {
            "query": self.query,
            "stores": list(self.stores),
            "budget_tokens": self.budget_tokens,
            "used_tokens": self.used_tokens,
            "relevance": [f.to_json() for f in self.relevance],
            "excerpts": [e.to_json(raw_text=raw_text) for e in self.excerpts],
            "dropped": [d.to_json() for d in self.dropped],
            "block": self.block,
            "note": self.note or None,
        }


def document_path(source: Source, rel_path: str) -> str:
    """Where a document of ``source`` lives on disk (what citations show)."""
    return source.path if source.kind is SourceKind.FILE else str(Path(source.path) / rel_path)


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


def _candidates(
    store: Store,
    sources: dict[str, Source],
    query: str,
    options: SearchOptions,
    resources: Resources,
    *,
    language: str | None,
) -> list[Candidate]:
    """``language``: of the store's text (:func:`text_language`), for its fusion weights."""
    dense_on, lexical_on = retrieval_parts(store, options)
    if not sources or not (dense_on or lexical_on):
        return []
    vectors, embedder = resources(store, dense_on)
    dense: list[Hit] = []
    beyond: dict[int, float] = {}
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
    fused = fuse(
        [(h.label, h.score) for h in dense],
        [(h.label, h.score) for h in lexical],
        options.weights or store_weights(store, language),
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
            found = _candidates(store, enabled, query, options, resources, language=language)
            candidates += _judged(floor, found)
            if options.explain:
                off = {s.id: s for s in store.sources if not s.enabled}
                disabled += _judged(
                    floor, _candidates(store, off, query, options, resources, language=language)
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
    """

    def __init__(self, load_embedder: Callable[[Store], Embedder] | None = None) -> None:
        self._lock = threading.Lock()
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
        calibration = store_calibration(store, self.resources, dense=store.options.retrieval.dense)
        return floor_for(store, level, calibration, text_language(store, self.resources))

    def forget(self, store_id: str) -> None:
        with self._lock:
            keys = [k for k in self._vectors if k[0] == store_id]
            closing = [self._vectors.pop(k) for k in keys]
        for vectors in closing:
            vectors.close()

    def close(self) -> None:
        with self._lock:
            stores, self._vectors = list(self._vectors.values()), {}
        for vectors in stores:
            vectors.close()


def opened_from(store: Store) -> tuple[object, ...]:
    """What a store's vector store is opened from: its id, type and embedding identity, its Qdrant
    service and collection, and the language of its lexical index."""
    options = store.options
    return (store.id, store.type, store.embedding, options.qdrant, options.retrieval.language)


def _default_embedder(store: Store) -> Embedder:
    from kortty_rag.embedding.loader import load_embedder

    return load_embedder(store.embedding)

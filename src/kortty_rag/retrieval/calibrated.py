"""A store's relevance calibration as retrieval reads it (docs/DESIGN.md §11).

A local store's snapshot keeps its calibration in its manifest (:mod:`kortty_rag.index.calibration`,
computed when it is indexed). A Qdrant store keeps none, so retrieval computes it the same way the
first time it serves a version of the store: the fixed off-topic probes
(:mod:`kortty_rag.embedding.probes`) embedded with the store's model, each searched for its best
similarity among the store's chunks. The result is kept in memory per store version, so one query
per version pays the probes' searches. Local and Qdrant stores of the same content then have the same
floors.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from kortty_rag.embedding.base import Embedder
from kortty_rag.embedding.probes import probe_vectors
from kortty_rag.index.base import VectorStore
from kortty_rag.models import Store, StoreType

#: Opens the vector store of a store, and its embedder when asked (cached by the retrieval service).
Resources = Callable[[Store, bool], tuple[VectorStore, Embedder | None]]

_lock = threading.Lock()
_computed: OrderedDict[tuple[object, ...], tuple[float, ...]] = OrderedDict()
_KEPT = 64


def store_calibration(store: Store, resources: Resources, *, dense: bool) -> tuple[float, ...]:
    """The probes' best similarities to what ``store`` serves now, ascending; empty when it has
    none (no sources, a local snapshot from before calibration, or the dense part off)."""
    if not store.sources:
        return ()
    vectors, _ = resources(store, False)
    kept = vectors.calibration()
    if kept or not dense or store.type is not StoreType.QDRANT:
        return kept
    key = (store.id, store.embedding, vectors.version())
    with _lock:
        if key in _computed:
            _computed.move_to_end(key)
            return _computed[key]
    _, embedder = resources(store, True)
    if embedder is None:
        return ()
    sources = [s.id for s in store.sources]
    best = []
    for probe in probe_vectors(embedder):
        hits = vectors.search(probe, 1, sources)
        if not hits:
            return ()  # an empty store: nothing to calibrate on
        best.append(round(hits[0].score, 6))
    calibration = tuple(sorted(best))
    with _lock:
        _computed[key] = calibration
        while len(_computed) > _KEPT:
            _computed.popitem(last=False)
    return calibration

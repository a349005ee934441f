"""Picks the :class:`VectorStore` implementation for a store's type."""

from __future__ import annotations

from types import ModuleType

from kortty_rag.config.paths import store_dir
from kortty_rag.errors import UsageError
from kortty_rag.index.base import VectorStore
from kortty_rag.index.local import LocalStore
from kortty_rag.messages import msg
from kortty_rag.models import Store, StoreType


def _qdrant_module() -> ModuleType:
    """The Qdrant store, imported only when used (qdrant-client is an optional extra)."""
    try:
        from kortty_rag.index import qdrant
    except ImportError as exc:
        raise UsageError(
            msg("Qdrant stores need the qdrant extra ({module} is not installed)", module=exc.name),
            hint=msg("Install it with: pip install 'kortty-rag[qdrant]'."),
        ) from exc
    return qdrant


def lexical_language(store: Store) -> str:
    """The language of the store's lexical index: ``auto`` (detected from its text) or an ISO code."""
    return store.options.retrieval.language


def open_vector_store(store: Store, *, ignore_active: bool = False) -> VectorStore:
    """The store's vectors; ``ignore_active`` starts from nothing (a rebuild never reads the old
    snapshot, which may belong to another embedding model)."""
    if store.type is StoreType.LOCAL:
        return LocalStore(
            store_dir(store.id),
            store.embedding,
            ignore_active=ignore_active,
            language=lexical_language(store),
        )
    if store.type is StoreType.QDRANT:
        vectors: VectorStore = _qdrant_module().open_qdrant_store(
            store, ignore_active=ignore_active
        )
        return vectors
    raise UsageError(
        msg("Store type {type!r} is not supported by this version", type=store.type.value)
    )


def delete_remote_vectors(store: Store) -> int:
    """Before a store definition is deleted: remove the vectors it keeps outside its folder.

    A local store keeps everything in its folder (the registry removes it); a Qdrant store's points
    of its configured sources, its manifests and its marker are deleted — never the collection or
    anything else in it. Returns the number of chunk points removed.
    """
    if store.type is not StoreType.QDRANT or not store.sources:
        # a Qdrant store without sources has no vectors (removing a source deletes its points), so
        # forgetting it needs no connection, e.g. when its first review was cancelled
        return 0
    vectors = _qdrant_module().open_qdrant_store(store, ignore_active=True)
    try:
        return int(vectors.delete_store_points([s.id for s in store.sources]))
    finally:
        vectors.close()

"""Picks the :class:`VectorStore` implementation for a store's type."""

from __future__ import annotations

from kortty_rag.config.paths import store_dir
from kortty_rag.errors import UsageError
from kortty_rag.index.base import VectorStore
from kortty_rag.index.local import LocalStore
from kortty_rag.models import Store, StoreType


def open_vector_store(store: Store, *, ignore_active: bool = False) -> VectorStore:
    """The store's vectors; ``ignore_active`` starts from nothing (a rebuild never reads the old
    snapshot, which may belong to another embedding model)."""
    if store.type is StoreType.LOCAL:
        return LocalStore(store_dir(store.id), store.embedding, ignore_active=ignore_active)
    raise UsageError(f"Store type {store.type.value!r} is not supported by this version")

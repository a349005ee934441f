"""Qdrant stores in tests: qdrant-client's embedded local mode behind the real connection seam, and
an isolated keyring.

``EmbeddedQdrant`` replaces :func:`kortty_rag.index.qdrant.connection_for` so that every store the
factory opens (StoreSession, RetrievalService, the deletion path) talks to one shared in-memory Qdrant —
the same client API as a server, without one. Everything above the connection is the product's code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.index import qdrant
from kortty_rag.index.qdrant_connection import QdrantConnection
from kortty_rag.index.qdrant_layout import default_collection
from kortty_rag.models import EmbeddingIdentity, Store, StoreType


class EmbeddedQdrant:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.client = QdrantClient(location=":memory:")
        self.opened = 0
        monkeypatch.setattr(qdrant, "connection_for", self.connection_for)

    def connection_for(self, store: Store) -> QdrantConnection:
        self.opened += 1
        _, collection = qdrant.qdrant_settings(store)
        return QdrantConnection(
            self.client,
            endpoint="embedded:memory",
            collection=collection,
            embedded=True,
            owns_client=False,
        )

    def count(self, collection: str, **payload: str) -> int:
        from qdrant_client import models

        flt = models.Filter(
            must=[
                models.FieldCondition(key=k, match=models.MatchValue(value=v))
                for k, v in payload.items()
            ]
        )
        return self.client.count(collection, count_filter=flt, exact=True).count

    def close(self) -> None:
        self.client.close()


def create_qdrant_store(
    name: str,
    identity: EmbeddingIdentity,
    *,
    url: str = "http://127.0.0.1:6333",
    collection: str | None = None,
    registry: StoreRegistry | None = None,
) -> Store:
    """A Qdrant store definition, as ``store create --type qdrant`` writes it, but without the
    connection that :func:`kortty_rag.app.stores.create_store` makes before it reports success:
    tests connect later, to a server whose faults they control."""
    registry = registry or StoreRegistry()
    store = registry.create(name, identity, type=StoreType.QDRANT)
    settings = {"qdrant": {"url": url, "collection": collection or default_collection(store.id)}}
    return registry.update(store.id, lambda s: s.evolve(settings=s.settings | settings))


def isolate_keyring(monkeypatch: pytest.MonkeyPatch, home: Path, backend: str) -> None:
    """Choose ``backend`` explicitly, with keyring's data and config folders inside ``home``."""
    import keyring.core

    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", backend)
    # registers the restore of the process-wide backend; init_backend then replaces it
    monkeypatch.setattr(keyring.core, "_keyring_backend", keyring.core.get_keyring())
    keyring.core.init_backend()

"""The retrieval service keeps a store open for what it was opened from and opens it anew by itself
when that changed — no caller has to remember to say so (a missed call used to serve a stale store)."""

from __future__ import annotations

import dataclasses

import pytest

from kortty_rag.index import factory
from kortty_rag.models import EmbeddingIdentity, Store, StoreType
from kortty_rag.retrieval.search import RetrievalService

IDENTITY = EmbeddingIdentity("m", "0" * 64, 8, "mean", "", "", 256, 38)


class Opened:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.closed = False

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Opened]:
    log: list[Opened] = []

    def open_vector_store(store: Store, **_: object) -> Opened:
        log.append(Opened(store))
        return log[-1]

    monkeypatch.setattr(factory, "open_vector_store", open_vector_store)
    return log


def test_a_store_is_opened_once_and_anew_when_what_it_was_opened_from_changed(
    opened: list[Opened],
) -> None:
    service = RetrievalService(load_embedder=lambda store: None)  # type: ignore[arg-type,return-value]
    store = Store("s-1", "S", StoreType.QDRANT, IDENTITY)
    store = store.with_qdrant("https://q.example.com", "c1")
    first, _ = service.resources(store, dense=False)
    tuned = store.with_retrieval(min_relevance="high", dense_weight=0.5, fusion="rrf")
    assert service.resources(tuned, dense=False)[0] is first  # ranking settings: same open store
    assert len(opened) == 1
    changes = [
        store.with_retrieval(language="de"),  # another lexical analyzer
        store.with_qdrant("https://q.example.com", "c2"),  # another collection
        dataclasses.replace(store, embedding=dataclasses.replace(IDENTITY, model_sha256="1" * 64)),
    ]
    for changed in changes:
        before = opened[-1]
        now, _ = service.resources(changed, dense=False)
        assert now is opened[-1] is not before and before.closed, changed
    other = Store("s-2", "T", StoreType.LOCAL, IDENTITY)
    service.resources(other, dense=False)
    assert not opened[-2].closed  # another store's open store is not touched
    service.forget("s-2")  # what a deleted store held open is released
    assert opened[-1].closed
    service.close()
    assert all(o.closed for o in opened)

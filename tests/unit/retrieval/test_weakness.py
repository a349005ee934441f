"""One verdict on weak results for every front end (``RetrievalResult.weakness``), the context
window's lower bound and the service's own lock, checked against hand-made results and a blocking
fake store."""

from __future__ import annotations

import threading
from collections.abc import Collection

import numpy as np
import pytest
from tests.helpers.fakes import HashEmbedder, SearchOnlyVectors

from kortty_rag.errors import UsageError
from kortty_rag.index import factory
from kortty_rag.models import Chunk, Hit, Source, SourceKind, Store, StoreType
from kortty_rag.retrieval.search import (
    NO_MATCHES,
    NOTHING_RELEVANT,
    Candidate,
    Excerpt,
    RetrievalResult,
    RetrievalService,
    SearchOptions,
    Weakness,
)

SOURCE = Source(id="s", path="/notes", kind=SourceKind.FOLDER)


def candidate(dense: float | None, lexical_rank: int | None) -> Candidate:
    chunk = Chunk("c", "s", "a.md", None, 0, 4, 1, "text")
    return Candidate(
        store_id="st",
        store_name="Notes",
        source=SOURCE,
        label=0,
        chunk=chunk,
        path="/notes/a.md",
        fused=0.5,
        dense_rank=None if dense is None else 1,
        dense_score=dense,
        lexical_rank=lexical_rank,
        lexical_score=None if lexical_rank is None else 3.0,
    )


def result(*candidates: Candidate, note: str = "") -> RetrievalResult:
    excerpts = tuple(Excerpt(f"R{i}", c) for i, c in enumerate(candidates, 1))
    return RetrievalResult(
        "q", excerpts, (), 4000, 10, "block" if excerpts else "", ("st",), (), note
    )


@pytest.mark.parametrize(
    ("made", "expected"),
    [
        (result(note=NOTHING_RELEVANT), Weakness.NOTHING_RELEVANT),
        (result(note=NO_MATCHES), Weakness.NO_EXCERPTS),
        # one strong excerpt is not weak (the CLI used to call anything under two excerpts weak)
        (result(candidate(0.62, None)), Weakness.NONE),
        # an exact word match is never loose, however low the similarity
        (result(candidate(0.05, 3)), Weakness.NONE),
        (result(candidate(0.21, None), candidate(0.29, None)), Weakness.LOOSE),
        (result(candidate(None, None)), Weakness.LOOSE),
        (result(candidate(0.2, None), candidate(0.31, None)), Weakness.NONE),
    ],
)
def test_one_definition_of_weak_results(made: RetrievalResult, expected: Weakness) -> None:
    assert made.weakness is expected
    assert made.to_json()["weakness"] == expected.value


class BlockingVectors(SearchOnlyVectors):
    """Its dense search waits until the test lets it go on."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.closed = False

    def search(self, vector: np.ndarray, k: int, source_ids: Collection[str]) -> list[Hit]:
        self.entered.set()
        assert self.release.wait(timeout=30)
        return []

    def lexical_search(self, query: str, k: int, source_ids: Collection[str]) -> list[Hit]:
        return []

    def close(self) -> None:
        self.closed = True


def test_the_service_refuses_a_tiny_window_and_closes_only_after_a_running_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    vectors = BlockingVectors()
    monkeypatch.setattr(factory, "open_vector_store", lambda store, **_: vectors)
    embedder = HashEmbedder()
    service = RetrievalService(load_embedder=lambda store: embedder)  # type: ignore[arg-type,return-value]
    store = Store("st", "Notes", StoreType.LOCAL, embedder.identity, sources=(SOURCE,))
    with pytest.raises(UsageError, match="at least 256 tokens"):
        service.search("q", [store], context_window=255)
    assert not vectors.entered.is_set()  # refused before anything was opened

    found: list[RetrievalResult] = []
    options = SearchOptions(lexical=False)
    worker = threading.Thread(
        target=lambda: found.append(service.search("q", [store], options=options)), daemon=True
    )
    worker.start()
    assert vectors.entered.wait(timeout=30)
    assert service.close(wait=0.2) is False  # a search holds the store: not closed under it
    assert not vectors.closed
    vectors.release.set()
    worker.join(timeout=30)
    assert found and found[0].weakness is Weakness.NO_EXCERPTS
    assert service.close(wait=30) is True and vectors.closed

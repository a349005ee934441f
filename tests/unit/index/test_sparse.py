"""The BM25 sparse vectors of Qdrant stores: the analyzer's terms, compounds, BM25 weights."""

from __future__ import annotations

import threading

import pytest

from kortty_rag.index import sparse
from kortty_rag.index.analysis import analyzer

ENGLISH = analyzer("en")


def weights(text: str, avgdl: float) -> dict[int, float]:
    ((indices, values),) = sparse.document_vectors([text], avgdl, ENGLISH)
    return dict(zip(indices, values, strict=True))


def test_identifiers_add_one_compound_term() -> None:
    found = weights("call fetch_with_retry or fetch twice: fetch", 10.0)
    assert sparse.term_index("fetch_with_retry") in found
    assert sparse.term_index("fetch") in found and sparse.term_index("retri") in found
    query = sparse.query_vector("fetch_with_retry", ENGLISH)
    assert query is not None
    assert query[0] == sorted(sparse.term_index(t) for t in ("fetch", "retri", "fetch_with_retry"))


def test_query_drops_stopwords_like_the_local_index() -> None:
    query = sparse.query_vector("What is the boiling point of water?", ENGLISH)
    assert query is not None
    expected = sorted(sparse.term_index(t) for t in ("boil", "point", "water"))
    assert query == (expected, [1.0, 1.0, 1.0])
    assert sparse.query_vector("  ...  ", ENGLISH) is None


def test_bm25_weights_saturate_and_normalise_length() -> None:
    apple = sparse.term_index("appl")
    single = weights("apple " + "pear " * 9, 10.0)[apple]
    triple = weights("apple apple apple " + "pear " * 7, 10.0)[apple]
    longer = weights("apple " + "pear " * 29, 10.0)[apple]
    assert single == pytest.approx(1.0)  # one occurrence at the average length
    assert single < triple < 3 * single  # more occurrences weigh more, but saturate (k1)
    assert longer < single  # the same occurrence weighs less in a longer chunk (b)


def test_coverage_is_the_share_of_query_terms_found() -> None:
    assert (
        sparse.coverage("backup keys rotation", "Rotate the backup keys monthly.", ENGLISH) == 1.0
    )
    assert sparse.coverage("capital of Mongolia", "capital letters", ENGLISH) == 0.5
    assert sparse.coverage("the of", "anything", ENGLISH) == 0.0


def test_a_batch_gives_the_same_vectors_as_one_by_one() -> None:
    texts = ["alpha beta_gamma delta", "", "x.y.z and a/b", "alpha " * 50]
    batch = sparse.document_vectors(texts, 40.0, ENGLISH)
    assert batch == [sparse.document_vectors([t], 40.0, ENGLISH)[0] for t in texts]
    assert batch[1] == ([], [])
    indices = batch[0][0]
    assert indices == sorted(set(indices)) and all(0 <= i < 2**32 for i in indices)


def test_the_analyzer_is_safe_to_share_between_threads() -> None:
    texts = [f"document {i} about running topic_{i} and more words" for i in range(200)]
    expected = sparse.document_vectors(texts, 20.0, ENGLISH)
    results: list[object] = []

    def work() -> None:
        results.append(sparse.document_vectors(texts, 20.0, ENGLISH))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
        assert not thread.is_alive()
    assert results == [expected] * 4

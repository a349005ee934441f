"""The BM25 sparse vectors of Qdrant stores: the local index's terms, compounds, BM25 weights."""

from __future__ import annotations

import threading

import pytest

from kortty_rag.index import sparse


def weights(text: str, avgdl: float) -> dict[int, float]:
    ((indices, values),) = sparse.document_vectors([text], avgdl)
    return dict(zip(indices, values, strict=True))


def test_terms_are_folded_and_stemmed_like_the_local_index() -> None:
    (terms,) = sparse._tokenizer.terms(["Running CAFÉS possibly technology Ελληνικά"])
    # FTS5's porter (with the C reference's bli→ble and logi→log), Latin diacritics folded only
    assert terms == ["run", "cafe", "possibl", "technolog", "ελληνικά"]


def test_identifiers_become_one_compound_term() -> None:
    ((counts, length),) = sparse.document_terms(["call fetch_with_retry or fetch twice: fetch"])
    assert length == 8  # call fetch with retry or fetch twice fetch
    assert counts["fetch"] == 3
    assert counts[sparse.compound(["fetch", "with", "retri"])] == 1
    # the query asks for the compound only, like FTS5's phrase query of the parts
    query = sparse.query_vector("fetch_with_retry")
    assert query is not None
    assert query[0] == [sparse.term_index(sparse.compound(["fetch", "with", "retri"]))]


def test_query_drops_stopwords_like_the_local_index() -> None:
    query = sparse.query_vector("What is the boiling point of water?")
    assert query is not None
    expected = sorted(sparse.term_index(t) for t in ("boil", "point", "water"))
    assert query == (expected, [1.0, 1.0, 1.0])
    assert sparse.query_vector("  ...  ") is None


def test_bm25_weights_saturate_and_normalise_length() -> None:
    apple = sparse.term_index("appl")
    single = weights("apple " + "pear " * 9, 10.0)[apple]
    triple = weights("apple apple apple " + "pear " * 7, 10.0)[apple]
    longer = weights("apple " + "pear " * 29, 10.0)[apple]
    assert single == pytest.approx(1.0)  # one occurrence at the average length
    assert single < triple < 3 * single  # more occurrences weigh more, but saturate (k1)
    assert longer < single  # the same occurrence weighs less in a longer chunk (b)


def test_a_batch_gives_the_same_vectors_as_one_by_one() -> None:
    texts = ["alpha beta_gamma delta", "", "x.y.z and a/b", "alpha " * 50]
    batch = sparse.document_vectors(texts, 40.0)
    assert batch == [sparse.document_vectors([t], 40.0)[0] for t in texts]
    assert batch[1] == ([], [])
    indices = batch[0][0]
    assert indices == sorted(set(indices)) and all(0 <= i < 2**32 for i in indices)


def test_the_tokenizer_is_safe_to_share_between_threads() -> None:
    texts = [f"document {i} about topic_{i} and more words" for i in range(50)]
    expected = sparse.document_vectors(texts, 20.0)
    results: list[object] = []

    def work() -> None:
        results.append(sparse.document_vectors(texts, 20.0))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
        assert not thread.is_alive()
    assert results == [expected] * 4

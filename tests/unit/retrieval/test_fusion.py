"""Fusion of the dense and the lexical ranking: RRF and the convex combination, by hand."""

from __future__ import annotations

import pytest

from kortty_rag.retrieval.fusion import FusionWeights, fuse


def test_convex_combination_of_normalised_scores() -> None:
    dense = [("a", 0.6), ("b", 0.3)]
    lexical = [("b", 8.0), ("c", 2.0)]
    fused = {f.key: f.score for f in fuse(dense, lexical, FusionWeights(0.8, 0.2, method="convex"))}
    # cosine from -1 up to the best candidate's 0.6; BM25 from 0 up to the best candidate's 8.0
    assert fused["a"] == pytest.approx(0.8 * 1.0)
    assert fused["b"] == pytest.approx(0.8 * (0.3 + 1) / 1.6 + 0.2 * 1.0)
    assert fused["c"] == pytest.approx(0.2 * 2.0 / 8.0)
    assert [f.key for f in fuse(dense, lexical, FusionWeights(0.8, 0.2, method="convex"))] == [
        "b",
        "a",
        "c",
    ]


def test_a_lexical_only_candidate_counts_its_computed_similarity() -> None:
    dense = [("a", 0.6), ("b", 0.3)]
    lexical = [("c", 8.0), ("b", 2.0)]
    convex = FusionWeights(0.8, 0.2, method="convex")
    without = {f.key: f for f in fuse(dense, lexical, convex)}
    assert without["c"].score == pytest.approx(0.2)  # as if its similarity were -1
    fused = {f.key: f for f in fuse(dense, lexical, convex, {"c": 0.25, "a": 0.0, "z": 0.9})}
    assert fused["c"].score == pytest.approx(0.8 * (0.25 + 1) / 1.6 + 0.2)
    assert (fused["c"].dense_score, fused["c"].dense_rank) == (0.25, None)
    # a similarity for a dense candidate or for no candidate at all changes nothing
    assert fused["a"].score == pytest.approx(0.8) and fused["a"].dense_score == 0.6
    assert "z" not in fused
    # rank fusion reports the similarity but has no rank to fuse
    rrf = FusionWeights(0.5, 0.5, 10, "rrf")
    ranked = {f.key: f for f in fuse(dense, lexical, rrf, {"c": 0.25})}
    assert ranked["c"].score == pytest.approx(0.5 / 11) and ranked["c"].dense_score == 0.25


def test_a_lexical_match_of_few_of_the_query_s_words_counts_less() -> None:
    dense = [("a", 0.5)]
    lexical = [("b", 4.0), ("c", 2.0)]
    convex = FusionWeights(0.8, 0.2, method="convex")
    plain = {f.key: f.score for f in fuse(dense, lexical, convex, {"b": 0.2, "c": 0.2})}
    assert plain["b"] == pytest.approx(0.8 * 1.2 / 1.5 + 0.2)  # the best BM25: a full 0.2
    shared = {"b": 0.25, "c": 1.0}  # "b" holds a quarter of the query's words, "c" all of them
    fused = {f.key: f.score for f in fuse(dense, lexical, convex, {"b": 0.2, "c": 0.2}, shared)}
    assert fused["b"] == pytest.approx(0.8 * 1.2 / 1.5 + 0.2 * 1.0 * 0.5)
    assert fused["c"] == pytest.approx(0.8 * 1.2 / 1.5 + 0.2 * 0.5 * 1.0)
    assert fused["a"] == pytest.approx(0.8)
    # rank fusion reads ranks only
    rrf = FusionWeights(0.5, 0.5, 10, "rrf")
    assert {f.key: f.score for f in fuse(dense, lexical, rrf, None, shared)} == {
        f.key: f.score for f in fuse(dense, lexical, rrf)
    }


def test_rrf_uses_ranks_only() -> None:
    dense = [("a", 0.9), ("b", 0.1)]
    lexical = [("b", 100.0)]
    fused = {f.key: f.score for f in fuse(dense, lexical, FusionWeights(0.5, 0.5, 10, "rrf"))}
    assert fused == {"a": pytest.approx(0.5 / 11), "b": pytest.approx(0.5 / 12 + 0.5 / 11)}


def test_defaults_are_the_swept_ones_and_bad_methods_are_refused() -> None:
    weights = FusionWeights()
    assert (weights.method, weights.dense, weights.lexical) == ("convex", 0.8, 0.2)
    with pytest.raises(ValueError, match="unknown fusion method"):
        FusionWeights(method="max")


def test_a_model_gets_less_say_in_a_language_it_was_not_trained_for() -> None:
    from dataclasses import replace

    from tests.helpers.fakes import HashEmbedder

    from kortty_rag.embedding.catalog import STARTER_ID, speaks
    from kortty_rag.models import Store, StoreType
    from kortty_rag.retrieval.search import store_weights

    assert speaks(STARTER_ID, "en") is True and speaks(STARTER_ID, "de") is False
    assert speaks("bge-m3-q8_0", "de") is True  # multilingual
    assert speaks("imported-model", "de") is None  # a model from a file: unknown
    assert speaks(STARTER_ID, "none") is None and speaks(STARTER_ID, None) is None
    identity = replace(HashEmbedder().identity, model_id=STARTER_ID)
    store = Store(id="s", name="Notes", type=StoreType.LOCAL, embedding=identity)
    assert store_weights(store, "en").dense == 0.8
    assert store_weights(store, None).dense == 0.8  # not known: the defaults
    assert (store_weights(store, "de").dense, store_weights(store, "de").lexical) == (0.6, 0.4)
    # a weight the store sets is what the person chose, in any language
    tuned = store.with_retrieval(dense_weight=0.7)
    assert store_weights(tuned, "de").dense == 0.7
    imported = replace(store, embedding=replace(identity, model_id="imported-model"))
    assert store_weights(imported, "de").dense == 0.8
    # rank fusion's weights were not chosen for this: they stay as they are
    ranked = store.with_retrieval(fusion="rrf")
    assert store_weights(ranked, "de").dense == 0.8

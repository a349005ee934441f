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

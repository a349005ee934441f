"""Store settings are typed: read through ``Store.options`` with every default in one place, and
changed only through checks that refuse what a definition read back would refuse."""

from __future__ import annotations

import pytest

from kortty_rag.errors import UsageError
from kortty_rag.models import (
    EmbeddingIdentity,
    FusionMethod,
    RelevanceLevel,
    RetrievalSettings,
    Store,
    StoreType,
)

IDENTITY = EmbeddingIdentity("m", "0" * 64, 8, "mean", "", "", 256, 38)


def store(settings: dict[str, object] | None = None) -> Store:
    return Store("s-1", "S", StoreType.LOCAL, IDENTITY, settings=settings or {})


def test_defaults_come_from_one_place() -> None:
    options = store().options
    assert options.retrieval == RetrievalSettings()
    assert options.retrieval.fusion is FusionMethod.CONVEX
    assert options.retrieval.min_relevance is RelevanceLevel.LOW
    assert (options.qdrant.url, options.qdrant.collection) == ("", "")


def test_explicit_values_are_typed() -> None:
    retrieval = {"fusion": "rrf", "rrf_k": 10, "min_relevance": "high", "dense": False}
    options = store({"retrieval": retrieval}).options.retrieval
    assert options.fusion is FusionMethod.RRF and options.rrf_k == 10
    assert options.min_relevance is RelevanceLevel.HIGH and not options.dense and options.lexical


def test_a_change_keeps_only_what_was_set_and_is_typed_at_once() -> None:
    changed = store({"retrieval": {"rrf_k": 10}, "other": {"kept": True}}).with_retrieval(
        min_relevance=RelevanceLevel.MEDIUM, dense_weight=0.6
    )
    assert changed.settings == {
        "retrieval": {"rrf_k": 10, "min_relevance": "medium", "dense_weight": 0.6},
        "other": {"kept": True},
    }
    assert changed.options.retrieval.min_relevance is RelevanceLevel.MEDIUM
    assert changed.with_qdrant("https://q.example.com", "c").options.qdrant.collection == "c"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"dense_weight": 3}, "dense_weight must be at most 1"),
        ({"dense_weight": -0.1}, "dense_weight must be at least 0"),
        ({"rrf_k": 0}, "rrf_k must be at least 1"),
        ({"fusion": "magic"}, "fusion"),
        ({"min_relevance": "extreme"}, "min_relevance"),
        ({"language": "klingon"}, "language"),
        ({"dense": "yes"}, "dense"),
        ({"dense": False, "lexical": False}, "at least one of the dense and lexical parts"),
    ],
)
def test_an_invalid_change_is_refused_and_changes_nothing(
    change: dict[str, object], words: str
) -> None:
    before = store({"retrieval": {"rrf_k": 10}})
    with pytest.raises(UsageError) as refused:
        before.with_retrieval(**change)
    assert words in refused.value.message
    assert before.settings == {"retrieval": {"rrf_k": 10}}

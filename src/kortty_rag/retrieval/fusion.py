"""Weighted reciprocal rank fusion (SPEC §11): ``score = Σ weight / (k + rank)`` over the rankings.

RRF needs no score calibration between cosine similarities and BM25 scores, only ranks, which is
what makes dense and lexical results (and results from several stores) comparable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

DEFAULT_DENSE_WEIGHT = 0.7
DEFAULT_LEXICAL_WEIGHT = 0.3
DEFAULT_RRF_K = 60

K = TypeVar("K")


@dataclass(frozen=True)
class FusionWeights:
    dense: float = DEFAULT_DENSE_WEIGHT
    lexical: float = DEFAULT_LEXICAL_WEIGHT
    k: int = DEFAULT_RRF_K

    def __post_init__(self) -> None:
        if self.dense < 0 or self.lexical < 0 or self.dense + self.lexical <= 0:
            raise ValueError("fusion weights must be non-negative and not both zero")
        if self.k < 1:
            raise ValueError("the RRF constant k must be at least 1")


@dataclass
class Fused(Generic[K]):
    """A candidate with its place in each ranking (1-based; ``None`` when absent)."""

    key: K
    score: float = 0.0
    dense_rank: int | None = None
    dense_score: float | None = None
    lexical_rank: int | None = None
    lexical_score: float | None = None
    extra: dict[str, object] = field(default_factory=dict)


def fuse(
    dense: list[tuple[K, float]],
    lexical: list[tuple[K, float]],
    weights: FusionWeights,
) -> list[Fused[K]]:
    """Fuse two rankings (each best first) into one, best first; ties break by dense rank, then
    lexical rank, so the order is deterministic."""
    table: dict[K, Fused[K]] = {}
    for rank, (key, score) in enumerate(dense, start=1):
        entry = table.setdefault(key, Fused(key))
        entry.dense_rank, entry.dense_score = rank, score
        entry.score += weights.dense / (weights.k + rank)
    for rank, (key, score) in enumerate(lexical, start=1):
        entry = table.setdefault(key, Fused(key))
        entry.lexical_rank, entry.lexical_score = rank, score
        entry.score += weights.lexical / (weights.k + rank)
    big = 1 << 30
    return sorted(
        table.values(),
        key=lambda f: (-f.score, f.dense_rank or big, f.lexical_rank or big),
    )

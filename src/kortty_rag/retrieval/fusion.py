"""Fusing the dense and the lexical ranking into one.

Two methods:

* ``rrf`` — weighted reciprocal rank fusion: ``score = Σ weight / (k + rank)``. It needs only ranks,
  no calibration between cosine similarities and BM25 scores.
* ``convex`` — a convex combination of the two scores, each normalised to 0..1 over the query's
  candidates: the cosine similarity from its theoretical minimum (−1) to the best candidate's, the
  BM25 score from 0 to the best candidate's. A candidate only the lexical part found has its cosine
  similarity computed exactly (``dense_beyond``): counted as −1, a store in a language its model
  does not know could never rank a lexical-only match above its dense candidates (German manual
  pages with the English starter model: the page in the first six for 0.72 of the questions, 0.85
  with the similarity computed; ``benchmarks/german_eval.py``). A candidate only the dense part found
  gets a BM25 score of 0 (it is below the lexical part's last candidate, usually without any of the
  query's terms). The lexical part is scaled by the square root of the share of the query's terms the
  candidate holds: normalised by the best candidate, one word of four matched weakly would count as
  a perfect match (nDCG@10 at the product's 40 candidates: SciFact 0.737 → 0.742, German manual pages
  at dense weight 0.6 0.777 → 0.783).
  Unlike ranks, normalised scores keep how much better the first candidate is than the second,
  which is why this fusion is usually the stronger one in domain (Bruch, Gai and Ingber, "An
  Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023).

Fused scores of either method are comparable across stores (both are 0..1-bounded sums of the same
form), which is what lets results from several stores be merged by fused score.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from kortty_rag.models import FusionMethod, RetrievalSettings

RRF = FusionMethod.RRF.value
CONVEX = FusionMethod.CONVEX.value
METHODS = tuple(m.value for m in FusionMethod)
#: the defaults are the store settings' (chosen on the SciFact dev split with the starter model,
#: ``beir_eval.py --sweep``: convex 0.8 / 0.2 gave nDCG@10 0.725, the best RRF (0.4 / 0.6, k = 5)
#: 0.715, RRF 0.7 / 0.3, k = 60 0.695)
DEFAULT_METHOD = RetrievalSettings.fusion.value
DEFAULT_DENSE_WEIGHT = RetrievalSettings.dense_weight
DEFAULT_LEXICAL_WEIGHT = round(1.0 - DEFAULT_DENSE_WEIGHT, 9)  # 0.2, not 0.19999…
DEFAULT_RRF_K = RetrievalSettings.rrf_k
#: the lowest cosine similarity there is (the floor of the dense normalisation)
_COSINE_MIN = -1.0

K = TypeVar("K")


@dataclass(frozen=True)
class FusionWeights:
    dense: float = DEFAULT_DENSE_WEIGHT
    lexical: float = DEFAULT_LEXICAL_WEIGHT
    k: int = DEFAULT_RRF_K
    method: str = DEFAULT_METHOD

    def __post_init__(self) -> None:
        if self.dense < 0 or self.lexical < 0 or self.dense + self.lexical <= 0:
            raise ValueError("fusion weights must be non-negative and not both zero")
        if self.k < 1:
            raise ValueError("the RRF constant k must be at least 1")
        if self.method not in METHODS:
            raise ValueError(f"unknown fusion method {self.method!r}")


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
    dense_beyond: Mapping[K, float] | None = None,
    coverage: Mapping[K, float] | None = None,
) -> list[Fused[K]]:
    """Fuse two rankings (each best first) into one, best first; ties break by dense rank, then
    lexical rank, so the order is deterministic. ``dense_beyond``: the cosine similarities of
    lexical candidates outside the dense ranking (they have no dense rank; convex fusion counts
    their similarity, RRF only reports it). ``coverage``: the share of the query's terms each lexical
    candidate holds; convex fusion scales its lexical part by the square root of it."""
    table: dict[K, Fused[K]] = {}
    convex = weights.method == CONVEX
    top_dense = max((s for _, s in dense), default=0.0)
    top_lexical = max((s for _, s in lexical), default=0.0)
    for rank, (key, score) in enumerate(dense, start=1):
        entry = table.setdefault(key, Fused(key))
        entry.dense_rank, entry.dense_score = rank, score
        if convex:
            entry.score += weights.dense * scaled(score, _COSINE_MIN, top_dense)
        else:
            entry.score += weights.dense / (weights.k + rank)
    for rank, (key, score) in enumerate(lexical, start=1):
        entry = table.setdefault(key, Fused(key))
        entry.lexical_rank, entry.lexical_score = rank, score
        if convex:
            held = 1.0 if coverage is None else coverage.get(key, 1.0)
            share = math.sqrt(min(1.0, max(0.0, held))) if not math.isnan(held) else 0.0
            entry.score += weights.lexical * scaled(score, 0.0, top_lexical) * share
        else:
            entry.score += weights.lexical / (weights.k + rank)
    for key, score in (dense_beyond or {}).items():
        beyond = table.get(key)
        if beyond is None or beyond.dense_rank is not None:
            continue
        beyond.dense_score = score
        if convex:
            beyond.score += weights.dense * scaled(score, _COSINE_MIN, top_dense)
    big = 1 << 30
    return sorted(
        table.values(),
        key=lambda f: (-f.score, f.dense_rank or big, f.lexical_rank or big),
    )


def scaled(score: float, low: float, high: float) -> float:
    """``score`` on 0..1 between ``low`` and ``high`` (1 when the range is empty)."""
    if high <= low:
        return 1.0
    return min(1.0, max(0.0, (score - low) / (high - low)))

"""The known-answer self-test (docs/DESIGN.md §4), run when a model is installed or first loaded.

Three pairs of sentences that mean the same thing in different words; every sentence's nearest other
sentence must be its partner. On top: the right width, finite unit-length vectors, identical vectors for
the same text alone and inside a batch (which catches sequences leaking into each other), and a query
ranking its paraphrase first. A model that fails is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kortty_rag.embedding.base import Embedder
from kortty_rag.errors import ModelError
from kortty_rag.messages import msg

PAIRS: tuple[tuple[str, str], ...] = (
    ("The cat is sleeping on the warm windowsill.", "A kitten naps in the sunny window."),
    ("The stock market fell sharply today.", "Share prices dropped steeply on the exchange."),
    ("How do I bake bread at home?", "A simple recipe for homemade loaves."),
)
QUERY = "Where is the cat resting?"


@dataclass(frozen=True)
class SelfTestResult:
    nearest: tuple[int, ...]
    pair_similarity: float
    batch_consistency: float


def run_self_test(embedder: Embedder, *, name: str) -> SelfTestResult:
    """Run the known-answer test; raise :class:`ModelError` naming the failed check."""
    sentences = [s for pair in PAIRS for s in pair]
    vectors = embedder.embed_documents(sentences)
    dims = embedder.identity.dimensions

    def fail(what: str) -> ModelError:
        return ModelError(
            msg("{model} failed its self-test: {problem}", model=name, problem=what),
            hint=msg(
                "The file may be corrupted or not an embedding model; reinstall or import another."
            ),
        )

    if vectors.shape != (len(sentences), dims):
        raise fail(
            msg(
                "expected {count}x{dimensions} vectors, got {shape}",
                count=len(sentences),
                dimensions=dims,
                shape=str(vectors.shape),
            )
        )
    if not np.isfinite(vectors).all():
        raise fail(msg("non-finite values"))
    if not np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3):
        raise fail(msg("vectors are not unit length"))
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    nearest = tuple(int(i) for i in sims.argmax(axis=1))
    partners = tuple(i ^ 1 for i in range(len(sentences)))
    if nearest != partners:
        raise fail(
            msg(
                "nearest neighbours {nearest}, expected {expected}",
                nearest=str(nearest),
                expected=str(partners),
            )
        )
    alone = embedder.embed_documents([sentences[3]])[0]
    consistency = float(alone @ vectors[3])
    if consistency < 0.999:
        raise fail(
            msg("batched and single vectors differ (cosine {cosine:.4f})", cosine=consistency)
        )
    query = embedder.embed_query(QUERY)
    if int((vectors @ query).argmax()) not in (0, 1):
        raise fail(msg("the test query does not find its passage"))
    pair_similarity = float(np.mean([sims[i, i ^ 1] for i in range(len(sentences))]))
    return SelfTestResult(nearest, pair_similarity, consistency)

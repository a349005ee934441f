"""One hop along note links after the first stage (docs/DESIGN.md §11, "Links between notes").

The best admitted candidates of a store (:data:`SEEDS`) are its *seeds*. For each seed, the notes
its note links to and the notes that link to it (at most ``index.local.LINKS_PER_NOTE`` each way)
are looked at; of each linked note, the chunk closest to the question (by the store's own
similarity; the chunks under a heading the link names, ``[[Note#Heading]]``, come first) is
taken. It gets a bonus of ``bonus`` × the seed's fused score: added to its own score when it is a
candidate already, else to the score its similarity alone would have given it (a candidate the
dense part found, without a lexical match). Each chunk gets one bonus, the largest.

Nothing else changes: the relevance floor judges a linked chunk by its own similarity, and the
per-document cap, the excerpt limit and the token budget apply as to any other candidate, so a
link can reorder and fill the block but never push an irrelevant excerpt into it. A store whose
dense part is off, or a store type without a link graph (Qdrant), is not expanded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from kortty_rag.index.base import VectorStore
from kortty_rag.models import LinkedChunk, Source
from kortty_rag.retrieval.fusion import CONVEX, FusionWeights, scaled
from kortty_rag.retrieval.relevance import RelevanceFloor
from kortty_rag.retrieval.results import Candidate, LinkReason, document_path

#: the first stage's best admitted candidates whose notes are followed
SEEDS = 3
#: the linked chunk's bonus as a share of its seed's fused score (benchmarks/links_eval.py)
BONUS = 0.05
#: cosine similarity's lowest value (the floor of convex fusion's dense normalisation)
_COSINE_MIN = -1.0


def expand(
    candidates: list[Candidate],
    vectors: VectorStore,
    query: np.ndarray,
    *,
    sources: Mapping[str, Source],
    weights: FusionWeights,
    floor: RelevanceFloor,
    bonus: float = BONUS,
) -> list[Candidate]:
    """``candidates`` (best first, judged on ``floor``) with the linked chunks of their seeds
    added or raised (see the module docstring), best first again."""
    seeds = [c for c in candidates if floor.admits(c.dense_score, c.coverage)][:SEEDS]
    if not seeds or bonus <= 0:
        return candidates
    linked = vectors.linked([s.label for s in seeds], sources.keys())
    if not linked:
        return candidates
    similarity = vectors.similarities(query, {item.label for item in linked})
    best = _best_per_note(linked, similarity)
    by_seed = {s.label: s for s in seeds}
    raised: dict[int, tuple[float, LinkReason]] = {}
    for item in best:
        seed = by_seed[item.seed]
        amount = bonus * seed.fused
        if item.label not in raised or raised[item.label][0] < amount:
            raised[item.label] = (amount, LinkReason(item.outgoing, item.note, seed.path))
    chunks = {item.label: item.chunk for item in best}
    top_dense = max(
        (
            c.dense_score
            for c in candidates
            if c.dense_rank is not None and c.dense_score is not None
        ),
        default=None,
    )
    result = []
    for candidate in candidates:
        found = raised.pop(candidate.label, None)
        if found is None:
            result.append(candidate)
            continue
        amount, reason = found
        result.append(
            replace(candidate, fused=candidate.fused + amount, linked=reason, graph_bonus=amount)
        )
    template = candidates[0]
    for label, (amount, reason) in raised.items():
        chunk = chunks[label]
        source = sources.get(chunk.source_id)
        score = similarity.get(label)
        if source is None or score is None:
            continue
        own = 0.0
        if weights.method == CONVEX:
            own = weights.dense * scaled(score, _COSINE_MIN, max(score, top_dense or score))
        result.append(
            Candidate(
                template.store_id,
                template.store_name,
                source,
                label,
                chunk,
                document_path(source, chunk.rel_path),
                own + amount,
                None,
                score,
                None,
                None,
                None,
                floor.relevance(score, None),
                reason,
                amount,
            )
        )
    result.sort(key=lambda c: -c.fused)
    return result


def _best_per_note(linked: list[LinkedChunk], similarity: Mapping[int, float]) -> list[LinkedChunk]:
    """Per seed and linked note, its chunk closest to the question (a chunk under the heading the
    link names first)."""
    best: dict[tuple[int, str, str], LinkedChunk] = {}
    for item in linked:
        if item.label not in similarity:
            continue
        key = (item.seed, item.chunk.source_id, item.chunk.rel_path)
        held = best.get(key)
        if held is None or (item.anchored, similarity[item.label]) > (
            held.anchored,
            similarity[held.label],
        ):
            best[key] = item
    return list(best.values())

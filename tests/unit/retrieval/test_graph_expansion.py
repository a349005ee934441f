"""Expansion along note links after the first stage: a linked note's best chunk comes in with its
reason and a bonus; the relevance floor, the per-document cap and the switches still hold."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
from tests.helpers.fakes import HashEmbedder, RankedVectors

from kortty_rag.models import Chunk, Hit, LinkedChunk, Source, SourceKind, Store, StoreType
from kortty_rag.retrieval.graph import BONUS
from kortty_rag.retrieval.search import RetrievalResult, SearchOptions, retrieve

SOURCE = Source(id="s0", path="/vault", kind=SourceKind.FOLDER)
STORE = Store("st", "Vault", StoreType.LOCAL, HashEmbedder().identity, sources=(SOURCE,))


def chunk(label: int, rel_path: str, heading: str = "") -> Chunk:
    text = f"text of chunk {label} in {rel_path}"
    return Chunk(f"c{label}", "s0", rel_path, None, 0, len(text), 10, text, heading)


ALPHA = chunk(0, "projects/Project Alpha.md")
TEAM = chunk(1, "team.md")
DECISION = chunk(10, "decisions/Vector store choice.md", "Vector store choice")
DECISION_WHY = chunk(11, "decisions/Vector store choice.md", "Vector store choice / Why")
OFF_TOPIC = chunk(20, "holidays.md")


class LinkedVectors(RankedVectors):
    """Two first-stage hits; Project Alpha links to the decision note (two chunks, the second under
    the heading the link names) and is linked from a note far from the question."""

    def __init__(self, similarity: dict[int, float], anchored: bool = False) -> None:
        super().__init__([Hit(0, ALPHA, 0.62), Hit(1, TEAM, 0.40)])
        self.similarity = similarity
        self.anchored = anchored
        self.asked: list[list[int]] = []

    def linked(self, labels: Collection[int], source_ids: Collection[str]) -> list[LinkedChunk]:
        self.asked.append(sorted(labels))
        if 0 not in labels:
            return []
        return [
            LinkedChunk(0, 10, DECISION, True, "Project Alpha"),
            LinkedChunk(0, 11, DECISION_WHY, True, "Project Alpha", anchored=self.anchored),
            LinkedChunk(0, 20, OFF_TOPIC, False, "Project Alpha"),
        ]

    def similarities(self, vector: np.ndarray, labels: Collection[int]) -> dict[int, float]:
        return {label: self.similarity[label] for label in labels if label in self.similarity}


def search(vectors: RankedVectors, **options: object) -> RetrievalResult:
    embedder = HashEmbedder()
    return retrieve(
        "What does Project Alpha use to store its vectors?",
        [STORE],
        lambda s, dense: (vectors, embedder if dense else None),  # type: ignore[arg-type,return-value]
        options=SearchOptions(explain=True, **options),  # type: ignore[arg-type]
    )


def excerpt_paths(result: RetrievalResult) -> list[str]:
    return [e.chunk.rel_path for e in result.excerpts]


def test_a_linked_note_comes_in_with_its_reason_and_bonus() -> None:
    vectors = LinkedVectors({10: 0.45, 11: 0.30, 20: 0.02})
    without = search(vectors, graph=False)
    assert excerpt_paths(without) == ["projects/Project Alpha.md", "team.md"]
    assert vectors.asked == []  # nothing followed with the graph off

    found = search(vectors, graph=True)
    by_path = {e.chunk.rel_path: e.candidate for e in found.excerpts}
    decision = by_path["decisions/Vector store choice.md"]
    assert decision.chunk.chunk_id == "c10"  # the note's chunk closest to the question
    assert decision.linked is not None and decision.linked.outgoing
    assert decision.linked.text() == "linked from Project Alpha"
    assert decision.linked.path == "/vault/projects/Project Alpha.md"
    alpha = by_path["projects/Project Alpha.md"]
    assert decision.graph_bonus == BONUS * alpha.fused  # the bonus: a share of the seed's score
    assert decision.to_json()["linked"] == {
        "relation": "linked_from",
        "note": "Project Alpha",
        "path": "/vault/projects/Project Alpha.md",
    }
    # the far note links to the seed too, but the floor judges it by its own similarity
    assert "holidays.md" not in excerpt_paths(found)
    assert any(d.candidate.chunk.rel_path == "holidays.md" for d in found.dropped)
    # only admitted first-stage hits are followed
    assert vectors.asked == [[0, 1]]


def test_the_chunk_under_the_named_heading_is_preferred() -> None:
    vectors = LinkedVectors({10: 0.45, 11: 0.30, 20: 0.02}, anchored=True)
    found = search(vectors, graph=True)
    linked = [e.candidate for e in found.excerpts if e.candidate.linked is not None]
    assert [c.chunk.chunk_id for c in linked] == ["c11"]


def test_a_candidate_already_found_is_raised_not_doubled() -> None:
    vectors = LinkedVectors({10: 0.45, 11: 0.30, 20: 0.02})
    vectors.dense.append(Hit(10, DECISION, 0.45))
    plain = {e.chunk.chunk_id: e.candidate for e in search(vectors, graph=False).excerpts}
    raised = {e.chunk.chunk_id: e.candidate for e in search(vectors, graph=True).excerpts}
    assert raised["c10"].dense_rank == plain["c10"].dense_rank == 3
    assert raised["c10"].fused == plain["c10"].fused + raised["c10"].graph_bonus
    assert raised["c10"].fused > plain["c1"].fused  # now above the unlinked second hit
    assert [c for c in raised if c == "c10"] == ["c10"]


def test_no_bonus_no_dense_part_no_change() -> None:
    vectors = LinkedVectors({10: 0.45, 11: 0.30, 20: 0.02})
    assert excerpt_paths(search(vectors, graph=True, graph_bonus=0.0)) == excerpt_paths(
        search(vectors, graph=False)
    )
    vectors.asked.clear()
    vectors.lexical = [Hit(0, ALPHA, 3.0, coverage=0.9)]
    lexical_only = search(vectors, graph=True, dense=False)
    assert excerpt_paths(lexical_only) == ["projects/Project Alpha.md"]
    assert vectors.asked == []  # a linked chunk is judged by its similarity: no dense, no graph

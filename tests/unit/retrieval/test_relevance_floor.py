"""The relevance floor: dense or lexical evidence, per level and model; nothing relevant, nothing
injected."""

from __future__ import annotations

import random
from dataclasses import replace

from tests.helpers.fakes import HashEmbedder, RankedVectors

from kortty_rag.embedding import catalog
from kortty_rag.models import Chunk, Hit, RelevanceLevel, Source, SourceKind, Store, StoreType
from kortty_rag.retrieval.relevance import floor_for, store_level, with_level
from kortty_rag.retrieval.search import (
    DROP_BELOW_FLOOR,
    NO_MATCHES,
    NOTHING_RELEVANT,
    RetrievalResult,
    SearchOptions,
    retrieve,
)

SOURCE = Source(id="s0", path="/data/notes", kind=SourceKind.FOLDER)
IMPORTED = Store("st", "Notes", StoreType.LOCAL, HashEmbedder().identity, sources=(SOURCE,))
STARTER = replace(
    IMPORTED, embedding=replace(IMPORTED.embedding, model_id=catalog.STARTER_ID), name="Starter"
)


def chunk(n: int, text: str) -> Chunk:
    return Chunk(f"c{n}", "s0", f"doc{n}.md", None, 0, len(text), 10, text)


def search(
    store: Store,
    dense: list[Hit],
    lexical: list[Hit] | None = None,
    level: RelevanceLevel | None = None,
    query: str = "rotate backup keys",
) -> RetrievalResult:
    vectors = RankedVectors(dense, lexical or [])
    embedder = HashEmbedder()
    return retrieve(
        query,
        [store],
        lambda s, on: (vectors, embedder if on else None),  # type: ignore[arg-type,return-value]
        options=SearchOptions(explain=True, min_relevance=level),
    )


def test_every_number_is_in_one_table_and_levels_rise() -> None:
    assert {m.id for m in catalog.CATALOG} | {catalog.STARTER_ID} == set(catalog.DENSE_FLOORS)
    for model in catalog.CATALOG:
        assert model.relevance_floors == catalog.DENSE_FLOORS[model.id]
    for floors in [*catalog.DENSE_FLOORS.values(), catalog.IMPORTED_DENSE_FLOORS]:
        assert list(floors) == sorted(floors)
    assert list(catalog.LEXICAL_SHARES) == sorted(catalog.LEXICAL_SHARES)
    assert catalog.relevance_floors(catalog.STARTER_ID) == (0.25, 0.35, 0.45)
    assert catalog.relevance_floors("bge-m3-q8_0") == catalog.DENSE_FLOORS["bge-m3-q8_0"]
    assert catalog.relevance_floors("my-imported-model") == catalog.IMPORTED_DENSE_FLOORS


def test_the_floor_follows_the_level_and_the_model() -> None:
    assert store_level(IMPORTED) is RelevanceLevel.LOW  # the default
    medium = floor_for(STARTER, RelevanceLevel.MEDIUM)
    assert floor_for(STARTER).level is RelevanceLevel.LOW
    assert (medium.level, medium.dense, medium.lexical) == (RelevanceLevel.MEDIUM, 0.35, 0.6)
    assert floor_for(IMPORTED, RelevanceLevel.MEDIUM).dense == 0.30
    high = floor_for(with_level(STARTER, RelevanceLevel.HIGH))
    assert (high.dense, high.lexical) == (0.45, 0.75)
    assert floor_for(STARTER, RelevanceLevel.LOW).to_json() == {
        "store": "Starter",
        "level": "low",
        "min_relevance": 0.5,
        "dense_min_similarity": 0.25,
        "lexical_min_coverage": 0.5,
        "calibrated": False,
    }
    off = floor_for(STARTER, RelevanceLevel.OFF)
    assert off.admits(None, None) and off.admits(-1.0, 0.0)
    assert medium.admits(0.35, None) and not medium.admits(0.34, None)
    assert medium.admits(None, 0.6) and not medium.admits(0.1, 0.59)


def test_candidates_below_the_floor_are_dropped_with_the_reason() -> None:
    dense = [Hit(n, chunk(n, f"note {n}"), score) for n, score in enumerate([0.5, 0.3, 0.1])]
    result = search(with_level(STARTER, RelevanceLevel.LOW), dense)
    assert [e.chunk.chunk_id for e in result.excerpts] == ["c0", "c1"]
    assert [(d.candidate.chunk.chunk_id, d.reason) for d in result.dropped] == [
        ("c2", DROP_BELOW_FLOOR)
    ]
    data = result.to_json()
    assert data["relevance"] == [floor_for(STARTER, RelevanceLevel.LOW).to_json()]
    assert data["dropped"][0]["reason"] == "below relevance floor"
    assert data["note"] is None
    medium = search(with_level(STARTER, RelevanceLevel.MEDIUM), dense)
    assert [e.chunk.chunk_id for e in medium.excerpts] == ["c0"]
    assert [
        e.chunk.chunk_id for e in search(STARTER, dense, level=RelevanceLevel.OFF).excerpts
    ] == [
        "c0",
        "c1",
        "c2",
    ]


def test_a_strong_lexical_match_is_evidence_on_its_own() -> None:
    texts = ["how to rotate backup keys", "backup tapes", "keys to the office"]
    covered = [1.0, 0.4, 0.35]  # as the lexical engine reports it
    hits = [Hit(n, chunk(n, t), 1.0 - n / 10, covered[n]) for n, t in enumerate(texts)]
    result = search(STARTER, [], hits)  # no dense part at all
    assert [e.chunk.chunk_id for e in result.excerpts] == ["c0"]
    assert result.excerpts[0].candidate.coverage == 1.0
    assert {d.candidate.chunk.chunk_id: d.reason for d in result.dropped} == {
        "c1": DROP_BELOW_FLOOR,
        "c2": DROP_BELOW_FLOOR,
    }
    # the coverage the engine reports decides, not the text
    carried = [replace(hits[1], coverage=0.9)]
    assert [e.chunk.chunk_id for e in search(STARTER, [], carried).excerpts] == ["c1"]


def test_levels_are_nested() -> None:
    rng = random.Random(11)
    words = ["rotate", "backup", "keys", "tape", "office", "lorem"]
    dense, lexical = [], []
    for n in range(40):
        text = " ".join(rng.sample(words, rng.randint(1, 4)))
        dense.append(Hit(n, chunk(n, text), rng.uniform(0.0, 0.7)))
        if rng.random() < 0.5:
            lexical.append(Hit(n, chunk(n, text), rng.uniform(1.0, 9.0), rng.uniform(0.0, 1.0)))
    rng.shuffle(dense)
    dense.sort(key=lambda h: -h.score)
    admitted = {}
    for level in RelevanceLevel:
        result = search(STARTER, dense, lexical, level=level)
        below = {d.candidate.label for d in result.dropped if d.reason == DROP_BELOW_FLOOR}
        admitted[level] = {h.label for h in dense + lexical} - below
    off, low, medium, high = (admitted[level] for level in RelevanceLevel)
    assert off >= low >= medium >= high
    assert off != low != medium != high  # each level really changes something here


def test_nothing_relevant_means_no_block_and_a_note() -> None:
    dense = [Hit(n, chunk(n, f"sourdough {n}"), 0.05) for n in range(8)]
    result = search(STARTER, dense, query="What is the capital of Mongolia?")
    assert result.excerpts == () and result.block == "" and result.used_tokens == 0
    assert result.nothing_relevant and result.note == NOTHING_RELEVANT
    assert {d.reason for d in result.dropped} == {DROP_BELOW_FLOOR} and len(result.dropped) == 8
    data = result.to_json()
    assert (data["excerpts"], data["block"], data["note"]) == ([], "", NOTHING_RELEVANT)

    empty = search(STARTER, [])
    assert empty.block == "" and empty.note == NO_MATCHES and not empty.nothing_relevant


def test_the_location_shows_the_heading_path_and_the_page() -> None:
    heading = "Backup notes / Keys / Rotation"
    text = "Rotate the backup keys monthly."
    hit = Hit(0, replace(chunk(0, text), heading=heading), 0.9)
    result = search(STARTER, [hit])
    assert result.excerpts[0].location() == f"/data/notes/doc0.md § {heading}"
    assert f"/data/notes/doc0.md § {heading}" in result.block
    paged = Hit(1, replace(chunk(1, text), page=7), 0.9)
    assert search(STARTER, [paged]).excerpts[0].location() == "/data/notes/doc1.md, page 7"


def test_a_lexical_match_beyond_the_dense_candidates_brings_its_similarity() -> None:
    # 41 chunks ranked by the dense part: the 41st is beyond the 40 candidates retrieve() takes
    dense = [Hit(n, chunk(n, f"note {n}"), 0.6 - 0.005 * n) for n in range(41)]
    beyond = dense[40]  # similarity 0.4: dense evidence at the starter's low floor 0.25
    lexical = [Hit(40, beyond.chunk, 9.0, 0.1), Hit(41, chunk(41, "keys rotate"), 3.0, 0.1)]
    result = search(STARTER, dense, lexical)
    candidates = {c.chunk.chunk_id: c for c in [e.candidate for e in result.excerpts]} | {
        d.candidate.chunk.chunk_id: d.candidate for d in result.dropped
    }
    found = candidates["c40"]
    assert (found.dense_rank, found.lexical_rank) == (None, 1)
    assert found.dense_score == beyond.score  # the similarity the fake's vectors give
    reasons = {d.candidate.chunk.chunk_id: d.reason for d in result.dropped}
    # admitted on that similarity (its 10 % of the question's words would not be enough); the six
    # slots go to better candidates ...
    assert found.relevance >= 0.5 and reasons["c40"] != DROP_BELOW_FLOOR
    # ... while a lexical match the vectors know nothing more of stays at its coverage
    other = candidates["c41"]
    assert other.dense_score is None and other.relevance < 0.5
    assert reasons["c41"] == DROP_BELOW_FLOOR

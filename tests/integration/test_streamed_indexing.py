"""Streaming indexing with the real starter model (issue 10, finding 4): a text file of several read
blocks is indexed into exactly the chunks the whole-text splitter makes with the model's own tokenizer
(the previous splitter, kept as the oracle), and its far end is retrievable."""

from __future__ import annotations

import random
from pathlib import Path

from tests.helpers.reference_splitter import ReferenceSplitter
from tests.helpers.reliability import WORDS

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.embedding.loader import load_embedder
from kortty_rag.extract.document import BLOCK
from kortty_rag.extract.text import decode_text
from kortty_rag.index.factory import open_vector_store
from kortty_rag.retrieval.search import RetrievalService, SearchOptions
from kortty_rag.sync.session import StoreSession


def test_a_multi_block_file_gets_the_whole_text_chunks(
    starter_model: InstalledModel, tmp_path: Path
) -> None:
    rng = random.Random(7)
    docs = tmp_path / "docs"
    docs.mkdir()
    lines = []
    size = 0
    while size < BLOCK + 5000:  # two read blocks, CRLF line ends, paragraphs
        sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 18))).capitalize()
        lines.append(sentence + rng.choice([". ", ".\r\n", ".\r\n\r\n", "? "]))
        size += len(lines[-1])
    lines.append("The lighthouse keeper counts seventeen albatrosses at dawn.")
    data = "".join(lines).encode()
    (docs / "long.txt").write_bytes(data)

    identity = starter_model.identity()
    embedder = load_embedder(identity)
    registry = StoreRegistry()
    store = registry.create("S", identity)
    with StoreSession(store, registry=registry) as job:
        summary = job.apply(job.review_new_sources([docs]), embedder)
    store = registry.get("S")
    vectors = open_vector_store(store)
    try:
        snapshot = vectors.snapshot  # type: ignore[attr-defined]
        stored = sorted(
            (c.start, c.end, c.token_count, c.text)
            for c in snapshot.chunk_map(range(snapshot.size)).values()
        )
    finally:
        vectors.close()
    want = ReferenceSplitter(embedder, embedder.chunking()).split(decode_text(data))
    assert summary.chunks_embedded == len(want) > 100
    assert stored == [(c.start, c.end, c.token_count, c.text) for c in want]

    service = RetrievalService()
    try:
        result = service.search(
            "how many albatrosses does the lighthouse keeper count",
            [store],
            options=SearchOptions(lexical=False),
        )
    finally:
        service.close()
    assert "albatrosses" in result.excerpts[0].candidate.chunk.text

"""Query latency and HNSW recall at 10k and 100k chunks, on real text and real embeddings.

The chunks are pieces of the SciFact abstracts (``_pieces.py``: sentences and windows of 1–3
sentences, deduplicated), embedded once with the real starter model and cached in the work folder.
For each size a real local snapshot is built through ``SnapshotBuilder`` (one document per abstract,
its pieces as chunks, so the lexical index analyses real text), and the judged SciFact queries are
asked, both sizes side by side (query by query, alternating), through ``retrieve()`` as the product
runs it:

* latency of the whole query path — embedding the query with the real starter model, dense HNSW
  search, lexical search, fusion, the relevance floor and the context block — p50 and p95, and
  where the time goes (embed, dense, lexical, the rest), measured inside the same calls;
* recall@10 of ``LocalStore.search`` against exact (numpy brute-force) search over the same
  vectors, for the same queries' real embeddings; and, as the worst case, for uniformly random
  vectors (a bare hnswlib graph with the product's parameters).

The targets are for 100k chunks: p50 <= 20 ms, p95 <= 40 ms, recall@10 >= 0.99 on real embeddings.
Absolute times depend on the machine and its load; the sizes are measured in one run.

Embedding the 100,000 pieces takes about an hour on 2 shared cores; ``--prepare`` does only that
(resumable), ``--embed-threads 1`` is faster while another process keeps a core busy.

    .venv/bin/python benchmarks/query_latency.py [BEIR_DIR] [--sizes 10000 100000] [--queries 300]
        [--reuse WORK] [--no-uniform] [--embed-threads N] [--prepare]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import DEFAULT_BEIR, read_qrels, read_queries
from _pieces import Piece, embed_pieces, load_pieces

SOURCE = "src"
WARM_UP = 10
TARGET_P50_MS = 20.0
TARGET_P95_MS = 40.0
TARGET_RECALL = 0.99


def build(folder: Path, pieces: list[Piece], vectors: np.ndarray, embedder: Any) -> float:
    """A real snapshot of ``pieces``: one document per abstract, chunk ``p<i>`` is piece ``i``."""
    from kortty_rag.index.chunkdb import NewChunk
    from kortty_rag.index.snapshot_builder import SnapshotBuilder
    from kortty_rag.models import Document

    by_doc: dict[str, list[int]] = {}
    for i, piece in enumerate(pieces):
        by_doc.setdefault(piece.doc_id, []).append(i)
    started = time.perf_counter()
    builder = SnapshotBuilder(folder, embedder.identity, base=None)
    for doc_id, rows in by_doc.items():
        chunks, offset = [], 0
        for i in rows:
            text = pieces[i].text
            tokens = embedder.count_tokens(text)
            chunks.append(NewChunk(0, f"p{i}", None, offset, offset + len(text), tokens, text))
            offset += len(text) + 1
        body = "\n".join(pieces[i].text for i in rows).encode()
        document = Document(
            SOURCE, f"{doc_id}.txt", hashlib.sha256(body).hexdigest(), len(body), "Text", len(rows)
        )
        builder.add_document(document, chunks, vectors[rows])
    builder.commit()
    return time.perf_counter() - started


@dataclass
class Split:
    """Seconds spent per part of one query."""

    embed: float = 0.0
    dense: float = 0.0
    lexical: float = 0.0


@dataclass
class Timed:
    """The store's vectors and embedder, timing every call ``retrieve()`` makes to them."""

    vectors: Any
    embedder: Any
    split: Split = field(default_factory=Split)

    def embed_query(self, text: str) -> np.ndarray:
        started = time.perf_counter()
        try:
            return self.embedder.embed_query(text)  # type: ignore[no-any-return]
        finally:
            self.split.embed += time.perf_counter() - started

    def search(self, vector: np.ndarray, k: int, source_ids: Collection[str]) -> list[Any]:
        started = time.perf_counter()
        try:
            return self.vectors.search(vector, k, source_ids)  # type: ignore[no-any-return]
        finally:
            self.split.dense += time.perf_counter() - started

    def calibration(self) -> tuple[float, ...]:
        return ()

    def text_language(self) -> str | None:
        return self.vectors.text_language()  # type: ignore[no-any-return]

    def similarities(self, vector: np.ndarray, labels: Collection[int]) -> dict[int, float]:
        started = time.perf_counter()  # the lexical candidates' similarity: part of the dense work
        try:
            return self.vectors.similarities(vector, labels)  # type: ignore[no-any-return]
        finally:
            self.split.dense += time.perf_counter() - started

    def lexical_search(self, query: str, k: int, source_ids: Collection[str]) -> list[Any]:
        started = time.perf_counter()
        try:
            return self.vectors.lexical_search(query, k, source_ids)  # type: ignore[no-any-return]
        finally:
            self.split.lexical += time.perf_counter() - started

    def linked(self, labels: Collection[int], source_ids: Collection[str]) -> list[Any]:
        # links between notes (none in these pieces): counted in the rest of the query path
        return self.vectors.linked(labels, source_ids)  # type: ignore[no-any-return]


@dataclass
class Measured:
    total: list[float] = field(default_factory=list)
    embed: list[float] = field(default_factory=list)
    dense: list[float] = field(default_factory=list)
    lexical: list[float] = field(default_factory=list)
    rest: list[float] = field(default_factory=list)
    excerpts: int = 0
    empty: int = 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000 if ordered else 0.0


def ask(question: str, store: Any, timed: Timed, measured: Measured | None) -> None:
    from kortty_rag.retrieval.search import retrieve

    timed.split = Split()
    started = time.perf_counter()
    result = retrieve(question, [store], lambda s, dense: (timed, timed))
    total = time.perf_counter() - started
    if measured is None:
        return
    split = timed.split
    measured.total.append(total)
    measured.embed.append(split.embed)
    measured.dense.append(split.dense)
    measured.lexical.append(split.lexical)
    measured.rest.append(total - split.embed - split.dense - split.lexical)
    measured.excerpts += len(result.excerpts)
    measured.empty += not result.excerpts


def real_recall(store: Any, vectors: np.ndarray, queries: np.ndarray) -> float:
    """Recall@10 of ``LocalStore.search`` against brute force over the same vectors."""
    found = 0
    for query in queries:
        scores = vectors @ query
        exact = set(np.argpartition(-scores, 10)[:10].tolist())
        approx = {int(h.chunk.chunk_id[1:]) for h in store.search(query, 10, [SOURCE])}
        found += len(exact & approx)
    return found / (10 * len(queries))


def uniform_recall(size: int, queries: int, rng: np.random.Generator) -> tuple[float, float]:
    """Recall@10 on uniformly random unit vectors (the worst case for a graph index) and the build
    time: a bare hnswlib graph with the product's parameters and search ``ef``."""
    import hnswlib

    from kortty_rag.index.manifest import HnswParams

    params = HnswParams()
    dim = 384
    data = rng.normal(size=(size, dim)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    started = time.perf_counter()
    index = hnswlib.Index(space="cosine", dim=dim)
    index.init_index(max_elements=size, M=params.m, ef_construction=params.ef_construction)
    for first in range(0, size, 4096):
        index.add_items(data[first : first + 4096], np.arange(first, min(first + 4096, size)))
    index.set_ef(params.ef_search)
    seconds = time.perf_counter() - started
    picks = rng.integers(0, size, queries)
    asked = data[picks] + 0.1 * rng.normal(size=(queries, dim)).astype(np.float32)
    asked /= np.linalg.norm(asked, axis=1, keepdims=True)
    labels, _ = index.knn_query(asked, k=10)
    found = 0
    for query, approx in zip(asked, labels, strict=True):
        exact = set(np.argpartition(-(data @ query), 10)[:10].tolist())
        found += len(exact & set(approx.tolist()))
    return found / (10 * queries), seconds


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}m{seconds % 60:04.1f}s"


def row(label: str, values: list[str], target: str = "") -> None:
    print(f"  {label:44s}" + "".join(f"{v:>16s}" for v in values) + f"  {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=300, help="judged queries asked per size")
    parser.add_argument(
        "--reuse",
        type=Path,
        metavar="WORK",
        help="the work folder of an earlier run: reuse its vectors and snapshots",
    )
    parser.add_argument(
        "--no-uniform", action="store_true", help="skip the uniform-random worst-case recall"
    )
    parser.add_argument(
        "--embed-threads",
        type=int,
        metavar="N",
        help="llama.cpp threads for embedding the pieces (default: the product's, every core; "
        "the vectors are the same); queries always use the product's embedder",
    )
    parser.add_argument(
        "--prepare", action="store_true", help="only cut and embed the pieces into WORK, then stop"
    )
    args = parser.parse_args()
    sizes = sorted(set(args.sizes))
    work = args.reuse or Path(tempfile.mkdtemp(prefix="kortty-latency-"))
    work.mkdir(parents=True, exist_ok=True)
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.installed import get_model, list_models
    from kortty_rag.embedding.llama import LlamaEmbedder, default_threads
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.index.local import LocalStore
    from kortty_rag.models import Source, SourceKind, Store, StoreType

    installed = any(m.id == STARTER_ID for m in list_models())
    model = get_model(STARTER_ID) if installed else install_starter()
    embedder = load_embedder(model.identity())

    pieces = load_pieces(work, args.dataset / "corpus.jsonl", sizes[-1])
    bulk = LlamaEmbedder(model, n_threads=args.embed_threads) if args.embed_threads else embedder
    embedded = embed_pieces(work, pieces, bulk.embed_documents)
    vectors = embedded.vectors
    if args.prepare:
        print(f"{len(pieces):,} pieces embedded in {work} ({minutes(embedded.cached_seconds)})")
        return
    judged = read_qrels(args.dataset)
    texts = read_queries(args.dataset)
    questions = [texts[q] for q in judged if q in texts][: args.queries]
    query_vectors = np.stack([embedder.embed_query(q) for q in questions])

    stores: list[tuple[int, LocalStore, Timed, Measured]] = []
    built: list[str] = []
    for size in sizes:
        folder = work / f"store-{size}"
        if (folder / "CURRENT").exists():
            built.append(f"{size:,} chunks reused")
        else:
            seconds = build(folder, pieces[:size], vectors[:size], embedder)
            built.append(f"{size:,} chunks built in {seconds:.0f} s")
        local = LocalStore(folder, model.identity())
        stores.append((size, local, Timed(local, embedder), Measured()))
    definition = Store(
        "bench",
        "bench",
        StoreType.LOCAL,
        model.identity(),
        sources=(Source(SOURCE, "/bench", SourceKind.FOLDER),),
    )
    for question in questions[:WARM_UP]:
        for _, _, timed, _ in stores:
            ask(question, definition, timed, None)
    for question in questions:  # the sizes side by side, query by query
        for _, _, timed, measured in stores:
            ask(question, definition, timed, measured)
    threads = default_threads()
    alone: dict[int, list[float]] = {threads: [], 1: []}
    # the product embeds a query on one thread (embedding.llama.QUERY_THREADS); against every core
    every_core = LlamaEmbedder(model, query_threads=threads)
    for question in questions:  # the query embedding alone, both thread counts side by side
        for count, which in ((threads, every_core), (1, embedder)):
            started = time.perf_counter()
            which.embed_query(question)
            alone[count].append(time.perf_counter() - started)
    every_core.close()
    recalls = [real_recall(local, vectors[:size], query_vectors) for size, local, _, _ in stores]
    languages = [
        local.snapshot.lexical_language if local.snapshot else "-" for _, local, _, _ in stores
    ]
    for _, local, _, _ in stores:
        local.close()
    uniform: list[str] = []
    if not args.no_uniform:
        rng = np.random.default_rng(7)
        for size in sizes:
            recall, seconds = uniform_recall(size, len(questions), rng)
            uniform.append(f"{recall:.4f}")
            built.append(f"uniform {size:,} built in {seconds:.0f} s")

    documents = len({p.doc_id for p in pieces})
    median = sorted(len(p.text) for p in pieces)[len(pieces) // 2]
    print(
        f"chunks: {len(pieces):,} distinct pieces of {documents:,} abstracts of {args.dataset.name} "
        f"(sentences and windows of 1-3 sentences; median {median} characters)"
    )
    if embedded.embedded:
        rate = embedded.embedded / embedded.seconds
        bulk_threads = args.embed_threads or threads
        print(
            f"embedding ({model.id}, batches of 32, {bulk_threads} llama.cpp threads): "
            f"{embedded.embedded:,} texts in {minutes(embedded.seconds)} ({rate:.0f} texts/s)"
        )
    else:
        print(
            f"embedding: reused from {work} (it took {minutes(embedded.cached_seconds)} when made)"
        )
    print("snapshots: " + "; ".join(built))
    print(
        f"queries: {len(questions)} judged {args.dataset.name} queries, after {WARM_UP} warm-up "
        "queries; the sizes asked alternately"
    )
    print()
    row("", [f"{size:,} chunks" for size in sizes], "target at 100k")
    measured = [m for _, _, _, m in stores]
    row("query path p50 (ms)", [f"{percentile(m.total, 0.5):.1f}" for m in measured], "<= 20")
    row("query path p95 (ms)", [f"{percentile(m.total, 0.95):.1f}" for m in measured], "<= 40")
    for name, what in (
        ("embed", "embed the query"),
        ("dense", "dense HNSW search, k 40"),
        ("lexical", "lexical BM25 search, k 40"),
        ("rest", "rest: fusion, floor, block"),
    ):
        row(
            f"  {what} (p50 / p95 ms)",
            [
                f"{percentile(getattr(m, name), 0.5):.1f} / {percentile(getattr(m, name), 0.95):.1f}"
                for m in measured
            ],
        )
    for count, timings in alone.items():
        shown = f"{percentile(timings, 0.5):.1f} / {percentile(timings, 0.95):.1f}"
        row(f"embed the query alone, {count} thread{'s' if count > 1 else ''} (ms)", [shown])
    row("excerpts per query (mean)", [f"{m.excerpts / max(len(m.total), 1):.2f}" for m in measured])
    row(
        "queries with an empty block",
        [f"{m.empty}/{len(m.total)}" for m in measured],
    )
    row("lexical language (detected)", [str(lang) for lang in languages])
    row("HNSW recall@10, real embeddings", [f"{r:.4f}" for r in recalls], ">= 0.99")
    if uniform:
        row("HNSW recall@10, uniform random (worst case)", uniform)
    largest = measured[-1]
    verdict = (
        "meets"
        if percentile(largest.total, 0.5) <= TARGET_P50_MS
        and percentile(largest.total, 0.95) <= TARGET_P95_MS
        and recalls[-1] >= TARGET_RECALL
        else "misses"
    )
    print(
        f"\nat {sizes[-1]:,} chunks the query path {verdict} the targets (shared machine: times "
        "are indicative)"
    )
    print(f"work folder (run again with --reuse): {work}")


if __name__ == "__main__":
    main()

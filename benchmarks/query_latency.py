"""Query latency and HNSW recall at 10k and 100k chunks (synthetic vectors and texts, real snapshots).

For each size a real local snapshot is built (hnswlib graph with the product's parameters, chunk table
with its BM25 index) from synthetic data: vectors drawn around 2,000 cluster centres (real embeddings
are clustered by topic) and texts of Zipf-distributed words. Then:

* latency of the whole query path the product runs — embedding the query with the real starter
  model, dense search, lexical search, fusion, limits and the context block — p50 and p95;
* recall@10 of the HNSW search against exact (brute-force) search, for clustered data and, as the
  worst case, uniformly random vectors.

    .venv/bin/python benchmarks/query_latency.py [--sizes 10000 100000] [--queries 200]
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

import numpy as np

DIM = 384


def synthetic_vectors(n: int, rng: np.random.Generator, clustered: bool) -> np.ndarray:
    if clustered:
        centres = rng.normal(size=(2000, DIM)).astype(np.float32)
        vectors = centres[rng.integers(0, len(centres), n)] + 0.6 * rng.normal(size=(n, DIM))
    else:
        vectors = rng.normal(size=(n, DIM))
    vectors = vectors.astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def build(folder: Path, vectors: np.ndarray, identity: object, rng: random.Random) -> float:
    from kortty_rag.index.chunkdb import NewChunk
    from kortty_rag.index.snapshot import SnapshotBuilder
    from kortty_rag.models import Document

    vocabulary = [f"w{i}" for i in range(20000)]
    weights = [1 / (i + 1) for i in range(len(vocabulary))]
    started = time.perf_counter()
    builder = SnapshotBuilder(folder, identity, base=None)  # type: ignore[arg-type]
    per_doc = 10
    for first in range(0, len(vectors), per_doc):
        texts = [" ".join(rng.choices(vocabulary, weights, k=120)) for _ in range(per_doc)]
        chunks = [
            NewChunk(0, f"c{first + i}", None, 0, len(t), 150, t) for i, t in enumerate(texts)
        ]
        builder.add_document(
            Document("src", f"doc{first // per_doc}.txt", f"{first:064x}", 1000, "Text", per_doc),
            chunks,
            vectors[first : first + per_doc],
        )
    builder.commit()
    return time.perf_counter() - started


def recall_at_10(folder: Path, identity: object, vectors: np.ndarray, queries: np.ndarray) -> float:
    from kortty_rag.index.local import LocalStore

    store = LocalStore(folder, identity)  # type: ignore[arg-type]
    found = 0
    for query in queries:
        exact = set(np.argsort(-(vectors @ query))[:10].tolist())
        approx = {h.label for h in store.search(query, 10, ["src"])}
        found += len(exact & approx)
    store.close()
    return found / (10 * len(queries))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kortty-latency-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.index.local import LocalStore
    from kortty_rag.models import Source, SourceKind, Store, StoreType
    from kortty_rag.retrieval.search import retrieve

    model = install_starter()
    identity = model.identity()
    embedder = load_embedder(identity)
    rng = np.random.default_rng(7)
    text_rng = random.Random(7)
    questions = [
        " ".join(
            text_rng.choices(
                ["how", "does", "w12", "w7", "w300", "w4", "river", "w55", "w999", "w2"], k=6
            )
        )
        for _ in range(args.queries)
    ]
    for size in args.sizes:
        for clustered in (True, False):
            folder = work / f"store-{size}-{'clustered' if clustered else 'uniform'}"
            vectors = synthetic_vectors(size, rng, clustered)
            seconds = build(folder, vectors, identity, text_rng)
            picks = rng.integers(0, size, args.queries)
            queries = vectors[picks] + 0.1 * rng.normal(size=(args.queries, DIM)).astype(np.float32)
            queries /= np.linalg.norm(queries, axis=1, keepdims=True)
            recall = recall_at_10(folder, identity, vectors, queries)
            label = "clustered" if clustered else "uniform"
            print(
                f"{size:>7,} chunks, {label:9s}: built in {seconds:6.1f} s, "
                f"HNSW recall@10 vs exact {recall:.4f} (target >= 0.98)"
            )
            if not clustered:
                continue
            store = Store(
                "bench",
                "bench",
                StoreType.LOCAL,
                identity,
                sources=(Source("src", "/bench", SourceKind.FOLDER),),
            )
            vector_store = LocalStore(folder, identity)
            timings = []
            for question in questions:
                started = time.perf_counter()
                retrieve(question, [store], lambda s, dense, vs=vector_store: (vs, embedder))
                timings.append(time.perf_counter() - started)
            vector_store.close()
            timings.sort()
            p50 = timings[len(timings) // 2] * 1000
            p95 = timings[int(len(timings) * 0.95)] * 1000
            print(
                f"{size:>7,} chunks: query latency (embed + dense + lexical + fusion + block) "
                f"p50 {p50:.1f} ms, p95 {p95:.1f} ms over {len(timings)} queries"
            )


if __name__ == "__main__":
    main()

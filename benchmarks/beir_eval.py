"""Retrieval quality on a BEIR data set through the product's own pipeline: dense, lexical, hybrid.

Indexes the corpus (one file per document) with the real starter model (or ``--model`` of the
installed models in ``--home``), then ranks documents for every judged query by their best chunk, using
the store's own dense (HNSW) and lexical (BM25) searches and the product's weighted reciprocal rank
fusion. Reports nDCG@10 (trec_eval semantics), Recall@100 and MRR@10 for each.

    .venv/bin/python benchmarks/beir_eval.py [DATASET_DIR] [--limit-queries N]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import DEFAULT_BEIR, corpus_paths, read_qrels, read_queries, write_corpus

DEPTH = 200  # chunks retrieved per part before documents are ranked


def ndcg_at(ranking: list[str], relevant: dict[str, int], k: int = 10) -> float:
    dcg = sum(relevant.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranking[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranking: list[str], relevant: dict[str, int], k: int = 100) -> float:
    wanted = {d for d, g in relevant.items() if g > 0}
    return len(wanted & set(ranking[:k])) / len(wanted) if wanted else 0.0


def mrr_at(ranking: list[str], relevant: dict[str, int], k: int = 10) -> float:
    for i, doc in enumerate(ranking[:k]):
        if relevant.get(doc, 0) > 0:
            return 1.0 / (i + 1)
    return 0.0


def documents_by_best_chunk(labels: list[int], doc_of: Callable[[int], str]) -> list[str]:
    seen: dict[str, None] = {}
    for label in labels:
        seen.setdefault(doc_of(label), None)
    return list(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--limit-queries", type=int)
    parser.add_argument("--dense-weight", type=float, default=None, help="default 0.7")
    parser.add_argument("--rrf-k", type=int, default=60)
    parser.add_argument(
        "--reuse",
        type=Path,
        metavar="WORK",
        help="the work folder of an earlier run (printed at its end): rank again without indexing",
    )
    args = parser.parse_args()
    work = args.reuse or Path(tempfile.mkdtemp(prefix="kortty-beir-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.installed import get_model
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.index.local import LocalStore
    from kortty_rag.retrieval.fusion import FusionWeights, fuse
    from kortty_rag.sync.jobs import StoreJob

    registry = StoreRegistry()
    started = time.perf_counter()
    if args.reuse:
        paths = corpus_paths(args.dataset)
        model = get_model(STARTER_ID)
        embedder = load_embedder(model.identity())
        chunk_count = None
    else:
        paths = write_corpus(args.dataset, work / "corpus")
        model = install_starter()
        embedder = load_embedder(model.identity())
        store = registry.create("beir", model.identity())
        with StoreJob(store, registry=registry) as job:
            chunk_count = job.apply(
                job.review_new_sources([work / "corpus"]), embedder
            ).chunks_embedded
    index_seconds = time.perf_counter() - started
    store = registry.get("beir")
    vectors = LocalStore(registry.folder(store), store.embedding)
    snapshot = vectors.snapshot
    assert snapshot is not None
    doc_of_label = {label: paths[chunk.rel_path] for label, chunk in snapshot.chunks.iter_chunks()}
    sources = [s.id for s in store.sources]

    queries = read_queries(args.dataset)
    qrels = read_qrels(args.dataset)
    judged = [q for q in qrels if q in queries][: args.limit_queries]
    weights = (
        FusionWeights(k=args.rrf_k)
        if args.dense_weight is None
        else FusionWeights(args.dense_weight, 1 - args.dense_weight, args.rrf_k)
    )
    scores: dict[str, list[tuple[float, float, float]]] = {"dense": [], "lexical": [], "hybrid": []}
    latencies = []
    for qid in judged:
        text = queries[qid]
        t0 = time.perf_counter()
        dense = [
            (h.label, h.score) for h in vectors.search(embedder.embed_query(text), DEPTH, sources)
        ]
        lexical = [(h.label, h.score) for h in vectors.lexical_search(text, DEPTH, sources)]
        hybrid = [f.key for f in fuse(dense, lexical, weights)]
        latencies.append(time.perf_counter() - t0)
        for name, labels in (
            ("dense", [x for x, _ in dense]),
            ("lexical", [x for x, _ in lexical]),
            ("hybrid", hybrid),
        ):
            ranking = documents_by_best_chunk(labels, doc_of_label.__getitem__)
            scores[name].append(
                (
                    ndcg_at(ranking, qrels[qid]),
                    recall_at(ranking, qrels[qid]),
                    mrr_at(ranking, qrels[qid]),
                )
            )
    vectors.close()
    indexed = (
        "reused"
        if chunk_count is None
        else f"{chunk_count} chunks indexed in {index_seconds:.0f} s"
    )
    print(
        f"data set: {args.dataset} — {len(paths)} documents ({indexed}), {len(judged)} judged queries"
    )
    print(
        f"model: {model.id}; fusion weights dense {weights.dense} / lexical {weights.lexical}, "
        f"k = {weights.k}; depth {DEPTH} chunks per part"
    )
    print(f"{'':8s} {'nDCG@10':>8s} {'R@100':>8s} {'MRR@10':>8s}")
    for name, rows in scores.items():
        n = len(rows)
        print(
            f"{name:8s} {sum(r[0] for r in rows) / n:8.4f} {sum(r[1] for r in rows) / n:8.4f} "
            f"{sum(r[2] for r in rows) / n:8.4f}"
        )
    latencies.sort()
    print(
        f"query time (embed + both searches + fusion): p50 {latencies[len(latencies) // 2] * 1000:.1f} ms"
    )
    print(f"work folder (rank again with --reuse): {work}")


if __name__ == "__main__":
    main()

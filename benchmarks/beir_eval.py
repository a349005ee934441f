"""Retrieval quality on a BEIR data set through the product's own pipeline: dense, lexical, hybrid.

Indexes the corpus (one file per document) with the real starter model, then ranks documents for
every judged query by their best chunk, using the store's own dense (HNSW) and lexical (BM25) searches
and the product's fusion with the store's settings. Reports nDCG@10 (trec_eval semantics), Recall@100
and MRR@10 for each.

``--baselines`` scores plain pipelines side by side in the same run (``_baselines.py``: bm25s with
stopwords and a Snowball stemmer, exact dense search over the product's own vectors and over plain
254/38 token windows, and a plain RRF of the two); ``--sweep`` re-ranks with a grid of fusion
settings; ``--limit-docs N`` takes the first N documents and the queries judged on them. Any data
set in BEIR's layout works (``corpus.jsonl``, ``queries.jsonl``, ``qrels/SPLIT.tsv``); the tests run
it on one made from the standard library's docstrings (``tests/integration/test_beir_benchmark.py``).

    .venv/bin/python benchmarks/beir_eval.py [DATASET_DIR] [--split dev] [--baselines] [--sweep]
        [--json] [--work WORK | --reuse WORK]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import (
    DEFAULT_BEIR,
    by_file_name,
    corpus_paths,
    index_corpus,
    read_qrels,
    read_queries,
    write_corpus,
)

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


Rankings = dict[str, list[str]]  # query id -> document ids, best first

#: Questions no abstract of a biomedical corpus answers: what the relevance floor must keep out.
OFF_TOPIC = [
    "What is the capital of Mongolia?",
    "How long should sourdough dough rise before baking?",
    "Who won the 1998 football World Cup?",
    "How do I configure nginx as a reverse proxy?",
    "What are the best hiking trails in the Alps?",
    "How do I fix a flat bicycle tyre?",
    "When may a chess player castle?",
    "How do I write a list comprehension in Python?",
    "When was the Eiffel Tower built?",
    "How many strings does a violin have?",
    "What is the exchange rate of the euro to the yen?",
    "How do I rotate the backup keys of the file server?",
    "Which train goes from Munich to Vienna at night?",
    "What time does the bakery on Main Street open?",
    "How do I reset my router password?",
    "What is the plot of the novel Moby-Dick?",
    "How do I tune a guitar to drop D?",
    "What is the tallest mountain in Africa?",
    "How do I merge two branches in git?",
    "Which planets have rings?",
    "How do I plant tomato seedlings outside?",
    "What is a good recipe for apple pie?",
    "Who painted the Mona Lisa?",
    "How do I renew my passport?",
    "What does the HTTP status code 418 mean?",
    "How do marathon runners pace themselves?",
    "What is the offside rule in football?",
    "How do I knit a scarf?",
    "Which wine goes with fish?",
    "How do I install a ceiling fan?",
]


def evaluate(rankings: Rankings, qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    rows = [
        (ndcg_at(r, qrels[q]), recall_at(r, qrels[q]), mrr_at(r, qrels[q]))
        for q, r in rankings.items()
    ]
    n = max(len(rows), 1)
    return {
        "ndcg@10": sum(r[0] for r in rows) / n,
        "recall@100": sum(r[1] for r in rows) / n,
        "mrr@10": sum(r[2] for r in rows) / n,
    }


def judged_slice(
    dataset: Path, doc_ids: set[str], limit_queries: int | None, split: str = "dev"
) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    """The judged queries with at least one relevant document in ``doc_ids`` (judgements cut to it)."""
    queries = read_queries(dataset)
    qrels: dict[str, dict[str, int]] = {}
    for qid, judged in read_qrels(dataset, split).items():
        kept = {d: g for d, g in judged.items() if d in doc_ids}
        if qid in queries and any(g > 0 for g in kept.values()):
            qrels[qid] = kept
    chosen = list(qrels)[:limit_queries]
    return {q: queries[q] for q in chosen}, {q: qrels[q] for q in chosen}


class ProductRuns:
    """The product's dense and lexical chunk rankings per query, fused on demand."""

    def __init__(
        self, vectors: object, embedder: object, sources: list[str], doc_of: dict[int, str]
    ):
        self.vectors = vectors
        self.embedder = embedder
        self.sources = sources
        self.doc_of = doc_of
        self.dense: dict[str, list[tuple[int, float]]] = {}
        self.lexical: dict[str, list[tuple[int, float]]] = {}
        self.coverage: dict[str, dict[int, float]] = {}
        #: the similarity of each lexical candidate beyond the dense ranking (as retrieve() fuses)
        self.beyond: dict[str, dict[int, float]] = {}
        self.query_vectors: dict[str, object] = {}
        self.seconds: list[float] = []

    def run(self, queries: dict[str, str]) -> None:
        for qid, text in queries.items():
            t0 = time.perf_counter()
            vector = self.embedder.embed_query(text)  # type: ignore[attr-defined]
            hits = self.vectors.search(vector, DEPTH, self.sources)  # type: ignore[attr-defined]
            lexical = self.vectors.lexical_search(text, DEPTH, self.sources)  # type: ignore[attr-defined]
            self.seconds.append(time.perf_counter() - t0)
            self.query_vectors[qid] = vector
            self.dense[qid] = [(h.label, h.score) for h in hits]
            self.lexical[qid] = [(h.label, h.score) for h in lexical]
            self.coverage[qid] = {h.label: h.coverage or 0.0 for h in lexical}
            found = {h.label for h in hits}
            self.beyond[qid] = self.vectors.similarities(  # type: ignore[attr-defined]
                vector, [h.label for h in lexical if h.label not in found]
            )

    def documents(self, labels: Sequence[int]) -> list[str]:
        return documents_by_best_chunk(list(labels), self.doc_of.__getitem__)

    def admitted(self, qid: str, floor: tuple[float, float] | None) -> set[int] | None:
        """The labels that pass a relevance floor ``(dense similarity, lexical coverage)``."""
        if floor is None:
            return None
        dense = {x for x, score in self.dense[qid] if score >= floor[0]}
        dense |= {x for x, score in self.beyond[qid].items() if score >= floor[0]}
        return dense | {x for x, c in self.coverage[qid].items() if c >= floor[1]}

    def ranking(
        self, part: str, weights: object | None = None, floor: tuple[float, float] | None = None
    ) -> Rankings:
        from kortty_rag.retrieval.fusion import fuse

        if floor is not None:
            result = {}
            for q in self.dense:
                keep = self.admitted(q, floor)
                assert keep is not None
                fused = fuse(
                    self.dense[q], self.lexical[q], weights, self.beyond[q], self.coverage[q]
                )  # type: ignore[arg-type]
                result[q] = self.documents([f.key for f in fused if f.key in keep])
            return result

        if part == "dense":
            return {q: self.documents([x for x, _ in r]) for q, r in self.dense.items()}
        if part == "lexical":
            return {q: self.documents([x for x, _ in r]) for q, r in self.lexical.items()}
        if part == "hybrid-documents":  # fuse the two document rankings (document = best chunk)
            return {
                q: [
                    f.key
                    for f in fuse(self._best(self.dense[q]), self._best(self.lexical[q]), weights)  # type: ignore[arg-type]
                ]
                for q in self.dense
            }
        return {
            q: self.documents(
                [
                    f.key
                    for f in fuse(
                        self.dense[q], self.lexical[q], weights, self.beyond[q], self.coverage[q]
                    )
                ]  # type: ignore[arg-type]
            )
            for q in self.dense
        }

    def _best(self, ranked: list[tuple[int, float]]) -> list[tuple[str, float]]:
        best: dict[str, float] = {}
        for label, score in ranked:
            best.setdefault(self.doc_of[label], score)
        return list(best.items())


def calibrate(
    runs: ProductRuns,
    snapshot: object,
    doc_of: dict[int, str],
    qrels: dict[str, dict[str, int]],
    weights: object,
    *,
    store_floors: dict[str, tuple[float, float]] | None = None,
) -> dict[str, object]:
    """What a relevance floor costs and keeps out: the similarity of each judged relevant document's
    best chunk (exact), the off-topic questions' best similarity and coverage, and the hybrid's
    nDCG@10 under a grid of floors and under the store's own (calibrated) floors per level."""
    import numpy as np

    labels = sorted(doc_of)
    matrix = snapshot.vectors(labels)  # type: ignore[attr-defined]
    rows_of: dict[str, list[int]] = {}
    for row, label in enumerate(labels):
        rows_of.setdefault(doc_of[label], []).append(row)
    relevant = []
    for qid, judged in qrels.items():
        scores = matrix @ np.asarray(runs.query_vectors[qid], dtype=np.float32)
        relevant += [
            float(scores[rows_of[d]].max()) for d, g in judged.items() if g > 0 and d in rows_of
        ]
    quantiles = {f"{q:g}%": float(np.percentile(relevant, q)) for q in (0.5, 1, 2, 5, 10, 20, 50)}
    off = ProductRuns(runs.vectors, runs.embedder, runs.sources, runs.doc_of)
    off.run({f"off{i}": text for i, text in enumerate(OFF_TOPIC)})
    off_dense = [max((s for _, s in off.dense[q]), default=0.0) for q in off.dense]
    off_cover = [max(off.coverage[q].values(), default=0.0) for q in off.dense]
    base = evaluate(runs.ranking("hybrid", weights), qrels)["ndcg@10"]
    grid: dict[str, dict[str, float]] = {}
    named = {
        f"{dense_min:.2f}/{share:.2f}": (dense_min, share)
        for dense_min in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
        for share in (0.5, 0.6, 0.75, 1.0)
    }
    named |= {
        f"store {level} {d:.3f}/{c:.2f}": (d, c) for level, (d, c) in (store_floors or {}).items()
    }
    for name, floor in named.items():
        ndcg = evaluate(runs.ranking("hybrid", weights, floor), qrels)["ndcg@10"]
        kept = sum(bool(off.admitted(q, floor)) for q in off.dense)
        grid[name] = {
            "ndcg@10": ndcg,
            "cost": base - ndcg,
            "off_topic_with_excerpts": kept / len(OFF_TOPIC),
        }
    return {
        "relevant_best_chunk_similarity": quantiles,
        "relevant_pairs": len(relevant),
        "off_topic_best_similarity": sorted(round(x, 3) for x in off_dense),
        "off_topic_best_coverage": sorted(round(x, 3) for x in off_cover),
        "hybrid_ndcg_without_floor": base,
        "floors": grid,
    }


def store_floors(store: object, vectors: object) -> dict[str, tuple[float, float]]:
    """The store's own floors per level, calibrated on its snapshot's probes (the product's rule)."""
    from kortty_rag.models import RelevanceLevel
    from kortty_rag.retrieval.relevance import floor_for

    calibration = vectors.calibration()  # type: ignore[attr-defined]
    floors = {}
    for level in (RelevanceLevel.LOW, RelevanceLevel.MEDIUM, RelevanceLevel.HIGH):
        floor = floor_for(store, level, calibration)  # type: ignore[arg-type]
        assert floor.dense is not None and floor.lexical is not None
        floors[level.value] = (floor.dense, floor.lexical)
    return floors


def print_calibration(data: dict[str, object]) -> None:
    quantiles = data["relevant_best_chunk_similarity"]
    assert isinstance(quantiles, dict)
    print(f"relevance floor: best-chunk similarity of {data['relevant_pairs']} relevant documents")
    print("  " + ", ".join(f"{k} {v:.3f}" for k, v in quantiles.items()))
    print(f"  off-topic questions, best similarity: {data['off_topic_best_similarity']}")
    print(f"  off-topic questions, best coverage:   {data['off_topic_best_coverage']}")
    print(f"  hybrid nDCG@10 without a floor: {data['hybrid_ndcg_without_floor']:.4f}")
    print(f"  {'floor (dense/coverage)':24s} {'nDCG@10':>8s} {'cost':>8s} {'off-topic kept':>15s}")
    floors = data["floors"]
    assert isinstance(floors, dict)
    for name, row in floors.items():
        print(
            f"  {name:24s} {row['ndcg@10']:8.4f} {row['cost']:8.4f} "
            f"{row['off_topic_with_excerpts']:15.0%}"
        )


def print_table(title: str, rows: dict[str, dict[str, float]]) -> None:
    print(title)
    print(f"  {'':44s} {'nDCG@10':>8s} {'R@100':>8s} {'MRR@10':>8s}")
    for name, m in rows.items():
        print(f"  {name:44s} {m['ndcg@10']:8.4f} {m['recall@100']:8.4f} {m['mrr@10']:8.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--split", default="dev", help="the judgements: qrels/SPLIT.tsv (dev)")
    parser.add_argument("--limit-queries", type=int)
    parser.add_argument("--limit-docs", type=int, help="only the first N documents (CI slice)")
    parser.add_argument("--dense-weight", type=float, default=None, help="default: the store's")
    parser.add_argument("--rrf-k", type=int, default=None, help="default: the store's")
    parser.add_argument("--fusion", choices=["rrf", "convex"], help="default: the store's")
    parser.add_argument(
        "--baselines", action="store_true", help="score plain baselines side by side"
    )
    parser.add_argument(
        "--sweep", action="store_true", help="re-rank with a grid of fusion settings"
    )
    parser.add_argument(
        "--calibrate", action="store_true", help="relevance-floor figures: similarities, costs"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    folders = parser.add_mutually_exclusive_group()
    folders.add_argument(
        "--reuse",
        type=Path,
        metavar="WORK",
        help="the work folder of an earlier run (printed at its end): rank again without indexing",
    )
    folders.add_argument(
        "--work",
        type=Path,
        metavar="WORK",
        help="index in this new or empty folder (default: a temporary one); a starter model "
        "already installed in WORK/home is used as it is",
    )
    parser.add_argument(
        "--variant",
        choices=["no-titles", "full-windows"],
        action="append",
        default=[],
        help="index with an experimental change: no plain-text titles in chunks; chunks cut at the "
        "full budget (no sentence or paragraph preference)",
    )
    args = parser.parse_args()
    if "no-titles" in args.variant:
        from kortty_rag.chunking import structured

        structured.TITLED_FORMATS = frozenset()
    if "full-windows" in args.variant:
        from kortty_rag.chunking import splitter

        splitter._MIN_FILL = 1.0
    for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{args.split}.tsv"):
        if not (args.dataset / name).is_file():
            parser.error(f"{args.dataset} has no {name}: it is not a BEIR data set folder")
    work = args.reuse or args.work or Path(tempfile.mkdtemp(prefix="kortty-beir-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.installed import get_model, list_models
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.index.local import LocalStore
    from kortty_rag.retrieval.fusion import CONVEX, RRF, FusionWeights
    from kortty_rag.retrieval.search import store_weights
    from kortty_rag.sync.session import StoreSession

    registry = StoreRegistry()
    started = time.perf_counter()
    if args.reuse:
        paths = corpus_paths(args.dataset, args.limit_docs)
        model = get_model(STARTER_ID)
        embedder = load_embedder(model.identity())
        chunk_count = None
    else:
        paths = write_corpus(args.dataset, work / "corpus", args.limit_docs)
        installed = any(m.id == STARTER_ID for m in list_models())
        model = get_model(STARTER_ID) if installed else install_starter()
        embedder = load_embedder(model.identity())
        store = registry.create("beir", model.identity())
        with StoreSession(store, registry=registry) as job:
            chunk_count = index_corpus(job, work / "corpus", embedder)
    index_seconds = time.perf_counter() - started
    store = registry.get("beir")
    vectors = LocalStore(registry.folder(store), store.embedding)
    snapshot = vectors.snapshot
    assert snapshot is not None
    names = by_file_name(paths)
    doc_of_label = {
        label: names[chunk.rel_path.rsplit("/", 1)[-1]]
        for label, chunk in snapshot.chunks.iter_chunks()
    }
    queries, qrels = judged_slice(args.dataset, set(paths.values()), args.limit_queries, args.split)
    base = store_weights(store)
    weights = FusionWeights(
        base.dense if args.dense_weight is None else args.dense_weight,
        base.lexical if args.dense_weight is None else 1 - args.dense_weight,
        base.k if args.rrf_k is None else args.rrf_k,
        base.method if args.fusion is None else args.fusion,
    )
    runs = ProductRuns(vectors, embedder, [s.id for s in store.sources], doc_of_label)
    runs.run(queries)
    figures: dict[str, dict[str, float]] = {
        "product dense (HNSW)": evaluate(runs.ranking("dense"), qrels),
        "product lexical": evaluate(runs.ranking("lexical"), qrels),
        f"product hybrid ({weights.method}, dense {weights.dense:g}"
        + (f", k {weights.k})" if weights.method == RRF else ")"): evaluate(
            runs.ranking("hybrid", weights), qrels
        ),
    }
    if args.baselines:
        from _baselines import Bm25sBaseline, ExactDense, read_corpus, rrf

        doc_ids = sorted(set(paths.values()))
        texts = read_corpus(args.dataset, doc_ids)
        bm25 = Bm25sBaseline(doc_ids, texts)
        bm25_runs = {q: bm25.rank(queries[q]) for q in queries}
        stored = list(snapshot.chunks.iter_chunks())
        chunk_bm25 = Bm25sBaseline(
            [doc_of_label[label] for label, _ in stored], [c.embedded_text() for _, c in stored]
        )
        labels = sorted(doc_of_label)
        own = ExactDense(snapshot.vectors(labels), [doc_of_label[x] for x in labels])
        plain = ExactDense.plain(embedder, doc_ids, texts, work / "plain-chunks")
        plain_runs = {q: plain.rank(runs.query_vectors[q]) for q in queries}  # type: ignore[arg-type]
        figures |= {
            "baseline bm25s (stopwords + Snowball)": evaluate(bm25_runs, qrels),
            "baseline bm25s over the product's chunks": evaluate(
                {q: chunk_bm25.rank(queries[q]) for q in queries}, qrels
            ),
            "baseline exact dense, product's vectors": evaluate(
                {q: own.rank(runs.query_vectors[q]) for q in queries},
                qrels,  # type: ignore[arg-type]
            ),
            f"baseline exact dense, plain 254/38 ({len(plain.chunk_docs)} chunks)": evaluate(
                plain_runs, qrels
            ),
            "baseline plain RRF (bm25s + plain dense)": evaluate(
                {q: rrf([bm25_runs[q], plain_runs[q]]) for q in queries}, qrels
            ),
        }
    sweep: dict[str, dict[str, float]] = {}
    if args.sweep:
        for dense_weight in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
            for k in (5, 10, 20, 40, 60):
                w = FusionWeights(dense_weight, 1 - dense_weight, k, RRF)
                sweep[f"rrf, dense {dense_weight:g} / lexical {1 - dense_weight:g}, k {k}"] = (
                    evaluate(runs.ranking("hybrid", w), qrels)
                )
        for tenth in range(2, 10):
            dense_weight = tenth / 10
            w = FusionWeights(dense_weight, 1 - dense_weight, method=CONVEX)
            sweep[f"convex, dense {dense_weight:g} / lexical {1 - dense_weight:g}"] = evaluate(
                runs.ranking("hybrid", w), qrels
            )
        for method, ks in ((RRF, (10, 20, 60)), (CONVEX, (60,))):
            for dense_weight in (0.4, 0.5, 0.6, 0.7, 0.8):
                for k in ks:
                    w = FusionWeights(dense_weight, 1 - dense_weight, k, method)
                    name = f"documents {method}, dense {dense_weight:g}" + (
                        f", k {k}" if method == RRF else ""
                    )
                    sweep[name] = evaluate(runs.ranking("hybrid-documents", w), qrels)
    calibration: dict[str, object] = {}
    if args.calibrate:
        calibration = calibrate(
            runs, snapshot, doc_of_label, qrels, weights, store_floors=store_floors(store, vectors)
        )
    vectors.close()
    latencies = sorted(runs.seconds)
    p50 = latencies[len(latencies) // 2] * 1000 if latencies else 0.0
    if args.json:
        print(
            json.dumps(
                {
                    "documents": len(paths),
                    "chunks": snapshot.size,
                    "queries": len(queries),
                    "figures": figures,
                    "sweep": sweep,
                    "calibration": calibration,
                    "p50_ms": p50,
                    "work": str(work),
                },
                indent=2,
            )
        )
        return
    indexed = (
        "reused"
        if chunk_count is None
        else f"{chunk_count} chunks indexed in {index_seconds:.0f} s"
    )
    print(
        f"data set: {args.dataset} — {len(paths)} documents ({indexed}), {len(queries)} judged queries"
    )
    print(f"model: {model.id}; depth {DEPTH} chunks per part")
    print_table("figures", figures)
    if sweep:
        best = max(sweep, key=lambda n: sweep[n]["ndcg@10"])
        print_table(f"sweep (best: {best})", sweep)
    if calibration:
        print_calibration(calibration)
    print(f"query time (embed + both searches): p50 {p50:.1f} ms")
    print(f"work folder (rank again with --reuse): {work}")


if __name__ == "__main__":
    main()

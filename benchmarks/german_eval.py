"""German notes against plain BM25: the product's retrieval on German man pages, side by side.

The set is ``benchmarks/data/german-man`` (``build_german_set.py``: 400 German man pages, the question
of each is its NAME summary, removed from the page). Each format — plain text (``.txt``: title line,
empty line, the rendered page) and Markdown (``.md``: the man sections as ``##`` headings) — is
indexed through the product into a store of its own with the real starter model (all-MiniLM-L6-v2,
trained on English), one review, the default settings. Then, for each lexical language asked
(``--languages``; ``auto`` is the default setting, ``de`` is ``store retrieval NAME --language de``:
the index is analysed again, nothing re-embedded), every question is asked of:

* **block**: the real ``retrieve()`` (:mod:`kortty_rag.retrieval.search`, through ``RetrievalService``)
  at the default minimum relevance (low) and at ``off`` — the excerpts a model would be given (at most
  6, at most 2 per document first); also with only the dense or only the lexical part (low);
* **parts**: the store's dense (HNSW) and lexical (BM25) searches, 200 chunks deep, documents ranked by
  their best chunk (``beir_eval.ProductRuns``), without a floor and with the default floor's threshold
  (dense similarity; lexical share of the question's words); and the product's hybrid fusion of the two
  (the store's weights) without and with the default floor; a few other fusion weights;
* **baselines**: bm25s with a German stopword list and PyStemmer's German Snowball stemmer over whole
  documents (title + page, as ``_baselines.Bm25sBaseline`` does in English) and over the product's own
  chunks (each with its heading).

Figures per question set: **hit@6** (the page among the first 6 distinct documents; for a block: among
its excerpts' documents), **MRR@10** and **nDCG@10** (one judged page per question). ``--english``
adds the English pages of the same commands (``build_german_set.py --english``, rendered into the work
folder; English bm25s baseline). The run ends with diagnostics: why the block misses pages that bm25s
finds (below the relevance floor, outranked, never a candidate), the floor's word-share rule against
the length of the question, the dense similarities, and examples; per-question details go to
``WORK/details-*.json``.

    nice -n 5 .venv/bin/python benchmarks/german_eval.py [DATASET] [--formats txt,md]
        [--languages auto,own] [--english] [--limit-queries N] [--work WORK] [--examples 8] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _baselines import Bm25sBaseline, read_corpus
from _beir import CachedQueries, by_file_name, index_corpus, read_qrels, read_queries
from beir_eval import ProductRuns, mrr_at, ndcg_at
from build_german_set import DEFAULT_OUT, build_english, write_documents

HERE = Path(__file__).resolve().parent
HIT_K = 6
#: candidates per part that retrieve() fuses (``SearchOptions.candidates``)
SEARCH_CANDIDATES = 40
Rankings = dict[str, list[str]]
Qrels = dict[str, dict[str, int]]


# -- measures ---------------------------------------------------------------------------------------


def hit_at(ranking: list[str], relevant: dict[str, int], k: int = HIT_K) -> float:
    return float(any(relevant.get(doc, 0) > 0 for doc in ranking[:k]))


def evaluate(rankings: Rankings, qrels: Qrels) -> dict[str, float]:
    n = max(len(rankings), 1)
    return {
        "hit@6": sum(hit_at(r, qrels[q]) for q, r in rankings.items()) / n,
        "mrr@10": sum(mrr_at(r, qrels[q]) for q, r in rankings.items()) / n,
        "ndcg@10": sum(ndcg_at(r, qrels[q]) for q, r in rankings.items()) / n,
    }


def rank_of(ranking: list[str], relevant: dict[str, int]) -> int | None:
    """1-based place of the first relevant document, or ``None``."""
    return next((i for i, d in enumerate(ranking, 1) if relevant.get(d, 0) > 0), None)


# -- baselines --------------------------------------------------------------------------------------


class Bm25sIn(Bm25sBaseline):
    """``_baselines.Bm25sBaseline`` in another language: the same bm25s BM25 and document ranking,
    with bm25s's stopword list and PyStemmer's Snowball stemmer of that language (``de``/``german``)."""

    def __init__(
        self, doc_ids: Sequence[str], texts: Sequence[str], stopwords: str, stemmer: str
    ) -> None:
        import bm25s
        import Stemmer

        self.doc_ids = list(doc_ids)
        self._bm25s = bm25s
        self._stopwords = stopwords
        self._stemmer = Stemmer.Stemmer(stemmer)
        tokens = bm25s.tokenize(
            list(texts), stopwords=stopwords, stemmer=self._stemmer, show_progress=False
        )
        self.model = bm25s.BM25()
        self.model.index(tokens, show_progress=False)

    def rank(self, query: str, depth: int = 200) -> list[str]:
        tokens = self._bm25s.tokenize(
            [query], stopwords=self._stopwords, stemmer=self._stemmer, show_progress=False
        )
        k = min(depth, len(self.doc_ids))
        results, scores = self.model.retrieve(tokens, k=k, show_progress=False)
        ranked = (self.doc_ids[int(i)] for i, s in zip(results[0], scores[0], strict=True) if s > 0)
        return list(dict.fromkeys(ranked))


def bm25s_for(language: str, doc_ids: Sequence[str], texts: Sequence[str]) -> Bm25sBaseline:
    if language == "en":
        return Bm25sBaseline(doc_ids, texts)  # _baselines' own: English stopwords and Snowball
    return Bm25sIn(doc_ids, texts, stopwords="de", stemmer="german")


# -- the model --------------------------------------------------------------------------------------


def starter_model() -> Any:
    """The installed starter model of ``KORTTY_HOME``; copied from the test suite's cache
    (``~/.cache/kortty-rag-tests``, ``KORTTY_TEST_CACHE``) when it is there, else installed."""
    from kortty_rag.config.paths import models_dir
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.installed import get_model, list_models

    if any(m.id == STARTER_ID for m in list_models()):
        return get_model(STARTER_ID)
    cache = Path(os.environ.get("KORTTY_TEST_CACHE") or Path.home() / ".cache" / "kortty-rag-tests")
    found = sorted(
        cache.glob(f"starter-*/models/{STARTER_ID}/model.json"), key=lambda p: p.stat().st_mtime
    )
    if not found:
        return install_starter()
    target = models_dir() / STARTER_ID
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(found[-1].parent, target)
    return get_model(STARTER_ID)


# -- one corpus -------------------------------------------------------------------------------------


#: Questions no man page answers, in both languages: what the relevance floor should keep out.
OFF_TOPIC = {
    "de": [
        "Wie lange muss ein Sauerteigbrot vor dem Backen gehen?",
        "Wer hat die Fußball-Weltmeisterschaft 1998 gewonnen?",
        "Was ist die Hauptstadt der Mongolei?",
        "Wann darf ein Schachspieler rochieren?",
        "Wie pflanze ich Tomatensetzlinge im Garten aus?",
        "Welcher Wein passt zu Fisch?",
        "Wie stricke ich einen Schal?",
        "Wer hat die Mona Lisa gemalt?",
        "Wie verlängere ich meinen Reisepass?",
        "Welche Planeten haben Ringe?",
        "Wie stimme ich eine Gitarre auf Drop D?",
        "Was ist der höchste Berg Afrikas?",
        "Wie backe ich einen Apfelkuchen?",
        "Wann wurde der Eiffelturm gebaut?",
        "Wie viele Saiten hat eine Geige?",
        "Welcher Nachtzug fährt von München nach Wien?",
        "Wann öffnet die Bäckerei in der Hauptstraße?",
        "Wie flicke ich einen platten Fahrradreifen?",
        "Was besagt die Abseitsregel im Fußball?",
        "Wie teilen Marathonläufer ihre Kräfte ein?",
    ],
    "en": [
        "How long should sourdough bread rise before baking?",
        "Who won the 1998 football World Cup?",
        "What is the capital of Mongolia?",
        "When may a chess player castle?",
        "How do I plant tomato seedlings out in the garden?",
        "Which wine goes with fish?",
        "How do I knit a scarf?",
        "Who painted the Mona Lisa?",
        "How do I renew my passport?",
        "Which planets have rings?",
        "How do I tune a guitar to drop D?",
        "What is the tallest mountain in Africa?",
        "How do I bake an apple pie?",
        "When was the Eiffel Tower built?",
        "How many strings does a violin have?",
        "Which night train goes from Munich to Vienna?",
        "When does the bakery on Main Street open?",
        "How do I fix a flat bicycle tyre?",
        "What is the offside rule in football?",
        "How do marathon runners pace themselves?",
    ],
}


@dataclass
class Corpus:
    label: str  # "german" / "english"
    dataset: Path
    language: (
        str  # de / en: the language of the text (bm25s baseline, the analyzer for diagnostics)
    )
    queries: dict[str, str] = field(default_factory=dict)
    qrels: Qrels = field(default_factory=dict)

    def load(self, limit: int | None) -> None:
        queries = read_queries(self.dataset)
        qrels = read_qrels(self.dataset, "test")
        chosen = [q for q in qrels if q in queries][:limit]
        self.queries = {q: queries[q] for q in chosen}
        self.qrels = {q: qrels[q] for q in chosen}


@dataclass
class Result:
    title: str
    figures: dict[str, dict[str, float]]
    sweep: dict[str, dict[str, float]]
    details: dict[str, dict[str, Any]]
    notes: list[str]
    floor: tuple[float, float]  # the default level's dense similarity and lexical coverage


def block_rankings(
    service: Any, store: Any, corpus: Corpus, doc_of_path: dict[str, str], **options: Any
) -> tuple[Rankings, dict[str, str]]:
    """Each question's block through ``retrieve()``: its excerpts' documents in order, and where the
    judged page went (``hit``; the reason the block gives for the page's best dropped chunk that
    passed the floor, else ``below relevance floor``; or ``not a candidate``)."""
    from kortty_rag.retrieval.search import DROP_BELOW_FLOOR, SearchOptions

    rankings: Rankings = {}
    fate: dict[str, str] = {}
    for qid, text in corpus.queries.items():
        result = service.search(text, [store], options=SearchOptions(explain=True, **options))
        docs = [doc_of_path[e.candidate.chunk.rel_path] for e in result.excerpts]
        rankings[qid] = list(dict.fromkeys(docs))
        relevant = corpus.qrels[qid]
        if any(relevant.get(d, 0) > 0 for d in docs):
            fate[qid] = "hit"
            continue
        reasons = [
            d.reason
            for d in result.dropped
            if relevant.get(doc_of_path.get(d.candidate.chunk.rel_path, ""), 0) > 0
        ]
        # a page with one chunk below the floor and another admitted but crowded out lost to the
        # block's limits, not to the floor: an admitted chunk's reason comes first
        admitted = [r for r in reasons if r != DROP_BELOW_FLOOR]
        fate[qid] = (admitted or reasons or ["not a candidate"])[0]
    return rankings, fate


def evaluate_store(
    corpus: Corpus,
    store: Any,
    embedder: Any,
    paths: dict[str, str],
    baselines: dict[str, Rankings],
) -> Result:
    from kortty_rag.index.factory import open_vector_store
    from kortty_rag.models import RelevanceLevel
    from kortty_rag.retrieval.fusion import CONVEX, RRF, FusionWeights, fuse
    from kortty_rag.retrieval.search import RetrievalService, SearchOptions, store_weights

    vectors = open_vector_store(store)
    snapshot = vectors.snapshot  # type: ignore[attr-defined]
    language = snapshot.lexical_language
    names = by_file_name(paths)
    doc_of_path = {rel.split("/", 1)[1]: doc for rel, doc in paths.items()}  # rel to part-0
    doc_of_label = {
        label: names[chunk.rel_path.rsplit("/", 1)[-1]]
        for label, chunk in snapshot.chunks.iter_chunks()
    }
    runs = ProductRuns(vectors, embedder, [s.id for s in store.sources], doc_of_label)
    runs.run(corpus.queries)
    weights = store_weights(store)
    qs = list(corpus.queries)

    service = RetrievalService(load_embedder=lambda _store: embedder)
    # the floor retrieve() applies to this store at its default level (as retrieve() reports it)
    floor = service.search(corpus.queries[qs[0]], [store]).relevance[0]
    assert floor.dense is not None and floor.lexical is not None
    dense_min, share = floor.dense, floor.lexical
    blocks: dict[str, Rankings] = {}
    fates: dict[str, dict[str, str]] = {}
    for name, options in {
        f"block, retrieve() at {floor.level.value} (default)": {},
        "block, retrieve() at off": {"min_relevance": RelevanceLevel.OFF},
        f"block, dense part only, {floor.level.value}": {"lexical": False},
        f"block, lexical part only, {floor.level.value}": {"dense": False},
        "block, lexical part only, off": {"dense": False, "min_relevance": RelevanceLevel.OFF},
    }.items():
        blocks[name], fates[name] = block_rankings(service, store, corpus, doc_of_path, **options)
    off_topic = OFF_TOPIC[corpus.language]
    given = [service.search(text, [store]) for text in off_topic]
    block_docs = [len(r) for r in blocks[next(iter(blocks))].values()]
    service.close()
    off = ProductRuns(vectors, embedder, runs.sources, doc_of_label)
    off.run({f"off{i}": text for i, text in enumerate(off_topic)})
    off_dense = sorted(round(max((s for _, s in r), default=0.0), 2) for r in off.dense.values())
    off_cover = sorted(round(max(c.values(), default=0.0), 2) for c in off.coverage.values())

    parts: dict[str, Rankings] = {
        "dense part (HNSW, no floor)": runs.ranking("dense"),
        f"dense part, similarity >= {dense_min:.3f}": {
            q: runs.documents([x for x, s in runs.dense[q] if s >= dense_min]) for q in qs
        },
        "lexical part (BM25, no floor)": runs.ranking("lexical"),
        f"lexical part, coverage >= {share:g}": {
            q: runs.documents([x for x, _ in runs.lexical[q] if runs.coverage[q][x] >= share])
            for q in qs
        },
        f"hybrid ({weights.method} {weights.dense:g}/{weights.lexical:g}), no floor": runs.ranking(
            "hybrid", weights
        ),
        f"hybrid, default floor ({dense_min:.3f} / {share:g})": runs.ranking(
            "hybrid", weights, (dense_min, share)
        ),
    }
    rankings = blocks | parts | baselines
    figures = {name: evaluate(r, corpus.qrels) for name, r in rankings.items()}

    sweep = {}
    for dense_weight in (1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2, 0.0):
        w = FusionWeights(dense_weight, round(1 - dense_weight, 9), method=CONVEX)
        sweep[f"convex dense {dense_weight:g}"] = evaluate(runs.ranking("hybrid", w), corpus.qrels)
    for dense_weight, k in ((0.5, 60), (0.5, 5), (0.3, 60)):
        w = FusionWeights(dense_weight, round(1 - dense_weight, 9), k, RRF)
        sweep[f"rrf dense {dense_weight:g} k {k}"] = evaluate(
            runs.ranking("hybrid", w), corpus.qrels
        )
    w = FusionWeights(weights.dense, weights.lexical, weights.k, weights.method)
    sweep["documents fused (best chunk per part), store weights"] = evaluate(
        runs.ranking("hybrid-documents", w), corpus.qrels
    )
    # retrieve()'s 40 candidates per part fused as the product does (a lexical candidate beyond the
    # dense part's 40 counts its exact similarity) against the fusion before that (counted as -1)
    candidates = SearchOptions().candidates
    assert candidates == SEARCH_CANDIDATES, "retrieve() fuses another number of candidates now"
    for name, computed in (("similarity computed (the product)", True), ("counted as -1", False)):
        for dense_weight in (0.8, 0.6, 0.5):
            w = FusionWeights(dense_weight, round(1 - dense_weight, 9), method=CONVEX)
            ranked = {}
            for q in qs:
                dense, lexical = runs.dense[q][:candidates], runs.lexical[q][:candidates]
                found = {x for x, _ in dense}
                beyond = (
                    vectors.similarities(
                        runs.query_vectors[q], [x for x, _ in lexical if x not in found]
                    )
                    if computed
                    else {}
                )
                fused = fuse(dense, lexical, w, beyond, runs.coverage[q])
                ranked[q] = runs.documents([f.key for f in fused])
            sweep[
                f"{candidates}+{candidates} candidates, convex {dense_weight:g}, lexical-only {name}"
            ] = evaluate(ranked, corpus.qrels)

    from kortty_rag.index.analysis import analyzer

    words = analyzer(language or "none")
    # in how many chunks each term occurs (as the lexical index counts it: heading and text)
    chunk_count = Counter()
    for _, chunk in snapshot.chunks.iter_chunks():
        chunk_count.update(set(words.terms(chunk.embedded_text())[0]))
    n = snapshot.size
    default_block = next(iter(blocks))
    details: dict[str, dict[str, Any]] = {}
    for q in qs:
        relevant = corpus.qrels[q]
        mine = {x for x in doc_of_label if relevant.get(doc_of_label[x], 0) > 0}
        dense_mine = [(i, s) for i, (x, s) in enumerate(runs.dense[q], 1) if x in mine]
        lexical_mine = [
            (i, runs.coverage[q][x]) for i, (x, _) in enumerate(runs.lexical[q], 1) if x in mine
        ]
        terms = words.query_terms(corpus.queries[q])
        idf = {t: math.log1p((n - chunk_count[t] + 0.5) / (chunk_count[t] + 0.5)) for t in terms}
        nowhere = [t for t in terms if chunk_count[t] == 0]
        best = max((c for _, c in lexical_mine), default=None)
        known = sum(idf.values()) - sum(idf[t] for t in nowhere)
        details[q] = {
            "question": corpus.queries[q],
            "terms": terms,
            # terms in no chunk count with the largest IDF in the coverage (bm25 ignores them)
            "terms_in_no_chunk": nowhere,
            "best_coverage_of_page_without_those": (
                None if best is None or known <= 0 else best * sum(idf.values()) / known
            ),
            "ranks": {name: rank_of(r[q], relevant) for name, r in rankings.items()},
            "block_fate": fates[default_block][q],
            "block_documents": len(blocks[default_block][q]),
            "best_dense_of_page": max((s for _, s in dense_mine), default=None),
            "best_dense_chunk_rank_of_page": min((i for i, _ in dense_mine), default=None),
            "top_dense": runs.dense[q][0][1] if runs.dense[q] else None,
            "best_coverage_of_page": max((c for _, c in lexical_mine), default=None),
            "best_lexical_chunk_rank_of_page": min((i for i, _ in lexical_mine), default=None),
            "top_coverage": max(runs.coverage[q].values(), default=None),
        }
    vectors.close()
    notes = [
        f"lexical index language: {language}",
        f"floor: {floor.describe()}"
        + (", calibrated for this store" if getattr(floor, "calibrated", False) else ""),
        f"documents in a default block: mean {statistics.mean(block_docs):.1f}",
        f"off-topic questions given excerpts at the default level: "
        f"{sum(bool(r.excerpts) for r in given)} of {len(given)} "
        f"(their best similarity {off_dense}, best coverage {off_cover})",
    ]
    return Result("", figures, sweep, details, notes, (dense_min, share))


def index_format(
    corpus: Corpus, fmt: str, work: Path, model: Any, embedder: Any
) -> tuple[Any, dict[str, str], float, int | None]:
    """The store of ``corpus`` in ``fmt``: indexed now, or the one an earlier run with the same
    work folder left (``chunks`` is then ``None``)."""
    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.errors import NotFoundError
    from kortty_rag.sync.session import StoreSession

    folder = work / f"{corpus.label}-{fmt}"
    paths = write_documents(corpus.dataset, folder, fmt)
    registry = StoreRegistry()
    name = f"{corpus.label}-{fmt}"
    try:
        return registry.get(name), paths, 0.0, None
    except NotFoundError:
        pass
    store = registry.create(name, model.identity())
    started = time.perf_counter()
    with StoreSession(store, registry=registry) as job:
        chunks = index_corpus(job, folder, embedder)
    return registry.get(store.name), paths, time.perf_counter() - started, chunks


def run_corpus(
    corpus: Corpus,
    formats: Sequence[str],
    languages: Sequence[str],
    *,
    work: Path,
    model: Any,
    embedder: Any,
    report: Callable[[Result], None],
) -> None:
    from kortty_rag.app.workspace import Workspace
    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.index.factory import open_vector_store

    doc_ids = sorted({d for judged in corpus.qrels.values() for d in judged})
    with (corpus.dataset / "corpus.jsonl").open(encoding="utf-8") as lines:
        all_ids = [json.loads(line)["_id"] for line in lines]
    texts = read_corpus(corpus.dataset, all_ids)
    bm25 = bm25s_for(corpus.language, all_ids, texts)
    whole = {q: bm25.rank(t) for q, t in corpus.queries.items()}
    print(
        f"{corpus.label}: {len(all_ids)} documents, {len(corpus.queries)} questions ({len(doc_ids)} judged pages)",
        file=sys.stderr,
    )
    asking = CachedQueries(embedder)
    for fmt in formats:
        store, paths, seconds, chunks = index_format(corpus, fmt, work, model, embedder)
        indexing = "reused" if chunks is None else f"{chunks} chunks indexed in {seconds:.0f} s"
        print(f"  {fmt}: {indexing}", file=sys.stderr)
        vectors = open_vector_store(store)
        stored = list(vectors.snapshot.chunks.iter_chunks())  # type: ignore[attr-defined]
        names = by_file_name(paths)
        chunk_bm25 = bm25s_for(
            corpus.language,
            [names[c.rel_path.rsplit("/", 1)[-1]] for _, c in stored],
            [c.embedded_text() for _, c in stored],
        )
        vectors.close()
        baselines = {
            f"baseline bm25s ({corpus.language} stopwords + Snowball), whole documents": whole,
            "baseline bm25s, the product's chunks": {
                q: chunk_bm25.rank(t) for q, t in corpus.queries.items()
            },
        }
        seen_languages: dict[str, str] = {}
        for setting in languages:
            if store.options.retrieval.language != setting:
                store = Workspace(StoreRegistry()).set_retrieval(store, language=setting).store
            vectors = open_vector_store(store)
            used = vectors.snapshot.lexical_language  # type: ignore[attr-defined]
            vectors.close()
            if used in seen_languages:
                print(
                    f"    language {setting}: the index uses {used}, as with {seen_languages[used]}: same figures, not repeated",
                    file=sys.stderr,
                )
                continue
            started = time.perf_counter()
            result = evaluate_store(corpus, store, asking, paths, baselines)
            seen_languages[used] = setting
            result.title = f"{corpus.label}, {fmt}, {len(stored)} chunks, lexical language setting {setting} (index: {used})"
            result.notes.append(
                f"indexing: {indexing}; questions {time.perf_counter() - started:.0f} s"
            )
            (work / f"details-{corpus.label}-{fmt}-{setting}.json").write_text(
                json.dumps(result.details, ensure_ascii=False, indent=1), encoding="utf-8"
            )
            print(f"    language {setting} (index {used}) done", file=sys.stderr)
            report(result)


# -- reporting --------------------------------------------------------------------------------------


def print_table(title: str, rows: dict[str, dict[str, float]]) -> None:
    print(title)
    print(f"  {'':62s} {'hit@6':>7s} {'MRR@10':>7s} {'nDCG@10':>8s}")
    for name, m in rows.items():
        print(f"  {name:62s} {m['hit@6']:7.3f} {m['mrr@10']:7.3f} {m['ndcg@10']:8.3f}")


def _bucket(n: int) -> str:
    return "1-2" if n <= 2 else "3-4" if n <= 4 else "5-6" if n <= 6 else "7+"


def diagnose(result: Result, share: float, dense_min: float, examples: int) -> None:
    """Why the default block misses pages that bm25s finds, with figures and examples."""
    details = result.details
    names = list(next(iter(details.values()))["ranks"])
    block = names[0]
    bm25 = next(n for n in names if n.startswith("baseline bm25s ("))
    lexical = next(n for n in names if n.startswith("lexical part (BM25"))
    hybrid = next(n for n in names if n.startswith("hybrid ("))

    def hit(d: dict[str, Any], name: str) -> bool:
        r = d["ranks"][name]
        return r is not None and r <= HIT_K

    lost = [q for q, d in details.items() if hit(d, bm25) and not hit(d, block)]
    won = [q for q, d in details.items() if hit(d, block) and not hit(d, bm25)]
    print(
        f"  block ({block}) vs bm25s: bm25s finds {len(lost)} pages the block misses, the block {len(won)} bm25s misses"
    )
    floored = next(n for n in names if n.startswith("hybrid, default floor"))
    sizes = [d["block_documents"] for d in details.values() if "block_documents" in d]
    within = [
        sum((d["ranks"][floored] or 99) <= k for d in details.values()) / len(details)
        for k in range(1, HIT_K + 1)
    ]
    print(
        "    the block holds at most 2 excerpts of a document first, so fewer than 6 documents"
        + (f" (mean {statistics.mean(sizes):.1f})" if sizes else "")
        + "; the hybrid with the default floor finds the page among its first 1…6 documents: "
        + " / ".join(f"{x:.3f}" for x in within)
    )
    cut = SEARCH_CANDIDATES
    groups: dict[str, list[bool]] = {}
    for d in details.values():
        in_dense = (d["best_dense_chunk_rank_of_page"] or cut + 1) <= cut
        in_lexical = (d["best_lexical_chunk_rank_of_page"] or cut + 1) <= cut
        key = {
            (True, True): "both parts",
            (True, False): "only the dense part",
            (False, True): "only the lexical part",
            (False, False): "neither part",
        }[in_dense, in_lexical]
        groups.setdefault(key, []).append(hit(d, block))
    print(
        f"    the page's chunks among retrieve()'s {cut} candidates of: "
        + ", ".join(f"{k} {len(v)} (in the block {sum(v)})" for k, v in groups.items())
    )
    fates = Counter(details[q]["block_fate"] for q in lost)
    print(
        "    where the lost pages went in the block: "
        + ", ".join(f"{k}: {v}" for k, v in fates.most_common())
    )
    cats = Counter()
    for q in lost:
        d = details[q]
        if hit(d, lexical) and not hit(d, hybrid):
            cats["lexical part finds it, fusion pushes it out"] += 1
        elif hit(d, hybrid):
            cats["hybrid without floor finds it: lost to the floor or the block's limits"] += 1
        elif not hit(d, lexical):
            cats["the product's lexical part misses it too (chunks vs whole page)"] += 1
    print("    by stage: " + ", ".join(f"{k}: {v}" for k, v in cats.most_common()))
    # the coverage rule against the question's length
    rows: dict[str, list[float]] = {}
    for d in details.values():
        c = d["best_coverage_of_page"]
        rows.setdefault(_bucket(len(d["terms"])), []).append(-1.0 if c is None else c)
    print(
        f"    the page's best chunk covers >= {share:.0%} of the question's words (IDF-weighted), by the question's content terms:"
    )
    for b in ("1-2", "3-4", "5-6", "7+"):
        values = rows.get(b, [])
        if values:
            ok = sum(v >= share for v in values)
            med = statistics.median(values)
            print(
                f"      {b:>4s} terms: {len(values):4d} questions, {ok / len(values):6.1%} pass, median coverage {med:.2f}"
            )
    nowhere = [d for d in details.values() if d["terms_in_no_chunk"]]
    all_terms = sum(len(d["terms"]) for d in details.values())
    passing = sum((d["best_coverage_of_page"] or 0) >= share for d in details.values())
    without = sum(
        (d["best_coverage_of_page_without_those"] or 0) >= share for d in details.values()
    )
    print(
        f"    question terms found in no chunk (they count in the coverage with the largest IDF; "
        f"BM25 ignores them): {sum(len(d['terms_in_no_chunk']) for d in nowhere)} of {all_terms} "
        f"terms, in {len(nowhere)} questions; the page's best chunk passes the share for "
        f"{passing} questions, {without} if those terms did not count"
    )
    dense_page = [
        d["best_dense_of_page"] for d in details.values() if d["best_dense_of_page"] is not None
    ]
    tops = [d["top_dense"] for d in details.values() if d["top_dense"] is not None]
    lost_dense = [details[q]["best_dense_of_page"] or 0.0 for q in lost]
    print(
        f"    dense similarity of the page's best chunk: median {statistics.median(dense_page):.3f}, "
        f"{sum(s >= dense_min for s in dense_page) / len(details):.1%} of questions >= {dense_min:.3f} "
        f"(best chunk of any page: median {statistics.median(tops):.3f}, "
        f"{sum(s >= dense_min for s in tops) / len(details):.1%} >= {dense_min:.3f}); "
        f"for the lost pages: median {statistics.median(lost_dense) if lost_dense else 0:.3f}"
    )
    print("    examples (bm25s finds the page, the default block does not):")
    for q in lost[:examples]:
        d = details[q]
        print(
            f"      {q}: {d['question']!r}\n"
            f"        terms {d['terms']} (in no chunk: {d['terms_in_no_chunk']}); block: {d['block_fate']}; ranks: bm25s {d['ranks'][bm25]}, "
            f"lexical {d['ranks'][lexical]}, hybrid {d['ranks'][hybrid]}, dense {d['ranks'][names[[n.startswith('dense part (') for n in names].index(True)]]}; "
            f"page's best coverage {_f(d['best_coverage_of_page'])} (best of any {_f(d['top_coverage'])}), "
            f"page's best similarity {_f(d['best_dense_of_page'])} (best of any {_f(d['top_dense'])})"
        )


def _f(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def code_state() -> str:
    """Which product code ran: where ``kortty_rag`` was imported from, a hash of its sources, and the
    repository's commit (and whether ``src/`` had uncommitted changes)."""
    import hashlib

    import kortty_rag

    package = Path(kortty_rag.__file__).parent
    digest = hashlib.sha256()
    for file in sorted(package.rglob("*.py")):
        digest.update(file.relative_to(package).as_posix().encode() + b"\0" + file.read_bytes())
    state = f"kortty_rag from {package} (sources sha256 {digest.hexdigest()[:12]})"
    try:
        git = ["git", "-C", str(HERE)]
        head = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.strip()
        dirty = subprocess.run(
            [*git, "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return state
    return f"{state}; repository at {head}" + (" with uncommitted changes in src/" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--formats", default="txt,md", help="txt, md or both (default txt,md)")
    parser.add_argument(
        "--languages",
        default="auto,own",
        help="lexical language settings to compare: auto (the default setting), own (de for the "
        "German set, en for the English one), none or a code (default auto,own)",
    )
    parser.add_argument(
        "--english", action="store_true", help="also the English pages of the same commands (txt)"
    )
    parser.add_argument("--limit-queries", type=int)
    parser.add_argument("--examples", type=int, default=8, help="lost questions shown per table")
    parser.add_argument(
        "--work",
        type=Path,
        help="the work folder (default: a temporary one); stores an earlier run left in it are "
        "used again, not indexed again",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every figure to FILE")
    args = parser.parse_args()
    formats = [f for f in args.formats.split(",") if f]
    languages = [x for x in args.languages.split(",") if x]
    work = args.work or Path(tempfile.mkdtemp(prefix="kortty-german-"))
    work.mkdir(parents=True, exist_ok=True)
    os.environ["KORTTY_HOME"] = str(work / "home")
    started = time.perf_counter()

    from kortty_rag.embedding.loader import load_embedder

    model = starter_model()
    embedder = load_embedder(model.identity())
    corpora = [Corpus("german", args.dataset, "de")]
    if args.english:
        english = work / "english-set"
        build_english(args.dataset, english, max_chars=30_000)
        corpora.append(Corpus("english", english, "en"))
    print(f"model {model.id}; code {code_state()}; work folder {work}", flush=True)
    results: list[Result] = []

    def report(result: Result) -> None:
        """Print one pass's figures at once (a run cut short keeps what it measured)."""
        results.append(result)
        print()
        print_table(result.title, result.figures)
        print("  " + "; ".join(result.notes))
        print_table("  fusion of the product's parts, no floor (other weights)", result.sweep)
        diagnose(result, result.floor[1], result.floor[0], args.examples)
        sys.stdout.flush()
        if args.json:
            figures = [
                {"title": r.title, "figures": r.figures, "sweep": r.sweep, "notes": r.notes}
                for r in results
            ]
            args.json.write_text(json.dumps(figures, ensure_ascii=False, indent=2), "utf-8")

    for corpus in corpora:
        corpus.load(args.limit_queries)
        own = [corpus.language if x == "own" else x for x in languages]
        run_corpus(
            corpus,
            formats if corpus.label == "german" else ["txt"],
            own,
            work=work,
            model=model,
            embedder=embedder,
            report=report,
        )
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

"""Questions answered by one section of a structured document: documents, the context block, chunks.

The data set (``build_sections_set.py``: the Sphinx documentation's reST sources; each question is a
section's first sentence, removed from the indexed text; the answer is the rest of that section) is
written as files with their real extension (``.rst``) in folders of at most 1,000 files, each added
as a source of its own, and indexed through the product (``StoreSession``: review, apply) with the
real starter model. Then, side by side in one run:

* **documents**: nDCG@10, Recall@100 and MRR@10 of the judged document for the product's dense,
  lexical and hybrid rankings (``beir_eval.ProductRuns``: a document ranks by its best chunk) and a
  plain bm25s baseline over whole documents (``_baselines.Bm25sBaseline``);
* **the context block**, through the product's own ``retrieve()`` (``RetrievalService.search``, as
  ``kortty-rag search`` calls it: default limits, the store's relevance level): *answer@block*, the
  share of questions with an excerpt that overlaps the answer section's body (chunk offsets against
  the span, same document), and the MRR of the first such excerpt; the share with an excerpt of the
  right document; excerpts per block, tokens used; the share of excerpts that are bare headings
  (no line but title, adornment and blank lines; "+ targets" also lets ``.. _name:`` lines pass) and
  the share of empty blocks; answer@block again for short answer sections (body under 1,000
  characters, the ones packing puts together) and for the longer ones;
* **chunks**: stored chunks against the review's estimate (``ReviewSummary.estimated_chunks``), the
  share of documents whose chunk count lies within ±25 % of their row's estimate, the ratio's
  quantiles, bare-heading chunks and chunk sizes; the same for a small synthetic Markdown vault
  (``--no-vault`` skips it).

    .venv/bin/python benchmarks/sections_eval.py [DATASET_DIR] [--limit-queries N] [--no-vault]
        [--json] [--work WORK | --reuse WORK] [--starter-cache DIR]

``product code`` says which ``kortty_rag`` was imported: to measure another checkout (say the commit
before a chunker change), put its ``src`` first, ``PYTHONPATH=/tmp/old/src``. Every question's block
is kept in ``WORK/sections-queries.jsonl``.

A starter model already installed in ``WORK/home`` is used as it is; else the one the tests cache
(``~/.cache/kortty-rag-tests/starter-*``, ``KORTTY_TEST_CACHE``) is hard-linked in; else it is
installed (converted) once.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import read_qrels, read_queries
from beir_eval import ProductRuns, evaluate, print_table

DEFAULT_SET = Path(__file__).resolve().parent / "data" / "sphinx-sections"
#: files per source folder: one review visits at most 5,000 files
FOLDER_FILES = 1000
EXTENSIONS = {"reStructuredText": ".rst", "Markdown": ".md", "AsciiDoc": ".adoc", "Text": ".txt"}
FACTS = "sections-index.json"
#: a document's chunk count "matches" its estimate within this share
TOLERANCE = 0.25
#: an answer section's body shorter than this (characters) is "short": well under one chunk of the
#: starter model (256 tokens), the sections that packing puts together
SHORT_ANSWER = 1000
#: bare-heading excerpts shown as examples
EXAMPLES = 8

# -- files ----------------------------------------------------------------------------------------


def read_documents(dataset: Path) -> list[dict[str, str]]:
    with (dataset / "corpus.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def file_path(doc: dict[str, str]) -> str:
    """The document's relative path with its format's extension; no absolute, parent or hidden part."""
    rel = str(doc["_id"]).replace("\\", "/")
    parts = rel.split("/")
    if rel.startswith("/") or any(p in {"", ".", ".."} or p.startswith(".") for p in parts):
        raise SystemExit(f"document id {rel!r} is not a plain relative path")
    suffix = EXTENSIONS.get(str(doc.get("format", "")), ".txt")
    return rel if rel.endswith(suffix) else rel + suffix


def write_documents(
    documents: Sequence[dict[str, str]], target: Path
) -> dict[tuple[str, str], str]:
    """Each document as ``part-N/<its path>``, at most :data:`FOLDER_FILES` per part; returns
    (part folder, path in it) → document id. Texts are written byte for byte (UTF-8, LF)."""
    where: dict[tuple[str, str], str] = {}
    for n, doc in enumerate(sorted(documents, key=lambda d: d["_id"])):
        part, rel = f"part-{n // FOLDER_FILES}", file_path(doc)
        path = target / part / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(doc["text"], encoding="utf-8", newline="")
        where[(part, rel)] = doc["_id"]
    return where


def document_places(documents: Sequence[dict[str, str]]) -> dict[tuple[str, str], str]:
    """What :func:`write_documents` returns, without writing (``--reuse``)."""
    ordered = sorted(documents, key=lambda d: d["_id"])
    return {(f"part-{n // FOLDER_FILES}", file_path(d)): d["_id"] for n, d in enumerate(ordered)}


# -- a tiny Markdown vault ------------------------------------------------------------------------

_SENTENCES = [
    "Check the date on the last snapshot before changing anything.",
    "The old laptop still holds the only copy of the scanned receipts.",
    "Ask the landlord about the heating schedule in October.",
    "Keep the spare keys in the blue box on the top shelf.",
    "The router restarts every night at three, which drops long downloads.",
    "Write down the serial numbers of every disk before sending it back.",
    "Most of the recipes need a hot oven and half an hour of patience.",
    "The train to the coast leaves twice an hour on weekends.",
    "Renew the domain two weeks before it expires, not on the last day.",
    "A second opinion on the contract saved a lot of trouble last year.",
    "Notes from the meeting are in the shared folder under this month.",
    "The plant on the balcony needs water every second day in summer.",
    "Passwords live in the manager; never paste them into these notes.",
    "The printer only works when the laptop is on the kitchen network.",
    "Measure the window twice before ordering the new blinds.",
    "The bike shop closes early on Saturdays.",
    "Export the calendar at the end of each quarter.",
    "Use the long cable for the projector in the big room.",
    "The tax office wants the forms on paper, signed in blue ink.",
    "Old photos go to the archive disk once they are sorted by year.",
]
_TOPICS = [
    "Backups",
    "Home network",
    "Travel",
    "Recipes",
    "Taxes",
    "Garden",
    "Bike",
    "Flat",
    "Meetings",
    "Photos",
    "Passwords",
    "Printer",
    "Projects",
    "Reading list",
    "Health",
    "Car",
]
_SUBTOPICS = ["Overview", "Steps", "Checklist", "Contacts", "Costs", "Open questions", "Done"]


def write_vault(target: Path, notes: int = 24, seed: int = 11) -> int:
    """A deterministic notes vault: each note an ``#`` title, a short intro and 2-6 ``##`` sections:
    a few sentences, a list, a code block, or a heading with only ``###`` subsections under it."""
    rng = random.Random(seed)
    target.mkdir(parents=True, exist_ok=True)

    def prose(low: int, high: int) -> str:
        return " ".join(rng.sample(_SENTENCES, rng.randint(low, high)))

    def body() -> str:
        kind = rng.random()
        if kind < 0.15:
            items = "\n".join(f"- {s}" for s in rng.sample(_SENTENCES, rng.randint(2, 5)))
            return items + "\n"
        if kind < 0.25:
            return "```sh\nrsync -a --delete ~/notes/ /mnt/archive/notes/\n```\n"
        return prose(1, 4) + "\n"

    for n in range(notes):
        topic = _TOPICS[n % len(_TOPICS)] + ("" if n < len(_TOPICS) else f" {n // len(_TOPICS)}")
        parts = [f"# {topic}\n", prose(1, 2) + "\n"]
        for title in rng.sample(_SUBTOPICS, rng.randint(2, 6)):
            parts.append(f"## {title}\n")
            if rng.random() < 0.25:  # a heading with only subsections under it
                for sub in range(rng.randint(1, 3)):
                    parts += [f"### {title} {sub + 1}\n", body()]
            else:
                parts.append(body())
        if rng.random() < 0.3:  # a long section: more than one chunk
            parts += ["## Log\n", "\n\n".join(prose(3, 5) for _ in range(6)) + "\n"]
        (target / f"{topic.lower().replace(' ', '-')}.md").write_text(
            "\n".join(parts), encoding="utf-8", newline=""
        )
    return notes


# -- what a chunk is ------------------------------------------------------------------------------

_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+[ \t]*")
_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t].*)?")
_LINK_TARGET = re.compile(r"\.\. _[^\n]*:[ \t]*|__ .*")


def bare_heading(text: str, *, targets: bool = False) -> bool:
    """Whether ``text`` has no line but headings (reST title and adornment lines, Markdown ATX and
    setext headings) and blank lines; with ``targets``, reST link-target lines may be there too."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line.strip() or _ADORNMENT.fullmatch(line) or _ATX.fullmatch(line):
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if _ADORNMENT.fullmatch(nxt) and len(nxt.rstrip()) >= len(line.strip()):
            continue  # a title above its underline
        if targets and _LINK_TARGET.fullmatch(line.strip()):
            continue
        return False
    return True


def quantiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "min": ordered[0],
        "p10": at(0.1),
        "p50": at(0.5),
        "p90": at(0.9),
        "max": ordered[-1],
    }


def chunk_figures(
    chunks: Sequence[Any], doc_of: dict[int, str], estimates: dict[str, int], estimated_total: int
) -> dict[str, Any]:
    """Stored chunks (``(label, Chunk)``) against the review's estimates; bare headings; sizes."""
    per_doc = Counter(doc_of[label] for label, _ in chunks)
    ratios = [per_doc.get(d, 0) / e for d, e in estimates.items() if e > 0]
    tokens = [c.token_count for _, c in chunks]
    bare = [c for _, c in chunks if bare_heading(c.text)]
    near = [c for _, c in chunks if bare_heading(c.text, targets=True)]
    return {
        "documents": len(estimates),
        "chunks": len(chunks),
        "estimated_chunks": estimated_total,
        "chunks_per_estimate": len(chunks) / estimated_total if estimated_total else 0.0,
        "documents_within_25pct": (
            sum(abs(r - 1) <= TOLERANCE for r in ratios) / len(ratios) if ratios else 0.0
        ),
        "documents_over_125pct": sum(r > 1 + TOLERANCE for r in ratios) / max(len(ratios), 1),
        "documents_under_75pct": sum(r < 1 - TOLERANCE for r in ratios) / max(len(ratios), 1),
        "ratio_quantiles": quantiles(ratios),
        "bare_heading_chunks": len(bare),
        "bare_heading_share": len(bare) / max(len(chunks), 1),
        "bare_heading_or_target_chunks": len(near),
        "tokens_mean": statistics.fmean(tokens) if tokens else 0.0,
        "tokens_quantiles": quantiles(tokens),
        "chunks_under_32_tokens": sum(t < 32 for t in tokens) / max(len(tokens), 1),
    }


# -- indexing -------------------------------------------------------------------------------------


def ensure_starter(cache: Path) -> Any:
    """The installed starter model: as installed, else linked in from the tests' cache, else
    installed (converted) now."""
    from kortty_rag.config.paths import models_dir
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.installed import get_model, list_models

    if any(m.id == STARTER_ID for m in list_models()):
        return get_model(STARTER_ID)
    pattern = f"starter-*/models/{STARTER_ID}/model.json"
    found = sorted((p.parent for p in cache.glob(pattern)), key=lambda p: p.stat().st_mtime)
    if not found:
        return install_starter()
    target = models_dir() / STARTER_ID
    target.mkdir(parents=True)
    for entry in found[-1].iterdir():
        try:
            os.link(entry, target / entry.name)
        except OSError:
            shutil.copy2(entry, target / entry.name)
    print(f"starter model linked from {found[-1]}", file=sys.stderr)
    return get_model(STARTER_ID)


def index_folders(job: Any, folders: Sequence[Path], embedder: Any) -> dict[str, Any]:
    """Add each folder as a source in a review of its own and apply it; every file must be indexed.
    Returns the reviews' estimates (in total and per ``part/path``) and the chunks embedded."""
    from kortty_rag.models import FileStatus

    estimated_total = embedded = reused = 0
    per_file: dict[str, int] = {}
    for folder in folders:
        review = job.review_new_sources([folder])
        if review.report.caps_reached:
            raise SystemExit(f"{folder}: the review reached a preview cap; use smaller folders")
        skipped = [r for r in review.report.rows if r.status is not FileStatus.INDEX]
        if skipped:
            listed = ", ".join(f"{r.rel_path} ({r.reason})" for r in skipped[:5])
            raise SystemExit(f"{folder}: {len(skipped)} files would not be indexed: {listed}")
        estimated_total += review.report.summary().estimated_chunks
        for row in review.report.rows:
            per_file[f"{folder.name}/{row.rel_path}"] = row.estimated_chunks
        summary = job.apply(review, embedder)
        embedded += summary.chunks_embedded
        reused += summary.chunks_reused
    return {
        "estimated_total": estimated_total,
        "estimated": per_file,
        "embedded": embedded,
        "reused": reused,
    }


def stored_chunks(registry: Any, store: Any) -> tuple[Any, list[Any], dict[int, str]]:
    """The store's vector store, its chunks and each chunk's ``part/path``."""
    from kortty_rag.index.local import LocalStore

    vectors = LocalStore(registry.folder(store), store.embedding)
    snapshot = vectors.snapshot
    assert snapshot is not None, "the store has no snapshot"
    roots = {s.id: Path(s.path).name for s in store.sources}
    chunks = list(snapshot.chunks.iter_chunks())
    place = {label: f"{roots[c.source_id]}/{c.rel_path}" for label, c in chunks}
    return vectors, chunks, place


# -- the block ------------------------------------------------------------------------------------


def block_figures(
    service: Any,
    store: Any,
    *,
    queries: dict[str, str],
    answers: dict[str, dict[str, Any]],
    doc_at: dict[str, str],
    roots: dict[str, str],
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Each question through ``retrieve()``; the block's figures and one record per question."""
    rows: list[dict[str, Any]] = []
    for qid, text in queries.items():
        answer = answers[qid]
        start, end = answer["span"]
        result = service.search(text, [store])
        excerpts = []
        for excerpt in result.excerpts:
            chunk = excerpt.chunk
            doc = doc_at[f"{roots[chunk.source_id]}/{chunk.rel_path}"]
            excerpts.append(
                {
                    "doc": doc,
                    "start": chunk.start,
                    "end": chunk.end,
                    "heading": chunk.heading,
                    "tokens": chunk.token_count,
                    "answer": doc == answer["doc"] and chunk.start < end and chunk.end > start,
                    "bare": bare_heading(chunk.text),
                    "bare_or_target": bare_heading(chunk.text, targets=True),
                    "text": chunk.text if bare_heading(chunk.text, targets=True) else "",
                }
            )
        first = next((n for n, e in enumerate(excerpts, start=1) if e["answer"]), None)
        rows.append(
            {
                "query-id": qid,
                "query": text,
                "doc": answer["doc"],
                "heading": answer["heading"],
                "answer_rank": first,
                "answer_chars": end - start,
                "document_in_block": any(e["doc"] == answer["doc"] for e in excerpts),
                "used_tokens": result.used_tokens,
                "note": result.note,
                "excerpts": excerpts,
            }
        )
    figures = block_summary(rows)
    for name, short in (("short", True), ("long", False)):
        subset = [r for r in rows if (r["answer_chars"] < SHORT_ANSWER) == short]
        figures[f"answer@block_{name}"] = (
            sum(r["answer_rank"] is not None for r in subset) / len(subset) if subset else 0.0
        )
        figures[f"questions_{name}"] = len(subset)
    return figures, rows


def block_summary(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    n = max(len(rows), 1)
    all_excerpts = [e for r in rows for e in r["excerpts"]]
    m = max(len(all_excerpts), 1)
    return {
        "answer@block": sum(r["answer_rank"] is not None for r in rows) / n,
        "answer_mrr": sum(1 / r["answer_rank"] for r in rows if r["answer_rank"]) / n,
        "answer_in_first_excerpt": sum(r["answer_rank"] == 1 for r in rows) / n,
        "document@block": sum(r["document_in_block"] for r in rows) / n,
        "excerpts_per_block": len(all_excerpts) / n,
        "tokens_per_block": sum(r["used_tokens"] for r in rows) / n,
        "bare_heading_excerpts": sum(e["bare"] for e in all_excerpts) / m,
        "bare_heading_or_target_excerpts": sum(e["bare_or_target"] for e in all_excerpts) / m,
        "blocks_with_a_bare_heading": sum(any(e["bare"] for e in r["excerpts"]) for r in rows) / n,
        "empty_blocks": sum(not r["excerpts"] for r in rows) / n,
    }


# -- output ---------------------------------------------------------------------------------------


def print_report(report: dict[str, Any]) -> None:
    print(
        f"data set: {report['dataset']} — {report['documents']} documents, "
        f"{report['questions']} questions; {report['indexing']}"
    )
    print(f"product code: {report['product']}")
    print_table("documents (judged: the answer's file)", report["figures"])
    block = report["block"]
    print("context block (retrieve(): default limits, store's relevance level)")
    labels = {
        "answer@block": "answer@block (an excerpt overlaps the section)",
        "answer_mrr": "MRR of the first such excerpt",
        "answer_in_first_excerpt": "answer section is [R1]",
        "document@block": "an excerpt of the right document",
        "excerpts_per_block": "excerpts per block",
        "tokens_per_block": "tokens used per block (estimated)",
        "bare_heading_excerpts": "excerpts that are bare headings",
        "bare_heading_or_target_excerpts": "… or headings + link targets",
        "blocks_with_a_bare_heading": "blocks with a bare-heading excerpt",
        "empty_blocks": "empty blocks",
    }
    labels_short = {
        "answer@block_short": f"answer@block, sections < {SHORT_ANSWER:,} chars ({block['questions_short']})",
        "answer@block_long": f"answer@block, longer sections ({block['questions_long']})",
    }
    for key, label in (labels | labels_short).items():
        value = block[key]
        shown = (
            f"{value:8.2f}"
            if key in {"excerpts_per_block", "tokens_per_block"}
            else f"{value:8.4f}"
        )
        print(f"  {label:50s} {shown}")
    for name in ("chunks", "vault_chunks"):
        c = report.get(name)
        if not c:
            continue
        r = c["ratio_quantiles"]
        t = c["tokens_quantiles"]
        print(
            f"{'chunks' if name == 'chunks' else 'Markdown vault (synthetic)'}: {c['chunks']} stored, "
            f"review estimate {c['estimated_chunks']} ({c['chunks_per_estimate']:.2f}×); "
            f"documents within ±25 % of their estimate {c['documents_within_25pct']:.1%} "
            f"(over {c['documents_over_125pct']:.1%}, under {c['documents_under_75pct']:.1%})"
        )
        print(
            "  chunks/estimate per document: "
            + ", ".join(f"{k} {v:.2f}" for k, v in r.items())
            + f"; bare-heading chunks {c['bare_heading_chunks']} ({c['bare_heading_share']:.1%}),"
            f" with targets {c['bare_heading_or_target_chunks']}"
        )
        print(
            f"  tokens per chunk: mean {c['tokens_mean']:.0f}, "
            + ", ".join(f"{k} {v:.0f}" for k, v in t.items())
            + f"; under 32 tokens {c['chunks_under_32_tokens']:.1%}"
        )
    examples = report.get("bare_examples", [])
    if examples:
        print("bare-heading excerpts, examples:")
        for e in examples:
            print(f"  {e['doc']} § {e['heading']}  [{e['start']}, {e['end']})  {e['text']!r}")
    print(f"time: {report['seconds']}")
    print(f"work folder (rank again with --reuse): {report['work']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_SET)
    parser.add_argument("--split", default="test", help="the judgements: qrels/SPLIT.tsv (test)")
    parser.add_argument("--limit-queries", type=int)
    parser.add_argument("--no-vault", action="store_true", help="skip the Markdown vault")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument(
        "--starter-cache",
        type=Path,
        default=Path(os.environ.get("KORTTY_TEST_CACHE", Path.home() / ".cache/kortty-rag-tests")),
        help="where the tests keep the converted starter model (linked into WORK/home)",
    )
    folders = parser.add_mutually_exclusive_group()
    folders.add_argument("--reuse", type=Path, metavar="WORK", help="rank again without indexing")
    folders.add_argument("--work", type=Path, metavar="WORK", help="index in this new folder")
    args = parser.parse_args()
    for name in ("corpus.jsonl", "queries.jsonl", "answers.jsonl", f"qrels/{args.split}.tsv"):
        if not (args.dataset / name).is_file():
            parser.error(f"{args.dataset} has no {name}: build it with build_sections_set.py")
    if args.reuse and not (args.reuse / FACTS).is_file():
        parser.error(f"{args.reuse} holds no finished run ({FACTS})")
    work = args.reuse or args.work or Path(tempfile.mkdtemp(prefix="kortty-sections-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.retrieval.search import RetrievalService, store_weights
    from kortty_rag.sync.session import StoreSession

    started = time.perf_counter()
    documents = read_documents(args.dataset)
    registry = StoreRegistry()
    model = ensure_starter(args.starter_cache)
    embedder = load_embedder(model.identity())
    if args.reuse:
        places = document_places(documents)
        facts = json.loads((work / FACTS).read_text(encoding="utf-8"))
    else:
        places = write_documents(documents, work / "corpus")
        parts = sorted({part for part, _ in places})
        facts = {}
        store = registry.create("sections", model.identity())
        with StoreSession(store, registry=registry) as job:
            facts["sections"] = index_folders(job, [work / "corpus" / p for p in parts], embedder)
        facts["sections"]["seconds"] = time.perf_counter() - started
        if not args.no_vault:
            t0 = time.perf_counter()
            notes = write_vault(work / "vault" / "part-0")
            vault = registry.create("vault", model.identity())
            with StoreSession(vault, registry=registry) as job:
                facts["vault"] = index_folders(job, [work / "vault" / "part-0"], embedder)
            facts["vault"] |= {"notes": notes, "seconds": time.perf_counter() - t0}
        (work / FACTS).write_text(json.dumps(facts), encoding="utf-8")
    index_seconds = time.perf_counter() - started
    doc_at = {f"{part}/{rel}": doc for (part, rel), doc in places.items()}

    store = registry.get("sections")
    vectors, chunks, place = stored_chunks(registry, store)
    doc_of = {label: doc_at[p] for label, p in place.items()}
    estimates = {doc_at[p]: n for p, n in facts["sections"]["estimated"].items()}
    import kortty_rag

    report: dict[str, Any] = {
        "dataset": str(args.dataset),
        "product": str(Path(kortty_rag.__file__).parent),
        "documents": len(documents),
        "chunks": chunk_figures(chunks, doc_of, estimates, facts["sections"]["estimated_total"]),
    }
    if "vault" in facts:
        vault = registry.get("vault")
        vault_vectors, vault_chunks, vault_place = stored_chunks(registry, vault)
        vault_estimates = facts["vault"]["estimated"]
        report["vault_chunks"] = chunk_figures(
            vault_chunks, vault_place, vault_estimates, facts["vault"]["estimated_total"]
        )
        vault_vectors.close()

    queries = read_queries(args.dataset)
    qrels = read_qrels(args.dataset, args.split)
    with (args.dataset / "answers.jsonl").open(encoding="utf-8") as lines:
        answers = {a["query-id"]: a for a in map(json.loads, lines)}
    chosen = [q for q in queries if q in qrels and q in answers][: args.limit_queries]
    queries = {q: queries[q] for q in chosen}
    qrels = {q: qrels[q] for q in chosen}
    report["questions"] = len(queries)

    t0 = time.perf_counter()
    weights = store_weights(store)
    runs = ProductRuns(vectors, embedder, [s.id for s in store.sources], doc_of)
    runs.run(queries)
    from _baselines import Bm25sBaseline

    doc_ids = sorted(d["_id"] for d in documents)
    texts = {d["_id"]: d["text"] for d in documents}
    bm25 = Bm25sBaseline(doc_ids, [texts[d] for d in doc_ids])
    report["figures"] = {
        "product dense (HNSW)": evaluate(runs.ranking("dense"), qrels),
        "product lexical": evaluate(runs.ranking("lexical"), qrels),
        f"product hybrid ({weights.method}, dense {weights.dense:g})": evaluate(
            runs.ranking("hybrid", weights), qrels
        ),
        "baseline bm25s, whole documents": evaluate(
            {q: bm25.rank(queries[q]) for q in queries}, qrels
        ),
    }
    vectors.close()

    service = RetrievalService(load_embedder=lambda _store: embedder)
    roots = {s.id: Path(s.path).name for s in store.sources}
    try:
        report["block"], rows = block_figures(
            service, store, queries=queries, answers=answers, doc_at=doc_at, roots=roots
        )
    finally:
        service.close()
    query_seconds = time.perf_counter() - t0
    with (work / "sections-queries.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    seen: set[tuple[str, int]] = set()
    examples: list[dict[str, Any]] = []
    for row in rows:
        for e in row["excerpts"]:
            if e["bare"] and (e["doc"], e["start"]) not in seen and len(examples) < EXAMPLES:
                seen.add((e["doc"], e["start"]))
                examples.append({k: e[k] for k in ("doc", "heading", "start", "end", "text")})
    report["bare_examples"] = examples
    if args.reuse:
        report["indexing"] = "reused"
    else:
        s = facts["sections"]
        report["indexing"] = (
            f"{s['embedded']} chunks embedded ({s['reused']} reused) in {s['seconds']:.0f} s"
        )
    report["seconds"] = {
        "index_and_load": round(index_seconds, 1),
        "queries": round(query_seconds, 1),
        "total": round(time.perf_counter() - started, 1),
    }
    report["work"] = str(work)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    print_report(report)


if __name__ == "__main__":
    main()

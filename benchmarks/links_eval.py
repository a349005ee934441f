"""Questions whose answer is in a linked note: retrieval with graph expansion off and on.

The data set (``build_links_set.py``: four Rust books as a vault of 475 Markdown notes with Markdown
links and wikilinks) has two groups of questions. *Linked* (``qrels/test.tsv``): a sentence of page
A that links to page B, asked with A's title in front and removed from the indexed A (its link
stays); B is the answer (score 2), A scores 1. *Direct* (``qrels/direct.tsv``): a section's first
sentence, removed from its page, which is the answer (score 1). The vault is copied into ``WORK`` as
one folder, indexed through the product (``StoreSession``: review, apply) with the real starter
model, and every question is asked through ``RetrievalService.search`` (as ``kortty-rag search``
asks: default limits, the store's relevance level) with ``SearchOptions(explain=True, graph=…,
graph_bonus=…)``: graph expansion off, on with the product's bonus, and on with each bonus of
``--bonus``. Side by side, per group:

* **documents**: all candidates (the block's excerpts and the dropped ones, not those of disabled
  sources) by fused score, each document at its best: nDCG@10 (graded), Recall@10 and Recall over
  all candidates (``R@cand``, about 80 chunks) and MRR@10 of the answer document (B; the page);
* **the block**: *answer@block*, the share of questions with an excerpt of the answer document, and
  for linked questions the share with an excerpt of A; linked excerpts per block (a candidate that
  came in or was raised by a link has ``linked`` set; *new* ones were no first-stage candidate) and
  first-stage hits expanded per question (distinct notes a linked candidate was reached from);
  questions whose answer entered the block by a link, and questions that had it in the block with
  expansion off but lost it (``won``/``lost``).

For context, two rankings without links: the product with expansion off (the same figures) and bm25s
over whole notes (``_baselines.Bm25sBaseline``). The linked group is also split by whether the
question names B's title (``title_named``, an easier B) and, in ``--json``, by how A's link is
written (Markdown, wikilink, wikilink by alias, wikilink with heading).

    .venv/bin/python benchmarks/links_eval.py [DATASET_DIR] [--bonus 0.05,0.1,0.15,0.25,1]
        [--limit-queries N] [--json] [--work WORK | --reuse WORK] [--starter-cache DIR]

Every question's ranking and block per setting is kept in ``WORK/links-queries.jsonl``. A starter
model is found as ``sections_eval.py`` finds it."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import CachedQueries, read_qrels, read_queries
from beir_eval import mrr_at, ndcg_at, recall_at
from sections_eval import ensure_starter, index_folders

DEFAULT_SET = Path(__file__).resolve().parent / "data" / "links"
FACTS = "links-index.json"
#: the vault's folder in WORK: one source, so that links across the books resolve
VAULT = "rust-docs"
DEFAULT_BONUSES = "0.05,0.1,0.15,0.25,1"
GROUPS = {"linked": "test", "direct": "direct"}
METRICS = ("ndcg@10", "recall@10", "recall@cand", "mrr@10", "answer@block")


def read_vault(folder: Path) -> dict[str, str]:
    """Note path (below the vault, ``/``-separated) → text."""
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*.md"))
    }


# -- one question ---------------------------------------------------------------------------------


def ask(service: Any, store: Any, text: str, graph: bool, bonus: float | None) -> dict[str, Any]:
    """One search: the document ranking over all candidates, the block's documents, the links."""
    from kortty_rag.retrieval.search import DROP_DISABLED, SearchOptions

    options = SearchOptions(explain=True, graph=graph, graph_bonus=bonus)
    result = service.search(text, [store], options=options)
    block = [e.candidate for e in result.excerpts]
    dropped = [d.candidate for d in result.dropped if d.reason != DROP_DISABLED]
    ranking: dict[str, None] = {}
    for c in sorted([*block, *dropped], key=lambda c: -c.fused):
        ranking.setdefault(c.chunk.rel_path, None)
    linked = [c for c in [*block, *dropped] if c.linked is not None]
    return {
        "ranking": list(ranking),
        "block": [c.chunk.rel_path for c in block],
        "block_linked": [c.chunk.rel_path for c in block if c.linked is not None],
        # not a first-stage candidate at all: brought in by the link alone
        "block_new": sum(
            c.linked is not None and c.dense_rank is c.lexical_rank is None for c in block
        ),
        "linked_candidates": len(linked),
        "seeds": sorted({c.linked.path for c in linked}),
        "note": result.note,
    }


def scores(row: dict[str, Any], judged: dict[str, int]) -> dict[str, float]:
    """The figures of one question; the answer is the best-graded document (B; the page)."""
    top = max(judged.values())
    answer = {d: g for d, g in judged.items() if g == top}
    ranking = row["ranking"]
    return {
        "ndcg@10": ndcg_at(ranking, judged),
        "recall@10": recall_at(ranking, answer, 10),
        "recall@cand": recall_at(ranking, answer, len(ranking)),
        "mrr@10": mrr_at(ranking, answer),
        "answer@block": float(any(d in answer for d in row["block"])),
        "source@block": float(any(judged.get(d) == 1 for d in row["block"]) if top > 1 else 0.0),
        "answer_by_link": float(any(d in answer for d in row["block_linked"])),
        "linked_excerpts": float(len(row["block_linked"])),
        "new_linked_excerpts": float(row["block_new"]),
        "linked_candidates": float(row["linked_candidates"]),
        "seeds_expanded": float(len(row["seeds"])),
        "empty_block": float(not row["block"]),
    }


def mean(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    keys = rows[0].keys() if rows else ()
    return {k: sum(r[k] for r in rows) / len(rows) for k in keys}


# -- a setting ------------------------------------------------------------------------------------


def run_setting(
    service: Any,
    store: Any,
    queries: dict[str, str],
    qrels: dict[str, dict[str, dict[str, int]]],
    *,
    graph: bool,
    bonus: float | None,
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, float]]]:
    """Every question asked with one setting: its record and its figures, by query id."""
    records: dict[str, dict[str, Any]] = {}
    figures: dict[str, dict[str, float]] = {}
    for group in GROUPS:
        for qid, judged in qrels[group].items():
            records[qid] = ask(service, store, queries[qid], graph, bonus)
            figures[qid] = scores(records[qid], judged)
    return records, figures


def summarise(
    figures: dict[str, dict[str, float]],
    baseline: dict[str, dict[str, float]],
    qrels: dict[str, dict[str, dict[str, int]]],
    subsets: dict[str, list[str]],
) -> dict[str, Any]:
    """Per group (and linked subset): the means, and the questions whose answer entered the block
    (``won``) or left it (``lost``) against ``baseline`` (expansion off)."""
    out: dict[str, Any] = {}
    groups = {g: list(qrels[g]) for g in GROUPS} | subsets
    for name, ids in groups.items():
        if not ids:
            continue
        summary = mean([figures[q] for q in ids])
        summary["won"] = sum(figures[q]["answer@block"] > baseline[q]["answer@block"] for q in ids)
        summary["lost"] = sum(figures[q]["answer@block"] < baseline[q]["answer@block"] for q in ids)
        summary["questions"] = len(ids)
        out[name] = summary
    return out


def baseline_figures(
    rankings: dict[str, list[str]], qrels: dict[str, dict[str, dict[str, int]]]
) -> dict[str, dict[str, float]]:
    """nDCG@10, Recall@10 and MRR@10 of a plain ranking, per group."""
    out = {}
    for group, judged in qrels.items():
        rows = []
        for qid, grades in judged.items():
            top = max(grades.values())
            answer = {d: g for d, g in grades.items() if g == top}
            r = rankings[qid]
            rows.append(
                {
                    "ndcg@10": ndcg_at(r, grades),
                    "recall@10": recall_at(r, answer, 10),
                    "recall@cand": recall_at(r, answer, 100),
                    "mrr@10": mrr_at(r, answer),
                }
            )
        out[group] = mean(rows)
    return out


# -- output ---------------------------------------------------------------------------------------


def print_report(report: dict[str, Any]) -> None:
    print(
        f"data set: {report['dataset']} — {report['notes']} notes, "
        f"{report['questions']['linked']} linked and {report['questions']['direct']} direct "
        f"questions; {report['indexing']}"
    )
    print(f"product code: {report['product']}")
    head = " ".join(f"{m:>9s}" for m in ("nDCG@10", "R@10", "R@cand", "MRR@10", "ans@block"))
    for group in ("linked", "direct", "linked, title named", "linked, title not named"):
        rows = {name: s[group] for name, s in report["settings"].items() if group in s}
        if not rows:
            continue
        n = next(iter(rows.values()))["questions"]
        extra = " A@block" if group.startswith("linked") else ""
        print(f"{group} ({n} questions)")
        more = " ".join(f"{k:>5s}" for k in ("won", "lost", "links", "new", "seeds"))
        print(f"  {'':30s} {head} {more}{extra}")
        for name, m in rows.items():
            values = " ".join(f"{m[k]:9.4f}" for k in METRICS)
            tail = f" {m['source@block']:7.4f}" if extra else ""
            print(
                f"  {name:30s} {values} {m['won']:5d} {m['lost']:5d} "
                f"{m['linked_excerpts']:5.2f} {m['new_linked_excerpts']:5.2f} "
                f"{m['seeds_expanded']:5.2f}{tail}"
            )
        for name, m in report["baselines"].items():
            if group in m:
                b = m[group]
                values = " ".join(f"{b[k]:9.4f}" for k in METRICS[:4])
                print(f"  {name:30s} {values}")
    print(
        "  (R@cand: the answer among all candidates, about 80 chunks; the bm25s column is R@100. "
        "won/lost: answer in the block and not with expansion off, or the other way round; "
        "links: linked excerpts per block (raised or brought in by a link), new: of them "
        "brought in (no first-stage candidate); seeds: first-stage hits expanded per question)"
    )
    print(f"time: {report['seconds']}")
    print(f"work folder (rank again with --reuse): {report['work']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_SET)
    parser.add_argument(
        "--bonus", default=DEFAULT_BONUSES, help=f"bonuses swept ({DEFAULT_BONUSES})"
    )
    parser.add_argument("--limit-queries", type=int, help="at most N questions per group")
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
    bonuses = [float(b) for b in args.bonus.split(",") if b.strip()]
    for name in ("vault", "queries.jsonl", "answers.jsonl", "qrels/test.tsv", "qrels/direct.tsv"):
        if not (args.dataset / name).exists():
            parser.error(f"{args.dataset} has no {name}: build it with build_links_set.py")
    if args.reuse and not (args.reuse / FACTS).is_file():
        parser.error(f"{args.reuse} holds no finished run ({FACTS})")
    work = args.reuse or args.work or Path(tempfile.mkdtemp(prefix="kortty-links-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.retrieval.graph import BONUS
    from kortty_rag.retrieval.search import RetrievalService, SearchOptions
    from kortty_rag.sync.session import StoreSession

    if "graph" not in {f.name for f in dataclasses.fields(SearchOptions)}:
        raise SystemExit("this kortty_rag has no graph expansion (SearchOptions.graph)")
    started = time.perf_counter()
    notes = read_vault(args.dataset / "vault")
    registry = StoreRegistry()
    model = ensure_starter(args.starter_cache)
    embedder = CachedQueries(load_embedder(model.identity()))
    if args.reuse:
        facts = json.loads((work / FACTS).read_text(encoding="utf-8"))
    else:
        shutil.copytree(args.dataset / "vault", work / "vault" / VAULT)
        store = registry.create("links", model.identity())
        with StoreSession(store, registry=registry) as job:
            facts = index_folders(job, [work / "vault" / VAULT], embedder.inner)
        facts["seconds"] = time.perf_counter() - started
        (work / FACTS).write_text(json.dumps(facts), encoding="utf-8")
    index_seconds = time.perf_counter() - started
    store = registry.get("links")

    queries = read_queries(args.dataset)
    qrels = {g: read_qrels(args.dataset, split) for g, split in GROUPS.items()}
    qrels = {g: dict(list(j.items())[: args.limit_queries]) for g, j in qrels.items()}
    with (args.dataset / "answers.jsonl").open(encoding="utf-8") as lines:
        answers = {a["query-id"]: a for a in map(json.loads, lines)}
    linked_ids = list(qrels["linked"])
    subsets = {
        "linked, title named": [q for q in linked_ids if answers[q].get("title_named")],
        "linked, title not named": [q for q in linked_ids if not answers[q].get("title_named")],
    }
    forms = Counter(answers[q].get("link_form", "") for q in linked_ids)
    for form in sorted(forms):
        subsets[f"linked, {form}"] = [q for q in linked_ids if answers[q]["link_form"] == form]

    t0 = time.perf_counter()
    service = RetrievalService(load_embedder=lambda _store: embedder)
    settings: list[tuple[str, bool, float | None]] = [
        ("graph off", False, None),
        (f"graph on, bonus {BONUS:g} (default)", True, None),
    ]
    settings += [(f"graph on, bonus {b:g}", True, b) for b in bonuses if b != BONUS]
    records: dict[str, dict[str, Any]] = {}
    per_setting: dict[str, dict[str, dict[str, float]]] = {}
    try:
        for name, graph, bonus in settings:
            records[name], per_setting[name] = run_setting(
                service, store, queries, qrels, graph=graph, bonus=bonus
            )
    finally:
        service.close()
    off = per_setting["graph off"]
    report: dict[str, Any] = {
        "dataset": str(args.dataset),
        "product": str(Path(sys.modules["kortty_rag"].__file__ or "").parent),
        "notes": len(notes),
        "questions": {g: len(j) for g, j in qrels.items()},
        "default_bonus": BONUS,
        "settings": {n: summarise(f, off, qrels, subsets) for n, f in per_setting.items()},
    }
    from _baselines import Bm25sBaseline

    ids = list(notes)
    bm25 = Bm25sBaseline(ids, [notes[d] for d in ids])
    asked = [q for j in qrels.values() for q in j]
    report["baselines"] = {
        "baseline bm25s, whole notes": baseline_figures(
            {q: bm25.rank(queries[q]) for q in asked}, qrels
        )
    }
    query_seconds = time.perf_counter() - t0
    with (work / "links-queries.jsonl").open("w", encoding="utf-8") as out:
        for qid in asked:
            row = {"query-id": qid, "query": queries[qid], "judged": answers[qid]}
            row["settings"] = {n: records[n][qid] for n in records}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    report["indexing"] = (
        "reused"
        if args.reuse
        else f"{facts['embedded']} chunks embedded in {facts['seconds']:.0f} s"
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

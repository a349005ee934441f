"""nDCG@10 and Recall@10 of the judged-questions check (kortty_rag.app.judged_check), against an
independent oracle: values worked out by hand for fixed rankings, and the formulas written again
with numpy (gains times the discount vector, the ideal ranking by sorting) — the product's helpers
are never used by the oracle. Then a whole check with a fake search: which documents count, the
means, the questions left out of them, "before → now" and what a cancel keeps."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.helpers.fakes import HashEmbedder

from kortty_rag.app.judged_check import (
    CUTOFF,
    check_judgments,
    ndcg_at,
    ranked_documents,
    recall_at,
    settings_summary,
)
from kortty_rag.app.judgments import Mark, Verdict, load_judgments, record_marks
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import Cancelled, UsageError
from kortty_rag.models import RetrievalSettings, Source, SourceKind, Store
from kortty_rag.progress import CancelToken


def oracle_ndcg(ranking: list[str], relevant: set[str], k: int = 10) -> float | None:
    """nDCG@k with binary gains, written with numpy arrays."""
    if not relevant:
        return None
    top = ranking[:k]
    gains = np.array([float(doc in relevant) for doc in top])
    discounts = 1.0 / np.log2(np.arange(2, len(top) + 2))
    dcg = float(np.dot(gains, discounts)) if len(top) else 0.0
    ideal_gains = np.sort(np.concatenate([np.ones(len(relevant)), np.zeros(k)]))[::-1][:k]
    idcg = float(np.dot(ideal_gains, 1.0 / np.log2(np.arange(2, k + 2))))
    return dcg / idcg


def oracle_recall(ranking: list[str], relevant: set[str], k: int = 10) -> float | None:
    if not relevant:
        return None
    return float(np.isin(list(relevant), ranking[:k]).sum()) / len(relevant)


def test_figures_worked_out_by_hand() -> None:
    # ranks 2 and 4 relevant of three relevant documents:
    # DCG = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068 = 1.06161
    # IDCG = 1 + 1/log2(3) + 1/log2(4) = 1 + 0.63093 + 0.5 = 2.13093 → nDCG = 0.49819
    ranking = ["a", "b", "c", "d"]
    assert ndcg_at(ranking, {"b", "d", "e"}) == pytest.approx(0.49819, abs=1e-5)
    assert recall_at(ranking, {"b", "d", "e"}) == pytest.approx(2 / 3)
    assert ndcg_at(ranking, {"a"}) == 1.0 and recall_at(ranking, {"a"}) == 1.0
    # the only relevant document second: 1/log2(3) = 0.63093
    assert ndcg_at(ranking, {"b"}) == pytest.approx(0.63093, abs=1e-5)
    assert ndcg_at(ranking, {"x"}) == 0.0 and recall_at(ranking, {"x"}) == 0.0
    assert ndcg_at(ranking, set()) is None and recall_at(ranking, set()) is None
    assert ndcg_at([], {"a"}) == 0.0
    # beyond the cutoff counts nothing: relevant at rank 11 only
    eleven = [f"d{i}" for i in range(10)] + ["hit"]
    assert ndcg_at(eleven, {"hit"}) == 0.0 and recall_at(eleven, {"hit"}) == 0.0
    # twelve relevant documents: the ideal has ten of them, so ten relevant first is perfect
    many = {f"r{i}" for i in range(12)}
    assert ndcg_at(sorted(many), many) == pytest.approx(1.0)
    assert recall_at(sorted(many), many) == pytest.approx(10 / 12)
    assert CUTOFF == 10


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([f"doc{i}" for i in range(16)]), unique=True, max_size=14),
    st.sets(st.sampled_from([f"doc{i}" for i in range(16)]), max_size=12),
)
def test_figures_agree_with_the_numpy_oracle(ranking: list[str], relevant: set[str]) -> None:
    expected_ndcg, expected_recall = (
        oracle_ndcg(ranking, relevant),
        oracle_recall(ranking, relevant),
    )
    if expected_ndcg is None:
        assert ndcg_at(ranking, relevant) is None and recall_at(ranking, relevant) is None
        return
    assert ndcg_at(ranking, relevant) == pytest.approx(expected_ndcg, abs=1e-12)
    assert recall_at(ranking, relevant) == pytest.approx(expected_recall, abs=1e-12)


def result(*paths: str) -> Any:
    """A retrieval result as the check reads it: excerpts in marker order, each with its path."""
    return SimpleNamespace(
        excerpts=tuple(
            SimpleNamespace(marker=f"R{n}", path=path) for n, path in enumerate(paths, start=1)
        )
    )


def test_the_ranking_is_the_blocks_documents_each_once() -> None:
    assert ranked_documents(result("/a", "/a", "/b", "/a", "/c", "/b")) == ("/a", "/b", "/c")
    assert ranked_documents(result()) == ()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    registry = StoreRegistry()
    created = registry.create("Notes", HashEmbedder().identity)
    source = Source("src-000000000001", str(tmp_path / "docs"), SourceKind.FOLDER)
    return registry.update(created.id, lambda s: s.evolve(sources=(source,)))


def doc(store: Store, name: str) -> str:
    return str(Path(store.sources[0].path) / name)


def test_a_check_measures_every_judged_question_and_keeps_before_and_now(store: Store) -> None:
    a, b, c, d = (doc(store, name) for name in ("a.md", "b.md", "c.md", "d.md"))
    record_marks(store, "first", [Mark(a, Verdict.RELEVANT), Mark(b, Verdict.NOT_RELEVANT)])
    record_marks(store, "second", [Mark(c, Verdict.RELEVANT), Mark(d, Verdict.RELEVANT)])
    record_marks(store, "third", [Mark(a, Verdict.NOT_RELEVANT)])  # nothing relevant
    blocks = {
        "first": result(b, a, a),  # the wrong one first
        "second": result(c, a, b),  # one of two
        "third": result(a),
    }
    asked: list[str] = []

    def search(question: str) -> Any:
        asked.append(question)
        return blocks[question]

    report = check_judgments(store, search)
    assert asked == ["first", "second", "third"]
    first = oracle_ndcg([b, a], {a})  # the marked-wrong document gains nothing
    second = oracle_ndcg([c, a, b], {c, d})
    assert first == pytest.approx(0.63093, abs=1e-5)
    assert (report.now.questions, report.now.measured, report.excluded) == (3, 2, 1)
    assert report.now.ndcg_at_10 == pytest.approx((first + second) / 2, abs=1e-6)  # type: ignore[operator]
    assert report.now.recall_at_10 == pytest.approx((1.0 + 0.5) / 2)
    per = {q.question: q for q in report.per_question}
    assert per["third"].ndcg is None and per["third"].recall is None
    assert per["second"].found == (c,) and per["first"].ranking == (b, a)
    assert report.previous is None and report.changes == ()
    data = report.to_json()
    assert data["questions"] == 3 and data["excluded"] == 1
    assert data["ndcg@10"] == report.now.ndcg_at_10 and "recall@10" in data
    assert [q["question"] for q in data["per_question"]] == ["first", "second", "third"]
    assert load_judgments(store).last_check == report.now  # kept beside the judgments

    changed = StoreRegistry().update(store.id, lambda s: s.with_retrieval(min_relevance="high"))
    blocks["second"] = result(d, c)
    again = check_judgments(changed, search)
    assert again.previous == report.now
    assert again.now.recall_at_10 == pytest.approx(1.0)
    assert [(c.name, c.before, c.now) for c in again.changes] == [("min_relevance", "low", "high")]
    assert again.to_json()["previous"]["ndcg@10"] == report.now.ndcg_at_10


def test_a_cancelled_check_keeps_nothing_and_no_judgment_is_no_check(store: Store) -> None:
    with pytest.raises(UsageError, match="has been judged"):
        check_judgments(store, lambda q: result())
    record_marks(store, "q", [Mark(doc(store, "a.md"), Verdict.RELEVANT)])
    cancel = CancelToken()

    def search(question: str) -> Any:
        cancel.cancel()
        return result(doc(store, "a.md"))

    with pytest.raises(Cancelled):
        check_judgments(store, search, cancel=cancel)
    assert load_judgments(store).last_check is None


def test_the_settings_summary_names_the_model_and_every_retrieval_setting(store: Store) -> None:
    summary = settings_summary(store)
    assert summary["model"] == store.embedding.model_id
    for spec in dataclasses.fields(RetrievalSettings):
        assert spec.name in summary
    assert summary["fusion"] == "convex" and summary["min_relevance"] == "low"
    assert not any(name.startswith("qdrant") for name in summary)

"""A CI slice of ``benchmarks/beir_eval.py``: every code path of the benchmark runs, so it cannot rot.

The data set is made here from the standard library's docstrings (``tests/helpers/docstring_beir``:
its first 200 documents, each judged by its own first sentence), so the test needs nothing outside
the repository. The benchmark runs in a subprocess, as a user runs it, with the real starter model,
``--baselines --sweep --json``; its figures must be complete, within [0, 1], and the product's
dense and lexical parts and the bm25s baseline must each clear a sanity floor set well below what
they reach here (nDCG@10 measured on Python 3.11: dense 0.77, lexical 0.67, hybrid 0.78, bm25s 0.62).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.docstring_beir import write_dataset

from kortty_rag.embedding.catalog import STARTER_ID

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "beir_eval.py"
METRICS = ("ndcg@10", "recall@100", "mrr@10")
#: documents in the slice: about 240 chunks, some 10 s of embedding on an idle machine
DOCUMENTS = 200
#: nDCG@10 every one of these must pass (a broken ranking scores near 0 on this set)
SANITY_FLOOR = {
    "product dense (HNSW)": 0.3,
    "product lexical": 0.3,
    "baseline bm25s (stopwords + Snowball)": 0.3,
}
ROWS = (
    "product dense (HNSW)",
    "product lexical",
    "product hybrid (",
    "baseline bm25s (stopwords + Snowball)",
    "baseline bm25s over the product's chunks",
    "baseline exact dense, product's vectors",
    "baseline exact dense, plain 254/38 (",
    "baseline plain RRF (bm25s + plain dense)",
)


def link_starter(starter_cache: Path, home: Path) -> None:
    """The cached starter model in the benchmark's own KORTTY_HOME (hard links, no copy)."""
    source = starter_cache / "models" / STARTER_ID
    target = home / "models" / STARTER_ID
    target.mkdir(parents=True)
    for entry in source.iterdir():
        os.link(entry, target / entry.name)


def run_benchmark(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCHMARK), *args],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env=dict(os.environ),
    )


@pytest.mark.slow
def test_beir_eval_runs_every_path_on_a_docstring_data_set(
    starter_cache: Path, tmp_path: Path
) -> None:
    dataset = tmp_path / "docstrings"
    documents = write_dataset(dataset, DOCUMENTS)
    assert documents == DOCUMENTS
    work = tmp_path / "work"
    link_starter(starter_cache, work / "home")

    result = run_benchmark(str(dataset), "--baselines", "--sweep", "--json", "--work", str(work))
    assert result.returncode == 0, result.stderr[-3000:]
    report: dict[str, Any] = json.loads(result.stdout)

    assert report["documents"] == documents
    assert report["chunks"] >= documents
    assert report["queries"] == documents  # one judged query per document
    figures: dict[str, dict[str, float]] = report["figures"]
    for prefix in ROWS:
        assert sum(name.startswith(prefix) for name in figures) == 1, (prefix, list(figures))
    assert len(figures) == len(ROWS)
    for name, metrics in figures.items():
        assert set(metrics) == set(METRICS), name
        assert all(0.0 <= metrics[m] <= 1.0 for m in METRICS), (name, metrics)
    for name, floor in SANITY_FLOOR.items():
        assert figures[name]["ndcg@10"] > floor, (name, figures[name])
    sweep: dict[str, dict[str, float]] = report["sweep"]
    assert sum(name.startswith("rrf, ") for name in sweep) == 30  # 6 weights x 5 values of k
    assert sum(name.startswith("convex, ") for name in sweep) == 8  # dense weights 0.2 ... 0.9
    assert sum(name.startswith("documents ") for name in sweep) == 20  # fused per document
    assert all(0.0 <= m["ndcg@10"] <= 1.0 for m in sweep.values())
    assert report["p50_ms"] > 0

    # ranking again from the indexed work folder gives the same product figures, without indexing
    again = run_benchmark(str(dataset), "--json", "--reuse", str(work))
    assert again.returncode == 0, again.stderr[-3000:]
    reused = json.loads(again.stdout)["figures"]
    for name in ("product dense (HNSW)", "product lexical"):
        assert reused[name] == pytest.approx(figures[name]), name


def test_beir_eval_refuses_a_folder_that_is_not_a_data_set(tmp_path: Path) -> None:
    result = run_benchmark(str(tmp_path), "--json")
    assert result.returncode == 2
    assert "has no corpus.jsonl: it is not a BEIR data set folder" in result.stderr

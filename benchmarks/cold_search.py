"""A cold ``kortty-rag search``: a new process asks one question of an indexed store.

Indexes SciFact abstracts (default: the first 1,000, about 2,000 chunks; ``--docs``) through the
product's own pipeline with the real starter model, then runs ``kortty-rag search STORE QUESTION``
as a new process :data:`RUNS` times (each a different judged question) beside ``python -c pass``,
and, in one more new process, where the time goes: imports, loading the model, opening the
snapshot, the context block's neutraliser tables and patterns (built once per process), and the
search itself. The target is a cold search within 1 s on a 10k-chunk store.

    .venv/bin/python benchmarks/cold_search.py [BEIR_DIR] [--docs N] [--reuse WORK]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import DEFAULT_BEIR, read_qrels, read_queries

RUNS = 7
STORE = "SciFact"

PARTS = """
import time, json, sys
t0 = time.perf_counter()
from kortty_rag.app.search_results import SearchRequest
from kortty_rag.app.workspace import Workspace
t1 = time.perf_counter()
from kortty_rag.embedding.loader import load_embedder
from kortty_rag.config.registry import StoreRegistry
store = StoreRegistry().get(sys.argv[1])
embedder = load_embedder(store.embedding)
t2 = time.perf_counter()
from kortty_rag.retrieval.skeleton import placeholders
placeholders()
t3 = time.perf_counter()
from kortty_rag.retrieval.structure_patterns import patterns
patterns()
t4 = time.perf_counter()
with Workspace() as workspace:
    workspace.search(SearchRequest(sys.argv[2], [store]))
t5 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "model": t2 - t1, "neutraliser tables": t3 - t2,
                  "neutraliser patterns": t4 - t3, "snapshot + search": t5 - t4}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--reuse", type=Path, help="a work folder of an earlier run (its store)")
    args = parser.parse_args()
    work = args.reuse or Path(tempfile.mkdtemp(prefix="kortty-cold-search-"))
    env = dict(os.environ, KORTTY_HOME=str(work / "home"))
    kortty = [sys.executable, "-m", "kortty_rag"]
    if not (work / "home").exists():
        corpus = work / "corpus"
        corpus.mkdir(parents=True)
        with (args.dataset / "corpus.jsonl").open(encoding="utf-8") as lines:
            for _, line in zip(range(args.docs), lines, strict=False):
                doc = json.loads(line)
                text = f"{doc.get('title', '')}\n\n{doc['text']}"
                (corpus / f"{doc['_id']}.txt").write_text(text, encoding="utf-8")
        for step in (
            ["models", "install", "starter"],
            ["store", "create", STORE, "--model", "all-minilm-l6-v2-starter"],
            ["source", "add", STORE, str(corpus), "--yes"],
        ):
            subprocess.run([*kortty, *step], env=env, check=True, capture_output=True, timeout=7200)
    listed = subprocess.run(
        [*kortty, "source", "list", STORE, "--json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    chunks = sum(source["counts"]["chunks"] for source in json.loads(listed.stdout))
    texts = read_queries(args.dataset)
    questions = [texts[q] for q in read_qrels(args.dataset) if q in texts][:RUNS]
    bare: list[float] = []
    cold: list[float] = []
    for question in questions:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], timeout=60, check=True)
        bare.append(time.perf_counter() - started)
        started = time.perf_counter()
        subprocess.run(
            [*kortty, "search", STORE, question],
            env=env,
            capture_output=True,
            timeout=300,
            check=True,
        )
        cold.append(time.perf_counter() - started)
    parts = subprocess.run(
        [sys.executable, "-c", PARTS, STORE, questions[0]],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    print(f"store: {chunks:,} chunks ({work})")
    print(
        f"cold `kortty-rag search`: median {statistics.median(cold):.2f} s of {len(cold)} "
        f"(python -c pass: {statistics.median(bare):.3f} s); target <= 1 s at 10k chunks"
    )
    for name, seconds in json.loads(parts.stdout).items():
        print(f"  {name:<22}{seconds:6.2f} s")


if __name__ == "__main__":
    main()

"""Searchable early: how soon a long first index answers searches, and what publishing costs it.

Writes SciFact abstracts as files (default: the first 5,000), creates a local store with the real
starter model, and runs the product's first index of that folder in a thread while this thread
searches the store once a second with judged SciFact questions, as a person trying Test search
would. Printed, side by side from the one run:

- the whole first index's time T, and when the first search found anything (seconds and share of T)
  and when one first found a judged-relevant abstract;
- the parts published, and the share of T spent publishing them (the cost of being early);
- the "N of M documents searchable" line as the searches saw it.

Targets (issue 27): first results before 40 % of T and within 60 s for a 5,000-file folder.

    .venv/bin/python benchmarks/searchable_early.py [BEIR_DIR] [--docs N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import DEFAULT_BEIR, read_qrels, read_queries

STORE = "SciFact"


def write_corpus(dataset: Path, folder: Path, count: int) -> set[str]:
    folder.mkdir(parents=True)
    written: set[str] = set()
    with (dataset / "corpus.jsonl").open(encoding="utf-8") as lines:
        for _, line in zip(range(count), lines, strict=False):
            doc = json.loads(line)
            text = f"{doc.get('title', '')}\n\n{doc['text']}"
            (folder / f"{doc['_id']}.txt").write_text(text, encoding="utf-8")
            written.add(doc["_id"])
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--docs", type=int, default=5000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kortty-early-"))
    os.environ["KORTTY_HOME"] = str(work / "home")
    corpus = work / "corpus"
    written = write_corpus(args.dataset, corpus, args.docs)
    queries = read_queries(args.dataset)
    qrels = read_qrels(args.dataset)
    judged = [
        (queries[q], {d for d, grade in rel.items() if grade > 0 and d in written})
        for q, rel in sorted(qrels.items())
        if q in queries
    ]
    judged = [(q, rel) for q, rel in judged if rel]
    kortty = [sys.executable, "-m", "kortty_rag"]
    for step in (
        ["models", "install", "starter"],
        ["store", "create", STORE, "--model", "all-minilm-l6-v2-starter"],
    ):
        subprocess.run([*kortty, *step], check=True, capture_output=True, timeout=3600)

    from kortty_rag.app.workspace import Workspace
    from kortty_rag.progress import ProgressState, ProgressTracker
    from kortty_rag.retrieval.search import RetrievalService

    messages: list[str] = []

    def listen(state: ProgressState) -> None:
        if state.message and (not messages or messages[-1] != state.message):
            messages.append(state.message)

    with Workspace() as workspace:
        store = workspace.store(STORE)
        review = workspace.review_add(store, [corpus])
        print(f"{len(written)} abstracts, {review.report.summary().to_index} files to index")
        outcome: dict[str, object] = {}

        def index() -> None:
            try:
                outcome["summary"] = workspace.apply(
                    store, review, progress=ProgressTracker(listen)
                )
            except BaseException as exc:
                outcome["error"] = exc

        service = RetrievalService()
        searches: list[tuple[float, int, bool, str]] = []
        job = threading.Thread(target=index)
        started = time.monotonic()
        job.start()
        asked = 0
        while job.is_alive():
            question, relevant = judged[asked % len(judged)]
            asked += 1
            result = service.search(question, [workspace.store(STORE)])
            found = {Path(e.path).stem for e in result.excerpts}
            said = next((m for m in reversed(messages) if "searchable" in m), "")
            searches.append(
                (time.monotonic() - started, len(result.excerpts), bool(found & relevant), said)
            )
            time.sleep(1.0)
        job.join()
        total = time.monotonic() - started
        service.close()
    if "error" in outcome:
        raise SystemExit(f"the index failed: {outcome['error']}")
    summary = outcome["summary"]
    first = next((t for t, count, _, _ in searches if count), None)
    first_relevant = next((t for t, _, hit, _ in searches if hit), None)
    parts = getattr(summary, "parts_published", 0)
    publishing = getattr(summary, "seconds_publishing", 0.0)
    print(f"first index: {total:.1f} s, {summary.chunks_embedded} chunks embedded, {parts} parts")  # type: ignore[attr-defined]
    print(f"searches while it ran: {len(searches)}, answered: {sum(1 for s in searches if s[1])}")
    if first is not None:
        print(f"first results after {first:.1f} s = {first / total:.3f} of the index's time")
    if first_relevant is not None:
        print(
            f"first judged-relevant abstract after {first_relevant:.1f} s = "
            f"{first_relevant / total:.3f} of the index's time"
        )
    print(
        f"publishing parts took {publishing:.1f} s = {publishing / total:.3f} of the index's time"
    )
    for t, count, hit, said in searches[:: max(1, len(searches) // 12)]:
        print(f"  {t:7.1f} s  {count} excerpts  relevant={'yes' if hit else 'no ':3}  {said}")


if __name__ == "__main__":
    main()

"""Shared helpers for the BEIR benchmarks: write a corpus as files, read queries and judgements."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

DEFAULT_BEIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact-dev"


def _documents(source: Path, limit: int | None) -> Iterator[tuple[str, dict[str, str]]]:
    corpus = source / "corpus.jsonl" if source.is_dir() else source
    with corpus.open(encoding="utf-8") as lines:
        for count, line in enumerate(lines):
            if limit is not None and count >= limit:
                break
            doc = json.loads(line)
            yield f"{doc['_id'][-2:].rjust(2, '0')}/{doc['_id']}.txt", doc  # over 100 folders


def corpus_paths(source: Path, limit: int | None = None) -> dict[str, str]:
    """Relative path → doc id of the files :func:`write_corpus` writes."""
    return {rel: doc["_id"] for rel, doc in _documents(source, limit)}


def write_corpus(source: Path, target: Path, limit: int | None = None) -> dict[str, str]:
    """One file per document (``title`` + newline + ``text``); returns relative path → doc id."""
    for rel, doc in _documents(source, limit):
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_text(f"{doc['title']}\n{doc['text']}\n", encoding="utf-8")
    return corpus_paths(source, limit)


def read_queries(folder: Path) -> dict[str, str]:
    with (folder / "queries.jsonl").open(encoding="utf-8") as lines:
        return {q["_id"]: q["text"] for q in map(json.loads, lines)}


def read_qrels(folder: Path, split: str = "dev") -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with (folder / "qrels" / f"{split}.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    return qrels

"""Shared helpers for the BEIR benchmarks: write a corpus as files, read queries and judgements."""

from __future__ import annotations

import csv
import json
from pathlib import Path

DEFAULT_BEIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact-dev"


def write_corpus(source: Path, target: Path, limit: int | None = None) -> dict[str, str]:
    """One file per document (``title`` + newline + ``text``); returns relative path → doc id."""
    corpus = source / "corpus.jsonl" if source.is_dir() else source
    paths: dict[str, str] = {}
    with corpus.open(encoding="utf-8") as lines:
        for line in lines:
            if limit is not None and len(paths) >= limit:
                break
            doc = json.loads(line)
            rel = f"{doc['_id'][-2:].rjust(2, '0')}/{doc['_id']}.txt"  # spread over 100 folders
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            (target / rel).write_text(f"{doc['title']}\n{doc['text']}\n", encoding="utf-8")
            paths[rel] = doc["_id"]
    return paths


def read_queries(folder: Path) -> dict[str, str]:
    with (folder / "queries.jsonl").open(encoding="utf-8") as lines:
        return {q["_id"]: q["text"] for q in map(json.loads, lines)}


def read_qrels(folder: Path, split: str = "dev") -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with (folder / "qrels" / f"{split}.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    return qrels

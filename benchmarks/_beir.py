"""Shared helpers for the BEIR benchmarks: write a corpus as files, read queries and judgements."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DEFAULT_BEIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact-dev"


_PLAIN_ID = re.compile(r"[A-Za-z0-9]{1,100}")
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


#: the corpus is written as this many source folders, each added in a review of its own: one
#: review (preview) visits at most 5,000 files in all, and SciFact has 5,183 documents
PARTS = 4


def file_name(doc_id: str) -> str:
    """Where a document is written, relative to the corpus folder, spread over folders.

    A plain id (letters and digits, as in SciFact) gives ``part-N/<last two characters>/<id>.txt``;
    any other id is cut to a safe name plus a hash, so that no id makes a hidden, skipped or nested
    path. Each ``part-N`` folder is indexed as a source of its own."""
    if _PLAIN_ID.fullmatch(doc_id):
        folder = doc_id[-2:].rjust(2, "0")
        name = f"{doc_id}.txt"
    else:
        digest = hashlib.sha256(doc_id.encode()).hexdigest()
        folder, name = digest[:2], f"{_UNSAFE.sub('_', doc_id)[:80]}-{digest[:8]}.txt"
    part = int(hashlib.sha256(folder.encode()).hexdigest(), 16) % PARTS
    return f"part-{part}/{folder}/{name}"


def source_folders(corpus: Path) -> list[Path]:
    """The source roots of a corpus written by :func:`write_corpus`."""
    return sorted(p for p in corpus.iterdir() if p.is_dir() and p.name.startswith("part-"))


def index_corpus(job: Any, corpus: Path, embedder: Any = None) -> int:
    """Add the corpus's source folders to the store of ``job`` (a ``StoreSession``), one review each,
    and return the chunks embedded. A review that reached a preview cap would leave documents out
    of the store while the baselines see all of them, so that is an error, not a figure."""
    chunks = 0
    for folder in source_folders(corpus):
        review = job.review_new_sources([folder])
        if review.report.caps_reached:
            raise SystemExit(
                f"{folder}: the review reached a preview cap ({', '.join(review.report.caps_reached)});"
                " write the corpus in more parts"
            )
        chunks += job.apply(review, embedder).chunks_embedded
    return chunks


def by_file_name(paths: dict[str, str]) -> dict[str, str]:
    """File name → doc id: a chunk's ``rel_path`` is relative to its source root (``part-N``)."""
    return {rel.rsplit("/", 1)[-1]: doc for rel, doc in paths.items()}


def _documents(source: Path, limit: int | None) -> Iterator[tuple[str, dict[str, str]]]:
    corpus = source / "corpus.jsonl" if source.is_dir() else source
    with corpus.open(encoding="utf-8") as lines:
        for count, line in enumerate(lines):
            if limit is not None and count >= limit:
                break
            doc = json.loads(line)
            yield file_name(str(doc["_id"])), doc


def corpus_paths(source: Path, limit: int | None = None) -> dict[str, str]:
    """Relative path → doc id of the files :func:`write_corpus` writes."""
    return {rel: doc["_id"] for rel, doc in _documents(source, limit)}


def write_corpus(source: Path, target: Path, limit: int | None = None) -> dict[str, str]:
    """One file per document (``title`` + newline + ``text``); returns relative path → doc id."""
    for rel, doc in _documents(source, limit):
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_text(f"{doc.get('title', '')}\n{doc['text']}\n", encoding="utf-8")
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


class CachedQueries:
    """An embedder that embeds each question once (benchmarks ask the same question at several
    levels, parts and scopes; llama.cpp gives the same vector every time, so only the time changes).
    ``inner`` is the embedder itself, for indexing."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._vectors: dict[str, Any] = {}

    def embed_query(self, text: str) -> Any:
        if text not in self._vectors:
            self._vectors[text] = self.inner.embed_query(text)
        return self._vectors[text].copy()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

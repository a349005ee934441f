"""Plain retrieval baselines for ``beir_eval.py --baselines``, built from other code than the product's.

* **bm25s**: the bm25s library (Lucene BM25, k1 = 1.5, b = 0.75) over whole documents (title + text),
  its English stopword list and PyStemmer's Snowball English stemmer — the set-up of MTEB's published
  bm25s baseline for SciFact (0.6874 nDCG@10); and the same over the product's own chunks (each with
  its heading, as the product indexes it), a document ranking by its best chunk.
* **exact dense, product chunks**: numpy brute-force cosine search over the very vectors the product
  stored (so any loss of the product's dense part against it is the HNSW search, not the model).
* **exact dense, plain chunks**: the same GGUF through llama.cpp, documents cut into plain windows of
  254 model tokens with 38 tokens of overlap (no boundary preference), brute force; a document ranks
  by its best chunk.
* **plain RRF**: reciprocal rank fusion (k = 60, equal weights) of bm25s and plain exact dense.

Nothing here imports the product's ranking, tokenizing or chunking code; the product's embedder is
used only as the model (``embed_documents`` / ``embed_query`` and its llama.cpp tokenizer).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

PLAIN_WINDOW = 254
PLAIN_OVERLAP = 38
DEPTH = 200


def read_corpus(folder: Path, doc_ids: Sequence[str]) -> list[str]:
    """``title + "\\n" + text`` of each document, in the order of ``doc_ids``."""
    wanted = set(doc_ids)
    texts: dict[str, str] = {}
    with (folder / "corpus.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            if doc["_id"] in wanted:
                texts[doc["_id"]] = f"{doc.get('title', '')}\n{doc['text']}"
    return [texts[d] for d in doc_ids]


class Bm25sBaseline:
    def __init__(self, doc_ids: Sequence[str], texts: Sequence[str]) -> None:
        import bm25s
        import Stemmer

        self.doc_ids = list(doc_ids)
        self._bm25s = bm25s
        self._stemmer = Stemmer.Stemmer("english")
        tokens = bm25s.tokenize(
            list(texts), stopwords="en", stemmer=self._stemmer, show_progress=False
        )
        self.model = bm25s.BM25()
        self.model.index(tokens, show_progress=False)

    def rank(self, query: str, depth: int = DEPTH) -> list[str]:
        tokens = self._bm25s.tokenize(
            [query], stopwords="en", stemmer=self._stemmer, show_progress=False
        )
        k = min(depth, len(self.doc_ids))
        results, scores = self.model.retrieve(tokens, k=k, show_progress=False)
        ranked = (self.doc_ids[int(i)] for i, s in zip(results[0], scores[0], strict=True) if s > 0)
        return list(dict.fromkeys(ranked))  # a document ranks by its best unit (chunks)


def plain_windows(llama: Any, text: str) -> Iterator[str]:
    """Windows of at most 254 model tokens, 38 tokens overlapping, detokenized by llama.cpp."""
    tokens = llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)
    step = PLAIN_WINDOW - PLAIN_OVERLAP
    for start in range(0, max(len(tokens) - PLAIN_OVERLAP, 1), step):
        part = tokens[start : start + PLAIN_WINDOW]
        yield llama.detokenize(part).decode("utf-8", errors="replace").strip()


class ExactDense:
    """Brute-force cosine search over chunk vectors; documents rank by their best chunk."""

    def __init__(self, vectors: np.ndarray, chunk_docs: Sequence[str]) -> None:
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.chunk_docs = list(chunk_docs)

    def rank(self, query: np.ndarray, depth: int = DEPTH) -> list[str]:
        scores = self.vectors @ np.asarray(query, dtype=np.float32)
        order = np.argsort(-scores, kind="stable")[:depth]
        seen: dict[str, None] = {}
        for i in order:
            seen.setdefault(self.chunk_docs[int(i)], None)
        return list(seen)

    @classmethod
    def plain(
        cls, embedder: Any, doc_ids: Sequence[str], texts: Sequence[str], cache: Path | None
    ) -> ExactDense:
        """Cut with :func:`plain_windows` and embed (cached in ``cache`` for ``--reuse``)."""
        if cache is not None and cache.with_suffix(".npy").exists():
            vectors = np.load(cache.with_suffix(".npy"))
            owners = json.loads(cache.with_suffix(".json").read_text(encoding="utf-8"))
            return cls(vectors, owners)
        llama = embedder._llama  # the model's own tokenizer, not the product's chunker
        windows: list[str] = []
        owners = []
        for doc_id, text in zip(doc_ids, texts, strict=True):
            for window in plain_windows(llama, text):
                windows.append(window)
                owners.append(doc_id)
        vectors = np.concatenate(
            [embedder.embed_documents(windows[i : i + 32]) for i in range(0, len(windows), 32)]
        )
        if cache is not None:
            np.save(cache.with_suffix(".npy"), vectors)
            cache.with_suffix(".json").write_text(json.dumps(owners), encoding="utf-8")
        return cls(vectors, owners)


def rrf(rankings: Sequence[Sequence[str]], k: int = 60) -> list[str]:
    """Plain reciprocal rank fusion of document rankings."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda d: -scores[d])

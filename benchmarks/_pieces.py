"""Real text and real vectors for ``query_latency.py``: pieces of BEIR abstracts, embedded once.

Each abstract (``corpus.jsonl``) is cut into sentences; its pieces are its title and every window of
1, 2 and 3 consecutive sentences. Pieces are deduplicated over the whole corpus (SciFact: about
125,000 distinct texts from 5,183 abstracts, median 271 characters) and shuffled with a fixed seed,
so the first N pieces are a sample of every abstract and a smaller store is a subset of a larger one.

The vectors come from the real embedder (``embed_documents``, batches of 32) and are cached in the
work folder (``pieces.jsonl``, ``vectors.npy``), saved in parts while they are computed, so an
interrupted run resumes where it stopped.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: a sentence ends at ., ! or ? followed by space and a capital, a digit or an opening bracket
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")
_SPACE = re.compile(r"\s+")
WINDOWS = (1, 2, 3)
SEED = 7
BATCH = 32
#: vectors saved per part file while embedding (resumable)
PART = 3200


@dataclass(frozen=True)
class Piece:
    doc_id: str
    text: str


def cut_pieces(corpus: Path) -> list[Piece]:
    """Every distinct piece of every abstract, shuffled (deterministic)."""
    seen: set[str] = set()
    pieces: list[Piece] = []
    with corpus.open(encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            sentences = [
                _SPACE.sub(" ", s).strip() for s in _SENTENCE_END.split(doc["text"]) if s.strip()
            ]
            candidates = [_SPACE.sub(" ", doc["title"]).strip()]
            for width in WINDOWS:
                candidates += [
                    " ".join(sentences[i : i + width]) for i in range(len(sentences) - width + 1)
                ]
            for text in candidates:
                if text and text not in seen:
                    seen.add(text)
                    pieces.append(Piece(str(doc["_id"]), text))
    random.Random(SEED).shuffle(pieces)
    return pieces


def load_pieces(work: Path, corpus: Path, count: int) -> list[Piece]:
    """The first ``count`` pieces, from the work folder's cache when it has them."""
    cache = work / "pieces.jsonl"
    if cache.exists():
        with cache.open(encoding="utf-8") as lines:
            cached = [Piece(*json.loads(line)) for line in lines]
        if len(cached) >= count:
            return cached[:count]
    pieces = cut_pieces(corpus)
    if len(pieces) < count:
        raise SystemExit(
            f"{corpus} gives only {len(pieces):,} distinct pieces; ask for at most that many"
        )
    with cache.open("w", encoding="utf-8") as out:
        for piece in pieces[:count]:
            out.write(json.dumps([piece.doc_id, piece.text]) + "\n")
    return pieces[:count]


@dataclass(frozen=True)
class Embedded:
    vectors: np.ndarray
    #: seconds spent embedding in this run (0 when everything came from the cache)
    seconds: float
    #: texts embedded in this run
    embedded: int
    #: seconds the cached part took when it was computed (from ``embedding.json``)
    cached_seconds: float


def embed_pieces(
    work: Path, pieces: list[Piece], embed: Callable[[list[str]], np.ndarray]
) -> Embedded:
    """The vectors of ``pieces`` (row i is piece i), computed once and cached in ``work``; a cache
    of fewer pieces is extended."""
    final = work / "vectors.npy"
    record = work / "embedding.json"
    cached_seconds = (
        float(json.loads(record.read_text(encoding="utf-8"))["seconds"]) if record.exists() else 0.0
    )
    have = np.load(final) if final.exists() else np.empty((0, 0), dtype=np.float32)
    if len(have) >= len(pieces):
        return Embedded(have[: len(pieces)], 0.0, 0, cached_seconds)
    parts = work / "vector-parts"
    parts.mkdir(exist_ok=True)
    started = time.perf_counter()
    embedded = 0
    done: list[np.ndarray] = [have] if len(have) else []
    for first in range(len(have), len(pieces), PART):
        path = parts / f"{first:08d}.npy"
        size = min(PART, len(pieces) - first)
        if path.exists() and len(np.load(path, mmap_mode="r")) == size:
            done.append(np.load(path))
            continue
        texts = [p.text for p in pieces[first : first + size]]
        part = np.concatenate([embed(texts[i : i + BATCH]) for i in range(0, size, BATCH)])
        np.save(path, part.astype(np.float32))
        done.append(part)
        embedded += size
        rate = embedded / (time.perf_counter() - started)
        left = (len(pieces) - first - size) / rate
        print(
            f"  embedded {first + size:,}/{len(pieces):,} texts ({rate:.0f}/s, about "
            f"{left / 60:.0f} min left)",
            file=sys.stderr,
            flush=True,
        )
    seconds = time.perf_counter() - started
    vectors = np.concatenate(done).astype(np.float32)
    np.save(final, vectors)
    total = cached_seconds + seconds
    record.write_text(json.dumps({"seconds": total, "count": len(pieces)}), encoding="utf-8")
    for path in parts.glob("*.npy"):
        path.unlink()
    parts.rmdir()
    return Embedded(vectors, seconds, embedded, total)

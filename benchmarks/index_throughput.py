"""Indexing throughput: the whole pipeline against the bare embedder, on the same chunks, in one run.

Writes a BEIR corpus (default: ../shared/data/scifact-dev) as one file per document, indexes it through
the product's own pipeline (scan → extract → chunk → embed → snapshot → activate) with the real starter
model, then embeds exactly the chunks that were indexed (with their headings, as the pipeline did)
with the bare embedder (batches of 32), before and after, and prints chunks/s of both and their
ratio. Also prints peak RSS.

    .venv/bin/python benchmarks/index_throughput.py [CORPUS.jsonl | BEIR_DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import DEFAULT_BEIR, index_corpus, write_corpus


def bare_embedder_rate(embedder: object, texts: list[str]) -> float:
    started = time.perf_counter()
    for first in range(0, len(texts), 32):
        embedder.embed_documents(texts[first : first + 32])  # type: ignore[attr-defined]
    return len(texts) / (time.perf_counter() - started)


def bare_rates_on_store(store: Any, embedder: object) -> tuple[float, float]:
    """The bare embedder's rate on exactly what the pipeline embedded into the local ``store`` (each
    chunk with its heading path, ``Chunk.embedded_text``), measured twice: (first, second)."""
    from kortty_rag.index.factory import open_vector_store
    from kortty_rag.index.local import LocalStore

    vectors = open_vector_store(store)
    assert isinstance(vectors, LocalStore) and vectors.snapshot is not None
    texts = [chunk.embedded_text() for _, chunk in vectors.snapshot.chunks.iter_chunks()]
    vectors.close()
    return bare_embedder_rate(embedder, texts), bare_embedder_rate(embedder, texts)


def print_ratio(pipeline_rate: float, bare_before: float, bare_after: float) -> None:
    """The bare embedder's rates (before and after the pipeline ran) and the pipeline's share."""
    bare_rate = (bare_before + bare_after) / 2
    print(
        f"bare embedder on the same chunks: {bare_before:.1f} chunks/s before, "
        f"{bare_after:.1f} after (mean {bare_rate:.1f})"
    )
    print(f"ratio pipeline / bare embedder: {pipeline_rate / bare_rate:.3f}  (target >= 0.9)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--limit", type=int, default=None, help="only the first N documents")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kortty-bench-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.sync.session import StoreSession

    documents = len(write_corpus(args.corpus, work / "corpus", args.limit))
    model = install_starter()
    embedder = load_embedder(model.identity())
    registry = StoreRegistry()
    store = registry.create("bench", model.identity())

    started = time.perf_counter()
    with StoreSession(store, registry=registry) as job:
        chunks = index_corpus(job, work / "corpus")
    pipeline_seconds = time.perf_counter() - started
    pipeline_rate = chunks / pipeline_seconds

    bare_before, bare_after = bare_rates_on_store(registry.get("bench"), embedder)

    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"corpus: {documents} documents from {args.corpus}")
    print(f"chunks: {chunks} (model {model.id}, {model.chunk_tokens}-token chunks)")
    print(
        f"pipeline (scan+extract+chunk+embed+snapshot+activate): {pipeline_seconds:.1f} s, "
        f"{pipeline_rate:.1f} chunks/s"
    )
    print_ratio(pipeline_rate, bare_before, bare_after)
    print(f"peak RSS: {usage:.0f} MiB (this process), {children:.0f} MiB (largest child)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

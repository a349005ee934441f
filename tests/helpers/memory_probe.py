"""Peak memory of one indexing process and of one serving process (memory test).

    python -m tests.helpers.memory_probe index HOME FOLDER
    python -m tests.helpers.memory_probe serve HOME
    python -m tests.helpers.memory_probe document HOME FOLDER DIMS
    python -m tests.helpers.memory_probe serve-document HOME DIMS

``index`` indexes FOLDER as the source of a new store in KORTTY_HOME=HOME with the fake embedder (the
model's memory is not under test here, the pipeline's is); ``serve`` opens that store and searches it,
as retrieval would. Each prints one JSON line with the process's peak resident set size; ``index``
adds the size of the vector index it wrote and the documents and chunks indexed. ``document`` is
``index`` with DIMS-dimensional vectors and the model's chunk length of the starter model (256 tokens),
and also lists the review's rows (status, reason, characters), for single large documents;
``serve-document`` opens and searches what it indexed. ``index`` publishes no part while it runs (what
is measured is the pipeline's streaming); ``index-in-parts`` publishes one every 2 seconds.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

STORE = "M"


def peak_rss() -> int:
    """This process's peak resident set (``VmHWM``: unlike ``ru_maxrss`` it is not inherited from
    the process that forked us across ``exec``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def index_document(folder: Path, dims: int) -> dict[str, object]:
    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.sync.session import StoreSession
    from tests.helpers.fakes import HashEmbedder

    embedder = HashEmbedder(dims=dims, chunk_tokens=256, record=False)
    registry = StoreRegistry()
    store = registry.create(STORE, embedder.identity)
    with StoreSession(store, registry=registry) as running:
        review = running.review_new_sources([folder])
        rows = [
            {"path": r.rel_path, "status": r.status.value, "reason": r.reason,
             "characters": r.characters,
             "estimated_chunks": getattr(r, "estimated_chunks", 0)}
            for r in review.rows
        ]  # fmt: skip
        summary = running.apply(review, embedder).to_json()
    return {
        "peak_rss": peak_rss(),
        "rows": rows,
        "documents": summary["indexed"],
        "chunks": summary["chunks_embedded"],
    }


def serve_document(dims: int) -> dict[str, object]:
    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.index.local import LocalStore
    from tests.helpers.fakes import HashEmbedder

    registry = StoreRegistry()
    store = registry.get(STORE)
    vectors = LocalStore(registry.folder(store), store.embedding)
    try:
        documents = vectors.documents()
        sources = {d.source_id for d in documents}
        hits = vectors.search(HashEmbedder(dims=dims).embed_query("alpha beta"), 3, sources)
        assert hits or not documents
    finally:
        vectors.close()
    return {"peak_rss": peak_rss(), "documents": len(documents)}


def main() -> int:
    mode, home = sys.argv[1], Path(sys.argv[2])
    os.environ["KORTTY_HOME"] = str(home)
    from tests.helpers.storage_driver import run_job, served_state

    if mode == "serve":
        state = served_state(STORE)
        assert "error" not in state and state["searchable"], state
        print(json.dumps({"peak_rss": peak_rss(), "documents": len(state["docs"])}))
        return 0
    if mode == "serve-document":
        print(json.dumps(serve_document(int(sys.argv[3]))))
        return 0
    if mode == "document":
        print(json.dumps(index_document(Path(sys.argv[3]), int(sys.argv[4]))))
        return 0
    from kortty_rag.index import early_publish

    if mode == "index-in-parts":  # a part every 2 s (the product: after 10 s, then every 30 s)
        early_publish.FIRST_AFTER, early_publish.EVERY = 2.0, 2.0
    else:  # the pipeline's streaming alone: a job this short publishes no part
        early_publish.FIRST_AFTER = float("inf")
    summary = run_job(STORE, Path(sys.argv[3]), dims=32, chunk_tokens=256)
    vectors = sum(p.stat().st_size for p in home.rglob("vectors*") if p.is_file())
    print(
        json.dumps(
            {
                "peak_rss": peak_rss(),
                "vector_index_bytes": vectors,
                "documents": summary["sources"][0]["new"],
                "chunks": summary["chunks_embedded"],
                "parts": summary["parts_published"],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

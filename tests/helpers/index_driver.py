"""A separate indexing process for crash, disk-full and concurrency tests (fake embedder: the storage
is under test here, not the model).

    python -m tests.helpers.index_driver STORE_NAME FOLDER [--limit-file-size BYTES] [--ready FILE]

Adds FOLDER as a source of STORE_NAME on the first run and refreshes it on later runs. Prints one JSON
line with the outcome. Exit codes: 0 indexed, 2 store busy, 3 snapshot error.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import NotFoundError, SnapshotError, StoreBusyError
from kortty_rag.sync.session import StoreSession
from tests.helpers.fakes import HashEmbedder


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("store")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--limit-file-size", type=int)
    parser.add_argument("--ready", type=Path, help="touch this file once the store lock is held")
    parser.add_argument("--slow", type=float, default=0.0, help="seconds to sleep per batch")
    parser.add_argument("--dims", type=int, default=32, help="vector width of the fake embedder")
    args = parser.parse_args()
    embedder = HashEmbedder(dims=args.dims)
    registry = StoreRegistry()
    try:
        store = registry.get(args.store)
    except NotFoundError:
        store = registry.create(args.store, embedder.identity)
    if args.slow:
        import time

        original = embedder.embed_documents

        def slow(texts: list[str]) -> object:
            time.sleep(args.slow)
            return original(texts)

        embedder.embed_documents = slow  # type: ignore[method-assign,assignment]
    try:
        with StoreSession(store, registry=registry) as job:
            if args.ready:
                args.ready.write_text("locked")
            if args.limit_file_size is not None:
                resource.setrlimit(
                    resource.RLIMIT_FSIZE, (args.limit_file_size, args.limit_file_size)
                )
            if any(s.path == str(args.folder) for s in job.store.sources):
                review = job.review_refresh()
            else:
                review = job.review_new_sources([args.folder])
            summary = job.apply(review, embedder)
    except StoreBusyError as exc:
        print(json.dumps({"busy": str(exc)}))
        return 2
    except SnapshotError as exc:
        print(json.dumps({"snapshot_error": exc.message, "hint": exc.hint}))
        return 3
    print(json.dumps(summary.to_json()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

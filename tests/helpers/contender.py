"""One of many processes asking to index the same store at the same moment (concurrency tests).

    python -m tests.helpers.contender STORE FOLDER START_FIFO [--slow SECONDS]

Imports everything, prints ``ready``, then blocks opening START_FIFO for reading: every contender is
released at the same instant, when the test opens the FIFO for writing. Then it asks for the store's
job lock like any CLI or GUI job (registry lookup, ``StoreSession``) and prints one JSON line:
``{"outcome": "busy", "seconds": …}`` with the time from the request to the refusal, or
``{"outcome": "running", "seconds": …}`` once it holds the lock (then it refreshes the store slowly,
and prints ``{"outcome": "ran"}`` at the end, unless it is killed first).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.errors import StoreBusyError
from kortty_rag.sync.session import StoreSession
from tests.helpers.fakes import HashEmbedder


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("store")
    parser.add_argument("folder", type=Path)
    parser.add_argument("start", type=Path)
    parser.add_argument("--slow", type=float, default=0.0, help="seconds to sleep per batch")
    args = parser.parse_args()
    embedder = HashEmbedder()
    original = embedder.embed_documents

    def slow(texts: object) -> object:
        time.sleep(args.slow)
        return original(texts)  # type: ignore[arg-type]

    embedder.embed_documents = slow  # type: ignore[method-assign,assignment]
    print("ready", flush=True)
    fd = os.open(args.start, os.O_RDONLY)  # blocks until the test opens it for writing
    started = time.monotonic()
    try:
        registry = StoreRegistry()
        with StoreSession(registry.get(args.store), registry=registry) as job:
            held = time.monotonic() - started
            print(
                json.dumps({"outcome": "running", "seconds": held, "pid": os.getpid()}), flush=True
            )
            os.close(fd)
            job.apply(job.review_refresh(), embedder)
    except StoreBusyError as exc:
        refused = time.monotonic() - started
        print(
            json.dumps({"outcome": "busy", "seconds": refused, "message": exc.message}), flush=True
        )
        return 2
    print(json.dumps({"outcome": "ran"}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

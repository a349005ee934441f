"""Incremental refresh on a real tree nobody here wrote: Python's own standard library sources.

Copies the tree (the originals are never touched), indexes it with the real starter model, then
measures a refresh with no change (time, chunks re-embedded: must be 0) and a refresh after editing one
file (time, and how many times faster than the full index; target >= 20x).

    .venv/bin/python benchmarks/refresh.py [FOLDER ...]    (default: a few stdlib packages)
"""

from __future__ import annotations

import argparse
import os
import shutil
import sysconfig
import tempfile
import time
from pathlib import Path

STDLIB = Path(sysconfig.get_paths()["stdlib"])
DEFAULT = ["email", "json", "http", "urllib", "logging", "concurrent", "xml"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folders", nargs="*", type=Path, default=[STDLIB / name for name in DEFAULT]
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kortty-refresh-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.sync.session import StoreSession

    copies = []
    for folder in args.folders:
        target = work / "tree" / folder.name
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns("__pycache__"))
        copies.append(target)
    model = install_starter()
    embedder = load_embedder(model.identity())
    registry = StoreRegistry()
    registry.create("stdlib", model.identity())

    def timed_job(action: str) -> tuple[float, int, int, int]:
        started = time.perf_counter()
        with StoreSession(registry.get("stdlib"), registry=registry) as job:
            review = job.review_new_sources(copies) if action == "add" else job.review_refresh()
            summary = job.apply(review, embedder)
        return (
            time.perf_counter() - started,
            summary.chunks_embedded,
            summary.indexed,
            summary.unchanged,
        )

    full, chunks, docs, _ = timed_job("add")
    noop, noop_chunks, _, noop_unchanged = timed_job("refresh")
    edited = next(p for p in sorted(copies[0].rglob("*.py")) if p.stat().st_size > 4000)
    edited.write_text(edited.read_text() + "\n# an edit for the refresh benchmark\n")
    one, one_chunks, one_docs, one_unchanged = timed_job("refresh")

    print(f"tree: {', '.join(str(f) for f in args.folders)} (copied)")
    print(f"full index: {docs} documents, {chunks} chunks in {full:.1f} s")
    print(
        f"refresh, no change: {noop:.2f} s, {noop_chunks} chunks re-embedded, "
        f"{noop_unchanged} documents unchanged"
    )
    print(
        f"refresh, one file edited ({edited.name}): {one:.2f} s, {one_docs} document and "
        f"{one_chunks} chunks re-embedded, {one_unchanged} unchanged"
    )
    print(
        f"speed-up against the full index: no change {full / noop:.0f}x, "
        f"one edit {full / one:.0f}x (target >= 20x)"
    )


if __name__ == "__main__":
    main()

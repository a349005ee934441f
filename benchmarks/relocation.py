"""Stores that survive moves, rebuilds and machines (docs/DESIGN.md §9, §14), on SciFact's 5,183
abstracts as files, indexed with the real starter model:

- a folder of at least 1,000 files moved inside its source, then refreshed: chunks embedded (target 0)
  and the time ÷ a no-change refresh of the same store (target ≤ 2×);
- ``store rebuild`` with the same model: chunks embedded (target 0), time ÷ the first full index;
- ``store export`` + ``store import`` of the store (about 10,000 chunks): import time ÷ reading the
  archive and checking every member's SHA-256 with the standard library alone (medians of three
  runs each; target ≤ 2×), and the
  search results of 20 queries, identical before and after (target: all).

Every figure is a ratio measured side by side in this run; absolute times are only indicative.

    .venv/bin/python benchmarks/relocation.py [--beir DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import tarfile
import tempfile
import time
from pathlib import Path

from _beir import DEFAULT_BEIR, index_corpus, read_queries, source_folders, write_corpus


def read_and_verify(archive: Path) -> float:
    """The baseline: read every member once, check its size and SHA-256 against the archive's
    header (the manifest against the header's manifest checksum), with tarfile and hashlib only."""
    started = time.perf_counter()
    header: dict[str, object] = {}
    with tarfile.open(archive, "r|") as tar:
        for member in tar:
            handle = tar.extractfile(member)
            assert handle is not None
            if member.name == "kortty-rag-export.json":
                header = json.loads(handle.read())
                continue
            digest = hashlib.sha256()
            size = 0
            while block := handle.read(1 << 20):
                digest.update(block)
                size += len(block)
            name = member.name.rsplit("/", 1)[-1]
            files = header["files"]
            assert isinstance(files, dict)
            if name == "manifest.json":
                assert digest.hexdigest() == header["manifest_sha256"], name
            else:
                assert (size, digest.hexdigest()) == (files[name]["size"], files[name]["sha256"])
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beir", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--limit", type=int, default=None, help="only the first N abstracts")
    args = parser.parse_args()
    if not (args.beir / "corpus.jsonl").is_file():
        raise SystemExit(f"no BEIR corpus at {args.beir} (pass --beir DIR)")
    work = Path(tempfile.mkdtemp(prefix="kortty-relocation-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    from kortty_rag.app.search_results import SearchRequest
    from kortty_rag.app.workspace import Workspace
    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.sync.session import StoreSession

    corpus = work / "corpus"
    write_corpus(args.beir, corpus, args.limit)
    model = install_starter()
    embedder = load_embedder(model.identity())
    registry = StoreRegistry()
    registry.create("SciFact", model.identity())
    started = time.perf_counter()
    with StoreSession(registry.get("SciFact"), registry=registry) as job:
        chunks = index_corpus(job, corpus, embedder)
    full = time.perf_counter() - started
    files = sum(1 for _ in corpus.rglob("*.txt"))
    print(f"store: {files} files, {chunks} chunks embedded in {full:.1f} s (the first index)")

    def refresh() -> tuple[float, int, int, int]:
        began = time.perf_counter()
        with StoreSession(registry.get("SciFact"), registry=registry) as job:
            summary = job.apply(job.review_refresh(), embedder)
        return (
            time.perf_counter() - began,
            summary.chunks_embedded,
            summary.chunks_reused,
            summary.indexed,
        )

    noop = statistics.median(refresh()[0] for _ in range(3))

    # move whole sub-folders of the first source into a new folder until 1,000 files moved
    root = source_folders(corpus)[0]
    target = root / "moved-here"
    target.mkdir()
    moved = 0
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p != target):
        if moved >= 1000:
            break
        moved += sum(1 for _ in folder.glob("*.txt"))
        folder.rename(target / folder.name)
    seconds, embedded, reused, indexed = refresh()
    print(
        f"move of {moved} files inside a source, then refresh: {indexed} documents indexed, "
        f"{embedded} chunks embedded (target 0), {reused} reused; {seconds:.2f} s = "
        f"{seconds / noop:.2f}x a no-change refresh ({noop:.2f} s; target <= 2x)"
    )

    with Workspace() as workspace:
        store = workspace.store("SciFact")
        began = time.perf_counter()
        rebuilt = workspace.rebuild_store(store)
        rebuild = time.perf_counter() - began
        print(
            f"store rebuild, same model: {rebuilt.chunks_embedded} chunks embedded (target 0), "
            f"{rebuilt.chunks_reused} reused; {rebuild:.1f} s = {rebuild / full:.2f}x the first index"
        )

        queries = list(read_queries(args.beir).values())[:20]
        before = [
            [
                (e.path, e.chunk.text, e.candidate.fused)
                for e in workspace.search(SearchRequest(q, [store])).excerpts
            ]
            for q in queries
        ]
        archive = work / "scifact.kortty.tar"
        began = time.perf_counter()
        exported = workspace.export_store(workspace.store("SciFact"), archive)
        export = time.perf_counter() - began
        baseline = statistics.median(read_and_verify(archive) for _ in range(3))
        runs = []
        for copy_number in range(3):  # the median of three imports, as the baseline's
            began = time.perf_counter()
            imported = workspace.import_store(archive, name=f"SciFact copy {copy_number}")
            runs.append(time.perf_counter() - began)
        seconds = statistics.median(runs)
        copy = workspace.store("SciFact copy 0")
        after = [
            [
                (e.path, e.chunk.text, e.candidate.fused)
                for e in workspace.search(SearchRequest(q, [copy])).excerpts
            ]
            for q in queries
        ]
    same = sum(b == a for b, a in zip(before, after, strict=True))
    print(
        f"export of {exported.chunks} chunks ({exported.size / 1e6:.1f} MB): {export:.2f} s; "
        f"import: {seconds:.2f} s = {seconds / baseline:.2f}x reading and checking the archive "
        f"({baseline:.2f} s; target <= 2x; medians of 3, imports {', '.join(f'{r:.2f}' for r in runs)} s); "
        f"{imported.chunks} chunks imported"
    )
    print(f"search results identical after import: {same} of {len(queries)} queries (target: all)")
    print(json.dumps({"work": str(work)}))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

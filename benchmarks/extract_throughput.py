"""Document extraction: throughput per format, memory, and the pipeline against the bare embedder on a
mixed corpus of documents, all in one run.

The corpus: SciFact abstracts (default ../shared/data/scifact-dev) grouped into books of
``--per-book`` abstracts (each abstract a section under its title), every book written by pandoc in
one format, round-robin over DOCX, ODT, EPUB, PPTX, RTF, HTML and Markdown (the text baseline), so
no content is repeated (a repeated chunk would reuse its vector and flatter the pipeline).

1. Each format's files are extracted through the product's isolated worker (``PdfExtractor``, the
   one the review and indexing use), and read as the product reads text for Markdown: characters/s
   and files/s per format, side by side, and the worker's peak RSS.
2. The folder is indexed through the product's pipeline (scan → extract → chunk → embed → snapshot
   → activate) with the real starter model; exactly the indexed chunks are then embedded by the bare
   embedder (batches of 32), before and after; their ratio should stay ≥ 0.9.
3. Peak memory over serving: this process's peak RSS while indexing against a fresh process that
   opens the store and answers one question (both load the model).

    .venv/bin/python benchmarks/extract_throughput.py [BEIR_DIR] [--limit N] [--per-book N]

Needs pandoc (Debian package ``pandoc``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _beir import DEFAULT_BEIR
from index_throughput import bare_rates_on_store, print_ratio

FORMATS = ("docx", "odt", "epub", "pptx", "rtf", "html", "md")


def books(corpus: Path, limit: int, per_book: int) -> list[str]:
    """Markdown books of ``per_book`` abstracts each, from the first ``limit`` of ``corpus``."""
    path = corpus / "corpus.jsonl" if corpus.is_dir() else corpus
    documents = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if len(documents) >= limit:
                break
            record = json.loads(line)
            documents.append((record.get("title") or record["_id"], record["text"]))
    result = []
    for first in range(0, len(documents), per_book):
        number = first // per_book + 1
        sections = [f"# Book {number}\n"]
        for raw_title, text in documents[first : first + per_book]:
            title = " ".join(raw_title.replace("#", " ").split())
            sections.append(f"## {title}\n\n{textwrap.fill(text, 100)}\n")
        result.append("\n".join(sections))
    return result


def write_books(markdown: list[str], folder: Path) -> dict[str, list[Path]]:
    """Each book written by pandoc in one format, round-robin; by format."""
    pandoc = shutil.which("pandoc")
    if pandoc is None:
        raise SystemExit("pandoc is needed to write the documents (Debian package pandoc)")
    folder.mkdir(parents=True)
    jobs = []
    for number, text in enumerate(markdown):
        fmt = FORMATS[number % len(FORMATS)]
        target = folder / f"book-{number:04d}.{fmt}"
        source = folder.parent / f"book-{number:04d}.source.md"
        source.write_text(text, encoding="utf-8")
        jobs.append((fmt, source, target))

    def write(job: tuple[str, Path, Path]) -> None:
        _, source, target = job
        command = [pandoc, "--standalone", "--from", "markdown", str(source), "-o", str(target)]
        command += ["--metadata", f"title={target.stem}"]
        subprocess.run(command, check=True, timeout=300, capture_output=True)

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(write, jobs))
    written: dict[str, list[Path]] = defaultdict(list)
    for fmt, _, target in jobs:
        written[fmt].append(target)
    return written


def extraction_rates(written: dict[str, list[Path]]) -> dict[str, tuple[int, int, int, float]]:
    """Per format: files, bytes, characters and seconds through the product's readers."""
    from kortty_rag.extract.formats import detect_format
    from kortty_rag.extract.pdf import PdfExtractor
    from kortty_rag.extract.text import TextInspector
    from kortty_rag.models import DEFAULT_MAX_FILE_SIZE

    rates = {}
    with PdfExtractor() as extractor:
        extractor.extract(written["docx"][0], DEFAULT_MAX_FILE_SIZE, None, "DOCX")  # start it
        for fmt, paths in written.items():
            size = sum(p.stat().st_size for p in paths)
            started = time.perf_counter()
            characters = 0
            for path in paths:
                if fmt == "md":
                    inspector = TextInspector()
                    inspector.feed(path.read_bytes())
                    characters += inspector.finish().characters
                else:
                    kind = detect_format(path.name)
                    assert kind is not None
                    text = extractor.extract(path, DEFAULT_MAX_FILE_SIZE, None, kind)
                    characters += text.characters
            rates[fmt] = (len(paths), size, characters, time.perf_counter() - started)
    return rates


SERVE = """
import json, resource, sys
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.retrieval.search import RetrievalService
service = RetrievalService()
result = service.search(sys.argv[1], [StoreRegistry().get("bench")])
service.close()
print(json.dumps({"excerpts": len(result.excerpts),
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_BEIR)
    parser.add_argument("--limit", type=int, default=1400, help="abstracts used (default 1400)")
    parser.add_argument("--per-book", type=int, default=10, help="abstracts per document")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kortty-extract-bench-"))
    os.environ["KORTTY_HOME"] = str(work / "home")

    started = time.perf_counter()
    written = write_books(books(args.corpus, args.limit, args.per_book), work / "documents")
    print(
        f"pandoc wrote {sum(map(len, written.values()))} documents in "
        f"{time.perf_counter() - started:.0f} s ({args.per_book} abstracts each)"
    )

    rates = extraction_rates(written)
    worker_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print("\nextraction through the isolated worker (Markdown: the product's text reader)")
    print(f"{'format':<6} {'files':>5} {'MiB':>7} {'M chars':>8} {'files/s':>8} {'M chars/s':>9}")
    for fmt in FORMATS:
        files, size, characters, seconds = rates[fmt]
        print(
            f"{fmt:<6} {files:>5} {size / 2**20:>7.2f} {characters / 1e6:>8.2f} "
            f"{files / seconds:>8.1f} {characters / seconds / 1e6:>9.2f}"
        )
    print(f"worker peak RSS: {worker_rss:.0f} MiB")

    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.embedding.install import install_starter
    from kortty_rag.embedding.loader import load_embedder
    from kortty_rag.sync.session import StoreSession

    model = install_starter()
    embedder = load_embedder(model.identity())
    registry = StoreRegistry()
    store = registry.create("bench", model.identity())
    before_index = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.perf_counter()
    with StoreSession(store, registry=registry) as job:
        review = job.review_new_sources([work / "documents"])
        skipped = [r for r in review.report.rows if r.status.value == "skipped"]
        if skipped:
            raise SystemExit(f"skipped: {[(r.rel_path, r.reason) for r in skipped][:5]}")
        estimate = review.report.summary().estimated_chunks
        chunks = job.apply(review, embedder).chunks_embedded
    pipeline_seconds = time.perf_counter() - started
    pipeline_rate = chunks / pipeline_seconds
    index_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    bare_before, bare_after = bare_rates_on_store(registry.get("bench"), embedder)

    serving = subprocess.run(
        [sys.executable, "-c", SERVE, "effects of vitamin D on bone density"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
        env=os.environ | {"KORTTY_HOME": str(work / "home")},
    )
    served = json.loads(serving.stdout.strip().splitlines()[-1])

    print(
        f"\nmixed corpus: {chunks} chunks from {sum(map(len, written.values()))} documents "
        f"(review estimate {estimate})"
    )
    print(
        f"pipeline (scan+extract+chunk+embed+snapshot+activate): {pipeline_seconds:.1f} s, "
        f"{pipeline_rate:.1f} chunks/s"
    )
    print_ratio(pipeline_rate, bare_before, bare_after)
    print(
        f"peak RSS: indexing {index_peak:.0f} MiB (model loaded: {before_index:.0f} MiB), "
        f"serving {served['rss']:.0f} MiB ({served['excerpts']} excerpts); indexing over "
        f"serving {index_peak - served['rss']:+.0f} MiB; the extraction worker {worker_peak:.0f} MiB"
    )
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

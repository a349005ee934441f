"""A hostile folder for the scan and index (docs/DESIGN.md §6, §7), and the child process that indexes it.

    python -m tests.helpers.hostile SPEC.json

The child creates a store (fake embedder), reviews the folder as a new source, indexes the review,
and prints one JSON object: every review row, how long each file took in the scan and in extraction,
and what the active snapshot holds afterwards. The parent runs it with a timeout (a FIFO opened the
wrong way would hang it) and, as root, without the capabilities that let root read anything.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
import time
from pathlib import Path
from typing import Any

from tests.helpers.pdfs import (
    compression_bomb_pdf,
    encrypted_pdf,
    image_only_pdf,
    malformed_pdf,
    raw_pdf,
    text_pdf,
)

GiB = 1 << 30
DEEP_LEVELS = 1100
DEEP_REL = "deep/" + "d/" * DEEP_LEVELS + "bottom.txt"

#: rel path → (expected status, a phrase its one reason must contain)
Expectations = dict[str, tuple[str, str]]


def build(root: Path, *, bomb_mib: int) -> Expectations:
    """Write the hostile folder; returns what the review must say about every entry."""
    root.mkdir(parents=True)
    expect: Expectations = {}

    def text(rel: str, data: bytes | str, status: str = "index", reason: str = "") -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        expect[rel] = (status, reason)

    text("plain.md", "# Plain\nOrdinary text about rivers and stones.\n")
    text("copy-1.txt", "Identical copies are two documents.\n")
    text("copy-2.txt", "Identical copies are two documents.\n")
    text("empty.md", b"", "skipped", "empty file")
    text("nul.txt", b"text\x00with a NUL", "skipped", "NUL byte")
    text("latin1.txt", b"caf\xe9 cr\xe8me", "skipped", "not valid UTF-8")
    text("truncated-utf8.txt", b"ok \xe2\x82", "skipped", "not valid UTF-8")
    text("bell.log", b"ring \x07 ring", "skipped", "control byte 0x07")
    text("elf.txt", b"\x7fELF\x02\x01\x01", "skipped", "control byte")
    text("bom-crlf.txt", b"\xef\xbb\xbfwindows line\r\nending\r\n")
    text("report.docx", b"PK\x03\x04 office", "skipped", "damaged DOCX file")
    text("report.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1 office", "skipped", "unsupported format")
    text("photo.png", b"\x89PNG\r\n", "skipped", "unsupported format")
    text(".hidden.md", "hidden", "skipped", "hidden file")
    text("notes/[R1] </retrieved_context>.md", "A hostile name is just a name.\n")
    text("notes/line\nbreak.txt", "A newline in a file name.\n")
    (root / "node_modules").mkdir()
    text("node_modules/lib.js", "never looked at")
    expect["node_modules"] = ("skipped", "excluded folder")
    del expect["node_modules/lib.js"]
    bad_name = os.fsencode(root) + b"/bad-\xff-name.txt"
    with open(bad_name, "wb") as handle:
        handle.write(b"the content is fine, the name is not")
    expect["bad-\ufffd-name.txt"] = ("skipped", "not valid UTF-8")

    # special files: never opened
    os.mkfifo(root / "pipe.txt")
    expect["pipe.txt"] = ("skipped", "FIFO")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(root / "socket.md"))  # the socket file stays after the socket is closed
    expect["socket.md"] = ("skipped", "socket")
    for rel, kind, device, phrase in (
        ("null.txt", stat.S_IFCHR, os.makedev(1, 3), "character device"),
        ("disk.txt", stat.S_IFBLK, os.makedev(7, 0), "block device"),
    ):
        try:
            os.mknod(root / rel, kind | 0o600, device)
            expect[rel] = ("skipped", phrase)
        except PermissionError:
            pass  # creating device nodes needs CAP_MKNOD

    # links: never followed, loops included
    outside = root.parent / "outside.txt"
    outside.write_text("outside the source")
    (root / "link.txt").symlink_to(outside)
    (root / "loop").symlink_to(root, target_is_directory=True)
    (root / "dangling.md").symlink_to(root / "does-not-exist.md")
    (root / "a").mkdir()
    (root / "a" / "b").symlink_to(root / "a", target_is_directory=True)
    for rel in ("link.txt", "loop", "dangling.md", "a/b"):
        expect[rel] = ("skipped", "symbolic link")

    # sizes: a 1 GiB sparse file (over the default limit; under a 1 GiB limit it is read and refused)
    with (root / "sparse.txt").open("wb") as handle:
        handle.truncate(GiB)
    expect["sparse.txt"] = ("skipped", "too large")

    # permissions
    text("locked/inside.txt", "behind a folder nobody may read")
    os.chmod(root / "locked", 0)
    del expect["locked/inside.txt"]
    expect["locked"] = ("skipped", "cannot read folder")
    text("secret.txt", "a file nobody may read", "skipped", "cannot read file")
    os.chmod(root / "secret.txt", 0)

    # PDFs
    (root / "pdf").mkdir()
    text_pdf(root / "pdf/good.pdf", ["First page about volcanoes.", "Second page about tides."])
    expect["pdf/good.pdf"] = ("index", "")
    encrypted_pdf(root / "pdf/encrypted.pdf", ["a secret page"])
    expect["pdf/encrypted.pdf"] = ("skipped", "password-protected PDF")
    image_only_pdf(root / "pdf/scanned.pdf")
    expect["pdf/scanned.pdf"] = ("skipped", "no extractable text")
    malformed_pdf(root / "pdf/malformed.pdf")
    expect["pdf/malformed.pdf"] = ("skipped", "PDF")
    (root / "pdf/not-a-pdf.pdf").write_text("plain text with a .pdf suffix")
    expect["pdf/not-a-pdf.pdf"] = ("skipped", "not a PDF")
    compression_bomb_pdf(root / "pdf/bomb.pdf", expanded_mib=bomb_mib)
    expect["pdf/bomb.pdf"] = ("skipped", "PDF")
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"
    raw_pdf(root / "pdf/cyclic.pdf", [b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>", page])
    expect["pdf/cyclic.pdf"] = ("skipped", "PDF")
    kids = b"<< /Type /Pages /Kids [" + b"3 0 R " * 200_000 + b"] /Count 200000 >>"
    raw_pdf(root / "pdf/page-bomb.pdf", [kids, page])
    expect["pdf/page-bomb.pdf"] = ("skipped", "PDF")

    # a deep tree (iteratively: Path.mkdir(parents=True) would recurse)
    folder = os.fsencode(root / "deep")
    os.mkdir(folder)
    for _ in range(DEEP_LEVELS):
        folder += b"/d"
        os.mkdir(folder)
    with open(folder + b"/bottom.txt", "wb") as handle:
        handle.write(b"At the bottom of a very deep tree.")
    expect[DEEP_REL] = ("index", "")
    return expect


def remove(root: Path) -> None:
    """Undo what pytest's recursive cleanup cannot: permissions and the deep tree."""
    for rel in ("locked", "secret.txt"):
        if (root / rel).exists():
            os.chmod(root / rel, 0o700)
    folder = os.fsencode(root / "deep")
    depth = 0
    while os.path.isdir(folder + b"/d"):
        folder += b"/d"
        depth += 1
    if os.path.exists(folder + b"/bottom.txt"):
        os.unlink(folder + b"/bottom.txt")
    for _ in range(depth):
        os.rmdir(folder)
        folder = os.path.dirname(folder)


# -- the child --------------------------------------------------------------------------------------


def run(spec: dict[str, Any]) -> dict[str, Any]:
    from kortty_rag.config.registry import StoreRegistry
    from kortty_rag.extract.pdf import PdfExtractor, PdfLimits
    from kortty_rag.index.factory import open_vector_store
    from kortty_rag.models import SourceOptions
    from kortty_rag.sources import scan
    from kortty_rag.sync import pipeline
    from kortty_rag.sync.session import StoreSession
    from tests.helpers.fakes import HashEmbedder

    timings: dict[str, dict[str, float]] = {"scan": {}, "extract": {}}
    real_file = scan._Walk.file
    real_extract = pipeline.open_document

    def timed_file(walk: Any, path: Path, rel: str, *args: Any, **kwargs: Any) -> bool:
        started = time.monotonic()
        try:
            return bool(real_file(walk, path, rel, *args, **kwargs))
        finally:
            timings["scan"][rel] = time.monotonic() - started

    def timed_extract(path: Path, *args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        try:
            return real_extract(path, *args, **kwargs)
        finally:
            timings["extract"][str(path)] = time.monotonic() - started

    scan._Walk.file = timed_file  # type: ignore[method-assign]
    pipeline.open_document = timed_extract
    embedder = HashEmbedder()
    registry = StoreRegistry()
    store = registry.create("Hostile", embedder.identity)
    limits = PdfLimits(spec["pdf_timeout"], spec["pdf_memory"])
    started = time.monotonic()
    with StoreSession(store, registry=registry) as job:
        job._pdf.close()
        job._pdf = PdfExtractor(limits)  # the limits under test, smaller than the defaults
        options = SourceOptions(max_file_size=spec["max_file_size"])
        review = job.review_new_sources([Path(spec["root"])], options=options)
        scanned = time.monotonic() - started
        summary = job.apply(review, embedder)
    vectors = open_vector_store(registry.get("Hostile"))
    documents = [d.rel_path for d in vectors.documents()]
    vectors.close()
    return {
        "rows": [
            {"rel": r.rel_path, "status": r.status.value, "reason": r.reason} for r in review.rows
        ],
        "failed": summary.to_json()["sources"][0]["failed"],  # type: ignore[index]
        "indexed": sorted(documents),
        "timings": timings,
        "scan_seconds": scanned,
        "total_seconds": time.monotonic() - started,
    }


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    result = run(json.loads(Path(sys.argv[1]).read_text()))
    print(json.dumps(result))

"""Hostile store archives (docs/DESIGN.md §14): a few kilobytes of archive never make an import
write gigabytes. Each archive here is refused with an error that names the problem, the import
writes at most the archive's own size plus :data:`ALLOWANCE`, and no store and no leftover remains.

The archives are written byte by byte in this file — ustar headers with their checksums, PAX
records, GNU sparse maps, GNU long-name records — by code that shares nothing with the product's
reader; only the good archive they start from is the product's own export of a store indexed with
the fake embedder. The bytes an import writes are counted by the kernel: each import runs in a child
(``tests/helpers/write_meter.py``) that reports its ``wchar`` (every byte handed to a write call),
under an RLIMIT_FSIZE of archive size + :data:`ALLOWANCE` per file, so a failing run cannot fill
the disk. A good import is metered too: its count must cover the snapshot it wrote.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import subprocess
import sys
import tarfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.helpers.reliability import make_corpus, record_figure

REPO = Path(__file__).resolve().parents[2]
#: what an import may write beyond the archive's size: two store definitions (each written to a
#: temporary file and renamed), the pointer, the lock's holder note and the CLI's own output
ALLOWANCE = 64 << 10
GIB = 1 << 30
DECLARED = 3 * GIB  # the finding: a 7.7 KB archive made the import write 3 GiB
VECTORS = "snapshot/vectors.hnsw"
CHUNKS = "snapshot/chunks.sqlite"
LEXICAL = "snapshot/lexical.npz"

# -- a tar written by hand ------------------------------------------------------------------------


def _octal(value: int, width: int) -> bytes:
    return b"%0*o\0" % (width - 1, value)


def ustar(
    name: str,
    size: int,
    kind: bytes = b"0",
    *,
    magic: bytes = b"ustar\x0000",
    size_field: bytes | None = None,
    tail: dict[int, bytes] | None = None,
) -> bytes:
    """One 512-byte tar header with a correct checksum (POSIX layout; ``tail`` overwrites bytes
    from an offset on, for the fields of GNU's old sparse header)."""
    block = bytearray(512)
    encoded = name.encode()
    assert len(encoded) <= 100
    block[0 : len(encoded)] = encoded
    block[100:108] = _octal(0o600, 8)
    block[108:116] = _octal(0, 8)
    block[116:124] = _octal(0, 8)
    block[124:136] = size_field if size_field is not None else _octal(size, 12)
    block[136:148] = _octal(1_700_000_000, 12)
    block[156:157] = kind
    block[257:265] = magic
    for offset, value in (tail or {}).items():
        block[offset : offset + len(value)] = value
    block[148:156] = b" " * 8
    block[148:156] = b"%06o\0 " % sum(block)
    return bytes(block)


def padded(data: bytes) -> bytes:
    return data + bytes(-len(data) % 512)


def regular(name: str, data: bytes, **header: Any) -> bytes:
    return ustar(name, len(data), **header) + padded(data)


def pax_record(key: str, value: str) -> bytes:
    body = f" {key}={value}\n".encode()
    length = len(body) + 1
    while len(str(length)) + len(body) != length:
        length += 1
    return str(length).encode() + body


def pax(records: list[tuple[str, str]], kind: bytes = b"x") -> bytes:
    data = b"".join(pax_record(k, v) for k, v in records)
    return regular("./PaxHeaders/member", data, kind=kind)


END = bytes(1024)


def base256(value: int) -> bytes:
    return bytes([0x80]) + value.to_bytes(11, "big")


# -- archives -------------------------------------------------------------------------------------


def read_good(archive: Path) -> dict[str, bytes]:
    with tarfile.open(archive) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]


def header_json(good: dict[str, bytes], **sizes: int) -> bytes:
    """The good archive's header with other declared file sizes (``vectors_hnsw=…``)."""
    data = json.loads(good["kortty-rag-export.json"])
    for key, size in sizes.items():
        data["files"][key.replace("_", ".")]["size"] = size
    return json.dumps(data, indent=2).encode()


def start(good: dict[str, bytes], **sizes: int) -> bytes:
    """The header and the manifest, as export writes them (``sizes`` changes declared sizes)."""
    return regular("kortty-rag-export.json", header_json(good, **sizes)) + regular(
        "snapshot/manifest.json", good["snapshot/manifest.json"]
    )


def tiny_rest() -> bytes:
    """One-byte chunk table and lexical index: what follows the vectors in the finding's archive."""
    return regular(CHUNKS, b"c") + regular(LEXICAL, b"l") + END


def rest(good: dict[str, bytes]) -> bytes:
    return regular(CHUNKS, good[CHUNKS]) + regular(LEXICAL, good[LEXICAL]) + END


def sparse_1_0(good: dict[str, bytes]) -> bytes:
    """The finding: GNU sparse format 1.0 in PAX records, 3 GiB of holes and one byte of data."""
    sparse_map = padded(b"1\n%d\n1\n" % (DECLARED - 1))
    member = pax(
        [
            ("GNU.sparse.major", "1"),
            ("GNU.sparse.minor", "0"),
            ("GNU.sparse.name", VECTORS),
            ("GNU.sparse.realsize", str(DECLARED)),
        ]
    ) + regular("snapshot/GNUSparseFile.0/vectors.hnsw", sparse_map + b"v")
    return start(good, vectors_hnsw=DECLARED, chunks_sqlite=1, lexical_npz=1) + member + tiny_rest()


def sparse_0_1(good: dict[str, bytes]) -> bytes:
    member = pax(
        [
            ("GNU.sparse.size", str(DECLARED)),
            ("GNU.sparse.numblocks", "1"),
            ("GNU.sparse.map", f"{DECLARED - 1},1"),
            ("path", VECTORS),
        ]
    ) + regular(VECTORS, b"v")
    return start(good, vectors_hnsw=DECLARED, chunks_sqlite=1, lexical_npz=1) + member + tiny_rest()


def sparse_old_gnu(good: dict[str, bytes]) -> bytes:
    """GNU's own sparse header (type ``S``): the map and the real size inside the header."""
    fields = {
        386: _octal(DECLARED - 1, 12) + _octal(1, 12),  # one (offset, length) pair
        483: _octal(DECLARED, 12),  # the real size
    }
    member = ustar(VECTORS, 1, b"S", magic=b"ustar  \0", tail=fields) + padded(b"v")
    return start(good, vectors_hnsw=DECLARED, chunks_sqlite=1, lexical_npz=1) + member + tiny_rest()


def gnu_long_name(good: dict[str, bytes]) -> bytes:
    """A GNU long-name record renaming an innocent member into the vectors file."""
    name = regular("././@LongLink", VECTORS.encode() + b"\0", kind=b"L", magic=b"ustar  \0")
    member = name + regular("innocent.bin", good[VECTORS], magic=b"ustar  \0")
    return start(good) + member + rest(good)


def pax_rename(good: dict[str, bytes]) -> bytes:
    member = pax([("path", VECTORS)]) + regular("notes.txt", good[VECTORS])
    return start(good) + member + rest(good)


def pax_linkpath(good: dict[str, bytes]) -> bytes:
    member = pax([("linkpath", "/etc/passwd")]) + regular(VECTORS, good[VECTORS])
    return start(good) + member + rest(good)


def pax_size(good: dict[str, bytes]) -> bytes:
    member = pax([("size", str(DECLARED))]) + regular(VECTORS, good[VECTORS])
    return start(good, vectors_hnsw=DECLARED) + member + rest(good)


def global_header(good: dict[str, bytes]) -> bytes:
    return (
        pax([("comment", "applies to every later member")], kind=b"g")
        + start(good)
        + (regular(VECTORS, good[VECTORS]) + rest(good))
    )


def base256_size(good: dict[str, bytes]) -> bytes:
    member = ustar(VECTORS, 0, size_field=base256(DECLARED)) + padded(good[VECTORS])
    return start(good, vectors_hnsw=DECLARED) + member + rest(good)


def beyond_the_archive(good: dict[str, bytes]) -> bytes:
    """A plain header whose octal size (3 GiB, which fits) is far more than the file holds."""
    member = ustar(VECTORS, DECLARED) + padded(good[VECTORS])
    return start(good, vectors_hnsw=DECLARED) + member + rest(good)


def contiguous(good: dict[str, bytes]) -> bytes:
    """Type ``7`` (a "contiguous file"): tarfile calls it regular, export never writes it."""
    member = regular(VECTORS, good[VECTORS], kind=b"7")
    return start(good) + member + rest(good)


#: name → (builder, the words the error must contain)
CASES: dict[str, tuple[Callable[[dict[str, bytes]], bytes], str]] = {
    "GNU sparse 1.0, 3 GiB (the finding)": (sparse_1_0, "is a sparse file"),
    "GNU sparse 0.1, 3 GiB": (sparse_0_1, "is a sparse file"),
    "old GNU sparse (type S), 3 GiB": (sparse_old_gnu, "is a sparse file"),
    "GNU long-name record": (gnu_long_name, "GNU long-name records"),
    "PAX path renames a member": (pax_rename, "renames it to 'snapshot/vectors.hnsw'"),
    "PAX linkpath on a regular member": (pax_linkpath, "sets 'linkpath'"),
    "PAX size disagrees (3 GiB)": (pax_size, "gives it '3221225472' bytes, its tar header"),
    "PAX global header": (global_header, "global extended header"),
    "base-256 size field (3 GiB)": (base256_size, "size in base-256"),
    "declared size beyond the archive (3 GiB)": (beyond_the_archive, "of the archive are left"),
    "contiguous file (type 7)": (contiguous, "is a link or a special file"),
}


# -- the store and the meter ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def good_archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A real export of a store indexed with the fake embedder (in its own KORTTY_HOME)."""
    from tests.helpers.storage_driver import run_job

    from kortty_rag.app.store_archive import export_store
    from kortty_rag.config.registry import StoreRegistry

    work = tmp_path_factory.mktemp("good-archive")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KORTTY_HOME", str(work / "home"))
        run_job("Orig", make_corpus(work / "docs", 20, random.Random(23)))
        registry = StoreRegistry()
        export_store(registry, registry.get("Orig"), work / "good.tar")
    yield work / "good.tar"


@pytest.fixture
def fake_model(kortty_home: Path) -> None:
    """The fake embedder's identity installed as a model record, so import accepts the archive."""
    from tests.helpers.fakes import HashEmbedder

    identity = HashEmbedder().identity
    folder = kortty_home / "models" / identity.model_id
    folder.mkdir(parents=True)
    (folder / "model.gguf").write_bytes(b"not a model: nothing loads it during an import")
    record = {
        "product": "kortty-rag",
        "id": identity.model_id,
        "name": identity.model_id,
        "file": "model.gguf",
        "sha256": identity.model_sha256,
        "size": 47,
        "architecture": "fake",
        "dimensions": identity.dimensions,
        "pooling": identity.pooling,
        "trained_tokens": 512,
        "chunk_tokens": identity.chunk_tokens,
        "query_prefix": identity.query_prefix,
        "document_prefix": identity.document_prefix,
        "origin": "import",
        "installed_at": "2026-01-01T00:00:00+00:00",
    }
    (folder / "model.json").write_text(json.dumps(record))


def metered_import(
    archive: Path, name: str, kortty_home: Path, limit: int
) -> tuple[subprocess.CompletedProcess[str], int]:
    """``kortty-rag store import ARCHIVE --name NAME`` in a metered child: its result and the
    bytes it wrote."""
    result_file = kortty_home.parent / f"meter-{name}.json"
    env = dict(os.environ, KORTTY_HOME=str(kortty_home), PYTHONDONTWRITEBYTECODE="1")
    command = ["store", "import", str(archive), "--name", name]
    meter = [sys.executable, "-m", "tests.helpers.write_meter", str(result_file), str(limit)]
    result = subprocess.run(
        [*meter, *command],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )
    return result, int(json.loads(result_file.read_text())["written"])


def home_listing(kortty_home: Path) -> list[str]:
    """Everything under KORTTY_HOME but the folders the registry makes on first use."""
    paths = (str(p.relative_to(kortty_home)) for p in kortty_home.rglob("*"))
    return sorted(p for p in paths if p not in ("rag", "rag/stores"))


def refused_within_bound(
    bad: Path, kortty_home: Path, words: str, case: str, bound: int
) -> dict[str, Any]:
    before = home_listing(kortty_home)
    result, written = metered_import(bad, "Evil", kortty_home, limit=bound)
    figures = {"case": case, "archive_bytes": bad.stat().st_size, "written_bytes": written}
    record_figure("hostile archive import", **figures, bound_bytes=bound)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr
    assert "cannot be imported" in result.stderr and words in result.stderr, result.stderr
    assert written <= bound, figures
    assert home_listing(kortty_home) == before  # no store, no temporary snapshot, no leftover
    return figures


# -- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_archive_is_refused_and_writes_at_most_its_own_size(
    case: str, good_archive: Path, fake_model: None, kortty_home: Path, tmp_path: Path
) -> None:
    build, words = CASES[case]
    bad = tmp_path / "bad.tar"
    bad.write_bytes(build(read_good(good_archive)))
    bound = bad.stat().st_size + ALLOWANCE
    if case.startswith("GNU sparse 1.0"):
        # the meter sees what a good import writes: at least its snapshot, at most the bound
        good_bound = good_archive.stat().st_size + ALLOWANCE
        result, written = metered_import(good_archive, "Good", kortty_home, good_bound)
        assert result.returncode == 0, result.stderr
        snapshot = sum(len(v) for k, v in read_good(good_archive).items() if "snapshot/" in k)
        assert snapshot <= written <= good_bound
        record_figure(
            "good archive import",
            archive_bytes=good_archive.stat().st_size,
            snapshot_bytes=snapshot,
            written_bytes=written,
        )
        assert bad.stat().st_size < 16 << 10  # a few KB, like the finding's 7.7 KB
        with tarfile.open(bad) as tar:  # what the import used to trust: a regular file of 3 GiB
            vectors = tar.getmember(VECTORS)
            assert vectors.isreg() and vectors.size == DECLARED
    refused_within_bound(bad, kortty_home, words, case, bound)


def test_a_file_over_the_per_file_limit_is_refused_before_it_is_copied(
    good_archive: Path, fake_model: None, kortty_home: Path, tmp_path: Path
) -> None:
    """An archive that really holds 300 GiB of vectors (a hole in the file system, so the test
    costs no disk): everything is where the header says, but one file is over the limit."""
    good = read_good(good_archive)
    declared = 300 * GIB
    member = pax([("size", str(declared))]) + ustar(VECTORS, 0)
    bad = tmp_path / "huge.tar"
    with bad.open("wb") as out:
        out.write(start(good, vectors_hnsw=declared) + member)
        out.seek(out.tell() + declared)  # the member's bytes: a hole, read as zeros
        out.write(rest(good))
    assert bad.stat().st_size > declared
    assert bad.stat().st_blocks * 512 < 64 << 20  # the file system really left a hole
    before = sum(len(v) for v in good.values())  # header and manifest are in there
    figures = refused_within_bound(
        bad, kortty_home, "more than the limit of 256.0 GiB for one file", "300 GiB", before
    )
    assert figures["written_bytes"] <= ALLOWANCE


def test_an_archive_from_a_pipe_is_refused_before_it_is_read(
    good_archive: Path, fake_model: None, kortty_home: Path
) -> None:
    """A pipe has no size to bound the members by: import asks for a file (``<(cat FILE)`` used
    to be read as a stream)."""
    command = shlex.join([sys.executable, "-m", "kortty_rag", "store", "import"])
    script = f"{command} <(cat {shlex.quote(str(good_archive))}) --name Piped"
    before = home_listing(kortty_home)
    result = subprocess.run(
        ["bash", "-c", script],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=dict(os.environ, KORTTY_HOME=str(kortty_home)),
        timeout=300,
        check=False,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "cannot be imported: it is not a regular file" in result.stderr
    assert "Save the archive to a file first" in result.stderr
    assert home_listing(kortty_home) == before

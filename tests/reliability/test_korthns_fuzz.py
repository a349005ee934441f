"""korTTY's ``index.hnsw`` reader against damaged and hostile files (docs/DESIGN.md §14): every
malformed file is a :class:`KorttyFormatError` naming the file — never another exception, never a
large allocation from a claimed length. The files are written by ``tests/helpers/kortty_writer``,
which follows the format's description and shares nothing with the reader."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from tests.helpers.fuzz import FUZZ
from tests.helpers.kortty_writer import Node, korthns_bytes

from kortty_rag.kortty_files import hnsw as korthns
from kortty_rag.kortty_files.hnsw import KorttyFormatError, read_korthns

DIMS = 8


def nodes(count: int = 5) -> list[Node]:
    rng = np.random.default_rng(3)
    return [
        Node(
            "src-a" if i % 2 else "src-b",
            f"doc{i // 2}.pdf" if i % 2 else f"notes/doc{i}.md",
            "ab" * 32,
            i,
            i * 10,
            i * 10 + 9,
            f"chunk text {i} — äöü",
            rng.normal(size=DIMS).astype(np.float32),
            {"page": str(i + 1), "format": ".pdf"} if i % 2 else {"format": ".md"},
        )
        for i in range(count)
    ]


@pytest.mark.parametrize("version", [1, 2])
def test_valid_files_read_back(tmp_path: Path, version: int) -> None:
    written = nodes()
    path = tmp_path / "index.hnsw"
    path.write_bytes(korthns_bytes(written, version=version, dimensions=DIMS, model_id="m-1"))
    snap = read_korthns(path)
    assert (snap.version, snap.dimensions, snap.model_id) == (version, DIMS, "m-1")
    assert [c.text for c in snap.chunks] == [n.text for n in written]
    assert [c.page for c in snap.chunks] == [None, 2, None, 4, None]
    expected = np.vstack([n.vector for n in written])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(snap.vectors, expected, rtol=1e-6)
    empty = tmp_path / "empty.hnsw"
    empty.write_bytes(korthns_bytes([], version=version, dimensions=DIMS, model_id="m-1"))
    assert len(read_korthns(empty).chunks) == 0


def good(version: int = 2) -> bytes:
    return korthns_bytes(nodes(), version=version, dimensions=DIMS, model_id="m-1")


def patched(data: bytes, offset: int, fmt: str, value: object) -> bytes:
    out = bytearray(data)
    struct.pack_into(fmt, out, offset, value)
    return bytes(out)


HEADER = len(b"KORTHNS1")
MODEL_AT = HEADER + 8  # after version and dimensions
COUNT_AT_V2 = MODEL_AT + 4 + len("m-1") + 12
FIRST_NODE = COUNT_AT_V2 + 4


def hostile() -> dict[str, bytes]:
    data = good()
    huge_string = patched(data, FIRST_NODE, ">i", 64 * 1024 * 1024)  # the first chunk id's length
    return {
        "wrong magic": b"KORTHNS2" + data[HEADER:],
        "version 3": patched(data, HEADER, ">i", 3),
        "zero dimensions": patched(data, HEADER + 4, ">i", 0),
        "negative model id length": patched(data, MODEL_AT, ">i", -5),
        "M zero": patched(data, MODEL_AT + 4 + 3, ">i", 0),
        "entry point out of range": patched(data, MODEL_AT + 4 + 3 + 4, ">i", 99),
        "max level wrong": patched(data, MODEL_AT + 4 + 3 + 8, ">i", 5),
        "node count beyond the file": patched(data, COUNT_AT_V2, ">i", 4_000_000),
        "node count above the limit": patched(data, COUNT_AT_V2, ">i", 5_000_001),
        "negative node count": patched(data, COUNT_AT_V2, ">i", -1),
        "64 MiB string in a small file": huge_string,
        "string longer than the limit": patched(data, FIRST_NODE, ">i", 64 * 1024 * 1024 + 1),
        "trailing bytes": data + b"\0\0\0\0",
        "truncated": data[:-3],
        "empty": b"",
        "not utf-8": data.replace("äöü".encode(), b"\xff\xfe\xfd\xfc\xfb\xfa", 1),
        "not a finite vector": data.replace(
            np.asarray(nodes()[0].vector, dtype=">f4").tobytes(),
            np.asarray([np.nan] * DIMS, dtype=">f4").tobytes(),
            1,
        ),
    }


@pytest.mark.parametrize("name", list(hostile()))
def test_hostile_files_are_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / "index.hnsw"
    path.write_bytes(hostile()[name])
    with pytest.raises(KorttyFormatError) as refused:
        read_korthns(path)
    assert str(path) in refused.value.message


def test_graph_damage_is_refused(tmp_path: Path) -> None:
    """Neighbour lists korTTY itself would refuse: out of range, the node itself, twice, too many."""
    base = korthns_bytes(nodes(3), version=2, dimensions=DIMS, model_id="m-1")
    # node 0's base-layer list is ">i 2, >i 1, >i 2" right after its level (1); find it
    level_and_ring = struct.pack(">iiii", 1, 2, 1, 2)
    at = base.index(level_and_ring)
    cases = {
        "out of range": patched(base, at + 8, ">i", 7),
        "itself": patched(base, at + 8, ">i", 0),
        "twice": patched(base, at + 12, ">i", 1),
        "level too high": patched(base, at, ">i", 40),
        "too many": patched(base, at + 4, ">i", 1000),
    }
    for label, data in cases.items():
        path = tmp_path / f"{label.replace(' ', '-')}.hnsw"
        path.write_bytes(data)
        with pytest.raises(KorttyFormatError, match=r"neighbour|level"):
            read_korthns(path)


@pytest.mark.parametrize("version", [1, 2])
def test_every_truncation_is_refused(tmp_path: Path, version: int) -> None:
    data = good(version)
    path = tmp_path / "index.hnsw"
    for length in range(len(data)):
        path.write_bytes(data[:length])
        with pytest.raises(KorttyFormatError):
            read_korthns(path)


@FUZZ
@given(
    flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 7)), min_size=1, max_size=8),
    version=st.sampled_from([1, 2]),
)
@example(flips=[(528, 5)], version=1)  # a huge but finite float: its square overflowed float32
def test_bit_flips_are_refused_or_read(
    tmp_path_factory: pytest.TempPathFactory, flips: list[tuple[int, int]], version: int
) -> None:
    data = bytearray(good(version))
    for offset, bit in flips:
        data[offset % len(data)] ^= 1 << bit
    path = tmp_path_factory.mktemp("flip") / "index.hnsw"
    path.write_bytes(bytes(data))
    try:
        snap = read_korthns(path)
    except KorttyFormatError:
        return
    # a flip inside text or a float can leave a well-formed file: then it is read consistently
    assert len(snap.chunks) == len(snap.vectors)
    assert np.isfinite(snap.vectors).all()
    np.testing.assert_allclose(
        np.linalg.norm(snap.vectors.astype(np.float64), axis=1), 1, rtol=1e-5
    )


# -- issue 23, item 6: repeated chunks, the size limit, files that are not files ----------------------


def repeated(kind: str) -> bytes:
    """Five valid nodes, then node 3 made to repeat node 1: the same chunk (so the same chunk id),
    another chunk id at the same place (page and offsets) of the same document, or a path with NUL."""
    written = nodes()
    first = written[1]
    if kind == "chunk id":
        written[3] = first
    elif kind == "place":
        written[3] = Node(
            first.source_id,
            first.document_path,
            first.document_hash,
            99,  # another chunk index: another korTTY chunk id
            first.start,
            first.end,
            "other text at the same place",
            written[3].vector,
            dict(first.metadata),
        )
    else:
        written[3].document_path = "notes/a\0b.md"
    return korthns_bytes(written, version=2, dimensions=DIMS, model_id="m-1")


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("chunk id", f"it holds chunk id '{nodes()[1].chunk_id}' twice (nodes 1 and 3)"),
        ("place", "it holds two chunks of 'doc0.pdf' at the same place (offsets 10..19): nodes 1 and 3"),
        ("NUL", "the document path 'notes/a\\x00b.md' holds a NUL character, which no file's path can"),
    ],
)  # fmt: skip
def test_repeated_chunks_are_refused_in_words(tmp_path: Path, kind: str, words: str) -> None:
    """Two chunks of one index that would get the same chunk id here: said as that, not as the
    snapshot's UNIQUE constraint failing later (a NUL in a path could join two ids' keys)."""
    path = tmp_path / "index.hnsw"
    path.write_bytes(repeated(kind))
    with pytest.raises(KorttyFormatError) as refused:
        read_korthns(path)
    assert refused.value.message == f"The korTTY index {path} cannot be read: {words}"


def test_a_repeat_on_another_page_is_not_one(tmp_path: Path) -> None:
    """The same offsets on another PDF page are another place (korTTY counts offsets per page)."""
    written = nodes()
    written[3] = Node(**{**written[1].__dict__, "chunk_index": 99, "metadata": {"page": "7"}})
    path = tmp_path / "index.hnsw"
    path.write_bytes(korthns_bytes(written, version=1, dimensions=DIMS, model_id="m-1"))
    assert [c.page for c in read_korthns(path).chunks] == [None, 2, None, 7, None]


def test_a_page_of_other_digits_is_no_page(tmp_path: Path) -> None:
    """ "²" is a digit to ``str.isdigit`` but no number to ``int``: it used to raise ValueError."""
    written = nodes(2)
    written[1].metadata["page"] = "²"
    path = tmp_path / "index.hnsw"
    path.write_bytes(korthns_bytes(written, version=2, dimensions=DIMS, model_id="m-1"))
    assert [c.page for c in read_korthns(path).chunks] == [None, None]


#: the documented limit (docs/DESIGN.md §14): 1 GiB
LIMIT = 1 << 30


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A sparse file one byte over the limit, with a valid start: refused from its size alone,
    naming the limit, in well under a second."""
    path = tmp_path / "index.hnsw"
    path.write_bytes(good())
    os.truncate(path, LIMIT + 1)
    began = time.monotonic()
    with pytest.raises(KorttyFormatError) as refused:
        read_korthns(path)
    assert time.monotonic() - began < 1
    assert refused.value.message == (
        f"The korTTY index {path} cannot be read: it is 1,073,741,825 bytes, more than the "
        "1,073,741,824 bytes (MAX_FILE_BYTES) kortty-rag reads of a korTTY index"
    )
    assert korthns.MAX_FILE_BYTES == LIMIT


def test_the_size_limit_is_inclusive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "index.hnsw"
    path.write_bytes(good())
    monkeypatch.setattr(korthns, "MAX_FILE_BYTES", len(good()))
    assert len(read_korthns(path)) == 5
    monkeypatch.setattr(korthns, "MAX_FILE_BYTES", len(good()) - 1)
    with pytest.raises(KorttyFormatError, match="MAX_FILE_BYTES"):
        read_korthns(path)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    """Opening a FIFO for reading waits for a writer: the reader must not (checked in a child, so
    that the old behaviour fails the test instead of hanging it)."""
    path = tmp_path / "index.hnsw"
    os.mkfifo(path)
    code = (
        "import sys; from pathlib import Path\n"
        "from kortty_rag.kortty_files.hnsw import KorttyFormatError, read_korthns\n"
        "try:\n    read_korthns(Path(sys.argv[1]))\n"
        "except KorttyFormatError as e:\n    print(e.message)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(path)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("reading a FIFO waited for a writer")
    assert (
        done.stdout.strip()
        == f"The korTTY index {path} cannot be read: it is a FIFO (named pipe), not a regular file"
    )


@pytest.mark.parametrize(
    "document", ["../.ssh/id_rsa", "/etc/passwd", "notes/./a.md", "a//b.md", ""]
)
def test_a_document_outside_its_source_is_refused(tmp_path: Path, document: str) -> None:
    """A korTTY document path that names no file inside its source would make a citation point at
    a file nothing read (found by a walkthrough for archives; the same holds for korTTY's index)."""
    written = nodes(2)
    written[1].document_path = document
    path = tmp_path / "index.hnsw"
    path.write_bytes(korthns_bytes(written, version=2, dimensions=DIMS, model_id="m-1"))
    with pytest.raises(KorttyFormatError, match="names no file inside its source"):
        read_korthns(path)

"""korTTY's ``index.hnsw`` reader against damaged and hostile files (docs/DESIGN.md §14): every
malformed file is a :class:`KorttyFormatError` naming the file — never another exception, never a
large allocation from a claimed length. The files are written by ``tests/helpers/kortty_writer``,
which follows the format's description and shares nothing with the reader."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from tests.helpers.fuzz import FUZZ
from tests.helpers.kortty_writer import Node, korthns_bytes

from kortty_rag.index.korthns import KorttyFormatError, read_korthns

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
    assert read_korthns(empty).chunks == ()


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

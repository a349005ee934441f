"""Reading korTTY's local index, ``index.hnsw`` (``KORTHNS1``), for ``kortty-rag import kortty``
(docs/DESIGN.md §14). Written from the format's description, for reading only; korTTY's files are
opened read-only and never changed.

Big-endian, as Java's ``DataOutputStream`` writes: the magic ``KORTHNS1``; int version (1 or 2); int
dimensions; string model id; for version 2 int M, int entry point, int max level; int node count
(≤ 5,000,000); then per node the chunk — strings id, source id, document path, document hash; ints
chunk index, start offset, end offset; string text; int metadata count (≤ 1,000) and that many
key/value strings — then ``dimensions`` float32, and for version 2 an int level (≤ 32) with, for each
layer 0..level, an int count and that many int neighbour indices; version 1 has one neighbour list
instead. A string is an int byte length (≤ 64 MiB) and UTF-8 bytes.

Everything is checked before it is trusted: the file's size against :data:`MAX_FILE_BYTES` (from
``fstat``, before a byte is read), every length against what is left of the file (a claimed 64 MiB
string in a small file is refused before anything is allocated), the node count against the smallest
size a node can have, every neighbour index and level as korTTY checks them, every vector for finite
values, every chunk id once and every place in a document once, and the file must end where the last
node does. Damage of any kind is a :class:`KorttyFormatError` naming the file and what is wrong.

Memory: the file is read once into one buffer and the graph is checked in it; what stays are numpy
columns (the unit vectors and 20 bytes per node), and a chunk becomes Python strings only when it is
asked for (:meth:`KorttySnapshot.documents` gives one document at a time). Reading holds at most
:data:`MEMORY_MULTIPLE` times the file's size (measured: ``tests/reliability/test_korthns_memory.py``).
"""

from __future__ import annotations

import os
import stat
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import overload

import numpy as np

from kortty_rag.extract.safe_open import kind_of
from kortty_rag.kortty_files.hnsw_records import (
    MAX_METADATA,
    MAX_STRING,
    Cursor,
    KorttyChunk,
    KorttyFormatError,
    NodeColumns,
    chunk_at,
    damage,
    document_at,
)
from kortty_rag.messages import msg

MAGIC = b"KORTHNS1"
MAX_NODES = 5_000_000
MAX_LEVEL = 32
MAX_M = 10_000
MAX_DIMENSIONS = 8192
#: the largest ``index.hnsw`` read (1 GiB). korTTY holds its whole index in the Java heap, twice while
#: it replaces a source, so a larger one is not a working korTTY store; reading one here takes up to
#: :data:`MEMORY_MULTIPLE` times this. A larger file is refused and its sources are indexed instead.
MAX_FILE_BYTES = 1 << 30
#: reading a file holds at most this multiple of its size beyond what the process held before: the
#: file once, the vectors (never more than the file), and at most 62 bytes of columns and sorting
#: per node, whose smallest possible record is 44 bytes — under 2.5× for any file (about 1.0–1.5×
#: for korTTY's), plus about 3 MiB for checking the vectors in blocks
MEMORY_MULTIPLE = 4
_MODEL_ID = msg("the model id")
#: a FIFO must not block the open (``fstat`` then refuses it); a link to the file is followed
_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)

__all__ = [
    "MAX_METADATA",
    "MAX_STRING",
    "KorttyChunk",
    "KorttyChunks",
    "KorttyFormatError",
    "KorttySnapshot",
    "read_korthns",
]


@dataclass(frozen=True, eq=False)
class KorttySnapshot:
    version: int
    dimensions: int
    model_id: str
    #: one float32 row per chunk: korTTY's vector scaled to unit length
    vectors: np.ndarray
    _data: bytearray = field(repr=False)
    #: per node: where its chunk record starts in ``_data``
    _records: np.ndarray = field(repr=False)
    #: per node: a keyed digest of its source id and document path, and its chunk index
    _document_keys: np.ndarray = field(repr=False)
    _chunk_index: np.ndarray = field(repr=False)

    def __len__(self) -> int:
        return len(self._records)

    def chunk(self, row: int, *, text: bool = True) -> KorttyChunk:
        """The chunk of node ``row``, decoded from the file's bytes now (its text left empty unless
        ``text``: one text can be 64 MiB, up to 256 MiB as a Python string)."""
        return chunk_at(self._data, int(self._records[row]), text=text)

    @property
    def chunks(self) -> KorttyChunks:
        """Every chunk, in file order, each decoded when it is asked for."""
        return KorttyChunks(self)

    def documents(self) -> Iterator[np.ndarray]:
        """The rows of each document (same source id and document path) in chunk-index order (file
        order among equal indices), one document at a time; :meth:`chunk` decodes each row."""
        if not len(self):
            return
        order = np.lexsort((self._chunk_index, self._document_keys))
        keys = self._document_keys[order]
        bounds = np.append(np.flatnonzero(keys[1:] != keys[:-1]) + 1, len(order))
        del keys
        start = 0
        for end in bounds:
            rows = order[start:end]
            start = int(end)
            first = self._document(rows[0])
            if all(self._document(row) == first for row in rows[1:]):
                yield rows
                continue
            # two documents whose digests are equal (a chance of 2**-64 a pair): split, order kept
            groups: dict[bytes, list[int]] = {}
            for at, row in enumerate(rows):
                groups.setdefault(self._document(row), []).append(at)
            for ats in groups.values():
                yield rows[ats]

    def _document(self, row: np.integer) -> bytes:
        return document_at(self._data, int(self._records[row]))


class KorttyChunks(Sequence[KorttyChunk]):
    """A snapshot's chunks as a sequence; each is decoded from the file's bytes when it is read."""

    def __init__(self, snapshot: KorttySnapshot) -> None:
        self._snapshot = snapshot

    def __len__(self) -> int:
        return len(self._snapshot)

    @overload
    def __getitem__(self, index: int) -> KorttyChunk: ...
    @overload
    def __getitem__(self, index: slice) -> list[KorttyChunk]: ...
    def __getitem__(self, index: int | slice) -> KorttyChunk | list[KorttyChunk]:
        if isinstance(index, slice):
            return [self._snapshot.chunk(row) for row in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self._snapshot.chunk(index % len(self))


def read_korthns(path: Path) -> KorttySnapshot:
    """Read and check a korTTY ``index.hnsw``; raises :class:`KorttyFormatError`."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        raise KorttyFormatError(
            msg("Cannot open the korTTY index {path} ({reason})", path=path, reason=exc.strerror)
        ) from exc
    try:
        data = _read_file(fd, path)
    except OSError as exc:
        raise damage(
            path, msg("reading failed ({reason})", reason=exc.strerror or str(exc))
        ) from exc
    finally:
        os.close(fd)
    return _read(Cursor(data, path))


def _read_file(fd: int, path: Path) -> bytearray:
    """The whole file, if it is a regular file of at most :data:`MAX_FILE_BYTES` (from ``fstat``,
    before a byte is read), in one buffer of exactly its size."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise damage(path, msg("it is a {kind}, not a regular file", kind=kind_of(info.st_mode)))
    if info.st_size > MAX_FILE_BYTES:
        raise damage(
            path,
            msg(
                "it is {size} bytes, more than the {limit} bytes (MAX_FILE_BYTES) kortty-rag "
                "reads of a korTTY index",
                size=f"{info.st_size:,}",
                limit=f"{MAX_FILE_BYTES:,}",
            ),
        )
    data = bytearray(info.st_size)
    with memoryview(data) as view:
        got = 0
        while got < len(data):
            step = os.readv(fd, [view[got:]])
            if not step:  # it shrank since fstat
                raise damage(path, msg("it ends in the middle of a record (truncated)"))
            got += step
    return data


def _read(c: Cursor) -> KorttySnapshot:
    if c.data[c.skip(len(MAGIC)) : c.pos] != MAGIC:
        raise c.fail(msg("it is not a korTTY index (no KORTHNS1 header)"))
    version = c.int32()
    if version not in (1, 2):
        raise c.fail(
            msg("its version {version} is not one this kortty-rag reads (1 or 2)", version=version)
        )
    dimensions = c.int32()
    if not 1 <= dimensions <= MAX_DIMENSIONS:
        raise c.fail(
            msg("its vector dimensions ({dimensions}) are impossible", dimensions=dimensions)
        )
    model_start = c.string(_MODEL_ID)
    model_id = c.data[model_start : c.pos].decode("utf-8")
    m = entry = max_level = 0
    if version == 2:
        m, entry, max_level = c.int32(), c.int32(), c.int32()
        if not 1 <= m <= MAX_M:
            raise c.fail(msg("its graph parameter M ({m}) is impossible", m=m))
    count = c.int32()
    # the smallest node: 4 empty strings, 3 ints, an empty text, no metadata, the vector, and a
    # level with an empty base layer (version 2) or an empty neighbour list (version 1)
    smallest = 4 * 4 + 3 * 4 + 4 + 4 + 4 * dimensions + (8 if version == 2 else 4)
    if count < 0 or count > MAX_NODES or count * smallest > c.left:
        raise c.fail(msg("its node count ({count}) does not fit the file", count=count))
    nodes = NodeColumns(count, dimensions)
    levels = np.zeros(count, dtype=np.int8)
    upper = array("q")  # where the level of each node above layer 0 is, for the second pass
    for index in range(count):
        nodes.read(c, index)
        if version == 1:
            _neighbours(c, index, count, count, layer=0)
            continue
        at = c.pos
        level = c.int32()
        if not 0 <= level <= MAX_LEVEL:
            raise c.fail(
                msg("node {node} has an impossible level ({level})", node=index, level=level)
            )
        levels[index] = level
        if level:
            upper.append(at)
        for layer in range(level + 1):
            _neighbours(c, index, count, min(count, 2 * m if layer == 0 else m), layer=layer)
    if c.left:
        raise c.fail(
            msg("{count} bytes follow the last node (damaged or not korTTY's)", count=c.left)
        )
    if version == 2:
        _check_graph(c, count, entry, max_level, levels=levels, upper=upper, nodes=nodes)
    del levels, upper
    nodes.check_unique(c)
    _unit_length(c, nodes.vectors)
    return KorttySnapshot(
        version,
        dimensions,
        model_id,
        nodes.vectors,
        c.data,
        nodes.records,
        nodes.documents,
        nodes.chunk_index,
    )


def _neighbours(c: Cursor, index: int, count: int, limit: int, *, layer: int) -> None:
    number = c.int32()
    if not 0 <= number <= limit:
        raise c.fail(
            msg(
                "node {node} has an impossible neighbour count ({count}) on layer {layer}",
                node=index,
                count=number,
                layer=layer,
            )
        )
    ids = np.frombuffer(c.data, ">i4", number, c.skip(4 * number))
    if number and (
        int(ids.min()) < 0
        or int(ids.max()) >= count
        or (ids == index).any()
        or len(np.unique(ids)) != number
    ):
        raise c.fail(
            msg("node {node} has an invalid neighbour on layer {layer}", node=index, layer=layer)
        )


def _check_graph(
    c: Cursor,
    count: int,
    entry: int,
    max_level: int,
    *,
    levels: np.ndarray,
    upper: array[int],
    nodes: NodeColumns,
) -> None:
    if count == 0:
        if entry != -1 or max_level != -1:
            raise c.fail(msg("an empty graph names an entry point"))
        return
    if not 0 <= entry < count:
        raise c.fail(msg("its entry point ({entry}) is not a node", entry=entry))
    if max_level != int(levels.max()) or int(levels[entry]) != max_level:
        raise c.fail(msg("its maximum level does not match its nodes"))
    # the links above layer 0, read again from the bytes now that every node's level is known
    for at in upper:
        c.pos = at
        level = c.int32()
        c.skip(4 * c.int32())  # layer 0
        for layer in range(1, level + 1):
            number = c.int32()
            ids = np.frombuffer(c.data, ">i4", number, c.skip(4 * number))
            if number and int(levels[ids].min()) < layer:
                node = int(np.searchsorted(nodes.records, at, side="right")) - 1
                raise c.fail(
                    msg("node {node} links to a node below layer {layer}", node=node, layer=layer)
                )
    c.pos = len(c.data)


def _unit_length(c: Cursor, vectors: np.ndarray) -> None:
    """Check every vector (finite, not zero) and scale it to unit length in place, in blocks of at
    most 1 MiB of float64: in float64, because a huge finite float32 squared overflows float32."""
    step = max(1, (1 << 20) // (8 * vectors.shape[1]))
    for start in range(0, len(vectors), step):
        block = vectors[start : start + step]
        finite = np.isfinite(block).all(axis=1)
        if not finite.all():
            raise c.fail(
                msg(
                    "the vector of node {node} holds a value that is not a finite number",
                    node=start + int(np.argmin(finite)),
                )
            )
        wide = block.astype(np.float64)
        norms = np.sqrt(np.einsum("ij,ij->i", wide, wide))
        if not (np.isfinite(norms) & (norms > 0)).all():
            raise c.fail(msg("a vector is all zeros or too large to be an embedding"))
        block[...] = np.divide(wide, norms[:, None], out=wide)

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

Everything is checked before it is trusted: every length against what is left of the file (a
claimed 64 MiB string in a small file is refused before anything is allocated), the node count
against the smallest size a node can have, every neighbour index and level as korTTY checks them,
every vector for finite values, and the file must end where the last node does. Damage of any kind
is a :class:`KorttyFormatError` naming the file and what is wrong.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from kortty_rag.errors import KorttyRagError
from kortty_rag.messages import msg

MAGIC = b"KORTHNS1"
MAX_NODES = 5_000_000
MAX_STRING = 64 * 1024 * 1024
MAX_METADATA = 1_000
MAX_LEVEL = 32
MAX_M = 10_000
MAX_DIMENSIONS = 8192
_INT = struct.Struct(">i")
# the strings of a record, as a damage report names them (made once: a file has millions)
_MODEL_ID = msg("the model id")
_CHUNK_ID = msg("the chunk id")
_SOURCE_ID = msg("the source id")
_DOCUMENT_PATH = msg("the document path")
_DOCUMENT_HASH = msg("the document hash")
_CHUNK_TEXT = msg("the chunk text")
_METADATA_KEY = msg("the metadata key")
_METADATA_VALUE = msg("the metadata value")


class KorttyFormatError(KorttyRagError):
    """A korTTY index file that cannot be read: damaged, truncated, hostile or of another version."""


@dataclass(frozen=True)
class KorttyChunk:
    chunk_id: str
    source_id: str
    document_path: str
    document_hash: str
    chunk_index: int
    start: int
    end: int
    text: str
    metadata: dict[str, str]

    @property
    def page(self) -> int | None:
        """The PDF page korTTY recorded (1-based), if any and if it is a number."""
        value = self.metadata.get("page")
        if value is None or not value.isdigit() or len(value) > 9:
            return None
        return int(value)


@dataclass(frozen=True)
class KorttySnapshot:
    version: int
    dimensions: int
    model_id: str
    chunks: tuple[KorttyChunk, ...]
    #: one float32 row per chunk: korTTY's vector scaled to unit length
    vectors: np.ndarray


class _Reader:
    def __init__(self, handle: BinaryIO, size: int, path: Path) -> None:
        self.handle = handle
        self.left = size
        self.path = path

    def fail(self, why: str) -> KorttyFormatError:
        return KorttyFormatError(
            msg("The korTTY index {path} cannot be read: {reason}", path=self.path, reason=why),
            hint=msg(
                "Open the store in korTTY (it rebuilds a damaged index), or import without its "
                "vectors: the sources are then indexed again."
            ),
        )

    def take(self, count: int) -> bytes:
        if count < 0 or count > self.left:
            raise self.fail(msg("it ends in the middle of a record (truncated or damaged)"))
        data = self.handle.read(count)
        if len(data) != count:
            raise self.fail(msg("it ends in the middle of a record (truncated)"))
        self.left -= count
        return data

    def int(self) -> int:
        return int(_INT.unpack(self.take(4))[0])

    def string(self, what: str) -> str:
        length = self.int()
        if length < 0 or length > MAX_STRING:
            raise self.fail(
                msg("{what} has an impossible length ({length} bytes)", what=what, length=length)
            )
        try:
            return self.take(length).decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail(msg("{what} is not UTF-8", what=what)) from None


def read_korthns(path: Path) -> KorttySnapshot:
    """Read and check a korTTY ``index.hnsw``; raises :class:`KorttyFormatError`."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise KorttyFormatError(
            msg("Cannot open the korTTY index {path} ({reason})", path=path, reason=exc.strerror)
        ) from exc
    with handle:
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise KorttyFormatError(
                msg(
                    "Cannot read the korTTY index {path} ({reason})", path=path, reason=exc.strerror
                )
            ) from exc
        reader = _Reader(handle, size, path)
        try:
            return _read(reader)
        except OSError as exc:
            raise reader.fail(
                msg("reading failed ({reason})", reason=exc.strerror or str(exc))
            ) from exc


def _read(r: _Reader) -> KorttySnapshot:
    if r.take(len(MAGIC)) != MAGIC:
        raise r.fail(msg("it is not a korTTY index (no KORTHNS1 header)"))
    version = r.int()
    if version not in (1, 2):
        raise r.fail(
            msg("its version {version} is not one this kortty-rag reads (1 or 2)", version=version)
        )
    dimensions = r.int()
    if not 1 <= dimensions <= MAX_DIMENSIONS:
        raise r.fail(
            msg("its vector dimensions ({dimensions}) are impossible", dimensions=dimensions)
        )
    model_id = r.string(_MODEL_ID)
    m = entry = max_level = 0
    if version == 2:
        m, entry, max_level = r.int(), r.int(), r.int()
        if not 1 <= m <= MAX_M:
            raise r.fail(msg("its graph parameter M ({m}) is impossible", m=m))
    count = r.int()
    # the smallest node: 4 empty strings, 3 ints, an empty text, no metadata, the vector, and a
    # level with an empty base layer (version 2) or an empty neighbour list (version 1)
    smallest = 4 * 4 + 3 * 4 + 4 + 4 + 4 * dimensions + (8 if version == 2 else 4)
    if count < 0 or count > MAX_NODES or count * smallest > r.left:
        raise r.fail(msg("its node count ({count}) does not fit the file", count=count))
    vectors = np.empty((count, dimensions), dtype=np.float32)
    chunks: list[KorttyChunk] = []
    levels: list[int] = []
    upper: list[tuple[int, int, int]] = []  # (node, layer, neighbour) for layers above 0
    for index in range(count):
        chunks.append(_chunk(r))
        row = np.frombuffer(r.take(4 * dimensions), dtype=">f4")
        if not np.isfinite(row).all():
            raise r.fail(
                msg(
                    "the vector of node {node} holds a value that is not a finite number",
                    node=index,
                )
            )
        vectors[index] = row
        if version == 1:
            _neighbours(r, index, count, count, layer=0, upper=None)
            continue
        level = r.int()
        if not 0 <= level <= MAX_LEVEL:
            raise r.fail(
                msg("node {node} has an impossible level ({level})", node=index, level=level)
            )
        levels.append(level)
        for layer in range(level + 1):
            limit = min(count, 2 * m if layer == 0 else m)
            _neighbours(r, index, count, limit, layer=layer, upper=upper if layer else None)
    if r.left:
        raise r.fail(
            msg("{count} bytes follow the last node (damaged or not korTTY's)", count=r.left)
        )
    if version == 2:
        _check_graph(r, count, entry, max_level, levels=levels, upper=upper)
    if count:
        wide = vectors.astype(np.float64)
        norms = np.sqrt(np.einsum("ij,ij->i", wide, wide))  # in float64: no float32 overflow
        if not (np.isfinite(norms) & (norms > 0)).all():
            raise r.fail(msg("a vector is all zeros or too large to be an embedding"))
        # unit length, as cosine search needs them (hnswlib would square them in float32)
        vectors = (wide / norms[:, None]).astype(np.float32)
    return KorttySnapshot(version, dimensions, model_id, tuple(chunks), vectors)


def _chunk(r: _Reader) -> KorttyChunk:
    chunk_id = r.string(_CHUNK_ID)
    source_id = r.string(_SOURCE_ID)
    document_path = r.string(_DOCUMENT_PATH)
    document_hash = r.string(_DOCUMENT_HASH)
    chunk_index, start, end = r.int(), r.int(), r.int()
    text = r.string(_CHUNK_TEXT)
    entries = r.int()
    if not 0 <= entries <= MAX_METADATA:
        raise r.fail(msg("a chunk has an impossible metadata count ({count})", count=entries))
    metadata = {r.string(_METADATA_KEY): r.string(_METADATA_VALUE) for _ in range(entries)}
    if start < 0 or end < start:
        raise r.fail(
            msg(
                "a chunk of {path!r} has impossible offsets ({start}..{end})",
                path=document_path,
                start=start,
                end=end,
            )
        )
    return KorttyChunk(
        chunk_id, source_id, document_path, document_hash, chunk_index, start, end, text, metadata
    )


def _neighbours(
    r: _Reader,
    index: int,
    count: int,
    limit: int,
    *,
    layer: int,
    upper: list[tuple[int, int, int]] | None,
) -> None:
    number = r.int()
    if not 0 <= number <= limit:
        raise r.fail(
            msg(
                "node {node} has an impossible neighbour count ({count}) on layer {layer}",
                node=index,
                count=number,
                layer=layer,
            )
        )
    ids = np.frombuffer(r.take(4 * number), dtype=">i4")
    if number and (
        int(ids.min()) < 0
        or int(ids.max()) >= count
        or (ids == index).any()
        or len(np.unique(ids)) != number
    ):
        raise r.fail(
            msg("node {node} has an invalid neighbour on layer {layer}", node=index, layer=layer)
        )
    if upper is not None:
        upper.extend((index, layer, int(n)) for n in ids)


def _check_graph(
    r: _Reader,
    count: int,
    entry: int,
    max_level: int,
    *,
    levels: list[int],
    upper: list[tuple[int, int, int]],
) -> None:
    if count == 0:
        if entry != -1 or max_level != -1:
            raise r.fail(msg("an empty graph names an entry point"))
        return
    if not 0 <= entry < count:
        raise r.fail(msg("its entry point ({entry}) is not a node", entry=entry))
    if max_level != max(levels) or levels[entry] != max_level:
        raise r.fail(msg("its maximum level does not match its nodes"))
    for node, layer, neighbour in upper:
        if levels[neighbour] < layer:
            raise r.fail(
                msg("node {node} links to a node below layer {layer}", node=node, layer=layer)
            )

"""A structural check of hnswlib 0.8 index files, run before ``load_index`` ever sees them.

hnswlib's ``save_index`` neither fsyncs nor reports short writes, and its ``load_index`` trusts every
number in the file: a flipped bit in a count or a neighbour id can make it read out of bounds and crash
the process. Checksums in the snapshot manifest catch corruption; this parser is the second line: it
walks the whole layout (header, level-0 block, upper-level link lists) and checks every neighbour id,
so a file that passes cannot send hnswlib outside its buffers.

Layout (``hnswalg.h``, ``saveIndex``): 96-byte header; ``count * size_data_per_element`` bytes of
level-0 records (``uint32`` link header, ``maxM0`` neighbour ids, the vector, the ``uint64`` label); then
per element a ``uint32`` byte size and that many bytes of upper-level link lists.

The header's numbers are checked against what hnswlib itself would have written: ``mult`` is
``1 / ln(M)``, ``ef_construction`` at least ``M``, the capacity no more than the product's growth rule
allows (``loadIndex`` allocates ``max_elements`` records before reading any), and the entry point sits
on the top level (a search starts there and walks down every level).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from kortty_rag.errors import SnapshotError
from kortty_rag.messages import msg
from kortty_rag.remedies import Operation, run

_HEADER = struct.Struct("<QQQQQQiIQQQdQ")
_MAX_LEVEL = 64
_MAX_EF_CONSTRUCTION = 1 << 16
_BLOCK_BYTES = 4 << 20  # read and check the file this much at a time


def capacity_limit(count: int) -> int:
    """The largest ``max_elements`` the product ever gives a graph of ``count`` elements: it starts at
    1,024 and grows to ``max(needed, 1.5 × old + 1,024)`` (``SnapshotBuilder.add_document``)."""
    return 2 * count + 4096


@dataclass(frozen=True)
class HnswFileInfo:
    max_elements: int
    count: int
    max_m: int
    max_m0: int
    ef_construction: int
    deleted: int


def _bad(path: Path, what: str) -> SnapshotError:
    return SnapshotError(
        msg("Vector index {file} is damaged ({what})", file=path.name, what=what),
        hint=msg(
            "{do} to re-index every source into a fresh snapshot.", do=run(Operation.STORE_REBUILD)
        ),
    )


def validate_hnsw_file(path: Path, dim: int) -> HnswFileInfo:
    """Check ``path`` against the layout hnswlib writes for float32 vectors of ``dim``; raise
    :class:`SnapshotError` on the first inconsistency.

    The file is read in blocks of about :data:`_BLOCK_BYTES`, so checking a large index needs little
    memory beside the graph the caller holds or is about to load."""
    with path.open("rb") as handle:
        return _validate(path, handle, path.stat().st_size, dim)


def _validate(path: Path, handle: BinaryIO, size: int, dim: int) -> HnswFileInfo:
    head = handle.read(_HEADER.size)
    if size < _HEADER.size or len(head) < _HEADER.size:
        raise _bad(path, msg("shorter than its header"))
    (
        off0,
        max_el,
        count,
        per_el,
        label_off,
        data_off,
        max_level,
        entry,
        max_m,
        max_m0,
        m,
        mult,
        ef_c,
    ) = _HEADER.unpack(head)
    if off0 != 0 or not 2 <= m <= 2048 or max_m != m or max_m0 != 2 * m:
        raise _bad(path, msg("implausible header"))
    if not math.isclose(mult, 1.0 / math.log(m), rel_tol=1e-9):
        raise _bad(path, msg("implausible level multiplier"))
    if not m <= ef_c <= _MAX_EF_CONSTRUCTION:
        raise _bad(path, msg("implausible construction parameter"))
    if data_off != 4 + 4 * max_m0 or label_off != data_off + 4 * dim or per_el != label_off + 8:
        raise _bad(path, msg("record layout does not match {dim} dimensions", dim=dim))
    lowest_level = 0 if count else -1  # an empty graph (every document removed) has level -1
    if count > max_el or not lowest_level <= max_level < _MAX_LEVEL:
        raise _bad(path, msg("implausible element count or level"))
    if max_el > capacity_limit(count):
        raise _bad(path, msg("implausible capacity"))
    if count and entry >= count:
        raise _bad(path, msg("entry point out of range"))
    level0_end = _HEADER.size + count * per_el
    if size < level0_end:
        raise _bad(path, msg("truncated level-0 block"))
    deleted = 0
    per_block = max(1, _BLOCK_BYTES // per_el)
    for first in range(0, count, per_block):
        n = min(per_block, count - first)
        raw = handle.read(n * per_el)
        if len(raw) != n * per_el:
            raise _bad(path, msg("truncated level-0 block"))
        records = np.frombuffer(raw, dtype=np.uint8).reshape(n, per_el)
        header = records[:, :4].copy().view(np.uint32).reshape(n)
        neighbours = header & 0xFFFF
        flags = (header >> 16) & 0xFF
        if (neighbours > max_m0).any() or (flags > 1).any() or (header >> 24).any():
            raise _bad(path, msg("level-0 link header out of range"))
        deleted += int(flags.sum())
        ids = records[:, 4:data_off].copy().view(np.uint32).reshape(n, max_m0)
        used = np.arange(max_m0)[None, :] < neighbours[:, None]
        if (ids[used] >= count).any():
            raise _bad(path, msg("level-0 neighbour id out of range"))
    _check_upper_levels(
        path, handle, size - level0_end, count=count, max_m=max_m, max_level=max_level, entry=entry
    )
    return HnswFileInfo(max_el, count, max_m, max_m0, ef_c, deleted)


def _check_upper_levels(
    path: Path, handle: BinaryIO, end: int, *, count: int, max_m: int, max_level: int, entry: int
) -> None:
    """The per-element upper-level link lists after the level-0 block (``end`` bytes in all)."""
    link_size = 4 + 4 * max_m
    read_u32 = struct.Struct("<I").unpack
    pos = 0
    blocks: list[bytes] = []
    pending = 0

    def check(blocks: list[bytes]) -> None:
        links = np.frombuffer(b"".join(blocks), dtype="<u4").reshape(-1, max_m + 1)
        if (links[:, 0] > max_m).any():
            raise _bad(path, msg("upper-level neighbour count out of range"))
        used = np.arange(max_m)[None, :] < links[:, :1]
        if (links[:, 1:][used] >= count).any():
            raise _bad(path, msg("upper-level neighbour id out of range"))

    reader = _Buffered(handle, path)
    for element in range(count):
        if pos + 4 > end:
            raise _bad(path, msg("truncated link lists"))
        (n_bytes,) = read_u32(reader.take(4))
        pos += 4
        if n_bytes % link_size or n_bytes // link_size > max_level or pos + n_bytes > end:
            raise _bad(path, msg("upper-level link list out of range"))
        if element == entry and n_bytes // link_size != max_level:
            raise _bad(path, msg("entry point is not on the top level"))
        if n_bytes:
            blocks.append(reader.take(n_bytes))
            pending += n_bytes
            if pending >= _BLOCK_BYTES:
                check(blocks)
                blocks, pending = [], 0
        pos += n_bytes
    if blocks:
        check(blocks)
    if pos != end:
        raise _bad(path, msg("{count} unexpected trailing bytes", count=end - pos))


class _Buffered:
    """Small reads served from blocks of the file (the link lists are many tiny records)."""

    def __init__(self, handle: BinaryIO, path: Path) -> None:
        self._handle = handle
        self._path = path
        self._buffer = b""
        self._pos = 0

    def take(self, n: int) -> bytes:
        if self._pos + n > len(self._buffer):
            rest = self._buffer[self._pos :]
            self._buffer = rest + self._handle.read(max(n - len(rest), _BLOCK_BYTES))
            self._pos = 0
        chunk = self._buffer[self._pos : self._pos + n]
        if len(chunk) < n:  # the file shrank while it was being read
            raise _bad(self._path, msg("truncated link lists"))
        self._pos += n
        return chunk

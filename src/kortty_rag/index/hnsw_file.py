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

import numpy as np

from kortty_rag.errors import SnapshotError

_HEADER = struct.Struct("<QQQQQQiIQQQdQ")
_MAX_LEVEL = 64
_MAX_EF_CONSTRUCTION = 1 << 16


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
        f"Vector index {path.name} is damaged ({what})",
        hint="Run `kortty-rag source refresh` to rebuild the snapshot from the sources.",
    )


def validate_hnsw_file(path: Path, dim: int) -> HnswFileInfo:
    """Check ``path`` against the layout hnswlib writes for float32 vectors of ``dim``; raise
    :class:`SnapshotError` on the first inconsistency."""
    data = (
        np.memmap(path, dtype=np.uint8, mode="r") if path.stat().st_size else np.zeros(0, np.uint8)
    )
    size = int(data.shape[0])
    if size < _HEADER.size:
        raise _bad(path, "shorter than its header")
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
    ) = _HEADER.unpack(bytes(data[: _HEADER.size]))
    if off0 != 0 or not 2 <= m <= 2048 or max_m != m or max_m0 != 2 * m:
        raise _bad(path, "implausible header")
    if not math.isclose(mult, 1.0 / math.log(m), rel_tol=1e-9):
        raise _bad(path, "implausible level multiplier")
    if not m <= ef_c <= _MAX_EF_CONSTRUCTION:
        raise _bad(path, "implausible construction parameter")
    if data_off != 4 + 4 * max_m0 or label_off != data_off + 4 * dim or per_el != label_off + 8:
        raise _bad(path, f"record layout does not match {dim} dimensions")
    lowest_level = 0 if count else -1  # an empty graph (every document removed) has level -1
    if count > max_el or not lowest_level <= max_level < _MAX_LEVEL:
        raise _bad(path, "implausible element count or level")
    if max_el > capacity_limit(count):
        raise _bad(path, "implausible capacity")
    if count and entry >= count:
        raise _bad(path, "entry point out of range")
    level0_end = _HEADER.size + count * per_el
    if size < level0_end:
        raise _bad(path, "truncated level-0 block")
    deleted = 0
    if count:
        records = np.asarray(data[_HEADER.size : level0_end]).reshape(count, per_el)
        header = records[:, :4].copy().view(np.uint32).reshape(count)
        neighbours = header & 0xFFFF
        flags = (header >> 16) & 0xFF
        if (neighbours > max_m0).any() or (flags > 1).any() or (header >> 24).any():
            raise _bad(path, "level-0 link header out of range")
        deleted = int(flags.sum())
        ids = records[:, 4:data_off].copy().view(np.uint32).reshape(count, max_m0)
        used = np.arange(max_m0)[None, :] < neighbours[:, None]
        if (ids[used] >= count).any():
            raise _bad(path, "level-0 neighbour id out of range")
    link_size = 4 + 4 * max_m
    tail = data[level0_end:].tobytes()
    pos, end = 0, len(tail)
    blocks: list[bytes] = []
    read_u32 = struct.Struct("<I").unpack_from
    for element in range(count):
        if pos + 4 > end:
            raise _bad(path, "truncated link lists")
        (n_bytes,) = read_u32(tail, pos)
        pos += 4
        if n_bytes % link_size or n_bytes // link_size > max_level or pos + n_bytes > end:
            raise _bad(path, "upper-level link list out of range")
        if element == entry and n_bytes // link_size != max_level:
            raise _bad(path, "entry point is not on the top level")
        if n_bytes:
            blocks.append(tail[pos : pos + n_bytes])
        pos += n_bytes
    if blocks:
        links = np.frombuffer(b"".join(blocks), dtype="<u4").reshape(-1, max_m + 1)
        if (links[:, 0] > max_m).any():
            raise _bad(path, "upper-level neighbour count out of range")
        used = np.arange(max_m)[None, :] < links[:, :1]
        if (links[:, 1:][used] >= count).any():
            raise _bad(path, "upper-level neighbour id out of range")
    pos += level0_end
    if pos != size:
        raise _bad(path, f"{size - pos} unexpected trailing bytes")
    return HnswFileInfo(max_el, count, max_m, max_m0, ef_c, deleted)

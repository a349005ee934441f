"""The chunk records of a korTTY index (``KORTHNS1``, :mod:`kortty_rag.kortty_files.hnsw`): checked in
place in the file's bytes, kept as columns (where each record starts, keyed digests of what groups or
must not repeat), and decoded into a :class:`KorttyChunk` only when one is asked for.

A record: strings chunk id, source id, document path, document hash; ints chunk index, start offset,
end offset; string text; int metadata count (≤ 1,000) and that many key/value strings. A string is an
int byte length (≤ 64 MiB) and UTF-8 bytes, big-endian as Java's ``DataOutputStream`` writes.
"""

from __future__ import annotations

import codecs
import hashlib
import secrets
import struct
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kortty_rag.errors import KorttyRagError
from kortty_rag.messages import msg
from kortty_rag.models import leaves_its_source

MAX_STRING = 64 * 1024 * 1024
MAX_METADATA = 1_000
#: strings longer than this are checked for UTF-8 in pieces of this size (never decoded whole)
_PIECE = 1 << 20
_INT = struct.Struct(">i")
_THREE_INTS = struct.Struct(">iii")
_PAGE = struct.Struct(">q")
# the strings of a record, as a damage report names them (made once: a file has millions)
_CHUNK_ID = msg("the chunk id")
_SOURCE_ID = msg("the source id")
_DOCUMENT_PATH = msg("the document path")
_DOCUMENT_HASH = msg("the document hash")
_CHUNK_TEXT = msg("the chunk text")
_METADATA_KEY = msg("the metadata key")
_METADATA_VALUE = msg("the metadata value")


class KorttyFormatError(KorttyRagError):
    """A korTTY index file that cannot be read: damaged, truncated, hostile or of another version."""


def _page(value: str | None) -> int | None:
    """korTTY's ``page`` metadata as a page number (decimal digits only), if it is one."""
    if value is None or not value.isdecimal() or len(value) > 9:
        return None
    return int(value)


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
        return _page(self.metadata.get("page"))


def damage(path: Path, why: str) -> KorttyFormatError:
    return KorttyFormatError(
        msg("The korTTY index {path} cannot be read: {reason}", path=path, reason=why),
        hint=msg(
            "Open the store in korTTY (it rebuilds a damaged index), or import without its "
            "vectors: the sources are then indexed again."
        ),
    )


def _shown(text: str, limit: int = 80) -> str:
    """``text`` short enough for a message (a hostile file's strings can be 64 MiB long)."""
    return text if len(text) <= limit else text[:limit] + "…"


def _shown_at(data: bytearray, start: int, end: int) -> str:
    """The checked string of ``data[start:end]`` short enough for a message, decoding little of it."""
    return _shown(data[start : min(end, start + 400)].decode("utf-8", "ignore"))


class Cursor:
    """A position in the file's bytes; every step is checked against what is left."""

    __slots__ = ("data", "path", "pos", "view")

    def __init__(self, data: bytearray, path: Path) -> None:
        self.data = data
        self.view = memoryview(data)
        self.path = path
        self.pos = 0

    @property
    def left(self) -> int:
        return len(self.data) - self.pos

    def fail(self, why: str) -> KorttyFormatError:
        return damage(self.path, why)

    def skip(self, count: int) -> int:
        """Step over ``count`` bytes; where they start."""
        start = self.pos
        if count < 0 or count > len(self.data) - start:
            raise self.fail(msg("it ends in the middle of a record (truncated or damaged)"))
        self.pos = start + count
        return start

    def int32(self) -> int:
        return int(_INT.unpack_from(self.data, self.skip(4))[0])

    def string(self, what: str) -> int:
        """Step over a string, checked to be UTF-8; where its bytes start (they end at ``pos``)."""
        length = self.int32()
        if length < 0 or length > MAX_STRING:
            raise self.fail(
                msg("{what} has an impossible length ({length} bytes)", what=what, length=length)
            )
        start = self.skip(length)
        try:
            if length <= _PIECE:
                codecs.utf_8_decode(self.view[start : self.pos], "strict", True)
            else:  # in pieces: a 64 MiB string would be up to 256 MiB as one str
                decoder = codecs.getincrementaldecoder("utf-8")()
                for at in range(start, self.pos, _PIECE):
                    decoder.decode(self.view[at : min(at + _PIECE, self.pos)])
                decoder.decode(b"", True)
        except UnicodeDecodeError:
            raise self.fail(msg("{what} is not UTF-8", what=what)) from None
        return start


class NodeColumns:
    """Per node: where its record starts, its vector, its chunk index and a keyed digest of its
    document (source id and path), and, until :meth:`check_unique`, keyed digests of its chunk id
    and of its place (document, hash, page, offsets)."""

    def __init__(self, count: int, dimensions: int) -> None:
        self.dimensions = dimensions
        self.vectors = np.empty((count, dimensions), dtype=np.float32)
        self.records = np.empty(count, dtype=np.int64)
        self.documents = np.empty(count, dtype=np.uint64)
        self.chunk_index = np.empty(count, dtype=np.int32)
        self.ids = np.empty(count, dtype=np.uint64)
        self.places = np.empty(count, dtype=np.uint64)
        # keyed with a secret of this run: no file can be made to collide them
        self.key = secrets.token_bytes(16)

    def digest(self, *parts: memoryview | bytes) -> int:
        h = hashlib.blake2b(digest_size=8, key=self.key)
        for part in parts:
            h.update(part)
        return int.from_bytes(h.digest(), "little")

    def read(self, c: Cursor, index: int) -> None:
        """Node ``index``'s chunk and vector; its graph part is left to the caller."""
        view, record = c.view, c.pos
        id_start = c.string(_CHUNK_ID)
        id_end = c.pos
        c.string(_SOURCE_ID)
        path_start = c.string(_DOCUMENT_PATH)
        path_end = c.pos
        c.string(_DOCUMENT_HASH)
        hash_end = c.pos
        chunk_index, start, end = _THREE_INTS.unpack_from(c.data, c.skip(12))
        c.string(_CHUNK_TEXT)
        entries = c.int32()
        if not 0 <= entries <= MAX_METADATA:
            raise c.fail(msg("a chunk has an impossible metadata count ({count})", count=entries))
        page: str | None = None
        for _ in range(entries):
            key = c.string(_METADATA_KEY)
            is_page = c.pos - key == 4 and c.data[key : c.pos] == b"page"
            value = c.string(_METADATA_VALUE)
            if is_page:  # the last one counts, as in a dict
                page = c.data[value : c.pos].decode() if c.pos - value <= 36 else None
        if start < 0 or end < start:
            raise c.fail(
                msg(
                    "a chunk of {path!r} has impossible offsets ({start}..{end})",
                    path=_shown_at(c.data, path_start, path_end),
                    start=start,
                    end=end,
                )
            )
        if c.data.find(b"\0", path_start, path_end) >= 0:  # also keeps kortty-rag's chunk ids apart
            raise c.fail(
                msg(
                    "the document path {path!r} holds a NUL character, which no file's path can",
                    path=_shown_at(c.data, path_start, path_end),
                )
            )
        if leaves_its_source(bytes(c.data[path_start:path_end]).decode("utf-8", "replace")):
            raise c.fail(
                msg(
                    "the document path {path!r} names no file inside its source (empty, absolute "
                    "or with a '..' part)",
                    path=_shown_at(c.data, path_start, path_end),
                )
            )
        vector = c.skip(4 * self.dimensions)
        self.vectors[index] = np.frombuffer(c.data, ">f4", self.dimensions, vector)
        self.records[index] = record
        self.chunk_index[index] = chunk_index
        # the length-prefixed strings one after another: source id + document path (+ hash)
        self.documents[index] = self.digest(view[id_end:path_end])
        self.ids[index] = self.digest(view[id_start:id_end])
        number = _page(page)
        self.places[index] = self.digest(
            view[id_end:hash_end], _PAGE.pack(-1 if number is None else number), _INT.pack(start),
            _INT.pack(end),
        )  # fmt: skip

    def check_unique(self, c: Cursor) -> None:
        """Every chunk id once, and every place (page, offsets) of a document once: kortty-rag's
        chunk ids (source, document, hash, page, offsets) are then unique too."""
        repeat = _first_repeat(self.ids, lambda row: self.chunk(c, row).chunk_id)
        if repeat is not None:
            first, second = repeat
            raise c.fail(
                msg(
                    "it holds chunk id {chunk_id!r} twice (nodes {first} and {second})",
                    chunk_id=_shown(self.chunk(c, first).chunk_id),
                    first=first,
                    second=second,
                )
            )
        del self.ids
        repeat = _first_repeat(self.places, lambda row: _place(self.chunk(c, row)))
        if repeat is not None:
            first, second = repeat
            chunk = self.chunk(c, first)
            raise c.fail(
                msg(
                    "it holds two chunks of {path!r} at the same place (offsets {start}..{end}): "
                    "nodes {first} and {second}",
                    path=_shown(chunk.document_path),
                    start=chunk.start,
                    end=chunk.end,
                    first=first,
                    second=second,
                )
            )
        del self.places

    def chunk(self, c: Cursor, row: int) -> KorttyChunk:
        """Node ``row``'s chunk without its text (only the repeated ones are looked at)."""
        return chunk_at(c.data, int(self.records[row]), text=False)


def _place(chunk: KorttyChunk) -> tuple[object, ...]:
    return (
        chunk.source_id,
        chunk.document_path,
        chunk.document_hash,
        chunk.page,
        chunk.start,
        chunk.end,
    )


def _first_repeat(keys: np.ndarray, actual: Callable[[int], Hashable]) -> tuple[int, int] | None:
    """The first row (in file order) whose ``actual`` value an earlier row has, with that earlier
    row. ``keys`` are keyed digests of the values: only rows with equal digests are compared."""
    if len(keys) < 2:
        return None
    order = np.argsort(keys, kind="stable")  # equal digests: rows in file order
    ordered = keys[order]
    equal = ordered[1:] == ordered[:-1]
    del ordered
    if not equal.any():
        return None
    starts = np.flatnonzero(equal & ~np.concatenate(([False], equal[:-1])))
    ends = np.flatnonzero(equal & ~np.concatenate((equal[1:], [False]))) + 2
    del equal
    earliest = order[starts + 1]  # no run can repeat a value before its second row
    best: tuple[int, int] | None = None
    for run in np.argsort(earliest, kind="stable"):
        if best is not None and earliest[run] >= best[1]:
            break
        seen: dict[Hashable, int] = {}
        for row in order[starts[run] : ends[run]]:
            if best is not None and row >= best[1]:
                break
            value = actual(int(row))
            if value in seen:
                best = (seen[value], int(row))
                break
            seen[value] = int(row)
    return best


def document_at(data: bytearray, pos: int) -> bytes:
    """The source id and document path of the chunk record at ``pos``, as the file holds them."""
    (length,) = _INT.unpack_from(data, pos)
    start = pos + 4 + length  # after the chunk id
    (length,) = _INT.unpack_from(data, start)
    (path_length,) = _INT.unpack_from(data, start + 4 + length)
    return bytes(data[start : start + 8 + length + path_length])


def chunk_at(data: bytearray, pos: int, *, text: bool = True) -> KorttyChunk:
    """The chunk record at ``pos`` of bytes :class:`NodeColumns` has checked (with an empty text
    unless ``text``)."""
    strings: list[str] = []
    for _ in range(4):
        (length,) = _INT.unpack_from(data, pos)
        strings.append(data[pos + 4 : pos + 4 + length].decode("utf-8"))
        pos += 4 + length
    chunk_index, start, end = _THREE_INTS.unpack_from(data, pos)
    pos += 12
    rest: list[str] = []
    (length,) = _INT.unpack_from(data, pos)
    # from a view: a slice would copy a text of up to 64 MiB first
    words = str(memoryview(data)[pos + 4 : pos + 4 + length], "utf-8") if text else ""
    pos += 4 + length
    (entries,) = _INT.unpack_from(data, pos)
    pos += 4
    for _ in range(2 * entries):
        (length,) = _INT.unpack_from(data, pos)
        rest.append(data[pos + 4 : pos + 4 + length].decode("utf-8"))
        pos += 4 + length
    metadata = dict(zip(rest[::2], rest[1::2], strict=True))
    chunk_id, source_id, document_path, document_hash = strings
    return KorttyChunk(
        chunk_id, source_id, document_path, document_hash, chunk_index, start, end, words, metadata
    )

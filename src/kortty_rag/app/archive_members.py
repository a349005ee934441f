"""Reading the members of a store archive without believing it (docs/DESIGN.md §14).

:mod:`tarfile` takes a header at its word: a GNU sparse member that declares 3 GiB in a few
kilobytes reads as a regular file of 3 GiB (its holes come out as zeros), a GNU long-name record or
a PAX ``path`` renames the member that follows, a PAX ``size`` replaces the header's, a global PAX
header changes every later member, and a long-name record or an extended header is read into memory
whole, whatever size it declares. Export writes none of that, so import reads its archives with this
reader of exactly what export writes — POSIX ustar headers, each member a plain regular file,
optionally after one PAX extended header with the few keys :mod:`tarfile` writes for a regular
file — and refuses everything else before a byte of the member is read:

* a member's declared size must fit in the bytes really left in the archive file (its size minus
  where the member's data begins), so an import never writes more than the archive's own size;
* only type ``0`` is a member: links, devices, folders, FIFOs, contiguous files, GNU sparse members
  (type ``S`` or any ``GNU.sparse.*`` key), GNU long-name and long-link records and global extended
  headers are refused, and so is a size field in base-256;
* a PAX ``path`` must name the member its header names, and a PAX ``size`` must agree with the
  header's (or stand for a size the header's field cannot hold);
* reading a member never returns more than its size, and a short read is a truncated archive.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from kortty_rag.errors import KorttyRagError
from kortty_rag.messages import human_size, msg
from kortty_rag.remedies import Operation, place

BLOCK = 512
#: what is read (and written) at a time when a member is copied
COPY_BLOCK = 1 << 20
#: an extended header for one of our members is a few dozen bytes
MAX_EXTENDED = 64 << 10
#: the PAX keys :mod:`tarfile` may write for a regular file; anything else is not ours
PAX_KEYS = frozenset({"path", "size", "mtime", "uid", "gid", "uname", "gname"})
USTAR_MAGIC = b"ustar\x0000"
REGULAR = (b"0", b"\x00")
#: sizes from this one on do not fit the header's 11 octal digits: a PAX ``size`` holds them
OCTAL_SIZES = 8**11
_ZEROS = bytes(BLOCK)


class ArchiveError(KorttyRagError):
    """An archive that cannot be imported: damaged, incomplete, hostile or not ours."""


def refused(path: Path, why: str) -> ArchiveError:
    return ArchiveError(
        msg("{path} cannot be imported: {reason}", path=path, reason=why),
        hint=msg(
            "Export the store again with {how} and import that file.",
            how=place(Operation.STORE_EXPORT),
        ),
    )


def _damaged(path: Path, why: str) -> ArchiveError:
    return refused(path, msg("it is damaged or truncated ({error})", error=why))


@dataclass(frozen=True)
class Member:
    """One regular file of an archive: its name, its size and where its bytes begin."""

    name: str
    size: int
    offset: int
    reader: MemberReader = field(repr=False, compare=False)

    def blocks(self) -> Iterator[bytes]:
        """The member's bytes, :data:`COPY_BLOCK` at a time: exactly :attr:`size` of them."""
        return self.reader.blocks(self)

    def read_all(self) -> bytes:
        return b"".join(self.blocks())

    def copy_into(self, out: IO[bytes], *, limit: int, keep: bool) -> tuple[str, bytes]:
        """Write the member to ``out``, never more than ``limit`` bytes; returns its SHA-256 and,
        when ``keep``, its bytes."""
        digest = hashlib.sha256()
        written = 0
        kept = bytearray()
        for block in self.blocks():
            written += len(block)
            if written > limit:  # never past what the archive's header declared
                raise refused(
                    self.reader.path,
                    msg("{name} is larger than its header says", name=self.name),
                )
            digest.update(block)
            if keep:
                kept += block
            out.write(block)
        return digest.hexdigest(), bytes(kept)


class MemberReader:
    """The members of one archive file, in order; iterate to get them."""

    def __init__(self, path: Path, handle: IO[bytes]) -> None:
        self.path = path
        self._fd = handle.fileno()
        info = os.fstat(self._fd)
        if not stat.S_ISREG(info.st_mode):  # a pipe has no size to bound the members by
            raise ArchiveError(
                msg("{path} cannot be imported: it is not a regular file", path=path),
                hint=msg("Save the archive to a file first, then import that file."),
            )
        #: the archive's size when it was opened: nothing beyond it is ever read
        self.size = info.st_size
        self._next = 0  # where the next header begins

    def __iter__(self) -> Iterator[Member]:
        while (member := self._next_member()) is not None:
            yield member

    def blocks(self, member: Member) -> Iterator[bytes]:
        offset, left = member.offset, member.size
        while left:
            data = self._read(offset, min(COPY_BLOCK, left))
            if not data:
                raise _damaged(self.path, msg("it ends inside {name}", name=member.name))
            offset += len(data)
            left -= len(data)
            yield data

    # -- headers ----------------------------------------------------------------------------------

    def _next_member(self) -> Member | None:
        offset = self._next
        extended: dict[str, str] | None = None
        while True:
            header = self._header(offset)
            if header is None:
                if extended is not None:
                    raise _damaged(
                        self.path, msg("an extended header at byte {offset} ends it", offset=offset)
                    )
                return None
            name = _name(header)
            kind = header[156:157]
            if kind == b"S":
                raise self._sparse(name)
            if kind in (b"L", b"K"):
                raise refused(
                    self.path,
                    msg("it uses GNU long-name records, which export never writes"),
                )
            if kind == b"g":
                raise refused(
                    self.path,
                    msg("it has a global extended header, which export never writes"),
                )
            if kind != b"x" and kind not in REGULAR:
                raise refused(
                    self.path,
                    msg("{name!r} is a link or a special file, not a regular file", name=name),
                )
            if header[257:265] != USTAR_MAGIC:
                raise refused(
                    self.path,
                    msg(
                        "the tar header of {name!r} is not a POSIX tar (ustar) header",
                        name=name,
                    ),
                )
            size = self._size(header, name, offset)
            data = offset + BLOCK
            if kind == b"x":
                if extended is not None:
                    raise _damaged(
                        self.path,
                        msg("two extended headers in a row at byte {offset}", offset=offset),
                    )
                if size > MAX_EXTENDED:
                    raise refused(
                        self.path,
                        msg(
                            "an extended header of {size} at byte {offset} is larger than the "
                            "limit of {limit}",
                            size=human_size(size),
                            offset=offset,
                            limit=human_size(MAX_EXTENDED),
                        ),
                    )
                self._check_left(name, size, data)
                extended = self._records(self._read(data, size), offset)
                offset = data + _padded(size)
                continue
            if extended is not None:
                name, size = self._extend(name, size, extended)
            self._check_left(name, size, data)
            self._next = data + _padded(size)
            return Member(name, size, data, self)

    def _header(self, offset: int) -> bytes | None:
        """The header block at ``offset``; ``None`` at the end of the archive (a block of zeros, or
        the end of the file)."""
        if offset >= self.size:
            return None
        block = self._read(offset, BLOCK)
        if len(block) < BLOCK:
            raise _damaged(
                self.path, msg("it ends inside a tar header at byte {offset}", offset=offset)
            )
        if block == _ZEROS:
            return None
        stored = _octal(block[148:156])
        unsigned = sum(block[:148]) + sum(block[156:]) + 8 * 0x20
        signed = unsigned - 256 * sum(b >= 0x80 for b in block[:148] + block[156:])
        if stored is None or stored not in (unsigned, signed):
            raise _damaged(
                self.path,
                msg("the tar header at byte {offset} has a wrong checksum", offset=offset),
            )
        return block

    def _size(self, header: bytes, name: str, offset: int) -> int:
        raw = header[124:136]
        if raw[0] & 0x80:
            raise refused(
                self.path,
                msg(
                    "the tar header of {name!r} gives its size in base-256, which export never "
                    "writes",
                    name=name,
                ),
            )
        size = _octal(raw)
        if size is None:
            raise _damaged(
                self.path,
                msg("the size in the tar header at byte {offset} is not a number", offset=offset),
            )
        return size

    def _check_left(self, name: str, size: int, data: int) -> None:
        left = max(self.size - data, 0)
        if size > left:
            raise refused(
                self.path,
                msg(
                    "{name!r} declares {size}, but only {left} of the archive are left after its "
                    "header (truncated or forged)",
                    name=name,
                    size=human_size(size),
                    left=human_size(left),
                ),
            )

    def _records(self, raw: bytes, offset: int) -> dict[str, str]:
        """The ``LENGTH KEY=VALUE\\n`` records of a PAX extended header."""
        bad = _damaged(
            self.path, msg("the extended header at byte {offset} is malformed", offset=offset)
        )
        records: dict[str, str] = {}
        position = 0
        while position < len(raw):
            space = raw.find(b" ", position, position + 21)
            digits = raw[position:space]
            if space < 0 or not digits.isdigit():
                raise bad
            end = position + int(digits)
            if end > len(raw) or end < space + 3 or raw[end - 1] != 0x0A:
                raise bad
            key, equals, value = raw[space + 1 : end - 1].partition(b"=")
            try:
                text_key, text_value = key.decode(), value.decode()
            except UnicodeDecodeError:
                raise bad from None
            if not equals or not text_key or text_key in records:
                raise bad
            records[text_key] = text_value
            position = end
        return records

    def _extend(self, name: str, size: int, records: Mapping[str, str]) -> tuple[str, int]:
        """The member's name and size after its extended header, which may only say again what the
        tar header says (or give a size too large for it)."""
        if any(key.startswith("GNU.sparse.") for key in records):
            raise self._sparse(records.get("GNU.sparse.name") or records.get("path") or name)
        for key in records:
            if key not in PAX_KEYS:
                raise refused(
                    self.path,
                    msg(
                        "the extended header of {name!r} sets {key!r}, which export never writes",
                        name=name,
                        key=key,
                    ),
                )
        if "path" in records and records["path"] != name:
            raise refused(
                self.path,
                msg(
                    "the extended header of {name!r} renames it to {path!r}",
                    name=name,
                    path=records["path"],
                ),
            )
        if "size" in records:
            text = records["size"]
            declared = int(text) if text.isascii() and text.isdigit() else -1
            if declared != size and not (size == 0 and declared >= OCTAL_SIZES):
                raise refused(
                    self.path,
                    msg(
                        "the extended header of {name!r} gives it {declared!r} bytes, its tar "
                        "header {size}",
                        name=name,
                        declared=text,
                        size=size,
                    ),
                )
            size = declared
        return name, size

    def _sparse(self, name: str) -> ArchiveError:
        return refused(
            self.path,
            msg("{name!r} is a sparse file, which export never writes", name=name),
        )

    def _read(self, offset: int, size: int) -> bytes:
        try:
            return os.pread(self._fd, size, offset)
        except OSError as exc:
            raise refused(
                self.path, msg("it cannot be read ({reason})", reason=exc.strerror)
            ) from None


def _padded(size: int) -> int:
    return -(-size // BLOCK) * BLOCK


def _octal(raw: bytes) -> int | None:
    """A numeric field of a tar header: octal digits, ended by NUL or space; ``None`` otherwise."""
    text = raw.split(b"\0", 1)[0].strip(b" ")
    if not text or any(c not in b"01234567" for c in text):
        return None
    return int(text, 8)


def _name(header: bytes) -> str:
    name = header[:100].split(b"\0", 1)[0]
    prefix = header[345:500].split(b"\0", 1)[0]
    if prefix:
        name = prefix + b"/" + name
    return name.decode("utf-8", "replace")

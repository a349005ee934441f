"""ZIP and XML containers from anywhere, opened so that they cannot take the worker's memory or
reach outside the file (docs/DESIGN.md §6).

* :class:`SafeZip` checks the central directory before anything is read: at most
  :data:`MAX_MEMBERS` members, none encrypted, each at most :data:`MAX_MEMBER_BYTES` unpacked and
  at most :data:`MAX_RATIO` times its packed size (a zip bomb), all together at most
  :data:`MAX_TOTAL_BYTES` and at most :data:`MAX_TOTAL_RATIO` times the file's size (many small
  members, each under the ratio check's floor, that a reader library parses all at once). A
  member's packed size is what the file really holds for it (up to the next member's header), not
  the size the directory claims, which a bomb can inflate to pass the ratio check. Python's
  :mod:`zipfile` stops a member at its declared size and checks its CRC, so a member cannot unpack
  to more than the directory says.
* :func:`check_xml` refuses any XML part (whatever its name: every member that reads as XML) with a
  document type declaration that declares something (an internal subset, ``<!ENTITY``): entity
  expansion ("billion laughs") and external entities (XXE) need one, and no office or EPUB part has
  one. :func:`parse_xml` parses with lxml, entities unresolved, no DTD loaded, no network.
"""

from __future__ import annotations

import re
import zipfile
from io import BytesIO

from lxml import etree

from kortty_rag.extract.outline import Unreadable, error_text
from kortty_rag.messages import msg

MAX_MEMBERS = 10_000
MAX_MEMBER_BYTES = 256 * 1024 * 1024
MAX_TOTAL_BYTES = 512 * 1024 * 1024
#: unpacked ÷ packed size above which a member larger than :data:`_RATIO_FROM` is a zip bomb
#: (office XML packs about 5–20 : 1; a bomb's members thousands to one)
MAX_RATIO = 200
_RATIO_FROM = 1024 * 1024
#: all members unpacked ÷ the file's size, above :data:`_TOTAL_RATIO_FROM` (real office documents
#: and EPUBs: 2–20; pictures hardly compress)
MAX_TOTAL_RATIO = 100
_TOTAL_RATIO_FROM = 8 * 1024 * 1024
#: the signature of an OLE compound file: what Office writes for an encrypted DOCX or PPTX (and for
#: the binary formats of before 2007)
OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: what a member's start is read for, to tell an XML part from a picture
_PEEK = 4096
#: what may stand before an XML part's first ``<`` (UTF-8 byte order mark, whitespace)
_XML_LEADING = b"\xef\xbb\xbf \t\r\n"
#: the starts of UTF-32 and UTF-16 XML (UTF-32 first: its byte order marks begin as UTF-16's do)
_WIDE_STARTS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00\x00\x00<", "utf-32-be"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
    (b"<\x00", "utf-16-le"),
    (b"\x00<", "utf-16-be"),
)
_DOCTYPE = re.compile(rb"<!DOCTYPE", re.IGNORECASE)
_DOCTYPE_END = re.compile(rb"[>\[]")
_ENTITY = re.compile(rb"<!ENTITY", re.IGNORECASE)


def damaged(kind: str, error: BaseException) -> Unreadable:
    """The reason a damaged ``kind`` container is skipped."""
    return Unreadable(
        msg(
            "damaged {kind} file ({error})",
            kind=kind,
            error=error_text(error),
        )
    )


class SafeZip:
    """A ZIP container whose directory passed the checks of the module docstring."""

    def __init__(self, data: bytes, kind: str) -> None:
        self.kind = kind
        if data.startswith(OLE_SIGNATURE):
            raise Unreadable(
                msg(
                    "encrypted or password-protected {kind} file (or the binary format of before "
                    "2007), not read",
                    kind=kind,
                )
            )
        try:
            self.zip = zipfile.ZipFile(BytesIO(data))
            members = self.zip.infolist()
        except zipfile.BadZipFile:
            raise Unreadable(
                msg("damaged {kind} file (cut off, or not a ZIP container)", kind=kind)
            ) from None
        except (zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
            raise damaged(kind, exc) from None
        if len(members) > MAX_MEMBERS:
            raise Unreadable(
                msg(
                    "{kind} file with more than {count:,} parts, not read",
                    kind=kind,
                    count=MAX_MEMBERS,
                )
            )
        total = 0
        held = _packed_sizes(members, self.zip.start_dir)
        for info in members:
            if info.flag_bits & 0x1:
                raise Unreadable(msg("encrypted {kind} file, not read", kind=kind))
            packed = max(held[info.header_offset], 1)
            too_big = info.file_size > MAX_MEMBER_BYTES
            if too_big or (info.file_size > _RATIO_FROM and info.file_size / packed > MAX_RATIO):
                raise Unreadable(
                    msg(
                        "{kind} file with a part that unpacks to {size:,} bytes from {packed:,} "
                        "(a zip bomb?), not read",
                        kind=kind,
                        size=info.file_size,
                        packed=packed,
                    )
                )
            total += info.file_size
        if total > _TOTAL_RATIO_FROM and total > MAX_TOTAL_RATIO * len(data):
            raise Unreadable(
                msg(
                    "{kind} file that unpacks to {size:,} bytes from {packed:,} (a zip bomb?), "
                    "not read",
                    kind=kind,
                    size=total,
                    packed=len(data),
                )
            )
        if total > MAX_TOTAL_BYTES:
            raise Unreadable(
                msg(
                    "{kind} file that unpacks to more than {size:,} bytes, not read",
                    kind=kind,
                    size=MAX_TOTAL_BYTES,
                )
            )
        self.names = {info.filename for info in members}

    def has(self, name: str) -> bool:
        return name in self.names

    def read(self, name: str, size: int = -1) -> bytes:
        """The bytes of member ``name`` (checked against the directory's CRC), or its first
        ``size`` bytes."""
        if name not in self.names:
            raise Unreadable(
                msg("damaged {kind} file (part {name} is missing)", kind=self.kind, name=name)
            )
        try:
            with self.zip.open(name) as part:
                return part.read(size)
        except Exception as exc:  # BadZipFile, zlib.error and what other codecs raise on damage
            raise damaged(self.kind, exc) from None

    def check_xml_parts(self) -> None:
        """Every member that reads as XML checked with :func:`check_xml`, whatever its name (a
        reader library picks parts by their content type, not by their name); a member whose
        first bytes cannot start XML (a picture) is not unpacked for it."""
        for name in sorted(self.names):
            head = self.read(name, _PEEK)
            if len(head) < _PEEK:
                check_xml(head, self.kind, only_xml=True)
            elif _may_be_xml(head):
                check_xml(self.read(name), self.kind, only_xml=True)


def _packed_sizes(members: list[zipfile.ZipInfo], directory: int) -> dict[int, int]:
    """Header offset -> the bytes the file holds for that member: at most what its directory entry
    claims, and never more than the space up to the next member's header (or the directory)."""
    offsets = sorted({info.header_offset for info in members})
    following = dict(zip(offsets, [*offsets[1:], directory], strict=True))
    return {
        info.header_offset: max(
            0, min(info.compress_size, following[info.header_offset] - info.header_offset)
        )
        for info in members
    }


def check_xml(data: bytes, kind: str, *, only_xml: bool = False) -> None:
    """Refuse an XML part that declares entities or an internal DTD subset (module docstring).
    ``only_xml``: ``data`` may be any member; only one that reads as XML is checked."""
    head = data
    wide = _wide_encoding(data)
    if wide:
        try:
            head = data.decode(wide).encode("utf-8")
        except UnicodeDecodeError:
            if only_xml:
                return
            raise Unreadable(
                msg("damaged {kind} file (an XML part is not text)", kind=kind)
            ) from None
    if only_xml and not head.lstrip(_XML_LEADING).startswith(b"<"):
        return
    if _declares(head):
        raise Unreadable(
            msg(
                "{kind} file with an XML part that declares entities (entity expansion or an "
                "external entity), not read",
                kind=kind,
            )
        )


def _wide_encoding(data: bytes) -> str | None:
    """UTF-32 or UTF-16 (by byte order mark, else by the NUL bytes of ``<`` at the start), else
    None: what libxml2 would detect, so that the check reads what the parser will read."""
    return next((codec for start, codec in _WIDE_STARTS if data.startswith(start)), None)


def _declares(data: bytes) -> bool:
    """An ``<!ENTITY``, or a ``<!DOCTYPE`` whose internal subset (``[``) opens before it ends
    (``>``); linear: the end found for one DOCTYPE serves every one before it."""
    if _ENTITY.search(data):
        return True
    end: re.Match[bytes] | None = None
    for start in _DOCTYPE.finditer(data):
        if end is None or end.start() < start.end():
            end = _DOCTYPE_END.search(data, start.end())
            if end is None:
                return False
        if end.group() == b"[":
            return True
    return False


def _may_be_xml(head: bytes) -> bool:
    """Whether a member starting with ``head`` may be XML: a wide encoding, or ``<`` as its first
    character after a byte order mark and whitespace (or nothing but those so far)."""
    rest = head.lstrip(_XML_LEADING)
    return _wide_encoding(head) is not None or not rest or rest.startswith(b"<")


def parse_xml(data: bytes, kind: str) -> etree._Element:
    """``data`` as an XML tree: checked first, entities unresolved, no DTD, no network."""
    check_xml(data, kind)
    parser = etree.XMLParser(
        resolve_entities=False, load_dtd=False, no_network=True, huge_tree=False, recover=False
    )
    try:
        return etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise damaged(kind, exc) from None

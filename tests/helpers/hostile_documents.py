"""Hostile office documents and books, made from documents pandoc wrote by changing their ZIP members
with Python's own :mod:`zipfile` (never with the libraries the product reads them with)."""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Mapping
from pathlib import Path

#: what a document part that declares entities starts with (billion laughs: 10^9 "ha")
LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE w:document [<!ENTITY l0 "ha">'
    + "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 10))
    + "]>\n"
)


def rezip(
    path: Path,
    replace: Mapping[str, bytes] | None = None,
    *,
    drop: tuple[str, ...] = (),
    compression: int = zipfile.ZIP_DEFLATED,
) -> bytes:
    """The container at ``path`` with members replaced or added (``replace``) or dropped."""
    replace = dict(replace or {})
    out = io.BytesIO()
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w", compression) as target:
        for info in source.infolist():
            if info.filename in drop:
                continue
            data = replace.pop(info.filename, None)
            target.writestr(info.filename, source.read(info) if data is None else data)
        for name, data in replace.items():
            target.writestr(name, data)
    return out.getvalue()


def member(path: Path, name: str) -> bytes:
    with zipfile.ZipFile(path) as archive:
        return archive.read(name)


def with_doctype(xml: bytes, doctype: str) -> bytes:
    """``xml`` with ``doctype`` (entity declarations) after its XML declaration, and ``&l9;`` (or
    ``&xxe;``) used in its first text run."""
    body = xml.split(b"?>", 1)[1] if xml.startswith(b"<?xml") else xml
    entity = b"&xxe;" if b"xxe" in doctype.encode() else b"&l9;"
    body = body.replace(b'<w:t xml:space="preserve">', b'<w:t xml:space="preserve">' + entity, 1)
    return doctype.encode() + body


def zip_bomb(path: Path, name: str, unpacked_mib: int = 40) -> bytes:
    """The container at ``path`` with member ``name`` replaced by ``unpacked_mib`` MiB of one byte
    repeated (a few tens of KiB packed)."""
    return rezip(path, {name: b"<" * (unpacked_mib << 20)})


def flag_encrypted(data: bytes) -> bytes:
    """``data`` (a ZIP file) with the "encrypted" flag set on every member, in the local headers
    and in the central directory."""
    patched = bytearray(data)
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (at := patched.find(signature, start)) >= 0:
            (flags,) = struct.unpack_from("<H", patched, at + flag_at)
            struct.pack_into("<H", patched, at + flag_at, flags | 0x1)
            start = at + 4
    return bytes(patched)


def claim_packed_size(data: bytes, name: str, packed: int) -> bytes:
    """``data`` (a ZIP file) whose central directory claims ``packed`` bytes as the packed size of
    member ``name`` (a bomb's lie to pass a ratio check; :mod:`zipfile` reads the member anyway,
    its compressed stream ends first)."""
    patched = bytearray(data)
    start = 0
    while (at := patched.find(b"PK\x01\x02", start)) >= 0:
        (length,) = struct.unpack_from("<H", patched, at + 28)
        if bytes(patched[at + 46 : at + 46 + length]) == name.encode():
            struct.pack_into("<I", patched, at + 20, packed)
        start = at + 4
    return bytes(patched)

"""Rich Text Format (RTF) as outline text (:mod:`kortty_rag.extract.outline`; docs/DESIGN.md §6).

striprtf turns RTF into its text (pictures, binary data and the other groups that are not text are
skipped; the code page is the document's own). A paragraph with an outline level
(``\\outlinelevelN``, as word processors write for headings) becomes a heading: a mark put in the
RTF before striprtf reads it survives as the first characters of that paragraph's text.

Before striprtf reads it, the RTF is prepared so that striprtf can neither fail on it nor take
more than linear time: ``\\binN`` data is removed (striprtf miscounts it), a ``\\uN`` outside
Unicode becomes U+FFFD, the mark's own control characters are removed from the text, a font table
of over :data:`MAX_FONT_TABLE` characters is left out (its code pages then default to the
document's), and field groups are written so that striprtf's hyperlink pattern (cubic on a long
line) does not apply: link texts stay, their addresses are not added.
"""

from __future__ import annotations

import re

from kortty_rag.extract.outline import Outline, Unreadable, error_text
from kortty_rag.messages import msg

_LEVEL = re.compile(rb"\\outlinelevel(\d)(?![0-9])[ ]?")
_BINARY = re.compile(rb"\\bin(\d{1,10}) ?")
_MARK = re.compile(r"^\x02(\d)\x03(.*)$")
#: the mark's characters where the RTF itself has them (raw, or as ``\\'02``, ``\\u3``)
_MARK_CHARACTERS = re.compile(rb"[\x02\x03]|\\'0[23]|\\u0*[23](?![0-9])")
_UNICODE = re.compile(rb"\\u(-?[0-9]{1,12})")
_FIELD = re.compile(rb"\{\\field\{")
_FONT_TABLE = re.compile(rb"\{\\fonttbl")
#: a font table's size beyond which it is left out (striprtf's font pattern is quadratic in it;
#: a real one is a few KiB)
MAX_FONT_TABLE = 32 * 1024
#: a paragraph mark that ends a table cell's text (the cell mark ends the paragraph already)
_CELL_PARAGRAPH = re.compile(rb"\\par(?![a-z])[ ]?(\s*\}\s*)(?=\\cell(?![a-z]))")


def read_rtf(data: bytes, outline: Outline) -> None:
    from striprtf.striprtf import rtf_to_text

    if not data.lstrip()[:5] == b"{\\rtf":
        raise Unreadable(msg("not an RTF file (the RTF header is missing)"))
    cells = _CELL_PARAGRAPH.sub(rb"\1", _prepared(_without_binary(data)))
    marked = _LEVEL.sub(lambda m: b"\\outlinelevel%s \x02%s\x03" % (m[1], m[1]), cells)
    try:
        text = rtf_to_text(  # type: ignore[no-untyped-call]
            marked.decode("latin-1"), errors="replace"
        )
    except (ValueError, LookupError, IndexError, RecursionError, OverflowError) as exc:
        raise Unreadable(msg("malformed RTF ({error})", error=error_text(exc))) from None
    for line in text.split("\n"):
        mark = _MARK.match(line.lstrip())
        if mark:
            outline.heading(int(mark[1]) + 1, _unmarked(mark[2]))
            continue
        plain = _unmarked(line).rstrip()
        if plain.endswith("|"):  # a table row: each cell ends with a cell mark
            outline.row(plain[:-1].split("|"))
        else:
            outline.paragraph(plain)


def _without_binary(data: bytes) -> bytes:
    """``data`` without the bytes of its ``\\binN`` runs (N raw bytes after the control word and its
    space, which may hold braces and backslashes; striprtf miscounts them by that space)."""
    parts: list[bytes] = []
    at = 0
    for found in _BINARY.finditer(data):
        if found.start() < at:
            continue  # inside the binary data of the run before
        parts.append(data[at : found.start()])
        at = found.end() + int(found[1])
    parts.append(data[at:])
    return b"".join(parts)


def _prepared(data: bytes) -> bytes:
    """``data`` as striprtf can read in linear time and without failing (module docstring)."""
    data = _MARK_CHARACTERS.sub(b"", data)
    data = _UNICODE.sub(_in_unicode, data)
    data = _FIELD.sub(lambda _: b"{\\field {", data)  # a function: no template escapes
    table = _FONT_TABLE.search(data)
    if table:
        end = _group_end(data, table.start())
        if end - table.start() > MAX_FONT_TABLE:
            data = data[: table.start()] + data[end:]
    return data


def _in_unicode(found: re.Match[bytes]) -> bytes:
    value = int(found[1])
    return found[0] if -32768 <= value <= 65535 else b"\\u65533"


def _group_end(data: bytes, start: int) -> int:
    """Where the group that opens at ``start`` ends (after its closing brace, or the end of
    ``data``); escaped braces and backslashes are text."""
    depth = 0
    at = start
    while at < len(data):
        found = _BRACE_OR_ESCAPE.search(data, at)
        if found is None:
            break
        token = found[0]
        at = found.end()
        if token == b"{":
            depth += 1
        elif token == b"}":
            depth -= 1
            if depth == 0:
                return at
    return len(data)


_BRACE_OR_ESCAPE = re.compile(rb"\\.|[{}]", re.DOTALL)


def _unmarked(text: str) -> str:
    return text.replace("\x02", "").replace("\x03", "")

"""Strict text decoding (docs/DESIGN.md §6): valid UTF-8, BOM stripped, CRLF normalised, no binary control bytes.

:class:`TextInspector` checks a file block by block (the scan streams files of up to 1 GiB without holding
them); :func:`decode_text` decodes a whole file for extraction with exactly the same rules.
"""

from __future__ import annotations

import codecs
import hashlib
import re
from dataclasses import dataclass

from kortty_rag.messages import msg

_BOM = "\ufeff"
#: C0 controls other than TAB, LF, VT, FF, CR and ESC (ANSI colours in logs), plus DEL.
_BINARY_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")


class TextRejected(ValueError):
    """The bytes are not acceptable text; ``reason`` is the review's skip reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class TextFacts:
    sha256: str
    size: int
    characters: int


class TextInspector:
    """Feed a file's bytes in order; :meth:`finish` returns its hash and character count or raises."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
        self._hash = hashlib.sha256()
        self._bytes = 0
        self._chars = 0
        self._first = True
        self._after_cr = (
            False  # the text so far ends with CR: a LF first in the next block pairs it
        )

    def feed(self, block: bytes) -> None:
        self._check(block, final=False)

    def finish(self) -> TextFacts:
        self._check(b"", final=True)
        return TextFacts(self._hash.hexdigest(), self._bytes, self._chars)

    def _check(self, block: bytes, *, final: bool) -> str:
        """Check ``block``; returns its decoded text (leading BOM stripped, line ends as they are)."""
        nul = block.find(b"\x00")
        if nul >= 0:
            raise TextRejected(
                msg("binary file: contains a NUL byte at offset {offset}", offset=self._bytes + nul)
            )
        pending = len(self._decoder.getstate()[0])
        try:
            text = self._decoder.decode(block, final)
        except UnicodeDecodeError as exc:
            offset = self._bytes - pending + exc.start
            raise TextRejected(
                msg("not valid UTF-8 (near byte offset {offset})", offset=offset)
            ) from None
        match = _BINARY_CONTROL.search(text)
        if match:
            raise TextRejected(
                msg("binary file: contains control byte 0x{byte:02X}", byte=ord(match.group()))
            )
        self._hash.update(block)
        self._bytes += len(block)
        if self._first and text:
            self._first = False
            if text.startswith(_BOM):
                text = text[1:]
        # characters as extraction will see them: CRLF and lone CR count as one LF
        self._chars += len(text) - text.count("\r\n")
        if self._after_cr and text.startswith("\n"):
            self._chars -= 1  # the CRLF was split between two blocks
        if text:
            self._after_cr = text.endswith("\r")
        return text


class TextStream(TextInspector):
    """A :class:`TextInspector` that also returns the text, normalised exactly as :func:`decode_text`
    does for the whole file, block by block (a CRLF split between blocks is still one LF)."""

    def __init__(self) -> None:
        super().__init__()
        self._carry_cr = False

    def decode(self, block: bytes, *, final: bool = False) -> str:
        text = self._check(block, final=final)
        if self._carry_cr:
            text = "\r" + text
            self._carry_cr = False
        if text.endswith("\r") and not final:
            text, self._carry_cr = text[:-1], True
        return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text

    def facts(self) -> TextFacts:
        """Hash, size and characters of everything decoded (call after ``decode(b"", final=True)``)."""
        return TextFacts(self._hash.hexdigest(), self._bytes, self._chars)

    def hash_only(self, block: bytes) -> None:
        """Account bytes without decoding them (the rest of a file already rejected)."""
        self._hash.update(block)
        self._bytes += len(block)


def decode_text(data: bytes) -> str:
    """Decode ``data`` as strict UTF-8 text or raise :class:`TextRejected` with one clear reason."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise TextRejected(msg("binary file: contains a NUL byte at offset {offset}", offset=nul))
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise TextRejected(
            msg("not valid UTF-8 (near byte offset {offset})", offset=exc.start)
        ) from None
    match = _BINARY_CONTROL.search(text)
    if match:
        raise TextRejected(
            msg("binary file: contains control byte 0x{byte:02X}", byte=ord(match.group()))
        )
    return normalise_text(text)


def normalise_text(text: str) -> str:
    """Strip one leading BOM and turn CRLF and lone CR into LF."""
    if text.startswith(_BOM):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text

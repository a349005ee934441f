"""The text of a document read by a format reader (HTML, DOCX, ODT, EPUB, PPTX, RTF), written as the
Markdown-like outline the chunker reads (docs/DESIGN.md §6).

Headings become ATX lines (``# Title``, ``## Section``), paragraphs are separated by a blank line,
list items start with ``- ``, and a table row is its cells joined by `` | ``. A body line that would
read as a heading is escaped with a backslash (``\\# not a heading``), so only the document's own
headings cut it into sections. Whitespace inside a paragraph is collapsed and control characters
are dropped.

Every reader writes through one :class:`Outline`, which stops the extraction as soon as the text
would exceed the document's character limit (:class:`TooMuchText`).
"""

from __future__ import annotations

import re

#: heading levels the outline keeps (deeper ones are written at this level)
MAX_LEVEL = 6
#: control characters (C0, DEL, C1), the byte order mark, and lone surrogates (an RTF ``\\u``
#: escape can name one)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\ud800-\udfff]")
_SPACE = re.compile(r"[ \t\r\n\f\v\u00a0\u2028\u2029]+")
_LOOKS_LIKE_HEADING = re.compile(r"^( {0,3})(#)")


class TooMuchText(Exception):
    """The document yields more characters than its limit (extraction stops at once)."""


class Unreadable(Exception):
    """The document cannot be read; ``reason`` says why in words for people."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def error_text(error: BaseException) -> str:
    """``error`` for a skip reason: its type and at most 160 characters of its message, one line."""
    return f"{type(error).__name__}: {clean(str(error))[:160]}"


def clean(text: str) -> str:
    """``text`` on one line: control characters dropped, runs of whitespace one space."""
    return _SPACE.sub(" ", _CONTROL.sub("", text)).strip()


class Outline:
    """Collects one document's (or one slide's) text as outline lines, within a character limit.

    ``limit`` is shared across the pages of one document: pass the same :class:`Budget`."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._parts: list[tuple[str, str]] = []  # (block, kind)

    def heading(self, level: int, text: str) -> None:
        title = clean(text)
        if title:
            self._block("#" * max(1, min(level, MAX_LEVEL)) + " " + title)

    def paragraph(self, text: str, prefix: str = "") -> None:
        body = clean(text)
        if body:
            kind = "item" if prefix else "paragraph"
            self._block(prefix + _LOOKS_LIKE_HEADING.sub(r"\1\\\2", body), kind)

    def item(self, text: str, depth: int = 0) -> None:
        """A list item (consecutive items are one block)."""
        self.paragraph(text, "  " * max(0, min(depth, 8)) + "- ")

    def row(self, cells: list[str]) -> None:
        """A table row (consecutive rows are one block)."""
        texts = [clean(cell) for cell in cells]
        if any(texts):
            self._block(_LOOKS_LIKE_HEADING.sub(r"\1\\\2", " | ".join(texts)), "row")

    def preformatted(self, text: str) -> None:
        """Text whose line breaks matter (code, poetry): lines kept, each escaped if needed."""
        lines = [_CONTROL.sub("", line).rstrip() for line in text.replace("\r", "").split("\n")]
        body = "\n".join(_LOOKS_LIKE_HEADING.sub(r"\1\\\2", line) for line in lines).strip("\n")
        if body.strip():
            self._block(body)

    def text(self) -> str:
        out: list[str] = []
        previous = ""
        for block, kind in self._parts:
            if out:
                out.append("\n" if kind == previous and kind in ("item", "row") else "\n\n")
            out.append(block)
            previous = kind
        return "".join(out) + ("\n" if out else "")

    def _block(self, block: str, kind: str = "block") -> None:
        self.budget.spend(len(block) + 2)
        self._parts.append((block, kind))


class Budget:
    """Characters one document may still yield; ``None``: unlimited."""

    def __init__(self, max_characters: int | None) -> None:
        self.left = max_characters

    def spend(self, characters: int) -> None:
        if self.left is None:
            return
        self.left -= characters
        if self.left < 0:
            raise TooMuchText

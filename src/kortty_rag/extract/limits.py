"""How much text one document may yield, so no single file can take unbounded memory or hours.

A document yields at most as many characters as its source's size limit has bytes (50 Mi by
default): no more text than the largest text file the source accepts. A text file never reaches it
(a character takes at least one byte); a compressed document can (a PDF, whose content streams and
font maps expand a few bytes into many characters, and the ZIP containers of DOCX, ODT, EPUB and
PPTX). Such a document therefore also yields at most :data:`PDF_CHARACTERS_PER_BYTE` characters per
byte of its own size (and at least :data:`PDF_MIN_CHARACTERS` in any case), which real documents
stay far below (about 1–3 for text PDFs, 2–10 for office documents).
"""

from __future__ import annotations

from kortty_rag.messages import msg

PDF_CHARACTERS_PER_BYTE = 100
PDF_MIN_CHARACTERS = 1 << 20


def max_characters(size_limit: int, file_size: int, *, pdf: bool) -> int:
    """The most characters a file of ``file_size`` bytes may yield under ``size_limit``; ``pdf``:
    a compressed document (:func:`kortty_rag.extract.formats.is_compressed`)."""
    if not pdf:
        return size_limit
    return min(size_limit, max(PDF_MIN_CHARACTERS, file_size * PDF_CHARACTERS_PER_BYTE))


def too_much_text(size_limit: int, file_size: int, *, pdf: bool) -> str:
    """The skip reason of a file that yields more than :func:`max_characters`."""
    limit = max_characters(size_limit, file_size, pdf=pdf)
    if pdf and limit < size_limit:
        why = msg(
            "a compressed document (PDF, office document, EPUB) may yield {per_byte} characters "
            "per byte, at least {minimum}",
            per_byte=PDF_CHARACTERS_PER_BYTE,
            minimum=_amount(PDF_MIN_CHARACTERS),
        )
    else:
        why = msg("one character per byte of the size limit; raise the limit to index it")
    return msg(
        "too much text: more than {limit} characters from {size} ({why})",
        limit=_amount(limit),
        size=_bytes(file_size),
        why=why,
    )


def _amount(characters: int) -> str:
    if characters >= 1 << 20:
        return msg("{amount:.1f} Mi", amount=characters / (1 << 20))
    return msg("{count:,}", count=characters)


def _bytes(size: int) -> str:
    if size < 1024:
        return msg("{amount:.0f} {unit}", amount=size, unit="B")
    if size < 1 << 20:
        return msg("{amount:.1f} {unit}", amount=size / 1024, unit="KiB")
    return msg("{amount:.1f} {unit}", amount=size / (1 << 20), unit="MiB")

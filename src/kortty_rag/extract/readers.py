"""The format readers of the isolated worker (:mod:`kortty_rag.extract.pdf_worker`): HTML, DOCX, ODT,
EPUB, PPTX and RTF as outline text, with one answer shape for all of them (docs/DESIGN.md §6).

Each document yields its text as pages (one for every format but PPTX, whose slides are its pages)
within its character limit; whatever a reader raises on hostile input becomes the reason the file is
skipped, never a crash of the parent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kortty_rag.extract.docx_text import read_docx
from kortty_rag.extract.epub_text import read_epub
from kortty_rag.extract.html_text import read_html
from kortty_rag.extract.odt_text import read_odt
from kortty_rag.extract.outline import Budget, Outline, TooMuchText, Unreadable, error_text
from kortty_rag.extract.pptx_text import read_pptx
from kortty_rag.extract.rtf_text import read_rtf
from kortty_rag.messages import msg


def _html(data: bytes, outline: Outline) -> None:
    read_html(data, outline)


_WHOLE: dict[str, Callable[[bytes, Outline], None]] = {
    "HTML": _html,
    "DOCX": read_docx,
    "ODT": read_odt,
    "EPUB": read_epub,
    "RTF": read_rtf,
}
FORMATS = frozenset({*_WHOLE, "PPTX"})


def preload() -> None:
    """Import what the readers import lazily (before the worker limits its address space)."""
    import docx  # noqa: F401
    import pptx  # noqa: F401
    import striprtf.striprtf  # noqa: F401


def read_document(fmt: str, data: bytes, max_characters: int | None = None) -> dict[str, Any]:
    """``{"ok": true, "pages": [...]}``, ``{"ok": false, "reason": ...}`` or
    ``{"ok": false, "too_much_text": true}`` for the document ``data`` of format ``fmt``."""
    budget = Budget(max_characters)
    try:
        if fmt == "PPTX":
            pages = read_pptx(data, budget)
        else:
            outline = Outline(budget)
            _WHOLE[fmt](data, outline)
            pages = [outline.text()]
    except TooMuchText:
        return {"ok": False, "too_much_text": True}
    except Unreadable as exc:
        return {"ok": False, "reason": exc.reason}
    except MemoryError:
        return {
            "ok": False,
            "reason": msg(
                "{kind} file needs more memory than the extraction limit allows", kind=fmt
            ),
        }
    except RecursionError:
        return {"ok": False, "reason": msg("malformed {kind} file (nested too deeply)", kind=fmt)}
    except Exception as exc:  # parsers raise many types on hostile input
        return {
            "ok": False,
            "reason": msg(
                "unreadable {kind} file ({error})",
                kind=fmt,
                error=error_text(exc),
            ),
        }
    if not any(page.strip() for page in pages):
        return {"ok": False, "reason": msg("no text to index (the {kind} file has none)", kind=fmt)}
    return {"ok": True, "pages": pages}

"""The isolated extraction process for PDFs and the other documents read by a format reader (HTML,
DOCX, ODT, EPUB, PPTX, RTF: :mod:`kortty_rag.extract.readers`; docs/DESIGN.md §6). Run as
``python -m kortty_rag.extract.pdf_worker``.

It reads one JSON request per line on stdin (``{"path": ..., "limit": ..., "format": ...}``) and
answers one JSON line on
stdout: ``{"ok": true, "pages": [...]}``, ``{"ok": false, "reason": ...}``, or
``{"ok": false, "too_much_text": true}`` when the text would exceed the file's character limit
(``kortty_rag.extract.limits``); extraction then stops at once. It limits its own address
space and file writes, so a hostile PDF can at worst kill this process; the parent notices, reports the
file as skipped and starts a fresh worker.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import re
import resource
import sys
import warnings
from io import BytesIO
from typing import Any

from kortty_rag.messages import msg

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _limit_self(memory_bytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


class _TooMuchText(Exception):
    """The PDF yields more characters than its limit (found while extracting, which stops)."""


class _Limit:
    """Counts the characters extraction produces; raises :class:`_TooMuchText` past the limit."""

    def __init__(self, max_characters: int | None) -> None:
        self.max_characters = max_characters
        self.total = 0  # characters of the finished pages
        self.produced = 0  # characters of the page being extracted so far

    def page_started(self) -> None:
        self.produced = 0

    def visit(self, text: Any, *_: Any) -> None:
        self.produced += len(text) if isinstance(text, str) else 0
        self._check(self.total + self.produced)

    def page_done(self, characters: int) -> None:
        self.total += characters
        self._check(self.total)

    def _check(self, characters: int) -> None:
        if self.max_characters is not None and characters > self.max_characters:
            raise _TooMuchText


def extract_pages(data: bytes, max_characters: int | None = None) -> dict[str, Any]:
    """Extract the text of every page, or say why the PDF is skipped.

    With ``max_characters`` extraction stops as soon as the text produced so far exceeds it (a page
    whose font map expands each byte into many characters is stopped while it is being read), and
    the answer is ``{"ok": false, "too_much_text": true}``.
    """
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    if not data.lstrip()[:5].startswith(b"%PDF-"):
        return {"ok": False, "reason": msg("not a PDF file (no %PDF- header)")}
    try:
        reader = PdfReader(BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (DependencyError, NotImplementedError) as exc:
                return {
                    "ok": False,
                    "reason": msg("encrypted PDF that cannot be opened ({error})", error=str(exc)),
                }
            if not opened:
                return {"ok": False, "reason": msg("password-protected PDF")}
        pages: list[str] = []
        limit = _Limit(max_characters)
        for page in reader.pages:
            limit.page_started()
            text = page.extract_text(visitor_text=limit.visit) or ""
            limit.page_done(len(text))
            pages.append(_CONTROL.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n")))
    except _TooMuchText:
        return {"ok": False, "too_much_text": True}
    except FileNotDecryptedError:
        return {"ok": False, "reason": msg("password-protected PDF")}
    except MemoryError:
        return {
            "ok": False,
            "reason": msg("PDF needs more memory than the extraction limit allows"),
        }
    except RecursionError:
        return {"ok": False, "reason": msg("malformed PDF (object structure nested too deeply)")}
    except (
        PdfReadError,
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        IndexError,
        OSError,
        AssertionError,
        ZeroDivisionError,
    ) as exc:
        return {
            "ok": False,
            "reason": msg(
                "malformed PDF ({error})", error=f"{type(exc).__name__}: {str(exc)[:160]}"
            ),
        }
    except Exception as exc:  # pypdf raises many types on hostile input
        return {
            "ok": False,
            "reason": msg(
                "unreadable PDF ({error})", error=f"{type(exc).__name__}: {str(exc)[:160]}"
            ),
        }
    if not pages:
        return {"ok": False, "reason": msg("PDF has no pages")}
    if not any(page.strip() for page in pages):
        return {"ok": False, "reason": msg("no extractable text (scanned or image-only PDF)")}
    return {"ok": True, "pages": pages}


def _serve(memory_bytes: int) -> None:
    import pypdf  # noqa: F401  (import before the memory limit applies)

    from kortty_rag.extract.formats import PDF, is_compressed
    from kortty_rag.extract.limits import max_characters
    from kortty_rag.extract.readers import preload, read_document
    from kortty_rag.extract.safe_open import NotRegularFile, read_regular_file

    preload()

    _limit_self(memory_bytes)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            data, _ = read_regular_file(request["path"], int(request["limit"]))
            if len(data) > int(request["limit"]):
                answer: dict[str, Any] = {
                    "ok": False,
                    "reason": msg("file grew beyond its size limit"),
                }
            else:
                fmt = str(request.get("format", PDF))
                limit = max_characters(int(request["limit"]), len(data), pdf=is_compressed(fmt))
                if fmt == PDF:
                    answer = extract_pages(data, limit)
                else:
                    answer = read_document(fmt, data, limit)
                answer["sha256"] = hashlib.sha256(data).hexdigest()
        except NotRegularFile as exc:
            answer = {
                "ok": False,
                "reason": msg("not a regular file ({error})", error=exc.strerror),
            }
        except MemoryError:
            answer = {
                "ok": False,
                "reason": msg("the file needs more memory than the extraction limit allows"),
            }
        except OSError as exc:
            answer = {
                "ok": False,
                "reason": msg("cannot read file ({error})", error=exc.strerror or str(exc)),
            }
        sys.stdout.write(json.dumps(answer, ensure_ascii=True) + "\n")
        sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memory", type=int, required=True)
    args = parser.parse_args()
    sys.dont_write_bytecode = True
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    _serve(args.memory)


if __name__ == "__main__":
    main()

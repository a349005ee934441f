"""Text extraction of PDFs and the documents read by a format reader (HTML, DOCX, ODT, EPUB, PPTX,
RTF) through the isolated worker process, with a time and a memory limit per file.

One :class:`PdfExtractor` keeps one worker alive across files (starting Python and importing the
parsers costs more than most documents). A file that takes longer than ``timeout`` seconds, or kills the worker, is reported
as skipped with that reason, and the next file gets a fresh worker.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import kortty_rag
from kortty_rag.errors import ExtractionError
from kortty_rag.extract.formats import PDF, is_compressed
from kortty_rag.extract.limits import too_much_text
from kortty_rag.messages import msg
from kortty_rag.models import GiB

DEFAULT_TIMEOUT_SECONDS = 60.0
DEFAULT_MEMORY_BYTES = 1 * GiB
CHANGED_SINCE_REVIEW = msg("changed after it was checked; refresh to review it again")


@dataclass(frozen=True)
class PdfLimits:
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    memory_bytes: int = DEFAULT_MEMORY_BYTES


@dataclass(frozen=True)
class PdfText:
    """Text per page (page numbers are 1-based positions in :attr:`pages`) and the hash of the bytes read."""

    pages: tuple[str, ...]
    sha256: str

    @property
    def characters(self) -> int:
        return sum(len(page) for page in self.pages)


class PdfExtractor:
    """Extract PDFs one at a time in a child process. Thread-safe; use as a context manager."""

    def __init__(self, limits: PdfLimits | None = None) -> None:
        self.limits = limits or PdfLimits()
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._lock = threading.Lock()

    def __enter__(self) -> PdfExtractor:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._stop()

    def extract(
        self, path: Path, size_limit: int, expected_sha256: str | None = None, fmt: str = PDF
    ) -> PdfText:
        """Return the page texts of ``path`` (a document of format ``fmt``: one page for all but PDF
        and PPTX) or raise :class:`ExtractionError` with the skip reason.

        With ``expected_sha256`` the bytes the worker read must be the reviewed ones.
        """
        with self._lock:
            answer = self._ask({"path": os.fspath(path), "limit": size_limit, "format": fmt})
        if answer.get("too_much_text"):
            raise ExtractionError(
                path, too_much_text(size_limit, _size(path), pdf=is_compressed(fmt))
            )
        if not answer.get("ok"):
            reason = answer.get("reason", msg("{kind} extraction failed", kind=fmt))
            raise ExtractionError(path, reason if isinstance(reason, str) else str(reason))
        result = PdfText(tuple(str(page) for page in answer["pages"]), str(answer["sha256"]))
        if expected_sha256 is not None and result.sha256 != expected_sha256:
            raise ExtractionError(path, CHANGED_SINCE_REVIEW)
        return result

    # -- the worker ---------------------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        package_root = str(Path(kortty_rag.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        self._buffer = bytearray()
        self._proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kortty_rag.extract.pdf_worker",
                "--memory",
                str(self.limits.memory_bytes),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            close_fds=True,
        )
        return self._proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            if proc.stdin:
                proc.stdin.close()
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout:
            proc.stdout.close()

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        fmt = str(request["format"])
        proc = self._proc if self._proc is not None and self._proc.poll() is None else self._start()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._crashed(proc, fmt)
        deadline = time.monotonic() + self.limits.timeout_seconds
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            searched = 0  # the answer can be tens of MB: look for its end in new bytes only
            while b"\n" not in self._buffer[searched:]:
                searched = len(self._buffer)
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    self._stop()
                    return {
                        "ok": False,
                        "reason": msg(
                            "{kind} extraction took longer than {seconds:g} s and was stopped",
                            kind=fmt,
                            seconds=self.limits.timeout_seconds,
                        ),
                    }
                block = os.read(proc.stdout.fileno(), 1 << 20)
                if not block:
                    return self._crashed(proc, fmt)
                self._buffer += block
        end = self._buffer.index(b"\n")
        answer: dict[str, Any] = json.loads(self._buffer[:end])
        del self._buffer[: end + 1]
        return answer

    def _crashed(self, proc: subprocess.Popen[bytes], fmt: str) -> dict[str, Any]:
        self._stop()
        code = proc.returncode
        how = (
            msg("signal {number}", number=-code)
            if code is not None and code < 0
            else msg("exit code {code}", code=code)
        )
        return {
            "ok": False,
            "reason": msg(
                "{kind} extraction crashed ({how}); the file may be malformed or need more memory "
                "than the {limit} MiB limit",
                kind=fmt,
                how=how,
                limit=self.limits.memory_bytes // (1024 * 1024),
            ),
        }


def _size(path: Path) -> int:
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0

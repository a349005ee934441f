"""The diagnostic log of the long-running front ends: the desktop app (with its watcher), ``watch`` and
the MCP server (docs/DESIGN.md §1).

``$KORTTY_HOME/rag/logs/<component>.log`` gets the product's log records (``kortty_rag.*``, level
INFO and above) with full tracebacks of unexpected errors, so a failure a user saw in a dialog can be
read afterwards. Never on stdout: the MCP server speaks its protocol there. Bounded like the MCP call
log: past :data:`MAX_BYTES` the file is renamed to ``.1`` (up to ``.3``; the oldest is dropped). The
folder and files are private to the user (0700, 0600) and are never opened through a symbolic link;
a log that cannot be written is left out, and never fails the program.
"""

from __future__ import annotations

import io
import logging
import logging.handlers
import os
import traceback
from pathlib import Path

from kortty_rag import __version__
from kortty_rag.config.paths import rag_dir

MAX_BYTES = 1024 * 1024
KEPT_FILES = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"

_log = logging.getLogger("kortty_rag")


def log_folder() -> Path:
    return rag_dir() / "logs"


def log_file(component: str) -> Path:
    return log_folder() / f"{component}.log"


class _PrivateRotatingHandler(logging.handlers.RotatingFileHandler):
    """A rotating file handler whose files are created 0600 and never opened through a link."""

    def _open(self) -> io.TextIOWrapper:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(self.baseFilename, flags, 0o600)
        return io.TextIOWrapper(
            io.FileIO(fd, "a"), encoding=self.encoding or "utf-8", errors=self.errors
        )


def start_log(component: str, level: int = logging.INFO) -> Path | None:
    """Send the product's log records to ``<component>.log``; its path, or ``None`` when the log
    cannot be written (then nothing is logged to a file, and nothing fails)."""
    path = log_file(component)
    for handler in _log.handlers:
        if isinstance(handler, _PrivateRotatingHandler) and Path(handler.baseFilename) == path:
            return path  # already logging there
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler = _PrivateRotatingHandler(
            path, maxBytes=MAX_BYTES, backupCount=KEPT_FILES, encoding="utf-8", delay=False
        )
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(level)
    _log.addHandler(handler)
    if _log.getEffectiveLevel() > level:
        _log.setLevel(level)
    _log.info("%s started: kortty-rag %s, pid %d", component, __version__, os.getpid())
    return path


def stop_log(component: str) -> None:
    """Stop logging to ``<component>.log`` (tests; a program's log lives as long as it runs)."""
    path = log_file(component)
    for handler in list(_log.handlers):
        if isinstance(handler, _PrivateRotatingHandler) and Path(handler.baseFilename) == path:
            _log.removeHandler(handler)
            handler.close()


def traceback_text(exc: BaseException) -> str:
    """The full traceback of ``exc`` (as recorded where it was caught, when it was)."""
    recorded = getattr(exc, "__traceback_text__", None)
    if isinstance(recorded, str) and recorded:
        return recorded
    return "".join(traceback.format_exception(exc))


def log_unexpected(context: str, exc: BaseException) -> str:
    """Log an error nobody raised on purpose, with its traceback; returns the traceback text."""
    text = traceback_text(exc)
    _log.error("%s: %s: %s\n%s", context, type(exc).__name__, exc, text.rstrip())
    return text

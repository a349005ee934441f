"""The MCP call log: one JSON line per tool call, so the user can see what other AI tools did.

``$KORTTY_HOME/rag/logs/mcp.log`` gets, for every call: the time (UTC), the tool, the store and paths
it named, the outcome (``ok``, ``error`` with the message the client got, or ``crash``) and the
duration. Search terms are personal: the query is written only when the server was started with
``kortty-rag serve --log-queries``. The log is bounded: past :data:`MAX_BYTES` it is renamed to
``mcp.log.1`` (older ones shift up to ``mcp.log.3``, the oldest is dropped), so it never holds more
than about 4 MiB.

Each line is written with one ``write`` on a file opened ``O_APPEND`` (several servers may log at
once) and without following a symbolic link; the folder and file are private to the user (0700,
0600). A log that cannot be written is reported on stderr and never fails the tool call itself.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kortty_rag.app.data_folder import log_folder

MAX_BYTES = 1024 * 1024
KEPT_FILES = 3
LOG_NAME = "mcp.log"

log = logging.getLogger(__name__)


def mcp_log_file() -> Path:
    return log_folder() / LOG_NAME


class CallLog:
    """Appends one JSON line per MCP tool call to :func:`mcp_log_file`."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        log_queries: bool = False,
        max_bytes: int = MAX_BYTES,
        kept_files: int = KEPT_FILES,
    ) -> None:
        self.path = path or mcp_log_file()
        self.log_queries = log_queries
        self.max_bytes = max_bytes
        self.kept_files = kept_files
        self._lock = threading.Lock()

    def entry(
        self, tool: str, arguments: Mapping[str, Any], outcome: str, message: str, seconds: float
    ) -> dict[str, Any]:
        """The logged record of one call (``arguments`` as the client sent them)."""
        path = arguments.get("path")
        entry: dict[str, Any] = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "tool": tool,
            "store": arguments.get("store"),
            "paths": [str(path)] if path is not None else [],
            "outcome": outcome,
        }
        if message:
            entry["message"] = message
        if self.log_queries and "query" in arguments:
            entry["query"] = arguments["query"]
        return entry | {"ms": round(seconds * 1000, 1)}

    def record(
        self,
        tool: str,
        arguments: Mapping[str, Any],
        outcome: str,
        message: str = "",
        seconds: float = 0.0,
    ) -> None:
        line = json.dumps(self.entry(tool, arguments, outcome, message, seconds), ensure_ascii=True)
        try:
            with self._lock:
                self._append((line + "\n").encode("ascii"))
        except OSError as exc:
            log.warning("Could not write the MCP call log %s: %s", self.path, exc)

    def _append(self, data: bytes) -> None:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            size = os.lstat(self.path).st_size
        except FileNotFoundError:
            size = 0
        if size and size + len(data) > self.max_bytes:
            self._rotate()
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(self.path, flags, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    def _rotate(self) -> None:
        """``mcp.log`` → ``mcp.log.1`` → … → ``mcp.log.N``; the oldest is replaced."""
        for index in range(self.kept_files - 1, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{index}")
            if older.exists():
                os.replace(older, self.path.with_name(f"{self.path.name}.{index + 1}"))
        os.replace(self.path, self.path.with_name(f"{self.path.name}.1"))

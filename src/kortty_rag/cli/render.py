"""Terminal output: the review table, progress on stderr, JSON.

Every string shown here may come from a file name or a file's text, so it goes through the rendering
rule of :mod:`kortty_rag.untrusted`: table cells and progress lines are escaped to one line each, and
JSON has every character a terminal would not show as itself written as a ``\\uXXXX`` escape.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from kortty_rag.app.workspace import ReviewRow
from kortty_rag.messages import human_size
from kortty_rag.progress import ProgressState, ProgressTracker
from kortty_rag.untrusted import escape_json_text, escape_line


def print_json(value: Any, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    out.write(escape_json_text(json.dumps(value, indent=2, ensure_ascii=False)) + "\n")


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], out: TextIO | None = None) -> None:
    """A table with one line per row: every cell is escaped, so no cell can break a line."""
    out = out or sys.stdout
    headers = [escape_line(h) for h in headers]
    rows = [[escape_line(cell) for cell in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]
    widths[-1] = 0  # the last column is not padded

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    out.write(line(headers) + "\n")
    for row in rows:
        out.write(line(row) + "\n")


def review_table(rows: Sequence[ReviewRow], out: TextIO | None = None) -> None:
    table(
        ["STATUS", "FORMAT", "SIZE", "TEXT", "PATH", "REASON"],
        [
            [
                r.status.value,
                r.format or "-",
                human_size(r.size) if r.size else "-",
                r.text_size or "-",
                r.path,
                r.shown_reason,
            ]
            for r in rows
        ],
        out,
    )


class StderrProgress:
    """Renders tracker states on stderr: one rewriting line on a terminal, a line every few seconds
    otherwise."""

    def __init__(self, stream: TextIO | None = None, *, interval: float | None = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval = interval if interval is not None else (0.1 if self.tty else 5.0)
        self._last = 0.0
        self._last_text = ""
        self.tracker = ProgressTracker(self._show)

    def _show(self, state: ProgressState) -> None:
        now = time.monotonic()
        text = escape_line(state.line())
        if now - self._last < self.interval or text == self._last_text:
            return
        self._last, self._last_text = now, text
        if self.tty:
            self.stream.write("\r\x1b[2K" + text[:200])
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty and self._last_text:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()

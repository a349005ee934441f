"""Streamed text as lines, in bounded memory: what the section chunker and the note reader both read
their text as (docs/DESIGN.md §6)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

#: a line longer than this comes in parts (minified data, not prose); only its first part starts it
LONG_LINE = 1 << 16


def lines(blocks: Iterable[str], long_line: int = LONG_LINE) -> Iterator[tuple[str, bool]]:
    """The text of ``blocks`` as lines, each with its line break (the last one may have none), and
    whether each starts a line: a line longer than ``long_line`` comes in parts, so that memory
    stays bounded."""
    rest = ""
    starts = True
    for block in blocks:
        rest += block
        if "\n" in rest:
            *complete, rest = rest.split("\n")
            for line in complete:
                yield line + "\n", starts
                starts = True
        if len(rest) > long_line:
            yield rest, starts
            rest, starts = "", False
    if rest:
        yield rest, starts

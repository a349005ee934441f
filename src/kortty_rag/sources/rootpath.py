"""A source root is pinned to the real folder it named when it was added (docs/DESIGN.md §7: links are never
followed).

A root whose path runs through a symbolic link (``linkparent/docs`` with ``linkparent → victimhome``) is
refused when it is added: whoever can re-point the link could make a later refresh index another folder.
The root's fully resolved path is recorded in the source (``Source.real_path``); a scan refuses the root
when its path resolves elsewhere now, so a moved or swapped parent folder turns the source into
``ERROR`` (its chunks are kept and the previous snapshot keeps serving) instead of indexing whatever the
path leads to today.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kortty_rag.messages import msg
from kortty_rag.models import Source


def symlink_on_path(path: Path) -> Path | None:
    """The first component of the absolute ``path`` (the path itself included) that is a symbolic
    link, or ``None``. A component that does not exist or cannot be inspected ends the check: the
    caller reports a missing or inaccessible root on its own terms."""
    current = Path(path.anchor)
    for part in path.parts[1:]:
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except OSError:
            return None
        if stat.S_ISLNK(mode):
            return current
    return None


def link_target(link: Path) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return "?"


def root_moved(source: Source) -> str | None:
    """Why ``source``'s root must not be scanned now: its path no longer resolves to the real path
    recorded when it was added. ``None`` when it still does, or when nothing was recorded (a source
    saved by an older version: its next successful refresh records the path)."""
    if source.real_path is None:
        return None
    now = os.path.realpath(source.path)
    if now == source.real_path:
        return None
    link = symlink_on_path(Path(source.path))
    how = (
        msg("{link} is a symbolic link to {target}", link=link, target=link_target(link))
        if link is not None
        else msg("a folder on its path was moved or replaced")
    )
    return msg(
        "{path} now leads to {now}, not to {recorded} where it led when it was added ({how}); it "
        "was not scanned so that no other folder is indexed in its place. If the move is "
        "intended, remove this source and add the real path {now}",
        path=source.path,
        now=now,
        recorded=source.real_path,
        how=how,
    )

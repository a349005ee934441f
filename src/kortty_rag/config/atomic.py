"""Durable file writes: temporary name, fsync of file and folder, atomic rename.

Every definition and pointer file goes through :func:`write_atomic`, so a crash leaves either the old or
the new content, never a torn file. Temporary names carry :data:`TEMP_MARKER` so the next open can remove
leftovers that are certainly ours.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kortty_rag.config.open_folder import OpenFolder

TEMP_MARKER = ".kortty-tmp-"

#: Fault-injection seam for the crash tests: called with the name of each durable step of an atomic
#: write (and of the registry's own steps), so a test can stop the process right between two of them.
checkpoint: Callable[[str], None] = lambda step: None  # noqa: E731


def sha256_file(path: Path) -> str:
    """SHA-256 of a file, read in 1 MiB blocks (model files are gigabytes)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (a rename is durable only after this)."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temp_name(target: Path) -> Path:
    return target.with_name(f"{TEMP_MARKER}{target.name}.{secrets.token_hex(4)}")


def write_atomic(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` so that readers see the old or the new bytes, nothing between."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with OpenFolder.open(target.parent, nofollow=0) as folder:
        write_atomic_in(folder, target.name, data)


def write_atomic_in(folder: OpenFolder, name: str, data: bytes) -> None:
    """:func:`write_atomic` of ``name`` in an open folder: the temporary file, the rename and the flush
    all go through the folder's descriptor, and a symbolic link at ``name`` is replaced, not followed."""
    tmp = f"{TEMP_MARKER}{name}.{secrets.token_hex(4)}"
    try:
        fd = folder.open_file(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            checkpoint(f"{name}: temp-written")
            os.fsync(fd)
        finally:
            os.close(fd)
        checkpoint(f"{name}: temp-synced")
        folder.replace(tmp, name)
    except BaseException:
        with contextlib.suppress(OSError):
            folder.unlink(tmp)
        raise
    checkpoint(f"{name}: replaced")
    folder.fsync()
    checkpoint(f"{name}: folder-synced")


def dump_json(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8")


def write_json_atomic(target: Path, value: Any) -> None:
    write_atomic(target, dump_json(value))

"""The files of the top-level ``resources/`` folder (the icon, the desktop entry, AppStream
metainfo, the translations), shipped inside the package as ``kortty_rag/resources`` and found
through :mod:`importlib.resources` (docs/DESIGN.md §1) — from a wheel as from a source checkout,
where ``src/kortty_rag/resources`` is a link to the top-level folder."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

PACKAGE = "kortty_rag"
FOLDER = "resources"


def resource(relative: str) -> Traversable:
    """``relative`` (``icons/…``, ``translations/…``) inside the shipped resources."""
    node = resources.files(PACKAGE).joinpath(FOLDER)
    for part in relative.split("/"):
        node = node.joinpath(part)
    return node


@contextlib.contextmanager
def resource_path(relative: str) -> Iterator[Path]:
    """A real file system path of a resource while the ``with`` block runs (Qt loads files by
    path; a zipped install gets a temporary copy)."""
    with resources.as_file(resource(relative)) as path:
        yield Path(path)


def read_resource(relative: str) -> bytes:
    return resource(relative).read_bytes()

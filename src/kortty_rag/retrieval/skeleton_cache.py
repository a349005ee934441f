"""The skeleton's table of ambiguous characters, kept between processes.

Finding every character with more than one reading (:func:`kortty_rag.retrieval.skeleton._ambiguous`)
folds all of Unicode: about 0.7 s of every cold search on an idle 2-core machine
(``benchmarks/cold_search.py``). The table depends only on the code that folds, the confusables data
and Python's Unicode database, so it is kept in ``~/.kortty/rag/cache/skeleton-<key>.json``, the key a
SHA-256 of exactly those three. A file that is not a valid table for its key is not used: the table is
computed again and written over it. Writing is best effort (a read-only home only costs the time).
"""

from __future__ import annotations

import hashlib
import json
import logging
import unicodedata
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from kortty_rag.config.atomic import write_json_atomic
from kortty_rag.config.paths import rag_dir

_VERSION = 1
_PREFIX = "skeleton-"
_log = logging.getLogger(__name__)

Table = dict[str, frozenset[str]]


def table_key(folding_code: Path) -> str:
    """What the table is computed from: the folding code, the confusables data, Unicode's version."""
    digest = hashlib.sha256()
    digest.update(folding_code.read_bytes())
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_bytes()
    digest.update(hashlib.sha256(data).digest())
    digest.update(unicodedata.unidata_version.encode())
    return digest.hexdigest()[:32]


def _path(key: str) -> Path:
    return rag_dir() / "cache" / f"{_PREFIX}{key}.json"


def _decoded(data: object, key: str) -> Table | None:
    if not isinstance(data, dict) or data.get("version") != _VERSION or data.get("key") != key:
        return None
    entries = data.get("ambiguous")
    if not isinstance(entries, dict) or not entries:
        return None
    table: Table = {}
    for char, read in entries.items():
        if len(char) != 1 or char.isascii() or not isinstance(read, list) or len(read) < 2:
            return None
        if not all(isinstance(r, str) for r in read) or len(set(read)) != len(read):
            return None
        table[char] = frozenset(read)
    return table


def cached_table(folding_code: Path, compute: Callable[[], Table]) -> Table:
    """The table for this code and data: read from the cache, or computed and kept there."""
    key = table_key(folding_code)
    path = _path(key)
    table: Table | None = None
    try:
        table = _decoded(json.loads(path.read_text(encoding="utf-8")), key)
        if table is None:
            _log.warning("recomputing the skeleton table: %s is not one", path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        _log.warning("recomputing the skeleton table: %s: %s", path, exc)
    if table is not None:
        return table
    table = compute()
    try:
        write_json_atomic(
            path,
            {
                "version": _VERSION,
                "key": key,
                "ambiguous": {char: sorted(read) for char, read in sorted(table.items())},
            },
        )
        for old in path.parent.glob(f"{_PREFIX}*.json"):  # tables of other versions
            if old != path:
                old.unlink(missing_ok=True)
    except OSError as exc:
        _log.warning("could not keep the skeleton table: %s", exc)
    return table

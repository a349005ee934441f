"""Reading korTTY's store registry, ``~/.kortty/rag/stores.json`` (docs/DESIGN.md §14), for
``kortty-rag import kortty``. Written from the format's description; read only, never changed.

``{"version": 1, "stores": [{"store": {...}, "sources": [...]}]}``. A store has ``id``,
``displayName``, ``type`` (``LOCAL_HNSW`` | ``QDRANT``), ``localDirectory`` (where its ``index.hnsw``
lies), ``endpoint``, ``collectionName``, ``apiKey``, ``embeddingModelId``, ``embeddingDimensions`` and
``textEnabled`` / ``codingEnabled`` / ``autonomousEnabled``; a source ``id``, ``displayName``,
``path``, ``type`` (``FILE`` | ``DIRECTORY``), ``syncMode`` (``AUTOMATIC`` | ``MANUAL``),
``enabled``, ``includePatterns``, ``excludePatterns``, ``recursive``, ``respectGitIgnore``,
``maxFileBytes`` and its last index state. An API key found here is never read into kortty-rag.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kortty_rag.decoding import exception_text
from kortty_rag.errors import KorttyRagError
from kortty_rag.messages import msg
from kortty_rag.remedies import Operation, place

REGISTRY = Path("rag") / "stores.json"
SNAPSHOT_FILE = "index.hnsw"
#: a registry bigger than this is not korTTY's
MAX_REGISTRY_BYTES = 16 * 1024 * 1024


class KorttyRegistryError(KorttyRagError):
    """korTTY's registry cannot be read; nothing was imported."""

    user_error = True


@dataclass(frozen=True)
class KorttySource:
    id: str
    display_name: str
    path: str
    folder: bool
    automatic: bool
    enabled: bool
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    recursive: bool
    respect_gitignore: bool
    max_file_bytes: int | None


@dataclass(frozen=True)
class KorttyStore:
    id: str
    display_name: str
    local: bool
    local_directory: str | None
    model_id: str
    dimensions: int
    text: bool
    coding: bool
    autonomous: bool
    sources: tuple[KorttySource, ...]


def _need(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(msg("{field} is missing or of the wrong type", field=f"{where}.{key}"))
    return value


def _opt(obj: dict[str, Any], key: str, kind: type, default: Any, where: str) -> Any:
    if key not in obj or obj[key] is None:
        return default
    return _need(obj, key, kind, where)


def _strings(obj: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    values = _opt(obj, key, list, [], where)
    if not all(isinstance(v, str) for v in values):
        raise ValueError(msg("{field} must hold strings", field=f"{where}.{key}"))
    return tuple(values)


def _source(data: object, where: str) -> KorttySource:
    if not isinstance(data, dict):
        raise ValueError(msg("{entry} is not an object", entry=where))
    kind = _need(data, "type", str, where)
    mode = _need(data, "syncMode", str, where)
    if kind not in ("FILE", "DIRECTORY") or mode not in ("AUTOMATIC", "MANUAL"):
        raise ValueError(msg("{entry} has an unknown type or sync mode", entry=where))
    max_bytes = _opt(data, "maxFileBytes", int, None, where)
    return KorttySource(
        id=_need(data, "id", str, where),
        display_name=_opt(data, "displayName", str, "", where),
        path=_need(data, "path", str, where),
        folder=kind == "DIRECTORY",
        automatic=mode == "AUTOMATIC",
        enabled=_need(data, "enabled", bool, where),
        include=_strings(data, "includePatterns", where),
        exclude=_strings(data, "excludePatterns", where),
        recursive=_opt(data, "recursive", bool, True, where),
        respect_gitignore=_opt(data, "respectGitIgnore", bool, True, where),
        max_file_bytes=max_bytes,
    )


def _store(entry: object, where: str) -> KorttyStore:
    if not isinstance(entry, dict) or not isinstance(entry.get("store"), dict):
        raise ValueError(msg("{entry} has no store object", entry=where))
    data: dict[str, Any] = entry["store"]
    kind = _need(data, "type", str, f"{where}.store")
    if kind not in ("LOCAL_HNSW", "QDRANT"):
        raise ValueError(
            msg("{field} {kind} is unknown", field=f"{where}.store.type", kind=repr(kind))
        )
    sources = _need(entry, "sources", list, where)
    return KorttyStore(
        id=_need(data, "id", str, f"{where}.store"),
        display_name=_need(data, "displayName", str, f"{where}.store"),
        local=kind == "LOCAL_HNSW",
        local_directory=_opt(data, "localDirectory", str, None, f"{where}.store"),
        model_id=_opt(data, "embeddingModelId", str, "", f"{where}.store"),
        dimensions=_opt(data, "embeddingDimensions", int, 0, f"{where}.store"),
        text=_opt(data, "textEnabled", bool, True, f"{where}.store"),
        coding=_opt(data, "codingEnabled", bool, True, f"{where}.store"),
        autonomous=_opt(data, "autonomousEnabled", bool, False, f"{where}.store"),
        sources=tuple(_source(s, f"{where}.sources[{i}]") for i, s in enumerate(sources)),
    )


def read_kortty_registry(home: Path) -> tuple[Path, list[KorttyStore]]:
    """The stores in ``home``/rag/stores.json (``home``: korTTY's data folder, ``~/.kortty``)."""
    path = home / REGISTRY
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_REGISTRY_BYTES + 1)
    except FileNotFoundError:
        raise KorttyRegistryError(
            msg("No korTTY store registry at {path}", path=path),
            hint=msg(
                "Name korTTY's data folder (the folder that holds rag/stores.json) with {how}.",
                how=place(Operation.KORTTY_FOLDER),
            ),
        ) from None
    except OSError as exc:
        raise KorttyRegistryError(
            msg("Cannot read {path} ({reason})", path=path, reason=exc.strerror)
        ) from exc
    try:
        if len(raw) > MAX_REGISTRY_BYTES:
            raise ValueError(msg("it is larger than any korTTY registry"))
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("version") != 1:
            raise ValueError(msg("it is not a korTTY registry of version 1"))
        stores = _need(data, "stores", list, "registry")
        parsed = [_store(entry, f"stores[{i}]") for i, entry in enumerate(stores)]
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise KorttyRegistryError(
            msg(
                "korTTY's registry {path} cannot be read: {reason}",
                path=path,
                reason=exception_text(exc),
            ),
            hint=msg("Open it in korTTY to repair it."),
        ) from None
    if len({s.id for s in parsed}) != len(parsed):
        raise KorttyRegistryError(
            msg("korTTY's registry {path} names a store twice", path=path),
            hint=msg("Open it in korTTY to repair it."),
        )
    return path, parsed

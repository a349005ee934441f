"""Writing korTTY's files the way korTTY (Java) does, for the import tests — from the format's
description, with :mod:`struct` directly and nothing of the product's reader.

``index.hnsw``: big-endian (Java ``DataOutputStream``), magic ``KORTHNS1``, int version, int
dimensions, string model id, for version 2 int M, int entry point, int max level; int node count;
per node the chunk (strings id, source id, document path, document hash; ints chunk index, start,
end; string text; int metadata count and key/value strings), the float32 vector, then for version 2
int level and per layer an int count and int neighbours, for version 1 one neighbour list. A string
is an int byte length and UTF-8 bytes. ``rag/stores.json`` as korTTY's registry writes it.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


@dataclass
class Node:
    source_id: str
    document_path: str
    document_hash: str
    chunk_index: int
    start: int
    end: int
    text: str
    vector: np.ndarray
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def chunk_id(self) -> str:
        key = f"{self.source_id}\0{self.document_path}\0{self.document_hash}\0{self.chunk_index}"
        return hashlib.sha256(key.encode()).hexdigest()


def _string(value: str) -> bytes:
    data = value.encode("utf-8")
    return struct.pack(">i", len(data)) + data


def _chunk(node: Node) -> bytes:
    out = b"".join(
        _string(v) for v in (node.chunk_id, node.source_id, node.document_path, node.document_hash)
    )
    out += struct.pack(">iii", node.chunk_index, node.start, node.end)
    out += _string(node.text)
    out += struct.pack(">i", len(node.metadata))
    for key, value in node.metadata.items():
        out += _string(key) + _string(value)
    out += np.asarray(node.vector, dtype=">f4").tobytes()
    return out


@dataclass(frozen=True)
class Graph:
    """A version-2 graph as korTTY writes it: the entry point, the maximum level, and each node's
    neighbour lists (``layers(i)[layer]``; a node's level is ``len(layers(i)) - 1``)."""

    entry: int
    max_level: int
    layers: Callable[[int], list[list[int]]]


def ring(count: int) -> Graph:
    """A ring on the base layer, node 0 alone on layer 1 (the entry point)."""

    def layers(i: int) -> list[list[int]]:
        base = sorted({(i - 1) % count, (i + 1) % count} - {i}) if count > 1 else []
        return [base, []] if i == 0 else [base]

    return Graph(0, 1, layers) if count else Graph(-1, -1, layers)


def korthns_parts(
    nodes: Sequence[Node],
    *,
    version: int,
    dimensions: int,
    model_id: str,
    m: int = 16,
    graph: Graph | None = None,
) -> Iterator[bytes]:
    """The file's bytes in pieces (one node at a time), for writing large files as a stream."""
    count = len(nodes)
    graph = graph or ring(count)
    yield b"KORTHNS1" + struct.pack(">ii", version, dimensions) + _string(model_id)
    if version == 2:
        yield struct.pack(">iii", m, graph.entry, graph.max_level)
    yield struct.pack(">i", count)
    for i, node in enumerate(nodes):
        layers = graph.layers(i)
        if version == 2:
            lists = [struct.pack(f">i{len(ids)}i", len(ids), *ids) for ids in layers]
            yield _chunk(node) + struct.pack(">i", len(layers) - 1) + b"".join(lists)
        else:
            yield _chunk(node) + struct.pack(f">i{len(layers[0])}i", len(layers[0]), *layers[0])


def korthns_bytes(
    nodes: Sequence[Node],
    *,
    version: int,
    dimensions: int,
    model_id: str,
    m: int = 16,
    graph: Graph | None = None,
) -> bytes:
    """A valid snapshot (by default with the :func:`ring` graph)."""
    return b"".join(
        korthns_parts(
            nodes, version=version, dimensions=dimensions, model_id=model_id, m=m, graph=graph
        )
    )


def write_korthns(path: Path, nodes: Sequence[Node], **options: Any) -> int:
    """:func:`korthns_bytes` written to ``path`` as a stream; the file's size."""
    with path.open("wb") as out:
        for part in korthns_parts(nodes, **options):
            out.write(part)
    return path.stat().st_size


def write_registry(home: Path, stores: list[dict[str, Any]]) -> Path:
    """``home``/rag/stores.json with these entries (``{"store": {...}, "sources": [...]}``)."""
    path = home / "rag" / "stores.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, "stores": stores}, indent=2))
    return path


def store_entry(
    store_id: str,
    name: str,
    directory: Path | None,
    model_id: str,
    dimensions: int,
    sources: list[dict[str, Any]],
    *,
    kind: str = "LOCAL_HNSW",
) -> dict[str, Any]:
    return {
        "store": {
            "id": store_id,
            "displayName": name,
            "type": kind,
            "localDirectory": str(directory) if directory else None,
            "endpoint": None if kind == "LOCAL_HNSW" else "http://127.0.0.1:6333",
            "collectionName": "kortty_rag",
            "apiKey": "secret-that-must-not-travel",
            "embeddingModelId": model_id,
            "embeddingDimensions": dimensions,
            "textEnabled": True,
            "codingEnabled": False,
            "autonomousEnabled": False,
        },
        "sources": sources,
    }


def source_entry(
    source_id: str, path: Path, *, folder: bool = True, automatic: bool = False, **extra: Any
) -> dict[str, Any]:
    return {
        "id": source_id,
        "displayName": path.name,
        "path": str(path),
        "type": "DIRECTORY" if folder else "FILE",
        "syncMode": "AUTOMATIC" if automatic else "MANUAL",
        "enabled": True,
        "includePatterns": extra.get("include", []),
        "excludePatterns": extra.get("exclude", []),
        "recursive": extra.get("recursive", True),
        "respectGitIgnore": True,
        "maxFileBytes": 10 * 1024 * 1024,
        "lastStatus": "READY",
        "documentHashes": {},
        "indexedFiles": 0,
        "indexedChunks": 0,
        "lastProblemCount": 0,
        "lastSuccessfulIndex": None,
    }

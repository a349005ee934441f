"""A snapshot's manifest: format version, embedding identity, graph parameters, per-file checksums."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kortty_rag.models import EmbeddingIdentity

#: 1: vectors + chunk table; 2: adds the lexical (BM25) index as FTS5; 3: the lexical index is the
#: analyzer's terms per chunk plus ``lexical.npz``. Older formats are migrated on open.
FORMAT_VERSION = 3
PRODUCT = "kortty-rag"


@dataclass(frozen=True)
class HnswParams:
    """Internal graph parameters (docs/DESIGN.md §3: no tuning in normal use)."""

    # measured (benchmarks/query_latency.py): M=32 with ef=512 gives recall@10 >= 0.99 against exact
    # search on clustered 384-d data at a few ms per query; M=16/ef=128 gave only 0.95
    m: int = 32
    ef_construction: int = 200
    ef_search: int = 512

    def to_json(self) -> dict[str, int]:
        return {"m": self.m, "ef_construction": self.ef_construction, "ef_search": self.ef_search}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HnswParams:
        return cls(int(data["m"]), int(data["ef_construction"]), int(data["ef_search"]))


@dataclass(frozen=True)
class Manifest:
    format: int
    name: str
    sequence: int
    created_at: str
    embedding: EmbeddingIdentity
    hnsw: HnswParams
    chunks: int
    documents: int
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the probes' best similarities to this snapshot, ascending (:mod:`kortty_rag.index.calibration`)
    calibration: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        extra = {"calibration": list(self.calibration)} if self.calibration else {}
        return {
            "product": PRODUCT,
            "format": self.format,
            "name": self.name,
            "sequence": self.sequence,
            "created_at": self.created_at,
            "embedding": self.embedding.to_json(),
            "hnsw": self.hnsw.to_json(),
            "chunks": self.chunks,
            "documents": self.documents,
            "files": self.files,
        } | extra

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        return cls(
            format=int(data["format"]),
            name=str(data["name"]),
            sequence=int(data["sequence"]),
            created_at=str(data["created_at"]),
            embedding=EmbeddingIdentity.from_json(data["embedding"]),
            hnsw=HnswParams.from_json(data["hnsw"]),
            chunks=int(data["chunks"]),
            documents=int(data["documents"]),
            files={str(k): dict(v) for k, v in data["files"].items()},
            calibration=_similarities(data.get("calibration", [])),
        )


def _similarities(value: Any) -> tuple[float, ...]:
    """A manifest's calibration as read (a list of numbers from -1 to 1, else none)."""
    if not isinstance(value, list) or not all(isinstance(v, (int, float)) for v in value):
        return ()
    if not all(-1.0 <= float(v) <= 1.0 for v in value):
        return ()
    return tuple(sorted(float(v) for v in value))

"""Installed embedding models under ``~/.kortty/models/<id>/`` (a GGUF file and a ``model.json``)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kortty_rag.chunking.splitter import overlap_for
from kortty_rag.config.atomic import fsync_dir, write_json_atomic
from kortty_rag.config.paths import models_dir
from kortty_rag.errors import ModelError, NotFoundError
from kortty_rag.models import EmbeddingIdentity

PRODUCT = "kortty-rag"
RECORD = "model.json"
MODEL_FILE = "model.gguf"
#: Chunks are about 800 tokens (SPEC §9), or the model's trained length if that is shorter.
DEFAULT_CHUNK_TOKENS = 800


@dataclass(frozen=True)
class InstalledModel:
    id: str
    name: str
    folder: Path
    sha256: str
    size: int
    architecture: str
    dimensions: int
    pooling: str
    trained_tokens: int
    chunk_tokens: int
    query_prefix: str
    document_prefix: str
    origin: str  # "starter" | "catalog" | "import"
    installed_at: str

    @property
    def path(self) -> Path:
        return self.folder / MODEL_FILE

    def identity(self) -> EmbeddingIdentity:
        return EmbeddingIdentity(
            model_id=self.id,
            model_sha256=self.sha256,
            dimensions=self.dimensions,
            pooling=self.pooling,
            query_prefix=self.query_prefix,
            document_prefix=self.document_prefix,
            chunk_tokens=self.chunk_tokens,
            overlap_tokens=overlap_for(self.chunk_tokens),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "product": PRODUCT,
            "id": self.id,
            "name": self.name,
            "file": MODEL_FILE,
            "sha256": self.sha256,
            "size": self.size,
            "architecture": self.architecture,
            "dimensions": self.dimensions,
            "pooling": self.pooling,
            "trained_tokens": self.trained_tokens,
            "chunk_tokens": self.chunk_tokens,
            "query_prefix": self.query_prefix,
            "document_prefix": self.document_prefix,
            "origin": self.origin,
            "installed_at": self.installed_at,
        }

    @classmethod
    def from_json(cls, folder: Path, data: dict[str, Any]) -> InstalledModel:
        return cls(
            id=str(data["id"]),
            name=str(data["name"]),
            folder=folder,
            sha256=str(data["sha256"]),
            size=int(data["size"]),
            architecture=str(data["architecture"]),
            dimensions=int(data["dimensions"]),
            pooling=str(data["pooling"]),
            trained_tokens=int(data["trained_tokens"]),
            chunk_tokens=int(data["chunk_tokens"]),
            query_prefix=str(data["query_prefix"]),
            document_prefix=str(data["document_prefix"]),
            origin=str(data["origin"]),
            installed_at=str(data["installed_at"]),
        )


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def slug(text: str) -> str:
    value = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-.")
    return value[:64] or "model"


def _read_record(folder: Path) -> InstalledModel | None:
    record = folder / RECORD
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("product") != PRODUCT:
        return None
    try:
        return InstalledModel.from_json(folder, data)
    except (KeyError, TypeError, ValueError):
        return None


def list_models() -> list[InstalledModel]:
    """Installed models (folders without our record are someone else's and are ignored)."""
    root = models_dir()
    if not root.is_dir():
        return []
    found = (_read_record(entry) for entry in sorted(root.iterdir()) if entry.is_dir())
    return [model for model in found if model is not None and model.path.is_file()]


def get_model(model_id: str) -> InstalledModel:
    for model in list_models():
        if model_id in (model.id, model.name):
            return model
    known = ", ".join(m.id for m in list_models()) or "none installed"
    raise NotFoundError(
        f"No installed embedding model {model_id!r} (installed: {known})",
        hint="Run `kortty-rag models install starter` or `kortty-rag models import FILE.gguf`.",
    )


def install_file(source: Path, model_id: str, *, move: bool = False) -> Path:
    """Place a GGUF file at ``models/<model_id>/model.gguf`` durably; returns the folder."""
    folder = models_dir() / model_id
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / MODEL_FILE
    tmp = folder / f".{MODEL_FILE}.partial"
    try:
        if move:
            shutil.move(source, tmp)
        else:
            shutil.copyfile(source, tmp)
        with tmp.open("rb") as handle:
            os.fsync(handle.fileno())
        tmp.replace(target)
        fsync_dir(folder)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise ModelError(
            f"Could not install the model into {folder}: {exc.strerror or exc}"
        ) from exc
    return folder


def write_record(model: InstalledModel) -> None:
    write_json_atomic(model.folder / RECORD, model.to_json())


def remove_model_folder(folder: Path) -> None:
    """Remove only what the product put into a model folder, then the folder if it is empty."""
    for name in (RECORD, MODEL_FILE, f".{MODEL_FILE}.partial"):
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()

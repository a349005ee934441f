"""Installed embedding models under ``~/.kortty/models/<id>/`` (a GGUF file and a ``model.json``)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kortty_rag.chunking.splitter import overlap_for
from kortty_rag.config.atomic import fsync_dir, write_json_atomic
from kortty_rag.config.definitions import damaged, read_definition
from kortty_rag.config.paths import models_dir
from kortty_rag.decoding import MIN, FieldError, decode
from kortty_rag.errors import ConfigError, ModelError, NotFoundError
from kortty_rag.messages import msg
from kortty_rag.models import EmbeddingIdentity
from kortty_rag.remedies import Operation, place, run

PRODUCT = "kortty-rag"
RECORD = "model.json"
MODEL_FILE = "model.gguf"
# a BF16 copy of an F16 model's weights, and its record (embedding/bf16_copy.py)
BF16_COPY = "model.bf16.gguf"
BF16_RECORD = "model.bf16.json"
#: Chunks are about 800 tokens (docs/DESIGN.md §9), or the model's trained length if that is shorter.
DEFAULT_CHUNK_TOKENS = 800


@dataclass(frozen=True)
class InstalledModel:
    id: str
    name: str
    folder: Path  # where the record was found (not stored in it)
    sha256: str
    size: int = field(metadata={MIN: 0})
    architecture: str
    dimensions: int = field(metadata={MIN: 1})
    pooling: str
    trained_tokens: int = field(metadata={MIN: 1})
    chunk_tokens: int = field(metadata={MIN: 1})
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
    def from_json(cls, folder: Path, data: object) -> InstalledModel:
        return decode(cls, data, given={"folder": folder})


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def slug(text: str) -> str:
    value = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-.")
    return value[:64] or "model"


RECORD_LABEL = msg("The model record")
RECORD_HINT = msg(
    "Fix that part of the file, or install the model again ({reinstall} or {other}).",
    reinstall=place(Operation.MODELS_REINSTALL, model="starter"),
    other=place(Operation.MODELS_IMPORT),
)


def _read_record(folder: Path) -> InstalledModel | None:
    """The model installed in ``folder``; ``None`` for a folder that is not ours. Raises
    :class:`~kortty_rag.errors.ConfigError` when our record is damaged."""
    record = folder / RECORD
    data = read_definition(record, RECORD_LABEL, RECORD_HINT)
    if data is None or data.get("product") != PRODUCT:
        return None
    try:
        return InstalledModel.from_json(folder, data)
    except FieldError as exc:
        raise damaged(RECORD_LABEL, record, exc, RECORD_HINT) from None


def _survey() -> tuple[list[InstalledModel], dict[str, ConfigError]]:
    """Installed models, and the folders whose record is damaged (folder name → error)."""
    root = models_dir()
    models: list[InstalledModel] = []
    broken: dict[str, ConfigError] = {}
    if not root.is_dir():
        return models, broken
    for entry in sorted(root.iterdir()):
        if not entry.is_dir():
            continue
        try:
            model = _read_record(entry)
        except ConfigError as exc:
            broken[entry.name] = exc
            continue
        if model is not None and model.path.is_file():
            models.append(model)
    return models, broken


def list_models() -> list[InstalledModel]:
    """Installed models (folders without our record are someone else's and are ignored; a damaged
    record is left out here and named by :func:`damaged_models` and :func:`get_model`)."""
    return _survey()[0]


def damaged_models() -> dict[str, ConfigError]:
    return _survey()[1]


def get_model(model_id: str) -> InstalledModel:
    models, broken = _survey()
    for model in models:
        if model_id in (model.id, model.name):
            return model
    if model_id in broken:
        raise broken[model_id]
    known = ", ".join(m.id for m in models) or msg("none installed")
    raise NotFoundError(
        msg(
            "No installed embedding model {model} (installed: {installed})",
            model=repr(model_id),
            installed=known,
        ),
        hint=msg(
            "{do}, or install another model with {other}.",
            do=run(Operation.MODELS_INSTALL_STARTER),
            other=place(Operation.MODELS_IMPORT, model=model_id),
        ),
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
        remove_derived(folder)  # made from the file it replaced
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise ModelError(
            msg(
                "Could not install the model into {folder}: {reason}",
                folder=folder,
                reason=exc.strerror or exc,
            )
        ) from exc
    return folder


def write_record(model: InstalledModel) -> None:
    write_json_atomic(model.folder / RECORD, model.to_json())


def remove_derived(folder: Path) -> None:
    """Remove what was derived from a model folder's file (its BF16 copy, record, temporary files):
    it is made again from the file when needed."""
    derived = [path.name for path in folder.glob(f".{BF16_COPY}.*.tmp")]
    for name in (BF16_RECORD, BF16_COPY, *derived):
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()


def remove_model_folder(folder: Path) -> None:
    """Remove only what the product put into a model folder, then the folder if it is empty."""
    remove_derived(folder)
    for name in (RECORD, MODEL_FILE, f".{MODEL_FILE}.partial"):
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()

"""Reading what an embedding GGUF says about itself (architecture, width, context, pooling)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kortty_rag.errors import ModelError
from kortty_rag.messages import msg

GGUF_MAGIC = b"GGUF"
#: llama.cpp's ``enum llama_pooling_type``.
POOLING_NAMES = {0: "none", 1: "mean", 2: "cls", 3: "last", 4: "rank"}


@dataclass(frozen=True)
class GgufInfo:
    architecture: str
    name: str
    dimensions: int
    context_length: int
    pooling: str


def _field(reader: Any, key: str) -> Any:
    field = reader.fields.get(key)
    if field is None:
        return None
    value = field.parts[field.data[0]]
    if field.types and field.types[0].name == "STRING":
        return bytes(value).decode("utf-8", errors="replace")
    return value.tolist()[0] if hasattr(value, "tolist") else value


def read_gguf_info(path: Path) -> GgufInfo:
    """Read the metadata of ``path`` or raise :class:`ModelError` saying what is wrong."""
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ModelError(
            msg("Cannot read {path}: {reason}", path=path, reason=exc.strerror)
        ) from None
    if magic != GGUF_MAGIC:
        raise ModelError(
            msg("{path} is not a GGUF file", path=path),
            hint=msg("Choose a .gguf embedding model file."),
        )
    try:
        from gguf import GGUFReader

        reader = GGUFReader(str(path), "r")
        arch = _field(reader, "general.architecture")
        if not arch:
            raise ModelError(msg("{path} has no general.architecture", path=path))
        dims = _field(reader, f"{arch}.embedding_length")
        ctx = _field(reader, f"{arch}.context_length")
        pooling = _field(reader, f"{arch}.pooling_type")
        name = _field(reader, "general.name") or path.stem
    except ModelError:
        raise
    except Exception as exc:
        raise ModelError(
            msg(
                "{path} is not a readable GGUF file ({error})",
                path=path,
                error=f"{type(exc).__name__}: {exc}",
            )
        ) from None
    if not dims or not ctx:
        raise ModelError(msg("{path} lacks embedding length or context length metadata", path=path))
    pooling_name = POOLING_NAMES.get(int(pooling), "unknown") if pooling is not None else "none"
    if pooling_name in {"none", "rank", "unknown"}:
        raise ModelError(
            msg(
                "{path} is not an embedding model (pooling type: {pooling})",
                path=path,
                pooling=pooling_name,
            ),
            hint=msg(
                "Import a GGUF embedding model such as Qwen3-Embedding, BGE-M3 or Nomic Embed."
            ),
        )
    return GgufInfo(str(arch), str(name), int(dims), int(ctx), pooling_name)

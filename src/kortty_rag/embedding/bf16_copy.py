"""A BF16 copy of an F16 model's weights for a CPU that multiplies BF16 natively (docs/DESIGN.md §4).

On a CPU with AVX512_BF16 llama.cpp multiplies BF16 matrices faster than F16 ones: the starter model
embeds 1.24–1.36 times as many chunks per second, as fast as the same model in ONNX Runtime and
faster than in PyTorch (``benchmarks/embed_baselines.py``), and its vectors agree with the F16 ones
to a cosine of 0.99997 (SciFact nDCG@10 −0.0004, ``benchmarks/embed_types.py``).

The copy is derived, not installed: the model's identity, file and SHA-256 stay the F16 ones, so no
store is rebuilt and an exported store still imports on a machine without BF16. llama.cpp's own
quantizer writes ``model.bf16.gguf`` beside the model from its file, with ``model.bf16.json``
naming the source's SHA-256 and the copy's size; a copy whose record does not match is written
again. Anything that goes wrong (a read-only folder, a full disk, a failed quantizer) costs only the
speed: the F16 file is used, with a warning in the log. ``KORTTY_EMBED_BF16=0`` turns the copy off.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
from pathlib import Path
from typing import Any

from kortty_rag.embedding.installed import BF16_COPY as COPY_FILE
from kortty_rag.embedding.installed import BF16_RECORD as COPY_RECORD
from kortty_rag.embedding.installed import InstalledModel

#: the environment variable that turns the copy off (``0``)
SWITCH = "KORTTY_EMBED_BF16"
#: GGUF's ``general.file_type`` of a model whose matrices are F16
MOSTLY_F16 = 1

_log = logging.getLogger(__name__)


def native_bf16(llama_cpp: Any) -> bool:
    """Whether this llama.cpp build multiplies BF16 with the CPU's own instructions."""
    info: bytes = llama_cpp.llama_print_system_info()
    return b"AVX512_BF16 = 1" in info


def file_type(path: Path) -> int | None:
    """The GGUF's ``general.file_type`` (None when it has none or is unreadable)."""
    import gguf  # imported when a model is loaded, not by every command

    try:
        reader = gguf.GGUFReader(str(path), "r")
    except (OSError, ValueError) as exc:
        _log.debug("%s: not read as GGUF: %s", path, exc)
        return None
    field = reader.get_field("general.file_type")
    if field is None:
        return None
    return int(field.parts[field.data[0]][0])


def weights_for(model: InstalledModel, llama_cpp: Any) -> Path:
    """The file llama.cpp loads for ``model``: its BF16 copy where that is faster, else its own."""
    if os.environ.get(SWITCH, "").strip() == "0" or not native_bf16(llama_cpp):
        return model.path
    copy, record = model.folder / COPY_FILE, model.folder / COPY_RECORD
    if _current(model, copy, record):
        return copy
    if file_type(model.path) != MOSTLY_F16:
        return model.path
    try:
        _write_copy(model, copy, record, llama_cpp)
    except OSError as exc:
        _log.warning("%s: no BF16 copy (%s); embedding with the F16 file", model.name, exc)
        return model.path
    return copy


def _current(model: InstalledModel, copy: Path, record: Path) -> bool:
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
        return bool(
            isinstance(data, dict)
            and data.get("source_sha256") == model.sha256
            and data.get("size") == copy.stat().st_size
        )
    except (OSError, ValueError):
        return False


def _write_copy(model: InstalledModel, copy: Path, record: Path, llama_cpp: Any) -> None:
    """Quantize ``model`` to BF16 into a temporary file, then move it and its record in place."""
    temporary = copy.with_name(f".{COPY_FILE}.{os.getpid()}.tmp")
    try:
        params = llama_cpp.llama_model_quantize_default_params()
        params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_BF16
        params.nthread = max(1, os.cpu_count() or 1)
        failed = llama_cpp.llama_model_quantize(
            str(model.path).encode(), str(temporary).encode(), ctypes.byref(params)
        )
        if failed or not temporary.is_file():
            raise OSError(f"llama.cpp's quantizer failed ({failed})")
        size = temporary.stat().st_size
        os.replace(temporary, copy)
    finally:
        temporary.unlink(missing_ok=True)
    written = record.with_name(f".{COPY_RECORD}.{os.getpid()}.tmp")
    written.write_text(
        json.dumps({"source_sha256": model.sha256, "size": size, "type": "BF16"}), encoding="utf-8"
    )
    os.replace(written, record)
    _log.info("%s: BF16 copy written (%d bytes)", model.name, size)

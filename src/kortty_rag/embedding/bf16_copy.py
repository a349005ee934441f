"""A BF16 copy of an F16 model's weights for a CPU that multiplies BF16 natively (docs/DESIGN.md §4).

On a CPU with AVX512_BF16 llama.cpp multiplies BF16 matrices faster than F16 ones: the starter model
embeds 1.24–1.36 times as many chunks per second, as fast as the same model in ONNX Runtime and
faster than in PyTorch (``benchmarks/embed_baselines.py``), and its vectors agree with the F16 ones
to a cosine of 0.99997 (SciFact nDCG@10 −0.0004, ``benchmarks/embed_types.py``).

The copy is derived, not installed: the model's identity, file and SHA-256 stay the F16 ones, so no
store is rebuilt and an exported store still imports on a machine without BF16. llama.cpp's own
quantizer writes ``model.bf16.gguf`` beside the model from its file, with ``model.bf16.json``
naming the source's SHA-256 and the copy's size; a copy whose record does not match is written
again, and a copy llama.cpp cannot load is removed and the F16 file loaded instead. Anything that
goes wrong (a read-only folder, a full disk, a failed quantizer) costs only the speed: the F16 file
is used, with a warning in the log. Installing the model's file again removes the copy (it is made
from the new file). ``KORTTY_EMBED_BF16=0`` turns the copy off.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import logging
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from kortty_rag.config.atomic import write_json_atomic
from kortty_rag.embedding.installed import BF16_COPY as COPY_FILE
from kortty_rag.embedding.installed import BF16_RECORD as COPY_RECORD
from kortty_rag.embedding.installed import InstalledModel, remove_derived

#: the environment variable that turns the copy off (``0``)
SWITCH = "KORTTY_EMBED_BF16"
#: GGUF's ``general.file_type`` of a model whose matrices are F16
MOSTLY_F16 = 1
#: a temporary copy older than this was left by a process that was killed (seconds)
STALE_SECONDS = 600

_log = logging.getLogger(__name__)


def native_bf16(llama_cpp: Any) -> bool:
    """Whether this llama.cpp build multiplies BF16 with the CPU's own instructions."""
    info = llama_cpp.llama_print_system_info()
    text = info.decode("ascii", "replace") if isinstance(info, bytes) else str(info)
    return "AVX512_BF16 = 1" in text


def file_type(path: Path) -> int | None:
    """The GGUF's ``general.file_type`` (None when it has none)."""
    import gguf  # imported when a model is loaded, not by every command

    field = gguf.GGUFReader(str(path), "r").get_field("general.file_type")
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
    try:
        if file_type(model.path) != MOSTLY_F16:
            return model.path
        _write_copy(model, copy, record, llama_cpp)
    except Exception as exc:  # only speed is at stake: the F16 file always works
        _log.warning("%s: no BF16 copy (%s); embedding with the F16 file", model.name, exc)
        return model.path
    return copy


def discard(model: InstalledModel) -> None:
    """Forget ``model``'s copy (llama.cpp could not load it): it is written again next time."""
    _log.warning("%s: the BF16 copy could not be loaded; it is removed", model.name)
    remove_derived(model.folder)


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
    """Quantize ``model`` to BF16 into a temporary file, then move it and its record in place
    (each synced before it is renamed, as an installed model is)."""
    _remove_stale_temporaries(model.folder)
    handle, name = tempfile.mkstemp(prefix=f".{COPY_FILE}.", suffix=".tmp", dir=model.folder)
    os.close(handle)
    temporary = Path(name)
    try:
        params = llama_cpp.llama_model_quantize_default_params()
        params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_BF16
        params.nthread = _threads()
        failed = llama_cpp.llama_model_quantize(
            str(model.path).encode(), str(temporary).encode(), ctypes.byref(params)
        )
        if failed or temporary.stat().st_size == 0:
            raise OSError(f"llama.cpp's quantizer failed ({failed})")
        size = temporary.stat().st_size
        with temporary.open("rb") as written:
            os.fsync(written.fileno())
        record.unlink(missing_ok=True)  # no record names a copy that is being replaced
        os.replace(temporary, copy)
    finally:
        temporary.unlink(missing_ok=True)
    write_json_atomic(record, {"source_sha256": model.sha256, "size": size, "type": "BF16"})
    _log.info("%s: BF16 copy written (%d bytes)", model.name, size)


def _remove_stale_temporaries(folder: Path) -> None:
    """Temporary copies a killed process left (older than :data:`STALE_SECONDS`)."""
    now = time.time()
    for path in folder.glob(f".{COPY_FILE}.*.tmp"):
        with contextlib.suppress(OSError):
            if now - path.stat().st_mtime > STALE_SECONDS:
                path.unlink()


def _threads() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)

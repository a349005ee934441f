"""The starter model, converted once per machine and reused by every later test run.

The cache key hashes the converter and installer sources, so a change to either converts again.
Set ``KORTTY_TEST_CACHE`` to move the cache (default ``~/.cache/kortty-rag-tests``).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from pathlib import Path

import kortty_rag.embedding.convert as convert_module
import kortty_rag.embedding.install as install_module


def cache_root() -> Path:
    value = os.environ.get("KORTTY_TEST_CACHE")
    return Path(value) if value else Path.home() / ".cache" / "kortty-rag-tests"


def _key() -> str:
    digest = hashlib.sha256()
    for module in (convert_module, install_module):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


def starter_home() -> Path:
    """A KORTTY_HOME holding the installed starter model (installed on first use, under a lock)."""
    from kortty_rag.embedding.bf16_copy import weights_for
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.installed import get_model
    from kortty_rag.embedding.llama import import_llama_cpp

    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    home = root / f"starter-{_key()}"
    with (root / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        installed = (home / "models" / STARTER_ID / "model.json").is_file()
        if not installed:
            shutil.rmtree(home, ignore_errors=True)
        previous = os.environ.get("KORTTY_HOME")
        os.environ["KORTTY_HOME"] = str(home)
        try:
            model = get_model(STARTER_ID) if installed else install_module.install_starter()
            # the BF16 copy a CPU with native BF16 embeds with (embedding/bf16_copy.py), written
            # once here and linked into every test's model folder with the model
            weights_for(model, import_llama_cpp())
        finally:
            if previous is None:
                del os.environ["KORTTY_HOME"]
            else:
                os.environ["KORTTY_HOME"] = previous
    return home

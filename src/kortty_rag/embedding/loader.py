"""Loading a store's embedding model once per process, self-tested on first load (docs/DESIGN.md §4)."""

from __future__ import annotations

import atexit
import threading

from kortty_rag.embedding.base import Embedder
from kortty_rag.embedding.installed import get_model
from kortty_rag.errors import IncompatibleIndexError
from kortty_rag.messages import msg
from kortty_rag.models import EmbeddingIdentity
from kortty_rag.remedies import Operation, place

_lock = threading.Lock()
# keyed by everything that shapes an embedder: one GGUF file can be installed twice with other limits
_loaded: dict[tuple[str, str, int, int], Embedder] = {}


def load_embedder(identity: EmbeddingIdentity) -> Embedder:
    """The embedder for a store's identity; the installed model must still match it exactly."""
    from kortty_rag.embedding.llama import LlamaEmbedder
    from kortty_rag.embedding.selftest import run_self_test

    model = get_model(identity.model_id)
    differences = model.identity().differences(identity)
    if differences:
        raise IncompatibleIndexError(
            msg(
                "The installed model {model} differs from the one this store was built with "
                "({differences})",
                model=repr(model.id),
                differences=", ".join(differences),
            ),
            hint=msg(
                "Reinstall the original model, or rebuild the store with {how}.",
                how=place(Operation.STORE_REBUILD),
            ),
        )
    with _lock:
        key = (model.id, model.sha256, model.trained_tokens, model.chunk_tokens)
        embedder = _loaded.get(key)
        if embedder is None:
            llama = LlamaEmbedder(model)
            run_self_test(llama, name=model.name)
            _loaded[key] = embedder = llama
        return embedder


def unload_all() -> None:
    with _lock:
        for embedder in _loaded.values():
            close = getattr(embedder, "close", None)
            if close is not None:
                close()
        _loaded.clear()


# close models before interpreter shutdown tears down the modules llama_cpp's finalizers need
atexit.register(unload_all)

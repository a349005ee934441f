"""The llama.cpp embedding runtime (``llama-cpp-python``, in process, imported lazily).

Sharp edges handled here, all measured on the starter model:

* ``flash_attn`` defaults to off in llama-cpp-python; on it is about 2.7x faster on CPU.
* A sequence longer than the context with ``n_batch`` > 512 trips an assert that aborts the whole
  process. Every input is therefore tokenized with the model's own tokenizer and cut to the model's
  limit *before* it reaches llama.cpp; the cut keeps the trailing special tokens (SEP/EOS), which
  last-token pooling depends on.
* On CPUs with AMX (Intel Sapphire Rapids and later) llama.cpp repacks quantized weights (Q4_K,
  Q8_0, …) into an AMX buffer whose matrix multiplication segfaults at the first decode (seen here
  with the Q4_K_M chat model on a Xeon with AMX_INT8; ggml-org/llama.cpp#20824). :func:`open_llama`
  therefore turns the extra (repacking) buffer types off when the build reports ``AMX_INT8 = 1``.
* llama.cpp's OpenMP threads spin while they wait for each other by default; beside another busy
  program the thread that shares a core with it is late at every step and the others burn their
  time spinning (indexing fell to about a third of its idle speed, the query embedding's p95 from
  13 to 250 ms; ``benchmarks/fair_share.py``). :func:`import_llama_cpp` therefore sets
  ``OMP_WAIT_POLICY=PASSIVE`` (threads sleep while they wait) before libgomp is first loaded, unless
  the user set a policy.
* On a CPU that multiplies BF16 natively an F16 model is loaded from a BF16 copy of its weights
  (:mod:`kortty_rag.embedding.bf16_copy`; its identity stays the F16 file's).
* Inputs are decoded in groups that fill one physical batch (``n_batch`` = ``n_ubatch``, at least the
  longest input), one sequence id per input, and pooled per sequence by llama.cpp with the pooling type
  stored in the GGUF.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from kortty_rag.chunking.splitter import ChunkingParams
from kortty_rag.embedding.base import EMBED_BATCH, Vectors, l2_normalise
from kortty_rag.embedding.bf16_copy import discard, weights_for
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.errors import EmbeddingError, ModelError
from kortty_rag.messages import msg
from kortty_rag.models import EmbeddingIdentity

#: Tokens per physical batch. Larger batches amortise per-call overhead but the attention mask of a
#: unified batch grows with its square (llama.cpp masks across all sequences in a batch); 512
#: measured fastest on 2 CPU cores for 256-token chunks (20 texts/s against 15 at 2048, 8 at 8192).
DEFAULT_BATCH_TOKENS = 512


_log = logging.getLogger("kortty_rag.llama_cpp")
#: the ctypes callback must stay referenced for as long as llama.cpp may call it
_log_callbacks: list[Any] = []


def route_llama_logs(llama_cpp: Any) -> None:
    """Send llama.cpp's own log lines to Python logging (debug) instead of the terminal.

    With our bounded inputs its context-size warnings do not apply, and they would otherwise end up
    in the middle of CLI output.
    """
    if _log_callbacks:
        return

    @llama_cpp.llama_log_callback  # type: ignore[untyped-decorator,unused-ignore]
    def callback(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        _log.debug("%s", text.decode("utf-8", errors="replace").rstrip())

    _log_callbacks.append(callback)
    llama_cpp.llama_log_set(callback, ctypes.c_void_p(0))


_open_lock = threading.Lock()

#: how OpenMP's threads wait between the steps of a decode (see the module's notes)
WAIT_POLICY = "PASSIVE"


def import_llama_cpp() -> Any:
    """``llama_cpp``, imported with OpenMP's wait policy set first: libgomp reads it once, when
    llama.cpp's libraries are loaded. A policy already in the environment (the user's) is kept."""
    os.environ.setdefault("OMP_WAIT_POLICY", WAIT_POLICY)
    import llama_cpp

    return llama_cpp


def amx_in_build(llama_cpp: Any) -> bool:
    """Whether this llama.cpp build runs AMX kernels on this CPU (its system info says so)."""
    info = llama_cpp.llama_print_system_info()
    text = info.decode("utf-8", "replace") if isinstance(info, bytes) else str(info)
    return "AMX_INT8 = 1" in text


def open_llama(**kwargs: Any) -> Any:
    """``llama_cpp.Llama(**kwargs)`` with llama.cpp's log routed to Python logging and, where the
    AMX repacking crashes (see the module's notes), without extra buffer types. llama-cpp-python has
    no argument for that model parameter, so its defaults are amended for this one construction."""
    llama_cpp = import_llama_cpp()

    route_llama_logs(llama_cpp)
    if not amx_in_build(llama_cpp):
        return llama_cpp.Llama(**kwargs)
    low_level: Any = sys.modules["llama_cpp.llama_cpp"]  # where Llama() reads its defaults
    with _open_lock:  # the amended defaults are seen by this construction only
        defaults = low_level.llama_model_default_params  # read under the lock: never our own

        def without_repacking() -> Any:
            params = defaults()
            params.use_extra_bufts = False
            return params

        low_level.llama_model_default_params = without_repacking
        try:
            return llama_cpp.Llama(**kwargs)
        finally:
            low_level.llama_model_default_params = defaults


#: threads for embedding one query: a question is a few tokens, and beside a busy program a second
#: thread waits for a core more than it helps (``benchmarks/fair_share.py``)
QUERY_THREADS = 1


def default_threads() -> int:
    return max(
        1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )


class LlamaEmbedder:
    """An :class:`~kortty_rag.embedding.base.Embedder` backed by a GGUF file through llama.cpp."""

    def __init__(
        self,
        model: InstalledModel,
        *,
        batch_tokens: int = DEFAULT_BATCH_TOKENS,
        n_threads: int | None = None,
        query_threads: int | None = None,
    ) -> None:
        llama_cpp = import_llama_cpp()
        self.model = model
        self._identity = model.identity()
        self.max_tokens = min(model.trained_tokens, model.chunk_tokens)
        batch = max(batch_tokens, self.max_tokens)
        threads = n_threads or default_threads()
        self._threads = threads
        self._query_threads = query_threads or min(threads, QUERY_THREADS)
        settings: dict[str, Any] = {
            "embedding": True,
            "flash_attn": True,
            "n_ctx": batch,
            "n_batch": batch,
            "n_ubatch": batch,
            "n_threads": threads,
            "n_threads_batch": threads,
            "verbose": False,
        }
        route_llama_logs(llama_cpp)  # the BF16 copy's quantizer logs too
        weights = weights_for(model, llama_cpp)
        try:
            try:
                self._llama = open_llama(model_path=str(weights), **settings)
            except (ValueError, RuntimeError, OSError):
                if weights == model.path:
                    raise
                discard(model)  # a damaged copy: the model's own file still works
                self._llama = open_llama(model_path=str(model.path), **settings)
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelError(
                msg("llama.cpp could not load {path}: {error}", path=model.path, error=str(exc))
            ) from exc
        self._lib = llama_cpp
        self._vocab = self._llama._model.vocab
        self._n_embd = int(self._llama.n_embd())
        self._batch_tokens = batch
        self._n_seq_max = int(self._llama.context_params.n_seq_max)
        self._lock = threading.Lock()
        self._current_threads = threads
        if self._n_embd != model.dimensions:
            raise ModelError(
                msg(
                    "{model}: GGUF has {dimensions} dimensions, the record says {expected}",
                    model=model.name,
                    dimensions=self._n_embd,
                    expected=model.dimensions,
                )
            )
        self._lead, self._trail = self._special_layout()
        self._doc_prefix_tokens = self.count_tokens(model.document_prefix)

    # -- Embedder protocol --------------------------------------------------------------------------

    @property
    def identity(self) -> EmbeddingIdentity:
        return self._identity

    def chunking(self) -> ChunkingParams:
        budget = self.max_tokens - self._lead - self._trail - self._doc_prefix_tokens
        overlap = min(self._identity.overlap_tokens, budget // 2 - 1)
        return ChunkingParams(budget, overlap)

    def count_tokens(self, text: str) -> int:
        if not text:
            return 0
        data = text.encode("utf-8")
        n = int(self._lib.llama_tokenize(self._vocab, data, len(data), None, 0, False, False))
        return -n if n < 0 else n

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return self._embed([self.model.document_prefix + t for t in texts])

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self._embed([self.model.query_prefix + text], self._query_threads)[0]
        return vector

    def close(self) -> None:
        with self._lock:
            self._llama.close()

    # -- internals ----------------------------------------------------------------------------------

    def _special_layout(self) -> tuple[int, int]:
        """How many special tokens the tokenizer puts before and after the text (e.g. CLS/SEP)."""
        plain = self._llama.tokenize(b"hello world", add_bos=False, special=False)
        full = self._llama.tokenize(b"hello world", add_bos=True, special=False)
        for lead in range(len(full) - len(plain) + 1):
            if full[lead : lead + len(plain)] == plain:
                return lead, len(full) - lead - len(plain)
        return len(full) - len(plain), 0

    def tokens_for(self, text: str) -> list[int]:
        """The model's tokens for ``text`` with its special tokens, cut to the model's limit."""
        tokens: list[int] = self._llama.tokenize(text.encode("utf-8"), add_bos=True, special=False)
        if len(tokens) > self.max_tokens:
            tail = tokens[len(tokens) - self._trail :] if self._trail else []
            tokens = tokens[: self.max_tokens - len(tail)] + tail
        return tokens

    def _embed(self, texts: Sequence[str], threads: int | None = None) -> Vectors:
        out = np.empty((len(texts), self._n_embd), dtype=np.float32)
        with self._lock:
            self._use_threads(threads or self._threads)
            for first in range(0, len(texts), EMBED_BATCH):
                token_lists = [self.tokens_for(t) for t in texts[first : first + EMBED_BATCH]]
                self._decode_groups(token_lists, out[first : first + len(token_lists)])
        if not np.isfinite(out).all():
            raise EmbeddingError(msg("{model} produced non-finite vectors", model=self.model.name))
        return l2_normalise(out)

    def _use_threads(self, threads: int) -> None:
        """Decode with ``threads`` threads from now on (under the lock; a no-op when unchanged)."""
        if threads != self._current_threads:
            self._lib.llama_set_n_threads(self._llama._ctx.ctx, threads, threads)
            self._current_threads = threads

    def _decode_groups(self, token_lists: list[list[int]], out: Vectors) -> None:
        group: list[int] = []
        used = 0
        for i, tokens in enumerate(token_lists):
            if group and (used + len(tokens) > self._batch_tokens or len(group) >= self._n_seq_max):
                self._decode(token_lists, group, out)
                group, used = [], 0
            group.append(i)
            used += len(tokens)
        if group:
            self._decode(token_lists, group, out)

    def _decode(self, token_lists: list[list[int]], group: list[int], out: Vectors) -> None:
        llama: Any = self._llama
        batch = llama._batch
        batch.reset()
        for seq, i in enumerate(group):
            tokens = token_lists[i]
            if not 0 < len(tokens) <= self.max_tokens:
                raise EmbeddingError(f"internal: input of {len(tokens)} tokens is out of bounds")
            batch.add_sequence(tokens, seq, True)
        llama._ctx.kv_cache_clear()
        try:
            llama._ctx.decode(batch)
        except RuntimeError as exc:
            raise EmbeddingError(
                msg("llama.cpp failed to embed a batch: {error}", error=str(exc))
            ) from exc
        finally:
            batch.reset()
        ctx = llama._ctx.ctx
        for seq, i in enumerate(group):
            ptr = self._lib.llama_get_embeddings_seq(ctx, seq)
            if not ptr:
                raise EmbeddingError(msg("llama.cpp returned no pooled embedding"))
            out[i] = np.ctypeslib.as_array(
                ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)), shape=(self._n_embd,)
            )

"""What the rest of the product needs from an embedding model; llama.cpp is one implementation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from kortty_rag.chunking.splitter import ChunkingParams
from kortty_rag.models import EmbeddingIdentity

Vectors = npt.NDArray[np.float32]

#: Embedding requests go in batches of this many chunks (docs/DESIGN.md §4).
EMBED_BATCH = 32


class Embedder(Protocol):
    @property
    def identity(self) -> EmbeddingIdentity:
        """The identity a snapshot built with this embedder is bound to."""

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` with the model's own tokenizer, without special tokens."""

    def chunking(self) -> ChunkingParams:
        """Chunk budget (text tokens) and overlap such that prefix + chunk + specials fit the model."""

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """L2-normalised vectors, one row per text, with the document prefix applied."""

    def embed_query(self, text: str) -> Vectors:
        """One L2-normalised vector (shape ``(dimensions,)``) with the query prefix applied."""


def l2_normalise(vectors: Vectors) -> Vectors:
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: Vectors = (vectors / norms).astype(np.float32, copy=False)
    return normalised

"""Fakes for unit tests only (the end-to-end tests use the real starter model)."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Collection, Sequence

import numpy as np

from kortty_rag.chunking.splitter import ChunkingParams, overlap_for
from kortty_rag.embedding.base import Vectors, l2_normalise
from kortty_rag.models import EmbeddingIdentity, Hit, LinkedChunk


class SubwordCounter:
    """Counts ceil(len/4) tokens per whitespace-separated word, like a subword tokenizer would."""

    def count_tokens(self, text: str) -> int:
        return sum(math.ceil(len(w) / 4) for w in re.findall(r"\S+", text))


class HashEmbedder:
    """Deterministic bag-of-words vectors; records every text it embeds (unless ``record`` is off)."""

    def __init__(self, dims: int = 32, chunk_tokens: int = 64, *, record: bool = True) -> None:
        self.dims = dims
        self.record = record
        self.calls: list[str] = []
        self._identity = EmbeddingIdentity(
            "fake", "0" * 64, dims, "mean", "", "", chunk_tokens, overlap_for(chunk_tokens)
        )
        self.counter = SubwordCounter()

    @property
    def identity(self) -> EmbeddingIdentity:
        return self._identity

    def count_tokens(self, text: str) -> int:
        return self.counter.count_tokens(text)

    def chunking(self) -> ChunkingParams:
        return ChunkingParams(self._identity.chunk_tokens - 2, self._identity.overlap_tokens)

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dims, dtype=np.float32)
        for word in re.findall(r"\w+", text.lower()):
            vec[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dims] += 1.0
        vec[0] += 1e-3
        return vec

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if self.record:
            self.calls.extend(texts)
        return l2_normalise(np.stack([self._vector(t) for t in texts]))

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = l2_normalise(self._vector(text)[None, :])[0]
        return vector


class SearchOnlyVectors:
    """The read side of a vector store that a fake for retrieval does not model: no calibration, no
    detected language, no similarity beyond its searches' own hits. A fake adds ``search`` and
    ``lexical_search``."""

    def calibration(self) -> tuple[float, ...]:
        return ()

    def text_language(self) -> str | None:
        return None

    def similarities(self, vector: np.ndarray, labels: Collection[int]) -> dict[int, float]:
        return {}

    def linked(self, labels: Collection[int], source_ids: Collection[str]) -> list[LinkedChunk]:
        return []

    def note_report(self, limit: int) -> None:
        return None

    def close(self) -> None: ...


class RankedVectors(SearchOnlyVectors):
    """A vector store whose two rankings are given: ``dense`` and ``lexical`` are hits, best first
    (dense scores are cosine similarities; a lexical hit may carry its coverage)."""

    def __init__(self, dense: Sequence[Hit], lexical: Sequence[Hit] = ()) -> None:
        self.dense = list(dense)
        self.lexical = list(lexical)

    def search(self, vector: np.ndarray, k: int, source_ids: Collection[str]) -> list[Hit]:
        return [h for h in self.dense if h.chunk.source_id in source_ids][:k]

    def lexical_search(self, query: str, k: int, source_ids: Collection[str]) -> list[Hit]:
        return [h for h in self.lexical if h.chunk.source_id in source_ids][:k]

    def similarities(self, vector: np.ndarray, labels: Collection[int]) -> dict[int, float]:
        """The dense scores this fake was given, for chunks beyond a search's ``k``."""
        return {h.label: h.score for h in self.dense if h.label in set(labels)}

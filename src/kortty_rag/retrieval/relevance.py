"""The relevance floor: an excerpt enters the context block only with evidence that it is relevant.

Ranking always returns *some* nearest neighbours, even for a question the store knows nothing
about. So a candidate needs either

- **dense evidence**: a cosine similarity of query and chunk at or above the store's embedding
  model's floor for the level, or
- **lexical evidence**: a lexical match covering at least the level's share of the query's terms
  (stopwords dropped, stemmed), each weighted by its IDF in local stores, so that matching only a
  common word of an unrelated question is not enough (:mod:`kortty_rag.index.bm25`; Qdrant stores:
  the plain share, :mod:`kortty_rag.index.sparse`).

The levels are ``off`` (no floor), ``low`` (the default), ``medium`` and ``high``; each store keeps
its own (``settings.retrieval.min_relevance``) and a query may override it. Every number is in the
table of :mod:`kortty_rag.embedding.catalog` (dense floors per model, lexical shares for all).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kortty_rag.embedding.catalog import LEXICAL_SHARES, relevance_floors
from kortty_rag.messages import msg
from kortty_rag.models import RelevanceLevel, RetrievalSettings, Store

#: the store settings' default (low): costs nothing measurable on the SciFact dev split and keeps the
#: answers to paraphrased questions that share no word with them, which ``medium`` drops (README)
DEFAULT_LEVEL = RetrievalSettings.min_relevance
LEVELS = tuple(RelevanceLevel)
_RANK = {RelevanceLevel.LOW: 0, RelevanceLevel.MEDIUM: 1, RelevanceLevel.HIGH: 2}


def level_word(level: RelevanceLevel) -> str:
    """``level``'s value (``off``, ``low``, ``medium``, ``high``) as a word that can be translated."""
    words = {
        RelevanceLevel.OFF: msg("off"),
        RelevanceLevel.LOW: msg("low"),
        RelevanceLevel.MEDIUM: msg("medium"),
        RelevanceLevel.HIGH: msg("high"),
    }
    return words.get(level, level.value)


def allowed_levels() -> str:
    return ", ".join(level.value for level in LEVELS)


def store_level(store: Store) -> RelevanceLevel:
    """The store's own minimum relevance (validated when the definition was read)."""
    return store.options.retrieval.min_relevance


def with_level(store: Store, level: RelevanceLevel) -> Store:
    """``store`` with ``settings.retrieval.min_relevance`` set to ``level``."""
    return store.with_retrieval(min_relevance=level)


@dataclass(frozen=True)
class RelevanceFloor:
    """The floor that applied to one store's candidates; ``None`` thresholds when ``level`` is off."""

    store: str
    level: RelevanceLevel
    dense: float | None
    lexical: float | None

    def admits(self, dense_score: float | None, coverage: float | None) -> bool:
        if self.dense is None or self.lexical is None:
            return True
        if dense_score is not None and dense_score >= self.dense:
            return True
        return coverage is not None and coverage >= self.lexical

    def describe(self) -> str:
        """One line for people: the level and what it asks for."""
        if self.dense is None or self.lexical is None:
            return msg("{level} (every candidate may enter)", level=level_word(self.level))
        return msg(
            "{level} (similarity at least {similarity:.2f}, or at least {share:.0%} of the "
            "question's words)",
            level=level_word(self.level),
            similarity=self.dense,
            share=self.lexical,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "store": self.store,
            "level": self.level.value,
            "dense_min_similarity": self.dense,
            "lexical_min_coverage": self.lexical,
        }


def floor_for(store: Store, level: RelevanceLevel | None = None) -> RelevanceFloor:
    """The floor for ``store``'s candidates: ``level``, else the store's own setting."""
    chosen = store_level(store) if level is None else level
    if chosen is RelevanceLevel.OFF:
        return RelevanceFloor(store.name, chosen, None, None)
    index = _RANK[chosen]
    dense = relevance_floors(store.embedding.model_id)[index]
    return RelevanceFloor(store.name, chosen, dense, LEXICAL_SHARES[index])

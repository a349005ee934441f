"""Relevance: one value from 0 to 1 per candidate, and a floor below which nothing enters the block.

Ranking always returns *some* nearest neighbours, even for a question the store knows nothing
about. So a candidate needs either

- **dense evidence**: a cosine similarity of query and chunk at or above the store's dense floor
  for the level, or
- **lexical evidence**: a lexical match covering at least the level's share of the query's terms
  (stopwords dropped, stemmed), each weighted by its IDF in local stores, so that matching only a
  common word of an unrelated question is not enough (:mod:`kortty_rag.index.bm25`; Qdrant stores:
  the plain share, :mod:`kortty_rag.index.sparse`).

**The dense floor is calibrated per store** (docs/DESIGN.md §11): an unrelated question comes closer
to a large or a broad store than to a small one, so one cosine floor per model either lets
unrelated questions in or keeps paraphrases out. Each snapshot keeps how close its chunks came to a
fixed set of off-topic probe questions (:mod:`kortty_rag.index.calibration`); the store's floors sit
:data:`MARGIN` above the :data:`PROBE_QUANTILE` quantile of those similarities, never below the
model's fixed floors (:mod:`kortty_rag.embedding.catalog`) and raised by at most a level's step or two
(the low floor at most to the model's medium one, whose cost on SciFact was measured, or to its
high one where the store's text is in a language the model was not trained for); a store
without a calibration (a local snapshot made before it existed) has the fixed floors.

**Relevance** puts both kinds of evidence on one scale that means the same in every store, row and
question: 0.5 is the ``low`` floor, 0.6 ``medium``, 0.7 ``high``, 1 a perfect match, 0 no more
similar than an unrelated question. Each part is mapped through its floors piecewise linearly and
the candidate's relevance is the better of the two, so "relevance ≥ the level's value" is exactly
"dense or lexical evidence at the level's floor".

The levels are ``off`` (no floor), ``low`` (the default), ``medium`` and ``high``; each store keeps
its own (``settings.retrieval.min_relevance``) and a query may override it.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kortty_rag.embedding.catalog import (
    FOREIGN_LEXICAL_SHARES,
    LEXICAL_SHARES,
    relevance_floors,
    speaks,
)
from kortty_rag.messages import msg
from kortty_rag.models import RelevanceLevel, RetrievalSettings, Store

#: the store settings' default (low): costs nothing measurable on the SciFact dev split and keeps the
#: answers to paraphrased questions that share no word with them, which ``medium`` drops (README)
DEFAULT_LEVEL = RetrievalSettings.min_relevance
LEVELS = tuple(RelevanceLevel)
_RANK = {RelevanceLevel.LOW: 0, RelevanceLevel.MEDIUM: 1, RelevanceLevel.HIGH: 2}
#: the relevance of each level's floor (low, medium, high)
THRESHOLDS = (0.5, 0.6, 0.7)
#: the probes' similarity the calibrated floor is set above: a quantile, not the maximum, since a
#: store about one of the probes' topics has a few probes that are not unrelated to it
PROBE_QUANTILE = 0.9
#: how far above that quantile the calibrated low floor sits (cosine similarity). 0.07 would leave
#: 4 fewer of 723 off-topic asks an excerpt (``benchmarks/relevance_eval.py``) but drops a second of
#: the 13 paraphrases of ``tests/integration/test_end_to_end.py`` that share no word with their note
MARGIN = 0.05
#: without a calibration, an unrelated question's similarity is taken as this far below the low floor
_NOISE_BELOW_FLOOR = 0.15


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
    """The floor that applied to one store's candidates, and the scale of its relevance values.

    ``dense`` and ``lexical`` are the level's floors (``None`` when the level is off); ``scale`` the
    cosine similarities of an unrelated question and of the low, medium and high floors;
    ``calibrated``: the dense floors come from the store's own probes."""

    store: str
    level: RelevanceLevel
    dense: float | None
    lexical: float | None
    scale: tuple[float, float, float, float] = (0.10, 0.25, 0.35, 0.45)
    shares: tuple[float, float, float] = LEXICAL_SHARES
    calibrated: bool = False

    @property
    def threshold(self) -> float:
        """The relevance of this floor (0 when every candidate may enter)."""
        return 0.0 if self.level is RelevanceLevel.OFF else THRESHOLDS[_RANK[self.level]]

    def relevance(self, dense_score: float | None, coverage: float | None) -> float:
        """The candidate's relevance from 0 to 1 (see the module docstring)."""
        dense = 0.0 if dense_score is None else _through(dense_score, self.scale, 1.0)
        lexical = 0.0 if coverage is None else _through(coverage, (0.0, *self.shares), 1.0)
        return round(max(dense, lexical), 6)

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
            "{level}: relevance at least {threshold:.2f} (similarity at least {similarity:.2f}, or "
            "at least {share:.0%} of the question's words)",
            level=level_word(self.level),
            threshold=self.threshold,
            similarity=self.dense,
            share=self.lexical,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "store": self.store,
            "level": self.level.value,
            "min_relevance": self.threshold,
            "dense_min_similarity": self.dense,
            "lexical_min_coverage": self.lexical,
            "calibrated": self.calibrated,
        }


def _through(value: float, anchors: Sequence[float], top: float) -> float:
    """``value`` mapped piecewise linearly: ``anchors`` (an unrelated question's value, then the
    low, medium and high floors) to 0 and :data:`THRESHOLDS`, ``top`` to 1; clamped to 0..1."""
    xs = [*anchors, top]
    ys = [0.0, *THRESHOLDS, 1.0]
    if value <= xs[0]:
        return 0.0
    if value >= top:
        return 1.0
    i = bisect.bisect_right(xs, value) - 1
    i = min(i, len(xs) - 2)
    span = xs[i + 1] - xs[i]
    if span <= 0:
        return ys[i + 1]
    return ys[i] + (ys[i + 1] - ys[i]) * (value - xs[i]) / span


def dense_scale(
    model_id: str, calibration: Sequence[float] = (), language: str | None = None
) -> tuple[tuple[float, float, float, float], bool]:
    """The cosine similarities of an unrelated question and of the low, medium and high floors for a
    store of ``model_id`` whose snapshot keeps ``calibration`` (the probes' best similarities,
    ascending), and whether they are calibrated; ``language``: the store's text's."""
    fixed = relevance_floors(model_id)
    if not calibration:
        return (round(fixed[0] - _NOISE_BELOW_FLOOR, 6), *fixed), False
    noise = float(np.quantile(calibration, 0.5))
    # raised at most to the model's medium floor, whose cost on SciFact was measured (README); in a
    # language the model was not trained for, where any two texts look alike to it, to its high one
    cap = fixed[2] if speaks(model_id, language) is False else fixed[1]
    low = min(max(fixed[0], float(np.quantile(calibration, PROBE_QUANTILE)) + MARGIN), cap)
    raise_by = low - fixed[0]  # the levels keep the model's steps between them
    noise = min(noise, low - 0.05)
    medium, high = fixed[1] + raise_by, fixed[2] + raise_by
    return (round(noise, 6), round(low, 6), round(medium, 6), round(high, 6)), True


def floor_for(
    store: Store,
    level: RelevanceLevel | None = None,
    calibration: Sequence[float] = (),
    language: str | None = None,
) -> RelevanceFloor:
    """The floor for ``store``'s candidates: ``level``, else the store's own setting;
    ``calibration``: the probes' similarities its active snapshot keeps; ``language``: its text's."""
    chosen = store_level(store) if level is None else level
    scale, calibrated = dense_scale(store.embedding.model_id, calibration, language)
    foreign = speaks(store.embedding.model_id, language) is False
    shares = FOREIGN_LEXICAL_SHARES if foreign else LEXICAL_SHARES
    if chosen is RelevanceLevel.OFF:
        return RelevanceFloor(store.name, chosen, None, None, scale, shares, calibrated)
    index = _RANK[chosen]
    return RelevanceFloor(
        store.name, chosen, scale[1 + index], shares[index], scale, shares, calibrated
    )

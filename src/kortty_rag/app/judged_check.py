"""A store's judged questions as a regression check: each one is asked again, as a front end asks
it, and the ranking is measured against what the person judged (README, "Your own questions as a
check"; docs/DESIGN.md §13).

The ranking judged is what a person gets: the excerpts of the context block in marker order (R1,
R2, …), reduced to their documents (each path where it first appears), searched with the store's
own settings — exactly ``kortty-rag search STORE QUESTION``. A document counts as relevant when
the person marked its path relevant for that question; a document marked not relevant counts 0,
like one never judged (it is kept for the list and the export). Per question, with binary gains:

- nDCG@10 = DCG@10 / IDCG@10, DCG@10 = Σ over the first 10 ranks i (from 1) of gain_i / log2(i + 1),
  and IDCG@10 the DCG of the ideal ranking: all R relevant documents first (min(R, 10) of them);
- Recall@10 = relevant documents among the first 10 / R.

A question without a relevant document (R = 0) has neither figure: it is counted among the judged
questions and reported, but left out of the means, and the report says how many were. The figures
of each check are kept with its time and the store's settings (:func:`settings_summary`) beside
the judgments, so the next check can show "before → now" after a change of the settings or a
rebuild with another model.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from kortty_rag.app.judgments import (
    CheckFigures,
    JudgedQuestion,
    keep_last_check,
    load_judgments,
    require_judged,
)
from kortty_rag.config.registry import now_iso
from kortty_rag.models import Store
from kortty_rag.progress import CancelToken, NullProgress, Progress
from kortty_rag.retrieval.search import RetrievalResult

#: the rank cutoff of both figures
CUTOFF = 10
#: the progress stage of a check (advanced once per question)
CHECK_STAGE = "check"


# -- the measures -----------------------------------------------------------------------------------


def ranked_documents(result: RetrievalResult) -> tuple[str, ...]:
    """The documents of the context block in marker order, each once (where it first appears)."""
    return tuple(dict.fromkeys(excerpt.path for excerpt in result.excerpts))


def _dcg(gains: Iterable[float]) -> float:
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1))


def ndcg_at(ranking: Sequence[str], relevant: Iterable[str], cutoff: int = CUTOFF) -> float | None:
    """nDCG at ``cutoff`` with binary gains; ``None`` without a relevant document. ``ranking``
    holds each document once."""
    wanted = set(relevant)
    if not wanted:
        return None
    gained = _dcg(1.0 if path in wanted else 0.0 for path in ranking[:cutoff])
    return gained / _dcg([1.0] * min(len(wanted), cutoff))


def recall_at(
    ranking: Sequence[str], relevant: Iterable[str], cutoff: int = CUTOFF
) -> float | None:
    """The share of the relevant documents among the first ``cutoff``; ``None`` without one."""
    wanted = set(relevant)
    if not wanted:
        return None
    return len(wanted.intersection(ranking[:cutoff])) / len(wanted)


def mean(values: Iterable[float | None]) -> float | None:
    """The mean of the values that exist; ``None`` when none does."""
    present = [value for value in values if value is not None]
    return sum(present) / len(present) if present else None


def _kept(value: float | None) -> float | None:
    """A figure as it is kept: six decimals, never above 1 by a rounding error."""
    return None if value is None else min(1.0, round(value, 6))


# -- the settings a check ran with ------------------------------------------------------------------


def _plain(value: object) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def settings_summary(store: Store) -> dict[str, Any]:
    """What decides a store's ranking, by name: the embedding model and every typed setting of the
    store except the Qdrant service (``fusion``, ``min_relevance``, …; a setting of a section other
    than ``retrieval`` as ``section.name``), so a setting added later is compared too."""
    summary: dict[str, Any] = {"model": store.embedding.model_id}
    for section, values in dataclasses.asdict(store.options).items():
        if section == "qdrant":
            continue
        if not isinstance(values, dict):
            summary[section] = _plain(values)
            continue
        for key, value in values.items():
            summary[key if section == "retrieval" else f"{section}.{key}"] = _plain(value)
    plain: dict[str, Any] = json.loads(json.dumps(summary))  # as it reads back from the file
    return plain


@dataclass(frozen=True)
class SettingChange:
    name: str
    before: Any
    now: Any

    def to_json(self) -> dict[str, Any]:
        return {"setting": self.name, "before": self.before, "now": self.now}


def changed_settings(before: dict[str, Any], now: dict[str, Any]) -> tuple[SettingChange, ...]:
    names = list(dict.fromkeys([*now, *before]))
    return tuple(
        SettingChange(name, before.get(name), now.get(name))
        for name in names
        if before.get(name) != now.get(name)
    )


# -- a check ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuestionFigures:
    question: str
    relevant: tuple[str, ...]
    not_relevant: tuple[str, ...]
    #: the documents of the context block, in marker order (at most :data:`CUTOFF`)
    ranking: tuple[str, ...]
    ndcg: float | None
    recall: float | None

    @property
    def found(self) -> tuple[str, ...]:
        """The relevant documents among the first :data:`CUTOFF`, in their order there."""
        wanted = set(self.relevant)
        return tuple(path for path in self.ranking if path in wanted)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "ndcg@10": self.ndcg,
            "recall@10": self.recall,
            "relevant": list(self.relevant),
            "not_relevant": list(self.not_relevant),
            "found": list(self.found),
            "ranking": list(self.ranking),
        }


def measure(judged: JudgedQuestion, result: RetrievalResult) -> QuestionFigures:
    ranking = ranked_documents(result)[:CUTOFF]
    return QuestionFigures(
        judged.question,
        judged.relevant,
        judged.not_relevant,
        ranking,
        ndcg_at(ranking, judged.relevant),
        recall_at(ranking, judged.relevant),
    )


@dataclass(frozen=True)
class CheckReport:
    """A check's figures, per question and as means, and the check before it (if any)."""

    store: str
    now: CheckFigures
    previous: CheckFigures | None
    per_question: tuple[QuestionFigures, ...]

    @property
    def excluded(self) -> int:
        """Judged questions without a relevant document: reported, but not in the means."""
        return self.now.questions - self.now.measured

    @property
    def changes(self) -> tuple[SettingChange, ...]:
        """The settings that differ from the previous check's (none without one)."""
        if self.previous is None:
            return ()
        return changed_settings(self.previous.settings, self.now.settings)

    def to_json(self) -> dict[str, Any]:
        return {
            "store": self.store,
            "checked_at": self.now.checked_at,
            "questions": self.now.questions,
            "measured": self.now.measured,
            "excluded": self.excluded,
            "ndcg@10": self.now.ndcg_at_10,
            "recall@10": self.now.recall_at_10,
            "settings": self.now.settings,
            "per_question": [q.to_json() for q in self.per_question],
            "previous": None if self.previous is None else self.previous.figures_json(),
            "settings_changed": [change.to_json() for change in self.changes],
        }


def check_judgments(
    store: Store,
    search: Callable[[str], RetrievalResult],
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> CheckReport:
    """Ask every judged question of ``store`` again with ``search`` (the store's own settings),
    measure each ranking, keep the figures as the store's last check and return them with the
    check before. Cancelled between two questions, nothing is kept."""
    progress = progress or NullProgress()
    judgments = load_judgments(store)
    require_judged(store, judgments)
    questions = judgments.questions
    progress.stage(CHECK_STAGE, total=len(questions))
    figures: list[QuestionFigures] = []
    for judged in questions:
        if cancel is not None:
            cancel.raise_if_cancelled()
        figures.append(measure(judged, search(judged.question)))
        progress.advance()
    if cancel is not None:
        cancel.raise_if_cancelled()
    measured = [f for f in figures if f.relevant]
    now = CheckFigures(
        checked_at=now_iso(),
        questions=len(figures),
        measured=len(measured),
        ndcg_at_10=_kept(mean(f.ndcg for f in measured)),
        recall_at_10=_kept(mean(f.recall for f in measured)),
        settings=settings_summary(store),
    )
    keep_last_check(store, now)
    return CheckReport(store.name, now, judgments.last_check, tuple(figures))

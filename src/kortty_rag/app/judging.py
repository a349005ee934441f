"""The person's judged questions of each store, a part of the workspace (``Workspace.judging``):
verdicts kept (:mod:`kortty_rag.app.judgments`), checked against retrieval
(:mod:`kortty_rag.app.judged_check`) and exported as BEIR."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from kortty_rag.app.judged_check import CheckReport, check_judgments
from kortty_rag.app.judgments import (
    BeirExport,
    JudgedQuestion,
    Judgments,
    Mark,
    export_beir,
    forget_question,
    load_judgments,
    record_marks,
)
from kortty_rag.app.search_results import SearchRequest
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.models import Store
from kortty_rag.progress import CancelToken, Progress
from kortty_rag.retrieval.search import RetrievalResult

#: the workspace's own search, with each store's settings
Search = Callable[[SearchRequest], RetrievalResult]


class Judging:
    """Judged questions: what the person marked right or wrong, and how retrieval does on them."""

    def __init__(self, registry: StoreRegistry, search: Search) -> None:
        self._registry = registry
        self._search = search

    def judgments(self, store: Store) -> Judgments:
        return load_judgments(store)

    def judge(self, store: Store, question: str, marks: Sequence[Mark]) -> JudgedQuestion:
        """Keep the verdicts on documents of ``store`` for ``question`` (never any file text)."""
        return record_marks(self._registry.get(store.id), question, marks)

    def forget(self, store: Store, question: str) -> bool:
        return forget_question(store, question)

    def check(
        self, store: Store, *, progress: Progress | None = None, cancel: CancelToken | None = None
    ) -> CheckReport:
        """Ask every judged question again with the store's own settings and measure nDCG@10 and
        Recall@10 against the judgments; kept as the store's last check."""
        current = self._registry.get(store.id)
        return check_judgments(
            current,
            lambda q: self._search(SearchRequest(q, [current])),
            progress=progress,
            cancel=cancel,
        )

    def export(self, store: Store, folder: Path) -> BeirExport:
        """The judgments as BEIR ``queries.jsonl`` and ``qrels/test.tsv`` in ``folder``."""
        return export_beir(store, folder)

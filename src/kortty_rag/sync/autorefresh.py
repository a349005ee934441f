"""Runs the refreshes the watcher asks for, one at a time, in a background thread.

Requests for the same store are merged; a store that is busy (a job from the GUI, the CLI or another
process holds its lock) is retried after a short delay instead of waiting on the lock. Auto sources are
refreshed without asking: the review is confirmed automatically, which is what ``auto`` means.
Stopping cancels a running refresh (its store keeps the previous snapshot) instead of waiting for it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.base import Embedder
from kortty_rag.errors import Cancelled, KorttyRagError, NotFoundError, StoreBusyError
from kortty_rag.progress import CancelToken
from kortty_rag.sync.jobs import StoreJob
from kortty_rag.sync.pipeline import IndexSummary

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RefreshResult:
    store_id: str
    source_ids: frozenset[str]
    reason: str
    summary: IndexSummary | None = None
    error: Exception | None = None


class AutoRefresher:
    def __init__(
        self,
        *,
        registry: StoreRegistry | None = None,
        on_result: Callable[[RefreshResult], None] | None = None,
        retry_delay: float = 2.0,
        embedder_for: Callable[[str], Embedder | None] | None = None,
    ) -> None:
        self.registry = registry or StoreRegistry()
        self.on_result = on_result or (lambda result: None)
        self.retry_delay = retry_delay
        self.embedder_for = embedder_for or (lambda store_id: None)
        self._queue: dict[str, tuple[set[str], str, float]] = {}
        self._cond = threading.Condition()
        self._busy = False
        self._stopped = False
        self._cancel = CancelToken()
        self._thread: threading.Thread | None = None

    def start(self) -> AutoRefresher:
        self._thread = threading.Thread(target=self._loop, name="kortty-refresh", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cancel.cancel()
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=60)
            self._thread = None

    def request(self, store_id: str, source_ids: frozenset[str], reason: str) -> None:
        """Queue a refresh (the :class:`~kortty_rag.sync.watch.SourceWatcher` ``on_due`` callback)."""
        with self._cond:
            sources, old_reason, _ = self._queue.get(store_id, (set(), reason, 0.0))
            self._queue[store_id] = (sources | set(source_ids), old_reason, time.monotonic())
            self._cond.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Block until nothing is queued or running (tests, ``watch --once``)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._queue or self._busy:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    def _next(self) -> tuple[str, set[str], str] | None:
        with self._cond:
            while not self._stopped:
                now = time.monotonic()
                ready = [(at, sid) for sid, (_, _, at) in self._queue.items() if at <= now]
                if ready:
                    _, store_id = min(ready)
                    sources, reason, _ = self._queue.pop(store_id)
                    self._busy = True
                    return store_id, sources, reason
                waits = [at - now for _, _, at in self._queue.values()]
                self._cond.wait(min(waits) if waits else None)
            return None

    def _loop(self) -> None:
        while (item := self._next()) is not None:
            store_id, sources, reason = item
            try:
                self._refresh(store_id, sources, reason)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _refresh(self, store_id: str, sources: set[str], reason: str) -> None:
        try:
            store = self.registry.get(store_id)
        except NotFoundError:
            return  # deleted meanwhile
        wanted = [s.id for s in store.sources if s.id in sources]
        if not wanted:
            return
        try:
            with StoreJob(store, registry=self.registry, cancel=self._cancel) as job:
                review = job.review_refresh(wanted)
                summary = job.apply(review, self.embedder_for(store_id))
        except StoreBusyError:
            with self._cond:
                entry = self._queue.get(store_id, (set(), reason, 0.0))
                retry_at = time.monotonic() + self.retry_delay
                self._queue[store_id] = (entry[0] | sources, reason, max(entry[2], retry_at))
            return
        except Cancelled:  # stopping; the previous snapshot stays active
            return
        except Exception as exc:  # a failed refresh must not stop the watcher
            _log.warning(
                "automatic refresh of %s failed: %s",
                store.name,
                exc,
                exc_info=not isinstance(exc, KorttyRagError),
            )
            self.on_result(RefreshResult(store_id, frozenset(sources), reason, error=exc))
            return
        self.on_result(RefreshResult(store_id, frozenset(sources), reason, summary))

"""Automatic refresh: one policy for every front end that watches sources (docs/DESIGN.md §8).

:class:`RefreshQueue` is the policy, without threads or Qt: requests for one store are merged (the
sources add up, the first reason is kept); a store that is busy — any job of this or another process
holds its lock — is tried again after ``retry_delay`` with everything that was asked for meanwhile;
nothing is dropped and nothing runs twice at once. :class:`AutoRefresher` drives the queue in a
background thread (the CLI's ``watch`` and the MCP server); the desktop app drives the same queue
from its event loop and its worker jobs, so a refresh held up by a CLI job is retried there too.

Auto sources are refreshed without asking: the review is confirmed automatically, which is what
``auto`` means. Stopping cancels a running refresh (its store keeps the previous snapshot) instead
of waiting for it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.base import Embedder
from kortty_rag.errors import Cancelled, KorttyRagError, NotFoundError, StoreBusyError
from kortty_rag.models import SyncMode
from kortty_rag.progress import CancelToken, Progress
from kortty_rag.sync.pipeline import IndexSummary
from kortty_rag.sync.session import StoreSession

_log = logging.getLogger(__name__)

#: seconds before a busy store is tried again
RETRY_DELAY = 2.0


@dataclass(frozen=True)
class RefreshRequest:
    store_id: str
    source_ids: frozenset[str]
    reason: str


@dataclass(frozen=True)
class RefreshResult:
    store_id: str
    source_ids: frozenset[str]
    reason: str
    summary: IndexSummary | None = None
    error: Exception | None = None


class RefreshQueue:
    """Pending automatic refreshes by store, each with the time it is due. Not thread-safe: one
    owner calls it (under its own lock, or from one event loop)."""

    def __init__(
        self, retry_delay: float = RETRY_DELAY, clock: Callable[[], float] = time.monotonic
    ):
        self.retry_delay = retry_delay
        self._clock = clock
        self._pending: dict[str, tuple[set[str], str, float]] = {}

    def __bool__(self) -> bool:
        return bool(self._pending)

    def request(self, store_id: str, source_ids: Collection[str], reason: str) -> None:
        """Ask for a refresh now, merged with what is already pending for the store."""
        sources, first_reason, _ = self._pending.get(store_id, (set(), reason, 0.0))
        self._pending[store_id] = (sources | set(source_ids), first_reason, self._clock())

    def busy(self, request: RefreshRequest) -> None:
        """``request`` found its store busy: put it back, due after the retry delay (together with
        anything asked for meanwhile, which waits for the same retry)."""
        sources, _, due = self._pending.get(request.store_id, (set(), request.reason, 0.0))
        retry_at = self._clock() + self.retry_delay
        self._pending[request.store_id] = (
            sources | set(request.source_ids),
            request.reason,
            max(due, retry_at),
        )

    def take(self) -> RefreshRequest | None:
        """The request due first (removed from the queue), or ``None`` when none is due yet."""
        now = self._clock()
        due = [(at, sid) for sid, (_, _, at) in self._pending.items() if at <= now]
        if not due:
            return None
        _, store_id = min(due)
        sources, reason, _ = self._pending.pop(store_id)
        return RefreshRequest(store_id, frozenset(sources), reason)

    def seconds_to_next(self) -> float | None:
        """Seconds until the next request is due (0 when one is), ``None`` when nothing waits."""
        times = [at for _, _, at in self._pending.values()]
        return max(0.0, min(times) - self._clock()) if times else None


def refresh_store(
    registry: StoreRegistry,
    request: RefreshRequest,
    *,
    embedder: Embedder | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> IndexSummary | None:
    """Refresh the requested sources that still exist, are enabled and still sync automatically;
    ``None`` when there is nothing left to do (the store or its sources were removed, disabled or
    switched to manual meanwhile: a change seen just before must not be indexed unreviewed). Raises :class:`StoreBusyError` when another
    job holds the store: give the request back to :meth:`RefreshQueue.busy`."""
    try:
        store = registry.get(request.store_id)
    except NotFoundError:
        return None
    wanted = [
        s.id
        for s in store.sources
        if s.id in request.source_ids
        and s.enabled
        and s.sync_mode is SyncMode.AUTO
        and not s.needs_review  # never read before a person reviewed it (docs/DESIGN.md §14)
    ]
    if not wanted:
        return None
    with StoreSession(store, registry=registry, progress=progress, cancel=cancel) as job:
        return job.apply(job.review_refresh(wanted), embedder)


class AutoRefresher:
    """Runs the refreshes a watcher asks for, one at a time, in a background thread."""

    def __init__(
        self,
        *,
        registry: StoreRegistry | None = None,
        on_result: Callable[[RefreshResult], None] | None = None,
        retry_delay: float = RETRY_DELAY,
        embedder_for: Callable[[str], Embedder | None] | None = None,
    ) -> None:
        self.registry = registry or StoreRegistry()
        self.on_result = on_result or (lambda result: None)
        self.embedder_for = embedder_for or (lambda store_id: None)
        self._queue = RefreshQueue(retry_delay)
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
            self._queue.request(store_id, source_ids, reason)
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

    def _next(self) -> RefreshRequest | None:
        with self._cond:
            while not self._stopped:
                request = self._queue.take()
                if request is not None:
                    self._busy = True
                    return request
                self._cond.wait(self._queue.seconds_to_next())
            return None

    def _loop(self) -> None:
        while (request := self._next()) is not None:
            try:
                self._refresh(request)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _refresh(self, request: RefreshRequest) -> None:
        try:
            summary = refresh_store(
                self.registry,
                request,
                embedder=self.embedder_for(request.store_id),
                cancel=self._cancel,
            )
        except StoreBusyError:
            with self._cond:
                self._queue.busy(request)
            return
        except Cancelled:  # stopping; the previous snapshot stays active
            return
        except Exception as exc:  # a failed refresh must not stop the watcher
            _log.warning(
                "automatic refresh of store %s failed: %s",
                request.store_id,
                exc,
                exc_info=not isinstance(exc, KorttyRagError),
            )
            self.on_result(RefreshResult(*_fields(request), error=exc))
            return
        if summary is not None:
            self.on_result(RefreshResult(*_fields(request), summary))


def _fields(request: RefreshRequest) -> tuple[str, frozenset[str], str]:
    return request.store_id, request.source_ids, request.reason

"""Background work for the GUI (docs/DESIGN.md, "Threading and jobs"): core jobs run in a QThreadPool.

A :class:`Job` is a ``QRunnable`` that calls one plain core function with a ``progress`` and a
``cancel`` argument and reports through its :class:`JobSignals`; it never touches a widget. The
:class:`JobRunner` keeps strong references to running jobs, allows one job per key (one scan or
indexing job per store), throttles progress to at most 10 updates a second, and can wait for every
job at shutdown so no worker thread outlives the window.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from kortty_rag.errors import Cancelled, StoreBusyError
from kortty_rag.progress import CancelToken, ProgressState, ProgressTracker

#: progress updates per second, at most
PROGRESS_HZ = 10.0

#: the key of every model install (the wizard's and the first screen's): one at a time
MODEL_INSTALL_JOB = "model-install"

JobFunction = Callable[[ProgressTracker, CancelToken], Any]


class JobSignals(QObject):
    """What a :class:`Job` tells the GUI thread.

    Signals: ``started()``; ``progress(ProgressState)``; then exactly one of ``finished(object)``
    (the function's result), ``failed(object)`` (the exception) or ``cancelled()``; then
    ``done()``.
    """

    started = Signal()
    progress = Signal(object)  # ProgressState
    finished = Signal(object)  # the function's result
    failed = Signal(object)  # the exception
    cancelled = Signal()
    done = Signal()  # after exactly one of finished / failed / cancelled


@dataclass(frozen=True)
class FirstIndex:
    """New sources a job indexes for the first time: the store's id and the sources' paths."""

    store_id: str
    paths: tuple[str, ...]


class Job(QRunnable):
    def __init__(self, function: JobFunction, *, key: str = "", name: str = "") -> None:
        super().__init__()
        self.setAutoDelete(False)  # the runner owns it until ``done``
        self.function = function
        self.key = key
        self.name = name or getattr(function, "__name__", "job")
        self.cancel_token = CancelToken()
        self.signals = JobSignals()
        #: set in the worker as soon as the function returned, before any result signal is sent:
        #: from then on the job no longer blocks its key (a slot may start the next job at once)
        self.completed = threading.Event()
        #: how it ended ("finished", "failed" or "cancelled"; set before ``completed``)
        self.outcome = ""
        #: the new sources this job indexes for the first time (said again after an interrupted quit)
        self.first_index: FirstIndex | None = None
        self._last_emit = 0.0
        self._last_stage = ""
        #: the job's progress; the GUI thread may ask for its state at any time (it locks)
        self.tracker = ProgressTracker(self._on_progress)

    def cancel(self, *, keep_published: bool | None = None) -> None:
        """Ask the job to stop; ``keep_published``: whether an index keeps the documents it has
        already made searchable (``None``: as its token says, by default not)."""
        self.cancel_token.cancel(keep_published=keep_published)

    def _on_progress(self, state: ProgressState) -> None:
        now = time.monotonic()
        if state.stage != self._last_stage or now - self._last_emit >= 1.0 / PROGRESS_HZ:
            self._last_emit, self._last_stage = now, state.stage
            self.signals.progress.emit(state)

    def run(self) -> None:
        self.signals.started.emit()
        tracker = self.tracker
        try:
            result = self.function(tracker, self.cancel_token)
        except Cancelled:
            self.outcome = "cancelled"
            self.completed.set()
            self.signals.cancelled.emit()
        except BaseException as exc:  # reported to the GUI thread, never raised in the pool
            exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            self.outcome = "failed"
            self.completed.set()
            self.signals.failed.emit(exc)
        else:
            self.outcome = "finished"
            self.completed.set()
            self.signals.progress.emit(tracker.state())
            self.signals.finished.emit(result)
        finally:
            self.completed.set()
            self.signals.done.emit()


class JobRunner(QObject):
    """Starts jobs, one per key at a time, and keeps them alive until they are done.

    Signals: ``changed()`` — a job started or ended.
    """

    changed = Signal()

    def __init__(self, parent: QObject | None = None, *, max_threads: int = 4) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self._running: dict[int, Job] = {}

    def busy(self, key: str) -> bool:
        return bool(key) and any(
            job.key == key and not job.completed.is_set() for job in self._running.values()
        )

    def start(self, job: Job) -> Job:
        """Run ``job``; refuse a second job with the same key (:class:`StoreBusyError`)."""
        running = next(
            (
                j
                for j in self._running.values()
                if job.key and j.key == job.key and not j.completed.is_set()
            ),
            None,
        )
        if running is not None:
            raise StoreBusyError(
                self.tr("{job} is still running here").format(job=running.name),
                hint=self.tr("Wait for it to finish or cancel it."),
            )
        self._running[id(job.signals)] = job
        job.signals.done.connect(self._on_done)  # a bound slot: delivered on the GUI thread
        self.pool.start(job)
        self.changed.emit()
        return job

    def _on_done(self) -> None:
        self._running.pop(id(self.sender()), None)
        self.changed.emit()

    def cancel(self, key: str) -> None:
        for job in list(self._running.values()):
            if job.key == key:
                job.cancel()

    def cancel_all(self) -> None:
        for job in list(self._running.values()):
            job.cancel()

    @property
    def running(self) -> list[Job]:
        return list(self._running.values())

    def wait(self, msecs: int = 60_000) -> bool:
        """Block until every worker thread has finished (shutdown, tests)."""
        return bool(self.pool.waitForDone(msecs))

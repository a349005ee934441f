"""Quitting while a job runs, and the next start after a first index that quitting interrupted
(docs/DESIGN.md "Threading and jobs").

Quitting (*File → Quit*, Ctrl+Q, the window's close button) while a job runs asks first: cancel it
and quit, or keep working. Once the person chose to quit, the status area says "Cancelling…", the
jobs are cancelled and the window closes when they have stopped — or, if one has not stopped after
:data:`QUIT_WAIT_SECONDS`, says so and closes anyway. SIGTERM and SIGINT do not ask: they cancel and
the app waits for the jobs as it exits. A cancelled index leaves its store as it was before the job.

A new folder whose first index was interrupted that way is not in its store afterwards; the next
start says so and offers to index it (the review opens first, as always).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from kortty_rag.gui.common import ask
from kortty_rag.gui.state import load_state, save_state
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.workers import FirstIndex, Job, JobRunner

#: how long quitting waits for cancelled jobs before it closes the window anyway
QUIT_WAIT_SECONDS = 10.0
#: the saved state's key for first indexes that quitting interrupted
INTERRUPTED = "interrupted"

_log = logging.getLogger(__name__)


class QuitGuard(QObject):
    """Decides whether the window may close now, asks, cancels and waits.

    Signals: ``ready()`` — the jobs have stopped (or the wait ran out): close the window now.
    """

    ready = Signal()

    def __init__(self, window: QWidget, runner: JobRunner, status: StatusArea) -> None:
        super().__init__(window)
        self.window, self.runner, self.status = window, runner, status
        #: the window may close: nothing runs, or quitting waited for the jobs
        self.allowed = False
        #: the person chose to quit (or a signal asked): the jobs are being cancelled
        self.closing = False
        #: the wait ran out with a job still running
        self.gave_up = False
        self.confirm_box: QMessageBox | None = None
        self.offer_box: QMessageBox | None = None
        self._adding: list[tuple[Job, FirstIndex]] = []
        self._deadline = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._check)

    def may_close(self, *, ask: bool = True) -> bool:
        """Whether the window may close now. While a job runs: with ``ask``, ask the person and
        (if they quit) cancel and close later; without, cancel and close now (the caller waits)."""
        if self.allowed or not self.runner.running:
            return True
        if self.closing:
            return not ask
        if not ask:
            self._cancel()
            return True
        if self.confirm_box is None:
            self._confirm()
        return False

    def _confirm(self) -> None:
        names = ", ".join(dict.fromkeys(job.name for job in self.runner.running))
        question = (
            self.tr("Quit kortty-rag"),
            self.tr("A job is still running: {jobs}.").format(jobs=names),
            self.tr(
                "Quitting cancels it: the store keeps what it had before the job, and a folder "
                "being added is not added. Cancel the job and quit?"
            ),
        )
        buttons = [
            (self.tr("Cancel job and &quit"), QMessageBox.ButtonRole.AcceptRole),
            (self.tr("&Keep working"), QMessageBox.ButtonRole.RejectRole),
        ]

        def answered(chosen: int | None) -> None:
            self.confirm_box = None
            if chosen == 0:
                self._cancel()
                self._check()  # the jobs may have ended meanwhile

        self.confirm_box = ask(
            self.window, "quitWhileRunningBox", question, buttons, answered, default=1
        )

    def _cancel(self) -> None:
        self.closing = True
        self._adding = [
            (job, job.first_index) for job in self.runner.running if job.first_index is not None
        ]
        self.status.set_text(self.tr("Cancelling… kortty-rag closes when the job has stopped."))
        self.status.cancel_button.setEnabled(False)  # it is being cancelled already
        self.runner.cancel_all()
        self._deadline = time.monotonic() + QUIT_WAIT_SECONDS
        self._timer.start()

    def _check(self) -> None:
        if not self.closing or self.allowed:
            return
        if self.runner.running and time.monotonic() < self._deadline:
            return
        self._timer.stop()
        if self.runner.running:
            self.gave_up = True
            _log.warning(
                "jobs still running %.0f s after quitting: closing anyway", QUIT_WAIT_SECONDS
            )
            self.status.set_text(
                self.tr(
                    "The job has not stopped after {seconds} s; kortty-rag closes anyway. The store "
                    "keeps its last completed index."
                ).format(seconds=round(QUIT_WAIT_SECONDS))
            )
        self.allowed = True
        self.ready.emit()

    # -- an interrupted first index -----------------------------------------------------------------

    def remember_interrupted(self) -> None:
        """Keep, for the next start, the first indexes quitting interrupted (call once the jobs
        have stopped)."""
        interrupted = [
            {"store": first.store_id, "paths": list(first.paths)}
            for job, first in self._adding
            if job.outcome != "finished"
        ]
        self._adding = []  # said once (shutdown may run twice)
        if interrupted:
            save_state(load_state() | {INTERRUPTED: interrupted})

    @staticmethod
    def take_interrupted() -> list[FirstIndex]:
        """The first indexes the last quit interrupted, once (they are forgotten as they are read)."""
        state = load_state()
        entries = state.pop(INTERRUPTED, None)
        if entries is None:
            return []
        save_state(state)
        found = []
        for entry in entries if isinstance(entries, list) else []:
            store, paths = (
                (entry.get("store"), entry.get("paths"))
                if isinstance(entry, dict)
                else (None, None)
            )
            if (
                isinstance(store, str)
                and isinstance(paths, list)
                and all(isinstance(p, str) for p in paths)
            ):
                found.append(FirstIndex(store, tuple(paths)))
        return found

    def offer(
        self, first: FirstIndex, store_name: str, index_now: Callable[[], object]
    ) -> QMessageBox:
        """Say that ``first`` was not added because quitting interrupted it, and offer to index it
        (``index_now()`` starts the scan and its review)."""
        question = (
            self.tr("Indexing was interrupted"),
            self.tr(
                "kortty-rag was closed while it indexed {paths} for the first time, so it was not "
                "added to {store}."
            ).format(paths=", ".join(first.paths), store=store_name),
            self.tr("Index it now? You review what will be indexed first."),
        )
        buttons = [
            (self.tr("&Index now"), QMessageBox.ButtonRole.AcceptRole),
            (self.tr("&Not now"), QMessageBox.ButtonRole.RejectRole),
        ]

        def answered(chosen: int | None) -> None:
            self.offer_box = None
            if chosen == 0:
                index_now()

        box = ask(
            self.window,
            "interruptedIndexBox",
            question,
            buttons,
            answered,
            default=0,
            icon=QMessageBox.Icon.Information,
        )
        self.offer_box = box
        return box

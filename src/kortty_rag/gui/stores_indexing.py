"""The Knowledge Stores tab's scans, reviews and indexing, and the automatic refresh of watched
sources: the second part of :class:`~kortty_rag.gui.stores_tab.StoresTab`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kortty_rag.app.auto_refresh import RefreshRequest
from kortty_rag.app.workspace import IndexSummary, PreparedReview
from kortty_rag.errors import StoreBusyError
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.dialogs.review import ReviewDialog
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.review_banner import waiting_sources
from kortty_rag.gui.stores_state import StoresState
from kortty_rag.gui.stores_words import (
    chunks_text,
    completion_text,
    scanned_what,
    skipped_text,
    took_text,
)
from kortty_rag.gui.workers import FirstIndex, Job, JobSignals
from kortty_rag.models import Store
from kortty_rag.progress import CancelToken, ProgressState, ProgressTracker

if TYPE_CHECKING:  # imported when first opened
    pass


class StoresIndexing(StoresState):
    """Add, refresh, review and index sources; sync watched ones automatically."""

    # -- scan, review, index --------------------------------------------------------------------------

    def add_folder(self) -> None:
        store = self.current_store()
        path = self.chooser.folder(self) if store else None
        if store is not None and path:
            self.start_scan(store, paths=[path])

    def add_files(self) -> None:
        store = self.current_store()
        paths = self.chooser.files(self) if store else []
        if store is not None and paths:
            self.start_scan(store, paths=paths)

    def review_imported(self) -> None:
        """Scan the selected store's sources that came with an import and open their review: the
        first time anything is read from them on this computer."""
        store = self.current_store()
        waiting = waiting_sources(store)
        if store is not None and waiting:
            self.start_scan(store, source_ids=[s.id for s in waiting])

    def refresh_now(self) -> None:
        store = self.current_store()
        if store is None:
            return
        source = self.selected_source()
        self.start_scan(store, source_ids=[source.id] if source else None)

    def start_scan(
        self,
        store: Store,
        *,
        paths: Sequence[str] | None = None,
        source_ids: Sequence[str] | None = None,
        on_rejected: Callable[[], None] | None = None,
    ) -> Job | None:
        workspace = self.workspace

        def scan(progress: ProgressTracker, cancel: CancelToken) -> PreparedReview:
            if paths is not None:
                return workspace.review_add(
                    store, [Path(p) for p in paths], progress=progress, cancel=cancel
                )
            # the review dialog opens for every scan: a person confirms it, so sources that came
            # with an import and wait for their first review here are part of it
            return workspace.review_refresh(
                store, source_ids, include_unreviewed=True, progress=progress, cancel=cancel
            )

        def scanned(review: PreparedReview) -> None:
            self.scan_finished.emit(review)
            self.open_review(store, review, on_rejected)

        if not paths:
            cancelled = self.tr("Nothing was changed.")
        elif len(paths) == 1:
            cancelled = self.tr("Nothing was changed; {paths} was not added.")
        else:
            cancelled = self.tr("Nothing was changed; {paths} were not added.")
        job = self._start(
            store,
            self.tr("Scan"),
            scan,
            scanned,
            status=self.tr("Scanning {what}").format(what=scanned_what(store, paths, source_ids)),
            cancelled=cancelled.format(paths=", ".join(paths or ())),
        )
        if job is not None and on_rejected is not None:
            job.signals.cancelled.connect(on_rejected)
            job.signals.failed.connect(lambda _: on_rejected())
        return job

    def open_review(
        self, store: Store, review: PreparedReview, on_rejected: Callable[[], None] | None = None
    ) -> None:
        self.set_status(self.tr("Review what will be indexed."))
        dialog = ReviewDialog(
            review, title=self.tr("Review — {store}").format(store=store.name), parent=self
        )
        self.review_dialog = dialog
        dialog.accepted.connect(lambda: self.start_index(store, review))
        if on_rejected is not None:
            dialog.rejected.connect(on_rejected)
        if review.moved is not None:
            rejected = self.tr("Nothing was changed; the source still points to {path}.").format(
                path=review.moved_from
            )
        else:
            rejected = self.tr("Nothing was indexed.")
        dialog.rejected.connect(lambda: self.set_status(rejected))
        dialog.open()

    def start_index(self, store: Store, review: PreparedReview) -> Job | None:
        workspace = self.workspace
        paths = ", ".join(dict.fromkeys(p.source.path for p in review.plan.sources))
        what = (
            paths
            if len(paths) < 120
            else translate("StoresIndexing", "%n sources", None, len(review.plan.sources))
        )
        if review.new_sources:
            status = self.tr("Indexing {what} (new source)").format(what=what)
        else:
            status = self.tr("Indexing {what}").format(what=what)
        if review.new_sources:
            count = len(review.new_sources)
            if count == 1:
                kept = self.tr("the new folder was not added.")
            else:
                kept = translate(
                    "StoresIndexing", "the new %n sources were not added.", None, count
                )
        else:
            kept = self.tr("the changes were not indexed.")
        if store.sources:
            cancelled = self.tr(
                "{store} still answers from its last completed index; {kept}"
            ).format(store=store.name, kept=kept)
        else:  # the first index of a new store: there is no earlier one to answer from
            cancelled = self.tr("{store} is still empty; {kept}").format(
                store=store.name, kept=kept
            )

        def index(progress: ProgressTracker, cancel: CancelToken) -> IndexSummary:
            return workspace.apply(store, review, progress=progress, cancel=cancel)

        def indexed(summary: IndexSummary) -> None:
            self.last_summary = summary
            failed = [
                f"{path}: {core_words(reason)}"
                for o in summary.sources
                for path, reason in o.failed
            ]
            skipped = skipped_text(review.report.rows)
            self.status.finish(
                self.tr("Done: {summary} in {store}.").format(
                    summary=completion_text(summary), store=store.name
                ),
                title=self.tr("Indexing finished"),
                summary=self._summary_text(store, summary),
                detail="\n\n".join(part for part in (skipped, "\n".join(failed[:20])) if part),
            )
            self.index_finished.emit(summary)

        job = self._start(
            store, self.tr("Indexing"), index, indexed, status=status, cancelled=cancelled
        )
        if job is not None and review.new_sources:  # they join the store as indexing starts
            job.signals.progress.connect(self._new_sources_joined)
            job.first_index = FirstIndex(store.id, tuple(s.path for s in review.new_sources))
        return job

    def _new_sources_joined(self, state: ProgressState) -> None:
        """Show a new source's row from the start of its first index (its documents become
        searchable in parts while it runs), not only when the job ends."""
        signals = self.sender()
        if state.stage == "index" and isinstance(signals, JobSignals):
            signals.progress.disconnect(self._new_sources_joined)  # once per job
            self._show_store()

    def _summary_text(
        self, store: Store, summary: IndexSummary, documents: str | None = None
    ) -> str:
        """A finished job's summary (the box "Show summary" opens): what it did with the documents
        (``documents``, by default :func:`completion_text`) and the chunks."""
        return self.tr("{store}: {summary}; {chunks}; it took {took}.").format(
            store=store.name,
            summary=completion_text(summary) if documents is None else documents,
            chunks=chunks_text(summary),
            took=took_text(summary.seconds),
        )

    def start_auto_refresh(self, store_id: str, source_ids: Sequence[str]) -> None:
        """A watched auto source changed: scan and index without asking (that is what auto means).
        Requests are merged per store; a store busy with a job of this app or of another process
        (the CLI, another window) is tried again a little later, without an error."""
        self.refreshes.request(store_id, source_ids, "changed")
        self._run_due_refreshes()

    def _run_due_refreshes(self) -> None:
        while (request := self.refreshes.take()) is not None:
            store = next((s for s in self.workspace.stores() if s.id == request.store_id), None)
            if store is None:
                continue  # deleted meanwhile
            if self.runner.busy(store.id):  # a job of this app: try again after it
                self.refreshes.busy(request)
                continue
            self._start_refresh(store, request)
        self._schedule_refreshes()

    def _schedule_refreshes(self) -> None:
        wait = self.refreshes.seconds_to_next()
        if wait is not None:  # the timer runs the queue again when the next request is due
            self._refresh_timer.start(max(1, round(wait * 1000)))

    def _start_refresh(self, store: Store, request: RefreshRequest) -> None:
        workspace = self.workspace

        def refresh(progress: ProgressTracker, cancel: CancelToken) -> IndexSummary | None:
            return workspace.refresh_due(request, progress, cancel)

        def done(summary: IndexSummary | None) -> None:
            if summary is not None:
                self.set_status(
                    self.tr("Synced automatically: {summary}.").format(
                        summary=completion_text(summary)
                    )
                )
                self.index_finished.emit(summary)

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, StoreBusyError):
                self._on_failed(self.tr("Automatic refresh"), exc)
                return
            self.refreshes.busy(request)  # another process holds the store: try again soon
            self._schedule_refreshes()
            self.set_status(
                self.tr(
                    "{store} is busy with another job; the changed files are synced when it ends."
                ).format(store=store.name)
            )

        self._start(
            store,
            self.tr("Automatic refresh"),
            refresh,
            done,
            status=self.tr("Syncing changed files…"),
            on_failed=failed,
        )

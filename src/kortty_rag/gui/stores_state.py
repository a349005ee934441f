"""The Knowledge Stores tab's state and jobs: which store and source are shown, which buttons
apply, and how a job starts, fails or is cancelled in the status area. The first part of
:class:`~kortty_rag.gui.stores_tab.StoresTab` (docs/DESIGN.md §5)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStackedWidget,
    QTableView,
    QWidget,
)

from kortty_rag.app.auto_refresh import RefreshQueue
from kortty_rag.app.workspace import IndexSummary, Workspace
from kortty_rag.errors import NothingToAddError, SourceOverlapError, StoreBusyError
from kortty_rag.gui.common import error_words, role_words, show_error, show_info
from kortty_rag.gui.dialogs.review import ReviewDialog
from kortty_rag.gui.dialogs.scan_report import ScanReportDialog
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.review_banner import ReviewBanner, waiting_sources
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.stores_words import covered_text, damaged_text, unchanged_text
from kortty_rag.gui.table_models import (
    SourceTableModel,
    source_status_words,
)
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.models import Role, Source, SourceStatus, Store, StoreType, SyncMode
from kortty_rag.progress import CancelToken, ProgressTracker

if TYPE_CHECKING:  # imported when first opened
    from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
    from kortty_rag.gui.dialogs.model_wizard import ModelWizard


#: the source table's status column (status and reason)
STATUS_COLUMN = 3
#: below this width (pixels) the source table hides its Type and Sync columns
NARROW_TABLE = 760

#: Item data of a damaged store in the store list: its error (what is wrong and what to do).
DAMAGE_ROLE = Qt.ItemDataRole.UserRole + 1


class StoresState(QWidget):
    """The tab's signals, its state and its jobs (the widgets are made by
    :class:`~kortty_rag.gui.stores_tab.StoresTab`).

    Signals: ``scan_finished(PreparedReview)``, ``index_finished(IndexSummary)``,
    ``job_failed(exception)``, ``job_cancelled()``, ``stores_changed()``, ``models_changed()`` (a
    model was installed from here), ``status_changed(str)`` (every text the status line shows).
    """

    scan_finished = Signal(object)  # PreparedReview
    index_finished = Signal(object)  # IndexSummary
    job_failed = Signal(object)  # exception
    job_cancelled = Signal()
    stores_changed = Signal()
    models_changed = Signal()  # a model was installed from here
    status_changed = Signal(str)  # every text the status line shows

    # the widgets StoresTab._build makes (gui/stores_tab.py), used by every part
    store_list: QListWidget
    store_header: QLabel
    sources: SourceTableModel
    proxy: QSortFilterProxyModel
    source_view: QTableView
    create_button: QPushButton
    delete_button: QPushButton
    rebuild_button: QPushButton
    key_button: QPushButton
    add_files_button: QPushButton
    add_folder_button: QPushButton
    refresh_button: QPushButton
    toggle_button: QPushButton
    remove_button: QPushButton
    move_button: QPushButton
    search_button: QPushButton
    report_action: QAction
    move_action: QAction
    sync_action: QAction
    review_banner: ReviewBanner
    missing_banner: QWidget
    missing_text: QLabel
    pages: QStackedWidget
    welcome: QWidget
    stores_page: QWidget
    first_store_button: QPushButton
    starter_button: QPushButton
    starter_note: QLabel
    # what StoresTab.__init__ sets
    workspace: Workspace
    runner: JobRunner
    chooser: PathChooser
    status: StatusArea
    review_dialog: ReviewDialog | None
    create_dialog: CreateStoreDialog | None
    model_wizard: ModelWizard | None
    key_dialog: QInputDialog | None
    report_dialog: ScanReportDialog | None
    last_summary: IndexSummary | None
    refreshes: RefreshQueue
    _refresh_timer: QTimer
    _status_width: int

    def _show_welcome(self, welcome: bool) -> None:
        if welcome:
            no_model = not self.workspace.models.installed()
            self.starter_button.setVisible(no_model)
            self.starter_note.setVisible(no_model)
        self.pages.setCurrentWidget(self.welcome if welcome else self.stores_page)

    # -- state ----------------------------------------------------------------------------------------

    def reload(self, select_id: str | None = None) -> None:
        selected = self.current_store()
        current = select_id or (selected.id if selected else None)
        self.store_list.blockSignals(True)
        self.store_list.clear()
        survey = self.workspace.survey()
        for store in survey.stores:
            item = QListWidgetItem(f"{store.name}\n{store.embedding.model_id}", self.store_list)
            item.setData(Qt.ItemDataRole.UserRole, store.id)
            if store.id == current:
                self.store_list.setCurrentItem(item)
        damaged = damaged_text()
        for broken in survey.damaged:  # shown with its reason; every action is off for it
            item = QListWidgetItem(f"{broken.name}\n{damaged}", self.store_list)
            item.setData(Qt.ItemDataRole.UserRole, broken.id)
            item.setData(DAMAGE_ROLE, error_words(broken.error))
            item.setToolTip(error_words(broken.error))
            if broken.id == current:
                self.store_list.setCurrentItem(item)
        if self.store_list.currentItem() is None and self.store_list.count():
            self.store_list.setCurrentRow(0)
        self.store_list.blockSignals(False)
        self._show_welcome(self.store_list.count() == 0)
        self._show_store()

    def current_store(self) -> Store | None:
        item = self.store_list.currentItem() if hasattr(self, "store_list") else None
        if item is None:
            return None
        store_id = item.data(Qt.ItemDataRole.UserRole)
        return next((s for s in self.workspace.stores() if s.id == store_id), None)

    def select_store(self, name: str) -> None:
        """Show the store named ``name`` (any case, or its id), matched by id, not displayed text."""
        store_id = self.workspace.store(name).id
        for row in range(self.store_list.count()):
            item = self.store_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == store_id:
                self.store_list.setCurrentItem(item)
                return

    def selected_source(self) -> Source | None:
        rows = self.source_view.selectionModel().selectedRows()
        if not rows:
            return None
        return self.sources.row(self.proxy.mapToSource(rows[0]).row())

    def select_source(self, path: str) -> None:
        for row in range(self.proxy.rowCount()):
            if (
                self.sources.row(self.proxy.mapToSource(self.proxy.index(row, 0)).row()).path
                == path
            ):
                self.source_view.selectRow(row)
                return

    def _show_store(self) -> None:
        store = self.current_store()
        item = self.store_list.currentItem()
        damage = item.data(DAMAGE_ROLE) if item is not None else None
        if damage:
            self.store_header.setText(f"<b>{damaged_text()}</b> — {html.escape(damage)}")
            self.sources.set_rows([])
        elif store is None:
            self.store_header.setText(self.tr("No knowledge store yet. Create one to get started."))
            self.sources.set_rows([])
        else:
            roles = [
                role_words(role)
                for role, on in ((Role.TEXT, store.roles.text), (Role.CODING, store.roles.coding))
                if on
            ]
            header = self.tr(
                "<b>{name}</b> — {type} store, model {model} ({dimensions} dimensions); roles: "
                "{roles}"
            ).format(
                name=store.name,
                type=self._type_words(store.type),
                model=store.embedding.model_id,
                dimensions=store.embedding.dimensions,
                roles=", ".join(roles) or self.tr("none"),
            )
            if store.roles.autonomous:
                header = self.tr("{header}; autonomous workflows").format(header=header)
            self.store_header.setText(header)
            selected = self.selected_source()
            self.sources.set_rows(store.sources)
            self._fit_status_column(store.sources)
            if selected is not None:
                self.select_source(selected.path)
        self._update_buttons()

    def _fit_status_column(self, sources: Sequence[Source]) -> None:
        """The status column as wide as the longest status word ("MISSING: …"), and as "READY
        (disabled): …" while a source is disabled (only then: the path gives way for it)."""
        metrics = self.source_view.fontMetrics()
        words = [source_status_words(status) for status in SourceStatus]
        if any(source.needs_review for source in sources):
            words.append(translate("SourceTableModel", "NEEDS REVIEW"))
        if any(not source.enabled for source in sources):
            disabled = translate("SourceTableModel", "{status} (disabled)")
            words += [disabled.format(status=word) for word in words]
        width = max(90, max(metrics.horizontalAdvance(f"{word}: …") for word in words) + 16)
        if width != self._status_width:  # a width the user dragged stays until it must change
            self._status_width = width
            self.source_view.horizontalHeader().resizeSection(STATUS_COLUMN, width)

    def _type_words(self, kind: StoreType) -> str:
        """Where a store keeps its index: here (local) or in a Qdrant service."""
        if kind is StoreType.QDRANT:
            return self.tr("qdrant")
        return self.tr("local")

    def _update_buttons(self) -> None:
        store = self.current_store()
        busy = store is not None and self.runner.busy(store.id)
        source = self.selected_source()
        waiting = waiting_sources(store)
        for button in (
            self.add_files_button,
            self.add_folder_button,
            self.search_button,
            self.delete_button,
            self.rebuild_button,
            self.key_button,
        ):
            button.setEnabled(store is not None and not busy)
        # a rebuild reads every source: not before the ones from an import were reviewed
        self.rebuild_button.setEnabled(
            store is not None and bool(store.sources) and not busy and not waiting
        )
        self.key_button.setVisible(store is not None and store.type is StoreType.QDRANT)
        self.search_button.setEnabled(store is not None)
        self.refresh_button.setEnabled(store is not None and bool(store.sources) and not busy)
        self.remove_button.setEnabled(source is not None and not busy)
        self.move_action.setEnabled(source is not None and not busy)
        # a source that came with an import is watched only once a person reviewed it
        self.sync_action.setEnabled(source is not None and not busy and not source.needs_review)
        self.review_banner.show_for(waiting, busy=busy)
        self.sync_action.setChecked(source is not None and source.sync_mode is SyncMode.AUTO)
        self.move_button.setEnabled(source is not None and not busy)
        missing = source is not None and source.status is SourceStatus.MISSING
        if missing and source is not None:
            self.missing_text.setText(
                self.tr(
                    "{path} was not found at the last refresh. If it moved, point the source at "
                    "its new place: unchanged files keep their chunks."
                ).format(path=source.path)
            )
        self.missing_banner.setVisible(missing)
        self.toggle_button.setEnabled(source is not None)
        self.toggle_button.setText(
            self.tr("Ena&ble") if source is not None and not source.enabled else self.tr("Disa&ble")
        )

    # -- jobs -----------------------------------------------------------------------------------------

    def _start(
        self,
        store: Store,
        name: str,
        function: Callable[[ProgressTracker, CancelToken], Any],
        on_done: Callable[[Any], None],
        *,
        status: str,
        on_failed: Callable[[BaseException], None] | None = None,
        cancelled: str = "",
        cancellable: bool = True,
    ) -> Job | None:
        """Run ``function`` for ``store`` in the background; its progress shows as ``status`` in
        the status area; ``cancelled`` says what a cancel left (the default: nothing changed)."""
        job = Job(function, key=store.id, name=name)
        for ended in (job.signals.finished, job.signals.failed, job.signals.cancelled):
            ended.connect(lambda *_: self._update_buttons())  # the store is free again
        job.signals.finished.connect(on_done)
        job.signals.failed.connect(on_failed or (lambda exc: self._on_failed(name, exc)))
        job.signals.cancelled.connect(lambda: self._on_cancelled(cancelled, store, job))
        job.signals.done.connect(self.reload)
        try:
            self.runner.start(job)
        except StoreBusyError as exc:
            show_error(self, self.tr("Store busy"), exc)
            return None
        self.status.track(job, status, cancellable=cancellable)
        self._update_buttons()
        return job

    def set_status(self, text: str) -> None:
        self.status.set_text(text)

    def _on_failed(self, name: str, exc: BaseException) -> None:
        if isinstance(exc, (SourceOverlapError, NothingToAddError)):
            self._already_covered(exc)
            return
        self.set_status(
            self.tr("{job} failed. {unchanged}").format(job=name, unchanged=unchanged_text())
        )
        self.job_failed.emit(exc)
        show_error(self, self.tr("{job} failed").format(job=name), exc)

    def _already_covered(self, exc: SourceOverlapError | NothingToAddError) -> None:
        """Adding what the store already has is information, not a failure."""
        text = covered_text(exc)
        self.set_status(self.tr("Nothing was added: {what}").format(what=text))
        self.job_failed.emit(exc)
        show_info(
            self,
            self.tr("Already in this store"),
            text,
            self.tr("Select that source and use Refresh now to pick up changes in it."),
        )

    def _on_cancelled(self, what: str, store: Store, job: Job) -> None:
        kept = job.cancel_token.kept
        if kept:  # the user chose to keep what a long index had made searchable
            what = translate(
                "StoresState",
                "%n document(s) indexed so far stay searchable in {store}; Refresh now indexes "
                "the rest.",
                None,
                kept,
            ).format(store=store.name)
        self.set_status(self.tr("Cancelled. {what}").format(what=what or unchanged_text()))
        self.job_cancelled.emit()

"""The Knowledge Stores tab: stores, their sources (docs/DESIGN.md §5 table), and every action on them.

Every long action runs as a background :class:`~kortty_rag.gui.workers.Job`: a scan ("Checking
selected files and folders…", cancellable) opens the review dialog; confirming starts the indexing job,
whose status line shows the source, documents, chunks, issues, percentage, throughput and ETA, with
Cancel; the completion summary counts new, unchanged, removed and skipped documents. One job per store.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.auto_refresh import RefreshQueue, RefreshRequest, refresh_store
from kortty_rag.app.workspace import IndexSummary, PreparedReview, Reviewed, Workspace
from kortty_rag.errors import KorttyRagError, NothingToAddError, SourceOverlapError, StoreBusyError
from kortty_rag.gui.common import (
    PathChooser,
    confirm,
    set_tab_order,
    show_error,
    show_info,
)
from kortty_rag.gui.dialogs.review import ReviewDialog
from kortty_rag.gui.dialogs.scan_report import ScanReportDialog
from kortty_rag.gui.hints import gui_hint
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.table_models import SourceTableModel
from kortty_rag.gui.workers import MODEL_INSTALL_JOB, Job, JobRunner
from kortty_rag.models import Source, SourceKind, SourceStatus, Store, StoreType
from kortty_rag.progress import CancelToken, ProgressTracker
from kortty_rag.sources.scan import SCAN_MESSAGE

if TYPE_CHECKING:  # imported when first opened
    from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
    from kortty_rag.gui.dialogs.model_wizard import ModelWizard

#: the source table's status column (status and reason)
STATUS_COLUMN = 3
#: below this width (pixels) the source table hides its Type and Sync columns
NARROW_TABLE = 760

#: Item data of a damaged store in the store list: its error (what is wrong and what to do).
DAMAGE_ROLE = Qt.ItemDataRole.UserRole + 1


WELCOME_TEXT = (
    "A knowledge store is a searchable index of the files and folders you choose — notes, documents, "
    "code, PDFs — that your AI profiles can draw on. Your files are only read, never changed, and "
    "everything is indexed here on this computer."
)
STARTER_NOTE = (
    "A store needs an embedding model, which turns text into searchable vectors. The starter model "
    "comes from the Python package index and needs no model hub."
)
#: the width of the first screen's text (pixels): a readable line length
WELCOME_WIDTH = 520
STARTER_TIP = "all-MiniLM-L6-v2 (English, small); other models: the Models tab"

#: what a failed or cancelled job left: the store as it was
UNCHANGED = "The store still answers from its last completed index."


def covered_text(exc: SourceOverlapError | NothingToAddError) -> str:
    """What the store already has, in words (the source that covers the selection)."""
    if isinstance(exc, SourceOverlapError):
        if exc.covered and exc.path is not None and Path(exc.path) == Path(exc.existing):
            return f"{exc.path} is already a source of this store."
        if exc.covered:
            return f"{exc.path} is already covered by the source {exc.existing}."
        return f"{exc.path} contains the source {exc.existing}, which this store already has."
    return f"{exc.path} is {exc.reason}."


def completion_text(summary: IndexSummary) -> str:
    """What an indexing did; skips a rule chose and real issues are counted apart."""
    issues = summary.issues
    text = (
        f"{summary.indexed} new or changed, {summary.unchanged} unchanged, {summary.removed} "
        f"removed, {summary.skipped - issues} skipped documents"
    )
    return text + (f", {issues} with {'an issue' if issues == 1 else 'issues'}" if issues else "")


class StoresTab(QWidget):
    scan_finished = Signal(object)  # PreparedReview
    index_finished = Signal(object)  # IndexSummary
    job_failed = Signal(object)  # exception
    job_cancelled = Signal()
    stores_changed = Signal()
    models_changed = Signal()  # a model was installed from here
    status_changed = Signal(str)  # every text the status line shows

    def __init__(
        self,
        workspace: Workspace,
        runner: JobRunner,
        chooser: PathChooser,
        status: StatusArea,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("storesTab")
        self.workspace = workspace
        self.registry = workspace.registry  # read here; every change goes through the workspace
        self.runner = runner
        self.chooser = chooser
        #: the main window's status area: this tab's jobs show their progress and end there
        self.status = status
        self.status_line = status.message
        self.cancel_button = status.cancel_button
        status.changed.connect(self.status_changed)
        self.review_dialog: ReviewDialog | None = None
        #: the dialogs this tab opens, kept while they are open (and for tests to find)
        self.create_dialog: CreateStoreDialog | None = None
        self.model_wizard: ModelWizard | None = None
        self.key_dialog: QInputDialog | None = None
        self.report_dialog: ScanReportDialog | None = None
        self.last_summary: IndexSummary | None = None
        #: automatic refreshes waiting for their store (the one policy: app.auto_refresh)
        self.refreshes = RefreshQueue()
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.timeout.connect(self._run_due_refreshes)
        self._build()
        self.reload()

    # -- layout ---------------------------------------------------------------------------------------

    def _button(
        self, text: str, name: str, slot: Callable[[], object], tip: str = ""
    ) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.clicked.connect(slot)
        if tip:
            button.setToolTip(tip)
        return button

    def _build(self) -> None:
        self.store_list = QListWidget(self)
        self.store_list.setObjectName("storeList")
        self.store_list.currentItemChanged.connect(lambda *_: self._show_store())
        self.create_button = self._button("&Create…", "createStoreButton", self.create_store)
        self.delete_button = self._button("&Delete store…", "deleteStoreButton", self.delete_store)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(QLabel("Knowledge stores", left))
        left_layout.addWidget(self.store_list, 1)
        row = QHBoxLayout()
        row.addWidget(self.create_button)
        row.addWidget(self.delete_button)
        left_layout.addLayout(row)
        self.rebuild_button = self._button(
            "R&ebuild…",
            "rebuildStoreButton",
            self.rebuild_store,
            "Read and embed every source again into a fresh index",
        )
        self.key_button = self._button(
            "&API key…",
            "qdrantKeyButton",
            self.change_qdrant_key,
            "The Qdrant service's API key, kept in the OS keyring; the connection is checked",
        )
        second = QHBoxLayout()
        second.addWidget(self.rebuild_button)
        second.addWidget(self.key_button)
        left_layout.addLayout(second)

        self.store_header = QLabel(self)
        self.store_header.setObjectName("storeHeader")
        self.store_header.setWordWrap(True)
        self.sources = SourceTableModel()
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.sources)
        self.proxy.setSortRole(Qt.ItemDataRole.UserRole)
        self.source_view = QTableView(self)
        self.source_view.setObjectName("sourceTable")
        self.source_view.setModel(self.proxy)
        self.source_view.setSortingEnabled(True)
        self.source_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.source_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.source_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.source_view.setWordWrap(False)
        self.source_view.verticalHeader().hide()
        header = self.source_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # the path gives way
        # a status with its reason is long: it keeps a width and shows all of it in its tooltip
        header.setSectionResizeMode(STATUS_COLUMN, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(STATUS_COLUMN, 90)
        header.setMinimumSectionSize(36)
        # in a narrow window Type and Sync give way (the path's tooltip names both)
        self.source_view.viewport().installEventFilter(self)
        self.source_view.selectionModel().selectionChanged.connect(
            lambda *_: self._update_buttons()
        )
        # a source's Skipped and Issues counts open its last scan report (Enter or double-click)
        self.source_view.activated.connect(self._source_activated)
        self.source_view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.report_action = QAction("Show &scan report…", self.source_view)
        self.report_action.triggered.connect(self.show_scan_report)
        self.source_view.addAction(self.report_action)
        self.move_action = QAction("Change &location…", self.source_view)
        self.move_action.setToolTip("The source's folder moved: point it at the new place")
        self.move_action.triggered.connect(self.change_location)
        self.source_view.addAction(self.move_action)

        self.add_files_button = self._button("Add fi&les…", "addFilesButton", self.add_files)
        self.add_folder_button = self._button("Add f&older…", "addFolderButton", self.add_folder)
        self.refresh_button = self._button(
            "&Refresh now", "refreshButton", self.refresh_now, "Scan again and review what changed"
        )
        self.toggle_button = self._button(
            "Disa&ble",
            "toggleButton",
            self.toggle_source,
            "Disabled sources keep their chunks but are never retrieved",
        )
        self.remove_button = self._button("Re&move…", "removeSourceButton", self.remove_source)
        # offered as a button where it is the answer: a source whose root is missing
        self.move_button = self._button(
            "Change &location…",
            "moveSourceButton",
            self.change_location,
            "The source's folder moved: point it at the new place; unchanged files keep their "
            "chunks and nothing is embedded again",
        )
        self.search_button = self._button(
            "&Test search…", "testSearchButton", self.open_test_search
        )
        actions = QHBoxLayout()
        for button in (
            self.add_files_button,
            self.add_folder_button,
            self.refresh_button,
            self.toggle_button,
            self.remove_button,
            self.search_button,
        ):
            actions.addWidget(button)
        actions.addStretch(1)

        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.store_header)
        right_layout.addLayout(actions)
        right_layout.addWidget(self._missing_banner(right))
        right_layout.addWidget(self.source_view, 1)

        splitter = QSplitter(self)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([190, 610])
        splitter.setChildrenCollapsible(False)
        self.pages = QStackedWidget(self)
        self.pages.setObjectName("storesPages")
        self.welcome = self._welcome_page()
        self.pages.addWidget(self.welcome)
        self.pages.addWidget(splitter)
        self.stores_page = splitter
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages)
        order = (
            self.store_list,
            self.create_button,
            self.delete_button,
            self.rebuild_button,
            self.key_button,
            self.add_files_button,
            self.add_folder_button,
            self.refresh_button,
            self.toggle_button,
            self.remove_button,
            self.search_button,
            self.move_button,
            self.source_view,
        )
        set_tab_order(order)

    def _missing_banner(self, parent: QWidget) -> QWidget:
        """Shown for a selected source whose root was missing: what happened, and the way out."""
        self.missing_banner = QWidget(parent)
        self.missing_banner.setObjectName("missingBanner")
        row = QHBoxLayout(self.missing_banner)
        row.setContentsMargins(0, 0, 0, 0)
        self.missing_text = QLabel(self.missing_banner)
        self.missing_text.setWordWrap(True)
        self.missing_text.setMinimumWidth(120)
        row.addWidget(self.missing_text, 1)
        row.addWidget(self.move_button)
        self.missing_banner.hide()
        return self.missing_banner

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.source_view.viewport():
            narrow = self.source_view.width() < NARROW_TABLE
            header = self.source_view.horizontalHeader()
            for column in (SourceTableModel.TYPE, SourceTableModel.SYNC):
                header.setSectionHidden(column, narrow)
        return super().eventFilter(watched, event)

    def _welcome_page(self) -> QWidget:
        """What a first start shows instead of an empty list: what a store is, what happens to the
        files, and the one thing to do next."""
        page = QWidget(self)
        page.setObjectName("welcomePage")
        title = QLabel("Welcome to kortty-rag", page)
        title.setObjectName("welcomeTitle")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        title.setFont(font)
        text = QLabel(WELCOME_TEXT, page)
        text.setObjectName("welcomeText")
        text.setWordWrap(True)
        self.first_store_button = QPushButton("&Create your first knowledge store…", page)
        self.first_store_button.setObjectName("firstStoreButton")
        self.first_store_button.setMinimumHeight(44)
        self.first_store_button.clicked.connect(self.create_store)
        self.starter_button = QPushButton("&Install the offline starter model", page)
        self.starter_button.setObjectName("welcomeStarterButton")
        self.starter_button.setToolTip(STARTER_TIP)
        self.starter_button.clicked.connect(self.install_starter)
        self.starter_note = QLabel(STARTER_NOTE, page)
        self.starter_note.setObjectName("welcomeStarterNote")
        self.starter_note.setWordWrap(True)
        # a panel of a readable width, centred: wrapped text gets the height it needs
        panel = QWidget(page)
        panel.setObjectName("welcomePanel")
        panel.setFixedWidth(WELCOME_WIDTH)
        column = QVBoxLayout(panel)
        column.setSpacing(12)
        column.addWidget(title)
        column.addWidget(text)
        column.addWidget(self.first_store_button)
        column.addSpacing(8)
        column.addWidget(self.starter_note)
        column.addWidget(self.starter_button, 0, Qt.AlignmentFlag.AlignLeft)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(panel)
        row.addStretch(1)
        outer = QVBoxLayout(page)
        outer.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)
        return page

    def _show_welcome(self, welcome: bool) -> None:
        from kortty_rag.embedding.installed import list_models

        if welcome:
            no_model = not list_models()
            self.starter_button.setVisible(no_model)
            self.starter_note.setVisible(no_model)
        self.pages.setCurrentWidget(self.welcome if welcome else self.stores_page)

    def install_starter(self) -> None:
        """The offline starter model, from the package index (no model hub), as a background job."""
        from kortty_rag.embedding.install import install_starter

        def run(progress: ProgressTracker, cancel: CancelToken) -> object:
            progress.stage("starter")
            return install_starter(progress=progress)

        def installed(model: Any) -> None:
            self.status.finish(f"The embedding model {model.id} is installed. Create a store next.")
            self.models_changed.emit()
            self.reload()

        job = Job(run, key=MODEL_INSTALL_JOB, name="Install starter model")
        job.signals.finished.connect(installed)
        job.signals.failed.connect(lambda exc: show_error(self, "Install starter model", exc))
        job.signals.done.connect(lambda: self.starter_button.setEnabled(True))
        try:
            self.runner.start(job)
        except StoreBusyError as exc:
            show_error(self, "Install starter model", exc)
            return
        self.starter_button.setEnabled(False)
        self.status.track(job, "Installing the offline starter model", cancellable=False)

    # -- state ----------------------------------------------------------------------------------------

    def reload(self, select_id: str | None = None) -> None:
        selected = self.current_store()
        current = select_id or (selected.id if selected else None)
        self.store_list.blockSignals(True)
        self.store_list.clear()
        survey = self.registry.survey()
        for store in survey.stores:
            item = QListWidgetItem(f"{store.name}\n{store.embedding.model_id}", self.store_list)
            item.setData(Qt.ItemDataRole.UserRole, store.id)
            if store.id == current:
                self.store_list.setCurrentItem(item)
        for broken in survey.damaged:  # shown with its reason; every action is off for it
            item = QListWidgetItem(f"{broken.name}\nDAMAGED", self.store_list)
            item.setData(Qt.ItemDataRole.UserRole, broken.id)
            item.setData(DAMAGE_ROLE, gui_hint(str(broken.error)))
            item.setToolTip(gui_hint(str(broken.error)))
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
        return next((s for s in self.registry.list() if s.id == store_id), None)

    def select_store(self, name: str) -> None:
        """Show the store named ``name`` (any case, or its id), matched by id, not displayed text."""
        store_id = self.registry.get(name).id
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
            self.store_header.setText(f"<b>DAMAGED</b> — {html.escape(damage)}")
            self.sources.set_rows([])
        elif store is None:
            self.store_header.setText("No knowledge store yet. Create one to get started.")
            self.sources.set_rows([])
        else:
            roles = [
                r for r, on in (("Text", store.roles.text), ("Coding", store.roles.coding)) if on
            ]
            self.store_header.setText(
                f"<b>{store.name}</b> — {store.type.value} store, model {store.embedding.model_id} "
                f"({store.embedding.dimensions} dimensions); roles: {', '.join(roles) or 'none'}"
                f"{'; autonomous workflows' if store.roles.autonomous else ''}"
            )
            selected = self.selected_source()
            self.sources.set_rows(store.sources)
            if selected is not None:
                self.select_source(selected.path)
        self._update_buttons()

    def _update_buttons(self) -> None:
        store = self.current_store()
        busy = store is not None and self.runner.busy(store.id)
        source = self.selected_source()
        for button in (
            self.add_files_button,
            self.add_folder_button,
            self.search_button,
            self.delete_button,
            self.rebuild_button,
            self.key_button,
        ):
            button.setEnabled(store is not None and not busy)
        self.rebuild_button.setEnabled(store is not None and bool(store.sources) and not busy)
        self.key_button.setVisible(store is not None and store.type is StoreType.QDRANT)
        self.search_button.setEnabled(store is not None)
        self.refresh_button.setEnabled(store is not None and bool(store.sources) and not busy)
        self.remove_button.setEnabled(source is not None and not busy)
        self.move_action.setEnabled(source is not None and not busy)
        self.move_button.setEnabled(source is not None and not busy)
        missing = source is not None and source.status is SourceStatus.MISSING
        if missing and source is not None:
            self.missing_text.setText(
                f"{source.path} was not found at the last refresh. If it moved, point the source "
                "at its new place: unchanged files keep their chunks."
            )
        self.missing_banner.setVisible(missing)
        self.toggle_button.setEnabled(source is not None)
        self.toggle_button.setText(
            "Ena&ble" if source is not None and not source.enabled else "Disa&ble"
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
        job.signals.cancelled.connect(lambda: self._on_cancelled(cancelled))
        job.signals.done.connect(self.reload)
        try:
            self.runner.start(job)
        except StoreBusyError as exc:
            show_error(self, "Store busy", exc)
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
        self.set_status(f"{name} failed. {UNCHANGED}")
        self.job_failed.emit(exc)
        show_error(self, f"{name} failed", exc)

    def _already_covered(self, exc: SourceOverlapError | NothingToAddError) -> None:
        """Adding what the store already has is information, not a failure."""
        text = covered_text(exc)
        self.set_status(f"Nothing was added: {text}")
        self.job_failed.emit(exc)
        show_info(
            self,
            "Already in this store",
            text,
            "Select that source and use Refresh now to pick up changes in it.",
        )

    def _on_cancelled(self, what: str) -> None:
        self.set_status(f"Cancelled. {what or UNCHANGED}")
        self.job_cancelled.emit()

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
            return workspace.review_refresh(store, source_ids, progress=progress, cancel=cancel)

        def scanned(review: PreparedReview) -> None:
            self.scan_finished.emit(review)
            self.open_review(store, review, on_rejected)

        adding = (
            f"; {', '.join(paths)} {'was' if len(paths) == 1 else 'were'} not added"
            if paths
            else ""
        )
        job = self._start(
            store,
            "Scan",
            scan,
            scanned,
            status=SCAN_MESSAGE,
            cancelled=f"Nothing was changed{adding}.",
        )
        if job is not None and on_rejected is not None:
            job.signals.cancelled.connect(on_rejected)
            job.signals.failed.connect(lambda _: on_rejected())
        return job

    def open_review(
        self, store: Store, review: PreparedReview, on_rejected: Callable[[], None] | None = None
    ) -> None:
        self.set_status("Review what will be indexed.")
        dialog = ReviewDialog(review, title=f"Review — {store.name}", parent=self)
        self.review_dialog = dialog
        dialog.accepted.connect(lambda: self.start_index(store, review))
        if on_rejected is not None:
            dialog.rejected.connect(on_rejected)
        dialog.rejected.connect(lambda: self.set_status("Nothing was indexed."))
        dialog.open()

    def start_index(self, store: Store, review: PreparedReview) -> Job | None:
        workspace = self.workspace
        paths = ", ".join(dict.fromkeys(p.source.path for p in review.plan.sources))
        new = " (new source)" if review.new_sources else ""
        many = f"{len(review.plan.sources)} sources"
        status = f"Indexing {paths if len(paths) < 120 else many}{new}"
        if review.new_sources:
            count = len(review.new_sources)
            kept = f"the new {'folder was' if count == 1 else f'{count} sources were'} not added."
        else:
            kept = "the changes were not indexed."
        cancelled = f"{store.name} still answers from its last completed index; {kept}"

        def index(progress: ProgressTracker, cancel: CancelToken) -> IndexSummary:
            return workspace.apply(store, review, progress=progress, cancel=cancel)

        def indexed(summary: IndexSummary) -> None:
            self.last_summary = summary
            failed = [f"{path}: {reason}" for o in summary.sources for path, reason in o.failed]
            self.status.finish(
                f"Done: {completion_text(summary)} in {store.name}.",
                title="Indexing finished",
                summary=f"{store.name}: {completion_text(summary)}.",
                detail="\n".join(failed[:20]),
            )
            self.index_finished.emit(summary)

        return self._start(
            store, "Indexing", index, indexed, status=status, cancelled=f"{cancelled}"
        )

    def start_auto_refresh(self, store_id: str, source_ids: Sequence[str]) -> None:
        """A watched auto source changed: scan and index without asking (that is what auto means).
        Requests are merged per store; a store busy with a job of this app or of another process
        (the CLI, another window) is tried again a little later, without an error."""
        self.refreshes.request(store_id, source_ids, "changed")
        self._run_due_refreshes()

    def _run_due_refreshes(self) -> None:
        while (request := self.refreshes.take()) is not None:
            store = next((s for s in self.registry.list() if s.id == request.store_id), None)
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
        registry = self.registry

        def refresh(progress: ProgressTracker, cancel: CancelToken) -> IndexSummary | None:
            return refresh_store(registry, request, progress=progress, cancel=cancel)

        def done(summary: IndexSummary | None) -> None:
            if summary is not None:
                self.set_status(f"Synced automatically: {completion_text(summary)}.")
                self.index_finished.emit(summary)

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, StoreBusyError):
                self._on_failed("Automatic refresh", exc)
                return
            self.refreshes.busy(request)  # another process holds the store: try again soon
            self._schedule_refreshes()
            self.set_status(
                f"{store.name} is busy with another job; the changed files are synced when it ends."
            )

        self._start(
            store,
            "Automatic refresh",
            refresh,
            done,
            status="Syncing changed files…",
            on_failed=failed,
        )

    # -- lifecycle ------------------------------------------------------------------------------------

    def toggle_source(self) -> None:
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        try:
            self.workspace.set_source_enabled(store, source, not source.enabled)
        except KorttyRagError as exc:
            show_error(self, "Could not change the source", exc)
        self.reload()
        self.select_source(source.path)

    def remove_source(self) -> None:
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        workspace = self.workspace

        def remove(progress: ProgressTracker, cancel: CancelToken) -> int:
            return workspace.remove_source(store, source, progress=progress, cancel=cancel)

        def removed(count: int) -> None:
            self.set_status(f"Removed {source.path} and its {count} chunks.")

        confirm(
            self,
            "Remove source",
            f"Remove {source.path} from {store.name}?",
            f"Its {source.counts.chunks} chunks are deleted from the index. The files themselves are "
            "not touched.",
            lambda: self._start(
                store, "Remove", remove, removed, status=f"Removing {source.path}…"
            ),
            yes_text="Remove",
        )

    def change_location(self) -> None:
        """Re-point the selected source at the place its folder moved to, then index what changed
        there (usually nothing: unchanged documents keep their chunks and vectors)."""
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        path = self.chooser.new_location(self, source.path, folder=source.kind is SourceKind.FOLDER)
        if not path:
            return
        workspace = self.workspace

        def move(progress: ProgressTracker, cancel: CancelToken) -> Reviewed:
            # nothing to confirm when every document is where it was: recorded at once
            return workspace.move_source(
                store,
                source,
                path,
                confirm=lambda review: not review.has_changes,
                progress=progress,
                cancel=cancel,
            )

        def moved(reviewed: Reviewed) -> None:
            self.reload()
            self.select_source(path)
            if reviewed.summary is None:  # files to index or remove there: the usual review
                self.open_review(store, reviewed.review)
                return
            self.last_summary = reviewed.summary
            self.status.finish(
                f"{source.path} now points to {path}; every document was unchanged.",
                title="Location changed",
                summary=f"{store.name}: {completion_text(reviewed.summary)}.",
            )
            self.index_finished.emit(reviewed.summary)

        self._start(
            store,
            "Change location",
            move,
            moved,
            status=f"Looking at {path}",
            cancelled=f"Nothing was indexed; the source now points to {path} (Refresh now indexes "
            "it there).",
        )

    def _source_activated(self, index: QModelIndex) -> None:
        if index.column() in (SourceTableModel.SKIPPED, SourceTableModel.ISSUES):
            self.show_scan_report()

    def show_scan_report(self) -> None:
        """Which files the selected source's last indexing left out, and why."""
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        dialog = ScanReportDialog(source, self.workspace.scan_report(store, source), self)
        self.report_dialog = dialog
        dialog.open()

    def rebuild_store(self) -> None:
        """Everything embedded again into a fresh snapshot; the current one serves until then."""
        store = self.current_store()
        if store is None:
            return
        workspace = self.workspace

        def rebuild(progress: ProgressTracker, cancel: CancelToken) -> IndexSummary:
            return workspace.rebuild_store(store, progress=progress, cancel=cancel)

        def rebuilt(summary: IndexSummary) -> None:
            self.last_summary = summary
            self.status.finish(
                f"Rebuilt {store.name}: {summary.chunks_embedded} chunks embedded from "
                f"{summary.indexed} documents.",
                title="Rebuild finished",
                summary=f"{store.name}: {completion_text(summary)}.",
            )
            self.index_finished.emit(summary)

        confirm(
            self,
            "Rebuild store",
            f"Rebuild {store.name}?",
            f"Every file of its {len(store.sources)} sources is read and embedded again into a "
            "fresh index. Until that is complete the store keeps answering from its current one; "
            "your files are only read.",
            lambda: self._start(
                store,
                "Rebuild",
                rebuild,
                rebuilt,
                status=f"Rebuilding {store.name}",
                cancelled=f"{UNCHANGED.removesuffix('.')}; the rebuild was stopped.",
            ),
            yes_text="Rebuild",
        )

    def change_qdrant_key(self) -> None:
        """Keep a new API key for a Qdrant store's service, then check that the service takes it."""
        store = self.current_store()
        if store is None or store.type is not StoreType.QDRANT:
            return
        dialog = QInputDialog(self)
        dialog.setObjectName("qdrantKeyDialog")
        dialog.setWindowTitle(f"API key — {store.name}")
        dialog.setLabelText(
            f"The new API key of the Qdrant service at {store.options.qdrant.url}. It is kept in "
            "the OS keyring, never in a file, and only once the service accepted it."
        )
        dialog.setTextEchoMode(QLineEdit.EchoMode.Password)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # the secret goes with it

        def chosen(key: str) -> None:  # emitted after finished: the text is read here, then cleared
            dialog.setTextValue("")
            self._keep_qdrant_key(store, key.strip())

        dialog.textValueSelected.connect(chosen)
        dialog.rejected.connect(lambda: dialog.setTextValue(""))
        dialog.destroyed.connect(lambda: setattr(self, "key_dialog", None))
        self.key_dialog = dialog
        dialog.open()

    def _keep_qdrant_key(self, store: Store, key: str) -> None:
        """A new key replaces the old one only once the service accepted it."""
        workspace = self.workspace

        if not key:  # an empty field changes nothing: a stored key is never dropped by accident
            self.set_status(f"{store.name}: no key entered; the API key was not changed.")
            return

        def keep(progress: ProgressTracker, cancel: CancelToken) -> str:
            backend = workspace.replace_qdrant_key(store, key)
            return f"The API key is kept in the keyring ({backend}) and the service accepted it."

        def refused(exc: BaseException) -> None:
            self.set_status(f"{store.name}: the API key was not changed.")
            show_error(self, "API key not changed", exc)

        self._start(
            store,
            "API key",
            keep,
            lambda text: self.status.finish(f"{store.name}: {text}"),
            status="Checking the connection",
            on_failed=refused,
            cancellable=False,
        )

    def delete_store(self) -> None:
        store = self.current_store()
        if store is None:
            return
        workspace = self.workspace
        folder = self.registry.folder(store)

        def delete(progress: ProgressTracker, cancel: CancelToken) -> object:
            return workspace.delete_store(store, progress=progress, cancel=cancel)

        def deleted(_: object) -> None:
            self.set_status(f"Deleted store {store.name}; no source file was touched.")
            self.stores_changed.emit()

        confirm(
            self,
            "Delete store",
            f"Delete the knowledge store {store.name}?",
            f"Deleted: its index folder {folder} ({len(store.sources)} source definitions, their "
            "chunks and vectors).\nNot deleted: your files and folders, the embedding model, and any "
            "file in that folder that kortty-rag did not create.",
            lambda: self._start(store, "Delete store", delete, deleted, status="Deleting…"),
            yes_text="Delete",
        )

    def open_test_search(self) -> None:
        from kortty_rag.gui.dialogs.test_search import TestSearchDialog

        store = self.current_store()
        if store is not None:
            dialog = TestSearchDialog(store, self.workspace, parent=self, runner=self.runner)
            dialog.open()

    def create_store(self) -> None:
        """Without an installed embedding model, set one up first and come back here."""
        from kortty_rag.embedding.installed import list_models
        from kortty_rag.gui.dialogs.create_store import CreateStoreDialog

        if not list_models():
            from kortty_rag.gui.dialogs.model_wizard import ModelWizard

            wizard = ModelWizard(self.runner, self.chooser, role="embedding", parent=self)
            wizard.installed.connect(lambda _model: self.create_store())
            self.model_wizard = wizard
            wizard.open()
            return
        dialog = CreateStoreDialog(self.workspace, self.chooser, parent=self, runner=self.runner)
        dialog.created.connect(self._on_created)
        self.create_dialog = dialog
        dialog.open()

    def _on_created(self, store: Store, paths: list[str]) -> None:
        """The beginner flow ends with at least one reviewed source; without it, no store."""
        self.reload(select_id=store.id)
        self.stores_changed.emit()

        def forget_empty_store() -> None:
            fresh = next((s for s in self.registry.list() if s.id == store.id), None)
            if fresh is not None and not fresh.sources:  # nothing in it: no service to reach
                self.workspace.discard_new_store(fresh)
                self.reload()
                self.stores_changed.emit()

        self.start_scan(store, paths=paths, on_rejected=forget_empty_store)

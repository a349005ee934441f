"""Test search: the exact bounded context block a model would receive, and why (README, "Using the
app").

The dialog runs retrieval only — nothing is ever sent to a chat model. It shows the
``<retrieved_context>`` block verbatim (what the model would read), the chosen excerpts with their
``[R1]`` markers, paths, PDF pages and scores, the candidates that were dropped and why, and the
token budget used. The minimum relevance can be tried live (changing it searches again) and kept
for the store with "Use for this store"; when no candidate is relevant enough, the dialog says that
nothing would be added to the prompt. The budget can be computed for the context window of a profile holding one of
the store's roles, because the block never takes more than 25 % of the target model's context.

The search runs as a background job (embedding the query can take a second, loading the model once
more): on the main window's :class:`JobRunner` when one is passed, so shutting the window down waits
for it, else on a runner of the dialog's own. Closing the dialog waits for exactly its own search,
never for other jobs of a shared runner. The store is re-read inside the job, so a source disabled
while the dialog is open is excluded from the next search.

Under the excerpts, *Mark right* and *Mark wrong* keep the person's verdict on the selected
excerpt's document for the question, and *Check my questions* measures the store against every
question judged so far, before and after a change (:mod:`kortty_rag.gui.dialogs.judging`).

When the results look weak (the result's own verdict, :class:`~kortty_rag.retrieval.results.Weakness`,
the same in every front end) the guidance is shown. The dialog's words that are not a control's (score
columns, a candidate's cells and details, why a result is weak) are in
:mod:`kortty_rag.gui.dialogs.test_search_words`, in the dialog's translation context.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.profiles import ProfileRegistry
from kortty_rag.app.search_results import (
    RetrievalLimits,
    RetrievalResult,
    SearchOptions,
    SearchRequest,
    store_level,
)
from kortty_rag.app.workspace import Workspace
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.common import (
    describe,
    keyboard_friendly,
    resize_within_screen,
    role_words,
    set_tab_order,
    show_error,
)
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.dialogs.judging import JudgeControls, mark_column
from kortty_rag.gui.dialogs.test_search_words import (
    Cell,
    block_placeholder,
    candidate_cells,
    empty_block_text,
    idle_text,
    loading_text,
    no_parts_text,
    nothing_to_search_text,
    results_status,
    score_columns,
    still_indexing_text,
    weak_results_guidance,
    weakness,
)
from kortty_rag.gui.flow_row import FlowRow
from kortty_rag.gui.relevance_combo import level_name, relevance_combo, selected_level
from kortty_rag.gui.shared_columns import SharedColumns
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.models import Role, Store, StoreType
from kortty_rag.progress import CancelToken, ProgressTracker


class TestSearchDialog(QDialog):
    """Runs a query against one store and shows everything a model would (and would not) get;
    ``searched(RetrievalResult)`` when a search finished and its result is shown."""

    __test__ = False  # not a pytest test class, despite the name
    searched = Signal(object)

    def __init__(
        self,
        store: Store,
        workspace: Workspace,
        parent: QWidget | None = None,
        *,
        runner: JobRunner | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("testSearchDialog")
        self.setWindowTitle(self.tr("Test search — {store}").format(store=store.name))
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.store = store
        self.workspace = workspace
        self._owns_runner = runner is None
        self.runner = runner or JobRunner(self, max_threads=1)
        self._returned = threading.Event()  # set when the search function has returned
        self.last_result: RetrievalResult | None = None
        self._job: Job | None = None
        self._closed = False
        self._search_again = False  # the minimum relevance changed while a search ran
        self._build()
        self._load_budgets()
        self._update_search_button()
        if self.runner.busy(store.id):
            self.status_label.setText(still_indexing_text())
        keyboard_friendly(self)

    # -- layout ------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.query_edit = QLineEdit(self)
        self.query_edit.setObjectName("queryEdit")
        self.query_edit.setPlaceholderText(
            self.tr("A question, or a term that occurs in your documents")
        )
        self.query_edit.setToolTip(self.tr("What to search the store for; Enter searches"))
        query_label = QLabel(self.tr("&Question or term:"), self)
        query_label.setBuddy(self.query_edit)
        self.search_button = QPushButton(self.tr("&Search"), self)
        self.search_button.setObjectName("searchButton")
        self.search_button.setToolTip(
            self.tr("Search the store for the question or term; nothing is sent to a chat model")
        )
        self.search_button.setDefault(True)  # Enter in the query searches
        self.search_button.clicked.connect(self.search)
        self.query_edit.textChanged.connect(self._update_search_button)
        query_row = QHBoxLayout()
        query_row.addWidget(query_label)
        query_row.addWidget(self.query_edit, 1)
        query_row.addWidget(self.search_button)

        self.dense_check = QCheckBox(self.tr("&Dense (meaning)"), self)
        self.dense_check.setObjectName("denseCheck")
        self.dense_check.setToolTip(
            self.tr("Search by meaning: excerpts whose embedding is close to the question's")
        )
        self.lexical_check = QCheckBox(self.tr("&Lexical (exact words)"), self)
        self.lexical_check.setObjectName("lexicalCheck")
        self.lexical_check.setToolTip(self.tr("Search for the question's exact words (BM25)"))
        for check in (self.dense_check, self.lexical_check):
            check.setChecked(True)
            check.toggled.connect(self._update_search_button)
        self.links_check = QCheckBox(self.tr("Follow lin&ks"), self)
        self.links_check.setObjectName("linksCheck")
        self.links_check.setToolTip(
            self.tr(
                "Give a bonus to the best excerpts of notes that the best results link to or are "
                "linked from (wikilinks and links between the store's Markdown files)"
            )
        )
        self.links_check.setChecked(self.store.follows_links)
        self.links_check.setEnabled(self.store.type is StoreType.LOCAL)  # Qdrant keeps no links
        self.links_check.toggled.connect(self._relevance_changed)
        self.budget_combo = QComboBox(self)
        self.budget_combo.setObjectName("budgetCombo")
        self.budget_combo.setToolTip(
            self.tr(
                "How many tokens the context block may take: the default limit, or a quarter of "
                "the context window of a profile holding one of the store's roles"
            )
        )
        budget_label = QLabel(self.tr("&Budget for:"), self)
        budget_label.setBuddy(self.budget_combo)
        self.relevance_combo = relevance_combo(self, store_level(self.store))
        self.relevance_combo.setObjectName("relevanceCombo")
        relevance_label = QLabel(self.tr("&Minimum relevance:"), self)
        relevance_label.setBuddy(self.relevance_combo)
        self.relevance_combo.currentIndexChanged.connect(self._relevance_changed)
        self.use_relevance_button = QPushButton(self.tr("&Use for this store"), self)
        self.use_relevance_button.setObjectName("useRelevanceButton")
        self.use_relevance_button.setAutoDefault(False)
        self.use_relevance_button.setToolTip(
            self.tr(
                "Keep this minimum relevance and the choice to follow links for the store: every "
                "search and every prompt uses them"
            )
        )
        self.use_relevance_button.clicked.connect(self.use_for_store)
        self.use_relevance_button.setEnabled(False)
        # three groups that wrap onto further lines in a narrow window (German, 200 %)
        options_row = FlowRow()
        options_row.setSpacing(24)
        for group in (
            (self.dense_check, self.lexical_check, self.links_check),
            (budget_label, self.budget_combo),
            (relevance_label, self.relevance_combo, self.use_relevance_button),
        ):
            box = QWidget(self)
            row = QHBoxLayout(box)
            row.setContentsMargins(0, 0, 0, 0)
            for widget in group:
                row.addWidget(widget)
            options_row.addWidget(box)

        self.status_label = QLabel(idle_text(), self)
        self.status_label.setObjectName("statusLabel")
        self.status_label.setWordWrap(True)
        self.guidance_label = QLabel(self)
        self.guidance_label.setObjectName("guidanceLabel")
        self.guidance_label.setWordWrap(True)
        self.guidance_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.guidance_label.hide()

        self.block_view = QPlainTextEdit(self)
        self.block_view.setObjectName("contextBlock")
        self.block_view.setReadOnly(True)
        self.block_view.setTabChangesFocus(True)
        self.block_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.block_view.setPlaceholderText(block_placeholder())
        describe(
            self.block_view,
            self.tr(
                "Exactly the text a model would receive with the question: the excerpts with "
                "their markers, paths and pages (read only)"
            ),
            name=self.tr("Context block"),
        )
        self.block_view.setToolTip(
            self.tr(
                "The block's own sentences are instructions to the model and always English; the "
                "excerpts are your files' text as it is"
            )
        )
        self.budget_label = QLabel("", self)
        self.budget_label.setObjectName("budgetLabel")
        self.budget_label.setWordWrap(True)  # long: it must not widen the block's side
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        block_label = QLabel(self.tr("Context block (exactly what a model would receive):"), left)
        block_label.setBuddy(self.block_view)
        left_layout.addWidget(block_label)
        left_layout.addWidget(self.block_view, 1)
        left_layout.addWidget(self.budget_label)

        paths = [
            (
                self.tr("Path"),
                self.tr(
                    "The file, relative to its source's folder (its whole path in the tooltip)"
                ),
            ),
            (self.tr("Page"), self.tr("The PDF page or presentation slide the excerpt is on")),
        ]
        marker = (self.tr("Marker"), self.tr("The excerpt's marker in the context block"))
        reason = (self.tr("Reason"), self.tr("Why the candidate is not in the context block"))
        results_columns = [marker, *paths, *score_columns(), mark_column()]
        self.results_table = self._table("resultsTable", results_columns)
        describe(
            self.results_table,
            self.tr(
                "The excerpts in the context block, in the order of their markers, with their "
                "scores; selecting one shows it in the block"
            ),
            name=self.tr("Excerpts"),
        )
        self.results_table.itemSelectionChanged.connect(self._show_marker)
        self.judging = JudgeControls(
            self.store,
            self.workspace,
            self.runner,
            self.results_table,
            column=len(results_columns) - 1,
        )
        self.dropped_table = self._table("droppedTable", [reason, *paths, *score_columns()])
        describe(
            self.dropped_table,
            self.tr("The candidates that were found but left out of the block, and why"),
            name=self.tr("Dropped candidates"),
        )
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        results_label = QLabel(self.tr("Excerpts, in the order of their markers:"), right)
        results_label.setBuddy(self.results_table)
        dropped_label = QLabel(self.tr("Dropped candidates and why:"), right)
        dropped_label.setBuddy(self.dropped_table)
        right_layout.addWidget(results_label)
        right_layout.addWidget(self.results_table, 2)
        right_layout.addWidget(self.judging)
        right_layout.addWidget(dropped_label)
        right_layout.addWidget(self.dropped_table, 1)

        splitter = QSplitter(self)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setSizes([520, 730])
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        self.close_button.setAutoDefault(False)
        self.close_button.setToolTip(self.tr("Close the test search; nothing is changed"))
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(query_row)
        layout.addLayout(options_row)
        layout.addWidget(self.status_label)
        layout.addWidget(self.guidance_label)
        layout.addWidget(splitter, 1)
        layout.addWidget(buttons)
        resize_within_screen(self, 1250, 720)
        order = [self.query_edit, self.search_button, self.dense_check, self.lexical_check]
        order += [self.budget_combo, self.relevance_combo, self.use_relevance_button]
        order += [self.block_view, self.results_table, *self.judging.controls, self.dropped_table]
        order.append(self.close_button)
        set_tab_order(order)
        self.query_edit.setFocus()

    def _table(self, name: str, columns: Sequence[tuple[str, str]]) -> QTableWidget:
        """A read-only table with ``columns``: (title, what the column holds)."""
        table = QTableWidget(0, len(columns), self)
        table.setObjectName(name)
        table.setHorizontalHeaderLabels([title for title, _ in columns])
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        table.setWordWrap(False)
        table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move inside it
        table.verticalHeader().hide()
        for column, (_, tip) in enumerate(columns):
            if (item := table.horizontalHeaderItem(column)) is not None:
                item.setToolTip(tip)
        SharedColumns(table, grow=(1,))  # the path, elided as far as it must
        return table

    def _load_budgets(self) -> None:
        """The default limit, plus the budget for each profile holding a role this store serves."""
        limits = RetrievalLimits()
        locale = QLocale()
        self.budget_combo.addItem(
            self.tr("Default limit ({tokens} tokens)").format(
                tokens=locale.toString(limits.max_tokens)
            ),
            None,
        )
        try:
            settings = ProfileRegistry().load()
        except KorttyRagError:
            return  # the Profiles tab reports a broken settings file; the default still works
        for role in Role:
            profile = settings.role_profile(role)
            if profile is None or not self.store.roles.serves(role):
                continue
            window = profile.context_window
            self.budget_combo.addItem(
                self.tr("{role} role: {profile} ({budget} of {window} tokens)").format(
                    role=role_words(role),
                    profile=profile.name,
                    budget=locale.toString(limits.budget(window)),
                    window=locale.toString(window),
                ),
                window,
            )

    def _update_search_button(self) -> None:
        parts = self.dense_check.isChecked() or self.lexical_check.isChecked()
        self.search_button.setEnabled(
            parts and self._job is None and bool(self.query_edit.text().strip())
        )
        if not parts:
            self.status_label.setText(no_parts_text())
            self.guidance_label.hide()  # it was about the last search, not about this
        elif self.status_label.text() == no_parts_text():
            self.status_label.setText(idle_text())

    # -- searching ---------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._job is not None

    def search(self) -> None:
        """Start the background search for the current query (ignored while one is running)."""
        query = self.query_edit.text().strip()
        dense, lexical = self.dense_check.isChecked(), self.lexical_check.isChecked()
        if self._job is not None or not query or self._closed or not (dense or lexical):
            return
        options = SearchOptions(
            dense=dense,
            lexical=lexical,
            explain=True,
            min_relevance=selected_level(self.relevance_combo),
            graph=self.links_check.isChecked(),
        )
        request = SearchRequest(query, [], options, context_window=self.budget_combo.currentData())
        store_id, workspace = self.store.id, self.workspace
        returned = self._returned = threading.Event()

        def run(progress: ProgressTracker, cancel: CancelToken) -> RetrievalResult:
            try:
                store = workspace.store(store_id)  # the current sources and their enabled flags
                cancel.raise_if_cancelled()
                return workspace.search(replace(request, stores=[store]))
            finally:
                returned.set()

        job = Job(run, key=f"test-search:{id(self)}", name=self.tr("Test search"))
        job.signals.finished.connect(self._show_result)
        job.signals.failed.connect(self._failed)
        job.signals.done.connect(self._job_done)
        self._job = job
        self.runner.start(job)  # a key of its own: never refused as busy
        self.status_label.setText(loading_text())
        self._update_search_button()

    def _job_done(self) -> None:
        self._job = None
        self._update_search_button()
        if self._search_again and not self._closed:
            self._search_again = False
            self.search()

    # -- minimum relevance -------------------------------------------------------------------------

    def _relevance_changed(self) -> None:
        """Try the level at once: search again with the current question (after a running search)."""
        self.use_relevance_button.setEnabled(
            selected_level(self.relevance_combo) is not store_level(self.store)
            or self.links_check.isChecked() != self.store.follows_links
        )
        if self._job is not None:
            self._search_again = True
        elif self.query_edit.text().strip():
            self.search()

    def use_for_store(self) -> None:
        """Keep the chosen minimum relevance (and link following) in the store's definition."""
        level = selected_level(self.relevance_combo)
        try:
            self.store = self.workspace.set_min_relevance(self.store, level)
            graph = self.links_check.isChecked()
            if graph != self.store.follows_links:
                self.store = self.workspace.set_retrieval(self.store, graph=graph).store
        except KorttyRagError as exc:
            show_error(self, self.tr("Minimum relevance"), exc)
            return
        self.use_relevance_button.setEnabled(False)
        if self.store.follows_links:
            text = self.tr(
                "The store now uses the minimum relevance {level} and follows links between notes "
                "for every search and prompt."
            )
        else:
            text = self.tr(
                "The store now uses the minimum relevance {level} and does not follow links "
                "between notes for any search or prompt."
            )
        self.status_label.setText(text.format(level=level_name(level)))

    def _failed(self, exc: BaseException) -> None:
        if self._closed:
            return
        self.status_label.setText(self.tr("The search failed; see the message for what to do."))
        show_error(self, self.tr("Test search failed"), exc)

    def _show_result(self, result: RetrievalResult) -> None:
        if self._closed:
            return
        self.last_result = result
        self.block_view.setPlainText(result.block)
        self.block_view.setPlaceholderText(
            empty_block_text() if not result.block else block_placeholder()
        )
        self._fill(
            self.results_table,
            [[e.marker, *candidate_cells(e.candidate)] for e in result.excerpts],
        )
        self._fill(
            self.dropped_table,
            [[core_words(d.reason), *candidate_cells(d.candidate)] for d in result.dropped],
        )
        self.judging.show_result(result)
        floors = "; ".join(core_words(f.describe()) for f in result.relevance)
        locale = QLocale()
        self.budget_label.setText(
            self.tr(
                "Token budget: {used} of {budget} tokens used (estimated), {excerpts}, {dropped}. "
                "Minimum relevance: {floors}."
            ).format(
                used=locale.toString(result.used_tokens),
                budget=locale.toString(result.budget_tokens),
                excerpts=self.tr("%n excerpt(s)", "", len(result.excerpts)),
                dropped=self.tr("%n dropped", "", len(result.dropped)),
                floors=floors,
            )
        )
        reason = weakness(result)
        if not result.excerpts and not self._has_enabled_source():
            reason = nothing_to_search_text()  # no advice on tuning: there is nothing to tune
            self.guidance_label.setText(reason)
        elif result.nothing_relevant or not reason:
            self.guidance_label.setText(reason)
        else:
            self.guidance_label.setText(
                self.tr("{reason} {guidance}").format(
                    reason=reason, guidance=weak_results_guidance()
                )
            )
        self.guidance_label.setVisible(bool(reason))
        query = QLocale().quoteString(result.query)  # “…” in English, „…“ in German
        indexing = self.runner.busy(self.store.id)  # a first index publishes its parts as it goes
        self.status_label.setText(results_status(query, bool(result.excerpts), indexing))
        self.searched.emit(result)

    def _has_enabled_source(self) -> bool:
        try:
            store = self.workspace.store(self.store.id)  # sources may have been added meanwhile
        except KorttyRagError:
            store = self.store
        return any(source.enabled for source in store.sources)

    @staticmethod
    def _fill(table: QTableWidget, rows: Sequence[Sequence[str]]) -> None:
        table.clearContents()
        table.setRowCount(len(rows))
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text.tip if isinstance(text, Cell) else text)
                if column >= 2:  # page and scores
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                table.setItem(row, column, item)

    def _show_marker(self) -> None:
        """Selecting an excerpt scrolls the block to its marker."""
        rows = self.results_table.selectionModel().selectedRows()
        if not rows:
            return
        marker = self.results_table.item(rows[0].row(), 0)
        if marker is None:
            return
        self.block_view.moveCursor(QTextCursor.MoveOperation.Start)
        self.block_view.find(f"[{marker.text()}] source:")  # not the example in the preamble

    # -- closing -----------------------------------------------------------------------------------

    def done(self, result: int) -> None:
        """Close only after the running search, if any, has returned: no thread outlives it."""
        self._closed = True
        self.judging.stop()  # a running check of the judged questions returns first
        job = self._job
        if job is not None:
            job.cancel()
            if self.runner.pool.tryTake(job):  # still queued behind other jobs: it never runs
                job.signals.done.emit()
            else:
                self._returned.wait()
        if self._owns_runner:
            self.runner.wait()  # the pool's thread has returned too
        super().done(result)

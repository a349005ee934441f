"""Your own questions as a check, in Test search (README, "Your own questions as a check";
docs/DESIGN.md §13).

:class:`JudgeControls` sits under Test search's excerpts: *Mark right* and *Mark wrong* (Alt+R,
Alt+W) keep the verdict on the selected excerpt's document for the question searched — its path and
place, never its text — and the excerpts' *Your mark* column shows each one in words. *Check my
questions* (Alt+C) asks every judged question of the store again, as a background job with the
store's kept settings, and :class:`CheckDialog` shows nDCG@10 and Recall@10 next to the last
check's figures ("before → now"), with the settings of both and what changed between them. A mark
is for the document: marking another excerpt of the same document replaces it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.judged_check import CheckReport
from kortty_rag.app.judgments import JudgedQuestion, Location, Mark, Verdict
from kortty_rag.app.search_results import RetrievalResult
from kortty_rag.app.workspace import Workspace
from kortty_rag.errors import KorttyRagError
from kortty_rag.gui.common import (
    describe,
    keyboard_friendly,
    resize_within_screen,
    set_tab_order,
    show_error,
)
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.flow_row import FlowRow
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.table_models import full_time, readable_time
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.models import Store
from kortty_rag.progress import CancelToken, ProgressState, ProgressTracker


def mark_column() -> tuple[str, str]:
    """The excerpts table's last column: its title and what it holds."""
    return (
        translate("Judging", "Your mark"),
        translate(
            "Judging",
            "Whether you marked the excerpt's document right or wrong for this question "
            "(Mark right, Mark wrong)",
        ),
    )


def verdict_words(verdict: Verdict | None) -> str:
    if verdict is Verdict.RELEVANT:
        return translate("Judging", "right")
    if verdict is Verdict.NOT_RELEVANT:
        return translate("Judging", "wrong")
    return ""


def figure(value: float | None) -> str:
    """A measure with two decimals in the app's language; "–" where there is none."""
    if value is None:
        return "–"
    locale = QLocale()
    locale.setNumberOptions(QLocale.NumberOption.OmitGroupSeparator)
    return locale.toString(float(value), "f", 2)


def setting_value(value: object) -> str:
    if isinstance(value, bool):
        return translate("Judging", "on") if value else translate("Judging", "off")
    return "–" if value is None else str(value)


def settings_text(settings: dict[str, Any]) -> str:
    return "; ".join(
        translate("Judging", "{setting}: {value}").format(setting=name, value=setting_value(value))
        for name, value in settings.items()
    )


class JudgeControls(QWidget):
    """Marks for the selected excerpt of Test search's table, and the check of every judged
    question. ``table`` is the excerpts table, ``column`` its *Your mark* column."""

    def __init__(
        self,
        store: Store,
        workspace: Workspace,
        runner: JobRunner,
        table: QTableWidget,
        *,
        column: int,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("judgeControls")
        self.store = store
        self.workspace = workspace
        self.runner = runner
        self.table = table
        self.column = column
        self.result: RetrievalResult | None = None
        self.judged: JudgedQuestion | None = None
        self.check_dialog: CheckDialog | None = None
        self._job: Job | None = None
        self._total = 0  # the questions the running check asks
        self._returned = threading.Event()
        self._closed = False

        self.right_button = QPushButton(self.tr("Mark &right"), self)
        self.right_button.setObjectName("markRightButton")
        self.right_button.setToolTip(
            self.tr(
                "The selected excerpt's document answers the question: kept for the store with "
                "its path and place, never its text"
            )
        )
        self.wrong_button = QPushButton(self.tr("Mark &wrong"), self)
        self.wrong_button.setObjectName("markWrongButton")
        self.wrong_button.setToolTip(
            self.tr("The selected excerpt's document does not answer the question")
        )
        self.check_button = QPushButton(self.tr("&Check my questions"), self)
        self.check_button.setObjectName("checkQuestionsButton")
        self.check_button.setToolTip(
            self.tr(
                "Ask every question you judged again, with the store's kept settings, and show "
                "how well the store ranks the documents you marked right (nDCG@10, Recall@10), "
                "before and now"
            )
        )
        for button in (self.right_button, self.wrong_button, self.check_button):
            button.setAutoDefault(False)
        self.right_button.clicked.connect(lambda: self.mark(Verdict.RELEVANT))
        self.wrong_button.clicked.connect(lambda: self.mark(Verdict.NOT_RELEVANT))
        self.check_button.clicked.connect(self.check)
        self.state_label = QLabel(self)
        self.state_label.setObjectName("judgeStateLabel")
        self.state_label.setWordWrap(True)

        buttons = FlowRow()
        marks = QWidget(self)
        marks_row = QHBoxLayout(marks)
        marks_row.setContentsMargins(0, 0, 0, 0)
        marks_row.addWidget(self.right_button)
        marks_row.addWidget(self.wrong_button)
        buttons.addWidget(marks)
        buttons.addWidget(self.check_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.state_label)
        table.itemSelectionChanged.connect(self._update)
        self._update()

    @property
    def controls(self) -> list[QWidget]:
        """In their Tab order."""
        return [self.right_button, self.wrong_button, self.check_button]

    @property
    def busy(self) -> bool:
        return self._job is not None

    # -- marks -------------------------------------------------------------------------------------

    def show_result(self, result: RetrievalResult) -> None:
        """A new search's excerpts: show the marks kept for its question."""
        self.result = result
        try:
            self.judged = self.workspace.judging.judgments(self.store).find(result.query)
        except KorttyRagError as exc:
            self.judged = None
            self.state_label.setText(core_words(exc.message))
            self._show_marks()
            return
        self._show_marks()
        self._update()

    def _selected_row(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or self.result is None or rows[0].row() >= len(self.result.excerpts):
            return None
        return rows[0].row()

    def mark(self, verdict: Verdict) -> None:
        """Keep ``verdict`` on the selected excerpt's document for the question searched."""
        row = self._selected_row()
        if row is None or self.result is None:
            return
        excerpt = self.result.excerpts[row]
        chunk = excerpt.chunk
        mark = Mark(excerpt.path, verdict, Location(chunk.page, chunk.start, chunk.end))
        try:
            self.judged = self.workspace.judging.judge(self.store, self.result.query, [mark])
        except KorttyRagError as exc:
            show_error(self, self.tr("Mark the excerpt"), exc)
            return
        self._show_marks()
        self._update()

    def _show_marks(self) -> None:
        if self.result is None:
            return
        for row, excerpt in enumerate(self.result.excerpts[: self.table.rowCount()]):
            verdict = None if self.judged is None else self.judged.verdict(excerpt.path)
            item = QTableWidgetItem(verdict_words(verdict))
            item.setToolTip(mark_column()[1])
            self.table.setItem(row, self.column, item)

    def _update(self) -> None:
        selected = self._selected_row() is not None
        self.right_button.setEnabled(selected)
        self.wrong_button.setEnabled(selected)
        try:
            judged = len(self.workspace.judging.judgments(self.store).questions)
        except KorttyRagError:
            judged = None  # Check my questions says why
        self.check_button.setEnabled(self._job is None and judged != 0)
        if self._job is not None:
            return
        right = wrong = 0
        if self.judged is not None:
            right, wrong = len(self.judged.relevant), len(self.judged.not_relevant)
        if judged == 0 and self.result is None:
            text = ""
        elif judged == 0:
            text = self.tr(
                "Select an excerpt and mark it right or wrong for this question; your marked "
                "questions then check the store after every change."
            )
        else:
            text = self.tr(
                "This question: {right} right, {wrong} wrong. Questions judged in this store: "
                "{count}."
            ).format(right=right, wrong=wrong, count=judged if judged is not None else "–")
        self.state_label.setText(text)

    # -- the check ---------------------------------------------------------------------------------

    def check(self) -> None:
        """Ask every judged question again in the background, then show the figures."""
        if self._job is not None or self._closed:
            return
        store_id, workspace = self.store.id, self.workspace
        try:
            self._total = len(workspace.judging.judgments(self.store).questions)
        except KorttyRagError as exc:
            show_error(self, self.tr("Check my questions"), exc)
            return
        returned = self._returned = threading.Event()

        def run(progress: ProgressTracker, cancel: CancelToken) -> CheckReport:
            try:
                store = workspace.store(store_id)
                return workspace.judging.check(store, progress=progress, cancel=cancel)
            finally:
                returned.set()

        job = Job(run, key=f"check-questions:{store_id}", name=self.tr("Check my questions"))
        job.signals.progress.connect(self._progress)
        job.signals.finished.connect(self._checked)
        job.signals.failed.connect(self._failed)
        job.signals.done.connect(self._job_done)
        try:
            self.runner.start(job)
        except KorttyRagError as exc:
            show_error(self, self.tr("Check my questions"), exc)
            return
        self._job = job
        self.check_button.setEnabled(False)
        self.state_label.setText(
            self.tr("Checking your questions… (the embedding model may take a moment to load)")
        )

    def _progress(self, state: ProgressState) -> None:
        if self._closed or self._job is None:
            return
        done = round(state.percent * self._total / 100)
        self.state_label.setText(
            self.tr("Checking your questions… {done} of {total}").format(
                done=done, total=self._total
            )
        )

    def _checked(self, report: CheckReport) -> None:
        if self._closed:
            return
        now, before = report.now, report.previous
        self.state_label.setText(
            self.tr("Checked: nDCG@10 {ndcg}, Recall@10 {recall}.").format(
                ndcg=figure(now.ndcg_at_10), recall=figure(now.recall_at_10)
            )
            if before is None
            else self.tr(
                "Checked: nDCG@10 {ndcg_before} → {ndcg}, Recall@10 {recall_before} → {recall}."
            ).format(
                ndcg_before=figure(before.ndcg_at_10),
                ndcg=figure(now.ndcg_at_10),
                recall_before=figure(before.recall_at_10),
                recall=figure(now.recall_at_10),
            )
        )
        if self.check_dialog is not None:  # the figures of an earlier check
            self.check_dialog.close()
            self.check_dialog.deleteLater()
        self.check_dialog = CheckDialog(report, self.window())
        self.check_dialog.open()

    def _failed(self, exc: BaseException) -> None:
        if self._closed:
            return
        self.state_label.setText(self.tr("The check failed; see the message for what to do."))
        show_error(self, self.tr("Check my questions"), exc)

    def _job_done(self) -> None:
        self._job = None
        if not self._closed:
            text = self.state_label.text()
            self._update()
            self.state_label.setText(text)  # the check's words stay until the next mark

    def stop(self) -> None:
        """The dialog closes: cancel a running check and wait until it has returned."""
        self._closed = True
        job = self._job
        if job is None:
            return
        job.cancel()
        if self.runner.pool.tryTake(job):  # still queued behind other jobs: it never runs
            job.signals.done.emit()
        else:
            self._returned.wait()


class CheckDialog(QDialog):
    """The figures of a check of the judged questions, before and now, and per question."""

    def __init__(self, report: CheckReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("checkQuestionsDialog")
        self.setWindowTitle(self.tr("Check my questions — {store}").format(store=report.store))
        self.report = report
        now, before = report.now, report.previous
        summary = self.tr("%n judged question(s)", "", now.questions)
        if report.excluded:
            summary = self.tr(
                "{questions}; {excluded} without a document marked right: listed, but left out "
                "of the means."
            ).format(
                questions=summary,
                excluded=self.tr("%n question(s)", "", report.excluded),
            )
        self.summary_label = QLabel(summary, self)
        self.summary_label.setObjectName("checkSummaryLabel")
        self.summary_label.setWordWrap(True)

        before_title = (
            self.tr("Before ({time})").format(time=readable_time(before.checked_at))
            if before is not None
            else self.tr("Before")
        )
        now_title = self.tr("Now ({time})").format(time=readable_time(now.checked_at))
        self.figures_table = self._table(
            "figuresTable",
            [self.tr("Measure"), before_title, now_title],
            [
                [
                    self.tr("nDCG@10"),
                    figure(before.ndcg_at_10) if before else "–",
                    figure(now.ndcg_at_10),
                ],
                [
                    self.tr("Recall@10"),
                    figure(before.recall_at_10) if before else "–",
                    figure(now.recall_at_10),
                ],
                [
                    self.tr("Questions in the means"),
                    str(before.measured) if before else "–",
                    str(now.measured),
                ],
            ],
        )
        describe(
            self.figures_table,
            self.tr(
                "nDCG@10: how high the documents you marked right come in the context block, "
                "1 when they all come first. Recall@10: the share of them that come at all. The "
                "last check before this one, and this one"
            ),
            name=self.tr("Figures"),
        )
        self.figures_table.setSizeAdjustPolicy(
            QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents  # three rows, no empty space
        )
        self.figures_table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        for column, moment in ((1, before), (2, now)):
            if moment is not None and (item := self.figures_table.horizontalHeaderItem(column)):
                item.setToolTip(full_time(moment.checked_at))

        if before is None:
            change = self.tr("This is the first check: the next one shows before → now.")
        elif report.changes:
            change = self.tr("Changed since the last check: {changes}").format(
                changes="; ".join(
                    f"{c.name}: {setting_value(c.before)} → {setting_value(c.now)}"
                    for c in report.changes
                )
            )
        else:
            change = self.tr("No setting changed since the last check.")
        self.settings_label = QLabel(
            self.tr("{change}\nSettings now: {settings}").format(
                change=change, settings=settings_text(now.settings)
            ),
            self,
        )
        self.settings_label.setObjectName("checkSettingsLabel")
        self.settings_label.setWordWrap(True)
        self.settings_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.questions_table = self._table(
            "questionsTable",
            [self.tr("Question"), self.tr("nDCG@10"), self.tr("Recall@10"), self.tr("Found")],
            [
                [
                    q.question,
                    figure(q.ndcg),
                    figure(q.recall),
                    self.tr("{found} of {relevant}").format(
                        found=len(q.found), relevant=len(q.relevant)
                    ),
                ]
                for q in report.per_question
            ],
        )
        describe(
            self.questions_table,
            self.tr(
                "Each judged question with its figures and how many of the documents you marked "
                "right the context block gave"
            ),
            name=self.tr("Judged questions"),
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        self.close_button.setToolTip(self.tr("Close the figures; they are kept for the next check"))
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.figures_table)
        layout.addWidget(self.settings_label)
        layout.addWidget(self.questions_table, 1)
        layout.addWidget(buttons)
        resize_within_screen(self, 760, 520)
        set_tab_order([self.figures_table, self.questions_table, self.close_button])
        keyboard_friendly(self)
        self.figures_table.setFocus()

    def _table(
        self, name: str, headers: Sequence[str], rows: Sequence[Sequence[str]]
    ) -> QTableWidget:
        table = QTableWidget(len(rows), len(headers), self)
        table.setObjectName(name)
        table.setHorizontalHeaderLabels(list(headers))
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        table.setWordWrap(False)
        table.verticalHeader().hide()
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if column:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                table.setItem(row, column, item)
        return table

    def figures(self) -> dict[str, tuple[str, str]]:
        """Measure → (before, now), as shown."""
        table = self.figures_table

        def cell(row: int, column: int) -> str:
            item = table.item(row, column)
            return item.text() if item is not None else ""

        return {cell(row, 0): (cell(row, 1), cell(row, 2)) for row in range(table.rowCount())}

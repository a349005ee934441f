"""*Check stores…* (File menu): what ``kortty-rag doctor`` finds, one row per check, with what to do
in the app's own words; *Repair* does only the safe repairs (docs/DESIGN.md §14). The checks read
every snapshot and hash every model file, so they run as a background job; the window stays usable."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.doctor import DoctorReport, Severity
from kortty_rag.app.workspace import Workspace
from kortty_rag.gui.common import describe, keyboard_friendly, resize_within_screen, show_error
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.i18n import translate
from kortty_rag.gui.shared_columns import SharedColumns, WrappedRows
from kortty_rag.gui.workers import Job, JobFunction, JobRunner
from kortty_rag.progress import CancelToken, ProgressTracker

#: the job key: one check at a time
JOB_KEY = "check-stores"
# where a cell's text starts in its row
TOP_LEFT = Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft
#: the prefix of the check of one source (``source PATH``)
SOURCE_CHECK = "source "


def severity_words(severity: Severity) -> str:
    """A finding's result in words."""
    if severity is Severity.OK:
        return translate("CheckStoresDialog", "OK")
    if severity is Severity.WARNING:
        return translate("CheckStoresDialog", "Warning")
    return translate("CheckStoresDialog", "Problem")


def check_words(check: str) -> str:
    """What a finding checked, in words (the core names its checks with short words)."""
    if check.startswith(SOURCE_CHECK):
        return translate("CheckStoresDialog", "source {path}").format(
            path=check.removeprefix(SOURCE_CHECK)
        )
    words = {
        "stores": translate("CheckStoresDialog", "stores"),
        "definition": translate("CheckStoresDialog", "definition"),
        "model": translate("CheckStoresDialog", "model"),
        "pointer": translate("CheckStoresDialog", "pointer"),
        "snapshot": translate("CheckStoresDialog", "snapshot"),
        "leftovers": translate("CheckStoresDialog", "leftovers"),
        "qdrant": translate("CheckStoresDialog", "qdrant"),
        "endpoint": translate("CheckStoresDialog", "endpoint"),
    }
    return words.get(check) or core_words(check)


class CheckStoresDialog(QDialog):
    """*File → Check stores…*: every store's findings, and *Repair* for what is safe to repair.

    Signals: ``checked(DoctorReport)`` — each report shown (the first check, a repair, a check
    again).
    """

    #: emitted with each report shown (the first check, a repair, a check again)
    checked = Signal(object)

    def __init__(
        self, workspace: Workspace, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("checkStoresDialog")
        self.setWindowTitle(self.tr("Check stores"))
        self.workspace = workspace
        self.runner = runner
        self.report: DoctorReport | None = None
        self.summary = QLabel(self.tr("Checking every store…"), self)
        self.summary.setObjectName("checkSummary")
        self.summary.setWordWrap(True)
        self.table = QTreeWidget(self)
        self.table.setObjectName("checkFindings")
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels(
            [
                self.tr("Result"),
                self.tr("Store"),
                self.tr("Check"),
                self.tr("Finding"),
                self.tr("What to do"),
            ]
        )
        describe(
            self.table,
            self.tr(
                "One row per check of every store, problems first: the result, what was found "
                "and what to do"
            ),
            name=self.tr("Findings"),
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        WrappedRows(self.table)  # a long finding wraps instead of being cut
        SharedColumns(self.table, grow=(3, 4))  # what was found and what to do share the width
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        if close is not None:
            close.setToolTip(self.tr("Close this window"))
        self.repair_button = QPushButton(self.tr("&Repair"), self)
        self.repair_button.setObjectName("repairButton")
        self.repair_button.setToolTip(
            self.tr(
                "Only what is safe: remove leftovers of interrupted jobs, and point a damaged "
                "store at its newest snapshot that verifies completely"
            )
        )
        self.repair_button.clicked.connect(self.repair)
        self.again_button = QPushButton(self.tr("Check &again"), self)
        self.again_button.setObjectName("checkAgainButton")
        self.again_button.setToolTip(self.tr("Run every check again"))
        self.again_button.clicked.connect(self.check)
        buttons.addButton(self.repair_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.again_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        resize_within_screen(self, 900, 420)
        keyboard_friendly(self)
        self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        self.again_button.setEnabled(not busy)
        self.repair_button.setEnabled(
            not busy and self.report is not None and self.report.repairable
        )

    def check(self) -> None:
        workspace = self.workspace

        def run(progress: ProgressTracker, cancel: CancelToken) -> DoctorReport:
            return workspace.check_stores()

        self.summary.setText(self.tr("Checking every store…"))
        self._run(run)

    def repair(self) -> None:
        report = self.report
        if report is None:
            return
        workspace = self.workspace

        def run(progress: ProgressTracker, cancel: CancelToken) -> DoctorReport:
            return workspace.repair_stores(report)

        self.summary.setText(self.tr("Repairing…"))
        self._run(run)

    def _run(self, function: JobFunction) -> None:
        job = Job(function, key=JOB_KEY, name=self.tr("Check stores"))
        job.signals.finished.connect(self.show_report)
        job.signals.failed.connect(self._failed)
        job.signals.done.connect(lambda: self._set_busy(False))
        self._set_busy(True)
        self.runner.start(job)

    def _failed(self, exc: BaseException) -> None:
        self.summary.setText(self.tr("The check could not finish."))
        show_error(self, self.tr("Check stores failed"), exc)

    def show_report(self, report: DoctorReport) -> None:
        self.report = report
        self.table.clear()
        rank = {Severity.PROBLEM: 0, Severity.WARNING: 1, Severity.OK: 2}
        for finding in sorted(report.findings, key=lambda f: rank[f.severity]):  # problems first
            item = QTreeWidgetItem(
                [
                    severity_words(finding.severity),
                    finding.store,
                    check_words(finding.check),
                    core_words(finding.message),
                    core_words(finding.fix),
                ]
            )
            for column in range(5):
                item.setToolTip(column, item.text(column))
                # a wrapped finding's row reads from its top line, as its neighbours do
                item.setTextAlignment(column, TOP_LEFT)
            self.table.addTopLevelItem(item)
        self.summary.setText(self._summary(report))
        self._set_busy(False)
        self.checked.emit(report)

    def _summary(self, report: DoctorReport) -> str:
        """How many problems and warnings, what a repair did and whether Repair can do more."""
        problems = sum(f.severity is Severity.PROBLEM for f in report.findings)
        warnings = sum(f.severity is Severity.WARNING for f in report.findings)
        if problems and warnings:
            text = self.tr("%n problem(s) found, {warnings}.", "", problems).format(
                warnings=self.tr("%n warning(s)", "", warnings)
            )
        elif problems:
            text = self.tr("%n problem(s) found.", "", problems)
        elif warnings:
            text = self.tr("Every store is healthy, %n warning(s).", "", warnings)
        else:
            text = self.tr("Every store is healthy.")
        said = [text]
        if report.repaired:
            done = "; ".join(core_words(line) for line in report.repaired)
            said.append(self.tr("Repaired: {actions}.").format(actions=done))
        if report.repairable:
            said.append(self.tr("Repair can fix what is marked safe to repair."))
        return " ".join(said)

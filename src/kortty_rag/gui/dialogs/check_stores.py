"""*Check stores…* (File menu): what ``kortty-rag doctor`` finds, one row per check, with what to do
in the app's own words; *Repair* does only the safe repairs (docs/DESIGN.md §14). The checks read
every snapshot and hash every model file, so they run as a background job; the window stays usable."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.doctor import DoctorReport, Severity
from kortty_rag.app.workspace import Workspace
from kortty_rag.gui.common import keyboard_friendly, show_error
from kortty_rag.gui.hints import gui_hint
from kortty_rag.gui.workers import Job, JobFunction, JobRunner
from kortty_rag.progress import CancelToken, ProgressTracker

#: the job key: one check at a time
JOB_KEY = "check-stores"
RESULT = {Severity.OK: "OK", Severity.WARNING: "Warning", Severity.PROBLEM: "Problem"}


class CheckStoresDialog(QDialog):
    #: emitted with each report shown (the first check, a repair, a check again)
    checked = Signal(object)

    def __init__(
        self, workspace: Workspace, runner: JobRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("checkStoresDialog")
        self.setWindowTitle("Check stores")
        self.workspace = workspace
        self.runner = runner
        self.report: DoctorReport | None = None
        self.summary = QLabel("Checking every store…", self)
        self.summary.setObjectName("checkSummary")
        self.summary.setWordWrap(True)
        self.table = QTreeWidget(self)
        self.table.setObjectName("checkFindings")
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels(["Result", "Store", "Check", "Finding", "What to do"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        header = self.table.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        self.repair_button = QPushButton("&Repair", self)
        self.repair_button.setObjectName("repairButton")
        self.repair_button.setToolTip(
            "Only what is safe: remove leftovers of interrupted jobs, and point a damaged store "
            "at its newest snapshot that verifies completely"
        )
        self.repair_button.clicked.connect(self.repair)
        self.again_button = QPushButton("Check &again", self)
        self.again_button.setObjectName("checkAgainButton")
        self.again_button.clicked.connect(self.check)
        buttons.addButton(self.repair_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.again_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(900, 420)
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

        self.summary.setText("Checking every store…")
        self._run(run)

    def repair(self) -> None:
        report = self.report
        if report is None:
            return
        workspace = self.workspace

        def run(progress: ProgressTracker, cancel: CancelToken) -> DoctorReport:
            return workspace.repair_stores(report)

        self.summary.setText("Repairing…")
        self._run(run)

    def _run(self, function: JobFunction) -> None:
        job = Job(function, key=JOB_KEY, name="Check stores")
        job.signals.finished.connect(self.show_report)
        job.signals.failed.connect(self._failed)
        job.signals.done.connect(lambda: self._set_busy(False))
        self._set_busy(True)
        self.runner.start(job)

    def _failed(self, exc: BaseException) -> None:
        self.summary.setText("The check could not finish.")
        show_error(self, "Check stores failed", exc)

    def show_report(self, report: DoctorReport) -> None:
        self.report = report
        self.table.clear()
        rank = {Severity.PROBLEM: 0, Severity.WARNING: 1, Severity.OK: 2}
        for finding in sorted(report.findings, key=lambda f: rank[f.severity]):  # problems first
            item = QTreeWidgetItem(
                [
                    RESULT[finding.severity],
                    finding.store,
                    finding.check,
                    gui_hint(finding.message),
                    gui_hint(finding.fix),
                ]
            )
            for column in range(5):
                item.setToolTip(column, item.text(column))
            self.table.addTopLevelItem(item)
        problems = sum(f.severity is Severity.PROBLEM for f in report.findings)
        warnings = sum(f.severity is Severity.WARNING for f in report.findings)
        if problems:
            text = f"{problems} {'problem' if problems == 1 else 'problems'} found"
        else:
            text = "Every store is healthy"
        if warnings:
            text += f", {warnings} {'warning' if warnings == 1 else 'warnings'}"
        text += "."
        if report.repaired:
            text += " Repaired: " + "; ".join(report.repaired) + "."
        if report.repairable:
            text += " Repair can fix what is marked safe to repair."
        self.summary.setText(text)
        self._set_busy(False)
        self.checked.emit(report)

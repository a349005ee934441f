"""A source's last scan report: the files its last indexing left out, each with its one reason —
issues (could not be read or extracted) first, then the files a rule skipped. Opened from the
Skipped and Issues counts of the source table, at any time after the review closed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.workspace import ScanReport
from kortty_rag.gui.common import describe, keyboard_friendly, resize_within_screen
from kortty_rag.gui.table_models import ReviewTableModel, readable_time, review_table
from kortty_rag.models import Source


class ScanReportDialog(QDialog):
    def __init__(
        self, source: Source, report: ScanReport | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("scanReportDialog")
        self.setWindowTitle(self.tr("Scan report — {path}").format(path=source.path))
        self.model = ReviewTableModel(list(report.rows) if report else [])
        self.proxy, self.table = review_table(self, self.model, "scanReportTable")
        describe(
            self.table,
            self.tr(
                "The files the last indexing left out, each with its reason: issues first, then "
                "the files a rule skipped"
            ),
            name=self.tr("Files left out"),
        )
        if report is None:
            text = self.tr("No scan report is kept for this source yet: Refresh now makes one.")
        else:
            issues = self.tr(
                "%n issue(s) (files that could not be read or extracted)", "", len(report.problems)
            )
            skipped = self.tr(
                "%n file(s) left out by a rule (hidden, ignored, unsupported, empty or too large)",
                "",
                len(report.skipped),
            )
            text = self.tr("Last indexed {time}: {issues} and {skipped}.").format(
                time=readable_time(report.scanned_at), issues=issues, skipped=skipped
            )
            if report.left_out:
                text += " " + self.tr("%n more are not listed.", "", report.left_out)
        self.summary = QLabel(text, self)
        self.summary.setObjectName("scanReportSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        if close is not None:
            close.setToolTip(self.tr("Close the scan report"))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        resize_within_screen(self, 820, 460)
        keyboard_friendly(self)

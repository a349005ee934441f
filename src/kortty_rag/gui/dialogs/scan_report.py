"""A source's last scan report: the files its last indexing left out, each with its one reason —
issues (could not be read or extracted) first, then the files a rule skipped. Opened from the
Skipped and Issues counts of the source table, at any time after the review closed."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.workspace import ScanReport
from kortty_rag.gui.common import keyboard_friendly
from kortty_rag.gui.table_models import ReviewTableModel, readable_time
from kortty_rag.models import Source


class ScanReportDialog(QDialog):
    def __init__(
        self, source: Source, report: ScanReport | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("scanReportDialog")
        self.setWindowTitle(f"Scan report — {source.path}")
        self.model = ReviewTableModel(list(report.rows) if report else [])
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(Qt.ItemDataRole.UserRole)
        self.table = QTableView(self)
        self.table.setObjectName("scanReportTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(ReviewTableModel.CHANGES_FIRST, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        if report is None:
            text = "No scan report is kept for this source yet: Refresh now makes one."
        else:
            problems, skipped = len(report.problems), len(report.skipped)
            text = (
                f"Last indexed {readable_time(report.scanned_at)}: {problems} "
                f"{'issue' if problems == 1 else 'issues'} (files that could not be read or "
                f"extracted) and {skipped} {'file' if skipped == 1 else 'files'} left out by a "
                "rule (hidden, ignored, unsupported, empty or too large)."
            )
            if report.left_out:
                text += f" {report.left_out} more are not listed."
        self.summary = QLabel(text, self)
        self.summary.setObjectName("scanReportSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(820, 460)
        keyboard_friendly(self)

"""The review dialog (docs/DESIGN.md §5): what a scan found, before anything is embedded.

One sortable row per file (path, format, size, status, reason), a summary that separates files to
index from unchanged ones and groups formats, and a line for every preview cap that was reached. The
user confirms with "Index" only when the preview matches what they meant to index.
"""

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

from kortty_rag.app.workspace import PreparedReview
from kortty_rag.gui.common import keyboard_friendly, set_tab_order
from kortty_rag.gui.table_models import ReviewTableModel, review_rows
from kortty_rag.untrusted import escape_line


class ReviewDialog(QDialog):
    def __init__(
        self, review: PreparedReview, *, title: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("reviewDialog")
        self.setWindowTitle(title)
        self.review = review
        summary = review.report.summary()

        self.model = ReviewTableModel(review_rows(review))
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(Qt.ItemDataRole.UserRole)
        self.table = QTableView(self)
        self.table.setObjectName("reviewTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        # what changes (new, changed, removed) first, in bold; then skipped, then unchanged
        self.table.sortByColumn(ReviewTableModel.CHANGES_FIRST, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)

        lines = summary.lines()
        for source_review in review.report.sources:
            if source_review.root_error:
                lines.append(
                    escape_line(f"{source_review.source.path}: {source_review.root_error}")
                )
        if review.rejected:
            lines.append(f"Not added: {len(review.rejected)} selected paths (see the table)")
        self.summary = QLabel("\n".join(lines), self)
        self.summary.setObjectName("reviewSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)  # paths are not markup
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        buttons = QDialogButtonBox(self)
        self.index_button = buttons.addButton("&Index", QDialogButtonBox.ButtonRole.AcceptRole)
        self.index_button.setObjectName("indexButton")
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.index_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Check what will be indexed before you confirm:", self))
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)
        self.resize(900, 520)
        set_tab_order([self.table, self.index_button, self.cancel_button])
        keyboard_friendly(self)

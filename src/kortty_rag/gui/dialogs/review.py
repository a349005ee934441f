"""The review dialog (docs/DESIGN.md §5): what a scan found, before anything is embedded.

One sortable row per file (path, format, size, status, reason), a summary that separates files to
index from unchanged ones and groups formats, and a line for every preview cap that was reached. The
user confirms with "Index" only when the preview matches what they meant to index.
"""

from __future__ import annotations

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from kortty_rag.app.workspace import PreparedReview, ReviewSummary
from kortty_rag.gui.common import describe, keyboard_friendly, resize_within_screen, set_tab_order
from kortty_rag.gui.core_messages import core_words
from kortty_rag.gui.table_models import ReviewTableModel, review_rows, review_table
from kortty_rag.progress import format_duration
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
        self.proxy, self.table = review_table(self, self.model, "reviewTable")
        describe(
            self.table,
            self.tr(
                "One row per file: path, format, size, status and reason. What indexing changes "
                "(new, changed, removed) comes first, in bold, and its status says so."
            ),
            name=self.tr("Files found by the scan"),
        )

        lines = self.summary_lines(summary)
        for source_review in review.report.sources:
            if source_review.root_error:
                lines.append(
                    escape_line(
                        self.tr("{path}: {reason}").format(
                            path=source_review.source.path,
                            reason=core_words(source_review.root_error),
                        )
                    )
                )
        for source in review.unreviewed:
            lines.append(
                escape_line(
                    self.tr(
                        "{path} came with an imported store: this is its first review on this "
                        "computer."
                    ).format(path=source.path)
                )
            )
        if review.moved is not None:
            lines.append(
                escape_line(
                    self.tr(
                        "Index confirms the move: the source moves from {old} to {new}."
                    ).format(old=review.moved_from, new=review.moved.path)
                )
            )
        if review.rejected:
            lines.append(
                self.tr("Not added: %n selected path(s) (see the table)", "", len(review.rejected))
            )
        self.summary = QLabel("\n".join(lines), self)
        self.summary.setObjectName("reviewSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)  # paths are not markup
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setAccessibleName(self.tr("Summary of the review"))

        buttons = QDialogButtonBox(self)
        self.index_button = buttons.addButton(
            self.tr("&Index"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.index_button.setObjectName("indexButton")
        self.index_button.setToolTip(self.tr("Index the files as listed"))
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setToolTip(self.tr("Close without indexing anything"))
        self.index_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        heading = QLabel(self.tr("Check what will be indexed before you confirm:"), self)
        heading.setBuddy(self.table)  # the table it introduces
        layout.addWidget(heading)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)
        resize_within_screen(self, 900, 520)
        set_tab_order([self.table, self.index_button, self.cancel_button])
        keyboard_friendly(self)

    def summary_lines(self, summary: ReviewSummary) -> list[str]:
        """What the review found, in words: the counts, the formats to index, the amount of text
        and every preview cap that was reached (the same lines as the core's summary)."""
        locale = QLocale()
        formats = ", ".join(
            self.tr("{format} {count}").format(format=fmt, count=locale.toString(count))
            for fmt, count in summary.formats.items()
        )
        lines = [
            self.tr(
                "To index: {count} ({new} new, {changed} changed); unchanged: {unchanged}; "
                "skipped: {skipped}; to remove: {removed}"
            ).format(
                count=locale.toString(summary.to_index),
                new=locale.toString(summary.new),
                changed=locale.toString(summary.changed),
                unchanged=locale.toString(summary.unchanged),
                skipped=locale.toString(summary.skipped),
                removed=locale.toString(summary.removed),
            ),
            self.tr("Formats to index: {formats}").format(formats=formats or self.tr("none")),
        ]
        if summary.estimated_chunks:
            text = (
                self.tr(
                    "Text to index: {characters}, about {chunks}, about {duration} at this "
                    "machine's speed"
                )
                if summary.speed_measured
                else self.tr(
                    "Text to index: {characters}, about {chunks}, about {duration} (a first "
                    "guess: this machine's speed is measured as it indexes)"
                )
            )
            lines.append(
                text.format(
                    characters=self.tr("%Ln character(s)", "", summary.characters),
                    chunks=self.tr("%Ln chunk(s)", "", summary.estimated_chunks),
                    duration=core_words(format_duration(summary.estimated_seconds)),
                )
            )
        lines += [
            self.tr("Preview cap reached: {cap}").format(cap=core_words(cap))
            for cap in summary.caps_reached
        ]
        return lines

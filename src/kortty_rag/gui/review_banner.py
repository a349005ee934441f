"""The banner over a store whose sources came with an import and were never reviewed here
(docs/DESIGN.md §14): what that means, and *Review…*, which scans them and opens the usual review.
Nothing is read from such a source before that review is confirmed."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from kortty_rag.gui.common import describe
from kortty_rag.models import Source, Store


def waiting_sources(store: Store | None) -> list[Source]:
    """The store's sources that wait for a person's review on this computer."""
    return [] if store is None else [s for s in store.sources if s.needs_review]


class ReviewBanner(QWidget):
    """Shown while the selected store has sources waiting for their first review here."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("reviewBanner")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.text = QLabel(self)
        self.text.setObjectName("reviewBannerText")
        self.text.setWordWrap(True)
        self.text.setMinimumWidth(120)
        self.button = QPushButton(self.tr("Re&view…"), self)
        self.button.setObjectName("reviewImportedButton")
        describe(
            self.button,
            self.tr(
                "Scan the imported sources and show what would be indexed; nothing is read into "
                "the store before you confirm"
            ),
        )
        row.addWidget(self.text, 1)
        row.addWidget(self.button)
        self.hide()

    def show_for(self, waiting: Sequence[Source], *, busy: bool) -> None:
        """Say how many sources wait (and name one of them, the first by path); hidden when none
        does."""
        if waiting:
            self.text.setText(
                self.tr(
                    "%n source(s) came with an imported store and were not reviewed on this "
                    "computer (among them {path}). Nothing is read from them until you review "
                    "them.",
                    "",
                    len(waiting),
                ).format(path=min(s.path for s in waiting))
            )
        self.button.setEnabled(bool(waiting) and not busy)
        self.setVisible(bool(waiting))

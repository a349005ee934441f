"""Columns that share a table's width: every column in view, none cut while another has room.

Qt's own modes give a table either a stretching column beside columns as wide as their content —
which pushes the table into sideways scrolling as soon as the content columns alone are wider than
the view (German headers at 800×600), and cuts the stretching column to a few letters — or fixed
widths that ignore the content. :class:`SharedColumns` does what a person would: a column that needs
less than an even share of the width gets what it needs, the columns that need more share the rest
evenly (and are cut, with "…", only as far as they must), and width left over goes to the columns
named ``grow``. It recomputes when the view is shown or resized and when its rows change (not while
it is hidden: a hidden table would measure every row); a column the person dragged keeps its width
until then.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QHeaderView, QTableView, QTreeView

#: no shared column gets less than this many pixels (a header's first letters and "…")
MIN_SHARE = 48


def shares(needs: dict[int, int], width: int, grow: Iterable[int] = ()) -> dict[int, int]:
    """Widths for columns that need ``needs`` pixels in ``width`` pixels: what they need when all
    fit (the rest to ``grow``), else each the smaller of its need and one even share of what the
    smaller ones leave."""
    total = sum(needs.values())
    if total <= width:
        fitting = dict(needs)
        growing = [column for column in grow if column in fitting] or list(fitting)[-1:]
        left = width - total
        for index, column in enumerate(growing):
            fitting[column] += left // len(growing) + (1 if index < left % len(growing) else 0)
        return fitting
    widths: dict[int, int] = {}
    left, waiting = width, sorted(needs, key=lambda column: needs[column])
    while waiting:
        share = left // len(waiting)
        column = waiting[0]
        if needs[column] > share:
            for rest in waiting:  # every column still waiting needs more: an even share each
                widths[rest] = max(MIN_SHARE, share)
            break
        widths[column] = needs[column]
        left -= needs[column]
        waiting.pop(0)
    return widths


class SharedColumns(QObject):
    """Keeps the columns of ``view`` (a table or a tree) inside its width (see the module)."""

    def __init__(
        self, view: QTableView | QTreeView, *, grow: Iterable[int] = (), keep: Iterable[int] = ()
    ) -> None:
        super().__init__(view)
        self.view = view
        self.grow = tuple(grow)
        #: columns whose width their owner sets (they take part with that width)
        self.keep = frozenset(keep)
        header = self.header()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        view.viewport().installEventFilter(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.apply)
        model = view.model()
        if model is not None:
            for signal in (
                model.modelReset,
                model.rowsInserted,
                model.rowsRemoved,
                model.dataChanged,
                model.layoutChanged,
            ):
                signal.connect(self._timer.start)
        self._timer.start()

    def header(self) -> QHeaderView:
        view = self.view
        header = view.horizontalHeader() if isinstance(view, QTableView) else view.header()
        assert header is not None
        return header

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        shown_or_resized = event.type() in (QEvent.Type.Resize, QEvent.Type.Show)
        if shown_or_resized and watched is self.view.viewport():
            self._timer.start()
        return super().eventFilter(watched, event)

    def needs(self) -> dict[int, int]:
        """What each shared column in view needs: its header and its widest cell in view."""
        header = self.header()
        return {
            column: max(header.sectionSizeHint(column), self.view.sizeHintForColumn(column))
            for column in range(header.count())
            if not header.isSectionHidden(column) and column not in self.keep
        }

    def apply(self) -> None:
        if not self.view.isVisible():  # a hidden table would measure every row; shown, it resizes
            return
        header = self.header()
        kept = sum(
            header.sectionSize(column) for column in self.keep if not header.isSectionHidden(column)
        )
        width = self.view.viewport().width() - kept
        if width <= 0:
            return
        for column, size in shares(self.needs(), width, self.grow).items():
            if header.sectionSize(column) != size:
                header.resizeSection(column, size)

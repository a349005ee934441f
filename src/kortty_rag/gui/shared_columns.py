"""Columns that share a table's width: every column in view, none cut while another has room.

Qt's own modes give a table either a stretching column beside columns as wide as their content —
which pushes the table into sideways scrolling as soon as the content columns alone are wider than
the view (German headers at 800×600), and cuts the stretching column to a few letters — or fixed
widths that ignore the content. :class:`SharedColumns` does what a person would: a column that needs
less than an even share of the width gets what it needs, the columns that need more share the rest
evenly (and are cut, with "…", only as far as they must), and width left over goes to the columns
named ``grow``. A header label wider than its column goes on two lines (the header grows), so a
column is not kept wide for its label alone. It recomputes when the view is shown or resized and when its rows change (not while
it is hidden: a hidden table would measure every row); a column the person dragged keeps its width
until then.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtWidgets import (
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTreeView,
)

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


#: what a label on two lines is given beyond its measured width (pixels): wrapping must not need a
#: third line for a pixel's rounding
LABEL_SLACK = 4
#: after these a header label may go on its next line (besides spaces): "Dateien/ Chunks"
BREAK_AFTER = "/-"


def label_need(header: QHeaderView, column: int, *, lines: int = 2) -> int:
    """The width ``column``'s header needs with its label on at most ``lines`` lines (1 or 2;
    broken at a space, or after a slash or hyphen), with the header's own margins, and room for the
    sort arrow only in the column that shows it (Qt's size hint keeps that room in every column)."""
    hint = header.sectionSizeHint(column)
    if header.isSortIndicatorShown() and column != header.sortIndicatorSection():
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        hint -= header.sizeHint().height() + margin  # what QHeaderView adds for the arrow
    label = str(
        header.model().headerData(column, header.orientation(), Qt.ItemDataRole.DisplayRole) or ""
    )
    metrics = header.fontMetrics()
    full = metrics.horizontalAdvance(label)
    best = full
    for at, letter in enumerate(label if lines > 1 else ""):
        if letter != " " and letter not in BREAK_AFTER:
            continue
        first, second = label[: at + 1].rstrip(), label[at + 1 :].lstrip()
        if first and second:
            lines_width = max(metrics.horizontalAdvance(first), metrics.horizontalAdvance(second))
            best = min(best, lines_width)
    if best == full:
        return hint
    return hint - full + best + LABEL_SLACK


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
        header.setDefaultAlignment(header.defaultAlignment() | Qt.TextFlag.TextWordWrap)
        #: the header's height with its labels on one line
        self._one_line = header.sizeHint().height()
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

    def _cells(self) -> dict[int, int]:
        """The widest cell in view of each shared column in view (this measures rows: once)."""
        header = self.header()
        return {
            column: self.view.sizeHintForColumn(column)
            for column in range(header.count())
            if not header.isSectionHidden(column) and column not in self.keep
        }

    def _needs(self, cells: dict[int, int], lines: int) -> dict[int, int]:
        """What each column needs: its header (on ``lines`` lines at most) and its widest cell."""
        header = self.header()
        return {
            column: max(label_need(header, column, lines=lines), cell)
            for column, cell in cells.items()
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
        cells = self._cells()
        labels = {column: label_need(header, column, lines=1) for column in cells}
        one_line = {column: max(labels[column], cell) for column, cell in cells.items()}
        # every label on one line while they all fit; else a label may take a second line
        needs = one_line if sum(one_line.values()) <= width else self._needs(cells, 2)
        for column, size in shares(needs, width, self.grow).items():
            if header.sectionSize(column) != size:
                header.resizeSection(column, size)
        # a label wider than its column goes on two lines, and the header makes room for them
        wrapped = any(header.sectionSize(column) < need for column, need in labels.items())
        height = self._one_line + header.fontMetrics().lineSpacing() if wrapped else 0
        if header.minimumHeight() != height:
            header.setMinimumHeight(height)


class WrappedRows(QStyledItemDelegate):
    """A tree's rows as tall as their text wrapped at the width its column has now.

    A tree view with word wrap paints wrapped text, but asks its delegate for a row's height without
    the column's width, so a long finding showed one cut line beside a wide empty column. This
    delegate measures the text at the column's width (the width it reports stays the unwrapped one,
    which :class:`SharedColumns` takes as the column's need) and lays the rows out again when a
    column changes width."""

    def __init__(self, view: QTreeView) -> None:
        super().__init__(view)
        self.view = view
        view.setWordWrap(True)
        view.setUniformRowHeights(False)
        view.setItemDelegate(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(view.doItemsLayout)
        view.header().sectionResized.connect(lambda *_: self._timer.start())

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        hint = super().sizeHint(option, index)
        text = index.data(Qt.ItemDataRole.DisplayRole)
        width = self.view.header().sectionSize(index.column())
        if not text or width <= 0:
            return hint
        style = self.view.style()
        # the style keeps this margin left and right of an item's text
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.view) + 1
        metrics = option.fontMetrics
        wrapped = metrics.boundingRect(
            QRect(0, 0, max(1, width - 2 * margin), 1 << 20),
            Qt.TextFlag.TextWordWrap,
            str(text),
        )
        extra = wrapped.height() - metrics.height()
        return QSize(hint.width(), hint.height() + max(0, extra))

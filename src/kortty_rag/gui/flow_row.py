"""A row of buttons or controls that wraps like text (docs/DESIGN.md "Languages and
accessibility"): every window fits a laptop screen at 200 %, in German too."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowRow(QLayout):
    """Widgets side by side that go on in a further line where the window is too narrow for all
    of them (German words are a third longer; at 200 % a laptop screen is 960 wide): the window
    needs the width of the widest of them, not of all of them together."""

    def __init__(self, parent: QWidget | None = None, *, line_spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        #: the room between two lines (``spacing()`` is the room between two widgets of a line)
        self.line_spacing = line_spacing

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        """Every button in one line."""
        shown = [item.sizeHint() for item in self._items if not item.isEmpty()]
        width = sum(size.width() for size in shown) + self._gap() * max(0, len(shown) - 1)
        height = max((size.height() for size in shown), default=0)
        margins = self.contentsMargins()
        return QSize(
            width + margins.left() + margins.right(), height + margins.top() + margins.bottom()
        )

    def minimumSize(self) -> QSize:
        """The widest of the widgets."""
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _gap(self) -> int:
        return self.spacing() if self.spacing() >= 0 else 6

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        """Place the widgets (``move``) in ``rect``, line by line; the height they take."""
        margins = self.contentsMargins()
        area = rect.marginsRemoved(margins)
        gap = self._gap()
        x, y, line = area.x(), area.y(), 0
        for item in self._items:
            if item.isEmpty():  # a hidden button takes no room
                continue
            size = item.sizeHint()
            if x > area.x() and x + size.width() > area.x() + area.width():
                x, y, line = area.x(), y + line + self.line_spacing, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), size))
            x += size.width() + gap
            line = max(line, size.height())
        return y + line - rect.y() + margins.bottom()

"""A table that says what to do while it is empty, and shows that it has the keyboard's focus.

An empty table draws nothing where the focus would be (there is no current row to mark), so a
person tabbing through the window lost the focus on the empty source table. :class:`EmptyAwareTable`
draws its placeholder text in the middle of the empty view and, while it has the focus, a frame
around it in the selection's colour."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFocusEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QTableView, QWidget

#: the frame's distance from the view's edge (pixels)
FRAME_INSET = 2


class EmptyAwareTable(QTableView):
    """A :class:`QTableView` with a placeholder text and a focus frame while it has no rows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._placeholder = ""

    def placeholder(self) -> str:
        return self._placeholder

    def setPlaceholderText(self, text: str) -> None:
        self._placeholder = text
        self.viewport().update()

    def is_empty(self) -> bool:
        model = self.model()
        return model is None or model.rowCount() == 0

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.is_empty():
            return
        viewport = self.viewport()
        painter = QPainter(viewport)
        try:
            area = viewport.rect().adjusted(FRAME_INSET, FRAME_INSET, -FRAME_INSET, -FRAME_INSET)
            if self._placeholder:
                painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
                painter.drawText(
                    area.adjusted(12, 12, -12, -12),
                    Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                    self._placeholder,
                )
            if self.hasFocus():  # in the colour of a selected row, as a focused row would show
                painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(area)
        finally:
            painter.end()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.viewport().update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.viewport().update()

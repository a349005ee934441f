"""An empty source table says what to do and shows that it has the focus (issue 29, point 10)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from kortty_rag.gui.empty_table import EmptyAwareTable
from kortty_rag.gui.table_models import SourceTableModel


def _shot(table: EmptyAwareTable) -> QImage:
    return table.viewport().grab().toImage()


def test_empty_table_shows_its_placeholder_and_its_focus(qtbot: QtBot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    field = QLineEdit(window)
    table = EmptyAwareTable(window)
    table.setModel(SourceTableModel())
    layout = QVBoxLayout(window)
    layout.addWidget(field)
    layout.addWidget(table)
    window.resize(500, 300)
    window.show()
    qtbot.waitExposed(window)

    blank = _shot(table)
    table.setPlaceholderText(
        "No sources yet: use Add folder… to choose what this store makes searchable."
    )
    with_text = _shot(table)
    assert with_text != blank  # the placeholder is drawn

    field.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(field.hasFocus)
    unfocused = _shot(table)
    table.setFocus(Qt.FocusReason.TabFocusReason)  # as Tab moves there
    qtbot.waitUntil(table.hasFocus)
    focused = _shot(table)
    assert focused != unfocused
    # the difference is a frame along the edge, the middle (the placeholder) is unchanged
    width, height = focused.width(), focused.height()
    band = range(6)  # the outermost pixels
    edge = [(x, y) for x in range(10, width - 10) for y in band]
    edge += [(x, y) for y in range(10, height - 10) for x in band]
    assert any(focused.pixel(x, y) != unfocused.pixel(x, y) for x, y in edge)
    assert focused.copy(40, 40, width - 80, height - 80) == unfocused.copy(
        40, 40, width - 80, height - 80
    )
    field.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(field.hasFocus)
    assert _shot(table) == unfocused  # and it goes when the focus leaves

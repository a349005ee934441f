"""FlowRow: controls side by side while they fit, on further lines when they do not, never
overlapping and never narrower than their size hints (the stores tab's buttons, Test search's
options in German at 200 %)."""

from __future__ import annotations

import itertools

from PySide6.QtWidgets import QPushButton, QWidget
from pytestqt.qtbot import QtBot

from kortty_rag.gui.flow_row import FlowRow


def test_a_flow_row_wraps_instead_of_growing(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    row = FlowRow(host, line_spacing=4)
    row.setContentsMargins(0, 0, 0, 0)
    buttons = [
        QPushButton(text, host)
        for text in ("Dateien hinzufügen…", "Ordner hinzufügen…", "Jetzt aktualisieren")
    ]
    for button in buttons:
        row.addWidget(button)
    widest = max(b.sizeHint().width() for b in buttons)
    assert row.minimumSize().width() == widest  # a window needs the widest, not the sum
    assert row.sizeHint().width() > 2 * widest
    host.show()
    qtbot.waitExposed(host)

    def placed(width: int) -> list[tuple[int, int]]:
        host.resize(width, row.heightForWidth(width))
        qtbot.wait(10)
        shown = [b for b in buttons if b.isVisible()]
        for a, b in itertools.combinations(shown, 2):
            assert not a.geometry().intersects(b.geometry())
        for button in shown:
            assert button.width() >= button.sizeHint().width()
            assert button.geometry().right() < width
        return [(b.x(), b.y()) for b in shown]

    one_line = placed(row.sizeHint().width() + 10)
    assert len({y for _, y in one_line}) == 1
    three_lines = placed(widest + 2)
    assert len({y for _, y in three_lines}) == 3 and {x for x, _ in three_lines} == {0}
    assert row.heightForWidth(widest + 2) > row.heightForWidth(row.sizeHint().width() + 10)
    buttons[1].hide()  # a hidden control takes no room
    assert len({y for _, y in placed(widest + 2)}) == 2

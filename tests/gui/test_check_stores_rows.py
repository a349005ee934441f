"""Check stores' long findings wrap in their row instead of being cut beside an empty column
(issue 29, point 5): a row is as many lines tall as its text needs at the column's width."""

from __future__ import annotations

import math

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from kortty_rag.app.doctor import DoctorReport, Finding, Severity
from kortty_rag.app.workspace import Workspace
from kortty_rag.gui.dialogs.check_stores import CheckStoresDialog
from kortty_rag.gui.workers import JobRunner

LONG = (
    "The snapshot snap-0042 lists a file whose size and SHA-256 digest differ from the ones "
    "written when it was activated, so its vectors cannot be trusted any more"
)


def test_a_long_finding_wraps_and_a_short_one_keeps_one_line(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    dialog = CheckStoresDialog(Workspace(), JobRunner(parent), parent)
    dialog.resize(900, 420)
    dialog.show()
    qtbot.waitExposed(dialog)
    report = DoctorReport(
        findings=(
            Finding("Docs", "snapshot", Severity.PROBLEM, LONG, fix="Rebuild the store."),
            Finding("Docs", "model", Severity.OK, "verified"),
        )
    )
    dialog.show_report(report)
    table = dialog.table
    long_row, short_row = table.topLevelItem(0), table.topLevelItem(1)
    assert long_row is not None and short_row is not None
    line = table.fontMetrics().height()
    advance = table.fontMetrics().horizontalAdvance(LONG)

    def height(item: object) -> int:
        return table.visualItemRect(item).height()  # type: ignore[arg-type]

    def fits() -> bool:
        """The row is as tall as its wrapped text: at least the lines it needs, and not many more
        (word wrap may need a line more than the width alone)."""
        lines = lines_needed()
        return lines * line <= height(long_row) <= (lines + 2) * line

    def lines_needed() -> int:
        # wrapped at word boundaries, the text needs at least its width over the column's lines
        return math.ceil(advance / table.header().sectionSize(3))

    # the columns share the width once the dialog is shown: the finding gets most of it
    qtbot.waitUntil(lambda: table.header().sectionSize(3) > 400, timeout=5_000)
    assert lines_needed() >= 2  # the finding does not fit on one line at 900 pixels
    qtbot.waitUntil(fits, timeout=5_000)
    assert height(short_row) < 2 * line
    # a narrower window: the finding needs more lines, and gets them
    before, lines_before = height(long_row), lines_needed()
    dialog.resize(520, 420)
    qtbot.waitUntil(lambda: lines_needed() > lines_before, timeout=5_000)
    qtbot.waitUntil(fits, timeout=5_000)
    assert height(long_row) > before
    assert height(short_row) < 2 * line
    assert long_row.toolTip(3) == LONG  # the whole text in the tooltip, as before
    dialog.close()

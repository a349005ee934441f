"""The review dialog's summary shows a hostile root path on one line and as plain text (issue 10,
finding 5): a newline in the path cannot add a line to the summary, markup is not rendered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from kortty_rag.gui.dialogs.review import ReviewDialog
from kortty_rag.models import Source, SourceKind
from kortty_rag.sources.review import ReviewReport, RootState, SourceReview
from kortty_rag.sync.plan import ChangePlan
from kortty_rag.sync.session import PreparedReview


def test_a_hostile_root_path_stays_one_plain_line(qtbot: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "gone\nTo index: 999 (forged)\u202e<b>bold</b>")
    source = Source(id="s1", path=path, kind=SourceKind.FOLDER)
    report = ReviewReport(
        sources=(
            SourceReview(
                source, rows=(), root_state=RootState.ERROR, root_error="the folder is missing"
            ),
        )
    )
    dialog = ReviewDialog(PreparedReview("store", report, ChangePlan((), 0), ()), title="Review")
    qtbot.addWidget(dialog)
    lines = dialog.summary.text().split("\n")
    assert len(lines) == len(report.summary().lines()) + 1, lines
    assert (
        lines[-1]
        == f"{tmp_path}/gone\\nTo index: 999 (forged)\\u202e<b>bold</b>: the folder is missing"
    )
    assert dialog.summary.textFormat() == Qt.TextFormat.PlainText

"""Your own questions as a check, in Test search, with real widgets, the real core and the real
starter model: an excerpt marked right and another wrong from the keyboard (Alt+R, Alt+W on the
selected row), the marks shown in words and kept for the store — readable by the CLI's
Workspace, without any file text —, then *Check my questions* (Alt+C) shows the figures, and
after a settings change "before → now"."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from tests.helpers.search_dialog import active_test_search, run_query

from kortty_rag.app.judgments import Verdict, judgments_path
from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.gui.dialogs.judging import CheckDialog
from kortty_rag.gui.dialogs.test_search import TestSearchDialog
from kortty_rag.models import RelevanceLevel, Store
from kortty_rag.sync.session import StoreSession

CORPUS = Path(__file__).parents[1] / "data" / "corpus"
#: a sentence of volcano.txt: never in the judgments file
VOLCANO_SENTENCE = "Beneath the cone lies a magma"
QUESTION = "how do volcanoes erupt?"
WAIT_MSECS = 120_000


@pytest.fixture
def store(tmp_path: Path, starter_model: object) -> Store:
    from kortty_rag.embedding.catalog import STARTER_ID
    from kortty_rag.embedding.installed import get_model

    docs = tmp_path / "docs"
    shutil.copytree(CORPUS / "science", docs)
    registry = StoreRegistry()
    created = registry.create("S", get_model(STARTER_ID).identity())
    with StoreSession(created, registry=registry) as job:
        job.apply(job.review_new_sources([docs]))
    return registry.get("S")


@pytest.fixture
def dialog(qtbot: QtBot, store: Store) -> Iterator[TestSearchDialog]:
    with active_test_search(qtbot, store) as opened:
        yield opened


def mark_column(dialog: TestSearchDialog) -> list[str]:
    table, column = dialog.results_table, dialog.results_table.columnCount() - 1
    return [
        (item.text() if (item := table.item(r, column)) else "") for r in range(table.rowCount())
    ]


def check(qtbot: QtBot, dialog: TestSearchDialog, previous: CheckDialog | None) -> CheckDialog:
    """Alt+C, then the figures' dialog of this check."""
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=5000)
    focused = QApplication.focusWidget() or dialog
    QTest.keyClick(focused, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(
        lambda: (
            dialog.judging.check_dialog not in (None, previous)
            and dialog.judging.check_dialog.isVisible()
        ),
        timeout=WAIT_MSECS,
    )
    qtbot.waitUntil(lambda: not dialog.judging.busy, timeout=WAIT_MSECS)
    shown = dialog.judging.check_dialog
    assert shown is not None
    return shown


def test_marks_from_the_keyboard_are_kept_and_checked_before_and_now(
    qtbot: QtBot, dialog: TestSearchDialog, store: Store
) -> None:
    judging = dialog.judging
    assert not judging.right_button.isEnabled() and not judging.check_button.isEnabled()
    dialog.relevance_combo.setCurrentIndex(0)  # off for this dialog: more than one document
    qtbot.waitUntil(lambda: not dialog.busy, timeout=WAIT_MSECS)
    result = run_query(qtbot, dialog, QUESTION)
    documents = list(dict.fromkeys(e.path for e in result.excerpts))
    assert len(documents) >= 2 and documents[0].endswith("volcano.txt")
    assert (
        dialog.results_table.horizontalHeaderItem(dialog.results_table.columnCount() - 1).text()
        == "Your mark"
    )  # type: ignore[union-attr]

    table = dialog.results_table
    table.setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(table, Qt.Key.Key_End)
    QTest.keyClick(table, Qt.Key.Key_Home)  # the first excerpt, R1
    assert table.selectionModel().selectedRows()[0].row() == 0
    assert judging.right_button.isEnabled()
    QTest.keyClick(table, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)  # Mark right
    qtbot.waitUntil(lambda: mark_column(dialog)[0] == "right", timeout=5000)
    other = next(i for i, e in enumerate(result.excerpts) if e.path != documents[0])
    table.setFocus(Qt.FocusReason.TabFocusReason)
    for _ in range(other):
        QTest.keyClick(table, Qt.Key.Key_Down)
    assert table.selectionModel().selectedRows()[0].row() == other
    QTest.keyClick(table, Qt.Key.Key_W, Qt.KeyboardModifier.AltModifier)  # Mark wrong
    qtbot.waitUntil(lambda: mark_column(dialog)[other] == "wrong", timeout=5000)
    # the mark is the document's: every excerpt of it shows it, in words
    shown = mark_column(dialog)
    for row, excerpt in enumerate(result.excerpts):
        if excerpt.path == documents[0]:
            assert shown[row] == "right"
    assert "1 right, 1 wrong" in judging.state_label.text()

    judged = Workspace().judging.judgments(store).find(QUESTION)  # what the CLI reads
    assert judged is not None
    assert judged.verdict(documents[0]) is Verdict.RELEVANT
    assert judged.verdict(result.excerpts[other].path) is Verdict.NOT_RELEVANT
    location = judged.marks[0].location
    assert location is not None and location.start == result.excerpts[0].chunk.start
    assert VOLCANO_SENTENCE not in judgments_path(store.id).read_text(encoding="utf-8")

    assert judging.check_button.isEnabled()
    first = check(qtbot, dialog, None)
    assert first.figures()["nDCG@10"] == ("–", "1.00")  # the right document is R1
    assert first.figures()["Recall@10"] == ("–", "1.00")
    assert "first check" in first.settings_label.text()
    assert "min_relevance: low" in first.settings_label.text()  # the store's kept level
    assert first.questions_table.item(0, 0).text() == QUESTION  # type: ignore[union-attr]
    assert "1,00" not in judging.state_label.text() and "1.00" in judging.state_label.text()
    first.close()

    dialog.relevance_combo.setCurrentIndex(list(RelevanceLevel).index(RelevanceLevel.HIGH))
    qtbot.waitUntil(lambda: not dialog.busy, timeout=WAIT_MSECS)
    dialog.use_relevance_button.click()  # a settings change
    second = check(qtbot, dialog, first)
    before, now = second.figures()["nDCG@10"]
    assert before == "1.00" and now in {"1.00", "0.00"}
    assert "Changed since the last check: min_relevance: low → high" in (
        second.settings_label.text()
    )
    assert "→" in judging.state_label.text()
    last = Workspace().judging.judgments(store).last_check
    assert last is not None and last.settings["min_relevance"] == "high"
    second.close()

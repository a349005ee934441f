"""Test search as the GUI tests drive it: opened as the active window over a real retrieval service,
and a question typed and searched with Enter."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kortty_rag.app.workspace import Workspace
from kortty_rag.gui.dialogs.test_search import TestSearchDialog
from kortty_rag.models import Store
from kortty_rag.retrieval.search import RetrievalResult, RetrievalService

#: a search with the real starter model on a loaded machine
SEARCH_MSECS = 120_000


@contextmanager
def active_test_search(qtbot: QtBot, store: Store) -> Iterator[TestSearchDialog]:
    """The dialog for ``store``, shown and active (keyboard shortcuts reach it); closed after."""
    service = RetrievalService()
    opened = TestSearchDialog(store, Workspace(retrieval=service))
    try:
        opened.show()
        qtbot.waitExposed(opened)
        opened.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is opened, timeout=5000)
        yield opened
    finally:
        if shiboken6.isValid(opened):
            opened.close()
        service.close()


def run_query(qtbot: QtBot, dialog: TestSearchDialog, query: str) -> RetrievalResult:
    """Type ``query``, press Enter, and wait for the result the dialog shows."""
    dialog.query_edit.clear()
    qtbot.keyClicks(dialog.query_edit, query)
    with qtbot.waitSignal(dialog.searched, timeout=SEARCH_MSECS) as blocker:
        qtbot.keyClick(dialog.query_edit, Qt.Key.Key_Return)  # Enter searches
    qtbot.waitUntil(lambda: not dialog.busy, timeout=SEARCH_MSECS)
    result = blocker.args[0]
    assert isinstance(result, RetrievalResult)
    return result

"""Test search on a store that is still being indexed says so (issue 29, point 2): a job of the
store runs on the window's job runner (here one that waits until the test lets it end)."""

from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from kortty_rag.app.workspace import Workspace
from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.dialogs.test_search import TestSearchDialog
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.progress import CancelToken, ProgressTracker


def test_the_dialog_says_the_store_is_still_being_indexed(
    qtbot: QtBot, starter_model: InstalledModel
) -> None:
    store = StoreRegistry().create("Garden", starter_model.identity())
    runner = JobRunner()
    release = threading.Event()

    def indexing(progress: ProgressTracker, cancel: CancelToken) -> None:
        release.wait(30)

    job = Job(indexing, key=store.id, name="Indexing")
    runner.start(job)
    try:
        dialog = TestSearchDialog(store, Workspace(), runner=runner)
        qtbot.addWidget(dialog)
        assert dialog.status_label.text().startswith("The store is still being indexed")
        dialog.close()
    finally:
        release.set()
        assert runner.wait(30_000)
    idle = TestSearchDialog(store, Workspace(), runner=runner)
    qtbot.addWidget(idle)
    qtbot.waitUntil(lambda: not runner.busy(store.id))
    assert "still being indexed" not in idle.status_label.text()
    idle.close()

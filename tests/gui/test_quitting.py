"""Quitting while a job runs (issue 29, point 1): Ctrl+Q during a first index asks, keeps working
when told to, else says "Cancelling…" and closes once the job stopped, leaving the store as before;
the next start says the folder was not added and offers to index it. A signal quits without asking.
Real indexing with the starter model, a real event loop; the state file is the app's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser
from tests.gui.test_stores_tab import make_store, message_box, press

from kortty_rag.config.registry import StoreRegistry
from kortty_rag.embedding.installed import InstalledModel
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.gui.quitting import INTERRUPTED
from kortty_rag.gui.state import load_state


@pytest.fixture
def many(tmp_path: Path) -> Path:
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(400):  # minutes of embedding: quitting always lands while chunks are embedded
        (folder / f"m{i}.md").write_text(f"Section {i}. " + "A long paragraph about tides. " * 60)
    return folder


def start_first_index(
    qtbot: QtBot, window: MainWindow, chooser: FixedChooser, folder: Path
) -> None:
    tab = window.stores_tab
    tab.reload()
    chooser.next_folder = str(folder)
    with qtbot.waitSignal(tab.scan_finished, timeout=120_000):
        tab.add_folder_button.click()
    qtbot.waitUntil(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    assert tab.review_dialog is not None
    tab.review_dialog.index_button.click()
    qtbot.waitUntil(lambda: "chunks/s" in tab.status_line.text(), timeout=120_000)


def test_quitting_during_a_first_index_asks_cancels_and_offers_it_again(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    many: Path,
    starter_model: InstalledModel,
) -> None:
    make_store(starter_model)
    start_first_index(qtbot, window, chooser, many)

    window.quit_action.trigger()  # Ctrl+Q
    qtbot.waitUntil(lambda: message_box("quitWhileRunningBox") is not None, timeout=10_000)
    box = message_box("quitWhileRunningBox")
    assert box is not None and "Indexing" in box.text()
    press(qtbot, "quitWhileRunningBox", "Keep working")
    qtbot.wait(300)
    assert window.isVisible() and window.runner.running  # the index goes on
    assert "chunks/s" in window.stores_tab.status_line.text()

    window.close()  # the window's close button asks the same
    press(qtbot, "quitWhileRunningBox", "Cancel job and quit")
    assert "Cancelling" in window.status.message.text() or not window.isVisible()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=60_000)
    assert not window.runner.running
    assert StoreRegistry().get("Docs").sources == ()  # the store as before the job
    assert load_state()[INTERRUPTED] == [
        {"store": StoreRegistry().get("Docs").id, "paths": [str(many)]}
    ]

    again = MainWindow(chooser=chooser, watch=False)  # the next start
    qtbot.addWidget(again)
    try:
        again.show()
        qtbot.waitUntil(lambda: message_box("interruptedIndexBox") is not None, timeout=10_000)
        offer = message_box("interruptedIndexBox")
        assert offer is not None and str(many) in offer.text() and "not" in offer.text()
        assert INTERRUPTED not in load_state()  # said once
        with qtbot.waitSignal(again.stores_tab.scan_finished, timeout=120_000):
            press(qtbot, "interruptedIndexBox", "Index now")
        review = again.stores_tab.review_dialog
        assert review is not None and review.isVisible()  # the review first, as always
        review.reject()
    finally:
        again.shutdown()


def test_a_signal_quits_without_asking_and_cancels_cleanly(
    qtbot: QtBot,
    window: MainWindow,
    chooser: FixedChooser,
    many: Path,
    starter_model: InstalledModel,
) -> None:
    make_store(starter_model)
    start_first_index(qtbot, window, chooser, many)
    window.force_quit = True  # what gui/app.py sets on SIGTERM and SIGINT
    window.close()
    assert not window.isVisible()
    assert message_box("quitWhileRunningBox") is None
    # cancelled and waited for before the window went (their "done" is delivered by the event loop)
    assert all(job.completed.is_set() for job in window.runner.running)
    assert StoreRegistry().get("Docs").sources == ()
    assert [entry["paths"] for entry in load_state()[INTERRUPTED]] == [[str(many)]]


def test_quitting_with_nothing_running_closes_at_once(qtbot: QtBot, window: MainWindow) -> None:
    window.quit_action.trigger()
    assert not window.isVisible()
    assert message_box("quitWhileRunningBox") is None
    assert INTERRUPTED not in load_state()

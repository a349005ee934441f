"""GUI tests run on Qt's offscreen platform, and no test may leave a worker thread running.

``QT_QPA_PLATFORM`` must be set before Qt is first imported, so it is set here at import time (pytest
imports this conftest before the test modules of this folder). Every :class:`JobRunner` created during
a test is recorded; after the test each one is waited on (bounded) and must have no active thread, and
neither may the global thread pool. A test that leaves work behind fails, after its jobs are cancelled
and waited for so the next test starts clean.

The app speaks English in these tests (with its English plural forms: "1 chunk", "2 chunks"), as
``kortty_rag.gui.app.run_gui`` installs it for KORTTY_LANG=en; a test that asks for the ``german``
fixture sees it in German, as KORTTY_LANG=de would.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from tests.gui.choosers import FixedChooser

from kortty_rag.gui import i18n
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.gui.workers import JobRunner

#: how long a finished test may take to let its workers return to their pools
SETTLE_MSECS = 30_000


@pytest.fixture(scope="session", autouse=True)
def english(qapp: QApplication) -> Iterator[i18n.Translations]:
    installed = i18n.install("en")
    yield installed
    installed.remove()


@pytest.fixture
def german(english: i18n.Translations) -> Iterator[i18n.Translations]:
    """The app in German for this test; English again after it."""
    installed = i18n.install("de")
    try:
        yield installed
    finally:
        installed.remove()  # the session's English stays installed under it


@pytest.fixture(autouse=True)
def no_worker_left_running(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[JobRunner]]:
    runners: list[JobRunner] = []
    original = JobRunner.__init__

    def recording_init(self: JobRunner, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        runners.append(self)

    monkeypatch.setattr(JobRunner, "__init__", recording_init)
    yield runners
    left: list[str] = []
    for runner in runners:
        try:
            names = [job.name for job in runner.running]
            settled = runner.wait(SETTLE_MSECS)
            active = runner.pool.activeThreadCount()
        except RuntimeError:  # the C++ object is gone, and with it its pool (waited on deletion)
            continue
        if not settled or active:
            left.append(f"{names or 'a job'} ({active} threads)")
            runner.cancel_all()
            runner.wait(SETTLE_MSECS)
    pool = QThreadPool.globalInstance()
    pool.waitForDone(SETTLE_MSECS)
    assert not left, f"worker threads left running after the test: {left}"
    assert pool.activeThreadCount() == 0


@pytest.fixture
def chooser() -> FixedChooser:
    """File and folder choosers answered by the test (``chooser.next_folder = …``)."""
    return FixedChooser()


@pytest.fixture
def window(qtbot: QtBot, chooser: FixedChooser) -> Iterator[MainWindow]:
    """The main window, shown, with the test's choosers; shut down after the test."""
    win = MainWindow(chooser=chooser, watch=False)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.shutdown()

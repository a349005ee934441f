"""Unexpected errors keep their diagnostics: the error box shows the traceback under Show Details…
and opens the log folder, and the app's log has the traceback too. Errors raised on purpose say what
to do, and nothing more. A folder no file manager can show is named in a box instead."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from kortty_rag.app.diagnostics import log_file, start_log, stop_log
from kortty_rag.config.paths import rag_dir
from kortty_rag.errors import StoreBusyError
from kortty_rag.gui.common import open_log_folder_text, show_error
from kortty_rag.gui.main_window import MainWindow
from kortty_rag.gui.workers import Job, JobRunner


def broken_function(progress: object, cancel: object) -> None:
    {}["missing key"]  # a bug, not a refusal


def test_an_unexpected_error_shows_its_traceback_and_the_log_folder(
    qtbot: QtBot, kortty_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []

    def open_url(url: QUrl) -> bool:
        opened.append(url)
        return True  # a file manager started

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(open_url))
    start_log("gui")
    try:
        parent = QWidget()
        qtbot.addWidget(parent)
        runner = JobRunner(parent)
        job = Job(broken_function, key="k", name="broken")
        with qtbot.waitSignal(job.signals.failed, timeout=30_000) as failed:
            runner.start(job)
        box = show_error(parent, "Indexing failed", failed.args[0])
        qtbot.waitUntil(box.isVisible, timeout=10_000)
        assert "KeyError" in box.text()
        assert "broken_function" in box.detailedText()  # where it happened, from the worker
        assert "command line" not in box.informativeText()
        assert "Show Details" in box.informativeText()
        buttons = {b.text(): b for b in box.buttons()}
        assert open_log_folder_text() == "Open log folder"
        buttons[open_log_folder_text()].click()
        assert [u.toLocalFile() for u in opened] == [str(kortty_home / "rag" / "logs")]
        logged = log_file("gui").read_text(encoding="utf-8")
        assert "Indexing failed: KeyError" in logged and "broken_function" in logged
        assert log_file("gui").stat().st_mode & 0o077 == 0  # private to the user
        runner.wait()
    finally:
        stop_log("gui")


def test_an_error_raised_on_purpose_says_what_to_do_without_details(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    box: QMessageBox = show_error(
        parent, "Store busy", StoreBusyError("Store Docs is busy", hint="Wait for it to finish.")
    )
    qtbot.waitUntil(box.isVisible, timeout=10_000)
    assert box.detailedText() == ""
    assert open_log_folder_text() not in [b.text() for b in box.buttons()]
    assert box.informativeText() == "What to do: Wait for it to finish."
    box.close()


def visible_info_boxes() -> list[QMessageBox]:
    return [
        w
        for w in QApplication.topLevelWidgets()
        if isinstance(w, QMessageBox) and w.objectName() == "infoBox" and w.isVisible()
    ]


@pytest.mark.parametrize("opens", [False, True])
def test_open_data_folder_names_the_folder_when_no_file_manager_starts(
    qtbot: QtBot, kortty_home: Path, monkeypatch: pytest.MonkeyPatch, opens: bool
) -> None:
    """File → Open data folder: a desktop without a file manager (``openUrl`` fails, as it does
    offscreen) gets a box with the folder's path, selectable; one with a file manager gets no box."""
    asked: list[str] = []

    def open_url(url: QUrl) -> bool:
        asked.append(url.toLocalFile())
        return opens

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(open_url))
    window = MainWindow(watch=False)
    qtbot.addWidget(window)
    window.open_data_action.trigger()
    assert asked == [str(rag_dir())] and rag_dir().is_dir()
    if opens:
        qtbot.wait(200)
        assert visible_info_boxes() == []
        return
    qtbot.waitUntil(lambda: bool(visible_info_boxes()), timeout=10_000)
    box = visible_info_boxes()[0]
    assert str(kortty_home / "rag") in box.text()
    assert box.windowTitle() == "Open data folder"
    assert box.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    box.close()

"""Unexpected errors keep their diagnostics: the error box shows the traceback under Show Details…
and opens the log folder, and the app's log has the traceback too. Errors raised on purpose say what
to do, and nothing more."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from kortty_rag.app.diagnostics import log_file, start_log, stop_log
from kortty_rag.errors import StoreBusyError
from kortty_rag.gui.common import open_log_folder_text, show_error
from kortty_rag.gui.workers import Job, JobRunner


def broken_function(progress: object, cancel: object) -> None:
    {}["missing key"]  # a bug, not a refusal


def test_an_unexpected_error_shows_its_traceback_and_the_log_folder(
    qtbot: QtBot, kortty_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(opened.append))
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

"""The status area with real worker jobs (plain functions on the real JobRunner): a job started
meanwhile is shown on top and the area returns to the first when it ends; a job that cannot stop
offers no Cancel; Cancel says so at once."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from kortty_rag.gui.status_area import StatusArea
from kortty_rag.gui.workers import Job, JobRunner
from kortty_rag.progress import CancelToken, ProgressTracker


def waiting_job(release: threading.Event, key: str) -> Job:
    def run(progress: ProgressTracker, cancel: CancelToken) -> str:
        progress.stage("index", total=10)
        progress.advance(3)
        while not release.wait(0.02):
            cancel.raise_if_cancelled()
        return key

    return Job(run, key=key, name=key)


def test_jobs_stack_and_cancel_applies_to_the_one_shown(qtbot: QtBot) -> None:
    area = StatusArea()
    qtbot.addWidget(area)
    area.show()
    runner = JobRunner(area)
    first_release, second_release = threading.Event(), threading.Event()
    first, second = waiting_job(first_release, "first"), waiting_job(second_release, "second")
    try:
        runner.start(first)
        area.track(first, "Indexing first")
        qtbot.waitUntil(
            lambda: "Indexing first — Embedding…" in area.message.text(), timeout=10_000
        )
        runner.start(second)
        area.track(second, "Installing", cancellable=False)
        assert area.cancel_button.isHidden()  # a job that cannot stop offers no Cancel
        qtbot.waitUntil(lambda: "Installing — Embedding…" in area.message.text(), timeout=10_000)
        with qtbot.waitSignal(second.signals.done, timeout=10_000):
            second_release.set()
        assert not area.cancel_button.isHidden() and area.cancel_button.isEnabled()
        qtbot.waitUntil(lambda: "Indexing first" in area.message.text(), timeout=10_000)
        with qtbot.waitSignal(first.signals.cancelled, timeout=10_000):
            area.cancel_button.click()
            assert area.message.text() == "Cancelling…" and not area.cancel_button.isEnabled()
        qtbot.waitUntil(lambda: area.cancel_button.isHidden() and area.progress.isHidden())
    finally:
        first_release.set()
        second_release.set()
        runner.wait()


def test_a_job_that_ended_before_it_was_tracked_leaves_no_progress_bar(qtbot: QtBot) -> None:
    """A job that fails at once can end on its worker thread before track() connects to it (an
    export of a store without an index did): its "done" was never seen and a 0 % bar stayed."""
    area = StatusArea()
    qtbot.addWidget(area)
    area.show()
    runner = JobRunner(area)

    def fail_at_once(progress: ProgressTracker, cancel: CancelToken) -> None:
        raise RuntimeError("nothing to do")

    job = Job(fail_at_once, key="quick", name="quick")
    runner.start(job)
    assert job.completed.wait(10)  # it has ended before the area hears of it
    area.track(job, "Exporting")
    qtbot.waitUntil(lambda: area.progress.isHidden() and area.cancel_button.isHidden())
    runner.wait()


def test_a_job_whose_caller_says_nothing_does_not_leave_its_progress_line(qtbot: QtBot) -> None:
    """An install that fails with only an error box (its caller sets no line) once left
    "Installing … 0 %" standing for good; a caller's own words are never replaced."""
    area = StatusArea()
    qtbot.addWidget(area)
    area.show()
    runner = JobRunner(area)

    def fail(progress: ProgressTracker, cancel: CancelToken) -> None:
        progress.stage("starter")
        raise RuntimeError("already installed")

    def succeed(progress: ProgressTracker, cancel: CancelToken) -> str:
        progress.stage("starter")
        return "ok"

    failing = Job(fail, key="a", name="a")
    with qtbot.waitSignal(failing.signals.done, timeout=10_000):
        runner.start(failing)
        area.track(failing, "Installing the offline starter model", cancellable=False)
    qtbot.waitUntil(lambda: area.message.text() == "Installing the offline starter model: failed.")

    spoken = Job(succeed, key="b", name="b")

    def said_then_ticked(_: object) -> None:
        area.finish("Installed all-minilm.")
        area._redraw()  # the 400 ms timer ticking between the result and "done"

    spoken.signals.finished.connect(said_then_ticked)
    with qtbot.waitSignal(spoken.signals.done, timeout=10_000):
        runner.start(spoken)
        area.track(spoken, "Installing")
    qtbot.wait(50)
    assert area.message.text() == "Installed all-minilm."
    runner.wait()


def test_a_newer_summary_closes_the_older_box_and_the_box_takes_the_keyboard(
    qtbot: QtBot,
) -> None:
    area = StatusArea()
    qtbot.addWidget(area)
    area.show()
    area.finish("Done: 16 new.", title="Indexing finished", summary="Docs: 16 new.")
    area.summary_button.click()
    first = area.summary_box
    assert first is not None and first.isVisible() and first.text() == "Docs: 16 new."
    area.summary_button.click()  # asked again: still one box
    second = area.summary_box
    assert second is not None and second is not first
    ok = second.button(QMessageBox.StandardButton.Ok)
    assert ok is not None
    # the box is the active window, with OK focused: Enter closes it, not a button under it
    qtbot.waitUntil(lambda: QApplication.activeWindow() is second and ok.hasFocus(), timeout=5_000)
    area.finish("Done: 2 new.", title="Indexing finished", summary="Docs: 2 new.")
    assert area.summary_box is None
    qtbot.waitUntil(
        lambda: (
            not any(
                isinstance(w, QMessageBox) and w.isVisible() for w in QApplication.topLevelWidgets()
            )
        )
    )


def publishing_job(release: threading.Event, seen: dict[str, bool]) -> Job:
    """An index that has made 7 documents searchable and waits; records what a cancel chose."""

    def run(progress: ProgressTracker, cancel: CancelToken) -> str:
        progress.stage("index", total=10)
        cancel.published = 7
        try:
            while not release.wait(0.02):
                cancel.raise_if_cancelled()
        finally:
            seen["keep"] = cancel.keep_published
        return "done"

    return Job(run, key="publishing", name="publishing")


def _answer(qtbot: QtBot, area: StatusArea, key: Qt.Key) -> None:
    qtbot.waitUntil(lambda: area.keep_box is not None and area.keep_box.isVisible(), timeout=10_000)
    box = area.keep_box
    assert box is not None
    assert "7 documents indexed so far are already searchable" in box.text()
    qtbot.keyClick(box, key)


def test_cancel_of_an_index_with_searchable_parts_asks_whether_to_keep_them(
    qtbot: QtBot,
) -> None:
    area = StatusArea()
    qtbot.addWidget(area)
    area.show()
    runner = JobRunner(area)
    release = threading.Event()
    seen: dict[str, bool] = {}
    job = publishing_job(release, seen)
    try:
        runner.start(job)
        area.track(job, "Indexing")
        qtbot.waitUntil(lambda: job.cancel_token.published == 7, timeout=10_000)
        area.cancel_button.click()
        _answer(qtbot, area, Qt.Key.Key_Escape)  # Esc: go on indexing
        qtbot.waitUntil(lambda: area.keep_box is None)
        assert not job.cancel_token.cancelled and area.cancel_button.isEnabled()
        area.cancel_button.click()
        with qtbot.waitSignal(job.signals.cancelled, timeout=10_000):
            _answer(qtbot, area, Qt.Key.Key_K)  # a message box takes a mnemonic without Alt
        assert seen == {"keep": True}
    finally:
        release.set()
        runner.wait()
    discard, seen = threading.Event(), {}
    second = publishing_job(discard, seen)
    try:
        runner.start(second)
        area.track(second, "Indexing")
        qtbot.waitUntil(lambda: second.cancel_token.published == 7, timeout=10_000)
        area.cancel_button.click()
        with qtbot.waitSignal(second.signals.cancelled, timeout=10_000):
            _answer(qtbot, area, Qt.Key.Key_D)
        assert seen == {"keep": False} and area.message.text() != ""
    finally:
        discard.set()
        runner.wait()
